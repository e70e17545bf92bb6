"""Run a test module's program with JAX (x64) in a child process and return its results.

JAX is never imported into the test process itself: importing it changes the state of
jaxlib that xnp's jit dispatch shares (see test_jit_dispatch.py).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

HAVE_JAX = importlib.util.find_spec("jax") is not None
needs_jax = pytest.mark.skipif(not HAVE_JAX, reason="jax is not installed")

_TESTS = os.path.dirname(os.path.abspath(__file__))


def jax_results(module: str, expr: str):
    """``expr`` evaluated in a child process where ``m`` is the test module ``module``,
    ``jax`` is imported with x64 enabled; the value (arrays and other JSON-able leaves
    in lists/tuples) comes back with arrays as nested lists."""
    code = ("import json, sys\n"
            "import numpy as np\n"
            f"sys.path.insert(0, {_TESTS!r})\n"
            "import jax\n"
            "jax.config.update('jax_enable_x64', True)\n"
            f"import {module} as m\n"
            "def plain(v):\n"
            "    if isinstance(v, (list, tuple)):\n"
            "        return [plain(x) for x in v]\n"
            "    return v if isinstance(v, (bool, str)) else np.asarray(v).tolist()\n"
            f"print(json.dumps(plain({expr})))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=os.path.dirname(_TESTS))
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.splitlines()[-1])
