"""Retreat and displacement after combat [7.7, 7.8].

A unit told to retreat ``n`` hexes moves, hex by hex, to the hex ``n`` hexes away from its combat
position (each hex entered one hex farther from it) [7.74]. The search is exhaustive (at most 6**4
paths), so the choice is exactly the documented order below.

Restrictions on every hex *entered*:

* never an enemy-occupied hex [5.12] nor an enemy-controlled hex; only the combat position itself
  may be enemy-controlled [7.71]; friendly units do not negate enemy zones of control;
* never across a hexside or into a hex closed by the Terrain Key [7.72]; a [5.24] type (armour,
  mech, recon, SP artillery) that could only go on into broken/woods/rough or over a stream/river
  off a road or trail is eliminated instead [5.24];
* never off the map: a unit that could only continue by leaving the map is eliminated [12.12]
  (westwall/3: also when its other ways on are into enemy units; the event cites the case of the
  exclusive rules in play, Arnhem's [15.43]);
* a hex where the exclusive rules eliminate a unit forced into it (``forced_entry_eliminates``,
  e.g. [15.26.3]) is entered only when nothing else is possible, and the unit dies there.

Vacant hexes first [7.73]: a path through or into friendly-occupied hexes is used only when no
full-length path through vacant hexes exists. Each friend in the way is displaced one hex as if it
were retreating [7.81] (it may itself displace others, in a chain [7.82]); if any displacement would
eliminate the displaced unit, that path is closed, and when only such paths remain the retreating
unit is eliminated instead [7.82]. A unit that cannot go the full distance is eliminated in the last
hex it reached; its path of retreat ends there [7.74].

Choice among legal paths (the owner's reactive decision; protocol.md "Reactive decisions"):

1. vacant paths before displacing ones [7.73];
2. (westwall/4) fewest repeated displacements: a unit displaced a second time, by this retreat
   or earlier in the Combat Phase (``displaced_before``), counts once for each time again [7.82];
3. (westwall/4) fewest pushed units stepping aside (see below);
4. fewest displaced units listed in the owner's ``avoid_displacing`` standing order;
5. the owner's ``retreat`` standing order for the unit: end as close as possible to its first
   preferred hex, then the second, ...;
6. *default*: end as far as possible from the enemy units of the combat (the smallest distance to
   any of them, larger is better);
7. fewer displaced units;
8. lowest hex numbers along the path (``"0304" < "0403"``), then (westwall/4) the pushed units'
   own order of the hexes they took, so the choice is always unique.

Rolls on the way (Arnhem westwall/3: a bridge is tried "immediately, no matter what the Phase" as
a unit reaches it [12.11], and its demolition "is effective immediately" [12.13]): given an
``enter`` callback, :func:`retreat` makes the chosen retreat one step at a time; after a step that
changed the terrain, the rest is chosen again from where the unit stands by the same order --
another way on, or elimination where it stands ("it is eliminated in the last hexes to which it is
able to retreat" [7.74]; [13.25] when a river closed the way).

Displaced units choose their one hex by the same order (vacant first, ``avoid_displacing``, their
own ``retreat`` preference, farthest from the enemy units of the combat, lowest hex number).
westwall/4 [7.82]: a unit the retreating unit pushes out of its way may also take any other hex of
those it chooses from (the vacant ones; when none is, those of friends that can make way) -- to
step aside rather than into the retreating unit's next hex and be pushed on again (the Bastogne
trial's "20", pushed ahead three times). By the order above it does so only when that
spares a repeated displacement (with as few repeats, every unit takes its own first hex, as in
westwall/3), or when it lets the retreat be completed at all (a complete retreat always comes
first) or, if none can be, go farther before the unit is eliminated [7.74]. (Searched only when
every complete retreat with each pushed unit at its own first hex repeats a displacement, or none
is complete: the same choice, found with fewer trials.) Units further down a chain of
displacements go where their own order puts them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import field
from functools import cache

from pbem.maps.hexmap import Hex
from pbem.plain import Plain
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.exclusive import Exclusive
from pbem.systems.westwall.model import (
    DisplacedEvent,
    EliminatedEvent,
    Event,
    NoteEvent,
    RetreatEvent,
    StandingOrders,
)

_OFF_MAP = "off-map"
"""What blocks a way on that leaves the map: the elimination cites the exclusive rules' case for a
unit forced off the map by combat (:meth:`Exclusive.off_map_case`: Bastogne [12.12], Arnhem
[15.43])."""
_STANDARD_STOPS = frozenset({"5.12", "5.24", "7.71", "7.72", "7.74", "7.82", _OFF_MAP})
_MAX_CHAIN = 16


@cache
def _no_orders() -> StandingOrders:
    """No standing orders: the default preferences (made when first needed, not at import)."""
    return StandingOrders()


class Retreat(Plain):
    """What one retreat did. ``path`` starts at the combat position and ends where the unit
    stopped (or was eliminated, [7.74]); it is the Path of Retreat for advances [7.91]."""

    unit: str
    path: list[Hex]
    eliminated: str | None = None
    """Rule case when the unit was eliminated, else ``None``."""
    reason: str = ""
    displaced: list[tuple[str, list[Hex]]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


class _Plan(Plain):
    path: list[Hex]
    displaced: list[tuple[str, list[Hex], str]]
    complete: bool
    fail_rule: str | None = None
    fail_reason: str = ""
    dies_in_last: bool = False
    choices: tuple[int, ...] = ()
    """westwall/4, a search where pushed units may step aside: for each unit the retreating unit
    pushed, in order, the rank of its hex in its own order (0: where it would go by itself)."""


def _repeats(displaced: Sequence[tuple[str, list[Hex], str]], before: frozenset[str]) -> int:
    """How many of ``displaced`` displace a unit a second time or more [7.82]: one displaced
    earlier in the list, or in ``before`` (earlier in the Combat Phase)."""
    if not displaced:
        return 0
    return len(displaced) - len({u for u, _, _ in displaced} - before)


def _stepped_aside(choices: tuple[int, ...]) -> int:
    """How many pushed units did not take their own first hex (:attr:`_Plan.choices`)."""
    return sum(1 for c in choices if c) if choices else 0


class _Memo:
    """Caches for one retreat (its search and every displacement it tries). During a retreat only
    the retreating unit and friends it displaces move, so whatever depends on terrain and enemy
    units alone is fixed and computed once per unit and hexside; the owner's preferences and the
    combat's enemy hexes are fixed too."""

    def __init__(self, side: str, exclusive: Exclusive | None = None) -> None:
        self.side = side
        """The retreating unit's side: every unit that moves during the retreat is of it."""
        self.static: dict[tuple[str, Hex, Hex], tuple[str, str, str] | None] = {}
        """Per (unit, hex, neighbour): the fixed part of :func:`_step_kind`'s verdict."""
        kind = type(exclusive) if exclusive is not None else Exclusive
        self.crossing_hook = kind.retreat_crossing is not Exclusive.retreat_crossing
        """Whether the exclusive rules may forbid a retreat across a hexside (else no need to ask)."""
        self.forced_by_hex = kind.forced_entry_by_hex
        """Whether their [15.26.3]-like verdict on a hex is fixed too (see ``Exclusive``)."""
        self.forced: dict[tuple[str, Hex], str | None] = {}
        self.settled = not self.crossing_hook and (
            self.forced_by_hex
            or kind.forced_entry_eliminates is Exclusive.forced_entry_eliminates
        )
        """Whether everything :func:`_step_kind` asks besides who stands in the hex entered is
        fixed for the memo's life (no exclusive hook that looks at where the units stand): its
        verdict is then kept whole per unit and hexside in :attr:`fixed`."""
        self.fixed: dict[tuple[str, Hex, Hex], tuple[str, str, str] | None] = {}
        """Per (unit, hex, neighbour) when :attr:`settled`: the verdict of :func:`_step_kind`
        when it is not decided by the occupants of the hex entered (``None`` when it is)."""
        self.where_matters = (
            self.crossing_hook
            or kind.retreat_may_end is not Exclusive.retreat_may_end
            or (
                kind.forced_entry_eliminates is not Exclusive.forced_entry_eliminates
                and not self.forced_by_hex
            )
        )
        """Whether the exclusive rules' retreat hooks may look at where the retreating unit
        stands (Arnhem's City [11.1], its engineer [13.25]). When not, and nobody is displaced,
        a trial step need not be made on the board: the hexes classified next are always
        farther from the start than every hex of the path, so the unit's own trial position
        never changes their verdicts."""
        self.order: dict[tuple[Hex, str], tuple[tuple[int, ...], int]] = {}
        self.wanted: dict[str, tuple[Hex, ...]] = {}
        """Per unit, the hexes of its owner's ``retreat`` preference, parsed once."""
        self.met_friend = False
        """Whether a search without displacement met a friend in its way (a step it skipped)."""
        self.onward: dict[Hex, list[Hex]] = {}
        """Per hex of a path of retreat, its neighbours one hex farther from the combat position
        (the retreat's start, fixed for the memo's life), in hex order."""
        self.enemy: dict[Hex, tuple[str, str, str] | None] = {}
        """Per hex, the verdict of the enemy units on entering it ([5.12], [7.71]), if any."""


