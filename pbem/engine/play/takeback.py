"""Take-back by mutual consent (``pbem takeback request|consent``, and ``pbem ingest`` of either
message): the author of the newest move asks, the opponent agrees after a preview of exactly what
is undone, and both archives go back to the turn before that move. The rule and its reasons are in
:mod:`pbem.engine.takeback` and docs/protocol.md, "Take-back by mutual consent"."""

from __future__ import annotations

import stat
from dataclasses import field
from pathlib import Path
from typing import Any

from pbem.engine.gamedir import Game
from pbem.engine.replay import Replay
from pbem.engine.takeback import consent_problem, opponent, request_problem, withdraw_problem
from pbem.errors import InputError
from pbem.plain import Plain
from pbem.protocol import archive, names
from pbem.protocol.archive import Message
from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.dsse import CONSENT_TYPE, TAKEBACK_TYPE, envelope_bytes, sign
from pbem.protocol.fsutil import on_rollback, write_new, write_replace
from pbem.protocol.keys import KeyStore
from pbem.protocol.localstate import LocalGame, local_seeds, private_key


class TakebackPreview(Plain):
    """Exactly what a consent undoes, in the game's words."""

    request: Message
    move: Message
    lines: list[str] = field(default_factory=list)

    def text(self) -> str:
        return "\n".join(self.lines)


class TakenBack(Plain):
    written: list[Path] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    replay: Replay | None = None
    notes: list[str] = field(default_factory=list)


def _mine(game: Game, key_name: str) -> list[str]:
    info = KeyStore().info(key_name)
    sides = game.side_of_fingerprint(info.fingerprint)
    if not sides:
        raise InputError(f"key {key_name} ({info.fingerprint}) plays no side in this game")
    return sides


def _full_replay(game: Game) -> tuple[LocalGame, dict[str, bytes], Replay]:
    """A replay from the genesis (no checkpoint: the turn before the newest move is needed)."""
    local = LocalGame.of(game)
    seeds = local_seeds(game, local, derive=True)
    return local, seeds, game.replay(seeds)


def _newest(game: Game, rp: Replay, step: int | None) -> Message:
    if not rp.placed_count:
        raise InputError("no move to take back: the game has none yet")
    k = rp.placed_count
    move = rp.placed_move(k)
    if step is not None and step != k:
        raise InputError(f"only the newest move can be taken back: step {step} is not the newest "
                         f"({move.name} is) [take-back]")
    before = rp.record(k - 1)
    assert before is not None
    problem = withdraw_problem(game, before, move)
    if problem is not None:
        raise InputError(f"{move.name} cannot be taken back: {problem}")
    return move


def request(game: Game, key_name: str, step: int | None = None) -> list[Path]:
    """Sign a request to take back the newest move, written by a side ``key_name`` plays; writes
    ``takeback-NNNN-SIDE-R.json`` (the same bytes again if it exists: signatures are
    deterministic)."""
    mine = _mine(game, key_name)
    _, _, rp = _full_replay(game)
    move = _newest(game, rp, step)
    side = move.body.side
    if side not in mine:
        raise InputError(f"{move.name} was written by {side}: only its author may ask to take it back")
    k = move.body.step
    number = game.redo_number(k) + 1
    body = {"ds": archive.TAKEBACK_DS, "game": game.id, "step": k, "side": side, "number": number,
            "move": move.body_hash}
    raw = envelope_bytes(sign(canonical_bytes(body), TAKEBACK_TYPE, [private_key(key_name)]))
    path = game.path(names.takeback_name(k, side, number))
    written = [path] if write_new(path, raw) else []
    Game.open(game.dir, game.hooks).replay(local_seeds(game, LocalGame.of(game)))  # it verifies
    return written


