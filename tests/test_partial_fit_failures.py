# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""partial_fit under failure, mixed label types and threads (issue 35, items 2, 3, 10).

* A call of ``partial_fit`` that raises leaves the estimator as it was before
  the call (its fitted attributes and the tables of the chunks so far), and the
  next good chunk fits as ``fit`` on the good chunks.
* Class labels of two types (``0`` and ``"0"``) raise the same error in ``fit``,
  ``partial_fit`` and the ``+`` of two tables.
* Calls of ``partial_fit`` on one estimator from several threads run one after
  the other: no row is lost.
"""

import copy
import pickle
import threading
import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

from partikit import PartitionEncoder, column_tables
from partikit._counting._validation import label_kind
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

MIXED_LABELS = "mixes class labels of two types"

# every estimator with partial_fit, with an output that refuses a third class
# (encode="woe" needs a binary target): a chunk holding one makes the fit raise
# after the chunk's tables were added
REFUSING_A_THIRD_CLASS = {
    "KhiopsGrouper": lambda: KhiopsGrouper(encode="woe"),
    "CHAIDGrouper": lambda: CHAIDGrouper(encode="woe"),
    "MaxCutGrouper": lambda: MaxCutGrouper(encode="woe", random_state=0),
    "MODLGrouper": lambda: MODLGrouper(encode="woe"),
    "MDLPDiscretizer": lambda: MDLPDiscretizer(encode="woe"),
    "KhiopsDiscretizer": lambda: KhiopsDiscretizer(encode="woe"),
    "BlockOptDiscretizer": lambda: BlockOptDiscretizer(encode="woe"),
    "MODLDiscretizer": lambda: MODLDiscretizer(encode="woe"),
    "AttributeAggregator": lambda: AttributeAggregator(
        aggregates=[["first", "second"]], grouper=KhiopsGrouper(encode="woe")
    ),
    "PartitionEncoder": lambda: PartitionEncoder(encode="woe"),
}
NUMERIC = {name for name in REFUSING_A_THIRD_CLASS if name.endswith("Discretizer")}


def _data(name, n_samples, seed):
    """Columns the estimator ``name`` partitions, and a binary target."""
    rng = np.random.default_rng(seed)
    if name in NUMERIC:
        x = np.round(rng.uniform(0, 10, n_samples), 1)
        X = pd.DataFrame({"x": x, "z": rng.normal(size=n_samples)})
        signal = x > 5
    else:
        letters = np.array(list("abcdef"), dtype=object)
        X = pd.DataFrame(
            {
                "first": rng.choice(letters, n_samples),
                "second": rng.choice(letters[:3], n_samples),
            }
        )
        signal = np.isin(X["first"], ["a", "b"])
    y = np.where(rng.random(n_samples) < 0.8, signal, ~signal).astype(int)
    return X, y


def _assert_same_output(a, b, X):
    assert_array_equal(getattr(a, "classes_", []), getattr(b, "classes_", []))
    assert_array_equal(np.asarray(a.transform(X)), np.asarray(b.transform(X)))
    if hasattr(a, "table_"):
        for table_a, table_b in zip(a.table_, b.table_, strict=True):
            assert_array_equal(table_a, table_b)


@pytest.fixture(autouse=True)
def _quiet():
    # the small chunks make some columns one group, with a warning
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("name", sorted(REFUSING_A_THIRD_CLASS))
def test_a_failed_chunk_leaves_the_estimator_as_it_was(name):
    """Check that a chunk whose fit raises is not counted: the estimator's
    attributes are the same objects as before the call, and the next good chunk
    gives fit on the good chunks only."""
    make = REFUSING_A_THIRD_CLASS[name]
    X, y = _data(name, 300, 0)
    streamed = make().partial_fit(X[:100], y[:100])
    before = dict(streamed.__dict__)
    third_class = y[100:200].copy()
    third_class[:5] = 2
    with pytest.raises(ValueError, match="needs a binary target"):
        streamed.partial_fit(X[100:200], third_class)
    assert streamed.__dict__.keys() == before.keys()
    for key, value in before.items():
        assert streamed.__dict__[key] is value, key
    # the next good chunk: as fit on the good chunks, the refused one left out
    streamed.partial_fit(X[200:], y[200:])
    good = np.r_[0:100, 200:300]
    _assert_same_output(streamed, make().fit(X.iloc[good], y[good]), X)


@pytest.mark.parametrize("name", ["KhiopsGrouper", "MDLPDiscretizer"])
def test_a_failed_first_chunk_leaves_the_fit_before(name):
    """Check that a refused first chunk after fit (which counts anew, resetting
    the input features) leaves fit's attributes, and an unfitted estimator
    unfitted."""
    make = REFUSING_A_THIRD_CLASS[name]
    X, y = _data(name, 200, 1)
    fitted = make().fit(X[:100], y[:100])
    before = dict(fitted.__dict__)
    renamed = X[100:].rename(columns=lambda column: column + "_other")
    third_class = y[100:].copy()
    third_class[0] = 2
    with pytest.raises(ValueError, match="needs a binary target"):
        fitted.partial_fit(renamed, third_class)
    assert {k: v for k, v in fitted.__dict__.items() if k != "_fit_lock"} == {
        k: v for k, v in before.items() if k != "_fit_lock"
    }
    assert_array_equal(fitted.feature_names_in_, X.columns)
    fresh = make()
    with pytest.raises(ValueError, match="needs a binary target"):
        fresh.partial_fit(X[100:], third_class)
    with pytest.raises(NotFittedError):
        check_is_fitted(fresh)
    assert not hasattr(fresh, "_partial_tables")
    assert not hasattr(fresh, "n_features_in_")


def test_a_column_of_inf_is_not_counted():
    """Check a chunk refused while it is counted (a column of inf for a
    discretizer): the stream goes on as if it had not been given."""
    X, y = _data("MDLPDiscretizer", 300, 2)
    streamed = MDLPDiscretizer().partial_fit(X[:150], y[:150])
    infinite = X[150:200].assign(x=np.inf)
    with pytest.raises(ValueError, match="infinity"):
        streamed.partial_fit(infinite, y[150:200])
    streamed.partial_fit(X[200:], y[200:])
    good = np.r_[0:150, 200:300]
    _assert_same_output(streamed, MDLPDiscretizer().fit(X.iloc[good], y[good]), X)


def test_a_chunk_refused_by_classes_is_not_counted():
    X, y = _data("KhiopsGrouper", 300, 3)
    streamed = KhiopsGrouper().partial_fit(X[:100], y[:100], classes=[0, 1])
    with pytest.raises(ValueError, match=r"labels \[7\]"):
        streamed.partial_fit(X[100:200], np.full(100, 7))
    streamed.partial_fit(X[200:], y[200:])
    good = np.r_[0:100, 200:300]
    _assert_same_output(streamed, KhiopsGrouper().fit(X.iloc[good], y[good]), X)


def test_chunks_of_one_class_stay_counted():
    """Check the documented exception: a chunk that leaves the chunks so far
    with one class raises fit's error but is counted (its rows are good)."""
    X, y = _data("KhiopsGrouper", 200, 4)
    order = np.argsort(y, kind="stable")
    X, y = X.iloc[order].reset_index(drop=True), y[order]
    n_zeros = int((y == 0).sum())
    streamed = KhiopsGrouper()
    with pytest.raises(ValueError, match="1 class"):
        streamed.partial_fit(X[:n_zeros], y[:n_zeros])
    streamed.partial_fit(X[n_zeros:], y[n_zeros:])
    _assert_same_output(streamed, KhiopsGrouper().fit(X, y), X)


