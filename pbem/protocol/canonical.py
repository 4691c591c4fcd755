"""Canonical JSON bytes (RFC 8785, JCS) and a strict JSON reader for untrusted files.

Everything pbem hashes or signs goes through :func:`canonical_bytes`, so two machines always
produce the same bytes for the same value (protocol property P6). Signed data holds integers
only -- never floats -- so there is no number formatting to disagree about; movement points,
for instance, are counted in integer half-points.

Files that arrive from another player are read with :func:`loads_strict`, which refuses anything a
canonical writer would never have produced and anything that different JSON parsers might read
differently: oversize input (checked before parsing), invalid UTF-8, a byte-order mark, duplicate
object keys, ``NaN``/``Infinity``, floats, lone surrogates and integers outside the range every
JSON implementation agrees on (``|n| < 2**53``). Every problem is one :class:`InputError` line that
names the file (``what``).

>>> canonical_bytes({"b": 1, "a": [True, None, "é"]})
b'{"a":[true,null,"\\xc3\\xa9"],"b":1}'
>>> loads_strict(b'{"a": 1}', max_bytes=100, what="move file")
{'a': 1}
"""

from __future__ import annotations

import hashlib
import json
import json.encoder
import marshal
from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any

from pbem.errors import InputError
from pbem.lazy_re import LazyPattern

MAX_MOVE_BYTES = 1024 * 1024
"""Largest move file (a DSSE envelope) pbem will read. An umpire's report carries a view sealed to
each side (a megagame of seven teams and 250 battalions comes near 256 KiB, the old limit)."""
MAX_TURN_BYTES = 8 * 1024 * 1024
"""Largest turn file pbem will read."""
MAX_GENESIS_BYTES = 256 * 1024
"""Largest genesis file pbem will read."""

MAX_SAFE_INTEGER = 2**53 - 1
"""Integers beyond this magnitude are not interoperable JSON (RFC 8785 section 3.2.2.3)."""

_BOM = b"\xef\xbb\xbf"


def sha256_hex(data: bytes) -> str:
    """Lowercase hex SHA-256 of ``data``; the identity of every message body and file."""
    return hashlib.sha256(data).hexdigest()


_Path = tuple[Any, ...] | None
"""A location inside a value as a linked list ``(parent, key)``; rendered only for messages."""


def _render(path: _Path) -> str:
    parts: list[str] = []
    while path is not None:
        path, key = path
        parts.append(f"[{key}]" if isinstance(key, int) else f"[{json.dumps(key)[:40]}]")
    return "$" + "".join(reversed(parts))


_EXACT = (bool, str, dict, list, tuple, int)


def _check_value(obj: Any, what: str) -> bool:
    """Walk a JSON value (iteratively: no recursion limit) and refuse what JCS must not see.

    Returns True when some object key holds a character beyond the Basic Multilingual Plane: only
    then does RFC 8785's key order (UTF-16 code units) differ from Python's (code points)."""
    astral_key = False
    stack: list[tuple[Any, _Path]] = [(obj, None)]
    pop, push = stack.pop, stack.append
    while stack:
        value, path = pop()
        kind = type(value)
        if kind not in _EXACT:  # subclasses such as StrEnum/IntEnum/OrderedDict
            kind = next((t for t in _EXACT if isinstance(value, t)), kind)
        if kind is str:
            _check_text(value, what, path)
        elif kind is dict:
            for key, item in value.items():
                if not isinstance(key, str):
                    raise InputError(
                        f"{what}: object key {key!r} at {_render(path)} is not a string"
                    )
                if not key.isascii():
                    _check_text(key, what, path)
                    astral_key = astral_key or max(key) > "\uffff"
                push((item, (path, key)))
        elif kind is list or kind is tuple:
            for index, item in enumerate(value):
                push((item, (path, index)))
        elif value is None or kind is bool:
            continue
        elif kind is int:
            if not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
                raise InputError(f"{what}: integer at {_render(path)} is outside +/-(2**53 - 1)")
        elif isinstance(value, float):
            raise InputError(
                f"{what}: number at {_render(path)} is not an integer (floats are not allowed)"
            )
        else:
            raise InputError(
                f"{what}: value at {_render(path)} has type {kind.__name__}, not JSON"
            )
    return astral_key


