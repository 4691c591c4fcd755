"""Sealed simultaneous orders: the commit-then-reveal round (``docs/protocol.md``, P8).

When a ruleset declares several decisions pending at once with ``sealed=True``, the engine runs a
**sealed round** over them, in the order the ruleset lists them (its sides' order):

1. **Commit.** Side *i* sends move ``base + 1 + i`` whose orders are only ``{"sealed": C}``, with
   ``C = SHA-256(JCS({"ds": "pbem/sealed/v1", "orders": O, "salt": S}))``. Every commitment answers
   the round's first turn (``base``), so no side needs another's commitment to write its own, and
   they may arrive in any order (a move for a later slot waits in the archive until the earlier
   slots are filled).
2. **Reveal.** Once every side has committed, side *i* sends move ``base + n + 1 + i`` with
   ``{"orders": O, "salt": S}``. Every reveal answers the turn of the *last commitment*, so a reveal
   proves its author had every commitment before revealing. ``verify`` recomputes ``C`` from each
   reveal and names the side whose reveal does not match its commitment.
3. **Resolve.** With the last reveal, the ruleset resolves every side's orders together
   (:meth:`pbem.engine.ruleset.Ruleset.resolve_round`); its dice are keyed by the chain values the
   *reveal* moves disclose (all of them, in slot order) and the hash of those moves' bodies. No side
   knows a single die before every side has committed: each chain value is the preimage of a
   published hash, disclosed only in a reveal, which comes after every commitment. The last side to
   reveal can compute the dice before it sends its reveal, but its orders are fixed by its
   commitment and its chain value by its dice chain, so it can choose nothing (it can only withhold,
   as in every protocol without a trusted third party).

The salt is not random: it is ``HMAC(chain seed, JCS({"ds": "pbem/sealed-salt/v1", game, step,
side}))``. It is as secret as the side's chain seed until the reveal (so nobody can test guesses of
a small set of possible orders against ``C``), the same every time the side's tool computes it (so
re-sending a commitment signs the same bytes [P7]), and recoverable from the private key.

Every step of the round still produces a turn file (the state unchanged, no events), carrying a
``"sealed"`` field with the round's progress, so a checkpoint or a reader can start anywhere.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from pbem.lazy_re import LazyPattern
from pbem.plain import Plain
from pbem.protocol import names
from pbem.protocol.canonical import canonical_bytes

SEALED_DS = "pbem/sealed/v1"
SALT_DS = "pbem/sealed-salt/v1"
_HEX64 = LazyPattern(r"^[0-9a-f]{64}$")  # games with sealed orders only


def commitment(orders: Any, salt: bytes) -> str:
    """``C`` for orders (their JSON, as signed) and a 32-byte salt."""
    doc = {"ds": SEALED_DS, "orders": orders, "salt": salt.hex()}
    return hashlib.sha256(canonical_bytes(doc, what="sealed orders")).hexdigest()


def derive_salt(seed: bytes, game: str, step: int, side: str) -> bytes:
    """The salt of ``side``'s commitment at ``step``, from its secret chain seed."""
    msg = canonical_bytes({"ds": SALT_DS, "game": game, "step": step, "side": side})
    return hmac.new(seed, msg, hashlib.sha256).digest()


def commit_orders(value: str, for_umpire: str | None = None) -> dict[str, str]:
    out = {"sealed": value}
    if for_umpire is not None:
        out["umpire"] = for_umpire
    return out


def reveal_orders(orders: Any, salt: bytes) -> dict[str, Any]:
    return {"orders": orders, "salt": salt.hex()}


