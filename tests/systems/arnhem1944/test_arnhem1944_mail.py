"""Arnhem 1944 by email: two players on two machines, each with its own pbem home and key, who
exchange nothing but the ``.eml`` files pbem drafts (the invitation, the join, one email per
activation or pass). Each email tells the move it answers in words citing the cases (the
activation first [3.2, 3.3], the moves [6], the end of the turn [2.2] and its weather [14],
where victory stands [16]), the orders it carries in words, and attaches the map around the
action; ingesting it reproduces the sender's turn file byte for byte, and both archives end
identical and verified."""

from __future__ import annotations

import email
import email.policy
import shutil
from pathlib import Path

from helpers.protocol import pbem as run_pbem

from pbem.engine.gamedir import open_checked


def ok(home: Path, *args: str | Path) -> str:
    r = run_pbem(*args, home=home)
    assert r.code == 0, f"pbem {' '.join(map(str, args))} -> {r.code}: {r.err}"
    return r.out + r.err


def read(eml: Path) -> tuple[str, str, dict[str, bytes]]:
    """Subject, plain-text body and attachments of a drafted email."""
    msg = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None
    atts = {str(p.get_filename()): p.get_payload(decode=True) for p in msg.iter_attachments()}
    return str(msg["Subject"]), body.get_content().replace("\r\n", "\n"), atts  # type: ignore[return-value]


def test_2_1_two_machines_play_arnhem_1944_by_email(tmp_path: Path) -> None:
    al_home, de_home = tmp_path / "al-home", tmp_path / "de-home"
    a, b = tmp_path / "al-game", tmp_path / "de-game"
    ok(al_home, "key", "new", "alice")
    ok(de_home, "key", "new", "bob")
    bob_pub = tmp_path / "bob.pub"
    shutil.copy(de_home / "keys" / "bob.pub", bob_pub)

    # the Allied player invites; the invitation tells the scenario in words
    ok(al_home, "new", "arnhem1944-historical", a, "--player", "AL=alice",
       "--player", f"DE={bob_pub}", "--option", "weather=historical", "--option", "morale=false")
    _subject, text, atts = read(a / "mail-invite-DE.eml")
    assert set(atts) == {"genesis.json", "scenario.json"}
    assert "10 turns of a day (17 September to 26 September 1944), the historic drops [17.3]" \
        in text and "alternating activations, Allied initiative on turn 1 [2.1]." in text
    assert "Options chosen for this game (pbem new --option): morale=false, weather=historical" \
        in text
    ok(de_home, "join", b, "--key", "bob", "--invitation", a / "mail-invite-DE.eml")
    ok(al_home, "ingest", a, b / "mail-join-DE.eml")
    gid = open_checked(a).id[:8]  # every email's subject names the game (a move's from drawing 4)

    def orders(home: Path, game: Path, text: str, key: str) -> None:
        path = game.parent / f"orders-{key}.txt"
        path.write_text(text, encoding="utf-8")
        ok(home, "submit", "--yes", game, path, "--key", key)

    # 0 AL: the set-up of the 1st Airborne round its drop zone [17.1], GP moved within it;
    # no dice, so alice's pbem resolves it at once and the activation is hers again
    orders(al_home, a, "place GP at 0204\n", "alice")
    out = ok(de_home, "ingest", b, a / "mail-0001.eml")
    assert "GP at 0204" in out

    # 1 AL: a general activation [3.3]; alice cannot know its dice (bob's reveal keys them)
    orders(al_home, a, "activate: 1/1P\nmove 1/1P to 0303\n", "alice")
    subject, text, atts = read(a / "mail-0002.eml")
    assert subject == f"[pbem] arnhem1944-historical {gid} T1 AL→DE: your move"
    assert "Allied's orders:\n  - general activation of 1/1P [3.3]\n" \
           "  - 1. 1/1P moves to 0303 via 0203 [6]\n" in text
    assert "Victory points" not in text and set(atts) == {"move-0002-AL.json", "turn-0001.json"}
    out = ok(de_home, "ingest", b, a / "mail-0002.eml")
    assert "1/1P moved 0104 → 0203 → 0303 [6]" in out  # bob's pbem resolves it with his seed

    # 2 DE: a pass; the email tells the activation it answers and shows the map round it
    orders(de_home, b, "pass\n", "bob")
    subject, text, atts = read(b / "mail-0003.eml")
    assert subject == f"[pbem] arnhem1944-historical {gid} T1 DE→AL: your move"
    assert "What happened:\n  - Allied general activation: 1/1P [3.3]\n" \
           "  - 1/1P moved 0104 → 0203 → 0303 [6]\n" in text
    assert "German's orders:\n  - passes [2.2]\n" in text
    assert ("Victory stands at [16]: 0 Allied infantry steps over the Neder Rijn from hex "
            "column 10 east (12 make a secondary victory); 0 of 2 hexes of the Arnhem road "
            "bridge in Allied hands") in text  # the 1st Airborne is west of the line [16]
    [crop] = [n for n in atts if n.startswith("map-0002-around-")]
    assert atts[crop].count(b'data-type="moved"') == 1
    out = ok(al_home, "ingest", a, b / "mail-0003.eml")
    assert "the attached turn-0002.json is byte-identical to ours" in out

    # 3 AL: a pass after the German's: the turn ends [2.2] (resolved on bob's machine)
    orders(al_home, a, "pass\n", "alice")
    out = ok(de_home, "ingest", b, a / "mail-0004.eml")
    assert "the attached turn-0003.json is byte-identical to ours" in out
    assert "End of turn 1: both sides passed in a row [2.2]" in out

    # 4 DE: the pass that reveals those dice [2.1]; its email tells the end of the turn, the
    # weather of turn 2 from the track with its effects [14.1, 14.3], and the standing once
    orders(de_home, b, "pass\n", "bob")
    subject, text, atts = read(b / "mail-0005.eml")
    assert subject == f"[pbem] arnhem1944-historical {gid} T2 DE→AL: your move"
    assert "  - End of turn 1: both sides passed in a row [2.2]\n" in text
    assert ("  - Turn 2 weather: cloudy (turn track [14.1]): drops allowed, 1 air mission "
            "[14.3]\n") in text
    assert text.count("Victory stands at [16]") == 1 and "Victory points" not in text
    assert "German's orders:\n  - passes [2.2]\n" in text
    out = ok(al_home, "ingest", a, b / "mail-0005.eml")
    assert "the attached turn-0004.json is byte-identical to ours" in out

    for home, game in ((al_home, a), (de_home, b)):
        assert "OK" in ok(home, "verify", game)
    on_a = {p.name for p in a.glob("*.json") if p.name.startswith(("turn-", "move-"))}
    on_b = {p.name for p in b.glob("*.json") if p.name.startswith(("turn-", "move-"))}
    assert on_b <= on_a and {"move-0005-DE.json", "turn-0004.json"} <= on_b
    for name in sorted(on_b):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
