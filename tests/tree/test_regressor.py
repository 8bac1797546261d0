# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""PartitionTreeRegressor: against scikit-learn's regression tree on numeric
data, its categorical splits against brute force, weights, pruning, export."""

import io
import itertools
import pickle
from math import log10

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from sklearn.tree import DecisionTreeRegressor

from partikit.tree import PartitionTreeRegressor, export_text
from partikit.tree._builder import adjusted_f_score, binary_adjusted_scores
from partikit.tree._structure import node_means
from tests.naive import naive_squared_error


def _numeric(seed, n=400, n_features=4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, n_features))
    y = X[:, 0] ** 2 + np.sin(3 * X[:, 1]) + 0.3 * rng.normal(size=n)
    return X, y


def _mixed(seed, n=600):
    rng = np.random.default_rng(seed)
    cities = np.array(list("abcdefgh"))
    effect = dict(zip(cities, rng.normal(size=len(cities)) * 3, strict=True))
    city = rng.choice(cities, n)
    size = rng.normal(size=n)
    y = np.array([effect[c] for c in city]) + 2 * (size > 0) + 0.1 * rng.normal(size=n)
    return pd.DataFrame({"city": city, "size": size}), y


@pytest.mark.parametrize("max_depth", [1, 3, 6, None])
@pytest.mark.parametrize("seed", [0, 1])
def test_matches_scikit_learn_on_numeric_data(max_depth, seed):
    """Check the tree of numeric columns against scikit-learn's
    DecisionTreeRegressor at the same depth, up to ties.

    At the small nodes of a deep tree several columns separate the same rows
    (scikit-learn takes one of them at random): the same partition of the
    training rows, not of new ones. Shallow trees on continuous columns have no
    ties, so they predict the same everywhere.
    """
    X, y = _numeric(seed)
    ours = PartitionTreeRegressor(max_depth=max_depth).fit(X, y)
    theirs = DecisionTreeRegressor(max_depth=max_depth, random_state=0).fit(X, y)
    assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-10)
    if max_depth is not None and max_depth <= 3:
        X_test, _ = _numeric(seed + 100)
        assert_allclose(ours.predict(X_test), theirs.predict(X_test), rtol=1e-10)
    assert ours.tree_.n_nodes == theirs.tree_.node_count
    assert_allclose(
        np.sort(ours.tree_.impurity), np.sort(theirs.tree_.impurity), atol=1e-10
    )


@pytest.mark.parametrize(
    "params",
    [
        {"min_samples_leaf": 7},
        {"min_samples_split": 30},
        {"max_leaf_nodes": 9},
        {"min_impurity_decrease": 0.01},
    ],
)
def test_growth_options_match_scikit_learn(params):
    """Check min_samples_leaf, min_samples_split, max_leaf_nodes (best first)
    and min_impurity_decrease against scikit-learn's on numeric data."""
    X, y = _numeric(3)
    ours = PartitionTreeRegressor(**params).fit(X, y)
    theirs = DecisionTreeRegressor(random_state=0, **params).fit(X, y)
    assert ours.get_n_leaves() == theirs.get_n_leaves()
    assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-10)


def test_cost_complexity_pruning_path_matches_scikit_learn():
    """Check the pruning path and a pruned tree against scikit-learn's."""
    X, y = _numeric(4, n=200)
    ours = PartitionTreeRegressor().cost_complexity_pruning_path(X, y)
    theirs = DecisionTreeRegressor(random_state=0).cost_complexity_pruning_path(X, y)
    assert_allclose(ours.ccp_alphas, theirs.ccp_alphas, rtol=1e-7, atol=1e-12)
    assert_allclose(ours.impurities, theirs.impurities, rtol=1e-7, atol=1e-12)
    alpha = ours.ccp_alphas[-5]
    pruned = PartitionTreeRegressor(ccp_alpha=alpha).fit(X, y)
    reference = DecisionTreeRegressor(ccp_alpha=alpha, random_state=0).fit(X, y)
    assert pruned.get_n_leaves() == reference.get_n_leaves()
    assert_allclose(pruned.predict(X), reference.predict(X), rtol=1e-10)


