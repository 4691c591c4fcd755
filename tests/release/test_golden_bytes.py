"""Golden bytes [23]: the bytes pbem signs, hashes or compares byte for byte come partly from
third-party code (``rfc8785`` for canonical JSON, ``cryptography`` for Ed25519 and OpenSSH key
lines, ``svgwrite`` for maps, ``jinja2`` and the standard library's ``email`` for mails). A release
of any of them that changes those bytes would make an honest archive fail ``verify --redraw`` or
split two players' turn files; these tests make it fail CI first. ``pyproject.toml`` pins those
dependencies to the ranges these tests pass with; ``make test-latest`` tries the newest."""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

import pytest
import rfc8785
from helpers.paths import ROOT

from pbem.protocol.canonical import canonical_bytes, loads_strict, sha256_hex

REPO = ROOT
EXAMPLE = REPO / "examples" / "bastogne-spearhead"
ARCHIVES = [p for p in sorted((REPO / "examples").iterdir()) + sorted((REPO / "tests" / "compat").glob("*"))
            if (p / "genesis.json").is_file()]


# -- RFC 8785 (JCS) -------------------------------------------------------------------------------


def test_rfc8785_section_3_2_2_sample_canonicalizes_to_the_rfc_bytes() -> None:
    value = {
        "numbers": [333333333.33333329, 1e30, 4.50, 2e-3, 0.000000000000000000000000001],
        "string": "\u20ac$\u000f\u000aA'\u0042\u0022\u005c\\\"/",
        "literals": [None, True, False],
    }
    expected = ('{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],'
                '"string":"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}').encode("utf-8")
    assert rfc8785.dumps(value) == expected


def test_rfc8785_section_3_2_3_sorts_keys_by_utf16_code_units() -> None:
    value = {"\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh",
             "1": "One", "\U0001f600": "Emoji: Grinning Face", "\u0080": "Control",
             "\u00f6": "Latin Small Letter O With Diaeresis"}
    expected = ('{"\\r":"Carriage Return","1":"One","\u0080":"Control",'
                '"\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign",'
                '"\U0001f600":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}').encode("utf-8")
    assert rfc8785.dumps(value) == expected


@pytest.mark.parametrize(("number", "text"), [
    (0.0, "0"), (-0.0, "0"), (1e21, "1e+21"), (1e20, "100000000000000000000"), (1e-7, "1e-7"),
    (0.1 + 0.2, "0.30000000000000004"), (9007199254740991, "9007199254740991"), (-5e-324, "-5e-324"),
])
def test_rfc8785_number_serialization(number: float, text: str) -> None:
    # RFC 8785 3.2.2.3 (ECMAScript's Number to String); pbem signs integers only, but turn files
    # and other documents go through the same library.
    assert rfc8785.dumps(number) == text.encode()


# -- pbem's own documents -------------------------------------------------------------------------


def test_a_pbem_document_has_one_byte_form() -> None:
    doc = {"ds": "pbem/move/v1", "orders": {"moves": [{"unit": "1/501", "path": ["1418", "1417"]}],
                                            "note": "Échelon \u00e0 l'est \u2014 \"vite\"\n"},
           "step": 12, "answers": "0" * 64, "pbem": "0.2.0", "neg": -7}
    expected = ('{"answers":"' + "0" * 64 + '","ds":"pbem/move/v1","neg":-7,"orders":{"moves":'
                '[{"path":["1418","1417"],"unit":"1/501"}],"note":"\u00c9chelon \u00e0 l\'est \u2014 '
                '\\"vite\\"\\n"},"pbem":"0.2.0","step":12}').encode("utf-8")
    assert canonical_bytes(doc) == expected
    assert sha256_hex(expected) == sha256_hex(canonical_bytes(json.loads(expected)))


@pytest.mark.parametrize("game", ARCHIVES, ids=lambda p: p.name)
def test_every_archived_body_and_turn_is_its_own_canonical_form(game: Path) -> None:
    """Each signed body and turn file already written (the bundled examples and the frozen
    compatibility corpus) is what today's canonicalizer makes of its value."""
    checked = 0
    for path in sorted(game.glob("*.json")):
        raw = path.read_bytes()
        if path.name.startswith("turn-") or path.name == "scenario.json":
            body = raw[:-1] if raw.endswith(b"\n") else raw
        else:
            body = base64.b64decode(json.loads(raw)["payload"])
        assert canonical_bytes(loads_strict(body, max_bytes=1 << 26, what=path.name)) == body, path.name
        checked += 1
    assert checked >= 3


# -- Ed25519 and OpenSSH key lines (cryptography) -------------------------------------------------


def test_ed25519_rfc8032_test_1_signature() -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    secret = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
    public = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
    signature = bytes.fromhex(
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
        "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")
    key = Ed25519PrivateKey.from_private_bytes(secret)
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    assert key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw) == public
    assert key.sign(b"") == signature


def test_openssh_public_key_line_has_the_wire_format_of_rfc8709() -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32))).public_key()
    line = key.public_bytes(Encoding.OpenSSH, PublicFormat.OpenSSH).decode()
    kind, blob = line.split(" ")
    raw = key.public_bytes(Encoding.Raw, PublicFormat.Raw)
    assert kind == "ssh-ed25519"
    assert base64.b64decode(blob) == b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + raw


# -- maps (svgwrite) and mails (jinja2, email) ----------------------------------------------------


def test_every_map_of_the_example_redraws_to_its_committed_bytes() -> None:
    from pbem.engine.gamedir import open_checked
    from pbem.protocol.names import map_name
    from pbem.render.outputs import BOARD_NAME, StepView, drawing_of, places_board

    game = open_checked(EXAMPLE)
    steps = sorted(game.listing.turns)
    assert len(steps) >= 7
    for step in steps:  # each the way it says it was drawn: its board drawn in it or placed (0.2)
        view = StepView(game, step)
        committed = (EXAMPLE / map_name(step)).read_bytes()
        board = BOARD_NAME if places_board(committed) else None
        assert view.svg(board=board, drawing=drawing_of(committed)).encode("utf-8") == committed, step
    if (EXAMPLE / BOARD_NAME).exists():
        assert view.board_svg().encode("utf-8") == (EXAMPLE / BOARD_NAME).read_bytes()


def test_every_mail_of_the_example_is_drafted_to_its_committed_bytes() -> None:
    import email
    import email.policy

    from pbem.engine.gamedir import open_checked
    from pbem.mail.compose import move_email
    from pbem.protocol.names import mail_name
    from pbem.render.outputs import drawing_of

    game = open_checked(EXAMPLE)
    mails = sorted(EXAMPLE.glob("mail-*.eml"))
    assert len(mails) >= 6
    for path in mails:
        step = int(path.stem.split("-")[1])
        assert path.name == mail_name(step)
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        svg = [part.get_payload(decode=True) for part in msg.walk() if part.get_content_type() == "image/svg+xml"]
        drawing = drawing_of(svg[0]) if svg else None  # its map drawn as the mail says (issue 28: drawing 3)
        assert move_email(game, step, drawing=drawing) == path.read_bytes(), path.name


def test_verify_redraw_of_the_example_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pbem.cli import main

    copy = tmp_path / "g"
    shutil.copytree(EXAMPLE, copy)
    try:
        main(["verify", str(copy), "--redraw"])
    except SystemExit as exc:
        assert exc.code in (0, None)
    assert capsys.readouterr().out.rstrip().endswith("OK")
