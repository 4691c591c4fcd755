"""*Arnhem 1944* in words: each event with the case it applies (:func:`event_text`), a step's
events as sentences (:func:`narrate`), where victory stands [16] (:func:`standing_text`), the
actions and standing orders of an activation (:func:`action_text`, :func:`standing_lines`), and
when a unit still off the map arrives (:func:`arrival`). The presenter, the map view and the
ruleset's ``describe_event`` all say things this one way."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.engine.conditions import parse_condition
from pbem.errors import InputError
from pbem.maps.hexmap import Hex
from pbem.systems.arnhem1944.combat import OFF_MAP
from pbem.systems.arnhem1944.queries import Game
from pbem.systems.arnhem1944.state import State
from pbem.systems.arnhem1944.tables import Result

JSON = Any
TYPE_WORDS = {"M": "mobile", "N": "normal", "P": "prepared"}


MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


def day_words(iso: str) -> str:
    """``1944-09-17`` -> ``17 September``."""
    y, m, d = iso.split("-")
    return f"{int(d)} {MONTHS[int(m) - 1]}"


def side_words(sc: Any, side: Any) -> str:
    """A side as players call it ("Allied", "German"), from the scenario's ``sides``."""
    for s in getattr(sc, "sides", None) or []:
        if isinstance(s, Mapping) and s.get("id") == side:
            return str(s.get("name") or side)
    return str(side)


def hex_words(sc: Any, h: Any) -> str:
    """A hex number with the place on it, if the map names one: ``1406 (Arnhem bridge)``; the
    end of a retreat off the map edge [7.6] as "off the map"."""
    if h == OFF_MAP:
        return "off the map"
    m = getattr(sc, "map", None)
    if m is None or not isinstance(h, str):
        return str(h)
    try:
        name = m.place_name(Hex.parse(h))
    except (ValueError, InputError):
        return h
    return f"{h} ({name})" if name else h


def _path(sc: Any, hexes: Sequence[str]) -> str:
    if not hexes:
        return ""
    return " → ".join([*hexes[:-1], hex_words(sc, hexes[-1])])


def units_words(units: Sequence[str]) -> str:
    return ", ".join(units)


def formation_words(sc: Any, fid: Any) -> str:
    f = getattr(sc, "formation", {}).get(fid) if sc is not None else None
    return f"{fid} ({f.name})" if f is not None else str(fid)


def _result_words(result: str) -> str:
    """A CRT result in words [7.5]: ``0/3g`` -> "nothing for the attacker; the defender 3, each
    a step loss or a hex of retreat, the first 2 step losses (green)"."""
    try:
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


def _activated(ev: JSON, sc: Any) -> str:
    who = side_words(sc, ev["side"])
    if ev.get("mode") == "phase":
        return f"{who} player-turn (simplified sequence): {units_words(ev['units'])} [18.1]"
    if ev.get("formation"):
        return (f"{who} activation of formation {formation_words(sc, ev['formation'])}: "
                f"{units_words(ev['units'])} [3.2]")
    return f"{who} general activation: {units_words(ev['units'])} [3.3]"


def _moved(ev: JSON, sc: Any) -> str:
    return f"{ev['unit']} moved {_path(sc, [ev['from'], *ev['path']])} [6]"


def _entered(ev: JSON, sc: Any) -> str:
    return f"{ev['unit']} entered the map at {hex_words(sc, ev['hex'])} [15]"


def _ferried(ev: JSON, sc: Any) -> str:
    return (f"the engineer ferried {ev['unit']} over the water from {ev['from']} to "
            f"{hex_words(sc, ev['to'])} [12.1]")


def _combat(ev: JSON, sc: Any) -> str:
    by = units_words(ev["attackers"])
    if ev.get("support"):
        by += f" with artillery {units_words(ev['support'])} [8.2]"
    if ev.get("air"):
        by += " and air support [13]"
    against = units_words(ev.get("defenders", [])) or "the enemy"
    if ev.get("defence_support"):
        against += f" with defensive fire from {units_words(ev['defence_support'])} [8.2]"
    if ev.get("air_defence"):
        against += " and air support [13]"
    lines = "; ".join(ev.get("lines", []))
    return (f"{TYPE_WORDS[ev['type']].capitalize()} attack [7.1] by {by} on {against} "
            f"at {hex_words(sc, ev['target'])}: {lines + ' → ' if lines else ''}{ev['odds']}, "
            f"die {ev['die']} → {ev['result']} [7.4]: {_result_words(ev['result'])} [7.5]")


def _bombardment(ev: JSON, sc: Any) -> str:
    lines = "; ".join(ev.get("lines", []))
    return (f"Bombardment of {hex_words(sc, ev['target'])} by {units_words(ev['artillery'])}: "
            f"{lines + ' → ' if lines else ''}{ev['odds']}, die {ev['die']} → "
            f"{ev['result']} [8.1]: {_result_words(ev['result'])} [7.5]")


