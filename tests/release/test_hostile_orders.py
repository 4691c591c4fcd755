"""A hostile opponent's modified client (or a badly mistyped sheet): orders that parse as JSON
but name what the game does not have, repeat or drop entries, swap kinds -- and text orders made
of the orders templates' own words mutated. Whatever they are, the rules answer with a refusal
(a :class:`~pbem.errors.PbemError`: one line, exit 2) or accept them; any other exception is a
traceback on the player's machine and fails here, naming the orders that caused it.

Seeded mutations of every move of the finished games of the compatibility corpus (one archive
per system; a hidden game's orders as its umpire's replay opens them), a few per move: cheap
enough for the suite, and a fixed seed so a failure repeats. A mutation run of this kind found
SPI Arnhem's artillery count [14.12] looking up an attacker the scenario does not have."""

from __future__ import annotations

import copy
import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem.engine import replay as replay_module
from pbem.engine.gamedir import Game
from pbem.errors import PbemError
from pbem.protocol.dice import DiceStream

CORPUS = Path(__file__).resolve().parents[1] / "compat"
HOSTILE: list[Any] = ["", "0000", "9999", "0101", "x" * 300, -1, 0, 1, 2**40, None, True, [], {},
                      [[]], "\u202e", "1/1P", "all"]
SEALED = ("megagame-acked", "auction-umpired-acked")
MUTANTS = 8
"""Mutants of each move's JSON orders (three of its text orders): at 3 the seed below missed the
[14.12] crash, which 8 finds."""


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, i))


def _replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    out = copy.deepcopy(value)
    inner = out
    for p in path[:-1]:
        inner = inner[p]
    inner[path[-1]] = new
    return out


def _mutant(orders: Any, rnd: random.Random, words: list[str]) -> Any:
    """``orders`` with one to three of its values replaced: by a hostile value, a word the game
    uses (a unit id, a hex), a list with an entry repeated or reversed, an object less a key."""
    for _ in range(rnd.choice((1, 1, 2, 3))):
        path, value = rnd.choice(list(_leaves(orders)))
        r = rnd.random()
        if r < 0.45:
            new = rnd.choice(HOSTILE)
        elif r < 0.65 and isinstance(value, list) and value:
            new = [*value, rnd.choice(value)]
        elif r < 0.75 and isinstance(value, list) and value:
            new = value[::-1]
        elif r < 0.85 and isinstance(value, dict) and value:
            new = {k: v for k, v in value.items() if k != rnd.choice(sorted(value))}
        else:
            new = rnd.choice(words) if words else ""
        orders = _replaced(orders, path, new)
    return orders


def _text_mutant(lines: list[str], rnd: random.Random, words: list[str]) -> str:
    """One to four of a template's example lines, each with up to three words replaced, removed,
    added or given punctuation."""
    out = []
    for line in rnd.sample(lines, min(len(lines), rnd.randint(1, 4))):
        toks = line.split()
        for _ in range(rnd.randint(0, 3)):
            if not toks:
                break
            i, r = rnd.randrange(len(toks)), rnd.random()
            if r < 0.4:
                toks[i] = rnd.choice(words)
            elif r < 0.55:
                del toks[i]
            elif r < 0.7:
                toks.insert(i, rnd.choice(words))
            elif r < 0.8:
                toks[i] = rnd.choice(["", "0", "-1", "99999999999", "(", ")", ",", "#", "\u00e9", "x" * 200])
            else:
                toks[i] += rnd.choice([",", "/", "-", "(", ")", ":"])
        out.append(" ".join(toks))
    return "\n".join(out)


def _positions(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Game, list[tuple[Any, str, Any]]]:
    """The game and every (state, side, orders) its moves were checked with, as a replay checks them."""
    game_dir = tmp_path / name
    shutil.copytree(CORPUS / name, game_dir)
    seen: list[tuple[Any, str, Any]] = []
    original = replay_module.Replay._check_orders

    def spy(self: Any, where: str, state: Any, side: str, orders: Any) -> Any:
        seen.append((state, side, orders))
        return original(self, where, state, side, orders)

    monkeypatch.setattr(replay_module.Replay, "_check_orders", spy)
    game = Game.open(game_dir)
    game.verify()
    monkeypatch.undo()
    return game, [s for s in seen if s[0] is not None]


def _attack(game: Game, state: Any, side: str, make: Any, sealed: bool) -> None:
    """Read, check and (where legal and not a sealed round's) resolve the orders ``make()`` gives;
    only a refusal may stop them."""
    rules = game.ruleset
    try:
        parsed = rules.load_orders(game.scenario, make())
        checked = rules.check(game.scenario, state, side, parsed)
        if not checked.violations and not sealed:
            rules.resolve(game.scenario, state, side, parsed, DiceStream(bytes(32)), checked)
    except PbemError:
        pass


@pytest.mark.slow
@pytest.mark.parametrize("name", ["bastogne-campaign", "arnhem-historical", "arnhem1944-historical", *SEALED])
def test_mutated_orders_are_refused_in_one_line_or_played(name: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    game, positions = _positions(name, tmp_path, monkeypatch)
    assert positions, "the replay checked no orders"
    rnd = random.Random(name)
    presenter = game.ruleset.presenter()
    sealed = name in SEALED
    for state, side, orders in positions:
        words = sorted({v for _, v in _leaves(orders) if isinstance(v, str) and len(v) < 20})
        for _ in range(MUTANTS):
            mutant = _mutant(orders, rnd, words)
            try:
                _attack(game, state, side, lambda m=mutant: m, sealed)
            except Exception as exc:  # noqa: BLE001 -- the point: anything but a refusal
                pytest.fail(f"{side}'s orders {mutant!r:.600} raised {exc!r:.300}")
        try:
            template = presenter.orders_template(game.scenario, state, side)
            skeleton = presenter.text_skeleton(game.scenario, state, side)
        except PbemError:
            continue
        if not template:
            continue
        lines = [re.sub(r"^#+\s?", "", line) for line in template.splitlines() if line.strip()]
        vocabulary = sorted({w for line in lines for w in line.split()})
        for _ in range(3):
            text = _text_mutant(lines, rnd, vocabulary)
            try:
                _attack(game, state, side,
                        lambda t=text, k=skeleton, s=side: presenter.read_text_orders(game.scenario, k, s, t), sealed)
            except Exception as exc:  # noqa: BLE001
                pytest.fail(f"{side}'s text orders {text!r:.600} raised {exc!r:.300}")
