"""Derived files of a game directory: ``map-NNNN.svg`` and ``mail-NNNN.eml`` for each turn file.

:class:`StepView` reads one step of the archive as it is on disk: the scenario through
:meth:`pbem.engine.Game.open` (which checks the genesis and the scenario's content hash) and the
turn file ``turn-NNNN.json`` with the strict JSON reader. It does not re-adjudicate; ``pbem
verify`` does that.

:func:`write_step_outputs` writes ``map-NNNN.svg`` and ``mail-NNNN.eml`` beside the turn file
(atomically, never overwriting different bytes); :func:`output_hook` is the same thing in the
shape of an engine output hook, and :func:`check_maps` is a ``pbem verify`` checker that re-renders
every ``map-NNNN.svg`` present and compares the bytes (the renderer is deterministic). Mail files
are not compared: they depend on the user's own templates.

What ``mail-NNNN.eml`` holds: the move file of step N (when there is one), ``turn-NNNN.json`` and
``map-NNNN.svg``, from the side that made move N to the side the game now waits for. When the
archive already holds move N+1 (the answer to turn N, typically after a player-turn whose dice
were only known once the opponent's reveal arrived), ``pbem mail draft --step N`` attaches that
move as well and sends it from its author: it is the reply that player has to send.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.errors import InputError


def map_name(step: int) -> str:
    return f"map-{step:04d}.svg"


def mail_name(step: int) -> str:
    return f"mail-{step:04d}.eml"


class StepView:
    """Everything needed to draw or tell one step of a game directory."""

    def __init__(self, game: Any, step: int | None, *, move: Any = None) -> None:
        from pbem.canonical import MAX_TURN_BYTES, loads_strict
        from pbem.engine import read_file
        from pbem.westwall.model import Scenario

        self.game = game
        if not isinstance(game.scenario, Scenario):
            raise InputError(f"pbem render draws WestWall maps; this game's system is "
                             f"{game.scenario_data.get('system')!r}")
        self.scenario: Scenario = game.scenario
        turns: dict[int, Path] = game.listing.turns
        if not turns:
            raise InputError(f"{game.dir} has no turn file yet (the game has not started)")
        if step is None:
            step = max(turns)
        if step not in turns:
            have = ", ".join(str(s) for s in sorted(turns))
            raise InputError(f"no turn-{step:04d}.json in {game.dir} (steps present: {have})")
        self.step = step
        self.turn_path = turns[step]
        self.turn_bytes = read_file(self.turn_path, MAX_TURN_BYTES)
        turn = loads_strict(self.turn_bytes, max_bytes=MAX_TURN_BYTES, what=self.turn_path.name)
        if not isinstance(turn, dict) or not isinstance(turn.get("state"), dict):
            raise InputError(f"{self.turn_path.name}: not a turn file (no state)")
        self.turn: dict[str, Any] = turn
        # ``move``: the message that produced this turn, when the caller holds it but the game
        # object does not list it yet (an engine hook runs before ``game.moves`` is refreshed)
        self.move = move if move is not None else game.moves.get(step)
        self.reply = game.moves.get(step + 1)

    @property
    def events(self) -> list[Any]:
        return list(self.turn.get("events") or [])

    @property
    def score(self) -> dict[str, int]:
        score = self.turn.get("score")
        return dict(score) if isinstance(score, dict) else {}

    def subtitle(self) -> str:
        from pbem.render.common import coerce_state, side_name

        st = coerce_state(self.turn["state"])
        mover = f" · after {side_name(self.scenario, self.move.body.side)}'s move" \
            if self.move is not None else ""
        if st.phase == "setup":
            head = "Set-up"
        elif st.phase == "over" or st.finished:
            head = f"Game over after Game-Turn {st.game_turn}"
        else:
            head = (f"Game-Turn {st.game_turn} of {self.scenario.last_turn} · "
                    f"{side_name(self.scenario, st.phasing)} player-turn next")
        return f"{head} · step {self.step}{mover}"

    def svg(self, *, side: str | None = None, around: str | None = None,
            radius: int | None = None) -> str:
        from pbem.render.svg import render_map

        if side is not None and side not in self.scenario.side_ids():
            raise InputError(f"unknown side {side!r} (sides: {', '.join(self.scenario.side_ids())})")
        view = self.turn["state"]
        if side is not None:  # open information in WestWall, but ask the ruleset anyway
            view = self.game.ruleset.view(self.scenario, view, side)
        return render_map(
            self.scenario, view, self.events, subtitle=self.subtitle(), side=side,
            around=around, radius=radius, score=self.score,
            header_lines=[f"Game {self.game.id[:8]} · {self.turn_path.name}"],
        )

    def eml(self, svg: str, *, template_dir: Path | None = None, include_reply: bool = True) -> bytes:
        from pbem.mail import draft_email, narrate
        from pbem.render.common import coerce_state, side_name

        sc = self.scenario
        pending = [p for p in self.turn.get("pending") or [] if isinstance(p, dict)]
        outcome = self.turn.get("outcome")
        attachments: list[tuple[str, bytes, str]] = []
        sender: str | None = None
        if self.move is not None:
            attachments.append((self.move.name, self.move.raw, "application/json"))
            sender = self.move.body.side
        attachments.append((self.turn_path.name, self.turn_bytes, "application/json"))
        attachments.append((map_name(self.step), svg.encode("utf-8"), "image/svg+xml"))
        if include_reply and self.reply is not None:
            attachments.append((self.reply.name, self.reply.raw, "application/json"))
            sender = self.reply.body.side
        sides = sc.side_ids()
        if sender is None:
            sender = pending[0]["side"] if pending else sides[0]
        recipient = next((p["side"] for p in pending if p.get("side") != sender),
                         sc.other(sender) if len(sides) > 1 else sender)
        if isinstance(outcome, dict) and outcome.get("summary"):
            next_action = f"the game is over: {outcome['summary']}"
            tail = "game over"
        elif self.reply is not None and include_reply:
            next_action = (f"{side_name(sc, sender)} has answered with "
                           f"{self.reply.name}; ingest it to see what comes next")
            tail = "your move"
        elif pending:
            mine = [p for p in pending if p.get("side") == recipient] or pending
            next_action = "; ".join(f"{p.get('label', '')} ({p.get('kind', '')})" for p in mine)
            tail = "your move"
        else:
            next_action = "nothing is pending"
            tail = "for your records"
        state = coerce_state(self.turn["state"])
        lines = narrate(sc, self.events, self.turn.get("rolls") or [], state=state)
        return draft_email(
            game_id=self.game.id, scenario=sc, step=self.step, sender_side=sender,
            recipient_side=recipient, narrative=lines, next_action=next_action,
            attachments=attachments, template_dir=template_dir, game_turn=state.game_turn,
            score=self.score, subject_tail=tail, game_label=f"{sc.id} {self.game.id[:8]}",
        )


def _open(game_dir: Path) -> Any:
    from pbem.engine import open_checked

    return open_checked(game_dir)


def write_step_outputs(game_dir: Path | str, step: int, *, game: Any = None,
                       move: Any = None) -> list[Path]:
    """Write ``map-NNNN.svg`` and ``mail-NNNN.eml`` for turn ``step`` into ``game_dir``; returns
    the paths created (a file already there with the same bytes is left alone and not listed;
    one with other bytes is an :class:`~pbem.errors.ArchiveError`). Atomic: temp file, fsync,
    link into place."""
    from pbem.fsutil import write_new

    game_dir = Path(game_dir)
    view = StepView(game if game is not None else _open(game_dir), step, move=move)
    svg = view.svg()
    eml = view.eml(svg, include_reply=False)
    out = []
    for name, data in ((map_name(step), svg.encode("utf-8")), (mail_name(step), eml)):
        path = game_dir / name
        if write_new(path, data):
            out.append(path)
    return out


def output_hook(game: Any, replay: Any, record: Any) -> list[Path]:
    """Engine output hook: the map and email of each new turn file (WestWall games only)."""
    from pbem.westwall.model import Scenario

    if not isinstance(game.scenario, Scenario):
        return []
    return write_step_outputs(game.dir, record.step, game=game, move=record.move)


def register_outputs() -> None:
    """Register :func:`output_hook` with the engine (idempotent)."""
    from pbem.engine import register_output

    register_output(output_hook)


def check_maps(game: Any, replay: Any) -> None:
    """``pbem verify`` checker: every ``map-NNNN.svg`` in the game directory must equal a fresh
    rendering of its turn file; the first that differs is named."""
    from pbem.errors import VerificationError
    from pbem.westwall.model import Scenario

    if not isinstance(game.scenario, Scenario):
        return
    for step in sorted(game.listing.turns):
        path = game.dir / map_name(step)
        if not path.is_file():
            continue
        fresh = StepView(game, step).svg().encode("utf-8")
        if path.read_bytes() != fresh:
            raise VerificationError(path.name, f"differs from the map re-rendered from "
                                               f"{game.listing.turns[step].name}")
