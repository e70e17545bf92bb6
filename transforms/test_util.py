"""``check_grads``: verify derivatives of a function numerically, for users and tests.

Forward mode is compared with central finite differences; reverse mode with forward mode
through the identity ``Re<u, J v> == Re<J^T u, v>`` (the bilinear pairing of JAX's
convention, ``Re(sum(u * v))``), or with finite differences when only reverse mode is
asked for; higher orders by applying the same checks to the JVP and VJP functions
themselves.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from transforms import core
from transforms.autodiff import jvp, vjp
from transforms.tree import tree_flatten, tree_map

__all__ = ["check_grads", "check_jvp", "check_vjp"]

_DEFAULT_EPS = {np.dtype(np.float64): 1e-6, np.dtype(np.complex128): 1e-6,
                np.dtype(np.float32): 1e-2, np.dtype(np.complex64): 1e-2}
_DEFAULT_TOL = {np.dtype(np.float64): 1e-5, np.dtype(np.complex128): 1e-5,
                np.dtype(np.float32): 2e-2, np.dtype(np.complex64): 2e-2}


def _np(x):
    return np.asarray(core.unwrap(x)) if not isinstance(x, (int, float, complex)) \
        else np.asarray(x)


def _rand_like(rng, x):
    a = _np(x)
    if a.dtype.kind == "c":
        return (rng.standard_normal(a.shape) + 1j * rng.standard_normal(a.shape)).astype(
            a.dtype)
    return rng.standard_normal(a.shape).astype(a.dtype)


def _inner(xs, ys) -> float:
    total = 0.0
    for x, y in zip(tree_flatten(xs)[0], tree_flatten(ys)[0]):
        x, y = _np(x), _np(y)
        if x.dtype.kind not in "fc" or y.dtype.kind not in "fc":
            continue
        total += float(np.real(np.sum(x.astype(np.complex128) * y.astype(np.complex128))))
    return total


def _wrap_tree(tree):
    import xnp
    return tree_map(lambda a: xnp.asarray(a), tree)


def _tol(trees, default, table):
    dts = [_np(x).dtype for x in tree_flatten(trees)[0]]
    return max([table.get(d, default) for d in dts] or [default])


def _assert_close(actual, expected, atol, rtol, what):
    for a, e in zip(tree_flatten(actual)[0], tree_flatten(expected)[0]):
        np.testing.assert_allclose(_np(a), _np(e), atol=atol, rtol=rtol,
                                   err_msg=f"check_grads: {what} mismatch")


def check_jvp(f: Callable, args: Sequence, *, eps=None, atol=None, rtol=None, seed=0):
    """JVP of ``f`` at ``args`` against central finite differences."""
    rng = np.random.default_rng(seed)
    eps = eps or _tol(args, 1e-4, _DEFAULT_EPS)
    atol = atol or _tol(args, 1e-5, _DEFAULT_TOL)
    rtol = rtol or atol
    tangents = tree_map(lambda x: _rand_like(rng, x), tuple(args))
    _, t_out = jvp(f, tuple(_wrap_tree(args)), _wrap_tree(tangents))
    plus = tree_map(lambda x, t: _np(x) + eps * t, tuple(args), tangents)
    minus = tree_map(lambda x, t: _np(x) - eps * t, tuple(args), tangents)
    f_plus, f_minus = f(*_wrap_tree(plus)), f(*_wrap_tree(minus))
    numeric = tree_map(lambda a, b: (_np(a) - _np(b)) / (2 * eps), f_plus, f_minus)
    _assert_close(t_out, numeric, atol, rtol, "JVP vs finite differences")


def check_vjp(f: Callable, args: Sequence, *, atol=None, rtol=None, seed=0,
              numeric=False, eps=None):
    """VJP of ``f`` against its JVP through ``Re<u, J v> == Re<J^T u, v>``; with
    ``numeric=True`` (reverse mode only: ``f`` may be a ``custom_vjp`` function, which has
    no JVP) the JVP is taken by central finite differences."""
    rng = np.random.default_rng(seed + 1)
    atol = atol or _tol(args, 1e-5, _DEFAULT_TOL)
    rtol = rtol or atol
    wrapped = _wrap_tree(tuple(args))
    out, vjp_fn = vjp(f, *wrapped)
    tangents = tree_map(lambda x: _rand_like(rng, x), tuple(args))
    cotangent = tree_map(lambda o: _rand_like(rng, o), out)
    if numeric:
        eps = eps or _tol(args, 1e-4, _DEFAULT_EPS)
        plus = tree_map(lambda x, t: _np(x) + eps * t, tuple(args), tangents)
        minus = tree_map(lambda x, t: _np(x) - eps * t, tuple(args), tangents)
        t_out = tree_map(lambda a, b: (_np(a) - _np(b)) / (2 * eps),
                         f(*_wrap_tree(plus)), f(*_wrap_tree(minus)))
    else:
        _, t_out = jvp(f, wrapped, _wrap_tree(tangents))
    ct_in = vjp_fn(_wrap_tree(cotangent))
    lhs = _inner(cotangent, t_out)
    rhs = _inner(ct_in, tangents)
    scale = max(1.0, abs(lhs), abs(rhs))
    if abs(lhs - rhs) > (atol + rtol) * scale:
        raise AssertionError(f"check_grads: VJP and JVP disagree: <u, J v> = {lhs!r} but "
                             f"<J^T u, v> = {rhs!r}")


def check_grads(f: Callable, args: Sequence, order: int = 2,
                modes: Sequence[str] = ("fwd", "rev"), atol=None, rtol=None, eps=None,
                _numeric=None):
    """Check ``f``'s derivatives at ``args`` up to ``order``, in the given modes.

    ``args`` are arrays (NumPy or xnp) or pytrees of them; float64/complex128 inputs give
    tight checks. Raises AssertionError on a mismatch. With ``modes=("rev",)`` reverse
    mode is checked against finite differences, so that ``custom_vjp`` functions (which
    have no forward mode) can be checked, as autograd's and JAX's checkers allow.
    """
    if _numeric is None:
        _numeric = "fwd" not in modes
    args = tuple(_np_tree(a) for a in args)
    if "fwd" in modes:
        check_jvp(f, args, eps=eps, atol=atol, rtol=rtol)
    if "rev" in modes:
        check_vjp(f, args, atol=atol, rtol=rtol, numeric=_numeric, eps=eps)
    if order > 1:
        rng = np.random.default_rng(order)
        if "fwd" in modes:
            tangents = tree_map(lambda x: _rand_like(rng, x), args)

            def f_jvp(*primals):
                return jvp(f, primals, _wrap_tree(tangents))[1]
            check_grads(f_jvp, args, order - 1, ("fwd",), atol, rtol, eps)
        if "rev" in modes:
            out = f(*_wrap_tree(args))
            cotangent = tree_map(lambda o: _rand_like(rng, o), out)

            def f_vjp(*primals):
                return vjp(f, *primals)[1](_wrap_tree(cotangent))
            check_grads(f_vjp, args, order - 1, ("rev",), atol, rtol, eps, _numeric)


def _np_tree(a):
    return tree_map(lambda x: _np(x) if not isinstance(x, np.ndarray) else x, a)


