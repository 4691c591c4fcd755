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
from typing import TYPE_CHECKING, Any

from pbem.engine.conditions import parse_condition
from pbem.engine.presenter import Presenter
from pbem.errors import InputError

if TYPE_CHECKING:
    from pbem.maps.view import MapView

JSON = Any
TYPES = {"mobile": "M", "normal": "N", "regular": "N", "prepared": "P", "m": "M", "n": "N",
         "p": "P"}
TYPE_WORDS = {"M": "mobile", "N": "normal", "P": "prepared"}
SEE = "'pbem orders GAME --side SIDE --text' lists them with an example of each"


MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


def _date(iso: str) -> str:
    """``1944-09-17`` -> ``17 September``."""
    y, m, d = iso.split("-")
    return f"{int(d)} {MONTHS[int(m) - 1]}"


def _side(sc: Any, side: Any) -> str:
    """A side as players call it ("Allied", "German"), from the scenario's ``sides``."""
    for s in getattr(sc, "sides", None) or []:
        if isinstance(s, Mapping) and s.get("id") == side:
            return str(s.get("name") or side)
    return str(side)


def _at(sc: Any, h: Any) -> str:
    """A hex number with the place on it, if the map names one: ``1406 (Arnhem bridge)``."""
    m = getattr(sc, "map", None)
    if m is None or not isinstance(h, str):
        return str(h)
    from pbem.maps.hexmap import Hex

    try:
        name = m.place_name(Hex.parse(h))
    except ValueError:
        return h
    return f"{h} ({name})" if name else h


def _path(sc: Any, hexes: Sequence[str]) -> str:
    if not hexes:
        return ""
    return " → ".join([*hexes[:-1], _at(sc, hexes[-1])])


def _list(units: Sequence[str]) -> str:
    return ", ".join(units)


def _formation(sc: Any, fid: Any) -> str:
    f = getattr(sc, "formation", {}).get(fid) if sc is not None else None
    return f"{fid} ({f.name})" if f is not None else str(fid)


def _result_words(result: str) -> str:
    """A CRT result in words [7.5]: ``0/3g`` -> "nothing for the attacker; the defender 3, each
    a step loss or a hex of retreat, the first 2 step losses (green)"."""
    try:
        from pbem.systems.arnhem1944.tables import Result

        r = Result.parse(result)
    except ValueError:
        return result
    colour = {1: "red", 2: "green"}

    def one(who: str, n: int, m: int) -> str:
        if not n:
            return f"nothing for the {who}"
        if m >= n:
            return f"the {who} {n}, {'a step loss' if n == 1 else f'{n} step losses'} ({colour[m]})"
        each = "a step loss or a hex of retreat" if n == 1 else \
            "each a step loss or a hex of retreat"
        first = ""
        if m:
            first = f", the first {'step loss' if m == 1 else f'{m} step losses'} ({colour[m]})"
        return f"the {who} {n}, {each}{first}"

    return f"{one('attacker', r.attacker, r.attacker_min)}; {one('defender', r.defender, r.defender_min)}"


def arrival(sc: Any, st: Any, uid: str, *, short: bool = False) -> str:
    """Where and when a unit still off the map comes on [15.1, 15.2, 15.3, 17]: its turn and
    entry zone (with the zone's hexes unless ``short``) or hex, or its drop group and zone."""
    from pbem.systems.arnhem1944.rules import Game

    g = Game(sc, *sc.tables)
    r = g.reinforcement(uid)
    if r is not None:
        due = g.due_turn(st, uid)
        when = f"turn {due}" + ("" if due is None or due > st.turn else " (due now)")
        if r.hex is not None:
            return f"{when}, by hex {r.hex} [15.3]" if short else (
                f"it may enter from {when} by hex {r.hex} [15.3]: 'enter {uid} to HEX' or "
                f"'enter {uid} via {r.hex} HEX...'")
        if short:
            return f"{when}, zone {r.zone} [15.1]"
        zone = sc.map.entry_zones.get(r.zone)
        hexes = f" (hexes {' '.join(zone.hexes)})" if zone is not None else ""
        return (f"it may enter from {when} by entry zone {r.zone}{hexes}, or by the next zone "
                f"for each turn it waits [15.1]: 'enter {uid} to HEX' or 'enter {uid} via HEX "
                "HEX...' (its entry hex first)")
    for d in sc.para_drops:
        if uid in d.units:
            dz = st.drop_zones.get(d.group, d.dz)
            when = (f"turn {d.turn}" if sc.options.drop == "historic"
                    else f"turn {d.turn} or later")
            case = "17.3" if sc.options.drop == "historic" else "17.4"
            if short:
                return f"drop {d.group}, {when}, drop zone {dz} [15.2]"
            return (f"it lands by air with {d.group} on {when}, within {d.radius} hexes of the "
                    f"drop zone {dz} on {' or '.join(d.terrain)} [15.2, {case}]: 'land {uid} at "
                    "HEX' when the drop is due")
    return "it has no arrival in this scenario"