def _quick(value: Any) -> bool | None:
    """The common case of :func:`_check_value`, fast: ``False`` (fine), ``True`` (fine, and some key
    leaves the BMP) or ``None`` (something to report, or a str/int subclass: the full walk decides
    and names the place). Recursive, so very deep values fall back to the full walk too."""
    kind = type(value)
    if kind is dict:
        return _quick_dict(value)
    if kind is list or kind is tuple:
        return _quick_items(value)
    return _quick_items((value,))


def _quick_dict(value: dict[Any, Any]) -> bool | None:
    astral = False
    for key in value:
        if type(key) is not str:
            return None
        if not key.isascii():
            if not _utf8_ok(key):
                return None
            astral = astral or max(key) > "\uffff"
    sub = _quick_items(value.values())
    if sub is None:
        return None
    return astral or sub


def _quick_items(items: Any) -> bool | None:
    astral = False
    for item in items:
        t = type(item)
        if t is str:
            if not item.isascii() and not _utf8_ok(item):
                return None
        elif t is int:
            if not -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:
                return None
        elif t is dict:
            sub = _quick_dict(item)
            if sub is None:
                return None
            astral = astral or sub
        elif item is None or t is bool:
            pass
        elif t is list or t is tuple:
            sub = _quick_items(item)
            if sub is None:
                return None
            astral = astral or sub
        else:
            return None
    return astral


def _types_ok(value: Any) -> bool:
    """Whether ``value`` holds only exact JSON types (``dict`` with ``str`` keys, ``list``,
    ``tuple``, ``str``, safe ``int``, ``bool``, ``None``). Strings are not looked into."""
    kind = type(value)
    if kind is dict:
        for key in value:
            if type(key) is not str:
                return False
        return _types_ok_items(value.values())
    if kind is list or kind is tuple:
        return _types_ok_items(value)
    return _types_ok_items((value,))


def _types_ok_items(items: Any) -> bool:
    for item in items:
        t = type(item)
        if t is str or item is None or t is bool:
            continue
        if t is int:
            if not -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:
                return False
        elif t is dict:
            for key in item:
                if type(key) is not str:
                    return False
            if not _types_ok_items(item.values()):
                return False
        elif t is list or t is tuple:
            if not _types_ok_items(item):
                return False
        else:
            return False
    return True


def _utf8_ok(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_text(text: str, what: str, path: _Path) -> None:
    if text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(
            f"{what}: string at {_render(path)} contains a lone surrogate"
        ) from None


def _make_encoder() -> Callable[[Any], str]:
    """``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
    allow_nan=False, check_circular=False)`` for a value whose types were checked (finite, no
    float): the same C encoder ``json.dumps`` makes on every call, made once (it keeps no state
    between calls; per process, immutable)."""
    encoder = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                               allow_nan=False, check_circular=False)
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # no C accelerator: json.dumps would run the pure-Python encoder alike
        return encoder.encode
    run = make(None, encoder.default, encode_basestring, None, ":", ",", True, False, False)

    def encode(value: Any) -> str:
        if type(value) is str:  # what JSONEncoder.encode does with a string alone
            return encode_basestring(value)
        return "".join(run(value, 0))

    return encode


_encode_checked = _make_encoder()


