# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Dask DataFrames in ``fit`` and ``transform`` (private).

Stage 1 of a fit is a map-reduce (ARCHITECTURE section 6): each partition of a
``dask.dataframe.DataFrame`` is counted into a
:class:`~partikit.ColumnTables` where it lives, by the estimator's own checks
and counting (what ``partial_fit`` does with one chunk), and the tables are
added (``+``) in a tree of small reductions; stage 2 then runs here, on the
merged tables, by the estimator's ``fit_tables``. ``transform`` maps the
fitted estimator over the partitions, lazily.

dask is imported only when X is already a dask collection, that is when the
caller has imported it: ``import partikit`` never imports it.
"""

from __future__ import annotations

import functools
import sys

import numpy as np
import pandas as pd
from scipy import sparse
from sklearn import config_context
from sklearn.base import clone
from sklearn.utils.validation import check_is_fitted

from partikit._compat import _get_output_config

#: Tables added by one task of the tree reduction: a few tasks of a few tables
#: each, so that no task holds the tables of many partitions at once.
SPLIT_EVERY = 8


def is_dask_collection(X) -> bool:
    """Whether ``X`` is a dask collection (never imports dask)."""
    if sys.modules.get("dask") is None:
        return False
    import dask

    return dask.is_dask_collection(X)


def estimator_counter(estimator):
    """The ``count_chunk`` of :func:`dask_tables` for a transformer.

    Counts one partition as the estimator's ``partial_fit`` counts a chunk
    (its ``_count``: the same checks of X, y and ``sample_weight``, the same
    tables), on an unfitted clone: the workers receive its parameters only,
    never a fitted state.
    """
    return functools.partial(_count_with, clone(estimator))


def _count_with(estimator, X, y, sample_weight):
    # min_classes=1: a partition may hold one class; the merged tables are
    # checked for two by fit_tables, with fit's message.
    return estimator._count(X, y, sample_weight, reset=True, min_classes=1)


def _check_partitioned_like(X, other, name):
    """Raise unless ``other`` is None or a dask Series partitioned like X."""
    import dask.dataframe as dd

    if other is None:
        return
    if not isinstance(other, dd.Series):
        raise TypeError(
            f"X is a dask DataFrame, so {name} must be a dask Series partitioned "
            f"like X (for instance a column of the same frame); got "
            f"{type(other).__name__}."
        )
    if other.npartitions != X.npartitions:
        raise ValueError(
            f"X has {X.npartitions} partitions but {name} has {other.npartitions}: "
            f"they must be partitioned alike (take X and {name} from one frame, "
            "or repartition them the same way)."
        )
    if X.known_divisions and other.known_divisions and X.divisions != other.divisions:
        raise ValueError(
            f"X and {name} have other divisions (index bounds of their "
            "partitions): they must be partitioned alike (take them from one frame, "
            f"or repartition {name} with divisions=X.divisions)."
        )


def _check_dask_X(X, method):
    import dask.dataframe as dd

    if not isinstance(X, dd.DataFrame):
        raise TypeError(
            f"{method} takes a dask DataFrame among the dask collections; got "
            f"{type(X).__name__}. Convert it first (dask.dataframe.from_dask_array "
            "for a dask Array)."
        )
    # what the dtypes alone tell is raised here, before any partition is read
    for name, dtype in X._meta.dtypes.items():
        if getattr(dtype, "kind", "O") in "Mm":
            raise TypeError(
                f"Column {name!r} holds dates or times; partikit groups categorical "
                "values and cuts numbers. Convert it first: to a number (e.g. days "
                "since a date) or to categories (e.g. the month or the weekday)."
            )


def _count_partition(X, y, sample_weight, count_chunk):
    """One partition's tables, in a one-item object Series (None: no rows)."""
    for name, other in (("y", y), ("sample_weight", sample_weight)):
        if np.ndim(other) and len(other) != len(X):
            raise ValueError(
                f"A partition of X has {len(X)} rows but the same partition of "
                f"{name} has {len(other)}: X and {name} must be partitioned alike "
                "(take them from one frame)."
            )
    tables = None
    # A partition without rows, or whose rows all weigh 0, adds nothing (a fit
    # drops zero-weight rows and the categories only they hold); counting it
    # would raise as an empty X, or sample_weight summing to zero, does.
    empty = len(X) == 0 or (
        sample_weight is not None and not np.any(np.asarray(sample_weight) != 0)
    )
    if not empty:
        tables = count_chunk(X, y, sample_weight)
    result = pd.Series([None], dtype=object)
    result.iloc[0] = tables
    return result


