"""xnp.char: NumPy's legacy ``numpy.char`` namespace, run eagerly on concrete arrays.

Each function unwraps its arguments, calls ``numpy.char``'s function of the same name and
signature (these differ from ``numpy.strings`` in places: ``char.equal`` and the other
comparisons ignore trailing whitespace, ``char.partition`` returns one array with a last
axis of 3, ``char.join`` exists) and wraps the array results as xnp arrays (0-d or scalar as
NumPy returns them). A traced argument raises TypeError naming the function.

``chararray`` itself is not provided: ``array`` and ``asarray`` return plain xnp arrays of
the same dtype and contents, and ``xnp.char.chararray(...)`` raises TypeError. ``split``,
``rsplit`` and ``splitlines`` return object arrays of lists, as NumPy's.
"""

import numpy as _np

from xnp._string_ops import make_wrappers as _make_wrappers

_NAMES = (
    # comparisons (trailing whitespace ignored, as chararray compares)
    "equal", "not_equal", "greater_equal", "less_equal", "greater", "less",
    "compare_chararrays",
    # arithmetic
    "add", "multiply", "mod",
    # character-class predicates and lengths
    "isalnum", "isalpha", "isdigit", "islower", "isspace", "istitle", "isupper",
    "isnumeric", "isdecimal", "str_len",
    # searching
    "count", "endswith", "find", "index", "rfind", "rindex", "startswith",
    # padding, stripping, editing, splitting
    "center", "ljust", "rjust", "zfill", "lstrip", "rstrip", "strip", "replace",
    "expandtabs", "partition", "rpartition", "join", "split", "rsplit", "splitlines",
    "translate",
    # case
    "capitalize", "lower", "swapcase", "title", "upper",
    # bytes <-> str
    "decode", "encode",
    # construction (NumPy returns chararrays; these return plain xnp arrays)
    "array", "asarray",
)

globals().update(_make_wrappers(_np.char, _NAMES, __name__))


class chararray:
    """Not provided: NumPy's ``chararray`` is a legacy ndarray subclass, and xnp arrays
    are not NumPy arrays. Use ``xnp.char.array`` / ``xnp.asarray`` for a plain string
    array and the ``xnp.strings`` functions on it."""

    __module__ = __name__

    def __new__(cls, *args, **kwargs):
        raise TypeError("xnp.char.chararray is not supported: it is a legacy NumPy ndarray "
                        "subclass. Use xnp.char.array(...) or xnp.asarray(...) for a plain "
                        "string array and the xnp.strings functions on it.")


__all__ = [n for n in _NAMES if n in globals()] + ["chararray"]
