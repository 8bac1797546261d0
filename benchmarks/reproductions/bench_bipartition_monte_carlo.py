# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Binary-partition methods on random contingency tables (thesis chapter 5).

Monte Carlo of Mello Pereira (2018), chapter 5 "Experiments on Splits": for each
(n values, k classes) in (6, 3), (12, 3), (6, 9), (12, 9), (30, 3), (30, 9),
(50, 15), (100, 30), (200, 100), 10,000 tables (``--quick``: 200) drawn by
``make_random_table(n, k, random_state=rng)`` (entries uniform in {0..7}, the table
drawn again while a row or a column sums to 0), one
``np.random.RandomState(19880531)`` stream per configuration. Every method of
``partikit.groupers.BIPARTITIONS`` below splits every table, for the Gini and the
entropy impurity; the yardstick is the returned ``statistics["impurity"]``
(weighted impurity of the split over all k classes).

Reported per (n, k, impurity) and method: % of tables where it finds the optimum
(exhaustive search, n <= 12), % where it attains the best impurity among the
methods run, mean and max relative excess impurity over the reference (the
optimum, else the best of the methods run), mean time per table. Then pairwise
comparisons (Twoing vs PCext, LargestAlone vs ListScheduling), a Twoing vs PCext
timing sweep over k, and the thesis's textual claims checked against the numbers.

    python benchmarks/reproductions/bench_bipartition_monte_carlo.py [--quick] [--output FILE]
"""

from __future__ import annotations

import os

# One BLAS thread per process: two worker processes share the 2 cores, and a
# multi-threaded OpenBLAS eigh (used by pc / pc_ext) slows down by an order of
# magnitude when its threads compete for busy cores. Set before numpy is imported.
# (OMP_NUM_THREADS is left alone: GNU `nproc`, which the header reports, obeys it.)
for _var in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import multiprocessing  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

# the shared helpers (_common.py) live one folder up
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from _common import (  # noqa: E402
    Report,
    RunContext,
    finish,
    fmt_s,
    parse_args,
    progress,
    script_path,
    table,
)

NAME = "bench_bipartition_monte_carlo"
SEED = 19880531  # the seed of the thesis authors' code
CONFIGS = ((6, 3), (12, 3), (6, 9), (12, 9), (30, 3), (30, 9), (50, 15), (100, 30),
           (200, 100))  # fmt: skip
IMPURITIES = ("gini", "entropy")
RTOL = 1e-9  # "equal impurity": within this relative difference
N_WORKERS = 2
CHUNK = 1000  # tables per work unit
MAX_EXHAUSTIVE_N = 12
MAX_TWOING_K = 15
MAX_SLIQ_N = 100  # sliq (optional) is not run at n = 200 (time)
#: Twoing runs on a configuration only if one table (Gini + entropy) times the
#: number of tables is below this many CPU seconds.
TWOING_BUDGET_S = {False: 300.0, True: 30.0}  # by quick
SWEEP_N = 30
ALMOST_ALL = 95.0  # % of tables that "almost all" is taken to mean in claim (a)
SWEEP_KS = (3, 4, 5, 6, 7, 8, 9, 10, 11)

#: (label, registry name, options)
METHODS = (
    ("exhaustive", "exhaustive", {}),
    ("twoing", "twoing", {}),
    ("pc", "pc", {}),
    ("pc_ext", "pc_ext", {}),
    ("sliq", "sliq", {}),
    ("sliq_ext", "sliq_ext", {}),
    ("largest_alone", "largest_alone", {}),
    ("list_scheduling", "list_scheduling", {}),
    ("largest_alone (superclass-scored)", "largest_alone", {"k_class": False}),
    ("list_scheduling (superclass-scored)", "list_scheduling", {"k_class": False}),
    ("maxcut_squared_gini (GL)", "maxcut_squared_gini", {}),
    ("maxcut_chi2 (GL)", "maxcut_chi2", {}),
)
LABELS = [m[0] for m in METHODS]
IDX = {label: i for i, label in enumerate(LABELS)}
#: The max-cut split does not depend on the impurity: one call per table, the
#: other impurity computed from the split.
MAXCUT = {"maxcut_squared_gini (GL)", "maxcut_chi2 (GL)"}
LA, LS = "largest_alone", "list_scheduling"
LA_SC, LS_SC = LA + " (superclass-scored)", LS + " (superclass-scored)"


# ----------------------------------------------------------------------------------
# impurities computed here (cross-check of `statistics["impurity"]`, and the
# max-cut entropy)
# ----------------------------------------------------------------------------------


def impurity_of(tab, left, kind):
    """Weighted Gini or entropy (bits) of the split ``left`` of ``tab``'s rows."""
    total = tab.sum()
    value = 0.0
    for side in (tab[left].sum(axis=0), tab[~left].sum(axis=0)):
        size = side.sum()
        if size <= 0:
            continue
        p = side / size
        if kind == "gini":
            phi = 1.0 - float(p @ p)
        else:
            q = p[p > 0]
            phi = -float(q @ np.log2(q))
        value += size / total * phi
    return value


