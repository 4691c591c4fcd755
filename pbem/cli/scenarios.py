"""``pbem scenarios`` (list the bundled scenarios) and ``pbem scenario check FILE``.

``scenario check`` is for people writing their own scenario: it reports *every* problem it finds,
one per line, each prefixed with where it is (a JSON path such as ``units.3.move`` or
``reinforcements.1.entry.0``), and exits with code 2; a sound file gets one ``ok: ...`` line.
It checks the schema (:class:`pbem.systems.westwall.model.Scenario`) and then what the schema cannot see:
duplicate ids, unit ids unknown to deployments and reinforcements (or listed twice), hexes off the
map, routes whose consecutive hexes do not touch, hexsides that are not hexsides, terrain kinds the
terrain key does not define, entry/deployment areas with no hex in them, and the exclusive-rule
parameters of known games.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pbem.cli._out import echo
from pbem.errors import InputError

if TYPE_CHECKING:
    from pbem.maps.hexmap import Hex

# --------------------------------------------------------------------------------------------------
# pbem scenarios
# --------------------------------------------------------------------------------------------------


def _summary(data: dict[str, Any]) -> dict[str, Any]:
    sides = [s.get("id", "?") for s in data.get("sides", []) if isinstance(s, dict)]
    first, last = data.get("first_turn", 1), data.get("last_turn", "?")
    length = last - first + 1 if isinstance(first, int) and isinstance(last, int) else None
    return {
        "id": data.get("id", "?"),
        "title": data.get("title", ""),
        "system": data.get("system", "?"),
        "rule": data.get("rule", ""),
        "sides": sides,
        "first_turn": first,
        "last_turn": last,
        "length": length,
        "first_player": data.get("first_player", "?"),
    }


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list instead of a table.")
def scenarios(as_json: bool) -> None:
    """List the bundled scenarios: id, title, sides, length and first player."""
    from pbem.engine.scenarios import bundled_ids, load_data

    rows = [_summary(load_data(sid)) for sid in bundled_ids()]
    if as_json:
        echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return
    if not rows:
        echo("no bundled scenarios")
        return
    width = max(len(r["id"]) for r in rows)
    for r in rows:
        turns = f"turns {r['first_turn']}-{r['last_turn']}"
        length = f"{r['length']} game-turns" if r["length"] is not None else "?"
        echo(
            f"{r['id']:<{width}}  {r['title']}  [{'/'.join(r['sides'])}; {length}, {turns}; "
            f"{r['first_player']} first]"
        )


# --------------------------------------------------------------------------------------------------
# pbem scenario check
# --------------------------------------------------------------------------------------------------


@click.group()
def scenario() -> None:
    """Work with scenario files you write yourself."""


def _load_parts(path: Path) -> tuple[dict[str, Any], list[str]]:
    """The scenario with its ``map``/``terrain_key`` files merged in, and problems met on the way.
    A file that cannot be read or parsed at all is an :class:`InputError`."""
    from pbem.engine.scenarios import MAX_SCENARIO_BYTES, bundled_dir
    from pbem.protocol.canonical import loads_strict

    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    data = loads_strict(raw, max_bytes=MAX_SCENARIO_BYTES, what=str(path))
    if not isinstance(data, dict):
        raise InputError(f"{path}: a scenario must be a JSON object")
    problems: list[str] = []
    for key in ("map", "terrain_key"):
        value = data.get(key)
        if not isinstance(value, str):
            continue
        candidates = [path.parent / value, bundled_dir() / value]
        sub = next((c for c in candidates if c.is_file()), None)
        if sub is None:
            problems.append(f"{key}: file {value!r} not found next to the scenario nor bundled")
            data[key] = None
            continue
        try:
            data[key] = loads_strict(sub.read_bytes(), max_bytes=MAX_SCENARIO_BYTES, what=str(sub))
        except InputError as exc:
            problems.append(f"{key}: {exc}")
            data[key] = None
    return data, problems


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
    from pbem.systems.westwall.movement import area_hexes

    out: list[str] = []
    for i, d in enumerate(sc.deployments):
        if not area_hexes(sc, d.area):
            out.append(f"deployments.{i}.area: no hex of the map is in this area")
    for i, r in enumerate(sc.reinforcements):
        if not area_hexes(sc, r.entry):
            out.append(f"reinforcements.{i}.entry: no hex of the map is in this entry area")
        else:
            edges = [h for h in area_hexes(sc, r.entry) if not _on_edge(sc.map, h)]
            if edges:
                out.append(f"reinforcements.{i}.entry: {edges[0]} is not a map edge hex [11.11]")
    if sc.game == "bastogne":
        from pbem.systems.westwall.bastogne import special_problems

        out.extend(special_problems(sc))
    return out


def check_scenario(path: Path) -> tuple[list[str], str]:
    """Every problem of the scenario file at ``path`` (empty when sound) and a one-line summary.

    Raises :class:`InputError` only when the file cannot be read or is not JSON at all."""
    from pbem.systems.westwall.model import Scenario

    data, problems = _load_parts(path)
    if data.get("system", "westwall") != "westwall":
        problems.append(f"system: {data.get('system')!r} scenarios cannot be checked here yet")
        return problems, ""
    problems += _schema_problems(Scenario, data)
    problems += _semantic_problems(data)
    summary = ""
    if not problems:
        sc = Scenario.model_validate(data)
        problems += _model_problems(sc)
        per_side = Counter(u.side for u in sc.units)
        sides = ", ".join(f"{s} {per_side.get(s, 0)}" for s in sc.side_ids())
        summary = (
            f"ok: {sc.id} ({sc.title}): {len(sc.units)} units ({sides}), Game-Turns "
            f"{sc.first_turn}-{sc.last_turn}, {sc.first_player} first, map "
            f"{sc.map.cols[1] - sc.map.cols[0] + 1}x{sc.map.rows[1] - sc.map.rows[0] + 1}"
        )
    return problems, summary


@scenario.command("check")
@click.argument("file")
@click.pass_context
def check(ctx: click.Context, file: str) -> None:
    """Report every problem in the scenario FILE (or a bundled id), one per line; exit 2 if any."""
    from pbem.engine.scenarios import resolve_path

    path = resolve_path(file)
    problems, summary = check_scenario(path)
    if problems:
        for p in problems:
            echo(f"{path.name}: {p}")
        echo(f"{len(problems)} problem(s) in {path}", err=True)
        ctx.exit(2)
    echo(summary)
