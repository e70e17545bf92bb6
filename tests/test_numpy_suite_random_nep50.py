"""Regressions found by running NumPy's own random and NEP 50 test files against xnp.

Every test runs the same code on NumPy and on xnp (same seeds, same inputs) and compares
values, dtypes, shapes, result types and exception types; NumPy is the oracle.
"""

import operator
import pickle
import warnings

import numpy as np
import pytest

import xnp


def _same(got, want):
    """Values, dtype and shape (or Python type for scalars) agree."""
    if isinstance(want, np.ndarray):
        assert type(got) is xnp.ndarray
        assert got.dtype == want.dtype and got.shape == want.shape
    else:
        assert type(got) is type(want)
    np.testing.assert_array_equal(np.asarray(got), want)


def _outcome(fn):
    """('ok', value) or ('err', exception type, message)."""
    try:
        return "ok", fn()
    except Exception as e:                      # noqa: BLE001  (compared with NumPy's)
        return "err", type(e), str(e)


def _makers(seed):
    """(xnp, NumPy) pairs of seeded generators of every kind."""
    return [(xnp.random.default_rng(seed), np.random.default_rng(seed)),
            (xnp.random.Generator(xnp.random.MT19937(seed)),
             np.random.Generator(np.random.MT19937(seed))),
            (xnp.random.RandomState(seed), np.random.RandomState(seed))]


# -- drawing functions behave as NumPy's compiled methods --------------------------------

def test_methods_do_not_bind_as_class_attributes_and_compare_equal():
    ours, theirs = xnp.random.default_rng(4), np.random.default_rng(4)

    class Ours:
        rfunc = ours.integers
        normal = xnp.random.normal
        rand = xnp.random.rand

    class Theirs:
        rfunc = theirs.integers
        normal = np.random.normal
        rand = np.random.rand

    _same(Ours().rfunc(0, 10, size=3, dtype=xnp.int16), Theirs().rfunc(0, 10, size=3,
                                                                         dtype=np.int16))
    np.random.seed(2)
    want = (Theirs().normal(size=2), Theirs().rand(2))
    xnp.random.seed(2)
    got = (Ours().normal(size=2), Ours().rand(2))
    for g, w in zip(got, want):
        _same(g, w)
    assert (ours.geometric in (ours.geometric,)) is (theirs.geometric in (theirs.geometric,))
    assert (ours.geometric == ours.geometric) is (theirs.geometric == theirs.geometric)


@pytest.mark.parametrize("name,args", [
    ("random", ()), ("standard_normal", ()), ("standard_exponential", ()),
    ("integers", (0, 5)), ("choice", (5,)), ("normal", (1.0, 2.0)), ("binomial", (10, 0.3)),
    ("poisson", (2.0,)), ("uniform", ()), ("exponential", ()), ("gamma", (2.0,)),
])
def test_size_none_gives_numpys_scalar(name, args):
    for ours, theirs in _makers(9):
        if not hasattr(theirs, name):
            name2 = {"integers": "randint", "random": "random_sample"}[name]
            _same(getattr(ours, name2)(*args), getattr(theirs, name2)(*args))
        else:
            _same(getattr(ours, name)(*args), getattr(theirs, name)(*args))


