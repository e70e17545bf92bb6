"""einsum's subscripts and contraction paths: parsing NumPy's two calling conventions,
the size of every label, and the path (greedy or optimal, as ``optimize=`` asks). Plain
Python on static shapes: nothing here touches array values."""

from __future__ import annotations

import functools
import itertools
import math
import operator
import string
from collections import Counter

__all__ = ["LETTERS", "split_operands", "parse_subscripts", "label_sizes", "optimize_key",
           "greedy_path", "optimal_path", "result_labels", "term_size", "term_flops"]

LETTERS = frozenset(string.ascii_letters)
_SUBLIST_LETTERS = string.ascii_uppercase + string.ascii_lowercase   # 0-25, 26-51
_OPTIMAL_MAX_OPERANDS = 10
_ENUMERATED_MAX_OPERANDS = 7     # NumPy's exhaustive search: about 57,000 orders for 7


# --- parsing ----------------------------------------------------------------------------------
def split_operands(operands) -> tuple[str, list]:
    """(subscripts string, operands) from either of NumPy's calling conventions."""
    if not operands:
        raise ValueError("must specify the einstein sum subscripts string and at least one "
                         "operand, or at least one operand and its corresponding "
                         "subscripts list")
    if isinstance(operands[0], str):
        return operands[0], list(operands[1:])
    args = list(operands)
    if len(args) < 2:
        raise ValueError("must provide at least an operand and a subscripts list to einsum")
    output = args.pop() if len(args) % 2 else None
    text = ",".join(_sublist(s) for s in args[1::2])
    if output is not None:
        text += "->" + _sublist(output)
    return text, args[0::2]


def _sublist(sub) -> str:
    chars = []
    for item in sub:
        if item is Ellipsis:
            chars.append("...")
            continue
        try:
            i = operator.index(item)
        except TypeError:
            raise TypeError("each subscript must be either an integer or an ellipsis") \
                from None
        if not 0 <= i < 52:
            raise ValueError("subscript is not within the valid range [0, 52)")
        chars.append(_SUBLIST_LETTERS[i])
    return "".join(chars)


def _tokens(term: str, where: str) -> list:
    """Letters of one term, with None standing for its ellipsis."""
    tokens, i = [], 0
    while i < len(term):
        c = term[i]
        if c == ".":
            if term[i:i + 3] != "...":
                raise ValueError("einstein sum subscripts string contains a '.' that is "
                                 f"not part of an ellipsis ('...') in {where}")
            if None in tokens:
                raise ValueError("einstein sum subscripts string contains more than one "
                                 f"ellipsis ('...') in {where}")
            tokens.append(None)
            i += 3
        elif c in LETTERS:
            tokens.append(c)
            i += 1
        else:
            raise ValueError(f"invalid subscript '{c}' in einstein sum subscripts string, "
                             "subscripts must be letters")
    return tokens


def _ellipsis_labels(n: int, total: int) -> list:
    # Labels of broadcast (ellipsis) dimensions: never letters, so never confused.
    return [f".{j}" for j in range(total - n, total)]


def parse_subscripts(text: str, shapes: tuple) -> tuple[list, tuple]:
    """Per-operand label lists (ellipsis expanded) and the output labels."""
    text = text.replace(" ", "")
    lhs, arrow, rhs = text.partition("->")
    if any(c in lhs or c in rhs for c in "->"):
        raise ValueError("einstein sum subscript string does not contain proper '->' "
                         "output specified")
    terms = [_tokens(t, f"operand {i}") for i, t in enumerate(lhs.split(","))]
    if len(terms) > len(shapes):
        raise ValueError("fewer operands provided to einstein sum function than specified "
                         "in the subscripts string")
    if len(terms) < len(shapes):
        raise ValueError("more operands provided to einstein sum function than specified "
                         "in the subscripts string")
    ell = []
    for i, (tokens, shape) in enumerate(zip(terms, shapes)):
        named = len(tokens) - (None in tokens)
        if named > len(shape) or (None not in tokens and named < len(shape)):
            raise ValueError(
                f"einstein sum subscripts string contains too many subscripts for operand "
                f"{i}" if named > len(shape) else "operand has more dimensions than "
                "subscripts given in einstein sum, but no '...' ellipsis provided to "
                "broadcast the extra dimensions.")
        ell.append(len(shape) - named)
    n_ell = max(ell, default=0)
    labels = [[lab for t in tokens for lab in
               (_ellipsis_labels(e, n_ell) if t is None else [t])]
              for tokens, e in zip(terms, ell)]
    if arrow:
        out_tokens = _tokens(rhs, "the output")
        letters = [t for t in out_tokens if t is not None]
        seen = set().union(*map(set, terms)) if terms else set()
        for c in letters:
            if letters.count(c) > 1:
                raise ValueError("einstein sum subscripts string includes output subscript "
                                 f"'{c}' multiple times")
            if c not in seen:
                raise ValueError(f"einstein sum subscripts string included output subscript "
                                 f"'{c}' which never appeared in an input")
        if None not in out_tokens and n_ell:
            raise ValueError("output has more dimensions than subscripts given in einstein "
                             "sum, but no '...' ellipsis provided to broadcast the extra "
                             "dimensions.")
        out = [lab for t in out_tokens
               for lab in (_ellipsis_labels(n_ell, n_ell) if t is None else [t])]
    else:
        counts = Counter(t for tokens in terms for t in tokens if t is not None)
        out = _ellipsis_labels(n_ell, n_ell) + sorted(c for c, n in counts.items() if n == 1)
    return labels, tuple(out)


