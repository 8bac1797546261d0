# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Bad input gets a clear error, from every public estimator (ARCHITECTURE §3).

Every estimator is discovered by ``all_estimators``; each case below runs on each
of them and must raise the documented exception with a message naming the
problem: never a numba, pandas or comparison error from deep inside, never a
silent result.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone, is_regressor
from sklearn.exceptions import NotFittedError

from partikit.groupers import KhiopsGrouper
from partikit.utils import all_estimators

#: Constructor arguments that make an estimator use y (the aggregator ignores y
#: without a grouper or a search).
SUPERVISED_PARAMS = {"AttributeAggregator": {"grouper": KhiopsGrouper()}}

N_ROWS = 60


def _estimators():
    for name, cls in all_estimators():
        yield pytest.param(cls(**SUPERVISED_PARAMS.get(name, {})), id=name)


def _is_discretizer(estimator):
    return type(estimator).__name__.endswith("Discretizer")


def _is_classifier(estimator):
    return hasattr(estimator, "predict")


def _valid_X(estimator, n_rows=N_ROWS):
    """Two columns each estimator accepts: numbers for the discretizers, a
    string and a float column for the others (the tree splits the float column
    numerically, the groupers take its values as categories)."""
    rng = np.random.RandomState(0)
    amount = np.round(rng.uniform(0, 10, size=n_rows), 1)
    if _is_discretizer(estimator):
        return pd.DataFrame({"amount": amount, "size": amount[::-1].copy()})
    color = rng.choice(["red", "green", "blue"], size=n_rows)
    return pd.DataFrame({"color": color, "amount": amount})


def _valid_y(n_rows=N_ROWS):
    return np.arange(n_rows) % 2


def _fit(estimator, X, y, **fit_params):
    with warnings.catch_warnings():
        # single-category or uninformative columns warn; not what is tested here
        warnings.simplefilter("ignore", UserWarning)
        return estimator.fit(X, y, **fit_params)


def _use(estimator, X):
    method = estimator.predict if _is_classifier(estimator) else estimator.transform
    return method(X)


@pytest.fixture(params=list(_estimators()))
def estimator(request):
    # a fresh, unfitted copy for every test
    return clone(request.param)


@pytest.mark.parametrize(
    "y",
    [
        np.where(np.arange(N_ROWS) == 7, np.nan, np.arange(N_ROWS) % 2),
        np.where(np.arange(N_ROWS) == 7, None, np.array(["a", "b"] * 30, dtype=object)),
        pd.Series(["a", "b"] * 30, dtype="string").mask(np.arange(N_ROWS) == 7),
    ],
    ids=["float-nan", "object-none", "string-na"],
)
def test_y_with_missing_values(estimator, y):
    """Check that missing labels raise a ValueError with their count and first
    row (not a TypeError from sorting floats and strings)."""
    with pytest.raises(ValueError, match=r"y has 1 missing value.*first at row 7"):
        _fit(estimator, _valid_X(estimator), y)


def test_y_of_one_class(estimator):
    """Check that one class is an error for a transformer and a one-leaf tree
    for the classifier (as scikit-learn's trees)."""
    y = np.zeros(N_ROWS, dtype=int)
    if _is_tree(estimator):
        fitted = _fit(estimator, _valid_X(estimator), y)
        assert fitted.get_n_leaves() == 1
        assert (fitted.predict(_valid_X(estimator)) == 0).all()
        return
    with pytest.raises(ValueError, match="1 class"):
        _fit(estimator, _valid_X(estimator), y)


def _is_tree(estimator):
    # the trees make one leaf of one class, as scikit-learn's do
    return hasattr(estimator, "get_n_leaves")


def test_continuous_y(estimator):
    """Check that a continuous float target is read as one by the estimators
    that take one, and refused with the alternatives named by the others."""
    y = np.linspace(0, 1, N_ROWS)
    if is_regressor(estimator):
        fitted = _fit(estimator, _valid_X(estimator), y)
        assert not hasattr(fitted, "classes_")
        assert np.isfinite(fitted.predict(_valid_X(estimator))).all()
        return
    if "continuous" in getattr(estimator, "_target_types", ()):
        fitted = _fit(estimator, _valid_X(estimator), y)
        assert fitted.target_type_ == "continuous"
        assert not hasattr(fitted, "classes_")
        return
    match = (
        "continuous.*classification target"
        if _is_classifier(estimator)
        else "y is a continuous target.*For a continuous target use CHAIDGrouper"
    )
    with pytest.raises(ValueError, match=match):
        _fit(estimator, _valid_X(estimator), y)


def test_length_mismatch(estimator):
    """Check that X and y of different lengths raise a ValueError."""
    with pytest.raises(ValueError, match=f"X has {N_ROWS} rows but y has 59"):
        _fit(estimator, _valid_X(estimator), _valid_y()[:-1])


