"""How a game of Vae Victis *Arnhem 1944* is shown: events and orders in words citing the cases,
text orders that read like the game, and a sparring bot for both sides.

Every move gets an email (``writes_mail``), as WestWall's: the subject names the turn
(:meth:`Arnhem1944Presenter.game_turn`), the narrative tells the move it answers -- the activation
first, each combat with its odds, columns, die and result in words and what followed it, the end of
a turn with its weather and initiative, and where victory stands [16] (:func:`standing_text`,
instead of the turn file's score, which counts no victory points) -- the orders follow in words
with their cases, and the map attached is cropped round the action.

Text orders, one per line (``#`` starts a comment):

(``pbem orders GAME --side SIDE --text`` prints a commented file to start from:
:mod:`pbem.systems.arnhem1944.template`)

* ``pass`` -- no activation [2.2];
* ``activate 9SS: 1/19 2/19 Werfer102`` (or without the colon) -- a formation activation [3.2];
  ``activate: a b c`` (or ``activate general: a b c``, ``activate a b c``) -- a general
  activation [3.3], the player-turn with the simplified sequence [18.1];
* ``move 1/19 to 1014`` (the cheapest path) or ``move 1/19 via 1013 1014`` / ``move 1/19 1013
  1014`` (the path), ``move 1/19 via 1013 to 1115`` (both) [6];
* ``enter HQ9 to 1102`` (the cheapest way in from its zone or hex), ``enter HQ9 at 1101 [to
  1102]``, ``enter HQ9 via 1101 1102`` / ``enter HQ9 1101 1102``, ``enter 1/19 zone C to 0602``
  -- a reinforcement [15.1, 15.3];
* ``attack 1014 prepared with 1/19 2/19 support Werfer102 [air] [hold] [lose N] [towards HEX]``
  -- ``mobile``,
  ``normal`` or ``prepared`` [7.1, 8.2, 13, 7.5];
* ``advance 1/19 2/19 [2]`` [7.6]; ``bombard 1014 with Werfer102`` [8.1]; ``prepare 1/19`` [11];
* any action may start with a condition: ``if vacated 1014: advance 1/19``, ``if not vacated
  1014: ...``, ``if {"event": "blown"}: ...`` (JSON) [3.4, 7.6];
* standing orders: ``defend hold`` / ``defend retreat``, ``defend lose 2`` (up to two step
  losses before any retreat), ``defend keep 1`` (no optional loss of a stack's last step),
  ``hold 1014``, ``no fire``, ``no air``,
  ``stacking 1/19 2/19``, ``retreat 1/19 towards 1014`` / ``retreat 1115 towards 1014`` (the
  stack at 1115) / ``retreat towards 1014`` (any unit) [5, 7.5, 7.6, 8.2];
* an attack's own split and retreat: ``attack 1014 normal with 1/19 lose 1 towards 1113``
  [7.5, 7.6];
* for the set-up: ``place 1/1P at 0305`` (or ``place 1/1P 0305``); a unit not named stays
  where the rules proposed [17.1, 15.2];
* for a drop: ``land 10/4P at 0305`` (or ``land 10/4P 0305``) and ``dz Polish Brigade 0709``,
  ``wait GROUP`` [15.2, 17.4];
* ``acknowledge`` [16].
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.engine.conditions import parse_condition
from pbem.engine.presenter import Presenter
from pbem.errors import InputError
from pbem.maps.hexmap import Hex
from pbem.maps.view import MapView
from pbem.protocol.record import RecordError
from pbem.systems.arnhem1944.activation import mp_words
from pbem.systems.arnhem1944.bot import bot_orders
from pbem.systems.arnhem1944.combat import zone
from pbem.systems.arnhem1944.mapview import counter_values, map_view
from pbem.systems.arnhem1944.model import Scenario
from pbem.systems.arnhem1944.orders import MODELS, Action, Landing, explain
from pbem.systems.arnhem1944.state import Standing, State
from pbem.systems.arnhem1944.template import orders_template
from pbem.systems.arnhem1944.words import (
    JSON,
    action_text,
    arrival,
    day_words,
    formation_words,
    hex_words,
    narrate,
    side_words,
    standing_lines,
    standing_text,
    units_words,
)

TYPES = {"mobile": "M", "normal": "N", "regular": "N", "prepared": "P", "m": "M", "n": "N",
         "p": "P"}
SEE = "'pbem orders GAME --side SIDE --text' lists them with an example of each"


def _unit_at(w: list[str], verb: str, case: str, what: str) -> dict[str, str]:
    """'land UNIT [at] HEX' / 'place UNIT [at] HEX' as ``{unit, hex}``, checked as a landing."""
    where = w[3:] if len(w) > 2 and w[2] == "at" else w[2:]
    if len(where) != 1:
        raise InputError(f"one hex for each unit: '{verb} {w[1]} at HEX' [{case}]")
    entry = {"unit": w[1], "hex": where[0]}
    try:
        Landing.parse(entry)
    except RecordError as exc:
        raise InputError(explain(exc, what)) from None
    return entry


def _standing_in_force(state: Any, side: str, orders: Mapping[str, Any]) -> list[str]:
    """[7.5, 8.2] what becomes of the standing orders given earlier: orders that carry standing
    orders replace them all; an activation or pass without leaves them in force."""
    if orders.get("kind") not in ("activation", "pass") or state is None:
        return []
    st = state if isinstance(state, State) else State.parse(state)
    if st.owed == side:
        return []  # a pass that only reveals dice carries no standing orders [2.1]
    earlier = st.standing.get(side)
    if earlier is None or earlier == Standing():
        return []
    said = "; ".join(standing_lines(earlier.to_json()))
    if isinstance(orders.get("standing"), Mapping):
        return [f"these standing orders replace every one in force until now ({said})"]
    return [f"no new standing orders: those given earlier stay in force ({said})"]


# -- one line of text orders, step by step (Arnhem1944Presenter._line) ---------------------------------
def _condition(line: str) -> tuple[dict[str, Any] | None, str]:
    """The condition an action may start with [3.4, 7.6] (``if vacated HEX:``, ``if not vacated
    HEX:``, ``if {JSON}:``) and the rest of the line; no condition and the line as it is."""
    if not line.startswith("if "):
        return None, line
    cond: dict[str, Any]
    body = line[3:].strip()
    if body.startswith("{"):
        text, _, line = body.rpartition("}:")
        cond = json.loads(text + "}")
    else:
        head, _, line = body.partition(":")
        words = head.split()
        neg = words[0] == "not"
        words = words[1:] if neg else words
        if words[0] != "vacated" or len(words) != 2:
            raise InputError("a condition reads 'if vacated HEX:', 'if not vacated HEX:' "
                             "or 'if {JSON}:'")
        cond = {"event": "vacated", "hex": words[1]}
        if neg:
            cond = {"not": cond}
    parse_condition(cond, where="if")
    return cond, line.strip()


def _activate(line: str, out: dict[str, Any], formations: set[str]) -> None:
    """``activate FORMATION: UNITS`` [3.2] or ``activate: UNITS`` [3.3] (the colon optional)."""
    head, colon, names = line[len("activate"):].partition(":")
    words = head.split()
    named = names.split() if colon else words[1:]
    name = words[0] if words else ""
    if not colon and name not in formations and name != "general":
        name, named = "", words  # 'activate a b c': a general activation [3.3]
    if colon and len(words) > 1:
        raise InputError(f"{head.strip()!r} is not a formation: 'activate FORMATION: "
                         "UNITS' [3.2] or 'activate: UNITS' [3.3]")
    if not named:
        example = name if name in formations else "9SS"
        raise InputError(f"name the units activated: 'activate {example}: UNIT UNIT...' "
                         "(a formation [3.2]) or 'activate: a b c' (a general activation "
                         "[3.3])")
    out["kind"] = "activation"
    out["units"] = named
    if name and name != "general":
        if formations and name not in formations:
            raise InputError(f"{name!r} is not a formation ({', '.join(sorted(formations))})")
        out["mode"], out["formation"] = "formation", name
    else:
        out["mode"] = "general"


def _action(verb: str, w: list[str]) -> dict[str, Any]:
    """An action of the activation: move or enter [6, 15], attack [7], advance [7.6], bombard
    [8.1], prepare [11]."""
    if verb in ("move", "enter"):
        return _move(verb, w)
    if verb == "attack":
        return _attack(w)
    if verb == "advance":
        movers = w[1:]
        act: dict[str, Any] = {"do": "advance", "units": movers}
        if movers and movers[-1].isdigit() and len(movers[-1]) < 3:
            act["hexes"] = int(movers.pop())
        return act
    if verb == "bombard":
        return {"do": "bombard", "target": w[1], "support": w[3:] if w[2] == "with" else w[2:]}
    return {"do": "prepare", "units": w[1:]}


def _move(verb: str, w: list[str]) -> dict[str, Any]:
    """``move UNIT [via] HEX... [to HEX]`` [6]; ``enter UNIT [zone Z] [at|via] HEX... [to HEX]``
    [15.1, 15.3]."""
    act: dict[str, Any] = {"do": verb, "unit": w[1]}
    rest = list(w[2:])
    if verb == "enter" and rest[:1] == ["zone"]:
        act["zone"], rest = rest[1], rest[2:]
    if rest[:1] == ["via"] or (verb == "enter" and rest[:1] == ["at"]):
        rest = rest[1:]
    if "to" in rest:
        i = rest.index("to")
        if len(rest) != i + 2:
            raise InputError(f"one hex after 'to': '{verb} {w[1]} to HEX'")
        rest, act["to"] = rest[:i], rest[i + 1]
    if rest:
        act["path"] = rest
    if not rest and "to" not in act:
        raise InputError(f"say where {w[1]} goes: '{verb} {w[1]} to HEX' (the cheapest "
                         f"path) or '{verb} {w[1]} via HEX HEX...' (the hexes in order"
                         + (", its entry hex first) [15.1, 15.3]" if verb == "enter"
                            else ") [6]"))
    return act


def _attack(w: list[str]) -> dict[str, Any]:
    """``attack HEX TYPE [with] UNITS [support ARTILLERY] [air] [hold] [towards HEX] [lose N]``
    [7.1, 7.5, 7.6, 8.2, 13]."""
    if len(w) < 3 or w[2].lower() not in TYPES:
        raise InputError(f"say the attack's type after the hex: 'attack {w[1] if len(w) > 1 else 'HEX'} "
                         "mobile|normal|prepared with UNITS' (1, 3 or 5 MP) [7.1]")
    act: dict[str, Any] = {"do": "attack", "target": w[1], "type": TYPES[w[2].lower()]}
    rest = w[3:]
    if rest and rest[0] == "with":
        rest = rest[1:]
    units: list[str] = []
    support: list[str] = []
    towards: list[str] = []
    lose: list[str] = []
    cur = units
    for x in rest:
        if x == "support":
            cur = support
        elif x == "air":
            act["air"] = True
        elif x == "hold":
            act["hold"] = True
        elif x == "towards":
            cur = towards
        elif x == "lose":
            cur = lose
        else:
            cur.append(x)
    if towards:
        if len(towards) != 1:
            raise InputError("one hex after 'towards': 'attack HEX TYPE with UNITS "
                             "towards HEX' [7.6]")
        act["towards"] = towards[0]
    if lose:
        if len(lose) != 1 or not lose[0].isdigit():
            raise InputError("one number after 'lose': 'attack HEX TYPE with UNITS lose "
                             "N' (up to N step losses before any retreat) [7.5]")
        act["lose"] = int(lose[0])
    act["units"], act["support"] = units, support
    return act


def _standing_order(verb: str, w: list[str], standing: dict[str, Any]) -> bool:
    """A standing order [5, 7.5, 7.6, 8.2] added to ``standing``: ``defend lose|keep N``,
    ``defend hold|retreat``, ``hold HEX...``, ``no fire|air``, ``stacking UNITS``, ``retreat
    [UNIT|HEX] towards HEX``; False when the line is none."""
    if verb == "defend" and len(w) > 1 and w[1] in ("lose", "keep"):
        if len(w) != 3 or not w[2].isdigit():
            raise InputError(f"say 'defend {w[1]} N' with a number of steps [7.5]")
        standing[w[1]] = int(w[2])
    elif verb == "defend":
        standing["defence"] = w[1]
    elif verb == "hold":
        standing.setdefault("hold", []).extend(w[1:])
    elif verb == "no" and w[1] in ("fire", "air"):
        standing[w[1]] = False
    elif verb == "stacking":
        standing["stacking"] = w[1:]
    elif verb == "retreat":
        if "towards" not in w or len(w) != w.index("towards") + 2 or w.index("towards") > 2:
            raise InputError("say 'retreat UNIT towards HEX', 'retreat HEX towards HEX' (the "
                             "stack there) or 'retreat towards HEX' [7.6]")
        who = w[1] if w.index("towards") == 2 else "*"
        standing.setdefault("retreat", {})[who] = w[-1]
    else:
        return False
    return True


def _arrival(verb: str, w: list[str], out: dict[str, Any]) -> None:
    """The 1st Airborne's set-up (``place``) [17.1] and a drop (``land``, ``dz``, ``wait``)
    [15.2, 17.4]."""
    if verb == "land":
        out["kind"] = "drop"
        out.setdefault("landings", []).append(_unit_at(w, "land", "15.2", "landing"))
    elif verb == "place":
        if out["kind"] != "setup":
            raise InputError("'place' is for the set-up of the 1st Airborne, before the first "
                             "activation [17.1]")
        out.setdefault("placements", []).append(_unit_at(w, "place", "17.1", "placement"))
    elif verb == "dz":
        out["kind"] = "drop"
        out.setdefault("dz", {})[" ".join(w[1:-1])] = w[-1]
    else:
        out["kind"] = "drop"
        out.setdefault("wait", []).append(" ".join(w[1:]))


ATTACK_WORDS = {"M": "mobile", "N": "normal", "P": "prepared"}
"""Attack types [7.1] in words."""


class Arnhem1944Presenter(Presenter[Scenario, State]):
    """Words, text orders, the map view and the sparring bot of Arnhem 1944."""

    has_map = True
    writes_mail = True
    zoc_case = "4.1, 4.2"

    def side_name(self, scenario: Scenario, side: str) -> str:
        return side_words(scenario, side)

    def about(self, scenario: Scenario) -> str:
        sc = scenario
        turns = sc.turns
        dates = f"{day_words(turns[0].date)} to {day_words(turns[-1].date)} 1944" if turns else ""
        drop = {"historic": "the historic drops [17.3]", "free": "free drops [17.4]"}[
            sc.options.drop]
        return (f"{sc.title} [{sc.rule}]: {sc.last_turn - sc.first_turn + 1} turns of a day "
                f"({dates}), {drop}; alternating activations, "
                f"{side_words(sc, sc.constants.first_initiative)} initiative on turn "
                f"{sc.first_turn} [2.1].")

    def subtitle(self, scenario: Scenario, turn_state: JSON, step: int, mover: str | None) -> str:
        after = f" · after the {side_words(scenario, mover)} move" if mover else ""
        if not isinstance(turn_state, Mapping):
            return f"step {step}{after}"
        t = turn_state.get("turn")
        if turn_state.get("phase") in ("over", "ack"):
            head = f"Game over after turn {t}"
        else:
            date = next((day_words(x.date) for x in scenario.turns if x.turn == t), "")
            nxt = side_words(scenario, turn_state.get("owed") or turn_state.get("to_act"))
            what = {"drop": "the Allied drop [15.2]",
                    "setup": "the Allied set-up [17.1]"}.get(str(turn_state.get("phase")),
                                                          f"{nxt} to act")
            head = (f"Turn {t} of {scenario.last_turn}, {date}, {turn_state.get('weather')} · "
                    f"{what}")
        return f"{head} · step {step}{after}"

    def standing(self, scenario: Scenario, turn_state: JSON) -> str | None:
        return standing_text(scenario, turn_state)

    def narrate(self, scenario: Scenario, events: Sequence[JSON],
                rolls: Sequence[Mapping[str, Any]] = (), *, state: State | JSON = None) -> list[str]:
        return narrate(scenario, events, rolls, state=state)

    def map_view(self, scenario: Scenario, shown: State | JSON, events: Sequence[JSON], *, subtitle: str = "",
                 side: str | None = None, score: Mapping[str, int] | None = None,
                 header_lines: Sequence[str] = ()) -> MapView:
        return map_view(scenario, shown, events, subtitle=subtitle, side=side, score=score,
                        header_lines=header_lines)

    def game_turn(self, scenario: Scenario, turn_state: JSON) -> int | None:
        if isinstance(turn_state, dict) and isinstance(turn_state.get("turn"), int):
            return int(turn_state["turn"])
        return None

    def describe_orders(self, scenario: Scenario, orders: JSON) -> list[str]:
        """The orders in words with their cases: what is activated, then each action in order,
        then the standing orders for the other side's activations."""
        if not isinstance(orders, dict):
            return []
        kind = orders.get("kind")
        sc = scenario
        units = units_words(orders.get("units", []))
        lines: list[str]
        if kind == "activation":
            if orders.get("mode") == "formation":
                lines = [f"activates formation {formation_words(sc, orders.get('formation'))}: "
                         f"{units} [3.2]"]
            elif orders.get("mode") == "phase":
                lines = [f"plays its movement and combat phases with {units} [18.1]"]
            else:
                lines = [f"general activation of {units} [3.3]"]
            lines += [f"{i}. {action_text(a, sc)}"
                      for i, a in enumerate(orders.get("actions", []), 1)]
        elif kind == "drop":
            lines = ["drops its airborne reinforcements [15.2]:"]
            lines += [f"{g} lands round a drop zone moved to {hex_words(sc, h)} [17.4]"
                      for g, h in orders.get("dz", {}).items()]
            lines += [f"{ln['unit']} lands at {hex_words(sc, ln['hex'])} [15.2]"
                      for ln in orders.get("landings", [])]
            lines += [f"{g} waits for a later turn [17.4]" for g in orders.get("wait", [])]
        elif kind == "setup":
            lines = ["sets up the 1st Airborne round its drop zone [17.1, 15.2]:"]
            lines += [f"{ln['unit']} at {hex_words(sc, ln['hex'])}"
                      for ln in orders.get("placements", [])]
            if not orders.get("placements"):
                lines.append("every unit where the rules proposed [17.1]")
        elif kind == "pass":
            lines = ["passes [2.2]"]
        elif kind == "acknowledge":
            lines = ["acknowledges the end of the game [16]"]
        else:
            lines = [str(kind)]
        st = orders.get("standing")
        if isinstance(st, Mapping):  # the whole of them, defaults included: they replace all
            full = Standing.parse(st).to_json()
            lines += [f"standing order from now on: {line}" for line in standing_lines(full)]
        return lines

    def zones_of_control(self, scenario: Scenario, turn_state: Any, side: str) -> list[Any] | None:
        """The hexes ``side``'s zones of control cover [4.1, 4.2]: around its combat units and
        HQs, not across rivers or canals (the engineer has none; artillery none from rules
        version 4)."""
        if side not in ("AL", "DE"):
            raise InputError(f"unknown side {side!r} (sides: AL, DE)")
        st = turn_state if isinstance(turn_state, State) else State.parse(turn_state)
        game = self.ruleset.game(scenario)  # type: ignore[attr-defined]
        covered = zone(game.board(st), game.tec, game.hexes_of(st, side, zoc_only=True))
        return sorted(Hex.parse(h) for h in covered)

    def undone(self, scenario: Scenario, state: State, side: str, orders: JSON) -> list[str]:
        """Units activated with nothing to do (their activation is spent all the same [3.1]),
        attacks with no advance written [7.6]."""
        if not isinstance(orders, dict):
            return []
        out = _standing_in_force(state, side, orders)
        if orders.get("kind") == "setup":  # the units not written stay where the set-up put them
            written = {ln.get("unit") for ln in orders.get("placements", [])}
            stay = [f"{p.unit} at {state.units[p.unit].hex}" for p in self.ruleset.free_setup(scenario)  # type: ignore[attr-defined]
                    if p.unit not in written and state.units[p.unit].hex is not None]
            if stay:
                out.append(f"{len(stay)} other unit{'s' if len(stay) != 1 else ''} of the set-up "
                           f"{'stay' if len(stay) != 1 else 'stays'} where pbem proposed, signed with these "
                           f"orders: {', '.join(stay)} [17.1]")
        if orders.get("kind") == "pass":
            out += self._pass_ends(scenario, state, side)
        if orders.get("kind") != "activation":
            return out
        actions = orders.get("actions", [])
        busy = {a.get("unit") for a in actions} | {
            u for a in actions for u in a.get("units", []) + a.get("support", [])}
        out += [f"{uid} is activated but neither moves nor fights: its activation for the turn "
                "is spent [3.1]" for uid in orders.get("units", []) if uid not in busy]
        for i, a in enumerate(actions):
            if a.get("do") == "attack" and not any(
                    b.get("do") == "advance" for b in actions[i + 1:]):
                out.append(f"the attack on {a.get('target')} has no advance written: nobody "
                           "advances if it is vacated [7.6]")
        return out

    def _pass_ends(self, scenario: Scenario, state: State, side: str) -> list[str]:
        """[2.2] whether this pass ends the turn, as the rules resolve a pass: after the other
        side's pass (both in a row), or when the other side has no unit left to activate; else
        the turn goes on. A pass owed only to reveal dice, and the simplified sequence, end none."""
        if not isinstance(state, State) or state.owed == side or state.options.simplified_sequence \
                or state.phase != "operations":
            return []
        them = "DE" if side == "AL" else "AL"
        name = self.side_name(scenario, them)
        ends = self.ruleset.game(scenario).pass_ends_turn(state, side)  # type: ignore[attr-defined]
        if ends == "both":
            why = f"{name} passed before it, both in a row"
        elif ends == "alone":
            why = f"{name} has no unit left to activate"
        else:
            return [f"turn {state.turn} goes on: {name} acts next, and a pass of its own then ends the turn [2.2]"]
        return [f"this pass ends turn {state.turn} ({why}): your units not yet activated do nothing more "
                "in it [2.2]"]

    def score_meaning(self, scenario: Scenario) -> dict[str, str]:
        """[16] the score is no victory-point total: the Allied side's counts the infantry steps of
        its bridgehead over the Neder Rijn, the German side's the Arnhem bridge hexes the Allies do
        not hold (the rules' own score, :meth:`Arnhem1944Rules.score`)."""
        v = scenario.victory
        return {"AL": f"Allied infantry steps over the Neder Rijn (a bridgehead of {v.bridgehead_steps} at the end "
                      "wins the secondary victory) [16]",
                "DE": f"Arnhem bridge hexes not in Allied hands (of {len(v.bridge_hexes)}; none at the end "
                      "is the Allied strategic victory) [16]"}

    def expected(self, scenario: Scenario, state: State, side: str, orders: JSON) -> list[str]:
        """Each attack's strengths and column as its die will be rolled [7.3, 7.4]: after the moves
        written before it; earlier attacks' results may still change it."""
        if not isinstance(orders, dict) or orders.get("kind") != "activation":
            return []
        parsed = self.ruleset.load_orders(scenario, orders)
        out = []
        for i, (n, target, kind, odds) in enumerate(
                self.ruleset.expected_attacks(scenario, state, side, parsed)):  # type: ignore[attr-defined]
            out.append(f"action {n}, {ATTACK_WORDS.get(kind, kind)} attack on {target}: column "
                       f"{odds.heading} [7.4]" + ("" if i == 0 else ", unless earlier results change it"))
            out += [f"  {line}" for line in odds.lines]
        return out

    def cut_off(self, scenario: Scenario, state: State) -> list[str]:
        """[10.1] each unit on the map found out of supply at the turn's supply check, with the
        enemy units that now close hexes within its supply range (their own hex, or their zone of
        control where no friendly unit stands [4.2]) -- or, when none does, that no source is near
        enough. From this state alone [27]."""
        oos = [uid for uid, u in sorted(state.units.items()) if u.on_map and u.hex is not None and not u.in_supply]
        if not oos:
            return []
        game = self.ruleset.game(scenario)  # type: ignore[attr-defined]
        board = game.board(state)
        reach = scenario.constants.supply_range
        zones: dict[str, frozenset[str]] = {}  # an enemy hex -> the hexes its zone of control covers
        out = []
        for uid in oos:
            side = game.c(uid).side
            enemy = {u.hex: sorted(game.at(state, u.hex, "DE" if side == "AL" else "AL"))
                     for x, u in state.units.items() if u.on_map and u.hex is not None and game.c(x).side != side}
            friends = game.hexes_of(state, side)
            seen = {str(state.units[uid].hex): 0}
            frontier = list(seen)
            while frontier:  # the hexes within its supply range, enemy or not
                nxt = []
                for h in frontier:
                    if seen[h] < reach:
                        for n in board.neighbours(h):
                            if n not in seen:
                                seen[n] = seen[h] + 1
                                nxt.append(n)
                frontier = nxt
            closing: dict[str, str] = {}
            for e, units in sorted(enemy.items()):
                if e is None:
                    continue
                if e not in zones:
                    zones[e] = zone(board, game.tec, game.hexes_of(state, "DE" if side == "AL" else "AL", zoc_only=True)
                                    & {e})
                if e in seen or any(h in seen and h not in friends for h in zones[e]):
                    for x in units:
                        closing[x] = e
            where = state.units[uid].hex
            if closing:
                why = ("enemy units closing hexes within its supply range of "
                       f"{reach}: {', '.join(f'{x} at {h}' for x, h in closing.items())}")
            else:
                why = f"no enemy unit within its supply range of {reach}: no source is near enough"
            out.append(f"{uid} in {where}: out of supply since the supply check of turn {state.turn} [10.1]; {why}")
        return out

    def roster(self, scenario: Scenario, state: State, side: str) -> tuple[list[str], list[list[str]]]:
        """``pbem units``: every unit of ``side``, on the map, to come or gone."""
        rows = []
        for c in scenario.counters:
            if c.side != side:
                continue
            u = state.units[c.id]
            if not u.alive:
                where, status = "-", "eliminated"
            elif u.hex is None:
                where, status = "-", "to come: " + arrival(scenario, state, c.id, short=True)
            else:
                flags = [name for name, on in (("activated", u.activated),
                                               ("out of command", not u.in_command),
                                               ("out of supply", not u.in_supply),
                                               ("prepared", u.prepared)) if on]
                where, status = u.hex, ", ".join(flags) or "ready"
            rows.append([c.id, c.name, c.formation, where, " ".join(counter_values(c, u.steps)),
                         status])
        return ["unit", "name", "formation", "hex", "values", "status"], rows

    def reach(self, scenario: Scenario, state: State, unit: str) -> list[str]:
        """``pbem reach``: the hexes the unit can reach this activation, with their cost."""
        if unit not in state.units:
            raise InputError(f"no unit {unit!r} in this game")
        game = self.ruleset.game(scenario)  # type: ignore[attr-defined]
        u = state.units[unit]
        if not u.alive:
            return [f"{unit} has been eliminated"]
        if u.hex is None:
            return [f"{unit} is not on the map: {arrival(scenario, state, unit)}"]
        found = game.reachable(state, unit)
        return [f"{h}: {mp_words(c)} MP [6.3]"
                for h, c in sorted(found.items(), key=lambda x: (x[1], x[0])) if c]

    # -- text orders ----------------------------------------------------------------------------------
    def orders_template(self, scenario: Scenario, state: State, side: str) -> str | None:
        """``pbem orders --text``: the units that may still be activated, by formation, in
        command or not, and an example of each order; every line a comment (unedited: a pass)."""
        return orders_template(self.ruleset, scenario, state, side)

    def parse_text_orders(self, scenario: Scenario, skeleton: JSON, side: str, text: str) -> JSON:
        out: dict[str, Any] = {"kind": skeleton.get("kind", "pass"), "side": side}
        if out["kind"] == "drop":
            out["landings"] = []
        actions: list[dict[str, Any]] = []
        standing: dict[str, Any] = {}
        formations = {f.id for f in getattr(scenario, "formations", [])}
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            try:
                self._line(line, out, actions, standing, formations)
            except InputError as exc:
                raise InputError(f"line {n}: {exc}") from None
            except (IndexError, KeyError, ValueError):
                raise InputError(f"line {n}: cannot read {line[:80]!r}: the orders are activate, move, "
                                 f"enter, attack, advance, bombard, prepare, land, dz, pass ({SEE})") from None
        if out["kind"] == "setup":
            out.setdefault("placements", [])
        if out["kind"] == "activation":
            out["actions"] = actions
        elif actions:
            raise InputError("actions need an 'activate' line first [3]")
        if standing:
            out["standing"] = standing
        model = MODELS.get(str(out["kind"]))
        if model is not None:  # what the lines left wrong as a whole, in words
            try:
                model.parse(out)
            except RecordError as exc:
                raise InputError(explain(exc, str(out["kind"]))) from None
        return out

    def _line(self, line: str, out: dict[str, Any], actions: list[dict[str, Any]],
              standing: dict[str, Any], formations: set[str]) -> None:
        """One line of text orders: its condition, then what its verb orders -- the kind of the
        orders [2.1, 2.2, 3, 15.2, 16, 17.1], an action [6, 7, 8, 11, 15] or a standing order
        [5, 7.5, 7.6, 8.2]."""
        cond, line = _condition(line)
        w = line.split()
        verb = w[0].lower()
        if verb.startswith("activate"):
            verb = "activate"
        act: dict[str, Any] | None = None
        if verb in ("pass", "acknowledge"):
            out["kind"] = verb
            out.pop("landings", None)  # a pass where a drop is due: the rules say so [2.1]
        elif verb == "activate":
            _activate(line, out, formations)
        elif verb in ("move", "enter", "attack", "advance", "bombard", "prepare"):
            act = _action(verb, w)
        elif _standing_order(verb, w, standing):
            try:
                Standing.parse(standing)
            except RecordError as exc:
                raise InputError(explain(exc, "standing")) from None
        elif verb in ("land", "place", "dz", "wait"):
            _arrival(verb, w, out)
        else:
            raise InputError(f"unknown order {verb!r}: the orders are activate, move, enter, attack, advance, "
                             f"bombard, prepare, land, dz, wait, defend, hold, retreat, pass "
                             f"({SEE})")
        if act is not None:
            if cond is not None:
                act["if"] = cond
            try:
                Action.parse(act)
            except RecordError as exc:
                raise InputError(explain(exc, str(act["do"]))) from None
            actions.append(act)
        elif cond is not None:
            raise InputError("only actions take a condition")

    # -- the sparring bot --------------------------------------------------------------------------------
    def bot_orders(self, scenario: Scenario, state: State, side: str, *, seed: int = 0) -> JSON:
        return bot_orders(self.ruleset, scenario, state, side, random.Random(seed))