def label_sizes(labels: list, shapes: tuple) -> dict:
    """The size of every label; sizes of 1 broadcast against the others."""
    sizes: dict = {}
    for i, (labs, shape) in enumerate(zip(labels, shapes)):
        local: dict = {}
        for lab, n in zip(labs, shape):
            if local.setdefault(lab, n) != n:
                raise ValueError(f"dimensions in operand {i} for collapsing index '{lab}' "
                                 f"don't match ({local[lab]} != {n})")
        for lab, n in local.items():
            prev = sizes.get(lab)
            if prev is None or prev == 1:
                sizes[lab] = n
            elif n not in (1, prev):
                described = " ".join(f"{s}" for s in shapes)
                raise ValueError("operands could not be broadcast together with remapped "
                                 f"shapes: label '{lab}' has sizes {prev} and {n} "
                                 f"(operand shapes {described})")
    return sizes


# --- contraction paths --------------------------------------------------------------------------
def term_size(labels, sizes) -> int:
    return math.prod(sizes[lab] for lab in labels)


def result_labels(group, others, out) -> frozenset:
    """The labels of a contraction of ``group``: those still needed elsewhere."""
    needed = set(out).union(*others)
    return frozenset(set().union(*group) & needed)


def term_flops(group, result, sizes) -> int:
    union = set().union(*group)
    ops = len(group) - 1 + (len(union) > len(result))
    return term_size(union, sizes) * max(ops, 1)


def _flops(labels, inner: bool, n_terms: int, sizes) -> int:
    """NumPy's FLOP model of contracting ``n_terms`` terms over ``labels``."""
    return term_size(labels, sizes) * (max(1, n_terms - 1) + inner)


def _contract(positions, terms: list, out: frozenset):
    """Contracting ``terms[positions]``: (result labels, the new term list with the result
    last, whether labels are summed away, every label involved)."""
    involved, rest = set(), set(out)
    remaining = []
    for k, t in enumerate(terms):
        if k in positions:
            involved |= t
        else:
            remaining.append(t)
            rest |= t
    result = frozenset(involved & rest)
    return result, remaining + [result], bool(involved - result), involved


def default_memory_limit(terms: list, out, sizes) -> int:
    """NumPy's default bound on intermediates: the largest operand or the output."""
    return max([term_size(t, sizes) for t in terms] + [term_size(out, sizes)])


def _greedy_candidate(positions, terms, out, sizes, limit, spent, naive):
    result, new_terms, inner, involved = _contract(positions, terms, out)
    size = term_size(result, sizes)
    if size > limit:
        return None
    removed = sum(term_size(terms[p], sizes) for p in positions) - size
    cost = _flops(involved, inner, len(positions), sizes)
    if spent + cost > naive:
        return None
    return [(-removed, cost), positions, new_terms]


def greedy_path(terms: list, out, sizes, limit=None) -> list:
    """NumPy's greedy order: repeatedly contract the pair that removes the most elements
    (then the cheapest; the first such pair in NumPy's candidate order), among pairs that
    share a label when any do; intermediates above ``limit`` elements are not formed (if
    nothing fits, the rest is contracted at once)."""
    terms, out = list(terms), frozenset(out)
    n = len(terms)
    if n < 3:
        return [tuple(range(n))] if n == 1 else [(0, 1)]
    limit = default_memory_limit(terms, out, sizes) if limit is None else limit
    _, _, inner, involved = _contract(range(n), terms, out)
    naive = _flops(involved, inner, n, sizes)
    pairs = itertools.combinations(range(n), 2)
    known, path, spent = [], [], 0
    for _ in range(n - 1):
        for pos in pairs:
            if not terms[pos[0]].isdisjoint(terms[pos[1]]):
                c = _greedy_candidate(pos, terms, out, sizes, limit, spent, naive)
                if c is not None:
                    known.append(c)
        if not known:       # only outer products are left: consider every pair
            for pos in itertools.combinations(range(len(terms)), 2):
                c = _greedy_candidate(pos, terms, out, sizes, limit, spent, naive)
                if c is not None:
                    known.append(c)
            if not known:
                path.append(tuple(range(len(terms))))
                break
        best = min(known, key=lambda c: c[0])
        known = _reindexed(known, best)
        terms = best[2]
        last = len(terms) - 1
        pairs = ((k, last) for k in range(last))
        path.append(best[1])
        spent += best[0][1]
    return path