def event_text(ev: JSON, sc: Any = None) -> str:
    """One event in words, with its case (``sc``, when given, names the sides, the formations
    and the places)."""
    k = ev.get("kind")
    if k == "activated":
        who = _side(sc, ev["side"])
        if ev.get("mode") == "phase":
            return f"{who} player-turn (simplified sequence): {_list(ev['units'])} [18.1]"
        if ev.get("formation"):
            return (f"{who} activation of formation {_formation(sc, ev['formation'])}: "
                    f"{_list(ev['units'])} [3.2]")
        return f"{who} general activation: {_list(ev['units'])} [3.3]"
    if k == "moved":
        return f"{ev['unit']} moved {_path(sc, [ev['from'], *ev['path']])} [6]"
    if k == "entered":
        return f"{ev['unit']} entered the map at {_at(sc, ev['hex'])} [15]"
    if k == "ferried":
        return (f"the engineer ferried {ev['unit']} over the water from {ev['from']} to "
                f"{_at(sc, ev['to'])} [12.1]")
    if k == "combat":
        by = _list(ev["attackers"])
        if ev.get("support"):
            by += f" with artillery {_list(ev['support'])} [8.2]"
        if ev.get("air"):
            by += " and air support [13]"
        against = _list(ev.get("defenders", [])) or "the enemy"
        if ev.get("defence_support"):
            against += f" with defensive fire from {_list(ev['defence_support'])} [8.2]"
        if ev.get("air_defence"):
            against += " and air support [13]"
        lines = "; ".join(ev.get("lines", []))
        return (f"{TYPE_WORDS[ev['type']].capitalize()} attack [7.1] by {by} on {against} "
                f"at {_at(sc, ev['target'])}: {lines + ' → ' if lines else ''}{ev['odds']}, "
                f"die {ev['die']} → {ev['result']} [7.4]: {_result_words(ev['result'])} [7.5]")
    if k == "bombardment":
        lines = "; ".join(ev.get("lines", []))
        return (f"Bombardment of {_at(sc, ev['target'])} by {_list(ev['artillery'])}: "
                f"{lines + ' → ' if lines else ''}{ev['odds']}, die {ev['die']} → "
                f"{ev['result']} [8.1]: {_result_words(ev['result'])} [7.5]")
    if k == "step-lost":
        why = ev["why"]
        cite = "" if "[" in why else " [7.5]"
        left = f"{ev['steps']} left" if ev["steps"] else "none left"
        return f"{ev['unit']} lost a step ({why}, {left}){cite}"
    if k == "eliminated":
        where = f" at {_at(sc, ev['hex'])}" if ev.get("hex") else ""
        why = ev.get("why")
        return f"{ev['unit']} was eliminated{where}" + (f" {why}" if why else " [7.5]")
    if k == "retreated":
        if not ev["path"]:
            return f"{_list(ev['units'])} could not retreat from {ev['from']} [7.6]"
        return f"{_list(ev['units'])} retreated {_path(sc, [ev['from'], *ev['path']])} [7.6]"
    if k == "vacated":
        return f"{ev['hex']} was vacated [7.6]"
    if k == "advanced":
        return f"{ev['unit']} advanced {_path(sc, [ev['from'], *ev['path']])} [7.6]"
    if k == "no-advance":
        why = ev["why"]
        return f"no advance for {_list(ev['units'])}: {why}" + ("" if "[" in why else " [7.6]")
    if k == "prepared":
        return f"{ev['unit']} prepared a defensive position at {_at(sc, ev['hex'])} [11]"
    if k in ("blown", "not-blown"):
        word = "was blown" if k == "blown" else "survived"
        return f"the crossing {ev['crossing']} {word} (die {ev['die']}) [12.2]"
    if k == "skipped":
        why = ev["why"]
        return (f"action {ev['action']} of the orders was not carried out: {why}"
                + ("" if "[" in why else " [3.4]"))
    if k == "passed":
        who = _side(sc, ev["side"])
        if ev.get("owed"):
            return f"{who} passed, only to reveal the dice of the move before [2.1]"
        return f"{who} passed [2.2]"
    if k == "turn-end-die":
        return (f"turn-end die {ev['die']}: the turn "
                f"{'ends' if ev['ends'] else 'goes on'} [2.2]")
    if k == "turn-end":
        return f"End of turn {ev['turn']}: {ev['why']}"
    if k == "weather":
        how = f"die {ev['die']}, random weather [14.2]" if "die" in ev else "turn track [14.1]"
        effect = ""
        fx = getattr(sc, "weather_effects", {}).get(ev["weather"]) if sc is not None else None
        if fx is not None:
            effect = (f": {'drops allowed' if fx.drops else 'no drops'}, "
                      f"{fx.air_missions} air mission{'s' if fx.air_missions != 1 else ''} [14.3]")
        return f"Turn {ev['turn']} weather: {ev['weather']} ({how}){effect}"
    if k == "initiative":
        rolls = ev["rolls"]
        told = ", ".join(f"{_side(sc, s)} {d}" for s, d in sorted(rolls.items()))
        return (f"Turn {ev['turn']} initiative: {told}; {_side(sc, ev['side'])} acts first "
                "(ties to the Germans) [2.1]")
    if k == "supply-command":
        return (f"Turn {ev['turn']} supply and command: out of supply "
                f"{_list(ev['out_of_supply']) or 'none'}; out of command "
                f"{_list(ev['out_of_command']) or 'none'} [9.1, 10.1]")
    if k == "dropped":
        return f"{ev['unit']} landed at {_at(sc, ev['hex'])} [15.2]"
    if k == "set-up":
        placed = "; ".join(f"{u} at {_at(sc, h)}" for u, h in ev["units"].items())
        return f"{_side(sc, ev['side'])} set-up of the 1st Airborne: {placed} [17.1, 15.2]"
    if k == "drop-waits":
        return f"{ev['group']} waits for a later turn [17.4]"
    if k == "game-end":
        return f"The game ends after turn {ev['turn']}: {OUTCOME_WORDS.get(ev['outcome'], ev['outcome'])} [16]"
    if k == "morale":
        rolls = ", ".join(f"{a}+{b}" for a, b in ev["rolls"]) or "none"
        return (f"morale test (rating {ev['morale']}) for {_list(ev['units'])}: dice {rolls} → "
                f"{ev['steps']} step losses and {ev['hexes']} hexes of retreat [7.5]")
    if k == "acknowledged":
        return f"{_side(sc, ev['side'])} acknowledged the result [16]"
    return json.dumps(ev, sort_keys=True, ensure_ascii=False)


