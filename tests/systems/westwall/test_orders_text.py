"""Text orders ('move 1/501 to 1418') become the same JSON orders document that is signed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.protocol import pbem as run_pbem

from pbem.engine.scenarios import load_data
from pbem.errors import InputError
from pbem.systems.westwall.model import Scenario
from pbem.systems.westwall.orders_text import parse_text_orders


@pytest.fixture(scope="module")
def spearhead() -> Scenario:
    return Scenario.parse(load_data("bastogne-spearhead"))


def turn_skeleton(side: str = "DE") -> dict:
    return {"kind": "player-turn", "side": side, "game_turn": 1, "moves": [], "attacks": [],
            "standing": {"fpf": [{"artillery": "73", "protect": ["*"]}], "fpf_support": 0,
                         "retreat": {}, "avoid_displacing": []}}


def test_moves_attacks_and_standing_orders(spearhead: Scenario) -> None:
    text = """
    # German player-turn 1
    enter 1/3 via 2913 2812 to 2712
    move 2/3 to 2812            # cheapest path, expanded before signing
    exit 1/902 via 0214 0114
    attack 20 52 with 1/3 2/3 barrage 2-art support 2 advance 1/3 2 follow 52 2/3
    fpf 2-art protects 1/3
    fpf 2-hvy holds
    retreat 1/3 toward 2913 2912
    keep 2/3
    pursue 1/3 2
    """
    o = parse_text_orders(spearhead, turn_skeleton(), "DE", text)
    assert parse_text_orders(spearhead, turn_skeleton(), "DE", "enter 1/3 at 2913 to 2712")["moves"] == [
        {"unit": "1/3", "path": ["2913"], "to": "2712"}]
    assert o["moves"] == [
        {"unit": "1/3", "path": ["2913", "2812", "2712"]},
        {"unit": "2/3", "to": "2812"},
        {"unit": "1/902", "path": ["0214", "0114"], "exit": True},
    ]
    assert o["attacks"] == [{
        "defenders": ["20", "52"], "attackers": ["1/3", "2/3"], "artillery": ["2-art"],
        "support": 2,
        "advance": [{"unit": "1/3", "hexes": 2, "follow": "52"}, {"unit": "2/3", "hexes": 1}],
    }]
    assert o["standing"] == {
        "fpf": [{"artillery": "2-art", "protect": ["1/3"]}, {"artillery": "2-hvy", "protect": []}],
        "fpf_support": 0, "retreat": {"1/3": ["2913", "2912"]}, "avoid_displacing": ["2/3"],
        "pursue": [{"unit": "1/3", "hexes": 2}],
    }
    assert (o["kind"], o["side"], o["game_turn"]) == ("player-turn", "DE", 1)


def test_previous_standing_orders_are_kept_unless_rewritten(spearhead: Scenario) -> None:
    o = parse_text_orders(spearhead, turn_skeleton("US"), "US", "move 20 to 1317\n")
    assert o["standing"]["fpf"] == [{"artillery": "73", "protect": ["*"]}]


@pytest.mark.parametrize(("text", "fragment"), [
    ("move 1/3 to 2712 to 2711", "line 1: more than one 'to'"),
    ("march 1/3 to 2712", "line 1: unknown order 'march'"),
    ("\n\nmove 20 to 1317", "line 3: 20 is a US unit, not a DE one"),
    ("move Lehr to 1317", "line 1: 'Lehr' names several units"),
    ("move Patton to 1317", "line 1: no DE unit called 'Patton'"),
    ("attack 1/3 with 2/3", "line 1: 1/3 is a DE unit, not a US one"),
    ("move 1/3 to 27x2", "line 1: '27x2' is not a hex number"),
    ("enter 1/3 to 2712", "needs its entry hex"),
    ("place 1/3 at 2712", "'place' is for the set-up"),
    ("attack with 1/3", "write 'attack DEFENDER"),
])
def test_bad_text_names_the_line(spearhead: Scenario, text: str, fragment: str) -> None:
    with pytest.raises(InputError, match=fragment.replace("(", r"\(")):
        parse_text_orders(spearhead, turn_skeleton(), "DE", text)



@pytest.mark.parametrize(("scenario", "side", "line", "case", "fill"), [
    ("bastogne-spearhead", "DE", "enter 1/3", "[11.11]", {"ENTRY-HEX": "2913", "HEX": "2712"}),
    ("arnhem-historical", "AL", "enter 2IG", "[15.11]", {"ENTRY-HEX": "0105", "HEX": "0306"}),
    ("arnhem-historical", "AL", "land 1/502", "[15.31]", {"HEX": "1004"}),
])
def test_an_order_without_its_hexes_says_what_to_write(scenario: str, side: str, line: str, case: str,
                                                        fill: dict[str, str]) -> None:
    """'enter UNIT' or 'land UNIT' alone: the line it suggests, with its hexes filled in,
    is read (it suggested 'enter UNIT to HEX', which is refused for want of the entry hex, and
    'land' came back as 'enter'), and it cites the case of the entry or the landing."""
    sc = Scenario.parse(load_data(scenario))
    skeleton = {**turn_skeleton(side), "standing": {}}
    with pytest.raises(InputError) as err:
        parse_text_orders(sc, skeleton, side, line)
    message = str(err.value)
    assert message.startswith("line 1: ") and message.endswith(case), message
    suggested = message.split("write '", 1)[1].split("'", 1)[0]
    assert suggested.split()[:2] == line.split()
    for placeholder, hexes in fill.items():
        suggested = suggested.replace(placeholder, hexes)
    assert parse_text_orders(sc, skeleton, side, suggested)["moves"], suggested


def pbem(home: Path, *args: str | Path) -> tuple[int, str]:
    r = run_pbem(*args, home=home)
    return r.code, r.err


def test_submit_accepts_text_orders_and_cites_rules(tmp_path: Path) -> None:
    home, g = tmp_path / "home", tmp_path / "g"
    for name in ("alice", "bob"):
        assert pbem(home, "key", "new", name, "--no-passphrase")[0] == 0
    assert pbem(home, "new", "bastogne-spearhead", g, "--player", "DE=alice", "--player", "US=bob")[0] == 0
    (tmp_path / "setup.txt").write_text("place 20 at 1317\nplace 3 at 1416\n")
    # a set-up that places two of nine units is refused, naming the seven others [15.12] ...
    code, err = pbem(home, "submit", "--yes", g, tmp_path / "setup.txt", "--key", "bob")
    assert code == 2 and "7 problems" in err and "420 must be set up [15.12]" in err
    assert not (g / "move-0001-US.json").exists()
    # ... unless the player asks for the skeleton's places for the rest
    code, err = pbem(home, "submit", "--yes", "--defaults", g, tmp_path / "setup.txt", "--key", "bob")
    assert code == 0, err
    placed = json.loads((g / "turn-0001.json").read_bytes())["state"]["units"]
    assert placed["20"]["hex"] == "1317" and placed["3"]["hex"] == "1416"

    # An illegal text order is refused with its rule case and nothing is written.
    before = sorted(p.name for p in g.iterdir())
    (tmp_path / "bad.txt").write_text("enter 1/3 via 2912 2812\n")  # 2912 is not its entry hex
    code, err = pbem(home, "submit", "--yes", g, tmp_path / "bad.txt", "--key", "alice")
    assert code == 2 and "[11.11]" in err
    assert sorted(p.name for p in g.iterdir()) == before

    # 'enter UNIT at HEX to HEX': the entry hex and the destination; pbem finds the path [11.11]
    (tmp_path / "at.txt").write_text("enter 1/3 at 2913 to 2712\nenter 2/3 at 2913 to 2813\n")
    shown = run_pbem("check", g, tmp_path / "at.txt", "--key", "alice", home=home)
    assert shown.code == 0, shown.err
    assert "1/3 enters at 2913 [11.11], then moves to 2712 via " in shown.out  # the cheapest way on
    assert "2/3 enters at 2913 [11.11], then moves to 2813" in shown.out
    (tmp_path / "far.txt").write_text("enter 1/3 at 2912 to 2712\n")  # not an entry hex of 1/3
    code, err = pbem(home, "check", g, tmp_path / "far.txt", "--key", "alice")
    assert code == 2 and "no legal path from 2912 to 2712" in err and "[11.11]" in err

    (tmp_path / "de1.txt").write_text("enter 1/3 via 2913 2812 2712\nenter 2/3 via 2913 2813\n")
    code, err = pbem(home, "submit", "--yes", g, tmp_path / "de1.txt", "--key", "alice")
    assert code == 0, err
    body = json.loads(_payload(g / "move-0002-DE.json"))
    assert body["orders"]["moves"][0] == {"unit": "1/3", "path": ["2913", "2812", "2712"],
                                          "exit": False}


def _payload(path: Path) -> str:
    import base64

    env = json.loads(path.read_bytes())
    return base64.b64decode(env["payload"]).decode()
