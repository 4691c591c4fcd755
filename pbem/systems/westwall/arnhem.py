"""The Arnhem exclusive rules (SPI WestWall Arnhem, cases 10.0-18.x) on top of the standard rules.

Plugged in through the :class:`~pbem.systems.westwall.exclusive.Exclusive` hooks; every parameter
(drop zones, weather tables, LOC hexes, exit stretches, the rivers of the victory schedule) comes
from the scenario's ``special`` object, validated by :class:`ArnhemSpecial`. Nothing here names a
hex or a unit.

* City hexes [11.1, 11.2]: a unit in a City hex retreats two hexes less (D1, D2, Br, A1, A2 become
  no retreat; D3 one hex; D4 two), unless surrounded (six neighbours held by enemy units or their
  zones of control), when only airborne and glider units keep the benefit; airborne artillery never
  has it. The defence line is the Town line: the Arnhem scenarios' Terrain Key gives ``city`` the
  town's line. A unit that starts its retreat in a City hex takes the reduction unless its owner's
  standing retreat preference asks to go on (westwall/3; westwall/2: always); one that retreats
  into a City hex may stop where the reduction of what remains ends it, never short of the
  result's minimum (D3 one hex, D4 two; westwall/3), as its owner's preference chooses.
* Canal and rail bridge demolition [12.1x]: the first time an Allied unit enters a hex one of
  these bridges borders (by moving, entering or landing), the German player's standing policy
  decides: a bridge he spares (``standing.spare_bridges``) is left standing and is never tried
  again; any other is tried: a die of 1 or 2 demolishes it at once [12.12, 12.13], anything else
  leaves it intact for the rest of the game [12.14]. Highway bridges over rivers are never wired
  [12.15]. The rest of the moving player's movement is judged against the result (the engine:
  ``MoveOrder.if_demolished``, or the unit stops where a step became illegal); after combat, the
  rest of a retreat or an advance too (westwall/3; westwall/2 rolled once the paths were made).
* Allied Ground Support Points only within three hexes of an Allied non-airborne unit [14.11] (as
  FPF too, westwall/3); at most two artillery units in a combat [14.12]; with weather, support by
  weather [16.2].
* Airborne reinforcements [15.31-15.34]: land within one hex of their group's hex (or, with
  weather, within seven of their division's drop zone, not in or next to a City [16.11]); one unit
  a hex, never in an occupied hex; three Movement Points left after landing [15.32]; without the
  weather rules they may not be held back [15.34]; with them, as many as the weather allows
  [16.12].
* German exits only along the stretches of 15.41; exited units come back on a later game-turn on
  their side's stretch [15.42].
* The Allied engineer, once eliminated, comes back at 0105/0106 on a later Allied movement phase
  [13.3], and repairs a demolished canal bridge it stood next to, free of enemy zones of control,
  through a whole German player-turn [13.1] (westwall/3: at every moment of it; westwall/2: at its
  end).

The version's readings (:class:`~pbem.systems.westwall.readings.Readings`) come with the instance:
the ruleset makes it with those of the game's rules version.
* Weather [16.0]: rolled at the end of each German player-turn for the next game-turn (1 same, 2
  good, 3-4 fair, 5-6 poor); the first game-turn is good.
* Victory points, lines of communication and levels [17.x]: :mod:`arnhem_victory`.

Records kept in ``State.exclusive``: ``bridges`` (hexside -> ``demolished``/``intact``/``spared``/
``repaired``), ``destroyed_bridges`` (kept by the board), ``weather``, ``dz`` (division -> hex),
``eliminated`` (side -> units lost, the engineer counting each time [13.3]), ``points`` (side ->
points scored at the ends of game-turns), ``engineer_hex``.

Why one module of some 1,100 lines (issue 24 asks for a reason above ~900): it is the SPI Arnhem
exclusive rules, one :class:`Arnhem` implementing the hooks of
:class:`~pbem.systems.westwall.exclusive.Exclusive` case by case in the order of the rules text,
beside the scenario's ``special`` parameters and the sealed drop-zone notes they use; the victory
conditions, the longest part, are already their own module (:mod:`arnhem_victory`).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Sequence
from typing import Any, Literal

from pbem.engine.ruleset import Dice, Outcome
from pbem.errors import InputError, RuleViolation
from pbem.maps.hexmap import Hex, hexside
from pbem.protocol.record import (
    Bool,
    Int,
    ListOf,
    MapOf,
    Maybe,
    Nested,
    Record,
    RecordError,
    Str,
    field,
)
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.exclusive import Citations, Exclusive, parse_special
from pbem.systems.westwall.memo import memo
from pbem.systems.westwall.model import (
    AIRBORNE_TYPES,
    HEX,
    Area,
    CrtLine,
    DropZoneCommitment,
    DropZoneNote,
    DropZoneReveal,
    EliminatedEvent,
    Event,
    MovedEvent,
    MoveOrder,
    NoteEvent,
    PlayerTurnOrders,
    RollEvent,
    Scenario,
    SetupOrders,
    State,
)
from pbem.systems.westwall.movement import area_hexes, in_area, reinforcement_entries, walk_moves

Weather = Literal["good", "fair", "poor"]

# --------------------------------------------------------------------------------------------------
# Scenario parameters (``special``)
# --------------------------------------------------------------------------------------------------


class RiverLine(Record):
    """A river of the victory schedule [17.11]: the map line's name and a hex on each side."""

    line: str = field(Str())
    south_hex: str = field(HEX)
    north_hex: str = field(HEX)
    points: int = field(Int(ge=0))


def _airborne_default() -> dict[str, int]:
    return {"good": 25, "fair": 5, "poor": 0}


def _support_default() -> dict[str, int]:
    return {"good": 7, "fair": 3, "poor": 0}


def _loc_default() -> list[str]:
    return ["0105", "0106"]


def _exit_west_default() -> list[str]:
    return ["0601", "2301"]


def _exit_east_default() -> list[str]:
    return ["0126", "2726"]


def _reenter_east_default() -> list[str]:
    return ["0126", "0726"]


class ArnhemSpecial(Record):
    weather: bool = field(Bool(), default=False, description="[16.0] in force")
    drop_zones: dict[str, str] = field(
        MapOf(Str(), HEX), default_factory=dict, description="division -> fixed drop-zone hex [18.11]"
    )
    dz_free: bool = field(Bool(), default=False,
                          description="drop zones placed by the Allied player [15.36-15.39]")
    airborne_per_weather: dict[str, int] = field(MapOf(Str(), Int()), default_factory=_airborne_default)
    ground_support_per_weather: dict[str, int] = field(MapOf(Str(), Int()), default_factory=_support_default)
    loc_hexes: list[str] = field(ListOf(HEX), default_factory=_loc_default)
    engineer: str | None = field(Maybe(Str()), default=None)
    engineer_reentry: list[str] = field(ListOf(HEX), default_factory=_loc_default)
    waal: RiverLine | None = field(Maybe(Nested(RiverLine)), default=None)
    neder_rijn: RiverLine | None = field(Maybe(Nested(RiverLine)), default=None)
    exit_west: list[str] = field(ListOf(HEX), default_factory=_exit_west_default)
    exit_east: list[str] = field(ListOf(HEX), default_factory=_exit_east_default)
    reenter_east: list[str] = field(ListOf(HEX), default_factory=_reenter_east_default)
    max_artillery_per_combat: int = field(Int(), default=2)
    support_range: int = field(Int(), default=3)
    drop_range: int = field(Int(), default=7, description="[16.11] hexes from the drop zone, with weather")
    landing_mp: int = field(Int(), default=3, description="[15.32] Movement Points left on landing")
    notes: list[str] = field(ListOf(Str()), default_factory=list)


def special_of(scenario: Scenario) -> ArnhemSpecial:
    """The typed ``special`` parameters of ``scenario``, parsed when the ruleset loaded it and kept
    with it (:func:`parse_special`)."""
    return parse_special(scenario, ArnhemSpecial)


