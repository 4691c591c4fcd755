"""The game commands: ``new``, ``join``, ``status``, ``orders``, ``submit``, ``ingest``, ``verify``,
``log`` and ``schema``.

Thin click wrappers over :mod:`pbem.engine.replay`: every check lives in the engine so that ``submit``,
``ingest`` and ``verify`` agree. Bad input is an :class:`InputError` (one line, exit 2, nothing
written); a failed verification a :class:`VerificationError` (exit 1, the first bad file named).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import click

from pbem.cli._out import echo
from pbem.errors import ArchiveError, IllegalOrders, InputError, PbemError
from pbem.protocol import archive


def _echo_files(paths: list[Path]) -> None:
    for p in paths:
        echo(str(p))


def _parse_option(text: str) -> tuple[str, Any]:
    if "=" not in text:
        raise InputError(f"--option {text!r}: expected KEY=VALUE")
    key, value = text.split("=", 1)
    if not key.replace("_", "").isalnum():
        raise InputError(f"--option {text!r}: bad option name")
    if value in ("true", "false"):
        return key, value == "true"
    try:
        return key, int(value)
    except ValueError:
        return key, value


def _nonce(given: str | None) -> bytes:
    """A fresh chain nonce, or (hidden ``--nonce``, for reproducible examples and tests) the given
    one. Choosing one's own nonce only affects one's own chain; nobody can choose another's."""
    from pbem.protocol.dice import NONCE_BYTES, new_nonce

    if given is None:
        return new_nonce()
    if len(given) != 2 * NONCE_BYTES or any(c not in "0123456789abcdef" for c in given):
        raise InputError(f"--nonce must be {2 * NONCE_BYTES} lowercase hex characters")
    return bytes.fromhex(given)


def _game_id(given: str | None) -> str:
    if given is None:
        return os.urandom(16).hex()  # the one use of randomness: a fresh game never reuses a chain
    if len(given) != 32 or any(c not in "0123456789abcdef" for c in given):
        raise InputError("--game-id must be 32 lowercase hex characters")
    return given


# ------------------------------------------------------------------------------------------------
# new / join
# ------------------------------------------------------------------------------------------------


@click.command()
@click.argument("scenario")
@click.argument("game_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--player", "players", multiple=True, required=True, metavar="SIDE=KEY",
              help="Who plays a side: a local key name, or a public-key file for an invited player.")
@click.option("--option", "options", multiple=True, metavar="K=V",
              help="Scenario option (e.g. chain_length=512).")
