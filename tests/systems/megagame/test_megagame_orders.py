"""The megagame's order sheet [seed 004, 5, 6, 9, 11]: checked as typed, against what the team can
know (its own units, its own map)."""

from __future__ import annotations

from typing import Literal

from pbem.maps.hexmap import Hex
from pbem.systems.megagame.movement import MAX_MOVE_KM_2
from pbem.systems.megagame.orders import AirRequest, OrderLine, OrderSheet, UnitInfo, check_sheet

UNITS = {
    "2HCR": UnitInfo(id="2HCR", troops="recce", armoured=True, hex="0501"),
    "2IG": UnitInfo(id="2IG", troops="tanks", armoured=True, hex="0501"),
    "3IG": UnitInfo(id="3IG", troops="infantry", hex="0502"),
    "153": UnitInfo(id="153", troops="motor-towed-artillery", hex="0503"),
}


def _ground(h: Hex) -> Literal["open", "close", "wood-town", "marsh", "all"]:
    return "wood-town" if h.row == 9 else "open"


def _water(a: Hex, b: Hex) -> tuple[Literal["none", "canal", "minor river", "major river"],
                                    Literal["none", "light", "heavy"]]:
    if {a.row, b.row} == {5, 6}:  # a canal between rows 5 and 6, bridged only in column 05
        return ("canal", "light" if a.col == 5 else "none")
    return ("none", "none")


def _route(col: int, first: int, last: int) -> list[str]:
    return [f"{col:02d}{r:02d}" for r in range(first, last + 1)]


def check(*lines: OrderLine, side: Literal["allied", "german"] = "allied",
          air: list[AirRequest] | None = None, **kw: object) -> list[str]:
    sheet = OrderSheet(team="Guards", side=side, turn=2, lines=list(lines), air_orders=air or [])
    return [v.rule for v in check_sheet(sheet, UNITS, ground_of=_ground, water_between=_water,
                                        **kw)]  # type: ignore[arg-type]


def test_5_breakthrough_only_for_armour_and_stand_fast_only_with_hold() -> None:
    assert check(OrderLine(units=["2IG"], intention="breakthrough"),
                 prepared_last_turn=frozenset({"2IG"})) == []
    assert check(OrderLine(units=["3IG"], intention="breakthrough")) == ["5"]
    assert check(OrderLine(units=["3IG"], intention="hold", stand_fast=True)) == []
    assert check(OrderLine(units=["3IG"], intention="move", stand_fast=True)) == ["5"]
    assert check(OrderLine(units=["XX"], intention="move")) == ["5"]


def test_6_maximum_moves_by_troops_ground_posture_and_time() -> None:
    # infantry: 15 km tactical, the horse-drawn row it shares [6] ("Horse drawn All terrain 15 25 30
    # Possible / Infantry & / Paras."); 7.5 km in half a turn. 3IG stands at 0502.
    assert check(OrderLine(units=["3IG"], intention="move", route=_route(5, 3, 18))) == ["6"]  # 16 km
    assert check(OrderLine(units=["3IG"], intention="move", route=_route(5, 3, 17))) == []  # 15 km
    assert check(OrderLine(units=["3IG"], intention="move", route=_route(5, 3, 10),
                           timing="first-half")) == ["6"]  # 8 km
    assert check(OrderLine(units=["3IG"], intention="move", route=_route(5, 3, 9), timing="first-half")) == []
    # non-tactical 25 km, in road column 30
    assert check(OrderLine(units=["3IG"], intention="move", route=_route(5, 3, 28), posture="non-tactical"),
                 ) == []  # a Move line, non-tactical: road column, 26 km of 30
    # towed artillery only moves in road column
    assert check(OrderLine(units=["153"], intention="move", route=_route(5, 4, 5))) == ["6"]
    assert check(OrderLine(units=["153"], intention="move", posture="non-tactical",
                           route=_route(5, 4, 8))) == []


