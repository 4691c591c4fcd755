"""A text orders file to start from (``pbem orders GAME --side SIDE --text``, an empty
``pbem draft``): what the side may order now, with its own units and an example of each order
written with their ids and hexes that are legal now [27].

Every order line is a comment, so the file read unedited is the decision's skeleton (a player-turn
in which nothing moves or attacks and the standing orders stay; a set-up with nothing placed,
which the rules refuse [3.0]) -- never orders the player did not write. The end-of-game
acknowledgement is the one exception: it holds a single possible order, written out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.errors import PbemError
from pbem.maps.hexmap import Hex
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.display import cases, side_name
from pbem.systems.westwall.enumerate import move_order, movers, unit_options
from pbem.systems.westwall.exclusive import get_exclusive
from pbem.systems.westwall.model import Scenario, State

WIDTH = 44
"""The column where an example's explanation starts."""


def _example(line: str, why: str) -> str:
    return f"# {line:<{WIDTH}} # {why}"


def orders_template(rules: Any, sc: Scenario, st: State, side: str) -> str:
    """The commented template for ``side``'s pending decision (``rules``: the ruleset)."""
    pend = rules.pending(sc, st)
    if not pend:
        return "# the game is over: there is nothing to order\n"
    d = pend[0]
    if d.side != side:
        return f"# it is {d.side}'s decision ({d.label}), not {side}'s\n"
    if d.kind == "acknowledge":
        return f"# {d.label}: the game is over; sign this file as it stands [protocol]\nacknowledge\n"
    if d.kind == "setup":
        lines = _setup(rules, sc, st, side, d.label)
    else:
        lines = _player_turn(rules, sc, st, side, d.label)
    return "\n".join(lines) + "\n"


def _setup(rules: Any, sc: Scenario, st: State, side: str, label: str) -> list[str]:
    from pbem.systems.westwall.presenter import roster

    skeleton = rules.skeleton(sc, st, side)
    proposal: dict[str, str] = skeleton.get("placements") or {}
    _head, rows = roster(sc, st, side)
    where = {r[0]: r[-1] for r in rows}
    out = [f"# {label}"]
    if proposal:
        out += [f"# The {side_name(sc, side)} set-up [3.0]: one line per unit, 'place UNIT at HEX'; every unit",
                "# listed must be placed. Each line below is a legal placement pbem proposes (remove the",
                "# '# ' to take it, or write your own hex; 'pbem submit --defaults' places the units you",
                "# leave out, around yours):"]
        out += [_example(f"place {uid} at {proposal[uid]}", where.get(uid, "")) for uid in sorted(proposal)]
    notes = _drop_zone_examples(rules, sc, st, side)
    if notes:
        out += ["# Drop zones: one secret note per airborne division, sealed before the German set-up",
                "# [15.36]; 'turn N' places it later [15.39]. A legal example for each division:"]
        out += [_example(f"dz {n['division']} at {n['hex']}" + (f" turn {n['turn']}" if n.get("turn", 1) != 1 else ""),
                         "secret until revealed [15.36]") for n in notes]
    elif not proposal:
        out += ["# Nothing is left to place: this step reveals what your set-up sealed [15.36]. Sign",
                "# it as it stands ('pbem draft pass GAME_DIR', then 'pbem submit GAME_DIR --key KEY')."]
    return out


def _drop_zone_examples(rules: Any, sc: Scenario, st: State, side: str) -> list[dict[str, Any]]:
    """A legal drop-zone note per airborne division where this set-up must write them [15.36]:
    the bot's own choice (it writes legal ones), else none."""
    if sc.game != "arnhem":
        return []
    from pbem.systems.westwall.arnhem import airborne_divisions, allied_side, special_of

    if not special_of(sc).dz_free or side != allied_side(sc) or st.exclusive.get("dz_commitments") \
            is not None or st.exclusive.get("dz") or not airborne_divisions(sc):
        return []
    from pbem.systems.westwall.bot import choose_orders

    chosen = choose_orders(sc, st, side, seed=0)
    notes: list[dict[str, Any]] = list(chosen.get("dz_notes") or [])
    return notes


