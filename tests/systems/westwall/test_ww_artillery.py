"""Artillery [8.0], Final Protective Fire [8.4], ground support [9.0] and the artillery limit [14.0].

Maps: a one-row map (``rows=(1, 1)``) whose hexes 0101-0201-0301-... form a line, so ranges are
plain column differences (0101 to 0401 is 3 hexes: the target counts, the firer does not [8.12]).
"""

from __future__ import annotations

from typing import Any

from helpers.westwall import (
    artillery,
    atk,
    combats,
    game,
    orders,
    rules_of,
    unit,
)

from pbem.maps.hexmap import Hex
from pbem.protocol.dice import FixedDice
from pbem.systems.westwall.attacks import validate_attacks
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.combat import combat_state_changes, resolve_combat
from pbem.systems.westwall.model import (
    Event,
    NoteEvent,
    RetreatEvent,
    StandingOrders,
)

H = Hex.parse
LINE: dict[str, Any] = {"cols": (1, 10), "rows": (1, 1)}




def standing(**kw: Any) -> dict[str, StandingOrders]:
    return {"US": StandingOrders.parse(kw)}


# --------------------------------------------------------------------------------------------------
# Barrage [8.1, 8.2]
# --------------------------------------------------------------------------------------------------


def test_8_12_range_counts_target_not_firer() -> None:
    # art (range 3) in 0101: 0401 is 3 hexes away (0201, 0301, 0401) -> in range; 0501 is 4.
    units = [artillery("art", "DE", 3, 2, 3), unit("us1", "US")]
    sc, st_, b = game(units, {"art": "0101", "us1": "0401"}, **LINE)
    assert validate_attacks(b, sc, st_, orders("DE", atk([], ["us1"], ["art"]))) == []
    sc, st_, b = game(units, {"art": "0101", "us1": "0501"}, **LINE)
    v = validate_attacks(b, sc, st_, orders("DE", atk([], ["us1"], ["art"])))
    assert rules_of(v) == ["8.11"]
    assert "4 hexes" in v[0].message


def test_8_11_artillery_never_forced_to_barrage() -> None:
    sc, st_, b = game(
        [artillery("art", "DE", 3, 2, 9), unit("us1", "US")], {"art": "0101", "us1": "0401"}, **LINE
    )
    assert validate_attacks(b, sc, st_, orders("DE")) == []


def test_8_13_barrage_alone_targets_one_hex() -> None:
    units = [artillery("art", "DE", 3, 2, 9), unit("us1", "US"), unit("us2", "US")]
    sc, st_, b = game(units, {"art": "0101", "us1": "0401", "us2": "0501"}, **LINE)
    v = validate_attacks(b, sc, st_, orders("DE", atk([], ["us1", "us2"], ["art"])))
    assert rules_of(v) == ["8.13"]


def test_8_22_combined_attack_needs_range_to_one_defender() -> None:
    # de1 in 0401 between us1 (0301) and us2 (0501). art in 0101, range 2: 0301 is 2 away (in
    # range), 0501 is 4 away -- enough for a combined attack on both [8.22].
    units = [
        unit("de1", "DE", attack=6),
        artillery("art", "DE", 3, 2, 2),
        unit("us1", "US"),
        unit("us2", "US"),
    ]
    pos = {"art": "0101", "us1": "0301", "de1": "0401", "us2": "0501"}
    sc, st_, b = game(units, pos, **LINE)
    o = orders("DE", atk(["de1"], ["us1", "us2"], ["art"]))
    assert validate_attacks(b, sc, st_, o) == []
    # Range 1: in range of neither -> [8.22].
    units[1] = artillery("art", "DE", 3, 2, 1)
    sc, st_, b = game(units, pos, **LINE)
    assert rules_of(validate_attacks(b, sc, st_, o)) == ["8.22"]


