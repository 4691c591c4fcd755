"""``pbem send`` in a directory that keeps only the newest step's derived files (issue 28): the
email of a move some side has not answered yet is drafted again when it is not on disk, byte for
byte the email pbem wrote; an email every other side has answered is not sent again."""

from __future__ import annotations

import email
import email.policy
import hashlib
import json
from pathlib import Path
from typing import Any

from helpers.protocol import env, ok, pbem

from pbem.mail.transport import Server
from pbem.mail.transport import send as smtp_send


class FakeSMTP:
    """What an SMTP connection is asked to send (the transport's ``connect`` hook)."""

    def __init__(self) -> None:
        self.sent: list[Any] = []

    def __enter__(self) -> FakeSMTP:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def send_message(self, msg: Any) -> None:
        self.sent.append(msg)


def test_send_drafts_again_an_unanswered_email_no_longer_on_disk(tmp_path: Path) -> None:
    from pbem.cli.mailbox import unsent_drafts
    from pbem.engine import derived
    from pbem.engine.gamedir import open_checked
    from pbem.protocol.localstate import LocalGame

    home, g = tmp_path / "home", tmp_path / "game"
    for name in ("alice", "bob"):
        ok(pbem("key", "new", name, "--no-passphrase", home=home))
    ok(pbem("new", "bastogne-spearhead", g, "--player", "DE=alice", "--player", "US=bob",
            "--email", "DE=de@example.org", "--email", "US=us@example.org", home=home))
    setup = ok(pbem("orders", g, "--side", "US", home=home)).out
    (tmp_path / "us.json").write_text(setup, encoding="utf-8")
    ok(pbem("submit", "--yes", g, tmp_path / "us.json", "--key", "bob", home=home))
    orders = {"kind": "player-turn", "side": "DE", "game_turn": 1, "attacks": [],
              "moves": [{"unit": "1/3", "path": ["2913", "2812", "2712"]}]}
    (tmp_path / "de.json").write_text(json.dumps(orders), encoding="utf-8")
    ok(pbem("submit", "--yes", g, tmp_path / "de.json", "--key", "alice", home=home))
    # move 1 (U.S.) was answered by the German move 2: its email is gone; move 2's is kept
    assert sorted(p.name for p in g.glob("mail-0*.eml")) == ["mail-0002.eml"]
    recorded = derived.read(g)
    (g / "mail-0002.eml").unlink()  # e.g. deleted by hand: the U.S. has not answered it yet
    server = Server("smtp", "127.0.0.1", 25, "none")
    with env(PBEM_HOME=str(home), PBEM_PASSPHRASE=""):
        game = open_checked(g)
        local = LocalGame.of(game)
        mine = set(local.sides())
        extra = unsent_drafts(game, local, mine)
        assert sorted(extra) == ["mail-0002.eml"]  # not mail-0001: the German move answered it
        fake = FakeSMTP()
        result = smtp_send(g, local.dir, mine, server, connect=lambda s: fake, extra=extra)
    assert result.sent == ["mail-0002.eml"]
    assert hashlib.sha256(extra["mail-0002.eml"]()).hexdigest() == recorded["mail-0002.eml"]
    msg = fake.sent[-1]
    assert msg["X-Pbem-Step"] == "2" and msg["To"] == "us@example.org"
    atts = {p.get_filename(): p.get_payload(decode=True) for p in msg.walk() if p.get_filename()}
    assert atts["move-0002-DE.json"] == (g / "move-0002-DE.json").read_bytes()
    assert not (g / "mail-0002.eml").exists()  # sent from memory: the directory is not written
    # sent once: the record of sent mail holds it, so it is not drafted or sent again
    with env(PBEM_HOME=str(home), PBEM_PASSPHRASE=""):
        again = smtp_send(g, local.dir, mine, server, connect=lambda s: FakeSMTP(), extra=extra)
    assert again.sent == [] and "mail-0002.eml" in again.already
    parsed = email.message_from_bytes(extra["mail-0002.eml"](), policy=email.policy.default)
    assert parsed["Subject"].endswith("your move")


def test_two_homes_each_keeps_only_the_email_not_yet_answered(tmp_path: Path) -> None:
    # Bob (US) signs the set-up (move 1): mail-0001 waits to be sent. Alice ingests it and moves
    # (move 2): her mail-0002 waits. When Bob ingests move 2, which answers his move 1, his
    # mail-0001 is removed (its line stays); Alice's directory never held it. Each keeps the map
    # of its newest turn only.
    from engine.test_no_surprise import remote_spearhead

    from pbem.engine import derived

    de_home, us_home, a, b = remote_spearhead(tmp_path)
    assert sorted(p.name for p in b.glob("mail-0*.eml")) == ["mail-0001.eml"]
    ok(pbem("ingest", a, b / "mail-0001.eml", home=de_home))
    orders = {"kind": "player-turn", "side": "DE", "game_turn": 1, "attacks": [],
              "moves": [{"unit": "1/3", "path": ["2913", "2812", "2712"]}]}
    (tmp_path / "de.json").write_text(json.dumps(orders), encoding="utf-8")
    ok(pbem("submit", "--yes", a, tmp_path / "de.json", "--key", "alice", home=de_home))
    assert sorted(p.name for p in a.glob("mail-0*.eml")) == ["mail-0002.eml"]
    ok(pbem("ingest", b, a / "mail-0002.eml", home=us_home))
    assert sorted(p.name for p in b.glob("mail-0*.eml")) == []
    assert "mail-0001.eml" in derived.read(b)
    # Alice's turn 2 waits for Bob's reveal (its dice); Bob's pbem resolved it with his own seed
    assert sorted(p.name for p in a.glob("map-*.svg")) == ["map-0001.svg"]
    assert sorted(p.name for p in b.glob("map-*.svg")) == ["map-0002.svg"]
    # what both hold is the same file for file [P6]
    ours = {p.name: p.read_bytes() for p in a.glob("*.json")}
    theirs = {p.name: p.read_bytes() for p in b.glob("*.json")}
    assert set(theirs) - set(ours) == {"turn-0002.json"}
    assert all(theirs[n] == data for n, data in ours.items())
