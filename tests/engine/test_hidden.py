"""Hidden information (P10): per-side views sealed by the umpire, turn files with only the state's
hash, and the umpire's publication after the game that makes every adjudication checkable.

Four people (bidders A, B, C and Game Control) of the toy ``auction-hidden`` [S6] play with their
own homes and directories, exchanging only files. A player's whole holding is searched for what
only another side may know; the umpire's reports and publication are attacked as a dishonest
umpire would.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import DATA
from helpers.protocol import GAME_ID, Player, move_body, ok, pbem, sign_move, written

from engine.test_umpire import start as start_game
from pbem.protocol.canonical import canonical_bytes

SCENARIO = DATA / "auction-hidden.json"
BIDS = [{"A": 2, "B": 7, "C": 3}, {"A": 5, "B": 1, "C": 4}]


def start(root: Path) -> dict[str, Player]:
    return start_game(root, SCENARIO)


def send_all(players: dict[str, Player], sender: str, res: Any) -> str:
    names = [n for n in written(res) if n.startswith("move-")]
    assert len(names) == 1, written(res)
    for t, p in players.items():
        if t != sender:
            ok(players[sender].send(p, names))
    return names[0]


def ack_all(players: dict[str, Player]) -> None:
    """Every bidder acknowledges the commitments and releases its copy's key to Game Control [29]."""
    for s in ("A", "B", "C"):
        p = players[s]
        send_all(players, s, ok(p.run("reveal", p.dir, "--key", p.name, "--yes")))


def play_round(players: dict[str, Player], round_: int, *, report: bool = True) -> None:
    for s, coins in BIDS[round_ - 1].items():
        send_all(players, s, ok(players[s].submit({"kind": "bid", "side": s, "round": round_, "coins": coins})))
    ack_all(players)
    gc = players["GC"]
    send_all(players, "GC", ok(gc.run("rule", gc.dir, "--key", "control", "--yes")))
    for s in ("A", "B", "C"):
        p = players[s]
        send_all(players, s, ok(p.run("reveal", p.dir, "--key", p.name, "--yes")))
    if report:
        send_all(players, "GC", ok(gc.run("report", gc.dir, "--key", "control", "--yes")))


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Player]:
    """A whole game (two rounds), the umpire's publication sent to everyone."""
    players = start(tmp_path_factory.mktemp("hidden"))
    play_round(players, 1)
    play_round(players, 2)
    gc = players["GC"]
    res = ok(gc.run("publish", gc.dir, "--key", "control"))
    assert "publication.json" in res.out
    return players


def holding(p: Player) -> bytes:
    return b"".join(q.read_bytes() for root in (p.dir, p.home) for q in sorted(root.rglob("*")) if q.is_file())


def test_s6_each_side_sees_its_own_holdings_only(tmp_path: Path) -> None:
    players = start(tmp_path)
    play_round(players, 1)
    # Round 1: B bid 7 and won (3 points, 3 coins left); A and C kept 10.
    for side, coins, points in (("A", 10, 0), ("B", 3, 3), ("C", 10, 0)):
        out = ok(players[side].run("status", players[side].dir, "--json")).out
        views = json.loads(out)["views"]
        assert views == {side: {"coins": {side: coins}, "over": False, "points": {side: points},
                                "round": 2, "rounds": 2, "winners": {"1": "B"}}}  # the winner is announced [S6]
    log = ok(players["A"].run("log", players["A"].dir)).out
    assert 'A sees: {"coins": {"A": 10}' in log and "B sees" not in log and "bids: " not in log
    assert '"winners": {"1": "B"}' in log
    gc_log = ok(players["GC"].run("log", players["GC"].dir)).out
    assert "round 1 bids: A 2, B 7, C 3" in gc_log  # the umpire sees everything
    turn = json.loads((players["A"].dir / "turn-0011.json").read_text())
    assert set(turn["state"]) == {"hidden"} and turn["events"] == [] and turn["score"] == {}
    files = [{q.name: q.read_bytes() for q in p.dir.glob("*.json")} for p in players.values()]
    assert all(f == files[0] for f in files)  # every public archive byte-identical [P6]


