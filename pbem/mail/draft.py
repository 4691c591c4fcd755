"""Turn emails: a narrative of the step, a ready-to-send ``.eml`` draft, and reading one back.

* a step's events in plain words come from the system's presenter
  (:meth:`pbem.engine.presenter.Presenter.narrate`).
* :func:`draft_email` builds an RFC 5322 message (``multipart/mixed`` holding a
  ``multipart/alternative`` text + HTML body, then the move file, the turn file and the SVG map)
  with the standard library. Its bytes are deterministic: boundaries come from a hash of the
  content, ``Message-ID`` from the game id and step (``In-Reply-To``/``References`` point at the
  previous step's message, so mail clients thread a game). There is **no wall clock**: ``Date`` is
  written only when the caller passes ``date_epoch`` (seconds since 1970, UTC); otherwise it is left
  out and the mail client or submission server adds it when the draft is sent (RFC 6409 section
  8.1 lets a submission agent add a missing ``Date``). Re-drafting the same step thus gives the
  same bytes, which ``pbem verify`` may compare.
* :func:`extract_attachments` takes the archive files (``move-*.json``, ``turn-*.json``,
  ``join-*.json``, ``genesis.json``) out of an ``.eml`` for ``pbem ingest``; anything malformed or
  oversize is an :class:`~pbem.errors.InputError`.

Templates are Jinja2 (``mail.txt.j2``, ``mail.html.j2``), looked up in the user's own directory
first (``template_dir``, else ``$PBEM_HOME/templates``, else ``~/.pbem/templates``), then in the
packaged defaults (``pbem.templates``). A user template may extend a default one with
``{% extends "default:mail.html.j2" %}``, as in datasette.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from email.message import EmailMessage, Message
from pathlib import Path
from typing import Any

from pbem.errors import InputError
from pbem.mail import MAX_EML_BYTES
from pbem.plain import Plain
from pbem.templates import template_env

# MAX_EML_BYTES (pbem.mail): the largest email file :func:`extract_attachments` reads (checked
# before parsing)

MAX_ATTACHMENT_BYTES: dict[str, int] = {
    "move": 256 * 1024,
    "receipt": 64 * 1024,
    "takeback": 64 * 1024,
    "join": 256 * 1024,
    "genesis": 256 * 1024,
    "turn": 8 * 1024 * 1024,
    "scenario": 4 * 1024 * 1024,
    "publication": 16 * 1024 * 1024,
}
"""Largest accepted attachment of each kind (the same limits the archive reader applies)."""

ARCHIVE_NAME_RE = re.compile(
    r"^(?:(?P<move>move-\d{4}-[A-Za-z0-9_]{1,16}(?:-redo[1-9]\d{0,2})?\.json)|(?P<turn>turn-\d{4}\.json)"
    r"|(?P<takeback>(?:takeback|consent)-\d{4}-[A-Za-z0-9_]{1,16}-[1-9]\d{0,2}\.json)"
    r"|(?P<join>join-[A-Za-z0-9_]{1,16}\.json)|(?P<genesis>genesis\.json)"
    r"|(?P<scenario>scenario\.json)|(?P<receipt>receipt-\d{4}-[A-Za-z0-9_]{1,16}\.json)"
    r"|(?P<publication>publication\.json))$"
)
"""Attachment names :func:`extract_attachments` takes; every other attachment is ignored."""

TEMPLATE_NAMES = ("mail.txt.j2", "mail.html.j2")


# --------------------------------------------------------------------------------------------------
# Narrative
# --------------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------------
# Drafting
# --------------------------------------------------------------------------------------------------


class _Person(Plain, frozen=True):
    id: str
    name: str

    @property
    def possessive(self) -> str:
        return possessive(self.name)


def possessive(name: str) -> str:
    """"German's", but "United States'" (a name ending in s takes the apostrophe alone)."""
    return name + ("'" if name.endswith("s") else "'s")


def _kind(mime: str) -> str:
    return {"application/json": "JSON", "image/svg+xml": "SVG map"}.get(mime, mime)


def message_id(game_id: str, step: int) -> str:
    """The ``Message-ID`` of a game's email for ``step`` (stable; lets mail clients thread)."""
    digest = hashlib.sha256(game_id.encode("utf-8")).hexdigest()[:24]
    return f"<pbem.{digest}.{step:04d}@pbem.invalid>"


