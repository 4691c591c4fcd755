"""Taking other players' files (``pbem ingest``): joins, moves, receipts, reports and the
publication, each checked before it is placed; turn files that travelled with them compared."""

from __future__ import annotations

from dataclasses import field
from pathlib import Path

from pbem.engine.gamedir import Game
from pbem.engine.play.takeback import TakenBack, ingest_consent, ingest_request
from pbem.engine.replay import Replay
from pbem.engine.sealed import (
    MAX_PUBLICATION_BYTES,
    PUBLICATION_TYPE,
    parse_publication_full,
    publication_problem,
)
from pbem.errors import ArchiveError, InputError, PbemError, SignatureError
from pbem.plain import Plain
from pbem.protocol import archive, names
from pbem.protocol.archive import Message
from pbem.protocol.canonical import MAX_MOVE_BYTES, MAX_TURN_BYTES, sha256_hex
from pbem.protocol.dsse import (
    CONSENT_TYPE,
    GENESIS_TYPE,
    JOIN_TYPE,
    MOVE_TYPE,
    RECEIPT_TYPE,
    TAKEBACK_TYPE,
    parse_envelope,
    verify,
)
from pbem.protocol.fsutil import transaction, write_new
from pbem.protocol.localstate import LocalGame, local_seeds, viewer_keys


class Ingested(Plain):
    replay: Replay
    written: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """What was already archived, which attached turns were checked, and so on."""
    game: Game | None = None
    """The game opened again, when a take-back agreed here changed which moves stand."""


def _check_copy(game: Game, archived: Message, msg: Message, name: str) -> None:
    """``msg`` carries the body of ``archived``: a copy of the same message. Its identity is the body
    hash, but a copy whose envelope bytes differ carries other signatures, which must verify as
    ``archived``'s did before it is called the same message [P1]: else an altered or re-signed copy
    would pass as already archived."""
    if msg.raw == archived.raw:  # byte for byte (after what mail in transit changes, _one_final_newline)
        return
    side = msg.body.side
    try:
        if side not in game.body.sides:
            raise SignatureError(f"{side} is not a side of this game")
        verify(msg.envelope, msg.envelope.payloadType,
               {game.body.sides[side].fingerprint: game.public_key(side)}, body=msg.body_bytes)
    except PbemError as exc:
        raise ArchiveError(f"{name}: a copy of {archived.name} with other signature bytes, not signed by "
                           f"{side}'s registered key: {exc} [P1]; refused") from None


def _place_join(game: Game, name: str, raw: bytes, notes: list[str], seeds: dict[str, bytes]) -> Message | None:
    msg = archive.parse_join(raw, name)
    side = msg.body.side
    existing = game.joins.get(side)
    if existing is not None:
        if existing.body_hash == msg.body_hash:
            _check_copy(game, existing, msg, name)
            notes.append(f"already in the archive: {names.join_name(side)}")
            return None
        raise ArchiveError(f"{name}: a different join for {side} is already archived [P7]")
    game.joins[side] = msg
    game.replay(seeds)  # signatures and bindings, in memory (the umpire's seed: its salted hashes)
    return msg


def _place_move(game: Game, rp: Replay, name: str, raw: bytes, notes: list[str]) -> None:
    msg = archive.parse_move(raw, name)
    body = msg.body
    if body.game != game.id:
        raise InputError(f"{name} belongs to game {body.game[:8]}, not this game {game.id[:8]} [P2]")
    if body.step < rp.next_step:
        archived = rp.placed_move(body.step)
        if archived.body_hash == msg.body_hash:
            _check_copy(game, archived, msg, name)
            notes.append(f"already in the archive: {archived.name}")
            return
        if body.side != archived.body.side:
            raise ArchiveError(
                f"{name}: step {body.step} is already archived as {archived.name}; a move by "
                f"{body.side} cannot take its place [P2]"
            )

        entry = game.body.sides[body.side]
        try:
            verify(msg.envelope, MOVE_TYPE, {entry.fingerprint: game.public_key(body.side)})
            signed = f"{body.side} signed two different moves for step {body.step}"
        except PbemError:
            signed = f"and it is not validly signed by {body.side}"
        raise ArchiveError(
            f"{name}: step {body.step} is already archived as {archived.name} with another body "
            f"({signed}); refused [P7]"
        )
    if body.step in rp.held:
        if rp.held[body.step].body_hash == msg.body_hash:
            _check_copy(game, rp.held[body.step], msg, name)
            notes.append(f"already in the archive: {rp.held[body.step].name} (waiting for earlier slots)")
            return
        raise ArchiveError(f"{name}: another move for step {body.step} is already archived [P7]")
    rnd = rp.current.round if rp.records and len(rp.records) == len(rp.placed) + 1 else None
    if body.step > rp.next_step and not (rnd is not None and rp._may_hold(rnd, body, rp.next_step)):
        raise InputError(f"{name} is for step {body.step}, but the game waits for step {rp.next_step}: "
                         "ingest the earlier moves first")
    rp.add_move(msg)