def test_8_15_solely_artillery_only_d2_and_worse() -> None:
    # art barrage 3 vs us1 defense 4: -1, clear line c4, die 1 -> D1: no effect [8.15].
    units = [artillery("art", "DE", 3, 2, 9), unit("us1", "US", defense=4)]
    sc, st_, b = game(units, {"art": "0101", "us1": "0501"}, **LINE)
    ev = resolve_combat(b, sc, st_, orders("DE", atk([], ["us1"], ["art"])), FixedDice([1]))
    assert combats(ev)[0].result == "-"
    assert any(isinstance(e, NoteEvent) and e.rule == "8.15" for e in ev)
    assert b.unit_hex("us1") == H("0501") and b.units["us1"].adverse_phase is None
    # barrage 4 vs 4: 0 -> c5, die 1 -> D2: the defender retreats 2 (0601, 0701).
    units = [artillery("art", "DE", 4, 2, 9), unit("us1", "US", defense=4)]
    sc, st_, b = game(units, {"art": "0101", "us1": "0501"}, **LINE)
    ev = resolve_combat(b, sc, st_, orders("DE", atk([], ["us1"], ["art"])), FixedDice([1]))
    assert combats(ev)[0].result == "D2"
    assert b.unit_hex("us1") == H("0701")


def test_8_14_barraging_artillery_never_suffers() -> None:
    # de1 (1) + art (barrage 1) = 2 vs 9: -7, die 6 -> Ae. de1 is eliminated; art untouched.
    units = [
        unit("de1", "DE", attack=1),
        artillery("art", "DE", 1, 1, 9),
        unit("us1", "US", defense=9),
    ]
    sc, st_, b = game(units, {"art": "0101", "de1": "0301", "us1": "0401"}, **LINE)
    ev = resolve_combat(b, sc, st_, orders("DE", atk(["de1"], ["us1"], ["art"])), FixedDice([6]))
    assert combats(ev)[0].result == "Ae"
    assert b.status("de1") == "eliminated"
    assert b.unit_hex("art") == H("0101") and b.units["art"].adverse_phase is None


def test_8_31_adjacent_artillery_must_attack_8_32_not_elsewhere() -> None:
    units = [artillery("art", "DE", 3, 2, 9), unit("us1", "US"), unit("us2", "US")]
    sc, st_, b = game(units, {"art": "0301", "us1": "0401", "us2": "0701"}, **LINE)
    v = validate_attacks(b, sc, st_, orders("DE"))
    assert [(x.rule, x.unit) for x in v] == [("7.11", "us1"), ("8.31", "art")]
    # It may not barrage the distant us2 instead [8.32] (us1 still unattacked [7.11]).
    v = validate_attacks(b, sc, st_, orders("DE", atk([], ["us2"], ["art"])))
    assert ("8.32", "art") in [(x.rule, x.unit) for x in v]
    # Attacking the adjacent unit with its Barrage Strength is fine.
    assert validate_attacks(b, sc, st_, orders("DE", atk(["art"], ["us1"]))) == []


def test_8_33_adjacent_artillery_suffers_results() -> None:
    # art (barrage 1) in 0301 attacks us1 (4) in 0401: -3, clear c2, die 1 -> A1: art retreats to
    # 0201 [8.33]; the defender is not affected by a solely-artillery attack anyway.
    units = [artillery("art", "DE", 1, 1, 9), unit("us1", "US", defense=4)]
    sc, st_, b = game(units, {"art": "0301", "us1": "0401"}, **LINE)
    ev = resolve_combat(b, sc, st_, orders("DE", atk(["art"], ["us1"])), FixedDice([1]))
    c = combats(ev)[0]
    assert (c.attack_strength, c.differential, c.result) == (1, -3, "A1")
    assert b.unit_hex("art") == H("0201")


