"""SPI Arnhem exclusive rules on tiny hand-made maps, one test per case (cases 11.x-16.x).

The victory rules [17.x] are tested in tests/systems/westwall/test_spi_arnhem_victory.py.

Map used by the bridge tests (columns run across, rows down; the map's compass does not matter)::

    road 0301-0302-0303 | canal bridge 0303/0304 | road 0304-0305
    road 0601-0602-0603 | river (highway) bridge 0603/0604 | road 0604-0605

An Allied ("US") unit moving down the road enters 0303, which the canal bridge borders: the
German ("DE") player's policy decides at that instant, and the die is rolled [12.11].
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers.westwall import artillery, state_with, tiny_scenario, unit

from pbem.errors import InputError
from pbem.protocol.dice import FixedDice
from pbem.systems.westwall.arnhem import Arnhem, surrounded
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.model import (
    AttackOrder,
    MoveOrder,
    PlayerTurnOrders,
    RollEvent,
    StandingOrders,
)
from pbem.systems.westwall.rules import WestWallRules

R = WestWallRules()


def _bridges(**kw: Any) -> Any:
    base: dict[str, Any] = dict(
        game="arnhem",
        first_player="US",
        routes=[("road", ["0301", "0302", "0303", "0304", "0305"]),
                ("road", ["0601", "0602", "0603", "0604", "0605"])],
        lines=[("canal", ["0303/0304", "0203/0204", "0403/0404"]),
               ("river", ["0603/0604", "0503/0504", "0703/0704"]),
               ("rail-bridge", ["0203/0204"])],
    )
    base.update(kw)
    return tiny_scenario(**base)


def _turn(side: str, moves: list[MoveOrder], attacks: list[AttackOrder] | None = None,
          game_turn: int = 1) -> PlayerTurnOrders:
    return PlayerTurnOrders(side=side, game_turn=game_turn, moves=moves, attacks=attacks or [])


def _resolve(sc: Any, st: Any, orders: PlayerTurnOrders, faces: list[int]) -> Any:
    assert R.validate(sc, st, orders.side, orders) == []
    dice = FixedDice(faces)
    res = R.resolve(sc, st, orders.side, orders, dice)
    assert dice.remaining == 0, "every die given must have been rolled"
    return res, R.load_state(sc, res.state)


def _rolls(res: Any) -> list[dict[str, Any]]:
    return [e for e in res.events if e["type"] == "roll"]


# -- [12.0] canal and rail bridge demolition ----------------------------------------------------------

def test_12_11_12_13_demolition_mid_move_stops_the_armour_at_the_canal() -> None:
    """A die of 2 as the tank enters 0303 demolishes the canal bridge at once [12.12, 12.13]: the
    canal cannot be crossed by armour except on a bridge [5.24], so it stops in 0303."""
    sc = _bridges(units=[unit("tk", "US", "armor", 6, 4, 12), unit("g", "DE")])
    st = state_with(sc, {"tk": "0301", "g": "0808"}, phasing="US")
    res, new = _resolve(sc, st, _turn("US", [MoveOrder(unit="tk", path=["0302", "0303", "0304",
                                                                          "0305"])]), [2])
    assert new.units["tk"].hex == "0303"
    rolls = _rolls(res)
    assert [(r["subject"], r["die"], r["outcome"]) for r in rolls] == [
        ("bridge 0303/0304", 2, "demolished")]
    assert new.exclusive["destroyed_bridges"] == ["0303/0304"]
    assert new.exclusive["bridges"] == {"0303/0304": "demolished"}
    board = Board.from_state(sc, new)
    assert board.crossing(board.unit_hex("tk"), board.unit_hex("tk").__class__.parse("0304")).water
    assert any("stops in 0303" in e.get("text", "") for e in res.events)


def test_12_14_failed_demolition_leaves_the_bridge_intact_for_good() -> None:
    """A die of 3 fails: the bridge stays and may never be tried again [12.14]: a second Allied unit
    crossing later rolls nothing (FixedDice would run out if it did)."""
    sc = _bridges(units=[unit("tk", "US", "armor", 6, 4, 12), unit("tk2", "US", "armor", 6, 4, 12),
                         unit("g", "DE")])
    st = state_with(sc, {"tk": "0301", "tk2": "0101", "g": "0808"}, phasing="US")
    res, new = _resolve(sc, st, _turn("US", [MoveOrder(unit="tk", path=["0302", "0303", "0304",
                                                                          "0305"])]), [3])
    assert new.units["tk"].hex == "0305"
    assert [(r["die"], r["outcome"]) for r in _rolls(res)] == [(3, "intact")]
    assert new.exclusive["bridges"] == {"0303/0304": "intact"}
    later = new.replace(**{"phasing": "US", "game_turn": 2})
    res2, new2 = _resolve(sc, later, _turn("US", [MoveOrder(unit="tk2", path=[
        "0201", "0302", "0303", "0304"])], game_turn=2), [])
    assert new2.units["tk2"].hex == "0304"
    assert _rolls(res2) == []


def test_12_12_the_german_policy_may_spare_a_bridge() -> None:
    """Demolition is the German player's option [12.12]: a bridge in his standing ``spare_bridges``
    is not tried; no die is rolled and the bridge is safe from then on."""
    sc = _bridges(units=[unit("tk", "US", "armor", 6, 4, 12), unit("g", "DE")])
    spare = {"DE": StandingOrders(spare_bridges=["0303/0304"])}
    st = state_with(sc, {"tk": "0301", "g": "0808"}, phasing="US", standing=spare)
    res, new = _resolve(sc, st, _turn("US", [MoveOrder(unit="tk", path=["0302", "0303", "0304"])]),
                        [])
    assert new.units["tk"].hex == "0304"
    assert [(r["die"], r["outcome"]) for r in _rolls(res)] == [(None, "spared")]


def test_12_12_a_signed_spare_order_is_checked_as_the_text_one_is_from_rules_version_4() -> None:
    """[12.12, 12.15] westwall/4: orders signed as JSON get the checks the text reader makes: only
    the German player spares, only a canal or rail bridge printed on the map, written as its
    hexside (lower hex first, the key the demolition looks up). Under westwall/3 such orders were
    accepted and did nothing (a bridge never matched is still tried), and still are."""
    sc = _bridges(units=[unit("tk", "US", "armor"), unit("g", "DE")])

    def spare(side: str, *bridges: str) -> PlayerTurnOrders:
        return PlayerTurnOrders(side=side, game_turn=1, moves=[], attacks=[],
                                standing=StandingOrders(spare_bridges=list(bridges)))

    german = state_with(sc, {"tk": "0101", "g": "0808"}, phasing="DE")
    assert R.validate(sc, german, "DE", spare("DE", "0203/0204")) == []
    refused = {
        "0603/0604": "0603/0604 is not a canal or rail bridge on the map: only those are demolished or spared",
        "0204/0203": "write the bridge 0204/0203 as 0203/0204",
        "0203-0204": "'0203-0204' is not a hexside: write 'XXYY/XXYY'",
    }
    for bridge, said in refused.items():
        assert [(v.rule, v.message) for v in R.validate(sc, german, "DE", spare("DE", bridge))] == [("12.12", said)]
        assert R.at_version("3").validate(sc, german, "DE", spare("DE", bridge)) == []
    allied = state_with(sc, {"tk": "0101", "g": "0808"}, phasing="US")
    assert [v.message for v in R.validate(sc, allied, "US", spare("US", "0203/0204"))] == [
        "only the German player spares bridges: demolishing them is the German player's decision"]
    bastogne = _bridges(game="bastogne", units=[unit("tk", "US", "armor"), unit("g", "DE")])
    st = state_with(bastogne, {"tk": "0101", "g": "0808"}, phasing="DE")
    assert [v.message for v in R.validate(bastogne, st, "DE", spare("DE", "0203/0204"))] == [
        "sparing a bridge is an order of the Arnhem rules; this game plays bastogne"]


def test_12_13_if_demolished_orders_the_continuation_in_advance() -> None:
    """The move carries its continuation as a condition written before the die: when the bridge goes,
    the tank turns along the bank to 0302 -> 0202 instead."""
    sc = _bridges(units=[unit("tk", "US", "armor", 6, 4, 12), unit("g", "DE")])
    st = state_with(sc, {"tk": "0301", "g": "0808"}, phasing="US")
    order = MoveOrder(unit="tk", path=["0302", "0303", "0304"], if_demolished=["0302", "0202"])
    res, new = _resolve(sc, st, _turn("US", [order]), [1])
    assert new.units["tk"].hex == "0202"
    moved = [e for e in res.events if e["type"] == "moved"]
    assert moved[0]["path"] == ["0301", "0302", "0303", "0302", "0202"]


def test_12_13_infantry_goes_on_across_the_canal_if_it_can_pay() -> None:
    """Judged against the result: the bridge is gone but infantry may cross a canal at +2 MP; with
    enough MP left it completes its path (road rate lost on the far side)."""
    sc = _bridges(units=[unit("inf", "US", "infantry", 2, 4, 7), unit("g", "DE")])
    st = state_with(sc, {"inf": "0301", "g": "0808"}, phasing="US")
    res, new = _resolve(sc, st, _turn("US", [MoveOrder(unit="inf", path=["0302", "0303", "0304"])]),
                        [1])
    assert new.units["inf"].hex == "0304"
    moved = [e for e in res.events if e["type"] == "moved"]
    assert moved[0]["mp_halves"] == 1 + 1 + 2 + 4  # road, road, clear + canal [5.21]


def test_12_15_highway_bridges_over_rivers_are_never_wired() -> None:
    sc = _bridges(units=[unit("tk", "US", "armor", 6, 4, 12), unit("g", "DE")])
    st = state_with(sc, {"tk": "0601", "g": "0808"}, phasing="US")
    res, new = _resolve(sc, st, _turn("US", [MoveOrder(unit="tk", path=["0602", "0603", "0604"])]),
                        [])
    assert new.units["tk"].hex == "0604"
    assert _rolls(res) == []


def test_12_15_rail_bridges_are_wired_too() -> None:
    """Entering 0203 (the rail bridge 0203/0204 borders it) rolls for the rail bridge."""
    sc = _bridges(units=[unit("inf", "US", "infantry", 2, 4, 7), unit("g", "DE")])
    st = state_with(sc, {"inf": "0202", "g": "0808"}, phasing="US")
    res, new = _resolve(sc, st, _turn("US", [MoveOrder(unit="inf", path=["0203"])]), [5])
    assert [(r["subject"], r["outcome"]) for r in _rolls(res)] == [("bridge 0203/0204", "intact")]


def test_12_11_german_units_never_trigger_demolition() -> None:
    sc = _bridges(units=[unit("tk", "DE", "armor", 6, 4, 12), unit("u", "US")], first_player="DE")
    st = state_with(sc, {"tk": "0301", "u": "0808"}, phasing="DE")
    res, new = _resolve(sc, st, _turn("DE", [MoveOrder(unit="tk", path=["0302", "0303", "0304"])]),
                        [])
    assert new.units["tk"].hex == "0304" and _rolls(res) == []


# -- [11.0] City hexes ------------------------------------------------------------------------------

def _city(**kw: Any) -> Any:
    return tiny_scenario(game="arnhem", first_player="DE", terrain={"city": ["0404"]}, **kw)


@pytest.mark.parametrize(("result", "hexes", "expected"), [
    ("D1", 1, 0), ("D2", 2, 0), ("Br", 1, 0), ("D3", 3, 1), ("D4", 4, 2), ("A1", 1, 0), ("A2", 2, 0),
])
def test_11_1_city_reduces_every_retreat_by_two(result: str, hexes: int, expected: int) -> None:
    sc = _city(units=[unit("d", "US", "infantry"), unit("a", "DE")])
    board = Board.from_state(sc, state_with(sc, {"d": "0404", "a": "0403"}))
    assert Arnhem().retreat_hexes(sc, board, "d", hexes, result) == expected


def test_11_1_no_reduction_outside_a_city_nor_for_airborne_artillery() -> None:
    sc = _city(units=[unit("d", "US"), artillery("art", "US", 2, 1, 4, 1, 7, type="airborne-artillery"),
                      unit("a", "DE")])
    board = Board.from_state(sc, state_with(sc, {"d": "0505", "art": "0404", "a": "0403"}))
    assert Arnhem().retreat_hexes(sc, board, "d", 2, "D2") == 2
    assert Arnhem().retreat_hexes(sc, board, "art", 2, "D2") == 2


def test_11_2_surrounded_only_airborne_and_glider_keep_the_benefit() -> None:
    from pbem.maps.hexmap import Hex

    ring = [str(n) for n in Hex.parse("0404").neighbours()]
    units = [unit("inf", "US"), unit("para", "US", "airborne"), unit("gl", "US", "glider")]
    units += [unit(f"g{i}", "DE") for i in range(6)]
    sc = _city(units=units)
    board = Board.from_state(sc, state_with(sc, {"inf": "0404", **{f"g{i}": h for i, h in
                                                                      enumerate(ring)}}))
    assert len(ring) == 6
    assert surrounded(board, "inf")
    assert Arnhem().retreat_hexes(sc, board, "inf", 2, "D2") == 2
    for uid in ("para", "gl"):
        st = state_with(sc, {uid: "0404", **{f"g{i}": h for i, h in enumerate(ring)}})
        b = Board.from_state(sc, st)
        assert Arnhem().retreat_hexes(sc, b, uid, 2, "D2") == 0


def test_11_1_city_retreat_reduction_in_a_resolved_combat() -> None:
    """D2 against a unit in a City hex: it holds its ground [11.1]; the note says why."""
    from pbem.systems.westwall import crt

    sc = _city(units=[unit("a", "DE", "infantry", 9, 4, 7), unit("d", "US", "infantry", 1, 2, 7)])
    st = state_with(sc, {"a": "0403", "d": "0404"}, phasing="DE")
    orders = _turn("DE", [], [AttackOrder(attackers=["a"], defenders=["d"])])
    assert R.validate(sc, st, "DE", orders) == []
    line = sc.terrain_key.hexes["city"].crt
    table = Board.from_state(sc, st).geo.crt
    die = next(f for f in range(1, 7) if crt.lookup(line, 7, f, table) in ("D1", "D2", "Br"))
    res = R.resolve(sc, st, "DE", orders, FixedDice([die]))
    combat = [e for e in res.events if e["type"] == "combat"][0]
    new = R.load_state(sc, res.state)
    if combat["result"] in ("D1", "D2", "Br"):
        assert new.units["d"].hex == "0404"
        assert any(e.get("rule") == "11.1" for e in res.events)
    else:  # the reconstructed CRT gave a result the city cannot cancel: say which, and fail loudly
        pytest.fail(f"expected a D1/D2/Br for this test, the CRT gave {combat['result']}")


# -- [14.1] artillery and ground support --------------------------------------------------------------

def test_14_12_at_most_two_artillery_units_in_a_combat() -> None:
    sc = tiny_scenario(game="arnhem", first_player="DE",
                       units=[unit("a", "DE"), artillery("x", "DE"), artillery("y", "DE"),
                              artillery("z", "DE"), unit("d", "US")])
    st = state_with(sc, {"a": "0403", "x": "0401", "y": "0301", "z": "0201", "d": "0404"})
    three = _turn("DE", [], [AttackOrder(attackers=["a"], artillery=["x", "y", "z"], defenders=["d"])])
    assert [v.rule for v in R.validate(sc, st, "DE", three)] == ["14.12"]
    two = _turn("DE", [], [AttackOrder(attackers=["a"], artillery=["x", "y"], defenders=["d"])])
    assert R.validate(sc, st, "DE", two) == []


def test_14_12_an_attack_naming_a_unit_the_game_does_not_have_is_refused_in_one_line() -> None:
    """A hostile (or mistyped) attack naming a hex as an attacker: the artillery count [14.12] used to
    look the id up in the scenario first and crash with a KeyError; the standard check names it."""
    sc = tiny_scenario(game="arnhem", first_player="DE",
                       units=[unit("a", "DE"), artillery("x", "DE"), unit("d", "US")])
    st = state_with(sc, {"a": "0403", "x": "0401", "d": "0404"})
    ghost = _turn("DE", [], [AttackOrder(attackers=["a", "0403"], artillery=["x"], defenders=["d"])])
    with pytest.raises(InputError, match="unknown unit.*0403"):
        R.validate(sc, st, "DE", ghost)


def test_14_11_support_only_within_three_hexes_of_a_ground_unit() -> None:
    sc = tiny_scenario(game="arnhem", first_player="US", cols=(1, 12),
                       ground_support=[{"side": "US", "from_turn": 1, "points": 4, "rule": "0.0"}],
                       units=[unit("para", "US", "airborne", 4, 4, 7), unit("xxx", "US", "armor"),
                              unit("d", "DE")])
    from pbem.maps.hexmap import Hex

    assert Hex.parse("0704").distance(Hex.parse("0404")) == 3
    assert Hex.parse("0804").distance(Hex.parse("0404")) == 4
    near = state_with(sc, {"para": "0403", "xxx": "0704", "d": "0404"}, phasing="US")
    far = state_with(sc, {"para": "0403", "xxx": "0804", "d": "0404"}, phasing="US")
    o = _turn("US", [], [AttackOrder(attackers=["para"], support=2, defenders=["d"])])
    assert R.validate(sc, near, "US", o) == []
    assert [v.rule for v in R.validate(sc, far, "US", o)] == ["14.11"]


# -- [15.3] airborne reinforcements ---------------------------------------------------------------

def _drops(**kw: Any) -> Any:
    return tiny_scenario(
        game="arnhem", first_player="US", cols=(1, 10), rows=(1, 10),
        units=[unit("p1", "US", "airborne", 2, 2, 7, formation="101"),
               unit("p2", "US", "airborne", 2, 2, 7, formation="101"), unit("g", "DE")],
        reinforcements=[{"side": "US", "turn": 1, "units": ["p1", "p2"], "rule": "18.13",
                         "airborne": True, "entry": [{"within": 1, "of": ["0505"]}]}],
        **kw)


def test_15_31_15_32_land_within_one_hex_then_three_mp() -> None:
    sc = _drops()
    st = state_with(sc, {"g": "1010"}, phasing="US")
    ok = _turn("US", [MoveOrder(unit="p1", path=["0505", "0506", "0507", "0508"]),
                      MoveOrder(unit="p2", path=["0405"])])
    assert R.validate(sc, st, "US", ok) == []
    too_far = _turn("US", [MoveOrder(unit="p1", path=["0505", "0506", "0507", "0508", "0509"]),
                           MoveOrder(unit="p2", path=["0405"])])
    assert [v.rule for v in R.validate(sc, st, "US", too_far)] == ["5.25"]
    outside = _turn("US", [MoveOrder(unit="p1", path=["0707"]), MoveOrder(unit="p2", path=["0405"])])
    # 0707 is not within one hex of 0505: the schedule's case [18.13] (never Bastogne's 11.11)
    assert [v.rule for v in R.validate(sc, st, "US", outside)] == ["18.13"]


def test_15_33_never_in_an_occupied_hex_one_unit_a_hex() -> None:
    sc = _drops()
    st = state_with(sc, {"g": "1010"}, phasing="US")
    o = _turn("US", [MoveOrder(unit="p1", path=["0505"]), MoveOrder(unit="p2", path=["0505"])])
    assert [v.rule for v in R.validate(sc, st, "US", o)] == ["15.33"]
    enemy = state_with(sc, {"g": "0505"}, phasing="US")
    o = _turn("US", [MoveOrder(unit="p1", path=["0505"]), MoveOrder(unit="p2", path=["0406"])])
    assert "15.21" in [v.rule for v in R.validate(sc, enemy, "US", o)]  # [15.21, 15.31]


def test_15_34_without_weather_airborne_units_may_not_be_held_back() -> None:
    sc = _drops()
    st = state_with(sc, {"g": "1010"}, phasing="US")
    o = _turn("US", [MoveOrder(unit="p1", path=["0505"])])
    assert [v.rule for v in R.validate(sc, st, "US", o)] == ["15.34"]


def test_16_12_with_weather_the_weather_caps_the_drops() -> None:
    sc = _drops(special={"weather": True, "drop_zones": {"101": "0505"},
                         "airborne_per_weather": {"good": 25, "fair": 1, "poor": 0}})
    st = state_with(sc, {"g": "1010"}, phasing="US", exclusive={"weather": "fair",
                                                               "dz": {"101": "0505"}})
    both = _turn("US", [MoveOrder(unit="p1", path=["0505"]), MoveOrder(unit="p2", path=["0405"])])
    assert [v.rule for v in R.validate(sc, st, "US", both)] == ["16.12"]
    one = _turn("US", [MoveOrder(unit="p1", path=["0808"])])  # within 7 of the DZ [16.11]
    assert R.validate(sc, st, "US", one) == []


# -- [15.4] German exits and re-entry --------------------------------------------------------------

def test_15_41_germans_exit_only_on_their_stretches() -> None:
    sc = tiny_scenario(game="arnhem", first_player="DE", cols=(1, 10), rows=(1, 10),
                       exits=[{"side": "DE", "edges": ["west", "east"], "rule": "15.41"}],
                       special={"exit_west": ["0101", "0501"], "exit_east": ["0110", "0510"]},
                       units=[unit("g", "DE"), unit("h", "DE"), unit("u", "US")])
    sc_map_north = sc.map.replace()  # the tiny map's compass: west = column 01 by default
    assert sc_map_north.cols == (1, 10)
    st = state_with(sc, {"g": "0102", "h": "0108", "u": "0505"}, phasing="DE")
    bad = _turn("DE", [MoveOrder(unit="h", path=["0108"], exit=True)])
    rules = [v.rule for v in R.validate(sc, st, "DE", bad)]
    assert "15.41" in rules


def test_15_42_exited_units_come_back_on_their_side_later() -> None:
    sc = tiny_scenario(game="arnhem", first_player="DE", cols=(1, 10), rows=(1, 10),
                       exits=[{"side": "DE", "edges": ["west", "east"], "rule": "15.41"}],
                       special={"exit_west": ["0101", "0110"], "exit_east": ["1001", "1010"],
                                "reenter_east": ["1001", "1003"]},
                       units=[unit("g", "DE"), unit("u", "US")])
    st = state_with(sc, {"u": "0909"}, phasing="DE", game_turn=2)
    st = st.replace(**{"units": {**st.units, "g": st.units["g"].replace(**{
        "status": "exited", "exit_edge": "west", "exit_turn": 1})}})
    back = _turn("DE", [MoveOrder(unit="g", path=["0105"])], game_turn=2)
    assert R.validate(sc, st, "DE", back) == []
    wrong = _turn("DE", [MoveOrder(unit="g", path=["1005"])], game_turn=2)
    assert [v.rule for v in R.validate(sc, st, "DE", wrong)] == ["15.42"]


# -- [16.0] weather -------------------------------------------------------------------------------

@pytest.mark.parametrize(("die", "weather"), [(1, "fair"), (2, "good"), (3, "fair"), (4, "fair"),
                                              (5, "poor"), (6, "poor")])
def test_16_0_weather_roll_at_the_end_of_the_german_player_turn(die: int, weather: str) -> None:
    sc = tiny_scenario(game="arnhem", first_player="US", special={"weather": True},
                       units=[unit("g", "DE"), unit("u", "US")])
    st = state_with(sc, {"g": "0101", "u": "0808"}, phasing="DE", exclusive={"weather": "fair"})
    res, new = _resolve(sc, st, _turn("DE", []), [die])
    assert new.exclusive["weather"] == weather
    assert [r["outcome"] for r in _rolls(res)] == [weather]
    assert new.phasing == "US" and new.game_turn == 2


def test_16_2_ground_support_by_weather() -> None:
    sc = tiny_scenario(game="arnhem", first_player="US", special={"weather": True},
                       units=[unit("g", "DE"), unit("u", "US")])
    from pbem.systems.westwall.attacks import ground_support_available

    for w, pts in (("good", 7), ("fair", 3), ("poor", 0)):
        st = state_with(sc, {"g": "0101", "u": "0808"}, phasing="US", exclusive={"weather": w})
        assert ground_support_available(sc, st, "US") == pts
        assert ground_support_available(sc, st, "DE") == 0


# -- [13.3] the engineer's replacement ------------------------------------------------------------

def test_13_3_an_eliminated_engineer_returns_at_the_southern_entry() -> None:
    sc = tiny_scenario(game="arnhem", first_player="US", special={"engineer": "Eng",
                                                                  "engineer_reentry": ["0101"]},
                       units=[unit("Eng", "US", "engineer", 1, 2, 7), unit("g", "DE")])
    st = state_with(sc, {"g": "0808"}, phasing="US", eliminated=["Eng"])
    assert R.validate(sc, st, "US", _turn("US", [MoveOrder(unit="Eng", path=["0101"])])) == []
    bad = R.validate(sc, st, "US", _turn("US", [MoveOrder(unit="Eng", path=["0102"])]))
    assert [v.rule for v in bad] == ["13.3"]


def test_rolls_are_narrated_with_their_case() -> None:
    ev = RollEvent(rule="12.13", subject="bridge 0303/0304", die=2, outcome="demolished", unit="tk",
                   hex="0303").to_json()
    sc = _bridges(units=[unit("tk", "US", "armor"), unit("g", "DE")])
    assert R.describe_event(sc, ev) == "bridge 0303/0304 (tk entering 0303): die 2: demolished [12.13]"


# -- [15.1], [15.2] ground reinforcements ------------------------------------------------------

def _column(**kw: Any) -> Any:
    return tiny_scenario(
        game="arnhem", first_player="US", cols=(1, 8), rows=(1, 8),
        routes=[("road", ["0101", "0102", "0103", "0104"], ["start"])],
        units=[unit("a", "US", "armor", 6, 4, 12), unit("b", "US", "armor", 6, 4, 12),
               unit("c", "US", "armor", 6, 4, 12), unit("g", "DE")],
        reinforcements=[{"side": "US", "turn": 1, "units": ["a", "b", "c"], "rule": "15.13",
                         "entry": [{"hexes": ["0101"]}]}], **kw)


def test_15_13_a_column_pays_for_the_road_behind_the_lead_unit() -> None:
    """The text's example: the lead unit pays 1/2 MP to enter by road, the second 1, the third 1 1/2."""
    sc = _column()
    st = state_with(sc, {"g": "0808"}, phasing="US")
    o = _turn("US", [MoveOrder(unit="a", path=["0101", "0102"]),
                     MoveOrder(unit="b", path=["0101", "0102", "0103"]),
                     MoveOrder(unit="c", path=["0101"])])
    res, _new = _resolve(sc, st, o, [])
    spent = {e["unit"]: e["mp_halves"] for e in res.events if e["type"] == "moved"}
    assert spent == {"a": 1 + 1, "b": 2 + 1 + 1, "c": 3}


