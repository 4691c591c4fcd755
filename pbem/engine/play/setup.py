"""Starting a game: the genesis (``pbem new``) and accepting an invitation (``pbem join``)."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from dataclasses import field
from pathlib import Path
from typing import Any

from pbem import __version__
from pbem.engine.gamedir import Game, load_scenario, open_checked, scenario_memo
from pbem.engine.hooks import NO_HOOKS, Hooks
from pbem.engine.scenarios import SALT_KEY, content_hash, load_data, scenario_salt, side_copy

# pbem.protocol.seal (cryptography's HPKE: ~100 ms to import, measured with python -X importtime)
# is imported inside the functions of hidden information, so games without it never load it.
from pbem.engine.sealed import ROUNDS, hidden_state_hash, state_salt
from pbem.errors import ArchiveError, InputError
from pbem.plain import Plain
from pbem.protocol import archive, names
from pbem.protocol.canonical import canonical_bytes, sha256_hex
from pbem.protocol.dice import chain_head, chain_seed
from pbem.protocol.dsse import GENESIS_TYPE, JOIN_TYPE, envelope_bytes, sign
from pbem.protocol.fsutil import write_new
from pbem.protocol.keys import NAME_RE, KeyStore, fingerprint, load_public_file, public_line
from pbem.protocol.localstate import LocalGame, local_seeds, private_key


def new_game(scenario: str, game_dir: Path, players: dict[str, str], options: dict[str, Any], *,
             game_id: str, nonce: bytes, emails: dict[str, str] | None = None,
             time_control: Any = None, hooks: Hooks = NO_HOOKS) -> tuple[Game, list[Path]]:
    """Write the genesis of a game of ``scenario`` (a bundled id or a scenario file) into
    ``game_dir`` (absent or empty): ``players`` maps every side to a local key name (it commits
    and signs now, with ``nonce``) or a public-key file (it is invited and joins later). Everything
    is checked before anything is written. Returns the game and the files written (with turn 0
    and its outputs when nobody is left to join)."""

    with scenario_memo():  # the scenario is loaded to check, then the game written is opened
        return _new_game(scenario, game_dir, players, options, game_id=game_id, nonce=nonce,
                         emails=emails, time_control=time_control, hooks=hooks)


def _new_game(scenario: str, game_dir: Path, players: dict[str, str], options: dict[str, Any], *,
              game_id: str, nonce: bytes, emails: dict[str, str] | None,
              time_control: Any, hooks: Hooks) -> tuple[Game, list[Path]]:

    data = load_data(scenario)
    digest = content_hash(data)
    ruleset, model = load_scenario(data, digest)
    sides = ruleset.sides(model)
    opts = dict(options)
    chain_length = _check_new_game(ruleset, model, scenario, sides, opts, players, emails or {}, game_dir)
    keys = _bind_keys(ruleset, model, sides, players, emails or {}, game_id, nonce, chain_length)
    umpire = ruleset.umpire(model)
    scenario_ref: dict[str, Any] = {"id": str(data.get("id", scenario)), "sha256": digest}
    if any(ruleset.scenario_copy(model, data, side) is not None for side in sides if side != umpire):
        data, scenario_ref = _secret_setup(ruleset, model, data, scenario_ref, sides, umpire, opts,
                                           keys.seeds, game_id)
    body: dict[str, Any] = {
        "ds": archive.GENESIS_DS,
        "game": game_id,
        "scenario": scenario_ref,
        "rules": ruleset.rules_id,
        "options": opts,
        "chain_length": chain_length,
        "sides": keys.entries,
        "pbem": __version__,  # the release that wrote it: names the one to verify with [23]
        "rounds": ROUNDS,  # acknowledged sealed rounds [29]
    }
    if ruleset.capabilities.information == "hidden":  # hidden states: hashes nobody can test guesses against
        body["salted"] = True
    if time_control is not None:  # pbem.engine.clock.TimeControl
        body["time_control"] = time_control.to_json()
    body_bytes = canonical_bytes(body)
    local = LocalGame(game_id, sha256_hex(body_bytes))  # refuses an id this machine already plays
    env = sign(body_bytes, GENESIS_TYPE, list(keys.privs.values()))
    for side, seed in keys.seeds.items():
        local.save_seed(side, seed)
        local.set_side(side, keys.local_names[side])
    game_dir.mkdir(parents=True, exist_ok=True)
    written = [game_dir / names.SCENARIO, game_dir / names.GENESIS]
    write_new(written[0], canonical_bytes(data) + b"\n")
    write_new(written[1], envelope_bytes(env))
    game = open_checked(game_dir, hooks)
    if not game.missing_joins():
        written += game.advance(keys.seeds)
    return game, written


def _check_new_game(ruleset: Any, model: Any, scenario: str, sides: list[str], opts: dict[str, Any],
                    players: dict[str, str], emails: dict[str, str], game_dir: Path) -> int:
    """Every check of ``pbem new``'s arguments before a key is touched; pops and returns the
    chain length from ``opts``."""
    chain_length = opts.pop("chain_length", 512)
    if not isinstance(chain_length, int) or isinstance(chain_length, bool) or not 2 <= chain_length <= 100_000:
        raise InputError("option chain_length must be an integer 2..100000")
    ruleset.initial_state(model, opts)  # options checked before anything is written
    for side, spec in players.items():
        if side not in sides:
            raise InputError(f"--player {side}={spec}: no side {side!r} in {scenario} "
                             f"(sides: {', '.join(sides)})")
    for side, address in emails.items():
        if side not in sides:
            raise InputError(f"--email {side}=...: no side {side!r} in {scenario} (sides: {', '.join(sides)})")
        if len(address) > 254 or not re.fullmatch(archive.EMAIL_PATTERN, address):
            raise InputError(f"--email {side}={address[:80]!r}: not one email address pbem can put in "
                             "a From/To header")
    missing = [s for s in sides if s not in players]
    if missing:
        raise InputError(f"no --player for side(s) {', '.join(missing)}")
    if game_dir.exists() and (not game_dir.is_dir() or any(game_dir.iterdir())):
        raise InputError(f"{game_dir} exists and is not empty; pbem never overwrites a game")
    return chain_length


class _Keys(Plain):
    """The genesis's side entries, and what the sides played here sign and commit with."""

    entries: dict[str, dict[str, Any]] = field(default_factory=dict)
    privs: dict[str, Any] = field(default_factory=dict)
    """Fingerprint -> private key of each key played here (they sign the genesis)."""
    seeds: dict[str, bytes] = field(default_factory=dict)
    local_names: dict[str, str] = field(default_factory=dict)


