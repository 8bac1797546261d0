# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""PartitionEncoder: kinds, per-column estimators, encodings, selection, the
scikit-learn plumbing (pipelines, set_output, pickling), partial_fit, dask."""

import pickle

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.compose import ColumnTransformer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

from partikit import PartitionEncoder, column_tables
from partikit.datasets import make_grouped_categorical
from partikit.discretizers import (
    BlockOptDiscretizer,
    KhiopsDiscretizer,
    MDLPDiscretizer,
    MODLDiscretizer,
)
from partikit.groupers import CHAIDGrouper, KhiopsGrouper, MODLGrouper


def _frame(n_samples=3000, n_classes=2, random_state=0):
    X, y, _ = make_grouped_categorical(
        n_samples=n_samples,
        n_categories=30,
        n_classes=n_classes,
        n_groups=3,
        n_noise_features=1,
        dtype="object",
        random_state=random_state,
    )
    rng = np.random.default_rng(random_state)
    X = X.copy()
    X["income"] = rng.normal(size=n_samples) + 1.5 * y
    X.loc[::53, "income"] = np.nan
    X["age"] = rng.integers(18, 80, n_samples)
    X["flag"] = rng.random(n_samples) < 0.3
    return X, pd.Series(np.asarray(y), name="label")


def test_kinds_follow_the_report_rule_and_the_overrides():
    """Check dtype kinds, a skipped date column, categorical=/numeric= and a
    per-column estimator that decides its column's kind."""
    X, y = _frame()
    X["when"] = pd.Timestamp("2024-01-01")
    with pytest.warns(UserWarning, match="'when': its dtype datetime64"):
        encoder = PartitionEncoder().fit(X, y)
    kinds = encoder.summary_["kind"].to_dict()
    assert kinds == {
        "category": "categorical", "noise_0": "categorical", "income": "numeric",
        "age": "numeric", "flag": "categorical",
    }  # fmt: skip
    assert list(encoder.estimators_) == list(kinds)
    assert set(encoder.skipped_) == {"when"}
    assert isinstance(encoder.estimators_["category"], MODLGrouper)
    assert isinstance(encoder.estimators_["income"], MODLDiscretizer)

    X = X.drop(columns="when")
    encoder = PartitionEncoder(
        categorical=["age"],
        estimators={"income": BlockOptDiscretizer(max_bins=3), "flag": CHAIDGrouper()},
    ).fit(X, y)
    assert encoder.summary_.loc["age", "kind"] == "categorical"
    assert isinstance(encoder.estimators_["age"], MODLGrouper)
    assert isinstance(encoder.estimators_["income"], BlockOptDiscretizer)
    assert encoder.estimators_["income"].max_bins == 3
    assert isinstance(encoder.estimators_["flag"], CHAIDGrouper)
    # the templates and the per-column estimators stay unfitted
    assert not hasattr(encoder.estimators["income"], "bin_edges_")
    encoder = PartitionEncoder(numeric=["flag"]).fit(X, y)
    assert encoder.summary_.loc["flag", "kind"] == "numeric"


def test_each_column_is_its_estimator_fitted_alone():
    """Check that every column's estimator is the one fitted on that column
    alone, and that the columns were counted by one column_tables call."""
    X, y = _frame()
    encoder = PartitionEncoder(encode="ordinal").fit(X, y)
    for name, estimator in encoder.estimators_.items():
        template = (
            MODLGrouper()
            if name in ("category", "noise_0", "flag")
            else (MODLDiscretizer())
        )
        alone = template.set_params(encode="ordinal").fit(X[[name]], y)
        np.testing.assert_array_equal(
            estimator.transform(X[[name]]), alone.transform(X[[name]])
        )
    summary = encoder.summary_
    assert summary["rank"].sort_values().tolist() == [1, 2, 3, 4, 5]
    assert {summary["rank"]["category"], summary["rank"]["income"]} == {1, 2}
    np.testing.assert_array_equal(
        encoder.transform(X),
        np.column_stack([e.transform(X[[n]]) for n, e in encoder.estimators_.items()]),
    )