@click.option("--game-id", hidden=True, help="Fixed game id (reproducible examples and tests).")
@click.option("--nonce", "nonce_hex", hidden=True, help="Fixed chain nonce (reproducible examples and tests).")
def new(scenario: str, game_dir: Path, players: tuple[str, ...], options: tuple[str, ...],
        game_id: str | None, nonce_hex: str | None) -> None:
    """Start a game of SCENARIO in GAME_DIR (which must not exist or be empty)."""
    from pbem.engine.replay import SCENARIO_NAME, load_scenario, open_checked, side_ids
    from pbem.engine.scenarios import content_hash, load_data
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.dice import chain_head, chain_seed
    from pbem.protocol.dsse import GENESIS_TYPE, envelope_bytes, sign
    from pbem.protocol.fsutil import write_new
    from pbem.protocol.keys import NAME_RE, KeyStore, fingerprint, load_public_file, public_line
    from pbem.protocol.localstate import LocalGame, private_key

    data = load_data(scenario)
    digest = content_hash(data)
    ruleset, model = load_scenario(data, digest)
    sides = side_ids(ruleset, model, data)
    opts: dict[str, Any] = {}
    for text in options:
        k, v = _parse_option(text)
        if k in opts:
            raise InputError(f"--option {k} given twice")
        opts[k] = v
    chain_length = opts.pop("chain_length", 512)
    if not isinstance(chain_length, int) or isinstance(chain_length, bool) or not 2 <= chain_length <= 100_000:
        raise InputError("option chain_length must be an integer 2..100000")
    ruleset.initial_state(model, opts)  # options checked before anything is written
    gid = _game_id(game_id)
    nonce = _nonce(nonce_hex)

    store = KeyStore()
    chosen: dict[str, str] = {}
    for text in players:
        if "=" not in text:
            raise InputError(f"--player {text!r}: expected SIDE=KEY")
        side, spec = text.split("=", 1)
        if side not in sides:
            raise InputError(f"--player {text!r}: no side {side!r} in {scenario} (sides: {', '.join(sides)})")
        if side in chosen:
            raise InputError(f"side {side} given twice")
        chosen[side] = spec
    missing = [s for s in sides if s not in chosen]
    if missing:
        raise InputError(f"no --player for side(s) {', '.join(missing)}")
    if game_dir.exists() and (not game_dir.is_dir() or any(game_dir.iterdir())):
        raise InputError(f"{game_dir} exists and is not empty; pbem never overwrites a game")

    entries: dict[str, dict[str, Any]] = {}
    privs: dict[str, Any] = {}
    seeds: dict[str, bytes] = {}
    local_names: dict[str, str] = {}
    for side in sides:
        spec = chosen[side]
        if NAME_RE.match(spec) and store.has(spec):
            priv = private_key(spec)
            pub = priv.public_key()
            seed = chain_seed(priv, gid, side, nonce)
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
    if not privs:
        raise InputError("at least one side must be played with a local key (it signs the genesis)")
    body: dict[str, Any] = {
        "ds": archive.GENESIS_DS,
        "game": gid,
        "scenario": {"id": str(data.get("id", scenario)), "sha256": digest},
        "rules": ruleset.rules_id,
        "options": opts,
        "chain_length": chain_length,
        "sides": entries,
    }
    body_bytes = canonical_bytes(body)
    from pbem.protocol.canonical import sha256_hex

    local = LocalGame(gid, sha256_hex(body_bytes))  # refuses an id this machine already plays
    env = sign(body_bytes, GENESIS_TYPE, list(privs.values()))

    for side, seed in seeds.items():
        local.save_seed(side, seed)
        local.set_side(side, local_names[side])
    game_dir.mkdir(parents=True, exist_ok=True)
    written = [game_dir / SCENARIO_NAME, game_dir / archive.GENESIS_NAME]
    write_new(written[0], canonical_bytes(data) + b"\n")
    write_new(written[1], envelope_bytes(env))
    game = open_checked(game_dir)
    from pbem.engine.replay import load_plugins

    load_plugins()
    invited = game.missing_joins()
    if not invited:
        written += game.advance(seeds)
    else:
        from pbem.render.outputs import write_invitation_mails

        written += write_invitation_mails(game)
    _echo_files(written)
    echo(f"game {gid[:8]} ({body['scenario']['id']}) created.", err=True)
    for side in invited:
        mail = game_dir / f"mail-invite-{side}.eml"
        what = mail.name if mail.exists() else "genesis.json and scenario.json"
        echo(
            f"invite {side}: send {what}; they run 'pbem join GAME_DIR --key THEIR_KEY "
            f"--invitation {what.split()[0]}' and send back what it writes",
            err=True,
        )


def _invitation_files(invitation: Path) -> dict[str, bytes]:
    """The genesis.json (and scenario.json) an invitation carries: an email or a genesis.json
    with the scenario beside it. Read into memory only; nothing is believed yet."""
    from pbem.engine.replay import SCENARIO_NAME
    from pbem.engine.scenarios import MAX_SCENARIO_BYTES
    from pbem.protocol.canonical import MAX_GENESIS_BYTES

    if invitation.suffix.lower() == ".eml":
        files = dict(extract_from_eml(invitation))
    else:  # a genesis.json, with scenario.json beside it
        files = {archive.GENESIS_NAME: archive.read_limited(invitation, MAX_GENESIS_BYTES)}
        beside = invitation.parent / SCENARIO_NAME
        if beside.is_file():
            files[SCENARIO_NAME] = archive.read_limited(beside, MAX_SCENARIO_BYTES)
    if archive.GENESIS_NAME not in files:
        raise InputError(f"{invitation}: no genesis.json in this invitation")
    return {n: r for n, r in files.items() if n in (archive.GENESIS_NAME, SCENARIO_NAME)}