_SORTED_NEIGHBOURS: dict[Hex, list[Hex]] = {}


def _sorted_neighbours(h: Hex) -> list[Hex]:
    out = _SORTED_NEIGHBOURS.get(h)
    if out is None:
        if len(_SORTED_NEIGHBOURS) > 1 << 20:
            _SORTED_NEIGHBOURS.clear()
        out = _SORTED_NEIGHBOURS[h] = sorted(h.neighbours())
    return out


def _static_kind(
    board: Board, uid: str, a: Hex, b: Hex, memo: _Memo | None = None
) -> tuple[str, str, str] | None:
    """The part of :func:`_step_kind` that depends on terrain and enemy units only: the
    ``stop``/``no`` verdict, or ``None`` when the hex may be entered as far as they go."""
    udef = board.scenario.unit[uid]
    side = udef.side
    if b not in board.geo.hexes:
        return "stop", _OFF_MAP, f"it would have to leave the map at {a}"
    bad = board.enter_check(udef, a, b)[1]
    if bad is not None:
        if bad.rule == "5.24":
            return "stop", "5.24", bad.message
        return "no", "7.72", bad.message
    if memo is not None and memo.side == side:
        # The enemy units' verdict depends on the hex alone while they stand still.
        verdict = memo.enemy.get(b, _UNSET)
        if verdict is _UNSET:
            verdict = memo.enemy[b] = _enemy_kind(board, side, b)
        return verdict
    return _enemy_kind(board, side, b)


