"""``xnp.emath`` (numpy.emath, also numpy.lib.scimath): square roots, logarithms, powers
and inverse sines/cosines/hyperbolic tangents whose result is complex where the real
function is undefined (``emath.sqrt(-1) == 1j``).

As NumPy decides, real input becomes complex when any element is out of the real domain
(negative for sqrt and the logarithms, magnitude above 1 for arccos, arcsin and
arctanh): the result dtype depends on the values, so it needs concrete input; a traced
real array raises a ConcretizationTypeError (pass complex input to trace these).
"""

from __future__ import annotations

import numpy as np

import xnp
from transforms.core import concrete_or_error
from xnp._array import ndarray
from xnp._util import raw

__all__ = ["sqrt", "log", "log2", "log10", "logn", "power", "arccos", "arcsin", "arctanh"]

_SINGLE = {np.dtype(t) for t in (np.float32, np.float16, np.int8, np.uint8, np.int16,
                                 np.uint16, np.complex64)}


def _to_complex(x: ndarray) -> ndarray:
    """NumPy's promotion for these functions: complex64 from small types, else complex128."""
    return x.astype(np.complex64 if x.dtype in _SINGLE else np.complex128)


def _complex_where(x, outside, name: str) -> ndarray:
    x = xnp.asarray(x)
    if x.dtype.kind == "c":
        return x
    if bool(concrete_or_error(raw(xnp.any(outside(x))),
                              f"emath.{name} (its result is complex when some input is out "
                              "of the real domain; pass complex input to trace it)")):
        return _to_complex(x)
    return x


def _negative(name):
    return lambda x: _complex_where(x, lambda v: v < 0, name)


def _beyond_one(name):
    return lambda x: _complex_where(x, lambda v: xnp.abs(v) > 1, name)


def sqrt(x) -> ndarray:
    """Square root, complex for negative input: ``emath.sqrt(-4) == 2j``."""
    return xnp.sqrt(_negative("sqrt")(x))


def log(x) -> ndarray:
    """Natural logarithm, complex for negative input (``log(-1) == pi j``)."""
    return xnp.log(_negative("log")(x))


def log10(x) -> ndarray:
    """Base-10 logarithm, complex for negative input."""
    return xnp.log10(_negative("log10")(x))


def log2(x) -> ndarray:
    """Base-2 logarithm, complex for negative input."""
    return xnp.log2(_negative("log2")(x))


def logn(n, x) -> ndarray:
    """Base-``n`` logarithm ``log(x) / log(n)``, complex for negative ``x`` or ``n``."""
    return xnp.log(_negative("logn")(x)) / xnp.log(_negative("logn")(n))


def power(x, p) -> ndarray:
    """``x ** p``, complex for negative ``x``; negative integer powers are taken in
    floating point, as NumPy's emath.power."""
    x = _negative("power")(x)
    p = xnp.asarray(p)
    if p.dtype.kind in "iu" and bool(concrete_or_error(
            raw(xnp.any(p < 0)), "emath.power (negative integer exponents)")):
        p = p.astype(np.float64)
    return xnp.power(x, p)


def arccos(x) -> ndarray:
    """Inverse cosine, complex where ``|x| > 1``."""
    return xnp.arccos(_beyond_one("arccos")(x))


def arcsin(x) -> ndarray:
    """Inverse sine, complex where ``|x| > 1``."""
    return xnp.arcsin(_beyond_one("arcsin")(x))


def arctanh(x) -> ndarray:
    """Inverse hyperbolic tangent, complex where ``|x| > 1``."""
    return xnp.arctanh(_beyond_one("arctanh")(x))