def _parse_expect(expect: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for text in expect:
        side, sep, fp = text.partition("=")
        if not sep or not fp.startswith("SHA256:"):
            raise InputError(f"--expect {text[:80]!r}: expected SIDE=SHA256:…")
        if side in out:
            raise InputError(f"--expect {side} given twice")
        out[side] = fp
    return out


def _check_bound_keys(game: Any, expected: dict[str, str]) -> None:
    """Refuse the game when a key it binds differs from one the player expects (--expect)."""
    for side, fp in expected.items():
        if side not in game.body.sides:
            raise InputError(f"--expect {side}: no side {side!r} in this game (sides: {', '.join(game.sides)})")
        bound = game.body.sides[side].fingerprint
        if bound != fp:
            raise InputError(
                f"{side}'s key in this invitation is {bound}, not {fp} as expected: refused, "
                "nothing written (someone may have altered the invitation)"
            )


def _show_bound_keys(game: Any, expected: dict[str, str], my_fingerprint: str) -> None:
    """Print every key the game binds (side, fingerprint), marking the player's own and the ones
    checked against --expect."""
    for side in game.sides:
        fp = game.body.sides[side].fingerprint
        mark = "  (your key)" if fp == my_fingerprint else "  (as expected)" if side in expected else ""
        echo(f"key  {side:<6} {fp}{mark}", err=True)
    others = [s for s in game.sides if game.body.sides[s].fingerprint != my_fingerprint]
    if any(s not in expected for s in others):
        echo("compare these fingerprints with the other players (e.g. by phone), or give "
                   "--expect SIDE=SHA256:… to have pbem compare them", err=True)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--key", "key_name", required=True, help="Your local key, registered in the invitation.")
@click.option("--invitation", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              default=None, help="The invitation email (.eml) or genesis.json to start GAME_DIR from.")
@click.option("--expect", multiple=True, metavar="SIDE=SHA256:…",
              help="Refuse the invitation unless SIDE's key has this fingerprint (repeatable).")
@click.option("--nonce", "nonce_hex", hidden=True, help="Fixed chain nonce (reproducible examples and tests).")
def join(game_dir: Path, key_name: str, invitation: Path | None, expect: tuple[str, ...],
         nonce_hex: str | None) -> None:
    """Accept an invitation: print the keys it binds, commit to your dice chain, sign the join.

    Nothing is written unless every check passes (the genesis signature, the scenario's hash, your
    key's place in the game and every --expect)."""
    import tempfile

    from pbem.engine.replay import SCENARIO_NAME, load_plugins, open_checked
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.dice import chain_head, chain_seed
    from pbem.protocol.dsse import JOIN_TYPE, envelope_bytes, sign
    from pbem.protocol.fsutil import write_new
    from pbem.protocol.keys import KeyStore
    from pbem.protocol.localstate import LocalGame, private_key

    load_plugins()
    expected = _parse_expect(expect)
    info = KeyStore().info(key_name)
    if invitation is not None:
        files = _invitation_files(invitation)
        if game_dir.exists() and not game_dir.is_dir():
            raise InputError(f"{game_dir} is not a directory")
        for name, raw in files.items():
            mine = game_dir / name
            if mine.is_file() and mine.read_bytes() != raw:
                raise ArchiveError(f"{game_dir} already holds another game's {name}; choose a new directory")
    elif not game_dir.is_dir():
        raise InputError(f"{game_dir} does not exist: give the invitation with --invitation FILE")
    else:
        files = {}

    def check(directory: Path) -> tuple[Any, list[str]]:
        game = open_checked(directory)
        game.replay()  # genesis signatures and bindings first
        sides = [s for s in game.side_of_fingerprint(info.fingerprint) if s in game.missing_joins()]
        if not sides:
            raise InputError(f"key {key_name} ({info.fingerprint}) is not invited to any open side of this game")
        _check_bound_keys(game, expected)
        return game, sides

    if files:  # check the invitation in a scratch directory before anything lands in GAME_DIR
        with tempfile.TemporaryDirectory(prefix="pbem-join-") as tmp:
            for name, raw in files.items():
                (Path(tmp) / name).write_bytes(raw)
            game, sides = check(Path(tmp))
    else:
        game, sides = check(game_dir)
    local = LocalGame.of(game)  # refuses a game id this machine already plays with another genesis
    _show_bound_keys(game, expected, info.fingerprint)
    priv = private_key(key_name)
    nonce = _nonce(nonce_hex)
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
        }
        joins.append((side, seed, envelope_bytes(sign(canonical_bytes(body), JOIN_TYPE, [priv]))))

    written: list[Path] = []
    game_dir.mkdir(parents=True, exist_ok=True)
    for name in (archive.GENESIS_NAME, SCENARIO_NAME):
        if name in files and write_new(game_dir / name, files[name]):
            written.append(game_dir / name)
    for side, seed, env in joins:
        local.save_seed(side, seed)
        local.set_side(side, key_name)
        path = game_dir / archive.join_name(side)
        write_new(path, env)
        written.append(path)
    game = open_checked(game_dir)
    from pbem.render.outputs import write_join_mail

    mails: list[Path] = []
    for side in sides:
        mails += write_join_mail(game, side)
    written += mails
    if not game.missing_joins():
        from pbem.protocol.localstate import local_seeds

        written += game.advance(local_seeds(game, local))
    _echo_files(written)
    send = [p.name for p in mails] or [p.name for p in written if p.name.startswith("join-")]
    echo(f"send {', '.join(send)} to the player who created the game; they run "
               f"'pbem ingest GAME_DIR {send[0]}'", err=True)


