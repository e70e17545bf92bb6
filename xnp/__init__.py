"""xnp: NumPy's API, built on primitives, so that the same code can be transformed.

``import xnp as np`` runs ordinary NumPy code with NumPy's results and dtypes; the same code
can then be staged into a jaxpr (``xnp.make_jaxpr``) and, through later transformations,
differentiated, batched and compiled. See README.md for the differences from NumPy.
"""

import math as _pymath

import numpy as _numpy

from transforms.api_extras import (
    ShapeDtypeStruct, checkpoint, eval_shape, linear_transpose, remat,
)
from transforms.api_more import (
    block_until_ready, closure_convert, custom_gradient, device_get, device_put,
    ensure_compile_time_eval, jacobian, named_call, named_scope,
)
from transforms.autodiff import (
    grad, hessian, jacfwd, jacrev, jvp, linearize, value_and_grad, vjp,
)
from transforms.batching import vmap
from transforms.custom_derivatives import custom_jvp, custom_vjp
from transforms.jaxpr import eval_jaxpr, make_jaxpr
from transforms.jit import disable_jit, jit
from xnp import _scimath as emath
from xnp import fft, lax, lib, linalg, random
from xnp._array import ndarray
from xnp._array_api import __array_namespace_info__, from_dlpack  # noqa: F401
from xnp._copying import *  # noqa: F403
from xnp._creation import *  # noqa: F403
from xnp._ranges import *  # noqa: F403
from xnp._dtypes import (  # noqa: F401
    bfloat16, can_cast, complexfloating, dtype, finfo, floating, generic, iinfo, inexact,
    integer, isdtype, issubdtype, number, promote_types, result_type, signedinteger,
    unsignedinteger,
)
from xnp._flatiter import flatiter  # noqa: F401
# NumPy's date and time scalar types, so that code naming them runs; xnp's functions do
# not compute on datetime arrays (README: no datetime dtypes).
from numpy import datetime64, timedelta64  # noqa: F401, E402
from xnp._nditer import broadcast, nditer, nested_iters  # noqa: F401
from xnp._histogramdd import *  # noqa: F403
from xnp._indexing import *  # noqa: F403
from xnp import _index_update  # noqa: E402, F401  (x[key] = v and x.at, used by _methods)
from xnp._index_tricks import *  # noqa: F403
from xnp._indexing_funcs import *  # noqa: F403
from xnp._index_construction import *  # noqa: F403
from xnp._linalg_ops import *  # noqa: F403
from xnp._manipulation import *  # noqa: F403
from xnp._numpy_io import *  # noqa: F403
from xnp._packbits import *  # noqa: F403
from xnp._numpy_utils import *  # noqa: F403
from xnp._polynomial import *  # noqa: F403
from xnp._math import *  # noqa: F403
from xnp._reductions import *  # noqa: F403
from xnp._sets import *  # noqa: F403
from xnp._sorting import *  # noqa: F403
from xnp._statistics import *  # noqa: F403
from xnp._ufuncs import *  # noqa: F403
from xnp._ufuncs import ufunc  # noqa: F401
from xnp._windows import *  # noqa: F403
from xnp._lib_misc import *  # noqa: F403
from xnp._poly1d import *  # noqa: F403
from xnp._scalar_types import (  # noqa: F401, E402  (after the star imports: these win)
    bool_, byte, cdouble, complex64, complex128, csingle, double, float16, float32, float64,
    half, int8, int16, int32, int64, int_, intc, intp, long, longlong, short, single, ubyte,
    uint, uint8, uint16, uint32, uint64, uintc, uintp, ulong, ulonglong, ushort,
)

bool = bool_  # noqa: A001  (NumPy 2 exports np.bool)
pi = _pymath.pi
e = _pymath.e
inf = float("inf")
nan = float("nan")
euler_gamma = 0.5772156649015329
newaxis = None
# The NumPy version whose API xnp follows, so that version checks in NumPy code take the
# right branch; xnp's own version is ``xnp_version`` (and the package metadata).
__version__ = _numpy.__version__
xnp_version = "0.1.0"
__array_api_version__ = "2024.12"

from xnp import _methods  # noqa: E402  (attaches operators and methods to ndarray)

del _methods

from xnp import _ma_dispatch  # noqa: E402  (numpy.mean(masked) calls masked.mean())

_ma_dispatch.install(globals())
del _ma_dispatch

from xnp import _array_function  # noqa: E402  (duck arrays' __array_function__, NEP 18)

_array_function.install(globals(), _numpy, "xnp")
_array_function.install(linalg.__dict__, _numpy.linalg, "xnp.linalg")
_array_function.install(fft.__dict__, _numpy.fft, "xnp.fft")
del _array_function

from xnp import _unbound  # noqa: E402  (np.array etc. do not bind as methods)

_unbound.unbind_names(globals())
del _unbound


# NumPy's own, computing nothing on arrays: type annotations (np.typing.NDArray),
# build/introspection helpers, and the ufunc buffer size (state kept in NumPy's errstate
# context, which xnp.errstate is; xnp's computations do not buffer).
_NUMPY_OWN = ("typing", "show_config", "show_runtime", "get_include", "info", "_CopyMode",
              "getbufsize", "setbufsize")


def __getattr__(name):
    if name == "__all__":
        # ``from xnp import *``: every public name, and those NumPy's star import also
        # gives that load on first use here (``ma``, ``polynomial``, ``testing``, ``info``)
        lazy = ("testing", "polynomial", "char", "strings", "ma") + _NUMPY_OWN
        return sorted({n for n in globals() if not n.startswith("_")} |
                      {n for n in lazy if not n.startswith("_")} |
                      {"__version__", "__array_namespace_info__"})
    # xnp.testing imports numpy.testing, xnp.polynomial builds six families, xnp.char and
    # xnp.strings wrap NumPy's string functions, xnp.ma defines masked arrays: on first
    # use (NumPy loads numpy.polynomial lazily too).
    if name in ("testing", "polynomial", "char", "strings", "ma"):
        import importlib
        return importlib.import_module(f"xnp.{name}")
    if name in _NUMPY_OWN:
        return getattr(_numpy, name)
    # Names NumPy 2 removed (np.NaN, np.byte_bounds) or whose aliases expired (np.float):
    # NumPy's messages, which say what to use instead.
    if name in getattr(_numpy, "__future_scalars__", ()):     # str, bytes, object
        import warnings
        warnings.warn(f"In the future `np.{name}` will be defined as the corresponding "
                      "NumPy scalar.", FutureWarning, stacklevel=2)
    gone = getattr(_numpy, "__former_attrs__", {})
    if name in gone:
        raise AttributeError(gone[name], name=None)
    try:
        from numpy._expired_attrs_2_0 import __expired_attributes__ as gone
    except ImportError:
        gone = {}
    if name in gone:
        raise AttributeError(f"`np.{name}` was removed in the NumPy 2.0 release. {gone[name]}",
                             name=None)
    raise AttributeError(f"module 'xnp' has no attribute {name!r}")
