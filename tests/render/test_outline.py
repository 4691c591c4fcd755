"""Drawing 3's terrain outlines (issue 28): :func:`pbem.render.svg.board.hex_outline` walks each hex's
sides with precomputed corner offsets and the neighbour across each side; it must give the same path
text, byte for byte, as the definition it replaced -- every side of every hex of the set, found by
:meth:`Canvas.hex_side` (corners by trigonometry, the hex across by the nearest centre), kept when
the hex across is not in the set -- on every bundled board, whole and cropped, in both orientations."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from pbem.engine.gamedir import load_scenario
from pbem.engine.scenarios import bundled_ids, content_hash, load_data
from pbem.maps.hexmap import Hex
from pbem.render.svg.board import hex_outline
from pbem.render.svg.canvas import Canvas, chained


def reference_outline(cv: Canvas, hexes: Iterable[Hex]) -> str:
    """The outline as it was first defined: every side from :meth:`Canvas.hex_side`."""
    inside = set(hexes)
    segments = [cv.hex_side(h, k) for h in sorted(inside) for k in range(6)]
    return chained([seg for seg, across in segments if across not in inside])


def _boards() -> list[tuple[str, Any]]:
    """(scenario id, MapView at the start) of every bundled scenario whose system draws a map,
    one per distinct board."""
    out: list[tuple[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    for sid in bundled_ids():
        data = load_data(sid)
        ruleset, scenario = load_scenario(data, content_hash(data))
        presenter = ruleset.presenter()
        if not presenter.has_map:
            continue
        state = ruleset.initial_state(scenario, {})
        view = presenter.map_view(scenario, ruleset.dump_state(scenario, state), [])
        if view is None:
            continue
        key = (view.cols, view.rows, view.north, tuple((h, view.terrain_of(h)) for h in view.all_hexes()))
        if key not in seen:
            seen.add(key)
            out.append((sid, view))
    return out


BOARDS = _boards()


def test_the_boards_cover_both_orientations() -> None:
    """Flat-topped (north up) and pointy-topped (north to the right) boards are both compared."""
    assert {view.north for _, view in BOARDS} == {"up", "right"}


@pytest.mark.parametrize(("sid", "view"), BOARDS, ids=[sid for sid, _ in BOARDS])
def test_outline_equals_the_reference_on_every_board(sid: str, view: Any) -> None:
    whole = Canvas(view, around=None, radius=None, hex_size=32.0, colors=None, show_hex_numbers=True)
    (c0, c1), (r0, r1) = view.cols, view.rows
    box = ((c0 + (c1 - c0) // 4, c0 + (c1 - c0) // 2), (r0 + (r1 - r0) // 3, r1 - 1))
    cropped = Canvas(view, around=None, radius=None, hex_size=32.0, colors=None, show_hex_numbers=True,
                     box=box)
    odd = Canvas(view, around=None, radius=None, hex_size=27.3, colors=None, show_hex_numbers=True)
    compared = 0
    for cv in (whole, cropped, odd):
        by_kind: dict[str, list[Hex]] = {}
        for h in cv.visible:
            by_kind.setdefault(view.terrain_of(h), []).append(h)
        every_third = [h for i, h in enumerate(cv.visible) if i % 3 == 0]  # many holes and islands
        for hexes in [cv.visible, every_third, *by_kind.values()]:
            fast = hex_outline(cv, hexes)
            assert fast == reference_outline(cv, hexes), (sid, cv.s, cv.cropped, len(hexes))
            assert fast  # a set of hexes has an outline
            compared += 1
    assert compared >= 9


def test_outline_of_one_hex_by_hand() -> None:
    """Hex 0101 of a flat-topped board, size 10: centre (15, 17.32) (x = 1.5 * 10 * 1, y = sqrt(3) *
    10 * 1, an odd column); corners at 0, 60, ... 300 degrees: (25, 17.3), (20, 26), (10, 26),
    (5, 17.3), (10, 8.7), (20, 8.7). The loop starts at the far end of side 0 and goes round in
    relative steps between those rounded points (17.3 - 26 = -8.7, 8.7 - 17.3 = -8.6)."""
    sid, view = next((sid, v) for sid, v in BOARDS if v.north == "up")
    cv = Canvas(view, around=None, radius=None, hex_size=10.0, colors=None, show_hex_numbers=True)
    text = hex_outline(cv, [Hex(1, 1)])
    assert text == "M20,26l-10,0-5-8.7 5-8.6 10,0 5,8.6-5,8.7", (sid, text)
