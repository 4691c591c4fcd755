"""The megagame played by email (issue 13): three teams and Game Control, each with a home and a
game directory of its own, only files between them. Every team's orders come from its sparring bot
working on the team's own view; Game Control's bot rules nothing (it accepts every grouping the
engine proposes [9]). Checked: each team's directory and home hold nothing of the other side's
positions and no status number [10]; the game runs to its end; after Game Control publishes,
`pbem verify` passes for every team and for a stranger, and a publication that changes a team's
committed orders is caught.
"""

from __future__ import annotations

import email
import email.policy
import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from helpers import megagame as helpers_megagame
from helpers.megagame import TEAMS
from helpers.protocol import GAME_ID, Player, move_body, ok, pbem, written
from helpers.svgmap import drawn_hexes

from pbem.mail.draft import message_id

TURNS = 2


def create(root: Path) -> dict[str, Player]:
    """Game Control's game created from the bundled scenario shortened to two turns, the teams
    invited, nobody joined."""
    return helpers_megagame.create(root, helpers_megagame.scenario_file(root, TURNS))


def start(root: Path) -> dict[str, Player]:
    """Created, and every team joined from its invitation, the joins sent to everyone."""
    return helpers_megagame.start(root, helpers_megagame.scenario_file(root, TURNS))


def send_all(players: dict[str, Player], sender: str, res: Any) -> None:
    names = [n for n in written(res) if n.startswith("move-")]
    assert len(names) == 1, written(res)
    for t, p in players.items():
        if t != sender:
            ok(players[sender].send(p, names))


def my_view(p: Player) -> dict[str, Any]:
    views: dict[str, Any] = json.loads(ok(p.run("status", p.dir, "--json")).out)["views"]
    return dict(views[p.side])


def play_turn(players: dict[str, Player]) -> None:
    for s in TEAMS:  # each team's bot, from the team's own view (pbem bot, as a player runs it)
        p = players[s]
        send_all(players, s, ok(p.run("bot", p.dir, "--side", s, "--key", p.name)))
    for s in TEAMS:  # each team acknowledges the commitments, releasing its sheet to Game Control [29]
        p = players[s]
        send_all(players, s, ok(p.run("reveal", p.dir, "--key", p.name, "--yes")))
    gc = players["GC"]
    send_all(players, "GC", ok(gc.run("rule", gc.dir, "--key", "control", "--yes")))
    for s in TEAMS:
        p = players[s]
        send_all(players, s, ok(p.run("reveal", p.dir, "--key", p.name, "--yes")))
    send_all(players, "GC", ok(gc.run("report", gc.dir, "--key", "control", "--yes")))


def to_the_ruling(root: Path) -> dict[str, Player]:
    """Started, every team's bot sheet and acknowledgement sent to everyone: Game Control's ruling
    is due [9, 29]."""
    players = start(root)
    for s in TEAMS:
        p = players[s]
        send_all(players, s, ok(p.run("bot", p.dir, "--side", s, "--key", p.name)))
    for s in TEAMS:
        p = players[s]
        send_all(players, s, ok(p.run("reveal", p.dir, "--key", p.name, "--yes")))  # acknowledgements
    return players


def holding(p: Player) -> str:
    """Everything a player holds but the public scenario file (its map lists every hex), with the
    long hex and base64 runs of hashes, keys, signatures and sealed blobs taken out (they may hold
    any four digits by chance)."""
    import re

    texts = [q.read_text(encoding="utf-8", errors="replace") for root in (p.dir, p.home)
             for q in sorted(root.rglob("*")) if q.is_file() and q.name != "scenario.json"]
    return re.sub(r"[0-9a-f]{16,}|[A-Za-z0-9+/=_-]{24,}", "", "\n".join(texts))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Player]:
    players = start(tmp_path_factory.mktemp("megagame"))
    views = []
    for _ in range(TURNS):
        play_turn(players)
        views.append({s: my_view(players[s]) for s in TEAMS})
    players["AB1"].views = views  # type: ignore[attr-defined]
    return players


def test_10_a_team_hears_its_own_units_in_words_and_nothing_of_the_enemy_out_of_sight(
        played: dict[str, Player]) -> None:
    first = played["AB1"].views[0]["AB1"]  # type: ignore[attr-defined]
    assert first["turn"] == 2 and first["team"] == "AB1"
    assert {u["id"] for u in first["units"]} >= {"1Para", "2Para", "3Para"}
    assert all("steps" not in u and "status" not in u for u in first["units"])
    assert first["reports"] and all("Supply: used" in r for r in first["reports"])
    # Where the Germans are now (their own teams' views), out of the Allied team's sight, appears
    # nowhere in what the Allied team holds [10].
    from pbem.maps.hexmap import Hex

    ours = [Hex.parse(u["hex"]) for u in first["units"]]
    seen = {e["hex"] for e in first["enemy"]}
    assert all(min(Hex.parse(h).distance(o) for o in ours) <= 2 for h in seen)
    public = {o["hex"] for o in first["objectives"]} | {u["hex"] for u in first["units"]}
    german = {u["hex"] for s in ("SS9", "SS10") for u in played["AB1"].views[0][s]["units"]}  # type: ignore[attr-defined]
    far = {h for h in german - public if min(Hex.parse(h).distance(o) for o in ours) > 2}
    assert far, "the test needs German units out of the Allies' sight"
    text = holding(played["AB1"])
    for h in sorted(far):
        assert h not in text, h


