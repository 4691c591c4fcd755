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
from typing import TYPE_CHECKING, Any

from pbem.errors import InputError

if TYPE_CHECKING:
    from pbem.maps.hexmap import Hex
    from pbem.systems.westwall.model import Scenario


def scenario_problems(data: Any) -> list[str]:
    """Every problem of merged WestWall scenario data (empty when sound)."""
    from pbem.systems.westwall.model import Scenario

    if not isinstance(data, dict):
        return ["(top level): a scenario must be a JSON object"]
    from pbem.systems.westwall.exclusive import game_problem

    problems = _schema_problems(Scenario, data)
    unknown = game_problem(data.get("game"))
    if unknown is not None:
        problems.append(unknown)
    problems += _semantic_problems(data)
    if not problems:
        problems += _model_problems(Scenario.model_validate(data))
    return problems


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


def _schema_problems(model: Any, data: Any, prefix: str = "") -> list[str]:
    from pydantic import ValidationError

    try:
        model.model_validate(data)
    except ValidationError as exc:
        out = []
        for err in exc.errors():
            where = _loc(tuple(err["loc"]))
            where = f"{prefix}.{where}" if prefix and where != "(top level)" else (prefix or where)
            msg = err["msg"]
            if "duplicate unit id" in msg:
                continue  # reported with every duplicate by _semantic_problems
            out.append(f"{where}: {msg}")
        return out
    return []


def _hex(text: Any) -> Hex | None:
    from pbem.maps.hexmap import Hex

    try:
        return Hex.parse(text)
    except InputError:
        return None


