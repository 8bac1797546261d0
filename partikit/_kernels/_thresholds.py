# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The max-cut metric of every threshold of a sorted feature (Bodine & Hochbaum).

For a threshold between sorted positions t and t + 1,

    MC = sum_{i <= t < k} [y_i != y_k] w_i w_k (x_k - x_i).

Moving observation i (of class c) from the right side to the left side changes MC
by ``w_i * sum_{l != i, y_l != c} w_l (x_l - x_i)``: the pairs it formed with the
left side leave the cut and the pairs with the right side enter it, and both kinds
contribute ``x_l - x_i``. That sum runs over *all* observations of other classes,
so with the class totals of weights ``W_c`` and of weighted values ``S_c`` it is
``(S - S_c) - x_i (W - W_c)``: one O(1) step per observation, the recurrence
``theta_i = theta_{i-1} + S_{y_i} - x_i N_{y_i}`` of the paper's appendix.

References
----------
.. [1] Bodine, J. and Hochbaum, D. S. (2020). The max-cut decision tree: improving
   on the accuracy and running time of decision trees. KDIR 2020, 59-70.
   doi:10.5220/0010107400590070
"""

import numpy as np
from numba import njit

from partikit._kernels._config import NJIT


@njit(**NJIT)
def max_cut_sweep(x, y_codes, weights, n_classes):
    """Max-cut metric after each sorted position.

    Parameters
    ----------
    x : ndarray of float64 of shape (n,)
        Sorted values (centred and scaled by the caller for accuracy).
    y_codes : ndarray of intp of shape (n,)
        Class index of each value.
    weights : ndarray of float64 of shape (n,) or None
        Weight of each observation; None counts each once.
    n_classes : int

    Returns
    -------
    values : ndarray of float64 of shape (n - 1,)
        ``values[t]``: the metric with positions ``0 .. t`` on the left.
    left_weight : ndarray of float64 of shape (n - 1,)
        Weight on the left side of each threshold.
    """
    n = x.shape[0]
    class_weight = np.zeros(n_classes, dtype=np.float64)
    class_sum = np.zeros(n_classes, dtype=np.float64)
    total_weight = 0.0
    total_sum = 0.0
    for i in range(n):
        w = 1.0 if weights is None else weights[i]
        c = y_codes[i]
        if c < 0 or c >= n_classes:
            raise ValueError("class code out of range")
        class_weight[c] += w
        class_sum[c] += w * x[i]
        total_weight += w
        total_sum += w * x[i]
    values = np.empty(max(n - 1, 0), dtype=np.float64)
    left_weight = np.empty(max(n - 1, 0), dtype=np.float64)
    theta = 0.0
    moved = 0.0
    for i in range(n - 1):
        w = 1.0 if weights is None else weights[i]
        c = y_codes[i]
        theta += w * (
            (total_sum - class_sum[c]) - x[i] * (total_weight - class_weight[c])
        )
        moved += w
        values[i] = theta
        left_weight[i] = moved
    return values, left_weight
