# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""AttributeAggregator: combinations, unknowns, pooling, search, the contract."""

import pickle

import numpy as np
import pandas as pd
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from partikit import AttributeAggregator, CHAIDGrouper, KhiopsGrouper
from partikit._kernels._aggregation import (
    accumulate_keys,
    append_digits,
    mark_rows,
    positive_rows,
)
from partikit._statistics._contingency import merge_rows
from partikit._statistics._measures import grouped_significance
from partikit.datasets import make_k_of_n
from partikit.groupers import _combinations
from tests.naive import (
    naive_accumulate_keys,
    naive_chi2_statistic,
    naive_combinations,
    naive_positive_rows,
    naive_stirling2,
)

# --------------------------------------------------------------------------------------
# Kernels against their naive twins
# --------------------------------------------------------------------------------------


def test_accumulate_keys_kernel_matches_naive(global_random_seed):
    """Check the digit-appending kernel against its loop twin, with missing values,
    unknown values and rows already unknown."""
    rng = np.random.RandomState(global_random_seed)
    codes = rng.randint(-1, 6, size=500).astype(np.int16)
    lookup = rng.randint(-1, 4, size=7).astype(np.intp)
    keys = rng.randint(-1, 50, size=500).astype(np.int64)
    expected = naive_accumulate_keys(codes, lookup, 4, keys)
    accumulate_keys(codes, lookup, 4, keys)
    np.testing.assert_array_equal(keys, expected)


@pytest.mark.parametrize("with_lookup", [True, False])
@pytest.mark.parametrize("weighted", [True, False])
def test_positive_rows_kernel_matches_naive(with_lookup, weighted, global_random_seed):
    """Check the presence kernel against its twin, with and without a lookup and
    with zero weights."""
    rng = np.random.RandomState(global_random_seed)
    codes = rng.randint(-1, 8, size=300)
    lookup = rng.randint(-1, 5, size=9).astype(np.intp) if with_lookup else None
    weights = rng.choice([0.0, 0.5, 2.0], size=300) if weighted else None
    n_rows = 6 if with_lookup else 9
    np.testing.assert_array_equal(
        positive_rows(codes, lookup, weights, n_rows),
        naive_positive_rows(codes, lookup, weights, n_rows),
    )


@pytest.mark.parametrize("weighted", [True, False])
def test_aggregation_kernels_chunked_match_naive(
    weighted, global_random_seed, monkeypatch
):
    """Check that rows cut into many chunks (the last one short) give the same
    keys and rows as one pass, for read-only and strided narrow codes."""
    import partikit._kernels._aggregation as kernels

    monkeypatch.setattr(kernels, "CHUNK", 7)
    rng = np.random.RandomState(global_random_seed)
    codes = rng.randint(-1, 6, size=2 * 101).astype(np.int8)[::2]
    readonly = codes.copy()
    readonly.flags.writeable = False
    lookup = rng.randint(-1, 4, size=7).astype(np.intp)
    weights = rng.choice([0.0, 0.5, 2.0], size=101) if weighted else None
    for variant in (codes, readonly):
        keys = rng.randint(-1, 50, size=101).astype(np.int64)
        expected = naive_accumulate_keys(variant, lookup, 4, keys)
        accumulate_keys(variant, lookup, 4, keys)
        np.testing.assert_array_equal(keys, expected)
        for lk, n_rows in ((lookup, 6), (None, 7)):
            np.testing.assert_array_equal(
                positive_rows(variant, lk, weights, n_rows),
                naive_positive_rows(variant, lk, weights, n_rows),
            )


@pytest.mark.skipif(
    not hasattr(mark_rows, "signatures"), reason="compiled kernels only"
)
def test_aggregation_kernels_compile_once_for_every_code_width():
    """Check that member codes of any width or writability, and keys without a
    lookup, reach the kernels as one type: each compiles once (weights aside)."""
    rng = np.random.RandomState(0)
    codes = rng.randint(-1, 3, size=40)
    readonly = codes.astype(np.int8)
    readonly.flags.writeable = False
    lookup = np.arange(-1, 3)
    for variant in (codes, codes.astype(np.int16), readonly):
        accumulate_keys(variant, lookup, 3, np.zeros(40, dtype=np.int64))
        positive_rows(variant, lookup, None, 4)
        positive_rows(variant, None, None, 4)
    unweighted = [sig for sig in mark_rows.signatures if "none" in str(sig[2])]
    assert len(unweighted) == 1
    assert len(append_digits.signatures) == 1


def test_kernels_reject_codes_out_of_range():
    """Check that a code outside the lookup raises instead of reading past it."""
    keys = np.zeros(1, dtype=np.int64)
    with pytest.raises(ValueError, match="out of range"):
        accumulate_keys(np.array([5]), np.arange(3, dtype=np.intp), 2, keys)
    with pytest.raises(ValueError, match="out of range"):
        positive_rows(np.array([9]), None, None, 3)


# --------------------------------------------------------------------------------------
# Combinations against sorting the tuples themselves
# --------------------------------------------------------------------------------------

