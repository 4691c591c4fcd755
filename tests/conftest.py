"""What every test shares: the toy rules systems that exist only for tests, resolvable for the whole
session (pbem's own systems are entry points, as installed)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pbem.engine.gamedir import scenario_memo
from pbem.engine.ruleset import extra_rulesets

TEST_SYSTEMS = {
    "toy-solo": "engine.test_engine:SoloRules",
    "toy-silent": "engine.test_engine:SilentRules",
    "toy-mail": "engine.test_presenter:MailingToyRules",
    "toy-versioned": "engine.test_rules_versions:VersionedRules",
}
"""System id -> the test module's class (``tests/`` is on ``pythonpath``, see pyproject.toml)."""


@pytest.fixture(autouse=True, scope="session")
def _test_systems() -> Iterator[None]:
    with extra_rulesets(TEST_SYSTEMS):
        yield


@pytest.fixture(autouse=True, scope="session")
def _scenarios_loaded_once() -> Iterator[None]:
    """The suite opens the same bundled scenarios thousands of times in one process: each is
    loaded once (by content hash), as it always was before the memo became opt-in."""
    with scenario_memo():
        yield
