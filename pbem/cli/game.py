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
from pbem.cli._out import progress as _progress
from pbem.cli.complete import scenario_ids, unit_ids
from pbem.errors import InputError
from pbem.protocol import archive, names
from pbem.render import engine_hooks


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
@click.argument("scenario", shell_complete=scenario_ids)
@click.argument("game_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--player", "players", multiple=True, required=True, metavar="SIDE=KEY",
              help="Who plays a side: a local key name, or a public-key file for an invited player.")
@click.option("--option", "options", multiple=True, metavar="K=V",
              help="Scenario option (e.g. chain_length=512).")
@click.option("--game-id", hidden=True, help="Fixed game id (reproducible examples and tests).")
@click.option("--nonce", "nonce_hex", hidden=True, help="Fixed chain nonce (reproducible examples and tests).")
@click.option("--email", "emails", multiple=True, metavar="SIDE=ADDRESS",
              help="A player's email address: the emails pbem drafts then carry From and To.")
@click.option("--time-control", "time_control", default=None, metavar="72h[,2x24h]",
              help="The agreed clock: hours a move, and extensions (shown by status, reminded by remind).")
def new(scenario: str, game_dir: Path, players: tuple[str, ...], options: tuple[str, ...],
        game_id: str | None, nonce_hex: str | None, emails: tuple[str, ...], time_control: str | None) -> None:
    """Start a game of SCENARIO in GAME_DIR (which must not exist or be empty)."""
    from pbem.engine.play import new_game

    opts: dict[str, Any] = {}
    for text in options:
        k, v = _parse_option(text)
        if k in opts:
            raise InputError(f"--option {k} given twice")
        opts[k] = v
    chosen: dict[str, str] = {}
    for text in players:
        if "=" not in text:
            raise InputError(f"--player {text!r}: expected SIDE=KEY")
        side, spec = text.split("=", 1)
        if side in chosen:
            raise InputError(f"side {side} given twice")
        chosen[side] = spec
    addresses: dict[str, str] = {}
    for text in emails:
        side, sep, address = text.partition("=")
        if not sep or side in addresses:
            raise InputError(f"--email {text[:80]!r}: expected SIDE=ADDRESS, once per side")
        addresses[side] = address
    from pbem.engine.clock import parse as parse_clock

    clock = parse_clock(time_control) if time_control is not None else None
    game, written = new_game(scenario, game_dir, chosen, opts, game_id=_game_id(game_id),
                             nonce=_nonce(nonce_hex), emails=addresses, time_control=clock,
                             hooks=engine_hooks())
    invited = game.missing_joins()
    if invited:
        from pbem.render.outputs import write_invitation_mails

        written += write_invitation_mails(game)
    _echo_files(written)
    echo(f"game {game.id[:8]} ({game.body.scenario.id}) created.", err=True)
    if game.body.scenario.copies is not None and not Path(scenario).is_file():
        echo(f"note: each team gets only its own copy of the set-up, but {scenario} ships with every pbem: a "
             "team that reads pbem's own files knows it. For a set-up nobody knows, give pbem new a scenario "
             "file of your own (pbem scenario check checks it).", err=True)
    for side in invited:
        mail = game_dir / names.invite_mail_name(side)
        what = mail.name if mail.exists() else "genesis.json and scenario.json"
        echo(
            f"invite {side}: send {what}; they run 'pbem join GAME_DIR --key THEIR_KEY "
            f"--invitation {what.split()[0]}' and send what it writes to "
            + ("every other side: each side needs every join" if len(game.sides) > 2 else "you"),
            err=True,
        )


def _invitation_files(invitation: Path) -> dict[str, bytes]:
    """The genesis.json (and scenario.json) an invitation carries: an email or a genesis.json
    with the scenario beside it. Read into memory only; nothing is believed yet."""
    from pbem.engine.scenarios import MAX_SCENARIO_BYTES
    from pbem.protocol.canonical import MAX_GENESIS_BYTES

    got = _read_input(invitation, MAX_GENESIS_BYTES)
    if len(got) != 1 or got[0][0] != invitation.name:  # an email, whatever its name
        files = dict(got)
    else:  # a genesis.json, with scenario.json beside it
        files = {names.GENESIS: got[0][1]}
        beside = invitation.parent / names.SCENARIO
        if beside.is_file():
            files[names.SCENARIO] = archive.read_limited(beside, MAX_SCENARIO_BYTES)
    if names.GENESIS not in files:
        raise InputError(f"{invitation}: no genesis.json in this invitation")
    return {n: r for n, r in files.items() if n in (names.GENESIS, names.SCENARIO)}


def _fetched_invitation(key_name: str, game_prefix: str | None) -> dict[str, bytes]:
    """The invitation to ``key_name`` in the IMAP mailbox (``pbem join --fetch``) [29]."""
    import tempfile

    from pbem.mail.transport import find_invitations, load_config
    from pbem.protocol.keys import KeyStore
    from pbem.protocol.keys import home as pbem_home

    fingerprint = KeyStore().info(key_name).fingerprint
    server = load_config(pbem_home(), "imap")
    found = find_invitations(server, fingerprint)
    if game_prefix is not None:
        found = [i for i in found if i.game.startswith(game_prefix.lower())]
    games = sorted({i.game for i in found})
    if not games:
        raise InputError(f"no invitation to key {key_name} ({fingerprint}) in mailbox {server.mailbox[:60]!r}"
                         + (f" for game {game_prefix[:40]!r}" if game_prefix else ""))
    if len(games) > 1:
        raise InputError(f"{len(games)} games invite key {key_name}: choose one with --game "
                         + ", --game ".join(g[:8] for g in games))
    chosen = [i for i in found if i.game == games[0]][-1]
    echo(f"invitation: {chosen.label}, game {chosen.game}", err=True)
    with tempfile.TemporaryDirectory() as tmp:  # read exactly as a saved email is
        path = Path(tmp) / "invitation.eml"
        path.write_bytes(chosen.raw)
        return _invitation_files(path)


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


