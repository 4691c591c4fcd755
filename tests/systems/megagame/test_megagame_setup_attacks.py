"""Second reading of the megagame's secret set-up [2, 10] (docs/protocol.md, "A secret set-up",
P10): attacks by a hostile team, a cheating Game Control and a stranger verifying after the game.

Each test states the behaviour the protocol promises; a failing test is a finding."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers.megagame import NONCES
from helpers.protocol import GAME_ID, Player, Result, ok, pbem

from pbem.protocol.canonical import canonical_bytes
from systems.megagame.test_megagame_game import TEAMS, TURNS, create, play_turn, start


def _run(home: Path, *args: str | Path) -> Result:
    """pbem in-process; an exception escaping the CLI (a traceback for the user) fails the test."""
    try:
        return pbem(*args, home=home)
    except BaseException as exc:  # noqa: BLE001 - what escapes main() is what the user would see
        pytest.fail(f"pbem {' '.join(map(str, args))}: traceback {type(exc).__name__}: {exc}")


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(q.relative_to(root)): q.read_bytes() for q in sorted(root.rglob("*")) if q.is_file()}


def _one_line_error(res: Result, code: int) -> None:
    assert res.code == code, (res.code, res.err)
    assert "Traceback" not in res.err and res.err.strip(), res.err


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Player]:
    """The test game of tests/systems/megagame/test_megagame_game.py played to its end and published; every team has
    ingested the publication."""
    players = start(tmp_path_factory.mktemp("review"))
    for _ in range(TURNS):
        play_turn(players)
    gc = players["GC"]
    ok(gc.run("publish", gc.dir, "--key", "control"))
    for s in TEAMS:
        ok(gc.send(players[s], ["publication.json"]))
    return players


def _genesis_body(directory: Path) -> dict[str, Any]:
    from pbem.protocol.dsse import parse_envelope

    env = parse_envelope((directory / "genesis.json").read_bytes(), max_bytes=1 << 20, what="genesis")
    body: dict[str, Any] = json.loads(env.body())
    return body


def _resign_genesis(body: dict[str, Any], gc: Player) -> bytes:
    from pbem.protocol.dsse import GENESIS_TYPE, envelope_bytes, sign

    return envelope_bytes(sign(canonical_bytes(body), GENESIS_TYPE, [gc.private()]))


# -- (a) a hostile team --------------------------------------------------------------------------

def test_p10_the_genesis_state_hash_does_not_confirm_a_guess_of_one_enemy_start_hex(
        finished: dict[str, Player]) -> None:
    # AB1 knows the public scenario (map, teams, objectives, its side's forces) and guesses the
    # German order of battle; it does not know where one German battalion starts. The genesis's
    # 'state' is SHA-256 of the initial state (every unit's start hex, stock, supply): trying every
    # hex of the map against it must not single out the true one, as the copies' salts promise
    # for the copies' hashes.
    from pbem.engine.gamedir import load_scenario
    from pbem.engine.scenarios import without_salt

    whole = json.loads((finished["GC"].dir / "scenario.json").read_text(encoding="utf-8"))
    rules, model = load_scenario(without_salt(whole), "review-guess")
    state = rules.dump_state(model, rules.initial_state(model, {}))
    target = _genesis_body(finished["AB1"].dir)["scenario"]["state"]
    hidden = next(u for u in model.units if u.team == "SS9" and u.arrives <= 1)
    hexes = [f"{c:02d}{r:02d}" for c in range(1, 100) for r in range(1, 100)]
    hits = []
    for h in hexes:
        state["units"][hidden.id]["hex"] = h
        if hashlib.sha256(canonical_bytes(state)).hexdigest() == target:
            hits.append(h)
    assert hits != [hidden.hex], f"the genesis confirms {hidden.id} starts at {hidden.hex} ({len(hexes)} tried)"


def test_2_a_game_of_a_bundled_scenario_has_no_secret_set_up_and_the_genesis_confirms_it(tmp_path: Path) -> None:
    # Game Control starts the bundled megagame-arnhem: every team's pbem ships that file, and the
    # genesis's unsalted 'state' confirms that Game Control changed nothing in it. pbem should
    # at least say so at 'pbem new' (or salt the state); here the team simply reads the set-up.
    from pbem.engine.gamedir import load_scenario
    from pbem.engine.scenarios import content_hash, load_data

    home = tmp_path / "home"
    ok(pbem("key", "new", "control", home=home))
    args: list[str | Path] = ["new", "megagame-arnhem", tmp_path / "g", "--player", "GC=control",
                              "--game-id", GAME_ID, "--nonce", NONCES["GC"]]
    for s in TEAMS:
        ok(pbem("key", "new", s.lower(), home=tmp_path / s))
        args += ["--player", f"{s}={tmp_path / s / 'keys' / f'{s.lower()}.pub'}"]
    res = ok(pbem(*args, home=home))
    data = load_data("megagame-arnhem")  # what AB1's own pbem install holds
    rules, model = load_scenario(data, content_hash(data))
    guess = hashlib.sha256(canonical_bytes(rules.dump_state(model, rules.initial_state(model, {})))).hexdigest()
    confirmed = guess == _genesis_body(tmp_path / "g")["scenario"]["state"]
    assert not confirmed or "bundled" in res.err, "the enemy set-up is public and confirmed, silently"


def test_p10_a_team_directory_holding_another_teams_copy_is_refused(finished: dict[str, Player],
                                                                      tmp_path: Path) -> None:
    # SS10's copy (a copy the genesis names) put in AB1's directory: AB1's pbem should say the file
    # is not its copy, in one line, and change nothing.
    ab1 = finished["AB1"]
    forged = tmp_path / "ab1"
    shutil.copytree(ab1.dir, forged, ignore=shutil.ignore_patterns("publication.json"))
    shutil.copyfile(finished["SS10"].dir / "scenario.json", forged / "scenario.json")
    before = _snapshot(forged)
    res = _run(ab1.home, "status", forged)
    _one_line_error(res, 2)
    assert _snapshot(forged) == before


def test_p10_a_team_joins_only_with_its_own_copy(tmp_path: Path) -> None:
    # Game Control's invitation to AB1 carries SS9's copy (named in the genesis, but for another
    # side): AB1's pbem should refuse the invitation.
    players = _fresh(tmp_path)
    gc, ab1 = players["GC"], players["AB1"]
    inv = tmp_path / "inv"
    inv.mkdir()
    shutil.copyfile(gc.dir / "genesis.json", inv / "genesis.json")
    (inv / "scenario.json").write_bytes(_copy_for(gc, "SS9"))
    res = _run(ab1.home, "join", ab1.dir, "--key", ab1.name, "--nonce", NONCES["AB1"], "--invitation",
               inv / "genesis.json")
    _one_line_error(res, 2)
    assert not ab1.dir.exists()


# -- (b) a cheating Game Control -------------------------------------------------------------------

def _fresh(root: Path) -> dict[str, Player]:
    """Game Control's game created, nobody joined yet."""
    return create(root)


