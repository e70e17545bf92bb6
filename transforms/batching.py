"""vmap: automatic batching by a trace whose tracers carry a batch dimension.

A :class:`BatchTracer` holds a value with one extra dimension, at position ``bdim`` (or
``None`` when the value is the same for every batch member). Each primitive's ``batch``
rule, ``rule(values, bdims, **params) -> (out, out_bdim)``, computes the batched result
with ordinary primitives; no rule loops over the batch.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

import numpy as np

from transforms import core
from transforms.core import Trace, Tracer, get_aval
from transforms.tree import tree_flatten, tree_unflatten

__all__ = ["vmap", "BatchTrace", "BatchTracer", "not_mapped"]

not_mapped = None
_ndarray = np.ndarray


class BatchTracer(Tracer):
    __slots__ = ("val", "bdim", "_aval")

    def __init__(self, trace, val, bdim):
        self._trace, self.val, self.bdim = trace, val, bdim
        self._aval = None

    @property
    def aval(self):
        aval = self._aval
        if aval is None:
            v, b = self.val, self.bdim
            if type(v) is _ndarray and b is not None:
                shape = v.shape
                aval = core._strong_aval(shape[:b] + shape[b + 1:], v.dtype)
            else:
                a = get_aval(v)
                aval = a if b is None else a.update(shape=a.shape[:b] + a.shape[b + 1:])
            self._aval = aval
        return aval

    def to_concrete(self):
        return None


class BatchTrace(Trace):
    __slots__ = ("axis_size", "axis_name")

    def __init__(self, axis_size: int, axis_name: Any = None):
        super().__init__()
        self.axis_size, self.axis_name = axis_size, axis_name

    def lift(self, x):
        if type(x) is BatchTracer and x._trace is self:
            return x.val, x.bdim
        if isinstance(x, Tracer):
            core.check_alive(x)
        return x, None

    def process_primitive(self, prim, args, params):
        vals, dims = [], []
        unbatched = True
        for x in args:
            if type(x) is BatchTracer and x._trace is self:
                vals.append(x.val)
                dims.append(x.bdim)
                unbatched = False
            else:
                if isinstance(x, Tracer):
                    core.check_alive(x)
                vals.append(x)
                dims.append(None)
        collective = prim.collective
        state = core._state
        state.trace = self.parent
        try:
            if unbatched and not collective:
                return core.bind_in(self.parent, prim, vals, params)
            if prim.batch is None:
                raise TypeError(f"Batching rule for '{prim.name}' not implemented")
            rule_params = dict(params, _axis=self) if collective else params
            out, out_dim = prim.batch(vals, dims, **rule_params)
        finally:
            state.trace = self
        if prim.multiple_results:
            return [self._pack(o, d) for o, d in zip(out, out_dim)]
        return out if out_dim is None else BatchTracer(self, out, out_dim)

    def _pack(self, val, bdim):
        return val if bdim is None else BatchTracer(self, val, bdim)

    def process_custom(self, kind, args, params):
        from transforms.custom_batch import batch_custom
        return batch_custom(self, kind, args, params)


def _moveaxis(v, src, dst):
    from xnp.lax._batch_util import moveaxis_v
    return moveaxis_v(v, src, dst)


def _broadcast_batch(v, size, axis):
    from xnp.lax._batch_util import broadcast_batch_v
    return broadcast_batch_v(v, size, axis)


def _flatten_axes(what: str, tree, axes):
    """Broadcast a prefix pytree of axes to the leaves of ``tree``."""
    leaves, treedef = tree_flatten(tree)
    if axes is None or isinstance(axes, int):
        return [axes] * len(leaves)
    try:
        flat = treedef.flatten_up_to(axes)
    except Exception:
        flat = None
    if flat is not None:
        if all(_is_axis(a) for a in flat):
            return flat
        raise ValueError(f"vmap {what} specification must be a tree prefix of the "
                         f"corresponding value, got {axes!r} for {treedef}")
    proxy = tree_unflatten(treedef, list(range(len(leaves))))
    out = [None] * len(leaves)

    def assign(sub_axes, sub_tree):
        if sub_axes is None or isinstance(sub_axes, int):
            for i in tree_flatten(sub_tree)[0]:
                out[i] = sub_axes
            return
        if type(sub_axes) is not type(sub_tree) and not (
                isinstance(sub_axes, (list, tuple)) and isinstance(sub_tree, (list, tuple))):
            raise ValueError(f"vmap {what} specification must be a tree prefix of the "
                             f"corresponding value, got {axes!r} for {treedef}")
        keys = sub_tree.keys() if isinstance(sub_tree, dict) else range(len(sub_tree))
        if isinstance(sub_tree, dict) and set(sub_axes) != set(sub_tree):
            raise ValueError(f"vmap {what}: dict keys {sorted(sub_axes)} do not match "
                             f"{sorted(sub_tree)}")
        if not isinstance(sub_tree, dict) and len(sub_axes) != len(sub_tree):
            raise ValueError(f"vmap {what} specification {axes!r} does not match the "
                             f"structure {treedef}")
        for k in keys:
            assign(sub_axes[k], sub_tree[k])
    assign(axes, proxy)
    return out


def vmap(fun: Callable, in_axes: Any = 0, out_axes: Any = 0, axis_size: int | None = None,
         axis_name: Any = None) -> Callable:
    """Vectorise ``fun`` over an axis of its arguments, as JAX's ``vmap``.

    ``in_axes``/``out_axes``: an int (negative allowed), None (not mapped), or a pytree
    prefix of the arguments/outputs. Keyword arguments are mapped along axis 0.
    ``axis_name`` names the axis for collectives (psum, pmean, ...).
    """
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    for what, axes in (("in_axes", in_axes), ("out_axes", out_axes)):
        if not _is_axis(axes) and any(not _is_axis(a) for a in tree_flatten(axes)[0]):
            raise TypeError(f"vmap {what} must be an int, None, or a (nested) container "
                            f"with those types as leaves, got {axes!r}")
    # The common call, arrays in with int/None axes and one array out, skips the pytree
    # machinery (a third of the cost of a small vmap).
    flat_in_axes = _is_axis(in_axes) or (isinstance(in_axes, tuple) and
                                         all(_is_axis(a) for a in in_axes))
    single_out_axis = _is_axis(out_axes)

    @functools.wraps(fun)
    def batched(*args, **kwargs):
        if isinstance(in_axes, tuple) and len(in_axes) != len(args):
            raise ValueError(f"vmap in_axes must be an int, None, or a tuple of entries "
                             f"corresponding to the positional arguments passed to the "
                             f"function, but got len(in_axes)={len(in_axes)}, "
                             f"len(args)={len(args)}")
        flat = flat_in_axes and not kwargs and all(_is_array(x) for x in args)
        if flat:
            leaves = args
            axes = list(in_axes) if isinstance(in_axes, tuple) else [in_axes] * len(args)
        else:
            axes = _flatten_axes("in_axes", args, in_axes if isinstance(in_axes, tuple)
                                 else (in_axes,) * len(args) if args else ())
            leaves, in_tree = tree_flatten((args, kwargs))
            axes = axes + [0] * (len(leaves) - len(axes))
        values = [core.unwrap(x) for x in leaves]
        size = _axis_size(values, axes, axis_size, args)
        with core.new_trace(BatchTrace(size, axis_name)) as trace:
            ins = []
            for leaf, v, ax in zip(leaves, values, axes):
                if ax is None:
                    ins.append(core.fresh_handle(leaf))    # unmapped: the same value
                    continue
                nd = get_aval(v).ndim
                if not -nd <= ax < nd:
                    raise ValueError(f"vmap was requested to map its argument along axis "
                                     f"{ax}, which implies that its rank should be at least "
                                     f"{ax + 1 if ax >= 0 else -ax}, but is only {nd}")
                ins.append(core.wrap(BatchTracer(trace, v, ax % nd)))
            if flat:
                out = fun(*ins)
            else:
                a, kw = tree_unflatten(in_tree, ins)
                # An argument mapped nowhere reaches fun as the very object passed in
                # (a rebuilt dict would have its keys sorted); an array as a new handle.
                a = tuple(core.fresh_handle(orig) if ax is None else new for orig, new, ax in
                          zip(args, a, in_axes if isinstance(in_axes, tuple) else
                              (in_axes,) * len(args)))
                out = fun(*a, **kw)
            single = single_out_axis and type(out) in core._handle_types
            out_leaves, out_tree = ([out], None) if single else tree_flatten(out)
            outs = [trace.lift(core.unwrap(o)) for o in out_leaves]
        oaxes = [out_axes] if single else _flatten_axes("out_axes", out, out_axes)
        results = []
        for (v, d), ax in zip(outs, oaxes):
            if ax is None:
                if d is not None:
                    raise ValueError("vmap has mapped output but out_axes is None")
                results.append(core.wrap(v))
                continue
            nd = get_aval(v).ndim + (d is None)
            if not -nd <= ax < nd:
                raise ValueError(f"vmap out_axes {ax} is out of range for an output of "
                                 f"rank {nd}")
            v = _broadcast_batch(v, size, ax % nd) if d is None else \
                _moveaxis(v, d, ax % nd)
            results.append(core.wrap(v))
        return results[0] if single else tree_unflatten(out_tree, results)
    return batched


def _is_axis(a) -> bool:
    return a is None or type(a) is int


def _is_array(x) -> bool:
    t = type(x)
    return t in core._handle_types or t is _ndarray


def _axis_size(values, axes, axis_size, args):
    sizes = {}
    for i, (v, ax) in enumerate(zip(values, axes)):
        if ax is None:
            continue
        shape = get_aval(v).shape
        if not shape:
            raise ValueError(f"vmap was requested to map its argument along axis {ax}, "
                             "which implies that its rank should be at least 1, but is "
                             "only 0 (its shape is ())")
        if not -len(shape) <= ax < len(shape):
            raise ValueError(f"vmap was requested to map its argument along axis {ax}, "
                             f"which implies that its rank should be at least "
                             f"{ax + 1 if ax >= 0 else -ax}, but is only {len(shape)} "
                             f"(its shape is {shape})")
        sizes[i] = shape[ax]
    distinct = set(sizes.values())
    if axis_size is not None:
        distinct.add(axis_size)
    if len(distinct) > 1:
        detail = "; ".join(f"argument leaf {i} has size {n}" for i, n in sizes.items())
        raise ValueError(f"vmap got inconsistent sizes for the array axes to be mapped: "
                         f"{detail}" + (f"; axis_size={axis_size}" if axis_size else ""))
    if not distinct:
        raise ValueError("vmap must have at least one non-None value in in_axes, or be "
                         "given axis_size")
    return distinct.pop()
