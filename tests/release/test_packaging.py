"""What a player installs [23]: the wheel and the sdist, each built from a clean copy of the
checkout and installed alone in a fresh venv, run with ``python -I`` from a directory outside the
checkout (so neither an editable finder nor the working directory can supply a missing module).

The venvs install pbem's dependencies at the versions of ``constraints.txt`` from the package index
(the suite's own venv does the same); a machine that cannot reach one skips, saying so."""

from __future__ import annotations

import base64
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers.paths import ROOT

REPO = ROOT
EXAMPLES = REPO / "examples"
KEYS = EXAMPLES / "keys"
pytestmark = pytest.mark.slow

IGNORED_PARTS = {".git", ".venv", ".venv-latest", "build", "dist", "__pycache__", ".mypy_cache",
                 ".pytest_cache", ".ruff_cache", ".hypothesis", "demo-out"}


def tracked_files() -> list[str]:
    """The checkout's tracked files (git), else every file but build and tool debris."""
    try:
        out = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z"], capture_output=True, check=True)
        names = [n for n in out.stdout.decode("utf-8").split("\0") if n]
        if names:
            return [n for n in names if (REPO / n).is_file()]
    except (OSError, subprocess.CalledProcessError):
        pass
    return sorted(str(p.relative_to(REPO)) for p in REPO.rglob("*")
                  if p.is_file() and not IGNORED_PARTS & set(p.relative_to(REPO).parts)
                  and not p.name.endswith(".egg-info"))


def clean_env(home: Path) -> dict[str, str]:
    """A user's environment: no PYTHON* variables, a home and a PBEM_HOME of its own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PBEM", "VIRTUAL_ENV"))}
    env.update(HOME=str(home), PBEM_HOME=str(home / "pbem"), PBEM_PASSPHRASE="")
    return env


@dataclass
class Install:
    venv: Path
    elsewhere: Path
    env: dict[str, str]

    def pbem(self, *args: str | Path, home: Path | None = None, input: str | None = None
             ) -> subprocess.CompletedProcess[str]:
        """``pbem ARGS`` as the installed console script, under ``python -I``, from ``elsewhere``."""
        env = dict(self.env)
        if home is not None:
            env["PBEM_HOME"] = str(home)
        return subprocess.run([str(self.venv / "bin" / "python"), "-I", str(self.venv / "bin" / "pbem"),
                               *map(str, args)], cwd=self.elsewhere, env=env, capture_output=True,
                              text=True, input=input, timeout=600)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist and the wheel, built by pypa's ``build`` from a copy of the tracked files (a stale
    ``build/`` in the checkout cannot leak in); no build warning is allowed."""
    pytest.importorskip("build", reason="the dev extra (pip install -e '.[dev]') provides pypa build")
    root = tmp_path_factory.mktemp("dist")
    src = root / "src"
    for name in tracked_files():
        target = src / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, target)
    stale = src / "build" / "lib" / "pbem" / "stale_module.py"  # left by an earlier build in place
    stale.parent.mkdir(parents=True)
    stale.write_text("STALE = True\n", encoding="utf-8")
    out = root / "out"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    log = ""
    for kind in ("--sdist", "--wheel"):
        r = subprocess.run([sys.executable, "-m", "build", "--no-isolation", kind, "--outdir", str(out),
                            str(src)], capture_output=True, text=True, env=env, cwd=root)
        assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
        log += r.stdout + r.stderr
    warnings = [line for line in log.splitlines() if "warning" in line.lower()]
    assert not warnings, "the build warns:\n" + "\n".join(warnings[:20])
    wheel, = out.glob("pbem-*.whl")
    sdist, = out.glob("pbem-*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


def _venv(tmp: Path, what: Path) -> Install:
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    home = tmp / "home"
    home.mkdir()
    env = clean_env(home)
    r = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "-c",
                        str(REPO / "constraints.txt"), str(what)], capture_output=True, text=True,
                       env=env, cwd=tmp, timeout=900)
    if r.returncode != 0 and ("No matching distribution" in r.stderr or "Could not find" in r.stderr
                              or "Network is unreachable" in r.stderr):
        pytest.skip(f"the package index cannot be reached to install pbem's dependencies: {r.stderr[-300:]}")
    assert r.returncode == 0, r.stderr[-3000:]
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    return Install(venv, elsewhere, env)