def _step_lost(ev: JSON, sc: Any) -> str:
    why = ev["why"]
    cite = "" if "[" in why else " [7.5]"
    left = f"{ev['steps']} left" if ev["steps"] else "none left"
    return f"{ev['unit']} lost a step ({why}, {left}){cite}"


def _eliminated(ev: JSON, sc: Any) -> str:
    where = f" at {hex_words(sc, ev['hex'])}" if ev.get("hex") else ""
    why = ev.get("why")
    return f"{ev['unit']} was eliminated{where}" + (f" {why}" if why else " [7.5]")


def _retreated(ev: JSON, sc: Any) -> str:
    if not ev["path"]:
        return f"{units_words(ev['units'])} could not retreat from {ev['from']} [7.6]"
    return f"{units_words(ev['units'])} retreated {_path(sc, [ev['from'], *ev['path']])} [7.6]"


def _vacated(ev: JSON, sc: Any) -> str:
    return f"{ev['hex']} was vacated [7.6]"


def _advanced(ev: JSON, sc: Any) -> str:
    return f"{ev['unit']} advanced {_path(sc, [ev['from'], *ev['path']])} [7.6]"


def _no_advance(ev: JSON, sc: Any) -> str:
    why = ev["why"]
    return f"no advance for {units_words(ev['units'])}: {why}" + ("" if "[" in why else " [7.6]")


def _prepared(ev: JSON, sc: Any) -> str:
    return f"{ev['unit']} prepared a defensive position at {hex_words(sc, ev['hex'])} [11]"


def _blown(ev: JSON, sc: Any) -> str:
    word = "was blown" if ev.get("kind") == "blown" else "survived"
    return f"the crossing {ev['crossing']} {word} (die {ev['die']}) [12.2]"


def _skipped(ev: JSON, sc: Any) -> str:
    why = ev["why"]
    return (f"action {ev['action']} of the orders was not carried out: {why}"
            + ("" if "[" in why else " [3.4]"))


def _passed(ev: JSON, sc: Any) -> str:
    who = side_words(sc, ev["side"])
    if ev.get("owed"):
        return f"{who} passed, only to reveal the dice of the move before [2.1]"
    return f"{who} passed [2.2]"


def _turn_end_die(ev: JSON, sc: Any) -> str:
    return (f"turn-end die {ev['die']}: the turn "
            f"{'ends' if ev['ends'] else 'goes on'} [2.2]")


def _turn_end(ev: JSON, sc: Any) -> str:
    return f"End of turn {ev['turn']}: {ev['why']}"


def _weather(ev: JSON, sc: Any) -> str:
    how = f"die {ev['die']}, random weather [14.2]" if "die" in ev else "turn track [14.1]"
    effect = ""
    fx = getattr(sc, "weather_effects", {}).get(ev["weather"]) if sc is not None else None
    if fx is not None:
        effect = (f": {'drops allowed' if fx.drops else 'no drops'}, "
                  f"{fx.air_missions} air mission{'s' if fx.air_missions != 1 else ''} [14.3]")
    return f"Turn {ev['turn']} weather: {ev['weather']} ({how}){effect}"


def _initiative(ev: JSON, sc: Any) -> str:
    rolls = ev["rolls"]
    told = ", ".join(f"{side_words(sc, s)} {d}" for s, d in sorted(rolls.items()))
    return (f"Turn {ev['turn']} initiative: {told}; {side_words(sc, ev['side'])} acts first "
            "(ties to the Germans) [2.1]")


def _supply_command(ev: JSON, sc: Any) -> str:
    return (f"Turn {ev['turn']} supply and command: out of supply "
            f"{units_words(ev['out_of_supply']) or 'none'}; out of command "
            f"{units_words(ev['out_of_command']) or 'none'} [9.1, 10.1]")


def _dropped(ev: JSON, sc: Any) -> str:
    return f"{ev['unit']} landed at {hex_words(sc, ev['hex'])} [15.2]"


def _set_up(ev: JSON, sc: Any) -> str:
    placed = "; ".join(f"{u} at {hex_words(sc, h)}" for u, h in ev["units"].items())
    return f"{side_words(sc, ev['side'])} set-up of the 1st Airborne: {placed} [17.1, 15.2]"


def _drop_waits(ev: JSON, sc: Any) -> str:
    return f"{ev['group']} waits for a later turn [17.4]"


def _game_end(ev: JSON, sc: Any) -> str:
    return f"The game ends after turn {ev['turn']}: {OUTCOME_WORDS.get(ev['outcome'], ev['outcome'])} [16]"


def _morale(ev: JSON, sc: Any) -> str:
    rolls = ", ".join(f"{a}+{b}" for a, b in ev["rolls"]) or "none"
    return (f"morale test (rating {ev['morale']}) for {units_words(ev['units'])}: dice {rolls} → "
            f"{ev['steps']} step losses and {ev['hexes']} hexes of retreat [7.5]")


