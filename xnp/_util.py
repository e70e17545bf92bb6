"""Small helpers shared by the NumPy-namespace modules: turning inputs into values that
primitives accept, casting, broadcasting and axis handling. Functions whose names end in
``_v`` take and return raw values (NumPy arrays, NumPy or Python scalars, tracers);
everything public in xnp takes and returns ``xnp.ndarray`` handles."""

from __future__ import annotations

import builtins
import operator
from typing import Any

import numpy as np
from numpy.exceptions import AxisError

from transforms.core import Tracer, get_aval
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray
from xnp._dtypes import canonicalize_dtype

_PY_SCALARS = (builtins.bool, int, float, complex)


def raw(x: Any):
    """The value behind ``x`` for binding: handles unwrap, scalars and NumPy pass through,
    anything else (lists, tuples, objects with ``__array__``) converts as NumPy would."""
    t = type(x)
    if t is ndarray:
        return x._value
    if t in _PY_SCALARS or t is np.ndarray or isinstance(x, (np.generic, Tracer)):
        return x
    if isinstance(x, np.ndarray):        # a subclass (memmap, matrix): its plain array,
        return np.asarray(x)             # as numpy.asarray gives
    if isinstance(x, (list, tuple)):
        return _sequence_to_value(x)
    try:
        return np.asarray(x)        # other objects: NumPy's conversion (object arrays too)
    except Exception as e:
        # A class written with ``import xnp as np`` whose ``__array__`` gives an xnp array
        # (NumPy refuses that result): its value.
        inner = x.__array__() if hasattr(type(x), "__array__") else None
        if type(inner) is ndarray:
            return inner._value
        if isinstance(e, (ValueError, Warning)):
            raise   # NumPy's own error (``__array__`` gave no array), a warning as error
        raise TypeError(f"xnp: cannot convert {type(x).__name__} to an array: {e}") from e


def _sequence_to_value(seq):
    """NumPy's conversion of nested lists, where the leaves may be xnp arrays or tracers."""
    try:                    # plain numbers and concrete arrays: NumPy converts them at once
        value = np.asarray(seq)
    except TypeError:       # a traced leaf refused conversion: build it with primitives
        pass
    else:
        return value        # object arrays included: NumPy made one for these leaves
    leaves: list = []
    _collect(seq, leaves)
    if not any(isinstance(leaf, Tracer) for leaf in leaves):
        return np.asarray(_numpyfy(seq))
    from xnp._manipulation import stack  # traced leaves: build the array with primitives
    return raw(stack([wrap(raw(item)) if not isinstance(item, (list, tuple))
                  else wrap(_sequence_to_value(item)) for item in seq]))


def _collect(x, leaves):
    if isinstance(x, (list, tuple)):
        for item in x:
            _collect(item, leaves)
    else:
        leaves.append(raw(x) if type(x) is ndarray else x)


def _numpyfy(x):
    if isinstance(x, (list, tuple)):
        return [_numpyfy(i) for i in x]
    return x._value if type(x) is ndarray else x


def numpy_values(obj, scalars: bool = False):
    """``obj`` with every xnp array (also inside lists, tuples and dicts) as its NumPy
    value, 0-d ones as NumPy scalars with ``scalars``: for handing data to NumPy's own
    functions. A traced array raises xnp's conversion error, which says what to do."""
    t = type(obj)
    if t is ndarray:
        value = np.asarray(obj)
        return value[()] if scalars and value.ndim == 0 else value
    if t in (list, tuple):
        return t(numpy_values(x, scalars) for x in obj)
    if t is dict:
        return {k: numpy_values(v, scalars) for k, v in obj.items()}
    return obj


def aval(x):
    return get_aval(x)


def dtype_of(v) -> np.dtype:
    return get_aval(v).dtype


def shape_of(v) -> tuple:
    t = type(v)
    return () if t in _PY_SCALARS else get_aval(v).shape


def cast_v(v, dtype):
    """Convert a value to ``dtype`` (a no-op when it already has it, weak or not)."""
    dtype = np.dtype(dtype)
    a = get_aval(v)
    if a.dtype == dtype and not a.weak_type:
        return v
    return lax.convert_element_type_p.bind(v, new_dtype=dtype, weak_type=False)


def user_cast_v(v, dtype):
    """``cast_v`` for a conversion the caller asked for (``dtype=``, ``out=``, storing
    into an array): concrete numbers are cast by NumPy itself, whose "invalid value
    encountered in cast" (NaN or inf into integers) and "overflow encountered in cast"
    (into a narrower float) warnings, or FloatingPointErrors, follow the caller's
    errstate. The primitive's cast stays silent, as internal casts must be."""
    dtype = np.dtype(dtype)
    if type(v) in (float, complex) or type(v) is int and -2**63 <= v < 2**63:
        v = np.asarray(v)
    if isinstance(v, (np.ndarray, np.generic)) and v.dtype != dtype and \
            v.dtype.kind in "iufc" and dtype.kind in "iufc":
        return np.asarray(v).astype(dtype)
    return cast_v(v, dtype)