def _enemy_kind(board: Board, side: str, b: Hex) -> tuple[str, str, str] | None:
    if board.enemy_at(b, side) is not None:
        return "no", "5.12", f"{b} holds an enemy unit"
    if board.enemy_zoc(b, side):
        return "no", "7.71", f"{b} is in an enemy zone of control"
    return None


_UNSET: tuple[str, str, str] = ("", "", "")


def _step_kind(
    board: Board, exclusive: Exclusive, uid: str, a: Hex, b: Hex, memo: _Memo | None = None
) -> tuple[str, str, str]:
    """Classify entering ``b`` from ``a`` for a retreating/displaced unit.

    Returns ``(kind, rule, why)`` with kind ``ok`` (vacant), ``friend`` (friend to displace),
    ``dies`` (entering eliminates the unit there), ``stop`` (the unit would be eliminated instead
    of crossing) or ``no`` (not allowed)."""
    if memo is not None and memo.settled:
        key = (uid, a, b)
        fixed = memo.fixed.get(key, _UNSET)
        if fixed is _UNSET:
            fixed = memo.fixed[key] = _settled_kind(board, exclusive, uid, a, b, memo)
        if fixed is not None:
            return fixed
        return _FRIEND if b in board._at else _OK
    if memo is None:
        fixed = _static_kind(board, uid, a, b)
    else:
        key = (uid, a, b)
        fixed = memo.static.get(key, _UNSET)
        if fixed is _UNSET:
            fixed = memo.static[key] = _static_kind(board, uid, a, b, memo)
    if fixed is not None:
        return fixed
    if memo is None or memo.crossing_hook:
        rule = exclusive.retreat_crossing(board.scenario, board, uid, a, b)
        if rule is not None:
            return "stop", rule, f"{uid} may not retreat from {a} into {b}"
    if memo is not None and memo.forced_by_hex:
        fkey = (uid, b)
        if fkey in memo.forced:
            rule = memo.forced[fkey]
        else:
            rule = memo.forced[fkey] = exclusive.forced_entry_eliminates(
                board.scenario, board, uid, b
            )
    else:
        rule = exclusive.forced_entry_eliminates(board.scenario, board, uid, b)
    if rule is not None:
        return "dies", rule, f"units forced into {b} are eliminated"
    if b in board._at:
        return "friend", "", ""
    return "ok", "", ""


_FRIEND = ("friend", "", "")
_OK = ("ok", "", "")


def _settled_kind(
    board: Board, exclusive: Exclusive, uid: str, a: Hex, b: Hex, memo: _Memo
) -> tuple[str, str, str] | None:
    """:func:`_step_kind`'s verdict when the occupants of ``b`` do not decide it, else ``None``:
    for a memo that is :attr:`~_Memo.settled` (no crossing hook; the forced-entry verdict by hex,
    if any), in the order :func:`_step_kind` asks."""
    fixed = _static_kind(board, uid, a, b, memo)
    if fixed is not None:
        return fixed
    if memo.forced_by_hex:
        rule = exclusive.forced_entry_eliminates(board.scenario, board, uid, b)
        if rule is not None:
            return "dies", rule, f"units forced into {b} are eliminated"
    return None


def _order_key(
    final: Hex,
    uid: str,
    prefs: StandingOrders,
    away_from: Sequence[Hex],
    memo: _Memo | None = None,
) -> tuple[tuple[int, ...], int]:
    distance = final.distance
    if memo is not None:
        hit = memo.order.get((final, uid))
        if hit is not None:
            return hit
        hexes = memo.wanted.get(uid)
        if hexes is None:
            hexes = memo.wanted[uid] = tuple(Hex.parse(w) for w in prefs.retreat.get(uid) or ())
        pref = tuple([distance(w) for w in hexes]) if hexes else ()
    else:
        wanted = prefs.retreat.get(uid)
        pref = tuple(distance(Hex.parse(w)) for w in wanted) if wanted else ()
    far = min([distance(e) for e in away_from]) if away_from else 0
    out = pref, -far
    if memo is not None:
        memo.order[(final, uid)] = out
    return out


def _vacancy_reachable(
    board: Board, side: str, start: Hex, busy: frozenset[str], memo: _Memo | None
) -> bool:
    """Whether a chain of displacements from ``start`` could end in an empty hex at all [7.82].

    A chain succeeds only when some unit in it steps into a hex that is on the map, empty, free of
    enemy units and of enemy zones of control [7.71]; each link steps into a hex held by friends
    none of which is already in the chain (``busy``). Displacements never empty a hex (whoever
    makes way is replaced by whoever pushed it), so the empty hexes are those of the board now.
    This walk ignores terrain, the units' kinds and the chain's length, so it may say yes where
    :func:`displace` fails, never no where it succeeds: a ``False`` saves a search that would
    otherwise try every order of pushing through a dense friendly area, which grows
    exponentially with its size."""
    neighbours = board.geo.neighbours  # on the map only
    enemy = memo.enemy if memo is not None and memo.side == side else {}
    at = board._at  # the units in each occupied hex (a hex left empty has no entry)
    seen = {start}
    todo = [start]
    while todo:
        here = todo.pop()
        for nb in neighbours[here]:
            if nb in seen:
                continue
            seen.add(nb)
            verdict = enemy.get(nb, _UNSET)
            if verdict is _UNSET:
                verdict = enemy[nb] = _enemy_kind(board, side, nb)
            if verdict is not None:  # an enemy unit or an enemy zone of control [7.71]
                continue
            occupants = at.get(nb)
            if not occupants:
                return True
            if busy.isdisjoint(occupants):
                todo.append(nb)
    return False


