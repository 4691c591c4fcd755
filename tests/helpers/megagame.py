"""A megagame among separate machines, for the CLI tests: Game Control and each team with a pbem
home and a game directory of their own, only files copied between them (as email would carry them).
Every step is a ``pbem`` command as a user types it (:func:`helpers.protocol.pbem`, in-process)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from helpers.protocol import GAME_ID, Player, ok, written
from pbem.engine.scenarios import bundled_dir

TEAMS = ("AB1", "SS9", "SS10")
NAMES = {"GC": "control", "AB1": "ab1", "SS9": "ss9", "SS10": "ss10"}
NONCES = {"GC": "a" * 64, "AB1": "b" * 64, "SS9": "c" * 64, "SS10": "d" * 64}


def scenario_file(root: Path, turns: int | None = None) -> Path:
    """The bundled ``megagame-arnhem`` (the smallest megagame), shortened to ``turns`` (without the
    arrivals after them) or whole."""
    data = json.loads((bundled_dir() / "megagame-arnhem.json").read_text(encoding="utf-8"))
    if turns is not None:
        data["turns"] = turns
        data["units"] = [u for u in data["units"] if u.get("arrives", 1) <= turns]
    path = root / "megagame.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def create(root: Path, scenario: Path) -> dict[str, Player]:
    """Game Control's game created from ``scenario``, the teams invited (their public keys copied
    to Game Control), nobody joined yet."""
    players = {s: Player(root, n, s) for s, n in NAMES.items()}
    for p in players.values():
        p.new_key()
    gc = players["GC"]
    args: list[str | Path] = ["new", scenario, gc.dir, "--player", "GC=control", "--game-id", GAME_ID,
                              "--nonce", NONCES["GC"]]
    for s in TEAMS:
        pub = gc.work / f"{s}.pub"
        shutil.copyfile(players[s].pub, pub)
        args += ["--player", f"{s}={pub}"]
    ok(gc.run(*args))
    return players


def start(root: Path, scenario: Path) -> dict[str, Player]:
    """Game Control creates the game; each team joins from its own invitation email; the joins go
    to everyone."""
    players = create(root, scenario)
    gc = players["GC"]
    for s in TEAMS:
        invitation = players[s].work / f"mail-invite-{s}.eml"
        shutil.copyfile(gc.dir / f"mail-invite-{s}.eml", invitation)
        ok(players[s].run("join", players[s].dir, "--key", players[s].name, "--nonce", NONCES[s],
                          "--invitation", invitation))
    for s in TEAMS:
        for t in players:
            if t != s:
                ok(players[s].send(players[t], [f"join-{s}.json"]))
    return players


def messages(res: Any) -> list[str]:
    """The signed messages a command wrote (what a user mails to everyone)."""
    return [n for n in written(res) if n.startswith("move-") or n == "publication.json"]


def send_all(players: dict[str, Player], sender: str, res: Any) -> list[str]:
    names = messages(res)
    assert names, written(res)
    for t, p in players.items():
        if t != sender:
            ok(players[sender].send(p, names))
    return names


def bot_step(players: dict[str, Player], side: str) -> list[str]:
    """``pbem bot`` for SIDE, its message copied to every other machine."""
    p = players[side]
    return send_all(players, side, ok(p.run("bot", p.dir, "--side", side, "--key", p.name)))


def status(p: Player) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(ok(p.run("status", p.dir, "--json")).out)
    return value
