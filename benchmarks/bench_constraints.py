# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Time BlockOpt with monotonic_trend='ascending' vs none; adult capital.gain bins."""

import time
import warnings

import numpy as np
import pandas as pd

from partikit._kernels._codes import ENTROPY
from partikit._statistics._constraints import constrained_multisplit, impurity_costs
from partikit.discretizers import BlockOptDiscretizer

rng = np.random.default_rng(0)


def timed(est, X, y, reps=3):
    est.fit(X, y)  # compile
    best = np.inf
    for _ in range(reps):
        t = time.perf_counter()
        est.fit(X, y)
        best = min(best, time.perf_counter() - t)
    return best


for n_values in (1000, 10000):
    x = rng.integers(0, n_values, 100_000).astype(float)
    y = (rng.random(100_000) < 1 / (1 + np.exp(-(x / n_values * 4 - 2)))).astype(int)
    X = x[:, None]
    t0 = timed(BlockOptDiscretizer(), X, y)
    t1 = timed(BlockOptDiscretizer(monotonic_trend="ascending"), X, y)
    d = BlockOptDiscretizer(monotonic_trend="ascending").fit(X, y)
    print(
        f"| {n_values} | {t0:.3f} | {t1:.3f} | exact={d.statistics_[0]['exact']} units={d.statistics_[0]['n_units']} |"
    )
# the DP alone by V (ascending, max_bins=10)
for V in (256, 512, 1024, 2048):
    table = rng.integers(0, 20, (V, 2)).astype(float) + 1
    costs = impurity_costs(ENTROPY)
    constrained_multisplit(table[:8], costs, max_bins=10, monotonic_trend="ascending")
    for trend in ("ascending", "peak", None):
        times = []
        for _ in range(3):  # the least of three: the 2 cores are shared
            t = time.perf_counter()
            constrained_multisplit(
                table, costs, max_bins=10, monotonic_trend=trend, exact_limit=None
            )
            times.append(time.perf_counter() - t)
        print(f"| V={V} | {trend} | {min(times):.3f} s |")
df = pd.read_csv("/work/shared/datasets/adult/data.csv")
X = df[["capital.gain"]].to_numpy(float)
y = (df["income"] == ">50K").astype(int).to_numpy()
for trend in (None, "auto"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = BlockOptDiscretizer(monotonic_trend=trend, encode="woe").fit(X, y)
    print(
        trend,
        d.n_bins_[0],
        d.statistics_[0].get("monotonic_trend"),
        np.round(d.woe_[0][:-1], 2).tolist(),
    )
