"""Public differentiation API over pytrees: jvp, linearize, vjp, grad, value_and_grad,
jacfwd, jacrev, hessian. The machinery is in ``transforms.ad``."""

from __future__ import annotations

import functools
import math
import operator
from typing import Callable, Sequence

import numpy as np

from transforms import ad, core, eager_grad
from transforms.ad import Zero
from transforms.core import get_aval
from transforms.jaxpr import eval_jaxpr
from transforms.tree import tree_flatten, tree_map, tree_unflatten

__all__ = ["jvp", "linearize", "vjp", "grad", "value_and_grad", "jacfwd", "jacrev",
           "hessian"]


def _flat_fun(fun, in_tree, out_store):
    def flat(*handles):
        args = tree_unflatten(in_tree, handles)
        out = fun(*args)
        leaves, tree = tree_flatten(out)
        out_store.append(tree)
        return leaves
    return flat


def _check_value(x, fname):
    v = core.unwrap(x)
    try:
        get_aval(v)
    except TypeError:
        raise TypeError(f"{fname}: argument {x!r} of type {type(x).__name__} is not a valid "
                        "array value (use arrays, Python numbers, or pytrees of them)") from None
    return v


def _in_tangent_dtype(v, aval, fname: str, what: str):
    """``v`` in the tangent dtype of ``aval``. A concrete value of a kind that casts to it
    (a real tangent of a complex primal, a Python float for a float32 one) is converted;
    other mismatches raise TypeError (as JAX), where a rule would otherwise compute in the
    wrong dtype (a complex primal's tangent silently losing its imaginary part)."""
    want, have = ad.tangent_aval(aval).dtype, get_aval(v).dtype
    if have == want:
        return v
    try:
        castable = np.can_cast(have, want, "same_kind")
    except TypeError:
        castable = False
    if isinstance(v, core.Tracer) or not castable:
        raise TypeError(f"{fname}: {what} dtype {have} does not match the dtype {want} "
                        f"that a {aval.str_short()} primal needs")
    return np.asarray(v, dtype=want)


def _check_float0_tangent(tangent_aval, primal_aval, fname: str) -> None:
    """An integer or boolean primal has no derivative: its tangent must be a float0 zero
    (as JAX requires), so that a nonzero integer tangent is not silently taken as 0."""
    if tangent_aval.dtype != ad.float0:
        raise TypeError(
            f"{fname}: the tangent of a {primal_aval.str_short()} primal must have dtype "
            f"float0 (integer and boolean inputs have no derivative), got "
            f"{tangent_aval.dtype}; pass numpy.zeros({primal_aval.shape}, "
            "dtype=transforms.float0)")


def jvp(fun: Callable, primals: Sequence, tangents: Sequence, has_aux: bool = False):
    """Forward-mode: ``(fun(*primals), J(primals) @ tangents)`` for pytrees of arrays.

    ``tangents`` must match ``primals`` in structure, shapes and (inexact) dtypes. With
    ``has_aux``, ``fun`` returns ``(output, aux)`` and ``aux`` is returned third.
    """
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError("jvp: primal and tangent arguments must be tuples or lists, got "
                        f"{type(primals).__name__} and {type(tangents).__name__}")
    p_leaves, in_tree = tree_flatten(tuple(primals))
    t_leaves, t_tree = tree_flatten(tuple(tangents))
    if in_tree != t_tree:
        raise TypeError(f"jvp: primal and tangent structures differ: {in_tree} and {t_tree}")
    ps = [_check_value(p, "jvp") for p in p_leaves]
    ts = []
    for p, t in zip(ps, t_leaves):
        pa, ta = get_aval(p), get_aval(_check_value(t, "jvp"))
        if pa.shape != ta.shape:
            raise ValueError(f"jvp: primal shape {pa.shape} and tangent shape {ta.shape} "
                             "differ")
        if not ad.is_differentiable(pa):
            _check_float0_tangent(ta, pa, "jvp")
            ts.append(Zero(ad.tangent_aval(pa)))
            continue
        ts.append(_in_tangent_dtype(core.unwrap(t), pa, "jvp", "tangent"))
    store: list = []
    aux_store: list = []
    target = _split_aux(fun, aux_store) if has_aux else fun
    outs, touts = ad.jvp_flat(_flat_fun(target, in_tree, store), ps, ts)
    touts = [ad.instantiate(t) for t in touts]
    out = (tree_unflatten(store[0], [core.wrap(o) for o in outs]),
           tree_unflatten(store[0], [core.wrap(t) for t in touts]))
    return (*out, aux_store[0]) if has_aux else out


