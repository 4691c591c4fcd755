"""The game commands from the outside: a table of bad inputs (exit 2, one line, no traceback,
nothing written), illegal orders reported all at once, and the read-only commands' output."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.protocol import (
    OTHER_GAME_ID,
    SCRIPT,
    TOY,
    Player,
    Result,
    move_body,
    ok,
    pbem,
    play,
    sign_move,
    start_remote,
)


def snapshot(*roots: Path) -> dict[str, bytes]:
    out = {}
    for root in roots:
        if root.exists():
            for p in sorted(root.rglob("*")):
                if p.is_file():
                    out[str(p)] = p.read_bytes()
    return out


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Player, Player, dict]:  # type: ignore[type-arg]
    """Steps 1-2 played; A's step-3 move prepared (signed by A) but not sent to B."""
    root = tmp_path_factory.mktemp("cli")
    a, b = start_remote(root)
    play(a, b, 2)
    spare = Player(root, "alice", "A")
    spare.dir = root / "alice-spare"
    import shutil

    shutil.copytree(a.dir, spare.dir)
    ok(spare.submit(SCRIPT[2][1]))
    body = move_body(spare.dir / "move-0003-A.json")
    (root / "carol-home").mkdir()
    ok(pbem("key", "new", "carol", home=root / "carol-home"))
    return a, b, body


def orders_case(text: str | bytes) -> Callable[[Player, Player, dict, Path], Result]:  # type: ignore[type-arg]
    def run(a: Player, b: Player, body: dict, tmp: Path) -> Result:  # type: ignore[type-arg]
        path = tmp / "orders.json"
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        return a.run("submit", "--yes", a.dir, path, "--key", "alice")
    return run


def ingest_case(make: Callable[[Player, dict], bytes], name: str = "move.json") -> Callable[..., Result]:
    def run(a: Player, b: Player, body: dict, tmp: Path) -> Result:  # type: ignore[type-arg]
        path = tmp / name
        path.write_bytes(make(a, body))
        return b.ingest(path)
    return run


def flipped_sig(a: Player, body: dict) -> bytes:  # type: ignore[type-arg]
    from pbem.protocol.canonical import canonical_bytes

    env = json.loads(sign_move(a, body))
    sig = bytearray(base64.b64decode(env["signatures"][0]["sig"]))
    sig[5] ^= 0x80
    env["signatures"][0]["sig"] = base64.b64encode(bytes(sig)).decode()
    return canonical_bytes(env) + b"\n"


GOOD_ROLL = '{"kind": "roll", "side": "A", "round": 1, "dice": 2}'

