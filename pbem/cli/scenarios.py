"""``pbem scenarios`` (list the bundled scenarios) and ``pbem scenario check FILE``.

``scenario check`` is for people writing their own scenario: it reports *every* problem its rules
system finds (for WestWall: :mod:`pbem.systems.westwall.scenario_check`, the same checks ``pbem
new`` applies), one per line, each prefixed with where it is (a JSON path such as ``units.3.move``),
and exits with code 2; a sound file gets one ``ok: ...`` line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from pbem.cli._out import echo
from pbem.errors import InputError, error_text

# --------------------------------------------------------------------------------------------------
# pbem scenarios
# --------------------------------------------------------------------------------------------------


def _summary(data: dict[str, Any]) -> dict[str, Any]:
    sides = [s.get("id", "?") for s in data.get("sides", []) if isinstance(s, dict)]
    first, last = data.get("first_turn", 1), data.get("last_turn", "?")
    length = last - first + 1 if isinstance(first, int) and isinstance(last, int) else None
    summary, ruled_sides = _ruleset_summary(data)
    return {
        "id": data.get("id", "?"),
        "title": data.get("title", ""),
        "system": data.get("system", "?"),
        "rule": data.get("rule", ""),
        "sides": sides or ruled_sides,
        "first_turn": first,
        "last_turn": last,
        "length": length,
        "first_player": data.get("first_player", "?"),
        "summary": summary,
    }


def _ruleset_summary(data: dict[str, Any]) -> tuple[str, list[str]]:
    """The scenario's rules system's own one-line summary (the one ``pbem scenario check``
    prints, less the id) and its sides, for scenarios whose files do not spell out turns and
    sides as WestWall's do (the megagame's teams and half-day turns)."""
    from pbem.engine.ruleset import get_ruleset
    from pbem.errors import PbemError

    try:
        ruleset = get_ruleset(str(data.get("system")))
        sc = ruleset.load_scenario(data)
        text = ruleset.scenario_summary(sc)
        sides = list(ruleset.sides(sc))
    except PbemError as exc:
        return f"cannot be read: {exc}", []
    return text.removeprefix(f"{data.get('id', '')}: "), sides


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
        if r["length"] is None or r["first_player"] == "?":  # the system says it in its words
            echo(f"{r['id']:<{width}}  {r['title']}  [{'/'.join(r['sides'])}; {r['summary']}]")
            continue
        turns = f"turns {r['first_turn']}-{r['last_turn']}"
        length = f"{r['length']} game-turns"
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


def check_scenario(path: Path) -> tuple[list[str], str]:
    """Every problem of the scenario file at ``path`` (empty when sound) and a one-line summary,
    as its rules system reports them (:meth:`pbem.engine.ruleset.Ruleset.scenario_problems`).

    Raises :class:`InputError` only when the file cannot be read or is not JSON at all."""
    from pbem.engine.ruleset import get_ruleset
    from pbem.engine.scenarios import load_parts

    data, problems = load_parts(path)
    system = data.get("system")
    if not isinstance(system, str):  # as pbem new refuses it: no system is taken for granted [24]
        from pbem.engine.ruleset import known_systems

        return [*problems, f"system: missing; name the rules system (one of {', '.join(sorted(known_systems()))})"], ""
    try:
        ruleset = get_ruleset(system)
    except InputError as exc:
        return [*problems, f"system: {exc}"], ""
    problems += ruleset.scenario_problems(data)
    summary = ""
    if not problems:
        summary = "ok: " + ruleset.scenario_summary(ruleset.load_scenario(data))
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
        for p in problems:  # each on one line, cut as an error is: a problem may quote the file
            echo(error_text(f"{path.name}: {p}".replace("\n", " ")))
        echo(f"{len(problems)} problem(s) in {path}", err=True)
        ctx.exit(2)
    echo(summary)


@scenario.command("copy")
@click.argument("scenario_id")
@click.argument("dest", type=click.Path(dir_okay=False, path_type=Path))
def copy(scenario_id: str, dest: Path) -> None:
    """Copy the bundled scenario SCENARIO_ID to DEST, a file of your own to edit (other start hexes
    for a secret set-up, another order of battle): the files it names, such as its map, are still
    found among pbem's bundled data. Never overwrites a file."""
    from pbem.engine.scenarios import bundled_dir, resolve_path
    from pbem.protocol.fsutil import read_regular, write_new

    source = resolve_path(scenario_id)
    if source.parent.resolve() != bundled_dir().resolve():
        raise InputError(f"{scenario_id[:80]!r} is not a bundled scenario (see 'pbem scenarios')")
    if dest.exists() or dest.is_symlink():
        raise InputError(f"{dest} exists already; pbem never overwrites it")
    if dest.suffix != ".json":
        raise InputError(f"{dest}: a scenario file's name ends in .json")
    write_new(dest, read_regular(source, 16 << 20, what=source.name))
    echo(str(dest))
    echo(f"edit it, check it with 'pbem scenario check {dest}', and start a game with 'pbem new {dest} ...'",
         err=True)
