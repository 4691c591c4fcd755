"""The Arnhem 1944 sparring bot, for both sides: legal orders, not good play.

Its standing orders hold towns and cities and retreat elsewhere [7.5]. For an activation it picks the formation with the most units ready and in command (else a general
activation of the first units ready, reinforcements first) and, unit by unit, keeps the first of
these that the rules accept with everything before it: a normal attack (else a mobile assault) on
an adjacent enemy; a move towards the nearest enemy (the longest accepted part of the cheapest
path), with a mobile assault when it ends next to one; entering the map at the first hex of its
zone; for artillery a bombardment or nothing. It passes when nothing is ready. Drops land where the
rules' default puts them. Every candidate goes through :meth:`Arnhem1944Rules.validate`, so the
bot never signs orders the rules refuse.
"""

from __future__ import annotations

import random
from typing import Any

from pbem.systems.arnhem1944.state import State

MAX_TRIES = 40


def bot_orders(rules: Any, sc: Any, st: State, side: str, rng: random.Random) -> dict[str, Any]:
    pend = rules.pending(sc, st)
    if not pend:
        return {"kind": "acknowledge", "side": side}
    kind = pend[0].kind
    if kind in ("pass", "acknowledge"):
        return {"kind": kind, "side": side}
    if kind == "drop":
        return {"kind": "drop", "side": side, "landings": rules.default_landings(sc, st)}
    if kind == "setup":
        return dict(rules.skeleton(sc, st, side))  # the proposed placement [17.1]
    g = rules.game(sc)
    ready = g.ready(st, side)
    if not ready:
        return {"kind": "pass", "side": side}
    if kind == "player-turn":
        return _player_turn(rules, g, sc, st, side, ready, rng)
    head = _group(g, st, side, ready)
    tries = [0]

    def ok(actions: list[dict[str, Any]], units: list[str], limit: bool = True) -> bool:
        tries[0] += 1
        if limit and tries[0] > MAX_TRIES:
            return False
        try:
            orders = rules.load_orders(sc, {**head, "units": units, "actions": actions})
            orders = rules.normalize(sc, st, side, orders)
        except Exception:
            return False
        return not rules.validate(sc, st, side, orders)

    actions: list[dict[str, Any]] = []
    units: list[str] = []
    load = _load(g, st)
    for uid in head["units"]:
        for cand in _candidates(rules, g, sc, st, side, uid, rng):
            if not _fits(g, st, load, uid, cand):
                continue
            if ok(actions + cand, units + [uid]):
                _shift(g, st, load, uid, cand)
                actions += cand
                units.append(uid)
                break
        else:
            if st.units[uid].hex is not None:
                units.append(uid)  # activated without an action
    if not units or not ok(actions, units, limit=False):
        return {"kind": "pass", "side": side}
    out = {**head, "units": units, "actions": actions, "standing": _standing(g, st, side)}
    normalized = rules.normalize(sc, st, side, rules.load_orders(sc, out))
    dumped: dict[str, Any] = rules.dump_orders(sc, normalized)
    return dumped


def _group(g: Any, st: State, side: str, ready: list[str]) -> dict[str, Any]:
    k = g.sc.constants
    best: tuple[int, str] | None = None
    for f in g.sc.formations:
        if f.side != side or f.hq is None or not st.units[f.hq].alive:
            continue
        mine = [u for u in ready if g.c(u).formation == f.id
                and (st.units[u].hex is None or st.units[u].in_command)]
        if mine and (best is None or len(mine) > best[0]):
            best = (len(mine), f.id)
    if best is not None and best[0] > k.general_activation:
        fid = best[1]
        mine = [u for u in ready if g.c(u).formation == fid
                and (st.units[u].hex is None or st.units[u].in_command)]
        off = [u for u in mine if st.units[u].hex is None]
        on = [u for u in mine if st.units[u].hex is not None]
        return {"kind": "activation", "side": side, "mode": "formation", "formation": fid,
                "units": (off + on)[:k.formation_activation]}
    off = [u for u in ready if st.units[u].hex is None]
    on = [u for u in ready if st.units[u].hex is not None]
    return {"kind": "activation", "side": side, "mode": "general",
            "units": (off + on)[:k.general_activation]}


def _candidates(rules: Any, g: Any, sc: Any, st: State, side: str, uid: str,
                rng: random.Random) -> list[list[dict[str, Any]]]:
    c = g.c(uid)
    u = st.units[uid]
    board = g.board(st)
    enemy_side = "DE" if side == "AL" else "AL"
    enemy = sorted(g.hexes_of(st, enemy_side))
    out: list[list[dict[str, Any]]] = []
    if u.hex is None:
        r = g.reinforcement(uid)
        if r is None:
            return []
        hexes = [r.hex] if r.hex is not None else list(sc.map.entry_zones[r.zone].hexes)
        free = [h for h in hexes if h not in enemy]
        rng.shuffle(free)
        return [[{"do": "enter", "unit": uid, "path": [h]}] for h in free[:3]]
    if c.kind == "artillery":
        near = sorted(enemy, key=lambda h: board.distance(u.hex, h))
        return [[{"do": "bombard", "target": h, "support": [uid]}] for h in near[:2]]
    if c.kind in ("hq", "engineer"):
        return []
    adjacent = [h for h in enemy if board.adjacent(u.hex, h)]
    for h in adjacent:
        out.append([{"do": "attack", "target": h, "type": "N", "units": [uid]}])
        out.append([{"do": "attack", "target": h, "type": "M", "units": [uid]}])
    if adjacent:
        return out
    if not enemy:
        return out
    target = min(enemy, key=lambda h: (board.distance(u.hex, h), h))
    around = [n for n in board.neighbours(target) if n not in enemy]
    if not around:
        return out
    dest = min(around, key=lambda h: (board.distance(u.hex, h), h))
    path = g.cheapest_path(st, side, u.hex, dest)
    if not path:
        return out
    for k in range(min(len(path), 8), 0, -1):
        part = path[:k]
        move = {"do": "move", "unit": uid, "path": part}
        last = part[-1]
        near = [h for h in enemy if board.adjacent(last, h)]
        if near:
            out.append([move, {"do": "attack", "target": near[0], "type": "M", "units": [uid]}])
        else:
            out.append([move])
    return out


