# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Calibrate MaxDeltaChi2 of the robust Khiops grouping and discretization.

For an attribute independent of the class, run the bottom-up merge all the way
down to one group and record the largest DeltaChi2 met on the way (MaxDeltaChi2).
Boulle found, and this script lets anyone check, that its distribution depends only
on the number of initial groups I and of classes J, not on the sample size nor on
the distributions of categories and classes, and that it is close to a normal law.
The script simulates it over a grid of (I, J), records its mean, standard deviation
and empirical quantiles, and writes the table that ``KhiopsGrouper`` ships and
interpolates (``partikit/groupers/_data/khiops_max_delta_chi2.csv``).

The normal law is fitted to the upper tail, where its quantile is used: least
squares of ``mean + z_p * std`` on the simulated quantiles at p = 0.90, 0.95 and
0.99 (columns ``tail_mean``, ``tail_std``, which the estimator reads). The law of
MaxDeltaChi2 is right-skewed at small I, so the normal law with the sample mean and
standard deviation (also recorded, columns ``mean`` and ``std``) under-covers it:
about 0.92 instead of 0.95 at I = 5.

Each simulated attribute has I equally frequent categories of ``ROWS_PER_CATEGORY``
rows (at least ``MIN_ROWS_PER_CELL`` per class: 2,500 for 500 classes, the
minimum frequency the estimators apply there) and J equiprobable classes; its
contingency table is drawn directly (one multinomial per category), which is
exactly the table of such rows. Equal category frequencies are the conservative
choice: skewed frequencies give smaller maxima (checked by
``--check-conjectures``).

The discretization (``--discretization``) is calibrated the same way, with merges of
*adjacent* intervals only (a random order of the values makes an independent
attribute): its maxima are smaller, and it starts from many more intervals, so its
grid of I reaches 20,000; ``KhiopsDiscretizer`` interpolates it in ``log I``,
in which the maxima grow about linearly, and extends it that way beyond. It writes
``partikit/discretizers/_data/khiops_discretization_max_delta_chi2.csv``, which
``KhiopsDiscretizer`` reads.

Usage::

    python tools/calibrate_khiops.py                      # writes the shipped table
    python tools/calibrate_khiops.py --discretization     # the discretization table
    python tools/calibrate_khiops.py --check-conjectures  # prints the invariance check
    python tools/calibrate_khiops.py --refit   # recompute the tail fit of the table
    python tools/calibrate_khiops.py --classes 100,200,500  # add or redo columns

The run is deterministic: every grid cell draws from its own seed derived from
``SEED`` and (I, J). Each table takes about 10 to 20 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from scipy.stats import norm

from partikit._kernels._khiops import adjacent_merge_sequence, chi2_merge_sequence

SEED = 20041
ROWS_PER_CATEGORY = 500
GROUPS_GRID = (
    2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 120, 150, 200,
    250, 300, 400, 500, 700, 1000, 1500,
)  # fmt: skip
CLASSES_GRID = (2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 30, 50, 100, 200, 500)
#: Expected rows per cell of a simulated category, at least: Cochran's rule, which
#: the estimators' minimum frequency applies, for many classes (500 rows per
#: category hold 5 per class up to 100 classes; 500 classes take 2,500).
MIN_ROWS_PER_CELL = 5
INTERVALS_GRID = GROUPS_GRID + (2000, 3000, 5000, 7000, 10000, 20000)
# The largest cells cost O(I^2 J) per simulation; fewer repetitions there keep the
# run short while the standard error of the fitted standard deviation stays ~3%.
LARGE_CELL = 400 * 400 * 10
OUTPUT = os.path.join(
    os.path.dirname(__file__),
    "..",
    "partikit",
    "groupers",
    "_data",
    "khiops_max_delta_chi2.csv",
)


DISCRETIZATION_OUTPUT = os.path.join(
    os.path.dirname(__file__),
    "..",
    "partikit",
    "discretizers",
    "_data",
    "khiops_discretization_max_delta_chi2.csv",
)


def n_simulations(n_groups: int, n_classes: int, adjacent: bool = False) -> int:
    """Number of simulated attributes for one grid cell."""
    if adjacent:
        # Adjacent merges cost O(I (J + log I)) per simulation.
        if n_groups * n_classes <= 20_000:
            return 2000
        return 500 if n_groups <= 3000 else 200
    if n_groups * n_groups * n_classes <= LARGE_CELL:
        return 2000
    return 500


