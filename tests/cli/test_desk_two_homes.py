"""[27] The player's desk between two homes (files only), SPI Arnhem with secret drop zones: what
the author's preview says of a landing is what the opponent's `pbem ingest`, `pbem log` and the
email say; a division whose drop zone is held back to Game-Turn 2 [15.39] is said to land then,
and where, on the author's machine, and at a secret turn on the opponent's."""

from __future__ import annotations

import email
import email.policy
import shutil
from pathlib import Path

from helpers.protocol import GAME_ID, NONCE_A, NONCE_B, Player, ok

NOTES = "dz 1 at 3719 turn 2\ndz 101 at 1103\ndz 82 at 2123\n"
"""The Allied secret notes [15.36]: the 1st Airborne's zone held back to Game-Turn 2 [15.39]."""


def _text(player: Player, name: str, text: str) -> Path:
    path = player.work / name
    path.write_text(text, encoding="utf-8")
    return path


def _to_allied_turn_1(tmp_path: Path) -> tuple[Player, Player]:
    de, al = Player(tmp_path, "alice", "DE"), Player(tmp_path, "bob", "AL")
    de.new_key()
    al.new_key()
    shutil.copyfile(al.pub, de.work / "bob.pub")
    ok(de.run("new", "arnhem-alternate", de.dir, "--player", "DE=alice", "--player", f"AL={de.work / 'bob.pub'}",
              "--game-id", GAME_ID, "--nonce", NONCE_A))
    shutil.copytree(de.dir, al.dir)
    ok(al.run("join", al.dir, "--key", "bob", "--nonce", NONCE_B))
    ok(al.send(de, ["join-AL.json"]))
    ok(al.run("submit", al.dir, _text(al, "dz.txt", NOTES), "--key", "bob", "--yes"))
    ok(al.send(de, ["move-0001-AL.json"]))
    ok(de.run("bot", de.dir, "--side", "DE", "--key", "alice"))  # every German unit in its hex [18.12]
    ok(de.send(al, ["move-0002-DE.json"]))
    ok(al.run("draft", "pass", al.dir))  # the reveal step: the notes due now are revealed [15.36]
    ok(al.run("submit", al.dir, "--key", "bob", "--yes"))
    ok(al.send(de, ["move-0003-AL.json"]))
    return de, al


def test_27_15_31_the_opponent_reads_a_landing_as_the_authors_preview_said_it(tmp_path: Path) -> None:
    de, al = _to_allied_turn_1(tmp_path)
    landing = "1/501 lands at 1104 [15.31]"  # within 7 hexes of the 101st's zone 1103 [16.11]
    orders = _text(al, "land.txt", "land 1/501 at 1104\n")
    assert f"  . {landing}" in ok(al.run("check", al.dir, orders, "--key", "bob")).out
    ok(al.run("submit", al.dir, orders, "--key", "bob", "--yes"))
    mail = email.message_from_bytes((al.dir / "mail-0004.eml").read_bytes(), policy=email.policy.default)
    said = mail.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    ingested = ok(de.ingest(al.dir / "mail-0004.eml")).err
    logged = ok(de.run("log", de.dir, "--step", "4")).out
    for text in (said, ingested, logged):
        assert landing in text, text
        assert "moves to 1104" not in text


def test_27_15_39_a_held_back_division_is_due_on_its_noted_turn_on_one_machine_secret_on_the_other(
        tmp_path: Path) -> None:
    de, al = _to_allied_turn_1(tmp_path)

    def state_of(player: Player, uid: str) -> str:
        out = ok(player.run("units", player.dir, "--side", "AL")).out
        return next(line for line in out.splitlines() if line.split()[0] == uid).split("  ")[-1].strip()

    assert state_of(al, "1/1") == ("lands on Game-Turn 2: within 7 hexes of 3719, where your secret note places "
                                   "the 1 drop zone on Game-Turn 2; none before [15.39]")
    assert state_of(de, "1/1") == ("lands later: none until the 1 drop zone is placed, on the Game-Turn the "
                                   "Allied player noted in secret [15.39]")
    template = ok(al.run("orders", al.dir, "--side", "AL", "--text")).out
    due_now, due_later = template.split("# Due later, off the map (not this Game-Turn):", 1)
    assert "#   1/1 " in due_later and "#   1/1 " not in due_now.split("# Due now", 1)[1]
    off = next(line for line in template.splitlines() if "stay off the map" in line)
    assert " 1/1," not in off and "1/501" in off  # the 1st may not land yet [15.39]; the 101st may [15.23]
