"""Finding and loading scenario files.

A scenario is a JSON file, bundled in ``scenarios/`` (installed as ``pbem.scenario_data``) or anywhere on
disk. String values of ``map`` and ``terrain_key`` name sibling JSON files that are merged in, so several
scenarios can share one map. The scenario's **content hash** is SHA-256 over the canonical JSON of the
fully merged data: the genesis records it, so both players provably play the same map and orders of
battle.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import json
from pathlib import Path
from typing import Any

from pbem.errors import InputError

MAX_SCENARIO_BYTES = 4 * 1024 * 1024


def bundled_dir() -> Path:
    """The directory holding the bundled scenarios (works installed or from a checkout)."""
    checkout = Path(__file__).resolve().parents[2] / "scenarios"
    try:
        # Installed (also editable): ``scenarios/`` ships as the data package ``pbem.scenario_data``.
        return Path(str(importlib.resources.files("pbem.scenario_data")))
    except ModuleNotFoundError:
        # Running from a source tree that was never installed.
        return checkout


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


def _read_json(path: Path) -> Any:
    from pbem.protocol.canonical import loads_strict

    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    return loads_strict(raw, max_bytes=MAX_SCENARIO_BYTES, what=str(path))


def resolve_path(ref: str) -> Path:
    """A scenario reference: a bundled id (``bastogne-spearhead``) or a path to a JSON file."""
    candidate = Path(ref)
    if candidate.suffix == ".json" and candidate.exists():
        return candidate
    bundled = bundled_dir() / f"{ref}.json"
    if bundled.exists():
        return bundled
    known = ", ".join(bundled_ids()) or "none"
    raise InputError(f"unknown scenario {ref!r} (bundled: {known}; or give a path to a .json file)")


def load_data(ref: str) -> dict[str, Any]:
    """The merged scenario data (``map`` and ``terrain_key`` files inlined)."""
    path = resolve_path(ref)
    data = _read_json(path)
    if not isinstance(data, dict):
        raise InputError(f"{path}: a scenario must be a JSON object")
    for key in ("map", "terrain_key"):
        value = data.get(key)
        if isinstance(value, str):
            sub = path.parent / value
            if not sub.exists():
                sub = bundled_dir() / value
            data[key] = _read_json(sub)
    return data


def content_hash(data: dict[str, Any]) -> str:
    """Hex SHA-256 of the canonical JSON of merged scenario data."""
    from pbem.protocol.canonical import canonical_bytes

    return hashlib.sha256(canonical_bytes(data)).hexdigest()
