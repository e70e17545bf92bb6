"""Argument checks of ``ufunc.__call__`` beyond the common ones (kept off the fast path):
``out=...``, positional ``out``, ``where=`` without ``out=``, and ``signature=``."""

from __future__ import annotations

import warnings

import numpy as np


def split_args(uf, args, out, missing):
    """``(inputs, out)`` from the positional arguments and ``out=`` (``missing`` when not
    given), with NumPy's TypeErrors."""
    if len(args) != uf.nin:
        if uf.nin < len(args) <= uf.nin + uf.nout and out is missing and \
                missing not in args[uf.nin:]:
            # NumPy: the outputs may follow the inputs, the missing last ones being None
            outs = args[uf.nin:] + (None,) * (uf.nin + uf.nout - len(args))
            if any(o is Ellipsis for o in outs):
                raise TypeError("out=... is only allowed as a keyword argument.")
            if uf.__name__ in ("maximum", "minimum"):    # deprecated in NumPy 2.4
                warnings.warn(f"Passing more than 2 positional arguments to np.maximum and "
                              f"np.minimum is deprecated. Pass the output as out= (np."
                              f"{uf.__name__}(a, b, out=c)); for the extrema of more than "
                              "two inputs, reduce one array along an axis.",
                              DeprecationWarning, stacklevel=3)
            return args[:uf.nin], outs if uf.nout > 1 else outs[0]
        n = sum(a is not missing for a in args)
        raise TypeError(f"{uf.__name__}() takes from {uf.nin} to {uf.nin + uf.nout} "
                        f"positional arguments but {n} {'was' if n == 1 else 'were'} given")
    if out is not missing and out is not None and out is not Ellipsis:
        if isinstance(out, tuple):
            if len(out) != uf.nout:
                raise ValueError("The 'out' tuple must have exactly one entry per ufunc "
                                 "output")
        elif uf.nout > 1:
            raise TypeError("'out' must be a tuple of arrays")
        elif isinstance(out, list):
            raise TypeError("return arrays must be of ArrayType")
    return args, out


def warn_where_without_out():
    warnings.warn("'where' used without 'out', expect unitialized memory in output. "
                  "If this is intentional, use out=None.", UserWarning, stacklevel=4)


def signature_dtypes(uf, signature, dtype):
    """NumPy's ``signature=`` as one dtype (or None) per operand, inputs then outputs."""
    if dtype is not None:
        raise TypeError("cannot specify both 'signature' and 'dtype'")
    n = uf.nin + uf.nout
    if isinstance(signature, bytes):    # NumPy decodes a byte string (or raises doing so)
        signature = signature.decode()
    if isinstance(signature, str) and "->" in signature:
        ins, _, outs = signature.partition("->")
        if len(ins) != uf.nin or len(outs) != uf.nout:
            raise ValueError(f"a type-string for {uf.__name__}, {uf.nin} typecode(s) "
                             f"before and {uf.nout} after the -> sign")
        try:
            return [np.dtype(c) for c in ins + outs]
        except TypeError as e:
            raise ValueError(f"{signature!r} is not a valid type-string: {e}") from e
    if isinstance(signature, (str, tuple)) and len(signature) == 1:
        # NumPy refuses a one-dtype signature (it once meant the output's dtype)
        raise TypeError("Use `dtype` or  fill the tuple with more than one 'None'.")
    if isinstance(signature, str):
        raise ValueError(f"a type-string for {uf.__name__}, {uf.nin} typecode(s) before "
                         f"and {uf.nout} after the -> sign")
    if isinstance(signature, tuple):
        if len(signature) != n:
            raise ValueError(f"a type-tuple must be specified of length {n} for ufunc "
                             f"'{uf.__name__}'")
        dts = [None if s is None else np.dtype(s) for s in signature]
        given = {d for d in dts if d is not None}
        if len(given) == 1 and any(d is not None for d in dts[:uf.nin]):
            # a partial signature of one dtype: NumPy's homogeneous loop of that dtype
            dts = [given.pop()] * n
        return dts
    raise TypeError("the signature object to ufunc must be a string or a tuple.")


def check_python_scalar_equiv(v, dt) -> None:
    """NumPy's TypeError where a Python number's default dtype is not ``dt`` under
    ``casting='equiv'``."""
    if not np.can_cast(_PY_DEFAULT[type(v)], dt, "equiv"):
        raise TypeError(f"cannot cast Python {type(v).__name__} to {dt} under the casting "
                        "rule 'equiv'")


