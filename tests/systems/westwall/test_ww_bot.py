"""The sparring bot on hand-made positions: CRT arithmetic, required attacks grouped into stars
[7.11, 7.12, 7.21, 7.22], exits [12.0], set-ups [15.12, 15.23], determinism, and zero rule
violations over many random positions."""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers.westwall import area, artillery, state_with, tiny_scenario, unit

from pbem.engine.scenarios import load_data
from pbem.errors import InputError
from pbem.maps.hexmap import Hex
from pbem.systems.westwall.bot import choose_orders, expected_value
from pbem.systems.westwall.model import Scenario, State
from pbem.systems.westwall.rules import WestWallRules

RULES = WestWallRules()


def _valid(sc: Scenario, st: State, side: str, orders: dict[str, Any]) -> None:
    bad = RULES.validate(sc, st.to_json(), side, orders)
    assert bad == [], [str(v) for v in bad]


# --------------------------------------------------------------------------------------------------
# CRT arithmetic
# --------------------------------------------------------------------------------------------------


def test_expected_value_by_hand_7_61() -> None:
    # clear line, differential 0 (column c5), dice 1..6: D2 D1 Br Br A1 A1 -> 5 + 3 + 0 + 0 - 3 - 3
    assert expected_value("clear", 0) == 2
    # +12 and beyond (c11): De D4 D3 D2 D2 D2 -> 10 + 8 + 6 + 5 + 5 + 5
    assert expected_value("clear", 12) == 39
    assert expected_value("clear", 30) == 39
    # solely artillery [8.15]: D1 and Br do not count -> 5 - 3 - 3
    assert expected_value("clear", 0, solely_artillery=True) == -1
    # +4 on the rough line reads column c5 (like 0 on the clear line); on the clear line c8:
    # D2 D2 D2 D2 D1 Br -> 4 * 5 + 3
    assert expected_value("rough", 4) == 2
    assert expected_value("clear", 4) == 23


# --------------------------------------------------------------------------------------------------
# Required attacks [7.11, 7.12, 7.21, 7.22]
# --------------------------------------------------------------------------------------------------


def _attack_sets(orders: dict[str, Any]) -> list[tuple[list[str], list[str]]]:
    return sorted((sorted(a["attackers"]), sorted(a["defenders"])) for a in orders["attacks"])


def test_every_adjacent_enemy_attacked_and_every_engaged_unit_attacks_once() -> None:
    # a (0303) touches x (0302) and y (0304); b (0305) touches only y. Both are pinned [5.14].
    sc = tiny_scenario(units=[unit("a", "DE", attack=4), unit("b", "DE", attack=4),
                              unit("x", "US"), unit("y", "US")])
    st = state_with(sc, {"a": "0303", "b": "0305", "x": "0302", "y": "0304"}, phasing="DE")
    orders = choose_orders(sc, st.to_json(), "DE")
    _valid(sc, st, "DE", orders)
    assert orders["moves"] == []
    # b can only attack y, so a must take x [7.11]
    assert _attack_sets(orders) == [(["a"], ["x"]), (["b"], ["y"])]


def test_one_attacker_against_two_defenders_7_22() -> None:
    sc = tiny_scenario(units=[unit("a", "DE", attack=6), unit("x", "US"), unit("y", "US")])
    st = state_with(sc, {"a": "0303", "x": "0302", "y": "0304"}, phasing="DE")
    orders = choose_orders(sc, st.to_json(), "DE")
    _valid(sc, st, "DE", orders)
    assert _attack_sets(orders) == [(["a"], ["x", "y"])]


def test_no_contact_at_poor_odds_without_an_objective() -> None:
    # a 2-4-7 could walk next to a 6-8 defender; it would then have to attack at -6 [7.12]
    sc = tiny_scenario(units=[unit("a", "DE", attack=2), unit("x", "US", attack=6, defense=8)])
    st = state_with(sc, {"a": "0101", "x": "0404"}, phasing="DE")
    orders = choose_orders(sc, st.to_json(), "DE")
    _valid(sc, st, "DE", orders)
    assert orders["attacks"] == []
    for m in orders["moves"]:
        assert not Hex.parse(m["path"][-1]).is_adjacent(Hex.parse("0404"))


