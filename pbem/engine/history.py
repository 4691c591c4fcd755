"""A game's history as the commands that show it read it (``pbem log``, ``pbem html``): one replay
with what this machine may open, and each step's entry with its own views already opened.

Who sees what [P10]: Game Control's machine opens everything with the umpire's key; after the
game, the umpire's publication opens every sealed order for anyone (when asked for); a team's
machine opens the views the umpire's reports sealed to the sides it plays.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import field
from typing import Any

from pbem.engine.gamedir import Game
from pbem.engine.replay import Replay
from pbem.engine.sealed import open_view
from pbem.engine.steps import Bad, StepRecord
from pbem.errors import ArchiveError
from pbem.plain import Plain
from pbem.protocol import names
from pbem.protocol.archive import Message
from pbem.protocol.localstate import private_key


class Entry(Plain):
    """One resolved step."""

    record: StepRecord
    turn: dict[str, Any]
    """The turn as this machine may read it (the full turn where the state is open to it)."""
    published: tuple[Any, ...] | None = None
    """After the game, with the publication: what it holds for this step (first: the orders the
    step's commitment sealed)."""
    views: dict[str, Any] = field(default_factory=dict)
    """Side played here -> its own view, sealed to it in this step's report (hidden information)."""

    @property
    def step(self) -> int:
        return self.record.step

    @property
    def move(self) -> Message | None:
        return self.record.move


class History(Plain):
    """A replay and what this machine can open of it."""

    game: Game
    replay: Replay
    viewers: dict[str, str]
    """Sides played here whose own views are opened (side -> local key name); not Game Control."""
    everything: bool
    """Every order and state is open here (the umpire's key, or the publication)."""

    def entries(self, step: int | None = None) -> Iterator[Entry]:
        """Every resolved step in order (``step``: only that one)."""
        rp = self.replay
        for rec in rp.records:
            if step is not None and rec.step != step:
                continue
            published = rp.publication.get(rec.step) if rp.publication and rec.move is not None else None
            yield Entry(rec, rec.full_turn or rec.turn, published=published,
                        views=self._views(rec.move, rec.step))

    def _views(self, move: Message | None, step: int) -> dict[str, Any]:
        game = self.game
        if not (game.hidden and self.viewers and move is not None and isinstance(move.body.orders, dict)
                and set(move.body.orders) == {"report"}):
            return {}
        from pbem.protocol.seal import x25519_private  # cryptography's HPKE: hidden games only

        out: dict[str, Any] = {}
        report = move.body.orders["report"]
        for side, key_name in sorted(self.viewers.items()):
            if report["views"].get(side) is not None:
                out[side] = open_view(report, x25519_private(private_key(key_name), game.id, side),
                                      game=game.id, step=step, side=side, umpire=str(game.umpire))
        return out


def umpire_key(game: Game, local: Any) -> Any:
    """The umpire's X25519 key when this machine plays Game Control of a hidden game, else ``None``."""
    if not game.hidden or local is None or game.umpire not in local.sides():
        return None
    from pbem.protocol.seal import x25519_private

    return x25519_private(private_key(local.sides()[game.umpire]), game.id, str(game.umpire))


def history(game: Game, local: Any, seeds: dict[str, bytes], *, publication: bool = False) -> History:
    """Replay ``game`` for reading (no checkpoint). ``publication``: where this machine is not
    Game Control and the umpire's publication is here, open every order with it."""
    key = umpire_key(game, local)
    viewers = ({s: k for s, k in local.sides().items() if s in game.sides and s != game.umpire}
               if local is not None else {})
    if publication and game.hidden and key is None and (game.dir / names.PUBLICATION).exists():
        try:
            rp = Replay(game, seeds, strict=False, publication=game.publication())
        except Bad as exc:
            raise ArchiveError(str(exc)) from None
        rp.run()
        return History(game, rp, {}, everything=True)
    rp = game.replay(seeds, umpire_key=key)
    return History(game, rp, viewers, everything=key is not None)