def parse_report(orders: Any, sides: list[str]) -> dict[str, Any]:
    """The umpire's report of a hidden round (``{"report": {"state", "pending", "outcome",
    "views"}}``), checked for form; ``ValueError`` otherwise."""
    if not isinstance(orders, dict) or set(orders) != {"report"} or not isinstance(orders["report"], dict):
        raise ValueError('an umpire\'s report carries only {"report": {...}}')
    rep = orders["report"]
    if set(rep) != {"state", "pending", "outcome", "views"}:
        raise ValueError("a report holds exactly state, pending, outcome and views")
    if not isinstance(rep["state"], str) or not _HEX64.match(rep["state"]):
        raise ValueError("a report's state is a SHA-256 hex digest")
    pend = rep["pending"]
    if not isinstance(pend, list) or not all(
            isinstance(d, dict) and set(d) == {"side", "kind", "label"} and all(isinstance(v, str) for v in d.values())
            for d in pend):
        raise ValueError("a report's pending decisions are {side, kind, label}")
    if not isinstance(rep["views"], dict) or set(rep["views"]) != set(sides) or \
            not all(isinstance(v, str) for v in rep["views"].values()):
        raise ValueError(f"a report seals one view to each of {', '.join(sides)}")
    if rep["outcome"] is not None and not isinstance(rep["outcome"], dict):
        raise ValueError("a report's outcome is an object or null")
    return rep


HIDDEN_REVEAL = {"reveal": "to-umpire"}
"""A reveal in a game with hidden information: only the chain value that keys the dice; the orders
stay with the umpire (sealed in the commitment) until the publication after the game."""


def parse_commit(orders: Any, *, umpire: bool = False, keyed: bool = False) -> str | None:
    """``C`` from a commitment move's orders, or ``None`` if they are not exactly ``{"sealed": C}``
    (with ``umpire``: ``{"sealed": C, "umpire": the orders and salt sealed to the umpire}``; in an
    acknowledged round (``keyed``) the copy is sealed under a key of its own, released to the umpire
    in the side's acknowledgement, and the commitment carries that key's hash, ``"key"``)."""
    keys = {"sealed", "umpire", "key"} if umpire and keyed else {"sealed", "umpire"} if umpire else {"sealed"}
    if isinstance(orders, dict) and set(orders) == keys and isinstance(orders["sealed"], str) \
            and _HEX64.match(orders["sealed"]) and (not umpire or isinstance(orders["umpire"], str)) \
            and (not keyed or not umpire or (isinstance(orders["key"], str) and _HEX64.match(orders["key"]))):
        return orders["sealed"]
    return None


# -- acknowledged rounds (genesis "rounds": 2) [29] ------------------------------------------------

ROUNDS = 2
"""The round layout a new game records in its genesis: commitments, acknowledgements (where a
split or an early reading by the umpire is possible), the ruling, the reveals, the report."""
ACK = "commitments"
COPY_KEY_DS = "pbem/copy-key/v1"
COPY_DS = "pbem/sealed-copy/v1"


def acknowledged(rounds: int | None, umpire: str | None, sides: int) -> bool:
    """Whether a round of a game whose genesis records ``rounds`` has an acknowledgement phase: with
    an umpire (it must not read a sheet before every side has committed), or with three sides or
    more (a side could split its commitments between two others)."""
    return (rounds or 1) >= 2 and (umpire is not None or sides >= 3)


def copy_key(seed: bytes, game: str, step: int, side: str) -> bytes:
    """The key of ``side``'s copy of its orders for the umpire, committed to by its hash in the
    commitment at ``step`` and released to the umpire in the acknowledgement: from the side's chain
    seed, so re-sending signs the same bytes [P7] and a lost home recovers it."""
    msg = canonical_bytes({"ds": COPY_KEY_DS, "game": game, "step": step, "side": side})
    return hmac.new(seed, msg, hashlib.sha256).digest()


def key_hash(key: bytes) -> str:
    return hashlib.sha256(key).hexdigest()


def _copy_aad(game: str, step: int, side: str) -> bytes:
    return canonical_bytes({"ds": COPY_DS, "game": game, "step": step, "side": side})


def seal_copy(value: Any, key: bytes, *, game: str, step: int, side: str, pad_to: int = 0) -> str:
    """``value`` (JSON) encrypted under ``key`` (ChaCha20-Poly1305; the key serves one message, so
    the nonce is fixed), padded like :func:`pbem.protocol.seal.seal`, as base64."""
    import base64

    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    from pbem.protocol.seal import padded_length

    data = canonical_bytes(value)
    data += b" " * (max(padded_length(len(data)), pad_to) - len(data))
    ct = ChaCha20Poly1305(key).encrypt(bytes(12), data, _copy_aad(game, step, side))
    return base64.b64encode(ct).decode("ascii")


