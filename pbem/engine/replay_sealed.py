"""A replay's sealed rounds: placing and checking each message of a round, opening what this
machine may open, and resolving the round."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.engine.ruleset import Decision
from pbem.engine.steps import (
    StepRecord,
    sha256_hex,
)
from pbem.errors import PbemError
from pbem.protocol import names
from pbem.protocol.archive import Message, MoveBody

if TYPE_CHECKING:
    from pbem.engine.sealed import Round
from pbem.engine.replay_state import ReplayState


class SealedRounds(ReplayState):
    """The replay's sealed rounds (docs/protocol.md P8-P10): commitments checked before they are
    held, acknowledgements, reveals, the umpire's rulings and reports, hidden views, void orders."""

    def _may_hold(self, rnd: Round, body: MoveBody, k: int) -> bool:
        """Whether ``body`` (a step after ``k``) is a later slot of the current phase of ``rnd``."""
        return k < body.step <= rnd.phase_end() and rnd.side_at(body.step) == body.side

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
        self._check_sheet(name, record.state, body.side, opened[0], (msg.body_hash,))

    def _opened(self, rnd: Round, side: str, record: StepRecord) -> Any:
        """``side``'s orders of this round on a machine that may read them (the umpire's key, or
        the publication), checked against the commitment and the rules [P8]."""
        commit_msg = self.placed_move(rnd.slot(side, "commit"))
        ack = self.placed_move(rnd.slot(side, "ack")) if rnd.acks else None
        carried = (commit_msg.body_hash,) if ack is None else (commit_msg.body_hash, ack.body_hash)
        done = self._sheet_checked(side, carried, record.state)
        if done is not None:
            return done
        orders, where = self._open_commitment(
            commit_msg, to=str(rnd.umpire), noun="orders", case="P8",
            unreadable=f"{side}'s orders sealed to the umpire", mismatch=f"the orders of {side} do not match its",
            ack=ack)
        return self._check_sheet(where, record.state, side, orders, carried)

    def _sheet_checked(self, side: str, carried: tuple[str, ...], state: Any) -> tuple[Any, Any] | None:
        """What :meth:`_check_sheet` gave for ``side``'s orders carried by the messages whose body
        hashes are ``carried`` (the commitment binds the orders), checked against this very
        ``state``; ``None`` when they were not checked yet."""
        memo = self._sheets.get(side)
        if memo is not None and memo[0] == carried and memo[1] is state:
            return memo[2]
        return None

    def _check_sheet(self, where: str, state: Any, side: str, orders: Any, carried: tuple[str, ...]) -> tuple[Any, Any]:
        """:meth:`_check_orders` of a side's sealed orders, kept for the round's resolution: each
        reveal's orders are checked when the reveal arrives (:meth:`_check_sealed`) and the same
        orders against the same state are needed again when the round resolves -- parsing and
        checking them once halves a megagame round's sheet checks (issue 28). The latest per side
        only: a replay's memory stays flat. Nothing a ruleset returns is changed afterwards."""
        done = self._check_orders(where, state, side, orders)
        self._sheets[side] = (carried, state, done)
        return done

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
        must state. Returns ``(resolution, roll key, chain values keyed, rolls)``. Worked out once
        for the same inputs: the umpire's ``pbem report`` resolves the round to write the report,
        and placing that report reuses it (nothing a ruleset returns is changed afterwards)."""
        from pbem.protocol.canonical import canonical_bytes
        from pbem.protocol.dice import DiceStream, roll_key

        g = self.game
        ruling = self.placed_move(rnd.slot(str(rnd.umpire), "ruling"))
        reveals = [self.placed_move(rnd.slot(side, "reveal")) for side in rnd.sides]
        keyed = [ruling, *reveals]
        memo = (step, record.turn_hash, tuple(m.body_hash for m in keyed))
        done = self._hidden_resolved.get(memo)
        if done is not None:
            return done
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
        done = result, key, chain_values, [r.to_json() for r in dice.rolls]
        self._hidden_resolved = {memo: done}  # the latest only: a replay's memory stays flat
        return done

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
        from pbem.engine.sealed import open_view

        g = self.game
        if report["views"].get(side) is None:
            return
        try:
            seen = open_view(report, key, game=g.id, step=msg.body.step, side=side, umpire=str(g.umpire))
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
            side = msg.body.side
            parsed, chk = self._missing(msg.name, record.state, side) if side in void else \
                self._sheet_checked(side, (msg.body_hash,), record.state) or \
                self._check_sheet(msg.name, record.state, side, opened, (msg.body_hash,))
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