# ----------------------------------------------------------------------------------
# worker
# ----------------------------------------------------------------------------------


def warm_up():
    """Compile (or load from the numba cache) every kernel, outside the timings."""
    from partikit.datasets import make_random_table
    from partikit.groupers import BIPARTITIONS

    tab = make_random_table(6, 3, random_state=0)
    for _, name, options in METHODS:
        for kind in IMPURITIES:
            BIPARTITIONS[name](tab, impurity=kind, **options)


def run_unit(unit):
    """Split tables ``start .. stop - 1`` of one configuration by every method.

    Returns impurities and times, shape (n_tables, n_methods, 2), NaN for methods
    not run, and the largest |statistics["impurity"] - impurity recomputed here|
    seen.
    """
    n, k, start, stop, state, labels = unit
    from partikit.datasets import make_random_table
    from partikit.groupers import BIPARTITIONS
    from partikit.groupers._bipartition import (
        largest_alone_superclass,
        list_scheduling_superclass,
    )

    rng = np.random.RandomState()
    rng.set_state(state)
    m = stop - start
    imp = np.full((m, len(METHODS), 2), np.nan)
    sec = np.full((m, len(METHODS), 2), np.nan)
    check = 0.0
    maxcut_same_split = True
    # per heuristic (LA, LS): its superclass holds the last class (Twoing meets it
    # as its complement) and the rows' shares of it have ties
    last_and_ties = np.zeros((m, 2), dtype=bool)
    for t in range(m):
        tab = make_random_table(n, k, random_state=rng)
        totals = tab.sum(axis=0)
        for h, make in enumerate(
            (largest_alone_superclass, list_scheduling_superclass)
        ):
            inside = make(totals).astype(bool)
            share = tab[:, inside].sum(axis=1) / tab.sum(axis=1)
            last_and_ties[t, h] = inside[-1] and len(np.unique(share)) < n
        verify = t < 10  # recompute the impurities of the first tables of a unit
        for label in labels:
            i = IDX[label]
            _, name, options = METHODS[i]
            fn = BIPARTITIONS[name]
            if label in MAXCUT:
                t0 = time.perf_counter()
                res = fn(tab, impurity="gini", **options)
                dt = time.perf_counter() - t0
                left = res.group_ids == 0
                imp[t, i, 0] = res.statistics["impurity"]
                imp[t, i, 1] = impurity_of(tab, left, "entropy")
                sec[t, i, :] = dt
                if verify:
                    again = fn(tab, impurity="entropy", **options)
                    maxcut_same_split &= bool(
                        np.array_equal(again.group_ids, res.group_ids)
                    )
                    check = max(check, abs(again.statistics["impurity"] - imp[t, i, 1]))
                    check = max(
                        check,
                        abs(imp[t, i, 0] - impurity_of(tab, left, "gini")),
                    )
                continue
            for j, kind in enumerate(IMPURITIES):
                t0 = time.perf_counter()
                res = fn(tab, impurity=kind, **options)
                sec[t, i, j] = time.perf_counter() - t0
                imp[t, i, j] = res.statistics["impurity"]
                if verify:
                    left = res.group_ids == 0
                    check = max(check, abs(imp[t, i, j] - impurity_of(tab, left, kind)))
    return n, k, start, imp, sec, check, maxcut_same_split, last_and_ties


# ----------------------------------------------------------------------------------
# statistics
# ----------------------------------------------------------------------------------


def close(a, b):
    """a equals b within the relative tolerance (elementwise)."""
    return np.abs(a - b) <= RTOL * np.maximum(np.abs(a), np.abs(b)) + 1e-15


def leq(a, b):
    """a <= b, with equality within the tolerance."""
    return (a < b) | close(a, b)


def summarize(imp, sec, labels):
    """Per impurity and method: optimum %, best %, mean/max excess %, mean ms."""
    out = {}
    for j, kind in enumerate(IMPURITIES):
        cols = [IDX[label] for label in labels]
        values = imp[:, cols, j]
        best = values.min(axis=1)
        has_opt = "exhaustive" in labels
        ref = values[:, labels.index("exhaustive")] if has_opt else best
        assert (ref > 0).all()
        rows = {}
        for c, label in enumerate(labels):
            v = values[:, c]
            excess = (v - ref) / ref * 100
            excess_reported = np.where(close(v, ref), 0.0, excess)
            rows[label] = {
                "opt": 100 * close(v, ref).mean() if has_opt else None,
                "best": 100 * leq(v, best).mean(),
                "mean_excess": excess_reported.mean(),
                "max_excess": excess_reported.max(),
                "below_ref": int((~leq(ref, v)).sum()),  # a method below the optimum
                "ms": 1e3 * np.nanmean(sec[:, IDX[label], j]),
            }
        out[kind] = rows
    return out


