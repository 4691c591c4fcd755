"""``pbem key new|import|show|list`` through click's runner and the real entry point."""

from __future__ import annotations

import base64
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.cli import cli, main
from pbem.errors import InputError
from pbem.protocol.keys import KeyStore, fingerprint, raw_private_bytes

SSH_KEYGEN = shutil.which("ssh-keygen")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private PBEM_HOME, and no passphrase in the environment unless a test sets one."""
    path = tmp_path / "pbem-home"
    monkeypatch.setenv("PBEM_HOME", str(path))
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    return path


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """pbem asks for a passphrase as on a terminal (click's runner then types the input given);
    without one it reads standard input without asking (see the tests without a terminal)."""
    monkeypatch.setattr("pbem.protocol.keys._terminal", lambda: True)


def run(args: list[str], input: str | None = None, passphrase: str | None = None) -> Result:
    env = {"PBEM_PASSPHRASE": passphrase} if passphrase is not None else {}
    return CliRunner().invoke(cli, args, input=input, env=env, catch_exceptions=False)


def secret_forms(key: Ed25519PrivateKey) -> list[str]:
    seed = raw_private_bytes(key)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    body = "".join(ln for ln in pem.splitlines() if not ln.startswith("-----"))
    return [seed.hex(), base64.b64encode(seed).decode().rstrip("="), body[:40], "PRIVATE KEY"]


def test_new_with_passphrase_from_environment(home: Path) -> None:
    result = run(["key", "new", "alice"], passphrase="pw")
    assert result.exit_code == 0, result.output
    line, fp = result.stdout.splitlines()
    store = KeyStore(home)
    info = store.info("alice")
    assert info.encrypted
    assert line == info.public_line and line.startswith("ssh-ed25519 AAAA") and line.endswith(
        " alice"
    )
    assert fp == info.fingerprint and fp.startswith("SHA256:")
    assert "passphrase-protected" in result.stderr
    assert stat.S_IMODE((home / "keys" / "alice.key").stat().st_mode) == 0o600
    assert fingerprint(store.private("alice", b"pw").public_key()) == fp


def test_new_names_the_public_file_to_send_and_it_holds_only_the_public_line(home: Path) -> None:
    """A new user is told which file goes to the opponent (a tester asked; issue 27)."""
    result = run(["key", "new", "dora", "--no-passphrase"], input="")
    assert result.exit_code == 0, result.output
    pub = KeyStore(home).pub_path("dora")
    assert f"send {pub} to whoever starts the game" in result.stderr
    line = result.stdout.splitlines()[0]
    assert pub.read_text(encoding="utf-8").strip() == line  # what is sent: the public line, nothing else
    assert result.stdout.count("\n") == 2  # stdout unchanged: the public line and the fingerprint


def test_new_prompts_twice_for_a_passphrase(home: Path, terminal: None) -> None:
    result = run(["key", "new", "bob"], input="s3cret\ns3cret\n")
    assert result.exit_code == 0, result.output
    assert "s3cret" not in result.output
    store = KeyStore(home)
    assert store.info("bob").encrypted
    store.private("bob", b"s3cret")


def test_new_without_passphrase_never_prints_private_material(home: Path) -> None:
    result = run(["key", "new", "carol", "--no-passphrase"], input="")
    assert result.exit_code == 0, result.output
    assert "NOT passphrase-protected" in result.stderr
    priv = KeyStore(home).private("carol", None)
    outputs = [result.output, run(["key", "show", "carol"]).output, run(["key", "list"]).output]
    for text in outputs:
        for secret in secret_forms(priv):
            assert secret not in text


def test_show_and_list(home: Path) -> None:
    run(["key", "new", "zed", "--no-passphrase"])
    run(["key", "new", "amy"], passphrase="pw")
    info = KeyStore(home).info("zed")
    shown = run(["key", "show", "zed"])
    assert shown.exit_code == 0
    assert shown.stdout == f"{info.public_line}\n{info.fingerprint}\n"
    listed = run(["key", "list"]).stdout.splitlines()
    amy = KeyStore(home).info("amy")
    assert listed == [f"amy  {amy.fingerprint}  (passphrase)", f"zed  {info.fingerprint}"]


def test_list_names_an_unreadable_key_and_lists_the_others(home: Path) -> None:
    """A ``.key`` without its ``.pub`` (a key copied in by hand) and a damaged ``.pub`` are each
    named on one line; every other key is still listed (the listing stopped at the first)."""
    for name in ("amy", "bob", "cat"):
        run(["key", "new", name, "--no-passphrase"])
    store = KeyStore(home)
    store.pub_path("amy").unlink()
    store.pub_path("bob").write_text("not a key\n", encoding="utf-8")
    result = run(["key", "list"])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [f"cat  {store.info('cat').fingerprint}"]
    errs = result.stderr.splitlines()
    assert len(errs) == 2
    assert errs[0].startswith("pbem: cannot read key amy: ") and "amy.pub" in errs[0]
    assert errs[1].startswith("pbem: cannot read key bob: ")
    with pytest.raises(InputError, match="key amy"):
        store.list()  # the strict listing other commands use still refuses


def test_list_when_empty(home: Path) -> None:
    result = run(["key", "list"])
    assert result.exit_code == 0 and result.stdout == ""
    assert "no keys" in result.stderr


def test_import_encrypted_openssh_key_asks_both_passphrases(home: Path, tmp_path: Path, terminal: None) -> None:
    key = Ed25519PrivateKey.generate()
    src = tmp_path / "id_ed25519"
    src.write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH,
        serialization.BestAvailableEncryption(b"old"),
    ))
    result = run(["key", "import", str(src)], input="old\nnew\nnew\n")
    assert result.exit_code == 0, result.output
    assert f"Passphrase of {src}" in result.stderr
    assert result.stdout.splitlines()[1] == fingerprint(key.public_key())
    store = KeyStore(home)
    assert store.info("id_ed25519").encrypted
    assert raw_private_bytes(store.private("id_ed25519", b"new")) == raw_private_bytes(key)


def test_import_unencrypted_key_asks_only_the_store_passphrase(home: Path, tmp_path: Path,
                                                               terminal: None) -> None:
    key = Ed25519PrivateKey.generate()
    src = tmp_path / "plain"
    src.write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH,
        serialization.NoEncryption(),
    ))
    result = run(["key", "import", str(src), "--name", "mine"], input="pw\npw\n")
    assert result.exit_code == 0, result.output
    assert "Passphrase of" not in result.stderr
    assert KeyStore(home).private("mine", b"pw").public_key() == key.public_key()


@pytest.mark.skipif(SSH_KEYGEN is None, reason="ssh-keygen not installed")
def test_import_ssh_keygen_key_with_env_passphrase(home: Path, tmp_path: Path) -> None:
    src = tmp_path / "id_ed25519"
    subprocess.run(
        [str(SSH_KEYGEN), "-q", "-t", "ed25519", "-a", "4", "-N", "same", "-C", "x",
         "-f", str(src)],
        check=True,
    )
    expected = subprocess.run(
        [str(SSH_KEYGEN), "-lf", str(src)], check=True, capture_output=True, text=True
    ).stdout.split()[1]
    result = run(["key", "import", str(src), "--name", "laptop"], passphrase="same")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1] == expected
    assert KeyStore(home).info("laptop").fingerprint == expected


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["key", "show", "nobody"], "no key named 'nobody'"),
        (["key", "new", "../evil", "--no-passphrase"], "invalid key name"),
        (["key", "import", "/nonexistent/id_ed25519", "--no-passphrase"], "no such file"),
    ],
)
def test_errors_are_one_line_with_exit_code_2(
    home: Path, capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("pbem: ") and fragment in err
    assert err.count("\n") == 1


def test_existing_name_is_refused_before_any_prompt(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    KeyStore(home).new("alice", None)
    before = (home / "keys" / "alice.key").read_bytes()
    with pytest.raises(SystemExit) as exit_info:
        main(["key", "new", "alice"])  # would prompt (no PBEM_PASSPHRASE) if it got that far
    assert exit_info.value.code == 2
    assert "already exists" in capsys.readouterr().err
    assert (home / "keys" / "alice.key").read_bytes() == before


def test_wrong_source_passphrase_exits_2_and_writes_nothing(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    src = tmp_path / "k"
    src.write_bytes(Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH,
        serialization.BestAvailableEncryption(b"right"),
    ))
    monkeypatch.setenv("PBEM_PASSPHRASE", "wrong")
    with pytest.raises(SystemExit) as exit_info:
        main(["key", "import", str(src)])
    assert exit_info.value.code == 2
    assert "wrong passphrase" in capsys.readouterr().err
    assert KeyStore(home).list() == []


def test_import_keeps_the_comment_of_the_openssh_key(tmp_path: Path) -> None:
    """``ssh-keygen -C bob@example.org`` wrote the key: ``pbem key show`` shows that comment too,
    read from the ``.pub`` beside it (only when it holds the same key)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from helpers.protocol import pbem as run

    key = Ed25519PrivateKey.generate()
    src = tmp_path / "id_ed25519"
    src.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH,
                                      serialization.NoEncryption()))
    pub = key.public_key().public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
    (tmp_path / "id_ed25519.pub").write_bytes(pub + b" bob@example.org\n")
    home = tmp_path / "home"
    res = run("key", "import", src, "--name", "bob", "--no-passphrase", home=home)
    assert res.code == 0, res.err
    shown = run("key", "show", "bob", home=home).out
    assert shown.splitlines()[0] == pub.decode() + " bob@example.org"
    # a .pub beside it holding another key lends no comment
    other = Ed25519PrivateKey.generate()
    src2 = tmp_path / "other_key"
    src2.write_bytes(other.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH,
                                         serialization.NoEncryption()))
    (tmp_path / "other_key.pub").write_bytes(pub + b" mallory@example.org\n")
    assert run("key", "import", src2, "--name", "carol", "--no-passphrase", home=home).code == 0
    assert run("key", "show", "carol", home=home).out.split()[2] == "carol"