def test_8_34_artillery_across_river() -> None:
    # art in 0301 faces us1 in 0401 across a river: not forced to attack [8.34], may barrage a
    # distant unit, and listing it as an adjacent attacker is refused.
    units = [
        artillery("art", "DE", 1, 1, 9),
        unit("de1", "DE", attack=1),
        unit("us1", "US", defense=9),
        unit("us2", "US"),
    ]
    pos = {"art": "0301", "us1": "0401", "de1": "0501", "us2": "0801"}
    kw: dict[str, Any] = {**LINE, "lines": [("river", ["0301/0401"])]}
    sc, st_, b = game(units, pos, **kw)
    assert validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"]))) == []
    both = orders("DE", atk(["de1"], ["us1"]), atk([], ["us2"], ["art"]))
    assert validate_attacks(b, sc, st_, both) == []
    v = validate_attacks(b, sc, st_, orders("DE", atk(["de1", "art"], ["us1"])))
    assert rules_of(v) == ["8.34"]
    # Barraging across the river with de1: 1 + 1 = 2 vs 9 -> -7, die 6 -> Ae: de1 dies, art does
    # not [8.34].
    o = orders("DE", atk(["de1"], ["us1"], ["art"]))
    assert validate_attacks(b, sc, st_, o) == []
    ev = resolve_combat(b, sc, st_, o, FixedDice([6]))
    assert combats(ev)[0].result == "Ae"
    assert b.status("de1") == "eliminated" and b.unit_hex("art") == H("0301")


def test_8_5_artillery_defends_with_defense_strength() -> None:
    units = [unit("de1", "DE", attack=5), artillery("ua", "US", 3, 2, 9, defense=1)]
    sc, st_, b = game(units, {"de1": "0301", "ua": "0401"}, **LINE)
    c = combats(resolve_combat(b, sc, st_, orders("DE", atk(["de1"], ["ua"])), FixedDice([6])))[0]
    assert (c.defense_strength, c.differential) == (1, 4)


def test_8_62_hexside_benefit_only_for_non_artillery_attackers() -> None:
    # us1 in clear 0401 behind a stream (0301/0401).
    kw: dict[str, Any] = {**LINE, "lines": [("stream", ["0301/0401"])]}
    units = [
        unit("de1", "DE", attack=4),
        artillery("art", "DE", 4, 1, 9),
        unit("us1", "US", defense=4),
    ]
    # Solely artillery (from 0101, not across the stream) -> hex terrain only: clear [8.62].
    sc, st_, b = game(units, {"art": "0101", "us1": "0401"}, **kw)
    c = combats(
        resolve_combat(b, sc, st_, orders("DE", atk([], ["us1"], ["art"])), FixedDice([6]))
    )[0]
    assert c.line == "clear"
    # Combined with de1 attacking across the stream -> broken line [8.62, 7.42].
    sc, st_, b = game(units, {"art": "0101", "de1": "0301", "us1": "0401"}, **kw)
    o = orders("DE", atk(["de1"], ["us1"], ["art"]))
    c = combats(resolve_combat(b, sc, st_, o, FixedDice([6])))[0]
    assert c.line == "broken"
    # Combined with de1 attacking from 0501 (no stream) -> clear.
    sc, st_, b = game(units, {"art": "0101", "de1": "0501", "us1": "0401"}, **kw)
    o = orders("DE", atk(["de1"], ["us1"], ["art"]))
    c = combats(resolve_combat(b, sc, st_, o, FixedDice([6])))[0]
    assert c.line == "clear"


# --------------------------------------------------------------------------------------------------
# Final Protective Fire [8.4]
# --------------------------------------------------------------------------------------------------

FPF_UNITS = [
    unit("de1", "DE", attack=6),
    unit("de2", "DE", attack=6),
    unit("us1", "US", defense=4),
    unit("us2", "US", defense=4),
    artillery("ua", "US", 3, 2, 3, defense=1),
]


def _fpf(
    positions: dict[str, str], attacks: list[dict[str, Any]], dice: list[int], **kw: Any
) -> tuple[Board, list[Event]]:
    sc, st_, b = game(FPF_UNITS, positions, **{**LINE, **kw})
    ev = resolve_combat(b, sc, st_, orders("DE", *attacks), FixedDice(dice))
    return b, ev


def test_8_43_default_fpf_added_to_defense() -> None:
    # ua (FPF 2, range 3) in 0601 is 2 hexes from us1 (0401): 4 + 2 = 6 [8.43]; 6 - 6 = 0.
    b, ev = _fpf({"de1": "0301", "us1": "0401", "ua": "0601"}, [atk(["de1"], ["us1"])], [6])
    c = combats(ev)[0]
    assert (c.fpf, c.defense_strength, c.differential) == (["ua"], 6, 0)
    assert b.units["ua"].fpf_turn == 1