def test_15_22_a_blocked_entry_hex_moves_the_entry_along_the_edge() -> None:
    """0101 holds a German unit: the column enters at the nearest unblocked edge hex, toward the
    nearest friendly unit (0201, next to the U.S. unit at 0302, rather than 0102)."""
    friend = tiny_scenario(
        game="arnhem", first_player="US", cols=(1, 8), rows=(1, 8),
        routes=[("road", ["0101", "0102", "0103", "0104"], ["start"])],
        units=[unit("a", "US", "armor", 6, 4, 12), unit("f", "US"), unit("g", "DE")],
        reinforcements=[{"side": "US", "turn": 1, "units": ["a"], "rule": "15.13",
                         "entry": [{"hexes": ["0101"]}]}])
    st2 = state_with(friend, {"g": "0101", "f": "0501"}, phasing="US")
    from pbem.systems.westwall.arnhem import _blocked_entry

    got = _blocked_entry(friend, st2, "a", 1)
    assert got is not None
    (alt,), rule = got
    assert rule == "15.22" and alt.hexes is not None
    h = alt.hexes[0]
    assert h != "0101"
    from pbem.maps.hexmap import Hex

    assert Hex.parse(h).distance(Hex.parse("0101")) == 1
    entering = _turn("US", [MoveOrder(unit="a", path=[h])],
                     [AttackOrder(attackers=["a"], defenders=["g"])])  # next to g: it must attack
    assert R.validate(friend, st2, "US", entering) == []
    # its scheduled hex itself: g holds it [15.21]
    assert [v.rule for v in R.validate(friend, st2, "US", _turn(
        "US", [MoveOrder(unit="a", path=["0101"])]))] == ["15.21"]


