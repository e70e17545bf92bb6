"""NumPy's ufuncs under their NumPy names, as :class:`ufunc` objects built on primitives.

Each ufunc is a function on raw values (one primitive, or a few composed) wrapped in an
object that provides NumPy's calling convention: ``out=``, ``where=``, ``dtype=``,
``casting=``, and the ``reduce``, ``accumulate``, ``reduceat``, ``outer`` and ``at``
methods (``xnp._ufunc_methods`` covers the binary ufuncs without a reduction primitive).
Composite ufuncs first cast their inputs to the loop dtypes NumPy itself would choose, so result
dtypes (and TypeErrors for unsupported types) are NumPy's.
"""

from __future__ import annotations

import math

import numpy as np

from transforms.core import Primitive, Tracer
from xnp import _ufunc_composites as _c  # the ufuncs composed of several primitives
from xnp import lax
from xnp._array import _wrap as wrap
from xnp._array import ndarray, wrap_scalar_result
from xnp._dtypes import python_scalar_cast_dtype
from xnp._ma_dispatch import _is_masked
from xnp._object_loops import object_aware
from xnp._ufunc_fast import MISSING, fast_callable
from xnp._ufunc_where import call_where
from xnp._util import cast_v, dtype_of, raw, shape_of, user_cast_v
from xnp._views import refresh, store_value, view_info, write_back, write_numpy_out
from xnp._writeable import check_writeable

_P = lax  # primitives are module attributes of xnp.lax: lax.add_p, ...


class _UfuncMeta(type):
    def __instancecheck__(cls, instance) -> bool:
        # xnp.add etc. are plain functions for speed (see _fast_callable) that carry their
        # ufunc object: isinstance(xnp.add, xnp.ufunc) holds, as in NumPy.
        return type.__instancecheck__(cls, instance) or type.__instancecheck__(
            cls, getattr(instance, "ufunc", None))


