"""How WestWall is shown to people (:class:`WestWallPresenter`): events in words citing the rule
cases, orders in words, text orders and the sparring bot. The commands reach it only through
:meth:`pbem.systems.westwall.rules.WestWallRules.presenter`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pbem.engine.presenter import JSON, Presenter
from pbem.maps.hexmap import Hex
from pbem.systems.westwall.model import Scenario, State

if TYPE_CHECKING:
    from pbem.maps.view import MapView  # drawn maps only: status and the bot need none
    from pbem.systems.westwall.board import Board
    from pbem.systems.westwall.model import UnitDef


class WestWallPresenter(Presenter[Scenario, State]):
    """WestWall's presenter (the rules never import it)."""

    has_map = True
    writes_mail = True
    zoc_case = "6.0"

    def side_name(self, scenario: Scenario, side: str) -> str:
        from pbem.systems.westwall.display import side_name

        return side_name(scenario, side)

    def about(self, scenario: Scenario) -> str:
        sc = scenario
        return (f"{sc.title} [{sc.rule}]: {sc.last_turn - sc.first_turn + 1} game-turns, "
                f"{self.side_name(sc, sc.first_player)} first.")

    def subtitle(self, scenario: Scenario, turn_state: JSON, step: int, mover: str | None) -> str:
        from pbem.systems.westwall.display import coerce_state

        st = coerce_state(turn_state)
        after = f" · after {self.side_name(scenario, mover)}'s move" if mover else ""
        if st.phase == "setup":
            head = "Set-up"
        elif st.phase == "over" or st.finished:
            head = f"Game over after Game-Turn {st.game_turn}"
        else:
            head = (f"Game-Turn {st.game_turn} of {scenario.last_turn} · "
                    f"{self.side_name(scenario, st.phasing)} player-turn next")
        return f"{head} · step {step}{after}"

    def game_turn(self, scenario: Scenario, turn_state: JSON) -> int | None:
        from pbem.systems.westwall.display import coerce_state

        return coerce_state(turn_state).game_turn

    def narrate(self, scenario: Scenario, events: Sequence[JSON], rolls: Sequence[Mapping[str, Any]] = (),
                *, state: State | JSON = None) -> list[str]:
        return narrate(scenario, events, rolls, state=state)

    def map_view(self, scenario: Scenario, shown: State | JSON, events: Sequence[JSON], *, subtitle: str = "",
                 side: str | None = None, score: Mapping[str, int] | None = None,
                 header_lines: Sequence[str] = ()) -> MapView:
        from pbem.systems.westwall.mapview import map_view

        return map_view(scenario, shown, events, subtitle=subtitle, side=side, score=score,
                        header_lines=header_lines)

    def describe_orders(self, scenario: Scenario, orders: JSON) -> list[str]:
        return describe_orders(scenario, orders)

    def describe_orders_at(self, scenario: Scenario, state: State, orders: JSON) -> list[str]:
        return describe_orders(scenario, orders, state)

    def undone(self, scenario: Scenario, state: State, side: str, orders: JSON) -> list[str]:
        return undone(scenario, state, side, orders)

    def expected(self, scenario: Scenario, state: State, side: str, orders: JSON) -> list[str]:
        """Each attack's strengths, differential, CRT line and column [7.3-7.6] (FPF [8.4]
        included), as the combat phase starts."""
        from pbem.systems.westwall.display import unit_label

        out = []
        for c in self.ruleset.expected_combats(scenario, state, orders):  # type: ignore[attr-defined]
            fpf = [unit_label(scenario, f) for f in c.fpf] + ([f"{c.fpf_support} support points"]
                                                              if c.fpf_support else [])
            out.append(f"attack {c.number}: {c.attack} against {c.defense}"
                       + (f" (with FPF of {', '.join(fpf)})" if fpf else "")
                       + f" = {c.differential:+d} on the {c.line} line, column {c.column} [7.5, 7.6]"
                       + ("" if c.number == 1 else ", unless earlier results change it"))
        return out

    def describe_secret_notes(self, scenario: Scenario, document: JSON) -> list[str]:
        """Each drop-zone note's hex and Game-Turn [15.36, 15.39], as the Allied player wrote them."""
        notes = document.get("dz_notes") if isinstance(document, dict) else None
        return [f"Secret drop zone of {n.get('division')}: {n.get('hex')}, placed on Game-Turn {n.get('turn', 1)}"
                + ("" if n.get("turn", 1) == 1 else " (held back [15.39])")
                + " -- sealed: only its commitment is signed, revealed by pbem when due [15.36]"
                for n in notes or [] if isinstance(n, dict)]

    def text_skeleton(self, scenario: Scenario, state: State, side: str) -> JSON:
        """A set-up written as text starts with no unit placed: a unit the player forgets is
        refused by name [3.0] instead of being put where the skeleton would (unless
        :meth:`with_defaults`)."""
        skeleton: dict[str, Any] = self.ruleset.skeleton(scenario, state, side)
        if skeleton.get("kind") == "setup":
            skeleton = {**skeleton, "placements": {}}
        return skeleton

    def with_defaults(self, scenario: Scenario, state: State, side: str, orders: JSON) -> JSON:
        """``--defaults``: the units a text set-up leaves out placed as pbem proposes, around the
        player's own placements (kept, their hexes taken) [3.0, 5.31]."""
        from pbem.systems.westwall.rules import default_placements

        if not isinstance(orders, dict) or orders.get("kind") != "setup":
            return orders
        placed = orders.get("placements")
        own = {str(u): str(h) for u, h in placed.items()} if isinstance(placed, dict) else {}
        return {**orders, "placements": default_placements(scenario, state, side, fixed=own)}

    def left_to_defaults(self, scenario: Scenario, state: State, side: str, orders: JSON) -> list[str]:
        """The units of the side's set-up the text orders do not place [3.0]."""
        if not isinstance(orders, dict) or orders.get("kind") != "setup":
            return []
        placed = orders.get("placements")
        due = {uid for d in scenario.deployments if d.side == side for uid in d.units}
        return sorted(due - set(placed if isinstance(placed, dict) else {}))

    def cut_off(self, scenario: Scenario, state: State) -> list[str]:
        """[17.35] SPI Arnhem: each Allied unit on the map without a line of communication now, with
        the enemy units that cut it and where (the exclusive rules' own search, as ``pbem units``)."""
        from pbem.systems.westwall.board import Board
        from pbem.systems.westwall.display import coerce_scenario, unit_label
        from pbem.systems.westwall.exclusive import get_exclusive

        sc = coerce_scenario(scenario)
        if sc.game == "standard" or state.phase not in ("player-turn", "over"):
            return []
        notes = get_exclusive(sc.game).unit_notes(sc, state, Board.from_state(sc, state))
        return [f"{unit_label(sc, uid)} in {state.units[uid].hex}: {'; '.join(lines)}"
                for uid, lines in sorted(notes.items())
                if state.units.get(uid) is not None and state.units[uid].status == "on-map"]

    def roster(self, scenario: Scenario, state: State, side: str) -> tuple[list[str], list[list[str]]]:
        return roster(scenario, state, side)

    def reach(self, scenario: Scenario, state: State, unit: str) -> list[str]:
        return reach(scenario, state, unit)

    def reach_view(self, scenario: Scenario, state: State, unit: str) -> MapView:
        """The map with every hex ``unit`` can reach this phase shaded, each labelled with the
        movement points it costs (``pbem reach --map``)."""
        from dataclasses import replace

        from pbem.systems.westwall.board import Board
        from pbem.systems.westwall.display import coerce_scenario
        from pbem.systems.westwall.enumerate import unit_options
        from pbem.systems.westwall.exclusive import get_exclusive
        from pbem.systems.westwall.movement import fmt_mp

        reach(scenario, state, unit)  # the same refusals as the list (unknown unit, not its turn)
        sc, st = coerce_scenario(scenario), state
        board = Board.from_state(sc, st)
        opts = unit_options(board, unit, st.game_turn, get_exclusive(sc.game))
        start = board.unit_hex(unit)
        shaded: list[tuple[Hex, str]] = [(h, fmt_mp(c)) for h, c in opts.destinations.items() if h != start]
        view = self.map_view(scenario, state, [], subtitle=f"where {unit} can move this phase")
        return replace(view, shaded=tuple(shaded),
                       shaded_heading=f"{unit} can end its move here (MP spent)")

    def zones_of_control(self, scenario: Scenario, turn_state: Any, side: str) -> list[Any] | None:
        """Every hex in the zone of control of ``side``'s units on the map [6.0, 6.11]: the hexes
        around each of them that their zone reaches (not across hexsides it does not cross)."""
        from pbem.errors import InputError
        from pbem.systems.westwall.board import Board
        from pbem.systems.westwall.display import coerce_scenario, coerce_state

        sc, st = coerce_scenario(scenario), coerce_state(turn_state)
        if side not in sc.side_ids():
            raise InputError(f"unknown side {side!r} (sides: {', '.join(sc.side_ids())})")
        board = Board.from_state(sc, st)
        held = {h for uid, h in board.positions() if board.side_of(uid) == side}
        return sorted(h for h in board.geo.hexes if any(n in held for n in board.geo.zoc_from[h]))

    def parse_text_orders(self, scenario: Scenario, skeleton: JSON, side: str, text: str) -> JSON:
        from pbem.systems.westwall.orders_text import parse_text_orders

        return parse_text_orders(scenario, skeleton, side, text)

    def orders_template(self, scenario: Scenario, state: State, side: str) -> str | None:
        from pbem.systems.westwall.template import orders_template

        return orders_template(self.ruleset, scenario, state, side)

    def bot_orders(self, scenario: Scenario, state: State, side: str, *, seed: int = 0) -> JSON:
        from pbem.systems.westwall.bot import choose_orders

        return choose_orders(scenario, state, side, seed=seed)