def test_p10_nothing_a_holds_reveals_b_or_c(tmp_path: Path) -> None:
    players = start(tmp_path)
    play_round(players, 1)
    play_round(players, 2, report=False)  # mid-round: every bid of round 2 is committed and revealed
    a = players["A"]
    view = holding(a)
    for s in ("B", "C"):
        for r, bids in enumerate(BIDS, 1):
            order = canonical_bytes({"coins": bids[s], "kind": "bid", "round": r, "side": s})
            assert order not in view and order[1:-1] not in view
    # B's holdings after round 1 (3 coins, 3 points) appear nowhere in A's holding
    for fragment in (b'"B":3', b'"B": 3', b'"coins":{"B"', b'"points":{"B"'):
        assert fragment not in view, fragment
    # and A cannot open B's view with any key A holds (the attack's sanity check: B can)
    from pbem.protocol.seal import open_sealed, x25519_private

    report = move_body(a.dir / "move-0011-GC.json")["orders"]["report"]
    for side in ("A", "B", "C", "GC"):
        with pytest.raises(Exception, match="does not open"):
            open_sealed(report["views"]["B"], x25519_private(a.private(), GAME_ID, side), game=GAME_ID,
                        step=11, sender="GC", to="B", what="report")
    b_view = open_sealed(report["views"]["B"], x25519_private(players["B"].private(), GAME_ID, "B"),
                         game=GAME_ID, step=11, sender="GC", to="B", what="report")
    assert b_view["coins"] == {"B": 3}


def test_p10_after_publication_anyone_verifies_everything(finished: dict[str, Player], tmp_path: Path) -> None:
    a = finished["A"]
    ok(finished["GC"].send(a, ["publication.json"]))
    res = pbem("verify", a.dir, home=tmp_path / "stranger")
    assert res.code == 0, res.err
    assert "every sealed order opened, every state and report recomputed" in res.out
    assert "outcome" in res.out


def test_p10_a_report_that_lies_is_named_after_publication(finished: dict[str, Player], tmp_path: Path) -> None:
    # GC's modified client signs a final report that gives the game to C. The players cannot tell
    # (they trust the umpire for what it hides) -- but with the publication, verify names it.
    gc = finished["GC"]
    copy = tmp_path / "lying"
    shutil.copytree(gc.dir, copy)
    body = move_body(copy / "move-0022-GC.json")
    rep = body["orders"]["report"]
    assert rep["outcome"]["winner"] == "A"  # A and B 3 points each; A has more coins left [S4]
    rep["outcome"] = {**rep["outcome"], "winner": "C", "summary": "C wins [S4]"}
    (copy / "move-0022-GC.json").write_bytes(sign_move(gc, body))
    (copy / "turn-0022.json").unlink()
    pub = copy / "publication.json"
    held = pub.read_bytes()
    pub.unlink()
    res = pbem("verify", copy, home=tmp_path / "stranger")
    assert res.code == 0, res.err  # without the publication the lie cannot be seen
    pub.write_bytes(held)
    res = pbem("verify", copy, home=tmp_path / "stranger")
    assert res.code == 1 and "move-0022-GC.json" in res.err and "[P10]" in res.err, res.err


def test_p10_a_publication_that_changes_an_order_is_named(finished: dict[str, Player], tmp_path: Path) -> None:
    gc = finished["GC"]
    copy = tmp_path / "forged-publication"
    shutil.copytree(gc.dir, copy)
    from pbem.engine.sealed import PUBLICATION_TYPE
    from pbem.protocol.dsse import envelope_bytes, parse_envelope, sign

    env = parse_envelope((copy / "publication.json").read_bytes(), max_bytes=1 << 24, what="publication")
    value = json.loads(env.body())
    value["orders"]["2"]["orders"]["coins"] = 1  # B's round-1 bid of 7 published as 1
    forged = envelope_bytes(sign(canonical_bytes(value), PUBLICATION_TYPE, [gc.private()]))
    (copy / "publication.json").write_bytes(forged)
    res = pbem("verify", copy, home=tmp_path / "stranger")
    assert res.code == 1 and "publication.json" in res.err and "do not match its commitment" in res.err
    # and a publication signed by anyone but the umpire is refused
    (copy / "publication.json").write_bytes(
        envelope_bytes(sign(canonical_bytes(value), PUBLICATION_TYPE, [finished["A"].private()])))
    res = pbem("verify", copy, home=tmp_path / "stranger")
    assert res.code == 1 and "publication.json" in res.err


