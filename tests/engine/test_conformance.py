"""A conformance suite over every rules system pbem declares [24, item 7]: what the engine asks of
each system, checked the same way for all of them, so a system added later gets every check by
registering its entry point (and bundling a scenario, or one in tests/data).

For every bundled scenario of every system and the suite's toy scenarios: the scenario checks
clean and loads; the initial state survives dump and load unchanged; every side's view of it is
canonical JSON; every pending decision has a skeleton that loads as orders and dumps back as
itself. Then games of every system are played to their end twice, in separate processes, by the
compatibility corpus's generator (the sparring bots, Game Control's included): both runs must be
byte-identical and each game must verify."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import ROOT

from pbem.engine.gamedir import load_scenario
from pbem.engine.scenarios import bundled_ids, content_hash, load_data
from pbem.protocol.canonical import canonical_bytes


def declared_systems() -> list[str]:
    table = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return sorted(table["project"]["entry-points"]["pbem.systems"])


def scenarios() -> list[tuple[str, str]]:
    """(system, scenario reference) for every bundled scenario and the suite's scenario files."""
    out = [(str(load_data(sid)["system"]), sid) for sid in bundled_ids()]
    for path in sorted((ROOT / "tests" / "data").glob("*.json")):
        system = json.loads(path.read_text(encoding="utf-8")).get("system")
        if system in declared_systems():
            out.append((str(system), str(path)))
    return out


def test_bundled_systems_are_the_declared_entry_points() -> None:
    """get_ruleset finds pbem's own systems in a table without scanning entry points: the table is
    exactly what pyproject.toml declares, and each names the class the ruleset is."""
    from pbem.engine.ruleset import BUNDLED_SYSTEMS, get_ruleset

    table = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert dict(BUNDLED_SYSTEMS) == table["project"]["entry-points"]["pbem.systems"]
    for system, target in BUNDLED_SYSTEMS.items():
        cls = type(get_ruleset(system))
        assert f"{cls.__module__}:{cls.__qualname__}" == target
        assert cls.system == system


def test_every_declared_system_has_a_scenario_here() -> None:
    assert {system for system, _ in scenarios()} == set(declared_systems())


@pytest.mark.parametrize(("system", "ref"), scenarios(), ids=lambda v: Path(str(v)).stem)
def test_a_scenario_loads_round_trips_and_offers_orders_for_every_pending_decision(system: str, ref: str) -> None:
    data = load_data(ref)
    ruleset, scenario = load_scenario(data, content_hash(data))
    assert ruleset.system == system
    assert ruleset.scenario_problems(data) == []
    state = ruleset.initial_state(scenario, {})
    dumped = ruleset.dump_state(scenario, state)
    again = ruleset.dump_state(scenario, ruleset.load_state(scenario, dumped))
    assert canonical_bytes(again) == canonical_bytes(dumped)
    sides = list(ruleset.sides(scenario))
    for side in [*sides, None]:
        canonical_bytes(ruleset.view(scenario, dumped, side))  # JSON a machine can hash and seal
    pending = ruleset.pending(scenario, state)
    assert pending, "a game starts with a decision"
    for decision in pending:
        assert decision.side in sides
        skeleton: Any = ruleset.skeleton(scenario, state, decision.side)
        orders = ruleset.load_orders(scenario, skeleton)
        assert canonical_bytes(ruleset.dump_orders(scenario, orders)) == canonical_bytes(skeleton)


PLAYED = ["receipts", "auction-sealed-acked", "auction-hidden-acked", "megagame-acked", "arnhem-alternate",
          "bastogne-campaign"]
"""Games of every system's way of play -- alternating moves with receipts, sealed rounds with and
without an umpire, hidden information, secret set-up notes, a WestWall campaign -- (Arnhem 1944's
long game is played by the packaging test's wheel, every case of the corpus)."""


@pytest.mark.slow
def test_bots_play_every_way_of_play_to_its_end_twice_byte_identical_and_it_verifies(tmp_path: Path) -> None:
    runs = []
    for n in (1, 2):
        out = tmp_path / f"run-{n}"
        res = subprocess.run([sys.executable, str(ROOT / "tests" / "compat" / "generate.py"), str(out), *PLAYED],
                             capture_output=True, text=True, timeout=1200)
        assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
        runs.append({p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()})
    assert runs[0].keys() == runs[1].keys() and len(runs[0]) > 100
    differ = [name for name in runs[0] if runs[0][name] != runs[1][name]]
    assert not differ, f"two plays of the same games differ: {differ[:5]}"
    for case in PLAYED:
        res = subprocess.run([sys.executable, "-m", "pbem", "verify", str(tmp_path / "run-1" / case)],
                             capture_output=True, text=True, timeout=600)
        assert res.returncode == 0 and res.stdout.rstrip().endswith("OK"), (case, res.stderr[-500:])
        assert "outcome" in res.stdout, f"{case} did not reach its end"
