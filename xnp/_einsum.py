"""``einsum`` and ``einsum_path``: NumPy's Einstein summation built from primitives.

Each operand first loses its repeated labels (a diagonal: the repeated axes are merged by
one reshape and read with one strided slice, which is exact) and the labels no other
operand and not the output uses (``reduce_sum``). The operands are then contracted along
a path, one ``dot_general`` per pair, and the result is transposed into the output order.
Plans (parsing, sizes, path) are cached on the subscripts and shapes, so repeated eager
calls only bind primitives.
"""

from __future__ import annotations

import functools
import string
from collections import Counter
from typing import NamedTuple

import numpy as np

from transforms.core import ShapedArray, get_aval
from xnp import lax
from xnp._array import ndarray, wrap_scalar_result
from xnp._dtypes import canonicalize_dtype, result_type
from xnp._einsum_plan import (
    LETTERS,
    greedy_path,
    label_sizes,
    optimal_path,
    optimize_key,
    parse_subscripts,
    split_operands,
    term_size,
)
from xnp._layout import order_letter
from xnp._util import cast_v, full_v, raw, shape_of
from xnp._views import store_through
from xnp._writeable import check_writeable

__all__ = ["einsum", "einsum_path"]

# --- helpers on values, shared with xnp._linalg_ops ------------------------------------------
def strong(v):
    """``v`` with a definite dtype: a Python scalar becomes an array of its default dtype,
    as NumPy's ``asarray`` does for the inputs of its products. The result has ``shape``
    and ``dtype`` attributes (a NumPy array or scalar, or a tracer)."""
    t = type(v)
    if t is np.ndarray:
        return v
    if t in (bool, int, float, complex):
        return np.asarray(v)
    a = get_aval(v)
    return cast_v(v, a.dtype) if a.weak_type else v


def cast(v, dtype):
    """A strong value converted to ``dtype`` (no-op if it has it)."""
    if v.dtype == dtype:
        return v
    return lax.convert_element_type_p.bind(v, new_dtype=dtype, weak_type=False)


def reshape_v(v, shape):
    shape = tuple(shape)
    return v if v.shape == shape else lax.reshape_p.bind(v, new_sizes=shape)


def transpose_v(v, perm):
    perm = tuple(perm)
    if perm == tuple(range(len(perm))):
        return v
    return lax.transpose_p.bind(v, permutation=perm)


# --- execution ------------------------------------------------------------------------------------
class _Tape:
    """The primitives an einsum binds, recorded once per plan on abstract values and
    replayed on the operands, so that an eager call only binds primitives. Values are
    slots: 0..n-1 are the operands, each recorded primitive appends one."""

    def __init__(self, shapes):
        self.avals = [ShapedArray(s, np.float64) for s in shapes]
        self.program: list = []

    def shape(self, slot: int) -> tuple:
        return self.avals[slot].shape

    def bind(self, prim, *slots, **params) -> int:
        self.avals.append(prim.abstract_eval(*(self.avals[s] for s in slots), **params))
        self.program.append((prim, slots, params))
        return len(self.avals) - 1

    def reshape(self, slot: int, shape) -> int:
        shape = tuple(shape)
        if shape == self.shape(slot):
            return slot
        return self.bind(lax.reshape_p, slot, new_sizes=shape)

    def transpose(self, slot: int, perm) -> int:
        perm = tuple(perm)
        if perm == tuple(range(len(perm))):
            return slot
        return self.bind(lax.transpose_p, slot, permutation=perm)


def _replay(plan: _Plan, values: list):
    values = list(values)
    for prim, slots, params in plan.program:
        values.append(prim.bind(*[values[s] for s in slots], **params))
    return values[plan.result]


def _diagonals(tape: _Tape, v: int, labels: list):
    """Take the diagonal of every repeated label: merge its axes, read with a stride."""
    groups: dict = {}
    for i, lab in enumerate(labels):
        groups.setdefault(lab, []).append(i)
    if len(groups) == len(labels):
        return v, list(labels)
    shape = tape.shape(v)
    singles = [p[0] for p in groups.values() if len(p) == 1]
    multi = [(lab, p) for lab, p in groups.items() if len(p) > 1]
    v = tape.transpose(v, singles + [i for _, p in multi for i in p])
    merged = [shape[i] for i in singles] + [shape[p[0]] ** len(p) for _, p in multi]
    v = tape.reshape(v, merged)
    # Element (i, i, ..., i) of a merged axis of size n**k is at i * (1 + n + ... n**(k-1)).
    strides = [1] * len(singles) + [sum(shape[p[0]] ** j for j in range(len(p)))
                                    for _, p in multi]
    v = tape.bind(lax.slice_p, v, start_indices=(0,) * len(merged),
                  limit_indices=tuple(merged), strides=tuple(strides))
    return v, [labels[i] for i in singles] + [lab for lab, _ in multi]


