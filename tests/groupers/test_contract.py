# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The estimator contract of ARCHITECTURE section 3 for every grouper: fitted
attributes, transform, unknown and missing values, dtypes, invariances, weights,
encodings, pickling, threads and bad input."""

import pickle

import joblib
import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import sparse
from sklearn.metrics import adjusted_rand_score

from partikit._statistics._measures import chi2_test
from partikit.datasets import make_grouped_categorical
from partikit.groupers import CHAIDGrouper, KhiopsGrouper, MaxCutGrouper

GROUPERS = [KhiopsGrouper, CHAIDGrouper, MaxCutGrouper]

#: Parameters that keep each grouper's merge trace, where it has one.
_TRACE = {KhiopsGrouper: {"keep_trace": True}}


@pytest.fixture(params=GROUPERS, ids=lambda c: c.__name__)
def grouper_class(request):
    """The grouper class under test."""
    return request.param


@pytest.fixture
def grouped_data():
    X, y, _ = make_grouped_categorical(
        n_samples=3000,
        n_categories=12,
        n_classes=3,
        n_groups=3,
        signal=0.5,
        n_noise_features=1,
        dtype="object",
        random_state=0,
    )
    return X, y


def test_fitted_attributes_are_consistent(grouper_class, grouped_data):
    """Check categories_, group_ids_, groups_, table_, statistics_ agree."""
    X, y = grouped_data
    grouper = grouper_class(**_TRACE.get(grouper_class, {})).fit(X, y)
    assert_array_equal(grouper.classes_, [0, 1, 2])
    for j in range(2):
        cats, ids = grouper.categories_[j], grouper.group_ids_[j]
        assert list(cats) == sorted(cats)
        assert ids.max() + 1 == grouper.n_groups_[j] == len(grouper.groups_[j])
        # canonical numbering: groups appear in the order of their first category
        assert_array_equal(
            np.unique(ids, return_index=True)[1],
            np.sort(np.unique(ids, return_index=True)[1]),
        )
        assert grouper.table_[j].shape == (grouper.n_groups_[j], 3)
        assert grouper.table_[j].sum() == len(y)
        chi2_value, dof, log10_p = chi2_test(grouper.table_[j])
        stats = grouper.statistics_[j]
        assert stats["chi2"] == pytest.approx(chi2_value)
        assert stats["dof"] == dof
        assert stats["log10_pvalue"] == pytest.approx(log10_p)
        assert stats["n_categories"] == len(cats)
        assert ("trace" in stats) == (grouper_class is KhiopsGrouper)
    assert "trace" not in grouper_class().fit(X, y).statistics_[0]


def test_transform_maps_categories_to_their_groups(grouper_class, grouped_data):
    """Check that every seen category is mapped to the group it was fitted in and
    that fit_transform equals fit then transform."""
    X, y = grouped_data
    grouper = grouper_class()
    Xt = grouper.fit_transform(X, y)
    assert_array_equal(Xt, grouper.transform(X))
    for j, column in enumerate(X.columns):
        mapping = dict(zip(grouper.categories_[j], grouper.group_ids_[j], strict=True))
        assert_array_equal(Xt[:, j], X[column].map(mapping).to_numpy())
    assert Xt.dtype == np.float64


def test_unknown_categories_go_to_default_group(grouper_class, grouped_data):
    """Check that unseen categories (and an unseen NaN) get default_group_."""
    X, y = grouped_data
    grouper = grouper_class().fit(X, y)
    new = pd.DataFrame({"category": ["zzz", None, "c00"], "noise_0": ["c00"] * 3})
    out = grouper.transform(new)
    assert out[0, 0] == out[1, 0] == grouper.default_group_[0]
    assert out[2, 0] == grouper.group_ids_[0][0]


def test_handle_unknown_error_names_column_and_values(grouper_class, grouped_data):
    """Check the error for unseen categories: column name, at most 5 values."""
    X, y = grouped_data
    grouper = grouper_class(handle_unknown="error").fit(X, y)
    new = X.head(8).copy()
    new["category"] = [f"new{k}" for k in range(8)]
    with pytest.raises(
        ValueError,
        match=r"8 unknown categories in column "
        r"'category'.*'new0'.*'new4'\] and 3 more",
    ):
        grouper.transform(new)
    assert_array_equal(grouper.transform(X), grouper_class().fit(X, y).transform(X))


def test_missing_values_form_one_category(grouper_class):
    """Check that NaN, None and pd.NA are one category, stored last as nan."""
    rng = np.random.default_rng(0)
    values = rng.choice(np.array(["a", "b", None, np.nan, pd.NA], dtype=object), 3000)
    y = rng.integers(0, 2, 3000)
    grouper = grouper_class().fit(pd.DataFrame({"x": values}), y)
    cats = grouper.categories_[0]
    assert list(cats[:-1]) == ["a", "b"] and pd.isna(cats[-1])
    out = grouper.transform(pd.DataFrame({"x": [None, np.nan, pd.NA]}))
    assert len(set(out[:, 0])) == 1
    assert out[0, 0] == grouper.group_ids_[0][-1]


@pytest.mark.parametrize(
    "make_column",
    [
        lambda v: pd.Series(v, dtype=object),
        lambda v: pd.Series(v, dtype="category"),
        lambda v: pd.Series(v, dtype="string"),
        lambda v: pd.Series(v, dtype="str"),
        lambda v: pd.Series(v).astype("category").cat.add_categories(["unused"]),
    ],
    ids=["object", "category", "string", "str", "category-unused"],
)
def test_string_column_dtypes_give_the_same_groups(grouper_class, make_column):
    """Check object, category, string and str columns give identical results."""
    X, y, _ = make_grouped_categorical(
        n_samples=4000,
        n_categories=10,
        n_classes=3,
        n_groups=3,
        dtype="object",
        random_state=3,
    )
    reference = grouper_class().fit(X, y)
    values = X["category"].to_numpy()
    other = grouper_class().fit(pd.DataFrame({"category": make_column(values)}), y)
    assert_array_equal(other.categories_[0], reference.categories_[0])
    assert_array_equal(other.group_ids_[0], reference.group_ids_[0])
    assert other.categories_[0].dtype == object
    assert_array_equal(
        other.transform(pd.DataFrame({"category": make_column(values)})),
        reference.transform(X),
    )


@pytest.mark.parametrize("dtype", ["int64", "float64", "Int64", "int8", "bool"])
def test_numeric_and_bool_columns_are_categories(grouper_class, dtype):
    """Check that integer, float, nullable and bool columns are grouped as
    categories, not coerced."""
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 2 if dtype == "bool" else 6, 2000)
    y = (rng.random(2000) < np.where(codes % 2 == 0, 0.8, 0.2)).astype(int)
    X = pd.DataFrame({"x": pd.Series(codes).astype(dtype)})
    grouper = grouper_class().fit(X, y)
    assert len(grouper.categories_[0]) == (2 if dtype == "bool" else 6)
    assert grouper.n_groups_[0] == 2
    assert_array_equal(grouper.transform(X)[:, 0] % 1, 0)


def test_numpy_and_polars_inputs(grouper_class, df_module):
    """Check that numpy arrays, pandas and polars frames give the same groups."""
    X, y, _ = make_grouped_categorical(
        n_samples=3000,
        n_categories=8,
        n_classes=2,
        n_groups=2,
        dtype="object",
        random_state=2,
    )
    reference = grouper_class().fit(X.to_numpy(), y)
    frame = df_module.DataFrame({"category": X["category"].tolist()})
    grouper = grouper_class().fit(frame, y)
    assert_array_equal(grouper.group_ids_[0], reference.group_ids_[0])
    assert_array_equal(grouper.transform(frame), reference.transform(X.to_numpy()))


def test_polars_categorical_and_set_output(grouper_class, df_module):
    """Check polars Categorical input and set_output to the same library."""
    if df_module.__name__ != "polars":
        pytest.skip("polars-specific")
    pl = df_module
    frame = pl.DataFrame({"c": ["a", "b", "a", "c"] * 50}).with_columns(
        pl.col("c").cast(pl.Categorical)
    )
    y = np.array([0, 1, 0, 1] * 50)
    out = grouper_class().set_output(transform="polars").fit(frame, y).transform(frame)
    assert isinstance(out, pl.DataFrame) and out.columns == ["c"]


def test_row_order_and_label_encoding_do_not_change_the_result(
    grouper_class, grouped_data
):
    """Check invariance to shuffling rows and to relabelling the classes."""
    X, y = grouped_data
    reference = grouper_class().fit(X, y).transform(X)
    perm = np.random.default_rng(0).permutation(len(y))
    shuffled = grouper_class().fit(X.iloc[perm], y[perm])
    assert_array_equal(shuffled.transform(X), reference)
    labels = np.array(["zebra", "apple", "mango"])[y]
    relabelled = grouper_class().fit(X, labels)
    assert_array_equal(relabelled.transform(X), reference)


def test_renaming_categories_keeps_the_partition(grouper_class, grouped_data):
    """Check that renaming categories gives the same partition of the rows: any
    renaming for Khiops and CHAID; a renaming that keeps the categories' sorted
    order for MaxCut, whose greedy cut places the categories in that order."""
    X, y = grouped_data
    reference = grouper_class().fit(X[["category"]], y).transform(X[["category"]])
    prefixed = X[["category"]].apply(lambda c: "v" + c)
    out = grouper_class().fit(prefixed, y).transform(prefixed)
    assert adjusted_rand_score(reference[:, 0], out[:, 0]) == 1.0
    if grouper_class is MaxCutGrouper:
        return
    renamed = X[["category"]].apply(lambda c: "v" + c.str[::-1])
    out = grouper_class().fit(renamed, y).transform(renamed)
    assert adjusted_rand_score(reference[:, 0], out[:, 0]) == 1.0


def test_sample_weight_integer_equals_repetition_and_zero_equals_removal(
    grouper_class,
    grouped_data,
):
    """Check integer weights against repeated rows and zero weights against
    removed rows (a category seen only with weight 0 is unseen)."""
    X, y = grouped_data
    rng = np.random.default_rng(0)
    w = rng.integers(0, 4, len(y))
    weighted = grouper_class().fit(X, y, sample_weight=w)
    repeated = grouper_class().fit(X.loc[X.index.repeat(w)], np.repeat(y, w))
    for a, b in zip(weighted.categories_, repeated.categories_, strict=True):
        assert_array_equal(a, b)
    assert_array_equal(weighted.transform(X), repeated.transform(X))
    for a, b in zip(weighted.table_, repeated.table_, strict=True):
        assert_allclose(a, b)
    # a category present only in zero-weight rows is unseen
    X2 = pd.concat([X, pd.DataFrame({"category": ["ghost"], "noise_0": ["c00"]})])
    y2 = np.append(y, 0)
    w2 = np.append(np.ones(len(y)), 0.0)
    ghost = grouper_class().fit(X2, y2, sample_weight=w2)
    assert "ghost" not in set(ghost.categories_[0])


def test_pickle_and_joblib_round_trip(grouper_class, grouped_data, tmp_path):
    """Check that pickled and joblib-dumped groupers transform identically."""
    X, y = grouped_data
    grouper = grouper_class(**_TRACE.get(grouper_class, {})).fit(X, y)
    expected = grouper.transform(X)
    restored = pickle.loads(pickle.dumps(grouper))
    assert_array_equal(restored.transform(X), expected)
    joblib.dump(grouper, tmp_path / "grouper.joblib")
    assert_array_equal(joblib.load(tmp_path / "grouper.joblib").transform(X), expected)


def test_n_jobs_gives_the_same_result(grouper_class, grouped_data):
    """Check that fitting columns in parallel changes nothing."""
    X, y = grouped_data
    assert_array_equal(
        grouper_class(n_jobs=2).fit(X, y).transform(X),
        grouper_class().fit(X, y).transform(X),
    )


def test_onehot_encodings_and_feature_names(grouper_class, grouped_data):
    """Check sparse and dense one-hot output and their feature names."""
    X, y = grouped_data
    ordinal = grouper_class().fit(X, y)
    onehot = grouper_class(encode="onehot").fit(X, y)
    out = onehot.transform(X)
    assert sparse.issparse(out) and out.format == "csr"
    assert out.shape == (len(y), ordinal.n_groups_.sum())
    assert_array_equal(out.sum(axis=1), 2)
    dense = grouper_class(encode="onehot-dense").fit(X, y).transform(X)
    assert_array_equal(dense, out.toarray())
    assert_array_equal(
        dense[:, : ordinal.n_groups_[0]].argmax(axis=1), ordinal.transform(X)[:, 0]
    )
    names = onehot.get_feature_names_out()
    assert names[0] == "category_g0"
    assert names[-1] == f"noise_0_g{ordinal.n_groups_[1] - 1}"
    assert_array_equal(ordinal.get_feature_names_out(), ["category", "noise_0"])
    unnamed = grouper_class(encode="onehot").fit(X.to_numpy(), y)
    assert_array_equal(unnamed.get_feature_names_out(["a", "b"])[:1], ["a_g0"])
    assert unnamed.get_feature_names_out()[0] == "x0_g0"


def test_constant_column_gives_one_group_with_a_warning(grouper_class):
    """Check that a constant column yields one group and a UserWarning."""
    X = np.array([["same"]] * 20)
    y = np.array([0, 1] * 10)
    with pytest.warns(UserWarning, match="single category"):
        grouper = grouper_class().fit(X, y)
    assert grouper.n_groups_[0] == 1
    assert_array_equal(grouper.transform(X), 0.0)


# ----------------------------------------------------------------------------
# Bad input: a clear error naming the problem
# ----------------------------------------------------------------------------


@pytest.fixture
def small():
    X = pd.DataFrame({"color": ["red", "blue", "red", "green"] * 5})
    y = np.array([0, 1, 0, 1] * 5)
    return X, y


def test_nan_in_y_raises(grouper_class, small):
    """Check that NaN in y raises a ValueError saying so."""
    X, y = small
    y = y.astype(float)
    y[3] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        grouper_class().fit(X, y)


def test_single_class_y_raises(grouper_class, small):
    """Check that a single class raises (documented decision), also when the
    other classes only have zero weight."""
    X, y = small
    with pytest.raises(ValueError, match="1 class"):
        grouper_class().fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="1 class"):
        grouper_class().fit(X, y, sample_weight=(y == 0).astype(float))


def test_class_of_zero_weight_only_is_no_class(grouper_class, small):
    """Check that a class whose rows all have zero weight, the first one
    included, is left out as if its rows were removed."""
    X, y = small
    y = np.asarray(y) + 1
    y[:5] = 0  # the first class, of zero weight only
    weights = np.ones(len(y))
    weights[:5] = 0.0
    weighted = grouper_class().fit(X, y, sample_weight=weights)
    removed = grouper_class().fit(X[5:], y[5:])
    assert_array_equal(weighted.classes_, removed.classes_)
    for a, b in zip(weighted.group_ids_, removed.group_ids_, strict=True):
        assert_array_equal(a, b)


def test_continuous_or_missing_y_raises(grouper_class, small):
    """Check that a continuous target raises unless the grouper takes one, and
    that y=None raises."""
    X, y = small
    if "continuous" not in grouper_class._target_types:
        with pytest.raises(ValueError, match="y is a continuous target"):
            grouper_class().fit(X, np.linspace(0, 1, len(y)))
    with pytest.raises(ValueError, match="requires y"):
        grouper_class().fit(X, None)


@pytest.mark.parametrize("shape", [(0, 1), (5, 0)])
def test_empty_X_raises(grouper_class, shape):
    """Check that X with no rows or no columns raises."""
    with pytest.raises(ValueError, match=r"0 (sample|feature)"):
        grouper_class().fit(np.empty(shape, dtype=object), np.zeros(shape[0]))


def test_length_mismatch_raises(grouper_class, small):
    """Check that X and y of different lengths raise, naming both."""
    X, y = small
    with pytest.raises(ValueError, match="X has 20 rows but y has 19"):
        grouper_class().fit(X, y[:-1])


@pytest.mark.parametrize("bad", [-1.0, np.nan, np.inf])
def test_bad_sample_weight_raises(grouper_class, small, bad):
    """Check that negative, NaN and infinite weights raise; so does all-zero."""
    X, y = small
    w = np.ones(len(y))
    w[2] = bad
    with pytest.raises(ValueError, match="(?i)negative|NaN|infinity"):
        grouper_class().fit(X, y, sample_weight=w)
    # scikit-learn >= 1.9 rejects all-zero weights itself, with its own message
    with pytest.raises(ValueError, match="sums to zero|at least one non-zero"):
        grouper_class().fit(X, y, sample_weight=np.zeros(len(y)))
    with pytest.raises(ValueError):
        grouper_class().fit(X, y, sample_weight=np.ones(len(y) - 1))


def test_column_changing_kind_between_fit_and_transform_raises(grouper_class, small):
    """Check that a string column given as numbers at transform raises,
    naming the column."""
    X, y = small
    grouper = grouper_class().fit(X, y)
    with pytest.raises(ValueError, match="'color' held string categories in fit"):
        grouper.transform(pd.DataFrame({"color": [1.5, 2.0]}))


def test_infinity_and_mixed_types_raise(grouper_class):
    """Check that inf in a numeric column and mixed strings/numbers raise."""
    y = np.array([0, 1] * 5)
    with pytest.raises(ValueError, match="infinity"):
        grouper_class().fit(np.array([[1.0], [np.inf]] * 5), y)
    with pytest.raises(TypeError, match="mixes values"):
        grouper_class().fit(np.array([["a"], [1]] * 5, dtype=object), y)


def test_transform_never_drops_or_reorders_rows(grouper_class, grouped_data):
    """Check that transform keeps every row, in order, unknowns included."""
    X, y = grouped_data
    grouper = grouper_class().fit(X, y)
    mixed = pd.concat(
        [
            X.head(50),
            pd.DataFrame({"category": ["new"] * 3, "noise_0": ["c01"] * 3}),
            X.tail(50),
        ],
        ignore_index=True,
    )
    out = grouper.transform(mixed)
    assert out.shape == (103, 2)
    assert_array_equal(out[:50], grouper.transform(X.head(50)))
    assert_array_equal(out[53:], grouper.transform(X.tail(50)))