def _bind_keys(ruleset: Any, model: Any, sides: list[str], players: dict[str, str], emails: dict[str, str],
               game_id: str, nonce: bytes, chain_length: int) -> _Keys:
    """Each side's key: a local key commits to its dice chain now, a public-key file is invited
    (it draws its own nonce at join). An umpire's key may play no other side."""

    store = KeyStore()
    keys = _Keys()
    for side in sides:
        spec = players[side]
        if NAME_RE.match(spec) and store.has(spec):
            priv = private_key(spec)
            pub = priv.public_key()
            seed = chain_seed(priv, game_id, side, nonce)
            keys.seeds[side] = seed
            keys.privs[fingerprint(pub)] = priv
            keys.local_names[side] = spec
            commitment: str | None = chain_head(seed, chain_length).hex()
            side_nonce: str | None = nonce.hex()
        else:
            path = Path(spec)
            if not path.is_file():
                raise InputError(f"--player {side}={spec}: neither a local key nor a public-key file")
            pub = load_public_file(path)
            commitment = side_nonce = None  # the invited player draws its own nonce at join
        keys.entries[side] = {"key": public_line(pub), "fingerprint": fingerprint(pub),
                              "commitment": commitment, "nonce": side_nonce}
        if ruleset.needs_encryption(model) and side in keys.local_names:
            from pbem.protocol.seal import public_hex, x25519_private

            keys.entries[side]["x25519"] = public_hex(x25519_private(private_key(keys.local_names[side]),
                                                                     game_id, side))
        if side in emails:
            keys.entries[side]["email"] = emails[side]
    if not keys.privs:
        raise InputError("at least one side must be played with a local key (it signs the genesis)")
    umpire = ruleset.umpire(model)
    if umpire is not None:
        shared = [s for s in sides if s != umpire
                  and keys.entries[s]["fingerprint"] == keys.entries[umpire]["fingerprint"]]
        if shared:
            raise InputError(f"--player {umpire}: the umpire's key also plays {', '.join(shared)}; an "
                             "umpire sees every side's orders, so it needs a key no player holds")
    return keys


