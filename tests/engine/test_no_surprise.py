"""Nothing is signed by surprise (issue 14): ``pbem check`` and ``submit --dry-run`` show exactly
what would be signed, in the game's words, with what is left undone; ``submit`` asks before
signing; a text set-up that places only some units is refused; ``pbem retract`` discards a move
that was never sent, so the corrected orders can be signed.

The two accidents players had: a one-line set-up signed as the whole set-up, and a test file
signed as the whole German player-turn with six reinforcements left off the map."""

from __future__ import annotations

import base64
import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.protocol import ok, pbem


def listing(*roots: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for r in roots for p in sorted(r.rglob("*")) if p.is_file()}


@pytest.fixture
def game(tmp_path: Path) -> tuple[Path, Path]:
    """Spearhead, hot seat, the U.S. set-up played: the German player-turn 1 is due."""
    home, g = tmp_path / "home", tmp_path / "g"
    for name in ("alice", "bob"):
        ok(pbem("key", "new", name, home=home))
    ok(pbem("new", "bastogne-spearhead", g, "--player", "DE=alice", "--player", "US=bob", home=home))
    (tmp_path / "us.json").write_text(ok(pbem("orders", g, "--side", "US", home=home)).out)
    ok(pbem("submit", "--yes", g, tmp_path / "us.json", "--key", "bob", home=home))
    return home, g


def test_check_shows_every_order_and_what_is_left_undone(game: tuple[Path, Path], tmp_path: Path) -> None:
    home, g = game
    (tmp_path / "test.txt").write_text("enter 1/3 via 2913 2812 2712\n")  # "just a test"
    before = listing(g, home)
    res = ok(pbem("check", g, tmp_path / "test.txt", "--key", "alice", home=home))
    assert "Step 2: Game-Turn 1, German player-turn" in res.out
    assert ". 1/3 enters at 2913 [11.11], then moves to 2712 via 2812" in res.out
    assert "6 reinforcements due by this game-turn stay off the map" in res.out and "[11.22]" in res.out
    assert listing(g, home) == before  # nothing signed, nothing written
    dry = ok(pbem("submit", "--dry-run", g, tmp_path / "test.txt", "--key", "alice", home=home))
    assert dry.out == res.out and "nothing was signed" in dry.err
    assert listing(g, home) == before


def test_submit_without_confirmation_signs_nothing(game: tuple[Path, Path], tmp_path: Path) -> None:
    home, g = game
    (tmp_path / "test.txt").write_text("enter 1/3 via 2913 2812 2712\n")
    before = listing(g, home)
    res = pbem("submit", g, tmp_path / "test.txt", "--key", "alice", home=home)  # no terminal, no --yes
    assert res.code == 2 and "not signed" in res.err and "--yes" in res.err
    assert "6 reinforcements due by this game-turn stay off the map" in res.err  # shown first
    assert listing(g, home) == before  # no move, no P7 record


