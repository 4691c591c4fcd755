"""P3 against an inviter who re-uses a game id: the opponent's dice chain must never repeat.

The attack (found by playing as a hostile opponent with a modified client): Alice and Bob finish a
game; Bob's chain values (his commitment and every reveal) are public in its archive. Alice then
invites Bob to a *second* game with the *same* game id (pbem's hidden ``--game-id``) and a longer
``chain_length``. If Bob's chain seed depended only on his key, the game id and the side, every value
of his new chain would be a forward SHA-256 hash of a value he revealed in the first game: Alice could
compute his coming reveals, try candidate orders in a copy, see each one's rolls and sign the one
she likes.

What now holds (``docs/protocol.md``, "Chain nonces"):

* Bob's tool draws a fresh 32-byte nonce at ``pbem join`` and publishes it in his signed join; his
  seed is HKDF(key, game, side, nonce). Nobody else chooses it, so no game id, option or genesis
  Alice picks makes his chain repeat -- also on a fresh machine that remembers nothing.
* On the machine where Bob played the first game, the second invitation is refused by name: its
  local state is bound to the first genesis.
* A genesis may not carry a nonce for an invited side (a modified inviter's client cannot choose it).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from helpers.protocol import (
    GAME_ID,
    SCRIPT,
    TOY,
    Player,
    move_body,
    ok,
    play,
    start_remote,
    written,
)

from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.dice import chain_head, chain_seed, roll_key


def sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def forward_closure(values: list[bytes], steps: int) -> set[bytes]:
    """Every value Alice can compute from public ones: each value hashed 0..steps times."""
    out: set[bytes] = set()
    for v in values:
        for _ in range(steps + 1):
            out.add(v)
            v = sha(v)
    return out


def public_chain_of(player_dir: Path, side: str) -> list[bytes]:
    """The side's commitment and every reveal, read from an archive (public data only)."""
    values = [bytes.fromhex(move_body(player_dir / f"join-{side}.json")["commitment"])]
    for path in sorted(player_dir.glob(f"move-*-{side}.json")):
        values.append(bytes.fromhex(move_body(path)["reveal"]))
    return values


def fresh_machine(root: Path, like: Player) -> Player:
    """The same person with the same key on a machine that remembers nothing else."""
    p = Player(root, like.name, like.side)
    (p.home / "keys").mkdir(parents=True)
    for suffix in (".key", ".pub"):
        shutil.copyfile(like.home / "keys" / f"{like.name}{suffix}", p.home / "keys" / f"{like.name}{suffix}")
    return p


def invite_again(alice: Player, bob: Player, game_dir: Path, chain_length: int) -> Path:
    bob_pub = alice.work / "bob.pub"
    shutil.copyfile(bob.pub, bob_pub)
    ok(alice.run("new", TOY, game_dir, "--player", "A=alice", "--player", f"B={bob_pub}",
                 "--game-id", GAME_ID, "--option", f"chain_length={chain_length}"))
    return game_dir