def _brute_force_error(y, w, codes):
    """Least summed squared error over every binary partition of the
    categories present."""
    present = np.unique(codes)
    best = np.inf
    for size in range(1, len(present)):
        for left in itertools.combinations(present, size):
            side = np.isin(codes, left)
            error = naive_squared_error(y[side], w[side]) + naive_squared_error(
                y[~side], w[~side]
            )
            best = min(best, error)
    return best


@pytest.mark.parametrize("seed", range(6))
def test_categorical_split_is_the_best_bipartition(seed):
    """Check the root's split of one categorical column (sort by mean) against
    brute force over all its bipartitions."""
    rng = np.random.default_rng(seed)
    n_categories = int(rng.integers(2, 8))
    codes = rng.integers(0, n_categories, 80)
    y = rng.normal(size=n_categories)[codes] + rng.normal(size=80)
    w = rng.random(80) + 0.2
    X = pd.DataFrame({"c": pd.Categorical(codes.astype(str))})
    tree = PartitionTreeRegressor(max_depth=1).fit(X, y, sample_weight=w)
    if len(np.unique(codes)) < 2:
        assert tree.get_n_leaves() == 1
        return
    leaves = tree.apply(X)
    error = sum(
        naive_squared_error(y[leaves == leaf], w[leaves == leaf])
        for leaf in np.unique(leaves)
    )
    assert error == pytest.approx(_brute_force_error(y, w, codes), rel=1e-10)


def test_categorical_groups_are_found():
    """Check that the categorical column splits by its hidden effects and the
    numeric column by its step."""
    X, y = _mixed(0)
    tree = PartitionTreeRegressor(max_depth=6).fit(X, y)
    assert tree.score(X, y) > 0.99
    importances = tree.feature_importances_
    assert importances.sum() == pytest.approx(1.0)
    assert np.all(importances > 0)


def test_sample_weights_are_repeated_rows():
    """Check that integer sample weights give the tree of the repeated rows."""
    X, y = _mixed(1, n=200)
    w = np.random.default_rng(1).integers(0, 4, len(y))
    weighted = PartitionTreeRegressor(max_depth=5).fit(X, y, sample_weight=w)
    repeated = PartitionTreeRegressor(max_depth=5).fit(
        X.loc[X.index.repeat(w)], np.repeat(y, w)
    )
    assert_allclose(weighted.predict(X), repeated.predict(X), rtol=1e-10)
    assert_array_equal(weighted.tree_.kind, repeated.tree_.kind)
    assert_allclose(
        weighted.tree_.weighted_n_node_samples, repeated.tree_.weighted_n_node_samples
    )


def test_pickle_round_trip():
    """Check that a pickled tree predicts the same."""
    X, y = _mixed(2)
    tree = PartitionTreeRegressor(max_depth=4).fit(X, y)
    restored = pickle.loads(pickle.dumps(tree))
    assert_array_equal(restored.predict(X), tree.predict(X))
    assert_array_equal(restored.tree_.value, tree.tree_.value)


def test_apply_and_decision_path():
    """Check that every sample's path ends at its node, which predicts its
    mean."""
    X, y = _mixed(3)
    tree = PartitionTreeRegressor(max_depth=3).fit(X, y)
    nodes = tree.apply(X)
    paths = tree.decision_path(X).toarray()
    assert np.all(paths[np.arange(len(X)), nodes] == 1)
    assert np.all(paths[:, 0] == 1)
    assert_allclose(tree.predict(X), node_means(tree.tree_)[nodes])
    assert paths.sum(axis=1).max() == tree.get_depth() + 1