_value = st.one_of(st.none(), st.sampled_from(["a", "b", "c|d", "e"]))
_number = st.one_of(st.none(), st.sampled_from([0.5, 1.0, 2.0, -3.0]))


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(
        st.tuples(_value, _number, st.sampled_from([1, 2, 3])), min_size=1, max_size=40
    ),  # fmt: skip
    zero_weights=st.lists(st.booleans(), min_size=40, max_size=40),
)
def test_codes_match_sorted_tuples_brute_force(rows, zero_weights):
    """Check that the codes are the ranks of the sorted seen tuples (missing last),
    that a combination seen only with zero weight is unseen, and the labels."""
    weights = np.array([0.0 if z else 1.0 for z in zero_weights[: len(rows)]])
    if not weights.sum() > 0:
        weights[0] = 1.0
    X = pd.DataFrame(rows, columns=["s", "f", "i"]).astype(
        {"s": object, "f": float, "i": int}
    )
    aggregator = AttributeAggregator(keep_original=False, separator="/")
    aggregator.fit(X, sample_weight=weights)
    codes = aggregator.transform(X)[:, 0]
    expected, combinations = naive_combinations(
        [(s, f, i) for s, f, i in X.itertuples(index=False)], weights
    )
    np.testing.assert_array_equal(codes, expected)
    labels = [
        "/".join("nan" if pd.isna(v) else str(v) for v in combination)
        for combination in combinations
    ]
    assert list(aggregator.combinations_[0]) == labels


def test_codes_do_not_depend_on_row_order(global_random_seed):
    """Check that shuffling the rows permutes the codes with them."""
    X, y = make_k_of_n(n_samples=300, random_state=global_random_seed)
    order = np.random.RandomState(0).permutation(len(X))
    direct = AttributeAggregator(keep_original=False).fit_transform(X)
    shuffled = AttributeAggregator(keep_original=False).fit_transform(X.iloc[order])
    np.testing.assert_array_equal(direct[order], shuffled)


@pytest.mark.parametrize("path", ["renumbered", "sorted"])
def test_renumbering_and_sorted_paths_give_the_same_codes(monkeypatch, path):
    """Check that renumbering keys by rank (past MAX_KEYS) and the sorted-keys path
    (many possible keys) give the codes and labels of the direct dense path, also at
    transform with unseen prefixes."""
    rng = np.random.RandomState(0)
    X = pd.DataFrame({f"c{j}": rng.randint(0, 7, size=400) for j in range(5)})
    X_new = pd.DataFrame({f"c{j}": rng.randint(0, 8, size=300) for j in range(5)})
    direct = AttributeAggregator(keep_original=False).fit(X)
    if path == "renumbered":
        monkeypatch.setattr(_combinations, "MAX_KEYS", 50)
    else:
        monkeypatch.setattr(_combinations, "is_dense", lambda n_keys, n: False)
    other = AttributeAggregator(keep_original=False).fit(X)
    if path == "renumbered":
        assert len(other._aggregates[0].compressions) >= 2
    np.testing.assert_array_equal(other.combinations_[0], direct.combinations_[0])
    np.testing.assert_array_equal(other.transform(X), direct.transform(X))
    np.testing.assert_array_equal(other.transform(X_new), direct.transform(X_new))
    assert (direct.transform(X_new) == -1).any()


def test_missing_value_is_a_value_of_its_own():
    """Check that a missing member value makes its own combinations, labelled
    "nan", distinct from every other value."""
    X = pd.DataFrame({"a": ["x", None, "x", np.nan], "b": ["u", "u", "v", "v"]})
    aggregator = AttributeAggregator(keep_original=False).fit(X)
    assert list(aggregator.combinations_[0]) == ["x|u", "x|v", "nan|u", "nan|v"]
    np.testing.assert_array_equal(aggregator.transform(X)[:, 0], [0, 2, 1, 3])


# --------------------------------------------------------------------------------------
# Output, unknown combinations, pooling
# --------------------------------------------------------------------------------------


def _cars_like(n=400, seed=0):
    rng = np.random.RandomState(seed)
    X = pd.DataFrame(
        {
            "buying": rng.choice(["low", "med", "high"], size=n),
            "maint": rng.choice(["low", "high"], size=n),
            "doors": rng.choice([2, 3, 4], size=n),
        }
    )
    y = ((X.buying == "low") & (X.maint == "low")) | (rng.rand(n) < 0.1)
    return X, y.to_numpy().astype(int)


def test_output_layout_and_feature_names():
    """Check the kept columns, then the aggregates, named after their members."""
    X, y = _cars_like()
    aggregator = AttributeAggregator([["buying", "maint"], ["maint", "doors"]]).fit(X)
    names = aggregator.get_feature_names_out()
    assert list(names) == ["buying", "maint", "doors", "buying*maint", "maint*doors"]
    assert aggregator.aggregates_ == [("buying", "maint"), ("maint", "doors")]
    out = aggregator.transform(X)
    assert out.dtype == object
    np.testing.assert_array_equal(out[:, :3], X.to_numpy())
    assert list(aggregator.n_combinations_) == [6, 6]

    replaced = AttributeAggregator([["buying", "maint"]], keep_original=False).fit(X)
    assert list(replaced.get_feature_names_out()) == ["doors", "buying*maint"]
    numeric = replaced.transform(X)
    assert numeric.dtype == np.float64  # the kept column is numeric