@pytest.fixture(scope="module")
def wheel_install(built: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Install:
    return _venv(tmp_path_factory.mktemp("wheel"), built["wheel"])


@pytest.fixture(scope="module")
def sdist_install(built: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Install:
    return _venv(tmp_path_factory.mktemp("sdist"), built["sdist"])


def packaged(name: str) -> bool:
    """Whether a tracked file belongs in the wheel: all of ``pbem/`` (code, scenario data,
    templates, py.typed)."""
    return name.startswith("pbem/") and "/__pycache__/" not in name


def test_the_wheel_records_every_module_and_data_file(built: dict[str, Path]) -> None:
    with zipfile.ZipFile(built["wheel"]) as zf:
        record_name, = (n for n in zf.namelist() if n.endswith(".dist-info/RECORD"))
        rows = list(csv.reader(io.StringIO(zf.read(record_name).decode("utf-8"))))
        recorded = {row[0] for row in rows}
        for row in rows:  # and every file is the one RECORD names, byte for byte
            if row[1]:
                algo, _, digest = row[1].partition("=")
                import hashlib

                got = base64.urlsafe_b64encode(hashlib.new(algo, zf.read(row[0])).digest()).rstrip(b"=")
                assert got.decode() == digest, row[0]
    wanted = {n for n in tracked_files() if packaged(n)}
    assert {n for n in wanted if n.endswith(".py")} >= {"pbem/engine/replay.py", "pbem/protocol/archive.py",
                                                       "pbem/maps/hexmap.py", "pbem/systems/toy.py"}
    missing = sorted(wanted - recorded)
    assert not missing, f"tracked files missing from the wheel: {missing[:20]}"
    strays = sorted(n for n in recorded if not n.startswith(("pbem/", "pbem-")))
    assert not strays, f"files outside the package in the wheel: {strays[:20]}"
    untracked = sorted(n for n in recorded if n.startswith("pbem/") and n not in wanted)
    assert not untracked, f"files in the wheel that the checkout does not track (a stale build/?): {untracked}"


def test_the_sdist_holds_every_tracked_file_the_build_needs(built: dict[str, Path]) -> None:
    import tarfile

    with tarfile.open(built["sdist"]) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    wanted = {n for n in tracked_files() if packaged(n)} | {"pyproject.toml", "README.md"}
    missing = sorted(wanted - names)
    assert not missing, f"tracked files missing from the sdist: {missing[:20]}"


def declared_systems() -> dict[str, str]:
    """The rules systems pyproject.toml declares as entry points -> their rules id, as the checkout
    defines them (not this test process's registry, where other tests plug in toy systems)."""
    import importlib
    import tomllib

    table = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    out = {}
    for name, target in table["project"]["entry-points"]["pbem.systems"].items():
        module, cls = target.split(":")
        out[name] = getattr(importlib.import_module(module), cls)().rules_id
    return out


def _bundled_ids() -> list[str]:
    ids = []
    for path in sorted((REPO / "pbem" / "scenario_data").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "system" in data and "id" in data:
            ids.append(str(data["id"]))
    return ids


def _check_commands(inst: Install, tmp: Path) -> None:
    r = inst.pbem("--help")
    assert r.returncode == 0, r.stderr
    assert "verify" in r.stdout and "Traceback" not in r.stderr
    r = inst.pbem("--version")
    assert r.returncode == 0, r.stderr
    from pbem import __version__

    lines = r.stdout.splitlines()
    assert lines[0] == f"pbem {__version__}"
    listed = {line.split()[0]: line.split()[1] for line in lines[1:]}
    assert listed == declared_systems(), r.stdout
    r = inst.pbem("scenarios")
    assert r.returncode == 0, r.stderr
    for sid in _bundled_ids():
        assert sid in r.stdout, f"pbem scenarios does not list {sid}"
    for example in sorted(p for p in EXAMPLES.iterdir() if (p / "genesis.json").is_file()):
        copy = tmp / "examples" / example.name
        shutil.copytree(example, copy)
        r = inst.pbem("verify", copy)
        assert r.returncode == 0, f"{example.name}: {r.stdout[-500:]} {r.stderr[-500:]}"
        assert "OK" in r.stdout


def test_wheel_in_a_fresh_venv_runs_every_command_from_elsewhere(wheel_install: Install, tmp_path: Path) -> None:
    probe = subprocess.run([str(wheel_install.venv / "bin" / "python"), "-I", "-c",
                            "import pbem, sys; print(pbem.__file__)"], cwd=wheel_install.elsewhere,
                           env=wheel_install.env, capture_output=True, text=True, check=True)
    assert probe.stdout.startswith(str(wheel_install.venv)), "the installed copy must be imported"
    _check_commands(wheel_install, tmp_path)


def test_sdist_in_a_fresh_venv_runs_every_command_from_elsewhere(sdist_install: Install, tmp_path: Path) -> None:
    _check_commands(sdist_install, tmp_path)


def _sides(data: dict[str, object]) -> list[str]:
    """The sides of a scenario (the umpire too), as the checkout's rules load it."""
    from pbem.engine.gamedir import load_scenario
    from pbem.engine.scenarios import content_hash

    ruleset, model = load_scenario(data, content_hash(data))
    return list(ruleset.sides(model))


def _new_game(inst: Install, tmp: Path, scenario: str, sides: list[str]) -> None:
    """``pbem new`` of ``scenario`` with every side played on one machine (a key each), then
    ``verify`` and ``status`` of the new game."""
    home = tmp / f"home-{Path(scenario).stem}"
    for side in sides:
        r = inst.pbem("key", "new", side.lower(), "--no-passphrase", home=home)
        assert r.returncode == 0, r.stderr
    game = tmp / f"game-{Path(scenario).stem}"
    players = [a for side in sides for a in ("--player", f"{side}={side.lower()}")]
    r = inst.pbem("new", scenario, game, *players, home=home)
    assert r.returncode == 0, f"pbem new {scenario}: {r.stdout[-800:]} {r.stderr[-800:]}"
    r = inst.pbem("verify", game, home=home)
    assert r.returncode == 0, f"pbem verify of a new {scenario}: {r.stdout[-800:]} {r.stderr[-800:]}"
    r = inst.pbem("status", game, home=home)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr


def test_wheel_starts_a_game_of_every_system(wheel_install: Install, tmp_path: Path) -> None:
    """``pbem new`` of a scenario of every system: a bundled one where the system has one, else
    one of the suite's scenario files (the toy systems)."""
    from pbem.engine.scenarios import load_data

    started: set[str] = set()
    candidates = [(sid, REPO / "pbem" / "scenario_data" / f"{sid}.json") for sid in _bundled_ids()]
    candidates += [(str(path), path) for path in sorted((REPO / "tests" / "data").glob("*.json"))]
    for ref, path in candidates:
        system = json.loads(path.read_text(encoding="utf-8")).get("system")
        if system in started or system not in declared_systems():
            continue
        data = load_data(ref)  # merged with its map, as pbem new reads it
        _new_game(wheel_install, tmp_path, ref, _sides(data))
        started.add(str(data["system"]))
    assert started == set(declared_systems()), f"systems without a game started: {set(declared_systems()) - started}"


def test_wheel_plays_a_game_of_every_system_to_its_end_and_verifies_the_corpus(
        wheel_install: Install, tmp_path: Path) -> None:
    """The installed wheel plays every case of the compatibility corpus to its end (its generator,
    run by the venv's python, imports only the installed pbem), verifies each game it wrote, and
    verifies the frozen corpus written by 0.2.0."""
    out = tmp_path / "played"
    r = subprocess.run([str(wheel_install.venv / "bin" / "python"), "-I", str(REPO / "tests" / "compat" / "generate.py"),
                        str(out)], cwd=wheel_install.elsewhere, env=wheel_install.env, capture_output=True,
                       text=True, timeout=1200)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert f"({wheel_install.venv}" in r.stdout.splitlines()[-1], "the generator must run the installed pbem"
    corpus = sorted(p for p in (REPO / "tests" / "compat").iterdir() if (p / "genesis.json").is_file())
    assert len(corpus) >= 9
    for case in corpus:
        for game in (out / case.name, case):
            copy = tmp_path / "verify" / game.parent.name / game.name
            shutil.copytree(game, copy)
            r = wheel_install.pbem("verify", copy)
            assert r.returncode == 0 and r.stdout.rstrip().endswith("OK"), (game, r.stdout[-500:], r.stderr[-500:])
            assert "outcome" in r.stdout, f"{game} is not played to its end"
