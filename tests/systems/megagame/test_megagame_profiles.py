"""Unit types and status profiles of the megagame [seed 004, Annex A, "Unit Status", [7], [11]]:
the bundled book is sound, its legible rows are as printed, the profile notation parses, and
profile_problems names each bad entry."""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers.paths import ROOT

from pbem.systems.megagame.profiles import (
    ProfileBook,
    load_profiles,
    parse_profile,
    profile_problems,
)


def _raw() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (ROOT / "pbem" / "scenario_data" / "megagame-profiles.json").read_text(encoding="utf-8"))
    return data


def test_annex_a_bundled_book_has_no_problems() -> None:
    book = load_profiles()
    assert profile_problems(book) == []
    assert "RECONSTRUCTED" in book.reconstructed


def test_annex_a_loader_reads_the_same_file_as_the_checkout() -> None:
    assert load_profiles() == ProfileBook.parse(_raw())


@pytest.mark.parametrize(("type_id", "profile", "size", "lift"), [
    ("gb-recce-regt", "4-3-2-1-0", 2, 0),
    ("gb-al-atk-bty", "[2-1-0]", 1, 0),
    ("de-weak-pz-bn", "5-3-2-0", 1, 0),
    ("de-festungs-bn", "(2)-(2)-(1)-0", 1, 0),
])
def test_annex_a_legible_rows_as_printed(type_id: str, profile: str, size: int, lift: int) -> None:
    t = load_profiles().get(type_id)
    assert (t.profile, t.size, t.lift, t.reading) == (profile, size, lift, "legible")


@pytest.mark.parametrize(("type_id", "profile"), [
    ("us-armored-bn", "8-7-6-4-3-2-0"), ("us-para-bn", "6-6-5-4-3-3-0"),
    ("us-glider-bn", "6-6-5-4-3-3-0"), ("us-arty-bn", "8-4-1-0"),
    ("gb-medium-regt", "10-3-0"), ("gb-at-regt", "[6-3-0]"),
    ("de-heavy-pz-bn", "10-8-5-3-0"), ("de-jgpz-bn", "8-6-5-2-0"), ("de-weak-jgpz-bn", "4-2-0"),
    ("de-field-arty-bn", "8-4-1-0"), ("engineer-bn", "5-4-3-3-0"),
])
def test_annex_a_printed_profiles_kept(type_id: str, profile: str) -> None:
    """Rows whose profile is legible keep it, whatever else was lost."""
    assert load_profiles().get(type_id).profile == profile


@pytest.mark.parametrize(("type_id", "prefix"), [
    ("de-fj-bn", (6, 6, 5)), ("de-gren-bn", (7,)), ("us-inf-bn", (7,)),
    ("de-weak-gren-bn", (5, 5)), ("de-weak-pzgren-bn", (6, 6, 4)), ("de-pz-bn", (9, 7, 6)),
    ("de-heavy-jgpz-bn", (10, 8)),
])
def test_annex_a_partly_legible_rows_keep_their_legible_levels(type_id: str,
                                                               prefix: tuple[int, ...]) -> None:
    t = load_profiles().get(type_id)
    assert t.levels[:len(prefix)] == prefix
    assert t.reading == "partly legible" and t.note


def test_unit_status_worked_example_statuses_fit_the_profiles() -> None:
    """The worked example: 2nd Para Bn at status 6 takes 3 steps and is left at 3 -- a para
    battalion (6-6-5-4-3-3-0) one step down; the airlanding battery [2-1-0] falls to 0; 20 SS PzGr
    at 6 (weak PzGren, undamaged), 9 SS PzJg at 4 (weak JgPz, undamaged)."""
    book = load_profiles()
    para = book.get("gb-para-bn").combat_profile(1)
    assert para.status == 6
    assert para.lose(3).status == 3
    bty = book.get("gb-al-atk-bty").combat_profile()
    assert bty.support_only and bty.status == 2 and bty.lose(3).status == 0
    assert book.get("de-weak-pzgren-bn").combat_profile().status == 6
    assert book.get("de-weak-jgpz-bn").combat_profile().status == 4


def test_unit_status_counter_example_polish_para() -> None:
    """The master-map counter example prints 6-6-5-4-3-3-0 for 1 Pol (Indep Pol Bde)."""
    assert load_profiles().get("gb-para-bn").levels == (6, 6, 5, 4, 3, 3, 0)


