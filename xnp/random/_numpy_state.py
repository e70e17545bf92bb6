"""NumPy's stateful random API for programs written against ``numpy.random``.

``xnp.random.seed(0); xnp.random.rand(3)`` draws from NumPy's own global random state,
so a NumPy program run with ``import xnp as np`` gets the very numbers it got with NumPy,
also when it mixes ``numpy.random`` and ``xnp.random`` calls. ``default_rng``,
``Generator`` and ``RandomState`` wrap NumPy's classes the same way; the bit generators
and ``SeedSequence`` are NumPy's, taking xnp arrays as seeds. Array results are xnp
arrays; parameters may be xnp arrays; ``out=`` may be an xnp array (it is written, and
returned, as in NumPy). Warnings NumPy gives are reported at the caller's line.

Differences from NumPy: draws are made eagerly, in Python, like any other Python-side
state. Under ``jit`` such a call is evaluated once, at trace time, and its numbers are
baked into the compiled function; a traced parameter (``normal(loc=x)`` with ``x`` traced)
raises xnp's conversion error. For random numbers inside transformed code, use keys
(see :mod:`xnp.random`'s functional API, or pass the noise in as an argument).

``shuffle`` of an xnp array (or masked array) draws NumPy's permutation of the axis (the
swaps NumPy makes do not depend on the elements) and writes ``x[...] = x[perm]``: the
array is rebound, a view writes through to its base, a read-only array raises NumPy's
error, and a traced array is permuted by the permutation drawn at trace time.
"""

from __future__ import annotations

import functools
import os
import sys
import warnings
from typing import Any, Callable

import numpy

from xnp._array import _wrap as _wrap_value
from xnp._array import ndarray
from xnp._util import numpy_values
from xnp._writeable import check_writeable

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep

# numpy.random's module-level functions drawing from the global RandomState.
LEGACY_FUNCTIONS = [
    "beta", "binomial", "bytes", "chisquare", "choice", "dirichlet", "exponential", "f",
    "gamma", "geometric", "get_bit_generator", "get_state", "gumbel", "hypergeometric",
    "laplace", "logistic", "lognormal", "logseries", "multinomial", "multivariate_normal",
    "negative_binomial", "noncentral_chisquare", "noncentral_f", "normal", "pareto",
    "permutation", "poisson", "power", "rand", "randint", "randn", "random",
    "random_integers", "random_sample", "ranf", "rayleigh", "sample", "seed",
    "set_bit_generator", "set_state", "standard_cauchy", "standard_exponential",
    "standard_gamma", "standard_normal", "standard_t", "triangular", "uniform", "vonmises",
    "wald", "weibull", "zipf",
]


class _StandsFor(type):
    """Metaclass of the classes below that subclass NumPy's only to accept xnp arrays:
    ``isinstance`` and ``issubclass`` accept NumPy's own instances and classes too."""

    def __instancecheck__(cls, instance) -> bool:
        return isinstance(instance, cls._numpy_class)

    def __subclasscheck__(cls, subclass) -> bool:
        return type.__subclasscheck__(cls, subclass) or issubclass(subclass,
                                                                   cls._numpy_class)


def _seeded(numpy_class: type) -> type:
    """A subclass of a NumPy bit generator (or SeedSequence) whose seed may hold xnp
    arrays; everything else is NumPy's."""
    def __init__(self, *args, **kwargs):
        numpy_class.__init__(self, *numpy_values(args), **numpy_values(kwargs))
    return _StandsFor(numpy_class.__name__, (numpy_class,), {
        "__init__": __init__, "_numpy_class": numpy_class, "__module__": __name__,
        "__doc__": f"``numpy.random.{numpy_class.__name__}``; the seed may hold xnp "
                   f"arrays."})


BitGenerator = numpy.random.BitGenerator
SeedSequence = _seeded(numpy.random.SeedSequence)
MT19937 = _seeded(numpy.random.MT19937)
PCG64 = _seeded(numpy.random.PCG64)
PCG64DXSM = _seeded(numpy.random.PCG64DXSM)
Philox = _seeded(numpy.random.Philox)
SFC64 = _seeded(numpy.random.SFC64)


def _as_xnp(obj):
    """NumPy arrays in a result become xnp arrays; Python scalars stay (as NumPy's)."""
    if type(obj) is numpy.ndarray:
        return _wrap_value(obj)
    if type(obj) is tuple:
        return tuple(_as_xnp(x) for x in obj)
    return obj


def _out_buffer(out: ndarray) -> numpy.ndarray:
    """A fresh NumPy array laid out as ``out`` (C, Fortran or neither), for NumPy's draw
    to fill and check as it would check ``out`` (read-only too, so NumPy refuses it)."""
    flags = out.flags
    if flags.c_contiguous or out.size <= 1:
        buf = numpy.empty(out.shape, out.dtype)
    elif flags.f_contiguous:
        buf = numpy.empty(out.shape, out.dtype, order="F")
    else:
        buf = numpy.empty(out.shape + (2,), out.dtype)[..., 0]
    buf.flags.writeable = flags.writeable
    return buf


def _relay(fn: Callable, args: tuple, kwargs: dict):
    """``fn(*args, **kwargs)``, NumPy's warnings reported at the line that called
    xnp.random (the first frame outside this package), as NumPy's compiled code does."""
    caught: list = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            return fn(*args, **kwargs)
    finally:
        if caught:
            level, frame = 1, sys._getframe(0)
            while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
                level, frame = level + 1, frame.f_back
            for w in caught:
                warnings.warn(w.message, w.category, stacklevel=level)