def _show_bound_keys(game: Any, expected: dict[str, str], my_fingerprint: str) -> None:
    """Print every key the game binds (side, fingerprint), marking the player's own and the ones
    checked against --expect."""
    for side in game.sides:
        fp = game.body.sides[side].fingerprint
        mark = "  (your key)" if fp == my_fingerprint else "  (as expected)" if side in expected else ""
        echo(f"key  {side:<6} {fp}{mark}", err=True)
    from pbem.engine.clock import TimeControl

    clock = game.body.time_control  # what the join's signature accepts too [29]
    echo(f"clock {TimeControl.of(clock).describe() if clock is not None else 'none agreed'} "
         f"(rules {game.body.rules}, scenario {game.body.scenario.id})", err=True)
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
@click.option("--fetch", "from_mailbox", is_flag=True,
              help="Take the invitation from your IMAP mailbox (mail.toml), instead of --invitation.")
@click.option("--game", "game_prefix", default=None, metavar="ID",
              help="With --fetch: the game (its id or the start of it) when several invite your key.")
@click.option("--nonce", "nonce_hex", hidden=True, help="Fixed chain nonce (reproducible examples and tests).")
def join(game_dir: Path, key_name: str, invitation: Path | None, expect: tuple[str, ...],
         from_mailbox: bool, game_prefix: str | None, nonce_hex: str | None) -> None:
    """Accept an invitation: print the keys it binds, commit to your dice chain, sign the join.

    The invitation comes from a saved email or genesis.json (--invitation), or from your mailbox
    (--fetch). Nothing is written unless every check passes (the genesis signature, the scenario's
    hash, your key's place in the game and every --expect)."""
    from pbem.engine.play import join_game
    from pbem.engine.replay import open_checked
    from pbem.protocol.keys import KeyStore

    expected = _parse_expect(expect)
    if from_mailbox:
        if invitation is not None:
            raise InputError("give --invitation FILE or --fetch, not both")
        files = _fetched_invitation(key_name, game_prefix)
    elif game_prefix is not None:
        raise InputError("--game chooses among the invitations of --fetch")
    elif invitation is not None:
        files = _invitation_files(invitation)
    elif not game_dir.is_dir():
        raise InputError(f"{game_dir} does not exist: give the invitation with --invitation FILE")
    else:
        files = {}
    fingerprint = KeyStore().info(key_name).fingerprint
    sides, written = join_game(
        game_dir, files, key_name, expected, _nonce(nonce_hex),
        show_keys=lambda g: _show_bound_keys(g, expected, fingerprint), hooks=engine_hooks(),
    )
    game = open_checked(game_dir)
    from pbem.render.outputs import write_join_mail

    mails: list[Path] = []
    for side in sides:
        mails += write_join_mail(game, side)
    written += mails
    _echo_files(written)
    send = [p.name for p in mails] or [p.name for p in written if p.name.startswith("join-")]
    others = "every other player" if len(game.sides) > 2 else "the player who created the game"
    echo(f"send {', '.join(send)} to {others}; they run 'pbem ingest GAME_DIR {send[0]}'", err=True)


# ------------------------------------------------------------------------------------------------
# status / orders
# ------------------------------------------------------------------------------------------------


def _open_with_seeds(game_dir: Path, *, derive: bool = True) -> tuple[Any, Any, dict[str, bytes]]:
    """Open a game with the chain seeds of the sides this machine plays; ``derive`` (the default)
    re-derives a lost seed file from the private key and the published nonce."""
    from pbem.engine.replay import open_checked
    from pbem.protocol.localstate import LocalGame, local_seeds

    game = open_checked(game_dir, engine_hooks())
    local = LocalGame.of(game)
    return game, local, local_seeds(game, local, derive=derive)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def status(game_dir: Path, as_json: bool) -> None:
    """Scenario, game id, step, phase, whose move it is (and since when), score, outcome."""
    from pbem.engine.status import game_status

    game, local, seeds = _open_with_seeds(game_dir)
    rp = game.replay(seeds, local=local)
    since = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.newest_mtime()))
    # the one wall-clock read: what the player sees, never hashed or signed
    st = game_status(game, rp, local, seeds, since=since, now=time.time())
    if as_json:
        echo(json.dumps(st.to_json(), indent=2, sort_keys=True))
        return
    echo(f"game      {st.game[:8]}  ({st.scenario})")
    for side, fp in st.keys.items():
        echo(f"key       {side:<6} {fp}" + ("  (played here)" if side in seeds else ""))
    moves = f"{st.step} move{'' if st.step == 1 else 's'} archived"
    echo(f"step      {moves}" + (f"; {st.describe}" if st.describe else ""))
    if st.clock is not None:
        echo(f"clock     {st.clock.text}")
    for side, lines in st.view_lines.items():
        echo(f"view      {side} sees: {lines[0] if lines else ''}")
        for line in lines[1:]:
            echo(f"          {line}")
    if st.umpire_lines is not None:
        lines = st.umpire_lines
        echo(f"state     (umpire, everything) {lines[0] if lines else ''}")
        for line in lines[1:]:
            echo(f"          {line}")
    for p in st.pending:
        echo(f"pending   {p['side']}: {p['label']} ({p['kind']})")
    if st.outcome:
        echo(f"outcome   {st.outcome['summary']}")
        for line in st.outcome.get("breakdown", []):
            echo(f"          {line}")
        if st.hidden:
            echo("checked   " + ("every adjudication can be checked: 'pbem verify GAME_DIR'"
                                 if st.published else
                                 "after Game Control's publication (pbem publish; ingest its email), "
                                 "'pbem verify GAME_DIR' checks every adjudication"))
    elif st.waiting:
        echo(f"awaiting  {st.waiting} since {since}")
    if st.score:
        echo("score     " + ", ".join(f"{s} {v}" for s, v in st.score.items()))


