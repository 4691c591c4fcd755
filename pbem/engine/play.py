"""Playing a game from a library: submit orders, ingest another player's files.

What ``pbem submit`` and ``pbem ingest`` do, as calls a program can make (python-chess's
``board.push``): the CLI only reads files, asks questions and prints. Every function checks
everything before it writes anything, and writes only through :meth:`Replay.write`.

* :func:`submit` -- parse, normalise and check a side's orders, sign the move (keeping the P7
  record), place it and write what it makes resolvable.
* :func:`ingest` -- place other players' joins and moves, compare the turn files that travelled with
  them, then write.
* :func:`move_body` -- the one place a move body is built (``submit`` and the bot's autoplay).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem import __version__
from pbem.engine.hooks import NO_HOOKS, Hooks
from pbem.engine.replay import Game, Replay, run_move_outputs
from pbem.engine.sealed import ROUNDS
from pbem.errors import ArchiveError, IllegalOrders, InputError, PbemError
from pbem.protocol import archive, names
from pbem.protocol.archive import Message

OrdersSource = Callable[[Any, str], Any]
"""``(state, side) -> orders document (JSON)``: JSON as written, or text orders read against the
decision they answer."""


# ------------------------------------------------------------------------------------------------
# Starting a game
# ------------------------------------------------------------------------------------------------


def new_game(scenario: str, game_dir: Path, players: dict[str, str], options: dict[str, Any], *,
             game_id: str, nonce: bytes, emails: dict[str, str] | None = None,
             time_control: Any = None, hooks: Hooks = NO_HOOKS) -> tuple[Game, list[Path]]:
    """Write the genesis of a game of ``scenario`` (a bundled id or a scenario file) into
    ``game_dir`` (absent or empty): ``players`` maps every side to a local key name (it commits
    and signs now, with ``nonce``) or a public-key file (it is invited and joins later). Everything
    is checked before anything is written. Returns the game and the files written (with turn 0
    and its outputs when nobody is left to join)."""
    from pbem.engine.replay import load_scenario, open_checked
    from pbem.engine.scenarios import content_hash, load_data
    from pbem.protocol.canonical import canonical_bytes, sha256_hex
    from pbem.protocol.dice import chain_head, chain_seed
    from pbem.protocol.dsse import GENESIS_TYPE, envelope_bytes, sign
    from pbem.protocol.fsutil import write_new
    from pbem.protocol.keys import NAME_RE, KeyStore, fingerprint, load_public_file, public_line
    from pbem.protocol.localstate import LocalGame, private_key

    data = load_data(scenario)
    digest = content_hash(data)
    ruleset, model = load_scenario(data, digest)
    sides = ruleset.sides(model)
    opts = dict(options)
    chain_length = opts.pop("chain_length", 512)
    if not isinstance(chain_length, int) or isinstance(chain_length, bool) or not 2 <= chain_length <= 100_000:
        raise InputError("option chain_length must be an integer 2..100000")
    ruleset.initial_state(model, opts)  # options checked before anything is written
    for side, spec in players.items():
        if side not in sides:
            raise InputError(f"--player {side}={spec}: no side {side!r} in {scenario} "
                             f"(sides: {', '.join(sides)})")
    import re

    for side, address in (emails or {}).items():
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

    store = KeyStore()
    entries: dict[str, dict[str, Any]] = {}
    privs: dict[str, Any] = {}
    seeds: dict[str, bytes] = {}
    local_names: dict[str, str] = {}
    for side in sides:
        spec = players[side]
        if NAME_RE.match(spec) and store.has(spec):
            priv = private_key(spec)
            pub = priv.public_key()
            seed = chain_seed(priv, game_id, side, nonce)
            seeds[side] = seed
            privs[fingerprint(pub)] = priv
            local_names[side] = spec
            commitment: str | None = chain_head(seed, chain_length).hex()
            side_nonce: str | None = nonce.hex()
        else:
            path = Path(spec)
            if not path.is_file():
                raise InputError(f"--player {side}={spec}: neither a local key nor a public-key file")
            pub = load_public_file(path)
            commitment = side_nonce = None  # the invited player draws its own nonce at join
        entries[side] = {"key": public_line(pub), "fingerprint": fingerprint(pub),
                         "commitment": commitment, "nonce": side_nonce}
        if ruleset.needs_encryption(model) and side in local_names:
            from pbem.protocol.seal import public_hex, x25519_private

            entries[side]["x25519"] = public_hex(x25519_private(private_key(local_names[side]), game_id, side))
        if emails and side in emails:
            entries[side]["email"] = emails[side]
    if not privs:
        raise InputError("at least one side must be played with a local key (it signs the genesis)")
    umpire = ruleset.umpire(model)
    if umpire is not None:
        shared = [s for s in sides if s != umpire and entries[s]["fingerprint"] == entries[umpire]["fingerprint"]]
        if shared:
            raise InputError(f"--player {umpire}: the umpire's key also plays {', '.join(shared)}; an "
                             "umpire sees every side's orders, so it needs a key no player holds")
    scenario_ref: dict[str, Any] = {"id": str(data.get("id", scenario)), "sha256": digest}
    if any(ruleset.scenario_copy(model, data, side) is not None for side in sides if side != umpire):
        # a secret set-up: each side holds its copy, the umpire the whole; both salted
        from pbem.engine.scenarios import SALT_KEY, scenario_salt, side_copy

        if umpire is None or umpire not in seeds:
            raise InputError("this scenario's set-up is secret: Game Control creates the game, with its "
                             f"key played here (--player {umpire}=YOUR_KEY)")
        state0 = ruleset.dump_state(model, ruleset.initial_state(model, opts))
        data = {**data, SALT_KEY: scenario_salt(seeds[umpire], game_id)}
        copies = {side: copy for side in sides if side != umpire
                  and (copy := side_copy(ruleset, model, data, side)) is not None}
        from pbem.engine.sealed import hidden_state_hash, state_salt

        scenario_ref = {**scenario_ref, "sha256": content_hash(data),
                        "copies": {side: content_hash(copy) for side, copy in sorted(copies.items())},
                        "state": hidden_state_hash(state0, state_salt(seeds[umpire], game_id))}
    body: dict[str, Any] = {
        "ds": archive.GENESIS_DS,
        "game": game_id,
        "scenario": scenario_ref,
        "rules": ruleset.rules_id,
        "options": opts,
        "chain_length": chain_length,
        "sides": entries,
        "pbem": __version__,  # the release that wrote it: names the one to verify with [23]
        "rounds": ROUNDS,  # acknowledged sealed rounds [29]
    }
    if ruleset.capabilities.information == "hidden":  # hidden states: hashes nobody can test guesses against
        body["salted"] = True
    if time_control is not None:  # pbem.engine.clock.TimeControl
        body["time_control"] = time_control.to_json()
    body_bytes = canonical_bytes(body)
    local = LocalGame(game_id, sha256_hex(body_bytes))  # refuses an id this machine already plays
    env = sign(body_bytes, GENESIS_TYPE, list(privs.values()))
    for side, seed in seeds.items():
        local.save_seed(side, seed)
        local.set_side(side, local_names[side])
    game_dir.mkdir(parents=True, exist_ok=True)
    written = [game_dir / names.SCENARIO, game_dir / names.GENESIS]
    write_new(written[0], canonical_bytes(data) + b"\n")
    write_new(written[1], envelope_bytes(env))
    game = open_checked(game_dir, hooks)
    if not game.missing_joins():
        written += game.advance(seeds)
    return game, written


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
    import tempfile

    from pbem.engine.replay import open_checked
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.dice import chain_head, chain_seed
    from pbem.protocol.dsse import JOIN_TYPE, envelope_bytes, sign
    from pbem.protocol.fsutil import write_new
    from pbem.protocol.keys import KeyStore
    from pbem.protocol.localstate import LocalGame, local_seeds, private_key

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


# ------------------------------------------------------------------------------------------------
# Building a move
# ------------------------------------------------------------------------------------------------


def current_decision(rp: Replay) -> Any:
    """The decision the game waits for now, or an :class:`InputError` saying why there is none."""
    if not rp.records:
        raise InputError(f"the game has not started: waiting for {rp.waiting}")
    if rp.tail_open:
        raise InputError(f"step {len(rp.placed)} is not resolved yet: waiting for {rp.waiting}")
    if not rp.current.pending:
        raise InputError("the game is over; the archive is closed")
    return rp.current.pending[0]


def check_owner(decision: Any, *, side: str | None = None, key_name: str | None = None,
                mine: list[str] | None = None, hint: str = "") -> None:
    """The one check that a decision is ours to make: ``side``'s (when given), and one of the sides
    ``mine`` that ``key_name`` plays (when given); else an :class:`InputError` naming whose it is."""
    if mine is not None and decision.side not in mine:
        raise InputError(f"it is {decision.side}'s decision ({decision.label}); key {key_name} "
                         f"plays {', '.join(mine) or 'no side of this game'}{hint}")
    if side is not None and side != decision.side:
        raise InputError(f"it is {decision.side}'s decision ({decision.label}), not {side}'s")


def owed_by(game: Game, rp: Replay, sides: list[str]) -> Any:
    """The decision one of ``sides`` owes now (sealed rounds: several sides owe one at once;
    a message of ours already held for its slot counts as sent), or an :class:`InputError`."""
    decision = current_decision(rp)
    rnd = rp.current.round
    if rnd is None:
        return decision
    side = _my_sealed_side(rp, rnd, sides)
    if side is not None:
        return next(d for d in rp.current.pending if d.side == side)
    mine = [d.side for d in rp.current.pending if d.side in sides]
    if mine:
        raise InputError(f"{', '.join(mine)} has sent its {rnd.phase} message for this round already; "
                         f"waiting for {rp.waiting}")
    raise InputError(f"nothing is owed by {', '.join(sides) or 'this key'} now: waiting for {rp.waiting}")


def state_for(game: Game, rp: Replay, side: str, key_name: str | None) -> Any:
    """The state ``side``'s orders are written and checked against: the current one, or with
    hidden information the side's own view (its key needed to open it)."""
    state = rp.current.state
    if state is None:
        mine: dict[str, str] = {}
        if key_name is None:
            from pbem.protocol.localstate import LocalGame

            mine = LocalGame.of(game).sides()
            key_name = mine.get(side)
        if key_name is None:
            plays = f"it plays {', '.join(sorted(mine))}" if mine else "it plays no side of this game"
            raise InputError(f"{side}'s view is hidden from this machine ({plays}): only {side}'s own pbem, "
                             "with its key, opens it [P10]")
        state = view_state(game, rp, side, key_name)
    return state


