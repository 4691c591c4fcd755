"""Hostile files (issue 8, item 2): scenarios, invitations and game directories from another player
name any path they like -- ``/dev/zero``, ``../../etc/passwd``, a FIFO, a 20 GB sparse file, a link
out of the directory. Each is refused at once, in one line with exit code 2 (1 for ``verify`` of a
tampered archive), and nothing is written.

Everything that could hang runs in a subprocess with a timeout, so a regression fails here instead
of hanging the suite."""

from __future__ import annotations

import email
import email.policy
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pbem.engine.scenarios import bundled_dir

TIMEOUT = 30


def pbem_proc(home: Path, *args: str | Path, timeout: float = TIMEOUT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PBEM_HOME": str(home), "PBEM_PASSPHRASE": ""}
    return subprocess.run([sys.executable, "-m", "pbem", *map(str, args)], capture_output=True,
                          text=True, env=env, timeout=timeout)


def refused(res: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert res.returncode == code, (res.returncode, res.stderr, res.stdout)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pbem: "), res.stderr
    assert "Traceback" not in res.stderr
    return lines[0]


def tree(*roots: Path) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for root in roots:
        if root.exists():
            for p in sorted(root.rglob("*")):
                if p.is_file() and not p.is_symlink():
                    out[str(p)] = p.read_bytes()
                elif p.is_symlink() or not p.is_dir():
                    out[str(p)] = b"(special)"
    return out


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    h = tmp_path_factory.mktemp("hostile") / "home"
    for name in ("alice", "bob"):
        res = pbem_proc(h, "key", "new", name)
        assert res.returncode == 0, res.stderr
    return h


def scenario_dir(tmp_path: Path) -> Path:
    """A scenario directory holding a copy of the bundled Spearhead scenario (its map bundled)."""
    d = tmp_path / "scen"
    d.mkdir()
    data = json.loads((bundled_dir() / "bastogne-spearhead.json").read_text())
    (d / "mine.json").write_text(json.dumps(data))
    return d


def with_map(d: Path, ref: str) -> Path:
    data = json.loads((d / "mine.json").read_text())
    data["map"] = ref
    path = d / "hostile.json"
    path.write_text(json.dumps(data))
    return path


def new_game(home: Path, scenario: Path, target: Path) -> subprocess.CompletedProcess[str]:
    return pbem_proc(home, "new", scenario, target, "--player", "DE=alice", "--player", "US=bob")


def test_the_untouched_copy_is_a_valid_scenario(home: Path, tmp_path: Path) -> None:
    """The hostile variants below differ from a file ``pbem new`` accepts only in the reference."""
    d = scenario_dir(tmp_path)
    res = new_game(home, with_map(d, "bastogne-map.json"), tmp_path / "g")
    assert res.returncode == 0, res.stderr


@pytest.mark.parametrize("ref, says", [
    ("/dev/zero", "not a plain file name"),
    ("../../etc/passwd", "not a plain file name"),
    ("/etc/hostname", "not a plain file name"),
    ("sub/map.json", "not a plain file name"),
    ("..json", "not a plain file name"),
])
def test_a_scenario_may_not_name_a_path(home: Path, tmp_path: Path, ref: str, says: str) -> None:
    d = scenario_dir(tmp_path)
    before = tree(home)
    t0 = time.monotonic()
    line = refused(new_game(home, with_map(d, ref), tmp_path / "g"))
    assert time.monotonic() - t0 < TIMEOUT
    assert says in line and "map" in line
    assert not (tmp_path / "g").exists() and tree(home) == before


def test_a_scenario_may_not_name_a_fifo(home: Path, tmp_path: Path) -> None:
    d = scenario_dir(tmp_path)
    os.mkfifo(d / "pipe.json")
    line = refused(new_game(home, with_map(d, "pipe.json"), tmp_path / "g"))
    assert "FIFO" in line
    assert not (tmp_path / "g").exists()


def test_a_scenario_may_not_name_a_20gb_file(home: Path, tmp_path: Path) -> None:
    d = scenario_dir(tmp_path)
    with open(d / "huge.json", "wb") as fh:
        fh.truncate(20 * 1024**3)  # sparse: costs no disk
    line = refused(new_game(home, with_map(d, "huge.json"), tmp_path / "g"))
    assert "21474836480 bytes, more than the limit" in line


def test_a_scenario_may_not_follow_a_link_out_of_its_directory(home: Path, tmp_path: Path) -> None:
    d = scenario_dir(tmp_path)
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps(json.loads((bundled_dir() / "bastogne-map.json").read_text())))
    (d / "link.json").symlink_to(outside)
    line = refused(new_game(home, with_map(d, "link.json"), tmp_path / "g"))
    assert "symbolic link" in line


def test_the_scenario_file_itself_may_not_be_a_fifo_or_a_device(home: Path, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.json")
    assert "FIFO" in refused(new_game(home, tmp_path / "pipe.json", tmp_path / "g1"))
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    assert "device" in refused(new_game(home, tmp_path / "zero.json", tmp_path / "g2"))


# --- what another player hands over ----------------------------------------------------------------


@pytest.fixture
def game(home: Path, tmp_path: Path) -> Path:
    g = tmp_path / "game"
    res = new_game(home, Path("bastogne-spearhead"), g)
    assert res.returncode == 0, res.stderr
    return g


def doctor_scenario(g: Path, how: str) -> None:
    path = g / "scenario.json"
    if how == "map is /dev/zero":
        data = json.loads(path.read_bytes())
        data["map"] = "/dev/zero"
        path.write_text(json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n")
    elif how == "a FIFO":
        path.unlink()
        os.mkfifo(path)
    elif how == "20 GB":
        with open(path, "r+b") as fh:
            fh.truncate(20 * 1024**3)
    elif how == "a link to /dev/zero":
        path.unlink()
        path.symlink_to("/dev/zero")
    elif how == "one byte changed":
        raw = bytearray(path.read_bytes())
        raw[100] ^= 1
        path.write_bytes(bytes(raw))


@pytest.mark.parametrize("how", ["map is /dev/zero", "a FIFO", "20 GB", "a link to /dev/zero", "one byte changed"])
def test_a_doctored_scenario_copy_is_named_and_never_read_whole(home: Path, game: Path, how: str) -> None:
    doctor_scenario(game, how)
    stranger = game.parent / "stranger"
    line = refused(pbem_proc(stranger, "verify", game), code=1)
    assert line.startswith("pbem: scenario.json:"), line
    line = refused(pbem_proc(home, "status", game))
    assert "scenario.json" in line


def _invitation_with(g: Path, scenario: bytes, out: Path) -> Path:
    msg = email.message_from_bytes((g / "mail-invite-US.eml").read_bytes(), policy=email.policy.default)
    for part in msg.iter_attachments():
        if part.get_filename() == "scenario.json":
            part.set_content(scenario, maintype="application", subtype="json", filename="scenario.json")
    out.write_bytes(msg.as_bytes(policy=email.policy.SMTP))
    return out


def test_an_invitation_with_a_doctored_scenario_is_refused_and_leaves_nothing(tmp_path: Path) -> None:
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    for h, name in ((alice, "alice"), (bob, "bob")):
        assert pbem_proc(h, "key", "new", name).returncode == 0
    g = tmp_path / "alice-game"
    res = pbem_proc(alice, "new", "bastogne-spearhead", g, "--player", "DE=alice", "--player",
                    f"US={bob / 'keys' / 'bob.pub'}")
    assert res.returncode == 0, res.stderr
    data = json.loads((g / "scenario.json").read_bytes())
    data["map"] = "/dev/zero"
    eml = _invitation_with(g, json.dumps(data).encode(), tmp_path / "invite.eml")
    before = tree(bob)
    line = refused(pbem_proc(bob, "join", tmp_path / "bob-game", "--key", "bob", "--invitation", eml))
    assert "scenario.json" in line and "content hash" in line
    assert not (tmp_path / "bob-game").exists() and tree(bob) == before


@pytest.mark.parametrize("what", ["fifo", "/dev/zero", "directory"])
def test_ingest_and_submit_never_block_on_a_special_file(home: Path, game: Path, tmp_path: Path, what: str) -> None:
    if what == "fifo":
        special = tmp_path / "move.json"
        os.mkfifo(special)
    elif what == "directory":
        special = tmp_path / "adir.json"
        special.mkdir()
    else:
        special = Path("/dev/zero")
    before = tree(game)
    line = refused(pbem_proc(home, "ingest", game, special))
    assert "not a regular file" in line or "Is a directory" in line or "directory" in line
    line = refused(pbem_proc(home, "submit", "--yes", game, special, "--key", "bob"))
    assert "not a regular file" in line or "directory" in line
    assert tree(game) == before


def test_a_public_key_file_that_is_a_fifo_is_refused(home: Path, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "bob.pub")
    line = refused(pbem_proc(home, "new", "bastogne-spearhead", tmp_path / "g", "--player", "DE=alice",
                             "--player", f"US={tmp_path / 'bob.pub'}"))
    assert "FIFO" in line or "public-key file" in line
    assert not (tmp_path / "g").exists()


def test_copying_the_game_refuses_links_in_it(home: Path, game: Path, tmp_path: Path) -> None:
    """A game directory whose scenario.json is a link to a valid copy elsewhere is refused too: the
    files a game is made of are the files in its directory."""
    elsewhere = tmp_path / "copy.json"
    shutil.copyfile(game / "scenario.json", elsewhere)
    (game / "scenario.json").unlink()
    (game / "scenario.json").symlink_to(elsewhere)
    line = refused(pbem_proc(home, "status", game))
    assert "scenario.json" in line and "symbolic link" in line


def _listing(d: Path) -> dict[str, tuple[int, float]]:
    """Names, sizes and modification times (the sparse file is never read)."""
    return {p.name: (p.lstat().st_size, p.lstat().st_mtime) for p in sorted(d.iterdir())}


def _plant(target: Path, kind: str) -> None:
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "sparse":
        with open(target, "wb") as f:
            f.truncate(20 * 1024**3)
    else:
        target.symlink_to("/etc/passwd")


@pytest.mark.parametrize("kind", ["fifo", "sparse", "link"])
def test_hostile_receipt_files_are_refused_or_ignored_without_hanging(home: Path, tmp_path: Path, kind: str) -> None:
    # A receipt (quick results) is read like a move: a 20 GB sparse file or a link at its name is
    # refused at once, in one line; a FIFO is not a file and is never opened. Nothing is written.
    g = tmp_path / "g"
    res = pbem_proc(home, "new", "bastogne-spearhead", g, "--player", "DE=alice", "--player", "US=bob")
    assert res.returncode == 0, res.stderr
    _plant(g / "receipt-0001-US.json", kind)
    before = _listing(g)
    res = pbem_proc(home, "verify", g)
    if kind == "fifo":
        assert res.returncode == 0, res.stderr
    else:
        line = refused(res, 1)
        assert "receipt-0001-US.json" in line
    assert _listing(g) == before


@pytest.mark.parametrize("kind", ["fifo", "sparse", "link"])
def test_hostile_publication_files_are_refused_without_hanging(tmp_path: Path, kind: str) -> None:
    # In a game with hidden information verify reads the umpire's publication.json: a FIFO, a
    # 20 GB sparse file or a link standing there is refused at once, in one line.
    h, g = tmp_path / "home", tmp_path / "g"
    for name in ("a", "b", "c", "gc"):
        assert pbem_proc(h, "key", "new", name).returncode == 0
    scenario = tmp_path / "hidden.json"
    scenario.write_text(json.dumps({"id": "auction-hidden", "system": "auction-hidden", "sides": ["A", "B", "C"],
                                    "umpire": "GC", "rounds": 1}))
    res = pbem_proc(h, "new", scenario, g, "--player", "A=a", "--player", "B=b", "--player", "C=c",
                    "--player", "GC=gc")
    assert res.returncode == 0, res.stderr
    _plant(g / "publication.json", kind)
    before = _listing(g)
    line = refused(pbem_proc(h, "verify", g), 1)
    assert "publication.json" in line
    assert _listing(g) == before
