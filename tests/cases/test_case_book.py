"""The case book (``cases/<book>/``, issue 26): every case of every book runs through the rules and
agrees with the engine (or disagrees exactly as it records), ids are unique and carry the book's
prefix and the rule they test, and the readable index ``docs/cases/<book>.md`` is up to date."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from helpers.paths import ROOT

from pbem.engine.cases import (
    BOOKS,
    CASE_KEYS,
    ID_RE,
    CaseResult,
    book_files,
    book_index,
    load_case,
    run_case,
)
from pbem.errors import InputError

CASES = ROOT / "cases"
DOCS = ROOT / "docs" / "cases"

MINIMUM = {"westwall": 60, "spi-arnhem": 40, "arnhem1944": 40, "megagame": 50}
"""The case counts issue 26 asks of each book."""


def _all_files() -> list[Path]:
    return [p for book in BOOKS for p in book_files(CASES / book)]


def _case_id(path: Path) -> str:
    """The case's id for the test's name (the file name when the file cannot be read: the test
    itself then reports why)."""
    try:
        return load_case(path).id
    except InputError:
        return f"{path.parent.name}/{path.name}"


FILES = _all_files()


def _report(result: CaseResult) -> str:
    lines = [f"case {result.case.id} ({result.case.path.relative_to(ROOT)}): {result.verdict}"]
    for step in result.steps:
        for point in step.disagreements:
            lines.append(f"  step {step.index + 1}: {point.what}: {point.detail}")
    if result.case.engine_disagrees and result.agrees:
        lines.append(f"  the case records: {result.case.engine_disagrees}")
    lines.append(f"  (run: pbem case run {result.case.path.relative_to(ROOT)})")
    return "\n".join(lines)


def test_every_book_exists_and_has_cases() -> None:
    for book in BOOKS:
        assert (CASES / book).is_dir(), f"cases/{book}/ is missing"
        assert book_files(CASES / book), f"cases/{book}/ holds no case"


@pytest.mark.parametrize("path", FILES, ids=[_case_id(p) for p in FILES])
def test_case_runs_as_recorded(path: Path) -> None:
    result = run_case(load_case(path))
    assert result.as_recorded, _report(result)


@pytest.mark.parametrize("book", list(BOOKS))
def test_ids_are_unique_prefixed_and_name_their_rule(book: str) -> None:
    cases = [load_case(p) for p in book_files(CASES / book)]
    prefix = BOOKS[book]
    for c in cases:
        match = ID_RE.match(c.id)
        assert match is not None and match["prefix"] == prefix, f"{c.path.name}: {c.id} is not {prefix}-<rule>-<n>"
        # the id cites the case's rule: "7.74" -> WW-7.74-n; the megagame's sections are numbered
        # and named ("9 Supplies"): MG-9-n or, with a word of the name, MG-9supplies-n
        first = c.rule.split()[0].rstrip(",;:")
        named = prefix == "MG" and re.fullmatch(re.escape(first) + r"[a-z]+", match["rule"]) is not None
        assert match["rule"] == first or named, f"{c.path.name}: id {c.id} does not name rule {c.rule!r}"
    numbers = Counter(p.name[:3] for p in book_files(CASES / book))
    assert not [n for n, k in numbers.items() if k > 1], f"cases/{book}: file numbers used twice: {numbers}"


def test_ids_are_unique_across_the_books() -> None:
    every_id = [load_case(p).id for p in FILES]
    twice = sorted(i for i, n in Counter(every_id).items() if n > 1)
    assert not twice, f"case ids used more than once: {twice}"


@pytest.mark.parametrize("path", FILES, ids=[_case_id(p) for p in FILES])
def test_case_file_keys_in_the_book_order(path: Path) -> None:
    keys = list(json.loads(path.read_text(encoding="utf-8")))
    assert keys == [k for k in CASE_KEYS if k in keys], f"{path.name}: keys in the order {', '.join(CASE_KEYS)}"


@pytest.mark.parametrize("book", list(BOOKS))
def test_the_index_is_up_to_date(book: str) -> None:
    page = DOCS / f"{book}.md"
    command = f"pbem case index cases/{book} --out docs/cases/{book}.md"
    assert page.is_file(), f"docs/cases/{book}.md is missing: run {command}"
    assert page.read_text(encoding="utf-8") == book_index(CASES / book), \
        f"docs/cases/{book}.md is stale: run {command}"


@pytest.mark.parametrize("book", list(BOOKS))
def test_each_book_holds_its_count(book: str) -> None:
    assert len(book_files(CASES / book)) >= MINIMUM[book]


def test_every_case_quotes_one_sentence_not_a_passage() -> None:
    """A case quotes the one sentence (or clause) it tests, not a passage of the text."""
    for path in FILES:
        quote = load_case(path).quote
        assert len(quote) <= 400 and len(re.findall(r"[.!?](?:\s|$)", quote)) <= 2, f"{path.name}: quote too long"