def test_the_columns_are_counted_once(monkeypatch):
    """Check one column_tables call for all the columns, and one fit_tables call
    per column on that column's tables."""
    from partikit._reporting import _encoder

    counted = []
    count = _encoder.column_tables
    monkeypatch.setattr(
        _encoder, "column_tables",
        lambda *args, **kwargs: counted.append(kwargs) or count(*args, **kwargs),
    )  # fmt: skip
    X, y = _frame()
    PartitionEncoder().fit(X, y)
    assert len(counted) == 1
    assert counted[0]["categorical_features"] == ["category", "noise_0", "flag"]


@pytest.mark.parametrize(
    "encode, width, sparse",
    [
        ("auto", 5, False),
        ("woe", 5, False),
        ("target", 5, False),
        ("ordinal", 5, False),
        ("onehot", None, True),
        ("onehot-dense", None, False),
    ],
)
def test_every_encoding(encode, width, sparse):
    """Check every encode: each column its estimator's output, side by side,
    sparse for onehot, names consistent with the output."""
    X, y = _frame()
    encoder = PartitionEncoder(encode=encode).fit(X, y)
    out = encoder.transform(X)
    assert sp.issparse(out) == sparse
    names = encoder.get_feature_names_out()
    assert out.shape == (len(X), len(names))
    if width is not None:
        assert list(names) == list(X.columns)
    expected = "woe" if encode == "auto" else encode
    for estimator in encoder.estimators_.values():
        assert estimator.encode == expected
    parts = [e.transform(X[[n]]) for n, e in encoder.estimators_.items()]
    dense = out.toarray() if sparse else out
    stacked = np.hstack([p.toarray() if sp.issparse(p) else p for p in parts])
    np.testing.assert_allclose(dense, stacked)
    np.testing.assert_allclose(encoder.fit_transform(X, y).__array__()
                               if not sparse else encoder.fit_transform(X, y).toarray(),
                               dense)  # fmt: skip


def test_woe_sign_reaches_every_estimator():
    """Check that woe_sign is set on every column's estimator."""
    X, y = _frame()
    event = PartitionEncoder(encode="woe").fit_transform(X, y)
    non_event = PartitionEncoder(encode="woe", woe_sign="non_event").fit_transform(X, y)
    np.testing.assert_allclose(event, -non_event)


def test_auto_encoding_by_target():
    """Check encode="auto": woe (binary), onehot (multiclass), target
    (continuous), and the estimators' refusal of woe for a multiclass target."""
    X, y = _frame(n_classes=3)
    encoder = PartitionEncoder().fit(X, y)
    assert encoder.target_type_ == "multiclass"
    assert {e.encode for e in encoder.estimators_.values()} == {"onehot"}
    assert sp.issparse(encoder.transform(X))
    assert list(encoder.classes_) == [0, 1, 2]
    with pytest.raises(ValueError, match="encode='woe' needs a binary target"):
        PartitionEncoder(encode="woe").fit(X, y)
    with pytest.raises(ValueError, match="encode='target'"):
        PartitionEncoder(encode="target").fit(X, y)


def test_continuous_target():
    """Check a continuous target: CHAID and BlockOpt by default, the parts'
    means as output, the F-test figures in the summary, selection by r2."""
    X, y = _frame()
    rng = np.random.default_rng(1)
    target = 2.0 * X["income"].fillna(0).to_numpy() + rng.normal(size=len(X)) + 0.5
    encoder = PartitionEncoder(selection_criteria={"r2": {"min": 0.05}}).fit(X, target)
    assert encoder.target_type_ == "continuous"
    assert not hasattr(encoder, "classes_")
    assert isinstance(encoder.estimators_["category"], CHAIDGrouper)
    assert isinstance(encoder.estimators_["income"], BlockOptDiscretizer)
    assert {"F", "r2"} <= set(encoder.summary_.columns)
    assert encoder.summary_["rank"]["income"] == 1
    assert list(encoder.get_feature_names_out()) == ["income"]
    out = encoder.transform(X)
    assert out.shape == (len(X), 1)
    # each part's target encoding, increasing with the income
    np.testing.assert_allclose(
        out, encoder.estimators_["income"].transform(X[["income"]])
    )
    order = np.argsort(X["income"].to_numpy())
    kept = ~np.isnan(X["income"].to_numpy()[order])
    assert np.all(np.diff(out[order][kept, 0]) >= 0)
    with pytest.raises(ValueError, match="'iv'.*continuous target the criteria"):
        PartitionEncoder(selection_criteria={"iv": {"min": 0.1}}).fit(X, target)
    with pytest.raises(ValueError, match="needs class labels"):
        PartitionEncoder(grouper=MODLGrouper()).fit(X, target)


