"""``pbem send`` and files pbem never wrote (hostile-input trial 32, case 5): a mail planted in the
game directory -- a link to a file outside it, a plain file with its own To:, even one with a line
added to ``derived.sha256``, or pbem's own draft edited -- is never sent from the player's account.
Send sends a draft only when it is a plain file whose name and bytes pbem recorded when it drafted
it on this machine (``<pbem home>/games/<id>/drafted/``); anything else from a side played here
refuses the whole send in one line naming it, before anything reaches the server. A real SMTP
server (aiosmtpd) listens on loopback and keeps what it is sent."""

from __future__ import annotations

import email
import email.policy
import hashlib
import shutil
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.protocol import Result, env, ok, pbem

aiosmtpd = pytest.importorskip("aiosmtpd.controller", reason="aiosmtpd (dev dependency) is not installed")

PLANTED = (b"From: de@example.org\r\nTo: evil@example.org\r\nSubject: x\r\nX-Pbem-From-Side: DE\r\n\r\n"
           b"SECRET FROM OUTSIDE THE GAME DIR\r\n")


class Server:
    """An SMTP server on loopback that keeps every message it is given."""

    def __init__(self) -> None:
        self.got: list[Any] = []
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])

        server = self

        class Keep:
            async def handle_DATA(self, smtp: Any, session: Any, envelope: Any) -> str:
                server.got.append(email.message_from_bytes(envelope.original_content, policy=email.policy.SMTP))
                return "250 kept"

        self.controller = aiosmtpd.Controller(Keep(), hostname="127.0.0.1", port=self.port)

    def configure(self, home: Path) -> None:
        home.mkdir(parents=True, exist_ok=True)
        (home / "mail.toml").write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {self.port}\nsecurity = "none"\n')


@pytest.fixture
def smtp() -> Iterator[Server]:
    server = Server()
    server.controller.start()
    try:
        yield server
    finally:
        server.controller.stop()


def new_game(tmp_path: Path, smtp: Server) -> tuple[Path, Path, Path]:
    """Alice (DE) invites bob (US) by his public key: (alice's home, bob's home, alice's game),
    the invitation drafted and not sent yet."""
    de, us, g = tmp_path / "de", tmp_path / "us", tmp_path / "a"
    ok(pbem("key", "new", "alice", home=de))
    ok(pbem("key", "new", "bob", home=us))
    ok(pbem("new", "bastogne-spearhead", g, "--player", "DE=alice", "--player", f"US={us / 'keys' / 'bob.pub'}",
            "--email", "DE=de@example.org", "--email", "US=us@example.org", home=de))
    smtp.configure(de)
    smtp.configure(us)
    return de, us, g


def refused(res: Result, name: str) -> str:
    assert res.code == 2, (res.code, res.err, res.out)
    lines = res.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"pbem: {name}: ") and "Traceback" not in res.err, res.err
    assert res.out == ""  # nothing reported sent
    return lines[0]


def sent_names(res: Result) -> list[str]:
    return [line.removeprefix("sent ") for line in res.out.splitlines()]


@pytest.mark.parametrize("target", ["planted mail outside", "copy of pbem's own invitation"])
def test_a_link_at_a_mail_name_is_refused_and_nothing_is_sent(tmp_path: Path, smtp: Server, target: str) -> None:
    # The trial: g/mail-0099.eml -> ../outside.txt, a mail with its own To:, was sent (rc 0). A
    # link is not followed even to a copy of the very bytes pbem drafted: the files sent are the
    # plain files of the game directory.
    de, _, g = new_game(tmp_path, smtp)
    outside = tmp_path / "outside.eml"
    if target == "planted mail outside":
        outside.write_bytes(PLANTED)
        link = g / "mail-0099.eml"
    else:
        shutil.copyfile(g / "mail-invite-US.eml", outside)
        (g / "mail-invite-US.eml").unlink()
        link = g / "mail-invite-US.eml"
    link.symlink_to(outside)
    line = refused(pbem("send", g, home=de), link.name)
    assert "symbolic link" in line
    assert smtp.got == []  # not even the invitation waiting beside it
    link.unlink()
    if target == "planted mail outside":  # moved away: the invitation goes, and only it
        assert sent_names(ok(pbem("send", g, home=de))) == ["mail-invite-US.eml"]
        assert [m["To"] for m in smtp.got] == ["us@example.org"]


