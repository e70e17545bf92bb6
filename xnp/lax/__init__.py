"""xnp.lax: the primitives every xnp function is built from, and thin functions binding them.

``xnp.lax.sin(x)`` binds ``sin_p`` on ``x`` (an xnp array, NumPy array or scalar) and
returns an xnp array. Elementwise primitives follow NumPy's ufunc rules (broadcasting,
NEP 50 promotion), unlike JAX's lax where operand dtypes must match exactly.
"""

from __future__ import annotations

from transforms.core import Primitive, unwrap, wrap
from xnp.lax._bitwise import *  # noqa: F403
from xnp.lax._collectives import *  # noqa: F403
from xnp.lax._collectives import all_gather_p, axis_index_p
from xnp.lax._elementwise import *  # noqa: F403
from xnp.lax._elementwise import div_p
from xnp.lax._fft import *  # noqa: F403
from xnp.lax._gather_scatter import *  # noqa: F403
from xnp.lax._gather_scatter import GatherDimensionNumbers, ScatterDimensionNumbers  # noqa: F401
from xnp.lax._linalg import *  # noqa: F403
from xnp.lax._linalg_solve import *  # noqa: F403
from xnp.lax._linear import *  # noqa: F403
from xnp.lax._object import *  # noqa: F403
from xnp.lax._reductions import *  # noqa: F403
from xnp.lax._selection import *  # noqa: F403
from xnp.lax._slicing import *  # noqa: F403
from xnp.lax._sorting import *  # noqa: F403
from xnp.lax._special import *  # noqa: F403
from xnp.lax._structural import *  # noqa: F403

PRIMITIVES: dict[str, Primitive] = {
    p.name: p for p in dict(globals()).values() if isinstance(p, Primitive)}


def _binder(prim: Primitive):
    if prim.multiple_results:
        def fn(*args, **params):
            return [wrap(v) for v in prim.bind(*[unwrap(a) for a in args], **params)]
    else:
        def fn(*args, **params):
            return wrap(prim.bind(*[unwrap(a) for a in args], **params))
    fn.__name__ = fn.__qualname__ = prim.name
    fn.__doc__ = (f"Bind the ``{prim.name}`` primitive on xnp arrays; positional arguments "
                  "are arrays, keyword arguments are the primitive's parameters.")
    return fn


for _name, _prim in PRIMITIVES.items():
    globals()[_name if _name not in ("and", "or", "not") else _name + "_"] = _binder(_prim)

del _name, _prim


def stop_gradient(x):
    """The identity, with a zero derivative: derivatives do not flow through ``x``.
    Applies to every leaf of a pytree."""
    from transforms.tree import tree_map
    from xnp.lax._structural import stop_gradient_p
    return tree_map(lambda leaf: wrap(stop_gradient_p.bind(unwrap(leaf))), x)




def _axis_names(axis_name) -> tuple:
    """A collective's axis names: one name, or a tuple of names (as in JAX)."""
    return tuple(axis_name) if isinstance(axis_name, (tuple, list)) else (axis_name,)


def _collective_fn(prim_name: str, doc: str):
    def fn(x, axis_name):
        from transforms.tree import tree_map
        prim = PRIMITIVES[prim_name]

        def one(leaf):
            v = unwrap(leaf)
            for name in _axis_names(axis_name):   # over several axes: one after another
                v = prim.bind(v, axis_name=name)
            return wrap(v)
        return tree_map(one, x)
    fn.__name__ = prim_name.replace("_collective", "")
    fn.__doc__ = doc
    return fn


psum = _collective_fn("psum_collective", "Sum over the vmap axis named ``axis_name``; "
                      "every batch member receives the total.")
pmax = _collective_fn("pmax_collective", "Maximum over the named vmap axis.")
pmin = _collective_fn("pmin_collective", "Minimum over the named vmap axis.")


def pmean(x, axis_name):
    """Mean over the vmap axis named ``axis_name``."""
    from transforms.tree import tree_map
    total = psum(x, axis_name)
    count = psum(1.0, axis_name)
    return tree_map(lambda t: wrap(div_p.bind(unwrap(t), unwrap(count))), total)


def all_gather(x, axis_name):
    """The values of every member of the named vmap axis, stacked along a new axis 0."""
    from transforms.tree import tree_map
    return tree_map(lambda leaf: wrap(all_gather_p.bind(unwrap(leaf), axis_name=axis_name)),
                    x)


def axis_index(axis_name):
    """The position of the current member along the named vmap axis (int32); for a tuple
    of names, the position in their row-major product (the first name varies slowest)."""
    names = _axis_names(axis_name)
    index = axis_index_p.bind(axis_name=names[0]) if names else 0
    for name in names[1:]:
        import numpy as np
        size = PRIMITIVES["psum_collective"].bind(np.int32(1), axis_name=name)
        index = PRIMITIVES["add"].bind(PRIMITIVES["mul"].bind(index, size),
                                       axis_index_p.bind(axis_name=name))
    return wrap(index)


# Control flow (primitives declared in transforms, which knows no NumPy function).
from transforms.control_flow import cond, fori_loop, map, scan, switch, while_loop  # noqa: E402, F401, A004
from xnp.lax._associative_scan import associative_scan  # noqa: E402, F401

__all__ = sorted(n for n in globals() if not n.startswith("_"))
