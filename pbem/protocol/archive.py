"""The campaign archive: the files in a game directory, their names and their exact shapes.

A game directory holds plain files a person can read and attach to an email (``docs/protocol.md``):

* ``genesis.json`` -- DSSE envelope (genesis type) over :class:`GenesisBody`;
* ``join-SIDE.json`` -- DSSE envelope (join type) over :class:`JoinBody`, for sides invited by public key;
* ``move-NNNN-SIDE.json`` -- DSSE envelope (move type) over :class:`MoveBody`, one per step;
* ``turn-NNNN.json`` -- canonical JSON of :class:`TurnFile` plus a newline; never signed, always
  recomputable from the signed files above.

Anything else in the directory (maps, email drafts) is *derived*; the engine's checker hooks look at it.

Every body is canonical JSON (RFC 8785): parsing refuses a body whose bytes are not the canonical
form of its own value, so a message has exactly one byte form and its identity -- SHA-256 of the body
bytes -- is well defined. This module only parses and names; it checks no signature and knows no rules.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any

from pbem.errors import InputError
from pbem.plain import Plain
from pbem.protocol.names import GENESIS as GENESIS_NAME
from pbem.protocol.names import JOIN_RE, MOVE_RE, TURN_RE
from pbem.protocol.record import (
    Anything,
    Bool,
    Const,
    Int,
    ListOf,
    MapOf,
    Maybe,
    Nested,
    Record,
    RecordError,
    Str,
    field,
)

GENESIS_DS = "pbem/genesis/v2"
JOIN_DS = "pbem/join/v2"
OLD_DS = {"pbem/genesis/v1": GENESIS_DS, "pbem/join/v1": JOIN_DS}
"""Bodies of pbem 0.1, whose dice chains had no player nonce (P3 chain re-use): refused by name."""
MOVE_DS = "pbem/move/v1"
TURN_DS = "pbem/turn/v1"
RECEIPT_DS = "pbem/receipt/v1"
TAKEBACK_DS = "pbem/takeback/v1"
CONSENT_DS = "pbem/takeback-consent/v1"

SIDE_PATTERN = r"^[A-Za-z0-9_]{1,16}$"
EMAIL_PATTERN = r"^[^@\s<>(),;:\\\"\[\]]{1,64}@[A-Za-z0-9.-]{1,189}\.[A-Za-z]{2,}$"
"""An address pbem may put in a From/To header: one mailbox, no spaces, no header tricks."""
HEX32 = r"^[0-9a-f]{64}$"
VERSION_PATTERN = r"^[0-9]{1,4}(\.[0-9]{1,4}){1,3}([a-z0-9.+-]{0,24})$"
"""A pbem release as a body records it (``pbem.__version__``, e.g. ``0.2.0``)."""
GAME_PATTERN = r"^[0-9a-f]{32}$"
MAX_STEP = 9999

SIDE = Str(SIDE_PATTERN)
HASH = Str(HEX32)
VERSION = Str(VERSION_PATTERN, max_length=40)
GAME_ID = Str(GAME_PATTERN)
STEP = Int(ge=1, le=MAX_STEP)
_WRITER = ("The pbem release that wrote this body (absent before 0.2.0): names the release to verify "
           "with when another computes the turns differently")



class ScenarioRef(Record):
    """The scenario a game is played on, by its content hash."""

    id: str = field(Str())
    sha256: str = field(HASH, description="pbem.engine.scenarios.content_hash of the merged scenario data")
    copies: dict[str, str] | None = field(
        Maybe(MapOf(SIDE, HASH)), default=None,
        description="A secret set-up (hidden information): content_hash of the copy of the "
        "scenario each side holds (Ruleset.scenario_copy); the whole scenario, salted, stays with the "
        "umpire until its publication (publication.json) carries it",
    )
    state: str | None = field(
        Maybe(HASH), default=None,
        description="With copies: SHA-256 of the canonical JSON of the initial state, which "
        "no side can compute from its copy (turn 0 holds it)",
    )

    def check_fields(self) -> None:
        if (self.copies is None) != (self.state is None):
            raise ValueError("a scenario with copies per side commits to the initial state, and only then")


class SideEntry(Record):
    """One side of the game: its player's key and the head of its dice chain."""

    key: str = field(Str(), description="OpenSSH public key line, ssh-ed25519 AAAA...")
    fingerprint: str = field(Str(r"^SHA256:[A-Za-z0-9+/]{43}$"))
    commitment: str | None = field(Maybe(HASH), description="Head of the side's dice hash chain (null: invited)")
    nonce: str | None = field(
        Maybe(HASH),
        description="The side's own fresh chain nonce, published with its commitment (null: invited)"
    )
    email: str | None = field(
        Maybe(Str(EMAIL_PATTERN, max_length=254)), default=None,
        description="The player's email address, for the From/To of the emails pbem drafts (optional)",
    )
    x25519: str | None = field(
        Maybe(HASH), default=None,
        description="The side's X25519 public key for this game (games with an umpire or "
        "hidden information; pbem.protocol.seal); an invited side publishes it in its join",
    )

    def check_fields(self) -> None:
        # An invited side draws its nonce itself, in its join: nobody may choose it for them.
        if (self.nonce is None) != (self.commitment is None):
            raise ValueError("a side has a nonce exactly when it has a commitment (an invited "
                             "side publishes both in its own join)")


