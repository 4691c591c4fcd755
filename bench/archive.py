"""Benchmark: how many bytes a step of a finished game adds to its game directory, by kind of file.

    python bench/archive.py [--games bastogne-spearhead,arnhem-historical,...] [GAME_DIR ...]

Plays each game named by ``--games`` to its end in a temporary directory, bot against bot, as
``examples/generate.py`` plays the bundled example (both sides on one machine, every map and email
written as players get them; default: Bastogne Spearhead, the Bastogne Campaign Game, SPI Arnhem's
historical scenario and Arnhem 1944's), or measures the game directories given. For each it prints
the bytes per step (KiB, 1024 bytes) of the turn files, the move files, the maps, the emails and
the rest (scenario, genesis, the record of derived files), and the total; the floor is what a step
cannot do without: its move and turn files. Issue 28's target: at most 40 KiB a step for WestWall
and Arnhem 1944 games. ``--keys`` names the examples' keys for each side when a scenario's sides are
not DE and US or AL and DE. Not a test: nothing here asserts.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
GAMES = ["bastogne-spearhead", "bastogne-campaign", "arnhem-historical", "arnhem1944-historical"]
PLAYERS = {"DE": "example-de", "US": "example-us", "AL": "example-us"}
"""The examples' keys (``examples/keys/``), by side."""
KINDS = ("turn", "move", "map", "mail")


def measure(game_dir: Path) -> dict[str, int]:
    """Bytes on disk by kind of file (``turn-``, ``move-``, ``map-``, ``mail-``, the rest)."""
    kinds = dict.fromkeys((*KINDS, "other"), 0)
    for p in game_dir.iterdir():
        if not p.is_file():
            continue
        key = next((k for k in KINDS if p.name.startswith(k + "-")), "other")
        kinds[key] += p.stat().st_size
    return kinds


def play(scenario: str, out: Path) -> Path:
    """A finished game of ``scenario`` (the examples' generator: fixed keys, game id and seed)."""
    sys.path.insert(0, str(HERE.parent / "examples"))
    from generate import generate  # type: ignore[import-not-found]

    sides = _sides(scenario)
    return generate(out, scenario=scenario, players={s: PLAYERS[s] for s in sides}, restore=False)  # type: ignore[no-any-return]


def _sides(scenario: str) -> list[str]:
    from pbem.engine.scenarios import load_data

    return [s["id"] for s in load_data(scenario)["sides"]]


def per_step(game_dir: Path) -> float:
    """KiB a step of a game directory."""
    steps = len(list(game_dir.glob("move-*.json"))) or 1
    return sum(measure(game_dir).values()) / steps / 1024


def row(name: str, game_dir: Path) -> str:
    steps = len(list(game_dir.glob("move-*.json"))) or 1
    kinds = measure(game_dir)
    k = {key: v / steps / 1024 for key, v in kinds.items()}
    floor = k["turn"] + k["move"]
    total = per_step(game_dir)
    return (f"| {name} | {steps} | {floor:.1f} | {k['map']:.1f} | {k['mail']:.1f} | {k['other']:.1f} | "
            f"**{total:.1f}** ({total / floor:.1f}x the floor) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game_dirs", nargs="*", type=Path)
    parser.add_argument("--games", default=None, help="comma-separated bundled scenarios to play to the end")
    args = parser.parse_args()
    games = args.games.split(",") if args.games else ([] if args.game_dirs else GAMES)
    print("| game | steps | move + turn | maps | emails | other | total (KiB a step) |")
    print("|---|---|---|---|---|---|---|")
    worst: list[str] = []
    for d in args.game_dirs:
        print(row(str(d), d), flush=True)
        worst.append(f"{d.name} {per_step(d):.0f}")
    with tempfile.TemporaryDirectory(prefix="pbem-archive-") as tmp:
        for scenario in games:
            game_dir = play(scenario, Path(tmp) / scenario)
            print(row(scenario, game_dir), flush=True)
            worst.append(f"{scenario} {per_step(game_dir):.0f}")
    print(f"SUMMARY archive KiB a step: {', '.join(worst)}")


if __name__ == "__main__":
    main()
