"""xnp.lax: the primitives every xnp function is built from, and thin functions binding them.

``xnp.lax.sin(x)`` binds ``sin_p`` on ``x`` (an xnp array, NumPy array or scalar) and
returns an xnp array. Elementwise primitives follow NumPy's ufunc rules (broadcasting,
NEP 50 promotion), unlike JAX's lax where operand dtypes must match exactly.
"""

from __future__ import annotations

from transforms.core import Primitive, unwrap, wrap
from xnp.lax._elementwise import *  # noqa: F403
from xnp.lax._linear import *  # noqa: F403
from xnp.lax._reductions import *  # noqa: F403
from xnp.lax._slicing import *  # noqa: F403
from xnp.lax._slicing import GatherDimensionNumbers, ScatterDimensionNumbers  # noqa: F401
from xnp.lax._structural import *  # noqa: F403

PRIMITIVES: dict[str, Primitive] = {
    p.name: p for p in dict(globals()).values() if isinstance(p, Primitive)}


def _binder(prim: Primitive):
    if prim.multiple_results:
        def fn(*args, **params):
            return [wrap(v) for v in prim.bind(*map(unwrap, args), **params)]
    else:
        def fn(*args, **params):
            return wrap(prim.bind(*map(unwrap, args), **params))
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


__all__ = sorted(n for n in globals() if not n.startswith("_"))