def special_problems(scenario: Scenario) -> list[str]:
    """Problems of an Arnhem scenario's ``special`` data (for ``pbem scenario check``)."""
    try:
        sp = ArnhemSpecial.parse(scenario.special)
    except RecordError as exc:
        return [f"special.{'.'.join(str(p) for p in loc)}: {msg}" for loc, msg in exc.problems]
    out: list[str] = []
    m = scenario.map
    named: list[tuple[str, str]] = [(f"drop_zones.{k}", v) for k, v in sp.drop_zones.items()]
    named += [(f"loc_hexes.{i}", h) for i, h in enumerate(sp.loc_hexes)]
    named += [(f"engineer_reentry.{i}", h) for i, h in enumerate(sp.engineer_reentry)]
    for river in ("waal", "neder_rijn"):
        r = getattr(sp, river)
        if r is not None:
            named += [(f"{river}.south_hex", r.south_hex), (f"{river}.north_hex", r.north_hex)]
            if not any(line.name == r.line for line in m.lines):
                out.append(f"special.{river}.line: the map has no line named {r.line!r}")
    for where, h in named:
        if not m.on_map(Hex.parse(h)):
            out.append(f"special.{where}: {h} is not on the map")
    if sp.engineer is not None and sp.engineer not in scenario.unit:
        out.append(f"special.engineer: no unit {sp.engineer!r}")
    return out


def german_side(scenario: Scenario) -> str:
    """The German player's side id (the side named German)."""
    for s in scenario.sides:
        if s.id.lower().startswith("ger") or s.name.lower().startswith("german"):
            return s.id
    return scenario.sides[-1].id


def allied_side(scenario: Scenario) -> str:
    return scenario.other(german_side(scenario))


# --------------------------------------------------------------------------------------------------
# Bridges [12.0]
# --------------------------------------------------------------------------------------------------


def side_str(a: Hex, b: Hex) -> str:
    x, y = hexside(a, b)
    return f"{x}/{y}"


def spare_problem(scenario: Scenario, text: str) -> str | None:
    """Why ``text`` (``XXYY/XXYY``) names no bridge the German player can spare, or None: only the
    canal and rail bridges printed on the map are tried for demolition [12.12, 12.15], and a
    spared bridge is matched by its hexside written lower hex first."""
    a_text, sep, b_text = text.partition("/")
    try:
        a, b = Hex.parse(a_text), Hex.parse(b_text)
    except InputError:
        return f"{text[:40]!r} is not a hexside: write 'XXYY/XXYY'"
    kind = printed_bridge_kind(scenario, a, b) if sep and a.is_adjacent(b) else None
    if kind not in ("canal", "rail"):
        return f"{a}/{b} is not a canal or rail bridge on the map: only those are demolished or spared"
    if text != side_str(a, b):
        return f"write the bridge {text} as {side_str(a, b)}"
    return None


def spare_violations(scenario: Scenario, side: str, spare: list[str]) -> list[RuleViolation]:
    """A player-turn's standing order sparing bridges [12.12]: the German player's, in an Arnhem
    game, each a printed canal or rail bridge (:func:`spare_problem`)."""
    if not spare:
        return []
    if scenario.game != "arnhem":
        return [RuleViolation("12.12", f"sparing a bridge is an order of the Arnhem rules; this game plays "
                                       f"{scenario.game}")]
    if side != german_side(scenario):
        return [RuleViolation("12.12", "only the German player spares bridges: demolishing them is the "
                                       "German player's decision")]
    return [RuleViolation("12.12", problem) for b in spare if (problem := spare_problem(scenario, b))]


def bridge_kind(board: Board, a: Hex, b: Hex) -> str | None:
    """``canal``, ``rail`` or ``highway`` for a bridge hexside as printed on the map (whatever has
    happened to it since), else ``None`` [12.15]."""
    return printed_bridge_kind(board.scenario, a, b)


def printed_bridge_kind(scenario: Scenario, a: Hex, b: Hex) -> str | None:
    """:func:`bridge_kind` from the scenario alone (the text orders' reader has no board)."""
    feats = scenario.map.hexside_features.get(hexside(a, b))
    if not feats:
        return None
    if "rail-bridge" in feats:
        return "rail"
    has_route = bool(feats & {"road", "trail"}) or "bridge" in feats
    if "canal" in feats and has_route:
        return "canal"
    if has_route and feats & {"river", "stream"}:
        return "highway"
    return None


def wired_beside(board: Board, h: Hex) -> tuple[Hex, ...]:
    """The on-map neighbours of ``h`` across a canal or rail bridge as printed (:func:`bridge_kind`)
    [12.0, 12.15], in hex order: ``[n for n in sorted(h.neighbours()) if board.on_map(n) and
    bridge_kind(board, h, n) in ("canal", "rail")]``, from a table of the map's bridges made once
    per scenario (a unit's every step asks it, Arnhem [12.11])."""
    return memo(board.scenario, "wired-beside", None, lambda: _wired_table(board)).get(h, ())


def _wired_table(board: Board) -> dict[Hex, tuple[Hex, ...]]:
    table: dict[Hex, list[Hex]] = {}
    for a, b in board.scenario.map.hexside_features:
        if a.is_adjacent(b) and hexside(a, b) == (a, b) and bridge_kind(board, a, b) in ("canal", "rail"):
            for x, y in ((a, b), (b, a)):
                if board.on_map(y):
                    table.setdefault(x, []).append(y)
    return {h: tuple(sorted(ns)) for h, ns in table.items()}


def wired(board: Board, state: State, a: Hex, b: Hex) -> bool:
    """A canal or rail bridge no roll or decision has touched yet [12.0, 12.14, 12.15]."""
    if bridge_kind(board, a, b) not in ("canal", "rail"):
        return False
    return side_str(a, b) not in state.exclusive.get("bridges", {})


# --------------------------------------------------------------------------------------------------
# Secret drop zones [15.35-15.39]
# --------------------------------------------------------------------------------------------------


def note_hash(note: DropZoneReveal) -> str:
    """The commitment to a drop-zone note: SHA-256 of its canonical JSON (division, hex, turn,
    salt). Without the salt a note could be found by trying every hex; with it, only a reveal
    opens it [15.36]."""
    from pbem.protocol.canonical import canonical_bytes

    body = {"division": note.division, "hex": note.hex, "turn": note.turn, "salt": note.salt}
    return hashlib.sha256(canonical_bytes(body)).hexdigest()


def _salt(secret: bytes, division: str) -> str:
    return hmac.new(secret, b"pbem/dz-salt/" + division.encode(), hashlib.sha256).hexdigest()


_SEALED_LEN = 48  # every sealed note the same length, so its length says nothing


def seal_note(secret: bytes, note: DropZoneNote) -> DropZoneCommitment:
    """The commitment to ``note`` and a copy of it only its author (who has ``secret``) can open:
    so the author's pbem can reveal it on its own when it is due, with no file to keep."""
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    from pbem.protocol.canonical import canonical_bytes

    reveal = DropZoneReveal(division=note.division, hex=note.hex, turn=note.turn,
                            salt=_salt(secret, note.division))
    plain = canonical_bytes({"hex": note.hex, "turn": note.turn})
    if len(plain) > _SEALED_LEN:
        raise InputError(f"drop-zone note for {note.division} is too long")
    key = hmac.new(secret, b"pbem/dz-seal", hashlib.sha256).digest()
    nonce = hashlib.sha256(note.division.encode()).digest()[:12]
    box = ChaCha20Poly1305(key).encrypt(nonce, plain.ljust(_SEALED_LEN), note.division.encode())
    return DropZoneCommitment(hash=note_hash(reveal), sealed=box.hex())


def open_note(secret: bytes, division: str, c: DropZoneCommitment) -> DropZoneReveal | None:
    """The author's own note back from its commitment (``None`` with someone else's secret)."""
    import json

    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    key = hmac.new(secret, b"pbem/dz-seal", hashlib.sha256).digest()
    nonce = hashlib.sha256(division.encode()).digest()[:12]
    try:
        plain = ChaCha20Poly1305(key).decrypt(nonce, bytes.fromhex(c.sealed), division.encode())
        data = json.loads(plain.rstrip(b" "))
        note = DropZoneReveal(division=division, hex=data["hex"], turn=data["turn"],
                              salt=_salt(secret, division))
    except (InvalidTag, ValueError, KeyError, TypeError):
        return None
    return note if note_hash(note) == c.hash else None


def nearest_dz_hex(scenario: Scenario, placed: dict[str, str], note: DropZoneNote) -> str | None:
    """The hex nearest ``note.hex`` where the drop zone would keep the limits of [15.37]."""
    centre = Hex.parse(note.hex)
    for h in sorted(scenario.map.all_hexes(), key=lambda x: (x.distance(centre), x)):
        if h.distance(centre) > 6:
            return None
        trial = DropZoneNote(division=note.division, hex=str(h), turn=note.turn)
        if not dz_placement_problems(scenario, placed, trial):
            return str(h)
    return None