def _current_decision(rp: Any, name: str) -> Any:
    from pbem.engine.play import current_decision

    return current_decision(rp)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--side", required=True)
@click.option("--text", "as_text", is_flag=True,
              help="A text orders file to start from (games with text orders): what you may order "
                   "now and an example of each order, all as comments (unedited: the skeleton).")
def orders(game_dir: Path, side: str, as_text: bool) -> None:
    """Print a JSON skeleton of SIDE's pending decision, to edit and submit (--text: a commented
    text orders file instead)."""
    game, local, seeds = _open_with_seeds(game_dir)
    if side not in game.body.sides:
        raise InputError(f"no side {side!r} in this game (sides: {', '.join(game.sides)})")
    rp = game.replay(seeds, local=local)
    _current_decision(rp, "orders")
    from pbem.engine.play import owed_by, state_for

    owed_by(game, rp, [side])
    state = state_for(game, rp, side, None)
    presenter = game.ruleset.presenter()
    template = presenter.orders_template(game.scenario, state, side)
    if as_text:
        if template is None:
            raise InputError(f"the {game.ruleset.system} system has no text orders: drop --text "
                             "for the JSON skeleton")
        echo(template.rstrip("\n"))
        return
    skeleton = game.ruleset.skeleton(game.scenario, state, side)
    echo(json.dumps(skeleton, indent=2, sort_keys=True))
    if template is not None:
        echo(f"text orders: 'pbem orders {game_dir} --side {side} --text' lists what you may order "
             "now, with an example of each order", err=True)


# ------------------------------------------------------------------------------------------------
# submit / ingest
# ------------------------------------------------------------------------------------------------


def _next_steps(game: Any, rp: Any, written: list[Path], *, authored: bool = True) -> None:
    """Tell the player what to send and what happens next (stderr)."""
    from pbem.engine.play import next_actions

    for action in next_actions(game, rp, written, authored=authored):
        echo(action.text, err=True)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.argument("rulings_file", type=click.Path(dir_okay=False, exists=True, path_type=Path), required=False)
@click.option("--key", "key_name", required=True, help="The umpire's local key.")
@click.option("--yes", is_flag=True, help="Sign without asking (for scripts).")
def rule(game_dir: Path, rulings_file: Path | None, key_name: str, yes: bool) -> None:
    """Umpire: read every side's sealed orders and sign your rulings for the round.

    Once every side has committed, the umpire's pbem opens the orders sealed to it (each checked
    against its side's commitment) and shows them; RULINGS_FILE (JSON; none: no rulings) holds the
    judgements the rules leave to the umpire ('pbem schema rulings --system SYSTEM' shows their form). The ruling is signed before any side reveals, so it
    cannot depend on the dice, which the reveals key [P9].
    """
    from pbem.engine.play import rule as play_rule
    from pbem.engine.replay import open_checked
    from pbem.protocol.canonical import MAX_MOVE_BYTES, loads_strict

    rulings: Any = {}
    if rulings_file is not None:
        rulings = loads_strict(archive.read_limited(rulings_file, MAX_MOVE_BYTES), max_bytes=MAX_MOVE_BYTES,
                               what=str(rulings_file))
    game = open_checked(game_dir, engine_hooks())
    result = play_rule(game, rulings, key_name,
                       confirm=_confirmer(yes, "Sign these rulings?", show_always=True))
    _echo_files(result.written)
    _next_steps(game, result.replay, result.written)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--key", "key_name", required=True, help="The umpire's local key.")
@click.option("--yes", is_flag=True, help="Sign without asking (for scripts).")
def report(game_dir: Path, key_name: str, yes: bool) -> None:
    """Umpire: resolve a round of hidden information and report to each side.

    Once every side has revealed, the umpire's pbem resolves the round from the sealed orders and
    the dice, and signs a report: the hash of the new state, what is pending, and each side's view
    sealed to that side alone [P10].
    """
    from pbem.engine.play import report as play_report
    from pbem.engine.replay import open_checked

    game = open_checked(game_dir, engine_hooks())
    result = play_report(game, key_name, confirm=_confirmer(yes, "Sign this report?", show_always=True))
    _echo_files(result.written)
    _next_steps(game, result.replay, result.written)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--key", "key_name", required=True, help="The umpire's local key.")
