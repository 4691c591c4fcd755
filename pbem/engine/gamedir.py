"""A game directory, parsed strictly: the genesis (its signatures checked first), the joins, the
move files (read on demand), the scenario (whole, a side's secret copy, or the publication's),
and the entry points of a replay (:meth:`Game.replay`, :meth:`Game.advance`, :meth:`Game.verify`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.engine.hooks import NO_HOOKS, Hooks
from pbem.engine.ruleset import Ruleset, get_ruleset
from pbem.engine.steps import (
    Bad,
    MoveFiles,
    VerifySummary,
    read_file,
    rules_refusal,
    sha256_hex,
    strip_name,
)
from pbem.engine.takeback import StepTakebacks, scan_takebacks
from pbem.errors import ArchiveError, InputError, PbemError, VerificationError
from pbem.protocol import archive, names
from pbem.protocol.archive import Listing, Message

if TYPE_CHECKING:
    from pbem.engine.replay import Replay

LINK_REFUSED = "a symbolic link, refused (a game's files are plain files in its own directory: move the link away)"
"""Why a link at a name pbem reads or writes is refused when a game is opened (never followed)."""

_MEMOS: list[dict[tuple[str, str], tuple[Ruleset, Any]]] = []
"""The open :func:`scenario_memo` blocks, innermost last."""


@contextmanager
def scenario_memo() -> Iterator[None]:
    """Within the block, a scenario loaded once is reused by every game opened with the same
    content (its hash is the key): for callers that open games again and again in one process --
    the bots' loop over a game's messages, ``pbem new`` (which loads the scenario, then opens the
    game it wrote), the test suite. Outside any block nothing is kept: a command opens its game,
    loads its scenario and keeps nothing for the next."""
    memo: dict[tuple[str, str], tuple[Ruleset, Any]] = {}
    _MEMOS.append(memo)
    try:
        yield
    finally:  # by identity: two memos may hold equal contents
        del _MEMOS[next(i for i, m in enumerate(_MEMOS) if m is memo)]


def load_scenario(data: dict[str, Any], digest: str, *, checked: bool = False) -> tuple[Ruleset, Any]:
    """Ruleset and validated scenario model for merged scenario data whose content hash is
    ``digest`` (reused within a :func:`scenario_memo` block). ``checked``: the data was read from
    files byte for byte those of a bundled scenario pbem's tests check in full
    (:func:`pbem.engine.scenarios.is_checked`), built without checking it again
    (:meth:`Ruleset.load_checked_scenario`: the same scenario)."""
    system = data.get("system")
    if not isinstance(system, str):
        raise InputError("scenario has no 'system'")
    key = (system, digest)
    memo = _MEMOS[-1] if _MEMOS else None
    hit = memo.get(key) if memo is not None else None
    if hit is None:
        ruleset = get_ruleset(system)
        hit = (ruleset, ruleset.load_checked_scenario(data) if checked else ruleset.load_scenario(data))
        if memo is not None:
            memo[key] = hit
    return hit


class Game:
    """A game directory, parsed strictly. Open with :meth:`Game.open`."""

    def __init__(self, game_dir: Path, listing: Listing, genesis: Message, hooks: Hooks = NO_HOOKS) -> None:
        self.dir = game_dir
        self.hooks = hooks
        """What the command that opened the game asks beside the rules (maps, email drafts, their
        checks): :mod:`pbem.engine.hooks`."""
        self.listing = listing
        self.genesis = genesis
        self.body: archive.GenesisBody = genesis.body
        self.id: str = self.body.game
        self.chain_length = self.body.chain_length
        self.joins: dict[str, Message] = {}
        self.moves: MoveFiles = MoveFiles({})
        self.scenario_data: dict[str, Any] = {}
        self.ruleset: Ruleset
        self.scenario: Any = None
        self.sides: list[str] = []
        self.genesis_signatures = 0
        self.umpire: str | None = None
        """The umpire's side, when the rules have one (its key is never a player's)."""
        self.hidden = False
        """Hidden information: turn files hold only the hash of the state; each side reads its
        own view in the umpire's reports (:meth:`Replay.view`)."""
        self.salted = bool(self.body.salted)
        """Hidden information: the turn files' state hashes are salted (the umpire's salt)."""
        self._publication: tuple[dict[int, Any], dict[str, Any] | None, bytes | None] | None = None
        """``publication.json`` once read and checked (:meth:`_read_publication`)."""
        self.published_salt: bytes | None = None
        """That salt, once :meth:`publication` has read the umpire's publication."""
        self.copy_of: str | None = None
        """A secret set-up: the side whose copy of the scenario this directory holds (``None``:
        the whole scenario, Game Control's or published)."""
        self.takebacks: dict[int, StepTakebacks] = {}
        """Steps with take-back files (:mod:`pbem.engine.takeback`)."""
        self.redraw = False
        """Set by ``pbem verify --redraw``: derived-file checkers redraw instead of comparing hashes."""
        self._public_keys: dict[str, Any] = {}
        """Each side's key as :func:`pbem.protocol.keys.parse_public` read it from the genesis (which
        does not change once opened): parsed once per game, not once per message checked."""

    # opening ----------------------------------------------------------------------------------

    @classmethod
    def open(cls, game_dir: Path | str, hooks: Hooks = NO_HOOKS) -> Game:
        """Parse genesis, joins and moves strictly and load the scenario. Signatures and rules are
        checked by :class:`Replay`. Malformed files raise :class:`InputError` naming the file.
        ``hooks``: the visitors the command wants (:func:`pbem.render.engine_hooks`)."""
        from pbem.protocol.canonical import MAX_GENESIS_BYTES

        game_dir = Path(game_dir)
        listing = archive.scan(game_dir)
        if listing.links:  # never followed: a game is the plain files of its own directory
            raise Bad(listing.links[0], LINK_REFUSED)
        if listing.genesis is None:
            raise InputError(f"{game_dir} has no {names.GENESIS}: not a game directory")
        try:
            genesis = archive.parse_genesis(read_file(listing.genesis, MAX_GENESIS_BYTES))
        except InputError as exc:
            raise Bad(names.GENESIS, strip_name(str(exc), names.GENESIS)) from None
        game = cls(game_dir, listing, genesis, hooks)
        game.genesis_signatures = _verify_genesis(genesis)
        for side, path in sorted(listing.joins.items()):
            try:
                game.joins[side] = archive.parse_join(read_file(path, MAX_GENESIS_BYTES), path.name)
            except InputError as exc:
                raise Bad(path.name, strip_name(str(exc), path.name)) from None
        game.takebacks = scan_takebacks(game)
        game.moves = MoveFiles(listing.moves)
        game._load_scenario()
        return game

    def _load_scenario(self) -> None:
        from pbem.engine.scenarios import (
            MAX_SCENARIO_BYTES,
            content_hash,
            copy_digest,
            is_checked,
            load_bundled,
            load_game_copy,
            without_salt,
        )
        from pbem.protocol.fsutil import read_regular

        ref = self.body.scenario
        path = self.dir / names.SCENARIO
        checked = False  # a game directory's copy, a publication's: checked in full
        if path.exists() or path.is_symlink():
            # What another player sent: size-limited, and its hash compared with the signed
            # genesis before a byte of it is parsed. A side's copy of a secret set-up is believed
            # when its hash is the one the genesis names for a side.
            try:
                raw = read_regular(path, MAX_SCENARIO_BYTES, what=path.name, follow_symlinks=False)
                digest = ref.sha256
                if ref.copies is not None and path.name == names.SCENARIO:
                    got = copy_digest(raw)
                    owners = sorted(s for s, h in ref.copies.items() if h == got)
                    if owners:
                        digest, self.copy_of = got, owners[0]
                    elif got != digest:
                        raise InputError(f"content hash {got[:16]}… is neither the whole scenario nor a "
                                         "side's copy the genesis names: the file was changed [secret set-up]")
                data = load_game_copy(raw, digest)
                checked = is_checked(content=digest)
            except InputError as exc:
                raise Bad(path.name, strip_name(str(exc), path.name)) from None
        elif ref.copies is not None:  # no copy here: the whole scenario once published, else nothing
            if not (self.dir / names.PUBLICATION).exists():
                raise Bad(names.SCENARIO, "is missing: this game's set-up is secret, so each side's copy came with "
                          "its invitation and the whole scenario comes with Game Control's publication")
            data, digest = self._published_scenario(), ref.sha256
        else:
            try:
                data, files = load_bundled(self.body.scenario.id)
            except InputError as exc:
                raise InputError(f"scenario of this game: {exc}") from None
            checked = is_checked(files=files)
            digest = content_hash(data)
            if digest != self.body.scenario.sha256:
                raise Bad(
                    f"bundled scenario {self.body.scenario.id}",
                    f"content hash {digest[:16]}… differs from the genesis ({self.body.scenario.sha256[:16]}…)",
                )
        if self.copy_of is not None and (self.dir / names.PUBLICATION).exists():
            # after the game: the whole scenario the umpire published, as the genesis committed to it
            data, digest, self.copy_of = self._published_scenario(), ref.sha256, None
            checked = False
        self.scenario_data = data
        self.ruleset, self.scenario = load_scenario(without_salt(data), digest, checked=checked)
        if self.body.rules != self.ruleset.rules_id:
            system, _, version = self.body.rules.partition("/")
            if system != self.ruleset.system or version not in self.ruleset.plays:
                raise InputError(rules_refusal(self.body.rules, self.ruleset, self.body.pbem))
            self.ruleset = self.ruleset.at_version(version)  # an earlier version this pbem still plays
        self.sides = list(self.ruleset.sides(self.scenario))
        if set(self.sides) != set(self.body.sides):
            raise Bad(names.GENESIS, f"sides {sorted(self.body.sides)} differ from the scenario's {self.sides}")
        self.umpire = self.ruleset.umpire(self.scenario)
        self.hidden = self.ruleset.capabilities.information == "hidden"
        copies = self.body.scenario.copies
        if copies is not None and (self.umpire is None or self.umpire in copies or not set(copies) <= set(self.sides)):
            raise Bad(names.GENESIS, "names copies of the scenario for sides that cannot hold one (the "
                      "umpire, or no side of the game) [secret set-up]")
        if self.hidden and self.umpire is None:
            raise InputError(f"rules {self.body.rules}: hidden information needs an umpire side")
        if self.umpire is not None:
            fp = self.body.sides[self.umpire].fingerprint
            shared = [s for s in self.sides if s != self.umpire and self.body.sides[s].fingerprint == fp]
            if shared:
                raise Bad(names.GENESIS, f"the umpire {self.umpire} shares its key with {', '.join(shared)}")

    def _read_publication(self, umpire: str) -> tuple[dict[int, Any], dict[str, Any] | None, bytes | None]:
        """``publication.json`` read once, signed by ``umpire``, holding what the genesis promises
        (:func:`pbem.engine.sealed.publication_problem`): ``(orders, whole scenario, state salt)``."""
        from pbem.engine.sealed import (
            MAX_PUBLICATION_BYTES,
            parse_publication_full,
            publication_problem,
        )

        if self._publication is None:
            try:
                parsed = parse_publication_full(read_file(self.dir / names.PUBLICATION, MAX_PUBLICATION_BYTES),
                                                self.id, self.public_key(umpire), self.body.sides[umpire].fingerprint)
            except PbemError as exc:
                raise Bad(names.PUBLICATION, str(exc)) from None
            problem = publication_problem(self.body, parsed[1], parsed[2])
            if problem is not None:
                raise Bad(names.PUBLICATION, problem)
            self._publication = parsed
        return self._publication

    def _published_scenario(self) -> dict[str, Any]:
        """The whole scenario of a secret set-up from the umpire's publication (read before the
        rules are, so the umpire is the one side without a copy)."""
        without = [s for s in self.body.sides if s not in (self.body.scenario.copies or {})]
        if len(without) != 1:
            raise Bad(names.GENESIS, "a secret set-up leaves exactly one side without a copy of the scenario: "
                      f"the umpire (here: {', '.join(without) or 'none'})")
        whole = self._read_publication(without[0])[1]
        assert whole is not None  # publication_problem refuses a secret set-up's publication without it
        return whole

    # derived values ---------------------------------------------------------------------------

    def commitment(self, side: str) -> str | None:
        entry = self.body.sides[side].commitment
        if entry is not None:
            return entry
        join = self.joins.get(side)
        return join.body.commitment if join is not None else None

    def nonce(self, side: str) -> bytes | None:
        """The chain nonce ``side`` published with its commitment (genesis entry or join)."""
        entry = self.body.sides[side].nonce
        if entry is None:
            join = self.joins.get(side)
            entry = join.body.nonce if join is not None else None
        return bytes.fromhex(entry) if entry is not None else None

    def publication(self) -> dict[int, Any] | None:
        """The umpire's signed publication of every sealed order (``publication.json``), checked
        and parsed: commit step -> ``{"orders", "salt"}``; ``None`` when there is none yet."""
        if not (self.dir / names.PUBLICATION).exists():
            return None
        assert self.umpire is not None
        orders, _, salt = self._read_publication(self.umpire)
        self.published_salt = salt
        return orders

    def scenario_file_for(self, side: str) -> bytes:
        """The ``scenario.json`` an invitation carries to ``side``: its copy when the set-up is
        secret (built from the whole scenario, which only the umpire holds), else this one."""
        from pbem.engine.scenarios import side_copy
        from pbem.protocol.canonical import canonical_bytes

        copies = self.body.scenario.copies
        if copies is None:
            from pbem.engine.scenarios import MAX_SCENARIO_BYTES

            return archive.read_archived(self.dir / names.SCENARIO, MAX_SCENARIO_BYTES)
        if side not in copies:
            raise InputError(f"the rules make no copy of this secret set-up for {side}: its invitation would "
                             "carry the whole scenario")
        if self.copy_of is not None:
            raise InputError(f"only Game Control holds the whole scenario: {side}'s copy is made there")
        copy = side_copy(self.ruleset, self.scenario, self.scenario_data, side)
        raw = canonical_bytes(copy) + b"\n"
        if sha256_hex(raw[:-1]) != copies[side]:
            raise Bad(names.GENESIS, f"names another copy of the scenario for {side} than the rules make")
        return raw

    def x25519(self, side: str) -> Any:
        """``side``'s published X25519 public key (genesis entry or join), for sealing to it."""
        from pbem.protocol.seal import public_from_hex

        value = self.body.sides[side].x25519
        if value is None:
            join = self.joins.get(side)
            value = join.body.x25519 if join is not None else None
        if value is None:
            raise InputError(f"{side} published no encryption key in this game")
        return public_from_hex(value)

    def missing_joins(self) -> list[str]:
        return [s for s in self.sides if self.commitment(s) is None]

    def public_key(self, side: str) -> Any:
        """``side``'s Ed25519 public key from the genesis (parsed on first use; a malformed key
        raises then, and again on every later call)."""
        key = self._public_keys.get(side)
        if key is None:
            from pbem.protocol.keys import parse_public

            key = self._public_keys[side] = parse_public(self.body.sides[side].key)
        return key

    def side_of_fingerprint(self, fp: str) -> list[str]:
        return [s for s in self.sides if self.body.sides[s].fingerprint == fp]

    def redo_number(self, step: int) -> int:
        """How many take-backs of ``step`` were agreed: the version of its next (or standing) move."""
        tb = self.takebacks.get(step)
        return tb.agreed if tb is not None else 0

    def move_file(self, step: int, side: str) -> str:
        """The file name of ``side``'s move for ``step`` (a redo after an agreed take-back)."""
        return names.move_file(step, side, self.redo_number(step))

    def path(self, name: str) -> Path:
        return self.dir / name

    def newest_mtime(self) -> float:
        """Since when the message now owed is owed: the modification time of the newest signed
        message that asked for it (the last move, else the genesis and joins) -- the only date pbem
        shows, never hashed. Turn files are not counted: a receipt that resolves a turn does not
        give the side that still owes its move a fresh clock [29]."""
        if self.listing.moves:
            return self.listing.moves[max(self.listing.moves)].lstat().st_mtime
        files = [self.dir / names.GENESIS, *self.listing.joins.values()]
        return max(p.lstat().st_mtime for p in files if p.exists())

    # replay entry points ----------------------------------------------------------------------

    def replay(self, local_seeds: dict[str, bytes] | None = None, *, strict: bool = False,
               local: Any = None, umpire_key: Any = None, head: bool = False) -> Replay:
        """Replay the archive. ``strict`` (verify) replays everything from the genesis and turns
        every problem into a :class:`VerificationError`; otherwise problems are
        :class:`ArchiveError` (exit 2). ``local`` (a :class:`pbem.protocol.localstate.LocalGame`,
        never with ``strict``): start from this machine's checkpoint when it still matches the
        archive, and leave a new one (:mod:`pbem.engine.checkpoint`), so a command costs the same at
        step 300 as at step 3; ``head``: a command that reads only the newest position starts from
        the newest turn that checkpoint names where it may (:class:`Checkpoints`)."""
        from pbem.engine.replay import Replay  # the replay module imports this one

        checkpoints = None
        if local is not None and not strict:
            from pbem.engine.checkpoint import Checkpoints

            checkpoints = Checkpoints(local.dir, head=head)
        if self.hidden:
            if umpire_key is None and local is not None and self.umpire is not None \
                    and self.umpire in local.sides():
                from pbem.protocol.localstate import private_key
                from pbem.protocol.seal import x25519_private

                umpire_key = x25519_private(private_key(local.sides()[self.umpire]), self.id, self.umpire)
        rp = Replay(self, local_seeds or {}, strict=strict, checkpoint=checkpoints, umpire_key=umpire_key)
        rp.local = local if not strict else None
        rp.run()
        return rp

    def advance(self, local_seeds: dict[str, bytes] | None = None) -> list[Path]:
        """Resolve every step that can be resolved now, writing the missing turn files (and the
        output hooks' files). Idempotent and crash-safe: re-running after a crash finishes the job."""
        rp = self.replay(local_seeds)
        return rp.write()

    def verify(self, local_seeds: dict[str, bytes] | None = None,
               viewer_keys: dict[str, Any] | None = None,
               progress: Callable[[int, int], None] | None = None,
               umpire_key: Any = None) -> VerifySummary:
        """Replay from genesis, checking everything; raise :class:`VerificationError` naming the
        first bad file. ``viewer_keys`` (side -> X25519 private key, the sides played here): with
        the umpire's publication, also check that every view the umpire sealed to those sides is
        their view of the state the publication recomputes [P10]."""
        from pbem.engine.replay import Replay  # the replay module imports this one

        try:
            publication = self.publication() if self.hidden else None
            rp = Replay(self, local_seeds or {}, strict=True, publication=publication,
                        umpire_key=umpire_key if publication is None else None, flat=True)
            rp.viewer_keys = dict(viewer_keys or {})
            rp.progress = progress
            rp.run()
            for checker in self.hooks.checkers:
                checker(self, rp)
        except Bad as exc:
            raise VerificationError(exc.path, exc.reason) from None
        return rp.summary()


