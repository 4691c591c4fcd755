"""Sending the drafted emails over SMTP and fetching the other players' over IMAP (optional).

The drafts on disk (``mail-*.eml``) stay the default way to play: a player may send them with any
mail program. ``pbem send`` and ``pbem fetch`` do it for them, from cron if they like:

* ``pbem send GAME`` sends every ``mail-*.eml`` of the game that comes from a side played on this
  machine and was not sent before (the record is ``<pbem home>/games/<id>/sent/``, one file per
  draft: idempotent, and a mail that could not be sent is tried again next time), and the email
  of a move signed here that is no longer on disk but that some side has not answered yet, drafted
  again (``extra``: only the newest step's derived files are kept, issue 28). A draft is sent only
  when it is a plain file of the game directory (no link followed) whose name and bytes pbem
  recorded when it drafted it on this machine (``<pbem home>/games/<id>/drafted/``,
  :func:`pbem.protocol.localstate.drafted_here`): a file from this game's sides that pbem did not
  draft here -- put in the directory by someone else, or edited since -- refuses the whole send in
  one line naming it, before anything is sent;
* ``pbem fetch GAME`` searches the mailbox for mails of this game (``X-Pbem-Game``), ingests each
  one it has not handled before, and reports what each did. Mail is never deleted or moved: one
  that cannot be ingested (corrupted, another game's, a forgery) is reported and left where it is;
  one already in the archive is reported as a duplicate.

Configuration (``<pbem home>/mail.toml``, or the environment, which wins)::

    [smtp]
    host = "smtp.example.org"          # PBEM_SMTP_HOST
    port = 587                         # PBEM_SMTP_PORT
    security = "starttls"              # PBEM_SMTP_SECURITY: starttls, tls, or none (loopback only)
    user = "alice@example.org"         # PBEM_SMTP_USER
    password_command = "pass mail/alice"   # PBEM_SMTP_PASSWORD_COMMAND: its output is the password
    cafile = "/etc/ssl/my-ca.pem"      # PBEM_SMTP_CAFILE (optional): a private server's CA

    [imap]
    host = "imap.example.org"          # PBEM_IMAP_HOST ... as above, port 993, security "tls"
    mailbox = "INBOX"                  # PBEM_IMAP_MAILBOX

A password is never given on the command line or stored by pbem: ``password_command`` is run
(without a shell) each time and its first line of output is used. ``security = "none"`` is refused
for any host but the loopback interface.
"""

from __future__ import annotations

import hashlib
import shlex
import subprocess
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

from pbem.errors import InputError
from pbem.plain import Plain
from pbem.protocol import names as filenames
from pbem.protocol.fsutil import write_new, write_replace

CONFIG_NAME = "mail.toml"
_LOOPBACK = ("127.0.0.1", "::1", "localhost")
_DEFAULT_PORTS = {("smtp", "starttls"): 587, ("smtp", "tls"): 465, ("smtp", "none"): 25,
                  ("imap", "starttls"): 143, ("imap", "tls"): 993, ("imap", "none"): 143}
TIMEOUT = 60


class Server(Plain, frozen=True):
    kind: str
    """``smtp`` or ``imap``."""
    host: str
    port: int
    security: str
    user: str | None = None
    password_command: str | None = None
    mailbox: str = "INBOX"
    cafile: str | None = None
    """A certificate authority to trust besides the system's (a private server's own CA)."""

    def context(self) -> Any:
        import ssl

        return ssl.create_default_context(cafile=self.cafile) if self.cafile else ssl.create_default_context()

    def password(self) -> str | None:
        """The password, from ``password_command`` (run without a shell), or None."""
        if not self.password_command:
            return None
        try:
            argv = shlex.split(self.password_command)
            out = subprocess.run(argv, capture_output=True, timeout=30, check=True)
        except (ValueError, OSError, subprocess.SubprocessError) as exc:
            raise InputError(f"{self.kind} password_command failed: {type(exc).__name__}") from None
        lines = out.stdout.decode("utf-8", "replace").splitlines()
        if not lines:
            raise InputError(f"{self.kind} password_command printed nothing")
        return lines[0]


