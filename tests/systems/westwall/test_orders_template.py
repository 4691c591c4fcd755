"""[27] `pbem orders --text` for WestWall: a commented template for every decision, with the side's
own units and example lines written with their ids and hexes that are legal now. The template
unedited orders nothing; with its example lines uncommented it is accepted and signed as written."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from helpers.protocol import ok, pbem

EXAMPLE = re.compile(r"^# ((?:place|dz|move|enter|land) \S.*?)\s+# ")


def uncomment_examples(template: str) -> str:
    """The template with every example order line made an order (comments and the rest stay)."""
    return "\n".join(EXAMPLE.sub(r"\1  # ", line) for line in template.splitlines()) + "\n"


def game(tmp_path: Path, scenario: str) -> tuple[Path, Path]:
    home = tmp_path / "home"
    ok(pbem("key", "new", "alice", home=home))
    ok(pbem("key", "new", "bob", home=home))
    g = tmp_path / "g"
    sides = ("DE=alice", "US=bob") if scenario.startswith("bastogne") else ("DE=alice", "AL=bob")
    ok(pbem("new", scenario, g, "--player", sides[0], "--player", sides[1], home=home))
    return home, g


def sign_template(tmp_path: Path, home: Path, g: Path, side: str, key: str, *, fill: bool = True) -> str:
    template = ok(pbem("orders", g, "--side", side, "--text", home=home)).out
    assert all(line.startswith("#") or line == "acknowledge" for line in template.splitlines() if line), template
    path = tmp_path / f"{side}.txt"
    path.write_text(uncomment_examples(template) if fill else template)
    ok(pbem("submit", g, path, "--key", key, "--yes", home=home))
    return template


def test_27_bastogne_set_up_and_first_player_turn_from_the_template(tmp_path: Path) -> None:
    home, g = game(tmp_path, "bastogne-spearhead")
    template = sign_template(tmp_path, home, g, "US", "bob")
    assert "# place 20 at " in template and "every unit" in template
    template = sign_template(tmp_path, home, g, "DE", "alice")
    # the German reinforcements due are listed with where they enter, and one enters in the example
    assert "#   1/3        1/3        enters on Game-Turn 1: hex 2913" in template
    assert re.search(r"^# enter \S+ at 2913 to \d{4}\s+# a reinforcement enters \[11\.11\]", template, re.M)
    log = ok(pbem("log", g, home=home)).out
    entered = re.search(r"^# enter (\S+) at 2913 to (\d{4})", template, re.M)
    assert entered is not None and f"{entered.group(1)} " in log and entered.group(2) in log
    # the U.S. player-turn: the template's move example, then a pass written as 'pass'
    template = ok(pbem("orders", g, "--side", "US", "--text", home=home)).out
    assert "Your units on the map" in template and re.search(r"^# move \S+ to \d{4}", template, re.M)
    assert "# pass " in template
    (tmp_path / "pass.txt").write_text("pass\n")
    ok(pbem("submit", g, tmp_path / "pass.txt", "--key", "bob", "--yes", home=home))
    ok(pbem("verify", g, home=home))


def test_3_0_a_text_set_up_that_leaves_units_out_names_defaults(tmp_path: Path) -> None:
    """[3.0, 15.12] a trial: the set-up template checked as printed (every line a comment) was
    refused unit by unit ("2 must be set up [15.12]" ...) with no word of --defaults, the flag that
    places what is left out where the template proposes. The refusal now says it once, after the
    list; with the flag the same file is legal. A set-up that places every unit but breaks a rule
    gets no such note."""
    home, g = game(tmp_path, "bastogne-spearhead")
    template = ok(pbem("orders", g, "--side", "US", "--text", home=home)).out
    assert "'pbem submit --defaults' places the units you" in template
    path = tmp_path / "us.txt"
    path.write_text(template)
    for command in ("check", "submit"):
        res = pbem(command, g, path, "--key", "bob", home=home)
        assert res.code == 2 and "2 must be set up [15.12]" in res.err, res.err
        assert res.err.rstrip().endswith("9 units of the set-up are not placed: write a line for each, or give "
                                         "--defaults and pbem places what is left out, around yours, as "
                                         "'pbem orders --text' proposes"), res.err
    assert "legal:" in ok(pbem("check", g, path, "--key", "bob", "--defaults", home=home)).err
    placed = uncomment_examples(template).splitlines()
    first = next(i for i, line in enumerate(placed) if line.startswith("place "))
    placed[first] = re.sub(r"at \d{4}", "at 2901", placed[first])  # hexrow 2900: no set-up there [15.12]
    path.write_text("\n".join(placed) + "\n")
    res = pbem("check", g, path, "--key", "bob", home=home)
    assert res.code == 2 and "[15.12]" in res.err and "--defaults" not in res.err, res.err


def test_15_12_5_24_every_unit_of_the_proposed_us_set_up_can_move(tmp_path: Path) -> None:
    """[15.12, 5.24, 5.31] the U.S. set-up as pbem proposes it, signed unedited: on the first U.S.
    player-turn every unit has somewhere to go (the proposal put armor 2 at 0102, whose every
    neighbour is broken or rough terrain it may never enter except along a road, and the other
    mechanized units in the clear hexes of column 01 beside it, which they could only swap)."""
    home, g = game(tmp_path, "bastogne-spearhead")
    template = sign_template(tmp_path, home, g, "US", "bob")
    placed = re.findall(r"^# place (\S+) at (\d{4})", template, re.M)
    assert sorted(uid for uid, _h in placed) == ["2", "20", "3", "420", "52", "58", "73", "811", "90"]
    # the proposal defends Bastogne: every unit within three hexes of one of its two labelled hexes
    # (the first free hexes by number put five units on the map's west edge, ten hexes away)
    from pbem.engine.scenarios import load_data
    from pbem.maps.hexmap import Hex
    from pbem.systems.westwall.model import Scenario

    town = [Hex.parse(p.hex) for p in Scenario.parse(load_data("bastogne-spearhead")).map.places
            if p.name == "Bastogne"]
    assert len(town) == 2
    assert all(min(Hex.parse(h).distance(t) for t in town) <= 3 for _uid, h in placed), placed
    (tmp_path / "pass.txt").write_text("pass\n")
    ok(pbem("submit", g, tmp_path / "pass.txt", "--key", "alice", "--yes", home=home))
    assert "U.S. player-turn" in ok(pbem("status", g, home=home)).out
    for uid, h in placed:
        reach = ok(pbem("reach", g, uid, home=home)).out
        assert f"in {h}:" in reach.splitlines()[0], reach
        assert "nowhere this phase" not in reach, reach
        assert re.search(r"^  \d{4}  ", reach, re.M), reach


def test_27_the_unedited_template_orders_nothing(tmp_path: Path) -> None:
    home, g = game(tmp_path, "bastogne-spearhead")
    sign_template(tmp_path, home, g, "US", "bob")
    sign_template(tmp_path, home, g, "DE", "alice", fill=False)  # every line a comment: no orders
    units = ok(pbem("units", g, "--side", "DE", home=home)).out
    row = next(line.split() for line in units.splitlines() if line.startswith("1/3 "))
    assert row[3] == "-"  # 1/3 did not enter: nothing the template shows as an example was ordered
    assert "U.S. player-turn" in ok(pbem("status", g, home=home)).out


def test_27_spi_arnhem_drop_zones_the_reveal_and_the_landings_from_the_template(tmp_path: Path) -> None:
    home, g = game(tmp_path, "arnhem-alternate")
    template = sign_template(tmp_path, home, g, "AL", "bob")  # the secret drop-zone notes [15.36]
    assert len(re.findall(r"^# dz \S+ at \d{4}", template, re.M)) == 3
    sign_template(tmp_path, home, g, "DE", "alice")  # the German set-up, every unit placed
    template = ok(pbem("orders", g, "--side", "AL", "--text", home=home)).out
    assert "Nothing is left to place: this step reveals what your set-up sealed [15.36]" in template
    assert "'pbem draft pass GAME_DIR'" in template
    ok(pbem("draft", "pass", g, home=home))
    ok(pbem("submit", g, "--key", "bob", "--yes", home=home))  # the reveal, from the draft
    template = sign_template(tmp_path, home, g, "AL", "bob")  # the first Allied player-turn
    # the landings the weather allows [16.12], proposed together, signed as written
    landed = re.findall(r"^# land (\S+) at (\d{4})\s+# lands \[15\.31\]", template, re.M)
    assert landed, template
    log = ok(pbem("log", g, home=home)).out
    assert all(f"{u} lands at {h}" in log for u, h in landed), log
    ok(pbem("verify", g, home=home))


def test_27_15_36_the_drop_zone_preview_shows_each_hex_and_turn_the_commitment_seals(tmp_path: Path) -> None:
    """[15.36, 15.39, 27] the signed set-up holds only commitments; the preview on the author's
    machine says what they commit to: each division's hex and Game-Turn, the delay included."""
    home, g = game(tmp_path, "arnhem-alternate")
    notes = tmp_path / "dz.txt"
    notes.write_text("dz 1 at 3719\ndz 101 at 1103\ndz 82 at 2123 turn 2\n")
    shown = ok(pbem("check", g, notes, "--key", "bob", home=home)).out
    assert "Secret drop zone of 1: 3719, placed on Game-Turn 1 -- sealed" in shown
    assert "Secret drop zone of 82: 2123, placed on Game-Turn 2 (held back [15.39]) -- sealed" in shown
    assert "Drop zones noted and sealed for: 1, 101, 82" in shown


