"""Canonical JSON (RFC 8785) and the strict reader for untrusted files (protocol.md: canonical bytes)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.errors import InputError
from pbem.protocol.canonical import (
    MAX_GENESIS_BYTES,
    MAX_MOVE_BYTES,
    MAX_SAFE_INTEGER,
    MAX_TURN_BYTES,
    Reencoder,
    canonical_bytes,
    loads_strict,
    sha256_hex,
)


def load(data: bytes, max_bytes: int = 1000) -> Any:
    return loads_strict(data, max_bytes=max_bytes, what="move.json")


# --- canonical_bytes ------------------------------------------------------------------------


def test_limits_are_the_documented_sizes() -> None:
    assert MAX_MOVE_BYTES == 1048576  # an umpire's report seals a view to every team
    assert MAX_TURN_BYTES == 8388608
    assert MAX_GENESIS_BYTES == 262144


def test_sha256_hex_known_vector() -> None:
    # FIPS 180-2 example "abc".
    assert sha256_hex(b"abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_canonical_sorts_keys_and_drops_whitespace() -> None:
    assert canonical_bytes({"b": 1, "a": [True, None, "é"], "c": {"z": -3, "y": ""}}) == (
        b'{"a":[true,null,"\xc3\xa9"],"b":1,"c":{"y":"","z":-3}}'
    )


def test_canonical_sorts_keys_by_utf16_code_units() -> None:
    # RFC 8785 3.2.3: U+1F600 is the surrogate pair D83D DE00, which sorts before U+FB33 in
    # UTF-16 although its code point is larger.
    out = canonical_bytes({"\ufb33": 1, "\U0001f600": 2})
    assert out == '{"\U0001f600":2,"\ufb33":1}'.encode()


def test_canonical_string_escapes() -> None:
    # Control characters use the short escapes where JSON has them, else \u00xx lowercase hex;
    # '/' and non-ASCII are written as they are.
    assert canonical_bytes(["\n\t\"\\/\x0f\x7f"]) == b'["\\n\\t\\"\\\\/\\u000f\x7f"]'


@pytest.mark.parametrize(
    "value",
    [1.0, 0.5, {"a": [1, 2.5]}, [float("nan")], {"x": float("inf")}],
)
def test_canonical_refuses_floats_anywhere(value: Any) -> None:
    with pytest.raises(InputError, match="float"):
        canonical_bytes(value)


def test_canonical_refuses_non_string_keys() -> None:
    with pytest.raises(InputError, match="not a string"):
        canonical_bytes({1: "a"})
    with pytest.raises(InputError, match="not a string"):
        canonical_bytes({"ok": {None: 1}})


def test_canonical_refuses_unsafe_integers_and_other_types() -> None:
    assert canonical_bytes(MAX_SAFE_INTEGER) == b"9007199254740991"
    assert canonical_bytes(-MAX_SAFE_INTEGER) == b"-9007199254740991"
    with pytest.raises(InputError, match="2\\*\\*53"):
        canonical_bytes(MAX_SAFE_INTEGER + 1)
    with pytest.raises(InputError, match="not JSON"):
        canonical_bytes({"a": b"bytes"})
    with pytest.raises(InputError, match="not JSON"):
        canonical_bytes({1, 2})


def test_canonical_accepts_str_and_int_subclasses() -> None:
    from enum import IntEnum, StrEnum

    class Side(StrEnum):
        DE = "DE"

    class Steps(IntEnum):
        FULL = 2

    assert canonical_bytes({Side.DE: [Side.DE, Steps.FULL]}) == b'{"DE":["DE",2]}'


def test_canonical_error_names_the_place() -> None:
    with pytest.raises(InputError) as info:
        canonical_bytes({"units": [{"id": "1/501"}, {"mp": 2.5}]}, what="state")
    assert str(info.value) == (
        'state: number at $["units"][1]["mp"] is not an integer (floats are not allowed)'
    )


def test_canonical_refuses_lone_surrogates() -> None:
    with pytest.raises(InputError, match="surrogate"):
        canonical_bytes({"a": "x\ud800"})
    with pytest.raises(InputError, match="surrogate"):
        canonical_bytes({"\udfff": 1})


def test_canonical_handles_deep_nesting_without_recursion_limit_in_checks() -> None:
    value: Any = 0
    for _ in range(300):
        value = [value]
    assert canonical_bytes(value) == b"[" * 300 + b"0" + b"]" * 300


# --- loads_strict ---------------------------------------------------------------------------


def test_loads_strict_accepts_plain_json() -> None:
    assert load(b' {"a": [1, -2, "x", true, false, null], "b": {}} \n') == {
        "a": [1, -2, "x", True, False, None],
        "b": {},
    }


def test_size_is_checked_before_parsing() -> None:
    # 11 bytes of garbage over a 10-byte limit: the size message wins, so nothing was parsed.
    with pytest.raises(InputError) as info:
        loads_strict(b"\xff" * 11, max_bytes=10, what="turn-0003.json")
    assert str(info.value) == "turn-0003.json: file too large (11 bytes, limit 10)"
    # Exactly at the limit is fine.
    assert loads_strict(b"[1,2,3,45]", max_bytes=10, what="x") == [1, 2, 3, 45]


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (b'{"a": 1, "a": 2}', "duplicate object key 'a'"),
        (b'{"x": {"k": 1, "k": 1}}', "duplicate object key 'k'"),
        (b"[NaN]", "NaN is not allowed"),
        (b"[Infinity]", "Infinity is not allowed"),
        (b"[-Infinity]", "-Infinity is not allowed"),
        (b"[1.0]", "not an integer"),
        (b"[1e3]", "not an integer"),
        (b"[1E3]", "not an integer"),
        (b"[-0.0]", "not an integer"),
        (b'{"a": 2.5}', "not an integer"),
        (b"[9007199254740992]", "2**53"),
        (b"[-9007199254740992]", "2**53"),
        (b'["\xff"]', "invalid UTF-8 at byte 2"),
        (b'["\xc3"]', "invalid UTF-8"),
        (b'["\xed\xa0\x80"]', "invalid UTF-8"),  # a surrogate encoded as UTF-8 bytes
        (b"\xef\xbb\xbf{}", "byte-order mark"),
        (b'["\\ud800"]', "lone surrogate"),
        (b'{"\\udc00": 1}', "lone surrogate"),
        (b'{"a": 1', "invalid JSON"),
        (b"", "invalid JSON"),
        (b"[1] [2]", "invalid JSON"),
        (b'["a\nb"]', "invalid JSON"),  # raw control character inside a string
        (b"[01]", "invalid JSON"),
    ],
)
def test_loads_strict_rejects(data: bytes, fragment: str) -> None:
    with pytest.raises(InputError) as info:
        load(data)
    message = str(info.value)
    assert message.startswith("move.json: ")
    assert fragment in message
    assert "\n" not in message


def test_loads_strict_accepts_escaped_surrogate_pairs() -> None:
    assert load(b'["\\ud83d\\ude00"]') == ["\U0001f600"]


def test_loads_strict_rejects_huge_digit_strings_and_deep_nesting() -> None:
    with pytest.raises(InputError):
        loads_strict(b"[" + b"9" * 5000 + b"]", max_bytes=10**6, what="x")
    with pytest.raises(InputError):
        loads_strict(b"[" * 100_000 + b"]" * 100_000, max_bytes=10**6, what="x")


def test_loads_strict_refuses_non_bytes() -> None:
    with pytest.raises(InputError, match="expected bytes"):
        loads_strict('{"a": 1}', max_bytes=100, what="x")  # type: ignore[arg-type]


# --- properties -----------------------------------------------------------------------------

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-MAX_SAFE_INTEGER, max_value=MAX_SAFE_INTEGER)
    | st.text()
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=30,
)


@given(json_values)
def test_canonical_round_trips_through_loads_strict(value: Any) -> None:
    data = canonical_bytes(value)
    assert loads_strict(data, max_bytes=len(data), what="x") == value
    assert canonical_bytes(loads_strict(data, max_bytes=len(data), what="x")) == data


def _shuffled(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {k: _shuffled(v, rng) for k, v in items}
    if isinstance(value, list):
        return [_shuffled(v, rng) for v in value]
    return value


@given(json_values, st.integers(min_value=0, max_value=2**32), st.sampled_from([None, 0, 2]),
       st.booleans())
def test_canonical_ignores_key_order_and_whitespace(
    value: Any, seed: int, indent: int | None, ascii_only: bool
) -> None:
    text = json.dumps(_shuffled(value, random.Random(seed)), indent=indent, ensure_ascii=ascii_only)
    reparsed = loads_strict(text.encode("utf-8"), max_bytes=10**7, what="x")
    assert canonical_bytes(reparsed) == canonical_bytes(value)


@given(st.binary(max_size=200))
@settings(max_examples=500)
def test_random_bytes_only_ever_raise_input_error(data: bytes) -> None:
    try:
        value = loads_strict(data, max_bytes=150, what="fuzz")
    except InputError as exc:
        assert "\n" not in str(exc)
    else:
        canonical_bytes(value)  # whatever is accepted is canonicalisable


@given(json_values, st.data())
@settings(max_examples=300)
def test_mutated_json_only_ever_raises_input_error(value: Any, data: st.DataObject) -> None:
    raw = bytearray(json.dumps(value).encode("utf-8"))
    position = data.draw(st.integers(min_value=0, max_value=len(raw)))
    insert = data.draw(
        st.sampled_from([b"1.5", b"NaN", b"\xff", b'"', b",", b"{", b"]", b"\\u", b"\xef\xbb\xbf"])
    )
    raw[position:position] = insert
    try:
        loads_strict(bytes(raw), max_bytes=10**6, what="fuzz")
    except InputError:
        pass


@given(st.dictionaries(st.text(min_size=1, max_size=5),
                       st.integers(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER), min_size=1, max_size=5),
       st.data())
def test_duplicate_keys_always_rejected(obj: dict[str, int], data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(sorted(obj)))
    body = ", ".join(f"{json.dumps(k)}: {v}" for k, v in obj.items())
    text = "{" + body + f", {json.dumps(key)}: 0" + "}"
    with pytest.raises(InputError, match="duplicate object key"):
        loads_strict(text.encode("utf-8"), max_bytes=10**6, what="x")


@given(json_values, st.floats(allow_nan=True, allow_infinity=True), st.data())
@settings(max_examples=200)
def test_a_float_anywhere_is_rejected(value: Any, number: float, data: st.DataObject) -> None:
    """Whatever the float (1.0, 1e3, -0.0, NaN, Infinity), wherever it sits, it is refused."""
    wrapped = data.draw(st.sampled_from(["list", "dict", "bare"]))
    doc: Any = number
    if wrapped == "list":
        doc = [value, number]
    elif wrapped == "dict":
        doc = {"v": value, "n": number}
    text = json.dumps(doc, allow_nan=True).encode()
    with pytest.raises(InputError):
        loads_strict(text, max_bytes=10**7, what="x")
    with pytest.raises(InputError):
        canonical_bytes(doc)


@given(json_values, st.integers(min_value=1, max_value=50))
def test_oversize_is_rejected_by_size_alone(value: Any, excess: int) -> None:
    data = canonical_bytes(value) + b" " * excess  # valid JSON, just too long
    limit = len(data) - excess
    with pytest.raises(InputError, match=f"file too large \\({len(data)} bytes, limit {limit}\\)"):
        loads_strict(data, max_bytes=limit, what="x")


@given(st.binary(min_size=1, max_size=50).filter(lambda b: not _is_utf8(b)))
def test_invalid_utf8_is_rejected(junk: bytes) -> None:
    with pytest.raises(InputError, match="invalid UTF-8"):
        loads_strict(b'["' + junk + b'"]', max_bytes=10**6, what="x")


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


keys_any_plane = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=6)
values_any_plane = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(keys_any_plane, children, max_size=5),
    max_leaves=25,
)


@given(values_any_plane)
@settings(max_examples=400)
def test_canonical_equals_the_rfc8785_reference_on_any_value(value: Any) -> None:
    # canonical_bytes takes a json.dumps fast path unless a key leaves the BMP; either way the
    # bytes must be exactly what the rfc8785 package produces.
    import rfc8785

    assert canonical_bytes(value) == rfc8785.dumps(value)


def test_canonical_key_order_across_the_bmp_boundary_and_control_escapes() -> None:
    import rfc8785

    # U+FB01 sorts after U+1F600 in UTF-16 (0xFB01 > 0xD83D) but before it by code point.
    value = {"\ufb01": 1, "\U0001f600": 2, "a\x1fb": "\x00\x7f\u2028\"\\\b\f\n\r\t"}
    assert canonical_bytes(value) == rfc8785.dumps(value)
    assert canonical_bytes({"k": "\x1f"}) == b'{"k":"\\u001f"}'


# --- Reencoder: a replay's turn files, one after another -------------------------------------

turnish = st.dictionaries(
    st.text(max_size=4),
    json_values | st.dictionaries(st.text(max_size=4), json_values | st.dictionaries(
        st.text(max_size=4), json_values, max_size=4), max_size=4),
    max_size=5,
)


@given(st.lists(turnish, min_size=1, max_size=4))
@settings(max_examples=300)
def test_reencoder_gives_canonical_bytes_call_after_call(values: list[Any]) -> None:
    # Each value, then each again (equal leaves at the same places: remembered texts reused),
    # then the first once more: every call is exactly canonical_bytes of its value.
    encode = Reencoder(what="turn")
    for value in values + [json.loads(json.dumps(v)) for v in values] + values[:1]:
        assert encode(value) == canonical_bytes(value, what="turn")


def _refusal(value: Any) -> str:
    with pytest.raises(InputError) as info:
        canonical_bytes(value, what="turn")
    return str(info.value)


@pytest.mark.parametrize("changed", [
    {"n": 1.0},  # a float where an equal int was
    {"n": MAX_SAFE_INTEGER + 1},
    {1: "a", "n": 1},  # a key that is not a string
    {"n": "x\ud800"},
    {"n": b"1"},
])
def test_reencoder_refuses_what_canonical_bytes_refuses_after_a_remembered_value(changed: dict[Any, Any]) -> None:
    encode = Reencoder(what="turn")
    units = {f"u{i}": {"hex": "0101", "steps": 2, "n": 1} for i in range(3)}
    assert encode({"state": {"units": units}}) == canonical_bytes({"state": {"units": units}})
    bad = {"state": {"units": {**units, "u1": changed}}}
    with pytest.raises(InputError) as info:
        encode(bad)
    assert str(info.value) == _refusal(bad)
    # and the value before is still encoded right afterwards
    assert encode({"state": {"units": units}}) == canonical_bytes({"state": {"units": units}})


def test_reencoder_tells_types_apart_that_compare_equal() -> None:
    from enum import IntEnum, StrEnum

    class Side(StrEnum):
        DE = "DE"

    class Steps(IntEnum):
        FULL = 2

    encode = Reencoder()
    first = {"s": {"u": {"a": {"x": 1, "y": [1, 2], "z": "DE"}}}}
    assert encode(first) == b'{"s":{"u":{"a":{"x":1,"y":[1,2],"z":"DE"}}}}'
    # True == 1, (1, 2) != [1, 2] but encodes alike, subclasses compare equal to their values
    for value, text in [({"x": True, "y": [1, 2], "z": "DE"}, b'{"x":true,"y":[1,2],"z":"DE"}'),
                        ({"x": 1, "y": (1, 2), "z": "DE"}, b'{"x":1,"y":[1,2],"z":"DE"}'),
                        ({"x": 1, "y": [1, Steps.FULL], "z": Side.DE}, b'{"x":1,"y":[1,2],"z":"DE"}'),
                        ({Side.DE: 1}, b'{"DE":1}'),
                        ({"x": 1, "y": [1, 2], "z": "DE"}, b'{"x":1,"y":[1,2],"z":"DE"}')]:
        got = encode({"s": {"u": {"a": value}}})
        assert got == b'{"s":{"u":{"a":' + text + b"}}}"
        assert got == canonical_bytes({"s": {"u": {"a": value}}})


def test_reencoder_keys_beyond_the_bmp_and_non_ascii_text_take_the_checked_path() -> None:
    import rfc8785

    encode = Reencoder(what="turn")
    for value in [{"s": {"\ufb01": 1, "\U0001f600": 2}}, {"s": {"k": "\u00e9"}}, {"s": {"k": "e"}},
                  {"\U0001f600": {"k": 1}}, {"s": {"k": "e"}},
                  {"s": {"u": {"a": {"t": "caf\u00e9"}, "b": ["\u2013"]}}},
                  {"s": {"u": {"a": {"t": "caf\u00e9"}, "b": ["\u2013"]}}},
                  {"s": {"u": {"a": {"\U0001f600": 1, "\ufb01": 2}, "b": ["\u2013"]}}},
                  {"s": {"u": {"a": {"t": "caf\u00e9"}, "b": ["\U0001f600"]}}}]:
        assert encode(value) == canonical_bytes(value) == rfc8785.dumps(value)
    for bad in [{"s": {"u": {"a": {"t": "x\ud800"}}}}, {"s": {"k": "\udfff"}}, {"s": {"\ud800": 1}}]:
        with pytest.raises(InputError) as info:
            encode(bad)
        assert str(info.value) == _refusal(bad)