def prepare_orders(game: Game, state: Any, side: str, document: Any) -> Any:
    """Parse, normalise and check ``side``'s orders against ``state``; returns the JSON
    that will be signed. :class:`IllegalOrders` lists every violation."""
    rules, sc = game.ruleset, game.scenario
    parsed = rules.normalize(sc, state, side, rules.load_orders(sc, document))
    if rules.uses_secret_notes(sc):
        parsed = rules.conceal(sc, state, side, parsed, _notes_secret(game, side))
    violations = rules.validate(sc, state, side, parsed)
    if violations:
        raise IllegalOrders(violations)
    return rules.dump_orders(sc, parsed)


def _notes_secret(game: Game, side: str) -> bytes | None:
    """``side``'s secret for its sealed notes, when this machine holds its key (else ``None``)."""
    from pbem.protocol.localstate import LocalGame, private_key
    from pbem.protocol.seal import notes_secret

    key_name = LocalGame.of(game).sides().get(side)
    if key_name is None:
        return None
    return notes_secret(private_key(key_name), game.id, side)


def move_body(game: Game, rp: Replay, side: str, orders: Any, seed: bytes) -> dict[str, Any]:
    """The body of ``side``'s next move: placed at the next step, answering the current turn,
    revealing the side's next chain value."""
    from pbem.protocol.dice import reveal

    j = rp.next_reveal_index(side)
    if j > game.chain_length:
        raise InputError(f"{side}'s dice chain is exhausted ({game.chain_length} reveals); "
                         "start with a longer chain_length")
    return {
        "ds": archive.MOVE_DS,
        "game": game.id,
        "step": rp.next_step,
        "side": side,
        "answers": rp.current.turn_hash,
        "reveal": reveal(seed, game.chain_length, j).hex(),
        "orders": orders,
        "pbem": __version__,
    }


def sign_move(body: dict[str, Any], private_key: Any) -> bytes:
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.dsse import MOVE_TYPE, envelope_bytes, sign

    return envelope_bytes(sign(canonical_bytes(body), MOVE_TYPE, [private_key]))


# ------------------------------------------------------------------------------------------------
# submit
# ------------------------------------------------------------------------------------------------


@dataclass
class Preview:
    """Exactly what would be signed, in the game's words (``pbem check``, ``submit --dry-run``, and
    what ``submit`` shows before it asks)."""

    side: str
    step: int
    label: str
    orders: Any
    """The JSON document that would be signed (defaults filled in)."""
    lines: list[str]
    """Every order in words."""
    undone: list[str]
    """What the orders leave undone."""

    def text(self) -> str:
        out = [f"Step {self.step}: {self.label} -- what would be signed for {self.side}:"]
        out += [f"  . {line}" for line in self.lines] or ["  . (no orders)"]
        if self.undone:
            out.append("Left undone:")
            out += [f"  - {line}" for line in self.undone]
        return "\n".join(out)


def preview(game: Game, rp: Replay, side: str, document: Any, *, key_name: str | None = None) -> Preview:
    """The orders ``side`` would sign now, checked (:class:`IllegalOrders` lists every violation)
    and described."""
    decision = owed_by(game, rp, [side])
    state = state_for(game, rp, side, key_name)
    orders = prepare_orders(game, state, side, document)
    presenter = game.ruleset.presenter()
    rnd = rp.current.round
    step = rnd.slot(side) if rnd is not None else rp.next_step
    label = decision.label + (" -- sealed: only a commitment is signed now" if rnd is not None else "")
    return Preview(side, step, label, orders, presenter.describe_orders(game.scenario, orders),
                   presenter.undone(game.scenario, state, side, orders))


Confirm = Callable[[Preview], bool]
"""Asked with what would be signed, before anything is signed; False: sign nothing."""


@dataclass
class Submitted:
    replay: Replay
    written: list[Path] = field(default_factory=list)
    move: Message | None = None
    """The move signed (or re-sent from the P7 record) for this call."""
    already: str | None = None
    """Set when these orders were archived before: the name of that move file."""


def _open_as(game: Game, key_name: str) -> tuple[list[str], Any, dict[str, bytes], Replay, Submitted]:
    """The sides ``key_name`` plays here, this machine's state of the game, its seeds (a lost one
    re-derived), and a replay that has finished anything a crash left behind."""
    from pbem.protocol.keys import KeyStore
    from pbem.protocol.localstate import LocalGame, local_seeds, seed_for

    info = KeyStore().info(key_name)
    my_sides = game.side_of_fingerprint(info.fingerprint)
    if not my_sides:
        raise InputError(f"key {key_name} ({info.fingerprint}) plays no side in this game")
    local = LocalGame.of(game)
    for side in my_sides:
        if game.commitment(side) is not None:
            seed_for(game, local, side, key_name, derive=True)
    seeds = local_seeds(game, local)
    rp = game.replay(seeds, local=local)
    return my_sides, local, seeds, rp, Submitted(rp, rp.write())  # finish what a crash left behind


