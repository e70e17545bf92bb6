"""xnp.random.

NumPy's stateful API (``seed``, ``rand``, ``normal``, ``default_rng``, ``Generator``,
``RandomState``, ...) draws from NumPy's own generators, so NumPy programs get NumPy's
numbers (see :mod:`xnp.random._numpy_state` for how this interacts with transformations).
"""

from xnp.random import _numpy_state
from xnp.random._numpy_state import (  # noqa: F401
    MT19937,
    PCG64,
    PCG64DXSM,
    SFC64,
    BitGenerator,
    Generator,
    Philox,
    RandomState,
    SeedSequence,
    default_rng,
)

globals().update(_numpy_state.module_functions())

__all__ = sorted([*_numpy_state.module_functions(), "default_rng", "Generator",
                  "RandomState", "BitGenerator", "SeedSequence", "MT19937", "PCG64",
                  "PCG64DXSM", "Philox", "SFC64"])