# -- [13.2] the engineer ---------------------------------------------------------------------------

def _engineer(**kw: Any) -> Any:
    base: dict[str, Any] = dict(
        game="arnhem", first_player="US", special={"engineer": "Eng"},
        lines=[("river", ["0303/0304"])],
        units=[unit("Eng", "US", "engineer", 1, 2, 7), unit("para", "US", "airborne", 2, 2, 7),
               artillery("pack", "US", 2, 1, 4, 1, 7, type="airborne-artillery"),
               unit("g", "DE")])
    base.update(kw)
    return tiny_scenario(**base)


def test_13_22_airborne_cross_the_river_through_the_engineer_for_the_hex_cost() -> None:
    """0302 -> 0303 (the engineer's hex, clear: 1 MP) -> 0304 across the river (clear: 1 MP, the
    river's 2 MP waived [13.22]) = 2 MP; without the engineer there it costs 4."""
    sc = _engineer()
    st = state_with(sc, {"Eng": "0303", "para": "0302", "g": "0808"}, phasing="US")
    res, new = _resolve(sc, st, _turn("US", [MoveOrder(unit="para", path=["0303", "0304"])]), [])
    assert [e["mp_halves"] for e in res.events if e["type"] == "moved"] == [4]
    away = state_with(sc, {"Eng": "0101", "para": "0302", "g": "0808"}, phasing="US")
    res, _new = _resolve(sc, away, _turn("US", [MoveOrder(unit="para", path=["0303", "0304"])]),
                         [])
    assert [e["mp_halves"] for e in res.events if e["type"] == "moved"] == [8]