def _selected(criteria, X, y):
    encoder = PartitionEncoder(selection_criteria=criteria).fit(X, y)
    return encoder, [n for n, s in encoder.summary_["selected"].items() if s]


def test_selection_by_each_criterion_and_top():
    """Check min/max bounds, strategy+top within a criterion, and the top-level
    top by rank, against the summary's figures."""
    X, y = _frame()
    encoder, kept = _selected(None, X, y)
    summary = encoder.summary_
    assert kept == list(X.columns)
    iv = summary["iv"]
    threshold = float(iv.sort_values().iloc[2])
    _, kept = _selected({"iv": {"min": threshold}}, X, y)
    assert kept == [n for n in X.columns if iv[n] >= threshold]
    _, kept = _selected({"iv": {"max": threshold}}, X, y)
    assert kept == [n for n in X.columns if iv[n] <= threshold]
    _, kept = _selected({"iv": {"strategy": "highest", "top": 2}}, X, y)
    assert set(kept) == set(iv.nlargest(2).index)
    _, kept = _selected({"iv": {"strategy": "lowest", "top": 0.4}}, X, y)
    assert set(kept) == set(iv.nsmallest(2).index)  # ceil(0.4 * 5) = 2
    p_value = 10.0 ** summary["log10_adjusted_pvalue"]
    _, kept = _selected({"p_value": {"max": 0.05}}, X, y)
    assert kept == [n for n in X.columns if p_value[n] <= 0.05]
    _, kept = _selected({"p_value": {"top": 1}}, X, y)  # lowest by default
    assert kept == [p_value.idxmin()]
    v = summary["cramers_v"]
    _, kept = _selected({"cramers_v": {"min": 0.05}}, X, y)
    assert kept == [n for n in X.columns if v[n] >= 0.05]
    _, kept = _selected({"n_parts": {"min": 2}}, X, y)
    assert kept == [n for n in X.columns if summary["n_parts"][n] >= 2]
    _, kept = _selected({"top": 2}, X, y)
    assert set(kept) == set(summary["rank"].nsmallest(2).index)
    # top by rank among the columns passing every criterion
    _, kept = _selected({"iv": {"max": threshold}, "top": 1}, X, y)
    passing = summary[iv <= threshold]
    assert kept == [passing["rank"].idxmin()]


def test_selection_drives_transform_support_and_names():
    """Check that transform, get_support and get_feature_names_out follow the
    selection, in the order of X."""
    X, y = _frame()
    encoder = PartitionEncoder(selection_criteria={"top": 3}).fit(X, y)
    support = encoder.get_support()
    kept = list(X.columns[support])
    assert len(kept) == 3
    assert list(encoder.get_feature_names_out()) == kept
    np.testing.assert_array_equal(encoder.get_support(indices=True),
                                  np.flatnonzero(support))  # fmt: skip
    out = encoder.transform(X)
    np.testing.assert_allclose(
        out, np.column_stack([encoder.estimators_[n].transform(X[[n]]) for n in kept])
    )


@pytest.mark.parametrize(
    "criteria, match",
    [
        ({"quality": {"min": 1}}, "criteria are"),
        ({"iv": {"least": 1}}, "its keys are"),
        ({"iv": {"strategy": "best"}}, "'highest' or 'lowest'"),
        ({"iv": {"top": 0}}, "at least 1"),
        ({"iv": {"top": 1.5}}, "at least 1"),
        ({"top": -1}, "at least 1"),
        ({"iv": {"min": "a"}}, "must be a number"),
    ],
)
def test_bad_selection_criteria(criteria, match):
    """Check that a bad selection_criteria raises a ValueError naming the fix."""
    X, y = _frame(n_samples=500)
    with pytest.raises(ValueError, match=match):
        PartitionEncoder(selection_criteria=criteria).fit(X, y)


