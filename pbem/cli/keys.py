"""``pbem key``: create, import, show and list signing keys.

Passphrases come from ``$PBEM_PASSPHRASE`` when it is set (an empty value means none), else from a
hidden prompt. Nothing here ever prints private key material.
"""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli._out import echo
from pbem.errors import InputError
from pbem.protocol.keys import KeyInfo, KeyStore, check_name, passphrase_for, private_file_encrypted


def _refuse_existing(store: KeyStore, name: str) -> None:
    if store.key_path(name).exists() or store.pub_path(name).exists():
        raise InputError(f"a key named {name!r} already exists in {store.dir}")


def _print_info(info: KeyInfo) -> None:
    echo(info.public_line)
    echo(info.fingerprint)


def _how_to_share(store: KeyStore, info: KeyInfo) -> None:
    """Which file to send, and what to read aloud (stderr: stdout stays the public line and
    fingerprint scripts read)."""
    echo(f"send {store.pub_path(info.name)} to whoever starts the game (it holds only the public "
         "line above); read them the SHA256 fingerprint by phone or in person", err=True)


@click.group()
def key() -> None:
    """Create, import, show and list signing keys (Ed25519).

    Keys live in $PBEM_HOME/keys (default: pbem's application directory). Give your opponent
    the 'ssh-ed25519 …' line, and compare the SHA256 fingerprint by phone.
    """


@key.command("new")
@click.argument("name")
@click.option("--no-passphrase", is_flag=True, help="Store the private key unencrypted.")
def new(name: str, no_passphrase: bool) -> None:
    """Generate a new key called NAME; prints its public line and fingerprint."""
    store = KeyStore()
    check_name(name)
    _refuse_existing(store, name)  # before asking for a passphrase
    passphrase = None if no_passphrase else passphrase_for(
        name, confirm=True, prompt=f"New passphrase for key {name}"
    )
    info = store.new(name, passphrase)
    protection = "passphrase-protected" if info.encrypted else "NOT passphrase-protected"
    echo(f"created key {info.name} in {store.dir} ({protection})", err=True)
    _print_info(info)
    _how_to_share(store, info)


@key.command("import")
@click.argument("path", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--name", "name", default=None, help="Name in the store (default: the file's stem).")
@click.option("--no-passphrase", is_flag=True, help="Store the imported key unencrypted.")
def import_(path: Path, name: str | None, no_passphrase: bool) -> None:
    """Import an OpenSSH ed25519 (or PKCS#8 PEM) private key from PATH."""
    store = KeyStore()
    target = check_name(name if name is not None else path.stem)
    _refuse_existing(store, target)
    source_pass = None
    if private_file_encrypted(path):
        source_pass = passphrase_for(str(path), prompt=f"Passphrase of {path}")
    new_pass = None if no_passphrase else passphrase_for(
        target, confirm=True, prompt=f"New passphrase for key {target}"
    )
    info = store.import_ssh(path, target, source_pass, new_pass)
    protection = "passphrase-protected" if info.encrypted else "NOT passphrase-protected"
    echo(f"imported {path} as key {info.name} ({protection})", err=True)
    _print_info(info)
    _how_to_share(store, info)


@key.command("show")
@click.argument("name")
def show(name: str) -> None:
    """Print key NAME's public line and SHA256 fingerprint (never the private key)."""
    _print_info(KeyStore().info(name))


@key.command("list")
def list_() -> None:
    """One line per key: name, fingerprint, and (passphrase) when encrypted."""
    store = KeyStore()
    infos, problems = store.survey()
    for line in problems:  # a damaged pair is named, and the others still listed
        echo(f"pbem: cannot read {line}", err=True)
    if not infos:
        if not problems:
            echo(f"no keys in {store.dir} (create one with 'pbem key new NAME')", err=True)
        return
    width = max(len(i.name) for i in infos)
    for i in infos:
        suffix = "  (passphrase)" if i.encrypted else ""
        echo(f"{i.name.ljust(width)}  {i.fingerprint}{suffix}")