def _unit_words(data: dict[str, Any], side: str) -> set[str]:
    """Ids and names of one side's units in scenario data (what would tell them apart)."""
    sides = {t["id"]: t["side"] for t in data["teams"]}
    return {w for u in data["units"] if sides[u["team"]] == side for w in (u["id"], u["name"])}


def test_2_10_the_set_up_is_secret_each_team_holds_only_its_sides_forces(played: dict[str, Player]) -> None:
    # Game Control holds the whole scenario; each team's invitation carried its own copy: its
    # side's units and no German (or British) unit, position or arrival of the other side.
    whole = json.loads((played["GC"].dir / "scenario.json").read_text(encoding="utf-8"))
    assert "pbem_salt" in whole
    for s in TEAMS:
        p = played[s]
        copy = json.loads((p.dir / "scenario.json").read_text(encoding="utf-8"))
        side = next(t["side"] for t in copy["teams"] if t["id"] == s)
        other = "german" if side == "allied" else "allied"
        assert copy["copy_for"] == s and copy["pbem_salt"] != whole["pbem_salt"]
        assert _unit_words(copy, side) == _unit_words(whole, side)
        enemy_ids = {u["id"] for u in whole["units"]} - {u["id"] for u in copy["units"]}
        assert {u["id"] for u in whole["units"] if u["team"] not in
                {t["id"] for t in whole["teams"] if t["side"] == side}} == enemy_ids
        # what the copy keeps of the enemy: anonymous forces in sight at the start, no identity
        for u in copy["units"]:
            if u["id"] not in {v["id"] for v in whole["units"]}:
                assert u["formation"] == "unknown" and u["name"] == "enemy force"
        text = "\n".join(q.read_text(encoding="utf-8", errors="replace")
                         for root in (p.dir, p.home) for q in sorted(root.rglob("*")) if q.is_file())
        words = sorted(w for w in _unit_words(whole, other) if len(w) >= 4)
        assert words and not [w for w in words if w in text], s
        hidden = {u["hex"] for u in whole["units"] if u["id"] in enemy_ids}
        seen = {u["hex"] for u in copy["units"] if u["id"].startswith("enemy-")}
        assert hidden - seen and not (hidden - seen) & {u["hex"] for u in copy["units"]}


def test_p10_a_team_that_guesses_another_teams_copy_exactly_cannot_confirm_it(played: dict[str, Player]) -> None:
    # The genesis names every copy's hash. AB1 guessing the German copy exactly -- here it is
    # given the rules' copy of the whole scenario, as if it had guessed every German unit and hex
    # -- still cannot test the guess against that hash: each copy carries a salt derived from the
    # whole scenario's, which only Game Control holds until the publication.
    from pbem.engine.gamedir import load_scenario
    from pbem.engine.scenarios import content_hash, without_salt
    from pbem.protocol.archive import parse_genesis

    whole = json.loads((played["GC"].dir / "scenario.json").read_text(encoding="utf-8"))
    rules, model = load_scenario(without_salt(whole), "test-guess")
    genesis = parse_genesis((played["AB1"].dir / "genesis.json").read_bytes()).body
    assert genesis.scenario.copies is not None
    guess = rules.scenario_copy(model, without_salt(whole), "SS9")
    assert guess is not None and content_hash(guess) != genesis.scenario.copies["SS9"]
    mine = json.loads((played["SS9"].dir / "scenario.json").read_text(encoding="utf-8"))
    assert content_hash(mine) == genesis.scenario.copies["SS9"] and without_salt(mine) == guess


def test_p10_the_state_hashes_are_salted_so_a_guess_of_a_hidden_state_cannot_be_tested(
        played: dict[str, Player]) -> None:
    # A team that knew (or guessed) the whole initial state exactly -- here computed from Game
    # Control's scenario -- finds that its plain hash is not the one the genesis commits to, nor
    # is the plain hash of any later master state the one its turn file holds: every state hash is
    # salted with a salt derived from Game Control's chain seed (published after the game).
    from helpers.protocol import env

    from pbem.engine.gamedir import open_checked
    from pbem.engine.sealed import hidden_state_hash, state_salt
    from pbem.protocol.canonical import canonical_bytes, sha256_hex
    from pbem.protocol.localstate import LocalGame, local_seeds

    gc = played["GC"]
    with env(PBEM_HOME=str(gc.home), PBEM_PASSPHRASE=""):
        game = open_checked(gc.dir)
        local = LocalGame.of(game)
        seeds = local_seeds(game, local)
        records = game.replay(seeds, local=local).records  # Game Control's machine: every state
    salt = state_salt(seeds["GC"], game.id)
    state0 = game.ruleset.dump_state(game.scenario, game.ruleset.initial_state(game.scenario, {}))
    assert game.body.scenario.state == hidden_state_hash(state0, salt) != sha256_hex(canonical_bytes(state0))
    later = [r for r in records if r.step > 0 and r.state is not None and "sealed" not in r.turn]
    assert later
    for rec in later:
        dumped = game.ruleset.dump_state(game.scenario, rec.state)
        assert rec.turn["state"]["hidden"] == hidden_state_hash(dumped, salt) != sha256_hex(canonical_bytes(dumped))