@pytest.mark.parametrize("how", ["planted plain file", "planted, with a line in derived.sha256",
                                 "pbem's invitation edited"])
def test_a_mail_pbem_did_not_draft_here_is_refused_and_nothing_is_sent(tmp_path: Path, smtp: Server, how: str) -> None:
    de, _, g = new_game(tmp_path, smtp)
    if how == "pbem's invitation edited":
        name = "mail-invite-US.eml"
        raw = (g / name).read_bytes()
        assert b"To: us@example.org" in raw
        (g / name).write_bytes(raw.replace(b"To: us@example.org", b"To: evil@example.org"))
    else:
        name = "mail-0099.eml"
        (g / name).write_bytes(PLANTED)
        if how == "planted, with a line in derived.sha256":  # the game directory's own record is no proof
            with open(g / "derived.sha256", "ab") as fh:
                fh.write(f"{hashlib.sha256(PLANTED).hexdigest()}  {name}\n".encode())
    line = refused(pbem("send", g, home=de), name)
    assert "not an email pbem drafted here" in line
    assert smtp.got == []


def test_a_link_put_there_after_the_game_was_opened_is_refused_when_read(tmp_path: Path, smtp: Server) -> None:
    # 'pbem send' refuses a link when it opens the game; the sending itself reads each draft as a
    # plain file too, so a link put there in between is refused before anything is sent.
    from pbem.engine.gamedir import open_checked
    from pbem.errors import InputError
    from pbem.mail.transport import load_config
    from pbem.mail.transport import send as smtp_send
    from pbem.protocol.localstate import LocalGame

    de, _, g = new_game(tmp_path, smtp)
    (tmp_path / "outside.eml").write_bytes(PLANTED)
    with env(PBEM_HOME=str(de)):
        game = open_checked(g)
        local = LocalGame.of(game)
        (g / "mail-0099.eml").symlink_to(tmp_path / "outside.eml")
        with pytest.raises(InputError) as refusal:
            smtp_send(g, local.dir, set(local.sides()), load_config(de, "smtp"))
    assert str(refusal.value).startswith("mail-0099.eml: a symbolic link, refused")
    assert smtp.got == []


def test_every_email_pbem_drafts_is_sent_and_another_sides_mail_is_left(tmp_path: Path, smtp: Server) -> None:
    # Bob's directory, after he joins, signs his set-up, reminds alice, and asks to take the
    # set-up back, holds an email of each kind he drafted (and, saved there, alice's invitation,
    # from a side he does not play). Each of his is recorded when drafted and sent as drafted;
    # alice's is not his to send and stops nothing.
    de, us, a = new_game(tmp_path, smtp)
    b = tmp_path / "b"
    shutil.copyfile(a / "mail-invite-US.eml", tmp_path / "invite.eml")
    ok(pbem("join", b, "--key", "bob", "--invitation", tmp_path / "invite.eml", home=us))
    ok(pbem("bot", b, "--side", "US", "--key", "bob", home=us))
    ok(pbem("remind", b, home=us))
    ok(pbem("takeback", "request", b, "--key", "bob", home=us))
    shutil.copyfile(a / "mail-invite-US.eml", b / "mail-invite-US.eml")
    drafted = {p.name: p.read_bytes() for p in b.glob("mail-*.eml") if p.name != "mail-invite-US.eml"}
    assert sorted(drafted) == ["mail-0001.eml", "mail-join-US.eml", "mail-remind-0001-DE-1.eml",
                               "mail-takeback-0001-US-1.eml"]
    res = ok(pbem("send", b, home=us))
    assert sorted(sent_names(res)) == sorted(drafted)
    assert all(m["To"] == "de@example.org" and m["X-Pbem-From-Side"] == "US" for m in smtp.got)
    assert {str(m["Message-ID"]) for m in smtp.got} == {
        str(email.message_from_bytes(raw, policy=email.policy.SMTP)["Message-ID"]) for raw in drafted.values()}
    # sent once: a second send sends nothing
    assert ok(pbem("send", b, home=us)).out == "" and len(smtp.got) == len(drafted)