def _exits(
    board: Board, exclusive: Exclusive, uid: str, busy: frozenset[str], memo: _Memo | None
) -> tuple[Hex, list[Hex], list[Hex]] | None:
    """Where friend ``uid`` may go when displaced: its hex, the vacant hexes and the hexes of
    friends not in ``busy`` it may enter (each in map order); ``None`` when it is not on the map."""
    start = board.unit_hex(uid)
    if start is None:
        return None
    vacant: list[Hex] = []
    friends: list[Hex] = []
    at = board._at  # the units in each occupied hex (a hex left empty has no entry)
    # Off the map a displaced unit may not go ([12.12]: it would be eliminated), so only the
    # neighbours on the map are classified.
    if memo is not None and memo.settled:
        # :func:`_step_kind` read from the memo at once: its fixed verdict, else the occupants.
        fixed = memo.fixed
        for nb in board.geo.neighbours[start]:
            step = (uid, start, nb)
            verdict = fixed.get(step, _UNSET)
            if verdict is _UNSET:
                verdict = fixed[step] = _settled_kind(board, exclusive, uid, start, nb, memo)
            if verdict is not None:
                continue  # neither vacant nor a friend's: closed, or it would die there
            occupants = at.get(nb)
            if occupants is None:
                vacant.append(nb)
            elif busy.isdisjoint(occupants):
                friends.append(nb)
    else:
        for nb in board.geo.neighbours[start]:
            kind, _, _ = _step_kind(board, exclusive, uid, start, nb, memo)
            if kind == "ok":
                vacant.append(nb)
            elif kind == "friend" and busy.isdisjoint(at[nb]):
                friends.append(nb)
    return start, vacant, friends


def _exit_key(
    board: Board, uid: str, prefs: StandingOrders, away_from: Sequence[Hex], memo: _Memo | None
) -> Callable[[Hex], tuple[int, tuple[int, ...], int, str]]:
    """The order in which displaced ``uid`` picks its hex: fewest units its owner would rather not
    displace there, its ``retreat`` preference, farthest from the enemy, lowest hex number."""
    at = board._at
    avoid_set = prefs.avoid_displacing

    def key(h: Hex) -> tuple[int, tuple[int, ...], int, str]:
        pref, far = _order_key(h, uid, prefs, away_from, memo)
        avoid = sum(1 for o in at.get(h, ()) if o in avoid_set) if avoid_set else 0
        return avoid, pref, far, str(h)

    return key


def _make_room(
    board: Board, exclusive: Exclusive, dest: Hex, uid: str, prefs: StandingOrders,
    away_from: Sequence[Hex], busy: frozenset[str], depth: int, memo: _Memo | None,
) -> list[tuple[str, list[Hex], str]] | None:
    """Displace every unit in ``dest`` for ``uid`` (a chain [7.82]), on the board; ``None`` if
    one of them cannot make way (the caller undoes the moves made)."""
    chain: list[tuple[str, list[Hex], str]] = []
    for other in board.occupants(dest):
        sub = displace(
            board, exclusive, other, uid, prefs, away_from, busy | {uid}, depth + 1, memo
        )
        if sub is None:
            return None
        chain += sub
    return chain


def displace(
    board: Board,
    exclusive: Exclusive,
    uid: str,
    by: str,
    prefs: StandingOrders,
    away_from: Sequence[Hex],
    busy: frozenset[str],
    depth: int = 0,
    memo: _Memo | None = None,
) -> list[tuple[str, list[Hex], str]] | None:
    """Move friend ``uid`` one hex out of the way of ``by`` [7.81]; chains allowed [7.82].

    On success moves the units in ``board``'s position tables (:meth:`Board.place`; the caller
    undoes or repeats the moves) and returns the displacements made (innermost first); returns
    ``None`` (board untouched) if ``uid`` cannot go anywhere without being eliminated."""
    if depth > _MAX_CHAIN:
        return None
    exits = _exits(board, exclusive, uid, busy, memo)
    if exits is None:
        return None
    start, vacant, friends = exits
    if vacant:
        dest = (vacant[0] if len(vacant) == 1
                else min(vacant, key=_exit_key(board, uid, prefs, away_from, memo)))
        board.place(uid, dest)
        return [(uid, [start, dest], by)]
    if friends and not _vacancy_reachable(board, board.geo.side_of[uid], start, busy, memo):
        return None
    if len(friends) > 1:
        friends = sorted(friends, key=_exit_key(board, uid, prefs, away_from, memo))
    for dest in friends:
        # A trial on the board itself, undone unless every unit in ``dest`` can make way.
        mark = board.begin()
        chain = _make_room(board, exclusive, dest, uid, prefs, away_from, busy, depth, memo)
        if chain is None:
            board.rollback(mark)
            continue
        board.place(uid, dest)
        board.commit(mark)
        return chain + [(uid, [start, dest], by)]
    return None


