"""The frozen compatibility corpus (issue 23, "archives that outlive versions"): every finished game
directory under ``tests/compat/`` -- one per bundled rules system and way of play, written once by
an earlier pbem (``tests/compat/README.md``) and never regenerated -- must pass ``pbem verify`` with
this pbem. A change that breaks one must fix pbem, or refuse that archive by name with the rules
version (CHANGELOG.md); never regenerate the corpus to make this pass.

Each case is verified on a copy (the frozen files cannot be touched), by a stranger (an empty
``PBEM_HOME``), in a child process exactly as a user runs ``pbem verify GAME_DIR``; the copy must
be byte for byte what it was (verify rewrites nothing, adds nothing).

``PBEM_COMPAT_DIR`` points the test at another corpus (e.g. a fresh one from
``tests/compat/generate.py``) instead of ``tests/compat/``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.paths import ROOT

CORPUS = Path(os.environ.get("PBEM_COMPAT_DIR") or ROOT / "tests" / "compat")
EXPECTED = [
    "bastogne-campaign",
    "arnhem-historical",
    "arnhem-alternate",
    "arnhem1944-historical",
    "megagame",
    "auction-sealed",
    "auction-umpired",
    "auction-hidden",
    "receipts",
    "megagame-acked",
    "auction-sealed-acked",
    "auction-umpired-acked",
    "auction-hidden-acked",
]
"""Every case the corpus must hold (``CASES`` in ``tests/compat/generate.py``)."""


def _discovered() -> list[str]:
    if not CORPUS.is_dir():
        return []
    return sorted(p.name for p in CORPUS.iterdir() if p.is_dir() and (p / "genesis.json").is_file())


CASES = EXPECTED + [name for name in _discovered() if name not in EXPECTED]


def _files(d: Path) -> dict[str, bytes]:
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def test_the_corpus_holds_every_expected_case() -> None:
    missing = [name for name in EXPECTED if name not in _discovered()]
    assert not missing, (f"{CORPUS} lacks the frozen case(s) {', '.join(missing)} (a game directory "
                         "with a genesis.json each); see tests/compat/README.md")


@pytest.mark.parametrize("case", CASES)
def test_the_frozen_archive_verifies(case: str, tmp_path: Path) -> None:
    frozen = CORPUS / case
    if not (frozen / "genesis.json").is_file():
        pytest.fail(f"{frozen}: no such frozen game directory (see tests/compat/README.md)")
    copy = tmp_path / case
    shutil.copytree(frozen, copy)
    before = _files(copy)
    assert before == _files(frozen)
    stranger = tmp_path / "stranger"
    stranger.mkdir()
    env = {**os.environ, "PBEM_HOME": str(stranger), "PBEM_PASSPHRASE": ""}
    res = subprocess.run([sys.executable, "-m", "pbem", "verify", str(copy)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, check=False, timeout=600)
    assert res.returncode == 0, f"pbem verify {case} exited {res.returncode}:\n{res.stderr}{res.stdout}"
    lines = res.stdout.splitlines()
    assert lines and lines[-1] == "OK", res.stdout
    assert any(line.startswith("outcome") for line in lines), f"{case} is not a finished game:\n{res.stdout}"
    assert not any(line.startswith(("awaiting", "not yet")) for line in lines), res.stdout
    if (copy / "publication.json").exists():  # the umpire's publication is checked, not skipped [P10]
        assert any("publication.json" in line for line in lines), res.stdout
    after = _files(copy)
    assert sorted(after) == sorted(before), f"verify added or removed files: {sorted(set(after) ^ set(before))}"
    changed = [name for name in before if after[name] != before[name]]
    assert not changed, f"verify rewrote {changed}"