def check_request(game: Game, rp: Replay, req: Message) -> Message:
    """The move ``req`` may take back now (the newest, its author asking, no die of it rolled);
    otherwise :class:`InputError`, one line."""
    body = req.body
    if body.game != game.id:
        raise InputError(f"{req.name} belongs to game {body.game}, not this game {game.id} [P2]")
    if rp.placed_count and body.step < rp.placed_count:
        raise InputError(f"{req.name} asks to take back step {body.step}, but "
                         f"{rp.placed_move(rp.placed_count).name} came after it: only the newest move "
                         "can be taken back [take-back]")
    if body.step > rp.placed_count:
        raise InputError(f"{req.name} asks to take back step {body.step}, which is not in this archive "
                         f"(it holds {rp.placed_count} moves) [P2]")
    move = _newest(game, rp, body.step)
    problem = request_problem(game, req, move, game.redo_number(body.step) + 1)
    if problem is not None:
        raise InputError(f"{req.name} {problem}")
    return move


def preview(game: Game, rp: Replay, req: Message, move: Message) -> TakebackPreview:
    """What agreeing to ``req`` undoes: the move's orders, what they did, and the turn it goes back to."""
    k = move.body.step
    before = rp.record(k - 1)
    after = rp.record(k)
    assert before is not None
    presenter = game.ruleset.presenter()
    lines = [f"{req.body.side} asks to take back {move.name} (step {k}: {before.pending[0].label}); "
             f"agreeing undoes its orders:"]
    lines += [f"  . {line}" for line in presenter.describe_move(game.scenario, move.body.orders, state=before.state)] \
        or ["  . (no orders)"]
    if after is not None and after.turn["events"]:
        lines.append("and what they did:")
        lines += [f"  {line}" for line in presenter.narrate(game.scenario, after.turn["events"], after.turn["rolls"],
                                                              state=after.state)]
    lines.append(f"The game goes back to {before.name}: {move.body.side} decides step {k} again. No die is "
                 f"re-rolled: that step rolls none, and the redo must carry the same chain value.")
    return TakebackPreview(req, move, lines)


def _roll_back(game: Game, k: int, side: str) -> list[str]:
    """Remove what was computed from the move taken back at step ``k``: turn files and maps from
    ``k`` on (recomputable, never signed), the email draft of that move and this machine's
    checkpoint. The signed files all stay."""
    removed: list[str] = []
    targets = [names.turn_name(s) for s in game.listing.turns if s >= k]
    targets += [names.map_name(s) for s in game.listing.turns if s >= k]
    targets += [names.mail_name(k)]
    # the maps an email of step k carried, saved beside the game (framed on a hex), or a side's own:
    # named by pbem; a player's own map-NNNN-notes.svg is not one of them
    targets += sorted(p.name for p in game.dir.glob(names.map_around_name(k, "*")))
    targets += [names.side_map_name(k, viewer) for viewer in game.sides]
    for name in targets:
        target = game.dir / name
        if target.is_file() and not target.is_symlink():
            _remove(target)
            removed.append(name)
    checkpoint = LocalGame.of(game).dir / names.CHECKPOINT
    if checkpoint.is_file() and not checkpoint.is_symlink():
        _remove(checkpoint)
    return removed


def _remove(path: Path) -> None:
    """Unlink ``path``; if the command's transaction fails later (an ingest that refuses a move
    beside the consent), its exact bytes and mode come back: a refusal changes nothing on disk."""
    from pbem.engine.derived import MAX_DERIVED_BYTES
    from pbem.protocol.fsutil import read_regular

    data = read_regular(path, MAX_DERIVED_BYTES, what=path.name, follow_symlinks=False)
    mode = stat.S_IMODE(path.lstat().st_mode)
    path.unlink()
    on_rollback(lambda: write_replace(path, data, mode=mode))


def _after(game: Game, result: TakenBack) -> TakenBack:
    """Open the game again (the move taken back no longer stands) and write what follows from it."""
    again = Game.open(game.dir, game.hooks)
    local = LocalGame.of(again)
    rp = again.replay(local_seeds(again, local), local=local)
    result.written += rp.write()
    result.replay = rp
    return result