def narrate(
    scenario: Any,
    events: Iterable[Any],
    rolls: Sequence[Mapping[str, Any]] = (),
    *,
    state: Any = None,
) -> list[str]:
    """The step's events as sentences, e.g. ``"1/3 moved 2913 → 2712 (6 MP)"`` or
    ``"Combat 2: 1/3, 2/3 (12) attacked 20 (4) in Noville (town): +8 on the broken line, die 5 →
    D1; 20 retreated 1317 → 1318"``. Results that follow a combat (retreat [7.7], displacement
    [7.8], advance [7.9], elimination) are told in that combat's sentence.

    ``state`` (the state after the step), when given, places defenders that neither retreated nor
    were eliminated; without it their hex is found from the events alone. ``rolls`` (the turn
    file's roll log) adds a closing line listing every die rolled, by label."""
    from pbem.maps.hexmap import Hex
    from pbem.systems.westwall.display import (
        cases,
        coerce_events,
        coerce_scenario,
        coerce_state,
        mp_text,
        positions_before,
        unit_label,
    )
    from pbem.systems.westwall.model import (
        AdvanceEvent,
        CombatEvent,
        DisplacedEvent,
        EliminatedEvent,
        MovedEvent,
        NoteEvent,
        PlacedEvent,
        RetreatEvent,
        RollEvent,
    )

    sc = coerce_scenario(scenario)
    evs = coerce_events(events)
    before: list[dict[str, Hex]] | None = None
    if state is not None:
        before = positions_before(coerce_state(state), evs)

    def name(uid: str) -> str:
        return unit_label(sc, uid)

    def names(uids: Sequence[str]) -> str:
        return ", ".join(name(u) for u in uids)

    def where(hexes: Sequence[Hex]) -> str:
        """Every hex the defenders stood in, with its terrain: one attack may take on units in
        several hexes [7.23]."""
        if not hexes:
            return ""
        said = []
        for h in hexes:
            kind = sc.map.terrain_of(h)
            place = sc.map.place_name(h)
            said.append(f"{place} ({kind})" if place else f"{h} ({kind})")
        return " in " + ", ".join(said)

    def defender_hex(i: int, ev: CombatEvent, u: str) -> Hex | None:
        if before is not None and u in before[i]:
            return before[i][u]
        for later in evs[i + 1:]:
            if isinstance(later, RetreatEvent) and later.unit == u and later.path:
                return Hex.parse(later.path[0])
            if isinstance(later, EliminatedEvent) and later.unit == u and later.hex:
                return Hex.parse(later.hex)
        return None

    def defender_hexes(i: int, ev: CombatEvent) -> list[Hex]:
        out: list[Hex] = []
        for u in ev.defenders:
            h = defender_hex(i, ev, u)
            if h is not None and h not in out:
                out.append(h)
        return out

    lines: list[str] = []
    combat_line: dict[int, int] = {}  # combat number -> index in lines
    for i, ev in enumerate(evs):
        if isinstance(ev, MovedEvent):
            path = " → ".join(ev.path)
            text = f"{name(ev.unit)} moved {path} ({mp_text(ev.mp_halves)} MP)"
            if ev.entered and any(r.airborne and ev.unit in r.units for r in sc.reinforcements):
                text = (f"{name(ev.unit)} landed at {ev.path[0] if ev.path else '?'}"  # by air [15.31]
                        + (f" and moved {path}" if len(ev.path) > 1 else "")
                        + f" ({mp_text(ev.mp_halves)} MP) [15.31]")
            elif ev.entered:
                text = (f"{name(ev.unit)} entered the map at {ev.path[0] if ev.path else '?'}"
                        + (f" and moved {path}" if len(ev.path) > 1 else "")
                        + f" ({mp_text(ev.mp_halves)} MP) [{cases(sc).entry}]")
            if ev.exited:
                text += f" and left the map [{cases(sc).exited}]"
            lines.append(text)
        elif isinstance(ev, PlacedEvent):
            lines.append(f"{name(ev.unit)} set up in {ev.hex}")
        elif isinstance(ev, CombatEvent):
            head = f"Combat {ev.number}: "
            if ev.cancelled:
                lines.append(f"{head}did not take place: {ev.cancelled}")
            else:
                att = names(ev.attackers) or "no ground units"
                extra = [a for a in ev.artillery if a not in ev.attackers]
                if extra:
                    att += f" with artillery {names(extra)}"
                if ev.support:
                    att += f" and {ev.support} ground support points"
                dfn = names(ev.defenders)
                if ev.fpf or ev.fpf_support:
                    helpers = names(ev.fpf) if ev.fpf else ""
                    if ev.fpf_support:
                        helpers += (" and " if helpers else "") + f"{ev.fpf_support} support points"
                    dfn += f" (with final protective fire from {helpers} [8.4])"
                lines.append(
                    f"{head}{att} ({ev.attack_strength}) attacked {dfn} ({ev.defense_strength})"
                    f"{where(defender_hexes(i, ev))}: {ev.differential:+d} on the {ev.line} line, "
                    f"die {ev.die} → {ev.result}"
                )
            combat_line[ev.number] = len(lines) - 1
        elif isinstance(ev, RetreatEvent | DisplacedEvent | AdvanceEvent | EliminatedEvent):
            if isinstance(ev, RetreatEvent):
                text = f"{name(ev.unit)} retreated {' → '.join(ev.path)}"
                if len(ev.path) < 2:
                    text = f"{name(ev.unit)} held its ground"
            elif isinstance(ev, DisplacedEvent):
                text = (f"{name(ev.unit)} was displaced {' → '.join(ev.path)} by {name(ev.by)} "
                        f"[7.8]")
            elif isinstance(ev, AdvanceEvent):
                text = f"{name(ev.unit)} advanced {' → '.join(ev.path)}"
            else:
                place = f" in {ev.hex}" if ev.hex else ""
                reason = f" ({ev.reason})" if ev.reason else ""
                text = f"{name(ev.unit)} was eliminated{place}{reason} [{ev.rule}]"
            number = ev.combat
            if number is not None and number in combat_line:
                lines[combat_line[number]] += f"; {text}"
            else:
                lines.append(text[0].upper() + text[1:] if text else text)
        elif isinstance(ev, NoteEvent):
            lines.append(ev.text + (f" [{ev.rule}]" if ev.rule else ""))
        elif isinstance(ev, RollEvent):
            die = f"die {ev.die} → " if ev.die is not None else ""
            who = f" as {name(ev.unit)} entered {ev.hex}" if ev.unit and ev.hex else ""
            lines.append(f"{ev.subject[0].upper()}{ev.subject[1:]}{who}: {die}{ev.outcome} "
                         f"[{ev.rule}]")
    if rolls:
        told = [f"{r.get('label', '?')}: {r.get('value', '?')}" for r in rolls]
        lines.append(f"Dice rolled ({len(told)}): " + "; ".join(told)
                     + " -- pbem verify re-derives every one")
    return lines