# --- labels of two types ------------------------------------------------------


def test_fit_refuses_labels_of_two_types():
    X, y = _data("KhiopsGrouper", 40, 5)
    mixed = np.array([*y[:20], *y[20:].astype(str)], dtype=object)
    with pytest.raises(ValueError, match=MIXED_LABELS):
        KhiopsGrouper().fit(X, mixed)
    with pytest.raises(ValueError, match=MIXED_LABELS):
        column_tables(X, mixed)


@pytest.mark.parametrize("name", ["KhiopsGrouper", "MDLPDiscretizer"])
def test_partial_fit_refuses_labels_of_another_type(name):
    """Check int labels then str labels: fit's error on the concatenation, and
    the chunk is not counted."""
    make = REFUSING_A_THIRD_CLASS[name]
    X, y = _data(name, 300, 6)
    streamed = make().partial_fit(X[:100], y[:100])
    with pytest.raises(ValueError, match=MIXED_LABELS):
        streamed.partial_fit(X[100:200], y[100:200].astype(str))
    # with classes declared too
    declared = make().partial_fit(X[:100], y[:100], classes=[0, 1])
    with pytest.raises(ValueError, match=MIXED_LABELS):
        declared.partial_fit(X[100:200], y[100:200].astype(str))
    streamed.partial_fit(X[200:], y[200:])
    good = np.r_[0:100, 200:300]
    _assert_same_output(streamed, make().fit(X.iloc[good], y[good]), X)


