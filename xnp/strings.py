"""xnp.strings: NumPy 2's ``numpy.strings`` namespace, run eagerly on concrete arrays.

String arrays ('U' and 'S' dtypes) are plain NumPy arrays inside xnp arrays and have no
primitives, so every function here unwraps its arguments, calls NumPy's function of the same
name and signature, and wraps the array results as xnp arrays (0-d or scalar as NumPy
returns them; tuples such as ``partition``'s come back as tuples of xnp arrays). A traced
argument (inside ``jit``, ``vmap``, ``grad``) raises TypeError naming the function.
The wrappers are generated from the list of names below (see ``xnp._string_ops``).
"""

import numpy as _np

from xnp._string_ops import make_wrappers as _make_wrappers

_NAMES = (
    # comparison and arithmetic ufuncs
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "add",
    "multiply", "mod",
    # character-class predicates and lengths
    "isalpha", "isdigit", "isspace", "isalnum", "islower", "isupper", "istitle",
    "isdecimal", "isnumeric", "str_len",
    # searching
    "find", "rfind", "index", "rindex", "count", "startswith", "endswith",
    # padding, stripping and editing
    "lstrip", "rstrip", "strip", "replace", "expandtabs", "center", "ljust", "rjust",
    "zfill", "partition", "rpartition", "slice", "translate",
    # case
    "upper", "lower", "swapcase", "capitalize", "title",
    # bytes <-> str
    "decode", "encode",
)

globals().update(_make_wrappers(_np.strings, _NAMES, __name__))

__all__ = [n for n in _NAMES if n in globals()]

# ``numpy.char.join`` is NumPy's ``numpy._core.strings._join`` (its ``__module__`` says
# ``numpy.strings``), so ``numpy.char.join(sep, xnp_array)`` dispatches to this name.
_join = _make_wrappers(_np.char, ("join",), __name__)["join"]
