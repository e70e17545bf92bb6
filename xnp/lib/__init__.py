"""xnp.lib: the parts of numpy.lib that NumPy programs reach for directly.

``stride_tricks.sliding_window_view``, ``as_strided`` and ``broadcast_to``/``broadcast_arrays``
are built from primitives; ``NumpyVersion`` is NumPy's own (it compares version strings
only), and so is ``Arrayterator`` (it only slices the array it is given, with that
array's own indexing, so it yields xnp arrays), and so are ``mixins``
(``NDArrayOperatorsMixin`` for user classes, whose operators call ufuncs that dispatch to
xnp), ``array_utils``, ``format``, ``npyio`` and ``introspect``.
"""

from numpy.lib import Arrayterator, NumpyVersion

from xnp import _scimath as scimath
from xnp.lib import stride_tricks

__all__ = ["Arrayterator", "NumpyVersion", "scimath", "stride_tricks"]

_NUMPY_OWN = ("mixins", "array_utils", "format", "npyio", "introspect")


def _alias_numpy_own():
    # ``from xnp.lib.array_utils import normalize_axis_index`` (as NumPy's docstrings write
    # it) needs the submodules importable by name; NumPy has already loaded them all.
    import sys
    for name in _NUMPY_OWN:
        mod = sys.modules.get(f"numpy.lib.{name}")
        if mod is not None:
            sys.modules.setdefault(f"{__name__}.{name}", mod)


_alias_numpy_own()


def __getattr__(name):
    if name in _NUMPY_OWN:
        import importlib
        return importlib.import_module(f"numpy.lib.{name}")
    if name == "math":          # NumPy's deprecated alias of the standard library module
        import math
        import warnings
        warnings.warn("`np.lib.math` is a deprecated alias for the standard library `math` "
                      "module (deprecated in NumPy 1.25): use `math` itself.",
                      DeprecationWarning, stacklevel=2)
        return math
    raise AttributeError(f"module 'xnp.lib' has no attribute {name!r}")
