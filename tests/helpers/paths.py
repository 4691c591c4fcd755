"""Where things are, for tests at any depth of ``tests/``."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
"""The ``tests/`` directory."""
ROOT = TESTS.parent
"""The checkout."""
DATA = TESTS / "data"
"""The tests' own scenarios and files."""