class Clock(Record):
    """The agreed time control (:class:`pbem.engine.clock.TimeControl`), exactly as ``pbem new
    --time-control`` can write it: a move needs at least an hour, an extension at least an hour."""

    hours: int = field(Int(ge=1, le=9999), description="Hours a side has for each message it owes")
    extensions: int = field(Int(ge=0, le=99), description="Extensions each side may take in the game")
    extension_hours: int = field(Int(ge=0, le=9999), description="Hours one extension adds")

    def check_fields(self) -> None:
        if self.extensions and not self.extension_hours:
            raise ValueError("time_control: an extension needs more than 0 hours")


class GenesisBody(Record):
    """The signed start of a game: who plays which side with which key and dice commitment."""

    ds: str = field(Const(GENESIS_DS))
    game: str = field(GAME_ID)
    scenario: ScenarioRef = field(Nested(ScenarioRef))
    rules: str = field(
        Str(r"^[a-z0-9-]{1,32}/[A-Za-z0-9.-]{1,32}$"),
        description="Rules system and version the game is adjudicated with, e.g. westwall/2",
    )
    options: dict[str, Any] = field(Anything("object"))
    chain_length: int = field(Int(ge=2, le=100_000))
    sides: dict[str, SideEntry] = field(MapOf(SIDE, Nested(SideEntry), min_length=1))
    salted: bool | None = field(
        Maybe(Bool()), default=None,
        description="Hidden information: the state hashes of the turn files are salted "
        "(pbem/hidden-state/v1, a salt derived from the umpire's chain seed and published after the "
        "game), so that nobody can test guesses of a hidden state against them",
    )
    time_control: Clock | None = field(
        Maybe(Nested(Clock)), default=None,
        description="The agreed clock, {hours, extensions, extension_hours} (pbem.engine.clock): "
        "shown and reminded of, never enforced",
    )
    pbem: str | None = field(Maybe(VERSION), default=None, description=_WRITER)
    rounds: int | None = field(
        Maybe(Const(2)), default=None,
        description="The layout of sealed rounds: 2, acknowledged rounds (pbem.engine.sealed: "
        "every side acknowledges the commitments it holds, and releases the key of its copy for the "
        "umpire, before the ruling and the reveals); absent, the first layout (commit, ruling, reveal)",
    )


class JoinBody(Record):
    """An invited side's acceptance: its dice commitment, bound to one genesis."""

    ds: str = field(Const(JOIN_DS))
    game: str = field(GAME_ID)
    genesis: str = field(HASH)
    side: str = field(SIDE)
    commitment: str = field(HASH)
    nonce: str = field(HASH, description="The side's own fresh chain nonce (drawn by its tool at join)")
    x25519: str | None = field(Maybe(HASH), default=None,
                               description="The side's X25519 public key for this game, if it needs one")
    pbem: str | None = field(Maybe(VERSION), default=None, description=_WRITER)


class MoveBody(Record):
    """One side's orders for one step (P2: game, step, side and the turn they answer)."""

    ds: str = field(Const(MOVE_DS))
    game: str = field(GAME_ID)
    step: int = field(STEP)
    side: str = field(SIDE)
    answers: str = field(HASH, description="sha256 of the turn file (step - 1) the author decided against")
    reveal: str = field(HASH, description="The side's next dice-chain value")
    orders: dict[str, Any] = field(Anything("object"))
    pbem: str | None = field(Maybe(VERSION), default=None, description=_WRITER)


