"""A text orders file to start from (``pbem orders GAME --side SIDE --text``, an empty
``pbem draft``): what the side may order now, and an example of each order with its case.

Every line is a comment, so the file read unedited is the decision's skeleton: a pass where an
activation is due [2.2] (or the non-random pass owed [2.1], the acknowledgement [16]); a drop
with no landing, which the rules refuse [15.2]; the set-up with no placement, which keeps the
placement the file lists as pbem's proposal [17.1] -- never orders the player did not write.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pbem.errors import PbemError
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
    return [*_ready_lines(g, sc, st, side, who, label, ready),
            *_examples(rules, g, sc, st, side, ready)]


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
    out += ["#",
            "# Each example below is accepted now as written: an action goes after the first "
            "activation line,",
            "# which names every unit the actions use; a line whose note begins 'then' comes "
            "after the line above it,",
            "# which is written for it, and one whose note begins 'or' instead of it. An indented "
            "line is only the",
            "# form of an order.",
            "#"]
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


class _Check:
    """Example orders tried on the state before the template shows them: an example is what
    pbem itself accepts now, as written (parsed, paths filled in [6.3, 15], every rule checked),
    never a line that reads right and is refused [27]."""

    LIMIT = 40
    """At most this many tries for one template (each a check of one small activation)."""

    def __init__(self, rules: Any, sc: Scenario, st: State, side: str) -> None:
        self.rules, self.sc, self.st, self.side = rules, sc, st, side
        self.presenter = rules.presenter()
        self.left = self.LIMIT

    def accepted(self, lines: list[str]) -> bool:
        if self.left <= 0:
            return False
        self.left -= 1
        rules, sc, st, side = self.rules, self.sc, self.st, self.side
        try:
            doc = self.presenter.parse_text_orders(sc, {"kind": "pass", "side": side}, side,
                                                   "\n".join(lines) + "\n")
            orders = rules.normalize(sc, st, side, rules.load_orders(sc, doc))
            return not rules.validate(sc, st, side, orders)
        except PbemError:
            return False

    def first(self, head: list[str], groups: Iterable[list[str]]) -> list[str] | None:
        """The first of ``groups`` accepted after the lines ``head``."""
        return next((grp for grp in groups if self.accepted([*head, *grp])), None)


class _Activation:
    """The activation the action examples go with, the first activation line of the template:
    a formation's units in command [3.2] when the side has a formation with an HQ and a unit
    in command ready to act, else a general activation [3.3] (the simplified sequence's
    player-turn [18.1]); ``pool``: the units it may name, ``cap``: how many."""

    def __init__(self, g: Any, sc: Scenario, st: State, side: str, ready: set[str],
                 first: list[str]) -> None:
        k = sc.constants
        on_map = [u for u in first if st.units[u].hex is not None]
        self.formation: str | None = None
        self.cap = len(on_map) if st.options.simplified_sequence else k.general_activation
        self.pool = on_map
        if not st.options.simplified_sequence:
            for f in sc.formations:
                mine = [u for u in on_map if g.c(u).formation == f.id and st.units[u].in_command]
                if f.side == side and f.hq is not None and any(
                        g.c(u).kind not in ("artillery", "hq") for u in mine):
                    self.formation, self.cap, self.pool = f.id, k.formation_activation, mine
                    break
        self.fighters = [u for u in self.pool if g.c(u).kind not in ("artillery", "hq")]
        self.guns = [u for u in self.pool if g.c(u).kind == "artillery"]

    def line(self, units: list[str]) -> str:
        named = " ".join(units) or "UNITS"
        return f"activate {self.formation}: {named}" if self.formation else f"activate: {named}"


def _examples(rules: Any, g: Any, sc: Scenario, st: State, side: str,
              ready: set[str]) -> list[str]:
    """An example of each order with this side's own units, each accepted as written now (see
    :class:`_Check`): the activation [3.2, 3.3, 18.1], a move [6], an attack [7.1, 8.2] and what
    follows it [7.6], a bombardment [8.1], a prepared position [11], the standing orders [7.5,
    7.6], an entry [15]. The actions' units are all named by the first activation line, within
    what it may take; an order no unit can carry out now is shown as its form, indented, with
    the reason."""
    check = _Check(rules, sc, st, side)
    first = sorted(ready, key=lambda u: (st.units[u].hex is None, g.c(u).kind == "hq", u))
    act = _Activation(g, sc, st, side, ready, first)
    used: list[str] = []

    def take(units: list[str]) -> bool:
        """Whether ``units`` fit in the activation with those already used (then added)."""
        more = [u for u in dict.fromkeys(units) if u not in used]
        if len(used) + len(more) > act.cap:
            return False
        used.extend(more)
        return True

    attack = _attack_example(check, g, st, side, act, take)
    bombard = _bombard_example(check, g, st, side, act, attack, used, take)
    moves = _move_example(check, g, st, side, act, used, take)
    prepare = next((grp for u in _used_first(act.fighters, used)[:6]
                    if (grp := check.first([act.line([u])], [[f"prepare {u}"]])) is not None
                    and take([u])), None)
    used += [u for u in act.pool if u not in used][:max(0, min(3, act.cap) - len(used))]
    k = sc.constants
    out: list[str] = []
    if st.options.simplified_sequence:
        out.append(_example(act.line(used), "every unit that moves or fights this player-turn "
                                            "[18.1]"))
    elif act.formation is not None:
        out.append(_example(act.line(used), f"a formation, up to {act.cap} units in command "
                                            "[3.2]"))
        general = [u for u in first if st.units[u].hex is not None][:k.general_activation]
        out.append(_example(f"activate: {' '.join(general)}",
                            f"or a general activation, any {k.general_activation} [3.3]"))
    else:
        out.append(_example(act.line(used), f"a general activation, any {act.cap} [3.3]"))
    out += [_example(moves[0], "the cheapest path [6.3]"),
            _example(moves[1], "or the hexes one by one [6]")] if moves else [
        _form("move UNIT to HEX", "the cheapest path [6.3]: none found for the units of this "
                                  "activation now")]
    if attack:
        why = "mobile 1 MP, normal 3, prepared 5 [7.1, 8.2]"
        if attack[0].startswith("move "):
            out.append(_example(attack[0], f"to attack: next to the enemy in "
                                           f"{attack[1].split()[1]} [7.2]"))
            why = "then " + why
        out.append(_example(attack[-2], why))
        out.append(_example(attack[-1], "then decided now, carried out after the die [7.6]"))
    else:
        out.append(_form("attack HEX normal with UNIT support ARTILLERY",
                         "[7.1, 8.2]: none found for the units of this activation now"))
    out.append(_example(bombard[0], "[8.1]") if bombard else _form(
        "bombard HEX with ARTILLERY", "[8.1, 8.4]: none found for the artillery of this "
                                      "activation now"))
    out.append(_example(prepare[0], "a prepared defensive position [11]") if prepare else _form(
        "prepare UNIT", "a prepared defensive position [11]: none can be made now"))
    out.append(_example("defend hold", "standing order: hold, or 'defend retreat' [7.5]"))
    out.append(_example("defend lose 1", "standing: up to 1 step lost before retreating [7.5]"))
    anyone = next((u for u in [*used, *act.pool] if st.units[u].hex is not None), None)
    if anyone is not None:
        out.append(_example(f"retreat {anyone} towards {st.units[anyone].hex}",
                            "standing: among equal retreat hexes, nearest this one [7.6]"))
    out += _entry_examples(check, g, sc, st, first)
    out.append(_example("pass", "no activation [2.2]"))
    return out


def _used_first(units: list[str], used: list[str]) -> list[str]:
    return sorted(units, key=lambda u: u not in used)


def _form(line: str, why: str) -> str:
    """An order's form, not an example: indented, so that it reads as no order to uncomment."""
    return f"#   {line:<{WIDTH - 2}}# {why}"


