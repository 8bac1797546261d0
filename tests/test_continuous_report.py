# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Inspection, report, exports and command line for a continuous target.

The partition tables and summaries are checked against numpy and scipy on the
raw rows, grouped by the part ids that ``transform`` gives: whatever partition
the estimator chose, its table must describe it.
"""

import json
import sqlite3

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from partikit import report
from partikit.__main__ import main
from partikit._counting._validation import MAX_TABLE_CELLS
from partikit._estimator._inspection import CONTINUOUS_SUMMARY_COLUMNS
from partikit._reporting._mapping import column_mapping, mapping_document, mapping_sql
from partikit.discretizers import BlockOptDiscretizer, KhiopsDiscretizer
from partikit.groupers import (
    AttributeAggregator,
    CHAIDGrouper,
    MaxCutGrouper,
    MODLGrouper,
)

TABLE_COLUMNS = [
    "label", "count", "share", "mean", "std", "mean_difference", "missing",
    "unknown",
]  # fmt: skip


def _frame(n_samples=3000, random_state=0):
    """Two informative columns (a category, an amount), a noise column, a price."""
    rng = np.random.default_rng(random_state)
    city = rng.choice(["north", "south", "east", "west", "centre"], n_samples)
    effect = pd.Series(city).map(
        {"north": 3.0, "south": 3.0, "east": 0.0, "west": 0.0, "centre": -2.0}
    )
    size = rng.gamma(2.0, 1.0, n_samples)
    price = 10.0 + effect.to_numpy() + 2.0 * (size > 2.0) + rng.normal(size=n_samples)
    X = pd.DataFrame(
        {
            "city": city,
            "size": size,
            "noise": rng.choice(["a", "b", "c"], n_samples),
        }
    )
    X.loc[::97, "size"] = np.nan
    X.loc[::89, "city"] = None
    return X, price


def _fitted(kind, X, y):
    if kind == "grouper":
        return CHAIDGrouper().fit(X[["city", "noise"]], y)
    return BlockOptDiscretizer().fit(X[["size"]], y)


def _raw_figures(ids, y, n_parts):
    """count, mean, population std per part id, from the rows."""
    counts = np.bincount(ids, minlength=n_parts).astype(float)
    means = np.full(n_parts, np.nan)
    stds = np.full(n_parts, np.nan)
    for part in range(n_parts):
        rows = y[ids == part]
        if len(rows):
            means[part], stds[part] = rows.mean(), rows.std()
    return counts, means, stds


@pytest.mark.parametrize("kind", ["grouper", "discretizer"])
def test_partition_table_against_the_rows(kind):
    """Check count, share, mean, std and mean_difference of every part."""
    X, y = _frame()
    estimator = _fitted(kind, X, y)
    assert estimator.target_type_ == "continuous"
    table = estimator.partition_table(0)
    assert list(table.columns) == TABLE_COLUMNS
    ids = estimator.transform(X[estimator.feature_names_in_])[:, 0].astype(np.intp)
    counts, means, stds = _raw_figures(ids, y, len(table))
    np.testing.assert_allclose(table["count"], counts)
    np.testing.assert_allclose(table["share"], counts / len(y))
    np.testing.assert_allclose(table["mean"], means, rtol=1e-10)
    # sum-of-squares arithmetic: a few ulps of y^2 lost in the difference
    np.testing.assert_allclose(table["std"], stds, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(table["mean_difference"], means - y.mean(), rtol=1e-9)
    assert table["missing"].sum() == 1


def test_partition_summary_against_scipy_f_oneway():
    """Check F, its degrees of freedom, the p-value, R² and the ranking."""
    X, y = _frame()
    # noisier: a p-value that scipy's F tail does not underflow
    y = y + np.random.default_rng(1).normal(0.0, 6.0, len(y))
    estimator = CHAIDGrouper().fit(X[["city", "noise"]], y)
    summary = estimator.partition_summary()
    assert list(summary.columns) == list(CONTINUOUS_SUMMARY_COLUMNS)
    assert list(summary.index) == ["city", "noise"]
    assert list(summary["rank"]) == [1, 2]
    row = summary.loc["city"]
    ids = estimator.transform(X[["city", "noise"]])[:, 0].astype(np.intp)
    groups = [y[ids == part] for part in np.unique(ids)]
    expected = stats.f_oneway(*groups)
    assert row["F"] == pytest.approx(expected.statistic, rel=1e-8)
    assert row["dfn"] == len(groups) - 1
    assert row["dfd"] == len(y) - len(groups)
    assert row["log10_pvalue"] == pytest.approx(
        stats.f.logsf(expected.statistic, len(groups) - 1, len(y) - len(groups))
        / np.log(10),
        rel=1e-6,
    )
    between = sum(len(g) * (g.mean() - y.mean()) ** 2 for g in groups)
    assert row["r2"] == pytest.approx(between / ((y - y.mean()) ** 2).sum())
    # the adjusted p-value pays for the choice among the groupings
    assert row["log10_adjusted_pvalue"] > row["log10_pvalue"]
    assert row["n_parts"] == len(groups)
    assert row["n_values"] == 6  # five cities and the missing one


def test_empty_parts_and_hand_built_tables():
    """Check an empty missing bin: NaN mean and std, not counted as a part."""
    X, y = _frame()
    X = X.dropna()
    y = y[X.index]
    estimator = BlockOptDiscretizer().fit(X[["size"]], y)
    table = estimator.partition_table(0)
    assert table["count"].iloc[-1] == 0
    assert np.isnan(table["mean"].iloc[-1]) and np.isnan(table["std"].iloc[-1])
    summary = estimator.partition_summary()
    assert summary["n_parts"].iloc[0] == estimator.n_bins_[0]


@pytest.mark.usefixtures("close_figures")
@pytest.mark.parametrize("kind", ["grouper", "discretizer"])
def test_plot_shows_the_means_their_spread_and_the_counts(kind):
    """Render headless to PNG: not blank, coloured; the SVG holds the figures."""
    pytest.importorskip("matplotlib")
    from tests.test_plotting import assert_not_blank, svg_text

    X, y = _frame()
    estimator = _fitted(kind, X, y)
    ax = estimator.plot_partition(0)
    assert_not_blank(ax.figure)
    text = svg_text(ax.figure)
    for expected in ("F = ", "R² = ", "target mean ± std", "overall mean", "count"):
        assert expected in text
    # one point per non-empty part, with its error bar
    table = estimator.partition_table(0)
    filled = table["count"].to_numpy() > 0
    points = [line for line in ax.get_lines() if line.get_marker() == "o"]
    assert len(points) == 1
    np.testing.assert_allclose(points[0].get_ydata(), table["mean"][filled])


def test_report_defaults_html_and_summary():
    """Check the report's defaults, its ranking and its HTML."""
    X, y = _frame()
    result = report(X, y)
    assert result.target_type == "continuous" and result.classes is None
    assert isinstance(result.estimators["city"], CHAIDGrouper)
    assert isinstance(result.estimators["size"], BlockOptDiscretizer)
    assert list(result.summary.columns) == list(CONTINUOUS_SUMMARY_COLUMNS)
    assert list(result.summary.index[:2]) in (["city", "size"], ["size", "city"])
    assert result.summary.index[-1] == "noise"
    assert "continuous" in repr(result)
    pd.testing.assert_frame_equal(
        result.partition_table("size"), result.estimators["size"].partition_table(0)
    )
    text = result.to_html()
    for expected in ("F-test", "R²", "mean − overall", ">std<", "(continuous)"):
        assert expected in text
    if pytest.importorskip("matplotlib"):
        assert text.count("<svg") == len(result.summary)