def pairwise(imp, a, b, j):
    """% a better, % b better, % ties, max excess % of a over b and of b over a."""
    va, vb = imp[:, IDX[a], j], imp[:, IDX[b], j]
    tie = close(va, vb)
    return {
        "a_better": 100 * ((va < vb) & ~tie).mean(),
        "b_better": 100 * ((vb < va) & ~tie).mean(),
        "tie": 100 * tie.mean(),
        "a_over_b": max(0.0, np.where(tie, 0.0, (va - vb) / vb * 100).max()),
        "b_over_a": max(0.0, np.where(tie, 0.0, (vb - va) / va * 100).max()),
        "a_mean_excess": np.where(tie, 0.0, (va - vb) / vb * 100).mean(),
        "n_worse": int(((va > vb) & ~tie).sum()),
    }


# ----------------------------------------------------------------------------------
# formatting
# ----------------------------------------------------------------------------------


def pct(x, digits=1):
    return "–" if x is None else f"{x:.{digits}f}"


def exc(x):
    if x == 0:
        return "0"
    return f"{x:.3g}" if x < 1 else f"{x:.2f}"


def ms(x):
    return f"{x:.3g}"


def cfg(n, k):
    return f"(n={n}, k={k})"


def join(items, empty="none"):
    items = list(items)
    return ", ".join(items) if items else empty


# ----------------------------------------------------------------------------------


