# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""PartitionTreeClassifier: kernels against their twins, splits against brute
force, the thesis's rules, and the input contract."""

import itertools
import pickle

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import clone
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.utils._param_validation import InvalidParameterError

from partikit._kernels._bipartition import node_impurity
from partikit._kernels._codes import IMPURITY_CODES
from partikit._kernels._multisplit import value_table
from partikit._kernels._tree import CHILDREN, RAW, THRESHOLD, node_thresholds
from partikit._statistics._contingency import midpoints
from partikit._statistics._measures import chi2_test
from partikit.datasets import make_grouped_categorical, make_k_of_n
from partikit.discretizers import (
    BlockOptDiscretizer,
    KhiopsDiscretizer,
    MDLPDiscretizer,
    mdlp_discretization,
)
from partikit.groupers import (
    BIPARTITIONS,
    AttributeAggregator,
    CHAIDGrouper,
    KhiopsGrouper,
    MaxCutGrouper,
    chaid_grouping,
    khiops_grouping,
)
from partikit.groupers import _bipartition as bipartition
from partikit.tree import SPLITTERS, PartitionTreeClassifier, export_text
from partikit.tree._builder import TreeData, _Grower, _node_basis
from partikit.tree._structure import CATEGORICAL, LEAF, NUMERIC, PROJECTION
from tests.naive import (
    naive_best_threshold,
    naive_node_tables,
    naive_paths,
    naive_split_impurity,
    naive_threshold_children,
)


def _mixed_frame(n=300, seed=0, nan=True):
    """Categorical + numeric columns where both kinds carry signal."""
    rng = np.random.default_rng(seed)
    color = rng.choice(list("abcdefgh"), n)
    size = rng.normal(size=n)
    y = np.where(np.isin(color, list("abc")) ^ (size > 0.3), "yes", "no")
    X = pd.DataFrame({"color": color, "size": size, "noise": rng.integers(0, 3, n)})
    X["noise"] = X["noise"].astype(str)
    if nan:
        X.loc[rng.choice(n, 20, replace=False), "color"] = np.nan
        X.loc[rng.choice(n, 20, replace=False), "size"] = np.nan
    return X, y


# ---------------------------------------------------------------------- kernels
@pytest.mark.parametrize("seed", range(5))
def test_node_tables_match_naive(seed):
    """Check the node tables (present categories only) against a naive table per
    column, whether the node has fewer rows than categories or more."""
    rng = np.random.default_rng(seed)
    n_categories = rng.integers(1, 60, size=4)
    codes = np.column_stack([rng.integers(0, k, 50) for k in n_categories])
    codes = codes.astype(np.int32)
    y = rng.integers(0, 3, 50).astype(np.intp)
    weights = rng.uniform(0.5, 2.0, 50)
    rows = np.sort(rng.choice(50, 30, replace=False)).astype(np.intp)
    data = TreeData(codes, n_categories, np.zeros((50, 0)), y, weights, 3)
    grower = _Grower.__new__(_Grower)
    grower.data = data
    for column in (3, 0, 2, 1):
        categories, table = grower._node_table(rows, column)
        naive = naive_node_tables(codes, rows, y, weights, [column], n_categories, 3)
        assert_array_equal(categories, np.flatnonzero(naive.sum(axis=1) > 0))
        assert_array_equal(table, naive[categories])


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"categorical_split": "khiops", "numeric_split": "block_opt"},
        {"numeric_split": "maxcut", "node_features": "node_means_pca"},
    ],
)
@pytest.mark.parametrize("stop", [False, True])
def test_traverse_kernel_matches_naive(params, stop):
    """Check the compiled traversal against a row-by-row Python walk, with unseen
    categories and missing values in the rows."""
    X, y = _mixed_frame(nan=params.get("node_features") is None)
    tree = PartitionTreeClassifier(max_depth=6, **params).fit(X, y)
    X_new, _ = _mixed_frame(n=100, seed=1, nan=params.get("node_features") is None)
    X_new.loc[:5, "color"] = "unseen"
    codes, numeric = tree._encode(
        [X_new[c] for c in X_new], fit=False
    )  # the rows as the kernel receives them
    fast = tree.tree_.paths(codes, numeric, stop_on_unknown=stop)
    naive = naive_paths(tree.tree_, codes, numeric, stop)
    for row, path in zip(fast, naive, strict=True):
        assert row[row >= 0].tolist() == path


# ------------------------------------------------------------------ brute force
def _brute_force_root(X_codes, y, impurity="gini"):
    """Least-impurity binary split over every bipartition of every column."""
    best = (np.inf, None, None)
    classes = np.unique(y)
    for j in range(X_codes.shape[1]):
        values = np.unique(X_codes[:, j])
        table = np.array([[np.sum((X_codes[:, j] == v) & (y == c)) for c in classes]
                          for v in values], dtype=float)  # fmt: skip
        for size in range(1, len(values)):
            for left in itertools.combinations(range(len(values)), size):
                value = naive_split_impurity(table, left, impurity)
                if value < best[0] - 1e-12:
                    best = (value, j, {values[i] for i in left})
    return best