def publish(game_dir: Path, key_name: str) -> None:
    """Umpire: after the game, publish every sealed order so anyone can check every ruling.

    Writes publication.json (signed by the umpire): every side's orders with their salts. With it
    beside the archive, 'pbem verify' opens every commitment, recomputes every state and report,
    and checks each against the hashes the turn files hold [P10].
    """
    from pbem.engine.play import publish as play_publish
    from pbem.engine.replay import open_checked
    from pbem.render.outputs import write_publication_mail

    game = open_checked(game_dir)
    path = play_publish(game, key_name)
    echo(str(path))
    mails = write_publication_mail(game, path.read_bytes())
    for mail in mails:
        echo(str(mail))
    what = mails[0].name if mails else "publication.json"
    echo(f"send {what} to every player; they run 'pbem ingest GAME_DIR {what}', "
         "and 'pbem verify GAME_DIR' then checks every ruling, state and report", err=True)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
def send(game_dir: Path) -> None:
    """Send this game's drafted emails (mail-*.eml) that you have not sent yet, over SMTP.

    The server comes from mail.toml in your pbem home (or PBEM_SMTP_* variables); the password
    from its password_command, never the command line. Safe to run again and from cron: a mail is
    sent once, and what could not be sent is tried next time. See 'pbem fetch' for the other half.
    """
    from pbem.engine.replay import open_checked
    from pbem.mail.transport import load_config
    from pbem.mail.transport import send as smtp_send
    from pbem.protocol.keys import home as pbem_home
    from pbem.protocol.localstate import LocalGame

    game = open_checked(game_dir)
    local = LocalGame.of(game)
    mine = {s for s in local.sides() if s in game.sides}
    if not mine:
        raise InputError("this machine plays no side of this game: nothing of yours to send")
    server = load_config(pbem_home(), "smtp")
    result = smtp_send(game.dir, local.dir, mine, server)
    for name in result.sent:
        echo(f"sent {name}")
    if not result.sent:
        echo("nothing new to send" + (f" ({len(result.already)} sent before)" if result.already else ""),
             err=True)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--receipt", "receipt_key", default=None, metavar="KEY",
              help="Sign receipts with KEY for moves whose dice your reveal keys (quick results).")
def fetch(game_dir: Path, receipt_key: str | None) -> None:
    """Read this game's emails from your IMAP mailbox and ingest every new one.

    Each mail is reported: ingested (and what it did), already in the archive, or not ingested and
    why (corrupted, another game's, a forgery...). Nothing is deleted from the mailbox, and a mail
    that could not be ingested is looked at again once the archive moves on. Server settings: mail.toml in your
    pbem home (or PBEM_IMAP_* variables).
    """
    from pbem.engine.play import ingest as play_ingest
    from pbem.engine.replay import open_checked
    from pbem.mail.draft import extract_attachments
    from pbem.mail.transport import fetch as imap_fetch
    from pbem.mail.transport import load_config
    from pbem.protocol.keys import home as pbem_home
    from pbem.protocol.localstate import LocalGame

    first = open_checked(game_dir)
    local = LocalGame.of(first)
    server = load_config(pbem_home(), "imap")

    def ingest_one(raw: bytes, label: str) -> str:
        game, _local, seeds = _open_with_seeds(game_dir)
        blobs = extract_attachments(raw)
        result = play_ingest(game, blobs, seeds)
        moves = [p.name for p in result.written if p.name.startswith(("move-", "join-"))]
        if moves:
            return "ingested " + ", ".join(moves) + (f"; now waiting for {result.replay.waiting}"
                                                    if result.replay.waiting else "")
        return "; ".join(result.notes[:2]) or "nothing new"

    def position() -> str:  # what a refused mail waits for to change: the archive's signed files
        from pbem.protocol import archive as arch

        listing = arch.scan(game_dir)
        return (f"moves {max(listing.moves, default=0)} {len(listing.moves)} joins {len(listing.joins)} "
                f"receipts {sum(1 for n in listing.other if n.startswith('receipt-'))} "
                f"publication {int('publication.json' in listing.other)}")

    with _progress("fetching") as tick:
        result = imap_fetch(first.id, local.dir, server, ingest_one, progress=tick, position=position)
    for line in result.reports:
        echo(line)
    if not result.reports:
        echo("no new mail for this game", err=True)
    if receipt_key is not None:
        _receipt(game_dir, receipt_key)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
def remind(game_dir: Path) -> None:
    """Draft a polite reminder to whoever owes a message, with the agreed clock (see status).

    Writes mail-remind-STEP-SIDE-N.eml beside the game's other drafts ('pbem send' sends it). pbem
    shows the clock; it never decides a game on time: no date it could sign would prove anything.
    """
    from pbem.engine.clock import TimeControl, standing
    from pbem.protocol.fsutil import write_new
    from pbem.render.outputs import reminder_email

    game, local, seeds = _open_with_seeds(game_dir)
    rp = game.replay(seeds, local=local)
    if not rp.records or rp.closed:
        raise InputError("nobody owes a message: " + ("the game is over" if rp.closed else f"waiting for {rp.waiting}"))
    mine = [s for s in local.sides() if s in game.sides]
    owing = rp.owing()
    if not owing:
        raise InputError(f"waiting for {rp.waiting}: nothing to remind of yet")
    owing = [s for s in owing if s not in mine]
    if not mine or not owing:
        raise InputError("the message owed is yours: nothing to remind anyone of")
    clock_text = "no clock was agreed for this game"
    if game.body.time_control is not None:
        control = TimeControl.of(game.body.time_control)
        clock_text = f"{control.describe()}; {standing(control, game.newest_mtime(), time.time()).describe(control)}"
    step = rp.placed_count
    written = []
    for side in owing:
        raw = reminder_email(game, mine[0], side, clock_text, str(rp.waiting), step)
        n = 1
        while (game.dir / names.remind_mail_name(step, side, n)).exists():
            n += 1
        path = game.dir / names.remind_mail_name(step, side, n)
        write_new(path, raw)
        written.append(path)
    _echo_files(written)
    echo(f"clock: {clock_text}", err=True)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("-o", "--output", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="The directory to write the site into (new, empty, or a site written before).")
