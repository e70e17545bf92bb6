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
import math
import operator
import string
from collections import Counter
from typing import NamedTuple

import numpy as np

from transforms.core import ShapedArray, get_aval
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray
from xnp._dtypes import result_type
from xnp._layout import order_letter
from xnp._util import cast_v, full_v, raw, shape_of
from xnp._writeable import check_writeable

__all__ = ["einsum", "einsum_path"]

_LETTERS = frozenset(string.ascii_letters)
_SUBLIST_LETTERS = string.ascii_uppercase + string.ascii_lowercase   # 0-25, 26-51
_OPTIMAL_MAX_OPERANDS = 10


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


# --- parsing ----------------------------------------------------------------------------------
def _split_operands(operands) -> tuple[str, list]:
    """(subscripts string, operands) from either of NumPy's calling conventions."""
    if not operands:
        raise ValueError("must specify the einstein sum subscripts string and at least one "
                         "operand, or at least one operand and its corresponding "
                         "subscripts list")
    if isinstance(operands[0], str):
        return operands[0], list(operands[1:])
    args = list(operands)
    if len(args) < 2:
        raise ValueError("must provide at least an operand and a subscripts list to einsum")
    output = args.pop() if len(args) % 2 else None
    text = ",".join(_sublist(s) for s in args[1::2])
    if output is not None:
        text += "->" + _sublist(output)
    return text, args[0::2]


def _sublist(sub) -> str:
    chars = []
    for item in sub:
        if item is Ellipsis:
            chars.append("...")
            continue
        try:
            i = operator.index(item)
        except TypeError:
            raise TypeError("each subscript must be either an integer or an ellipsis") \
                from None
        if not 0 <= i < 52:
            raise ValueError("subscript is not within the valid range [0, 52)")
        chars.append(_SUBLIST_LETTERS[i])
    return "".join(chars)


def _tokens(term: str, where: str) -> list:
    """Letters of one term, with None standing for its ellipsis."""
    tokens, i = [], 0
    while i < len(term):
        c = term[i]
        if c == ".":
            if term[i:i + 3] != "...":
                raise ValueError("einstein sum subscripts string contains a '.' that is "
                                 f"not part of an ellipsis ('...') in {where}")
            if None in tokens:
                raise ValueError("einstein sum subscripts string contains more than one "
                                 f"ellipsis ('...') in {where}")
            tokens.append(None)
            i += 3
        elif c in _LETTERS:
            tokens.append(c)
            i += 1
        else:
            raise ValueError(f"invalid subscript '{c}' in einstein sum subscripts string, "
                             "subscripts must be letters")
    return tokens


def _ellipsis_labels(n: int, total: int) -> list:
    # Labels of broadcast (ellipsis) dimensions: never letters, so never confused.
    return [f".{j}" for j in range(total - n, total)]