def airborne_divisions(scenario: Scenario) -> list[str]:
    """Divisions with a drop-zone counter: the formations of the airborne reinforcements, except
    the Polish brigade (no DZ counter, no LOC [17.36])."""
    out = {scenario.unit[u].formation for r in scenario.reinforcements if r.airborne for u in r.units}
    return sorted(d for d in out if d and d.lower() not in ("pol", "polish"))


def dz_placement_problems(scenario: Scenario, placed: dict[str, str], note: DropZoneNote) -> list[str]:
    """[15.37] at least three hexes from any City hex and any bridged hexside; at least 14 hexes
    from every other drop zone."""
    m = scenario.map
    h = Hex.parse(note.hex)
    out: list[str] = []
    if not m.on_map(h):
        return [f"{h} is not on the map"]
    cities = [c for c in m.all_hexes() if m.terrain_of(c) == "city"]
    near = [c for c in cities if h.distance(c) < 3]
    if near:
        out.append(f"{h} is {h.distance(near[0])} hexes from the City hex {near[0]} (3 at least)")
    for side in m.hexside_features:
        feats = m.hexside_features[side]
        if "bridge" in feats or "rail-bridge" in feats or (
                feats & {"road", "trail"} and feats & {"river", "canal", "stream"}):
            d = min(h.distance(side[0]), h.distance(side[1]))
            if d < 3:
                out.append(f"{h} is {d} hexes from the bridge {side[0]}/{side[1]} (3 at least)")
                break
    for div, other in sorted(placed.items()):
        if div != note.division and h.distance(Hex.parse(other)) < 14:
            out.append(f"{h} is {h.distance(Hex.parse(other))} hexes from the {div} drop zone "
                       f"{other} (14 at least)")
    return out


# --------------------------------------------------------------------------------------------------
# The rules
# --------------------------------------------------------------------------------------------------


def _airborne_group(scenario: Scenario, uid: str) -> bool:
    return any(r.airborne and uid in r.units for r in scenario.reinforcements)


def surrounded(board: Board, uid: str) -> bool:
    """All six neighbours held by enemy units or in enemy zones of control [11.2]."""
    h = board.unit_hex(uid)
    if h is None:
        return False
    return surrounded_at(board, board.side_of(uid), h)


def surrounded_at(board: Board, side: str, h: Hex) -> bool:
    """A unit of ``side`` in ``h`` would be surrounded [11.2]."""
    around = h.neighbours()
    if len(around) < 6:
        return False
    for n in around:
        if not board.on_map(n):
            return False
        if board.enemy_at(n, side) is None and not board.enemy_zoc(n, side):
            return False
    return True


def _place(extra: dict[str, Any], reveals: list[DropZoneReveal]) -> dict[str, Any]:
    """Drop-zone counters placed as revealed; their commitments are spent."""
    if not reveals:
        return extra
    dz = dict(extra.get("dz", {}))
    committed = dict(extra.get("dz_commitments", {}))
    for r in reveals:
        dz[r.division] = r.hex
        committed.pop(r.division, None)
    extra["dz"] = dict(sorted(dz.items()))
    if committed:
        extra["dz_commitments"] = committed
    else:
        extra.pop("dz_commitments", None)
    return extra


def _entry_hexes(scenario: Scenario, i: int) -> tuple[Hex, ...]:
    """The hexes of the entry areas of the scenario's ``i``-th reinforcement, worked out once."""
    return memo(scenario, "reinforcement-entry-hexes", i,
                lambda: tuple(area_hexes(scenario, scenario.reinforcements[i].entry)))


def _blocked_entry(
    scenario: Scenario, state: State, uid: str, game_turn: int,
    position: Callable[[], Board] | None = None,
) -> tuple[list[Area], str] | None:
    """[15.22] When every scheduled entry hex holds an enemy unit, or a friendly unit in an enemy
    zone of control, the unit may enter at the nearest unblocked hex of the same map edge, toward
    the nearest friendly unit (ties: the lower hex number)."""
    areas, rule, first = reinforcement_entries(scenario, uid, game_turn)
    if not areas or first is None:
        return None
    board = position() if position is not None else Board.from_state(scenario, state)
    side = scenario.unit[uid].side

    def blocked(h: Hex) -> bool:
        if board.enemy_at(h, side) is not None:
            return True
        return any(board.side_of(x) == side for x in board.occupants(h)) and board.enemy_zoc(h, side)

    # ``area_hexes(scenario, areas)``: the schedule's rows open by now, each row's hexes worked out once
    rows = [i for i, r in enumerate(scenario.reinforcements) if uid in r.units and r.turn <= game_turn]
    scheduled = sorted({h for i in rows for h in _entry_hexes(scenario, i)})
    if not scheduled or not all(blocked(h) for h in scheduled):
        return None
    edges = {e for h in scheduled for e in board.edges_of(h)}
    candidates = sorted({h for h in scenario.map.all_hexes()
                         if set(board.edges_of(h)) & edges and not blocked(h)})
    if not candidates:
        return None
    friends = [h for x, h in board.positions() if board.side_of(x) == side]

    def key(h: Hex) -> tuple[int, int, Hex]:
        near = min((h.distance(f) for f in friends), default=0)
        return (min(h.distance(s) for s in scheduled), near, h)

    best = min(candidates, key=key)
    return [Area(hexes=[str(best)], text=f"{best}, the nearest unblocked edge hex [15.22]")], "15.22"


