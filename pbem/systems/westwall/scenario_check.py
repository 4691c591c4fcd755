"""Every problem of a WestWall scenario, in one place: what ``pbem scenario check`` reports and
what :meth:`pbem.systems.westwall.rules.WestWallRules.load_scenario` refuses (``pbem new``, an
invitation, a game directory) -- one copy of the checks, so the two can never disagree.

:func:`scenario_problems` returns every problem of merged scenario data, one line each, prefixed
with where it is (a JSON path such as ``units.3.move`` or ``reinforcements.1.entry.0``): the schema
(:class:`~pbem.systems.westwall.model.Scenario`), then what the schema cannot see -- duplicate ids,
unit ids unknown to deployments and reinforcements (or listed twice), hexes off the map, routes whose
consecutive hexes do not touch, hexsides that are not hexsides, terrain kinds the terrain key does
not define, entry/deployment areas with no hex in them, and the exclusive-rule parameters of known
games [15.x].
"""

from __future__ import annotations

from collections import Counter
from typing import Any, TypeVar

from pbem.errors import InputError
from pbem.maps.hexmap import Hex, parse_hexside
from pbem.maps.model import MapData
from pbem.protocol.record import Record, RecordError
from pbem.systems.westwall.crt import problems as crt_problems
from pbem.systems.westwall.exclusive import game_problem, get_exclusive
from pbem.systems.westwall.model import CrtTable, Scenario, TerrainKey
from pbem.systems.westwall.movement import area_hexes


def scenario_problems(data: Any) -> list[str]:
    """Every problem of merged WestWall scenario data (empty when sound)."""
    return checked_scenario(data)[0]


def checked_scenario(data: Any) -> tuple[list[str], Scenario | None]:
    """Every problem of merged WestWall scenario data, and the scenario when there are none (read
    once: a game's every command opens its scenario, issue 28)."""
    if not isinstance(data, dict):
        return ["(top level): a scenario must be a JSON object"], None
    scenario: Scenario | None = None
    try:
        scenario = Scenario.parse(data)
        problems = []
    except RecordError as exc:
        problems = _record_problems(exc)
    unknown = game_problem(data.get("game"))
    if unknown is not None:
        problems.append(unknown)
    try:
        problems += _semantic_problems(data)
    except (TypeError, AttributeError, KeyError, ValueError, IndexError):
        if scenario is not None:
            raise
        # values of the wrong kind (a list where an id is due...), already named above: the
        # checks across fields read well-formed data only
    if not problems and scenario is not None:
        problems += _model_problems(scenario)
    return problems, (scenario if not problems else None)


def scenario_summary(sc: Scenario) -> str:
    """One line about a sound scenario (``pbem scenario check``)."""
    per_side = Counter(u.side for u in sc.units)
    sides = ", ".join(f"{s} {per_side.get(s, 0)}" for s in sc.side_ids())
    return (
        f"{sc.id} ({sc.title}): {len(sc.units)} units ({sides}), Game-Turns "
        f"{sc.first_turn}-{sc.last_turn}, {sc.first_player} first, map "
        f"{sc.map.cols[1] - sc.map.cols[0] + 1}x{sc.map.rows[1] - sc.map.rows[0] + 1}"
    )


def _loc(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(x) for x in loc) or "(top level)"


def _record_problems(exc: RecordError, prefix: str = "") -> list[str]:
    out = []
    for loc, msg in exc.problems:
        where = _loc(tuple(loc))
        where = f"{prefix}.{where}" if prefix and where != "(top level)" else (prefix or where)
        if "duplicate unit id" in msg:
            continue  # reported with every duplicate by _semantic_problems
        out.append(f"{where}: {msg}")
    return out


def _hex(text: Any) -> Hex | None:
    try:
        return Hex.parse(text)
    except InputError:
        return None


def _semantic_problems(data: dict[str, Any]) -> list[str]:
    """What the schema cannot see, checked on the raw data so that one broken part does not hide
    problems elsewhere: sides and turns, the CRT, the map against its terrain key, units, where
    they are deployed or come in, and the sides named elsewhere, in that order."""
    check = _Semantic(data)
    check.sides_and_turns()
    check.crt()
    if check.map is not None:
        check.map_terrain(check.map)
        check.map_routes(check.map)
        check.map_hexsides_and_places(check.map)
    check.units()
    check.placements()
    check.side_refs()
    return check.out