def test_new_without_a_passphrase_at_hand_says_what_to_do(home: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # no terminal, and the input ends at once
    monkeypatch.setattr("pbem.protocol.keys._terminal", lambda: False)
    with pytest.raises(SystemExit) as exc:
        main(["key", "new", "dora"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "--no-passphrase" in err and "PBEM_PASSPHRASE" in err
    assert "Aborted" not in err and not (home / "keys" / "dora.pub").exists()


def test_a_damaged_key_pair_hides_no_side_this_machine_plays(home: Path) -> None:
    """Which sides of a game this machine plays is found from every readable key: a ``.key``
    left without its ``.pub`` beside the player's key no longer hides the player's side (the
    whole discovery gave up at the first unreadable key)."""
    from types import SimpleNamespace

    from pbem.protocol.localstate import LocalGame, local_sides

    run(["key", "new", "alice", "--no-passphrase"])
    run(["key", "new", "aaron", "--no-passphrase"])  # sorted first: the one that fails
    store = KeyStore(home)
    store.pub_path("aaron").unlink()
    fp = store.info("alice").fingerprint
    game = SimpleNamespace(body=SimpleNamespace(sides={"DE": SimpleNamespace(fingerprint=fp),
                                                       "US": SimpleNamespace(fingerprint="SHA256:other")}),
                           sides=["DE", "US"])
    local = LocalGame("ab" * 16, "cd" * 32)
    assert local_sides(game, local) == {"DE": "alice"}  # type: ignore[arg-type]


def _pbem_without_a_terminal(home: Path, *args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    """The real ``pbem`` in a process of its own session: no controlling terminal, standard input
    a pipe holding ``stdin`` (a script, a cron job, an editor's build command)."""
    import os
    import sys

    env = {k: v for k, v in os.environ.items() if k != "PBEM_PASSPHRASE"}
    env["PBEM_HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "pbem", *args], input=stdin, env=env, capture_output=True,
                          text=True, timeout=120, start_new_session=True)


def test_new_without_a_terminal_refuses_in_one_line_and_no_echo_warning(home: Path) -> None:
    """With no terminal and nothing on standard input, the refusal is the whole of what is said
    (getpass's "Password input may be echoed" and the prompt came before it), exit 2."""
    done = _pbem_without_a_terminal(home, "key", "new", "dora", stdin="")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == ("pbem: key dora needs a passphrase and none was given: type it at a terminal, or set "
                           "PBEM_PASSPHRASE, or make the key with --no-passphrase\n")
    assert not (home / "keys" / "dora.key").exists()


def test_new_without_a_terminal_takes_the_passphrase_piped_to_it_silently(home: Path) -> None:
    """A passphrase piped in (twice, for a new key) is still taken, without a prompt or warning
    nobody would read; two that differ are refused and nothing is written."""
    done = _pbem_without_a_terminal(home, "key", "new", "erin", stdin="s3cret\ns3cret\n")
    assert done.returncode == 0, done.stderr
    assert "echoed" not in done.stderr and "passphrase for" not in done.stderr.lower()
    assert KeyStore(home).info("erin").encrypted
    KeyStore(home).private("erin", b"s3cret")
    done = _pbem_without_a_terminal(home, "key", "new", "fay", stdin="one\ntwo\n")
    assert done.returncode == 2
    assert done.stderr == "pbem: the two passphrases given on standard input differ\n"
    assert not (home / "keys" / "fay.key").exists()
