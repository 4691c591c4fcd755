"""``pbem html``: a static site to step through a campaign turn by turn.

One page (``index.html``, from the ``site.html.j2`` template) with every step's orders, what
happened, every roll with its label and how to recompute it, and the score, embedded as JSON; the
maps beside it (``maps/map-NNNN.svg``, each self-contained: a browser shows an SVG in ``<img>``
without loading what it links to); a score chart drawn here as inline SVG. No server, no network, no CDN: it opens from ``file://``. Keyboard arrows step, each
step has a permalink (``#step-N``), and the layout stacks on a phone.

With hidden information, the site holds what the machine that writes it may see: the umpire's has
everything; a player's has the public record and its own views (never another side's).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.errors import InputError
from pbem.protocol.names import map_name, side_map_name

if TYPE_CHECKING:
    from pbem.engine.gamedir import Game


CHART_FALLBACK = ("#6e7f80", "#7a8b3a", "#a04040", "#4060a0", "#a07020", "#606060")
"""Line colours for sides whose map colour is unknown (a system without maps)."""


def _chart(scores: list[dict[str, int]], names: dict[str, str], colours: dict[str, str] | None = None,
           steps: list[int] | None = None) -> str:
    """The score after each step as a small inline SVG line chart: one line per side in the side's
    colour on the map (``colours``), the score axis with its lowest, middle and highest values, the
    step axis with the first and last step (``steps``, default 0 to n-1)."""
    sides = sorted({s for sc in scores for s in sc})
    if not sides or len(scores) < 2:
        return ""
    colours = colours or {}
    steps = steps if steps is not None and len(steps) == len(scores) else list(range(len(scores)))
    width, height, left, right, top_pad, bottom = 320, 130, 34, 10, 14, 26
    top = max(1, max(v for sc in scores for v in sc.values()))
    low = min(0, min(v for sc in scores for v in sc.values()))
    parts = [f'<svg id="score-chart" viewBox="0 0 {width} {height}" width="100%" role="img" '
             f'aria-label="score after each step">']
    n = len(scores) - 1
    x0, x1, y0, y1 = left, width - right, height - bottom, top_pad

    def ypos(v: float) -> float:
        return y0 - (y0 - y1) * (v - low) / (top - low)

    parts.append(f'<line class="axis" x1="{x0}" y1="{y0}" x2="{x1}" y2="{y0}" stroke="#888"/>')
    parts.append(f'<line class="axis" x1="{x0}" y1="{y0}" x2="{x0}" y2="{y1}" stroke="#888"/>')
    ticks = sorted({low, (low + top) // 2, top})
    for v in ticks:
        y = ypos(v)
        parts.append(f'<line x1="{x0 - 3}" y1="{y:.1f}" x2="{x1}" y2="{y:.1f}" stroke="#ddd"/>')
        parts.append(f'<text class="tick-y" x="{x0 - 5}" y="{y + 3:.1f}" font-size="9" text-anchor="end">{v}</text>')
    for i in sorted({0, n // 2, n}):
        x = x0 + (x1 - x0) * i / n
        parts.append(f'<text class="tick-x" x="{x:.1f}" y="{y0 + 11}" font-size="9" text-anchor="middle">'
                     f"{steps[i]}</text>")
    parts.append(f'<text x="{(x0 + x1) / 2:.1f}" y="{height - 3}" font-size="9" text-anchor="middle" '
                 'fill="#666">step</text>')
    for k, side in enumerate(sides):
        pts = []
        for i, sc in enumerate(scores):
            x = x0 + (x1 - x0) * i / n
            pts.append(f"{x:.1f},{ypos(sc.get(side, 0)):.1f}")
        colour = colours.get(side) or CHART_FALLBACK[k % len(CHART_FALLBACK)]
        parts.append(f'<polyline data-side="{_esc(side)}" fill="none" stroke="{_esc(colour)}" stroke-width="2.5" '
                     f'points="{" ".join(pts)}"/>')
        parts.append(f'<rect x="{x0 + 6}" y="{4 + 12 * k}" width="10" height="8" fill="{_esc(colour)}" stroke="#000" '
                     f'stroke-width="0.5"/><text x="{x0 + 20}" y="{11 + 12 * k}" font-size="10">'
                     f"{_esc(names.get(side, side))}</text>")
    parts.append("</svg>")
    return "".join(parts)


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def write_site(game: Game, out_dir: Path, *, local: Any = None, seeds: dict[str, bytes] | None = None,
               progress: Any = None) -> list[Path]:
    """Write the viewer of ``game`` into ``out_dir`` (created; refused when it holds anything but a
    viewer written before). Returns the files written."""
    from pbem.protocol.fsutil import write_replace
    from pbem.templates import template_env

    if out_dir.exists() and not out_dir.is_dir():
        raise InputError(f"{out_dir} is not a directory")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not (out_dir / "index.html").is_file():
        raise InputError(f"{out_dir} holds other files; give an empty or new directory")
    from pbem.engine.history import history

    h = history(game, local, seeds or {})
    rp_records = list(h.replay.records)
    presenter = game.ruleset.presenter()
    sc = game.scenario
    names = {s: presenter.side_name(sc, s) for s in game.sides}
    viewers = h.viewers
    maps_dir = out_dir / "maps"
    written: list[Path] = []
    out_dir.mkdir(parents=True, exist_ok=True)
    has_map = bool(presenter.has_map) and not game.hidden
    # hidden information [P10]: Game Control's machine draws the master map of every step; a team's
    # machine draws its own map from each view the umpire's reports sealed to it, and shows the
    # latest one at the steps in between (what the team knew then)
    hidden_maps = bool(presenter.has_map) and game.hidden and (h.everything or bool(viewers))
    if has_map:
        from pbem.render.outputs import StepView
    if has_map or hidden_maps:
        maps_dir.mkdir(exist_ok=True)
    steps: list[dict[str, Any]] = []
    scores: list[dict[str, int]] = []
    colours: dict[str, str] = {}  # each side's colour on the maps, for the score chart
    known_map: str | None = None
    for item in h.entries():
        rec, turn, move = item.record, item.turn, item.move
        if progress is not None:
            progress(rec.step, rp_records[-1].step)
        if move is None:
            heading = f"Step 0: {presenter.title(sc)} set up"
            orders: list[str] = []
        else:
            heading = f"Step {rec.step}: {names.get(move.body.side, move.body.side)}"
            before = h.replay.record(rec.step - 1)  # said as the author's preview said it [27]
            orders = list(presenter.describe_move(sc, move.body.orders, umpire=move.body.side == game.umpire,
                                                  state=before.state if before is not None else None))
        events = list(presenter.narrate(sc, turn["events"], turn["rolls"],
                                        state=turn["state"] if rec.state is None else rec.state))
        for side, view in item.views.items():  # in words, as 'pbem log' tells them
            lines = presenter.describe_view(sc, view)
            events += [f"{names.get(side, side)} sees: {lines[0] if lines else ''}", *lines[1:]]
        score = dict(turn.get("score") or {})
        scores.append(score)
        pend = turn.get("pending") or []
        pending = ("next: " + "; ".join(f"{names.get(p['side'], p['side'])}: {p['label']}" for p in pend)
                   if pend else (turn["outcome"]["summary"] if turn.get("outcome") else ""))
        entry: dict[str, Any] = {
            "step": rec.step, "heading": heading, "orders": orders, "events": events,
            "rolls": [{"i": r["i"], "value": r["value"], "label": r["label"], "ctr": r["ctr"]}
                      for r in turn["rolls"]],
            "roll_key": turn.get("roll_key"), "pending": pending,
            "score": ", ".join(f"{names.get(s, s)} {v}" for s, v in sorted(score.items())) or "-",
            "map": None,
        }
        if has_map and not rec.written:  # a turn this replay computed but did not write has no file
            view = StepView(game, rec.step, move=move)
            if not colours:
                colours = {si.id: si.colour for si in view.view().sides}
            name = map_name(rec.step)
            # self-contained: a browser shows an SVG in <img> without loading what it links to
            write_replace(maps_dir / name, view.svg().encode("utf-8"), mode=0o644)
            written.append(maps_dir / name)
            entry["map"] = f"maps/{name}"
        elif hidden_maps:
            drawn = _hidden_map(game, item, maps_dir, viewers, everything=h.everything, replay=h.replay,
                                colours=colours)
            if drawn is not None:
                written.append(drawn)
                known_map = f"maps/{drawn.name}"
            entry["map"] = known_map
        steps.append(entry)
    outcome = None
    if rp_records and (rp_records[-1].full_turn or rp_records[-1].turn).get("outcome"):
        outcome = (rp_records[-1].full_turn or rp_records[-1].turn)["outcome"]["summary"]
    data = json.dumps(steps, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")
    html = template_env().get_template("site.html.j2").render(
        title=presenter.title(sc), game_id=game.id, steps=steps, steps_json=data,
        outcome=outcome, chart=_chart(scores, names, colours, [s["step"] for s in steps]),
        viewer=", ".join(names.get(s, s) for s in viewers) if game.hidden and viewers else None,
    )
    write_replace(out_dir / "index.html", html.encode("utf-8"), mode=0o644)
    written.append(out_dir / "index.html")
    return written


def _hidden_map(game: Game, item: Any, maps_dir: Path, viewers: dict[str, str], *,
                everything: bool, replay: Any, colours: dict[str, str] | None = None) -> Path | None:
    """The map of one step of a game with hidden information, as this machine may draw it: the
    master map where every state is open here (Game Control, or after the publication), framed on
    the step's action; else the first viewer side's own map, cropped to its forces, from the view
    this step's report sealed to it (at step 0, the side's view of the set-up); ``None`` when the
    step tells this machine nothing new."""
    from pbem.protocol.fsutil import write_replace
    from pbem.render.outputs import crop
    from pbem.render.svg import draw

    presenter = game.ruleset.presenter()
    header = [f"Game {game.id[:8]} · step {item.step}"]
    if everything and item.record.state is not None:  # framed on the step's action
        view = presenter.map_view(game.scenario, item.record.state, item.turn.get("events", []), side=None,
                                  header_lines=header)
        name = map_name(item.step)
    elif item.views:
        side = sorted(set(item.views) & set(viewers))[0] if set(item.views) & set(viewers) else None
        if side is None:
            return None
        view = presenter.map_view(game.scenario, item.views[side], [], side=side, header_lines=header)
        name = side_map_name(item.step, side)
    elif item.step == 0 and viewers:  # the set-up, as the side's own pbem shows it before any report
        from pbem.engine.play import my_view

        side = sorted(viewers)[0]
        view = presenter.map_view(game.scenario, my_view(game, replay, side, viewers[side], 0), [], side=side,
                                  header_lines=header)
        name = side_map_name(item.step, side)
    else:
        return None
    if view is None:
        return None
    if colours is not None and not colours:
        colours.update({si.id: si.colour for si in view.sides})
    path = maps_dir / name
    around, radius = crop(view)
    write_replace(path, str(draw(view, around=around, radius=radius)).encode("utf-8"), mode=0o644)
    return path
