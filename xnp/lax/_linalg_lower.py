"""Lowering of the linear-algebra primitives of ``_linalg.py`` to StableHLO.

``triangular_solve`` is StableHLO's own op. The factorizations call LAPACK through the
typed-FFI custom calls that jaxlib ships (``lapack_<s|d|c|z><routine>_ffi``, registered
with XLA when the first one is lowered: see runtime.require_lapack). Those routines read
and write column-major matrices, which the operand and result layouts ask XLA for, and
map over leading (batch) dimensions themselves. Where LAPACK reports failure
(``info != 0``: not positive definite, no convergence) the results are NaN, as in JAX;
eager evaluation raises numpy.linalg.LinAlgError instead.
"""

from __future__ import annotations

import numpy as np

from transforms import runtime
from transforms.lowering import LoweringContext, Value, i64_array
from xnp.lax._linalg import (
    _real,
    cholesky_p,
    eig_p,
    eigh_p,
    lu_p,
    qr_p,
    svd_p,
    triangular_solve_p,
)
from xnp.lax._lower_util import make_complex, parts
from xnp.lax._reductions import _reduce

_PREFIX = {"float32": "s", "float64": "d", "complex64": "c", "complex128": "z"}
_I32 = np.dtype(np.int32)


def _index_list(values) -> str:
    values = list(values)
    return f"dense<[{', '.join(map(str, values))}]> : tensor<{len(values)}xindex>" \
        if values else "dense<> : tensor<0xindex>"


def _layout(ndim: int, nbatch: int) -> str:
    """Column-major matrices (``nbatch`` + 2 dimensions), row-major vectors and scalars
    per matrix; the batch dimensions outermost."""
    order = [ndim - 2, ndim - 1, *range(ndim - 3, -1, -1)] if ndim == nbatch + 2 else \
        list(range(ndim - 1, -1, -1))
    return _index_list(order)


def _lapack(ctx: LoweringContext, routine: str, operands, results, nbatch: int, **config):
    """A LAPACK FFI custom call; ``config`` holds LAPACK's character flags."""
    dtype = operands[0].dtype
    if runtime.platform() != "cpu":
        raise NotImplementedError(
            f"xnp.linalg under jit runs LAPACK's {routine}, which exists only on the CPU, "
            f"not on {runtime.platform()!r}: call this function outside jit, or compile "
            "for the CPU (unset XNP_PLATFORM)")
    try:
        target = f"lapack_{_PREFIX[dtype.name]}{routine}_ffi"
    except KeyError:
        raise NotImplementedError(f"LAPACK has no {routine} for {dtype}") from None
    runtime.require_lapack()
    shapes = [(r.shape, r.dtype) if isinstance(r, Value) else r for r in results]
    backend = ", ".join(f"{k} = {ord(v)} : ui8" for k, v in config.items())
    attrs = {
        "api_version": "1 : i32",
        "backend_config": '""',
        "call_target_name": f'"{target}"',
        "operand_layouts": f"[{', '.join(_layout(v.ndim, nbatch) for v in operands)}]",
        "result_layouts": f"[{', '.join(_layout(len(s), nbatch) for s, _ in shapes)}]",
        "mhlo.backend_config": "{" + backend + "}",
        "mhlo.frontend_attributes": f'{{num_batch_dims = "{nbatch}"}}',
    }
    return ctx.op("stablehlo.custom_call", list(operands), list(shapes), attrs)


def _nan_unless_ok(ctx, x: Value, info: Value) -> Value:
    """``x`` where LAPACK's ``info`` (one per matrix) is 0, NaN elsewhere."""
    ok = ctx.compare(info, ctx.full(info.shape, 0, _I32), "EQ")
    ok = ctx.broadcast(ok, x.shape, range(info.ndim))
    return ctx.select(ok, x, ctx.full(x.shape, np.nan, x.dtype))


def _triangle(ctx, x: Value, k: int, upper: bool) -> Value:
    """The lower (upper) triangle of the last two dimensions from diagonal ``k``."""
    m, n = x.shape[-2:]
    mask = np.tri(m, n, k, dtype=bool)
    mask = ~np.tri(m, n, k - 1, dtype=bool) if upper else mask
    keep = ctx.broadcast(ctx.constant(mask), x.shape, (x.ndim - 2, x.ndim - 1))
    return ctx.select(keep, x, ctx.full(x.shape, 0, x.dtype))