class ReceiptBody(Record):
    """A receipt (issue: quick results): the co-revealer of move ``step`` discloses, at once and
    with no decision, the chain value that keys that move's dice, so the mover can resolve its turn
    without waiting for the co-revealer's next move (which must reveal the same value: a chain has
    one preimage). ``move`` binds it to the one move it answers."""

    ds: str = field(Const(RECEIPT_DS))
    game: str = field(GAME_ID)
    step: int = field(STEP)
    side: str = field(SIDE)
    move: str = field(HASH, description="sha256 of the body of move ``step`` whose dice this reveal keys")
    reveal: str = field(HASH)


class TakebackBody(Record):
    """A request to take back move ``step`` (docs/protocol.md, "Take-back by mutual consent"),
    signed by its author: ``number`` counts the take-backs of that step (1 for the first),
    ``move`` is the hash of the body withdrawn."""

    ds: str = field(Const(TAKEBACK_DS))
    game: str = field(GAME_ID)
    step: int = field(STEP)
    side: str = field(SIDE, description="The author of the move withdrawn, who asks")
    number: int = field(Int(ge=1, le=999))
    move: str = field(HASH, description="sha256 of the body of the move withdrawn")


class ConsentBody(Record):
    """The opponent's consent to one request (its body hash), for that one move."""

    ds: str = field(Const(CONSENT_DS))
    game: str = field(GAME_ID)
    step: int = field(STEP)
    side: str = field(SIDE, description="The side that agrees")
    number: int = field(Int(ge=1, le=999))
    request: str = field(HASH, description="sha256 of the body of the request agreed to")
    move: str = field(HASH, description="sha256 of the body of the move withdrawn")


class PendingEntry(Record):
    """A message the game waits for: whose, of what kind, in words."""

    side: str = field(SIDE)
    kind: str = field(Str())
    label: str = field(Str())


class OutcomeJson(Record):
    """How the game ended: the winner (null: a draw), the score and its sources."""

    winner: str | None = field(Maybe(Str()))
    summary: str = field(Str())
    points: dict[str, int] = field(MapOf(Str(), Int()))
    breakdown: list[str] = field(ListOf(Str()))


class TurnFile(Record):
    """The adjudicated position after a step (unsigned; byte-identical on every machine, P6)."""

    ds: str = field(Const(TURN_DS))
    game: str = field(GAME_ID)
    step: int = field(Int(ge=0, le=MAX_STEP))
    prev: str = field(HASH, description="sha256 of turn (step-1) bytes; turn 0: of the genesis body")
    move: str | None = field(Maybe(HASH), description="sha256 of the move body resolved here (null: turn 0)")
    joins: dict[str, str] | None = field(Maybe(MapOf(SIDE, HASH)), default=None,
                                         description="Turn 0 only: join body hashes")
    reveals: list[str] = field(ListOf(HASH))
    roll_key: str | None = field(Maybe(HASH))
    rolls: list[Any] = field(ListOf(Anything()))
    events: list[Any] = field(ListOf(Anything()))
    state: Any = field(Anything())
    score: dict[str, int] = field(MapOf(Str(), Int()))
    pending: list[PendingEntry] = field(ListOf(Nested(PendingEntry)))
    outcome: OutcomeJson | None = field(Maybe(Nested(OutcomeJson)))
    sealed: dict[str, Any] | None = field(
        Maybe(Anything("object")), default=None,
        description="Inside a sealed round only: its progress (pbem.engine.sealed.Round)"
    )


class Message(Plain, frozen=True):
    """A parsed, not yet verified, signed archive message."""

    name: str
    raw: bytes
    envelope: Any  # pbem.protocol.dsse.Envelope
    body_bytes: bytes
    body_hash: str
    body: Any  # GenesisBody | JoinBody | MoveBody


def version_key(version: str) -> tuple[int, ...]:
    """The numeric release of a version string, for ordering (``0.10.1`` after ``0.9.3``)."""
    m = re.match(r"[0-9]+(\.[0-9]+)*", version)
    return tuple(int(x) for x in m.group(0).split(".")) if m else ()