class _Semantic:
    """The checks of :func:`_semantic_problems`, one method each, adding to ``out``."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.out: list[str] = []
        self.sides_raw = [s.get("id") for s in data.get("sides") or [] if isinstance(s, dict)]
        self.sides = set(self.sides_raw)
        self.first, self.last = data.get("first_turn", 1), data.get("last_turn")
        self.map = _map_or_none(data.get("map"))  # schema problems already reported
        self.key = _valid_or_none(TerrainKey, data.get("terrain_key"))
        units_raw = [u for u in data.get("units") or [] if isinstance(u, dict)]
        self.units_raw = units_raw
        self.unit_ids = [u.get("id") for u in units_raw]
        self.unit_side = {u.get("id"): u.get("side") for u in units_raw}

    def side_ok(self, where: str, value: Any) -> None:
        if self.sides and value not in self.sides:
            self.out.append(f"{where}: unknown side {value!r} (sides: "
                            f"{', '.join(sorted(map(str, self.sides)))})")

    def on_map(self, where: str, text: Any) -> None:
        h = _hex(text)
        m = self.map
        if h is None:
            self.out.append(f"{where}: not a hex number: {text!r}")
        elif m is not None and not m.on_map(h):
            self.out.append(f"{where}: hex {h} is off the map (columns {m.cols[0]:02d}-"
                            f"{m.cols[1]:02d}, rows {m.rows[0]:02d}-{m.rows[1]:02d})")

    def side_str(self, where: str, text: Any) -> None:
        try:
            a, b = parse_hexside(text)
        except InputError as exc:
            self.out.append(f"map.{where}: {str(exc)}")
            return
        self.on_map(f"map.{where}", str(a))
        self.on_map(f"map.{where}", str(b))

    def sides_and_turns(self) -> None:
        """Two sides, each once [4.0]; the first player one of them; the turns in order."""
        for sid, n in Counter(self.sides_raw).items():
            if n > 1:
                self.out.append(f"sides: duplicate side id {sid!r}")
        if len(self.sides) != 2:
            self.out.append(f"sides: WestWall needs exactly two sides (got {self.sides_raw}) [4.0]")
        if "first_player" in self.data:
            self.side_ok("first_player", self.data["first_player"])
        first, last = self.first, self.last
        if isinstance(first, int) and isinstance(last, int) and last < first:
            self.out.append(f"last_turn: {last} is before first_turn {first}")

    def crt(self) -> None:
        """A replacement Combat Results Table's own problems."""
        table = _valid_or_none(CrtTable, self.data.get("crt"))
        if table is not None:
            self.out.extend(crt_problems(table))

    def map_terrain(self, m: MapData) -> None:
        """Terrain kinds the terrain key defines, hexes on the map and of one kind each."""
        key = self.key
        seen_hex: dict[str, str] = {}
        for kind, hexes in m.terrain.items():
            if key is not None and kind not in key.hexes:
                self.out.append(f"map.terrain.{kind}: unknown terrain kind {kind!r} (terrain key: "
                                f"{', '.join(sorted(key.hexes))})")
            for i, h in enumerate(hexes):
                self.on_map(f"map.terrain.{kind}.{i}", h)
                if h in seen_hex and seen_hex[h] != kind:
                    self.out.append(f"map.terrain.{kind}.{i}: hex {h} is also listed as {seen_hex[h]}")
                seen_hex.setdefault(h, kind)
        if key is not None and m.default_terrain not in key.hexes:
            self.out.append(f"map.default_terrain: unknown terrain kind {m.default_terrain!r}")

    def map_routes(self, m: MapData) -> None:
        """Route hexes on the map, each next to the one before; off-map ends on an edge."""
        for i, route in enumerate(m.routes):
            for j, h in enumerate(route.hexes):
                self.on_map(f"map.routes.{i}.hexes.{j}", h)
            for j, (a, b) in enumerate(zip(route.hexes, route.hexes[1:], strict=False)):
                ha, hb = _hex(a), _hex(b)
                if ha is not None and hb is not None and not ha.is_adjacent(hb):
                    self.out.append(f"map.routes.{i}.hexes.{j + 1}: {a} and {b} are not adjacent "
                                    f"({route.kind} {route.name or i})")
            for end in route.off_map or ():
                eh = _hex(route.hexes[0 if end == "start" else -1]) if route.hexes else None
                if eh is not None and m.on_map(eh) and not _on_edge(m, eh):
                    self.out.append(f"map.routes.{i}.off_map: the {end} hex {eh} is not on a map edge")

    def map_hexsides_and_places(self, m: MapData) -> None:
        """Hexside lines of kinds the terrain key defines, their hexsides and the bridges real
        hexsides on the map; named places on the map."""
        key = self.key
        for i, line in enumerate(m.lines):
            if key is not None and line.kind not in key.hexsides:
                self.out.append(f"map.lines.{i}.kind: unknown hexside kind {line.kind!r} (terrain "
                                f"key: {', '.join(sorted(key.hexsides))})")
            for j, s in enumerate(line.hexsides):
                self.side_str(f"lines.{i}.hexsides.{j}", s)
        for j, s in enumerate(m.bridges):
            self.side_str(f"bridges.{j}", s)
        for j, p in enumerate(m.places):
            self.on_map(f"map.places.{j}.hex", p.hex)

    def units(self) -> None:
        """Unit ids once each, every unit of a known side."""
        for uid, n in Counter(self.unit_ids).items():
            if n > 1:
                self.out.append(f"units: duplicate unit id {uid!r} ({n} units)")
        for i, u in enumerate(self.units_raw):
            self.side_ok(f"units.{i}.side", u.get("side"))

    def placements(self) -> None:
        """Every unit deployed or scheduled exactly once, by its own side, reinforcements within
        the game, areas on the map; then the units listed nowhere."""
        placed: dict[Any, str] = {}
        for group in ("deployments", "reinforcements"):
            for i, entry in enumerate(self.data.get(group) or []):
                if isinstance(entry, dict):
                    self._placement(group, f"{group}.{i}", entry, placed)
        for uid in self.unit_ids:
            if uid not in placed and isinstance(uid, str):
                self.out.append(f"units: {uid} is neither deployed nor scheduled as a reinforcement")

    def _placement(self, group: str, where: str, entry: dict[str, Any], placed: dict[Any, str]) -> None:
        self.side_ok(f"{where}.side", entry.get("side"))
        for j, uid in enumerate(entry.get("units") or []):
            if uid not in self.unit_side:
                self.out.append(f"{where}.units.{j}: unknown unit id {uid!r}")
                continue
            if self.unit_side[uid] != entry.get("side"):
                self.out.append(f"{where}.units.{j}: {uid} is a {self.unit_side[uid]} unit, not "
                                f"{entry.get('side')}")
            if uid in placed:
                self.out.append(f"{where}.units.{j}: {uid} is already listed in {placed[uid]}")
            else:
                placed[uid] = where
        turn, first, last = entry.get("turn"), self.first, self.last
        if (group == "reinforcements" and isinstance(turn, int) and isinstance(first, int)
                and isinstance(last, int) and not first <= turn <= last):
            self.out.append(f"{where}.turn: Game-Turn {turn} is outside the game ({first}-{last})")
        field_name = "area" if group == "deployments" else "entry"
        for k, a in enumerate(entry.get(field_name) or []):
            if not isinstance(a, dict):
                continue
            for field in ("from_hex", "to_hex"):
                if a.get(field) is not None:
                    self.on_map(f"{where}.{field_name}.{k}.{field}", a[field])
            for field in ("hexes", "of"):
                for n, h in enumerate(a.get(field) or []):
                    self.on_map(f"{where}.{field_name}.{k}.{field}.{n}", h)

    def side_refs(self) -> None:
        """The sides ground support and exits are given to."""
        for group in ("ground_support", "exits"):
            for i, entry in enumerate(self.data.get(group) or []):
                if isinstance(entry, dict):
                    self.side_ok(f"{group}.{i}.side", entry.get("side"))


