"""The map document every hex wargame here shares: bounds, terrain per hex, routes (roads,
trails) drawn as chains of hexes, lines of hexside features (rivers, streams, canals), bridges and
named places, with the derived lookups the rules ask (:class:`MapData`); the hex number type
(:data:`HexStr`, checked by :data:`HEX`). Plain records (:mod:`pbem.protocol.record`), checked by
hand as they are read, system-neutral: WestWall's scenarios use it as it is, Arnhem 1944's extends
it with railways and entry zones. What the terrain does (movement costs, combat) is each system's own."""

from __future__ import annotations

from functools import cached_property

from pbem.maps.hexmap import Hex, hexside
from pbem.protocol.record import (
    Int,
    ListOf,
    MapOf,
    Nested,
    OneOf,
    Record,
    Str,
    TupleOf,
    field,
)

HEX_PATTERN = r"^(\d{4}|\d{6})$"
"""A hex number: ``XXYY``; ``XXXYYY`` beyond column or row 99 (see :mod:`pbem.maps.hexmap`)."""
HEX = Str(HEX_PATTERN)
"""The check of a hex number in a record (:mod:`pbem.protocol.record`)."""
HexStr = str
"""A hex number as a record's field holds it (checked by :data:`HEX`)."""


class RouteLine(Record):
    """A road or trail drawn as a chain of adjacent hexes; each consecutive pair is a route hexside."""

    kind: str = field(OneOf("road", "trail"))
    name: str = field(Str(), default="")
    hexes: list[str] = field(ListOf(HEX))
    off_map: list[str] = field(ListOf(OneOf("start", "end")), default_factory=list,
                               description="Which ends of the line lead off the map [11.12, 12.0]")


class HexsideLine(Record):
    """A river, stream, canal... drawn as a list of hexsides ``"XXYY/XXYY"``."""

    kind: str = field(Str())
    name: str = field(Str(), default="")
    hexsides: list[str] = field(ListOf(Str()))


class Place(Record):
    """A named place on the map."""

    hex: str = field(HEX)
    name: str = field(Str())


