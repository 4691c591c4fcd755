"""Benchmark: how many bytes a step of a finished game adds to its game directory, by kind of file.

    python bench/archive.py [--games bastogne-spearhead,arnhem-historical,...] [GAME_DIR ...]

Plays each game named by ``--games`` to its end in a temporary directory, bot against bot, as
``examples/generate.py`` plays the bundled example (both sides on one machine, every map and email
written as players get them; default: Bastogne Spearhead, the Bastogne Campaign Game, SPI Arnhem's
historical scenario and Arnhem 1944's), or measures the game directories given. For each it prints
the bytes per step (KiB, 1024 bytes) of the turn files, the move files, the maps, the emails and
the rest (scenario, genesis, the record of derived files), and the total; the floor is what a step
cannot do without: its move and turn files. Issue 28's target: at most 40 KiB a step for WestWall
and Arnhem 1944 games. ``--megagame SCENARIO --messages N`` plays the first N messages of a megagame
and compares each of Game Control's reports with what it would have been before its views were
deflated (:func:`megagame_reports`). Not a test: nothing here asserts.
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
    parser.add_argument("--megagame", default=None, metavar="SCENARIO", help="a megagame's reports instead")
    parser.add_argument("--messages", type=int, default=120, help="with --megagame: messages to play")
    args = parser.parse_args()
    if args.megagame:
        with tempfile.TemporaryDirectory(prefix="pbem-archive-") as tmp:
            megagame_reports(args.megagame, args.messages, Path(tmp) / "game")
        return
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


def megagame_reports(scenario: str, messages: int, out: Path) -> None:
    """Play ``messages`` messages of a megagame hot seat (every key in a throwaway home) and print,
    for each of Game Control's reports, its move file's size and what it would have been with the
    views padded undeflated (pbem before issue 28: each view's JSON padded to the longest one's
    bucket), computed from the views opened with the teams' keys."""
    import base64
    import json
    import os

    from pbem.cli import main as pbem_main
    from pbem.engine.autoplay import autoplay_rounds
    from pbem.engine.gamedir import open_checked
    from pbem.engine.scenarios import load_data
    from pbem.outputs import engine_hooks
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.localstate import LocalGame, private_key
    from pbem.protocol.seal import open_sealed, padded_length, x25519_private

    data = load_data(scenario)
    sides = ["GC", *[t["id"] for t in data["teams"]]]
    home = out.parent / "home"
    os.environ["PBEM_HOME"], os.environ["PBEM_PASSPHRASE"] = str(home), ""

    def run(*args: str | Path) -> None:
        try:
            pbem_main([str(a) for a in args])
        except SystemExit as exc:
            if exc.code not in (0, None):
                raise

    for side in sides:
        run("key", "new", f"k-{side.lower()}", "--no-passphrase")
    run("new", scenario, out, *[x for s in sides for x in ("--player", f"{s}=k-{s.lower()}")],
        "--game-id", "c0a1c0a1c0a1c0a1c0a1c0a1c0a1bead", "--nonce", "5eed" * 16)
    autoplay_rounds(out, seed=0, max_messages=messages, hooks=engine_hooks())
    game = open_checked(out)
    names = LocalGame.of(game).sides()
    keys = {s: x25519_private(private_key(names[s]), game.id, s) for s in game.sides}
    print("| report | views | move file | with the views padded undeflated (computed) |")
    print("|---|---|---|---|")
    for step in sorted(game.listing.moves):
        path = game.listing.moves[step]
        if not path.name.endswith("-GC.json"):
            continue
        raw = path.read_bytes()
        body = json.loads(base64.b64decode(json.loads(raw)["payload"]))
        report = (body.get("orders") or {}).get("report")
        if not report:
            continue
        views = report["views"]
        plain = {s: canonical_bytes(open_sealed(v, keys[s], game=game.id, step=step, sender="GC", to=s,
                                                what="report")) for s, v in views.items()}
        pad = max(padded_length(len(v)) for v in plain.values())
        old_views = sum(4 * ((pad + 48 + 2) // 3) for _ in views)  # base64 of key + ciphertext + tag
        new_views = sum(len(v) for v in views.values())
        old = len(raw) + (old_views - new_views) * 4 // 3  # the body travels in base64 again
        print(f"| {path.name} | {len(views)} | {len(raw) / 1024:.0f} KiB | {old / 1024:.0f} KiB |", flush=True)


if __name__ == "__main__":
    main()
