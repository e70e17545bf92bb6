"""The functions exported as ``xnp.add``, ``xnp.sin``, ...: each wraps one
:class:`xnp._ufuncs.ufunc` in a plain Python function whose common call skips the ufunc
object's keyword handling (ufunc objects would cost a method call more per operation).
The function carries the ufunc's attributes and methods (``reduce``, ``outer``, ...) and
the ufunc itself as ``.ufunc``."""

from __future__ import annotations

import inspect

import numpy as np

from transforms.core import _EVAL_TRACE, _n_active, _state
from xnp._array import _new_handle, ndarray, wrap_scalar_result
from xnp._unbound import unbound
from xnp._util import raw


class _Missing:
    """The default of the positional parameters: a call that leaves one out reaches the
    ufunc through the override check (no cost on the common path), and this raises
    NumPy's TypeError for it."""

    def __array_ufunc__(self, uf, method, *args, **kwargs):
        n = sum(a is not self for a in args)
        raise TypeError(f"{uf.__name__}() takes from {uf.nin} to {uf.nin + uf.nout} "
                        f"positional arguments but {n} {'was' if n == 1 else 'were'} given")


MISSING = _Missing()


def fast_callable(uf, override):
    """A plain function for ``uf`` whose common call (arrays in, no keywords) costs about
    one NumPy call plus a few hundred nanoseconds; keyword calls, and arguments that
    ``override`` finds handling ufuncs themselves, go through ``uf``."""
    prim, fn = uf._prim, uf._fn
    impl = prim.impl if prim is not None else None
    handle, new, active, np_array = ndarray, _new_handle, _n_active, np.ndarray
    scalars = (int, float, complex, bool)
    if uf.nout != 1:
        call = lambda *args, **kwargs: uf(*args, **kwargs)
    elif uf.nin == 1:
        def call(x=MISSING, /, *args, **kwargs):
            if args or kwargs:
                return uf(x, *args, **kwargs)
            if type(x) is handle:
                v = x._value
            elif type(x) in scalars:
                v = x
            else:
                if override((x,)) is not None:
                    return uf(x)
                v = raw(x)
            if impl is None or (active[0] and _state.trace is not _EVAL_TRACE):
                return wrap_scalar_result(fn(v))
            r = impl(v)
            if type(r) is np_array:
                h = new(handle)
                h._value = r
                return h
            return r if isinstance(r, np.generic) else wrap_scalar_result(r)
    else:
        def call(x1=MISSING, x2=MISSING, /, *args, **kwargs):
            if args or kwargs:
                return uf(x1, x2, *args, **kwargs)
            if type(x1) is handle:
                v1 = x1._value
            else:
                if type(x1) not in scalars and override((x1,)) is not None:
                    return uf(x1, x2)
                v1 = raw(x1)
            if type(x2) is handle:
                v2 = x2._value
            else:
                if type(x2) not in scalars and override((x2,)) is not None:
                    return uf(x1, x2)
                v2 = raw(x2)
            if impl is None or (active[0] and _state.trace is not _EVAL_TRACE):
                return wrap_scalar_result(fn(v1, v2))
            r = impl(v1, v2)
            if type(r) is np_array:
                h = new(handle)
                h._value = r
                return h
            return r if isinstance(r, np.generic) else wrap_scalar_result(r)
    call.__name__ = call.__qualname__ = uf.__name__
    call.__doc__ = uf.__doc__
    wrapper = unbound(call)         # as NumPy's ufuncs, it does not bind as a method
    for attr in ("nin", "nout", "nargs", "identity", "reduce", "accumulate", "reduceat",
                 "outer", "at", "types", "ntypes", "signature"):
        setattr(wrapper, attr, getattr(uf, attr))
    wrapper.ufunc = uf
    wrapper.__signature__ = call_signature(uf)
    return wrapper


_KEYWORDS = (("where", True), ("casting", "same_kind"), ("order", "K"), ("dtype", None),
             ("subok", True), ("signature", None))


def call_signature(uf) -> inspect.Signature:
    """The signature NumPy gives its ufuncs (``inspect.signature(np.add)``): the inputs
    positional-only, ``out``, then the keyword-only options."""
    P = inspect.Parameter
    names = ["x"] if uf.nin == 1 else [f"x{i + 1}" for i in range(uf.nin)]
    params = [P(n, P.POSITIONAL_ONLY) for n in names]
    params.append(P("out", P.POSITIONAL_OR_KEYWORD,
                    default=None if uf.nout == 1 else (None,) * uf.nout))
    keywords = _KEYWORDS if uf.signature is None else \
        (("axes", np._NoValue), ("axis", np._NoValue), ("keepdims", False)) + _KEYWORDS[1:]
    params += [P(k, P.KEYWORD_ONLY, default=d) for k, d in keywords]
    return inspect.Signature(params)
