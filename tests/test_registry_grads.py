"""Derivatives of every differentiable registry entry, checked by ``check_grads``.

Each sample of an entry is reused with its floating inputs replaced by float64 values
drawn from (0.2, 0.8), inside every elementwise domain (log, arcsin, arctanh, ...) and
away from kinks and ties (floor, abs, max); JVPs are compared with central differences and
VJPs with JVPs (Re<u, J v> == Re<J^T u, v>). Outputs that are not floating carry no
derivative and are left out.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from opinfo import Sample, call_ref, to_xnp
from registry import REGISTRY

import xnp
from transforms.test_util import check_grads
from transforms.tree import tree_flatten

DIFFERENTIABLE = [i for i in REGISTRY if i.samples is not None and i.differentiable]


def _smooth_floats(sample: Sample, seed: int) -> Sample:
    rng = np.random.default_rng(seed)

    def fix(x):
        if isinstance(x, np.ndarray) and x.dtype.kind == "f":
            return rng.uniform(0.2, 0.8, x.shape)
        if type(x) is list:
            return [fix(i) for i in x]
        if type(x) is tuple:
            return tuple(fix(i) for i in x)
        return x
    return Sample(fix(sample.args), {k: fix(v) for k, v in sample.kwargs.items()})


def _float_positions(args):
    return [i for i, a in enumerate(args) if isinstance(a, np.ndarray) and a.dtype.kind == "f"
            and a.size]


def _draw_case(info, data):
    """A sample of ``info`` with smooth float inputs, the positions of its float arrays
    and NumPy's result; None where it has none or NumPy raises (derivatives are then not
    defined)."""
    sample = data.draw(info.samples, label="sample")
    sample = _smooth_floats(sample, data.draw(st.integers(0, 2 ** 16), label="seed"))
    positions = _float_positions(sample.args)
    if not positions:
        return None
    try:
        expected = call_ref(info, sample)
    except Exception:
        return None
    return sample, positions, expected


def _call_at(info, sample, positions, diff_args):
    """``info.op`` on ``sample`` with the arrays at ``positions`` replaced."""
    args = list(sample.args)
    for i, a in zip(positions, diff_args):
        args[i] = a
    args = [xnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    return info.op(*args, **{k: to_xnp(v) for k, v in sample.kwargs.items()})


def _projection(out, kinds: str):
    """A fixed random real projection of the leaves of ``out`` whose dtype kind is in
    ``kinds``: a scalar loss of every such output."""
    total = 0.0
    for leaf in tree_flatten(out)[0]:
        if isinstance(leaf, xnp.ndarray) and leaf.dtype.kind in kinds:
            w = np.random.default_rng(leaf.size).uniform(-1, 1, leaf.shape)
            total = total + xnp.real(xnp.sum(leaf * w))
    return total


@pytest.mark.parametrize("info", DIFFERENTIABLE, ids=lambda i: i.id)
@settings(max_examples=4, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_grads_match_finite_differences(info, data):
    sample = data.draw(info.samples, label="sample")
    sample = _smooth_floats(sample, data.draw(st.integers(0, 2 ** 16), label="seed"))
    positions = _float_positions(sample.args)
    if not positions:
        return
    try:
        expected = call_ref(info, sample)
    except Exception:
        return                      # an error input: derivatives are not defined
    out_leaves = [np.asarray(leaf) for leaf in tree_flatten(expected)[0]]
    if not any(leaf.dtype == np.float64 for leaf in out_leaves):
        return      # finite differences are only meaningful in float64
    if info.kink_at_zero_output and any((leaf == 0).any() for leaf in out_leaves):
        return

    def f(*diff_args):
        args = list(sample.args)
        for i, a in zip(positions, diff_args):
            args[i] = a
        args = [xnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
        out = info.op(*args, **{k: to_xnp(v) for k, v in sample.kwargs.items()})
        leaves = [leaf for leaf in tree_flatten(out)[0]
                  if isinstance(leaf, xnp.ndarray) and leaf.dtype == np.float64]
        return leaves

    check_grads(f, [sample.args[i] for i in positions], order=1, atol=2e-5, rtol=2e-5)


@pytest.mark.parametrize("info", DIFFERENTIABLE, ids=lambda i: i.id)
@settings(max_examples=3, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_eager_grad_matches_the_general_reverse_mode(info, data):
    """``grad`` outside every transformation runs the eager tape of
    ``transforms.eager_grad`` (VJP programs cached per primitive signature); ``vjp`` runs
    the general linearize + transpose. Both must give the same gradient."""
    case = _draw_case(info, data)
    if case is None:
        return
    sample, positions, expected = case
    if not any(np.asarray(leaf).dtype.kind in "fc" for leaf in tree_flatten(expected)[0]):
        return

    def loss(*diff_args):
        return _projection(_call_at(info, sample, positions, diff_args), "fc")

    diff = [sample.args[i] for i in positions]
    eager = xnp.grad(loss, argnums=tuple(range(len(diff))))(*diff)
    general = xnp.vjp(loss, *diff)[1](np.float64(1.0))
    for e, g in zip(eager, general):
        np.testing.assert_allclose(np.asarray(e), np.asarray(g), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("info", DIFFERENTIABLE, ids=lambda i: i.id)
@settings(max_examples=1, suppress_health_check=list(HealthCheck), deadline=None)
@given(data=st.data())
def test_eager_hessian_vector_products_match_the_general_reverse_mode(info, data):
    """Second order: the eager tape differentiating a general inner ``grad`` (which runs
    under the tape's trace) against ``vjp`` of the same, on the first float argument."""
    case = _draw_case(info, data)
    if case is None:
        return
    sample, positions, expected = case
    position = positions[0]
    x = sample.args[position]
    if x.dtype != np.float64 or not any(
            np.asarray(leaf).dtype == np.float64 for leaf in tree_flatten(expected)[0]):
        return

    def loss(x):
        return _projection(_call_at(info, sample, [position], [x]), "f")

    v = np.random.default_rng(x.size).uniform(-1, 1, x.shape)

    def hvp_loss(x):
        return xnp.sum(xnp.grad(loss)(x) * v)
    try:
        general = xnp.vjp(hvp_loss, x)[1](np.float64(1.0))[0]
    except Exception as e:          # no second derivative on either path
        with pytest.raises(type(e)):
            xnp.grad(hvp_loss)(x)
        return
    eager = xnp.grad(hvp_loss)(x)
    np.testing.assert_allclose(np.asarray(eager), np.asarray(general), rtol=1e-9, atol=1e-11)
