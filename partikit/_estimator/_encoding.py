# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""One-hot, weight-of-evidence and target-mean output shared by the groupers
and the discretizers, and the checks of the kind of target they read."""

from __future__ import annotations

import numpy as np
from scipy import sparse

from partikit._statistics._moments import shrunk_means


def onehot(codes, n_levels, *, dense):
    """One-hot encode integer codes, one block of columns per feature.

    Parameters
    ----------
    codes : ndarray of int of shape (n_samples, n_features)
        Level of each value in ``[0, n_levels[j])``; a negative code gives a row of
        zeros in that feature's block.
    n_levels : ndarray of int of shape (n_features,)
        Number of output columns of each feature.
    dense : bool
        Return a dense array instead of a CSR matrix.

    Returns
    -------
    onehot : sparse CSR matrix or ndarray of float64
        Shape (n_samples, n_levels.sum()).
    """
    n_samples, n_features = codes.shape
    offsets = np.concatenate([[0], np.cumsum(n_levels)[:-1]]).astype(np.intp)
    present = codes >= 0
    indices = (codes + offsets)[present]
    indptr = np.concatenate([[0], np.cumsum(present.sum(axis=1))])
    matrix = sparse.csr_matrix(
        (np.ones(indices.size), indices, indptr),
        shape=(n_samples, int(np.sum(n_levels))),
    )
    return matrix.toarray() if dense else matrix


#: Estimators that partition from a continuous target, named when one that
#: cannot is given one.
CONTINUOUS_ALTERNATIVES = (
    "CHAIDGrouper (F-test) or MaxCutGrouper (squared error) for categorical "
    "columns, BlockOptDiscretizer (squared error) for numeric ones, "
    "PartitionTreeRegressor for a tree"
)


def check_target_type(estimator, target_type, requested="auto"):
    """Raise unless ``estimator`` partitions from a target of ``target_type``.

    Parameters
    ----------
    estimator : estimator instance
        Its ``_target_types`` lists the kinds of target it reads.
    target_type : {"binary", "multiclass", "continuous"}
        The kind of the target counted.
    requested : {"auto", "binary", "multiclass", "continuous"}, default="auto"
        The estimator's ``target_type`` parameter: tables counted with another
        kind of target than the one it names are refused.
    """
    name = type(estimator).__name__
    if requested != "auto" and target_type is not None:
        labels = requested in ("binary", "multiclass")
        if (target_type == "continuous") == labels or (
            requested == "binary" and target_type == "multiclass"
        ):
            raise ValueError(
                f"{name} has target_type={requested!r} but the tables were counted "
                f"with a {target_type} target; count them with "
                f"column_tables(..., target_type={requested!r})."
            )
    if target_type == "continuous" and "continuous" not in estimator._target_types:
        raise ValueError(
            f"{name} partitions by a criterion on class counts and needs class "
            "labels, but y is a continuous target. For a continuous target use "
            f"{CONTINUOUS_ALTERNATIVES}. If y's values are class labels (a float "
            "target whose values are not all integers is taken as continuous), "
            "give them as integers or strings."
        )


def check_encoded_target(encode, target_type):
    """Raise the error of an ``encode`` that the kind of target does not allow.

    ``encode="woe"`` needs a binary target; ``encode="target"`` a binary or a
    continuous one.
    """
    if encode == "woe" and target_type != "binary":
        advice = (
            "Use encode='target' (the groups' mean target) for a continuous target."
            if target_type == "continuous"
            else "Use encode='onehot' or 'ordinal' for a multiclass target."
        )
        raise ValueError(
            f"encode='woe' needs a binary target; y is {target_type}. {advice}"
        )
    if encode == "target" and target_type == "multiclass":
        raise ValueError(
            "encode='target' (each part's mean target) needs a binary or a "
            "continuous target; y is multiclass. Use encode='onehot' or 'ordinal'."
        )


def target_encodings(table, target_type):
    """The value ``encode="target"`` gives each part of a fitted table.

    The part's mean target shrunk toward the overall mean as
    scikit-learn's ``TargetEncoder(smooth="auto")`` shrinks a category's
    (:func:`~partikit._statistics._moments.shrunk_means`); for a binary target,
    the mean of the indicator of the second class.

    Parameters
    ----------
    table : ndarray of shape (n_parts, 3) or (n_parts, 2)
        The parts' moments (continuous target) or class counts (binary).
    target_type : {"binary", "continuous"}

    Returns
    -------
    encodings : ndarray of float64 of shape (n_parts,)
    """
    table = np.asarray(table, dtype=np.float64)
    if target_type != "continuous":
        # y in {0, 1}: weight, sum and sum of squares are n, n_1, n_1
        table = np.column_stack([table.sum(axis=1), table[:, 1], table[:, 1]])
    return shrunk_means(table)


def part_value_columns(codes, values):
    """The value of every row's part, one column per feature.

    Parameters
    ----------
    codes : ndarray of int of shape (n_samples, n_features)
        The part (group or bin id) of each value.
    values : list of ndarray of float64
        Per feature, the value of each part (its weight of evidence, its
        target encoding), indexed by its id.

    Returns
    -------
    out : ndarray of float64 of shape (n_samples, n_features)
    """
    out = np.empty(codes.shape, dtype=np.float64)
    for j, column_values in enumerate(values):
        out[:, j] = column_values[codes[:, j]]
    return out
