"""What a player should do next, after a command wrote its files."""

from __future__ import annotations

from pathlib import Path

from pbem.engine.gamedir import Game
from pbem.engine.replay import Replay
from pbem.errors import PbemError
from pbem.plain import Plain
from pbem.protocol import names
from pbem.protocol.localstate import LocalGame


class NextAction(Plain, frozen=True):
    """One thing a player should do next, or be told: ``kind`` is ``over``, ``send``, ``publish``,
    a sealed round's phase (``commit``, ``ack``, ``ruling``, ``reveal``, ``report``) or ``waiting``."""

    kind: str
    text: str


_PHASE_WORDS = {
    "commit": "commit {}'s sealed orders with 'pbem submit GAME_DIR ORDERS --key KEY'",
    "report": "every side has revealed: resolve the round and report as {} with 'pbem report GAME_DIR --key KEY'",
}


def next_actions(game: Game, rp: Replay, written: list[Path], *, authored: bool = True) -> list[NextAction]:
    """What the player should send and what happens next, after a command wrote ``written``.
    ``authored`` False (ingest): the move files written are the other players' own; nothing of
    theirs is to be sent back. The sealed-round state machine as a player meets it lives here."""

    out: list[NextAction] = []
    mails = [p.name for p in written if p.name.startswith(names.MAIL_PREFIX)]
    # the email carries the move (and the turn it answers, and the map): send that when there is one
    moves = mails or ([p.name for p in written if p.name.startswith(names.MOVE_PREFIX)] if authored else [])
    try:
        local = list(LocalGame.of(game).sides())
    except PbemError:
        local = []
    if rp.records and not rp.tail_open and not rp.current.pending:
        outcome = rp.current.turn["outcome"]
        out.append(NextAction("over", f"game over: {outcome['summary'] if outcome else 'closed'}"))
        if moves:
            out.append(NextAction("send", f"send {', '.join(moves)} so the others can close their archive"))
        if game.hidden and not (game.dir / names.PUBLICATION).exists():
            if game.umpire in local:
                out.append(NextAction("publish", "publish every sealed order so that anyone can check the game: "
                                      "'pbem publish GAME_DIR --key KEY' [P10]"))
            else:
                out.append(NextAction("publish", "Game Control publishes every sealed order next: ingest its "
                                      "publication email, then 'pbem verify GAME_DIR' checks every "
                                      "adjudication of the game [P10]"))
        return out
    if moves:
        out.append(NextAction("send", f"send {', '.join(moves)} to the other player(s); they run "
                                      f"'pbem ingest GAME_DIR {moves[0]}'"))
    rnd = rp.current.round if rp.records and not rp.tail_open else None
    mine = [s for s in rnd.owed() if s in local and rnd.slot(s) not in rp.held] if rnd is not None else []
    if rnd is not None and mine:
        reveal = ("send {}'s reveal (your dice-chain value: the orders stay sealed to the umpire)" if game.hidden
                  else "reveal {}'s sealed orders")
        words = {
            **_PHASE_WORDS,
            "ack": "every side has committed: acknowledge the commitments as {} with "
                   "'pbem reveal GAME_DIR --key KEY' (your orders stay as committed; "
                   + ("the umpire rules next, then everyone reveals)" if rnd.umpire else
                      "the reveals come once every side has acknowledged)"),
            "ruling": ("every side has acknowledged" if rnd.acks else "every side has committed")
                      + ": read their orders and rule as {} with 'pbem rule GAME_DIR [RULINGS.json] --key KEY'",
            "reveal": ("every side has acknowledged the commitments" if rnd.acks else "every side has committed")
                      + (" and the umpire has ruled" if rnd.umpire else "")
                      + ": " + reveal + " with 'pbem reveal GAME_DIR --key KEY'",
        }
        out.append(NextAction(rnd.phase, words[rnd.phase].format(", ".join(mine))))
    if rp.waiting:
        out.append(NextAction("waiting", f"now waiting for {rp.waiting}"))
    return out