def test_unknown_and_missing_values():
    """Check that an unseen category and missing values are routed, and that
    ``unknown_routing="stop"`` predicts the stopping node's mean."""
    X, y = _mixed(4)
    X.loc[X.index[:20], "size"] = np.nan
    X.loc[X.index[20:40], "city"] = None
    new = pd.DataFrame({"city": ["zzz", None, "a"], "size": [0.5, np.nan, np.nan]})
    for routing in ("largest_child", "stop"):
        tree = PartitionTreeRegressor(max_depth=4, unknown_routing=routing).fit(X, y)
        assert np.all(np.isfinite(tree.predict(new)))
    stop = PartitionTreeRegressor(max_depth=4, unknown_routing="stop").fit(X, y)
    assert stop.apply(new.iloc[:1])[0] == 0  # the root splits on the city


def test_min_second_value_count_drops_the_column():
    """Check the pre-filter on the second most frequent category."""
    rng = np.random.default_rng(5)
    city = np.where(rng.random(300) < 0.99, "a", "b")
    city[:2] = "b"
    y = (city == "b") * 10.0 + rng.normal(size=300)
    X = pd.DataFrame({"city": city})
    assert PartitionTreeRegressor(max_depth=1).fit(X, y).get_n_leaves() == 2
    filtered = PartitionTreeRegressor(max_depth=1, min_second_value_count=50)
    assert filtered.fit(X, y).get_n_leaves() == 1


def test_max_features_is_reproducible():
    """Check that ``max_features`` with a seed gives the same tree twice, and a
    tree that may differ from the full search."""
    X, y = _numeric(6)
    a = PartitionTreeRegressor(max_features=1, random_state=0).fit(X, y)
    b = PartitionTreeRegressor(max_features=1, random_state=0).fit(X, y)
    assert_array_equal(a.predict(X), b.predict(X))


@pytest.mark.parametrize("value", [3.25, -0.1, 123456.789])
def test_constant_target_is_one_leaf(value):
    """Check that a constant target gives a single leaf predicting it, also
    when its variance from the moments rounds to more than 0."""
    X, _ = _mixed(7, n=50)
    tree = PartitionTreeRegressor().fit(X, np.full(50, value))
    assert tree.get_n_leaves() == 1
    assert_allclose(tree.predict(X), value)
    assert np.all(tree.feature_importances_ == 0)


@pytest.mark.parametrize(
    "y, message",
    [
        ([1.0, np.nan, 2.0, 3.0], "NaN|finite"),
        (["a", "b", "c", "d"], "numbers"),
    ],
)
def test_bad_targets_are_refused(y, message):
    """Check that a target of non-numbers or with NaN raises a clear error."""
    X = pd.DataFrame({"x": [0.0, 1.0, 2.0, 3.0]})
    with pytest.raises(ValueError, match=message):
        PartitionTreeRegressor().fit(X, y)


def test_export_text():
    """Check the rules and leaf means of export_text."""
    X = pd.DataFrame({"city": list("abcdabcdab"), "size": range(10)})
    y = [1.0, 5.0, 1.2, 5.1, 0.9, 4.8, 1.1, 5.2, 1.0, 5.0]
    tree = PartitionTreeRegressor(max_depth=1).fit(X, y)
    assert export_text(tree) == (
        "|--- city in {a, c}\n|   |--- value: 1.04\n"
        "|--- city in {b, d}\n|   |--- value: 5.02\n"
    )
    text = export_text(tree, show_weights=True, decimals=1)
    assert "|   |--- weight: 5.0 value: 1.0\n" in text
    with pytest.raises(ValueError, match="regressor"):
        export_text(tree, class_names=["a"])


def test_plot_tree_renders():
    """Check that plot_tree draws a non-blank PNG with the nodes' means."""
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    X, y = _mixed(8)
    tree = PartitionTreeRegressor(max_depth=2).fit(X, y)
    ax = tree.plot_tree()
    texts = [t.get_text() for t in ax.texts]
    assert any("squared_error" in t and "value = " in t for t in texts)
    buffer = io.BytesIO()
    ax.figure.savefig(buffer, format="png")
    plt.close(ax.figure)
    buffer.seek(0)
    image = plt.imread(buffer)
    assert image.std() > 0.01  # not blank
    assert np.mean(image[..., :3] < 0.5) > 0.001  # some dark text


