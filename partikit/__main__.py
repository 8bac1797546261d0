# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Command line: ``partikit demo`` and ``partikit report DATA --target COL``.

``partikit`` (or ``python -m partikit``) with a command: ``demo`` runs partikit on
built-in synthetic data, ``report`` partitions every column of a CSV or Parquet
file against a target column and writes an HTML report, the learned mapping as
JSON and as SQL.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from partikit._reporting._command import (
    CommandError,
    add_report_arguments,
    report_command,
)


def demo(n_samples: int = 20_000, random_state: int = 0, out=sys.stdout) -> None:
    """Fit the groupers on synthetic data with a known grouping and print it, then
    discretize a synthetic numeric column and print the cut points found, search
    which columns to aggregate, and grow partition trees."""
    from sklearn.metrics import adjusted_rand_score

    from partikit import KhiopsGrouper, MaxCutGrouper
    from partikit.datasets import make_grouped_categorical

    X, y, hidden = make_grouped_categorical(
        n_samples=n_samples,
        n_categories=24,
        n_classes=4,
        n_groups=4,
        frequencies="zipf",
        signal=0.3,
        n_noise_features=1,
        random_state=random_state,
    )
    print(
        f"Synthetic data: {n_samples} rows, column 'category' has 24 categories in 4 "
        "hidden groups\n(group g favours class g), column 'noise_0' has 24 "
        "categories independent of the class.\n",
        file=out,
    )
    start = time.perf_counter()
    grouper = KhiopsGrouper().fit(X, y)
    elapsed = time.perf_counter() - start
    print(
        f"KhiopsGrouper().fit took {elapsed:.2f} s (the first run includes numba "
        "compilation, cached afterwards).\n",
        file=out,
    )
    for j, name in enumerate(grouper.feature_names_in_):
        stats = grouper.statistics_[j]
        print(
            f"Column {name!r}: {stats['n_categories']} categories -> "
            f"{grouper.n_groups_[j]} group(s); chi2 = {stats['chi2']:.1f}, "
            f"dof = {stats['dof']}, log10 p-value = {stats['log10_pvalue']:.1f}",
            file=out,
        )
        table = grouper.table_[j]
        for g, members in enumerate(grouper.groups_[j]):
            shares = table[g] / table[g].sum()
            profile = " ".join(
                f"{c}:{s:4.0%}" for c, s in zip(grouper.classes_, shares, strict=True)
            )
            default = (
                "  <- unseen categories go here"
                if (g == grouper.default_group_[j])
                else ""
            )
            print(
                f"  group {g}: {len(members):2d} categories, "
                f"{int(table[g].sum()):6d} rows, classes {profile}{default}",
                file=out,
            )
            print(f"           {', '.join(map(str, members))}", file=out)
        if name == "category":
            found = dict(
                zip(grouper.categories_[j], grouper.group_ids_[j], strict=True)
            )
            ari = adjusted_rand_score(
                hidden.to_numpy(), [found[c] for c in hidden.index]
            )
            print(
                f"  adjusted Rand index with the hidden grouping: {ari:.3f}", file=out
            )
        print(file=out)
    binary = MaxCutGrouper().fit(X[["category"]], y)
    stats = binary.statistics_[0]
    print(
        "MaxCutGrouper().fit on 'category': two groups, the sides of a large cut of "
        "the graph\nof categories (edge weight: chi2 of two categories against the "
        f"class).\nCut weight {stats['cut_weight']:.1f}, certified at least "
        f"{stats['certified_ratio']:.0%} of the maximum cut.",
        file=out,
    )
    for g, members in enumerate(binary.groups_[0]):
        print(f"  group {g}: {', '.join(map(str, members))}", file=out)
    print(file=out)
    encoded = grouper.transform(X.head(5))
    print("transform of the first 5 rows (group ids):", file=out)
    print(np.column_stack([X.head(5).to_numpy(), encoded.astype(int)]), file=out)
    print(file=out)
    discretization_demo(random_state=random_state, out=out)
    aggregation_demo(random_state=random_state, out=out)
    tree_demo(random_state=random_state, out=out)


