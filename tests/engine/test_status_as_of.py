"""``pbem status`` on two machines while a move waits for its dice reveal [P3]: the machine that
placed the move cannot resolve it yet (the other side's reveal keys its dice), the other side's
machine, holding its own dice seed, resolves it at once. Their scores differ; the first says
which step its state and score are as of, and why, in text and in ``--json`` (``as_of``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers.protocol import Player, ok, play, start_remote


def _status(p: Player) -> tuple[str, dict[str, Any]]:
    return ok(p.run("status", p.dir)).out, json.loads(ok(p.run("status", p.dir, "--json")).out)


def test_p3_status_says_the_step_its_score_is_as_of_while_a_move_waits_for_a_reveal(
        tmp_path: Path) -> None:
    a, b = start_remote(tmp_path)
    play(a, b, 3)  # step 3: A rolls, its dice keyed by B's reveal in step 4
    text_a, json_a = _status(a)
    text_b, json_b = _status(b)
    # B resolved step 3 with its own seed; A shows step 2: the set-up's handicaps, A 2 and B 1
    assert (json_a["step"], json_a["resolved"], json_b["resolved"]) == (3, 2, 3)
    assert json_a["score"] == {"A": 2, "B": 1}  # B's may differ: its roll counted
    words = ("as of step 2: step 3 (A's move) is archived but not resolved here, its dice wait "
             "for B's reveal; B's pbem, holding B's dice seed, resolves it on taking in the move, "
             "so B's status may show another score")
    assert json_a["as_of"] == {"step": 2, "newest": 3, "mover": "A", "revealer": "B", "text": words}
    assert f"shown     {words}\n" in text_a and "score     A 2, B 1  (as of step 2)\n" in text_a
    # B's machine shows the newest step: nothing to say, the other keys as they were
    assert "as_of" not in json_b and "shown " not in text_b and "(as of" not in text_b
    assert set(json_a) == set(json_b) | {"as_of"}
    step_3 = json_b["score"]
    # B's reveal in step 4 resolves step 3 on A's machine: nothing older shown there any more
    ok(b.submit({"kind": "roll", "side": "B", "round": 1, "dice": 3}))
    ok(b.send(a, ["move-0004-B.json"]))
    text_a, json_a = _status(a)
    assert "as_of" not in json_a and json_a["resolved"] == 4 and "shown " not in text_a
    # now B's step 4 waits for A's reveal: B's status says so the other way round, its score
    # still step 3's
    text_b, json_b = _status(b)
    assert (json_b["as_of"]["step"], json_b["as_of"]["mover"], json_b["as_of"]["revealer"]) == (
        3, "B", "A")
    assert json_b["score"] == step_3 and "(as of step 3)" in text_b