def _semantic_problems(data: dict[str, Any]) -> list[str]:
    """What the schema cannot see, checked on the raw data so that one broken part does not hide
    problems elsewhere."""
    from pbem.maps.hexmap import parse_hexside
    from pbem.systems.westwall.model import MapData, TerrainKey

    out: list[str] = []
    sides_raw = [s.get("id") for s in data.get("sides") or [] if isinstance(s, dict)]
    for sid, n in Counter(sides_raw).items():
        if n > 1:
            out.append(f"sides: duplicate side id {sid!r}")
    if len(set(sides_raw)) != 2:
        out.append(f"sides: WestWall needs exactly two sides (got {sides_raw}) [4.0]")
    sides = set(sides_raw)

    def side_ok(where: str, value: Any) -> None:
        if sides and value not in sides:
            out.append(f"{where}: unknown side {value!r} (sides: {', '.join(sorted(map(str, sides)))})")

    if "first_player" in data:
        side_ok("first_player", data["first_player"])
    first, last = data.get("first_turn", 1), data.get("last_turn")
    if isinstance(first, int) and isinstance(last, int) and last < first:
        out.append(f"last_turn: {last} is before first_turn {first}")

    # -- map and terrain key -------------------------------------------------------------------
    mdata = data.get("map")
    m = None
    if isinstance(mdata, dict):
        try:
            m = MapData.model_validate(mdata)
        except ValueError:
            m = None  # schema problems already reported
    key = None
    if isinstance(data.get("terrain_key"), dict):
        try:
            key = TerrainKey.model_validate(data["terrain_key"])
        except ValueError:
            key = None

    if isinstance(data.get("crt"), dict):
        from pbem.systems.westwall.crt import problems as crt_problems
        from pbem.systems.westwall.model import CrtTable

        try:
            out.extend(crt_problems(CrtTable.model_validate(data["crt"])))
        except ValueError:
            pass  # schema problems already reported

    def on_map(where: str, text: Any) -> None:
        h = _hex(text)
        if h is None:
            out.append(f"{where}: not a hex number: {text!r}")
        elif m is not None and not m.on_map(h):
            out.append(f"{where}: hex {h} is off the map (columns {m.cols[0]:02d}-{m.cols[1]:02d}, "
                       f"rows {m.rows[0]:02d}-{m.rows[1]:02d})")

    def side_str(where: str, text: Any) -> None:
        try:
            a, b = parse_hexside(text)
        except InputError as exc:
            out.append(f"map.{where}: {str(exc)}")
            return
        on_map(f"map.{where}", str(a))
        on_map(f"map.{where}", str(b))

    if m is not None:
        seen_hex: dict[str, str] = {}
        for kind, hexes in m.terrain.items():
            if key is not None and kind not in key.hexes:
                out.append(f"map.terrain.{kind}: unknown terrain kind {kind!r} (terrain key: "
                           f"{', '.join(sorted(key.hexes))})")
            for i, h in enumerate(hexes):
                on_map(f"map.terrain.{kind}.{i}", h)
                if h in seen_hex and seen_hex[h] != kind:
                    out.append(f"map.terrain.{kind}.{i}: hex {h} is also listed as {seen_hex[h]}")
                seen_hex.setdefault(h, kind)
        if key is not None and m.default_terrain not in key.hexes:
            out.append(f"map.default_terrain: unknown terrain kind {m.default_terrain!r}")
        for i, route in enumerate(m.routes):
            for j, h in enumerate(route.hexes):
                on_map(f"map.routes.{i}.hexes.{j}", h)
            for j, (a, b) in enumerate(zip(route.hexes, route.hexes[1:], strict=False)):
                ha, hb = _hex(a), _hex(b)
                if ha is not None and hb is not None and not ha.is_adjacent(hb):
                    out.append(f"map.routes.{i}.hexes.{j + 1}: {a} and {b} are not adjacent "
                               f"({route.kind} {route.name or i})")
            if route.off_map:
                for end in route.off_map:
                    eh = _hex(route.hexes[0 if end == "start" else -1]) if route.hexes else None
                    if eh is not None and m.on_map(eh) and not _on_edge(m, eh):
                        out.append(f"map.routes.{i}.off_map: the {end} hex {eh} is not on a map edge")
        for i, line in enumerate(m.lines):
            if key is not None and line.kind not in key.hexsides:
                out.append(f"map.lines.{i}.kind: unknown hexside kind {line.kind!r} (terrain key: "
                           f"{', '.join(sorted(key.hexsides))})")
            for j, s in enumerate(line.hexsides):
                side_str(f"lines.{i}.hexsides.{j}", s)
        for j, s in enumerate(m.bridges):
            side_str(f"bridges.{j}", s)
        for j, p in enumerate(m.places):
            on_map(f"map.places.{j}.hex", p.hex)

    # -- units -----------------------------------------------------------------------------------
    units_raw = [u for u in data.get("units") or [] if isinstance(u, dict)]
    unit_ids = [u.get("id") for u in units_raw]
    for uid, n in Counter(unit_ids).items():
        if n > 1:
            out.append(f"units: duplicate unit id {uid!r} ({n} units)")
    unit_side = {u.get("id"): u.get("side") for u in units_raw}
    for i, u in enumerate(units_raw):
        side_ok(f"units.{i}.side", u.get("side"))

    # -- deployments and reinforcements ----------------------------------------------------------
    placed: dict[Any, str] = {}
    for group in ("deployments", "reinforcements"):
        for i, entry in enumerate(data.get(group) or []):
            if not isinstance(entry, dict):
                continue
            where = f"{group}.{i}"
            side_ok(f"{where}.side", entry.get("side"))
            for j, uid in enumerate(entry.get("units") or []):
                if uid not in unit_side:
                    out.append(f"{where}.units.{j}: unknown unit id {uid!r}")
                    continue
                if unit_side[uid] != entry.get("side"):
                    out.append(f"{where}.units.{j}: {uid} is a {unit_side[uid]} unit, not "
                               f"{entry.get('side')}")
                if uid in placed:
                    out.append(f"{where}.units.{j}: {uid} is already listed in {placed[uid]}")
                else:
                    placed[uid] = where
            turn = entry.get("turn")
            if (group == "reinforcements" and isinstance(turn, int) and isinstance(first, int)
                    and isinstance(last, int) and not first <= turn <= last):
                out.append(f"{where}.turn: Game-Turn {turn} is outside the game ({first}-{last})")
            areas = entry.get("area" if group == "deployments" else "entry") or []
            for k, a in enumerate(areas):
                if not isinstance(a, dict):
                    continue
                for field in ("from_hex", "to_hex"):
                    if a.get(field) is not None:
                        on_map(f"{where}.{'area' if group == 'deployments' else 'entry'}.{k}.{field}",
                               a[field])
                for field in ("hexes", "of"):
                    for n, h in enumerate(a.get(field) or []):
                        on_map(f"{where}.{'area' if group == 'deployments' else 'entry'}.{k}."
                               f"{field}.{n}", h)
    for uid in unit_ids:
        if uid not in placed and isinstance(uid, str):
            out.append(f"units: {uid} is neither deployed nor scheduled as a reinforcement")
    for group in ("ground_support", "exits"):
        for i, entry in enumerate(data.get(group) or []):
            if isinstance(entry, dict):
                side_ok(f"{group}.{i}.side", entry.get("side"))
    return out


def _on_edge(m: Any, h: Any) -> bool:
    return h.col in m.cols or h.row in m.rows


def _model_problems(sc: Any) -> list[str]:
    """Checks that need the validated scenario: empty areas, exclusive-rule parameters."""
    from pbem.systems.westwall.exclusive import get_exclusive
    from pbem.systems.westwall.movement import area_hexes

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


