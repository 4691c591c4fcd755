"""A player's private per-game state, kept outside the game directory.

``<pbem home>/games/<GAME_ID>/`` holds:

* ``genesis.sha256`` -- the hash of the genesis body this directory belongs to. A second game
  offered under an id this machine already plays (an inviter re-using a game id, P3) is refused by
  name instead of mixing its seeds and P7 records with the first game's;
* ``sides.json`` -- which local key plays which side (``{"DE": "alice"}``);
* ``<SIDE>.seed`` -- the side's dice-chain seed (hex, mode 0600). It can always be re-derived from
  the private key (:func:`pbem.protocol.dice.chain_seed`), so losing this directory never strands a game;
  keeping it means adjudication needs no passphrase;
* ``signed/<step>-<SIDE>.json`` -- the exact envelope bytes signed for a step (P7): the tool refuses
  to sign a different body for a step it has already signed, and re-sends the same bytes instead.
* ``signed/<step>-<SIDE>.sealed.json`` -- the orders behind a sealed commitment signed at that step,
  kept private until ``pbem reveal`` publishes them with their salt (:mod:`pbem.engine.sealed`).
  Written just before the P7 record (never after it), and removed with it when the commitment's
  move file did not stay written.
* ``drafted/<key>`` -- one line ``<sha256>  <name>`` for each email pbem drafted into the game
  directory here, written before the email is: ``pbem send`` sends only a draft whose name and
  bytes are recorded (:func:`drafted_here`). The record is here, not in the game directory, so a
  file put there by anyone else (and a line added to its ``derived.sha256``) is never sent from
  this player's account.

Nothing here is ever copied into the game directory, which players zip and mail.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pbem.errors import InputError
from pbem.protocol.fsutil import write_new, write_replace

if TYPE_CHECKING:
    from pbem.protocol.archive import GenesisBody, Message


class GameLike(Protocol):
    """What this module reads of an opened game (:class:`pbem.engine.gamedir.Game` is one): the
    protocol layer knows no engine, so it names what it needs instead of guessing."""

    id: str
    dir: Path
    genesis: Message
    body: GenesisBody
    chain_length: int
    sides: list[str]
    umpire: str | None
    copy_of: str | None

    def commitment(self, side: str) -> str | None: ...

    def nonce(self, side: str) -> bytes | None: ...


class LocalGame:
    """The private directory of one game on this machine, bound to one genesis."""

    def __init__(self, game_id: str, genesis_hash: str, root: Path | None = None) -> None:
        from pbem.protocol.keys import home

        self.game_id = game_id
        self.genesis_hash = genesis_hash
        self.dir = (root if root is not None else home()) / "games" / game_id
        self.check_binding()

    @classmethod
    def of(cls, game: GameLike, root: Path | None = None) -> LocalGame:
        """The local directory of an opened :class:`pbem.engine.Game`. A directory holding one
        side's copy of a secret set-up (``game.copy_of``) is refused on a machine that plays other
        sides of the game and not that one: its pbem would play from another side's knowledge."""
        local = cls(game.id, game.genesis.body_hash, root)
        copy_of = game.copy_of
        if copy_of is not None:
            mine = local.sides()
            if mine and copy_of not in mine:
                # no path: on 'pbem join' the copy sits in a temporary directory the player never named
                raise InputError(f"this is {copy_of}'s copy of the scenario, and this pbem home already plays "
                                 f"{', '.join(sorted(mine))} in this game: use the copy your own invitation "
                                 f"carried, or play {copy_of} from a pbem home of its own (PBEM_HOME)")
        return local

    def check_binding(self) -> None:
        """Refuse a directory that belongs to another genesis with the same game id."""
        path = self.dir / "genesis.sha256"
        try:
            recorded = path.read_text(encoding="ascii").strip() if path.is_file() else None
        except (OSError, ValueError):
            raise InputError(f"{path}: unreadable local state") from None
        if recorded is not None and recorded != self.genesis_hash:
            raise InputError(
                f"this machine already plays another game with id {self.game_id[:8]} (genesis "
                f"{recorded[:16]}…, this one {self.genesis_hash[:16]}…): a game id used twice is "
                "refused, since it could replay a dice chain [P3]; ask for a fresh invitation "
                f"(local state: {self.dir})"
            )

    def _ensure(self) -> None:
        try:
            self.dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            (self.dir / "signed").mkdir(mode=0o700, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create {self.dir}: {exc.strerror}") from None
        from pbem.protocol.fsutil import clean_stale_temps

        clean_stale_temps(self.dir)
        clean_stale_temps(self.dir / "signed")
        binding = self.dir / "genesis.sha256"
        if not binding.exists():
            write_new(binding, (self.genesis_hash + "\n").encode("ascii"), mode=0o600)

    # sides ----------------------------------------------------------------------------------------

    def sides(self) -> dict[str, str]:
        """Side -> local key name, for the sides this machine plays."""
        path = self.dir / "sides.json"
        if not path.is_file():
            return {}
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputError(f"{path}: unreadable local state ({exc})") from None
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            raise InputError(f"{path}: expected an object side -> key name")
        return dict(data)

    def set_side(self, side: str, key_name: str) -> None:
        self._ensure()
        sides = self.sides()
        if sides.get(side) == key_name:
            return
        sides[side] = key_name
        text = json.dumps(sides, indent=2, sort_keys=True) + "\n"
        write_replace(self.dir / "sides.json", text.encode("utf-8"))

    # seeds ----------------------------------------------------------------------------------------

    def seed(self, side: str) -> bytes | None:
        path = self.dir / f"{side}.seed"
        if not path.is_file():
            return None
        try:
            return bytes.fromhex(path.read_text(encoding="ascii").strip())
        except (OSError, ValueError):
            raise InputError(f"{path}: not a hex seed") from None

    def save_seed(self, side: str, seed: bytes) -> None:
        self._ensure()
        path = self.dir / f"{side}.seed"
        data = (seed.hex() + "\n").encode("ascii")
        if path.exists():
            if path.read_bytes() == data:
                return
            write_replace(path, data, mode=0o600)
        else:
            write_new(path, data, mode=0o600)
        os.chmod(path, 0o600)

    # P7 records -----------------------------------------------------------------------------------

    def _record_path(self, step: int, side: str, version: int = 0) -> Path:
        """Version R > 0: the redo after the R-th take-back of ``step`` agreed by both sides."""
        return self.dir / "signed" / (f"{step:04d}-{side}-redo{version}.json" if version else f"{step:04d}-{side}.json")

    def signed(self, step: int, side: str, version: int = 0) -> bytes | None:
        """The envelope bytes already signed for ``step`` by ``side`` on this machine, if any."""
        path = self._record_path(step, side, version)
        return path.read_bytes() if path.is_file() else None

    def record_signed(self, step: int, side: str, envelope: bytes, version: int = 0) -> None:
        """Keep the exact envelope bytes signed for a step (never overwritten)."""
        self._ensure()
        # journal=False: a command that fails later never removes what was signed (P7)
        write_new(self._record_path(step, side, version), envelope, mode=0o600, journal=False)

    # emails drafted here --------------------------------------------------------------------------

    def record_draft(self, name: str, data: bytes) -> None:
        """Record that pbem drafts the email ``name`` with bytes ``data`` into the game directory
        (call before writing it). Only on a machine that plays a side of the game (this directory
        exists): no other sends the game's mail. Inside a :func:`~pbem.protocol.fsutil.transaction`
        a command that fails removes the record with the email."""
        if not self.dir.is_dir():
            return
        path, line = _draft_record(self.dir, name, data)
        try:
            path.parent.mkdir(mode=0o700, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create {path.parent}: {exc.strerror}") from None
        write_new(path, line, mode=0o600)

    # sealed orders -------------------------------------------------------------------------------

    def _sealed_path(self, step: int, side: str) -> Path:
        return self.dir / "signed" / f"{step:04d}-{side}.sealed.json"

    def save_sealed(self, step: int, side: str, orders: object, *, unsigned: bool = False) -> Callable[[], None]:
        """Keep the orders behind a sealed commitment of ``step`` (private until the reveal), before
        its P7 record is written: whenever the commitment may have left, its orders are here to
        reveal. Never overwritten (a commitment fixes them) unless ``unsigned``: the caller found no
        P7 record of ``step``, so orders kept here belong to no signature (a process killed between
        the two writes) and are replaced. Returns what puts the file back as it was, for a
        commitment whose move file did not stay written (:meth:`forget_unsent`)."""
        from pbem.protocol.canonical import canonical_bytes

        self._ensure()
        data = canonical_bytes(orders) + b"\n"
        path = self._sealed_path(step, side)
        before = path.read_bytes() if path.is_file() else None
        if before == data:
            return lambda: None
        if before is not None and unsigned:
            write_replace(path, data, mode=0o600)
            return lambda: write_replace(path, before, mode=0o600)
        write_new(path, data, mode=0o600, journal=False)

        def remove() -> None:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()

        return remove

    def sealed(self, step: int, side: str) -> object | None:
        """The orders committed at ``step`` by ``side`` on this machine, if kept here."""
        from pbem.protocol.canonical import loads_strict

        path = self._sealed_path(step, side)
        if not path.is_file():
            return None
        return loads_strict(path.read_bytes(), max_bytes=1 << 20, what=str(path))

    def forget_signed(self, step: int, side: str, version: int = 0) -> None:
        """Remove the record of a move its player retracted (``pbem retract``: never sent), and the
        sealed orders a retracted commitment kept: other orders may be committed for that step."""
        with contextlib.suppress(FileNotFoundError):
            self._record_path(step, side, version).unlink()
        with contextlib.suppress(FileNotFoundError):
            self._sealed_path(step, side).unlink()

    def forget_unsent(self, step: int, side: str, move_path: Path, version: int = 0) -> bool:
        """Remove the P7 record of a move whose file did not stay written (a disk fault in the same
        command, whose rollback removes the move file): it never left this machine, so signing other
        orders for that step later is no equivocation. Whether the record is gone (the sealed orders
        behind a commitment may go with it, never before it)."""
        from pbem.protocol.fsutil import will_be_undone

        if not move_path.exists() or will_be_undone(move_path):
            record = self._record_path(step, side, version)
            with contextlib.suppress(OSError):
                record.unlink()
            return not record.exists()
        return False


def _draft_record(local_dir: Path, name: str, data: bytes) -> tuple[Path, bytes]:
    """The record of one drafted email: its path (keyed by name and hash: a name drafted again
    with other bytes, a take-back's redo, gets a record of its own) and its one line."""
    import hashlib

    from pbem.protocol.names import DRAFTED

    digest = hashlib.sha256(data).hexdigest()
    key = hashlib.sha256(f"{name}\n{digest}".encode()).hexdigest()[:32]
    return local_dir / DRAFTED / key, f"{digest}  {name}\n".encode()


def drafted_here(local_dir: Path, name: str, data: bytes) -> bool:
    """Whether pbem drafted the email ``name`` with exactly the bytes ``data`` on this machine
    (:meth:`LocalGame.record_draft`); the record is read as a plain file, no link followed."""
    from pbem.protocol.fsutil import read_regular

    path, line = _draft_record(local_dir, name, data)
    try:
        return read_regular(path, len(line), follow_symlinks=False) == line
    except InputError:
        return False


def local_sides(game: GameLike, local: LocalGame, *, discover: bool = True) -> dict[str, str]:
    """Side -> key name for the sides of ``game`` this machine plays: ``sides.json``, plus (when
    ``discover``) any side whose registered fingerprint is a key in the local key store."""
    from pbem.protocol.keys import KeyStore

    sides = {s: k for s, k in local.sides().items() if s in game.body.sides}
    if discover:
        infos, _unreadable = KeyStore().survey()  # a damaged key pair hides no other key
        by_fp = {i.fingerprint: i.name for i in infos}
        for side in game.sides:
            name = by_fp.get(game.body.sides[side].fingerprint)
            if name is not None and side not in sides:
                sides[side] = name
    return sides


def seed_for(game: GameLike, local: LocalGame, side: str, key_name: str, *, derive: bool) -> bytes | None:
    """``side``'s chain seed: the stored copy, else (when ``derive``) re-derived from the private
    key -- asking its passphrase if it has one -- and stored. Checked against the commitment."""
    from pbem.protocol.dice import chain_head, chain_seed

    commitment = game.commitment(side)
    nonce = game.nonce(side)
    seed = local.seed(side)
    if seed is None and derive and nonce is not None:
        priv = private_key(key_name)
        seed = chain_seed(priv, game.id, side, nonce)
        if commitment is not None and chain_head(seed, game.chain_length).hex() != commitment:
            raise InputError(f"key {key_name} does not reproduce {side}'s dice commitment")
        local.save_seed(side, seed)
        local.set_side(side, key_name)
    if seed is not None and commitment is not None:
        if chain_head(seed, game.chain_length).hex() != commitment:
            raise InputError(f"{local.dir}/{side}.seed does not match {side}'s dice commitment")
    return seed


def local_seeds(game: GameLike, local: LocalGame, *, derive: bool = False) -> dict[str, bytes]:
    """Seeds of every committed side this machine plays (``derive``: recreate lost seed files)."""
    out: dict[str, bytes] = {}
    for side, key_name in local_sides(game, local, discover=derive).items():
        if game.commitment(side) is None:
            continue
        seed = seed_for(game, local, side, key_name, derive=derive)
        if seed is not None:
            out[side] = seed
    return out


def viewer_keys(game: GameLike, local: LocalGame, *, ask: bool) -> tuple[dict[str, Any], list[str]]:
    """The X25519 keys of the sides this machine plays in a game with an umpire (not the umpire's),
    to open the views its reports seal to them: ``(side -> key, sides skipped)``. Without ``ask``
    a key that needs a passphrase nobody gave (``$PBEM_PASSPHRASE`` unset) is skipped, never asked
    for: ``pbem ingest`` must not stop at a prompt [29]. cryptography's HPKE (:mod:`pbem.protocol.seal`)
    is imported only when a key is derived: a stranger's ``pbem verify`` plays no side."""
    keys: dict[str, Any] = {}
    skipped: list[str] = []
    for side, key_name in sorted(local.sides().items()):
        if side not in game.sides or side == game.umpire:
            continue
        if not usable_key(key_name, ask=ask):
            skipped.append(side)
            continue
        from pbem.protocol.seal import x25519_private

        keys[side] = x25519_private(private_key(key_name), game.id, side)
    return keys, skipped


def usable_key(key_name: str, *, ask: bool = False) -> bool:
    """Whether the local key ``key_name`` exists and can be opened now: unencrypted, or its
    passphrase in ``$PBEM_PASSPHRASE``, or (``ask``) asked for on the terminal."""
    from pbem.protocol.keys import PASSPHRASE_ENV, KeyStore

    try:
        encrypted = KeyStore().info(key_name).encrypted
    except InputError:
        return False
    return ask or not encrypted or os.environ.get(PASSPHRASE_ENV) is not None


def private_key(key_name: str) -> Any:
    """Open a local private key, asking its passphrase only when it is encrypted."""
    from pbem.protocol.keys import KeyStore, passphrase_for

    store = KeyStore()
    info = store.info(key_name)
    passphrase = passphrase_for(key_name) if info.encrypted else None
    return store.private(key_name, passphrase)
