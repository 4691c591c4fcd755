"""Write the frozen compatibility corpus (issue 23, "archives that outlive versions").

    .venv/bin/python tests/compat/generate.py OUT_DIR            # every case
    .venv/bin/python tests/compat/generate.py OUT_DIR megagame   # only the cases named

One FINISHED game directory per case (``CASES``) is written into ``OUT_DIR`` -- only the game
directory (genesis, scenario, joins, moves, receipts, turn files, the publication, derived files):
keys, chain seeds and every other private state live in a temporary ``PBEM_HOME`` that is deleted.
``tests/release/test_compat.py`` then asks every later pbem to ``pbem verify`` them. The committed corpus
in ``tests/compat/`` is FROZEN: it is written once, by the pbem named in its README, and never
regenerated (see ``tests/compat/README.md``).

Everything is fixed, so running this twice gives the same files byte for byte (``diff -r``):

* keys: the two EXAMPLE keys of ``examples/keys/`` (published: never use them for a real game) and,
  for games with more sides than two, Ed25519 keys whose 32-byte private seeds are
  ``SHA-256("pbem/compat-corpus/key/v1/" + name)`` -- as public as the example keys;
* game ids, chain nonces (``--nonce``, ``join --nonce``) and the bots' seeds;
* HPKE encryption (orders sealed to Game Control, the views it seals to each side): pbem draws a
  fresh ephemeral key for each ciphertext (``pbem.protocol.seal``), the one thing it signs that is
  not a function of its inputs. This script swaps in :class:`DeterministicHPKE`, the same RFC 9180
  base-mode suite (DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20-Poly1305) whose ephemeral
  key is derived from the recipient, the ``info`` and the plaintext; its ciphertexts are checked
  to open with pbem's own suite. Nothing recomputes a ciphertext, so an archive written this way
  verifies exactly like one written by ``pbem`` itself.

The long WestWall and Arnhem 1944 games are kept without most of their derived files (see
``KEEP_DERIVED``): a map and an email per step would add some 35 megabytes, and ``pbem
verify`` checks only the derived files present (``pbem.engine.derived``; every line stays in
``derived.sha256``).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import io
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
EXAMPLE_KEYS = ROOT / "examples" / "keys"
NONCE = "c0" * 32
"""The chain nonce of every side the game's creator plays (pbem draws a fresh one for real games)."""
JOIN_NONCE = "d1" * 32
"""The chain nonce of a side that joins by invitation (the receipts case)."""
SEED = 0
"""The sparring bots' tie-break seed."""
KEY_SEED_DS = b"pbem/compat-corpus/key/v1/"


# ------------------------------------------------------------------------------------------------
# Running pbem in-process
# ------------------------------------------------------------------------------------------------


def run(*args: str | Path) -> str:
    """``pbem ARGS`` in-process (``PBEM_HOME`` as set); returns its output; any failure stops."""
    from pbem.cli import main

    out, err = io.StringIO(), io.StringIO()
    code: Any = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main([str(a) for a in args])
        except SystemExit as exc:
            code = exc.code
    if code not in (0, None):
        raise SystemExit(f"pbem {' '.join(str(a) for a in args)} failed ({code}):\n{err.getvalue()}{out.getvalue()}")
    return out.getvalue()


@contextlib.contextmanager
def home_at(path: Path) -> Iterator[None]:
    """``PBEM_HOME=path`` (no passphrases) for the commands run inside."""
    old = {k: os.environ.get(k) for k in ("PBEM_HOME", "PBEM_PASSPHRASE")}
    os.environ["PBEM_HOME"] = str(path)
    os.environ["PBEM_PASSPHRASE"] = ""
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextlib.contextmanager
def home(prefix: str) -> Iterator[Path]:
    """A throwaway ``PBEM_HOME`` (keys, seeds: never copied into the corpus)."""
    with tempfile.TemporaryDirectory(prefix=f"pbem-compat-{prefix}-") as tmp, home_at(Path(tmp)):
        yield Path(tmp)


