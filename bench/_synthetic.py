"""Deterministic synthetic WestWall positions for the benchmarks (``bench/ww_turn.py``).

:func:`build_case` makes, from a seeded :class:`random.Random` only:

* a ``W`` x ``H`` map (columns ``1..W``, rows ``1..H``) with mixed hex terrain (clear, grove, mixed,
  town, broken, woods, rough, a few lakes), roads running across it (bridges where they meet water),
  rivers and streams drawn as hexside lines;
* ``N`` units a side: ``W`` (west, the phasing player) and ``E`` (east). Infantry, armour, mech,
  recon and artillery. The map is cut into vertical bands ``A | gap | B | gap | A | gap | B ...``:
  the phasing side holds the ``A`` bands, the other side the ``B`` bands. Every ``B`` band has a
  front column on each side holding one ``E`` unit every second row (the *targets*); the rest of
  each side fills its bands from the front inwards;
* legal orders for the phasing side: **every** phasing unit moves (a cheapest path of our own
  Dijkstra over half Movement Points [5.13, 5.25], entering no enemy zone of control except as its
  last hex [6.0], ending in a hex no other unit ends in [5.31]), and ``K`` combats.

Combats satisfy the mandatory-attack rules by construction [7.11, 7.12, 7.21]: an attack hex is a
hex next to the front column that touches exactly one ``E`` unit (its target) across a hexside
attacks may cross [6.33]; only attackers end adjacent to an enemy unit; non-attacking units end at
least two hexes from every enemy unit. About a quarter of the combats are two attackers against one
target [7.22], about a third add a barraging artillery unit in range [8.11], about half order an
advance after combat [7.9].

The generated orders are checked with :meth:`WestWallRules.validate` by the caller
(:func:`check_legal`), which fails loudly with the violations if any.

Hex numbers: hexes beyond column or row 99 are written with six digits ``XXXYYY``, as
:class:`pbem.maps.hexmap.Hex` and the model's ``HexStr`` accept natively; the rest keep ``XXYY``.
"""

from __future__ import annotations

import hashlib
import heapq
import random
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pbem.maps.hexmap import Hex
from pbem.systems.westwall.board import Board, default_terrain_key
from pbem.systems.westwall.model import Scenario, State

WEST = "W"
EAST = "E"

# --------------------------------------------------------------------------------------------------
# Map
# --------------------------------------------------------------------------------------------------

_TERRAIN_WEIGHTS: tuple[tuple[str, int], ...] = (
    ("clear", 58),
    ("grove", 9),
    ("mixed", 5),
    ("town", 3),
    ("broken", 9),
    ("woods", 11),
    ("rough", 4),
    ("lake", 1),
)


def _walk_east(rng: random.Random, row: int, cols: int, rows: int) -> list[Hex]:
    """A chain of adjacent hexes from the west edge to the east edge."""
    h = Hex(1, row)
    out = [h]
    while h.col < cols:
        east = [n for n in h.neighbours() if n.col == h.col + 1 and 1 <= n.row <= rows]
        h = rng.choice(east)
        out.append(h)
    return out


def _walk_south(rng: random.Random, col: int, cols: int, rows: int) -> list[Hex]:
    """A chain of adjacent hexes from the north edge to the south edge, wandering a little."""
    h = Hex(col, 1)
    out = [h]
    while h.row < rows:
        options = [n for n in h.neighbours() if n.row >= h.row and 1 <= n.col <= cols and n != h]
        down = [n for n in options if n.row > h.row and n.col == h.col]
        nxt = down[0] if down and rng.random() < 0.7 else rng.choice(options)
        if nxt.row == h.row and out[-2:-1] == [nxt]:
            nxt = down[0] if down else nxt
        h = nxt
        out.append(h)
    return out


def _water_line(rng: random.Random, col: int, r0: int, r1: int, cols: int, rows: int) -> list[str]:
    """Hexsides east of a wandering column of hexes, rows ``r0..r1`` (both hexes on the map)."""
    sides: list[str] = []
    c = col
    for r in range(r0, r1 + 1):
        if rng.random() < 0.15:
            c = max(1, min(cols - 1, c + rng.choice((-1, 1))))
        h = Hex(c, r)
        for n in h.neighbours():
            if n.col == c + 1 and 1 <= n.row <= rows:
                sides.append(f"{h}/{n}")
    return sides


