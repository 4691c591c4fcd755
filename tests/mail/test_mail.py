"""Turn emails (pbem.mail.draft): narrative, deterministic .eml drafts, template overrides, extraction."""

from __future__ import annotations

import base64
import email
import email.policy
from datetime import UTC, datetime
from email.message import EmailMessage
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from pbem.errors import InputError
from pbem.mail.draft import (
    MAX_ATTACHMENT_BYTES,
    draft_email,
    extract_attachments,
    message_id,
)
from pbem.systems.westwall.model import Scenario
from pbem.systems.westwall.presenter import narrate
from pbem.systems.westwall.rules import WestWallRules


def scenario() -> Scenario:
    return Scenario.parse({
        "id": "bastogne-spearhead",
        "title": "Spearhead",
        "game": "bastogne",
        "rule": "15.1",
        "sides": [{"id": "DE", "name": "German"}, {"id": "US", "name": "American"}],
        "first_player": "DE",
        "last_turn": 8,
        "map": {"id": "m", "cols": [1, 30], "rows": [1, 30],
                "terrain": {"town": ["1317"], "woods": ["1318"]},
                "places": [{"hex": "1317", "name": "Noville"}]},
        "terrain_key": {"hexes": {"clear": {"mp_halves": 2, "crt": "clear"}}, "hexsides": {}},
        "units": [
            {"id": "1/3", "side": "DE", "designation": "1/3", "type": "infantry",
             "attack": 6, "defense": 4, "move": 8},
            {"id": "2/3", "side": "DE", "designation": "2/3", "type": "infantry",
             "attack": 6, "defense": 4, "move": 8},
            {"id": "us-20", "side": "US", "designation": "20", "type": "armor",
             "attack": 4, "defense": 4, "move": 12},
            {"id": "105", "side": "DE", "designation": "105", "type": "artillery",
             "barrage": 3, "fpf": 2, "range": 18, "defense": 1, "move": 7},
        ],
    })


EVENTS: list[dict[str, Any]] = [
    {"type": "moved", "unit": "1/3", "path": ["2913", "2812", "2712"], "mp_halves": 12},
    {"type": "combat", "number": 2, "attackers": ["1/3", "2/3"], "artillery": [], "support": 0,
     "defenders": ["us-20"], "fpf": [], "fpf_support": 0, "attack_strength": 12,
     "defense_strength": 4, "differential": 8, "line": "broken", "column": "+6-8", "die": 5,
     "roll_index": 0, "result": "D1"},
    {"type": "retreat", "unit": "us-20", "path": ["1317", "1318"], "combat": 2},
]

ATTACHMENTS = [
    ("move-0003-DE.json", b'{"payload":"e30","payloadType":"x","signatures":[]}\n',
     "application/json"),
    ("turn-0003.json", b'{"step":3}\n', "application/json"),
    ("map-0003.svg", b'<svg xmlns="http://www.w3.org/2000/svg"/>', "image/svg+xml"),
]


def draft(**kw: Any) -> bytes:
    args: dict[str, Any] = dict(
        game_id="bastogne-spearhead", scenario=scenario(), step=3, sender_side="DE",
        recipient_side="US", narrative=narrate(scenario(), EVENTS),
        next_action="your player-turn (Game-Turn 2)", attachments=ATTACHMENTS,
    )
    args.update(kw)
    # each side called as the game's presenter calls it (compose passes the same)
    args.setdefault("side_name", partial(WestWallRules().presenter().side_name, args["scenario"]))
    return draft_email(**args)


@pytest.fixture(autouse=True)
def _no_user_templates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))


# -- narrative ------------------------------------------------------------------------------------

def test_narrative_in_plain_words() -> None:
    assert narrate(scenario(), EVENTS) == [
        "1/3 moved 2913 → 2812 → 2712 (6 MP)",
        "Combat 2: 1/3, 2/3 (12) attacked 20 (4) in Noville (town): +8 on the broken line, "
        "die 5 → D1; 20 retreated 1317 → 1318",
    ]