class ufunc(metaclass=_UfuncMeta):
    """A NumPy-style universal function over xnp arrays (and tracers)."""

    __slots__ = ("__name__", "nin", "nout", "_fn", "_prim", "_np", "identity", "__dict__")

    def __init__(self, name: str, nin: int, fn, np_ufunc, identity=None):
        self.__name__, self.nin, self.nout = name, nin, np_ufunc.nout
        self._prim = fn if isinstance(fn, Primitive) else None
        self._fn = fn.bind if self._prim is not None else object_aware(fn, np_ufunc)
        self._np, self.identity = np_ufunc, identity
        self.__doc__ = (f"xnp.{name}: NumPy's ``{np_ufunc.__name__}`` built on primitives; "
                        "same broadcasting, NEP 50 dtypes, out=/where=/dtype= arguments.")

    @property
    def nargs(self) -> int:
        return self.nin + self.nout

    def __repr__(self):
        return f"<xnp.ufunc '{self.__name__}'>"

    def __call__(self, *args, out=MISSING, where=True, dtype=None, casting="same_kind",
                 order="K", subok=True, signature=None, sig=None):
        from xnp import _ufunc_args
        if sig is not None:         # NumPy's older spelling of ``signature``
            if signature is not None:
                raise TypeError("cannot specify both 'sig' and 'signature'")
            signature = sig
        args, out = _ufunc_args.split_args(self, args, out, MISSING)
        as_array = out is Ellipsis
        if out is MISSING or as_array:
            if where is not True and out is MISSING:
                _ufunc_args.warn_where_without_out()
            out = None
        sig = None if signature is None else \
            _ufunc_args.signature_dtypes(self, signature, dtype)
        other = _override(args + (out if isinstance(out, tuple) else (out,)))
        if other is not None:
            kwargs = _override_kwargs(out, *_call_options(where, dtype, casting, order,
                                                          subok, signature))
            return type(other).__array_ufunc__(other, self, "__call__", *args, **kwargs)
        values = [raw(a) for a in args]
        if out is None and where is True and dtype is None and sig is None and \
                casting not in ("no", "equiv"):
            result = self._fn(*values)
            finish = _as_array if as_array else wrap_scalar_result
            return finish(result) if self.nout == 1 else tuple(map(finish, result))
        return _general_call(self, values, out, where, dtype, casting, sig, as_array)

    # --- methods ------------------------------------------------------------------------
    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False,
               initial=np._NoValue, where=True):
        found, r = _method_override(
            self, "reduce", (array,), out, _axis_option(axis),
            ("dtype", dtype, dtype is not None), ("keepdims", keepdims, keepdims is not False),
            ("initial", initial, initial is not np._NoValue), ("where", where, where is not True))
        if found:
            return r
        from xnp import _reductions as red
        ndim = red.aval_of(array).ndim
        if type(axis) is not int or not -ndim <= axis < ndim:
            red.reduce_axes(axis, ndim)     # an AxisError before other errors, as NumPy
        if dtype is not None:
            from xnp._ufunc_args import reduction_input
            array = reduction_input(self, array, dtype)
        if out is Ellipsis:             # NumPy's out=...: the result as an array, also 0-d
            return _as_array(raw(self.reduce(array, axis, dtype, None, keepdims, initial,
                                             where)))
        if initial is np._NoValue:
            initial = None
        elif initial is None:           # NumPy: an explicit None drops the identity
            if where is not True:
                if red.aval_of(array).dtype.kind in "biufc":   # NumPy's TypeError first
                    from xnp._ufunc_methods import _prepare
                    _prepare(self, f"{self.__name__}.reduce", array, dtype)
                raise ValueError(f"reduction operation '{self.__name__}' does not have an "
                                 "identity, so to use a where mask one has to specify "
                                 "'initial'")
            _check_nonempty_reduction(self.__name__, red.aval_of(array).shape, axis)
        name = _REDUCERS.get(self.__name__)
        if name is None or (name in ("all", "any") and (  # object arrays: Python's and/or
                initial is not None or red.aval_of(array).dtype.kind == "O")):
            from xnp import _ufunc_methods
            return _ufunc_methods.reduce(self, array, axis, dtype, out, keepdims, initial,
                                         where)
        kwargs = {"axis": axis, "keepdims": keepdims, "out": out}
        if name in ("sum", "prod"):
            kwargs["dtype"] = dtype
        if initial is not None:
            kwargs["initial"] = initial
        if where is not True:
            kwargs["where"] = where
        return getattr(red, name)(array, **kwargs)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """Running results of the ufunc along ``axis``, as NumPy's ``ufunc.accumulate``."""
        found, r = _method_override(self, "accumulate", (array,), out, _axis_option(axis),
                                    ("dtype", dtype, dtype is not None))
        if found:
            return r
        from xnp import _reductions as red
        ndim = red.aval_of(array).ndim
        # NumPy's order: the axis, a 0-d array, several axes, then the loop's TypeError
        if axis is not None:
            red.reduce_axes(axis, ndim)
        if ndim == 0:
            raise TypeError("cannot accumulate on a scalar")
        if isinstance(axis, (tuple, list)):
            if len(axis) != 1:
                raise ValueError("accumulate does not allow multiple axes")
            axis = axis[0]
        if axis is None:
            if ndim > 1:
                raise ValueError("accumulate does not allow multiple axes")
            axis = 0
        if dtype is not None:
            from xnp._ufunc_args import reduction_input
            array = reduction_input(self, array, dtype)
        name = _ACCUMULATORS.get(self.__name__)
        if name is None or name in ("all", "any") and red.aval_of(array).dtype.kind == "O":
            from xnp import _ufunc_methods
            return _ufunc_methods.accumulate(self, array, axis, dtype, out)
        if name in ("cumsum", "cumprod"):
            return getattr(red, name)(array, axis=axis, dtype=dtype, out=out)
        return red.accumulate_along(f"{self.__name__}.accumulate", name, array, axis,
                                    dtype, out)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """NumPy's ``ufunc.reduceat`` (the indices must be concrete)."""
        found, r = _method_override(self, "reduceat", (array, indices), out,
                                    _axis_option(axis), ("dtype", dtype, dtype is not None))
        if found:
            return r
        from xnp import _ufunc_methods
        return _ufunc_methods.reduceat(self, array, indices, axis, dtype, out)

    def outer(self, a, b, **kwargs):
        """The ufunc of every pair ``(a[i...], b[j...])``, as NumPy's ``ufunc.outer``."""
        found, r = _method_override(self, "outer", (a, b), kwargs.get("out"),
                                    *((k, v, True) for k, v in kwargs.items() if k != "out"))
        if found:
            return r
        from xnp._creation import asarray
        from xnp._manipulation import expand_dims
        if self.nin != 2:
            raise ValueError(f"{self.__name__}.outer: outer product only supported for "
                             "binary functions")
        # NumPy makes arrays of both operands first: Python scalars are not weak here
        a, b = (wrap(raw(x)) if isinstance(raw(x), Tracer) else asarray(x) for x in (a, b))
        a = expand_dims(a, tuple(range(a.ndim, a.ndim + b.ndim)))
        return self(a, b, **kwargs)

    def at(self, a, indices, b=None):
        """In-place unbuffered operation: rebinds the handle ``a`` to the result."""
        found, r = _method_override(self, "at", (a, indices) + (() if b is None else (b,)),
                                    None)
        if found:
            return r
        from xnp._ufunc_at import ufunc_at
        return ufunc_at(self, a, indices, b)

    @property
    def types(self) -> list:
        """NumPy's loops for this ufunc (``'ff->f'``, ...), less the datetime ones xnp
        has no dtype for."""
        return [t for t in self._np.types if not set(t) & set("Mm")]

    @property
    def ntypes(self) -> int:
        return len(self.types)

    signature = None    # elementwise: no core dimensions (NumPy's gufuncs have one)


