"""Two players on two machines play Bastogne by email: each only ever has its own key, and the
only things that travel are the files pbem tells them to send (the invitation, the join, the
``.eml`` drafts). Each side's archive ends byte-identical to the other's [P6], and ingesting an
email reproduces the turn file its sender computed, byte for byte."""

from __future__ import annotations

import email
import email.policy
import json
import shutil
from pathlib import Path

from helpers.protocol import pbem as run_pbem


def pbem(home: Path, *args: str | Path) -> tuple[int, str, str]:
    r = run_pbem(*args, home=home)
    return r.code, r.out, r.err


def ok(home: Path, *args: str | Path) -> str:
    code, out, err = pbem(home, *args)
    assert code == 0, f"pbem {' '.join(map(str, args))} -> {code}: {err}"
    return out + err


def attachments(eml: Path) -> dict[str, bytes]:
    msg = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    return {str(p.get_filename()): p.get_payload(decode=True) for p in msg.iter_attachments()}


def test_two_machines_play_by_email(tmp_path: Path) -> None:
    de_home, us_home = tmp_path / "de-home", tmp_path / "us-home"
    a, b = tmp_path / "de-game", tmp_path / "us-game"
    ok(de_home, "key", "new", "alice")
    ok(us_home, "key", "new", "bob")
    bob_pub = tmp_path / "bob.pub"
    shutil.copy(us_home / "keys" / "bob.pub", bob_pub)

    # The German player invites: the genesis is signed by alice only and waits for the U.S. join.
    # The invitation email carries the genesis and the scenario, and both fingerprints.
    ok(de_home, "new", "bastogne-spearhead", a, "--player", "DE=alice", "--player", f"US={bob_pub}")
    assert not (a / "turn-0000.json").exists()
    invite = a / "mail-invite-US.eml"
    assert set(attachments(invite)) == {"genesis.json", "scenario.json"}
    text = email.message_from_bytes(invite.read_bytes(), policy=email.policy.default)
    body = text.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    bob_fp = ok(us_home, "key", "show", "bob").split()[-1]
    assert bob_fp.startswith("SHA256:") and bob_fp in body
    # Bob accepts from the email alone, into a new directory; his reply is an email too.
    ok(us_home, "join", b, "--key", "bob", "--invitation", invite)
    assert set(attachments(b / "mail-join-US.eml")) == {"join-US.json"}
    out = ok(de_home, "ingest", a, b / "mail-join-US.eml")
    assert "turn-0000.json" in out
    assert (a / "turn-0000.json").read_bytes() == (b / "turn-0000.json").read_bytes()
    # An invitation to another game is not a move: ingest refuses it and says what to run.
    other = tmp_path / "other-game"
    ok(de_home, "new", "bastogne-relief", other, "--player", "DE=alice", "--player", f"US={bob_pub}")
    before = sorted(p.name for p in b.iterdir())
    code, _out, err = pbem(us_home, "ingest", b, other / "mail-invite-US.eml")
    assert code == 2 and "pbem join GAME_DIR --key YOUR_KEY --invitation FILE" in err
    assert sorted(p.name for p in b.iterdir()) == before

    # U.S. set-up (no dice): resolved at once on both machines.
    (tmp_path / "us-setup.json").write_text(ok(us_home, "orders", b, "--side", "US").split("\n}")[0] + "\n}")
    ok(us_home, "submit", "--yes", b, tmp_path / "us-setup.json", "--key", "bob")
    # turn 0 had no events, so the set-up email shows the map after the set-up: the units placed
    setup_atts = attachments(b / "mail-0001.eml")
    [setup_map] = [n for n in setup_atts if n.startswith("map-0001-around-")]
    assert set(setup_atts) == {"move-0001-US.json", "turn-0000.json", setup_map}
    assert setup_atts[setup_map].count(b'data-type="placed"') == 9  # the nine U.S. units
    out = ok(de_home, "ingest", a, b / "mail-0001.eml")
    assert "the attached turn-0000.json is byte-identical to ours" in out

    # German player-turn 1: the German cannot know its dice (they need the U.S. reveal) ...
    de_orders = {"kind": "player-turn", "side": "DE", "game_turn": 1, "attacks": [],
                 "moves": [{"unit": "1/3", "to": "2712"}, {"unit": "2/3", "to": "2812"}]}
    (tmp_path / "de1.json").write_text(json.dumps(de_orders))
    ok(de_home, "submit", "--yes", a, tmp_path / "de1.json", "--key", "alice")
    assert not (a / "turn-0002.json").exists()
    mail2 = a / "mail-0002.eml"
    atts2 = set(attachments(mail2))
    assert {n for n in atts2 if not n.startswith("map-0001-around-")} == {"move-0002-DE.json", "turn-0001.json"}
    assert len(atts2) == 3  # and the U.S. set-up it answers, on the map

    # ... the U.S. tool can (it holds the U.S. seed): it resolves turn 2 on ingest.
    out = ok(us_home, "ingest", b, mail2)
    assert "the attached turn-0001.json is byte-identical to ours" in out
    assert (b / "turn-0002.json").exists()
    state = json.loads((b / "turn-0002.json").read_bytes())["state"]
    assert state["units"]["1/3"]["hex"] == "2712"

    # U.S. player-turn 1 (nothing to do); its email carries turn 2, which the German now recomputes
    # from the U.S. reveal and must find identical to the attachment.
    us_orders = {"kind": "player-turn", "side": "US", "game_turn": 1, "moves": [], "attacks": []}
    (tmp_path / "us1.json").write_text(json.dumps(us_orders))
    ok(us_home, "submit", "--yes", b, tmp_path / "us1.json", "--key", "bob")
    mail3 = b / "mail-0003.eml"
    sent = attachments(mail3)
    assert {n for n in sent if not n.startswith("map-0002-around-")} == {"move-0003-US.json", "turn-0002.json"}
    out = ok(de_home, "ingest", a, mail3)
    assert "the attached turn-0002.json is byte-identical to ours" in out
    assert (a / "turn-0002.json").read_bytes() == sent["turn-0002.json"]

    # Ingesting the same email again changes nothing.
    before = {p.name: p.read_bytes() for p in a.iterdir()}
    out = ok(de_home, "ingest", a, mail3)
    assert "already in the archive" in out
    assert {p.name: p.read_bytes() for p in a.iterdir()} == before

    # Both archives verify and hold the same turn and move files, byte for byte.
    for home, game in ((de_home, a), (us_home, b)):
        assert "OK" in ok(home, "verify", game)
    on_a = {p.name for p in a.glob("*.json") if p.name.startswith(("turn-", "move-"))}
    on_b = {p.name for p in b.glob("*.json") if p.name.startswith(("turn-", "move-"))}
    # The German already resolved the U.S. player-turn with its own next reveal; the U.S. machine
    # will when the German's next move arrives.
    assert on_a - on_b == {"turn-0003.json"} and on_b <= on_a
    for name in sorted(on_b):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_a_tampered_turn_attachment_is_a_loud_divergence(tmp_path: Path) -> None:
    home = tmp_path / "home"
    g = tmp_path / "g"
    ok(home, "key", "new", "alice")
    ok(home, "key", "new", "bob")
    ok(home, "new", "bastogne-spearhead", g, "--player", "DE=alice", "--player", "US=bob")
    (tmp_path / "us.json").write_text(ok(home, "orders", g, "--side", "US").split("\n}")[0] + "\n}")
    ok(home, "submit", "--yes", g, tmp_path / "us.json", "--key", "bob")
    raw = (g / "mail-0001.eml").read_bytes()
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    for part in msg.iter_attachments():
        if part.get_filename() == "turn-0000.json":
            data = part.get_payload(decode=True).replace(b'"game_turn":1', b'"game_turn":2', 1)
            part.set_content(data, maintype="application", subtype="json",
                             filename="turn-0000.json")
    bad = tmp_path / "bad.eml"
    bad.write_bytes(msg.as_bytes(policy=email.policy.SMTP))
    code, _out, err = pbem(home, "ingest", g, bad)
    assert code == 2
    last = err.strip().splitlines()[-1]
    assert last.startswith("pbem: DIVERGENCE") and "turn-0000.json" in last