def _player_turn(rules: Any, sc: Scenario, st: State, side: str, label: str) -> list[str]:
    from pbem.systems.westwall.presenter import not_due_yet, roster, undone

    board = Board.from_state(sc, st)
    ex = get_exclusive(sc.game)
    _head, rows = roster(sc, st, side)
    on_map = [r for r in rows if r[3] != "-"]
    due = set(movers(board, side, st.game_turn)) - {r[0] for r in on_map}
    out = [f"# {label}: movement, then combat [4.0]. One order a line, carried out in the order written;",
           "# a unit with no line stays where it is. 'pbem reach GAME_DIR UNIT' lists where a unit can go."]
    if on_map:
        out.append("# Your units on the map (id, counter, hex, values, MA, state):")
        out += [f"#   {r[0]:<10} {r[1]:<10} {r[3]:<6} {r[4]:<10} {r[5]:<4} {r[6]}".rstrip() for r in on_map]
    later = not_due_yet(sc, st, side)  # scheduled, yet not before a later Game-Turn [15.39]
    if due - later:
        out.append(f"# Due now, off the map (the first hex of an 'enter' path is its entry hex [{cases(sc).entry}]):")
        out += [f"#   {r[0]:<10} {r[1]:<10} {r[6]}" for r in rows if r[0] in due - later]
    if due & later:
        out.append("# Due later, off the map (not this Game-Turn):")
        out += [f"#   {r[0]:<10} {r[1]:<10} {r[6]}" for r in rows if r[0] in due & later]
    skeleton = rules.skeleton(sc, st, side)
    left = undone(sc, st, side, skeleton)
    if left:
        out.append("# Left undone if you write nothing:")
        out += [f"#   - {x}" for x in left]
    refused = rules.validate(sc, st, side, skeleton)  # what the rules demand of every orders [7.11, 8.31]
    if refused:
        out.append("# Orders that leave these out are refused (the rules' own check of an empty player-turn):")
        out += [f"#   - {v}" for v in refused]
    owed = {str(v) for v in refused}
    presenter = rules.presenter()

    def fits(line: str) -> bool:
        """Whether ``line`` alone is refused for nothing but the attacks owed [27]."""
        try:
            doc = presenter.parse_text_orders(sc, presenter.text_skeleton(sc, st, side), side, line + "\n")
            return all(str(v) in owed for v in rules.validate(sc, st, side, rules.normalize(sc, st, side, doc)))
        except PbemError:
            return False

    landings, waiting = _landings(board, sc, st, side, ex, sorted(due - later), fits)
    if landings:
        out += ["# Landings pbem proposes, one unit a hex, outside enemy zones of control, accepted together",
                "# [15.31, 15.33] (remove the '# ' to take them, or write your own hex):"]
        if waiting:
            one = len(waiting) == 1
            out += [f"# (at most {len(landings)} airborne units land this player-turn in this weather [16.12]: "
                    f"{', '.join(waiting)} wait{'s' if one else ''}",
                    f"# for a later one; to land {'it' if one else 'one'} now, write {'its' if one else 'a'} line "
                    "instead of another unit's)"]
        out += [_example(line, "lands [15.31]") for line in landings]
    out.append("# Examples with your own units (remove the '# ' to use one"
               + (", with the attacks owed above" if refused else "") + "):")
    landed = {line.split()[1] for line in landings}  # listed above: the example is another unit's
    out += _move_examples(board, sc, st, side, ex, [r[0] for r in on_map], sorted(due - landed), fits)
    out += _attack_example(board, sc, side, fits)
    out.append(_example("pass", "no orders at all this player-turn"))
    out += _standing(sc, st, side)
    return out


def _safe_destination(board: Board, uid: str, st: State, side: str, ex: Any) -> tuple[Any, Hex] | None:
    """Options of ``uid`` and a hex it may end in outside enemy zones of control (so the example
    does not oblige an attack [7.11]), the farthest by cost, then the lowest hex."""
    opts = unit_options(board, uid, st.game_turn, ex)
    start = board.unit_hex(uid)
    free = [(c, h) for h, c in opts.destinations.items() if h != start and not board.enemy_zoc(h, side)]
    if not free:
        return None
    best = max(c for c, _h in free)
    return opts, min(h for c, h in free if c == best)


def _landings(board: Board, sc: Scenario, st: State, side: str, ex: Any, due: list[str],
              fits: Callable[[str], bool]) -> tuple[list[str], list[str]]:
    """A ``land UNIT at HEX`` line for every airborne unit due now [15.31], or for as many as the
    weather lets land (Arnhem [16.12]: the first by id; the others are returned second, to wait):
    the first hex by number where it may land, empty and not taken by another line [15.33],
    outside enemy zones of control when it can be (a landing there owes an attack [7.12]). None
    unless the lines together are refused for nothing but the attacks owed already."""
    airborne = [uid for uid in due if any(r.airborne and uid in r.units for r in sc.reinforcements)]
    cap = ex.landing_cap(sc, st)
    waiting = airborne[cap:] if cap is not None else []
    used: set[Hex] = set()
    lines: list[str] = []
    for uid in airborne[:cap]:
        opts = unit_options(board, uid, st.game_turn, ex)
        roots = [h for h in opts.destinations if h not in used and opts.path_to(h) == [h]]
        free = [h for h in roots if not board.enemy_zoc(h, side)] or roots
        if not free:
            return [], []
        used.add(free[0])
        lines.append(f"land {uid} at {free[0]}")
    return (lines, waiting) if lines and fits("\n".join(lines)) else ([], [])