OUTCOME_WORDS = {"AL strategic": "Allied strategic victory, the Arnhem bridge in Allied hands",
                 "AL secondary": "Allied secondary victory, a bridgehead over the Neder Rijn",
                 "DE": "German victory"}

AFTERMATH = frozenset({"step-lost", "eliminated", "retreated", "vacated", "advanced",
                       "no-advance", "morale"})
"""Events told in the sentence of the combat or bombardment they follow."""


def narrate(sc: Any, events: Sequence[JSON], rolls: Sequence[Mapping[str, Any]] = (), *,
            state: JSON = None) -> list[str]:
    """A step's events as sentences: the activation first (the rules log it last), each combat
    with what followed it (losses, retreats, advance) in one line, landings together, and after
    the end of a turn where the game stands for victory [16]."""
    evs = [e for e in events if isinstance(e, Mapping)]
    lines: list[str] = []
    first = [e for e in evs if e.get("kind") == "activated"]
    lines += [event_text(e, sc) for e in first]
    combat: int | None = None
    landed: list[str] = []
    ended = False
    for ev in evs:
        k = ev.get("kind")
        if k == "activated":
            continue
        if k == "dropped":
            landed.append(f"{ev['unit']} at {_at(sc, ev['hex'])}")
            continue
        if landed:
            lines.append(f"Airborne landings: {'; '.join(landed)} [15.2]")
            landed = []
        text = event_text(ev, sc)
        if k in AFTERMATH and combat is not None and not (
                k == "step-lost" and "stacking" in str(ev.get("why"))):
            lines[combat] += f"; {text}"
            continue
        combat = len(lines) if k in ("combat", "bombardment") else None
        lines.append(text[0].upper() + text[1:] if text else text)
        ended = ended or k in ("turn-end", "game-end")
    if landed:
        lines.append(f"Airborne landings: {'; '.join(landed)} [15.2]")
    if ended and state is not None and sc is not None:
        lines.append(standing_text(sc, state))
    if rolls:
        told = [f"{r.get('label', '?')}: {r.get('value', '?')}" for r in rolls]
        lines.append(f"Dice rolled ({len(told)}): " + "; ".join(told)
                     + " -- pbem verify re-derives every one")
    return lines


