"""Take-back by mutual consent (docs/protocol.md, "Take-back by mutual consent"): which files of a
game directory ask for, agree to and replace a withdrawn move, and the checks every pbem makes of
them -- the same for ``pbem takeback``, ``pbem ingest`` and ``pbem verify``.

The rule (refused after a roll): a move may be taken back only while it is the newest move, the
decision it answered rolls no dice (so no die keyed by it exists, known to anybody), it was made in
turn (not in a sealed round), and the game has two sides (the opponent's consent is everybody's).
The redo answers the same turn and carries the same chain value (the chain has one preimage at each
link), so any die that value keyed -- the opponent's previous dice -- stays exactly as it was."""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING

from pbem.errors import PbemError
from pbem.plain import Plain
from pbem.protocol import archive, names
from pbem.protocol.archive import Message

if TYPE_CHECKING:
    from pbem.engine.gamedir import Game
    from pbem.engine.steps import StepRecord


class StepTakebacks(Plain):
    """The take-back files of one step, by name only (nothing parsed)."""

    versions: dict[int, str] = field(default_factory=dict)
    """Version -> move file (0: ``move-NNNN-S.json``; R: the redo after take-back R)."""
    requests: dict[int, str] = field(default_factory=dict)
    consents: dict[int, str] = field(default_factory=dict)
    twins: list[tuple[str, str]] = field(default_factory=list)
    """Pairs of files for one version, request or consent (the name kept, the other): the side in
    a file name is not part of its place, so two of them are refused by every check, both named."""

    @property
    def agreed(self) -> int:
        """How many take-backs of this step were agreed (the version of its standing move)."""
        return max(self.consents, default=0)


def scan_takebacks(game: Game) -> dict[int, StepTakebacks]:
    """The take-back files among the directory's other files; each step's standing move (the
    version after its agreed take-backs) becomes its entry in ``game.listing.moves`` (none when
    the redo is not made yet)."""
    found: dict[int, StepTakebacks] = {}
    for name in game.listing.other:
        for regex, kind in ((names.REDO_RE, "versions"), (names.TAKEBACK_RE, "requests"),
                            (names.CONSENT_RE, "consents")):
            m = regex.match(name)
            if m is not None:
                tb = found.setdefault(int(m.group(1)), StepTakebacks())
                place: dict[int, str] = getattr(tb, kind)
                number = int(m.group(3))
                if number in place:
                    tb.twins.append((place[number], name))
                else:
                    place[number] = name
    for step, tb in found.items():
        if step in game.listing.moves:
            tb.versions[0] = game.listing.moves[step].name
        n = tb.agreed
        if n:
            if n in tb.versions:
                game.listing.moves[step] = game.dir / tb.versions[n]
            elif step in game.listing.moves:
                del game.listing.moves[step]
    return found


def read_message(game: Game, name: str, kind: str) -> Message:
    """Parse an archived take-back file (``kind``: move, takeback, consent)."""
    from pbem.engine.steps import Bad, read_file, strip_name
    from pbem.errors import InputError
    from pbem.protocol.canonical import MAX_MOVE_BYTES

    parse = {"move": archive.parse_move, "takeback": archive.parse_takeback,
             "consent": archive.parse_consent}[kind]
    try:
        return parse(read_file(game.path(name), MAX_MOVE_BYTES), name)
    except InputError as exc:
        raise Bad(name, strip_name(str(exc), name)) from None


def _signed_by(game: Game, msg: Message, side: str) -> bool:
    from pbem.protocol.dsse import verify

    entry = game.body.sides.get(side)
    if entry is None:
        return False
    try:
        verify(msg.envelope, msg.envelope.payloadType, {entry.fingerprint: game.public_key(side)})
    except PbemError:
        return False
    return True


def opponent(game: Game, side: str) -> str | None:
    """The one other side of a two-sided game without an umpire (None otherwise)."""
    others = [s for s in game.sides if s != side]
    return others[0] if len(others) == 1 and game.umpire is None else None


def withdraw_problem(game: Game, before: StepRecord, move: Message) -> str | None:
    """Why ``move`` (answering turn ``before``) may not be taken back, or None. Its signature,
    game, step and chain value are checked by the caller (the replay's own checks)."""
    body = move.body
    if game.umpire is not None or game.hidden or len(game.sides) != 2:
        return "take-back needs the one opponent's consent: it is for two-sided games without an umpire"
    if before.round is not None or before.state is None:
        return ("it was made in a sealed round, whose orders are fixed by their commitments [P8]: "
                "no take-back")
    if not before.pending:
        return "it answers a turn that closed the game"
    decision = before.pending[0]
    if decision.side != body.side:
        return f"step {body.step} was {decision.side}'s decision, not {body.side}'s [P2]"
    if decision.random:
        return (f"its dice ({decision.label}) are known to {decision.revealer} as soon as it reads the "
                "move, so a take-back agreed after that would let it choose whether they stand [P3]: "
                "refused after a roll")
    if body.answers != before.turn_hash:
        return f"it answers another turn than {before.name} [P2]"
    return None


def request_problem(game: Game, req: Message, move: Message, number: int) -> str | None:
    """Why ``req`` is not a valid request ``number`` to take back ``move``, or None."""
    body = req.body
    mb = move.body
    if body.game != game.id:
        return f"belongs to game {body.game}, not {game.id} [P2]"
    if body.step != mb.step or body.number != number or \
            req.name != names.takeback_name(body.step, body.side, body.number):
        return (f"is take-back {body.number} of step {body.step} by {body.side}; the file name or the move "
                f"it sits beside disagrees [P2]")
    if body.side != mb.side:
        return f"asks to take back {move.name}, written by {mb.side}: only its author may ask"
    if body.move != move.body_hash:
        return f"names another move than {move.name} [P2]"
    if not _signed_by(game, req, body.side):
        return f"not signed by {body.side}'s registered key [P1]"
    return None


def consent_problem(game: Game, con: Message, req: Message, move: Message) -> str | None:
    """Why ``con`` is not the opponent's consent to ``req`` (to take back ``move``), or None."""
    body = con.body
    rb = req.body
    if body.game != game.id:
        return f"belongs to game {body.game}, not {game.id} [P2]"
    if body.step != rb.step or body.number != rb.number or \
            con.name != names.consent_name(body.step, body.side, body.number):
        return (f"agrees to take-back {body.number} of step {body.step}; the file name or the request "
                f"beside it ({req.name}) disagrees [P2]")
    other = opponent(game, rb.side)
    if body.side != other:
        return f"is signed for {body.side}: only {other}, {rb.side}'s opponent, can agree"
    if body.request != req.body_hash or body.move != move.body_hash:
        return f"agrees to another request or move than {req.name} and {move.name} [P2]"
    if not _signed_by(game, con, body.side):
        return f"not signed by {body.side}'s registered key [P1]"
    return None
