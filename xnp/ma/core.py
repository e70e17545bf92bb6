"""``xnp.ma.core``: the names of :mod:`numpy.ma.core` that xnp provides (everything in
:mod:`xnp.ma` that is not from ``numpy.ma.extras``)."""

from xnp.ma import *  # noqa: F401,F403
from xnp.ma import (  # noqa: F401
    MaskedConstant,
    _core,
    masked,
    masked_singleton,
    nomask,
)
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
    flatten_structured_array,
    fromflex,
    identity,
    inner,
    innerproduct,
    make_mask_descr,
    masked_print_option,
    maximum_fill_value,
    minimum_fill_value,
    mvoid,
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