class Arnhem(Exclusive):
    game = "arnhem"
    special_model = ArnhemSpecial
    rolls_in_movement = True
    citations = Citations(
        reinforcements="15.0",
        entry_hexes=None,  # "its scheduled hex or alternate" [15.24]: the schedule or the
        # alternate names its case (15.22, 15.42, 13.3, 15.39, 16.11, or the scenario's)
        entry_terrain="15.11",
        entry_enemy="15.21",
        no_return="15.42",  # back "on any subsequent Game-Turn", not the one it left on
        who_may_exit="15.4",
        exit_edges="15.41",
        exit_cost="15.4",
        off_map_by_combat="15.43",
        entry="15.11",
        withhold="15.23",
        exited="15.4",
    )
    """Where the engine acts for Arnhem (reinforcements, exits) it cites Arnhem's cases, never
    Bastogne's numbers of the same mechanisms (Arnhem's 11.x and 12.x are its City and bridges)."""

    def special_problems(self, scenario: Scenario) -> list[str]:
        return special_problems(scenario)

    # -- set-up ---------------------------------------------------------------------------------
    def prepare_state(self, scenario: Scenario, state: State) -> State:
        sp = special_of(scenario)
        extra: dict[str, Any] = dict(state.exclusive)
        if sp.drop_zones and not sp.dz_free:
            extra["dz"] = dict(sorted(sp.drop_zones.items()))  # placed as printed [18.11]
        if sp.weather:
            extra["weather"] = "good"  # [16.0] the first game-turn
            extra["weather_log"] = ["good"]
        changes: dict[str, Any] = {"exclusive": dict(sorted(extra.items()))}
        if sp.dz_free:
            # [15.36] the Allied notes first, then the German set-up, then the Allied placement.
            allied = allied_side(scenario)
            pending = [allied, *[s for s in state.setup_pending if s != allied], allied]
            changes.update(setup_pending=pending, phasing=allied, phase="setup")
        return state.replace(**changes)

    # -- secret drop zones [15.35-15.39] ----------------------------------------------------------
    def setup_label(self, scenario: Scenario, state: State, side: str) -> str | None:
        if not special_of(scenario).dz_free or side != allied_side(scenario):
            return None
        if "dz_commitments" not in state.exclusive and not state.exclusive.get("dz"):
            return ("Set-up: Allied secret drop-zone notes (write 'dz DIVISION at HEX [turn N]'; "
                    "only their commitments are signed) [15.36]")
        return "Set-up: Allied drop zones revealed and placed as noted [15.36]"

    def uses_secret_notes(self, scenario: Scenario) -> bool:
        return special_of(scenario).dz_free

    def conceal(
        self, scenario: Scenario, state: State, orders: SetupOrders | PlayerTurnOrders,
        secret: bytes | None,
    ) -> SetupOrders | PlayerTurnOrders:
        if orders.side != allied_side(scenario) or not special_of(scenario).dz_free:
            return orders
        committed = state.exclusive.get("dz_commitments")
        if isinstance(orders, SetupOrders) and orders.dz_notes is not None:
            if committed is not None or state.exclusive.get("dz"):
                raise InputError("the drop-zone notes were committed at the start: they cannot be "
                                 "changed now [15.36]")
            if secret is None:
                raise InputError("drop-zone notes are sealed with your key before signing: this "
                                 "machine has no key playing the Allied side of this game")
            placed: dict[str, str] = {}
            problems: list[str] = []  # every note's problem at once, not the first only [27]
            for n in orders.dz_notes:  # [15.37] checked now: once sealed, a note cannot change
                if n.division not in airborne_divisions(scenario):
                    problems.append(f"no airborne division {n.division!r} has a drop zone "
                                    f"(divisions: {', '.join(airborne_divisions(scenario))}) [15.35]")
                    continue
                why = dz_placement_problems(scenario, placed, n)
                if why:
                    near = nearest_dz_hex(scenario, placed, n)
                    hint = f"; the nearest hex allowed is {near}" if near else ""
                    problems.append(f"{n.division} drop zone at {n.hex}: {why[0]} [15.37]{hint}")
                    continue
                placed[n.division] = n.hex
            if len(problems) == 1:
                raise InputError(problems[0])
            if problems:
                raise InputError(f"{len(problems)} problems with the drop-zone notes:\n"
                                 + "\n".join(f"  - {x}" for x in problems))
            sealed = {n.division: seal_note(secret, n) for n in orders.dz_notes}
            if len(sealed) != len(orders.dz_notes):
                raise InputError("one drop-zone note per division [15.36]")
            return orders.replace(dz_notes=None,
                                             dz_commitments=dict(sorted(sealed.items())))
        if not committed or secret is None or orders.dz_reveal is not None:
            return orders
        if isinstance(orders, SetupOrders) and len(state.setup_pending) != 1:
            return orders  # only the last set-up step places drop zones
        weather = state.exclusive.get("weather", "good")
        due: list[DropZoneReveal] = []
        for div, raw in sorted(committed.items()):
            note = open_note(secret, div, DropZoneCommitment.parse(raw))
            if note is not None and note.turn <= state.game_turn and (
                    isinstance(orders, SetupOrders) or weather != "poor"):
                due.append(note)
        return orders.replace(dz_reveal=due or None)

    def own_notes(self, scenario: Scenario, state: State, side: str, secret: bytes) -> State:
        """[15.36, 15.39] on the Allied player's own machine: the drop zones its next orders reveal
        (those :meth:`conceal` would add) placed, marked ``dz_placing``; the others noted for
        their turn in ``dz_noted`` -- for ``pbem units`` and the template only [27]."""
        committed = state.exclusive.get("dz_commitments")
        if not committed or side != allied_side(scenario) or not special_of(scenario).dz_free:
            return state
        placing = state.phase == "player-turn" and state.phasing == side \
            and state.exclusive.get("weather", "good") != "poor"
        due: list[DropZoneReveal] = []
        later: dict[str, dict[str, Any]] = {}
        for div, raw in sorted(committed.items()):
            note = open_note(secret, div, DropZoneCommitment.parse(raw))
            if note is None:
                continue
            if placing and note.turn <= state.game_turn:
                due.append(note)
            else:
                later[div] = {"hex": note.hex, "turn": note.turn}
        extra = _place(dict(state.exclusive), due)
        if due:
            extra["dz_placing"] = sorted(r.division for r in due)
        if later:
            extra["dz_noted"] = later
        return state.replace(exclusive=dict(sorted(extra.items())))

    def arrival_turn(self, scenario: Scenario, state: State, uid: str, scheduled: int) -> int | None:
        """[15.39] an airborne unit of a division whose drop zone is not placed yet lands from the
        Game-Turn its note names (known on its author's machine) -- else nobody can say when."""
        sp = special_of(scenario)
        div = scenario.unit[uid].formation
        if not (sp.weather and _airborne_group(scenario, uid) and div in airborne_divisions(scenario)) \
                or div in state.exclusive.get("dz", {}):
            return max(scheduled, state.game_turn) if div in state.exclusive.get("dz_placing", ()) else scheduled
        noted = state.exclusive.get("dz_noted", {}).get(div)
        return max(scheduled, int(noted["turn"])) if noted is not None else None

    def _reveal_problems(
        self, scenario: Scenario, state: State, reveals: list[DropZoneReveal], placing: bool
    ) -> list[RuleViolation]:
        out: list[RuleViolation] = []
        committed = state.exclusive.get("dz_commitments") or {}
        placed = dict(state.exclusive.get("dz", {}))
        for r in reveals:
            c = committed.get(r.division)
            if c is None:
                out.append(RuleViolation("15.36", f"no drop-zone note of the {r.division} was "
                                                  "committed (or it is already placed)"))
                continue
            if note_hash(r) != c["hash"]:
                out.append(RuleViolation(
                    "15.36", f"the {r.division} drop zone revealed ({r.hex}, Game-Turn {r.turn}) "
                    "does not match the note committed before the German set-up", None, r.hex))
                continue
            if not placing:
                continue
            if r.turn > state.game_turn:
                out.append(RuleViolation("15.39", f"the {r.division} drop zone was noted for "
                                                  f"Game-Turn {r.turn}, not {state.game_turn}"))
            log = state.exclusive.get("weather_log", [])
            first = scenario.first_turn
            if state.exclusive.get("weather") == "poor" and state.phase != "setup":
                out.append(RuleViolation("15.39", f"no drop zone may be placed in poor weather "
                                                  f"({r.division})"))
            # [15.39] placed on its noted turn, or on the first later one that is not poor
            late = [t for t in range(r.turn, state.game_turn)
                    if t >= first and t - first < len(log) and log[t - first] != "poor"]
            if late and state.phase != "setup":
                out.append(RuleViolation("15.39", f"the {r.division} drop zone was due on "
                                                  f"Game-Turn {late[0]}: it cannot be held back"))
            for why in dz_placement_problems(scenario, placed, r):
                out.append(RuleViolation("15.37", f"{r.division} drop zone: {why}", None, r.hex))
            placed[r.division] = r.hex
        return out

    def setup_violations(
        self, scenario: Scenario, state: State, orders: SetupOrders
    ) -> list[RuleViolation]:
        sp = special_of(scenario)
        out: list[RuleViolation] = []
        has_dz = orders.dz_notes is not None or orders.dz_commitments is not None \
            or orders.dz_reveal is not None
        allied = allied_side(scenario)
        if not sp.dz_free or orders.side != allied:
            if has_dz:
                out.append(RuleViolation("15.35", "drop zones are not part of this set-up"))
            return out
        if orders.dz_notes is not None:
            out.append(RuleViolation("15.36", "drop-zone notes are never signed as they are: "
                                              "pbem seals them into commitments first"))
        committed = state.exclusive.get("dz_commitments")
        if committed is None and not state.exclusive.get("dz"):  # the first Allied step
            wanted = airborne_divisions(scenario)
            got = sorted(orders.dz_commitments or {})
            if got != wanted:
                out.append(RuleViolation(
                    "15.36", f"note one drop zone for each airborne division ({', '.join(wanted)}); "
                    f"got {', '.join(got) or 'none'}"))
            if orders.dz_reveal is not None:
                out.append(RuleViolation("15.36", "drop zones are revealed after the German "
                                                  "set-up, not now"))
            return out
        if orders.dz_commitments is not None:
            out.append(RuleViolation("15.36", "the drop-zone notes were committed already"))
        out += self._reveal_problems(scenario, state, orders.dz_reveal or [], placing=True)
        return out

    def after_setup(self, scenario: Scenario, state: State, orders: SetupOrders) -> State:
        if orders.dz_commitments is None and not orders.dz_reveal:
            return state
        extra = dict(state.exclusive)
        if orders.dz_commitments is not None:
            extra["dz_commitments"] = {k: v.to_json()
                                       for k, v in sorted(orders.dz_commitments.items())}
        extra = _place(extra, orders.dz_reveal or [])
        return state.replace(exclusive=dict(sorted(extra.items())))

    def turn_start(self, scenario: Scenario, state: State, orders: PlayerTurnOrders) -> State:
        if not orders.dz_reveal:
            return state
        ok = [r for r in orders.dz_reveal
              if not self._reveal_problems(scenario, state, [r], placing=False)]
        extra = _place(dict(state.exclusive), ok)
        return state.replace(exclusive=dict(sorted(extra.items())))

    # -- checks of a player-turn ----------------------------------------------------------------
    def turn_violations(
        self, scenario: Scenario, board: Board, state: State, orders: PlayerTurnOrders
    ) -> list[RuleViolation]:
        """The exclusive rules' checks of a player-turn's orders, in this order: the drop zones
        revealed [15.39], German exits [15.41], conditional paths [12.13], artillery per combat
        [14.12], Allied ground support [14.11], attacks across the river with the engineer
        [13.24], airborne arrivals [15.34, 16.12]."""
        sp = special_of(scenario)
        allied = allied_side(scenario)
        out = self._reveal_violations(scenario, state, orders, sp, allied)
        out += self._exit_violations(scenario, board, orders, sp)
        out += _condition_violations(orders)
        out += _artillery_violations(scenario, orders, sp)
        if any(att.support for att in orders.attacks):
            out += self._support_violations(scenario, board, state, orders, sp, allied)
        if sp.engineer is not None and orders.side == allied and any(
                m.unit != sp.engineer for m in orders.moves):
            out += self._engineer_violations(scenario, board, state, orders, allied)
        if orders.side == allied:
            out += _arrival_violations(scenario, board, state, orders, sp)
        return out

    def _reveal_violations(
        self, scenario: Scenario, state: State, orders: PlayerTurnOrders, sp: ArnhemSpecial,
        allied: str,
    ) -> list[RuleViolation]:
        """[15.39] drop zones revealed only by the Allied player of a game with free drop zones,
        and then as they were noted."""
        if orders.dz_reveal is None:
            return []
        if orders.side != allied or not sp.dz_free:
            return [RuleViolation("15.39", "no drop zone is to be revealed in these orders")]
        return self._reveal_problems(scenario, state, orders.dz_reveal, placing=True)

    def _exit_violations(
        self, scenario: Scenario, board: Board, orders: PlayerTurnOrders, sp: ArnhemSpecial
    ) -> list[RuleViolation]:
        """[15.41] German exits only along the two stretches."""
        out: list[RuleViolation] = []
        for m in orders.moves:
            if not m.exit:
                continue
            last = Hex.parse(m.path[-1]) if m.path else board.unit_hex(m.unit)
            if last is not None and not self._on_exit_stretch(scenario, last):
                out.append(RuleViolation(
                    "15.41",
                    f"{m.unit} may not leave the map from {last}: German units exit only on the "
                    f"west edge {sp.exit_west[0]}-{sp.exit_west[1]} or the east edge "
                    f"{sp.exit_east[0]}-{sp.exit_east[1]}", m.unit, str(last)))
        return out

    def _after_moves(self, board: Board, state: State, orders: PlayerTurnOrders) -> Board:
        """A copy of ``board`` with the player-turn's moves walked (the dice not rolled); only
        read. The check's own walk when it was made from these very state and orders."""
        if self.walked is not None and self.walked[0] is state and self.walked[1] is orders:
            return self.walked[2]
        after = board.copy()
        walk_moves(after, orders.side, state.game_turn, orders.moves, self, state=state)
        return after

    def _support_violations(
        self, scenario: Scenario, board: Board, state: State, orders: PlayerTurnOrders,
        sp: ArnhemSpecial, allied: str,
    ) -> list[RuleViolation]:
        """[14.11] only the Allied player has support, within three hexes of a ground unit (where
        the units stand after the moves)."""
        if orders.side != allied:
            return [RuleViolation("14.11", "only the Allied player receives Ground Support "
                                           "Points")]
        out: list[RuleViolation] = []
        after = self._after_moves(board, state, orders)
        ground = [after.unit_hex(u) for u in after.units_of(allied)
                  if scenario.unit[u].type not in AIRBORNE_TYPES]
        for i, att in enumerate(orders.attacks, 1):
            if not att.support:
                continue
            targets = [after.unit_hex(d) for d in att.defenders]
            if not any(t is not None and g is not None and t.distance(g) <= sp.support_range
                       for t in targets for g in ground):
                out.append(RuleViolation(
                    "14.11", f"attack {i}: Ground Support Points may only be used within "
                    f"{sp.support_range} hexes of an Allied non-airborne unit"))
        return out

    def _engineer_violations(
        self, scenario: Scenario, board: Board, state: State, orders: PlayerTurnOrders,
        allied: str,
    ) -> list[RuleViolation]:
        """[13.24] a unit ending its move with the engineer must attack across the river."""
        out: list[RuleViolation] = []
        after = self._after_moves(board, state, orders)
        for uid in after.units_of(allied):
            h = after.unit_hex(uid)
            if h is None or not self._with_engineer(scenario, after, uid):
                continue
            across = [d for att in orders.attacks if uid in att.attackers for d in att.defenders
                      if (dh := after.unit_hex(d)) is not None
                      and "river" in after.crossing(h, dh).water]
            if not across:
                out.append(RuleViolation(
                    "13.24", f"{uid} ends its move with the engineer in {h}: it must attack an "
                    "adjacent enemy unit across the river", uid, str(h)))
        return out

    def _on_exit_stretch(self, scenario: Scenario, h: Hex) -> bool:
        sp = special_of(scenario)
        west = Area(edge="west", from_hex=sp.exit_west[0], to_hex=sp.exit_west[1])
        east = Area(edge="east", from_hex=sp.exit_east[0], to_hex=sp.exit_east[1])
        return in_area(scenario, west, h) or in_area(scenario, east, h)

    # -- arrivals -------------------------------------------------------------------------------
    def _position(self, scenario: Scenario, state: State) -> Board:
        """The board of ``state``, only read: made once per state object while this instance lives
        (one check or resolution: :meth:`entry_areas` asks for every waiting unit of a walk)."""
        memo: tuple[State, Board] | None = self.__dict__.get("_position_memo")
        if memo is None or memo[0] is not state:
            memo = (state, Board.from_state(scenario, state))
            self._position_memo = memo
        return memo[1]

    def entry_areas(
        self, scenario: Scenario, state: State, uid: str, game_turn: int
    ) -> tuple[list[Area], str] | None:
        sp = special_of(scenario)
        us = state.units.get(uid)
        if us is None:
            return None
        if us.status == "exited" and us.exit_turn is not None and us.exit_turn < game_turn:
            if us.exit_edge == "west":  # [15.42]
                return [Area(edge="west", from_hex=sp.exit_west[0], to_hex=sp.exit_west[1],
                             text=f"west edge {sp.exit_west[0]}-{sp.exit_west[1]} [15.42]")], "15.42"
            if us.exit_edge == "east":
                return [Area(edge="east", from_hex=sp.reenter_east[0], to_hex=sp.reenter_east[1],
                             text=f"east edge {sp.reenter_east[0]}-{sp.reenter_east[1]} [15.42]")], \
                    "15.42"
            return None
        if us.status == "eliminated" and uid == sp.engineer:  # [13.3] a replacement
            return [Area(hexes=list(sp.engineer_reentry),
                         text=f"{' or '.join(sp.engineer_reentry)} [13.3]")], "13.3"
        if us.status == "waiting" and not _airborne_group(scenario, uid):
            return _blocked_entry(scenario, state, uid, game_turn,
                                  lambda: self._position(scenario, state))
        if us.status == "waiting" and sp.weather and _airborne_group(scenario, uid) \
                and scenario.unit[uid].formation in airborne_divisions(scenario):
            # the Polish brigade has no drop-zone counter [15.35]: it keeps its printed hexes
            div = scenario.unit[uid].formation
            dz = state.exclusive.get("dz", {}).get(div)
            if dz is None:  # [15.39] not before its drop zone is placed
                noted = state.exclusive.get("dz_noted", {}).get(div)
                if noted is not None:  # its author's own machine [27]
                    text = (f"within {sp.drop_range} hexes of {noted['hex']}, where your secret note places "
                            f"the {div} drop zone on Game-Turn {noted['turn']}; none before [15.39]")
                elif sp.dz_free and state.exclusive.get("dz_commitments", {}).get(div) is not None:
                    text = (f"none until the {div} drop zone is placed, on the Game-Turn the Allied player "
                            "noted in secret [15.39]")
                else:
                    text = f"none until the {div} drop zone is placed [15.39]"
                return [Area(hexes=[], text=text)], "15.39"
            first = min(r.turn for r in scenario.reinforcements if uid in r.units)
            if first > game_turn:
                return None
            placing = div in state.exclusive.get("dz_placing", ())  # its author's own machine [27]
            how = (f"within {sp.drop_range} hexes of the {div} drop zone {dz}, which your orders of this "
                   "player-turn place there as noted [15.39, 16.11]") if placing else \
                f"within {sp.drop_range} hexes of the {div} drop zone {dz} [16.11]"
            return [Area(within=sp.drop_range, of=[dz], text=how)], "16.11"
        return None

    def no_return(self, scenario: Scenario, state: State, uid: str, game_turn: int) -> str:
        """[15.42] a German unit that left by the west or east stretch comes back on any later
        Game-Turn, not on the one it left; one that left otherwise does not come back."""
        us = state.units.get(uid)
        if us is not None and us.exit_edge in ("west", "east") and us.exit_turn is not None \
                and us.exit_turn >= game_turn:
            return (f"{uid} left the map on Game-Turn {us.exit_turn}: it may come back by the "
                    f"{us.exit_edge} edge from Game-Turn {us.exit_turn + 1} on, not in the Game-Turn it left")
        return f"{uid} has left the map and may not return"

    def column_cost(self, scenario: Scenario, board: Board, entry: Hex, ahead: int) -> int:
        """[15.12, 15.13] units entering one behind the other pay for the hypothetical hexes off the
        map: road hexes where a road leads off the map there, clear hexes otherwise."""
        if ahead <= 0:
            return 0
        key = scenario.terrain_key
        route = board.off_map_route(entry)
        if route == "road":
            step = key.road_mp_halves
        elif route == "trail":
            step = key.trail_mp_halves
        else:
            step = key.hexes["clear"].mp_halves if "clear" in key.hexes else 2
        return ahead * step

    def landing(self, scenario: Scenario, state: State, uid: str) -> int | None:
        us = state.units.get(uid)
        if us is None or us.status != "waiting" or not _airborne_group(scenario, uid):
            return None
        return special_of(scenario).landing_mp * 2

    def landing_cap(self, scenario: Scenario, state: State) -> int | None:
        sp = special_of(scenario)
        if not sp.weather:
            return None
        return sp.airborne_per_weather.get(state.exclusive.get("weather", "good"), 0)

    def landing_violation(
        self, scenario: Scenario, board: Board, uid: str, h: Hex
    ) -> RuleViolation | None:
        others = board.occupants(h)
        if others:
            return RuleViolation(
                "15.33", f"{uid} cannot land in {h}: {others[0]} is there (airborne units land "
                "only in empty hexes, one a hex)", uid, str(h))
        if special_of(scenario).weather:
            near = [n for n in (h, *h.neighbours()) if board.on_map(n)
                    and board.terrain_kind(n) == "city"]
            if near:
                return RuleViolation(
                    "16.11", f"{uid} cannot land in {h}: in or next to the City hex {near[0]}",
                    uid, str(h))
        return None

    # -- demolition [12.1] ------------------------------------------------------------------------
    def on_enter(
        self, scenario: Scenario, board: Board, state: State, uid: str, h: Hex, dice: Dice,
        events: list[Event],
    ) -> bool:
        allied = allied_side(scenario)
        if board.side_of(uid) != allied:
            return False
        german = german_side(scenario)
        decided = {**state.exclusive.get("bridges", {}), **board.decided}
        spare = set(state.standing[german].spare_bridges) if german in state.standing else set()
        changed = False
        for n in wired_beside(board, h):
            key = side_str(h, n)
            if key in decided:
                continue
            subject = f"bridge {key}"
            if key in spare:
                events.append(RollEvent(rule="12.12", subject=subject, die=None, outcome="spared",
                                        unit=uid, hex=str(h)))
                decided[key] = board.decided[key] = "spared"
                continue
            die = dice.d6(f"12.12 demolition {key}")
            if die <= 2:
                board.demolish(h, n)
                events.append(RollEvent(rule="12.13", subject=subject, die=die,
                                        outcome="demolished", unit=uid, hex=str(h)))
                decided[key] = board.decided[key] = "demolished"
                changed = True
            else:
                events.append(RollEvent(rule="12.14", subject=subject, die=die, outcome="intact",
                                        unit=uid, hex=str(h)))
                decided[key] = board.decided[key] = "intact"
        return changed

    def rolls_on_walk(
        self, scenario: Scenario, state: State, side: str, board: Board, events: Sequence[Event]
    ) -> bool:
        """:meth:`on_enter` acts only for an Allied unit entering a hex beside a canal or rail
        bridge whose fate is not yet decided [12.11, 12.12] (a spared one is noted without a die);
        the walk without dice demolishes nothing, so each hex entered is judged on the printed map
        and the state's decided bridges."""
        if side != allied_side(scenario):
            return False
        decided = state.exclusive.get("bridges", {})
        for ev in events:
            if not isinstance(ev, MovedEvent):
                continue
            for x in ev.path if ev.entered else ev.path[1:]:
                h = Hex.parse(x)
                for n in wired_beside(board, h):
                    if side_str(h, n) not in decided:
                        return True
        return False

    def max_artillery(self, scenario: Scenario) -> int | None:
        return special_of(scenario).max_artillery_per_combat

    def fpf_support_allowed(
        self, scenario: Scenario, board: Board, side: str, defenders: Sequence[str]
    ) -> bool:
        """[14.11] Ground Support Points "may only be applied as FPF or Barrage Strength Points
        within three hexes of any Allied non-airborne unit": as FPF (westwall/3), when some
        defender of the combat stands within three hexes of one (a defender of its own kind
        counts: it is within none). westwall/2 did not check FPF."""
        if not self.readings.fpf_support_range or side != allied_side(scenario):
            return True
        rng = special_of(scenario).support_range
        ground = [board.unit_hex(u) for u in board.units_of(side)
                  if scenario.unit[u].type not in AIRBORNE_TYPES]
        targets = [board.unit_hex(d) for d in defenders]
        return any(t is not None and g is not None and t.distance(g) <= rng
                   for t in targets for g in ground)

    # -- the engineer [13.2] ------------------------------------------------------------------------
    def _engineer_hex(self, scenario: Scenario, board: Board) -> Hex | None:
        eng = special_of(scenario).engineer
        return board.unit_hex(eng) if eng is not None else None

    def crossing_relief(
        self, scenario: Scenario, board: Board, uid: str, a: Hex, b: Hex, moves: list[MoveOrder]
    ) -> int:
        """[13.21-13.23] An engineer free of enemy zones of control lets airborne and glider units
        (not airborne artillery) cross the river hexsides of its hex for the cost of the hex
        entered, "provided the Engineer expends no additional Movement Points during that Allied
        Player-Turn" [13.21]. westwall/3 reads *additional* as it says: the engineer may move up
        to the river and stop there, and then helps the units whose moves come after its own in
        the orders (moves are made in their order); a move of its own after a crossing unit's
        would spend more, so it helps none that move before it. westwall/2: any move of the
        engineer that player-turn withdrew its help."""
        if scenario.unit[uid].type not in ("airborne", "glider"):
            return 0
        c = board.crossing(a, b)
        if "river" not in c.water:
            return 0
        eng = special_of(scenario).engineer
        here = self._engineer_hex(scenario, board)
        if eng is None or here is None or here not in (a, b):
            return 0
        if board.enemy_zoc(here, board.side_of(eng)):
            return 0
        if not self.readings.engineer_moves_to_river:
            later = moves
        else:
            mine = next((i for i, m in enumerate(moves) if m.unit == uid), -1)
            later = moves[mine + 1:]
        if any(m.unit == eng for m in later):
            return 0
        return c.mp_halves

    def _with_engineer(self, scenario: Scenario, board: Board, uid: str) -> bool:
        eng = special_of(scenario).engineer
        here = board.unit_hex(uid)
        return (eng is not None and uid != eng and here is not None
                and here == board.unit_hex(eng)
                and scenario.unit[uid].type in ("airborne", "glider"))

    def may_stack(self, scenario: Scenario, board: Board, uids: list[str]) -> bool:
        """[13.24] one airborne or glider unit may end the Movement Phase with the engineer."""
        eng = special_of(scenario).engineer
        if eng is None or len(uids) != 2 or eng not in uids:
            return False
        other = next(u for u in uids if u != eng)
        return scenario.unit[other].type in ("airborne", "glider")

    def attack_across(
        self, scenario: Scenario, board: Board, uid: str, a: Hex, b: Hex
    ) -> CrtLine | None:
        """[13.24] the unit stacked with the engineer attacks across the river, on the Stream line."""
        if not self._with_engineer(scenario, board, uid) or board.unit_hex(uid) != a:
            return None
        if "river" not in board.crossing(a, b).water:
            return None
        stream = scenario.terrain_key.hexsides.get("stream")
        return stream.crt if stream is not None and stream.crt is not None else "broken"

    def retreat_crossing(
        self, scenario: Scenario, board: Board, uid: str, a: Hex, b: Hex
    ) -> str | None:
        """[13.25] Allied units never retreat across a river, nor out of the engineer's hex."""
        if scenario.unit[uid].side != allied_side(scenario):
            return None
        if "river" in board.crossing(a, b).water:
            return "13.25"
        eng = special_of(scenario).engineer
        if eng is not None and uid != eng and a == self._engineer_hex(scenario, board):
            return "13.25"
        return None

    def may_advance(self, scenario: Scenario, board: Board, uid: str, a: Hex, b: Hex) -> bool:
        """[13.25] German units never advance after combat across a river hexside."""
        if scenario.unit[uid].side != german_side(scenario):
            return True
        return "river" not in board.crossing(a, b).water

    # -- combat ---------------------------------------------------------------------------------
    def retreat_hexes(
        self, scenario: Scenario, board: Board, uid: str, hexes: int, result: str
    ) -> int:
        h = board.unit_hex(uid)
        if h is None or hexes <= 0 or not self._city_relief(scenario, board, uid, h):
            return hexes
        return max(0, hexes - 2)

    def _city_relief(self, scenario: Scenario, board: Board, uid: str, h: Hex) -> bool:
        """Whether ``uid`` in ``h`` has the City hex's reduction of retreats [11.1, 11.2]: a City
        hex, not airborne artillery, and not surrounded unless airborne or glider."""
        if not board.on_map(h) or board.terrain_kind(h) != "city":
            return False
        t = scenario.unit[uid].type
        if t == "airborne-artillery":  # [11.1]
            return False
        return not (t not in ("airborne", "glider")
                    and surrounded_at(board, board.side_of(uid), h))  # [11.2]

    def retreat_may_end(
        self, scenario: Scenario, board: Board, uid: str, done: int, total: int,
        path: Sequence[Hex] = (), called_for: int = 0,
    ) -> bool:
        """[11.1] a unit retreating into a City hex takes two hexes off what remains; the owner's
        standing retreat preference chooses among the retreats that allows, as for every retreat.

        westwall/3: the reduction of a City hex entered ``j`` hexes along ends the retreat at
        ``max(j, total - 2)`` -- with three or more hexes left the unit goes on ``remaining - 2``
        (a D4 entering a City after one hex retreats two in all) -- and never short of the
        result's minimum, "a D3 must result in a retreat of at least one hex, and a D4 ... of at
        least two": two hexes less than it called for (``called_for``; 0: ``total``), so a unit
        that took the reduction in its starting City hex stops in no other. westwall/2: only in the City hex itself, with two or fewer hexes
        left (and below the minimum for a unit that started in a City hex)."""
        if not self.readings.city_retreat_minimum:
            return total - done <= 2 and self.retreat_hexes(scenario, board, uid, total - done, "") == 0
        minimum = max(0, (called_for or total) - 2)
        if done < max(minimum, total - 2) or len(path) <= done:
            return False
        return any(max(j, total - 2) == done and self._city_relief(scenario, board, uid, path[j])
                   for j in range(1, done + 1))

    def ground_support(self, scenario: Scenario, state: State, side: str) -> int | None:
        sp = special_of(scenario)
        if side != allied_side(scenario):
            return 0  # [14.11]
        if not sp.weather:
            return None
        return sp.ground_support_per_weather.get(state.exclusive.get("weather", "good"), 0)

    # -- between player-turns -------------------------------------------------------------------
    def unit_notes(self, scenario: Scenario, state: State, board: Board) -> dict[str, list[str]]:
        """[17.35] each Allied unit that could not trace its line of communication now (the units
        :func:`~pbem.systems.westwall.arnhem_victory.loc_failures` finds, in one search for all):
        cut by which enemy units, where (the line it would trace were they gone)."""
        from pbem.systems.westwall import arnhem_victory as av

        out: dict[str, list[str]] = {}
        for uid in av.loc_failures(scenario, board, state):
            who, where = av.loc_cut_by(scenario, board, state, uid)
            why = (f": cut by {', '.join(who)} at {where}" if who and where is not None else
                   ": none to trace even with no enemy near (water, distance or no drop-zone counter)")
            out[uid] = [f"no line of communication now{why} (3 German points if still so at the end of "
                        "the game-turn) [17.35]"]
        return out

    def lost_if_left_off(self, scenario: Scenario, state: State, unit_id: str) -> str | None:
        """[15.33, 15.34] without the weather rules, an airborne unit due by this Allied
        player-turn that has not landed by its end found no empty hex: it is eliminated."""
        if special_of(scenario).weather or state.phasing == german_side(scenario):
            return None
        due = any(r.airborne and r.turn <= state.game_turn and unit_id in r.units
                  for r in scenario.reinforcements)
        return "15.33" if due else None

    def end_of_player_turn(
        self, scenario: Scenario, board: Board, state: State, events: list[Event], dice: Dice
    ) -> tuple[State, list[Event]]:
        sp = special_of(scenario)
        extra: dict[str, Any] = dict(state.exclusive)
        more: list[Event] = []
        bridges = {**state.exclusive.get("bridges", {}), **board.decided}
        if bridges:
            extra["bridges"] = dict(sorted(bridges.items()))
        lost = dict(extra.get("eliminated", {}))
        for ev in events:
            if isinstance(ev, EliminatedEvent):
                side = scenario.unit[ev.unit].side
                lost[side] = lost.get(side, 0) + 1
        if lost:
            extra["eliminated"] = dict(sorted(lost.items()))
        german = german_side(scenario)
        eng = sp.engineer
        if state.phasing != german and not sp.weather:
            # [15.33, 15.34] airborne units due that found no empty hex were forced onto occupied
            # ones: they are eliminated
            for r in scenario.reinforcements:
                for uid in r.units:
                    if state.units[uid].status == "waiting" and self.lost_if_left_off(scenario, state, uid):
                        board.eliminate(uid)
                        more.append(EliminatedEvent(unit=uid, hex=None, rule="15.33",
                                                    reason="no empty hex to land in"))
                        side = scenario.unit[uid].side
                        lost[side] = lost.get(side, 0) + 1
                        extra["eliminated"] = dict(sorted(lost.items()))
            state = board.to_state(state)
        if state.phasing != german and eng is not None:
            # [13.24] the unit that attacked from the engineer's hex had to advance across the river
            for uid in sorted(board.units_of(allied_side(scenario))):
                if self._with_engineer(scenario, board, uid):
                    h = board.unit_hex(uid)
                    board.eliminate(uid)
                    ev = EliminatedEvent(unit=uid, hex=str(h), rule="13.24",
                                         reason="it did not advance across the river after its "
                                         "attack from the engineer's hex")
                    more.append(ev)
                    lost[allied_side(scenario)] = lost.get(allied_side(scenario), 0) + 1
                    extra["eliminated"] = dict(sorted(lost.items()))
            state = board.to_state(state)
        if state.phasing != german:
            if eng is not None and board.unit_hex(eng) is not None:
                extra["engineer_hex"] = str(board.unit_hex(eng))
            else:
                extra.pop("engineer_hex", None)
        else:
            # [13.1] repairs after a whole German player-turn next to the demolished canal bridge.
            here = board.unit_hex(eng) if eng is not None else None
            if eng is not None and here is not None and extra.get("engineer_hex") == str(here) \
                    and not board.enemy_zoc(here, board.side_of(eng)) \
                    and not (self.readings.repair_whole_turn
                             and _zoc_during_turn(scenario, board, state, events, here)):
                for n in sorted(here.neighbours()):
                    key = side_str(here, n)
                    if bridges.get(key) == "demolished" and bridge_kind(board, here, n) == "canal":
                        board.repair(here, n)
                        bridges[key] = "repaired"
                        more.append(NoteEvent(rule="13.1", text=f"the engineer {eng} repairs the "
                                              f"canal bridge {key}"))
                if bridges:
                    extra["bridges"] = dict(sorted(bridges.items()))
                destroyed = sorted(f"{a}/{b}" for a, b in board.geo.destroyed)
                if destroyed:
                    extra["destroyed_bridges"] = destroyed
                else:
                    extra.pop("destroyed_bridges", None)
            # End of the game-turn: lines of communication and points [17.11, 17.12, 17.35].
            from pbem.systems.westwall import arnhem_victory as av

            now = state.replace(exclusive=extra)
            got, lines = av.turn_points(scenario, board, now, name_all=self.readings.loc_names_every_unit)
            pts = dict(extra.get("points", {}))
            for s, v in got.items():
                if v:
                    pts[s] = pts.get(s, 0) + v
            if pts:
                extra["points"] = dict(sorted(pts.items()))
            more += [NoteEvent(rule="17.1", text=line) for line in lines]
            # Weather for the next game-turn [16.0].
            if sp.weather and state.game_turn < scenario.last_turn:
                die = dice.d6("16.0 weather")
                before = extra.get("weather", "good")
                now_w = {1: before, 2: "good", 3: "fair", 4: "fair", 5: "poor", 6: "poor"}[die]
                extra["weather"] = now_w
                extra["weather_log"] = [*extra.get("weather_log", []), now_w]
                more.append(RollEvent(rule="16.0", subject=f"weather for Game-Turn "
                                      f"{state.game_turn + 1}", die=die, outcome=now_w))
        return state.replace(exclusive=dict(sorted(extra.items()))), more

    # -- victory [17.0] -------------------------------------------------------------------------
    def score(self, scenario: Scenario, state: State) -> dict[str, int]:
        from pbem.systems.westwall import arnhem_victory as av

        return av.score(scenario, state)

    def describe_victory(self, scenario: Scenario, state: State) -> list[str]:
        from pbem.systems.westwall import arnhem_victory as av

        return av.describe(scenario, state)

    def outcome(self, scenario: Scenario, state: State) -> Outcome | None:
        if not state.finished:
            return None
        from pbem.systems.westwall import arnhem_victory as av

        points = self.score(scenario, state)
        german, allied = german_side(scenario), allied_side(scenario)
        level, winner = av.victory_level(points.get(german, 0), points.get(allied, 0),
                                         exact=self.readings.exact_victory_ratio)
        who = {"german": german, "allied": allied}.get(winner or "")
        ratio = (f"{points.get(german, 0)} to {points.get(allied, 0)}")
        return Outcome(who, f"{level}: German to Allied points {ratio} [17.4]", points,
                       self.describe_victory(scenario, state))