def submit(game: Game, orders: OrdersSource, key_name: str, *, confirm: Confirm | None = None) -> Submitted:
    """Sign and place the orders of the side ``key_name`` plays whose decision is pending.

    ``confirm`` is asked with the :class:`Preview` of what would be signed before anything is
    signed (not when the same bytes were signed before and are only re-sent). Re-submitting orders
    already archived signs nothing (and finishes any output a crash left undone); orders different
    from a move already signed for this step are refused [P7]."""
    my_sides, local, seeds, rp, result = _open_as(game, key_name)

    # the same orders re-submitted after they were archived: nothing new to sign
    last = next((m for m in reversed(rp.recent_moves()) if m.body.side in my_sides), None)
    sealed_now = rp.records and not rp.tail_open and rp.current.round is not None
    before = rp.record(last.body.step - 1) if last is not None and not sealed_now else None
    # ... unless they are a sound move for a decision of ours that is pending now (one side may
    # decide twice in a row, e.g. a set-up then a first activation: the same text can mean both)
    fits_now = False
    if (last is not None and rp.records and not rp.tail_open and not sealed_now and rp.current.pending
            and rp.current.pending[0].side in my_sides and rp.current.state is not None):
        side_now = rp.current.pending[0].side
        try:
            prepare_orders(game, rp.current.state, side_now, orders(rp.current.state, side_now))
            fits_now = True
        except PbemError:
            fits_now = False
    if last is not None and before is not None and before.state is not None and not fits_now:
        try:
            same = prepare_orders(game, before.state, last.body.side,
                                  orders(before.state, last.body.side)) == last.body.orders
        except PbemError:
            same = False
        if same and (rp.tail_open or not rp.current.pending or rp.current.pending[0].side not in my_sides
                     or last.body.step == rp.placed_count):
            result.already = names.move_name(last.body.step, last.body.side)
            result.written += run_move_outputs(game, rp, last)  # e.g. the email a crash did not write
            return result

    rnd = rp.current.round if rp.records and not rp.tail_open else None
    if rnd is not None:
        return _submit_sealed(game, rp, rnd, orders, key_name, my_sides, local, seeds, confirm, result)
    decision = current_decision(rp)
    hint = ""
    if last is not None and last.body.step == rp.placed_count:
        hint = (f"; your {last.name} is signed already -- if you never sent it, "
                "'pbem retract GAME_DIR' discards it")
    check_owner(decision, key_name=key_name, mine=my_sides, hint=hint)
    side = decision.side
    shown = preview(game, rp, side, orders(rp.current.state, side))
    normalized = shown.orders
    if local.signed(rp.next_step, side) is None and confirm is not None and not confirm(shown):
        raise InputError("not signed: nothing was written")
    return sign_and_place(game, rp, local, side, normalized, seeds[side], key_name, result)


def sign_and_place(game: Game, rp: Replay, local: Any, side: str, orders: Any, seed: bytes, key_name: str,
                   result: Submitted | None = None) -> Submitted:
    """The end of every submit, a player's or a bot's: build the move body of ``side``'s checked
    ``orders`` (:func:`prepare_orders`), sign it with ``key_name`` (or re-use the bytes signed for
    its step before; other bytes are refused [P7]), place it in ``rp`` (every check of an archived
    move) and write; a move signed here whose file does not stay is forgotten again."""
    body = move_body(game, rp, side, orders, seed)
    return _sign_and_place(game, rp, local, result if result is not None else Submitted(rp), body, key_name)


def _sign_and_place(game: Game, rp: Replay, local: Any, result: Submitted, body: dict[str, Any],
                    key_name: str) -> Submitted:
    """Sign ``body`` (or re-use the bytes signed for its step before [P7]), place it and write."""
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.localstate import private_key

    step, side = body["step"], body["side"]
    body_bytes = canonical_bytes(body)
    record = local.signed(step, side)
    if record is not None:
        previous = archive.parse_move(record, f"local record of step {step}")
        if previous.body_bytes != body_bytes:
            raise ArchiveError(
                f"you already signed other orders for step {step} as {side} (body sha256 "
                f"{previous.body_hash[:16]}…); pbem never signs two different moves for one step [P7]. "
                f"Re-send the move you signed: {local.dir / 'signed'}/{step:04d}-{side}.json"
            )
        env_bytes = record
    else:
        env_bytes = sign_move(body, private_key(key_name))
        local.record_signed(step, side, env_bytes)
    return _place_signed(game, rp, local, result, env_bytes, step, side, fresh=record is None)


def _place_signed(game: Game, rp: Replay, local: Any, result: Submitted, env_bytes: bytes, step: int,
                  side: str, *, fresh: bool) -> Submitted:
    """Place signed envelope bytes as this machine's move and write (``fresh``: signed by this
    very call, so its P7 record goes if its file does not stay)."""
    record = None if fresh else env_bytes
    msg = archive.parse_move(env_bytes, names.move_name(step, side))
    rp.add_move(msg, authored=True)
    result.move = msg
    try:
        result.written += rp.write()
    except PbemError:
        if record is None:  # signed by this very call, and its file is not staying
            local.forget_unsent(step, side, game.path(msg.name))
        raise
    return result


# ------------------------------------------------------------------------------------------------
# sealed rounds: commit (submit) and reveal
# ------------------------------------------------------------------------------------------------


def _sealed_body(game: Game, rp: Replay, side: str, step: int, answers: str, orders: Any,
                 seed: bytes) -> dict[str, Any]:
    from pbem.protocol.dice import reveal

    j = rp.next_reveal_index(side)
    if j > game.chain_length:
        raise InputError(f"{side}'s dice chain is exhausted ({game.chain_length} reveals)")
    return {"ds": archive.MOVE_DS, "game": game.id, "step": step, "side": side, "answers": answers,
            "reveal": reveal(seed, game.chain_length, j).hex(), "orders": orders, "pbem": __version__}


def _my_sealed_side(rp: Replay, rnd: Any, my_sides: list[str]) -> str | None:
    """The side of ``my_sides`` that owes this phase's message and has not sent it (held moves
    included), or ``None`` when every one of them has."""
    for side in rnd.owed():
        if side in my_sides and rnd.slot(side) not in rp.held:
            return str(side)
    return None


def _submit_sealed(game: Game, rp: Replay, rnd: Any, orders: OrdersSource, key_name: str,
                   my_sides: list[str], local: Any, seeds: dict[str, bytes], confirm: Confirm | None,
                   result: Submitted) -> Submitted:
    """Commit to sealed orders: only their hash (with a secret salt) is signed and sent now; the
    orders stay on this machine until every side has committed (``pbem reveal``) [P8]."""
    from pbem.engine.sealed import commit_orders, commitment, derive_salt

    if rnd.phase in ("ack", "reveal"):
        raise InputError("every side has committed its sealed orders: " + (
            "acknowledge the commitments" if rnd.phase == "ack" else "reveal yours") +
            " with 'pbem reveal GAME_DIR --key KEY' (orders cannot change now) [P8]")
    side = _my_sealed_side(rp, rnd, my_sides)
    if side is None:
        raise InputError(f"your sealed orders for this round are committed already; waiting for "
                         f"{rp.waiting} [P8]")
    step = rnd.slot(side)
    state = rp.current.state
    if state is None:  # hidden information: what this side may see, from the umpire's last report
        state = view_state(game, rp, side, key_name)
    orders_json = prepare_orders(game, state, side, orders(state, side))
    presenter = game.ruleset.presenter()
    label = rnd.labels[rnd.sides.index(side)]
    shown = Preview(side, step, f"{label} -- sealed: only a commitment is sent now", orders_json,
                    presenter.describe_orders(game.scenario, orders_json),
                    presenter.undone(game.scenario, state, side, orders_json))
    if local.signed(step, side) is None and confirm is not None and not confirm(shown):
        raise InputError("not signed: nothing was written")
    salt = derive_salt(seeds[side], game.id, step, side)
    kept = local.sealed(step, side)
    if kept is not None and kept != orders_json:
        raise ArchiveError(f"you already committed other sealed orders for step {step} as {side}; "
                           "a commitment fixes them [P7]")
    recorded = local.signed(step, side)
    if recorded is not None and kept == orders_json:  # re-send exactly what was signed [P7]
        return _place_signed(game, rp, local, result, recorded, step, side, fresh=False)
    for_umpire = None
    signed_orders: dict[str, str]
    copy = {"orders": orders_json, "salt": salt.hex()}
    pad = game.ruleset.sealed_size(game.scenario, side)
    if rnd.umpire is not None and rnd.acks:
        # only the umpire can read them, and only once this side acknowledges every commitment:
        # the copy is sealed under a key of its own, released in the acknowledgement [P8, 29]
        from pbem.engine.sealed import copy_key, key_hash, seal_copy

        key = copy_key(seeds[side], game.id, step, side)
        signed_orders = {**commit_orders(commitment(orders_json, salt),
                                         seal_copy(copy, key, game=game.id, step=step, side=side, pad_to=pad)),
                         "key": key_hash(key)}
    else:
        if rnd.umpire is not None:  # only the umpire can read them before the reveal [P8, P9]
            from pbem.protocol.seal import seal

            for_umpire = seal(copy, game.x25519(rnd.umpire), game=game.id, step=step, sender=side,
                              to=rnd.umpire, what="sealed orders", pad_to=pad)
        signed_orders = commit_orders(commitment(orders_json, salt), for_umpire)
    body = _sealed_body(game, rp, side, step, rnd.base_turn, signed_orders, seeds[side])
    local.save_sealed(step, side, orders_json)
    return _sign_and_place(game, rp, local, result, body, key_name)