def test_p10_a_team_that_edits_its_copy_of_the_scenario_is_refused(played: dict[str, Player],
                                                                     tmp_path: Path) -> None:
    p = played["SS9"]
    forged = tmp_path / "forged"
    shutil.copytree(p.dir, forged, ignore=shutil.ignore_patterns("publication.json"))
    data = json.loads((forged / "scenario.json").read_text(encoding="utf-8"))
    data["supply"] = {k: v + 5 for k, v in data["supply"].items()}
    from pbem.protocol.canonical import canonical_bytes

    (forged / "scenario.json").write_bytes(canonical_bytes(data) + b"\n")
    res = pbem("verify", forged, home=tmp_path / "stranger")
    assert res.code == 1 and "scenario.json" in res.err and "nor a side's copy the genesis names" in res.err, \
        res.err


def test_10_no_status_number_in_a_teams_view(played: dict[str, Player]) -> None:
    for views in played["AB1"].views:  # type: ignore[attr-defined]
        for team, view in views.items():
            text = json.dumps(view)
            assert '"steps"' not in text and '"status"' not in text and '"facts"' not in text, team
            for r in view["reports"]:
                assert "status" not in r
    final = played["AB1"].views[-1]["AB1"]  # type: ignore[attr-defined]
    assert final["over"] is True  # the last report too: the master state comes with the publication


def test_the_game_ends_and_everyone_verifies_after_publication(played: dict[str, Player],
                                                               tmp_path: Path) -> None:
    gc = played["GC"]
    status = json.loads(ok(gc.run("status", gc.dir, "--json")).out)
    assert status.get("outcome"), status
    told = ok(played["AB1"].run("status", played["AB1"].dir)).out
    assert "outcome" in told and "after Game Control's publication" in told  # a team is told what comes next
    res = ok(gc.run("publish", gc.dir, "--key", "control"))
    assert "send mail-publication.eml to every player" in res.err
    mail = (gc.dir / "mail-publication.eml").read_bytes()
    assert b"X-Pbem-To-Side: ALL" in mail and b"publication.json" in mail
    # its own Message-ID, not the last move's: a mailbox keeps one mail per id (Gmail drops the other)
    mid = email.message_from_bytes(mail, policy=email.policy.default)["Message-ID"]
    assert mid not in {message_id(GAME_ID, n) for n in range(status["step"] + 2)}, mid
    for s in TEAMS:  # the publication travels by email, as every other message
        inbox = played[s].work / "mail"
        inbox.mkdir(exist_ok=True)
        (inbox / "mail-publication.eml").write_bytes(mail)
        assert "the umpire's publication" in ok(played[s].ingest(inbox / "mail-publication.eml")).err
        res = played[s].run("verify", played[s].dir)
        assert res.code == 0, res.err
        assert "every sealed order opened" in res.out
    res = pbem("verify", played["SS9"].dir, home=tmp_path / "stranger")
    assert res.code == 0, res.err
    log = ok(played["SS9"].run("log", played["SS9"].dir)).out  # every sheet, as it was sealed
    assert "published, the orders it sealed:" in log and "1Para" in log
    # the publication carries the whole scenario the genesis committed to; one that moves a
    # British battalion of the set-up is caught, though Game Control signed it [P10]
    forged = tmp_path / "moved"
    shutil.copytree(played["AB1"].dir, forged)
    from pbem.engine.sealed import PUBLICATION_TYPE
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.dsse import envelope_bytes, parse_envelope, sign
    env = parse_envelope((forged / "publication.json").read_bytes(), max_bytes=1 << 24, what="publication")
    value = json.loads(env.body())
    para = next(u for u in value["scenario"]["units"] if u["id"] == "2Para")
    para["hex"] = "0101" if para["hex"] != "0101" else "0102"
    signed = envelope_bytes(sign(canonical_bytes(value), PUBLICATION_TYPE, [gc.private()]))
    (forged / "publication.json").write_bytes(signed)
    res = pbem("verify", forged, home=tmp_path / "stranger")
    assert res.code == 1 and "whole scenario the genesis commits to" in res.err, res.err


def test_p8_a_publication_that_changes_a_teams_committed_orders_is_caught(played: dict[str, Player],
                                                                        tmp_path: Path) -> None:
    # Game Control's modified client publishes AB1's turn-1 order sheet with one line changed.
    from pbem.engine.sealed import PUBLICATION_TYPE
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.dsse import envelope_bytes, parse_envelope, sign

    gc = played["GC"]
    if not (gc.dir / "publication.json").exists():
        ok(gc.run("publish", gc.dir, "--key", "control"))
    copy = tmp_path / "forged"
    shutil.copytree(gc.dir, copy)
    env = parse_envelope((copy / "publication.json").read_bytes(), max_bytes=1 << 24, what="publication")
    value = json.loads(env.body())
    sheet = value["orders"]["1"]["orders"]
    assert sheet["team"] == "AB1" and sheet["lines"]
    sheet["lines"][0]["intention"] = "hold" if sheet["lines"][0]["intention"] != "hold" else "prepare"
    forged = envelope_bytes(sign(canonical_bytes(value), PUBLICATION_TYPE, [gc.private()]))
    (copy / "publication.json").write_bytes(forged)
    res = pbem("verify", copy, home=tmp_path / "stranger")
    assert res.code == 1 and "publication.json" in res.err and "do not match its commitment" in res.err