def discretization_demo(
    n_samples: int = 100_000, random_state: int = 0, out=sys.stdout
) -> None:
    """Discretize a column with hidden cut points and print the cuts found."""
    from partikit import BlockOptDiscretizer, MDLPDiscretizer
    from partikit.datasets import make_interval_target

    X, y, hidden = make_interval_target(
        n_samples=n_samples,
        n_classes=10,
        n_intervals=8,
        n_noise_features=1,
        random_state=random_state,
    )
    names = ["x", "noise"]
    print(
        f"Discretization: {n_samples} rows, column 'x' (uniform on [0, 1)) has a "
        f"class (10 classes) that\ndepends on {len(hidden) + 1} hidden intervals, "
        "column 'noise' is independent of the class.",
        file=out,
    )
    print(f"  hidden cut points: {_format_cuts(hidden)}\n", file=out)
    for label, discretizer in [
        ("MDLPDiscretizer()", MDLPDiscretizer()),
        (
            "BlockOptDiscretizer(exact_limit=256)",
            BlockOptDiscretizer(exact_limit=256),
        ),
    ]:
        start = time.perf_counter()
        discretizer.fit(X, y)
        elapsed = time.perf_counter() - start
        print(
            f"{label}.fit took {elapsed:.2f} s (the first run includes numba "
            "compilation).",
            file=out,
        )
        for j, name in enumerate(names):
            cuts = discretizer.bin_edges_[j][1:-1]
            line = f"  Column {name!r}: {discretizer.n_bins_[j]} interval(s)"
            if len(cuts):
                line += f", cut points {_format_cuts(cuts)}"
            print(line, file=out)
        found = discretizer.bin_edges_[0][1:-1]
        if len(found):
            error = np.abs(found[:, None] - hidden[None, :]).min(axis=0).max()
            print(
                f"  largest distance from a hidden cut point to a cut found: "
                f"{error:.1e}",
                file=out,
            )
        print(file=out)


def aggregation_demo(
    n_samples: int = 5_000, random_state: int = 0, out=sys.stdout
) -> None:
    """Search which columns to aggregate on a k-of-n problem and print them."""
    from partikit import AttributeAggregator, KhiopsGrouper
    from partikit.datasets import make_k_of_n

    X, y = make_k_of_n(
        n_samples=n_samples, n_noise_features=3, random_state=random_state
    )
    print(
        f"Aggregation: {n_samples} rows of 5 binary tests (class 1 when at least 3 "
        "are positive,\n10% of the labels flipped) and 3 binary noise columns.",
        file=out,
    )
    start = time.perf_counter()
    aggregator = AttributeAggregator(
        search="greedy", grouper=KhiopsGrouper(), keep_original=False
    ).fit(X, y)
    elapsed = time.perf_counter() - start
    print(
        f'AttributeAggregator(search="greedy", grouper=KhiopsGrouper()).fit took '
        f"{elapsed:.2f} s.",
        file=out,
    )
    for members, n_values in zip(
        aggregator.aggregates_, aggregator.n_combinations_, strict=True
    ):
        print(
            f"  aggregate {'*'.join(members)}: {n_values} combinations -> "
            f"{aggregator.grouper_.n_groups_[-1]} group(s)",
            file=out,
        )
        for g, combinations in enumerate(aggregator.grouper_.groups_[-1]):
            positives = sorted({c.count("pos") for c in combinations})
            print(
                f"    group {g}: {len(combinations)} combinations with "
                f"{', '.join(map(str, positives))} positive test(s)",
                file=out,
            )
    print(file=out)