def _move_examples(board: Board, sc: Scenario, st: State, side: str, ex: Any, on_map: list[str],
                   due: list[str], fits: Callable[[str], bool]) -> list[str]:
    """A move [5.0] and an entry or a landing [11.11, 15.31], each by the first unit whose line
    ``fits`` (is refused for nothing but the attacks owed: a landing the weather forbids
    [16.12] is no example)."""
    out: list[str] = []
    for uid in on_map:
        if sc.unit[uid].is_artillery:
            continue
        found = _safe_destination(board, uid, st, side, ex)
        if found is not None and fits(line := f"move {uid} to {found[1]}"):
            out.append(_example(line, "the cheapest path is filled in [5.0]"))
            path = move_order(found[0], found[1]).path  # every hex entered, the start hex not among them
            if len(path) > 1:
                out.append(_example(f"move {uid} via {' '.join(path[:-1])} to {path[-1]}",
                                    "... or an exact path [5.0]"))
            break
    for uid in due:
        found = _safe_destination(board, uid, st, side, ex)
        if found is not None:
            path = move_order(found[0], found[1]).path
            airborne = any(r.airborne and uid in r.units for r in sc.reinforcements)
            line = f"land {uid} at {path[0]}" if airborne else f"enter {uid} at {path[0]} to {path[-1]}"
            if not fits(line):
                continue
            out.append(_example(line, "an airborne unit lands [15.31]" if airborne else
                                f"a reinforcement enters [{cases(sc).entry}]"))
            break
    if not out:
        out.append("#   (no unit of yours can move this player-turn)")
    return out


def _attack_example(board: Board, sc: Scenario, side: str, fits: Callable[[str], bool]) -> list[str]:
    """``attack ENEMY... with UNIT`` for the first of your units next to an enemy [7.0]: every
    enemy whose zone it is in, all of which it must attack [7.12, 7.21]."""
    tries = 0
    for uid, h in sorted(board.positions()):  # artillery next to an enemy attacks too [8.31]
        if board.side_of(uid) != side:
            continue
        sources = board.zoc_sources(h, side) if board.enemy_zoc(h, side) else []
        if not sources or tries >= 4:
            continue
        tries += 1
        line = f"attack {' '.join(sources)} with {uid} advance {uid} 1"
        if fits(line):
            return [_example(line, "combat [7.0]; advance after combat [7.9]")]
    why = "no attack of one unit alone is accepted now" if tries else "none of your units is next to an enemy now"
    return [f"#   attack ENEMY with UNIT ... advance UNIT 1      # combat [7.0]: {why}"]


def _standing(sc: Scenario, st: State, side: str) -> list[str]:
    """The standing orders in force, as the lines that give them: written lines replace them all."""
    s = st.standing.get(side)
    lines: list[str] = []
    if s is not None:
        lines += [f"fpf {f.artillery} holds" if not f.protect else
                  f"fpf {f.artillery} protects {' '.join(f.protect)}" if "*" not in f.protect else
                  f"fpf {f.artillery} protects                # any unit it can reach [8.4]"
                  for f in s.fpf]
        if s.fpf_support:
            lines.append(f"fpf-support {s.fpf_support}")
        lines += [f"retreat {u} toward {' '.join(hs)}" for u, hs in sorted(s.retreat.items())]
        lines += [f"keep {u}" for u in s.avoid_displacing]
        lines += [f"pursue {p.unit} {p.hexes}" for p in s.pursue]
        lines += [f"spare bridge {b}" for b in s.spare_bridges]
    out = ["# Standing orders for the enemy's next player-turn [8.4, 7.7, 7.8, 7.91]: any such line",
           "# replaces all of them; with none, those in force stay" + (":" if lines else " (none now)."),
           *[f"#   {x}" for x in lines]]
    artillery = [u.id for u in sc.units if u.side == side and u.is_artillery and st.units.get(u.id) is not None
                 and st.units[u.id].status == "on-map"]
    if artillery and not lines:
        out.append(_example(f"fpf {artillery[0]} holds", "Final Protective Fire kept back [8.4]"))
    return out
