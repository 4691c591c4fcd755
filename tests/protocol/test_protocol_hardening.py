"""Hardening against a hostile opponent (issue 8, items 4 and 5): trust on first contact, ingest
that writes all or nothing, and game data that cannot drive the terminal.

Each test plays the attacker: an invitation whose keys were swapped, a doctored turn attached to a
genuine move, signed orders and a scenario carrying ESC sequences and a flood of text."""

from __future__ import annotations

import email
import email.policy
import json
import re
import shutil
from pathlib import Path

from helpers.protocol import TOY, Player, ok, sign_move, start_remote, written

from pbem.errors import MAX_ERROR_LINE, error_text, terminal_safe

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def fingerprint(player: Player) -> str:
    return ok(player.run("key", "show", player.name)).out.split()[-1]


def invitation(tmp_path: Path) -> tuple[Player, Player, Path]:
    a, b = Player(tmp_path, "alice", "A"), Player(tmp_path, "bob", "B")
    a.new_key()
    b.new_key()
    bob_pub = a.work / "bob.pub"
    shutil.copyfile(b.pub, bob_pub)
    ok(a.run("new", TOY, a.dir, "--player", "A=alice", "--player", f"B={bob_pub}"))
    return a, b, a.dir / "genesis.json"


# --- trust on first contact ---------------------------------------------------------------------


def test_join_prints_every_key_the_game_binds(tmp_path: Path) -> None:
    a, b, genesis = invitation(tmp_path)
    res = ok(b.run("join", b.dir, "--key", "bob", "--invitation", genesis))
    assert f"key  A      {fingerprint(a)}" in res.err
    assert f"key  B      {fingerprint(b)}  (your key)" in res.err
    assert "--expect" in res.err  # told how to have pbem compare them


def test_join_expect_accepts_the_right_key(tmp_path: Path) -> None:
    a, b, genesis = invitation(tmp_path)
    res = ok(b.run("join", b.dir, "--key", "bob", "--invitation", genesis, "--expect", f"A={fingerprint(a)}"))
    assert "join-B.json" in written(res)
    assert f"{fingerprint(a)}  (as expected)" in res.err


def test_join_expect_refuses_an_invitation_whose_key_was_swapped(tmp_path: Path) -> None:
    """Mallory intercepts Alice's invitation and re-issues it with her own key for side A."""
    a, b, _genesis = invitation(tmp_path)
    mallory = Player(tmp_path, "mallory", "A")
    mallory.new_key()
    bob_pub = mallory.work / "bob.pub"
    shutil.copyfile(b.pub, bob_pub)
    ok(mallory.run("new", TOY, mallory.dir, "--player", "A=mallory", "--player", f"B={bob_pub}"))
    target = tmp_path / "bob-game"
    res = b.run("join", target, "--key", "bob", "--invitation", mallory.dir / "genesis.json",
                "--expect", f"A={fingerprint(a)}")
    assert res.code == 2, res.err
    assert res.err.count("\n") == 1 and fingerprint(mallory) in res.err and fingerprint(a) in res.err
    assert not target.exists()
    assert not (b.home / "games").exists()  # no seed, no local state


def test_join_expect_for_an_unknown_side_is_refused(tmp_path: Path) -> None:
    a, b, genesis = invitation(tmp_path)
    res = b.run("join", tmp_path / "g", "--key", "bob", "--invitation", genesis, "--expect", f"Z={fingerprint(a)}")
    assert res.code == 2 and "no side 'Z'" in res.err
    assert not (tmp_path / "g").exists()


def test_status_verify_and_log_show_the_fingerprints(tmp_path: Path) -> None:
    a, b = start_remote(tmp_path)
    fa, fb = fingerprint(a), fingerprint(b)
    status = ok(a.run("status", a.dir)).out
    assert f"key       A      {fa}  (played here)" in status and f"key       B      {fb}" in status
    assert json.loads(ok(a.run("status", a.dir, "--json")).out)["keys"] == {"A": fa, "B": fb}
    verify = ok(b.run("verify", b.dir)).out
    assert f"key         A      {fa}" in verify and f"key         B      {fb}" in verify
    log = ok(b.run("log", b.dir)).out
    assert f"A plays with key {fa}" in log and f"B plays with key {fb}" in log


# --- ingest writes all or nothing -----------------------------------------------------------------


def _two_bastogne_players(tmp_path: Path) -> tuple[Player, Player]:
    de, us = Player(tmp_path, "alice", "DE"), Player(tmp_path, "bob", "US")
    de.new_key()
    us.new_key()
    bob_pub = de.work / "bob.pub"
    shutil.copyfile(us.pub, bob_pub)
    ok(de.run("new", "bastogne-spearhead", de.dir, "--player", "DE=alice", "--player", f"US={bob_pub}"))
    ok(us.run("join", us.dir, "--key", "bob", "--invitation", de.dir / "mail-invite-US.eml"))
    ok(de.ingest(us.dir / "mail-join-US.eml"))
    return de, us


def _listing(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.iterdir()) if p.is_file()}


