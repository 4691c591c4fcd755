"""A player's moves: ``check``, ``submit``, ``reveal``, ``ingest``, ``receipt`` and ``retract``.

Thin click wrappers: the work is the engine's (:mod:`pbem.engine.play`, :mod:`pbem.engine.status`,
:mod:`pbem.engine.history`); bad input is an :class:`InputError` (one line, exit 2, nothing
written)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pbem.cli._common import confirmer, echo_files, next_steps, open_with_seeds, read_input
from pbem.cli._out import echo
from pbem.errors import IllegalOrders, InputError, UnreadableOrders
from pbem.outputs import engine_hooks
from pbem.protocol import archive, names

if TYPE_CHECKING:
    from pbem.engine.gamedir import Game


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--key", "key_name", required=True, help="Your local key.")
@click.option("--yes", is_flag=True, help="Sign without asking (for scripts).")
def reveal(game_dir: Path, key_name: str, yes: bool) -> None:
    """Reveal the sealed orders you committed, once every side has committed.

    In a sealed round (simultaneous orders) 'pbem submit' signs only a commitment (a hash of your
    orders and a secret salt); when the last side's commitment has arrived, this signs a reveal of
    exactly those orders and that salt -- nothing new is decided. Every pbem checks the reveal
    against the commitment [P8]. With hidden information (the megagame) the reveal carries only
    your dice-chain value, which keys the round's dice: your orders stay sealed to the umpire until
    its publication after the game.
    """
    from pbem.engine.gamedir import open_checked
    from pbem.engine.play import reveal as play_reveal

    game = open_checked(game_dir, engine_hooks())
    question = ("Sign the reveal (your dice-chain value; these orders stay sealed to the umpire)?" if game.hidden
                else "Reveal these orders?")
    result = play_reveal(game, key_name, confirm=confirmer(yes, question))
    echo_files(result.written)
    next_steps(game, result.replay, result.written)


def _draft_of(game_dir: Path, key_name: str) -> Path:
    """The draft (``pbem draft``) of the side ``key_name`` plays whose decision is pending."""
    from pbem.engine.play import decision_of
    from pbem.protocol.keys import KeyStore

    game, local, seeds = open_with_seeds(game_dir)
    rp = game.replay(seeds, local=local)
    mine = game.side_of_fingerprint(KeyStore().info(key_name).fingerprint)
    decision = decision_of(game, rp, None, mine, key_name)
    path = local.dir / "drafts" / f"{decision.side}.txt"
    from pbem.engine.presenter import order_lines

    if not path.is_file() or not order_lines(path.read_text(encoding="utf-8")):
        raise InputError(f"no orders file given and the draft for {decision.side} holds no order: write orders "
                         "with 'pbem draft ...' or give an orders file; to sign no orders at all, "
                         f"'pbem draft pass {game_dir}' first [27]")
    return path


class _OrdersReader:
    """``(state, side) -> orders document``: JSON as written, or text orders read against the
    decision they answer (a set-up written as text starts from no placement at all unless
    ``defaults``: units a player did not place are not placed for them silently). ``left``: the
    units the last text orders read left to ``--defaults`` (none given): the refusal names them
    and the flag (:meth:`hint`)."""

    def __init__(self, orders_for: Any) -> None:
        self._orders_for = orders_for
        self.left: list[str] = []

    def __call__(self, state: Any, side: str) -> Any:
        return self._orders_for(self, state, side)

    def hint(self, exc: IllegalOrders) -> IllegalOrders:
        """``exc`` with a note naming the units left out and ``--defaults``, when there are any."""
        if not self.left or exc.note:
            return exc
        n = len(self.left)
        return IllegalOrders(exc.violations, note=(
            f"{n} unit{'s' if n > 1 else ''} of the set-up {'are' if n > 1 else 'is'} not placed: write a line "
            f"for {'each' if n > 1 else 'it'}, or give --defaults and pbem places what is left out, around "
            "yours, as 'pbem orders --text' proposes"))


def _orders_reader(game: Game, orders_file: Path, *, defaults: bool) -> _OrdersReader:
    """The reader of ``orders_file`` (see :class:`_OrdersReader`)."""
    from pbem.protocol.canonical import MAX_MOVE_BYTES, loads_strict

    raw_orders = archive.read_limited(orders_file, MAX_MOVE_BYTES)

    def orders_for(reader: _OrdersReader, state: Any, side: str) -> Any:
        if orders_file.suffix.lower() == ".json" or raw_orders.lstrip()[:1] in (b"{", b"["):
            return loads_strict(raw_orders, max_bytes=MAX_MOVE_BYTES, what=str(orders_file))
        try:
            text = raw_orders.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"{orders_file}: invalid UTF-8 at byte {exc.start}") from None
        presenter = game.ruleset.presenter()
        skeleton = presenter.text_skeleton(game.scenario, state, side)
        try:
            doc = presenter.read_text_orders(game.scenario, skeleton, side, text)
            if defaults:
                return presenter.with_defaults(game.scenario, state, side, doc)
            reader.left = presenter.left_to_defaults(game.scenario, state, side, doc)
            return doc
        except UnreadableOrders as exc:  # every problem at once: the rules' on the lines read too
            broken = list(exc.problems)
            if exc.readable is not None:
                from pbem.engine.play import prepare_orders

                try:
                    prepare_orders(game, state, side, exc.readable)
                except IllegalOrders as illegal:
                    broken += [str(v) for v in illegal.violations]
                except InputError:
                    pass  # what the readable lines make is no sheet yet: the lines' problems say why
            raise UnreadableOrders(broken) from None

    return _OrdersReader(orders_for)


def _preview(game_dir: Path, orders_file: Path, key_name: str | None, side: str | None,
             defaults: bool) -> Any:
    """What would be signed now (nothing is written)."""
    from pbem.engine.play import check_owner, current_decision, owed_by, preview, state_for
    from pbem.protocol.keys import KeyStore

    game, local, seeds = open_with_seeds(game_dir)
    rp = game.replay(seeds, local=local, head=True)  # the newest position only: nothing is signed
    decision = current_decision(rp)
    if rp.current.round is not None:  # a sealed round: every side owes at once
        sides = [side] if side is not None else (
            game.side_of_fingerprint(KeyStore().info(key_name).fingerprint) if key_name is not None
            else list(local.sides()))
        decision = owed_by(game, rp, sides)
    elif key_name is not None:
        check_owner(decision, key_name=key_name, mine=game.side_of_fingerprint(KeyStore().info(key_name).fingerprint))
    check_owner(decision, side=side)
    orders_for = _orders_reader(game, orders_file, defaults=defaults)
    state = state_for(game, rp, decision.side, key_name)
    try:
        return preview(game, rp, decision.side, orders_for(state, decision.side), key_name=key_name)
    except IllegalOrders as exc:
        raise orders_for.hint(exc) from None


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.argument("orders_file", type=click.Path(dir_okay=False, path_type=Path), required=False)
@click.option("--key", "key_name", default=None, help="Your local key (checks that the decision is yours).")
@click.option("--side", default=None, help="The side whose orders these are (default: whoever decides now).")
@click.option("--defaults", is_flag=True, help="Text set-up: place the units you leave out as pbem proposes, around your own.")
def check(game_dir: Path, orders_file: Path | None, key_name: str | None, side: str | None, defaults: bool) -> None:
    """Check ORDERS_FILE (none: your draft, as 'pbem submit' with no file would sign it) and print
    exactly what would be signed; sign and write nothing.
    """
    if orders_file is None:  # the draft, as submit would take it [27]
        if key_name is not None:
            orders_file = _draft_of(game_dir, key_name)
        else:
            from pbem.cli.draft import _context
            from pbem.engine.presenter import order_lines

            *_rest, who, path = _context(game_dir, side)
            if not path.is_file() or not order_lines(path.read_text(encoding="utf-8")):
                raise InputError(f"no orders file given and the draft for {who} holds no order: write orders "
                                 "with 'pbem draft ...' or give an orders file")
            orders_file = path
    echo(_preview(game_dir, orders_file, key_name, side, defaults).text())
    echo("legal: 'pbem submit' with the same file signs exactly this", err=True)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.argument("orders_file", type=click.Path(dir_okay=False, path_type=Path), required=False)
@click.option("--key", "key_name", required=True, help="Your local key.")
@click.option("--yes", is_flag=True, help="Sign without asking (for scripts).")
@click.option("--dry-run", is_flag=True, help="Only show what would be signed (as 'pbem check').")
@click.option("--defaults", is_flag=True, help="Text set-up: place the units you leave out as pbem proposes, around your own.")
def submit(game_dir: Path, orders_file: Path | None, key_name: str, yes: bool, dry_run: bool,
           defaults: bool) -> None:
    """Check, sign and adjudicate your orders; print every file written.

    ORDERS_FILE is JSON (as 'pbem orders' prints it) or text orders where the game has them, such
    as 'move 1/501 to 1418' and 'attack 20 with 1/3 2/3 advance 1/3' in WestWall (see the README).
    Before signing, pbem shows every order in words and what is left undone, and asks (--yes: sign
    without showing or asking, for scripts; --dry-run: show and stop, like 'pbem check').
    """
    from pbem.engine.gamedir import open_checked

    draft: Path | None = None
    if orders_file is None:  # the draft built with 'pbem draft'
        draft = _draft_of(game_dir, key_name)
        orders_file = draft
    if dry_run:
        echo(_preview(game_dir, orders_file, key_name, None, defaults).text())
        echo("dry run: nothing was signed", err=True)
        return
    game = open_checked(game_dir, engine_hooks())
    sign_orders(game, orders_file, key_name, yes=yes, defaults=defaults, draft=draft)


def sign_orders(game: Game, orders_file: Path, key_name: str, *, yes: bool, defaults: bool = False,
                draft: Path | None = None) -> None:
    """What ``pbem submit`` does once the game is open: read, show, check, sign and adjudicate the
    orders in ``orders_file`` (``pbem bot`` hands over the game it opened to choose them)."""
    import sys

    from pbem.engine.play import Preview
    from pbem.engine.play import submit as play_submit

    orders_for = _orders_reader(game, orders_file, defaults=defaults)

    def confirm(shown: Preview) -> bool:
        if yes:  # a script: 'pbem check' shows the same summary
            return True
        echo(shown.text(), err=True)
        if not sys.stdin.isatty():
            raise InputError("not signed: confirm on a terminal, or give --yes to sign without "
                             "asking (--dry-run only shows what would be signed)")
        return click.confirm("Sign these orders?", default=False, err=True)

    try:
        result = play_submit(game, orders_for, key_name, confirm=confirm)
    except IllegalOrders as exc:
        raise orders_for.hint(exc) from None
    if draft is not None and result.move is not None:
        draft.unlink()  # signed: the draft is done
    if result.already:
        echo(f"already in the archive: {result.already}", err=True)
    echo_files(result.written)
    next_steps(game, result.replay, result.written)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--receipt", "receipt_key", default=None, metavar="KEY",
              help="Then sign a receipt with KEY: the reveal that keys the move's dice, so its author "
                   "sees the results at once (no decision in it).")
def ingest(game_dir: Path, files: tuple[Path, ...], receipt_key: str | None) -> None:
    """Take the other players' move (or join) files and adjudicate what they make resolvable.

    Everything is checked before anything is written: a bad file (or an attached turn that differs
    from ours) refuses the whole ingest, and the game directory is left as it was."""
    from pbem.engine.sealed import MAX_PUBLICATION_BYTES

    blobs: list[tuple[str, bytes]] = []
    for path in files:  # moves are held to their own limit when ingested; a publication may be larger
        blobs.extend(read_input(path, MAX_PUBLICATION_BYTES))
    from pbem.engine.play import ingest as play_ingest

    game, local, seeds = open_with_seeds(game_dir)
    result = play_ingest(game, blobs, seeds)
    game = result.game or game
    echo_files(result.written)
    for note in result.notes:
        echo(note, err=True)
    # what the moves just taken in did, step by step, in the game's words
    presenter = game.ruleset.presenter()
    new_turns = {p.name for p in result.written if names.is_turn_name(p.name)}
    for rec in result.replay.records:
        if rec.name not in new_turns or rec.move is None:
            continue
        b = rec.move.body
        echo(f"step {rec.step}: {b.side}'s move", err=True)
        before = result.replay.record(rec.step - 1)  # the state the orders answered: said as previewed [27]
        for line in presenter.describe_move(game.scenario, b.orders, umpire=b.side == game.umpire,
                                            state=before.state if before is not None else None):
            echo(f"  . {line}", err=True)
        for line in presenter.narrate(game.scenario, rec.turn["events"], rec.turn["rolls"],
                                      state=rec.turn["state"] if rec.state is None else rec.state):
            echo(f"  {line}", err=True)
        if game.hidden and isinstance(b.orders, dict) and set(b.orders) == {"report"}:
            _own_views(game, local, result.replay, rec.step)
    if result.replay.records and result.replay.current.pending and not result.replay.tail_open:
        d = result.replay.current.pending[0]
        rnd = result.replay.current.round
        if rnd is not None:
            owed = result.replay.owing()  # not the sides whose message for this phase is in, held
            echo(f"next: sealed {rnd.phase}, owed by {', '.join(owed) or 'nobody else'}", err=True)
        else:
            echo(f"next: {d.side} -- {d.label}", err=True)
    next_steps(game, result.replay, result.written, authored=False)
    if receipt_key is not None:
        write_receipt(game_dir, receipt_key)


def _own_views(game: Game, local: Any, rp: Any, step: int) -> None:
    """What an umpire's report just ingested tells the sides played here, in words (it printed only
    the report's hash, and the player had to run 'pbem status' to read it) [P10, 27]."""
    from pbem.engine.play import my_view

    presenter = game.ruleset.presenter()
    for side, key_name in sorted(local.sides().items()):
        if side not in game.sides or side == game.umpire:
            continue
        lines = presenter.describe_view(game.scenario, my_view(game, rp, side, key_name, step))
        echo(f"  {side} hears: {lines[0] if lines else ''}", err=True)
        for line in lines[1:]:
            echo(f"    {line}", err=True)