def test_10_each_side_draws_its_own_map_and_no_other(played: dict[str, Player], tmp_path: Path) -> None:
    ab1, gc = played["AB1"], played["GC"]
    svg = ok(ab1.run("render", ab1.dir, "-o", tmp_path / "ab1.svg")).err
    assert "ab1.svg" in svg
    mine = (tmp_path / "ab1.svg").read_text(encoding="utf-8")
    assert "1Para" in mine and "KGKrafft" not in mine and "SSRecce9" not in mine  # enemies: only as seen
    assert "status" not in mine  # a team's counters show words, never a status number [9, 10]
    assert "4409" in drawn_hexes(ET.fromstring(mine))  # cropped to its forces and the objectives near them (Arnhem bridge)
    ok(gc.run("render", gc.dir, "--side", "GC", "-o", tmp_path / "gc.svg"))
    master = (tmp_path / "gc.svg").read_text(encoding="utf-8")
    assert "KGKrafft" in master and "1Para" in master and "status" in master
    refused = ab1.run("render", ab1.dir, "--side", "SS9")
    assert refused.code == 2 and "hidden from this machine" in refused.err
    refused = ab1.run("units", ab1.dir, "--side", "SS9")
    assert refused.code == 2 and "SS9's view is hidden from this machine (it plays AB1)" in refused.err
    # an earlier step: the view the team had then (the report of that round opened again), and
    # Game Control's master map of it
    ok(ab1.run("render", ab1.dir, "--step", "2", "-o", tmp_path / "ab1-2.svg"))
    ok(ab1.run("render", ab1.dir, "--step", "0", "-o", tmp_path / "ab1-0.svg"))
    at2, at0 = ((tmp_path / f"ab1-{n}.svg").read_text(encoding="utf-8") for n in (2, 0))
    assert "step 2" in at2 and "1Para" in at2 and "KGKrafft" not in at2
    assert at0.replace("step 0", "step 2") == at2  # inside round 1 nothing has changed yet
    ok(ab1.run("render", ab1.dir, "--step", "11", "-o", tmp_path / "ab1-11.svg"))  # turn 2, after the report
    assert (tmp_path / "ab1-11.svg").read_text(encoding="utf-8") != at0.replace("step 0", "step 11")
    ok(gc.run("render", gc.dir, "--side", "GC", "--step", "0", "-o", tmp_path / "gc-0.svg"))
    gc0 = (tmp_path / "gc-0.svg").read_text(encoding="utf-8")
    assert "KGKrafft" in gc0
    # a step after the genesis and before Game Control's checkpoint (the newest round): the master
    # map of the first report, replayed from the genesis with Game Control's key (issue 25 trial:
    # 'Game Control's master state is not on this machine')
    ok(gc.run("render", gc.dir, "--side", "GC", "--step", "11", "-o", tmp_path / "gc-11.svg"))
    gc11 = (tmp_path / "gc-11.svg").read_text(encoding="utf-8")
    assert "step 11" in gc11 and "KGKrafft" in gc11 and "1Para" in gc11 and "status" in gc11
    assert gc11 != gc0.replace("step 0", "step 11")  # turn 2: the first turn's moves are on it
    late = ab1.run("render", ab1.dir, "--step", "999")
    assert late.code == 2 and "no step 999" in late.err
    assert not list(ab1.dir.glob("map-*.svg"))  # nothing drawn into the shared directory


def test_5_a_team_writes_its_sheet_as_text_and_sees_what_it_signs(tmp_path: Path) -> None:
    players = start(tmp_path)
    ab1 = players["AB1"]
    units = ok(ab1.run("units", ab1.dir, "--side", "AB1")).out
    assert "2Para" in units and "in good heart" in units and "battered" in units  # words, no status
    text = ab1.work / "sheet.txt"
    text.write_text("1Para 2Para: move, towards 4409, via 3508 3608, tactical\n1Border: hold, stand fast\n",
                    encoding="utf-8")
    shown = ok(ab1.run("check", ab1.dir, text, "--key", "ab1")).out
    assert "1Para, 2Para: move, tactical via 3508 3608 towards 4409, whole turn [5]" in shown
    # the preview from the team's own view: two 1 km hexes of route [6, 27]
    assert ("Before any die is rolled:\n  = 1Para, 2Para move 2 km, via 3508 3608, ending at 3608 unless the enemy "
            "is met on the way [6]") in shown
    bad = ab1.work / "bad.txt"
    bad.write_text("2Para: charge\n", encoding="utf-8")
    res = ab1.run("submit", "--yes", ab1.dir, bad, "--key", "ab1")
    assert res.code == 2 and "line 1" in res.err and "[5]" in res.err
    assert not list(ab1.dir.glob("move-*.json"))
    send_all(players, "AB1", ok(ab1.run("submit", "--yes", ab1.dir, text, "--key", "ab1")))


