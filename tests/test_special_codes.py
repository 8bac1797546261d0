# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""special_codes and missing="attach" on the four discretizers.

Special values are kept out of the cut search and form parts of their own
(in fit, partial_fit, dask and with max_values pooling) and every encoding,
inspection and export treats them so; missing="attach" puts the missing
values into the interval the direct computation over all intervals finds
most similar, keeping a monotonic trend.
"""

import json
import pickle
import sqlite3
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

from partikit import column_tables, report
from partikit._reporting._mapping import (
    column_mapping,
    mapping_document,
    mapping_sql,
)
from partikit._statistics._measures import merge_delta_chi2
from partikit._statistics._moments import (
    merge_squared_error_increase,
    squared_errors,
)
from partikit._statistics._results import Intervals
from partikit.discretizers import (
    BlockOptDiscretizer,
    KhiopsDiscretizer,
    MDLPDiscretizer,
    MODLDiscretizer,
)
from partikit.discretizers._specials import (
    attach_missing,
    check_special_codes,
    follows_trend,
)
from tests.naive import naive_delta_chi2

DISCRETIZERS = [
    MDLPDiscretizer,
    KhiopsDiscretizer,
    BlockOptDiscretizer,
    MODLDiscretizer,
]
SPECIALS = {"not_applicable": [-1], "capped": [99999, 88888]}


def _data(n=3000, seed=0):
    """A column related to a binary target, with special values (of their own
    event rates, inside and beyond the range of the others) and missing ones."""
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(size=n), 2)
    y = (x + rng.normal(size=n) > 0).astype(int)
    x[:200], y[:200] = -1.0, 1  # inside the range of the column
    x[200:300], y[200:300] = 99999.0, 0
    x[300:400] = np.nan
    order = rng.permutation(n)
    return pd.DataFrame({"x": x[order]}), y[order]


def _is_special(x):
    return np.isin(x, [-1.0, 99999.0, 88888.0])


@pytest.mark.parametrize("cls", DISCRETIZERS, ids=lambda c: c.__name__)
def test_special_rows_form_their_own_parts(cls):
    """Check that special values are out of the intervals (the cut equals the
    fit without their rows) and alone in their parts, one per name."""
    X, y = _data()
    special = _is_special(X["x"].to_numpy())
    fitted = cls(special_codes=SPECIALS).fit(X, y)
    without = cls().fit(X[~special], y[~special])
    np.testing.assert_array_equal(fitted.bin_edges_[0], without.bin_edges_[0])
    n_bins = fitted.n_bins_[0]
    assert fitted.missing_bin_[0] == n_bins
    np.testing.assert_array_equal(fitted.special_bins_, [[n_bins + 1, n_bins + 2]])
    table = fitted.table_[0]
    np.testing.assert_array_equal(table[: n_bins + 1], without.table_[0])
    x = X["x"].to_numpy()
    np.testing.assert_array_equal(table[n_bins + 1], np.bincount(y[x == -1]))
    np.testing.assert_array_equal(table[n_bins + 2], [100, 0])
    codes = fitted.transform(X)[:, 0]
    assert (codes[x == -1] == n_bins + 1).all()
    assert (codes[x == 99999] == n_bins + 2).all()
    assert (codes[~special & ~np.isnan(x)] < n_bins).all()
    frame = fitted.partition_table("x")
    assert list(frame["label"][-2:]) == ["not_applicable", "capped"]
    assert list(frame.index[frame["special"]]) == [n_bins + 1, n_bins + 2]
    assert frame["missing"].sum() == 1 and frame["missing"].iloc[n_bins]


def test_a_list_of_codes_is_one_part_named_special():
    X, y = _data()
    fitted = MDLPDiscretizer(special_codes=[-1, 99999], encode="onehot").fit(X, y)
    n_bins = fitted.n_bins_[0]
    special = _is_special(X["x"].to_numpy())
    np.testing.assert_array_equal(fitted.table_[0][-1], np.bincount(y[special]))
    names = fitted.get_feature_names_out()
    assert list(names[-2:]) == ["x_missing", "x_special"]
    assert len(names) == n_bins + 2
    assert fitted.partition_table(0)["label"].iloc[-1] == "special"


@pytest.mark.parametrize("max_values", [None, 40])
def test_partial_fit_in_chunks_equals_fit(max_values):
    X, y = _data()
    estimator = KhiopsDiscretizer(special_codes=SPECIALS, max_values=max_values)
    fitted = clone(estimator).fit(X, y)
    streamed = clone(estimator)
    for start in range(0, len(y), 700):
        streamed.partial_fit(X[start : start + 700], y[start : start + 700])
    np.testing.assert_array_equal(streamed.bin_edges_[0], fitted.bin_edges_[0])
    np.testing.assert_array_equal(streamed.table_[0], fitted.table_[0])
    np.testing.assert_array_equal(streamed.special_bins_, fitted.special_bins_)


def test_pooling_never_pools_a_special_value():
    """Check that max_values pools the other values as without the special
    rows, and counts the special rows exactly in their part."""
    rng = np.random.default_rng(1)
    x = rng.normal(size=5000)
    y = (x + rng.normal(size=5000) > 0).astype(int)
    # a special value amid many distinct values: pooling would swallow it
    x[:300], y[:300] = 0.3, 1
    X = x[:, None]
    special = x == 0.3
    tables = column_tables(X, y, max_values=30)
    lower, upper = tables.values[0], tables.upper_values[0]
    assert ((lower < 0.3) & (0.3 < upper)).any()  # counted so, 0.3 is pooled
    fitted = BlockOptDiscretizer(special_codes=[0.3], max_values=30).fit(X, y)
    without = BlockOptDiscretizer(max_values=30).fit(X[~special], y[~special])
    np.testing.assert_array_equal(fitted.bin_edges_[0], without.bin_edges_[0])
    np.testing.assert_array_equal(fitted.table_[0][-1], [0, 300])
    assert fitted.statistics_[0]["pooled_rows"] > 0
    codes = fitted.transform(X)[:, 0]
    assert (codes[special] == fitted.special_bins_[0, 0]).all()


def test_tables_pooled_over_a_special_value_are_refused():
    rng = np.random.default_rng(1)
    x = rng.normal(size=5000)
    y = (x > 0).astype(int)
    x[:30] = 0.3
    tables = column_tables(x[:, None], y, max_values=20)
    lower, upper = tables.values[0], tables.upper_values[0]
    assert ((lower < 0.3) & (0.3 < upper)).any()  # a row pools 0.3 with others
    with pytest.raises(ValueError, match="max_values=None"):
        MDLPDiscretizer(special_codes=[0.3]).fit_tables(tables)
    exact = column_tables(x[:, None], y)
    pooled = MDLPDiscretizer(special_codes=[0.3], max_values=20).fit_tables(exact)
    np.testing.assert_array_equal(
        pooled.table_[0][-1], np.bincount(y[:30], minlength=2)
    )


def test_dask_equals_in_memory():
    dd = pytest.importorskip("dask.dataframe")
    dask = pytest.importorskip("dask")
    X, y = _data()
    estimator = MODLDiscretizer(special_codes=SPECIALS, missing="attach")
    fitted = clone(estimator).fit(X, y)
    frame = X.assign(target=y)
    lazy = dd.from_pandas(frame, npartitions=4)
    with dask.config.set(scheduler="synchronous"):
        distributed = clone(estimator).fit(lazy[["x"]], lazy["target"])
        output = np.asarray(distributed.transform(lazy[["x"]]).compute())
    np.testing.assert_array_equal(distributed.bin_edges_[0], fitted.bin_edges_[0])
    np.testing.assert_array_equal(distributed.table_[0], fitted.table_[0])
    np.testing.assert_array_equal(output, fitted.transform(X))


@pytest.mark.parametrize(
    "encode", ["ordinal", "onehot", "onehot-dense", "woe", "target"]
)
@pytest.mark.parametrize("missing", ["separate", "attach"])
def test_every_encode(encode, missing):
    """Check every encoding of the special, missing and unseen special values
    against the fitted table."""
    X, y = _data()
    fitted = MDLPDiscretizer(
        special_codes=SPECIALS, missing=missing, encode=encode
    ).fit(X, y)
    ordinal = clone(fitted).set_params(encode="ordinal").fit(X, y)
    rows = pd.DataFrame({"x": [-1.0, 99999.0, 88888.0, np.nan, 0.5, -0.0]})
    codes = ordinal.transform(rows)[:, 0].astype(int)
    n_bins = ordinal.n_bins_[0]
    expected_missing = n_bins if missing == "separate" else ordinal.missing_bin_[0]
    special_bins = ordinal.special_bins_[0]
    assert list(codes[:4]) == [*special_bins[[0, 1, 1]], expected_missing]
    assert codes[4] < n_bins and codes[5] < n_bins
    out = fitted.transform(rows)
    if encode == "woe":
        np.testing.assert_array_equal(out[:, 0], fitted.woe_[0][codes])
    elif encode == "target":
        np.testing.assert_array_equal(out[:, 0], fitted.encodings_[0][codes])
    elif encode != "ordinal":
        dense = out if encode == "onehot-dense" else out.toarray()
        names = list(fitted.get_feature_names_out())
        assert dense.shape == (len(rows), len(names))
        assert (dense.sum(axis=1) == 1).all()
        assert names[np.argmax(dense[0])] == "x_not_applicable"
        assert names[np.argmax(dense[1])] == "x_capped"
        assert names[np.argmax(dense[2])] == "x_capped"
        has_missing_column = missing == "separate"
        assert ("x_missing" in names) == has_missing_column
        label = "x_missing" if has_missing_column else f"x_b{expected_missing}"
        assert names[np.argmax(dense[3])] == label


def test_a_special_code_unseen_in_fit_gets_an_empty_part():
    X, y = _data()
    codes = {"never": [-7], "capped": [99999]}
    woe = MDLPDiscretizer(special_codes=codes, encode="woe").fit(X, y)
    target = MDLPDiscretizer(special_codes=codes, encode="target").fit(X, y)
    never = woe.special_bins_[0, 0]
    assert woe.table_[0][never].sum() == 0
    assert woe.transform(pd.DataFrame({"x": [-7.0]}))[0, 0] == 0.0
    assert target.transform(pd.DataFrame({"x": [-7.0]}))[0, 0] == pytest.approx(
        y.mean()
    )
    onehot = MDLPDiscretizer(special_codes=codes, encode="onehot").fit(X, y)
    assert "x_never" in onehot.get_feature_names_out()
    assert onehot.transform(pd.DataFrame({"x": [-7.0]})).toarray().sum() == 1


@pytest.mark.parametrize(
    ("special_codes", "match"),
    [
        (["a"], "must hold numbers"),
        ([True], "must hold numbers"),
        ([np.nan], "missing"),
        ([np.inf], "finite"),
        ([1, 1.0], "twice"),
        ({"a": [1], "b": [2, 1]}, "twice"),
        ({"a": []}, "empty"),
        ({"missing": [1]}, "cannot name"),
        ({"b0": [1]}, "cannot name"),
        ({3: [1]}, "strings"),
    ],
)
def test_bad_special_codes_are_refused(special_codes, match):
    X, y = _data(300)
    with pytest.raises(ValueError, match=match):
        MDLPDiscretizer(special_codes=special_codes).fit(X, y)


def test_check_special_codes():
    assert check_special_codes(None) == ([], [])
    names, values = check_special_codes({"a": [-0.0, 2], "b": 5})
    assert names == ["a", "b"]
    assert [list(v) for v in values] == [[0.0, 2.0], [5.0]]
    assert str(np.copysign(1, values[0][0])) == "1.0"


def _attach_data(seed=0, n=2000, continuous=False):
    rng = np.random.default_rng(seed)
    x = rng.uniform(size=n)
    if continuous:
        y = 3 * x + rng.normal(size=n)
    else:
        y = (x + 0.4 * rng.normal(size=n) > 0.5).astype(int)
    missing = rng.uniform(size=n) < 0.1
    x[missing] = np.nan
    if continuous:
        y[missing] = rng.normal(1.2, 1.0, size=missing.sum())
    else:
        y[missing] = (rng.uniform(size=missing.sum()) < 0.35).astype(int)
    return x[:, None], y


@pytest.mark.parametrize("cls", DISCRETIZERS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("seed", range(3))
def test_attach_chooses_the_most_similar_interval(cls, seed):
    """Check the attached interval against DeltaChi2 computed directly (two
    full chi-squares) for every interval."""
    X, y = _attach_data(seed)
    separate = cls().fit(X, y)
    attached = cls(missing="attach").fit(X, y)
    np.testing.assert_array_equal(attached.bin_edges_[0], separate.bin_edges_[0])
    table = separate.table_[0]
    n_bins = separate.n_bins_[0]
    deltas = [naive_delta_chi2(table, n_bins, k) for k in range(n_bins)]
    best = int(np.argmin(deltas))
    assert attached.missing_bin_[0] == best
    assert attached.statistics_[0]["missing_rule"] == "most_similar"
    expected = table[:n_bins].copy()
    expected[best] += table[n_bins]
    np.testing.assert_allclose(attached.table_[0], expected)
    codes = attached.transform(X)[:, 0]
    assert (codes[np.isnan(X[:, 0])] == best).all()
    frame = attached.partition_table(0)
    assert frame["label"].iloc[best].endswith(" + missing")
    assert frame["missing"].sum() == 1 and frame["missing"].iloc[best]
    assert frame["count"].sum() == len(y)


def test_attach_for_a_continuous_target():
    X, y = _attach_data(0, continuous=True)
    separate = BlockOptDiscretizer().fit(X, y)
    attached = BlockOptDiscretizer(missing="attach").fit(X, y)
    table = separate.table_[0]
    n_bins = separate.n_bins_[0]
    increases = [
        squared_errors(table[k] + table[n_bins])
        - squared_errors(table[k])
        - squared_errors(table[n_bins])
        for k in range(n_bins)
    ]
    assert n_bins >= 2
    assert attached.missing_bin_[0] == int(np.argmin(increases))
    frame = attached.partition_table(0)
    assert frame["missing"].iloc[attached.missing_bin_[0]]


def test_attach_without_missing_values_in_fit_takes_the_largest_interval():
    X, y = _attach_data(0)
    keep = ~np.isnan(X[:, 0])
    attached = KhiopsDiscretizer(missing="attach").fit(X[keep], y[keep])
    weights = attached.table_[0].sum(axis=1)
    assert attached.missing_bin_[0] == int(np.argmax(weights))
    assert attached.statistics_[0]["missing_rule"] == "largest"
    assert attached.statistics_[0]["missing_weight"] == 0.0
    assert attached.transform([[np.nan]])[0, 0] == attached.missing_bin_[0]
    assert len(attached.table_[0]) == attached.n_bins_[0]


class _FixedCut(MDLPDiscretizer):
    """A discretizer whose cut is given (the values 0, 1, 2 apart)."""

    def _cut_table(self, table, context):
        return Intervals.from_cuts([1, 2], table.shape[0], 0.0)


def _weighted(rows):
    """X, y and sample_weight of a table {value: (non-events, events)}."""
    X, y, weight = [], [], []
    for value, counts in rows.items():
        for label, count in enumerate(counts):
            X.append(value)
            y.append(label)
            weight.append(count)
    return np.array(X)[:, None], np.array(y), np.array(weight, dtype=float)


def test_attach_keeps_a_monotonic_trend():
    """The most similar interval (a tiny one) would break the ascending
    trend: the missing values go to the most similar one that keeps it."""
    X, y, weight = _weighted(
        {0.0: (900, 100), 1.0: (1, 1), 2.0: (100, 900), np.nan: (950, 50)}
    )
    free = _FixedCut(missing="attach").fit(X, y, sample_weight=weight)
    assert free.missing_bin_[0] == 1  # the tiny interval is the most similar
    rates = free.table_[0][:, 1] / free.table_[0].sum(axis=1)
    assert not follows_trend(rates, "ascending")
    trend = _FixedCut(missing="attach", monotonic_trend="ascending")
    trend.fit(X, y, sample_weight=weight)
    assert trend.missing_bin_[0] == 0
    rates = trend.table_[0][:, 1] / trend.table_[0].sum(axis=1)
    assert follows_trend(rates, "ascending")
    # "auto" reads the trend of the intervals: ascending here
    auto = _FixedCut(missing="attach", monotonic_trend="auto")
    assert auto.fit(X, y, sample_weight=weight).missing_bin_[0] == 0


def test_attach_that_no_interval_allows_keeps_the_missing_bin():
    X, y, weight = _weighted(
        {0.0: (900, 100), 1.0: (500, 500), 2.0: (100, 900), np.nan: (950, 50)}
    )
    estimator = _FixedCut(missing="attach", monotonic_trend="descending")
    with pytest.warns(UserWarning, match="keeps the missing values apart"):
        estimator.fit(X, y, sample_weight=weight)
    assert estimator.missing_bin_[0] == estimator.n_bins_[0] == 3
    assert estimator.statistics_[0]["missing_rule"] == "separate_by_trend"
    assert estimator.partition_table(0)["label"].iloc[3] == "missing"


def test_merge_measures_are_the_direct_ones():
    rng = np.random.default_rng(0)
    for _ in range(20):
        table = rng.integers(0, 20, size=(5, 3)).astype(float)
        table[table.sum(axis=1) == 0, 0] = 1
        row = int(rng.integers(5))
        direct = [
            0.0 if k == row else naive_delta_chi2(table, row, k) for k in range(5)
        ]
        np.testing.assert_allclose(merge_delta_chi2(table, row), direct, atol=1e-9)
        moments = np.column_stack(
            [table[:, 0] + 1, table[:, 1], table[:, 1] ** 2 + table[:, 2]]
        )
        increase = merge_squared_error_increase(moments, row)
        for k in range(5):
            if k != row:
                merged = squared_errors(moments[k] + moments[row])
                alone = squared_errors(moments[k]) + squared_errors(moments[row])
                assert increase[k] == pytest.approx(max(merged - alone, 0), abs=1e-9)


def test_attach_missing_core():
    intervals = np.array([[10.0, 0.0], [5.0, 5.0], [0.0, 10.0]])
    assert attach_missing(intervals, np.array([1.0, 9.0])) == (2, "most_similar")
    assert attach_missing(intervals, np.zeros(2)) == (0, "largest")
    assert attach_missing(intervals, np.array([9.0, 1.0]), trend="descending") == (
        -1,
        "separate_by_trend",
    )


@pytest.mark.parametrize("values", [None, "woe"])
def test_sql_in_sqlite_gives_transform(values):
    """Check that the exported SQL, run by SQLite, gives transform's output,
    special parts and attached missing values included."""
    X, y = _data()
    X = X.assign(z=X["x"])
    separate = MDLPDiscretizer(special_codes=SPECIALS, encode="woe").fit(X[["x"]], y)
    attached = KhiopsDiscretizer(
        special_codes=[-1], missing="attach", encode="woe"
    ).fit(X[["z"]], y)
    document = json.loads(
        json.dumps(mapping_document([separate, attached], values=values))
    )
    assert document["version"] == 2
    sql = mapping_sql(document, "data")
    new = pd.DataFrame({"x": [-1.0, 99999.0, 88888.0, np.nan, 0.3, 5.0, -9.0]})
    new["z"] = new["x"]
    for frame in (X, new):
        connection = sqlite3.connect(":memory:")
        frame.to_sql("data", connection, index=False)
        selected = np.array(connection.execute(sql).fetchall(), dtype=float)
        if values is None:
            expected = np.column_stack(
                [
                    clone(e)
                    .set_params(encode="ordinal")
                    .fit(X[[c]], y)
                    .transform(frame[[c]])
                    for e, c in ((separate, "x"), (attached, "z"))
                ]
            )
        else:
            expected = np.column_stack(
                [separate.transform(frame[["x"]]), attached.transform(frame[["z"]])]
            )
        np.testing.assert_allclose(selected, expected, rtol=1e-12)
    mapping = column_mapping(attached, 0)
    assert mapping["missing_seen"] and mapping["missing_bin"] < mapping["n_bins"]
    assert mapping["special_parts"] == [
        {"id": mapping["n_bins"], "name": "special", "values": [-1.0]}
    ]


def test_a_document_without_special_parts_stays_version_1():
    X, y = _data()
    document = mapping_document([MDLPDiscretizer(missing="attach").fit(X, y)])
    assert document["version"] == 1
    assert "special_parts" not in document["columns"][0]


def test_inspection_plot_and_report():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    X, y = _data()
    fitted = MDLPDiscretizer(special_codes=SPECIALS, missing="attach").fit(X, y)
    summary = fitted.partition_summary()
    assert summary.loc["x", "n_parts"] == len(fitted.table_[0])
    ax = fitted.plot_partition("x")
    assert len(ax.get_xticklabels()) == len(fitted.table_[0])
    result = report(
        X.assign(label=y),
        "label",
        discretizer=MDLPDiscretizer(special_codes=SPECIALS, missing="attach"),
    )
    html = result.to_html()
    assert "not_applicable" in html and "[special values]" in html
    assert "+ missing" in html


def test_pickle_clone_and_params():
    X, y = _data()
    estimator = BlockOptDiscretizer(special_codes=SPECIALS, missing="attach")
    params = clone(estimator).get_params()
    assert params["special_codes"] == SPECIALS and params["missing"] == "attach"
    fitted = estimator.fit(X, y)
    restored = pickle.loads(pickle.dumps(fitted))
    np.testing.assert_array_equal(restored.transform(X), fitted.transform(X))
    np.testing.assert_array_equal(restored.special_bins_, fitted.special_bins_)
    # the fitted parts do not follow a later change of the parameter
    fitted.set_params(special_codes=None)
    np.testing.assert_array_equal(fitted.transform(X), restored.transform(X))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clone(fitted).fit(X, y)


@parametrize_with_checks(
    [
        MDLPDiscretizer(special_codes=[0.0, 1.0], missing="attach"),
        BlockOptDiscretizer(
            special_codes={"zero": [0.0], "half": [0.5]},
            missing="attach",
            encode="onehot",
        ),
    ]
)
def test_scikit_learn_checks_with_special_codes(estimator, check):
    check(estimator)


def test_plain_python_applies_the_document_as_transform():
    """Check the documented rules (special parts before the cuts) by the
    plain-Python consumer of the mapping tests, on CSV text."""
    from tests.test_mapping import apply_document

    X, y = _data()
    fitted = MDLPDiscretizer(special_codes=SPECIALS, missing="attach").fit(X, y)
    document = json.dumps(mapping_document([fitted]))
    new = pd.DataFrame({"x": [-1.0, 99999.0, 88888.0, np.nan, 0.3, 5.0, -9.0]})
    for frame in (X, new):
        text = frame.to_csv(index=False)
        expected = fitted.transform(frame).astype(int).tolist()
        assert apply_document(document, text) == expected


@pytest.mark.parametrize("cls", [MDLPDiscretizer, KhiopsDiscretizer])
def test_attach_with_three_classes(cls):
    rng = np.random.default_rng(3)
    x = rng.uniform(size=3000)
    y = np.digitize(x + 0.3 * rng.normal(size=3000), [0.33, 0.66])
    missing = rng.uniform(size=3000) < 0.1
    x[missing] = np.nan
    y[missing] = rng.choice(3, size=missing.sum(), p=[0.2, 0.7, 0.1])
    X = x[:, None]
    separate = cls().fit(X, y)
    attached = cls(missing="attach").fit(X, y)
    table, n_bins = separate.table_[0], separate.n_bins_[0]
    deltas = [naive_delta_chi2(table, n_bins, k) for k in range(n_bins)]
    assert attached.missing_bin_[0] == int(np.argmin(deltas))


def test_plot_marks_the_special_parts():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    X, y = _data()
    fitted = MDLPDiscretizer(special_codes=SPECIALS).fit(X, y)
    ax = fitted.plot_partition("x")
    labels = [tick.get_text() for tick in ax.get_xticklabels()]
    assert sum("[special]" in label for label in labels) == 2