def linearize(fun: Callable, *primals, has_aux: bool = False):
    """``(fun(*primals), f_jvp)`` where ``f_jvp(*tangents)`` evaluates the JVP at
    ``primals`` without recomputing the primal work (and ``aux`` third, if ``has_aux``)."""
    p_leaves, in_tree = tree_flatten(primals)
    ps = [_check_value(p, "linearize") for p in p_leaves]
    store: list = []
    aux_store: list = []
    target = _split_aux(fun, aux_store) if has_aux else fun
    outs, linear, in_avals = ad.linearize_flat(_flat_fun(target, in_tree, store), ps)
    out_tree = store[0]
    diff_mask = [ad.is_differentiable(a) for a in in_avals]

    def f_jvp(*tangents):
        t_leaves, t_tree = tree_flatten(tangents)
        if t_tree != in_tree:
            raise ValueError(f"linearize: tangent structure {t_tree} differs from the "
                             f"primal structure {in_tree}")
        for t, a, d in zip(t_leaves, in_avals, diff_mask):
            shape = get_aval(core.unwrap(t)).shape
            if shape != a.shape:
                raise ValueError("linearize: linearized function called on tangent values "
                                 "inconsistent with the original primal values: tangent "
                                 f"shape {shape} for a primal of shape {a.shape}")
            if not d:
                _check_float0_tangent(get_aval(core.unwrap(t)), a, "linearize")
        ts = [_in_tangent_dtype(core.unwrap(t), a, "linearize", "tangent")
              for t, a, d in zip(t_leaves, in_avals, diff_mask) if d]
        return tree_unflatten(out_tree, [core.wrap(v) for v in eval_jaxpr(linear, *ts)])

    out = tree_unflatten(out_tree, [core.wrap(o) for o in outs])
    return (out, f_jvp, aux_store[0]) if has_aux else (out, f_jvp)


def vjp(fun: Callable, *primals, has_aux: bool = False):
    """``(fun(*primals), vjp_fn)`` (plus ``aux`` if ``has_aux``): ``vjp_fn(cotangent)``
    returns one cotangent per primal argument."""
    p_leaves, in_tree = tree_flatten(primals)
    ps = [_check_value(p, "vjp") for p in p_leaves]
    store: list = []
    aux_store: list = []
    target = _split_aux(fun, aux_store) if has_aux else fun
    outs, linear, in_avals = ad.linearize_flat(_flat_fun(target, in_tree, store), ps)
    out_tree = store[0]
    out_avals = [get_aval(o) for o in outs]

    def vjp_fn(cotangent):
        ct_leaves, ct_tree = tree_flatten(cotangent)
        if ct_tree != out_tree:
            raise ValueError(f"vjp: cotangent structure {ct_tree} differs from the output "
                             f"structure {out_tree}")
        cts = []
        for ct, aval in zip(ct_leaves, out_avals):
            v = core.unwrap(ct)
            if get_aval(v).shape != aval.shape:
                raise ValueError(f"vjp: cotangent shape {get_aval(v).shape} differs from "
                                 f"the output shape {aval.shape}")
            if ad.is_differentiable(aval):
                cts.append(_in_tangent_dtype(v, aval, "vjp", "cotangent"))
            else:
                # an integer/boolean output's cotangent is a float0 zero whatever its dtype,
                # so that ``vjp_fn(primal_out)`` works (as JAX accepts)
                cts.append(np.zeros(aval.shape, ad.float0))
        diff_cts = ad.backward_pass(linear.jaxpr, linear.consts, cts)
        it = iter(diff_cts)
        result = []
        for aval in in_avals:
            if ad.is_differentiable(aval):
                result.append(core.wrap(ad.instantiate(next(it))))
            else:
                result.append(core.wrap(np.zeros(aval.shape, ad.float0)))
        return tree_unflatten(in_tree, result)

    primal_out = tree_unflatten(out_tree, [core.wrap(o) for o in outs])
    if has_aux:
        return primal_out, vjp_fn, aux_store[0]
    return primal_out, vjp_fn


