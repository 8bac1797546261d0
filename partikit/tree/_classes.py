# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""PartitionTreeClassifier: a decision tree whose splits are partikit's partitions."""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, clone
from sklearn.utils import Bunch, check_random_state
from sklearn.utils.validation import check_is_fitted, column_or_1d

from partikit._compat import (
    HasMethods,
    Interval,
    RealNotInt,
    StrOptions,
    _fit_context,
)
from partikit._counting._validation import (
    categorical_mask,
    category_lookup,
    check_categorical_X,
    check_classification_y,
    check_continuous_y,
    check_lengths,
    check_sample_weight,
    factorize_column,
    feature_name,
    numeric_values,
)
from partikit._estimator._renames import (
    DEPRECATED,
    Renamed,
    RenamedParametersMixin,
    deprecated_constraints,
    renamed_keywords,
)
from partikit._kernels._bipartition import MAX_EXHAUSTIVE_ROWS, MAX_TWOING_CLASSES
from partikit._statistics._contingency import resolve_count
from partikit._statistics._moments import CONTINUOUS
from partikit.tree._builder import GrowthParameters, TreeData, grow_tree
from partikit.tree._pruning import (
    ccp_pruning_path,
    collapse_same_prediction,
    prune_tree,
)
from partikit.tree._splitters import REGRESSION_SPLITTERS, SPLITTERS
from partikit.tree._structure import CATEGORICAL, LEAF, PROJECTION, node_means


def _own_copy(method, name):
    """A splitter name as is; a grouper or discretizer instance cloned."""
    if isinstance(method, str):
        return method
    if isinstance(method, type):
        # the class has group_table / cut_table too, and passes validation
        raise TypeError(
            f"{name} takes a configured instance, such as {method.__name__}(); "
            f"got the class {method.__name__}."
        )
    return clone(method)


def _none_is_one(chi2_alpha):
    """``chi2_alpha=None`` (no pre-filter) is ``alpha_split=1.0``."""
    return 1.0 if chi2_alpha is None else chi2_alpha


