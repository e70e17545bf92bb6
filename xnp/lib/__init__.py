"""xnp.lib: the parts of numpy.lib that NumPy programs reach for directly.

``stride_tricks.sliding_window_view``, ``as_strided`` and ``broadcast_to``/``broadcast_arrays``
are built from primitives; ``NumpyVersion`` is NumPy's own (it compares version strings
only), and so are ``mixins`` (``NDArrayOperatorsMixin`` for user classes, whose operators
call ufuncs that dispatch to xnp), ``array_utils``, ``format``, ``npyio`` and ``introspect``.
"""

from numpy.lib import NumpyVersion

from xnp import _scimath as scimath
from xnp.lib import stride_tricks

__all__ = ["NumpyVersion", "scimath", "stride_tricks"]

_NUMPY_OWN = ("mixins", "array_utils", "format", "npyio", "introspect")


def __getattr__(name):
    if name in _NUMPY_OWN:
        import importlib
        return importlib.import_module(f"numpy.lib.{name}")
    raise AttributeError(f"module 'xnp.lib' has no attribute {name!r}")
