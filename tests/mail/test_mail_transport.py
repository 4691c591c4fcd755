"""pbem send / pbem fetch against real servers started on loopback: aiosmtpd (SMTP) delivering
into pymap (IMAP), both from the package index (dev dependencies). Two players with their own
homes and game directories play Spearhead through nothing but `send`, `fetch` and `bot`; the
mailbox also receives a duplicate, a corrupted mail, a mail rewrapped by a server and one that
claims this game but carries another's move -- each reported, nothing changed."""

from __future__ import annotations

import email
import email.policy
import imaplib
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.protocol import ok, pbem

aiosmtpd = pytest.importorskip("aiosmtpd.controller", reason="aiosmtpd (dev dependency) is not installed")
pytest.importorskip("pymap", reason="pymap (dev dependency) is not installed")

USER, PASSWORD = "post", "office"
MAILBOX = {"de@example.org": "to-de", "us@example.org": "to-us"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_pymap(port: int, *tls: str) -> subprocess.Popen[bytes]:
    """pymap's in-memory IMAP server on loopback (``tls``: its TLS options), once it answers."""
    pymap = Path(sys.executable).with_name("pymap")
    proc = subprocess.Popen([str(pymap), "--host", "127.0.0.1", "--port", str(port), *tls, "dict",
                             "--demo-user", USER, "--demo-password", PASSWORD],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            imaplib.IMAP4("127.0.0.1", port).logout()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.terminate()
    pytest.fail("pymap did not start")


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[int, int]]:
    """(smtp port, imap port): pymap's in-memory IMAP server, and an SMTP server that delivers each
    recipient's mail into their mailbox there."""
    imap_port = _free_port()
    proc = _start_pymap(imap_port, "--no-tls")
    try:
        conn = imaplib.IMAP4("127.0.0.1", imap_port)
        conn.login(USER, PASSWORD)
        for box in MAILBOX.values():
            conn.create(box)
        conn.logout()

        class Deliver:
            async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
                imap = imaplib.IMAP4("127.0.0.1", imap_port)
                imap.login(USER, PASSWORD)
                for rcpt in envelope.rcpt_tos:
                    imap.append(MAILBOX[rcpt], None, None, envelope.original_content)
                imap.logout()
                return "250 delivered"

        smtp_port = _free_port()
        controller = aiosmtpd.Controller(Deliver(), hostname="127.0.0.1", port=smtp_port)
        controller.start()
        try:
            yield smtp_port, imap_port
        finally:
            controller.stop()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _config(home: Path, smtp: int, imap: int, mailbox: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "pw.py").write_text(f"print({PASSWORD!r})\n", encoding="utf-8")
    command = f"{sys.executable} {home / 'pw.py'}"
    (home / "mail.toml").write_text(
        f'[smtp]\nhost = "127.0.0.1"\nport = {smtp}\nsecurity = "none"\n\n'
        f'[imap]\nhost = "127.0.0.1"\nport = {imap}\nsecurity = "none"\nuser = "{USER}"\n'
        f"password_command = '{command}'\nmailbox = \"{mailbox}\"\n", encoding="utf-8")


def _append(imap_port: int, box: str, raw: bytes) -> None:
    imap = imaplib.IMAP4("127.0.0.1", imap_port)
    imap.login(USER, PASSWORD)
    imap.append(box, None, None, raw)
    imap.logout()


def files(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in d.glob("*.json")}


@pytest.mark.slow  # a whole game over SMTP and IMAP: about two minutes
def test_spearhead_by_send_fetch_and_bot_only(servers: tuple[int, int], tmp_path: Path) -> None:
    smtp, imap = servers
    de_home, us_home = tmp_path / "de-home", tmp_path / "us-home"
    a, b = tmp_path / "de-game", tmp_path / "us-game"
    _config(de_home, smtp, imap, "to-de")
    _config(us_home, smtp, imap, "to-us")
    ok(pbem("key", "new", "alice", home=de_home))
    ok(pbem("key", "new", "bob", home=us_home))
    ok(pbem("new", "bastogne-spearhead", a, "--player", "DE=alice", "--player",
            f"US={us_home / 'keys' / 'bob.pub'}", "--email", "DE=de@example.org",
            "--email", "US=us@example.org", home=de_home))
    assert ok(pbem("send", a, home=de_home)).out.split() == ["sent", "mail-invite-US.eml"]
    # Bob saves the invitation from his mailbox and joins (a game is joined, not fetched)
    invite = tmp_path / "invitation.eml"
    invite.write_bytes(_first_mail(imap, "to-us"))
    ok(pbem("join", b, "--key", "bob", "--invitation", invite, home=us_home))
    players = {"DE": (de_home, a, "alice"), "US": (us_home, b, "bob")}
    receipts_seen = 0
    for _ in range(40):  # until the game is over, on both sides
        over = 0
        for side, (home, d, key) in players.items():
            fetched = pbem("fetch", d, "--receipt", key, home=home)
            assert fetched.code == 0, fetched.err
            assert "not ingested" not in fetched.out, fetched.out
            receipts_seen += fetched.out.count("receipt-")
            status = json.loads(ok(pbem("status", d, "--json", home=home)).out)
            if any(p["side"] == side for p in status["pending"]):
                ok(pbem("bot", d, "--side", side, "--key", key, home=home))
            ok(pbem("send", d, home=home))
            over += status.get("outcome") is not None and not status["pending"]
        if over == 2:
            break
    else:
        pytest.fail("the game did not end")
    # both archives are the same file for file [P6], and a stranger verifies the whole game
    assert files(a) == files(b)
    assert receipts_seen > 5  # each mover saw its dice through a receipt, not a whole turn later
    assert len(list(a.glob("move-*.json"))) == 16 and list(a.glob("receipt-*.json"))
    assert ok(pbem("verify", a, home=tmp_path / "stranger")).out.strip().endswith("OK")
    # sending again sends nothing new; fetching again ingests nothing new
    assert ok(pbem("send", a, home=de_home)).out == ""
    again = ok(pbem("fetch", a, home=de_home))
    assert again.out == ""

    # -- hostile or damaged mail in Alice's mailbox: each reported, nothing changed -----------------
    before = files(a)
    # Bob's last email, answered and so no longer in his directory (issue 28): drafted again
    assert not list(b.glob("mail-0*.eml"))
    last = max(int(p.name[5:9]) for p in b.glob("move-*-US.json"))
    ok(pbem("mail", "draft", b, "--step", str(last), "-o", tmp_path / "last.eml", home=us_home))
    last_move = (tmp_path / "last.eml").read_bytes()
    _append(imap, "to-de", last_move)  # a duplicate of a mail already ingested
    corrupted = bytearray(last_move)
    i = corrupted.index(b"filename=\"move-")
    j = corrupted.index(b"\r\n\r\n", i) + 40
    corrupted[j] = ord("A") if corrupted[j] != ord("A") else ord("B")
    _append(imap, "to-de", bytes(corrupted))
    # a server that re-encodes: every attachment (quoted-printable, 7bit or base64 as pbem wrote
    # it) as base64 in lines of 40 characters
    rewrapped = email.message_from_bytes(last_move, policy=email.policy.SMTP)
    for part in rewrapped.walk():
        if part.get_filename():
            import base64

            data = part.get_payload(decode=True)
            encoded = base64.b64encode(data).decode()
            part.set_payload("\r\n".join(encoded[k:k + 40] for k in range(0, len(encoded), 40)))
            del part["Content-Transfer-Encoding"]
            part["Content-Transfer-Encoding"] = "base64"
    _append(imap, "to-de", rewrapped.as_bytes())
    other = tmp_path / "other"
    ok(pbem("new", "bastogne-spearhead", other, "--player", "DE=alice", "--player",
            f"US={us_home / 'keys' / 'bob.pub'}", home=de_home))
    # a mail that claims this game but carries another game's genesis and files
    msg = email.message_from_bytes((other / "mail-invite-US.eml").read_bytes(), policy=email.policy.SMTP)
    del msg["X-Pbem-Game"]
    msg["X-Pbem-Game"] = _game_id(a)
    _append(imap, "to-de", msg.as_bytes())
    report = ok(pbem("fetch", a, home=de_home)).out.splitlines()
    assert len(report) == 4, report
    assert sum("already in the archive" in line for line in report) >= 2  # the duplicate and the rewrapped copy
    assert sum("not ingested" in line and "left in the mailbox" in line for line in report) == 2
    assert files(a) == before
    # never lost: counted next time, but not downloaded again while the archive has not moved [29]
    assert ok(pbem("fetch", a, home=de_home)).out.splitlines() == [
        "2 mails of this game not ingested before and skipped: nothing new in the archive since could make "
        "them ingestible"]


def _first_mail(imap_port: int, box: str) -> bytes:
    imap = imaplib.IMAP4("127.0.0.1", imap_port)
    imap.login(USER, PASSWORD)
    imap.select(box, readonly=True)
    typ, data = imap.uid("SEARCH", "ALL")
    uid = data[0].split()[0]
    typ, parts = imap.uid("FETCH", uid, "(BODY.PEEK[])")
    imap.logout()
    raw = parts[0][1]
    assert isinstance(raw, bytes)
    return raw


def _game_id(d: Path) -> str:
    import base64

    env = json.loads((d / "genesis.json").read_text())
    return str(json.loads(base64.b64decode(env["payload"]))["game"])


def test_config_refuses_cleartext_to_a_remote_host_and_passwords_come_from_a_command(tmp_path: Path) -> None:
    from pbem.errors import InputError
    from pbem.mail.transport import load_config

    (tmp_path / "mail.toml").write_text('[smtp]\nhost = "smtp.example.org"\nsecurity = "none"\n')
    with pytest.raises(InputError, match="refused for smtp.example.org"):
        load_config(tmp_path, "smtp", env={})
    server = load_config(tmp_path, "smtp", env={"PBEM_SMTP_SECURITY": "starttls",
                                               "PBEM_SMTP_PASSWORD_COMMAND": f"{sys.executable} -c \"print('s3')\""})
    assert (server.port, server.security, server.password()) == (587, "starttls", "s3")
    with pytest.raises(InputError, match="no imap server configured"):
        load_config(tmp_path, "imap", env={})
    bad = load_config(tmp_path, "smtp", env={"PBEM_SMTP_SECURITY": "tls", "PBEM_SMTP_PASSWORD_COMMAND": "/nonexistent/x"})
    with pytest.raises(InputError, match="password_command failed"):
        bad.password()


def _self_signed(tmp_path: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 (and its key), made here: the test's own CA."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(1).not_valid_before(now).not_valid_after(now + datetime.timedelta(days=3650))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


@pytest.mark.parametrize("security", ["starttls", "tls"])
def test_send_over_starttls_and_implicit_tls_with_login(security: str, tmp_path: Path) -> None:
    # The SMTP server requires TLS (STARTTLS, or TLS from the first byte) and a login; pbem trusts
    # its certificate through 'cafile', logs in with the password its command prints, and sends.
    import ssl

    from aiosmtpd.smtp import AuthResult, LoginPassword

    cert, key = _self_signed(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    got: list[bytes] = []
    logins: list[tuple[bytes, bytes]] = []

    class Keep:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            got.append(envelope.original_content)
            return "250 kept"

    def authenticate(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
        assert isinstance(data, LoginPassword)
        logins.append((data.login, data.password))
        return AuthResult(success=data.login == b"alice" and data.password == b"s3cret")

    port = _free_port()
    # auth_require_tls=False: aiosmtpd 1.4 does not see its own TLS (STARTTLS on Python 3.11, or TLS
    # from the first byte) when it decides whether to offer AUTH; the connection is TLS either way
    # (require_starttls, or ssl_context), and pbem never logs in before it is.
    kwargs: dict[str, Any] = {"authenticator": authenticate, "auth_require_tls": False}
    if security == "starttls":
        kwargs.update(tls_context=context, require_starttls=True)
        controller = aiosmtpd.Controller(Keep(), hostname="127.0.0.1", port=port, **kwargs)
    else:
        controller = aiosmtpd.Controller(Keep(), hostname="127.0.0.1", port=port, ssl_context=context, **kwargs)
    controller.start()
    try:
        home, game = tmp_path / "home", tmp_path / "g"
        ok(pbem("key", "new", "alice", home=home))
        ok(pbem("key", "new", "bob", home=home))
        ok(pbem("new", "bastogne-spearhead", game, "--player", "DE=alice", "--player", "US=bob",
                "--email", "DE=de@example.org", "--email", "US=us@example.org", home=home))
        ok(pbem("bot", game, "--side", "US", "--key", "bob", home=home))  # mail-0001.eml, US -> DE
        (home / "pw.py").write_text("print('s3cret')\n")
        (home / "mail.toml").write_text(
            f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "{security}"\nuser = "alice"\n'
            f'password_command = "{sys.executable} {home / "pw.py"}"\ncafile = "{cert}"\n')
        res = ok(pbem("send", game, home=home))
        assert res.out.split() == ["sent", "mail-0001.eml"]
        assert logins == [(b"alice", b"s3cret")] and len(got) == 1 and b"X-Pbem-Game" in got[0]
        # without trusting the server's certificate nothing is sent, and pbem says why in one line
        (home / "mail.toml").write_text(
            f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "{security}"\nuser = "alice"\n')
        ok(pbem("bot", game, "--side", "DE", "--key", "alice", home=home))
        res = pbem("send", game, home=home)
        assert res.code == 2 and "SSLCertVerificationError" in res.err and "\n" not in res.err.strip()
        assert len(got) == 1
    finally:
        controller.stop()


def test_fetch_over_starttls_trusting_the_servers_ca(tmp_path: Path) -> None:
    # pymap requires nothing in clear here: pbem upgrades with STARTTLS, checks the certificate
    # against 'cafile' and only then logs in; a mail of the game is ingested.
    import shutil

    cert, key = _self_signed(tmp_path)
    port = _free_port()
    proc = _start_pymap(port, "--cert", str(cert), "--key", str(key))
    try:
        de_home, us_home = tmp_path / "de", tmp_path / "us"
        a, b = tmp_path / "a", tmp_path / "b"
        ok(pbem("key", "new", "alice", home=de_home))
        ok(pbem("key", "new", "bob", home=us_home))
        ok(pbem("new", "bastogne-spearhead", a, "--player", "DE=alice", "--player",
                f"US={us_home / 'keys' / 'bob.pub'}", home=de_home))
        shutil.copyfile(a / "mail-invite-US.eml", tmp_path / "invite.eml")
        ok(pbem("join", b, "--key", "bob", "--invitation", tmp_path / "invite.eml", home=us_home))
        ok(pbem("ingest", a, b / "mail-join-US.eml", home=de_home))
        ok(pbem("bot", b, "--side", "US", "--key", "bob", home=us_home))
        conn = imaplib.IMAP4("127.0.0.1", port)
        conn.starttls(ssl_context=__import__("ssl").create_default_context(cafile=str(cert)))
        conn.login(USER, PASSWORD)
        conn.append("INBOX", None, None, (b / "mail-0001.eml").read_bytes())
        conn.logout()
        (de_home / "pw.py").write_text(f"print({PASSWORD!r})\n")
        (de_home / "mail.toml").write_text(
            f'[imap]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "starttls"\nuser = "{USER}"\n'
            f'password_command = "{sys.executable} {de_home / "pw.py"}"\ncafile = "{cert}"\n')
        res = ok(pbem("fetch", a, home=de_home))
        assert "ingested move-0001-US.json" in res.out
        assert (a / "move-0001-US.json").read_bytes() == (b / "move-0001-US.json").read_bytes()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_sent_mail_shows_the_map_inline_for_webmail_in_a_real_browser(tmp_path: Path) -> None:
    # pbem send adds the map as a PNG inside the HTML part (cid:), which webmail shows where it
    # shows no SVG; the draft on disk is unchanged. The HTML part, opened in Chromium with its
    # cid: reference resolved as a mail client does, shows the map.
    got: list[bytes] = []

    class Keep:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            got.append(envelope.original_content)
            return "250 kept"

    port = _free_port()
    controller = aiosmtpd.Controller(Keep(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        home, game = tmp_path / "home", tmp_path / "g"
        ok(pbem("key", "new", "alice", home=home))
        ok(pbem("key", "new", "bob", home=home))
        ok(pbem("new", "bastogne-spearhead", game, "--player", "DE=alice", "--player", "US=bob",
                "--email", "DE=de@example.org", "--email", "US=us@example.org", home=home))
        ok(pbem("bot", game, "--side", "US", "--key", "bob", home=home))
        draft = (game / "mail-0001.eml").read_bytes()
        (home / "mail.toml").write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "none"\n')
        ok(pbem("send", game, home=home))
    finally:
        controller.stop()
    assert (game / "mail-0001.eml").read_bytes() == draft  # the archived draft is not changed
    msg = email.message_from_bytes(got[0], policy=email.policy.default)
    html = next(p for p in msg.walk() if p.get_content_type() == "text/html")
    png = next(p for p in msg.walk() if p.get_content_type() == "image/png")
    assert png["Content-ID"] == "<map-1@pbem.invalid>" and 'src="cid:map-1@pbem.invalid"' in html.get_content()
    data = png.get_payload(decode=True)
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
    assert any(p.get_content_type() == "image/svg+xml" for p in msg.walk())  # the SVG still attached
    # in a real browser
    from render.test_site import _driver

    page = tmp_path / "mail.html"
    (tmp_path / "map-1.png").write_bytes(data)
    page.write_text(html.get_content().replace("cid:map-1@pbem.invalid", "map-1.png"), encoding="utf-8")
    browser = _driver()
    try:
        browser.get(page.as_uri())
        width = browser.execute_script(
            "var i = document.querySelector('img'); return i && i.complete && i.naturalWidth;")
        assert width and width > 500
    finally:
        browser.quit()


def test_29_junk_mail_tagged_with_the_game_costs_nothing_on_the_next_fetch(tmp_path: Path) -> None:
    """A hostile sender fills the mailbox with mails that claim this game: the first fetch refuses
    each (one download each, however many passes it makes), the next fetch does not download them
    again while the archive has not moved, and a mail that waited for an earlier one is tried
    again once the archive moves."""
    import shutil

    from pbem.mail.transport import Server
    from pbem.mail.transport import fetch as imap_fetch

    port = _free_port()
    proc = _start_pymap(port, "--no-tls")
    try:
        de_home, us_home = tmp_path / "de", tmp_path / "us"
        a, b = tmp_path / "a", tmp_path / "b"
        ok(pbem("key", "new", "alice", home=de_home))
        ok(pbem("key", "new", "bob", home=us_home))
        ok(pbem("new", "bastogne-spearhead", a, "--player", "DE=alice", "--player",
                f"US={us_home / 'keys' / 'bob.pub'}", home=de_home))
        shutil.copyfile(a / "mail-invite-US.eml", tmp_path / "invite.eml")
        ok(pbem("join", b, "--key", "bob", "--invitation", tmp_path / "invite.eml", home=us_home))
        game_id = json.loads(ok(pbem("status", a, "--json", home=de_home)).out)["game"]
        junk = 12
        for i in range(junk):
            _append(port, "INBOX", (f"From: x@example.org\r\nTo: de@example.org\r\nSubject: junk {i}\r\n"
                                    f"X-Pbem-Game: {game_id}\r\n\r\nnothing of pbem here {i}\r\n").encode())
        downloads: list[bytes] = []

        def connect(server: Server) -> Any:
            imap = imaplib.IMAP4(server.host, server.port)
            real = imap.uid

            def uid(command: str, *args: Any) -> Any:
                if command == "FETCH" and "BODY" in str(args[-1]):
                    downloads.append(args[0])
                return real(command, *args)

            imap.uid = uid  # type: ignore[method-assign]
            return imap

        (tmp_path / "pw.py").write_text(f"print({PASSWORD!r})\n", encoding="utf-8")
        server = Server("imap", "127.0.0.1", port, "none", USER, f"{sys.executable} {tmp_path / 'pw.py'}")
        local = de_home / "games" / game_id
        state = {"position": "1"}

        def once() -> Any:
            def ingest(raw: bytes, label: str) -> str:
                from pbem.errors import InputError

                raise InputError("not a pbem mail")

            return imap_fetch(game_id, local, server, ingest, connect=connect, position=lambda: state["position"])

        first = once()
        assert len(downloads) == junk and len(set(downloads)) == junk  # one download each, whatever the passes
        assert sum("not ingested" in line for line in first.reports) == junk
        downloads.clear()
        second = once()
        assert downloads == []
        assert second.reports == [f"{junk} mails of this game not ingested before and skipped: nothing new in the "
                                  "archive since could make them ingestible"]
        state["position"] = "2"  # the archive moved on: each is worth one more look
        once()
        assert len(downloads) == junk
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_29_an_invitee_joins_from_the_mailbox(tmp_path: Path) -> None:
    """``pbem join --fetch``: the invitee needs no other mail client. Only invitations to its own
    key count; with two games inviting it, it must choose one."""
    port = _free_port()
    proc = _start_pymap(port, "--no-tls")
    try:
        de_home, us_home, other_home = tmp_path / "de", tmp_path / "us", tmp_path / "other"
        ok(pbem("key", "new", "alice", home=de_home))
        ok(pbem("key", "new", "bob", home=us_home))
        ok(pbem("key", "new", "carl", home=other_home))
        games = {}
        for name, invited in (("g1", us_home / "keys" / "bob.pub"), ("g2", us_home / "keys" / "bob.pub"),
                              ("g3", other_home / "keys" / "carl.pub")):
            ok(pbem("new", "bastogne-spearhead", tmp_path / name, "--player", "DE=alice", "--player",
                    f"US={invited}", home=de_home))
            _append(port, "INBOX", (tmp_path / name / "mail-invite-US.eml").read_bytes())
            games[name] = json.loads(ok(pbem("status", tmp_path / name, "--json", home=de_home)).out)["game"]
        _append(port, "INBOX", b"From: x@example.org\r\nX-Pbem-Step: 0\r\n\r\nnot an invitation\r\n")
        _config(us_home, 1, port, "INBOX")
        res = pbem("join", tmp_path / "b", "--key", "bob", "--fetch", home=us_home)
        assert res.code == 2 and "2 games invite key bob: choose one with --game" in res.err
        assert games["g1"][:8] in res.err and games["g2"][:8] in res.err and games["g3"][:8] not in res.err
        assert not (tmp_path / "b").exists()
        res = ok(pbem("join", tmp_path / "b", "--key", "bob", "--fetch", "--game", games["g2"][:8], home=us_home))
        assert f"game {games['g2']}" in res.err and (tmp_path / "b" / "join-US.json").is_file()
        assert (tmp_path / "b" / "genesis.json").read_bytes() == (tmp_path / "g2" / "genesis.json").read_bytes()
        ok(pbem("ingest", tmp_path / "g2", tmp_path / "b" / "join-US.json", home=de_home))
        res = pbem("join", tmp_path / "c", "--key", "bob", "--fetch", "--game", "ffff", home=us_home)
        assert res.code == 2 and "no invitation to key bob" in res.err
    finally:
        proc.terminate()
        proc.wait(timeout=10)
