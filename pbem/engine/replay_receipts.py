"""A replay's receipts: the reveal a mover's dice wait for, sent at once by the side that owes it."""


from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.steps import (
    Bad,
    read_file,
    strip_name,
)
from pbem.errors import InputError, PbemError
from pbem.protocol import archive, names
from pbem.protocol.archive import Message

if TYPE_CHECKING:
    pass
from pbem.engine.replay_state import ReplayState


class ReceiptSteps(ReplayState):
    """The replay's receipts (quick results): each checked against its move and the signer's chain
    before its reveal keys the move's dice."""

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
            link = ((rec.move.body_hash if rec.move is not None else None, rec.turn["reveals"])
                    if rec is not None else self._receipt_links.get(k))
            if msg is None:
                continue
            if link is None or k == self.placed_count:
                continue  # before this replay's checkpoint, or the tail it resolved (checked)
            body = msg.body
            try:
                verify(msg.envelope, msg.envelope.payloadType,
                       {g.body.sides[body.side].fingerprint: g.public_key(body.side)})
            except (PbemError, KeyError) as exc:
                raise self._bad(msg.name, f"not signed by {body.side}'s registered key: {exc} [P1]") from None
            move, reveals = link
            if body.game != g.id or move is None or body.move != move or \
                    len(reveals) != 2 or reveals[1] != body.reveal:
                raise self._bad(msg.name, f"does not match the move and reveal that resolved step {k} [P2]")
            if self.flat:
                self.receipts.pop(k, None)

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