def test_aggregator_without_grouper_needs_no_target():
    """Check that fitting without grouper nor search ignores y (unsupervised)."""
    X, y = _cars_like()
    codes = AttributeAggregator([["buying", "maint"]]).fit(X).transform(X)
    np.testing.assert_array_equal(
        codes, AttributeAggregator([["buying", "maint"]]).fit(X, y).transform(X)
    )


def test_unseen_combination_gets_the_unknown_code():
    """Check that an unseen combination, or an unseen member value, gives -1."""
    X = pd.DataFrame({"a": ["x", "x", "y"], "b": ["u", "v", "u"]})
    aggregator = AttributeAggregator(keep_original=False).fit(X)
    new = pd.DataFrame({"a": ["y", "z", "x"], "b": ["v", "u", "u"]})
    np.testing.assert_array_equal(aggregator.transform(new)[:, 0], [-1, -1, 0])


def test_unseen_combination_follows_the_grouper(global_random_seed):
    """Check that with a grouper an unseen combination goes to the default group,
    or raises naming the aggregate and the combination with handle_unknown="error"."""
    X, y = _cars_like(seed=global_random_seed)
    seen = ~((X.buying == "high") & (X.maint == "high")).to_numpy()
    new = pd.DataFrame({"buying": ["high"], "maint": ["high"], "doors": [2]})
    aggregator = AttributeAggregator(
        [["buying", "maint"]], grouper=CHAIDGrouper(), keep_original=False
    ).fit(X[seen], y[seen])
    assert aggregator.transform(new)[0, 1] == aggregator.grouper_.default_group_[1]
    strict = AttributeAggregator(
        [["buying", "maint"]],
        grouper=CHAIDGrouper(handle_unknown="error"),
        keep_original=False,
    ).fit(X[seen], y[seen])
    with pytest.raises(ValueError, match=r"'buying\*maint'.*'high\|high'"):
        strict.transform(new)


def test_grouper_sees_readable_combinations():
    """Check that the grouper's groups list the combinations' labels, and that a
    pure interaction is grouped by its rule."""
    X, y = _cars_like(n=2000)
    aggregator = AttributeAggregator(
        [["buying", "maint"]], grouper=CHAIDGrouper(), keep_original=False
    ).fit(X, y)
    groups = aggregator.grouper_.groups_[1]
    assert ["low|low"] in [list(g) for g in groups]
    assert sorted(np.concatenate(groups)) == sorted(aggregator.combinations_[0])


def test_grouper_onehot_output_and_names():
    """Check that a one-hot grouper encodes every output column, with its names."""
    X, y = _cars_like(n=2000)
    aggregator = AttributeAggregator(
        [["buying", "maint"]], grouper=KhiopsGrouper(encode="onehot-dense")
    ).fit(X, y)
    out = aggregator.transform(X)
    names = aggregator.get_feature_names_out()
    assert out.shape == (len(X), len(names))
    assert names[-1].startswith("buying*maint_g")
    np.testing.assert_array_equal(out.sum(axis=1), np.full(len(X), 4))


def test_max_categories_pools_the_rarest_combinations():
    """Check rare pooling: the heaviest combinations keep their codes in order, the
    others share the last one, labelled "<rare>", with a warning; unseen
    combinations stay unknown."""
    X = pd.DataFrame({"a": list("xxxxxyyyz"), "b": list("uuuuvuvvu")})
    with pytest.warns(UserWarning, match=r"'a\*b' has 5 combinations.*2 rarest"):
        aggregator = AttributeAggregator(keep_original=False, max_categories=4).fit(X)
    # weights: x|u 4, x|v 1, y|u 1, y|v 2, z|u 1 -> keep x|u, y|v and the first
    # of the ties in combination order, x|v
    assert list(aggregator.combinations_[0]) == ["x|u", "x|v", "y|v", "<rare>"]
    np.testing.assert_array_equal(
        aggregator.transform(X)[:, 0], [0, 0, 0, 0, 1, 3, 2, 2, 3]
    )
    new = pd.DataFrame({"a": ["z", "z"], "b": ["u", "v"]})
    np.testing.assert_array_equal(aggregator.transform(new)[:, 0], [3, -1])


def test_separator_in_values_that_makes_labels_collide_raises():
    """Check that two combinations with the same label are refused."""
    X = pd.DataFrame({"a": ["p|q", "p"], "b": ["r", "q|r"]})
    with pytest.raises(ValueError, match="same label.*separator"):
        AttributeAggregator().fit(X)
    AttributeAggregator(separator="+").fit(X)


def test_zero_weight_rows_do_not_make_combinations():
    """Check that a combination seen only with zero weight is unseen."""
    X = pd.DataFrame({"a": ["x", "x", "y"], "b": ["u", "v", "v"]})
    aggregator = AttributeAggregator(keep_original=False).fit(
        X, sample_weight=[1.0, 1.0, 0.0]
    )
    assert list(aggregator.combinations_[0]) == ["x|u", "x|v"]
    np.testing.assert_array_equal(aggregator.transform(X)[:, 0], [0, 1, -1])