def _check_attached_turn(game: Game, rp: Replay, name: str, raw: bytes) -> str:
    """Compare a turn file that travelled with a move against ours [P6]."""

    step = int(name[5:9])
    ours: bytes | None = None
    rec = rp.record(step)
    if rec is not None:
        ours = rec.turn_bytes
    elif game.path(name).is_file():
        ours = archive.read_archived(game.path(name), MAX_TURN_BYTES)
    if ours is None:
        return f"note: {name} cannot be checked yet (its dice need a later move)"
    if ours != raw:
        raise ArchiveError(
            f"DIVERGENCE: the attached {name} (sha256 {sha256_hex(raw)[:16]}…) differs from the "
            f"one computed here (sha256 {sha256_hex(ours)[:16]}…) [P6]; nothing was archived"
        )
    return f"checked: the attached {name} is byte-identical to ours"


UTF8_BOM = b"\xef\xbb\xbf"


def _one_final_newline(raw: bytes) -> bytes:
    """pbem's files end in exactly one ``\\n``; mail in transit may make it ``\\r\\n`` (or drop or
    double it), and an editor may put a UTF-8 byte-order mark before the first ``{`` [29]. Only
    those are restored: every other byte, and so every signature, is checked as sent."""
    if raw.startswith(UTF8_BOM + b"{"):
        raw = raw[len(UTF8_BOM):]
    body = raw.rstrip(b"\r\n")
    return body + b"\n" if body.startswith(b"{") else raw


def ingest(game: Game, blobs: list[tuple[str, bytes]], seeds: dict[str, bytes]) -> Ingested:
    """Place the joins and moves among ``blobs`` (name, bytes), check the turn files among them
    against ours, and only then write. Anything wrong refuses the whole call; nothing is written
    (a transaction of its own: a take-back's files and removals come back on a later refusal,
    also for a caller that goes on after it, as fetching mail does)."""
    with transaction():
        return _ingest(game, blobs, seeds)


def _take(game: Game, msg: Message) -> TakenBack:
    return ingest_request(game, msg) if msg.envelope.payloadType == TAKEBACK_TYPE else ingest_consent(game, msg)