def test_report_refuses_estimators_that_need_classes():
    """Check the estimators' own error, before any column is fitted."""
    X, y = _frame()
    with pytest.raises(ValueError, match="MODLGrouper partitions by a criterion"):
        report(X, y, grouper=MODLGrouper())
    with pytest.raises(ValueError, match="KhiopsDiscretizer partitions by"):
        report(X, y, discretizer=KhiopsDiscretizer())


def test_integer_target_said_continuous():
    """Check target_type='continuous' for integers, which 'auto' reads as labels."""
    X, y = _frame()
    prices = np.round(y * 100).astype(int)
    result = report(X, prices, target_type="continuous")
    assert result.target_type == "continuous"
    table = result.partition_table("city")
    ids = result.transform(X)["city"].to_numpy()
    _, means, _ = _raw_figures(ids, prices.astype(float), len(table))
    np.testing.assert_allclose(table["mean"], means)


def test_json_and_sql_give_every_row_its_part_mean():
    """Round trip: the JSON document read back, run as SQL in SQLite."""
    X, y = _frame()
    result = report(X, y)
    document = json.loads(result.to_json(values="mean"))
    assert document["target_type"] == "continuous" and document["classes"] is None
    assert document["values"] == "mean"
    sql = mapping_sql(document, "data")
    connection = sqlite3.connect(":memory:")
    X.to_sql("data", connection, index=False)
    rows = connection.execute(sql).fetchall()
    from_sql = pd.DataFrame(rows, columns=list(result.summary.index))
    ids = result.transform(X)
    for name in result.summary.index:
        means = result.partition_table(name)["mean"].to_numpy()
        expected = means[ids[name].to_numpy()]
        got = from_sql[name].to_numpy(dtype=float)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
        np.testing.assert_allclose(got, expected, rtol=1e-15)
    # and the means are those of the rows
    for name in result.summary.index:
        y_of = pd.Series(y).groupby(ids[name].to_numpy()).mean()
        np.testing.assert_allclose(
            result.partition_table(name)["mean"].dropna(), y_of.to_numpy()
        )