def tree_demo(n_samples: int = 20_000, random_state: int = 0, out=sys.stdout) -> None:
    """Grow a partition tree on a 300-category column and compare it with a
    scikit-learn tree on the one-hot encoding."""
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import OneHotEncoder
    from sklearn.tree import DecisionTreeClassifier

    from partikit.datasets import make_grouped_categorical
    from partikit.tree import PartitionTreeClassifier, export_text

    X, y, _ = make_grouped_categorical(
        n_samples=n_samples,
        n_categories=300,
        n_classes=3,
        n_groups=3,
        signal=0.5,
        n_noise_features=2,
        dtype="object",
        random_state=random_state,
    )
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.25, random_state=random_state, stratify=y
    )
    print(
        f"Tree: {n_samples} rows, column 'category' has 300 categories in 3 hidden "
        "groups, 2 noise columns;\n75% to train, 25% to test.",
        file=out,
    )
    for split in ("maxcut_chi2", "khiops"):
        tree = PartitionTreeClassifier(categorical_split=split, alpha_split=0.01)
        start = time.perf_counter()
        tree.fit(X_train, y_train)
        elapsed = time.perf_counter() - start
        print(
            f"PartitionTreeClassifier(categorical_split={split!r}, alpha_split=0.01)"
            f".fit took {elapsed:.2f} s:\n  {tree.get_n_leaves()} leaves, test "
            f"accuracy {tree.score(X_test, y_test):.3f}",
            file=out,
        )
    encoder = OneHotEncoder(handle_unknown="ignore").fit(X_train)
    sklearn_tree = DecisionTreeClassifier(random_state=random_state)
    sklearn_tree.fit(encoder.transform(X_train), y_train)
    accuracy = sklearn_tree.score(encoder.transform(X_test), y_test)
    print(
        f"sklearn DecisionTreeClassifier on {encoder.transform(X_test).shape[1]} "
        f"one-hot columns: {sklearn_tree.get_n_leaves()} leaves, test accuracy "
        f"{accuracy:.3f}",
        file=out,
    )
    print("The khiops tree (one child per group of categories):", file=out)
    print(export_text(tree, max_members=6), file=out)


def _format_cuts(cuts) -> str:
    return " ".join(f"{c:.4f}" for c in cuts)


def build_parser():
    """The command line's argument parser."""
    from partikit._version import __version__

    parser = argparse.ArgumentParser(
        prog="partikit",
        description="Supervised partitioning: group categories, cut numbers into "
        "intervals, against a target (class labels or a quantity).",
    )
    parser.add_argument(
        "--version", action="version", version=f"partikit {__version__}",
        help="print partikit's version and exit",
    )  # fmt: skip
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", help="the command to run"
    )
    demo_parser = sub.add_parser(
        "demo",
        help="run partikit on built-in synthetic data and print what it finds",
        description="Run partikit on built-in synthetic data with known answers "
        "and print what it finds: KhiopsGrouper and MaxCutGrouper recover hidden "
        "groups of categories (with their agreement to the truth), the "
        "discretizers find hidden cut points, AttributeAggregator finds the "
        "columns worth combining, and PartitionTreeClassifier grows small trees. "
        "No data file or network is needed.",
    )
    demo_parser.add_argument(
        "--n-samples", type=int, default=20_000,
        help="rows of the synthetic data (default: 20000)",
    )  # fmt: skip
    demo_parser.add_argument(
        "--random-state", type=int, default=0,
        help="seed of the synthetic data (default: 0)",
    )  # fmt: skip
    report_parser = sub.add_parser(
        "report",
        help="partition every column of a CSV or Parquet file against a target "
        "and write an HTML report, JSON and SQL mappings",
        description="Partition every column of DATA against the target column: "
        "categorical columns are grouped, numeric ones cut into intervals. Prints "
        "the columns ranked by how much their partition tells of the target, and "
        "writes the files asked for. A column's kind follows its dtype as pandas "
        "reads it: numbers (not booleans) are numeric; booleans, text and "
        "categories are categorical; other dtypes (dates read from Parquet) are "
        "left out; --categorical and --numeric override this rule. Column lists "
        "are comma-separated. The target's kind is guessed as the estimators "
        "guess it (floats that are not all integers are continuous, anything "
        "else class labels) unless --target-type says it; a continuous target "
        "is reported with CHAIDGrouper and BlockOptDiscretizer by default (each "
        "part's mean and spread, columns ranked by the F-test). A progress bar "
        "over the columns is drawn on stderr when it is a terminal.",
    )
    add_report_arguments(report_parser)
    return parser


def main(argv=None) -> int:
    """Entry point of ``python -m partikit`` and of the ``partikit`` script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "demo":
        demo(n_samples=args.n_samples, random_state=args.random_state)
        return 0
    try:
        return report_command(args)
    except CommandError as error:
        print(f"partikit report: error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
