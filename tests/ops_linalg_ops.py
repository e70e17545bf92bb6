"""Registry entries for the products: matmul, dot, vdot, inner, outer, tensordot, kron,
vecdot, matvec, vecmat, einsum and einsum_path.

Values are small integers (exact in every dtype, float16 included) with NaN, and for
single sums of products also +-inf: then every summation order gives NumPy's result
exactly, so xnp's contraction order (which differs from NumPy's loops) is not mistaken
for a bug. einsum samples factor sums (distributivity), which inf breaks, so they draw
NaN but no inf. einsum subscripts are generated at random: 1-3 operands, repeated
labels (diagonals), labels summed in one operand only, size-1 broadcasting, ellipses,
explicit and implicit outputs, and the interleaved (operand, sublist) form.
"""

from __future__ import annotations

import warnings

import numpy as np
import strategies as S
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from opinfo import OpInfo, Sample

import xnp

_SPECIALS = [np.nan, np.inf, -np.inf, -0.0]
_INTS = list(range(-3, 4)) * 4


def _values(dtype, inf=True, nan=True):
    """Exact small values of ``dtype``, with NaN and infinities among floats if asked."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind == "u":
        return st.integers(0, 40)
    if dtype.kind == "i":
        return st.integers(-20, 20)
    if dtype.kind == "c":
        return st.builds(complex, st.integers(-3, 3), st.integers(-3, 3))
    specials = [v for v in _SPECIALS if (inf or not np.isinf(v)) and (nan or v == v)]
    return st.sampled_from([float(v) for v in _INTS] + specials)


@st.composite
def _arrays(draw, *shapes, dtypes=S.ALL, inf=True, nan=True):
    """One array per shape, of independently drawn dtypes. Complex products of inf and
    NaN differ between NumPy's loops and BLAS, so a complex result has finite inputs."""
    dts = [draw(st.sampled_from(dtypes)) for _ in shapes]
    if any(dt.kind == "c" for dt in dts):
        inf = nan = False
    return tuple(draw(hnp.arrays(dt, s, elements=_values(dt, inf, nan)))
                 for dt, s in zip(dts, shapes))


_side = st.integers(0, 3)
_mostly = lambda value, other: st.sampled_from([value] * 6 + [other])  # noqa: E731


# --- gufuncs -----------------------------------------------------------------------------------
@st.composite
def _matmul_samples(draw, kwargs=False):
    x2d, y2d = draw(st.booleans()), draw(st.booleans())
    bx, by = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2,
                                                    max_side=3)).input_shapes
    n, k, m = draw(_side), draw(_side), draw(_side)
    k2 = draw(_mostly(k, k + 1))
    xs = (bx + (n, k)) if x2d else (k,)
    ys = (by + (k2, m)) if y2d else (k2,)
    x, y = draw(_arrays(xs, ys))
    kw = {}
    if kwargs:
        kw["dtype"] = draw(st.sampled_from(S.ALL))
        kw["casting"] = draw(st.sampled_from(["same_kind", "unsafe", "safe"]))
    return Sample((x, y), kw)


@st.composite
def _vecdot_samples(draw):
    bx, by = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2,
                                                    max_side=3)).input_shapes
    n = draw(_side)
    x, y = draw(_arrays(bx + (n,), by + (draw(_mostly(n, n + 1)),)))
    axis = draw(st.integers(-1 - min(len(bx), len(by)), -1))
    x, y = np.moveaxis(x, -1, axis), np.moveaxis(y, -1, axis)
    kw = {} if axis == -1 and draw(st.booleans()) else {"axis": axis}
    if draw(st.booleans()):
        kw["keepdims"] = True
    return Sample((x, y), kw)


@st.composite
def _matvec_samples(draw, vector_first):
    bx, by = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2,
                                                    max_side=3)).input_shapes
    n, m = draw(_side), draw(_side)
    n2 = draw(_mostly(n, n + 1))
    shapes = (bx + (n,), by + (n2, m)) if vector_first else (bx + (m, n), by + (n2,))
    return Sample(draw(_arrays(*shapes)))


