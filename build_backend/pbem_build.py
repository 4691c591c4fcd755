"""pbem's build backend: setuptools', after removing the ``build/`` directory of the source tree.

pip builds a checkout in place (``pip install .``, ``pipx install .``), and setuptools copies
everything it finds in ``build/lib`` into the wheel: a module deleted or renamed since an earlier
build would ship again (issue 23). Starting each build from an empty ``build/`` makes the wheel
exactly the package as it is. Everything else is setuptools' own backend, unchanged."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import (  # noqa: F401  (the rest of the PEP 517/660 interface, as is)
    build_sdist,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)


def _clean() -> None:
    shutil.rmtree(Path("build"), ignore_errors=True)


def build_wheel(wheel_directory: str, config_settings: Any = None, metadata_directory: str | None = None) -> str:
    _clean()
    return str(_setuptools.build_wheel(wheel_directory, config_settings, metadata_directory))


def build_editable(wheel_directory: str, config_settings: Any = None, metadata_directory: str | None = None) -> str:
    _clean()
    return str(_setuptools.build_editable(wheel_directory, config_settings, metadata_directory))