def html(game_dir: Path, out_dir: Path) -> None:
    """Write a static site to step through the game turn by turn: the map, the orders, what
    happened, every roll and how to recompute it, the score over time.

    Open OUT/index.html in any browser (no server, no network): arrow keys step, each step has a
    permalink. With hidden information it shows only what this machine's sides may see.
    """
    from pbem.render.site import write_site

    game, local, seeds = _open_with_seeds(game_dir)
    with _progress("writing the site", len(game.listing.moves)) as tick:
        written = write_site(game, out_dir, local=local, seeds=seeds, progress=tick)
    echo(str(out_dir / "index.html"))
    echo(f"{len(written)} files written", err=True)


def _confirmer(yes: bool, question: str, *, show_always: bool = False) -> Any:
    """The ``confirm`` callback of a signing command: show what would be signed and ask on a
    terminal (``--yes``: sign without asking; a pipe without ``--yes``: refuse, naming the flag)."""
    import sys

    def confirm(shown: Any) -> bool:
        if show_always or not yes:
            echo(shown.text(), err=True)
        if yes:
            return True
        if not sys.stdin.isatty():
            raise InputError("not signed: confirm on a terminal, or give --yes")
        return bool(click.confirm(question, default=False, err=True))

    return confirm


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--key", "key_name", required=True, help="Your local key.")
@click.option("--yes", is_flag=True, help="Sign without asking (for scripts).")
def reveal(game_dir: Path, key_name: str, yes: bool) -> None:
    """Reveal the sealed orders you committed, once every side has committed.

    In a sealed round (simultaneous orders) 'pbem submit' signs only a commitment (a hash of your
    orders and a secret salt); when the last side's commitment has arrived, this signs a reveal of
    exactly those orders and that salt -- nothing new is decided. Every pbem checks the reveal
    against the commitment [P8]. With hidden information (the megagame) the reveal carries only
    your dice-chain value, which keys the round's dice: your orders stay sealed to the umpire until
    its publication after the game.
    """
    from pbem.engine.play import reveal as play_reveal
    from pbem.engine.replay import open_checked

    game = open_checked(game_dir, engine_hooks())
    question = ("Sign the reveal (your dice-chain value; these orders stay sealed to the umpire)?" if game.hidden
                else "Reveal these orders?")
    result = play_reveal(game, key_name, confirm=_confirmer(yes, question))
    _echo_files(result.written)
    _next_steps(game, result.replay, result.written)


def _draft_of(game_dir: Path, key_name: str) -> Path:
    """The draft (``pbem draft``) of the side ``key_name`` plays whose decision is pending."""
    from pbem.engine.play import current_decision
    from pbem.protocol.keys import KeyStore

    game, local, seeds = _open_with_seeds(game_dir)
    rp = game.replay(seeds, local=local)
    decision = current_decision(rp)
    mine = game.side_of_fingerprint(KeyStore().info(key_name).fingerprint)
    if decision.side not in mine:
        raise InputError(f"it is {decision.side}'s decision ({decision.label}); key {key_name} "
                         f"plays {', '.join(mine) or 'no side of this game'}")
    path = local.dir / "drafts" / f"{decision.side}.txt"
    if not path.is_file() or not path.read_text(encoding="utf-8").strip():
        raise InputError(f"no orders file given and no draft for {decision.side}: write orders "
                         "with 'pbem draft ...' or give an orders file")
    return path


def _orders_reader(game: Any, orders_file: Path, *, defaults: bool) -> Any:
    """``(state, side) -> orders document``: JSON as written, or text orders read against the
    decision they answer (a set-up written as text starts from no placement at all unless
    ``defaults``: units a player did not place are not placed for them silently)."""
    from pbem.protocol.canonical import MAX_MOVE_BYTES, loads_strict

    raw_orders = archive.read_limited(orders_file, MAX_MOVE_BYTES)

    def orders_for(state: Any, side: str) -> Any:
        if orders_file.suffix.lower() == ".json" or raw_orders.lstrip()[:1] in (b"{", b"["):
            return loads_strict(raw_orders, max_bytes=MAX_MOVE_BYTES, what=str(orders_file))
        try:
            text = raw_orders.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"{orders_file}: invalid UTF-8 at byte {exc.start}") from None
        presenter = game.ruleset.presenter()
        skeleton = presenter.text_skeleton(game.scenario, state, side, defaults=defaults)
        return presenter.parse_text_orders(game.scenario, skeleton, side, text)

    return orders_for


