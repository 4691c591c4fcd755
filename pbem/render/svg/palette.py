"""The look of a drawing that is not geometry: the colour of every drawn thing and the font."""

from __future__ import annotations

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

DEFAULT_COLORS: dict[str, str] = {
    # page
    "background": "#f7f5ee",
    "text": "#1d1d1d",
    "muted": "#5d5d5d",
    "panel": "#ffffff",
    "reach": "#2f8f4e",
    "reach-text": "#0d3b1d",
    "panel-border": "#b9b4a4",
    # hexes
    "hex-outline": "#8f8a78",
    "hex-number": "#4a4638",
    "map-edge": "#2b2b2b",
    "place-name": "#1d1d1d",
    "place-halo": "#ffffff",
    "terrain-unknown": "#e0e0e0",  # a terrain kind the view gives no look
    # hexsides
    "river": "#1e5fc4",
    "stream": "#3f8fe6",
    "canal": "#17408f",
    "canal-core": "#8fc0ea",
    "ferry": "#1e5fc4",
    "road": "#b5352a",
    "trail": "#7b5535",
    "railway": "#262626",
    "railway-tie": "#ffffff",
    "bridge": "#2b2b2b",
    "bridge-deck": "#f2f2f2",
    "destroyed": "#d01010",
    # what the step did
    "move": "#222222",
    "attack": "#d0141b",
    "barrage": "#d0141b",
    "fpf": "#1c5fd0",
    "retreat": "#e07a00",
    "displaced": "#a05ad0",
    "advance": "#138a36",
    "placed": "#6a2c91",
    "eliminated": "#d0141b",
    "label-bg": "#ffffff",
    # what the rules say of hexes and units now (drawing 2)
    "objective": "#d4a106",
    "objective-area": "#d4a106",
    "drop-zone": "#0b6e8a",
    "unsupplied": "#d0141b",
    "stack-count": "#ffffff",
    # markers on counters
    "marker-fpf": "#ffd83a",
    "marker-advanced": "#b9f0c4",
    "marker-retreated": "#ffd0a0",
}
"""Colour of every drawn thing but the terrain; pass ``colors={...}`` to override any of them. A
side's counter colour comes from the scenario (``sides[].colour``) unless ``colors["side-<ID>"]``
overrides it; a terrain kind's fill and pattern ink come from the view's terrain looks
(:class:`pbem.maps.view.TerrainLook`) unless ``colors["terrain-<KIND>"]`` or
``colors["ink-<KIND>"]`` overrides them."""


def luminance(colour: str) -> float:
    """Relative luminance of ``#rgb`` or ``#rrggbb`` (0.5 for anything else): whether black or
    white ink reads on it."""
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    try:
        r, g, b = (int(c[i : i + 2], 16) / 255.0 for i in (0, 2, 4))
    except ValueError:
        return 0.5
    return 0.2126 * r + 0.7152 * g + 0.0722 * b