# ------------------------------------------------------------------------------------------------
# status / orders
# ------------------------------------------------------------------------------------------------


def _open_with_seeds(game_dir: Path, *, derive: bool = True) -> tuple[Any, Any, dict[str, bytes]]:
    """Open a game with the chain seeds of the sides this machine plays; ``derive`` (the default)
    re-derives a lost seed file from the private key and the published nonce."""
    from pbem.engine.replay import load_plugins, open_checked

    load_plugins()
    from pbem.protocol.localstate import LocalGame, local_seeds

    game = open_checked(game_dir)
    local = LocalGame.of(game)
    return game, local, local_seeds(game, local, derive=derive)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def status(game_dir: Path, as_json: bool) -> None:
    """Scenario, game id, step, phase, whose move it is (and since when), score, outcome."""
    game, _local, seeds = _open_with_seeds(game_dir)
    rp = game.replay(seeds)
    since = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.newest_mtime()))
    info: dict[str, Any] = {
        "game": game.id,
        "scenario": game.body.scenario.id,
        "step": len(rp.placed),
        "local_sides": sorted(seeds),
        "keys": {side: game.body.sides[side].fingerprint for side in game.sides},
    }
    if not rp.records:
        info.update(describe="", pending=[], waiting=rp.waiting, since=since, score={}, outcome=None)
    else:
        cur = rp.current
        info.update(
            resolved=cur.step,
            describe=game.ruleset.describe(game.scenario, cur.state),
            pending=[] if rp.tail_open else cur.turn["pending"],
            waiting=rp.waiting,
            since=since,
            score=cur.turn["score"],
            outcome=cur.turn["outcome"],
        )
    if as_json:
        echo(json.dumps(info, indent=2, sort_keys=True))
        return
    echo(f"game      {game.id[:8]}  ({game.body.scenario.id})")
    for side, fp in info["keys"].items():
        echo(f"key       {side:<6} {fp}" + ("  (played here)" if side in seeds else ""))
    echo(f"step      {info['step']} moves archived" + (f"; {info['describe']}" if info["describe"] else ""))
    for p in info["pending"]:
        echo(f"pending   {p['side']}: {p['label']} ({p['kind']})")
    if info.get("outcome"):
        echo(f"outcome   {info['outcome']['summary']}")
        for line in info["outcome"].get("breakdown", []):
            echo(f"          {line}")
    elif info["waiting"]:
        echo(f"awaiting  {info['waiting']} since {since}")
    if info["score"]:
        echo("score     " + ", ".join(f"{s} {v}" for s, v in info["score"].items()))