@pytest.mark.parametrize("seed", range(20))
def test_exhaustive_root_split_equals_brute_force(seed):
    """Check that with the exhaustive splitter and the Gini split score the root
    split is the least-impurity bipartition over all columns."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, rng.integers(2, 6), size=(40, 3)).astype(str)
    y = rng.integers(0, 3, 40)
    if len(np.unique(y)) < 2 or all(len(np.unique(c)) < 2 for c in X.T):
        pytest.skip("degenerate draw")
    tree = PartitionTreeClassifier(
        categorical_split="exhaustive", max_depth=1, collapse_same_prediction=False
    )
    tree.fit(X, y)
    value, j, left = _brute_force_root(X, y)
    root = tree.tree_
    assert root.kind[0] == CATEGORICAL
    kids = root.node_children(0)
    weight = root.value.sum(axis=1)
    impurity = np.sum(weight[kids] * root.impurity[kids]) / weight[0]
    assert impurity == pytest.approx(value, abs=1e-12)


@pytest.mark.parametrize("seed", range(20))
def test_numeric_threshold_equals_brute_force(seed):
    """Check the Gini threshold (with min_samples_leaf) against every threshold."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 12, 60).astype(float)
    y = rng.integers(0, 3, 60)
    min_leaf = int(rng.integers(1, 10))
    tree = PartitionTreeClassifier(
        max_depth=1, min_samples_leaf=min_leaf, collapse_same_prediction=False
    )
    tree.fit(x[:, None], y)
    values = np.unique(x)
    best, best_t = np.inf, None
    for t in (values[:-1] + values[1:]) / 2:
        left = x <= t
        if left.sum() < min_leaf or (~left).sum() < min_leaf:
            continue
        table = np.array([[np.sum((left == s) & (y == c)) for c in range(3)]
                          for s in (True, False)], dtype=float)  # fmt: skip
        value = naive_split_impurity(table, (0,), "gini")
        if value < best - 1e-12:
            best, best_t = value, t
    if best_t is None or len(np.unique(y)) < 2:
        assert tree.tree_.kind[0] == LEAF
    else:
        assert tree.tree_.kind[0] == NUMERIC
        assert tree.tree_.thresholds[0] == best_t


def _threshold_rows(rng, weighted):
    n = int(rng.integers(1, 80))
    x = rng.integers(0, int(rng.integers(1, 15)), n).astype(float)
    y = rng.integers(0, int(rng.integers(1, 5)), n).astype(np.intp)
    w = rng.random(n) * 3 + 0.1 if weighted else np.ones(n)
    return x, np.argsort(x, kind="stable"), y, w, int(y.max()) + 1


def _streamed_threshold(x, order, y, w, n_classes, code, min_leaf):
    """The tree's streamed search on one column: (threshold, criterion value,
    children)."""
    out = np.empty((1, CHILDREN + 2 * n_classes))
    node_thresholds(
        x[None, :], np.ones(1, dtype=bool), np.vstack([np.arange(len(x)), order]),
        0, len(x), y, w, code, code, min_leaf, -1, 0.0,
        bool(np.all(w == np.round(w))), -1, out, np.empty((7, n_classes)),
        np.empty(n_classes, dtype=np.intp),
    )  # fmt: skip
    return out[0, THRESHOLD], out[0, RAW], out[0, CHILDREN:].reshape(2, n_classes)


@pytest.mark.parametrize("impurity", ["gini", "entropy"])
@pytest.mark.parametrize("seed", range(10))
def test_streamed_threshold_kernel_matches_naive(impurity, seed):
    """The streamed threshold reaches the least impurity of every threshold, and its
    children tables are the rows on each side."""
    rng = np.random.default_rng(seed)
    for weighted in (False, True):
        x, order, y, w, n_classes = _threshold_rows(rng, weighted)
        min_leaf = float(rng.integers(0, 6))
        code = IMPURITY_CODES[impurity]
        threshold, raw, children = _streamed_threshold(
            x, order, y, w, n_classes, code, min_leaf
        )
        naive_cut, naive_value = naive_best_threshold(
            x, y, w, n_classes, impurity, min_leaf
        )
        assert np.isnan(threshold) == (naive_cut < 0)
        if naive_cut < 0:
            continue
        total = np.bincount(y, weights=w, minlength=n_classes)
        assert_allclose(children.sum(axis=0), total)
        value = node_impurity(total, code) - raw
        assert value == pytest.approx(naive_value, rel=1e-12, abs=1e-12)
        values = np.unique(x)
        assert values[naive_cut - 1] < threshold < values[naive_cut]
        assert_allclose(
            children, naive_threshold_children(x, y, w, n_classes, threshold)
        )


