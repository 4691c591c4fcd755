"""SPI Arnhem [14.11]: Ground Support Points "may only be applied as FPF or Barrage Strength
Points within three hexes of any Allied non-airborne unit" -- the FPF half, westwall/3 against
westwall/2, which checked barrage only (issue 26).

The German g (4) in 0403 attacks the Allied airborne para (defence 2) in 0404; the Allied
standing orders put 2 support points on FPF (4 points this game-turn). The Allied armour xxx is
three hexes from para in 0704, four in 0804. Support as FPF is added to the defence [9.0].
"""

from __future__ import annotations

from typing import Any

from helpers.westwall import state_with, tiny_scenario, unit

from pbem.maps.hexmap import Hex
from pbem.protocol.dice import FixedDice
from pbem.systems.westwall.model import AttackOrder, PlayerTurnOrders, StandingOrders
from pbem.systems.westwall.rules import WestWallRules

V3 = WestWallRules()
V2 = WestWallRules().at_version("2")


def _combat(rules: WestWallRules, armour_at: str) -> dict[str, Any]:
    sc = tiny_scenario(game="arnhem", first_player="US", cols=(1, 12),
                       ground_support=[{"side": "US", "from_turn": 1, "points": 4, "rule": "0.0"}],
                       units=[unit("para", "US", "airborne", 2, 2, 7), unit("xxx", "US", "armor"),
                              unit("g", "DE", "infantry", 4, 4, 7)])
    st = state_with(sc, {"para": "0404", "xxx": armour_at, "g": "0403"}, phasing="DE",
                    standing={"US": StandingOrders(fpf_support=2)})
    orders = PlayerTurnOrders(side="DE", game_turn=1,
                              attacks=[AttackOrder(attackers=["g"], defenders=["para"])])
    assert rules.validate(sc, st, "DE", orders) == []
    res = rules.resolve(sc, st, "DE", orders, FixedDice([6]))
    return next(e for e in res.events if e["type"] == "combat")


def test_14_11_support_as_fpf_only_within_three_hexes_of_a_non_airborne_unit() -> None:
    assert Hex.parse("0704").distance(Hex.parse("0404")) == 3
    assert Hex.parse("0804").distance(Hex.parse("0404")) == 4
    near = _combat(V3, "0704")
    assert (near["fpf_support"], near["defense_strength"]) == (2, 2 + 2)
    far = _combat(V3, "0804")
    assert (far["fpf_support"], far["defense_strength"]) == (0, 2)
    old = _combat(V2, "0804")  # westwall/2 let it fire
    assert (old["fpf_support"], old["defense_strength"]) == (2, 2 + 2)
