"""Starting a game: ``pbem new`` (the genesis, or an invitation) and ``pbem join``.

Thin click wrappers: the work is the engine's (:mod:`pbem.engine.play`, :mod:`pbem.engine.status`,
:mod:`pbem.engine.history`); bad input is an :class:`InputError` (one line, exit 2, nothing
written)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pbem.cli._common import echo_files, read_input
from pbem.cli._out import echo
from pbem.cli.complete import scenario_ids
from pbem.errors import InputError
from pbem.outputs import engine_hooks
from pbem.protocol import archive, names

if TYPE_CHECKING:
    from pbem.engine.gamedir import Game


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
        from pbem.mail.compose import write_invitation_mails

        written += write_invitation_mails(game)
    echo_files(written)
    echo(f"game {game.id[:8]} ({game.body.scenario.id}) created.", err=True)
    if game.body.scenario.copies is not None and not Path(scenario).is_file():
        echo(f"note: each team gets only its own copy of the set-up, but {scenario} ships with every pbem: a "
             "team that reads pbem's own files knows it. For a set-up nobody knows, give pbem new a scenario "
             "file of your own (pbem scenario check checks it).", err=True)
    bare = [s for s, entry in sorted(game.body.sides.items()) if not entry.email]
    if bare and game.ruleset.presenter().writes_mail:  # the addresses are signed: now or never
        echo(f"note: no email address for {', '.join(bare)}: the emails pbem drafts carry no From or To for "
             "them (fill them in when you send); the addresses are signed in the genesis, so only 'pbem new "
             "--email SIDE=ADDRESS' sets them, and 'pbem send' needs them", err=True)
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

    got = read_input(invitation, MAX_GENESIS_BYTES)
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


def _show_bound_keys(game: Game, expected: dict[str, str], my_fingerprint: str) -> None:
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
    from pbem.engine.gamedir import open_checked
    from pbem.engine.play import join_game
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
    from pbem.mail.compose import write_join_mail

    mails: list[Path] = []
    for side in sides:
        mails += write_join_mail(game, side)
    written += mails
    echo_files(written)
    send = [p.name for p in mails] or [p.name for p in written if p.name.startswith("join-")]
    others = "every other player" if len(game.sides) > 2 else "the player who created the game"
    echo(f"send {', '.join(send)} to {others}; they run 'pbem ingest GAME_DIR {send[0]}'", err=True)