def canonical_bytes(obj: Any, *, what: str = "value") -> bytes:
    """The RFC 8785 (JCS) serialisation of a plain JSON value.

    ``obj`` is made of ``dict`` (string keys), ``list``/``tuple``, ``str``, ``int``, ``bool`` and
    ``None``. Floats, non-string keys, lone surrogates, unsafe integers and other types raise
    :class:`InputError` (records must be dumped by the caller first: ``to_json``).
    """
    # Fastest path: only the types and integer ranges are walked in Python; strings are left to
    # the encoder. An all-ASCII result has no lone surrogate and no key beyond the BMP, so it is
    # exactly what the checked path below would produce. Otherwise that path decides.
    try:
        typed = _types_ok(obj)
    except RecursionError:
        typed = False
    if typed:
        # _types_ok walked the whole value, so it is finite (a cycle ends in RecursionError there):
        # the encoder need not keep its table of the containers it is inside.
        text = _encode_checked(obj)
        if text.isascii():
            return text.encode("ascii")
    try:
        quick = _quick(obj)
    except RecursionError:
        quick = None
    astral = _check_value(obj, what) if quick is None else quick
    if not astral:
        # Fast path, byte-identical to RFC 8785 for checked values whose keys all lie in the BMP
        # (integers only; the same escapes: \" \\ \b \f \n \r \t and lowercase \u00XX;
        # everything else as raw UTF-8; keys sorted by code point == by UTF-16 code unit).
        # tests/protocol/test_canonical.py checks it against the rfc8785 package on arbitrary values.
        return json.dumps(
            obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        ).encode("utf-8")
    import rfc8785  # here: only a key beyond the Basic Multilingual Plane comes this way (its import ~1 ms)

    try:
        return rfc8785.dumps(obj)
    except rfc8785.CanonicalizationError as exc:  # defensive: _check_value should catch all
        raise InputError(f"{what}: cannot be canonicalised: {exc}") from None


class Reencoder:
    """:func:`canonical_bytes` of a dict that changes a little from one call to the next (a
    replay's turn files: the same units, most of them unchanged, step after step).

    The dicts down to ``depth`` levels are written out here, key by key in sorted order; every
    value below them (a unit, a side's standing orders) is a *leaf*, encoded as
    :func:`canonical_bytes` would and, below the top level (whose lists -- a turn's events, rolls,
    reveals -- are new every time), remembered by its place with its ``marshal`` serialisation (format 2: no references, exact
    types only -- ``True`` is not ``1``, a list not a tuple, a subclass is refused). A leaf whose
    serialisation is the one remembered at its place in the previous call is the same value with
    the same types (equal bytes: equal type codes, equal integers, equal code points, in the same
    order), so its text is reused without walking or encoding it again; scalars are written
    directly. Whenever the
    quick way cannot vouch for the result (a key that is not a ``str`` or leaves the Basic
    Multilingual Plane, a leaf :func:`canonical_bytes` would refuse, a lone surrogate), the whole
    value goes to :func:`canonical_bytes`: the same bytes and the same refusals, always."""

    def __init__(self, *, what: str = "value", depth: int = 3) -> None:
        self.what = what
        self.depth = depth
        self._seen: dict[str, Any] = {}
        """The previous value's places: key -> (marshal bytes, ``"key":value`` text) of a leaf, or
        the same for the keys of a dict written out."""
        self._encode: Callable[[Any], str] = _encode_checked

    def __call__(self, obj: Any) -> bytes:
        if type(obj) is not dict:
            return canonical_bytes(obj, what=self.what)
        seen: dict[str, Any] = {}
        text = self._dict(obj, self._seen, seen, 1)
        data = None
        if text is not None:
            try:
                data = text.encode("utf-8")  # what canonical_bytes gives when no key leaves the BMP
            except UnicodeEncodeError:  # a lone surrogate: canonical_bytes names it
                data = None
        if data is None:
            self._seen = {}
            return canonical_bytes(obj, what=self.what)
        self._seen = seen
        return data

    def _dict(self, value: dict[Any, Any], before: dict[str, Any], seen: dict[str, Any],
              depth: int) -> str | None:
        for key in value:
            if type(key) is not str or (not key.isascii() and max(key) > "\uffff"):
                return None  # not a string; or beyond the BMP, where JCS orders keys otherwise
        parts: list[str] = []
        deeper = depth < self.depth
        for key in sorted(value):
            item = value[key]
            if deeper and type(item) is dict:
                inner: dict[str, Any] = {}
                prior = before.get(key)
                sub = self._dict(item, prior if type(prior) is dict else {}, inner, depth + 1)
                if sub is None:
                    return None
                seen[key] = inner
                parts.append(encode_basestring(key) + ":" + sub)
                continue
            kind = type(item)
            if kind is str or item is None or kind is bool or (
                    kind is int and -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER):
                # a scalar: cheaper to write than to remember (json.dumps writes it alike)
                parts.append(encode_basestring(key) + ":" + (
                    encode_basestring(item) if kind is str else "null" if item is None
                    else "true" if item is True else "false" if item is False else repr(item)))
                continue
            if depth == 1:  # a turn's own lists (reveals, rolls, events) differ step after step
                text = self._leaf(item)
                if text is None:
                    return None
                parts.append(encode_basestring(key) + ":" + text)
                continue
            try:
                code: bytes | None = marshal.dumps(item, 2)
            except ValueError:  # a subclass, an object of the rules' own or too deep: the walk decides
                code = None
            if code is not None:
                hit: Any = before.get(key)
                if type(hit) is tuple and hit[0] == code:  # the same value with the same types
                    seen[key] = hit
                    parts.append(hit[1])
                    continue
            text = self._leaf(item)
            if text is None:
                return None
            entry = encode_basestring(key) + ":" + text
            if code is not None:
                seen[key] = (code, entry)
            parts.append(entry)
        return "{" + ",".join(parts) + "}"

    def _leaf(self, item: Any) -> str | None:
        """``item``'s text as :func:`canonical_bytes` writes it, or ``None`` where it would not take
        the quick way (a type it refuses; a key beyond the BMP or a lone surrogate inside)."""
        try:
            typed = _types_ok(item)
        except RecursionError:
            typed = False
        if not typed:
            return None
        text = self._encode(item)
        if not text.isascii() and _quick(item) is not False:
            return None
        return text


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