def _verify_genesis(genesis: Message) -> int:
    """Check the genesis signatures (every side that committed in it must have signed) before
    anything else is believed, so a tampered genesis is named as such. Returns the count."""
    from pbem.protocol.dsse import verify
    from pbem.protocol.keys import fingerprint, parse_public

    body: archive.GenesisBody = genesis.body
    keys: dict[str, Any] = {}
    for side, entry in body.sides.items():
        try:
            pub = parse_public(entry.key)
        except PbemError as exc:
            raise Bad(names.GENESIS, f"side {side}: {exc}") from None
        if fingerprint(pub) != entry.fingerprint:
            raise Bad(names.GENESIS, f"side {side}: fingerprint does not match its key")
        if entry.commitment is not None:
            keys[entry.fingerprint] = pub
    if not keys:
        raise Bad(names.GENESIS, "no side signed the genesis")
    try:
        verify(genesis.envelope, genesis.envelope.payloadType, keys, body=genesis.body_bytes)
    except PbemError as exc:
        raise Bad(names.GENESIS, f"signature: {exc} [P1]") from None
    return len(keys)


def open_checked(game_dir: Path | str, hooks: Hooks = NO_HOOKS) -> Game:
    """:meth:`Game.open` for commands that change the archive: a bad file is an
    :class:`ArchiveError` (exit 2) naming it. Temporary files a killed pbem left are removed."""
    from pbem.protocol.fsutil import clean_stale_temps

    clean_stale_temps(Path(game_dir))
    try:
        return Game.open(game_dir, hooks)
    except Bad as exc:
        raise ArchiveError(str(exc)) from None


def open_for_verify(game_dir: Path | str, hooks: Hooks = NO_HOOKS) -> Game:
    """:meth:`Game.open` for ``pbem verify``: a bad file is a :class:`VerificationError` (exit 1)."""
    try:
        return Game.open(game_dir, hooks)
    except Bad as exc:
        raise VerificationError(exc.path, exc.reason) from None


if TYPE_CHECKING:
    from pbem.protocol.localstate import GameLike

    def _game_is_gamelike(game: Game) -> GameLike:  # the type checker holds Game to what localstate reads
        return game
