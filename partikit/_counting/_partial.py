# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""What ``fit_tables`` and ``partial_fit`` share across the transformers (private).

Every transformer fits from a :class:`~partikit.ColumnTables`: ``fit`` counts
the tables of (X, y) and fits from them, ``fit_tables`` takes tables counted
elsewhere, and ``partial_fit`` adds each chunk's tables to those of the chunks
before it and fits from the sum.
"""

from __future__ import annotations

import contextlib
import threading

import numpy as np

from partikit._compat import _fit_context
from partikit._counting._column_tables import CATEGORICAL, ColumnTables
from partikit._counting._validation import check_n_classes, check_same_label_types

#: The attribute holding an estimator's lock of ``fit``, ``fit_tables`` and
#: ``partial_fit`` (private: left out of pickles and deep copies).
_LOCK_ATTRIBUTE = "_fit_lock"

# held only while an estimator's first lock is created, so that two threads
# calling partial_fit on a new estimator get the same lock
_LOCK_CREATION = threading.Lock()


def fit_lock(estimator):
    """The lock that serialises the fits of ``estimator`` (created on first use).

    ``partial_fit`` called from several threads reads the tables of the chunks
    so far, adds its chunk and stores the sum: two calls that interleave would
    both add to the same sum and one chunk would be lost. Holding this lock,
    the calls (and ``fit``, ``fit_tables``, which reset that sum) run one
    after the other, in the order they take it. The lock is taken in the body
    of the public method (no wrapper: the warnings' ``stacklevel`` stays), and
    it is reentrant: a fit that calls another fit method of the same estimator
    does not wait for itself.
    """
    lock = estimator.__dict__.get(_LOCK_ATTRIBUTE)
    if lock is None:
        with _LOCK_CREATION:
            lock = estimator.__dict__.setdefault(_LOCK_ATTRIBUTE, threading.RLock())
    return lock


class FitLockMixin:
    """Leave the lock of :func:`fit_lock` out of pickles and (deep) copies.

    A lock cannot be pickled, and a copy is another estimator with a lock of
    its own, made when it is first fitted.
    """

    def __getstate__(self):
        # a copy: BaseEstimator may return the instance's own __dict__
        state = dict(super().__getstate__())
        state.pop(_LOCK_ATTRIBUTE, None)
        return state


class _Attempt:
    """What :func:`unchanged_on_failure` yields: ``keep()`` keeps the changes."""

    def __init__(self):
        self.kept = False

    def keep(self):
        """Keep the changes made so far even if the call then raises."""
        self.kept = True


@contextlib.contextmanager
def unchanged_on_failure(estimator):
    """Restore every attribute of ``estimator`` if the block raises.

    ``partial_fit`` stores the sum of the chunks' tables before it fits from
    it; a chunk whose fit then raises (a class that ``encode="woe"`` refuses, a
    column that cannot be partitioned) must not stay counted, or every later
    chunk would raise too. The attributes are restored as they were (the same
    objects: a fit replaces its attributes, it never changes them in place),
    unless the block called the yielded ``keep()``. Ctrl-C restores them too.
    """
    saved = dict(estimator.__dict__)
    attempt = _Attempt()
    try:
        yield attempt
    except BaseException:
        if not attempt.kept:
            estimator.__dict__.clear()
            estimator.__dict__.update(saved)
        raise


def lacks_classes(tables, needs_target=True):
    """Whether ``tables`` hold class labels, but fewer than ``fit`` needs (2).

    ``partial_fit`` keeps such a chunk counted (its rows are good: the chunks so
    far only lack a second class) and raises ``fit``'s error.
    """
    return needs_target and tables.classes is not None and len(tables.classes) < 2


class TablesMixin(FitLockMixin):
    """``partial_fit`` and ``fit_tables`` of a transformer that fits from tables.

    The class defines ``_table_kind`` (how its columns are counted), ``_count``
    (check one chunk and count its :class:`~partikit.ColumnTables`) and
    ``_fit_tables(tables, stacklevel=4)`` (fit from checked tables; its
    warnings at ``stacklevel`` reach the caller of a public method that calls
    it directly); ``fit`` is ``_count`` then ``_fit_tables``. The work of the
    two public methods is in ``_fit_chunk`` and ``_fit_counted``, for a class
    that declares them with another signature or documentation.
    """

    def _needs_target(self):
        """Whether ``fit_tables`` takes only tables counted with a target."""
        return True

    @_fit_context(prefer_skip_nested_validation=True)
    def partial_fit(self, X, y, sample_weight=None, classes=None):
        """Learn the partition of every column from one more chunk of rows.

        The chunk's tables are added to those of the chunks before it (since
        the last ``fit``), and the partitions learned anew from the sum: after
        every call the transformer is the one ``fit`` gives on all the chunks
        so far, concatenated (the same categories, groups, cut points and
        outputs).

        Parameters
        ----------
        X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
            The chunk; the same columns in every call.
        y : array-like of shape (n_samples,)
            Its class labels, or its continuous target values (give the
            transformer ``target_type="continuous"`` then: each chunk's guess
            of the kind of its target could differ).
        sample_weight : array-like of shape (n_samples,), default=None
            Frequency weights of its rows.
        classes : array-like of shape (n_classes,), default=None
            Every class label the chunks may hold, on the first call (a later
            call may repeat it): a label outside it raises a ``ValueError``.
            ``classes_`` holds the classes seen so far, as ``fit`` would.

        Returns
        -------
        self : object
            The transformer fitted on every chunk so far. Until the chunks hold
            two classes it is not fitted, and the call raises ``ValueError``
            (the chunk is counted). A call that raises for any other reason
            leaves the transformer as it was before the call (its fit and the
            chunks counted so far). Calls from several threads on one
            transformer run one after the other: no chunk is lost.
        """
        return self._fit_chunk(X, y, sample_weight, classes)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit_tables(self, tables):
        """Learn the partition of every column from its counted table.

        ``fit`` is ``fit_tables(column_tables(X, y, sample_weight, ...))``, the
        columns counted as categorical for a grouper
        (``categorical_features="all"``) and as numeric for a discretizer
        (``categorical_features=None``): tables counted elsewhere (by chunks,
        in other processes, on a cluster) and added give the transformer that
        ``fit`` gives on all their rows.

        Parameters
        ----------
        tables : ColumnTables
            From :func:`~partikit.column_tables`, every column counted as this
            transformer's columns are, with a target of two classes or more.

        Returns
        -------
        self : object
            The fitted transformer.
        """
        return self._fit_counted(tables)

    def _fit_chunk(self, X, y, sample_weight, classes):
        """What ``partial_fit`` does: count the chunk, add it, fit from the sum."""
        with fit_lock(self), unchanged_on_failure(self) as attempt:
            first = not hasattr(self, "_partial_tables")
            tables = self._count(X, y, sample_weight, reset=first, min_classes=1)
            self._partial_tables = partial_tables(self, tables, classes, first)
            if lacks_classes(self._partial_tables, self._needs_target()):
                attempt.keep()
            # this method, partial_fit and its _fit_context wrapper, then the
            # caller
            return self._fit_tables(self._partial_tables, stacklevel=5)

    def _fit_counted(self, tables):
        """What ``fit_tables`` does: check the tables, then fit from them."""
        with fit_lock(self):
            forget_chunks(self)
            check_tables(self, tables, self._table_kind, target=self._needs_target())
            # this method, fit_tables and its _fit_context wrapper, then the
            # caller
            return self._fit_tables(tables, stacklevel=5)


def check_tables(estimator, tables, kind, *, target=True):
    """Raise unless ``tables`` is a ColumnTables whose columns are all ``kind``.

    Parameters
    ----------
    estimator : estimator instance
        Named in the messages.
    tables : object
    kind : {"categorical", "numeric"}
    target : bool, default=True
        Whether the tables must have been counted with a target.
    """
    name = type(estimator).__name__
    if not isinstance(tables, ColumnTables):
        raise TypeError(
            f"{name}.fit_tables takes the ColumnTables that partikit.column_tables "
            f"returns, got {type(tables).__name__}."
        )
    if target and not tables.has_target:
        raise ValueError(
            f"These tables were counted without a target; {name} learns from one: "
            "pass y to column_tables."
        )
    others = [
        str(n) for n, k in zip(tables.feature_names, tables.kinds, strict=True)
        if k != kind
    ]  # fmt: skip
    if others:
        advice = (
            'categorical_features="all"' if kind == CATEGORICAL else
            "categorical_features=None"
        )  # fmt: skip
        raise ValueError(
            f"{name} fits {kind} columns, but the columns {others} were counted as "
            f"{'numeric' if kind == CATEGORICAL else 'categorical'}; count them with "
            f"column_tables(..., {advice})."
        )


def set_input_features(estimator, tables):
    """Set ``n_features_in_`` and ``feature_names_in_`` as ``fit`` would."""
    estimator.n_features_in_ = tables.n_features
    if tables.has_feature_names:
        estimator.feature_names_in_ = np.asarray(tables.feature_names, dtype=object)
    else:
        estimator.__dict__.pop("feature_names_in_", None)


def check_classes(tables, min_classes=2):
    """Raise the message of ``fit`` for tables of fewer than ``min_classes``."""
    if tables.classes is not None:
        check_n_classes(tables.classes, min_classes)


def forget_chunks(estimator):
    """Drop the tables of ``partial_fit`` (``fit`` and ``fit_tables`` start over)."""
    estimator.__dict__.pop("_partial_tables", None)
    estimator.__dict__.pop("_declared_classes", None)


def partial_tables(estimator, tables, classes, first):
    """The tables of every chunk so far, with this chunk's ``tables`` added.

    Parameters
    ----------
    estimator : estimator instance
        Holds ``_partial_tables`` (the chunks before) and ``_declared_classes``.
    tables : ColumnTables
        This chunk's.
    classes : array-like or None
        ``partial_fit``'s ``classes``.
    first : bool
        Whether this is the first chunk (since the last ``fit``).

    Returns
    -------
    tables : ColumnTables
    """
    if first:
        forget_chunks(estimator)
    declared = getattr(estimator, "_declared_classes", None)
    if classes is not None and tables.target_type == "continuous":
        raise ValueError(
            "partial_fit was given classes, but y is a continuous target, which has "
            "none: leave classes=None (or give y as class labels)."
        )
    if classes is not None:
        given = np.unique(np.asarray(classes))
        if declared is not None and not np.array_equal(given, declared):
            raise ValueError(
                f"classes={given.tolist()!r} is not the classes of the first call to "
                f"partial_fit, {declared.tolist()!r}."
            )
        declared = given
    if declared is not None and tables.classes is not None:
        check_same_label_types(declared, tables.classes)
        unknown = [c for c in tables.classes if c not in set(declared.tolist())]
        if unknown:
            raise ValueError(
                f"y holds the labels {unknown!r}, which are not in classes="
                f"{declared.tolist()!r} given to partial_fit."
            )
    estimator._declared_classes = declared
    return tables if first else estimator._partial_tables + tables