def check_loop_inputs(uf, values, casting, casting_error) -> None:
    """Each input must reach the dtype of the loop NumPy picks under ``casting`` ('no' and
    'equiv' refuse any change of dtype), as NumPy checks: ``casting_error(...)`` if not."""
    from xnp._util import dtype_of
    if uf.__name__.startswith("logical_"):
        return                          # NumPy has a logical loop for every input dtype
    scalars = (int, float, complex)     # weak; a Python bool is a bool array here
    operands = tuple(np.asarray(v).dtype if uf.nin == 1 and type(v) in scalars else
                     type(v) if type(v) in scalars else
                     np.dtype(bool) if type(v) is bool else dtype_of(v) for v in values)
    try:
        loop = uf._np.resolve_dtypes(operands + (None,) * uf.nout)
    except TypeError:
        return                          # no loop at all: the call raises NumPy's error
    compares = all(t.endswith("->?") for t in uf._np.types if "O" not in t)
    for i, (v, dt) in enumerate(zip(values, loop)):
        if dt.kind == "O":
            continue                    # (Python ints only: NumPy's call takes int64)
        if type(v) is bool or uf.nin == 1 and type(v) in scalars:
            src = np.asarray(v).dtype   # strong: a bool, or a unary ufunc's only operand
            if not np.can_cast(src, dt, casting=casting):
                raise casting_error("Input", uf, casting, src, dt, i)
        elif type(v) in scalars:
            # NumPy checks a Python number's default dtype under 'equiv' (not under 'no',
            # nor a Python int compared in an integer loop)
            if casting == "equiv" and not (compares and type(v) is int and dt.kind in "iu") \
                    and not np.can_cast(_PY_DEFAULT[type(v)], dt, "equiv"):
                raise TypeError(f"cannot cast Python {type(v).__name__} to {dt} under the "
                                "casting rule 'equiv'")
        elif not np.can_cast(dtype_of(v), dt, casting=casting):
            raise casting_error("Input", uf, casting, dtype_of(v), dt, i)


_PY_DEFAULT = {bool: np.dtype(bool), int: np.dtype(np.int64), float: np.dtype(np.float64),
               complex: np.dtype(np.complex128)}


def broadcast_to_out(r, o, in_shapes, outs, where):
    """``r`` broadcast to the shape of the output array ``o``, with NumPy's errors."""
    from xnp._util import broadcast_to_v, numpy_shape_text, shape_of
    # the iteration shape broadcasts the inputs, where= and the outputs; an output must
    # have all of it (outputs are not broadcast)
    shape, wshape = shape_of(r), (() if where is True else np.shape(where))
    if shape == o.shape and where is True:
        return r                        # the common case: nothing to broadcast or check
    try:
        total = np.broadcast_shapes(shape, wshape, o.shape)
    except ValueError:
        extra = [] if where is True else [wshape]
        shapes = in_shapes + [np.shape(x) for x in outs if x is not None] + extra
        raise ValueError("operands could not be broadcast together with shapes " +
                         "".join(numpy_shape_text(s) + " " for s in shapes)) from None
    if total != tuple(o.shape):
        raise ValueError(f"non-broadcastable output operand with shape "
                         f"{numpy_shape_text(o.shape)} doesn't match the broadcast shape "
                         f"{numpy_shape_text(np.broadcast_shapes(shape, wshape))}")
    return broadcast_to_v(r, o.shape)


def reduction_input(uf, array, dtype):
    """``array`` cast to the input dtype of NumPy's loop for ``uf.reduce``/``accumulate``
    with ``dtype=`` (the loop whose first input and output take ``dtype``, inputs cast
    unsafely): ``maximum.reduce(bools, dtype='i4')`` computes in int32, and a ufunc with no
    such loop (``logical_and`` to int32, ``divide`` to bool) raises NumPy's TypeError."""
    from xnp._array import ndarray
    from xnp._creation import asarray
    a = array if isinstance(array, ndarray) else asarray(array)
    dt = np.dtype(dtype)
    if not isinstance(uf._np, np.ufunc) or a.dtype.kind not in "biufc" or \
            dt.kind not in "biufc":
        return array
    loop = uf._np.resolve_dtypes((None, a.dtype, None), signature=(dt, None, None),
                                 reduction=True, casting="unsafe")
    return a if loop[1] == a.dtype else a.astype(loop[1])