def _copy_for(gc: Player, side: str) -> bytes:
    from pbem.engine.gamedir import Game

    return Game.open(gc.dir).scenario_file_for(side)


def test_p10_a_copy_the_genesis_names_for_no_side_is_caught_by_verify_after_publication(tmp_path: Path) -> None:
    # Game Control's modified client adds a copy for a side the game does not have ('ZZ') and sends
    # AB1 that copy: AB1's own forces as the rules give them, but the German force its paras see
    # at the start left out. After the game, verify (AB1's, a stranger's) must name the genesis.
    players = _fresh(tmp_path)
    gc = players["GC"]
    body = _genesis_body(gc.dir)
    real = json.loads(_copy_for(gc, "AB1"))
    seen = [u for u in real["units"] if u["id"].startswith("enemy-")]
    assert seen, "the test needs a German force in AB1's sight at the start"
    lie = {**real, "units": [u for u in real["units"] if not u["id"].startswith("enemy-")]}
    lie_raw = canonical_bytes(lie) + b"\n"
    body["scenario"]["copies"]["ZZ"] = hashlib.sha256(lie_raw[:-1]).hexdigest()
    genesis = _resign_genesis(body, gc)
    (gc.dir / "genesis.json").write_bytes(genesis)
    for q in gc.dir.glob("mail-invite-*.eml"):
        q.unlink()
    (gc.home / "games" / GAME_ID / "genesis.sha256").write_text(
        hashlib.sha256(canonical_bytes(body)).hexdigest() + "\n", encoding="ascii")
    res = gc.run("status", gc.dir)  # Game Control's own pbem names it at once
    assert res.code == 2 and "names copies of the scenario for sides that cannot hold one" in res.err, res.err
    inv = tmp_path / "inv-AB1"
    inv.mkdir()
    (inv / "genesis.json").write_bytes(genesis)
    (inv / "scenario.json").write_bytes(lie_raw)
    res = players["AB1"].run("join", players["AB1"].dir, "--key", players["AB1"].name, "--nonce", NONCES["AB1"],
                             "--invitation", inv / "genesis.json")
    assert res.code == 2 and "names copies of the scenario for sides that cannot hold one" in res.err, res.err
    assert not players["AB1"].dir.exists() or not any(players["AB1"].dir.iterdir())