def _safe_int(text: str) -> int:
    value = int(text)
    if not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
        raise ValueError(f"integer {text[:40]} is outside +/-(2**53 - 1)")
    return value


def _reject_float(text: str) -> Any:
    raise ValueError(f"number {text[:40]} is not an integer (floats are not allowed)")


def _pairs_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"duplicate object key {key[:60]!r}")
        result[key] = value
    return result


_STRICT_DECODER = json.JSONDecoder(
    object_pairs_hook=_pairs_without_duplicates,
    parse_constant=_reject_constant,
    parse_float=_reject_float,
    parse_int=_safe_int,
)
"""What ``json.loads(text, object_pairs_hook=..., parse_constant=..., parse_float=...,
parse_int=...)`` makes on every call, made once: its scanner keeps no state between calls (its memo
of keys is cleared after each document), as ``json.loads`` itself reuses one decoder for the
plain case (per process, immutable)."""


def loads_strict(data: bytes, *, max_bytes: int, what: str) -> Any:
    """Parse untrusted JSON bytes, refusing everything ambiguous; raise one-line :class:`InputError`.

    The size is checked before any decoding, so an oversize file costs nothing to refuse.
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise InputError(f"{what}: expected bytes, got {type(data).__name__}")
    data = bytes(data)
    n = len(data)
    if n > max_bytes:
        raise InputError(f"{what}: file too large ({n} bytes, limit {max_bytes})")
    if data.startswith(_BOM):
        raise InputError(f"{what}: starts with a byte-order mark (write plain UTF-8)")
    try:
        text = data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise InputError(f"{what}: invalid UTF-8 at byte {exc.start}") from None
    try:
        value = _STRICT_DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{what}: invalid JSON: {exc.msg} (line {exc.lineno} column {exc.colno})"
        ) from None
    except ValueError as exc:  # from our hooks, or int() digit limits
        message = str(exc).splitlines()[0] if str(exc) else "invalid value"
        raise InputError(f"{what}: invalid JSON: {message}") from None
    except RecursionError:
        raise InputError(f"{what}: invalid JSON: nested too deeply") from None
    # The hooks refused floats, NaN/Infinity, unsafe integers and duplicate keys while parsing;
    # strict UTF-8 decoding leaves only one way to get a lone surrogate: a \uD800-\uDFFF escape.
    if "\\u" in text and _SURROGATE_ESCAPE.search(text):  # no escape, no search (nor compile)
        _check_value(value, what)
    return value


_SURROGATE_ESCAPE = LazyPattern(r"\\u[dD][89abcdefABCDEF]")
