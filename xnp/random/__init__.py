"""xnp.random.

NumPy's stateful API (``seed``, ``rand``, ``normal``, ``default_rng``, ``Generator``,
``RandomState``, ...) draws from NumPy's own generators, so NumPy programs get NumPy's
numbers (see :mod:`xnp.random._numpy_state` for how this interacts with transformations).
``numpy.random`` is imported on first use (it costs some 10 ms).
"""

_CLASSES = ["MT19937", "PCG64", "PCG64DXSM", "SFC64", "BitGenerator", "Generator",
            "Philox", "RandomState", "SeedSequence", "default_rng"]


def _load() -> dict:
    import importlib
    _numpy_state = importlib.import_module("xnp.random._numpy_state")
    names = {name: getattr(_numpy_state, name) for name in _CLASSES}
    names.update(_numpy_state.module_functions())
    globals().update(names)
    return names


def __getattr__(name):
    if name.startswith("_"):
        raise AttributeError(f"module 'xnp.random' has no attribute {name!r}")
    names = _load()
    if name in names:
        return names[name]
    raise AttributeError(f"module 'xnp.random' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_load()])