def test_p10_a_publication_in_game_controls_directory_must_hold_the_committed_scenario(
        finished: dict[str, Player], tmp_path: Path) -> None:
    # A stranger given Game Control's directory: its publication carries another scenario (one
    # British battalion moved), signed by Game Control. The teams' ingest refuses that
    # publication; verify of this directory should too.
    from pbem.engine.sealed import PUBLICATION_TYPE
    from pbem.protocol.dsse import envelope_bytes, parse_envelope, sign

    gc = finished["GC"]
    forged = tmp_path / "gc"
    shutil.copytree(gc.dir, forged)
    env = parse_envelope((forged / "publication.json").read_bytes(), max_bytes=1 << 24, what="publication")
    value = json.loads(env.body())
    value["scenario"]["units"] = [u for u in value["scenario"]["units"] if u["id"] != "2Para"]
    (forged / "publication.json").write_bytes(envelope_bytes(sign(canonical_bytes(value), PUBLICATION_TYPE,
                                                                  [gc.private()])))
    res = _run(tmp_path / "stranger", "verify", forged)
    _one_line_error(res, 1)
    del value["scenario"]
    (forged / "publication.json").write_bytes(envelope_bytes(sign(canonical_bytes(value), PUBLICATION_TYPE,
                                                                  [gc.private()])))
    res = _run(tmp_path / "stranger", "verify", forged)
    _one_line_error(res, 1)


# -- (c) a stranger after the game, and hostile files ----------------------------------------------

def test_p10_a_stranger_verifies_from_the_publication_without_any_scenario_json(
        finished: dict[str, Player], tmp_path: Path) -> None:
    # the publication carries the whole scenario the genesis commits to: a stranger given only the
    # genesis, joins, moves, turns and the publication can check the game.
    bare = tmp_path / "bare"
    shutil.copytree(finished["AB1"].dir, bare, ignore=shutil.ignore_patterns("scenario.json", "*.eml", "*.svg"))
    res = _run(tmp_path / "stranger", "verify", bare)
    assert res.code == 0, res.err


def test_a_team_directory_without_scenario_json_is_one_clear_line(finished: dict[str, Player],
                                                                    tmp_path: Path) -> None:
    ab1 = finished["AB1"]
    bare = tmp_path / "bare"
    shutil.copytree(ab1.dir, bare, ignore=shutil.ignore_patterns("scenario.json", "publication.json"))
    before = _snapshot(bare)
    res = _run(ab1.home, "status", bare)
    _one_line_error(res, 2)
    assert "scenario.json" in res.err, res.err  # says which file is missing, not a bundled file's hash
    assert _snapshot(bare) == before