def describe_orders(scenario: Any, orders: Any, state: State | None = None) -> list[str]:
    """A move's orders in words (WestWall): placements, moves, drop zones, standing orders,
    attacks with their advances. With the ``state`` they answer (the preview), a reinforcement's
    move reads as its entry, an airborne unit's as its landing [11.11, 15.31]."""
    from pbem.systems.westwall.display import unit_label

    if not isinstance(orders, dict):
        return []

    def name(uid: Any) -> str:
        return unit_label(scenario, str(uid))

    arriving: dict[str, str] = {}
    if state is not None:
        sc = scenario if isinstance(scenario, Scenario) else None
        for mv in orders.get("moves") or []:
            uid = str(mv.get("unit"))
            us = state.units.get(uid)
            if us is not None and us.status == "waiting" and sc is not None:
                airborne = any(r.airborne and uid in r.units for r in sc.reinforcements)
                if airborne:
                    arriving[uid] = "lands at {} [15.31]"
                else:  # the entry case this game cites, as its result does (Bastogne 11.11, Arnhem 15.11)
                    from pbem.systems.westwall.display import cases

                    arriving[uid] = "enters at {} [" + cases(sc).entry + "]"
    kind = orders.get("kind")
    lines = _placement_lines(orders, kind, name)
    lines += _move_lines(orders, name, arriving)
    lines += _drop_zone_lines(orders)
    lines += _standing_lines(scenario, orders, kind)
    lines += _attack_lines(orders, name)
    if state is not None:  # the preview: the standing orders signed with these, every one [27]
        lines += _standing_detail(orders, state, name)
    return lines