def test_13_21_the_engineer_must_stay_put_and_13_23_not_for_airborne_artillery() -> None:
    sc = _engineer()
    st = state_with(sc, {"Eng": "0303", "para": "0302", "pack": "0202", "g": "0808"},
                    phasing="US")
    o = _turn("US", [MoveOrder(unit="Eng", path=["0203"]),
                     MoveOrder(unit="para", path=["0303", "0304"])])
    res, _new = _resolve(sc, st, o, [])
    assert [e["mp_halves"] for e in res.events if e["type"] == "moved"][1] == 8  # it moved: no help
    st2 = state_with(sc, {"Eng": "0303", "pack": "0302", "g": "0808"}, phasing="US")
    res, _new = _resolve(sc, st2, _turn("US", [MoveOrder(unit="pack", path=["0303", "0304"])]), [])
    assert [e["mp_halves"] for e in res.events if e["type"] == "moved"] == [8]


def test_13_25_allied_units_never_retreat_across_a_river_nor_out_of_the_engineer_hex() -> None:
    from pbem.maps.hexmap import Hex
    from pbem.systems.westwall.retreat import retreat

    sc = _engineer()
    ex = Arnhem()
    board = Board.from_state(sc, state_with(sc, {"Eng": "0303", "para": "0304", "g": "0808"}))
    assert ex.retreat_crossing(sc, board, "para", Hex.parse("0304"), Hex.parse("0303")) == "13.25"
    board = Board.from_state(sc, state_with(sc, {"Eng": "0505", "para": "0505", "g": "0808"}))
    assert ex.retreat_crossing(sc, board, "para", Hex.parse("0505"), Hex.parse("0506")) == "13.25"
    assert ex.retreat_crossing(sc, board, "Eng", Hex.parse("0505"), Hex.parse("0506")) is None
    # a unit whose every way back crosses the river is eliminated instead [13.25]
    ring = [str(n) for n in Hex.parse("0404").neighbours()]
    sc2 = _engineer(lines=[("river", [f"0404/{n}" for n in ring])],
                    units=[unit("Eng", "US", "engineer"), unit("u", "US"), unit("g", "DE")])
    b2 = Board.from_state(sc2, state_with(sc2, {"u": "0404", "g": "0808", "Eng": "0101"}))
    r = retreat(b2, ex, "u", 1, combat=1)
    assert r.eliminated == "13.25"
    assert ex.may_advance(sc2, b2, "g", Hex.parse("0404"), Hex.parse(ring[0])) is False