@pytest.mark.parametrize("what", ["symlink", "oversized", "not-json", "whole-in-team-dir"])
def test_hostile_scenario_json_in_a_team_directory(finished: dict[str, Player], tmp_path: Path, what: str) -> None:
    ab1 = finished["AB1"]
    d = tmp_path / "d"
    shutil.copytree(ab1.dir, d, ignore=shutil.ignore_patterns("publication.json"))
    target = d / "scenario.json"
    if what == "symlink":
        real = tmp_path / "elsewhere.json"
        shutil.move(str(target), real)
        target.symlink_to(real)
    elif what == "oversized":
        target.write_bytes(b" " * (5 * 1024 * 1024))
    elif what == "not-json":
        target.write_bytes(b"\xff\xfe{")
    else:  # Game Control's whole scenario: not secret for AB1 any more, but is it believed?
        shutil.copyfile(finished["GC"].dir / "scenario.json", target)
    before = _snapshot(d)
    for cmd in (("status", d), ("verify", d)):
        res = _run(ab1.home, *cmd)
        if what == "whole-in-team-dir":
            continue  # reported, not asserted: the whole matches the genesis
        _one_line_error(res, 2 if cmd[0] == "status" else 1)
    assert _snapshot(d) == before


@pytest.mark.parametrize("what", ["copies-without-state", "state-without-copies", "copies-name-umpire",
                                  "copies-miss-a-team"])
def test_hostile_genesis_at_join_is_one_clear_line(tmp_path: Path, what: str) -> None:
    players = _fresh(tmp_path)
    gc, ab1 = players["GC"], players["AB1"]
    body = _genesis_body(gc.dir)
    ref = body["scenario"]
    if what == "copies-without-state":
        del ref["state"]
    elif what == "state-without-copies":
        del ref["copies"]
    elif what == "copies-name-umpire":
        ref["copies"]["GC"] = ref["sha256"]
    else:
        del ref["copies"]["SS10"]
    inv = tmp_path / "inv"
    inv.mkdir()
    (inv / "genesis.json").write_bytes(_resign_genesis(body, gc))
    (inv / "scenario.json").write_bytes(_copy_for(gc, "AB1"))
    res = _run(ab1.home, "join", ab1.dir, "--key", ab1.name, "--nonce", NONCES["AB1"], "--invitation",
               inv / "genesis.json")
    if what in ("copies-without-state", "state-without-copies"):
        _one_line_error(res, 2)
        assert not ab1.dir.exists()
    else:  # a team cannot check these before the publication; it must not crash
        assert "Traceback" not in res.err


def test_no_mail_of_game_control_carries_the_whole_scenario_before_the_publication(
        finished: dict[str, Player]) -> None:
    gc = finished["GC"]
    whole = json.loads((gc.dir / "scenario.json").read_text(encoding="utf-8"))
    salt = whole["pbem_salt"].encode()
    for q in sorted(gc.dir.glob("*.eml")):
        if q.name == "mail-publication.eml":
            continue
        raw = q.read_bytes()
        assert salt not in raw, q.name
        import base64
        import re

        for blob in re.findall(rb"[A-Za-z0-9+/=\r\n]{200,}", raw):
            try:
                dec = base64.b64decode(blob.replace(b"\r", b"").replace(b"\n", b""), validate=False)
            except ValueError:
                continue
            assert salt not in dec and b"KGKrafft" not in dec, q.name


@pytest.mark.parametrize("sid", ["megagame-arnhem", "megagame-market-garden"])
def test_10_a_copy_holds_no_unit_type_only_the_enemy_fields(sid: str) -> None:
    # The copy keeps the whole scenario's 'types': a type only the enemy uses (megagame-arnhem's
    # 'ss-pz-coy', "a few Panzer IV and assault guns") tells a team that such a unit exists, though
    # it sees none. The module docstring promises only the rules' own types (Annex A) as public;
    # scenario-specific enemy types should not travel.
    from pbem.engine.gamedir import load_scenario
    from pbem.engine.scenarios import content_hash, load_data

    data = load_data(sid)
    rules, whole = load_scenario(data, content_hash(data))
    sides = {t.id: t.side for t in whole.teams}
    team = next(t.id for t in whole.teams if t.side == "allied")
    copy = rules.scenario_copy(whole, data, team)
    assert copy is not None
    enemy_only = {u.type for u in whole.units if sides[u.team] != "allied"} - \
        {u.type for u in whole.units if sides[u.team] == "allied"}
    leaked = sorted(t for t in enemy_only & set(copy["types"])
                    if not str(copy["types"][t].get("note", "")).startswith("Annex A"))
    assert not leaked, leaked
