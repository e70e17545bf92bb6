"""``nditer`` and ``broadcast`` against NumPy's on the same operands."""

import numpy as np
import pytest
import strategies as S
from hypothesis import given

import xnp


def _programs():
    """Each takes the module (numpy or xnp) and returns plain Python results."""
    def read_orders(m):
        a = m.arange(6).reshape(2, 3)
        return [[int(x) for x in m.nditer(v, order=o)] for v in (a, a.T, a[:, ::2])
                for o in "KCFA"]

    def readwrite_with(m):
        a = m.arange(6.0).reshape(2, 3)
        with m.nditer(a, op_flags=["readwrite"]) as it:
            for x in it:
                x[...] = 2 * x + 1
        return a.tolist()

    def readwrite_loop_and_view(m):
        a = m.zeros((2, 3))
        row = a[1]
        for x in m.nditer(row, op_flags=["readwrite"]):
            x[...] = 7
        return a.tolist()

    def multi_index_while(m):
        a = m.arange(6).reshape(2, 3)
        it = m.nditer(a, flags=["multi_index", "c_index"])
        seen = []
        while not it.finished:
            seen.append((int(it[0]), it.multi_index, it.index))
            it.iternext()
        return seen

    def external_loop(m):
        a = m.arange(6).reshape(2, 3)
        return [x.tolist() for x in m.nditer(a, flags=["external_loop"], order="F")]

    def allocate_output(m):
        a = m.arange(6).reshape(2, 3)
        it = m.nditer([a, None], op_flags=[["readonly"], ["writeonly", "allocate"]])
        with it:
            for x, y in it:
                y[...] = x * x
            return it.operands[1].tolist()

    def broadcast_operands(m):
        a, b = m.arange(6).reshape(2, 3), m.arange(3)
        return [(int(x), int(y)) for x, y in m.nditer([a, b])]

    def buffered_cast(m):
        a = m.arange(4, dtype=m.int32)
        return [float(x) for x in m.nditer(a, flags=["buffered"], op_dtypes=["float64"])]

    def broadcast_object(m):
        b = m.broadcast(m.array([[1], [2]]), m.array([4, 5, 6]), 7)
        first = next(b)
        index = b.index
        rest = list(b)
        b.reset()
        return (b.shape, b.ndim, b.size, b.numiter, b.index, index,
                [tuple(int(v) for v in t) for t in [first] + rest],
                [int(v) for v in b.iters[0]])

    return [read_orders, readwrite_with, readwrite_loop_and_view, multi_index_while,
            external_loop, allocate_output, broadcast_operands, buffered_cast,
            broadcast_object]


@pytest.mark.parametrize("program", _programs(), ids=lambda p: p.__name__)
def test_matches_numpy(program):
    assert program(xnp) == program(np)


@given(arrays=S.broadcastable_arrays([np.float64, np.int64], n=2))
def test_broadcast_and_nditer_elements_match_numpy(arrays):
    ref = np.broadcast(*arrays)
    got = xnp.broadcast(*[xnp.asarray(a) for a in arrays])
    assert (got.shape, got.size, got.ndim) == (ref.shape, ref.size, ref.ndim)
    np.testing.assert_array_equal([tuple(map(float, t)) for t in got],
                                  [tuple(map(float, t)) for t in ref])
    if ref.size:
        ref_it = [tuple(map(float, t)) for t in np.nditer(list(arrays))]
        got_it = [tuple(map(float, t)) for t in xnp.nditer([xnp.asarray(a) for a in arrays])]
        np.testing.assert_array_equal(got_it, ref_it)


def test_nditer_refuses_traced_operands():
    def f(x):
        return sum(float(v) for v in xnp.nditer(x))
    with pytest.raises(TypeError, match="nditer"):
        xnp.grad(f)(xnp.ones(3))


def test_errors_as_numpy():
    with pytest.raises(ValueError):
        xnp.nditer([xnp.ones((2, 3)), xnp.ones(4)])
    with pytest.raises(ValueError):
        xnp.broadcast(xnp.ones((2, 3)), xnp.ones(4))