def test_p8_a_team_bot_commits_in_any_order(tmp_path: Path) -> None:
    players = start(tmp_path)
    ss10 = players["SS10"]  # the last team commits first: sealed orders arrive in any order [P8]
    res = ok(ss10.run("bot", ss10.dir, "--side", "SS10", "--key", ss10.name))
    assert "the bot's orders for SS10:" in res.err  # what it signs, in words
    assert any(n.startswith("move-") and n.endswith("-SS10.json") for n in written(res))


def test_p9_rulings_are_sealed_from_the_teams_and_checked_after_publication(tmp_path: Path) -> None:
    # Game Control's rulings name units and hexes of every side: a German team must not read them
    # before the publication [P9, P10]; a publication that changes them is caught.
    from pbem.engine.sealed import PUBLICATION_TYPE
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.dsse import envelope_bytes, parse_envelope, sign

    players = to_the_ruling(tmp_path)
    gc = players["GC"]
    rulings = gc.work / "rulings.json"
    rulings.write_text(json.dumps({"groupings": [{"at": "3607", "attackers": ["1Para", "3Para"]}],
                                   "advantage": [{"at": "3607", "side": "defender", "points": 1,
                                                  "why": "snipers-in-the-woods"}]}), encoding="utf-8")
    res = ok(gc.run("rule", gc.dir, rulings, "--key", "control", "--yes"))
    assert "sealed: everyone gets a commitment" in res.out + res.err
    send_all(players, "GC", res)
    for s in ("SS9", "SS10"):
        held = holding(players[s])
        assert "snipers-in-the-woods" not in held and "1Para" not in held, s
        log = ok(players[s].run("log", players[s].dir)).out
        assert "snipers" not in log
    for s in TEAMS:
        p = players[s]
        send_all(players, s, ok(p.run("reveal", p.dir, "--key", p.name, "--yes")))
    send_all(players, "GC", ok(gc.run("report", gc.dir, "--key", "control", "--yes")))
    play_turn(players)
    ok(gc.run("publish", gc.dir, "--key", "control"))
    ok(gc.send(players["SS9"], ["publication.json"]))
    assert ok(players["SS9"].run("verify", players["SS9"].dir)).code == 0
    copy = tmp_path / "forged"
    shutil.copytree(gc.dir, copy)
    env = parse_envelope((copy / "publication.json").read_bytes(), max_bytes=1 << 24, what="publication")
    value = json.loads(env.body())
    ruled = next(v for v in value["orders"].values() if "advantage" in v["orders"] and v["orders"]["advantage"])
    ruled["orders"]["advantage"][0]["points"] = 3  # the umpire rewrites its ruling after the dice
    (copy / "publication.json").write_bytes(envelope_bytes(sign(canonical_bytes(value), PUBLICATION_TYPE,
                                                                [gc.private()])))
    res = pbem("verify", copy, home=tmp_path / "stranger")
    assert res.code == 1 and "do not match their commitment" in res.err


def test_9_rule_dry_run_shows_the_orders_and_warnings_and_writes_nothing(tmp_path: Path) -> None:
    # Game Control tries its rulings first: the sealed orders, the proposal and the warnings are
    # shown, nothing is signed or written (here and in its home), and the real ruling still follows
    players = to_the_ruling(tmp_path)
    gc = players["GC"]
    rulings = gc.work / "rulings.json"
    rulings.write_text(json.dumps({"groupings": [{"at": "9909", "attackers": ["1Para"]}]}), encoding="utf-8")

    def files() -> dict[Path, bytes]:
        return {q: q.read_bytes() for root in (gc.dir, gc.home) for q in sorted(root.rglob("*")) if q.is_file()}

    before = files()
    res = ok(gc.run("rule", gc.dir, rulings, "--key", "control", "--dry-run"))
    assert "SIGNED: rulings" in res.out and "read, not signed -- the sealed orders" in res.out
    assert "WARNING: 9909 is not a hex of the map" in res.out
    assert "dry run: nothing was signed" in res.err
    assert files() == before
    send_all(players, "GC", ok(gc.run("rule", gc.dir, "--key", "control", "--yes")))


def test_29_ingest_and_status_name_the_sides_owed_in_one_order(tmp_path: Path) -> None:
    # a trial: after one team committed, ingest said "owed by SS10, SS9" and the line under it
    # "from SS9, SS10": the same sides, two orders, read as two answers. One order now (sorted)
    players = start(tmp_path)
    ab1, ss9 = players["AB1"], players["SS9"]
    res = ok(ab1.send(ss9, [n for n in written(ok(ab1.run("bot", ab1.dir, "--side", "AB1", "--key", ab1.name)))
                            if n.startswith("move-")]))
    assert "owed by SS10, SS9" in res.err, res.err
    assert "from SS10, SS9 " in res.out + res.err, res.out + res.err
    assert "from SS10, SS9 " in ok(ss9.run("status", ss9.dir)).out


