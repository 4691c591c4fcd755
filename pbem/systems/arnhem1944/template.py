"""A text orders file to start from (``pbem orders GAME --side SIDE --text``, an empty
``pbem draft``): what the side may order now, and an example of each order with its case.

Every line is a comment, so the file read unedited is the decision's skeleton: a pass where an
activation is due [2.2] (or the non-random pass owed [2.1], the acknowledgement [16]); a drop
with no landing, which the rules refuse [15.2]; the set-up with no placement, which keeps the
placement the file lists as pbem's proposal [17.1] -- never orders the player did not write.
"""

from __future__ import annotations

from typing import Any

from pbem.systems.arnhem1944.model import Scenario
from pbem.systems.arnhem1944.queries import due_drops, other
from pbem.systems.arnhem1944.state import State

WIDTH = 50
"""The column where an example's explanation starts."""


def _example(line: str, why: str) -> str:
    return f"# {line:<{WIDTH}}# {why}"


def _wrap(words: list[str], head: str, width: int = 96) -> list[str]:
    """``head`` then the words, wrapped as comment lines indented under it."""
    out: list[str] = []
    line = head
    for w in words:
        if len(line) + 1 + len(w) > width and line.strip("# "):
            out.append(line)
            line = "#       "
        line += " " + w
    out.append(line)
    return out


def _side_name(sc: Scenario, side: str) -> str:
    return next((s.get("name", side) for s in sc.sides if s.get("id") == side), side)


def orders_template(rules: Any, sc: Scenario, st: State, side: str) -> str:
    """The commented template for ``side``'s pending decision (``rules``: the ruleset)."""
    pend = rules.pending(sc, st)
    if not pend:
        return "# the game is over: there is nothing to order\n"
    d = pend[0]
    if d.side != side:
        return f"# it is {d.side}'s decision ({d.label}), not {side}'s\n"
    who = _side_name(sc, side)
    if d.kind == "pass":
        lines = [f"# {d.label}.",
                 "# This message only reveals the dice of the move before it: it holds a pass and "
                 "nothing else",
                 "# (standing orders go with your own activations and passes). Sign it as it "
                 "stands."]
    elif d.kind == "acknowledge":
        lines = [f"# {d.label}: sign this file as it stands."]
    elif d.kind == "drop":
        lines = _drop(rules, sc, st, who)
    elif d.kind == "setup":
        lines = _setup(rules, sc, st, who)
    else:
        lines = _activation(rules, sc, st, side, who, d.label)
    return "\n".join(lines) + "\n"


def _setup(rules: Any, sc: Scenario, st: State, who: str) -> list[str]:
    out = [f"# Set-up: the {who} player places the 1st Airborne round its drop zone [17.1]: "
           "each unit within",
           "# two hexes of it on the terrain listed [15.2], at most the stacking limit in a hex "
           "[5]. Every line is a",
           "# comment: as it stands this file keeps pbem's proposal below (hex number order). "
           "Take the '#' off",
           "# the lines you change.",
           "#"]
    for p in rules.free_setup(sc):
        out.append(_example(f"place {p.unit} at {st.units[p.unit].hex}",
                            f"within {p.within} of {p.hex}, {' or '.join(p.terrain) or 'any'}"))
    return out


def _drop(rules: Any, sc: Scenario, st: State, who: str) -> list[str]:
    out = [f"# Turn {st.turn}: the {who} airborne reinforcements land [15.2]: each unit within "
           "its group's radius of the drop zone,",
           "# on the terrain listed, off enemy units. Every line is a comment: as it stands this "
           "file lands nobody",
           "# and the rules refuse it. Take the '#' off the landings below (pbem's choice, "
           "filled in hex number order) or",
           "# write your own.",
           "#"]
    default = {ln["unit"]: ln["hex"] for ln in rules.default_landings(sc, st)}
    free = sc.options.drop == "free"
    for grp in due_drops(sc, st):
        out.append(f"# {grp.group}: drop zone {grp.dz}, within {grp.radius} hexes, "
                   f"{' or '.join(grp.terrain)}")
        out += [_example(f"land {uid} at {default.get(uid, grp.dz)}", "[15.2]")
                for uid in grp.units]
        if free and grp.alternative_dz:
            out.append(_example(f"dz {grp.group} {grp.dz}", "another drop zone [15.2, 17.4]"))
        if free:
            out.append(_example(f"wait {grp.group}", "land on a later turn [17.4]"))
    return out


