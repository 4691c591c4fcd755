"""The state of one replay of an archive: its records, placed moves, dice chains and counters, and
the questions every part of the replay asks of them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pbem.engine.gamedir import Game
from pbem.engine.ruleset import JSON, Decision
from pbem.engine.steps import (
    Bad,
    StepRecord,
    read_file,
)
from pbem.errors import ArchiveError, InputError, VerificationError
from pbem.protocol import archive, names
from pbem.protocol.archive import Message
from pbem.protocol.canonical import Reencoder

if TYPE_CHECKING:
    from pbem.engine.checkpoint import Checkpoints
    from pbem.engine.sealed import Round


class ReplayState:
    """What a replay holds as it walks the archive, and the questions every part of it asks (the
    walk itself: :class:`pbem.engine.replay.Replay`; its sealed rounds and its receipts:
    :mod:`pbem.engine.replay_sealed`, :mod:`pbem.engine.replay_receipts`)."""

    if TYPE_CHECKING:  # steps of the walk the sealed rounds and the receipts call back into
        def _record(self, step: int, move: Message | None, prev: str, state: JSON,
                    reveals: list[bytes], key: bytes | None, rolls: list[Any], events: list[Any], *,
                    joins: dict[str, str] | None = None, sealed: Round | None = None,
                    told: tuple[str, list[Decision], Any] | None = None) -> None: ...
        def _check_orders(self, name: str, state: Any, side: str, orders: JSON) -> tuple[Any, Any]: ...
        def _advance_chain(self, msg: Message, revealed: bytes, *, archived: bool) -> None: ...
        def _resolve_tail(self) -> None: ...

    def __init__(self, game: Game, local_seeds: dict[str, bytes], *, strict: bool,
                 checkpoint: Checkpoints | None = None, umpire_key: Any = None,
                 publication: dict[int, Any] | None = None, flat: bool = False) -> None:
        self.game = game
        self.flat = flat
        """Keep only what later steps look back to (``verify``, which reads no old record afterwards):
        each step's record, placed move and parsed move file are dropped once the walk is past them
        (:meth:`forget_checked`), so the replay's memory does not grow with the game."""
        self.forgotten = 0
        """Records dropped by :meth:`forget_checked` (they were checked and counted)."""
        self._receipt_links: dict[int, tuple[str | None, list[str]]] = {}
        """Step -> (hash of its move, reveals of its turn) of the dropped records whose step has an
        archived receipt: what :meth:`ReceiptSteps._check_receipts` compares the receipt with."""
        self.umpire_key = umpire_key
        """The umpire's X25519 key (its own machine): the sealed orders can be read."""
        self.publication = publication
        """Every sealed order, published by the umpire after the game (verify)."""
        self.full = not game.hidden or umpire_key is not None or publication is not None
        self.state_salt: bytes | None = None
        """The salt of the state hashes (a salted game), where this machine knows it: the umpire's
        (derived from its chain seed) or the publication's."""
        if game.salted:
            from pbem.engine.sealed import state_salt

            seed = local_seeds.get(game.umpire) if game.umpire is not None else None
            self.state_salt = state_salt(seed, game.id) if seed is not None else game.published_salt
        self.viewer_keys: dict[str, Any] = {}
        """Sides played here -> their X25519 keys: a full replay checks the views sealed to them."""
        """Whether this replay knows every state (always, unless information is hidden and this is
        a player's machine before the publication)."""
        self.local_seeds = dict(local_seeds)
        self.strict = strict
        self.checkpoints = checkpoint
        """Where this replay may start from and leave a checkpoint (never for ``verify``)."""
        self.base = 0
        """Step of the first record held: 0 for a replay from the genesis, else the checkpoint's."""
        self.local: Any = None
        """This machine's private state of the game (:class:`pbem.protocol.localstate.LocalGame`),
        when the replay may use it: :meth:`write` then also finishes the derived files of moves
        signed here that a killed process left undone."""
        self.turn_encoder = Reencoder(what="turn")
        """Encodes the turn files the replay recomputes, one after another (:func:`turn_bytes`)."""
        self.records: list[StepRecord] = []
        """Turns from :attr:`base` on (``records[i]`` is turn ``base + i``)."""
        self.placed: list[Message] = []
        """Moves placed from step ``base + 1`` on (``placed[i]`` is move ``base + 1 + i``)."""
        self.chain_last: dict[str, bytes] = {}
        self.chain_count: dict[str, int] = {}
        self.chain_at: dict[str, int] = {}
        """Side -> step of the move that revealed its :attr:`chain_last` (0: the commitment)."""
        self._hidden_resolved: dict[tuple[int, str, tuple[str, ...]], tuple[Any, bytes, list[bytes], list[Any]]] = {}
        """The latest hidden round's resolution by (step, turn hash before it, hashes of the ruling
        and reveals): worked out once when the umpire writes its report and reused when the report is
        placed (:meth:`SealedRounds.hidden_resolution`)."""
        self._sheets: dict[str, tuple[tuple[str, ...], Any, tuple[Any, Any]]] = {}
        """Side -> (hashes of the messages that carry its orders, the state, what checking them
        gave) for the latest sealed orders checked: a reveal's orders are checked when it arrives
        and again when the round resolves (:meth:`SealedRounds._check_sheet`)."""
        self._chains: dict[int, dict[str, tuple[int, str, int]]] = {}
        """Step -> each side's (count, last value, step) once the move of that step was placed."""
        self.new_moves: list[Message] = []
        self.authored: list[Message] = []
        """New moves signed on this machine: the move output hooks run for them after writing."""
        self.signatures = 0
        self.rolls = 0
        self.unchecked: list[str] = []
        self.notes: list[str] = []
        self.waiting: str | None = None
        self.tail_open = False
        """True when the last move waits for the co-revealer's reveal (turn not computable yet)."""
        self.progress: Callable[[int, int], None] | None = None
        """Called with (step, last step) as the walk reaches each archived move (progress bars)."""
        self.receipts: dict[int, Message] = {}
        self._receipt_names: dict[int, list[str]] = {}
        """Receipts (quick results) by the step of the move whose dice they key: archived ones and
        any added by :meth:`add_receipt`; checked against the move and the chain before use."""
        self.new_receipts: list[Message] = []
        self.held: dict[int, Message] = {}
        """Messages of later slots of the current sealed round, waiting for the slots before them."""
        self._checked: dict[int, tuple[Any, Any]] = {}
        self._withdrawn: dict[int, set[str]] = {}
        """Step -> body hashes of its moves taken back by mutual consent (checked)."""
        """Step -> (parsed orders, :class:`Checked`) of placed moves not resolved yet."""

    # errors -----------------------------------------------------------------------------------

    def _writers(self) -> str:
        """Why a recomputed turn may differ without tampering: which pbem releases the signed
        files say wrote the archive, when this pbem is not one of them (only on that error path:
        it reads every move) [23]."""
        from pbem import __version__
        from pbem.protocol.canonical import MAX_MOVE_BYTES

        g = self.game
        found: set[str | None] = {g.body.pbem} | {j.body.pbem for j in g.joins.values()}
        for step in sorted(g.listing.moves):
            try:
                found.add(archive.parse_move(read_file(g.listing.moves[step], MAX_MOVE_BYTES), "").body.pbem)
            except (InputError, OSError):
                continue
        others = sorted((v for v in found - {__version__} if v is not None), key=archive.version_key)
        if others:
            return (f"; the archive was written by pbem {', '.join(others)} and this is pbem {__version__}: "
                    f"if it verifies with pbem {others[-1]}, the two releases compute {g.ruleset.rules_id} "
                    "differently (a pbem fault, not tampering: report it)")
        if None in found:
            return (f"; parts of the archive were written before pbem recorded its release (0.2.0): if it "
                    f"verifies with the pbem that wrote it, the releases compute {g.ruleset.rules_id} differently")
        return ""

    def _bad(self, name: str, reason: str, *, divergence: bool = False) -> Bad:
        return Bad(name, reason, divergence=divergence)

    def _raise(self, exc: Bad) -> None:
        if self.strict:
            raise VerificationError(exc.path, exc.reason)
        raise ArchiveError(str(exc))

    # the walk ---------------------------------------------------------------------------------

    def forget_checked(self) -> None:
        """With :attr:`flat`: drop every record and placed move no later step of the walk looks
        back to. A step reads the newest turn (its state, hash, pending decisions, round), the move
        before it (a move waiting for its reveal; the turn file's links), and in a sealed round every
        message of the round since the turn that opened it (:meth:`placed_move` of its slots); so
        the records from the open round's first turn (else the newest) on are kept, and the moves
        after it. :attr:`base` moves up accordingly: ``records[i]`` is still turn ``base + i``."""
        if not self.records:
            return
        last = self.records[-1]
        keep = last.step
        if len(self.records) == len(self.placed) + 1 and last.round is not None:
            keep = min(keep, last.round.base)
        drop = keep - self.base
        if drop <= 0:
            return
        for rec in self.records[:drop]:
            if rec.step in self._receipt_names:
                self._receipt_links[rec.step] = (rec.move.body_hash if rec.move is not None else None,
                                                 list(rec.turn["reveals"]))
            self._chains.pop(rec.step, None)
        self.game.moves.forget(range(self.base + 1, keep + 1))
        del self.records[:drop]
        del self.placed[:drop]
        self.forgotten += drop
        self.base = keep

    @property
    def placed_count(self) -> int:
        """How many moves are placed (archived ones and new ones)."""
        return self.base + len(self.placed)

    def record(self, step: int) -> StepRecord | None:
        """The turn of ``step``, when this replay holds it."""
        i = step - self.base
        return self.records[i] if 0 <= i < len(self.records) else None

    def placed_move(self, step: int) -> Message:
        """Move ``step`` (placed by this replay, or archived before its checkpoint)."""
        i = step - self.base - 1
        if i >= 0:
            return self.placed[i]
        try:
            return self.game.moves[step]
        except Bad as exc:
            raise ArchiveError(str(exc)) from None

    def recent_moves(self) -> list[Message]:
        """The moves this replay placed (every move, unless it started from a checkpoint)."""
        return list(self.placed)

    @property
    def next_step(self) -> int:
        return self.placed_count + 1

    @property
    def closed(self) -> bool:
        return bool(self.records) and len(self.records) == len(self.placed) + 1 and not self.records[-1].pending

    @property
    def current(self) -> StepRecord:
        """The newest resolved turn."""
        return self.records[-1]

    def resolved_through(self) -> int:
        return self.base + len(self.records) - 1

    def next_reveal_index(self, side: str) -> int:
        return self.chain_count[side] + 1

    def revealer_of(self, step: int) -> str:
        """The side whose reveal keys the dice of move ``step`` (declared by the ruleset in the
        random decision that move answered)."""
        rec = self.record(step - 1)
        assert rec is not None
        decision = rec.pending[0]
        assert decision.revealer is not None  # checked when the decision was recorded
        return decision.revealer

    def hidden_hash(self, state: Any, step: int) -> str:
        """The hash a turn file of a game with hidden information holds for ``state`` (its JSON) at
        ``step``: salted in a salted game, except the public initial state of a game without a
        secret set-up (everybody computes that one) [P10]."""
        from pbem.engine.sealed import hidden_state_hash

        g = self.game
        salted = g.salted and (step > 0 or g.body.scenario.copies is not None)
        if salted and self.state_salt is None:
            raise self._bad(names.turn_name(step), "its state hash is salted: only Game Control's machine, or "
                            "the publication after the game, can compute it")
        return hidden_state_hash(state, self.state_salt if salted else None)