def open_copy(text: Any, key: bytes, *, game: str, step: int, side: str) -> Any:
    """The value :func:`seal_copy` sealed; ``ValueError`` when it does not open with ``key``."""
    import base64
    import binascii

    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    from pbem.errors import InputError
    from pbem.protocol.canonical import loads_strict
    from pbem.protocol.seal import MAX_SEALED_BYTES

    if not isinstance(text, str) or len(text) > MAX_SEALED_BYTES * 2:
        raise ValueError("not a sealed copy")
    try:
        data = ChaCha20Poly1305(key).decrypt(bytes(12), base64.b64decode(text.encode("ascii"), validate=True),
                                             _copy_aad(game, step, side))
        return loads_strict(data.rstrip(b" "), max_bytes=MAX_SEALED_BYTES, what="sealed copy")
    except (binascii.Error, ValueError, UnicodeEncodeError, InvalidTag, InputError):
        raise ValueError("the sealed copy does not open with the key its side released") from None


def ack_orders(key_for_umpire: str | None) -> dict[str, str]:
    """An acknowledgement's orders: ``{"ack": "commitments"}``, and with an umpire the key of the
    side's sealed copy, sealed to the umpire (``"key"``)."""
    out = {"ack": ACK}
    if key_for_umpire is not None:
        out["key"] = key_for_umpire
    return out


def parse_ack(orders: Any, *, umpire: bool) -> str | None:
    """The sealed key of an acknowledgement (``""`` without an umpire), or ``None`` if malformed."""
    keys = {"ack", "key"} if umpire else {"ack"}
    if isinstance(orders, dict) and set(orders) == keys and orders["ack"] == ACK and \
            (not umpire or isinstance(orders["key"], str)):
        return str(orders["key"]) if umpire else ""
    return None


def parse_rulings(orders: Any) -> Any:
    """The rulings of an umpire's ruling move (``{"rulings": R}``), or raise ``ValueError``."""
    if isinstance(orders, dict) and set(orders) == {"rulings"}:
        return orders["rulings"]
    raise ValueError("an umpire's ruling carries only {\"rulings\": ...}")


def parse_reveal(orders: Any) -> tuple[Any, bytes] | None:
    """``(orders, salt)`` from a reveal move's orders, or ``None`` if malformed."""
    if isinstance(orders, dict) and set(orders) == {"orders", "salt"} and isinstance(orders["salt"], str) \
            and _HEX64.match(orders["salt"]):
        return orders["orders"], bytes.fromhex(orders["salt"])
    return None