CASES: dict[str, Callable[..., Result]] = {
    "orders: malformed JSON": orders_case('{"kind": "roll",'),
    "orders: not UTF-8": orders_case(b'{"kind": "\xff"}'),
    "orders: wrong type": orders_case('{"kind": "roll", "side": "A", "round": "1", "dice": 2}'),
    "orders: unknown field": orders_case('{"kind": "roll", "side": "A", "round": 1, "dice": 2, "x": 1}'),
    "orders: unknown kind": orders_case('{"kind": "fly", "side": "A"}'),
    "orders: duplicate keys": orders_case('{"kind": "roll", "kind": "roll", "side": "A", "round": 1}'),
    "orders: float": orders_case('{"kind": "roll", "side": "A", "round": 1, "dice": 2.0}'),
    "orders: NaN": orders_case('{"kind": "roll", "side": "A", "round": 1, "dice": NaN}'),
    "orders: oversize": orders_case('{"kind": "roll", "cheer": "' + "x" * 400_000 + '"}'),
    "orders: not an object": orders_case("[1, 2]"),
    "submit: unknown key": lambda a, b, body, tmp: a.run(
        "submit", "--yes", a.dir, _write(tmp, GOOD_ROLL), "--key", "nokey"),
    "submit: key of no side": lambda a, b, body, tmp: pbem(
        "submit", "--yes", a.dir, _write(tmp, GOOD_ROLL), "--key", "carol", home=a.dir.parent / "carol-home"),
    "submit: not your decision": lambda a, b, body, tmp: b.run(
        "submit", "--yes", b.dir, _write(tmp, GOOD_ROLL), "--key", "bob"),
    "submit: missing orders file": lambda a, b, body, tmp: a.run(
        "submit", "--yes", a.dir, tmp / "nope.json", "--key", "alice"),
    "ingest: garbage": ingest_case(lambda a, body: b"hello"),
    "ingest: JSON but no envelope": ingest_case(lambda a, body: b'{"payloadType": 1}'),
    "ingest: duplicate keys": ingest_case(lambda a, body: b'{"payload": "", "payload": ""}'),
    "ingest: oversize": ingest_case(lambda a, body: b" " * 300_000 + b"{}"),
    "ingest: another game": ingest_case(lambda a, body: sign_move(a, dict(body, game=OTHER_GAME_ID))),
    "ingest: another step": ingest_case(lambda a, body: sign_move(a, dict(body, step=5))),
    "ingest: wrong signature": ingest_case(flipped_sig),
    "ingest: not canonical": ingest_case(lambda a, body: sign_move(a, body).replace(b",", b", ", 1)),
    "ingest: malformed body": ingest_case(lambda a, body: sign_move(a, dict(body, step="3"))),
    "ingest: illegal orders": ingest_case(lambda a, body: sign_move(a, dict(body, orders=dict(body["orders"], dice=9)))),
    "ingest: unreadable eml": ingest_case(lambda a, body: b"not an email", name="reply.eml"),
    "new: existing game dir": lambda a, b, body, tmp: a.run(
        "new", TOY, a.dir, "--player", "A=alice", "--player", "B=alice"),
    "new: unknown scenario": lambda a, b, body, tmp: a.run(
        "new", "no-such-scenario", tmp / "g1", "--player", "A=alice", "--player", "B=alice"),
    "new: side missing": lambda a, b, body, tmp: a.run("new", TOY, tmp / "g2", "--player", "A=alice"),
    "new: unknown side": lambda a, b, body, tmp: a.run(
        "new", TOY, tmp / "g3", "--player", "A=alice", "--player", "B=alice", "--player", "Z=alice"),
    "new: bad option": lambda a, b, body, tmp: a.run(
        "new", TOY, tmp / "g4", "--player", "A=alice", "--player", "B=alice", "--option", "chain_length=x"),
    "new: bad game id": lambda a, b, body, tmp: a.run(
        "new", TOY, tmp / "g5", "--player", "A=alice", "--player", "B=alice", "--game-id", "xyz"),
    "new: nobody local": lambda a, b, body, tmp: a.run(
        "new", TOY, tmp / "g6", "--player", f"A={b.pub}", "--player", f"B={b.pub}"),
    "orders: unknown side": lambda a, b, body, tmp: a.run("orders", a.dir, "--side", "Z"),
    "orders: not your turn": lambda a, b, body, tmp: a.run("orders", a.dir, "--side", "B"),
    "status: not a game": lambda a, b, body, tmp: a.run("status", tmp),
    "log: no such step": lambda a, b, body, tmp: a.run("log", a.dir, "--step", "99"),
    "join: nothing to join": lambda a, b, body, tmp: b.run("join", b.dir, "--key", "bob"),
}


def _write(tmp: Path, text: str) -> Path:
    path = tmp / "orders.json"
    path.write_text(text)
    return path


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_exit_2_one_line_nothing_written(game: tuple, case: str, tmp_path: Path) -> None:  # type: ignore[type-arg]
    a, b, body = game
    before = snapshot(a.dir, b.dir, a.home, b.home)
    res = CASES[case](a, b, body, tmp_path)
    assert res.code == 2, (case, res.code, res.err, res.out)
    lines = res.err.strip().splitlines()
    assert len(lines) == 1, (case, res.err)
    assert "Traceback" not in res.err and lines[0].startswith(("pbem: ", "Error: ", "Usage: ")), lines
    assert res.out == ""
    assert snapshot(a.dir, b.dir, a.home, b.home) == before, case
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("g")], case


