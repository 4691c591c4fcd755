"""A replay's take-backs by mutual consent: every withdrawn move, request and consent checked at
the place of the step they undo (docs/protocol.md, "Take-back by mutual consent")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.replay_state import ReplayState
from pbem.engine.takeback import (
    StepTakebacks,
    consent_problem,
    read_message,
    request_problem,
    withdraw_problem,
)
from pbem.protocol import names
from pbem.protocol.archive import Message


class TakebackSteps(ReplayState):
    """Checks of the take-back files of a step, made at the state before that step."""

    if TYPE_CHECKING:
        def _verify_signature(self, msg: Message) -> None: ...
        def _check_chain(self, msg: Message) -> bytes: ...
        def _resolve(self, msg: Message, co_reveal: bytes | None) -> None: ...

    def _takebacks_before(self, k: int) -> None:
        """Check every agreed take-back of step ``k`` at the state before it: each withdrawn move
        was a sound move of its author that rolled no dice, asked back by that author and agreed
        to by the opponent, each signature the registered key's. A withdrawn move's chain value
        (the redo must carry the same) resolves the turn before, when that turn waits for it."""
        g = self.game
        tb = g.takebacks.get(k)
        if tb is None or not tb.agreed or k <= self.base:
            return
        self._check_twins(k, tb)
        withdrawn: set[str] = set()
        for r in range(1, tb.agreed + 1):
            con_name = tb.consents.get(r)
            if con_name is None:
                raise self._bad(tb.consents[tb.agreed], f"agrees to take-back {tb.agreed} of step {k}, but no "
                                f"consent to take-back {r} is in the archive")
            req_name = tb.requests.get(r)
            if req_name is None:
                raise self._bad(con_name, f"agrees to a take-back nobody asked for: "
                                f"{names.takeback_name(k, '<side>', r)} is missing")
            move_name = tb.versions.get(r - 1)
            if move_name is None:
                raise self._bad(con_name, f"withdraws move {r - 1} of step {k}, which is not in the archive")
            move = read_message(g, move_name, "move")
            if move.body_hash in withdrawn:  # as ingest refuses it (_check_redo), for every version
                raise self._bad(move_name, f"is the very move taken back at step {k} before: a redo "
                                "must be other orders")
            self._check_withdrawn(move, k, r - 1)
            req = read_message(g, req_name, "takeback")
            problem = request_problem(g, req, move, r)
            if problem is not None:
                raise self._bad(req_name, problem)
            con = read_message(g, con_name, "consent")
            problem = consent_problem(g, con, req, move)
            if problem is not None:
                raise self._bad(con_name, problem)
            self.signatures += 3
            withdrawn.add(move.body_hash)
            self.notes.append(f"step {k}: {req.body.side} asked to take back {move.name} ({req_name}) and "
                              f"{con.body.side} agreed ({con_name}); the move stays in the archive, withdrawn")
        self._withdrawn[k] = withdrawn

    def _check_withdrawn(self, move: Message, k: int, version: int) -> None:
        g = self.game
        body = move.body
        if body.game != g.id:
            raise self._bad(move.name, f"belongs to game {body.game}, not {g.id} [P2]")
        if body.side not in g.body.sides or body.step != k or move.name != names.move_file(k, body.side, version):
            raise self._bad(move.name, f"body is step {body.step} by {body.side}; the file name disagrees [P2]")
        self._verify_signature(move)
        revealed = self._check_chain(move)  # the chain does not advance: the redo reveals this value
        if len(self.records) == len(self.placed):  # the turn before waits for exactly this value
            co = self.revealer_of(k - 1)
            if body.side != co:
                raise self._bad(move.name, f"step {k - 1} waits for {co}'s reveal, but this move is by "
                                f"{body.side} [P2]")
            self._resolve(self.placed[-1], revealed)
            self.tail_open = False
        else:
            prev = self.records[-1].turn
            if len(prev["reveals"]) == 2 and prev["reveals"][1] != body.reveal:
                raise self._bad(move.name, f"reveal differs from the one that resolved step {k - 1}: "
                                "a take-back cannot change a die already rolled [P3]")
        before = self.records[-1]
        problem = withdraw_problem(g, before, move)
        if problem is not None:
            raise self._bad(move.name, f"cannot be taken back: {problem}")
        self._check_orders(move.name, before.state, body.side, body.orders)

    def _check_twins(self, k: int, tb: StepTakebacks) -> None:
        """Two files for one version, request or consent of step ``k`` (their sides differ):
        refused naming both, whichever name sorts first -- only one side may write each."""
        if tb.twins:
            kept, other = tb.twins[0]
            raise self._bad(other, f"is a second file for the same take-back place of step {k} as {kept}: "
                            "only one side writes each move, request and consent [P2]")

    def withdrawn_at(self, step: int) -> set[str]:
        """Body hashes of the moves of ``step`` taken back by mutual consent."""
        return set(self._withdrawn.get(step, set()))

    def _check_redo(self, msg: Message) -> None:
        """A redo is another move than every move withdrawn at its step."""
        if msg.body_hash in self._withdrawn.get(msg.body.step, set()):
            raise self._bad(msg.name, f"is the very move taken back at step {msg.body.step}: a redo must "
                            "be other orders")

    def _check_takeback_files(self) -> None:
        """Take-back files that belong to no agreed take-back, or to no move: a request still
        waiting for consent is checked against the move it names (and noted)."""
        g = self.game
        for k, tb in sorted(g.takebacks.items()):
            if k <= self.base:
                continue
            self._check_twins(k, tb)
            n = tb.agreed
            stray = [name for r, name in sorted(tb.versions.items()) if r > n]
            stray += [name for r, name in sorted(tb.requests.items()) if r > n + 1]
            if stray:
                raise self._bad(stray[0], f"belongs to no take-back of step {k} agreed by both sides "
                                f"({n} agreed)")
            req_name = tb.requests.get(n + 1)
            if req_name is None:
                continue
            if k > self.placed_count:
                raise self._bad(req_name, f"asks to take back a move of step {k}, which is not in the archive")
            move = self.placed_move(k)
            req = read_message(g, req_name, "takeback")
            problem = request_problem(g, req, move, n + 1)
            if problem is not None:
                raise self._bad(req_name, problem)
            self.signatures += 1
            later = " (the game went on)" if k < self.placed_count else ""
            self.notes.append(f"{req_name}: {req.body.side} asks to take back {move.name}; not agreed{later}")