def _sum_tables(*parts):
    """The sum of some partitions' tables (leaves come as one-item Series)."""
    total = None
    for part in parts:
        if isinstance(part, pd.Series):
            part = part.iloc[0]
        if part is not None:
            total = part if total is None else total + part
    return total


def dask_tables(X, y, sample_weight, count_chunk, *, split_every=SPLIT_EVERY):
    """The :class:`~partikit.ColumnTables` of a dask DataFrame, counted in place.

    Each partition of (X, y, sample_weight) is read once and counted by
    ``count_chunk`` on the workers (with the scheduler dask uses by default:
    the active ``distributed.Client`` if there is one); the tables are then
    added in a tree of tasks summing ``split_every`` of them each, and the sum
    alone comes back. Partitions without rows, or whose rows all weigh 0, are
    skipped. The sum equals the tables of the whole frame counted at once
    (tables are additive), so a transformer fitted from it equals the one
    fitted in memory on the same rows.

    Parameters
    ----------
    X : dask.dataframe.DataFrame
    y : dask.dataframe.Series or None
        Partitioned like X (same number of partitions, same rows in each).
    sample_weight : dask.dataframe.Series, float or None
        Partitioned like X when a Series.
    count_chunk : callable
        ``count_chunk(X_part, y_part, w_part) -> ColumnTables``: the
        estimator's own checks and counting of one pandas partition
        (:func:`estimator_counter`). It runs in the workers, possibly in other
        processes: it must pickle.
    split_every : int, default=8
        Tables added by one task of the reduction.

    Returns
    -------
    tables : ColumnTables
    """
    import dask
    import dask.dataframe as dd

    if not isinstance(X, dd.DataFrame) and is_dask_collection(y):
        raise TypeError(
            "y is a dask collection, so X must be a dask DataFrame partitioned like "
            f"it; got {type(X).__name__}."
        )
    _check_dask_X(X, "fit")
    _check_partitioned_like(X, y, "y")
    if is_dask_collection(sample_weight):
        _check_partitioned_like(X, sample_weight, "sample_weight")
    elif sample_weight is not None and not np.isscalar(sample_weight):
        raise TypeError(
            "X is a dask DataFrame, so sample_weight must be a dask Series "
            "partitioned like X, a number or None; got "
            f"{type(sample_weight).__name__}."
        )
    # One map over the three collections: taken from one frame, their
    # partitions are read by one task each (dask fuses the projections).
    counted = dd.map_partitions(
        _count_partition, X, y, sample_weight, count_chunk,
        meta=pd.Series([], dtype=object), align_dataframes=False,
    )  # fmt: skip
    parts = counted.to_delayed()
    reduce = dask.delayed(_sum_tables, pure=True)
    while len(parts) > 1:
        parts = [
            reduce(*parts[k : k + split_every])
            for k in range(0, len(parts), split_every)
        ]
    (tables,) = dask.compute(reduce(*parts))
    if tables is None:
        if sample_weight is None:
            raise ValueError(
                "Found a dask DataFrame with 0 sample(s) (every partition is "
                "empty) while a minimum of 1 is required."
            )
        raise ValueError("sample_weight sums to zero: there is nothing to learn.")
    return tables


def dask_aware(cls):
    """Class decorator: ``transform`` and ``fit_transform`` take dask DataFrames.

    A dask X goes to :func:`dask_transform` before scikit-learn's
    ``set_output`` wrapper of these methods, which would turn the lazy
    result into an in-memory container (the partitions are wrapped by it
    instead, in the workers). Any other X goes the usual way.
    """
    transform = cls.transform
    fit_transform = cls.fit_transform

    @functools.wraps(transform)
    def dask_aware_transform(self, X, *args, **kwargs):
        if is_dask_collection(X):
            return dask_transform(self, X)
        return transform(self, X, *args, **kwargs)

    @functools.wraps(fit_transform)
    def dask_aware_fit_transform(self, X, y=None, **fit_params):
        if is_dask_collection(X):
            return self.fit(X, y, **fit_params).transform(X)
        return fit_transform(self, X, y, **fit_params)

    cls.transform = dask_aware_transform
    cls.fit_transform = dask_aware_fit_transform
    return cls


def _transform_partition(X, estimator, output, empty=None):
    if empty is not None and len(X) == 0:
        # A partition without rows (a filter left none, e.g. ddf[ddf.x > t])
        # transforms to no rows of the output's columns and dtype; the
        # estimator's own checks refuse an empty X, as scikit-learn's do.
        if isinstance(empty, pd.DataFrame):
            return empty.set_axis(X.index, axis=0)
        return empty.copy()
    # The workers do not share this process's scikit-learn configuration.
    with config_context(transform_output=output):
        return estimator.transform(X)