def test_14_12_at_most_two_artillery_units_give_final_protective_fire() -> None:
    """Three German guns could protect the attacked unit; only two fire [14.12] (by unit id, the
    default order of FPF)."""
    sc = tiny_scenario(game="arnhem", first_player="US",
                       units=[unit("a", "US", "infantry", 9, 4, 7), unit("d", "DE"),
                              artillery("x", "DE"), artillery("y", "DE"), artillery("z", "DE")])
    st = state_with(sc, {"a": "0403", "d": "0404", "x": "0707", "y": "0708", "z": "0808"},
                    phasing="US")
    orders = _turn("US", [], [AttackOrder(attackers=["a"], defenders=["d"])])
    res, _new = _resolve(sc, st, orders, [4])
    combat = [e for e in res.events if e["type"] == "combat"][0]
    assert combat["fpf"] == ["x", "y"]


def test_12_11_an_advance_after_combat_next_to_a_bridge_is_tried_too() -> None:
    """The roll happens whatever the phase [12.11]: the attacker advancing into 0303 (which the canal
    bridge 0303/0304 borders) after the German retreats triggers it."""
    from pbem.systems.westwall import crt
    from pbem.systems.westwall.model import AdvanceOrder

    sc = _bridges(units=[unit("a", "US", "infantry", 9, 4, 7), unit("d", "DE", "infantry", 1, 1, 7)])
    st = state_with(sc, {"a": "0302", "d": "0303"}, phasing="US")
    board = Board.from_state(sc, st)
    line = "clear"
    die = next(f for f in range(1, 7)
               if crt.lookup(line, 8, f, board.geo.crt) in ("D1", "D2", "D3", "D4"))
    orders = _turn("US", [], [AttackOrder(attackers=["a"], defenders=["d"],
                                          advance=[AdvanceOrder(unit="a")])])
    res, new = _resolve(sc, st, orders, [die, 6])
    assert new.units["a"].hex == "0303"
    assert [(r["subject"], r["die"], r["outcome"]) for r in _rolls(res)] == [
        ("bridge 0303/0304", 6, "intact")]
    assert new.exclusive["bridges"] == {"0303/0304": "intact"}


