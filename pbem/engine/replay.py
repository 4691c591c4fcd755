"""The engine: one replay of a campaign archive, used by verify, advance, submit, ingest and log.

Adjudication is a pure function of the archive's signed inputs (``docs/protocol.md``)::

    genesis (+ joins) --> turn 0 --m_1--> turn 1 --m_2--> turn 2 ...

Turn *k* is ``ruleset.resolve(state_{k-1}, orders of m_k, dice)``. When the decision answered by
m_k may roll dice (``Decision.random``), its dice are keyed by
``K_k = roll_key(game, k, hash(m_k), [reveal(m_k), reveal(m_{k+1})])`` where m_{k+1} is the next
message, which must come from the *co-revealer*: the next side after m_k's author in the scenario's
side order (for two sides, the opponent). That reveal is read from m_{k+1} when it is archived, or
computed from the co-revealer's local chain seed -- this is how the opponent learns the outcome of
m_k before writing m_{k+1}. Non-random decisions resolve at once with reveals ``[reveal(m_k)]``.

:class:`Replay` walks the archive once, in order, checking as it goes (signatures P1, placement P2,
dice chain, ``answers`` P6, legality, recomputed turn bytes P5/P6, rolls P4). Visitors (derived-file
checkers, output hooks, the log) read its :class:`StepRecord` list instead of replaying again.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.engine.gamedir import Game, load_scenario
from pbem.engine.ruleset import JSON, Decision
from pbem.engine.steps import (
    Bad,
    StepRecord,
    VerifySummary,
    decision_json,
    outcome_json,
    read_file,
    round_after,
    round_pending,
    sha256_hex,
    strip_name,
    turn_bytes,
)
from pbem.errors import ArchiveError, InputError, PbemError, VerificationError
from pbem.protocol import archive, names
from pbem.protocol.archive import Message, MoveBody

if TYPE_CHECKING:
    from pbem.engine.checkpoint import Checkpoints
    from pbem.engine.sealed import Round


def run_move_outputs(game: Game, replay: Replay, msg: Message) -> list[Path]:
    """Run the game's move output hooks for ``msg`` (idempotent: hooks never rewrite identical
    files). Also used when a re-run finds the move already archived (e.g. after a crash)."""
    out: list[Path] = []
    for hook in game.hooks.move_outputs:
        out.extend(hook(game, replay, msg))
    return out


class Replay:
    """One pass over the archive: genesis, joins, turn 0, then every move in step order.

    After :meth:`run`, :attr:`records` holds every turn that could be resolved, :attr:`waiting`
    says what the next turn waits for, and :meth:`add_move` places a new move (submit/ingest)."""

    def __init__(self, game: Game, local_seeds: dict[str, bytes], *, strict: bool,
                 checkpoint: Checkpoints | None = None, umpire_key: Any = None,
                 publication: dict[int, Any] | None = None) -> None:
        self.game = game
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
        self.records: list[StepRecord] = []
        """Turns from :attr:`base` on (``records[i]`` is turn ``base + i``)."""
        self.placed: list[Message] = []
        """Moves placed from step ``base + 1`` on (``placed[i]`` is move ``base + 1 + i``)."""
        self.chain_last: dict[str, bytes] = {}
        self.chain_count: dict[str, int] = {}
        self.chain_at: dict[str, int] = {}
        """Side -> step of the move that revealed its :attr:`chain_last` (0: the commitment)."""
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

    def run(self) -> None:
        try:
            self._check_genesis()
            if self.game.missing_joins():
                self.waiting = "join from " + ", ".join(self.game.missing_joins())
                self._check_no_later_files(0)
                return
            self._load_receipts()
            if not (self.checkpoints is not None and self.checkpoints.restore(self)):
                self._turn0()
            total = max(self.game.moves, default=0)
            for step in sorted(self.game.moves):
                if self.progress is not None:
                    self.progress(step, total)
                if step < self.next_step or step in self.held:
                    continue  # before a checkpoint, or placed when the gap before it was filled
                if step != self.next_step and not self._holdable(step):
                    raise self._bad(
                        self.game.listing.moves[step].name,
                        f"step {step} but the archive has no move for step {self.next_step}",
                    )
                self._place(self.game.moves[step], archived=True)
            self._resolve_tail()
            self._check_no_later_files(self.base + len(self.records))
            self._check_receipts()
            if self.held:
                self.notes += [f"{m.name}: waits for the earlier messages of its sealed round (signature checked)"
                               for _, m in sorted(self.held.items())]
            if self.game.hidden and not self.full:
                if self.viewer_keys:
                    self.notes.append("every view the umpire sealed to " + ", ".join(sorted(self.viewer_keys))
                                      + " opens with that side's key [P10]")
                self.notes.append("the orders sealed to the umpire, the states and its reports are checked "
                                  "once the umpire publishes the orders after the game (pbem publish) [P10]")
            elif self.game.hidden and self.publication is not None:
                self.notes.append("publication.json: every sealed order opened, every state and report "
                                  "recomputed [P10]")
                if self.viewer_keys:
                    self.notes.append("every view the umpire sealed to " + ", ".join(sorted(self.viewer_keys))
                                      + " is that side's view of the recomputed state [P10]")
            elif self.game.hidden and self.umpire_key is not None:
                self.notes.append("with Game Control's key: every sealed order opened, every state, report and "
                                  "roll recomputed; the others can check them once it publishes [P10]")
        except Bad as exc:
            self._raise(exc)
        if self.checkpoints is not None:
            self.checkpoints.save(self)

    def _holdable(self, step: int) -> bool:
        """Whether an archived move for ``step`` may wait for an earlier slot of a sealed round."""
        if len(self.records) != len(self.placed) + 1:
            return False
        rnd = self.records[-1].round
        path = self.game.listing.moves[step]
        side = path.name[len("move-0000-"):-len(".json")]
        return rnd is not None and rnd.side_at(step) == side and rnd.phase_at(step) == rnd.phase

    # positions --------------------------------------------------------------------------------

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

    def _check_genesis(self) -> None:
        from pbem.protocol.dsse import verify

        g = self.game
        self.signatures += g.genesis_signatures
        for side, msg in sorted(g.joins.items()):
            body: archive.JoinBody = msg.body
            if body.side != side:
                raise self._bad(msg.name, f"body is for side {body.side}, file name says {side}")
            if side not in g.body.sides:
                raise self._bad(msg.name, f"{side} is not a side of this game")
            if body.game != g.id:
                raise self._bad(msg.name, f"belongs to game {body.game}, not {g.id} [P2]")
            if body.genesis != g.genesis.body_hash:
                raise self._bad(msg.name, "answers another genesis [P2]")
            if g.body.sides[side].commitment is not None:
                raise self._bad(msg.name, f"{side} already committed in the genesis")
            try:
                verify(msg.envelope, msg.envelope.payloadType, {g.body.sides[side].fingerprint: g.public_key(side)})
            except PbemError as exc:
                raise self._bad(msg.name, f"signature: {exc} [P1]") from None
            self.signatures += 1

    def _turn0(self) -> None:
        g = self.game
        for side in g.sides:
            commitment = g.commitment(side)
            assert commitment is not None
            self.chain_last[side] = bytes.fromhex(commitment)
            self.chain_count[side] = 0
            self.chain_at[side] = 0
        self._chains[0] = {s: (0, self.chain_last[s].hex(), 0) for s in g.sides}
        state = g.ruleset.initial_state(g.scenario, g.body.options)
        joins = {s: m.body_hash for s, m in sorted(g.joins.items())}
        told = self._secret_setup(state)
        self._record(0, None, g.genesis.body_hash, state, [], None, [], [], joins=joins, told=told)

    def _secret_setup(self, state: Any) -> tuple[str, list[Decision], Any] | None:
        """A secret set-up (the genesis names a copy of the scenario per side): on a side's machine,
        turn 0 takes the initial state's hash from the genesis (``told``) and keeps the state of
        its copy for its own view; on a machine with the whole scenario, check that every copy is
        the rules' copy for its side and that the genesis names the initial state's true hash."""
        from pbem.engine.scenarios import content_hash, side_copy, without_salt

        g = self.game
        ref = g.body.scenario
        if ref.copies is None or ref.state is None:
            return None
        pending = g.ruleset.pending(g.scenario, state)
        if g.copy_of is not None:
            return ref.state, pending, None
        made = {side: side_copy(g.ruleset, g.scenario, g.scenario_data, side) for side in g.sides}
        if set(ref.copies) != {side for side, copy in made.items() if copy is not None}:
            raise self._bad(names.GENESIS, "names copies of the scenario for other sides than those the rules "
                            "make copies for [secret set-up]")
        for side in g.sides:
            copy = made[side]
            if (copy is None and side in ref.copies) or (copy is not None and ref.copies.get(side) != content_hash(copy)):
                raise self._bad(names.GENESIS, f"the copy of the scenario it names for {side} is not the "
                                "rules' copy of the whole scenario for that side [secret set-up]")
            if copy is not None:
                _, model = load_scenario(without_salt(copy), ref.copies[side])
                if g.ruleset.pending(model, g.ruleset.initial_state(model, g.body.options)) != pending:
                    raise self._bad(names.GENESIS, f"ruleset error: {side}'s copy of the scenario starts "
                                    "with other pending decisions than the whole [secret set-up]")
        if g.salted and self.state_salt is None:
            # the whole scenario without the umpire's salt (a stranger mid-game): every copy is
            # checked; the initial state's salted hash waits for the publication [29]
            self.notes.append("the initial state's salted hash in the genesis is checked once the umpire "
                              "publishes the salt after the game [P10]")
            return ref.state, pending, None
        if self.hidden_hash(g.ruleset.dump_state(g.scenario, state), 0) != ref.state:
            raise self._bad(names.GENESIS, "the initial state it commits to is not the whole scenario's "
                            "[secret set-up]")
        if g.ruleset.outcome(g.scenario, state) is not None:
            raise self._bad(names.GENESIS, "ruleset error: a secret set-up starts without an outcome")
        return None

    def _record(
        self,
        step: int,
        move: Message | None,
        prev: str,
        state: JSON,
        reveals: list[bytes],
        key: bytes | None,
        rolls: list[Any],
        events: list[Any],
        *,
        joins: dict[str, str] | None = None,
        sealed: Round | None = None,
        told: tuple[str, list[Decision], Any] | None = None,
    ) -> None:
        """Record turn ``step``. With hidden information the turn file holds only the state's
        hash; ``told`` is what a player's machine, which does not know the state, takes from the
        umpire's report: ``(state hash, pending decisions, outcome JSON)``."""
        g = self.game
        if sealed is not None:
            pending = round_pending(sealed)
        elif told is not None:
            pending = told[1]
        else:
            pending = g.ruleset.pending(g.scenario, state)
            self._check_pending(step, pending)
        known = state is not None
        turn: dict[str, Any] = {
            "ds": archive.TURN_DS,
            "game": g.id,
            "step": step,
            "prev": prev,
            "move": move.body_hash if move is not None else None,
            "reveals": [r.hex() for r in reveals],
            "roll_key": key.hex() if key is not None else None,
            "rolls": rolls,
            "events": events,
            "state": g.ruleset.dump_state(g.scenario, state) if known else None,
            "score": g.ruleset.score(g.scenario, state) if known else {},
            "pending": [decision_json(d) for d in pending],
            "outcome": outcome_json(g.ruleset.outcome(g.scenario, state)) if known else None,
        }
        if step == 0:
            turn["joins"] = joins or {}
        if sealed is not None:
            turn["sealed"] = sealed.to_json()
        full_turn = None
        if g.hidden:
            full_turn = turn
            turn = self._public_turn(turn, state, told)
        data = turn_bytes(turn)
        name = names.turn_name(step)
        path = g.listing.turns.get(step)
        written = True
        if path is not None:
            from pbem.protocol.canonical import MAX_TURN_BYTES

            try:
                existing = read_file(path, MAX_TURN_BYTES)
            except InputError as exc:
                raise self._bad(name, str(exc)) from None
            if existing != data:
                writers = self._writers()
                raise self._bad(
                    name,
                    f"differs from the recomputed turn (file sha256 {sha256_hex(existing)[:16]}…, "
                    f"recomputed {sha256_hex(data)[:16]}…) [P5/P6]"
                    + (writers or ": the file was changed after this pbem's release wrote it"),
                    divergence=True,
                )
            written = False
        self.rolls += len(rolls)
        turn_hash = sha256_hex(data)
        self.records.append(StepRecord(step, move, data, turn_hash, turn, state, pending, written=written,
                                       round=round_after(step, turn_hash, pending, sealed, g.umpire, g.hidden, g.body.rounds),
                                       full_turn=full_turn))

    def _public_turn(self, turn: dict[str, Any], state: Any, told: tuple[str, list[Decision], Any] | None) -> dict[str, Any]:
        """What a turn file of a game with hidden information holds: the hash of the state (its
        canonical JSON), who owes what, the outcome, the dice key -- no state, score, events or
        rolls (the umpire keeps them, and publishes the orders after the game)."""

        if told is not None:
            state_hash, outcome = told[0], told[2]
        elif state is not None and self.game.copy_of is None and (turn.get("sealed") is None or not self.records):
            state_hash = self.hidden_hash(turn["state"], int(turn["step"]))
            outcome = turn["outcome"]
        else:  # a round's progress: the state is the previous turn's, and so is its hash
            state_hash = self.records[-1].turn["state"]["hidden"]
            outcome = None
        return {**turn, "rolls": [], "events": [], "state": {"hidden": state_hash}, "score": {},
                "outcome": outcome}

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

    def _check_pending(self, step: int, pending: list[Decision]) -> None:
        """What the engine asks of a ruleset's pending decisions."""
        g = self.game
        sealed = [d for d in pending if d.sealed]
        if sealed:
            if len(sealed) != len(pending) or g.ruleset.capabilities.decisions != "simultaneous":
                raise self._bad(names.turn_name(step), "ruleset error: sealed decisions must all be "
                                "sealed, from a ruleset that declares simultaneous decisions")
            sides = [d.side for d in pending]
            if len(set(sides)) != len(sides):
                raise self._bad(names.turn_name(step), "ruleset error: one sealed decision per side")
            return
        if len(pending) > 1:
            raise self._bad(names.turn_name(step), "ruleset error: several pending decisions must "
                            "be sealed (simultaneous orders)")
        for d in pending:
            if d.random and (d.revealer is None or d.revealer == d.side or d.revealer not in g.body.sides):
                raise self._bad(
                    names.turn_name(step),
                    f"ruleset error: random decision {d.label!r} names no other side to reveal its dice",
                )

    def _check_no_later_files(self, first_missing: int) -> None:
        turns = self.game.listing.turns
        for step in sorted(s for s in turns if s >= first_missing):
            path = turns[step]
            if self.tail_open and step == first_missing:
                # Written by the co-revealer's tool from its own seed: its dice cannot be re-derived
                # before that side's next move arrives, but its links can be checked.
                self._check_links(path, step)
                self.unchecked.append(path.name)
                continue
            raise self._bad(path.name, f"no archived move resolves step {step}")

    def _check_links(self, path: Path, step: int) -> None:
        from pbem.protocol.canonical import MAX_TURN_BYTES, canonical_bytes, loads_strict

        try:
            data = read_file(path, MAX_TURN_BYTES)
            value = loads_strict(data, max_bytes=MAX_TURN_BYTES, what=path.name)
        except InputError as exc:
            raise self._bad(path.name, strip_name(str(exc), path.name)) from None
        if canonical_bytes(value) + b"\n" != data:
            raise self._bad(path.name, "not canonical JSON")
        try:
            turn = archive.TurnFile.model_validate(value)
        except Exception as exc:
            raise self._bad(path.name, f"not a turn file: {exc}".splitlines()[0]) from None
        if turn.game != self.game.id or turn.step != step:
            raise self._bad(path.name, "wrong game or step")
        if turn.prev != self.records[-1].turn_hash:
            raise self._bad(path.name, f"prev does not match {self.records[-1].name}")
        if turn.move != self.placed[-1].body_hash:
            raise self._bad(path.name, f"move does not match {self.placed[-1].name}")
        if not turn.reveals or turn.reveals[0] != self.placed[-1].body.reveal:
            raise self._bad(path.name, "reveals do not start with the move's reveal")

    # placing a move ---------------------------------------------------------------------------

    @property
    def next_step(self) -> int:
        return self.placed_count + 1

    @property
    def closed(self) -> bool:
        return bool(self.records) and len(self.records) == len(self.placed) + 1 and not self.records[-1].pending

    def _decision(self, record: StepRecord, name: str) -> Decision:
        if not record.pending:
            raise self._bad(name, "the game is over: the archive is closed")
        return record.pending[0]

    def _place(self, msg: Message, *, archived: bool) -> None:
        """Check ``msg`` as the next move and resolve what it makes resolvable. A message for a
        later slot of the current sealed round waits (:attr:`held`) until the slots before it are
        filled, and is then placed with every check."""
        g = self.game
        body: MoveBody = msg.body
        name = msg.name
        k = self.next_step
        if body.game != g.id:
            raise self._bad(name, f"belongs to game {body.game}, not {g.id} [P2]")
        if body.side not in g.body.sides:
            raise self._bad(name, f"{body.side} is not a side of this game [P2]")
        if archived and name != names.move_name(body.step, body.side):
            raise self._bad(name, f"body is step {body.step} by {body.side}; the file name disagrees [P2]")
        if self.closed:
            raise self._bad(name, "the game is over: the archive is closed")
        if not self.records:
            raise self._bad(name, f"the game has not started: waiting for {self.waiting}; take that in first")
        rnd = self.records[-1].round if len(self.records) == len(self.placed) + 1 else None
        if body.step > k and rnd is not None and self._may_hold(rnd, body, k):
            held = self.held.get(body.step)
            if held is not None and held.body_hash != msg.body_hash:
                raise self._bad(name, f"a different move for step {body.step} is already waiting [P7]")
            self._verify_signature(msg)
            # Checked as far as it can be before it waits: the side's own chain link (its previous
            # message is placed: one message a phase) and everything of its own slot [29].
            self._check_chain(msg)
            self._check_sealed(msg, rnd, self.records[-1])
            self.held[body.step] = msg
            if not archived:
                self.new_moves.append(msg)
            return
        if body.step != k:
            raise self._bad(name, f"is for step {body.step}, but the game is at step {k} [P2]")
        self._verify_signature(msg)
        self.signatures += 1
        revealed = self._check_chain(msg)
        if rnd is not None:
            self._place_sealed(msg, rnd, revealed, archived=archived)
        else:
            self._place_sequential(msg, revealed, archived=archived)
        nxt = self.held.pop(self.next_step, None)
        if nxt is not None:  # the gap before a waiting sealed message is filled
            self._place(nxt, archived=True)

    def _may_hold(self, rnd: Round, body: MoveBody, k: int) -> bool:
        """Whether ``body`` (a step after ``k``) is a later slot of the current phase of ``rnd``."""
        return k < body.step <= rnd.phase_end() and rnd.side_at(body.step) == body.side

    def _verify_signature(self, msg: Message) -> None:
        from pbem.protocol.dsse import verify

        side = msg.body.side
        entry = self.game.body.sides[side]
        try:
            verify(msg.envelope, msg.envelope.payloadType, {entry.fingerprint: self.game.public_key(side)})
        except PbemError as exc:
            raise self._bad(msg.name, f"not signed by {side}'s registered key: {exc} [P1]") from None

    def _check_chain(self, msg: Message) -> bytes:
        from pbem.protocol.dice import check_reveal

        body: MoveBody = msg.body
        revealed = bytes.fromhex(body.reveal)
        count = self.chain_count[body.side]
        if count + 1 > self.game.chain_length:
            raise self._bad(msg.name, f"{body.side}'s dice chain is exhausted ({self.game.chain_length} reveals)")
        if not check_reveal(self.chain_last[body.side], revealed):
            raise self._bad(msg.name, f"reveal does not hash to {body.side}'s previous chain value [P3 chain]")
        return revealed

    def _advance_chain(self, msg: Message, revealed: bytes, *, archived: bool) -> None:
        side, k = msg.body.side, msg.body.step
        self.chain_last[side] = revealed
        self.chain_count[side] += 1
        self.chain_at[side] = k
        self._chains[k] = {s: (self.chain_count[s], self.chain_last[s].hex(), self.chain_at[s])
                           for s in self.chain_last}
        self.placed.append(msg)
        if not archived:
            self.new_moves.append(msg)

    def _place_sequential(self, msg: Message, revealed: bytes, *, archived: bool) -> None:
        body: MoveBody = msg.body
        name = msg.name
        k = body.step
        # turn k-1 may still wait for exactly this reveal
        if len(self.records) == len(self.placed):  # the previous move waits for a reveal
            prev_move = self.placed[-1]
            co = self.revealer_of(k - 1)
            if body.side != co:
                raise self._bad(name, f"step {k - 1} waits for {co}'s reveal, but this move is by {body.side} [P2]")
            self._resolve(prev_move, revealed)
            self.tail_open = False
        else:
            prev_turn = self.records[-1].turn
            if k > 1 and len(prev_turn["reveals"]) == 2 and prev_turn["reveals"][1] != body.reveal:
                raise self._bad(name, f"reveal differs from the one that resolved step {k - 1}")
        record = self.records[-1]
        decision = self._decision(record, name)
        if decision.side != body.side:
            raise self._bad(name, f"step {k} is {decision.side}'s decision ({decision.label}), not {body.side}'s [P2]")
        self._check_answers(msg, record.turn_hash, record.name)
        self._checked[k] = self._check_orders(name, record.state, body.side, body.orders)
        self._advance_chain(msg, revealed, archived=archived)
        if not decision.random:
            self._resolve(msg, None)

    def _check_void(self, msg: Message, rnd: Round) -> Any:
        """The ruling's orders without its ``void``; every side it voids checked by everyone: the
        key it publishes is the one that side's signed commitment names, and the copy that key
        opens does not hold the orders the side committed to [29]. Returns the rest."""
        from pbem.engine.sealed import split_void, void_proof

        try:
            ruled, void = split_void(msg.body.orders)
        except ValueError as exc:
            raise self._bad(msg.name, f"{exc} [29]") from None
        if void and not (rnd.acks and rnd.umpire is not None):
            raise self._bad(msg.name, "voids orders in a round whose copies are not keyed (no acknowledgements) [29]")
        for side, key_hex in sorted(void.items()):
            if side not in rnd.sides:
                raise self._bad(msg.name, f"voids the orders of {side[:16]}, which has none in this round [29]")
            commit = self.placed_move(rnd.slot(side, "commit"))
            if void_proof(commit.body.orders, key_hex, game=self.game.id, commit_step=commit.body.step,
                          side=side) is None:
                raise self._bad(msg.name, f"voids {side}'s orders, but the key it publishes is not the one "
                                f"{commit.name} names, or the copy it opens holds the orders {side} committed to [29]")
        return ruled

    def voided(self, rnd: Round) -> set[str]:
        """The sides whose orders of ``rnd`` the umpire's ruling voided, with its proof [29]."""
        if rnd.umpire is None or not rnd.acks or rnd.phase in ("commit", "ack", "ruling"):
            return set()
        from pbem.engine.sealed import split_void

        orders = self.placed_move(rnd.slot(rnd.umpire, "ruling")).body.orders
        return set(split_void(orders)[1]) if isinstance(orders, dict) and "void" in orders else set()

    def _missing(self, where: str, state: Any, side: str) -> tuple[Any, Any]:
        """The orders of a side whose orders are void: the rules' skeleton, no orders [29]."""
        g = self.game
        return self._check_orders(where, state, side, g.ruleset.skeleton(g.scenario, state, side))

    @staticmethod
    def _split(who: str, answers: str, rnd: Round) -> str:
        """The words for a message that answers another set of commitments than this machine
        holds: a side may have signed two commitments for one slot and sent each to others [29]."""
        assert rnd.commits_turn is not None
        return (f"{who} answers other commitments ({answers[:8]}…) than this machine holds "
                f"({rnd.commits_turn[:8]}…): a side may have signed two (a split); compare move-{rnd.base + 1:04d} "
                f"to move-{rnd.base + rnd.n:04d} with that side and reveal nothing until they agree [P8]")

    def _check_answers(self, msg: Message, want: str, turn_name: str) -> None:
        k = msg.body.step
        if msg.body.answers != want:
            raise self._bad(
                msg.name,
                f"DIVERGENCE: it answers turn {k - 1} with sha256 {msg.body.answers}, but this "
                f"adjudication of {turn_name} has sha256 {want} [P6]" + self._writers(),
                divergence=True,
            )

    def _place_sealed(self, msg: Message, rnd: Round, revealed: bytes, *, archived: bool) -> None:
        """A commitment, the umpire's ruling or a reveal of a sealed round (:mod:`pbem.engine.sealed`)
        [P8, P9]."""
        from dataclasses import replace

        from pbem.engine.sealed import parse_commit, parse_rulings

        body: MoveBody = msg.body
        name, k = msg.name, body.step
        expected = rnd.side_at(k)
        if body.side != expected:
            raise self._bad(name, f"step {k} is {expected}'s sealed {rnd.phase} in this round, not "
                            f"{body.side}'s [P2]")
        record = self.records[-1]
        if rnd.phase == "commit":
            self._check_sealed(msg, rnd, record)
            self._advance_chain(msg, revealed, archived=archived)
            done = rnd.done + 1
            if done < rnd.n:
                after = replace(rnd, done=done)
            else:
                after = replace(rnd, phase=rnd.after_commits(), done=0, commits_turn=None)
            self._record(k, msg, record.turn_hash, record.state, [revealed], None, [], [], sealed=after)
            return
        if rnd.phase == "ack":
            self._check_sealed(msg, rnd, record)
            self._advance_chain(msg, revealed, archived=archived)
            done = rnd.done + 1
            after = replace(rnd, done=done) if done < rnd.n else \
                replace(rnd, phase=rnd.after_acks(), done=0, commits_turn=None)
            self._record(k, msg, record.turn_hash, record.state, [revealed], None, [], [], sealed=after)
            return
        assert rnd.commits_turn is not None
        if rnd.phase == "ruling":
            if body.answers != rnd.commits_turn and not rnd.acks:  # the umpire's word on the commitments
                raise self._bad(name, self._split("the umpire's ruling", body.answers, rnd), divergence=True)
            self._check_answers(msg, rnd.commits_turn, names.turn_name(k - 1))
            g = self.game
            ruled = self._check_void(msg, rnd)
            if g.hidden:  # sealed like orders: checked when opened, by the umpire and after publication
                if parse_commit(ruled, umpire=True) is None:
                    raise self._bad(name, "with hidden information the umpire's rulings are sealed: "
                                          '{"sealed": SHA-256 hex, "umpire": sealed rulings} [P9, P10]')
            else:
                try:
                    g.ruleset.load_rulings(g.scenario, record.state, parse_rulings(ruled))
                except (ValueError, PbemError) as exc:
                    raise self._bad(name, f"rulings: {exc} [P9]") from None
            self._advance_chain(msg, revealed, archived=archived)
            after = replace(rnd, phase="reveal", done=0, commits_turn=None)
            self._record(k, msg, record.turn_hash, record.state, [revealed], None, [], [], sealed=after)
            return
        if rnd.phase == "report":
            self._place_report(msg, rnd, record, revealed, archived=archived)
            return
        self._check_sealed(msg, rnd, record)
        self._advance_chain(msg, revealed, archived=archived)
        if rnd.done + 1 < rnd.n:
            after = replace(rnd, done=rnd.done + 1)
            self._record(k, msg, record.turn_hash, record.state, [revealed], None, [], [], sealed=after)
            return
        if rnd.report:
            after = replace(rnd, phase="report", done=0)
            self._record(k, msg, record.turn_hash, record.state, [revealed], None, [], [], sealed=after)
            return
        self._resolve_round(msg, rnd, record)

    def _check_sealed(self, msg: Message, rnd: Round, record: StepRecord) -> None:
        """Every check of a commitment or a reveal that needs nothing from the other slots of its
        phase: the turn it answers, its form, a reveal against its own side's commitment and the
        rules. Made when the message arrives, also for a later slot that must wait, so that no
        message a side signed can be held that would later stop the round [P8, 29]."""
        from pbem.engine.sealed import (
            HIDDEN_REVEAL,
            commitment,
            parse_ack,
            parse_commit,
            parse_reveal,
        )

        body: MoveBody = msg.body
        name = msg.name
        if rnd.phase == "commit":
            self._check_answers(msg, rnd.base_turn, names.turn_name(rnd.base))
            if parse_commit(body.orders, umpire=rnd.umpire is not None, keyed=rnd.acks) is None:
                form = '{"sealed": SHA-256 hex' + (
                    (', "umpire": sealed copy, "key": SHA-256 hex of its key}' if rnd.acks else
                     ', "umpire": sealed orders}') if rnd.umpire else "}")
                raise self._bad(name, f"a sealed commitment carries only {form} [P8]")
            return
        assert rnd.commits_turn is not None
        if rnd.phase == "ack":  # it answers the turn of the last commitment: the set its side holds
            if body.answers != rnd.commits_turn:
                raise self._bad(name, self._split(f"{body.side}'s acknowledgement", body.answers, rnd), divergence=True)
            if parse_ack(body.orders, umpire=rnd.umpire is not None) is None:
                form = '{"ack": "commitments"' + (', "key": the copy\'s key sealed to the umpire}' if rnd.umpire else "}")
                raise self._bad(name, f"an acknowledgement carries only {form} [P8, 29]")
            return
        assert rnd.phase == "reveal"
        self._check_answers(msg, rnd.commits_turn, names.turn_name(rnd.slot(rnd.sides[0], "reveal") - 1))
        if rnd.report:  # hidden information: the orders stay with the umpire
            if body.orders != HIDDEN_REVEAL:
                raise self._bad(name, 'with hidden information a reveal carries only {"reveal": '
                                '"to-umpire"}: the orders stay sealed to the umpire [P8, P10]')
            if self.full and body.side not in self.voided(rnd):
                self._opened(rnd, body.side, record)
            return
        opened = parse_reveal(body.orders)
        if opened is None:
            raise self._bad(name, 'a sealed reveal carries {"orders": ..., "salt": 64 hex digits} [P8]')
        commit_msg = self.placed_move(rnd.slot(body.side, "commit"))
        if commitment(opened[0], opened[1]) != parse_commit(commit_msg.body.orders, umpire=rnd.umpire is not None,
                                                           keyed=rnd.acks):
            raise self._bad(name, f"the orders revealed by {body.side} do not match its commitment in "
                            f"{commit_msg.name} [P8]")
        self._check_orders(name, record.state, body.side, opened[0])

    def _opened(self, rnd: Round, side: str, record: StepRecord) -> Any:
        """``side``'s orders of this round on a machine that may read them (the umpire's key, or
        the publication), checked against the commitment and the rules [P8]."""
        commit_msg = self.placed_move(rnd.slot(side, "commit"))
        orders, where = self._open_commitment(
            commit_msg, to=str(rnd.umpire), noun="orders", case="P8",
            unreadable=f"{side}'s orders sealed to the umpire", mismatch=f"the orders of {side} do not match its",
            ack=self.placed_move(rnd.slot(side, "ack")) if rnd.acks else None)
        return self._check_orders(where, record.state, side, orders)

    def _open_commitment(self, msg: Message, *, to: str, noun: str, case: str, unreadable: str,
                         mismatch: str, ack: Message | None = None) -> tuple[Any, str]:
        """What the sealed commitment of ``msg`` hides (a side's orders, the umpire's rulings):
        taken from the publication, or opened with the umpire's key (in an acknowledged round with
        the key the side's acknowledgement ``ack`` released), and checked against the commitment.
        Returns it and the file it came from."""
        from pbem.engine.sealed import commitment, open_side_copy, parse_commit, split_void

        step = msg.body.step
        sealed_orders = split_void(msg.body.orders)[0]
        if self.publication is not None:
            if step not in self.publication:
                raise self._bad("publication.json", f"has no {noun} for {msg.name} [P10]")
            value, salt = self.publication[step]
            where = "publication.json"
        else:
            try:
                value, salt = open_side_copy(sealed_orders, ack.body.orders if ack is not None else None,
                                             self.umpire_key, game=self.game.id, commit_step=step,
                                             ack_step=ack.body.step if ack is not None else 0,
                                             side=msg.body.side, umpire=to)
            except (PbemError, KeyError, TypeError, ValueError) as exc:
                raise self._bad(msg.name, f"{unreadable} cannot be read: {exc} [{case}]") from None
            where = msg.name
        if commitment(value, salt) != parse_commit(sealed_orders, umpire=True, keyed=ack is not None):
            raise self._bad(where, f"{mismatch} commitment in {msg.name} [{case}]")
        return value, where

    def hidden_resolution(self, rnd: Round, record: StepRecord, step: int) -> tuple[Any, bytes, list[bytes], list[Any]]:
        """On a machine that knows everything: resolve a hidden round as its report at ``step``
        must state. Returns ``(resolution, roll key, chain values keyed, rolls)``."""
        from pbem.protocol.canonical import canonical_bytes
        from pbem.protocol.dice import DiceStream, roll_key

        g = self.game
        ruling = self.placed_move(rnd.slot(str(rnd.umpire), "ruling"))
        reveals = [self.placed_move(rnd.slot(side, "reveal")) for side in rnd.sides]
        keyed = [ruling, *reveals]
        orders: dict[str, Any] = {}
        checked: dict[str, Any] = {}
        void = self.voided(rnd)
        for side in rnd.sides:
            orders[side], checked[side] = self._missing(ruling.name, record.state, side) if side in void else \
                self._opened(rnd, side, record)
        chain_values = [bytes.fromhex(m.body.reveal) for m in keyed]
        key = roll_key(g.id, step, sha256_hex(canonical_bytes([m.body_hash for m in keyed])), chain_values)
        dice = DiceStream(key)
        try:
            rulings = g.ruleset.load_rulings(g.scenario, record.state, self._opened_rulings(ruling))
        except PbemError as exc:
            raise self._bad(ruling.name, f"rulings: {exc} [P9]") from None
        result = g.ruleset.resolve_round(g.scenario, record.state, orders, dice, checked, rulings)
        return result, key, chain_values, [r.to_json() for r in dice.rolls]

    def _opened_rulings(self, ruling: Message) -> Any:
        """The umpire's rulings of a hidden round, sealed like orders: opened with the umpire's key
        (or taken from the publication) and checked against their commitment [P9, P10]."""
        return self._open_commitment(ruling, to=ruling.body.side, noun="rulings", case="P9",
                                     unreadable="the umpire's sealed rulings",
                                     mismatch="the rulings do not match their")[0]

    def public_keys_of_round(self, rnd: Round, step: int) -> tuple[bytes, list[bytes]]:
        """The roll key and chain values of a hidden round's resolution, from public data."""
        from pbem.protocol.canonical import canonical_bytes
        from pbem.protocol.dice import roll_key

        ruling = self.placed_move(rnd.slot(str(rnd.umpire), "ruling"))
        keyed = [ruling, *[self.placed_move(rnd.slot(side, "reveal")) for side in rnd.sides]]
        chain_values = [bytes.fromhex(m.body.reveal) for m in keyed]
        key = roll_key(self.game.id, step, sha256_hex(canonical_bytes([m.body_hash for m in keyed])), chain_values)
        return key, chain_values

    def _check_own_view(self, msg: Message, report: dict[str, Any], rec: StepRecord | None, side: str,
                        key: Any) -> None:
        """The view the umpire sealed to ``side`` (played here) opens with ``side``'s key -- a view
        sealed to another side, or garbled, is refused when the report arrives [29] -- and, where
        the state is known (``rec``), is ``view()`` of the state the adjudication gives [P10]."""
        from pbem.protocol.seal import open_sealed

        sealed = report["views"].get(side)
        if sealed is None:
            return
        g = self.game
        try:
            seen = open_sealed(sealed, key, game=g.id, step=msg.body.step, sender=str(g.umpire), to=side,
                               what="report")
        except PbemError as exc:
            raise self._bad(msg.name, f"the view sealed to {side} does not open with {side}'s key: {exc} "
                            "[P10]") from None
        if rec is None:
            return
        assert rec.full_turn is not None
        if seen != g.ruleset.view(g.scenario, rec.full_turn["state"], side):
            raise self._bad(msg.name, f"the view the umpire sealed to {side} is not {side}'s view of the "
                            "adjudicated state [P10]")

    def _place_report(self, msg: Message, rnd: Round, record: StepRecord, revealed: bytes, *, archived: bool) -> None:
        """The umpire's report of a hidden round: the new state's hash, what is pending, the outcome,
        and each side's view sealed to it. A machine that knows everything recomputes it and
        refuses a report that differs [P10]; a player's machine takes it (and checks it after the
        game, against the publication)."""
        from pbem.engine.sealed import parse_report

        k = msg.body.step
        self._check_answers(msg, record.turn_hash, record.name)
        try:
            report = parse_report(msg.body.orders, [s for s in rnd.sides])
        except ValueError as exc:
            raise self._bad(msg.name, f"{exc} [P10]") from None
        told_pending = [Decision(d["side"], d["kind"], d["label"], sealed=True) for d in report["pending"]]
        self._advance_chain(msg, revealed, archived=archived)
        if self.full:
            try:
                result, key, chain_values, rolls = self.hidden_resolution(rnd, record, k)
            except PbemError as exc:
                raise self._bad(msg.name, f"cannot be resolved: {exc}") from None
            before = len(self.records)
            self._record(k, msg, record.turn_hash, result.state, chain_values, key, rolls, list(result.events))
            rec = self.records[-1]
            assert rec.full_turn is not None and len(self.records) == before + 1
            mine = {"state": rec.turn["state"]["hidden"], "pending": rec.full_turn["pending"],
                    "outcome": rec.full_turn["outcome"]}
            theirs = {"state": report["state"], "pending": report["pending"], "outcome": report["outcome"]}
            if mine != theirs:
                raise self._bad(msg.name, "the umpire's report differs from the adjudication of the "
                                "sealed orders (state, pending or outcome) [P10]")
            for side, key in sorted(self.viewer_keys.items()):
                self._check_own_view(msg, report, rec, side, key)
            return
        for side, view_key in sorted(self.viewer_keys.items()):  # our own views, as they arrive [29]
            self._check_own_view(msg, report, None, side, view_key)
        key, chain_values = self.public_keys_of_round(rnd, k)
        self._record(k, msg, record.turn_hash, None, chain_values, key, [], [],
                     told=(report["state"], told_pending, report["outcome"]))

    def _resolve_round(self, last: Message, rnd: Round, record: StepRecord) -> None:
        """Every side has revealed: resolve the round with dice keyed by every reveal."""
        from pbem.protocol.canonical import canonical_bytes
        from pbem.protocol.dice import DiceStream, roll_key

        g = self.game
        k = last.body.step
        reveals = [self.placed_move(rnd.slot(side, "reveal")) for side in rnd.sides]
        rulings: Any = None
        keyed = list(reveals)
        if rnd.umpire is not None:
            ruling = self.placed_move(rnd.slot(rnd.umpire, "ruling"))
            rulings = ruling.body.orders["rulings"]
            keyed = [ruling, *reveals]
        orders: dict[str, Any] = {}
        checked: dict[str, Any] = {}
        void = self.voided(rnd)
        for msg in reveals:
            opened = msg.body.orders["orders"]
            parsed, chk = self._missing(msg.name, record.state, msg.body.side) if msg.body.side in void else \
                self._check_orders(msg.name, record.state, msg.body.side, opened)
            orders[msg.body.side], checked[msg.body.side] = parsed, chk
        chain_values = [bytes.fromhex(m.body.reveal) for m in keyed]
        bodies = sha256_hex(canonical_bytes([m.body_hash for m in keyed]))
        key = roll_key(g.id, k, bodies, chain_values)
        dice = DiceStream(key)
        try:
            if rnd.umpire is not None:
                rulings = g.ruleset.load_rulings(g.scenario, record.state, rulings)
                result = g.ruleset.resolve_round(g.scenario, record.state, orders, dice, checked, rulings)
            else:
                result = g.ruleset.resolve_round(g.scenario, record.state, orders, dice, checked)
        except PbemError as exc:
            raise self._bad(last.name, f"cannot be resolved: {exc}") from None
        rolls = [r.to_json() for r in dice.rolls]
        self._record(k, last, record.turn_hash, result.state, chain_values, key, rolls, list(result.events))

    def owing(self) -> list[str]:
        """The sides that owe a message now (whose clock runs): the co-revealer whose reveal
        resolves the last move, the sides that have not sent this phase's message of a sealed
        round, or the sides of the pending decisions [29]."""
        if not self.records or self.closed:
            return []
        if self.tail_open:
            return [self.revealer_of(self.placed_count)]
        rnd = self.current.round
        if rnd is not None:
            return sorted(side for side in rnd.owed() if rnd.slot(side) not in self.held)
        return sorted({d.side for d in self.current.pending})

    def revealer_of(self, step: int) -> str:
        """The side whose reveal keys the dice of move ``step`` (declared by the ruleset in the
        random decision that move answered)."""
        rec = self.record(step - 1)
        assert rec is not None
        decision = rec.pending[0]
        assert decision.revealer is not None  # checked when the decision was recorded
        return decision.revealer

    def _check_orders(self, name: str, state: Any, side: str, orders: JSON) -> tuple[Any, Any]:
        """Parse a move's orders once and check them; returns what resolving needs."""
        g = self.game
        try:
            parsed = g.ruleset.load_orders(g.scenario, orders)
        except PbemError as exc:
            raise self._bad(name, f"malformed orders: {exc}") from None
        checked = g.ruleset.check(g.scenario, state, side, parsed)
        if checked.violations:
            text = "; ".join(str(v) for v in checked.violations[:5])
            raise self._bad(name, f"illegal orders: {text}")
        return parsed, checked

    def _resolve(self, msg: Message, co_reveal: bytes | None) -> None:
        """Resolve the move ``msg`` (step k) into turn k."""
        from pbem.protocol.dice import DiceStream, NoDice, roll_key

        g = self.game
        body: MoveBody = msg.body
        k = body.step
        record = self.record(k - 1)
        assert record is not None
        decision = record.pending[0]
        reveals = [bytes.fromhex(body.reveal)]
        key: bytes | None = None
        dice: Any
        if decision.random:
            assert co_reveal is not None
            reveals.append(co_reveal)
            key = roll_key(g.id, k, msg.body_hash, reveals)
            dice = DiceStream(key)
        else:
            dice = NoDice()
        parsed, checked = self._checked.pop(k)
        try:
            result = g.ruleset.resolve(g.scenario, record.state, body.side, parsed, dice, checked)
        except PbemError as exc:
            raise self._bad(msg.name, f"cannot be resolved: {exc}") from None
        rolls = [r.to_json() for r in dice.rolls]
        self._record(k, msg, record.turn_hash, result.state, reveals, key, rolls, list(result.events))
        if decision.random:
            nxt = self.records[-1].pending
            co = decision.revealer
            if nxt and (nxt[0].side != co or (len(nxt) > 1 and nxt[0].sealed)):
                raise self._bad(
                    msg.name,
                    f"ruleset error: after a random decision by {body.side} the next decision "
                    f"must be {co}'s alone (it is {', '.join(d.side for d in nxt)}'s): a sealed "
                    "round may not follow a decision whose dice wait for a reveal",
                )

    def _resolve_tail(self) -> None:
        """If the last move waits for a reveal, use the co-revealer's local seed when we have it."""
        from pbem.protocol.dice import chain_head, reveal

        if len(self.records) == len(self.placed) + 1:
            last = self.records[-1]
            if last.round is not None:
                rnd = last.round
                owed = [s for s in rnd.owed() if rnd.slot(s) not in self.held]
                got = [s for s in rnd.owed() if rnd.slot(s) in self.held]
                self.waiting = (f"sealed orders, {rnd.phase} phase: from " + (", ".join(owed) or "nobody")
                                + f" (the round opened at step {rnd.base}: {rnd.labels[0].split(': ')[0]})"
                                + (f"; received from {', '.join(got)}, kept until the messages of the steps before them arrive" if got else ""))
            elif last.pending:
                d = last.pending[0]
                self.waiting = f"{d.side}: {d.label} ({d.kind})"
            return
        prev_move = self.placed[-1]
        co = self.revealer_of(self.placed_count)
        seed = self.local_seeds.get(co)
        receipt = self._receipt(self.placed_count) if seed is None else None
        if receipt is not None:
            self._resolve(prev_move, self._receipt_reveal(receipt))
            self.tail_open = False
            last = self.records[-1]
            if last.pending:
                d = last.pending[0]
                self.waiting = f"{d.side}: {d.label} ({d.kind})"
            return
        if seed is None:
            self.waiting = f"{co}'s next message (its reveal resolves step {self.placed_count})"
            self.tail_open = True
            return
        n = self.game.chain_length
        commitment = self.game.commitment(co)
        if commitment is None or chain_head(seed, n).hex() != commitment:
            raise InputError(f"the local dice seed of {co} does not match its commitment in the genesis")
        j = self.chain_count[co] + 1
        if j > n:
            raise InputError(f"{co}'s dice chain is exhausted ({n} reveals); the game cannot go on")
        self._resolve(prev_move, reveal(seed, n, j))
        last = self.records[-1]
        if last.pending:
            d = last.pending[0]
            self.waiting = f"{d.side}: {d.label} ({d.kind})"

    # receipts (quick results) ------------------------------------------------------------------

    def _load_receipts(self) -> None:
        """Index the archived receipts by step; each is read and parsed only when needed (the
        one for the move now waiting; every one in ``verify``), so a command's cost does not grow
        with the number of receipts a long game gathers."""
        for name in self.game.listing.other:
            m = names.RECEIPT_RE.match(name)
            if m is not None:
                self._receipt_names.setdefault(int(m.group(1)), []).append(name)

    def _receipt(self, step: int) -> Message | None:
        """The receipt for move ``step``, if one is archived (or was just added)."""
        hit = self.receipts.get(step)
        if hit is not None:
            return hit
        g = self.game
        for name in self._receipt_names.get(step, []):
            try:
                msg = archive.parse_receipt(read_file(g.path(name), 1 << 16), name)
            except InputError as exc:
                raise self._bad(name, strip_name(str(exc), name)) from None
            if msg.body.step != step or name != names.receipt_name(msg.body.step, msg.body.side):
                raise self._bad(name, f"body is step {msg.body.step} by {msg.body.side}; the file name disagrees [P2]")
            self.receipts[step] = msg
        return self.receipts.get(step)

    def _receipt_reveal(self, msg: Message) -> bytes:
        """Check a receipt for the move now waiting for its reveal; the chain value it discloses."""
        from pbem.protocol.dice import check_reveal
        from pbem.protocol.dsse import verify

        g = self.game
        body = msg.body
        k = self.placed_count
        if body.game != g.id:
            raise self._bad(msg.name, f"belongs to game {body.game}, not {g.id} [P2]")
        if body.step != k:
            raise self._bad(msg.name, f"is a receipt for step {body.step}; the move waiting is step {k} [P2]")
        co = self.revealer_of(k)
        if body.side != co:
            raise self._bad(msg.name, f"step {k}'s dice wait for {co}'s reveal, not {body.side}'s [P2]")
        if body.move != self.placed[-1].body_hash:
            raise self._bad(msg.name, f"answers another move than {self.placed[-1].name} [P2]")
        entry = g.body.sides[co]
        try:
            verify(msg.envelope, msg.envelope.payloadType, {entry.fingerprint: g.public_key(co)})
        except PbemError as exc:
            raise self._bad(msg.name, f"not signed by {co}'s registered key: {exc} [P1]") from None
        revealed = bytes.fromhex(body.reveal)
        if self.chain_count[co] + 1 > g.chain_length:
            raise self._bad(msg.name, f"{co}'s dice chain is exhausted ({g.chain_length} reveals)")
        if not check_reveal(self.chain_last[co], revealed):
            raise self._bad(msg.name, f"reveal does not hash to {co}'s previous chain value [P3 chain]")
        self.signatures += 1
        return revealed

    def _check_receipts(self) -> None:
        """Every archived receipt of a step resolved by a later move disclosed that move's value."""
        from pbem.protocol.dsse import verify

        if not self.strict:
            return  # verify checks them all; other commands read only the one they need
        g = self.game
        for k in sorted(set(self._receipt_names) | set(self.receipts)):
            msg = self._receipt(k)
            rec = self.record(k)
            if msg is None:
                continue
            if rec is None or k == self.placed_count:
                continue  # before this replay's checkpoint, or the tail it resolved (checked)
            body = msg.body
            try:
                verify(msg.envelope, msg.envelope.payloadType,
                       {g.body.sides[body.side].fingerprint: g.public_key(body.side)})
            except (PbemError, KeyError) as exc:
                raise self._bad(msg.name, f"not signed by {body.side}'s registered key: {exc} [P1]") from None
            if body.game != g.id or rec.move is None or body.move != rec.move.body_hash or \
                    len(rec.turn["reveals"]) != 2 or rec.turn["reveals"][1] != body.reveal:
                raise self._bad(msg.name, f"does not match the move and reveal that resolved step {k} [P2]")

    def add_receipt(self, msg: Message) -> None:
        """Place a receipt for the move now waiting for its reveal (ingest): the turn is resolved."""
        try:
            if not self.tail_open or msg.body.step != self.placed_count:
                known = self._receipt(msg.body.step)
                if known is not None and known.body_hash == msg.body_hash:
                    return
                raise self._bad(msg.name, f"no move waits for this receipt (the game is at step "
                                f"{self.placed_count}, {'waiting' if self.tail_open else 'resolved'})")
            self.receipts[msg.body.step] = msg
            self._resolve_tail()
            self.new_receipts.append(msg)
        except Bad as exc:
            self._raise(exc)

    # after the walk ---------------------------------------------------------------------------

    @property
    def current(self) -> StepRecord:
        """The newest resolved turn."""
        return self.records[-1]

    def resolved_through(self) -> int:
        return self.base + len(self.records) - 1

    def next_reveal_index(self, side: str) -> int:
        return self.chain_count[side] + 1

    def add_move(self, msg: Message, *, authored: bool = False) -> None:
        """Place a new (not yet archived) move: every check of an archived move, then resolve what
        it makes resolvable. Nothing is written (see :meth:`write`). ``authored``: signed on this
        machine, so :meth:`write` runs the move output hooks (the email to send) for it."""
        try:
            self._place(msg, archived=False)
            self._resolve_tail()
        except Bad as exc:
            self._raise(exc)
        if authored:
            self.authored.append(msg)

    def write(self) -> list[Path]:
        """Write the new move files first, then every new turn file in order, then run the output
        hooks. A crash in between leaves a valid archive that :meth:`Game.advance` completes."""
        from pbem.protocol.fsutil import crash_point, write_new

        out: list[Path] = []
        g = self.game
        for msg in self.new_moves:
            path = g.path(names.move_name(msg.body.step, msg.body.side))
            if write_new(path, msg.raw):
                out.append(path)
            g.listing.moves[msg.body.step] = path
        for msg in self.new_receipts:
            path = g.path(msg.name)
            if write_new(path, msg.raw):
                out.append(path)
            g.listing.other.append(msg.name)
        self.new_receipts = []
        if self.new_moves:
            crash_point("move")  # test-only: die between the move file and the turn files
        self.new_moves = []
        for rec in self.records:
            if rec.written:
                path = g.path(rec.name)
                if write_new(path, rec.turn_bytes):
                    out.append(path)
                g.listing.turns[rec.step] = path
                rec.written = False
                crash_point("turn")  # test-only: die between a turn file and its derived files
            # hooks write what is missing (a map a killed process never wrote) and skip the rest
            for hook in g.hooks.outputs:
                out.extend(hook(g, self, rec))
        if self.local is not None:  # moves signed here whose email a killed process never wrote
            for msg in self.placed:
                if msg not in self.authored and self.local.signed(msg.body.step, msg.body.side) is not None:
                    out.extend(run_move_outputs(g, self, msg))
        for msg in self.authored:
            out.extend(run_move_outputs(g, self, msg))
        self.authored = []
        if self.checkpoints is not None:
            self.checkpoints.save(self)
        return out

    def summary(self) -> VerifySummary:
        g = self.game
        outcome = None
        if self.records and self.records[-1].turn["outcome"]:
            outcome = self.records[-1].turn["outcome"]["summary"]
        return VerifySummary(
            game=g.id,
            scenario=g.body.scenario.id,
            steps=self.placed_count,
            turns_checked=sum(1 for r in self.records),
            signatures=self.signatures,
            rolls=self.rolls,
            outcome=outcome,
            unchecked=list(self.unchecked),
            waiting=self.waiting,
            notes=list(self.notes),
        )