def _standing_detail(orders: dict[str, Any], state: State, name: Callable[[Any], str]) -> list[str]:
    """The standing orders a player-turn signs for the enemy's next player-turn, in words: FPF
    [8.4], support points as FPF [9.0], retreat preferences [7.7], units not to displace [7.8],
    pursuit [7.91] -- said as new or as those already in force."""
    st = orders.get("standing")
    if orders.get("kind") != "player-turn" or not isinstance(st, dict):
        return []
    parts = []
    for f in st.get("fpf") or []:
        protect = f.get("protect", ["*"])
        parts.append(f"{name(f.get('artillery'))} " + ("holds its FPF back" if not protect else
                     "gives FPF to any unit in range" if "*" in protect else
                     f"gives FPF to {', '.join(name(u) for u in protect)}") + " [8.4]")
    if st.get("fpf_support"):
        parts.append(f"up to {st['fpf_support']} support points as FPF [9.0]")
    parts += [f"{name(u)} retreats toward {', '.join(hs)} [7.7]" for u, hs in sorted((st.get("retreat") or {}).items())]
    parts += [f"{name(u)} is not displaced if another way exists [7.8]" for u in st.get("avoid_displacing") or []]
    parts += [f"{name(p.get('unit'))} pursues up to {p.get('hexes', 1)} hexes [7.91]" for p in st.get("pursue") or []]
    if not parts:
        return []
    before = state.standing.get(str(orders.get("side")))
    same = before is not None and before.to_json(omit_none=True) == {
        k: v for k, v in st.items() if v is not None}
    head = "Standing orders for the enemy's next player-turn" + (" (as in force)" if same else " (new)")
    return [f"{head}: " + "; ".join(parts)]