def _outputs_sparse(estimator):
    """Whether ``estimator.transform`` gives a scipy sparse matrix."""
    # a PartitionEncoder stacks its columns' outputs (sparse when one is);
    # an AttributeAggregator encodes through its grouper, when it has one
    encoders = getattr(estimator, "estimators_", None)
    if isinstance(encoders, dict):
        return any(getattr(e, "encode", None) == "onehot" for e in encoders.values())
    encoder = getattr(estimator, "grouper_", None) or estimator
    return getattr(encoder, "encode", None) == "onehot"


def dask_transform(estimator, X):
    """``estimator.transform`` mapped lazily over the partitions of X.

    Parameters
    ----------
    estimator : fitted transformer
    X : dask.dataframe.DataFrame
        The columns the estimator was fitted on, checked against
        ``feature_names_in_`` here (the values are checked by each partition's
        transform, when computed).

    Returns
    -------
    X_out : dask.array.Array or dask.dataframe.DataFrame
        A dask Array (rows chunked by partition, of unknown lengths until
        computed) whose chunks are the estimator's in-memory output: float64
        arrays (objects for an ``AttributeAggregator`` without grouper that
        keeps a non-numeric column), or CSR matrices for ``encode="onehot"``;
        with
        ``set_output(transform="pandas")``, a dask DataFrame with the output
        columns and X's index and divisions (dask turns its object columns,
        such as an aggregator's codes beside a string column, into strings
        unless its ``dataframe.convert-string`` setting is False).
    """
    import dask
    import dask.array as da
    import dask.dataframe as dd

    check_is_fitted(estimator)
    _check_dask_X(X, "transform")
    _check_dask_columns(estimator, X)
    output = _get_output_config("transform", estimator)["dense"]
    names = estimator.get_feature_names_out()
    is_sparse = _outputs_sparse(estimator)
    if output == "polars":
        raise ValueError(
            'set_output(transform="polars") cannot give a dask collection (dask '
            'DataFrames hold pandas partitions): use transform="pandas", or '
            '"default" for a dask Array.'
        )
    if output != "default" and is_sparse:
        # what the in-memory transform says, now rather than at compute time
        raise ValueError(
            "The transformer outputs a scipy sparse matrix. Try to set the "
            "transformer output to a dense array or disable "
            f"{output.capitalize()} output with set_output(transform='default')."
        )
    sample = None
    if hasattr(estimator, "grouper_") and estimator.grouper_ is None:
        # An aggregator without grouper outputs its kept columns beside the
        # codes: float64 when they are all numeric, else objects (as pandas
        # output, each kept column of its input dtype). Its output on dask's
        # stand-in rows of X's dtypes tells which (an unseen value is code -1
        # there, never an error).
        sample = _transform_partition(X._meta_nonempty, estimator, output)
    if output == "pandas":
        if sample is not None:
            meta = sample.iloc[:0]
        else:
            meta = pd.DataFrame(
                {j: pd.Series([], dtype=np.float64) for j in range(len(names))},
                index=X._meta.index,
            )
            # as scikit-learn names the columns of each partition
            meta.columns = names
    elif is_sparse:
        meta = sparse.csr_matrix((0, len(names)), dtype=np.float64)
    else:
        dtype = np.float64 if sample is None else sample.dtype
        meta = np.empty((0, len(names)), dtype=dtype)
    # One copy of the fitted estimator in the graph, not one per partition; a
    # task per partition built from delayed objects, which every dask version
    # since the lower bound substitutes alike. The meta is also what an empty
    # partition transforms to.
    fitted = dask.delayed(estimator, pure=True)
    transform = dask.delayed(_transform_partition, pure=True)
    parts = [transform(part, fitted, output, meta) for part in X.to_delayed()]
    if output == "pandas":
        return dd.from_delayed(parts, meta=meta, divisions=X.divisions)
    return da.concatenate(
        [da.from_delayed(part, shape=(np.nan, len(names)), meta=meta) for part in parts]
    )


def _check_dask_columns(estimator, X):
    """Raise now for columns that each partition's transform would reject."""
    names = getattr(estimator, "feature_names_in_", None)
    columns = [str(c) for c in X.columns]
    if names is not None and columns != [str(n) for n in names]:
        raise ValueError(
            "The feature names should match those that were passed during fit: "
            f"the dask DataFrame has the columns {columns}, the estimator was "
            f"fitted on {list(names)}."
        )
    if len(columns) != estimator.n_features_in_:
        raise ValueError(
            f"X has {len(columns)} features, but {type(estimator).__name__} is "
            f"expecting {estimator.n_features_in_} features as input."
        )