def _ways_aside(
    board: Board, exclusive: Exclusive, units: Sequence[str], by: str, prefs: StandingOrders,
    away_from: Sequence[Hex], memo: _Memo | None,
) -> Iterator[tuple[tuple[int, ...], list[tuple[str, list[Hex], str]]]]:
    """westwall/4 [7.82]: every way ``units`` (the friends in the hex ``by`` enters) may make way
    for it, each unit to any hex :func:`displace` may choose from (the vacant ones; only when
    there is none, those of friends that can make way in turn). Yields the rank of each unit's hex
    in its own order and the displacements (as :func:`displace` gives them), the units moved on
    the board meanwhile; the board is as it was once the generator is exhausted (its consumer
    must exhaust it, and undo its own moves before asking for the next way). The first way is
    the one :func:`displace` makes."""
    if not units:
        yield (), []
        return
    uid = units[0]
    exits = _exits(board, exclusive, uid, frozenset({by}), memo)
    if exits is None:
        return
    start, vacant, friends = exits
    key = _exit_key(board, uid, prefs, away_from, memo)
    if vacant:
        options = sorted(vacant, key=key) if len(vacant) > 1 else vacant
    elif friends and _vacancy_reachable(board, board.geo.side_of[uid], start, frozenset({by}),
                                        memo):
        options = sorted(friends, key=key) if len(friends) > 1 else friends
    else:
        return
    rank = 0  # among the hexes it can take: 0 is the one :func:`displace` takes
    for dest in options:
        mark = board.begin()
        chain: list[tuple[str, list[Hex], str]] | None = []
        if not vacant:
            chain = _make_room(board, exclusive, dest, uid, prefs, away_from, frozenset({by}), 0,
                               memo)
        if chain is not None:
            board.place(uid, dest)
            own = chain + [(uid, [start, dest], by)]
            for ranks, rest in _ways_aside(board, exclusive, units[1:], by, prefs, away_from,
                                           memo):
                yield (rank, *ranks), own + rest
            rank += 1
        board.rollback(mark)