def main():
    args = parse_args(__doc__.splitlines()[0])
    n_tables = 200 if args.quick else 10_000
    chunk = 100 if args.quick else CHUNK
    context = RunContext(os.path.basename(__file__), args.quick)

    from partikit.datasets import make_random_table
    from partikit.groupers import BIPARTITIONS

    t0 = time.perf_counter()
    warm_up()
    first_call = time.perf_counter() - t0

    # ---- which methods run where; Twoing timed on one table first
    plan, twoing_notes = {}, {}
    for n, k in CONFIGS:
        labels = [m[0] for m in METHODS]
        if n > MAX_EXHAUSTIVE_N:
            labels.remove("exhaustive")
        if n > MAX_SLIQ_N:
            labels.remove("sliq")
        if k > MAX_TWOING_K:
            labels.remove("twoing")
            twoing_notes[(n, k)] = f"not run: k = {k} > {MAX_TWOING_K}"
        else:
            tab = make_random_table(n, k, random_state=np.random.RandomState(SEED))
            t0 = time.perf_counter()
            for kind in IMPURITIES:
                BIPARTITIONS["twoing"](tab, impurity=kind)
            one = time.perf_counter() - t0
            projected = one * n_tables
            budget = TWOING_BUDGET_S[args.quick]
            if projected > budget:
                labels.remove("twoing")
                twoing_notes[(n, k)] = (
                    f"**skipped**: one table (Gini + entropy) took {fmt_s(one)} s, "
                    f"i.e. {projected / 3600:.2g} CPU-hours for {n_tables:,} tables "
                    f"(budget {budget:.0f} CPU-s)"
                )
            else:
                twoing_notes[(n, k)] = (
                    f"run (one table, Gini + entropy: {1e3 * one:.3g} ms)"
                )
        plan[(n, k)] = labels

    # ---- work units: chunks of each configuration's stream (RNG state at the start)
    units = []
    for n, k in CONFIGS:
        rng = np.random.RandomState(SEED)
        for start in range(0, n_tables, chunk):
            state = rng.get_state()
            stop = min(start + chunk, n_tables)
            units.append((n, k, start, stop, state, plan[(n, k)]))
            for _ in range(stop - start):
                make_random_table(n, k, random_state=rng)
    units.sort(key=lambda u: -u[0] * u[1])  # the expensive configurations first
    progress(f"{len(units)} work units on {N_WORKERS} workers, {n_tables:,} tables "
             "per configuration")  # fmt: skip

    parts = {c: {} for c in CONFIGS}
    max_check = 0.0
    maxcut_same = True
    mc_wall = time.perf_counter()
    with multiprocessing.Pool(N_WORKERS, initializer=warm_up) as pool:
        for done, (n, k, start, imp, sec, check, same, flag) in enumerate(
            pool.imap_unordered(run_unit, units), 1
        ):
            parts[(n, k)][start] = (imp, sec, flag)
            max_check = max(max_check, check)
            maxcut_same &= same
            if done % 10 == 0 or done == len(units):
                progress(f"{done}/{len(units)} units")
        pool.close()
        pool.join()
    mc_wall = time.perf_counter() - mc_wall

    data, flags = {}, {}
    for c in CONFIGS:
        starts = sorted(parts[c])
        data[c] = (
            np.concatenate([parts[c][s][0] for s in starts]),
            np.concatenate([parts[c][s][1] for s in starts]),
        )
        flags[c] = np.concatenate([parts[c][s][2] for s in starts])

    # ---- Twoing vs PCext timing sweep over k (one process, the pool closed)
    progress("Twoing vs PCext timing sweep")
    sweep_tables = 30 if args.quick else 200
    sweep = []
    for k in SWEEP_KS:
        rng = np.random.RandomState(SEED)
        tabs = [
            make_random_table(SWEEP_N, k, random_state=rng) for _ in range(sweep_tables)
        ]
        row = {"k": k}
        for label in ("twoing", "pc_ext", "largest_alone", "maxcut_chi2 (GL)"):
            _, name, options = METHODS[IDX[label]]
            t0 = time.perf_counter()
            for tab in tabs:
                BIPARTITIONS[name](tab, impurity="gini", **options)
            row[label] = 1e3 * (time.perf_counter() - t0) / len(tabs)
        sweep.append(row)

    context.stop()

    summary = {c: summarize(*data[c], plan[c]) for c in CONFIGS}

    # ------------------------------------------------------------------ report
    report = Report(NAME)
    report.add(
        "## Binary partitions of random contingency tables: Monte Carlo of the thesis "
        f"chapter 5 ({script_path(NAME)})"
    )
    report.add()
    report.header(context)
    report.add(context.sources_line())
    report.add(
        f"* BLAS threads: OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}"
        f" (set by the script unless given); {N_WORKERS} worker processes, each "
        f"splitting whole chunks of {chunk:,} tables, so two tables are split at a "
        "time (one per core); per-call times are wall times inside one worker."
    )
    report.add(context.others_line(own_what="this process's and its workers'"))
    report.add()
    report.add(
        f"Protocol: for each (n, k), {n_tables:,} tables drawn in sequence by "
        "`make_random_table(n, k, random_state=rng)` from one "
        f"`np.random.RandomState({SEED})` per configuration (entries uniform in "
        "{0..7}, the whole table drawn again while a row or column sums to 0). Each "
        "method is `BIPARTITIONS[name](table, impurity=...)`; its "
        '`statistics["impurity"]` (the '
        "weighted impurity of the split over all k classes, entropy in bits) is the "
        'yardstick. Two impurities are "equal" within a relative difference of '
        f"{RTOL:g}. **opt %**: share of tables where the method's impurity equals "
        "the optimum (exhaustive search; only n <= 12). **best %**: share where it "
        "equals the least impurity found by any method run on that table (ties "
        "count for every tied method). **mean/max excess %**: (impurity − ref) / "
        "ref × 100, ref = the optimum where exhaustive ran, else the best of the "
        "methods run. **ms**: mean wall time of one call per table "
        "(`time.perf_counter` around the registry call, input checks included; "
        "kernels compiled or loaded from the numba cache before timing: first calls "
        f"took {fmt_s(first_call)} s in the main process)."
    )
    report.add()
    report.add(
        '* Methods: `exhaustive` (n <= 12); `twoing` (default `score="impurity"`: '
        "all 2^(k−1) − 1 superclass splits, candidates scored by the k-class "
        "impurity, the thesis's Twoing); `pc`, `pc_ext` (principal component of the "
        "class-probability vectors — the thesis code projects the count rows); "
        f"`sliq` (not run at n > {MAX_SLIQ_N}, for time), `sliq_ext`; "
        "`largest_alone`, `list_scheduling` (candidates scored by the k-class "
        "impurity, `k_class=True`) and their `k_class=False` variants, labelled "
        '"(superclass-scored)" (candidates scored by the impurity of the two '
        "superclasses; the split is then measured over the k classes like every "
        "other); `maxcut_squared_gini`, `maxcut_chi2` (default "
        '`solver="local_search"`, the thesis\'s GL). The max-cut split does not '
        "depend on the impurity: it is computed once per table (with "
        '`impurity="gini"`), its entropy computed from the split, and its time '
        "is that one call, shown under both impurities."
    )
    report.add(
        "* Twoing: " + "; ".join(f"{cfg(*c)} {twoing_notes[c]}" for c in CONFIGS) + "."
    )
    report.add(
        f'* Checks: largest |`statistics["impurity"]` − impurity recomputed here '
        "from `group_ids`| "
        f"over the first 10 tables of every chunk: {max_check:.2g}; max-cut split "
        'identical with `impurity="entropy"` on those tables: '
        + ("yes" if maxcut_same else "**no**")
        + "; tables where a method's impurity is below the exhaustive optimum: "
        + (
            join(
                f"{label} {cfg(*c)} {kind} ({s['below_ref']})"
                for c in CONFIGS
                if "exhaustive" in plan[c]
                for kind in IMPURITIES
                for label, s in summary[c][kind].items()
                if s["below_ref"]
            )
        )
        + f". Monte Carlo wall time {mc_wall:.0f} s."
    )
    report.add()

    # ---- claims of the thesis text, checked
    findings = claims(data, flags, plan, summary, sweep)
    report.add("### The thesis text's claims against these numbers")
    report.add()
    report.add(
        'The thesis\'s tables were lost in the text conversion ("Table ??"), so '
        "only its sentences can be compared; where a sentence names no method "
        "(the name was lost too) the method given in parentheses is the one the "
        "surrounding text implies."
    )
    report.add()
    for line in findings:
        report.add(f"* {line}")
    report.add()

    # ---- main tables
    report.add("### Per configuration")
    report.add()
    for c in CONFIGS:
        n, k = c
        report.add(f"**n = {n} values, k = {k} classes** ({n_tables:,} tables)")
        report.add()
        rows = []
        for label in plan[c]:
            row = [f"`{label}`"]
            for kind in IMPURITIES:
                s = summary[c][kind][label]
                row += [
                    pct(s["opt"]),
                    pct(s["best"]),
                    exc(s["mean_excess"]),
                    exc(s["max_excess"]),
                    ms(s["ms"]),
                ]
            rows.append(row)
        head = ["method"]
        for kind in ("Gini", "entropy"):
            head += [
                f"{kind}: opt %",
                "best %",
                "mean excess %",
                "max excess %",
                "ms",
            ]
        report.add(table(head, rows))
        report.add()

    # ---- Twoing vs PCext
    report.add("### Twoing vs PCext (tables where both ran)")
    report.add()
    rows = []
    for c in CONFIGS:
        if "twoing" not in plan[c]:
            continue
        for j, kind in enumerate(IMPURITIES):
            p = pairwise(data[c][0], "twoing", "pc_ext", j)
            rows.append(
                [
                    cfg(*c),
                    kind,
                    pct(p["a_better"]),
                    pct(p["b_better"]),
                    pct(p["tie"]),
                    exc(p["a_over_b"]),
                    exc(p["b_over_a"]),
                    ms(summary[c][kind]["twoing"]["ms"]),
                    ms(summary[c][kind]["pc_ext"]["ms"]),
                ]
            )
    report.add(
        table(
            [
                "config",
                "impurity",
                "Twoing better %",
                "PCext better %",
                "tie %",
                "max excess Twoing over PCext %",
                "max excess PCext over Twoing %",
                "Twoing ms",
                "PCext ms",
            ],
            rows,
        )
    )
    report.add()

    # ---- LargestAlone vs ListScheduling
    report.add("### LargestAlone vs ListScheduling (both scorings)")
    report.add()
    rows = []
    for c in CONFIGS:
        for j, kind in enumerate(IMPURITIES):
            row = [cfg(*c), kind]
            for a, b in ((LA, LS), (LA_SC, LS_SC)):
                p = pairwise(data[c][0], a, b, j)
                row += [
                    pct(p["a_better"]),
                    pct(p["b_better"]),
                    pct(p["tie"]),
                    exc(summary[c][kind][a]["mean_excess"]),
                    exc(summary[c][kind][b]["mean_excess"]),
                ]
            rows.append(row)
    report.add(
        table(
            [
                "config",
                "impurity",
                "k-class: LA better %",
                "LS better %",
                "tie %",
                "LA mean excess %",
                "LS mean excess %",
                "superclass-scored: LA better %",
                "LS better %",
                "tie %",
                "LA mean excess %",
                "LS mean excess %",
            ],
            rows,
        )
    )
    report.add()
    report.add(
        "Mean excess is over the reference of the per-configuration table (the "
        "optimum for n <= 12, else the best of all methods run)."
    )
    report.add()

    # ---- sweep
    report.add(
        f"### Time per table over k (n = {SWEEP_N}, Gini, {sweep_tables} tables "
        "per k, one process)"
    )
    report.add()
    rows = [
        [
            str(r["k"]),
            ms(r["twoing"]),
            ms(r["pc_ext"]),
            f"{r['twoing'] / r['pc_ext']:.2f}",
            ms(r["largest_alone"]),
            ms(r["maxcut_chi2 (GL)"]),
        ]
        for r in sweep
    ]
    report.add(
        table(
            [
                "k",
                "Twoing ms",
                "PCext ms",
                "Twoing / PCext",
                "LargestAlone ms",
                "maxcut_chi2 (GL) ms",
            ],
            rows,
        )
    )

    finish(report, args.output)


