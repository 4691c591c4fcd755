"""``pbem draft``: build your orders one at a time, with the game checking each, before you sign.

A draft is a text orders file kept per game and side in the player's private local state
(``<pbem home>/games/<GAME_ID>/drafts/<SIDE>.txt``), never in the game directory and never signed
until ``pbem submit GAME_DIR --key KEY`` (with no orders file) signs it. Each command adds one line
of the system's text orders (for WestWall: ``move 1/501 to 1418``...), and then shows the whole
draft as it would be signed: every order in words, what is still left undone, and what the rules
still refuse, with the rule case -- a draft may be incomplete, so problems are shown, not refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pbem.cli._out import echo
from pbem.cli.complete import hexes, unit_ids
from pbem.errors import IllegalOrders, InputError, PbemError

if TYPE_CHECKING:
    from pbem.engine.gamedir import Game


def _context(game_dir: Path, side: str | None) -> tuple[Any, Any, Any, str, Path]:
    from pbem.cli._common import open_with_seeds
    from pbem.engine.play import decision_of

    game, local, seeds = open_with_seeds(game_dir)
    rp = game.replay(seeds, local=local)
    who = str(decision_of(game, rp, side, sorted(seeds)).side)
    return game, local, rp, who, local.dir / "drafts" / f"{who}.txt"


def draft_path(game: Game, local: Any, side: str) -> Path:
    return Path(local.dir) / "drafts" / f"{side}.txt"


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.is_file() else []


def _save(path: Path, lines: list[str]) -> None:
    from pbem.protocol.fsutil import write_replace

    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    write_replace(path, ("".join(line + "\n" for line in lines)).encode("utf-8"))


def _state(game: Game, rp: Any, side: str) -> Any:
    """What ``side``'s orders are written against: the current state, or with hidden information
    the side's own view opened with its key on this machine."""
    from pbem.engine.play import state_for

    return state_for(game, rp, side, None)


def _orders(line: str) -> bool:
    """Whether a draft line holds an order (not blank, not only a comment)."""
    return bool(line.split("#", 1)[0].strip())


def _read(game: Game, rp: Any, side: str, lines: list[str]) -> Any:
    """The draft read and checked as it would be signed (:func:`pbem.engine.play.preview`):
    :class:`IllegalOrders` for what the rules refuse, :class:`InputError` for a draft that cannot
    be read into exact orders (an unknown unit, a move with no legal path)."""
    from pbem.engine.play import preview

    presenter = game.ruleset.presenter()
    skeleton = presenter.text_skeleton(game.scenario, _state(game, rp, side), side)
    document = presenter.read_text_orders(game.scenario, skeleton, side, "\n".join(lines))
    return preview(game, rp, side, document)


def _first_unreadable(game: Game, rp: Any, side: str, lines: list[str]) -> int | None:
    """The number of the first line whose addition makes the draft unreadable (None: none does)."""
    for n in range(1, len(lines) + 1):
        if not _orders(lines[n - 1]):
            continue
        try:
            _read(game, rp, side, lines[:n])
        except IllegalOrders:
            continue
        except PbemError:
            return n
    return None


def _listing(side: str, lines: list[str], mark: int | None = None) -> None:
    echo(f"Draft for {side} ({len(lines)} line{'s' if len(lines) != 1 else ''}):")
    echo("\n".join(f"  {n}. {line}" + ("   <-- this line" if n == mark else "")
                   for n, line in enumerate(lines, 1)) or "  (empty)")


