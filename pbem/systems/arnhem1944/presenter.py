"""How a game of Vae Victis *Arnhem 1944* is shown: events and orders in words citing the cases,
text orders that read like the game, and a sparring bot for both sides.

Text orders, one per line (``#`` starts a comment):

* ``pass`` -- no activation [2.2];
* ``activate 9SS: 1/19 2/19 Werfer102`` -- a formation activation [3.2];
  ``activate: a b c`` (or ``activate general: a b c``) -- a general activation [3.3];
* ``move 1/19 to 1014`` (the cheapest path) or ``move 1/19 1013 1014`` (the path) [6];
* ``enter HQ9 1101 1102`` / ``enter 1/19 zone C 0601`` -- a reinforcement [15.1, 15.3];
* ``attack 1014 prepared with 1/19 2/19 support Werfer102 [air] [hold]`` -- ``mobile``,
  ``normal`` or ``prepared`` [7.1, 8.2, 13, 7.5];
* ``advance 1/19 2/19 [2]`` [7.6]; ``bombard 1014 with Werfer102`` [8.1]; ``prepare 1/19`` [11];
* any action may start with a condition: ``if vacated 1014: advance 1/19``, ``if not vacated
  1014: ...``, ``if {"event": "blown"}: ...`` (JSON) [3.4, 7.6];
* standing orders: ``defend hold`` / ``defend retreat``, ``hold 1014``, ``no fire``, ``no air``,
  ``stacking 1/19 2/19`` [5, 7.5, 8.2];
* for a drop: ``land 10/4P 0305`` and ``dz Polish Brigade 0709``, ``wait GROUP`` [15.2, 17.4];
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


def event_text(ev: JSON) -> str:
    """One event in words, with its case."""
    k = ev.get("kind")
    if k == "activated":
        how = f"formation {ev['formation']}" if ev.get("formation") else "general"
        return f"{ev['side']} activates ({how}): {' '.join(ev['units'])} [3.1]"
    if k == "moved":
        return f"{ev['unit']} moves {' - '.join(ev['path'])} [6]"
    if k == "entered":
        return f"{ev['unit']} enters the map at {ev['hex']} [15]"
    if k == "ferried":
        return f"the engineer ferries {ev['unit']} from {ev['from']} to {ev['to']} [12.1]"
    if k == "combat":
        return (f"{TYPE_WORDS[ev['type']]} attack on {ev['target']} by {' '.join(ev['attackers'])}"
                f": {ev['odds']}, die {ev['die']}, result {ev['result']} [7.4] ("
                + "; ".join(ev.get("lines", [])) + ")")
    if k == "bombardment":
        return (f"bombardment of {ev['target']} by {' '.join(ev['artillery'])}: {ev['odds']}, "
                f"die {ev['die']}, result {ev['result']} [8.1]")
    if k == "step-lost":
        return f"{ev['unit']} loses a step ({ev['why']}), {ev['steps']} left [7.5]"
    if k == "eliminated":
        return f"{ev['unit']} is eliminated{' ' + ev['why'] if ev.get('why') else ''} [7.5]"
    if k == "retreated":
        return f"{' '.join(ev['units'])} retreat from {ev['from']}: {' - '.join(ev['path'])} [7.6]"
    if k == "vacated":
        return f"{ev['hex']} is vacated [7.6]"
    if k == "advanced":
        return f"{ev['unit']} advances {' - '.join(ev['path'])} [7.6]"
    if k == "no-advance":
        return f"no advance for {' '.join(ev['units'])}: {ev['why']} [7.6]"
    if k == "prepared":
        return f"{ev['unit']} prepares a defensive position at {ev['hex']} [11]"
    if k in ("blown", "not-blown"):
        word = "is blown" if k == "blown" else "survives"
        return f"the crossing {ev['crossing']} {word} (die {ev['die']}) [12.2]"
    if k == "skipped":
        return f"action {ev['action']} not carried out: {ev['why']} [3.4]"
    if k == "passed":
        return f"{ev['side']} passes{' (to reveal the dice)' if ev.get('owed') else ''} [2.2]"
    if k == "turn-end-die":
        return (f"turn-end die {ev['die']}: the turn "
                f"{'ends' if ev['ends'] else 'goes on'} [2.2]")
    if k == "turn-end":
        return f"end of turn {ev['turn']}: {ev['why']}"
    if k == "weather":
        die = f" (die {ev['die']})" if "die" in ev else ""
        return f"turn {ev['turn']} weather: {ev['weather']}{die} [14]"
    if k == "initiative":
        return f"turn {ev['turn']} initiative: {ev['side']} {ev['rolls']} [2.1]"
    if k == "supply-command":
        return (f"turn {ev['turn']}: out of supply {', '.join(ev['out_of_supply']) or 'none'}; "
                f"out of command {', '.join(ev['out_of_command']) or 'none'} [9, 10]")
    if k == "dropped":
        return f"{ev['unit']} lands at {ev['hex']} [15.2]"
    if k == "drop-waits":
        return f"{ev['group']} waits for a later turn [17.4]"
    if k == "game-end":
        return f"the game ends after turn {ev['turn']}: {ev['outcome']} [16]"
    if k == "morale":
        return (f"morale {ev['morale']} for {' '.join(ev['units'])}: dice {ev['rolls']}, "
                f"{ev['steps']} step losses and {ev['hexes']} hexes of retreat [7.5]")
    if k == "acknowledged":
        return f"{ev['side']} acknowledges the result [16]"
    return json.dumps(ev, sort_keys=True, ensure_ascii=False)


def action_text(a: JSON) -> str:
    """One action in the words of the text orders."""
    cond = ""
    if a.get("if"):
        cond = f"if {parse_condition(a['if']).describe()}: "
    do = a["do"]
    if do == "move":
        where = " ".join(a["path"]) if a.get("path") else f"to {a.get('to')}"
        return f"{cond}move {a['unit']} {where}"
    if do == "enter":
        zone = f" zone {a['zone']}" if a.get("zone") else ""
        return f"{cond}enter {a['unit']}{zone} {' '.join(a['path'])}"
    if do == "attack":
        sup = f" support {' '.join(a['support'])}" if a.get("support") else ""
        extra = (" air" if a.get("air") else "") + (" hold" if a.get("hold") else "")
        return (f"{cond}attack {a['target']} {TYPE_WORDS[a['type']]} with "
                f"{' '.join(a['units'])}{sup}{extra}")
    if do == "advance":
        n = f" {a['hexes']}" if a.get("hexes") else ""
        return f"{cond}advance {' '.join(a['units'])}{n}"
    if do == "bombard":
        return f"{cond}bombard {a['target']} with {' '.join(a['support'])}"
    return f"{cond}prepare {' '.join(a['units'])}"


class Arnhem1944Presenter(Presenter):
    """Words, text orders, the map view and the sparring bot of Arnhem 1944."""

    has_map = True

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
        if not isinstance(orders, dict):
            return []
        kind = orders.get("kind")
        side = orders.get("side")
        if kind == "activation":
            how = (f"activate {orders.get('formation')}" if orders.get("mode") == "formation"
                   else "activate")
            lines = [f"{side}: {how}: {' '.join(orders.get('units', []))} [3.2, 3.3]"]
            lines += [f"  {action_text(a)}" for a in orders.get("actions", [])]
        elif kind == "drop":
            lines = [f"{side}: drop [15.2]"]
            lines += [f"  land {ln['unit']} {ln['hex']}" for ln in orders.get("landings", [])]
            lines += [f"  dz {g} {h}" for g, h in orders.get("dz", {}).items()]
            lines += [f"  wait {g}" for g in orders.get("wait", [])]
        else:
            lines = [f"{side}: {kind}"]
        st = orders.get("standing")
        if st:
            lines.append(f"  standing orders: {json.dumps(st, sort_keys=True)} [7.5, 8.2]")
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
        game = Game(scenario)
        covered = zone(game.board(st), game.tec, game.hexes_of(st, side, zoc_only=True))
        return sorted(Hex.parse(h) for h in covered)

    def undone(self, scenario: Any, state: Any, side: str, orders: JSON) -> list[str]:
        """Units activated with nothing to do (their activation is spent all the same [3.1]),
        attacks with no advance written [7.6]."""
        if not isinstance(orders, dict) or orders.get("kind") != "activation":
            return []
        actions = orders.get("actions", [])
        busy = {a.get("unit") for a in actions} | {
            u for a in actions for u in a.get("units", []) + a.get("support", [])}
        out = [f"{uid} is activated but neither moves nor fights: its activation for the turn "
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
                where, status = "-", "to come"
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
        found = game.reachable(state, unit)
        return [f"{h}: {c // 2}{'½' if c % 2 else ''} MP [6.3]"
                for h, c in sorted(found.items(), key=lambda x: (x[1], x[0])) if c]

    # -- text orders ----------------------------------------------------------------------------------
    def parse_text_orders(self, scenario: Any, skeleton: JSON, side: str, text: str) -> JSON:
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
                                 "enter, attack, advance, bombard, prepare, land, dz, pass (README, "
                                 "'Playing Vae Victis Arnhem 1944')") from None
        if out["kind"] == "activation":
            out["actions"] = actions
        elif actions:
            raise InputError("actions need an 'activate' line first [3]")
        if standing:
            out["standing"] = standing
        return out

    def _line(self, line: str, out: dict[str, Any], actions: list[dict[str, Any]],
              standing: dict[str, Any], formations: set[str]) -> None:
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
        if verb == "pass":
            out["kind"] = "pass"
        elif verb == "acknowledge":
            out["kind"] = "acknowledge"
        elif verb == "activate":
            head, _, names = line[len("activate"):].partition(":")
            name = head.strip()
            out["kind"] = "activation"
            out["units"] = names.split()
            if name and name != "general":
                if formations and name not in formations:
                    raise InputError(f"{name!r} is not a formation ({', '.join(sorted(formations))})")
                out["mode"], out["formation"] = "formation", name
            else:
                out["mode"] = "general"
        elif verb == "move":
            if w[2] == "to":
                act = dict(do="move", unit=w[1], to=w[3])
            else:
                act = {"do": "move", "unit": w[1], "path": w[2:]}
        elif verb == "enter":
            act = {"do": "enter", "unit": w[1]}
            rest = list(w[2:])
            if rest and rest[0] == "zone":
                act["zone"], rest = rest[1], rest[2:]
            act["path"] = rest
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
            cur = units
            for x in rest:
                if x == "support":
                    cur = support
                elif x == "air":
                    act["air"] = True
                elif x == "hold":
                    act["hold"] = True
                else:
                    cur.append(x)
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
        elif verb == "defend":
            standing["defence"] = w[1]
        elif verb == "hold":
            standing.setdefault("hold", []).extend(w[1:])
        elif verb == "no" and w[1] in ("fire", "air"):
            standing[w[1]] = False
        elif verb == "stacking":
            standing["stacking"] = w[1:]
        elif verb == "land":
            out["kind"] = "drop"
            out.setdefault("landings", []).append({"unit": w[1], "hex": w[2]})
        elif verb == "dz":
            out["kind"] = "drop"
            out.setdefault("dz", {})[" ".join(w[1:-1])] = w[-1]
        elif verb == "wait":
            out["kind"] = "drop"
            out.setdefault("wait", []).append(" ".join(w[1:]))
        else:
            raise InputError(f"unknown order {verb!r}: the orders are activate, move, enter, attack, advance, "
                             "bombard, prepare, land, dz, wait, defend, hold, pass (README, 'Playing Vae Victis Arnhem 1944')")
        if act is not None:
            if cond is not None:
                act["if"] = cond
            actions.append(act)
        elif cond is not None:
            raise InputError("only actions take a condition")

    # -- the sparring bot --------------------------------------------------------------------------------
    def bot_orders(self, scenario: Any, state: Any, side: str, *, seed: int = 0) -> JSON:
        from pbem.systems.arnhem1944.bot import bot_orders

        return bot_orders(self.ruleset, scenario, state, side, random.Random(seed))
