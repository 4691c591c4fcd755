"""[27] Take-back on the player's desk: the request and the consent each come with an email ready to
send (as receipts and reminders do), the opponent can ingest and agree from that email, `pbem log`
shows who asked, who agreed and what was withdrawn, and `pbem schema` describes both bodies."""

from __future__ import annotations

import email
import email.policy
import json
import shutil
from pathlib import Path

from helpers.protocol import bastogne_set_up, move_body, ok, pbem


def _attachments(path: Path) -> dict[str, bytes]:
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    return {str(p.get_filename()): p.get_payload(decode=True) for p in msg.iter_attachments()}


def test_27_take_back_request_and_consent_travel_in_drafted_emails_and_the_log_tells_them(tmp_path: Path) -> None:
    a, b = bastogne_set_up(tmp_path)
    placements = move_body(b.dir / "move-0001-US.json")["orders"]["placements"]
    res = ok(b.run("takeback", "request", b.dir, "--key", "bob"))
    asked = b.dir / "mail-takeback-0001-US-1.eml"
    assert "send mail-takeback-0001-US-1.eml to your opponent" in res.err
    assert _attachments(asked) == {"takeback-0001-US-1.json": (b.dir / "takeback-0001-US-1.json").read_bytes()}
    msg = email.message_from_bytes(asked.read_bytes(), policy=email.policy.default)
    assert msg["X-Pbem-From-Side"] == "US" and msg["X-Pbem-To-Side"] == "DE"  # 'pbem send' sends it
    # the opponent ingests the email, then agrees from it
    inbox = a.work / "inbox"
    inbox.mkdir(exist_ok=True)
    shutil.copyfile(asked, inbox / "asked.eml")
    ok(a.ingest(inbox / "asked.eml"))
    assert "takeback-0001-US-1.json asks to take back move-0001-US.json; not agreed yet" in \
        ok(a.run("log", a.dir)).out
    ok(a.run("takeback", "consent", a.dir, inbox / "asked.eml", "--key", "alice", "--yes"))
    agreed = a.dir / "mail-consent-0001-DE-1.eml"
    assert set(_attachments(agreed)) == {"consent-0001-DE-1.json"}
    shutil.copyfile(agreed, b.work / "agreed.eml")
    ok(b.ingest(b.work / "agreed.eml"))
    for p in (a, b):
        log = ok(p.run("log", p.dir)).out
        assert ("step 1: US asked to take back move-0001-US.json (takeback-0001-US-1.json); DE agreed "
                "(consent-0001-DE-1.json) [take-back]; withdrawn, still in the archive:") in log
        withdrawn = next(line for line in log.splitlines() if line.startswith("  x "))
        first = sorted(placements.items(), key=lambda kv: kv[1])[0]  # the set-up in words, by hex [3.0]
        assert withdrawn.startswith("  x Set-up: ") and f"{first[0]} at {first[1]}" in withdrawn


def test_27_pbem_schema_describes_the_take_back_and_consent_bodies(tmp_path: Path) -> None:
    request = json.loads(ok(pbem("schema", "takeback", home=tmp_path)).out)
    consent = json.loads(ok(pbem("schema", "consent", home=tmp_path)).out)
    assert {"ds", "game", "step", "side", "number", "move"} <= set(request["properties"])
    assert {"ds", "game", "step", "side", "number", "request", "move"} <= set(consent["properties"])


def test_25_consent_takes_the_request_by_the_name_pbem_status_gives(tmp_path: Path) -> None:
    # the trial of issue 25: 'pbem status' (and the README) say 'pbem takeback consent GAME_DIR
    # takeback-0001-US-1.json', a name inside the game directory, not beside the command
    a, b = bastogne_set_up(tmp_path)
    ok(b.run("takeback", "request", b.dir, "--key", "bob"))
    ok(b.send(a, ["takeback-0001-US-1.json"]))
    said = ok(a.run("status", a.dir)).out
    assert "'pbem takeback consent GAME_DIR takeback-0001-US-1.json --key KEY'" in said
    assert not Path("takeback-0001-US-1.json").exists()  # not in the directory the command runs in
    ok(a.run("takeback", "consent", a.dir, "takeback-0001-US-1.json", "--key", "alice", "--yes"))
    assert (a.dir / "consent-0001-DE-1.json").is_file()
    assert not (a.dir / "turn-0001.json").exists()  # back to the turn before the set-up
    missing = a.run("takeback", "consent", a.dir, "takeback-0009-US-1.json", "--key", "alice", "--yes")
    assert missing.code == 2 and "takeback-0009-US-1.json: no such file" in missing.err
