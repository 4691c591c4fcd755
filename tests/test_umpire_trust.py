"""What Game Control's own pbem lets it read, and when [29, P8, P9]: the orders sealed to the
umpire are opened by pbem only once every side has committed (a modified client holding the
umpire's key could open them as they arrive: docs/protocol.md states that trust), and a split
commitment -- one side signing two different commitments for two players -- is caught before any
side reveals, because Game Control's ruling answers the set of commitments it holds."""

from __future__ import annotations

from pathlib import Path

from tests.test_protocol_helpers import move_body, ok, sign_move
from tests.test_umpire import new_move, send_all, start


def test_29_game_controls_pbem_shows_no_order_before_every_side_has_committed(tmp_path: Path) -> None:
    players = start(tmp_path)
    gc, a = players["GC"], players["A"]
    send_all(players, "A", new_move(ok(a.submit({"kind": "bid", "side": "A", "round": 1, "coins": 7}))))
    for args in (("status", gc.dir), ("status", gc.dir, "--json"), ("log", gc.dir)):
        out = ok(gc.run(*args)).out
        assert '"coins": 7' not in out and "coins 7" not in out and "bids: A 7" not in out, (args, out)
    res = gc.run("rule", gc.dir, gc.write_orders({"reserve": 0}), "--key", "control", "--yes")
    assert res.code == 2 and "7" not in res.err  # no ruling (nor a look at the bids) before every commitment
    for s, coins in (("B", 2), ("C", 3)):
        p = players[s]
        send_all(players, s, new_move(ok(p.submit({"kind": "bid", "side": s, "round": 1, "coins": coins}))))
    # every side has committed: now Game Control reads the sealed orders, to rule
    res = ok(gc.run("rule", gc.dir, gc.write_orders({"reserve": 0}), "--key", "control", "--yes"))
    assert "A: A bids 7 coins in round 1 [S2]" in res.err + res.out


def test_29_a_split_commitment_is_caught_before_any_reveal(tmp_path: Path) -> None:
    # A signs two commitments for step 1: one reaches B and Game Control, the other C. Game
    # Control's ruling answers the commitments it holds: C cannot place it, so C is never asked to
    # reveal, and A's second signature is the evidence.
    players = start(tmp_path)
    a, b, c, gc = players["A"], players["B"], players["C"], players["GC"]
    first = new_move(ok(a.submit({"kind": "bid", "side": "A", "round": 1, "coins": 2})))
    for t in ("B", "GC"):
        ok(a.send(players[t], [first]))
    body = move_body(a.dir / first)
    other = {**body, "orders": {**body["orders"], "sealed": "ee" * 32}}
    inbox = c.work / "split"
    inbox.mkdir()
    (inbox / first).write_bytes(sign_move(a, other))
    ok(c.ingest(inbox / first))  # C cannot tell: it is A's only commitment C has seen
    for s, coins in (("B", 5), ("C", 4)):
        p = players[s]
        send_all(players, s, new_move(ok(p.submit({"kind": "bid", "side": s, "round": 1, "coins": coins}))))
    ruling = new_move(ok(gc.run("rule", gc.dir, gc.write_orders({"reserve": 0}), "--key", "control", "--yes")))
    ok(gc.send(b, [ruling]))
    res = gc.send(c, [ruling])
    assert res.code == 2 and "the umpire's ruling answers other commitments" in res.err
    assert "a side may have signed two (a split); compare move-0001 to move-0003" in res.err
    assert res.err.rstrip().endswith("reveal nothing until they agree [P8]")
    res = c.run("reveal", c.dir, "--key", c.name, "--yes")
    assert res.code == 2 and not any(p.name.startswith("move-0006") for p in c.dir.iterdir())
    # the two signatures: C shown the commitment Game Control holds sees A signed two bodies [P7]
    res = c.ingest(gc.dir / first)
    assert res.code == 2 and "A signed two different moves for step 1" in res.err