class _BasePartitionTree(BaseEstimator):
    """What the partition trees share: input encoding, growth, traversal,
    pruning path and importances. A subclass sets its target's validation,
    its node statistics and its predictions."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # node PCA projects whole rows: a missing numeric value has no projection
        tags.input_tags.allow_nan = getattr(self, "node_features", None) is None
        tags.input_tags.string = True
        tags.input_tags.categorical = True
        return tags

    def _categorical_mask(self, columns):
        names = [feature_name(self, j) for j in range(len(columns))]
        return categorical_mask(self.categorical_features, columns, names)

    def _fit_input(self, X, y, sample_weight):
        """The checked columns, target (one column) and weights of a fit."""
        columns = check_categorical_X(self, X, reset=True)
        check_lengths(self, columns, y, sample_weight)
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            y = column_or_1d(y, warn=True)
        return columns, y, check_sample_weight(sample_weight, len(columns[0]))

    def _encode(self, columns, *, fit):
        """Categorical codes (int32, -1 unknown) and numeric values (float64)."""
        n_samples = len(columns[0])
        categorical = np.flatnonzero(self.categorical_features_)
        numeric = np.flatnonzero(~self.categorical_features_)
        codes = np.empty((n_samples, len(categorical)), dtype=np.int32)
        values = np.empty((n_samples, len(numeric)), dtype=np.float64)
        if fit:
            self.categories_ = [None] * len(columns)
            self._kinds = [None] * len(columns)
        for c, j in enumerate(categorical):
            name = feature_name(self, j)
            # predict only looks categories up: no sort of them
            factorized = factorize_column(
                columns[j], name, sort=fit, known=None if fit else self.categories_[j]
            )
            if fit:
                has_missing = bool(np.any(factorized.raw_codes < 0))
                categories = factorized.categories
                if has_missing:
                    categories = np.append(
                        categories.astype(object), np.array([np.nan], dtype=object)
                    )
                self.categories_[j] = categories
                self._kinds[j] = factorized.kind
            categories = self.categories_[j]
            lookup = category_lookup(
                factorized, categories, np.arange(len(categories)), self._kinds[j], name
            )
            codes[:, c] = lookup[np.asarray(factorized.raw_codes, dtype=np.intp) + 1]
        for c, j in enumerate(numeric):
            values[:, c] = numeric_values(columns[j], feature_name(self, j))
        return codes, values

    def _max_features(self):
        """``max_features`` as a number of features, or None for all of them."""
        n_features = self.n_features_in_
        spec = self.max_features
        if spec is None:
            return None
        if spec == "sqrt":
            count = int(math.sqrt(n_features))
        elif spec == "log2":
            count = int(math.log2(n_features))
        elif isinstance(spec, Integral):
            if spec > n_features:
                raise ValueError(
                    f"max_features must be at most the number of features "
                    f"({n_features}); got {spec}."
                )
            count = spec
        else:
            count = int(spec * n_features)
        count = max(1, count)
        return None if count >= n_features else count

    def _grow(
        self, codes, numeric, y, weights, *, n_classes, target_type, collapse,
        **methods,
    ):  # fmt: skip
        """Grow ``tree_`` on the encoded rows (of positive weight), prune it by
        ``ccp_alpha`` and, when ``collapse``, collapse the subtrees that predict
        one class. ``methods``: the :class:`GrowthParameters` of the tree's
        split methods, which the subclass chooses."""
        total = float(weights.sum())
        categorical = np.flatnonzero(self.categorical_features_)
        data = TreeData(
            codes=codes,
            n_categories=np.array(
                [len(self.categories_[j]) for j in categorical], dtype=np.intp
            ),
            numeric=numeric,
            y=y,
            weights=np.ascontiguousarray(weights, dtype=np.float64),
            n_classes=n_classes,
            target_type=target_type,
        )
        params = GrowthParameters(
            max_depth=self.max_depth,
            # a fraction rounds up to whole samples, as in scikit-learn's trees
            min_samples_split=float(
                math.ceil(resolve_count(self.min_samples_split, total))
            ),
            min_samples_leaf=float(
                math.ceil(resolve_count(self.min_samples_leaf, total))
            ),
            min_impurity_decrease=self.min_impurity_decrease,
            max_features=self._max_features(),
            max_leaf_nodes=self.max_leaf_nodes,
            random_state=check_random_state(self.random_state),
            **methods,
        )
        # pruning weighs the subtrees of the grown tree, as in scikit-learn; the
        # collapse (which does not change predictions) then applies to the result
        prune = self.ccp_alpha > 0.0
        self.tree_, self.n_nodes_collapsed_ = grow_tree(
            data, params, collapse=collapse and not prune
        )
        if prune:
            self.tree_ = prune_tree(self.tree_, self.ccp_alpha)
            if collapse:
                self.tree_, self.n_nodes_collapsed_ = collapse_same_prediction(
                    self.tree_
                )

    def cost_complexity_pruning_path(self, X, y, sample_weight=None):
        """The path of minimal cost-complexity pruning, as scikit-learn's trees.

        Grows the tree with ``ccp_alpha=0`` (and, for the classifier,
        ``collapse_same_prediction=False``): the tree that ``ccp_alpha`` prunes;
        then prunes its weakest link over and over until the root is a leaf
        (see the ``ccp_alpha`` parameter).
        ``ccp_alpha`` set between two consecutive ``ccp_alphas`` gives the tree
        pruned with the first of them.

        Parameters
        ----------
        X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
            Categorical and numeric columns (see ``categorical_features``).
        y : array-like of shape (n_samples,)
            The target: class labels of any type for the classifier, numbers
            for the regressor.
        sample_weight : array-like of shape (n_samples,), default=None
            Frequency weights; rows of zero weight are ignored.

        Returns
        -------
        ccp_path : :class:`~sklearn.utils.Bunch`
            Dictionary-like object, with the following attributes.

            ccp_alphas : ndarray
                Effective alphas of the subtrees during pruning, non-decreasing,
                0 first.
            impurities : ndarray
                Sum of ``N_t / N * impurity(t)`` over the leaves of the subtree
                pruned with the corresponding alpha.
        """
        unpruned = {"ccp_alpha": 0.0}
        if "collapse_same_prediction" in self.get_params():
            unpruned["collapse_same_prediction"] = False
        tree = clone(self).set_params(**unpruned)
        tree.fit(X, y, sample_weight=sample_weight)
        return Bunch(**ccp_pruning_path(tree.tree_))

    def _check_node_features(self, numeric):
        if getattr(self, "node_features", None) is None:
            return
        if np.isnan(numeric).any():
            raise ValueError(
                f"node_features={self.node_features!r} projects the numeric columns "
                "and needs them without missing values (NaN); impute them first (e.g. "
                "sklearn.impute.SimpleImputer)."
            )

    def _paths(self, X, *, whole=True):
        check_is_fitted(self)
        columns = check_categorical_X(self, X, reset=False)
        codes, numeric = self._encode(columns, fit=False)
        self._check_node_features(numeric)
        return self.tree_.paths(
            codes,
            numeric,
            stop_on_unknown=self.unknown_routing == "stop",
            whole=whole,
        )

    def apply(self, X):
        """Index of the node where each sample ends.

        A leaf, or the node where an unknown value stopped the sample with
        ``unknown_routing="stop"``.

        Parameters
        ----------
        X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
            The columns seen in fit, of the same kinds.

        Returns
        -------
        node : ndarray of intp of shape (n_samples,)
            Index of that node in ``tree_``.
        """
        return self._paths(X, whole=False)[:, 0]

    def decision_path(self, X):
        """Nodes visited by each sample.

        Parameters
        ----------
        X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
            The columns seen in fit, of the same kinds.

        Returns
        -------
        indicator : sparse CSR matrix of shape (n_samples, n_nodes)
            Non-zero where the sample passes through the node.
        """
        paths = self._paths(X)
        visited = paths >= 0
        indptr = np.concatenate([[0], np.cumsum(visited.sum(axis=1))])
        indices = paths[visited]
        data = np.ones(len(indices), dtype=np.intp)
        return sparse.csr_matrix(
            (data, indices, indptr), shape=(len(paths), self.tree_.n_nodes)
        )

    def get_depth(self):
        """Depth of the tree (0 for a single leaf).

        Returns
        -------
        depth : int
            The largest depth of a node.
        """
        check_is_fitted(self)
        return self.tree_.max_depth

    def get_n_leaves(self):
        """Number of leaves.

        Returns
        -------
        n_leaves : int
            Number of leaves of the fitted tree.
        """
        check_is_fitted(self)
        return self.tree_.n_leaves

    @property
    def feature_importances_(self):
        """Impurity decrease brought by each feature, normalised to sum to 1.

        Each split adds ``N_t / N * (impurity - children impurity)`` to its
        feature (impurity: entropy for ``split_score="entropy"``, the weighted
        variance for the regressor, else Gini); a
        projection shares it among the numeric columns in proportion to the
        absolute entries of its direction. All zeros for a single leaf.
        """
        check_is_fitted(self)
        tree = self.tree_
        importances = np.zeros(self.n_features_in_)
        weight = tree.weighted_n_node_samples
        categorical = np.flatnonzero(self.categorical_features_)
        numeric = np.flatnonzero(~self.categorical_features_)
        for node in np.flatnonzero(tree.kind != LEAF):
            kids = tree.node_children(node)
            decrease = (
                weight[node] * tree.impurity[node]
                - np.sum(weight[kids] * tree.impurity[kids])
            ) / weight[0]
            if tree.kind[node] == PROJECTION:
                start = tree.projection_start[node]
                direction = np.abs(tree.projections[start : start + len(numeric)])
                importances[numeric] += decrease * direction / direction.sum()
            elif tree.kind[node] == CATEGORICAL:
                importances[categorical[tree.feature[node]]] += decrease
            else:
                importances[numeric[tree.feature[node]]] += decrease
        total = importances.sum()
        return importances / total if total > 0 else importances


class PartitionTreeClassifier(
    RenamedParametersMixin, ClassifierMixin, _BasePartitionTree
):
    """A decision tree whose splits are partikit's groupings and thresholds.

    Categorical columns are split by grouping their categories, never one-hot
    encoded: in two (a binary-partition method such as the max-cut of Pereira &
    Laber, Twoing or PC-ext) or in several groups (Khiops, CHAID). Numeric columns
    are split at thresholds (Gini, entropy or the max-cut metric of Bodine &
    Hochbaum) or into several intervals (Block-Opt), optionally on node PCA
    projections. Every split is computed by the same pure function as the
    corresponding grouper or discretizer, on the table of the node: a method is
    named by a string (run with its default settings), or given as a configured
    grouper or discretizer, whose own parameters then make every node's split.

    Parameters
    ----------
    categorical_features : "from_dtype", array-like of int, str or bool, or None, \
            default="from_dtype"
        Which columns are categorical. ``"from_dtype"``: for a DataFrame
        (pandas or polars), the columns of dtype object, ``category``, string or
        bool; for a numpy array, all columns when its dtype is string or bool,
        none when it is numeric, and when it is object (the array that
        meta-estimators such as ``BaggingClassifier`` pass on, ``np.asarray(df,
        dtype=object)``) the columns whose non-missing values are not all real
        numbers (ints and floats, numpy's or Python's; bools and strings, such
        as ``"4_4"`` or ``"12"``, are not numbers). An object array thus gets
        its DataFrame's mask, except for a DataFrame column of numbers of dtype
        ``category`` or object, categorical in the DataFrame but numbers, hence
        numeric, in the array: list such columns in ``categorical_features``
        (or make their categories strings). Otherwise indices, names, or a
        boolean mask; None means none.
    categorical_split : str or grouper instance, default="maxcut_chi2"
        How a categorical column is split at a node.

        A string names a method, run with its default settings. Binary:
        ``"maxcut_chi2"``, ``"maxcut_squared_gini"`` (max-cut of the value graph,
        greedy cut and local search, Pereira & Laber), ``"twoing"`` (at most 20
        classes; exponential in them: about 1 ms per node of 30 categories at 10
        classes, 30 ms at 15, 1.3 s at 20), ``"exhaustive"`` (at most 20
        categories), ``"exact_two_class"``
        (two classes), ``"pc_ext"``, ``"largest_alone"``, ``"list_scheduling"``,
        ``"sliq_ext"``, ``"flip_flop"``; those that minimise an impurity minimise
        the nodes' impurity (see ``split_score``). The max-cut strings visit
        a node's categories in the order of their codes, as the thesis does,
        so renaming the categories can change a split;
        ``MaxCutGrouper(weights=...)`` (``order="data"``) visits them in an
        order defined by their counts. Multiway: ``"modl"`` (Boulle's
        Bayes optimal MODL grouping), ``"khiops"`` (robust Khiops grouping)
        and ``"chaid"`` (CHAID merging), one child per group.
        ``"sliq_ext"`` and ``"twoing"`` search exactly up to a size (``n^2 k <=
        2^26``, resp. ``2^(k-1) n <= 2^22``, for ``n`` categories at the node and
        ``k`` classes; always up to 1024 categories) and above it search the
        categories pooled by class profile (user guide, "Many categories");
        ``tree_.pooled`` marks the nodes where that happened.

        A grouper instance (an object with a ``group_table`` method, such as
        ``KhiopsGrouper(alpha=0.01)``, ``CHAIDGrouper(alpha_merge=0.01)`` or
        ``MaxCutGrouper(weights="squared_gini")``) splits with its own
        parameters: each node's categories x classes table goes to its
        ``group_table``, one child per group (two at most for a max-cut). The
        table is nominal (``CHAIDGrouper``'s ``ordinal`` does not apply) and the
        grouper's ``encode``, ``handle_unknown`` and ``n_jobs`` play no part. The
        grouper is cloned at fit, never fitted nor changed. The limits of the
        strings above (classes, categories) are not checked: the grouper's own
        checks apply.
    numeric_split : str or discretizer instance, default="gini"
        How a numeric column (or projection) is split at a node.

        A string names a method: ``"gini"`` or ``"entropy"``, the binary
        threshold of least Gini or entropy; ``"maxcut"``, the threshold of
        largest max-cut metric (Bodine & Hochbaum's); ``"block_opt"``, the
        optimal multiway split of Block-Opt on the nodes' impurity (see
        ``split_score``), up to ``max_bins`` intervals, their number chosen by
        MDL; ``"modl"``, Boulle's MODL discretization, up to ``max_bins``
        intervals, their number chosen by the MODL criterion (no split where
        the column tells nothing of the class; its criterion value is the
        compression level); ``"twoing"``, ``"maxcut_squared_gini"`` or
        ``"maxcut_chi2"``, the threshold that the categorical method of that
        name scores best (the thesis's numeric attribute as its binary
        attributes ``x <= v``, each valued as the method values the 2-row
        table of its two sides: the twoing value, the squared-Gini or
        chi-square cut weight), its value on that method's scale: with the
        same ``categorical_split`` and ``split_score="raw"``, nominal and
        numeric columns compete as in the thesis. A value of 0 is no split.

        A discretizer instance (an object with a ``cut_table`` method, such as
        ``MDLPDiscretizer()``, ``KhiopsDiscretizer(alpha=0.01)`` or
        ``BlockOptDiscretizer(max_bins=4)``) splits with its own parameters
        (``max_bins`` of the tree does not apply): each node's value table goes
        to its ``cut_table``, one child per interval, thresholds halfway between
        the values on each side of a cut. The discretizer is cloned at fit,
        never fitted nor changed; its ``encode`` and ``n_jobs`` play no part.
    split_score : {"gini", "entropy", "log_pvalue", "raw"}, default="gini"
        How the best splits of different attributes are compared.
        ``"gini"`` / ``"entropy"``: the impurity decrease of each split (the same
        scale for every method, binary or multiway). ``"log_pvalue"``: -log10 of
        the p-value of Pearson's chi2 test of the children x classes table (which
        accounts for the number of children through its degrees of freedom).
        ``"raw"``: each method's own value (cut weight, twoing value, max-cut
        metric, ...), as in the papers; only meaningful when all candidate
        attributes use the same method. A grouper instance's own value is the
        ``criterion`` of its ``group_table`` result (-log10 p for Khiops, the
        adjusted -log10 p for CHAID, the cut weight for a max-cut); a
        discretizer instance's is the decrease of the nodes' impurity by its
        cuts. ``split_score`` also sets the nodes' impurity: the entropy for
        ``"entropy"``, else Gini.
    node_features : {None, "node_pca", "node_means_pca"}, default=None
        Numeric candidates at a node. None: the numeric columns. ``"node_pca"``:
        the principal directions of the node's numeric points.
        ``"node_means_pca"``: the principal directions of the one-vs-rest class
        means (Bodine & Hochbaum). The split rule stores the direction ``v`` and
        tests ``x @ v``. Distances matter: standardise columns measured in
        different units first (on columns of one unit, such as pixels, raw
        values may do better). Needs numeric columns without missing values.
    max_depth : int or None, default=None
        Largest depth; None grows until the other rules stop.
    min_samples_split : int or float, default=2
        Smallest weighted number of samples of a node that is split (a float:
        a fraction of the training weight).
    min_samples_leaf : int or float, default=1
        Smallest weighted number of samples of a child; thresholds of
        ``"gini"``, ``"entropy"`` and ``"maxcut"`` that violate it are not
        candidates; categorical splits, ``"block_opt"`` and ``"modl"`` splits
        and the splits of a grouper or discretizer instance that violate it
        are rejected.
    min_impurity_decrease : float, default=0.0
        A node is split only if ``N_t / N * (impurity - children impurity)`` is at
        least this (impurity: entropy for ``split_score="entropy"``, else Gini).
    alpha_split : float, default=1.0
        Pre-filter of the thesis: a categorical column whose chi2 test of
        independence with the class at the node has a p-value above
        ``alpha_split`` is not used at that node (it may be used below); the
        meaning of CHAID's ``alpha_split``, the level at which a column is
        significant enough to split on. 1.0 turns it off.
    min_second_value_count : float or None, default=None
        Pre-filter of the thesis: a categorical column whose second most frequent
        category at a node has a smaller weighted count is not used in the
        node's subtree. None turns it off.
    max_bins : int or None, default=10
        Most intervals, so most children, of a ``numeric_split="block_opt"``
        or ``"modl"`` split (a discretizer instance brings its own limit).
        None: no limit, which costs O(m^3 J) time and O(m^2) memory at a node
        of ``m`` blocks of values (``BlockOptDiscretizer()`` as
        ``numeric_split`` bounds ``m`` by its ``exact_limit``).
    collapse_same_prediction : bool, default=True
        After growth, turn into a leaf every subtree whose leaves all predict the
        same class (predictions unchanged, fewer nodes).
    unknown_routing : {"largest_child", "stop"}, default="largest_child"
        Where a sample goes when a node's rule does not know its value (a
        category absent at that node in fit, a missing numeric value where none
        was seen): to the child with the most training weight, or nowhere — it
        stops and gets the node's class distribution (the thesis's rule).
    class_weight : dict, "balanced" or None, default=None
        Weights of the classes, ``{class label: weight}`` (a class left out
        weighs 1; a label that is not a class of y is an error), or
        ``"balanced"``: ``n / (n_classes * n_c)`` for a class of weighted count
        ``n_c`` out of ``n`` (with ``sample_weight``, the weighted counts, so
        that integer weights act as repeated rows). Each sample's weight is
        multiplied by its class's, as scikit-learn's trees do: the class counts
        of every node (``tree_.value``), hence the impurities, the splits, the
        weighted counts of ``min_samples_split`` and ``min_samples_leaf`` (which
        scikit-learn counts in samples: a class weight below 1 makes a leaf of
        one sample of the class too light for ``min_samples_leaf=1``),
        ``predict_proba`` and the pruning, are reweighted.
    ccp_alpha : float, default=0.0
        Complexity parameter of minimal cost-complexity pruning (Breiman et al.
        1984, chapter 3), as in scikit-learn's trees: the grown tree is pruned at
        its weakest link, the internal node ``t`` of least ``(R(t) - R(T_t)) /
        (|leaves(T_t)| - 1)`` (``R(t)``: the node's share of the training weight
        times its impurity; ``R(T_t)``: the sum over the leaves of its subtree;
        a multiway node counts all the leaves below it), while that least value
        is at most ``ccp_alpha``. 0 prunes nothing. The pruning applies to the
        tree as grown, then ``collapse_same_prediction`` to the pruned tree.
        :meth:`cost_complexity_pruning_path` gives the values worth trying.
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        Features searched at each node, as in scikit-learn's trees: an int, a
        fraction of the features (at least one), ``sqrt`` or ``log2`` of their
        number, or None for all. At each node the categorical columns still in
        use and the numeric columns are drawn in a random order (see
        ``random_state``) and the first ``max_features`` are searched; if none
        of them splits the node, the others are, so that a node is not left a
        leaf for an unlucky draw. With ``node_features``, the projections are
        those of the numeric columns drawn. What makes the trees of a
        random-forest-like ensemble differ (see :ref:`tree_meta_estimators`).
    max_leaf_nodes : int or None, default=None
        Grow the tree best first with at most this many leaves: among the
        leaves that can be split, the one whose split decreases the weighted
        impurity most (``N_t / N * (impurity - children impurity)``, ties to the
        earlier node) is split next, until no leaf is left or splitting one
        would make more leaves than allowed (a multiway split of ``k`` children
        adds ``k - 1``; a leaf whose split would not fit is left as is and the
        next one tried). None grows depth first with no such limit.
    random_state : int, RandomState instance or None, default=None
        Draws the order of the features at each node for ``max_features``; an
        int gives the same tree at every fit. Unused when ``max_features`` is
        None (the search is then deterministic).

    chi2_alpha : float or None
        The 0.1 name of ``alpha_split`` (None there is 1.0 here).

        .. deprecated:: 0.2
           Renamed ``alpha_split`` (None reads 1.0); ``chi2_alpha`` will be
           removed in 0.4.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels, sorted.
    n_classes_ : int
        Number of classes.
    n_features_in_ : int
        Number of features seen in fit.
    feature_names_in_ : ndarray of str
        Only when X has string column names.
    categorical_features_ : ndarray of bool of shape (`n_features_in_`,)
        Which features are categorical.
    categories_ : list of (ndarray or None)
        The categories of each categorical column (sorted, the missing value last
        when seen), None for a numeric column.
    tree_ : Tree
        The fitted tree, a struct of numpy arrays: node kinds, features,
        children, category maps, thresholds, projections, class counts
        (``value``) and impurities, documented in ``partikit/tree/_structure.py``;
        ``tree_.pooled[t]`` is True where node ``t`` was split on pooled
        categories (see ``categorical_split``).
    n_nodes_collapsed_ : int
        Nodes removed by ``collapse_same_prediction`` (after ``ccp_alpha``'s
        pruning, which they do not count).
    feature_importances_ : ndarray of shape (`n_features_in_`,)
        Impurity decrease brought by each feature, normalised to sum to 1.

    See Also
    --------
    partikit.groupers.MaxCutGrouper : The max-cut bipartition as a transformer.
    partikit.discretizers.BlockOptDiscretizer : Block-Opt as a transformer.
    partikit.groupers.KhiopsGrouper : A grouper whose configured instance can
        split the categorical columns (``categorical_split``).

    Notes
    -----
    A missing value of a categorical column is a category. A missing value of a
    numeric column goes to the child that lowers the node's impurity most (learned
    at each split from the training rows with a missing value), or follows
    ``unknown_routing`` where the node saw none. Ties between attributes go to the
    categorical columns, then to the smallest column index.

    References
    ----------
    .. [1] F. de A. Mello Pereira, "Binary splitting criteria for large
       categorical attributes in decision trees", M.Sc. dissertation, PUC-Rio,
       2018, chapter 6.
    .. [2] J. Bodine and D. S. Hochbaum, "The max-cut decision tree: improving on
       the accuracy and running time of decision trees", KDIR 2020, 59-70,
       doi:10.5220/0010107400590070.
    .. [3] L. Breiman, J. H. Friedman, R. A. Olshen and C. J. Stone,
       "Classification and Regression Trees", Wadsworth, 1984.

    Examples
    --------
    >>> import pandas as pd
    >>> from partikit.tree import PartitionTreeClassifier
    >>> X = pd.DataFrame({"color": list("rgbrgbrgbr"), "size": range(10)})
    >>> y = [1, 0, 0, 1, 0, 0, 1, 0, 0, 1]
    >>> tree = PartitionTreeClassifier().fit(X, y)
    >>> tree.predict(pd.DataFrame({"color": ["r", "b"], "size": [3, 4]}))
    array([1, 0])

    A configured grouper splits the categorical columns with its own parameters:

    >>> from partikit.groupers import CHAIDGrouper
    >>> from partikit.tree import export_text
    >>> chaid = CHAIDGrouper(alpha_merge=0.01)
    >>> tree = PartitionTreeClassifier(categorical_split=chaid).fit(X, y)
    >>> print(export_text(tree))
    |--- color in {b, g}
    |   |--- class: 0
    |--- color in {r}
    |   |--- class: 1
    <BLANKLINE>
    """

    _parameter_constraints: dict = {
        "categorical_features": [StrOptions({"from_dtype"}), "array-like", None],
        # an instance is taken by what it does (the tree imports no estimator
        # class), so an AttributeAggregator, without group_table, is refused
        "categorical_split": [
            StrOptions(set(SPLITTERS["categorical"])),
            HasMethods(["group_table"]),
        ],
        "numeric_split": [
            StrOptions(set(SPLITTERS["numeric"])),
            HasMethods(["cut_table"]),
        ],
        "split_score": [StrOptions({"gini", "entropy", "log_pvalue", "raw"})],
        "node_features": [StrOptions({"node_pca", "node_means_pca"}), None],
        "max_depth": [Interval(Integral, 1, None, closed="left"), None],
        "min_samples_split": [
            Interval(Integral, 2, None, closed="left"),
            Interval(RealNotInt, 0.0, 1.0, closed="right"),
        ],
        "min_samples_leaf": [
            Interval(Integral, 1, None, closed="left"),
            Interval(RealNotInt, 0.0, 1.0, closed="neither"),
        ],
        "min_impurity_decrease": [Interval(Real, 0.0, None, closed="left")],
        "alpha_split": [Interval(Real, 0, 1, closed="right")],
        "min_second_value_count": [Interval(Real, 0.0, None, closed="left"), None],
        "max_bins": [Interval(Integral, 1, None, closed="left"), None],
        "collapse_same_prediction": ["boolean"],
        "unknown_routing": [StrOptions({"largest_child", "stop"})],
        "class_weight": [dict, StrOptions({"balanced"}), None],
        "ccp_alpha": [Interval(Real, 0.0, None, closed="left")],
        "max_features": [
            Interval(Integral, 1, None, closed="left"),
            Interval(RealNotInt, 0.0, 1.0, closed="right"),
            StrOptions({"sqrt", "log2"}),
            None,
        ],
        "max_leaf_nodes": [Interval(Integral, 2, None, closed="left"), None],
        "random_state": ["random_state"],
        "chi2_alpha": deprecated_constraints(
            [Interval(Real, 0.0, 1.0, closed="neither"), None]
        ),
    }
    _renamed_parameters = (
        Renamed("chi2_alpha", "alpha_split", _none_is_one, "None reads 1.0"),
    )

    def __init__(
        self,
        *,
        categorical_features="from_dtype",
        categorical_split="maxcut_chi2",
        numeric_split="gini",
        split_score="gini",
        node_features=None,
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_impurity_decrease=0.0,
        alpha_split=1.0,
        min_second_value_count=None,
        max_bins=10,
        collapse_same_prediction=True,
        unknown_routing="largest_child",
        class_weight=None,
        ccp_alpha=0.0,
        max_features=None,
        max_leaf_nodes=None,
        random_state=None,
        chi2_alpha=DEPRECATED,
    ):
        self.categorical_features = categorical_features
        self.categorical_split = categorical_split
        self.numeric_split = numeric_split
        self.split_score = split_score
        self.node_features = node_features
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.alpha_split = alpha_split
        self.min_second_value_count = min_second_value_count
        self.max_bins = max_bins
        self.collapse_same_prediction = collapse_same_prediction
        self.unknown_routing = unknown_routing
        self.class_weight = class_weight
        self.ccp_alpha = ccp_alpha
        self.max_features = max_features
        self.chi2_alpha = chi2_alpha
        self.max_leaf_nodes = max_leaf_nodes
        self.random_state = random_state

    # ------------------------------------------------------------------ input
    def _check_split_parameters(self, n_classes):
        # the limits of the string methods; a grouper instance checks its own
        if not isinstance(self.categorical_split, str):
            return
        if self.categorical_split == "exact_two_class" and n_classes > 2:
            raise ValueError(
                f"categorical_split='exact_two_class' needs a two-class target; y "
                f"has {n_classes} classes. Use 'twoing' or 'maxcut_chi2'."
            )
        if self.categorical_split == "twoing" and n_classes > MAX_TWOING_CLASSES:
            raise ValueError(
                f"categorical_split='twoing' enumerates 2^(k-1) - 1 superclasses and "
                f"is limited to {MAX_TWOING_CLASSES} classes; y has {n_classes}. Use "
                "'maxcut_chi2' or 'maxcut_squared_gini' (linear in the classes)."
            )

    # -------------------------------------------------------------------- fit
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Grow the tree.

        Parameters
        ----------
        X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
            Categorical and numeric columns (see ``categorical_features``). NaN,
            None and ``pd.NA`` are missing values.
        y : array-like of shape (n_samples,)
            Class labels of any type.
        sample_weight : array-like of shape (n_samples,), default=None
            Frequency weights; rows of zero weight are ignored.

        Returns
        -------
        self : object
            The fitted tree.
        """
        columns, y, sample_weight = self._fit_input(X, y, sample_weight)
        n_samples = len(columns[0])
        y_codes, self.classes_ = check_classification_y(y, sample_weight, min_classes=1)
        self.n_classes_ = len(self.classes_)
        self._check_split_parameters(self.n_classes_)
        # a clone: the user's instance is never changed (not even the state of a
        # RandomState parameter), and each fit starts from the same one
        categorical_split = _own_copy(self.categorical_split, "categorical_split")
        numeric_split = _own_copy(self.numeric_split, "numeric_split")
        self.categorical_features_ = self._categorical_mask(columns)
        weights = np.ones(n_samples) if sample_weight is None else sample_weight
        if self.class_weight is not None:
            weights = weights * self._class_weights(y, y_codes, weights)[y_codes]
        keep = weights > 0
        if not keep.all():
            columns = [c[keep] for c in columns]
            y_codes, weights = y_codes[keep], weights[keep]
        codes, numeric = self._encode(columns, fit=True)
        self._check_node_features(numeric)
        if self.categorical_split == "exhaustive":
            too_many = [
                feature_name(self, j)
                for j in np.flatnonzero(self.categorical_features_)
                if len(self.categories_[j]) > MAX_EXHAUSTIVE_ROWS
            ]
            if too_many:
                raise ValueError(
                    f"categorical_split='exhaustive' enumerates 2^(n-1) - 1 splits and "
                    f"is limited to {MAX_EXHAUSTIVE_ROWS} categories; columns "
                    f"{too_many} have more. Use 'maxcut_chi2'."
                )
        alpha_split = self._parameter("alpha_split")
        self._grow(
            codes, numeric, y_codes, weights, n_classes=self.n_classes_,
            target_type=None, categorical_split=categorical_split,
            numeric_split=numeric_split, split_score=self.split_score,
            node_features=self.node_features,
            alpha_split=None if alpha_split >= 1.0 else alpha_split,
            min_second_value_count=self.min_second_value_count,
            max_bins=self.max_bins, collapse=self.collapse_same_prediction,
        )  # fmt: skip
        return self

    def _class_weights(self, y, y_codes, weights):
        """The weight of each class of ``classes_`` under ``class_weight``."""
        if isinstance(self.class_weight, str):  # "balanced", the only string
            # the weighted class counts, so that integer weights act as repeated
            # rows; classes_ holds the classes of positive weight only
            counts = np.bincount(y_codes, weights=weights, minlength=self.n_classes_)
            return counts.sum() / (self.n_classes_ * counts)
        labels = set(np.unique(y).tolist())
        unknown = [key for key in self.class_weight if key not in labels]
        if unknown:
            raise ValueError(
                f"class_weight names {unknown!r}, which are not classes of y; the "
                f"classes are {sorted(labels, key=str)!r}."
            )
        class_weights = np.array(
            [self.class_weight.get(label, 1.0) for label in self.classes_.tolist()],
            dtype=object,
        )
        is_weight = [
            isinstance(w, Real) and not isinstance(w, (bool, np.bool_))
            for w in class_weights
        ]
        class_weights = np.where(is_weight, class_weights, np.nan).astype(np.float64)
        bad = ~np.isfinite(class_weights) | (class_weights < 0)
        if bad.any():
            raise ValueError(
                "class_weight must map classes to finite non-negative numbers; got "
                f"{self.class_weight!r}."
            )
        return class_weights

    # ---------------------------------------------------------------- predict
    def predict_proba(self, X):
        """Class distribution of the node where each sample ends.

        Parameters
        ----------
        X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
            The columns seen in fit, of the same kinds.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Weighted training class counts of that node, normalised, in
            ``classes_`` order.
        """
        nodes = self.apply(X)
        value = self.tree_.value[nodes]
        return value / value.sum(axis=1, keepdims=True)

    def predict(self, X):
        """Most frequent class of the node where each sample ends.

        Ties go to the first class in ``classes_``.

        Parameters
        ----------
        X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
            The columns seen in fit, of the same kinds.

        Returns
        -------
        y : ndarray of shape (n_samples,)
            Predicted class labels.
        """
        # a node's class: the argmax of its normalised counts, as predict_proba
        # gives them to each of its samples
        nodes = self.apply(X)
        value = self.tree_.value
        node_class = np.argmax(value / value.sum(axis=1, keepdims=True), axis=1)
        return self.classes_[node_class[nodes]]

    # -------------------------------------------------------------- inspection
    @renamed_keywords(Renamed("max_categories", "max_members"))
    def plot_tree(
        self,
        ax=None,
        *,
        max_depth=None,
        feature_names=None,
        class_names=None,
        max_members=4,
        precision=2,
        filled=True,
        fontsize=None,
    ):
        """Draw the tree: a box per node, each edge labelled with its part.

        A node's box shows the column it splits, its samples (the weight, when
        fitted with non-integer weights), its class counts (up to 4 classes)
        and its majority class. The edge to each child reads the part of the
        values sent there, as :func:`~partikit.tree.export_text` writes it:
        the categories of a group (``{red, blue}``, ``... +N more`` past
        ``max_members``), a threshold (``<= 2.50``, ``> 2.50``) or an
        interval of a multiway split (``(2.50, 4.00]``), then ``or missing``
        where missing values go and, with ``unknown_routing="largest_child"``,
        ``or unknown`` where categories unseen at the node go. Leaves are
        spread evenly and parents centred over their children; the text
        shrinks until boxes and labels do not overlap.

        Needs matplotlib (``pip install 'partikit[plot]'``); works headless.

        Parameters
        ----------
        ax : matplotlib.axes.Axes or None, default=None
            Where to draw; None draws on a new pyplot figure sized for the
            tree, which the caller may save and close (``ax.figure``).
        max_depth : int or None, default=None
            Deepest level drawn; a node split below it shows ``(...)`` in a
            dashed box. None draws the whole tree.
        feature_names : array-like of str, default=None
            Names of the features; ``feature_names_in_`` or ``x0, x1, ...`` if
            None.
        class_names : array-like of str, default=None
            Names of the classes in ``classes_`` order; the classes if None.
        max_members : int, default=4
            Categories an edge label lists before ``... +N more``.
        precision : int, default=2
            Decimals of thresholds, projection directions and non-integer
            weights.
        filled : bool, default=True
            Colour each box by its majority class, paler the less pure it is.
        fontsize : float or None, default=None
            Size of the text; None takes the largest (at most 10) at which
            boxes and labels do not overlap.

        Returns
        -------
        ax : matplotlib.axes.Axes
            The axes drawn on (``ax.figure`` is the figure).

        See Also
        --------
        partikit.tree.export_text : The same rules as text.
        sklearn.tree.plot_tree : The drawing of scikit-learn's trees.
        """
        from partikit.tree._plot import plot_tree

        return plot_tree(
            self,
            ax=ax,
            max_depth=max_depth,
            feature_names=feature_names,
            class_names=class_names,
            max_members=max_members,
            precision=precision,
            filled=filled,
            fontsize=fontsize,
        )