def _blas_arrays(sa, sb):
    """Operands for numpy.dot and its users: no NaN or inf if one has a single element,
    which NumPy treats as a scalar and scales by with BLAS, where 0 * nan gives 0."""
    special = int(np.prod(sa)) > 1 and int(np.prod(sb)) > 1
    return _arrays(sa, sb, inf=special, nan=special)


# --- dot, vdot, inner, tensordot ------------------------------------------------------------------
@st.composite
def _dot_samples(draw):
    k = draw(_side)
    a = draw(st.integers(0, 3))
    b = draw(st.integers(0, 3))
    sa = draw(S.shapes(a, a, max_side=3))
    sb = list(draw(S.shapes(b, b, max_side=3)))
    if a and b:
        sa = sa[:-1] + (k,)
        sb[max(b - 2, 0)] = draw(_mostly(k, k + 1))
    return Sample(draw(_blas_arrays(sa, tuple(sb))))


@st.composite
def _vdot_samples(draw):
    shape = draw(S.shapes(0, 3, max_side=3))
    size = int(np.prod(shape))
    other = draw(st.sampled_from([shape, shape[::-1], (size,), (size,), (size + 1,)]))
    return Sample(draw(_arrays(shape, other)))


@st.composite
def _inner_samples(draw):
    k = draw(_side)
    sa = draw(S.shapes(0, 2, max_side=3))
    sb = draw(S.shapes(0, 2, max_side=3))
    if draw(st.integers(0, 5)):
        sa, sb = sa + (k,), sb + (draw(_mostly(k, k + 1)),)
    return Sample(draw(_blas_arrays(sa, sb)))


@st.composite
def _tensordot_samples(draw):
    sa = draw(S.shapes(0, 3, max_side=3))
    if draw(st.booleans()):      # axes=N: the last N of a against the first N of b
        n = draw(st.integers(0, len(sa)))
        sb = sa[len(sa) - n:] + draw(S.shapes(0, 2, max_side=3))
        return Sample(draw(_blas_arrays(sa, sb)), {"axes": n})
    na = len(sa)
    picked = draw(st.permutations(range(na)))[:draw(st.integers(0, na))]
    rest = list(draw(S.shapes(0, 2, max_side=3)))
    nb = len(rest) + len(picked)
    where = draw(st.permutations(range(nb)))[:len(picked)]
    sb = [0] * nb
    for ax_a, ax_b in zip(picked, where):
        sb[ax_b] = sa[ax_a]
    fill = iter(rest)
    sb = tuple(sb[i] if i in where else next(fill) for i in range(nb))
    negate = draw(st.booleans())
    axes_a = [a - na if negate else a for a in picked]
    axes_b = [b - nb if negate else b for b in where]
    return Sample(draw(_blas_arrays(sa, sb)), {"axes": (axes_a, axes_b)})


@st.composite
def _any_pair(draw, scalar=False):
    """Two arrays of any shapes and dtypes with all edge values (elementwise products);
    with ``scalar``, one of them is 0-d or a Python scalar and the values are finite:
    NumPy documents dot with a scalar as multiply, but its BLAS path turns 0 * inf and
    0 * nan into 0 for float64, where multiply (and xnp) give nan."""
    def one(max_dims=3):
        arrays = S.arrays(st.sampled_from(S.ALL), S.shapes(0, max_dims, max_side=3),
                          finite=scalar)
        # elements(float32, finite=True) can round 1e300 to inf: filter.
        return arrays.filter(lambda a: not scalar or np.isfinite(a).all())
    x, y = draw(one()), draw(one(0 if scalar else 3))
    if draw(st.integers(0, 5 if not scalar else 1)) == 0:
        y = draw(st.sampled_from([2, 1.5, True, 1j, 0.0]))
    return Sample((x, y) if draw(st.booleans()) else (y, x))


# --- einsum -------------------------------------------------------------------------------------
_LABELS = "abcdeB"
_SUBLIST_OF = {c: (ord(c) - 65 if c.isupper() else ord(c) - 71) for c in _LABELS}


