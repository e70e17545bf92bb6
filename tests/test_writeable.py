"""NumPy's WRITEABLE flag: read-only results (broadcast_to, sliding_window_view, views of
read-only arrays, setflags / flags.writeable) refuse every kind of in-place write with
NumPy's ValueError, checked against NumPy doing the same."""

import numpy as np
import pytest

import xnp

WRITES = {
    "setitem": lambda a, m: a.__setitem__((0,) * a.ndim, 1),
    "iadd": lambda a, m: a.__iadd__(1),
    "fill": lambda a, m: a.fill(0),
    "sort": lambda a, m: a.sort(),
    "ufunc out": lambda a, m: m.add(a, 1, out=a),
    "sum out": lambda a, m: m.sum(m.ones((2,) + a.shape), axis=0, out=a),
    "copyto": lambda a, m: m.copyto(a, 0),
    "put": lambda a, m: m.put(a, [0], [5]),
    "putmask": lambda a, m: m.putmask(a, a > 0, 0),
    "place": lambda a, m: m.place(a, a > 0, [0]),
    "ufunc.at": lambda a, m: m.add.at(a, 0, 1),
    "flat": lambda a, m: a.flat.__setitem__(0, 3),
}

MAKERS = {
    "broadcast_to": lambda m: m.broadcast_to(m.arange(3.0), (2, 3)),
    "sliding_window_view": lambda m: m.lib.stride_tricks.sliding_window_view(
        m.arange(5.0), 3),
    "setflags": lambda m: _frozen(m.arange(6.0).reshape(2, 3)),
    "flags.writeable": lambda m: _frozen_by_flag(m.arange(6.0).reshape(2, 3)),
    "view of read-only": lambda m: m.broadcast_to(m.arange(3.0), (2, 3))[1],
}


def _frozen(a):
    a.setflags(write=False)
    return a


def _frozen_by_flag(a):
    a.flags.writeable = False
    return a


@pytest.mark.parametrize("write", sorted(WRITES))
@pytest.mark.parametrize("make", sorted(MAKERS))
def test_read_only_refuses_writes_as_numpy(make, write):
    expected = MAKERS[make](np)
    assert not expected.flags.writeable
    if write != "ufunc.at":      # NumPy 2.4's ufunc.at writes into read-only arrays
        with pytest.raises(ValueError, match="read-only"):
            WRITES[write](expected, np)
    a = MAKERS[make](xnp)
    before = np.array(a)
    assert not a.flags.writeable and not a.flags["WRITEABLE"]
    with pytest.raises(ValueError) as xnp_error:
        WRITES[write](a, xnp)
    assert "read-only" in str(xnp_error.value)
    np.testing.assert_array_equal(np.asarray(a), before)


def test_writeable_again_and_copies():
    a = xnp.arange(3.0)
    a.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 1
    a.flags.writeable = True
    a[0] = 7
    assert a[0] == 7 and a.flags.writeable
    b = xnp.broadcast_to(xnp.arange(3), (2, 3)).copy()
    b[0, 0] = 5                       # a copy is writeable, as in NumPy
    assert b[0, 0] == 5
    w = xnp.lib.stride_tricks.sliding_window_view(xnp.arange(4), 2, writeable=True)
    w[0, 0] = 9
    assert w[0, 0] == 9


def test_read_only_results_still_transform():
    f = lambda x: (xnp.broadcast_to(x, (2, 3)) ** 2).sum()        # noqa: E731
    np.testing.assert_allclose(np.asarray(xnp.grad(f)(np.arange(3.0))), [0.0, 4.0, 8.0])
    assert float(xnp.jit(f)(np.arange(3.0))) == 10.0