def _activation(rules: Any, sc: Scenario, st: State, side: str, who: str,
                label: str) -> list[str]:
    """An activation's template: the units that may be activated [3.1], then an example of
    each order with this side's own units where there are some."""
    g = rules.game(sc)
    ready = set(g.ready(st, side))
    return [*_ready_lines(g, sc, st, side, who, label, ready), *_examples(g, sc, st, side, ready)]


def _ready_lines(g: Any, sc: Scenario, st: State, side: str, who: str, label: str,
                 ready: set[str]) -> list[str]:
    """The head of the file and the units that may still be activated this turn, formation by
    formation [3.1, 3.2, 3.3, 9.2, 15], or the simplified sequence [18.1]."""
    k = sc.constants
    out = [f"# {label}.",
           "# Every line here is a comment (#): as it stands this file is a pass [2.2]. Take "
           "the '#' off the lines",
           "# you want and edit them; 'pbem check GAME FILE' shows what would be signed.",
           "#",
           f"# {who} units that may still be activated this turn [3.1]:"]
    for f in sc.formations:
        if f.side == side:
            out += _formation_lines(g, sc, st, f, ready)
    if st.options.simplified_sequence:
        out.append("# The simplified sequence [18.1]: one activation plays your whole "
                   "player-turn, moves before attacks.")
    else:
        out.append(f"# Any {k.general_activation} of them in a general activation, in "
                   "command or not [3.3].")
    out.append("#")
    return out


def _formation_lines(g: Any, sc: Scenario, st: State, f: Any, ready: set[str]) -> list[str]:
    """One formation's ready units: in command [3.2], out of command [9.2], off the map [15];
    a formation without HQ activates in general activations only [3.2, 3.3]."""
    units = [c.id for c in sc.counters if c.formation == f.id and c.id in ready]
    if not units:
        return []
    out: list[str] = []
    on = [u for u in units if st.units[u].hex is not None]
    cmd = [u for u in on if st.units[u].in_command]
    ooc = [u for u in on if not st.units[u].in_command]
    off = [u for u in units if st.units[u].hex is None]
    if f.hq is None:
        out += _wrap(on, f"#   {f.id} ({f.name}), no HQ: general activations only "
                         "[3.2, 3.3]:")
    else:
        hq = st.units[f.hq]
        where = (f"HQ {f.hq} at {hq.hex}" if hq.alive and hq.hex else
                 f"HQ {f.hq} not on the map" if hq.alive else f"HQ {f.hq} destroyed")
        out.append(f"#   {f.id} ({f.name}), {where}: up to {sc.constants.formation_activation} "
                   "units in command [3.2]")
        if cmd:
            out += _wrap(cmd, "#     in command:")
        if ooc:
            out += _wrap(ooc, "#     out of command, general activation only [9.2]:")
    if off:
        out += _wrap([f"{u} ({_entry(g, st, u)})" for u in off],
                     "#     off the map, may enter now [15]:")
    return out


def _destination(g: Any, st: State, side: str, mover: str, board: Any) -> tuple[str, list[str]]:
    """Where the example move goes: the farthest hex outside the enemy's zones of control [4.2]
    (any hex when all are in one), and its cheapest path; ``HEX`` when the mover is not on the
    map."""
    dest, path = "HEX", ["HEX"]
    if mover in st.units and st.units[mover].hex is not None:
        reach = g.reachable(st, mover)
        zoc = g.enemy_zoc(st, side, board)
        far = [h for h in reach if h != st.units[mover].hex and h not in zoc] or [
            h for h in reach if h != st.units[mover].hex]
        if far:  # the farthest hex outside the enemy's zones of control [4.2]
            dest = max(far, key=lambda h: (reach[h], h))
            path = g.cheapest_path(st, side, st.units[mover].hex, dest) or [dest]
    return dest, path