def test_narrative_half_points_entry_exit_elimination_and_rolls() -> None:
    events = [
        {"type": "moved", "unit": "2/3", "path": ["3001", "2901"], "mp_halves": 3,
         "entered": True},
        {"type": "moved", "unit": "1/3", "path": ["0105"], "mp_halves": 0, "exited": True},
        {"type": "eliminated", "unit": "us-20", "hex": "1318", "rule": "7.74",
         "reason": "no retreat path"},
    ]
    rolls = [{"i": 0, "label": "7.6 combat 1", "value": 4, "ctr": 0}]
    assert narrate(scenario(), events, rolls) == [
        "2/3 entered the map at 3001 and moved 3001 → 2901 (1½ MP) [11.11]",
        "1/3 moved 0105 (0 MP) and left the map [12.0]",
        "20 was eliminated in 1318 (no retreat path) [7.74]",
        "Dice rolled (1): 7.6 combat 1: 4 -- pbem verify re-derives every one",
    ]


def test_narrative_places_defender_from_state_when_it_held() -> None:
    events = [dict(EVENTS[1], result="A1")]
    state = {"scenario": "bastogne-spearhead", "game_turn": 1, "phasing": "DE",
             "phase": "player-turn", "units": {"us-20": {"hex": "1318", "status": "on-map"}}}
    (line,) = narrate(scenario(), events, state=state)
    assert " in 1318 (woods): " in line
    (line,) = narrate(scenario(), events)  # without state nothing tells where it stood
    assert "attacked 20 (4): +8" in line


def test_7_23_a_combat_against_units_in_two_hexes_names_both_hexes() -> None:
    # one attack on units in two hexes [7.23]: the narrative named only the first one's hex
    events = [dict(EVENTS[1], result="A1", defenders=["us-20", "105"])]
    state = {"scenario": "bastogne-spearhead", "game_turn": 1, "phasing": "DE",
             "phase": "player-turn", "units": {"us-20": {"hex": "1318", "status": "on-map"},
                                               "105": {"hex": "1317", "status": "on-map"}}}
    (line,) = narrate(scenario(), events, state=state)
    assert "attacked 20, 105 (4) in 1318 (woods), Noville (town): +8 on the broken line" in line


# -- the draft ------------------------------------------------------------------------------------

