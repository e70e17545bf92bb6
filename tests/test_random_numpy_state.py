"""xnp.random's NumPy-compatible stateful API: the same seeds give NumPy's numbers (NumPy
itself is the oracle), shapes, dtypes and errors are NumPy's, results are xnp arrays."""

import pickle

import numpy as np
import pytest

import xnp
from transforms import TracerArrayConversionError


@pytest.mark.parametrize("name,args,kwargs", [
    ("rand", (2, 3), {}), ("randn", (4,), {}), ("randint", (0, 10, 5), {}),
    ("random", ((2, 2),), {}), ("random_sample", (3,), {}), ("uniform", (-1, 1, 4), {}),
    ("normal", (1.0, 2.0, (2, 3)), {}), ("standard_normal", (5,), {}),
    ("choice", (10, 4), {"replace": False}), ("permutation", (6,), {}),
    ("exponential", (2.0, 3), {}), ("binomial", (10, 0.3, 4), {}),
    ("poisson", (3.0, 5), {}), ("beta", (2.0, 3.0, 2), {}), ("gamma", (2.0, 1.0, 3), {}),
    ("multivariate_normal", ([0.0, 1.0], [[1.0, 0.2], [0.2, 1.0]], 3), {}),
    ("normal", (), {}),                     # no size: a Python float, as NumPy's
])
def test_global_state_draws_numpys_numbers(name, args, kwargs):
    np.random.seed(123)
    want = getattr(np.random, name)(*args, **kwargs)
    xnp.random.seed(123)
    got = getattr(xnp.random, name)(*args, **kwargs)
    assert type(got) is (xnp.ndarray if isinstance(want, np.ndarray) else type(want))
    np.testing.assert_array_equal(np.asarray(got), want)
    if isinstance(want, np.ndarray):
        assert got.dtype == want.dtype and got.shape == want.shape


def test_xnp_and_numpy_calls_share_one_stream():
    np.random.seed(7)
    want = [np.random.rand(), np.random.rand(), np.random.rand()]
    np.random.seed(7)
    got = [xnp.random.rand(), np.random.rand(), xnp.random.rand()]
    assert got == want


def test_parameters_may_be_xnp_arrays_and_shuffle_rebinds():
    np.random.seed(3)
    want = np.random.normal(np.arange(3.0), 2.0)
    xnp.random.seed(3)
    np.testing.assert_array_equal(xnp.random.normal(xnp.arange(3.0), 2.0), want)
    x = xnp.arange(10)
    np.random.seed(5)
    y = np.arange(10)
    np.random.shuffle(y)
    xnp.random.seed(5)
    assert xnp.random.shuffle(x) is None
    np.testing.assert_array_equal(x, y)


def test_generators_match_numpys():
    for make in (lambda m, s: m.random.default_rng(s),
                 lambda m, s: m.random.Generator(m.random.PCG64(s)),
                 lambda m, s: m.random.RandomState(s)):
        ours, theirs = make(xnp, 11), make(np, 11)
        if hasattr(theirs, "integers"):
            np.testing.assert_array_equal(ours.integers(0, 100, 5), theirs.integers(0, 100, 5))
            np.testing.assert_array_equal(ours.standard_normal((2, 2)),
                                          theirs.standard_normal((2, 2)))
        else:
            np.testing.assert_array_equal(ours.randint(0, 100, 5), theirs.randint(0, 100, 5))
        x, y = xnp.arange(6), np.arange(6)
        ours.shuffle(x)
        theirs.shuffle(y)
        np.testing.assert_array_equal(x, y)
    rng = xnp.random.default_rng(1)
    assert xnp.random.default_rng(rng) is rng
    assert isinstance(pickle.loads(pickle.dumps(rng)), xnp.random.Generator)


def test_errors_are_numpys_and_traced_parameters_refuse():
    with pytest.raises(ValueError):
        xnp.random.randint(5, 2)
    with pytest.raises(ValueError):
        xnp.random.choice(3, 5, replace=False)
    with pytest.raises(TracerArrayConversionError):
        xnp.grad(lambda m: xnp.random.normal(m, 1.0))(0.5)


def test_star_import_gives_numpys_names():
    # ``from numpy.random import *`` (as autograd.numpy.random does) exported nothing
    # from xnp.random before (its names load lazily): now NumPy's __all__ and the key API.
    ours, theirs = {}, {}
    exec("from xnp.random import *", ours)
    exec("from numpy.random import *", theirs)
    assert set(np.random.__all__) <= set(ours) and "Any" not in ours
    assert {"key", "split", "fold_in"} <= set(ours)
    np.testing.assert_array_equal(ours["RandomState"](3).randn(4),
                                  theirs["RandomState"](3).randn(4))
    ours["seed"](5)
    got = ours["rand"](3)
    theirs["seed"](5)
    np.testing.assert_array_equal(got, theirs["rand"](3))