def test_combat_note_3_light_infantry_flags() -> None:
    """Light infantry: British and US paratroops, US glider troops, transport and HQ units; not
    British airlanding battalions nor Fallschirmjager (not named)."""
    book = load_profiles()
    assert book.get("gb-para-bn").light and book.get("us-glider-bn").light
    assert book.get("gb-rasc-coy").light and book.get("de-div-hq").light
    assert not book.get("gb-airlanding-bn").light
    assert not book.get("de-fj-bn").light
    assert not book.get("gb-rifle-bn").light


def test_supplies_11_mechanised_types_burn_fuel() -> None:
    book = load_profiles()
    assert book.get("gb-armd-regt").mechanised
    assert book.get("de-pzgren-bn").mechanised
    assert book.get("gb-field-regt").mechanised  # lorry-towed guns
    assert not book.get("gb-para-bn").mechanised
    assert not book.get("de-field-arty-bn-horse").mechanised


def test_each_nation_has_its_annex_a_rows() -> None:
    book = load_profiles()
    names = {(t.nation, t.name) for t in book.types}
    for row in [("british", "Rifle Battalion"), ("british", "Armoured Regiment"),
                ("british", "Field Artillery Regiment"), ("british", "RASC Company"),
                ("us", "Regt HQ unit"), ("us", "Para Battalion"), ("german", "Panzer Battalion"),
                ("german", "Heavy Flak"), ("german", "Light Flak"), ("german", "Fahrkolonne"),
                ("any", "Divisional Dump"), ("any", "Supply Unit")]:
        assert row in names


@pytest.mark.parametrize(("text", "levels", "mode"), [
    ("5-3-2-1-0", (5, 3, 2, 1, 0), "normal"),
    ("[5-3-2-1-0]", (5, 3, 2, 1, 0), "support"),
    ("(2)- (1) -0", (2, 1, 0), "defence"),
    ("6 \u2014 3\u20140", (6, 3, 0), "normal"),
    ("10-3-0", (10, 3, 0), "normal"),
])
def test_unit_status_profile_notation(text: str, levels: tuple[int, ...], mode: str) -> None:
    assert parse_profile(text) == (levels, mode)


@pytest.mark.parametrize("text", ["[5-3-0", "(2)-1-0", "[(2)-(1)-0]", "5-x-0", "(2-1-0", ""])
def test_unit_status_profile_notation_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_profile(text)


def test_unit_status_defence_only_is_not_support_only() -> None:
    t = load_profiles().get("de-festungs-bn")
    assert t.defence_only and not t.support_only
    assert not t.combat_profile().support_only
    assert t.combat_profile().status == 2


def _with(**changes: Any) -> dict[str, Any]:
    data = _raw()
    data["types"][5] = {**data["types"][5], **changes}  # the rifle battalion: sound as it stands
    return data


@pytest.mark.parametrize(("changes", "words"), [
    ({"profile": "5-3-1"}, "must end at 0"),
    ({"profile": "11-3-0"}, "above 10"),
    ({"profile": "3-5-0"}, "never raises"),
    ({"profile": "5-x-0"}, "not a status level"),
    ({"kind": "armour"}, "moves as tanks"),
    ({"kind": "artillery"}, "range class"),
    ({"flak": "heavy"}, "German"),
    ({"note": ""}, "how it was reconstructed"),
])
def test_profile_problems_names_the_bad_entry(changes: dict[str, Any], words: str) -> None:
    data = _with(**changes)
    first = data["types"][5]["id"]
    problems = profile_problems(data)
    assert len(problems) == 1, problems
    assert first in problems[0] and words in problems[0] and problems[0].startswith("[Annex A]")


def test_profile_problems_ten_is_the_top_status() -> None:
    """Status runs 0 to 10: 10 allowed (the medium regiment), 11 not."""
    assert profile_problems(_with(profile="10-3-0")) == []


def test_profile_problems_duplicate_id() -> None:
    data = _raw()
    data["types"].append(dict(data["types"][3]))
    problems = profile_problems(data)
    assert problems == [f"[Annex A] {data['types'][3]['id']}: the id is used twice"]


def test_profile_problems_schema_errors_name_the_entry() -> None:
    data = _raw()
    data["types"][2] = {**data["types"][2], "size": -1}
    problems = profile_problems(data)
    assert len(problems) == 1 and problems[0].startswith("[Annex A] types.2.size")


def test_unknown_type_is_refused_with_its_case() -> None:
    with pytest.raises(KeyError, match=r"Annex A"):
        load_profiles().get("gb-battleship")
