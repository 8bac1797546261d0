# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Growth of a partition tree (depth first, or best first with a leaf budget):
stopping rules, pre-filters, splits.

The numeric columns are sorted once, at the root, and a node is a segment of
the rows in each column's order, which every split partitions stably. At each
node one compiled pass finds the threshold of least impurity of every numeric
column, another builds the tables of the categorical columns (the categories
present at the node) and, for the max-cut methods, splits them all; the other
methods get the node's tables one column at a time through the splitters
(:mod:`partikit.tree._splitters`), which call the cores of the groupers and
discretizers. The splits are scored on one scale (``split_score``) and the best
is kept.

One builder grows the classifier and the regressor: a node's statistics are
its class counts, or, for a continuous target, its moments (weight, sum, sum of
squares; :mod:`partikit._statistics._moments`), and its impurity is Gini or
entropy, or the weighted variance (``squared_error``). Both are additive, so
the children of a split are the sums of its parts' rows either way.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

import numpy as np

from partikit._kernels._bipartition import node_impurity
from partikit._kernels._config import is_ready
from partikit._kernels._max_cut import CHI2, SQUARED_GINI
from partikit._kernels._multisplit import value_table
from partikit._kernels._special import log_f_sf
from partikit._kernels._tree import (
    CANDIDATE,
    CAT_CHILDREN,
    CAT_SCORE,
    CATEGORICAL,
    CHILDREN,
    CRITERION,
    DOF,
    N_PRESENT,
    NAN_CHILD,
    NUMERIC,
    PROJECTION,
    RAW,
    SCORE,
    STATISTIC,
    STATUS,
    THRESHOLD,
    TOO_MANY,
    node_max_cuts,
    node_mean_splits,
    node_squared_error_thresholds,
    node_thresholds,
    partition_rows,
)
from partikit._kernels._tree import children_impurity as impurity_of_children
from partikit._statistics._contingency import merge_rows
from partikit._statistics._measures import (
    chi2_test,
    log10_bonferroni_nominal,
    log10_bonferroni_ordinal,
    log10_chi2_sf,
)
from partikit._statistics._moments import (
    CONTINUOUS,
    N_MOMENTS,
    SUM_OF_SQUARES,
    WEIGHT,
    f_test,
    squared_errors,
)
from partikit.tree._splitters import (
    IMPURITY_CODES,
    categorical_splitter,
    numeric_splitter,
)
from partikit.tree._structure import TreeBuilder

#: A node of continuous target whose weighted variance is at most this times
#: its mean square (at least 1) is pure: the variance from the moments, ``mean
#: square - mean^2``, carries the rounding of sums of many squares, some tens of
#: machine epsilons of the mean square, and is not 0 for every constant target.
PURE_VARIANCE = 64 * float(np.finfo(np.float64).eps)

#: Singular values below this share of the largest are dropped from a node's basis.
RANK_TOLERANCE = 1e-10

#: The numeric splits searched by a streamed compiled pass over the sorted rows.
STREAMED_THRESHOLDS = ("gini", "entropy", "squared_error")

#: The max-cut splitters searched by one compiled call per node (all columns).
COMPILED_MAX_CUTS = {"maxcut_chi2": CHI2, "maxcut_squared_gini": SQUARED_GINI}

#: Most categories of a column at a node that the compiled max-cut searches (its
#: dense weights take 512 KiB); a column with more goes through the splitter.
COMPILED_MAX_CUT_CATEGORIES = 256

#: Categorical columns searched by the splitter, over the nodes of one fit,
#: before the compiled max-cut takes over when it is neither compiled nor cached:
#: compiling it costs about 1.5 s once per environment, the time the splitter
#: takes for some 10,000 columns of small nodes (160 us each, against 15 us);
#: a small fit does not pay for it. Both give the same splits.
COMPILE_MAX_CUT_AFTER = 10_000


@dataclass
class TreeData:
    """The training rows as the builder sees them.

    Attributes
    ----------
    codes : ndarray of int32 of shape (n_samples, n_categorical)
        Category index of every row (the missing category is a category).
    n_categories : ndarray of intp of shape (n_categorical,)
    numeric : ndarray of float64 of shape (n_samples, n_numeric)
        NaN for a missing value.
    y : ndarray of intp or float64 of shape (n_samples,)
        Class index of every row, or its value for a continuous target.
    weights : ndarray of float64 of shape (n_samples,)
        Positive.
    n_classes : int
        0 for a continuous target.
    target_type : str or None
        ``"continuous"``: ``y`` holds values and the nodes' statistics are
        moments; None: class indices and class counts.
    """

    codes: np.ndarray
    n_categories: np.ndarray
    numeric: np.ndarray
    y: np.ndarray
    weights: np.ndarray
    n_classes: int
    target_type: str | None = None

    @property
    def continuous(self):
        return self.target_type == CONTINUOUS

    @property
    def n_statistics(self):
        """Width of a node's statistics row: the classes, or the moments."""
        return N_MOMENTS if self.continuous else self.n_classes

    def statistics(self, groups, n_groups, rows):
        """The statistics of the rows ``rows`` summed by group (``groups``, one
        per row, in ``range(n_groups)``), in row order: shape (n_groups,
        n_statistics)."""
        w = self.weights[rows]
        if self.continuous:
            y = self.y[rows]
            table = np.empty((n_groups, N_MOMENTS))
            wy = w * y
            for m, weights in enumerate((w, wy, wy * y)):
                table[:, m] = np.bincount(groups, weights=weights, minlength=n_groups)
            return table
        counts = np.bincount(
            groups * self.n_classes + self.y[rows],
            weights=w,
            minlength=n_groups * self.n_classes,
        )
        return counts.reshape(n_groups, self.n_classes)

    def weights_of(self, table):
        """The weight of each row of a statistics table (any leading shape)."""
        if self.continuous:
            return table[..., WEIGHT]
        return table.sum(axis=-1)