def draft_email(
    *,
    game_id: str,
    scenario: Any,
    step: int,
    sender_side: str,
    recipient_side: str,
    narrative: list[str],
    next_action: str,
    attachments: list[tuple[str, bytes, str]],
    template_dir: Path | str | None = None,
    game_turn: int | None = None,
    score: Mapping[str, int] | None = None,
    sender_address: str | None = None,
    recipient_address: str | None = None,
    date_epoch: int | None = None,
    subject_tail: str = "your move",
    game_label: str | None = None,
    orders: Sequence[str] = (),
    subject: str | None = None,
    intro: str = "",
    recipient_name: str | None = None,
    howto: str = "",
    text_map: bool = False,
    side_name: Callable[[str], str] | None = None,
) -> bytes:
    """A complete email (RFC 5322, CRLF line ends) for one step, as bytes.

    ``attachments`` are ``(file name, content, MIME type)``, e.g. the move file and the turn file
    (``application/json``) and the map (``image/svg+xml``). The subject reads ``[pbem]
    bastogne-spearhead 1a2b3c4d T3 DE→US: your move`` where ``bastogne-spearhead 1a2b3c4d`` is
    ``game_label`` (default ``game_id``; a move's email passes the scenario id and the game id's
    first 8 characters, from drawing 4 on, and the scenario id alone before,
    :func:`pbem.mail.compose.move_email`) and ``T3`` the game-turn (``game_turn``; the step when it
    is not given). ``From``/``To`` are written only when addresses are given;
    ``Date`` only when ``date_epoch`` is (see the module docstring for why). ``text_map``: an
    SVG attachment already in short 7-bit lines (drawing 3's and later, :func:`pbem.render.svg.canvas.seven_bit`)
    travels as itself (``7bit``) instead of in base64, a third smaller, and a JSON attachment (the
    move and turn files) in quoted-printable (RFC 2045 6.7: printable ASCII as itself, every other
    byte, line ends too, as ``=XX``, lines of at most 76 characters with soft breaks: the same bytes
    come back) instead of base64, a quarter smaller [28]; emails of older drawings keep base64.
    ``side_name``: how a side is called (the game's presenter's
    :meth:`~pbem.engine.presenter.Presenter.side_name`, which knows "Game Control" and a megagame
    team's name): the sender, the recipient unless ``recipient_name`` is given, and the score's rows;
    without it a side is called by its id."""
    if step < 0:
        raise InputError(f"step must be 0 or more, not {step}")
    for att_name, data, mime in attachments:
        if "/" in att_name or "\\" in att_name or not att_name or "/" not in mime:
            raise InputError(f"bad attachment {att_name!r} ({mime})")
        if not isinstance(data, bytes | bytearray):
            raise InputError(f"attachment {att_name} is not bytes")
    name = side_name if side_name is not None else str
    sender = _Person(sender_side, name(sender_side))
    recipient = _Person(recipient_side, name(recipient_side) if recipient_name is None else recipient_name)
    if subject is None:
        t = game_turn if game_turn is not None else step
        subject = f"[pbem] {game_label or game_id} T{t} {sender.id}→{recipient.id}: {subject_tail}"
    score_rows = [(name(k), v) for k, v in sorted((score or {}).items())]
    context = {
        "game_id": game_id,
        "scenario": scenario,
        "step": step,
        "game_turn": game_turn,
        "sender": sender,
        "recipient": recipient,
        "narrative": list(narrative),
        "orders": list(orders),
        "intro": intro,
        "next_action": next_action,
        "howto": howto,  # how to take this mail in, when it is not a turn's ingest (an invitation)
        "score": score_rows,
        "subject": subject,
        "attachments": [{"name": n, "size": len(d), "mime": m, "kind": _kind(m)}
                        for n, d, m in attachments],
    }
    import jinja2

    env = template_env(template_dir)
    try:
        text = env.get_template("mail.txt.j2").render(**context)
        html = env.get_template("mail.html.j2").render(**context)
    except jinja2.TemplateError as exc:
        raise InputError(f"mail template: {exc}") from None

    policy = email.policy.SMTP
    msg = EmailMessage(policy=policy)
    msg["Subject"] = subject
    if sender_address:
        msg["From"] = sender_address
    if recipient_address:
        msg["To"] = recipient_address
    if date_epoch is not None:
        from email.utils import formatdate

        msg["Date"] = formatdate(float(date_epoch), usegmt=True)
    msg["Message-ID"] = message_id(game_id, step)
    if step > 0:
        msg["In-Reply-To"] = message_id(game_id, step - 1)
        msg["References"] = message_id(game_id, step - 1)
    msg["X-Pbem-Game"] = game_id
    msg["X-Pbem-Step"] = str(step)
    msg["X-Pbem-From-Side"] = sender.id
    msg["X-Pbem-To-Side"] = recipient.id
    msg.set_content(text, subtype="plain", charset="utf-8", cte="quoted-printable")
    msg.add_alternative(html, subtype="html", charset="utf-8", cte="quoted-printable")
    for att_name, data, mime in attachments:
        maintype, subtype = mime.split("/", 1)
        cte = "base64"
        if text_map and mime == "image/svg+xml" and _seven_bit_lines(bytes(data)):
            cte = "7bit"
        elif text_map and mime == "application/json":  # every byte but printable ASCII as =XX [28]
            cte = "quoted-printable"
        msg.add_attachment(bytes(data), maintype=maintype, subtype=subtype, filename=att_name, cte=cte)

    # Boundaries from a hash of everything in the message, never random.
    h = hashlib.sha256()
    for piece in (subject, text, html):
        h.update(piece.encode("utf-8") + b"\0")
    for att_name, data, mime in attachments:
        h.update(f"{att_name}\0{mime}\0{len(data)}\0".encode() + bytes(data))
    digest = h.hexdigest()
    multiparts = [part for part in msg.walk() if part.is_multipart()]
    leaves = b"".join(p.as_bytes(policy=policy) for p in msg.walk() if not p.is_multipart())
    for salt in range(100):
        stem = f"pbem-{digest[:32]}-{salt}-"
        if stem.encode() in leaves:  # a boundary must never occur inside a part
            continue
        for n, part in enumerate(multiparts):
            part.set_boundary(f"{stem}{n}")
        return msg.as_bytes(policy=policy)
    raise InputError("could not choose a MIME boundary")  # pragma: no cover - needs 100 collisions


