"""Casting and ``nditer`` cases from NumPy's own test suite (test_casting_unittests.py,
test_nditer.py), each run with NumPy and with xnp on the same inputs: results, dtypes,
exception types and messages must agree."""

import inspect

import numpy as np
import pytest

import xnp
from xnp._nditer import nested_iters as xnp_nested_iters


def _run(f, m):
    """``f(m)``, or the exception's type and message."""
    try:
        return f(m)
    except Exception as e:  # noqa: BLE001 - the exception is the result compared
        return (type(e), str(e))


def _same(f):
    r_np, r_x = _run(f, np), _run(f, xnp)
    assert r_x == r_np
    return r_np


def _views(m):
    """Views of one array with every combination of reversed axes, transposed."""
    a = m.arange(24).reshape(2, 3, 4)
    out = []
    for dirs in range(8):
        key = tuple(slice(None, None, -1) if dirs & (1 << k) else slice(None)
                    for k in range(3))
        v = a[key]
        out += [v, v.T, v.swapaxes(0, 1), v[:, 1:, ::2]]
    return out


@pytest.mark.parametrize("flags", [[], ["multi_index"], ["c_index"], ["f_index"]])
def test_iteration_follows_memory_order(flags):
    def f(m):
        res = []
        for v in _views(m):
            it = m.nditer(v, flags, [["readonly"]])
            seen = []
            while not it.finished:
                seen.append((int(it[0]), it.multi_index if "multi_index" in flags else
                             it.index if flags else None))
                it.iternext()
            res.append(seen)
        return res
    _same(f)


def test_readwrite_of_reversed_view_writes_back():
    def f(m):
        a = m.arange(12.0).reshape(3, 4)
        v = a[::-1, ::2]
        order = []
        with m.nditer(v, [], [["readwrite"]]) as it:
            for k, x in enumerate(it):
                order.append(float(x))
                x[...] = k
        return order, a.tolist()
    _same(f)


def test_external_loop_chunks_of_views():
    def f(m):
        a = m.arange(24).reshape(2, 3, 4)
        return [[c.tolist() for c in m.nditer(v, ["external_loop"], [["readonly"]])]
                for v in (a[:, :, :-1], a[:, :-1, :], a[::-1], a.T)]
    _same(f)


def test_setting_multi_index_iterindex_iterrange():
    def f(m):
        a = m.arange(24).reshape(2, 3, 4)
        it = m.nditer(a, ["multi_index"])
        it.multi_index = (1, 0, 2)
        first = [int(x) for x in it]
        it = m.nditer(a, ["buffered", "ranged"], order="F", buffersize=3)
        it.iterindex = 5
        j = it.copy()
        second = [int(x) for x in it], [int(x) for x in j]
        it.iterrange = (3, 9)
        third = [int(x) for x in it], it.iterrange
        bad = _run(lambda _: setattr(m.nditer(a), "multi_index", (0, 0, 0)), m)
        return first, second, third, bad
    _same(f)


def test_item_assignment_writes_at_once():
    def f(m):
        a, b, c = m.arange(3), m.arange(3), m.arange(3.0)
        it = m.nditer([a, b, c], [], ["readwrite"])
        with it:
            it[0:2] = (3, 3)
            mid = a.tolist(), b.tolist(), c.tolist()
            it[1] = 12
        deleted = _run(lambda _: it.__delitem__(1), m)
        return mid, a.tolist(), b.tolist(), deleted
    _same(f)


def test_writes_into_operands_reach_the_iterator():
    def f(m):
        a = m.arange(6)
        it = m.nditer([a, None], ["reduce_ok"], [["readonly"], ["readwrite", "allocate"]],
                      op_axes=[[0], [-1]])
        with it:
            it.operands[1][...] = 0
            for x, y in it:
                y[...] += x
            total = int(it.operands[1])
        b = m.arange(6)
        it = m.nditer([b, None], ["buffered", "delay_bufalloc"],
                      [["readonly"], ["allocate", "readwrite"]])
        with it:
            it.operands[1][:] = 1
            it.reset()
            for x, y in it:
                y[...] += x
            res = it.operands[1].tolist()
        return total, res
    _same(f)


def test_operands_of_readonly_and_assign_mapping():
    def f(m):
        a = m.arange(24, dtype="f8").reshape(2, 3, 4).T
        it = m.nditer(a, [], [["readwrite", "updateifcopy"]], casting="same_kind",
                      op_dtypes=[np.dtype("f4")])
        with it:
            it.operands[0][...] = 3
            it.operands[0][...] = 14
        closed = _run(lambda _: it.operands, m)
        return a.tolist(), str(a.dtype), closed[0]
    _same(f)
    x = xnp.arange(4)
    assert xnp.nditer(x).operands[0] is x          # read-only: the array itself


def test_buffered_cast_write_back():
    def f(m):
        a = m.arange(6, dtype="f4").reshape(2, 3)
        with m.nditer(a, ["buffered"], [["readwrite"]], op_dtypes=["f8"],
                      casting="same_kind", buffersize=4) as it:
            for x in it:
                x[...] = x * 2.5
        return a.tolist(), str(a.dtype)
    _same(f)


def test_python_scalars_and_flag_errors():
    for args in [(1.5, [], [["writeonly"]]), (1.5, [], [["readwrite"]]),
                 ("arange", ["c_index", "f_index"], [["readonly"]]),
                 ("arange", [], [["readonly", "writeonly"]]),
                 ("arange", ["external_loop", "multi_index"], [["readonly"]])]:
        def f(m, args=args):
            op = m.arange(3) if args[0] == "arange" else args[0]
            return m.nditer(op, args[1], args[2]) and None
        r = _same(f)
        assert isinstance(r, tuple)


def test_read_only_array_rejects_write_flags():
    def f(m):
        a = m.arange(3)
        a.flags.writeable = False
        return m.nditer(a, [], [["readwrite"]]) and None
    assert isinstance(_same(f), tuple)


def test_close_and_next():
    def f(m):
        it = m.nditer(m.arange(3))
        first = int(next(it))
        it.close()
        return first, _run(lambda _: next(it), m), _run(lambda _: it.operands, m)[0]
    _same(f)


def test_methods_take_self_positionally():
    for name in ("iternext", "close", "copy", "reset", "remove_axis"):
        sig = inspect.signature(getattr(xnp.nditer, name))
        assert sig.parameters["self"].kind is inspect.Parameter.POSITIONAL_ONLY


def test_nested_iters():
    def f(m):
        nest = np.nested_iters if m is np else xnp_nested_iters
        a = m.arange(12).reshape(2, 3, 2)
        i, j = nest(a[:, ::-1], [[0], [1, 2]])
        vals = [[int(x) for x in j] for _ in i]
        b = m.arange(6.0).reshape(2, 3)
        i, j = nest(b, [[0], [1]], op_flags=[["readwrite"]])
        with i, j:
            for _ in i:
                for x in j:
                    x[...] = x + 10
        return vals, b.tolist()
    _same(f)


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind"])
def test_astype_message_for_0d_and_arrays(casting):
    for shape in [(), (2,)]:
        def f(m, shape=shape):
            return m.full(shape, 1.5).astype("i1", casting=casting).tolist()
        r = _same(f)
        assert isinstance(r, tuple)


def test_astype_same_value():
    for v, dt in [(1.5, "i1"), (300, "u1"), (2.0, "i2"), (1e40, "f4"), (-1, "u8")]:
        for shape in [(), (3,)]:
            def f(m, v=v, dt=dt, shape=shape):
                r = m.full(shape, v).astype(dt, casting="same_value")
                return r.tolist(), str(r.dtype)
            _same(f)
