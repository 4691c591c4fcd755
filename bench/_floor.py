"""The floor of ``pbem verify``: what any verifier of a game directory must do, and nothing else.

    python bench/_floor.py GAME_DIR [--gc-tuned]

Read every file of the directory once, SHA-256 it, parse every JSON file strictly (the signed
messages -- genesis, joins, moves -- through pbem's archive models, which include the strict JSON
parse and the canonical-form check) and check every Ed25519 signature. No rules, no replay.

This module imports only what that needs (pbem's protocol package: pydantic for the archive models,
cryptography for the signatures), so that run as a new process it is the floor of ``pbem verify``
as a user runs it; ``bench/verify.py`` times both in the same run. A helper, not a benchmark:
``run_all.py`` skips files whose name starts with ``_``.

``--gc-tuned`` gives the floor process the garbage-collector treatment ``pbem verify`` gives
itself when it is the whole process (``pbem.cli.verify``): the collector paused while the modules
are imported and the directory listed, everything alive then frozen (:func:`gc.freeze`), the
young generation then collected as rarely as during verify's replay (``REPLAY_GC_THRESHOLD``), and
everything frozen again at the end, so that neither pays for collections at interpreter exit, and
the process ended at once (:func:`os._exit`) as a successful verify ends.
``bench/verify.py`` times this floor too: the stricter ratio.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path


def floor(game_dir: Path, gc_tuned: bool = False) -> int:
    """Do the floor's work on ``game_dir``; returns the number of signatures checked."""
    import gc

    if gc_tuned:
        gc.disable()
    from pbem.protocol import archive, names
    from pbem.protocol.canonical import loads_strict
    from pbem.protocol.dsse import verify
    from pbem.protocol.keys import parse_public

    listing = archive.scan(game_dir)
    if gc_tuned:
        gc.freeze()
        _, older, oldest = gc.get_threshold()
        gc.set_threshold(100_000, older, oldest)  # pbem.cli.verify.REPLAY_GC_THRESHOLD (no click here)
        gc.enable()
    assert listing.genesis is not None
    signed: dict[str, archive.Message] = {}
    for path in sorted(game_dir.iterdir()):
        if not path.is_file():
            continue
        data = path.read_bytes()
        hashlib.sha256(data).hexdigest()
        name = path.name
        if name == names.GENESIS:
            signed[name] = archive.parse_genesis(data)
        elif name.startswith("join-") and name.endswith(".json"):
            signed[name] = archive.parse_join(data, name)
        elif name.startswith("move-") and name.endswith(".json"):
            signed[name] = archive.parse_move(data, name)
        elif name.endswith(".json"):
            loads_strict(data, max_bytes=1 << 24, what=name)
    genesis = signed.pop(names.GENESIS)
    sides = genesis.body.sides
    keys = {e.fingerprint: parse_public(e.key) for e in sides.values()}
    verify(genesis.envelope, genesis.envelope.payloadType,
           {e.fingerprint: keys[e.fingerprint] for e in sides.values() if e.commitment})
    for msg in signed.values():
        fp = sides[msg.body.side].fingerprint
        verify(msg.envelope, msg.envelope.payloadType, {fp: keys[fp]})
    if gc_tuned:
        gc.freeze()
    return 1 + len(signed)


if __name__ == "__main__":
    tuned = "--gc-tuned" in sys.argv[2:]
    floor(Path(sys.argv[1]), gc_tuned=tuned)
