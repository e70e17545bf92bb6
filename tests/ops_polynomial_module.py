"""Registry entries for ``xnp.polynomial`` (NumPy's ``numpy.polynomial``): every function
of the six families (power, Chebyshev, Legendre, Hermite, HermiteE, Laguerre) and of
``polyutils``, compared with NumPy's on the same inputs.

Arithmetic drops trailing zero coefficients only when they are concrete (traced
coefficients keep their length), so the samples here have a nonzero last coefficient
and avoid exact cancellation (sums of same-sign leading terms, divisions with generic
values): on such inputs traced and eager results have the same shapes. The
value-dependent functions (roots, trimming) are marked ``traceable=False``.
"""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import strategies as st
from opinfo import OpInfo, Sample

import xnp
import xnp.polynomial  # noqa: F401  (makes xnp.polynomial an attribute of xnp)

FAMILIES = [("polynomial", "poly"), ("chebyshev", "cheb"), ("legendre", "leg"),
            ("hermite", "herm"), ("hermite_e", "herme"), ("laguerre", "lag")]
_F = [np.float64, np.int64]
_TOL = dict(rtol=1e-9, atol=1e-9)


def _lookup(dotted: str):
    obj = np
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def _scalars_as_arrays(x):
    if isinstance(x, np.generic):
        return np.asarray(x)
    if isinstance(x, (tuple, list)):
        return type(x)(_scalars_as_arrays(i) for i in x)
    return x


def _info(name: str, samples, id: str | None = None, **kw) -> OpInfo:
    """An entry whose NumPy scalar results are compared as 0-d arrays (to tolerance:
    the registry compares Python and NumPy scalars exactly). Ids start with
    ``polynomial_module.`` so that ``-k polynomial_module`` selects them all."""
    ref = _lookup(name)
    return OpInfo(name, samples, ref=lambda *a, **k: _scalars_as_arrays(ref(*a, **k)),
                  id=id or name.replace("polynomial.", "polynomial_module.", 1), **kw)


def _last_nonzero(a, sign=None):
    a = np.where(np.abs(a) < 1e-3, 0, a).astype(a.dtype)  # no underflowing products
    if sign is not None:
        a[-1] = sign * (abs(a[-1]) or 1)
    elif a[-1] == 0:
        a[-1] = 1
    return a


def _coef(min_size=1, max_size=5, dtypes=_F, sign=None):
    """1-d coefficients in [-3, 3] whose last coefficient is nonzero (of ``sign``)."""
    return st.sampled_from(dtypes).flatmap(lambda d: S.arrays(
        d, st.integers(min_size, max_size).map(lambda n: (n,)), finite=True,
        min_value=-3, max_value=3)).map(lambda a: _last_nonzero(a, sign))


def _generic(a):
    """Float coefficients off any simple lattice, so that divisions are never exact."""
    return a + np.sqrt(np.arange(2.0, 2.0 + a.shape[0])) / 7


def _generic2(a):
    return a + np.sqrt(np.arange(3.0, 3.0 + a.shape[0])) / 11


def _points(min_dims=0, max_dims=2, lo=-2.0, hi=2.0):
    return S.arrays(np.float64, S.shapes(min_dims, max_dims, min_side=1, max_side=4),
                    finite=True, min_value=lo, max_value=hi)


def _pair(a, b):
    return st.tuples(a, b).map(lambda t: Sample(t))


def _val_samples():
    one = st.tuples(_points(), _coef()).map(lambda t: Sample(t))
    many = st.tuples(_points(0, 1), st.integers(1, 4), st.integers(1, 3)).flatmap(
        lambda t: S.arrays(np.float64, (t[1], t[2]), finite=True, min_value=-3,
                           max_value=3).map(lambda c: Sample((t[0], c))))
    flat = _points(1, 1).flatmap(lambda x: S.arrays(
        np.float64, st.integers(1, 4).map(lambda n: (n,) + x.shape), finite=True,
        min_value=-3, max_value=3).map(lambda c: Sample((x, c), {"tensor": False})))
    return st.one_of(one, many, flat)


def _der_samples():
    simple = st.tuples(_coef(), st.integers(0, 4), st.sampled_from([1, 2.0, -0.5])).map(
        lambda t: Sample(t))
    # (NumPy's hermeder leaves the coefficient axis first when m exceeds the degree)
    along = st.tuples(st.integers(2, 4), st.integers(1, 3), st.integers(-2, 1)).flatmap(
        lambda t: S.arrays(np.float64, (t[0], t[1]) if t[2] % 2 == 0 else (t[1], t[0]),
                           finite=True, min_value=-3, max_value=3).map(
            lambda c: Sample((c, 1), {"axis": t[2]})))
    return st.one_of(simple, along)


def _int_samples():
    return st.tuples(_coef(), st.integers(0, 3), st.lists(
        st.floats(-2, 2), max_size=2), st.sampled_from([0, 0.5, -1.0]),
        st.sampled_from([1, 2.0, -0.5])).map(
        lambda t: Sample((t[0], t[1]), {"k": t[2][:t[1]], "lbnd": t[3], "scl": t[4]}))