def test_compiled_categorical_splits_match_the_splitter(monkeypatch):
    """Check that the one compiled call per node (node_mean_splits) grows the
    tree that the splitter (sort_by_mean on each column's node table) grows."""
    from partikit.tree import _builder

    X, y = _mixed(9)
    X["other"] = np.random.default_rng(9).choice(list("pqrstu"), len(y))
    compiled = PartitionTreeRegressor(max_depth=5, min_samples_leaf=3).fit(X, y)
    original = _builder._Grower.__init__

    def through_the_splitter(self, data, params):
        original(self, data, params)
        self.compiled_mean_split = False

    monkeypatch.setattr(_builder._Grower, "__init__", through_the_splitter)
    splitter = PartitionTreeRegressor(max_depth=5, min_samples_leaf=3).fit(X, y)
    assert_array_equal(compiled.tree_.feature, splitter.tree_.feature)
    assert_array_equal(compiled.tree_.category_child, splitter.tree_.category_child)
    assert_allclose(compiled.predict(X), splitter.predict(X), rtol=1e-12)


@pytest.mark.parametrize("method", ["chaid", "grouper"])
def test_chaid_splits_are_the_cores(method):
    """Check that ``categorical_split="chaid"`` (and a CHAIDGrouper) splits the
    root as chaid_grouping does on the root's moment table, one child per
    group."""
    from partikit.groupers import CHAIDGrouper, chaid_grouping

    rng = np.random.default_rng(10)
    levels = np.array([0.0, 0.0, 2.0, 2.0, 4.0, 4.0, 4.0, 0.0])
    codes = rng.integers(0, len(levels), 3000)
    y = levels[codes] + rng.normal(size=len(codes))
    X = pd.DataFrame({"c": pd.Categorical([f"k{c}" for c in codes])})
    split = "chaid" if method == "chaid" else CHAIDGrouper(alpha_merge=0.01)
    tree = PartitionTreeRegressor(categorical_split=split, max_depth=1).fit(X, y)
    table = np.column_stack(
        [np.bincount(codes, weights=w) for w in (np.ones_like(y), y, y * y)]
    )
    options = {} if method == "chaid" else {"alpha_merge": 0.01}
    expected = chaid_grouping(table, target_type="continuous", **options)
    assert expected.n_groups == 3
    assert tree.tree_.n_children[0] == expected.n_groups
    root = tree.tree_.category_child[: len(levels)]
    assert_array_equal(root, expected.group_ids)
    assert tree.score(X, y) > 0.7


def test_a_grouper_of_class_counts_is_refused():
    """Check that a grouper that does not read moment tables raises at fit."""
    from partikit.groupers import KhiopsGrouper

    X, y = _mixed(11, n=100)
    tree = PartitionTreeRegressor(categorical_split=KhiopsGrouper())
    with pytest.raises(ValueError, match="continuous"):
        tree.fit(X, y)


def test_maxcut_squared_error_splits_the_root_as_the_core():
    """Check that ``categorical_split="maxcut_squared_error"`` splits the root
    as the registry's core does on the root's moment table, and that this
    split is not sort_by_mean's on these data (the option reaches the cut)."""
    from partikit.groupers import REGRESSION_BIPARTITIONS

    rng = np.random.default_rng(26)
    levels = rng.exponential(size=6) * 3
    codes = rng.choice(6, 3000, p=rng.dirichlet(np.full(6, 0.5)))
    y = levels[codes] + rng.normal(size=len(codes))
    X = pd.DataFrame({"c": pd.Categorical([f"k{c}" for c in codes])})
    tree = PartitionTreeRegressor(
        categorical_split="maxcut_squared_error", max_depth=1
    ).fit(X, y)
    table = np.column_stack(
        [np.bincount(codes, weights=w) for w in (np.ones_like(y), y, y * y)]
    )
    expected = REGRESSION_BIPARTITIONS["maxcut_squared_error"](table)
    exact = REGRESSION_BIPARTITIONS["sort_by_mean"](table)
    assert expected.n_groups == 2
    assert not np.array_equal(expected.group_ids, exact.group_ids)
    assert tree.tree_.n_children[0] == 2
    assert_array_equal(tree.tree_.category_child[: len(levels)], expected.group_ids)


