# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Contingency table speed: ``partikit._statistics._contingency.build_table`` vs ``np.bincount``.

10 million rows, 1,000 categories, 10 classes, int64 codes (``--quick``: 1 million).
Target (issue): build_table within 2x of ``np.bincount(codes * 10 + y)``.

    python benchmarks/perf/bench_build_table.py [--quick] [--output FILE]
"""

from __future__ import annotations

import os
import sys

# the shared helpers (_common.py) live one folder up
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from _common import (  # noqa: E402
    Report,
    RunContext,
    finish,
    fmt_s,
    parse_args,
    script_path,
    table,
    time_call,
)

NAME = "bench_build_table"
N_CATEGORIES = 1000
N_CLASSES = 10
REPEATS = 5


def main():
    args = parse_args(__doc__.splitlines()[0])
    n = 1_000_000 if args.quick else 10_000_000
    context = RunContext(os.path.basename(__file__), args.quick)

    from partikit._statistics._contingency import build_table

    rng = np.random.default_rng(0)
    codes = rng.integers(0, N_CATEGORIES, size=n, dtype=np.int64)
    y = rng.integers(0, N_CLASSES, size=n, dtype=np.intp)
    weights = rng.random(n)
    key = codes * N_CLASSES + y  # only for the "precomputed key" reference row
    size = N_CATEGORIES * N_CLASSES

    def bt():
        return build_table(codes, y, None, N_CATEGORIES, N_CLASSES)

    def bc():
        return np.bincount(codes * N_CLASSES + y, minlength=size)

    def bc_key():
        return np.bincount(key, minlength=size)

    def bt_w():
        return build_table(codes, y, weights, N_CATEGORIES, N_CLASSES)

    def bc_w():
        return np.bincount(codes * N_CLASSES + y, weights=weights, minlength=size)

    def bc_key_w():
        return np.bincount(key, weights=weights, minlength=size)

    # First calls in this process: numba loads its on-disk cache (or compiles).
    t_bt, t_bt_w = time_call(bt, REPEATS), time_call(bt_w, REPEATS)
    t_bc, t_bc_w = time_call(bc, REPEATS), time_call(bc_w, REPEATS)
    t_key, t_key_w = time_call(bc_key, REPEATS), time_call(bc_key_w, REPEATS)

    same = np.array_equal(t_bt.result.ravel(), t_bc.result.astype(np.float64))
    same_w = np.allclose(t_bt_w.result.ravel(), t_bc_w.result, rtol=1e-9, atol=1e-6)

    report = Report(NAME)
    report.add(f"## build_table vs np.bincount ({script_path(NAME)})")
    report.add()
    report.header(context)
    report.add()
    report.add(
        f"Data: {n:,} rows, {N_CATEGORIES:,} categories, {N_CLASSES} classes, int64 "
        "codes and int64 (intp) classes drawn uniformly (numpy default_rng(0)); float64 "
        "weights U(0,1). Each time: median (min–max, n repeats) of time.perf_counter, "
        "after one warm-up call. The bincount rows include computing "
        '`codes * 10 + y` (that is what a user would write); the "precomputed key" '
        "rows time bincount alone, for reference."
    )
    report.add()
    rows = []
    for label, t in [
        ("partikit `build_table(codes, y, None, 1000, 10)`", t_bt),
        ("`np.bincount(codes * 10 + y, minlength=10000)`", t_bc),
        ("`np.bincount(key, minlength=10000)` (key precomputed)", t_key),
        ("partikit `build_table(codes, y, w, 1000, 10)` (weighted)", t_bt_w),
        ("`np.bincount(codes * 10 + y, weights=w, minlength=10000)`", t_bc_w),
        ("`np.bincount(key, weights=w, ...)` (key precomputed)", t_key_w),
    ]:
        rows.append([label, t.cell(), fmt_s(t.first), f"{n / t.median / 1e6:,.0f}"])
    report.add(
        table(
            ["operation", "time s: median (min–max, n)", "first call s", "M rows/s"],
            rows,
        )
    )
    report.add()
    ratio = t_bt.median / t_bc.median
    ratio_w = t_bt_w.median / t_bc_w.median
    report.add(
        table(
            ["ratio (medians)", "value", "target", "met"],
            [
                [
                    "build_table / bincount(codes*10+y), unweighted",
                    f"{ratio:.2f}x",
                    "<= 2x",
                    "yes" if ratio <= 2 else "**no**",
                ],
                [
                    "build_table / bincount(codes*10+y, weights), weighted",
                    f"{ratio_w:.2f}x",
                    "<= 2x",
                    "yes" if ratio_w <= 2 else "**no**",
                ],
                [
                    "build_table / bincount(precomputed key), unweighted",
                    f"{t_bt.median / t_key.median:.2f}x",
                    "(reference)",
                    "",
                ],
                [
                    "build_table / bincount(precomputed key), weighted",
                    f"{t_bt_w.median / t_key_w.median:.2f}x",
                    "(reference)",
                    "",
                ],
            ],
        )
    )
    report.add()
    report.add(
        f"Results identical to bincount: unweighted {same}, weighted (allclose) "
        f'{same_w}. "first call" of build_table = first call in this process '
        "(numba cache load, or compilation when the on-disk cache is cold); it is "
        "excluded from the medians."
    )
    finish(report, args.output)


if __name__ == "__main__":
    main()