def test_pickle_round_trip():
    """Check that a fitted aggregator (grouper and renumbering included) pickles."""
    X, y = _cars_like()
    aggregator = AttributeAggregator(
        [["buying", "maint", "doors"]], grouper=CHAIDGrouper()
    ).fit(X, y)
    again = pickle.loads(pickle.dumps(aggregator))
    np.testing.assert_array_equal(again.transform(X), aggregator.transform(X))


def test_set_output_pandas_keeps_strings_and_index():
    """Check the pandas output of string columns and codes, with X's index."""
    X, _ = _cars_like(n=20)
    X.index = np.arange(100, 120)
    out = (
        AttributeAggregator([["buying", "maint"]])
        .set_output(transform="pandas")
        .fit_transform(X)
    )
    assert list(out.columns) == ["buying", "maint", "doors", "buying*maint"]
    assert (out.index == X.index).all()
    assert (out["buying"] == X["buying"]).all()


def test_polars_input(df_module):
    """Check that pandas and polars inputs give the same codes."""
    X, y = _cars_like(n=200)
    frame = df_module.DataFrame({c: X[c].to_list() for c in X.columns})
    aggregator = AttributeAggregator([["buying", "doors"]], keep_original=False)
    expected = aggregator.fit(X).transform(X)
    np.testing.assert_array_equal(aggregator.fit(frame).transform(frame), expected)


# --------------------------------------------------------------------------------------
# The contract: bad aggregates, single columns and rows
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "aggregates, message",
    [
        ([["buying", "colour"]], r"column 'colour', which is not a column of X"),
        ([["buying", 7]], r"column 7, which is not a column of X"),
        ([["buying"]], "has 1 column; an aggregate combines at least 2"),
        ([["buying", "buying"]], "repeats a column"),
        ([["buying", "maint"], ["maint", "buying"]], "given twice"),
        (["buying"], "must be a list of lists"),
        ([], "aggregates is empty"),
    ],
)
def test_bad_aggregates_raise_a_clear_error(aggregates, message):
    """Check each bad aggregate specification raises a ValueError naming the
    problem."""
    X, _ = _cars_like(n=20)
    with pytest.raises(ValueError, match=message):
        AttributeAggregator(aggregates=aggregates).fit(X)


def test_overlapping_aggregates_are_built_each():
    """Check that aggregates sharing a column are both built, and that without
    keep_original their shared member is replaced by both."""
    X, _ = _cars_like(n=50)
    aggregator = AttributeAggregator(
        [["buying", "maint"], ["buying", "doors"]], keep_original=False
    ).fit(X)
    assert list(aggregator.get_feature_names_out()) == ["buying*maint", "buying*doors"]
    both = AttributeAggregator([["buying", "maint"]], keep_original=False).fit(X)
    np.testing.assert_array_equal(
        aggregator.transform(X)[:, 0], both.transform(X)[:, 1]
    )


def test_positions_name_columns_of_arrays():
    """Check that numpy input takes column positions and names x0*x1."""
    X, _ = _cars_like(n=30)
    aggregator = AttributeAggregator([[0, 2]], keep_original=False).fit(X.to_numpy())
    assert list(aggregator.get_feature_names_out()) == ["x1", "x0*x2"]


def test_single_column_X_and_single_row_X():
    """Check the outcomes for one column (a clear error) and one row (one
    combination without target; the single-class error with a grouper)."""
    X, y = _cars_like(n=30)
    with pytest.raises(ValueError, match=r"1 feature\(s\)"):
        AttributeAggregator().fit(X[["buying"]])
    one_row = X.iloc[:1]
    aggregator = AttributeAggregator(keep_original=False).fit(one_row)
    assert aggregator.n_combinations_[0] == 1
    np.testing.assert_array_equal(aggregator.transform(X.iloc[:1]), [[0.0]])
    with pytest.raises(ValueError, match="1 class"):
        AttributeAggregator(grouper=CHAIDGrouper()).fit(one_row, y[:1])
    fitted = AttributeAggregator(grouper=CHAIDGrouper()).fit(X, y)
    assert fitted.transform(X.iloc[[3]]).shape == (1, 4)


def test_aggregates_and_search_are_exclusive_and_search_needs_y():
    X, y = _cars_like(n=30)
    with pytest.raises(ValueError, match="exclusive"):
        AttributeAggregator(aggregates=[["buying", "maint"]], search="pairs").fit(X, y)
    with pytest.raises(ValueError, match="requires y"):
        AttributeAggregator(search="pairs").fit(X)
    with pytest.raises(ValueError, match="requires y"):
        AttributeAggregator(grouper=KhiopsGrouper()).fit(X)


def test_output_name_clash_raises():
    """Check that an aggregate named like an input column is refused."""
    X = pd.DataFrame({"a": ["x", "y"], "b": ["u", "v"], "a*b": ["p", "q"]})
    with pytest.raises(ValueError, match=r"\['a\*b'\] more than once"):
        AttributeAggregator([["a", "b"]]).fit(X)


def test_column_kind_change_at_transform_raises():
    X = pd.DataFrame({"a": [1, 2, 1], "b": ["u", "v", "v"]})
    aggregator = AttributeAggregator().fit(X)
    with pytest.raises(ValueError, match="'a' held numeric categories in fit"):
        aggregator.transform(pd.DataFrame({"a": ["1", "2", "1"], "b": ["u", "v", "v"]}))