def _sum_labels(tape: _Tape, v: int, labels: list, drop):
    axes = tuple(i for i, lab in enumerate(labels) if lab in drop)
    if not axes:
        return v, labels
    return (tape.bind(lax.reduce_sum_p, v, axes=axes),
            [lab for lab in labels if lab not in drop])


def _squeeze_label(tape: _Tape, v: int, labels: list, lab):
    i = labels.index(lab)
    shape = tape.shape(v)
    return tape.reshape(v, shape[:i] + shape[i + 1:]), labels[:i] + labels[i + 1:]


def _contract_pair(tape: _Tape, x: int, xl: list, y: int, yl: list, keep: set):
    """One dot_general: shared labels still needed are batch dimensions, the other
    shared labels are summed; a size-1 dimension facing a larger one is dropped."""
    for lab in [lab for lab in xl if lab in yl]:
        nx, ny = tape.shape(x)[xl.index(lab)], tape.shape(y)[yl.index(lab)]
        if nx != ny:
            if nx == 1:
                x, xl = _squeeze_label(tape, x, xl, lab)
            else:
                y, yl = _squeeze_label(tape, y, yl, lab)
    x, xl = _sum_labels(tape, x, xl, {lab for lab in xl if lab not in keep and lab not in yl})
    y, yl = _sum_labels(tape, y, yl, {lab for lab in yl if lab not in keep and lab not in xl})
    batch = [lab for lab in xl if lab in yl and lab in keep]
    summed = [lab for lab in xl if lab in yl and lab not in keep]
    dims = ((tuple(map(xl.index, summed)), tuple(map(yl.index, summed))),
            (tuple(map(xl.index, batch)), tuple(map(yl.index, batch))))
    r = tape.bind(lax.dot_general_p, x, y, dimension_numbers=dims)
    return r, batch + [lab for lab in xl if lab not in yl] + [lab for lab in yl
                                                               if lab not in xl]


def _run_path(tape: _Tape, operands: list, out: tuple, path: list) -> int:
    """Contract the (slot, labels) operands along ``path``; the slot of the result."""
    values, labels = [v for v, _ in operands], [list(labs) for _, labs in operands]
    for step in path:
        if len(set(step)) != len(step) or not step:
            raise ValueError(f"einsum: invalid contraction {step} in the path")
        for i in step:
            if not -len(values) <= i < len(values):
                raise IndexError(f"einsum: contraction {step} of the path refers to "
                                 f"operand {i}, but only {len(values)} remain")
        idx = sorted(i % len(values) for i in step)
        group = [(values[i], labels[i]) for i in idx]
        for i in reversed(idx):
            del values[i], labels[i]
        rest = set(out).union(*labels)
        v, vl = group[0]
        for k in range(1, len(group)):
            keep = rest.union(*(g[1] for g in group[k + 1:]))
            v, vl = _contract_pair(tape, v, vl, *group[k], keep)
        values.append(v)
        labels.append(vl)
    if len(values) != 1:
        raise RuntimeError(f"Invalid einsum_path is specified: {len(values) - 1} more "
                           "operands has to be contracted.")
    v, vl = _sum_labels(tape, values[0], labels[0], set(labels[0]) - set(out))
    return tape.transpose(v, [vl.index(lab) for lab in out])


class _Plan(NamedTuple):
    labels: list          # per operand, ellipsis expanded
    reduced: list         # per operand, after diagonals and single-operand sums
    out: tuple
    sizes: dict
    path: list
    program: tuple        # the recorded primitives, see _Tape
    result: int           # the slot holding the result
    out_shape: tuple
    empty_sum: bool       # a summed label has size 0: the result is all zeros


