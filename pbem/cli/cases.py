"""``pbem case run FILE...`` and ``pbem case index BOOK_DIR``: the case book (``cases/``, issue 26).

Thin: :mod:`pbem.engine.cases` loads, runs and indexes; this prints. ``run`` exits 0 when every
case agrees (or disagrees as it records), 1 when any does not, 2 for a bad case file (one line)."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli._out import echo


@click.group()
def case() -> None:
    """Run the numbered rules cases of the case book (cases/<book>/), or write a book's index."""


def _files(paths: tuple[Path, ...]) -> list[Path]:
    from pbem.engine.cases import book_files
    from pbem.errors import InputError

    out: list[Path] = []
    for p in paths:
        if not p.is_dir():
            out.append(p)
            continue
        found = book_files(p) or [f for book in sorted(q for q in p.iterdir() if q.is_dir())
                                  for f in book_files(book)]  # the whole book: cases/ runs every one
        if not found:
            raise InputError(f"{p}: no case files in this folder (cases are NNN-name.json)")
        out += found
    return out


@case.command("run")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-q", "--quiet", is_flag=True, help="Only the verdict line of each case (and what disagrees).")
@click.pass_context
def run(ctx: click.Context, files: tuple[Path, ...], quiet: bool) -> None:
    """Run each case FILE (a folder: every case in it) through the rules and print, step by step,
    what the engine did beside what the case expects. Exit 1 if any case disagrees."""
    from pbem.engine.cases import load_case, run_case

    cases = [load_case(p) for p in _files(files)]  # every file is checked before any runs
    failed = 0
    for c in cases:
        result = run_case(c)
        if not quiet:
            echo(f"case {c.id} ({c.path}): [{c.rule}] {c.title}")
            if c.engine_disagrees:
                echo(f"  the case records that the engine disagrees: {c.engine_disagrees}")
        for step in result.steps:
            if not quiet:
                who = ("round " + ", ".join(step.sides)) if c.steps[step.index].round is not None else step.sides[0]
                echo(f"  step {step.index + 1} ({who}):")
                if step.rolls:
                    echo("    dice: " + "; ".join(f"{face} [{label}]" for label, face in step.rolls))
                if step.violations:
                    echo("    refused: " + "; ".join(str(v) for v in step.violations))
                elif step.resolved:
                    echo(f"    resolved: {len(step.events)} event{'s' if len(step.events) != 1 else ''}")
            for point in step.points:
                if not quiet or not point.agrees:
                    mark = "ok  " if point.agrees else "DIFF"
                    echo(f"    {mark} {point.what}: {point.detail}" if not quiet else
                         f"  step {step.index + 1}: {mark} {point.what}: {point.detail}")
        echo(f"case {c.id}: {result.verdict}")
        if not result.as_recorded:
            failed += 1
    if len(cases) > 1:
        echo(f"{len(cases) - failed} of {len(cases)} cases as recorded", err=True)
    if failed:
        ctx.exit(1)


@case.command("index")
@click.argument("book_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the index to this file (docs/cases/<book>.md) instead of printing it.")
def index(book_dir: Path, out: Path | None) -> None:
    """Write the readable index of the book in BOOK_DIR: every case by id, with its rule, title,
    quote, reading and what it expects in words."""
    from pbem.engine.cases import book_index

    text = book_index(book_dir)
    if out is None:
        echo(text, nl=False)
        return
    from pbem.protocol.fsutil import write_replace

    write_replace(out, text.encode("utf-8"), mode=0o644)
    echo(str(out))