def test_a_turn_played_with_only_the_emails_between_the_four_homes(tmp_path: Path) -> None:
    # every message is drafted as an email to every other side; only those .eml files travel
    players = start(tmp_path)

    def mail_all(sender: str, res: Any) -> None:
        mails = [n for n in written(res) if n.startswith("mail-") and n.endswith(".eml")]
        assert len(mails) == 1, written(res)
        raw = (players[sender].dir / mails[0]).read_bytes()
        assert b"X-Pbem-To-Side: ALL" in raw and b"To every side of the game," in raw
        for t, p in players.items():
            if t != sender:
                inbox = p.work / "mail"
                inbox.mkdir(exist_ok=True)
                (inbox / mails[0]).write_bytes(raw)
                ok(p.ingest(inbox / mails[0]))

    gc = players["GC"]
    joined = (players["AB1"].dir / "mail-join-AB1.eml").read_bytes()  # the join goes to every other side
    assert b"X-Pbem-To-Side: ALL" in joined and b"join-AB1.json" in joined
    for s in TEAMS:
        p = players[s]
        mail_all(s, ok(p.run("bot", p.dir, "--side", s, "--key", p.name)))
    for s in TEAMS:  # the acknowledgements, which release each sheet to Game Control [29]
        p = players[s]
        mail_all(s, ok(p.run("reveal", p.dir, "--key", p.name, "--yes")))
    mail_all("GC", ok(gc.run("rule", gc.dir, "--key", "control", "--yes")))
    for s in TEAMS:
        p = players[s]
        mail_all(s, ok(p.run("reveal", p.dir, "--key", p.name, "--yes")))
    mail_all("GC", ok(gc.run("report", gc.dir, "--key", "control", "--yes")))
    assert my_view(players["AB1"])["turn"] == 2
    import email
    import email.policy

    def text_of(path: Path) -> tuple[str, str]:
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        body = msg.get_body(preferencelist=("plain",))
        assert body is not None
        return str(msg["Subject"]), body.get_content()

    # each keeps the emails no other side has answered yet (issue 28): Game Control its report;
    # every email sent is in the others' inboxes
    gc_sent = sorted(q for q in (players["AB1"].work / "mail").glob("mail-0*.eml")
                     if b"X-Pbem-From-Side: GC" in q.read_bytes())
    assert len(gc_sent) == 2 and [q.name for q in gc.dir.glob("mail-0*.eml")] == [gc_sent[-1].name]
    subject, body = text_of(gc.dir / gc_sent[-1].name)  # Game Control's report: what it is and where to read it
    assert "Turn 1" in subject and "report" in subject and "Nothing happened" not in body
    assert "has adjudicated Turn 1" in body and "pbem status GAME_DIR' shows yours" in body
    subject, body = text_of(gc_sent[0])
    assert "has signed its rulings for Turn 1" in body and "rulings" in subject
    subject, body = text_of(gc.work / "mail" / "mail-0001.eml")
    assert "has committed its orders for Turn 1" in body and "only Game Control can read them" in body
    assert "sealed orders" in subject
    subject, body = text_of(gc.work / "mail" / "mail-0004.eml")
    assert "acknowledges every side's commitment for Turn 1" in body and "acknowledgement" in subject
    for s in ("SS9", "SS10"):  # the German teams' mail holds nothing of the British positions
        mails = b"".join(q.read_bytes() for q in (players[s].work / "mail").glob("*.eml"))
        assert b"1Para" not in mails and b"2Para" not in mails


def test_5_a_team_drafts_its_sheet_line_by_line_from_the_text_template(tmp_path: Path) -> None:
    players = start(tmp_path)
    ab1 = players["AB1"]
    template = ok(ab1.run("orders", ab1.dir, "--side", "AB1", "--text")).out
    assert template.startswith("# Order sheet of") and "1Para" in template
    empty = ok(ab1.run("draft", "show", ab1.dir))
    assert "the draft holds no order" in empty.err and "# Order sheet of" in empty.out
    ok(ab1.run("draft", "order", ab1.dir, "1Para: move, towards 3809"))
    res = ok(ab1.run("draft", "show", ab1.dir))
    assert "1Para: move, tactical via" in res.out + res.err  # the way there, filled in before signing


def test_27_the_templates_example_lines_are_written_with_real_hexes_and_accepted(tmp_path: Path) -> None:
    """[5, 9, 12c, 27] the sheet's examples name the team's own unit and hexes of the map now -- the
    enemy seen, a hex a tactical move reaches, an objective, a target beyond the bomb line -- and,
    uncommented as they stand (one order for the unit, the air lines with it), they are accepted."""
    players = start(tmp_path)
    ab1 = players["AB1"]
    template = ok(ab1.run("orders", ab1.dir, "--side", "AB1", "--text")).out
    examples = [x[2:] for x in template.split("# Examples")[1].splitlines()[1:]
                if x.startswith("# ") and not x.startswith("#  ")]  # as they stand, notes and all
    kinds = [x.split(":")[1].split(",")[0].strip().split(" ")[0] for x in examples]
    assert kinds == ["attack", "move", "hold", "recce", "bombing"], examples
    for line in examples[:3]:  # each of the unit's orders, with both air lines
        sheet = tmp_path / "sheet.txt"
        sheet.write_text("\n".join([line, *examples[3:]]) + "\n")
        shown = ok(ab1.run("check", ab1.dir, sheet, "--key", "ab1"))
        assert "refused" not in (shown.out + shown.err).lower(), (line, shown.out, shown.err)


