"""Compositions of transformations over every differentiable registry entry.

Each entry's function, with one array argument ``x`` (float64) and its other arguments
fixed, is reduced to a scalar ``s(x)`` (a weighted sum of its float64 outputs, complex ones
by their real and imaginary parts; float32 outputs, with looser tolerances, where there
are no float64 ones). ``x`` is the first floating array anywhere in the arguments (inside
lists such as ``stack``'s, keywords such as ``weights=`` or ``args=``; never ``out=``),
else another array made float64 (with the arrays of its dtype, for functions taking
operands of one dtype); it is drawn from (0.2, 0.8), or from the next of ``DOMAINS``
where the function is not finite there (arccosh), and a ``dtype=``/``out=`` other than
float64 becomes float64 where nothing else has a floating output. Entries with no
output to differentiate are left out (see ``_no_derivative``). Each ``s`` is run through
compositions of grad, jvp, jacfwd, jacrev, hessian, vmap, jit and control flow, each
compared with an independent oracle:

- ``vmap(grad s)`` and ``jit(vmap(grad s))`` with a Python loop of eager ``grad s``;
- ``grad(jit s)`` and ``jit(grad s)`` with eager ``grad s``; ``vmap(jit f)`` with a loop;
- ``jacfwd(jacrev s)``, ``jacrev(jacfwd s)`` and ``hessian s`` with each other and with
  central differences of eager ``grad s``;
- ``s`` inside ``cond`` (either branch, also with a batched predicate and ``switch``
  index), ``scan`` and ``fori_loop`` bodies, and a ``while_loop`` with batched bounds,
  with eager ``grad s`` (or ``jvp``: a while loop has no transpose);
- small in-place programs (``a = zeros(n); a[0] = s(x); a[1:] += ...``, ``a[i] = ...``
  with a batched ``i``) with the same program written functionally;
- ``jacfwd`` against ``jacrev`` of the whole output, also under ``vmap``; ``vmap`` of
  ``linearize``'s linear function with ``jvp`` and ``<grad, t>``; ``checkpoint``; and
  ``custom_jvp``/``custom_vjp`` wrappers whose rules differentiate the entry, under
  ``vmap`` and ``jit``; ``vmap(grad)`` with every floating argument batched.

The CI run (``test_compositions_sample``, about 20 s of CPU) checks two eager compositions
per entry and one compiled composition every ``EVERY`` entries, in a fixed rotation (the
next ones where these do not apply); ``--runslow`` runs every composition on three samples
of every entry.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from composition_cases import (
    B,
    Case,
    Skip,
    array_leaves,
    cases,
    get_leaf,
    is_out,
    no_derivative,
)
from opinfo import Sample, call_ref
from registry import REGISTRY

import xnp
from transforms import (
    checkpoint,
    cond,
    custom_jvp,
    custom_vjp,
    fori_loop,
    grad,
    hessian,
    jacfwd,
    jacrev,
    jit,
    jvp,
    linearize,
    scan,
    switch,
    vmap,
    while_loop,
)

ENTRIES = [i for i in REGISTRY if i.samples is not None and i.traceable
           and not no_derivative(i)]
RTOL = 1e-6

# ---------------------------------------------------------------------------------------
# The compositions: each returns (got, expected) pairs.


def c_vmap_grad(c):
    return [(vmap(grad(c.s))(c.stacked()), np.stack(c.grads))]


def c_jit_vmap_grad(c):
    return [(jit(vmap(grad(c.s)))(c.stacked()), np.stack(c.grads))]


def c_vmap_grad_axis1(c):
    if c.x0.ndim == 0:
        raise Skip("0-d")
    return [(vmap(grad(c.s), in_axes=1, out_axes=-1)(c.stacked(1)),
             np.stack(c.grads, axis=-1))]


def c_grad_jit(c):
    return [(grad(jit(c.s))(xnp.asarray(c.x0)), c.grads[0])]


def c_jit_grad(c):
    return [(jit(grad(c.s))(xnp.asarray(c.x0)), c.grads[0])]


def c_grad_vmap(c):
    f = lambda xs: xnp.sum(vmap(c.s)(xs) * xnp.asarray([1.0, 2.0, 3.0]))  # noqa: E731
    return [(grad(f)(c.stacked()), np.stack([k * g for k, g in zip((1, 2, 3), c.grads)]))]


def c_vmap_jit(c):
    got = vmap(jit(c.flat))(c.stacked())
    want = np.stack([np.asarray(c.flat(xnp.asarray(m))) for m in c.members])
    return [(got, want)]


def c_hessians(c):
    if c.x0.size > 6:
        raise Skip("large")
    x = xnp.asarray(c.x0)
    fr = np.asarray(jacfwd(jacrev(c.s))(x))
    rf = np.asarray(jacrev(jacfwd(c.s))(x))
    h = np.asarray(hessian(c.s)(x))
    eps = 1e-5
    fd = np.zeros(c.x0.shape * 2)
    for i in np.ndindex(c.x0.shape):
        e = np.zeros(c.x0.shape)
        e[i] = eps
        gp = np.asarray(grad(c.s)(xnp.asarray(c.x0 + e)))
        gm = np.asarray(grad(c.s)(xnp.asarray(c.x0 - e)))
        fd[(...,) + i] = (gp - gm) / (2 * eps)
    # second derivatives in two orders round differently: 1e-5 (ill-conditioned fits);
    # differences of float32 gradients say nothing
    return [(fr, rf, 1e-5), (h, rf, 1e-5)] + [(fr, fd, 1e-4)] * (c.dtypes[0] == np.float64)


def _pos(x):
    return xnp.sum(x) > -1.0        # True for inputs in (0.2, 0.8), traced under grad


def _zero(x):
    return xnp.sum(x) * 0.0


def _cond_funs(c):
    return (lambda x: cond(_pos(x), c.s, _zero, x),
            lambda x: cond(~_pos(x), _zero, c.s, x),
            lambda x: cond(_pos(x), lambda: c.s(x), lambda: _zero(x)))


def c_cond(c):
    x = xnp.asarray(c.x0)
    return [(grad(f)(x), c.grads[0]) for f in _cond_funs(c)]


def c_jit_cond(c):
    x = xnp.asarray(c.x0)
    f1, f2, _ = _cond_funs(c)
    return [(jit(grad(f1))(x), c.grads[0]), (grad(jit(f2))(x), c.grads[0])]


def _batched_cond(c):
    preds = xnp.asarray([True, False, True])
    f = lambda x, p: cond(p, c.s, lambda x: -c.s(x), x)  # noqa: E731
    want = np.stack([g if p else -g for g, p in zip(c.grads, (True, False, True))])
    return f, preds, want


def c_cond_batched_pred(c):
    f, preds, want = _batched_cond(c)
    return [(vmap(grad(f), in_axes=(0, 0))(c.stacked(), preds), want)]


def c_jit_cond_batched_pred(c):
    f, preds, want = _batched_cond(c)
    return [(jit(vmap(grad(f), in_axes=(0, 0)))(c.stacked(), preds), want)]


def c_switch_batched(c):
    idx = xnp.asarray([0, 1, 2])
    f = lambda x, i: switch(i, [c.s, lambda x: 2.0 * c.s(x), lambda x: -c.s(x)], x)  # noqa
    want = np.stack([k * g for k, g in zip((1.0, 2.0, -1.0), c.grads)])
    return [(vmap(grad(f))(c.stacked(), idx), want)]


def _scans(c):
    def over_xs(xs):
        total, ys = scan(lambda t, xi: (t + c.s(xi), 2.0 * c.s(xi)), 0.0, xs)
        return total + xnp.sum(ys)

    def closed(x):
        total, _ = scan(lambda t, k: (t + k * c.s(x), None), 0.0, xnp.asarray([1.0, 2.0]))
        return total
    return over_xs, closed, xnp.asarray(np.stack(c.members[:2])), \
        np.stack([3 * g for g in c.grads[:2]])


def c_scan(c):
    over_xs, closed, xs, want = _scans(c)
    return [(grad(over_xs)(xs), want), (grad(closed)(xnp.asarray(c.x0)), 3 * c.grads[0]),
            (vmap(grad(closed))(c.stacked()), np.stack([3 * g for g in c.grads]))]


def c_jit_scan(c):
    over_xs, closed, xs, want = _scans(c)
    return [(jit(grad(over_xs))(xs), want)]


def _fori(c):
    return lambda x: fori_loop(0, 2, lambda i, t: (t[0] + c.s(t[1]), t[1]), (0.0, x))[0]


def c_fori(c):
    f = _fori(c)
    return [(grad(f)(xnp.asarray(c.x0)), 2 * c.grads[0]),
            (vmap(grad(f))(c.stacked()), np.stack([2 * g for g in c.grads]))]


def c_jit_fori(c):
    return [(jit(grad(_fori(c)))(xnp.asarray(c.x0)), 2 * c.grads[0])]


def _while(c):
    t = np.random.default_rng(0).uniform(0.5, 1.5, c.x0.shape)

    def h(x, n):
        return while_loop(lambda k: k[0] < n, lambda k: (k[0] + 1, k[1] + c.s(x)),
                          (0, 0.0))[1]

    def tangent(x, n):
        return jvp(lambda x: h(x, n), (x,), (xnp.asarray(t),))[1]

    vals = np.asarray([n * v for n, v in zip((1, 2, 3), c.values)])
    tans = np.asarray([n * float(np.sum(g * t)) for n, g in zip((1, 2, 3), c.grads)])
    return h, tangent, xnp.asarray([1, 2, 3]), vals, tans


def c_while_batched(c):
    h, tangent, ns, vals, tans = _while(c)
    return [(vmap(h)(c.stacked(), ns), vals), (vmap(tangent)(c.stacked(), ns), tans)]


def c_jit_while_batched(c):
    h, tangent, ns, vals, tans = _while(c)
    return [(jit(vmap(tangent))(c.stacked(), ns), tans)]


def c_vmap_grad_all_args(c):
    # every floating array argument (also inside lists and keywords) batched and
    # differentiated
    paths = [p for p, a in array_leaves(c.tree) if p != c.path and not is_out(p)
             and a.dtype.kind == "f" and a.size]
    if not paths:
        raise Skip("one floating argument")
    rng = np.random.default_rng(2)
    members = {p: [get_leaf(c.tree, p)] + [rng.uniform(0.2, 0.8, get_leaf(c.tree, p).shape)
                                       for _ in range(B - 1)] for p in paths}
    for k in range(B):
        args, kwargs = c._with(c.members[k], {p: members[p][k] for p in paths})
        try:
            call_ref(c.info, Sample(tuple(args), kwargs))
        except Exception as e:
            raise Skip("an error input") from e

    def f(x, *others):
        return c.s(x, dict(zip(paths, others)))
    argnums = tuple(range(1 + len(paths)))
    loop = [grad(f, argnums=argnums)(xnp.asarray(c.members[k]),
                                     *[xnp.asarray(members[p][k]) for p in paths])
            for k in range(B)]
    got = vmap(grad(f, argnums=argnums))(c.stacked(),
                                         *[xnp.asarray(np.stack(members[p])) for p in paths])
    return [(g, np.stack([np.asarray(lp[j]) for lp in loop])) for j, g in enumerate(got)]


def c_jacobians(c):
    if c.x0.size * c.m > 400:
        raise Skip("large")
    x = xnp.asarray(c.x0)
    fwd = jacfwd(c.flat)(x)
    loop = np.stack([np.asarray(jacrev(c.flat)(xnp.asarray(m))) for m in c.members])
    return [(fwd, loop[0]), (vmap(jacrev(c.flat))(c.stacked()), loop),
            (vmap(jacfwd(c.flat))(c.stacked()), loop)]


def c_linearize_vmap(c):
    # The linear function of linearize, batched over tangents, against jvp one at a time
    # and the vjp identity <u, J t> == <J^T u, t>.
    ts = np.random.default_rng(1).uniform(-1, 1, (B,) + c.x0.shape)
    x = xnp.asarray(c.x0)
    lin = linearize(c.s, x)[1]
    want = np.asarray([float(jvp(c.s, (x,), (xnp.asarray(t),))[1]) for t in ts])
    dots = np.asarray([float(np.sum(c.grads[0] * t)) for t in ts])
    return [(vmap(lin)(xnp.asarray(ts)), want), (want, dots)]


def c_remat(c):
    f = checkpoint(c.s)
    return [(grad(f)(xnp.asarray(c.x0)), c.grads[0]),
            (vmap(grad(f))(c.stacked()), np.stack(c.grads))]


def _customs(c):
    cj = custom_jvp(c.s)
    cj.defjvp(lambda p, t: jvp(c.s, p, t))
    cv = custom_vjp(c.s)
    cv.defvjp(lambda x: (c.s(x), x), lambda x, g: (grad(c.s)(x) * g,))
    return cj, cv


def c_custom_rules(c):
    # custom_jvp and custom_vjp wrappers whose rules differentiate the entry themselves
    cj, cv = _customs(c)
    want = np.stack(c.grads)
    return [(vmap(grad(cj))(c.stacked()), want), (vmap(grad(cv))(c.stacked()), want)]


def c_jit_custom_rules(c):
    cj, cv = _customs(c)
    want = np.stack(c.grads)
    return [(jit(vmap(grad(cj)))(c.stacked()), want), (jit(vmap(grad(cv)))(c.stacked()), want)]


def _inplace(c, x):
    u = c.flat(x)
    a = xnp.zeros(c.m + 2)
    a[0] = c.s(x)
    a[1:c.m + 1] = u
    a[1:] += a[:-1] * 0.5
    a *= 2.0
    return xnp.sum(a * xnp.asarray(c.v))


def _functional(c, x):
    b = xnp.concatenate([xnp.reshape(c.s(x), (1,)), c.flat(x), xnp.zeros(1)])
    b = xnp.concatenate([b[:1], b[1:] + b[:-1] * 0.5]) * 2.0
    return xnp.sum(b * xnp.asarray(c.v))


def _inplace_want(c):
    return [np.asarray(grad(lambda x: _functional(c, x))(xnp.asarray(m))) for m in c.members]


def c_inplace(c):
    f = lambda x: _inplace(c, x)  # noqa: E731
    want = _inplace_want(c)
    return [(grad(f)(xnp.asarray(c.x0)), want[0]), (vmap(grad(f))(c.stacked()), np.stack(want))]


def c_jit_inplace(c):
    f = lambda x: _inplace(c, x)  # noqa: E731
    want = _inplace_want(c)
    return [(jit(vmap(grad(f)))(c.stacked()), np.stack(want)),
            (grad(jit(f))(xnp.asarray(c.x0)), want[0])]


def c_inplace_index(c):
    v = xnp.asarray(c.v[:c.m])

    def f(x, i):
        a = xnp.zeros(c.m)
        a[i] = c.s(x)
        a += c.flat(x)
        return xnp.sum(a * v)

    idx = [0, c.m - 1, c.m // 2]
    want = np.stack([np.asarray(grad(lambda x: xnp.sum(c.flat(x) * v) + c.s(x) * c.v[i])(
        xnp.asarray(m))) for m, i in zip(c.members, idx)])
    return [(vmap(grad(f))(c.stacked(), xnp.asarray(idx)), want)]


EAGER = {f.__name__[2:]: f for f in (
    c_vmap_grad, c_vmap_grad_axis1, c_grad_vmap, c_hessians, c_cond, c_cond_batched_pred,
    c_switch_batched, c_scan, c_fori, c_while_batched, c_inplace, c_inplace_index,
    c_jacobians, c_linearize_vmap, c_remat, c_custom_rules, c_vmap_grad_all_args)}
COMPILED = {f.__name__[2:]: f for f in (
    c_jit_vmap_grad, c_grad_jit, c_jit_grad, c_vmap_jit, c_jit_cond, c_jit_cond_batched_pred,
    c_jit_scan, c_jit_fori, c_jit_while_batched, c_jit_inplace, c_jit_custom_rules)}
COMPOSITIONS = {**EAGER, **COMPILED}


def _close(got, want, rtol=RTOL):
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * 1e-3 * scale, equal_nan=True)


def check(case: Case, name: str) -> None:
    """Run one composition on one case; raise on a mismatch, Skip if not applicable."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            pairs = COMPOSITIONS[name](case)
        except NotImplementedError as e:
            if not case.info.jittable and "cannot be compiled yet" in str(e):
                raise Skip("no lowering") from e
            raise
        except TypeError as e:
            if "Reverse-mode differentiation does not work for while_loop" in str(e):
                raise Skip("a staged while loop has no transpose (as in JAX)") from e
            raise
    for k, (got, want, *rtol) in enumerate(pairs):
        try:
            _close(got, want, (rtol[0] if rtol else RTOL) * case.tol)
        except AssertionError as e:
            raise AssertionError(f"{case.info.id} {name}[{k}]: {e}") from None