@pytest.mark.parametrize("impurity", ["gini", "entropy"])
def test_streamed_threshold_is_the_value_table_splitter_bit_for_bit(impurity):
    """Results unchanged: the tree's streamed search gives the threshold, criterion
    value and children of the value-table splitter it replaces, to the last bit."""
    splitter = SPLITTERS["numeric"][impurity]
    rng = np.random.default_rng(11)
    for _ in range(40):
        x, order, y, w, n_classes = _threshold_rows(rng, weighted=True)
        min_leaf = float(rng.integers(0, 4))
        values, table = value_table(x, order, y, w, n_classes)
        expected = splitter(values, table, impurity, min_leaf, 2)
        code = IMPURITY_CODES[impurity]
        threshold, raw, children = _streamed_threshold(
            x, order, y, w, n_classes, code, min_leaf
        )
        if len(expected.thresholds) == 0:
            assert np.isnan(threshold)
            continue
        assert threshold == expected.thresholds[0]
        assert raw == expected.criterion
        gathered = np.zeros((2, n_classes))  # the value-table route's sums
        np.add.at(gathered, (values > threshold).astype(np.intp), table)
        assert_array_equal(children, gathered)


def test_pooled_splits_are_recorded_in_the_tree(monkeypatch):
    """A node with more categories than SLIQ-ext searches exactly is split on pooled
    categories and tree_.pooled says so; below the limit nothing is pooled."""
    X, y, _ = make_grouped_categorical(
        n_samples=600, n_categories=40, n_groups=3, random_state=0
    )
    tree = PartitionTreeClassifier(categorical_split="sliq_ext", max_depth=2)
    exact = tree.fit(X, y).tree_
    assert not exact.pooled.any()
    monkeypatch.setattr(bipartition, "MIN_POOLING_ROWS", 4)
    monkeypatch.setattr(bipartition, "MAX_SLIQ_WORK", 16)
    pooled = clone(tree).fit(X, y).tree_
    assert pooled.pooled[0]
    assert not pooled.pooled[pooled.kind == LEAF].any()
    assert pickle.loads(pickle.dumps(pooled)).pooled.tolist() == pooled.pooled.tolist()


def test_raw_split_score_picks_the_largest_cut_weight():
    """Check that split_score="raw" chooses the column of largest max-cut weight at
    the root, and that the split is the max-cut grouper's core's split."""
    X, y = make_k_of_n(n_samples=600, random_state=0)
    X = X.iloc[:, :6]
    tree = PartitionTreeClassifier(split_score="raw", max_depth=1).fit(X, y)
    cuts = []
    for column in X:
        table = pd.crosstab(X[column], y).to_numpy(dtype=float)
        cuts.append(BIPARTITIONS["maxcut_chi2"](table).criterion)
    assert tree.tree_.feature[0] == int(np.argmax(cuts))
    assert tree.tree_.split_score[0] == pytest.approx(max(cuts))


@pytest.mark.parametrize("name", sorted(SPLITTERS["categorical"]))
def test_every_categorical_splitter_grows_a_tree(name):
    """Check that every registered categorical method fits and predicts."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.choice(list("pqrstu"), 200)})
    y = np.where(np.isin(X["a"], list("pqr")), 1, 0)
    y[rng.choice(200, 10)] ^= 1
    tree = PartitionTreeClassifier(categorical_split=name).fit(X, y)
    assert tree.score(X, y) >= 0.9


def test_flip_flop_tree_splits_the_root_as_the_core():
    """Check that categorical_split="flip_flop" on a 4-class target splits the
    root with the impurity decrease of BIPARTITIONS["flip_flop"] on its table,
    and predicts better than chance."""
    X, y, _ = make_grouped_categorical(
        n_samples=2000, n_categories=30, n_classes=4, n_groups=4, random_state=0
    )
    tree = PartitionTreeClassifier(categorical_split="flip_flop", max_depth=3)
    tree.fit(X, y)
    table = pd.crosstab(X["category"], y).to_numpy(dtype=float)
    root = BIPARTITIONS["flip_flop"](table)
    assert root.n_groups == 2 and tree.tree_.n_children[0] == 2
    assert tree.predict(X).shape == y.shape
    assert tree.score(X, y) > 1 / 4
    assert tree.tree_.split_score[0] == pytest.approx(root.criterion)


def test_multiway_splits_have_several_children():
    """Check that khiops, chaid and block_opt make one child per group/interval."""
    rng = np.random.default_rng(0)
    letters = rng.choice(list("abcdef"), 3000)
    x = rng.uniform(0, 3, 3000)
    y = np.select(
        [np.isin(letters, ["a", "b"]), np.isin(letters, ["c", "d"])], [0, 1], 2
    )
    for name in ("khiops", "chaid"):
        tree = PartitionTreeClassifier(categorical_split=name, max_depth=1)
        tree.fit(pd.DataFrame({"letter": letters}), y)
        assert tree.tree_.n_children[0] == 3
    tree = PartitionTreeClassifier(numeric_split="block_opt", max_depth=1)
    tree.fit(x[:, None], np.floor(x).astype(int))
    assert tree.tree_.n_children[0] == 3
    assert_allclose(tree.tree_.thresholds, [1.0, 2.0], atol=0.01)


# ------------------------------------------------------- configured estimators
def _grouped_frame():
    """One categorical column whose groupings depend on the methods' settings."""
    X, y, _ = make_grouped_categorical(
        n_samples=600, n_categories=12, n_classes=3, n_groups=4, signal=0.3,
        random_state=0,
    )  # fmt: skip
    table = pd.crosstab(X.iloc[:, 0], y).to_numpy(dtype=float)  # categories_ order
    return X, y, table