def _parse(text: str, shapes: tuple) -> tuple[list, tuple]:
    """Per-operand label lists (ellipsis expanded) and the output labels."""
    text = text.replace(" ", "")
    lhs, arrow, rhs = text.partition("->")
    if any(c in lhs or c in rhs for c in "->"):
        raise ValueError("einstein sum subscript string does not contain proper '->' "
                         "output specified")
    terms = [_tokens(t, f"operand {i}") for i, t in enumerate(lhs.split(","))]
    if len(terms) > len(shapes):
        raise ValueError("fewer operands provided to einstein sum function than specified "
                         "in the subscripts string")
    if len(terms) < len(shapes):
        raise ValueError("more operands provided to einstein sum function than specified "
                         "in the subscripts string")
    ell = []
    for i, (tokens, shape) in enumerate(zip(terms, shapes)):
        named = len(tokens) - (None in tokens)
        if named > len(shape) or (None not in tokens and named < len(shape)):
            raise ValueError(
                f"einstein sum subscripts string contains too many subscripts for operand "
                f"{i}" if named > len(shape) else "operand has more dimensions than "
                "subscripts given in einstein sum, but no '...' ellipsis provided to "
                "broadcast the extra dimensions.")
        ell.append(len(shape) - named)
    n_ell = max(ell, default=0)
    labels = [[lab for t in tokens for lab in
               (_ellipsis_labels(e, n_ell) if t is None else [t])]
              for tokens, e in zip(terms, ell)]
    if arrow:
        out_tokens = _tokens(rhs, "the output")
        letters = [t for t in out_tokens if t is not None]
        seen = set().union(*map(set, terms)) if terms else set()
        for c in letters:
            if letters.count(c) > 1:
                raise ValueError("einstein sum subscripts string includes output subscript "
                                 f"'{c}' multiple times")
            if c not in seen:
                raise ValueError(f"einstein sum subscripts string included output subscript "
                                 f"'{c}' which never appeared in an input")
        if None not in out_tokens and n_ell:
            raise ValueError("output has more dimensions than subscripts given in einstein "
                             "sum, but no '...' ellipsis provided to broadcast the extra "
                             "dimensions.")
        out = [lab for t in out_tokens
               for lab in (_ellipsis_labels(n_ell, n_ell) if t is None else [t])]
    else:
        counts = Counter(t for tokens in terms for t in tokens if t is not None)
        out = _ellipsis_labels(n_ell, n_ell) + sorted(c for c, n in counts.items() if n == 1)
    return labels, tuple(out)


def _label_sizes(labels: list, shapes: tuple) -> dict:
    """The size of every label; sizes of 1 broadcast against the others."""
    sizes: dict = {}
    for i, (labs, shape) in enumerate(zip(labels, shapes)):
        local: dict = {}
        for lab, n in zip(labs, shape):
            if local.setdefault(lab, n) != n:
                raise ValueError(f"dimensions in operand {i} for collapsing index '{lab}' "
                                 f"don't match ({local[lab]} != {n})")
        for lab, n in local.items():
            prev = sizes.get(lab)
            if prev is None or prev == 1:
                sizes[lab] = n
            elif n not in (1, prev):
                described = " ".join(f"{s}" for s in shapes)
                raise ValueError("operands could not be broadcast together with remapped "
                                 f"shapes: label '{lab}' has sizes {prev} and {n} "
                                 f"(operand shapes {described})")
    return sizes


# --- contraction paths --------------------------------------------------------------------------
def _size(labels, sizes) -> int:
    return math.prod(sizes[lab] for lab in labels)


def _result_labels(group, others, out) -> frozenset:
    """The labels of a contraction of ``group``: those still needed elsewhere."""
    needed = set(out).union(*others)
    return frozenset(set().union(*group) & needed)


def _flops(group, result, sizes) -> int:
    union = set().union(*group)
    ops = len(group) - 1 + (len(union) > len(result))
    return _size(union, sizes) * max(ops, 1)


def _greedy_path(terms: list, out, sizes, limit=None) -> list:
    """At each step, contract the pair whose result is smallest (then cheapest), among
    the pairs that share a label if there are any: an outer product of two small terms
    has a small result but makes the later contractions scale worse."""
    terms, path = list(terms), []
    while len(terms) > 1:
        best = None
        for i in range(len(terms)):
            for j in range(i + 1, len(terms)):
                others = terms[:i] + terms[i + 1:j] + terms[j + 1:]
                res = _result_labels((terms[i], terms[j]), others, out)
                size = _size(res, sizes)
                if limit is not None and size > limit:
                    continue
                key = (not terms[i] & terms[j], size,
                       _flops((terms[i], terms[j]), res, sizes), i, j)
                if best is None or key < best[0]:
                    best = (key, res)
        if best is None:             # every pair exceeds the memory limit
            path.append(tuple(range(len(terms))))
            return path
        (*_, i, j), res = best
        path.append((i, j))
        del terms[j], terms[i]
        terms.append(res)
    return path or [(0,)]