def test_eml_parses_with_alternatives_and_three_attachments() -> None:
    msg = email.message_from_bytes(draft(), policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    assert msg.get_content_type() == "multipart/mixed"
    assert msg["Subject"] == "[pbem] bastogne-spearhead T3 DE→US: your move"
    body = msg.get_body(preferencelist=("plain",))
    html = msg.get_body(preferencelist=("html",))
    assert body is not None and html is not None
    alt = [p.get_content_type() for p in msg.walk() if p.get_content_maintype() == "text"
           and not p.get_filename()]
    assert alt == ["text/plain", "text/html"]
    text = body.get_content()
    assert "Combat 2: 1/3, 2/3 (12) attacked 20 (4) in Noville (town)" in text
    assert "your player-turn (Game-Turn 2)" in text
    assert "<li>1/3 moved 2913 → 2812 → 2712 (6 MP)</li>" in html.get_content()
    atts = [(p.get_filename(), p.get_content_type(), p.get_payload(decode=True))
            for p in msg.iter_attachments()]
    assert atts == [(n, m, d) for n, d, m in ATTACHMENTS]


def test_draft_is_deterministic_and_has_no_clock() -> None:
    a, b = draft(), draft()
    assert a == b
    msg = email.message_from_bytes(a, policy=email.policy.default)
    assert msg["Date"] is None
    assert msg["Message-ID"] == message_id("bastogne-spearhead", 3)
    assert msg["In-Reply-To"] == message_id("bastogne-spearhead", 2)
    assert b"\r\n" in a and b"\n" not in a.replace(b"\r\n", b"")  # SMTP line ends only
    # boundaries are derived from the content: other content, other boundary
    c = draft(next_action="something else")
    bound = msg.get_boundary()
    assert bound is not None and bound.encode() not in c


def test_date_only_from_the_given_epoch() -> None:
    msg = email.message_from_bytes(draft(date_epoch=86400), policy=email.policy.default)
    assert msg["Date"].datetime == datetime(1970, 1, 2, tzinfo=UTC)


def test_html_escapes_narrative() -> None:
    msg = email.message_from_bytes(draft(narrative=["<script>x</script> & co"]),
                                   policy=email.policy.default)
    html = msg.get_body(preferencelist=("html",)).get_content()  # type: ignore[union-attr]
    assert "<script>" not in html and "&lt;script&gt;x&lt;/script&gt; &amp; co" in html
    text = msg.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    assert "<script>x</script> & co" in text


def test_user_template_extends_default(tmp_path: Path) -> None:
    tdir = tmp_path / "mine"
    tdir.mkdir()
    (tdir / "mail.txt.j2").write_text(
        '{% extends "default:mail.txt.j2" %}'
        "{% block greeting %}Dear {{ recipient.name }} commander,{% endblock %}",
        encoding="utf-8")
    (tdir / "mail.html.j2").write_text("<p>only {{ game_id }}</p>\n", encoding="utf-8")
    msg = email.message_from_bytes(draft(template_dir=tdir), policy=email.policy.default)
    text = msg.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    assert text.startswith("Dear American commander,")
    assert "Combat 2:" in text  # the rest comes from the default
    html = msg.get_body(preferencelist=("html",)).get_content()  # type: ignore[union-attr]
    assert html.replace("\r\n", "\n") == "<p>only bastogne-spearhead</p>\n"


def test_user_template_from_pbem_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "pbemhome"
    (home / "templates").mkdir(parents=True)
    (home / "templates" / "mail.txt.j2").write_text("custom {{ step }}\n", encoding="utf-8")
    monkeypatch.setenv("PBEM_HOME", str(home))
    msg = email.message_from_bytes(draft(), policy=email.policy.default)
    text = msg.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    assert text.replace("\r\n", "\n") == "custom 3\n"


def test_missing_template_dir_and_broken_template_are_input_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        draft(template_dir=tmp_path / "nope")
    (tmp_path / "mail.txt.j2").write_text("{{ nonsense.attr }}", encoding="utf-8")
    with pytest.raises(InputError, match="mail template"):
        draft(template_dir=tmp_path)


# -- extracting -----------------------------------------------------------------------------------

def test_extract_round_trip_ignores_the_map(tmp_path: Path) -> None:
    raw = draft()
    expected = [(n, d) for n, d, _m in ATTACHMENTS[:2]]
    assert extract_attachments(raw) == expected
    path = tmp_path / "reply.eml"
    path.write_bytes(raw)
    assert extract_attachments(path) == expected


def _mail_with(name: str, data: bytes) -> EmailMessage:
    msg = EmailMessage()
    msg["Subject"] = "x"
    msg.set_content("see attached")
    msg.add_attachment(data, maintype="application", subtype="json", filename=name)
    return msg


def test_extract_from_forwarded_mail() -> None:
    inner = _mail_with("move-0004-US.json", b"{}")
    outer = EmailMessage()
    outer["Subject"] = "Fwd: x"
    outer.set_content("forwarding")
    outer.add_attachment(inner)
    assert extract_attachments(outer.as_bytes()) == [("move-0004-US.json", b"{}")]


@pytest.mark.parametrize("name", ["../move-0001-DE.json", "a/turn-0001.json", ".hidden"])
def test_extract_refuses_unsafe_names(name: str) -> None:
    with pytest.raises(InputError, match="unsafe"):
        extract_attachments(_mail_with(name, b"{}").as_bytes())


def test_extract_refuses_oversize_attachment() -> None:
    big = b" " * (MAX_ATTACHMENT_BYTES["move"] + 1)
    with pytest.raises(InputError, match="at most"):
        extract_attachments(_mail_with("move-0001-DE.json", big).as_bytes())


def _nested(depth: int) -> bytes:
    """A mail of ``depth`` multiparts each inside the last, a pbem move at the bottom."""
    head = b"".join(b"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n" % (i, i) for i in range(depth))
    move = (b'Content-Type: application/json\nContent-Disposition: attachment; filename="move-0001-DE.json"\n'
            b"\n{}\n")
    tail = b"".join(b"--b%d--\n" % i for i in reversed(range(depth)))
    return b"From: a@example.org\nSubject: deep\nMIME-Version: 1.0\n" + head + move + tail


def test_extract_refuses_a_mail_nested_a_thousand_deep_in_one_line() -> None:
    # a hostile mail: a thousand multiparts, each in the last, exhausted the parser's stack (a
    # RecursionError reported as an internal error, exit 70); refused before parsing
    with pytest.raises(InputError, match=r"^email: 1000 multipart parts, more than the 64"):
        extract_attachments(_nested(1000))
    # nesting a forwarded mail holds is read as before
    assert extract_attachments(_nested(8)) == [("move-0001-DE.json", b"{}")]


def test_extract_refuses_bad_base64() -> None:
    raw = _mail_with("move-0001-DE.json", b'{"a": 1}').as_bytes()
    good = base64.b64encode(b'{"a": 1}')
    assert good in raw
    with pytest.raises(InputError, match="not validly encoded"):
        extract_attachments(raw.replace(good, b"e*yJh=IjogM!X0"))


def test_extract_refuses_conflicting_duplicates_and_empty_mail() -> None:
    msg = _mail_with("turn-0001.json", b"{}")
    msg.add_attachment(b"[]", maintype="application", subtype="json", filename="turn-0001.json")
    with pytest.raises(InputError, match="two different"):
        extract_attachments(msg.as_bytes())
    with pytest.raises(InputError, match="no pbem file"):
        extract_attachments(_mail_with("notes.json", b"{}").as_bytes())
    with pytest.raises(InputError):
        extract_attachments(b"")
    with pytest.raises(InputError):
        extract_attachments(b"\x00\x01 not a mail at all")


def test_extract_refuses_oversize_mail() -> None:
    from pbem.mail.draft import MAX_EML_BYTES

    with pytest.raises(InputError, match="allowed"):
        extract_attachments(b"Subject: x\r\n\r\n" + b"a" * MAX_EML_BYTES)


def test_27_an_invitation_says_how_to_accept_and_to_whom_the_join_goes(tmp_path: Path) -> None:
    """A tester followed the invitation's footer ('To take this turn ... pbem ingest') and failed;
    and 'send back what it writes' sent a team's join to Game Control alone."""
    import email
    import email.policy

    from systems.megagame.test_megagame_game import create

    players = create(tmp_path)
    gc = players["GC"]
    msg = email.message_from_bytes((gc.dir / "mail-invite-AB1.eml").read_bytes(), policy=email.policy.default)
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None
    text = body.get_content()
    assert "To accept, save this email and run 'pbem join GAME_DIR --key YOUR_KEY --invitation" in text
    assert "To take this turn" not in text and "pbem ingest" not in text
    assert "send the email it writes to every other side" in text


def test_a_mail_with_nothing_before_its_orders_does_not_say_the_step_did_nothing() -> None:
    # the narrative is the turn these orders answer; for a set-up (nothing before it) the mail
    # said "Nothing happened on the map this step." above the units the step placed
    msg = email.message_from_bytes(draft(narrative=[], orders=["Set-up: 20 at 1116."]),
                                   policy=email.policy.default)
    text = msg.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")  # type: ignore[union-attr]
    html = msg.get_body(preferencelist=("html",)).get_content()  # type: ignore[union-attr]
    assert "Before these orders, nothing happened on the map.\n\nGerman's orders:\n  - Set-up: 20 at 1116.\n" in text
    assert "<p>Before these orders, nothing happened on the map.</p>" in html
    assert "Nothing happened on the map this step" not in text + html


def test_a_side_whose_name_ends_in_s_has_its_orders_as_english_writes_them() -> None:
    # "United States's orders:" read oddly in every U.S. email
    sc = scenario()
    us = Scenario.parse({**sc.to_json(), "sides": [{"id": "DE", "name": "German"},
                                                    {"id": "US", "name": "United States"}]})
    msg = email.message_from_bytes(draft(scenario=us, sender_side="US", recipient_side="DE",
                                         orders=["Set-up: 20 at 1116."]), policy=email.policy.default)
    text = msg.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    html = msg.get_body(preferencelist=("html",)).get_content()  # type: ignore[union-attr]
    assert "United States' orders:" in text and "United States&#39; orders</h3>" in html
    german = email.message_from_bytes(draft(orders=["pass"]), policy=email.policy.default)
    assert "German's orders:" in german.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]


def test_27_every_invitation_and_join_has_a_message_id_of_its_own(tmp_path: Path) -> None:
    """A trial of the megagame by email: Game Control's three invitations and the three teams' joins
    all carried the Message-ID of step 0, and a mailbox that keeps one mail per Message-ID (Gmail
    drops a later one as a duplicate) would have shown Game Control one join of three, or none."""
    from helpers.protocol import GAME_ID
    from systems.megagame.test_megagame_game import start

    players = start(tmp_path)
    mails = sorted(players["GC"].dir.glob("mail-invite-*.eml"))
    for s in ("AB1", "SS9", "SS10"):
        mails += sorted(players[s].dir.glob("mail-join-*.eml"))
    assert len(mails) == 6, mails
    ids = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)["Message-ID"] for p in mails]
    assert len(set(ids)) == len(ids), ids
    assert message_id(GAME_ID, 0) not in ids  # step 0's id is a move mail's, not theirs
