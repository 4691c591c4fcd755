"""Receipts (quick results): the reveal a mover's dice wait for, sent at once."""

from __future__ import annotations

from pathlib import Path

from pbem.engine.gamedir import Game
from pbem.errors import InputError
from pbem.protocol import archive, names
from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.dice import reveal
from pbem.protocol.dsse import RECEIPT_TYPE, envelope_bytes, sign
from pbem.protocol.fsutil import write_new
from pbem.protocol.keys import KeyStore
from pbem.protocol.localstate import LocalGame, local_seeds, private_key


def receipt(game: Game, key_name: str, *, required: bool = False) -> list[Path]:
    """When the newest move's dice wait for a side played here (whose own seed has just resolved
    them), sign a receipt disclosing that reveal -- no decision, only the value its next move
    must carry anyway -- so the mover sees the result at once. Writes ``receipt-NNNN-SIDE.json``
    and, where the game has mail, its email draft. Returns the files written (none when nothing is
    waiting for us, or the receipt exists; with ``required``, an :class:`InputError` that says why,
    as ``pbem receipt`` answers [29])."""

    def none_due(why: str) -> list[Path]:
        if required:
            raise InputError(f"no receipt is due: {why}")
        return []


    info = KeyStore().info(key_name)
    mine = game.side_of_fingerprint(info.fingerprint)
    local = LocalGame.of(game)
    seeds = local_seeds(game, local, derive=True)
    rp = game.replay(seeds, local=local)
    if not rp.placed:
        return none_due("no move has been made yet")
    last = rp.placed[-1]
    if last.body.side in mine:
        return none_due(f"the newest move, {last.name}, is yours")
    if rp.resolved_through() != rp.placed_count:
        return none_due(f"the newest move, {last.name}, is not resolved here yet: ingest what it waits for")
    k = rp.placed_count
    rec = rp.record(k - 1)
    if rec is None or not rec.pending or not rec.pending[0].random:
        return none_due(f"the newest move, {last.name}, rolls no dice")
    co = rp.revealer_of(k)
    if co not in mine or co not in seeds:
        return none_due(f"the dice of {last.name} wait for {co}'s reveal, not for a side of key {key_name}")
    name = names.receipt_name(k, co)
    if game.path(name).exists():
        return none_due(f"{name} is already written (send it again if it was lost)")
    body = {"ds": archive.RECEIPT_DS, "game": game.id, "step": k, "side": co,
            "move": rp.placed[-1].body_hash,
            "reveal": reveal(seeds[co], game.chain_length, rp.next_reveal_index(co)).hex()}
    raw = envelope_bytes(sign(canonical_bytes(body), RECEIPT_TYPE, [private_key(key_name)]))
    written = []
    if write_new(game.path(name), raw):
        written.append(game.path(name))
    for hook in game.hooks.receipt_outputs:  # its email draft
        written += hook(game, rp, name, raw)
    return written