def _optimal_path(terms: list, out, sizes, limit=None) -> list:
    """The pairwise order of least total cost: dynamic programming over subsets."""
    n = len(terms)
    if n > _OPTIMAL_MAX_OPERANDS:
        return _greedy_path(terms, out, sizes, limit)
    if n == 1:
        return [(0,)]
    full = (1 << n) - 1

    @functools.lru_cache(maxsize=None)
    def labels(mask):
        inside = [t for k, t in enumerate(terms) if mask >> k & 1]
        outside = [t for k, t in enumerate(terms) if not mask >> k & 1]
        return _result_labels(inside, outside, out)

    best: dict = {1 << k: (0, None) for k in range(n)}
    for mask in sorted(range(1, full + 1), key=lambda m: bin(m).count("1")):
        if mask in best:
            continue
        if limit is not None and mask != full and _size(labels(mask), sizes) > limit:
            continue
        low, sub = mask & -mask, (mask - 1) & mask
        while sub:
            other = mask ^ sub
            if sub & low and sub in best and other in best:
                cost = best[sub][0] + best[other][0] + \
                    _flops((labels(sub), labels(other)), labels(mask), sizes)
                if mask not in best or cost < best[mask][0]:
                    best[mask] = (cost, (sub, other))
            sub = (sub - 1) & mask
    if full not in best:
        return _greedy_path(terms, out, sizes, limit)
    order: list = []

    def visit(mask):
        split = best[mask][1]
        if split is not None:
            visit(split[0])
            visit(split[1])
            order.append(split)
    visit(full)
    current, path = [1 << k for k in range(n)], []
    for a, b in order:          # the tree as NumPy's positional path
        i, j = sorted((current.index(a), current.index(b)))
        path.append((i, j))
        del current[j], current[i]
        current.append(a | b)
    return path


def _optimize_key(optimize):
    """A hashable description of ``optimize``: (kind, memory limit or explicit path)."""
    if optimize is False or optimize is None:
        return ("none", None)
    if optimize is True:
        return ("greedy", None)
    if isinstance(optimize, str):
        if optimize not in ("greedy", "optimal"):
            raise TypeError(f"einsum: did not understand the path: {optimize!r} (use "
                            "'greedy', 'optimal', a bool or an explicit einsum_path list)")
        return (optimize, None)
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        steps = tuple(tuple(operator.index(i) for i in step) for step in optimize[1:])
        return ("path", steps)
    if isinstance(optimize, tuple) and len(optimize) == 2 and \
            optimize[0] in ("greedy", "optimal"):
        return (optimize[0], float(optimize[1]))
    raise TypeError(f"Did not understand the path: {optimize!r}")


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
    labels, out = _parse(text, shapes)
    sizes = _label_sizes(labels, shapes)
    uses = Counter(lab for labs in labels for lab in set(labs))
    reduced = [[lab for lab in dict.fromkeys(labs) if uses[lab] > 1 or lab in out]
               for labs in labels]
    terms = [frozenset(r) for r in reduced]
    kind, arg = opt_key
    if kind == "none":
        path = [tuple(range(len(terms)))]
    elif kind == "path":
        path = [tuple(step) for step in arg]
    else:
        find = _greedy_path if kind == "greedy" else _optimal_path
        path = find(terms, out, sizes, arg)
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
        return dtypes[0] if all(d == dtypes[0] for d in dtypes) else result_type(*dtypes)
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
    order_letter(order)         # NumPy's check of the argument (the layout is not used)
    text, ops = _split_operands(operands)
    values = [strong(raw(op)) for op in ops]
    plan = _plan(text, tuple(v.shape for v in values), _optimize_key(optimize))
    if out is not None:
        _check_out_shape(out, plan.out_shape)
    is_view = len(values) == 1 and out is None and set(plan.labels[0]) <= set(plan.out)
    target = _compute_dtype([v.dtype for v in values], None if is_view else dtype,
                            out, casting)
    if plan.empty_sum:
        # Every element is an empty sum: zero, whatever NaN or inf the operands hold.
        return _finish(full_v(plan.out_shape, 0, target), out)
    return _finish(_replay(plan, [cast(v, target) for v in values]), out)