def test_zero_rows(estimator):
    """Check that an X without rows raises a ValueError."""
    with pytest.raises(ValueError, match="0 sample"):
        _fit(estimator, _valid_X(estimator).iloc[:0], _valid_y()[:0])


def test_one_row(estimator):
    """Check that one row, hence one class, is the single-class error for a
    transformer and a one-leaf tree for the classifier."""
    X, y = _valid_X(estimator).iloc[:1], _valid_y()[:1]
    if _is_tree(estimator):
        assert _fit(estimator, X, y).get_n_leaves() == 1
        return
    with pytest.raises(ValueError, match="1 class"):
        _fit(estimator, X, y)


def test_zero_columns(estimator):
    """Check that an X without columns raises a ValueError."""
    with pytest.raises(ValueError, match="0 feature"):
        _fit(estimator, np.empty((N_ROWS, 0)), _valid_y())


def test_three_dimensional_X(estimator):
    """Check that a 3-D array raises a ValueError."""
    with pytest.raises(ValueError, match="dim 3"):
        _fit(estimator, np.zeros((N_ROWS, 2, 2)), _valid_y())


def test_infinity_in_a_numeric_column(estimator):
    """Check that inf in a numeric column is named in a ValueError, in fit and
    in transform."""
    X = _valid_X(estimator)
    X.loc[5, "amount"] = np.inf
    with pytest.raises(ValueError, match="infinity in .*column 'amount'"):
        _fit(estimator, X, _valid_y())
    fitted = _fit(estimator, _valid_X(estimator), _valid_y())
    with pytest.raises(ValueError, match="infinity"):
        _use(fitted, X)


def test_duplicated_column_names(estimator):
    """Check that duplicated column names raise a ValueError naming them."""
    X = _valid_X(estimator)
    X.columns = ["a", "a"]
    with pytest.raises(ValueError, match=r"duplicated column names \['a'\]"):
        _fit(estimator, X, _valid_y())


def test_non_string_column_names(estimator):
    """Check that mixed string and integer names raise scikit-learn's TypeError,
    and that all-integer names are positions, as in scikit-learn."""
    X = _valid_X(estimator)
    X.columns = ["a", 1]
    with pytest.raises(TypeError, match="all input features have string names"):
        _fit(estimator, X, _valid_y())
    X.columns = [0, 1]
    fitted = _fit(estimator, X, _valid_y())
    assert fitted.n_features_in_ == 2
    assert not hasattr(fitted, "feature_names_in_")


def test_datetime_column(estimator):
    """Check that a datetime column is a TypeError naming it."""
    X = _valid_X(estimator)
    X["amount"] = pd.date_range("2024-01-01", periods=N_ROWS, freq="D")
    if type(estimator).__name__ in ("PartitionEncoder", "Scorecard"):
        # a whole table's encoder leaves it out and says so, as the report does
        with pytest.warns(UserWarning, match="'amount': its dtype datetime64"):
            fitted = estimator.fit(X, _valid_y())
        encoder = getattr(fitted, "encoder_", fitted)
        assert list(encoder.skipped_) == ["amount"]
        return
    with pytest.raises(TypeError, match="Column 'amount' holds dates"):
        _fit(estimator, X, _valid_y())


@pytest.mark.parametrize(
    "sample_weight, message",
    [
        (np.r_[-1.0, np.ones(N_ROWS - 1)], "Negative values"),
        (np.r_[np.nan, np.ones(N_ROWS - 1)], "NaN"),
        (np.ones(N_ROWS - 1), "inconsistent numbers of samples|shape"),
    ],
    ids=["negative", "nan", "wrong-length"],
)
def test_bad_sample_weight(estimator, sample_weight, message):
    """Check that negative, NaN and wrong-length weights raise a ValueError."""
    with pytest.raises(ValueError, match=message):
        _fit(estimator, _valid_X(estimator), _valid_y(), sample_weight=sample_weight)


def test_transform_with_columns_missing_or_reordered(estimator):
    """Check that transform (predict) with a column missing or the columns in
    another order raises a ValueError."""
    X = _valid_X(estimator)
    fitted = _fit(estimator, X, _valid_y())
    with pytest.raises(ValueError, match="(?s)feature names should match.*missing"):
        _use(fitted, X.iloc[:, :1])
    with pytest.raises(ValueError, match="feature names should match"):
        _use(fitted, X.iloc[:, ::-1])


def test_transform_before_fit(estimator):
    """Check that transform (predict) before fit raises NotFittedError."""
    with pytest.raises(NotFittedError):
        _use(estimator, _valid_X(estimator))
