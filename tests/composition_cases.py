"""Cases for test_registry_compositions: a registry entry and sample as a scalar function
``s(x)`` of one of its arrays (see that module's docstring for how ``x`` is chosen, the
domains it is drawn from and how outputs are reduced)."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import HealthCheck, Phase, given, settings
from opinfo import Sample, call_ref, map_nested, to_xnp

import xnp
from transforms import grad
from transforms.tree import tree_flatten


def no_derivative(info) -> bool:
    """Entries with no output to differentiate: the registry marks them (integer or boolean
    results: argmax, isclose, shape...; creation from sizes: zeros, eye...), and a NumPy
    ufunc reference with no floating or complex loop (comparisons, bitwise, isnan...)."""
    if not info.differentiable:
        return True
    return isinstance(info.ref, np.ufunc) and not any(
        t.split("->")[1][0] in "efdgFDG" for t in info.ref.types)


B = 3              # members of a batch
# Where the floating argument is drawn: the first interval inside the domain wins
# (arccosh needs x > 1, some functions x < 0).
DOMAINS = ((0.2, 0.8), (1.2, 1.8), (-0.8, -0.2))
# The output dtypes reduced to s(x) (complex outputs by their real and imaginary parts):
# float64 ones, else float32 ones (with looser tolerances).
OUT_DTYPES = ((np.dtype(np.float64), np.dtype(np.complex128)),
              (np.dtype(np.float32), np.dtype(np.complex64)))


class Skip(Exception):
    """The sample cannot be used for this composition (not a failure)."""


class _Enough(Exception):
    pass


def cases(info, n: int, tries: int = 40, reasons: set | None = None) -> list:
    """Up to ``n`` usable cases of an entry (samples with an argument to differentiate on
    which the function does not raise), from at most ``tries`` samples, the same on every
    run; ``reasons`` collects why samples were unusable."""
    found: list = []

    @settings(max_examples=tries, derandomize=True, database=None, deadline=None,
              phases=(Phase.generate,), suppress_health_check=list(HealthCheck))
    @given(info.samples)
    def collect(sample):
        if len(found) >= n:       # hypothesis replays the example that stopped it
            raise _Enough
        try:
            found.append(make_case(info, sample, seed=len(found)))
        except Skip as e:
            if reasons is not None:
                reasons.add(str(e))
            return
        if len(found) >= n:
            raise _Enough
    try:
        collect()
    except _Enough:
        pass
    return found


def array_leaves(tree, path=()):
    """``(path, array)`` for the NumPy arrays in nested lists, tuples and dicts (not
    NamedTuples: those are parameters)."""
    if type(tree) in (list, tuple):
        for i, t in enumerate(tree):
            yield from array_leaves(t, path + (i,))
    elif type(tree) is dict:
        for k, t in tree.items():
            yield from array_leaves(t, path + (k,))
    elif isinstance(tree, np.ndarray):
        yield path, tree


def _replace(tree, path, value):
    """``tree`` with the leaf at ``path`` replaced (the containers are copied)."""
    if not path:
        return value
    k = path[0]
    if type(tree) is dict:
        return {**tree, k: _replace(tree[k], path[1:], value)}
    items = list(tree)
    items[k] = _replace(tree[k], path[1:], value)
    return items if type(tree) is list else tuple(items)


def get_leaf(tree, path):
    for k in path:
        tree = tree[k]
    return tree


def _parts(leaves, real, imag) -> list:
    """Complex leaves as their real and imaginary parts."""
    out = []
    for v in leaves:
        out += [real(v), imag(v)] if v.dtype.kind == "c" else [v]
    return out


def is_out(path) -> bool:
    return path[:2] == (1, "out")


def _candidates(tree) -> list:
    """Paths of the arrays that may be differentiated, anywhere in ``(args, kwargs)``:
    floating ones first, then other numbers and then booleans (made float64); never an
    ``out=`` array."""
    rank = {"f": 0, "i": 1, "u": 1, "c": 1, "b": 2}
    found = [(rank[a.dtype.kind], k, p) for k, (p, a) in enumerate(array_leaves(tree))
             if a.size and a.dtype.kind in rank and not is_out(p)]
    return [p for _, _, p in sorted(found)][:4]


def _float64_variant(sample: Sample):
    """The sample with a ``dtype=`` of float64 and ``out=`` arrays of float64 (so that a
    function casting to another dtype still has an output to differentiate), or None."""
    kw = dict(sample.kwargs)
    changed = False
    if kw.get("dtype") is not None and np.dtype(kw["dtype"]) != np.float64:
        kw["dtype"], changed = np.dtype(np.float64), True
    out = kw.get("out")
    if isinstance(out, np.ndarray) and out.dtype != np.float64:
        kw["out"], changed = np.zeros(out.shape), True
    return Sample(sample.args, kw) if changed else None


def _choices(tree) -> list:
    """``(path, peers)``: each candidate, and where it is an integer or complex array,
    first with the other arrays of its dtype made float64 too (``peers``: functions that
    take operands of one dtype, as lax's), then alone."""
    leaves = dict(array_leaves(tree))
    out = []
    for p in _candidates(tree):
        a = leaves[p]
        peers = tuple(q for q, b in leaves.items() if q != p and not is_out(q)
                      and a.dtype.kind in "iuc" and b.dtype == a.dtype)
        out += [(p, peers), (p, ())] if peers else [(p, ())]
    return out


def make_case(info, sample: Sample, seed: int):
    """The first usable case of a sample: each argument to differentiate (see
    :func:`_candidates`) in each of :data:`DOMAINS`, then the same with float64
    ``dtype=``/``out=`` (:func:`_float64_variant`)."""
    reason = "no argument to differentiate"
    fallback = None
    for s in (sample, _float64_variant(sample)):
        if s is None:
            continue
        tree = (tuple(s.args), dict(s.kwargs))
        for path, peers in _choices(tree):
            for domain in DOMAINS:
                try:
                    case = Case(info, tree, path, peers, domain, seed)
                except Skip as e:
                    reason = str(e)
                    continue
                if case.finite:
                    return case
                fallback = fallback or case
    if fallback is not None:        # non-finite values everywhere: the gradients are finite
        return fallback
    raise Skip(reason)


class Case:
    """One entry and sample, as functions of one array ``x`` among its arguments."""

    def __init__(self, info, tree, path, peers, domain, seed: int):
        self.info = info
        lo, hi = domain
        rng = np.random.default_rng(seed)
        args, kwargs = _smooth(tree, rng)
        self.path = path
        x0 = get_leaf((args, kwargs), path)
        if x0.dtype.kind == "f":
            x0 = x0 + (lo - DOMAINS[0][0])       # _smooth drew it from DOMAINS[0]
        else:       # another dtype made float64 (the reference says whether that works)
            x0 = rng.uniform(lo, hi, x0.shape)
        self.members = [x0] + [rng.uniform(lo, hi, x0.shape) for _ in range(B - 1)]
        for p in peers:
            args, kwargs = _replace((args, kwargs), p,
                                    rng.uniform(lo, hi, get_leaf((args, kwargs), p).shape))
        self.tree = (args, kwargs)
        self.kwargs = kwargs
        for m in self.members:
            a, kw = self._with(m)
            try:
                expected = call_ref(info, Sample(tuple(a), kw))
            except Exception as e:
                raise Skip("an error input") from e
            leaves = [np.asarray(v) for v in tree_flatten(expected)[0]]
            dtypes = next((d for d in OUT_DTYPES if any(v.dtype in d for v in leaves)), None)
            if dtypes is None:
                raise Skip("no floating output")
            leaves = _parts([v for v in leaves if v.dtype in dtypes], np.real, np.imag)
            if info.kink_at_zero_output and any((v == 0).any() for v in leaves):
                raise Skip("kink")
        self.dtypes = dtypes
        # tolerances grow with float32 outputs and with the entry's own tolerance
        # (ill-conditioned functions, e.g. least-squares fits, declare a looser one)
        self.tol = (1.0 if dtypes[0] == np.float64 else 50.0) * max(1.0, info.rtol / 1e-7)
        self.shapes = [v.shape for v in leaves]
        self.weights = [rng.uniform(0.5, 1.5, s) for s in self.shapes]
        self.x0 = x0
        self.m = sum(int(np.prod(s)) for s in self.shapes)
        if not self.m:
            raise Skip("empty output")
        self.v = rng.uniform(0.5, 1.5, self.m + 2)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:        # (test_registry_grads checks eager derivatives)
                self.grads = [np.asarray(grad(self.s)(xnp.asarray(m))) for m in self.members]
                self.values = [float(self.s(xnp.asarray(m))) for m in self.members]
            except Exception as e:
                raise Skip("eager grad raises") from e
        if not all(np.isfinite(g).all() for g in self.grads):
            raise Skip("non-finite gradient")
        self.finite = bool(np.isfinite(self.values).all())

    def _with(self, x, others=None):
        """``(args, kwargs)`` with ``x`` (and ``{path: value}``) put in."""
        tree = _replace(self.tree, self.path, x)
        for p, v in (others or {}).items():
            tree = _replace(tree, p, v)
        return tree

    def out(self, x, others=None):
        """The entry's floating outputs at ``x`` (and other arguments ``{path: value}``),
        complex ones as their real and imaginary parts."""
        args, kwargs = self._with(np.asarray(0.0))
        args, kwargs = to_xnp(args), {k: to_xnp(v) for k, v in kwargs.items()}
        tree = _replace((args, kwargs), self.path, x)
        for p, v in (others or {}).items():
            tree = _replace(tree, p, v)
        res = self.info.op(*tree[0], **tree[1])
        leaves = [xnp.asarray(v) for v in tree_flatten(res)[0]     # NumPy scalars too
                  if isinstance(v, (xnp.ndarray, np.generic)) and v.dtype in self.dtypes]
        leaves = _parts(leaves, xnp.real, xnp.imag)
        if [v.shape for v in leaves] != self.shapes:
            raise Skip("output structure depends on the values")
        return leaves

    def s(self, x, others=None):
        """A weighted sum of the outputs: a scalar function of ``x``."""
        total = 0.0
        for leaf, w in zip(self.out(x, others), self.weights):
            total = total + xnp.sum(leaf * w)
        return total

    def flat(self, x):
        return xnp.concatenate([xnp.ravel(v * w) for v, w in zip(self.out(x), self.weights)])

    def stacked(self, axis=0):
        return xnp.asarray(np.stack(self.members, axis=axis))


def _smooth(x, rng):
    return map_nested(lambda v: rng.uniform(0.2, 0.8, v.shape) if isinstance(v, np.ndarray)
                      and v.dtype.kind == "f" else v, x)