def map_data(rng: random.Random, cols: int, rows: int) -> dict[str, Any]:
    kinds = [k for k, _ in _TERRAIN_WEIGHTS]
    weights = [w for _, w in _TERRAIN_WEIGHTS]
    terrain: dict[str, list[str]] = {}
    for c in range(1, cols + 1):
        for r in range(1, rows + 1):
            k = rng.choices(kinds, weights)[0]
            if k != "clear":
                terrain.setdefault(k, []).append(str(Hex(c, r)))
    routes: list[dict[str, Any]] = []
    for i in range(max(1, rows // 12)):
        row = 1 + (i * 12 + rng.randrange(6)) % rows
        hexes = [str(h) for h in _walk_east(rng, row, cols, rows)]
        routes.append({"kind": "road", "name": f"road W-E {i}", "hexes": hexes})
    for i in range(max(1, cols // 15)):
        col = 1 + (i * 15 + rng.randrange(7)) % cols
        hexes = [str(h) for h in _walk_south(rng, col, cols, rows)]
        kind = "road" if i % 2 == 0 else "trail"
        routes.append({"kind": kind, "name": f"{kind} N-S {i}", "hexes": hexes})
    lines: list[dict[str, Any]] = []
    for i in range(max(1, cols // 25)):
        col = 1 + rng.randrange(max(1, cols - 1))
        r0 = 1 + rng.randrange(max(1, rows // 2))
        r1 = min(rows, r0 + rows // 3 + rng.randrange(max(1, rows // 3)))
        kind = "river" if i % 3 == 0 else "stream"
        lines.append(
            {"kind": kind, "name": f"{kind} {i}", "hexsides": _water_line(rng, col, r0, r1, cols, rows)}
        )
    return {
        "id": f"synthetic-{cols}x{rows}",
        "title": f"Synthetic {cols}x{rows} benchmark map",
        "cols": [1, cols],
        "rows": [1, rows],
        "default_terrain": "clear",
        "terrain": terrain,
        "routes": routes,
        "lines": lines,
    }


# --------------------------------------------------------------------------------------------------
# Layout: bands of columns
# --------------------------------------------------------------------------------------------------


@dataclass
class Layout:
    """Column bands. ``a_cols``/``b_cols``: columns of each side's bands; ``fronts``: (front column of
    a B band, +1 if the A side lies east of it else -1)."""

    gap: int
    a_cols: list[int] = field(default_factory=list)
    b_cols: list[int] = field(default_factory=list)
    fronts: list[tuple[int, int]] = field(default_factory=list)


def layout(cols: int, rows: int, units: int, combats: int, gap: int = 3) -> Layout:
    """Bands ``A g B g A g B g ... A``: ``m`` B bands, ``m + 1`` A bands, each B band with two
    fronts of ``rows // 2`` targets. ``m`` is the smallest number giving enough targets for
    ``combats`` (with slack for terrain) and enough room for ``units`` a side."""
    targets_per_front = rows // 2
    for m in range(1, cols):
        rest = cols - 2 * m * gap
        if rest < 2 * m + 1:
            break
        b_width = max(2, rest // (2 * m + 1))
        a_width_total = rest - m * b_width
        if a_width_total < m + 1:
            break
        b_room = m * (2 * targets_per_front + max(0, b_width - 2) * rows)
        a_room = a_width_total * rows
        if (
            2 * m * targets_per_front * 0.7 >= combats
            and b_room * 0.9 >= units
            and a_room * 0.6 >= units
        ):
            out = Layout(gap)
            widths = [
                a_width_total // (m + 1) + (1 if i < a_width_total % (m + 1) else 0)
                for i in range(m + 1)
            ]
            c = 1
            for i in range(m + 1):
                out.a_cols += list(range(c, c + widths[i]))
                c += widths[i]
                if i == m:
                    break
                c += gap
                band = list(range(c, c + b_width))
                out.b_cols += band
                out.fronts += [(band[0], -1), (band[-1], +1)]
                c += b_width + gap
            return out
    raise ValueError(
        f"cannot fit {units} units a side and {combats} combats on a {cols}x{rows} map"
    )


# --------------------------------------------------------------------------------------------------
# Units
# --------------------------------------------------------------------------------------------------

_TYPES: tuple[tuple[str, int], ...] = (
    ("infantry", 62),
    ("armor", 10),
    ("mech", 10),
    ("recon", 6),
    ("artillery", 12),
)


def _unit(rng: random.Random, uid: str, side: str) -> dict[str, Any]:
    kind = rng.choices([k for k, _ in _TYPES], [w for _, w in _TYPES])[0]
    base: dict[str, Any] = {"id": uid, "side": side, "designation": uid, "type": kind}
    if kind == "artillery":
        base.update(
            barrage=rng.randint(2, 6),
            fpf=rng.randint(1, 3),
            range=rng.randint(6, 18),
            defense=1,
            move=rng.randint(5, 7),
        )
    elif kind == "infantry":
        base.update(attack=rng.randint(1, 5), defense=rng.randint(2, 5), move=rng.randint(6, 8))
    elif kind == "recon":
        base.update(attack=rng.randint(1, 2), defense=rng.randint(1, 2), move=rng.randint(12, 16))
    else:
        base.update(attack=rng.randint(3, 8), defense=rng.randint(2, 6), move=rng.randint(10, 12))
    return base


# --------------------------------------------------------------------------------------------------
# The case
# --------------------------------------------------------------------------------------------------


@dataclass
class Case:
    """A synthetic position and legal orders for the phasing side ``W``."""

    cols: int
    rows: int
    units_per_side: int
    combats: int
    scenario: Scenario
    state: dict[str, Any]
    orders: dict[str, Any]
    dice_key: bytes
    seed: int
    stats: dict[str, int] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.cols}x{self.rows}, {self.units_per_side}/side, {self.combats} combats"


def _reach(board: Board, uid: str, side: str) -> tuple[dict[Hex, int], dict[Hex, Hex | None]]:
    """Our own Dijkstra over half-points: hexes ``uid`` may end in, entering an enemy zone of
    control only as the last hex [6.0] (the start is never in one here), never an enemy hex."""
    u = board.scenario.unit[uid]
    start = board.unit_hex(uid)
    assert start is not None
    allowance = u.move_halves
    cost: dict[Hex, int] = {}
    prev: dict[Hex, Hex | None] = {}
    heap: list[tuple[int, Hex, Hex | None]] = [(0, start, None)]
    while heap:
        c, h, p = heapq.heappop(heap)
        if h in cost:
            continue
        cost[h] = c
        prev[h] = p
        if h != start and board.enemy_zoc(h, side):
            continue
        for n in board.neighbours(h):
            if n in cost:
                continue
            step = board.enter_cost(u, h, n)
            if step is None or c + step > allowance or board.enemy_at(n, side) is not None:
                continue
            heapq.heappush(heap, (c + step, n, h))
    return cost, prev


def _path(prev: dict[Hex, Hex | None], target: Hex) -> list[Hex]:
    out: list[Hex] = []
    h: Hex | None = target
    while h is not None:
        out.append(h)
        h = prev[h]
    out.reverse()
    return out[1:]


def _distance_field(board: Board, sources: Iterable[Hex]) -> dict[Hex, int]:
    """Hexes (on the map) from the nearest source, by breadth-first search over neighbours."""
    dist: dict[Hex, int] = {}
    queue: deque[Hex] = deque()
    for s in sources:
        dist[s] = 0
        queue.append(s)
    while queue:
        h = queue.popleft()
        for n in board.neighbours(h):
            if n not in dist:
                dist[n] = dist[h] + 1
                queue.append(n)
    return dist


def build_case(
    cols: int,
    rows: int,
    units_per_side: int,
    combats: int,
    seed: int = 1,
) -> Case:
    """A synthetic position with legal orders (see the module doc). Deterministic in its arguments.

    Maps over 99 columns or rows use six-digit hex numbers ``XXXYYY`` beyond column or row 99
    (native in :class:`pbem.maps.hexmap.Hex` and the model's ``HexStr``)."""
    rng = random.Random(f"pbem-bench-{seed}-{cols}x{rows}-{units_per_side}-{combats}")
    lay = layout(cols, rows, units_per_side, combats)
    mdata = map_data(rng, cols, rows)
    lakes = {Hex.parse(h) for h in mdata["terrain"].get("lake", [])}

    # Units and starting hexes.
    w_units = [_unit(rng, f"w{i:04d}", WEST) for i in range(units_per_side)]
    e_units = [_unit(rng, f"e{i:04d}", EAST) for i in range(units_per_side)]
    b_cols = set(lay.b_cols)
    front_cols = {c for c, _ in lay.fronts}
    targets: list[Hex] = []
    for c, _ in lay.fronts:
        targets += [Hex(c, r) for r in range(2, rows + 1, 2) if Hex(c, r) not in lakes]
    rng.shuffle(targets)
    # Targets first (they must be non-artillery ground units only for variety's sake, no rule needs
    # it), then the B band interiors nearest the fronts.
    interior = [
        Hex(c, r)
        for c in sorted(b_cols - front_cols)
        for r in range(1, rows + 1)
        if Hex(c, r) not in lakes
    ]
    front_dist = {h: min(abs(h.col - c) for c, _ in lay.fronts) for h in interior}
    keyed = [(front_dist[h], rng.random(), h) for h in interior]
    keyed.sort()
    e_hexes = targets[: min(len(targets), units_per_side * 3 // 5)]
    for _d, x, h in keyed:
        if len(e_hexes) >= units_per_side:
            break
        if x < 0.85:
            e_hexes.append(h)
    if len(e_hexes) < units_per_side:
        raise ValueError(f"no room for {units_per_side} east units on {cols}x{rows}")
    a_hexes_all = [
        Hex(c, r) for c in lay.a_cols for r in range(1, rows + 1) if Hex(c, r) not in lakes
    ]
    b_edge = [Hex(c, r) for c, _ in lay.fronts for r in range(1, rows + 1)]
    scen_units = w_units + e_units
    sc_data = {
        "id": f"synthetic-{cols}x{rows}-{units_per_side}",
        "title": "Synthetic benchmark scenario",
        "game": "standard",
        "rule": "0.0",
        "sides": [{"id": WEST, "name": "West"}, {"id": EAST, "name": "East"}],
        "first_player": WEST,
        "first_turn": 1,
        "last_turn": 10,
        "map": mdata,
        "terrain_key": default_terrain_key().to_json(),
        "units": scen_units,
        # every unit listed once (a scenario check refuses a unit that never appears); the
        # benchmark places them directly in the state, so the area is simply the whole map
        "deployments": [
            {"side": side, "units": [u["id"] for u in group], "area": [{}], "rule": "0.0"}
            for side, group in ((WEST, w_units), (EAST, e_units))
        ],
    }
    from pbem.systems.westwall.rules import WestWallRules

    scenario = WestWallRules().load_scenario(sc_data)
    # Place E, then compute the distance field from the E band edges to place W nearest first.
    positions: dict[str, Hex] = {u["id"]: h for u, h in zip(e_units, e_hexes, strict=False)}
    probe = _state(scenario, positions)
    board = Board.from_state(scenario, probe)
    dist_edge = _distance_field(board, b_edge)
    keyed_a = sorted((dist_edge.get(h, 10**6), rng.random(), h) for h in a_hexes_all)
    w_hexes = [h for _d, x, h in keyed_a if x < 0.75][:units_per_side]
    if len(w_hexes) < units_per_side:
        raise ValueError(f"no room for {units_per_side} west units on {cols}x{rows}")
    rng.shuffle(w_hexes)
    # [5.24] types start in terrain they may leave, so that every unit can move.
    hex_key = scenario.terrain_key.hexes
    kinds = {Hex.parse(h): k for k, hs in mdata["terrain"].items() for h in hs}
    open_first = sorted(w_hexes, key=lambda h: hex_key[kinds.get(h, "clear")].mech_prohibited)
    mech = [u for u in w_units if u["type"] in ("armor", "mech", "recon")]
    other = [u for u in w_units if u["type"] not in ("armor", "mech", "recon")]
    for u, h in zip(mech + other, open_first, strict=True):
        positions[u["id"]] = h
    state = _state(scenario, positions)
    board = Board.from_state(scenario, state)
    e_pos = {h for uid, h in board.positions() if uid.startswith("e")}
    dist_enemy = _distance_field(board, e_pos)

    # Every west unit's options.
    reach: dict[str, tuple[dict[Hex, int], dict[Hex, Hex | None]]] = {}
    for u in w_units:
        reach[u["id"]] = _reach(board, u["id"], WEST)

    # Attack hexes: next to a target, touching no other east unit, attackable hexside [6.33].
    def attack_hexes(t: Hex) -> list[Hex]:
        out = []
        for h in board.neighbours(t):
            if h in e_pos or board.terrain(h).prohibited or h.col in b_cols:
                continue
            c = board.crossing(h, t)
            if c.blocks_attack or c.prohibited:
                continue
            if sum(1 for n in h.neighbours() if n in e_pos) != 1:
                continue
            out.append(h)
        return out

    can_reach: dict[Hex, list[str]] = {}
    ground = [u["id"] for u in w_units if u["type"] != "artillery"]
    for uid in ground:
        for h in reach[uid][0]:
            can_reach.setdefault(h, []).append(uid)
    claimed: dict[Hex, str] = {}
    assigned: dict[str, Hex] = {}
    unit_of_hex = {h: uid for uid, h in board.positions()}
    attacks: list[dict[str, Any]] = []
    for t in targets:
        if len(attacks) >= combats:
            break
        if t not in e_pos:
            continue
        free = [h for h in attack_hexes(t) if h not in claimed]
        picks: list[tuple[str, Hex]] = []
        want = 2 if rng.random() < 0.25 else 1
        for h in sorted(free):
            cands = [u for u in can_reach.get(h, []) if u not in assigned]
            if not cands:
                continue
            uid = min(cands, key=lambda x: (reach[x][0][h] == 0, x))
            picks.append((uid, h))
            assigned[uid] = h
            claimed[h] = uid
            if len(picks) == want:
                break
        if not picks:
            continue
        defender = unit_of_hex[t]
        att: dict[str, Any] = {"attackers": [p[0] for p in picks], "defenders": [defender]}
        if rng.random() < 0.5:
            att["advance"] = [{"unit": picks[0][0], "hexes": 1}]
        attacks.append(att)
    if len(attacks) < combats:
        raise ValueError(
            f"only {len(attacks)} of {combats} combats could be set up on {cols}x{rows} with "
            f"{units_per_side} units a side"
        )

    # Non-attackers: as far toward the enemy as they can get without coming within one hex of it.
    moves: dict[str, list[Hex]] = {}
    for uid, h in assigned.items():
        moves[uid] = _path(reach[uid][1], h)
    rest = sorted(
        (u["id"] for u in w_units if u["id"] not in assigned),
        key=lambda x: (dist_enemy.get(positions[x], 10**6), x),
    )
    stuck = 0
    for uid in rest:
        cost, prev = reach[uid]
        best: Hex | None = None
        best_key: tuple[int, int, Hex] | None = None
        for h, c in cost.items():
            if c == 0 or h in claimed or dist_enemy.get(h, 10**6) < 2:
                continue
            key = (dist_enemy.get(h, 10**6), -c, h)
            if best_key is None or key < best_key:
                best, best_key = h, key
        if best is None:
            stuck += 1
            claimed[positions[uid]] = uid
            continue
        claimed[best] = uid
        moves[uid] = _path(prev, best)
    final = {uid: path[-1] for uid, path in moves.items()}

    # Barrages: unused west artillery in range of a defender [8.11] joins about a third of the attacks.
    artillery = [u["id"] for u in w_units if u["type"] == "artillery" and u["id"] in final]
    used: set[str] = set()
    e_hex = {uid: h for uid, h in board.positions() if uid.startswith("e")}
    art_range = {u["id"]: int(u["range"]) for u in w_units if u["type"] == "artillery"}
    barrages = 0
    for att in attacks:
        if rng.random() >= 1 / 3:
            continue
        dh = e_hex[att["defenders"][0]]
        for a in artillery:
            if a not in used and final[a].distance(dh) <= art_range[a]:
                att["artillery"] = [a]
                used.add(a)
                barrages += 1
                break

    orders = {
        "kind": "player-turn",
        "side": WEST,
        "game_turn": 1,
        "moves": [{"unit": uid, "path": [str(h) for h in moves[uid]]} for uid in sorted(moves)],
        "attacks": attacks,
    }
    stats = {
        "hexes": cols * rows,
        "moves": len(moves),
        "stuck": stuck,
        "path_hexes": sum(len(p) for p in moves.values()),
        "attackers": len(assigned),
        "barrages": barrages,
        "advances": sum(1 for a in attacks if a.get("advance")),
        "b_bands": len(lay.fronts) // 2,
    }
    dice_key = hashlib.sha256(f"pbem-bench-dice-{seed}".encode()).digest()
    return Case(
        cols,
        rows,
        units_per_side,
        combats,
        scenario,
        state.to_json(),
        orders,
        dice_key,
        seed,
        stats,
    )


def _state(scenario: Scenario, positions: dict[str, Hex]) -> State:
    units = {
        u.id: (
            {"hex": str(positions[u.id]), "status": "on-map"}
            if u.id in positions
            else {"status": "waiting"}
        )
        for u in scenario.units
    }
    return State.parse(
        {
            "scenario": scenario.id,
            "game_turn": 1,
            "phasing": WEST,
            "phase": "player-turn",
            "units": units,
        }
    )


def check_legal(case: Case) -> None:
    """Validate the case's orders with the real rules; print every violation and exit if any."""
    from pbem.systems.westwall.rules import WestWallRules

    violations = WestWallRules().validate(case.scenario, case.state, WEST, case.orders)
    if violations:
        print(f"synthetic orders for {case.label} are NOT legal ({len(violations)} violations):")
        for v in violations[:40]:
            print(f"  - {v}  (unit={v.unit}, hex={v.hex})")
        if len(violations) > 40:
            print(f"  ... and {len(violations) - 40} more")
        raise SystemExit(1)