class Round(Plain, frozen=True):
    """Where a sealed round stands after some turn."""

    base: int
    """Step of the turn whose pending decisions opened the round."""
    base_turn: str
    """Hash of that turn: what every commitment answers."""
    sides: tuple[str, ...]
    """The sides that owe sealed orders, in slot order."""
    labels: tuple[str, ...]
    """The ruleset's label of each side's decision."""
    phase: str
    """``"commit"``, ``"ruling"`` (the umpire's, in games with one) or ``"reveal"``."""
    done: int
    """How many sides have sent this phase's message."""
    commits_turn: str | None
    """Hash of the turn the current phase's messages answer after the commit phase (the turn of
    the last commitment for the ruling, or of the message before the first reveal for the
    reveals); ``None`` in the turn that is itself that turn (its own hash)."""
    umpire: str | None = None
    """The umpire's side, whose ruling comes between the commitments and the reveals."""
    report: bool = False
    """Hidden information: after the reveals the umpire resolves the round alone and sends a
    report (the hash of the new state, what is pending, each side's view sealed to it)."""
    acks: bool = False
    """Acknowledged round (genesis ``rounds: 2``, with an umpire or three sides or more): after the
    commitments every side signs an acknowledgement of the set it holds -- it answers the turn of
    the last commitment -- and, with an umpire, releases to it the key of its sealed copy; the
    ruling and the reveals follow only once every side has acknowledged the same set [29]."""

    @property
    def n(self) -> int:
        return len(self.sides)

    @property
    def _u(self) -> int:
        return 1 if self.umpire is not None else 0

    @property
    def _a(self) -> int:
        """Steps of the acknowledgement phase (0 in a round without one)."""
        return self.n if self.acks else 0

    @property
    def end(self) -> int:
        """The step of the round's last message (the last reveal, or the umpire's report)."""
        return self.base + 2 * self.n + self._a + self._u + (1 if self.report else 0)

    def slot(self, side: str, phase: str | None = None) -> int:
        """The step of ``side``'s message in ``phase`` (default: the current one)."""
        phase = phase or self.phase
        if phase == "ruling":
            return self.base + self.n + self._a + 1
        if phase == "report":
            return self.end
        i = self.sides.index(side)
        if phase == "commit":
            return self.base + 1 + i
        if phase == "ack":
            return self.base + self.n + 1 + i
        return self.base + self.n + self._a + self._u + 1 + i

    def side_at(self, step: int) -> str | None:
        """Whose message step ``step`` is, in this round (``None``: not a step of this round)."""
        off = step - self.base - 1
        n, a, u = self.n, self._a, self._u
        if 0 <= off < n:
            return self.sides[off]
        if n <= off < n + a:
            return self.sides[off - n]
        if self.umpire is not None and off == n + a:
            return self.umpire
        if n + a + u <= off < 2 * n + a + u:
            return self.sides[off - n - a - u]
        if self.report and off == 2 * n + a + u:
            return self.umpire
        return None

    def phase_at(self, step: int) -> str:
        off = step - self.base - 1
        n, a, u = self.n, self._a, self._u
        if off < n:
            return "commit"
        if off < n + a:
            return "ack"
        if self.umpire is not None and off == n + a:
            return "ruling"
        return "report" if self.report and off == 2 * n + a + u else "reveal"

    def phase_end(self) -> int:
        """The last step of the current phase."""
        if self.phase == "commit":
            return self.base + self.n
        if self.phase == "ack":
            return self.base + self.n + self._a
        if self.phase == "ruling":
            return self.base + self.n + self._a + 1
        if self.phase == "reveal":
            return self.base + 2 * self.n + self._a + self._u
        return self.end

    def after_commits(self) -> str:
        """The phase that follows the commitments."""
        return "ack" if self.acks else self.after_acks()

    def after_acks(self) -> str:
        return "ruling" if self.umpire is not None else "reveal"

    def owed(self) -> list[str]:
        if self.phase in ("ruling", "report"):
            return [self.umpire] if self.umpire is not None and self.done == 0 else []
        return list(self.sides[self.done:])

    def to_json(self) -> dict[str, Any]:
        out = {
            "base": self.base,
            "base_turn": self.base_turn,
            "sides": list(self.sides),
            "labels": list(self.labels),
            "phase": self.phase,
            "done": self.done,
            "commits_turn": self.commits_turn,
        }
        if self.umpire is not None:
            out["umpire"] = self.umpire
        if self.report:
            out["report"] = True
        if self.acks:
            out["acks"] = True
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Round:
        return cls(int(data["base"]), str(data["base_turn"]), tuple(data["sides"]), tuple(data["labels"]),
                   str(data["phase"]), int(data["done"]), data["commits_turn"], data.get("umpire"),
                   bool(data.get("report", False)), bool(data.get("acks", False)))


PUBLICATION_NAME = names.PUBLICATION
MAX_PUBLICATION_BYTES = 1 << 24
"""Largest publication pbem reads: every sealed order and ruling of a game (a whole-operation
megagame comes near 1 MiB, the limit of one move)."""
PUBLICATION_DS = "pbem/publication/v1"
PUBLICATION_TYPE = "application/vnd.pbem.publication+json; version=1"


STATE_SALT_DS = "pbem/state-salt/v1"
HIDDEN_STATE_DS = "pbem/hidden-state/v1"


def state_salt(seed: bytes, game: str) -> bytes:
    """The salt of a hidden game's state hashes, from the umpire's chain seed: secret until the
    umpire publishes it with the orders after the game."""
    return hmac.new(seed, canonical_bytes({"ds": STATE_SALT_DS, "game": game}), hashlib.sha256).digest()


def hidden_state_hash(state: Any, salt: bytes | None) -> str:
    """What a turn file of a game with hidden information holds for a state: SHA-256 of its
    canonical JSON, salted (``salt``) so that a guess of the state cannot be tested against it."""
    if salt is None:
        return hashlib.sha256(canonical_bytes(state)).hexdigest()
    return hashlib.sha256(canonical_bytes({"ds": HIDDEN_STATE_DS, "salt": salt.hex(), "state": state})).hexdigest()