def test_8_42_range_to_the_defended_unit() -> None:
    # ua range 3 in 0801: 4 hexes from us1 (0401) -> no FPF, though only... 5 from de1 anyway.
    b, ev = _fpf({"de1": "0301", "us1": "0401", "ua": "0801"}, [atk(["de1"], ["us1"])], [6])
    assert combats(ev)[0].fpf == []
    # ua in 0701: 3 from us1 (in range) although 4 from the attacker de1 -> FPF [8.42].
    b, ev = _fpf({"de1": "0301", "us1": "0401", "ua": "0701"}, [atk(["de1"], ["us1"])], [6])
    assert combats(ev)[0].fpf == ["ua"]


def test_8_41_not_after_adverse_result_in_previous_phase() -> None:
    pos = {"de1": "0301", "us1": "0401", "ua": "0601"}
    # This is combat phase 5 (index 4 played); ua suffered a result in phase 4 -> no FPF.
    sc, st_, b = game(FPF_UNITS, pos, combat_phase_index=4, **LINE)
    st_ = st_.replace(**{
            "units": {**st_.units, "ua": st_.units["ua"].replace(**{"adverse_phase": 4})}
        }
    )
    b = Board.from_state(sc, st_)
    ev = resolve_combat(b, sc, st_, orders("DE", atk(["de1"], ["us1"])), FixedDice([6]))
    assert combats(ev)[0].fpf == []
    # Phase 3 is two phases back: eligible again.
    st_ = st_.replace(**{
            "units": {**st_.units, "ua": st_.units["ua"].replace(**{"adverse_phase": 3})}
        }
    )
    b = Board.from_state(sc, st_)
    ev = resolve_combat(b, sc, st_, orders("DE", atk(["de1"], ["us1"])), FixedDice([6]))
    assert combats(ev)[0].fpf == ["ua"]


def test_8_41_not_when_adjacent_to_an_enemy_except_across_river() -> None:
    # ua in 0201 touches de1 (0301): no FPF. Across a river: allowed.
    pos = {"de1": "0301", "us1": "0401", "ua": "0201"}
    b, ev = _fpf(pos, [atk(["de1"], ["us1"])], [6])
    assert combats(ev)[0].fpf == []
    b, ev = _fpf(pos, [atk(["de1"], ["us1"])], [6], lines=[("river", ["0201/0301"])])
    assert combats(ev)[0].fpf == ["ua"]


def test_8_41_not_after_being_displaced() -> None:
    # Combat 1: de1 (3) vs us1 (4) -> -1, die 1 -> D1: us1 retreats into 0501, displacing ua to
    # 0601. ua's standing order protects only us2, so it did not fire in combat 1. Combat 2: de2
    # (0901) vs us2 (0801): ua (0601, 2 hexes away) was displaced -> no FPF [8.41].
    units = [
        unit("de1", "DE", attack=3),
        unit("de2", "DE", attack=6),
        unit("us1", "US", defense=4),
        unit("us2", "US", defense=4),
        artillery("ua", "US", 3, 2, 3, defense=1),
    ]
    pos = {"de1": "0301", "us1": "0401", "ua": "0501", "us2": "0801", "de2": "0901"}
    prot = standing(fpf=[{"artillery": "ua", "protect": ["us2"]}])
    sc, st_, b = game(units, pos, standing=prot, **LINE)
    ev = resolve_combat(
        b, sc, st_, orders("DE", atk(["de1"], ["us1"]), atk(["de2"], ["us2"])), FixedDice([1, 6])
    )
    cs = combats(ev)
    assert cs[0].result == "D1" and cs[0].fpf == []
    assert b.unit_hex("ua") == H("0601")
    assert cs[1].fpf == []
    # Control: without combat 1's displacement ua would have fired for us2.
    sc, st_, b = game(units, {**pos, "ua": "0601"}, standing=prot, **LINE)
    ev = resolve_combat(b, sc, st_, orders("DE", atk(["de2"], ["us2"])), FixedDice([6]))
    assert combats(ev)[0].fpf == ["ua"]