def _finish(r, out):
    if out is None:
        return wrap(r)
    check_writeable(out, "output array")
    out._value = cast(r, out.dtype)
    return out


# --- einsum_path ----------------------------------------------------------------------------------
def einsum_path(*operands, optimize="greedy", einsum_call: bool = False) -> tuple:
    """The contraction order einsum would use, as :func:`numpy.einsum_path`.

    Returns ``(path, description)``: ``path`` is ``['einsum_path', (i, j), ...]`` (each
    tuple lists the positions, in the current operand list, of the operands contracted
    next; the result goes to the end) and can be passed as ``optimize=`` to einsum (also
    NumPy's); ``description`` reports the scaling, FLOP counts and intermediates (the
    layout resembles NumPy's, the FLOP model is xnp's). Only the operands' shapes are
    read, so it also works on traced arrays.
    """
    if einsum_call:
        raise TypeError("einsum_path: einsum_call=True (NumPy's internal protocol) is not "
                        "supported")
    text, ops = _split_operands(operands)
    shapes = tuple(shape_of(raw(op)) for op in ops)
    plan = _plan(text, shapes, _optimize_key(optimize))    # validates the path
    return ["einsum_path", *plan.path], _describe(plan)


def _display_names(plan: _Plan) -> dict:
    """Letters for printing: ellipsis labels get letters the subscripts do not use."""
    used = {lab for labs in plan.labels for lab in labs}
    free = iter(c for c in string.ascii_letters if c not in used)
    return {lab: (lab if lab in _LETTERS else next(free, lab)) for lab in sorted(used)}


def _simulate(plan: _Plan) -> list:
    """The steps of the (validated) path on label sets: (positions, group, result)."""
    terms, steps = [frozenset(r) for r in plan.reduced], []
    for step in plan.path:
        idx = sorted(i % len(terms) for i in step)
        group = [terms[i] for i in idx]
        terms = [t for k, t in enumerate(terms) if k not in idx]
        res = _result_labels(group, terms, plan.out)
        steps.append((idx, group, res))
        terms.append(res)
    return steps


def _describe(plan: _Plan) -> str:
    names = _display_names(plan)
    out_order = {lab: k for k, lab in enumerate(plan.out)}

    def word(labels):
        return "".join(names[lab] for lab in sorted(
            labels, key=lambda lab: (out_order.get(lab, len(out_order)), names[lab])))

    inputs = ",".join("".join(names[lab] for lab in labs) for labs in plan.labels)
    output = "".join(names[lab] for lab in plan.out)
    all_labels = set(plan.sizes)
    naive = _flops([frozenset(all_labels)] * max(len(plan.labels), 1),
                   frozenset(plan.out), plan.sizes)
    steps = _simulate(plan)
    rows, total, largest, scaling = [], 0, _size(plan.out, plan.sizes), 0
    current = ["".join(names[lab] for lab in labs) for labs in plan.labels]
    for idx, group, res in steps:
        total += _flops(group, res, plan.sizes)
        largest = max(largest, _size(res, plan.sizes))
        scale = len(set().union(*group))
        scaling = max(scaling, scale)
        taken = [current[i] for i in idx]
        current = [c for k, c in enumerate(current) if k not in idx] + [word(res)]
        rows.append(f"{scale:>4}    {','.join(taken) + '->' + word(res):>30}    "
                    f"{','.join(current) + '->' + output:>36}")
    line = "-" * 78
    return "\n".join([
        f"  Complete contraction:  {inputs}->{output}",
        f"         Naive scaling:  {len(all_labels)}",
        f"     Optimized scaling:  {scaling}",
        f"      Naive FLOP count:  {naive:.3e}",
        f"  Optimized FLOP count:  {total:.3e}",
        f"   Theoretical speedup:  {naive / max(total, 1):.3f}",
        f"  Largest intermediate:  {largest:.3e} elements",
        line, f"{'scaling':<8}{'current':>30}{'remaining':>40}", line, *rows])
