"""[27] What a new-user trial left of the player's desk, WestWall side: a drop zone held back
[15.39] said with its turn and hex, 'no legal path' with its case and hex, refusals that cite their
case once, SPI Arnhem's own case numbers in the words a player reads, the same-turn return of an
exited German unit [15.42], the German standing order in words, and `pbem status` naming every
unit without a line of communication [17.35] with what cut it.

Every expected text is built here from the rule it tests, on tiny positions worked out by hand.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers.westwall import state_with, tiny_scenario, unit

from pbem.errors import InputError, RuleViolation
from pbem.systems.westwall.arnhem import seal_note
from pbem.systems.westwall.model import DropZoneNote, MovedEvent, MoveOrder, PlayerTurnOrders, State
from pbem.systems.westwall.presenter import describe_orders, roster, undone
from pbem.systems.westwall.rules import WestWallRules
from systems.westwall.test_ww_citations import _scenario as citations_scenario

R = WestWallRules()
SECRET = bytes(range(32))


# -- [15.39] a drop zone held back ------------------------------------------------------------------

def _held_back(game_turn: int, phasing: str = "US") -> tuple[Any, State]:
    """Two airborne divisions due on Game-Turn 1 round their drop zones [16.11]: the 101st's zone
    placed at 1312; the 1st's noted in secret for 0816 on Game-Turn 2 [15.39]."""
    sc = tiny_scenario(
        game="arnhem", id="tiny-held", first_player="US", cols=(1, 20), rows=(1, 20), last_turn=3,
        units=[unit("g", "DE"), unit("p1", "US", "airborne", 2, 2, 7, formation="101"),
               unit("q1", "US", "airborne", 2, 2, 7, formation="1")],
        deployments=[{"side": "DE", "units": ["g"], "area": [{"hexes": ["0202"]}], "rule": "18.12"}],
        reinforcements=[{"side": "US", "turn": 1, "units": ["p1", "q1"], "rule": "18.13",
                         "airborne": True, "entry": [{"within": 1, "of": ["1010"]}]}],
        special={"dz_free": True, "weather": True, "exit_west": ["0101", "0120"],
                 "exit_east": ["2001", "2020"], "reenter_east": ["2001", "2005"]})
    note = seal_note(SECRET, DropZoneNote(division="1", hex="0816", turn=2))
    st = state_with(sc, {"g": "0202"}, phasing=phasing, game_turn=game_turn,
                    exclusive={"dz": {"101": "1312"}, "dz_commitments": {"1": note.to_json()},
                               "weather": "good", "weather_log": ["good"] * game_turn})
    return sc, st


def _state_of(sc: Any, st: State, uid: str) -> str:
    return next(row[-1] for row in roster(sc, st, "US")[1] if row[0] == uid)


def test_27_15_39_on_its_authors_machine_a_held_back_division_lands_when_and_where_the_note_says() -> None:
    sc, st = _held_back(1)
    own = R.own_notes(sc, st, "US", SECRET)
    # [15.39] not before the zone is placed; [16.11] then within 7 hexes of it
    assert _state_of(sc, own, "q1") == ("lands on Game-Turn 2: within 7 hexes of 0816, where your secret "
                                        "note places the 1 drop zone on Game-Turn 2; none before [15.39]")
    assert _state_of(sc, own, "p1") == "lands on Game-Turn 1: within 7 hexes of the 101 drop zone 1312 [16.11]"
    # what the orders are checked against is untouched: the zone is still a commitment there
    assert "1" not in st.exclusive["dz"] and "dz_noted" not in st.exclusive


def test_27_15_39_elsewhere_its_turn_is_said_to_be_secret() -> None:
    sc, st = _held_back(1)
    assert _state_of(sc, st, "q1") == ("lands later: none until the 1 drop zone is placed, on the "
                                       "Game-Turn the Allied player noted in secret [15.39]")
    assert R.own_notes(sc, st, "US", bytes(32)) == st  # another key opens no note


def test_27_15_39_on_its_turn_the_division_lands_round_the_zone_these_orders_place() -> None:
    sc, st = _held_back(2)
    own = R.own_notes(sc, st, "US", SECRET)
    assert own.exclusive["dz"] == {"1": "0816", "101": "1312"}
    assert _state_of(sc, own, "q1") == ("lands on Game-Turn 2: within 7 hexes of the 1 drop zone 0816, which "
                                        "your orders of this player-turn place there as noted [15.39, 16.11]")
    # the preview's "left undone" sees the zone these orders place: q1 may land now [15.23]
    assert undone(sc, own, "US", R.skeleton(sc, own, "US"))[0] == \
        "2 reinforcements due by this game-turn stay off the map: p1, q1 [15.23]"
    # the German player-turn of Game-Turn 2 reveals nothing: still a note for the Allied player
    sc, de = _held_back(2, phasing="DE")
    assert "1" not in R.own_notes(sc, de, "US", SECRET).exclusive["dz"]


