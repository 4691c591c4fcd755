"""The Arnhem 1944 map as the rules ask it: the :class:`~pbem.systems.arnhem1944.combat.HexMap`
questions (neighbours on the map, distance, terrain, hexside features, edge) answered from the
scenario's :class:`~pbem.systems.arnhem1944.model.A1944Map`, with the crossings blown so far
[12.2] taken off their hexsides, and the cost of one step of movement by the TEC [6.3].

Readings: moving from hex to hex along a road (or a railway) pays the route's cost when that is
cheaper than the terrain's [6.3]; a railway may be followed like a road, at its own cost (the
TEC's ``railway`` route).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pbem.maps.hexmap import Hex, hexside, hexside_str
from pbem.systems.arnhem1944.model import A1944Map
from pbem.systems.arnhem1944.tables import Tec

CROSSINGS = frozenset({"bridge", "rail-bridge", "ferry"})


def side_key(a: str, b: str) -> str:
    """The canonical text of the hexside between ``a`` and ``b`` (``"1406/1407"``)."""
    return hexside_str(hexside(Hex.parse(a), Hex.parse(b)))


class Board:
    """The map for the rules (implements the combat module's ``HexMap``)."""

    def __init__(self, map_: A1944Map, tec: Tec, blown: Sequence[str] = ()) -> None:
        self.map = map_
        self.tec = tec
        self.blown = frozenset(blown)

    def on_map(self, h: str) -> bool:
        try:
            return self.map.on_map(Hex.parse(h))
        except Exception:
            return False

    def neighbours(self, hex_id: str) -> Sequence[str]:
        return self.map.neighbours_on_map(hex_id)

    def distance(self, a: str, b: str) -> int:
        return Hex.parse(a).distance(Hex.parse(b))

    def adjacent(self, a: str, b: str) -> bool:
        return Hex.parse(a).is_adjacent(Hex.parse(b))

    def kind(self, hex_id: str) -> str:
        return self.map.terrain_of(Hex.parse(hex_id))

    def side(self, a: str, b: str) -> frozenset[str]:
        feats = self.map.features_between(a, b)
        if feats & CROSSINGS and side_key(a, b) in self.blown:
            return feats - CROSSINGS
        return feats

    def zone(self, occupied: Iterable[str]) -> frozenset[str]:
        """:func:`pbem.systems.arnhem1944.combat.zone` on this board by its TEC, from a table of
        each hex's own zone (the map's, per TEC and crossings blown: a move asks for the enemy's
        zone at every step, issue 28)."""
        key = (id(self.tec), self.blown)
        hit = self.map.zoc_tables.get(key)
        if hit is None or hit[0] is not self.tec:  # the entry holds its TEC: its id is not reused
            hit = self.map.zoc_tables[key] = (self.tec, {})
        table = hit[1]
        out: set[str] = set()
        for h in occupied:
            covered = table.get(h)
            if covered is None:
                blocks, side = self.tec.blocks_zoc, self.side
                covered = table[h] = tuple(n for n in self.neighbours(h) if not blocks(side(h, n)))
            out.update(covered)
        return frozenset(out)

    def at_edge(self, hex_id: str) -> bool:
        return len(self.neighbours(hex_id)) < 6

    def step_halves(self, a: str, b: str) -> int | None:
        """Half MP to move from ``a`` into adjacent ``b`` [6.3, 12.1]; None: not across."""
        feats = self.side(a, b)
        kind = self.kind(b)
        costs = [self.tec.entry_halves(kind, feats)]
        for route in ("road", "railway"):
            if route in feats:
                costs.append(self.tec.entry_halves(kind, feats, route))
        found = [c for c in costs if c is not None]
        return min(found) if found else None

    def entry_halves(self, h: str) -> int:
        """Half MP to enter the map at ``h`` [15.1]: by a road that leads off the map there, the
        road's cost; otherwise the hex's terrain."""
        if "road" in self.map.off_map_routes.get(Hex.parse(h), frozenset()):
            return self.tec.data.routes["road"].mp_halves
        return self.tec.hex(self.kind(h)).mp_halves

    def water_crossing(self, a: str, b: str) -> bool:
        """A river or canal hexside with no (standing) crossing [12.1]."""
        feats = self.side(a, b)
        return bool(feats & {"river", "canal"}) and not feats & CROSSINGS

    @property
    def blowable(self) -> dict[str, str]:
        """Hexside -> crossing kind, for every railway bridge and ferry [12.2] (the map's, worked
        out once per map: a board is made for every step that moves)."""
        return self.map.blowable

    def edge_hexes(self, edges: Sequence[str]) -> set[str]:
        return {str(h) for e in edges for h in self.map.edge_hexes(e)}
