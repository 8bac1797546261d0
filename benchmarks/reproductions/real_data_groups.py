# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Groups found by KhiopsGrouper and by Khiops (MODL) on adult and mushroom.

Reads ``shared/datasets/{adult,mushroom}/data.csv`` beside the repository (or the
folder named by ``$PARTIKIT_DATASETS``): a header line, plain comma split, ``?`` is
a missing value. A column is nominal if some non-missing value does not parse as a
number; missing values are kept as their own category (NaN). KhiopsGrouper is fitted
on all nominal columns at once, and khiops.sklearn.KhiopsEncoder on the same columns;
the table lists, per column, the categories, partikit's groups, Khiops' MODL groups
(from its preparation report) and partikit's log10 p-value.

    PATH="$VIRTUAL_ENV/bin:$PATH" python benchmarks/reproductions/real_data_groups.py [--quick]

``--quick`` uses the first 5,000 rows of each file.
"""

from __future__ import annotations

import os
import re
import sys
import warnings

# the shared helpers (_common.py) live one folder up
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from _common import (  # noqa: E402
    DATASETS_DIR,
    Report,
    RunContext,
    ensure_khiops_path,
    finish,
    first_line,
    fmt_s,
    progress,
    quiet_peer_warnings,
    read_dataset,
    script_path,
    table,
    time_call,
)

NAME = "real_data_groups"
DATASETS = [("adult", "income"), ("mushroom", "class")]
MISSING = "?"
PARTIKIT_REPEATS = 5
KHIOPS_REPEATS = 3
# Python <= 3.5 float(): no underscores between digits (the datasets' loader rule).
_NUMBER = re.compile(
    r"^\s*[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|"
    r"inf|infinity|nan)\s*$",
    re.I,
)


def is_number(text):
    return bool(_NUMBER.match(text))


def load(folder, target, n_rows=None):
    """Nominal columns (missing as NaN) and the target of one dataset folder."""
    frame, _ = read_dataset(folder, n_rows)
    y = frame.pop(target).to_numpy(dtype=object)
    nominal = []
    for name in frame.columns:
        values = frame[name].unique()
        if any(v != MISSING and not is_number(v) for v in values):
            nominal.append(name)
    X = frame[nominal].astype(object).where(frame[nominal] != MISSING, np.nan)
    return X, y


def khiops_groups(encoder, name):
    """(groups, level) of one variable in Khiops' preparation report."""
    stats = encoder.model_report_.preparation_report.get_variable_statistics(name)
    if stats.data_grid is None:
        return int(stats.part_number or 1), stats.level
    return len(stats.data_grid.dimensions[0].partition), stats.level


def main():
    from _common import parse_args

    args = parse_args(__doc__.splitlines()[0])
    ensure_khiops_path()
    quiet_peer_warnings()
    context = RunContext(os.path.basename(__file__), args.quick, with_khiops=True)
    report = Report(NAME)
    report.add(f"## Groups on real data: adult and mushroom ({script_path(NAME)})")
    report.add()
    report.header(context)
    report.add()

    if not os.path.isdir(DATASETS_DIR):
        report.add(f"**Skipped**: the datasets folder `{DATASETS_DIR}` is absent.")
        finish(report, args.output)
        return

    from partikit.groupers import KhiopsGrouper

    try:
        from khiops.sklearn import KhiopsEncoder
    except Exception as exc:  # noqa: BLE001
        KhiopsEncoder = None
        khiops_import_error = first_line(exc)

    report.add(
        "Files read with a plain comma split (header line, no quoting), every value a "
        "string; `?` = missing. A column is nominal if some non-missing value does not "
        "parse as a number (Python <= 3.5 `float` rules); the target is excluded. "
        "Missing values stay in the data as NaN: partikit groups them as their own "
        "category, Khiops reads them as its empty (missing) value. Both tools are "
        "fitted once on all nominal columns of a dataset, with default parameters "
        '(`KhiopsGrouper()`, `KhiopsEncoder()`). "categories" counts the missing '
        "category when present (marked +NaN). Khiops reports an uninformative "
        "variable as 1 group with level 0. Fit times: one warm-up excluded, median "
        f"(min–max, n) of {PARTIKIT_REPEATS} (partikit) / {KHIOPS_REPEATS} (Khiops) "
        "repeats."
    )
    report.add()

    for dataset, target in DATASETS:
        path = os.path.join(DATASETS_DIR, dataset, "data.csv")
        if not os.path.exists(path):
            report.add(f"### {dataset}\n\n**Skipped**: `{path}` is absent.\n")
            continue
        progress(dataset)
        X, y = load(dataset, target, 5000 if args.quick else None)
        classes, counts = np.unique(y, return_counts=True)
        report.add(f"### {dataset} (`{path}`)")
        report.add()
        report.add(
            f"{len(X):,} rows (rows with missing values kept), target `{target}` "
            f"({', '.join(f'{c!r}: {k:,}' for c, k in zip(classes, counts))}), "
            f"{X.shape[1]} nominal columns."
        )
        report.add()

        caught = []
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            t_pk = time_call(
                lambda X=X, y=y: KhiopsGrouper().fit(X, y), PARTIKIT_REPEATS
            )
        caught = sorted(
            {
                str(m.message).splitlines()[0]
                for m in w
                if issubclass(m.category, UserWarning) and "Feature" in str(m.message)
            }
        )
        grouper = t_pk.result

        kh_error, t_kh = None, None
        if KhiopsEncoder is None:
            kh_error = "not importable: " + khiops_import_error
        else:
            try:
                t_kh = time_call(
                    lambda X=X, y=y: KhiopsEncoder().fit(X, y), KHIOPS_REPEATS
                )
            except Exception as exc:  # noqa: BLE001
                kh_error = first_line(exc)

        rows = []
        for j, name in enumerate(X.columns):
            cats = grouper.categories_[j]
            has_nan = len(cats) > 0 and pd.isna(cats[-1])
            stats = grouper.statistics_[j]
            if t_kh is not None:
                try:
                    kh_groups, kh_level = khiops_groups(t_kh.result, name)
                    kh_cells = [str(kh_groups), f"{kh_level:.4g}"]
                except Exception as exc:  # noqa: BLE001
                    kh_cells = ["error: " + first_line(exc), "–"]
            else:
                kh_cells = ["failed", "–"]
            rows.append(
                [
                    f"`{name}`",
                    f"{len(cats)}" + (" (+NaN)" if has_nan else ""),
                    str(grouper.n_groups_[j]),
                    kh_cells[0],
                    f"{stats['log10_pvalue']:.1f}",
                    kh_cells[1],
                ]
            )
        report.add(
            table(
                [
                    "column",
                    "categories",
                    "partikit groups",
                    "Khiops MODL groups",
                    "partikit log10 p-value",
                    "Khiops level",
                ],
                rows,
            )
        )
        report.add()
        line = f"Fit of all {X.shape[1]} columns: partikit {t_pk.cell()} s"
        if t_kh is not None:
            line += (
                f"; Khiops {t_kh.cell()} s (Khiops / partikit = "
                f"{t_kh.median / t_pk.median:.0f}x)"
            )
        if kh_error:
            line += f"; **Khiops failed**: {kh_error}"
        first = (
            "first call in the process, numba cache load included"
            if dataset == DATASETS[0][0]
            else "warm-up call"
        )
        report.add(line + f". partikit {first}: {fmt_s(t_pk.first)} s.")
        if caught:
            report.add()
            report.add("partikit warnings: " + "; ".join(caught))
        report.add()

    finish(report, args.output)


if __name__ == "__main__":
    main()
