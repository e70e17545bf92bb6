"""xnp's scalar types: NumPy's types for every purpose but a call, where they also cast
xnp arrays and traced values (``np.float64(x)`` in NumPy code, ``jnp.float32(x)`` in JAX's)."""

import pickle

import numpy as np
import pytest

import xnp
from transforms.test_util import check_grads

TYPE_NAMES = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
              "uint64", "float16", "float32", "float64", "complex64", "complex128", "intp",
              "uintp", "byte", "ubyte", "short", "ushort", "intc", "uintc", "long", "ulong",
              "longlong", "ulonglong", "int_", "uint", "half", "single", "double", "csingle",
              "cdouble", "bool"]

ARGUMENTS = [0, 1, -3, 2.75, -0.0, True, 1 + 2j, "7", np.float32(1.5), np.int8(-4), [1, 2, 3],
             [[1.5, -2.5]], np.array(3.25), np.arange(4.0) - 1.5, ()]


def _same(actual, expected):
    assert type(actual) is type(expected) or (
        isinstance(actual, xnp.ndarray) and isinstance(expected, np.ndarray)), (actual, expected)
    a = np.asarray(actual)
    assert a.dtype == expected.dtype and a.shape == np.shape(expected)
    np.testing.assert_array_equal(a, expected)


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_stands_for_numpys_type(name):
    t, nt = getattr(xnp, name), getattr(np, name)
    assert t == nt and nt == t and hash(t) == hash(nt) and not (t != nt)
    assert {nt: 1}[t] == 1 and np.dtype(t) == np.dtype(nt) and np.dtype(nt) == t
    assert issubclass(t, np.generic) and issubclass(nt, t)
    assert isinstance(nt(1), t) and not isinstance(1.5 if nt is not np.float64 else 1, t)
    assert repr(t) == repr(nt) and t.__name__ == nt.__name__
    assert pickle.loads(pickle.dumps(t)) is t
    assert xnp.zeros(2, t).dtype == np.dtype(nt) and np.zeros(2, t).dtype == np.dtype(nt)
    assert xnp.issubdtype(t, np.number) == np.issubdtype(nt, np.number)


def test_abstract_types_and_promotion():
    assert issubclass(xnp.float32, xnp.floating) and issubclass(xnp.int8, xnp.signedinteger)
    assert xnp.result_type(xnp.float32, xnp.int64) == np.result_type(np.float32, np.int64)
    assert np.finfo(xnp.float32).eps == np.finfo(np.float32).eps
    assert xnp.iinfo(xnp.int16).max == 32767
    assert xnp.ones(3).dtype.type == xnp.float64


@pytest.mark.parametrize("name", ["bool_", "int8", "int64", "uint8", "float16", "float32",
                                  "float64", "complex64", "complex128"])
@pytest.mark.parametrize("arg", ARGUMENTS, ids=repr)
def test_call_matches_numpy(name, arg):
    t, nt = getattr(xnp, name), getattr(np, name)
    try:
        expected = nt(arg)
    except (TypeError, ValueError, OverflowError) as e:
        with pytest.raises(type(e)):
            t(arg)
        return
    _same(t(arg), expected)
    if isinstance(arg, (list, np.ndarray)):       # the same values as an xnp array
        _same(t(xnp.asarray(arg)), expected)


def test_call_without_argument():
    assert xnp.float64() == 0.0 and type(xnp.float64()) is np.float64
    assert xnp.bool_() is np.False_


def test_cast_differentiates():
    # autograd's test_cast_to_int: a float column cast to int indexes rows.
    inds = xnp.ones(5)[:, None]

    def fun(W):
        xnp.concatenate((W, inds), axis=1)
        new_W, new_inds = W[:, :-1], xnp.int64(W[:, -1])
        assert new_inds.dtype == np.int64
        return new_W[new_inds].sum()

    W = np.random.default_rng(0).normal(size=(5, 10))
    g = np.asarray(xnp.grad(fun)(W))
    expected = np.zeros_like(W)
    np.add.at(expected[:, :-1], W[:, -1].astype(np.int64), 1.0)
    np.testing.assert_array_equal(g, expected)
    check_grads(lambda x: xnp.float64(xnp.sin(x)) ** 2 * xnp.float64(2.5),
                (np.linspace(-1, 1, 4),), order=2)


def test_cast_batches_and_compiles():
    x = np.linspace(-3, 3, 7)
    f = lambda v: xnp.int32(v * 2)            # noqa: E731
    expected = np.stack([np.int32(v * 2) for v in x])
    np.testing.assert_array_equal(np.asarray(xnp.vmap(f)(x)), expected)
    jitted = xnp.jit(f)(x)
    assert jitted.dtype == np.int32
    np.testing.assert_array_equal(np.asarray(jitted), np.int32(x * 2))


def test_identity_is_the_one_difference():
    # Documented: only `is` tells xnp's type from NumPy's.
    assert xnp.ones(2).dtype.type is not xnp.float64
    assert xnp.ones(2).dtype.type == xnp.float64


def test_version_is_numpys_api_version():
    # NumPy code branches on np.__version__; xnp's own version is xnp_version.
    assert xnp.__version__ == np.__version__
    assert xnp.xnp_version.count(".") == 2