# --------------------------------------------------------------------------------------
# Search
# --------------------------------------------------------------------------------------


def test_grouped_significance_is_chaids_adjusted_pvalue(global_random_seed):
    """Check the search's score against CHAIDGrouper's own adjusted p-value."""
    X, y = make_k_of_n(n_samples=2000, random_state=global_random_seed)
    combined = X.astype(str).agg("".join, axis=1).to_frame("tests")
    grouper = CHAIDGrouper().fit(combined, y)
    value = grouped_significance(grouper.table_[0], len(grouper.categories_[0]))
    assert value == pytest.approx(grouper.statistics_[0]["log10_adjusted_pvalue"])


def test_search_scores_equal_the_dataframe_route_and_the_hand_computation():
    """Check a candidate's score against the route the search took before it
    scored tables (a CHAIDGrouper fitted on the candidate's combinations as a
    column of strings) and against Pearson's chi-square times the Stirling
    multiplier recomputed by hand, with combinations seen only with zero weight,
    which are not values of the candidate."""
    rng = np.random.RandomState(0)
    n = 600
    X = pd.DataFrame({c: rng.choice(list("pqr"), size=n) for c in "abc"})
    y = ((X.a == X.b).to_numpy() ^ (rng.rand(n) < 0.2)).astype(int)
    weights = rng.randint(1, 4, size=n).astype(float)
    weights[((X.a == "p") & (X.c == "r")).to_numpy()] = 0.0  # combination p|r
    X.iloc[:3, 0], weights[:3] = "s", 0.0  # value s of a, zero weight only
    aggregator = AttributeAggregator(search="pairs", max_pvalue_ratio=1.0)
    results = aggregator.fit(X, y, sample_weight=weights).search_results_
    for a, b, n_values in [("a", "b", 9), ("a", "c", 8)]:
        row = results.loc[results["members"] == (a, b)].iloc[0]
        combined = (X[a] + "|" + X[b]).to_frame(f"{a}*{b}")
        grouper = CHAIDGrouper().fit(combined, y, sample_weight=weights)
        grouped = grouper.table_[0]
        assert len(grouper.categories_[0]) == n_values
        assert row.n_combinations == n_values
        assert row.n_groups == grouper.n_groups_[0]
        assert row.log10_adjusted_pvalue == grouped_significance(grouped, n_values)
        statistic, dof = naive_chi2_statistic(grouped)
        pvalue = scipy.stats.chi2.sf(statistic, dof)
        multiplier = naive_stirling2(n_values, int(row.n_groups))
        expected = np.log10(min(1.0, multiplier * pvalue))
        assert row.log10_adjusted_pvalue == pytest.approx(expected, rel=1e-9)


def test_search_scores_candidates_with_the_groupers_group_table(monkeypatch):
    """Check that the search groups each column's and each candidate's table
    with the grouper's group_table, the given grouper left unfitted, so that a
    parameter of the grouper (KhiopsGrouper's p) changes the scores."""
    X, y = make_k_of_n(
        n_samples=200, n_tests=3, k=2, noise=0.4, n_noise_features=1, random_state=0
    )
    tables = []
    group_table = KhiopsGrouper.group_table

    def spy(self, table):
        tables.append(np.array(table))
        return group_table(self, table)

    monkeypatch.setattr(KhiopsGrouper, "group_table", spy)
    default = AttributeAggregator(
        search="pairs", max_pvalue_ratio=1.0, grouper=KhiopsGrouper()
    ).fit(X, y)
    tables.clear()
    scorer = KhiopsGrouper(alpha=0.95)
    other = AttributeAggregator(
        search="pairs", max_pvalue_ratio=1.0, grouper=scorer
    ).fit(X, y)
    assert not hasattr(scorer, "n_features_in_")
    results = other.search_results_
    # the single columns first, then the candidates in the order of their rows
    assert len(tables) == X.shape[1] + len(results)
    for table, row in zip(tables[X.shape[1] :], results.itertuples(), strict=True):
        assert table.sum() == len(X)
        assert len(table) == row.n_combinations
        result = group_table(scorer, table)
        grouped = merge_rows(table, result.group_ids, result.n_groups)
        assert row.n_groups == result.n_groups
        assert row.log10_adjusted_pvalue == grouped_significance(grouped, len(table))
    changed = (
        results.log10_adjusted_pvalue != default.search_results_.log10_adjusted_pvalue
    )
    assert changed.any()
    assert (results.n_groups > default.search_results_.n_groups).any()


def test_greedy_search_finds_the_k_of_n_tests(global_random_seed):
    """Check that the greedy search aggregates exactly the five tests, leaves the
    noise columns alone, and records why."""
    X, y = make_k_of_n(
        n_samples=5000, n_noise_features=3, random_state=global_random_seed
    )
    aggregator = AttributeAggregator(search="greedy").fit(X, y)
    assert aggregator.aggregates_ == [tuple(f"test_{j}" for j in range(5))]
    results = aggregator.search_results_
    chosen = results[results.selected]
    assert len(chosen) == 1 and chosen.n_combinations.iloc[0] == 32
    assert (results.gain[results.selected] > 0).all()
    with_noise = results.members.map(lambda m: any(c.startswith("noise") for c in m))
    assert (results.gain[with_noise] <= 0).all()