def _root_children(tree):
    """Child slot of each category at the root."""
    start = tree.tree_.map_start[0]
    return tree.tree_.category_child[start : start + len(tree.categories_[0])]


@pytest.mark.parametrize(
    "grouper, core, params",
    [
        (KhiopsGrouper(alpha=0.5), khiops_grouping, {"alpha": 0.5}),
        (KhiopsGrouper(alpha=1e-6), khiops_grouping, {"alpha": 1e-6}),
        (CHAIDGrouper(alpha_merge=0.001), chaid_grouping, {"alpha_merge": 0.001}),
        (CHAIDGrouper(alpha_merge=0.5), chaid_grouping, {"alpha_merge": 0.5}),
    ],
)
def test_grouper_instance_splits_the_root_as_its_core(grouper, core, params):
    """Check that a configured grouper splits the root as its core called with
    its parameters on the root's table, one child per group, its criterion as
    the raw score, and that the parameters change the split."""
    X, y, table = _grouped_frame()
    tree = PartitionTreeClassifier(
        categorical_split=grouper, split_score="raw", max_depth=1
    ).fit(X, y)
    result = core(table, **params)
    default = core(table)
    assert result.n_groups != default.n_groups  # the parameter matters here
    assert tree.tree_.n_children[0] == result.n_groups
    assert_array_equal(_root_children(tree), result.group_ids)
    assert tree.tree_.split_score[0] == pytest.approx(result.criterion)


@pytest.mark.parametrize("weights", ["chi2", "squared_gini"])
def test_max_cut_grouper_instance_equals_the_shorthand(weights):
    """Check that MaxCutGrouper(weights=w, order="table") grows the tree of
    "maxcut_<w>" (the shorthand visits the categories in table order)."""
    X, y = make_k_of_n(n_samples=600, random_state=0)
    short = PartitionTreeClassifier(
        categorical_split=f"maxcut_{weights}", split_score="raw"
    ).fit(X, y)
    grouper = MaxCutGrouper(weights=weights, order="table")
    instance = PartitionTreeClassifier(
        categorical_split=grouper, split_score="raw"
    ).fit(X, y)
    for name in ("feature", "n_children", "category_child", "value"):
        assert_array_equal(getattr(instance.tree_, name), getattr(short.tree_, name))
    assert_allclose(instance.tree_.split_score, short.tree_.split_score)


def test_mdlp_instance_cuts_the_root_as_its_core():
    """Check that MDLPDiscretizer() splits the root at the midpoints of
    mdlp_discretization's cuts of the root's value table, with the Gini decrease
    of those cuts as the raw score."""
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 4, 800)
    y = (np.floor(x).astype(int) + (rng.random(800) < 0.2)) % 3
    tree = PartitionTreeClassifier(
        numeric_split=MDLPDiscretizer(), split_score="raw", max_depth=1
    ).fit(x[:, None], y)
    values = np.unique(x)
    table = pd.crosstab(x, y).to_numpy(dtype=float)
    cuts = mdlp_discretization(table).cuts
    assert len(cuts) >= 2
    assert tree.tree_.n_children[0] == len(cuts) + 1
    assert_array_equal(tree.tree_.thresholds, midpoints(values, cuts))
    children = np.add.reduceat(table, np.concatenate([[0], cuts]), axis=0)

    def gini(counts):
        return 1 - np.sum((counts / counts.sum()) ** 2)

    sizes = children.sum(axis=1)
    decrease = gini(table.sum(axis=0)) - sum(
        size / sizes.sum() * gini(row)
        for size, row in zip(sizes, children, strict=True)
    )
    assert tree.tree_.split_score[0] == pytest.approx(decrease)


@pytest.mark.parametrize("split_score", ["gini", "entropy", "raw"])
def test_block_opt_instance_equals_the_shorthand(split_score):
    """Check that BlockOptDiscretizer on the nodes' impurity grows the tree of
    "block_opt", and that the tree's max_bins applies to the shorthand only."""
    rng = np.random.default_rng(1)
    x = rng.uniform(0, 6, 800)[:, None]
    y = (np.floor(x[:, 0]).astype(int) + (rng.random(800) < 0.2)) % 3
    impurity = "entropy" if split_score == "entropy" else "gini"
    short = PartitionTreeClassifier(numeric_split="block_opt", split_score=split_score)
    instance = PartitionTreeClassifier(
        numeric_split=BlockOptDiscretizer(criterion=impurity),
        split_score=split_score,
        max_bins=2,
    )
    short, instance = short.fit(x, y), instance.fit(x, y)
    assert short.tree_.n_children[0] > 2
    assert_array_equal(instance.tree_.thresholds, short.tree_.thresholds)
    assert_allclose(instance.tree_.split_score, short.tree_.split_score)