@dataclass
class GrowthParameters:
    """The estimator's parameters that shape the growth (validated upstream).

    ``categorical_split`` and ``numeric_split`` are a splitter's name or a
    configured grouper / discretizer (see :mod:`partikit.tree._splitters`).
    """

    categorical_split: object
    numeric_split: object
    split_score: str
    node_features: str | None
    max_depth: int | None
    min_samples_split: float
    min_samples_leaf: float
    min_impurity_decrease: float
    alpha_split: float | None
    min_second_value_count: float | None
    max_bins: int
    max_features: int | None = None
    max_leaf_nodes: int | None = None
    random_state: np.random.RandomState | None = None

    @property
    def impurity(self):
        """Impurity of the nodes: entropy for ``split_score="entropy"``, the
        weighted variance for ``"squared_error"`` (regression), else Gini."""
        if self.split_score in ("entropy", "squared_error"):
            return self.split_score
        if self.split_score == ADJUSTED_PVALUE:  # the regressor's
            return "squared_error"
        return "gini"


@dataclass
class Split:
    """The best split found at a node, and how its rows go to its children."""

    kind: int
    feature: int
    score: float
    n_children: int
    children_table: np.ndarray
    category_child: np.ndarray | None = None
    thresholds: np.ndarray | None = None
    projection: np.ndarray | None = None
    nan_child: int = -1
    default_child: int = -1
    pooled: bool = False


def children_impurity(children_table, code):
    """Weighted impurity of the children (rows of ``children_table``), as the
    node kernels compute it."""
    table = np.ascontiguousarray(children_table, dtype=np.float64)
    return impurity_of_children(table, code, 0, len(table))


def _score(
    children_table, raw, split_score, parent_impurity, n_values=0, ordered=False
):
    """The split's value on the scale that compares attributes (larger is better).

    ``n_values`` (the column's values at the node) and ``ordered`` (a numeric
    column: its values keep their order) set the Bonferroni multiplier of
    ``"log_adjusted_pvalue"``.
    """
    if split_score == "raw":
        return raw
    if split_score == "log_pvalue":
        return -chi2_test(children_table)[2]
    if split_score == ADJUSTED_PVALUE:
        return adjusted_f_score(children_table, n_values, ordered)
    code = IMPURITY_CODES[split_score]
    return parent_impurity - children_impurity(children_table, code)


#: ``split_score`` of the regressor that compares attributes by the
#: Bonferroni-adjusted p-value of their split's F-test
ADJUSTED_PVALUE = "log_adjusted_pvalue"


def adjusted_f_score(children_table, n_values, ordered):
    """-log10 of the Bonferroni-adjusted p-value of a split of a moment table.

    The F-test of the children's means (one-way analysis of variance),
    multiplied by the number of ways the column's ``n_values`` values at the
    node can be split into as many children: Kass's multipliers, nominal for a
    categorical column (``S(k, r)`` and the smaller terms), ordinal for a
    numeric one (``C(k - 1, r - 1)``). A column of many values pays for the
    many splits it could have made, so that it is not chosen for having more
    chances to fit noise (Kass 1980).
    """
    log10_p = f_test(children_table)[3]
    n_children = len(children_table)
    n_values = max(int(n_values), n_children)
    multiplier = (
        log10_bonferroni_ordinal(n_values, n_children)
        if ordered
        else log10_bonferroni_nominal(n_values, n_children)
    )
    # not clipped at 0: among splits none of which is significant, the least
    # far from it still ranks first
    return -(log10_p + multiplier)


