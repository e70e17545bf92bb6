"""xnp.polynomial: NumPy's :mod:`numpy.polynomial` on xnp arrays.

Six families of series, each a module of functions on coefficient arrays (lowest
degree first) and a class: :mod:`polynomial` (``Polynomial``, power series),
:mod:`chebyshev` (``Chebyshev``), :mod:`legendre` (``Legendre``), :mod:`hermite`
(``Hermite``, physicists'), :mod:`hermite_e` (``HermiteE``, probabilists') and
:mod:`laguerre` (``Laguerre``). They share one implementation parametrized by each
family's three-term recurrence (:mod:`xnp.polynomial._basis`) and one class base
(:mod:`xnp.polynomial._base`), and compute only with xnp functions: evaluation, fitting,
derivatives, integrals, arithmetic and conversions trace, differentiate, batch and
compile. Results whose length or dtype depends on the values (roots, trimming of
trailing zeros) need concrete values for that part.
"""

from xnp.polynomial import (
    chebyshev,
    hermite,
    hermite_e,
    laguerre,
    legendre,
    polynomial,
    polyutils,
)
from xnp.polynomial._base import ABCPolyBase
from xnp.polynomial.chebyshev import Chebyshev
from xnp.polynomial.hermite import Hermite
from xnp.polynomial.hermite_e import HermiteE
from xnp.polynomial.laguerre import Laguerre
from xnp.polynomial.legendre import Legendre
from xnp.polynomial.polynomial import Polynomial

__all__ = ["set_default_printstyle", "polynomial", "Polynomial", "chebyshev", "Chebyshev",
           "legendre", "Legendre", "hermite", "Hermite", "hermite_e", "HermiteE",
           "laguerre", "Laguerre", "polyutils"]


def set_default_printstyle(style: str) -> None:
    """Choose how ``str`` prints series: ``'unicode'`` (``1.0 + 2.0·x¹``, the default
    except on Windows) or ``'ascii'`` (``1.0 + 2.0 x**1``).

    Parameters
    ----------
    style : {'unicode', 'ascii'}

    Notes
    -----
    As :func:`numpy.polynomial.set_default_printstyle`, but for xnp's series classes
    (NumPy's own setting is left alone).
    """
    if style not in ("unicode", "ascii"):
        raise ValueError(f"Unsupported format string '{style}'. Valid options are "
                         "'ascii' and 'unicode'")
    ABCPolyBase._use_unicode = style == "unicode"