class PartitionTreeRegressor(RegressorMixin, _BasePartitionTree):
    """A regression tree whose categorical splits group categories.

    The regression counterpart of :class:`PartitionTreeClassifier`, grown by the
    same builder: a node's statistics are the moments of the target (weight,
    weighted sum, weighted sum of squares), its impurity the weighted variance
    (squared error per unit of weight, scikit-learn's ``"squared_error"``), and
    a split is chosen by the decrease of the weighted variance of its children.
    Categorical columns are never one-hot or ordinal encoded: a node splits
    them in two groups of categories, the exact best bipartition for squared
    error (the categories sorted by their mean target, the best of the
    prefixes: Fisher 1958; Breiman et al. 1984, section 9.4). Numeric columns
    are split at the threshold of least squared error, all columns of a node
    in one compiled pass over rows sorted once at the root.

    Parameters
    ----------
    categorical_features : "from_dtype", array-like of int, str or bool, or None, \
            default="from_dtype"
        Which columns are categorical, as for :class:`PartitionTreeClassifier`:
        ``"from_dtype"`` takes the DataFrame columns of dtype object,
        ``category``, string or bool (for a numpy array: all columns when its
        dtype is string, bool or holds non-numbers in an object array, none
        when it is numeric); otherwise indices, names, or a boolean mask; None
        means none.
    categorical_split : {"sort_by_mean", "maxcut_squared_error", "chaid"} or \
            grouper instance, default="sort_by_mean"
        How a categorical column is split at a node. ``"sort_by_mean"``: the
        exact binary split of least squared error, found in O(k log k) for
        ``k`` categories at the node by sorting them by their mean target
        (:func:`~partikit.groupers.sort_by_mean`); all the categorical columns
        of a node in one compiled call. ``"maxcut_squared_error"``: two groups
        by a maximum cut of the categories' graph whose edge ``(i, j)`` weighs
        ``n_i n_j (m_i - m_j)^2 / N^2`` (``m`` the category means; local
        search in table order, :func:`~partikit.groupers.max_cut_bipartition`
        with ``target_type="continuous"``), whose cut weight favours balanced
        sides. These two are the methods of
        :data:`~partikit.groupers.REGRESSION_BIPARTITIONS`. ``"chaid"``:
        CHAID's multiway split for a continuous target (categories merged by F
        tests of their means, :func:`~partikit.groupers.chaid_grouping` with
        ``target_type="continuous"``, default settings), one child per group.
        A grouper instance (such as ``CHAIDGrouper(alpha_merge=0.01)`` or
        ``MaxCutGrouper(solver="sdp")``) splits with its own parameters: each
        node's moment table goes to its
        ``group_table(table, target_type="continuous")``, one child per group;
        a grouper that does not read moment tables raises at fit. The grouper
        is cloned at fit, never fitted nor changed.
    numeric_split : {"squared_error"}, default="squared_error"
        How a numeric column is split at a node: the binary threshold of least
        squared error, halfway between the values on each side; ties go to the
        smallest threshold.
    criterion : {"squared_error"}, default="squared_error"
        The nodes' impurity: the weighted variance of the target (the squared
        error of the node's mean per unit of weight), as scikit-learn's
        ``DecisionTreeRegressor``.
    split_score : {"squared_error", "log_adjusted_pvalue"}, default="squared_error"
        How the best splits of different columns are compared.
        ``"squared_error"``: by the decrease of the weighted variance, as
        scikit-learn's trees. ``"log_adjusted_pvalue"``: by -log10 of the
        p-value of the F-test of the children's means, multiplied by Kass's
        Bonferroni multiplier, the number of ways the column's values at the
        node could have been split into as many children (nominal for a
        categorical column: ``2^(k-1) - 1`` bipartitions of ``k`` categories;
        ordinal for a numeric one: ``v - 1`` thresholds between ``v``
        values). A column of hundreds of categories then wins only when its
        split is significant after paying for its many candidate splits: less
        overfitting deep in the tree (CHAID's attribute selection; on the
        shelter data, held-out R^2 0.17 against 0.11 at depth 8, see
        ``benchmarks/RESULTS.md``). Each column's own split is still the one of
        least squared error.
    max_depth : int or None, default=None
        Largest depth; None grows until the other rules stop.
    min_samples_split : int or float, default=2
        Smallest weighted number of samples of a node that is split (a float:
        a fraction of the training weight).
    min_samples_leaf : int or float, default=1
        Smallest weighted number of samples of a child: thresholds that violate
        it are not candidates, categorical splits that violate it are rejected.
    min_impurity_decrease : float, default=0.0
        A node is split only if ``N_t / N * (impurity - children impurity)`` is
        at least this.
    min_second_value_count : float or None, default=None
        A categorical column whose second most frequent category at a node has
        a smaller weighted count is not used in the node's subtree (Pereira's
        pre-filter; it reads only the weights, so it applies to any target).
        None turns it off.
    unknown_routing : {"largest_child", "stop"}, default="largest_child"
        Where a sample goes when a node's rule does not know its value (a
        category absent at that node in fit, a missing numeric value where none
        was seen): to the child with the most training weight, or nowhere: it
        stops and gets the node's mean.
    ccp_alpha : float, default=0.0
        Complexity parameter of minimal cost-complexity pruning (Breiman et al.
        1984, chapter 3), as in scikit-learn's trees, with ``R(t)`` the node's
        share of the training weight times its weighted variance (see
        :class:`PartitionTreeClassifier` and
        :meth:`cost_complexity_pruning_path`). 0 prunes nothing.
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        Features searched at each node, as in scikit-learn's trees (see
        :class:`PartitionTreeClassifier`); if none of those drawn splits the
        node, the others are.
    max_leaf_nodes : int or None, default=None
        Grow the tree best first with at most this many leaves (the leaf whose
        split decreases the weighted impurity most is split next). None grows
        depth first with no such limit.
    random_state : int, RandomState instance or None, default=None
        Draws the order of the features at each node for ``max_features``.
        Unused when ``max_features`` is None (the search is deterministic).

    Attributes
    ----------
    n_features_in_ : int
        Number of features seen in fit.
    feature_names_in_ : ndarray of str
        Only when X has string column names.
    categorical_features_ : ndarray of bool of shape (`n_features_in_`,)
        Which features are categorical.
    categories_ : list of (ndarray or None)
        The categories of each categorical column (sorted, the missing value
        last when seen), None for a numeric column.
    tree_ : Tree
        The fitted tree (``partikit/tree/_structure.py``); ``tree_.value`` holds
        the moments of every node, ``value[:, 1] / value[:, 0]`` its mean, and
        ``tree_.impurity`` its weighted variance.
    feature_importances_ : ndarray of shape (`n_features_in_`,)
        Decrease of the weighted variance brought by each feature, normalised
        to sum to 1.

    See Also
    --------
    PartitionTreeClassifier : The same tree for class targets.
    sklearn.tree.DecisionTreeRegressor : The regression tree of scikit-learn,
        on encoded categories.

    Notes
    -----
    The chi-square pre-filter of the classifier (``alpha_split``) and its
    class-count methods (max-cut on chi-square or squared-Gini weights, Twoing,
    Khiops, Block-Opt, ...) do not apply to a continuous target and are not
    offered; ``min_second_value_count``, which reads only weights, is. Whatever
    the method, the splits of all columns are compared by
    the decrease of the weighted variance. A missing value of a categorical column
    is a category; a missing numeric value goes to the side of least weighted
    variance, learned at each split, or follows ``unknown_routing`` where the node
    saw none. Ties between attributes go to the categorical columns, then to the
    smallest column index. On numeric columns only, the tree is scikit-learn's
    ``DecisionTreeRegressor`` up to ties (scikit-learn breaks them by a random order
    of the features).

    References
    ----------
    .. [1] W. D. Fisher, "On grouping for maximum homogeneity", Journal of the
       American Statistical Association 53(284):789-798, 1958,
       doi:10.1080/01621459.1958.10501479.
    .. [2] L. Breiman, J. H. Friedman, R. A. Olshen and C. J. Stone,
       "Classification and Regression Trees", Wadsworth, 1984.
    .. [3] F. de A. Mello Pereira, "Binary splitting criteria for large
       categorical attributes in decision trees", M.Sc. dissertation, PUC-Rio,
       2018, section 4.2.1 (the squared-Gini cut, whose squared-error analogue
       is ``"maxcut_squared_error"``).

    Examples
    --------
    >>> import pandas as pd
    >>> from partikit.tree import PartitionTreeRegressor, export_text
    >>> X = pd.DataFrame({"city": list("abcdabcdab"), "size": range(10)})
    >>> y = [1.0, 5.0, 1.2, 5.1, 0.9, 4.8, 1.1, 5.2, 1.0, 5.0]
    >>> tree = PartitionTreeRegressor(max_depth=1).fit(X, y)
    >>> print(export_text(tree))
    |--- city in {a, c}
    |   |--- value: 1.04
    |--- city in {b, d}
    |   |--- value: 5.02
    <BLANKLINE>
    """

    _parameter_constraints: dict = {
        "categorical_features": [StrOptions({"from_dtype"}), "array-like", None],
        "categorical_split": [
            StrOptions(set(REGRESSION_SPLITTERS["categorical"])),
            HasMethods(["group_table"]),
        ],
        "numeric_split": [StrOptions(set(REGRESSION_SPLITTERS["numeric"]))],
        "criterion": [StrOptions({"squared_error"})],
        "split_score": [StrOptions({"squared_error", "log_adjusted_pvalue"})],
        "max_depth": [Interval(Integral, 1, None, closed="left"), None],
        "min_samples_split": [
            Interval(Integral, 2, None, closed="left"),
            Interval(RealNotInt, 0.0, 1.0, closed="right"),
        ],
        "min_samples_leaf": [
            Interval(Integral, 1, None, closed="left"),
            Interval(RealNotInt, 0.0, 1.0, closed="neither"),
        ],
        "min_impurity_decrease": [Interval(Real, 0.0, None, closed="left")],
        "min_second_value_count": [Interval(Real, 0.0, None, closed="left"), None],
        "unknown_routing": [StrOptions({"largest_child", "stop"})],
        "ccp_alpha": [Interval(Real, 0.0, None, closed="left")],
        "max_features": [
            Interval(Integral, 1, None, closed="left"),
            Interval(RealNotInt, 0.0, 1.0, closed="right"),
            StrOptions({"sqrt", "log2"}),
            None,
        ],
        "max_leaf_nodes": [Interval(Integral, 2, None, closed="left"), None],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        categorical_features="from_dtype",
        categorical_split="sort_by_mean",
        numeric_split="squared_error",
        criterion="squared_error",
        split_score="squared_error",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_impurity_decrease=0.0,
        min_second_value_count=None,
        unknown_routing="largest_child",
        ccp_alpha=0.0,
        max_features=None,
        max_leaf_nodes=None,
        random_state=None,
    ):
        self.categorical_features = categorical_features
        self.categorical_split = categorical_split
        self.numeric_split = numeric_split
        self.criterion = criterion
        self.split_score = split_score
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.min_second_value_count = min_second_value_count
        self.unknown_routing = unknown_routing
        self.ccp_alpha = ccp_alpha
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Grow the tree.

        Parameters
        ----------
        X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
            Categorical and numeric columns (see ``categorical_features``). NaN,
            None and ``pd.NA`` are missing values.
        y : array-like of shape (n_samples,)
            Finite numbers.
        sample_weight : array-like of shape (n_samples,), default=None
            Frequency weights; rows of zero weight are ignored.

        Returns
        -------
        self : object
            The fitted tree.
        """
        columns, y, sample_weight = self._fit_input(X, y, sample_weight)
        n_samples = len(columns[0])
        # a constant target is a one-leaf tree, not an error
        y = check_continuous_y(y, sample_weight, min_values=1)
        self.categorical_features_ = self._categorical_mask(columns)
        weights = np.ones(n_samples) if sample_weight is None else sample_weight
        keep = weights > 0
        if not keep.all():
            columns = [c[keep] for c in columns]
            y, weights = y[keep], weights[keep]
        codes, numeric = self._encode(columns, fit=True)
        self._grow(
            codes, numeric, y, weights, n_classes=0, target_type=CONTINUOUS,
            categorical_split=_own_copy(self.categorical_split, "categorical_split"),
            numeric_split=self.numeric_split, split_score=self.split_score,
            node_features=None, alpha_split=None,
            min_second_value_count=self.min_second_value_count, max_bins=None,
            collapse=False,
        )  # fmt: skip
        return self

    def predict(self, X):
        """Mean target of the node where each sample ends.

        Parameters
        ----------
        X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
            The columns seen in fit, of the same kinds.

        Returns
        -------
        y : ndarray of float64 of shape (n_samples,)
            The weighted mean of the training targets of that node.
        """
        nodes = self.apply(X)
        return node_means(self.tree_)[nodes]

    def plot_tree(
        self,
        ax=None,
        *,
        max_depth=None,
        feature_names=None,
        max_members=4,
        precision=2,
        filled=True,
        fontsize=None,
    ):
        """Draw the tree: a box per node, each edge labelled with its part.

        A node's box shows the column it splits, its samples (the weight, when
        fitted with non-integer weights), its squared error (weighted variance)
        and its mean; edges read as in
        :meth:`PartitionTreeClassifier.plot_tree`. Needs matplotlib.

        Parameters
        ----------
        ax : matplotlib.axes.Axes or None, default=None
            Where to draw; None draws on a new pyplot figure sized for the tree.
        max_depth : int or None, default=None
            Deepest level drawn; None draws the whole tree.
        feature_names : array-like of str, default=None
            Names of the features; ``feature_names_in_`` or ``x0, x1, ...`` if
            None.
        max_members : int, default=4
            Categories an edge label lists before ``... +N more``.
        precision : int, default=2
            Decimals of thresholds, means and non-integer weights.
        filled : bool, default=True
            Colour each box by its mean, from pale (the smallest mean) to dark
            (the largest).
        fontsize : float or None, default=None
            Size of the text; None takes the largest (at most 10) at which boxes
            and labels do not overlap.

        Returns
        -------
        ax : matplotlib.axes.Axes
            The axes drawn on (``ax.figure`` is the figure).
        """
        from partikit.tree._plot import plot_tree

        return plot_tree(
            self,
            ax=ax,
            max_depth=max_depth,
            feature_names=feature_names,
            max_members=max_members,
            precision=precision,
            filled=filled,
            fontsize=fontsize,
        )