@pytest.mark.parametrize(
    "name, grouper",
    [
        ("maxcut_squared_error", {"order": "table"}),
        ("sort_by_mean", {"solver": "sort_by_mean"}),
    ],
)
def test_a_max_cut_grouper_grows_the_tree_of_its_string(name, grouper):
    """Check that a MaxCutGrouper with the settings of a string option grows
    the tree of that option, node by node."""
    from partikit.groupers import MaxCutGrouper

    X, y = _mixed(12)
    X["other"] = np.random.default_rng(12).choice(list("pqrstuvw"), len(y))
    params = {"max_depth": 5, "min_samples_leaf": 3}
    by_name = PartitionTreeRegressor(categorical_split=name, **params).fit(X, y)
    by_grouper = PartitionTreeRegressor(
        categorical_split=MaxCutGrouper(**grouper), **params
    ).fit(X, y)
    assert by_name.get_n_leaves() > 8
    assert_array_equal(by_name.tree_.feature, by_grouper.tree_.feature)
    assert_array_equal(by_name.tree_.category_child, by_grouper.tree_.category_child)
    assert_allclose(by_name.tree_.thresholds, by_grouper.tree_.thresholds)
    assert_allclose(by_name.tree_.value, by_grouper.tree_.value, rtol=1e-12)
    assert_allclose(by_name.predict(X), by_grouper.predict(X), rtol=1e-12)


# -------------------------------------------------- split_score="log_adjusted_pvalue"


def _noisy_frame(seed, n=600):
    """A column of 300 noise categories, a binary column with a real but
    small effect and a numeric column with none."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "noise": rng.integers(0, 300, n).astype(str),
            "signal": rng.integers(0, 2, n).astype(str),
            "x": rng.normal(size=n),
        }
    )
    y = 0.5 * (X["signal"] == "1") + rng.normal(size=n)
    return X, y.to_numpy()


@pytest.mark.parametrize("seed", range(5))
def test_adjusted_split_score_keeps_many_categories_from_winning_by_chance(seed):
    """Check that the noise column of 300 categories wins the root by the
    decrease of squared error, and loses it once its 2^299 bipartitions are
    paid for."""
    X, y = _noisy_frame(seed)
    plain = PartitionTreeRegressor(max_depth=1).fit(X, y)
    adjusted = PartitionTreeRegressor(
        max_depth=1, split_score="log_adjusted_pvalue"
    ).fit(X, y)
    assert plain.tree_.feature[0] == 0
    assert adjusted.tree_.feature[0] == 1


def _root_scores(X, y):
    """The adjusted score of every column's own best split at the root,
    computed from the rows: sort by mean for a categorical column, the best
    threshold for a numeric one."""
    scores = {}
    for j, column in enumerate(X.columns):
        values = X[column].to_numpy()
        if not pd.api.types.is_numeric_dtype(X[column]):
            categories = np.unique(values)
            means = np.array([y[values == c].mean() for c in categories])
            order = categories[np.argsort(means, kind="stable")]
            cuts = [set(order[:k]) for k in range(1, len(order))]
            sides = [np.isin(values, list(left)) for left in cuts]
            n_values, ordered = len(categories), False
        else:
            distinct = np.unique(values)
            thresholds = distinct[:-1] / 2 + distinct[1:] / 2
            sides = [values <= t for t in thresholds]
            n_values, ordered = len(distinct), True
        ones = np.ones(len(y))
        errors = [
            naive_squared_error(y[s], ones[s]) + naive_squared_error(y[~s], ones[~s])
            for s in sides
        ]
        best = sides[int(np.argmin(errors))]
        p = stats.f_oneway(y[best], y[~best]).pvalue
        scores[j] = _adjusted_from_p(p, n_values, ordered)
    return scores


def _adjusted_from_p(p, n_values, ordered):
    multiplier = (n_values - 1) if ordered else 2 ** (n_values - 1) - 1
    return -(log10(p) + log10(multiplier))


@pytest.mark.parametrize("seed", range(4))
def test_adjusted_split_score_picks_the_column_of_best_adjusted_pvalue(seed):
    """Check the root's column against the adjusted p-values of every
    column's own best split, computed from the rows with scipy."""
    rng = np.random.default_rng(10 + seed)
    n = 400
    X = pd.DataFrame(
        {
            "a": rng.integers(0, 6, n).astype(str),
            "b": rng.integers(0, 40, n).astype(str),
            "x": rng.normal(size=n).round(2),
            "z": rng.normal(size=n).round(1),
        }
    )
    y = (
        0.3 * (X["a"] < "3")
        + 0.4 * (X["x"] > 0)
        + 0.05 * X["b"].astype(int) % 3
        + rng.normal(size=n)
    ).to_numpy()
    tree = PartitionTreeRegressor(max_depth=1, split_score="log_adjusted_pvalue")
    tree.fit(X, y)
    scores = _root_scores(X, y)
    assert tree.tree_.feature[0] == max(scores, key=scores.get)
    assert tree.tree_.split_score[0] == pytest.approx(max(scores.values()), rel=1e-6)