@st.composite
def _einsum_spec(draw, max_ops=3):
    """(subscripts terms, output or None, operand shapes): always a valid einsum."""
    nops = draw(st.integers(1, max_ops))
    sizes = {c: draw(st.sampled_from([0, 1, 2, 2, 3, 3])) for c in _LABELS}
    terms = [draw(st.lists(st.sampled_from(_LABELS), max_size=4)) for _ in range(nops)]
    uses_ellipsis = [draw(st.integers(0, 3)) == 0 for _ in range(nops)]
    ell = iter(draw(hnp.mutually_broadcastable_shapes(
        num_shapes=max(sum(uses_ellipsis), 1), max_dims=2, max_side=3)).input_shapes)
    shapes = []
    for i, term in enumerate(terms):
        shrink = {c: draw(_mostly(False, True)) for c in set(term)}
        dims = [1 if shrink[c] else sizes[c] for c in term]
        if uses_ellipsis[i]:
            pos = draw(st.integers(0, len(term)))
            e = next(ell)
            terms[i] = term[:pos] + ["..."] + term[pos:]
            dims = dims[:pos] + list(e) + dims[pos:]
        shapes.append(tuple(dims))
    output = None
    if draw(st.booleans()):
        seen = sorted({c for t in terms for c in t if c != "..."})
        output = draw(st.permutations(seen))[:draw(st.integers(0, len(seen)))]
        if any(uses_ellipsis):
            output.insert(draw(st.integers(0, len(output))), "...")
    return terms, output, shapes


def _as_string(terms, output):
    text = ",".join("".join(t) for t in terms)
    return text if output is None else text + "->" + "".join(output)


def _as_sublists(terms):
    return [[Ellipsis if c == "..." else _SUBLIST_OF[c] for c in t] for t in terms]


@st.composite
def _einsum_samples(draw, max_ops=3, kwargs=True):
    """Random valid einsum calls. With operands of different dtypes or with ``dtype=``,
    only optimize=False is compared: NumPy's optimized paths promote pairwise and sum
    an operand in its own dtype (bools with logical or), ignoring ``dtype``, so their
    dtypes and values depend on the path; xnp casts every operand to the computation
    dtype first, as NumPy's default einsum does."""
    terms, output, shapes = draw(_einsum_spec(max_ops))
    # An empty sum is 0 even next to NaN in NumPy's loops, but NumPy's own optimized
    # paths factor it into 0 * NaN: keep NaN away from empty operands.
    nan = not any(0 in s for s in shapes)
    dtypes = [draw(st.sampled_from(S.ALL)) for _ in shapes]
    if draw(st.booleans()):
        dtypes = dtypes[:1] * len(shapes)
    ops = [draw(hnp.arrays(dt, s, elements=_values(dt, False, nan)))
           for dt, s in zip(dtypes, shapes)]
    if draw(st.booleans()):
        args = (_as_string(terms, output), *ops)
    else:
        args = tuple(x for op, sub in zip(ops, _as_sublists(terms)) for x in (op, sub))
        if output is not None:
            args += (_as_sublists([output])[0],)
    kw = {}
    if kwargs:
        kw["optimize"] = draw(st.sampled_from([False, True, "greedy", "optimal"]))
        if draw(st.integers(0, 4)) == 0:
            kw["dtype"] = draw(st.sampled_from(S.ALL))
            kw["casting"] = draw(st.sampled_from(["safe", "same_kind", "unsafe"]))
        if len(set(dtypes)) > 1 or "dtype" in kw:
            kw["optimize"] = False
    return Sample(args, kw)


def _einsum_via_path(*args, **kwargs):
    return xnp.einsum(*args, optimize=xnp.einsum_path(*args, **kwargs)[0])


def _numpy_einsum_via_xnp_path(*args, **kwargs):
    """NumPy's einsum run along xnp's path: NumPy checks that the path is valid."""
    return np.einsum(*args, optimize=xnp.einsum_path(*args, **kwargs)[0])


@st.composite
def _einsum_path_samples(draw):
    sample = draw(_einsum_samples(kwargs=False))
    dt = draw(st.sampled_from(S.ALL))    # one dtype: see _einsum_samples
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")         # complex to real casts
        args = tuple(a.astype(dt) if isinstance(a, np.ndarray) else a for a in sample.args)
    optimize = draw(st.sampled_from([False, True, "greedy", "optimal", ("greedy", 8)]))
    return Sample(args, {"optimize": optimize})


