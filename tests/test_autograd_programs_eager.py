"""Autograd-style programs differentiated by the eager reverse mode (``xnp.grad`` called
outside every transformation): a training loop over a list of (W, b) tuples, a recurrent
net that builds its outputs in a Python list, a Hessian-vector product (eager ``grad`` of
a general ``grad``) and Python control flow on concrete values. The expected numbers are
autograd 1.9.1's on the same programs and data; each gradient is also checked against the
general reverse mode (``vjp``)."""

from __future__ import annotations

import numpy as np

import xnp
from transforms.tree import tree_flatten

R = np.random.RandomState(3)
X = R.randn(6, 4)
Y = np.eye(3)[R.randint(0, 3, 6)]
PARAMS = [(0.5 * R.randn(4, 5), 0.1 * R.randn(5)), (0.5 * R.randn(5, 3), 0.1 * R.randn(3))]
SEQ = R.randn(5, 2)
W_RNN = 0.4 * R.randn(2 + 3, 3)
MUS = R.randn(3, 2)


def _close(a, b, rtol=1e-10):
    np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float),
                               rtol=rtol, atol=1e-13)


def _same_as_general(f, x):
    """``xnp.grad(f)(x)`` (the eager tape) equals the cotangent of ``vjp`` (general)."""
    eager = xnp.grad(f)(x)
    general = xnp.vjp(f, x)[1](1.0)[0]
    for a, b in zip(tree_flatten(eager)[0], tree_flatten(general)[0], strict=True):
        _close(a, b, rtol=1e-12)
    return eager


def _mlp_loss(params):
    h = X
    for W, b in params:
        out = xnp.dot(h, W) + b
        h = xnp.tanh(out)
    logp = out - xnp.log(xnp.sum(xnp.exp(out), axis=1, keepdims=True))
    return -xnp.sum(logp * Y) + 0.01 * sum(xnp.sum(W ** 2) for W, _ in params)


def test_training_loop_over_list_of_tuples_matches_autograd():
    params, losses = PARAMS, []
    for _ in range(3):
        v, g = xnp.value_and_grad(_mlp_loss)(params)
        losses.append(v)
        params = [(W - 0.1 * gW, b - 0.1 * gb) for (W, b), (gW, gb) in zip(params, g)]
    _close(losses, [7.798386181426686, 4.1606144598885475, 3.6917487223384042])
    _close(g[0][0][0], [-0.6573592302610163, -0.2878413980607759, 0.03116442053962991,
                        0.02694837346477381, 0.15042366626102902])
    _close(g[1][1], [0.30773367302871046, -0.06123401027556929, -0.24649966275314128])
    _same_as_general(_mlp_loss, params)


def _rnn_loss(W):
    h = xnp.zeros(3)
    outs = []
    for t in range(SEQ.shape[0]):
        h = xnp.tanh(xnp.dot(xnp.concatenate((SEQ[t], h)), W))
        outs.append(h[0] * h[1])
    return xnp.sum(xnp.array(outs) ** 2) + xnp.max(h)


def test_recurrent_net_with_python_list_outputs_matches_autograd():
    g = _same_as_general(_rnn_loss, W_RNN)
    _close(g, [[0.5645287614859188, -0.14083498365538816, 1.2683853686222288],
               [-0.23407696521809093, 0.14839526213241053, 0.2754226930152452],
               [-0.02549206188399571, -0.06271867038548044, 0.11906824633983763],
               [0.17468634403509434, 0.15636752241526833, 0.3744656385910297],
               [-0.46189306563137345, 0.01657218258751791, 0.5122923219997376]])


def _mixture_nll(mus):
    d = SEQ[:, None, :] - mus[None, :, :]
    lp = -0.5 * xnp.sum(d ** 2, axis=2)
    m = xnp.max(lp, axis=1, keepdims=True)
    return -xnp.sum(xnp.log(xnp.sum(xnp.exp(lp - m), axis=1)) + m[:, 0])


def test_hessian_vector_product_eager_outside_general_inside_matches_autograd():
    v = np.linspace(-1.0, 1.0, MUS.size).reshape(MUS.shape)
    hvp = _same_as_general(lambda m: xnp.sum(xnp.grad(_mixture_nll)(m) * v), MUS)
    _close(hvp, [[-0.6138813721049183, -0.7608013871806605],
                 [-0.5265752838731212, 1.7658312029194922],
                 [0.828183303833903, 2.043557343460769]])


def _while_and_rows(x):
    total, k = 0.0, 0
    while total < 5.0:          # Python control flow on the concrete value
        total = total + xnp.sum(xnp.sin(x) ** 2) + 0.5
        k += 1
    rows = [r * k for r in xnp.reshape(x, (2, 2))]      # iterating a differentiated array
    return total * rows[0][1] + xnp.prod(rows[1])


def test_python_while_and_row_iteration_match_autograd():
    g = _same_as_general(_while_and_rows, np.array([0.3, -1.2, 0.7, 2.0]))
    _close(g, [-2.710283872296169, 14.0336924238354, 3.2698412960553913, 6.432651977478056])