def my_view(game: Game, rp: Replay, side: str, key_name: str, step: int | None = None) -> Any:
    """``side``'s view of the game now, or after ``step`` (hidden information): the umpire's
    newest report by then opened with this side's key; the initial state when no round has been
    reported yet."""
    from pbem.protocol.localstate import private_key
    from pbem.protocol.seal import open_sealed, x25519_private

    # In a hidden game only the umpire's reports (and turn 0) change the state: the newest is the
    # move of the turn that opened the current round (or the current turn, after the last).
    if step is None or step == rp.current.step:
        cur = rp.current
        base = cur.round.base if cur.round is not None else cur.step
    else:
        base = _round_base(game, rp, step)
    if base == 0:  # the initial state is the scenario's: public
        rec = rp.record(0)
        state = rec.state if rec is not None else None
        if state is None:
            state = game.ruleset.initial_state(game.scenario, game.body.options)
        return game.ruleset.view(game.scenario, game.ruleset.dump_state(game.scenario, state), side)
    orders = rp.placed_move(base).body.orders
    if isinstance(orders, dict) and set(orders) == {"report"}:
        sealed = orders["report"]["views"].get(side)
        if sealed is None:
            raise InputError(f"the umpire's report has no view for {side}")
        key = x25519_private(private_key(key_name), game.id, side)
        return open_sealed(sealed, key, game=game.id, step=base, sender=str(game.umpire), to=side,
                           what="report")
    raise InputError("no view of this game is available yet")


def _round_base(game: Game, rp: Replay, step: int) -> int:
    """The step whose state a hidden game's turn ``step`` holds: the first turn of the sealed round
    it is part of (from the public turn file), or ``step`` itself."""
    from pbem.engine.sealed import Round

    if not 0 <= step <= rp.current.step:
        raise InputError(f"no step {step} in this game yet (steps 0 to {rp.current.step})")
    rec = rp.record(step)
    if rec is not None:
        return rec.round.base if rec.round is not None else step
    path = game.listing.turns.get(step)
    if path is None:
        raise InputError(f"no turn-{step:04d}.json in {game.dir}")
    import json

    from pbem.protocol.canonical import MAX_TURN_BYTES

    turn = json.loads(archive.read_limited(path, MAX_TURN_BYTES))
    sealed = turn.get("sealed") if isinstance(turn, dict) else None
    if isinstance(sealed, dict):
        try:
            rnd = Round.from_json(sealed)
        except (KeyError, TypeError, ValueError):
            raise InputError(f"{path.name}: its sealed round is malformed") from None
        if not 0 <= rnd.base < step:
            raise InputError(f"{path.name}: its sealed round starts at step {rnd.base}, not before it")
        return rnd.base
    return step


def view_state(game: Game, rp: Replay, side: str, key_name: str) -> Any:
    """:func:`my_view` as the ruleset's state type (a view has the state's form, holding only what
    the side may see), to check that side's orders against."""
    return game.ruleset.load_state(game.scenario, my_view(game, rp, side, key_name))


def _umpire_phase(game: Game, key_name: str, phase: str, why: str) -> tuple[Any, Replay, Any, dict[str, bytes], Submitted]:
    """The umpire's machine at a phase of a sealed round that is the umpire's: ``(local state,
    replay, round, seeds, result so far)``; :class:`InputError` when ``key_name`` is not the
    umpire's or nothing of that phase is due."""
    from pbem.protocol.keys import KeyStore
    from pbem.protocol.localstate import LocalGame, local_seeds, seed_for

    if game.umpire is None:
        raise InputError("this game has no umpire")
    info = KeyStore().info(key_name)
    if game.umpire not in game.side_of_fingerprint(info.fingerprint):
        raise InputError(f"key {key_name} is not the umpire's ({game.umpire}) in this game")
    local = LocalGame.of(game)
    seed_for(game, local, game.umpire, key_name, derive=True)
    seeds = local_seeds(game, local)
    rp = game.replay(seeds, local=local)
    result = Submitted(rp, rp.write())
    rnd = rp.current.round if rp.records and not rp.tail_open else None
    if rnd is None or rnd.phase != phase:
        raise InputError(f"no {phase} is due now: waiting for {rp.waiting or 'nothing'} {why}".rstrip())
    return local, rp, rnd, seeds, result