@st.composite
def _explicit_path_samples(draw):
    dt = draw(st.sampled_from(S.ALL))    # one dtype: NumPy promotes pairwise on a path
    k = draw(_side)
    ops = draw(_arrays((2, 3), (3, k), (k, 2), (2,), dtypes=[dt], inf=False, nan=k > 0))
    path = draw(st.sampled_from([[(0, 1), (0, 1), (0, 1)], [(2, 3), (0, 2), (0, 1)],
                                 [(0, 1, 2, 3)], [(1, 2), (0, 1, 2)], [(3, 0), (2, 1), (1, 0)]]))
    return Sample(("ij,jk,kl,l->i", *ops), {"optimize": ["einsum_path", *path]})


# --- out= -------------------------------------------------------------------------------------
def _with_out(fn):
    """Call ``fn`` with ``out`` as an xnp array (it arrives as NumPy's under tracing)."""
    def call(*args, out, **kwargs):
        return fn(*args, out=xnp.asarray(out), **kwargs)
    call.__name__ = fn.__name__
    return call


@st.composite
def _matmul_out_samples(draw):
    s = draw(_matmul_samples())
    x, y = s.args
    shape = np.matmul(np.zeros(x.shape, bool), np.zeros(y.shape, bool)).shape \
        if x.ndim and y.ndim and x.shape[-1] == y.shape[-2 if y.ndim > 1 else 0] else (1,)
    shape = draw(st.sampled_from([shape, shape, (2,) + shape, shape[:-1] + (4,)]))
    return Sample(s.args, {"out": np.zeros(shape, draw(st.sampled_from(S.ALL)))})


@st.composite
def _dot_out_samples(draw):
    x, y = draw(_arrays((2, 3), (3,)))
    dt = draw(st.sampled_from([np.result_type(x, y), np.dtype(np.float32)]))
    shape = draw(st.sampled_from([(2,), (2,), (3,)]))
    return Sample((x, y), {"out": np.zeros(shape, dt)})


@st.composite
def _outer_out_samples(draw):
    x, y = draw(_arrays((2,), (3,)))
    shape = draw(st.sampled_from([(2, 3), (2, 3), (4, 2, 3), (3, 2)]))
    return Sample((x, y), {"out": np.zeros(shape, draw(st.sampled_from(S.ALL)))})


@st.composite
def _einsum_out_samples(draw):
    x, y = draw(_arrays((2, 3), (3,)))
    shape = draw(st.sampled_from([(2,), (2,), (3,)]))
    return Sample(("ij,j->i", x, y), {"out": np.zeros(shape, draw(st.sampled_from(S.ALL)))})