def _fit_samples(full=False):
    def build(t):
        deg, n = t
        return st.tuples(
            S.arrays(np.float64, (n,), finite=True, min_value=-2, max_value=2),
            S.arrays(np.float64, (n,), finite=True, min_value=0.5, max_value=2),
            st.sampled_from([deg, list(range(0, deg + 1, 2)) or [0]]), st.booleans()).map(
            lambda s: Sample((np.linspace(-1, 1, n) + 0.01 * np.sin(np.arange(n)), s[0],
                              s[2]), {"full": True} if full else
                             ({"w": s[1]} if s[3] else {})))
    return st.integers(0, 3).flatmap(lambda d: st.integers(d + 2, 8).map(
        lambda n: (d, n))).flatmap(build)


def _nd_points(n):
    return S.shapes(0, 2, min_side=1, max_side=3).flatmap(lambda shape: st.tuples(*[
        S.arrays(np.float64, shape, finite=True, min_value=-2, max_value=2)
        for _ in range(n)]))


def _nd_coef(n):
    return S.arrays(np.float64, st.tuples(*[st.integers(1, 3)] * n), finite=True,
                    min_value=-3, max_value=3)


def _family_entries(mod: str, p: str) -> list[OpInfo]:
    def entry(fn, samples, **kw):
        return _info(f"polynomial.{mod}.{p}{fn}", samples, **{**_TOL, **kw})

    out = [
        entry("val", _val_samples()),
        entry("vander", st.tuples(_points(), st.integers(0, 4)).map(lambda t: Sample(t)),
              errors=[Sample((np.ones(3), -1)), Sample((np.ones(3), 1.5))]),
        entry("der", _der_samples(), errors=[Sample((np.ones(2), -1)),
                                             Sample((np.ones(2), 1), {"axis": 1})]),
        entry("int", _int_samples(), errors=[Sample((np.ones(2), 1), {"k": [1, 2]}),
                                             Sample((np.ones(2), -1)),
                                             Sample((np.ones(2), 1), {"lbnd": [0, 1]})]),
        entry("add", _pair(_coef(sign=1), _coef(sign=1))),
        entry("sub", _pair(_coef(sign=1), _coef(sign=-1))),
        entry("mul", _pair(_coef(), _coef())),
        entry("mulx", _coef().map(lambda c: Sample((c,)))),
        entry("div", _pair(_coef(dtypes=[np.float64]).map(_generic),
                           _coef(dtypes=[np.float64], max_size=3).map(_generic2)),
              errors=[Sample((np.ones(2), np.zeros(2)))]),
        entry("pow", _pair(_coef(max_size=3), st.integers(0, 3)),
              errors=[Sample((np.ones(2), -1)), Sample((np.ones(2), 1.5))]),
        entry("fromroots", S.arrays(np.float64, st.integers(0, 4).map(lambda n: (n,)),
                                    finite=True, min_value=-2, max_value=2).map(
            lambda r: Sample((r,)))),
        entry("companion", _coef(min_size=2).map(lambda c: Sample((c,))),
              errors=[Sample((np.ones(1),)), Sample((np.array([1.0, 0.0]),))]),
        entry("line", st.tuples(st.floats(-3, 3), st.sampled_from([1.0, -2.0, 0.5])).map(
            lambda t: Sample((np.asarray(t[0]), t[1])))),
        entry("fit", _fit_samples(), rtol=1e-6, atol=1e-8, errors=[
            Sample((np.ones(3), np.ones(2), 1)), Sample((np.ones(3), np.ones(3), -1)),
            Sample((np.ones((3, 1)), np.ones(3), 1)), Sample((np.ones(0), np.ones(0), 1)),
            Sample((np.arange(3.0), np.ones(3), 1), {"w": np.ones(2)})]),
        # Value-dependent lengths: the roots' number and dtype, the trimmed length.
        entry("roots", _coef(dtypes=[np.float64]).map(lambda c: Sample((_generic(c),))),
              rtol=1e-6, atol=1e-8, traceable=False),
        entry("trim", st.tuples(_coef(), st.sampled_from([0, 0.5, 2])).map(
            lambda t: Sample((np.concatenate([t[0], np.zeros(int(t[1] > 0.1))]), t[1]))),
            traceable=False),
    ]
    if p != "poly":
        lo = 0.0 if p == "lag" else -0.9
        out += [
            _info(f"polynomial.{mod}.{p}2poly", _coef().map(lambda c: Sample((c,))),
                   **_TOL),
            _info(f"polynomial.{mod}.poly2{p}", _coef().map(lambda c: Sample((c,))),
                   **_TOL),
            entry("gauss", st.integers(1, 8).map(lambda n: Sample((n,))), rtol=1e-12,
                  atol=1e-14, errors=[Sample((0,)), Sample((1.5,))],
                  differentiable=False),      # from a count: nothing to differentiate
            entry("weight", _points(lo=lo, hi=0.9).map(lambda x: Sample((x,))), rtol=1e-12),
        ]
    return out