def test_discretizer_instance_split_below_min_samples_leaf_is_rejected():
    """Check that a discretizer's split leaving an interval lighter than
    min_samples_leaf is not made."""
    x = np.arange(40, dtype=float)[:, None]
    y = np.r_[np.zeros(3), np.ones(17), np.zeros(20)].astype(int)
    free = PartitionTreeClassifier(numeric_split=MDLPDiscretizer(), max_depth=1)
    assert free.fit(x, y).tree_.thresholds[0] == 2.5
    ruled = PartitionTreeClassifier(
        numeric_split=MDLPDiscretizer(), max_depth=1, min_samples_leaf=5
    ).fit(x, y)
    assert ruled.tree_.kind[0] == LEAF


def test_string_methods_limits_do_not_apply_to_a_grouper_instance():
    """Check that the limits of "twoing" (classes), "exhaustive" (categories)
    and "exact_two_class" (two classes) stop those strings at fit, and not a
    grouper instance on the same data."""
    X = pd.DataFrame({"c": [f"v{k}" for k in range(30)] * 21})
    y = np.repeat(np.arange(21), 30)
    for name, match in [
        ("twoing", "20 classes"),
        ("exhaustive", "20 categories"),
        ("exact_two_class", "two-class"),
    ]:
        with pytest.raises(ValueError, match=match):
            PartitionTreeClassifier(categorical_split=name).fit(X, y)
    tree = PartitionTreeClassifier(categorical_split=MaxCutGrouper()).fit(X, y)
    assert tree.n_classes_ == 21


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"categorical_split": AttributeAggregator()}, "categorical_split"),
        ({"categorical_split": OneHotEncoder()}, "categorical_split"),
        ({"categorical_split": MDLPDiscretizer()}, "categorical_split"),
        ({"numeric_split": KhiopsGrouper()}, "numeric_split"),
        ({"numeric_split": StandardScaler()}, "numeric_split"),
        ({"categorical_features": "auto"}, "categorical_features"),
    ],
)
def test_estimator_without_the_core_method_is_rejected(kwargs, match):
    """Check that an estimator without group_table (cut_table) is refused by
    the parameter validation, which names the parameter and the method."""
    X, y = _mixed_frame()
    with pytest.raises(InvalidParameterError, match=match):
        PartitionTreeClassifier(**kwargs).fit(X, y)
    if "split" in match:
        method = "group_table" if match.startswith("categorical") else "cut_table"
        with pytest.raises(InvalidParameterError, match=method):
            PartitionTreeClassifier(**kwargs).fit(X, y)


def test_estimator_class_instead_of_instance_raises():
    """Check that an estimator class (it has the method too) is refused with a
    message asking for an instance."""
    X, y = _mixed_frame()
    with pytest.raises(TypeError, match=r"KhiopsGrouper\(\)"):
        PartitionTreeClassifier(categorical_split=KhiopsGrouper).fit(X, y)
    with pytest.raises(TypeError, match=r"MDLPDiscretizer\(\)"):
        PartitionTreeClassifier(numeric_split=MDLPDiscretizer).fit(X, y)


def test_old_parameter_names_are_gone():
    """Check that the renamed parameters have no alias."""
    for old in ("criterion", "handle_unknown"):
        with pytest.raises(TypeError, match=old):
            PartitionTreeClassifier(**{old: "gini"})


def test_instances_are_not_changed_and_clone_get_params_pickle_work():
    """Check that fit leaves the instances as given (unfitted, same pickle),
    that get_params exposes their parameters, that clone copies them, and that
    a fitted tree with instances pickles."""
    X, y = _mixed_frame()
    grouper = KhiopsGrouper(alpha=0.01)
    discretizer = KhiopsDiscretizer(alpha=0.01)
    before = pickle.dumps((grouper, discretizer))
    tree = PartitionTreeClassifier(
        categorical_split=grouper, numeric_split=discretizer, max_depth=4
    ).fit(X, y)
    assert pickle.dumps((grouper, discretizer)) == before
    assert not hasattr(grouper, "n_features_in_")
    assert not hasattr(discretizer, "n_features_in_")
    assert tree.categorical_split is grouper and tree.numeric_split is discretizer

    params = tree.get_params(deep=True)
    assert params["categorical_split__alpha"] == 0.01
    assert params["numeric_split__alpha"] == 0.01
    copy = clone(tree)
    assert copy.categorical_split is not grouper
    assert copy.categorical_split.get_params() == grouper.get_params()
    assert_array_equal(copy.fit(X, y).predict(X), tree.predict(X))
    copy.set_params(categorical_split__alpha=0.5)
    assert grouper.alpha == 0.01

    again = pickle.loads(pickle.dumps(tree))
    assert_array_equal(again.predict(X), tree.predict(X))
    assert_allclose(again.predict_proba(X), tree.predict_proba(X))