# --------------------------------------------------------------------------------------------------
# Reading an email back
# --------------------------------------------------------------------------------------------------


def _seven_bit_lines(data: bytes) -> bool:
    """Whether bytes can travel as ``7bit`` (RFC 5322: ASCII, no NUL or CR, lines of at most 998)."""
    return data.isascii() and b"\0" not in data and b"\r" not in data and \
        all(len(line) <= 998 for line in data.split(b"\n"))


MAX_MULTIPARTS = 64
"""Multipart parts an email may declare for :func:`extract_attachments` (pbem writes one or two)."""


def extract_attachments(eml: bytes | bytearray | Path | str) -> list[tuple[str, bytes]]:
    """The pbem archive files attached to an email (``.eml`` bytes or a path to one), in the
    order they appear; other attachments (the map, pictures) are ignored. Raises
    :class:`InputError` for oversize or malformed mail, unsafe or conflicting names, and mail
    without any pbem file."""
    what = "email"
    if isinstance(eml, Path | str):
        path = Path(eml)
        what = path.name
        from pbem.protocol.fsutil import read_regular

        raw = read_regular(path, MAX_EML_BYTES, what=what)
    else:
        raw = bytes(eml)
    if len(raw) > MAX_EML_BYTES:
        raise InputError(f"{what}: {len(raw)} bytes is more than the {MAX_EML_BYTES} allowed")
    if not raw.strip():
        raise InputError(f"{what}: empty file, not an email")
    # The standard library's parser and walk recurse once per nested part: a hostile mail of a
    # thousand nested multiparts exhausts the stack. pbem's mails nest two deep and a forwarded
    # one a few more; more multipart headers than this are refused before parsing.
    nested = raw.lower().count(b"multipart/")
    if nested > MAX_MULTIPARTS:
        raise InputError(f"{what}: {nested} multipart parts, more than the {MAX_MULTIPARTS} a pbem email "
                         "can hold; save the attached pbem files and ingest those")
    try:
        msg: Message = email.message_from_bytes(raw, policy=email.policy.default)
        if not msg.keys():
            raise InputError(f"{what}: no mail headers found; is this an .eml file?")
        parts = list(msg.walk())
    except RecursionError:
        raise InputError(f"{what}: its parts are nested too deeply to read; save the attached pbem files "
                         "and ingest those") from None
    found: dict[str, bytes] = {}
    order: list[str] = []
    for part in parts:
        if part.is_multipart():
            continue
        filename = part.get_filename()
        if filename is None:
            continue
        if "/" in filename or "\\" in filename or filename.startswith(".") or "\0" in filename:
            raise InputError(f"{what}: unsafe attachment name {filename!r}")
        m = ARCHIVE_NAME_RE.match(filename)
        if m is None:
            continue
        kind = m.lastgroup or "move"
        payload = part.get_payload(decode=True)
        bad = [d for d in part.defects if "Base64" in type(d).__name__]
        if bad or not isinstance(payload, bytes):
            raise InputError(f"{what}: attachment {filename} is not validly encoded")
        limit = MAX_ATTACHMENT_BYTES[kind]
        if len(payload) > limit:
            raise InputError(f"{what}: attachment {filename} is {len(payload)} bytes "
                             f"(at most {limit})")
        if filename in found:
            if found[filename] != payload:
                raise InputError(f"{what}: two different attachments are named {filename}")
            continue
        found[filename] = payload
        order.append(filename)
    if not order:
        raise InputError(f"{what}: no pbem file attached (expected move-NNNN-SIDE.json, "
                         "turn-NNNN.json, join-SIDE.json, genesis.json or publication.json)")
    return [(n, found[n]) for n in order]
