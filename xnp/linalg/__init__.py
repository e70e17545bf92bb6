"""xnp.linalg: numpy.linalg's API (and the Array API's linalg extension), differentiable,
batchable and compilable.

Solvers and decompositions bind the primitives of ``xnp.lax._linalg`` (cholesky,
triangular_solve, lu, qr, eigh, svd, eig): NumPy's LAPACK routines eagerly, jaxlib's
LAPACK custom calls under ``jit``. ``solve``/``inv`` are an LU factorization and two
triangular solves, ``det``/``slogdet`` come from the LU factors, ``pinv``/``lstsq``/
``matrix_rank`` and the 2-norms from the SVD. Differences from NumPy:

* Singular matrices (``solve``, ``inv``) and matrices that are not positive definite
  (``cholesky``) raise LinAlgError eagerly, as NumPy does; under ``jit`` no error can be
  raised and the results hold NaN or infinite values instead, as in JAX.
* ``eig``/``eigvals`` always return complex arrays (NumPy returns real arrays when every
  eigenvalue happens to be real: a value-dependent dtype).
* ``lstsq``'s residuals have a value-dependent shape, so ``lstsq`` does not compile.
  (``qr(mode='raw')`` is LAPACK's call eagerly and the same Householder reflections
  written in xnp operations under transformations.)
"""

from __future__ import annotations

import xnp
from xnp._array import ndarray
from xnp.linalg._decompositions import (  # noqa: F401
    EighResult,
    EigResult,
    LinAlgError,
    QRResult,
    SlogdetResult,
    SVDResult,
    cholesky,
    det,
    eig,
    eigh,
    eigvals,
    eigvalsh,
    inv,
    lstsq,
    matrix_power,
    matrix_rank,
    multi_dot,
    pinv,
    qr,
    slogdet,
    solve,
    svd,
    svdvals,
    tensorinv,
    tensorsolve,
)
from xnp.linalg._norms import cond, matrix_norm, norm, vector_norm

__all__ = ["LinAlgError", "solve", "inv", "det", "slogdet", "cholesky", "eigh", "eigvalsh",
           "qr", "eig", "eigvals", "tensorsolve", "tensorinv",
           "svd", "svdvals", "pinv", "matrix_rank", "lstsq", "matrix_power", "multi_dot",
           "norm", "vector_norm", "matrix_norm", "cond", "matmul", "matrix_transpose",
           "outer", "tensordot", "trace", "vecdot", "cross", "diagonal"]


# --- the Array API's linalg names for functions of the main namespace --------------------------
def matmul(x1, x2, /) -> ndarray:
    """Matrix product, as :func:`xnp.matmul`."""
    return xnp.matmul(x1, x2)


def matrix_transpose(x, /) -> ndarray:
    """Swap the last two axes."""
    return xnp.matrix_transpose(x)


def outer(x1, x2, /) -> ndarray:
    """The outer product of two vectors (1-d only, as numpy.linalg.outer)."""
    x1, x2 = xnp.asarray(x1), xnp.asarray(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are "
                         f"x1.ndim={x1.ndim} and x2.ndim={x2.ndim}.")
    return xnp.outer(x1, x2)


def tensordot(x1, x2, /, *, axes=2) -> ndarray:
    """Tensor contraction, as :func:`xnp.tensordot`."""
    return xnp.tensordot(x1, x2, axes=axes)


def trace(x, /, *, offset: int = 0, dtype=None) -> ndarray:
    """The trace of the last two axes (numpy.linalg.trace)."""
    return xnp.trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def vecdot(x1, x2, /, *, axis: int = -1) -> ndarray:
    """The vector dot product over ``axis`` (conjugating ``x1``)."""
    return xnp.vecdot(x1, x2, axis=axis)


def cross(x1, x2, /, *, axis: int = -1) -> ndarray:
    """The cross product of 3-vectors along ``axis`` (numpy.linalg.cross)."""
    x1, x2 = xnp.asarray(x1), xnp.asarray(x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(f"Both input arrays must be (arrays of) 3-dimensional vectors, "
                         f"but they are {x1.shape[axis]} and {x2.shape[axis]} dimensional "
                         "instead.")
    return xnp.cross(x1, x2, axis=axis)


def diagonal(x, /, *, offset: int = 0) -> ndarray:
    """The diagonals of the last two axes (numpy.linalg.diagonal)."""
    return xnp.diagonal(x, offset=offset, axis1=-2, axis2=-1)
