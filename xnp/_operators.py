"""Details of ndarray's arithmetic operators that differ from calling the ufunc.

``x ** y`` is not always ``power(x, y)``: for a float or complex array and an exponent
that is exactly the Python int ``2`` or ``-1`` or the Python float ``0.5``, NumPy's
operator computes ``square``, ``reciprocal`` or ``sqrt`` instead (for complex values
their results differ from ``power``'s in the last bits, and ``sqrt``'s warnings name
``sqrt``). Other exponents (``2.0``, ``np.int64(2)``, arrays) go to ``power``.

In-place operators that cannot cast their result back raise NumPy's casting error,
naming the ufunc behind the operator.
"""

from __future__ import annotations

import numpy as np

from transforms.core import Tracer
from xnp._util import dtype_of

# operator name (``__{name}__``) -> the ufunc NumPy's operator calls
OPERATOR_UFUNCS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
    "floordiv": "floor_divide", "mod": "remainder", "pow": "power",
    "lshift": "left_shift", "rshift": "right_shift", "and": "bitwise_and",
    "or": "bitwise_or", "xor": "bitwise_xor", "matmul": "matmul",
}


def _special_power(y) -> str | None:
    """The ufunc NumPy's ``x ** y`` calls instead of ``power`` for a float or complex
    ``x`` (see above), or None."""
    t = type(y)
    if (t is int and (y == 2 or y == -1)) or (t is float and y == 0.5):
        return "sqrt" if t is float else "square" if y == 2 else "reciprocal"
    return None


def power_operator(power_fn, ufuncs):
    """``x ** y`` on values: ``power_fn`` except in the three special cases above."""

    def pow_op(x, y):
        name = _special_power(y)
        kind = dtype_of(x).kind
        # Traced, ``x ** 2`` stays ``integer_pow`` (the same values; jaxprs read as JAX's);
        # eagerly ``square`` gives NumPy's complex results and warnings. For booleans
        # NumPy's operator squares too (``bool_array ** 2`` is int8, not power's int64).
        if name is not None and (kind in "fc" and not (name == "square" and
                                                       isinstance(x, Tracer))
                                 or kind == "b" and name == "square"):
            return ufuncs[name]._fn(x)
        return power_fn(x, y)
    pow_op.__name__ = "power"
    return pow_op


def power_in_place(buf: np.ndarray, y, out, casting: str):
    """``buf **= y`` on a NumPy array with NumPy's ufuncs, its special cases included."""
    name = _special_power(y) if buf.dtype.kind in "fc" else None
    if name is None:
        return np.power(buf, y, out=out, casting=casting)
    return getattr(np, name)(buf, out=out, casting=casting)


def output_casting_error(operator: str, from_, to) -> TypeError:
    """The TypeError NumPy raises when ``x {op}= y`` cannot cast the result to x's dtype
    (NumPy's own class, as ``xnp._ufuncs._casting_error``)."""
    name = OPERATOR_UFUNCS.get(operator, operator)
    try:
        from numpy._core import _exceptions
        return _exceptions._UFuncOutputCastingError(getattr(np, name), "same_kind", from_,
                                                    to, 0)
    except (ImportError, AttributeError, TypeError):    # NumPy's private classes moved
        return TypeError(f"Cannot cast ufunc '{name}' output from {from_!r} to {to!r} "
                         "with casting rule 'same_kind'")


def check_in_place_cast(operator: str, dtype, other) -> None:
    """Raise NumPy's casting error for ``x {op}= other`` before computing anything when
    the result's dtype cannot be cast back to x's ``dtype``: NumPy checks first, so such
    a statement warns about nothing (``int_array **= -1.5`` with a 0 in it)."""
    name = OPERATOR_UFUNCS.get(operator)
    uf = getattr(np, name, None) if name else None
    t = type(other)
    if uf is None or t is list or t is tuple:
        return
    other_dt = t if t in (int, float, complex) else dtype_of(other)
    try:
        out = uf.resolve_dtypes((dtype, other_dt, None))[-1]
    except (TypeError, ValueError):     # no loop: the computation raises NumPy's error
        return
    from xnp._dtypes import can_cast
    if not can_cast(out, dtype, "same_kind"):
        raise output_casting_error(operator, out, dtype)