# ------------------------------------------------------------------ thesis rules
def test_chi2_prefilter_skips_an_uninformative_column_at_the_node():
    """Check that with alpha_split a column is used only at nodes where its chi2
    test against the class has a p-value of at most alpha, while without it a
    many-valued noise column wins the root."""
    rng = np.random.default_rng(1)
    n = 400
    signal = rng.choice(["u", "v"], n)
    y = np.where(signal == "u", 1, 0)
    y[rng.random(n) < 0.42] ^= 1
    noise = rng.choice([f"n{k}" for k in range(40)], n)
    X = pd.DataFrame({"signal": signal, "noise": noise})
    free = PartitionTreeClassifier(max_depth=1, collapse_same_prediction=False)
    assert free.fit(X, y).tree_.feature[0] == 1
    filtered = PartitionTreeClassifier(alpha_split=0.10).fit(X, y)
    tree = filtered.tree_
    assert tree.feature[0] == 0
    reached = filtered.decision_path(X).toarray().astype(bool)
    for node in np.flatnonzero(tree.kind == CATEGORICAL):
        column = X.columns[tree.feature[node]]
        rows = reached[:, node]
        table = pd.crosstab(X[column][rows], y[rows]).to_numpy(dtype=float)
        assert chi2_test(table)[2] <= np.log10(0.10)


def test_second_value_rule_drops_the_column_for_the_subtree():
    """Check the rule of 15: a column whose second value has fewer samples is not
    split on, and a column dropped at a node is not used below it."""
    rng = np.random.default_rng(0)
    n = 500
    rare = np.where(np.arange(n) < 10, "rare", "common")
    y = np.where(rare == "rare", 1, rng.integers(0, 2, n))
    other = rng.choice(list("abc"), n)
    X = pd.DataFrame({"rare": rare, "other": other})
    free = PartitionTreeClassifier(max_depth=1, collapse_same_prediction=False)
    assert free.fit(X, y).tree_.feature[0] == 0
    ruled = PartitionTreeClassifier(min_second_value_count=15).fit(X, y)
    assert 0 not in ruled.tree_.feature[ruled.tree_.kind == CATEGORICAL]


def test_collapse_keeps_predictions_and_removes_nodes():
    """Check that collapsing same-prediction subtrees changes no prediction."""
    X, y = _mixed_frame(n=600)
    full = PartitionTreeClassifier(collapse_same_prediction=False).fit(X, y)
    collapsed = PartitionTreeClassifier().fit(X, y)
    assert collapsed.tree_.n_nodes == full.tree_.n_nodes - collapsed.n_nodes_collapsed_
    assert collapsed.n_nodes_collapsed_ > 0
    assert_array_equal(collapsed.predict(X), full.predict(X))
    for node in np.flatnonzero(collapsed.tree_.kind != LEAF):
        kids = collapsed.tree_.node_children(node)
        if np.all(collapsed.tree_.kind[kids] == LEAF):
            predictions = np.argmax(collapsed.tree_.value[kids], axis=1)
            assert len(set(predictions)) > 1


def test_unseen_category_goes_to_largest_child_or_stops():
    """Check both unknown_routing rules on a category never seen in fit."""
    X = pd.DataFrame({"c": list("aaaabbbbbbbcc")})
    y = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0]
    tree = PartitionTreeClassifier().fit(X, y)
    largest = tree.tree_.node_children(0)[tree.tree_.default_child[0]]
    assert tree.apply(pd.DataFrame({"c": ["zzz"]}))[0] == largest
    assert tree.predict(pd.DataFrame({"c": ["zzz"]}))[0] == 1
    stop = PartitionTreeClassifier(unknown_routing="stop").fit(X, y)
    assert stop.apply(pd.DataFrame({"c": ["zzz"]}))[0] == 0
    proba = stop.predict_proba(pd.DataFrame({"c": ["zzz"]}))
    assert_allclose(proba, [[6 / 13, 7 / 13]])


def test_category_absent_at_a_node_follows_the_rule():
    """Check a category seen in fit but absent from a deeper node's rows."""
    X = pd.DataFrame({"a": list("xxxxxxyyyyyy"), "b": list("pqpqpqprprpr")})
    y = [0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1]
    tree = PartitionTreeClassifier(unknown_routing="stop").fit(X, y)
    node = tree.apply(pd.DataFrame({"a": ["x"], "b": ["r"]}))[0]
    # the root splits on a; "r" never reached the x-branch, which splits on b
    assert tree.tree_.parent[node] == 0
    assert tree.tree_.kind[node] == CATEGORICAL and tree.tree_.feature[node] == 1
    largest = PartitionTreeClassifier().fit(X, y)
    leaf = largest.apply(pd.DataFrame({"a": ["x"], "b": ["r"]}))[0]
    assert largest.tree_.kind[leaf] == LEAF