_REDUCERS = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
             "logical_and": "all", "logical_or": "any", "fmax": "nanmax", "fmin": "nanmin"}
_ACCUMULATORS = {"add": "cumsum", "multiply": "cumprod", "maximum": "max", "minimum": "min",
                 "fmax": "fmax", "fmin": "fmin", "logaddexp": "logaddexp",
                 "logical_and": "all", "logical_or": "any"}


def _casting_error(kind: str, uf, casting, from_, to, index: int = 0) -> TypeError:
    """NumPy's own exception (``_UFuncInputCastingError`` / ``_UFuncOutputCastingError``,
    TypeErrors), so that code catching ``numpy.exceptions``' classes catches xnp's too."""
    try:
        from numpy._core import _exceptions
        return getattr(_exceptions, f"_UFunc{kind}CastingError")(uf._np, casting, from_, to,
                                                                  index)
    except (ImportError, AttributeError, TypeError):    # NumPy's private classes moved
        return TypeError(f"Cannot cast ufunc '{uf.__name__}' {kind.lower()} from {from_!r} "
                         f"to {to!r} with casting rule '{casting}'")


_OWN_TYPES = (ndarray, np.ndarray, np.generic, int, float, complex, bool, list, tuple)


def _override(args):
    """The first argument whose class overrides ufuncs (``__array_ufunc__``, as
    ``xnp.ma.MaskedArray`` does), or None: NumPy's protocol, so such objects handle
    ``xnp.sin(x)`` themselves."""
    for a in args:
        if not isinstance(a, _OWN_TYPES) and a is not None and \
                getattr(type(a), "__array_ufunc__", None) is not None and \
                not isinstance(a, Tracer):
            return a
    return None


def _override_kwargs(out, *options) -> dict:
    """The keywords an ``__array_ufunc__`` override receives, normalized as NumPy does:
    ``out`` always a tuple (left out when all None), and of the ``(name, value, given)``
    options those given (differing from their defaults)."""
    kwargs = {}
    if out is not None:
        out = out if isinstance(out, tuple) else (out,)
        if any(o is not None for o in out):
            kwargs["out"] = out
    kwargs.update((key, value) for key, value, given in options if given)
    return kwargs


def _call_options(where, dtype, casting, order, subok, signature) -> tuple:
    """``__call__``'s options for :func:`_override_kwargs` (``sig`` is ``signature``)."""
    return (("where", where, where is not True), ("dtype", dtype, dtype is not None),
            ("casting", casting, not _is_str(casting, "same_kind")),
            ("order", order, not _is_str(order, "K")), ("subok", subok, subok is not True),
            ("signature", signature, signature is not None))