def standing_text(sc: Any, state: JSON) -> str:
    """Where the game stands for victory [16]: the Allied infantry steps over the Neder Rijn
    and the Arnhem bridge's hexes held."""
    from pbem.systems.arnhem1944.rules import Game
    from pbem.systems.arnhem1944.state import State

    st = state if isinstance(state, State) else State.model_validate(state)
    v = sc.victory
    steps = Game(sc, *sc.tables).bridgehead(st)
    held = sum(1 for h in v.bridge_hexes if st.bridge.get(h) == "AL")
    east = f" from hex column {v.east_of_col:02d} east" if v.east_of_col else ""
    return (f"Victory stands at [16]: {steps} Allied infantry steps over the {v.river}{east} "
            f"({v.bridgehead_steps} make a secondary victory); {held} of "
            f"{len(v.bridge_hexes)} hexes of the {v.bridge} in Allied hands (both make a "
            "strategic victory)")


def _condition(cond: Any) -> str:
    if isinstance(cond, Mapping):
        if cond.get("event") == "vacated" and set(cond) == {"event", "hex"}:
            return f"if {cond['hex']} is vacated"
        inner = cond.get("not")
        if isinstance(inner, Mapping) and inner.get("event") == "vacated" and set(inner) == {
                "event", "hex"}:
            return f"unless {inner['hex']} is vacated"
    return f"if {parse_condition(cond).describe()}"


def action_text(a: JSON, sc: Any = None) -> str:
    """One action of an activation in words, with its case."""
    cond = f"{_condition(a['if'])}: " if a.get("if") else ""
    do = a["do"]
    if do == "move":
        where = _path(sc, a["path"]) if a.get("path") else f"to {_at(sc, a.get('to'))}"
        text = f"{a['unit']} moves {where} [6]"
    elif do == "enter":
        zone = f" by zone {a['zone']}" if a.get("zone") else ""
        text = f"{a['unit']} enters{zone} at {_path(sc, a['path'])} [15]"
    elif do == "attack":
        text = (f"{TYPE_WORDS[a['type']]} attack on {_at(sc, a['target'])} by "
                f"{_list(a['units'])}")
        cases = ["7.1"]
        if a.get("support"):
            text += f", supported by {_list(a['support'])}"
            cases.append("8.2")
        if a.get("air"):
            text += ", with air support"
            cases.append("13")
        if a.get("hold"):
            text += ", the attackers holding whatever the result"
        elif a.get("hold_if"):
            text += f", the attackers holding {_condition(a['hold_if'])}"
        if a.get("lose") and not a.get("hold"):
            text += (f"{' and otherwise' if a.get('hold_if') else ','} taking up to {a['lose']} "
                     "step losses before any retreat")
        if a.get("hold") or a.get("hold_if") or a.get("lose"):
            cases.append("7.5")
        if a.get("towards"):
            text += f", retreating towards {_at(sc, a['towards'])} if they must"
            cases.append("7.6")
        text += f" [{', '.join(cases)}]"
    elif do == "advance":
        n = f" up to {a['hexes']} hexes" if a.get("hexes") else ""
        text = f"advance{n} into the vacated hex by {_list(a['units'])} [7.6]"
    elif do == "bombard":
        text = f"bombardment of {_at(sc, a['target'])} by {_list(a['support'])} [8.1]"
    else:
        text = f"defensive position prepared by {_list(a['units'])} [11]"
    return cond + text