def test_27_15_31_a_landing_previews_as_a_landing_and_an_entry_as_an_entry(tmp_path: Path) -> None:
    """[11.11, 15.31, 27] the preview of a reinforcement's move says how it arrives: an airborne
    unit lands at its first hex, a ground unit enters there (they read "moves to" before)."""
    home, g = game(tmp_path, "arnhem-alternate")
    sign_template(tmp_path, home, g, "AL", "bob")
    sign_template(tmp_path, home, g, "DE", "alice")
    ok(pbem("draft", "pass", g, home=home))
    ok(pbem("submit", g, "--key", "bob", "--yes", home=home))
    template = ok(pbem("orders", g, "--side", "AL", "--text", home=home)).out
    landed = re.search(r"^# (land (\S+) at (\d{4}))", template, re.M)
    assert landed is not None
    orders = tmp_path / "land.txt"
    orders.write_text(landed.group(1) + "\nenter 153 at 0105 to 0106\n")
    shown = ok(pbem("check", g, orders, "--key", "bob", home=home)).out
    assert f"  . {landed.group(2)} lands at {landed.group(3)} [15.31]" in shown
    # SPI Arnhem's own entry case [15.11], not Bastogne's 11.11, and the one the result cites
    assert "  . 153 enters at 0105 [15.11], then moves to 0106" in shown
    assert "moves to " + landed.group(3) not in shown
    ok(pbem("submit", g, orders, "--key", "bob", "--yes", home=home))
    log = ok(pbem("log", g, home=home)).out
    assert re.search(r"153 entered the map at 0105 and moved 0105 → 0106 \([^)]*MP\) \[15\.11\]", log), log


