"""The Arnhem 1944 sparring bot, for both sides: legal orders, not good play.

For an activation it picks the formation with the most units ready and in command (else a general
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
    g = rules.game(sc)
    ready = g.ready(st, side)
    if not ready:
        return {"kind": "pass", "side": side}
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
    for uid in head["units"]:
        for cand in _candidates(rules, g, sc, st, side, uid, rng):
            if ok(actions + cand, units + [uid]):
                actions += cand
                units.append(uid)
                break
        else:
            if st.units[uid].hex is not None:
                units.append(uid)  # activated without an action
    if not units or not ok(actions, units, limit=False):
        return {"kind": "pass", "side": side}
    out = {**head, "units": units, "actions": actions}
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