def _ingest(game: Game, blobs: list[tuple[str, bytes]], seeds: dict[str, bytes]) -> Ingested:
    blobs = [(name, _one_final_newline(raw)) for name, raw in blobs]
    for name, raw in blobs:
        if name in (names.GENESIS, names.SCENARIO):
            mine = game.path(name)
            if not archive.same_bytes(mine, raw):
                raise InputError(f"{name} starts a game: accept an invitation with 'pbem join "
                                 f"GAME_DIR --key YOUR_KEY --invitation FILE'")
    # Turn files travel in emails beside the move that answers them: they are not archive input
    # (every turn is recomputed here) but each must equal ours byte for byte [P6].
    turns = [(n, r) for n, r in blobs if names.is_turn_name(n)]
    inputs = [(n, r) for n, r in blobs
              if n not in (names.GENESIS, names.SCENARIO) and not names.is_turn_name(n)]

    receipts: list[Message] = []
    notes: list[str] = []
    publications: list[bytes] = []
    new_joins: list[Message] = []
    moves: list[tuple[str, bytes]] = []
    takebacks: list[Message] = []
    for name, raw in inputs:
        # a publication may be larger than a move; every other message keeps the move's limit
        env = parse_envelope(raw, max_bytes=MAX_PUBLICATION_BYTES, what=name)
        if env.payloadType != PUBLICATION_TYPE and len(raw) > MAX_MOVE_BYTES:
            raise InputError(f"{name}: file too large ({len(raw)} bytes, limit {MAX_MOVE_BYTES})")
        if env.payloadType == GENESIS_TYPE:
            raise InputError(f"{name} is a genesis: a game directory already has one")
        if env.payloadType == JOIN_TYPE:
            msg = _place_join(game, name, raw, notes, seeds)
            if msg is not None:
                new_joins.append(msg)
        elif env.payloadType == MOVE_TYPE:
            moves.append((name, raw))
        elif env.payloadType == RECEIPT_TYPE:
            receipts.append(archive.parse_receipt(raw, name))
        elif env.payloadType == TAKEBACK_TYPE:
            takebacks.append(archive.parse_takeback(raw, name))
        elif env.payloadType == CONSENT_TYPE:
            takebacks.append(archive.parse_consent(raw, name))
        elif env.payloadType == PUBLICATION_TYPE and game.umpire is not None:
            _, whole, salt = parse_publication_full(raw, game.id, game.public_key(game.umpire),
                                                    game.body.sides[game.umpire].fingerprint)
            problem = publication_problem(game.body, whole, salt)
            if problem is not None:
                raise InputError(f"{name}: {problem}")
            publications.append(raw)
        else:
            raise InputError(f"{name}: not a pbem move or join (payload type {env.payloadType[:60]!r})")
    # take-back by mutual consent: a request is only archived and shown. Requests before consents,
    # step by step; one for a step whose move comes in this same batch waits until it is placed.
    takebacks.sort(key=lambda m: (m.body.step, m.body.number, m.envelope.payloadType != TAKEBACK_TYPE))
    batch_steps = {int(m.group(1)) for m in (names.MOVE_RE.match(n) for n, _ in moves) if m is not None}
    late = [m for m in takebacks if m.body.step in batch_steps and m.body.step not in game.listing.moves]
    taken: list[Path] = []
    for msg in takebacks:
        if any(msg is m for m in late):
            continue
        done = _take(game, msg)
        taken += done.written
        notes += done.notes
        if done.replay is not None:  # agreed: the move taken back no longer stands
            game = Game.open(game.dir, game.hooks)
    local = LocalGame.of(game)
    if new_joins:
        seeds = local_seeds(game, local, derive=True)
    rp = game.replay(seeds, local=local)
    if game.hidden and moves:  # an umpire's report: our own views must open with our keys [29]

        rp.viewer_keys, skipped = viewer_keys(game, local, ask=False)
        notes += [f"the view sealed to {side} is not opened here (its key needs a passphrase: set "
                  "PBEM_PASSPHRASE, or 'pbem verify' checks it)" for side in skipped]
    # files in step order, whatever order they were given in (a mail client's, a shell glob's)
    moves.sort(key=lambda nr: (int(nr[0][5:9]) if nr[0][5:9].isdigit() else 1 << 30, nr[0]))
    for name, raw in moves:
        _place_move(game, rp, name, raw, notes)
    for msg in receipts:  # quick results: a receipt resolves the turn that waits for its reveal
        if msg.name != names.receipt_name(msg.body.step, msg.body.side):
            raise InputError(f"{msg.name}: a receipt's file name is {names.receipt_name(msg.body.step, msg.body.side)}")
        if msg.name in game.listing.other:
            archived = archive.parse_receipt(archive.read_limited(game.path(msg.name), MAX_MOVE_BYTES), msg.name)
            if archived.body_hash != msg.body_hash:
                raise ArchiveError(f"{msg.name}: another receipt is already archived under this name; refused")
            _check_copy(game, archived, msg, msg.name)
            notes.append(f"already in the archive: {msg.name}")
            continue
        rp.add_receipt(msg)
        notes.append(f"{msg.name}: {msg.body.side}'s receipt resolves step {msg.body.step}")
    notes += [_check_attached_turn(game, rp, name, raw) for name, raw in turns]
    # every check passed: now write (joins, then moves, turns and their outputs)
    written: list[Path] = list(taken)
    for msg in new_joins:
        path = game.path(names.join_name(msg.body.side))
        if write_new(path, msg.raw):
            written.append(path)
    written += rp.write()
    for raw in publications[:1]:  # the umpire's publication after the game [P10]
        path = game.path(names.PUBLICATION)
        if archive.same_bytes(path, raw):
            notes.append(f"already here: {names.PUBLICATION}")
        elif write_new(path, raw):
            written.append(path)
            notes.append(f"{names.PUBLICATION}: the umpire's publication; 'pbem verify' now checks every "
                         "sealed order, state and report [P10]")
    for msg in late:  # the move it names is archived now
        game = Game.open(game.dir, game.hooks)
        done = _take(game, msg)
        written += done.written
        notes += done.notes
        if done.replay is not None:
            rp = done.replay
            written = [p for p in written if p.is_file()]
    if late:
        game = Game.open(game.dir, game.hooks)
    return Ingested(rp, written, notes, game)