def _split_aux(fun, aux_store):
    outer = _trace_chain()

    def main(*args):
        return _take_aux(fun(*args), aux_store, outer)
    return main


def _take_aux(out, aux_store, outer):
    """The output of a ``has_aux`` function's pair; the auxiliary data goes to
    ``aux_store``, no longer traced by this transformation (``outer``: the traces active
    where it was entered, whose tracers stay, so that outer transformations see aux)."""
    if not (isinstance(out, tuple) and len(out) == 2):
        raise TypeError("has_aux=True requires the function to return a pair "
                        "(output, auxiliary data)")
    aux_store.append(tree_map(lambda x: _stop_tracing(x, outer), out[1]))
    return out[0]


def _trace_chain():
    chain, t = set(), core.current_trace()
    while t is not None:
        chain.add(t)
        t = t.parent
    return chain


def _stop_tracing(x, outer):
    v = core.unwrap(x)
    if v is x and not isinstance(v, (core.Tracer, np.ndarray, np.generic)):
        return x    # not an array (a string, None, an object): aux passes through as is
    while isinstance(v, (ad.JVPTracer, eager_grad.RevTracer)) and v._trace not in outer:
        v = v.primal if isinstance(v, ad.JVPTracer) else v.value
    return core.wrap(v) if not isinstance(x, (int, float, complex, bool)) else x


def _argnums_tuple(argnums, nargs, fname):
    single = isinstance(argnums, int)
    nums = (argnums,) if single else argnums
    try:
        nums = tuple(operator.index(a) for a in nums)
    except TypeError:
        raise TypeError(f"{fname}: argnums must be an int or a tuple of ints, got "
                        f"{argnums!r}") from None
    for a in nums:
        if not -nargs <= a < nargs:
            raise ValueError(f"{fname}: argnums {argnums} out of range for a function "
                             f"called with {nargs} positional arguments")
    nums = tuple(a % nargs for a in nums)
    if len(set(nums)) != len(nums):   # a repeat would get a zero gradient, silently
        raise ValueError(f"{fname}: argnums {argnums} names an argument more than once")
    return single, nums


def value_and_grad(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
                   holomorphic: bool = False, allow_int: bool = False):
    """A function returning ``(fun(*args), gradient)``; see :func:`grad`."""
    argnums_of: dict = {}           # number of positional arguments -> (single, nums)

    @functools.wraps(fun)
    def wrapper(*args, **kwargs):
        try:
            single, nums = argnums_of[len(args)]
        except KeyError:
            single, nums = argnums_of[len(args)] = _argnums_tuple(argnums, len(args), "grad")
        diff_args = tuple(args[i] for i in nums)
        # Arrays in and one array out (the common call) skip the pytree machinery.
        if all(type(a) in core._handle_types for a in diff_args):
            leaves, in_tree = diff_args, None
        else:
            leaves, in_tree = tree_flatten(diff_args)
        ps = []
        for leaf in leaves:
            v = core.unwrap(leaf)
            ps.append(v)
            if type(v) is not np.ndarray or v.dtype.kind != "f" or holomorphic:
                _check_grad_leaf(v, leaf, diff_args, nums, holomorphic, allow_int)
        out_store: list = []
        aux_store: list = []
        outer = _trace_chain() if has_aux else None

        def flat_fun(*handles):
            full = [a if i in nums else core.fresh_handle(a) for i, a in enumerate(args)]
            for i, a in zip(nums, handles if in_tree is None else
                            tree_unflatten(in_tree, handles)):
                full[i] = a
            out = fun(*full, **kwargs)
            if has_aux:
                out = _take_aux(out, aux_store, outer)
            if type(out) in core._handle_types:
                out_store.append(None)
                return [out]
            out_leaves, out_tree = tree_flatten(out)
            out_store.append(out_tree)
            return out_leaves

        def seed(outs):
            if len(outs) != 1:
                raise TypeError("grad requires a function with a single scalar output; "
                                f"got {out_store[0]}. Use jacrev or vjp for other outputs.")
            out_aval = get_aval(outs[0])
            _check_scalar_aval(out_aval, holomorphic)
            if not out_aval.shape:
                return np.array(1, out_aval.dtype)      # (np.ones is slower Python)
            return np.ones(out_aval.shape, out_aval.dtype)

        if core.is_eager():
            outs, cts = eager_grad.grad_flat(flat_fun, ps, seed)   # one per input
        else:
            outs, linear, in_avals = ad.linearize_flat(flat_fun, ps)
            cts = ad.backward_pass(linear.jaxpr, linear.consts, [seed(outs)])
            if allow_int:      # integer and boolean inputs get float0 zeros, as in vjp
                cts = iter(cts)
                cts = [next(cts) if ad.is_differentiable(a) else
                       np.zeros(a.shape, ad.float0) for a in in_avals]
        out_tree = out_store[0]
        grads = [core.wrap(ad.instantiate(c)) for c in cts]
        grads = tuple(grads) if in_tree is None else tree_unflatten(in_tree, grads)
        g = grads[0] if single else grads
        out = core.wrap(outs[0])
        if out_tree is not None:
            out = tree_unflatten(out_tree, [out])
        return ((out, aux_store[0]), g) if has_aux else (out, g)
    return wrapper