def _assault(attack: int = 9, defense: int = 1) -> tuple[Any, Any]:
    sc = _engineer(units=[unit("Eng", "US", "engineer", 1, 2, 7),
                          unit("para", "US", "airborne", attack, 2, 7),
                          unit("d", "DE", "infantry", 1, defense, 7)])
    st = state_with(sc, {"Eng": "0303", "para": "0302", "d": "0304"}, phasing="US")
    return sc, st


def test_13_24_the_unit_stacked_with_the_engineer_must_attack_across_the_river() -> None:
    sc, st = _assault()
    stay = _turn("US", [MoveOrder(unit="para", path=["0303"])])
    assert [v.rule for v in R.validate(sc, st, "US", stay)] == ["13.24"]
    from pbem.systems.westwall.model import AdvanceOrder

    go = _turn("US", [MoveOrder(unit="para", path=["0303"])],
               [AttackOrder(attackers=["para"], defenders=["d"], advance=[AdvanceOrder(unit="para")])])
    assert R.validate(sc, st, "US", go) == []


def test_13_24_on_the_stream_line_and_eliminated_unless_it_advances() -> None:
    from pbem.systems.westwall import crt
    from pbem.systems.westwall.model import AdvanceOrder

    sc, st = _assault()
    go = _turn("US", [MoveOrder(unit="para", path=["0303"])],
               [AttackOrder(attackers=["para"], defenders=["d"], advance=[AdvanceOrder(unit="para")])])
    table = Board.from_state(sc, st).geo.crt
    stream = sc.terrain_key.hexsides["stream"].crt
    win = next(f for f in range(1, 7) if crt.lookup(stream, 8, f, table) in ("D1", "D2", "D3", "D4"))
    res, new = _resolve(sc, st, go, [win])
    combat = [e for e in res.events if e["type"] == "combat"][0]
    assert combat["line"] == stream
    assert new.units["para"].hex == "0304" and new.units["para"].status == "on-map"
    sc, st = _assault(attack=1, defense=6)  # -5: the defender stays
    lose = [f for f in range(1, 7) if crt.lookup(stream, -5, f, table) in ("-", "A1", "A2")]
    assert lose, "the reconstructed CRT has a result at -5 that leaves the defender in place"
    res, new = _resolve(sc, st, go, [lose[0]])
    assert new.units["para"].status == "eliminated"
    # an A result would take it back out of the engineer's hex, which it may not do [13.25]; any
    # other result leaves it there, not across the river [13.24]: either way it is lost
    assert any(e["type"] == "eliminated" and e["rule"] in ("13.24", "13.25") for e in res.events)