def max_delta_chi2(table: np.ndarray) -> float:
    """Largest DeltaChi2 of the full bottom-up merge of a table to one group."""
    table = table[table.sum(axis=1) > 0]
    table = table[:, table.sum(axis=0) > 0]
    if table.shape[0] < 2 or table.shape[1] < 2:
        return 0.0
    delta = chi2_merge_sequence(table)[2]
    return float(delta.max())


def max_delta_chi2_adjacent(table: np.ndarray) -> float:
    """Largest DeltaChi2 of the full bottom-up merge of adjacent rows to one."""
    table = table[table.sum(axis=1) > 0]
    table = table[:, table.sum(axis=0) > 0]
    if table.shape[0] < 2 or table.shape[1] < 2:
        return 0.0
    delta = adjacent_merge_sequence(table, 0.0)[3]
    return float(delta.max())


def simulate_cell(
    n_groups: int,
    n_classes: int,
    n_sim: int,
    rows_per_category=ROWS_PER_CATEGORY,
    category_weights=None,
    class_weights=None,
    seed=SEED,
    adjacent=False,
) -> np.ndarray:
    """MaxDeltaChi2 of ``n_sim`` attributes independent of the class.

    ``adjacent=True`` merges adjacent rows only (the discretization).
    """
    statistic = max_delta_chi2_adjacent if adjacent else max_delta_chi2
    rng = np.random.default_rng([seed, n_groups, n_classes])
    q = (
        np.full(n_classes, 1.0 / n_classes)
        if class_weights is None
        else np.asarray(class_weights) / np.sum(class_weights)
    )
    values = np.empty(n_sim)
    for s in range(n_sim):
        if category_weights is None:
            sizes = np.full(n_groups, rows_per_category)
        else:
            sizes = rng.multinomial(rows_per_category * n_groups, category_weights)
        table = rng.multinomial(sizes, q).astype(np.float64)
        values[s] = statistic(table)
    return values


TAIL_PROBABILITIES = (0.90, 0.95, 0.99)


def tail_normal_fit(quantiles):
    """Mean and standard deviation of the normal law fitted to upper quantiles.

    Least squares of ``mean + z_p * std`` on the quantiles at
    ``TAIL_PROBABILITIES``.
    """
    z = norm.ppf(TAIL_PROBABILITIES)
    design = np.column_stack([np.ones_like(z), z])
    (mean, std), *_ = np.linalg.lstsq(design, np.asarray(quantiles, float), rcond=None)
    return float(mean), float(std)


def write_table(rows, output, header):
    """Write the table: one row per (I, J) cell, with the tail fit appended."""
    with open(output, "w") as f:
        f.write(header)
        f.write(
            "n_groups,n_classes,n_simulations,mean,std,q90,q95,q99,tail_mean,tail_std\n"
        )
        for r in sorted(rows):
            tail_mean, tail_std = tail_normal_fit(r[5:8])
            f.write(
                f"{r[0]},{r[1]},{r[2]},{r[3]:.6g},{r[4]:.6g},{r[5]:.6g},"
                f"{r[6]:.6g},{r[7]:.6g},{tail_mean:.6g},{tail_std:.6g}\n"
            )


def read_table(output):
    """The header line and the simulated cells (their first 8 columns) of a table."""
    with open(output) as f:
        header = f.readline()
        f.readline()
        rows = [
            tuple(
                int(v) if k < 3 else float(v)
                for k, v in enumerate(line.strip().split(",")[:8])
            )
            for line in f
            if line.strip()
        ]
    return header, rows


def refit(output):
    """Recompute the tail fit of an existing table from its quantiles."""
    header, rows = read_table(output)
    write_table(rows, output, header)


def rows_per_category(n_classes: int) -> int:
    """Rows of a simulated category: ``ROWS_PER_CATEGORY``, or more for many
    classes (``MIN_ROWS_PER_CELL`` expected per class)."""
    return max(ROWS_PER_CATEGORY, MIN_ROWS_PER_CELL * n_classes)


