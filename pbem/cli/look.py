"""Reading a game: ``status``, ``orders`` (the skeleton or the commented sheet), ``units``, ``reach``,
``log``, ``html`` and ``schema``. Nothing here signs anything.

Thin click wrappers: the work is the engine's (:mod:`pbem.engine.play`, :mod:`pbem.engine.status`,
:mod:`pbem.engine.history`); bad input is an :class:`InputError` (one line, exit 2, nothing
written)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import click

from pbem.cli._common import open_with_seeds, pending_decision, write_output
from pbem.cli._out import echo
from pbem.cli._out import progress as _progress
from pbem.cli.complete import unit_ids
from pbem.errors import InputError
from pbem.protocol import archive


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def status(game_dir: Path, as_json: bool) -> None:
    """Scenario, game id, step, phase, whose move it is (and since when), score, outcome."""
    from pbem.engine.status import game_status

    game, local, seeds = open_with_seeds(game_dir)
    rp = game.replay(seeds, local=local, head=True)  # the newest position only
    since = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.newest_mtime()))
    # the one wall-clock read: what the player sees, never hashed or signed
    st = game_status(game, rp, local, seeds, since=since, now=time.time())
    if as_json:
        echo(json.dumps(st.to_json(), indent=2, sort_keys=True))
        return
    echo(f"game      {st.game[:8]}  ({st.scenario})")
    for side, fp in st.keys.items():
        echo(f"key       {side:<6} {fp}" + ("  (played here)" if side in seeds else ""))
    moves = f"{st.step} move{'' if st.step == 1 else 's'} archived"
    echo(f"step      {moves}" + (f"; {st.describe}" if st.describe else ""))
    if st.as_of is not None:
        echo(f"shown     {st.as_of.text}")
    if st.clock is not None:
        echo(f"clock     {st.clock.text}")
    for side, lines in st.view_lines.items():
        echo(f"view      {side} sees: {lines[0] if lines else ''}")
        for line in lines[1:]:
            echo(f"          {line}")
    if st.umpire_lines is not None:
        lines = st.umpire_lines
        echo(f"state     (umpire, everything) {lines[0] if lines else ''}")
        for line in lines[1:]:
            echo(f"          {line}")
    for p in st.pending:
        echo(f"pending   {p['side']}: {p['label']} ({p['kind']})")
    if st.outcome:
        echo(f"outcome   {st.outcome['summary']}")
        for line in st.outcome.get("breakdown", []):
            echo(f"          {line}")
        if st.hidden:
            echo("checked   " + ("every adjudication can be checked: 'pbem verify GAME_DIR'"
                                 if st.published else
                                 "after Game Control's publication (pbem publish; ingest its email), "
                                 "'pbem verify GAME_DIR' checks every adjudication"))
    elif st.waiting:
        echo(f"awaiting  {st.waiting} since {since}")
    if st.takeback:
        echo(f"takeback  {st.takeback}")
    if st.cut_off:
        echo(f"cut off   {len(st.cut_off)} unit{'s' if len(st.cut_off) > 1 else ''} out of supply or without a "
             "line of communication:")
        for line in st.cut_off:
            echo(f"          {line}")
    if st.score:
        echo("score     " + ", ".join(f"{s} {v}" for s, v in st.score.items())
             + (f"  (as of step {st.as_of.step})" if st.as_of is not None else ""))
        for side, meaning in st.score_meaning.items():
            echo(f"          {side}: {meaning}")


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--side", required=True)
@click.option("--text", "as_text", is_flag=True,
              help="A text orders file to start from (games with text orders): what you may order "
                   "now and an example of each order, all as comments (unedited: the skeleton).")
def orders(game_dir: Path, side: str, as_text: bool) -> None:
    """Print a JSON skeleton of SIDE's pending decision, to edit and submit (--text: a commented
    text orders file instead)."""
    game, local, seeds = open_with_seeds(game_dir)
    if side not in game.body.sides:
        raise InputError(f"no side {side!r} in this game (sides: {', '.join(game.sides)})")
    rp = game.replay(seeds, local=local)
    pending_decision(rp, "orders")
    from pbem.engine.play import owed_by, own_state, state_for

    owed_by(game, rp, [side])
    state = state_for(game, rp, side, None)
    presenter = game.ruleset.presenter()
    # the template in the words this machine's own secret notes allow (a drop zone held back) [15.39]
    template = presenter.orders_template(game.scenario, own_state(game, state, side), side)
    if as_text:
        if template is None:
            raise InputError(f"the {game.ruleset.system} system has no text orders: drop --text "
                             "for the JSON skeleton")
        echo(template.rstrip("\n"))
        return
    skeleton = game.ruleset.skeleton(game.scenario, state, side)
    echo(json.dumps(skeleton, indent=2, sort_keys=True))
    if template is not None:
        echo(f"text orders: 'pbem orders {game_dir} --side {side} --text' lists what you may order "
             "now, with an example of each order", err=True)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("-o", "--output", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="The directory to write the site into (new, empty, or a site written before).")
def html(game_dir: Path, out_dir: Path) -> None:
    """Write a static site to step through the game turn by turn: the map, the orders, what
    happened, every roll and how to recompute it, the score over time.

    Open OUT/index.html in any browser (no server, no network): arrow keys step, each step has a
    permalink. With hidden information it shows only what this machine's sides may see.
    """
    from pbem.render.site import write_site

    game, local, seeds = open_with_seeds(game_dir)
    with _progress("writing the site", len(game.listing.moves)) as tick:
        written = write_site(game, out_dir, local=local, seeds=seeds, progress=tick)
    echo(str(out_dir / "index.html"))
    echo(f"{len(written)} files written", err=True)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--step", type=int, default=None, help="Only this step.")
def log(game_dir: Path, step: int | None) -> None:
    """Readable history: who ordered what, the events, every roll with its inputs."""
    from pbem.engine.history import history

    game, local, seeds = open_with_seeds(game_dir)
    presenter = game.ruleset.presenter()
    # the umpire sees everything; after the game the publication opens every order; a player sees
    # its own views [P10]
    h = history(game, local, seeds, publication=True)
    rp = h.replay
    if step is not None and not 0 <= step < len(rp.records):
        raise InputError(f"no resolved step {step} (resolved: 0..{len(rp.records) - 1})")
    for entry in h.entries(step):
        rec, turn = entry.record, entry.turn
        if rec.move is None:
            echo(f"step 0: {game.body.scenario.id} set up (game {game.id[:8]})")
            for side in game.sides:
                echo(f"    {side} plays with key {game.body.sides[side].fingerprint}")
        else:
            for line in _takeback_lines(game, presenter, rec.step, rp.record(rec.step - 1)):
                echo(line)
            b = rec.move.body
            before = rp.record(rec.step - 1)  # the state the orders answered: said as previewed [27]
            lines = presenter.describe_move(game.scenario, b.orders, umpire=b.side == game.umpire,
                                            state=before.state if before is not None else None)
            if lines:
                echo(f"step {rec.step}: {b.side} ({rec.move.name}) orders:")
                for line in lines:
                    echo(f"  . {line}")
            else:
                brief = json.dumps(b.orders, sort_keys=True, separators=(",", ":"))
                if len(brief) > 160:
                    brief = brief[:157] + "..."
                echo(f"step {rec.step}: {b.side} ({rec.move.name}) orders {brief}")
            if entry.published is not None:  # after the game: what the commitment sealed [P10]
                words = [] if b.side == game.umpire else presenter.describe_orders(game.scenario, entry.published[0])
                if words:
                    echo("  published, the orders it sealed:")
                    for line in words:
                        echo(f"  . {line}")
                else:
                    brief = json.dumps(entry.published[0], sort_keys=True, separators=(",", ":"))
                    echo("  published: " + (brief[:157] + "..." if len(brief) > 160 else brief))
        for text in presenter.narrate(game.scenario, turn["events"],
                                      state=turn["state"] if rec.state is None else rec.state):
            echo(f"    {text}")
        if not h.everything:
            for side, view in entry.views.items():
                lines = presenter.describe_view(game.scenario, view)
                echo(f"    {side} sees: {lines[0] if lines else ''}")
                for line in lines[1:]:
                    echo(f"      {line}")
        for r in turn["rolls"]:
            echo(f"    roll {r['i']}: {r['value']}  [{r['label']}]  key {turn['roll_key']} ctr {r['ctr']}")
        if turn["rolls"]:
            echo(f"    reveals {', '.join(turn['reveals'])}")
        if turn["outcome"]:
            echo(f"    outcome: {turn['outcome']['summary']}")
            for line in turn["outcome"].get("breakdown", []):
                echo(f"      {line}")
    for k in sorted(game.takebacks):  # taken back, the redo not resolved yet: said all the same
        if rp.record(k) is None and (step is None or step == k):
            for line in _takeback_lines(game, presenter, k, rp.record(k - 1)):
                echo(line)
    if rp.tail_open and step is None:
        echo(f"step {rp.placed_count}: archived, waiting for {rp.waiting}")
    asked = max(game.takebacks, default=None)  # a request still waiting for its consent
    tb = game.takebacks.get(asked) if asked is not None else None
    if tb is not None and tb.agreed + 1 in tb.requests and (step is None or step == asked):
        echo(f"step {asked}: {tb.requests[tb.agreed + 1]} asks to take back "
             f"{tb.versions.get(tb.agreed, f'move {asked}')}; not agreed yet [take-back]")


def _takeback_lines(game: Any, presenter: Any, step: int, before: Any) -> list[str]:
    """What ``pbem log`` says of the agreed take-backs of ``step`` before its standing move: who
    asked, who agreed, and the orders withdrawn, in the game's words [27]."""
    from pbem.engine.steps import Bad
    from pbem.engine.takeback import read_message

    tb = game.takebacks.get(step)
    if tb is None:
        return []
    lines: list[str] = []
    for r in range(1, tb.agreed + 1):
        req, con, old = tb.requests.get(r), tb.consents.get(r), tb.versions.get(r - 1)
        if req is None or con is None or old is None:
            continue
        try:
            req_side = read_message(game, req, "takeback").body.side
            con_side = read_message(game, con, "consent").body.side
            withdrawn = read_message(game, old, "move").body.orders
        except Bad as exc:
            lines.append(f"step {step}: take-back {r}: {exc}")
            continue
        lines.append(f"step {step}: {req_side} asked to take back {old} ({req}); {con_side} agreed ({con}) "
                     "[take-back]; withdrawn, still in the archive:")
        said = presenter.describe_move(game.scenario, withdrawn,
                                       state=before.state if before is not None else None)
        lines += [f"  x {line}" for line in said] or ["  x (no orders)"]
    return lines


