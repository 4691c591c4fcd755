"""Orders written the way players talk: ``move 1/501 to 1418``.

A text orders file is read line by line into the same JSON orders document that ``pbem orders``
prints (and that is signed); ``#`` starts a comment. Units are named by id or by their printed
designation where that is unique on the side. The side and game-turn come from the pending
decision, standing orders start from the ones the player gave last time.

Player-turn (movement then combat, one line per order, in the order they are carried out)::

    move 1/501 to 1418                      # cheapest legal path, filled in before signing
    move 2/501 via 0117 0217 to 0318        # an exact path [5.0]
    enter 1/3 via 2913 2812 to 2712         # a reinforcement: first hex is its entry hex [11.11]
    enter 1/3 at 2913 to 2614               # ... or its entry hex and where to: the cheapest path
    exit 1/901 via 0214 0114                # leave the map from the last hex [12.0]
    attack 20 with 1/3 2/3 barrage 26-art support 2 advance 1/3 2
    attack 20 52 with 1/3 advance 1/3 2 follow 52   # several defenders [7.23]; whose path [7.95]

Standing orders (reactive decisions for the opponent's next player-turn)::

    fpf 755 protects 1/501 2/501            # Final Protective Fire [8.4]; "fpf 755 holds" keeps it back
    fpf 755 protects                        # ... any unit it can reach [8.4]
    fpf-support 2                           # ground support points usable as FPF [9.0]
    retreat 1/501 toward 1317 1416          # retreat preferences [7.7]
    keep 420                                # avoid displacing it [7.8]
    pursue 1/501 2                          # follow attackers that retreat or die, 2 hexes [7.91]

Set-up: ``place 20 at 1317``. End of game: ``acknowledge``.

Arnhem::

    land 1/502 at 1004                      # an airborne unit lands (its entry hex) [15.31]
    land 1/502 at 1004 to 1106              # ... and moves on with what it has left [15.32]
    move Guards-1 to 1208 if demolished 1107 1007   # the continuation if a bridge goes [12.13]
    move Guards-1 to 1208 if demolished stop        # ... or stop where the roll was made
    spare bridge 1106/1107                  # German standing order: do not demolish it [12.12]
    retreat 1/501 toward 1204               # from a City hex, a hex beyond the reduced retreat
                                            # asks the unit to go on (else it keeps the City) [11.1]
    dz 101 at 1007                          # Allied set-up: a secret drop-zone note [15.36]
    dz 82 at 2323 turn 3                    # ... placed on Game-Turn 3 [15.39]
"""

from __future__ import annotations

import shlex
from typing import Any

from pbem.errors import InputError
from pbem.systems.westwall.arnhem import spare_problem
from pbem.systems.westwall.model import Scenario

JSON = Any


def _unit_resolver(scenario: Scenario, side: str) -> Any:
    by_designation: dict[str, list[str]] = {}
    for u in scenario.units:
        if u.side == side:
            by_designation.setdefault(u.designation, []).append(u.id)

    def resolve(name: str, where: str) -> str:
        u = scenario.unit.get(name)
        if u is not None and u.side == side:
            return name
        ids = by_designation.get(name, [])
        if len(ids) == 1:
            return ids[0]
        if len(ids) > 1:
            raise InputError(f"{where}: {name!r} names several units ({', '.join(ids)}); use the id")
        if u is not None:
            raise InputError(f"{where}: {name} is a {u.side} unit, not a {side} one")
        raise InputError(f"{where}: no {side} unit called {name!r}")

    return resolve


def _enemy_resolver(scenario: Scenario, side: str) -> Any:
    other = scenario.other(side)
    return _unit_resolver(scenario, other)


def _hex(token: str, where: str) -> str:
    if not token.isdigit() or len(token) not in (4, 6):
        raise InputError(f"{where}: {token!r} is not a hex number (XXYY, e.g. 1418)")
    return token


def _sparable(scenario: Scenario, a: str, b: str, where: str) -> None:
    """A ``spare bridge A/B`` must name a canal or rail bridge printed on the map: only those are
    tried for demolition, so sparing anything else would be signed and do nothing [12.12]."""
    if scenario.game != "arnhem":
        raise InputError(f"{where}: 'spare bridge' is an order of the Arnhem rules [12.12]; this "
                         f"game plays {scenario.game}")
    problem = spare_problem(scenario, "/".join(sorted([a, b])))
    if problem is not None:
        raise InputError(f"{where}: {problem} [12.12, 12.15]")