@pytest.mark.parametrize("categorical_split", ["maxcut_squared_error", "chaid"])
def test_adjusted_split_score_with_the_other_categorical_splits(categorical_split):
    """Check the per-column splitters score by the same adjusted p-value: the
    noise column of 300 categories does not win the root."""
    X, y = _noisy_frame(0)
    tree = PartitionTreeRegressor(
        max_depth=1, categorical_split=categorical_split,
        split_score="log_adjusted_pvalue",
    ).fit(X, y)  # fmt: skip
    assert tree.tree_.feature[0] != 0


def test_adjusted_score_of_one_split_against_scipy():
    """Check adjusted_f_score against scipy's F-test and the multipliers."""
    rng = np.random.default_rng(0)
    left, right = rng.normal(0, 1, 30), rng.normal(0.8, 1, 50)
    table = np.array(
        [[len(v), v.sum(), (v * v).sum()] for v in (left, right)], dtype=float
    )
    p = stats.f_oneway(left, right).pvalue
    assert adjusted_f_score(table, 7, ordered=False) == pytest.approx(
        -(log10(p) + log10(2**6 - 1)), rel=1e-9
    )
    assert adjusted_f_score(table, 7, ordered=True) == pytest.approx(
        -(log10(p) + log10(6)), rel=1e-9
    )


def test_binary_adjusted_scores_are_adjusted_f_score_of_each_split():
    """Check the vectorised scores of binary splits against the one-split
    function, with an empty-spread child and a split of equal means."""
    rng = np.random.default_rng(1)
    children = rng.random((6, 2, 3)) * 10 + 1
    children[:, :, 2] += children[:, :, 1] ** 2 / children[:, :, 0]  # sse > 0
    children[4, 0] = [5.0, 10.0, 20.0]  # no spread: sse 0
    children[4, 1] = [3.0, 9.0, 27.0]
    children[5, 1] = children[5, 0]  # equal means: p = 1
    n_values = np.array([2, 3, 7, 40, 5, 9])
    for ordered in (False, True):
        pairs = zip(children, n_values, strict=True)
        expected = [adjusted_f_score(c, k, ordered) for c, k in pairs]
        assert_allclose(
            binary_adjusted_scores(children, n_values, ordered), expected, rtol=1e-9
        )
