"""What ``pbem status`` tells: one typed :class:`GameStatus`, the single source of both its text
and its ``--json`` output (the CLI only prints it)."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from pbem.engine.gamedir import Game
from pbem.engine.replay import Replay
from pbem.plain import Plain
from pbem.protocol import names


class Clock(Plain):
    """The agreed time control, and who owes a move against it (shown, never hashed or signed)."""

    control: dict[str, Any]
    owing: str
    left_seconds: float
    extensions_needed: int
    out_of_time: bool
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"control": self.control, "owing": self.owing, "left_seconds": self.left_seconds,
                "extensions_needed": self.extensions_needed, "out_of_time": self.out_of_time,
                "text": self.text}


class AsOf(Plain):
    """The state and score shown are not the newest placed step's: the newest resolved step, the
    newest placed one, who played it and whose reveal its dice wait for (when that is why), in
    words [P3]. Another machine, holding that side's dice seed, may have resolved it already and
    show a different score."""

    step: int
    newest: int
    mover: str | None
    revealer: str | None
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "newest": self.newest, "mover": self.mover,
                "revealer": self.revealer, "text": self.text}


class GameStatus(Plain):
    """A game as this machine sees it now."""

    game: str
    scenario: str
    step: int
    """Moves archived."""
    local_sides: list[str]
    keys: dict[str, str]
    """Side -> fingerprint of the key bound in the genesis, in the game's side order."""
    describe: str
    pending: list[dict[str, Any]]
    waiting: str | None
    since: str
    """When the newest archived file arrived (local time: shown only)."""
    score: dict[str, Any]
    outcome: dict[str, Any] | None
    resolved: int | None = None
    """The newest resolved step (``None`` before turn 0)."""
    views: dict[str, Any] | None = None
    """Hidden information: each side played here -> its own view, from the umpire's reports [P10]."""
    view_lines: dict[str, list[str]] = field(default_factory=dict)
    """Those views in words (text only)."""
    umpire_lines: list[str] | None = None
    """Game Control's machine: the whole state in words (text only)."""
    takeback: str | None = None
    """A take-back request of the newest move still waiting for consent, in words (text only)."""
    cut_off: list[str] = field(default_factory=list)
    """Every unit out of supply or without a line of communication, with what cut it (text only;
    from the newest state alone) [27]."""
    score_meaning: dict[str, str] = field(default_factory=dict)
    """Side -> what its points count, where the system says (text only) [27]."""
    clock: Clock | None = None
    hidden: bool = False
    published: bool = False
    """Hidden information: Game Control's publication is in the archive."""
    as_of: AsOf | None = None
    """The state, score and pending decisions shown are of an older step than the newest placed
    (a move whose dice wait for another side's reveal): which, and why. ``None`` when they are
    the newest step's."""

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document (its keys are a published interface: keep them)."""
        info: dict[str, Any] = {"game": self.game, "scenario": self.scenario, "step": self.step,
                                "local_sides": self.local_sides, "keys": self.keys}
        if self.resolved is not None:
            info["resolved"] = self.resolved
        if self.views is not None:
            info["views"] = self.views
        info.update(describe=self.describe, pending=self.pending, waiting=self.waiting, since=self.since,
                    score=self.score, outcome=self.outcome)
        if self.clock is not None:
            info["clock"] = self.clock.to_json()
        if self.as_of is not None:
            info["as_of"] = self.as_of.to_json()
        return info


def game_status(game: Game, rp: Replay, local: Any, seeds: dict[str, bytes], *, since: str,
                now: float) -> GameStatus:
    """The status of ``game`` after the replay ``rp`` (with this machine's ``local`` state and
    chain ``seeds``); ``since`` and ``now`` are the caller's reading of the wall clock."""
    st = GameStatus(
        game=game.id,
        scenario=game.body.scenario.id,
        step=rp.placed_count,
        local_sides=sorted(seeds),
        keys={side: game.body.sides[side].fingerprint for side in game.sides},
        describe="", pending=[], waiting=rp.waiting, since=since, score={}, outcome=None,
        hidden=game.hidden,
        published=game.hidden and (game.dir / names.PUBLICATION).exists(),
    )
    presenter = game.ruleset.presenter()
    if rp.records:
        cur = rp.current
        state = cur.state
        if game.hidden:  # each side sees its own view, from the umpire's reports [P10]
            from pbem.engine.play import my_view

            views = {side: my_view(game, rp, side, key) for side, key in sorted(local.sides().items())
                     if side != game.umpire and side in game.sides}
            st.views = views
            st.view_lines = {side: presenter.describe_view(game.scenario, view) for side, view in views.items()}
            if state is None and views:
                state = game.ruleset.load_state(game.scenario, next(iter(views.values())))
        st.resolved = cur.step
        if cur.step < rp.placed_count:
            st.as_of = _as_of(rp, cur.step)
        st.describe = game.ruleset.describe(game.scenario, state) if state is not None else ""
        st.pending = [] if rp.tail_open else cur.turn["pending"]
        st.score = cur.turn["score"]
        st.score_meaning = presenter.score_meaning(game.scenario)
        if not game.hidden and cur.state is not None:  # the newest state only: the same cost at any step
            st.cut_off = presenter.cut_off(game.scenario, cur.state)
        st.outcome = cur.turn["outcome"]
        if game.hidden and game.umpire in local.sides() and cur.state is not None:
            full = game.ruleset.dump_state(game.scenario, cur.state)
            st.umpire_lines = presenter.describe_view(game.scenario, full)
    newest = max(game.takebacks, default=None)
    tb = game.takebacks.get(newest) if newest is not None else None
    if tb is not None and tb.agreed + 1 in tb.requests and newest == rp.placed_count:
        request = tb.requests[tb.agreed + 1]
        st.takeback = (f"{request} asks to take back {tb.versions.get(tb.agreed, f'step {newest}')}, not agreed "
                       f"yet: the opponent agrees with 'pbem takeback consent GAME_DIR {request} --key KEY'")
    owed = rp.owing()
    if game.body.time_control is not None and owed:
        from pbem.engine.clock import TimeControl, standing

        control = TimeControl.of(game.body.time_control)
        standing_now = standing(control, game.newest_mtime(), now)
        owing = ", ".join(owed)
        st.clock = Clock(control=control.to_json(), owing=owing, left_seconds=standing_now.left,
                         extensions_needed=standing_now.extensions_needed,
                         out_of_time=standing_now.out_of_time,
                         text=f"{control.describe()}: {owing} has {standing_now.describe(control)}")
    return st


def _as_of(rp: Replay, shown: int) -> AsOf:
    """Why the state shown is step ``shown``'s, older than the newest placed step: the newest
    move's dice wait for a reveal (:attr:`Replay.tail_open`) [P3]."""
    newest = rp.placed_count
    mover = rp.placed[-1].body.side if rp.placed else None
    revealer = rp.revealer_of(newest) if rp.tail_open else None
    move = f"step {newest} ({mover}'s move)" if mover else f"step {newest}"
    if revealer is not None:
        text = (f"as of step {shown}: {move} is archived but not resolved here, its dice wait for "
                f"{revealer}'s reveal; {revealer}'s pbem, holding {revealer}'s dice seed, resolves it "
                f"on taking in the move, so {revealer}'s status may show another score")
    else:
        text = f"as of step {shown}, the newest resolved here: {move} is archived but not resolved yet"
    return AsOf(step=shown, newest=newest, mover=mover, revealer=revealer, text=text)
