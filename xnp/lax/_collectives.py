"""Named-axis collectives: psum, pmax, pmin, all_gather and axis_index over a vmap axis.

They only have meaning inside ``vmap(..., axis_name=name)``: the batch trace with that
name applies the rule; a trace with another name passes them down; evaluating one with no
such trace raises a NameError naming the axis.
"""

from __future__ import annotations

from transforms.core import ShapedArray
from xnp.lax._ad_util import deflinear
from xnp.lax._base import primitive
from xnp.lax._batch_util import bdim_to_front


def _unbound(*args, axis_name, **_):
    raise NameError(f"unbound axis name: {axis_name!r}. Collectives such as psum need an "
                    "enclosing vmap(..., axis_name=...) with that name.")


def _same(x, **_):
    return ShapedArray(x.shape, x.dtype, x.weak_type)


def _reduce_rule(reducer_name):
    def rule(vals, dims, *, axis_name, _axis):
        from xnp import lax
        (v,), (d,) = vals, dims
        if axis_name != _axis.axis_name:
            prim = getattr(lax, f"{reducer_name}_collective_p")
            return prim.bind(v, axis_name=axis_name), d
        if d is None:
            if reducer_name == "psum":
                return lax.mul_p.bind(v, _axis.axis_size), None
            return v, None
        reduce = {"psum": lax.reduce_sum_p, "pmax": lax.reduce_max_p,
                  "pmin": lax.reduce_min_p}[reducer_name]
        return reduce.bind(v, axes=(d,)), None
    return rule


def _collective(name):
    p = primitive(name + "_collective" if name != "axis_index" else name, impl=_unbound,
                  abstract_eval=_same)
    p.collective = True
    p.batch = _reduce_rule(name)
    return p


psum_collective_p = _collective("psum")
pmax_collective_p = _collective("pmax")
pmin_collective_p = _collective("pmin")
deflinear(psum_collective_p, lambda ct, x, *, axis_name: [
    psum_collective_p.bind(ct, axis_name=axis_name)])


def _all_gather_eval(x, *, axis_name, axis_size=None):
    return ShapedArray(((axis_size or 0),) + x.shape, x.dtype, x.weak_type)


def _all_gather_rule(vals, dims, *, axis_name, axis_size=None, _axis):
    (v,), (d,) = vals, dims
    if axis_name != _axis.axis_name:
        # another axis gathers: its new leading axis shifts this batch dimension
        out = all_gather_p.bind(v, axis_name=axis_name, axis_size=axis_size)
        return out, None if d is None else d + 1
    # Every member sees the whole stack: the gathered array is unbatched.
    return bdim_to_front(v, d, _axis.axis_size), None


def _all_gather_transpose(ct, x, *, axis_name, axis_size=None):
    """Each member's cotangent is its row of the sum of every member's cotangent."""
    import numpy as np

    from transforms.core import get_aval
    from xnp import lax
    total = psum_collective_p.bind(ct, axis_name=axis_name)
    shape = get_aval(total).shape
    zero = np.int32(0)
    row = lax.dynamic_slice_p.bind(total, axis_index_p.bind(axis_name=axis_name),
                                   *[zero] * (len(shape) - 1),
                                   slice_sizes=(1,) + tuple(shape[1:]))
    return [lax.reshape_p.bind(row, new_sizes=tuple(shape[1:]))]


all_gather_p = primitive("all_gather", impl=_unbound, abstract_eval=_all_gather_eval)
all_gather_p.collective = True
all_gather_p.batch = _all_gather_rule


def _axis_index_rule(vals, dims, *, axis_name, _axis):
    from xnp import lax
    if axis_name != _axis.axis_name:
        return axis_index_p.bind(axis_name=axis_name), None
    import numpy as np
    return lax.iota_p.bind(dtype=np.dtype(np.int32), shape=(_axis.axis_size,),
                           dimension=0), 0


def _axis_index_eval(*, axis_name):
    import numpy as np
    return ShapedArray((), np.int32)


axis_index_p = primitive("axis_index", impl=_unbound, abstract_eval=_axis_index_eval)
axis_index_p.collective = True
axis_index_p.batch = _axis_index_rule
deflinear(all_gather_p, _all_gather_transpose)

__all__ = ["psum_collective_p", "pmax_collective_p", "pmin_collective_p", "all_gather_p",
           "axis_index_p"]


# --- lowering to StableHLO ----------------------------------------------------------------------
# A collective that reaches the lowering was bound outside any vmap with its axis name
# (a vmap inside the compiled function has already replaced it): the same error as eagerly.
def _unbound_lower(ctx, *args, axis_name, **_):
    _unbound(axis_name=axis_name)


for _p in (psum_collective_p, pmax_collective_p, pmin_collective_p, all_gather_p,
           axis_index_p):
    _p.lower = _unbound_lower
del _p