def _method_override(uf, method: str, inputs: tuple, out, *options):
    """``(True, result)`` when an operand overrides ufuncs: its ``__array_ufunc__`` for
    ``uf.method`` (``reduce``, ``accumulate``, ...), as NumPy dispatches; else
    ``(False, None)``. xnp's masked arrays keep the paths of xnp's functions
    (``xnp._ma_dispatch``), which honour the mask with NumPy's axis defaults."""
    outs = out if isinstance(out, tuple) else (out,)
    other = _override(inputs + outs)
    if other is None or _is_masked(other):
        return False, None
    kwargs = _override_kwargs(out, *options)
    return True, type(other).__array_ufunc__(other, uf, method, *inputs, **kwargs)


def _axis_option(axis) -> tuple:
    return ("axis", axis, not (type(axis) is int and axis == 0))


def _is_str(value, text: str) -> bool:
    return isinstance(value, str) and value == text


_PY_SCALARS = (int, float, complex, bool)   # weak: cast to a signature's dtypes unchecked


def _as_array(r):
    """``out=...``: the result as an array also when it is 0-d."""
    return wrap(np.asarray(r) if isinstance(r, np.generic) else r)


def _input_cast(v, dtype):
    """An input cast to a loop's dtype. The cast primitive is silent; as ``astype``, a
    cast of concrete array values gives NumPy's "invalid value encountered in cast" (NaN
    or inf to an integer loop) or "overflow encountered in cast" (to a narrower float)
    under the caller's errstate."""
    if isinstance(v, (np.ndarray, np.generic)):
        return user_cast_v(v, dtype)
    return cast_v(v, dtype)


def _output_cast(r, dtype, where):
    """A result cast to its output's dtype (``out=``, ``signature=``): with NumPy's cast
    warnings where every element is written."""
    return user_cast_v(r, dtype) if where is True and type(r) is np.ndarray else \
        cast_v(r, dtype)


def _check_nonempty_reduction(name, shape, axis):
    """NumPy's ValueError for a reduction over no elements without an identity."""
    axes = range(len(shape)) if axis is None else \
        axis if isinstance(axis, (tuple, list)) else (axis,)
    try:
        empty = any(shape[a] == 0 for a in axes) if shape else False
    except (IndexError, TypeError):
        return                          # a bad axis: the reduction raises NumPy's error
    if empty:
        raise ValueError(f"zero-size array to reduction operation {name} which has no "
                         "identity")


def _bool_only(uf) -> bool:
    """Whether every numeric loop of ``uf`` gives bool (comparisons, logical_*, isnan...)."""
    types = getattr(uf._np, "types", None)
    return bool(types) and all(t.endswith("->?") for t in types if "O" not in t)


def _resolve_operands(values) -> tuple:
    """The operands as ``ufunc.resolve_dtypes`` takes them: Python int/float/complex as
    their types (weak), a Python bool as the bool dtype."""
    return tuple(np.dtype(bool) if type(v) is bool else
                 type(v) if type(v) in _PY_SCALARS else dtype_of(v) for v in values)


def _check_signature_loop(uf, values, sig):
    """NumPy's TypeError where no loop has the dtypes a partial ``signature=`` fixes
    (``add`` has no float16 + float64 loop)."""
    if not isinstance(uf._np, np.ufunc) or \
            any(d is not None and d.kind not in "biufc" for d in sig):
        return
    operands = _resolve_operands(values)
    if any(not isinstance(o, type) and o.kind not in "biufc" for o in operands):
        return
    uf._np.resolve_dtypes(operands + (None,) * uf.nout, signature=tuple(sig),
                          casting="unsafe")


def _dtype_loop_inputs(uf, values, dtype):
    """The input dtypes of the loop that ``dtype=`` selects: NumPy fixes the outputs' dtype
    and takes the loop it resolves (``ldexp(f4, int64, dtype='d')`` keeps the int64
    exponent), the homogeneous loop where none resolves."""
    same = [dtype] * len(values)
    if uf.nout != 1 and dtype.kind in "biufc" and isinstance(uf._np, np.ufunc):
        # every output takes dtype: frexp has no such loop, modf only the float ones
        uf._np.resolve_dtypes((dtype,) * uf.nin + (None,) * uf.nout,
                              signature=(None,) * uf.nin + (dtype,) * uf.nout, casting="unsafe")
    if uf.nout != 1 or dtype.kind not in "biufc" or not isinstance(uf._np, np.ufunc):
        return same
    operands = _resolve_operands(values)
    try:
        loop = uf._np.resolve_dtypes(operands + (None,), signature=(None,) * uf.nin + (dtype,),
                                     casting="unsafe")
    except TypeError:
        if any(not isinstance(o, type) and o.kind not in "biufc" for o in operands):
            return same
        raise                           # no loop (true_divide has no integer one)
    except ValueError:
        return same
    return list(loop[:uf.nin]) if loop[-1] == dtype else same