def test_27_15_31_the_bots_orders_say_a_landing_as_the_preview_does(tmp_path: Path) -> None:
    """[15.31, 27] `pbem bot` prints the orders it signs in words: an airborne unit's first hex is
    where it lands, as `pbem check` says it (it read "3/502 moves to 1801" before)."""
    import json

    home, g = game(tmp_path, "arnhem-alternate")
    sign_template(tmp_path, home, g, "AL", "bob")
    sign_template(tmp_path, home, g, "DE", "alice")
    ok(pbem("draft", "pass", g, home=home))
    ok(pbem("submit", g, "--key", "bob", "--yes", home=home))
    template = ok(pbem("orders", g, "--side", "AL", "--text", home=home)).out
    airborne = set(re.findall(r"^#   (\S+) .* lands on Game-Turn 1: ", template, re.M))
    assert airborne
    res = ok(pbem("bot", g, "--side", "AL", "--key", "bob", "--dry-run", home=home))
    landings = [(m["unit"], m["path"]) for m in json.loads(res.out)["moves"] if m["unit"] in airborne]
    assert landings  # the bot lands the airborne units due
    for uid, path in landings:
        said = f"  {uid} lands at {path[0]} [15.31]"
        if len(path) > 1:
            said += f", then moves to {path[-1]}"
        assert said in res.err.splitlines() or any(
            line.startswith(said + " via ") for line in res.err.splitlines()), (uid, path, res.err)
        assert f"  {uid} moves to " not in res.err


