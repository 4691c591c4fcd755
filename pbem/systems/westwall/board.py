"""The WestWall board: terrain lookups and a mutable working copy of unit positions.

Two layers:

* :class:`Geometry` -- everything that depends on the scenario only (which hexes exist, their
  terrain, what each hexside does, which neighbours a zone of control reaches). Built once per
  scenario object and kept with it (:func:`geometry`).
* :class:`Board` -- positions, statuses and objective control built from ``(Scenario, State)``; the
  movement and combat code mutate it and :meth:`Board.to_state` turns it back into a
  :class:`~pbem.systems.westwall.model.State`.

Terrain (see ``scenarios/terrain-key.json`` and ``docs/westwall.md``):

* entering a hex costs the hex's terrain plus the hexside crossed [5.21]; from road hex to road hex
  across a road hexside it costs the key's road rate (1 half-point) whatever the terrain [5.22], along
  a trail the trail rate (2 half-points) [5.23];
* armour, mech, recon and SP artillery never enter broken/woods/rough hexes nor cross streams or rivers
  except along a road or trail hexside [5.24];
* a road or trail crossing water is a bridge (unless the hexside is marked ``ferry`` or
  ``destroyed-bridge``): no crossing cost, zones of control and attacks pass [6.33];
* zones of control reach all six neighbours [6.0, 6.11], except across a non-bridge river or canal
  [6.33] and never into or across terrain closed to every unit [6.31].
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import field
from typing import TYPE_CHECKING, Any, TypeVar

from pbem.errors import InputError, RuleViolation
from pbem.maps.hexmap import Hex, hexside
from pbem.plain import Plain
from pbem.systems.westwall.memo import memo
from pbem.systems.westwall.model import (
    MECH_TYPES,
    CrtLine,
    HexsideTerrain,
    HexTerrain,
    Scenario,
    State,
    TerrainKey,
    UnitDef,
    UnitState,
)

if TYPE_CHECKING:
    from pbem.systems.westwall.crt import Table

NON_BRIDGE_MARKERS: frozenset[str] = frozenset({"ferry", "destroyed-bridge"})
"""Hexside kinds that stop a route over water from counting as a bridge [6.33]."""
CUT_ROUTE_MARKERS: frozenset[str] = frozenset({"destroyed-bridge"})
"""Hexside kinds across which a road or trail no longer continues."""


@functools.cache
def default_terrain_key() -> TerrainKey:
    """The documented default Terrain Key bundled as ``pbem/scenario_data/terrain-key.json``."""
    return TerrainKey.parse(json.loads(_bundled_file("terrain-key.json")))


def _bundled_file(name: str) -> str:
    from pbem.engine.scenarios import bundled_text

    return bundled_text(name)


# --------------------------------------------------------------------------------------------------
# Hexside crossings
# --------------------------------------------------------------------------------------------------


class Crossing(Plain, frozen=True):
    """What crossing one hexside means, with every feature combined.

    ``water`` lists the water kinds whose effects apply (empty when bridged). ``route`` is ``"road"``
    or ``"trail"`` when the hexside carries one (the better of the two if both)."""

    features: frozenset[str] = frozenset()
    route: str | None = None
    bridge: bool = False
    water: tuple[str, ...] = ()
    mp_halves: int = 0
    mech_prohibited: bool = False
    prohibited: bool = False
    blocks_zoc: bool = False
    blocks_attack: bool = False
    crt: CrtLine | None = None

    @property
    def stream(self) -> bool:
        """A non-bridge stream the attacker must cross [7.42]."""
        return "stream" in self.water


NO_CROSSING = Crossing()
_NEW_UNIT = UnitState()

_CRT_ORDER: dict[str, int] = {"clear": 0, "grove": 1, "broken": 2, "rough": 3}


def better_line(a: CrtLine | None, b: CrtLine | None) -> CrtLine | None:
    """The CRT line more favourable to the defender [7.44]."""
    if a is None:
        return b
    if b is None:
        return a
    return a if _CRT_ORDER[a] >= _CRT_ORDER[b] else b


def _crossing(key: TerrainKey, features: frozenset[str]) -> Crossing:
    kinds: dict[str, HexsideTerrain] = {k: key.hexsides[k] for k in features if k in key.hexsides}
    cut = bool(features & CUT_ROUTE_MARKERS)
    routes = [k for k, t in kinds.items() if t.route] if not cut else []
    route: str | None = None
    if routes:
        route = "road" if "road" in routes else sorted(routes)[0]
    explicit_bridge = any(t.bridge for t in kinds.values())
    water = sorted(
        k for k, t in kinds.items() if not t.route and not t.bridge and k not in NON_BRIDGE_MARKERS
    )
    bridged = (explicit_bridge or (route is not None and bool(water))) and not (
        features & NON_BRIDGE_MARKERS
    )
    if bridged:
        crt: CrtLine | None = None
        for t in kinds.values():
            if t.bridge:
                crt = better_line(crt, t.crt)
        if crt is None and "bridge" in key.hexsides:
            crt = key.hexsides["bridge"].crt
        return Crossing(features, route, True, (), 0, False, False, False, False, crt)
    crt = None
    for k in water:
        crt = better_line(crt, kinds[k].crt)
    return Crossing(
        features=features,
        route=route,
        bridge=False,
        water=tuple(water),
        mp_halves=sum(kinds[k].mp_halves for k in water),
        mech_prohibited=any(kinds[k].mech_prohibited for k in water),
        prohibited=any(kinds[k].prohibited for k in water),
        blocks_zoc=any(kinds[k].blocks_zoc for k in water),
        blocks_attack=any(kinds[k].blocks_attack for k in water),
        crt=crt,
    )


# --------------------------------------------------------------------------------------------------
# Geometry (scenario-only, cached)
# --------------------------------------------------------------------------------------------------


_V = TypeVar("_V")


class _HexTable(dict[Hex, _V]):
    """A per-hex table filled on first use: ``table[h]`` computes ``make(h)`` for an on-map hex
    the first time and raises ``KeyError`` off the map, exactly like the complete dictionary it
    stands for (``get`` too). Only iteration, ``len`` and ``in`` see just the hexes computed so far.
    Building every entry up front cost each process (each ``pbem verify``) several milliseconds on
    a Bastogne-sized map, for hexes most turns never look at."""

    def __init__(self, hexes: frozenset[Hex], make: Callable[[Hex], _V]) -> None:
        super().__init__()
        self._hexes = hexes
        self._make = make

    def __missing__(self, h: Hex) -> _V:
        if h not in self._hexes:
            raise KeyError(h)
        value = self._make(h)
        self[h] = value
        return value

    def get(self, h: Hex, default: Any = None) -> Any:
        try:
            return self[h]
        except KeyError:
            return default


class _Parsed(dict[str, Hex]):
    """``Hex.parse`` as a table filled on first use."""

    def __missing__(self, text: str) -> Hex:
        h = self[text] = Hex.parse(text)
        return h


class Geometry:
    """Per-scenario lookups: terrain per hex, crossings per hexside, neighbours and ZOC reach.

    Every table is filled lazily, hex by hex (or hexside by hexside), on first use."""

    def __init__(
        self, scenario: Scenario, destroyed: frozenset[tuple[Hex, Hex]] = frozenset()
    ) -> None:
        self.scenario = scenario
        self.destroyed = destroyed
        """Bridge hexsides demolished during play (Arnhem [12.13]): their water is in full effect."""
        m = scenario.map
        key = scenario.terrain_key
        self.key = key
        # What the bridges down do not change is made once per scenario and shared by its
        # geometries (SPI Arnhem makes one per set of demolished bridges [12.13]).
        (self.hexes, self.terrain_kind, self.terrain, self.side_of, self.crt, self.neighbours,
         self.hex_at) = memo(scenario, "geometry-shared", None, lambda: _shared_tables(scenario))
        self._crossing_memo: dict[tuple[Hex, Hex], Crossing] = {}
        self._by_features: dict[frozenset[str], Crossing] = {}
        self.road_hexes = m.route_hexes.get("road", frozenset())
        self.trail_hexes = m.route_hexes.get("trail", frozenset())
        hexes = self.hexes
        # attack_to[h]: neighbours across whose hexside an attack may be made from h or into it
        # (not a non-bridge river, not closed to all [6.33]): where units engaged with h stand.
        self.attack_to: dict[Hex, tuple[Hex, ...]] = _HexTable(hexes, self._attack_to)
        # zoc_from[h]: neighbours from which a zone of control reaches h [6.31, 6.33].
        self.zoc_from: dict[Hex, tuple[Hex, ...]] = _HexTable(hexes, self._zoc_from)
        # Cost in half Movement Points of each legal step a -> b met so far, for units that are
        # not / are [5.24] types (index 0 / 1): terrain alone decides it (Board.enter_check).
        self.step_cost: tuple[dict[tuple[Hex, Hex], int], dict[tuple[Hex, Hex], int]] = ({}, {})

    def _attack_to(self, h: Hex) -> tuple[Hex, ...]:
        out = []
        for n in self.neighbours[h]:
            c = self.crossing(h, n)
            if not (c.blocks_attack or c.prohibited):
                out.append(n)
        return tuple(out)

    def _zoc_from(self, h: Hex) -> tuple[Hex, ...]:
        if self.terrain[h].prohibited:
            return ()
        features = self.scenario.map.hexside_features
        out = []
        for n in self.neighbours[h]:
            if (n, h) not in features and (h, n) not in features:
                out.append(n)  # a plain hexside: nothing on it stops a zone of control
                continue
            c = self.crossing(n, h)
            if not c.blocks_zoc and not c.prohibited:
                out.append(n)
        return tuple(out)

    @property
    def crossings(self) -> dict[tuple[Hex, Hex], Crossing]:
        """Every hexside with a feature -> its :class:`Crossing` (the others are ``NO_CROSSING``)."""
        return {side: self.crossing(*side) for side in self.scenario.map.hexside_features}

    def crossing(self, a: Hex, b: Hex) -> Crossing:
        side = (a, b) if a < b else (b, a)
        c = self._crossing_memo.get(side)
        if c is None:
            feats = self.scenario.map.hexside_features.get(side)
            if side in self.destroyed and feats is not None:
                feats = feats | {"destroyed-bridge"}
            if feats is None:
                c = NO_CROSSING
            else:
                # A Crossing depends on the set of features only, and few sets occur on a map.
                c = self._by_features.get(feats)
                if c is None:
                    c = self._by_features[feats] = _crossing(self.key, feats)
            self._crossing_memo[side] = c
        return c

    def on_map(self, h: Hex) -> bool:
        return h in self.hexes


def _control_hexes(scenario: Scenario) -> frozenset[str]:
    """The scenario's ``special.control_hexes`` as text (:attr:`Board.control_hexes`)."""
    raw = scenario.special.get("control_hexes", [])
    if not isinstance(raw, list):
        return frozenset()
    return frozenset(str(x) for x in raw)


