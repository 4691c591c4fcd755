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

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.engine.gamedir import Game, load_scenario
from pbem.engine.replay_receipts import ReceiptSteps
from pbem.engine.replay_sealed import SealedRounds
from pbem.engine.replay_takeback import TakebackSteps
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
from pbem.errors import InputError, PbemError
from pbem.protocol import archive, names
from pbem.protocol.archive import Message, MoveBody

if TYPE_CHECKING:
    from pbem.engine.sealed import Round


def run_move_outputs(game: Game, replay: Replay, msg: Message) -> list[Path]:
    """Run the game's move output hooks for ``msg`` (idempotent: hooks never rewrite identical
    files). Also used when a re-run finds the move already archived (e.g. after a crash)."""
    out: list[Path] = []
    for hook in game.hooks.move_outputs:
        out.extend(hook(game, replay, msg))
    return out


class Replay(SealedRounds, ReceiptSteps, TakebackSteps):
    """One pass over the archive: genesis, joins, turn 0, then every move in step order.

    After :meth:`run`, :attr:`records` holds every turn that could be resolved, :attr:`waiting`
    says what the next turn waits for, and :meth:`add_move` places a new move (submit/ingest)."""

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
                if step > self.next_step and self.next_step in self.game.takebacks:
                    self._takebacks_before(self.next_step)  # a move withdrawn and not redone: why
                if step != self.next_step and not self._holdable(step):
                    raise self._bad(
                        self.game.listing.moves[step].name,
                        f"step {step} but the archive has no move for step {self.next_step}",
                    )
                if step in self.game.takebacks:
                    self._takebacks_before(step)
                self._place(self.game.moves[step], archived=True)
                if self.flat and not self.game.takebacks:  # take-backs are checked at the end, looking back
                    self.forget_checked()
            if self.next_step in self.game.takebacks and self.next_step not in self.game.moves:
                self._takebacks_before(self.next_step)  # agreed, not redone yet
            self._resolve_tail()
            self._check_no_later_files(self.base + len(self.records))
            self._check_receipts()
            self._check_takeback_files()
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
        data = turn_bytes(turn, self.turn_encoder)
        name = names.turn_name(step)
        path = g.listing.turns.get(step)
        written = True
        if path is not None:
            from pbem.protocol.canonical import MAX_TURN_BYTES

            try:
                existing = read_file(path, MAX_TURN_BYTES)
            except InputError as exc:
                raise self._bad(name, strip_name(str(exc), name)) from None
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
            turn = archive.TurnFile.parse(value)
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
        if archived and name != g.move_file(body.step, body.side):
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
        self._check_redo(msg)
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

    def _verify_signature(self, msg: Message) -> None:
        from pbem.protocol.dsse import verify

        side = msg.body.side
        entry = self.game.body.sides[side]
        try:
            verify(msg.envelope, msg.envelope.payloadType, {entry.fingerprint: self.game.public_key(side)},
                   body=msg.body_bytes)
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
                # sorted, as :meth:`owing` lists them ('owed by' in ingest's output, 'from' here)
                owed = sorted(s for s in rnd.owed() if rnd.slot(s) not in self.held)
                got = sorted(s for s in rnd.owed() if rnd.slot(s) in self.held)
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
            path = g.path(g.move_file(msg.body.step, msg.body.side))
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
                if msg not in self.authored and self.local.signed(msg.body.step, msg.body.side,
                                                                  g.redo_number(msg.body.step)) is not None:
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
            turns_checked=self.forgotten + len(self.records),
            signatures=self.signatures,
            rolls=self.rolls,
            outcome=outcome,
            unchecked=list(self.unchecked),
            waiting=self.waiting,
            notes=list(self.notes),
        )
