"""Lowering: a jaxpr becomes a StableHLO module, written as MLIR text.

Each primitive's ``lower`` rule, ``rule(ctx, *operands, **params)``, receives
:class:`Value` operands and emits operations through the :class:`LoweringContext`, which
also knows the abstract values of the equation being lowered (``ctx.avals_in``,
``ctx.avals_out``). Operations are written in MLIR's generic form
(``%3 = "stablehlo.add"(%1, %2) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>``), which
is uniform for every operation and needs no Python bindings; the text is the module that
``jit(f).lower(x).as_text()`` shows and that jaxlib parses and compiles.

Array constants are not written into the module: they become extra arguments of ``@main``
(``ctx.const_args``), so that large closed-over arrays are passed, not baked in.
"""

from __future__ import annotations

import itertools
from typing import Callable, Sequence

import numpy as np

from transforms import core
from transforms.core import ShapedArray, unwrap
from transforms.jaxpr import ClosedJaxpr, Jaxpr, Literal, trace_to_jaxpr

__all__ = ["Value", "LoweringContext", "lower_jaxpr", "lower_module", "mlir_type",
           "element_type", "LoweringError"]


class LoweringError(TypeError):
    """A primitive cannot be compiled (no lowering rule, or unsupported operands)."""


_ELEMENT_TYPES = {
    "bool": "i1", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "ui8", "uint16": "ui16", "uint32": "ui32", "uint64": "ui64",
    "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
    "complex64": "complex<f32>", "complex128": "complex<f64>",
}


_FLOAT0 = core.float0     # carried as i1: it holds no data


def element_type(dtype) -> str:
    name = np.dtype(dtype).name
    if name == "void" and np.dtype(dtype) == _FLOAT0:
        return "i1"
    try:
        return _ELEMENT_TYPES[name]
    except KeyError:
        raise LoweringError(f"jit: dtype {name} cannot be compiled") from None


def mlir_type(shape: Sequence[int], dtype) -> str:
    dims = "".join(f"{d}x" for d in shape)
    return f"tensor<{dims}{element_type(dtype)}>"


class Value:
    """An SSA value of the module being built, with its shape and dtype."""

    __slots__ = ("name", "shape", "dtype")

    def __init__(self, name: str, shape: tuple, dtype):
        self.name, self.shape, self.dtype = name, tuple(shape), np.dtype(dtype)

    @property
    def type(self) -> str:
        return mlir_type(self.shape, self.dtype)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __repr__(self):
        return f"{self.name}: {self.type}"


def dense_attr(value: np.ndarray, dtype=None) -> str:
    """``dense<...> : tensor<...>`` for a constant (raw little-endian hex, or booleans)."""
    value = np.asarray(value, dtype=dtype)
    ty = mlir_type(value.shape, value.dtype)
    if not value.size:      # a nested "[]" literal would have the wrong rank
        return f"dense<> : {ty}"
    if value.dtype == np.bool_:
        flat = value.reshape(-1)
        if value.size and (flat == flat[0]).all():
            return f"dense<{'true' if flat[0] else 'false'}> : {ty}"
        body = ", ".join("true" if v else "false" for v in flat)
        return f"dense<{_nest(body, value) if value.ndim else body}> : {ty}"
    raw = np.ascontiguousarray(value).astype(value.dtype.newbyteorder("<"), copy=False)
    return f'dense<"0x{raw.tobytes().hex().upper()}"> : {ty}'


def _nest(body: str, value: np.ndarray) -> str:
    # Non-splat booleans are written as nested lists, the one format valid for i1.
    return np.array2string(value, separator=", ", threshold=value.size + 1).replace(
        "True", "true").replace("False", "false").replace("\n", "")