def _preview(game_dir: Path, orders_file: Path, key_name: str | None, side: str | None,
             defaults: bool) -> Any:
    """What would be signed now (nothing is written)."""
    from pbem.engine.play import current_decision, owed_by, preview, state_for
    from pbem.protocol.keys import KeyStore

    game, local, seeds = _open_with_seeds(game_dir)
    rp = game.replay(seeds, local=local)
    decision = current_decision(rp)
    if rp.current.round is not None:  # a sealed round: every side owes at once
        sides = [side] if side is not None else (
            game.side_of_fingerprint(KeyStore().info(key_name).fingerprint) if key_name is not None
            else list(local.sides()))
        decision = owed_by(game, rp, sides)
    elif key_name is not None:
        mine = game.side_of_fingerprint(KeyStore().info(key_name).fingerprint)
        if decision.side not in mine:
            raise InputError(f"it is {decision.side}'s decision ({decision.label}); key {key_name} "
                             f"plays {', '.join(mine) or 'no side of this game'}")
    if side is not None and side != decision.side:
        raise InputError(f"it is {decision.side}'s decision ({decision.label}), not {side}'s")
    orders_for = _orders_reader(game, orders_file, defaults=defaults)
    state = state_for(game, rp, decision.side, key_name)
    return preview(game, rp, decision.side, orders_for(state, decision.side), key_name=key_name)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.argument("orders_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--key", "key_name", default=None, help="Your local key (checks that the decision is yours).")
@click.option("--side", default=None, help="The side whose orders these are (default: whoever decides now).")
@click.option("--defaults", is_flag=True, help="Text set-up: put units you did not place where the skeleton does.")
def check(game_dir: Path, orders_file: Path, key_name: str | None, side: str | None, defaults: bool) -> None:
    """Check ORDERS_FILE and print exactly what would be signed; sign and write nothing.
    """
    echo(_preview(game_dir, orders_file, key_name, side, defaults).text())
    echo("legal: 'pbem submit' with the same file signs exactly this", err=True)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.argument("orders_file", type=click.Path(dir_okay=False, path_type=Path), required=False)
@click.option("--key", "key_name", required=True, help="Your local key.")
@click.option("--yes", is_flag=True, help="Sign without asking (for scripts).")
@click.option("--dry-run", is_flag=True, help="Only show what would be signed (as 'pbem check').")
@click.option("--defaults", is_flag=True, help="Text set-up: put units you did not place where the skeleton does.")
def submit(game_dir: Path, orders_file: Path | None, key_name: str, yes: bool, dry_run: bool,
           defaults: bool) -> None:
    """Check, sign and adjudicate your orders; print every file written.

    ORDERS_FILE is JSON (as 'pbem orders' prints it) or text orders where the game has them, such
    as 'move 1/501 to 1418' and 'attack 20 with 1/3 2/3 advance 1/3' in WestWall (see the README).
    Before signing, pbem shows every order in words and what is left undone, and asks (--yes: sign
    without showing or asking, for scripts; --dry-run: show and stop, like 'pbem check').
    """
    import sys

    from pbem.engine.play import Preview
    from pbem.engine.play import submit as play_submit
    from pbem.engine.replay import open_checked

    draft: Path | None = None
    if orders_file is None:  # the draft built with 'pbem draft'
        draft = _draft_of(game_dir, key_name)
        orders_file = draft
    if dry_run:
        echo(_preview(game_dir, orders_file, key_name, None, defaults).text())
        echo("dry run: nothing was signed", err=True)
        return
    game = open_checked(game_dir, engine_hooks())
    orders_for = _orders_reader(game, orders_file, defaults=defaults)

    def confirm(shown: Preview) -> bool:
        if yes:  # a script: 'pbem check' shows the same summary
            return True
        echo(shown.text(), err=True)
        if not sys.stdin.isatty():
            raise InputError("not signed: confirm on a terminal, or give --yes to sign without "
                             "asking (--dry-run only shows what would be signed)")
        return click.confirm("Sign these orders?", default=False, err=True)

    result = play_submit(game, orders_for, key_name, confirm=confirm)
    if draft is not None and result.move is not None:
        draft.unlink()  # signed: the draft is done
    if result.already:
        echo(f"already in the archive: {result.already}", err=True)
    _echo_files(result.written)
    _next_steps(game, result.replay, result.written)


def _read_input(path: Path, max_json_bytes: int) -> list[tuple[str, bytes]]:
    """A file another player sent: a pbem JSON file (``(its name, bytes)``) or an email (its
    pbem attachments), told apart by content, whatever the file is called (mail clients save
    ``reply.txt``, ``Re: your move``, ``mail-0002.eml.txt``...)."""
    from pbem.engine.play import UTF8_BOM
    from pbem.mail.draft import MAX_EML_BYTES

    raw = archive.read_limited(path, max(max_json_bytes, MAX_EML_BYTES))
    if raw.removeprefix(UTF8_BOM).lstrip()[:1] == b"{":  # a byte-order mark an editor added [29]
        if len(raw) > max_json_bytes:
            raise InputError(f"{path.name}: {len(raw)} bytes, more than the limit of {max_json_bytes}")
        return [(path.name, raw)]
    from pbem.mail.draft import extract_attachments

    return extract_attachments(raw)


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


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--receipt", "receipt_key", default=None, metavar="KEY",
              help="Then sign a receipt with KEY: the reveal that keys the move's dice, so its author "
                   "sees the results at once (no decision in it).")