def _slice(ctx, x: Value, limits) -> Value:
    limits = tuple(limits)
    if limits == x.shape:
        return x
    return ctx.op("stablehlo.slice", [x], (limits, x.dtype), {
        "start_indices": i64_array([0] * x.ndim), "limit_indices": i64_array(limits),
        "strides": i64_array([1] * x.ndim)})


def _pad(ctx, x: Value, shape) -> Value:
    shape = tuple(shape)
    if shape == x.shape:
        return x
    return ctx.op("stablehlo.pad", [x, ctx.constant(np.zeros((), x.dtype))], (shape, x.dtype),
                  {"edge_padding_low": i64_array([0] * x.ndim),
                   "edge_padding_high": i64_array([t - s for t, s in zip(shape, x.shape)]),
                   "interior_padding": i64_array([0] * x.ndim)})


def _conj(ctx, x: Value) -> Value:
    if x.dtype.kind != "c":
        return x
    re, im = parts(ctx, x)
    return make_complex(ctx, re, ctx.unary("negate", im))


def _empty_rule(prim, rule):
    """Matrices with no elements have value-independent results: constants."""
    def lower(ctx, *args, **params):
        if any(0 in a.shape for a in args):
            outs = prim.impl(*[np.zeros(a.shape, a.dtype) for a in args], **params)
            if prim.multiple_results:
                return [ctx.constant(np.asarray(o, av.dtype))
                        for o, av in zip(outs, ctx.avals_out)]
            return ctx.constant(np.asarray(outs, ctx.avals_out[0].dtype))
        return rule(ctx, *args, **params)
    return lower


# --- rules --------------------------------------------------------------------------------------
def _cholesky_lower(ctx, a):
    low, info = _lapack(ctx, "potrf", [a], [a, (a.shape[:-2], _I32)], a.ndim - 2, uplo="L")
    return _nan_unless_ok(ctx, _triangle(ctx, low, 0, upper=False), info)


def _triangular_solve_lower(ctx, a, b, *, left_side, lower, transpose_a, conjugate_a,
                            unit_diagonal):
    if conjugate_a and not transpose_a:
        a = _conj(ctx, a)
    mode = "ADJOINT" if transpose_a and conjugate_a and a.dtype.kind == "c" else \
        "TRANSPOSE" if transpose_a else "NO_TRANSPOSE"
    return ctx.op("stablehlo.triangular_solve", [a, b], (b.shape, b.dtype), {
        "left_side": str(bool(left_side)).lower(), "lower": str(bool(lower)).lower(),
        "unit_diagonal": str(bool(unit_diagonal)).lower(),
        "transpose_a": f"#stablehlo<transpose {mode}>"})


def _scalar(ctx, value, dtype=_I32):
    return ctx.constant(np.asarray(value, dtype))


def _pivots_to_permutation(ctx, piv: Value, m: int) -> Value:
    """The row permutation of LAPACK's sequence of row swaps (0-based ``piv``, (..., k)):
    start from 0..m-1 and swap entries i and piv[i] for i = 0..k-1, in a while loop."""
    lead, k = piv.shape[:-1], piv.shape[-1]
    shape = (*lead, m)
    nd = len(shape)
    iota = ctx.op("stablehlo.iota", [], (shape, _I32), {"iota_dimension": f"{nd - 1} : i64"})
    if k == 0:
        return iota
    col = (*lead, 1)

    def take(x, i):                       # x[..., i:i+1]
        return ctx.op("stablehlo.dynamic_slice", [x, *[_scalar(ctx, 0)] * (nd - 1), i],
                      (col, x.dtype), {"slice_sizes": i64_array(col)})

    def cond(i, perm):
        return ctx.compare(i, _scalar(ctx, k), "LT")

    def body(i, perm):
        p, vi = take(piv, i), take(perm, i)
        at_p = ctx.compare(iota, ctx.broadcast(p, shape), "EQ")
        at_i = ctx.compare(iota, ctx.broadcast(i, shape, ()), "EQ")
        vp = _reduce(ctx, [ctx.select(at_p, perm, ctx.full(shape, 0, _I32))],
                     [_scalar(ctx, 0)], (nd - 1,),
                     lambda acc, x: ctx.binary("add", acc, x))[0]
        vp = ctx.reshape(vp, col)
        perm = ctx.select(at_i, ctx.broadcast(vp, shape),
                          ctx.select(at_p, ctx.broadcast(vi, shape), perm))
        return [ctx.binary("add", i, _scalar(ctx, 1)), perm]

    carry = [((), _I32), (shape, _I32)]
    outs = ctx.op("stablehlo.while", [_scalar(ctx, 0), iota], carry,
                  regions=[ctx.region(carry, cond), ctx.region(carry, body)])
    return outs[1]