def test_11_1_retreating_into_a_city_hex_takes_two_hexes_off_the_rest() -> None:
    """A D3 from open ground: after one hex the unit is in the City hex 0404 with two hexes left;
    the reduction cancels them, and it stops there [11.1]."""
    from pbem.maps.hexmap import Hex
    from pbem.systems.westwall.retreat import retreat

    sc = _city(units=[unit("d", "US"), unit("a", "DE")])
    start = next(n for n in Hex.parse("0404").neighbours() if n.col == 4)  # 0403 or 0405
    enemy = next(n for n in start.neighbours() if n.distance(Hex.parse("0404")) == 2)
    board = Board.from_state(sc, state_with(sc, {"d": str(start), "a": str(enemy)}))
    r = retreat(board, Arnhem(), "d", 3, combat=1, away_from=[enemy],
                prefs=StandingOrders(retreat={"d": ["0404"]}))
    assert [str(h) for h in r.path] == [str(start), "0404"] and r.eliminated is None
    plain = tiny_scenario(first_player="DE", terrain={"city": ["0404"]},
                          units=[unit("d", "US"), unit("a", "DE")])
    b2 = Board.from_state(plain, state_with(plain, {"d": str(start), "a": str(enemy)}))
    from pbem.systems.westwall.exclusive import Exclusive

    assert len(retreat(b2, Exclusive(), "d", 3, combat=1, away_from=[enemy]).path) == 4


# -- text orders ----------------------------------------------------------------------------------

def test_text_orders_read_like_the_game() -> None:
    from pbem.errors import InputError
    from pbem.systems.westwall.orders_text import parse_text_orders

    sc = _bridges(units=[unit("tk", "US", "armor"), unit("g", "DE")])
    turn = {"kind": "player-turn", "side": "US", "game_turn": 1, "moves": [], "attacks": [],
            "standing": {}}
    got = parse_text_orders(sc, turn, "US", "move tk to 0305 if demolished 0302 0202\n"
                                            "land tk at 0101\n")
    assert got["moves"][0] == {"unit": "tk", "to": "0305", "if_demolished": ["0302", "0202"]}
    assert got["moves"][1] == {"unit": "tk", "path": ["0101"]}
    stop = parse_text_orders(sc, turn, "US", "move tk via 0302 0303 if demolished stop")
    assert stop["moves"][0]["if_demolished"] == []
    de = parse_text_orders(sc, {**turn, "side": "DE"}, "DE", "spare bridge 0304/0303")
    assert de["standing"]["spare_bridges"] == ["0303/0304"]
    setup = parse_text_orders(sc, {"kind": "setup", "side": "US", "placements": {}, "standing": {}},
                              "US", "dz 101 at 1007\ndz 82 at 2323 turn 3")
    assert setup["dz_notes"] == [{"division": "101", "hex": "1007", "turn": 1},
                                 {"division": "82", "hex": "2323", "turn": 3}]
    with pytest.raises(InputError, match="if demolished"):
        parse_text_orders(sc, turn, "US", "move tk to 0305 if blown")


def test_16_11_the_polish_brigade_lands_at_its_printed_hexes_even_with_weather() -> None:
    """The Poles have no drop-zone counter [15.35, 17.36]: with the weather rules they still land
    within one hex of their scheduled hex, like 18.13 prints."""
    sc = tiny_scenario(
        game="arnhem", first_player="US", cols=(1, 10), rows=(1, 10),
        units=[unit("p1", "US", "airborne", 2, 2, 7, formation="101"),
               unit("pol", "US", "airborne", 2, 2, 7, formation="Pol"), unit("g", "DE")],
        reinforcements=[{"side": "US", "turn": 1, "units": ["p1"], "rule": "18.13", "airborne": True,
                         "entry": [{"within": 1, "of": ["0505"]}]},
                        {"side": "US", "turn": 1, "units": ["pol"], "rule": "18.13",
                         "airborne": True, "entry": [{"within": 1, "of": ["0808"]}]}],
        special={"weather": True})
    st = state_with(sc, {"g": "1010"}, phasing="US", exclusive={"weather": "good",
                                                               "dz": {"101": "0202"}})
    o = _turn("US", [MoveOrder(unit="pol", path=["0807"]), MoveOrder(unit="p1", path=["0303"])])
    assert R.validate(sc, st, "US", o) == []


# -- [13.1] repair; [12.16] rail bridges are never repaired ----------------------------------------

def _repair_scenario() -> Any:
    return _bridges(special={"engineer": "Eng"},
                    units=[unit("Eng", "US", "engineer", 1, 2, 7), unit("g", "DE")])


def _german_turn_after(sc: Any, at: str, destroyed: list[str], bridges: dict[str, str],
                       g: str = "0808") -> Any:
    st = state_with(sc, {"Eng": at, "g": g}, phasing="DE",
                    exclusive={"bridges": bridges, "destroyed_bridges": destroyed,
                               "engineer_hex": at})
    return _resolve(sc, st, _turn("DE", []), [])


def test_13_1_an_engineer_next_to_a_demolished_canal_bridge_for_a_german_turn_repairs_it() -> None:
    sc = _repair_scenario()
    res, new = _german_turn_after(sc, "0303", ["0303/0304"], {"0303/0304": "demolished"})
    assert new.exclusive["bridges"]["0303/0304"] == "repaired"
    assert "destroyed_bridges" not in new.exclusive
    assert any(e.get("rule") == "13.1" for e in res.events)
    board = Board.from_state(sc, new)
    from pbem.maps.hexmap import Hex

    assert board.crossing(Hex.parse("0303"), Hex.parse("0304")).bridge


