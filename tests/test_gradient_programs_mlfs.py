"""Hand-derived backward passes of small neural-network layers (the kind that from-scratch
ML code writes in NumPy) checked against xnp.grad, xnp.vjp, xnp.jit and xnp.vmap on the
same inputs; where a hand rule is easy to get wrong, central finite differences decide."""

from __future__ import annotations

import numpy as np
import pytest

import xnp


def _fd_directional(f, x, d, h=1e-6):
    return (float(f(x + h * d)) - float(f(x - h * d))) / (2 * h)


def _softmax(z):
    e = xnp.exp(z - xnp.max(z, axis=-1, keepdims=True))
    return e / xnp.sum(e, axis=-1, keepdims=True)


# --- softmax cross-entropy -------------------------------------------------------------

def test_softmax_cross_entropy_gradient_is_p_minus_y():
    rng = np.random.default_rng(2027)
    logits = rng.normal(size=(6, 4))
    labels = np.eye(4)[rng.integers(0, 4, size=6)]

    def loss(z, y):
        return -xnp.mean(xnp.sum(y * xnp.log(_softmax(z)), axis=-1))

    p = np.exp(logits - logits.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    hand = (p - labels) / len(logits)
    np.testing.assert_allclose(xnp.grad(loss)(logits, labels), hand, atol=1e-12)
    np.testing.assert_allclose(xnp.jit(xnp.grad(loss))(logits, labels), hand, atol=1e-12)
    _, pull = xnp.vjp(lambda z: loss(z, labels), logits)
    np.testing.assert_allclose(pull(1.0)[0], hand, atol=1e-12)
    # per-example gradients: vmap of the one-row loss gives each row of p - y
    per = xnp.vmap(xnp.grad(lambda z, y: loss(z[None], y[None])))(logits, labels)
    np.testing.assert_allclose(per, p - labels, atol=1e-12)


def test_softmax_vjp_needs_the_full_jacobian():
    rng = np.random.default_rng(2028)
    # The diagonal-only rule G * p * (1 - p) (a common hand-written "softmax gradient") is
    # not the VJP; the VJP is p * (G - sum(G * p)). Finite differences side with xnp.
    z, g = rng.normal(size=(3, 5)), rng.normal(size=(3, 5))
    p = np.asarray(_softmax(xnp.asarray(z)))
    full = p * (g - np.sum(g * p, axis=-1, keepdims=True))
    grad = xnp.grad(lambda v: xnp.sum(g * _softmax(v)))(z)
    np.testing.assert_allclose(grad, full, atol=1e-12)
    d = rng.normal(size=z.shape)
    fd = _fd_directional(lambda v: np.sum(g * np.asarray(_softmax(xnp.asarray(v)))), z, d)
    assert abs(fd - np.sum(full * d)) < 1e-6
    assert abs(fd - np.sum(g * p * (1 - p) * d)) > 1e-3


# --- batch normalisation (training mode) -----------------------------------------------

def test_batch_norm_backward_matches_hand_derivation():
    rng = np.random.default_rng(2029)
    eps = 0.01
    x = rng.normal(size=(8, 5)) * 3 + 1
    gamma, beta, g = rng.normal(size=5), rng.normal(size=5), rng.normal(size=(8, 5))

    def bn(x, gamma, beta):
        mu = xnp.mean(x, axis=0)
        xc = x - mu
        inv = 1 / xnp.sqrt(xnp.mean(xc ** 2, axis=0) + eps)
        return gamma * xc * inv + beta

    def objective(x, gamma, beta):
        return xnp.sum(g * bn(x, gamma, beta))

    # hand rule: dx = gamma * inv / n * (n g - sum(g) - xhat * sum(g * xhat))
    n = len(x)
    xc = x - x.mean(0)
    inv = 1 / np.sqrt(x.var(0) + eps)
    xhat = xc * inv
    dx = gamma * inv / n * (n * g - g.sum(0) - xhat * np.sum(g * xhat, axis=0))
    hand = (dx, np.sum(g * xhat, axis=0), g.sum(0))

    for grads in (xnp.grad(objective, argnums=(0, 1, 2))(x, gamma, beta),
                  xnp.jit(xnp.grad(objective, argnums=(0, 1, 2)))(x, gamma, beta),
                  xnp.vjp(objective, x, gamma, beta)[1](1.0)):
        for got, want in zip(grads, hand):
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    # batch statistics couple the rows, but the parameters' gradients batch over
    # independent normalisation groups
    xs, gs = rng.normal(size=(3, 8, 5)), rng.normal(size=(3, 8, 5))
    per = xnp.vmap(xnp.grad(lambda x, g: xnp.sum(g * bn(x, gamma, beta))))(xs, gs)
    for k in range(3):
        np.testing.assert_allclose(
            per[k], xnp.grad(lambda x: xnp.sum(gs[k] * bn(x, gamma, beta)))(xs[k]), atol=1e-12)


# --- 2-d convolution through im2col ----------------------------------------------------

def _im2col_index(c, h, w, fh, fw, stride):
    oh, ow = (h - fh) // stride + 1, (w - fw) // stride + 1
    ch = np.repeat(np.arange(c), fh * fw)[:, None]
    row = (np.tile(np.repeat(np.arange(fh), fw), c)[:, None]
           + stride * np.repeat(np.arange(oh), ow)[None, :])
    col = (np.tile(np.arange(fw), fh * c)[:, None]
           + stride * np.tile(np.arange(ow), oh)[None, :])
    return ch, row, col, oh, ow


@pytest.mark.parametrize("pad,stride", [(1, 1), (0, 2)])
def test_conv2d_im2col_gradients(pad, stride):
    rng = np.random.default_rng(2030)
    n, c, h, w, f, k = 2, 2, 6, 6, 3, 3
    x = rng.normal(size=(n, c, h, w))
    wt, b = rng.normal(size=(f, c, k, k)), rng.normal(size=(f, 1))
    ch, row, col, oh, ow = _im2col_index(c, h + 2 * pad, w + 2 * pad, k, k, stride)
    g = rng.normal(size=(n, f, oh, ow))

    def conv(x, wt, b):
        xp = xnp.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
        cols = xp[:, ch, row, col]                         # (n, c*k*k, oh*ow)
        out = xnp.einsum("fk,nkl->nfl", wt.reshape(f, -1), cols) + b
        return out.reshape(x.shape[0], f, oh, ow)

    def objective(x, wt, b):
        return xnp.sum(g * conv(x, wt, b))

    # hand rule: the weight gradient correlates g with the columns; the input gradient
    # scatters W^T g back onto the padded image (np.add.at), then crops the padding
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    cols = xp[:, ch, row, col]
    g2 = g.reshape(n, f, -1)
    dw = np.einsum("nfl,nkl->fk", g2, cols).reshape(wt.shape)
    db = g2.sum(axis=(0, 2))[:, None]
    dcols = np.einsum("fk,nfl->nkl", wt.reshape(f, -1), g2)
    dxp = np.zeros_like(xp)
    np.add.at(dxp, (slice(None), ch, row, col), dcols)
    dx = dxp[:, :, pad:pad + h, pad:pad + w]

    for grads in (xnp.grad(objective, argnums=(0, 1, 2))(x, wt, b),
                  xnp.jit(xnp.grad(objective, argnums=(0, 1, 2)))(x, wt, b)):
        for got, want in zip(grads, (dx, dw, db)):
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    # per-example weight gradients (vmap over the batch) sum to the batch gradient
    per = xnp.vmap(xnp.grad(lambda xi, gi: xnp.sum(gi * conv(xi[None], wt, b)[0])),
                   in_axes=(0, 0))(x, g)
    np.testing.assert_allclose(per, dx, rtol=1e-10, atol=1e-12)
    per_w = xnp.vmap(xnp.grad(lambda wt, xi, gi: xnp.sum(gi * conv(xi[None], wt, b)[0])),
                     in_axes=(None, 0, 0))(wt, x, g)
    np.testing.assert_allclose(xnp.sum(per_w, axis=0), dw, rtol=1e-10, atol=1e-12)


# --- an RNN unrolled over time, written with in-place state updates -------------------

def test_rnn_unrolled_bptt_matches_hand_and_finite_differences():
    rng = np.random.default_rng(2031)
    n, steps, d, hdim = 2, 5, 3, 4
    x = rng.normal(size=(n, steps, d))
    u, v, wr = (rng.normal(size=s) * 0.5 for s in ((hdim, d), (d, hdim), (hdim, hdim)))
    g = rng.normal(size=(n, steps, d))

    def forward(x, u, v, wr):
        states = xnp.zeros((n, steps + 1, hdim))        # states[:, -1] is the zero state
        outs = xnp.zeros((n, steps, d))
        for t in range(steps):
            states[:, t] = xnp.tanh(x[:, t] @ u.T + states[:, t - 1] @ wr.T)
            outs[:, t] = states[:, t] @ v.T
        return outs, states

    def objective(x, u, v, wr):
        return xnp.sum(g * forward(x, u, v, wr)[0])

    # hand rule: full back-propagation through time (no truncation)
    s = np.asarray(forward(x, u, v, wr)[1])
    dx, du, dv, dw = (np.zeros_like(a) for a in (x, u, v, wr))
    carry = np.zeros((n, hdim))
    for t in reversed(range(steps)):
        dv += g[:, t].T @ s[:, t]
        dh = g[:, t] @ v + carry
        da = dh * (1 - s[:, t] ** 2)
        du += da.T @ x[:, t]
        dw += da.T @ s[:, t - 1]
        dx[:, t] = da @ u
        carry = da @ wr
    hand = (dx, du, dv, dw)

    for grads in (xnp.grad(objective, argnums=(0, 1, 2, 3))(x, u, v, wr),
                  xnp.jit(xnp.grad(objective, argnums=(0, 1, 2, 3)))(x, u, v, wr)):
        for got, want in zip(grads, hand):
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    # finite differences along a random direction in the recurrent weights
    dirn = rng.normal(size=wr.shape)
    fd = _fd_directional(lambda m: float(objective(x, u, v, m)), wr, dirn)
    assert abs(fd - np.sum(dw * dirn)) < 1e-6
    # a truncated BPTT (only the last k steps feed back) is not the gradient: the input's
    # gradient then misses the paths through later states
    assert np.max(np.abs(dx[:, 0] - (g[:, 0] @ v * (1 - s[:, 0] ** 2)) @ u)) > 1e-3


# --- elementwise activations -----------------------------------------------------------

_ALPHA, _SCALE = 1.6732632423543772, 1.0507009873554805
_ACTIVATIONS = {
    "leaky_relu": (lambda z: xnp.where(z >= 0, z, 0.2 * z),
                   lambda z: np.where(z >= 0, 1.0, 0.2)),
    "elu": (lambda z: xnp.where(z >= 0, z, 0.1 * (xnp.exp(z) - 1)),
            lambda z: np.where(z >= 0, 1.0, 0.1 * np.exp(z))),
    "selu": (lambda z: _SCALE * xnp.where(z >= 0, z, _ALPHA * (xnp.exp(z) - 1)),
             lambda z: _SCALE * np.where(z >= 0, 1.0, _ALPHA * np.exp(z))),
    "softplus": (lambda z: xnp.log(1 + xnp.exp(z)),
                 lambda z: 1 / (1 + np.exp(-z))),
}


@pytest.mark.parametrize("name", sorted(_ACTIVATIONS))
def test_activation_derivatives(name):
    rng = np.random.default_rng(2032)
    f, df = _ACTIVATIONS[name]
    z = np.concatenate([rng.normal(size=12) * 3, [1e-3, -1e-3, 0.0]])
    want = df(z)
    np.testing.assert_allclose(xnp.grad(lambda v: xnp.sum(f(v)))(z), want, rtol=1e-12)
    np.testing.assert_allclose(xnp.vmap(xnp.grad(f))(z), want, rtol=1e-12)
    np.testing.assert_allclose(xnp.jit(xnp.vmap(xnp.grad(f)))(z), want, rtol=1e-12)
    g = rng.normal(size=z.shape)
    np.testing.assert_allclose(xnp.vjp(f, z)[1](g)[0], g * want, rtol=1e-12)
    # away from the kink at 0, central differences agree with both
    smooth = np.abs(z) > 1e-2
    fd = (np.asarray(f(z + 1e-6)) - np.asarray(f(z - 1e-6))) / 2e-6
    np.testing.assert_allclose(fd[smooth], want[smooth], rtol=1e-6)
