"""r_, c_, s_, index_exp, mgrid, ogrid, vectorize, apply_along_axis, row_stack,
real_if_close and the legacy polynomial functions against NumPy, on expressions written
once and evaluated with ``m`` bound to numpy and to xnp."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import xnp
from transforms import ConcretizationTypeError
from transforms.test_util import check_grads


def _ifbig(x):
    return x if x > 1 else 0.5          # first result int: later ones cast to int


def _mul(a, b=2):
    return a * b


_ENV = {"np": np, "ifbig": _ifbig, "mul": _mul}


def _same(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    if type(want) in (float, int):         # poly([]) is the Python float 1.0
        assert type(got) is type(want) and got == want
        return
    g = np.asarray(got)
    assert g.dtype == np.asarray(want).dtype, (g.dtype, np.asarray(want).dtype)
    assert g.shape == np.shape(want)
    np.testing.assert_allclose(g, want, rtol=1e-9, atol=1e-12)


def _check(expr: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = eval(expr, {**_ENV, "m": np})
        except Exception as exc:
            with pytest.raises(type(exc)):
                eval(expr, {**_ENV, "m": xnp})
            return
        _same(eval(expr, {**_ENV, "m": xnp}), want)


_CONCAT = [
    "m.r_[1:4, 0, [7, 8]]", "m.r_[0:1:5j]", "m.r_[-1:1:6j, [0] * 3, 5, 6]",
    "m.r_['0,2', [1, 2, 3], [4, 5, 6]]", "m.r_['1', np.ones((2, 2)), np.zeros((2, 1))]",
    "m.r_[np.ones((2, 2)), np.zeros((1, 2))]", "m.c_[[1, 2, 3], [4, 5, 6]]",
    "m.c_[np.array([[1, 2, 3]]), 0, 0, np.array([[4, 5, 6]])]",
    "m.r_[1, 2, 3]", "m.r_[1.5, 2]", "m.r_[np.array([1, 2], np.int32), 3]",
    "m.r_[np.array([1, 2], np.float32), 3.5]", "m.r_[np.array([1, 2], np.int8), 300]",
    "m.r_[True, False]", "m.r_[np.array([1, 2], np.float32), np.array([1.0])]",
    "m.r_['0,2,0', [1, 2, 3], [4, 5, 6]]", "m.r_['1,2,0', [1, 2, 3], [4, 5, 6]]",
    "m.r_['0,3,1', [1, 2], [4, 5]]", "m.r_['0,2,-1', [1, 2], [4, 5]]",
    "m.r_['1,3,-2', [1, 2], [3, 4]]", "m.r_['-1', np.ones((2, 2)), np.zeros((2, 1))]",
    "m.r_['r', [1, 2], [3, 4]]", "m.r_['c', [1, 2], [3, 4]]", "m.r_['r', np.ones((2, 2))]",
    "m.r_['c', 5]", "m.c_['r', [1, 2], [3, 4]]", "m.r_['r', np.ones((2, 2, 2))]",
    "m.r_[()]", "m.r_[[]]", "m.r_[1:1]", "m.r_[0:10:3, 0.5]", "m.r_[2:0:-0.5]",
    "m.r_[0:1:0.25]", "m.r_[0.0:1:4j]", "m.r_[:3]", "m.r_[1:5:2j]", "m.r_[0:3, 1j]",
    "m.r_[1 + 2j, 3]", "m.r_[np.ones((2, 2)), 1]", "m.r_['a', 1]", "m.r_['0,2,0,1', 1]",
    "m.r_['0', 1, 'foo']", "m.r_[1:3, 'r']", "m.r_['1,x', 1]", "m.r_['3', [1]]",
    "m.r_[1:2:0]", "m.r_['0,2', 1, [2, 3]]", "m.r_['0,2,1', [1, 2], [[3], [4]]]",
    "m.r_[np.uint8(3), np.array([1, 2], np.int16)]", "m.r_[np.float32(3), 2]",
    "m.r_['1,2', [1], [2]]",
    "m.c_[1, 2]", "m.c_[np.array([1, 2]), np.array([[3], [4]])]", "m.c_[0:3, 0:3]",
    "m.c_[np.ones((2, 2, 2)), np.zeros((2, 2, 1))]", "m.c_['0', [1, 2], [3, 4]]",
    "m.c_[[1, 2, 3], 5]", "m.c_[()]", "m.c_[1:4, [[7], [8], [9]]]", "m.c_['1,3,0', [1, 2]]",
]

_GRIDS = [
    "m.mgrid[0:5]", "m.mgrid[0:5, 0:3]", "m.mgrid[-1:1:5j]", "m.mgrid[0:4, 0:1:3j]",
    "m.mgrid[3:0:-1, 1:2]", "m.mgrid[0:1:5j]", "m.mgrid[0:5:2]", "m.mgrid[0:5.0]",
    "m.mgrid[0:2, 0:1:3j]", "m.mgrid[0:3.5:1]", "m.mgrid[:3, :2]", "m.mgrid[1:1]",
    "m.mgrid[0:2, 0:0]", "m.mgrid[()]", "m.mgrid[0:5:-1]", "m.mgrid[0:1:0.3]",
    "m.mgrid[0:4:2j, 0:3]", "m.mgrid[np.int32(0):np.int32(4)]", "m.mgrid[0:3:1.0]",
    "m.mgrid[0:3, 0:2, 0:2]", "m.mgrid[0:1:3j, 0:2:3j]", "m.mgrid[5]", "m.mgrid[0:3, 5]",
    "m.mgrid[1:3,]", "m.mgrid[0:5:-1, 0:2]", "m.mgrid[0:1:0.1, 0:2]",
    "m.mgrid[0:1:1j, 0:2:0j]", "m.mgrid[0:1:1j]", "m.mgrid[0:1:0j]",
    "m.mgrid[np.float32(0):np.float32(1):3j]", "m.mgrid[0:np.float32(1):0.25, 0:2]",
    "m.mgrid[-2:2:5j, 1:3]",
    "m.ogrid[0:5]", "m.ogrid[0:2, 0:1:3j]", "m.ogrid[0:3, 0:2, 0.0:1:2j]", "m.ogrid[()]",
    "m.ogrid[0:3.0, 0:2]", "m.ogrid[1:3,]", "m.ogrid[0:5:-1, 0:2]",
]

_FUNCS = [
    "m.vectorize(ifbig)([2, 0, 3])", "m.vectorize(ifbig)([0.0, 2])",
    "m.vectorize(ifbig, otypes='d')([2, 0])", "m.vectorize(ifbig, otypes=[np.float32])([2, 0])",
    "m.vectorize(mul)([1, 2], b=[[1], [3]])", "m.vectorize(mul, excluded={'b'})([1, 2], b=3)",
    "m.vectorize(lambda a, b: a * b, excluded={1})([1, 2], 3)",
    "m.vectorize(mul)([], 1)", "m.vectorize(mul, otypes=[float])([], 1)",
    "m.vectorize(lambda x: x > 0)([-1, 2])", "m.vectorize(mul)(3, 4)",
    "m.vectorize(lambda a: (a, a * 1.5))([1, 2])",
    "m.vectorize(mul)(np.ones((2, 3)), np.arange(3))",
    "m.vectorize(mul)(np.ones((2, 3)), np.arange(2))", "m.vectorize(mul, otypes='if')([1])",
    "m.vectorize(mul, otypes='?z')",
    "m.vectorize(lambda a: a.sum() + 0.0, signature='(n)->()')(np.ones((3, 4)))",
    "m.vectorize(lambda a, b: a @ b, signature='(m,n),(n)->(m)')"
    "(np.ones((2, 3, 4)), np.arange(4.0))",
    "m.vectorize(lambda a: (a.min(), a.max()), signature='(n)->(),()')"
    "(np.arange(6).reshape(2, 3))",
    "m.vectorize(lambda a: a[::-1], signature='(n)->(n)')(np.arange(6).reshape(2, 3))",
    "m.vectorize(lambda a: a, signature='(n)->(n')(np.arange(6))",
    "m.vectorize(lambda a, b: a + b, signature='(n),(n)->(n)')(np.arange(3), np.arange(4))",
    "m.vectorize(lambda a: a, signature='(n),(n)->(n)')(np.arange(3))",
    "m.vectorize(lambda a: a.sum(), signature='(n)->(m)')(np.arange(3))",
    "m.vectorize(lambda a: a, signature='(n)->(n)')(5)",
    "m.vectorize(lambda a: m.stack([a, a]), signature='()->(k)')(np.arange(3))",
    "m.vectorize(lambda a: a, signature='(n)->(n)', otypes=[float])(np.ones((0, 2)))",
    "m.vectorize(lambda a: a, signature='(n)->(k)', otypes=[float])(np.ones((0, 2)))",
    "m.apply_along_axis(lambda v: v.sum(), 0, np.arange(6).reshape(2, 3))",
    "m.apply_along_axis(lambda v: v[:2], 1, np.arange(12).reshape(2, 3, 2))",
    "m.apply_along_axis(lambda v: m.outer(v, v), 1, np.arange(6.0).reshape(2, 3))",
    "m.apply_along_axis(lambda v, k: v * k, -1, np.arange(6.0).reshape(2, 3), 3)",
    "m.apply_along_axis(lambda v: v.sum(), 2, np.ones((2, 3)))",
    "m.apply_along_axis(lambda v: v.sum(), 0, np.ones((0, 3)))",
    "m.apply_along_axis(lambda v: v.sum(), 1, np.ones((0, 3)))",
    "m.apply_along_axis(lambda v: v > 1, 0, np.arange(4))",
    "m.apply_along_axis(lambda v: v.sum(), 0, 5)",
    "m.apply_along_axis(lambda v: v[0] if v[0] > 2 else 0.5, 1, np.arange(6).reshape(3, 2))",
    "m.real_if_close([1 + 1e-15j, 2])", "m.real_if_close([1 + 1e-10j, 2])",
    "m.real_if_close(np.array([1 + 1e-7j], np.complex64))",
    "m.real_if_close([1 + 1e-10j], tol=1e-9)", "m.real_if_close([1, 2])",
    "m.real_if_close(1 + 0j)",
    "m.polyval([1, 2, 3], 2)", "m.polyval([1, 2, 3], [1.5, 2])", "m.polyval([], 2.0)",
    "m.polyval(np.array([1, 2], np.float32), 2)", "m.polyval([1, 2], np.array([1, 2], np.int32))",
    "m.polyval([[1, 2]], 2)", "m.polyval([1, 0], np.inf)",
    "m.roots([1, -3, 2])", "m.roots([0, 1, -3, 2, 0, 0])", "m.roots([1, 0, 1])", "m.roots([5])",
    "m.roots([])", "m.roots([[1, 2]])", "m.roots([1, 2])", "m.roots([1, 2, 3])",
    "m.roots(np.array([1, -3, 2], np.float32))", "m.roots([0, 0])", "m.roots([1j, 1])",
    "m.roots([True, False])", "m.roots(np.array([1, -3, 2], np.int32))",
    "m.polyfit([0, 1, 2, 3], [1, 3, 5, 7.5], 1)",
    "m.polyfit([0, 1, 2, 3], [1, 3, 5, 7.5], 2, full=True)",
    "m.polyfit([0, 1, 2, 3, 4], [1, 3, 5, 7.5, 8], 2, cov=True)",
    "m.polyfit([0, 1, 2, 3, 4], [1, 3, 5, 7.5, 8], 1, cov='unscaled')",
    "m.polyfit([0, 1, 2, 3], [[1, 3], [5, 7.5], [1, 1], [2, 0]], 1)",
    "m.polyfit([0, 1, 2, 3], [1, 3, 5, 7.5], 1, w=[1, 2, 1, 1])",
    "m.polyfit([0, 1, 2, 3, 4], [[1, 3], [5, 7.5], [1, 1], [2, 0], [1, 1]], 1, cov=True)",
    "m.polyfit([0, 1, 2], [1, 2, 3], -1)", "m.polyfit([0, 1, 2], [1, 2], 1)",
    "m.polyfit(np.array([0, 1, 2], np.float32), np.array([1, 2, 4], np.float32), 1)",
    "m.polyfit([0, 1, 2], [1 + 1j, 2, 4], 1)", "m.polyfit([0, 1, 2, 3], [1, 2, 4, 3], 1, w=[[1]])",
    "m.polyfit([0, 1, 2, 3], [1, 2, 4, 3], 3, cov=True)",
    "m.polyfit([0, 1, 2, 3], [1, 2, 4, 3], 5, full=True)",
    "m.polyfit([0, 1, 2, 3], [1, 2, 4, 3], 1, full=True, w=[1, 2, 3, 4])",
    "m.polyfit([[0, 1]], [1, 2], 1)", "m.polyfit([], [], 1)",
    "m.poly([1, 2, 3])", "m.poly(np.array([[1, 2], [3, 4.0]]))", "m.poly([])",
    "m.poly([1 + 1j, 1 - 1j])", "m.poly([1 + 1j, 2])", "m.poly(np.array([1, 2], np.float16))",
    "m.poly(np.array([1, 2], np.float32))", "m.poly([True])",
    "m.poly(np.array([[0, -1], [1, 0.0]]))", "m.poly(np.ones((2, 3)))",
    "m.polyder([1, 2, 3, 4], 2)", "m.polyder([3], 1)", "m.polyder([1, 2], -1)",
    "m.polyint([1, 2, 3], 2, k=[1, 2])", "m.polyint([1, 2, 3], 2, k=3)",
    "m.polyadd([1, 2], [1, 2, 3])", "m.polysub([1, 2], [1, 2, 3])", "m.polyadd([[1, 2]], [1])",
    "m.polymul([0, 1, 2], [3, 4])", "m.polymul([], [1])", "m.polymul([0, 0], [1, 2])",
    "m.polymul(2, [1, 2])", "m.polymul([1, 2], np.array([3], np.float32))",
    "m.polyint([1, 2], 2, k=[1, 2, 3])", "m.polyint([1, 2], 3, k=[1, 2])", "m.polyint(3)",
    "m.polyint([1, 2], 3, k=[1, 2, 3])", "m.polyint([1, 2], -1)", "m.polyint([1 + 1j, 2])",
    "m.polyint(np.array([1, 2], np.float32))", "m.polyint([], 1)", "m.polyder(3)",
    "m.polyder([1, 2, 3], 0)", "m.polyder([True, 2])", "m.polyder([1, 2, 3], 5)",
    "m.polyval(3, 2)", "m.polyadd(1, 2)", "m.polysub(np.array([1], np.int8), [1, 2])",
    "m.vander(np.array([1, 2], np.float32))", "m.vander(np.array([1, 2], np.int8), 3)",
    "m.vander([True, False])", "m.vander([1 + 1j, 2])", "m.vander(np.array([1, 2], np.uint64))",
]


@pytest.mark.parametrize("expr", _CONCAT)
def test_r_and_c_match_numpy(expr):
    _check(expr)


@pytest.mark.parametrize("expr", _GRIDS)
def test_mgrid_and_ogrid_match_numpy(expr):
    _check(expr)


@pytest.mark.parametrize("expr", _FUNCS)
def test_functions_match_numpy(expr):
    _check(expr)


def test_s_and_index_exp():
    assert xnp.s_[1:2, ::3] == np.s_[1:2, ::3] and xnp.s_[4] == np.s_[4]
    assert xnp.s_[..., None] == np.s_[..., None] and xnp.s_[()] == ()
    assert xnp.index_exp[2] == np.index_exp[2] == (2,)
    assert xnp.index_exp[1:2, 3] == np.index_exp[1:2, 3]
    a = xnp.arange(10)
    np.testing.assert_array_equal(a[xnp.s_[2:8:2]], np.arange(10)[2:8:2])


def test_r_and_c_concatenate_traced_pieces():
    f = xnp.jit(lambda x: xnp.r_[x, 0.0, x * 2])
    np.testing.assert_array_equal(f(np.arange(3.0)), np.r_[np.arange(3.0), 0, 2 * np.arange(3.0)])
    g = lambda x: xnp.sum(xnp.r_[x, 0.0, x * 2] ** 2) + xnp.sum(xnp.c_[x, x, 1:4] * 3)  # noqa: E731
    check_grads(g, (np.arange(3.0),), order=2)
    assert xnp.vmap(lambda x: xnp.r_[x, 1.0, x])(np.ones((4, 2))).shape == (4, 5)


def test_vectorize_differentiates_through_python_control_flow():
    square_or_negate = xnp.vectorize(lambda u: u * u if u > 0 else -u)
    check_grads(lambda t: square_or_negate(t), (np.array([1.5, -2.0, 3.0]),), order=2)
    mv = xnp.vectorize(lambda a, b: a @ b, signature="(m,n),(n)->(m)")
    rng = np.random.default_rng(0)
    check_grads(lambda a, b: mv(a, b), (rng.random((2, 3, 4)), rng.random(4)), order=1)
    both = xnp.vectorize(lambda a, b: (a * b, a - b))
    check_grads(lambda a, b: both(a, b)[0] + both(a, b)[1] ** 2,
                (rng.random((2, 3)), rng.random(3)), order=1)


def test_vectorize_details():
    v = xnp.vectorize(lambda a: a * 2)
    assert v.__name__ == "<lambda>"
    np.testing.assert_array_equal(xnp.jit(v)(np.arange(3.0)), [0.0, 2.0, 4.0])
    assert xnp.vectorize(_mul, doc="twice").__doc__ == "twice"

    @xnp.vectorize(otypes=[float])
    def half(a):
        return a / 2
    np.testing.assert_array_equal(half([2, 4]), [1.0, 2.0])
    calls = []
    xnp.vectorize(lambda a: calls.append(1) or a)(np.arange(4))
    assert len(calls) == 5          # as NumPy: without otypes or cache=True, the first
    calls.clear()                   # element is called once more to pick the dtype
    xnp.vectorize(lambda a: calls.append(1) or a, cache=True)(np.arange(4))
    assert len(calls) == 4


def test_apply_along_axis_grads():
    rng = np.random.default_rng(1)
    check_grads(lambda a: xnp.apply_along_axis(lambda r: r * r.sum(), 1, a),
                (rng.random((2, 3)),), order=2)
    check_grads(lambda a: xnp.apply_along_axis(lambda r: xnp.outer(r, r), 0, a),
                (rng.random((3, 2)),), order=1)
    check_grads(lambda a: xnp.apply_along_axis(
        lambda r: r[0] if r[0] > r[1] else r[1] * 2, 1, a), (rng.random((4, 2)),), order=1)


def test_polynomial_grads():
    rng = np.random.default_rng(2)
    check_grads(lambda p, x: xnp.polyval(p, x), (rng.random(4), rng.random(3)), order=2)
    check_grads(lambda y: xnp.polyfit(np.linspace(0, 1, 5), y, 2), (rng.random(5),), order=1)
    check_grads(lambda p: xnp.polyder(xnp.polyint(p, 2), 1), (rng.random(3),), order=1)
    check_grads(lambda a, b: xnp.polymul(a, b), (rng.random(3) + 1, rng.random(2) + 1),
                order=2)


def test_value_dependent_functions_need_concrete_values():
    with pytest.raises(ConcretizationTypeError, match="real_if_close"):
        xnp.jit(xnp.real_if_close)(np.array([1 + 0j]))
    with pytest.raises(ConcretizationTypeError, match="roots"):
        xnp.vmap(xnp.roots)(np.ones((2, 3)))
    # Under grad the values are concrete: real_if_close decides, then differentiates.
    check_grads(lambda a: xnp.real_if_close(a + 0j) * a, (np.array([1.0, 2.0]),), order=1)


def test_polyfit_warns_when_rank_deficient():
    with pytest.warns(np.exceptions.RankWarning):
        xnp.polyfit([0, 1, 2, 3], [1, 2, 4, 3], 5)


def test_row_stack_is_a_deprecated_vstack():
    with pytest.warns(DeprecationWarning, match="row_stack"):
        r = xnp.row_stack([[1, 2], [3, 4]])
    np.testing.assert_array_equal(r, np.vstack([[1, 2], [3, 4]]))