@pytest.mark.parametrize("call", [
    lambda m, r: r.normal([0.0, 1.0, 2.0], [[1.0], [2.0]]),
    lambda m, r: r.uniform(m.zeros((2, 1)), m.ones(3), size=(4, 2, 3)),
    lambda m, r: r.binomial(m.array([5, 10]), 0.5),
    lambda m, r: r.binomial(1, [0.3, 0.7], size=(2, 1)),
    lambda m, r: r.normal(m.ones(3), m.ones(3), size=2),
    lambda m, r: r.normal(0.0, -1.0),
    lambda m, r: r.poisson(-1.0),
    lambda m, r: r.choice(3, 5, replace=False),
    lambda m, r: r.choice(3, 2, p=[0.5, 0.5, 0.5]),
    lambda m, r: r.choice(m.arange(6).reshape(2, 3), 2, p=[0.1, 0.9]),
    lambda m, r: r.choice([], 3),
    lambda m, r: r.choice(5, (2, 2), replace=False, p=[0.1, 0.2, 0.3, 0.2, 0.2]),
    lambda m, r: r.dirichlet([5.4e-01, -1.0e-16]),
    lambda m, r: r.multinomial(10, [0.2, 0.8], size=3),
    lambda m, r: r.permutation(m.arange(10).reshape(5, 2)),
    lambda m, r: r.permutation(m.array(3)),
])
def test_broadcasting_and_errors_are_numpys(call):
    for ours, theirs in _makers(5):
        got, want = _outcome(lambda: call(xnp, ours)), _outcome(lambda: call(np, theirs))
        assert got[0] == want[0], (got, want)
        if want[0] == "ok":
            _same(got[1], want[1])
        else:
            assert got[1:] == want[1:]


# -- out=, shuffle and permuted ---------------------------------------------------------

@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("name", ["random", "standard_normal"])
def test_out_array_is_filled_and_returned(order, name):
    ours, theirs = xnp.random.default_rng(1), np.random.default_rng(1)
    out_x, out_n = xnp.empty((2, 3), "f4", order=order), np.empty((2, 3), "f4", order=order)
    assert getattr(ours, name)(out=out_x, dtype="f4") is out_x
    assert getattr(theirs, name)(out=out_n, dtype="f4") is out_n
    _same(out_x, out_n)
    out_x.flags.writeable = out_n.flags.writeable = False
    got = _outcome(lambda: getattr(ours, name)(out=out_x, dtype="f4"))
    assert got[:2] == _outcome(lambda: getattr(theirs, name)(out=out_n, dtype="f4"))[:2]
    assert got[0] == "err"


def test_read_only_arrays_refuse_shuffle_and_permuted_out():
    for ours, theirs in _makers(0):
        x, y = xnp.zeros(3), np.zeros(3)
        x.flags.writeable = y.flags.writeable = False
        for shuffle, arr in ((ours.shuffle, x), (theirs.shuffle, y)):
            with pytest.raises(ValueError, match="read-only"):
                shuffle(arr)
    x, y = xnp.zeros((2, 5)), np.zeros((2, 5))
    x.flags.writeable = y.flags.writeable = False
    for rng, arr in ((xnp.random.default_rng(0), x), (np.random.default_rng(0), y)):
        with pytest.raises(ValueError, match="read-only"):
            rng.permuted(arr, axis=1, out=arr)


@pytest.mark.parametrize("conv", [
    lambda m, v: m.asarray(v).astype(m.int8),
    lambda m, v: m.asarray(v).astype(m.complex64),
    lambda m, v: m.asarray([[i, i] for i in v]),
    lambda m, v: m.vstack([v, v]).T,
    lambda m, v: [(i, i) for i in v],
])
def test_shuffle_gives_numpys_permutation(conv):
    vals = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0]
    for ours, theirs in _makers(1234):
        got, want = conv(xnp, vals), conv(np, vals)
        assert ours.shuffle(got) is None
        theirs.shuffle(want)
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
        _same(ours.random() if hasattr(ours, "integers") else ours.rand(),
              theirs.random() if hasattr(theirs, "integers") else theirs.rand())


def test_shuffle_writes_through_views_and_axis():
    ours, theirs = xnp.random.default_rng(7), np.random.default_rng(7)
    x, y = xnp.arange(20).reshape(2, 10), np.arange(20).reshape(2, 10)
    ours.shuffle(x.T)
    theirs.shuffle(y.T)
    _same(x, y)
    ours.shuffle(x, axis=1)
    theirs.shuffle(y, axis=1)
    _same(x, y)
    x, y = xnp.arange(12).reshape(3, 4), np.arange(12).reshape(3, 4)
    xnp.random.seed(3)                  # one global state: seed before each
    xnp.random.shuffle(x[:, 1])
    np.random.seed(3)
    np.random.shuffle(y[:, 1])
    _same(x, y)