def _lu_lower(ctx, a):
    m, n = a.shape[-2:]
    lead = a.shape[:-2]
    lu, ipiv, _ = _lapack(ctx, "getrf", [a], [a, ((*lead, min(m, n)), _I32), (lead, _I32)],
                          len(lead))
    piv = ctx.binary("subtract", ipiv, ctx.full(ipiv.shape, 1, _I32))     # 1-based
    return [lu, piv, _pivots_to_permutation(ctx, piv, m)]


def _qr_lower(ctx, a, *, full_matrices):
    m, n = a.shape[-2:]
    lead = a.shape[:-2]
    k = min(m, n)
    h, tau = _lapack(ctx, "geqrf", [a], [a, ((*lead, k), a.dtype)], len(lead))
    qcols = m if full_matrices else k
    basis = _pad(ctx, h, (*lead, m, qcols)) if qcols > n else _slice(ctx, h, (*lead, m, qcols))
    routine = "ungqr" if a.dtype.kind == "c" else "orgqr"
    q = _lapack(ctx, routine, [basis, tau], [basis], len(lead))[0]
    r = _triangle(ctx, _slice(ctx, h, (*lead, qcols, n)), 0, upper=True)
    return [q, r]


def _eigh_lower(ctx, a, *, lower):
    lead = a.shape[:-2]
    v, w, info = _lapack(ctx, "syevd" if a.dtype.kind == "f" else "heevd", [a],
                         [a, (a.shape[:-1], _real(a.dtype)), (lead, _I32)], len(lead),
                         mode="V", uplo="L" if lower else "U")
    return [_nan_unless_ok(ctx, w, info), _nan_unless_ok(ctx, v, info)]


def _svd_lower(ctx, a, *, full_matrices):
    m, n = a.shape[-2:]
    lead = a.shape[:-2]
    k = min(m, n)
    ucols, vrows = (m, n) if full_matrices else (k, k)
    _, s, u, vh, info = _lapack(
        ctx, "gesdd", [a], [a, ((*lead, k), _real(a.dtype)), ((*lead, m, ucols), a.dtype),
                            ((*lead, vrows, n), a.dtype), (lead, _I32)], len(lead),
        mode="A" if full_matrices else "S")
    return [_nan_unless_ok(ctx, x, info) for x in (u, s, vh)]


def _eig_lower(ctx, a):
    lead, n = a.shape[:-2], a.shape[-1]
    c = np.dtype(np.complex64 if a.dtype in (np.float32, np.complex64) else np.complex128)
    vec = (a.shape, c)
    if a.dtype.kind == "c":
        w, _, v, info = _lapack(ctx, "geev", [a], [((*lead, n), c), vec, vec, (lead, _I32)],
                                len(lead), compute_left="N", compute_right="V")
    else:
        wr, wi, _, v, info = _lapack(ctx, "geev", [a], [((*lead, n), a.dtype)] * 2 +
                                     [vec, vec, (lead, _I32)], len(lead),
                                     compute_left="N", compute_right="V")
        w = make_complex(ctx, wr, wi)
    return [_nan_unless_ok(ctx, w, info), _nan_unless_ok(ctx, v, info)]


for _p, _rule in [(cholesky_p, _cholesky_lower), (triangular_solve_p, _triangular_solve_lower),
                  (lu_p, _lu_lower), (qr_p, _qr_lower), (eigh_p, _eigh_lower),
                  (svd_p, _svd_lower), (eig_p, _eig_lower)]:
    _p.lower = _empty_rule(_p, _rule)
del _p, _rule