def _search(
    board: Board,
    exclusive: Exclusive,
    uid: str,
    hexes: int,
    prefs: StandingOrders,
    away_from: Sequence[Hex],
    memo: _Memo | None = None,
    displacing: bool = True,
    prefix: Sequence[Hex] = (),
    called_for: int = 0,
    before: frozenset[str] | None = None,
    aside: bool = False,
) -> list[_Plan]:
    """Every path of retreat, depth first in hex order. Each trial step is made on ``board`` and
    undone after its subtree has been explored, so ``board`` is unchanged on return.

    With ``displacing=False`` steps into hexes held by friends are not tried at all (no
    displacement [7.8]): the complete plans found are then exactly the complete plans of the full
    search that displace nobody; the other plans are not meaningful.

    ``prefix``: the hexes of the retreat already made (its combat position first, the unit in the
    last one): only the ways on from there are searched (a retreat judged again after a roll
    changed the terrain, Arnhem [12.13]). ``called_for``: the hexes the combat result called for
    before any reduction (the exclusive rules' ``retreat_may_end`` reads it).

    ``before`` (westwall/4 [7.82]): the units displaced earlier in the Combat Phase, for the count
    of repeated displacements in the choice key (``None``: westwall/3, no such count). ``aside``
    (westwall/4): a unit pushed out of the retreating unit's way tries every hex it may go to
    (:func:`_ways_aside`), not only its own first choice."""
    start = prefix[0] if prefix else board.unit_hex(uid)
    assert start is not None
    plans: list[_Plan] = []
    moves_free = not displacing and memo is not None and not memo.where_matters
    # The base rules never let a retreat end early: ask only a game that says otherwise ([11.1]).
    may_end = type(exclusive).retreat_may_end is not Exclusive.retreat_may_end

    avoid_set = prefs.avoid_displacing
    past_enemy = exclusive.readings.off_map_past_enemy
    off_map_case = exclusive.off_map_case()
    # The best complete plan so far by the first six elements of the choice key in ``_choose``
    # (displaces anybody, how many displacements repeat one [7.82], how many pushed units step
    # aside -- both always 0 for westwall/3 --, how many it should avoid displacing, preference,
    # distance from the enemy). Once there is one, the incomplete plans no longer matter (a
    # complete retreat is always chosen over them), and a last step into a hex whose key cannot
    # beat it even with nobody more displaced is not tried at all: whatever it found, ``_choose``
    # would not choose it (displacing more never lowers the first four elements). Which plan is
    # chosen does not depend on the order plans are found in (no two have the same path and
    # pushed units' choices, the last elements of the key), so the choice is unchanged.
    best: list[tuple[bool, int, int, int, tuple[int, ...], int] | None] = [None]
    once = before is not None
    earlier = before or frozenset()

    again: list[Callable[[list[Hex], list[tuple[str, list[Hex], str]], tuple[int, ...]], None]] = []
    settled = memo if memo is not None and memo.settled else None

    def rec(
        path: list[Hex], displaced: list[tuple[str, list[Hex], str]], choices: tuple[int, ...]
    ) -> None:
        b = board
        here = path[-1]
        if len(path) - 1 == hexes or (
                may_end and len(path) > 1
                and exclusive.retreat_may_end(b.scenario, b, uid, len(path) - 1, hexes, path,
                                              called_for)):
            plans.append(_Plan(path, displaced, True, choices=choices))
            avoid = sum(1 for u, _, _ in displaced if u in avoid_set) if avoid_set else 0
            again_n = _repeats(displaced, earlier) if once else 0
            got = (bool(displaced), again_n, _stepped_aside(choices), avoid,
                   *_order_key(here, uid, prefs, away_from, memo))
            if best[0] is None or got < best[0]:
                best[0] = got
            return
        last = len(path) == hexes  # the next hex ends a full retreat
        if last:
            done = bool(displaced)
            repeated = _repeats(displaced, earlier) if once else 0
            aside_n = _stepped_aside(choices)
            avoided = sum(1 for u, _, _ in displaced if u in avoid_set) if avoid_set else 0
        blocked: list[tuple[int, str, str]] = []
        extended = False
        # Every hex of a path is one farther from the start than the one before [7.74], so the
        # hexes that may follow ``here`` depend on ``here`` alone.
        onward = memo.onward.get(here) if memo is not None else None
        if onward is None:
            onward = [nb for nb in _sorted_neighbours(here) if start.distance(nb) == len(path)]
            if memo is not None:
                memo.onward[here] = onward
        order: Sequence[int] = range(len(onward))
        if last and len(onward) > 1:
            # Best final hexes first, so that the bound below prunes as early as it can; the
            # reasons a way on is blocked are put back in hex order at the end.
            order = sorted(
                range(len(onward)),
                key=lambda i: _order_key(onward[i], uid, prefs, away_from, memo),
            )
        for i in order:
            nb = onward[i]
            if last and best[0] is not None:
                if (done, repeated, aside_n, avoided,
                        *_order_key(nb, uid, prefs, away_from, memo)) > best[0]:
                    continue  # cannot beat the best complete plan: not chosen, whatever it finds
            if settled is not None:  # :func:`_step_kind` read from the memo at once
                step = (uid, here, nb)
                verdict = settled.fixed.get(step, _UNSET)
                if verdict is _UNSET:
                    verdict = settled.fixed[step] = _settled_kind(b, exclusive, uid, here, nb,
                                                                  settled)
                kind, rule, why = verdict or (_FRIEND if nb in b._at else _OK)
            else:
                kind, rule, why = _step_kind(b, exclusive, uid, here, nb, memo)
            if kind == "ok":
                if moves_free and not displaced:
                    again[0](path + [nb], displaced, choices)
                else:
                    mark = b.begin()
                    b.place(uid, nb)
                    again[0](path + [nb], displaced, choices)
                    b.rollback(mark)
                extended = True
            elif kind == "friend":
                if not displacing:
                    if memo is not None:
                        memo.met_friend = True
                    continue
                if aside:
                    made = False
                    for ranks, made_way in _ways_aside(b, exclusive, b.occupants(nb), uid, prefs,
                                                       away_from, memo):
                        mark = b.begin()
                        b.place(uid, nb)
                        again[0](path + [nb], displaced + made_way, choices + ranks)
                        b.rollback(mark)
                        made = True
                    if made:
                        extended = True
                    else:
                        blocked.append((i, "7.82",
                                        f"displacing the unit in {nb} would eliminate it"))
                    continue
                mark = b.begin()
                moves: list[tuple[str, list[Hex], str]] = []
                ok = True
                for other in b.occupants(nb):
                    sub = displace(
                        b, exclusive, other, uid, prefs, away_from, frozenset({uid}), 0, memo
                    )
                    if sub is None:
                        ok = False
                        break
                    moves += sub
                if ok:
                    b.place(uid, nb)
                    again[0](path + [nb], displaced + moves, choices)
                    extended = True
                else:
                    blocked.append((i, "7.82", f"displacing the unit in {nb} would eliminate it"))
                b.rollback(mark)
            elif kind == "dies":
                plans.append(_Plan(path + [nb], displaced, False, rule, why, dies_in_last=True,
                               choices=choices))
            elif kind in ("stop", "no"):
                blocked.append((i, rule, why))
        if not extended:
            # Cite what stopped it: [5.24] or a failed displacement [7.82] first; leaving the
            # map [12.12] only when every way on would leave it (westwall/3: or else go into an
            # enemy unit, which no unit may [5.12]); else [7.74].
            in_order = [(r, w) for _, r, w in sorted(blocked)]
            rules = [r for r, _ in in_order]
            why_of = dict(reversed(in_order))
            off_map_or = {_OFF_MAP, "5.12"} if past_enemy else {_OFF_MAP}
            if "5.24" in rules:
                rule = "5.24"
            elif "7.82" in rules:
                rule = "7.82"
            elif _OFF_MAP in rules and all(r in off_map_or for r in rules):
                rule = _OFF_MAP
            elif any(r not in _STANDARD_STOPS for r in rules):
                # an exclusive rule closed some way on (e.g. Arnhem [13.25]): cite it
                rule = next(r for r in rules if r not in _STANDARD_STOPS)
            else:
                rule = "7.74"
            why = why_of.get(rule, "no hex it may enter")
            if rule == _OFF_MAP:
                rule = off_map_case
            plans.append(_Plan(path, displaced, False, rule, why, choices=choices))

    again.append(rec)
    try:
        rec(list(prefix) or [start], [], ())
    finally:
        # ``rec`` calls itself through ``again``: a reference cycle that would keep the board and
        # the plans alive until the cyclic collector ran, unless ended here (then freed at once).
        again.clear()
    return plans