def consent(game: Game, req_name: str, req_raw: bytes, key_name: str, *,
            confirm: Any = None) -> TakenBack:
    """Agree to a request (shown first through ``confirm``, which may refuse): sign
    ``consent-NNNN-SIDE-R.json``, archive the request and the consent, and go back to the turn
    before the move taken back."""
    mine = _mine(game, key_name)
    req = _named(archive.parse_takeback(req_raw, req_name))
    local, _, rp = _full_replay(game)
    move = check_request(game, rp, req)
    k, asker = move.body.step, req.body.side
    other = opponent(game, asker)
    assert other is not None  # withdraw_problem: two sides
    if other not in mine:
        raise InputError(f"only {other} can agree to {asker}'s take-back; key {key_name} plays {', '.join(mine)}")
    if local.signed(k + 1, other, game.redo_number(k + 1)) is not None:
        raise InputError(f"you signed a move for step {k + 1} already: if it was never sent, 'pbem retract "
                         "GAME_DIR' discards it; if it was, the take-back is too late")
    shown = preview(game, rp, req, move)
    if confirm is not None and not confirm(shown):
        raise InputError("not agreed: nothing was written")
    body = {"ds": archive.CONSENT_DS, "game": game.id, "step": k, "side": other, "number": req.body.number,
            "request": req.body_hash, "move": move.body_hash}
    raw = envelope_bytes(sign(canonical_bytes(body), CONSENT_TYPE, [private_key(key_name)]))
    con = archive.parse_consent(raw, names.consent_name(k, other, req.body.number))
    return _apply(game, req, con, move)


def _apply(game: Game, req: Message, con: Message, move: Message) -> TakenBack:
    problem = consent_problem(game, con, req, move)
    if problem is not None:
        raise InputError(f"{con.name} {problem}")
    result = TakenBack()
    for msg in (req, con):
        path = game.path(msg.name)
        if write_new(path, msg.raw):
            result.written.append(path)
    result.removed = _roll_back(game, move.body.step, move.body.side)
    result.notes.append(f"{con.body.side} agreed: {move.name} is withdrawn (it stays in the archive) and step "
                        f"{move.body.step} is {move.body.side}'s to make again")
    return _after(game, result)


def _named(msg: Message) -> Message:
    """A request or consent under its own file name (a mail client may have renamed it)."""
    b = msg.body
    make = names.takeback_name if b.ds == archive.TAKEBACK_DS else names.consent_name
    name = make(b.step, b.side, b.number)
    return msg if msg.name == name else Message(name, msg.raw, msg.envelope, msg.body_bytes, msg.body_hash, b)


def ingest_request(game: Game, req: Message) -> TakenBack:
    """Archive a request that arrived (``pbem ingest``), checked; agreeing is never automatic."""
    req = _named(req)
    _, _, rp = _full_replay(game)
    move = check_request(game, rp, req)
    result = TakenBack()
    if write_new(game.path(req.name), req.raw):
        result.written.append(game.path(req.name))
    shown = preview(game, rp, req, move)
    result.notes += shown.lines
    result.notes.append(f"to agree: pbem takeback consent {game.dir} {game.path(req.name)} --key YOUR_KEY "
                        "(nothing is undone until you do)")
    return result


def ingest_consent(game: Game, con: Message) -> TakenBack:
    """Take in the opponent's consent to a request of ours: checked, then both archives agree."""
    con = _named(con)
    body = con.body
    if body.game != game.id:
        raise InputError(f"{con.name} belongs to game {body.game}, not this game {game.id} [P2]")
    if game.path(con.name).is_file() and archive.same_bytes(game.path(con.name), con.raw):
        if body.step in game.moves:  # the redo is made: sent again, it must not look like news
            standing = game.listing.moves[body.step].name
            raise InputError(f"{con.name} was agreed and done already: it withdrew one move of step "
                             f"{body.step}, and {standing} stands now; a consent undoes nothing more")
        return TakenBack(notes=[f"already in the archive: {con.name}"])
    tb = game.takebacks.get(body.step)
    req_name = tb.requests.get(body.number) if tb is not None else None
    if req_name is None:
        raise InputError(f"{con.name} agrees to a take-back of step {body.step} that nobody asked for here "
                         f"(no {names.takeback_name(body.step, '<side>', body.number)}) [take-back]")
    from pbem.engine.steps import Bad
    from pbem.engine.takeback import read_message

    try:
        req = read_message(game, req_name, "takeback")
    except Bad as exc:
        raise InputError(str(exc)) from None
    _, _, rp = _full_replay(game)
    move = check_request(game, rp, req)
    return _apply(game, req, con, move)
