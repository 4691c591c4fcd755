"""A non-editable install must carry the bundled scenarios and templates (they live at the top of
the repository and ship as ``pbem.scenario_data`` and ``pbem.templates``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_plain_install_finds_scenarios_and_templates_from_another_directory(tmp_path: Path) -> None:
    target = tmp_path / "site"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
         "--target", str(target), str(REPO)],
        capture_output=True, text=True,
    )
    if build.returncode != 0 and "setuptools" in build.stderr:
        pytest.skip("setuptools is not available to build without isolation")
    assert build.returncode == 0, build.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    probe = (
        "import pbem, pbem.engine.scenarios as s, importlib.resources as r;"
        "print(pbem.__file__); print(','.join(s.bundled_ids()));"
        "print(r.files('pbem.templates').joinpath('mail.txt.j2').is_file())"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    out = subprocess.run([sys.executable, "-c", probe], cwd=elsewhere, env=env,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0].startswith(str(target)), "the installed copy, not the checkout, must be imported"
    assert {"bastogne-spearhead", "bastogne-relief", "bastogne-campaign"} <= set(out[1].split(","))
    assert out[2] == "True"
