"""The case book (issue 26): numbered situations that settle what the rules say, run through the
public :class:`~pbem.engine.ruleset.Ruleset` interface.

A case file (``cases/<book>/NNN-short-name.json``, format: ``cases/README.md``) holds a scenario,
a state, one or more steps (one side's orders, or one sealed round) with the dice faces the engine
is to draw, and what each step must produce: the rule cases a refusal cites, events, values in the
new state, the score, what a side sees. :func:`load_case` reads and checks a file (every problem is
one :class:`~pbem.errors.InputError` line); :func:`run_case` runs it and returns a
:class:`CaseResult` that says, point by point, what the case expects beside what the engine did.
:func:`book_index` writes the readable index of a book (``docs/cases/<book>.md``). Nothing here
prints: ``pbem case`` (:mod:`pbem.cli.cases`) does.

A case may record that the engine rules otherwise (``engine_disagrees``): it is then expected to
disagree, and a run in which it agrees says so, so that a fix shows.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import field
from pathlib import Path
from typing import Any

from pbem.engine.ruleset import JSON, Checked, Ruleset
from pbem.errors import InputError, PbemError, RuleViolation
from pbem.plain import Plain

MAX_CASE_BYTES = 2 * 1024 * 1024
"""A case file is refused, before it is read, above this size."""

BOOKS: dict[str, str] = {
    # book folder -> the prefix of its case ids
    "westwall": "WW",
    "spi-arnhem": "SA",
    "arnhem1944": "A44",
    "megagame": "MG",
}

CASE_KEYS = ("id", "title", "rule", "quote", "reading", "system", "scenario", "state", "steps",
             "engine_disagrees")
"""The keys of a case, in the order a file writes them."""
REQUIRED_KEYS = ("id", "title", "rule", "quote", "system", "scenario", "state", "steps")
EXPECT_KEYS = ("violations", "events", "no_events", "state", "score", "view", "view_text")

CASE_NAME_RE = re.compile(r"^[0-9]{3}-[a-z0-9][a-z0-9-]*\.json$")
"""A case file's name in a book: ``NNN-short-name.json``."""
ID_RE = re.compile(r"^(?P<prefix>WW|SA|A44|MG)-(?P<rule>[0-9A-Za-z][0-9A-Za-z.]*)-(?P<n>[1-9][0-9]*)$")
_BUNDLED_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,99}$")
_BASE_RE = re.compile(r"^_[A-Za-z0-9][A-Za-z0-9_.-]{0,99}\.json$")
_ABSENT = {"absent": True}


# --------------------------------------------------------------------------------------------------
# The case file
# --------------------------------------------------------------------------------------------------


class Step(Plain, frozen=True):
    """One decision of a case: one side's orders, or one sealed round (``round``: side -> orders)."""

    side: str | None
    orders: JSON
    round: dict[str, JSON] | None
    rulings: JSON
    dice: list[int]
    expect: dict[str, Any]

    @property
    def sides(self) -> list[str]:
        return list(self.round) if self.round is not None else [str(self.side)]


class Case(Plain, frozen=True):
    """A case file, checked."""

    path: Path
    id: str
    title: str
    rule: str
    quote: str
    reading: str | None
    system: str
    scenario: dict[str, Any]
    state: dict[str, Any]
    steps: list[Step]
    engine_disagrees: str | None


def one_line(text: object) -> str:
    """An error's text on one line (a ruleset may list several problems, one a line)."""
    out = ""
    for line in (x.strip() for x in str(text).splitlines()):
        if line:
            out += (" " if not out or out.endswith(":") else "; ") + line
    return out.strip()


def _fail(path: Path, message: str) -> InputError:
    return InputError(one_line(f"{path}: {message}"))


def _text(path: Path, data: dict[str, Any], key: str, *, required: bool = True) -> str | None:
    value = data.get(key)
    if value is None and not required and key not in data:
        return None
    if not isinstance(value, str) or not value.strip():
        raise _fail(path, f"{key}: must be a non-empty string")
    if "\n" in value and key in ("id", "title", "rule", "system"):
        raise _fail(path, f"{key}: must be one line")
    return value