def test_shuffle_edge_cases_draw_as_numpy():
    for ours, theirs in _makers(3):
        for shape in [(0,), (3, 0)]:
            ours.shuffle(xnp.zeros(shape))
            theirs.shuffle(np.zeros(shape))
        got = _outcome(lambda: ours.shuffle(xnp.zeros(())))
        want = _outcome(lambda: theirs.shuffle(np.zeros(())))
        assert got[:2] == want[:2]
        a, b = [1], [1]
        ours.shuffle(a)
        theirs.shuffle(b)
        draw = "random" if hasattr(theirs, "integers") else "random_sample"
        _same(getattr(ours, draw)(3), getattr(theirs, draw)(3))


def test_shuffle_masked_array_keeps_data_with_mask():
    a = xnp.ma.masked_values(xnp.reshape(xnp.arange(20), (5, 4)) % 3 - 1, -1)
    before = sorted(np.asarray(a.data)[~np.asarray(a.mask)].tolist())
    xnp.random.seed(1)
    xnp.random.shuffle(a)
    assert sorted(np.asarray(a.data)[~np.asarray(a.mask)].tolist()) == before


def test_shuffle_of_a_traced_array_uses_the_trace_time_draw():
    xnp.random.seed(11)
    got = xnp.jit(lambda x: (xnp.random.shuffle(x), x * 2)[1])(xnp.arange(6.0))
    np.random.seed(11)
    want = np.arange(6.0)
    np.random.shuffle(want)
    np.testing.assert_array_equal(np.asarray(got), want * 2)


def test_numpy_warnings_point_at_the_caller():
    for rng in (xnp.random, xnp.random.RandomState(0), xnp.random.default_rng(0)):
        with pytest.warns(UserWarning, match="you are shuffling a 'dict'") as rec:
            rng.shuffle({0: 0, 1: 1, 2: 2})
        assert rec[0].filename == __file__
    with pytest.warns(DeprecationWarning) as rec:
        xnp.random.random_integers(3)
    assert rec[0].filename == __file__
    for rng in (xnp.random, xnp.random.default_rng(0)):
        with pytest.warns(RuntimeWarning, match="positive-semidefinite") as rec:
            rng.multivariate_normal([0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]])
        assert rec[0].filename == __file__


# -- seeding, bit generators, state -----------------------------------------------------

def test_seeds_may_be_xnp_arrays():
    for name in ("MT19937", "PCG64", "PCG64DXSM", "Philox", "SFC64"):
        ours = xnp.random.Generator(getattr(xnp.random, name)(xnp.arange(10)))
        theirs = np.random.Generator(getattr(np.random, name)(np.arange(10)))
        _same(ours.integers(1000, size=3), theirs.integers(1000, size=3))
    ss, nss = xnp.random.SeedSequence(xnp.arange(4)), np.random.SeedSequence(np.arange(4))
    np.testing.assert_array_equal(ss.generate_state(4), nss.generate_state(4))
    assert isinstance(np.random.default_rng(0).bit_generator, xnp.random.PCG64)
    assert isinstance(nss, xnp.random.SeedSequence)


def test_bit_generator_swap_and_mtrand():
    orig = xnp.random.get_bit_generator()
    try:
        xnp.random.set_bit_generator(xnp.random.PCG64(0))
        assert isinstance(xnp.random.mtrand._rand._bit_generator, xnp.random.PCG64)
        got = xnp.random.standard_normal(3)
        np.random.set_bit_generator(np.random.PCG64(0))
        _same(got, np.random.standard_normal(3))
    finally:
        np.random.set_bit_generator(orig)
    with pytest.raises(ValueError):
        xnp.random.mtrand.dirichlet(xnp.array([5.4e-01, -1.0e-16]))