def _control_at(keys: frozenset[str]) -> dict[Hex, str]:
    out: dict[Hex, str] = {}
    for key in keys:
        try:
            h = Hex.parse(key)
        except InputError:
            continue
        if str(h) == key:
            out[h] = key
    return out


def _shared_tables(scenario: Scenario) -> tuple[
    frozenset[Hex], dict[Hex, str], dict[Hex, HexTerrain], dict[str, str], Table,
    dict[Hex, tuple[Hex, ...]], dict[str, Hex],
]:
    """The parts of a :class:`Geometry` that depend on the scenario alone, each table filled on
    first use: the hexes on the map; terrain kind and terrain per hex; each unit's side; the
    Combat Results Table the scenario plays with [7.61]; the on-map neighbours per hex; and the
    hex numbers met in orders -> :class:`Hex` (``hex_at[text]`` is ``Hex.parse(text)``, which it
    raises for a malformed number)."""
    from pbem.systems.westwall.crt import Table

    m = scenario.map
    key = scenario.terrain_key
    all_hexes = m.all_hexes()
    hexes = frozenset(all_hexes)
    on_map: dict[tuple[int, int], Hex] = {h: h for h in all_hexes}
    fallback = HexTerrain(mp_halves=2, crt="clear")
    kinds: dict[Hex, str] = _HexTable(hexes, m.terrain_of)
    terrain: dict[Hex, HexTerrain] = _HexTable(hexes, lambda h: key.hexes.get(kinds[h], fallback))

    def neighbours(h: Hex) -> tuple[Hex, ...]:
        """The on-map neighbours of ``h`` in :meth:`Hex.neighbours` order (N, NE, SE, S, SW, NW),
        from the column and row directly: an odd column touches rows ``r-1`` and ``r`` of the
        columns beside it, an even column rows ``r`` and ``r+1`` (each the map's own hex object)."""
        c, r = h
        if c & 1:
            around = ((c, r - 1), (c + 1, r - 1), (c + 1, r), (c, r + 1), (c - 1, r), (c - 1, r - 1))
        else:
            around = ((c, r - 1), (c + 1, r), (c + 1, r + 1), (c, r + 1), (c - 1, r + 1), (c - 1, r))
        get = on_map.get
        return tuple(n for n in map(get, around) if n is not None)

    return (hexes, kinds, terrain, {u.id: u.side for u in scenario.units}, Table.of(scenario.crt),
            _HexTable(hexes, neighbours), _Parsed())