def _zoc_during_turn(
    scenario: Scenario, board: Board, state: State, events: list[Event], here: Hex
) -> bool:
    """[13.1] westwall/3: whether a German unit exerted a zone of control on ``here`` at some moment
    of the German player-turn just played: "free of Enemy Zones of Control for an entire German
    Player-Turn". Every hex a German unit stood in during it -- where it started and ended, every
    hex of its moves, retreats, displacements and advances, where it was eliminated -- is looked
    at with the zones of control of the map as it is at the end (a unit that came adjacent,
    attacked and was thrown back counts)."""
    german = german_side(scenario)
    stood: set[Hex] = set()
    for uid in board.units_of(german):
        h = board.unit_hex(uid)
        if h is not None:
            stood.add(h)
    for ev in events:
        unit = getattr(ev, "unit", None)
        if unit is None or scenario.unit[unit].side != german:
            continue
        for h in getattr(ev, "path", None) or []:
            stood.add(Hex.parse(h))
        if isinstance(ev, EliminatedEvent) and ev.hex is not None:
            stood.add(Hex.parse(ev.hex))
    return any(h in stood for h in board.geo.zoc_from[here])


def _condition_violations(orders: PlayerTurnOrders) -> list[RuleViolation]:
    """[12.1] a condition (``if_demolished``) must be a chain of hexes."""
    out: list[RuleViolation] = []
    for m in orders.moves:
        if m.if_demolished:
            chain = [Hex.parse(x) for x in m.if_demolished]
            for a, b in zip(chain, chain[1:], strict=False):
                if not a.is_adjacent(b):
                    out.append(RuleViolation(
                        "12.13", f"{m.unit}: the hexes after 'if demolished', {a} and {b}, are not "
                        "adjacent", m.unit, str(b)))
    return out