def _examples(g: Any, sc: Scenario, st: State, side: str, ready: set[str]) -> list[str]:
    """An example of each order, with this side's own units where there are some: the
    activation [3.2, 3.3, 18.1], a move [6], an entry [15], an attack [7.1, 8.2] and what
    follows it [7.6], a bombardment [8.1], a prepared position [11] and the standing orders
    [7.5, 7.6]."""
    board = g.board(st)
    k = sc.constants
    first = sorted(ready, key=lambda u: (st.units[u].hex is None, g.c(u).kind == "hq", u))
    mover = next((u for u in first if st.units[u].hex is not None
                  and g.c(u).kind not in ("artillery", "hq")), first[0] if first else "UNIT")
    art = next((u for u in first if g.c(u).kind == "artillery" and st.units[u].hex), None)
    dest, path = _destination(g, st, side, mover, board)
    enemy = sorted(g.hexes_of(st, other(side)))
    start = st.units[mover].hex if mover in st.units else None
    target = (min(enemy, key=lambda h: (board.distance(start, h), h)) if enemy and start
              else "HEX")
    out: list[str] = []
    if st.options.simplified_sequence:
        out.append(_example(f"activate: {' '.join(first[:3]) or 'UNITS'} ...",
                            "every unit that moves or fights this player-turn [18.1]"))
    else:
        out += _formation_example(g, sc, st, side, ready, first)
        out.append(_example(f"activate: {' '.join(first[:k.general_activation]) or 'UNITS'}",
                            f"a general activation, any {k.general_activation} [3.3]"))
    out.append(_example(f"move {mover} to {dest}", "the cheapest path [6.3]"))
    out.append(_example(f"move {mover} via {' '.join(path[:3])}", "or the hexes one by one [6]"))
    out += _entry_examples(g, sc, st, first)
    sup = f" support {art}" if art else ""
    out.append(_example(f"attack {target} normal with {mover}{sup}",
                        "mobile 1 MP, normal 3, prepared 5 [7.1, 8.2]"))
    out.append(_example(f"if vacated {target}: advance {mover}",
                        "decided now, carried out after the die [7.6]"))
    if art:
        out.append(_example(f"bombard {target} with {art}", "[8.1]"))
    out.append(_example(f"prepare {mover}", "a prepared defensive position [11]"))
    out.append(_example("defend hold", "standing order: hold, or 'defend retreat' [7.5]"))
    out.append(_example("defend lose 1", "standing: up to 1 step lost before retreating [7.5]"))
    out.append(_example(f"retreat {mover} towards {start or 'HEX'}",
                        "standing: among equal retreat hexes, nearest this one [7.6]"))
    out.append(_example("pass", "no activation [2.2]"))
    return out


def _formation_example(g: Any, sc: Scenario, st: State, side: str, ready: set[str],
                       first: list[str]) -> list[str]:
    """A formation activation [3.2] by the first formation of the side with a unit in command
    on the map, if it has one."""
    form = next((f for f in sc.formations if f.side == side and f.hq is not None
                 and any(g.c(u).formation == f.id and st.units[u].in_command
                         and st.units[u].hex for u in ready)), None)
    if form is None:
        return []
    mine = [u for u in first if g.c(u).formation == form.id and st.units[u].in_command
            and st.units[u].hex][:3]
    return [_example(f"activate {form.id}: {' '.join(mine)}",
                     f"a formation, up to {sc.constants.formation_activation} units [3.2]")]


def _entry_examples(g: Any, sc: Scenario, st: State, first: list[str]) -> list[str]:
    """Entering the map [15.1, 15.3], by the first unit still off it, if there is one."""
    late = next((u for u in first if st.units[u].hex is None), None)
    if late is None:
        return []
    r = g.reinforcement(late)
    entry = r.hex if r is not None and r.hex else (
        sc.map.entry_zones[r.zone].hexes[0] if r is not None and r.zone in sc.map.entry_zones
        else "HEX")
    return [_example(f"enter {late} to HEX", "the cheapest way in from its entry "
                                             f"{_entry(g, st, late)} [15.1, 15.3]"),
            _example(f"enter {late} via {entry} HEX...", "or the hexes one by one, "
                                                         "its entry hex first [15]")]


def _entry(g: Any, st: State, uid: str) -> str:
    r = g.reinforcement(uid)
    if r is None:
        return "by air [15.2]"
    if r.hex is not None:
        return f"hex {r.hex}"
    return f"zone {r.zone}"