def parse_text_orders(scenario: Scenario, skeleton: JSON, side: str, text: str) -> JSON:
    """The orders document for ``text``, starting from ``skeleton`` (``pbem orders`` output)."""
    orders: dict[str, Any] = dict(skeleton)
    kind = orders.get("kind")
    own = _unit_resolver(scenario, side)
    enemy = _enemy_resolver(scenario, side)
    standing: dict[str, Any] = dict(orders.get("standing") or {})
    standing_touched = False
    moves: list[dict[str, Any]] = []
    attacks: list[dict[str, Any]] = []
    placements: dict[str, str] = {}
    notes: list[dict[str, Any]] = []
    acknowledged = False
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"line {number}"
        try:
            words = shlex.split(line)
        except ValueError as exc:
            raise InputError(f"{where}: {exc}") from None
        verb, args = words[0].lower(), words[1:]
        said = verb
        if verb == "land":  # an airborne unit's entry hex is where it lands [15.31]
            verb = "enter"
        if verb in ("move", "enter", "exit"):
            if kind != "player-turn":
                raise InputError(f"{where}: '{verb}' needs a player-turn; this decision is {kind}")
            moves.append(_move(verb, args, own, where, said=said, scenario=scenario))
        elif verb == "attack":
            if kind != "player-turn":
                raise InputError(f"{where}: 'attack' needs a player-turn; this decision is {kind}")
            attacks.append(_attack(args, own, enemy, where))
        elif verb == "place":
            if kind != "setup":
                raise InputError(f"{where}: 'place' is for the set-up; this decision is {kind}")
            if len(args) != 3 or args[1].lower() != "at":
                raise InputError(f"{where}: write 'place UNIT at HEX'")
            placements[own(args[0], where)] = _hex(args[2], where)
        elif verb == "dz":
            if kind != "setup":
                raise InputError(f"{where}: drop-zone notes are written in the set-up [15.36]")
            if len(args) not in (3, 5) or args[1].lower() != "at" or (
                    len(args) == 5 and (args[3].lower() != "turn" or not args[4].isdigit())):
                raise InputError(f"{where}: write 'dz DIVISION at HEX' or 'dz DIVISION at HEX "
                                 "turn N'")
            notes.append({"division": args[0], "hex": _hex(args[2], where),
                          "turn": int(args[4]) if len(args) == 5 else 1})
        elif verb == "spare":
            if len(args) != 2 or args[0].lower() != "bridge" or "/" not in args[1]:
                raise InputError(f"{where}: write 'spare bridge XXYY/XXYY'")
            a, _sep, b = args[1].partition("/")
            _sparable(scenario, _hex(a, where), _hex(b, where), where)
            if not standing_touched:
                standing = {"fpf": [], "fpf_support": 0, "retreat": {}, "avoid_displacing": [],
                            "pursue": []}
                standing_touched = True
            standing.setdefault("spare_bridges", []).append(
                "/".join(sorted([_hex(a, where), _hex(b, where)])))
        elif verb == "pass":
            raise InputError(f"{where}: 'pass' means no orders at all: write it alone, or leave it out "
                             "and keep the other orders")
        elif verb == "acknowledge":
            if kind != "acknowledge":
                raise InputError(f"{where}: nothing to acknowledge yet (this decision is {kind})")
            acknowledged = True
        elif verb in ("fpf", "fpf-support", "retreat", "keep", "pursue"):
            if not standing_touched:  # text standing orders replace the previous ones entirely
                standing = {"fpf": [], "fpf_support": 0, "retreat": {}, "avoid_displacing": [],
                            "pursue": []}
                standing_touched = True
            _standing(verb, args, own, standing, where)
        else:
            raise InputError(
                f"{where}: unknown order {verb!r} (move, enter, land, exit, attack, place, fpf, "
                "fpf-support, retreat, keep, pursue, spare, dz, acknowledge)"
            )
    if kind == "player-turn":
        orders["moves"] = moves
        orders["attacks"] = attacks
    elif kind == "setup":
        base = dict(orders.get("placements") or {})
        base.update(placements)
        orders["placements"] = base
        if notes:
            orders["dz_notes"] = notes
    elif kind == "acknowledge" and not acknowledged:
        raise InputError("the game is over: write 'acknowledge' to close it")
    if "standing" in orders:
        orders["standing"] = standing
    return orders


