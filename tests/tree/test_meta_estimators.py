# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The tree inside meta-estimators that hand it arrays instead of DataFrames.

``BaggingClassifier``, ``cross_val_predict`` and ``SelectFromModel`` pass the tree
``np.asarray(df, dtype=object)`` (or slices of it): ``categorical_features=
"from_dtype"`` must then find the DataFrame's categorical columns again.
"""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.ensemble import BaggingClassifier
from sklearn.feature_selection import SelectFromModel
from sklearn.model_selection import KFold, cross_val_predict, cross_val_score
from sklearn.pipeline import make_pipeline

from partikit.datasets import make_grouped_categorical
from partikit.tree import PartitionTreeClassifier, export_text


def _mixed_frame(n_samples=3000, seed=0):
    """Categorical columns (a hidden grouping, noise) and numeric ones (an
    informative float with missing values, an integer one, noise) of a two-class
    target, with a bool column; the class also depends on the interaction."""
    X, y, _ = make_grouped_categorical(
        n_samples=n_samples,
        n_categories=20,
        n_classes=2,
        n_groups=4,
        signal=0.3,
        n_noise_features=1,
        dtype="object",
        random_state=seed,
    )
    rng = np.random.RandomState(seed)
    score = rng.normal(size=n_samples) + y
    X["score"] = np.where(rng.rand(n_samples) < 0.05, np.nan, score)
    X["age"] = rng.randint(18, 80, n_samples) + 10 * y
    X["flag"] = rng.rand(n_samples) < 0.3
    X["noise"] = rng.normal(size=n_samples)
    flip = (X["age"] > 60) & X["flag"]
    y = np.where(flip, 1 - y, y)
    return X, y


def _same_tree(tree, other, feature_names):
    assert_array_equal(tree.categorical_features_, other.categorical_features_)
    assert export_text(tree, feature_names=feature_names) == export_text(
        other, feature_names=feature_names
    )
    assert_allclose(tree.tree_.value, other.tree_.value)


def test_an_object_array_grows_the_tree_of_its_dataframe():
    """Check fit(np.asarray(df, dtype=object)) grows fit(df)'s tree, numeric
    columns numeric (with and without missing values) and categorical ones
    categorical."""
    X, y = _mixed_frame()
    tree = PartitionTreeClassifier(max_depth=6).fit(X, y)
    from_array = PartitionTreeClassifier(max_depth=6).fit(
        np.asarray(X, dtype=object), y
    )
    assert_array_equal(
        tree.categorical_features_, [True, True, False, False, True, False]
    )
    _same_tree(tree, from_array, list(X.columns))
    assert_array_equal(from_array.predict(np.asarray(X, dtype=object)), tree.predict(X))


@pytest.mark.parametrize(
    "column, categorical",
    [
        (pd.Series([1, 2, 3, 4]), False),
        (pd.Series([1.5, np.nan, 3.0, 4.0]), False),
        (pd.Series([1, pd.NA, 3, 4], dtype="Int64"), False),
        (pd.Series([np.nan] * 4), False),
        (pd.Series(["a", "b", None, "a"], dtype=object), True),
        (pd.Series(["4_4", "12", "3", "4_4"], dtype=object), True),
        (pd.Series(["1", "2", "3", "1"], dtype="string"), True),
        (pd.Series([True, False, True, True]), True),
        (pd.Series([True, pd.NA, False, True], dtype="boolean"), True),
        (pd.Series(["x", "y", "x", "y"], dtype="category"), True),
    ],
)
def test_from_dtype_gives_an_object_array_its_dataframes_mask(column, categorical):
    """Check the usual pandas dtypes (numbers, strings, bools, missing values)
    give the same kind as a DataFrame column and as an object array's column."""
    X = pd.DataFrame({"c": column, "x": [0.0, 1.0, 2.0, 3.0]})
    y = [0, 1, 0, 1]
    from_frame = PartitionTreeClassifier().fit(X, y)
    from_array = PartitionTreeClassifier().fit(np.asarray(X, dtype=object), y)
    assert_array_equal(from_frame.categorical_features_, [categorical, False])
    assert_array_equal(from_array.categorical_features_, [categorical, False])


@pytest.mark.parametrize(
    "column",
    [
        pd.Categorical([3, 1, 2, 3, 1, 2]),
        pd.Series([3, 1, 2, 3, 1, None], dtype=object),
    ],
)
def test_a_dataframes_categorical_numbers_need_declaring_for_arrays(column):
    """Check the documented exception: a column of numbers of dtype category or
    object is categorical in its DataFrame but numbers in an object array, and
    categorical_features declares it for both."""
    X = pd.DataFrame({"code": column, "x": [0.0, 1, 2, 3, 4, 5]})
    y = [0, 1, 0, 0, 1, 0]
    array = np.asarray(X, dtype=object)
    assert PartitionTreeClassifier().fit(X, y).categorical_features_[0]
    assert not PartitionTreeClassifier().fit(array, y).categorical_features_[0]
    declared = PartitionTreeClassifier(categorical_features=[0])
    assert declared.fit(array, y).categorical_features_[0]
    assert declared.fit(X, y).categorical_features_[0]