def import_key(name: str, work: Path) -> None:
    """Import key ``name`` into the current ``PBEM_HOME``: an example key from ``examples/keys``,
    or a key derived from its name (:data:`KEY_SEED_DS`)."""
    path = EXAMPLE_KEYS / f"{name}.key"
    if not path.exists():
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        from cryptography.hazmat.primitives.serialization import (
            Encoding,
            NoEncryption,
            PrivateFormat,
        )

        seed = hashlib.sha256(KEY_SEED_DS + name.encode("ascii")).digest()
        pem = Ed25519PrivateKey.from_private_bytes(seed).private_bytes(
            Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
        work.mkdir(parents=True, exist_ok=True)
        path = work / f"{name}.key"
        path.write_bytes(pem)
    run("key", "import", path, "--name", name, "--no-passphrase")


def public_file(name: str, work: Path) -> Path:
    """The public key of local key ``name`` as a file (an invitation names the invitee by it)."""
    src = Path(os.environ["PBEM_HOME"]) / "keys" / f"{name}.pub"
    dst = work / f"{name}.pub"
    shutil.copyfile(src, dst)
    return dst


def players(sides: dict[str, str]) -> list[str]:
    return [x for side, key in sides.items() for x in ("--player", f"{side}={key}")]


def quiet(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return fn(*args, **kwargs)


# ------------------------------------------------------------------------------------------------
# Deterministic HPKE (see the module docstring)
# ------------------------------------------------------------------------------------------------


def _extract(salt: bytes, ikm: bytes) -> bytes:
    return hmac.new(salt, ikm, hashlib.sha256).digest()


def _expand(prk: bytes, info: bytes, length: int) -> bytes:
    out, block, i = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([i]), hashlib.sha256).digest()
        out += block
        i += 1
    return out[:length]


class DeterministicHPKE:
    """RFC 9180 base mode, DHKEM(X25519, HKDF-SHA256) / HKDF-SHA256 / ChaCha20-Poly1305, single
    shot (``enc || ciphertext``, the format of :class:`cryptography.hazmat.primitives.hpke.Suite`),
    with the ephemeral key derived from its inputs. ``decrypt`` is pbem's own suite."""

    KEM_SUITE = b"KEM" + (0x0020).to_bytes(2, "big")
    HPKE_SUITE = b"HPKE" + (0x0020).to_bytes(2, "big") + (0x0001).to_bytes(2, "big") + (0x0003).to_bytes(2, "big")

    def __init__(self, real: Any) -> None:
        self.real = real

    @staticmethod
    def _labeled_extract(suite: bytes, salt: bytes, label: bytes, ikm: bytes) -> bytes:
        return _extract(salt, b"HPKE-v1" + suite + label + ikm)

    @staticmethod
    def _labeled_expand(suite: bytes, prk: bytes, label: bytes, info: bytes, length: int) -> bytes:
        return _expand(prk, length.to_bytes(2, "big") + b"HPKE-v1" + suite + label + info, length)

    def encrypt(self, plaintext: bytes, public_key: Any, info: bytes | None = None) -> bytes:
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
        from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

        info = info or b""
        pk_r = public_key.public_bytes(Encoding.Raw, PublicFormat.Raw)
        ikm = b"pbem/compat-corpus/hpke-ephemeral/v1" + pk_r + len(info).to_bytes(8, "big") + info + plaintext
        sk_e = X25519PrivateKey.from_private_bytes(hashlib.sha256(ikm).digest())
        enc = sk_e.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        dh = sk_e.exchange(public_key)
        eae_prk = self._labeled_extract(self.KEM_SUITE, b"", b"eae_prk", dh)
        shared = self._labeled_expand(self.KEM_SUITE, eae_prk, b"shared_secret", enc + pk_r, 32)
        s = self.HPKE_SUITE
        context = (b"\x00" + self._labeled_extract(s, b"", b"psk_id_hash", b"")
                   + self._labeled_extract(s, b"", b"info_hash", info))
        secret = self._labeled_extract(s, shared, b"secret", b"")
        key = self._labeled_expand(s, secret, b"key", context, 32)
        nonce = self._labeled_expand(s, secret, b"base_nonce", context, 12)
        return enc + ChaCha20Poly1305(key).encrypt(nonce, plaintext, b"")

    def decrypt(self, ciphertext: bytes, private_key: Any, info: bytes | None = None) -> bytes:
        out: bytes = self.real.decrypt(ciphertext, private_key, info)
        return out


def deterministic_hpke() -> None:
    """Swap :class:`DeterministicHPKE` into :mod:`pbem.protocol.seal` (this process only), after
    checking that pbem's own suite opens what it seals."""
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    from pbem.protocol import seal

    if isinstance(seal._SUITE, DeterministicHPKE):
        return
    suite = DeterministicHPKE(seal._SUITE)
    sk = X25519PrivateKey.from_private_bytes(bytes(range(32)))
    for text, info in ((b"", b""), (b"pbem" * 1000, b"info")):
        ct = suite.encrypt(text, sk.public_key(), info)
        if ct != suite.encrypt(text, sk.public_key(), info) or seal._SUITE.decrypt(ct, sk, info) != text:
            raise SystemExit("DeterministicHPKE does not match pbem's HPKE suite")
    seal._SUITE = suite  # type: ignore[assignment]


# ------------------------------------------------------------------------------------------------
# The cases
# ------------------------------------------------------------------------------------------------


def _autoplay(out: Path, scenario: str, sides: dict[str, str], game_id: str) -> str:
    """A two-player game hot seat, the sparring bot on both sides, with maps and mails."""
    from pbem.engine.autoplay import autoplay
    from pbem.outputs import engine_hooks

    with home(out.name) as h:
        for key in sorted(set(sides.values())):
            import_key(key, h / "work")
        run("new", scenario, out, *players(sides), "--game-id", game_id, "--nonce", NONCE)
        rp = quiet(autoplay, out, seed=SEED, hooks=engine_hooks())
    if rp.tail_open or rp.current.pending or not rp.current.turn["outcome"]:
        raise SystemExit(f"{out.name}: the game did not end")
    return str(rp.current.turn["outcome"]["summary"])


def _ends(name: str, last: int) -> bool:
    """The board, the maps and mails of the first two steps and of the last step."""
    return name == "board.svg" or _step(name) in (0, 1, 2, last)


KEEP_DERIVED: dict[str, Callable[[str, int], bool]] = {
    "bastogne-campaign": _ends,  # 38 steps
    "arnhem-historical": _ends,  # 20 steps: 4 MB more
    "arnhem-alternate": _ends,  # 22 steps: 4 MB more
    "arnhem1944-historical": _ends,  # 240 steps: 25 MB more
}
"""Per case, which derived files (maps, mails) to keep; a case not named (the megagame) keeps
them all. ``pbem verify`` checks every derived file present against ``derived.sha256`` and skips
the lines of those absent (:mod:`pbem.engine.derived`), so what is kept is still checked."""


def _step(name: str) -> int:
    digits = "".join(c for c in name.split(".")[0] if c.isdigit())
    return int(digits) if digits else -1


def _prune(out: Path) -> None:
    from pbem.engine.derived import DERIVED

    keep = KEEP_DERIVED.get(out.name)
    if keep is None:
        return
    last = max(_step(p.name) for p in out.glob("turn-*.json"))
    for p in sorted(out.iterdir()):
        if DERIVED.match(p.name) and not keep(p.name, last):
            p.unlink()


def bastogne_campaign(out: Path) -> str:
    """The WestWall Bastogne Campaign Game [15.3], the sparring bot on both sides."""
    return _autoplay(out, "bastogne-campaign", {"DE": "example-de", "US": "example-us"},
                     "c0a1c0a1c0a1c0a1c0a1c0a1c0a10001")


def arnhem_alternate(out: Path) -> str:
    """SPI Arnhem, the alternate scenario [18.2]: the Allied drop zones noted in secret, committed
    before the German set-up and revealed after it [15.35-15.39]; weather."""
    return _autoplay(out, "arnhem-alternate", {"AL": "example-us", "DE": "example-de"},
                     "c0a1c0a1c0a1c0a1c0a1c0a1c0a10002")


def arnhem_historical(out: Path) -> str:
    """SPI Arnhem, the historical scenario [18.1]: the drop zones of history."""
    return _autoplay(out, "arnhem-historical", {"AL": "example-us", "DE": "example-de"},
                     "c0a1c0a1c0a1c0a1c0a1c0a1c0a10003")


def arnhem1944_historical(out: Path) -> str:
    """Vae Victis Arnhem 1944, historic drop [17.3]: alternating activations."""
    return _autoplay(out, "arnhem1944-historical", {"AL": "example-us", "DE": "example-de"},
                     "c0a1c0a1c0a1c0a1c0a1c0a1c0a10004")


MEGAGAME = "megagame-arnhem"


def megagame(out: Path, game_id: str = "c0a1c0a1c0a1c0a1c0a1c0a1c0a10005") -> str:
    """The megagame (Game Control and three teams): sealed order sheets, rulings, hidden views,
    every team's and Game Control's bot; Game Control publishes after the game."""
    from pbem.engine.autoplay import autoplay_rounds
    from pbem.engine.scenarios import load_data
    from pbem.outputs import engine_hooks

    teams = [t["id"] for t in load_data(MEGAGAME)["teams"]]
    sides = {"GC": "compat-gc", **{t: f"compat-{t.lower()}" for t in teams}}
    with home(out.name) as h:
        for key in sorted(sides.values()):
            import_key(key, h / "work")
        run("new", MEGAGAME, out, *players(sides), "--game-id", game_id,
            "--nonce", NONCE)
        quiet(autoplay_rounds, out, seed=SEED, hooks=engine_hooks())
        outcome = json.loads(run("status", out, "--json"))["outcome"]
        run("publish", out, "--key", sides["GC"])
    if not outcome:
        raise SystemExit(f"{out.name}: the game did not end")
    return str(outcome.get("summary", outcome))


AUCTION = {"id": "compat-auction", "system": "auction",
           "title": "Toy sealed-bid auction: three sides, three rounds (invented numbers)",
           "sides": ["A", "B", "C"], "coins": 10, "rounds": 3, "prize": 3}
AUCTION_UMPIRED = {"id": "compat-auction-umpired", "system": "auction",
                   "title": "Toy sealed-bid auction with Game Control (invented numbers)",
                   "sides": ["A", "B", "C"], "umpire": "GC", "coins": 10, "rounds": 2, "prize": 3}
AUCTION_HIDDEN = {"id": "compat-auction-hidden", "system": "auction-hidden",
                  "title": "Toy sealed-bid auction with hidden holdings and Game Control (invented numbers)",
                  "sides": ["A", "B", "C"], "umpire": "GC", "coins": 10, "rounds": 2, "prize": 3}
BIDS = [{"A": 3, "B": 3, "C": 1}, {"A": 5, "B": 1, "C": 4}, {"A": 2, "B": 2, "C": 2}]
"""Round by round (ties, so the tie-break dice roll [S3])."""
RULINGS = [{"reserve": 2, "bonus": "C"}, {"reserve": 0, "bonus": None}]


def _auction(out: Path, data: dict[str, Any], game_id: str, *, publish: bool) -> str:
    """A toy auction hot seat through the commands: bids, Game Control's rulings and reports."""
    umpire = data.get("umpire")
    sides = {s: f"compat-{s.lower()}" for s in [*data["sides"], *([umpire] if umpire else [])]}
    with home(out.name) as h:
        work = h / "work"
        for key in sorted(sides.values()):
            import_key(key, work)
        scenario = work / f"{data['id']}.json"
        scenario.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        run("new", scenario, out, *players(sides), "--game-id", game_id, "--nonce", NONCE)
        for r in range(1, data["rounds"] + 1):
            for s in data["sides"]:
                orders = work / f"bid-{r}-{s}.json"
                orders.write_text(json.dumps({"kind": "bid", "side": s, "round": r,
                                              "coins": BIDS[r - 1][s]}), encoding="utf-8")
                run("submit", "--yes", out, orders, "--key", sides[s])
            if umpire or len(data["sides"]) >= 3:  # acknowledged rounds (genesis "rounds": 2)
                for s in data["sides"]:
                    run("reveal", out, "--key", sides[s], "--yes")
            if umpire:
                rulings = work / f"rulings-{r}.json"
                rulings.write_text(json.dumps(RULINGS[(r - 1) % len(RULINGS)]), encoding="utf-8")
                run("rule", out, rulings, "--key", sides[umpire], "--yes")
            for s in data["sides"]:
                run("reveal", out, "--key", sides[s], "--yes")
            if data["system"] == "auction-hidden":
                run("report", out, "--key", sides[umpire], "--yes")
        status = json.loads(run("status", out, "--json"))
        if publish:
            run("publish", out, "--key", sides[umpire])
    if not status["outcome"]:
        raise SystemExit(f"{out.name}: the game did not end: {status}")
    return str(status["outcome"].get("summary", status["outcome"]))


def auction_sealed(out: Path, game_id: str = "c0a1c0a1c0a1c0a1c0a1c0a1c0a10006") -> str:
    """The toy ``auction``: sealed simultaneous bids (commit, then reveal), tie-break dice."""
    return _auction(out, AUCTION, game_id, publish=False)


def auction_umpired(out: Path, game_id: str = "c0a1c0a1c0a1c0a1c0a1c0a1c0a10007") -> str:
    """The toy ``auction`` with Game Control: bids sealed to the umpire, rulings before reveals."""
    return _auction(out, AUCTION_UMPIRED, game_id, publish=False)


def auction_hidden(out: Path, game_id: str = "c0a1c0a1c0a1c0a1c0a1c0a1c0a10008") -> str:
    """The toy ``auction-hidden``: hidden holdings, Game Control's sealed reports, its publication."""
    return _auction(out, AUCTION_HIDDEN, game_id, publish=True)


TOY_DUEL = {"id": "compat-toy-duel", "system": "toy", "title": "Toy duel: two sides, two rounds",
            "sides": [{"id": "A", "name": "Alpha"}, {"id": "B", "name": "Bravo"}], "rounds": 2}
TOY_SCRIPT: list[tuple[str, dict[str, Any]]] = [
    ("A", {"kind": "setup", "side": "A", "handicap": 2}),
    ("B", {"kind": "setup", "side": "B", "handicap": 1}),
    ("A", {"kind": "roll", "side": "A", "round": 1, "dice": 2}),
    ("B", {"kind": "roll", "side": "B", "round": 1, "dice": 3, "cheer": "go"}),
    ("A", {"kind": "roll", "side": "A", "round": 2, "dice": 1}),
    ("B", {"kind": "roll", "side": "B", "round": 2, "dice": 2}),
    ("A", {"kind": "acknowledge", "side": "A"}),
]


def receipts(out: Path) -> str:
    """The toy duel by invitation between two players, each with their own home and directory:
    B joins; after every move that waits for the other's reveal, the other signs a receipt
    (``ingest --receipt``), so the mover sees its dice at once. The corpus keeps A's directory."""
    keys = {"A": "example-de", "B": "example-us"}
    with tempfile.TemporaryDirectory(prefix="pbem-compat-receipts-") as tmp:
        root = Path(tmp)
        homes = {s: root / f"home-{s}" for s in keys}
        dirs = {"A": out, "B": root / "game-B"}
        inbox = {s: root / f"inbox-{s}" for s in keys}
        for p in inbox.values():
            p.mkdir()

        def as_side(side: str, *args: str | Path) -> str:
            with home_at(homes[side]):
                return run(*args)

        for s, k in keys.items():
            with home_at(homes[s]):
                import_key(k, root / "work")
        with home_at(homes["B"]):
            b_pub = public_file(keys["B"], root)
        scenario = root / "compat-toy-duel.json"
        scenario.write_text(json.dumps(TOY_DUEL, indent=2) + "\n", encoding="utf-8")
        as_side("A", "new", scenario, out, "--player", f"A={keys['A']}", "--player", f"B={b_pub}",
                "--game-id", "c0a1c0a1c0a1c0a1c0a1c0a1c0a10009", "--nonce", NONCE)
        shutil.copytree(out, dirs["B"])
        as_side("B", "join", dirs["B"], "--key", keys["B"], "--nonce", JOIN_NONCE)

        def send(sender: str, names: list[str]) -> None:
            other = "B" if sender == "A" else "A"
            for n in names:
                shutil.copyfile(dirs[sender] / n, inbox[other] / n)
            as_side(other, "ingest", dirs[other], *[inbox[other] / n for n in names],
                    "--receipt", keys[other])

        send("B", ["join-B.json"])
        receipts_sent = 0
        for step, (side, orders) in enumerate(TOY_SCRIPT, start=1):
            path = root / f"orders-{step}.json"
            path.write_text(json.dumps(orders), encoding="utf-8")
            as_side(side, "submit", "--yes", dirs[side], path, "--key", keys[side])
            send(side, [f"move-{step:04d}-{side}.json"])
            other = "B" if side == "A" else "A"
            receipt = dirs[other] / f"receipt-{step:04d}-{other}.json"
            if receipt.exists():
                send(other, [receipt.name])
                receipts_sent += 1
        if receipts_sent == 0:
            raise SystemExit("receipts: no receipt was written")
        mine = {p.name: p.read_bytes() for p in out.iterdir()}
        theirs = {p.name: p.read_bytes() for p in dirs["B"].iterdir()}
        if mine != theirs:
            raise SystemExit(f"receipts: the two directories differ: {sorted(set(mine) ^ set(theirs))}")
        with home_at(root / "stranger"):
            status = json.loads(run("status", out, "--json"))
    if not status["outcome"]:
        raise SystemExit(f"receipts: the game did not end: {status}")
    return f"{receipts_sent} receipts; " + str(status["outcome"].get("summary", status["outcome"]))


def _acked(case: Callable[..., str], game_id: str) -> Callable[[Path], str]:
    """The same game under another id: the cases written after sealed rounds became acknowledged
    (genesis ``"rounds": 2``) beside the frozen ones of the first layout."""
    def run_case(out: Path) -> str:
        return case(out, game_id)
    run_case.__doc__ = f"{case.__doc__} Acknowledged rounds."
    return run_case


CASES: dict[str, Callable[[Path], str]] = {
    "bastogne-campaign": bastogne_campaign,
    "arnhem-historical": arnhem_historical,
    "arnhem-alternate": arnhem_alternate,
    "arnhem1944-historical": arnhem1944_historical,
    "megagame": megagame,
    "auction-sealed": auction_sealed,
    "auction-umpired": auction_umpired,
    "auction-hidden": auction_hidden,
    "receipts": receipts,
    "megagame-acked": _acked(megagame, "c0a1c0a1c0a1c0a1c0a1c0a1c0a1000c"),
    "auction-sealed-acked": _acked(auction_sealed, "c0a1c0a1c0a1c0a1c0a1c0a1c0a10009"),
    "auction-umpired-acked": _acked(auction_umpired, "c0a1c0a1c0a1c0a1c0a1c0a1c0a1000a"),
    "auction-hidden-acked": _acked(auction_hidden, "c0a1c0a1c0a1c0a1c0a1c0a1c0a1000b"),
}
"""Directory name -> the function that plays the case into it (``tests/release/test_compat.py`` expects
every one of these names)."""


def generate(out_dir: Path, names: list[str] | None = None) -> None:
    import time

    frozen = [n for n in CASES if (HERE / n).exists()]
    if out_dir.resolve() == HERE and frozen:
        raise SystemExit(f"{HERE} already holds the frozen corpus ({', '.join(frozen)}): it is never "
                         "regenerated (README.md); write to another directory")
    import pbem

    deterministic_hpke()
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in names or list(CASES):
        if name not in CASES:
            raise SystemExit(f"no case {name!r} (cases: {', '.join(CASES)})")
        target = out_dir / name
        if target.exists():
            shutil.rmtree(target)
        t0 = time.perf_counter()
        summary = CASES[name](target)
        _prune(target)
        size = sum(p.stat().st_size for p in target.iterdir())
        print(f"{name}: {len(list(target.iterdir()))} files, {size / 1024:.0f} KiB, "
              f"{time.perf_counter() - t0:.1f} s: {summary}", flush=True)
    print(f"written by pbem {pbem.__version__} ({Path(pbem.__file__).parent})")


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        raise SystemExit(__doc__.splitlines()[2].strip())
    import importlib.util

    if importlib.util.find_spec("pbem") is None:  # a checkout never installed; else the installed pbem
        sys.path.insert(0, str(ROOT))
    generate(Path(sys.argv[1]).resolve(), sys.argv[2:] or None)