def _artillery_violations(
    scenario: Scenario, orders: PlayerTurnOrders, sp: ArnhemSpecial
) -> list[RuleViolation]:
    """[14.12] at most two artillery units in any combat."""
    out: list[RuleViolation] = []
    for i, att in enumerate(orders.attacks, 1):
        # a unit the scenario does not have is named by the standard checks, not here
        guns = {a for a in att.attackers if a in scenario.unit and scenario.unit[a].is_artillery} | set(att.artillery)
        if len(guns) > sp.max_artillery_per_combat:
            out.append(RuleViolation(
                "14.12", f"attack {i} uses {len(guns)} artillery units ({', '.join(sorted(guns))}): "
                f"at most {sp.max_artillery_per_combat} may take part in one combat"))
    return out


def _arrival_violations(
    scenario: Scenario, board: Board, state: State, orders: PlayerTurnOrders, sp: ArnhemSpecial
) -> list[RuleViolation]:
    """Airborne arrivals of the Allied player-turn: with the weather rules, no more than the
    weather allows [16.12]; without them, none held back that has a free hex to land in [15.34]
    (those with none are lost [15.33])."""
    landing = [m.unit for m in orders.moves
               if m.path and state.units.get(m.unit) is not None
               and state.units[m.unit].status == "waiting"
               and _airborne_group(scenario, m.unit)]
    if sp.weather:
        weather = state.exclusive.get("weather", "good")
        cap = sp.airborne_per_weather.get(weather, 0)
        if len(landing) > cap:
            return [RuleViolation(
                "16.12", f"{len(landing)} airborne units land, but in {weather} weather at "
                f"most {cap} may")]
        return []
    landed = {Hex.parse(m.path[0]) for m in orders.moves if m.unit in landing and m.path}
    due = [u for i, r in enumerate(scenario.reinforcements) if r.airborne and r.turn <= state.game_turn
           for u in r.units if state.units[u].status == "waiting"
           and any(board.occupant(h) is None and h not in landed
                   for h in _entry_hexes(scenario, i))]
    held = sorted(set(due) - set(landing))  # those with no free hex are lost [15.33]
    if held:
        return [RuleViolation(
            "15.34", f"airborne units may be held back only with the weather rules: "
            f"{', '.join(held[:6])}{'...' if len(held) > 6 else ''} must land this turn",
            held[0])]
    return []