def test_tables_of_labels_of_two_types_cannot_be_added():
    X, y = _data("KhiopsGrouper", 100, 7)
    numbers = column_tables(X[:50], y[:50], categorical_features="all")
    strings = column_tables(X[50:], y[50:].astype(str), categorical_features="all")
    with pytest.raises(ValueError, match=MIXED_LABELS):
        numbers + strings
    with pytest.raises(ValueError, match=MIXED_LABELS):
        strings + numbers


def test_int_and_float_labels_unite_as_a_numeric_concatenation():
    """Check 1 and 1.0 (one label, as numpy and pandas concatenate them):
    partial_fit and + give what fit on the concatenation gives (float
    classes)."""
    X, y = _data("KhiopsGrouper", 200, 8)
    floats = y[100:].astype(float)
    concatenated = np.concatenate([y[:100], floats])
    assert concatenated.dtype == np.float64
    whole = KhiopsGrouper().fit(X, concatenated)
    streamed = (
        KhiopsGrouper().partial_fit(X[:100], y[:100]).partial_fit(X[100:], floats)
    )
    assert streamed.classes_.dtype == whole.classes_.dtype
    _assert_same_output(streamed, whole, X)
    summed = column_tables(X[:100], y[:100]) + column_tables(X[100:], floats)
    assert_array_equal(summed.classes, whole.classes_)
    assert summed.classes.dtype == np.float64


# --- threads ------------------------------------------------------------------


@pytest.mark.parametrize("make", [KhiopsGrouper, PartitionEncoder])
def test_partial_fit_from_several_threads_loses_no_row(make):
    """Check 8 threads x 50 chunks each into one estimator: the result is fit
    on all the rows (integer weights: exact)."""
    n_threads, n_chunks, chunk_size = 8, 50, 20
    X, y = _data("KhiopsGrouper", n_threads * n_chunks * chunk_size, 9)
    # every chunk holds both classes: no call raises for too few classes
    y[::chunk_size], y[1::chunk_size] = 0, 1
    weights = np.random.default_rng(9).integers(1, 4, len(y)).astype(float)
    streamed = make()
    start = threading.Barrier(n_threads)
    errors = []

    def feed(thread):
        try:
            start.wait()
            for chunk in range(thread, n_threads * n_chunks, n_threads):
                rows = slice(chunk * chunk_size, (chunk + 1) * chunk_size)
                streamed.partial_fit(X[rows], y[rows], sample_weight=weights[rows])
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        threads = [threading.Thread(target=feed, args=(t,)) for t in range(n_threads)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert not errors, errors
    whole = make().fit(X, y, sample_weight=weights)
    assert streamed._partial_tables.tables[0].sum() == weights.sum()
    _assert_same_output(streamed, whole, X)


@pytest.mark.parametrize("make", [KhiopsGrouper, MDLPDiscretizer, PartitionEncoder])
def test_the_lock_does_not_travel(make):
    """Check that pickle, deepcopy and clone work once the lock exists, and
    that a copy fits with a lock of its own."""
    name = "MDLPDiscretizer" if make is MDLPDiscretizer else "KhiopsGrouper"
    X, y = _data(name, 200, 10)
    streamed = make().partial_fit(X[:100], y[:100])
    assert "_fit_lock" in streamed.__dict__
    for copied in (pickle.loads(pickle.dumps(streamed)), copy.deepcopy(streamed)):
        assert "_fit_lock" not in copied.__dict__
        copied.partial_fit(X[100:], y[100:])
        assert copied.__dict__["_fit_lock"] is not streamed.__dict__["_fit_lock"]
        _assert_same_output(copied, make().fit(X, y), X)
    assert "_fit_lock" not in clone(streamed).__dict__


@pytest.mark.parametrize(
    "labels, kind",
    [
        (np.array([0, 1]), "numbers"),
        (np.array([0.0, 1.5]), "numbers"),
        (np.array([True, False]), "numbers"),
        (np.array([0, 1.0, True], dtype=object), "numbers"),
        (np.array(["0", "1"]), "strings"),
        (np.array(["0", "1"], dtype=object), "strings"),
        (np.array([0, "0"], dtype=object), "mixed"),
        (np.array([np.int64(0), 1], dtype=object), "numbers"),
        (np.array([b"0", "1"], dtype=object), "other"),
    ],
)
def test_label_kind(labels, kind):
    """Check the kinds that decide whether two chunks' labels can be united."""
    assert label_kind(labels) == kind