def test_values_that_do_not_fit_the_target_are_refused():
    X, y = _frame()
    grouper = CHAIDGrouper().fit(X[["city"]], y)
    with pytest.raises(ValueError, match="use values='mean'"):
        column_mapping(grouper, 0, values="woe")
    labels = (y > 10).astype(int)
    classes = CHAIDGrouper().fit(X[["city"]], labels)
    with pytest.raises(ValueError, match="values='mean' needs a continuous"):
        mapping_document([classes], values="mean")
    with pytest.raises(ValueError, match="'mean'"):
        column_mapping(grouper, 0, values="median")


def _prices_csv(path, n_samples=9000, random_state=0):
    """A diamonds-like file: an integer price of thousands of distinct values
    and an index column of one value per row (the CSV's unnamed index)."""
    rng = np.random.default_rng(random_state)
    carat = np.round(rng.gamma(2.0, 0.4, n_samples), 2)
    color = rng.choice(list("DEFGHIJ"), n_samples)
    levels = dict(zip("DEFGHIJ", np.linspace(0.2, -0.2, 7), strict=True))
    shift = pd.Series(color).map(levels).to_numpy()
    noise = rng.normal(0.0, 0.3, n_samples)
    # in cents: nearly one distinct value per row
    price = np.round(100 * np.exp(7.8 + 1.6 * np.log(carat + 0.05) + shift + noise))
    frame = pd.DataFrame(
        {
            "Unnamed: 0": np.arange(1, n_samples + 1),
            "carat": carat,
            "color": color,
            "price": price.astype(int),
        }
    )
    frame.to_csv(path, index=False)
    return frame


def test_cli_refuses_an_integer_quantity_taken_as_classes(tmp_path, capsys):
    """The memory guard's refusal is one line naming --target-type continuous."""
    frame = _prices_csv(tmp_path / "prices.csv")
    n_classes = frame["price"].nunique()
    assert (len(frame) + 1) * n_classes > MAX_TABLE_CELLS  # past the guard
    status = main(["report", str(tmp_path / "prices.csv"), "--target", "price"])
    captured = capsys.readouterr()
    assert status == 1
    assert "Traceback" not in captured.err
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "--target-type continuous" in lines[0]
    assert "'Unnamed: 0'" in lines[0]