def geometry(
    scenario: Scenario, destroyed: frozenset[tuple[Hex, Hex]] = frozenset()
) -> Geometry:
    """The :class:`Geometry` of a scenario object (with these bridges demolished), made once and
    kept with the scenario (:func:`~pbem.systems.westwall.memo.memo`)."""
    return memo(scenario, "geometry", destroyed, lambda: Geometry(scenario, destroyed), bound=64)


def destroyed_bridges(state: State) -> frozenset[tuple[Hex, Hex]]:
    """The demolished bridge hexsides recorded in ``state`` (Arnhem [12.13, 12.17])."""
    items = state.exclusive.get("destroyed_bridges") if state.exclusive else None
    if not items:
        return frozenset()
    out = set()
    for s in items:
        a, b = s.split("/")
        out.add(hexside(Hex.parse(a), Hex.parse(b)))
    return frozenset(out)


# --------------------------------------------------------------------------------------------------
# Board
# --------------------------------------------------------------------------------------------------


_MISSING: object = object()
"""Journal marker: the entry did not exist before the change."""


class Board(Plain):
    """A mutable working copy of a position.

    Several units may share a hex transiently (a unit passing through friends [5.31], a retreat
    displacing [7.81]); :meth:`occupant` returns the first, :meth:`occupants` all of them.

    Trial changes (the retreat search [7.7, 7.8]) are made between :meth:`begin` and
    :meth:`rollback` (undo everything since) or :meth:`commit` (keep it); nothing is copied."""

    scenario: Scenario
    geo: Geometry
    units: dict[str, UnitState]
    control: dict[str, str]
    _pos: dict[str, Hex] = field(default_factory=dict)
    _at: dict[Hex, list[str]] = field(default_factory=dict)
    # Performance bookkeeping, derived from ``_pos``: on-map unit ids per side, and their sorted
    # list (dropped whenever the side's set changes).
    _by_side: dict[str, set[str]] = field(default_factory=dict, repr=False, compare=False)
    _sorted: dict[str, list[str]] = field(default_factory=dict, repr=False, compare=False)
    # Undo log of the open trials (None when no trial is open) and how many are open.
    _journal: list[tuple[int, object, object]] | None = field(
        default=None, repr=False, compare=False
    )
    _trials: int = field(default=0, repr=False, compare=False)
    source: State | None = field(default=None, repr=False, compare=False)
    """The state this board was built from (for the exclusive rules' records), if any."""
    decided: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    """Decisions the exclusive rules made on this board since it was built from a state (Arnhem:
    bridge hexside -> demolished/intact/spared [12.1]), so that no bridge is tried twice."""

    def __post_init__(self) -> None:
        if self._pos and not self._by_side:
            side_of = self.geo.side_of
            for uid in self._pos:
                self._by_side.setdefault(side_of[uid], set()).add(uid)

    @classmethod
    def from_state(cls, scenario: Scenario, state: State) -> Board:
        board = cls(
            scenario,
            geometry(scenario, destroyed_bridges(state)),
            dict(state.units),
            dict(state.control),
            source=state,
        )
        pos = board._pos
        at = board._at
        by_side = board._by_side
        side_of = board.geo.side_of
        parse = board.geo.hex_at.__getitem__  # Hex.parse, as a table
        for uid in sorted(state.units):
            us = state.units[uid]
            if us.status == "on-map" and us.hex is not None:
                h = parse(us.hex)
                pos[uid] = h
                at.setdefault(h, []).append(uid)
                by_side.setdefault(side_of[uid], set()).add(uid)
        return board

    def copy(self) -> Board:
        return Board(
            self.scenario,
            self.geo,
            dict(self.units),
            dict(self.control),
            dict(self._pos),
            {h: list(v) for h, v in self._at.items()},
            {side: set(v) for side, v in self._by_side.items()},
            source=self.source,
            decided=dict(self.decided),
        )

    # -- trials (undo log) ----------------------------------------------------------------------
    def begin(self) -> int:
        """Open a trial; returns the mark to pass to :meth:`rollback` or :meth:`commit`."""
        if self._journal is None:
            self._journal = []
        self._trials += 1
        return len(self._journal)

    def commit(self, mark: int) -> None:
        """Close the innermost trial keeping its changes (an enclosing trial can still undo them)."""
        self._trials -= 1
        if self._trials == 0:
            self._journal = None

    def rollback(self, mark: int) -> None:
        """Close the innermost trial undoing every change made since ``mark``: positions, the order
        of units in each hex, unit states and control are exactly as they were."""
        j = self._journal
        assert j is not None
        side_of = self.geo.side_of
        while len(j) > mark:
            kind, key, old = j.pop()
            if kind == 0:
                uid = str(key)
                side = side_of[uid]
                if old is None:
                    self._pos.pop(uid, None)
                    self._by_side.get(side, set()).discard(uid)
                else:
                    assert isinstance(old, Hex)
                    self._pos[uid] = old
                    self._by_side.setdefault(side, set()).add(uid)
                self._sorted.pop(side, None)
            elif kind == 1:
                assert isinstance(key, Hex)
                if old is None:
                    self._at.pop(key, None)
                else:
                    assert isinstance(old, list)
                    self._at[key] = old
            elif kind == 2:
                if old is _MISSING:
                    self.units.pop(str(key), None)
                else:
                    assert isinstance(old, UnitState)
                    self.units[str(key)] = old
            else:
                if old is _MISSING:
                    self.control.pop(str(key), None)
                else:
                    self.control[str(key)] = str(old)
        self._trials -= 1
        if self._trials == 0:
            self._journal = None

    def _log_position(self, uid: str, h: Hex | None) -> None:
        """Journal what moving ``uid`` to ``h`` changes in the position tables."""
        j = self._journal
        assert j is not None
        old = self._pos.get(uid)
        j.append((0, uid, old))
        if old is not None:
            j.append((1, old, list(self._at[old])))
        if h is not None and h != old:
            at = self._at.get(h)
            j.append((1, h, list(at) if at is not None else None))

    def _log_unit(self, uid: str) -> None:
        assert self._journal is not None
        self._journal.append((2, uid, self.units.get(uid, _MISSING)))

    # -- units --------------------------------------------------------------------------------
    def unit_def(self, uid: str) -> UnitDef:
        return self.scenario.unit[uid]

    def side_of(self, uid: str) -> str:
        return self.geo.side_of[uid]

    def status(self, uid: str) -> str:
        us = self.units.get(uid)
        return us.status if us is not None else "waiting"

    def unit_hex(self, uid: str) -> Hex | None:
        return self._pos.get(uid)

    def occupant(self, h: Hex) -> str | None:
        at = self._at.get(h)
        return at[0] if at else None

    def occupants(self, h: Hex) -> list[str]:
        return list(self._at.get(h, ()))

    def units_of(self, side: str) -> list[str]:
        """Ids of ``side``'s units on the map, sorted."""
        cached = self._sorted.get(side)
        if cached is None:
            cached = sorted(self._by_side.get(side, ()))
            self._sorted[side] = cached
        return list(cached)

    def on_map_units(self) -> list[str]:
        return sorted(self._pos)

    def positions(self) -> Iterator[tuple[str, Hex]]:
        for uid in sorted(self._pos):
            yield uid, self._pos[uid]

    def stacked_hexes(self) -> dict[Hex, list[str]]:
        """Hexes holding more than one unit [5.31]."""
        return {h: sorted(v) for h, v in self._at.items() if len(v) > 1}

    def update_unit(self, uid: str, **changes: object) -> None:
        """Set fields of a unit's :class:`UnitState` (e.g. ``fpf_turn``, ``adverse_phase``)."""
        if self._journal is not None:
            self._log_unit(uid)
        current = self.units.get(uid, _NEW_UNIT)
        self.units[uid] = current.replace(**changes)

    def _remove(self, uid: str) -> None:
        old = self._pos.pop(uid, None)
        if old is not None:
            at = self._at[old]
            at.remove(uid)
            if not at:
                del self._at[old]
            side = self.geo.side_of[uid]
            self._by_side[side].discard(uid)
            self._sorted.pop(side, None)

    def place(self, uid: str, h: Hex) -> None:
        """Put ``uid`` in hex ``h`` in the position tables only (no unit state, no objective
        control): for trial moves that a :meth:`rollback` undoes, or that :meth:`move_unit`
        repeats once chosen."""
        if self._journal is not None:
            self._log_position(uid, h)
        old = self._pos.pop(uid, None)
        if old is not None:
            at = self._at[old]
            at.remove(uid)
            if not at:
                del self._at[old]
        else:
            side = self.geo.side_of[uid]
            self._by_side.setdefault(side, set()).add(uid)
            self._sorted.pop(side, None)
        self._pos[uid] = h
        self._at.setdefault(h, []).append(uid)

    def move_unit(self, uid: str, h: Hex | None) -> None:
        """Put ``uid`` in hex ``h`` (status on-map) or, with ``None``, take it off the map (status
        left as it is; use :meth:`eliminate` or :meth:`exit_unit` to say why). Entering an objective
        hex listed in ``scenario.special["control_hexes"]`` gives it to the unit's side."""
        if self._journal is not None:
            self._log_unit(uid)
        if h is None:
            if self._journal is not None:
                self._log_position(uid, None)
            self._remove(uid)
            self.units[uid] = self.units.get(uid, _NEW_UNIT).replace(hex=None)
            return
        self.place(uid, h)
        self.units[uid] = self.units.get(uid, _NEW_UNIT).replace(hex=str(h), status="on-map")
        self.note_passage(uid, h)

    def note_passage(self, uid: str, h: Hex) -> None:
        """Record that ``uid`` entered or passed through ``h`` (objective control)."""
        key = self._control_at.get(h)
        if key is not None:
            if self._journal is not None:
                self._journal.append((3, key, self.control.get(key, _MISSING)))
            self.control[key] = self.geo.side_of[uid]

    @functools.cached_property
    def control_hexes(self) -> frozenset[str]:
        return memo(self.scenario, "control-hexes", None, lambda: _control_hexes(self.scenario))

    @functools.cached_property
    def _control_at(self) -> dict[Hex, str]:
        """:attr:`control_hexes` by hex (only a hex's own number, ``str(hex)``, can match one), so
        that the hexes a unit passes through need not be turned into text. Made once per scenario
        (:func:`~pbem.systems.westwall.memo.memo`), not per board: a replay makes a board or two
        a player-turn and copies them. Read only."""
        return memo(self.scenario, "control-at", None, lambda: _control_at(self.control_hexes))

    def eliminate(self, uid: str) -> None:
        if self._journal is not None:
            self._log_unit(uid)
            self._log_position(uid, None)
        self._remove(uid)
        self.units[uid] = self.units.get(uid, _NEW_UNIT).replace(hex=None, status="eliminated")

    def exit_unit(self, uid: str, edge: str | None, game_turn: int) -> None:
        """Take ``uid`` off the map by an edge [12.0]; it never returns [12.11]."""
        if self._journal is not None:
            self._log_unit(uid)
            self._log_position(uid, None)
        self._remove(uid)
        self.units[uid] = self.units.get(uid, _NEW_UNIT).replace(hex=None, status="exited", exit_edge=edge, exit_turn=game_turn)

    # -- terrain ------------------------------------------------------------------------------
    def demolish(self, a: Hex, b: Hex) -> None:
        """The bridge between ``a`` and ``b`` no longer exists (Arnhem [12.13]): from now on this
        board sees the water in full effect. Recorded in the state by the exclusive rules."""
        self.geo = geometry(self.scenario, self.geo.destroyed | {hexside(a, b)})

    def repair(self, a: Hex, b: Hex) -> None:
        """The demolished bridge between ``a`` and ``b`` is usable again (Arnhem [13.1])."""
        self.geo = geometry(self.scenario, self.geo.destroyed - {hexside(a, b)})

    def on_map(self, h: Hex) -> bool:
        return h in self.geo.hexes

    def terrain(self, h: Hex) -> HexTerrain:
        return self.geo.terrain[h]

    def terrain_kind(self, h: Hex) -> str:
        return self.geo.terrain_kind[h]

    def hexside_features(self, a: Hex, b: Hex) -> frozenset[str]:
        return self.geo.crossing(a, b).features

    def crossing(self, a: Hex, b: Hex) -> Crossing:
        """Combined effect of the hexside between adjacent ``a`` and ``b``."""
        return self.geo.crossing(a, b)

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        """On-map neighbours of ``h``."""
        if h in self.geo.hexes:
            return self.geo.neighbours[h]
        return tuple(x for x in h.neighbours() if x in self.geo.hexes)

    # -- zones of control ---------------------------------------------------------------------
    def zoc_sources(self, h: Hex, side: str) -> list[str]:
        """Enemy units (of ``side``'s opponents) whose zone of control covers ``h`` [6.0, 6.33]."""
        out: list[str] = []
        side_of = self.geo.side_of
        at = self._at
        geo = self.geo
        for n in geo.zoc_from[h] if h in geo.hexes else ():
            for uid in at.get(n, ()):
                if side_of[uid] != side:
                    out.append(uid)
        return sorted(out)

    def enemy_zoc(self, h: Hex, side: str) -> bool:
        """Whether ``h`` is in an enemy zone of control for ``side`` [6.0, 6.11, 6.33]."""
        side_of = self.geo.side_of
        at = self._at
        geo = self.geo
        for n in geo.zoc_from[h] if h in geo.hexes else ():
            occupants = at.get(n)
            if occupants:
                for uid in occupants:
                    if side_of[uid] != side:
                        return True
        return False

    def enemy_at(self, h: Hex, side: str) -> str | None:
        """An enemy unit (of ``side``) in ``h``, if any [5.12]."""
        occupants = self._at.get(h)
        if occupants:
            side_of = self.geo.side_of
            for uid in occupants:
                if side_of[uid] != side:
                    return uid
        return None

    # -- movement costs -----------------------------------------------------------------------
    def route_between(self, a: Hex, b: Hex) -> str | None:
        """``"road"``/``"trail"`` if moving a->b follows that route across a route hexside [5.22,
        5.23] (both hexes then hold the route: route hexsides join consecutive route hexes)."""
        return self.geo.crossing(a, b).route

    def enter_check(self, unit: UnitDef, a: Hex, b: Hex) -> tuple[int | None, RuleViolation | None]:
        """Cost in half Movement Points for ``unit`` to move from ``a`` into adjacent ``b``, or
        ``(None, violation)`` when the move is prohibited. Ignores units and zones of control."""
        # Performance: a legal step met before is looked up (its cost depends on the terrain and on
        # whether the unit is a [5.24] type only); otherwise the common (legal) case reads each
        # table once, and messages are built only for a violation.
        geo = self.geo
        known = geo.step_cost[unit.type in MECH_TYPES]
        cost = known.get((a, b))
        if cost is not None and geo.scenario is self.scenario:
            return cost, None
        if b not in geo.hexes:
            return None, RuleViolation(
                "5.0", f"{unit.id} cannot enter {b}: it is off the map", unit.id, str(b)
            )
        if not a.is_adjacent(b):
            return None, RuleViolation(
                "5.0",
                f"{unit.id} cannot move from {a} to {b}: the hexes are not adjacent",
                unit.id,
                str(b),
            )
        t = geo.terrain[b]
        if t.prohibited:
            kind = geo.terrain_kind[b]
            return None, RuleViolation(
                "5.21", f"{unit.id} cannot enter {b}: {kind} is closed to all units", unit.id, str(b)
            )
        c = geo.crossing(a, b)
        route = c.route
        if route is not None:
            if route == "road":
                cost = self.scenario.terrain_key.road_mp_halves
                if geo.scenario is self.scenario:
                    known[(a, b)] = cost
                return cost, None
            if route == "trail":
                cost = self.scenario.terrain_key.trail_mp_halves
                if geo.scenario is self.scenario:
                    known[(a, b)] = cost
                return cost, None
        if c.prohibited:
            return None, RuleViolation(
                "5.21",
                f"{unit.id} cannot cross the {'/'.join(c.water)} hexside {a}/{b}: closed to all units",
                unit.id,
                str(b),
            )
        if (t.mech_prohibited or c.mech_prohibited) and unit.is_mech:
            if t.mech_prohibited:
                kind = geo.terrain_kind[b]
                return None, RuleViolation(
                    "5.24",
                    f"{unit.id} ({unit.type}) cannot enter {kind} hex {b} except along a road or trail",
                    unit.id,
                    str(b),
                )
            return None, RuleViolation(
                "5.24",
                f"{unit.id} ({unit.type}) cannot cross the {'/'.join(c.water)} hexside {a}/{b} "
                "except along a road or trail",
                unit.id,
                str(b),
            )
        cost = t.mp_halves + c.mp_halves
        if geo.scenario is self.scenario:
            known[(a, b)] = cost
        return cost, None

    def enter_cost(self, unit: UnitDef, a: Hex, b: Hex) -> int | None:
        """Half Movement Points to move ``a`` -> ``b``, ``None`` if prohibited."""
        return self.enter_check(unit, a, b)[0]

    def crossing_prohibited_for(self, unit: UnitDef, a: Hex, b: Hex) -> RuleViolation | None:
        """Why ``unit`` may not pass from ``a`` into ``b`` by terrain alone (also for retreats:
        [7.72], and [5.24] types crossing into closed terrain are eliminated instead), else ``None``."""
        return self.enter_check(unit, a, b)[1]

    # -- entry and exit ---------------------------------------------------------------------
    def off_map_route(self, h: Hex) -> str | None:
        """``"road"`` or ``"trail"`` if one leads off the map from edge hex ``h`` [11.12, 12.0]."""
        kinds = self.scenario.map.off_map_routes.get(h, frozenset())
        if "road" in kinds:
            return "road"
        if "trail" in kinds:
            return "trail"
        return None

    def entry_check(self, unit: UnitDef, h: Hex) -> tuple[int | None, str | None]:
        """Cost for a reinforcement to enter the map at ``h`` [11.11, 11.12] (terrain only), or
        ``None`` and why not (the caller cites the case of the exclusive rules in play:
        :class:`~pbem.systems.westwall.exclusive.Citations`)."""
        if h not in self.geo.hexes:
            return None, "it is off the map"
        t = self.geo.terrain[h]
        kind = self.geo.terrain_kind[h]
        route = self.off_map_route(h)
        if t.prohibited:
            return None, f"{kind} is closed to all units"
        if route == "road":
            return self.scenario.terrain_key.road_mp_halves, None
        if route == "trail":
            return self.scenario.terrain_key.trail_mp_halves, None
        if unit.is_mech and t.mech_prohibited:
            return None, (f"{kind} is closed to {unit.type} (terrain restrictions apply to entry "
                          "hexes [5.24])")
        return t.mp_halves, None

    def exit_check(self, unit: UnitDef, h: Hex) -> tuple[int | None, str | None]:
        """Cost to leave the map from edge hex ``h`` into an imaginary hex like ``h`` [12.0], or
        ``None`` and why not."""
        return self.entry_check(unit, h)

    def edges_of(self, h: Hex) -> list[str]:
        """Map edges ``h`` lies on (compass edges: see :func:`movement.edge_axis`)."""
        from pbem.systems.westwall.movement import edge_distance

        return [e for e in ("west", "east", "north", "south")
                if edge_distance(self.scenario, h, e) == 0]

    # -- output -------------------------------------------------------------------------------
    def to_state(self, base: State, **changes: object) -> State:
        """``base`` with this board's units and control (plus any other field ``changes``)."""
        update: dict[str, object] = {
            "units": _sorted_dict(self.units),
            "control": _sorted_dict(self.control),
        }
        if self.geo.destroyed != destroyed_bridges(base):
            extra = dict(base.exclusive)
            extra["destroyed_bridges"] = sorted(f"{a}/{b}" for a, b in self.geo.destroyed)
            if not self.geo.destroyed:
                del extra["destroyed_bridges"]
            update["exclusive"] = dict(sorted(extra.items()))
        update.update(changes)
        return base.replace(**update)


def _sorted_dict(d: dict[str, _V]) -> dict[str, _V]:
    """A copy of ``d`` in key order (usually it already is: the board only replaces entries)."""
    keys = sorted(d)
    if keys == list(d):
        return dict(d)
    return {k: d[k] for k in keys}


def hexes_of(items: Iterable[str]) -> list[Hex]:
    return [Hex.parse(x) for x in items]


__all__ = [
    "Board",
    "Crossing",
    "Geometry",
    "better_line",
    "default_terrain_key",
    "geometry",
    "hexside",
]