def _move(verb: str, args: list[str], own: Any, where: str, *, said: str | None = None,
          scenario: Scenario | None = None) -> dict[str, Any]:
    if not args:
        raise InputError(f"{where}: write '{verb} UNIT ...'")
    unit = own(args[0], where)
    rest = args[1:]
    alt: list[str] | None = None
    low_rest = [a.lower() for a in rest]
    if "if" in low_rest:
        i = low_rest.index("if")
        cond = rest[i + 1:]
        if not cond or cond[0].lower() != "demolished" or len(cond) < 2:
            raise InputError(f"{where}: write '... if demolished HEX...' or '... if demolished stop'")
        alt = [] if [c.lower() for c in cond[1:]] == ["stop"] else [_hex(h, where) for h in cond[1:]]
        rest = rest[:i]
    path: list[str] = []
    to: str | None = None
    mode = None
    for tok in rest:
        low = tok.lower()
        if low in ("via", "path", "to", "at"):
            mode = low
            continue
        if mode in ("via", "path", "at"):
            path.append(_hex(tok, where))
        elif mode == "to":
            if to is not None:
                raise InputError(f"{where}: more than one 'to' hex")
            to = _hex(tok, where)
        else:
            raise InputError(f"{where}: expected 'to', 'via' or 'at' before {tok!r}")
    order: dict[str, Any] = {"unit": unit}
    if alt is not None:
        order["if_demolished"] = alt
    if verb == "exit":
        if to is not None:
            raise InputError(f"{where}: 'exit' leaves the map: give the hexes with 'via', no 'to'")
        order.update(path=path, exit=True)
        return order
    if verb == "enter" and to is not None and len(path) == 1 and "at" in [a.lower() for a in rest]:
        order.update(path=path, to=to)  # entry hex and destination: pbem finds the path [11.11]
    elif to is not None and path:
        path.append(to)
        order["path"] = path
    elif to is not None:
        if verb == "enter":
            raise InputError(f"{where}: a reinforcement needs its entry hex: 'enter UNIT via HEX ...'")
        order["to"] = to
    elif path:
        order["path"] = path
    else:
        if said == "land":  # 'enter ... to HEX' would be refused: a landing names its hex [15.31]
            raise InputError(f"{where}: where does {args[0]} land? write 'land {args[0]} at HEX' [15.31]")
        if verb == "enter":  # and a reinforcement its entry hex first
            from pbem.systems.westwall.display import cases

            case = f" [{cases(scenario).entry}]" if scenario is not None else ""
            raise InputError(f"{where}: where does {args[0]} enter? write 'enter {args[0]} at ENTRY-HEX to "
                             f"HEX'{case}")
        raise InputError(f"{where}: where to? write '{verb} {args[0]} to HEX'")
    return order


def _attack(args: list[str], own: Any, enemy: Any, where: str) -> dict[str, Any]:
    section = "defenders"
    att: dict[str, Any] = {"defenders": [], "attackers": [], "artillery": [], "support": 0,
                           "advance": []}
    for tok in args:
        low = tok.lower()
        if low in ("with", "barrage", "support", "advance", "follow"):
            section = low
            continue
        if section == "defenders":
            att["defenders"].append(enemy(tok, where))
        elif section == "with":
            att["attackers"].append(own(tok, where))
        elif section == "barrage":
            att["artillery"].append(own(tok, where))
        elif section == "support":
            if not tok.isdigit():
                raise InputError(f"{where}: support takes a number of points, not {tok!r}")
            att["support"] = int(tok)
        elif section == "advance":
            if tok.isdigit() and att["advance"]:
                att["advance"][-1]["hexes"] = int(tok)
            else:
                att["advance"].append({"unit": own(tok, where), "hexes": 1})
        elif section == "follow":
            if not att["advance"]:
                raise InputError(f"{where}: 'follow' comes after the unit that advances")
            att["advance"][-1]["follow"] = enemy(tok, where)
            section = "advance"
    if not att["defenders"]:
        raise InputError(f"{where}: write 'attack DEFENDER... with UNIT...'")
    return att


def _standing(verb: str, args: list[str], own: Any, standing: dict[str, Any], where: str) -> None:
    if verb == "fpf":
        if len(args) < 2 or args[1].lower() not in ("protects", "protect", "holds", "hold"):
            raise InputError(f"{where}: write 'fpf ARTILLERY protects UNIT...' or 'fpf ARTILLERY holds'")
        art = own(args[0], where)
        protect = [] if args[1].lower().startswith("hold") else [own(u, where) for u in args[2:]]
        if args[1].lower().startswith("protect") and not protect:
            protect = ["*"]
        standing["fpf"].append({"artillery": art, "protect": protect})
    elif verb == "fpf-support":
        if len(args) != 1 or not args[0].isdigit():
            raise InputError(f"{where}: write 'fpf-support N'")
        standing["fpf_support"] = int(args[0])
    elif verb == "retreat":
        if len(args) < 3 or args[1].lower() != "toward":
            raise InputError(f"{where}: write 'retreat UNIT toward HEX...'")
        standing["retreat"][own(args[0], where)] = [_hex(h, where) for h in args[2:]]
    elif verb == "keep":
        if not args:
            raise InputError(f"{where}: write 'keep UNIT...'")
        standing["avoid_displacing"].extend(own(u, where) for u in args)
    elif verb == "pursue":
        if not args or len(args) > 2 or (len(args) == 2 and not args[1].isdigit()):
            raise InputError(f"{where}: write 'pursue UNIT [HEXES]'")
        hexes = int(args[1]) if len(args) == 2 else 1
        standing["pursue"].append({"unit": own(args[0], where), "hexes": hexes})