def _secret_setup(ruleset: Any, model: Any, data: dict[str, Any], scenario_ref: dict[str, Any],
                  sides: list[str], umpire: str | None, opts: dict[str, Any], seeds: dict[str, bytes],
                  game_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A secret set-up: each side holds its copy of the scenario, the umpire the whole; both
    salted. Returns the umpire's scenario data and the genesis's reference to it and the copies."""

    if umpire is None or umpire not in seeds:
        raise InputError("this scenario's set-up is secret: Game Control creates the game, with its "
                         f"key played here (--player {umpire}=YOUR_KEY)")
    state0 = ruleset.dump_state(model, ruleset.initial_state(model, opts))
    data = {**data, SALT_KEY: scenario_salt(seeds[umpire], game_id)}
    copies = {side: copy for side in sides if side != umpire
              and (copy := side_copy(ruleset, model, data, side)) is not None}
    return data, {**scenario_ref, "sha256": content_hash(data),
                  "copies": {side: content_hash(copy) for side, copy in sorted(copies.items())},
                  "state": hidden_state_hash(state0, state_salt(seeds[umpire], game_id))}


def check_bound_keys(game: Game, expected: dict[str, str]) -> None:
    """Refuse the game when a key it binds differs from one the player expects (``--expect``)."""
    for side, fp in expected.items():
        if side not in game.body.sides:
            raise InputError(f"--expect {side}: no side {side!r} in this game (sides: {', '.join(game.sides)})")
        bound = game.body.sides[side].fingerprint
        if bound != fp:
            raise InputError(
                f"{side}'s key in this invitation is {bound}, not {fp} as expected: refused, "
                "nothing written (someone may have altered the invitation)"
            )


def join_game(game_dir: Path, files: dict[str, bytes], key_name: str, expected: dict[str, str],
              nonce: bytes, *, show_keys: Callable[[Game], None] | None = None,
              hooks: Hooks = NO_HOOKS) -> tuple[list[str], list[Path]]:
    """Accept an invitation for the sides ``key_name`` is invited to: ``files`` are the genesis
    (and scenario) it carries, or empty when ``game_dir`` holds them already. The invitation is
    checked in a scratch directory first -- genesis signatures, the scenario's hash, the key's
    place, every ``expected`` fingerprint -- and ``show_keys`` is shown the game before anything
    is signed. Returns the sides joined and the files written (turn 0 too when the game can start)."""

    info = KeyStore().info(key_name)
    if files:
        if game_dir.exists() and not game_dir.is_dir():
            raise InputError(f"{game_dir} is not a directory")
        for name, raw in files.items():
            mine = game_dir / name
            if mine.is_file() and not archive.same_bytes(mine, raw):
                raise ArchiveError(f"{game_dir} already holds another game's {name}; choose a new directory")

    def check(directory: Path) -> tuple[Game, list[str]]:
        game = open_checked(directory)
        game.replay()  # genesis signatures and bindings first
        sides = [s for s in game.side_of_fingerprint(info.fingerprint) if s in game.missing_joins()]
        if not sides:
            raise InputError(f"key {key_name} ({info.fingerprint}) is not invited to any open side of this game")
        if game.copy_of is not None and game.copy_of not in sides:
            raise InputError(f"this invitation's scenario.json is {game.copy_of}'s copy of the scenario, not "
                             f"{', '.join(sides)}'s: ask Game Control for your own invitation")
        check_bound_keys(game, expected)
        return game, sides

    if files:  # check the invitation in a scratch directory before anything lands in game_dir
        with tempfile.TemporaryDirectory(prefix="pbem-join-") as tmp:
            for name, raw in files.items():
                (Path(tmp) / name).write_bytes(raw)
            game, sides = check(Path(tmp))
    else:
        game, sides = check(game_dir)
    local = LocalGame.of(game)  # refuses a game id this machine already plays with another genesis
    if show_keys is not None:
        show_keys(game)
    priv = private_key(key_name)
    joins: list[tuple[str, bytes, bytes]] = []
    for side in sides:
        seed = chain_seed(priv, game.id, side, nonce)
        body = {
            "ds": archive.JOIN_DS,
            "game": game.id,
            "genesis": game.genesis.body_hash,
            "side": side,
            "commitment": chain_head(seed, game.chain_length).hex(),
            "nonce": nonce.hex(),
            "pbem": __version__,
        }
        if game.ruleset.needs_encryption(game.scenario):
            from pbem.protocol.seal import public_hex, x25519_private

            body["x25519"] = public_hex(x25519_private(priv, game.id, side))
        joins.append((side, seed, envelope_bytes(sign(canonical_bytes(body), JOIN_TYPE, [priv]))))
    written: list[Path] = []
    game_dir.mkdir(parents=True, exist_ok=True)
    for name in (names.GENESIS, names.SCENARIO):
        if name in files and write_new(game_dir / name, files[name]):
            written.append(game_dir / name)
    for side, seed, env in joins:
        local.save_seed(side, seed)
        local.set_side(side, key_name)
        path = game_dir / names.join_name(side)
        write_new(path, env)
        written.append(path)
    game = open_checked(game_dir, hooks)
    if not game.missing_joins():
        written += game.advance(local_seeds(game, local))
    return sides, written
