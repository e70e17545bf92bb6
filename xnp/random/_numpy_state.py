"""NumPy's stateful random API for programs written against ``numpy.random``.

``xnp.random.seed(0); xnp.random.rand(3)`` draws from NumPy's own global random state,
so a NumPy program run with ``import xnp as np`` gets the very numbers it got with NumPy,
also when it mixes ``numpy.random`` and ``xnp.random`` calls. ``default_rng``,
``Generator`` and ``RandomState`` wrap NumPy's classes the same way. Array results are
xnp arrays; parameters may be xnp arrays.

Differences from NumPy: draws are made eagerly, in Python, like any other Python-side
state. Under ``jit`` such a call is evaluated once, at trace time, and its numbers are
baked into the compiled function; a traced parameter (``normal(loc=x)`` with ``x`` traced)
raises xnp's conversion error. For random numbers inside transformed code, use keys
(see :mod:`xnp.random`'s functional API when present, or pass the noise in as an
argument). ``shuffle`` rebinds the xnp array it is given.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy

from xnp._array import _wrap as _wrap_value
from xnp._array import ndarray
from xnp._util import numpy_values

# numpy.random's module-level functions drawing from the global RandomState.
LEGACY_FUNCTIONS = [
    "beta", "binomial", "bytes", "chisquare", "choice", "dirichlet", "exponential", "f",
    "gamma", "geometric", "get_state", "gumbel", "hypergeometric", "laplace", "logistic",
    "lognormal", "logseries", "multinomial", "multivariate_normal", "negative_binomial",
    "noncentral_chisquare", "noncentral_f", "normal", "pareto", "permutation", "poisson",
    "power", "rand", "randint", "randn", "random", "random_integers", "random_sample",
    "ranf", "rayleigh", "sample", "seed", "set_state", "standard_cauchy",
    "standard_exponential", "standard_gamma", "standard_normal", "standard_t",
    "triangular", "uniform", "vonmises", "wald", "weibull", "zipf",
]

# Classes used as they are (seeding and bit generation hold no array values).
BitGenerator = numpy.random.BitGenerator
SeedSequence = numpy.random.SeedSequence
MT19937 = numpy.random.MT19937
PCG64 = numpy.random.PCG64
PCG64DXSM = numpy.random.PCG64DXSM
Philox = numpy.random.Philox
SFC64 = numpy.random.SFC64


def _as_xnp(obj):
    """NumPy arrays in a result become xnp arrays; Python scalars stay (as NumPy's)."""
    if type(obj) is numpy.ndarray:
        return _wrap_value(obj)
    if type(obj) is tuple:
        return tuple(_as_xnp(x) for x in obj)
    return obj


def _drawing(method: Callable, name: str, owner: str) -> Callable:
    def draw(*args, **kwargs):
        return _as_xnp(method(*numpy_values(args), **numpy_values(kwargs)))
    draw.__name__ = draw.__qualname__ = name
    draw.__doc__ = (f"``{owner}.{name}``, drawn from NumPy's generator (see "
                    f":mod:`xnp.random._numpy_state`); array results are xnp arrays.")
    return draw


def _shuffle_into(shuffle: Callable, x, *args, **kwargs) -> None:
    """Shuffle ``x`` in place as NumPy does; an xnp array is rebound to the result."""
    if type(x) is ndarray:
        values = numpy.array(x)
        shuffle(values, *args, **numpy_values(kwargs))
        x._value = values
        return None
    return shuffle(x, *args, **kwargs)


def module_functions() -> dict:
    """xnp versions of numpy.random's module-level functions, by name."""
    fns = {name: _drawing(getattr(numpy.random, name), name, "numpy.random")
           for name in LEGACY_FUNCTIONS if hasattr(numpy.random, name)}

    def shuffle(x) -> None:
        """``numpy.random.shuffle``: shuffle along the first axis, in place (an xnp array
        is rebound to the shuffled values), with NumPy's global random state."""
        return _shuffle_into(numpy.random.shuffle, x)
    fns["shuffle"] = shuffle
    return fns


class _Wrapped:
    """A NumPy random object whose array results come back as xnp arrays."""

    _numpy_class: Any = None

    def __init__(self, *args, **kwargs):
        impl = args[0] if len(args) == 1 and not kwargs and isinstance(
            args[0], self._numpy_class) else self._numpy_class(*numpy_values(args),
                                                                **numpy_values(kwargs))
        object.__setattr__(self, "_impl", impl)

    def __getattr__(self, name: str):
        attr = getattr(self._impl, name)
        if not callable(attr) or name.startswith("_") or isinstance(attr, type):
            return attr
        return _drawing(attr, name, type(self._impl).__name__)

    def shuffle(self, x, axis: int = 0) -> None:
        """Shuffle along ``axis``, in place (an xnp array is rebound)."""
        if self._numpy_class is numpy.random.RandomState:
            return _shuffle_into(self._impl.shuffle, x)
        return _shuffle_into(self._impl.shuffle, x, axis=axis)

    def __repr__(self):
        return repr(self._impl)

    def __getstate__(self):
        return self._impl

    def __setstate__(self, impl):
        object.__setattr__(self, "_impl", impl)


class Generator(_Wrapped):
    """``numpy.random.Generator`` (``Generator(bit_generator)``), its array results as xnp
    arrays. ``default_rng(seed)`` makes one."""

    _numpy_class = numpy.random.Generator

    @property
    def bit_generator(self):
        return self._impl.bit_generator

    def spawn(self, n_children: int) -> list:
        return [Generator(g) for g in self._impl.spawn(n_children)]


class RandomState(_Wrapped):
    """``numpy.random.RandomState`` (the legacy seeded generator), its array results as
    xnp arrays."""

    _numpy_class = numpy.random.RandomState


def default_rng(seed=None) -> Generator:
    """``numpy.random.default_rng``: a :class:`Generator` (PCG64) seeded as NumPy's, so
    it draws the numbers NumPy's would. An xnp Generator passes through."""
    if isinstance(seed, Generator):
        return seed
    return Generator(numpy.random.default_rng(numpy_values(seed)))