def _move_example(check: _Check, g: Any, st: State, side: str, act: _Activation,
                  used: list[str], take: Callable[[list[str]], bool]) -> list[str]:
    """``move UNIT to HEX`` and ``move UNIT via HEX...`` for the first unit of the activation
    with a move accepted: to the farthest hex it reaches outside the enemy's zones of control
    [4.2] (so that no attack is owed [4.3]), its cheapest path given hex by hex (the first three
    hexes of it when those are accepted too)."""
    board = g.board(st)
    zoc = g.enemy_zoc(st, side, board)
    for mover in _used_first(act.fighters, used)[:4]:
        start = st.units[mover].hex
        reach = g.reachable(st, mover)
        far = sorted((h for h in reach if h != start and h not in zoc),
                     key=lambda h: (-reach[h], h))
        head = [act.line([mover])]
        to = check.first(head, ([f"move {mover} to {h}"] for h in far[:3]))
        if to is None:
            continue
        path = g.cheapest_path(st, side, start, to[0].split()[-1]) or []
        via = check.first(head, ([f"move {mover} via {' '.join(p)}"]
                                 for p in (path[:3], path) if p))
        if via is not None and take([mover]):
            return [to[0], via[0]]
    return []


def _attack_example(check: _Check, g: Any, st: State, side: str, act: _Activation,
                    take: Callable[[list[str]], bool]) -> list[str]:
    """An attack accepted as written [7.1, 7.2] and its advance [7.6]: by a unit of the
    activation next to an enemy, else by one that moves next to one first (the cheapest such
    hex with the MP of a normal attack left [6.2]); with an artillery unit's support [8.2] when
    one can give it. Returns the lines (the move, if any, the attack, the advance), or none."""
    board = g.board(st)
    enemy = g.hexes_of(st, other(side))
    tries: list[list[str]] = []
    for a in act.fighters:
        for t in sorted(h for h in board.neighbours(st.units[a].hex) if h in enemy):
            tries.append([f"attack {t} normal with {a}"])
    for a in act.fighters:
        reach = g.reachable(st, a)
        spare = g.allowance(st, a) - 6  # the 3 MP of a normal attack [7.1], in half MP
        near = sorted((c, h, t) for h, c in reach.items() if 0 < c <= spare
                      for t in board.neighbours(h) if t in enemy)
        tries += [[f"move {a} to {h}", f"attack {t} normal with {a}"] for _c, h, t in near[:2]]
    for grp in tries[:8]:
        target = grp[-1].split()[1]
        attacker = grp[-1].split()[-1]
        advance = f"if vacated {target}: advance {attacker}"
        head = act.line([attacker])
        for gun in act.guns[:3]:
            supported = [*grp[:-1], f"{grp[-1]} support {gun}", advance]
            if check.accepted([act.line([attacker, gun]), *supported]) and take([attacker, gun]):
                return supported
        if check.accepted([head, *grp, advance]) and take([attacker]):
            return [*grp, advance]
    return []


