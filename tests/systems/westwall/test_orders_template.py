"""[27] `pbem orders --text` for WestWall: a commented template for every decision, with the side's
own units and example lines written with their ids and hexes that are legal now. The template
unedited orders nothing; with its example lines uncommented it is accepted and signed as written."""

from __future__ import annotations

import re
from pathlib import Path

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
    landed = re.search(r"^# land (\S+) at (\d{4})\s+# an airborne unit lands \[15\.31\]", template, re.M)
    assert landed is not None
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