def test_greedy_search_limits(global_random_seed):
    """Check max_order (the tests left over form the next aggregate) and top_k."""
    X, y = make_k_of_n(n_samples=3000, random_state=global_random_seed)
    capped = AttributeAggregator(search="greedy", max_order=3).fit(X, y)
    assert [len(a) for a in capped.aggregates_] == [3, 2]
    single = AttributeAggregator(search="greedy", max_order=2, top_k=1).fit(X, y)
    assert [len(a) for a in single.aggregates_] == [2]


def test_pairs_search_ranks_pairs_by_gain(global_random_seed):
    """Check that search="pairs" keeps the top_k pairs of largest positive gain,
    and never a pair of noise columns."""
    X, y = make_k_of_n(
        n_samples=3000, n_noise_features=2, random_state=global_random_seed
    )
    aggregator = AttributeAggregator(search="pairs", top_k=4).fit(X, y)
    results = aggregator.search_results_
    assert len(results) == 21  # every pair of 7 columns
    chosen = results[results.selected].sort_values("gain", ascending=False)
    assert list(chosen.members) == aggregator.aggregates_
    assert len(chosen) == 4
    assert chosen.gain.min() >= results.gain[~results.selected].max()
    assert all(m[0].startswith("test") and m[1].startswith("test")
               for m in aggregator.aggregates_)  # fmt: skip


def test_search_with_grouper_outputs_grouped_aggregates():
    """Check that the search's aggregates are grouped by the grouper and replace
    their members without keep_original."""
    X, y = make_k_of_n(n_samples=3000, n_noise_features=1, random_state=0)
    aggregator = AttributeAggregator(
        search="greedy", grouper=KhiopsGrouper(), keep_original=False
    ).fit(X, y)
    assert list(aggregator.get_feature_names_out()) == [
        "noise_0",
        "test_0*test_1*test_2*test_3*test_4",
    ]
    out = aggregator.transform(X)
    assert out.shape == (3000, 2)
    assert aggregator.grouper_.n_groups_[0] == 1  # the noise column
    assert aggregator.grouper_.n_groups_[1] >= 2


# --------------------------------------------------------------------------------------
# The thesis's _ext datasets
# --------------------------------------------------------------------------------------

_EXT = {
    "cars": [["buying", "maint"], ["doors", "persons", "lug_boot"]],
    "nursery": [
        ["parents", "has_nurs"],
        ["form", "children", "housing", "finance"],
        ["social", "health"],
    ],
    "contraceptive": [
        ["wifes_education", "husbands_education"],
        ["wife_is_working", "husbands_occupation", "standard_of_living_index"],
    ],
}


@pytest.mark.parametrize("name", sorted(_EXT))
def test_rebuilds_the_thesis_ext_columns(datasets_dir, name):
    """Check that the aggregates of the plain dataset partition the rows exactly as
    the extra columns of its ``_ext`` version (one aggregate code per ext value and
    conversely), with the cardinalities of the thesis."""
    plain = pd.read_csv(datasets_dir / name / "data.csv", dtype=str)
    ext = pd.read_csv(datasets_dir / f"{name}_ext" / "data.csv", dtype=str)
    extra = [c for c in ext.columns if c not in plain.columns]
    aggregates = _EXT[name]
    aggregator = AttributeAggregator(aggregates=aggregates, keep_original=False)
    codes = aggregator.fit_transform(plain.drop(columns="class"))[:, -len(aggregates) :]
    for k, column in enumerate(extra):
        pairs = pd.DataFrame({"code": codes[:, k], "ext": ext[column]})
        assert pairs.groupby("code").ext.nunique().max() == 1
        assert pairs.groupby("ext").code.nunique().max() == 1
        assert aggregator.n_combinations_[k] == ext[column].nunique()


def test_unseen_combination_never_passes_for_a_seen_one_with_the_same_label():
    """Check that an unseen combination whose label equals a seen one's (member
    values containing the separator) is still unknown to the grouper."""
    X = pd.DataFrame({"a": ["p", "s", "s", "p"], "b": ["q|r", "t", "t", "q|r"]})
    y = np.array([1, 0, 0, 1])
    aggregator = AttributeAggregator(
        grouper=CHAIDGrouper(handle_unknown="error"), keep_original=False
    ).fit(X, y)
    assert list(aggregator.combinations_[0]) == ["p|q|r", "s|t"]
    new = pd.DataFrame({"a": ["p|q"], "b": ["r"]})
    with pytest.raises(ValueError, match=r"unknown categories.*'p\|q\|r\?'"):
        aggregator.transform(new)


def test_search_that_finds_nothing_outputs_the_columns():
    """Check that a search on columns independent of the class builds no aggregate
    and outputs the columns as they are."""
    rng = np.random.RandomState(0)
    X = pd.DataFrame({c: rng.choice(["u", "v", "w"], size=2000) for c in "abc"})
    y = rng.randint(2, size=2000)
    aggregator = AttributeAggregator(search="greedy", keep_original=False).fit(X, y)
    assert aggregator.aggregates_ == []
    assert not aggregator.search_results_.selected.any()
    assert list(aggregator.get_feature_names_out()) == ["a", "b", "c"]
    np.testing.assert_array_equal(aggregator.transform(X), X.to_numpy())