def test_27_7_11_8_31_the_template_says_which_attacks_the_rules_demand_and_its_exact_path_starts_next_door() -> None:
    """[7.11, 8.31, 27] a U.S. gun stands next to a German unit: the template of the U.S.
    player-turn lists what an empty player-turn is refused for (the rules' own check) and offers an
    attack with the gun; the exact-path example starts at a hex next to the unit (the path is every
    hex entered, the start hex not among them)."""
    from helpers.westwall import artillery, state_with, tiny_scenario, unit

    from pbem.maps.hexmap import Hex
    from pbem.systems.westwall.rules import WestWallRules

    rules = WestWallRules()
    sc = tiny_scenario(cols=(1, 8), rows=(1, 8), first_player="US",
                       units=[artillery("gun", "US"), unit("inf", "US"), unit("g", "DE")])
    st = state_with(sc, {"gun": "0303", "g": "0403", "inf": "0707"}, phasing="US")
    text = rules.presenter().orders_template(sc, st, "US") or ""
    refused = [str(v) for v in rules.validate(sc, st, "US", rules.skeleton(sc, st, "US"))]
    assert refused and all(f"#   - {v}" in text for v in refused)
    assert "# attack g with gun advance gun 1" in text
    exact = next(line for line in text.splitlines() if line.startswith("# move inf via "))
    first = exact.split(" via ")[1].split()[0]
    assert Hex.parse(first).distance(Hex.parse("0707")) == 1, exact


def test_27_8_4_the_preview_states_the_standing_orders_signed_with_a_player_turn() -> None:
    """[7.7, 8.4, 27] a player-turn signs standing orders for the enemy's next player-turn: the
    preview says each of them (a tester found FPF signed with no word of it before signing)."""
    from helpers.westwall import artillery, state_with, tiny_scenario, unit

    from pbem.systems.westwall.rules import WestWallRules

    rules = WestWallRules()
    sc = tiny_scenario(cols=(1, 8), rows=(1, 8), first_player="US",
                       units=[artillery("gun", "US"), unit("inf", "US"), unit("g", "DE")])
    st = state_with(sc, {"gun": "0303", "g": "0808", "inf": "0505"}, phasing="US")
    p = rules.presenter()
    doc = p.read_text_orders(sc, rules.skeleton(sc, st, "US"), "US",
                             "fpf gun protects inf\nretreat inf toward 0101\n")
    signed = rules.dump_orders(sc, rules.normalize(sc, st, "US", rules.load_orders(sc, doc)))
    assert signed["standing"]["fpf"] == [{"artillery": "gun", "protect": ["inf"]}]
    lines = p.describe_orders_at(sc, st, signed)
    assert ("Standing orders for the enemy's next player-turn (new): gun gives FPF to inf [8.4]; "
            "inf retreats toward 0101 [7.7]") in lines