def standing_lines(st: Mapping[str, Any]) -> list[str]:
    """A side's standing orders for the other side's activations, in words."""
    out = []
    if st.get("defence") == "hold":
        out.append("when attacked, take every result as step losses, no retreat [7.5]")
    elif st.get("defence") == "retreat":
        out.append("when attacked, retreat rather than lose steps where the result allows "
                   "[7.5]")
    if st.get("hold"):
        out.append(f"hold (step losses, no retreat) at {_list(st['hold'])} [7.5]")
    if st.get("lose"):
        out.append(f"when attacked, take up to {st['lose']} step loss"
                   f"{'es' if st['lose'] != 1 else ''} (the compulsory ones included) before "
                   "any hex of retreat [7.5]")
    if st.get("keep"):
        out.append(f"but never a step loss the result does not compel that leaves a stack "
                   f"with fewer than {st['keep']} step{'s' if st['keep'] != 1 else ''} [7.5]")
    if st.get("fire") is False:
        out.append("no defensive artillery fire [8.2]")
    if st.get("air") is False:
        out.append("no air support in defence [13]")
    if st.get("stacking"):
        out.append(f"overstacked steps are lost first from {_list(st['stacking'])} [5]")
    for who, h in sorted((st.get("retreat") or {}).items()):
        what = "any unit" if who == "*" else (f"the stack at {who}" if who.isdigit() else who)
        out.append(f"{what} retreats towards {h} among the hexes the priorities allow [7.6]")
    return out


def _unit_at(w: list[str], verb: str, case: str, what: str) -> dict[str, str]:
    """'land UNIT [at] HEX' / 'place UNIT [at] HEX' as ``{unit, hex}``, checked as a landing."""
    from pydantic import ValidationError

    from pbem.systems.arnhem1944.orders import Landing, explain

    where = w[3:] if len(w) > 2 and w[2] == "at" else w[2:]
    if len(where) != 1:
        raise InputError(f"one hex for each unit: '{verb} {w[1]} at HEX' [{case}]")
    entry = {"unit": w[1], "hex": where[0]}
    try:
        Landing.model_validate(entry)
    except ValidationError as exc:
        raise InputError(explain(exc, what)) from None
    return entry


def _standing_in_force(state: Any, side: str, orders: Mapping[str, Any]) -> list[str]:
    """[7.5, 8.2] what becomes of the standing orders given earlier: orders that carry standing
    orders replace them all; an activation or pass without leaves them in force."""
    from pbem.systems.arnhem1944.state import Standing, State

    if orders.get("kind") not in ("activation", "pass") or state is None:
        return []
    st = state if isinstance(state, State) else State.model_validate(state)
    if st.owed == side:
        return []  # a pass that only reveals dice carries no standing orders [2.1]
    earlier = st.standing.get(side)
    if earlier is None or earlier == Standing():
        return []
    said = "; ".join(standing_lines(earlier.model_dump(mode="json")))
    if isinstance(orders.get("standing"), Mapping):
        return [f"these standing orders replace every one in force until now ({said})"]
    return [f"no new standing orders: those given earlier stay in force ({said})"]