def test_27_15_39_a_held_back_division_is_due_later_not_left_off_the_map() -> None:
    sc, st = _held_back(1)
    own = R.own_notes(sc, st, "US", SECRET)
    text = R.presenter().orders_template(sc, own, "US") or ""
    later = text.split("# Due later, off the map (not this Game-Turn):\n", 1)[1].splitlines()[0]
    assert later.split()[1] == "q1"
    left = undone(sc, own, "US", R.skeleton(sc, own, "US"))
    # [15.23] only p1 may land now and stays off; q1 may not land before Game-Turn 2 [15.39]
    assert left[0] == "1 reinforcement due by this game-turn stays off the map: p1 [15.23]"


# -- 'no legal path': the case and the hex [27] ----------------------------------------------------

def _normalize_error(sc: Any, st: State, *moves: dict[str, Any]) -> str:
    orders = {"kind": "player-turn", "side": st.phasing, "game_turn": st.game_turn, "moves": list(moves)}
    with pytest.raises(InputError) as exc:
        R.normalize(sc, st, st.phasing, orders)
    return str(exc.value)


def test_27_5_14_no_legal_path_from_an_enemy_zone_of_control_names_it() -> None:
    sc = tiny_scenario(units=[unit("a", "US"), unit("g", "DE")], first_player="US")
    st = state_with(sc, {"a": "0404", "g": "0405"}, phasing="US")  # 0405 is next to 0404 [6.0]
    assert _normalize_error(sc, st, {"unit": "a", "to": "0402"}) == (
        "move of a: no legal path to 0402 this movement phase: it starts in an enemy zone of control "
        "in 0404 (of g) and may not leave it [5.14]")


def test_27_5_12_no_legal_path_into_an_enemy_unit_names_it() -> None:
    sc = tiny_scenario(units=[unit("a", "US"), unit("g", "DE")], first_player="US")
    st = state_with(sc, {"a": "0101", "g": "0707"}, phasing="US")
    assert _normalize_error(sc, st, {"unit": "a", "to": "0707"}).endswith(
        ": enemy unit g is in 0707 [5.12]")


def test_27_5_13_a_hex_too_far_names_the_nearest_it_can_reach() -> None:
    # a 1-MP unit on clear terrain [5.21]: from 0101 it reaches the hexes next to it; 0104 is
    # 3 hexes off, and of the hexes it reaches 0102 is the nearest to 0104 (2 hexes)
    sc = tiny_scenario(units=[unit("a", "US", move=1), unit("g", "DE")], first_player="US")
    st = state_with(sc, {"a": "0101", "g": "0808"}, phasing="US")
    assert _normalize_error(sc, st, {"unit": "a", "to": "0104"}) == (
        "move of a: no legal path to 0104 this movement phase: 0104 is beyond its reach from 0101 this "
        "Movement Phase (1 MP; a unit stops in the first enemy zone of control it enters) [5.13, 6.0]; "
        "the nearest hex it can reach is 0102 (1 MP)")


def test_27_an_entry_hex_that_is_not_its_own_is_named_with_the_schedules_case() -> None:
    sc = citations_scenario("arnhem", "15.41")  # r enters on Game-Turn 2 at 0803-0805 ("18.1")
    st = state_with(sc, {"u": "0105", "g": "0707", "h": "0303"}, phasing="US", game_turn=2)
    assert _normalize_error(sc, st, {"unit": "r", "path": ["0802"], "to": "0702"}) == (
        "entry of r: no legal path from 0802 to 0702 this movement phase: 0802 is not one of its entry "
        "hexes (east edge 0803-0805) [18.1]")


def test_27_an_entry_whose_destination_is_out_of_reach_blames_the_destination_not_the_entry_hex() -> None:
    sc = citations_scenario("arnhem", "15.41")  # r: 2 MP; clear hexes cost 1 [5.21]
    st = state_with(sc, {"u": "0105", "g": "0101", "h": "0303"}, phasing="US", game_turn=2)
    said = _normalize_error(sc, st, {"unit": "r", "path": ["0804"], "to": "0504"})
    assert said.startswith("entry of r: no legal path from 0804 to 0504 this movement phase: 0504 is "
                           "beyond its reach from 0804 this Movement Phase (2 MP;")
    assert "entry hexes" not in said


# -- a case cited once [27] ----------------------------------------------------------------------

def test_27_a_refusal_cites_its_case_once() -> None:
    assert str(RuleViolation("15.12", "x cannot enter at 0101 (hex 0105 [15.12])")) == \
        "x cannot enter at 0101 (hex 0105 [15.12])"
    assert str(RuleViolation("8.11", "gun in 0101 (range 3) is 4 hexes from the nearest defender (g) [8.12]")) == \
        "gun in 0101 (range 3) is 4 hexes from the nearest defender (g) [8.11, 8.12]"
    assert str(RuleViolation("5.14", "a cannot leave 0404")) == "a cannot leave 0404 [5.14]"


def test_27_a_set_up_outside_its_area_cites_the_area_case_once() -> None:
    from pbem.systems.westwall.model import SetupOrders

    sc = tiny_scenario(units=[unit("a", "US"), unit("g", "DE")], first_player="US",
                       deployments=[{"side": "US", "units": ["a"], "rule": "15.12",
                                     "area": [{"hexes": ["0101"], "text": "hex 0101 [15.12]"}]}])
    st = R.initial_state(sc, {})
    (v,) = R.validate(sc, st, "US", SetupOrders(side="US", placements={"a": "0202"}))
    assert str(v) == "a cannot set up in 0202: outside its area (hex 0101 [15.12])"