# The numpy.random functions and methods whose compiled code may warn (deprecations,
# a covariance that is not positive-semidefinite, shuffling a non-sequence, ...). Only
# these pay for the warning relay (catch_warnings costs more than a scalar draw).
_MAY_WARN = frozenset({"get_state", "randint", "random_integers", "multivariate_normal",
                       "shuffle", "permutation", "integers"})


def _call_numpy(fn: Callable, args: tuple, kwargs: dict, relay: bool = True):
    """``fn(*args, **kwargs)`` with xnp values as NumPy's and an xnp ``out=`` filled."""
    out = kwargs.get("out")
    if type(out) is ndarray:
        kwargs = {**kwargs, "out": _out_buffer(out)}
    if relay:
        result = _relay(fn, numpy_values(args), numpy_values(kwargs))
    else:
        result = fn(*numpy_values(args), **numpy_values(kwargs))
    if type(out) is ndarray:
        out[...] = _wrap_value(kwargs["out"])
        return out
    return _as_xnp(result)


class _Draw:
    """A ``numpy.random`` function or method whose array results are xnp arrays. Like
    NumPy's (compiled) methods it does not bind when stored as a class attribute, and two
    draws of one NumPy method compare equal."""

    def __init__(self, fn: Callable, name: str, owner: str, convert: bool = True):
        self._fn = fn
        self._convert = convert
        self._relay = name in _MAY_WARN
        self.__name__ = self.__qualname__ = name
        self.__module__ = "xnp.random"
        self.__doc__ = (f"``{owner}.{name}``, drawn from NumPy's generator (see "
                        f":mod:`xnp.random._numpy_state`); array results are xnp arrays."
                        f"\n\nNumPy's documentation:\n\n{getattr(fn, '__doc__', '')}")

    def __call__(self, *args, **kwargs):
        if self._convert:
            return _call_numpy(self._fn, args, kwargs, self._relay)
        return self._fn(*args, **kwargs)

    def __eq__(self, other):
        return type(other) is _Draw and other._fn == self._fn

    def __hash__(self) -> int:
        return hash(self._fn)

    def __repr__(self) -> str:
        return f"<xnp.random {self.__qualname__}>"


def _shuffle(numpy_shuffle: Callable, x, axis=None) -> None:
    """Shuffle ``x`` in place with ``numpy_shuffle``'s draws (``axis`` for Generator's).

    An xnp array or masked array is permuted with xnp indexing (see the module notes);
    anything else (a list, a NumPy array, ...) is NumPy's business."""
    from xnp.ma import MaskedArray
    if type(x) is not ndarray and not isinstance(x, MaskedArray):
        return _relay(numpy_shuffle, (x,), {} if axis is None else {"axis": axis})
    if x.ndim == 0:
        raise TypeError("len() of unsized object")
    axis = 0 if axis is None else numpy.lib.array_utils.normalize_axis_index(axis, x.ndim)
    if type(x) is ndarray:
        check_writeable(x, "array")
    if x.size == 0:                 # NumPy draws nothing for an empty array
        return None
    perm = numpy.arange(x.shape[axis])
    numpy_shuffle(perm)
    x[...] = x[(slice(None),) * axis + (_wrap_value(perm),)]
    return None


def module_functions() -> dict:
    """xnp versions of numpy.random's module-level functions, by name."""
    fns = {name: _Draw(getattr(numpy.random, name), name, "numpy.random")
           for name in LEGACY_FUNCTIONS if hasattr(numpy.random, name)}

    shuffle = fns["shuffle"] = _Draw(functools.partial(_shuffle, numpy.random.shuffle),
                                     "shuffle", "numpy.random", convert=False)
    shuffle.__doc__ = ("``numpy.random.shuffle(x)``: shuffle ``x`` along its first axis, in "
                       "place, with NumPy's global random state (an xnp array is rebound "
                       "to the shuffled values, see :mod:`xnp.random._numpy_state`).")
    return fns


def _rebuild(cls, numpy_ctor, *args):
    """Unpickling: NumPy's constructor function, its object wrapped in ``cls``."""
    return cls(numpy_ctor(*args))


class _Wrapped:
    """A NumPy random object whose array results come back as xnp arrays."""

    _numpy_class: Any = None

    def __init__(self, *args, **kwargs):
        impl = args[0] if len(args) == 1 and not kwargs and isinstance(
            args[0], self._numpy_class) else self._numpy_class(*numpy_values(args),
                                                                **numpy_values(kwargs))
        object.__setattr__(self, "_impl", impl)

    def __getattr__(self, name: str):
        if name == "_impl":
            raise AttributeError(name)
        attr = getattr(self._impl, name)
        if not callable(attr) or name.startswith("_") or isinstance(attr, type):
            return attr
        draw = _Draw(attr, name, type(self._impl).__name__)
        self.__dict__[name] = draw          # one object per method, as NumPy's
        return draw

    def shuffle(self, x, axis: int = 0) -> None:
        """Shuffle along ``axis``, in place (an xnp array is rebound)."""
        if self._numpy_class is numpy.random.RandomState:
            return _shuffle(self._impl.shuffle, x)
        return _shuffle(self._impl.shuffle, x, axis=axis)

    def __repr__(self):
        return repr(self._impl)

    def __reduce__(self):
        ctor, args, state = self._impl.__reduce__()
        return functools.partial(_rebuild, type(self), ctor), args, state

    def __getstate__(self):
        return self._impl.__getstate__()

    def __setstate__(self, state):
        self._impl.__setstate__(state)


class Generator(_Wrapped):
    """``numpy.random.Generator`` (``Generator(bit_generator)``), its array results as xnp
    arrays. ``default_rng(seed)`` makes one."""

    _numpy_class = numpy.random.Generator

    @property
    def bit_generator(self):
        return self._impl.bit_generator

    def spawn(self, n_children: int) -> list:
        """``Generator.spawn``: ``n_children`` independent child generators."""
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
