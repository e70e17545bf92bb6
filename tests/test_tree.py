"""Tests for transforms.tree (pytrees)."""

import dataclasses
import pickle
from collections import OrderedDict, defaultdict, namedtuple

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from transforms.tree import (
    PyTreeDef,
    register_dataclass,
    register_pytree_node,
    tree_all,
    tree_flatten,
    tree_leaves,
    tree_map,
    tree_structure,
    tree_unflatten,
    treedef_children,
)

Point = namedtuple("Point", ["x", "y"])


class Box:
    """A custom node: one child and a hashable label kept as aux data."""

    def __init__(self, value, label):
        self.value, self.label = value, label

    def __eq__(self, other):
        return type(other) is Box and (self.value, self.label) == (other.value, other.label)


register_pytree_node(Box, lambda b: ((b.value,), b.label), lambda label, ch: Box(ch[0], label))


@register_dataclass
@dataclasses.dataclass
class Params:
    w: object
    b: object
    name: str = dataclasses.field(default="p", metadata={"static": True})


@dataclasses.dataclass(frozen=True)
class Layer:
    kernel: object
    size: int
    act: str


register_dataclass(Layer, data_fields=["kernel"], meta_fields=["size", "act"])


@register_dataclass(meta_fields=["n"])
@dataclasses.dataclass
class Counted:
    x: object
    n: int