def test_p10_reveal_in_clear_is_refused_in_a_hidden_game(tmp_path: Path) -> None:
    players = start(tmp_path)
    for s, coins in BIDS[0].items():
        send_all(players, s, ok(players[s].submit({"kind": "bid", "side": s, "round": 1, "coins": coins})))
    ack_all(players)
    gc = players["GC"]
    send_all(players, "GC", ok(gc.run("rule", gc.dir, "--key", "control", "--yes")))
    a, b = players["A"], players["B"]
    body = move_body(a.dir / "move-0001-A.json")
    from pbem.engine.sealed import derive_salt
    from pbem.protocol.dice import reveal as chain_reveal

    turn7 = __import__("hashlib").sha256((a.dir / "turn-0007.json").read_bytes()).hexdigest()
    clear = {**body, "step": 8, "answers": turn7, "reveal": chain_reveal(a.seed(), 512, 3).hex(),
             "orders": {"orders": {"coins": 2, "kind": "bid", "round": 1, "side": "A"},
                        "salt": derive_salt(a.seed(), GAME_ID, 1, "A").hex()}}
    inbox = b.work / "clear"
    inbox.mkdir()
    (inbox / "move-0008-A.json").write_bytes(sign_move(a, clear))
    res = b.ingest(inbox / "move-0008-A.json")
    assert res.code != 0 and "reveal carries only" in res.err and "[P8, P10]" in res.err


def test_p10_a_player_checks_its_own_views_against_the_publication(finished: dict[str, Player], tmp_path: Path) -> None:
    # GC's final report tells the truth about the state, pending and outcome, but seals to A a view
    # that is not A's (A is told it kept 99 coins). A stranger cannot see it; A's own verify can.
    from pbem.protocol.seal import public_from_hex, seal

    a, gc = finished["A"], finished["GC"]
    ok(gc.send(a, ["publication.json"]))
    res = ok(a.run("verify", a.dir))
    assert "every view the umpire sealed to A is that side's view" in res.out
    copy = tmp_path / "lying-view"
    shutil.copytree(a.dir, copy)
    body = move_body(copy / "move-0022-GC.json")
    genesis = json.loads(__import__("base64").b64decode(json.loads((copy / "genesis.json").read_text())["payload"]))
    a_key = genesis["sides"]["A"].get("x25519") or move_body(copy / "join-A.json")["x25519"]
    fake = {"coins": {"A": 99}, "over": True, "points": {"A": 0}, "round": 2, "rounds": 2, "winners": {}}
    body["orders"]["report"]["views"]["A"] = seal(fake, public_from_hex(a_key), game=GAME_ID, step=22,
                                                  sender="GC", to="A", what="report")
    (copy / "move-0022-GC.json").write_bytes(sign_move(gc, body))
    (copy / "turn-0022.json").unlink()
    assert pbem("verify", copy, home=tmp_path / "stranger").code == 0  # nothing public is wrong
    res = a.run("verify", copy)
    assert res.code == 1 and "move-0022-GC.json" in res.err and "sealed to A" in res.err, res.err


def test_p10_sealed_lengths_do_not_tell_values_apart() -> None:
    # A bid of 2 and a bid of 10 (or a view with 10 coins and one with 7) seal to ciphertexts of
    # the same length: padding to PAD_TO bytes (or its next power of two) before encryption.
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    from pbem.protocol.seal import open_sealed, seal

    key = X25519PrivateKey.from_private_bytes(bytes(range(32)))
    sizes = set()
    for coins in (0, 2, 10, 999):
        value = {"orders": {"coins": coins, "kind": "bid", "round": 1, "side": "A"}, "salt": "ab" * 32}
        text = seal(value, key.public_key(), game=GAME_ID, step=1, sender="A", to="GC", what="sealed orders")
        sizes.add(len(text))
        assert open_sealed(text, key, game=GAME_ID, step=1, sender="A", to="GC", what="sealed orders") == value
    assert len(sizes) == 1