def bot_drop_zone_notes(scenario: Scenario, state: State, side: str) -> list[DropZoneNote] | None:
    """The sparring bot's secret drop zones (arnhem-alternate [15.36, 15.37]): for each division,
    the hex nearest to where its first lift lands (the historical zones) that keeps the placement
    limits; all placed before play. ``None`` when no notes are due."""
    sp = special_of(scenario)
    if not sp.dz_free or side != allied_side(scenario) or state.exclusive.get("dz_commitments") \
            or state.exclusive.get("dz") or state.phase != "setup":
        return None
    notes: list[DropZoneNote] = []
    placed: dict[str, str] = {}
    hexes = scenario.map.all_hexes()
    for div in airborne_divisions(scenario):
        groups = [r for r in scenario.reinforcements if r.airborne
                  and any(scenario.unit[u].formation == div for u in r.units)]
        centres = [Hex.parse(h) for r in sorted(groups, key=lambda r: r.turn)[:1]
                   for a in r.entry for h in a.of]
        if not centres:
            continue
        centre = centres[0]
        for h in sorted(hexes, key=lambda x: (x.distance(centre), x)):
            note = DropZoneNote(division=div, hex=str(h), turn=1)
            if not dz_placement_problems(scenario, placed, note):
                notes.append(note)
                placed[div] = str(h)
                break
    return notes