def _current_decision(rp: Any, name: str) -> Any:
    if not rp.records:
        raise InputError(f"the game has not started: waiting for {rp.waiting}")
    if rp.tail_open:
        raise InputError(f"step {len(rp.placed)} is not resolved yet: waiting for {rp.waiting}")
    if not rp.current.pending:
        raise InputError("the game is over; the archive is closed")
    return rp.current.pending[0]


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--side", required=True)
def orders(game_dir: Path, side: str) -> None:
    """Print a JSON skeleton of SIDE's pending decision, to edit and submit."""
    game, _local, seeds = _open_with_seeds(game_dir)
    if side not in game.body.sides:
        raise InputError(f"no side {side!r} in this game (sides: {', '.join(game.sides)})")
    rp = game.replay(seeds)
    decision = _current_decision(rp, "orders")
    if decision.side != side:
        raise InputError(f"it is {decision.side}'s decision ({decision.label}), not {side}'s")
    skeleton = game.ruleset.skeleton(game.scenario, rp.current.state, side)
    echo(json.dumps(skeleton, indent=2, sort_keys=True))


# ------------------------------------------------------------------------------------------------
# submit / ingest
# ------------------------------------------------------------------------------------------------


def _next_steps(game: Any, rp: Any, written: list[Path]) -> None:
    """Tell the player what to send and what happens next (stderr)."""
    mails = [p.name for p in written if p.name.startswith("mail-")]
    # the email carries the move (and the turn it answers, and the map): send that when there is one
    moves = mails or [p.name for p in written if p.name.startswith("move-")]
    if rp.records and not rp.tail_open and not rp.current.pending:
        outcome = rp.current.turn["outcome"]
        echo(f"game over: {outcome['summary'] if outcome else 'closed'}", err=True)
        if moves:
            echo(f"send {', '.join(moves)} so the others can close their archive", err=True)
        return
    if moves:
        echo(f"send {', '.join(moves)} to the other player(s); they run "
                   f"'pbem ingest GAME_DIR {moves[0]}'", err=True)
    if rp.waiting:
        echo(f"now waiting for {rp.waiting}", err=True)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.argument("orders_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--key", "key_name", required=True, help="Your local key.")
def submit(game_dir: Path, orders_file: Path, key_name: str) -> None:
    """Check, sign and adjudicate your orders; print every file written.

    ORDERS_FILE is JSON (as 'pbem orders' prints it) or, for WestWall games, text orders such as
    'move 1/501 to 1418' and 'attack 20 with 1/3 2/3 advance 1/3' (see the README)."""
    from pbem.engine.replay import load_plugins, open_checked
    from pbem.protocol.canonical import MAX_MOVE_BYTES, canonical_bytes, loads_strict
    from pbem.protocol.dice import reveal
    from pbem.protocol.dsse import MOVE_TYPE, envelope_bytes, sign
    from pbem.protocol.keys import KeyStore
    from pbem.protocol.localstate import LocalGame, local_seeds, private_key, seed_for

    load_plugins()
    raw_orders = archive.read_limited(orders_file, MAX_MOVE_BYTES)
    game = open_checked(game_dir)

    def orders_for(state: Any, side: str) -> Any:
        """The orders document: JSON as written, or text orders ('move 1/501 to 1418') read
        against the decision they answer."""
        if orders_file.suffix.lower() == ".json" or raw_orders.lstrip()[:1] in (b"{", b"["):
            return loads_strict(raw_orders, max_bytes=MAX_MOVE_BYTES, what=str(orders_file))
        from pbem.systems.westwall.model import Scenario

        if not isinstance(game.scenario, Scenario):
            raise InputError(f"{orders_file}: text orders are for WestWall games; write JSON")
        from pbem.systems.westwall.orders_text import parse_text_orders

        try:
            text = raw_orders.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"{orders_file}: invalid UTF-8 at byte {exc.start}") from None
        skeleton = game.ruleset.skeleton(game.scenario, state, side)
        return parse_text_orders(game.scenario, skeleton, side, text)

    info = KeyStore().info(key_name)
    my_sides = game.side_of_fingerprint(info.fingerprint)
    if not my_sides:
        raise InputError(f"key {key_name} ({info.fingerprint}) plays no side in this game")
    local = LocalGame.of(game)
    for side in my_sides:
        if game.commitment(side) is not None:
            seed_for(game, local, side, key_name, derive=True)
    seeds = local_seeds(game, local)
    rp = game.replay(seeds)
    written = rp.write()  # finish anything a crash left behind

    # the same orders re-submitted after they were archived: nothing new to sign
    mine = [m for m in rp.placed if m.body.side in my_sides]
    if mine:
        last = mine[-1]
        before = rp.records[last.body.step - 1].state
        try:
            earlier = orders_for(before, last.body.side)
            same = game.ruleset.normalize(game.scenario, before, last.body.side, earlier) == last.body.orders
        except PbemError:
            same = False
        if same and (rp.tail_open or not rp.current.pending or rp.current.pending[0].side not in my_sides
                     or last.body.step == len(rp.placed)):
            echo(f"already in the archive: {archive.move_name(last.body.step, last.body.side)}", err=True)
            from pbem.engine.replay import run_move_outputs

            written += run_move_outputs(game, rp, last)  # e.g. the email a crash did not write
            _echo_files(written)
            _next_steps(game, rp, written)
            return

    decision = _current_decision(rp, "submit")
    if decision.side not in my_sides:
        raise InputError(f"it is {decision.side}'s decision ({decision.label}); key {key_name} plays {', '.join(my_sides)}")
    side = decision.side
    state = rp.current.state
    normalized = game.ruleset.normalize(game.scenario, state, side, orders_for(state, side))
    violations = game.ruleset.validate(game.scenario, state, side, normalized)
    if violations:
        raise IllegalOrders(violations)
    step = rp.next_step
    j = rp.next_reveal_index(side)
    if j > game.chain_length:
        raise InputError(f"{side}'s dice chain is exhausted ({game.chain_length} reveals); start with a longer chain_length")
    body = {
        "ds": archive.MOVE_DS,
        "game": game.id,
        "step": step,
        "side": side,
        "answers": rp.current.turn_hash,
        "reveal": reveal(seeds[side], game.chain_length, j).hex(),
        "orders": normalized,
    }
    body_bytes = canonical_bytes(body)
    name = archive.move_name(step, side)
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
        env_bytes = envelope_bytes(sign(body_bytes, MOVE_TYPE, [private_key(key_name)]))
        local.record_signed(step, side, env_bytes)
    msg = archive.parse_move(env_bytes, name)
    rp.add_move(msg, authored=True)
    written += rp.write()
    _echo_files(written)
    _next_steps(game, rp, written)