# --- entries ----------------------------------------------------------------------------
F = np.ones
ENTRIES = [
    OpInfo("matmul", _matmul_samples(), errors=[
        Sample((F((2, 3)), F((2, 3)))),                       # core dimension mismatch
        Sample((F(3), F(2))),
        Sample((F((2, 2, 3)), F((3, 3, 2)))),                 # batch dims do not broadcast
        Sample((F(3), 2.0)), Sample((2.0, F(3))),             # 0-d operands
        Sample((F((2, 3)), F((3, 2))), {"dtype": np.int32}),  # same_kind cast of input
        Sample((F((2, 3)), F((3, 2))), {"axis": 0}),
        Sample((F((2, 3)), F((3, 2))), {"keepdims": True}),
        Sample((F((2, 3)), F((3, 2))), {"axes": [(0, 1), (0, 1)]}),
        Sample((F((2, 3)), F((3, 2))), {"axes": [(0, 5), (0, 1), (0, 1)]}),
    ]),
    OpInfo("matmul", _matmul_samples(kwargs=True), id="matmul-dtype"),
    OpInfo("matmul", st.just(Sample((F((2, 3, 4)), F((4, 5))),
                                    {"axes": [(-3, -1), (-2, -1), (-1, -3)]})),
           id="matmul-axes"),
    OpInfo("matmul", _matmul_out_samples(), op=_with_out(xnp.matmul), id="matmul-out"),
    OpInfo("vecdot", _vecdot_samples(), errors=[
        Sample((F((2, 3)), F(4))), Sample((F((2, 3)), 3.0)),
        Sample((F((2, 3)), F((2, 3))), {"axis": 5}),
        Sample((F((2, 3)), F((3, 3)))),
    ]),
    OpInfo("vecdot", st.just(Sample((F((2, 3)), F((2, 3))), {"axes": [0, 0]})),
           id="vecdot-axes"),
    OpInfo("matvec", _matvec_samples(False), errors=[
        Sample((F(3), F(3))), Sample((F((2, 3)), F(2)))]),
    OpInfo("vecmat", _matvec_samples(True), errors=[
        Sample((F(3), F(3))), Sample((F(2), F((3, 4))))]),
    OpInfo("dot", _dot_samples(), errors=[
        Sample((F(3), F(2))), Sample((F((2, 3)), F((2, 3)))),
        Sample((F((2, 3)), F((4, 2, 3))))]),
    OpInfo("dot", _any_pair(scalar=True), id="dot-scalars"),
    OpInfo("dot", _dot_out_samples(), op=_with_out(xnp.dot), id="dot-out"),
    OpInfo("vdot", _vdot_samples(), errors=[Sample((F(3), F(2)))]),
    OpInfo("inner", _inner_samples(), errors=[Sample((F((2, 3)), F((2, 2))))]),
    OpInfo("outer", _any_pair()),
    OpInfo("outer", _outer_out_samples(), op=_with_out(xnp.outer), id="outer-out"),
    OpInfo("kron", _any_pair()),
    OpInfo("tensordot", _tensordot_samples(), errors=[
        Sample((F((2, 3)), F((3, 2))), {"axes": 3}),                # axis out of range
        Sample((F((2, 3)), F((3, 2))), {"axes": ([1], [1])}),       # size mismatch
        Sample((F((2, 3)), F((3, 2))), {"axes": ([1, 0], [0])}),    # length mismatch
        Sample((F((2, 3)), F((3, 2))), {"axes": ([1, 1], [0, 0])}),  # duplicates
        Sample((F((2, 3)), F((3, 2))), {"axes": ([5], [0])}),
        Sample((F((2, 3)), F((3, 2))), {"axes": 1.0}),
    ]),
    OpInfo("einsum", _einsum_samples(), errors=[
        Sample(("ii", F((2, 3)))), Sample(("i,i", F(2), F(3))),
        Sample(("ij->ii", F((2, 2)))), Sample(("ij->k", F((2, 2)))),
        Sample(("ij", F((2, 2, 2)))), Sample(("ijk", F((2, 2)))),
        Sample(("i,j", F(2))), Sample(("i", F(2), F(2))), Sample(("i1", F((2, 2)))),
        Sample(("ij->i", F((2, 3))), {"dtype": np.float32}),
        Sample(("i->", F(2)), {"dtype": np.int32, "casting": "same_kind"}),
        Sample(("..i", F(3))), Sample(("i-i", F(3))), Sample(("...i->", F((2, 3)))),
        Sample(("...i,...i", F((2, 3)), F((5, 3)))), Sample(("i...i...", F((2, 2)))),
        Sample((F((2, 3)), [0, 52])), Sample((F((2, 3)), [0, "a"])), Sample((F(3),)),
        Sample(()),
        Sample(("ij,jk,kl", F((2, 3)), F((3, 3)), F((3, 2))),
               {"optimize": ["einsum_path", (0, 1)]}),
        Sample(("ij,jk,kl", F((2, 3)), F((3, 3)), F((3, 2))),
               {"optimize": [(0, 1), (0, 1)]}),
    ]),
    OpInfo("einsum", _explicit_path_samples(), id="einsum-explicit-path"),
    OpInfo("einsum", _einsum_out_samples(), op=_with_out(xnp.einsum), id="einsum-out"),
    OpInfo("einsum_path", _einsum_path_samples(), op=_einsum_via_path,
           ref=_numpy_einsum_via_xnp_path, errors=[
               Sample(("ij,jk", F((2, 3)), F((4, 4)))),
               Sample(("ij,jk,kl", F((2, 3)), F((3, 3)), F((3, 2))),
                      {"optimize": ["einsum_path", (0, 1)]})]),
]