def _run(info, names, n_samples, tries=(40,), spare=()):
    """Run ``names`` on the cases of an entry (from the first of ``tries`` numbers of
    samples that gives one); if none applied (a while loop has no transpose...), the
    ``spare`` compositions in turn until one does."""
    reasons, found = set(), []
    for n in tries:
        found = found or cases(info, n_samples, n, reasons)

    def ran_on_all(names_) -> int:
        """How many of ``names_`` x the found cases ran (the rest noted as skipped)."""
        count = 0
        for case in found:
            for name in names_:
                try:
                    check(case, name)
                    count += 1
                except Skip as e:
                    reasons.add(str(e))
        return count

    ran = ran_on_all(names)
    for name in spare:
        if ran or not found:
            break
        ran = ran_on_all([name])
    if not ran:     # every entry has a case (the rest are excluded): a failure, not a skip
        pytest.fail(f"{info.id}: no usable case for {names} "
                    f"({'; '.join(sorted(reasons)) or 'no sample qualifies'})")


# The CI sample: every entry runs two eager compositions, every EVERY-th entry also one
# compiled composition (each compiles in tenths of a second), in a fixed rotation.
_EAGER, _COMPILED = list(EAGER), list(COMPILED)
EVERY = 8


def rotation(i: int) -> list:
    names = [_EAGER[(2 * i) % len(_EAGER)], _EAGER[(2 * i + 1) % len(_EAGER)]]
    if i % EVERY == 0:
        names.append(_COMPILED[(i // EVERY) % len(_COMPILED)])
    return names


@pytest.mark.parametrize("i,info", list(enumerate(ENTRIES)), ids=[e.id for e in ENTRIES])
def test_compositions_sample(i, info):
    names = rotation(i)
    spare = [n for n in _EAGER if n not in names]
    _run(info, names, 1, tries=(10, 40), spare=spare)


@pytest.mark.slow
@pytest.mark.parametrize("info", ENTRIES, ids=lambda e: e.id)
def test_compositions_all(info):
    _run(info, list(COMPOSITIONS), 3)


_REACH = {      # entry: what its first case must show (the harness finds x there)
    "stack": lambda c: len(c.path) == 3,                          # inside the list
    "bincount-length": lambda c: c.path == (1, "weights"),        # a keyword argument
    "polynomial_module.chebyshev.chebinterpolate": lambda c: c.path[:2] == (1, "args"),
    "arccosh": lambda c: c.x0.min() > 1,                          # inside the domain
    "sort_complex": lambda c: c.dtypes[0] == np.float64 and len(c.shapes) == 2,  # re, im
    "vectorize-otypes": lambda c: c.dtypes[0] == np.float32,      # float32 outputs
    "outer-out": lambda c: c.kwargs["out"].dtype == np.float64,   # out= made float64
}


@pytest.mark.parametrize("name", sorted(_REACH))
def test_cases_reach_arguments_outputs_and_domains(name):
    info = next(i for i in ENTRIES if i.id == name)
    found = cases(info, 1, 40)
    assert found and _REACH[name](found[0])