@click.command()
@click.argument("what", type=click.Choice(["orders", "rulings", "move", "receipt", "turn", "genesis", "join",
                                          "takeback", "consent"]))
@click.option("--system", default=None, metavar="SYSTEM",
              help="Rules system whose orders (or umpire's rulings) schema to print (a scenario's "
                   "'system'; 'pbem --version' lists them).")
def schema(what: str, system: str | None) -> None:
    """Print the JSON Schema of an orders document, an umpire's rulings, or an archive file body."""
    if what in ("orders", "rulings"):
        from pbem.engine.ruleset import get_ruleset, known_systems

        if system is None:  # each system has its own orders: the command knows none by name [24]
            raise InputError(f"name the rules system: pbem schema {what} --system SYSTEM "
                             f"(one of {', '.join(sorted(known_systems()))})")
        ruleset = get_ruleset(system)
        doc = ruleset.orders_schema() if what == "orders" else ruleset.rulings_schema()
    else:
        from pbem.protocol.record import Record, json_schema

        bodies: dict[str, type[Record]] = {
            "move": archive.MoveBody, "turn": archive.TurnFile, "genesis": archive.GenesisBody,
            "join": archive.JoinBody, "receipt": archive.ReceiptBody,
            "takeback": archive.TakebackBody, "consent": archive.ConsentBody}
        doc = json_schema(bodies[what])
    echo(json.dumps(doc, indent=2, sort_keys=True))


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--side", default=None, help="Whose units (default: the side this machine plays, or "
                                            "the side to move).")
