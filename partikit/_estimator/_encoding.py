# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""One-hot and weight-of-evidence output shared by the groupers and the
discretizers."""

from __future__ import annotations

import numpy as np
from scipy import sparse


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


def check_woe_target(classes):
    """Raise the error of ``encode="woe"`` on a target that is not binary."""
    if len(classes) != 2:
        raise ValueError(
            f"encode='woe' needs a binary target; y has {len(classes)} "
            "classes. Use encode='onehot' or 'ordinal' for a multiclass target."
        )


def woe_columns(codes, woe):
    """The weight of evidence of every row's part, one column per feature.

    Parameters
    ----------
    codes : ndarray of int of shape (n_samples, n_features)
        The part (group or bin id) of each value.
    woe : list of ndarray of float64
        Per feature, the weight of evidence of each part, indexed by its id.

    Returns
    -------
    out : ndarray of float64 of shape (n_samples, n_features)
    """
    out = np.empty(codes.shape, dtype=np.float64)
    for j, values in enumerate(woe):
        out[:, j] = values[codes[:, j]]
    return out
