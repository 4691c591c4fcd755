"""The shared Market Garden geography projected at one kilometre a hex (for the megagame and any
other game at that scale): the checked-in file is the generator's output, the scale is right and
the great rivers cut the map."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import deque

from helpers.paths import ROOT

from pbem.maps.hexmap import Hex, hexside
from pbem.maps.model import MapData

MAP = ROOT / "pbem" / "scenario_data" / "market-garden-1km-map.json"


def test_the_checked_in_1km_map_is_the_generators_output() -> None:
    tool = ROOT / "scenarios" / "tools" / "gen_market_garden_1km_map.py"
    out = subprocess.run([sys.executable, str(tool)], capture_output=True, text=True, check=True,
                         cwd=ROOT).stdout
    assert json.loads(out) == json.loads(MAP.read_text(encoding="utf-8"))


def test_one_kilometre_a_hex_and_the_rivers_in_the_right_order() -> None:
    m = MapData.parse({k: v for k, v in json.loads(MAP.read_text(encoding="utf-8")).items()
                            if k != "railways"})  # the megagame's rail network, not WestWall's
    at = {p.name: Hex.parse(p.hex) for p in m.places}
    # Nijmegen to Arnhem is 16 km as the crow flies (a hex path is a little longer)
    assert 15 <= at["Nijmegen"].distance(at["Arnhem"]) <= 20
    assert at["Arnhem"].row < at["Nijmegen"].row < at["Grave"].row < at["Eindhoven"].row  # north up

    def side_of(line: str, start: Hex) -> set[Hex]:
        cut = {hexside(*(Hex.parse(x) for x in s.split("/")))
               for ln in m.lines if ln.name == line for s in ln.hexsides}
        seen, todo = {start}, deque([start])
        while todo:
            h = todo.popleft()
            for n in h.neighbours():
                if n not in seen and m.on_map(n) and hexside(h, n) not in cut:
                    seen.add(n)
                    todo.append(n)
        return seen

    north_of_waal = side_of("Waal", at["Arnhem"])
    assert at["Elst"] in north_of_waal and at["Nijmegen"] not in north_of_waal
    north_of_rijn = side_of("Neder Rijn", at["Arnhem"])
    assert at["Oosterbeek"] in north_of_rijn and at["Driel"] not in north_of_rijn
    assert m.bridges  # the road bridges over the rivers and canals