def _general_call(uf, values, out, where, dtype, casting, sig=None, as_array=False):
    from xnp._util import where_v
    out_dtypes = [None] * uf.nout
    if sig is not None:
        ins, out_dtypes = sig[:uf.nin], sig[uf.nin:]
        if all(d is None for d in ins):       # outputs only: the loop of that dtype
            dtype = out_dtypes[0]
        else:
            _check_signature_loop(uf, values, sig)
            for i, (v, dt) in enumerate(zip(values, ins)):
                if dt is not None and type(v) not in _PY_SCALARS and \
                        not np.can_cast(dtype_of(v), dt, casting=casting):
                    raise _casting_error("Input", uf, casting, dtype_of(v), dt, i)
            values = [v if dt is None else _input_cast(v, dt) for v, dt in zip(values, ins)]
    if dtype is not None and np.dtype(dtype) == np.bool_ and _bool_only(uf):
        dtype = None        # NumPy: dtype=bool only names the bool output these loops have
    if dtype is not None:
        dtype = np.dtype(dtype)
        if uf.nin == 1 and type(values[0]) in _PY_SCALARS and dtype.kind in "biufc":
            # one Python scalar with dtype=: NumPy makes it an array of its default dtype
            # first (int64, float64, uint64 past int64), cast by the casting rule
            values = [np.asarray(values[0])]
        targets = _dtype_loop_inputs(uf, values, dtype)
        if casting == "equiv":
            # NumPy checks a Python number's default dtype under 'equiv' (not 'no') first
            from xnp._ufunc_args import check_python_scalar_equiv
            for v, to in zip(values, targets):
                if type(v) in _PY_SCALARS and to.kind in "biufc":
                    check_python_scalar_equiv(v, to)
        # a Python scalar takes dtype's kind where it can (NEP 50), range-checked: NumPy
        # converts them (OverflowError) before it checks any array's cast; a Python bool
        # is a bool
        srcs = [np.dtype(bool) if type(v) is bool else python_scalar_cast_dtype(v, to)
                if type(v) in _PY_SCALARS else None for v, to in zip(values, targets)]
        for i, (v, to, src) in enumerate(zip(values, targets, srcs)):
            src = dtype_of(v) if src is None else src
            if not np.can_cast(src, to, casting=casting):
                raise _casting_error("Input", uf, casting, src, to, i)
        cast = [_input_cast(v, to) for v, to in zip(values, targets)]
        values.clear()
        values = cast
    elif casting in ("no", "equiv") and sig is None:
        from xnp._ufunc_args import check_loop_inputs
        check_loop_inputs(uf, values, casting, _casting_error)
    in_shapes = [shape_of(v) for v in values] if out is not None else None
    if dtype is not None and dtype.kind == "O":     # NumPy's O...->O loop, even to compare
        result = lax.object_ufunc_p.bind(*values, ufunc=uf._np, options=(("dtype", dtype),))
    else:
        result = call_where(uf._fn, values, raw(where))
    values.clear()      # the inputs' buffers: an out= that is also an input may then be
    del values          # written in place (xnp._views.store_value), so its views see it
    results = [result] if uf.nout == 1 else list(result)
    results = [r if dt is None else _output_cast(r, dt, where)
               for r, dt in zip(results, out_dtypes)]
    outs = (None,) * uf.nout if out is None else \
        (out,) if isinstance(out, (ndarray, np.ndarray)) else tuple(out)
    if len(outs) != uf.nout:
        raise ValueError(f"{uf.__name__}: out must have {uf.nout} arrays")
    final = []
    for r, o in zip(results, outs):
        if o is None:
            if where is not True:
                r = where_v(raw(where), r, cast_v(0, dtype_of(r)))
            final.append(_as_array(r) if as_array else wrap_scalar_result(r))
            continue
        if type(o) is not ndarray and type(o) is not np.ndarray:
            raise TypeError(f"{uf.__name__}: out must be an xnp array, got "
                            f"{type(o).__name__}")
        if not np.can_cast(dtype_of(r), o.dtype, casting=casting):
            raise _casting_error("Output", uf, casting, dtype_of(r), o.dtype)
        from xnp._ufunc_args import broadcast_to_out
        r = broadcast_to_out(_output_cast(r, o.dtype, where), o, in_shapes, outs, where)
        if type(o) is np.ndarray:            # a NumPy array from elsewhere: as NumPy
            if where is not True:
                r = where_v(raw(where), r, o)
            final.append(write_numpy_out(o, r, uf.__name__))
            continue
        view = view_info(o)
        if view is not None:
            refresh(o, view)
        if where is not True:
            r = where_v(raw(where), r, o._value)
        check_writeable(o, "output array")
        store_value(o, r)
        if view is not None:
            write_back(o, view)
        final.append(o)
    return final[0] if uf.nout == 1 else tuple(final)