def _show(game: Game, rp: Any, side: str, lines: list[str]) -> None:
    presenter = game.ruleset.presenter()
    try:
        shown = _read(game, rp, side, lines)
        if not any(_orders(line) for line in lines):
            said = "; ".join(presenter.describe_orders(game.scenario, shown.orders)) or "no orders"
            echo(f"the draft holds no order{', only comments' if lines else ''}: 'pbem submit' does not "
                 f"sign it, so that nothing is signed by accident. As it stands it means: {said}. To "
                 "sign that, 'pbem draft pass GAME_DIR'; else add orders with 'pbem draft ...'", err=True)
            _template(game, rp, side)
            return
        echo(shown.text())
        echo("ready: 'pbem submit GAME_DIR --key KEY' signs exactly this", err=True)
    except IllegalOrders as exc:
        _listing(side, lines)
        echo("Still refused by the rules:")
        echo("\n".join(f"  - {v}" for v in exc.violations))
        if not any(_orders(line) for line in lines):
            _template(game, rp, side)
    except PbemError as exc:
        bad = _first_unreadable(game, rp, side, lines)
        _listing(side, lines, bad)
        where = f"line {bad}: " if bad is not None else ""
        echo(f"Cannot be read as orders: {where}{exc}")
        if bad is not None:
            echo(f"'pbem draft drop GAME_DIR {bad}' takes that line out", err=True)


def _template(game: Game, rp: Any, side: str) -> None:
    """What may be ordered now, for a draft with no order in it yet (systems with text orders)."""
    presenter = game.ruleset.presenter()
    from pbem.engine.play import own_state

    # in the words this machine's own secret notes allow (a drop zone held back) [15.39, 27]
    template = presenter.orders_template(game.scenario, own_state(game, _state(game, rp, side), side), side)
    if template:
        echo("What you may order now (one line per 'pbem draft order GAME_DIR LINE'):")
        echo(template.rstrip("\n"))


def _add(game_dir: Path, side: str | None, line: str, verb: str | None = None) -> None:
    """Add one line, read with the lines before it (an action after the draft's 'activate' line
    is read as part of that activation): a draft the game cannot read with it is refused and left
    as it was; what the rules refuse is shown, not refused (a draft may be incomplete)."""
    game, local, rp, who, path = _context(game_dir, side)
    presenter = game.ruleset.presenter()
    line = presenter.draft_line(line.split(" ", 1)[0] if verb is None else verb, line)
    kept = _lines(path)
    lines = [*kept, line]
    try:
        _read(game, rp, who, lines)
    except IllegalOrders:
        pass  # shown below with the rule cases
    except PbemError as exc:
        if _first_unreadable(game, rp, who, kept) is None:  # the new line is the one at fault
            raise InputError(f"not added to the draft ({len(kept)} line"
                             f"{'s' if len(kept) != 1 else ''} kept): {exc}") from None
    _save(path, lines)
    _show(game, rp, who, lines)


SIDE = click.option("--side", default=None, help="The side (default: the one whose decision it is).")
GAME = click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))


@click.group()
def draft() -> None:
    """Build your orders one at a time; the game checks each; nothing is signed until 'pbem submit'."""


@draft.command("move")
@GAME
@click.argument("unit", shell_complete=unit_ids)
@click.argument("hex_", metavar="HEX", shell_complete=hexes)
@click.option("--via", multiple=True, metavar="HEX", help="Hexes on the way (default: the cheapest legal path).")
@SIDE
def move(game_dir: Path, unit: str, hex_: str, via: tuple[str, ...], side: str | None) -> None:
    """Move UNIT to HEX (cheapest legal path, or --via the hexes you give)."""
    path = f" via {' '.join(via)}" if via else ""
    _add(game_dir, side, f"move {unit}{path} to {hex_}")


@draft.command("enter")
@GAME
@click.argument("unit", shell_complete=unit_ids)
@click.argument("hexes", nargs=-1, required=True)
@SIDE
def enter(game_dir: Path, unit: str, hexes: tuple[str, ...], side: str | None) -> None:
    """A reinforcement enters through HEXES (the first is its entry hex) [11.11]."""
    _add(game_dir, side, f"enter {unit} via {' '.join(hexes)}")


@draft.command("exit")
@GAME
@click.argument("unit", shell_complete=unit_ids)
@click.argument("hexes", nargs=-1, required=True)
@SIDE
def exit_(game_dir: Path, unit: str, hexes: tuple[str, ...], side: str | None) -> None:
    """UNIT leaves the map through HEXES (off the last one) [12.0]."""
    _add(game_dir, side, f"exit {unit} via {' '.join(hexes)}")