def _bombard_example(check: _Check, g: Any, st: State, side: str, act: _Activation,
                     attack: list[str], used: list[str],
                     take: Callable[[list[str]], bool]) -> list[str] | None:
    """A bombardment accepted as written [8.1]: an artillery unit of the activation on an enemy
    hex in range next to a unit of its formation [8.4], the attack's target first."""
    board = g.board(st)
    enemy = g.hexes_of(st, other(side))
    targets = [ln.split()[1] for ln in attack if ln.startswith("attack ")]
    for gun in _used_first(act.guns, used)[:3]:
        at = st.units[gun].hex
        spotters = {st.units[u].hex for u in st.units if st.units[u].hex is not None
                    and st.units[u].alive and g.c(u).formation == g.c(gun).formation}
        seen = [h for h in enemy if any(board.distance(h, x) == 1 for x in spotters)]
        near = sorted(seen, key=lambda h: (h not in targets, board.distance(at, h), h))[:4]
        found = check.first([act.line([gun])], ([f"bombard {t} with {gun}"] for t in near))
        if found is not None and take([gun]):
            return found
    return None


def _entry_examples(check: _Check, g: Any, sc: Scenario, st: State,
                    first: list[str]) -> list[str]:
    """Entering the map [15.1, 15.3] by the first unit still off it, if there is one and its
    entry is accepted: activated on its own here, it enters at its entry hex, or goes on to a
    hex beyond it the cheapest way."""
    late = next((u for u in first if st.units[u].hex is None), None)
    if late is None:
        return []
    r = g.reinforcement(late)
    entries = ([r.hex] if r is not None and r.hex else
               list(sc.map.entry_zones[r.zone].hexes)[:3] if r is not None
               and r.zone in sc.map.entry_zones else [])
    head = [f"activate: {late}"]
    board = g.board(st)
    for e in entries:
        if not check.accepted([*head, f"enter {late} at {e}"]):
            continue
        beyond = check.first(head, ([f"enter {late} at {e} to {n}"]
                                    for n in sorted(board.neighbours(e))[:3]))
        out = [_example(head[0], f"a unit off the map, activated to enter [15]: "
                                 f"{_entry(g, st, late)}"),
               _example(f"enter {late} at {e}", "then it enters at this hex [15.1, 15.3]")]
        if beyond is not None:
            out.append(_example(beyond[0], "or on from there, the cheapest way [15.1, 15.3]"))
        return out
    return [_form(f"enter {late} at HEX", f"[15.1, 15.3]: from its entry {_entry(g, st, late)}")]


def _entry(g: Any, st: State, uid: str) -> str:
    r = g.reinforcement(uid)
    if r is None:
        return "by air [15.2]"
    if r.hex is not None:
        return f"hex {r.hex}"
    return f"zone {r.zone}"
