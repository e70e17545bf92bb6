"""Registry entries for the window functions (M a Python int; kaiser's beta an array, so
its derivative is checked too)."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from opinfo import OpInfo, Sample

_M = st.integers(-2, 40)

ENTRIES = [
    *[OpInfo(name, _M.map(lambda m: Sample((m,))), rtol=1e-12, atol=1e-15, differentiable=False)
      for name in ("bartlett", "blackman", "hamming", "hanning")],
    OpInfo("kaiser", st.tuples(_M, st.floats(0.0, 20.0)).map(
        lambda t: Sample((t[0], np.array(t[1])))), rtol=1e-12, atol=1e-300),
]
