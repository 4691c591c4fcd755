"""What every part of one drawing shares: the view, the colours in use, the hexes shown, where a
hex sits in user units, and how numbers are written.

Geometry (SPI ``XXYY``, flat-topped hexes in vertical columns, even columns half a hex lower): the
centre of a hex with centre-to-corner size ``s`` is ``x = 1.5·s·col``, ``y = √3·s·(row + ½·[col
even])``; a map whose north lies to the right of its grid is turned a quarter to the left."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

from pbem.maps.hexmap import Hex
from pbem.maps.view import MapView
from pbem.plain import Plain
from pbem.render.svg.palette import DEFAULT_COLORS

SQRT3 = math.sqrt(3.0)

DEFAULT_HEX_SIZE = 32.0
"""Centre-to-corner distance of a hex, in SVG user units (pixels at 100 %)."""

DRAWING = 4
"""The newest way of drawing a map. A map written into an archive says which drew it (the root's
``data-drawing``; none: drawing 1), and ``pbem verify --redraw`` redraws it the same way, so maps
an older pbem wrote keep verifying. Drawing 1: the maps of pbem 0.2.0. Drawing 2 adds the
objectives, revealed drop zones and units out of supply (or without a line of communication) the
view names, and draws a stack as its top counter with the count of the units in it. Drawing 3
heads the legend's entry areas and exited units with the game's own case where the view names one
(``MapView.own_entry_heading``, ``own_exited_heading``: SPI Arnhem's [15.11] and [15.4], not
Bastogne's [11.11] and [12.0]) [27], and is lighter to store and mail [28]: the terrain drawn as
areas (the hexes shown one path along their outline, ``#board-area``, in the commonest kind; each
other kind one path listing its hexes in ``data-hexes``) under a hex-grid pattern instead of a tile
``hex-NNNN`` per hex, a cropped map (an email's) clipped to that area; the map edge, water, roads,
entry areas and arrows in relative steps; counters that look alike sharing one face (``#face-N``),
arrowheads markers, place names written once; hex numbers placed by column; and the text written as
7-bit lines (:func:`seven_bit`), so an email carries its map as text instead of base64. Whether a
whole map places the game's
``board.svg`` or draws its terrain itself is not a drawing: the map shows it
(:func:`pbem.render.outputs.places_board`). Drawing 4 draws what drawing 3 draws, in newer words
where the view has older ones for drawings 1-3 (``MapView.old_header_lines``: SPI Arnhem's header
names the points scored at the ends of game-turns as such, not "Points so far" under the victory
points [17.1]); a move's email of drawing 4 also names the game (``game.id[:8]``) in its subject, as
pbem's other emails do (:func:`pbem.mail.compose.move_email`)."""


def xml_id(prefix: str, name: str) -> str:
    """An XML-valid id for ``name`` (a unit id such as ``2/501``): characters other than letters,
    digits, ``.`` and ``-`` become ``_HH_`` (their code in hex), so ``unit-2/501`` is
    ``unit-2_2f_501``; the name itself is in ``data-unit``."""
    return prefix + "".join(c if c.isascii() and (c.isalnum() or c in ".-") else f"_{ord(c):x}_"
                            for c in name)


def _n(v: float) -> str:
    """A coordinate as short deterministic text (one decimal -- a tenth of a pixel at the default
    hex size -- no trailing zeros); every number the drawing writes goes through it."""
    text = f"{v:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _tenths(v: float) -> int:
    """A coordinate in tenths of a unit, rounded as :func:`_n` writes it: ``int(f"{v:.1f}"`` without
    its point``)``, which is the whole number nearest to ``v`` times ten exactly (Python formats a
    float correctly rounded). Computed as ``round(v * 10)`` where that product is further than 0.49
    from a half (its rounding error, at most half a unit in its last place, is under 0.0002 below
    10^12, so the nearest whole number is the same), else from the text
    (tests/render/test_numbers.py holds both to the text on many values, ties and near-ties)."""
    r = v * 10.0
    if -1e12 < r < 1e12:
        n = round(r)
        if -0.49 < r - n < 0.49:
            return n
    return int(f"{v:.1f}".replace(".", ""))


def _t(v: int) -> str:
    """A number of tenths as :func:`_n` would write it (``_n(v / 10)``): its whole units, then a
    point and its tenth unless that is 0."""
    q, r = divmod(-v if v < 0 else v, 10)
    text = f"{q}.{r}" if r else str(q)
    return "-" + text if v < 0 else text


def chained(segments: list[tuple[tuple[float, float], tuple[float, float]]]) -> str:
    """Path data for line segments, joined where one ends at the start or end of another into
    polylines drawn in relative steps (``l``), each step computed from the rounded end points so the
    corners land exactly where :func:`_n` would put them: the same lines as ``M..L..`` for each
    segment, in far fewer bytes. Drawn with round caps and joins it looks the same."""
    segs = [((_tenths(a[0]), _tenths(a[1])), (_tenths(b[0]), _tenths(b[1]))) for a, b in segments]
    at: dict[tuple[int, int], list[int]] = {}
    for i, (a, b) in enumerate(segs):
        at.setdefault(a, []).append(i)
        at.setdefault(b, []).append(i)
    used = [False] * len(segs)

    def walk(point: tuple[int, int]) -> list[tuple[int, int]]:
        pts = [point]
        while True:
            nxt = next((i for i in at[pts[-1]] if not used[i]), None)
            if nxt is None:
                return pts
            used[nxt] = True
            a, b = segs[nxt]
            pts.append(b if a == pts[-1] else a)

    parts: list[str] = []
    for i, (a, b) in enumerate(segs):  # in the order given: the same bytes every time
        if used[i]:
            continue
        used[i] = True
        parts.append(_steps([*reversed(walk(a)), *walk(b)]))
    return "".join(parts)


def _steps(pts: list[tuple[int, int]]) -> str:
    """Path data of a polyline through points given in tenths: ``M`` to the first, then relative
    steps (``l``) computed from them, so every corner lands where :func:`_n` would put it."""
    x, y = pts[0]
    part = [f"M{_t(x)},{_t(y)}l"]
    for k, (px, py) in enumerate(pts[1:]):
        dy = _t(py - y)
        sep = "" if k == 0 else ("" if _t(px - x).startswith("-") else " ")
        part.append(f"{sep}{_t(px - x)}{'' if dy.startswith('-') else ','}{dy}")
        x, y = px, py
    return "".join(part)


def polyline(points: list[tuple[float, float]]) -> str:
    """Path data of a polyline in its order, in relative steps (:func:`_steps`)."""
    return _steps([(_tenths(x), _tenths(y)) for x, y in points])


_ELEMENT_START = re.compile(r"(?=<(?!/|tspan\b|textPath\b))")
LINE = 500
"""Characters a line of a drawing-3 map holds at most, but for one long element (a start tag whose
long values are broken onto lines of their own): well under RFC 5322's limit of 998 [2.1.1], so
that an email carries the map as itself."""
_TEXT = re.compile(r"(<text\b.*?</text>)", re.S)
_LONG_VALUE = re.compile(r' ([a-z-]+)="([^"]{400,})"')


def seven_bit(svg: str) -> str:
    """SVG text as short 7-bit lines (drawing 3): a line break before each element's start tag
    outside text elements (there a break is only white space), long attribute values broken at their
    spaces or before a path command (a break in a value reads as a space), and every character
    beyond ASCII as a character reference. Such a file travels in an email as itself (``7bit``)
    instead of a third larger in base64."""
    def wrap(m: re.Match[str]) -> str:
        name, value = m.group(1), m.group(2)
        pieces = re.split(r"(?=[ MLmlAaCcHhVvZz-])" if name == "d" else "(?= )", value)
        out: list[str] = []
        width = 0
        for piece in pieces:
            if width + len(piece) > LINE and out:
                piece = piece.removeprefix(" ")
                out.append("\n")
                width = 0
            out.append(piece)
            width += len(piece)
        return f' {name}="' + "".join(out) + '"'

    parts = _TEXT.split(svg)  # a text element's content is left as it is: white space there is text
    pieces: list[str] = []  # each element's start (a whole text element), in order
    for i, part in enumerate(parts):  # an empty element's end without its space: "/>"
        pieces.extend([part] if i % 2 else [p.replace(" />", "/>") for p in _ELEMENT_START.split(part) if p])
    lines: list[str] = []
    width = LINE  # a break before the first piece is dropped below
    for piece in pieces:  # elements share a line up to LINE characters; a break only between them
        piece = _LONG_VALUE.sub(wrap, piece).encode("ascii", "xmlcharrefreplace").decode("ascii")
        head = piece.split("\n", 1)[0]
        if width + len(head) > LINE:
            lines.append("\n")
            width = 0
        lines.append(piece)
        width = len(piece) - piece.rfind("\n") - 1 if "\n" in piece else width + len(piece)
    return "".join(lines).lstrip("\n")


def hex_center(h: Hex, hex_size: float = DEFAULT_HEX_SIZE) -> tuple[float, float]:
    """Centre of hex ``h`` in the map's user units (before any viewBox offset)."""
    return (1.5 * hex_size * h.col, SQRT3 * hex_size * (h.row + (0.5 if h.col % 2 == 0 else 0.0)))


class Frame(Plain, frozen=True):
    """Where the map, header and side panel sit in user units."""

    map_x0: float
    map_y0: float
    map_x1: float
    map_y1: float
    header_y0: float
    panel_x0: float
    panel_w: float
    view: tuple[float, float, float, float]


class Canvas:
    """One drawing of one view: the view, the colours (defaults, then ``colors`` overrides), the
    hexes shown (all of them, or those ``radius`` from ``around``) and the hex size."""

    def __init__(
        self,
        view: MapView,
        *,
        around: Hex | None,
        radius: int | None,
        hex_size: float,
        colors: Mapping[str, str] | None,
        show_hex_numbers: bool,
        board: str | None = None,
        drawing: int = DRAWING,
        box: tuple[tuple[int, int], tuple[int, int]] | None = None,
    ) -> None:
        self.v = view
        self.board = board
        self.drawing = drawing
        self.title = view.title
        self.subtitle = view.subtitle
        self.side = view.viewer_id
        self.s = float(hex_size)
        self.col = dict(DEFAULT_COLORS)
        self.looks = {look.kind: look for look in view.terrain_looks}
        for look in view.terrain_looks:  # the system's terrain colours, which ``colors`` may override
            self.col[f"terrain-{look.kind}"] = look.fill
            self.col[f"ink-{look.kind}"] = look.ink
        self.side_colour = {si.id: si.colour for si in view.sides}
        for key, value in (colors or {}).items():
            if key.startswith("side-"):
                self.side_colour[key[5:]] = value
            else:
                self.col[key] = value
        self.show_numbers = show_hex_numbers
        self.turned = view.north == "right"
        self._turn_x = 1.5 * self.s * (view.cols[1] + view.cols[0])
        self.score = list(view.score) if view.score else None
        old = view.old_header_lines  # drawings 1-3 word the header as they did
        self.header_lines = list(old if old is not None and drawing < 4 else view.header_lines)
        all_hexes = view.all_hexes()
        if box is not None:  # a rectangle of the grid: (first, last column), (first, last row)
            (c0, c1), (r0, r1) = box
            self.visible = [h for h in all_hexes if c0 <= h.col <= c1 and r0 <= h.row <= r1]
            self.cropped = True
        elif around is not None:
            r = 3 if radius is None else radius
            # no hex of the map is farther from another than its columns and rows spanned together:
            # a larger radius draws the same hexes (and a huge one listed millions off the map)
            r = min(r, (view.cols[1] - view.cols[0]) + (view.rows[1] - view.rows[0]))
            self.visible = [h for h in around.within(r) if view.on_map(h)]
            self.cropped = True
        else:
            self.visible = all_hexes
            self.cropped = False
        self.visible_set = frozenset(self.visible)
        # counter side: a counter spans 0.5 hex either side of the centre, clear of the hex number
        # above it (-0.64 to -0.88) and a place name below it (+0.52 to +0.82) [readability]
        self.cs = 1.0 * self.s
        self.boxes: list[tuple[float, float, float, float]] | None = None
        self._corners: list[tuple[float, float]] | None = None
        self._centres: dict[Hex, tuple[float, float]] = {}  # c(h) of each hex asked, once a drawing
        self._across: tuple[int, ...] | None = None
        self.label_bounds: tuple[float, float, float, float] | None = None
        """The box around the hexes drawn, half a hex beyond their centres
        (:func:`pbem.render.svg.marks.label_spot`), found once per drawing."""
        self.bridge_points: list[tuple[float, float]] | None = None
        """The middle of every bridge drawn (:func:`pbem.render.svg.board.bridge_points`)."""
        self.heads: dict[tuple[str, ...], str] = {}
        """Drawing 3: the id of each arrowhead marker in the defs (:func:`pbem.render.svg.marks.arrowhead`)."""
        self.faces: dict[tuple[str, ...], str] = {}
        """Drawing 3: the id of each counter face drawn once in the defs (:func:`pbem.render.svg.counters.counter`)."""
        """Counters and combat labels placed so far (:func:`pbem.render.svg.marks.label_spot`)."""

    def c(self, h: Hex) -> tuple[float, float]:
        hit = self._centres.get(h)
        if hit is not None:
            return hit
        x, y = hex_center(h, self.s)
        if self.turned:  # north to the right of the raw grid: turn a quarter left, north up
            x, y = y, self._turn_x - x
        self._centres[h] = (x, y)
        return x, y

    def inside(self, x: float, y: float) -> bool:
        """Whether the point lies on a hex drawn (hexes tile the plane as the cells of their centres:
        a point is in the hex whose centre is nearest)."""
        if self.turned:  # back to the raw grid
            x, y = self._turn_x - y, x
        col = round(x / (1.5 * self.s))
        best: tuple[float, Hex] | None = None
        for c in (col - 1, col, col + 1):
            row = round(y / (SQRT3 * self.s) - (0.5 if c % 2 == 0 else 0.0))
            for r in (row - 1, row, row + 1):
                h = Hex(c, r)
                hx, hy = hex_center(h, self.s)
                d = (hx - x) ** 2 + (hy - y) ** 2
                if best is None or d < best[0]:
                    best = (d, h)
        assert best is not None
        return best[1] in self.visible_set

    def hex_side(self, h: Hex, k: int) -> tuple[tuple[tuple[float, float], tuple[float, float]], Hex]:
        """Side ``k`` (0-5, corner ``k`` to corner ``k + 1`` in one turning order) of hex ``h`` as
        drawn, and the hex across it."""
        first = 30 if self.turned else 0  # a turned map has pointy-topped hexes
        x, y = self.c(h)
        a0, a1 = math.radians(first + 60 * k), math.radians(first + 60 * (k + 1))
        a = (x + self.s * math.cos(a0), y + self.s * math.sin(a0))
        b = (x + self.s * math.cos(a1), y + self.s * math.sin(a1))
        tx, ty = a[0] + b[0] - x, a[1] + b[1] - y  # the centre of the hex across this side
        across = min(h.neighbours(), key=lambda n: (self.c(n)[0] - tx) ** 2 + (self.c(n)[1] - ty) ** 2)
        return (a, b), across

    def corner_offsets(self) -> list[tuple[float, float]]:
        """Corner ``k`` (0-6, the seventh the first again, as :meth:`hex_side` computes it) of any
        hex drawn, from its centre: the corners of side ``k`` are the centre plus items ``k`` and
        ``k + 1``, the same numbers :meth:`hex_side` adds."""
        if self._corners is None:
            first = 30 if self.turned else 0
            self._corners = [(self.s * math.cos(math.radians(first + 60 * k)),
                              self.s * math.sin(math.radians(first + 60 * k))) for k in range(7)]
        return self._corners

    def side_neighbours(self) -> tuple[int, ...]:
        """For each side ``k`` of a hex (:meth:`hex_side`), the index in ``Hex.neighbours()`` of
        the hex across it: the same for every hex of a drawing (the grid is regular; tests hold
        :func:`pbem.render.svg.board.hex_outline` to :meth:`hex_side` on every bundled board)."""
        if self._across is None:
            h = Hex(2, 2)
            near = h.neighbours()
            self._across = tuple(near.index(self.hex_side(h, k)[1]) for k in range(6))
        return self._across

    def side_segment(self, a: Hex, b: Hex) -> tuple[tuple[float, float], tuple[float, float]]:
        """End points of the hexside between adjacent hexes ``a`` and ``b``."""
        ax, ay = self.c(a)
        bx, by = self.c(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        d = math.hypot(bx - ax, by - ay) or 1.0
        px, py = -(by - ay) / d * self.s / 2, (bx - ax) / d * self.s / 2
        return (mx + px, my + py), (mx - px, my - py)

    def off_map_point(self, h: Hex) -> tuple[float, float]:
        """A point just beyond the map edge next to edge hex ``h`` (for roads leading off-map)."""
        x, y = self.c(h)
        dx = dy = 0.0
        for n in h.neighbours():
            if not self.v.on_map(n):
                nx, ny = self.c(n)
                dx += nx - x
                dy += ny - y
        d = math.hypot(dx, dy)
        if d == 0:
            return x, y
        return x + dx / d * 1.1 * self.s, y + dy / d * 1.1 * self.s

    def entry_areas(self) -> list[tuple[str, list[Hex], list[int], list[str]]]:
        """Reinforcement entry areas: (side, hexes, game-turns, descriptions), one per distinct
        set of visible hexes, so turns sharing an edge share one band and one tag."""
        groups: dict[tuple[str, tuple[Hex, ...]], tuple[list[int], list[str]]] = {}
        for entry in self.v.entries:
            hexes = tuple(h for h in entry.hexes if h in self.visible_set)
            if not hexes:
                continue
            turns, texts = groups.setdefault((entry.side, hexes), ([], []))
            if entry.turn not in turns:
                turns.append(entry.turn)
            if entry.text not in texts:
                texts.append(entry.text)
        return [(side, list(hexes), sorted(turns), texts)
                for (side, hexes), (turns, texts) in groups.items()]
