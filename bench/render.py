"""Benchmark: rendering the full Bastogne map against a floor measured in the same run.

    python bench/render.py [--runs N] [--synthetic]

* render: wall time of WestWall's ``map_view`` drawn by ``pbem.render.svg.draw`` for the whole Bastogne map (29 x 31 hexes) with every unit
  of the Spearhead scenario's order of battle placed on it and one step of events (best of N;
  target <= 200 ms). The scenario model is built once, outside the timing, as ``pbem render`` reuses
  the engine's parsed scenario.
* floor: svgwrite writing the same number of bare hexagons, texts and counter rectangles with no
  logic (best of N, measured in the same run) -- what any svgwrite-based renderer pays;
* their ratio, and the SVG size (limit 300 KB).

With ``--synthetic`` (or while ``scenarios/bastogne-spearhead.json`` is missing) the synthetic map of
:mod:`pbem.systems.westwall.sample` is drawn instead. Not a test: nothing here asserts.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any


def best_of(runs: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def bastogne_step() -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
    """The Spearhead scenario with every unit on a free hex (deterministic spread) and a few
    events, so the drawing has the full load of counters."""
    from pbem.engine.scenarios import load_data
    from pbem.systems.westwall.model import Scenario

    sc = Scenario.parse(load_data("bastogne-spearhead"))
    hexes = [h for h in sc.map.all_hexes() if sc.map.terrain_of(h) != "lake"]
    units: dict[str, Any] = {}
    for i, u in enumerate(sc.units):
        h = hexes[(i * 13) % len(hexes)]
        units[u.id] = {"hex": str(h), "status": "on-map"}
    first = sc.units[0].id
    start = units[first]["hex"]
    events = [{"type": "moved", "unit": first, "path": [start], "mp_halves": 0}]
    state = {"scenario": sc.id, "game_turn": 3, "phasing": sc.first_player,
             "phase": "player-turn", "units": units}
    return sc, state, events


def synthetic_step() -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
    from pbem.systems.westwall.display import coerce_scenario
    from pbem.systems.westwall.sample import sample_step

    data, state, events = sample_step()
    return coerce_scenario(data), state, events


def floor(n_hexes: int, n_units: int, size: float = 32.0) -> str:
    import math

    import svgwrite

    dwg = svgwrite.Drawing(profile="full", debug=False)
    pts = [(round(size * math.cos(math.radians(a)), 2), round(size * math.sin(math.radians(a)), 2))
           for a in range(0, 360, 60)]
    for i in range(n_hexes):
        x, y = 48.0 * (i % 29), 55.4 * (i // 29)
        dwg.add(dwg.polygon(points=[(px + x, py + y) for px, py in pts], fill="#eeeeee"))
        dwg.add(dwg.text(f"{i:04d}", insert=(x, y - 20)))
    for i in range(n_units):
        x, y = 48.0 * (i % 29), 55.4 * (i // 29)
        dwg.add(dwg.rect(insert=(x - 19, y - 19), size=(39, 39), fill="#888888"))
        dwg.add(dwg.text("5-4-12", insert=(x, y + 14)))
    return str(dwg.tostring())


def main() -> None:
    from pathlib import Path

    from pbem.render.svg import draw
    from pbem.systems.westwall.mapview import map_view

    def render_map(sc: Any, state: Any, events: Any, score: dict[str, int]) -> str:
        return draw(map_view(sc, state, events, score=score))

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--synthetic", action="store_true")
    args = parser.parse_args()
    real = Path(__file__).resolve().parents[1] / "pbem" / "scenario_data" / "bastogne-spearhead.json"
    use_synthetic = args.synthetic or not real.exists()
    sc, state, events = synthetic_step() if use_synthetic else bastogne_step()
    n_units = sum(1 for u in state["units"].values() if u.get("status") == "on-map")
    n_hexes = len(sc.map.all_hexes())
    svg = render_map(sc, state, events, score={s: 0 for s in sc.side_ids()})
    t_render = best_of(args.runs, lambda: render_map(sc, state, events,
                                                     score={s: 0 for s in sc.side_ids()}))
    t_floor = best_of(args.runs, lambda: floor(n_hexes, n_units))
    print(f"map: {'synthetic' if use_synthetic else sc.id}, {n_hexes} hexes, {n_units} units")
    print(f"render_map : {t_render * 1000:7.1f} ms   (target <= 200 ms)")
    print(f"floor      : {t_floor * 1000:7.1f} ms   (svgwrite, bare hexes + counters)")
    print(f"ratio      : {t_render / t_floor:7.2f}")
    print(f"SVG size   : {len(svg.encode()) / 1024:7.1f} KB  (limit 300 KB)")


if __name__ == "__main__":
    main()