Enter = Callable[[str, Hex, list[Event]], bool]
"""Called as a unit enters a hex during a retreat or displacement (the unit, the hex, where to put
the events): whether the terrain changed (Arnhem: a bridge demolished as it was reached [12.11])."""


def retreat(
    board: Board,
    exclusive: Exclusive,
    uid: str,
    hexes: int,
    *,
    combat: int,
    prefs: StandingOrders | None = None,
    away_from: Sequence[Hex] = (),
    called_for: int = 0,
    enter: Enter | None = None,
    displaced_before: Collection[str] = (),
) -> Retreat:
    """Retreat ``uid`` ``hexes`` hexes [7.7] on ``board`` (mutated), displacing friends if it must
    [7.8]; eliminates it if it cannot complete the retreat [7.74, 7.82, 5.24, 12.12 (Arnhem
    15.43)].

    ``prefs`` are the owner's standing orders; ``away_from`` the hexes of the enemy units of the
    combat (for the default preference: as far from them as possible); ``called_for`` the hexes
    the result called for before any reduction (0: ``hexes``).

    ``enter``, when given, is called as each unit enters each hex, the retreat made step by step
    (displacements of a step first): when it reports a change of the terrain, the rest of the
    retreat is chosen again from where the unit stands, by the same order, against the terrain as
    it now is -- another way on, a shorter one the rules allow, or elimination where it stands
    [7.74] (Arnhem [12.11, 12.13]). Its events follow the retreat's movement events.

    ``displaced_before``: the units displaced earlier in the Combat Phase, which westwall/4
    displaces again only when no complete retreat avoids it [7.82] (westwall/3 ignores it)."""
    prefs = prefs or _no_orders()
    start = board.unit_hex(uid)
    if start is None:
        raise ValueError(f"{uid} is not on the map")
    if hexes <= 0:
        return Retreat(uid, [start])
    before = frozenset(displaced_before) if exclusive.readings.displace_once else None
    best = _choose(board, exclusive, uid, hexes, prefs, away_from, called_for, [start], before)
    if enter is not None:
        return _stepwise(board, exclusive, uid, hexes, best, combat, prefs, away_from, called_for,
                         enter, before)
    # Apply the chosen plan to the real board: displacements first (in order), then the unit.
    out = Retreat(uid, best.path)
    for moved, path, by in best.displaced:
        for h in path[1:]:
            board.note_passage(moved, h)
        board.move_unit(moved, path[-1])
        out.displaced.append((moved, path))
        out.events.append(
            DisplacedEvent(unit=moved, path=[str(h) for h in path], by=by, combat=combat)
        )
    for h in best.path[1:]:
        board.note_passage(uid, h)
    if len(best.path) > 1:
        board.move_unit(uid, best.path[-1])
        out.events.append(RetreatEvent(unit=uid, path=[str(h) for h in best.path], combat=combat))
    if not best.complete:
        _eliminated(board, out, best, hexes, combat)
    return out


def _choose(
    board: Board, exclusive: Exclusive, uid: str, hexes: int, prefs: StandingOrders,
    away_from: Sequence[Hex], called_for: int, prefix: list[Hex],
    before: frozenset[str] | None = None,
) -> _Plan:
    """The owner's retreat from ``prefix`` (the unit in its last hex) by the documented order.
    ``before``: westwall/4, the units displaced earlier in the Combat Phase [7.82]; ``None`` for
    westwall/3 (no count of repeated displacements, no stepping aside)."""
    memo = _Memo(board.geo.side_of[uid], exclusive)
    # A complete retreat that displaces nobody is always preferred to any that displaces a friend
    # (the first element of ``key`` below) [7.8], so look for those first, without the costly
    # displacement trials; only when there is none is the full search needed. Same choice either
    # way (the board and the memo are left as they were by the first search).
    # When that search met no friend at all, the full search would try exactly the same steps
    # (it differs only where a friend is in the way) and find exactly the same plans.
    plans = _search(board, exclusive, uid, hexes, prefs, away_from, memo, displacing=False,
                    prefix=prefix, called_for=called_for)
    if not any(p.complete for p in plans) and memo.met_friend:
        plans = _search(board, exclusive, uid, hexes, prefs, away_from, memo, prefix=prefix,
                        called_for=called_for, before=before)
        # westwall/4 [7.82]: when every complete retreat found so displaces some unit again (or
        # none is complete), the units pushed out of the way may step aside instead. The plans
        # found so are among those found then (each pushed unit's first choice), so the choice
        # is made among them all. Else the same choice either way: a plan in which some pushed
        # unit steps aside comes after every one with as few repeats in which none does (the
        # third element of ``key``), and the best has none here.
        if before is not None and any(p.displaced for p in plans) and not any(
                p.complete and not _repeats(p.displaced, before) for p in plans):
            plans = _search(board, exclusive, uid, hexes, prefs, away_from, memo, prefix=prefix,
                            called_for=called_for, before=before, aside=True)
    earlier = before or frozenset()

    def key(p: _Plan) -> tuple[object, ...]:
        n_disp = len(p.displaced)
        again = _repeats(p.displaced, earlier) if before is not None else 0
        avoid = sum(1 for u, _, _ in p.displaced if u in prefs.avoid_displacing)
        pref, far = _order_key(p.path[-1], uid, prefs, away_from, memo)
        return (n_disp > 0, again, _stepped_aside(p.choices), avoid, pref, far, n_disp,
                [str(h) for h in p.path], p.choices)

    complete = [p for p in plans if p.complete]
    if complete:
        return complete[0] if len(complete) == 1 else min(complete, key=key)
    # Eliminated: go as far as possible (the path of retreat ends where it dies [7.74]).
    return min(plans, key=lambda p: (-len(p.path), *key(p)))