class MapData(Record, slots=False):  # not slotted: its derived lookups are cached on it
    """A map: bounds, terrain per hex, hexside features, named places."""

    id: str = field(Str())
    title: str = field(Str(), default="")
    reconstructed: str = field(Str(), default="", description="How and why the data was reconstructed")
    north: str = field(
        OneOf("up", "right"), default="up", omit=lambda v: v == "up",
        description="Where north lies on the raw grid (columns across, rows down): 'up' for most "
        "maps; 'right' when the first two digits of a hex number run south to north (Arnhem)")
    cols: tuple[int, int] = field(TupleOf(Int(), Int()), description="First and last column, inclusive")
    rows: tuple[int, int] = field(TupleOf(Int(), Int()), description="First and last row, inclusive")
    default_terrain: str = field(Str(), default="clear")
    terrain: dict[str, list[str]] = field(
        MapOf(Str(), ListOf(HEX)), default_factory=dict,
        description="terrain kind -> hexes (hexes not listed are default)")
    routes: list[RouteLine] = field(ListOf(Nested(RouteLine)), default_factory=list)
    lines: list[HexsideLine] = field(ListOf(Nested(HexsideLine)), default_factory=list)
    bridges: list[str] = field(
        ListOf(Str()), default_factory=list,
        description="Hexsides where a route crosses a river/stream on a bridge (usually derived)")
    places: list[Place] = field(ListOf(Nested(Place)), default_factory=list)

    # Derived lookups (not serialised).
    @cached_property
    def hex_terrain(self) -> dict[Hex, str]:
        out: dict[Hex, str] = {}
        for kind, hexes in self.terrain.items():
            for h in hexes:
                out[Hex.parse(h)] = kind
        return out

    def terrain_of(self, h: Hex) -> str:
        return self.hex_terrain.get(h, self.default_terrain)

    def on_map(self, h: Hex) -> bool:
        return self.cols[0] <= h.col <= self.cols[1] and self.rows[0] <= h.row <= self.rows[1]

    @cached_property
    def neighbour_memo(self) -> dict[str, tuple[str, ...]]:
        """Hex number -> :meth:`neighbours_on_map`, filled as the searches ask (this map's own)."""
        return {}

    def neighbours_on_map(self, hex_id: str) -> tuple[str, ...]:
        """The numbers of the hexes beside ``hex_id`` that are on the map, in the order of
        :meth:`Hex.neighbours <pbem.maps.hexmap.Hex.neighbours>`; worked out once per hex and
        map (the searches for supply, movement and zones ask it tens of thousands of times a
        game, issue 28). Raises as :meth:`Hex.parse <pbem.maps.hexmap.Hex.parse>` does."""
        hit = self.neighbour_memo.get(hex_id)
        if hit is None:
            hit = tuple(str(n) for n in Hex.parse(hex_id).neighbours() if self.on_map(n))
            self.neighbour_memo[hex_id] = hit
        return hit

    @cached_property
    def hexside_features(self) -> dict[tuple[Hex, Hex], frozenset[str]]:
        """hexside -> set of feature kinds (``road``, ``trail``, ``stream``, ``river``, ``bridge``...)."""
        acc: dict[tuple[Hex, Hex], set[str]] = {}
        for route in self.routes:
            hs = [Hex.parse(h) for h in route.hexes]
            for a, b in zip(hs, hs[1:], strict=False):
                acc.setdefault(hexside(a, b), set()).add(route.kind)
        for line in self.lines:
            for s in line.hexsides:
                a_s, b_s = s.split("/")
                acc.setdefault(hexside(Hex.parse(a_s), Hex.parse(b_s)), set()).add(line.kind)
        for s in self.bridges:
            a_s, b_s = s.split("/")
            acc.setdefault(hexside(Hex.parse(a_s), Hex.parse(b_s)), set()).add("bridge")
        return {k: frozenset(v) for k, v in acc.items()}

    def features(self, a: Hex, b: Hex) -> frozenset[str]:
        return self.hexside_features.get(hexside(a, b), frozenset())

    @cached_property
    def side_memo(self) -> dict[tuple[str, str], frozenset[str]]:
        """(hex number, hex number) -> :meth:`features_between`, filled as the rules ask."""
        return {}

    def features_between(self, a: str, b: str) -> frozenset[str]:
        """:meth:`features` of the hexside between the hexes numbered ``a`` and ``b``, worked out
        once per pair and map (zones of control and moves ask it tens of thousands of times a
        game, issue 28). Raises as :meth:`Hex.parse <pbem.maps.hexmap.Hex.parse>` does."""
        hit = self.side_memo.get((a, b))
        if hit is None:
            hit = self.features(Hex.parse(a), Hex.parse(b))
            self.side_memo[(a, b)] = hit
        return hit

    @cached_property
    def route_hexes(self) -> dict[str, frozenset[Hex]]:
        """``road``/``trail`` -> hexes that contain one."""
        acc: dict[str, set[Hex]] = {"road": set(), "trail": set()}
        for route in self.routes:
            acc[route.kind].update(Hex.parse(h) for h in route.hexes)
        return {k: frozenset(v) for k, v in acc.items()}

    @cached_property
    def off_map_routes(self) -> dict[Hex, frozenset[str]]:
        """Edge hexes where a road or trail leads off the map -> route kinds [11.12, 12.0]."""
        acc: dict[Hex, set[str]] = {}
        for route in self.routes:
            if "start" in route.off_map:
                acc.setdefault(Hex.parse(route.hexes[0]), set()).add(route.kind)
            if "end" in route.off_map:
                acc.setdefault(Hex.parse(route.hexes[-1]), set()).add(route.kind)
        return {k: frozenset(v) for k, v in acc.items()}

    def all_hexes(self) -> list[Hex]:
        return [
            Hex(c, r)
            for c in range(self.cols[0], self.cols[1] + 1)
            for r in range(self.rows[0], self.rows[1] + 1)
        ]

    def edge_hexes(self, edge: str) -> list[Hex]:
        """Hexes on a map edge: ``west``, ``east``, ``north``, ``south``."""
        c0, c1 = self.cols
        r0, r1 = self.rows
        if edge == "west":
            return [Hex(c0, r) for r in range(r0, r1 + 1)]
        if edge == "east":
            return [Hex(c1, r) for r in range(r0, r1 + 1)]
        if edge == "north":
            return [Hex(c, r0) for c in range(c0, c1 + 1)]
        if edge == "south":
            return [Hex(c, r1) for c in range(c0, c1 + 1)]
        raise ValueError(f"unknown edge {edge!r}")

    def place_name(self, h: Hex) -> str | None:
        for p in self.places:
            if p.hex == str(h):
                return p.name
        return None
