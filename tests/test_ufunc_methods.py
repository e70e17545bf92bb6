"""ufunc.reduce / accumulate / reduceat for every binary ufunc, against NumPy.

Oracle: NumPy on the same inputs. For a ufunc that is not reorderable, NumPy's own
``reduce`` is wrong in some float loops (``np.power.reduce([1.5, 2., 3., 1.])`` gives 1.5
in NumPy 2.4), so its reduce is checked against the last entry of NumPy's ``accumulate``,
the sequential left fold that defines it."""

import numpy as np
import pytest

import xnp
from transforms.test_util import check_grads
from xnp._ufunc_methods import REORDERABLE
from xnp._ufuncs import UFUNCS

BINARY = sorted({uf.__name__ for uf in UFUNCS.values() if uf.nin == 2 and uf.nout == 1
                 and hasattr(np, uf.__name__)})

SAMPLES = {
    "int8": np.array([[3, -2, 7], [1, 5, -4]], dtype=np.int8),
    "int64": np.array([[12, 18, 30, 7], [4, 6, 8, 10]]),
    "bool": np.array([[True, False, True], [True, True, False]]),
    "float64": np.array([[1.5, 2.0, 0.75], [3.0, 0.5, 1.25]]),
    "float16": np.array([1.0, 2.0, 3.0], dtype=np.float16),
}


def _numpy_reduce(name, x, axis):
    u = getattr(np, name)
    if name in REORDERABLE or x.ndim == 0:
        return u.reduce(x, axis=axis)
    acc = u.accumulate(x, axis=axis)
    return np.take(acc, -1, axis=axis)


def _compare(actual, expected):
    a, e = np.asarray(actual), np.asarray(expected)
    assert a.dtype == e.dtype and a.shape == e.shape, (a, e)
    if e.dtype.kind in "fc":
        rtol = 1e-2 if e.dtype == np.float16 else 1e-9
        np.testing.assert_allclose(a, e, rtol=rtol, atol=0, equal_nan=True)
    else:
        np.testing.assert_array_equal(a, e)


def _outcome(fn):
    try:
        return fn(), None
    except (TypeError, ValueError) as e:
        return None, e


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", sorted(SAMPLES))
@pytest.mark.parametrize("name", BINARY)
def test_reduce_and_accumulate_match_numpy(name, dtype):
    x = SAMPLES[dtype]
    for axis in range(x.ndim):
        expected, err = _outcome(lambda: _numpy_reduce(name, x, axis))
        actual, xerr = _outcome(lambda: getattr(xnp, name).reduce(xnp.asarray(x), axis=axis))
        if err is not None:       # the same kind of error (UFuncTypeError is a TypeError)
            kind = TypeError if isinstance(err, TypeError) else ValueError
            assert isinstance(xerr, kind), (name, dtype, err, xerr)
            continue
        assert xerr is None, (name, dtype, xerr)
        _compare(actual, expected)
        _compare(getattr(xnp, name).accumulate(xnp.asarray(x), axis=axis),
                 getattr(np, name).accumulate(x, axis=axis))


@pytest.mark.parametrize("name", sorted(REORDERABLE & set(BINARY) - {"add", "multiply"}))
def test_reorderable_options(name):
    x = SAMPLES["int64"] if name.startswith(("bitwise", "gcd", "lcm")) else SAMPLES["float64"]
    u, xu = getattr(np, name), getattr(xnp, name)
    _compare(xu.reduce(x, axis=None), u.reduce(x, axis=None))
    _compare(xu.reduce(x, axis=(0, 1), keepdims=True), u.reduce(x, axis=(0, 1), keepdims=True))
    _compare(xu.reduce(x, axis=1, keepdims=True), u.reduce(x, axis=1, keepdims=True))
    mask = np.array([[True, False, True, True][:x.shape[1]]] * 2)
    if u.identity is not None:
        _compare(xu.reduce(x, axis=1, where=mask), u.reduce(x, axis=1, where=mask))
        _compare(xu.reduce(x[:, :0], axis=1), u.reduce(x[:, :0], axis=1))
    else:
        with pytest.raises(ValueError):
            xu.reduce(x[:, :0], axis=1)
    initial = 2 if x.dtype.kind == "i" else 0.5
    _compare(xu.reduce(x, axis=0, initial=initial), u.reduce(x, axis=0, initial=initial))


