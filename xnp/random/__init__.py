"""xnp.random.

Two APIs share this namespace:

* NumPy's stateful API (``seed``, ``rand``, ``normal``, ``default_rng``, ``Generator``,
  ``RandomState``, ...) draws from NumPy's own generators, so NumPy programs get NumPy's
  numbers (see :mod:`xnp.random._numpy_state` for how this interacts with
  transformations). ``numpy.random`` is imported on first use (it costs some 10 ms).
* JAX's functional API with explicit keys (``key``/``PRNGKey``, ``split``, ``fold_in``,
  ``bits``, ``uniform(key, shape, dtype, ...)``, ...), Threefry-2x32 based and bit for
  bit JAX's (see :mod:`xnp.random._keys` and :mod:`xnp.random._distributions`). It works
  under jit, vmap and grad. Keys are raw uint32 arrays of shape ``(2,)``; there are no
  typed key arrays.

Names in both (``normal``, ``uniform``, ``randint``, ``choice``, ``permutation``,
``exponential``, ``gumbel``, ``laplace``, ``logistic``, ``multivariate_normal``,
``gamma``, ``beta``, ``dirichlet``, ``chisquare``, ``f``, ``geometric``, ``lognormal``,
``pareto``, ``poisson``, ``rayleigh``, ``triangular``, ``wald``, ``binomial``,
``multinomial``) dispatch
on their first argument (or ``key=``): a key, i.e. an array of dtype uint32 whose last
dimension is 2, selects the functional API with JAX's signature; anything else selects
NumPy's legacy function and signature.
"""

from typing import Any

_CLASSES = ["MT19937", "PCG64", "PCG64DXSM", "SFC64", "BitGenerator", "Generator",
            "Philox", "RandomState", "SeedSequence", "default_rng"]

# The functional (key) API, by module; the names in _SHARED also exist in NumPy's.
_KEY_FUNCTIONS = {
    "_keys": ["PRNGKey", "key", "split", "fold_in", "bits", "key_data", "wrap_key_data",
              "clone", "key_impl"],
    "_distributions": ["uniform", "normal", "randint", "bernoulli", "choice", "permutation",
                       "categorical", "gumbel", "exponential", "laplace", "logistic",
                       "truncated_normal", "rademacher", "multivariate_normal"],
    "_gamma": ["gamma", "beta", "dirichlet"],
    "_more_distributions": ["cauchy", "t", "loggamma", "maxwell", "double_sided_maxwell",
                            "weibull_min", "generalized_normal", "ball", "orthogonal"],
    "_classic_distributions": ["chisquare", "f", "geometric", "lognormal", "pareto",
                               "rayleigh", "triangular", "wald", "poisson"],
    "_discrete_distributions": ["binomial", "multinomial"],
}
_SHARED = ["normal", "uniform", "randint", "choice", "permutation", "exponential", "gumbel",
           "laplace", "logistic", "multivariate_normal", "gamma", "beta", "dirichlet",
           "chisquare", "f", "geometric", "lognormal", "pareto", "rayleigh", "triangular",
           "wald", "poisson", "binomial", "multinomial"]
_numpy_names: dict = {}


def _load() -> dict:
    """NumPy's stateful API, by name (imports numpy.random on the first call)."""
    if not _numpy_names:
        import importlib
        _numpy_state = importlib.import_module("xnp.random._numpy_state")
        _numpy_names.update({name: getattr(_numpy_state, name) for name in _CLASSES})
        _numpy_names.update(_numpy_state.module_functions())
    return _numpy_names


def _functional(name: str):
    import importlib
    for module, names in _KEY_FUNCTIONS.items():
        if name in names:
            return getattr(importlib.import_module(f"xnp.random.{module}"), name)
    raise AttributeError(name)


class _Dispatching:
    """One callable for a name in both APIs: a key first selects the functional one. Like
    NumPy's ``numpy.random.normal`` (a compiled method) it does not bind when stored as a
    class attribute."""

    def __init__(self, name: str):
        self.__name__ = self.__qualname__ = name
        self.__module__ = __name__
        self.__doc__ = (
            f"``{name}``: with a key first (``{name}(key, shape=(), dtype=None, ...)``), "
            f"JAX's functional sampler, see :func:`xnp.random._distributions.{name}`; "
            f"otherwise NumPy's legacy ``numpy.random.{name}``, drawn from NumPy's global "
            f"state (see :mod:`xnp.random._numpy_state`).\n\n"
            f"A key is an array of dtype uint32 whose last dimension is 2 (so a NumPy-style "
            f"call whose first argument is such an array is taken as a key call).")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from xnp.random._keys import is_key_like
        first = args[0] if args else kwargs.get("key")
        if first is not None and is_key_like(first):
            return _functional(self.__name__)(*args, **kwargs)
        return _load()[self.__name__](*args, **kwargs)

    def __repr__(self) -> str:
        return f"<xnp.random.{self.__name__}>"


def _dispatching(name: str):
    return _Dispatching(name)


def __getattr__(name: str):
    if name == "__all__":       # ``from xnp.random import *``: NumPy's names and the key API
        import numpy.random
        value = sorted({*numpy.random.__all__, *(n for v in _KEY_FUNCTIONS.values() for n in v)})
        globals()[name] = value
        return value
    if name.startswith("_"):
        raise AttributeError(f"module 'xnp.random' has no attribute {name!r}")
    if name in _SHARED:
        value = _dispatching(name)
    elif name == "mtrand":
        import importlib
        value = importlib.import_module("xnp.random.mtrand")
    elif any(name in names for names in _KEY_FUNCTIONS.values()):
        value = _functional(name)
    else:
        names = _load()
        if name not in names:
            raise AttributeError(f"module 'xnp.random' has no attribute {name!r}")
        value = names[name]
    globals()[name] = value
    return value


def __dir__():
    return sorted({*globals(), *_load(), *(n for v in _KEY_FUNCTIONS.values() for n in v)})