# -- SPI Arnhem's own cases in the words a player reads [27] -------------------------------------

def test_27_spi_arnhem_says_entry_exit_and_withholding_with_its_own_cases() -> None:
    presenter = R.presenter()
    moved = MovedEvent(unit="r", path=["0804", "0704"], mp_halves=4, entered=True)
    left = MovedEvent(unit="g", path=["0101"], mp_halves=2, exited=True)
    for game, entry, exited in (("arnhem", "15.11", "15.4"), ("bastogne", "11.11", "12.0")):
        sc = citations_scenario(game, "15.41")
        st = state_with(sc, {"u": "0105", "g": "0707", "h": "0303"}, phasing="US", game_turn=2)
        told = presenter.narrate(sc, [moved, left])
        assert told[0].endswith(f"(2 MP) [{entry}]") and told[1].endswith(f"and left the map [{exited}]")
        view = presenter.map_view(sc, st, [])
        assert (view.own_entry_heading, view.own_exited_heading) == \
            (f"Reinforcement entry [{entry}]", f"Exited [{exited}]")
        withheld = "[15.23]" if game == "arnhem" else "[11.22]"  # reinforcements withheld
        assert undone(sc, st, "US", R.skeleton(sc, st, "US"))[0].endswith(f": r, tk {withheld}")


def test_27_drawing_3_heads_the_legend_with_the_games_own_case_and_older_drawings_keep_theirs() -> None:
    from pbem.render.svg import draw

    sc = citations_scenario("arnhem", "15.41")
    st = state_with(sc, {"u": "0105", "g": "0707", "h": "0303"}, phasing="US", game_turn=2)
    view = R.presenter().map_view(sc, st, [])
    assert "Reinforcement entry [15.11]" in draw(view) and "Reinforcement entry [11.11]" not in draw(view)
    for older in (1, 2):  # an archived map redraws as it was drawn [verify --redraw]
        assert "Reinforcement entry [11.11]" in draw(view, drawing=older)


def test_27_15_42_an_exited_german_unit_is_told_it_may_come_back_on_a_later_turn() -> None:
    sc = citations_scenario("arnhem", "15.41")
    de = state_with(sc, {"u": "0505", "g": "0102", "h": "0303"}, phasing="DE", game_turn=2, exited=["e"])
    de = de.replace(**{"units": {**de.units, "e": de.units["e"].replace(**{"exit_edge": "west", "exit_turn": 2})}})
    orders = PlayerTurnOrders(side="DE", game_turn=2, moves=[MoveOrder(unit="e", path=["0101"])])
    assert [str(v) for v in R.validate(sc, de, "DE", orders)] == [
        "e left the map on Game-Turn 2: it may come back by the west edge from Game-Turn 3 on, not in the "
        "Game-Turn it left [15.42]"]


def test_27_12_12_the_german_standing_order_on_bridges_reads_in_words() -> None:
    sc = citations_scenario("arnhem", "15.41")
    said = describe_orders(sc, {"kind": "player-turn", "side": "DE", "game_turn": 2})
    assert said == ["Standing: every canal and rail bridge is to be demolished, if the die allows, when the "
                    "first Allied unit reaches it (a 'spare bridge HEX/HEX' order keeps one) [12.12]"]


# -- [17.35] pbem status: every unit without a line of communication, and what cut it ------------

def test_27_17_35_status_names_the_unit_without_a_line_and_the_enemy_that_cut_it() -> None:
    """A one-row map 0101-0801: the airborne p1 at 0101 traces to its drop zone at 0501 through
    0201-0401 [17.32]; g at 0301 holds 0201 in its zone of control, which no friendly unit negates
    [17.33]: cut by g at 0201, the first hex of the line it closes."""
    sc = tiny_scenario(game="arnhem", id="tiny-loc", first_player="US", cols=(1, 8), rows=(1, 1),
                       units=[unit("g", "DE"), unit("p1", "US", "airborne", 2, 2, 7, formation="101")],
                       reinforcements=[{"side": "US", "turn": 1, "units": ["p1"], "rule": "18.13",
                                        "airborne": True, "entry": [{"within": 1, "of": ["0101"]}]}],
                       special={"exit_west": ["0101", "0101"], "exit_east": ["0801", "0801"],
                                "reenter_east": ["0801", "0801"]})
    st = state_with(sc, {"g": "0301", "p1": "0101"}, phasing="DE", exclusive={"dz": {"101": "0501"}})
    assert R.presenter().cut_off(sc, st) == [
        "p1 in 0101: no line of communication now: cut by g at 0201 (3 German points if still so at the end "
        "of the game-turn) [17.35]"]
    st = state_with(sc, {"g": "0701", "p1": "0101"}, phasing="DE", exclusive={"dz": {"101": "0501"}})
    assert R.presenter().cut_off(sc, st) == []  # g at 0701: its zone reaches 0601 and 0801 only