def binary_adjusted_scores(children, n_values, ordered):
    """:func:`adjusted_f_score` of many binary splits at once.

    Parameters
    ----------
    children : ndarray of shape (n_splits, 2, 3)
        The moments of the two children of each split.
    n_values : ndarray of shape (n_splits,)
        The values of each split's column at the node.
    ordered : bool
        Numeric columns (``v - 1`` thresholds) or categorical ones
        (``2^(k-1) - 1`` bipartitions).

    Returns
    -------
    scores : ndarray of float64 of shape (n_splits,)
    """
    children = np.asarray(children, dtype=np.float64)
    n_values = np.maximum(np.asarray(n_values, dtype=np.float64), 2.0)
    within = squared_errors(children).sum(axis=1)
    total = squared_errors(children.sum(axis=1))
    between = np.maximum(total - within, 0.0)
    dfd = children[:, :, WEIGHT].sum(axis=1) - 2.0
    log10_p = np.zeros(len(children))
    for s, (b, w, d) in enumerate(zip(between, within, dfd, strict=True)):
        if d <= 0 or b <= 0:
            continue
        log10_p[s] = -np.inf if w <= 0 else log_f_sf(b / (w / d), 1.0, d) / np.log(10.0)
    if ordered:
        multiplier = np.log10(n_values - 1.0)
    else:
        # log10(2^(k-1) - 1) without overflow: (k - 1) log10 2 + log10(1 - 2^(1-k))
        multiplier = (n_values - 1.0) * np.log10(2.0) + np.log10(
            -np.expm1((1.0 - n_values) * np.log(2.0))
        )
    return -(log10_p + multiplier)


def _gather(table, slots, n_children):
    """Rows of ``table`` summed by slot (slot -1, an empty row, dropped)."""
    keep = slots >= 0
    return merge_rows(table[keep], slots[keep], n_children)


def _node_basis(points, y, weights, n_classes, node_features):
    """Unit directions of node PCA (rows of the result), largest entry positive.

    ``"node_means_pca"``: PCA of the one-vs-rest means, one per class present (the
    mean of the node's points not of that class), centred by their plain average.
    ``"node_pca"``: weighted PCA of the node's points.
    """
    total_weight = weights.sum()
    if node_features == "node_means_pca":
        class_weight = np.bincount(y, weights=weights, minlength=n_classes)
        class_sum = np.zeros((n_classes, points.shape[1]))
        np.add.at(class_sum, y, points * weights[:, None])
        present = np.flatnonzero(class_weight > 0)
        total_sum = class_sum.sum(axis=0)
        rest_weight = total_weight - class_weight[present]
        matrix = (total_sum - class_sum[present]) / rest_weight[:, None]
        matrix = matrix - matrix.mean(axis=0)
    else:
        mean = weights @ points / total_weight
        matrix = (points - mean) * np.sqrt(weights / total_weight)[:, None]
    _, singular, basis = np.linalg.svd(matrix, full_matrices=False)
    if singular.size == 0 or not singular[0] > 0:
        return np.zeros((0, points.shape[1]))
    basis = basis[singular > RANK_TOLERANCE * singular[0]]
    biggest = np.argmax(np.abs(basis), axis=1)
    signs = np.sign(basis[np.arange(len(basis)), biggest])
    return basis * signs[:, None]


