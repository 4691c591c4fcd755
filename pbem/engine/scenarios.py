"""Finding and loading scenario files.

A scenario is a JSON file, bundled in ``pbem/scenario_data/`` (the package ``pbem.scenario_data``) or anywhere on
disk. String values of ``map``, ``terrain_key`` and ``crt`` name sibling JSON files that are merged in, so several
scenarios can share one map. Such a reference is a plain file name (``bastogne-map.json``: no
directory, no ``..``), looked up in the scenario's own directory and then in the bundled data, and read
only if it is a regular file (not a link, FIFO or device) within :data:`MAX_SCENARIO_BYTES`.

A game directory's ``scenario.json`` is the merged data, written once by ``pbem new``: it is never
resolved again, and :func:`load_game_copy` compares its hash with the genesis *before* parsing it. The scenario's **content hash** is SHA-256 over the canonical JSON of the
fully merged data: the genesis records it, so both players provably play the same map and orders of
battle.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pbem.errors import InputError
from pbem.lazy_re import LazyPattern

MAX_SCENARIO_BYTES = 4 * 1024 * 1024


_BUNDLED_DIR = Path(__file__).resolve().parent.parent / "scenario_data"


def bundled_dir() -> Path:
    """The directory holding the bundled scenarios: the data package ``pbem.scenario_data``
    (``pbem/scenario_data/`` in a checkout, installed with the package as plain files: a wheel and
    an sdist install them beside the modules, so the path is found from this module's file, without
    ``importlib.resources`` and the ``tempfile``/``zipfile`` machinery it imports, issue 28)."""
    return _BUNDLED_DIR


def bundled_text(name: str) -> str:
    """Text of a data file shipped in ``pbem.scenario_data`` (the one reader of bundled data)."""
    return (_BUNDLED_DIR / name).read_text(encoding="utf-8")


def bundled_ids() -> list[str]:
    """Ids of bundled scenarios: every ``*.json`` with a ``"system"`` key."""
    out = []
    for path in sorted(bundled_dir().glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and "system" in data and "id" in data:
            out.append(str(data["id"]))
    return out


_REF_RE = LazyPattern(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}\.json$")  # compiled when a file is named
REF_FIELDS = ("map", "terrain_key", "crt", "tec")


def _read_json(path: Path, *, follow_symlinks: bool = True, files: Any = None) -> Any:
    """The JSON file at ``path``; ``files`` (a SHA-256 object), when given, takes in its name and
    bytes (:func:`load_bundled`)."""
    from pbem.protocol.canonical import loads_strict
    from pbem.protocol.fsutil import read_regular

    raw = read_regular(path, MAX_SCENARIO_BYTES, follow_symlinks=follow_symlinks)
    if files is not None:
        files.update(f"{path.name}\0{len(raw)}\0".encode())
        files.update(raw)
    return loads_strict(raw, max_bytes=MAX_SCENARIO_BYTES, what=str(path))


def resolve_path(ref: str) -> Path:
    """A scenario reference: a bundled id (``bastogne-spearhead``) or a path to a JSON file."""
    candidate = Path(ref)
    if candidate.suffix == ".json" and (candidate.exists() or candidate.is_symlink()):
        return candidate
    if _REF_RE.match(f"{ref}.json"):
        bundled = bundled_dir() / f"{ref}.json"
        if bundled.exists():
            return bundled
    import difflib

    close = difflib.get_close_matches(ref, bundled_ids(), n=3, cutoff=0.6)
    hint = f"did you mean {' or '.join(close)}? " if close else ""
    # the whole list would be cut by the one-line error's length limit: 'pbem scenarios' shows it
    raise InputError(f"unknown scenario {ref[:100]!r}: {hint}'pbem scenarios' lists the bundled ones; "
                     "or give the path of a scenario .json file")


def _referenced(path: Path, key: str, value: str) -> Path:
    """The file a scenario's ``map``/``terrain_key`` names: a plain file name, in the scenario's
    own directory or the bundled data -- nothing else."""
    if not _REF_RE.match(value) or ".." in value:
        raise InputError(
            f"{key}: {value[:100]!r} is not a plain file name (letters, digits, '.', '-', '_', ending "
            ".json): a scenario may refer only to files beside it or bundled with pbem"
        )
    for directory in (path.parent, bundled_dir()):
        candidate = directory / value
        if candidate.exists() or candidate.is_symlink():
            return candidate
    raise InputError(f"{key}: file {value!r} not found next to the scenario nor bundled")


def load_parts(path: Path, *, files: Any = None) -> tuple[dict[str, Any], list[str]]:
    """The scenario file at ``path`` with its ``map``/``terrain_key`` files merged in, and the
    problems met on the way (a reference left as ``None``). A scenario file that cannot be read or
    is not a JSON object is an :class:`InputError`. ``files`` (a SHA-256 object), when given,
    takes in the name and bytes of every file read, in the order read."""
    data = _read_json(path, files=files)
    if not isinstance(data, dict):
        raise InputError(f"{path}: a scenario must be a JSON object")
    problems: list[str] = []
    for key in REF_FIELDS:
        value = data.get(key)
        if isinstance(value, str):
            try:
                data[key] = _read_json(_referenced(path, key, value), follow_symlinks=False, files=files)
            except InputError as exc:
                problems.append(str(exc) if str(exc).startswith(f"{key}:") else f"{key}: {exc}")
                data[key] = None
    return data, problems


def load_data(ref: str) -> dict[str, Any]:
    """The merged scenario data (``map`` and ``terrain_key`` files inlined)."""
    path = resolve_path(ref)
    data, problems = load_parts(path)
    if problems:
        raise InputError(f"{path.name}: {problems[0]}")
    return data


def load_bundled(ref: str) -> tuple[dict[str, Any], str]:
    """:func:`load_data`, and the digest of the files it read (:func:`files_digest`): whether
    they are byte for byte a scenario pbem's tests checked (:func:`is_checked`)."""
    path = resolve_path(ref)
    files = hashlib.sha256(FILES_DS.encode())
    data, problems = load_parts(path, files=files)
    if problems:
        raise InputError(f"{path.name}: {problems[0]}")
    return data, files.hexdigest()