def publication_body(game: str, opened: dict[int, tuple[Any, bytes]],
                     scenario: dict[str, Any] | None = None, salt: bytes | None = None) -> dict[str, Any]:
    """The umpire's publication after a game with hidden information: every sealed order with its
    salt, by the step of its commitment, so that anyone can check every commitment, recompute
    every state and compare it with the hash each turn file holds (P10); with a secret set-up, the
    whole scenario (salted) the genesis committed to."""
    body = {"ds": PUBLICATION_DS, "game": game,
            "orders": {str(step): {"orders": o, "salt": salt.hex()} for step, (o, salt) in sorted(opened.items())}}
    if scenario is not None:
        body["scenario"] = scenario
    if salt is not None:
        body["state_salt"] = salt.hex()
    return body


def publication_problem(genesis: Any, whole: dict[str, Any] | None, salt: bytes | None) -> str | None:
    """What a parsed publication lacks that the game's genesis (an ``archive.GenesisBody``)
    promises -- the whole scenario of a secret set-up, the salt of salted state hashes -- or
    ``None`` [P10]. One check for ``pbem ingest`` and for every pbem reading the file."""
    from pbem.engine.scenarios import content_hash

    if genesis.scenario.copies is not None and (whole is None or content_hash(whole) != genesis.scenario.sha256):
        return "does not hold the whole scenario the genesis commits to (this game's set-up was secret) [P10]"
    if genesis.salted and salt is None:
        return "has no salt of the state hashes, which this game's genesis says are salted [P10]"
    return None


def parse_publication(raw: bytes, game: str, umpire_key: Any, fingerprint: str) -> dict[int, tuple[Any, bytes]]:
    """Check the umpire's signature and the form of a publication; commit step -> (orders, salt)."""
    return parse_publication_full(raw, game, umpire_key, fingerprint)[0]


def parse_publication_full(raw: bytes, game: str, umpire_key: Any, fingerprint: str
                           ) -> tuple[dict[int, tuple[Any, bytes]], dict[str, Any] | None, bytes | None]:
    """:func:`parse_publication`, the whole scenario it carries (a secret set-up) or ``None``, and
    the salt of the state hashes (a game whose genesis says they are salted) or ``None``."""
    import json

    from pbem.errors import InputError
    from pbem.protocol.canonical import canonical_bytes, loads_strict
    from pbem.protocol.dsse import parse_envelope_body, verify

    env, body = parse_envelope_body(raw, max_bytes=MAX_PUBLICATION_BYTES, what=PUBLICATION_NAME)
    verify(env, PUBLICATION_TYPE, {fingerprint: umpire_key}, body=body)  # the payload decoded once
    value = loads_strict(body, max_bytes=MAX_PUBLICATION_BYTES, what=PUBLICATION_NAME)
    if canonical_bytes(value) != body:
        raise InputError("the publication is not canonical JSON")
    if not isinstance(value, dict) or value.get("ds") != PUBLICATION_DS or value.get("game") != game \
            or not isinstance(value.get("orders"), dict) \
            or not set(value) <= {"ds", "game", "orders", "scenario", "state_salt"} \
            or not isinstance(value.get("scenario", {}), dict) \
            or not _HEX64.match(str(value.get("state_salt", "0" * 64))):
        raise InputError(f"not a publication of game {game}: {json.dumps(value)[:80]}")
    out: dict[int, tuple[Any, bytes]] = {}
    for step, entry in value["orders"].items():
        opened = parse_reveal(entry)
        if not step.isdigit() or opened is None:
            raise InputError(f"publication entry {step[:12]!r} is malformed")
        out[int(step)] = opened
    salt = value.get("state_salt")
    return out, value.get("scenario"), bytes.fromhex(salt) if isinstance(salt, str) else None