B = lambda prim: prim  # a ufunc that is exactly one primitive  # noqa: E731


# --- the table: NumPy name, raw function, the NumPy ufunc it mirrors --------------------------
_TABLE = {
    "absolute": (B(lax.abs_p), np.absolute), "add": (B(lax.add_p), np.add),
    "arccos": (B(lax.acos_p), np.arccos), "arccosh": (B(lax.acosh_p), np.arccosh),
    "arcsin": (B(lax.asin_p), np.arcsin), "arcsinh": (B(lax.asinh_p), np.arcsinh),
    "arctan": (B(lax.atan_p), np.arctan), "arctan2": (B(lax.atan2_p), np.arctan2),
    "arctanh": (B(lax.atanh_p), np.arctanh),
    "bitwise_and": (B(lax.and_p), np.bitwise_and), "bitwise_or": (B(lax.or_p), np.bitwise_or),
    "bitwise_xor": (B(lax.xor_p), np.bitwise_xor),
    "bitwise_count": (B(lax.population_count_p), np.bitwise_count),
    "cbrt": (B(lax.cbrt_p), np.cbrt), "ceil": (B(lax.ceil_p), np.ceil),
    "conjugate": (B(lax.conj_p), np.conjugate), "copysign": (_c._copysign, np.copysign),
    "cos": (B(lax.cos_p), np.cos), "cosh": (B(lax.cosh_p), np.cosh),
    "deg2rad": (_c._scaled(np.deg2rad, math.pi, 180), np.deg2rad),
    "degrees": (_c._scaled(np.degrees, 180, math.pi), np.degrees),
    "divide": (B(lax.div_p), np.divide), "divmod": (_c._divmod, np.divmod),
    "equal": (B(lax.eq_p), np.equal), "exp": (B(lax.exp_p), np.exp),
    "exp2": (B(lax.exp2_p), np.exp2), "expm1": (B(lax.expm1_p), np.expm1),
    "fabs": (_c._fabs, np.fabs), "float_power": (_c._float_power, np.float_power),
    "floor": (B(lax.floor_p), np.floor),
    "floor_divide": (B(lax.floor_divide_p), np.floor_divide),
    "fmax": (_c._fmax_fmin(lax.max_p), np.fmax), "fmin": (_c._fmax_fmin(lax.min_p), np.fmin),
    "fmod": (B(lax.rem_p), np.fmod), "frexp": (_c._frexp, np.frexp),
    "gcd": (B(lax.gcd_p), np.gcd), "greater": (B(lax.gt_p), np.greater),
    "greater_equal": (B(lax.ge_p), np.greater_equal), "heaviside": (_c._heaviside, np.heaviside),
    "hypot": (_c._with_custom_jvp(_c._hypot, _c._hypot_tangent, np.hypot), np.hypot),
    "invert": (B(lax.not_p), np.invert),
    "isfinite": (B(lax.is_finite_p), np.isfinite), "isinf": (_c._isinf, np.isinf),
    "isnan": (B(lax.is_nan_p), np.isnan), "lcm": (_c._lcm, np.lcm), "ldexp": (_c._ldexp, np.ldexp),
    "left_shift": (B(lax.shift_left_p), np.left_shift), "less": (B(lax.lt_p), np.less),
    "less_equal": (B(lax.le_p), np.less_equal), "log": (B(lax.log_p), np.log),
    "log10": (B(lax.log10_p), np.log10), "log1p": (B(lax.log1p_p), np.log1p),
    "log2": (B(lax.log2_p), np.log2),
    "logaddexp": (_c._with_custom_jvp(_c._logaddexp_base(lax.exp_p, 1),
                                   _c._logaddexp_tangent(lax.exp_p), np.logaddexp),
                  np.logaddexp),
    "logaddexp2": (_c._with_custom_jvp(_c._logaddexp_base(lax.exp2_p, 1 / math.log(2)),
                                    _c._logaddexp_tangent(lax.exp2_p), np.logaddexp2),
                   np.logaddexp2),
    "logical_and": (_c._logical(lax.and_p, np.logical_and), np.logical_and),
    "logical_not": (_c._logical(lax.not_p, np.logical_not), np.logical_not),
    "logical_or": (_c._logical(lax.or_p, np.logical_or), np.logical_or),
    "logical_xor": (_c._logical(lax.xor_p, np.logical_xor), np.logical_xor),
    "maximum": (B(lax.max_p), np.maximum), "minimum": (B(lax.min_p), np.minimum),
    "modf": (_c._modf, np.modf), "multiply": (B(lax.mul_p), np.multiply),
    "negative": (B(lax.neg_p), np.negative),
    "nextafter": (B(lax.nextafter_p), np.nextafter),
    "not_equal": (B(lax.ne_p), np.not_equal), "positive": (_c._positive, np.positive),
    "power": (_c._power, np.power),
    "rad2deg": (_c._scaled(np.rad2deg, 180, math.pi), np.rad2deg),
    "radians": (_c._scaled(np.radians, math.pi, 180), np.radians),
    "reciprocal": (B(lax.reciprocal_p), np.reciprocal), "remainder": (_c._remainder, np.remainder),
    "right_shift": (_c._right_shift, np.right_shift), "rint": (B(lax.round_p), np.rint),
    "sign": (B(lax.sign_p), np.sign),
    "signbit": (B(lax.signbit_p), np.signbit), "sin": (B(lax.sin_p), np.sin),
    "sinh": (B(lax.sinh_p), np.sinh), "spacing": (_c._spacing, np.spacing),
    "sqrt": (B(lax.sqrt_p), np.sqrt), "square": (B(lax.square_p), np.square),
    "subtract": (B(lax.sub_p), np.subtract),
    "tan": (B(lax.tan_p), np.tan), "tanh": (B(lax.tanh_p), np.tanh),
    "trunc": (B(lax.trunc_p), np.trunc),
}
_IDENTITY = {"add": 0, "multiply": 1, "logical_and": True, "logical_or": False,
             "bitwise_and": -1, "bitwise_or": 0, "bitwise_xor": 0}

UFUNCS = {name: ufunc(name, np_uf.nin, fn, np_uf, _IDENTITY.get(name, np_uf.identity))
          for name, (fn, np_uf) in _TABLE.items()}
_ALIASES = {
    "abs": "absolute", "acos": "arccos", "acosh": "arccosh", "asin": "arcsin",
    "asinh": "arcsinh", "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh",
    "bitwise_invert": "invert", "bitwise_not": "invert", "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift", "conj": "conjugate", "mod": "remainder",
    "pow": "power", "true_divide": "divide",
}
UFUNCS.update({alias: UFUNCS[target] for alias, target in _ALIASES.items()})


_CALLABLES: dict = {}      # one function per ufunc, so aliases are the same object (NumPy)
for _uf in UFUNCS.values():
    if id(_uf) not in _CALLABLES:
        _CALLABLES[id(_uf)] = fast_callable(_uf, _override)
FUNCTIONS = {name: _CALLABLES[id(uf)] for name, uf in UFUNCS.items()}
globals().update(FUNCTIONS)
negative = FUNCTIONS["negative"]

__all__ = sorted(FUNCTIONS) + ["ufunc"]