def _placement_lines(orders: dict[str, Any], kind: Any, name: Callable[[Any], str]) -> list[str]:
    """A set-up's placements [3.0], or the closing acknowledgement."""
    if kind == "setup":
        placed = sorted((orders.get("placements") or {}).items(), key=lambda kv: str(kv[1]))
        if placed:
            return ["Set-up: " + ", ".join(f"{name(u)} at {h}" for u, h in placed) + "."]
    elif kind == "acknowledge":
        return ["Acknowledges the final turn: the game is closed."]
    return []


def _move_lines(orders: dict[str, Any], name: Callable[[Any], str],
                arriving: Mapping[str, str] | None = None) -> list[str]:
    """Each move or exit [5.0, 12.0], with its path if a bridge is demolished [12.13]; a unit in
    ``arriving`` (id -> how it arrives, "lands at {}") arrives at its path's first hex."""
    lines: list[str] = []
    for mv in orders.get("moves") or []:
        path = [str(h) for h in mv.get("path") or []]
        if not path and not mv.get("exit"):
            continue
        how = (arriving or {}).get(str(mv.get("unit")))
        if how is not None and path and not mv.get("exit"):
            line = f"{name(mv.get('unit'))} {how.format(path[0])}"
            if len(path) > 1:
                line += f", then moves to {path[-1]}" + (f" via {', '.join(path[1:-1])}" if len(path) > 2 else "")
            lines.append(line)
        elif mv.get("exit"):
            where = f" via {', '.join(path)}" if path else ""
            lines.append(f"{name(mv.get('unit'))} leaves the map{where}")
        elif len(path) > 1:
            lines.append(f"{name(mv.get('unit'))} moves to {path[-1]} via {', '.join(path[:-1])}")
        else:
            lines.append(f"{name(mv.get('unit'))} moves to {path[-1]}")
        if mv.get("if_demolished") is not None:
            alt = [str(h) for h in mv["if_demolished"]]
            lines.append(f"  if a bridge is demolished during this move: "
                         f"{'then ' + ', '.join(alt) if alt else 'stop there'} [12.13]")
    return lines