def test_6_water_and_bridge_classes() -> None:
    # the canal between rows 5 and 6: a light bridge in column 05, nothing in column 07
    assert check(OrderLine(units=["3IG"], intention="move", route=_route(5, 3, 7))) == []
    assert check(OrderLine(units=["2IG"], intention="move", route=_route(5, 2, 7))) == ["6"]
    tanks_off_bridge = UnitInfo(id="2IG", troops="tanks", armoured=True, hex="0701")
    sheet = OrderSheet(team="Guards", side="allied", turn=2,
                       lines=[OrderLine(units=["2IG"], intention="move", route=_route(7, 2, 7))])
    rules = [v.rule for v in check_sheet(sheet, {"2IG": tanks_off_bridge}, ground_of=_ground,
                                         water_between=_water)]
    assert rules == ["6"]


def test_9_close_air_support_only_allied_prepared_and_in_both_orders() -> None:
    cas = AirRequest(mission="cas", squadrons=2, target="Valkenswaard")
    line = OrderLine(units=["2IG"], intention="attack", air=[cas])
    assert check(line, air=[cas], prepared_last_turn=frozenset({"2IG"})) == []
    assert check(line, air=[], prepared_last_turn=frozenset({"2IG"})) == ["9"]
    assert check(line, air=[cas]) == ["9"]  # not prepared
    cab = AirRequest(mission="cab-rank", squadrons=2)
    assert check(line, air=[cas, cab]) == ["9"]  # a cab rank supports it by itself: nothing to ask
    assert check(line, side="german", air=[cas], prepared_last_turn=frozenset({"2IG"})) == ["9"]


def test_11_supply_used_no_more_than_within_5_km_of_the_hq() -> None:
    line = OrderLine(units=["2IG"], intention="move", supply=3)
    assert check(line, supply_available=3) == []
    assert check(line, supply_available=2) == ["11"]


def test_6_a_route_that_does_not_go_one_km_at_a_time_says_how_to_write_it() -> None:
    def words(line: OrderLine) -> list[str]:
        sheet = OrderSheet(team="Guards", side="allied", turn=2, lines=[line])
        return [v.message for v in check_sheet(sheet, UNITS, ground_of=_ground, water_between=_water)]

    here = UNITS["3IG"].hex
    own = words(OrderLine(units=["3IG"], intention="move", route=[here]))
    assert len(own) == 1 and "the route starts where 3IG is" in own[0] and "list only the hexes it goes to" in own[0]
    start = Hex.parse(here)
    jump = str(Hex(start.col, start.row + 2))  # two km off in its own column
    msg = words(OrderLine(units=["3IG"], intention="move", route=[jump]))
    assert len(msg) == 1 and "a route goes one km (one hex) at a time" in msg[0] and "different hexes" not in msg[0]


def test_the_sheet_of_a_team_with_nobody_on_the_map_says_who_arrives_when() -> None:
    """10th SS arrives from turn 2 in megagame-arnhem: its turn-1 sheet listed no units at all (a
    tester's finding, issue 27); it says when each arrives, by the scenario's arrival turns."""
    from pbem.engine.gamedir import load_scenario
    from pbem.engine.scenarios import content_hash, load_data

    data = load_data("megagame-arnhem")
    rules, sc = load_scenario(data, content_hash(data))
    sheet = rules.presenter().orders_template(sc, rules.initial_state(sc, {}), "SS10")
    assert sheet is not None
    lines = sheet.splitlines()
    at = lines.index("#   none on the map yet; they arrive:")
    due = {u.id: u.arrives for u in sc.units if u.team == "SS10"}
    listed = " ".join(lines[at + 1:at + 1 + len(set(due.values()))])
    for uid, turn in due.items():
        assert uid in listed and f"turn {turn} (" in listed
    assert all(line.startswith("#") for line in lines)  # unedited, it orders nothing


def test_6_the_infantry_row_of_rules_version_2_is_8_12_20_km() -> None:
    # version 2 read the infantry row as lost and reconstructed it: 8 km tactical, 4 in half a turn
    v2 = {"moves": MAX_MOVE_KM_2}
    assert check(OrderLine(units=["3IG"], intention="move", route=_route(5, 3, 11)), **v2) == ["6"]
    assert check(OrderLine(units=["3IG"], intention="move", route=_route(5, 3, 10)), **v2) == []
    assert check(OrderLine(units=["3IG"], intention="move", route=_route(5, 3, 8), timing="first-half"),
                 **v2) == ["6"]