class _Grower:
    def __init__(self, data, params):
        self.data = data
        self.params = params
        self.code = IMPURITY_CODES[params.impurity]
        self.categorical_splitter = categorical_splitter(
            params.categorical_split, data.target_type
        )
        self.numeric_splitter = numeric_splitter(params.numeric_split)
        # "gini" and "entropy" name the threshold search's impurity; the other
        # methods (and a discretizer's criterion value) use the nodes' impurity
        self.numeric_impurity = (
            params.numeric_split
            if isinstance(params.numeric_split, str)
            and params.numeric_split in STREAMED_THRESHOLDS
            else params.impurity
        )
        # the threshold of least impurity streams over the sorted rows: its value
        # table would hold n_values x n_classes counts
        self.streamed_threshold = (
            isinstance(params.numeric_split, str)
            and params.numeric_split in STREAMED_THRESHOLDS
        )
        self.total_weight = float(data.weights.sum())
        self.log10_alpha = (
            None if params.alpha_split is None else math.log10(params.alpha_split)
        )
        self.builder = TreeBuilder(data.n_statistics, data.weights_of)
        self.rng = params.random_state
        self.n_pruned = 0
        # the numeric columns' thresholds come from one compiled pass per node
        # over rows kept sorted by every column (partition_rows keeps them so)
        self.presorted = (
            self.streamed_threshold
            and params.node_features is None
            and data.numeric.shape[1] > 0
        )
        self.split_score_code = IMPURITY_CODES.get(params.split_score, -1)
        split = params.categorical_split
        self.compiled_max_cut = (
            COMPILED_MAX_CUTS.get(split) if isinstance(split, str) else None
        )
        # the field of node_max_cuts' output that holds the score; the kernel
        # ranks the splits itself unless a chi2 pre-filter must drop some first
        self.max_cut_score_field = (
            CRITERION if params.split_score == "raw" else CAT_SCORE
        )
        self.max_cut_ranked = (
            params.alpha_split is None and params.split_score != "log_pvalue"
        )
        self.max_cut_ready = is_ready(node_max_cuts)
        # sort by mean of every categorical column of a node in one compiled
        # call (the regressor's categorical split)
        self.compiled_mean_split = data.continuous and split == "sort_by_mean"
        self.splitter_columns = 0
        self.min_second_value_count = (
            -1.0
            if params.min_second_value_count is None
            else float(params.min_second_value_count)
        )

    def _initial_order(self):
        """Row 0: the training rows of positive weight; row ``1 + j``: the same
        rows sorted by numeric column ``j`` (stable, NaN last) when presorted."""
        data = self.data
        rows = np.flatnonzero(data.weights > 0)
        if not self.presorted:
            return rows[None, :].copy()
        n_numeric = data.numeric.shape[1]
        order = np.empty((1 + n_numeric, len(rows)), dtype=np.intp)
        order[0] = rows
        for j in range(n_numeric):
            order[1 + j] = rows[np.argsort(data.numeric[rows, j], kind="stable")]
        return order

    def _compiled_max_cut_space(self):
        """Outputs and scratch of :func:`node_max_cuts`, made once per fit."""
        data = self.data
        n_categorical, n_classes = data.codes.shape[1], data.n_classes
        size = COMPILED_MAX_CUT_CATEGORIES
        self.codes = np.ascontiguousarray(data.codes.T)
        self.position = np.full(int(data.n_categories.max(initial=0)), -1, np.intp)
        self.present = np.empty(size, dtype=np.intp)
        self.node_table = np.empty((size, n_classes))
        self.work = np.empty(size * size + size * (n_classes + 4) + 3 * n_classes)
        self.side = np.empty(size, dtype=np.uint8)
        self.max_cut_out = np.empty((n_categorical, CAT_CHILDREN + 2 * n_classes))
        self.children_of = np.empty((n_categorical, 2, size), dtype=np.intp)

    # ------------------------------------------------------------------ splits
    def _categorical_candidates(self, rows, active, parent_impurity, start, end):
        """Best categorical split; updates ``active`` (columns kept for the subtree)."""
        columns = np.flatnonzero(active)
        if len(columns) == 0:
            return None
        if self.compiled_mean_split:
            return self._compiled_mean_candidates(active, parent_impurity, start, end)
        if self.compiled_max_cut is not None and (
            self.max_cut_ready or self.splitter_columns >= COMPILE_MAX_CUT_AFTER
        ):
            return self._compiled_candidates(rows, active, parent_impurity, start, end)
        self.splitter_columns += len(columns)
        best = None
        for column in columns:
            split = self._categorical_split(rows, column, active, parent_impurity)
            if split is not None and (best is None or split.score > best.score):
                best = split
        return best

    def _categorical_split(self, rows, column, active, parent_impurity):
        """The split of one categorical column by the splitter, or None; a column
        that can no longer split in the subtree leaves ``active``."""
        params = self.params
        categories, table = self._node_table(rows, column)
        present = self.data.weights_of(table)
        if len(present) < 2:
            active[column] = False  # one value here, hence in the whole subtree
            return None
        if params.min_second_value_count is not None:
            second = np.partition(present, len(present) - 2)[-2]
            if second < params.min_second_value_count:
                active[column] = False
                return None
        if self.log10_alpha is not None:
            if chi2_test(table)[2] > self.log10_alpha:
                return None
        result = self.categorical_splitter(table, params.impurity)
        if result.n_groups < 2:
            return None
        children_table = _gather(table, result.group_ids, result.n_groups)
        if np.any(self.data.weights_of(children_table) < params.min_samples_leaf):
            return None
        score = _score(
            children_table, result.criterion, params.split_score, parent_impurity,
            n_values=len(present),
        )  # fmt: skip
        return Split(
            kind=CATEGORICAL,
            feature=int(column),
            score=float(score),
            n_children=result.n_groups,
            children_table=children_table,
            category_child=self._category_child(column, categories, result),
            pooled=result.pooled,
        )

    def _compiled_candidates(self, rows, active, parent_impurity, start, end):
        """The max-cut splits of every categorical column in one compiled call
        (:func:`node_max_cuts`); a column with more categories at the node than
        it takes goes through the splitter, as every other method does."""
        data, params = self.data, self.params
        out = self.max_cut_out
        score_field = self.max_cut_score_field
        ranked = self.max_cut_ranked
        best_column, n_too_many = node_max_cuts(
            self.codes, self.order, start, end, data.y, data.weights, active,
            self.compiled_max_cut, self.min_second_value_count,
            float(params.min_samples_leaf), self.split_score_code, parent_impurity,
            score_field if ranked else -1, self.position, self.present,
            self.node_table, self.work, self.side, out, self.children_of,
        )  # fmt: skip
        if ranked and n_too_many == 0:
            if best_column < 0:
                return None
            return self._compiled_split(best_column, out[best_column, score_field])
        status = out[:, STATUS]
        best = None
        for column in np.flatnonzero((status == CANDIDATE) | (status == TOO_MANY)):
            if status[column] == TOO_MANY:
                split = self._categorical_split(rows, column, active, parent_impurity)
            else:
                if self.log10_alpha is not None and (
                    log10_chi2_sf(out[column, STATISTIC], int(out[column, DOF]))
                    > self.log10_alpha
                ):
                    continue
                if params.split_score == "log_pvalue":
                    score = -chi2_test(self._max_cut_children(column))[2]
                else:
                    score = out[column, score_field]
                split = self._compiled_split(column, score)
            if split is not None and (best is None or split.score > best.score):
                best = split
        return best

    def _compiled_mean_space(self):
        """Outputs and scratch of :func:`node_mean_splits`, made once per fit."""
        data = self.data
        n_categories = data.n_categories
        size = int(n_categories.max(initial=0))
        self.codes = np.ascontiguousarray(data.codes.T)
        self.position = np.full(size, -1, dtype=np.intp)
        self.present = np.empty(size, dtype=np.intp)
        self.node_table = np.empty((size + 2, N_MOMENTS))
        self.keys = np.empty(size)
        # (the second half: best_mean_prefix's merge buffer)
        self.sorted_rows = np.empty(2 * size, dtype=np.intp)
        self.max_cut_out = np.empty((len(n_categories), CAT_CHILDREN + 2 * N_MOMENTS))
        offsets = np.concatenate([[0], np.cumsum(n_categories)[:-1]])
        self.category_offsets = offsets.astype(np.intp)
        self.children_of = np.empty((2, int(n_categories.sum())), dtype=np.intp)

    def _compiled_mean_candidates(self, active, parent_impurity, start, end):
        """The best sort-by-mean split of every categorical column in one
        compiled call (:func:`node_mean_splits`), or None."""
        data, params = self.data, self.params
        column = node_mean_splits(
            self.codes, self.order, start, end, data.y, data.weights, active,
            self.min_second_value_count, float(params.min_samples_leaf),
            parent_impurity, self.position, self.present, self.node_table,
            self.keys, self.sorted_rows, self.max_cut_out, self.category_offsets,
            self.children_of,
        )  # fmt: skip
        if column < 0:
            return None
        score = float(self.max_cut_out[column, CAT_SCORE])
        if params.split_score == ADJUSTED_PVALUE:
            candidates = np.flatnonzero(
                self.max_cut_out[: len(active), STATUS] == CANDIDATE
            )
            scores = binary_adjusted_scores(
                self.max_cut_out[candidates, CAT_CHILDREN:].reshape(
                    len(candidates), 2, N_MOMENTS
                ),
                self.max_cut_out[candidates, N_PRESENT],
                ordered=False,
            )
            column = int(candidates[int(np.argmax(scores))])
            score = float(scores.max())
        out = self.max_cut_out[column]
        n_present = int(out[N_PRESENT])
        base = self.category_offsets[column]
        segment = self.children_of[:, base : base + n_present]
        category_child = np.full(int(data.n_categories[column]), -1, dtype=np.intp)
        category_child[segment[0]] = segment[1]
        return Split(
            kind=CATEGORICAL,
            feature=int(column),
            score=score,
            n_children=2,
            children_table=out[CAT_CHILDREN:].reshape(2, N_MOMENTS).copy(),
            category_child=category_child,
        )

    def _max_cut_children(self, column):
        return self.max_cut_out[column, CAT_CHILDREN:].reshape(2, self.data.n_classes)

    def _compiled_split(self, column, score):
        """The Split of column ``column`` from the outputs of node_max_cuts."""
        n_present = int(self.max_cut_out[column, N_PRESENT])
        category_child = np.full(int(self.data.n_categories[column]), -1, dtype=np.intp)
        present = self.children_of[column, :, :n_present]
        category_child[present[0]] = present[1]
        return Split(
            kind=CATEGORICAL,
            feature=int(column),
            score=float(score),
            n_children=2,
            children_table=self._max_cut_children(column).copy(),
            category_child=category_child,
        )

    def _node_table(self, rows, column):
        """The categories of ``column`` present among ``rows`` (increasing) and
        their statistics (class counts or moments), one row each.

        Only the present categories: a table with a row for every category of the
        column would cost O(categories) per node, and a multiway tree on a column
        of a million categories has thousands of nodes. The counts are summed row
        by row in the rows' order.
        """
        data = self.data
        codes = data.codes[rows, column]
        n_categories = int(data.n_categories[column])
        if len(rows) < n_categories:
            categories, inverse = np.unique(codes, return_inverse=True)
        else:
            seen = np.zeros(n_categories, dtype=bool)
            seen[codes] = True
            categories = np.flatnonzero(seen)
            lookup = np.empty(n_categories, dtype=np.intp)
            lookup[categories] = np.arange(len(categories))
            inverse = lookup[codes]
        return categories, data.statistics(inverse.ravel(), len(categories), rows)

    def _category_child(self, column, categories, result):
        """The child slot of every category of the column (-1: absent here)."""
        child = np.full(int(self.data.n_categories[column]), -1, dtype=np.intp)
        child[categories] = result.group_ids
        return child

    def _threshold_split(self, x, rows, parent_impurity, kind, feature, projection):
        """Best split of one numeric column (or projection) ``x`` of the node rows."""
        data, params = self.data, self.params
        missing = np.isnan(x)
        known = ~missing
        if not known.any():
            return None
        y = data.y[rows]
        w = data.weights[rows]
        x_known = np.ascontiguousarray(x[known] if missing.any() else x)
        y_known = y[known] if missing.any() else y
        w_known = w[known] if missing.any() else w
        order = np.argsort(x_known, kind="stable")
        values, table = value_table(x_known, order, y_known, w_known, data.n_classes)
        if len(values) < 2:
            return None
        result = self.numeric_splitter(
            values, table, self.numeric_impurity, params.min_samples_leaf,
            params.max_bins,
        )  # fmt: skip
        thresholds, criterion = result.thresholds, result.criterion
        if len(thresholds) == 0:
            return None
        slots = np.searchsorted(thresholds, values, side="left")
        children_table = _gather(table, slots, len(thresholds) + 1)
        n_children = len(thresholds) + 1
        nan_child = -1
        if missing.any():
            nan_table = np.bincount(
                y[missing], weights=w[missing], minlength=data.n_classes
            )
            trials = []
            for slot in range(n_children):
                trial = children_table.copy()
                trial[slot] += nan_table
                trials.append(children_impurity(trial, self.code))
            nan_child = int(np.argmin(trials))
            children_table[nan_child] += nan_table
        score = _score(
            children_table, criterion, params.split_score, parent_impurity,
            n_values=len(values), ordered=True,
        )  # fmt: skip
        return Split(
            kind=kind,
            feature=feature,
            score=float(score),
            n_children=n_children,
            children_table=children_table,
            thresholds=thresholds,
            projection=projection,
            nan_child=nan_child,
        )

    def _streamed_candidates(
        self, columns, use, order, start, end, y, w, parent_impurity
    ):
        """Best threshold of least Gini or entropy over ``columns``, all in one
        compiled pass (:func:`node_thresholds`): (index, score, children table,
        threshold, side of the missing values), or None."""
        data, params = self.data, self.params
        out = self.threshold_out[: len(columns)]
        if data.continuous:
            best = node_squared_error_thresholds(
                columns, use, order, start, end, y, w,
                float(params.min_samples_leaf), parent_impurity, out,
                self.threshold_scratch,
            )  # fmt: skip
            if best < 0:
                return None
            score = float(out[best, SCORE])
            if params.split_score == ADJUSTED_PVALUE:
                best, score = self._adjusted_threshold(columns, order, start, end, out)
            return (
                best,
                score,
                out[best, CHILDREN:].reshape(2, N_MOMENTS).copy(),
                out[best, THRESHOLD : THRESHOLD + 1].copy(),
                int(out[best, NAN_CHILD]),
            )
        ranked = params.split_score != "log_pvalue"
        score_field = RAW if params.split_score == "raw" else SCORE
        best = node_thresholds(
            columns, use, order, start, end, y, w,
            IMPURITY_CODES[self.numeric_impurity],
            self.code, float(params.min_samples_leaf), self.split_score_code,
            parent_impurity, self.whole_weights, score_field if ranked else -1, out,
            self.threshold_scratch, self.touched,
        )  # fmt: skip
        if not ranked:
            found = np.flatnonzero(~np.isnan(out[:, THRESHOLD]))
            if len(found) == 0:
                return None
            scores = [
                -chi2_test(out[j, CHILDREN:].reshape(2, data.n_classes))[2]
                for j in found
            ]
            best = int(found[int(np.argmax(scores))])
            score = max(scores)
        elif best < 0:
            return None
        else:
            score = out[best, score_field]
        return (
            best,
            float(score),
            out[best, CHILDREN:].reshape(2, data.n_classes).copy(),
            out[best, THRESHOLD : THRESHOLD + 1].copy(),
            int(out[best, NAN_CHILD]),
        )

    def _adjusted_threshold(self, columns, order, start, end, out):
        """(column, score) of the threshold of best Bonferroni-adjusted F-test
        among those the kernel found (``out``), the first on a tie."""
        found = np.flatnonzero(~np.isnan(out[: len(columns), THRESHOLD]))
        # the distinct known values of each column at the node, the candidates
        # its threshold was chosen among: its rows are sorted by it, missing
        # values last
        x = columns[found[:, None], order[1 + found, start:end]]
        changes = (x[:, 1:] != x[:, :-1]) & ~np.isnan(x[:, 1:])
        n_values = 1 + np.count_nonzero(changes, axis=1)
        children = out[found, CHILDREN:].reshape(len(found), 2, N_MOMENTS)
        scores = binary_adjusted_scores(children, n_values, ordered=True)
        k = int(np.argmax(scores))
        return int(found[k]), float(scores[k])

    def _streamed_split(self, rows, start, end, parent_impurity, use):
        """The numeric split of a streamed search (``"gini"``, ``"entropy"``)."""
        data = self.data
        basis = None
        if self.params.node_features is None:
            found = self._streamed_candidates(
                self.columns, use, self.order, start, end, data.y, data.weights,
                parent_impurity,
            )  # fmt: skip
        else:
            # node PCA: the projections of the node's rows, sorted here
            points, basis = self._projections(rows, use)
            if len(basis) == 0:
                return None
            projected = np.ascontiguousarray((points @ basis.T).T)
            order = np.empty((1 + len(basis), len(rows)), dtype=np.intp)
            order[0] = np.arange(len(rows))
            for m, x in enumerate(projected):
                order[1 + m] = np.argsort(x, kind="stable")
            found = self._streamed_candidates(
                projected, np.ones(len(basis), dtype=bool), order, 0, len(rows),
                data.y[rows], data.weights[rows], parent_impurity,
            )  # fmt: skip
        if found is None:
            return None
        index, score, children_table, thresholds, nan_child = found
        return Split(
            kind=NUMERIC if basis is None else PROJECTION,
            feature=index if basis is None else -1,
            score=score,
            n_children=2,
            children_table=children_table,
            thresholds=thresholds,
            projection=None if basis is None else self._embed(basis[index], use),
            nan_child=nan_child,
        )

    def _projections(self, rows, use):
        """The node's points over the numeric columns in ``use`` and the
        directions of node PCA among them."""
        data = self.data
        points = data.numeric[rows]
        if not use.all():
            points = points[:, use]
        basis = _node_basis(
            points, data.y[rows], data.weights[rows], data.n_classes,
            self.params.node_features,
        )  # fmt: skip
        return points, basis

    def _embed(self, direction, use):
        """A direction over the columns in ``use`` as one over every numeric
        column (zero on the others), as the tree stores it."""
        if use.all():
            return direction
        full = np.zeros(len(use))
        full[use] = direction
        return full

    def _numeric_candidates(self, rows, parent_impurity, start, end, use):
        """Best split of the numeric columns in ``use`` (or of their node PCA
        projections)."""
        data, params = self.data, self.params
        if not use.any():
            return None
        if self.streamed_threshold:
            return self._streamed_split(rows, start, end, parent_impurity, use)
        best = None
        if params.node_features is None:
            candidates = (
                (data.numeric[rows, j], NUMERIC, int(j), None)
                for j in np.flatnonzero(use)
            )
        else:
            points, basis = self._projections(rows, use)
            projected = points @ basis.T
            candidates = (
                (projected[:, m], PROJECTION, -1, self._embed(basis[m], use))
                for m in range(len(basis))
            )
        for x, kind, feature, projection in candidates:
            split = self._threshold_split(
                x, rows, parent_impurity, kind, feature, projection
            )
            if split is not None and (best is None or split.score > best.score):
                best = split
        return best

    def _slots(self, split, rows):
        """Child slot of every node row under ``split``."""
        data = self.data
        if split.kind == CATEGORICAL:
            return split.category_child[data.codes[rows, split.feature]]
        if split.kind == NUMERIC:
            x = data.numeric[rows, split.feature]
        else:
            x = data.numeric[rows] @ split.projection
        slots = np.searchsorted(split.thresholds, x, side="left")
        slots[np.isnan(x)] = split.nan_child
        return slots

    # ------------------------------------------------------------------- growth
    def _add_node(self, rows, depth, parent, value=None):
        """Add a node; ``value``, its statistics (class counts or moments), are
        counted from its rows when not given."""
        data = self.data
        if value is None:
            value = data.statistics(np.zeros(len(rows), dtype=np.intp), 1, rows)[0]
        if data.continuous:
            impurity = children_impurity(value[None, :], self.code)
        else:
            impurity = node_impurity(value, self.code)
        return self.builder.add_node(value, impurity, depth, parent), value, impurity

    def _is_leaf(self, value, impurity, depth):
        params = self.params
        weight = self.data.weights_of(value)
        if self.data.continuous:
            mean_square = value[SUM_OF_SQUARES] / value[WEIGHT]
            pure = impurity <= PURE_VARIANCE * max(mean_square, 1.0)
        else:
            pure = np.count_nonzero(value) < 2
        return (
            (params.max_depth is not None and depth >= params.max_depth)
            or weight < params.min_samples_split
            or weight < 2 * params.min_samples_leaf
            or pure
        )

    def _best_split(self, rows, start, end, active, impurity):
        """The node's best split, or None; ``active`` loses the categorical
        columns that can no longer split in the subtree.

        With ``max_features``, the active categorical and the numeric columns are
        drawn in a random order and the first ``max_features`` searched; when
        none of them splits the node, the others are (as scikit-learn's trees
        search on until a valid split is found).
        """
        if self.params.max_features is None:
            return self._candidates(
                rows, start, end, active, self.every_numeric, impurity
            )
        n_categorical = len(active)
        features = np.concatenate(
            [np.flatnonzero(active), n_categorical + np.arange(len(self.every_numeric))]
        )
        drawn = self.rng.permutation(features)
        k = self.params.max_features
        for chosen in (drawn[:k], drawn[k:]):
            if len(chosen) == 0:
                continue
            categorical = chosen[chosen < n_categorical]
            mask = np.zeros(n_categorical, dtype=bool)
            mask[categorical] = True
            use = np.zeros(len(self.every_numeric), dtype=bool)
            use[chosen[chosen >= n_categorical] - n_categorical] = True
            best = self._candidates(rows, start, end, mask, use, impurity)
            active[categorical] = mask[categorical]
            if best is not None:
                return best
        return None

    def _candidates(self, rows, start, end, categorical, use, impurity):
        """Best split among the categorical columns of the mask ``categorical``
        (updated as ``active`` is) and the numeric columns in ``use``; ties go
        to the categorical columns."""
        best = self._categorical_candidates(rows, categorical, impurity, start, end)
        numeric = self._numeric_candidates(rows, impurity, start, end, use)
        if numeric is not None and (best is None or numeric.score > best.score):
            best = numeric
        return best

    def _evaluate(self, record):
        """(split, active columns of the subtree, weighted impurity decrease) of
        a node record, or None for a leaf."""
        node, start, end, depth, active, value, impurity = record
        if self._is_leaf(value, impurity, depth):
            return None
        rows = self.order[0, start:end]
        active = active.copy()
        best = self._best_split(rows, start, end, active, impurity)
        if best is None:
            return None
        decrease = impurity - children_impurity(best.children_table, self.code)
        weighted = self.data.weights_of(value) / self.total_weight * decrease
        if weighted < self.params.min_impurity_decrease:
            return None
        best.default_child = int(np.argmax(self.data.weights_of(best.children_table)))
        return best, active, weighted

    def _split(self, record, best, active):
        """Split the node of ``record``; returns its children's records."""
        node, start, end, depth, _, _, _ = record
        rows = self.order[0, start:end]
        self.slot_of_row[rows] = self._slots(best, rows)
        n_rows = self.order.shape[1]
        if len(self.buffer) < n_rows + best.n_children:
            self.buffer = np.empty(n_rows + best.n_children, dtype=np.intp)
        offsets = np.empty(best.n_children + 1, dtype=np.intp)
        partition_rows(self.order, start, end, self.slot_of_row, offsets, self.buffer)
        children = []
        records = []
        for slot in range(best.n_children):
            child_start = start + offsets[slot]
            child_end = start + offsets[slot + 1]
            # whole weights sum exactly in any order: the split's counts are
            # the child's
            counts = best.children_table[slot].copy() if self.whole_weights else None
            child, child_value, child_impurity = self._add_node(
                self.order[0, child_start:child_end], depth + 1, node, counts
            )
            children.append(child)
            records.append(
                (
                    child, child_start, child_end, depth + 1, active, child_value,
                    child_impurity,
                )
            )  # fmt: skip
        self.builder.set_split(node, best, children)
        return records

    def grow(self):
        data = self.data
        self.order = self._initial_order()
        self.columns = np.ascontiguousarray(data.numeric.T)
        n_numeric = data.numeric.shape[1]
        self.every_numeric = np.ones(n_numeric, dtype=bool)
        n_statistics = data.n_statistics
        self.threshold_out = np.empty((n_numeric, CHILDREN + 2 * n_statistics))
        self.threshold_scratch = np.empty((6 if data.continuous else 7, n_statistics))
        self.touched = np.empty(n_statistics, dtype=np.intp)
        # whole weights sum exactly in any order, hence a split's class counts
        # are its children's; the moments of a continuous target are not
        self.whole_weights = not data.continuous and bool(
            np.all(data.weights == np.round(data.weights))
        )
        if self.compiled_max_cut is not None:
            self._compiled_max_cut_space()
        if self.compiled_mean_split:
            self._compiled_mean_space()
        n_rows = self.order.shape[1]
        self.slot_of_row = np.zeros(len(data.y), dtype=np.intp)
        self.buffer = np.empty(n_rows + 2, dtype=np.intp)
        node, value, impurity = self._add_node(self.order[0], 0, -1)
        active = np.ones(data.codes.shape[1], dtype=bool)
        root = (node, 0, n_rows, 0, active, value, impurity)
        if self.params.max_leaf_nodes is None:
            stack = [root]
            while stack:
                record = stack.pop()
                found = self._evaluate(record)
                if found is None:
                    continue
                best, active, _ = found
                # depth first, first child on top of the stack
                stack.extend(reversed(self._split(record, best, active)))
            return self.builder
        # best first: the leaf whose split decreases the weighted impurity most
        # (ties: the earliest node), a split that would make more leaves than
        # allowed left out
        frontier = []

        def push(record):
            found = self._evaluate(record)
            if found is not None:
                best, active, weighted = found
                heapq.heappush(frontier, (-weighted, record[0], record, best, active))

        push(root)
        n_leaves = 1
        while frontier:
            _, _, record, best, active = heapq.heappop(frontier)
            if n_leaves + best.n_children - 1 > self.params.max_leaf_nodes:
                continue
            n_leaves += best.n_children - 1
            for child in self._split(record, best, active):
                push(child)
        return self.builder


def grow_tree(data, params, *, collapse):
    """Grow a tree on ``data``; returns the :class:`Tree` and the nodes collapsed."""
    builder = _Grower(data, params).grow()
    n_removed = builder.collapse_same_prediction() if collapse else 0
    return builder.build(), n_removed
