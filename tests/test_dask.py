# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""fit and transform of dask DataFrames, on a LocalCluster of worker processes.

Every transformer fitted on a dask DataFrame (its partitions counted by the
workers, the tables added in a tree of tasks) equals the one fitted in memory
on the same rows, and transforms a dask DataFrame lazily into the in-memory
output.
"""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from scipy import sparse
from sklearn.base import clone

from partikit import PartitionEncoder
from partikit.discretizers import (
    BlockOptDiscretizer,
    KhiopsDiscretizer,
    MDLPDiscretizer,
    MODLDiscretizer,
)
from partikit.groupers import (
    AttributeAggregator,
    CHAIDGrouper,
    KhiopsGrouper,
    MaxCutGrouper,
    MODLGrouper,
)

dask = pytest.importorskip("dask", reason="dask[dataframe] is not installed")
dd = pytest.importorskip("dask.dataframe", reason="dask[dataframe] is not installed")
da = pytest.importorskip("dask.array", reason="dask[dataframe] is not installed")
distributed = pytest.importorskip("distributed", reason="distributed is not installed")

GROUPERS = [
    KhiopsGrouper(),
    CHAIDGrouper(),
    MaxCutGrouper(random_state=0),
    MODLGrouper(),
]
DISCRETIZERS = [
    MDLPDiscretizer(),
    KhiopsDiscretizer(),
    BlockOptDiscretizer(),
    MODLDiscretizer(),
]
N_PARTITIONS = 5


@pytest.fixture(scope="module")
def client():
    """A client of two worker processes, one thread each, for the whole module."""
    with (
        distributed.LocalCluster(
            n_workers=2,
            processes=True,
            threads_per_worker=1,
            dashboard_address=":0",
            memory_limit="2GB",
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def _frame(n=3000, seed=0):
    """Strings (with None), a category column, integers, floats with NaN, y.

    The rows are sorted by y, so class 2 is absent from the first partitions
    and class 0 from the last.
    """
    rng = np.random.default_rng(seed)
    letters = np.array(list("abcdefghij"), dtype=object)
    s = letters[rng.integers(0, 10, n)]
    s[rng.random(n) < 0.05] = None
    c = pd.Categorical(rng.choice(["red", "green", "blue", "grey"], n))
    i = rng.integers(0, 40, n)
    x = np.round(rng.normal(size=n), 2)
    x[rng.random(n) < 0.05] = np.nan
    k = rng.integers(0, 25, n)
    y = np.where(
        np.isin(s, list("abc")),
        0,
        np.where(x > 0.5, 2, rng.integers(0, 3, n)),
    )
    y = np.where(k < 5, 1, y)
    frame = pd.DataFrame({"s": s, "c": c, "i": i, "x": x, "k": k, "y": y})
    return frame.sort_values("y", kind="stable").reset_index(drop=True)


def _columns(estimator):
    return ["s", "c", "i"] if hasattr(estimator, "group_table") else ["x", "k"]


def _assert_same_fit(fitted, expected):
    if hasattr(expected, "group_ids_"):
        for a, b in zip(fitted.categories_, expected.categories_, strict=True):
            assert pd.Index(a).equals(pd.Index(b)) or (
                list(map(str, a)) == list(map(str, b))
            )
        for name in ("group_ids_", "table_"):
            for a, b in zip(
                getattr(fitted, name), getattr(expected, name), strict=True
            ):
                np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(fitted.n_groups_, expected.n_groups_)
        np.testing.assert_array_equal(fitted.default_group_, expected.default_group_)
    else:
        for a, b in zip(fitted.bin_edges_, expected.bin_edges_, strict=True):
            np.testing.assert_array_equal(a, b)
        for a, b in zip(fitted.table_, expected.table_, strict=True):
            np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(fitted.n_bins_, expected.n_bins_)
    np.testing.assert_array_equal(fitted.classes_, expected.classes_)
    np.testing.assert_array_equal(fitted.feature_names_in_, expected.feature_names_in_)
    assert fitted.n_features_in_ == expected.n_features_in_


@pytest.mark.parametrize(
    "estimator", GROUPERS + DISCRETIZERS, ids=lambda e: type(e).__name__
)
def test_fit_and_transform_equal_in_memory(client, estimator):
    frame = _frame()
    columns = _columns(estimator)
    ddf = dd.from_pandas(frame, npartitions=N_PARTITIONS)
    # the class absent from some partitions is what the test is about
    assert any(2 not in set(part["y"].compute()) for part in ddf.partitions)

    fitted = estimator.__class__(**estimator.get_params()).fit(ddf[columns], ddf["y"])
    expected = estimator.__class__(**estimator.get_params()).fit(
        frame[columns], frame["y"]
    )
    _assert_same_fit(fitted, expected)

    out = fitted.transform(ddf[columns])
    assert isinstance(out, da.Array)
    assert out.dtype == np.float64
    assert out.shape[1] == len(fitted.get_feature_names_out())
    np.testing.assert_array_equal(out.compute(), expected.transform(frame[columns]))


@pytest.mark.parametrize("estimator", [GROUPERS[0], DISCRETIZERS[0]])
def test_sample_weight_and_empty_partitions(client, estimator):
    frame = _frame(seed=1)
    columns = _columns(estimator)
    rng = np.random.default_rng(1)
    weight = rng.integers(0, 4, len(frame)).astype(float)
    # a partition whose rows all weigh 0 adds nothing, as in memory
    weight[:600] = 0.0
    frame["w"] = weight
    ddf = dd.from_pandas(frame, npartitions=N_PARTITIONS)
    # and a filter empties some partitions
    kept = ddf[ddf["k"] >= 3]
    kept_frame = frame[frame["k"] >= 3]
    fitted = estimator.__class__(**estimator.get_params()).fit(
        kept[columns], kept["y"], kept["w"]
    )
    expected = estimator.__class__(**estimator.get_params()).fit(
        kept_frame[columns], kept_frame["y"], kept_frame["w"]
    )
    _assert_same_fit(fitted, expected)

    # a number as sample_weight, as in memory
    fitted.fit(kept[columns], kept["y"], 2.0)
    expected.fit(kept_frame[columns], kept_frame["y"], 2.0)
    _assert_same_fit(fitted, expected)

    empty = ddf[ddf["k"] < 0]
    with pytest.raises(ValueError, match="0 sample"):
        estimator.__class__().fit(empty[columns], empty["y"])
    with pytest.raises(ValueError, match="sums to zero"):
        estimator.__class__().fit(ddf[columns], ddf["y"], ddf["w"] * 0)


AGGREGATORS = [
    AttributeAggregator([["s", "c"]], grouper=KhiopsGrouper()),
    AttributeAggregator([["s", "c"], ["c", "i"]]),
    AttributeAggregator(search="pairs", grouper=CHAIDGrouper(encode="onehot")),
]


@pytest.mark.parametrize("aggregator", AGGREGATORS, ids=["grouped", "codes", "search"])
def test_aggregator(client, aggregator):
    frame = _frame(seed=6)
    frame["i"] = frame["i"] % 4
    columns = ["s", "c", "i"]
    ddf = dd.from_pandas(frame, npartitions=N_PARTITIONS)
    supervised = aggregator.grouper is not None or aggregator.search is not None
    y, y_frame = (ddf["y"], frame["y"]) if supervised else (None, None)
    fitted = clone(aggregator).fit(ddf[columns], y)
    expected = clone(aggregator).fit(frame[columns], y_frame)
    assert fitted.aggregates_ == expected.aggregates_
    for a, b in zip(fitted.combinations_, expected.combinations_, strict=True):
        assert list(map(str, a)) == list(map(str, b))
    if supervised:
        _assert_same_fit(fitted.grouper_, expected.grouper_)

    out = fitted.transform(ddf[columns])
    assert isinstance(out, da.Array)
    in_memory = expected.transform(frame[columns])
    computed = out.compute()
    assert computed.dtype == out.dtype == in_memory.dtype
    is_sparse = sparse.issparse(in_memory)
    if is_sparse:
        computed, in_memory = computed.toarray(), in_memory.toarray()
    pd.testing.assert_frame_equal(pd.DataFrame(computed), pd.DataFrame(in_memory))
    if not is_sparse:
        fitted.set_output(transform="pandas")
        expected.set_output(transform="pandas")
        # kept columns keep the dtypes of the partitions (dask stores strings
        # as Arrow strings): the in-memory output of the same partitions; and
        # dask would turn object columns (the codes beside a string column)
        # into strings unless told not to
        in_memory = expected.transform(ddf[columns].compute())
        with dask.config.set({"dataframe.convert-string": False}):
            out = fitted.transform(ddf[columns])
            assert isinstance(out, dd.DataFrame)
            assert list(out.dtypes) == list(in_memory.dtypes)
            pd.testing.assert_frame_equal(out.compute(), in_memory)


def test_pooled_value_tables(client):
    # partitions' tables pooled past max_values, then their sum pooled again:
    # the discretizer that pools the whole column's table in memory
    frame = _frame(seed=5)
    frame["x"] = np.random.default_rng(5).normal(size=len(frame))
    ddf = dd.from_pandas(frame, npartitions=N_PARTITIONS)
    fitted = MDLPDiscretizer(max_values=64).fit(ddf[["x", "k"]], ddf["y"])
    expected = MDLPDiscretizer(max_values=64).fit(frame[["x", "k"]], frame["y"])
    _assert_same_fit(fitted, expected)
    assert fitted.statistics_[0]["pooled_rows"] > 0


@pytest.mark.parametrize("estimator", [GROUPERS[1], DISCRETIZERS[1]])
def test_transform_stays_lazy_with_pandas_output(client, estimator):
    frame = _frame(seed=2)
    columns = _columns(estimator)
    ddf = dd.from_pandas(frame, npartitions=N_PARTITIONS)
    fitted = estimator.__class__(**estimator.get_params()).fit(ddf[columns], ddf["y"])
    fitted.set_output(transform="pandas")
    out = fitted.transform(ddf[columns])
    assert isinstance(out, dd.DataFrame)
    assert list(out.columns) == list(fitted.get_feature_names_out())
    assert (out.dtypes == np.float64).all()
    assert out.divisions == ddf.divisions
    expected = fitted.transform(frame[columns])
    pd.testing.assert_frame_equal(out.compute(), expected)

    # the global configuration, which the workers do not share, is applied too
    fitted.set_output(transform=None)
    import sklearn

    with sklearn.config_context(transform_output="pandas"):
        out = fitted.transform(ddf[columns])
    assert isinstance(out, dd.DataFrame)
    pd.testing.assert_frame_equal(out.compute(), expected)

    fitted.set_output(transform="pandas")
    out = fitted.fit_transform(ddf[columns], ddf["y"])
    assert isinstance(out, dd.DataFrame)
    pd.testing.assert_frame_equal(out.compute(), expected)


@pytest.mark.parametrize("encode", ["onehot", "onehot-dense", "woe"])
def test_encodings(client, encode):
    frame = _frame(seed=3)
    frame["y"] = (frame["y"] == 0).astype(int)
    ddf = dd.from_pandas(frame, npartitions=N_PARTITIONS)
    columns = ["s", "c", "i"]
    fitted = KhiopsGrouper(encode=encode).fit(ddf[columns], ddf["y"])
    out = fitted.transform(ddf[columns])
    expected = fitted.transform(frame[columns])
    assert isinstance(out, da.Array)
    computed = out.compute()
    assert sparse.issparse(computed) == (encode == "onehot")
    if encode == "onehot":
        computed, expected = computed.toarray(), expected.toarray()
        fitted.set_output(transform="pandas")
        with pytest.raises(ValueError, match="sparse"):
            fitted.transform(ddf[columns])
    np.testing.assert_array_equal(computed, expected)


def test_errors(client):
    frame = _frame(seed=4)
    ddf = dd.from_pandas(frame, npartitions=N_PARTITIONS)
    X = ddf[["s", "c"]]
    grouper = KhiopsGrouper()
    with pytest.raises(TypeError, match="y must be a dask Series"):
        grouper.fit(X, frame["y"])
    with pytest.raises(TypeError, match="X must be a dask DataFrame"):
        grouper.fit(frame[["s", "c"]], ddf["y"])
    with pytest.raises(TypeError, match="sample_weight must be a dask Series"):
        grouper.fit(X, ddf["y"], np.ones(len(frame)))
    with pytest.raises(TypeError, match="dask DataFrame"):
        grouper.fit(X.to_dask_array(lengths=True), ddf["y"])
    with pytest.raises(ValueError, match="partitions"):
        grouper.fit(X, ddf["y"].repartition(npartitions=2))
    shifted = dd.from_pandas(frame["y"].set_axis(frame.index + 7), npartitions=5)
    with pytest.raises(ValueError, match="divisions"):
        grouper.fit(X, shifted)
    # unknown divisions: the lengths of the partitions are compared when counted
    unequal = dd.from_pandas(frame["y"].iloc[:-3], npartitions=N_PARTITIONS, sort=False)
    with pytest.raises(ValueError, match="partitioned alike"):
        grouper.fit(X.clear_divisions(), unequal)

    grouper.fit(X, ddf["y"])
    with pytest.raises(ValueError, match="feature names"):
        grouper.transform(ddf[["c", "s"]])
    grouper.set_output(transform="polars")
    with pytest.raises(ValueError, match="polars"):
        grouper.transform(X)
    # a date column is rejected before any partition is read
    dated = ddf[["s"]].assign(day=dd.to_datetime(ddf["k"], unit="D"))
    with pytest.raises(TypeError, match="dates or times"):
        KhiopsGrouper().fit(dated, ddf["y"])
    # a discretizer rejects a string column, as in memory
    with pytest.raises(TypeError, match="dtype"):
        MDLPDiscretizer().fit(ddf[["c", "x"]], ddf["y"])


def test_import_partikit_does_not_import_dask():
    code = (
        "import sys, numpy as np, partikit\n"
        "from partikit.groupers import KhiopsGrouper\n"
        "X = np.array([['a'], ['b'], ['a'], ['b']], dtype=object)\n"
        "KhiopsGrouper().fit(X, [0, 1, 0, 1]).transform(X)\n"
        "assert 'dask' not in sys.modules, 'dask was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_discretizer_woe(client):
    """Check encode="woe" of a discretizer fitted and applied on a dask frame."""
    frame = _frame(seed=3)
    frame["y"] = (frame["y"] == 0).astype(int)
    ddf = dd.from_pandas(frame, npartitions=N_PARTITIONS)
    fitted = MDLPDiscretizer(encode="woe").fit(ddf[["x"]], ddf["y"])
    expected = MDLPDiscretizer(encode="woe").fit(frame[["x"]], frame["y"])
    np.testing.assert_array_equal(fitted.woe_[0], expected.woe_[0])
    np.testing.assert_array_equal(
        fitted.transform(ddf[["x"]]).compute(), expected.transform(frame[["x"]])
    )


@pytest.mark.parametrize(
    "estimator",
    [CHAIDGrouper(), MaxCutGrouper(random_state=0), BlockOptDiscretizer()],
    ids=lambda e: type(e).__name__,
)
def test_continuous_target_equals_in_memory(client, estimator):
    """Check that a continuous target's moment tables, counted by the workers
    and added, give the in-memory fit (halves: the sums are exact in any
    order)."""
    frame = _frame()
    rng = np.random.default_rng(1)
    frame["y"] = frame["y"] + rng.integers(0, 4, len(frame)) / 2 + 0.5
    columns = _columns(estimator)
    ddf = dd.from_pandas(frame, npartitions=N_PARTITIONS)
    params = {**estimator.get_params(), "target_type": "continuous"}
    fitted = estimator.__class__(**params).fit(ddf[columns], ddf["y"])
    expected = estimator.__class__(**params).fit(frame[columns], frame["y"])
    assert fitted.target_type_ == expected.target_type_ == "continuous"
    assert not hasattr(fitted, "classes_")
    for name in ("table_",):
        for a, b in zip(getattr(fitted, name), getattr(expected, name), strict=True):
            np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(
        fitted.transform(ddf[columns]).compute(), expected.transform(frame[columns])
    )


EMPTY_PARTITION_CASES = [
    *[(e, _columns(e), "default") for e in GROUPERS + DISCRETIZERS],
    *[(e, _columns(e), "pandas") for e in (GROUPERS[0], DISCRETIZERS[0])],
    (KhiopsGrouper(encode="onehot"), ["s", "c"], "default"),
    (AGGREGATORS[0], ["s", "c", "i"], "pandas"),
    (AGGREGATORS[1], ["s", "c", "i"], "default"),
    (AGGREGATORS[1], ["s", "c", "i"], "pandas"),
    (PartitionEncoder(), ["s", "c", "x"], "default"),
    (PartitionEncoder(encode="woe"), ["s", "c", "x"], "pandas"),
]


@pytest.mark.parametrize(
    ("estimator", "columns", "output"),
    EMPTY_PARTITION_CASES,
    ids=[f"{type(e).__name__}-{o}" for e, _, o in EMPTY_PARTITION_CASES],
)
def test_empty_partitions_transform_to_no_rows(estimator, columns, output):
    """Check that a partition emptied by a filter counts nothing in fit and
    transforms to no rows of the output's columns and dtype (issue 35, item 4:
    it raised "Found array with 0 sample(s)" at compute time)."""
    frame = _frame(seed=4)
    frame["y"] = (frame["y"] == 0).astype(int)
    ddf = dd.from_pandas(frame, npartitions=N_PARTITIONS)
    # the rows are sorted by y: the first partitions hold class 0 only, and
    # the target learned is the parity of the row number
    kept = ddf[ddf["y"] > 0]
    kept_frame = frame[frame["y"] > 0]
    # dask would turn the object columns kept by an aggregator into strings
    config = {"scheduler": "synchronous", "dataframe.convert-string": False}
    with dask.config.set(config):
        lengths = [len(part) for part in kept.partitions]
        assert 0 in lengths and sum(lengths) > 0
        y = kept["y"].map_partitions(lambda part: part.index.to_series() % 2)
        y_frame = kept_frame.index.to_series() % 2
        fitted = clone(estimator).set_output(transform=output).fit(kept[columns], y)
        expected = clone(estimator).set_output(transform=output)
        expected.fit(kept_frame[columns], y_frame)
        out = fitted.transform(kept[columns])
        computed = out.compute()
    want = expected.transform(kept_frame[columns])
    if output == "pandas":
        assert isinstance(computed, pd.DataFrame)
        pd.testing.assert_frame_equal(computed, want)
    elif sparse.issparse(want):
        assert sparse.issparse(computed)
        np.testing.assert_array_equal(computed.toarray(), want.toarray())
    else:
        assert computed.dtype == want.dtype
        # a frame compares NaN (in an aggregator's kept columns) as equal
        pd.testing.assert_frame_equal(pd.DataFrame(computed), pd.DataFrame(want))