def test_27_pass_beside_other_orders_is_refused_for_what_it_is(tmp_path: Path) -> None:
    """[27] 'pass' alone signs no orders; written beside other orders it is refused as such (it
    read "unknown order 'pass'")."""
    home, g = game(tmp_path, "bastogne-spearhead")
    sign_template(tmp_path, home, g, "US", "bob")
    both = tmp_path / "both.txt"
    both.write_text("enter 1/3 at 2913 to 2812\npass\n")
    res = pbem("check", g, both, "--key", "alice", home=home)
    assert res.code == 2 and "line 2: 'pass' means no orders at all" in res.err


def test_15_32_reach_of_an_airborne_unit_says_where_it_lands_and_what_landing_cost(tmp_path: Path) -> None:
    """[15.31, 15.32] `pbem reach` for an airborne unit due: its paths start where it lands
    (within one hex of its drop zone, 3719 for the British 1st Airborne [18.13]) and its costs
    count the Movement Points spent on landing: 1/1, a 2-2-7, has 3 left once landed, so 4 of its
    7 are spent (it read "entering the map [15.11]" with the landing hex among the "via" hexes)."""
    from pbem.maps.hexmap import Hex

    home, g = game(tmp_path, "arnhem-historical")
    sign_template(tmp_path, home, g, "DE", "alice")  # the German set-up: then the first Allied turn
    out = ok(pbem("reach", g, "1/1", home=home)).out.splitlines()
    assert out[0] == ("1/1 (2-2-7, 7 MP) landing [15.31]: 3 MP left once landed, so each cost "
                      "counts 4 spent on landing [15.32]:")
    drop = Hex.parse("3719")
    area = {str(h) for h in (drop, *drop.neighbours())}
    lines = [line.split() for line in out[1:] if line.startswith("  ") and "landing" in line]
    assert lines and len(lines) == len([line for line in out[1:] if line.startswith("  ")])
    for words in lines:
        landed = words[0] if words[-1] == "there" else words[words.index("at") + 1].rstrip(",")
        assert landed in area, words
    assert not any("entering the map" in line for line in out)


def test_the_us_set_up_email_writes_the_possessive_of_united_states_as_english_does(tmp_path: Path) -> None:
    """The email of a move names its sender's orders and signature: "United States' orders",
    "United States' signature" (they read "United States's")."""
    import email
    import email.policy

    home, g = game(tmp_path, "bastogne-spearhead")
    sign_template(tmp_path, home, g, "US", "bob")
    msg = email.message_from_bytes((g / "mail-0001.eml").read_bytes(), policy=email.policy.default)
    text = msg.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    assert "United States' orders:" in text and "your pbem checks United States' signature" in text
    assert "States's" not in text


def test_27_8_4_the_standing_orders_in_force_are_listed_as_lines_that_give_them_again() -> None:
    """[8.4, 27] the template lists the standing orders in force as the lines that give them, for a
    player who writes new ones (any line replaces them all) and wants to keep these: FPF for any unit
    read 'fpf gun protects any unit it can reach (written in JSON orders only)', which is refused as
    a line ('any' is no unit), though 'fpf gun protects' gives exactly that order."""
    from helpers.westwall import artillery, state_with, tiny_scenario, unit

    from pbem.systems.westwall.model import FpfOrder, StandingOrders
    from pbem.systems.westwall.rules import WestWallRules

    rules = WestWallRules()
    sc = tiny_scenario(cols=(1, 8), rows=(1, 8), first_player="US",
                       units=[artillery("gun", "US"), artillery("how", "US"), unit("inf", "US"),
                              unit("g", "DE")])
    kept = StandingOrders(fpf=[FpfOrder(artillery="gun", protect=["*"]),
                               FpfOrder(artillery="how", protect=["inf"])])
    st = state_with(sc, {"gun": "0303", "how": "0304", "g": "0808", "inf": "0505"}, phasing="US",
                    standing={"US": kept})
    p = rules.presenter()
    text = p.orders_template(sc, st, "US") or ""
    head = "# replaces all of them; with none, those in force stay:"
    assert head in text, text
    listed = text.split(head, 1)[1].splitlines()[1:]
    lines = [line.removeprefix("#   ") for line in listed if line.startswith("#   fpf ")]
    assert len(lines) == 2, text
    doc = p.read_text_orders(sc, rules.skeleton(sc, st, "US"), "US", "\n".join(lines) + "\n")
    signed = rules.dump_orders(sc, rules.normalize(sc, st, "US", rules.load_orders(sc, doc)))
    assert signed["standing"]["fpf"] == [{"artillery": "gun", "protect": ["*"]},
                                         {"artillery": "how", "protect": ["inf"]}]