def extract_from_eml(path: Path) -> list[tuple[str, bytes]]:
    """The archive attachments (``move-*.json``, ``join-*.json``) of an email file.

    Hook point for :mod:`pbem.mail.draft`: when it provides ``extract_attachments(path) -> list[(name,
    bytes)]`` it is used; until then an ``.eml`` is refused with a clear message."""
    try:
        from pbem.mail import draft as mail
    except ImportError:
        raise InputError(f"{path.name}: reading .eml files needs pbem.mail.draft (not installed yet); "
                         "save the attached move file and ingest that") from None
    fn = getattr(mail, "extract_attachments", None)
    if fn is None:
        raise InputError(f"{path.name}: pbem.mail.draft cannot extract attachments yet")
    result: list[tuple[str, bytes]] = fn(path)
    return result


def _place_join(game: Any, name: str, raw: bytes) -> Any:
    """Check a join against the archive and add it to ``game`` in memory; None if already there."""
    msg = archive.parse_join(raw, name)
    side = msg.body.side
    existing = game.joins.get(side)
    if existing is not None:
        if existing.body_hash == msg.body_hash:
            echo(f"already in the archive: {archive.join_name(side)}", err=True)
            return None
        raise ArchiveError(f"{name}: a different join for {side} is already archived [P7]")
    game.joins[side] = msg
    game.replay()  # signatures and bindings, in memory
    return msg


def _place_move(game: Any, rp: Any, name: str, raw: bytes) -> None:
    """Check a move against the replay ``rp`` and place it there (in memory)."""
    msg = archive.parse_move(raw, name)
    body = msg.body
    if body.game != game.id:
        raise InputError(f"{name} belongs to game {body.game[:8]}, not this game {game.id[:8]} [P2]")
    if body.step < rp.next_step:
        archived = rp.placed[body.step - 1]
        if archived.body_hash == msg.body_hash:
            echo(f"already in the archive: {archived.name}", err=True)
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
    if body.step > rp.next_step:
        raise InputError(f"{name} is for step {body.step}, but the game waits for step {rp.next_step}: "
                         "ingest the earlier moves first")
    rp.add_move(msg)


