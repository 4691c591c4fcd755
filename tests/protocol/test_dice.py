"""Committed dice: hash chains, roll keys and the unbiased d6 stream (protocol.md P3, P4).

Expected values are recomputed here from the protocol text with literal JSON bytes, so a change
to canonicalisation, domain strings or the byte scan shows up as a failure.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from collections import Counter

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given
from hypothesis import strategies as st

import pbem.protocol.dice as dice_module
from pbem.protocol.dice import (
    DiceStream,
    FixedDice,
    NoDice,
    Roll,
    chain_head,
    chain_seed,
    check_reveal,
    reveal,
    roll_key,
    verify_rolls,
)

SEED32 = bytes(range(32))
KEY = Ed25519PrivateKey.from_private_bytes(SEED32)
CHI2_CRITICAL_5DF_0999 = 20.515
SAMPLE = 600_000


def sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def reference_block(key: bytes, i: int, ctr: int) -> bytes:
    msg = b'{"ctr":%d,"ds":"pbem/d6/v1","i":%d}' % (ctr, i)
    return hmac.new(key, msg, hashlib.sha256).digest()


def reference_d6(key: bytes, i: int) -> tuple[int, int]:
    ctr = 0
    while True:
        for b in reference_block(key, i, ctr):
            if b < 252:
                return 1 + b % 6, ctr
        ctr += 1


# --- hash chain -----------------------------------------------------------------------------


N1 = bytes(range(32))
N2 = bytes(range(1, 33))


def test_chain_seed_is_hkdf_sha256_of_the_ed25519_seed() -> None:
    # RFC 5869 by hand: extract with the salt, then one expand block with info || 0x01.
    prk = hmac.new(b"pbem/dice-chain/v2", SEED32, hashlib.sha256).digest()
    info = b'{"game":"g1","nonce":"' + N1.hex().encode() + b'","side":"DE"}'
    okm = hmac.new(prk, info + b"\x01", hashlib.sha256).digest()
    assert chain_seed(KEY, "g1", "DE", N1) == okm


def test_chain_seed_separates_games_sides_keys_and_nonces() -> None:
    other = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
    seeds = {
        chain_seed(KEY, "g1", "DE", N1),
        chain_seed(KEY, "g1", "US", N1),
        chain_seed(KEY, "g2", "DE", N1),
        chain_seed(other, "g1", "DE", N1),
        chain_seed(KEY, "g1", "DE", N2),  # same key, game and side: another nonce, another chain [P3]
    }
    assert len(seeds) == 5
    assert chain_seed(KEY, "g1", "DE", N1) == chain_seed(KEY, "g1", "DE", N1)
    assert SEED32 not in seeds


def test_chain_seed_refuses_a_nonce_of_the_wrong_size() -> None:
    for bad in (b"", b"x" * 31, b"x" * 33):
        with pytest.raises(ValueError, match="32 bytes"):
            chain_seed(KEY, "g1", "DE", bad)


def test_new_nonces_are_fresh() -> None:
    from pbem.protocol.dice import new_nonce

    nonces = {new_nonce() for _ in range(64)}
    assert len(nonces) == 64 and all(len(n) == 32 for n in nonces)


def test_chain_head_and_reveals_by_hand() -> None:
    seed = b"s" * 32
    h1, h2, h3 = sha(seed), sha(sha(seed)), sha(sha(sha(seed)))
    assert chain_head(seed, 3) == h3
    assert reveal(seed, 3, 0) == h3
    assert reveal(seed, 3, 1) == h2
    assert reveal(seed, 3, 2) == h1
    assert reveal(seed, 3, 3) == seed


def test_reveals_link_to_the_commitment() -> None:
    seed = chain_seed(KEY, "g1", "DE", N1)
    previous = chain_head(seed, 20)
    for j in range(1, 21):
        current = reveal(seed, 20, j)
        assert check_reveal(previous, current)
        assert not check_reveal(current, previous)  # the chain only runs one way
        previous = current
    assert not check_reveal(chain_head(seed, 20), reveal(seed, 20, 2))  # no skipping


def test_exhausted_chain_is_an_error() -> None:
    with pytest.raises(ValueError, match="exhausted"):
        reveal(b"s" * 32, 3, 4)
    with pytest.raises(ValueError):
        reveal(b"s" * 32, 3, -1)
    with pytest.raises(ValueError):
        chain_head(b"s" * 32, 0)


@given(st.binary(min_size=32, max_size=32), st.integers(1, 40), st.data())
def test_any_reveal_hashes_to_the_one_before(seed: bytes, length: int, data: st.DataObject) -> None:
    j = data.draw(st.integers(1, length))
    assert check_reveal(reveal(seed, length, j - 1), reveal(seed, length, j))
    assert sha(reveal(seed, length, j)) == reveal(seed, length, j - 1)


def test_check_reveal_refuses_wrong_candidates() -> None:
    seed = b"x" * 32
    head = chain_head(seed, 5)
    assert not check_reveal(head, head)
    assert not check_reveal(head, b"")
    assert not check_reveal(head, reveal(b"y" * 32, 5, 1))


# --- roll keys ------------------------------------------------------------------------------


def test_roll_key_by_hand() -> None:
    expected = sha(
        b'{"body":"ab12","ds":"pbem/roll-key/v1","game":"g1","reveals":["00ff","a0"],"step":3}'
    )
    assert roll_key("g1", 3, "ab12", [b"\x00\xff", b"\xa0"]) == expected


def test_roll_key_depends_on_every_input() -> None:
    base = roll_key("g1", 3, "ab", [b"\x01", b"\x02"])
    variants = [
        roll_key("g2", 3, "ab", [b"\x01", b"\x02"]),
        roll_key("g1", 4, "ab", [b"\x01", b"\x02"]),
        roll_key("g1", 3, "ac", [b"\x01", b"\x02"]),
        roll_key("g1", 3, "ab", [b"\x01", b"\x03"]),
        roll_key("g1", 3, "ab", [b"\x02", b"\x01"]),
        roll_key("g1", 3, "ab", [b"\x01"]),
    ]
    assert base == roll_key("g1", 3, "ab", [b"\x01", b"\x02"])
    assert len({base, *variants}) == 7
    streams = [DiceStream(k) for k in [base, *variants]]
    rolls = {tuple(s.d6("x") for _ in range(12)) for s in streams}
    assert len(rolls) == 7  # 12 dice agreeing by chance: about 1 in 2 billion per pair


# --- the d6 stream --------------------------------------------------------------------------


def test_d6_matches_the_protocol_by_hand() -> None:
    key = roll_key("g1", 1, "00", [b"a", b"b"])
    stream = DiceStream(key)
    faces = [stream.d6(f"7.6 combat {n}") for n in range(50)]
    assert faces == [reference_d6(key, i)[0] for i in range(50)]
    assert stream.rolls[7] == Roll(7, "7.6 combat 7", faces[7], 0)
    assert [r.index for r in stream.rolls] == list(range(50))
    assert stream.rolls[7].to_json() == {"i": 7, "label": "7.6 combat 7", "value": faces[7],
                                         "ctr": 0}
    assert Roll.from_json(stream.rolls[7].to_json()) == stream.rolls[7]


def test_same_key_same_rolls() -> None:
    a, b = DiceStream(b"k" * 32), DiceStream(b"k" * 32)
    assert [a.d6("x") for _ in range(30)] == [b.d6("y") for _ in range(30)]


def test_rejected_bytes_are_skipped() -> None:
    # Find (deterministically) a key whose first byte for die 0 is >= 252: the die must then
    # come from the next acceptable byte of the same block.
    for n in range(10_000):
        key = b"key-%d" % n
        block = reference_block(key, 0, 0)
        if block[0] >= 252:
            break
    else:  # pragma: no cover - probability (252/256)^10000
        pytest.fail("no key with a rejected first byte")
    accepted = next(b for b in block if b < 252)
    stream = DiceStream(key)
    assert stream.d6("x") == 1 + accepted % 6
    assert stream.d6("y") == reference_d6(key, 1)[0]


def test_an_all_rejected_block_moves_to_the_next_counter(monkeypatch: pytest.MonkeyPatch) -> None:
    real = dice_module.d6_block

    def block(key: bytes, i: int, ctr: int) -> bytes:
        return b"\xff" * 32 if ctr == 0 else real(key, i, ctr)

    monkeypatch.setattr(dice_module, "d6_block", block)
    stream = DiceStream(b"k")
    face = stream.d6("x")
    first_ok = next(b for b in reference_block(b"k", 0, 1) if b < 252)
    assert face == 1 + first_ok % 6
    assert stream.rolls[0].ctr == 1
    # A verifier without the patch disagrees about the counter, naming the roll.
    log = [r.to_json() for r in stream.rolls]
    monkeypatch.setattr(dice_module, "d6_block", real)
    assert verify_rolls(b"k", log) is not None


def uniformity_problems(faces: list[int]) -> list[str]:
    """Chi-square (5 degrees of freedom) at the 0.999 level and a 5-sigma bound on every face."""
    n = len(faces)
    counts = Counter(faces)
    assert set(counts) <= {1, 2, 3, 4, 5, 6}
    expected = n / 6
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
    sigma = math.sqrt(n * (1 / 6) * (5 / 6))
    problems = []
    if chi2 >= CHI2_CRITICAL_5DF_0999:
        problems.append(f"chi-square {chi2:.1f} >= {CHI2_CRITICAL_5DF_0999}")
    for f in range(1, 7):
        if abs(counts[f] - expected) > 5 * sigma:
            problems.append(f"face {f}: {counts[f]} vs {expected:.0f} expected")
    return problems


def test_faces_use_the_same_byte_scan_as_d6() -> None:
    key = b"uniformity"
    block = reference_block(key, 0, 0) + reference_block(key, 0, 1)
    assert DiceStream(key).faces(40) == [1 + b % 6 for b in block if b < 252][:40]


def test_d6_faces_are_uniform() -> None:
    faces = DiceStream(b"uniformity").faces(SAMPLE)
    assert len(faces) == SAMPLE
    assert uniformity_problems(faces) == []


def test_the_uniformity_check_catches_modulo_bias() -> None:
    # The same HMAC bytes mapped with 1 + b % 6 over all 256 values (no rejection): faces 1-4
    # get 43/256 each, faces 5-6 only 42/256; the check above must fail on it.
    biased: list[int] = []
    ctr = 0
    while len(biased) < SAMPLE:
        biased.extend(1 + b % 6 for b in reference_block(b"uniformity", 0, ctr))
        ctr += 1
    problems = uniformity_problems(biased[:SAMPLE])
    assert any(p.startswith("chi-square") for p in problems)


@pytest.mark.slow
def test_d6_stream_itself_is_uniform() -> None:
    stream = DiceStream(roll_key("g1", 7, "ff", [b"\x01", b"\x02"]))
    faces = [stream.d6("x") for _ in range(SAMPLE)]
    assert uniformity_problems(faces) == []


# --- verifying logged rolls -----------------------------------------------------------------


def _log(key: bytes, n: int) -> list[dict[str, object]]:
    stream = DiceStream(key)
    for k in range(n):
        stream.d6(f"7.6 combat {k}")
    return [r.to_json() for r in stream.rolls]


def test_verify_rolls_accepts_a_true_log() -> None:
    key = roll_key("g1", 2, "aa", [b"\x01", b"\x02"])
    assert verify_rolls(key, _log(key, 20)) is None
    assert verify_rolls(key, []) is None


def test_verify_rolls_names_the_first_mismatch() -> None:
    key = roll_key("g1", 2, "aa", [b"\x01", b"\x02"])
    log = _log(key, 10)
    log[4] = dict(log[4], value=log[4]["value"] % 6 + 1)  # type: ignore[operator]
    problem = verify_rolls(key, log)
    assert problem is not None and problem.startswith("roll 4 (7.6 combat 4): logged ")
    log = _log(key, 10)
    log[2] = dict(log[2], ctr=1)
    assert verify_rolls(key, log) == "roll 2 (7.6 combat 2): logged ctr 1, recomputed 0"
    log = _log(key, 10)
    del log[3]
    assert verify_rolls(key, log) == "roll 3: index is 4, expected 3"
    assert verify_rolls(key, [{"i": 0}]) is not None
    assert verify_rolls(key, [{"i": 0, "label": 5, "value": 1, "ctr": 0}]) is not None


def test_verify_rolls_with_the_wrong_key_fails() -> None:
    key = roll_key("g1", 2, "aa", [b"\x01", b"\x02"])
    other = roll_key("g1", 2, "aa", [b"\x01", b"\x03"])
    assert verify_rolls(other, _log(key, 20)) is not None


# --- test doubles ---------------------------------------------------------------------------


def test_fixed_dice() -> None:
    d = FixedDice([6, 1, 3])
    assert [d.d6("a"), d.d6("b"), d.d6("c")] == [6, 1, 3]
    assert d.rolls == [Roll(0, "a", 6, 0), Roll(1, "b", 1, 0), Roll(2, "c", 3, 0)]
    assert d.remaining == 0
    with pytest.raises(RuntimeError, match="exhausted"):
        d.d6("d")
    with pytest.raises(ValueError):
        FixedDice([0])
    with pytest.raises(ValueError):
        FixedDice([7])


def test_no_dice() -> None:
    with pytest.raises(RuntimeError, match="this decision may not roll dice"):
        NoDice().d6("7.6 combat 1")