def write_receipt(game_dir: Path, key_name: str, *, required: bool = False) -> None:
    from pbem.engine.gamedir import open_checked
    from pbem.engine.play import receipt as play_receipt

    written = play_receipt(open_checked(game_dir, engine_hooks()), key_name, required=required)
    echo_files(written)
    if written:
        echo(f"receipt: send {written[-1].name} so your opponent sees the results now", err=True)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--key", "key_name", required=True, help="Your local key.")
def receipt(game_dir: Path, key_name: str) -> None:
    """Sign a receipt for the move that waits for your reveal: that reveal alone, no decision, so
    its author sees the results at once; your next move must (and will) carry the same value.
    When none is due, says why (exit 2)."""
    write_receipt(game_dir, key_name, required=True)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--yes", is_flag=True, help="Do not ask (for scripts): you confirm it was never sent.")
def retract(game_dir: Path, yes: bool) -> None:
    """Discard the newest move signed on this machine, when it was never sent.

    The move file, the turn files and maps computed from it, its email draft and this machine's
    record of the signature are removed, so that other orders can be signed for that step. Only
    the newest move of the game can be retracted, and only where it was signed.
    """
    import sys

    from pbem.engine.play import retract as retract_move
    from pbem.engine.play import retractable

    game, _local, _seeds = open_with_seeds(game_dir)
    msg = retractable(game)
    step, side = msg.body.step, msg.body.side
    warning = (f"Retract {msg.name} ({side}, step {step})? Only if it was never sent: if your "
               "opponent already has it, signing other orders for this step shows them two signed "
               "moves for one step, which their pbem reports as equivocation [P7].")
    echo(warning, err=True)
    if not yes:
        if not sys.stdin.isatty():
            raise InputError("not retracted: confirm on a terminal, or give --yes")
        if not click.confirm("Retract it?", default=False, err=True):
            raise InputError("not retracted")
    for name in retract_move(game, msg):
        echo(f"removed {name}")
    echo(f"step {step} is open again for {side}: submit your corrected orders", err=True)