def _reindexed(known: list, best) -> list:
    """The other candidates after ``best`` is contracted: those touching its operands
    dropped, positions shifted, and their provisional term lists updated."""
    bx, by = best[1]
    kept = []
    for key, (x, y), provisional in known:
        if x in best[1] or y in best[1]:
            continue
        provisional = list(provisional)
        del provisional[by - (by > x) - (by > y)]
        del provisional[bx - (bx > x) - (bx > y)]
        provisional.insert(-1, best[2][-1])
        kept.append((key, (x - (x > bx) - (x > by), y - (y > bx) - (y > by)), provisional))
    return kept


def optimal_path(terms: list, out, sizes, limit=None) -> list:
    """NumPy's optimal order: the cheapest sequence of pairwise contractions (the first
    in NumPy's enumeration order among equally cheap ones) whose intermediates fit in
    ``limit``. NumPy enumerates every sequence; beyond a few operands that is too slow,
    and the cheapest order comes from dynamic programming over subsets instead."""
    terms, out = list(terms), frozenset(out)
    n = len(terms)
    if n < 3:
        return [tuple(range(n))] if n == 1 else [(0, 1)]
    limit = default_memory_limit(terms, out, sizes) if limit is None else limit
    if n > _ENUMERATED_MAX_OPERANDS:
        return _subset_optimal_path(terms, out, sizes, limit)
    level = [(0, [], terms)]
    for step in range(n - 1):
        following = []
        for cost, steps, current in level:
            for pos in itertools.combinations(range(n - step), 2):
                result, new_terms, inner, involved = _contract(pos, current, out)
                if term_size(result, sizes) > limit:
                    continue
                following.append((cost + _flops(involved, inner, 2, sizes), steps + [pos],
                                  new_terms))
        if not following:   # nothing fits any more: contract the rest at once
            return min(level, key=lambda r: r[0])[1] + [tuple(range(n - step))]
        level = following
    return min(level, key=lambda r: r[0])[1]


def _subset_optimal_path(terms: list, out, sizes, limit) -> list:
    """The pairwise order of least total cost: dynamic programming over subsets."""
    n = len(terms)
    if n > _OPTIMAL_MAX_OPERANDS:
        return greedy_path(terms, out, sizes, limit)
    full = (1 << n) - 1

    @functools.lru_cache(maxsize=None)
    def labels(mask):
        inside = [t for k, t in enumerate(terms) if mask >> k & 1]
        outside = [t for k, t in enumerate(terms) if not mask >> k & 1]
        return result_labels(inside, outside, out)

    best: dict = {1 << k: (0, None) for k in range(n)}
    for mask in sorted(range(1, full + 1), key=lambda m: bin(m).count("1")):
        if mask in best:
            continue
        if limit is not None and mask != full and term_size(labels(mask), sizes) > limit:
            continue
        low, sub = mask & -mask, (mask - 1) & mask
        while sub:
            other = mask ^ sub
            if sub & low and sub in best and other in best:
                cost = best[sub][0] + best[other][0] + \
                    term_flops((labels(sub), labels(other)), labels(mask), sizes)
                if mask not in best or cost < best[mask][0]:
                    best[mask] = (cost, (sub, other))
            sub = (sub - 1) & mask
    if full not in best:
        return greedy_path(terms, out, sizes, limit)
    order: list = []

    def visit(mask):
        split = best[mask][1]
        if split is not None:
            visit(split[0])
            visit(split[1])
            order.append(split)
    visit(full)
    current, path = [1 << k for k in range(n)], []
    for a, b in order:          # the tree as NumPy's positional path
        i, j = sorted((current.index(a), current.index(b)))
        path.append((i, j))
        del current[j], current[i]
        current.append(a | b)
    return path


def optimize_key(optimize):
    """A hashable description of ``optimize``: (kind, memory limit or explicit path)."""
    if optimize is False or optimize is None:
        return ("none", None)
    if optimize is True:
        return ("greedy", None)
    if isinstance(optimize, str):
        # as NumPy: any name is accepted here; an unknown one raises KeyError only where
        # a path has to be searched (three or more operands with labels to sum)
        return (optimize, None)
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        steps = tuple(tuple(operator.index(i) for i in step) for step in optimize[1:])
        return ("path", steps)
    if isinstance(optimize, tuple) and len(optimize) == 2 and \
            optimize[0] in ("greedy", "optimal"):
        return (optimize[0], float(optimize[1]))
    raise TypeError(f"Did not understand the path: {optimize!r}")