def test_a_report_view_is_deflated_then_padded_and_the_older_form_still_opens() -> None:
    # issue 28: a side's view in the umpire's report is deflated before it is padded; the padding
    # (the bucket of PAD_TO, 4096 bytes, or the next power of two) hides the deflated length. A
    # view of 20,000 bytes of JSON pads to 32 KiB plain, to 4 KiB deflated (it repeats itself).
    import base64

    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    from pbem.errors import InputError
    from pbem.protocol.seal import open_sealed, padded_length, plaintext, seal

    key = X25519PrivateKey.from_private_bytes(bytes(range(32)))
    view = {"units": [{"id": f"u{i:04d}", "hex": "1116", "state": "in good order"} for i in range(400)]}
    raw = canonical_bytes(view)
    assert 16384 < len(raw) < 32768 and padded_length(len(raw)) == 32768
    packed = plaintext(view, compress=True)
    assert packed[:1] == b"x" and len(packed) <= 4096
    where = {"game": GAME_ID, "step": 5, "sender": "GC", "to": "A", "what": "report"}
    new = seal(view, key.public_key(), compress=True, **where)  # type: ignore[arg-type]
    old = seal(view, key.public_key(), **where)  # type: ignore[arg-type]
    overhead = 16 + 32  # the AEAD tag and the encapsulated X25519 key
    assert len(base64.b64decode(new)) == 4096 + overhead and len(base64.b64decode(old)) == 32768 + overhead
    assert open_sealed(new, key, **where) == view == open_sealed(old, key, **where)  # type: ignore[arg-type]
    # padded to one length with a longer view's bucket, as a report does
    assert len(base64.b64decode(seal(view, key.public_key(), compress=True, pad_to=8192, **where))) == 8192 + overhead  # type: ignore[arg-type]
    # a deflated stream cut short or followed by anything but the padding does not open
    from pbem.protocol import seal as seal_module

    for bad in (packed[:-3], packed + b"junk"):
        data = bad + b" " * (4096 - len(bad))
        text = base64.b64encode(seal_module._SUITE.encrypt(data, key.public_key(), seal_module._info(
            GAME_ID, 5, "GC", "A", "report"))).decode()
        with pytest.raises(InputError):
            open_sealed(text, key, **where)  # type: ignore[arg-type]


def test_players_check_and_commit_against_their_own_view_in_any_order(tmp_path: Path) -> None:
    # Found by a first-time user: in a hidden game 'pbem orders', 'pbem check', 'submit --dry-run'
    # and a round-2 commitment before another side's had arrived all failed (the state they were
    # written against is hidden). They work against the side's own view.
    players = start(tmp_path)
    play_round(players, 1)
    a, c = players["A"], players["C"]
    skeleton = json.loads(ok(c.run("orders", c.dir, "--side", "C")).out)
    assert skeleton == {"coins": 0, "kind": "bid", "round": 2, "side": "C"}
    path = c.write_orders({"kind": "bid", "side": "C", "round": 2, "coins": 12})
    res = c.run("check", c.dir, path, "--key", "carol")
    assert res.code == 2 and "C bids 12 coins but holds 10 [S2]" in res.err  # checked against C's view
    path = c.write_orders({"kind": "bid", "side": "C", "round": 2, "coins": 4})
    shown = ok(c.run("submit", c.dir, path, "--key", "carol", "--dry-run"))
    assert "C bids 4 coins in round 2" in shown.out and "sealed" in shown.out
    # A commits first; C commits before A's commitment reaches it, then they cross
    name_a = [n for n in written(ok(a.submit({"kind": "bid", "side": "A", "round": 2, "coins": 1})))
              if n.startswith("move-")][0]
    name_c = [n for n in written(ok(c.submit({"kind": "bid", "side": "C", "round": 2, "coins": 4})))
              if n.startswith("move-")][0]
    assert name_c == "move-0014-C.json"  # C's slot, whatever arrived first
    assert "received from C" in json.loads(ok(c.run("status", c.dir, "--json")).out)["waiting"]
    # two files given in the wrong order in one ingest are taken in step order
    gc = players["GC"]
    res = ok(gc.run("ingest", gc.dir, c.dir / name_c, a.dir / name_a))
    assert {name_a, name_c} <= set(written(res))


def test_p10_a_players_viewer_site_shows_only_its_own_view(finished: dict[str, Player], tmp_path: Path) -> None:
    a = finished["A"]
    copy = tmp_path / "a-game"
    shutil.copytree(a.dir, copy)
    (copy / "publication.json").unlink(missing_ok=True)  # before the publication
    out = tmp_path / "site"
    ok(a.run("html", copy, "-o", out))
    text = (out / "index.html").read_text(encoding="utf-8")
    assert "A sees:" in text and "B sees" not in text and "C sees" not in text
    assert "bids: " not in text and '\\"B\\": 7' not in text and '"B": 7' not in text