def grad(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
         holomorphic: bool = False, allow_int: bool = False):
    """The gradient of a scalar-valued ``fun`` with respect to argument(s) ``argnums``.

    A one-element array output counts as a scalar (as in autograd and PyTorch; JAX
    requires shape ``()``); larger outputs raise a TypeError pointing to jacrev and vjp.

    Arguments may be pytrees; the gradient has the same structure. Complex inputs follow
    JAX's convention (transposes use the bilinear pairing ``Re(sum(u * v))``): for a
    real-valued ``f``, ``grad(f)(z)`` is ``df/dx - i df/dy`` (so ``grad(abs2)(z) =
    2 conj(z)``); with ``holomorphic=True`` it is the complex derivative ``f'(z)``.

    Integer and boolean arguments raise a TypeError unless ``allow_int=True``, which
    gives them zero gradients of the empty dtype ``transforms.float0`` (as JAX does).
    """
    vg = value_and_grad(fun, argnums, has_aux, holomorphic, allow_int)

    @functools.wraps(fun)
    def wrapper(*args, **kwargs):
        (value, g) = vg(*args, **kwargs)
        return (g, value[1]) if has_aux else g
    return wrapper


def _check_grad_leaf(v, leaf, diff_args, nums, holomorphic, allow_int=False):
    """``v`` (the value of ``leaf``, one leaf of the arguments ``nums``) can be
    differentiated; otherwise the TypeError naming its argument."""
    try:
        aval = get_aval(v)
    except TypeError:
        raise TypeError(f"grad: argument {leaf!r} of type {type(leaf).__name__} is not a "
                        "valid array value (use arrays, Python numbers, or pytrees of "
                        "them)") from None
    kind = aval.dtype.kind
    if kind == "c" or (kind == "f" and not holomorphic) or aval.dtype.name == "bfloat16":
        return
    if allow_int and kind in "biu":
        return
    i = next((n for n, a in zip(nums, diff_args)
              if any(x is leaf for x in tree_flatten(a)[0])), nums[0])
    if kind in "biu":
        raise TypeError(f"grad requires real- or complex-valued inputs (input dtype that "
                        f"is a sub-dtype of np.inexact), but got {aval.dtype.name} for "
                        f"argument {i}. If you want to use integer-valued inputs, use "
                        "vjp or set allow_int to True.")
    if holomorphic and kind != "c":
        raise TypeError(f"grad with holomorphic=True requires complex inputs, got "
                        f"{aval.dtype.name} for argument {i}")
    raise TypeError(f"grad requires real- or complex-valued inputs, but got "
                    f"{aval.dtype} for argument {i} (object, string and other "
                    "non-numeric arrays cannot be differentiated)")