def _eliminated(board: Board, out: Retreat, best: _Plan, hexes: int, combat: int) -> None:
    """The unit that could not complete its retreat is eliminated where it stopped [7.74]."""
    rule = best.fail_rule or "7.74"
    reached = len(best.path) - 1
    if best.dies_in_last:
        reason = f"forced into {best.path[-1]}: {best.fail_reason}"
    else:
        reason = f"could retreat only {reached} of {hexes} hexes: {best.fail_reason}"
    out.eliminated = rule
    out.reason = reason
    last = best.path[-1]
    board.eliminate(out.unit)
    out.events.append(
        EliminatedEvent(unit=out.unit, hex=str(last), rule=rule, reason=reason, combat=combat)
    )


def _step_groups(
    uid: str, path: list[Hex], displaced: list[tuple[str, list[Hex], str]], first: int
) -> dict[int, list[tuple[str, list[Hex], str]]]:
    """The displacements of a plan by the step of ``path`` (from index ``first``) that makes them:
    each step's ends with the friends it pushes out of its hex (``by`` the retreating unit), the
    chains they push first before them [7.81, 7.82]."""
    groups: dict[int, list[tuple[str, list[Hex], str]]] = {}
    cursor = 0
    for k in range(first, len(path)):
        last = max((i for i, (_u, p, by) in enumerate(displaced)
                    if by == uid and p[0] == path[k]), default=-1)
        if last >= cursor:
            groups[k] = displaced[cursor:last + 1]
            cursor = last + 1
    return groups


def _stepwise(
    board: Board, exclusive: Exclusive, uid: str, hexes: int, plan: _Plan, combat: int,
    prefs: StandingOrders, away_from: Sequence[Hex], called_for: int, enter: Enter,
    displaced_before: frozenset[str] | None = None,
) -> Retreat:
    """The retreat made one step at a time, ``enter`` called as each unit enters each hex; after
    a change of the terrain the rest is chosen again from where the unit stands (see
    :func:`retreat`)."""
    start = plan.path[0]
    walked = [start]
    out = Retreat(uid, walked)
    after: list[Event] = []
    groups = _step_groups(uid, plan.path, plan.displaced, 1)
    i = 1
    while i < len(plan.path):
        h = plan.path[i]
        group = groups.get(i, [])
        for moved, path, by in group:
            for x in path[1:]:
                board.note_passage(moved, x)
            board.move_unit(moved, path[-1])
            out.displaced.append((moved, path))
            out.events.append(
                DisplacedEvent(unit=moved, path=[str(x) for x in path], by=by, combat=combat)
            )
        board.note_passage(uid, h)
        board.move_unit(uid, h)
        walked.append(h)
        changed = False
        for moved, path, _by in group:
            changed = enter(moved, path[-1], after) or changed
        changed = enter(uid, h, after) or changed
        i += 1
        if changed and not (plan.complete and i == len(plan.path)):
            before = [str(x) for x in plan.path]
            if displaced_before is not None:  # westwall/4: and those it displaced so far [7.82]
                displaced_before = displaced_before | {u for u, _ in out.displaced}
            plan = _choose(board, exclusive, uid, hexes, prefs, away_from, called_for,
                           list(walked), displaced_before)
            groups = _step_groups(uid, plan.path, plan.displaced, i)
            if [str(x) for x in plan.path] != before:
                rest = "-".join(str(x) for x in plan.path[i - 1:])
                after.append(NoteEvent(
                    rule="12.13", text=f"{uid}'s retreat is judged against the change at {h}: "
                    f"{'it goes on ' + rest if len(plan.path) > i else 'it ends there'}"
                    f"{'' if plan.complete else ' and it cannot complete it'}"))
    out.path = plan.path
    if len(plan.path) > 1:
        out.events.append(RetreatEvent(unit=uid, path=[str(x) for x in plan.path], combat=combat))
    out.events += after
    if not plan.complete:
        _eliminated(board, out, plan, hexes, combat)
    return out