def test_8_41_not_after_being_attacked_successfully_this_phase() -> None:
    # Combat 1 hits ua itself (de2 adjacent, 6 vs 1 -> +5, die 1 -> D2); combat 2 on us1: no FPF.
    pos = {"de1": "0301", "us1": "0401", "ua": "0701", "de2": "0801"}
    b, ev = _fpf(pos, [atk(["de2"], ["ua"]), atk(["de1"], ["us1"])], [1, 6])
    cs = combats(ev)
    assert cs[0].result == "D2"
    # ua retreated to 0501: no longer next to an enemy, 1 hex from us1 -- only the hit stops it.
    assert [e.path for e in ev if isinstance(e, RetreatEvent)][0] == ["0701", "0601", "0501"]
    assert cs[1].fpf == []


def test_8_44_fpf_artillery_unaffected_by_result() -> None:
    # 6 vs 4 + 2 = 0 on clear, die 4 -> Br: us1 and de1 retreat; ua stays, no adverse mark.
    b, ev = _fpf({"de1": "0301", "us1": "0401", "ua": "0601"}, [atk(["de1"], ["us1"])], [4])
    assert combats(ev)[0].result == "Br"
    assert b.unit_hex("ua") == H("0601") and b.units["ua"].adverse_phase is None


def test_8_45_no_fpf_against_solely_artillery() -> None:
    units = [
        artillery("art", "DE", 4, 1, 9),
        unit("us1", "US", defense=4),
        artillery("ua", "US", 3, 2, 3),
    ]
    sc, st_, b = game(units, {"art": "0101", "us1": "0401", "ua": "0601"}, **LINE)
    ev = resolve_combat(b, sc, st_, orders("DE", atk([], ["us1"], ["art"])), FixedDice([6]))
    assert combats(ev)[0].fpf == []
    assert b.units["ua"].fpf_turn is None


def test_8_46_fpf_once_per_game_turn() -> None:
    # Default: ua fires for the first attacked unit in range (us1), not again for us2.
    pos = {"de1": "0301", "us1": "0401", "ua": "0601", "us2": "0801", "de2": "0901"}
    b, ev = _fpf(pos, [atk(["de1"], ["us1"]), atk(["de2"], ["us2"])], [6, 6])
    assert [c.fpf for c in combats(ev)] == [["ua"], []]
    # Already fired this game-turn (fpf_turn == 1) -> none at all.
    sc, st_, b = game(FPF_UNITS, pos, **LINE)
    st_ = st_.replace(**{"units": {**st_.units, "ua": st_.units["ua"].replace(**{"fpf_turn": 1})}}
    )
    b = Board.from_state(sc, st_)
    ev = resolve_combat(
        b, sc, st_, orders("DE", atk(["de1"], ["us1"]), atk(["de2"], ["us2"])), FixedDice([6, 6])
    )
    assert [c.fpf for c in combats(ev)] == [[], []]


def test_8_4_standing_orders_choose_the_protected_unit() -> None:
    pos = {"de1": "0301", "us1": "0401", "ua": "0601", "us2": "0801", "de2": "0901"}
    prot = standing(fpf=[{"artillery": "ua", "protect": ["us2"]}])
    b, ev = _fpf(pos, [atk(["de1"], ["us1"]), atk(["de2"], ["us2"])], [6, 6], standing=prot)
    assert [c.fpf for c in combats(ev)] == [[], ["ua"]]
    hold = standing(fpf=[{"artillery": "ua", "protect": []}])
    b, ev = _fpf(pos, [atk(["de1"], ["us1"]), atk(["de2"], ["us2"])], [6, 6], standing=hold)
    assert [c.fpf for c in combats(ev)] == [[], []]


# --------------------------------------------------------------------------------------------------
# Ground support [9.0] and the artillery limit [14.0]
# --------------------------------------------------------------------------------------------------

GS = [{"side": "DE", "from_turn": 2, "points": 5, "rule": "9.0"}]