def check_pointer(pointer: Any, where: str, path: Path) -> str:
    """An RFC 6901 JSON pointer (``""`` or ``/a/0/b``, ``~0`` and ``~1`` the only escapes)."""
    if not isinstance(pointer, str) or (pointer and not pointer.startswith("/")):
        raise _fail(path, f"{where}: {str(pointer)[:80]!r} is not a JSON pointer (RFC 6901: '' or '/a/0/b')")
    if re.search(r"~(?![01])", pointer):
        raise _fail(path, f"{where}: {pointer[:80]!r}: '~' must be followed by 0 or 1 (RFC 6901)")
    return pointer


def _only(path: Path, where: str, data: Any, allowed: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _fail(path, f"{where}: must be a JSON object")
    unknown = [k for k in data if k not in allowed]
    if unknown:
        raise _fail(path, f"{where}: unknown key {unknown[0]!r} (known: {', '.join(allowed)})")
    return data


def _one_of(path: Path, where: str, data: dict[str, Any], sources: tuple[str, ...]) -> str:
    given = [k for k in sources if k in data]
    if len(given) != 1:
        raise _fail(path, f"{where}: give exactly one of {', '.join(sources)}"
                          f"{' (found ' + ', '.join(given) + ')' if given else ''}")
    return given[0]


def _check_scenario(path: Path, data: Any) -> dict[str, Any]:
    spec = _only(path, "scenario", data, ("bundled", "base", "inline", "patch"))
    source = _one_of(path, "scenario", spec, ("bundled", "base", "inline"))
    value = spec[source]
    if source == "bundled" and (not isinstance(value, str) or not _BUNDLED_RE.match(value)):
        raise _fail(path, f"scenario.bundled: {str(value)[:80]!r} is not a scenario id ('pbem scenarios' lists them)")
    if source == "base" and (not isinstance(value, str) or not _BASE_RE.match(value)):
        raise _fail(path, f"scenario.base: {str(value)[:80]!r} must name a file of the case's own folder "
                          "starting with '_' and ending .json (no directories)")
    if source == "inline" and not isinstance(value, dict):
        raise _fail(path, "scenario.inline: must be a JSON object (the whole scenario)")
    if "patch" in spec and (source == "inline" or not isinstance(spec["patch"], dict)):
        raise _fail(path, "scenario.patch: a JSON object, only with 'bundled' or 'base'")
    return spec


def _check_state(path: Path, data: Any) -> dict[str, Any]:
    spec = _only(path, "state", data, ("initial", "inline", "patch"))
    source = _one_of(path, "state", spec, ("initial", "inline"))
    if not isinstance(spec[source], dict):
        raise _fail(path, f"state.{source}: must be a JSON object")
    if "patch" in spec and (source == "inline" or not isinstance(spec["patch"], dict)):
        raise _fail(path, "state.patch: a JSON object, only with 'initial'")
    return spec


def _strings(path: Path, where: str, value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(path, f"{where}: must be a list of strings")
    return list(value)


def _dicts(path: Path, where: str, value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(v, dict) and v for v in value):
        raise _fail(path, f"{where}: must be a list of non-empty JSON objects (partial events)")
    return list(value)


def _pointers(path: Path, where: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or not value:
        raise _fail(path, f"{where}: must be a non-empty object of JSON pointer -> value")
    for pointer in value:
        check_pointer(pointer, f"{where} {pointer[:80]!r}", path)
    return value


def _check_expect(path: Path, where: str, data: Any) -> dict[str, Any]:
    expect = _only(path, where, data, EXPECT_KEYS)
    if not expect:
        raise _fail(path, f"{where}: expect at least one of {', '.join(EXPECT_KEYS)}")
    if "violations" in expect:
        _strings(path, f"{where}.violations", expect["violations"])
    for key in ("events", "no_events"):
        if key in expect:
            _dicts(path, f"{where}.{key}", expect[key])
    if "state" in expect:
        _pointers(path, f"{where}.state", expect["state"])
    if "score" in expect:
        score = expect["score"]
        if not isinstance(score, dict) or not score or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in score.values()):
            raise _fail(path, f"{where}.score: must be a non-empty object of side -> integer")
    if "view" in expect:
        views = expect["view"]
        if not isinstance(views, dict) or not views:
            raise _fail(path, f"{where}.view: must be a non-empty object of side -> {{pointer: value}}")
        for side, pointers in views.items():
            _pointers(path, f"{where}.view.{side}", pointers)
    if "view_text" in expect:
        texts = expect["view_text"]
        if not isinstance(texts, dict) or not texts:
            raise _fail(path, f"{where}.view_text: must be a non-empty object of side -> {{includes, excludes}}")
        for side, spec in texts.items():
            spec = _only(path, f"{where}.view_text.{side}", spec, ("includes", "excludes"))
            if not spec:
                raise _fail(path, f"{where}.view_text.{side}: give includes or excludes")
            for key, value in spec.items():
                _strings(path, f"{where}.view_text.{side}.{key}", value)
    return expect


def _check_step(path: Path, n: int, data: Any) -> Step:
    where = f"steps[{n}]"
    step = _only(path, where, data, ("side", "orders", "round", "rulings", "dice", "expect"))
    if "round" in step:
        if "side" in step or "orders" in step:
            raise _fail(path, f"{where}: a step is either 'side' and 'orders' or a 'round', not both")
        rnd = step["round"]
        if not isinstance(rnd, dict) or not rnd or not all(isinstance(k, str) and k for k in rnd):
            raise _fail(path, f"{where}.round: must be a non-empty object of side -> orders")
        side, orders = None, None
    else:
        if "rulings" in step:
            raise _fail(path, f"{where}.rulings: only a sealed 'round' has umpire rulings")
        side, orders = step.get("side"), step.get("orders")
        if not isinstance(side, str) or not side:
            raise _fail(path, f"{where}.side: missing (the side whose decision this is), or give a 'round'")
        if "orders" not in step:
            raise _fail(path, f"{where}.orders: missing (the side's orders JSON)")
        rnd = None
    dice = step.get("dice", [])
    if not isinstance(dice, list) or not all(
            isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 6 for f in dice):
        raise _fail(path, f"{where}.dice: must be a list of d6 faces (integers 1..6)")
    if "expect" not in step:
        raise _fail(path, f"{where}.expect: missing (what the step must produce)")
    expect = _check_expect(path, f"{where}.expect", step["expect"])
    return Step(side=side, orders=orders, round=rnd, rulings=step.get("rulings"), dice=list(dice),
                expect=expect)


def parse_case(path: Path, data: Any) -> Case:
    """A case from its parsed JSON; :class:`InputError` (one line, naming ``path``) for the first
    problem: unknown keys, missing fields, bad pointers, sources, steps or ids."""
    if not isinstance(data, dict):
        raise _fail(path, "a case must be a JSON object")
    unknown = [k for k in data if k not in CASE_KEYS]
    if unknown:
        raise _fail(path, f"unknown key {unknown[0]!r} (a case has: {', '.join(CASE_KEYS)})")
    missing = [k for k in REQUIRED_KEYS if k not in data]
    if missing:
        raise _fail(path, f"missing {', '.join(missing)}")
    case_id = str(_text(path, data, "id"))
    match = ID_RE.match(case_id)
    if match is None:
        raise _fail(path, f"id: {case_id[:80]!r} is not <PREFIX>-<rule>-<n> "
                          f"(prefixes: {', '.join(f'{p} ({b})' for b, p in BOOKS.items())})")
    book = path.parent.name
    if book in BOOKS and match["prefix"] != BOOKS[book]:
        raise _fail(path, f"id: a case of the {book} book has an id starting {BOOKS[book]}-, not {case_id!r}")
    steps = data["steps"]
    if not isinstance(steps, list) or not steps:
        raise _fail(path, "steps: must be a non-empty list")
    return Case(
        path=path,
        id=case_id,
        title=str(_text(path, data, "title")),
        rule=str(_text(path, data, "rule")),
        quote=str(_text(path, data, "quote")),
        reading=_text(path, data, "reading", required=False),
        system=str(_text(path, data, "system")),
        scenario=_check_scenario(path, data["scenario"]),
        state=_check_state(path, data["state"]),
        steps=[_check_step(path, n, s) for n, s in enumerate(steps)],
        engine_disagrees=_text(path, data, "engine_disagrees", required=False),
    )


def load_case(path: Path) -> Case:
    """Read and check the case file at ``path`` (a regular file of at most
    :data:`MAX_CASE_BYTES`, refused before it is read; strict UTF-8 JSON)."""
    from pbem.protocol.canonical import loads_strict
    from pbem.protocol.fsutil import read_regular

    raw = read_regular(path, MAX_CASE_BYTES)
    return parse_case(path, loads_strict(raw, max_bytes=MAX_CASE_BYTES, what=str(path)))


def book_files(book_dir: Path) -> list[Path]:
    """The case files of a book folder, by number (``_*.json`` are shared bases, not cases); a
    ``.json`` file named otherwise is an :class:`InputError`."""
    if not book_dir.is_dir():
        raise InputError(f"{book_dir}: not a folder of cases")
    out = []
    for p in sorted(book_dir.iterdir()):
        if p.suffix != ".json" or p.name.startswith("_"):
            continue
        if not CASE_NAME_RE.match(p.name):
            raise InputError(f"{p}: a case file is named NNN-short-name.json (lower case), a shared base _name.json")
        out.append(p)
    return out


# --------------------------------------------------------------------------------------------------
# JSON helpers: merge patch (RFC 7386), pointers (RFC 6901), strict equality
# --------------------------------------------------------------------------------------------------


def merge_patch(target: JSON, patch: JSON) -> JSON:
    """``target`` with the RFC 7386 merge ``patch`` applied (a new value; neither is changed):
    objects merge key by key, ``null`` removes a key, anything else replaces."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out


_MISSING = object()


def resolve_pointer(doc: JSON, pointer: str) -> Any:
    """The value at an RFC 6901 ``pointer`` in ``doc``, or :data:`_MISSING`."""
    if pointer == "":
        return doc
    node = doc
    for token in pointer[1:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict):
            if token not in node:
                return _MISSING
            node = node[token]
        elif isinstance(node, list):
            if not re.fullmatch(r"0|[1-9][0-9]*", token) or int(token) >= len(node):
                return _MISSING
            node = node[int(token)]
        else:
            return _MISSING
    return node


def json_equal(a: Any, b: Any) -> bool:
    """Equality of JSON values, telling ``true`` from ``1`` (Python's ``==`` does not)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict | list) or isinstance(b, dict | list):
        return False
    return type(a) is type(b) and a == b


def matches(event: JSON, partial: dict[str, Any]) -> bool:
    """Whether ``event`` has every key of ``partial``, with an equal value."""
    return isinstance(event, dict) and all(k in event and json_equal(event[k], v) for k, v in partial.items())


def show(value: Any, limit: int = 160) -> str:
    """A JSON value in one short line."""
    if value is _MISSING:
        return "(absent)"
    text = json.dumps(value, ensure_ascii=False, sort_keys=False, separators=(", ", ": "))
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --------------------------------------------------------------------------------------------------
# Building the scenario and the state
# --------------------------------------------------------------------------------------------------


def scenario_data(case: Case) -> dict[str, Any]:
    """The case's merged scenario data: bundled (as a game loads it), a base file of the case's
    own folder, or inline; then the merge patch."""
    from pbem.engine.scenarios import bundled_dir, load_data, load_parts

    spec = case.scenario
    if "bundled" in spec:
        name = spec["bundled"]
        if not (bundled_dir() / f"{name}.json").is_file():
            raise _fail(case.path, f"scenario.bundled: no bundled scenario {name!r} ('pbem scenarios' lists them)")
        data: Any = load_data(name)
    elif "base" in spec:
        folder = case.path.parent.resolve()
        base = case.path.parent / spec["base"]
        if base.is_symlink() or not base.is_file() or base.resolve().parent != folder:
            raise _fail(case.path, f"scenario.base: {spec['base']!r} is not a plain file in {case.path.parent} "
                        "(copy the book's base file beside the case)")
        data, problems = load_parts(base)
        if problems:
            raise _fail(case.path, f"scenario.base {spec['base']}: {problems[0]}")
    else:
        data = copy.deepcopy(spec["inline"])
    if "patch" in spec:
        data = merge_patch(data, spec["patch"])
    if not isinstance(data, dict):
        raise _fail(case.path, "scenario: not a JSON object")
    return data


class Prepared(Plain):
    """A case's ruleset, scenario model and starting state."""

    ruleset: Ruleset[Any, Any, Any]
    scenario: Any
    state: Any


def prepare(case: Case) -> Prepared:
    """The ruleset, scenario and state a case starts from; :class:`InputError` naming the case
    file when the engine refuses its scenario or state."""
    from pbem.engine.gamedir import load_scenario
    from pbem.engine.scenarios import content_hash

    data = scenario_data(case)
    if data.get("system") != case.system:
        raise _fail(case.path, f"system: the case says {case.system!r}, its scenario {data.get('system')!r}")
    try:
        ruleset, scenario = load_scenario(data, content_hash(data))
    except InputError as exc:
        raise _fail(case.path, f"scenario: {exc}") from None
    spec = case.state
    try:
        if "initial" in spec:
            state = ruleset.initial_state(scenario, spec["initial"])
            if "patch" in spec:
                dumped = merge_patch(ruleset.dump_state(scenario, state), spec["patch"])
                state = ruleset.load_state(scenario, dumped)
        else:
            state = ruleset.load_state(scenario, spec["inline"])
    except InputError as exc:
        raise _fail(case.path, f"state: {exc}") from None
    return Prepared(ruleset, scenario, state)


# --------------------------------------------------------------------------------------------------
# Scripted dice
# --------------------------------------------------------------------------------------------------


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class DiceOverrun(Exception):
    """The engine asked for a die the case does not list (a case failure, not a pbem error)."""


class ScriptedDice:
    """The faces a case lists, drawn in order; every label asked is recorded. Asking for one more
    than listed raises :class:`DiceOverrun` (and is remembered, should the engine swallow it)."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = list(faces)
        self.drawn: list[tuple[str, int]] = []
        self.overrun: str | None = None

    def d6(self, label: str) -> int:
        if len(self.drawn) >= len(self.faces):
            self.overrun = f"the engine rolled a {ordinal(len(self.drawn) + 1)} die: {label}"
            raise DiceOverrun(self.overrun)
        face = self.faces[len(self.drawn)]
        self.drawn.append((str(label), face))
        return face

    @property
    def unused(self) -> list[int]:
        return self.faces[len(self.drawn):]


# --------------------------------------------------------------------------------------------------
# Running a case
# --------------------------------------------------------------------------------------------------


class Point(Plain, frozen=True):
    """One thing a case expects, and whether the engine agrees."""

    what: str
    """What is compared: ``violations``, ``event 2``, ``state /units/0/hex``, ``dice``..."""
    agrees: bool
    detail: str
    """``expected X, engine Y`` (or what matched)."""


class StepResult(Plain):
    """What the engine did at one step, beside what the case expects."""

    index: int
    sides: list[str]
    violations: list[RuleViolation] = field(default_factory=list)
    events: list[JSON] = field(default_factory=list)
    rolls: list[tuple[str, int]] = field(default_factory=list)
    resolved: bool = False
    points: list[Point] = field(default_factory=list)

    @property
    def disagreements(self) -> list[Point]:
        return [p for p in self.points if not p.agrees]


class CaseResult(Plain):
    """A case run: each step's result and the verdict."""

    case: Case
    steps: list[StepResult]

    @property
    def disagreements(self) -> list[Point]:
        return [p for s in self.steps for p in s.disagreements]

    @property
    def agrees(self) -> bool:
        """Every point of every step agrees."""
        return not self.disagreements

    @property
    def as_recorded(self) -> bool:
        """The result the book records: agreement, or for a case marked ``engine_disagrees``
        disagreement."""
        return self.agrees != (self.case.engine_disagrees is not None)

    @property
    def verdict(self) -> str:
        n = len(self.disagreements)
        points = f"{n} point{'s' if n != 1 else ''}"
        if self.case.engine_disagrees is None:
            return "agrees" if self.agrees else f"DISAGREES ({points})"
        if not self.agrees:
            return f"disagrees as the case records ({points})"
        return "AGREES, though the case records that the engine disagrees (fixed? drop 'engine_disagrees')"


class _Stop(Exception):
    """The step cannot go on (no such decision, unreadable orders, an engine failure)."""


def _pending_sides(ruleset: Ruleset[Any, Any, Any], scenario: Any, state: Any) -> dict[str, Any]:
    return {d.side: d for d in ruleset.pending(scenario, state)}


def _read_orders(prep: Prepared, state: Any, side: str, orders: JSON, out: StepResult) -> tuple[Any, Checked]:
    r = prep.ruleset
    try:
        parsed = r.normalize(prep.scenario, state, side, r.load_orders(prep.scenario, orders))
    except PbemError as exc:
        out.points.append(Point(f"orders of {side}", False, f"the engine cannot read them: {one_line(exc)}"))
        raise _Stop from None
    checked = r.check(prep.scenario, state, side, parsed)
    return parsed, checked


def _run_step(prep: Prepared, state: Any, index: int, step: Step) -> tuple[StepResult, Any, bool]:
    """One step: its result, the state after it and whether the next step can run."""
    r, sc = prep.ruleset, prep.scenario
    out = StepResult(index, step.sides)
    dice = ScriptedDice(step.dice)
    new_state = state
    go_on = True
    was_checked = False
    try:
        pending = _pending_sides(r, sc, state)
        for side in step.sides:
            if side not in pending:
                waiting = ", ".join(f"{d.side} ({d.label})" for d in pending.values()) or "nothing: the game is over"
                out.points.append(Point(f"decision of {side}", False, f"{side} has no pending decision; the game waits for {waiting}"))
                raise _Stop
        for side in step.sides:
            decision = pending[side]
            if decision.sealed != (step.round is not None):
                how = "a 'round' of every side's orders" if decision.sealed else "'side' and 'orders'"
                out.points.append(Point(f"decision of {side}", False,
                                        f"{side}'s decision ({decision.label}) is "
                                        f"{'' if decision.sealed else 'not '}sealed: write the step as {how}"))
                raise _Stop
        if step.round is not None:
            left_out = [s for s, d in pending.items() if d.sealed and s not in step.round]
            if left_out:
                out.points.append(Point("round", False, f"no orders for {', '.join(left_out)}, whose orders the round waits for"))
                raise _Stop
        parsed: dict[str, Any] = {}
        checked: dict[str, Checked] = {}
        orders_of = step.round if step.round is not None else {str(step.side): step.orders}
        for side, orders in orders_of.items():
            parsed[side], checked[side] = _read_orders(prep, state, side, orders, out)
            out.violations += checked[side].violations
        was_checked = True
        if not out.violations:
            try:
                if step.round is not None:
                    if r.umpire(sc) is not None:
                        rulings = r.load_rulings(sc, state, step.rulings)
                        resolution = r.resolve_round(sc, state, parsed, dice, checked, rulings)
                    else:
                        resolution = r.resolve_round(sc, state, parsed, dice, checked)
                else:
                    side = str(step.side)
                    resolution = r.resolve(sc, state, side, parsed[side], dice, checked[side])
            except DiceOverrun:
                pass
            except PbemError as exc:
                out.points.append(Point("resolution", False, f"the engine refused to resolve: {one_line(exc)}"))
                raise _Stop from None
            else:
                new_state = resolution.state
                out.events = list(resolution.events)
                out.resolved = True
    except _Stop:
        go_on = False
    except DiceOverrun:  # a die asked outside resolve (pending, check): reported below
        go_on = False
    except Exception as exc:  # an engine failure on this situation is the report a player sends
        out.points.append(Point("engine", False, f"the engine failed: {type(exc).__name__}: {one_line(exc)}"))
        go_on = False
    out.rolls = list(dice.drawn)
    if dice.overrun is not None:
        out.points.append(Point("dice", False, dice.overrun))
        go_on = False
    elif dice.unused and (go_on or out.violations):  # a step that stopped early says why already
        out.points.append(Point("dice", False, f"{len(dice.unused)} listed face{'s' if len(dice.unused) != 1 else ''} "
                                               f"left unused ({', '.join(map(str, dice.unused))}): the engine rolled "
                                               f"{len(dice.drawn)} of {len(dice.faces)}"))
    if go_on or out.resolved or out.violations:
        _compare_violations(step.expect, out)
        _compare(prep, new_state, step.expect, out)
    elif was_checked:  # checked, then the resolution failed: what the check found still counts
        _compare_violations(step.expect, out)
    return out, new_state, go_on


def _compare_violations(expect: dict[str, Any], out: StepResult) -> None:
    found = sorted(v.rule for v in out.violations)
    if "violations" in expect:
        want = sorted(expect["violations"])
        detail = f"expected {show(want)}, engine {show(found)}"
        if out.violations and found != want:
            detail += ": " + "; ".join(str(v) for v in out.violations)
        out.points.append(Point("violations", found == want, detail))
    elif out.violations:
        out.points.append(Point("violations", False, "the case expects legal orders, engine refused them: "
                                + "; ".join(str(v) for v in out.violations)))


def _pointer_point(what: str, got: Any, want: Any) -> Point:
    """One expected value at a pointer (``{"absent": true}``: the pointer must not resolve)."""
    if json_equal(want, _ABSENT):
        return Point(what, got is _MISSING, f"expected absent, engine {show(got)}")
    return Point(what, got is not _MISSING and json_equal(got, want), f"expected {show(want)}, engine {show(got)}")


def _compare(prep: Prepared, state: Any, expect: dict[str, Any], out: StepResult) -> None:
    r, sc = prep.ruleset, prep.scenario
    _compare_events(expect, out)
    dumped = r.dump_state(sc, state)
    for pointer, want in expect.get("state", {}).items():
        out.points.append(_pointer_point(f"state {pointer}", resolve_pointer(dumped, pointer), want))
    if "score" in expect:
        score = r.score(sc, state)
        for side, want in expect["score"].items():
            got = score.get(side, _MISSING)
            out.points.append(Point(f"score {side}", got is not _MISSING and json_equal(got, want),
                                    f"expected {want}, engine {show(got)}"))
    for side, pointers in expect.get("view", {}).items():
        view = r.view(sc, dumped, side)
        for pointer, want in pointers.items():
            out.points.append(_pointer_point(f"view of {side} {pointer}", resolve_pointer(view, pointer), want))
    for side, spec in expect.get("view_text", {}).items():
        text = json.dumps(r.view(sc, dumped, side), ensure_ascii=False)
        for s in spec.get("includes", []):
            out.points.append(Point(f"view of {side} includes", s in text,
                                    f"{s!r}: {'present' if s in text else 'not in what ' + side + ' sees'}"))
        for s in spec.get("excludes", []):
            out.points.append(Point(f"view of {side} excludes", s not in text,
                                    f"{s!r}: {'absent' if s not in text else 'shown to ' + side}"))


def _compare_events(expect: dict[str, Any], out: StepResult) -> None:
    wanted = expect.get("events", [])
    if wanted and not out.resolved:
        for n, partial in enumerate(wanted, start=1):
            out.points.append(Point(f"event {n}", False, f"expected {show(partial)}, engine resolved nothing"))
        return
    at = 0
    for n, partial in enumerate(wanted, start=1):
        hit = next((i for i in range(at, len(out.events)) if matches(out.events[i], partial)), None)
        if hit is None:
            earlier = any(matches(e, partial) for e in out.events[:at])
            where = " (it matches an earlier event: out of order)" if earlier else ""
            out.points.append(Point(f"event {n}", False, f"expected {show(partial)}, engine has no such event"
                                                         f"{' after event #' + str(at) if at else ''}{where}"
                                                         f"{_nearest(out.events[at:], partial, at)}"))
        else:
            out.points.append(Point(f"event {n}", True, f"matched event #{hit + 1}: {show(out.events[hit])}"))
            at = hit + 1
    for partial in expect.get("no_events", []):
        hits = [i + 1 for i, e in enumerate(out.events) if matches(e, partial)]
        detail = f"no event like {show(partial)}" + (f", engine has #{', #'.join(map(str, hits))}" if hits else ": none")
        out.points.append(Point("no event", not hits, detail))


def _nearest(events: list[JSON], partial: dict[str, Any], offset: int) -> str:
    """Where the engine's closest event differs from ``partial``: among those that share its first
    key (``type``, ``kind``), the one with the fewest differing keys."""
    first = next(iter(partial))
    alike = [(i, e) for i, e in enumerate(events) if matches(e, {first: partial[first]})]
    if not alike:
        return ""

    def differing(event: dict[str, Any]) -> list[str]:
        return [k for k, v in partial.items() if k not in event or not json_equal(event[k], v)]

    i, event = min(alike, key=lambda pair: len(differing(pair[1])))
    diff = ", ".join(f"{k} {show(event.get(k, _MISSING), 60)}" for k in differing(event))
    return f"; nearest, event #{offset + i + 1}, has {diff}"


def run_case(case: Case) -> CaseResult:
    """Run every step of ``case`` in order (a step that cannot go on ends the run: the later
    steps are reported as not run). :class:`InputError` when the scenario or state is refused."""
    prep = prepare(case)
    state = prep.state
    results: list[StepResult] = []
    for index, step in enumerate(case.steps):
        result, state, go_on = _run_step(prep, state, index, step)
        results.append(result)
        if not go_on:
            for later in range(index + 1, len(case.steps)):
                skipped = StepResult(later, case.steps[later].sides)
                skipped.points.append(Point("step", False, f"not run: step {index + 1} could not go on"))
                results.append(skipped)
            break
    return CaseResult(case, results)


def run_file(path: Path) -> CaseResult:
    """:func:`load_case` then :func:`run_case`."""
    return run_case(load_case(path))


# --------------------------------------------------------------------------------------------------
# The readable index of a book
# --------------------------------------------------------------------------------------------------


def _words(partial: dict[str, Any]) -> str:
    return ", ".join(f"{k} {show(v, 60)}" for k, v in partial.items())


def expect_in_words(step: Step) -> list[str]:
    """What a step expects, as lines of plain words."""
    e = step.expect
    lines = []
    if "violations" in e:
        v = e["violations"]
        lines.append(f"refused, citing {', '.join('[' + x + ']' for x in v)}" if v else "the orders are legal")
    for partial in e.get("events", []):
        lines.append(f"an event: {_words(partial)}")
    for partial in e.get("no_events", []):
        lines.append(f"no event: {_words(partial)}")
    for pointer, value in e.get("state", {}).items():
        lines.append(f"afterwards `{pointer}` is absent from the state" if json_equal(value, _ABSENT)
                     else f"afterwards `{pointer}` is `{show(value, 80)}` in the state")
    if "score" in e:
        lines.append("score " + ", ".join(f"{s} {n}" for s, n in e["score"].items()))
    for side, pointers in e.get("view", {}).items():
        for pointer, value in pointers.items():
            lines.append(f"{side} sees nothing at `{pointer}`" if json_equal(value, _ABSENT)
                         else f"{side} sees `{pointer}` as `{show(value, 80)}`")
    for side, spec in e.get("view_text", {}).items():
        for s in spec.get("includes", []):
            lines.append(f"{side} is told {s!r}")
        for s in spec.get("excludes", []):
            lines.append(f"{side} is not told {s!r}")
    return lines


def _md(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def book_index(book_dir: Path) -> str:
    """The markdown index of the book in ``book_dir`` (``docs/cases/<book>.md``): every case by
    id, with its rule, title, quote, reading and expectations in words."""
    cases = [load_case(p) for p in book_files(book_dir)]
    book = book_dir.name
    lines = [
        f"# Case book: {book}",
        "",
        f"Generated from `cases/{book}/` by `pbem case index cases/{book} --out docs/cases/{book}.md`;",
        "do not edit by hand. Cite a case by its id (\"case "
        + (cases[0].id if cases else f"{BOOKS.get(book, 'XX')}-1.0-1") + "\"); run one with `pbem case run FILE`.",
        "",
        f"{len(cases)} case{'s' if len(cases) != 1 else ''}.",
        "",
        "| id | rule | title | file |",
        "|---|---|---|---|",
    ]
    for c in cases:
        lines.append(f"| [{c.id}](#{c.id.lower().replace('.', '')}) | {_md(c.rule)} | {_md(c.title)} | "
                     f"`{c.path.name}` |")
    for c in cases:
        lines += ["", f"## {c.id}", "", f"**[{_md(c.rule)}]** {_md(c.title)}", "", f"> {_md(c.quote)}", ""]
        if c.reading:
            lines += [f"Reading: {_md(c.reading)}", ""]
        if c.engine_disagrees:
            lines += [f"**The engine disagrees:** {_md(c.engine_disagrees)}", ""]
        for n, step in enumerate(c.steps, start=1):
            who = f"a sealed round ({', '.join(step.sides)})" if step.round is not None else f"{step.side}'s orders"
            dice = f", dice {', '.join(map(str, step.dice))}" if step.dice else ", no dice"
            lines.append(f"- Step {n}: {who}{dice}; expected:")
            lines += [f"  - {_md(w)}" for w in expect_in_words(step)]
    return "\n".join(lines) + "\n"
