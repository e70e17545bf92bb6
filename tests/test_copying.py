"""copyto, putmask and the array-requirement helpers against NumPy (values, dtypes and
errors), and copyto/putmask on traced arrays."""

import numpy as np
import pytest

import xnp


def _both(fn):
    """fn(module) -> array, run with NumPy and xnp: the same array or the same error."""
    results = []
    for module in (np, xnp):
        try:
            results.append(("ok", np.asarray(fn(module))))
        except Exception as e:      # noqa: BLE001 - the exception is the result compared
            results.append(("error", type(e)))
    (kind_n, np_out), (kind_x, xnp_out) = results
    assert kind_n == kind_x, results
    if kind_n == "ok":
        assert np_out.dtype == xnp_out.dtype
        np.testing.assert_array_equal(xnp_out, np_out)
    else:
        assert issubclass(xnp_out, np_out) or np_out is xnp_out


def _putmask(mask, values, dtype=int):
    def run(m):
        a = m.arange(5, dtype=dtype)
        m.putmask(a, mask(a), values)
        return a
    return run


def _copyto(dst, src, **kw):
    def run(m):
        a = m.array(dst)
        m.copyto(a, src, **kw)
        return a
    return run


@pytest.mark.parametrize("case", [
    _putmask(lambda a: a > 2, 1.5), _putmask(lambda a: a > 1, [10, 20]),
    _putmask(lambda a: a > 1, []), _putmask(lambda a: [True, False], 1),
    _putmask(lambda a: a % 2 == 0, [0.5, -1.5], dtype=float),
    _copyto(np.zeros(3, int), 1.5), _copyto(np.zeros(3, int), np.ones(3)),
    _copyto(np.zeros(3, np.int8), 5), _copyto(np.zeros(3), np.ones(3), casting="no"),
    _copyto(np.zeros((2, 3)), [1, 2, 3], where=[[True], [False]]),
    _copyto(np.zeros(2), np.ones(3)), _copyto(np.zeros(3, int), 1.5, casting="unsafe"),
    lambda m: m.require(m.arange(3), dtype=float, requirements=["C", "W"]),
    lambda m: m.require([1], requirements="CF"), lambda m: m.require([1], requirements="X"),
    lambda m: m.asarray_chkfinite([1.0, np.inf]), lambda m: m.asarray_chkfinite([1, 2]),
    lambda m: m.asfortranarray(3.0),
])
def test_matches_numpy(case):
    _both(case)


def test_copyto_and_putmask_rebind_traced_arrays():
    def f(x):
        y = xnp.zeros(3)
        xnp.copyto(y, x * 2, where=[True, False, True])
        xnp.putmask(y, y > 3, x)
        return y.sum()
    x = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(xnp.grad(f)(x), [2.0, 0.0, 1.0])
    np.testing.assert_allclose(xnp.jit(f)(x), f(x))
    with pytest.raises(TypeError, match="xnp.ndarray"):
        xnp.copyto(np.zeros(2), 1.0)


def test_copyto_writes_through_views():
    """copyto into a view (a transpose, a slice, with or without where=) changes its base,
    as in NumPy; overlapping source and destination are read before the write."""
    def run(m, view, where):
        a = m.arange(6, dtype="f4").reshape(2, 3)
        dst = a.T if view == "T" else a[:, :2] if view == "slice" else a[:, ::2]
        src = a[::-1, 1::-1] if view == "slice" else 2.5
        if where is None:
            m.copyto(dst, src)
        else:
            m.copyto(dst, src, where=m.ones(dst.shape, bool) if where else
                     m.arange(dst.size).reshape(dst.shape) % 2 == 0)
        return a
    for view in ("T", "slice", "step"):
        for where in (None, True, False):
            _both(lambda m, v=view, w=where: run(m, v, w))


@pytest.mark.parametrize("value, dtype, casting", [
    (3, "u1", "safe"), (3, "u1", "equiv"), (3, "i8", "equiv"), (3, "i4", "no"),
    (3.0, "f4", "equiv"), (3.0, "f8", "equiv"), (3.0, "i8", "safe"),
    (3.0, "i8", "unsafe"), (1j, "f8", "same_kind"), (True, "u1", "no"), (3, "O", "equiv"),
    (300, "u1", "safe"), (-1, "u1", "unsafe"), (2**80, "i8", "safe"), (2**63, "u8", "safe")])
def test_copyto_python_scalar_casting(value, dtype, casting):
    """Python scalars are weak in copyto: any casting rule takes them into a dtype of their
    kind (an int in range) except 'equiv' into another than their default dtype."""
    _both(lambda m: (lambda a: (m.copyto(a, value, casting=casting), a)[1])(
        m.zeros(3, dtype)))


def test_copyto_float_overflow_warns():
    with pytest.warns(RuntimeWarning):
        xnp.copyto(xnp.zeros(3, "f4"), 2e300, casting="safe")
