"""Benchmark: how many bytes a step adds to a game directory, by kind of file.

    python bench/archive.py [GAME_DIR]

Plays the bundled example again into a temporary directory (``examples/generate.py``: the
Spearhead game, bot against bot, every map and email written as players get them) unless a game
directory is given, and prints the bytes per step of turn files, move files, maps, email drafts
and the rest, and the total per step. The floor, measured in the same run, is what a step cannot
do without: its move and turn files. Not a test: nothing here asserts.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def measure(game_dir: Path) -> dict[str, int]:
    kinds = {"turn": 0, "move": 0, "map": 0, "mail": 0, "other": 0}
    for p in game_dir.iterdir():
        if not p.is_file():
            continue
        key = next((k for k in ("turn", "move", "map", "mail") if p.name.startswith(k + "-")), "other")
        kinds[key] += p.stat().st_size
    return kinds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game_dir", nargs="?", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        game_dir = args.game_dir
        if game_dir is None:
            sys.path.insert(0, str(HERE.parent / "examples"))
            from generate import generate  # type: ignore[import-not-found]

            game_dir = generate(Path(tmp) / "game")
        steps = len(list(game_dir.glob("move-*.json"))) or 1
        kinds = measure(game_dir)
        total = sum(kinds.values())
        for k, v in kinds.items():
            print(f"{k:<6} {v / steps / 1000:8.1f} KB a step")
        floor = (kinds["turn"] + kinds["move"]) / steps
        print(f"total  {total / steps / 1000:8.1f} KB a step ({steps} steps); floor (move + turn) "
              f"{floor / 1000:.1f} KB, {total / steps / floor:.1f}x")
        print(f"SUMMARY archive {total / steps / 1000:.0f} KB a step ({total / steps / floor:.1f}x "
              f"its move and turn files)")


if __name__ == "__main__":
    main()