def test_good_odds_attack_is_planned_and_made() -> None:
    # two 6-4-12 armour units against a lone 1-1: +11 on the clear line
    sc = tiny_scenario(units=[unit("a", "DE", "armor", 6, 4, 12), unit("b", "DE", "armor", 6, 4, 12),
                              unit("x", "US", attack=1, defense=1)])
    st = state_with(sc, {"a": "0101", "b": "0102", "x": "0505"}, phasing="DE")
    orders = choose_orders(sc, st.to_json(), "DE")
    _valid(sc, st, "DE", orders)
    assert [a["defenders"] for a in orders["attacks"]] == [["x"]]
    assert sorted(orders["attacks"][0]["attackers"]) == ["a"]  # one unit already gives +5 (EV 23)


def test_barrage_artillery_added_within_the_artillery_limit_14_0() -> None:
    # a 2-attack unit pinned next to x; artillery 3 barrage in range cannot join (3 > 2), 2 can
    sc = tiny_scenario(
        units=[unit("a", "DE", attack=2), artillery("big", "DE", barrage=3), artillery("small", "DE", barrage=2),
               unit("x", "US", defense=2)],
        artillery_limit=True,
    )
    st = state_with(sc, {"a": "0303", "x": "0304", "big": "0101", "small": "0102"}, phasing="DE")
    orders = choose_orders(sc, st.to_json(), "DE")
    _valid(sc, st, "DE", orders)
    (att,) = orders["attacks"]
    assert att["attackers"] == ["a"] and att["defenders"] == ["x"]
    assert att["artillery"] == ["small"]


# --------------------------------------------------------------------------------------------------
# Exits [12.0, 15.17]
# --------------------------------------------------------------------------------------------------


def _exit_scenario() -> Scenario:
    return tiny_scenario(
        game="bastogne",
        routes=[("road", ["0103", "0203", "0303", "0403"], ["start"])],
        units=[unit("a", "DE", "armor", 6, 4, 12), unit("x", "US")],
        exits=[{"side": "DE", "edges": ["west"], "rule": "15.17"}],
        special={
            "control_hexes": ["0808"],
            "initial_control": {"0808": "US"},
            "victory": {"kind": "exit-and-bastogne", "exit_side": "DE", "exit_units": ["a"],
                        "control_vp": {"DE": 10, "US": 12}},
        },
    )


def test_listed_unit_exits_west_along_the_road() -> None:
    sc = _exit_scenario()
    st = state_with(sc, {"a": "0403", "x": "0808"}, phasing="DE")
    orders = choose_orders(sc, st.to_json(), "DE")
    _valid(sc, st, "DE", orders)
    # 3 road hexes at 1/2 MP and the road off the map: 2 MP of 12
    assert orders["moves"] == [{"unit": "a", "path": ["0303", "0203", "0103"], "exit": True}]


def test_after_the_deadline_the_unit_no_longer_exits_15_37() -> None:
    sc = _exit_scenario()
    data = sc.to_json()
    data["special"]["victory"]["exit_by_turn"] = 1
    sc2 = Scenario.parse(data)
    st = state_with(sc2, {"a": "0403", "x": "0808"}, phasing="DE", game_turn=2)
    orders = choose_orders(sc2, st.to_json(), "DE")
    _valid(sc2, st, "DE", orders)
    assert not any(m["exit"] for m in orders["moves"])


# --------------------------------------------------------------------------------------------------
# Set-up on the Bastogne scenarios
# --------------------------------------------------------------------------------------------------


def _bundled(name: str) -> tuple[Scenario, Any]:
    sc = RULES.load_scenario(load_data(name))
    return sc, RULES.initial_state(sc, {})


def test_us_setup_rings_bastogne_15_12() -> None:
    sc, st = _bundled("bastogne-spearhead")
    orders = choose_orders(sc, st, "US")
    assert RULES.validate(sc, st, "US", orders) == []
    placed = {Hex.parse(h) for h in orders["placements"].values()}
    assert {Hex.parse("1317"), Hex.parse("1416")} <= placed
    bastogne = [Hex.parse("1317"), Hex.parse("1416")]
    assert all(min(h.distance(b) for b in bastogne) <= 3 for h in placed)