ENTRIES = [e for mod, p in FAMILIES for e in _family_entries(mod, p)]


def _nd_entry(fn: str, samples) -> OpInfo:
    """One entry for the n-dimensional helpers of all six families (they share one
    implementation on top of the per-family ``val``/``vander``): the family's prefix is
    drawn as the first, static, argument."""
    def resolve(root, p):
        mod = dict((q, m) for m, q in FAMILIES)[p]
        return getattr(getattr(root.polynomial, mod), p + fn)

    return OpInfo(f"polynomial.polynomial.poly{fn}", st.tuples(
        st.sampled_from([p for _, p in FAMILIES]), samples).map(
        lambda t: Sample((t[0], *t[1].args))),
        op=lambda p, *a: resolve(xnp, p)(*a),
        ref=lambda p, *a: _scalars_as_arrays(resolve(np, p)(*a)),
        id=f"polynomial_module.families.{fn}", **_TOL)


ENTRIES += [
    _nd_entry("val2d", st.tuples(_nd_points(2), _nd_coef(2)).map(
        lambda t: Sample((*t[0], t[1])))),
    _nd_entry("val3d", st.tuples(_nd_points(3), _nd_coef(3)).map(
        lambda t: Sample((*t[0], t[1])))),
    _nd_entry("grid2d", st.tuples(_points(0, 1), _points(0, 1), _nd_coef(2)).map(
        lambda t: Sample(t))),
    _nd_entry("grid3d", st.tuples(_points(0, 1), _points(0, 1), _points(0, 1),
                                  _nd_coef(3)).map(lambda t: Sample(t))),
    _nd_entry("vander2d", st.tuples(_nd_points(2), st.tuples(
        st.integers(0, 2), st.integers(0, 2))).map(lambda t: Sample((*t[0], t[1])))),
    _nd_entry("vander3d", st.tuples(_nd_points(3), st.tuples(*[st.integers(0, 2)] * 3)).map(
        lambda t: Sample((*t[0], list(t[1]))))),
]


def _exp_scaled(x, p):
    """A function of the points and a parameter (chebinterpolate's ``args``): exp(x p),
    one column per element of ``p``."""
    return np.exp(x[:, None] * np.reshape(p, (1, -1)))


ENTRIES += [
    # full=True: the residuals' shape depends on the rank, hence on the values
    _info("polynomial.polynomial.polyfit", _fit_samples(full=True), rtol=1e-6, atol=1e-8,
          traceable=False, id="polynomial_module.polynomial.polyfit-full"),
    _info("polynomial.polynomial.polyvalfromroots", st.one_of(
        st.tuples(_points(), _coef(dtypes=[np.float64])).map(lambda t: Sample(t)),
        _points(1, 1).flatmap(lambda x: S.arrays(
            np.float64, (3, x.shape[0]), finite=True, min_value=-2,
            max_value=2).map(lambda r: Sample((x, r), {"tensor": False})))), **_TOL),
    # points from a count: no array argument to differentiate
    _info("polynomial.chebyshev.chebpts1", st.integers(1, 9).map(lambda n: Sample((n,))),
           rtol=1e-12, atol=1e-15, differentiable=False),
    _info("polynomial.chebyshev.chebpts2", st.integers(2, 9).map(lambda n: Sample((n,))),
           rtol=1e-12, atol=1e-15, differentiable=False),
    _info("polynomial.chebyshev.chebinterpolate", st.one_of(st.tuples(
        st.sampled_from([np.exp, np.sin]), st.integers(0, 6)).map(lambda t: Sample(t)),
        st.tuples(st.integers(0, 6), S.arrays(np.float64, S.shapes(0, 1), finite=True,
                                              min_value=-2, max_value=2)).map(
            lambda t: Sample((_exp_scaled, t[0]), {"args": (t[1],)}))),
        rtol=1e-10, atol=1e-12),
    _info("polynomial.polyutils.as_series", st.lists(_coef(), min_size=1, max_size=3).map(
        lambda cs: Sample((cs,)))),
    _info("polynomial.polyutils.trimseq", _coef(dtypes=[np.float64]).map(
        lambda c: Sample((c,)))),
    _info("polynomial.polyutils.trimcoef", st.tuples(_coef(), st.sampled_from([0, 1.5])).map(
        lambda t: Sample((np.concatenate([t[0], [0.0, 0.5]]), t[1]))), traceable=False),
    _info("polynomial.polyutils.getdomain", _points(1, 1).map(lambda x: Sample((x,)))),
    _info("polynomial.polyutils.mapparms", st.tuples(
        S.arrays(np.float64, (2,), finite=True, min_value=-3, max_value=3).filter(
            lambda a: a[0] != a[1]),
        S.arrays(np.float64, (2,), finite=True, min_value=-3, max_value=3)).map(
        lambda t: Sample(t)), **_TOL),
    _info("polynomial.polyutils.mapdomain", st.tuples(_points(), st.just(
        np.array([0.0, 2.0])), st.just(np.array([-1.0, 1.0]))).map(lambda t: Sample(t)),
        **_TOL),
]