FILES_DS = "pbem/scenario-files/v1\0"
"""What a scenario's files digest starts with: then, for each file :func:`load_parts` reads, in
the order read, its name, its length and its bytes."""


def files_digest(ref: str) -> str:
    """The digest of the files a bundled scenario (or a scenario file) is read from: SHA-256 over
    :data:`FILES_DS` and each file's name, length and bytes. Not the content hash: two files that
    differ in a byte differ here even when their merged data is the same JSON."""
    return load_bundled(ref)[1]


def is_checked(*, files: str | None = None, content: str | None = None) -> bool:
    """Whether a scenario is byte for byte a bundled one pbem's own tests check in full
    (:mod:`pbem.engine.scenarios_checked`, held up to date by tests/engine/test_scenarios_checked.py):
    read from files whose digest is ``files`` (:func:`load_bundled`), or from a game directory's
    ``scenario.json`` whose bytes hash to ``content`` (:func:`load_game_copy`: the canonical JSON
    the tests checked, so its hash is of exactly those bytes). The rules may then build its
    records without checking them again (:meth:`pbem.engine.ruleset.Ruleset.load_checked_scenario`).
    Anything else -- a scenario file of the player's own, a side's copy of a secret set-up, a
    bundled file changed by a byte -- is checked in full."""
    from pbem.engine.scenarios_checked import CHECKED

    return any(files == f or content == c for c, f in CHECKED.values())


def load_game_copy(raw: bytes, expected_sha256: str) -> dict[str, Any]:
    """A game directory's ``scenario.json`` (already read within the size limit), believed only
    after its hash equals the genesis's: it must be the canonical JSON of the merged data and a
    newline, with no file references left (bytes that hash to a bundled scenario's checked in full
    are that: :func:`is_checked`)."""
    from pbem.protocol.canonical import canonical_bytes, loads_strict

    body = raw[:-1] if raw.endswith(b"\n") else raw
    digest = hashlib.sha256(body).hexdigest()
    if digest != expected_sha256 or not raw.endswith(b"\n"):
        raise InputError(
            f"content hash {digest[:16]}… differs from the genesis ({expected_sha256[:16]}…)"
        )
    data = loads_strict(body, max_bytes=MAX_SCENARIO_BYTES, what="scenario.json")
    if is_checked(content=digest):
        return data  # the tests' own canonical bytes: an object, no file reference
    if not isinstance(data, dict) or canonical_bytes(data) != body:
        raise InputError("not the canonical JSON of a scenario")
    for key in REF_FIELDS:
        if isinstance(data.get(key), str):
            raise InputError(f"{key}: a game's scenario copy holds merged data, not a file name")
    return data


def content_hash(data: dict[str, Any]) -> str:
    """Hex SHA-256 of the canonical JSON of merged scenario data."""
    from pbem.protocol.canonical import canonical_bytes

    return hashlib.sha256(canonical_bytes(data)).hexdigest()


