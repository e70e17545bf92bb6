"""Selection primitives: ``select_n`` (NumPy's where and choose) and ``clamp``, with all
their rules. Both broadcast their operands like NumPy ufuncs and promote the cases'
dtypes; a boolean selector picks the second case where it is True, as ``np.where``.
"""

from __future__ import annotations

import numpy as np

from transforms.core import ShapedArray
from xnp._dtypes import result_dtype_of_avals
from xnp.lax._base import broadcast_shapes_cached, primitive
from xnp.lax._elementwise import _aval


def _select_n_eval(which, *cases):
    if which.dtype.kind not in "bi":
        raise TypeError(f"select_n: selector must be bool or int, got {which.dtype.name}")
    if which.dtype.kind == "b" and len(cases) != 2:
        raise TypeError(f"select_n: a boolean selector needs 2 cases, got {len(cases)}")
    shape = broadcast_shapes_cached(tuple(a.shape for a in (which, *cases)))
    dt = result_dtype_of_avals(cases)
    return ShapedArray(shape, dt, all(c.weak_type for c in cases))


_CASE_DTYPES: dict = {}      # (selector dtype, each case's dtype or Python type) -> dtype
# np.where without its __array_function__ dispatch step (the values are NumPy's or Python's)
_np_where = getattr(np.where, "_implementation", np.where)


def _case_key(c):
    t = type(c)
    if t in (bool, int, float, complex):
        return t
    dtype = getattr(c, "dtype", None)
    return t if dtype is None else dtype


def _select_n_impl(which, *cases):
    if len(cases) == 2 and type(cases[0]) is type(cases[1]) is np.ndarray and \
            cases[0].dtype == cases[1].dtype:
        return _np_where(which, cases[1], cases[0])     # the common case: no promotion
    # The result dtype depends on the cases' dtypes (a Python number's type: weak) only.
    key = (getattr(which, "dtype", type(which)), *map(_case_key, cases))
    dt = _CASE_DTYPES.get(key)
    if dt is None:
        dt = _select_n_eval(_aval(which), *map(_aval, cases)).dtype
        if len(_CASE_DTYPES) < 1024:
            _CASE_DTYPES[key] = dt
    if len(cases) == 2:
        return np.asarray(np.where(which, cases[1], cases[0]), dtype=dt)
    return np.asarray(np.choose(which, cases), dtype=dt)


select_n_p = primitive("select_n", impl=_select_n_impl, abstract_eval=_select_n_eval)


def _clamp_eval(lo, x, hi):
    shape = broadcast_shapes_cached((lo.shape, x.shape, hi.shape))
    return ShapedArray(shape, result_dtype_of_avals([lo, x, hi]), x.weak_type)


def _clamp_impl(lo, x, hi):
    dt = _clamp_eval(_aval(lo), _aval(x), _aval(hi)).dtype
    return np.asarray(np.minimum(np.maximum(x, lo), hi), dtype=dt)


clamp_p = primitive("clamp", impl=_clamp_impl, abstract_eval=_clamp_eval)

def _tie_weight_eval(x, y, *, less, dtype):
    return ShapedArray(broadcast_shapes_cached((x.shape, y.shape)), dtype)


def _tie_weight_impl(x, y, *, less, dtype):
    w = np.asarray(np.less(x, y) if less else np.greater(x, y)).astype(dtype)
    tie = np.equal(x, y)
    if tie.any():              # ties are rare: one pass over a boolean array finds them
        np.putmask(w, tie, 0.5)
    return w


# The derivative weight of max(x, y) with respect to x (min with ``less``): 1 where x
# wins strictly, 1/2 on a tie, 0 where it loses or either is NaN; in ``dtype``. One
# primitive instead of two comparisons, two conversions and two arithmetic ops: a ReLU's
# gradient builds one temporary of the activations' size, not four.
tie_weight_p = primitive("tie_weight", impl=_tie_weight_impl, abstract_eval=_tie_weight_eval)

__all__ = ["select_n_p", "clamp_p", "tie_weight_p"]


# --- derivatives -------------------------------------------------------------------------------
from transforms.ad import tangent_aval  # noqa: E402
from transforms.core import get_aval  # noqa: E402
from xnp.lax._ad_util import (  # noqa: E402
    Zero,
    defjvp_zero,
    fit,
    instantiate,
    is_undefined,
    unbroadcast,
)
from xnp.lax._elementwise import add_p, eq_p, gt_p, lt_p, max_p, mul, select  # noqa: E402
from xnp.lax._structural import convert_element_type_p  # noqa: E402