def test_errors():
    with pytest.raises(ValueError, match="not reorderable"):
        xnp.subtract.reduce(xnp.ones((2, 2)), axis=None)
    with pytest.raises(ValueError, match="no identity"):
        xnp.subtract.reduce(xnp.ones(0))
    with pytest.raises(ValueError, match="binary"):
        xnp.sin.reduce(xnp.ones(2))
    with pytest.raises(TypeError, match="scalar"):
        xnp.bitwise_or.accumulate(xnp.asarray(3))
    with pytest.raises(TypeError):
        xnp.bitwise_or.reduce(xnp.ones(3))


def test_long_subtract_and_divide_folds():
    x = np.linspace(1.0, 2.0, 100)
    _compare(xnp.subtract.reduce(x), np.subtract.accumulate(x)[-1])
    _compare(xnp.divide.accumulate(x), np.divide.accumulate(x))


REDUCEAT_CASES = [
    ("add", np.arange(8.0), [0, 4, 1, 5], 0),
    ("add", np.arange(8), [0, 4, 4, 5], 0),
    ("maximum", np.array([3, 1, 4, 1, 5, 9, 2, 6]), [0, 3, 6], 0),
    ("multiply", np.arange(1.0, 9.0), [1, 7, 2], 0),
    ("bitwise_or", np.array([1, 2, 4, 8, 16]), [0, 2], 0),
    ("add", np.arange(12).reshape(3, 4), [0, 2], 1),
    ("minimum", np.arange(12.0).reshape(4, 3), [3, 0, 2], 0),
    ("add", np.arange(5.0), [], 0),
]


@pytest.mark.parametrize("name, x, indices, axis", REDUCEAT_CASES)
def test_reduceat_matches_numpy(name, x, indices, axis):
    expected = getattr(np, name).reduceat(x, np.asarray(indices, dtype=np.intp), axis=axis)
    _compare(getattr(xnp, name).reduceat(xnp.asarray(x), indices, axis=axis), expected)


def test_reduceat_errors():
    with pytest.raises(IndexError, match="out-of-bounds"):
        xnp.add.reduceat(xnp.arange(8), [0, 9])
    with pytest.raises(TypeError, match="concrete"):
        xnp.vmap(lambda i: xnp.add.reduceat(xnp.arange(8.0), i))(xnp.asarray([[0, 4]]))


def test_methods_differentiate_batch_and_compile():
    x = np.array([0.5, 1.5, -2.0, 3.0])
    check_grads(lambda v: xnp.hypot.reduce(v), (x,), order=2)
    check_grads(lambda v: xnp.subtract.accumulate(v), (x,), order=1)
    check_grads(lambda v: xnp.add.reduceat(v ** 2, [0, 2, 1]), (x,), order=1)
    batch = np.arange(12).reshape(3, 4)
    loop = np.stack([np.bitwise_xor.accumulate(r) for r in batch])
    _compare(xnp.vmap(xnp.bitwise_xor.accumulate)(batch), loop)
    f = lambda v: xnp.subtract.reduce(v, axis=1)     # noqa: E731
    _compare(xnp.jit(f)(batch.astype(float)), f(batch.astype(float)))


def test_ufuncs_are_ufunc_instances():
    assert isinstance(xnp.add, xnp.ufunc) and isinstance(xnp.sin, xnp.ufunc)
    assert not isinstance(xnp.sum, xnp.ufunc)
    assert xnp.logical_xor.identity is False and xnp.hypot.identity == 0


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.int32, bool])
def test_identity_of_empty_reduction_is_cast_as_numpy(dtype):
    for name in ("bitwise_and", "bitwise_or", "logical_and", "multiply"):
        a = np.zeros((0, 2), dtype=dtype)
        expected = getattr(np, name).reduce(a)
        got = getattr(xnp, name).reduce(xnp.asarray(a))
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(np.asarray(got), expected)