def _drop_zone_lines(orders: dict[str, Any]) -> list[str]:
    """Drop zones noted in secret and revealed (Arnhem [15.36, 15.39])."""
    lines: list[str] = []
    if orders.get("dz_commitments"):
        lines.append("Drop zones noted and sealed for: " + ", ".join(sorted(orders["dz_commitments"]))
                     + " (only their commitments are signed; the hexes stay secret) [15.36]")
    for r in orders.get("dz_reveal") or []:
        lines.append(f"Reveals and places the {r.get('division')} drop zone at {r.get('hex')} "
                     f"(noted for Game-Turn {r.get('turn')}) [15.36, 15.39]")
    return lines


def _standing_lines(scenario: Any, orders: dict[str, Any], kind: Any) -> list[str]:
    """The bridges to spare, or (the German side of Arnhem) that every one is to be demolished
    [12.12]."""
    spare = (orders.get("standing") or {}).get("spare_bridges") or []
    if spare:
        return [f"Standing: bridges not to be demolished: {', '.join(spare)} [12.12]"]
    game = getattr(scenario, "game", None) or (scenario.get("game") if isinstance(scenario, dict)
                                               else None)
    if game == "arnhem" and kind in ("setup", "player-turn"):
        from pbem.systems.westwall.arnhem import german_side
        from pbem.systems.westwall.display import coerce_scenario

        if orders.get("side") == german_side(coerce_scenario(scenario)):
            return ["Standing: every canal and rail bridge is to be demolished, if the die "
                    "allows, when the first Allied unit reaches it (a 'spare bridge HEX/HEX' "
                    "order keeps one) [12.12]"]
    return []


def _attack_lines(orders: dict[str, Any], name: Callable[[Any], str]) -> list[str]:
    """Each attack [7.0]: attackers, barrages, support, defenders, advances [7.9]."""
    lines: list[str] = []
    for n, att in enumerate(orders.get("attacks") or [], 1):
        who = [name(u) for u in att.get("attackers") or []]
        who += [f"{name(u)} (barrage)" for u in att.get("artillery") or []]
        if att.get("support"):
            who.append(f"{att['support']} support points")
        adv = [f"{name(a.get('unit'))} up to {a.get('hexes', 1)}" for a in att.get("advance") or []]
        line = f"Attack {n}: {', '.join(who) or 'nobody'} on {', '.join(name(d) for d in att.get('defenders') or [])}"
        if adv:
            line += f"; advance after combat: {', '.join(adv)}"
        lines.append(line)
    return lines




def undone(scenario: Scenario, state: State, side: str, orders: JSON) -> list[str]:
    """What a WestWall player-turn leaves undone: reinforcements due that stay off the map
    [11.22], units that do not move, attacks without an advance after combat [7.9]."""
    from pbem.systems.westwall.display import cases, coerce_scenario, unit_label
    from pbem.systems.westwall.exclusive import get_exclusive

    if not isinstance(orders, dict) or orders.get("kind") != "player-turn":
        return []
    sc = coerce_scenario(scenario)
    st = state
    moving = {m.get("unit") for m in orders.get("moves") or [] if m.get("path") or m.get("exit")}
    later = not_due_yet(sc, st, side)  # e.g. a drop zone held back [15.39]: not due, not left off
    due = [uid for r in sc.reinforcements if r.side == side and r.turn <= st.game_turn
           for uid in r.units if st.units.get(uid) is not None and st.units[uid].status == "waiting"
           and uid not in later]
    out: list[str] = []
    ex = get_exclusive(sc.game)
    left = [uid for uid in due if uid not in moving]
    lost = {uid: rule for uid in left if (rule := ex.lost_if_left_off(sc, st, uid)) is not None}
    off = [uid for uid in left if uid not in lost]
    if off:
        out.append(f"{len(off)} reinforcement{'s' if len(off) > 1 else ''} due by this game-turn "
                   f"stay{'s' if len(off) == 1 else ''} off the map: "
                   f"{', '.join(unit_label(sc, u) for u in off)} [{cases(sc).withhold}]")
    for rule in sorted(set(lost.values())):
        gone = [uid for uid in left if lost.get(uid) == rule]
        out.append(f"{len(gone)} unit{'s' if len(gone) > 1 else ''} due that {'do' if len(gone) > 1 else 'does'} "
                   f"not land or enter {'are' if len(gone) > 1 else 'is'} ELIMINATED at the end of this "
                   f"player-turn: {', '.join(unit_label(sc, u) for u in gone)} [{rule}]")
    on_map = [uid for uid, us in sorted(st.units.items())
              if us.status == "on-map" and sc.unit[uid].side == side]
    still = [uid for uid in on_map if uid not in moving]
    if on_map and len(still) == len(on_map):
        out.append("no unit moves")
    for n, att in enumerate(orders.get("attacks") or [], 1):
        if not att.get("advance"):
            out.append(f"attack {n}: no advance after combat [7.9]")
    return out


