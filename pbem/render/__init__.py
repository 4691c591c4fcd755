"""Map snapshots (SVG) and the derived files of a game directory.

Importing this package is cheap: :mod:`pbem.render.svg` (svgwrite) and :mod:`pbem.render.outputs`
load only when used. The rules never import it.
"""
