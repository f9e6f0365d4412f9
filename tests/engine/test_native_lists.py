"""The native list builders behind ``Encoding.ids`` / ``word_ids`` / ``offsets``: they must
equal numpy's ``tolist`` on any values, shared int objects or not."""

import numpy as np
import pytest

core = pytest.importorskip("codetok._core")


def test_int_list_equals_tolist():
    rng = np.random.default_rng(0)
    values = np.concatenate(
        [
            rng.integers(0, 300_000, 5_000),
            [0, 1, 255, 256, (1 << 20) - 1, 1 << 20, (1 << 31) - 1, -1, -5, -(1 << 31)],
        ]
    ).astype(np.int32)
    out = core.int_list(values)
    assert type(out) is list
    assert out == values.tolist()
    assert all(type(v) is int for v in out)
    # The same call again (shared ints now) still gives equal values.
    assert core.int_list(values) == values.tolist()


def test_int_list_casts_and_checks_shape():
    assert core.int_list(np.array([3, 7], dtype=np.int64)) == [3, 7]
    assert core.int_list(np.zeros(0, dtype=np.int32)) == []
    with pytest.raises(ValueError):
        core.int_list(np.zeros((2, 2), dtype=np.int32))


def test_pair_list_equals_tuples_of_tolist():
    rng = np.random.default_rng(1)
    pairs = rng.integers(-3, 1 << 22, (4_000, 2)).astype(np.int64)
    pairs[0] = (1 << 40, -(1 << 40))
    out = core.pair_list(pairs)
    assert out == [tuple(p) for p in pairs.tolist()]
    assert all(type(p) is tuple and len(p) == 2 for p in out)
    assert core.pair_list(np.zeros((0, 2), dtype=np.int64)) == []
    with pytest.raises(ValueError):
        core.pair_list(np.zeros(4, dtype=np.int64))