def load_config(home: Path, kind: str, env: dict[str, str] | None = None) -> Server:
    """The ``smtp`` or ``imap`` server settings; :class:`InputError` (one line) when missing or bad."""
    import os
    import tomllib

    env = dict(os.environ) if env is None else env
    values: dict[str, Any] = {}
    path = home / CONFIG_NAME
    if path.is_file():
        from pbem.protocol.fsutil import read_regular

        try:
            data = tomllib.loads(read_regular(path, 1 << 16, what=CONFIG_NAME).decode("utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise InputError(f"{path}: {exc}") from None
        section = data.get(kind, {})
        if not isinstance(section, dict):
            raise InputError(f"{path}: [{kind}] must be a table")
        values.update(section)
    prefix = f"PBEM_{kind.upper()}_"
    for key in ("host", "port", "security", "user", "password_command", "mailbox", "cafile"):
        if prefix + key.upper() in env:
            values[key] = env[prefix + key.upper()]
    host = values.get("host")
    if not isinstance(host, str) or not host:
        raise InputError(f"no {kind} server configured: set [{kind}] host in {path} (or {prefix}HOST)")
    security = str(values.get("security", "starttls" if kind == "smtp" else "tls")).lower()
    if security not in ("starttls", "tls", "none"):
        raise InputError(f"{kind} security must be starttls, tls or none, not {security[:20]!r}")
    if security == "none" and host not in _LOOPBACK:
        raise InputError(f"{kind} security 'none' is refused for {host[:60]}: it would send the "
                         "password and the moves in clear (allowed on the loopback interface only)")
    try:
        port = int(values.get("port", _DEFAULT_PORTS[(kind, security)]))
    except (TypeError, ValueError):
        raise InputError(f"{kind} port must be a number") from None
    user = values.get("user")
    command = values.get("password_command")
    mailbox = str(values.get("mailbox", "INBOX"))
    cafile = values.get("cafile")
    return Server(kind, host, port, security, str(user) if user else None,
                  str(command) if command else None, mailbox, str(cafile) if cafile else None)


# ------------------------------------------------------------------------------------------------
# send
# ------------------------------------------------------------------------------------------------


class Sent(Plain):
    sent: list[str]
    already: list[str]


def _record_dir(local_dir: Path, what: str) -> Path:
    path = local_dir / what
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def _key(message_id: str) -> str:
    return hashlib.sha256(message_id.encode("utf-8")).hexdigest()[:32]


def outgoing(game_dir: Path, local_dir: Path, my_sides: set[str], sent: Collection[str] = (),
             extra: Mapping[str, Callable[[], bytes]] | None = None,
             redraft: Callable[[str], Collection[bytes]] | None = None) -> list[tuple[Path, Any]]:
    """The drafted mails of this game that come from a side played here and are not in ``sent``
    (names), oldest first; ``extra``: drafts not on disk, by name, each drafted when it is needed.
    A draft sent before is not even read, so the cost of a send does not grow with the number of
    mails a long game has drafted. Each draft on disk is read once, as a plain file (a link is
    refused, never followed), and what is sent is those bytes; a draft from a side played here
    must be one pbem drafted on this machine (``local_dir``: its state of the game) with exactly
    these bytes (:func:`pbem.protocol.localstate.drafted_here`) -- or, for a draft an earlier pbem
    wrote without that record, exactly what ``redraft`` (by name) drafts again from the archive, so
    its own mail -- else :class:`InputError` names it."""
    import email
    import email.policy
    import os

    from pbem.mail.draft import MAX_EML_BYTES
    from pbem.protocol.fsutil import read_regular
    from pbem.protocol.localstate import drafted_here

    out = []
    # invitations and joins first (nothing can be placed before them), then moves by step
    extra = {n: f for n, f in (extra or {}).items() if not os.path.lexists(game_dir / n)}
    paths = sorted([*game_dir.glob(filenames.MAIL_GLOB), *(game_dir / n for n in extra)],
                   key=lambda p: (p.name[5:9].isdigit(), p.name))
    for path in paths:
        if path.name in sent:
            continue
        if path.name in extra:  # drafted now, from the archive, by this pbem
            raw = extra[path.name]()
        else:
            raw = read_regular(path, MAX_EML_BYTES, what=path.name, follow_symlinks=False)
        msg = email.message_from_bytes(raw, policy=email.policy.SMTP)
        if msg.get("X-Pbem-From-Side") not in my_sides:
            continue
        if path.name not in extra and not drafted_here(local_dir, path.name, raw) \
                and not (redraft is not None and raw in redraft(path.name)):
            raise InputError(f"{path.name}: not an email pbem drafted here (its name and bytes are not in "
                             f"{local_dir / filenames.DRAFTED}): refused, nothing sent; move it away, or "
                             "send it yourself if you wrote it")
        out.append((path, msg))
    return out


def send(game_dir: Path, local_dir: Path, my_sides: set[str], server: Server,
         connect: Callable[[Server], Any] | None = None,
         extra: Mapping[str, Callable[[], bytes]] | None = None,
         redraft: Callable[[str], Collection[bytes]] | None = None) -> Sent:
    """Send every outgoing mail not sent before (module docstring)."""
    import smtplib

    record = _record_dir(local_dir, "sent")
    # drafts are never rewritten, so a draft's name is the mail (several share a Message-ID)
    drafts = sorted({p.name for p in game_dir.glob(filenames.MAIL_GLOB)} | set(extra or {}))
    already = sorted(n for n in drafts if (record / _key(n)).exists())
    todo = []
    for path, msg in outgoing(game_dir, local_dir, my_sides, set(already), extra, redraft):
        mid = path.name
        if not msg.get("To"):
            raise InputError(f"{path.name} has no To: address (the genesis has none for "
                             f"{msg.get('X-Pbem-To-Side', 'its recipient')}): give the players' addresses "
                             "at 'pbem new --email SIDE=ADDRESS', or send it by hand")
        if not msg.get("From"):
            if server.user and "@" in server.user:
                del msg["From"]
                msg["From"] = server.user
            else:
                raise InputError(f"{path.name} has no From: address; set it at 'pbem new --email'")
        todo.append((path, msg, mid))
    sent: list[str] = []
    if not todo:
        return Sent(sent, already)
    context = server.context()
    try:
        if connect is not None:
            smtp = connect(server)
        elif server.security == "tls":
            smtp = smtplib.SMTP_SSL(server.host, server.port, timeout=TIMEOUT, context=context)
        else:
            smtp = smtplib.SMTP(server.host, server.port, timeout=TIMEOUT)
            if server.security == "starttls":
                smtp.starttls(context=context)
                smtp.ehlo()  # the server's extensions (AUTH among them) as it offers them under TLS
        with smtp:
            password = server.password()
            if server.user and password is not None:
                smtp.login(server.user, password)
            for path, msg, mid in todo:
                smtp.send_message(with_inline_map(msg))
                # kept even if the command fails later: the mail has left (journal=False)
                write_new(record / _key(mid), f"{path.name}\n".encode(), mode=0o600, journal=False)
                sent.append(path.name)
    except (OSError, smtplib.SMTPException) as exc:
        done = f" after sending {', '.join(sent)}" if sent else ""
        raise InputError(f"smtp {server.host}:{server.port}: {type(exc).__name__}: "
                         f"{str(exc)[:120]}{done}; the rest is sent next time") from None
    return Sent(sent, already)


def with_inline_map(msg: Any, width: int = 900) -> Any:
    """The mail as sent: its map (the SVG attachment) also drawn as a PNG inside the HTML part
    (``multipart/related``, ``cid:``), so webmail readers, which show no SVG, see it. The draft on
    disk is not changed (PNG bytes depend on the fonts of the machine that draws them; drafts are
    derived files checked by hash). Without resvg-py, or without a map, the mail goes as drafted."""
    try:
        import resvg_py
    except ImportError:  # pragma: no cover - a declared dependency
        return msg
    svg = next((p for p in msg.walk() if p.get_content_type() == "image/svg+xml"), None)
    html = next((p for p in msg.walk() if p.get_content_type() == "text/html"), None)
    if svg is None or html is None:
        return msg
    try:
        png = bytes(resvg_py.svg_to_bytes(svg_string=svg.get_payload(decode=True).decode("utf-8"), width=width))
    except Exception:  # a map resvg cannot draw: send the mail as drafted
        return msg
    step = str(msg.get("X-Pbem-Step", "0"))
    cid = f"<map-{step}@pbem.invalid>"
    body = html.get_content()
    img = (f'<p><img src="cid:{cid[1:-1]}" alt="the map of this step" '
           'style="max-width: 100%; height: auto; border: 1px solid #bbb;"></p>\n')
    marker = "<p>Attached:</p>"
    body = body.replace(marker, img + marker, 1) if marker in body else body.replace("</body>", img + "</body>", 1)
    html.set_content(body, subtype="html", charset="utf-8", cte="quoted-printable")
    html.add_related(png, "image", "png", cid=cid, filename=f"map-{step}.png", disposition="inline")
    return msg


# ------------------------------------------------------------------------------------------------
# fetch
# ------------------------------------------------------------------------------------------------


class Fetched(Plain):
    reports: list[str]
    """One line per mail looked at: what happened to it."""
    ingested: int = 0


def fetch(game_id: str, local_dir: Path, server: Server,
          ingest: Callable[[bytes, str], str], connect: Callable[[Server], Any] | None = None,
          progress: Callable[[int, int], None] | None = None,
          position: Callable[[], str] | None = None) -> Fetched:
    """Search the mailbox for this game's mails and hand each new one to ``ingest(raw, label)``,
    which returns a line saying what it did or raises :class:`pbem.errors.PbemError`. A mail is
    remembered as handled (``<local>/fetched/``) when it was ingested or found already in the
    archive. One that could not be ingested is remembered with the archive's ``position()`` then
    (``<local>/refused/``) and tried again only once the archive has moved on -- the only thing
    that can make it ingestible -- so junk mail tagged with the game id costs nothing on the next
    fetch, whoever sent how much of it [29]. Within one fetch a mail is downloaded at most once.
    Nothing is deleted."""
    import imaplib

    from pbem.errors import PbemError
    from pbem.mail.draft import MAX_EML_BYTES

    record = _record_dir(local_dir, "fetched")
    refused = _record_dir(local_dir, "refused")
    out = Fetched([])
    skipped = 0
    try:
        imap = _open_mailbox(server, connect)
        validity = _uidvalidity(imap)
        typ, data = imap.uid("SEARCH", "HEADER", "X-Pbem-Game", game_id)
        uids = data[0].split() if typ == "OK" and data and data[0] else []
        # Mail arrives in any order (a move before the join it needs, a later slot of a sealed
        # round first): go round again while a pass ingests something, report what is left.
        waiting: dict[bytes, str] = {}
        cache: dict[bytes, bytes | None] = {}  # this fetch's downloads: each mail at most once
        now = position() if position is not None else None
        todo = []
        for uid in uids:
            key = _key(f"{validity}/{uid.decode()}")
            if (record / key).exists():
                continue
            if now is not None and (refused / key).is_file() and \
                    (refused / key).read_text(encoding="utf-8", errors="replace").split("\n", 1)[0] == now:
                skipped += 1  # refused before, and the archive has not moved since
                continue
            todo.append(uid)
        moved = True
        while moved:
            moved = False
            for n, uid in enumerate(todo, 1):
                if progress is not None:
                    progress(n, len(todo))
                key = _key(f"{validity}/{uid.decode()}")
                if (record / key).exists():
                    continue
                line = _one(imap, uid, ingest, MAX_EML_BYTES, PbemError, cache)
                if line.startswith("!"):
                    waiting[uid] = line[1:]
                    continue
                (refused / key).unlink(missing_ok=True)
                # undone with the files it ingested if the command fails later, so the mail is
                # fetched again next time rather than lost
                write_new(record / key, (line + "\n").encode("utf-8"), mode=0o600)
                out.reports.append(f"mail {uid.decode()}: {line}")
                out.ingested += 1
                waiting.pop(uid, None)
                moved = True
        out.reports += [f"mail {uid.decode()}: {why}" for uid, why in waiting.items()]
        if position is not None and waiting:
            end = position()  # tried after the last ingest of this fetch: refused at this position
            for uid, why in waiting.items():
                write_replace(refused / _key(f"{validity}/{uid.decode()}"),
                              f"{end}\n{why[:300]}\n".encode("utf-8", "replace"), mode=0o600)
        if skipped:
            out.reports.append(f"{skipped} mail{'s' if skipped != 1 else ''} of this game not ingested before "
                               "and skipped: nothing new in the archive since could make them ingestible")
        imap.logout()
    except (OSError, imaplib.IMAP4.error) as exc:
        raise InputError(f"imap {server.host}:{server.port}: {type(exc).__name__}: {str(exc)[:120]}") from None
    return out


MAX_CACHE_BYTES = 64 << 20
"""What one fetch keeps of the mails it could not ingest yet, to try them again in its next pass
without downloading them again (beyond it they are downloaded again)."""


def _open_mailbox(server: Server, connect: Callable[[Server], Any] | None) -> Any:
    """An IMAP connection, logged in, with the mailbox selected read-only."""
    import imaplib

    if connect is not None:
        imap = connect(server)
    elif server.security == "tls":
        imap = imaplib.IMAP4_SSL(server.host, server.port, ssl_context=server.context(), timeout=TIMEOUT)
    else:
        imap = imaplib.IMAP4(server.host, server.port, timeout=TIMEOUT)
        if server.security == "starttls":
            imap.starttls(ssl_context=server.context())
    password = server.password()
    if server.user:
        imap.login(server.user, password or "")
    typ, _data = imap.select(_quote(server.mailbox), readonly=True)
    if typ != "OK":
        raise InputError(f"imap: cannot open mailbox {server.mailbox[:60]!r}")
    return imap


class Invitation(Plain):
    game: str
    """The game id its signed genesis names."""
    label: str
    """``mail UID``, for the report."""
    raw: bytes
    """The whole email, as ``pbem join --invitation`` reads it."""


def find_invitations(server: Server, fingerprint: str, connect: Callable[[Server], Any] | None = None
                     ) -> list[Invitation]:
    """The invitations in the mailbox whose genesis invites the key ``fingerprint`` (a side with that
    key and no commitment yet), newest last. Only mails tagged as a game's first step are read, each
    within pbem's size limit; anything malformed is passed over (``pbem join`` checks everything
    of the one taken, as with a saved file) [29]."""
    import imaplib

    from pbem.errors import PbemError
    from pbem.mail.draft import MAX_EML_BYTES, extract_attachments
    from pbem.protocol import archive, names

    found: list[Invitation] = []
    try:
        imap = _open_mailbox(server, connect)
        typ, data = imap.uid("SEARCH", "HEADER", "X-Pbem-Step", "0")
        uids = data[0].split() if typ == "OK" and data and data[0] else []
        for uid in uids[-200:]:  # the newest 200 candidates: a full mailbox costs no more
            cache: dict[bytes, bytes | None] = {}
            line = _one(imap, uid, lambda raw, label: "", MAX_EML_BYTES, PbemError, cache)
            raw = cache.get(uid)
            if line.startswith("!") or raw is None:
                continue
            try:
                files = dict(extract_attachments(raw))
                genesis = archive.parse_genesis(files[names.GENESIS])
            except (PbemError, KeyError):
                continue
            body = genesis.body
            if any(e.fingerprint == fingerprint and e.commitment is None for e in body.sides.values()):
                found.append(Invitation(body.game, f"mail {uid.decode()}", raw))
        imap.logout()
    except (OSError, imaplib.IMAP4.error) as exc:
        raise InputError(f"imap {server.host}:{server.port}: {type(exc).__name__}: {str(exc)[:120]}") from None
    return found


def _one(imap: Any, uid: bytes, ingest: Callable[[bytes, str], str], limit: int, errors: Any,
         cache: dict[bytes, bytes | None] | None = None) -> str:
    """Fetch one mail (once per ``cache``) and ingest it: the line to report, or ``"!" + why`` when
    it stays unhandled."""
    label = f"mail {uid.decode()}"
    if cache is not None and uid in cache:
        raw = cache[uid]
    else:
        typ, parts = imap.uid("FETCH", uid, "(RFC822.SIZE)")
        size = _size(parts)
        if size is not None and size > limit:
            if cache is not None:
                cache[uid] = None
            return f"!{size} bytes, more than pbem reads; left in the mailbox"
        typ, parts = imap.uid("FETCH", uid, "(BODY.PEEK[])")
        raw = _body(parts) if typ == "OK" else None
        if cache is not None and sum(len(v or b"") for v in cache.values()) < MAX_CACHE_BYTES:
            cache[uid] = raw
    if raw is None:
        return "!could not be read (or is larger than pbem reads); left in the mailbox"
    try:
        return ingest(raw, label)
    except errors as exc:
        return f"!not ingested ({exc}); left in the mailbox"


def _quote(mailbox: str) -> str:
    return '"' + mailbox.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _uidvalidity(imap: Any) -> str:
    typ, data = imap.response("UIDVALIDITY")
    if data and data[0]:
        return str(data[0].decode() if isinstance(data[0], bytes) else data[0])
    return "0"


def _size(parts: Any) -> int | None:
    import re

    for part in parts or []:
        text = part if isinstance(part, bytes) else (part[0] if isinstance(part, tuple) else b"")
        m = re.search(rb"RFC822\.SIZE (\d+)", text or b"")
        if m:
            return int(m.group(1))
    return None


def _body(parts: Any) -> bytes | None:
    for part in parts or []:
        if isinstance(part, tuple) and len(part) == 2 and isinstance(part[1], bytes):
            return part[1]
    return None
