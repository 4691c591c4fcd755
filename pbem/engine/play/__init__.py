"""Playing a game from a library: submit orders, ingest another player's files.

What ``pbem submit`` and ``pbem ingest`` do, as calls a program can make (python-chess's
``board.push``): the CLI only reads files, asks questions and prints. Every function checks
everything before it writes anything, and writes only through :meth:`Replay.write`.

* :func:`submit` -- parse, normalise and check a side's orders, sign the move (keeping the P7
  record), place it and write what it makes resolvable.
* :func:`ingest` -- place other players' joins and moves, compare the turn files that travelled with
  them, then write.
* :func:`move_body` -- the one place a move body is built (``submit`` and the bot's autoplay).

The package is cut by a game's lifecycle: ``setup`` (new, join), ``orders`` (building and
previewing a move), ``signing`` (signing and placing it; retract), ``views`` (hidden information),
``umpire`` (sealed rounds after the commitments), ``receipts``, ``incoming`` (ingest) and ``advice`` (what to
do next). This module is their public face.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pbem.engine.play.advice import NextAction, next_actions
    from pbem.engine.play.incoming import UTF8_BOM, Ingested, ingest
    from pbem.engine.play.orders import (
        Confirm,
        OrdersSource,
        Preview,
        check_owner,
        current_decision,
        decision_of,
        move_body,
        owed_by,
        own_state,
        prepare_orders,
        preview,
        sign_move,
        state_for,
    )
    from pbem.engine.play.receipts import receipt
    from pbem.engine.play.setup import check_bound_keys, join_game, new_game
    from pbem.engine.play.signing import Submitted, retract, retractable, sign_and_place, submit
    from pbem.engine.play.umpire import publish, report, reveal, rule, sealed_orders_for_umpire
    from pbem.engine.play.views import my_view, view_state

_WHERE: dict[str, str] = {
    "Confirm": "orders",
    "Ingested": "incoming",
    "NextAction": "advice",
    "OrdersSource": "orders",
    "Preview": "orders",
    "Submitted": "signing",
    "UTF8_BOM": "incoming",
    "check_bound_keys": "setup",
    "check_owner": "orders",
    "current_decision": "orders",
    "decision_of": "orders",
    "ingest": "incoming",
    "join_game": "setup",
    "move_body": "orders",
    "my_view": "views",
    "new_game": "setup",
    "next_actions": "advice",
    "owed_by": "orders",
    "own_state": "orders",
    "prepare_orders": "orders",
    "preview": "orders",
    "publish": "umpire",
    "receipt": "receipts",
    "report": "umpire",
    "retract": "signing",
    "retractable": "signing",
    "reveal": "umpire",
    "rule": "umpire",
    "sealed_orders_for_umpire": "umpire",
    "sign_and_place": "signing",
    "sign_move": "orders",
    "state_for": "orders",
    "submit": "signing",
    "view_state": "views",
}
"""Each public name -> the submodule that defines it: imported when first asked for (PEP 562), so
that ``pbem check`` does not load what ingesting, the umpire's round or a new game need
[28 item 4]."""


__all__ = [
    "Confirm",
    "Ingested",
    "NextAction",
    "OrdersSource",
    "Preview",
    "Submitted",
    "UTF8_BOM",
    "check_bound_keys",
    "check_owner",
    "current_decision",
    "decision_of",
    "ingest",
    "join_game",
    "move_body",
    "my_view",
    "new_game",
    "next_actions",
    "owed_by",
    "own_state",
    "prepare_orders",
    "preview",
    "publish",
    "receipt",
    "report",
    "retract",
    "retractable",
    "reveal",
    "rule",
    "sealed_orders_for_umpire",
    "sign_and_place",
    "sign_move",
    "state_for",
    "submit",
    "view_state",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