def report(game: Game, key_name: str, *, confirm: Confirm | None = None) -> Submitted:
    """The umpire resolves a round of hidden information and reports: the new state's hash, what is
    pending, the outcome, and each side's view sealed to that side alone [P10]."""
    from pbem.engine.replay import _outcome_json, decision_json
    from pbem.protocol.seal import seal

    if game.umpire is None or not game.hidden:
        raise InputError("only the umpire of a game with hidden information reports")
    local, rp, rnd, seeds, result = _umpire_phase(game, key_name, "report", "[P10]")
    assert game.umpire is not None
    step = rnd.slot(game.umpire)
    resolution, _, _, _ = rp.hidden_resolution(rnd, rp.current, step)
    rules, sc = game.ruleset, game.scenario
    dumped = rules.dump_state(sc, resolution.state)
    plain = {side: rules.view(sc, dumped, side) for side in rnd.sides}
    # every view of a report sealed at one length, the longest one's bucket, so that no side can
    # tell from the ciphertexts whose turn was busy [P10] -- unless that would pass the size of a
    # move, when each keeps its own bucket
    from pbem.protocol.canonical import MAX_MOVE_BYTES, canonical_bytes
    from pbem.protocol.seal import padded_length

    pad_to = max(padded_length(len(canonical_bytes(v))) for v in plain.values())
    if len(plain) * (pad_to * 4 // 3 + 1024) > MAX_MOVE_BYTES * 3 // 4:
        pad_to = 0
    views = {side: seal(view, game.x25519(side), game=game.id, step=step, sender=game.umpire, to=side,
                        what="report", pad_to=pad_to) for side, view in plain.items()}
    body_orders = {"report": {
        "state": rp.hidden_hash(dumped, step),
        "pending": [decision_json(d) for d in rules.pending(sc, resolution.state)],
        "outcome": _outcome_json(rules.outcome(sc, resolution.state)),
        "views": views,
    }}
    lines = [rules.describe_event(sc, e) for e in resolution.events]
    shown = Preview(game.umpire, step, "Report of the round (each side sees only its own view) [P10]",
                    body_orders["report"]["pending"], lines, [])
    if local.signed(step, game.umpire) is None and confirm is not None and not confirm(shown):
        raise InputError("not signed: nothing was written")
    recorded = local.signed(step, game.umpire)
    if recorded is not None:  # re-send what was signed (its ciphertexts cannot be made again) [P7]
        return _place_signed(game, rp, local, result, recorded, step, game.umpire, fresh=False)
    body = _sealed_body(game, rp, game.umpire, step, rp.current.turn_hash, body_orders, seeds[game.umpire])
    return _sign_and_place(game, rp, local, result, body, key_name)


def publish(game: Game, key_name: str) -> Path:
    """After a game with hidden information: the umpire signs and writes ``publication.json``,
    every sealed order with its salt, so that ``pbem verify`` re-checks every commitment, state and
    report [P10]."""
    from pbem.engine.sealed import (
        PUBLICATION_TYPE,
        commitment,
        open_side_copy,
        parse_commit,
        publication_body,
        split_void,
    )
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.dsse import envelope_bytes, sign
    from pbem.protocol.fsutil import write_new
    from pbem.protocol.keys import KeyStore
    from pbem.protocol.localstate import LocalGame, local_seeds, private_key
    from pbem.protocol.seal import x25519_private

    if game.umpire is None or not game.hidden:
        raise InputError("only the umpire of a game with hidden information publishes")
    info = KeyStore().info(key_name)
    if game.umpire not in game.side_of_fingerprint(info.fingerprint):
        raise InputError(f"key {key_name} is not the umpire's ({game.umpire}) in this game")
    local = LocalGame.of(game)
    rp = game.replay(local_seeds(game, local), local=local)
    if not rp.closed:
        raise InputError("the game is not over: the orders are published after the last report [P10]")
    key = x25519_private(private_key(key_name), game.id, game.umpire)
    opened: dict[int, tuple[Any, bytes]] = {}
    steps = sorted(game.moves)
    for i, step in enumerate(steps):
        msg = game.moves[step]
        sealed_orders = split_void(msg.body.orders)[0]
        keyed = parse_commit(sealed_orders, umpire=True, keyed=True) is not None
        if not keyed and parse_commit(sealed_orders, umpire=True) is None:
            continue
        ack = None
        if keyed:  # an acknowledged round: the side's next message is its acknowledgement [29]
            ack = next(m for m in (game.moves[t] for t in steps[i + 1:]) if m.body.side == msg.body.side)
        try:
            value, copy_salt = open_side_copy(sealed_orders, ack.body.orders if ack else None, key, game=game.id,
                                              commit_step=step, ack_step=ack.body.step if ack else 0,
                                              side=msg.body.side, umpire=str(game.umpire))
        except (PbemError, KeyError, TypeError, ValueError, StopIteration) as exc:
            if keyed:  # a copy that lied, voided by the ruling with its key: nothing to publish [29]
                continue
            raise InputError(f"{msg.name}: its sealed copy cannot be opened ({exc})") from None
        if keyed and commitment(value, copy_salt) != sealed_orders["sealed"]:
            continue  # the same: voided, its key published with the ruling
        opened[step] = (value, copy_salt)
    whole = game.scenario_data if game.body.scenario.copies is not None else None
    if whole is not None and game.copy_of is not None:
        raise InputError("this directory holds a team's copy of the scenario, not Game Control's whole one")
    salt = rp.state_salt if game.salted else None
    if game.salted and salt is None:
        raise InputError("the salt of this game's state hashes is not on this machine (Game Control's chain seed)")
    body = canonical_bytes(publication_body(game.id, opened, whole, salt))
    path = game.path(names.PUBLICATION)
    env = envelope_bytes(sign(body, PUBLICATION_TYPE, [private_key(key_name)]))
    if path.exists():
        raise InputError(f"{names.PUBLICATION} exists already; pbem never overwrites it")
    write_new(path, env)
    return path


def sealed_orders_for_umpire(game: Game, rp: Replay, rnd: Any, umpire_key: Any,
                             void: dict[str, str] | None = None) -> dict[str, Any]:
    """Every side's orders of the round, opened with the umpire's key and checked against its
    commitment: side -> orders JSON. In an acknowledged round a side whose copy (opened with the
    key it released, the one its commitment names) lies -- does not open, or holds other orders
    than it committed to -- goes into ``void`` with that key, the proof the ruling publishes [29];
    otherwise :class:`InputError` names a side whose sealed copy cannot be read [P8]."""
    from pbem.engine.sealed import (
        commitment,
        open_sealed_key,
        open_side_copy,
        parse_commit,
        void_proof,
    )

    out: dict[str, Any] = {}
    for side in rnd.sides:
        msg = rp.placed_move(rnd.slot(side, "commit"))
        ack = rp.placed_move(rnd.slot(side, "ack")) if rnd.acks else None
        sealed = parse_commit(msg.body.orders, umpire=True, keyed=rnd.acks)
        if ack is not None and void is not None:
            try:
                released = open_sealed_key(ack.body.orders, umpire_key, game=game.id, step=ack.body.step,
                                           side=side, umpire=str(rnd.umpire))
            except (PbemError, ValueError, KeyError, TypeError):
                released = None
            if released is not None and void_proof(msg.body.orders, released.hex(), game=game.id,
                                                   commit_step=msg.body.step, side=side):
                void[side] = released.hex()
                continue
        try:
            orders, salt = open_side_copy(msg.body.orders, ack.body.orders if ack else None, umpire_key,
                                          game=game.id, commit_step=msg.body.step,
                                          ack_step=ack.body.step if ack else 0, side=side, umpire=str(rnd.umpire))
        except (PbemError, KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{msg.name}: {side}'s orders sealed to the umpire cannot be read ({exc}); "
                             "rule on them as void, or ask the player [P8]") from None
        if commitment(orders, salt) != sealed:
            raise InputError(f"{msg.name}: {side}'s orders sealed to the umpire do not match its "
                             "commitment [P8]")
        out[side] = orders
    return out


def rule(game: Game, rulings: Any, key_name: str, *, confirm: Confirm | None = None) -> Submitted:
    """The umpire's ruling on a sealed round: signed after every commitment and before any reveal,
    so it cannot depend on the dice, which the reveals key [P9]."""
    from pbem.engine.sealed import parse_rulings
    from pbem.protocol.localstate import private_key
    from pbem.protocol.seal import x25519_private

    local, rp, rnd, seeds, result = _umpire_phase(game, key_name, "ruling", "[P9]")
    assert game.umpire is not None
    step = rnd.slot(game.umpire)
    void: dict[str, str] = {}
    orders = sealed_orders_for_umpire(game, rp, rnd, x25519_private(private_key(key_name), game.id, game.umpire),
                                      void)
    for side in void:  # as the rules say for missing orders: none [29]
        orders[side] = game.ruleset.skeleton(game.scenario, rp.current.state, side)
    checked = game.ruleset.load_rulings(game.scenario, rp.current.state, rulings)
    import json

    presenter = game.ruleset.presenter()
    sealed_note = " (sealed: everyone gets a commitment, only you can open the copy, published after the game)"
    lines = [f"SIGNED: rulings {json.dumps(checked, sort_keys=True)}{sealed_note if game.hidden else ''}",
             "read, not signed -- the sealed orders, each checked against its commitment:"]
    lines += [f"  {side}: {line}" for side, o in orders.items() if side not in void
              for line in presenter.describe_orders(game.scenario, o)]
    lines += [f"  {side}: its sealed copy does not hold the orders it committed to: its orders are void this "
              "round (no orders), and the key of the copy is published with the ruling, the proof anyone can "
              "check [P8, 29]" for side in sorted(void)]
    try:
        lines += presenter.describe_round(game.scenario, rp.current.state, orders, checked)
    except PbemError:
        pass  # orders that break the rules are named below; there is no proposal to show
    for side, o in orders.items():
        try:
            prepare_orders(game, rp.current.state, side, o)
        except PbemError as exc:
            lines.append(f"  {side}'s orders break the rules: {exc}")
    shown = Preview(game.umpire, step, "Rulings before the reveals [P9]", {"rulings": checked}, lines, [])
    if local.signed(step, game.umpire) is None and confirm is not None and not confirm(shown):
        raise InputError("not signed: nothing was written")
    parse_rulings({"rulings": checked})
    assert rnd.commits_turn is not None
    signed: Any = {"rulings": checked}
    if game.hidden:
        # Hidden information: the rulings name units and hexes of every side, so they are sealed
        # like orders -- a commitment everyone holds, a copy only the umpire opens -- and published
        # with them after the game, when verify checks them against the commitment [P9, P10].
        from pbem.engine.sealed import commit_orders, commitment, derive_salt
        from pbem.protocol.seal import seal

        salt = derive_salt(seeds[game.umpire], game.id, step, game.umpire)
        copy = seal({"orders": checked, "salt": salt.hex()}, game.x25519(game.umpire), game=game.id,
                    step=step, sender=game.umpire, to=game.umpire, what="sealed orders",
                    pad_to=game.ruleset.sealed_size(game.scenario, str(game.umpire)))
        signed = commit_orders(commitment(checked, salt), copy)
    if void:
        signed = {**signed, "void": dict(sorted(void.items()))}
    body = _sealed_body(game, rp, game.umpire, step, rnd.commits_turn, signed, seeds[game.umpire])
    return _sign_and_place(game, rp, local, result, body, key_name)


def reveal(game: Game, key_name: str, *, confirm: Confirm | None = None) -> Submitted:
    """Reveal the sealed orders this machine committed, once every side has committed [P8]: the
    reveal signs exactly the orders and salt the commitment hashed, nothing new. In an acknowledged
    round the first call acknowledges the commitments this machine holds (releasing the key of the
    copy for the umpire), and the reveal comes once every side has acknowledged them [29]."""
    from pbem.engine.sealed import derive_salt, reveal_orders

    my_sides, local, seeds, rp, result = _open_as(game, key_name)
    rnd = rp.current.round if rp.records and not rp.tail_open else None
    if rnd is None:
        raise InputError("there is no sealed round to reveal: nothing was signed")
    if rnd.phase == "commit":
        raise InputError(f"not every side has committed yet: waiting for {rp.waiting}; reveal "
                         "when the last commitment has arrived [P8]")
    if rnd.phase == "ack":
        return _acknowledge(game, rp, rnd, key_name, my_sides, local, seeds, confirm, result)
    if rnd.phase == "ruling":
        raise InputError(f"the umpire has not ruled yet: waiting for {rp.waiting}; reveal when "
                         "its ruling has arrived (it rules before anyone reveals) [P9]")
    side = _my_sealed_side(rp, rnd, my_sides)
    if side is None:
        raise InputError(f"your sealed orders are revealed already; waiting for {rp.waiting}")
    commit_step = rnd.slot(side, "commit")
    orders_json = local.sealed(commit_step, side)
    if orders_json is None:
        raise InputError(f"the orders {side} committed at step {commit_step} are not on this machine "
                         f"({local.dir}): reveal from the machine that committed them")
    step = rnd.slot(side)
    presenter = game.ruleset.presenter()
    if rnd.report:  # hidden information: only the chain value is signed; the orders stay sealed
        label = (f"{rnd.labels[rnd.sides.index(side)]} -- signs only the reveal that keys the round's "
                 f"dice; the orders committed at step {commit_step} stay sealed to the umpire until "
                 "the publication")
    else:
        label = f"{rnd.labels[rnd.sides.index(side)]} -- reveal the orders committed at step {commit_step}"
    shown = Preview(side, step, label, orders_json, presenter.describe_orders(game.scenario, orders_json), [])
    if local.signed(step, side) is None and confirm is not None and not confirm(shown):
        raise InputError("not signed: nothing was written")
    salt = derive_salt(seeds[side], game.id, commit_step, side)
    assert rnd.commits_turn is not None
    opened: Any = reveal_orders(orders_json, salt)
    if rnd.report:  # hidden information: the orders stay with the umpire; the reveal keys the dice
        from pbem.engine.sealed import HIDDEN_REVEAL

        opened = dict(HIDDEN_REVEAL)
    body = _sealed_body(game, rp, side, step, rnd.commits_turn, opened, seeds[side])
    return _sign_and_place(game, rp, local, result, body, key_name)


def _acknowledge(game: Game, rp: Replay, rnd: Any, key_name: str, my_sides: list[str], local: Any,
                 seeds: dict[str, bytes], confirm: Confirm | None, result: Submitted) -> Submitted:
    """Acknowledge the commitments this machine holds: the acknowledgement answers the turn of the
    last commitment (which hashes every one), so a side that split its commitments between players
    is caught before anyone reveals; with an umpire it releases to it the key of this side's copy,
    so the umpire reads no sheet before every side has committed [P8, 29]."""
    from pbem.engine.sealed import ack_orders, copy_key

    side = _my_sealed_side(rp, rnd, my_sides)
    if side is None:
        raise InputError(f"you have acknowledged the commitments already; waiting for {rp.waiting}")
    step = rnd.slot(side)
    commit_step = rnd.slot(side, "commit")
    label = (f"{rnd.labels[rnd.sides.index(side)]} -- acknowledge the commitments of steps {rnd.base + 1}"
             f"-{rnd.base + rnd.n}" + (" and release to the umpire the key of the orders you sealed for it"
                                       if rnd.umpire else ""))
    committed = local.sealed(commit_step, side)
    then = ("the umpire rules once every side has acknowledged, and then everyone reveals"
            + (" (your orders stay sealed to the umpire)" if rnd.report else "") if rnd.umpire else
            "everyone reveals once every side has acknowledged")
    lines = [f"signs no orders: your orders stay as you committed them at step {commit_step}; {then}"]
    if committed is not None:
        lines += [f"committed: {line}" for line in game.ruleset.presenter().describe_orders(game.scenario, committed)]
    shown = Preview(side, step, label, {"ack": "commitments"}, lines, [])
    if local.signed(step, side) is None and confirm is not None and not confirm(shown):
        raise InputError("not signed: nothing was written")
    sealed_key = None
    if rnd.umpire is not None:
        from pbem.protocol.seal import seal

        key = copy_key(seeds[side], game.id, commit_step, side)
        sealed_key = seal(key.hex(), game.x25519(rnd.umpire), game=game.id, step=step, sender=side,
                          to=rnd.umpire, what="copy key")
    assert rnd.commits_turn is not None
    recorded = local.signed(step, side)
    if recorded is not None:  # re-send exactly what was signed [P7]
        return _place_signed(game, rp, local, result, recorded, step, side, fresh=False)
    body = _sealed_body(game, rp, side, step, rnd.commits_turn, ack_orders(sealed_key), seeds[side])
    return _sign_and_place(game, rp, local, result, body, key_name)


# ------------------------------------------------------------------------------------------------
# receipts (quick results)
# ------------------------------------------------------------------------------------------------


def receipt(game: Game, key_name: str, *, required: bool = False) -> list[Path]:
    """When the newest move's dice wait for a side played here (whose own seed has just resolved
    them), sign a receipt disclosing that reveal -- no decision, only the value its next move
    must carry anyway -- so the mover sees the result at once. Writes ``receipt-NNNN-SIDE.json``
    and, where the game has mail, its email draft. Returns the files written (none when nothing is
    waiting for us, or the receipt exists; with ``required``, an :class:`InputError` that says why,
    as ``pbem receipt`` answers [29])."""

    def none_due(why: str) -> list[Path]:
        if required:
            raise InputError(f"no receipt is due: {why}")
        return []

    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.dice import reveal
    from pbem.protocol.dsse import RECEIPT_TYPE, envelope_bytes, sign
    from pbem.protocol.fsutil import write_new
    from pbem.protocol.keys import KeyStore
    from pbem.protocol.localstate import LocalGame, local_seeds, private_key

    info = KeyStore().info(key_name)
    mine = game.side_of_fingerprint(info.fingerprint)
    local = LocalGame.of(game)
    seeds = local_seeds(game, local, derive=True)
    rp = game.replay(seeds, local=local)
    if not rp.placed:
        return none_due("no move has been made yet")
    last = rp.placed[-1]
    if last.body.side in mine:
        return none_due(f"the newest move, {last.name}, is yours")
    if rp.resolved_through() != rp.placed_count:
        return none_due(f"the newest move, {last.name}, is not resolved here yet: ingest what it waits for")
    k = rp.placed_count
    rec = rp.record(k - 1)
    if rec is None or not rec.pending or not rec.pending[0].random:
        return none_due(f"the newest move, {last.name}, rolls no dice")
    co = rp.revealer_of(k)
    if co not in mine or co not in seeds:
        return none_due(f"the dice of {last.name} wait for {co}'s reveal, not for a side of key {key_name}")
    name = names.receipt_name(k, co)
    if game.path(name).exists():
        return none_due(f"{name} is already written (send it again if it was lost)")
    body = {"ds": archive.RECEIPT_DS, "game": game.id, "step": k, "side": co,
            "move": rp.placed[-1].body_hash,
            "reveal": reveal(seeds[co], game.chain_length, rp.next_reveal_index(co)).hex()}
    raw = envelope_bytes(sign(canonical_bytes(body), RECEIPT_TYPE, [private_key(key_name)]))
    written = []
    if write_new(game.path(name), raw):
        written.append(game.path(name))
    for hook in game.hooks.receipt_outputs:  # its email draft
        written += hook(game, rp, name, raw)
    return written


# ------------------------------------------------------------------------------------------------
# ingest
# ------------------------------------------------------------------------------------------------


@dataclass
class Ingested:
    replay: Replay
    written: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """What was already archived, which attached turns were checked, and so on."""


def _place_join(game: Game, name: str, raw: bytes, notes: list[str], seeds: dict[str, bytes]) -> Message | None:
    msg = archive.parse_join(raw, name)
    side = msg.body.side
    existing = game.joins.get(side)
    if existing is not None:
        if existing.body_hash == msg.body_hash:
            notes.append(f"already in the archive: {names.join_name(side)}")
            return None
        raise ArchiveError(f"{name}: a different join for {side} is already archived [P7]")
    game.joins[side] = msg
    game.replay(seeds)  # signatures and bindings, in memory (the umpire's seed: its salted hashes)
    return msg


def _place_move(game: Game, rp: Replay, name: str, raw: bytes, notes: list[str]) -> None:
    msg = archive.parse_move(raw, name)
    body = msg.body
    if body.game != game.id:
        raise InputError(f"{name} belongs to game {body.game[:8]}, not this game {game.id[:8]} [P2]")
    if body.step < rp.next_step:
        archived = rp.placed_move(body.step)
        if archived.body_hash == msg.body_hash:
            notes.append(f"already in the archive: {archived.name}")
            return
        if body.side != archived.body.side:
            raise ArchiveError(
                f"{name}: step {body.step} is already archived as {archived.name}; a move by "
                f"{body.side} cannot take its place [P2]"
            )
        from pbem.protocol.dsse import MOVE_TYPE, verify

        entry = game.body.sides[body.side]
        try:
            verify(msg.envelope, MOVE_TYPE, {entry.fingerprint: game.public_key(body.side)})
            signed = f"{body.side} signed two different moves for step {body.step}"
        except PbemError:
            signed = f"and it is not validly signed by {body.side}"
        raise ArchiveError(
            f"{name}: step {body.step} is already archived as {archived.name} with another body "
            f"({signed}); refused [P7]"
        )
    if body.step in rp.held:
        if rp.held[body.step].body_hash == msg.body_hash:
            notes.append(f"already in the archive: {rp.held[body.step].name} (waiting for earlier slots)")
            return
        raise ArchiveError(f"{name}: another move for step {body.step} is already archived [P7]")
    rnd = rp.current.round if rp.records and len(rp.records) == len(rp.placed) + 1 else None
    if body.step > rp.next_step and not (rnd is not None and rp._may_hold(rnd, body, rp.next_step)):
        raise InputError(f"{name} is for step {body.step}, but the game waits for step {rp.next_step}: "
                         "ingest the earlier moves first")
    rp.add_move(msg)


def _check_attached_turn(game: Game, rp: Replay, name: str, raw: bytes) -> str:
    """Compare a turn file that travelled with a move against ours [P6]."""
    from pbem.protocol.canonical import sha256_hex

    step = int(name[5:9])
    ours: bytes | None = None
    rec = rp.record(step)
    if rec is not None:
        ours = rec.turn_bytes
    elif game.path(name).is_file():
        from pbem.protocol.canonical import MAX_TURN_BYTES

        ours = archive.read_limited(game.path(name), MAX_TURN_BYTES)
    if ours is None:
        return f"note: {name} cannot be checked yet (its dice need a later move)"
    if ours != raw:
        raise ArchiveError(
            f"DIVERGENCE: the attached {name} (sha256 {sha256_hex(raw)[:16]}…) differs from the "
            f"one computed here (sha256 {sha256_hex(ours)[:16]}…) [P6]; nothing was archived"
        )
    return f"checked: the attached {name} is byte-identical to ours"


UTF8_BOM = b"\xef\xbb\xbf"


def _one_final_newline(raw: bytes) -> bytes:
    """pbem's files end in exactly one ``\\n``; mail in transit may make it ``\\r\\n`` (or drop or
    double it), and an editor may put a UTF-8 byte-order mark before the first ``{`` [29]. Only
    those are restored: every other byte, and so every signature, is checked as sent."""
    if raw.startswith(UTF8_BOM + b"{"):
        raw = raw[len(UTF8_BOM):]
    body = raw.rstrip(b"\r\n")
    return body + b"\n" if body.startswith(b"{") else raw


def ingest(game: Game, blobs: list[tuple[str, bytes]], seeds: dict[str, bytes]) -> Ingested:
    """Place the joins and moves among ``blobs`` (name, bytes), check the turn files among them
    against ours, and only then write. Anything wrong refuses the whole call; nothing is written."""
    from pbem.protocol.canonical import MAX_MOVE_BYTES
    from pbem.protocol.dsse import GENESIS_TYPE, JOIN_TYPE, MOVE_TYPE, parse_envelope
    from pbem.protocol.fsutil import write_new
    from pbem.protocol.localstate import LocalGame, local_seeds

    blobs = [(name, _one_final_newline(raw)) for name, raw in blobs]
    for name, raw in blobs:
        if name in (names.GENESIS, names.SCENARIO):
            mine = game.path(name)
            if not archive.same_bytes(mine, raw):
                raise InputError(f"{name} starts a game: accept an invitation with 'pbem join "
                                 f"GAME_DIR --key YOUR_KEY --invitation FILE'")
    # Turn files travel in emails beside the move that answers them: they are not archive input
    # (every turn is recomputed here) but each must equal ours byte for byte [P6].
    turns = [(n, r) for n, r in blobs if names.is_turn_name(n)]
    inputs = [(n, r) for n, r in blobs
              if n not in (names.GENESIS, names.SCENARIO) and not names.is_turn_name(n)]
    from pbem.engine.sealed import (
        MAX_PUBLICATION_BYTES,
        PUBLICATION_TYPE,
        parse_publication_full,
        publication_problem,
    )
    from pbem.protocol.dsse import RECEIPT_TYPE

    receipts: list[Message] = []
    notes: list[str] = []
    publications: list[bytes] = []
    new_joins: list[Message] = []
    moves: list[tuple[str, bytes]] = []
    for name, raw in inputs:
        # a publication may be larger than a move; every other message keeps the move's limit
        env = parse_envelope(raw, max_bytes=MAX_PUBLICATION_BYTES, what=name)
        if env.payloadType != PUBLICATION_TYPE and len(raw) > MAX_MOVE_BYTES:
            raise InputError(f"{name}: file too large ({len(raw)} bytes, limit {MAX_MOVE_BYTES})")
        if env.payloadType == GENESIS_TYPE:
            raise InputError(f"{name} is a genesis: a game directory already has one")
        if env.payloadType == JOIN_TYPE:
            msg = _place_join(game, name, raw, notes, seeds)
            if msg is not None:
                new_joins.append(msg)
        elif env.payloadType == MOVE_TYPE:
            moves.append((name, raw))
        elif env.payloadType == RECEIPT_TYPE:
            receipts.append(archive.parse_receipt(raw, name))
        elif env.payloadType == PUBLICATION_TYPE and game.umpire is not None:
            _, whole, salt = parse_publication_full(raw, game.id, game.public_key(game.umpire),
                                                    game.body.sides[game.umpire].fingerprint)
            problem = publication_problem(game.body, whole, salt)
            if problem is not None:
                raise InputError(f"{name}: {problem}")
            publications.append(raw)
        else:
            raise InputError(f"{name}: not a pbem move or join (payload type {env.payloadType[:60]!r})")
    local = LocalGame.of(game)
    if new_joins:
        seeds = local_seeds(game, local, derive=True)
    rp = game.replay(seeds, local=local)
    if game.hidden and moves:  # an umpire's report: our own views must open with our keys [29]
        from pbem.protocol.localstate import viewer_keys

        rp.viewer_keys, skipped = viewer_keys(game, local, ask=False)
        notes += [f"the view sealed to {side} is not opened here (its key needs a passphrase: set "
                  "PBEM_PASSPHRASE, or 'pbem verify' checks it)" for side in skipped]
    # files in step order, whatever order they were given in (a mail client's, a shell glob's)
    moves.sort(key=lambda nr: (int(nr[0][5:9]) if nr[0][5:9].isdigit() else 1 << 30, nr[0]))
    for name, raw in moves:
        _place_move(game, rp, name, raw, notes)
    for msg in receipts:  # quick results: a receipt resolves the turn that waits for its reveal
        if msg.name != names.receipt_name(msg.body.step, msg.body.side):
            raise InputError(f"{msg.name}: a receipt's file name is {names.receipt_name(msg.body.step, msg.body.side)}")
        if msg.name in game.listing.other:
            notes.append(f"already in the archive: {msg.name}")
            continue
        rp.add_receipt(msg)
        notes.append(f"{msg.name}: {msg.body.side}'s receipt resolves step {msg.body.step}")
    notes += [_check_attached_turn(game, rp, name, raw) for name, raw in turns]
    # every check passed: now write (joins, then moves, turns and their outputs)
    written: list[Path] = []
    for msg in new_joins:
        path = game.path(names.join_name(msg.body.side))
        if write_new(path, msg.raw):
            written.append(path)
    written += rp.write()
    for raw in publications[:1]:  # the umpire's publication after the game [P10]
        path = game.path(names.PUBLICATION)
        if archive.same_bytes(path, raw):
            notes.append(f"already here: {names.PUBLICATION}")
        elif write_new(path, raw):
            written.append(path)
            notes.append(f"{names.PUBLICATION}: the umpire's publication; 'pbem verify' now checks every "
                         "sealed order, state and report [P10]")
    return Ingested(rp, written, notes)


# ------------------------------------------------------------------------------------------------
# What to do next
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NextAction:
    """One thing a player should do next, or be told: ``kind`` is ``over``, ``send``, ``publish``,
    a sealed round's phase (``commit``, ``ack``, ``ruling``, ``reveal``, ``report``) or ``waiting``."""

    kind: str
    text: str


_PHASE_WORDS = {
    "commit": "commit {}'s sealed orders with 'pbem submit GAME_DIR ORDERS --key KEY'",
    "report": "every side has revealed: resolve the round and report as {} with 'pbem report GAME_DIR --key KEY'",
}


def next_actions(game: Game, rp: Replay, written: list[Path], *, authored: bool = True) -> list[NextAction]:
    """What the player should send and what happens next, after a command wrote ``written``.
    ``authored`` False (ingest): the move files written are the other players' own; nothing of
    theirs is to be sent back. The sealed-round state machine as a player meets it lives here."""
    from pbem.protocol.localstate import LocalGame

    out: list[NextAction] = []
    mails = [p.name for p in written if p.name.startswith(names.MAIL_PREFIX)]
    # the email carries the move (and the turn it answers, and the map): send that when there is one
    moves = mails or ([p.name for p in written if p.name.startswith(names.MOVE_PREFIX)] if authored else [])
    try:
        local = list(LocalGame.of(game).sides())
    except PbemError:
        local = []
    if rp.records and not rp.tail_open and not rp.current.pending:
        outcome = rp.current.turn["outcome"]
        out.append(NextAction("over", f"game over: {outcome['summary'] if outcome else 'closed'}"))
        if moves:
            out.append(NextAction("send", f"send {', '.join(moves)} so the others can close their archive"))
        if game.hidden and not (game.dir / names.PUBLICATION).exists():
            if game.umpire in local:
                out.append(NextAction("publish", "publish every sealed order so that anyone can check the game: "
                                      "'pbem publish GAME_DIR --key KEY' [P10]"))
            else:
                out.append(NextAction("publish", "Game Control publishes every sealed order next: ingest its "
                                      "publication email, then 'pbem verify GAME_DIR' checks every "
                                      "adjudication of the game [P10]"))
        return out
    if moves:
        out.append(NextAction("send", f"send {', '.join(moves)} to the other player(s); they run "
                                      f"'pbem ingest GAME_DIR {moves[0]}'"))
    rnd = rp.current.round if rp.records and not rp.tail_open else None
    mine = [s for s in rnd.owed() if s in local and rnd.slot(s) not in rp.held] if rnd is not None else []
    if rnd is not None and mine:
        reveal = ("send {}'s reveal (your dice-chain value: the orders stay sealed to the umpire)" if game.hidden
                  else "reveal {}'s sealed orders")
        words = {
            **_PHASE_WORDS,
            "ack": "every side has committed: acknowledge the commitments as {} with "
                   "'pbem reveal GAME_DIR --key KEY' (your orders stay as committed; "
                   + ("the umpire rules next, then everyone reveals)" if rnd.umpire else
                      "the reveals come once every side has acknowledged)"),
            "ruling": ("every side has acknowledged" if rnd.acks else "every side has committed")
                      + ": read their orders and rule as {} with 'pbem rule GAME_DIR [RULINGS.json] --key KEY'",
            "reveal": ("every side has acknowledged the commitments" if rnd.acks else "every side has committed")
                      + (" and the umpire has ruled" if rnd.umpire else "")
                      + ": " + reveal + " with 'pbem reveal GAME_DIR --key KEY'",
        }
        out.append(NextAction(rnd.phase, words[rnd.phase].format(", ".join(mine))))
    if rp.waiting:
        out.append(NextAction("waiting", f"now waiting for {rp.waiting}"))
    return out


# ------------------------------------------------------------------------------------------------
# Retracting a move never sent
# ------------------------------------------------------------------------------------------------


def retractable(game: Game) -> Message:
    """The newest move of the game, when it was signed on this machine (only its author may take
    it back, and only the newest: later turns depend on it); otherwise :class:`InputError`."""
    from pbem.protocol.localstate import LocalGame

    if not game.listing.moves:
        raise InputError("no move to retract: the game has none yet")
    step = max(game.listing.moves)
    path = game.listing.moves[step]
    msg = game.moves[step]
    local = LocalGame.of(game)
    record = local.signed(step, msg.body.side)
    if record is None or archive.parse_move(record, path.name).body_hash != msg.body_hash:
        raise InputError(f"{path.name} was not signed on this machine: only its author can retract it")
    return msg


def retract(game: Game, msg: Message) -> list[str]:
    """Discard ``msg`` (:func:`retractable`): its move file, its email draft, the turn files and
    maps computed from it, this machine's record of the signature and its checkpoint, so that
    other orders can be signed for that step. Returns the names of the files removed."""
    from pbem.protocol.localstate import LocalGame

    step, side = msg.body.step, msg.body.side
    later = [names.turn_name(s) for s in game.listing.turns if s >= step]
    later += [names.map_name(s) for s in game.listing.turns if s >= step]
    removed: list[str] = []
    for name in [names.move_name(step, side), names.mail_name(step), *later]:
        target = game.dir / name
        if target.is_file():
            target.unlink()
            removed.append(name)
    local = LocalGame.of(game)
    local.forget_signed(step, side)
    checkpoint = local.dir / names.CHECKPOINT
    if checkpoint.is_file():
        checkpoint.unlink()  # it may name a turn just removed (it would be ignored anyway)
    return removed
