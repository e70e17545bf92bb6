"""The xnp demo: ordinary NumPy code run with ``import xnp as np``, then staged into a jaxpr.

Run with ``python -m xnp.demo``.
"""

from __future__ import annotations

import numpy

import xnp as np


def normalize_rows(x):
    """Ordinary NumPy-style code, in-place update included."""
    x = x - x.mean(axis=1, keepdims=True)
    scale = np.sqrt((x ** 2).sum(axis=1, keepdims=True)) + 1e-12
    x /= scale
    return x


def softmax_cross_entropy(w, x, labels):
    logits = x @ w
    logits = logits - logits.max(axis=1, keepdims=True)
    log_probs = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    picked = np.take_along_axis(log_probs, labels[:, None], axis=1)
    return -picked.mean()


def main() -> None:
    rng = numpy.random.default_rng(0)
    x_np = rng.normal(size=(4, 3))
    x = np.asarray(x_np)

    print("== ordinary NumPy code, run by xnp ==")
    y = normalize_rows(x)
    print(y)
    ref = x_np - x_np.mean(axis=1, keepdims=True)
    ref /= numpy.sqrt((ref ** 2).sum(axis=1, keepdims=True)) + 1e-12
    print("equal to NumPy:", bool(np.allclose(y, ref)), "| dtype:", y.dtype)

    w = np.asarray(rng.normal(size=(3, 2)))
    labels = np.asarray([0, 1, 1, 0])
    loss = softmax_cross_entropy(w, x, labels)
    print("softmax cross-entropy:", float(loss))

    print("\n== the same code staged into a jaxpr (xnp.make_jaxpr) ==")
    print(np.make_jaxpr(normalize_rows)(x))

    print("\n== differentiated (xnp.grad) ==")
    g = np.grad(softmax_cross_entropy)(w, x, labels)
    print(g)
    eps = 1e-6
    bump = numpy.zeros((3, 2))
    bump[0, 1] = eps
    fd = (float(softmax_cross_entropy(w + bump, x, labels))
          - float(softmax_cross_entropy(w - bump, x, labels))) / (2 * eps)
    print(f"d loss / d w[0, 1]: grad {float(g[0, 1]):.8f}, finite differences {fd:.8f}")

    print("\n== batched (xnp.vmap): per-example gradients without a loop ==")
    per_example = np.vmap(np.grad(softmax_cross_entropy), in_axes=(None, 0, 0))(
        w, x[:, None, :], labels[:, None])
    print("per-example gradient shape:", per_example.shape)
    print("their mean equals the batch gradient:",
          bool(np.allclose(per_example.mean(axis=0), g)))

    print("\n== compiled (xnp.jit): traced once, lowered to StableHLO, run by XLA ==")
    step = np.jit(lambda w, x, labels: w - 0.5 * np.grad(softmax_cross_entropy)(w, x, labels))
    w_jit, w_eager = w, w
    for _ in range(50):
        w_jit, w_eager = step(w_jit, x, labels), w_eager - 0.5 * np.grad(
            softmax_cross_entropy)(w_eager, x, labels)
    print("50 compiled gradient steps, loss", float(softmax_cross_entropy(w_jit, x, labels)),
          "| equal to eager:", bool(np.allclose(w_jit, w_eager, rtol=1e-12)),
          "| traced", step.trace_count, "time")
    text = np.jit(normalize_rows).lower(x).as_text()
    print("\n".join(text.splitlines()[:6]) + "\n  ...")


if __name__ == "__main__":
    main()