def test_illegal_orders_report_every_violation_at_once(game: tuple, tmp_path: Path) -> None:  # type: ignore[type-arg]
    a, b, body = game
    before = snapshot(a.dir, a.home)
    res = a.run("submit", "--yes", a.dir, _write(tmp_path, '{"kind": "roll", "side": "A", "round": 2, "dice": 5}'),
                "--key", "alice")
    assert res.code == 2
    assert "2 problems" in res.err and "[T3]" in res.err
    assert "round 2" in res.err and "5 dice" in res.err
    assert snapshot(a.dir, a.home) == before


def test_status_orders_log_schema(game: tuple) -> None:  # type: ignore[type-arg]
    a, b, _body = game
    status = json.loads(ok(a.run("status", a.dir, "--json")).out)
    assert status["step"] == 2 and status["pending"] == [
        {"side": "A", "kind": "player-turn", "label": "Round 1, A rolls [T3]"}]
    assert status["score"] == {"A": 2, "B": 1}  # the two handicaps [T2]
    text = ok(a.run("status", a.dir)).out
    assert "awaiting  A: Round 1, A rolls [T3]" in text
    skeleton = json.loads(ok(a.run("orders", a.dir, "--side", "A")).out)
    assert skeleton == {"kind": "roll", "side": "A", "round": 1, "dice": 1, "cheer": ""}
    log = ok(a.run("log", a.dir)).out
    assert "step 2: B (move-0002-B.json)" in log and "B takes a handicap of 1" in log
    for what in ("move", "turn", "genesis", "join"):
        schema = json.loads(ok(a.run("schema", what)).out)
        assert schema.get("properties") or schema.get("oneOf") or schema.get("$defs"), what
    assert json.loads(ok(a.run("schema", "orders", "--system", "toy")).out)["title"] == "toy orders"
    westwall = json.loads(ok(a.run("schema", "orders", "--system", "westwall")).out)
    assert westwall.get("properties") or westwall.get("oneOf") or westwall.get("$defs")
    # orders belong to a system: the command assumes none [24]
    res = a.run("schema", "orders")
    assert res.code == 2 and res.err.startswith("pbem: name the rules system: pbem schema orders --system SYSTEM (one of ")
    assert "megagame" in res.err and "westwall" in res.err and res.err.count("\n") == 1
    move_schema = json.loads(ok(a.run("schema", "move")).out)
    assert set(move_schema["required"]) >= {"game", "step", "side", "answers", "reveal", "orders"}


def test_log_shows_every_roll_with_its_inputs(tmp_path: Path) -> None:
    a, b = start_remote(tmp_path)
    play(a, b, 4)
    out = ok(a.run("log", a.dir, "--step", "3")).out
    turn = json.loads((a.dir / "turn-0003.json").read_bytes())
    for r in turn["rolls"]:
        assert f"roll {r['i']}: {r['value']}  [{r['label']}]  key {turn['roll_key']} ctr {r['ctr']}" in out
    assert "step 4" not in out


def test_every_commands_help_ends_with_an_example() -> None:
    from click.testing import CliRunner

    from pbem.cli import COMMANDS, cli

    paths = [[name] for name in COMMANDS] + [["key", "new"], ["key", "import"], ["key", "show"],
                                             ["key", "list"], ["scenario", "check"], ["mail", "draft"]]
    for path in paths:
        res = CliRunner().invoke(cli, [*path, "--help"])
        assert res.exit_code == 0, path
        tail = [line.strip() for line in res.output.strip().splitlines()[-2:]]
        assert tail[0] == "Example:" and tail[1].startswith("pbem " + path[0]), (path, tail)