def test_bad_parameters():
    """Check the errors of unknown columns, a column listed twice or as both
    kinds, and an estimator that is not a grouper or a discretizer."""
    X, y = _frame(n_samples=500)
    with pytest.raises(ValueError, match="not in X"):
        PartitionEncoder(numeric=["nope"]).fit(X, y)
    with pytest.raises(ValueError, match="not in X"):
        PartitionEncoder(estimators={"nope": KhiopsGrouper()}).fit(X, y)
    with pytest.raises(ValueError, match="both categorical and numeric"):
        PartitionEncoder(numeric=["age"], categorical=["age"]).fit(X, y)
    with pytest.raises(ValueError, match="more than once"):
        PartitionEncoder(numeric=["age", "age"]).fit(X, y)
    with pytest.raises(TypeError, match="grouper or discretizer"):
        PartitionEncoder(estimators={"age": LogisticRegression()}).fit(X, y)
    with pytest.raises(TypeError, match="'grouper' parameter of PartitionEncoder"):
        PartitionEncoder(grouper=KhiopsDiscretizer()).fit(X, y)
    with pytest.raises(ValueError, match="requires y"):
        PartitionEncoder().fit(X, None)


def test_a_column_that_cannot_be_counted_raises_or_is_left_out_by_report():
    """Check that strings named numeric raise the counting's error, and that
    the report's fit leaves the column out with that reason, the other columns
    fitted as without it."""
    from partikit._reporting._encoder import fit_with_progress

    X, y = _frame()
    with pytest.raises(ValueError, match="non-numeric"):
        PartitionEncoder(numeric=["category"]).fit(X, y)
    encoder = PartitionEncoder(numeric=["category"])
    with pytest.warns(UserWarning, match="left out"):
        fit_with_progress(encoder, X, y, skip_uncountable=True)
    assert not hasattr(encoder, "_skip_uncountable")
    assert "non-numeric" in encoder.skipped_["category"]
    expected = PartitionEncoder().fit(X.drop(columns="category"), y)
    pd.testing.assert_frame_equal(encoder.summary_, expected.summary_)
    assert not encoder.get_support()[0]
    assert encoder.transform(X).shape == (len(X), 4)


def test_set_output_pandas_pipeline_and_column_transformer():
    """Check set_output(pandas), a Pipeline with a logistic regression and a
    ColumnTransformer."""
    X, y = _frame()
    encoder = PartitionEncoder(selection_criteria={"top": 3}).set_output(
        transform="pandas"
    )
    out = encoder.fit_transform(X, y)
    assert isinstance(out, pd.DataFrame)
    assert list(out.columns) == list(encoder.get_feature_names_out())
    pd.testing.assert_index_equal(out.index, X.index)

    model = make_pipeline(PartitionEncoder(), LogisticRegression()).fit(X, y)
    assert model.score(X, y) > 0.6
    assert model.predict_proba(X).shape == (len(X), 2)

    columns = ColumnTransformer(
        [("partitions", PartitionEncoder(), ["category", "income"])],
        remainder="drop",
    )
    out = columns.fit_transform(X, y)
    assert out.shape == (len(X), 2)
    assert list(columns.get_feature_names_out()) == [
        "partitions__category", "partitions__income",
    ]  # fmt: skip


def test_numpy_and_polars_input():
    """Check an array without names (x0, x1, ...) and a polars DataFrame."""
    X, y = _frame()
    numeric = X[["income", "age"]]
    encoder = PartitionEncoder().fit(numeric.to_numpy(), y)
    assert list(encoder.summary_.index) == ["x0", "x1"]
    assert not hasattr(encoder, "feature_names_in_")
    assert list(encoder.get_feature_names_out()) == ["x0", "x1"]
    np.testing.assert_allclose(
        encoder.transform(numeric.to_numpy()),
        PartitionEncoder().fit(numeric, y).transform(numeric),
    )
    pl = pytest.importorskip("polars")
    frame = pl.from_pandas(X)
    encoder = PartitionEncoder().fit(frame, y.to_numpy())
    np.testing.assert_allclose(
        encoder.transform(frame), PartitionEncoder().fit(X, y).transform(X)
    )


