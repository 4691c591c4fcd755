"""Which readings of the rules a WestWall game plays: a value fixed by the rules version its genesis
records, made by :class:`~pbem.systems.westwall.rules.WestWallRules` from its version and handed
down to the exclusive rules (:attr:`pbem.systems.westwall.exclusive.Exclusive.readings`) and, through
them, to combat and retreats. Nothing else decides it: no module state, no global.

Every flag is a correction made in a later rules version; the earlier version keeps the old result
(its games, e.g. the frozen ones of ``tests/compat/``, verify byte for byte). ``docs/westwall.md``
("Arnhem"; "Combat" for [7.82]) gives each case with its reading.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields

from pbem.plain import Plain

_SINCE = {"displace_once": "4", "spare_checked": "4"}
"""The rules version each reading came with, when not westwall/3."""


class Readings(Plain, frozen=True):
    """The readings of one rules version; the defaults are the newest (westwall/4)."""

    city_retreat_minimum: bool = True
    """[11.1] westwall/3: the reduction applies to the retreat *remaining* when a unit enters a City
    hex, also with three or more hexes left (a D4 entering a City after one hex goes one more),
    and never below the minimum of the result (D3 one hex, D4 two), even when the unit started in
    a City hex too. westwall/2: a unit entering a City hex could stop there only with two or fewer
    hexes left, and one that started in a City hex could stop in another one short of the
    minimum."""
    city_retreat_optional: bool = True
    """[11.1] "at the Owning Player's option", westwall/3: a unit starting in a City hex goes the
    full retreat when its owner's standing retreat preference is better served by it than by the
    reduced one. westwall/2: it always took the reduction."""
    demolition_on_reaching: bool = True
    """[12.11, 12.13] westwall/3: a retreat, displacement or advance after combat rolls for a bridge
    as the unit reaches the hex, and the rest of it is judged against the result at once.
    westwall/2: the path was applied first and the rolls made after it."""
    repair_whole_turn: bool = True
    """[13.1] westwall/3: the engineer repairs only when no German unit exerted a zone of control
    on its hex at any moment of the German player-turn. westwall/2: only its end was looked at."""
    engineer_moves_to_river: bool = True
    """[13.21] "no additional Movement Points", westwall/3: the engineer may move up to the river in
    the Allied movement phase and help the units that move after it; only a move of its own after
    theirs withdraws its help. westwall/2: any move of the engineer that player-turn did."""
    fpf_support_range: bool = True
    """[14.11] westwall/3: Allied Ground Support Points used as FPF need an Allied non-airborne unit
    within three hexes of a defender, as barrage support does. westwall/2: FPF was not checked."""
    exact_victory_ratio: bool = True
    """[17.4] westwall/3: the German-to-Allied ratio is compared exactly (2.995 is a German Tactical
    Victory, 1.995 an Allied Tactical one). westwall/2: it was rounded to two decimals first."""
    own_case_numbers: bool = True
    """[15.43] westwall/3: where the standard engine acts for the exclusive rules, an event cites
    the game's own case (:attr:`~pbem.systems.westwall.exclusive.Exclusive.citations`: in Arnhem a
    unit forced off the map by combat is eliminated under 15.43). westwall/2: the Bastogne case
    (12.12) in every game."""
    off_map_past_enemy: bool = True
    """[12.12, Arnhem 15.43] westwall/3: a unit that cannot complete its retreat and whose only ways
    on lead off the map or into hexes held by enemy units (which no unit may enter [5.12]) is
    eliminated as forced off the map. westwall/2: only when every way on led off the map; else
    as unable to retreat [7.74]."""
    loc_names_every_unit: bool = True
    """[17.35, 27] westwall/3: the end-of-game-turn note names every Allied unit without a line of
    communication. westwall/2: the first eight, then "...". (Not a reading of the text: the words
    of an event, which turn files sign.)"""
    displace_once: bool = True
    """[7.82] westwall/4: a retreat displaces a unit a second time -- one it displaced already, or
    one displaced earlier in the same Combat Phase -- only when no complete retreat avoids it;
    a unit pushed out of the retreating unit's way may take another of its hexes (step aside)
    for that, or so that the retreat can be completed. westwall/3 and earlier: the owner's
    preference and the distance from the enemy came before how often a unit was displaced, and a
    pushed unit always took its own first hex, also the one the retreating unit entered next (one
    unit could be pushed ahead three times, or the retreating unit eliminated when it could not
    be pushed once more)."""

    spare_checked: bool = True
    """[12.12, 12.15] westwall/4: a standing order sparing a bridge is refused unless it is the German
    player's, in an Arnhem game, naming a canal or rail bridge printed on the map as its hexside
    (``1106/1107``, lower hex first). westwall/3 and earlier: only the text orders' reader checked
    it; such an order signed as JSON was accepted and did nothing."""

    @classmethod
    def of(cls, since: Callable[[str], bool]) -> Readings:
        """The readings of the rules version ``since`` answers for
        (:meth:`pbem.engine.ruleset.Ruleset.since`)."""
        return cls(**{f.name: since(_SINCE.get(f.name, "3")) for f in fields(cls)})


NEWEST = Readings()
"""The newest readings: what a ruleset of the newest version hands down, and the default of an
exclusive-rules object made without a ruleset (the bot's look-ahead, tests)."""
