"""The short eager paths of common calls (arange of Python ints, array of a list,
concatenate and stack of NumPy-backed arrays, einsum's operand handling) give NumPy's
values, dtypes and errors, and the traced paths (jit, vmap, grad) still agree with them."""

from __future__ import annotations

import numpy as np
import pytest

import xnp


def _same(got, expected):
    assert type(got) is xnp.ndarray
    got = np.asarray(got)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("args", [
    (10,), (0,), (-3,), (2, 9), (9, 2), (2, 9, 3), (9, -20, -4), (-5, 5, 7),
    (2**61, 2**61 + 5), (1, 2**61, 2**59), (0, 10, 1),
])
def test_arange_of_python_ints(args):
    _same(xnp.arange(*args), np.arange(*args))
    _same(xnp.jit(lambda: xnp.arange(*args))(), np.arange(*args))


def test_arange_of_python_ints_errors_and_keywords():
    with pytest.raises(ZeroDivisionError):
        xnp.arange(0, 5, 0)
    _same(xnp.arange(stop=4), np.arange(stop=4))
    _same(xnp.arange(start=1, stop=4), np.arange(start=1, stop=4))
    _same(xnp.arange(5, dtype=np.int8), np.arange(5, dtype=np.int8))
    _same(xnp.arange(2**63 - 3, 2**63 - 1), np.arange(2**63 - 3, 2**63 - 1))  # not small
    a = xnp.arange(4)
    a[0] = 7                                  # a new, writeable array
    _same(xnp.arange(4), np.arange(4))


@pytest.mark.parametrize("obj", [
    [1.0, 2.0], [1, 2], [[1, 2], [3, 4.5]], (1, 2j), [True, False], [],
    [np.float32(1), 2], [xnp.ones(2), np.zeros(2)], [np.arange(3, dtype=np.int8)],
])
def test_array_of_a_list(obj):
    expected = np.array([np.asarray(o) if isinstance(o, xnp.ndarray) else o for o in obj]
                        if isinstance(obj, list) else obj)
    got = xnp.array(obj)
    _same(got, expected)
    if isinstance(obj, list) and obj and isinstance(obj[0], xnp.ndarray):
        got[0, 0] = 5.0                       # a copy: the leaf is unchanged
        assert obj[0][0] == 1.0


def test_array_of_a_list_with_traced_leaves():
    f = xnp.grad(lambda v: xnp.array([v, 2 * v, [3.0][0]]).sum())
    assert f(1.5) == 3.0
    r = xnp.vmap(lambda v: xnp.array([v, v + 1]))(np.arange(3.0))
    np.testing.assert_array_equal(r, [[0, 1], [1, 2], [2, 3]])


@pytest.mark.parametrize("fn", ["concatenate", "stack"])
@pytest.mark.parametrize("items", [
    [np.arange(3.0), np.arange(3)],
    [xnp.arange(4.0).reshape(2, 2), np.ones((2, 2), np.float32)],
    (np.ones(2, np.int8), xnp.ones(2, np.uint8), np.zeros(2, bool)),
    [np.ones(2), np.ones(3)],                         # shapes differ
    [np.ones((2, 2)), np.ones(2)],                    # dimensions differ
    [np.float64(1.0), np.ones(2)],                    # a scalar
    [np.ones(()), np.ones(())],                       # 0-d arrays
    [np.ones(2), [1, 2]],                             # a list
])
@pytest.mark.parametrize("axis", [0, -1, None, 2])
def test_joins_as_numpy(fn, items, axis):
    plain = [np.asarray(i) if isinstance(i, xnp.ndarray) else i for i in items]
    try:
        expected = getattr(np, fn)(plain, axis=axis)
    except (ValueError, TypeError, np.exceptions.AxisError) as e:
        with pytest.raises(type(e)):
            getattr(xnp, fn)(items, axis=axis)
        return
    _same(getattr(xnp, fn)(items, axis=axis), expected)


def test_joins_under_transformations():
    a, b = np.arange(6.0).reshape(2, 3), np.ones((2, 3))
    r = xnp.vmap(lambda u, v: xnp.concatenate([u, v]))(a, b)
    np.testing.assert_array_equal(r, np.concatenate([a, b], axis=1))
    r = xnp.jit(lambda u, v: xnp.stack([u, v], axis=1))(a, b)
    np.testing.assert_array_equal(r, np.stack([a, b], axis=1))
    g = xnp.grad(lambda u: (xnp.stack([u, 2 * u]) ** 2).sum())(np.arange(3.0))
    np.testing.assert_array_equal(g, 10 * np.arange(3.0))
    out = xnp.zeros(6)
    assert xnp.concatenate([np.ones(3), np.ones(3)], out=out) is out


@pytest.mark.parametrize("operands", [
    ("ij,jk->ik", np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)),
    ("ij,jk", xnp.arange(6).reshape(2, 3), np.arange(12.0, dtype=np.float32).reshape(3, 4)),
    ("i,i", [1, 2, 3], np.arange(3)),
    ("ii", np.arange(9.0).reshape(3, 3)),
    ("ij->ji", 2.0 * np.ones((2, 3), np.float32)),
])
def test_einsum_operands_as_numpy(operands):
    expected = np.einsum(*[np.asarray(o) if isinstance(o, xnp.ndarray) else o
                           for o in operands])
    got = xnp.einsum(*operands)
    assert np.asarray(got).dtype == expected.dtype
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-15)
    with pytest.raises(ValueError):
        xnp.einsum(*operands, order="X")


def test_dot_and_where_as_numpy():
    m = np.arange(9.0).reshape(3, 3)
    _same(xnp.dot(m, m), np.dot(m, m))
    _same(xnp.matmul(xnp.asarray(m), m.T), m @ m.T)
    c = m > 3
    _same(xnp.where(c, m, -m), np.where(c, m, -m))
    _same(xnp.where(c, m.astype(np.float32), 1), np.where(c, m.astype(np.float32), 1))