def test_state_round_trips():
    ours, theirs = xnp.random.RandomState(5), np.random.RandomState(5)
    state, nstate = ours.__getstate__(), theirs.__getstate__()
    np.testing.assert_array_equal(state["state"]["key"], nstate["state"]["key"])
    first = ours.standard_normal()
    ours.__setstate__(state)
    assert ours.standard_normal() == first == theirs.standard_normal()
    for rng in (xnp.random.RandomState(xnp.random.MT19937(0)),
                xnp.random.Generator(xnp.random.PCG64DXSM(0))):
        ctor, args, st = rng.__reduce__()      # an old pickle holds the name only
        copy = ctor(args[0].__class__.__name__)
        if st is None:                          # a Generator's state is its bit generator's
            copy.bit_generator.state = args[0].state
        else:
            copy.__setstate__(st)
        assert type(copy) is type(rng)
        again = pickle.loads(pickle.dumps(rng))
        draw = "random_sample" if hasattr(rng, "random_sample") else "random"
        first = getattr(rng, draw)(2)
        _same(getattr(copy, draw)(2), np.asarray(first))
        _same(getattr(again, draw)(2), np.asarray(first))


# -- NEP 50 ----------------------------------------------------------------------------

_INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@pytest.mark.parametrize("comp", [operator.eq, operator.ne, operator.le, operator.lt,
                                  operator.ge, operator.gt])
def test_comparisons_with_out_of_range_python_ints(comp):
    for sctype in _INTS:
        for other in [-200, -1, 0, 9, 10, 11, 2**63, 200]:
            xs = getattr(xnp, sctype.__name__)
            assert comp(xs(10), other) == comp(sctype(10), other) == comp(10, other)
            assert type(comp(xs(10), other)) is type(comp(sctype(10), other))
            got = comp(xnp.array([10, 10], dtype=sctype), other)
            want = comp(np.array([10, 10], dtype=sctype), other)
            _same(got, want)
            _same(comp(other, xnp.array([10, 10], dtype=sctype)),
                  comp(other, np.array([10, 10], dtype=sctype)))


@pytest.mark.parametrize("dt", ["?", "i1", "u1", "i8", "u8", "e", "f", "d", "F"])
@pytest.mark.parametrize("value", [True, 1, -1, 300, 2**63, 2**64, 1.5, 1e300, 1j])
def test_python_scalars_are_weak(dt, value):
    for op in (operator.add, operator.mul, operator.truediv, operator.lt):
        for make in (lambda m: m.array([1, 2], dtype=dt), lambda m: m.dtype(dt).type(1)):
            with warnings.catch_warnings(record=True) as wx:
                warnings.simplefilter("always")
                got = _outcome(lambda: op(make(xnp), value))
            with warnings.catch_warnings(record=True) as wn:
                warnings.simplefilter("always")
                want = _outcome(lambda: op(make(np), value))
            assert got[0] == want[0], (op, got, want)
            if want[0] == "ok":
                _same(got[1], want[1])
            else:
                assert got[1] is want[1]
            assert {w.category for w in wx} == {w.category for w in wn}
    assert xnp.result_type(np.dtype(dt), value) == np.result_type(np.dtype(dt), value)
    assert xnp.result_type(np.dtype(dt).type(1), value) == np.result_type(
        np.dtype(dt).type(1), value)
    assert _outcome(lambda: xnp.can_cast(value, dt))[:2] == _outcome(
        lambda: np.can_cast(value, dt))[:2]


@pytest.mark.parametrize("dtype", ["u1", "i1", "f4", "?", "i8"])
@pytest.mark.parametrize("scalar", [1, 300, -1, 1.5, True, 1j])
def test_python_scalar_with_ufunc_dtype_as_numpy(dtype, scalar):
    a = np.array([1, 0], dtype=dtype)
    try:
        expected = np.add(a, scalar, dtype=dtype)
    except Exception as e:           # noqa: BLE001 (the oracle's exception is the check)
        with pytest.raises(type(e)):
            xnp.add(xnp.asarray(a), scalar, dtype=dtype)
        return
    got = xnp.add(xnp.asarray(a), scalar, dtype=dtype)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(np.asarray(got), expected)