def test_a_doctored_turn_beside_a_genuine_move_archives_nothing(tmp_path: Path) -> None:
    de, us = _two_bastogne_players(tmp_path)
    skeleton = ok(us.run("orders", us.dir, "--side", "US")).out
    ok(us.submit(skeleton))
    mail = us.dir / "mail-0001.eml"
    msg = email.message_from_bytes(mail.read_bytes(), policy=email.policy.default)
    for part in msg.iter_attachments():
        if part.get_filename() == "turn-0000.json":
            data = part.get_payload(decode=True).replace(b'"game_turn":1', b'"game_turn":2', 1)
            part.set_content(data, maintype="application", subtype="json", filename="turn-0000.json")
    bad = tmp_path / "doctored.eml"
    bad.write_bytes(msg.as_bytes(policy=email.policy.SMTP))
    before = _listing(de.dir)
    res = de.ingest(bad)
    assert res.code == 2 and "DIVERGENCE" in res.err and "nothing was archived" in res.err
    assert res.out == ""
    assert _listing(de.dir) == before  # the genuine move beside it was not archived either
    # the genuine email still goes through afterwards
    res = ok(de.ingest(mail))
    assert "move-0001-US.json" in written(res)
    assert "byte-identical to ours" in res.err


# --- control characters and floods of text --------------------------------------------------------


def test_terminal_safe_escapes_controls_and_keeps_text() -> None:
    assert terminal_safe("1/501 in 1418 — Noville") == "1/501 in 1418 — Noville"
    assert terminal_safe("a\x1b[2Jb\x07\rc\x9bd\u202ee") == "a\\x1b[2Jb\\x07\\x0dc\\x9bd\\u202ee"
    assert terminal_safe("two\nlines\tok") == "two\nlines\tok"


def test_error_text_cuts_long_lines() -> None:
    text = error_text("x" * 5000 + "\nshort")
    first, second = text.split("\n")
    assert len(first) <= MAX_ERROR_LINE and "more characters" in first
    assert second == "short"


def test_signed_orders_with_escape_sequences_never_reach_the_terminal(tmp_path: Path) -> None:
    """A hostile U.S. player signs a set-up whose side field is ESC sequences and 5,000 characters
    (a window-title change, a screen clear, a bell); the German's pbem quotes none of it raw."""
    de, us = _two_bastogne_players(tmp_path)
    ok(us.submit(ok(us.run("orders", us.dir, "--side", "US")).out))
    body = json.loads(_payload(us.dir / "move-0001-US.json"))
    hostile = "\x1b]0;owned\x07\x1b[2J\x1b[31m" + "A" * 5000
    body["orders"]["side"] = hostile
    forged = tmp_path / "move-0001-US.json"
    forged.write_bytes(sign_move(us, body))
    before = _listing(de.dir)
    res = de.ingest(forged)
    assert res.code == 2 and res.out == ""
    assert not CONTROL.search(res.err), res.err[:200]
    assert "\\x1b]0;owned\\x07" in res.err  # shown, escaped
    assert all(len(line) <= MAX_ERROR_LINE + len("pbem: ") for line in res.err.splitlines())
    assert len(res.err.splitlines()) == 1
    assert _listing(de.dir) == before


def test_a_scenario_name_with_escape_sequences_is_shown_escaped(tmp_path: Path) -> None:
    scenario = json.loads(TOY.read_text())
    scenario["id"] = "toy\x1b[2J\x1b]0;pwned\x07"
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(scenario))
    alice = Player(tmp_path, "alice", "A")
    alice.new_key()
    ok(alice.run("key", "new", "bob"))
    ok(alice.run("new", path, alice.dir, "--player", "A=alice", "--player", "B=bob"))
    for command in ("status", "log", "verify"):
        res = ok(alice.run(command, alice.dir))
        assert not CONTROL.search(res.out + res.err), command
        assert "toy\\x1b[2J" in res.out, command


def _payload(path: Path) -> bytes:
    from pbem.protocol.dsse import parse_envelope

    return parse_envelope(path.read_bytes(), max_bytes=1 << 20, what=path.name).body()


def test_29_a_move_file_with_a_utf8_byte_order_mark_is_ingested(tmp_path: Path) -> None:
    """An editor (Windows Notepad) saves the move with a byte-order mark: it was read as an email
    ('no mail headers found'); the mark is dropped like a CRLF in transit, every signed byte kept."""
    a, b = start_remote(tmp_path)
    ok(a.submit({"kind": "setup", "side": "A", "handicap": 2}))
    raw = (a.dir / "move-0001-A.json").read_bytes()
    inbox = b.work / "bom"
    inbox.mkdir()
    (inbox / "move-0001-A.json").write_bytes(b"\xef\xbb\xbf" + raw.replace(b"\n", b"\r\n"))
    res = ok(b.ingest(inbox / "move-0001-A.json"))
    assert "move-0001-A.json" in written(res)
    assert (b.dir / "move-0001-A.json").read_bytes() == raw
    # a byte-order mark anywhere else is not a transit artefact: the file is refused
    (inbox / "move-0001-A.json").write_bytes(raw[:1] + b"\xef\xbb\xbf" + raw[1:])
    res = b.ingest(inbox / "move-0001-A.json")
    assert res.code == 2 and "Traceback" not in res.err


def test_terminal_safe_finds_exactly_the_characters_it_escapes() -> None:
    """The one search that lets a text through unchanged [28] finds a character exactly when the
    character-by-character definition calls it unsafe, over the whole of Unicode."""
    from pbem.errors import _UNSAFE, _unsafe

    found = [c for c in map(chr, range(0x110000)) if _UNSAFE.search(c)]
    assert found == [c for c in map(chr, range(0x110000)) if _unsafe(c)]
    assert terminal_safe("ok\n" * 50 + "\u2066x") == "ok\n" * 50 + "\\u2066x"