def _check_scalar_aval(aval, holomorphic):
    if math.prod(aval.shape) != 1:  # a one-element array counts as a scalar (autograd, torch)
        raise TypeError(f"Gradient only defined for scalar-output functions. Output had "
                        f"shape: {aval.shape}. Use jacrev, jacfwd or vjp instead.")
    if aval.dtype.kind == "c" and not holomorphic:
        raise TypeError("grad requires real-valued outputs (output dtype that is a "
                        f"sub-dtype of np.floating), but got {aval.dtype.name}. For "
                        "holomorphic differentiation, pass holomorphic=True.")
    if aval.dtype.kind in "biu":
        raise TypeError(f"grad requires real-valued outputs, but got {aval.dtype.name}")


def _partial_with_aux(fun, args, kwargs, nums, has_aux, aux_store):
    """``fun`` as a function of the differentiated arguments only, aux split off."""
    outer = _trace_chain()

    def partial_fun(*dargs):
        full = [core.fresh_handle(a) for a in args]
        for i, a in zip(nums, dargs):
            full[i] = a
        out = fun(*full, **kwargs)
        if has_aux:
            aux_store.append(tree_map(lambda x: _stop_tracing(x, outer), out[1]))
            out = out[0]
        return out
    return partial_fun


def _assemble(out_example, in_example, block, single):
    """A Jacobian pytree: the output structure, each leaf holding the input structure,
    each block of shape ``out_shape + in_shape``."""
    out_leaves, out_tree = tree_flatten(out_example)
    in_leaves, in_tree = tree_flatten(in_example)
    per_out = []
    for oi, _ in enumerate(out_leaves):
        blocks = tree_unflatten(in_tree, [block(oi, ii) for ii in range(len(in_leaves))])
        per_out.append(blocks[0] if single else blocks)
    return tree_unflatten(out_tree, per_out)


def _shape(x):
    return get_aval(core.unwrap(x)).shape


def _std_basis(leaves):
    """The rows of an identity over all elements of ``leaves``, split per leaf: leaf k
    gets an array of shape ``(total,) + leaf.shape``. Also returns the offsets."""
    sizes = [int(np.prod(_shape(x), dtype=np.int64)) for x in leaves]
    offsets = np.cumsum([0] + sizes)
    eye_rows = np.eye(int(offsets[-1]))
    basis = [eye_rows[:, offsets[k]:offsets[k + 1]].astype(get_aval(core.unwrap(x)).dtype)
             .reshape((int(offsets[-1]),) + _shape(x)) for k, x in enumerate(leaves)]
    return basis, offsets


def _rows(stacked, lo, hi, lead_shape, tail_shape):
    """Rows lo:hi of a stacked Jacobian piece, as an array of ``lead + tail`` shape."""
    from xnp import moveaxis, reshape
    piece = stacked[lo:hi]
    if lead_shape is None:
        return reshape(piece, tail_shape)
    return reshape(moveaxis(piece, 0, -1), lead_shape + tail_shape)


def _check_jacobian_inputs(name, leaves, allow_int, holomorphic=False):
    """JAX's rule: Jacobians are taken with respect to floating or complex inputs; jacrev
    also takes integer and boolean ones with ``allow_int`` (their blocks are float0).
    jacfwd takes real inputs only (complex ones: holomorphic=True or jvp); with
    ``holomorphic`` every input must be complex."""
    for leaf in leaves:
        dtype = get_aval(core.unwrap(leaf)).dtype
        if holomorphic and dtype.kind != "c":
            raise TypeError(f"{name} with holomorphic=True requires inputs with complex "
                            f"dtype, but got {dtype}")
        if dtype.kind == "c" and name == "jacfwd" and not holomorphic:
            raise TypeError(f"jacfwd requires real-valued inputs (input dtype that is a "
                            f"sub-dtype of np.floating), but got {dtype}. For holomorphic "
                            "differentiation pass holomorphic=True; for non-holomorphic "
                            "functions of complex inputs use jvp or jacrev.")
        if dtype.kind in "fc" or dtype.name == "bfloat16":
            continue
        if allow_int and dtype.kind in "biu":
            continue
        hint = ("pass allow_int=True, or use vjp" if name == "jacrev" else
                "use jvp directly, or jacrev with allow_int=True")
        raise TypeError(f"{name} requires real- or complex-valued inputs (input dtype that "
                        f"is a sub-dtype of np.inexact), but got {dtype}: {hint}")