def claims(data, flags, plan, summary, sweep):
    """The thesis's textual claims (a)-(g), each with what was measured."""
    out = []
    gini, ent = "gini", "entropy"

    # (a) Twoing ~ optimum for k = 3, n = 6, 12
    cells = []
    for c in ((6, 3), (12, 3)):
        if "twoing" in plan[c]:
            cells.append(
                f"{cfg(*c)} {summary[c][gini]['twoing']['opt']:.2f} % (Gini) / "
                f"{summary[c][ent]['twoing']['opt']:.2f} % (entropy)"
            )
    lowest = min(
        min(summary[c][kind]["twoing"]["opt"] for kind in IMPURITIES)
        for c in ((6, 3), (12, 3))
        if "twoing" in plan[c]
    )
    also = []
    for c in ((6, 9), (12, 9)):
        if "twoing" in plan[c]:
            also.append(
                f"{cfg(*c)} {summary[c][gini]['twoing']['opt']:.2f} % / "
                f"{summary[c][ent]['twoing']['opt']:.2f} %"
            )
    out.append(
        '(a) "Twoing finds the optimum in almost all tables for k = 3, n = 6, 12" '
        f"(taken as >= {ALMOST_ALL:.0f} %): "
        + ("**agrees**" if lowest >= ALMOST_ALL else "**disagrees**")
        + ". Twoing finds the optimum in "
        + "; ".join(cells)
        + " of the tables"
        + (f"; at k = 9: {'; '.join(also)}" if also else "")
        + "."
    )

    # (b) Twoing vs PCext
    both = [c for c in CONFIGS if "twoing" in plan[c]]
    large = [c for c in both if c[0] >= 30]
    parts = []
    verdicts = []
    for j, kind in enumerate(IMPURITIES):
        ps = {c: pairwise(data[c][0], "twoing", "pc_ext", j) for c in both}
        tw_over = max(ps.values(), key=lambda p: p["a_over_b"])
        tw_over_c = max(ps, key=lambda c: ps[c]["a_over_b"])
        pc_over_c = max(ps, key=lambda c: ps[c]["b_over_a"])
        tw_wins = sum(ps[c]["a_better"] for c in large) / max(len(large), 1)
        pc_wins = sum(ps[c]["b_better"] for c in large) / max(len(large), 1)
        adv = [c for c in both if ps[c]["a_better"] > ps[c]["b_better"]]
        parts.append(
            f"{kind}: Twoing strictly better than PCext on "
            + ", ".join(f"{ps[c]['a_better']:.1f} %" for c in both)
            + " of the tables and PCext strictly better on "
            + ", ".join(f"{ps[c]['b_better']:.1f} %" for c in both)
            + f" (configurations {', '.join(cfg(*c) for c in both)}); Twoing has "
            f"the advantage in {len(adv)} of {len(both)} configurations; max "
            f"relative excess of Twoing over PCext {tw_over['a_over_b']:.2f} % "
            f"(at {cfg(*tw_over_c)}), of PCext over Twoing "
            f"{ps[pc_over_c]['b_over_a']:.2f} % (at {cfg(*pc_over_c)})"
            + (
                f"; at n >= 30 (mean over {', '.join(cfg(*c) for c in large)}): "
                f"Twoing better {tw_wins:.1f} %, PCext better {pc_wins:.1f} %"
                if large
                else ""
            )
        )
        verdicts.append((kind, tw_wins - pc_wins, tw_over["a_over_b"],
                         ps[pc_over_c]["b_over_a"]))  # fmt: skip
    margin = {kind: d for kind, d, _, _ in verdicts}
    thesis = {gini: (0.9, 3.48), ent: (1.4, 6.23)}
    adv_all = all(d > 0 for _, d, _, _ in verdicts)
    text = (
        "(b) Twoing vs PCext — thesis: Twoing has the advantage, more clearly for "
        "entropy; max relative excess of Twoing over PCext 0.9 % (Gini) / 1.4 % "
        "(entropy), of PCext over Twoing 3.48 % / 6.23 %. Measured: "
        + "; ".join(parts)
        + ". Advantage of Twoing at n >= 30: "
        + ("**agrees**" if adv_all else "**disagrees**")
        + "; more clearly for entropy (margin Twoing − PCext wins "
        f"{margin[ent]:.1f} points vs {margin[gini]:.1f} for Gini): "
        + ("**agrees**" if margin[ent] > margin[gini] else "**disagrees**")
        + ". Max excesses: "
        + "; ".join(
            f"{kind} Twoing over PCext {a:.2f} % (thesis {thesis[kind][0]} %), "
            f"PCext over Twoing {b:.2f} % (thesis {thesis[kind][1]} %)"
            for kind, _, a, b in verdicts
        )
        + " — the thesis does not say on which (n, k) its maxima were taken (its "
        "pairwise tables covered k <= 9 and not the small n), so only the order of "
        "magnitude and the asymmetry (PCext's worst case larger than Twoing's) "
        "can be compared: the asymmetry "
        + ("**agrees**" if all(b > a for _, _, a, b in verdicts) else "**disagrees**")
        + "."
    )
    out.append(text)

    # (c) superclass heuristics at small n, k
    small = [(6, 9), (12, 9)]
    lines = []
    agree = {}
    for variant, (a, b) in (
        ("k-class", (LA, LS)),
        ("superclass-scored", (LA_SC, LS_SC)),
    ):
        cells = []
        for kind in IMPURITIES:
            for c in small:
                sa = summary[c][kind][a]["mean_excess"]
                sb = summary[c][kind][b]["mean_excess"]
                oa = summary[c][kind][a]["opt"]
                ob = summary[c][kind][b]["opt"]
                winner = "LA" if sa < sb else "LS"
                want = "LA" if kind == gini else "LS"
                agree[(variant, kind, c)] = winner == want
                cells.append(
                    f"{kind} {cfg(*c)}: mean excess LA {sa:.3f} % vs LS {sb:.3f} %, "
                    f"optimum found LA {oa:.1f} % vs LS {ob:.1f} % → {winner}"
                )
        lines.append(f"{variant}: " + "; ".join(cells))
    verdict = []
    for variant in ("k-class", "superclass-scored"):
        ok_g = all(agree[(variant, gini, c)] for c in small)
        ok_e = all(agree[(variant, ent, c)] for c in small)
        verdict.append(
            f"{variant}: LA best for Gini {'**agrees**' if ok_g else '**disagrees**'}, "
            f"LS best for entropy {'**agrees**' if ok_e else '**disagrees**'}"
        )
    k3 = []
    for c in ((6, 3), (12, 3), (30, 3)):
        same = all(
            np.array_equal(data[c][0][:, IDX[a], j], data[c][0][:, IDX[b], j])
            for j in range(2)
            for a, b in ((LA, LS), (LA_SC, LS_SC))
        )
        k3.append(f"{cfg(*c)} {'identical' if same else '**different**'}")
    out.append(
        "(c) Among the superclass heuristics at small n, k (k = 9, n = 6, 12), "
        "LargestAlone is best for Gini and ListScheduling for entropy (thesis). "
        "Measured (lower mean excess over the optimum wins): "
        + " | ".join(lines)
        + ". Verdict — "
        + "; ".join(verdict)
        + ". At k = 3 both heuristics pick the same superclass (as the thesis "
        "notes): impurities " + ", ".join(k3) + "."
    )

    # (d) large n, k: LargestAlone usually the best
    big = [(50, 15), (100, 30), (200, 100)]
    cells = []
    ok = {}
    for variant, (a, b) in (
        ("k-class", (LA, LS)),
        ("superclass-scored", (LA_SC, LS_SC)),
    ):
        for j, kind in enumerate(IMPURITIES):
            for c in big:
                p = pairwise(data[c][0], a, b, j)
                ok[(variant, kind, c)] = p["a_better"] + p["tie"] > 50
                cells.append(
                    f"{variant} {kind} {cfg(*c)}: LA at least as good as LS on "
                    f"{p['a_better'] + p['tie']:.1f} % (strictly better "
                    f"{p['a_better']:.1f} %)"
                )
    verdict = []
    for variant in ("k-class", "superclass-scored"):
        for kind in IMPURITIES:
            bad = [cfg(*c) for c in big if not ok[(variant, kind, c)]]
            verdict.append(
                f"{variant} {kind}: "
                + ("**agrees**" if not bad else f"**disagrees** at {', '.join(bad)}")
            )
    overall = []
    for c in big:
        for kind in IMPURITIES:
            best = max(plan[c], key=lambda label: summary[c][kind][label]["best"])
            overall.append(
                f"{cfg(*c)} {kind}: `{best}` ({summary[c][kind][best]['best']:.1f} %)"
            )
    out.append(
        "(d) For large n, k (the thesis compares LargestAlone with ListScheduling "
        "only) LargestAlone is usually the best. Measured: "
        + "; ".join(cells)
        + ". Verdict — "
        + "; ".join(verdict)
        + ". Among all the methods we ran, the one most often best is "
        + "; ".join(overall)
        + "."
    )

    # (e) Twoing faster than PCext up to k = 7
    faster = [r["k"] for r in sweep if r["twoing"] < r["pc_ext"]]
    slower = [r["k"] for r in sweep if r["twoing"] >= r["pc_ext"]]
    mc = []
    for c in CONFIGS:
        if "twoing" in plan[c]:
            tw = np.mean([summary[c][kind]["twoing"]["ms"] for kind in IMPURITIES])
            pe = np.mean([summary[c][kind]["pc_ext"]["ms"] for kind in IMPURITIES])
            mc.append(f"{cfg(*c)} {tw:.3g} vs {pe:.3g} ms")
    crossover_ok = (
        faster and slower and max(faster) < min(slower) and 6 <= max(faster) <= 8
    )
    out.append(
        '(e) "Twoing faster than PCext up to k = 7, PCext faster beyond". '
        f"Measured at n = {SWEEP_N}: Twoing faster at k = {join(map(str, faster))}, "
        f"PCext faster at k = {join(map(str, slower))}; in the Monte Carlo "
        "(Twoing vs PCext, mean of the Gini and entropy calls): "
        + "; ".join(mc)
        + ". "
        + (
            "**agrees**"
            if crossover_ok
            else "**disagrees** (crossover not between k = 6 and 8)"
        )
        + " (times of partikit's implementations, not of the thesis's code)."
    )

    # (f) LargestAlone vs PCext at n = 200, k = 100
    c = (200, 100)
    rows = []
    for label in (LA, LA_SC):
        ratio = np.mean(
            [summary[c][kind]["pc_ext"]["ms"] / summary[c][kind][label]["ms"]
             for kind in IMPURITIES]
        )  # fmt: skip
        rows.append(f"`{label}` {ratio:.0f}x")
    pe = np.mean([summary[c][kind]["pc_ext"]["ms"] for kind in IMPURITIES])
    la = np.mean([summary[c][kind][LA]["ms"] for kind in IMPURITIES])
    out.append(
        '(f) "LargestAlone almost 50x faster than PCext at n = 200, k = 100" (the '
        "thesis ran PCext on 8 cores, LargestAlone on one). Measured, both on one "
        f"core: PCext {pe:.3g} ms, LargestAlone {la:.3g} ms per table; PCext / "
        + ", ".join(rows)
        + " (mean of the Gini and entropy ratios). The thesis's ratio was taken "
        "with PCext on 8 cores, ours with both on one core, so the ratios are not "
        "the same quantity; the direction (LargestAlone the faster) "
        + ("**agrees**" if la < pe else "**disagrees**")
        + "."
    )

    # (g) max cut
    sg, chi = "maxcut_squared_gini (GL)", "maxcut_chi2 (GL)"
    pairs = [(c, kind) for c in CONFIGS for kind in IMPURITIES]
    chi_better = [
        (c, kind)
        for c, kind in pairs
        if summary[c][kind][chi]["mean_excess"] < summary[c][kind][sg]["mean_excess"]
    ]
    top = []
    for c, kind in pairs:
        ranked = sorted(plan[c], key=lambda label: -summary[c][kind][label]["best"])
        if ranked[0] in (sg, chi):
            top.append(
                f"{cfg(*c)} {kind} (`{ranked[0]}` best on "
                f"{summary[c][kind][ranked[0]]['best']:.1f} % of the tables)"
            )

    def span(label, key):
        values = [summary[c][kind][label][key] for c, kind in pairs]
        return f"{min(values):.3g}–{max(values):.3g}"

    out.append(
        "(g) The max-cut criteria (GL squared-Gini, GL chi2) are not in the "
        "thesis's chapter-5 tables (the thesis evaluates them only on real data, "
        "chapter 6): these rows are our addition. Measured: mean excess % over "
        f"the reference across the 18 (configuration, impurity) cells: chi2 "
        f"{span(chi, 'mean_excess')}, squared-Gini {span(sg, 'mean_excess')}; "
        f"max excess %: chi2 {span(chi, 'max_excess')}, squared-Gini "
        f"{span(sg, 'max_excess')}. chi2 has the lower mean excess in "
        f"{len(chi_better)} of 18 cells. A max-cut method is the method most "
        "often best among all run at: " + join(top) + "."
    )

    # Twoing never worse than LA / LS (thesis: "the impurity it finds is never
    # worse than that of LargestAlone and ListSchedule")
    worse = []
    n_worse = n_flagged = 0
    for c in CONFIGS:
        if "twoing" not in plan[c]:
            continue
        any_worse = np.zeros(len(flags[c]), dtype=bool)
        explained = np.zeros(len(flags[c]), dtype=bool)
        for j, kind in enumerate(IMPURITIES):
            for label in (LA, LS, LA_SC, LS_SC):
                va, vb = data[c][0][:, IDX["twoing"], j], data[c][0][:, IDX[label], j]
                bad = (va > vb) & ~close(va, vb)
                any_worse |= bad
                explained |= bad & flags[c][:, 0 if label in (LA, LA_SC) else 1]
                if bad.any():
                    worse.append(f"{cfg(*c)} {kind} vs `{label}`: {int(bad.sum())}")
        n_worse += int(any_worse.sum())
        n_flagged += int((any_worse & explained).sum())
    text = (
        'Also (thesis: "since Twoing evaluates all the possible superclass '
        "partitions, the impurity it finds is never worse than that of "
        "[LargestAlone] and ListSchedule\"): tables where Twoing's impurity is "
        "worse — " + join(worse, "none") + "."
    )
    if n_worse:
        text += (
            f" **Disagrees** on {n_worse} table{'s' if n_worse > 1 else ''}. In "
            f"{n_flagged} of {'them' if n_worse > 1 else 'it'} the "
            "superclass of the heuristic that beat Twoing holds the last class and "
            "the rows' shares of that superclass have ties: `twoing` enumerates the "
            "superclasses with the last class outside, so it meets that superclass "
            "as its complement, sorted the other way, where tied rows (stable "
            "sort) come in a different order and give different prefixes to score "
            "by the k-class impurity."
        )
    out.append(text)
    return out


if __name__ == "__main__":
    main()
