"""What the read-only player commands import, as the console script runs them [28 item 4].

``pbem status`` and ``pbem check`` import no pydantic (every system's data are plain records), and
they draw no map and write no email, so neither may import the map and mail libraries (svgwrite and jinja2 cost more start-up than the ed25519 floor itself), nor
pbem's own map and mail writers (the game is opened with hooks that import them when they first
run), nor the parts of :mod:`pbem.engine.play` that ingest, run the umpire's round or start a game
(its names load when first asked for); a subprocess reads ``sys.modules`` at exit so that a module-top import slipping back in fails
here."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.paths import ROOT
from helpers.protocol import Result, ok
from helpers.protocol import pbem as run_pbem

EXAMPLE = ROOT / "examples" / "bastogne-spearhead"
KEYS = ROOT / "examples" / "keys"
HEAVY = ("pydantic", "svgwrite", "jinja2", "pbem.render.svg", "pbem.render.outputs", "pbem.mail.compose",
         # what ingesting, the umpire's round and a new game need (pbem.engine.play loads lazily)
         "pbem.engine.play.incoming", "pbem.engine.play.umpire", "pbem.engine.play.setup",
         # the standard library's package metadata and resource readers (with the email, socket,
         # tempfile and zipfile modules they import): bundled data is found from pbem's files,
         # entry points are read only for a system or game pbem does not bundle
         "importlib.metadata", "importlib.resources", "email", "tempfile", "zipfile",
         "click.shell_completion")  # loaded when the shell asks for a completion


def _report(watched: tuple[str, ...]) -> str:
    return ("import atexit, sys; from pbem.cli import main; sys.argv[0] = 'pbem'; "
            f"atexit.register(lambda: print('LOADED', *[m for m in {watched!r} if m in sys.modules], file=sys.stderr)); "
            "main()")


def whole(*args: str | Path, home: Path, watched: tuple[str, ...] = HEAVY) -> tuple[Result, set[str]]:
    """``pbem ARGS`` as the console script runs it, and which of ``watched`` it imported."""
    env = {**os.environ, "PBEM_HOME": str(home), "PBEM_PASSPHRASE": ""}
    done = subprocess.run([sys.executable, "-c", _report(watched), *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=300)
    err, _, loaded = done.stderr.rpartition("LOADED")
    return Result(done.returncode, done.stdout, err), set(loaded.split())


def test_status_and_check_import_no_map_or_mail_library(tmp_path: Path) -> None:
    stranger, loaded = whole("status", EXAMPLE, home=tmp_path / "stranger")
    assert stranger.code == 0, stranger.err
    assert "game" in stranger.out
    assert not loaded, loaded
    home, game = tmp_path / "home", tmp_path / "game"
    for k in ("example-de", "example-us"):
        ok(run_pbem("key", "import", KEYS / f"{k}.key", "--name", k, "--no-passphrase", home=home))
    ok(run_pbem("new", "bastogne-spearhead", game, "--player", "DE=example-de", "--player", "US=example-us",
                "--game-id", "5e1f" * 8, "--nonce", "c0" * 32, home=home))
    played, loaded = whole("status", game, home=home)
    assert played.code == 0, played.err
    assert not loaded, loaded
    orders = tmp_path / "orders.json"
    orders.write_text(ok(run_pbem("bot", game, "--side", "US", "--key", "example-us", "--dry-run", home=home)).out,
                      encoding="utf-8")  # the U.S. set-up comes first
    checked, loaded = whole("check", game, orders, "--key", "example-us", home=home)
    assert checked.code == 0, checked.err
    assert not loaded, loaded


VERIFY_LEAN = (*HEAVY,  # the derived files' hashes are checked without the renderer (without --redraw)
               # cryptography's key serialization (with its OpenSSH module, ~10 ms): the X25519 keys
               # of hidden games are derived from raw key bytes, and a stranger derives none
               "cryptography.hazmat.primitives.serialization",
               # cryptography's HPKE (pbem.protocol.seal): a stranger derives no X25519 key; the
               # rfc8785 package: only keys beyond the Basic Multilingual Plane are encoded by it;
               "pbem.protocol.seal", "cryptography.hazmat.primitives.hpke", "rfc8785")
"""What ``pbem verify`` of a game with an umpire and hidden information, as a stranger, does not import."""

MEGAGAME_LEAN = ("pbem.engine.presenter", "pbem.systems.megagame.presenter", "pbem.systems.megagame.words")
"""Nor, for the megagame, its presentation and the log's words: a replay writes neither (the auction
defines its presenter beside its rules)."""


@pytest.mark.parametrize(("case", "lean"), [("megagame-acked", VERIFY_LEAN + MEGAGAME_LEAN),
                                            ("auction-umpired-acked", VERIFY_LEAN)])
def test_verify_of_a_sealed_game_imports_only_what_checking_needs(case: str, lean: tuple[str, ...],
                                                                  tmp_path: Path) -> None:
    copy = tmp_path / case
    shutil.copytree(ROOT / "tests" / "compat" / case, copy)
    verified, loaded = whole("verify", copy, home=tmp_path / "stranger", watched=lean)
    assert verified.code == 0, verified.err
    assert verified.out.splitlines()[-1] == "OK"
    assert not loaded, loaded


MODELS = ("pbem.maps.model", "pbem.protocol.dsse", "pbem.protocol.archive", "pbem.systems.westwall.model",
          *(f"pbem.systems.{m}" for m in ("westwall.rules", "westwall.bastogne", "westwall.arnhem", "arnhem1944.rules",
                                          "arnhem1944.model", "arnhem1944.state", "arnhem1944.orders",
                                          "megagame.rules", "megagame.model", "megagame.profiles",
                                          "megagame.orders", "auction", "toy", "skirmish")))
"""The modules that define the data of the archive and of every system's games, and the rules."""


def test_no_system_s_data_or_rules_import_pydantic() -> None:
    """The archive's bodies and every system's scenarios, states, orders and events are plain
    records (pbem.protocol.record) [28]: pydantic's import and first model cost a process about
    150 ms. Only the megagame's order-of-battle tooling (not on a command's path) still uses it."""
    code = (f"import importlib, sys; [importlib.import_module(m) for m in {MODELS!r}]; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_every_name_of_the_play_package_is_its_submodules_own() -> None:
    """:mod:`pbem.engine.play` imports its submodules when a name is first asked for: each public
    name must be the object its submodule defines, and an unknown name an AttributeError."""
    play = importlib.import_module("pbem.engine.play")
    for name in play.__all__:
        module = importlib.import_module(f"pbem.engine.play.{play._WHERE[name]}")
        assert getattr(play, name) is getattr(module, name), name
    assert sorted(play.__all__) == sorted(play._WHERE)
    with pytest.raises(AttributeError, match="no_such_name"):
        play.no_such_name  # noqa: B018
