"""NumPy's window functions (bartlett, blackman, hamming, hanning, kaiser), computed as
NumPy computes them, from primitives (kaiser's ``beta`` may be traced and differentiated).
``M`` is a Python integer: it sets the output's shape."""

from __future__ import annotations

import operator

import numpy as np

import xnp
from xnp._array import ndarray

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _dtype(*values):
    """NumPy's window dtype: float64 promoted with the dtypes of ``M`` (and ``beta``), so
    a longdouble ``M`` gives a longdouble window; object values count as float64."""
    dts = [getattr(v, "dtype", None) for v in values]
    return np.result_type(np.float64, *[d for d in dts if d is not None and d.kind != "O"])


def _points(M, name: str, dt=None):
    """(number of points, the symmetric sample positions 1-M, 3-M, ..., M-1), or the
    window itself (empty or a single 1) for M < 2."""
    dt = _dtype(M) if dt is None else dt
    try:
        m = operator.index(M)
    except TypeError:
        m = float(M)        # NumPy accepts float M; it only compares and counts with it
    if m < 1:
        return None, xnp.asarray(np.array([], dtype=dt))
    if m == 1:
        return None, xnp.ones(1, dtype=dt)
    return m, xnp.arange(1 - m, m, 2, dtype=dt)


def hanning(M: int) -> ndarray:
    """The Hann window ``0.5 + 0.5 cos(pi n / (M-1))`` at ``n = 1-M, 3-M, ..., M-1``, as
    :func:`numpy.hanning` (float64; empty for ``M < 1``)."""
    m, n = _points(M, "hanning")
    return n if m is None else 0.5 + 0.5 * xnp.cos(np.pi * n / (m - 1))


def hamming(M: int) -> ndarray:
    """The Hamming window ``0.54 + 0.46 cos(pi n / (M-1))``, as :func:`numpy.hamming`."""
    m, n = _points(M, "hamming")
    return n if m is None else 0.54 + 0.46 * xnp.cos(np.pi * n / (m - 1))


def blackman(M: int) -> ndarray:
    """The Blackman window ``0.42 + 0.5 cos(pi n / (M-1)) + 0.08 cos(2 pi n / (M-1))``, as
    :func:`numpy.blackman`."""
    m, n = _points(M, "blackman")
    if m is None:
        return n
    return 0.42 + 0.5 * xnp.cos(np.pi * n / (m - 1)) + 0.08 * xnp.cos(2.0 * np.pi * n / (m - 1))


def bartlett(M: int) -> ndarray:
    """The triangular Bartlett window, zero at both ends, as :func:`numpy.bartlett`."""
    m, n = _points(M, "bartlett")
    if m is None:
        return n
    return xnp.where(n <= 0, 1 + n / (m - 1), 1 - n / (m - 1))


def kaiser(M: int, beta) -> ndarray:
    """The Kaiser window ``i0(beta sqrt(1 - ((n - a) / a)**2)) / i0(beta)`` at
    ``n = 0, ..., M-1`` with ``a = (M-1)/2``, as :func:`numpy.kaiser`."""
    dt = _dtype(M, beta)
    m, _ = _points(M, "kaiser", dt)
    if m is None:
        return _
    n = xnp.arange(0, m, dtype=dt)
    alpha = (m - 1) / 2.0
    beta = xnp.asarray(beta, dtype=dt)
    return xnp.i0(beta * xnp.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / xnp.i0(beta)