def _same(a, b):
    """Deep equality that also checks container types (and OrderedDict key order)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        keys_match = list(a) == list(b) if type(a) is OrderedDict else set(a) == set(b)
        return (keys_match and all(_same(a[k], b[k]) for k in a)
                and getattr(a, "default_factory", None) == getattr(b, "default_factory", None))
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


EXAMPLES = [
    1,
    None,
    (),
    [],
    {},
    (1, 2, 3),
    [1, [2, [3, []]]],
    {"a": 1, "b": (2, 3)},
    (1, None, [None, 2]),
    Point(1, (2, 3)),
    Point(x=[1], y={"k": None}),
    OrderedDict([("z", 1), ("a", 2)]),
    defaultdict(list, {"b": 1, "a": [2, 3]}),
    {"x": OrderedDict(c=(1,), b=2), "y": [Point(3, 4)]},
    Box((1, 2), "label"),
    [Box(Box(1, "inner"), "outer"), None],
]


@pytest.mark.parametrize("tree", EXAMPLES, ids=[f"example{i}" for i in range(len(EXAMPLES))])
def test_round_trip(tree):
    leaves, treedef = tree_flatten(tree)
    assert treedef.num_leaves == len(leaves)
    rebuilt = tree_unflatten(treedef, leaves)
    assert rebuilt == tree
    assert type(rebuilt) is type(tree)
    assert tree_structure(rebuilt) == treedef
    assert tree_leaves(tree) == leaves
    assert treedef.unflatten(iter(leaves)) == tree


def test_round_trip_keeps_types_deeply():
    tree = {"nt": Point([1, (2,)], None), "od": OrderedDict(b=1, a=2),
            "dd": defaultdict(int, {2: (3,), 1: [4]})}
    leaves, treedef = tree_flatten(tree)
    assert leaves == [4, 3, 1, 2, 1, 2]
    assert _same(tree_unflatten(treedef, leaves), tree)


nested = st.recursive(
    st.integers() | st.none(),
    lambda children: (st.lists(children, max_size=4)
                      | st.lists(children, max_size=4).map(tuple)
                      | st.dictionaries(st.text(max_size=3), children, max_size=4)),
    max_leaves=30,
)


def _count_ints(tree):
    if isinstance(tree, (list, tuple)):
        return sum(_count_ints(c) for c in tree)
    if isinstance(tree, dict):
        return sum(_count_ints(c) for c in tree.values())
    return 0 if tree is None else 1


@given(nested)
def test_round_trip_hypothesis(tree):
    leaves, treedef = tree_flatten(tree)
    assert all(type(leaf) is int for leaf in leaves)
    assert len(leaves) == treedef.num_leaves == _count_ints(tree)
    rebuilt = tree_unflatten(treedef, leaves)
    assert rebuilt == tree and type(rebuilt) is type(tree)
    assert tree_map(lambda x: x, tree) == tree
    assert tree_map(lambda x: -x, tree) == tree_unflatten(treedef, [-x for x in leaves])
    assert tree_structure(tree_map(str, tree)) == treedef
    assert hash(tree_structure(tree)) == hash(treedef)


@given(nested, nested)
def test_treedef_equality_matches_structure_hypothesis(a, b):
    def shape(t):
        if isinstance(t, (list, tuple)):
            return (type(t), tuple(shape(c) for c in t))
        if isinstance(t, dict):
            return (dict, tuple((k, shape(t[k])) for k in sorted(t)))
        return t is None
    assert (tree_structure(a) == tree_structure(b)) == (shape(a) == shape(b))


def test_dict_children_in_sorted_key_order():
    leaves, treedef = tree_flatten({"b": 1, "c": 2, "a": 3})
    assert leaves == [3, 1, 2]
    rebuilt = tree_unflatten(treedef, leaves)
    assert type(rebuilt) is dict and rebuilt == {"a": 3, "b": 1, "c": 2}
    assert tree_structure({"b": 1, "a": 2}) == tree_structure({"a": 0, "b": 0})


def test_dict_with_unorderable_keys():
    tree = {1: "one", "x": "ex", (2,): "two"}
    leaves, treedef = tree_flatten(tree)
    assert sorted(leaves) == ["ex", "one", "two"]
    assert tree_unflatten(treedef, leaves) == tree


def test_namedtuple_restored():
    out = tree_map(lambda v: v * 10, Point(1, 2))
    assert type(out) is Point and out == Point(10, 20)
    assert tree_structure(Point(1, 2)) != tree_structure((1, 2))
    other = namedtuple("Other", ["x", "y"])
    assert tree_structure(Point(1, 2)) != tree_structure(other(1, 2))


def test_ordered_dict_keeps_insertion_order():
    od = OrderedDict([("z", 1), ("a", 2), ("m", 3)])
    leaves, treedef = tree_flatten(od)
    assert leaves == [1, 2, 3]
    out = tree_unflatten(treedef, leaves)
    assert type(out) is OrderedDict and list(out) == ["z", "a", "m"]
    assert tree_structure(od) != tree_structure(OrderedDict([("a", 1), ("z", 2), ("m", 3)]))
    assert tree_structure(od) != tree_structure(dict(od))


def test_defaultdict_sorted_and_factory_kept():
    dd = defaultdict(list, {"b": 1, "a": 2})
    leaves, treedef = tree_flatten(dd)
    assert leaves == [2, 1]
    out = tree_unflatten(treedef, leaves)
    assert type(out) is defaultdict and out.default_factory is list and out == dd
    assert out["missing"] == []
    assert tree_structure(dd) != tree_structure(defaultdict(int, {"b": 1, "a": 2}))
    assert tree_structure(dd) != tree_structure({"a": 1, "b": 2})


def test_subclasses_without_registration_are_leaves():
    class MyTuple(tuple):
        pass

    class MyList(list):
        pass

    for leaf in (MyTuple((1, 2)), MyList([1, 2]), np.arange(3), "abc", 1.5):
        leaves, treedef = tree_flatten(leaf)
        assert len(leaves) == 1 and leaves[0] is leaf
        assert treedef.num_leaves == 1 and treedef.num_nodes == 1


def test_custom_node():
    tree = [Box(np.float64(1.0), "a"), Box((2, 3), "b")]
    leaves, treedef = tree_flatten(tree)
    assert leaves == [1.0, 2, 3]
    assert tree_unflatten(treedef, [4, 5, 6]) == [Box(4, "a"), Box((5, 6), "b")]
    assert tree_structure(Box(1, "a")) == tree_structure(Box(2, "a"))
    assert tree_structure(Box(1, "a")) != tree_structure(Box(1, "b"))
    assert "CustomNode(Box['a'], [*])" in repr(tree_structure(Box(1, "a")))


def test_register_twice_or_builtin_raises():
    with pytest.raises(ValueError):
        register_pytree_node(Box, lambda b: ((), None), lambda aux, ch: Box(None, None))
    with pytest.raises(ValueError):
        register_pytree_node(tuple, lambda t: (t, None), lambda aux, ch: tuple(ch))


def test_register_dataclass_decorator_with_static_field():
    p = Params(w=np.ones(2), b=3.0, name="dense")
    leaves, treedef = tree_flatten(p)
    assert len(leaves) == 2 and leaves[1] == 3.0
    out = tree_unflatten(treedef, [1, 2])
    assert type(out) is Params and (out.w, out.b, out.name) == (1, 2, "dense")
    assert tree_structure(Params(1, 2, "x")) != tree_structure(Params(1, 2, "y"))
    assert tree_structure(Params(1, 2, "x")) == tree_structure(Params(5, 6, "x"))


def test_register_dataclass_explicit_and_factory_forms():
    layer = Layer(kernel=(1, 2), size=4, act="relu")
    leaves, treedef = tree_flatten(layer)
    assert leaves == [1, 2]
    assert tree_unflatten(treedef, [7, 8]) == Layer((7, 8), 4, "relu")
    assert tree_map(lambda v: v + 1, Counted(x=[1, 2], n=5)) == Counted([2, 3], 5)
    assert tree_leaves(Counted(x=1, n=5)) == [1]


def test_register_dataclass_rejects_bad_input():
    class NotADataclass:
        pass

    with pytest.raises(TypeError):
        register_dataclass(NotADataclass)

    @dataclasses.dataclass
    class Overlap:
        a: int

    with pytest.raises(ValueError):
        register_dataclass(Overlap, data_fields=["a"], meta_fields=["a"])


def test_tree_map_single_and_multiple_trees():
    assert tree_map(lambda x: x + 1, {"a": 1, "b": [2, None]}) == {"a": 2, "b": [3, None]}
    a = (1, {"k": 2})
    b = (10, {"k": 20})
    c = (100, {"k": 200})
    assert tree_map(lambda x, y, z: x + y + z, a, b, c) == (111, {"k": 222})


def test_tree_map_prefix_trees():
    out = tree_map(lambda x, sub: (x, sub), (1, 2), ([3, 4], {"q": 5}))
    assert out == ((1, [3, 4]), (2, {"q": 5}))
    assert tree_map(lambda x, y: x, None, None) is None


@pytest.mark.parametrize("first, other", [
    ((1, 2), [1, 2]),
    ((1, 2), (1, 2, 3)),
    ({"a": 1}, {"b": 1}),
    ([1, [2]], [1, 2]),
    ((1, None), (1, 2)),
    (Box(1, "a"), Box(1, "b")),
])
def test_tree_map_mismatch_error(first, other):
    with pytest.raises(ValueError) as info:
        tree_map(lambda x, y: x, first, other)
    message = str(info.value)
    assert repr(tree_structure(first)) in message
    assert repr(tree_structure(other)) in message


def test_tree_map_mismatch_reports_path():
    with pytest.raises(ValueError, match=r"\['b'\]\[1\]"):
        tree_map(lambda x, y: x, {"a": 1, "b": [1, (2,)]}, {"a": 1, "b": [1, [2]]})


def test_is_leaf():
    tree = [(1, 2), (3, (4, 5))]
    leaves, treedef = tree_flatten(tree, is_leaf=lambda x: type(x) is tuple)
    assert leaves == [(1, 2), (3, (4, 5))]
    assert treedef == tree_structure([0, 0])
    assert tree_map(len, tree, is_leaf=lambda x: type(x) is tuple) == [2, 2]
    assert tree_leaves([None, 1], is_leaf=lambda x: x is None) == [None, 1]
    assert tree_leaves({"a": Box(1, "x")}, is_leaf=lambda x: isinstance(x, Box)) == [Box(1, "x")]


def test_none_is_an_empty_node():
    assert tree_leaves([None, 1]) == [1]
    assert tree_leaves(None) == []
    leaves, treedef = tree_flatten(None)
    assert treedef.num_leaves == 0 and treedef.num_nodes == 1
    assert tree_unflatten(treedef, []) is None
    assert tree_structure(None) != tree_structure(1)
    assert tree_map(lambda x: x * 2, [None, 3]) == [None, 6]


def test_treedef_equality_and_hash():
    assert tree_structure((1, 2)) == tree_structure(("a", np.ones(3)))
    assert hash(tree_structure((1, 2))) == hash(tree_structure((3, 4)))
    assert tree_structure((1, 2)) != tree_structure([1, 2])
    assert tree_structure({"a": 1}) != tree_structure({"b": 1})
    assert tree_structure((1,)) != tree_structure((1, 2))
    assert tree_structure([1, (2,)]) != tree_structure([1, [2]])
    assert tree_structure(1) != tree_structure((1,))
    assert tree_structure((1, 2)) != (1, 2)
    cache = {tree_structure({"x": (1, 2)}): "hit"}
    assert cache[tree_structure({"x": (5, 6)})] == "hit"
    assert len({tree_structure(t) for t in [(1, 2), (3, 4), [1, 2], {"a": 1}]}) == 3


def test_num_leaves_nodes_and_children():
    treedef = tree_structure((1, {"a": 2, "b": [3, 4]}, None))
    assert treedef.num_leaves == 4
    assert treedef.num_nodes == 8  # tuple, dict, list, None and 4 leaves
    kids = treedef.children()
    assert kids == treedef_children(treedef)
    assert [k.num_leaves for k in kids] == [1, 3, 0]
    assert kids[1] == tree_structure({"a": 0, "b": [0, 0]})
    assert all(isinstance(k, PyTreeDef) for k in kids)
    assert tree_structure(5).children() == []


def test_repr():
    expected = "PyTreeDef((*, {'a': *, 'b': [*, *]}))"
    assert repr(tree_structure((1, {"a": 2, "b": [3, 4]}))) == expected
    assert repr(tree_structure((1,))) == "PyTreeDef((*,))"
    assert repr(tree_structure(None)) == "PyTreeDef(None)"
    assert repr(tree_structure(7)) == "PyTreeDef(*)"
    assert repr(tree_structure(Point(1, [2]))) == "PyTreeDef(Point(x=*, y=[*]))"
    assert repr(tree_structure(OrderedDict(b=1))) == "PyTreeDef(OrderedDict({'b': *}))"
    assert "defaultdict(<class 'list'>, {'k': *})" in repr(tree_structure(defaultdict(list, k=1)))


def test_unflatten_wrong_number_of_leaves():
    treedef = tree_structure((1, 2))
    with pytest.raises(ValueError, match="expects 2 leaves"):
        tree_unflatten(treedef, [1])
    with pytest.raises(ValueError):
        tree_unflatten(treedef, [1, 2, 3])


def test_tree_all():
    assert tree_all([True, (1, {"a": "x"})])
    assert not tree_all([True, (0, {"a": "x"})])
    assert tree_all(None) and tree_all([])


def test_array_leaves_are_kept_by_identity():
    arrays = (np.ones(2), np.zeros(3), np.arange(4))
    leaves, treedef = tree_flatten(arrays)
    assert all(a is b for a, b in zip(leaves, arrays, strict=True))
    assert all(a is b for a, b in zip(tree_unflatten(treedef, leaves), arrays, strict=True))


def test_treedef_pickles():
    treedef = tree_structure({"a": (1, [2]), "b": None, "c": Point(1, 2)})
    assert pickle.loads(pickle.dumps(treedef)) == treedef