@draft.command("attack")
@GAME
@click.argument("targets", nargs=-1, required=True)
@click.option("--with", "with_", multiple=True, required=True, metavar="UNIT", help="An attacker (repeat).")
@click.option("--barrage", multiple=True, metavar="UNIT", help="Barraging artillery (repeat) [8.1].")
@click.option("--support", type=int, default=None, help="Ground support points [9.0].")
@click.option("--advance", nargs=2, multiple=True, metavar="UNIT N", help="Advance UNIT up to N hexes [7.9].")
@SIDE
def attack(game_dir: Path, targets: tuple[str, ...], with_: tuple[str, ...], barrage: tuple[str, ...],
           support: int | None, advance: tuple[tuple[str, str], ...], side: str | None) -> None:
    """Attack TARGETS (defending units) with the units given [7.0]."""
    line = f"attack {' '.join(targets)} with {' '.join(with_)}"
    if barrage:
        line += f" barrage {' '.join(barrage)}"
    if support is not None:
        line += f" support {support}"
    for unit, n in advance:
        line += f" advance {unit} {n}"
    _add(game_dir, side, line)


@draft.command("order")
@GAME
@click.argument("text")
@SIDE
def order(game_dir: Path, text: str, side: str | None) -> None:
    """Any order in the game's text form (set-up, standing orders: 'place 20 at 1317',
    'fpf 755 protects 1/501')."""
    _add(game_dir, side, text, verb="order")


@draft.command("show")
@GAME
@SIDE
def show(game_dir: Path, side: str | None) -> None:
    """The draft as it would be signed, what it leaves undone, and what the rules still refuse."""
    game, _local, rp, who, path = _context(game_dir, side)
    _show(game, rp, who, _lines(path))


@draft.command("undo")
@GAME
@SIDE
def undo(game_dir: Path, side: str | None) -> None:
    """Take back the last line of the draft."""
    game, _local, rp, who, path = _context(game_dir, side)
    lines = _lines(path)
    if not lines:
        raise InputError("the draft is empty: nothing to undo")
    echo(f"taken back: {lines[-1]}", err=True)
    _save(path, lines[:-1])
    _show(game, rp, who, lines[:-1])


@draft.command("pass")
@GAME
@SIDE
def pass_(game_dir: Path, side: str | None) -> None:
    """Sign no orders for this decision (the draft becomes the one line 'pass')."""
    game, _local, rp, who, path = _context(game_dir, side)
    kept = [line for line in _lines(path) if _orders(line)]
    if kept:
        raise InputError(f"the draft holds {len(kept)} order{'s' if len(kept) != 1 else ''}: "
                         "'pbem draft clear GAME_DIR' first to sign none")
    _save(path, ["pass"])
    _show(game, rp, who, ["pass"])


@draft.command("drop")
@GAME
@click.argument("number", type=click.IntRange(min=1))
@SIDE
def drop(game_dir: Path, number: int, side: str | None) -> None:
    """Take line NUMBER out of the draft (as 'pbem draft show' numbers them)."""
    game, _local, rp, who, path = _context(game_dir, side)
    lines = _lines(path)
    if number > len(lines):
        raise InputError(f"the draft has {len(lines)} line{'s' if len(lines) != 1 else ''}: no line {number}")
    echo(f"taken out: {lines[number - 1]}", err=True)
    lines = lines[:number - 1] + lines[number:]
    _save(path, lines)
    _show(game, rp, who, lines)


@draft.command("clear")
@GAME
@SIDE
def clear(game_dir: Path, side: str | None) -> None:
    """Start the draft again from nothing."""
    _game, _local, _rp, who, path = _context(game_dir, side)
    if path.is_file():
        path.unlink()
    echo(f"the draft for {who} is empty", err=True)
