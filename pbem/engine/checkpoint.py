"""A player's checkpoint of the last replayed position, so commands cost the same at step 300 as at
step 3.

``<pbem home>/games/<GAME_ID>/checkpoint.json`` (private local state, never in the game
directory) names a turn a replay on this machine already checked from the genesis, a couple of
steps behind the newest, and what a replay needs to go on from there without reading the history
again::

    {"ds": "pbem/checkpoint/v1", "genesis": <sha256 of the genesis body>, "step": c,
     "turn": <sha256 of turn-c bytes>, "move": <sha256 of move c's body> | null,
     "chains": {SIDE: [count, <last revealed value>, <step of the move that revealed it>]},
     "head": {"step": h, "turn": ..., "move": ..., "chains": ...}}

``head`` (optional) names the newest turn the same replay checked, in the same words: a command
that reads only the newest position (``pbem status``: :class:`Checkpoints` with ``head=True``)
starts there instead of replaying the steps after ``step`` again. It is written, and used, only in
a game whose position a replay from ``step`` adds nothing to: open (no hidden information), at a
turn that leaves no sealed round open, with no take-back and no receipt files (they look back at
earlier turns). It is checked exactly as ``step`` is; when it does not hold, the command starts
from ``step``.

**Never trusted.** A checkpoint only says where to look; :meth:`Checkpoints.restore` re-checks
every claim against the archive before using it, and falls back to a replay from the genesis when
anything disagrees (a stale checkpoint after the directory was replaced, a doctored one, a missing
file): the genesis hash; every move and turn file up to step c present; the bytes of ``turn-c``
hash to ``turn`` and name the right game, step and move; ``move c`` hashes to ``move``; each side's
last value is the reveal of the move it names and hashes ``count`` times to the side's commitment.
The state is read from ``turn-c`` itself (whose hash the checkpoint fixed when a full check had
computed it) and its pending decisions recomputed and compared. ``pbem verify`` never uses a
checkpoint: it replays everything.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.errors import PbemError
from pbem.protocol import names

if TYPE_CHECKING:
    from pbem.engine.replay import Replay

NAME = names.CHECKPOINT
DS = "pbem/checkpoint/v1"
MAX_BYTES = 4 * 1024 * 1024
"""A checkpoint larger than this is ignored (never read). It holds a hidden game's full state for the
umpire: a whole-operation megagame of some 250 units needs about 100 KB, so the limit is that of a
scenario file (:data:`pbem.engine.scenarios.MAX_SCENARIO_BYTES`), not of a move."""
BEHIND = 2
"""How many steps behind the newest resolved turn the checkpoint is kept: a command still holds
the last few turns and moves (re-submission checks, attached turns to compare)."""


class Checkpoints:
    """The checkpoint file of one game in a player's local state directory."""

    def __init__(self, local_dir: Path, *, head: bool = False) -> None:
        self.path = local_dir / NAME
        self.restored_from: int | None = None
        self.head = head
        """Start from the newest checked turn (the file's ``head``) where it holds: for a command
        that reads only the newest position."""
        self.from_head = False
        """Restored from the head: the file is left as it is (its earlier checkpoint stays)."""

    # reading ------------------------------------------------------------------------------------

    def _load(self) -> dict[str, Any] | None:
        try:
            if not self.path.is_file() or self.path.stat().st_size > MAX_BYTES:
                return None
            data = json.loads(self.path.read_bytes())
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("ds") != DS:
            return None
        return data

    def restore(self, rp: Replay) -> bool:
        """Start ``rp`` from the checkpoint when every claim in it holds; else leave ``rp``
        untouched and return False (the caller replays from the genesis)."""
        data = self._load()
        if data is None:
            return False
        try:
            head = data.get("head")
            if self.head and isinstance(head, dict) and _head_allowed(rp) \
                    and self._restore(rp, {**data, **head}):
                self.from_head = True
                return True
            return self._restore(rp, data)
        except (PbemError, KeyError, ValueError, TypeError, AssertionError):
            return False
        except Exception as exc:  # a Bad from a malformed archive file: replay from the genesis
            if type(exc).__name__ == "Bad":
                return False
            raise

    def _restore(self, rp: Replay, data: dict[str, Any]) -> bool:
        from pbem.engine.ruleset import Decision
        from pbem.engine.sealed import Round
        from pbem.engine.steps import (
            StepRecord,
            decision_json,
            read_file,
            round_after,
            round_pending,
        )
        from pbem.protocol import archive, names
        from pbem.protocol.canonical import (
            MAX_TURN_BYTES,
            canonical_bytes,
            loads_strict,
        )

        g = rp.game
        c = data["step"]
        if data["genesis"] != g.genesis.body_hash or type(c) is not int or c < 0:
            return False
        listing = g.listing
        if any(s not in listing.turns for s in range(c + 1)):
            return False
        if any(s not in listing.moves for s in range(1, c + 1)):
            return False
        turn_bytes = read_file(listing.turns[c], MAX_TURN_BYTES)
        turn_hash = hashlib.sha256(turn_bytes).hexdigest()
        if turn_hash != data["turn"]:
            return False
        turn = loads_strict(turn_bytes, max_bytes=MAX_TURN_BYTES, what=names.turn_name(c))
        if canonical_bytes(turn) + b"\n" != turn_bytes:
            return False
        archive.TurnFile.parse(turn)
        if turn["game"] != g.id or turn["step"] != c:
            return False
        move = None
        if c > 0:
            move = g.moves[c]
            if move.body_hash != data["move"] or turn["move"] != move.body_hash:
                return False
        elif data["move"] is not None:
            return False
        chains = data["chains"]
        if set(chains) != set(g.sides):
            return False
        last: dict[str, bytes] = {}
        count: dict[str, int] = {}
        at: dict[str, int] = {}
        for side in g.sides:
            n, value_hex, step = chains[side]
            commitment = g.commitment(side)
            if commitment is None or type(n) is not int or type(step) is not int or not 0 <= step <= c:
                return False
            value = bytes.fromhex(value_hex)
            h = value
            for _ in range(n):
                h = hashlib.sha256(h).digest()
            if h.hex() != commitment:
                return False
            if step == 0:
                if n != 0:
                    return False
            else:
                m = g.moves[step]
                if m.body.side != side or m.body.reveal != value_hex:
                    return False
            last[side], count[side], at[side] = value, n, step
        sealed = Round.from_json(turn["sealed"]) if turn.get("sealed") is not None else None
        if g.hidden:  # the turn holds the state's hash; the umpire's checkpoint holds the state
            state = None
            full = data.get("full_state")
            if full is not None:
                # a turn inside a round carries the hash of the round's first turn
                if rp.hidden_hash(full, sealed.base if sealed is not None else c) != turn["state"].get("hidden"):
                    return False
                state = g.ruleset.load_state(g.scenario, full)
            elif rp.full:
                return False
        else:
            state = g.ruleset.load_state(g.scenario, turn["state"])
        if sealed is not None:
            pending = round_pending(sealed)
        elif state is None:
            pending = [Decision(d["side"], d["kind"], d["label"], sealed=True) for d in turn["pending"]]
        else:
            pending = g.ruleset.pending(g.scenario, state)
        if [decision_json(d) for d in pending] != turn["pending"]:
            return False
        rp.base = c
        rp.records = [StepRecord(c, move, turn_bytes, turn_hash, turn, state, pending,
                                 round=round_after(c, turn_hash, pending, sealed, g.umpire, g.hidden, g.body.rounds))]
        rp.placed = []
        rp.chain_last, rp.chain_count, rp.chain_at = last, count, at
        rp._chains[c] = {s: (count[s], last[s].hex(), at[s]) for s in g.sides}
        self.restored_from = c
        return True

    # writing ------------------------------------------------------------------------------------

    def save(self, rp: Replay) -> None:
        """Keep a checkpoint a couple of steps behind the newest turn on disk (best effort: a
        checkpoint that cannot be written only costs the next command a longer replay)."""
        from pbem.protocol.fsutil import write_replace

        if rp.strict or not rp.records or self.from_head:
            return
        candidates = [r for r in rp.records if not r.written and r.step in rp._chains
                      and (r.step == 0 or r.move is not None)]
        if not candidates:
            return
        newest = candidates[-1].step
        target = max(candidates[0].step, newest - BEHIND)
        rec = next(r for r in candidates if r.step >= target)
        if self.restored_from is not None and rec.step <= self.restored_from:
            return  # (so a checkpoint of an older pbem gains its head when it next moves on)
        data: dict[str, Any] = {
            "ds": DS,
            "genesis": rp.game.genesis.body_hash,
            "step": rec.step,
            "turn": rec.turn_hash,
            "move": rec.move.body_hash if rec.move is not None else None,
            "chains": {s: list(v) for s, v in sorted(rp._chains[rec.step].items())},
        }
        top = candidates[-1]
        if top.step > rec.step and _head_allowed(rp) and not rp.tail_open and top is rp.records[-1] \
                and top.round is None:
            data["head"] = {
                "step": top.step,
                "turn": top.turn_hash,
                "move": top.move.body_hash if top.move is not None else None,
                "chains": {s: list(v) for s, v in sorted(rp._chains[top.step].items())},
            }
        if rp.game.hidden and rp.full and rec.state is not None:  # private: this home only
            data["full_state"] = rp.game.ruleset.dump_state(rp.game.scenario, rec.state)
        text = (json.dumps(data, sort_keys=True, indent=1) + "\n").encode("ascii")
        try:
            if self.path.parent.is_dir() and (not self.path.is_file() or self.path.read_bytes() != text):
                write_replace(self.path, text)
                self.restored_from = rec.step
        except OSError:
            pass


def _head_allowed(rp: Replay) -> bool:
    """Whether the newest checked turn may stand for the steps before it (``head``, which is only
    written for a turn that leaves no sealed round open): an open game with no take-back and no
    receipt files, whose replay from an earlier checkpoint checks nothing more about the newest position than the head's own checks do."""
    g = rp.game
    return not g.hidden and not g.takebacks and not rp._receipt_names