def units(game_dir: Path, side: str | None) -> None:
    """Your forces: id as typed in orders, counter, type, hex, values, movement allowance, state.
    """
    game, local, seeds = open_with_seeds(game_dir)
    rp = game.replay(seeds, local=local)
    if not rp.records:
        raise InputError(f"the game has not started: waiting for {rp.waiting}")
    if side is None:
        mine = sorted(seeds)
        pending = rp.current.pending
        side = mine[0] if len(mine) == 1 else pending[0].side if pending else game.sides[0]
    from pbem.engine.play import own_state, state_for

    # with hidden information: the side's own view, opened with its key on this machine; with secret
    # notes, what they hold for this machine's own side (a drop zone held back: where and when) [15.39]
    state = own_state(game, state_for(game, rp, side, None), side)
    header, rows = game.ruleset.presenter().roster(game.scenario, state, side)
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header) - 1)]
    for r in [header, *rows]:
        echo("  ".join(str(c).ljust(w) for c, w in zip(r[:-1], widths, strict=False)) + "  " + str(r[-1]))


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.argument("unit", shell_complete=unit_ids)
@click.option("--map", "map_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also draw the map with the reachable hexes shaded into this SVG file.")
def reach(game_dir: Path, unit: str, map_file: Path | None) -> None:
    """Every hex UNIT can reach this phase, with its cost and path, and why the hexes next to it
    that it cannot enter are closed. --map FILE.svg also draws them, shaded, on the map.
    """
    game, local, seeds = open_with_seeds(game_dir)
    rp = game.replay(seeds, local=local)
    if not rp.records:
        raise InputError(f"the game has not started: waiting for {rp.waiting}")
    presenter = game.ruleset.presenter()
    state = rp.current.state
    if state is None:  # hidden information: the view of the side the unit belongs to, with its key here
        from pbem.engine.play import state_for

        owner = presenter.unit_side(game.scenario, unit)
        if owner is None:
            raise InputError(f"no unit {unit!r} in this game")
        state = state_for(game, rp, owner, None)
    lines = presenter.reach(game.scenario, state, unit)
    if map_file is not None:
        view = presenter.reach_view(game.scenario, state, unit)
        if view is None:
            raise InputError(f"{game.ruleset.system} has no map to shade")
        from pbem.render.svg import draw

        write_output(map_file, draw(view).encode("utf-8"), game_dir)
    for line in lines:
        echo(line)
    if map_file is not None:
        echo(f"map: {map_file}", err=True)