def test_pickle_and_clone():
    """Check that a fitted encoder pickles to the same output and clones."""
    X, y = _frame()
    encoder = PartitionEncoder(
        estimators={"age": MDLPDiscretizer()}, selection_criteria={"top": 4}
    ).fit(X, y)
    restored = pickle.loads(pickle.dumps(encoder))
    np.testing.assert_array_equal(restored.transform(X), encoder.transform(X))
    pd.testing.assert_frame_equal(restored.summary_, encoder.summary_)
    fresh = clone(encoder)
    assert not hasattr(fresh, "estimators_")
    assert fresh.get_params()["selection_criteria"] == {"top": 4}


def test_threads_give_the_same_encoder():
    """Check n_jobs=2 against n_jobs=None, warnings kept per column."""
    X, y = _frame()
    X["constant"] = "a"
    one = PartitionEncoder().fit(X, y)
    two = PartitionEncoder(n_jobs=2).fit(X, y)
    pd.testing.assert_frame_equal(one.summary_, two.summary_)
    assert one.fit_warnings_ == two.fit_warnings_
    assert list(one.fit_warnings_) == ["constant"]


def test_sample_weight_is_repetition():
    """Check that integer weights equal repeated rows."""
    X, y = _frame(n_samples=1000)
    weights = np.random.default_rng(0).integers(0, 3, len(X))
    weighted = PartitionEncoder().fit(X, y, sample_weight=weights)
    repeated = PartitionEncoder().fit(X.loc[X.index.repeat(weights)],
                                      y.loc[y.index.repeat(weights)])  # fmt: skip
    pd.testing.assert_frame_equal(weighted.summary_, repeated.summary_)
    assert weighted.n_samples_fit_ == int(np.count_nonzero(weights))
    np.testing.assert_allclose(weighted.transform(X), repeated.transform(X))
    np.testing.assert_allclose(weighted.class_counts_,
                               np.bincount(y, weights=weights))  # fmt: skip
    assert column_tables(X[["age"]], y).n_features == 1


def test_views_are_the_reports():
    """Check partition_table, plot_partition, mapping, to_json, to_sql and
    to_html against the report of the same columns."""
    import json
    import sqlite3

    from partikit import report

    X, y = _frame()
    encoder = PartitionEncoder(encode="ordinal", selection_criteria={"top": 2})
    encoder.fit(X, y)
    result = report(X, y)
    for name in X.columns:
        pd.testing.assert_frame_equal(
            encoder.partition_table(name), result.partition_table(name)
        )
    with pytest.raises(ValueError, match="not in the report"):
        encoder.partition_table("nope")
    kept = list(encoder.get_feature_names_out())
    document = encoder.mapping(values="woe")
    assert {c["name"] for c in document["columns"]} == set(kept)
    assert json.loads(encoder.to_json(values="woe")) == document
    # the SQL gives transform's part ids
    connection = sqlite3.connect(":memory:")
    X.to_sql("data", connection, index=False)
    rows = pd.read_sql(encoder.to_sql("data"), connection)
    expected = pd.DataFrame(encoder.transform(X), columns=kept)
    pd.testing.assert_frame_equal(
        rows[kept].astype(float), expected.astype(float), check_dtype=False
    )
    pytest.importorskip("matplotlib")
    import html

    import matplotlib

    text = encoder.to_html()
    assert text.startswith("<!DOCTYPE html>")
    assert text.count("<section") == text.count("<svg") == len(X.columns)
    for name in X.columns:
        assert html.escape(name) in text
        for label in encoder.partition_table(name)["label"]:
            assert html.escape(str(label)) in text
    assert html.escape("PartitionEncoder(encode='ordinal'") in text
    for forbidden in ("<script", "<link", "src=", "@import", "url(http"):
        assert forbidden not in text

    matplotlib.use("Agg")
    ax = encoder.plot_partition("income")
    assert ax.figure is not None
    import matplotlib.pyplot as plt

    plt.close("all")


def test_report_is_the_encoder():
    """Check that report's summary is the ordinal encoder's, ranked, without the
    selection column, and its estimators the encoder's."""
    from partikit import report

    X, y = _frame()
    result = report(X, y)
    encoder = PartitionEncoder(encode="ordinal").fit(X, y)
    pd.testing.assert_frame_equal(
        result.summary,
        encoder.summary_.drop(columns="selected").sort_values("rank"),
    )
    for name, estimator in encoder.estimators_.items():
        np.testing.assert_array_equal(
            result.estimators[name].transform(X[[name]]),
            estimator.transform(X[[name]]),
        )