def test_p10_a_sealed_sheet_of_four_lines_and_one_of_five_are_the_same_length() -> None:
    # a second tester told the German sheets' sizes apart (1432 and 2112 bytes): sealed plaintexts
    # are padded to buckets of 4 KiB and powers of two beyond [P10]
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    from pbem.protocol.seal import padded_length, seal

    key = X25519PrivateKey.from_private_bytes(bytes(range(32))).public_key()
    line = {"units": ["gb-2-para"], "intention": "move", "route": ["3508", "3608", "3709"], "objective": "4409"}
    sizes = {len(seal({"orders": {"lines": [line] * n}, "salt": "ab" * 32}, key, game="g" * 32, step=1,
                      sender="AB1", to="GC", what="sealed orders")) for n in (4, 5)}
    assert len(sizes) == 1
    assert padded_length(1) == 4096 and padded_length(4097) == 8192 and padded_length(8192) == 8192


def test_game_controls_status_sums_up_the_master_state_in_lines(played: dict[str, Player]) -> None:
    gc = played["GC"]
    out = ok(gc.run("status", gc.dir)).out
    assert "state     (umpire, everything) " in out and "units on the map" in out
    assert '{"blown"' not in out  # no raw JSON line
    team = ok(played["AB1"].run("status", played["AB1"].dir)).out
    assert "umpire, everything" not in team


def test_p10_every_view_of_a_report_is_sealed_at_one_length(played: dict[str, Player]) -> None:
    # the teams' views differ in length (a busy turn makes a long report), yet every ciphertext of
    # one report has the same length: nobody tells from the sizes whose turn was busy [P10]
    from pbem.protocol.archive import parse_move

    reports = []
    for path in sorted(played["AB1"].dir.glob("move-*-GC.json")):
        orders = parse_move(path.read_bytes(), path.name).body.orders
        if isinstance(orders, dict) and "report" in orders:
            reports.append({side: len(sealed) for side, sealed in orders["report"]["views"].items()})
    assert reports and all(len(set(sizes.values())) == 1 for sizes in reports), reports
    plain = [{team: len(json.dumps(view)) for team, view in views.items()}
             for views in played["AB1"].views]  # type: ignore[attr-defined]
    assert any(len(set(sizes.values())) > 1 for sizes in plain)


def test_29_every_sealed_sheet_of_a_team_is_one_size_every_turn(played: dict[str, Player]) -> None:
    """A team's sheet sealed to Game Control has one length for the whole game, whatever its lines
    and however its forces grow; Game Control's sealed rulings too [5, 29]."""
    import base64

    from pbem.engine.scenarios import without_salt
    from pbem.systems.megagame.rules import MegagameRules

    gc = played["GC"]
    lengths: dict[str, set[int]] = {}
    for path in sorted(gc.dir.glob("move-*.json")):
        orders = move_body(path)["orders"]
        if isinstance(orders, dict) and "umpire" in orders:
            lengths.setdefault(path.stem.split("-", 2)[2], set()).add(len(orders["umpire"]))
    assert set(lengths) == {*TEAMS, "GC"}
    for side, seen in lengths.items():
        assert len(seen) == 1, (side, seen)
    # the size is the scenario's bound for the sender (a sheet line for every unit it will ever have)
    data = without_salt(json.loads((gc.dir / "scenario.json").read_text(encoding="utf-8")))
    ab1_units = sum(1 for u in data["units"] if u["team"] == "AB1")
    size = MegagameRules().sealed_size(MegagameRules().load_scenario(data), "AB1")
    assert size >= MegagameRules.SEALED_BASE + MegagameRules.SEALED_PER_UNIT * ab1_units
    assert lengths["AB1"] == {len(base64.b64encode(b"x" * (size + 16)))}  # the sheet and its AEAD tag


def test_29_a_teams_bot_sends_the_acknowledgement_and_the_reveal_it_owes(tmp_path: Path) -> None:
    """'pbem bot' for a team in the acknowledgement or reveal phase sends what the round asks of
    it (it refused), and for Game Control rules (the engine's proposal) and reports (it ended in a
    traceback, KeyError 'GC': issue 25); a whole turn by bots alone."""
    players = start(tmp_path)
    for phase in ("commit", "ack"):
        for s in TEAMS:
            p = players[s]
            res = ok(p.run("bot", p.dir, "--side", s, "--key", p.name))
            name = [n for n in written(res) if n.startswith("move-")]
            assert len(name) == 1, (phase, written(res))
            send_all(players, s, res)
    gc = players["GC"]
    send_all(players, "GC", ok(gc.run("bot", gc.dir, "--side", "GC", "--key", "control")))
    for s in TEAMS:
        p = players[s]
        send_all(players, s, ok(p.run("bot", p.dir, "--side", s, "--key", p.name)))
    send_all(players, "GC", ok(gc.run("bot", gc.dir, "--side", "GC", "--key", "control")))  # the report
    assert my_view(players["AB1"])["turn"] == 2


def test_25_pbem_units_on_game_controls_machine_lists_every_teams_units(tmp_path: Path) -> None:
    """It ended in a traceback (KeyError 'GC') with or without --side GC [issue 25]."""
    players = start(tmp_path)
    gc = players["GC"]
    for args in ((), ("--side", "GC")):
        out = ok(gc.run("units", gc.dir, *args)).out
        lines = out.splitlines()
        assert lines[0].split()[:2] == ["team", "unit"]
        assert {line.split()[0] for line in lines[1:]} == set(TEAMS)
        assert "1Para" in out and "KGKrafft" in out


