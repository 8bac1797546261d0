# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Max-cut speed: GL vs GW (SDP), GL vs Twoing over k, GL at n = 1,000 x k = 100.

Three measurements, on tables of ``make_random_table`` (entries uniform in
{0..7}; ``np.random.RandomState(19880531)``):

1. GL vs GW at n = 100 values, k = 3 and 15 classes (3 tables each):
   ``max_cut_bipartition(table, weights=w, solver="local_search")`` vs
   ``solver="sdp"`` (cvxpy; ``n_hyperplanes=50, random_state=0``), both weight
   kinds; time ratio GW / GL and the cut weight each finds. Thesis (section 6.2):
   GL is 60-70x faster than GW at 100 values.
2. GL vs Twoing at n = 40 values, k = 3, 7, 9, 15 classes (5 tables each):
   ``BIPARTITIONS["maxcut_chi2"]`` and ``["maxcut_squared_gini"]`` vs
   ``BIPARTITIONS["twoing"]`` (Gini); time ratio Twoing / GL. Thesis (section
   6.3, whole-tree times on real data): GL 30-300x faster at 15 classes, turning
   point around k = 7.
3. GL (both weights) on n = 1,000 values x k = 100 classes: time (target < 1 s),
   local-search moves.

Times: median of repeats after a warm-up call; the process's first calls (numba
kernels compiled or loaded from the on-disk cache, cvxpy imported) are reported
separately.

    python benchmarks/perf/bench_max_cut_speed.py [--quick] [--output FILE]
