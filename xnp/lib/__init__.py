"""xnp.lib: the parts of numpy.lib that NumPy programs reach for directly.

``stride_tricks.sliding_window_view`` and ``broadcast_to``/``broadcast_arrays`` are built
from primitives; ``NumpyVersion`` is NumPy's own (it compares version strings only).
"""

from numpy.lib import NumpyVersion

from xnp import _scimath as scimath
from xnp.lib import stride_tricks

__all__ = ["NumpyVersion", "scimath", "stride_tricks"]
