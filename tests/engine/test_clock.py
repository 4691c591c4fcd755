"""Time control (pbem/engine/clock.py): arithmetic on a fixed clock, never the wall clock."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.protocol import ok, pbem

from pbem.engine.clock import TimeControl, parse, standing
from pbem.errors import InputError

H = 3600
T0 = 1_800_000_000  # a fixed instant


def test_parse_hours_and_extensions() -> None:
    assert parse("72h") == TimeControl(72, 0, 0)
    assert parse("72h,2x24h") == TimeControl(72, 2, 24)
    assert parse(" 48H,1x12h ").describe() == "48 h a move, 1 extension of 12 h each"
    for bad in ("72", "0h", "72h,2x0h", "72h,2x", "3 days", "72h;2x24h"):
        with pytest.raises(InputError):
            parse(bad)


def test_on_time_overdue_and_extensions_hand_computed() -> None:
    c = TimeControl(72, 2, 24)
    st = standing(c, T0, T0 + 21 * H)  # 21 h used of 72
    assert (st.left, st.extensions_needed, st.out_of_time) == (51 * H, 0, False)
    assert st.describe(c) == "2 d 3 h left of 72 h"
    st = standing(c, T0, T0 + 72 * H + 60)  # a minute late: one extension covers it
    assert (st.left, st.extensions_needed, st.out_of_time) == (-60, 1, False)
    assert st.describe(c) == "overdue by 1 min: 1 of 2 extension(s) would cover it"
    st = standing(c, T0, T0 + 120 * H)  # 48 h late: exactly two extensions
    assert (st.extensions_needed, st.out_of_time) == (2, False)
    st = standing(c, T0, T0 + 120 * H + 1)  # one second more: beyond both
    assert (st.extensions_needed, st.out_of_time) == (3, True)
    assert standing(c, T0, T0 + 100 * H, extensions_used=2).out_of_time  # none left
    assert standing(TimeControl(24), T0, T0 + 25 * H).out_of_time  # no extensions agreed
    assert standing(c, T0, T0 - 5).left == 72 * H  # a clock behind the file: no time used


def test_new_records_the_clock_and_status_and_remind_show_it(tmp_path: Path) -> None:
    home, g = tmp_path / "home", tmp_path / "g"
    ok(pbem("key", "new", "alice", home=home))
    ok(pbem("key", "new", "bob", home=home))
    res = pbem("new", "bastogne-spearhead", g, "--player", "DE=alice", "--player", "US=bob",
               "--time-control", "3 days", home=home)
    assert res.code == 2 and "--time-control" in res.err and not g.exists()
    ok(pbem("new", "bastogne-spearhead", g, "--player", "DE=alice", "--player", "US=bob",
            "--time-control", "72h,2x24h", "--email", "DE=de@example.org", "--email", "US=us@example.org",
            home=home))
    info = json.loads(ok(pbem("status", g, "--json", home=home)).out)
    assert info["clock"]["control"] == {"hours": 72, "extensions": 2, "extension_hours": 24}
    assert info["clock"]["owing"] == "US" and 0 < info["clock"]["left_seconds"] <= 72 * H
    assert "clock     72 h a move, 2 extensions of 24 h each: US has " in ok(pbem("status", g, home=home)).out
    # hot seat: both sides are played here, so nobody else is owed a reminder
    res = pbem("remind", g, home=home)
    assert res.code == 2 and "the message owed is yours" in res.err


def test_remind_drafts_a_reminder_that_send_would_send(tmp_path: Path) -> None:
    import email
    import email.policy
    import shutil

    de_home, us_home = tmp_path / "de", tmp_path / "us"
    a, b = tmp_path / "a", tmp_path / "b"
    ok(pbem("key", "new", "alice", home=de_home))
    ok(pbem("key", "new", "bob", home=us_home))
    ok(pbem("new", "bastogne-spearhead", a, "--player", "DE=alice", "--player",
            f"US={us_home / 'keys' / 'bob.pub'}", "--time-control", "48h",
            "--email", "DE=de@example.org", "--email", "US=us@example.org", home=de_home))
    shutil.copyfile(a / "mail-invite-US.eml", tmp_path / "invite.eml")
    ok(pbem("join", b, "--key", "bob", "--invitation", tmp_path / "invite.eml", home=us_home))
    ok(pbem("ingest", a, b / "mail-join-US.eml", home=de_home))
    res = ok(pbem("remind", a, home=de_home))  # the U.S. set-up is owed
    assert res.out.strip().endswith("mail-remind-0000-US-1.eml")
    msg = email.message_from_bytes((a / "mail-remind-0000-US-1.eml").read_bytes(), policy=email.policy.SMTP)
    assert msg["To"] == "us@example.org" and msg["From"] == "de@example.org"
    assert "reminder" in msg["Subject"] and ".remind-US@" in msg["Message-ID"]
    body = msg.get_body(("plain",)).get_content()
    assert "48 h a move" in body and "never decides a game on time" in body
    ok(pbem("remind", a, home=de_home))  # a second reminder never overwrites the first
    assert (a / "mail-remind-0000-US-2.eml").exists()
    assert pbem("verify", a, home=tmp_path / "stranger").code == 0  # reminders are not archive files


def _invite_with_clock(tmp_path: Path, clock: object) -> tuple[Path, Path]:
    """Alice's modified client signs a genesis whose time_control is ``clock`` and invites Bob
    (his key by its public file): the invitation Bob would receive, and his pbem home."""
    import base64
    import shutil

    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.dsse import GENESIS_TYPE, envelope_bytes, sign
    from pbem.protocol.keys import KeyStore

    alice, bob = tmp_path / "alice", tmp_path / "bob"
    ok(pbem("key", "new", "alice", home=alice))
    ok(pbem("key", "new", "bob", home=bob))
    pub = tmp_path / "bob.pub"
    shutil.copyfile(bob / "keys" / "bob.pub", pub)
    g = tmp_path / "g"
    ok(pbem("new", "bastogne-spearhead", g, "--player", "DE=alice", "--player", f"US={pub}",
            "--time-control", "72h", home=alice))
    env = json.loads((g / "genesis.json").read_bytes())
    body = json.loads(base64.b64decode(env["payload"]))
    body["time_control"] = clock
    raw = envelope_bytes(sign(canonical_bytes(body), GENESIS_TYPE, [KeyStore(alice).private("alice", None)]))
    invite = tmp_path / "invite"
    invite.mkdir()
    (invite / "genesis.json").write_bytes(raw)
    shutil.copyfile(g / "scenario.json", invite / "scenario.json")
    return invite, bob


@pytest.mark.parametrize("clock", [
    {"hours": 72, "extensions": 0, "extension_hours": 0, "grace": 9},  # an extra field
    {"hours": 0, "extensions": 0, "extension_hours": 0},  # a clock pbem new refuses
    {"hours": 72, "extensions": 2, "extension_hours": 0},  # extensions of no time
    {"hours": 72},  # fields missing
])
def test_a_signed_genesis_with_an_odd_clock_is_refused_at_join(tmp_path: Path, clock: object) -> None:
    """[29] Every field of a signed genesis is checked by one model when it is first seen: a clock
    that status and remind could not read is refused at join, not a game later."""
    invite, bob = _invite_with_clock(tmp_path, clock)
    game = tmp_path / "bob-game"
    shutil_listing = sorted(p.name for p in invite.iterdir())
    res = pbem("join", game, "--key", "bob", "--invitation", invite / "genesis.json", home=bob)
    assert res.code == 2 and res.err.count("\n") == 1 and "time_control" in res.err, res.err
    assert not game.exists() and sorted(p.name for p in invite.iterdir()) == shutil_listing


def test_join_shows_the_clock_its_signature_accepts(tmp_path: Path) -> None:
    invite, bob = _invite_with_clock(tmp_path, {"hours": 48, "extensions": 1, "extension_hours": 12})
    res = ok(pbem("join", tmp_path / "bob-game", "--key", "bob", "--invitation", invite / "genesis.json",
                  home=bob))
    assert "clock 48 h a move, 1 extension of 12 h each (rules westwall/4, scenario bastogne-spearhead)" in res.err


def _toy_duel_with_clock(tmp_path: Path) -> tuple[Any, Any]:
    """Alice (A) and Bob (B), two homes, a toy duel with a 72 h clock; both set-ups played."""
    import shutil

    from helpers.protocol import NONCE_A, NONCE_B, TOY, Player, play

    a, b = Player(tmp_path, "alice", "A"), Player(tmp_path, "bob", "B")
    a.new_key()
    b.new_key()
    pub = a.work / "bob.pub"
    shutil.copyfile(b.pub, pub)
    ok(a.run("new", TOY, a.dir, "--player", "A=alice", "--player", f"B={pub}", "--nonce", NONCE_A,
             "--time-control", "72h"))
    shutil.copytree(a.dir, b.dir)
    ok(b.run("join", b.dir, "--key", "bob", "--nonce", NONCE_B))
    ok(b.send(a, ["join-B.json"]))
    play(a, b, 2)
    return a, b


def _clock(p: Any) -> dict[str, Any]:
    info = json.loads(ok(p.run("status", p.dir, "--json")).out)
    return dict(info["clock"])


def test_status_shows_the_clock_of_the_co_revealer_who_owes_a_reveal(tmp_path: Path) -> None:
    """[29] A has rolled (step 3): its dice wait for B's reveal, so on A's machine B owes the next
    message, and the clock says so (it showed nothing while the turn was open)."""
    from helpers.protocol import SCRIPT

    a, _b = _toy_duel_with_clock(tmp_path)
    ok(a.submit(SCRIPT[2][1]))
    clock = _clock(a)
    assert clock["owing"] == "B" and 0 < clock["left_seconds"] <= 72 * H
    assert "72 h a move: B has " in ok(a.run("status", a.dir)).out


def test_a_receipt_does_not_restart_the_clock_of_the_side_that_still_owes_its_move(tmp_path: Path) -> None:
    """[29] A's roll reached Bob 70 h ago; his receipt (written now) resolves the roll but he still
    owes his move: his clock runs from A's move, not from the receipt."""
    import os
    import time

    from helpers.protocol import SCRIPT, written

    a, b = _toy_duel_with_clock(tmp_path)
    ok(a.submit(SCRIPT[2][1]))
    res = ok(b.run("ingest", b.dir, a.dir / "move-0003-A.json", "--receipt", "bob"))
    assert "receipt-0003-B.json" in written(res) and (b.dir / "turn-0003.json").exists()
    then = time.time() - 70 * H
    os.utime(b.dir / "move-0003-A.json", (then, then))
    clock = _clock(b)
    assert clock["owing"] == "B"
    assert 2 * H - 300 <= clock["left_seconds"] <= 2 * H + 300, clock