def test_numeric_nan_direction_is_learned():
    """Check that missing numeric values go where they lower the impurity."""
    x = np.array([1.0, 2, 3, 4, 5, 6, np.nan, np.nan, np.nan])
    y = np.array([0, 0, 0, 1, 1, 1, 1, 1, 1])
    tree = PartitionTreeClassifier().fit(x[:, None], y)
    assert tree.tree_.nan_child[0] == 1
    assert tree.predict([[np.nan]])[0] == 1
    no_nan = PartitionTreeClassifier().fit(x[:6, None], y[:6])
    assert no_nan.tree_.nan_child[0] == -1
    stop = PartitionTreeClassifier(unknown_routing="stop").fit(x[:6, None], y[:6])
    assert stop.apply([[np.nan]])[0] == 0


# ---------------------------------------------------------------- node features
def test_node_means_pca_basis_of_the_paper_example():
    """Check Bodine's example: points (1,0,0), (0,1,0), (0,0,1) of classes A, B, C
    give the rest means (0,.5,.5), (.5,0,.5), (.5,.5,0), whose PCA spans the plane
    orthogonal to (1,1,1)."""
    points = np.eye(3)
    basis = _node_basis(points, np.arange(3), np.ones(3), 3, "node_means_pca")
    assert basis.shape == (2, 3)
    assert_allclose(basis @ np.ones(3), 0, atol=1e-12)
    assert_allclose(basis @ basis.T, np.eye(2), atol=1e-12)