def _check_attached_turn(game_dir: Path, rp: Any, name: str, raw: bytes) -> str | None:
    """Compare a turn file that travelled with a move against ours [P6]; a note to print, or an
    :class:`ArchiveError` on divergence."""
    from pbem.protocol.canonical import sha256_hex

    step = int(name[5:9])
    ours: bytes | None = None
    if step < len(rp.records):
        ours = rp.records[step].turn_bytes
    elif (game_dir / name).is_file():
        ours = (game_dir / name).read_bytes()
    if ours is None:
        return f"note: {name} cannot be checked yet (its dice need a later move)"
    if ours != raw:
        raise ArchiveError(
            f"DIVERGENCE: the attached {name} (sha256 {sha256_hex(raw)[:16]}…) differs from the "
            f"one computed here (sha256 {sha256_hex(ours)[:16]}…) [P6]; nothing was archived"
        )
    return f"checked: the attached {name} is byte-identical to ours"


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
def ingest(game_dir: Path, files: tuple[Path, ...]) -> None:
    """Take the other players' move (or join) files and adjudicate what they make resolvable.

    Everything is checked before anything is written: a bad file (or an attached turn that differs
    from ours) refuses the whole ingest, and the game directory is left as it was."""
    from pbem.engine.replay import SCENARIO_NAME
    from pbem.protocol.canonical import MAX_MOVE_BYTES
    from pbem.protocol.dsse import GENESIS_TYPE, JOIN_TYPE, MOVE_TYPE, parse_envelope
    from pbem.protocol.fsutil import write_new
    from pbem.protocol.localstate import local_seeds

    blobs: list[tuple[str, bytes]] = []
    for path in files:
        if path.suffix.lower() == ".eml":
            blobs.extend(extract_from_eml(path))
        else:
            blobs.append((path.name, archive.read_limited(path, MAX_MOVE_BYTES)))
    for name, raw in blobs:
        if name in (archive.GENESIS_NAME, SCENARIO_NAME):
            mine = game_dir / name
            if not mine.is_file() or mine.read_bytes() != raw:
                raise InputError(f"{name} starts a game: accept an invitation with 'pbem join "
                                 f"GAME_DIR --key YOUR_KEY --invitation FILE'")
    # Turn files travel in emails beside the move that answers them: they are not archive input
    # (every turn is recomputed here) but each must equal ours byte for byte [P6].
    turns = [(n, r) for n, r in blobs if archive._TURN_RE.fullmatch(n)]
    inputs = [(n, r) for n, r in blobs
              if n not in (archive.GENESIS_NAME, SCENARIO_NAME) and not archive._TURN_RE.fullmatch(n)]

    game, local, seeds = _open_with_seeds(game_dir)
    new_joins: list[Any] = []
    moves: list[tuple[str, bytes]] = []
    for name, raw in inputs:
        env = parse_envelope(raw, max_bytes=MAX_MOVE_BYTES, what=name)
        if env.payloadType == GENESIS_TYPE:
            raise InputError(f"{name} is a genesis: a game directory already has one")
        if env.payloadType == JOIN_TYPE:
            msg = _place_join(game, name, raw)
            if msg is not None:
                new_joins.append(msg)
        elif env.payloadType == MOVE_TYPE:
            moves.append((name, raw))
        else:
            raise InputError(f"{name}: not a pbem move or join (payload type {env.payloadType[:60]!r})")
    if new_joins:
        seeds = local_seeds(game, local)
    rp = game.replay(seeds)
    for name, raw in moves:
        _place_move(game, rp, name, raw)
    notes = [_check_attached_turn(game_dir, rp, name, raw) for name, raw in turns]
    # every check passed: now write (joins, then moves, turns and their outputs)
    written: list[Path] = []
    for msg in new_joins:
        path = game_dir / archive.join_name(msg.body.side)
        if write_new(path, msg.raw):
            written.append(path)
    written += rp.write()
    _echo_files(written)
    for note in notes:
        if note:
            echo(note, err=True)
    _next_steps(game, rp, written)


