"""NumPy's ``__array_function__`` protocol (NEP 18) for xnp's functions.

``xnp.sum(duck)``, where ``duck``'s class defines ``__array_function__`` (a duck array: a
Dask, pint or user-defined array type), calls ``type(duck).__array_function__(duck,
xnp.sum, types, args, kwargs)`` instead of converting ``duck`` to an array, as
``numpy.sum`` does; when every such argument returns ``NotImplemented`` a TypeError says
that no implementation was found. The functions are those NumPy dispatches this way
(``numpy.sum`` has an ``_implementation``); the relevant arguments are the positional and
keyword arguments and the items of list or tuple arguments, as NumPy's dispatchers name
them for most functions. xnp's and NumPy's arrays, tracers, scalars and Python numbers
never dispatch, so ordinary calls only pay a type check per argument.
"""

from __future__ import annotations

import numpy as np

from xnp import _eager_numpy
from xnp._array import ndarray

# Types that never override functions (checked first, by identity).
_PLAIN = frozenset({ndarray, np.ndarray, int, float, complex, bool, str, type(None),
                    slice, type(Ellipsis), np.dtype, type, np.float64})
_SEQUENCES = (list, tuple)


def _overrides(a) -> bool:
    """Whether ``a``'s class has its own ``__array_function__`` (not ndarray's)."""
    method = getattr(type(a), "__array_function__", None)
    return method is not None and method is not np.ndarray.__array_function__ and \
        not isinstance(a, (ndarray, np.generic))


def _needs_dispatch(a) -> bool:
    """Whether argument ``a`` (or an item of a list/tuple argument) overrides functions.
    The items of a sequence are looked at until a number or a nested sequence shows that
    it is data (``xnp.sum([1, 2, ...])`` scans one item)."""
    if isinstance(a, _SEQUENCES):
        for item in a:
            t = type(item)
            if t in _PLAIN:
                if t is not ndarray and t is not np.ndarray:
                    return False
                continue
            if isinstance(item, (np.generic, *_SEQUENCES)):
                return False
            if _overrides(item):
                return True
        return False
    return _overrides(a)


def _relevant(args, kwargs) -> list:
    """The arguments that implement ``__array_function__`` (arrays included), in NumPy's
    order: argument order, but a subclass before its base classes."""
    found: list = []
    for a in (*args, *kwargs.values()):
        for item in (a if isinstance(a, _SEQUENCES) else (a,)):
            if type(item) in (ndarray, np.ndarray) or _overrides(item):
                if any(type(f) is type(item) for f in found):
                    continue
                index = next((i for i, f in enumerate(found)
                              if issubclass(type(item), type(f))), len(found))
                found.insert(index, item)
    return found


def _dispatch(public, args, kwargs):
    found = _relevant(args, kwargs)
    types = tuple(type(a) for a in found)
    for a in found:
        if type(a) in (ndarray, np.ndarray):
            continue
        result = type(a).__array_function__(a, public, types, args, kwargs)
        if result is not NotImplemented:
            return result
    name = f"{public.__module__}.{public.__name__}"
    raise TypeError(f"no implementation found for {name!r} on types that implement "
                    f"__array_function__: {[t for t in types if t not in (ndarray, np.ndarray)]}")


def dispatching(fn, name: str, module: str, numpy_fn=None):
    """``fn`` as a public function that honours ``__array_function__`` overrides; with
    ``numpy_fn`` (NumPy's routine and its call plan, see xnp/_eager_numpy.py), plain eager
    calls run NumPy's routine instead."""
    plain = _PLAIN
    numpy_fn, plan = numpy_fn or (None, None)
    plain_call, wrap_result = _eager_numpy.plain_call, _eager_numpy.wrap_result

    def public(*args, **kwargs):
        for a in args:
            if type(a) not in plain and _needs_dispatch(a):
                return _dispatch(public, args, kwargs)
        if kwargs:
            for a in kwargs.values():
                if type(a) not in plain and _needs_dispatch(a):
                    return _dispatch(public, args, kwargs)
        if plan is not None:
            call = plain_call(plan, args, kwargs)
            if call is not None:
                r = numpy_fn(*call[0], **call[1])
                if call[0] and r is call[0][0] and args and type(args[0]) is ndarray:
                    return args[0]      # NumPy returned its argument itself
                return wrap_result(r)
        return fn(*args, **kwargs)

    return _describe(public, fn, name, module)


def _describe(public, fn, name: str, module: str):
    public.__dict__.update(getattr(fn, "__dict__", {}))
    public.__name__ = public.__qualname__ = name
    public.__doc__ = fn.__doc__
    public.__module__ = module
    public.__wrapped__ = fn
    public._implementation = fn
    return public


_PUBLIC_CODE = dispatching(lambda: None, "", "").__code__


def is_dispatching(func) -> bool:
    """Whether ``func`` is one of xnp's functions made by :func:`dispatching`."""
    return getattr(func, "__code__", None) is _PUBLIC_CODE


def install(namespace: dict, numpy_module, module: str) -> None:
    """Wrap the functions of ``namespace`` that ``numpy_module`` dispatches by
    ``__array_function__``; names bound to one function stay one object."""
    import types
    wrapped: dict = {}
    for name in dir(numpy_module):
        fn = namespace.get(name)
        # (xnp's own function first: NumPy's attribute would import numpy.f2py, .testing,
        # ... lazily, some 50 ms)
        if name.startswith("_") or type(fn) is not types.FunctionType or \
                not hasattr(getattr(numpy_module, name), "_implementation"):
            continue
        if id(fn) not in wrapped:
            own = getattr(fn, "__name__", name)     # ``max`` for amax and max
            numpy_fn = None
            if name in _eager_numpy.EAGER_NUMPY.get(module, ()):
                numpy_fn = getattr(numpy_module, name)
                # (its undecorated routine, where NumPy's dispatch step can be skipped)
                plan = _eager_numpy.numpy_plan(name, numpy_fn)
                numpy_fn = (numpy_fn._implementation, plan) if plan else None
            wrapped[id(fn)] = dispatching(fn, own if hasattr(numpy_module, own) else name,
                                          module, numpy_fn)
        namespace[name] = wrapped[id(fn)]