@functools.lru_cache(maxsize=512)
def _plan(text: str, shapes: tuple, opt_key: tuple) -> _Plan:
    labels, out = parse_subscripts(text, shapes)
    sizes = label_sizes(labels, shapes)
    uses = Counter(lab for labs in labels for lab in set(labs))
    reduced = [[lab for lab in dict.fromkeys(labs) if uses[lab] > 1 or lab in out]
               for labs in labels]
    terms = [frozenset(r) for r in reduced]
    kind, arg = opt_key
    if kind == "none":
        path = [tuple(range(len(terms)))]
    elif kind == "path":
        path = [tuple(step) for step in arg]
    else:   # NumPy's search, on NumPy's label sets (before single-operand sums)
        full = [frozenset(labs) for labs in labels]
        if len(full) < 3 or set().union(*full) == set(out):
            path = [tuple(range(len(full)))]
        elif kind not in ("greedy", "optimal"):
            raise KeyError(f"einsum: path name {kind!r} not found (use 'greedy', "
                           "'optimal', a bool or an explicit einsum_path list)")
        else:
            find = greedy_path if kind == "greedy" else optimal_path
            path = find(full, out, sizes, arg)
    tape = _Tape(shapes)
    slots = []
    for i, labs in enumerate(labels):
        slot, labs = _diagonals(tape, i, labs)
        slots.append(_sum_labels(tape, slot, labs, set(labs) - set(reduced[i])))
    result = _run_path(tape, slots, out, path)
    out_shape = tuple(sizes[lab] for lab in out)
    empty_sum = any(n == 0 for lab, n in sizes.items() if lab not in out)
    return _Plan(labels, reduced, out, sizes, path, tuple(tape.program), result, out_shape,
                 empty_sum)


def _check_out_shape(out, shape):
    if type(out) is not ndarray:
        raise TypeError(f"einsum: out must be an xnp array, got {type(out).__name__}")
    if out.shape != shape:
        raise ValueError(f"einsum: the output operand has shape {out.shape}, but the result "
                         f"has shape {shape}")


def _compute_dtype(dtypes: list, dtype, out, casting: str) -> np.dtype:
    """NumPy's rules: compute in ``dtype``, else in out's dtype, else in the operands'
    common dtype; the inputs must cast to it, and out (read and written) both ways."""
    if dtype is None and out is None:
        first = dtypes[0]
        for d in dtypes:        # (a loop: the common call's path)
            if d != first:
                return result_type(*dtypes)
        return first
    target = np.dtype(dtype) if dtype is not None else out.dtype
    for i, d in enumerate(dtypes):
        if not np.can_cast(d, target, casting=casting):
            raise TypeError(f"Iterator operand {i} dtype could not be cast from {d!r} to "
                            f"{target!r} according to the rule '{casting}'")
    if out is not None and not (np.can_cast(target, out.dtype, casting=casting) and
                                np.can_cast(out.dtype, target, casting=casting)):
        raise TypeError(f"Iterator operand {len(dtypes)} dtype could not be cast from "
                        f"{out.dtype!r} to {target!r} according to the rule '{casting}'")
    return target


def einsum(*operands, out=None, optimize=False, dtype=None, order: str = "K",
           casting: str = "safe") -> ndarray:
    """Einstein summation, as :func:`numpy.einsum`.

    Takes ``einsum(subscripts, *operands)`` or the interleaved
    ``einsum(op0, sublist0, op1, sublist1, ..., [sublistout])``; explicit (``->``) and
    implicit outputs, ``...`` broadcasting, repeated labels (diagonals), size-1
    broadcasting of labels. ``optimize`` (False, True, 'greedy', 'optimal', a
    ``(kind, memory_limit)`` pair or an :func:`einsum_path` list) chooses the order of the
    pairwise contractions; False contracts left to right. ``dtype`` and ``out`` follow
    ``casting`` ('safe' by default); with ``out`` and no ``dtype`` the computation runs
    in out's dtype, as NumPy's default (unoptimized) einsum does, for every ``optimize``.
    ``order`` is accepted and ignored. As in NumPy, a single operand with nothing summed
    (a transpose or diagonal) ignores ``dtype``.
    """
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', "
                         f"'unsafe' (got {casting!r})")
    if order != "K":
        order_letter(order)     # NumPy's check of the argument (the layout is not used)
    if dtype is not None:
        dtype = canonicalize_dtype(dtype)   # NumPy's TypeError for what is not a dtype
    text, ops = split_operands(operands)
    values = [_strong_operand(op) for op in ops]
    plan = _plan(text, tuple([v.shape for v in values]), optimize_key(optimize))
    if out is not None:
        _check_out_shape(out, plan.out_shape)
    is_view = len(values) == 1 and out is None and set(plan.labels[0]) <= set(plan.out)
    target = _compute_dtype([v.dtype for v in values], None if is_view else dtype,
                            out, casting)
    if plan.empty_sum:
        # Every element is an empty sum: zero, whatever NaN or inf the operands hold.
        return _finish(full_v(plan.out_shape, 0, target), out)
    return _finish(_replay(plan, [v if v.dtype == target else cast(v, target)
                                  for v in values]), out)


