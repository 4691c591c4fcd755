"""Secret drop zones [15.35-15.39]: committed before the German set-up, revealed when placed,
checked by everyone (rules, ingest, ``pbem verify``), attacked as a hostile Allied client would.

Two players, each with their own pbem home and game directory, on a tiny Arnhem scenario with one
airborne division ("101") whose drop zone is placed freely (the ``arnhem-alternate`` rule).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers.protocol import (
    GAME_ID,
    NONCE_A,
    NONCE_B,
    Player,
    move_body,
    ok,
    sign_move,
    written,
)
from helpers.westwall import tiny_scenario, unit
from protocol.test_protocol_attacks import refused

from pbem.errors import InputError
from pbem.systems.westwall.arnhem import (
    Arnhem,
    dz_placement_problems,
    note_hash,
    open_note,
    seal_note,
)
from pbem.systems.westwall.model import DropZoneNote, DropZoneReveal, SetupOrders
from pbem.systems.westwall.rules import WestWallRules

R = WestWallRules()
SECRET = bytes(range(32))
DZ = "1312"  # a hex named nowhere else in the scenario


def _scenario(**special: Any) -> Any:
    sp: dict[str, Any] = {"dz_free": True, "weather": True, "exit_west": ["0101", "0120"],
                          "exit_east": ["2001", "2020"], "reenter_east": ["2001", "2005"]}
    sp.update(special)
    return tiny_scenario(
        game="arnhem", id="tiny-dz", first_player="US", cols=(1, 20), rows=(1, 20), last_turn=2,
        terrain={"city": ["0303"]},
        units=[unit("g", "DE"), unit("p1", "US", "airborne", 2, 2, 7, formation="101"),
               unit("p2", "US", "airborne", 2, 2, 7, formation="101")],
        deployments=[{"side": "DE", "units": ["g"], "area": [{"hexes": ["0202"]}], "rule": "18.12"}],
        reinforcements=[{"side": "US", "turn": 1, "units": ["p1", "p2"], "rule": "18.13",
                         "airborne": True, "entry": [{"within": 1, "of": ["1010"]}]}],
        special=sp)


# -- the commitment itself ----------------------------------------------------------------------

def test_15_36_a_commitment_opens_only_with_the_authors_secret() -> None:
    note = DropZoneNote(division="101", hex=DZ, turn=1)
    c = seal_note(SECRET, note)
    back = open_note(SECRET, "101", c)
    assert back is not None and (back.hex, back.turn) == (DZ, 1)
    assert note_hash(back) == c.hash
    assert open_note(bytes(32), "101", c) is None  # someone else's secret
    assert DZ not in json.dumps(c.to_json())  # neither the hash nor the sealed copy shows the hex
    # every note seals to the same length: the length says nothing about the hex or the turn
    other = seal_note(SECRET, DropZoneNote(division="101", hex="0101", turn=12))
    assert len(other.sealed) == len(c.sealed)


def test_15_37_placement_limits() -> None:
    sc = _scenario()
    far = DropZoneNote(division="101", hex="1010", turn=1)
    assert dz_placement_problems(sc, {}, far) == []
    near_city = DropZoneNote(division="101", hex="0305", turn=1)
    assert "City hex 0303" in dz_placement_problems(sc, {}, near_city)[0]
    assert dz_placement_problems(sc, {}, DropZoneNote(division="101", hex="0306", turn=1)) == []
    close = dz_placement_problems(sc, {"82": "1015"}, far)
    assert close and "14 at least" in close[0]


def test_15_36_the_rules_sequence_commit_german_setup_reveal() -> None:
    sc = _scenario()
    ex = Arnhem()
    st0 = R.initial_state(sc, {})
    assert st0.setup_pending == ["US", "DE", "US"] and st0.phasing == "US"
    notes = SetupOrders(side="US", placements={}, dz_notes=[DropZoneNote(division="101", hex=DZ)])
    sealed = R.conceal(sc, st0, "US", notes, SECRET)
    assert isinstance(sealed, SetupOrders) and sealed.dz_notes is None and sealed.dz_commitments
    assert R.validate(sc, st0, "US", sealed) == []
    assert {v.rule for v in R.validate(sc, st0, "US", notes)} == {"15.36"}  # never signed plain
    st1 = R.load_state(sc, R.resolve(sc, st0, "US", sealed, None).state)  # type: ignore[arg-type]
    assert DZ not in json.dumps(R.dump_state(sc, st1))  # the German sees only the commitment
    german = SetupOrders(side="DE", placements={"g": "0202"})
    st2 = R.load_state(sc, R.resolve(sc, st1, "DE", german, None).state)  # type: ignore[arg-type]
    reveal = R.conceal(sc, st2, "US", SetupOrders(side="US", placements={}), SECRET)
    assert isinstance(reveal, SetupOrders) and reveal.dz_reveal and reveal.dz_reveal[0].hex == DZ
    assert R.validate(sc, st2, "US", reveal) == []
    st3 = R.load_state(sc, R.resolve(sc, st2, "US", reveal, None).state)  # type: ignore[arg-type]
    assert st3.exclusive["dz"] == {"101": DZ} and "dz_commitments" not in st3.exclusive
    assert st3.phase == "player-turn"
    # a reveal that does not match the commitment is refused by the rules [15.36]
    lie = DropZoneReveal(division="101", hex="1011", turn=1, salt=reveal.dz_reveal[0].salt)
    bad = SetupOrders(side="US", placements={}, dz_reveal=[lie])
    assert [v.rule for v in R.validate(sc, st2, "US", bad)] == ["15.36"]
    assert ex.uses_secret_notes(sc)


def test_15_39_a_delayed_drop_zone_is_revealed_on_its_turn_and_its_division_waits() -> None:
    sc = _scenario()
    st0 = R.initial_state(sc, {})
    notes = SetupOrders(side="US", placements={},
                        dz_notes=[DropZoneNote(division="101", hex=DZ, turn=2)])
    st = st0
    for side, o in (("US", R.conceal(sc, st0, "US", notes, SECRET)),
                    ("DE", SetupOrders(side="DE", placements={"g": "0202"}))):
        st = R.load_state(sc, R.resolve(sc, st, side, o, None).state)  # type: ignore[arg-type]
    last = R.conceal(sc, st, "US", SetupOrders(side="US", placements={}), SECRET)
    assert isinstance(last, SetupOrders) and last.dz_reveal is None  # not due on Game-Turn 1
    st = R.load_state(sc, R.resolve(sc, st, "US", last, None).state)  # type: ignore[arg-type]
    assert "dz" not in st.exclusive and "101" in st.exclusive["dz_commitments"]
    from pbem.systems.westwall.model import MoveOrder, PlayerTurnOrders

    drop = PlayerTurnOrders(side="US", game_turn=1, moves=[MoveOrder(unit="p1", path=["1010"])])
    assert "15.39" in [v.rule for v in R.validate(sc, st, "US", drop)]  # no DZ yet [15.39]
    t2 = st.replace(**{"game_turn": 2, "exclusive": {**st.exclusive, "weather": "fair",
                                                             "weather_log": ["good", "fair"]}})
    o2 = R.conceal(sc, t2, "US", PlayerTurnOrders(side="US", game_turn=2, moves=[
        MoveOrder(unit="p1", path=[DZ])]), SECRET)
    assert isinstance(o2, PlayerTurnOrders) and o2.dz_reveal and o2.dz_reveal[0].hex == DZ
    assert R.validate(sc, t2, "US", o2) == []  # revealed, placed, and p1 drops next to it
    poor = t2.replace(**{"exclusive": {**t2.exclusive, "weather": "poor"}})
    forced = PlayerTurnOrders(side="US", game_turn=2, dz_reveal=o2.dz_reveal)
    assert "15.39" in [v.rule for v in R.validate(sc, poor, "US", forced)]


def test_conceal_needs_the_authors_key() -> None:
    sc = _scenario()
    st0 = R.initial_state(sc, {})
    notes = SetupOrders(side="US", placements={}, dz_notes=[DropZoneNote(division="101", hex=DZ)])
    with pytest.raises(InputError, match="sealed with your key"):
        R.conceal(sc, st0, "US", notes, None)


# -- two players, two homes, only files between them -----------------------------------------

@pytest.fixture
def pair(tmp_path: Path) -> tuple[Player, Player]:
    scenario = tmp_path / "tiny-dz.json"
    scenario.write_text(json.dumps(_scenario().to_json()), encoding="utf-8")
    us, de = Player(tmp_path, "ann", "US"), Player(tmp_path, "dirk", "DE")
    us.new_key()
    de.new_key()
    pub = us.work / "dirk.pub"
    shutil.copyfile(de.pub, pub)
    ok(us.run("new", scenario, us.dir, "--player", "US=ann", "--player", f"DE={pub}",
              "--game-id", GAME_ID, "--nonce", NONCE_A))
    shutil.copytree(us.dir, de.dir)
    ok(de.run("join", de.dir, "--key", "dirk", "--nonce", NONCE_B))
    ok(de.send(us, ["join-DE.json"]))
    return us, de


def _all_text(d: Path) -> str:
    """Every file's text, except the hex numbers printed on the maps (every hex has one) and the
    long hex or base64 runs of hashes, signatures and keys."""
    import re

    out = []
    for p in sorted(d.rglob("*")):
        if not p.is_file():
            continue
        text = p.read_text(encoding="utf-8", errors="replace")
        # Hashes, signatures and keys are new every run (fresh keys): a run of hex digits or
        # base64 may hold the drop zone's four digits by chance, which says nothing.
        text = re.sub(r"[0-9a-f]{16,}|[A-Za-z0-9+/=_-]{24,}", "", text)
        if p.suffix == ".svg":
            text = re.sub(r">\d{4}<", "><", text)  # hex-number labels
            text = re.sub(r'id="hex-\d{4}"', "", text)  # every hex of the board has its id
            assert "Drop zones:" not in text or "still secret" in text
        out.append(text)
    return "\n".join(out)


def test_15_36_end_to_end_commit_german_setup_reveal_and_verify(pair: tuple[Player, Player]) -> None:
    us, de = pair
    res = ok(us.submit({"kind": "setup", "side": "US", "placements": {},
                        "dz_notes": [{"division": "101", "hex": DZ, "turn": 1}]}))
    assert "move-0001-US.json" in written(res)
    body = move_body(us.dir / "move-0001-US.json")
    assert "dz_notes" not in body["orders"] and "101" in body["orders"]["dz_commitments"]
    ok(us.send(de, ["move-0001-US.json"]))
    assert DZ not in _all_text(de.dir)  # nothing the German holds shows the drop zone
    assert DZ not in _all_text(de.home)
    ok(de.submit({"kind": "setup", "side": "DE", "placements": {"g": "0202"}}))
    ok(de.send(us, ["move-0002-DE.json"]))
    assert DZ not in _all_text(de.dir)
    ok(us.submit({"kind": "setup", "side": "US", "placements": {}}))  # pbem fills in the reveal
    third = move_body(us.dir / "move-0003-US.json")
    assert third["orders"]["dz_reveal"][0]["hex"] == DZ
    ok(us.send(de, ["move-0003-US.json"]))
    ok(de.run("verify", de.dir))
    ok(us.run("verify", us.dir))


def test_15_36_a_hostile_reveal_is_refused_by_ingest_and_by_verify(
        pair: tuple[Player, Player], tmp_path: Path) -> None:
    us, de = pair
    ok(us.submit({"kind": "setup", "side": "US", "placements": {},
                  "dz_notes": [{"division": "101", "hex": DZ, "turn": 1}]}))
    ok(us.send(de, ["move-0001-US.json"]))
    ok(de.submit({"kind": "setup", "side": "DE", "placements": {"g": "0202"}}))
    ok(de.send(us, ["move-0002-DE.json"]))
    ok(us.submit({"kind": "setup", "side": "US", "placements": {}}))
    honest = move_body(us.dir / "move-0003-US.json")
    # A modified client moves its drop zone after seeing the German set-up, keeping the salt.
    lie = json.loads(json.dumps(honest))
    lie["orders"]["dz_reveal"][0]["hex"] = "1011"
    forged = tmp_path / "forged.json"
    forged.write_bytes(sign_move(us, lie))
    refused(de.ingest(forged), "15.36")
    # ... and an archive that holds it fails verification, naming the case
    copy = tmp_path / "copy"
    shutil.copytree(us.dir, copy)
    (copy / "move-0003-US.json").write_bytes(forged.read_bytes())
    res = de.run("verify", copy)
    assert res.code != 0 and "15.36" in (res.err + res.out)


def test_15_37_notes_outside_the_limits_are_refused_before_sealing_with_a_hint() -> None:
    """A note that breaks 15.37 could never be revealed; it is refused while it can still be
    changed, naming the case and the nearest hex that would do."""
    sc = _scenario()
    st0 = R.initial_state(sc, {})
    near_city = SetupOrders(side="US", placements={},
                            dz_notes=[DropZoneNote(division="101", hex="0304")])
    with pytest.raises(InputError, match=r"City hex 0303 .*\[15\.37\]; the nearest hex allowed is"):
        R.conceal(sc, st0, "US", near_city, SECRET)
    with pytest.raises(InputError, match=r"no airborne division 'Pol'"):
        R.conceal(sc, st0, "US", SetupOrders(side="US", placements={}, dz_notes=[
            DropZoneNote(division="Pol", hex="1010")]), SECRET)
    label = R.pending(sc, st0)[0].label
    assert "secret drop-zone notes" in label and "[15.36]" in label
    # [27] every note's problem at once, not the first only
    with pytest.raises(InputError) as both:
        R.conceal(sc, st0, "US", SetupOrders(side="US", placements={}, dz_notes=[
            DropZoneNote(division="Pol", hex="1010"), DropZoneNote(division="101", hex="0304")]), SECRET)
    said = str(both.value)
    assert said.startswith("2 problems with the drop-zone notes:") and "no airborne division 'Pol'" in said \
        and "City hex 0303" in said