class LoweringContext:
    """Emits operations into the function being built."""

    def __init__(self):
        self._lines: list[list[str]] = [[]]
        self._ids = itertools.count()
        self.const_args: list[np.ndarray] = []       # arrays passed as extra arguments
        self._const_values: list[Value] = []
        self._const_ids: dict = {}
        self.avals_in: list = []
        self.avals_out: list = []

    # --- building blocks ------------------------------------------------------------------
    def fresh(self, prefix: str = "") -> str:
        return f"%{prefix}{next(self._ids)}"

    def emit(self, line: str) -> None:
        self._lines[-1].append(line)

    def op(self, name: str, operands: Sequence[Value], results, attrs: dict | None = None,
           regions: Sequence[str] = ()):
        """Emit ``name`` on ``operands``. ``results`` is one (shape, dtype) pair or aval,
        giving one Value, or a list of them, giving a list of Values."""
        single = not isinstance(results, list)
        outs = [results] if single else results
        outs = [(r.shape, r.dtype) if isinstance(r, ShapedArray) else r for r in outs]
        res = self.fresh()
        if len(outs) == 1:
            values = [Value(res, *outs[0])]
            lhs = f"{res} = "
        else:
            values = [Value(f"{res}#{i}", *o) for i, o in enumerate(outs)]
            lhs = f"{res}:{len(outs)} = " if outs else ""
        args = ", ".join(v.name for v in operands)
        region_txt = f" ({', '.join(regions)})" if regions else ""
        attr_txt = ""
        if attrs:
            attr_txt = " {" + ", ".join(f"{k} = {v}" for k, v in attrs.items()) + "}"
        in_types = ", ".join(v.type for v in operands)
        out_types = ", ".join(v.type for v in values)
        out_sig = out_types if len(values) == 1 else f"({out_types})"
        self.emit(f'{lhs}"{name}"({args}){region_txt}{attr_txt} : ({in_types}) -> {out_sig}')
        return values[0] if single else values

    def region(self, arg_types: Sequence[tuple], body: Callable) -> str:
        """A one-block region: ``body(*block_args)`` returns the values to yield. The body
        may use values defined outside the region (XLA accepts implicit captures)."""
        args = [Value(self.fresh("arg"), *t) for t in arg_types]
        self._lines.append([])
        outs = body(*args)
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        self.emit(f'"stablehlo.return"({", ".join(v.name for v in outs)}) : '
                  f'({", ".join(v.type for v in outs)}) -> ()')
        lines = self._lines.pop()
        header = ", ".join(f"{a.name}: {a.type}" for a in args)
        label = f"^bb0({header}):\n  " if args else ""   # a region without arguments
        return "{\n" + label + "\n  ".join(lines) + "\n}"

    # --- constants ------------------------------------------------------------------------
    def constant(self, value, dtype=None) -> Value:
        """A constant: scalars inline; arrays become arguments of ``@main``."""
        value = np.asarray(value, dtype=dtype)
        if value.dtype == _FLOAT0:   # float0 zeros hold no data: a false i1, typed float0
            v = self.full(value.shape, False, np.bool_)
            return Value(v.name, v.shape, _FLOAT0)
        if value.ndim == 0 or value.size <= 1:
            return self.op("stablehlo.constant", [], (value.shape, value.dtype),
                           {"value": dense_attr(value)})
        key = id(value)
        if key not in self._const_ids:
            self._const_ids[key] = len(self.const_args)
            self.const_args.append(value)
            self._const_values.append(Value(self.fresh("const"), value.shape, value.dtype))
        return self._const_values[self._const_ids[key]]

    def full(self, shape, value, dtype) -> Value:
        return self.broadcast(self.constant(np.asarray(value, dtype)), shape)

    # --- common operations ----------------------------------------------------------------
    def convert(self, v: Value, dtype) -> Value:
        dtype = np.dtype(dtype)
        if v.dtype == dtype:
            return v
        if dtype == np.bool_:        # "nonzero is true", as NumPy's astype(bool)
            return self.compare(v, self.full(v.shape, 0, v.dtype), "NE")
        if v.dtype.kind == "c" and dtype.kind != "c":   # NumPy keeps the real part
            v = self.op("stablehlo.real", [v], (v.shape, np.empty(0, v.dtype).real.dtype))
            if v.dtype == dtype:
                return v
        return self.op("stablehlo.convert", [v], (v.shape, dtype))

    def broadcast(self, v: Value, shape, dims: Sequence[int] | None = None) -> Value:
        """NumPy broadcasting of ``v`` to ``shape`` (or broadcast_in_dim with ``dims``)."""
        shape = tuple(shape)
        if dims is None:
            if v.shape == shape:
                return v
            dims = range(len(shape) - v.ndim, len(shape))
        return self.op("stablehlo.broadcast_in_dim", [v], (shape, v.dtype),
                       {"broadcast_dimensions": i64_array(dims)})

    def reshape(self, v: Value, shape) -> Value:
        shape = tuple(shape)
        return v if v.shape == shape else self.op("stablehlo.reshape", [v], (shape, v.dtype))

    def compare(self, a: Value, b: Value, direction: str, compare_type=None) -> Value:
        if compare_type is None:
            kind = a.dtype.kind
            compare_type = ("FLOAT" if kind in "fcV" or a.dtype.name == "bfloat16"
                            else "UNSIGNED" if kind in "ub" else "SIGNED")
        return self.op("stablehlo.compare", [a, b], (a.shape, np.bool_), {
            "comparison_direction": f"#stablehlo<comparison_direction {direction}>",
            "compare_type": f"#stablehlo<comparison_type {compare_type}>"})

    def select(self, pred: Value, on_true: Value, on_false: Value) -> Value:
        return self.op("stablehlo.select", [pred, on_true, on_false],
                       (on_true.shape, on_true.dtype))

    def binary(self, name: str, a: Value, b: Value) -> Value:
        return self.op(f"stablehlo.{name}", [a, b], (a.shape, a.dtype))

    def unary(self, name: str, a: Value, dtype=None) -> Value:
        return self.op(f"stablehlo.{name}", [a], (a.shape, dtype or a.dtype))