def jacfwd(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
           holomorphic: bool = False):
    """The Jacobian by forward mode: the JVP pushed through ``vmap`` over the standard
    basis of the inputs. Each leaf of the result has shape ``out_shape + in_shape``.
    Integer and boolean inputs raise a TypeError (as in JAX)."""
    @functools.wraps(fun)
    def jacfun(*args, **kwargs):
        from transforms.batching import vmap
        single, nums = _argnums_tuple(argnums, len(args), "jacfwd")
        dargs = tuple(args[i] for i in nums)
        aux: list = []
        partial = _partial_with_aux(fun, args, kwargs, nums, has_aux, aux)
        in_leaves, in_tree = tree_flatten(dargs)
        _check_jacobian_inputs("jacfwd", in_leaves, False, holomorphic)
        out = partial(*dargs)
        basis, offsets = _std_basis(in_leaves)
        if offsets[-1]:
            pushfwd = lambda *ts: jvp(partial, dargs, tree_unflatten(in_tree, ts))[1]
            columns = tree_flatten(vmap(pushfwd)(*[core.wrap(b) for b in basis]))[0]
        out_leaves = tree_flatten(out)[0]

        def block(oi, ii):
            oshape, ishape = _shape(out_leaves[oi]), _shape(in_leaves[ii])
            if not offsets[-1]:
                from xnp import zeros
                return zeros(oshape + ishape, get_aval(core.unwrap(in_leaves[ii])).dtype)
            return _rows(columns[oi], offsets[ii], offsets[ii + 1], oshape, ishape)
        jac = _assemble(out, dargs, block, single)
        return (jac, aux[0]) if has_aux else jac
    return jacfun


def jacrev(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
           holomorphic: bool = False, allow_int: bool = False):
    """The Jacobian by reverse mode: the VJP pulled back through ``vmap`` over the
    standard basis of the outputs. Integer and boolean inputs raise a TypeError unless
    ``allow_int=True``, which gives them blocks of dtype ``transforms.float0``."""
    @functools.wraps(fun)
    def jacfun(*args, **kwargs):
        from transforms.batching import vmap
        single, nums = _argnums_tuple(argnums, len(args), "jacrev")
        dargs = tuple(args[i] for i in nums)
        _check_jacobian_inputs("jacrev", tree_flatten(dargs)[0], allow_int, holomorphic)
        aux: list = []
        partial = _partial_with_aux(fun, args, kwargs, nums, has_aux, aux)
        out, vjp_fn = vjp(partial, *dargs)
        out_leaves, out_tree = tree_flatten(out)
        for leaf in out_leaves:      # JAX's rule on the outputs
            kind = get_aval(core.unwrap(leaf)).dtype.kind
            if holomorphic and kind != "c":
                raise TypeError("jacrev with holomorphic=True requires outputs with "
                                f"complex dtype, but got {get_aval(core.unwrap(leaf)).dtype}")
            if kind == "c" and not holomorphic:
                raise TypeError("jacrev requires real-valued outputs (output dtype that is "
                                "a sub-dtype of np.floating), but got "
                                f"{get_aval(core.unwrap(leaf)).dtype}. For holomorphic "
                                "differentiation pass holomorphic=True; for non-holomorphic "
                                "functions with complex outputs use vjp or jacfwd.")
        in_leaves = tree_flatten(dargs)[0]
        basis, offsets = _std_basis(out_leaves)
        if offsets[-1]:
            pullback = lambda *cs: vjp_fn(tree_unflatten(out_tree, cs))
            rows = tree_flatten(vmap(pullback)(*[core.wrap(b) for b in basis]))[0]

        def block(oi, ii):
            oshape, ishape = _shape(out_leaves[oi]), _shape(in_leaves[ii])
            if not offsets[-1]:
                from xnp import zeros
                return zeros(oshape + ishape, get_aval(core.unwrap(in_leaves[ii])).dtype)
            return _rows(rows[ii], offsets[oi], offsets[oi + 1], None, oshape + ishape)
        jac = _assemble(out, dargs, block, single)
        return (jac, aux[-1]) if has_aux else jac
    return jacfun


def hessian(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
            holomorphic: bool = False):
    """The Hessian, as forward-over-reverse: ``jacfwd(jacrev(fun))``."""
    return jacfwd(jacrev(fun, argnums, has_aux, holomorphic), argnums, has_aux, holomorphic)