def _cell(args):
    n_groups, n_classes, adjacent = args
    n_sim = n_simulations(n_groups, n_classes, adjacent)
    start = time.perf_counter()
    values = simulate_cell(
        n_groups, n_classes, n_sim, rows_per_category(n_classes), adjacent=adjacent
    )
    elapsed = time.perf_counter() - start
    quantiles = np.quantile(values, [0.90, 0.95, 0.99])
    return (
        n_groups,
        n_classes,
        n_sim,
        values.mean(),
        values.std(ddof=1),
        *quantiles,
        elapsed,
    )


def calibrate(output: str, workers: int, adjacent: bool = False, classes=None) -> None:
    """Simulate every grid cell and write the table.

    With ``classes``, only the cells of those numbers of classes are simulated,
    and they replace or join the cells of the table already in ``output`` (each
    cell draws from its own seed: the others are what a full run gives).
    """
    grid = INTERVALS_GRID if adjacent else GROUPS_GRID
    cells = [(i, j, adjacent) for i in grid for j in classes or CLASSES_GRID]
    # Largest cells first so that the two workers finish together.
    cells.sort(key=lambda c: -c[0] * (1 if adjacent else c[0]) * c[1])
    # compile once before forking
    chi2_merge_sequence(np.ones((3, 2)))
    adjacent_merge_sequence(np.ones((3, 2)), 0.0)
    rows = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for row in pool.map(_cell, cells):
            rows.append(row)
            print(
                f"I={row[0]:5d} J={row[1]:3d} n={row[2]:5d} mean={row[3]:9.3f} "
                f"std={row[4]:8.3f} q95={row[6]:9.3f} ({row[8]:.1f} s)",
                file=sys.stderr,
            )
    today = datetime.date.today().isoformat()
    header = (
        f"# MaxDeltaChi2 of the robust Khiops "
        f"{'discretization' if adjacent else 'grouping'}, simulated by "
        f"tools/calibrate_khiops.py (seed {SEED}, "
        f"{ROWS_PER_CATEGORY} rows per {'interval' if adjacent else 'category'}, "
        f"at least {MIN_ROWS_PER_CELL} per class) on {today}.\n"
    )
    rows = [r[:8] for r in rows]
    if classes:
        new = {(r[0], r[1]) for r in rows}
        old_header, old_rows = read_table(output)
        rows += [r for r in old_rows if (r[0], r[1]) not in new]
        header = old_header.rstrip("\n") + (
            f" Cells of {', '.join(map(str, classes))} classes simulated on "
            f"{today} (at least {MIN_ROWS_PER_CELL} rows per class).\n"
        )
    write_table(rows, output, header)


def check_conjectures() -> None:
    """Print MaxDeltaChi2 statistics across sample sizes and distributions."""
    zipf = lambda n: (w := np.arange(1, n + 1) ** -1.1) / w.sum()  # noqa: E731
    print("I J setting mean std q95")
    for n_groups, n_classes in [(10, 2), (20, 3), (50, 10), (200, 3)]:
        settings = {
            "30 rows/category": {"rows_per_category": 30},
            "2000 rows/category": {"rows_per_category": 2000},
            "Zipf categories": {"category_weights": zipf(n_groups)},
            "skewed classes": {"class_weights": np.arange(1, n_classes + 1) ** -2.0},
        }
        for name, kwargs in settings.items():
            v = simulate_cell(n_groups, n_classes, 500, **kwargs)
            print(
                f"{n_groups} {n_classes} {name}: {v.mean():.2f} {v.std():.2f} "
                f"{np.quantile(v, 0.95):.2f}"
            )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default=None)
    parser.add_argument(
        "--discretization",
        action="store_true",
        help="calibrate the adjacent merges of KhiopsDiscretizer",
    )
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--check-conjectures", action="store_true")
    parser.add_argument(
        "--refit",
        action="store_true",
        help="recompute tail_mean and tail_std of --output",
    )
    parser.add_argument(
        "--classes",
        default=None,
        help="comma-separated numbers of classes: simulate only their cells and "
        "merge them into the table already in --output",
    )
    args = parser.parse_args(argv)
    if args.output is None:
        args.output = DISCRETIZATION_OUTPUT if args.discretization else OUTPUT
    if args.check_conjectures:
        check_conjectures()
    elif args.refit:
        refit(os.path.abspath(args.output))
    else:
        classes = [int(j) for j in args.classes.split(",")] if args.classes else None
        calibrate(
            os.path.abspath(args.output), args.workers, args.discretization, classes
        )


if __name__ == "__main__":
    main()
