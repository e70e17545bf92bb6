"""``xnp.ma``: a subset of ``numpy.ma`` (masked arrays) built from xnp functions.

A :class:`MaskedArray` holds ``_data`` (an xnp array) and ``_mask`` (an xnp bool array of
the same shape, or ``nomask``), plus a fill value. Every operation computes with xnp
functions on the data and the mask, so masked arrays of traced values work under
``xnp.grad``, ``xnp.vmap`` and ``xnp.jit`` wherever the shapes do not depend on the mask.

Differences from NumPy:

- ``compressed()``, ``is_masked``, ``make_mask(..., shrink=True)`` and the choice between a
  scalar and ``ma.masked`` need concrete masks. When the mask of a full reduction is
  traced, the data is returned (the identity, or NaN for a mean, where all were masked).
- Slices share data with their base as xnp arrays do, but a base with no mask does not see
  a mask set later through a slice.
- xnp's and NumPy's ufuncs (``xnp.sin(m)``, ``numpy.sin(m)``) reach
  ``MaskedArray.__array_ufunc__`` and keep the mask; ``xnp.sum/mean/std/var/min/max/...``
  and ``xnp.median/average`` call the masked versions (``xnp._ma_dispatch``); other xnp
  functions see only the data.
- No structured (record) masks, hard masks or ``apply_along_axis``.
"""

from xnp.ma import _ops, _reductions, _umethods  # noqa: F401  (operators and methods)
from xnp.ma._core import (  # noqa: F401
    MAError,
    MaskedArray,
    MaskedConstant,
    MaskError,
    MaskType,
    get_data,
    get_mask,
    getdata,
    getmask,
    getmaskarray,
    isarray,
    isMA,
    isMaskedArray,
    masked,
    masked_singleton,
    nomask,
)
from xnp.ma._funcs import (  # noqa: F401
    arange,
    array,
    asanyarray,
    asarray,
    clip,
    column_stack,
    compressed,
    concatenate,
    copy,
    count,
    count_masked,
    default_fill_value,
    dot,
    dstack,
    empty,
    empty_like,
    filled,
    fix_invalid,
    hstack,
    is_mask,
    is_masked,
    make_mask,
    make_mask_none,
    mask_or,
    masked_array,
    masked_equal,
    masked_greater,
    masked_greater_equal,
    masked_inside,
    masked_invalid,
    masked_less,
    masked_less_equal,
    masked_not_equal,
    masked_object,
    masked_outside,
    masked_values,
    masked_where,
    ones,
    ones_like,
    ravel,
    reshape,
    row_stack,
    set_fill_value,
    squeeze,
    stack,
    swapaxes,
    transpose,
    vstack,
    where,
    zeros,
    zeros_like,
)
from xnp.ma._median import median  # noqa: F401
from xnp.ma._methods import (  # noqa: F401
    append,
    convolve,
    correlate,
    diff,
    expand_dims,
    round_,
    trace,
)
from xnp.ma._methods import round_ as round  # noqa: F401,A004
from xnp.ma._more import (  # noqa: F401
    allclose,
    allequal,
    angle,
    anom,
    anomalies,
    choose,
    compress,
    diag,
    diagonal,
    flatten_mask,
    identity,
    inner,
    innerproduct,
    masked_print_option,
    maximum_fill_value,
    minimum_fill_value,
    ndim,
    nonzero,
    outer,
    outerproduct,
    put,
    putmask,
    repeat,
    resize,
    shape,
    size,
    take,
)
from xnp.ma._names import (  # noqa: F401
    bool_,
    common_fill_value,
    get_fill_value,
    harden_mask,
    left_shift,
    make_mask_descr,
    right_shift,
    soften_mask,
)
from xnp.ma._ops import make_binary, make_unary
from xnp.ma._reductions import (  # noqa: F401
    all,
    alltrue,
    amax,
    amin,
    any,
    argmax,
    argmin,
    argsort,
    average,
    cumprod,
    cumsum,
    max,
    mean,
    min,
    prod,
    product,
    ptp,
    sometrue,
    sort,
    std,
    sum,
    var,
)

_UNARY = ("sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan",
          "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
          "arctanh", "absolute", "negative", "floor", "ceil", "rint", "trunc", "sign",
          "square", "exp2", "conjugate", "logical_not", "invert", "fabs", "around",
          "deg2rad", "rad2deg", "degrees", "radians")
_BINARY = ("add", "subtract", "multiply", "divide", "true_divide", "floor_divide",
           "remainder", "mod", "fmod", "arctan2", "hypot", "logical_and", "logical_or",
           "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "equal", "not_equal",
           "less", "less_equal", "greater", "greater_equal")


def _build():
    import xnp
    space = globals()
    for name in _UNARY:
        if hasattr(xnp, name):
            space[name] = make_unary(name)
    for name in _BINARY:
        if hasattr(xnp, name):
            space[name] = make_binary(name, compare=name in _ops.COMPARISONS)
    space["abs"] = make_unary("absolute")
    space["conjugate"] = make_unary("conjugate")
    space["power"] = make_binary("power", domained=False, finite=True)
    space["maximum"] = make_binary("maximum", domained=False)
    space["minimum"] = make_binary("minimum", domained=False)
    for name in (*_BINARY, "power", "maximum", "minimum"):
        if name in space and name not in _ops.COMPARISONS:
            _umethods.attach(space[name], name)


_build()
del _build

from xnp.ma.extras import *  # noqa: E402,F401,F403
from xnp.ma.extras import apply_along_axis, apply_over_axes, corrcoef, cov, mr_, polyfit  # noqa: E402,F401,I001