def _submit_on_a_terminal(home: Path, g: Path, orders: Path, answer: bytes) -> tuple[int, str]:
    master, slave = pty.openpty()
    env = {**os.environ, "PBEM_HOME": str(home), "PBEM_PASSPHRASE": ""}
    proc = subprocess.Popen([sys.executable, "-m", "pbem", "submit", str(g), str(orders), "--key", "alice"],
                            stdin=slave, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    out = b""
    deadline = time.monotonic() + 60
    answered = False
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            if not answered and b"Sign these orders?" in out:
                os.write(master, answer)
                answered = True
        elif proc.poll() is not None:
            break
    proc.wait(timeout=60)
    os.close(master)
    return proc.returncode, out.decode("utf-8", "replace")


def test_submit_asks_on_a_terminal(game: tuple[Path, Path], tmp_path: Path) -> None:
    home, g = game
    (tmp_path / "de1.txt").write_text("enter 1/3 via 2913 2812 2712\nenter 2/3 via 2913 2813\n")
    before = listing(g)
    code, out = _submit_on_a_terminal(home, g, tmp_path / "de1.txt", b"n\n")
    assert code == 2 and "2/3 enters at 2913 [11.11], then moves to 2813" in out and "not signed" in out
    assert listing(g) == before
    code, out = _submit_on_a_terminal(home, g, tmp_path / "de1.txt", b"y\n")
    assert code == 0, out
    assert (g / "move-0002-DE.json").exists()


def test_a_text_set_up_must_place_every_unit(tmp_path: Path) -> None:
    home, g = tmp_path / "home", tmp_path / "g"
    for name in ("alice", "bob"):
        ok(pbem("key", "new", name, home=home))
    ok(pbem("new", "bastogne-spearhead", g, "--player", "DE=alice", "--player", "US=bob", home=home))
    (tmp_path / "one.txt").write_text("place 20 at 1317\n")
    res = pbem("check", g, tmp_path / "one.txt", "--key", "bob", home=home)
    assert res.code == 2 and "8 problems" in res.err and "[15.12]" in res.err  # the eight others, by name
    res = ok(pbem("check", g, tmp_path / "one.txt", "--key", "bob", "--defaults", home=home))
    assert "set up" in res.out.lower() or "Set-up" in res.out


def test_retract_an_unsent_move_then_sign_the_corrected_orders(game: tuple[Path, Path], tmp_path: Path) -> None:
    home, g = game
    (tmp_path / "test.txt").write_text("enter 1/3 via 2913 2812 2712\n")
    ok(pbem("submit", "--yes", g, tmp_path / "test.txt", "--key", "alice", home=home))
    assert (g / "move-0002-DE.json").exists()
    # the corrected orders are refused, and the refusal says what to do
    (tmp_path / "right.txt").write_text("enter 1/3 via 2913 2812 2712\nenter 2/3 via 2913 2813\n")
    res = pbem("submit", "--yes", g, tmp_path / "right.txt", "--key", "alice", home=home)
    assert res.code == 2 and "pbem retract" in res.err
    # without a terminal, retract asks for --yes
    res = pbem("retract", g, home=home)
    assert res.code == 2 and "not retracted" in res.err and (g / "move-0002-DE.json").exists()
    res = ok(pbem("retract", g, "--yes", home=home))
    assert "removed move-0002-DE.json" in res.out and "equivocation [P7]" in res.err
    assert not (g / "move-0002-DE.json").exists()
    ok(pbem("submit", "--yes", g, tmp_path / "right.txt", "--key", "alice", home=home))
    body = json.loads(__import__("base64").b64decode(json.loads((g / "move-0002-DE.json").read_bytes())["payload"]))
    assert [m["unit"] for m in body["orders"]["moves"]] == ["1/3", "2/3"]
    assert ok(pbem("verify", g, home=tmp_path / "stranger")).out.rstrip().endswith("OK")


def test_only_its_author_can_retract_a_move(game: tuple[Path, Path], tmp_path: Path) -> None:
    home, g = game
    other_home = tmp_path / "other"
    ok(pbem("key", "new", "carol", home=other_home))
    res = pbem("retract", g, "--yes", home=other_home)
    assert res.code == 2 and "not signed on this machine" in res.err
    assert (g / "move-0001-US.json").exists()


# --- what real mail clients do to pbem's files -----------------------------------------------------


def remote_spearhead(tmp_path: Path, *, invite_as: str | None = None,
                     reply_as: str | None = None, submit: bool = True) -> tuple[Path, Path, Path, Path]:
    """Alice (DE) invites Bob (US) by email; Bob joins and sets up; each has a home and a game
    directory, and only emails travel (saved under ``invite_as`` / ``reply_as`` when given, as a
    mail client might name them). Returns (alice's home, bob's home, alice's game, bob's game);
    Bob's set-up (move 1, in ``us.json``) is signed (unless not ``submit``) and its email not yet sent."""
    import shutil

    de_home, us_home = tmp_path / "de-home", tmp_path / "us-home"
    a, b = tmp_path / "de-game", tmp_path / "us-game"
    ok(pbem("key", "new", "alice", home=de_home))
    ok(pbem("key", "new", "bob", home=us_home))
    ok(pbem("new", "bastogne-spearhead", a, "--player", "DE=alice", "--player",
            f"US={us_home / 'keys' / 'bob.pub'}", home=de_home))
    invite = a / "mail-invite-US.eml"
    if invite_as:
        invite = Path(shutil.copyfile(invite, tmp_path / invite_as))
    ok(pbem("join", b, "--key", "bob", "--invitation", invite, home=us_home))
    reply = b / "mail-join-US.eml"
    if reply_as:
        reply = Path(shutil.copyfile(reply, tmp_path / reply_as))
    ok(pbem("ingest", a, reply, home=de_home))
    (tmp_path / "us.json").write_text(ok(pbem("orders", b, "--side", "US", home=us_home)).out)
    if submit:
        ok(pbem("submit", "--yes", b, tmp_path / "us.json", "--key", "bob", home=us_home))
    return de_home, us_home, a, b


def test_mail_is_read_by_content_whatever_its_name_and_crlf_is_forgiven(tmp_path: Path) -> None:
    """A mail client saves the invitation as 'invite.txt' and the reply as 'Re: your move', and
    turns a move file's final newline into CRLF: pbem reads them all; a changed byte inside is
    still refused."""
    de_home, us_home, a, b = remote_spearhead(tmp_path, invite_as="invite.txt", reply_as="Re: invitation")
    crlf = tmp_path / "move-0001-US.json"
    crlf.write_bytes((b / "move-0001-US.json").read_bytes()[:-1] + b"\r\n")
    bad = tmp_path / "bad" / "move-0001-US.json"
    bad.parent.mkdir()
    raw = bytearray(crlf.read_bytes())
    raw[40] ^= 1
    bad.write_bytes(bytes(raw))
    assert pbem("ingest", a, bad, home=de_home).code == 2
    res = ok(pbem("ingest", a, crlf, home=de_home))
    assert "move-0001-US.json" in res.out
    assert (a / "move-0001-US.json").read_bytes() == (b / "move-0001-US.json").read_bytes()


# --- see the situation ------------------------------------------------------------------------------


def test_units_lists_a_sides_forces_with_ids_as_typed_in_orders(game: tuple[Path, Path]) -> None:
    home, g = game
    out = ok(pbem("units", g, "--side", "DE", home=home)).out
    header, *rows = out.splitlines()
    assert header.split()[:6] == ["id", "counter", "type", "hex", "values", "MA"]
    row = next(r for r in rows if r.startswith("1/3 "))
    assert "armor" in row and "6-4-12" in row and "enters on Game-Turn 1: hex 2913" in row
    us = ok(pbem("units", g, "--side", "US", home=home)).out
    placed = next(r for r in us.splitlines() if r.startswith("20 "))
    signed = json.loads((g / "move-0001-US.json").read_bytes())
    body = json.loads(base64.b64decode(signed["payload"]))
    assert placed.split()[3] == body["orders"]["placements"]["20"]  # where the signed set-up put it
    assert pbem("units", g, "--side", "FR", home=home).code == 2


def test_reach_lists_where_a_unit_can_go_and_refuses_out_of_turn(game: tuple[Path, Path]) -> None:
    home, g = game
    out = ok(pbem("reach", g, "1/3", home=home)).out.splitlines()
    assert out[0].startswith("1/3 (6-4-12, 12 MP) entering the map [11.11]")
    first = next(line for line in out[1:] if line.strip().startswith("2913"))
    assert "MP" in first  # the entry hex itself costs its terrain
    hexes = {line.split()[0] for line in out[1:] if line.startswith("  ")}
    from pbem.maps.hexmap import Hex

    # next to the entry hex, and far across the map by the roads (12 MP) [5.0, 11.11]
    assert "2812" in hexes and max(Hex.parse(h).distance(Hex.parse("2913")) for h in hexes) >= 12, hexes
    res = pbem("reach", g, "20", home=home)  # a U.S. unit in the German player-turn
    assert res.code == 2 and "[4.1]" in res.err


def test_reach_map_shades_exactly_the_hexes_listed(game: tuple[Path, Path], tmp_path: Path) -> None:
    import re

    home, g = game
    svg_path = tmp_path / "reach.svg"
    out = ok(pbem("reach", g, "1/3", "--map", svg_path, home=home)).out.splitlines()
    listed = {line.split()[0]: line.split()[1] for line in out[1:]
              if line.startswith("  ") and line.split()[0].isdigit()}
    svg = svg_path.read_text()
    shaded = set(re.findall(r'id="shaded-(\d{4,6})"', svg))
    assert shaded == set(listed)  # every reachable hex shaded, and nothing else
    assert "1/3 can end its move here (MP spent)" in svg  # the legend says what the shading means
    assert f">{listed['2812']}<" in svg  # the label is the MP spent
    res = pbem("reach", g, "20", "--map", tmp_path / "no.svg", home=home)
    assert res.code == 2 and not (tmp_path / "no.svg").exists()


def test_ingest_tells_what_happened_and_never_to_send_the_opponents_move_back(tmp_path: Path) -> None:
    import shutil

    de_home, us_home, a, b = remote_spearhead(tmp_path)
    mail = tmp_path / "from-bob.eml"
    shutil.copyfile(b / "mail-0001.eml", mail)
    res = ok(pbem("ingest", a, mail, home=de_home))
    body = json.loads(base64.b64decode(json.loads((b / "move-0001-US.json").read_bytes())["payload"]))
    assert "step 1: US's move" in res.err and f"20 set up in {body['orders']['placements']['20']}" in res.err
    assert "next: DE -- Game-Turn 1, German player-turn" in res.err
    assert "send move-0001-US.json" not in res.err  # bob's own move is not bob's to receive back


def test_mails_carry_from_and_to_when_the_genesis_has_addresses(tmp_path: Path) -> None:
    import email
    import email.policy

    de_home, us_home = tmp_path / "de-home", tmp_path / "us-home"
    a, b = tmp_path / "de-game", tmp_path / "us-game"
    ok(pbem("key", "new", "alice", home=de_home))
    ok(pbem("key", "new", "bob", home=us_home))
    pub = us_home / "keys" / "bob.pub"
    for bad in ("bob@example.net\nBcc: eve@example.org", "bob@example.net\n", "Bob <bob@example.net>"):
        res = pbem("new", "bastogne-spearhead", tmp_path / "x", "--player", "DE=alice", "--player",
                   f"US={pub}", "--email", f"US={bad}", home=de_home)
        assert res.code == 2 and "not one email address" in res.err and not (tmp_path / "x").exists()
    ok(pbem("new", "bastogne-spearhead", a, "--player", "DE=alice", "--player", f"US={pub}",
            "--email", "DE=alice@example.org", "--email", "US=bob@example.net", home=de_home))

    def headers(path: Path) -> tuple[str, str]:
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        return str(msg["From"]), str(msg["To"])

    assert headers(a / "mail-invite-US.eml") == ("alice@example.org", "bob@example.net")
    ok(pbem("join", b, "--key", "bob", "--invitation", a / "mail-invite-US.eml", home=us_home))
    assert headers(b / "mail-join-US.eml") == ("bob@example.net", "alice@example.org")
    ok(pbem("ingest", a, b / "mail-join-US.eml", home=de_home))
    (tmp_path / "us.json").write_text(ok(pbem("orders", b, "--side", "US", home=us_home)).out)
    ok(pbem("submit", "--yes", b, tmp_path / "us.json", "--key", "bob", home=us_home))
    assert headers(b / "mail-0001.eml") == ("bob@example.net", "alice@example.org")


def test_new_without_addresses_says_the_emails_will_carry_none(tmp_path: Path) -> None:
    """A trial from the README: 'pbem new' without --email drafted every mail with no From or To and
    said nothing; the addresses are signed in the genesis, so 'pbem send' refusing a mail with no To:
    later is too late to add them. The creator is told at 'pbem new', for the sides without one."""
    home = tmp_path / "home"
    ok(pbem("key", "new", "alice", home=home))
    ok(pbem("key", "new", "bob", home=tmp_path / "bob-home"))
    pub = tmp_path / "bob-home" / "keys" / "bob.pub"
    res = ok(pbem("new", "bastogne-spearhead", tmp_path / "a", "--player", "DE=alice", "--player",
                  f"US={pub}", home=home))
    note = next(line for line in res.err.splitlines() if line.startswith("note: no email address"))
    assert note.startswith("note: no email address for DE, US:") and "--email SIDE=ADDRESS" in note
    res = ok(pbem("new", "bastogne-spearhead", tmp_path / "b", "--player", "DE=alice", "--player",
                  f"US={pub}", "--email", "US=bob@example.net", home=home))
    assert "note: no email address for DE:" in res.err
    res = ok(pbem("new", "bastogne-spearhead", tmp_path / "c", "--player", "DE=alice", "--player",
                  f"US={pub}", "--email", "DE=alice@example.org", "--email", "US=bob@example.net", home=home))
    assert "no email address" not in res.err


def test_p3_the_preview_says_when_the_dice_of_the_orders_are_rolled(game: tuple[Path, Path],
                                                                    tmp_path: Path) -> None:
    """A trial by email: 'pbem check' of an attack said what would be signed and the odds, and
    nothing of when its die is rolled -- by the opponent's pbem as it takes the move in, and for the
    mover only with the opponent's next message [P3]; at the hot seat, at once. The set-up rolls none."""
    home, g = game  # hot seat: both keys here
    (tmp_path / "de.txt").write_text("enter 1/3 via 2913 2812 2712\n")
    res = ok(pbem("check", g, tmp_path / "de.txt", "--key", "alice", home=home))
    assert ("Once signed:\n  > US is played here too: any die these orders roll is rolled as you sign them "
            "[P3]") in res.out
    de_home, us_home, a, b = remote_spearhead(tmp_path, submit=False)  # by email: two homes
    res = ok(pbem("check", b, tmp_path / "us.json", "--key", "bob", home=us_home))
    assert "Once signed" not in res.out  # a set-up rolls no die
    ok(pbem("submit", "--yes", b, tmp_path / "us.json", "--key", "bob", home=us_home))
    ok(pbem("ingest", a, b / "mail-0001.eml", home=de_home))
    res = ok(pbem("check", a, tmp_path / "de.txt", "--key", "alice", home=de_home))
    assert ("Once signed:\n  > any die these orders roll is keyed by US's next reveal: US's pbem rolls it on "
            "taking in your move, and yours when US's next message (or a receipt) arrives [P3]") in res.out
