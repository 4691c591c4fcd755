"""[27] Arnhem 1944 on the player's desk: `pbem status` names every unit out of supply with the
enemy units closing hexes within its supply range [10.1]; a drop reads as landings wherever a move
is told (the describer the preview uses, with or without the state it answered) [15.2]."""

from __future__ import annotations

from systems.arnhem1944.test_arnhem1944_rules import RULES, G, game, unit


def test_27_10_1_status_names_a_unit_out_of_supply_and_the_enemy_near_its_supply_range() -> None:
    """The tiny map of the rules tests: supply range 2. gu at 0606 is three hexes from the GA road
    (0301-0306) and from HQGA at 0106: out of supply at the supply check of turn 2 [10.1]."""
    gu = unit("gu", "AL", "GA")
    sc, st = game([(gu, "0606"), (G, "0601")])
    st.turn = 2
    RULES.game(sc).command_and_supply(st)
    assert not st.units["gu"].in_supply
    # so is HQAL at 0101: the 1st Airborne traces to drop zones, and none is in use [10.1, 15.2];
    # g and HQDE stand at 0601, five hexes from each: nothing of theirs lies within two hexes
    hqal = ("HQAL in 0101: out of supply since the supply check of turn 2 [10.1]; no enemy unit within its "
            "supply range of 2: no source is near enough")
    assert RULES.presenter().cut_off(sc, st) == [hqal, (
        "gu in 0606: out of supply since the supply check of turn 2 [10.1]; no enemy unit within its supply "
        "range of 2: no source is near enough")]
    st.units["g"].hex = "0604"  # two hexes from 0606: its own hex is within the range
    assert RULES.presenter().cut_off(sc, st) == [hqal, (
        "gu in 0606: out of supply since the supply check of turn 2 [10.1]; enemy units closing hexes within "
        "its supply range of 2: g at 0604")]


def test_27_15_2_a_drop_reads_as_landings_with_or_without_the_state_it_answered() -> None:
    sc, st = game([(unit("p", "AL", "1AB"), None), (G, "0606")],
                  drops=[{"group": "4P", "units": ["p"], "turn": 2, "dz": "0102", "radius": 2, "terrain": ["clear"]}])
    orders = {"kind": "drop", "side": "AL", "landings": [{"unit": "p", "hex": "0203"}]}
    presenter = RULES.presenter()
    for said in (presenter.describe_move(sc, orders), presenter.describe_move(sc, orders, state=st)):
        assert "p lands at 0203 [15.2]" in said
