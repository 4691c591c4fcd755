"""Digests of WestWall rules output, to show that a performance change altered no result.

    .venv/bin/python bench/equivalence.py                 # print one digest per case
    .venv/bin/python bench/equivalence.py --save FILE     # ... and write them to FILE
    .venv/bin/python bench/equivalence.py --check FILE    # compare with FILE; exit 1 on a difference
    .venv/bin/python bench/equivalence.py --quick         # fewer cases

Run ``--save`` on the revision before a change and ``--check`` after it. Not a test and not a
timing: it replays deterministic work and hashes everything the rules produce.

Cases:

* ``bot:<scenario>:<seed>``: a whole game of a bundled scenario, the sparring bot playing both
  sides, dice from a fixed per-step key. Every step hashes the orders, the violations
  ``validate`` returns, the new state and the events of ``resolve``, plus the legal-move options
  of the side to move (``enumerate.legal_moves``: destinations, costs and exits).
* ``syn:<cols>x<rows>/<units>/<combats>:<seed>``: a synthetic position of ``_synthetic.py``: the
  result of ``validate`` and ``resolve`` of its legal orders, and the violations of three broken
  variants (no attacks; no barrages and every path cut after its first hex; every attack's
  defenders reversed and advances doubled), which exercise the obligation, adjacency and movement
  checks.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _synthetic as syn  # noqa: E402

from pbem.engine.scenarios import load_data  # noqa: E402
from pbem.protocol.dice import DiceStream  # noqa: E402
from pbem.systems.westwall.bot import choose_orders  # noqa: E402
from pbem.systems.westwall.enumerate import legal_moves  # noqa: E402
from pbem.systems.westwall.rules import WestWallRules, parse_state  # noqa: E402

RULES = WestWallRules()


def _j(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str).encode()


def _violations(vs: list[Any]) -> list[list[Any]]:
    return [[str(v), v.rule, v.unit, v.hex] for v in vs]


def bot_game(scenario_id: str, seed: int) -> str:
    sc = RULES.load_scenario(load_data(scenario_id))
    state: Any = RULES.initial_state(sc, {})
    h = hashlib.sha256()
    step = 0
    while True:
        pend = RULES.pending(sc, state)
        if not pend:
            break
        side = pend[0].side
        st = parse_state(state)
        if st.phase == "player-turn":
            for uid, opt in sorted(legal_moves(sc, st).items()):
                h.update(_j([uid, opt.entering, sorted((str(k), c) for k, c in opt.destinations.items()),
                             [(str(k), c) for k, c in opt.exits]]))
        orders = choose_orders(sc, state, side, seed=seed)
        h.update(_j(orders))
        h.update(_j(_violations(RULES.validate(sc, state, side, orders))))
        dice = DiceStream(hashlib.sha256(f"{scenario_id}/{seed}/{step}".encode()).digest())
        res = RULES.resolve(sc, state, side, orders, dice)
        h.update(_j(RULES.dump_state(sc, res.state)))
        h.update(_j(res.events))
        h.update(_j([r.to_json() for r in dice.rolls]))
        state = res.state
        step += 1
    return f"{h.hexdigest()} ({step} steps)"


def _broken_variants(orders: dict[str, Any]) -> list[dict[str, Any]]:
    no_attacks = copy.deepcopy(orders)
    no_attacks["attacks"] = []
    cut = copy.deepcopy(orders)
    for m in cut["moves"]:
        m["path"] = m["path"][:1]
    for a in cut["attacks"]:
        a.pop("artillery", None)
    swapped = copy.deepcopy(orders)
    for a in swapped["attacks"]:
        a["defenders"] = list(reversed(a["defenders"]))
        a["attackers"], a["artillery"] = a.get("artillery", []), a.get("attackers", [])
        for adv in a.get("advance", []):
            adv["hexes"] = adv.get("hexes", 1) * 2
    return [no_attacks, cut, swapped]


def synthetic(cols: int, rows: int, units: int, combats: int, seed: int) -> str:
    case = syn.build_case(cols, rows, units, combats, seed)
    h = hashlib.sha256()
    h.update(_j(case.orders))
    h.update(_j(_violations(RULES.validate(case.scenario, case.state, syn.WEST, case.orders))))
    dice = DiceStream(case.dice_key)
    res = RULES.resolve(case.scenario, case.state, syn.WEST, case.orders, dice)
    h.update(_j(RULES.dump_state(case.scenario, res.state)))
    h.update(_j(res.events))
    for variant in _broken_variants(case.orders):
        try:
            vs = _violations(RULES.validate(case.scenario, case.state, syn.WEST, variant))
        except Exception as exc:  # an InputError is a result too
            vs = [[type(exc).__name__, str(exc)]]
        h.update(_j(vs))
    return h.hexdigest()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--save")
    ap.add_argument("--check")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    cases: list[tuple[str, Any]] = [
        ("bot:bastogne-spearhead:1", lambda: bot_game("bastogne-spearhead", 1)),
        ("bot:bastogne-relief:1", lambda: bot_game("bastogne-relief", 1)),
        ("syn:29x31/100/25:1", lambda: synthetic(29, 31, 100, 25, 1)),
        ("syn:29x31/100/25:2", lambda: synthetic(29, 31, 100, 25, 2)),
    ]
    if not args.quick:
        cases += [
            ("bot:bastogne-spearhead:2", lambda: bot_game("bastogne-spearhead", 2)),
            ("bot:bastogne-campaign:1", lambda: bot_game("bastogne-campaign", 1)),
            ("syn:29x31/100/25:3", lambda: synthetic(29, 31, 100, 25, 3)),
            ("syn:60x60/300/75:1", lambda: synthetic(60, 60, 300, 75, 1)),
            ("syn:120x120/800/200:1", lambda: synthetic(120, 120, 800, 200, 1)),
        ]
    got: dict[str, str] = {}
    for name, fn in cases:
        t0 = time.perf_counter()
        got[name] = fn()
        print(f"{name:28} {got[name]}  ({time.perf_counter() - t0:.1f} s)", flush=True)
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            json.dump(got, f, indent=1, sort_keys=True)
    if args.check:
        with open(args.check, encoding="utf-8") as f:
            want = json.load(f)
        bad = [k for k in got if k in want and want[k] != got[k]]
        missing = [k for k in got if k not in want]
        for k in bad:
            print(f"DIFFERS {k}: {want[k]} -> {got[k]}")
        print(f"SUMMARY equivalence {len(got) - len(bad) - len(missing)} identical, {len(bad)} differ, "
              f"{len(missing)} not in {args.check}")
        return 1 if bad else 0
    print(f"SUMMARY equivalence {len(got)} cases hashed (compare runs with --save/--check)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
