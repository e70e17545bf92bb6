"""NumPy's ``ufunc.at(a, indices, b=None)`` for every single-output ufunc.

NumPy applies the ufunc unbuffered: an element named ``k`` times by ``indices`` is
updated ``k`` times, in index order, each result cast back to ``a.dtype``. With concrete
indices this is done in rounds: round ``r`` gathers the elements named for the
``r``-th time, applies the ufunc (one call of the ufunc itself, so it differentiates,
batches and warns as the ufunc does) and scatters the results back; the positions within
a round are distinct. ``add``/``multiply``/``maximum``/``minimum``/``subtract`` use one
scatter primitive instead (no rounds, and their indices may be traced).
"""

from __future__ import annotations

import numpy as np

from transforms.core import Tracer
from xnp._util import raw

_SCATTER = {"add": "add", "multiply": "mul", "maximum": "max", "minimum": "min",
            "subtract": "add"}


def _concrete_key(indices):
    """``indices`` as a NumPy index (None where some part of it is traced)."""
    def one(k):
        if isinstance(k, (slice, type(None), type(Ellipsis), int, np.integer, bool)):
            return k
        v = raw(k)
        if isinstance(v, Tracer):
            raise LookupError
        return np.asarray(v)
    try:
        if isinstance(indices, tuple):
            return tuple(one(k) for k in indices)
        if isinstance(indices, list):
            return one(indices)
        return one(indices)
    except LookupError:
        return None


def _scatter(uf, a, indices, b):
    from xnp._ufuncs import negative
    at = a.at[indices]
    name = uf.__name__
    if name == "subtract":
        import xnp
        bv = xnp.asarray(b)
        if bv.dtype == np.bool_ and a.dtype != np.bool_:
            b = bv.astype(a.dtype)      # NumPy's loop is a's: negate in it, not in bool
        return raw(at.add(negative(b)))
    return raw(getattr(at, _SCATTER[name])(b))


def _check_loop(uf, a, b):
    """NumPy's TypeError where ``uf`` has no loop for the operands, raised before the
    indices are looked at (also when they select nothing)."""
    import xnp
    from xnp._ufuncs import _resolve_operands
    if not isinstance(uf._np, np.ufunc):
        return
    vals = [a] if b is None else [a, b if type(b) in (bool, int, float, complex)
                                  else xnp.asarray(b)]
    ops = _resolve_operands([v if type(v) in (bool, int, float, complex) else raw(v)
                             for v in vals])
    if all(isinstance(o, type) or o.kind in "biufc" for o in ops):
        return uf._np.resolve_dtypes(ops + (None,))[-1]
    return None


def ufunc_at(uf, a, indices, b=None):
    """``uf.at(a, indices, b)``: rebinds the xnp array ``a`` to the updated value."""
    from xnp._array import ndarray
    from xnp._writeable import check_writeable
    if uf.nout != 1:
        raise ValueError("Only single output ufuncs supported at this time")
    if uf.nin == 2 and b is None:
        raise ValueError("second operand needed for ufunc")
    if uf.nin == 1 and b is not None:
        raise ValueError("second operand provided when ufunc is unary")
    if type(a) is not ndarray:
        raise TypeError(f"{uf.__name__}.at: the first argument must be an xnp array")
    loop = _check_loop(uf, a, b)
    check_writeable(a)
    from xnp._views import fresh, store_through
    fresh(a)
    key = _concrete_key(indices)
    if uf.__name__ in _SCATTER and (loop is None or loop == a.dtype or key is None):
        # (a wider loop, ``add.at(int8, i, -0.5)``, computes each update in it and casts
        # the result back: the rounds below, where the indices are concrete)
        store_through(a, _scatter(uf, a, indices, b))
        return None
    if key is None:
        raise TypeError(f"xnp.{uf.__name__}.at needs concrete indices (only add, subtract, "
                        "multiply, maximum and minimum accept traced ones)")
    store_through(a, _rounds(uf, a, key, b))
    return None


def _rounds(uf, a, key, b):
    import xnp
    shape, dtype = a.shape, a.dtype
    # Which flat element each indexed position names: NumPy indexing of the positions
    # (static: shapes and concrete indices), with NumPy's IndexErrors.
    pos = np.arange(int(np.prod(shape)), dtype=np.intp).reshape(shape)[key]
    pos = np.asarray(pos)
    flat_pos = pos.reshape(-1)
    x = xnp.reshape(a, (-1,))
    if b is not None:
        b = xnp.asarray(b)
        try:
            np.broadcast_shapes(b.shape, pos.shape)
        except ValueError:
            raise ValueError(f"operands could not be broadcast together with remapped "
                             f"shapes [original->remapped]: {b.shape} and requested "
                             f"shape {pos.shape}") from None
        b = xnp.reshape(xnp.broadcast_to(b, pos.shape), (-1,))
    if flat_pos.size == 0:
        return raw(a)
    # rank[i]: how many earlier entries of flat_pos name the same element.
    order = np.argsort(flat_pos, kind="stable")
    sorted_pos = flat_pos[order]
    starts = np.r_[0, np.flatnonzero(np.diff(sorted_pos)) + 1]
    run_start = np.repeat(starts, np.diff(np.r_[starts, sorted_pos.size]))
    rank = np.empty_like(order)
    rank[order] = np.arange(sorted_pos.size) - run_start
    for r in range(int(rank.max()) + 1):
        sel = np.flatnonzero(rank == r)
        p = flat_pos[sel]
        cur = x[p]
        new = uf(cur) if b is None else uf(cur, b[sel])
        x = x.at[p].set(xnp.asarray(new).astype(dtype, copy=False))
    return raw(xnp.reshape(x, shape))