class Arnhem1944Presenter(Presenter):
    """Words, text orders, the map view and the sparring bot of Arnhem 1944."""

    has_map = True
    writes_mail = True
    zoc_case = "4.1, 4.2"

    def side_name(self, scenario: Any, side: str) -> str:
        return _side(scenario, side)

    def about(self, scenario: Any) -> str:
        sc = scenario
        turns = sc.turns
        dates = f"{_date(turns[0].date)} to {_date(turns[-1].date)} 1944" if turns else ""
        drop = {"historic": "the historic drops [17.3]", "free": "free drops [17.4]"}[
            sc.options.drop]
        return (f"{sc.title} [{sc.rule}]: {sc.last_turn - sc.first_turn + 1} turns of a day "
                f"({dates}), {drop}; alternating activations, "
                f"{_side(sc, sc.constants.first_initiative)} initiative on turn "
                f"{sc.first_turn} [2.1].")

    def subtitle(self, scenario: Any, state: JSON, step: int, mover: str | None) -> str:
        after = f" · after the {_side(scenario, mover)} move" if mover else ""
        if not isinstance(state, Mapping):
            return f"step {step}{after}"
        t = state.get("turn")
        if state.get("phase") in ("over", "ack"):
            head = f"Game over after turn {t}"
        else:
            date = next((_date(x.date) for x in scenario.turns if x.turn == t), "")
            nxt = _side(scenario, state.get("owed") or state.get("to_act"))
            what = {"drop": "the Allied drop [15.2]",
                    "setup": "the Allied set-up [17.1]"}.get(str(state.get("phase")),
                                                          f"{nxt} to act")
            head = (f"Turn {t} of {scenario.last_turn}, {date}, {state.get('weather')} · "
                    f"{what}")
        return f"{head} · step {step}{after}"

    def standing(self, scenario: Any, state: JSON) -> str | None:
        return standing_text(scenario, state)

    def narrate(self, scenario: Any, events: Sequence[JSON],
                rolls: Sequence[Mapping[str, Any]] = (), *, state: JSON = None) -> list[str]:
        return narrate(scenario, events, rolls, state=state)

    def map_view(self, scenario: Any, state: JSON, events: Sequence[JSON], *, subtitle: str = "",
                 side: str | None = None, score: Mapping[str, int] | None = None,
                 header_lines: Sequence[str] = ()) -> MapView:
        from pbem.systems.arnhem1944.mapview import map_view

        return map_view(scenario, state, events, subtitle=subtitle, side=side, score=score,
                        header_lines=header_lines)

    def game_turn(self, scenario: Any, state: JSON) -> int | None:
        if isinstance(state, dict) and isinstance(state.get("turn"), int):
            return int(state["turn"])
        return None

    def describe_orders(self, scenario: Any, orders: JSON) -> list[str]:
        """The orders in words with their cases: what is activated, then each action in order,
        then the standing orders for the other side's activations."""
        if not isinstance(orders, dict):
            return []
        kind = orders.get("kind")
        sc = scenario
        units = _list(orders.get("units", []))
        lines: list[str]
        if kind == "activation":
            if orders.get("mode") == "formation":
                lines = [f"activates formation {_formation(sc, orders.get('formation'))}: "
                         f"{units} [3.2]"]
            elif orders.get("mode") == "phase":
                lines = [f"plays its movement and combat phases with {units} [18.1]"]
            else:
                lines = [f"general activation of {units} [3.3]"]
            lines += [f"{i}. {action_text(a, sc)}"
                      for i, a in enumerate(orders.get("actions", []), 1)]
        elif kind == "drop":
            lines = ["drops its airborne reinforcements [15.2]:"]
            lines += [f"{g} lands round a drop zone moved to {_at(sc, h)} [17.4]"
                      for g, h in orders.get("dz", {}).items()]
            lines += [f"{ln['unit']} lands at {_at(sc, ln['hex'])} [15.2]"
                      for ln in orders.get("landings", [])]
            lines += [f"{g} waits for a later turn [17.4]" for g in orders.get("wait", [])]
        elif kind == "setup":
            lines = ["sets up the 1st Airborne round its drop zone [17.1, 15.2]:"]
            lines += [f"{ln['unit']} at {_at(sc, ln['hex'])}"
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
            from pbem.systems.arnhem1944.state import Standing

            full = Standing.model_validate(st).model_dump(mode="json")
            lines += [f"standing order from now on: {line}" for line in standing_lines(full)]
        return lines

    def zones_of_control(self, scenario: Any, state: Any, side: str) -> list[Any] | None:
        """The hexes ``side``'s zones of control cover [4.1, 4.2]: around its combat units and
        HQs, not across rivers or canals (the engineer has none)."""
        from pbem.maps.hexmap import Hex
        from pbem.systems.arnhem1944.combat import zone
        from pbem.systems.arnhem1944.rules import Game
        from pbem.systems.arnhem1944.state import State

        if side not in ("AL", "DE"):
            raise InputError(f"unknown side {side!r} (sides: AL, DE)")
        st = state if isinstance(state, State) else State.model_validate(state)
        game = Game(scenario, *scenario.tables)
        covered = zone(game.board(st), game.tec, game.hexes_of(st, side, zoc_only=True))
        return sorted(Hex.parse(h) for h in covered)

    def undone(self, scenario: Any, state: Any, side: str, orders: JSON) -> list[str]:
        """Units activated with nothing to do (their activation is spent all the same [3.1]),
        attacks with no advance written [7.6]."""
        if not isinstance(orders, dict):
            return []
        out = _standing_in_force(state, side, orders)
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

    def roster(self, scenario: Any, state: Any, side: str) -> tuple[list[str], list[list[str]]]:
        """``pbem units``: every unit of ``side``, on the map, to come or gone."""
        from pbem.systems.arnhem1944.mapview import counter_values

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

    def reach(self, scenario: Any, state: Any, unit: str) -> list[str]:
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
        return [f"{h}: {c // 2}{'½' if c % 2 else ''} MP [6.3]"
                for h, c in sorted(found.items(), key=lambda x: (x[1], x[0])) if c]

    # -- text orders ----------------------------------------------------------------------------------
    def orders_template(self, scenario: Any, state: Any, side: str) -> str | None:
        """``pbem orders --text``: the units that may still be activated, by formation, in
        command or not, and an example of each order; every line a comment (unedited: a pass)."""
        from pbem.systems.arnhem1944.template import orders_template

        return orders_template(self.ruleset, scenario, state, side)

    def parse_text_orders(self, scenario: Any, skeleton: JSON, side: str, text: str) -> JSON:
        out: dict[str, Any] = {"kind": skeleton.get("kind", "pass"), "side": side}
        if out["kind"] == "drop":
            out["landings"] = []
        actions: list[dict[str, Any]] = []
        standing: dict[str, Any] = {}
        from pydantic import ValidationError

        from pbem.systems.arnhem1944.orders import MODELS, explain

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
                model.model_validate(out)
            except ValidationError as exc:
                raise InputError(explain(exc, str(out["kind"]))) from None
        return out

    def _line(self, line: str, out: dict[str, Any], actions: list[dict[str, Any]],
              standing: dict[str, Any], formations: set[str]) -> None:
        from pydantic import ValidationError

        from pbem.systems.arnhem1944.orders import Action, explain
        from pbem.systems.arnhem1944.state import Standing

        cond: dict[str, Any] | None = None
        if line.startswith("if "):
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
            line = line.strip()
        w = line.split()
        verb = w[0].lower()
        if verb.startswith("activate"):
            verb = "activate"
        act: dict[str, Any] | None = None
        rest: list[str]
        if verb in ("pass", "acknowledge"):
            out["kind"] = verb
            out.pop("landings", None)  # a pass where a drop is due: the rules say so [2.1]
        elif verb == "activate":
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
        elif verb in ("move", "enter"):
            act = {"do": verb, "unit": w[1]}
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
        elif verb == "attack":
            if len(w) < 3 or w[2].lower() not in TYPES:
                raise InputError(f"say the attack's type after the hex: 'attack {w[1] if len(w) > 1 else 'HEX'} "
                                 "mobile|normal|prepared with UNITS' (1, 3 or 5 MP) [7.1]")
            act = {"do": "attack", "target": w[1], "type": TYPES[w[2].lower()]}
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
        elif verb == "advance":
            movers = w[1:]
            act = {"do": "advance", "units": movers}
            if movers and movers[-1].isdigit() and len(movers[-1]) < 3:
                act["hexes"] = int(movers.pop())
        elif verb == "bombard":
            act = {"do": "bombard", "target": w[1], "support": w[3:] if w[2] == "with" else w[2:]}
        elif verb == "prepare":
            act = {"do": "prepare", "units": w[1:]}
        elif verb == "defend" and len(w) > 1 and w[1] in ("lose", "keep"):
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
        elif verb == "land":
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
        elif verb == "wait":
            out["kind"] = "drop"
            out.setdefault("wait", []).append(" ".join(w[1:]))
        else:
            raise InputError(f"unknown order {verb!r}: the orders are activate, move, enter, attack, advance, "
                             f"bombard, prepare, land, dz, wait, defend, hold, retreat, pass "
                             f"({SEE})")
        if verb in ("defend", "hold", "no", "stacking", "retreat"):
            try:
                Standing.model_validate(standing)
            except ValidationError as exc:
                raise InputError(explain(exc, "standing")) from None
        if act is not None:
            if cond is not None:
                act["if"] = cond
            try:
                Action.model_validate(act)
            except ValidationError as exc:
                raise InputError(explain(exc, str(act["do"]))) from None
            actions.append(act)
        elif cond is not None:
            raise InputError("only actions take a condition")

    # -- the sparring bot --------------------------------------------------------------------------------
    def bot_orders(self, scenario: Any, state: Any, side: str, *, seed: int = 0) -> JSON:
        from pbem.systems.arnhem1944.bot import bot_orders

        return bot_orders(self.ruleset, scenario, state, side, random.Random(seed))