def ingest(game_dir: Path, files: tuple[Path, ...], receipt_key: str | None) -> None:
    """Take the other players' move (or join) files and adjudicate what they make resolvable.

    Everything is checked before anything is written: a bad file (or an attached turn that differs
    from ours) refuses the whole ingest, and the game directory is left as it was."""
    from pbem.engine.sealed import MAX_PUBLICATION_BYTES

    blobs: list[tuple[str, bytes]] = []
    for path in files:  # moves are held to their own limit when ingested; a publication may be larger
        blobs.extend(_read_input(path, MAX_PUBLICATION_BYTES))
    from pbem.engine.play import ingest as play_ingest

    game, _local, seeds = _open_with_seeds(game_dir)
    result = play_ingest(game, blobs, seeds)
    _echo_files(result.written)
    for note in result.notes:
        echo(note, err=True)
    # what the moves just taken in did, step by step, in the game's words
    presenter = game.ruleset.presenter()
    new_turns = {p.name for p in result.written if names.is_turn_name(p.name)}
    for rec in result.replay.records:
        if rec.name not in new_turns or rec.move is None:
            continue
        b = rec.move.body
        echo(f"step {rec.step}: {b.side}'s move", err=True)
        for line in presenter.describe_move(game.scenario, b.orders, umpire=b.side == game.umpire):
            echo(f"  . {line}", err=True)
        for line in presenter.narrate(game.scenario, rec.turn["events"], rec.turn["rolls"],
                                      state=rec.turn["state"]):
            echo(f"  {line}", err=True)
    if result.replay.records and result.replay.current.pending and not result.replay.tail_open:
        d = result.replay.current.pending[0]
        rnd = result.replay.current.round
        if rnd is not None:
            owed = result.replay.owing()  # not the sides whose message for this phase is in, held
            echo(f"next: sealed {rnd.phase}, owed by {', '.join(owed) or 'nobody else'}", err=True)
        else:
            echo(f"next: {d.side} -- {d.label}", err=True)
    _next_steps(game, result.replay, result.written, authored=False)
    if receipt_key is not None:
        _receipt(game_dir, receipt_key)


def _receipt(game_dir: Path, key_name: str, *, required: bool = False) -> None:
    from pbem.engine.play import receipt as play_receipt
    from pbem.engine.replay import open_checked

    written = play_receipt(open_checked(game_dir, engine_hooks()), key_name, required=required)
    _echo_files(written)
    if written:
        echo(f"receipt: send {written[-1].name} so your opponent sees the results now", err=True)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--key", "key_name", required=True, help="Your local key.")
def receipt(game_dir: Path, key_name: str) -> None:
    """Sign a receipt for the move that waits for your reveal: that reveal alone, no decision, so
    its author sees the results at once; your next move must (and will) carry the same value.
    When none is due, says why (exit 2)."""
    _receipt(game_dir, key_name, required=True)


# ------------------------------------------------------------------------------------------------
# log / schema (verify: pbem.cli.verify, which imports nothing else of this module)
# ------------------------------------------------------------------------------------------------


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--step", type=int, default=None, help="Only this step.")
def log(game_dir: Path, step: int | None) -> None:
    """Readable history: who ordered what, the events, every roll with its inputs."""
    from pbem.engine.history import history

    game, local, seeds = _open_with_seeds(game_dir)
    presenter = game.ruleset.presenter()
    # the umpire sees everything; after the game the publication opens every order; a player sees
    # its own views [P10]
    h = history(game, local, seeds, publication=True)
    rp = h.replay
    if step is not None and not 0 <= step < len(rp.records):
        raise InputError(f"no resolved step {step} (resolved: 0..{len(rp.records) - 1})")
    for entry in h.entries(step):
        rec, turn = entry.record, entry.turn
        if rec.move is None:
            echo(f"step 0: {game.body.scenario.id} set up (game {game.id[:8]})")
            for side in game.sides:
                echo(f"    {side} plays with key {game.body.sides[side].fingerprint}")
        else:
            b = rec.move.body
            lines = presenter.describe_move(game.scenario, b.orders, umpire=b.side == game.umpire)
            if lines:
                echo(f"step {rec.step}: {b.side} ({rec.move.name}) orders:")
                for line in lines:
                    echo(f"  . {line}")
            else:
                brief = json.dumps(b.orders, sort_keys=True, separators=(",", ":"))
                if len(brief) > 160:
                    brief = brief[:157] + "..."
                echo(f"step {rec.step}: {b.side} ({rec.move.name}) orders {brief}")
            if entry.published is not None:  # after the game: what the commitment sealed [P10]
                words = [] if b.side == game.umpire else presenter.describe_orders(game.scenario, entry.published[0])
                if words:
                    echo("  published, the orders it sealed:")
                    for line in words:
                        echo(f"  . {line}")
                else:
                    brief = json.dumps(entry.published[0], sort_keys=True, separators=(",", ":"))
                    echo("  published: " + (brief[:157] + "..." if len(brief) > 160 else brief))
        for text in presenter.narrate(game.scenario, turn["events"], state=turn["state"]):
            echo(f"    {text}")
        if not h.everything:
            for side, view in entry.views.items():
                lines = presenter.describe_view(game.scenario, view)
                echo(f"    {side} sees: {lines[0] if lines else ''}")
                for line in lines[1:]:
                    echo(f"      {line}")
        for r in turn["rolls"]:
            echo(f"    roll {r['i']}: {r['value']}  [{r['label']}]  key {turn['roll_key']} ctr {r['ctr']}")
        if turn["rolls"]:
            echo(f"    reveals {', '.join(turn['reveals'])}")
        if turn["outcome"]:
            echo(f"    outcome: {turn['outcome']['summary']}")
            for line in turn["outcome"].get("breakdown", []):
                echo(f"      {line}")
    if rp.tail_open and step is None:
        echo(f"step {rp.placed_count}: archived, waiting for {rp.waiting}")