def roster(scenario: Scenario, state: State, side: str) -> tuple[list[str], list[list[str]]]:
    """One row per unit of ``side``: id as typed in orders, printed designation, type, hex,
    values [2.31], movement allowance, and its state (:func:`_unit_notes`)."""
    from pbem.systems.westwall.board import Board
    from pbem.systems.westwall.display import coerce_scenario, unit_label
    from pbem.systems.westwall.movement import fmt_mp

    sc = coerce_scenario(scenario)
    st = state
    if side not in sc.side_ids():
        from pbem.errors import InputError

        raise InputError(f"no side {side!r} (sides: {', '.join(sc.side_ids())})")
    from pbem.systems.westwall.exclusive import get_exclusive

    board = Board.from_state(sc, st)
    setup = _setup_areas(sc)
    due = _due_entries(sc, st)
    exclusive_notes = get_exclusive(sc.game).unit_notes(sc, st, board)
    rows: list[list[str]] = []
    for u in sorted((u for u in sc.units if u.side == side), key=lambda u: u.id):
        us = st.units.get(u.id)
        where = us.hex if us is not None and us.hex else "-"
        notes = _unit_notes(sc, st, board, side, u, setup, due)
        if us is not None and us.status == "on-map":
            notes += exclusive_notes.get(u.id, [])
        rows.append([u.id, unit_label(sc, u.id) if unit_label(sc, u.id) != u.id else u.designation,
                     u.type, where, u.values(), fmt_mp(u.move_halves), "; ".join(notes)])
    return ["id", "counter", "type", "hex", "values", "MA", "state"], rows


def _setup_areas(sc: Scenario) -> dict[str, str]:
    """Unit -> where it sets up, in words [3.0]."""
    setup: dict[str, str] = {}
    for d in sc.deployments:
        for uid in d.units:
            where = '; or '.join(a.text for a in d.area if a.text) or 'its area'
            setup[uid] = f"to set up: {where}" + ("" if where.endswith("]") else f" [{d.rule}]")
    return setup


def _due_entries(sc: Scenario, st: State) -> dict[str, tuple[int | None, str]]:
    """Reinforcement -> the Game-Turn it may come in from (``None``: noted in secret by its owner)
    and where, in words [11.11] (where the exclusive rules put it instead, e.g. Arnhem with
    weather: near the drop zone [16.11], not before it is placed [15.39])."""
    from pbem.systems.westwall.exclusive import get_exclusive

    due: dict[str, tuple[int | None, str]] = {}
    ex = get_exclusive(sc.game)
    for r in sc.reinforcements:
        for uid in r.units:
            areas = r.entry
            waiting = st.units.get(uid) is not None and st.units[uid].status == "waiting"
            special = ex.entry_areas(sc, st, uid, max(r.turn, st.game_turn)) if waiting else None
            if special is not None:  # e.g. Arnhem with weather: near the drop zone [16.11]
                areas = special[0]
            turn = ex.arrival_turn(sc, st, uid, r.turn) if waiting else r.turn
            due.setdefault(uid, (turn, "; or ".join(a.text for a in areas if a.text)
                                 or f"[{r.rule}]"))
    return due


def not_due_yet(sc: Scenario, st: State, side: str) -> set[str]:
    """``side``'s reinforcements scheduled by this Game-Turn that may not come in yet all the same
    (Arnhem: a division whose drop zone is held back to a later turn [15.39]) [27]."""
    from pbem.systems.westwall.exclusive import get_exclusive

    ex = get_exclusive(sc.game)
    out: set[str] = set()
    for r in sc.reinforcements:
        for uid in r.units:
            us = st.units.get(uid)
            if r.side == side and r.turn <= st.game_turn and us is not None and us.status == "waiting":
                turn = ex.arrival_turn(sc, st, uid, r.turn)
                if turn is None or turn > st.game_turn:
                    out.add(uid)
    return out