def status_lines(scenario: Scenario, state: State, *, old_words: bool = False) -> list[str]:
    """What the exclusive rules keep, in words, for the map's header and the turn report: weather
    [16.0], drop zones placed [15.35] (and how many are still secret [15.36]), bridges decided
    [12.17], the points scored at the ends of game-turns so far [17.1], named so: the victory
    points above them add what the end of the game would score now. ``old_words``: as the maps of
    drawings 1 to 3 word them ("Points so far"), which must redraw byte for byte."""
    ex = state.exclusive
    out: list[str] = []
    if "weather" in ex:
        out.append(f"Weather: {ex['weather']} [16.0]")
    dz = ex.get("dz", {})
    secret = ex.get("dz_commitments", {})
    if dz or secret:
        shown = ", ".join(f"{d} at {h}" for d, h in sorted(dz.items()))
        hidden = f"{len(secret)} still secret [15.36]" if secret else ""
        out.append("Drop zones: " + "; ".join(x for x in (shown, hidden) if x) + " [15.35]")
    bridges = ex.get("bridges", {})
    if bridges:
        out.append("Bridges: " + ", ".join(f"{k} {v}" for k, v in sorted(bridges.items()))
                   + " [12.17]")
    pts = ex.get("points", {})
    if pts:
        scored = ", ".join(f"{k} {v}" for k, v in sorted(pts.items()))
        out.append(f"Points so far: {scored} [17.1]" if old_words else
                   f"Points scored at the ends of game-turns: {scored} (the victory points add what the "
                   "end of the game would score now) [17.1]")
    return out
