"""All registry entries, collected from the ``tests/ops_*.py`` modules (one per theme)."""

from __future__ import annotations

import importlib
import pathlib

from opinfo import OpInfo

_HERE = pathlib.Path(__file__).parent


def _collect() -> list[OpInfo]:
    entries: list[OpInfo] = []
    for path in sorted(_HERE.glob("ops_*.py")):
        entries.extend(importlib.import_module(path.stem).ENTRIES)
    ids = [e.id for e in entries]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise ValueError(f"duplicate registry ids: {sorted(dup)}")
    return entries


REGISTRY: list[OpInfo] = _collect()
