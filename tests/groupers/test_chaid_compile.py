# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""What a CHAID fit compiles in a fresh process (compile time is user time)."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

CHILD = textwrap.dedent(
    """
    import json
    import numba.core.event as ev
    import numpy as np
    from partikit import CHAIDGrouper

    compiled = []

    class Recorder(ev.Listener):
        def on_start(self, event):
            pass

        def on_end(self, event):
            func = event.data["dispatcher"].py_func
            if func.__module__.startswith("partikit._kernels._chaid"):
                compiled.append(func.__name__)

    ev.register("numba:compile", Recorder())
    rng = np.random.default_rng(0)
    x = rng.integers(0, 12, 400)
    y = (x % 3 == 0) ^ (rng.random(400) < 0.2)
    CHAIDGrouper(ordinal={ORDINAL}).fit(x.reshape(-1, 1), y)
    print(json.dumps(compiled))
    """
)


@pytest.mark.skipif(
    os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="nothing is compiled"
)
@pytest.mark.parametrize(
    "ordinal, expected",
    [("None", ["_nominal_loop", "_before", "f_pair_statistic"]),
     ('"all"', ["_ordinal_loop", "f_pair_statistic"])],
)  # fmt: skip
def test_a_fit_compiles_one_loop_kernel(tmp_path, ordinal, expected):
    """Check that a fit with an empty numba cache compiles, of the CHAID kernels,
    its predictor's loop kernel only (and, for a nominal predictor, the order of
    two pairs, which the loop compares at two places: one small function
    compiles faster than two inlined copies), and the F statistic of a
    continuous target's pairs, which the same loop computes (so that a
    continuous target compiles no second loop); numpy checks a small table."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", CHILD.replace("{ORDINAL}", ordinal)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert sorted(json.loads(out.stdout.splitlines()[-1])) == sorted(expected)