def broadcast_to_v(v, shape):
    shape = tuple(shape)
    a = get_aval(v)
    if a.shape == shape:
        return v
    nd = len(shape)
    if a.ndim > nd:
        raise ValueError(f"cannot broadcast an array of shape {a.shape} to shape {shape}")
    dims = tuple(range(nd - a.ndim, nd))
    for d, n in zip(dims, a.shape):
        if n not in (1, shape[d]):
            raise ValueError(f"operands could not be broadcast together with remapped "
                             f"shapes [original->remapped]: {numpy_shape_text(a.shape)}  "
                             f"and requested shape {numpy_shape_text(shape)}")
    v = lax.broadcast_in_dim_p.bind(v, shape=shape, broadcast_dimensions=dims)
    return v


def normalize_axis(axis, ndim: int, argname: str = "axis") -> int:
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an "
                        f"integer ({argname})") from None
    if not -ndim <= axis < ndim:
        # NumPy names the argument when it is not plain ``axis`` ("source: axis 5 ...").
        raise AxisError(axis, ndim, None if argname in ("axis", "axes") else argname)
    return axis % ndim


def check_std_dtype(aval, out):
    """NumPy's TypeError for an array variance in a bool or integer ``dtype=``: its square
    root cannot be stored back in place (a 0-d one is cast, as NumPy casts scalars),
    and for an integer or bool ``out=``."""
    dt = aval.dtype
    if not (dt.kind in "biu" and (aval.ndim or out is not None)):
        # NumPy takes the root in ``out`` itself (the variance is stored there first)
        dt = getattr(out, "dtype", None)
        if dt is None or dt.kind not in "biu":
            return
    from xnp._operators import output_casting_error  # (it imports this module)
    raise output_casting_error("sqrt", np.sqrt.resolve_dtypes((dt, None))[-1], dt)


def axis_of_0d_as_1d(v, axis):
    """NumPy's C functions (take, compress, repeat) check ``axis`` against a 0-d array as
    if it were 1-d: ``(v, axis)`` with a 0-d ``v`` made 1-d (and the axis normalized)."""
    if len(shape_of(v)) == 0 and axis is not None:
        axis = normalize_axis(axis, 1)
        return lax.reshape_p.bind(v, new_sizes=(1,)), axis
    return v, axis


def normalize_axis_tuple(axis, ndim: int, argname: str = "axis",
                         repeated: str | None = None) -> tuple:
    """``None`` means every axis; a repeated axis is a ValueError, as in NumPy, whose
    message depends on the function (``repeated``; by default the reductions' one for
    ``axis``, "repeated axis in `source` argument" for other names)."""
    if axis is None:
        return tuple(range(ndim))
    if not isinstance(axis, (tuple, list)):
        axis = (axis,)
    out = tuple(normalize_axis(a, ndim, argname) for a in axis)
    if len(set(out)) != len(out):
        raise ValueError(repeated or ("duplicate value in 'axis'" if argname == "axis"
                                      else f"repeated axis in `{argname}` argument"))
    return out


def to_dtype(dtype):
    return None if dtype is None else canonicalize_dtype(dtype)


def concrete_int(x, what: str) -> int:
    from transforms.core import concrete_or_error
    return operator.index(np.asarray(concrete_or_error(x, what)).item()
                          if not isinstance(x, int) else x)


def full_v(shape, fill, dtype):
    """An array of ``shape`` filled with ``fill`` (a scalar or scalar value)."""
    fill = cast_v(fill, dtype)
    return lax.broadcast_in_dim_p.bind(fill, shape=tuple(shape), broadcast_dimensions=())


def numpy_shape_text(shape, dims=None) -> str:
    """A shape as NumPy's C code prints it in error messages: ``(2,3)``, ``(3,)``;
    ``dims`` replaces the printed entries (reshape's 'newaxis')."""
    dims = [str(d) for d in shape] if dims is None else dims
    return "(" + ",".join(dims) + ("," if len(shape) == 1 else "") + ")"


def truth_v(v):
    """Each element's truth, as NumPy tests it: booleans as they are, numbers nonzero,
    strings non-empty."""
    dt = dtype_of(v)
    if dt.kind == "b":
        return v
    if dt.kind == "O":      # each object's Python truth (None, [], '' are false)
        return cast_v(v, np.dtype(bool))
    return lax.ne_p.bind(v, np.zeros((), dt) if dt.kind in "SU" else 0)


def where_v(condition, x, y):
    """``where`` on values: NEP 50 promotion of x and y, broadcasting of all three."""
    return lax.select_n_p.bind(truth_v(condition), y, x)


def check_device(device) -> None:
    """NumPy's check of a ``device=`` argument: xnp arrays live on "cpu" (None: the
    default)."""
    if device != "cpu":
        raise ValueError(f'Device not understood. Only "cpu" is allowed, but received: '
                         f'{device}')