def test_alpha_keeps_only_aggregates_clearly_more_significant():
    """Check that a pair of independent columns that is barely more significant
    than its parts passes with max_pvalue_ratio=1 (any positive gain) but not
    with the default max_pvalue_ratio=0.05 (a gain of more than 1.3 decades)."""
    rng = np.random.RandomState(33)
    X = pd.DataFrame({c: rng.choice(["u", "v", "w"], size=500) for c in "ab"})
    y = rng.randint(2, size=500)
    lenient = AttributeAggregator(search="pairs", max_pvalue_ratio=1.0).fit(X, y)
    assert 0 < lenient.search_results_.gain.iloc[0] < -np.log10(0.05)
    assert lenient.aggregates_ == [("a", "b")]
    assert AttributeAggregator(search="pairs").fit(X, y).aggregates_ == []


@pytest.mark.parametrize("dtype", ["category", "str", "object"])
def test_kept_columns_keep_their_values_whatever_their_dtype(dtype):
    """Check that kept categorical, Arrow-backed and object columns are output
    with their values (missing as NaN), as an object array."""
    if dtype == "str" and int(pd.__version__.split(".")[0]) < 3:
        pytest.skip("before pandas 3, astype('str') turns None into the text 'None'")
    X = pd.DataFrame({"a": ["x", None, "y", "x"], "b": ["u", "v", "v", None]})
    X = X.astype(dtype)
    out = AttributeAggregator().fit(X).transform(X)
    expected = np.array([["x", "u"], [np.nan, "v"], ["y", "v"], ["x", np.nan]],
                        dtype=object)  # fmt: skip
    assert out.dtype == object
    assert pd.isna(out[:, :2]).tolist() == pd.isna(expected).tolist()
    assert out[~pd.isna(out[:, :2]).any(axis=1), :2].tolist() == [
        ["x", "u"],
        ["y", "v"],
    ]


def test_search_with_an_ordinal_chaid_grouper():
    """Check that a grouper naming ordinal columns of X can drive the search (the
    candidates are scored as nominal) and still treats the kept column as
    ordinal."""
    X, y = make_k_of_n(n_samples=2000, n_noise_features=1, random_state=0)
    aggregator = AttributeAggregator(
        search="greedy", grouper=CHAIDGrouper(ordinal=["noise_0"])
    ).fit(X, y)
    assert aggregator.aggregates_ == [tuple(f"test_{j}" for j in range(5))]
    assert aggregator.grouper_.statistics_[5]["predictor"] == "ordinal"


# --------------------------------------------------------------------------------------
# The one-pass routes of fit and transform against the general ones
# --------------------------------------------------------------------------------------


def _mixed_members(rng, n):
    """Member columns of every kind: negative int8 values, strings with missing
    values, a categorical with an unused category, floats with NaN, booleans."""
    strings = rng.choice(["p", "q", "r", None], size=n).astype(object)
    return pd.DataFrame(
        {
            "i8": rng.choice(np.array([-128, -3, 0, 5, 127], dtype=np.int8), size=n),
            "s": strings,
            "c": pd.Categorical(
                rng.choice(["u", "v"], size=n), categories=["w", "v", "u"]
            ),
            "f": rng.choice([0.5, -1.0, np.nan], size=n),
            "b": rng.choice([True, False], size=n),
            "u8": rng.integers(3, 9, size=n).astype(np.uint64),
        }
    )


def _assert_same_values(a, b):
    assert a.dtype == b.dtype
    assert pd.Series(a).equals(pd.Series(b))  # NaN equals NaN


