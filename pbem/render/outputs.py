"""Derived files of a game directory: ``map-NNNN.svg`` for each turn file (the emails:
:mod:`pbem.mail.compose`).

:class:`StepView` reads one step of the archive as it is on disk: the scenario through
:meth:`pbem.engine.Game.open` (which checks the genesis and the scenario's content hash) and the
turn file ``turn-NNNN.json`` with the strict JSON reader. It does not re-adjudicate; ``pbem
verify`` does that.

:func:`write_step_outputs` writes ``map-NNNN.svg`` beside the turn file
(atomically, never overwriting different bytes); :func:`output_hook` is the same thing in the
shape of an engine output hook, for the newest turn only, and it removes the maps of older steps
(issue 28: only the newest step's derived files are kept; :func:`as_written` draws any step's map
again, byte for byte as it was written). Every map draws its terrain itself, so it shows on its own
(in an HTML ``<img>``, webmail, a forum, cairosvg); the maps of pbem 0.2 placed a ``board.svg``
drawn once per game (``<image href>``), and are drawn again that way. :func:`check_redrawn` is a
``pbem verify`` checker that re-renders every ``map-NNNN.svg`` present and compares the bytes (the
renderer is deterministic), each the way it says it was drawn (:func:`drawing_of`: a map an older
pbem wrote is drawn again as that pbem drew it). Mail files are not compared: they depend on the
user's own templates.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.errors import InputError
from pbem.protocol import names
from pbem.protocol.fsutil import plain_file

if TYPE_CHECKING:
    from pbem.engine.gamedir import Game

BOARD_NAME = names.BOARD


class StepView:
    """Everything needed to draw or tell one step of a game directory."""

    def __init__(self, game: Game, step: int | None, *, move: Any = None) -> None:
        from pbem.engine.steps import read_file
        from pbem.protocol.canonical import MAX_TURN_BYTES, loads_strict

        self.game = game
        self.presenter = game.ruleset.presenter()
        self.scenario: Any = game.scenario
        turns = game.listing.turns
        if not turns:
            raise InputError(f"{game.dir} has no turn file yet (the game has not started)")
        if step is None:
            step = max(turns)
        if step not in turns:
            have = ", ".join(str(s) for s in sorted(turns))
            raise InputError(f"no turn-{step:04d}.json in {game.dir} (steps present: {have})")
        self.step = step
        self.turn_path = turns[step]
        self.turn_bytes = read_file(self.turn_path, MAX_TURN_BYTES)
        turn = loads_strict(self.turn_bytes, max_bytes=MAX_TURN_BYTES, what=self.turn_path.name)
        if not isinstance(turn, dict) or not isinstance(turn.get("state"), dict):
            raise InputError(f"{self.turn_path.name}: not a turn file (no state)")
        self.turn: dict[str, Any] = turn
        # ``move``: the message that produced this turn, when the caller holds it but the game
        # object does not list it yet (an engine hook runs before ``game.moves`` is refreshed)
        self.move = move if move is not None else game.moves.get(step)

    @property
    def events(self) -> list[Any]:
        return list(self.turn.get("events") or [])

    @property
    def score(self) -> dict[str, int]:
        score = self.turn.get("score")
        return dict(score) if isinstance(score, dict) else {}

    def subtitle(self) -> str:
        mover = self.move.body.side if self.move is not None else None
        return str(self.presenter.subtitle(self.scenario, self.turn["state"], self.step, mover))

    def view(self, *, side: str | None = None) -> Any:
        """The step's :class:`~pbem.maps.view.MapView`, from the system's presenter."""
        if side is not None and side not in self.game.sides:
            raise InputError(f"unknown side {side!r} (sides: {', '.join(self.game.sides)})")
        state = self.turn["state"]
        if side is not None:  # open information in WestWall, but ask the ruleset anyway
            state = self.game.ruleset.view(self.scenario, state, side)
        view = self.presenter.map_view(
            self.scenario, state, self.events, subtitle=self.subtitle(), side=side,
            score=self.score, header_lines=[f"Game {self.game.id[:8]} · {self.turn_path.name}"],
        )
        if view is None:
            raise InputError(f"the {self.game.ruleset.system} system draws no map")
        return view

    def svg(self, *, side: str | None = None, around: str | None = None,
            radius: int | None = None, board: str | None = None, zoc: str | None = None,
            drawing: int | None = None) -> str:
        """The map (``board``: a whole map placing the game's board file instead of drawing it;
        ``zoc``: shade the hexes that side's zones of control cover; ``drawing``: an older way of
        drawing, to draw again a map an older pbem wrote, default the newest)."""
        from dataclasses import replace

        from pbem.render.svg import DRAWING, draw

        view = self.view(side=side)
        if zoc is not None:
            hexes = self.presenter.zones_of_control(self.scenario, self.turn["state"], zoc)
            if hexes is None:
                raise InputError(f"the {self.game.ruleset.system} system has no zones of control")
            name = self.presenter.side_name(self.scenario, zoc)
            case = f" [{self.presenter.zoc_case}]" if self.presenter.zoc_case else ""
            view = replace(view, shaded=tuple((h, "") for h in hexes),
                           shaded_heading=f"zone of control of {name} units{case}")
        return draw(view, around=around, radius=radius, board=board,
                    drawing=DRAWING if drawing is None else drawing)

    def board_svg(self) -> str:
        from pbem.render.svg import draw_board

        return draw_board(self.view())


ACTION_MARGIN = 2
"""Hexes shown beyond the outermost hex of a step's action on the email's map (room for the combat
labels, which sit beside the hexes they name)."""


def action_hexes(view: Any) -> list[Any]:
    """Every hex a step's marks touch, on the map: each hex of every move, retreat, displacement
    and advance, every combat's defenders, attackers, supporting and defensive fire, eliminations
    and placements (landings, entries, set-up)."""
    from pbem.maps.view import CombatMark, EliminatedMark, MoveMark, PlacedMark, TrailMark

    hexes: list[Any] = []
    for mark in view.marks:
        if isinstance(mark, MoveMark | TrailMark):
            hexes.extend(mark.path)
        elif isinstance(mark, CombatMark):
            hexes.extend(mark.defenders + mark.attackers + mark.barrage + mark.fpf)
        elif isinstance(mark, EliminatedMark | PlacedMark) and mark.hex is not None:
            hexes.append(mark.hex)
    return sorted({h for h in hexes if view.on_map(h)})


def action_crop(view: Any) -> tuple[Any, tuple[tuple[int, int], tuple[int, int]]] | None:
    """The email's map of a step: the rectangle of the grid holding all of the step's action
    (:func:`action_hexes`) with :data:`ACTION_MARGIN` hexes to spare on every side, cut to the map,
    and the hex at its middle (which names the file); None when nothing happened."""
    from pbem.maps.hexmap import Hex

    hexes = action_hexes(view)
    if not hexes:
        return None
    m = ACTION_MARGIN
    c0 = max(view.cols[0], min(h.col for h in hexes) - m)
    c1 = min(view.cols[1], max(h.col for h in hexes) + m)
    r0 = max(view.rows[0], min(h.row for h in hexes) - m)
    r1 = min(view.rows[1], max(h.row for h in hexes) + m)
    return Hex((c0 + c1) // 2, (r0 + r1) // 2), ((c0, c1), (r0, r1))


def open_game(game_dir: Path) -> Any:
    from pbem.engine.gamedir import open_checked

    return open_checked(game_dir)


def write_step_outputs(game_dir: Path | str, step: int, *, game: Game | None = None,
                       move: Any = None) -> list[Path]:
    """Write ``map-NNNN.svg`` for turn ``step`` into ``game_dir``; returns the paths created (a file
    already there with the same bytes is left alone and not listed; one with other bytes is an
    :class:`~pbem.errors.ArchiveError`). Atomic: temp file, fsync, link into place."""

    game_dir = Path(game_dir)
    view = StepView(game if game is not None else open_game(game_dir), step, move=move)
    path = game_dir / names.map_name(step)
    # the terrain drawn in the map itself: a map shows on its own wherever it is opened (issue 28)
    return write_derived(path, view.svg().encode("utf-8"))


def write_derived(path: Path, data: bytes) -> list[Path]:
    """Write a derived file (never overwriting) and record its hash (:mod:`pbem.engine.derived`)."""
    from pbem.engine import derived
    from pbem.protocol.fsutil import write_new

    if not write_new(path, data):
        return []
    derived.record(path.parent, path.name, data)
    return [path]


def output_hook(game: Game, replay: Any, record: Any) -> list[Path]:
    """Engine output hook: the map of the newest turn file (systems whose presenter draws maps; not
    with hidden information, whose turn files hold no state: each side draws its own with
    :func:`private_svg`). The maps of older steps are removed (:func:`prune_maps`): they are drawn
    again on demand (``pbem render --step N``), and their hashes stay in ``derived.sha256``."""
    if not game.ruleset.presenter().has_map or game.hidden or record is not replay.records[-1]:
        return []
    name = names.map_name(record.step)
    out: list[Path] = []
    if not plain_file(game.dir / name):  # else drawn already (by this or an earlier command)
        out = write_step_outputs(game.dir, record.step, game=game, move=record.move)
        if name not in game.listing.other:
            game.listing.other.append(name)
    prune_maps(game, record.step)
    return out


def prune_maps(game: Game, newest: int) -> list[str]:
    """Remove the maps of the steps before ``newest`` that this directory holds; returns their
    names. (The ``board.svg`` an older pbem's maps placed stays: those maps may be kept.)"""
    from pbem.engine import derived

    removed: list[str] = []
    old = [n for n in game.listing.other if (m := names.MAP_RE.fullmatch(n)) and int(m.group(1)) < newest]
    if not old:  # fullmatch: not a name ending in a newline
        return removed
    recorded = derived.newest(game.dir, old)
    for name in old:
        if derived.remove(game.dir, name, game.listing.other, recorded):
            removed.append(name)
    return removed


def check_redrawn(game: Game, replay: Any) -> None:
    """``pbem verify --redraw`` (after the hashes of the derived files, :func:`pbem.outputs.engine_hooks`):
    every ``map-NNNN.svg`` must equal a fresh rendering of its turn file. The first that differs
    is named."""
    from pbem.engine.derived import MAX_DERIVED_BYTES
    from pbem.errors import VerificationError
    from pbem.protocol.fsutil import read_regular

    if not game.ruleset.presenter().has_map or game.hidden:
        return
    board = game.dir / BOARD_NAME
    board_checked = False
    for step in sorted(game.listing.turns):
        path = game.dir / names.map_name(step)
        if not path.is_file():
            continue
        view = StepView(game, step)
        old = read_regular(path, MAX_DERIVED_BYTES, what=path.name, follow_symlinks=False)
        placed = places_board(old)
        if placed and not board_checked and board.is_file():
            if read_regular(board, MAX_DERIVED_BYTES, what=BOARD_NAME, follow_symlinks=False) \
                    != view.board_svg().encode("utf-8"):
                raise VerificationError(BOARD_NAME, "differs from the board drawn from the scenario")
            board_checked = True
        drawing = drawing_of(old)
        if drawing is None:
            raise VerificationError(path.name, "was drawn by a newer pbem (a drawing this pbem does not "
                                               "know): only --redraw needs it, plain verify checks its hash")
        fresh = view.svg(board=BOARD_NAME if placed else None, drawing=drawing).encode("utf-8")
        if old != fresh:
            raise VerificationError(path.name, f"differs from the map re-rendered from "
                                               f"{game.listing.turns[step].name}")


_DRAWING_ATTR = re.compile(rb'<svg\b[^>]*?\sdata-drawing="([0-9]{1,3})"')
_BOARD_IMAGE = re.compile(rb'<image\b[^>]*\sid="board"')


def places_board(svg: bytes) -> bool:
    """Whether a map places the game's ``board.svg`` (``<image id="board" href=...>``: the maps of
    pbem 0.2) instead of drawing its terrain itself."""
    return _BOARD_IMAGE.search(svg) is not None


def as_written(game: Game, step: int | None = None) -> tuple[bytes, bool | None]:
    """The map of ``step`` (default: the newest) as pbem wrote it into this directory, drawn again
    from its turn file: the newest way of drawing, or -- when ``derived.sha256`` records another
    hash for it -- the older way of drawing (and of placing the board) that gives that hash.
    Returns the bytes and whether they equal the recorded hash (None: no hash recorded)."""
    import hashlib

    from pbem.engine import derived
    from pbem.render.svg import DRAWING

    view = StepView(game, step)
    expected = derived.read(game.dir).get(names.map_name(view.step))
    first = view.svg().encode("utf-8")
    if expected is None:
        return first, None
    if hashlib.sha256(first).hexdigest() == expected:
        return first, True
    for drawing in range(DRAWING, 0, -1):  # an older pbem's map: which drawing, board placed or not
        for board in (BOARD_NAME, None):
            if drawing == DRAWING and board is None:
                continue  # drawn first, above
            data = view.svg(board=board, drawing=drawing).encode("utf-8")
            if hashlib.sha256(data).hexdigest() == expected:
                return data, True
    return first, False


def drawing_of(svg: bytes) -> int | None:
    """Which way of drawing made a map (:data:`pbem.render.svg.canvas.DRAWING`): its root's
    ``data-drawing``, or 1 (the maps of pbem 0.2.0 carry none); None for a drawing newer than this
    pbem knows."""
    from pbem.render.svg import DRAWING

    m = _DRAWING_ATTR.search(svg[:4096])
    drawing = int(m.group(1)) if m else 1
    return drawing if 1 <= drawing <= DRAWING else None


def private_svg(game: Game, side: str | None, *, around: str | None = None, radius: int | None = None,
                step: int | None = None) -> str:
    """The map of a game with hidden information as this machine may draw it [P10]: a side's own
    view (opened with its key) or, on Game Control's machine, the master map, now or after
    ``step``. ``side`` may be left out when this machine plays one side only."""
    from pbem.engine.play import my_view
    from pbem.protocol.localstate import LocalGame, local_seeds, private_key
    from pbem.protocol.seal import x25519_private
    from pbem.render.svg import draw

    local = LocalGame.of(game)
    mine = local.sides()
    if side is None:
        if len(mine) != 1:
            raise InputError(f"say whose map to draw: --side {' or '.join(sorted(mine)) or 'SIDE'}")
        side = next(iter(mine))
    if side not in game.sides:
        raise InputError(f"unknown side {side!r} (sides: {', '.join(game.sides)})")
    if side not in mine:
        raise InputError(f"{side}'s map is hidden from this machine (it plays "
                         f"{', '.join(sorted(mine)) or 'no side'}): only {side}'s key opens its view")
    rp = game.replay(local_seeds(game, local), local=local)
    if not rp.records:
        raise InputError(f"the game has not started: waiting for {rp.waiting}")
    umpire = game.ruleset.umpire(game.scenario)
    shown = rp.current.step if step is None else step
    if side == umpire:
        rec = rp.current
        if step is not None and step != rec.step:
            if not 0 <= step <= rec.step:
                raise InputError(f"no step {step} in this game yet (steps 0 to {rec.step})")
            found = rp.record(step)
            if found is None or found.state is None:
                # before this machine's checkpoint (or a record it kept without the master state):
                # replay from the genesis, with the umpire's key that opens the sealed sheets
                key = x25519_private(private_key(mine[umpire]), game.id, umpire)
                found = game.replay(local_seeds(game, local), umpire_key=key).record(step)
            assert found is not None
            rec = found
        state = rec.state
        if state is None:
            raise InputError("Game Control's master state is not on this machine")
    else:
        state = my_view(game, rp, side, mine[side], step)
    presenter = game.ruleset.presenter()
    events = (rec.full_turn or {}).get("events", []) if side == umpire else []
    view = presenter.map_view(game.scenario, state, events, side=None if side == umpire else side,
                              header_lines=[f"Game {game.id[:8]} · step {shown}"])
    if view is None:
        raise InputError(f"the {game.ruleset.system} system draws no map")
    if around is None:
        around, radius = crop(view, radius)
    return str(draw(view, around=around, radius=radius))


def crop(view: Any, radius: int | None = None) -> tuple[str | None, int | None]:
    """Where a map of a game with hidden information is cropped: a side's map to its forces and
    the hexes it focuses on (the objectives near them); the umpire's master map (no viewer side)
    to the step's action when the system names it (``focus``); otherwise the whole map."""
    if view.viewer_id is None:
        if view.focus:
            return _crop_to((), radius, view.focus)
    elif view.counters:
        return _crop_to(view.counters, radius, view.focus)
    return None, radius


def _crop_to(counters: Any, radius: int | None, focus: Any = ()) -> tuple[str, int]:
    """The centre and radius of a crop holding every counter and every ``focus`` hex (3 hexes to
    spare, at least 6)."""
    from pbem.maps.hexmap import Hex

    hexes = [c.hex for c in counters] + list(focus)
    col = sorted(h.col for h in hexes)[len(hexes) // 2]
    row = sorted(h.row for h in hexes)[len(hexes) // 2]
    centre = Hex(col, row)
    need = max(centre.distance(h) for h in hexes) + 3
    return str(centre), radius if radius is not None else max(6, need)