def _on_map_and_due(g_hex: str) -> tuple[Any, Any, Any, Any]:
    """A tiny map for the [11.11] cases: US ``inf`` on the map in 0505, US ``new`` due to enter at
    0101 on Game-Turn 1, German ``g`` in ``g_hex``; the rules, scenario, state and presenter."""
    from helpers.westwall import state_with, tiny_scenario, unit

    from pbem.systems.westwall.rules import WestWallRules

    rules = WestWallRules()
    sc = tiny_scenario(cols=(1, 8), rows=(1, 8), first_player="US",
                       units=[unit("inf", "US"), unit("new", "US"), unit("g", "DE")],
                       reinforcements=[{"side": "US", "turn": 1, "units": ["new"], "rule": "15.15",
                                        "entry": [{"hexes": ["0101"]}]}])
    st = state_with(sc, {"inf": "0505", "g": g_hex}, phasing="US", game_turn=1)
    return rules, sc, st, rules.presenter()


def test_11_11_enter_at_for_a_unit_on_the_map_says_it_is_on_the_map() -> None:
    """[11.11, 27] a trial: a German player reused last turn's 'enter 2-rcn at 2913 to 1316' once
    2-rcn was on the map, and read "move of 2-rcn: 'to' 1316 is not the end of its path" -- no case,
    no reason. It now says the unit is on the map, that 'enter ... at' is for a reinforcement, and
    what to write instead; the same line for a unit still off the map is an entry, as before."""
    import pytest

    from pbem.errors import InputError

    rules, sc, st, p = _on_map_and_due("0808")
    doc = p.read_text_orders(sc, rules.skeleton(sc, st, "US"), "US", "enter inf at 0101 to 0303\n")
    with pytest.raises(InputError) as err:
        rules.normalize(sc, st, "US", rules.load_orders(sc, doc))
    assert str(err.value) == ("inf is on the map already (in 0505): 'enter ... at HEX' is for a reinforcement "
                              "off the map [11.11]; write 'move inf to 0303'")
    doc = p.read_text_orders(sc, rules.skeleton(sc, st, "US"), "US", "enter new at 0101 to 0303\n")
    moved = rules.dump_orders(sc, rules.normalize(sc, st, "US", rules.load_orders(sc, doc)))
    assert moved["moves"][0]["path"][0] == "0101" and moved["moves"][0]["path"][-1] == "0303"


def test_15_31_15_33_the_first_allied_player_turn_lists_a_landing_for_every_airborne_unit(tmp_path: Path) -> None:
    """[15.31, 15.33, 15.34] SPI Arnhem, Game-Turn 1: every airborne unit due must land, each in an
    empty hex near its drop hex. The template listed one example landing, so a new player wrote
    twenty-six lines by hand; it now proposes a landing for each, in hexes of their own, which,
    uncommented, are signed as written."""
    home, g = game(tmp_path, "arnhem-historical")
    sign_template(tmp_path, home, g, "DE", "alice")  # the German set-up as proposed
    template = ok(pbem("orders", g, "--side", "AL", "--text", home=home)).out
    due = re.findall(r"^#   (\S+)\s+\S+\s+lands on Game-Turn 1:", template, re.M)
    landings = re.findall(r"^# land (\S+) at (\d{4})\s+# lands \[15\.31\]", template, re.M)
    assert len(due) == 26 and sorted(u for u, _h in landings) == sorted(due), template
    assert len({h for _u, h in landings}) == len(landings)  # one unit a hex [15.33]
    assert not re.search(r"# an airborne unit lands", template)  # no second line for one of them
    (tmp_path / "land.txt").write_text("".join(f"land {u} at {h}\n" for u, h in landings))
    ok(pbem("submit", g, tmp_path / "land.txt", "--key", "bob", "--yes", home=home))
    log = ok(pbem("log", g, home=home)).out
    assert all(f"{u} lands at {h}" in log for u, h in landings), log