def test_partial_fit_equals_fit():
    """Check that chunks given to partial_fit give the encoder fit gives on
    all their rows, after every chunk."""
    X, y = _frame()
    X["when"] = pd.Timestamp("2024-01-01")
    chunks = np.array_split(np.arange(len(X)), 3)
    encoder = PartitionEncoder(selection_criteria={"top": 3})
    for i, rows in enumerate(chunks):
        with pytest.warns(UserWarning, match="'when'"):
            encoder.partial_fit(X.iloc[rows], y.iloc[rows], classes=[0, 1])
        seen = np.concatenate(chunks[: i + 1])
        with pytest.warns(UserWarning, match="'when'"):
            whole = PartitionEncoder(selection_criteria={"top": 3}).fit(
                X.iloc[seen], y.iloc[seen]
            )
        pd.testing.assert_frame_equal(encoder.summary_, whole.summary_)
        assert encoder.n_samples_fit_ == len(seen)
        np.testing.assert_array_equal(encoder.transform(X), whole.transform(X))
    with pytest.raises(ValueError, match="not in classes"):
        encoder.partial_fit(X.iloc[:10], y.iloc[:10] + 5)
    # fit starts over
    with pytest.warns(UserWarning, match="'when'"):
        encoder.fit(X.iloc[chunks[0]], y.iloc[chunks[0]])
    assert encoder.n_samples_fit_ == len(chunks[0])


def test_partial_fit_waits_for_two_classes():
    """Check that a first chunk of one class is counted, then raises."""
    X, y = _frame(n_samples=600)
    order = np.argsort(y.to_numpy(), kind="stable")
    X, y = X.iloc[order], y.iloc[order]
    encoder = PartitionEncoder()
    with pytest.raises(ValueError, match="class"):
        encoder.partial_fit(X.iloc[:100], y.iloc[:100])
    encoder.partial_fit(X.iloc[100:], y.iloc[100:])
    pd.testing.assert_frame_equal(
        encoder.summary_, PartitionEncoder().fit(X, y).summary_
    )


def test_dask_fit_equals_fit():
    """Check that a dask DataFrame is counted in place to the in-memory encoder,
    and transformed lazily to the same output."""
    dask = pytest.importorskip("dask")
    dd = pytest.importorskip("dask.dataframe")
    X, y = _frame()
    frame = X.assign(label=y)
    with dask.config.set(
        {"scheduler": "synchronous", "dataframe.convert-string": False}
    ):
        ddf = dd.from_pandas(frame, npartitions=4)
        encoder = PartitionEncoder().fit(ddf.drop(columns="label"), ddf["label"])
        out = encoder.transform(ddf.drop(columns="label")).compute()
    whole = PartitionEncoder().fit(X, y)
    pd.testing.assert_frame_equal(encoder.summary_, whole.summary_)
    np.testing.assert_allclose(np.asarray(out), whole.transform(X))


def test_fit_tables_equals_fit():
    """Check fit_tables on chunks' tables added against fit, and its errors."""
    X, y = _frame()
    categorical = ["category", "noise_0", "flag"]
    tables = column_tables(
        X[:1000], y[:1000], categorical_features=categorical
    ) + column_tables(X[1000:], y[1000:], categorical_features=categorical)
    encoder = PartitionEncoder().fit_tables(tables)
    whole = PartitionEncoder().fit(X, y)
    pd.testing.assert_frame_equal(encoder.summary_, whole.summary_)
    np.testing.assert_allclose(encoder.transform(X), whole.transform(X))
    with pytest.raises(ValueError, match="another kind"):
        PartitionEncoder(numeric=["flag"]).fit_tables(tables)
    with pytest.raises(ValueError, match="without a target"):
        PartitionEncoder().fit_tables(column_tables(X))
    with pytest.raises(TypeError, match="ColumnTables"):
        PartitionEncoder().fit_tables(X)


def test_bad_estimator_parameters_raise_instead_of_skipping():
    """Check that an estimator's invalid parameter is raised, not taken for a
    column that cannot be fitted."""
    X, y = _frame(n_samples=500)
    with pytest.raises(ValueError, match="max_bins"):
        PartitionEncoder(discretizer=KhiopsDiscretizer(max_bins=-1)).fit(X, y)