def _assert_same_fit(fast, slow):
    for a, b in zip(fast._aggregates, slow._aggregates, strict=True):
        assert a.members == b.members and a.sizes == b.sizes
        assert a.n_keys == b.n_keys and a.n_pooled == b.n_pooled
        np.testing.assert_array_equal(a.seen, b.seen)
        np.testing.assert_array_equal(a.code_of_seen, b.code_of_seen)
        np.testing.assert_array_equal(a.labels, b.labels)
    assert fast._members.keys() == slow._members.keys()
    for j, member in fast._members.items():
        _assert_same_values(member.categories, slow._members[j].categories)
        np.testing.assert_array_equal(member.labels, slow._members[j].labels)
        assert member.kind == slow._members[j].kind
    g, h = fast.grouper_, slow.grouper_
    np.testing.assert_array_equal(g.feature_names_in_, h.feature_names_in_)
    assert g.n_features_in_ == h.n_features_in_
    np.testing.assert_array_equal(g.classes_, h.classes_)
    np.testing.assert_array_equal(g.n_groups_, h.n_groups_)
    np.testing.assert_array_equal(g.default_group_, h.default_group_)
    for k in range(g.n_features_in_):
        _assert_same_values(g.categories_[k], h.categories_[k])
        np.testing.assert_array_equal(g.group_ids_[k], h.group_ids_[k])
        np.testing.assert_array_equal(g.table_[k], h.table_[k])
        assert g.statistics_[k] == h.statistics_[k]
        assert g._kinds[k] == h._kinds[k]


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("keep_original", [False, True])
@pytest.mark.parametrize("max_categories", [None, 6])
@pytest.mark.parametrize("grouper", [KhiopsGrouper(), CHAIDGrouper(encode="onehot")])
def test_counted_fit_and_direct_transform_equal_the_general_routes(
    monkeypatch, weighted, keep_original, max_categories, grouper, global_random_seed
):
    """Check that the one-pass fit (members and combinations from one table of
    digits) and the direct transform (keys looked up into groups) give the
    members, aggregates, grouper and output of the general routes (members
    factorized, row codes, the grouper's DataFrame), with unseen values and
    combinations at transform."""
    rng = np.random.default_rng(global_random_seed)
    X = _mixed_members(rng, 400)
    y = rng.choice(["no", "yes", "maybe"], size=400)
    weights = None
    if weighted:
        weights = rng.uniform(0.0, 3.0, size=400)
        weights[X["s"].isna().to_numpy() & (X["b"].to_numpy())] = 0.0  # unseen
        weights[X["i8"].to_numpy() == 127] = 0.0  # a value seen only at zero weight
    X_new = _mixed_members(np.random.default_rng(global_random_seed + 1), 300)
    X_new.loc[::7, "i8"] = np.int8(1)  # a value unseen in fit
    aggregates = [["i8", "s"], ["c", "f", "b"], ["s", "u8"]]

    def make():
        return AttributeAggregator(
            aggregates,
            grouper=grouper,
            keep_original=keep_original,
            max_categories=max_categories,
        )

    results = []

    def spy(*args):
        results.append(_combinations.fit_counted_aggregate(*args))
        return results[-1]

    with monkeypatch.context() as patch:
        patch.setattr("partikit.groupers._aggregation.fit_counted_aggregate", spy)
        with pytest.warns() if max_categories else _no_warning():
            fast = make().fit(X, y, sample_weight=weights)
    # weighted combinations to pool take the general route
    assert (results[-1] is None) == bool(weighted and max_categories)
    with monkeypatch.context() as patch:
        patch.setattr(
            "partikit.groupers._aggregation.fit_counted_aggregate",
            lambda *args: None,
        )
        patch.setattr(
            AttributeAggregator, "_group_directly", lambda self, columns: None
        )
        with pytest.warns() if max_categories else _no_warning():
            slow = make().fit(X, y, sample_weight=weights)
        slow_out = [slow.transform(X), slow.transform(X_new)]
    _assert_same_fit(fast, slow)
    outputs = [fast.transform(X), fast.transform(X_new)]
    for out, expected in zip(outputs, slow_out, strict=True):
        if hasattr(out, "toarray"):
            out, expected = out.toarray(), expected.toarray()
        np.testing.assert_array_equal(out, expected)


def _no_warning():
    import contextlib
    import warnings

    @contextlib.contextmanager
    def context():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield

    return context()


def test_counted_fit_falls_back_for_weighted_pooling_and_large_tables(monkeypatch):
    """Check that the one-pass fit declines (returns None) where it would differ
    or cost more: weighted combinations to pool, a table of digits larger
    than a column."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.integers(0, 9, 300), "b": rng.integers(0, 9, 300)})
    y = rng.integers(0, 2, 300).astype(np.intp)
    digits = {j: _combinations.member_digits(X.iloc[:, j], "x") for j in (0, 1)}
    fit = _combinations.fit_counted_aggregate
    assert fit((0, 1), digits, y, None, 2, 5, "|") is not None
    assert fit((0, 1), digits, y, np.ones(300), 2, 5, "|") is None
    assert fit((0, 1), digits, y, np.ones(300), 2, None, "|") is not None
    for j in (0, 1):  # about 300 x 300 combinations x 2 classes
        wide = pd.Series(rng.permutation(100_000)[:300])
        digits[j] = _combinations.member_digits(wide, "x")
    assert fit((0, 1), digits, y, None, 2, None, "|") is None


@pytest.mark.parametrize("search", ["pairs", "greedy"])
@pytest.mark.parametrize("weighted", [False, True])
def test_counted_search_scores_equal_the_general_route(
    monkeypatch, search, weighted, global_random_seed
):
    """Check that the search scores each candidate on the table counted in one
    pass as on the general route's table: same scores, same aggregates."""
    X, y = make_k_of_n(
        n_samples=400, n_tests=4, k=2, noise=0.2, n_noise_features=1,
        random_state=global_random_seed,
    )  # fmt: skip
    X = X.astype({X.columns[0]: str})  # a factorized member too
    weights = None
    if weighted:
        weights = np.random.default_rng(global_random_seed).uniform(0, 2, len(X))
        weights[::5] = 0.0

    def fit():
        return AttributeAggregator(search=search, grouper=KhiopsGrouper()).fit(
            X, y, sample_weight=weights
        )

    fast = fit()
    with monkeypatch.context() as patch:
        patch.setattr(
            "partikit.groupers._aggregation.fit_counted_aggregate",
            lambda *args: None,
        )
        slow = fit()
    pd.testing.assert_frame_equal(fast.search_results_, slow.search_results_)
    assert fast.aggregates_ == slow.aggregates_
    np.testing.assert_array_equal(fast.transform(X), slow.transform(X))