def test_p10_a_publication_larger_than_a_move_is_ingested_and_a_move_that_large_is_not(finished: dict[str, Player],
                                                                                     tmp_path: Path) -> None:
    # a whole-operation megagame's publication comes near 1 MiB (every sealed order); a move file
    # keeps its own limit
    from pbem.engine.sealed import PUBLICATION_TYPE
    from pbem.protocol.canonical import MAX_MOVE_BYTES
    from pbem.protocol.dsse import envelope_bytes, parse_envelope, sign

    gc, a = finished["GC"], finished["A"]
    env = parse_envelope((gc.dir / "publication.json").read_bytes(), max_bytes=1 << 24, what="publication")
    value = json.loads(env.body())
    big = envelope_bytes(sign(canonical_bytes({**value, "note": " " * (MAX_MOVE_BYTES + 10)}),
                              PUBLICATION_TYPE, [gc.private()]))
    assert len(big) > MAX_MOVE_BYTES
    copy = tmp_path / "a"
    shutil.copytree(a.dir, copy)
    (tmp_path / "publication.json").write_bytes(big)
    res = pbem("ingest", copy, tmp_path / "publication.json", home=a.home)
    assert "too large" not in res.err  # read and checked as a publication, whatever it says then
    from pbem.protocol.dsse import MOVE_TYPE

    fat = tmp_path / "move-0099-A.json"
    fat.write_bytes(envelope_bytes(sign(canonical_bytes({"x": " " * (MAX_MOVE_BYTES + 10)}), MOVE_TYPE,
                                        [a.private()])))
    res = pbem("ingest", copy, fat, home=a.home)
    assert res.code == 2 and "too large" in res.err


def test_the_umpires_checkpoint_inside_the_first_round_is_used(tmp_path: Path) -> None:
    # Inside round 1 every turn carries the hash of turn 0 -- the public initial state, hashed
    # plainly -- while later states are hashed with the umpire's salt: the umpire's checkpoint
    # taken there must still be found sound (and not silently replaced by a replay from the start).
    from helpers.protocol import env

    from pbem.engine.gamedir import open_checked
    from pbem.protocol.localstate import LocalGame, local_seeds

    players = start(tmp_path)
    play_round(players, 1, report=False)  # 3 commitments, 3 acknowledgements, the ruling, 3 reveals: step 10
    gc = players["GC"]
    ok(gc.run("status", gc.dir))  # leaves a checkpoint a couple of steps behind
    with env(PBEM_HOME=str(gc.home), PBEM_PASSPHRASE=""):
        game = open_checked(gc.dir)
        local = LocalGame.of(game)
        rp = game.replay(local_seeds(game, local), local=local)
    assert rp.base > 0 and rp.records[0].round is not None and rp.records[0].round.base == 0


def test_29_a_report_with_swapped_views_is_refused_at_ingest(tmp_path: Path) -> None:
    # GC's modified client seals A's view to B and B's to A (each validly sealed to the wrong side)
    # and signs the report: A's pbem opens its own view when the report arrives and refuses it.
    players = start(tmp_path)
    play_round(players, 1, report=False)
    gc, a = players["GC"], players["A"]
    res = ok(gc.run("report", gc.dir, "--key", "control", "--yes"))
    name = next(n for n in written(res) if n.startswith("move-"))
    body = move_body(gc.dir / name)
    views = body["orders"]["report"]["views"]
    views["A"], views["B"] = views["B"], views["A"]
    inbox = a.work / "swapped"
    inbox.mkdir()
    (inbox / name).write_bytes(sign_move(gc, body))
    before = sorted(q.name for q in a.dir.iterdir())
    res = a.ingest(inbox / name)
    assert res.code == 2 and name in res.err and "the view sealed to A does not open with A's key" in res.err
    assert sorted(q.name for q in a.dir.iterdir()) == before  # nothing archived
    # the true report is taken; A's verify says its own view was opened
    ok(gc.send(a, [name]))
    res = ok(a.run("verify", a.dir))
    assert "every view the umpire sealed to A opens with that side's key" in res.out
    # smuggled into a copy of A's directory, A's verify names it; a stranger cannot tell
    copy = tmp_path / "smuggled"
    shutil.copytree(a.dir, copy)
    (copy / name).write_bytes(sign_move(gc, body))
    (copy / f"turn-{int(name[5:9]):04d}.json").unlink()
    assert pbem("verify", copy, home=tmp_path / "stranger").code == 0
    res = a.run("verify", copy)
    assert res.code == 1 and name in res.err and "sealed to A does not open" in res.err, res.err


def test_28_the_umpires_report_resolves_the_round_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`pbem report` works out the round to write the report; placing it reuses that (it resolved
    twice), and the report is still checked when it arrives on another machine."""
    from pbem.systems.auction import HiddenAuctionRules

    players = start(tmp_path)
    play_round(players, 1, report=False)
    calls: list[int] = []
    original = HiddenAuctionRules.resolve_round

    def counting(self: HiddenAuctionRules, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(HiddenAuctionRules, "resolve_round", counting)
    gc = players["GC"]
    send_all(players, "GC", ok(gc.run("report", gc.dir, "--key", "control", "--yes")))
    assert len(calls) == 1
    ok(gc.run("verify", gc.dir))  # the umpire's verify recomputes it: once more
    assert len(calls) == 2