def test_p3_an_inviter_reusing_a_game_id_cannot_predict_the_opponents_reveals(tmp_path: Path) -> None:
    # Game 1, played to the end of round 2: Bob revealed three chain values.
    a, b = start_remote(tmp_path / "first")
    play(a, b, 6)
    bob_game1 = public_chain_of(a.dir, "B")
    assert len(bob_game1) == 4

    # Game 2: same id, a chain 8 links longer (the modified client dropped its own local state).
    alice2 = fresh_machine(tmp_path / "second", a)
    invite_again(alice2, b, alice2.dir, 520)

    # Bob's usual machine names the re-used id and writes nothing.
    before = sorted(p.relative_to(b.home) for p in b.home.rglob("*"))
    refused = b.run("join", tmp_path / "bob-game2", "--key", "bob", "--invitation", alice2.dir / "genesis.json")
    assert refused.code == 2, refused.err
    assert "already plays another game with id" in refused.err and "[P3]" in refused.err
    assert not (tmp_path / "bob-game2").exists()
    assert sorted(p.relative_to(b.home) for p in b.home.rglob("*")) == before

    # Bob on a fresh machine (or after losing his files) joins: his tool draws a fresh nonce.
    bob2 = fresh_machine(tmp_path / "second", b)
    res = ok(bob2.run("join", bob2.dir, "--key", "bob", "--invitation", alice2.dir / "genesis.json"))
    assert "join-B.json" in written(res)
    ok(bob2.send(alice2, ["join-B.json"]))

    # Sanity of the attack: had Bob's seed been the same as in game 1 (the old derivation, or a
    # nonce the inviter could choose), his new commitment would be in Alice's reach.
    nonce1 = bytes.fromhex(move_body(b.dir / "join-B.json")["nonce"])
    old_seed = chain_seed(b.private(), GAME_ID, "B", nonce1)
    assert chain_head(old_seed, 520) in forward_closure(bob_game1, 8)

    # The play of game 2: Alice's random decision at step 3 is resolved by Bob's reveal in move 4.
    for step, (side, orders) in enumerate(SCRIPT[:4], start=1):
        me, other = (alice2, bob2) if side == "A" else (bob2, alice2)
        ok(me.submit(orders))
        ok(me.send(other, [f"move-{step:04d}-{side}.json"]))

    bob_game2 = public_chain_of(alice2.dir, "B")
    reach = forward_closure(bob_game1, 2 * 520)
    for value in bob_game2:
        assert value not in reach  # no value of Bob's new chain is computable from game 1

    # Alice's modified client predicted the dice of move 3 from every value it could compute:
    m3 = move_body(alice2.dir / "move-0003-A.json")
    m3_hash = hashlib.sha256(canonical_bytes(m3)).hexdigest()
    r_a = bytes.fromhex(m3["reveal"])
    turn3 = json.loads((alice2.dir / "turn-0003.json").read_bytes())
    actual = bytes.fromhex(turn3["roll_key"])
    assert turn3["reveals"] == [m3["reveal"], move_body(alice2.dir / "move-0004-B.json")["reveal"]]
    assert all(roll_key(GAME_ID, 3, m3_hash, [r_a, c]) != actual for c in reach)

    # and both games still verify for a stranger
    for d in (a.dir, alice2.dir):
        assert ok(a.run("verify", d)).out.rstrip().endswith("OK")


def test_p3_a_genesis_may_not_choose_the_invited_sides_nonce(tmp_path: Path) -> None:
    """A modified inviter's client writes a nonce (and so a chain) for the invited side: refused."""
    from pbem.protocol.dsse import GENESIS_TYPE, envelope_bytes, parse_envelope, sign

    alice = Player(tmp_path, "alice", "A")
    bob = Player(tmp_path, "bob", "B")
    alice.new_key()
    bob.new_key()
    game_dir = invite_again(alice, bob, alice.dir, 512)
    body = json.loads(parse_envelope((game_dir / "genesis.json").read_bytes(), max_bytes=1 << 20,
                                     what="genesis").body())
    body["sides"]["B"]["nonce"] = "00" * 32  # the inviter's choice, for Bob
    forged = tmp_path / "forged"
    forged.mkdir()
    shutil.copyfile(game_dir / "scenario.json", forged / "scenario.json")
    (forged / "genesis.json").write_bytes(
        envelope_bytes(sign(canonical_bytes(body), GENESIS_TYPE, [alice.private()])))
    res = bob.run("join", tmp_path / "bob-game", "--key", "bob", "--invitation", forged / "genesis.json")
    assert res.code == 2 and "nonce" in res.err, res.err
    assert not (tmp_path / "bob-game").exists()


def test_p3_nonces_are_published_and_recover_a_lost_seed(tmp_path: Path) -> None:
    """The nonce is public, so the private key alone recovers a lost seed file (status, orders)."""
    a, b = start_remote(tmp_path)
    genesis = move_body(a.dir / "genesis.json")
    join = move_body(a.dir / "join-B.json")
    assert len(bytes.fromhex(genesis["sides"]["A"]["nonce"])) == 32
    assert genesis["sides"]["B"]["nonce"] is None and genesis["sides"]["B"]["commitment"] is None
    assert len(bytes.fromhex(join["nonce"])) == 32
    # Alice's and Bob's nonces were drawn by their own tools
    assert join["nonce"] != genesis["sides"]["A"]["nonce"]

    play(a, b, 3)  # A's random move 3 is archived at B's: B's tool resolves it from B's own seed
    seed_file = b.home / "games" / GAME_ID / "B.seed"
    expected = seed_file.read_bytes()
    for command in (("status", b.dir), ("orders", b.dir, "--side", "B")):
        seed_file.unlink()
        res = ok(b.run(*command))
        assert seed_file.read_bytes() == expected, command
        if command[0] == "status":
            assert "pending   B" in res.out  # turn 3 resolved with the re-derived seed
