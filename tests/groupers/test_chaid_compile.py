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
            if func.__module__ in ("partikit._kernels._chaid",
                                   "partikit._kernels._special"):
                compiled.append(func.__name__)

    ev.register("numba:compile", Recorder())
    rng = np.random.default_rng(0)
    x = rng.integers(0, 12, 400)
    y = (x % 3 == 0) ^ (rng.random(400) < 0.2)
    if {CONTINUOUS}:
        y = y + rng.normal(size=400)
    CHAIDGrouper(ordinal={ORDINAL}).fit(x.reshape(-1, 1), y)
    print(json.dumps(compiled))
    """
)


def _compiled(cache_dir, ordinal, continuous):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir))
    code = CHILD.replace("{ORDINAL}", ordinal).replace("{CONTINUOUS}", continuous)
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return sorted(json.loads(out.stdout.splitlines()[-1]))


@pytest.mark.skipif(
    os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="nothing is compiled"
)
@pytest.mark.parametrize(
    "ordinal, continuous, expected",
    [("None", "False", ["_nominal_loop", "_before", "log_chi2_sf"]),
     ('"all"', "False", ["_ordinal_loop", "log_chi2_sf"]),
     ("None", "True", ["_nominal_loop", "_before", "f_pair_statistic", "log_f_sf"]),
     ('"all"', "True", ["_ordinal_loop", "f_pair_statistic", "log_f_sf"])],
)  # fmt: skip
def test_a_fit_compiles_its_own_loop_and_test_only(
    tmp_path, ordinal, continuous, expected
):
    """Check that a fit with an empty numba cache compiles, of the CHAID kernels
    and tail probabilities, its predictor's loop kernel (and, for a nominal
    predictor, the order of two pairs, which the loop compares at two places:
    one small function compiles faster than two inlined copies) and its own
    target's test only: a class target compiles no F test (about a second of
    compilation), a continuous one no chi-square test, though both loops come
    from one source; numpy checks a small table. A second process with the
    same cache compiles none of them (the loops are closures, which numba
    caches by their closure's constants)."""
    assert _compiled(tmp_path, ordinal, continuous) == sorted(expected)
    assert _compiled(tmp_path, ordinal, continuous) == []