def _acknowledged(ev: JSON, sc: Any) -> str:
    return f"{side_words(sc, ev['side'])} acknowledged the result [16]"


EVENT_WORDS: dict[str, Callable[[JSON, Any], str]] = {
    "activated": _activated, "moved": _moved, "entered": _entered, "ferried": _ferried,
    "combat": _combat, "bombardment": _bombardment, "step-lost": _step_lost,
    "eliminated": _eliminated, "retreated": _retreated, "vacated": _vacated,
    "advanced": _advanced, "no-advance": _no_advance, "prepared": _prepared, "blown": _blown,
    "not-blown": _blown, "skipped": _skipped, "passed": _passed, "turn-end-die": _turn_end_die,
    "turn-end": _turn_end, "weather": _weather, "initiative": _initiative,
    "supply-command": _supply_command, "dropped": _dropped, "set-up": _set_up,
    "drop-waits": _drop_waits, "game-end": _game_end, "morale": _morale,
    "acknowledged": _acknowledged}
"""Each kind of event in words (``ev``, the scenario or None), with its case."""


def event_text(ev: JSON, sc: Any = None) -> str:
    """One event in words, with its case (``sc``, when given, names the sides, the formations
    and the places); an event of a kind not known here as its JSON."""
    k = ev.get("kind")
    words = EVENT_WORDS.get(k) if isinstance(k, str) else None
    if words is None:
        return json.dumps(ev, sort_keys=True, ensure_ascii=False)
    return words(ev, sc)


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
            landed.append(f"{ev['unit']} at {hex_words(sc, ev['hex'])}")
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
    st = state if isinstance(state, State) else State.parse(state)
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
        # the path holds the hexes entered, not the one the unit starts in: said "to X via ..." so
        # that its first hex does not read as the start (the result says "moved START → ...")
        path = [str(h) for h in a.get("path") or []]
        where = f"to {hex_words(sc, path[-1] if path else a.get('to'))}"
        if len(path) > 1:
            where += f" via {', '.join(path[:-1])}"
        text = f"{a['unit']} moves {where} [6]"
    elif do == "enter":
        zone = f" by zone {a['zone']}" if a.get("zone") else ""
        text = f"{a['unit']} enters{zone} at {_path(sc, a['path'])} [15]"
    elif do == "attack":
        text = (f"{TYPE_WORDS[a['type']]} attack on {hex_words(sc, a['target'])} by "
                f"{units_words(a['units'])}")
        cases = ["7.1"]
        if a.get("support"):
            text += f", supported by {units_words(a['support'])}"
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
            text += f", retreating towards {hex_words(sc, a['towards'])} if they must"
            cases.append("7.6")
        text += f" [{', '.join(cases)}]"
    elif do == "advance":
        n = f" up to {a['hexes']} hexes" if a.get("hexes") else ""
        text = f"advance{n} into the vacated hex by {units_words(a['units'])} [7.6]"
    elif do == "bombard":
        text = f"bombardment of {hex_words(sc, a['target'])} by {units_words(a['support'])} [8.1]"
    else:
        text = f"defensive position prepared by {units_words(a['units'])} [11]"
    return cond + text


def standing_lines(st: Mapping[str, Any]) -> list[str]:
    """A side's standing orders for the other side's activations, in words."""
    out = []
    lose = st.get("lose") or 0
    if st.get("defence") == "hold":
        out.append("when attacked, take every result as step losses, no retreat [7.5]")
    elif lose:  # one sentence for the two parts of one split, with "retreat" (the default) [7.5]
        out.append(f"when attacked, take up to {lose} step loss{'es' if lose != 1 else ''} (the "
                   "compulsory ones included) and retreat for the rest of the result [7.5]")
    elif st.get("defence") == "retreat":
        out.append("when attacked, retreat rather than lose steps where the result allows "
                   "[7.5]")
    if st.get("hold"):
        out.append(f"hold (step losses, no retreat) at {units_words(st['hold'])} [7.5]")
    if st.get("keep"):
        out.append(f"but never a step loss the result does not compel that leaves a stack "
                   f"with fewer than {st['keep']} step{'s' if st['keep'] != 1 else ''} [7.5]")
    if st.get("fire") is False:
        out.append("no defensive artillery fire [8.2]")
    if st.get("air") is False:
        out.append("no air support in defence [13]")
    if st.get("stacking"):
        out.append(f"overstacked steps are lost first from {units_words(st['stacking'])} [5]")
    for who, h in sorted((st.get("retreat") or {}).items()):
        what = "any unit" if who == "*" else (f"the stack at {who}" if who.isdigit() else who)
        out.append(f"{what} retreats towards {h} among the hexes the priorities allow [7.6]")
    return out

