"""What a replay is made of: the move files read on demand, a step's record, the summary of a
verification, a refusal naming a file, and the small pure functions the replay and the game share."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.engine.ruleset import Decision, Ruleset
from pbem.errors import InputError
from pbem.plain import Plain
from pbem.protocol import archive, names
from pbem.protocol.archive import Message


class MoveFiles(Mapping[int, Message]):
    """The move files of a game directory by step, each read and parsed only when first asked for
    (a replay from a checkpoint reads the newest few). A malformed file raises :class:`Bad` naming
    it."""

    def __init__(self, paths: Mapping[int, Path]) -> None:
        self._paths = paths
        self._parsed: dict[int, Message] = {}

    def __getitem__(self, step: int) -> Message:
        hit = self._parsed.get(step)
        if hit is not None:
            return hit
        path = self._paths[step]
        from pbem.protocol.canonical import MAX_MOVE_BYTES

        try:
            msg = archive.parse_move(read_file(path, MAX_MOVE_BYTES), path.name)
        except InputError as exc:
            raise Bad(path.name, strip_name(str(exc), path.name)) from None
        self._parsed[step] = msg
        return msg

    def __iter__(self) -> Iterator[int]:
        return iter(sorted(set(self._paths) | set(self._parsed)))

    def __len__(self) -> int:
        return len(set(self._paths) | set(self._parsed))

    def __contains__(self, step: object) -> bool:
        return step in self._paths or step in self._parsed

    def forget(self, steps: Iterable[int]) -> None:
        """Drop the parsed messages of ``steps`` (a flat verify past them); asked again, a file is
        read and parsed again."""
        for step in steps:
            self._parsed.pop(step, None)

    def setdefault(self, step: int, msg: Message) -> Message:
        """Add a message this process just wrote (its file is listed by the next scan)."""
        return self._parsed.setdefault(step, msg)


class Bad(Exception):
    """A problem with one archive file, converted by the caller into the right user error."""

    def __init__(self, path: str, reason: str, *, divergence: bool = False) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
        self.divergence = divergence


if TYPE_CHECKING:
    from pbem.engine.sealed import Round
    from pbem.protocol.canonical import Reencoder


def read_file(path: Path, max_bytes: int) -> bytes:
    """A file of the game directory (:func:`pbem.protocol.archive.read_archived`: no link followed)."""
    return archive.read_archived(path, max_bytes)


def strip_name(text: str, name: str) -> str:
    return text[len(name) + 2 :] if text.startswith(name + ": ") else text


class StepRecord(Plain):
    """One adjudicated step: the move it resolved (None for turn 0) and the turn it produced."""

    step: int
    move: Message | None
    turn_bytes: bytes
    turn_hash: str
    turn: dict[str, Any]
    """The turn file as JSON (its ``state`` is the dumped state)."""
    state: Any
    """The state as the ruleset's own object (parsed once, carried from step to step)."""
    pending: list[Decision]
    written: bool = False
    """True when this run computed a turn file that was not in the archive yet."""
    round: Round | None = None
    """The sealed round this turn is part of (its progress after this turn), if any."""
    full_turn: dict[str, Any] | None = None
    """With hidden information, on a machine that knows the state: the whole turn (state, events,
    rolls, score) that the turn file replaces by a hash."""

    @property
    def name(self) -> str:
        return names.turn_name(self.step)


class VerifySummary(Plain):
    game: str
    scenario: str
    steps: int
    turns_checked: int
    signatures: int
    rolls: int
    outcome: str | None
    unchecked: list[str] = field(default_factory=list)
    waiting: str | None = None
    notes: list[str] = field(default_factory=list)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def decision_json(d: Decision) -> dict[str, Any]:
    return {"side": d.side, "kind": d.kind, "label": d.label}


def outcome_json(outcome: Any) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {
        "winner": outcome.winner,
        "summary": outcome.summary,
        "points": dict(outcome.points),
        "breakdown": list(outcome.breakdown),
    }


def rules_refusal(recorded: str, ruleset: Ruleset[Any, Any, Any], writer: str | None) -> str:
    """One line refusing a game played under rules ``recorded`` that this pbem does not play:
    which pbem plays them (the ruleset's ``earlier`` versions), or that a newer one wrote it [23]."""
    from pbem import __version__
    from pbem.protocol.archive import version_key

    head = (f"this game is adjudicated with {recorded} rules (genesis), which this pbem ({__version__}) "
            f"does not play (it plays {', '.join(ruleset.played_versions())})")
    version = recorded.partition("/")[2]
    if version in ruleset.earlier:
        return f"{head}: they are played by {ruleset.earlier[version]}; verify and finish the game with that pbem"
    by = f" pbem {writer}" if writer else " a pbem"
    if (writer and version_key(writer) > version_key(__version__)) or version_key(version) > version_key(ruleset.version):
        return f"{head}: the game was started by{by} newer than this one; upgrade pbem to play it"
    return f"{head}: the game was started by{by} whose rules this release does not know; use that pbem"


def turn_bytes(turn: dict[str, Any], encode: Reencoder | None = None) -> bytes:
    """A turn file's bytes; ``encode`` (a replay's, one turn after another) reuses the text of
    what did not change since its previous turn -- the same bytes either way."""
    if encode is not None:
        return encode(turn) + b"\n"
    from pbem.protocol.canonical import canonical_bytes

    return canonical_bytes(turn, what="turn") + b"\n"


def round_pending(rnd: Round) -> list[Decision]:
    """The decisions still owed in a sealed round, in slot order."""
    if rnd.phase == "ruling":
        return [Decision(side, "sealed-ruling", f"Rulings for {rnd.labels[0]} and the others "
                         "(umpire, before the reveals)", random=False, sealed=True)
                for side in rnd.owed()]
    if rnd.phase == "report":
        return [Decision(side, "sealed-report", "Resolve the round and report to each side (umpire)",
                         random=False, sealed=True) for side in rnd.owed()]
    what = {"commit": "commit to sealed orders", "ack": "acknowledge the commitments held"}.get(
        rnd.phase, "reveal the sealed orders")
    return [
        Decision(side, f"sealed-{rnd.phase}", f"{rnd.labels[rnd.sides.index(side)]} ({what})",
                 random=False, sealed=True)
        for side in rnd.owed()
    ]


def round_after(step: int, turn_hash: str, pending: list[Decision], sealed: Round | None,
                umpire: str | None = None, report: bool = False, rounds: int | None = None) -> Round | None:
    """The round a turn leaves the game in: the one it records (``sealed``, with the hash of the
    turn the next phase answers filled in), or a new one when its pending decisions are sealed
    (acknowledged when the genesis's ``rounds`` and its sides call for it)."""
    if sealed is not None:
        if sealed.phase in ("ack", "ruling", "reveal") and sealed.commits_turn is None:
            from dataclasses import replace

            return replace(sealed, commits_turn=turn_hash)
        return sealed
    if pending and all(d.sealed for d in pending):
        from pbem.engine.sealed import Round, acknowledged

        return Round(step, turn_hash, tuple(d.side for d in pending), tuple(d.label for d in pending),
                     "commit", 0, None, umpire, report, acknowledged(rounds, umpire, len(pending)))
    return None