def newer_writer(value: Any) -> str | None:
    """When a body pbem cannot read names a newer pbem release as its writer: the words to say
    so (upgrade), instead of a validation error that reads like a forgery."""
    from pbem import __version__

    writer = value.get("pbem") if isinstance(value, dict) else None
    if isinstance(writer, str) and re.fullmatch(VERSION_PATTERN, writer) and \
            version_key(writer) > version_key(__version__):
        return f"written by pbem {writer}, newer than this pbem ({__version__}): upgrade pbem to read it"
    return None


def _parse_message(raw: bytes, name: str, payload_type: str, model: type[Record], max_bytes: int) -> Message:
    from pbem.protocol.canonical import canonical_bytes, loads_strict, sha256_hex
    from pbem.protocol.dsse import envelope_bytes, parse_envelope_body

    env, body_bytes = parse_envelope_body(raw, max_bytes=max_bytes, what=name)
    if envelope_bytes(env) != raw:
        raise InputError(f"{name}: the envelope is not in pbem's canonical form (JCS and a newline)")
    if env.payloadType != payload_type:
        problem = f"payload type {env.payloadType!r}, expected {payload_type!r}"
        try:
            newer = newer_writer(loads_strict(body_bytes, max_bytes=max_bytes, what=name))
        except InputError:
            newer = None
        raise InputError(f"{name}: {newer} ({problem})" if newer else f"{name}: {problem}")
    value = loads_strict(body_bytes, max_bytes=max_bytes, what=f"{name} body")
    if canonical_bytes(value) != body_bytes:
        raise InputError(f"{name}: the signed body is not canonical JSON (RFC 8785)")
    old = value.get("ds") if isinstance(value, dict) else None
    if isinstance(old, str) and old in OLD_DS:
        raise InputError(
            f"{name}: written by pbem 0.1 ({old}), whose dice chains carried no player nonce and "
            f"could be made to repeat across games [P3]; this pbem reads {OLD_DS[old]} only: "
            "start a new game"
        )
    try:
        body = model.parse(value)
    except RecordError as exc:
        newer, problem = newer_writer(value), exc.line()
        raise InputError(f"{name}: {newer} ({problem})" if newer else f"{name}: {problem}") from None
    return Message(name, raw, env, body_bytes, sha256_hex(body_bytes), body)


def parse_genesis(raw: bytes, name: str = GENESIS_NAME) -> Message:
    from pbem.protocol.canonical import MAX_GENESIS_BYTES
    from pbem.protocol.dsse import GENESIS_TYPE

    return _parse_message(raw, name, GENESIS_TYPE, GenesisBody, MAX_GENESIS_BYTES)


def parse_join(raw: bytes, name: str) -> Message:
    from pbem.protocol.canonical import MAX_GENESIS_BYTES
    from pbem.protocol.dsse import JOIN_TYPE

    return _parse_message(raw, name, JOIN_TYPE, JoinBody, MAX_GENESIS_BYTES)


def parse_move(raw: bytes, name: str) -> Message:
    from pbem.protocol.canonical import MAX_MOVE_BYTES
    from pbem.protocol.dsse import MOVE_TYPE

    return _parse_message(raw, name, MOVE_TYPE, MoveBody, MAX_MOVE_BYTES)


def parse_receipt(raw: bytes, name: str) -> Message:
    from pbem.protocol.canonical import MAX_MOVE_BYTES
    from pbem.protocol.dsse import RECEIPT_TYPE

    return _parse_message(raw, name, RECEIPT_TYPE, ReceiptBody, MAX_MOVE_BYTES)


def parse_takeback(raw: bytes, name: str) -> Message:
    from pbem.protocol.canonical import MAX_MOVE_BYTES
    from pbem.protocol.dsse import TAKEBACK_TYPE

    return _parse_message(raw, name, TAKEBACK_TYPE, TakebackBody, MAX_MOVE_BYTES)


def parse_consent(raw: bytes, name: str) -> Message:
    from pbem.protocol.canonical import MAX_MOVE_BYTES
    from pbem.protocol.dsse import CONSENT_TYPE

    return _parse_message(raw, name, CONSENT_TYPE, ConsentBody, MAX_MOVE_BYTES)