"""

from __future__ import annotations

import os

# One BLAS thread: GL and Twoing run on one core; so does GW's SDP solver (its
# BLAS/LAPACK calls), which keeps the ratio a one-core-vs-one-core ratio.
for _var in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import importlib.metadata  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

# the shared helpers (_common.py) live one folder up
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from _common import (  # noqa: E402
    Report,
    RunContext,
    finish,
    first_line,
    fmt_s,
    parse_args,
    progress,
    quiet_peer_warnings,
    script_path,
    table,
    time_call,
)

NAME = "bench_max_cut_speed"
SEED = 19880531
WEIGHTS = ("chi2", "squared_gini")
GW_N, GW_KS = 100, (3, 15)
TWOING_N, TWOING_KS = 40, (3, 7, 9, 15)
BIG_N, BIG_K = 1000, 100
TARGET_BIG_S = 1.0
THESIS_GW = (60, 70)
THESIS_TWOING = (30, 300)
#: The thesis authors' code (named in the thesis, section 6) as a distribution.
REFERENCE_DISTRIBUTIONS = ("max_cut_paper", "max-cut-paper")


def cvxpy_info():
    """(cvxpy version, installed solvers, solver cvxpy picks for the GW SDP)."""
    try:
        version = importlib.metadata.version("cvxpy")
    except importlib.metadata.PackageNotFoundError:
        return "not installed", [], None
    try:
        import cvxpy as cp

        # the problem of partikit's _sdp_vectors, on a 4-vertex graph
        w = np.ones((4, 4)) - np.eye(4)
        x = cp.Variable((4, 4), symmetric=True)
        problem = cp.Problem(cp.Minimize(cp.trace(w @ x)), [x >> 0, cp.diag(x) == 1])
        problem.solve()
        return version, list(cp.installed_solvers()), problem.solver_stats.solver_name
    except Exception as exc:  # noqa: BLE001 - reported
        return version, [], f"unavailable ({first_line(exc)})"


def reference_installed():
    for name in REFERENCE_DISTRIBUTIONS:
        try:
            return f"{name} {importlib.metadata.version(name)}"
        except importlib.metadata.PackageNotFoundError:
            pass
    return None


def ms(seconds):
    return fmt_s(seconds * 1e3)


def main():
    args = parse_args(__doc__.splitlines()[0])
    quiet_peer_warnings()
    n_gw_tables = 1 if args.quick else 3
    n_tw_tables = 2 if args.quick else 5
    gl_repeats = 5 if args.quick else 9
    gw_repeats = 1 if args.quick else 3
    tw_repeats = 1 if args.quick else 3
    big_n = 300 if args.quick else BIG_N
    context = RunContext(os.path.basename(__file__), args.quick)

    from partikit.datasets import make_random_table
    from partikit.groupers import BIPARTITIONS, edge_weights, max_cut_bipartition

    # ---- first calls of the process (compile / cache load / imports)
    first = {}
    warm = make_random_table(10, 3, random_state=0)
    for w in WEIGHTS:
        t0 = time.perf_counter()
        max_cut_bipartition(warm, weights=w)
        first[f"GL {w}"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    BIPARTITIONS["twoing"](warm)
    first["Twoing"] = time.perf_counter() - t0
    progress("cvxpy")
    t0 = time.perf_counter()
    try:
        max_cut_bipartition(warm, weights="chi2", solver="sdp", random_state=0)
        gw_ok = None
    except Exception as exc:  # noqa: BLE001
        gw_ok = first_line(exc)
    first["GW (first SDP solve, cvxpy import included)"] = time.perf_counter() - t0
    cvx_version, cvx_solvers, cvx_solver = cvxpy_info()

    # ---- 1. GL vs GW at n = 100
    gw_rows = []
    if gw_ok is None:
        for k in GW_KS:
            rng = np.random.RandomState(SEED)
            for i in range(n_gw_tables):
                tab = make_random_table(GW_N, k, random_state=rng)
                for w in WEIGHTS:
                    progress(f"GL vs GW: k = {k}, table {i}, {w}")
                    gl = time_call(
                        lambda: max_cut_bipartition(tab, weights=w), gl_repeats
                    )
                    gw = time_call(
                        lambda: max_cut_bipartition(
                            tab, weights=w, solver="sdp", random_state=0
                        ),
                        gw_repeats,
                        warmup=False,
                    )
                    gw_rows.append(
                        {"k": k, "table": i, "w": w, "gl": gl, "gw": gw,
                         "gl_stats": gl.result.statistics,
                         "gw_stats": gw.result.statistics}
                    )  # fmt: skip

    # ---- 2. GL vs Twoing at n = 40
    tw_rows = []
    for k in TWOING_KS:
        rng = np.random.RandomState(SEED)
        tabs = [
            make_random_table(TWOING_N, k, random_state=rng) for _ in range(n_tw_tables)
        ]
        progress(f"GL vs Twoing: k = {k}")
        per = {"twoing": [], "maxcut_chi2": [], "maxcut_squared_gini": []}
        imp = {name: [] for name in per}
        for tab in tabs:
            for name in per:
                reps = tw_repeats if name == "twoing" else gl_repeats
                t = time_call(lambda: BIPARTITIONS[name](tab, impurity="gini"), reps)
                per[name].append(t.median)
                imp[name].append(t.result.statistics["impurity"])
        tw_rows.append(
            {
                "k": k,
                **{name: float(np.median(v)) for name, v in per.items()},
                "ratios_chi2": [
                    a / b for a, b in zip(per["twoing"], per["maxcut_chi2"])
                ],
                "ratios_sg": [
                    a / b for a, b in zip(per["twoing"], per["maxcut_squared_gini"])
                ],
                "excess_chi2": np.mean(
                    [
                        (a - b) / b * 100
                        for a, b in zip(imp["maxcut_chi2"], imp["twoing"])
                    ]
                ),
                "excess_sg": np.mean(
                    [
                        (a - b) / b * 100
                        for a, b in zip(imp["maxcut_squared_gini"], imp["twoing"])
                    ]
                ),
            }
        )

    # ---- 3. GL at n = 1,000 x k = 100
    big_rows = []
    big = make_random_table(big_n, BIG_K, random_state=np.random.RandomState(SEED))
    for w in WEIGHTS:
        progress(f"GL n = {big_n}, k = {BIG_K}, {w}")
        t = time_call(lambda: max_cut_bipartition(big, weights=w), 5)
        tw = time_call(lambda: edge_weights(big, weights=w), 5)
        big_rows.append({"w": w, "t": t, "weights_t": tw, "stats": t.result.statistics})

    context.stop()

    # ------------------------------------------------------------------ report
    report = Report(NAME)
    report.add(
        "## Max-cut speed: GL vs GW, GL vs Twoing, GL at 1,000 values x 100 "
        f"classes ({script_path(NAME)})"
    )
    report.add()
    report.header(context)
    report.add(context.sources_line())
    report.add(
        f"* also: cvxpy {cvx_version} (installed solvers: "
        f"{', '.join(cvx_solvers) or 'none'}; the solver cvxpy picks for the GW "
        f"SDP: {cvx_solver}); OPENBLAS_NUM_THREADS="
        f"{os.environ.get('OPENBLAS_NUM_THREADS')} (set by the script unless "
        "given): every method here runs on one core."
    )
    report.add(context.others_line())
    ref = reference_installed()
    report.add(
        "* Reference implementation: the thesis authors' research code "
        "(`max_cut_paper`, named in the thesis, section 6) is "
        + (
            f"installed ({ref}), but not used here"
            if ref
            else "not installed (it is not a PyPI package)"
        )
        + ". Every comparison below is between partikit's own implementations of "
        "GL, GW and Twoing, which is also what the thesis compares (its own "
        "implementations of each)."
    )
    report.add(
        "* First calls in this process (excluded from the medians): "
        + ", ".join(f"{name} {fmt_s(t)} s" for name, t in first.items())
        + "."
    )
    report.add()

    # 1
    report.add(f"### 1. GL vs GW at n = {GW_N} values")
    report.add()
    if gw_ok is not None:
        report.add(f'GW not run: `solver="sdp"` failed: {gw_ok}.')
        report.add()
    else:
        report.add(
            f"{n_gw_tables} table(s) per k. GL = `max_cut_bipartition(table, "
            "weights=w)` (GreedyCut + local search), median of "
            f"{gl_repeats} after a warm-up call; GW = `max_cut_bipartition(table, "
            'weights=w, solver="sdp", random_state=0)` (SDP relaxation by cvxpy, '
            "50 random hyperplanes, then the same local search as polish), median "
            f"of {gw_repeats} calls (each call builds and solves its SDP; no "
            "warm-up beyond the first SDP above). Cut weights on the thesis scale; "
            "GW flips/swaps = polishing moves after the rounding."
        )
        report.add()
        rows = []
        for r in gw_rows:
            g, s = r["gl_stats"], r["gw_stats"]
            cmp = (
                "equal"
                if np.isclose(g["cut_weight"], s["cut_weight"], rtol=1e-9)
                else ("GL" if g["cut_weight"] > s["cut_weight"] else "GW")
            )
            rows.append(
                [
                    str(r["k"]),
                    str(r["table"]),
                    r["w"],
                    ms(r["gl"].median),
                    fmt_s(r["gw"].median),
                    f"{r['gw'].median / r['gl'].median:,.0f}x",
                    f"{g['cut_weight']:.6g}",
                    f"{s['cut_weight']:.6g}",
                    cmp,
                    f"{g['n_flips']}/{g['n_swaps']}",
                    f"{s['n_flips']}/{s['n_swaps']}",
                ]
            )
        report.add(
            table(
                [
                    "k",
                    "table",
                    "weights",
                    "GL ms",
                    "GW s",
                    "GW / GL",
                    "GL cut",
                    "GW cut",
                    "larger cut",
                    "GL flips/swaps",
                    "GW polish flips/swaps",
                ],
                rows,
            )
        )
        report.add()
        ratios = [r["gw"].median / r["gl"].median for r in gw_rows]
        wins = {
            who: sum(
                1
                for r in gw_rows
                if (
                    "equal"
                    if np.isclose(
                        r["gl_stats"]["cut_weight"],
                        r["gw_stats"]["cut_weight"],
                        rtol=1e-9,
                    )
                    else (
                        "GL"
                        if r["gl_stats"]["cut_weight"] > r["gw_stats"]["cut_weight"]
                        else "GW"
                    )
                )
                == who
            )
            for who in ("GL", "GW", "equal")
        }
        by = []
        for k in GW_KS:
            for w in WEIGHTS:
                sub = [
                    r["gw"].median / r["gl"].median
                    for r in gw_rows
                    if r["k"] == k and r["w"] == w
                ]
                by.append(f"k = {k} {w} {np.median(sub):,.0f}x")
        gw_times = [r["gw"].median for r in gw_rows]
        report.add(
            f"GW / GL time ratio: {min(ratios):,.0f}x to {max(ratios):,.0f}x "
            f"(median {np.median(ratios):,.0f}x; per k and weights: "
            + ", ".join(by)
            + f"); thesis: {THESIS_GW[0]}-{THESIS_GW[1]}x. GW took "
            f"{fmt_s(min(gw_times))}-{fmt_s(max(gw_times))} s per call (thesis: "
            '"about 2 seconds" for the SDP at 100 values). The larger cut: GL '
            f"{wins['GL']}, GW {wins['GW']}, equal {wins['equal']} of "
            f"{len(gw_rows)} (thesis: GL's cuts are in general larger)."
        )
        report.add()

    # 2
    report.add(f"### 2. GL vs Twoing at n = {TWOING_N} values, Gini")
    report.add()
    report.add(
        f"{n_tw_tables} tables per k; per table the median of {tw_repeats} "
        f"(Twoing) or {gl_repeats} (GL) calls after a warm-up call; the table "
        "shows the median over the tables. Calls: `BIPARTITIONS[name](table, "
        'impurity="gini")` (Twoing: all 2^(k−1) − 1 superclass splits, scored '
        "by the k-class Gini). Ratio = Twoing / GL per table, median (min–max) "
        "over the tables. Excess = mean relative Gini excess of the GL split over "
        "Twoing's, %."
    )
    report.add()
    rows = []
    for r in tw_rows:
        rows.append(
            [
                str(r["k"]),
                ms(r["twoing"]),
                ms(r["maxcut_chi2"]),
                f"{np.median(r['ratios_chi2']):,.1f}x ({min(r['ratios_chi2']):,.1f}–"
                f"{max(r['ratios_chi2']):,.1f})",
                ms(r["maxcut_squared_gini"]),
                f"{np.median(r['ratios_sg']):,.1f}x ({min(r['ratios_sg']):,.1f}–"
                f"{max(r['ratios_sg']):,.1f})",
                f"{r['excess_chi2']:.3f}",
                f"{r['excess_sg']:.3f}",
            ]
        )
    report.add(
        table(
            [
                "k",
                "Twoing ms",
                "GL chi2 ms",
                "Twoing / GL chi2",
                "GL squared-Gini ms",
                "Twoing / GL squared-Gini",
                "GL chi2 Gini excess %",
                "GL sq-Gini Gini excess %",
            ],
            rows,
        )
    )
    report.add()
    faster = [r["k"] for r in tw_rows if r["twoing"] < r["maxcut_chi2"]]
    slower = [r["k"] for r in tw_rows if r["twoing"] >= r["maxcut_chi2"]]
    at15 = [r for r in tw_rows if r["k"] == 15]
    text = (
        "Twoing is faster than GL chi2 at k = "
        + (", ".join(map(str, faster)) or "none")
        + "; GL chi2 is faster at k = "
        + (", ".join(map(str, slower)) or "none")
        + " (thesis, whole trees on real data: turning point around k = 7)."
    )
    if at15:
        r = at15[0]
        ratio = np.median(r["ratios_chi2"])
        text += (
            f" At k = 15: Twoing / GL chi2 = {ratio:,.0f}x, Twoing / GL "
            f"squared-Gini = {np.median(r['ratios_sg']):,.0f}x per split (thesis: "
            f"{THESIS_TWOING[0]}-{THESIS_TWOING[1]}x for whole trees, which also "
            "include the work common to both criteria: "
            + (
                "within"
                if THESIS_TWOING[0] <= ratio <= THESIS_TWOING[1]
                else ("above" if ratio > THESIS_TWOING[1] else "below")
            )
            + " that range)."
        )
    report.add(text)
    report.add()

    # 3
    report.add(f"### 3. GL at n = {big_n:,} values x k = {BIG_K} classes")
    report.add()
    report.add(
        f"`make_random_table({big_n}, {BIG_K}, random_state=RandomState({SEED}))`; "
        "`max_cut_bipartition(table, weights=w)`, median (min–max) of 5 after a "
        "warm-up call; `edge_weights(table, w)` timed alone (the O(n² k) part)."
    )
    report.add()
    rows = []
    for r in big_rows:
        s = r["stats"]
        rows.append(
            [
                r["w"],
                r["t"].cell(),
                r["weights_t"].cell(),
                str(s["n_flips"]),
                str(s["n_swaps"]),
                f"{s['greedy_cut_weight']:.6g}",
                f"{s['cut_weight']:.6g}",
                f"{s['certified_ratio']:.4f}",
                "yes" if r["t"].median < TARGET_BIG_S else "**no**",
            ]
        )
    report.add(
        table(
            [
                "weights",
                "GL s",
                "edge_weights s",
                "n_flips",
                "n_swaps",
                "greedy cut",
                "final cut",
                "certified ratio",
                f"< {TARGET_BIG_S:.0f} s",
            ],
            rows,
        )
    )
    if args.quick:
        report.add()
        report.add(f"(--quick: n = {big_n}, not {BIG_N:,}: the target is not tested.)")

    finish(report, args.output)


if __name__ == "__main__":
    main()