def test_a_move_email_an_earlier_pbem_drafted_unrecorded_is_sent_when_pbem_drafts_the_same_bytes(
        tmp_path: Path, smtp: Server) -> None:
    # an earlier pbem recorded no drafts: after an upgrade, the move email it left unsent is sent when
    # it is byte for byte the email pbem drafts again from the archive for a move signed here; the
    # same name with other bytes is still refused
    de, us, a = new_game(tmp_path, smtp)
    b = tmp_path / "b"
    shutil.copyfile(a / "mail-invite-US.eml", tmp_path / "invite.eml")
    ok(pbem("join", b, "--key", "bob", "--invitation", tmp_path / "invite.eml", home=us))
    ok(pbem("bot", b, "--side", "US", "--key", "bob", home=us))
    raw = (b / "mail-0001.eml").read_bytes()
    with env(PBEM_HOME=str(us)):
        from pbem.engine.gamedir import open_checked
        from pbem.protocol.localstate import LocalGame

        drafted = LocalGame.of(open_checked(b)).dir / "drafted"
    assert drafted.is_dir()
    shutil.rmtree(drafted)  # as an earlier pbem left it: no record of any draft
    (b / "mail-join-US.eml").unlink()  # (its join email would be refused: not a move's, not redrafted)
    edited = raw.replace(b"To: de@example.org", b"To: evil@example.org")
    assert edited != raw
    (b / "mail-0001.eml").write_bytes(edited)
    assert "not an email pbem drafted here" in refused(pbem("send", b, home=us), "mail-0001.eml")
    (b / "mail-0001.eml").write_bytes(raw)
    assert sent_names(ok(pbem("send", b, home=us))) == ["mail-0001.eml"]
    assert [m["To"] for m in smtp.got] == ["de@example.org"]


def test_an_unsent_email_not_on_disk_is_sent_as_the_drawing_derived_sha256_records(tmp_path: Path,
                                                                                 smtp: Server) -> None:
    # an email an earlier pbem drafted (drawing 3: no game id in the subject), pruned from the
    # directory and never sent: 'pbem send' drafts it again the way derived.sha256 records, the
    # email its author saw, not the newest drawing
    from pbem.engine.gamedir import open_checked
    from pbem.mail.compose import move_email

    de, us, a = new_game(tmp_path, smtp)
    b = tmp_path / "b"
    shutil.copyfile(a / "mail-invite-US.eml", tmp_path / "invite.eml")
    ok(pbem("join", b, "--key", "bob", "--invitation", tmp_path / "invite.eml", home=us))
    ok(pbem("bot", b, "--side", "US", "--key", "bob", home=us))
    with env(PBEM_HOME=str(us)):
        older = move_email(open_checked(b), 1, drawing=3)
    assert older != (b / "mail-0001.eml").read_bytes()
    (b / "mail-0001.eml").unlink()
    with open(b / "derived.sha256", "ab") as fh:  # as the earlier pbem recorded it
        fh.write(f"{hashlib.sha256(older).hexdigest()}  mail-0001.eml\n".encode())
    res = ok(pbem("send", b, home=us))
    assert "mail-0001.eml" in sent_names(res)
    [sent] = [m for m in smtp.got if "your move" in str(m["Subject"])]
    assert str(sent["Subject"]) == str(email.message_from_bytes(older, policy=email.policy.SMTP)["Subject"])
