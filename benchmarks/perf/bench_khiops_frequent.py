# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""KhiopsGrouper when tens of thousands of categories are frequent (``exact_limit``).

Data: ``make_grouped_categorical(200 * c, c, 10, 5, random_state=0)`` for ``c`` =
10,000, 30,000 and 100,000 categories: about 200 rows per category, far above the
minimum frequency (Cochran's rule, about 50 rows here), so every category starts
the merging on its own, with 5 hidden groups of categories. Measured in this one
process, after a warm-up fit on small data: the fit time of ``KhiopsGrouper()``
(``exact_limit=10_000``: past it, merges inside blocks of similar categories first)
and of ``KhiopsGrouper(exact_limit=None)`` (the exact merge of every frequent
category, O(I^2 J)), the groups and the adjusted Rand index
(ARI) of the categories' groups against the hidden ones; and Khiops
(``khiops.sklearn.KhiopsEncoder``) on the same column as strings. Then the merging
alone (``khiops_grouping`` on a table) at 1,000,000 frequent categories x 10
classes and 20,000 x 500 classes.

    python benchmarks/perf/bench_khiops_frequent.py [--quick] [--output FILE]
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# the shared helpers (_common.py) live one folder up, the other benchmarks here
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
from _common import (  # noqa: E402
    Report,
    RunContext,
    ensure_khiops_path,
    finish,
    first_line,
    parse_args,
    progress,
    quiet_peer_warnings,
    script_path,
    table,
    time_call,
)
from bench_khiops_grouper import khiops_labels  # noqa: E402
from sklearn.metrics import adjusted_rand_score  # noqa: E402

NAME = "bench_khiops_frequent"
N_CLASSES = 10
N_GROUPS = 5
ROWS_PER_CATEGORY = 200
REPEATS = 3  # when a fit takes under SINGLE_RUN seconds
SINGLE_RUN = 5.0
#: the exact merge at 100,000 categories takes about a minute: run once
EXACT_UP_TO = 100_000


def _labels(grouper, cats):
    where = dict(zip(grouper.categories_[0], grouper.group_ids_[0], strict=True))
    return np.array([where[c] for c in cats])


def main():
    args = parse_args(__doc__.splitlines()[0])
    ensure_khiops_path()
    quiet_peer_warnings()
    sizes = (2_000, 12_000) if args.quick else (10_000, 30_000, 100_000)
    context = RunContext(
        "perf/" + os.path.basename(__file__), args.quick, with_khiops=True
    )

    from partikit.datasets import make_grouped_categorical
    from partikit.groupers import KhiopsGrouper, khiops_grouping

    try:
        from khiops.sklearn import KhiopsEncoder
    except Exception as exc:  # noqa: BLE001
        KhiopsEncoder = first_line(exc)

    # numba's cache load (or compile) and Khiops' runner set-up, not timed
    X, y, _ = make_grouped_categorical(2000, 20, 3, 2, random_state=0)
    KhiopsGrouper().fit(X, y)
    if not isinstance(KhiopsEncoder, str):
        try:
            KhiopsEncoder().fit(X.astype(str), y)
        except Exception as exc:  # noqa: BLE001
            KhiopsEncoder = first_line(exc)

    rows = []
    for n_categories in sizes:
        n_samples = ROWS_PER_CATEGORY * n_categories
        X, y, hidden = make_grouped_categorical(
            n_samples, n_categories, N_CLASSES, N_GROUPS, random_state=0
        )
        cats = np.unique(X["category"].to_numpy())
        truth = hidden.loc[cats].to_numpy()
        runs = [("KhiopsGrouper()", {})]
        if n_categories <= EXACT_UP_TO:
            runs.append(("KhiopsGrouper(exact_limit=None)", {"exact_limit": None}))
        for name, params in runs:
            progress(f"{name} at {n_categories:,} categories")
            t = time_call(
                lambda params=params: KhiopsGrouper(**params).fit(X, y),
                REPEATS,
                single_if_slower_than=SINGLE_RUN,
            )
            grouper = t.result
            stats = grouper.statistics_[0]
            rows.append(
                [
                    name,
                    f"{n_categories:,}",
                    f"{n_samples:,}",
                    t.cell(),
                    f"{stats['n_initial_groups']:,}",
                    f"{stats['n_local_merges']:,}",
                    f"{stats['min_frequency']:.0f}",
                    int(grouper.n_groups_[0]),
                    f"{adjusted_rand_score(truth, _labels(grouper, cats)):.3f}",
                ]
            )
        if isinstance(KhiopsEncoder, str):
            rows.append(["khiops KhiopsEncoder()", f"{n_categories:,}", "",
                         "not run: " + KhiopsEncoder, "", "", "", "", ""])  # fmt: skip
            continue
        progress(f"Khiops at {n_categories:,} categories")
        X_str = X.astype(str)
        try:
            t = time_call(
                lambda: KhiopsEncoder().fit(X_str, y), 1, single_if_slower_than=0.0
            )
            n_parts, labels, _ = khiops_labels(t.result, cats)
            rows.append(
                [
                    "khiops KhiopsEncoder() (str column)",
                    f"{n_categories:,}",
                    f"{n_samples:,}",
                    t.cell(),
                    "",
                    "",
                    "",
                    n_parts,
                    f"{adjusted_rand_score(truth, labels):.3f}",
                ]
            )
        except Exception as exc:  # noqa: BLE001
            rows.append(["khiops KhiopsEncoder() (str column)", f"{n_categories:,}",
                         f"{n_samples:,}", "error: " + first_line(exc),
                         "", "", "", "", ""])  # fmt: skip

    # stage 2 alone at the scale no in-memory sample of rows reaches here: the
    # table of a million frequent categories, and one of 500 classes
    table_rows = []
    rng = np.random.default_rng(0)
    scales = (
        ((20_000, 10, 200), (20_000, 50, 1000))
        if args.quick
        else ((1_000_000, 10, 200), (20_000, 500, 5000))
    )
    for n_categories, n_classes, n_rows in scales:
        hidden = rng.integers(0, N_GROUPS, n_categories)
        profiles = rng.dirichlet(np.ones(n_classes), N_GROUPS)
        counts = np.empty((n_categories, n_classes))
        for g in range(N_GROUPS):
            members = hidden == g
            counts[members] = rng.multinomial(n_rows, profiles[g], members.sum())
        progress(f"khiops_grouping on {n_categories:,} x {n_classes} table")
        t = time_call(
            lambda counts=counts: khiops_grouping(counts), REPEATS,
            single_if_slower_than=SINGLE_RUN,
        )  # fmt: skip
        result = t.result
        table_rows.append(
            [
                f"{n_categories:,} x {n_classes}",
                f"{n_rows:,}",
                t.cell(),
                f"{result.statistics['n_local_merges']:,}",
                result.n_groups,
                f"{adjusted_rand_score(hidden, result.group_ids):.3f}",
            ]
        )

    report = Report(NAME)
    report.add(
        f"## KhiopsGrouper with tens of thousands of frequent categories ({script_path(NAME)})"
    )
    report.add()
    report.add(
        f"Data: `make_grouped_categorical({ROWS_PER_CATEGORY} * c, c, {N_CLASSES}, "
        f"{N_GROUPS}, random_state=0)`: about {ROWS_PER_CATEGORY} rows per category, "
        "every category above the minimum frequency, 5 hidden groups. Times: "
        f"time.perf_counter after a warm-up fit on small data; the median of "
        f"{REPEATS} fits (min–max) when the first took under {SINGLE_RUN:.0f} s, "
        "else that one fit. Khiops: one fit (it writes the rows to a file and runs "
        "its binary on all cores). ARI: adjusted Rand index of the categories' groups "
        "against the hidden groups."
    )
    report.add()
    report.header(context)
    report.add()
    report.add(
        table(
            [
                "estimator",
                "categories",
                "rows",
                "fit s",
                "initial groups",
                "merges inside blocks",
                "min_frequency",
                "groups",
                "ARI",
            ],
            rows,
        )
    )
    report.add()
    report.add(
        "Stage 2 alone (`khiops_grouping` on a table of categories x classes, "
        f"{N_GROUPS} hidden class profiles, multinomial counts of a fixed number "
        "of rows per category):"
    )
    report.add()
    report.add(
        table(
            [
                "table",
                "rows per category",
                "khiops_grouping s",
                "local merges",
                "groups",
                "ARI",
            ],
            table_rows,
        )  # fmt: skip
    )
    finish(report, args.output)


if __name__ == "__main__":
    main()