def _clamp_jvp(lo, x, hi, t_lo, t_x, t_hi):
    """clamp = min(max(x, lo), hi): the tangent of whichever operand the value came from."""
    out = clamp_p.bind(lo, x, hi)
    oaval = get_aval(out)
    if np.dtype(oaval.dtype).kind not in "fc":
        return out, Zero(tangent_aval(oaval))
    zero = Zero(tangent_aval(oaval))
    ts = [fit(instantiate(t), oaval) if type(t) is not Zero else None
          for t in (t_lo, t_x, t_hi)]
    if all(t is None for t in ts):
        return out, zero
    t_lo, t_x, t_hi = [np.zeros((), oaval.dtype) if t is None else t for t in ts]
    from_lo = gt_p.bind(lo, x)
    from_hi = lt_p.bind(hi, max_p.bind(x, lo))
    return out, select(from_hi, t_hi, select(from_lo, t_lo, t_x))


clamp_p.jvp = lambda primals, tangents: _clamp_jvp(*primals, *tangents)


def _select_n_transpose(ct, which, *cases):
    # A true zero, not ct * 0: an infinite cotangent (1 / count of an empty slice) sent
    # to the case not taken must not come back as NaN.
    zero = np.zeros((), get_aval(ct).dtype)
    out = [None]
    for i, c in enumerate(cases):
        if not is_undefined(c):
            out.append(None)
            continue
        if len(cases) == 2:
            picked = select(which, ct, zero) if i == 1 else select(which, zero, ct)
        else:
            picked = select(eq_p.bind(which, i), ct, zero)
        out.append(unbroadcast(picked, c.aval))
    return out


def _select_n_jvp(primals, tangents):
    which, *cases = primals
    out = select_n_p.bind(which, *cases)
    oaval = get_aval(out)
    if all(type(t) is Zero for t in tangents[1:]):
        return out, Zero(tangent_aval(oaval))
    # A zero tangent is made in the output's tangent type: a case may be an integer (a
    # Python int literal, say) whose own tangent type is float0.
    ts = [instantiate(Zero(tangent_aval(oaval))) if type(t) is Zero else fit(t, oaval)
          for t in tangents[1:]]
    return out, select_n_p.bind(which, *ts)


select_n_p.jvp = _select_n_jvp
select_n_p.transpose = _select_n_transpose
defjvp_zero(tie_weight_p)


def _tie_weight_composite(x, y, *, less, dtype):
    def weight(mask):
        return convert_element_type_p.bind(mask, new_dtype=dtype, weak_type=False)
    wins = (lt_p if less else gt_p).bind(x, y)
    return add_p.bind(weight(wins), mul(weight(eq_p.bind(x, y)), np.array(0.5, dtype)))


# --- batching and lowering --------------------------------------------------------------------
from transforms.lowering import lower_composite  # noqa: E402
from xnp.lax._batch_util import batch_elementwise  # noqa: E402
from xnp.lax._lower_util import np_maximum, np_minimum  # noqa: E402

batch_elementwise(select_n_p)
batch_elementwise(clamp_p)
batch_elementwise(tie_weight_p)


def _full(ctx, like, value):
    return ctx.full(like.shape, value, like.dtype)


def _select_n_lower(ctx, which, *cases):
    out = ctx.avals_out[0]
    cases = [ctx.broadcast(ctx.convert(c, out.dtype), out.shape) for c in cases]
    which = ctx.broadcast(which, out.shape)
    if len(cases) <= 2:                 # a nonzero selector picks the second (np.where)
        return ctx.select(ctx.convert(which, np.bool_), cases[-1], cases[0])
    picked = cases[0]
    for i, case in enumerate(cases[1:], 1):
        picked = ctx.select(ctx.compare(which, _full(ctx, which, i), "EQ"), case, picked)
    return picked


def _clamp_lower(ctx, lo, x, hi):
    out = ctx.avals_out[0]
    lo, x, hi = (ctx.broadcast(ctx.convert(v, out.dtype), out.shape) for v in (lo, x, hi))
    return np_minimum(ctx, np_maximum(ctx, x, lo), hi)


select_n_p.lower, clamp_p.lower = _select_n_lower, _clamp_lower
tie_weight_p.lower = lower_composite(_tie_weight_composite)