# ------------------------------------------------------------------------------------------------
# verify / log / schema
# ------------------------------------------------------------------------------------------------


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
def verify(game_dir: Path) -> None:
    """Replay the archive from the genesis, checking every signature, roll and turn file."""
    from pbem.engine.replay import load_plugins, open_for_verify
    from pbem.protocol.localstate import LocalGame, local_seeds

    load_plugins()
    game = open_for_verify(game_dir)
    try:
        seeds = local_seeds(game, LocalGame.of(game), derive=False)
    except InputError:  # local state of another game with this id: verify as a stranger does
        seeds = {}
    s = game.verify(seeds)
    echo(f"game        {s.game}")
    echo(f"scenario    {s.scenario}")
    for side in game.sides:
        echo(f"key         {side:<6} {game.body.sides[side].fingerprint}")
    echo(f"steps       {s.steps} moves, {s.turns_checked} turn files recomputed byte for byte")
    echo(f"signatures  {s.signatures} checked")
    echo(f"rolls       {s.rolls} re-derived")
    for name in s.unchecked:
        echo(f"not yet     {name}: its dice need the next move (links checked)")
    echo(f"outcome     {s.outcome}" if s.outcome else f"awaiting    {s.waiting}")
    echo("OK")


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--step", type=int, default=None, help="Only this step.")
def log(game_dir: Path, step: int | None) -> None:
    """Readable history: who ordered what, the events, every roll with its inputs."""
    from pbem.engine.replay import describe_events

    game, _local, seeds = _open_with_seeds(game_dir)
    rp = game.replay(seeds)
    if step is not None and not 0 <= step < len(rp.records):
        raise InputError(f"no resolved step {step} (resolved: 0..{len(rp.records) - 1})")
    for rec in rp.records:
        if step is not None and rec.step != step:
            continue
        turn = rec.turn
        if rec.move is None:
            echo(f"step 0: {game.body.scenario.id} set up (game {game.id[:8]})")
            for side in game.sides:
                echo(f"    {side} plays with key {game.body.sides[side].fingerprint}")
        else:
            b = rec.move.body
            lines = _describe_orders(game, b.orders)
            if lines:
                echo(f"step {rec.step}: {b.side} ({rec.move.name}) orders:")
                for line in lines:
                    echo(f"  . {line}")
            else:
                brief = json.dumps(b.orders, sort_keys=True, separators=(",", ":"))
                if len(brief) > 160:
                    brief = brief[:157] + "..."
                echo(f"step {rec.step}: {b.side} ({rec.move.name}) orders {brief}")
        for text in describe_events(game.ruleset, game.scenario, turn["events"]):
            echo(f"    {text}")
        for r in turn["rolls"]:
            echo(f"    roll {r['i']}: {r['value']}  [{r['label']}]  key {turn['roll_key']} ctr {r['ctr']}")
        if turn["rolls"]:
            echo(f"    reveals {', '.join(turn['reveals'])}")
        if turn["outcome"]:
            echo(f"    outcome: {turn['outcome']['summary']}")
            for line in turn["outcome"].get("breakdown", []):
                echo(f"      {line}")
    if rp.tail_open and step is None:
        echo(f"step {len(rp.placed)}: archived, waiting for {rp.waiting}")


def _describe_orders(game: Any, orders: Any) -> list[str]:
    """Orders in words for WestWall games (the report wording of :mod:`pbem.render.outputs`)."""
    from pbem.systems.westwall.model import Scenario

    if not isinstance(game.scenario, Scenario):
        return []
    from pbem.render.outputs import describe_orders

    return describe_orders(game.scenario, orders)


@click.command()
@click.argument("what", type=click.Choice(["orders", "move", "turn", "genesis", "join"]))
def schema(what: str) -> None:
    """Print the JSON Schema of an orders document or an archive file body."""
    from pydantic import BaseModel, TypeAdapter

    if what == "orders":
        from pbem.systems.westwall.model import Orders

        doc = TypeAdapter(Orders).json_schema()
    else:
        models: dict[str, type[BaseModel]] = {"move": archive.MoveBody, "turn": archive.TurnFile, "genesis": archive.GenesisBody,
                  "join": archive.JoinBody}
        doc = models[what].model_json_schema()
    echo(json.dumps(doc, indent=2, sort_keys=True))