def _unit_notes(
    sc: Scenario, st: State, board: Board, side: str, u: UnitDef, setup: dict[str, str],
    due: dict[str, tuple[int | None, str]],
) -> list[str]:
    """A unit's state in words: in an enemy zone of control [6.0] (and so obliged to attack in
    its player-turn [7.11]), to set up [3.0], waiting to enter or land on a Game-Turn [11.11],
    exited [12.0], eliminated (each cited with the game's own case)."""
    from pbem.systems.westwall.display import cases

    us = st.units.get(u.id)
    status = us.status if us is not None else "waiting"
    notes: list[str] = []
    if status == "on-map" and us is not None and us.hex:
        h = Hex.parse(us.hex)
        if board.enemy_zoc(h, side):
            notes.append(f"in enemy ZOC of {', '.join(board.zoc_sources(h, side))} [6.0]")
            if st.phase == "player-turn" and st.phasing == side and not u.is_artillery:
                notes.append("must attack [7.11]")
    elif status == "waiting" and u.id in setup and st.phase == "setup":
        notes.append(setup[u.id])
    elif status == "waiting":
        turn, entry = due.get(u.id, (0, ""))
        how = "lands" if any(r.airborne and u.id in r.units for r in sc.reinforcements) else "enters"
        tail = "" if entry.endswith("]") else f" [{cases(sc).entry}]"
        if turn is None:  # held back to a Game-Turn only its owner knows [15.39]
            notes.append(f"{how} later: {entry}{tail}")
        else:
            notes.append(f"{how} on Game-Turn {turn}: {entry}{tail}" if turn else "not scheduled")
    elif status == "exited":
        notes.append(f"left the map ({us.exit_edge if us else '?'} edge) [{cases(sc).exited}]")
    else:
        notes.append(status)
    return notes


def reach(scenario: Scenario, state: State, unit: str) -> list[str]:
    """Every hex ``unit`` can end its move in this Movement Phase with its cost and path, the
    edge hexes it can leave from [12.0], and why each neighbouring hex it cannot enter is closed."""
    from pbem.errors import InputError
    from pbem.systems.westwall.board import Board
    from pbem.systems.westwall.display import cases, coerce_scenario
    from pbem.systems.westwall.enumerate import unit_options
    from pbem.systems.westwall.exclusive import get_exclusive
    from pbem.systems.westwall.movement import fmt_mp

    sc = coerce_scenario(scenario)
    st = state
    u = sc.unit.get(unit)
    if u is None:
        raise InputError(f"unknown unit {unit[:40]!r}")
    if st.phase != "player-turn" or st.phasing != u.side:
        raise InputError(f"{unit} cannot move now: it is not the {u.side} player-turn [4.1]")
    board = Board.from_state(sc, st)
    opts = unit_options(board, unit, st.game_turn, get_exclusive(sc.game))
    start = board.unit_hex(unit)
    left = get_exclusive(sc.game).landing(sc, st, unit) if start is None else None
    if left is not None:  # by air: the first hex of a path is where it lands [15.31, 15.32]
        spent = max(0, u.move_halves - left)
        head = (f"landing [15.31]: {fmt_mp(left)} MP left once landed, so each cost counts "
                f"{fmt_mp(spent)} spent on landing [15.32]")
    else:
        head = f"in {start}" if start is not None else f"entering the map [{cases(sc).entry}]"
    lines = [f"{unit} ({u.values()}, {fmt_mp(u.move_halves)} MP) {head}:"]
    for h, cost in opts.destinations.items():
        if h == start:
            continue
        path = opts.path_to(h)
        if left is not None:
            on = " ".join(str(x) for x in path[1:-1])
            via = f" landing at {path[0]}" + (f", via {on}" if on else "") if len(path) > 1 else " landing there"
        else:
            via = f" via {' '.join(str(x) for x in path[:-1])}" if len(path) > 1 else ""
        lines.append(f"  {h}  {fmt_mp(cost)} MP{via}")
    for h, cost in opts.exits:
        lines.append(f"  off the map from {h}  {fmt_mp(cost)} MP [{cases(sc).exited}]")
    if len(lines) == 1:
        lines.append("  nowhere this phase")
    if start is not None:
        closed = []
        for n in start.neighbours():
            if n in opts.destinations:
                continue
            _cost, why = board.enter_check(u, start, n)
            if why is not None:
                closed.append(f"  {n}: {why}")
            elif board.occupant(n) is not None:
                closed.append(f"  {n}: occupied by {board.occupant(n)} [5.31]")
            elif board.enemy_zoc(start, u.side):
                closed.append(f"  {n}: {unit} starts in an enemy zone of control [5.14]")
            else:
                closed.append(f"  {n}: beyond its movement allowance or zones of control [5.13, 6.0]")
        if closed:
            lines.append("closed next to it:")
            lines += closed
    return lines