def test_a_numeric_object_column_with_strings_at_predict_names_the_fix():
    """Check a column fitted as numbers that holds strings at predict raises an
    error telling how to declare it categorical."""
    X = np.array([[1, 0.5], [2, 1.5], [3, 2.5], [4, 3.5]], dtype=object)
    tree = PartitionTreeClassifier().fit(X, [0, 0, 1, 1])
    X[0, 0] = "a"
    with pytest.raises(ValueError, match="list it in categorical_features"):
        tree.predict(X)


def test_bagged_trees_in_a_pipeline_beat_a_single_tree():
    """Check BaggingClassifier, which hands each tree an object array (and a
    subset of its columns with max_features), grows trees that see the
    DataFrame's kinds and together score at least as well as one tree."""
    X, y = _mixed_frame(n_samples=2000, seed=1)
    cv = KFold(3, shuffle=True, random_state=0)
    single = cross_val_score(PartitionTreeClassifier(max_depth=8), X, y, cv=cv)
    bagging = BaggingClassifier(
        PartitionTreeClassifier(max_depth=8),
        n_estimators=10,
        max_features=0.7,
        random_state=0,
    )
    bagged = cross_val_score(make_pipeline(bagging), X, y, cv=cv)
    assert bagged.mean() >= single.mean()
    bagging.fit(X, y)
    expected = PartitionTreeClassifier().fit(X, y).categorical_features_
    for tree, features in zip(
        bagging.estimators_, bagging.estimators_features_, strict=True
    ):
        assert_array_equal(tree.categorical_features_, expected[features])


def test_cross_val_predict_on_an_object_array():
    """Check cross_val_predict gives the same predictions on an object array as
    on its DataFrame."""
    X, y = _mixed_frame(n_samples=900, seed=2)
    tree = PartitionTreeClassifier(max_depth=5)
    cv = KFold(3, shuffle=True, random_state=0)
    from_frame = cross_val_predict(tree, X, y, cv=cv, method="predict_proba")
    from_array = cross_val_predict(
        tree, np.asarray(X, dtype=object), y, cv=cv, method="predict_proba"
    )
    assert_allclose(from_array, from_frame)


def test_select_from_model_keeps_the_informative_columns():
    """Check SelectFromModel(PartitionTreeClassifier()) selects by the tree's
    feature importances, on a DataFrame and on its object array alike."""
    X, y = _mixed_frame(n_samples=1500, seed=3)
    selector = SelectFromModel(PartitionTreeClassifier(max_depth=4)).fit(X, y)
    importances = selector.estimator_.feature_importances_
    assert_array_equal(selector.get_support(), importances >= importances.mean())
    assert "score" in selector.get_feature_names_out()
    assert "noise" not in selector.get_feature_names_out()
    selected = selector.transform(X)
    assert selected.shape == (len(X), selector.get_support().sum())
    from_array = SelectFromModel(PartitionTreeClassifier(max_depth=4))
    from_array.fit(np.asarray(X, dtype=object), y)
    assert_array_equal(from_array.get_support(), selector.get_support())


def _adult(datasets_dir, n_rows):
    adult = pd.read_csv(datasets_dir / "adult" / "data.csv", nrows=n_rows)
    y = adult.pop("income").to_numpy()
    return adult, y


def test_adult_object_array_grows_the_dataframes_tree(datasets_dir):
    """Check, on adult's first rows, that fit(df) and fit(np.asarray(df,
    dtype=object)) grow identical trees (its six numeric columns numeric)."""
    X, y = _adult(datasets_dir, 3000)
    tree = PartitionTreeClassifier(max_depth=8).fit(X, y)
    from_array = PartitionTreeClassifier(max_depth=8).fit(
        np.asarray(X, dtype=object), y
    )
    assert np.sum(~tree.categorical_features_) == 6
    _same_tree(tree, from_array, list(X.columns))


def test_adult_bagged_trees_score_at_least_one_tree(datasets_dir):
    """Check, on adult's first 5,000 rows with 3-fold shuffled cross-validation,
    that 10 bagged depth-8 trees in a Pipeline score at least as well as one
    depth-8 tree (an object array once made every column categorical: 0.595
    against 0.904)."""
    X, y = _adult(datasets_dir, 5000)
    cv = KFold(3, shuffle=True, random_state=0)
    single = cross_val_score(PartitionTreeClassifier(max_depth=8), X, y, cv=cv)
    bagging = BaggingClassifier(
        PartitionTreeClassifier(max_depth=8), n_estimators=10, random_state=0
    )
    bagged = cross_val_score(make_pipeline(bagging), X, y, cv=cv)
    assert bagged.mean() >= single.mean()