def test_projection_rule_is_applied_at_predict():
    """Check that a projection node routes rows by x @ v against its threshold."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 2))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    tree = PartitionTreeClassifier(
        numeric_split="maxcut", node_features="node_means_pca", split_score="raw",
        max_depth=1,
    ).fit(X, y)  # fmt: skip
    assert tree.tree_.kind[0] == PROJECTION
    direction = tree.tree_.projections[:2]
    assert abs(direction @ [1, 1]) / np.sqrt(2) == pytest.approx(1, abs=0.05)
    left = X @ direction <= tree.tree_.thresholds[0]
    assert_array_equal(tree.apply(X) == tree.tree_.node_children(0)[0], left)
    with pytest.raises(ValueError, match="NaN"):
        tree.predict([[np.nan, 0.0]])


# -------------------------------------------------------------------- contract
def test_mixed_pandas_with_missing_values_in_both_kinds():
    """Check a DataFrame with NaN in a categorical and a numeric column."""
    X, y = _mixed_frame()
    tree = PartitionTreeClassifier().fit(X, y)
    assert_array_equal(tree.categorical_features_, [True, False, True])
    assert pd.isna(tree.categories_[0][-1])
    assert tree.categories_[1] is None
    assert tree.score(X, y) > 0.9
    proba = tree.predict_proba(X)
    assert_allclose(proba.sum(axis=1), 1)
    assert tree.feature_importances_.sum() == pytest.approx(1)


def test_single_valued_categorical_column_is_never_split():
    """Check that a categorical column with one value is ignored, not an error."""
    X, y = _mixed_frame(nan=False)
    X["constant"] = "same"
    tree = PartitionTreeClassifier().fit(X, y)
    assert 3 not in tree.tree_.feature[tree.tree_.kind == CATEGORICAL]
    assert tree.feature_importances_[3] == 0


def test_all_identical_rows_give_one_leaf():
    """Check that identical X rows with mixed labels make a single leaf."""
    X = pd.DataFrame({"c": ["a"] * 10, "x": [1.0] * 10})
    y = [0, 1] * 5
    tree = PartitionTreeClassifier().fit(X, y)
    assert tree.get_n_leaves() == 1 and tree.get_depth() == 0
    assert_allclose(tree.predict_proba(X), 0.5)
    assert_allclose(tree.feature_importances_, 0)


def test_one_class_gives_one_leaf():
    """Check that a single class in y is one leaf predicting it."""
    X, _ = _mixed_frame()
    tree = PartitionTreeClassifier().fit(X, ["only"] * len(X))
    assert tree.get_n_leaves() == 1
    assert (tree.predict(X) == "only").all()


def test_integer_weights_equal_repeated_rows_and_zero_weights_drop_rows():
    """Check that weights are frequencies."""
    X, y = _mixed_frame(n=120)
    rng = np.random.default_rng(0)
    weights = rng.integers(0, 3, len(X))
    weighted = PartitionTreeClassifier().fit(X, y, sample_weight=weights)
    repeat = np.repeat(np.arange(len(X)), weights)
    repeated = PartitionTreeClassifier().fit(X.iloc[repeat], y[repeat])
    assert_array_equal(weighted.predict(X), repeated.predict(X))
    assert_allclose(weighted.tree_.value, repeated.tree_.value)


def test_row_order_does_not_matter():
    """Check that permuting the training rows gives the same tree."""
    X, y = _mixed_frame()
    order = np.random.default_rng(1).permutation(len(X))
    a = PartitionTreeClassifier().fit(X, y).tree_
    b = PartitionTreeClassifier().fit(X.iloc[order], y[order]).tree_
    assert_array_equal(a.feature, b.feature)
    assert_allclose(a.thresholds, b.thresholds)
    assert_allclose(a.value, b.value)


def test_pickle_and_polars():
    """Check a pickle round trip and polars input."""
    polars = pytest.importorskip("polars")
    X, y = _mixed_frame()
    tree = PartitionTreeClassifier().fit(X, y)
    again = pickle.loads(pickle.dumps(tree))
    assert_array_equal(again.predict(X), tree.predict(X))
    # built from lists: polars.from_pandas needs pyarrow for object columns
    frame = polars.DataFrame(
        {c: [None if v is np.nan else v for v in X[c].tolist()] for c in X}
    )
    from_polars = PartitionTreeClassifier().fit(frame, y)
    assert_array_equal(from_polars.categorical_features_, [True, False, True])
    assert_array_equal(from_polars.predict(frame), tree.predict(X))


@pytest.mark.parametrize(
    "spec",
    [
        ["color", "noise"],
        [0, 2],
        [0, "noise"],
        [True, False, True],
        np.array([True, False, True]),
        np.array([0, -1]),
    ],
)
def test_categorical_features_forms(spec):
    """Check names, indices and masks select the same columns."""
    X, y = _mixed_frame()
    tree = PartitionTreeClassifier(categorical_features=spec).fit(X, y)
    assert_array_equal(tree.categorical_features_, [True, False, True])


@pytest.mark.parametrize(
    "kwargs, X, y, match",
    [
        ({"categorical_features": ["nope"]}, None, None, "not a feature"),
        ({"categorical_features": [5]}, None, None, "out of range"),
        ({"categorical_features": [True]}, None, None, "boolean mask"),
        ({"categorical_features": None}, None, None, "non-numeric"),
        ({"categorical_split": "exact_two_class"}, None, [0, 1, 2] * 100, "two-class"),
        ({"categorical_split": "twoing"}, None, list(range(21)) * 20, "20 classes"),
    ],
)
def test_bad_input_raises_clear_errors(kwargs, X, y, match):
    """Check each misuse raises a ValueError naming the problem."""
    X_default, y_default = _mixed_frame()
    X = X_default if X is None else X
    y = y_default[: len(X)] if y is None else np.asarray(y)[: len(X)]
    with pytest.raises(ValueError, match=match):
        PartitionTreeClassifier(**kwargs).fit(X.iloc[: len(y)], y)


def test_infinity_and_type_changes_raise():
    """Check inf in a numeric column and a column changing kind at predict."""
    X, y = _mixed_frame(nan=False)
    tree = PartitionTreeClassifier().fit(X, y)
    bad = X.copy()
    bad.loc[0, "size"] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        tree.predict(bad)
    with pytest.raises(ValueError, match="infinity"):
        PartitionTreeClassifier().fit(bad, y)
    changed = X.copy()
    changed["color"] = np.arange(len(X))
    with pytest.raises(ValueError, match="string categories in fit"):
        tree.predict(changed)


def test_exhaustive_limit_is_checked_at_fit():
    """Check exhaustive refuses columns with too many categories, up front."""
    X = pd.DataFrame({"c": [f"v{k}" for k in range(30)] * 2})
    with pytest.raises(ValueError, match="limited to 20 categories"):
        PartitionTreeClassifier(categorical_split="exhaustive").fit(X, [0, 1] * 30)


def test_apply_decision_path_and_depth_agree():
    """Check apply is the last node of decision_path and paths follow parents."""
    X, y = _mixed_frame()
    tree = PartitionTreeClassifier(max_depth=4).fit(X, y)
    path = tree.decision_path(X).toarray().astype(bool)
    leaves = tree.apply(X)
    assert_array_equal(path[np.arange(len(X)), leaves], True)
    assert tree.get_depth() <= 4
    for row, leaf in zip(path, leaves, strict=True):
        nodes = np.flatnonzero(row)
        assert nodes[-1] == leaf
        assert_array_equal(tree.tree_.parent[nodes[1:]], nodes[:-1])
        assert tree.tree_.kind[leaf] == LEAF


def test_export_text_of_a_tiny_tree():
    """Check the text report of a tree with a categorical and a numeric split."""
    X = pd.DataFrame(
        {
            "color": ["red", "red", "blue", "blue", "green", "green", None, None],
            "size": [1.0, 2.0, 1.0, 2.0, 1.0, 3.0, 1.0, np.nan],
        }
    )
    y = ["s", "s", "s", "t", "t", "t", "s", "t"]
    tree = PartitionTreeClassifier(collapse_same_prediction=False).fit(X, y)
    expected = """\
|--- size <= 2.50
|   |--- color in {blue, green}
|   |   |--- color in {blue}
|   |   |   |--- size <= 1.50
|   |   |   |   |--- class: s
|   |   |   |--- size >  1.50
|   |   |   |   |--- class: t
|   |   |--- color in {green}
|   |   |   |--- class: t
|   |--- color in {red, missing}
|   |   |--- class: s
|--- size >  2.50 or missing
|   |--- class: t
"""
    assert export_text(tree) == expected
    assert "weights: [3.00, 0.00] class: s" in export_text(tree, show_weights=True)
    assert export_text(tree, max_depth=0).count("truncated branch") == 1
    with pytest.raises(ValueError, match="class_names has 1 names"):
        export_text(tree, class_names=["only one"])