def read_limited(path: Path, max_bytes: int) -> bytes:
    """Read a regular file the user named, refusing it before reading when it is larger than
    ``max_bytes`` (and refusing FIFOs, devices and directories without blocking:
    :func:`pbem.protocol.fsutil.read_regular`). A file of a game directory is read with
    :func:`read_archived`, which follows no link."""
    from pbem.protocol.fsutil import read_regular

    return read_regular(path, max_bytes, what=path.name)


def read_archived(path: Path, max_bytes: int) -> bytes:
    """Read a file of a game directory: a plain file of the directory itself, its size checked
    before a byte is read; a symbolic link standing at its name is refused, never followed (one
    line naming the file), wherever it points -- nothing from outside the directory is believed."""
    from pbem.protocol.fsutil import read_regular

    return read_regular(path, max_bytes, what=path.name, follow_symlinks=False)


def same_bytes(path: Path, data: bytes) -> bool:
    """Whether the plain file ``path`` (not a link) holds exactly ``data`` (a larger file is not read)."""
    import os
    import stat

    try:
        info = os.lstat(path)
    except OSError:
        return False
    if not stat.S_ISREG(info.st_mode) or info.st_size != len(data):
        return False
    return read_archived(path, len(data)) == data


class PathMap(MutableMapping[int, Path]):
    """Step -> path of the files of one kind in a directory; each :class:`Path` is made only when
    asked for (a campaign lists thousands of files, a command needs a few)."""

    def __init__(self, directory: Path) -> None:
        self._dir = directory
        self._names: dict[int, str] = {}

    def add(self, step: int, name: str) -> None:
        self._names[step] = name

    def name(self, step: int) -> str:
        """The file name of ``step`` (no :class:`Path` made)."""
        return self._names[step]

    def __getitem__(self, step: int) -> Path:
        return self._dir / self._names[step]

    def __setitem__(self, step: int, path: Path) -> None:
        self._names[step] = path.name

    def __delitem__(self, step: int) -> None:
        del self._names[step]

    def __iter__(self) -> Iterator[int]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, step: object) -> bool:
        return step in self._names


class Listing(Plain):
    """The archive files present in a game directory, by kind (nothing parsed yet)."""

    genesis: Path | None
    joins: dict[str, Path]
    moves: PathMap
    turns: PathMap
    other: list[str]
    """Names of the other (derived) files."""
    links: list[str] = dataclasses.field(default_factory=list)
    """Names pbem reads or writes (:func:`pbem.protocol.names.is_game_file`) at which a symbolic
    link stands: never followed, and refused when the game is opened."""


def scan(game_dir: Path) -> Listing:
    """Classify the files of ``game_dir``. Two move files for one step are refused (P7).

    Names are classified first and sorted as strings; the type of an entry comes from the directory
    listing itself where the system gives it (no ``stat`` per file), so listing a campaign of
    thousands of files stays cheap. Only plain files are classified: a symbolic link is never
    followed, and one at a name pbem reads or writes is listed in ``links``."""
    import os

    from pbem.protocol.names import is_game_file

    if not game_dir.is_dir():
        raise InputError(f"{game_dir} is not a game directory")
    genesis: Path | None = None
    joins: dict[str, Path] = {}
    moves = PathMap(game_dir)
    turns = PathMap(game_dir)
    other: list[str] = []
    links: list[str] = []
    try:
        with os.scandir(game_dir) as it:
            entries = sorted((e for e in it if not e.name.startswith(".")), key=lambda e: e.name)
    except OSError as exc:
        raise InputError(f"cannot read {game_dir}: {exc.strerror}") from None
    for entry in entries:
        name = entry.name
        try:
            if entry.is_symlink():
                if is_game_file(name):
                    links.append(name)
                continue
            if not entry.is_file(follow_symlinks=False):
                continue
        except OSError:
            continue
        if name == GENESIS_NAME:
            genesis = game_dir / name
        elif m := JOIN_RE.match(name):
            joins[m.group(1)] = game_dir / name
        elif m := MOVE_RE.match(name):
            step = int(m.group(1))
            if step in moves:
                raise InputError(
                    f"two move files for step {step}: {moves[step].name} and {name} [P7]"
                )
            moves.add(step, name)
        elif m := TURN_RE.match(name):
            turns.add(int(m.group(1)), name)
        else:
            other.append(name)
    return Listing(genesis, joins, moves, turns, other, links)