SALT_KEY = "pbem_salt"
"""In the umpire's whole copy of a scenario with a secret set-up: 32 bytes (hex) that make its
hash in the genesis a commitment nobody can test guesses of the set-up against."""
SALT_DS = "pbem/scenario-salt/v1"


def scenario_salt(seed: bytes, game: str) -> str:
    """The salt of a secret set-up, from the umpire's chain seed: as secret as the seed, and the
    same every time the umpire's pbem computes it."""
    import hmac

    from pbem.protocol.canonical import canonical_bytes

    return hmac.new(seed, canonical_bytes({"ds": SALT_DS, "game": game}), hashlib.sha256).hexdigest()


def without_salt(data: dict[str, Any]) -> dict[str, Any]:
    """The scenario data the rules read (the umpire's copy without its salt)."""
    return {k: v for k, v in data.items() if k != SALT_KEY} if SALT_KEY in data else data


def copy_digest(raw: bytes) -> str:
    """The hash of a game directory's ``scenario.json`` as :func:`load_game_copy` compares it."""
    return hashlib.sha256(raw[:-1] if raw.endswith(b"\n") else raw).hexdigest()


COPY_SALT_DS = "pbem/scenario-copy-salt/v1"


def side_copy(ruleset: Any, model: Any, whole: dict[str, Any], side: str) -> dict[str, Any] | None:
    """The copy of a secret set-up's scenario ``side`` holds: the rules' copy of the whole
    (:meth:`pbem.engine.ruleset.Ruleset.scenario_copy`) with a salt of its own, derived from the
    whole scenario's, so that its hash in the genesis lets nobody test guesses of another side's
    copy (its forces and their start hexes); ``None`` when the rules make no copy for ``side``."""
    import hmac

    from pbem.protocol.canonical import canonical_bytes

    copy = ruleset.scenario_copy(model, without_salt(whole), side)
    if copy is None:
        return None
    salt = whole.get(SALT_KEY)
    if not isinstance(salt, str):
        return dict(copy)
    mac = hmac.new(bytes.fromhex(salt), canonical_bytes({"ds": COPY_SALT_DS, "side": side}), hashlib.sha256)
    return {**copy, SALT_KEY: mac.hexdigest()}


CHECKED_MODULE = Path(__file__).resolve().parent / "scenarios_checked.py"
"""The manifest of bundled scenarios checked in full (:func:`is_checked`), written by
``python -m pbem.engine.scenarios``."""


def checked_manifest() -> dict[str, tuple[str, str]]:
    """Every bundled scenario id -> its content hash (:func:`content_hash`: the SHA-256 of the
    canonical bytes a game directory's copy holds) and the digest of its files
    (:func:`files_digest`), each checked in full by its rules
    (:meth:`~pbem.engine.ruleset.Ruleset.load_scenario`: an unsound one raises) both as the files
    read it and as the canonical bytes read it: what :data:`CHECKED_MODULE` must hold."""
    from pbem.engine.ruleset import get_ruleset
    from pbem.protocol.canonical import canonical_bytes, loads_strict

    out: dict[str, tuple[str, str]] = {}
    for sid in bundled_ids():
        data, files = load_bundled(sid)
        ruleset = get_ruleset(str(data["system"]))
        ruleset.load_scenario(data)
        body = canonical_bytes(data)
        ruleset.load_scenario(loads_strict(body, max_bytes=MAX_SCENARIO_BYTES, what=sid))
        out[sid] = (hashlib.sha256(body).hexdigest(), files)
    return out


def checked_module_text(manifest: dict[str, tuple[str, str]]) -> str:
    """The text of :data:`CHECKED_MODULE` holding ``manifest``."""
    rows = "".join(f'    "{sid}": (\n        "{c}",\n        "{f}",\n    ),\n'
                   for sid, (c, f) in sorted(manifest.items()))
    return (
        '"""The bundled scenarios pbem\'s tests check in full: id -> (content hash, the hash of the\n'
        "canonical bytes a game directory's copy holds; digest of the files it is read from,\n"
        ":func:`pbem.engine.scenarios.files_digest`). A game of one whose bytes are these builds its\n"
        "records without checking them again (:func:`pbem.engine.scenarios.is_checked`).\n"
        "Written by ``python -m pbem.engine.scenarios`` after a bundled scenario changes (the tests fail\n"
        'until then, and a changed file is checked in full meanwhile): do not edit."""\n\n'
        f"CHECKED: dict[str, tuple[str, str]] = {{\n{rows}}}\n"
    )


if __name__ == "__main__":
    CHECKED_MODULE.write_text(checked_module_text(checked_manifest()), encoding="utf-8")
    print(CHECKED_MODULE)