def test_german_relief_setup_blocks_the_line_of_communication_15_27() -> None:
    from pbem.systems.westwall.bastogne import line_of_communication

    sc, st = _bundled("bastogne-relief")
    assert line_of_communication(sc, RULES_state(st)) is not None  # open on the empty map
    orders = choose_orders(sc, st, "DE")
    assert RULES.validate(sc, st, "DE", orders) == []
    after = RULES.resolve(sc, st, "DE", orders, _NoDice()).state
    assert line_of_communication(sc, RULES_state(after)) is None


def RULES_state(st: Any) -> State:
    return st if isinstance(st, State) else State.parse(st)


class _NoDice:
    def d6(self, label: str) -> int:
        raise AssertionError("set-up rolls no dice")


# --------------------------------------------------------------------------------------------------
# Determinism, wrong side, and zero violations over many positions
# --------------------------------------------------------------------------------------------------


def test_same_inputs_same_orders() -> None:
    sc, st = _bundled("bastogne-spearhead")
    assert choose_orders(sc, st, "US", seed=3) == choose_orders(sc, st, "US", seed=3)
    setup = choose_orders(sc, st, "US", seed=3)
    st1 = RULES.resolve(sc, st, "US", setup, _NoDice()).state
    first = choose_orders(sc, st1, "DE", seed=5)
    assert first == choose_orders(sc, st1, "DE", seed=5)
    assert first["moves"], "German reinforcements enter on Game-Turn 1 [15.15]"
    assert RULES.validate(sc, st1, "DE", first) == []


def test_not_this_sides_decision_is_an_input_error() -> None:
    sc, st = _bundled("bastogne-spearhead")
    with pytest.raises(InputError, match="no decision of DE"):
        choose_orders(sc, st, "DE")


def _random_position(rng: random.Random) -> tuple[Scenario, State]:
    hexes = [f"{c:02d}{r:02d}" for c in range(1, 9) for r in range(1, 9)]
    terrain = {"woods": rng.sample(hexes, 6), "town": rng.sample(hexes, 4), "rough": rng.sample(hexes, 3)}
    units = []
    for i in range(rng.randint(2, 6)):
        units.append(unit(f"d{i}", "DE", rng.choice(["infantry", "armor", "mech"]), rng.randint(1, 6),
                          rng.randint(1, 5), rng.choice([7, 12])))
    for i in range(rng.randint(2, 6)):
        units.append(unit(f"u{i}", "US", rng.choice(["infantry", "armor"]), rng.randint(1, 6),
                          rng.randint(1, 5), rng.choice([7, 12])))
    units.append(artillery("da", "DE", barrage=rng.randint(1, 4), range=rng.randint(2, 10)))
    units.append(artillery("ua", "US", barrage=rng.randint(1, 4), range=rng.randint(2, 10)))
    sc = tiny_scenario(
        terrain=terrain,
        lines=[("stream", ["0404/0405", "0504/0505"]), ("river", ["0203/0303"])],
        routes=[("road", ["0101", "0201", "0302", "0402", "0503", "0603"])],
        units=units,
        artillery_limit=rng.random() < 0.7,
        reinforcements=[{"side": "DE", "turn": 1, "units": ["da"], "entry": [area(edge="west").to_json()],
                         "rule": "11.11"}],
        ground_support=[{"side": "DE", "from_turn": 1, "points": rng.randint(0, 4), "rule": "9.0"}],
    )
    free = [h for h in hexes]
    rng.shuffle(free)
    pos = {u.id: free.pop() for u in units if u.id != "da"}
    return sc, state_with(sc, pos, phasing="DE")


@pytest.mark.parametrize("batch", range(4))
def test_zero_violations_over_many_random_positions(batch: int) -> None:
    rng = random.Random(1000 + batch)
    for _ in range(15):
        sc, st = _random_position(rng)
        orders = choose_orders(sc, st.to_json(), "DE", seed=rng.randrange(100))
        _valid(sc, st, "DE", orders)