def open_view(report: Any, key: Any, *, game: str, step: int, side: str, umpire: str) -> Any | None:
    """The view an umpire's report (its ``report`` orders, signed at ``step``) sealed to ``side``,
    opened with ``side``'s X25519 ``key``; ``None`` when the report holds none for it. The one
    place a report is opened [P10]."""
    from pbem.protocol.seal import open_sealed  # cryptography's HPKE: ~100 ms, hidden games only

    sealed = report["views"].get(side)
    if sealed is None:
        return None
    return open_sealed(sealed, key, game=game, step=step, sender=umpire, to=side, what="report")


def open_sealed_key(ack: Any, umpire_key: Any, *, game: str, step: int, side: str, umpire: str) -> bytes:
    """The key of ``side``'s copy that its acknowledgement (orders ``ack``, at ``step``) released to
    the umpire; ``ValueError`` (or :class:`pbem.errors.PbemError`) when it does not open."""
    from pbem.protocol.seal import open_sealed

    released = open_sealed(ack["key"], umpire_key, game=game, step=step, sender=side, to=umpire, what="copy key")
    if not isinstance(released, str) or not _HEX64.match(released):
        raise ValueError("the acknowledgement does not release a 32-byte key")
    return bytes.fromhex(released)


def open_side_copy(commit: Any, ack: Any, umpire_key: Any, *, game: str, commit_step: int, ack_step: int,
                   side: str, umpire: str) -> tuple[Any, bytes]:
    """``(orders, salt)`` of ``side``'s copy for the umpire: with ``ack`` (an acknowledged round) the
    copy's key is opened from the acknowledgement with the umpire's key, checked against the hash
    the commitment carries, and opens the copy; without, the copy itself is sealed to the umpire.
    ``ValueError`` (or :class:`pbem.errors.PbemError`) says what does not open."""
    from pbem.protocol.seal import open_sealed

    if ack is None:
        opened = open_sealed(commit["umpire"], umpire_key, game=game, step=commit_step, sender=side, to=umpire,
                             what="sealed orders")
    else:
        key = open_sealed_key(ack, umpire_key, game=game, step=ack_step, side=side, umpire=umpire)
        if key_hash(key) != commit.get("key"):
            raise ValueError("the key the acknowledgement releases is not the one the commitment names")
        opened = open_copy(commit["umpire"], key, game=game, step=commit_step, side=side)
    if not isinstance(opened, dict) or set(opened) != {"orders", "salt"} or not isinstance(opened["salt"], str) \
            or not _HEX64.match(opened["salt"]):
        raise ValueError("the sealed copy is not {orders, salt}")
    return opened["orders"], bytes.fromhex(opened["salt"])


def split_void(orders: Any) -> tuple[Any, dict[str, str]]:
    """A ruling's orders without its ``"void"`` part, and that part: side -> the key of its sealed
    copy, which the umpire publishes to show that the copy does not hold the orders the side
    committed to (an acknowledged round) [29]."""
    if not isinstance(orders, dict) or "void" not in orders:
        return orders, {}
    void = orders["void"]
    rest = {k: v for k, v in orders.items() if k != "void"}
    if not isinstance(void, dict) or not void or not all(
            isinstance(k, str) and isinstance(v, str) and _HEX64.match(v) for k, v in void.items()):
        raise ValueError('a ruling\'s "void" names sides and the 64-hex-digit key of each one\'s copy')
    return rest, dict(void)


def void_proof(commit: Any, key_hex: str, *, game: str, commit_step: int, side: str) -> str | None:
    """Why ``key_hex`` proves that ``side``'s sealed copy lies (``None``: it does not): the key is
    the one the side's signed commitment names by its hash, and the copy it opens does not hold the
    orders the commitment hashes (or does not open at all)."""
    key = bytes.fromhex(key_hex)
    if key_hash(key) != commit.get("key"):
        return None
    try:
        opened = open_copy(commit.get("umpire"), key, game=game, step=commit_step, side=side)
    except ValueError:
        return "its copy does not open with the key its commitment names"
    if not isinstance(opened, dict) or set(opened) != {"orders", "salt"} or not isinstance(opened["salt"], str) \
            or not _HEX64.match(opened["salt"]):
        return "its copy is not {orders, salt}"
    if commitment(opened["orders"], bytes.fromhex(opened["salt"])) != commit.get("sealed"):
        return "its copy holds other orders than the ones it committed to"
    return None
