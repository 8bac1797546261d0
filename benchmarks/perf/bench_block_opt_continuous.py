# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Block-Opt on a continuous target (squared error): time and arity at scale.

An 8-step function of ``x`` uniform on [0, 8) plus N(0, 1) noise, and pure
noise, on ``--n-samples`` distinct floats: the moment table (a sort and three
bincounts, stage 1's work), then :func:`optimal_multisplit` with the default
``exact_limit="auto"`` (pre-binned above 2,048 runs) and the MDL arity; and
``BlockOptDiscretizer().fit`` on the same column (stage 1 included). The
exact search (``exact_limit=None``) is timed on smaller columns: it is
quadratic in the distinct values of a noisy target.

Run: ``python benchmarks/perf/bench_block_opt_continuous.py`` (about a minute).
"""

import argparse
import time

import numpy as np

from partikit.discretizers import BlockOptDiscretizer, choose_arity, optimal_multisplit

LEVELS = np.array([0.0, 2.0, 1.0, 3.0, -1.0, 1.5, 0.5, 2.5])


def moment_table(x, y):
    values, codes = np.unique(x, return_inverse=True)
    table = np.column_stack(
        [np.bincount(codes), np.bincount(codes, y), np.bincount(codes, y * y)]
    )
    return values, table


def fit(table, exact_limit="auto"):
    start = time.perf_counter()
    result = optimal_multisplit(
        table, max_bins=10, exact_limit=exact_limit, target_type="continuous"
    )
    k, _ = choose_arity(result, table)
    return k, result, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-samples", type=int, default=1_000_000)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--exact-sizes", type=int, nargs="*", default=[5000, 10000])
    args = parser.parse_args()
    fit(moment_table(np.arange(10.0), np.arange(10.0))[1])  # compile
    BlockOptDiscretizer().fit(np.arange(20.0).reshape(-1, 1), np.arange(20.0) + 0.5)
    print(
        "| target | seed | distinct values | table (s) | search + arity (s) "
        "| intervals | max cut error | BlockOptDiscretizer.fit (s) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for seed in range(args.seeds):
        rng = np.random.default_rng(seed)
        x = rng.uniform(0, 8, args.n_samples)
        for kind in ["steps", "noise"]:
            y = rng.normal(size=args.n_samples)
            if kind == "steps":
                y += LEVELS[np.floor(x).astype(int)]
            start = time.perf_counter()
            values, table = moment_table(x, y)
            built = time.perf_counter() - start
            k, result, seconds = fit(table)
            cuts = result.cuts[k - 1]
            thresholds = (values[cuts - 1] + values[cuts]) / 2
            error = (
                f"{np.abs(thresholds - np.arange(1, 8)).max():.4f}"
                if kind == "steps" and k == 8
                else "-"
            )
            start = time.perf_counter()
            disc = BlockOptDiscretizer().fit(x.reshape(-1, 1), y)
            fitted = time.perf_counter() - start
            assert disc.n_bins_[0] == k
            print(
                f"| {kind} | {seed} | {len(values):,} | {built:.2f} | "
                f"{seconds:.3f} | {k} | {error} | {fitted:.2f} |"
            )
    print()
    print("| distinct values | search | units | evaluations | search + arity (s) |")
    print("|---|---|---|---|---|")
    for n in args.exact_sizes:
        rng = np.random.default_rng(0)
        x = rng.uniform(0, 8, n)
        y = LEVELS[np.floor(x).astype(int)] + rng.normal(size=n)
        _, table = moment_table(x, y)
        for exact_limit in [None, "auto"]:
            k, result, seconds = fit(table, exact_limit)
            name = "exact" if result.exact else "pre-binned"
            print(
                f"| {n:,} | {name} | {result.n_units:,} | "
                f"{result.n_evaluations:,} | {seconds:.3f} |"
            )


if __name__ == "__main__":
    main()