def test_9_12_split_support_and_9_13_unlimited_range() -> None:
    units = [unit("de1", "DE"), unit("us1", "US"), unit("us2", "US")]
    pos = {"de1": "0101", "us1": "0201", "us2": "1001"}
    sc, st_, b = game(units, pos, game_turn=2, ground_support=GS, **LINE)
    # 3 points with de1 on us1 and 2 points alone on us2, nine hexes away [9.12, 9.13].
    o = orders("DE", atk(["de1"], ["us1"], support=3), atk([], ["us2"], support=2), turn=2)
    assert validate_attacks(b, sc, st_, o) == []
    ev = resolve_combat(b, sc, st_, o, FixedDice([6, 6]))
    assert [c.attack_strength for c in combats(ev)] == [2 + 3, 2]
    changes = combat_state_changes(sc, st_, o, ev)
    assert changes["ground_support_used"] == {"DE": 5}
    assert changes["ground_support_phase"] == {"DE": 1}
    assert changes["combat_phase_index"] == 1


def test_9_14_points_per_game_turn_no_more() -> None:
    units = [unit("de1", "DE"), unit("us1", "US")]
    pos = {"de1": "0101", "us1": "0201"}
    # Before game-turn 2 there are none.
    sc, st_, b = game(units, pos, game_turn=1, ground_support=GS, **LINE)
    v = validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"], support=1)))
    assert rules_of(v) == ["9.14"]
    # 6 > 5 in game-turn 2; and 3 already spent this game-turn leaves 2.
    sc, st_, b = game(units, pos, game_turn=2, ground_support=GS, **LINE)
    v = validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"], support=6), turn=2))
    assert rules_of(v) == ["9.14"]
    sc, st_, b = game(
        units, pos, game_turn=2, ground_support=GS, ground_support_used={"DE": 3}, **LINE
    )
    assert (
        validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"], support=2), turn=2)) == []
    )
    v = validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"], support=3), turn=2))
    assert rules_of(v) == ["9.14"]


def test_15_26_4_support_in_one_combat_phase_only() -> None:
    units = [unit("de1", "DE"), unit("us1", "US")]
    pos = {"de1": "0101", "us1": "0201"}
    sc, st_, b = game(
        units,
        pos,
        game_turn=2,
        ground_support=GS,
        ground_support_used={"DE": 1},
        ground_support_phase={"DE": 2},
        special={"ground_support_one_phase": True},
        **LINE,
    )
    v = validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"], support=1), turn=2))
    assert rules_of(v) == ["15.26.4"]


def test_9_0_support_as_fpf() -> None:
    # US support (5 from turn 1) given as FPF by standing order: 6 vs 4 + 2 = 0.
    units = [unit("de1", "DE", attack=6), unit("us1", "US", defense=4)]
    gs = [{"side": "US", "from_turn": 1, "points": 5, "rule": "9.0"}]
    sc, st_, b = game(
        units,
        {"de1": "0301", "us1": "0401"},
        ground_support=gs,
        standing=standing(fpf_support=2),
        **LINE,
    )
    o = orders("DE", atk(["de1"], ["us1"]))
    ev = resolve_combat(b, sc, st_, o, FixedDice([6]))
    c = combats(ev)[0]
    assert (c.fpf_support, c.defense_strength) == (2, 6)
    assert combat_state_changes(sc, st_, o, ev)["ground_support_used"] == {"US": 2}


def test_14_0_artillery_limit_on_attack() -> None:
    units = [unit("de1", "DE", attack=2), artillery("art", "DE", 3, 1, 9), unit("us1", "US")]
    pos = {"art": "0101", "de1": "0301", "us1": "0401"}
    sc, st_, b = game(units, pos, artillery_limit=True, **LINE)
    # 3 barrage points > 2 attack points of de1 [14.0].
    v = validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"], ["art"])))
    assert rules_of(v) == ["14.0"]
    units[0] = unit("de1", "DE", attack=3)
    sc, st_, b = game(units, pos, artillery_limit=True, **LINE)
    assert validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"], ["art"]))) == []
    # Without the limit 3 > 2 is fine.
    units[0] = unit("de1", "DE", attack=2)
    sc, st_, b = game(units, pos, **LINE)
    assert validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"], ["art"]))) == []