def test_13_1_no_repair_in_an_enemy_zone_of_control_nor_of_a_rail_bridge() -> None:
    sc = _repair_scenario()
    st = state_with(sc, {"Eng": "0303", "g": "0302"}, phasing="DE",  # the German beside it
                    exclusive={"bridges": {"0303/0304": "demolished"},
                               "destroyed_bridges": ["0303/0304"], "engineer_hex": "0303"})
    new, _events = Arnhem().end_of_player_turn(sc, Board.from_state(sc, st), st, [],
                                                FixedDice([]))
    assert new.exclusive["bridges"]["0303/0304"] == "demolished"
    _res, new = _german_turn_after(sc, "0203", ["0203/0204"], {"0203/0204": "demolished"})
    assert new.exclusive["bridges"]["0203/0204"] == "demolished"  # rail [12.16]


# -- [15.43] exits only in the movement phase -------------------------------------------------------

def test_15_43_a_german_unit_forced_off_the_map_by_combat_is_eliminated() -> None:
    from pbem.maps.hexmap import Hex
    from pbem.systems.westwall.retreat import retreat

    sc = tiny_scenario(game="arnhem", first_player="US", cols=(1, 1), rows=(1, 2),
                       units=[unit("g", "DE"), unit("u", "US")])
    board = Board.from_state(sc, state_with(sc, {"g": "0101", "u": "0102"}))
    r = retreat(board, Arnhem(), "g", 1, combat=1, away_from=[Hex.parse("0102")])
    assert r.eliminated is not None and board.status("g") == "eliminated"


def test_27_15_33_the_preview_names_the_airborne_unit_the_rules_will_eliminate() -> None:
    """[15.33, 27] (the 3817 case): two units are due to land in the one hex their drop allows;
    the orders land one. The preview must not say the other 'stays off the map' [11.22]: it says
    it is eliminated, and the resolution of the same orders eliminates exactly it."""
    from pbem.systems.westwall.presenter import undone

    sc = tiny_scenario(
        game="arnhem", first_player="US", cols=(1, 10), rows=(1, 10),
        units=[unit("p1", "US", "airborne", 2, 2, 7, formation="101"),
               unit("p2", "US", "airborne", 2, 2, 7, formation="101"), unit("g", "DE")],
        reinforcements=[{"side": "US", "turn": 1, "units": ["p1", "p2"], "rule": "18.13",
                         "airborne": True, "entry": [{"within": 0, "of": ["0505"]}]}])
    st = state_with(sc, {"g": "1010"}, phasing="US")
    o = _turn("US", [MoveOrder(unit="p1", path=["0505"])])
    said = undone(sc, st, "US", o.to_json())
    assert said == ["1 unit due that does not land or enter is ELIMINATED at the end of this player-turn: "
                    "p2 [15.33]"]
    res, after = _resolve(sc, st, o, [])
    gone = [e for e in res.events if e.get("type") == "eliminated"]
    assert [(e["unit"], e["rule"]) for e in gone] == [("p2", "15.33")]
    assert after.units["p2"].status == "eliminated" and after.units["p1"].hex == "0505"


def test_12_15_spare_bridge_names_a_canal_or_rail_bridge_or_is_refused_by_line() -> None:
    """[12.12, 12.15] only canal and rail bridges are tried for demolition, so only they can be
    spared: 'spare bridge' naming a highway bridge over a river, a hexside with no bridge or two
    hexes not adjacent is refused on its line (it was signed, and did nothing); in Bastogne the
    order does not exist."""
    from pbem.errors import InputError
    from pbem.systems.westwall.orders_text import parse_text_orders

    sc = _bridges(units=[unit("tk", "US", "armor"), unit("g", "DE")])
    turn = {"kind": "player-turn", "side": "DE", "game_turn": 1, "moves": [], "attacks": [],
            "standing": {}}
    # 0203/0204: a canal with a rail bridge on it (the map of _bridges) -- sparable [12.15]
    assert parse_text_orders(sc, turn, "DE", "spare bridge 0204/0203")["standing"]["spare_bridges"] \
        == ["0203/0204"]
    refused = {
        "spare bridge 0603/0604": "line 1: 0603/0604 is not a canal or rail bridge",  # the road over the river
        "spare bridge 0101/0102": "line 1: 0101/0102 is not a canal or rail bridge",  # no bridge at all
        "\nspare bridge 0303/0305": "line 2: 0303/0305 is not a canal or rail bridge",  # not adjacent
    }
    for text, said in refused.items():
        with pytest.raises(InputError) as err:
            parse_text_orders(sc, turn, "DE", text)
        assert str(err.value) == said + " on the map: only those are demolished or spared [12.12, 12.15]"
    bastogne = _bridges(game="bastogne", units=[unit("g", "DE")])
    with pytest.raises(InputError, match=r"^line 1: 'spare bridge' is an order of the Arnhem rules \[12.12\]"):
        parse_text_orders(bastogne, turn, "DE", "spare bridge 0303/0304")


def test_17_1_the_map_header_tells_points_scored_so_far_from_the_victory_points() -> None:
    """[17.1] the map's header shows the victory points (what the game has scored plus what its end
    would score now) and the points already scored at the ends of game-turns: the second line
    says which it is (it read "Points so far: DE 357" under "Victory points: German 377", the words
    the maps of drawings 1 to 3 keep)."""
    from pbem.systems.westwall.arnhem import status_lines

    sc = _bridges()
    st = state_with(sc, {})
    st.exclusive["points"] = {"DE": 357}
    assert status_lines(sc, st)[-1] == ("Points scored at the ends of game-turns: DE 357 (the victory "
                                        "points add what the end of the game would score now) [17.1]")
    assert status_lines(sc, st, old_words=True)[-1] == "Points so far: DE 357 [17.1]"
    st.exclusive["points"] = {}  # nothing scored yet: no line, in either words
    assert status_lines(sc, st) == status_lines(sc, st, old_words=True) == []