def i64_array(values) -> str:
    """``array<i64: 1, 2>`` (a DenseI64ArrayAttr)."""
    values = [str(int(v)) for v in values]
    return f"array<i64: {', '.join(values)}>" if values else "array<i64>"


def bool_array(values) -> str:
    values = ["true" if v else "false" for v in values]
    return f"array<i1: {', '.join(values)}>" if values else "array<i1>"


# ---------------------------------------------------------------------------------------
# Jaxprs


def _literal_value(lit: Literal) -> np.ndarray:
    """A literal as an array of its dtype. A Python int in [2**63, 2**64) (weakly typed
    int64, as all Python ints) becomes uint64, its only type: the rules' conversions then
    give NumPy's result for it (``uint64_array + 2**63``, ``x < 2**64 - 1``)."""
    try:
        return np.asarray(lit.val, lit.aval.dtype)
    except OverflowError:
        if type(lit.val) is int and lit.aval.weak_type and 0 <= lit.val < 2 ** 64:
            return np.asarray(lit.val, np.uint64)
        raise


def lower_jaxpr(ctx: LoweringContext, jaxpr: Jaxpr, consts: Sequence, args: Sequence[Value]
                ) -> list[Value]:
    """Emit the equations of ``jaxpr`` inline; ``consts`` are values or arrays."""
    env: dict = {}

    def read(v):
        if isinstance(v, Literal):
            return ctx.constant(_literal_value(v))
        return env[v]

    for var, c in zip(jaxpr.constvars, consts):
        env[var] = c if isinstance(c, Value) else ctx.constant(np.asarray(c))
    for var, a in zip(jaxpr.invars, args):
        env[var] = a
    for eqn in jaxpr.eqns:
        rule = eqn.prim.lower
        if rule is None:
            raise LoweringError(f"jit: the primitive '{eqn.prim.name}' has no lowering rule "
                                "(it cannot be compiled yet)")
        ins = [read(v) for v in eqn.invars]
        ctx.avals_in = [v.aval for v in eqn.invars]
        ctx.avals_out = [v.aval for v in eqn.outvars]
        outs = rule(ctx, *ins, **eqn.params)
        outs = outs if eqn.prim.multiple_results else [outs]
        for var, val in zip(eqn.outvars, outs):
            if val.shape != var.aval.shape or val.dtype != var.aval.dtype:
                raise LoweringError(
                    f"jit: lowering rule of '{eqn.prim.name}' produced {val.type}, expected "
                    f"{mlir_type(var.aval.shape, var.aval.dtype)}")
            env[var] = val
    return [read(v) for v in jaxpr.outvars]


def lower_composite(fun: Callable, multiple_results: bool = False) -> Callable:
    """A lowering rule that emits ``fun(*operands, **params)``, a composition of other
    primitives, traced on the operands' avals (for primitives whose eager implementation
    is one NumPy routine but whose compiled form is built from other primitives)."""
    def rule(ctx: LoweringContext, *args, **params):
        def flat(*handles):
            out = fun(*map(unwrap, handles), **params)
            return list(out) if multiple_results else [out]
        closed = trace_to_jaxpr(flat, list(ctx.avals_in))
        outs = lower_jaxpr(ctx, closed.jaxpr, closed.consts, args)
        return outs if multiple_results else outs[0]
    return rule


def lower_module(closed: ClosedJaxpr, name: str = "jit_fn", transport: dict | None = None
                 ) -> tuple[str, list]:
    """The StableHLO module (MLIR text) for ``closed``, and the constant arrays to pass
    after the jaxpr's own arguments. Results whose dtype is a key of ``transport`` are
    bitcast to the same-width dtype it maps to (for the runtime's sake)."""
    ctx = LoweringContext()
    jaxpr = closed.jaxpr
    params = [Value(ctx.fresh("arg"), a.shape, a.dtype) for a in jaxpr.in_avals]
    outs = lower_jaxpr(ctx, jaxpr, closed.consts, params)
    if transport:
        outs = [ctx.op("stablehlo.bitcast_convert", [v], (v.shape, transport[v.dtype]))
                if v.dtype in transport else v for v in outs]
    body = ctx._lines[0]
    all_params = params + ctx._const_values
    sig = ", ".join(f"{p.name}: {p.type}" for p in all_params)
    results = ", ".join(v.type for v in outs)
    ret = f'"func.return"({", ".join(v.name for v in outs)}) : ({results}) -> ()'
    safe_name = "".join(c if c.isalnum() or c == "_" else "_" for c in name) or "jit_fn"
    text = "\n".join([
        f"module @{safe_name} attributes {{mhlo.num_partitions = 1 : i32, "
        f"mhlo.num_replicas = 1 : i32}} {{",
        f"  func.func public @main({sig}) -> ({results}) {{",
        *("    " + line for line in "\n".join(body).split("\n")),
        f"    {ret}",
        "  }",
        "}",
    ])
    return text, ctx.const_args