def _player_turn(rules: Any, g: Any, sc: Any, st: State, side: str, ready: list[str],
                 rng: random.Random) -> dict[str, Any]:
    """[18.1] every unit may move (never into an enemy zone), then those next to the enemy
    attack, each alone, a normal attack if it has the MP, else a mobile assault."""
    units = [u for u in ready if st.units[u].hex is not None or g.reinforcement(u) is not None]
    head = {"kind": "activation", "side": side, "mode": "phase", "units": units}

    def ok(actions: list[dict[str, Any]]) -> bool:
        entering = {a["unit"] for a in actions if a["do"] == "enter"}
        mine = [u for u in units if st.units[u].hex is not None or u in entering]
        if not mine:
            return False
        try:
            orders = rules.load_orders(sc, {**head, "units": mine, "actions": actions})
        except Exception:
            return False
        return not rules.validate(sc, st, side, orders)

    board = g.board(st)
    enemy_side = "DE" if side == "AL" else "AL"
    enemy = g.hexes_of(st, enemy_side)
    zoc = g.enemy_zoc(st, side, board)
    where = {u: st.units[u].hex for u in units}
    moves: list[dict[str, Any]] = []
    load = _load(g, st)
    attacks: list[dict[str, Any]] = []
    for uid in units[:40]:
        for cand in _candidates(rules, g, sc, st, side, uid, rng)[:6]:
            step = [a for a in cand if a["do"] in ("move", "enter")]
            if not step or not _fits(g, st, load, uid, step):
                continue
            end = step[0]["path"][-1]
            fight: list[dict[str, Any]] = []
            if end in zoc:  # [4.3] it must attack in the combat phase
                near = sorted(h for h in enemy if board.adjacent(end, h))
                if not near:
                    continue
                for kind in ("N", "M"):
                    a = {"do": "attack", "target": near[0], "type": kind, "units": [uid]}
                    if ok(moves + step + attacks + [a]):
                        fight = [a]
                        break
                if not fight:
                    continue
            elif not ok(moves + step + attacks):
                continue
            moves += step
            attacks += fight
            _shift(g, st, load, uid, step)
            where[uid] = end
            break
    entered = {a["unit"] for a in moves if a["do"] == "enter"}
    units = [u for u in units if st.units[u].hex is not None or u in entered]
    head["units"] = units
    if not units:
        return {"kind": "pass", "side": side}
    fought = {x for a in attacks for x in a["units"]}
    for uid in units:
        h = where.get(uid)
        if uid in fought:
            continue
        if h is None or g.c(uid).kind in ("artillery", "engineer", "hq"):
            continue
        for target in sorted(enemy):
            if not board.adjacent(h, target):
                continue
            for kind in ("N", "M"):
                a = {"do": "attack", "target": target, "type": kind, "units": [uid]}
                if ok(moves + attacks + [a]):
                    attacks.append(a)
                    break

            break
    if not ok(moves + attacks):
        return {"kind": "pass", "side": side}
    doc = {**head, "actions": moves + attacks, "standing": _standing(g, st, side)}
    out: dict[str, Any] = rules.dump_orders(sc, rules.load_orders(sc, doc))
    return out


def _load(g: Any, st: State) -> dict[str, int]:
    """Steps counting for stacking on each hex now [5]."""
    out: dict[str, int] = {}
    for uid, u in st.units.items():
        if u.on_map and u.hex is not None and g.c(uid).counts_for_stacking:
            out[u.hex] = out.get(u.hex, 0) + u.steps
    return out


def _end(cand: list[dict[str, Any]]) -> str | None:
    ends = [a["path"][-1] for a in cand if a["do"] in ("move", "enter") and a.get("path")]
    return ends[-1] if ends else None


def _fits(g: Any, st: State, load: dict[str, int], uid: str, cand: list[dict[str, Any]]) -> bool:
    """The bot keeps every hex within the stacking limit [5]."""
    end = _end(cand)
    if end is None or end == st.units[uid].hex:
        return True
    steps = st.units[uid].steps if g.c(uid).counts_for_stacking else 0
    return load.get(end, 0) + steps <= int(g.sc.constants.stacking_steps)


def _shift(g: Any, st: State, load: dict[str, int], uid: str, cand: list[dict[str, Any]]) -> None:
    end = _end(cand)
    u = st.units[uid]
    if end is None or end == u.hex or not g.c(uid).counts_for_stacking:
        return
    if u.hex is not None:
        load[u.hex] = load.get(u.hex, 0) - u.steps
    load[end] = load.get(end, 0) + u.steps


def _standing(g: Any, st: State, side: str) -> dict[str, Any]:
    """Standing orders [7.5]: hold in towns and cities (by morale tests under [7.5 optional]),
    retreat elsewhere."""
    board = g.board(st)
    towns = sorted({h for h in g.hexes_of(st, side) if board.kind(h) in ("town", "city")})
    return {"hold": towns[:200]}
