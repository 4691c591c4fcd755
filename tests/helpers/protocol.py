"""Shared helpers for the protocol, engine and CLI tests: players with their own pbem home, a toy
game between them, and ways to forge messages (the attacks).

Every player has a separate ``PBEM_HOME`` (keys, seeds, P7 records) and a separate game directory,
exactly as two people on two machines; files travel between them only by :meth:`Player.send`.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers.paths import DATA, ROOT

TOY = DATA / "toy-duel.json"
GAME_ID = "00112233445566778899aabbccddeeff"
OTHER_GAME_ID = "ffeeddccbbaa99887766554433221100"
NONCE_A = "a1" * 32
NONCE_B = "b2" * 32
"""Fixed chain nonces (``--nonce``) so that the toy games of these tests roll the same dice on
every run (real players' tools draw fresh ones)."""

# Orders of a complete toy game (A and B alternate; step numbers in comments).
SCRIPT: list[tuple[str, dict[str, Any]]] = [
    ("A", {"kind": "setup", "side": "A", "handicap": 2}),  # 1 (no dice)
    ("B", {"kind": "setup", "side": "B", "handicap": 1}),  # 2 (no dice)
    ("A", {"kind": "roll", "side": "A", "round": 1, "dice": 2}),  # 3 (dice: keyed by B's reveal in 4)
    ("B", {"kind": "roll", "side": "B", "round": 1, "dice": 3, "cheer": "go"}),  # 4
    ("A", {"kind": "roll", "side": "A", "round": 2, "dice": 1}),  # 5
    ("B", {"kind": "roll", "side": "B", "round": 2, "dice": 2}),  # 6
    ("A", {"kind": "acknowledge", "side": "A"}),  # 7 (closes the archive)
]


def example_keys(home: Path, *names: str) -> None:
    """Import the two example keys of ``examples/keys/`` into ``home`` as ``names`` (two): with a
    fixed game id and chain nonce a game then rolls the same dice on every run (the dice chains'
    seeds are derived from the keys), so a bot's playthrough is the same game each time."""
    keys = ROOT / "examples" / "keys"
    for name, key in zip(names, ("example-de.key", "example-us.key"), strict=True):
        ok(pbem("key", "import", keys / key, "--name", name, "--no-passphrase", home=home))


@dataclass
class Result:
    code: int
    out: str
    err: str


@contextlib.contextmanager
def env(**values: str | None) -> Iterator[None]:
    old = {k: os.environ.get(k) for k in values}
    try:
        for k, v in values.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def pbem(*args: str | Path, home: Path) -> Result:
    """Run the ``pbem`` command in-process with ``PBEM_HOME=home``; never raises."""
    from pbem.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with env(PBEM_HOME=str(home), PBEM_PASSPHRASE=""), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        try:
            main([str(a) for a in args])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return Result(code, out.getvalue(), err.getvalue())


def ok(result: Result) -> Result:
    assert result.code == 0, f"exit {result.code}: {result.err}{result.out}"
    return result


class Player:
    """One person: a pbem home with one key, a game directory, an outbox of files to send."""

    def __init__(self, root: Path, name: str, side: str) -> None:
        self.name = name
        self.side = side
        self.home = root / f"home-{name}"
        self.dir = root / f"game-{name}"
        self.work = root / f"work-{name}"
        self.work.mkdir(parents=True, exist_ok=True)
        self.counter = 0

    def run(self, *args: str | Path) -> Result:
        return pbem(*args, home=self.home)

    def new_key(self) -> None:
        ok(self.run("key", "new", self.name))

    @property
    def pub(self) -> Path:
        return self.home / "keys" / f"{self.name}.pub"

    def private(self) -> Any:
        from pbem.protocol.keys import KeyStore

        return KeyStore(self.home).private(self.name, None)

    def write_orders(self, orders: dict[str, Any] | str) -> Path:
        import json

        self.counter += 1
        path = self.work / f"orders-{self.counter}.json"
        path.write_text(orders if isinstance(orders, str) else json.dumps(orders), encoding="utf-8")
        return path

    def submit(self, orders: dict[str, Any] | str) -> Result:
        return self.run("submit", "--yes", self.dir, self.write_orders(orders), "--key", self.name)

    def ingest(self, *files: Path) -> Result:
        return self.run("ingest", self.dir, *files)

    def send(self, other: Player, names: list[str]) -> Result:
        """Copy archive files to ``other``'s inbox and have them ingest them."""
        inbox = other.work / "inbox"
        inbox.mkdir(exist_ok=True)
        paths = []
        for name in names:
            target = inbox / name
            shutil.copyfile(self.dir / name, target)
            paths.append(target)
        return other.ingest(*paths)

    def seed(self) -> bytes:
        return bytes.fromhex((self.home / "games" / GAME_ID / f"{self.side}.seed").read_text().strip())


def written(result: Result) -> list[str]:
    return [Path(line).name for line in result.out.splitlines() if line.strip()]


def start_remote(root: Path, game_id: str = GAME_ID) -> tuple[Player, Player]:
    """A invites B by public key; B joins; A ingests the join. Each has its own home and directory."""
    a, b = Player(root, "alice", "A"), Player(root, "bob", "B")
    a.new_key()
    b.new_key()
    bob_pub = a.work / "bob.pub"
    shutil.copyfile(b.pub, bob_pub)
    res = ok(a.run("new", TOY, a.dir, "--player", "A=alice", "--player", f"B={bob_pub}",
                   "--game-id", game_id, "--nonce", NONCE_A))
    assert written(res) == ["scenario.json", "genesis.json"]
    shutil.copytree(a.dir, b.dir)
    res = ok(b.run("join", b.dir, "--key", "bob", "--nonce", NONCE_B))
    assert written(res) == ["join-B.json", "turn-0000.json"]
    res = ok(b.send(a, ["join-B.json"]))
    assert written(res) == ["join-B.json", "turn-0000.json"]
    return a, b


def bastogne_set_up(root: Path) -> tuple[Player, Player]:
    """A Bastogne Spearhead game between two homes: alice (DE) invites bob (US) by public key, bob
    joins and submits the U.S. set-up with the bot (no dice [9.1]), and alice ingests both."""
    a, b = Player(root, "alice", "DE"), Player(root, "bob", "US")
    a.new_key()
    b.new_key()
    shutil.copyfile(b.pub, a.work / "bob.pub")
    ok(a.run("new", "bastogne-spearhead", a.dir, "--player", "DE=alice", "--player", f"US={a.work / 'bob.pub'}",
             "--game-id", GAME_ID))
    shutil.copytree(a.dir, b.dir)
    ok(b.run("join", b.dir, "--key", "bob"))
    ok(b.send(a, ["join-US.json"]))
    ok(b.run("bot", b.dir, "--side", "US", "--key", "bob"))
    ok(b.send(a, ["move-0001-US.json"]))
    return a, b


def play(a: Player, b: Player, upto: int) -> None:
    """Play the first ``upto`` steps of :data:`SCRIPT`, each move sent to the other player."""
    players = {"A": a, "B": b}
    for step, (side, orders) in enumerate(SCRIPT[:upto], start=1):
        me = players[side]
        other = b if me is a else a
        ok(me.submit(orders))
        ok(me.send(other, [f"move-{step:04d}-{side}.json"]))


def listing(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.iterdir()) if p.is_file()}


def sign_move(player: Player, body: dict[str, Any], key: Any = None) -> bytes:
    """Sign an arbitrary move body with ``player``'s key (or ``key``), bypassing the tool."""
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.dsse import MOVE_TYPE, envelope_bytes, sign

    priv = key if key is not None else player.private()
    return envelope_bytes(sign(canonical_bytes(body), MOVE_TYPE, [priv]))


def move_body(path: Path) -> dict[str, Any]:
    import json

    from pbem.protocol.dsse import parse_envelope

    env = parse_envelope(path.read_bytes(), max_bytes=1 << 20, what=path.name)
    value: dict[str, Any] = json.loads(env.body())
    return value