def test_cli_target_type_continuous(tmp_path, capsys):
    """Check --target-type continuous: the ranking, the files, --values mean."""
    _prices_csv(tmp_path / "prices.csv")
    html, mapping, sql = (tmp_path / n for n in ("r.html", "m.json", "m.sql"))
    status = main([
        "report", str(tmp_path / "prices.csv"), "--target", "price",
        "--target-type", "continuous", "--out", str(html), "--json",
        str(mapping), "--sql", str(sql), "--values", "mean",
    ])  # fmt: skip
    captured = capsys.readouterr()
    assert status == 0, captured.err
    lines = captured.out.splitlines()
    assert "against 'price' (continuous)" in lines[0]
    assert lines[1].split()[:7] == [
        "rank", "kind", "n_values", "n_parts", "F", "log10_pvalue", "r2",
    ]  # fmt: skip
    assert lines[3].split()[0] == "carat"
    document = json.loads(mapping.read_text(encoding="utf-8"))
    assert document["values"] == "mean"
    assert "THEN 0 " not in sql.read_text(encoding="utf-8")
    assert "F-test" in html.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--grouper", "modl"], "MODLGrouper partitions by a criterion"),
        (["--discretizer", "khiops"], "KhiopsDiscretizer partitions by"),
        (["--values", "woe"], "use --values mean"),
    ],
)
def test_cli_refusals_for_a_continuous_target(tmp_path, capsys, flags, message):
    _prices_csv(tmp_path / "prices.csv", n_samples=500)
    status = main([
        "report", str(tmp_path / "prices.csv"), "--target", "price",
        "--target-type", "continuous", *flags,
    ])  # fmt: skip
    captured = capsys.readouterr()
    assert status == 1 and message in captured.err
    assert "Traceback" not in captured.err


def test_cli_guesses_floats_as_continuous_and_mean_needs_it(tmp_path, capsys):
    X, y = _frame(n_samples=800)
    X["price"] = y
    X.to_csv(tmp_path / "data.csv", index=False)
    assert main(["report", str(tmp_path / "data.csv"), "--target", "price"]) == 0
    assert "(continuous)" in capsys.readouterr().out
    X["price"] = (y > 10).astype(int)
    X.to_csv(tmp_path / "labels.csv", index=False)
    status = main([
        "report", str(tmp_path / "labels.csv"), "--target", "price", "--values",
        "mean",
    ])  # fmt: skip
    assert status == 1
    assert "--values mean needs a continuous target" in capsys.readouterr().err


def test_aggregator_max_cut_and_the_report_pairs():
    """Check the aggregator's grouper, MaxCutGrouper and the pair search."""
    rng = np.random.default_rng(0)
    n_samples = 3000
    X = pd.DataFrame(
        {name: rng.choice(list("xyz"), n_samples) for name in ("a", "b", "c")}
    )
    # an interaction: a and b tell little alone, their pair a lot
    y = 2.0 * ((X["a"] == "x") ^ (X["b"] == "x")) + rng.normal(size=n_samples)
    aggregator = AttributeAggregator(grouper=CHAIDGrouper()).fit(X, y)
    summary = aggregator.partition_summary()
    assert list(summary.columns) == list(CONTINUOUS_SUMMARY_COLUMNS)
    assert summary.index[0] == "a*b*c"
    assert summary["r2"].iloc[0] > 0.3
    grouper = MaxCutGrouper().fit(X[["a"]], y)
    table = grouper.partition_table("a")
    ids = grouper.transform(X[["a"]])[:, 0].astype(np.intp)
    _, means, _ = _raw_figures(ids, y.to_numpy(), len(table))
    np.testing.assert_allclose(table["mean"], means)
    result = report(X, y, pairs=True)
    assert [tuple(m) for m in result.pairs["members"]] == [("a", "b")]
