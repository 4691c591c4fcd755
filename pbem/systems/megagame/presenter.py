"""How the megagame is shown: order sheets in words, and the sparring bot of each team (seed 004).

The bot writes a sensible, not a strong, order sheet from what its team knows -- the team's own view
(:func:`pbem.systems.megagame.view.team_view`), never the master map: units in contact attack when
they prepared last turn and prepare otherwise (a unit on an objective it holds, or worn out, holds instead, standing fast on the objective);
the others march on the nearest objective the enemy holds (the Germans on the nearest they do not
hold), non-tactically while no enemy is within 6 km (else probing), along the longest part of the shortest path
that the order sheet's own checks accept [5, 6]. Game Control's bot is ``pbem rule`` with no
rulings: it accepts every grouping the engine proposes and enters no judgement [9].
"""

from __future__ import annotations

import re
import textwrap
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pbem.engine.presenter import Presenter
from pbem.errors import InputError, PbemError, UnreadableOrders
from pbem.maps.hexmap import Hex
from pbem.systems.megagame.air import MISSION_ROLES, squadrons_available
from pbem.systems.megagame.board import AnyState, hq_out_of_reach, team_side, turn_label
from pbem.systems.megagame.checks import BOMB_LINE_KM, march_line, validate
from pbem.systems.megagame.mapview import map_view
from pbem.systems.megagame.model import MegaScenario, MegaState, TeamView
from pbem.systems.megagame.movement import move_table
from pbem.systems.megagame.orders import OrderLine, OrderSheet
from pbem.systems.megagame.round import hq_follow_route, proposal, ruling_warnings
from pbem.systems.megagame.view import team_view

if TYPE_CHECKING:
    from pbem.maps.view import MapView

JSON = Any