def test_14_0_a_combat_with_no_ground_attacker_is_exempt() -> None:
    # Artillery next to an enemy must attack [8.31]; a combat of artillery alone (adjacent, or
    # barraging from afar beside it) has no ground strength to limit it and is exempt from [14.0].
    units = [artillery("art", "DE", 3, 1, 9), unit("us1", "US")]
    pos = {"art": "0301", "us1": "0401"}
    sc, st_, b = game(units, pos, artillery_limit=True, **LINE)
    assert rules_of(validate_attacks(b, sc, st_, orders("DE"))) == ["7.11", "8.31"]
    assert validate_attacks(b, sc, st_, orders("DE", atk(["art"], ["us1"]))) == []
    units.append(artillery("far", "DE", 3, 1, 9))
    sc, st_, b = game(units, {**pos, "far": "0101"}, artillery_limit=True, **LINE)
    assert validate_attacks(b, sc, st_, orders("DE", atk(["art"], ["us1"], ["far"]))) == []


def test_14_0_adjacent_artillery_counts_against_the_limit() -> None:
    # "Both adjacent and non-adjacent artillery units count against this limit": de1 (3 attack)
    # with an adjacent gun (barrage 2) leaves room for 1 more point, so a barrage of 2 from afar
    # is refused and a barrage of 1 is not.
    units = [unit("de1", "DE", attack=3), artillery("adj", "DE", 2, 1, 9), artillery("far", "DE", 2, 1, 9),
             unit("us1", "US"), unit("us2", "US")]
    pos = {"de1": "0301", "adj": "0501", "far": "0101", "us1": "0401"}
    sc, st_, b = game(units, pos, artillery_limit=True, **LINE)
    v = validate_attacks(b, sc, st_, orders("DE", atk(["de1", "adj"], ["us1"], ["far"])))
    assert rules_of(v) == ["14.0"] and "to 2 of adjacent artillery" in str(v[0])
    units[2] = artillery("far", "DE", 1, 1, 9)
    sc, st_, b = game(units, pos, artillery_limit=True, **LINE)
    assert validate_attacks(b, sc, st_, orders("DE", atk(["de1", "adj"], ["us1"], ["far"]))) == []


def test_14_0_obliged_adjacent_artillery_over_the_limit_is_legal_but_nothing_may_be_added() -> None:
    # de1 (1 attack) and a gun (barrage 3) both next to us1 must attack it together [7.11, 8.31,
    # 7.14]: 3 > 1, yet some attack has to be legal. Our ruling: the obliged gun may exceed the
    # limit on its own, but then no barrage or support may be added [14.0].
    units = [unit("de1", "DE", attack=1), artillery("adj", "DE", 3, 1, 9), artillery("far", "DE", 1, 1, 9),
             unit("us1", "US")]
    pos = {"de1": "0301", "adj": "0501", "far": "0101", "us1": "0401"}
    sc, st_, b = game(units, pos, artillery_limit=True, **LINE)
    assert validate_attacks(b, sc, st_, orders("DE", atk(["de1", "adj"], ["us1"]))) == []
    v = validate_attacks(b, sc, st_, orders("DE", atk(["de1", "adj"], ["us1"], ["far"])))
    assert rules_of(v) == ["14.0"]


def test_14_0_artillery_limit_on_fpf() -> None:
    # us1 defends with 2; ua's FPF 3 would exceed it -> it does not fire; ub's FPF 2 fits.
    units = [
        unit("de1", "DE", attack=6),
        unit("us1", "US", defense=2),
        artillery("ua", "US", 3, 3, 5),
        artillery("ub", "US", 3, 2, 5),
    ]
    pos = {"de1": "0301", "us1": "0401", "ua": "0601", "ub": "0701"}
    sc, st_, b = game(units, pos, artillery_limit=True, **LINE)
    c = combats(resolve_combat(b, sc, st_, orders("DE", atk(["de1"], ["us1"])), FixedDice([6])))[0]
    assert (c.fpf, c.defense_strength) == (["ub"], 4)


# --------------------------------------------------------------------------------------------------
# Displacement and artillery [7.82]
# --------------------------------------------------------------------------------------------------