def test_27_draft_move_and_attack_write_sheet_lines_in_the_megagame(tmp_path: Path) -> None:
    """'pbem draft move' and 'draft attack' failed with an error about a line the user never wrote;
    they now add the sheet's own lines, and the verbs with no sheet form say how to write it."""
    players = start(tmp_path)
    ab1 = players["AB1"]
    ok(ab1.run("draft", "move", ab1.dir, "3Para", "3509"))
    ok(ab1.run("draft", "attack", ab1.dir, "3607", "--with", "1Para", "--with", "2Para"))
    res = ok(ab1.run("draft", "show", ab1.dir))
    assert "3Para: move, tactical via 3408 3509 towards 3509" in res.out
    assert "1Para: attack, tactical via 3507 towards 3607" in res.out and "2Para: attack" in res.out
    res = ab1.run("draft", "enter", ab1.dir, "3Para", "3509")
    assert res.code == 2 and "pbem draft order GAME_DIR 'UNITS: INTENTION, ...'" in res.err


def test_p10_one_home_cannot_join_a_second_team_and_the_refusal_says_what_to_do(tmp_path: Path) -> None:
    # one player holding the keys of SS9 and SS10 joins SS9, then SS10's invitation with the same
    # pbem home: refused (a home plays one team of a secret set-up), in words that name no
    # temporary file of pbem's own and say how to play the second team
    players = create(tmp_path)
    gc, ss9, ss10 = players["GC"], players["SS9"], players["SS10"]
    for s in ("SS9", "SS10"):
        shutil.copyfile(gc.dir / f"mail-invite-{s}.eml", ss9.work / f"mail-invite-{s}.eml")
    for suffix in (".key", ".pub"):
        shutil.copyfile(ss10.home / "keys" / f"ss10{suffix}", ss9.home / "keys" / f"ss10{suffix}")
    ok(ss9.run("join", ss9.dir, "--key", "ss9", "--invitation", ss9.work / "mail-invite-SS9.eml"))
    res = ss9.run("join", tmp_path / "second", "--key", "ss10", "--invitation", ss9.work / "mail-invite-SS10.eml")
    assert res.code == 2
    assert res.err.strip().splitlines() == [
        "pbem: this is SS10's copy of the scenario, and this pbem home already plays SS9 in this game: use "
        "the copy your own invitation carried, or play SS10 from a pbem home of its own (PBEM_HOME)"]
    assert not (tmp_path / "second").exists()


def test_a_megagame_email_names_its_sender_as_the_teams_call_it(played: dict[str, Player]) -> None:
    # the megagame scenario names no 'sides', so its emails said "GC has played step 11" and
    # "GC's orders"; they name Game Control and each team by the names the game gives them
    import email
    import email.policy

    def body(p: Player) -> str:
        newest = max(p.dir.glob("mail-0*.eml"))
        msg = email.message_from_bytes(newest.read_bytes(), policy=email.policy.default)
        return str(msg.get_body(preferencelist=("plain",)).get_content())  # type: ignore[union-attr]

    gc = body(played["GC"])
    assert "\nGame Control has played step " in gc and "Game Control's orders:" in gc
    assert "GC has played" not in gc
    team = body(played["AB1"])
    assert "\n1st British Airborne Division (allied) has played step " in team


def test_p7_a_teams_sheet_the_disk_refused_is_not_fixed_and_another_can_be_committed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hostile trial: AB1's commitment (its sheet sealed to Game Control) refused because the
    game directory could not take the move file left the sheet in AB1's home, and every other
    sheet was refused as a change of a committed one [P7], though nothing had been signed for
    keeps or sent. Now nothing stays, and the sheet committed next is the one that stands."""
    import errno
    import os

    players = start(tmp_path)
    ab1 = players["AB1"]
    trees = [{str(q): q.read_bytes() if q.is_file() else b"" for q in sorted(root.rglob("*"))}
             for root in (ab1.dir, ab1.home)]
    first, second = ab1.work / "a.txt", ab1.work / "b.txt"
    first.write_text("1Para: hold, stand fast\n", encoding="utf-8")
    second.write_text("1Para: hold\n", encoding="utf-8")
    real = os.link

    def full(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
        if Path(dst).name.startswith("move-"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(dst))
        real(src, dst, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(os, "link", full)
        res = ab1.run("submit", "--yes", ab1.dir, first, "--key", "ab1")
    assert res.code == 2 and len(res.err.strip().splitlines()) == 1 and "No space left" in res.err, res.err
    assert [{str(q): q.read_bytes() if q.is_file() else b"" for q in sorted(root.rglob("*"))}
            for root in (ab1.dir, ab1.home)] == trees
    spare = tmp_path / "ab1-spare"
    shutil.copytree(ab1.dir, spare)  # a second copy of the directory, as it was before
    send_all(players, "AB1", ok(ab1.run("submit", "--yes", ab1.dir, second, "--key", "ab1")))
    kept = next(ab1.home.glob("games/*/signed/*-AB1.sealed.json"))
    assert "stand fast" not in kept.read_text(encoding="utf-8")
    # committed and sent, it stands: the first sheet is now a change of it [P7]
    res = ab1.run("submit", "--yes", spare, first, "--key", "ab1")
    assert res.code == 2 and "a commitment fixes them [P7]" in res.err, res.err