class MegagamePresenter(Presenter[MegaScenario, AnyState]):
    writes_mail = True
    """Each message is drafted as an email to every other side (sealed orders and reports only:
    nothing hidden is in them)."""
    has_map = True
    """Each side's own map (``pbem render --side``): a team's from its view, Game Control's master
    map; games with hidden information write no map files into the shared directory."""

    def map_view(self, scenario: MegaScenario, shown: AnyState | JSON, events: Sequence[JSON], *, subtitle: str = "",
                 side: str | None = None, score: Mapping[str, int] | None = None,
                 header_lines: Sequence[str] = ()) -> MapView:
        return map_view(scenario, shown, subtitle=subtitle, side=side, header_lines=header_lines, events=events)

    def title(self, scenario: MegaScenario) -> str:
        return str(scenario.title or scenario.id)

    def side_name(self, scenario: MegaScenario, side: str) -> str:
        for t in scenario.teams:
            if t.id == side:
                return f"{t.name} ({t.side})"
        return "Game Control" if side == scenario.umpire else side

    def unit_side(self, scenario: MegaScenario, unit: str) -> str | None:
        return next((u.team for u in scenario.units if u.id == unit), None)

    def reach(self, scenario: MegaScenario, state: AnyState, unit: str) -> list[str]:
        """``pbem reach``: every hex ``unit`` could end a tactical Move this turn [6], nearest first,
        each path checked by the ruleset's own validation of the order sheet (so water, bridges,
        ground, landing and the enemy the team has seen count as they will)."""
        _, _, paths = self._reach_paths(scenario, state, unit)
        out = [f"{h}: {len(route)} km via {' '.join(str(x) for x in route)}" for h, route in paths.items() if route]
        if not out:
            return [f"{unit} cannot move this turn (see 'pbem check' for why) [6, 12]"]
        return out

    def reach_view(self, scenario: MegaScenario, state: AnyState, unit: str) -> MapView:
        """``pbem reach --map``: the team's own map (its view, never the master map [10]) with every
        hex ``unit`` could end a tactical Move this turn shaded, each labelled with the kilometres
        of the way there [6], the map framed on them."""
        team, view, paths = self._reach_paths(scenario, state, unit)
        shaded = tuple((h, f"{len(route)} km") for h, route in paths.items() if route)
        drawn = self.map_view(scenario, view, [], subtitle=f"where {unit} can move this turn (tactical) [6]",
                              side=team)
        return replace(drawn, shaded=shaded, shaded_heading=f"{unit} can end a tactical move here (km) [6]",
                       focus=tuple(sorted(paths)))

    def _reach_paths(self, scenario: MegaScenario, state: AnyState,
                     unit: str) -> tuple[str, JSON, dict[Hex, list[Hex]]]:
        """The team of ``unit``, its view, and the way to every hex ``unit`` could end a tactical
        Move this turn, in the order found (nearest first; its own hex with an empty way)."""
        team = self.unit_side(scenario, unit)
        if team is None:  # a team's copy of the scenario lists only its own side's units [10]
            raise InputError(f"no unit {unit!r} in this game as this machine knows it: a team's copy "
                             "of the scenario lists only its own side's units [10]")
        view = state.to_json() if isinstance(state, TeamView) else (
            state if isinstance(state, dict) else team_view(scenario, state, team, rules3=self.ruleset.since("3")))
        known = TeamView.parse(view)
        mine = next((u for u in known.units if u.id == unit), None)
        if mine is None:
            raise InputError(f"{unit} is not on the map now (it arrives later, or is lost)")
        geo = scenario.map.geo
        enemy = {Hex.parse(e.hex) for e in known.enemy}
        start = Hex.parse(mine.hex)
        paths: dict[Hex, list[Hex]] = {start: []}
        todo: deque[Hex] = deque([start])
        while todo:
            here = todo.popleft()
            for nb in here.neighbours():
                if nb in paths or nb not in geo.hexes or nb in enemy:
                    continue
                route = [*paths[here], nb]
                line = OrderLine(units=[unit], intention="move", route=[str(h) for h in route])
                sheet = OrderSheet(team=team, side=team_side(scenario, team), turn=known.turn, lines=[line])
                if validate(scenario, known, team, sheet, rules3=self.ruleset.since("3")):
                    continue
                paths[nb] = route
                if not any(e.distance(nb) <= 1 for e in enemy):  # contact stops a move [6]
                    todo.append(nb)
        return team, view, paths

    def describe_view(self, scenario: MegaScenario, view: JSON) -> list[str]:
        """A team's view in the words of its report [10]: the date and supplies, each unit where it
        is and in what state, the enemy in sight, the reports of the turn, the air reports, the
        objectives."""
        if isinstance(view, dict) and "units" in view and isinstance(view["units"], dict):
            return self._master_lines(scenario, view)
        if not isinstance(view, dict) or "team" not in view:
            return super().describe_view(scenario, view)
        names = {u.id: u.name for u in scenario.units}
        out = [f"{view['date']}{' (game over)' if view['over'] else ''}: "
               + (f"{view['supply']} supply points [11]" if not view.get("stacks") else
                  f"{view['supply']} supply points held by the team for units without an HQ [11]")]
        out += stack_lines(view)
        out += [f"  {u['id']:<10} {u['hex']}  {u['state']}" + ("  (prepared)" if u["prepared"] else "")
                + (f"  on the railway: {u['rail']}" if u.get("rail") else "")
                + f"  -- {names.get(u['id'], '')}" for u in view["units"]]
        out += [f"enemy at {e['where']}: {e['seen']}" for e in view["enemy"]] or ["no enemy in sight"]
        out += [f"report: {r}" for r in view["reports"]]
        out += [f"air: {a}" for a in view.get("air", [])]
        out += [f"objective {o['name']} ({o['hex']}, {o.get('points', 0)} points): {o['held_by']}"
                for o in view["objectives"]]
        if view["blown"]:
            out.append(f"bridges blown: {', '.join(view['blown'])} [8]")
        return out

    def _master_lines(self, scenario: MegaScenario, state: JSON) -> list[str]:
        """Game Control's master state in lines: each team's units on the map, spent and lost, its
        supplies; objectives; blown bridges (``pbem status`` on the umpire's machine)."""
        st = MegaState.parse(state)
        out = [f"turn {st.turn}, {turn_label(scenario, st.turn)}" + (" (game over)" if st.over else "")]
        for t in scenario.teams:
            mine = [u for u in scenario.units if u.team == t.id]
            on = [u for u in mine if st.units[u.id].hex is not None and not st.units[u.id].gone]
            lost = [u for u in mine if st.units[u.id].gone]
            steps = sum(st.units[u.id].steps for u in on)
            out.append(f"{t.id:<9} {len(on)} units on the map ({steps} step{'s' if steps != 1 else ''} lost), "
                       f"{len(lost)} lost, "
                       f"{len(mine) - len(on) - len(lost)} to come; {st.supply.get(t.id, 0)} supply points"
                       + (f", {held} more at its HQs [11]" if (held := sum(
                           st.units[u.id].stock for u in on if scenario.types[u.type].kind == "hq")) else ""))
        out += [f"objective {o.name} ({o.hex}): {st.control.get(o.hex, o.held_by)}" for o in scenario.objectives]
        if st.blown:
            out.append(f"bridges blown: {', '.join(st.blown)} [8]")
        out.append("(every unit: pbem render GAME_DIR --side " + str(scenario.umpire) + "; JSON: pbem status --json)")
        return out

    def describe_round(self, scenario: MegaScenario, state: AnyState, orders: Mapping[str, JSON],
                       rulings: JSON = None) -> list[str]:
        """The grouping the engine will propose once the units have moved [9 "Analysing Combat"],
        for Game Control to confirm or change in its rulings, and a warning for each part of the
        rulings that will not apply as the orders stand."""
        sheets = {side: OrderSheet.parse(o) for side, o in orders.items()}
        rules3 = self.ruleset.since("3")
        groups = proposal(scenario, state, sheets, rules3=rules3)
        warnings = [f"WARNING: {w}" for w in ruling_warnings(scenario, state, sheets, rulings, rules3=rules3)]
        return self._proposal_lines(groups) + warnings

    def _proposal_lines(self, groups: list[tuple[str, list[str], list[str]]]) -> list[str]:
        if not groups:
            return ["the engine proposes no combat this turn [9]"]
        out = ["the engine proposes these combats (if nobody is pinned down from the air) [9]; "
               "'groupings' in the rulings replace them, 'advantage' adds to a side:"]
        out += [f"  at {at}: {', '.join(attackers)} against {', '.join(defenders)}"
                for at, attackers, defenders in groups]
        return out

    def parse_text_orders(self, scenario: MegaScenario, skeleton: JSON, side: str, text: str) -> JSON:
        """An order sheet written as text [5], one line per unit or group, ``#`` for comments::

            2Para 3Para: attack, towards 4409, via 3508 3608 3709, tactical, whole turn
            1Border: hold, stand fast
            10Para: move, via 2704 2804 2905, non-tactical, first half
            1Para: attack, towards 3607, cas 2
            air: bombing 2 at 4409
            air: recce 1 at 4409

        Clauses after the colon, in any order: an intention (breakthrough, attack, probe, hold,
        move, prepare), ``stand fast``, ``towards HEX``, ``via HEX ...``, a posture (tactical,
        non-tactical, rest), a timing (whole turn, first half, second half, night), ``supply N``,
        ``cas N`` (close air support: also put in the air orders, as the sheet needs it twice)."""
        out: dict[str, Any] = dict(skeleton)
        lines: list[dict[str, Any]] = []
        air: list[dict[str, Any]] = []
        problems: list[str] = []  # every line that cannot be read, told at once
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            head, sep, rest = line.partition(":")
            try:
                if not sep:
                    raise InputError(f"line {n}: expected 'UNITS: INTENTION, ...' or 'air: MISSION N at HEX' [5]")
                if head.strip().lower() == "air":
                    air.append(_air_clause(n, rest))
                    continue
                lines.append(_sheet_line(n, head.split(), rest, air))
            except InputError as exc:
                problems.append(str(exc))
        out["lines"] = lines
        out["air_orders"] = air
        if problems:
            raise UnreadableOrders(problems, out)
        return out

    def orders_template(self, scenario: MegaScenario, state: AnyState, side: str) -> str | None:
        """A commented order sheet to start from (``pbem orders --text``, an empty draft): the team's
        units where they are and in what state, the squadrons that can fly today, one example line
        of each kind. Every line is a comment: unedited, it orders nothing (every unit stays)."""
        if side not in {t.id for t in scenario.teams}:
            return None
        view = state.to_json() if isinstance(state, TeamView) else (
            state if isinstance(state, dict) else team_view(scenario, state, side, rules3=self.ruleset.since("3")))
        names = {u.id: u.name for u in scenario.units}
        out = [f"# Order sheet of {self.side_name(scenario, side)}, turn {view['turn']} "
               f"({turn_label(scenario, view['turn'])}) [5]",
               "# One line per unit or group of units in one hex: 'UNITS: INTENTION, clauses'.",
               "# Intentions: breakthrough (armour), attack, probe, hold, move, prepare. Clauses: towards HEX,",
               "# via HEX HEX ..., tactical | non-tactical | rest, whole turn | first half | second half | night,",
               "# stand fast, supply N, cas N, heavy N, counter-battery, defend HEX ... (artillery for the defence",
               "# of those hexes [9]), rail to HEX" + (", attach to DIVISION (takes the turn [9])"
                                                     if self.ruleset.since("3") else "")
               + ". A unit without a line stays put.",
               *(("# interdict HEX: artillery shelling that hex on the interdiction table [9].",)
                 if self.ruleset.since("3") else ()),
               "# Your units (pbem reach GAME_DIR UNIT: where one can go):"]
        out += [f"#   {u['id']:<12} {u['hex']}  {u['state']}" + ("  (prepared)" if u["prepared"] else "")
                + f"  -- {names.get(u['id'], '')}" for u in view["units"]]
        here = {u["id"] for u in view["units"]}
        if not view["units"]:  # every unit arrives later: say when, rather than an empty list
            later = sorted((u.arrives, u.id) for u in scenario.units if u.team == side and u.id not in here
                           and u.arrives > view["turn"])
            out.append("#   none on the map yet" + ("; they arrive:" if later else ""))
            for turn in sorted({t for t, _ in later}):
                ids = ", ".join(uid for t, uid in later if t == turn)
                out += textwrap.wrap(f"turn {turn} ({turn_label(scenario, turn)}): {ids}", width=96,
                                     initial_indent="#     ", subsequent_indent="#       ")
        out += [f"# {line}" for line in stack_lines(view)]
        lifts = [u.id for u in scenario.units if u.team == side and u.by_air and u.id not in here
                 and view["turn"] < u.arrives <= view["turn"] + 1]
        if lifts:
            out.append(f"# Due by air next turn, dropping by day unless a line '{lifts[0]}: move, night' "
                       f"orders the drop by night [12]: {', '.join(lifts)}")
        side_ = team_side(scenario, side)
        flying = sorted({roles: squadrons_available(scenario, side_, view["turn"], mission, view.get("air_lost"))
                         for mission, roles in MISSION_ROLES.items()}.items())
        cab = view.get("cab_rank")
        if cab:  # the team's cab rank of the turn before keeps its squadrons in the air [9]
            ground = MISSION_ROLES["cab-rank"]
            flying = [(r, max(0, n - cab["squadrons"]) if r == ground else n) for r, n in flying]
            out.append(f"# Your cab rank is on call this turn too: {cab['squadrons']} squadrons in the air, "
                       f"{cab['squadrons'] // 2} squadrons' worth of support for every combat of yours [9]")
        if scenario.air:
            out.append("# Squadrons of your side that can fly today [12]: "
                       + ", ".join(f"{n} {'/'.join(r)}" for r, n in flying))
        out += ["# Examples with your own units and hexes of the map now (remove the '# ' to use one):",
                *self._examples(scenario, view, side)]
        return "\n".join(out) + "\n"

    def _examples(self, scenario: MegaScenario, view: Mapping[str, Any], side: str) -> list[str]:
        """One line of each kind, written with the team's first unit and real hexes [27]: the
        enemy seen nearest to it to attack, the farthest hex its tactical move reaches (``pbem
        reach``), an objective to look at, an enemy beyond the bomb line to bomb [12c], heavy
        bombers on it [9]. Each is shown as an example only when the sheet of that line alone is
        accepted now, as written (its note after a '#', which the sheet reads as a comment);
        else as its form, indented, which no one takes for an order."""
        if not view["units"]:
            return ["#   (none of your units is on the map yet)"]
        team = TeamView.parse(view)
        first = view["units"][0]
        at = Hex.parse(first["hex"])
        ours = [Hex.parse(u["hex"]) for u in [*view["units"], *view.get("friends", [])]]
        enemy = sorted((Hex.parse(e["hex"]) for e in view.get("enemy", [])), key=lambda h: (at.distance(h), h))
        reached = [Hex.parse(line.split(":")[0]) for line in self.reach(scenario, team, first["id"]) if ":" in line]
        objective = next((o["hex"] for o in view.get("objectives", [])), None)
        out: list[tuple[str, str]] = []
        if enemy:
            out.append((f"{first['id']}: attack, towards {enemy[0]}", "the way there is filled in"))
        if reached:
            goal = Hex.parse(objective) if objective is not None else at
            towards = min(reached, key=lambda h: (h.distance(goal), h))
            out.append((f"{first['id']}: move, towards {towards}", "a tactical move this turn reaches it: pbem reach"))
        out.append((f"{first['id']}: hold, stand fast", "holds at all costs: more losses rather than pushed back [5]"))
        if objective is not None:
            out.append((f"air: recce 1 at {objective}", "a look at an objective [12]"))
        beyond = [h for h in enemy if all(h.distance(o) >= 2 for o in ours)]
        if beyond:
            out.append((f"air: bombing 2 at {beyond[0]}", "at least 2 km from friendly troops: the bomb line [12c]"))
        heavy = ("air: heavy 2 at " + (str(beyond[0]) if beyond else "HEX"),
                 "heavy bombers on a map square [9]; 'heavy N' on a line: support")
        return [f"# {line:<40} # {why}" if self._accepted(scenario, team, side, line) else
                f"#   {line:<38} # {why} (not accepted now)" for line, why in [*out, heavy]]

    def _accepted(self, scenario: MegaScenario, team: TeamView, side: str, line: str) -> bool:
        """Whether a sheet of ``line`` alone is accepted now, as ``pbem check`` would read it [5]."""
        rules = self.ruleset
        try:
            doc = self.parse_text_orders(scenario, rules.skeleton(scenario, team, side), side, line + "\n")
            orders = rules.normalize(scenario, team, side, rules.load_orders(scenario, doc))
            return not rules.validate(scenario, team, side, orders)
        except PbemError:
            return False

    def undone(self, scenario: MegaScenario, state: AnyState, side: str, orders: JSON) -> list[str]:
        """Units the sheet gives no orders: they stay where they are [5]."""
        if not isinstance(orders, dict) or "lines" not in orders or side not in {t.id for t in scenario.teams}:
            return []
        view = state.to_json() if isinstance(state, TeamView) else (
            state if isinstance(state, dict) else team_view(scenario, state, side, rules3=self.ruleset.since("3")))
        ordered = {uid for line in orders["lines"] for uid in line.get("units", [])}
        follow = following(scenario, view, orders) if self.ruleset.since("3") else {}
        idle = [u["id"] for u in view["units"] if u["id"] not in ordered and not u.get("rail") and u["id"] not in follow]
        out = [f"no orders for {', '.join(idle)}: they stay where they are [5]"] if idle else []
        return out + _attacks_out_of_supply(scenario, view, orders, follow)

    def expected(self, scenario: MegaScenario, state: AnyState, side: str, orders: JSON) -> list[str]:
        """The preview's "Before any die is rolled" [27]: what the sheet does to the team's own units
        whatever the dice and the enemy -- where each move ends and how far, the turn spent boarding a
        train or attaching, the rest that counts, and the supply points each unit draws from which HQ
        stack (or the team's own supplies), with what that holds [6, 9, 11]. Game Control's sheets
        (no team) get nothing."""
        if not isinstance(orders, dict) or "lines" not in orders or side not in {t.id for t in scenario.teams}:
            return []
        view = state.to_json() if isinstance(state, TeamView) else (
            state if isinstance(state, dict) else team_view(scenario, state, side, rules3=self.ruleset.since("3")))
        return consequences(scenario, view, orders, rules3=self.ruleset.since("3"))

    def draft_line(self, verb: str, line: str) -> str:
        """``pbem draft move UNIT HEX`` and ``draft attack HEX --with UNITS`` as sheet lines [5];
        every other order is written whole with ``pbem draft order``."""
        words = line.split()
        if verb == "move" and len(words) == 4 and words[2] == "to":
            return f"{words[1]}: move, towards {words[3]}"
        if verb == "attack" and "with" in words and not {"barrage", "support", "advance"} & set(words):
            i = words.index("with")
            if i == 2 and words[i + 1:]:  # one target: attack HEX with UNITS
                return f"{' '.join(words[i + 1:])}: attack, towards {words[1]}"
        if verb != "order":
            raise InputError("the megagame writes each order as a line of the sheet: pbem draft order GAME_DIR "
                             "'UNITS: INTENTION, ...' (e.g. '3Para: move, towards 3509'; 'pbem orders GAME_DIR "
                             "--text' shows the form) [5]")
        return line

    def roster(self, scenario: MegaScenario, state: AnyState, side: str) -> tuple[list[str], list[list[str]]]:
        """``pbem units``: the team's units as it knows them [10] (words, never a status number)."""
        units = {u.id: u for u in scenario.units}
        if side == scenario.umpire and not isinstance(state, TeamView):
            # Game Control's machine: every team's units from the master state, team by team
            header, rows = ["team", "unit", "name", "hex", "state", "prepared"], []
            for team in scenario.teams:
                _h, team_rows = self.roster(scenario, state, team.id)
                rows += [[team.id, *r] for r in team_rows]
            return header, rows
        if isinstance(state, TeamView):
            view = state.to_json()
        else:
            view = team_view(scenario, state, side, rules3=self.ruleset.since("3"))
        rows = [[u["id"], units[u["id"]].name, u["hex"], u["state"], "yes" if u["prepared"] else ""]
                for u in view["units"]]
        later = [[u.id, u.name, f"turn {u.arrives}", "not yet arrived", ""] for u in scenario.units
                 if u.team == side and u.id not in {r[0] for r in rows} and u.arrives > view["turn"]]
        return ["unit", "name", "hex", "state", "prepared"], rows + later

    def describe_orders(self, scenario: MegaScenario, orders: JSON) -> list[str]:
        if not isinstance(orders, dict) or "lines" not in orders:
            return []
        out = []
        for line in orders.get("lines", []):
            what = line.get("intention", "?") + (" (stand fast)" if line.get("stand_fast") else "") + (
                ", counter-battery [9]" if line.get("counter_battery") else "") + (
                f", in the defence of {' '.join(line['defend'])} [9]" if line.get("defend") else "") + (
                f", interdicting {line['interdict']} [9]" if line.get("interdict") else "") + (
                f", attached to {line['attach']} (it takes the turn) [9]" if line.get("attach") else "")
            route = f" via {' '.join(line['route'])}" if line.get("route") else ""
            route += f", by rail to {line['rail_to']} [6]" if line.get("rail_to") else ""
            goal = f" towards {line['objective']}" if line.get("objective") else ""
            out.append(f"{', '.join(line.get('units', []))}: {what}, {line.get('posture', 'tactical')}"
                       f"{route}{goal}, {line.get('timing', 'whole')} turn [5]")
        for air in orders.get("air_orders", []):
            n, target = air.get("squadrons"), air.get("target") or ""
            out.append(f"air: {n} squadron{'' if n == 1 else 's'} of {air.get('mission')}"
                       + (f" at {target}" if target else "") + " [12]")
        return out or ["no orders: every unit stays where it is [5]"]

    def bot_orders(self, scenario: MegaScenario, state: AnyState, side: str, *, seed: int = 0) -> JSON:
        # A team's pbem holds only its view (hidden information [10]); Game Control's, the master state.
        shown: Any = state.to_json() if isinstance(state, TeamView) else state
        view = shown if isinstance(shown, dict) and shown.get("team") == side else team_view(scenario, shown, side, rules3=self.ruleset.since("3"))
        if view["over"]:
            raise InputError("the game is over: there is nothing to order")
        mine = team_side(scenario, side)
        sheet: dict[str, Any] = {"team": side, "side": mine, "turn": view["turn"], "lines": [], "air_orders": []}
        enemy = {Hex.parse(e["hex"]) for e in view["enemy"]}
        targets = sorted(Hex.parse(o["hex"]) for o in view["objectives"] if o["held_by"] != mine)
        ours = sorted(Hex.parse(o["hex"]) for o in view["objectives"] if o["held_by"] == mine)
        types = {u.id: scenario.types[u.type] for u in scenario.units}
        lines: list[dict[str, Any]] = []
        at = {u["id"]: Hex.parse(u["hex"]) for u in view["units"]}
        where: dict[str, Hex | None] = dict(at)
        led: dict[str, list[Hex]] = {}
        for d in scenario.units:
            if d.hq is not None and d.id in at and d.id != d.hq:
                led.setdefault(d.hq, []).append(at[d.id])
        for u in view["units"]:
            uid, here = u["id"], Hex.parse(u["hex"])
            t = types[uid]
            if t.artillery is not None or t.dump:
                continue  # artillery stays and supports [9]; a dump stays with its stock [11]
            contact = sorted(h for h in enemy if h.distance(here) == 1)

            worn = u["state"].startswith(("no longer", "badly"))
            if uid in led and not contact:  # an HQ keeps near the units it supplies [11]
                flock = sorted(led[uid])
                centre = flock[len(flock) // 2]
                if here.distance(centre) > 2:
                    line = _march(scenario, view, side, uid, here, centre, enemy, True)
                    if line is not None:
                        lines.append(line)
                continue
            if contact:
                if t.mode == "defence":  # a headquarters or column defends itself, never attacks [9]
                    lines.append({"units": [uid], "intention": "hold", "stand_fast": here in ours})
                elif u["prepared"] and not worn and hq_out_of_reach(scenario, uid, where) is None:
                    lines.append({"units": [uid], "intention": "breakthrough" if t.armoured else "attack",
                                  "objective": str(_beyond(here, contact, targets))})
                elif here in ours or worn:
                    lines.append({"units": [uid], "intention": "hold", "stand_fast": here in ours})
                else:
                    lines.append({"units": [uid], "intention": "prepare"})
                continue
            goals = targets or ([] if mine == "allied" else ours)
            if not goals or here in goals:
                lines.append({"units": [uid], "intention": "hold", "stand_fast": here in ours})
                continue
            goal = min(goals, key=lambda g: (g.distance(here), g))
            far = all(h.distance(here) > 6 for h in enemy)
            line = _march(scenario, view, side, uid, here, goal, enemy, far, rules3=self.ruleset.since("3"))
            if line is not None:
                lines.append(line)
        sheet["lines"] = lines
        sheet["air_orders"] = _air_orders(scenario, view, mine, targets)
        return sheet


def _march(scenario: MegaScenario, view: JSON, team: str, uid: str, here: Hex, goal: Hex,
           enemy: set[Hex], far: bool, *, rules3: bool = True) -> dict[str, Any] | None:
    """A Move (far from the enemy) or Probe line towards ``goal`` (:func:`march_line`)."""
    line = march_line(scenario, TeamView.parse(view), team,
                      OrderLine(units=[uid], intention="move" if far else "probe",
                                posture="non-tactical" if far else "tactical", objective=str(goal)),
                      rules3=rules3)
    if line is None or not line.route:
        return None
    out: dict[str, Any] = line.to_json()
    return out


def _air_orders(scenario: MegaScenario, view: JSON, side: str, targets: list[Hex]) -> list[dict[str, Any]]:
    """The team's share of its side's squadrons that fly today [12]: fighter-bombers against an
    enemy it sees beyond the bomb line (tanks first), one fighter squadron to look at an objective it cannot see, the
    other fighters as escort (Allied) or air cover (German), transports dropping supplies in the
    middle of the team's units."""
    if not scenario.air:
        return []
    share = max(1, sum(1 for t in scenario.teams if t.side == side))
    out: list[dict[str, Any]] = []
    strike = squadrons_available(scenario, side, view["turn"], "bombing", view.get("air_lost")) // share
    seen = view["enemy"]
    friendly = [Hex.parse(u["hex"]) for u in (*view["units"], *view.get("friends", []))]
    beyond = [e for e in seen  # beyond the bomb line [12c]
              if all(Hex.parse(e["hex"]).distance(f) >= BOMB_LINE_KM for f in friendly)]
    if strike and beyond:
        target = min(beyond, key=lambda e: ("tanks" not in e["seen"], e["hex"]))  # tanks first
        out.append({"mission": "bombing", "squadrons": strike, "target": target["hex"]})
    fighters = squadrons_available(scenario, side, view["turn"], "recce", view.get("air_lost")) // share
    unseen = [t for t in targets if str(t) not in {e["hex"] for e in seen}]
    if fighters and unseen:
        out.append({"mission": "recce", "squadrons": 1, "target": str(unseen[0])})
        fighters -= 1
    if fighters:
        out.append({"mission": "escort" if side == "allied" else "air-cover", "squadrons": fighters})
    lift = squadrons_available(scenario, side, view["turn"], "transport", view.get("air_lost")) // share
    if lift and view["units"]:  # supplies dropped in the middle of the team's units [12]
        hexes = sorted(Hex.parse(u["hex"]) for u in view["units"])
        out.append({"mission": "transport", "squadrons": lift, "target": str(hexes[len(hexes) // 2])})
    return out


NATION_WORDS = {"british": "British (red)", "us": "American (green)", "german": "German (blue)"}
"""Whose ammunition counters an HQ's stack holds [11]: "Red counters = British Ammo", green American,
blue German (fuel, yellow, goes with them)."""


def stack_lines(view: JSON) -> list[str]:
    """The supplies at each of the team's HQs (rules version 3) [11], in words: where the HQ stands,
    its points and the most it can carry, whose counters; its units draw on it within 5 km. The
    counters are on the map: their number is no status, and ELETIS tells supply in points [10]."""
    stacks = view.get("stacks") or []
    if not stacks:
        return []
    out = ["Supplies at your HQs (each unit draws on its own HQ's stack within 5 km) [11]:"]
    for s in stacks:
        most = f" of the {s['lift']} it can carry" if s.get("lift") is not None else ""
        out.append(f"  {s['hq']} at {s['hex']}: {s['points']} supply point{'s' if s['points'] != 1 else ''}{most}, "
                   f"{NATION_WORDS.get(s['nation'], s['nation'])}")
    return out


def following(scenario: MegaScenario, view: JSON, orders: JSON) -> dict[str, tuple[list[Hex], Hex, int]]:
    """The team's HQs that the sheet gives no orders and that will move up behind their units (rules
    version 3, :func:`pbem.systems.megagame.round.hqs_follow` [11]), as far as the team's view tells:
    HQ -> (its route, the hex its main units go to, how many of them go there). An HQ in contact
    with an enemy it has seen, on a train or in the turn of its drop stays."""
    defs = {u.id: u for u in scenario.units}
    line_of = {uid: line for line in orders["lines"] for uid in line.get("units", [])}
    enemy = frozenset(Hex.parse(e["hex"]) for e in view.get("enemy", []))
    geo = scenario.map.geo
    out: dict[str, tuple[list[Hex], Hex, int]] = {}
    for u in view["units"]:
        hid, here = u["id"], Hex.parse(u["hex"])
        t = scenario.types[defs[hid].type]
        if t.kind != "hq" or hid in line_of or u.get("rail") or u.get("landed") or any(
                here.distance(e) <= 1 for e in enemy):
            continue
        routes = [line_of[x["id"]]["route"] for x in sorted(view["units"], key=lambda x: x["id"])
                  if defs[x["id"]].hq == hid and x["id"] != hid and x["id"] in line_of
                  and line_of[x["id"]].get("route") and line_of[x["id"]].get("intention") in (
                      "move", "attack", "probe", "breakthrough")]
        route, goal, n = hq_follow_route(geo, here, t.troops, routes, enemy, frozenset(view.get("blown", [])),
                                         move_table(shared_infantry_row=True))
        if route and goal is not None:
            out[hid] = (route, goal, n)
    return out


def _attacks_out_of_supply(scenario: MegaScenario, view: JSON, orders: JSON,
                           follow: Mapping[str, tuple[list[Hex], Hex, int]]) -> list[str]:
    """Attacks whose units would end their move beyond their HQ's reach (the HQ where the sheet
    sends it, or where it follows its units to: ``follow``, :func:`following`): no supplies would
    reach them, so they would not attack [11]. A warning, not a refusal: the sheet may be meant so."""
    where: dict[str, Hex | None] = {u["id"]: Hex.parse(u["hex"]) for u in view["units"]}
    where.update({f["id"]: Hex.parse(f["hex"]) for f in view.get("friends", [])})
    for line in orders["lines"]:
        if line.get("route"):
            for uid in line.get("units", []):
                if uid in where:
                    where[uid] = Hex.parse(line["route"][-1])
    for hid, (route, _goal, _n) in follow.items():
        where[hid] = route[-1]
    own = {u["id"] for u in view["units"]}
    out = []
    for line in orders["lines"]:
        if line.get("intention") not in ("attack", "breakthrough"):
            continue
        for uid in line.get("units", []):
            if uid in own:
                why = hq_out_of_reach(scenario, uid, where)
                if why is not None:
                    out.append(f"{uid} would end its move where no supplies reach it ({why.removesuffix(' [11]')}): "
                               "it could not attack [11]")
    return out


def consequences(scenario: MegaScenario, view: JSON, orders: JSON, *, rules3: bool) -> list[str]:
    """What a team's sheet does to its own units before any die is rolled and before any enemy is
    met, in words (:meth:`MegagamePresenter.expected`), as the round applies it: a move ends at its
    route's last hex, a kilometre a hex [6]; boarding a train takes the turn (vehicles two) [6];
    attaching takes the turn [9]; resting counts only for a unit that does not move [5]. Supplies
    [9, 11]: 1 point for each attack that goes in and each battery that interdicts, 1 fuel point for
    each mechanised unit that moves (or attacks: if it fights), drawn from the unit's HQ stack
    within 5 km (rules version 3; an HQ draws on its own; a unit without an HQ, and every unit in
    version 2, on the team's supplies); an attack or a battery whose HQ is out of reach does not go
    in."""
    defs = {u.id: u for u in scenario.units}
    own = {u["id"] for u in view["units"]}
    start: dict[str, Hex | None] = {u["id"]: Hex.parse(u["hex"]) for u in view["units"]}
    start.update({f["id"]: Hex.parse(f["hex"]) for f in view.get("friends", [])})
    end = dict(start)
    out: list[str] = []
    draws: list[tuple[str, str, bool]] = []  # unit, what for, drawn where the units end (else where they start)
    for u in view["units"]:  # on the railway: what this turn does to it [6]
        trip = re.fullmatch(r"(\w+) \(for (\d{4})\)", u.get("rail") or "")
        if trip is not None:
            out.append(_rail_words(u["id"], trip[1], trip[2],
                                   scenario.types[defs[u["id"]].type].troops == "infantry", rules3=rules3))
    for line in orders["lines"]:
        ids = [uid for uid in line.get("units", []) if uid in own]
        if not ids:
            continue
        names = ", ".join(ids)
        if line.get("rail_to"):
            for uid in ids:
                infantry = scenario.types[defs[uid].type].troops == "infantry"
                out.append(f"{uid} spends this turn boarding a train for {line['rail_to']}"
                           + (": aboard at its end, travelling the next turn [6]" if infantry else
                              ": vehicles take this turn and the next to board [6]"))
            continue
        route = line.get("route") or []
        if route:
            for uid in ids:
                end[uid] = Hex.parse(route[-1])
            out.append(f"{names} {'moves' if len(ids) == 1 else 'move'} {len(route)} km, via "
                       f"{' '.join(route)}, ending at {route[-1]} unless the enemy is met on the way [6]")
        if line.get("posture") == "rest":
            out.append(f"{names} {'rests' if len(ids) == 1 else 'rest'}: a turn of rest that counts towards "
                       "recovering, if out of contact and not fighting [5]" if not route else
                       f"{names} {'moves' if len(ids) == 1 else 'move'}: no turn of rest counts [5]")
        if line.get("attach"):
            out.append(f"{names} {'fights' if len(ids) == 1 else 'fight'} with {'its' if len(ids) == 1 else 'their'} "
                       f"own division this turn, with {line['attach']} from the next [9]")
        for uid in ids:
            t = scenario.types[defs[uid].type]
            if line.get("interdict") and t.artillery is not None:
                draws.append((uid, f"shelling {line['interdict']}", False))
            if line.get("intention") in ("attack", "breakthrough"):
                draws.append((uid, "its attack, if it goes in", True))
            if t.mechanised and (route or line.get("intention") in ("attack", "breakthrough")):
                draws.append((uid, "fuel for its move" if route else "fuel, if it fights", True))
    for hid, (way, goal, n) in (following(scenario, view, orders) if rules3 else {}).items():
        end[hid] = way[-1]  # [11] Game Control's assumption: the HQ follows its units
        out.append(f"{hid} has no orders: as Game Control would, the engine moves it up behind its units "
                   f"({n} going to {goal}) to supply them: {len(way)} km, via {' '.join(map(str, way))}, ending "
                   f"at {way[-1]} unless the enemy is met on the way [6, 11]")
        if scenario.types[defs[hid].type].mechanised:
            draws.append((hid, "fuel for its move", True))
    return out + _supply_draws(scenario, view, draws, start, end, rules3=rules3)


def _rail_words(uid: str, phase: str, to: str, infantry: bool, *, rules3: bool) -> str:
    """A unit on the railway this turn [6], as :func:`pbem.systems.megagame.round._rail_turn` moves
    it on: boarding goes on, travel ends at ``to`` where the line is open and not in the enemy's
    hands, infantry gets off in half a turn (rules version 3), vehicles in a whole turn."""
    if phase == "embarking":
        return f"{uid} goes on boarding its train for {to}: no orders this turn [6]"
    if phase == "travelling":
        return (f"{uid} travels by rail to {to} this turn if the line there is open and not in the enemy's "
                "hands (else it stays where it boarded): no orders this turn [6]")
    if infantry and rules3:
        return (f"{uid} gets off its train in the first half of this turn: the second half is its own, "
                "at most half its move [6]")
    return f"{uid} spends this turn getting off its train: no orders this turn [6]"


def _supply_draws(scenario: MegaScenario, view: JSON, draws: list[tuple[str, str, bool]],
                  start: Mapping[str, Hex | None], end: Mapping[str, Hex | None], *, rules3: bool) -> list[str]:
    """The supply points of ``draws`` grouped by the stack they come from, with what it holds [11]."""
    defs = {u.id: u for u in scenario.units}
    held = {s["hq"]: s["points"] for s in view.get("stacks") or []}
    by_source: dict[str, list[str]] = {}
    out: list[str] = []
    for uid, what, at_end in draws:
        d = defs[uid]
        fuel = what.startswith("fuel")
        source = "" if not rules3 else (uid if scenario.types[d.type].kind == "hq" else d.hq or "")
        # an attack's and a battery's HQ must be in reach in every version; fuel is drawn from the HQ in
        # version 3 only (Board.pay_for)
        why = hq_out_of_reach(scenario, uid, end if at_end else start) if (not fuel or source) else None
        if why is not None:
            out.append(f"{uid} draws nothing for {what}: {why.removesuffix(' [11]')}; "
                       + ("it moves, and fights as a mechanised unit with no fuel if it fights [9, 11]" if fuel
                          else "it does not go in [9, 11]"))
            continue
        by_source.setdefault(source, []).append(f"{uid} ({what})")
    lines = []
    for source, uses in by_source.items():
        holds = view["supply"] if not source else held.get(source, 0)
        where = "the team's own supplies" if not source else f"{source}'s stack"
        lines.append(f"{'up to ' if any('if it' in x for x in uses) else ''}{len(uses)} supply "
                     f"point{'s' if len(uses) != 1 else ''} from {where}, which holds {holds}"
                     + (" (not enough for all of them)" if len(uses) > holds else "") + f": {', '.join(uses)} [9, 11]")
    return lines + out


INTENTIONS = ("breakthrough", "attack", "probe", "hold", "move", "prepare")
MISSIONS = ("cas", "cab-rank", "bombing", "recce", "escort", "air-cover", "transport", "heavy")


def _hex(n: int, word: str) -> str:
    if not (word.isdigit() and len(word) == 4):
        raise InputError(f"line {n}: {word[:20]!r} is not a hex (four digits, e.g. 4409)")
    return word


def _count(n: int, word: str, what: str) -> int:
    if not word.isdigit() or not 0 < int(word) < 1000:
        raise InputError(f"line {n}: {what} needs a number, not {word[:20]!r}")
    return int(word)


def _air_clause(n: int, text: str) -> dict[str, Any]:
    words = text.replace(",", " ").split()
    if not words or words[0] not in MISSIONS:
        raise InputError(f"line {n}: an air order is 'air: MISSION N [at HEX]', MISSION one of "
                         f"{', '.join(MISSIONS)} [12]")
    if len(words) < 2:
        raise InputError(f"line {n}: how many squadrons? e.g. 'air: {words[0]} 2 at 4409' [12]")
    order: dict[str, Any] = {"mission": words[0], "squadrons": _count(n, words[1], "an air order")}
    if len(words) >= 4 and words[2] == "at":
        order["target"] = _hex(n, words[3])
    elif len(words) > 2:
        raise InputError(f"line {n}: after the squadrons only 'at HEX' may follow [12]")
    return order


def _sheet_line(n: int, units: list[str], text: str, air: list[dict[str, Any]]) -> dict[str, Any]:
    if not units:
        raise InputError(f"line {n}: which units? e.g. '2Para 3Para: attack, towards 4409' [5]")
    line: dict[str, Any] = {"units": units}
    for clause in (c.strip() for c in text.split(",")):
        words = clause.lower().split()
        if not words:
            continue
        if words[0] in INTENTIONS and len(words) == 1:
            if "intention" in line:
                raise InputError(f"line {n}: one intention a line ({line['intention']} and {words[0]}) [5]")
            line["intention"] = words[0]
        elif words == ["stand", "fast"]:
            line["stand_fast"] = True
        elif words == ["counter-battery"]:
            line["counter_battery"] = True
        elif words[0] == "defend" and len(words) > 1:
            line["defend"] = [_hex(n, w) for w in words[1:]]
        elif words[0] == "interdict" and len(words) == 2:
            line["interdict"] = _hex(n, words[1])
        elif words[:2] == ["attach", "to"] and len(words) > 2:
            line["attach"] = clause.split(None, 2)[2].strip()
        elif words[:2] == ["rail", "to"] and len(words) == 3:
            line["rail_to"] = _hex(n, words[2])
        elif words[0] in ("towards", "objective") and len(words) == 2:
            line["objective"] = _hex(n, words[1])
        elif words[0] in ("via", "route") and len(words) > 1:
            line["route"] = [_hex(n, w) for w in words[1:]]
        elif clause.lower() in ("tactical", "non-tactical", "rest"):
            line["posture"] = clause.lower()
        elif clause.lower() in ("whole", "whole turn", "first half", "second half", "night"):
            line["timing"] = {"whole turn": "whole", "first half": "first-half",
                              "second half": "second-half"}.get(clause.lower(), clause.lower())
        elif words[0] == "supply" and len(words) == 2:
            line["supply"] = _count(n, words[1], "supply")
        elif words[0] in ("cas", "heavy") and len(words) == 2:
            request = {"mission": words[0], "squadrons": _count(n, words[1], words[0]), "target": ""}
            line.setdefault("air", []).append(request)
            air.append(dict(request))
        else:
            raise InputError(f"line {n}: {clause[:20]!r} is not a sheet clause ({', '.join(INTENTIONS)}; stand fast; "
                             "towards HEX; via HEX ...; (non-)tactical, rest; whole turn, first/second half, "
                             "night; supply N; cas/heavy N; counter-battery; defend HEX ...; interdict HEX; rail to HEX; "
                             "attach to DIVISION) [5]")
    if "intention" not in line:
        raise InputError(f"line {n}: say what {' '.join(units)} should do ({', '.join(INTENTIONS)}) [5]")
    return line


def _beyond(here: Hex, contact: list[Hex], targets: list[Hex]) -> Hex:
    """What an attack aims at: the nearest objective the enemy holds beyond the fight, else the
    enemy hex itself."""
    beyond = [g for g in targets if g not in contact]
    return min(beyond, key=lambda g: (g.distance(here), g)) if beyond else contact[0]