def test_7_82_barrage_on_displaced_unit_cancelled() -> None:
    # Combat 1: de1 (3) vs us1 (4) die 1 -> D1: us1 retreats into 0501, displacing us2 to 0601.
    # Combat 2, a barrage on us2, may not take place [7.82]; no die is drawn for it.
    units = [
        unit("de1", "DE", attack=3),
        artillery("art", "DE", 5, 1, 9),
        unit("us1", "US", defense=4),
        unit("us2", "US", defense=1),
    ]
    pos = {"art": "0101", "de1": "0301", "us1": "0401", "us2": "0501"}
    sc, st_, b = game(units, pos, **LINE)
    o = orders("DE", atk(["de1"], ["us1"]), atk([], ["us2"], ["art"]))
    assert validate_attacks(b, sc, st_, o) == []
    dice = FixedDice([1])
    ev = resolve_combat(b, sc, st_, o, dice)
    cs = combats(ev)
    assert cs[0].result == "D1" and b.unit_hex("us2") == H("0601")
    assert cs[1].cancelled.endswith("[7.82]")
    assert len(dice.rolls) == 1


def test_7_82_displaced_artillery_cannot_fire() -> None:
    # Combat 1: de1 (1) in 0301 vs us1 (4): -3, die 1 -> A1: de1 retreats into 0201, displacing
    # art to 0101. Combat 2 (art's barrage on us2) loses art and is cancelled [7.82].
    units = [
        unit("de1", "DE", attack=1),
        artillery("art", "DE", 5, 1, 9),
        unit("us1", "US", defense=4),
        unit("us2", "US", defense=1),
    ]
    pos = {"art": "0201", "de1": "0301", "us1": "0401", "us2": "0701"}
    sc, st_, b = game(units, pos, **LINE)
    o = orders("DE", atk(["de1"], ["us1"]), atk([], ["us2"], ["art"]))
    assert validate_attacks(b, sc, st_, o) == []
    dice = FixedDice([1])
    ev = resolve_combat(b, sc, st_, o, dice)
    assert combats(ev)[0].result == "A1"
    assert b.unit_hex("art") == H("0101")
    assert any(isinstance(e, NoteEvent) and e.rule == "7.82" for e in ev)
    assert combats(ev)[1].cancelled
    assert len(dice.rolls) == 1


def test_27_the_preview_states_each_attacks_strengths_line_and_column_as_the_resolution_rolls_them() -> None:
    """[7.5, 7.6, 8.43, 27] two attacks on a one-row map; ua's FPF (2) goes to the first combat
    it can reach [8.43] and is spent [8.46]: attack 1 is 6 against 4 + 2 = 0, attack 2 is 6
    against 4 = +2, both on the clear line (columns "0" and "+2,3" of crt.json). The preview says so before signing, and the
    resolution of the same orders rolls exactly those (dice that leave both defenders in place)."""
    from pbem.systems.westwall.rules import WestWallRules

    rules = WestWallRules()
    sc, st_, _b = game(FPF_UNITS, {"de1": "0301", "us1": "0401", "ua": "0601", "us2": "0801",
                                   "de2": "0901"}, **LINE)
    o = orders("DE", atk(["de1"], ["us1"]), atk(["de2"], ["us2"]))
    assert rules.validate(sc, st_, "DE", o) == []
    said = rules.presenter().expected(sc, st_, "DE", o.to_json())
    assert said == ["attack 1: 6 against 6 (with FPF of ua) = +0 on the clear line, column 0 [7.5, 7.6]",
                    "attack 2: 6 against 4 = +2 on the clear line, column +2,3 [7.5, 7.6], unless earlier "
                    "results change it"]
    res = rules.resolve(sc, st_, "DE", o, FixedDice([6, 6]))
    rolled = [(e["attack_strength"], e["defense_strength"], e["differential"], e["line"], e["column"], e["fpf"])
              for e in res.events if e["type"] == "combat"]
    assert rolled == [(6, 6, 0, "clear", "0", ["ua"]), (6, 4, 2, "clear", "+2,3", [])]
