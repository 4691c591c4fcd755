"""Builders for tiny hand-made WestWall scenarios and positions (shared by the WestWall tests).

    sc = tiny_scenario(
        terrain={"woods": ["0303"]},
        lines=[("river", ["0203/0303"])],
        routes=[("road", ["0101", "0201", "0301"])],
        units=[unit("a", "DE", "armor", 6, 4, 12), unit("b", "US", "infantry", 2, 4, 7)],
    )
    st = state_with(sc, {"a": "0202", "b": "0505"}, phasing="DE")
    board = Board.from_state(sc, st)

The default Terrain Key (``scenarios/terrain-key.json``) is used unless ``terrain_key`` is given.
Unlisted units are "waiting" in :func:`state_with` (use ``eliminated=[...]``/``exited=[...]``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pbem.maps.model import HexsideLine, MapData, RouteLine
from pbem.systems.westwall.board import default_terrain_key
from pbem.systems.westwall.model import (
    Area,
    Deployment,
    ExitRule,
    GroundSupport,
    Reinforcement,
    Scenario,
    StandingOrders,
    State,
    TerrainKey,
    UnitDef,
    UnitState,
)

LineSpec = HexsideLine | tuple[str, Sequence[str]] | Mapping[str, Any]
RouteSpec = (
    RouteLine
    | tuple[str, Sequence[str]]
    | tuple[str, Sequence[str], Sequence[str]]
    | Mapping[str, Any]
)


def unit(
    uid: str,
    side: str,
    type: str = "infantry",
    attack: int = 2,
    defense: int = 4,
    move: int = 7,
    **extra: Any,
) -> UnitDef:
    """A non-artillery unit ``attack-defense-move``: ``unit("1/501", "US", "infantry", 2, 4, 7)``."""
    data: dict[str, Any] = {
        "id": uid,
        "side": side,
        "designation": uid,
        "type": type,
        "attack": attack,
        "defense": defense,
        "move": move,
    }
    data.update(extra)
    return UnitDef.parse(data)


def artillery(
    uid: str,
    side: str,
    barrage: int = 3,
    fpf: int = 2,
    range: int = 18,
    defense: int = 1,
    move: int = 7,
    type: str = "artillery",
    **extra: Any,
) -> UnitDef:
    """An artillery unit ``barrage-fpf-range/defense-move``: ``artillery("755", "US", 3, 2, 18, 1, 7)``."""
    data: dict[str, Any] = {
        "id": uid,
        "side": side,
        "designation": uid,
        "type": type,
        "barrage": barrage,
        "fpf": fpf,
        "range": range,
        "defense": defense,
        "move": move,
    }
    data.update(extra)
    return UnitDef.parse(data)


def _line(spec: LineSpec) -> HexsideLine:
    if isinstance(spec, HexsideLine):
        return spec
    if isinstance(spec, tuple):
        kind, sides = spec
        return HexsideLine.parse({"kind": kind, "hexsides": list(sides)})
    return HexsideLine.parse(dict(spec))


def _route(spec: RouteSpec) -> RouteLine:
    if isinstance(spec, RouteLine):
        return spec
    if isinstance(spec, tuple):
        data: dict[str, Any] = {"kind": spec[0], "hexes": list(spec[1])}
        if len(spec) > 2:
            data["off_map"] = list(spec[2])  # type: ignore[misc]
        return RouteLine.parse(data)
    return RouteLine.parse(dict(spec))


def area(**fields: Any) -> Area:
    """``area(hexes=["0101"])``, ``area(edge="west")``..."""
    return Area.parse(fields)


def tiny_scenario(
    cols: tuple[int, int] = (1, 8),
    rows: tuple[int, int] = (1, 8),
    terrain: Mapping[str, Iterable[str]] | None = None,
    lines: Sequence[LineSpec] = (),
    routes: Sequence[RouteSpec] = (),
    units: Sequence[UnitDef] = (),
    first_player: str = "DE",
    sides: Sequence[str] = ("DE", "US"),
    first_turn: int = 1,
    last_turn: int = 3,
    bridges: Sequence[str] = (),
    deployments: Sequence[Deployment | Mapping[str, Any]] = (),
    reinforcements: Sequence[Reinforcement | Mapping[str, Any]] = (),
    ground_support: Sequence[GroundSupport | Mapping[str, Any]] = (),
    exits: Sequence[ExitRule | Mapping[str, Any]] = (),
    artillery_limit: bool = False,
    special: Mapping[str, object] | None = None,
    game: str = "standard",
    terrain_key: TerrainKey | None = None,
    default_terrain: str = "clear",
    id: str = "tiny",
) -> Scenario:
    """A small scenario on a ``cols`` x ``rows`` map (default 0101-0808, all clear)."""
    names = {"DE": "German", "US": "U.S."}
    map_data = MapData.parse(
        {
            "id": f"{id}-map",
            "cols": cols,
            "rows": rows,
            "default_terrain": default_terrain,
            "terrain": {k: list(v) for k, v in (terrain or {}).items()},
            "routes": [_route(r).to_json() for r in routes],
            "lines": [_line(x).to_json() for x in lines],
            "bridges": list(bridges),
        }
    )

    def dump(items: Sequence[Any]) -> list[Any]:
        return [x.to_json() if hasattr(x, "to_json") else dict(x) for x in items]

    return Scenario.parse(
        {
            "id": id,
            "title": f"Tiny test scenario {id}",
            "game": game,
            "rule": "0.0",
            "sides": [{"id": s, "name": names.get(s, s)} for s in sides],
            "first_player": first_player,
            "first_turn": first_turn,
            "last_turn": last_turn,
            "map": map_data.to_json(),
            "terrain_key": (terrain_key or default_terrain_key()).to_json(),
            "units": [u.to_json() for u in units],
            "deployments": dump(deployments),
            "reinforcements": dump(reinforcements),
            "ground_support": dump(ground_support),
            "exits": dump(exits),
            "artillery_limit": artillery_limit,
            "special": dict(special or {}),
        }
    )


def state_with(
    scenario: Scenario,
    positions: Mapping[str, str],
    phasing: str | None = None,
    game_turn: int | None = None,
    eliminated: Iterable[str] = (),
    exited: Iterable[str] = (),
    standing: Mapping[str, StandingOrders] | None = None,
    **fields: Any,
) -> State:
    """A player-turn position: units in ``positions`` on the map, the others waiting (or listed as
    eliminated/exited). ``fields`` set any other :class:`State` field (e.g. ``combat_phase_index``)."""
    elim = set(eliminated)
    gone = set(exited)
    units: dict[str, UnitState] = {}
    for u in scenario.units:
        if u.id in positions:
            units[u.id] = UnitState.parse({"hex": positions[u.id], "status": "on-map"})
        elif u.id in elim:
            units[u.id] = UnitState.parse({"status": "eliminated"})
        elif u.id in gone:
            units[u.id] = UnitState.parse({"status": "exited"})
        else:
            units[u.id] = UnitState.parse({})
    unknown = set(positions) - set(units)
    if unknown:
        raise KeyError(f"unknown units {sorted(unknown)}")
    data: dict[str, Any] = {
        "scenario": scenario.id,
        "game_turn": scenario.first_turn if game_turn is None else game_turn,
        "phasing": phasing or scenario.first_player,
        "phase": "player-turn",
        "units": {k: v.to_json() for k, v in units.items()},
        "standing": {k: v.to_json() for k, v in (standing or {}).items()},
    }
    data.update(fields)
    return State.parse(data)


# ---------------------------------------------------------------------------------------------
# Combat-test shorthands (tests/systems/westwall/test_ww_combat.py, tests/systems/westwall/test_ww_artillery.py)
# ---------------------------------------------------------------------------------------------

_STATE_KEYS = ("standing", "game_turn", "combat_phase_index", "ground_support_used",
               "ground_support_phase")


def game(
    units: list[UnitDef], positions: dict[str, str], phasing: str = "DE", **kw: Any
) -> tuple[Scenario, State, Any]:
    """A tiny scenario (``kw`` for ``tiny_scenario``, except state fields such as ``standing``),
    a state with ``positions`` and a :class:`~pbem.systems.westwall.board.Board` on it."""
    from pbem.systems.westwall.board import Board

    state_fields = {k: kw.pop(k) for k in _STATE_KEYS if k in kw}
    sc = tiny_scenario(units=units, **kw)
    st_ = state_with(sc, positions, phasing=phasing, **state_fields)
    return sc, st_, Board.from_state(sc, st_)


def orders(side: str, *attacks: dict[str, Any], turn: int = 1) -> Any:
    """Player-turn orders made only of ``attacks``."""
    from pbem.systems.westwall.model import PlayerTurnOrders

    return PlayerTurnOrders.parse(
        {"side": side, "game_turn": turn, "attacks": list(attacks)}
    )


def atk(
    attackers: list[str] | None = None,
    defenders: list[str] | None = None,
    artillery: list[str] | None = None,
    support: int = 0,
    advance: list[tuple[str, int]] | None = None,
) -> dict[str, Any]:
    """One attack order as JSON; ``advance`` as (unit, hexes) pairs."""
    return {
        "attackers": attackers or [],
        "defenders": defenders or [],
        "artillery": artillery or [],
        "support": support,
        "advance": [{"unit": u, "hexes": n} for u, n in (advance or [])],
    }


def rules_of(violations: Iterable[Any]) -> list[str]:
    """The rule cases of some violations, sorted."""
    return sorted(v.rule for v in violations)


def combats(events: Iterable[Any]) -> list[Any]:
    """The combat events among ``events``."""
    from pbem.systems.westwall.model import CombatEvent

    return [e for e in events if isinstance(e, CombatEvent)]
