"""Derived files (maps and email drafts) are checked by ``pbem verify`` against the hashes pbem
recorded when it wrote them (``derived.sha256``), not redrawn: what that proves, and what only
``--redraw`` proves."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers.paths import ROOT
from helpers.protocol import pbem

EXAMPLE = ROOT / "examples" / "bastogne-spearhead"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    g = tmp_path / "game"
    shutil.copytree(EXAMPLE, g)
    return g


def verify(g: Path, tmp_path: Path, *extra: str) -> tuple[int, str]:
    res = pbem("verify", g, *extra, home=tmp_path / "stranger")
    return res.code, res.err + res.out


def test_every_map_and_mail_is_recorded(game: Path) -> None:
    recorded = dict(reversed(line.split("  ")) for line in (game / "derived.sha256").read_text().splitlines())
    names = sorted(p.name for p in game.iterdir() if p.name.startswith(("map-", "mail-0", "board")))
    assert sorted(recorded) == names
    for name in names:
        assert recorded[name] == hashlib.sha256((game / name).read_bytes()).hexdigest()


def test_the_record_is_sha256sum_format(game: Path) -> None:
    if shutil.which("sha256sum") is None:
        pytest.skip("sha256sum is not installed on this machine")
    res = subprocess.run(["sha256sum", "--quiet", "-c", "derived.sha256"], cwd=game, capture_output=True)
    assert res.returncode == 0, res.stdout + res.stderr


@pytest.mark.parametrize("name", ["map-0007.svg", "mail-0012.eml"])
def test_a_doctored_derived_file_is_named(game: Path, tmp_path: Path, name: str) -> None:
    data = bytearray((game / name).read_bytes())
    data[len(data) // 2] ^= 0x20
    (game / name).write_bytes(bytes(data))
    code, out = verify(game, tmp_path)
    assert code == 1 and out.startswith(f"pbem: {name}: differs from the file pbem wrote"), out


def test_an_unrecorded_map_is_named(game: Path, tmp_path: Path) -> None:
    lines = (game / "derived.sha256").read_text().splitlines()
    (game / "derived.sha256").write_text("\n".join(x for x in lines if not x.endswith("map-0003.svg")) + "\n")
    code, out = verify(game, tmp_path)
    assert code == 1 and out.startswith("pbem: map-0003.svg: not recorded"), out


def test_a_map_redrawn_by_hand_with_its_record_needs_redraw_to_be_caught(game: Path, tmp_path: Path) -> None:
    """The record is not a signature: whoever edits a map and its line fools the quick check, which
    docs/protocol.md says plainly; ``--redraw`` draws every map from its turn again."""
    path = game / "map-0004.svg"
    doctored = path.read_bytes().replace(b"</svg>", b"<!-- moved a counter --></svg>")
    path.write_bytes(doctored)
    lines = [x for x in (game / "derived.sha256").read_text().splitlines() if not x.endswith("map-0004.svg")]
    lines.append(f"{hashlib.sha256(doctored).hexdigest()}  map-0004.svg")
    (game / "derived.sha256").write_text("\n".join(lines) + "\n")
    assert verify(game, tmp_path)[0] == 0
    code, out = verify(game, tmp_path, "--redraw")
    assert code == 1 and out.startswith("pbem: map-0004.svg: differs from the map re-rendered"), out


def test_a_deleted_map_is_not_an_error(game: Path, tmp_path: Path) -> None:
    (game / "map-0005.svg").unlink()
    assert verify(game, tmp_path)[0] == 0


# -- issue 28: only the newest step's derived files are kept ----------------------------------------


def test_a_pruned_archive_verifies_and_draws_every_step_again_as_written(game: Path, tmp_path: Path) -> None:
    # A player's directory keeps the newest step's map and email only; the older ones stay listed
    # in derived.sha256. Verify checks the two present and says how many are listed but not kept;
    # each older map drawn again ('pbem render --step N') is the file pbem wrote then, hash for
    # hash, whichever way it was drawn (these placed board.svg, or drew their terrain themselves).
    recorded = dict(reversed(line.split("  ")) for line in (game / "derived.sha256").read_text().splitlines())
    kept = {"map-0016.svg", "mail-0016.eml", "board.svg"}
    for p in list(game.iterdir()):
        if p.name.startswith(("map-", "mail-")) and p.name not in kept:
            p.unlink()
    code, out = verify(game, tmp_path)
    assert code == 0, out
    listed = sum(1 for n in recorded if n.startswith(("map-", "mail-")))
    present = sum(1 for n in kept if (game / n).exists())
    assert f"derived     {present} map(s) and email(s) are the files pbem wrote; {len(recorded) - present} more" in out
    assert listed == 17 + 16
    for step in (0, 7, 15):
        res = pbem("render", game, "--step", str(step), "-o", tmp_path / "m.svg", home=tmp_path / "stranger")
        assert res.code == 0 and "differs" not in res.err, res.err
        assert hashlib.sha256((tmp_path / "m.svg").read_bytes()).hexdigest() == recorded[f"map-{step:04d}.svg"]
    for step in (1, 8):
        res = pbem("mail", "draft", game, "--step", str(step), "-o", tmp_path / "m.eml", home=tmp_path / "stranger")
        assert res.code == 0 and "differs" not in res.err, res.err
        assert hashlib.sha256((tmp_path / "m.eml").read_bytes()).hexdigest() == recorded[f"mail-{step:04d}.eml"]
    # a present file changed is still named
    (game / "map-0016.svg").write_bytes((game / "map-0016.svg").read_bytes() + b" ")
    code, out = verify(game, tmp_path)
    assert code == 1 and "map-0016.svg" in out


def test_a_pruned_file_comes_back_when_the_command_fails(tmp_path: Path) -> None:
    # derived.remove inside a command that fails later: the file is back, bytes and mode; its
    # line in the record was never touched; a link standing at the name is left alone.
    import os

    from pbem.engine import derived
    from pbem.protocol.fsutil import transaction

    g = tmp_path / "g"
    g.mkdir()
    (g / "map-0001.svg").write_bytes(b"<svg>one</svg>")
    os.chmod(g / "map-0001.svg", 0o640)
    line = hashlib.sha256(b"<svg>one</svg>").hexdigest() + "  map-0001.svg\n"
    (g / "derived.sha256").write_text(line)
    listed = ["map-0001.svg", "map-0002.svg"]
    with pytest.raises(RuntimeError), transaction():
        assert derived.remove(g, "map-0001.svg", listed)
        assert not (g / "map-0001.svg").exists() and listed == ["map-0002.svg"]
        raise RuntimeError("a later step of the command fails")
    assert (g / "map-0001.svg").read_bytes() == b"<svg>one</svg>"
    assert os.stat(g / "map-0001.svg").st_mode & 0o777 == 0o640
    with transaction():
        assert derived.remove(g, "map-0001.svg")
    assert not (g / "map-0001.svg").exists()
    assert (g / "derived.sha256").read_text() == line
    (g / "map-0003.svg").symlink_to(g / "derived.sha256")
    assert not derived.remove(g, "map-0003.svg") and (g / "map-0003.svg").is_symlink()
    with pytest.raises(ValueError):
        derived.remove(g, "turn-0001.json")


def test_newest_reads_the_record_from_its_end_and_agrees_with_read(tmp_path: Path) -> None:
    # The hashes pruning needs, read from the end back (flat in game length [28]): for every name,
    # the last line wins, as read() has it, whatever chunk boundary cuts the lines; a name recorded
    # twice gives its newer hash; a name never recorded is absent.
    from pbem.engine import derived

    lines = []
    for step in range(1, 700):  # ~118 KB: several chunks of derived.TAIL_CHUNK
        for name in (f"map-{step:04d}.svg", f"mail-{step:04d}.eml"):
            lines.append(f"{hashlib.sha256(name.encode()).hexdigest()}  {name}")
    lines.append(f"{'0' * 64}  map-0003.svg")  # map-0003.svg drawn again: its newer hash
    (tmp_path / derived.MANIFEST).write_text("\n".join(lines) + "\n", encoding="ascii")
    assert (tmp_path / derived.MANIFEST).stat().st_size > 4 * derived.TAIL_CHUNK
    everything = derived.read(tmp_path)
    wanted = ["map-0699.svg", "mail-0698.eml", "map-0350.svg", "mail-0001.eml", "map-0003.svg", "map-9999.svg"]
    got = derived.newest(tmp_path, wanted)
    assert got == {n: everything[n] for n in wanted if n in everything}
    assert got["map-0003.svg"] == "0" * 64 and "map-9999.svg" not in got
    assert all(derived.newest(tmp_path, [n]) == {n: everything[n]} for n in everything)


def _unrecord(game: Path, name: str) -> None:
    lines = (game / "derived.sha256").read_text().splitlines()
    (game / "derived.sha256").write_text("\n".join(x for x in lines if not x.endswith(name)) + "\n")


def test_an_email_received_and_saved_in_the_game_directory_verifies(game: Path, tmp_path: Path) -> None:
    """The opponent's directory: mail-0012.eml was drafted by the other player's pbem, so this
    record has no line for it, and the player saved it beside the archive to ingest it (the
    README's 'pbem ingest game/ mail-0002.eml'). Its attached move is the archive's: not an error."""
    _unrecord(game, "mail-0012.eml")
    code, out = verify(game, tmp_path)
    assert code == 0 and out.rstrip().endswith("OK"), out


def test_a_received_email_whose_move_is_not_the_archives_is_named(game: Path, tmp_path: Path) -> None:
    """Attack: an unrecorded email whose attached move differs from the archive's by one byte."""
    _unrecord(game, "mail-0012.eml")
    path = game / "mail-0012.eml"
    raw = path.read_bytes()
    i = raw.index(b'filename="move-0012-')
    j = raw.index(b"\n\n", i) if b"\n\n" in raw[i:] else raw.index(b"\r\n\r\n", i)
    k = raw.index(b'"', j + 10)  # a quote inside the move's JSON, after its headers
    path.write_bytes(raw[:k] + b"'" + raw[k + 1:])
    code, out = verify(game, tmp_path)
    assert code == 1 and out.startswith("pbem: mail-0012.eml: not recorded"), out


def test_a_received_email_is_held_to_a_plain_move_file_only(game: Path, tmp_path: Path) -> None:
    """Attack: the archive's move replaced by a symbolic link to a copy of it elsewhere. The
    received email's move is compared only with a plain file read as every move is (size checked
    first, no link followed), so the email is named, not waved through."""
    from pbem.engine import derived

    _unrecord(game, "mail-0012.eml")
    move = next(game.glob("move-0012-*.json"))
    elsewhere = tmp_path / "copy.json"
    elsewhere.write_bytes(move.read_bytes())
    assert derived.received(game, "mail-0012.eml", (game / "mail-0012.eml").read_bytes())
    move.unlink()
    move.symlink_to(elsewhere)
    assert not derived.received(game, "mail-0012.eml", (game / "mail-0012.eml").read_bytes())


def test_a_received_email_is_compared_within_the_size_limit_of_a_move(game: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing is read past a move's size limit to vouch for a received email: with the limit below
    the move's size, the email is not taken as received (the move itself is refused elsewhere)."""
    from pbem.engine import derived
    from pbem.protocol import canonical

    _unrecord(game, "mail-0012.eml")
    data = (game / "mail-0012.eml").read_bytes()
    assert derived.received(game, "mail-0012.eml", data)
    monkeypatch.setattr(canonical, "MAX_MOVE_BYTES", 64)
    assert not derived.received(game, "mail-0012.eml", data)