@click.command()
@click.argument("what", type=click.Choice(["orders", "rulings", "move", "receipt", "turn", "genesis", "join"]))
@click.option("--system", default="westwall", show_default=True,
              help="Rules system whose orders (or umpire's rulings) schema to print.")
def schema(what: str, system: str) -> None:
    """Print the JSON Schema of an orders document, an umpire's rulings, or an archive file body."""
    from pydantic import BaseModel

    if what in ("orders", "rulings"):
        from pbem.engine.ruleset import get_ruleset

        ruleset = get_ruleset(system)
        doc = ruleset.orders_schema() if what == "orders" else ruleset.rulings_schema()
    else:
        models: dict[str, type[BaseModel]] = {"move": archive.MoveBody, "turn": archive.TurnFile, "genesis": archive.GenesisBody,
                  "join": archive.JoinBody, "receipt": archive.ReceiptBody}
        doc = models[what].model_json_schema()
    echo(json.dumps(doc, indent=2, sort_keys=True))


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--yes", is_flag=True, help="Do not ask (for scripts): you confirm it was never sent.")
def retract(game_dir: Path, yes: bool) -> None:
    """Discard the newest move signed on this machine, when it was never sent.

    The move file, the turn files and maps computed from it, its email draft and this machine's
    record of the signature are removed, so that other orders can be signed for that step. Only
    the newest move of the game can be retracted, and only where it was signed.
    """
    import sys

    from pbem.engine.play import retract as retract_move
    from pbem.engine.play import retractable

    game, _local, _seeds = _open_with_seeds(game_dir)
    msg = retractable(game)
    step, side = msg.body.step, msg.body.side
    warning = (f"Retract {msg.name} ({side}, step {step})? Only if it was never sent: if your "
               "opponent already has it, signing other orders for this step shows them two signed "
               "moves for one step, which their pbem reports as equivocation [P7].")
    echo(warning, err=True)
    if not yes:
        if not sys.stdin.isatty():
            raise InputError("not retracted: confirm on a terminal, or give --yes")
        if not click.confirm("Retract it?", default=False, err=True):
            raise InputError("not retracted")
    for name in retract_move(game, msg):
        echo(f"removed {name}")
    echo(f"step {step} is open again for {side}: submit your corrected orders", err=True)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--side", default=None, help="Whose units (default: the side this machine plays, or "
                                            "the side to move).")
def units(game_dir: Path, side: str | None) -> None:
    """Your forces: id as typed in orders, counter, type, hex, values, movement allowance, state.
    """
    game, local, seeds = _open_with_seeds(game_dir)
    rp = game.replay(seeds, local=local)
    if not rp.records:
        raise InputError(f"the game has not started: waiting for {rp.waiting}")
    if side is None:
        mine = sorted(seeds)
        pending = rp.current.pending
        side = mine[0] if len(mine) == 1 else pending[0].side if pending else game.sides[0]
    from pbem.engine.play import state_for

    # with hidden information: the side's own view, opened with its key on this machine
    header, rows = game.ruleset.presenter().roster(game.scenario, state_for(game, rp, side, None), side)
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header) - 1)]
    for r in [header, *rows]:
        echo("  ".join(str(c).ljust(w) for c, w in zip(r[:-1], widths, strict=False)) + "  " + str(r[-1]))


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.argument("unit", shell_complete=unit_ids)
@click.option("--map", "map_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also draw the map with the reachable hexes shaded into this SVG file.")
def reach(game_dir: Path, unit: str, map_file: Path | None) -> None:
    """Every hex UNIT can reach this phase, with its cost and path, and why the hexes next to it
    that it cannot enter are closed. --map FILE.svg also draws them, shaded, on the map.
    """
    game, local, seeds = _open_with_seeds(game_dir)
    rp = game.replay(seeds, local=local)
    if not rp.records:
        raise InputError(f"the game has not started: waiting for {rp.waiting}")
    presenter = game.ruleset.presenter()
    state = rp.current.state
    if state is None:  # hidden information: the view of the side the unit belongs to, with its key here
        from pbem.engine.play import state_for

        owner = presenter.unit_side(game.scenario, unit)
        if owner is None:
            raise InputError(f"no unit {unit!r} in this game")
        state = state_for(game, rp, owner, None)
    lines = presenter.reach(game.scenario, state, unit)
    if map_file is not None:
        view = presenter.reach_view(game.scenario, state, unit)
        if view is None:
            raise InputError(f"{game.ruleset.system} has no map to shade")
        from pbem.protocol.fsutil import write_replace
        from pbem.render.svg import draw

        write_replace(map_file, draw(view).encode("utf-8"), mode=0o644)
    for line in lines:
        echo(line)
    if map_file is not None:
        echo(f"map: {map_file}", err=True)