def test_16_12_in_good_weather_the_template_proposes_the_25_landings_the_weather_allows(tmp_path: Path) -> None:
    """[16.12, 15.31, 15.33] SPI Arnhem with weather, Game-Turn 1 (good weather): 26 airborne units
    are due and at most 25 may land. The template proposed all 26 together, which the rules refuse,
    so it fell back to one example line; it now proposes 25, names the one that waits, and the 25
    lines uncommented are signed as written."""
    home, g = game(tmp_path, "arnhem-historical-weather")
    sign_template(tmp_path, home, g, "DE", "alice")  # the German set-up as proposed
    template = ok(pbem("orders", g, "--side", "AL", "--text", home=home)).out
    due = re.findall(r"^#   (\S+)\s+\S+\s+lands on Game-Turn 1:", template, re.M)
    landings = re.findall(r"^# land (\S+) at (\d{4})\s+# lands \[15\.31\]", template, re.M)
    assert len(due) == 26 and len(landings) == 25, template
    waits = sorted(set(due) - {u for u, _h in landings})
    assert f"in this weather [16.12]: {waits[0]} waits" in template, template
    (tmp_path / "land.txt").write_text("".join(f"land {u} at {h}\n" for u, h in landings))
    ok(pbem("submit", g, tmp_path / "land.txt", "--key", "bob", "--yes", home=home))
    log = ok(pbem("log", g, home=home)).out
    assert all(f"{u} lands at {h}" in log for u, h in landings), log


def test_11_11_enter_via_for_a_unit_on_the_map_says_it_is_on_the_map() -> None:
    """[11.11, 5.14, 27] a trial: 'enter 2-rcn via 2913 2812' for a unit on the map in an enemy
    zone of control was read as a move from its hex and refused with "cannot leave 1315 [5.14]".
    A path that begins away from the unit (not its hex, not next to it) is refused with the words
    of 'enter ... at HEX to HEX': the unit is on the map, and what to write. A path that begins
    next to it is a move as before, and the line for a unit still off the map an entry."""
    import pytest

    from pbem.errors import InputError

    # g in 0605 holds 0505 in its zone of control [5.14]
    rules, sc, st, p = _on_map_and_due("0605")

    def checked(text: str) -> tuple[list[str], list[str]]:
        doc = p.read_text_orders(sc, rules.skeleton(sc, st, "US"), "US", text)
        orders = rules.normalize(sc, st, "US", rules.load_orders(sc, doc))
        return orders.moves[0].path, [v.rule for v in rules.validate(sc, st, "US", orders)]

    # 'enter ... via' and 'move ... via' read as the same order: the words fit either [5.0, 11.11]
    for verb in ("enter", "move"):
        doc = p.read_text_orders(sc, rules.skeleton(sc, st, "US"), "US", f"{verb} inf via 0101 0102\n")
        with pytest.raises(InputError) as err:
            rules.normalize(sc, st, "US", rules.load_orders(sc, doc))
        assert str(err.value) == ("inf is on the map already (in 0505), and 0101, where its path begins, is "
                                  "not next to it: a move's path goes hex by hex from the unit [5.0], and "
                                  "'enter ... via HEX' is for a reinforcement off the map [11.11]; write "
                                  "'move inf to 0102'")
    # a move next to it: still a move, refused by the zone of control as before [5.14]
    path, refused = checked("move inf via 0504 0404\n")
    assert path == ["0504", "0404"] and refused[0] == "5.14"
    # the reinforcement enters; what is left owed is inf's attack on g, next to it [7.11, 7.12]
    assert checked("enter new via 0101 0102\n") == (["0101", "0102"], ["7.11", "7.12"])
