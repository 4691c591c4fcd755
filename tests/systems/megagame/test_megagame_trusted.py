"""The megagame's states are trusted records (issue 28): the rules make a state, its units' states
and their facts without checking each field, which a turn file's state read from outside
(:meth:`MegaState.parse`) still is. Every one the rules make while verifying the finished compat
games (the publication opens every sealed sheet: every round resolved) passes the checks and is,
field by field and type by type, what the checking constructor makes of the same values."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers.paths import ROOT
from helpers.records import hold_trusted_records_to_the_checks

from pbem.protocol.record import RecordError
from pbem.systems.megagame.model import MegaState, UnitFacts, UnitState

COMPAT = ROOT / "tests" / "compat"


def test_the_states_the_rules_make_unchecked_are_what_the_checks_make_of_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.engine.gamedir import Game

    assert UnitState._trusted and UnitFacts._trusted and MegaState._trusted
    made = hold_trusted_records_to_the_checks(monkeypatch)
    for source in (COMPAT / "megagame", COMPAT / "megagame-acked"):
        game = tmp_path / source.name
        shutil.copytree(source, game)
        summary = Game.open(game).verify()
        assert summary.outcome
    # each game (19 units): its initial state and five rounds' states, every unit's state in each
    assert made["MegaState"] >= 2 * 6 and made["UnitState"] >= 2 * 6 * 19 and made["UnitFacts"] > 0, made


def test_a_state_read_from_a_turn_file_is_still_checked() -> None:
    good = {"turn": 1, "units": {"u1": {"hex": "0101", "steps": 1}}, "supply": {}, "control": {}}
    assert MegaState.parse(good).units["u1"] == UnitState(hex="0101", steps=1)
    for unit in ({"hex": "0101", "steps": -1}, {"hex": 101}, {"contact": {"f": "2"}}, {"stock": True}):
        with pytest.raises(RecordError):
            MegaState.parse({**good, "units": {"u1": unit}})
    with pytest.raises(RecordError):
        MegaState.parse({**good, "facts": {"u1": {"events": [3]}}})