_V = TypeVar("_V", bound=Record)


def _valid_or_none(model: type[_V], data: Any) -> _V | None:
    """``data`` read by ``model`` when it is an object that passes, else ``None`` (its schema
    problems are reported elsewhere)."""
    if not isinstance(data, dict):
        return None
    try:
        return model.parse(data)
    except RecordError:
        return None


def _map_or_none(data: Any) -> MapData | None:
    """``data`` as a map when it is an object that passes, else ``None`` (its problems are
    reported elsewhere)."""
    if not isinstance(data, dict):
        return None
    try:
        return MapData.parse(data)
    except ValueError:
        return None


def _on_edge(m: Any, h: Any) -> bool:
    return h.col in m.cols or h.row in m.rows


def _model_problems(sc: Any) -> list[str]:
    """Checks that need the validated scenario: empty areas, exclusive-rule parameters."""
    out: list[str] = []
    for i, d in enumerate(sc.deployments):
        if not area_hexes(sc, d.area):
            out.append(f"deployments.{i}.area: no hex of the map is in this area")
    for i, r in enumerate(sc.reinforcements):
        entry = area_hexes(sc, r.entry)
        if not entry:
            out.append(f"reinforcements.{i}.entry: no hex of the map is in this entry area")
        elif not r.airborne:  # airborne units land anywhere in their area (Arnhem [15.31])
            edges = [h for h in entry if not _on_edge(sc.map, h)]
            if edges:
                out.append(f"reinforcements.{i}.entry: {edges[0]} is not a map edge hex [11.11]")
    out.extend(get_exclusive(sc.game).special_problems(sc))
    return out