def _strong_operand(op):
    """``strong(raw(op))``, with one look at the common operand (a NumPy array, or an
    xnp array holding one)."""
    if type(op) is ndarray:
        op = op._value
    return op if type(op) is np.ndarray else strong(raw(op))


def _finish(r, out):
    if out is None:
        return wrap_scalar_result(r)    # a 0-d result is a scalar (an object itself)
    check_writeable(out, "output array")
    store_through(out, cast(r, out.dtype))
    return out


# --- einsum_path ----------------------------------------------------------------------------------
def einsum_path(*operands, optimize="greedy", einsum_call: bool = False) -> tuple:
    """The contraction order einsum would use, as :func:`numpy.einsum_path`.

    Returns ``(path, description)``: ``path`` is ``['einsum_path', (i, j), ...]`` (each
    tuple lists the positions, in the current operand list, of the operands contracted
    next; the result goes to the end), found by NumPy's greedy or optimal search (with its
    default bound on intermediates, the largest operand or output), and can be passed as
    ``optimize=`` to einsum (also NumPy's); ``description`` reports the scaling, FLOP
    counts and intermediates as NumPy's does (with NumPy's FLOP model).
    Only the operands' shapes are read, so it also works on traced arrays.
    """
    if einsum_call:
        raise TypeError("einsum_path: einsum_call=True (NumPy's internal protocol) is not "
                        "supported")
    text, ops = split_operands(operands)
    shapes = tuple(shape_of(raw(op)) for op in ops)
    plan = _plan(text, shapes, optimize_key(optimize))    # validates the path
    return ["einsum_path", *plan.path], _describe(plan)


def _display_names(plan: _Plan) -> dict:
    """Letters for printing: ellipsis labels get letters the subscripts do not use."""
    used = {lab for labs in plan.labels for lab in labs}
    free = iter(c for c in string.ascii_letters if c not in used)
    return {lab: (lab if lab in LETTERS else next(free, lab)) for lab in sorted(used)}


def _report_flops(labels, inner: bool, n_terms: int, sizes) -> int:
    """NumPy's FLOP model for its report: the size of the labels involved, times the
    number of pairwise products (plus one when labels are summed)."""
    return term_size(labels, sizes) * (max(1, n_terms - 1) + bool(inner))


def _describe(plan: _Plan) -> str:
    """The report of :func:`einsum_path`, in NumPy's layout and with NumPy's counts: each
    step lists the operands it takes (last position first), an intermediate's labels
    are ordered by size and then letter, and the optimized count adds one."""
    names = _display_names(plan)
    sizes = {names[lab]: n for lab, n in plan.sizes.items()}
    inputs = ["".join(names[lab] for lab in labs) for labs in plan.labels]
    output = "".join(names[lab] for lab in plan.out)
    letters = set("".join(inputs))
    inner = sum(len(set(t)) for t in inputs) > len(letters)
    naive = _report_flops(letters, inner, len(inputs), sizes)
    current, sets = list(inputs), [set(t) for t in inputs]
    rows, costs, scales, largest = [], [], [], []
    for n, step in enumerate(plan.path):
        idx = sorted((i % len(current) for i in step), reverse=True)
        involved = set().union(*(sets[i] for i in idx))
        rest = set(output).union(*(t for k, t in enumerate(sets) if k not in idx))
        kept = involved & rest
        costs.append(_report_flops(involved, involved - kept, len(idx), sizes))
        scales.append(len(involved))
        largest.append(term_size(kept, sizes))
        taken = [current[i] for i in idx]
        word = output if n == len(plan.path) - 1 else \
            "".join(sorted(kept, key=lambda c: (sizes[c], c)))
        current = [c for k, c in enumerate(current) if k not in idx] + [word]
        sets = [t for k, t in enumerate(sets) if k not in idx] + [kept]
        rows.append("%4d    %24s %40s" % (scales[-1], ",".join(taken) + "->" + word,
                                          ",".join(current) + "->" + output))
    optimized = sum(costs) + 1
    line = "-" * 74
    return "\n".join([
        f"  Complete contraction:  {','.join(inputs)}->{output}",
        f"         Naive scaling:  {len(letters)}",
        f"     Optimized scaling:  {max(scales, default=0)}",
        f"      Naive FLOP count:  {naive:.3e}",
        f"  Optimized FLOP count:  {optimized:.3e}",
        f"   Theoretical speedup:  {naive / optimized:.3f}",
        f"  Largest intermediate:  {max(largest, default=0):.3e} elements",
        line, "%6s %24s %40s" % ("scaling", "current", "remaining"), line, *rows])
