# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The Khiops adjacent-merge kernel at scale: the same merges as a plain greedy
loop on many random tables (ties, fractional weights, rows and classes left
out), whatever the share of work done per compiled call; past
``exact_limit`` distinct values, granules that cut as well as the exact
merges, and nothing changed below it."""

import math

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from partikit._kernels import _khiops as khiops_kernel
from partikit.datasets import make_interval_target
from partikit.discretizers import KhiopsDiscretizer, khiops_discretization
from partikit.discretizers import _khiops as khiops_discretizer
from tests.naive import naive_adjacent_merges_exact


def _random_table(rng):
    m = int(rng.choice([2, 3, 5, 9, 17, 40, 120]))
    n_classes = int(rng.integers(2, 6))
    kind = rng.integers(4)
    if kind == 0:  # distinct values: one row of one class each, many ties
        table = np.eye(n_classes)[rng.integers(0, n_classes, m)]
    elif kind == 1:  # small counts, empty cells, repeated rows
        table = rng.poisson(rng.uniform(0.2, 3), size=(m, n_classes)).astype(float)
    elif kind == 2:  # fractional weights
        weights = rng.choice([0.1, 0.3, 0.5, 1.0, 1.5], size=(m, 1))
        table = np.eye(n_classes)[rng.integers(0, n_classes, m)] * weights
    else:
        weights = rng.exponential(1.0, size=(m, 1))
        table = np.eye(n_classes)[rng.integers(0, n_classes, m)] * weights
    return table[table.sum(axis=1) > 0]


@pytest.mark.parametrize("seed", range(4))
def test_adjacent_merges_equal_the_plain_greedy_loop(seed):
    """Check the tree-based kernel against the loop that scans every pair, bit
    for bit (same float operations), on 500 random tables per seed."""
    rng = np.random.default_rng(seed)
    for _ in range(500):
        table = _random_table(rng)
        columns = np.flatnonzero(table.sum(axis=0) > 0)
        if len(table) < 1 or len(columns) < 1:
            continue
        total = table.sum()
        min_count = float(rng.choice([0.0, 1.0, 3.0, total / 10, total / 3, total]))
        rows = None
        full = table
        if rng.random() < 0.3:
            # rows and a class left out of the merges, read through indices
            full = np.zeros((2 * len(table), table.shape[1] + 1))
            full[::2, : table.shape[1]] = table
            full[1::2, -1] = 1.0
            rows = np.arange(0, 2 * len(table), 2, dtype=np.intp)
        got = khiops_kernel.adjacent_merges(
            full, rows, columns, min_count, int(rng.choice([1, 5, 1 << 23]))
        )
        expected = naive_adjacent_merges_exact(table[:, columns], min_count)
        for a, b in zip(got, expected, strict=True):
            assert_array_equal(a, b)


def test_many_calls_equal_one():
    """Check that the merges do not depend on the work done per compiled call."""
    rng = np.random.default_rng(0)
    table = np.eye(4)[rng.integers(0, 4, 3000)] * rng.choice([1.0, 2.0], (3000, 1))
    one = khiops_kernel.adjacent_merge_sequence(table, 25.0, work_per_call=1 << 40)
    for work in (1, 37, 5000):
        many = khiops_kernel.adjacent_merge_sequence(table, 25.0, work_per_call=work)
        for a, b in zip(one, many, strict=True):
            assert_array_equal(a, b)


def test_buffer_growth_keeps_the_merges(monkeypatch):
    """Check tables whose merged intervals outgrow the counts buffer many times."""
    monkeypatch.setattr(khiops_kernel, "BUFFER_ROWS", 1)
    rng = np.random.default_rng(1)
    for _ in range(100):
        # runs of equal rows merge first (DeltaChi2 0) into many short intervals
        labels = np.repeat(rng.integers(0, 3, 60), rng.integers(1, 4, 60))
        table = np.eye(3)[labels]
        min_count = float(rng.choice([0.0, 4.0, 20.0]))
        got = khiops_kernel.adjacent_merge_sequence(table, min_count)
        expected = naive_adjacent_merges_exact(table, min_count)
        for a, b in zip(got, expected, strict=True):
            assert_array_equal(a, b)


def test_estimator_fast_path_equals_indexed_path():
    """Check that a table where every row and class takes part (no index arrays)
    cuts as the same table read through explicit row and class indices."""
    rng = np.random.default_rng(2)
    for _ in range(50):
        table = _random_table(rng)
        if len(table) < 2 or (table.sum(axis=0) == 0).any():
            continue
        direct = khiops_discretization(table, min_bin_size=3, keep_trace=True)
        # an empty class forces the indexed path; it changes nothing else
        padded = np.hstack([table, np.zeros((len(table), 1))])
        indexed = khiops_discretization(padded, min_bin_size=3, keep_trace=True)
        assert_array_equal(direct.cuts, indexed.cuts)
        assert_array_equal(
            direct.statistics["trace"].delta_chi2,
            indexed.statistics["trace"].delta_chi2,
        )


def test_estimator_on_distinct_values_with_weights():
    """Check a fit with fractional weights and ties against the cut of its table."""
    rng = np.random.default_rng(3)
    x = np.round(rng.uniform(0, 10, 4000), 1).reshape(-1, 1)
    y = (x[:, 0] > 4).astype(int) ^ (rng.random(4000) < 0.1)
    weights = rng.choice([0.5, 1.0, 2.5], 4000)
    disc = KhiopsDiscretizer().fit(x, y, sample_weight=weights)
    assert 3.5 < disc.bin_edges_[0][1:-1].min() < 4.5 or disc.n_bins_[0] >= 2


def test_compiled_calls_return_after_their_share_of_work(monkeypatch):
    """Check that the compiled loop returns to Python (where Ctrl-C is seen)
    after about ``work_per_call``: more calls for less work, each bounded."""
    calls = []
    steps = khiops_kernel._adjacent_steps

    def counted(*args):
        calls.append(args[-1])
        return steps(*args)

    monkeypatch.setattr(khiops_kernel, "_adjacent_steps", counted)
    rng = np.random.default_rng(4)
    table = np.eye(3)[rng.integers(0, 3, 2000)]
    n_calls = []
    for work in (1 << 40, 4096, 256):
        calls.clear()
        khiops_kernel.adjacent_merge_sequence(table, 10.0, work_per_call=work)
        n_calls.append(len(calls))
    # one call per phase and per growth of the counts buffer; else 2,000
    # merges of at least BLOCK units each, so 256 units per call take hundreds
    assert n_calls[0] < 10 < n_calls[1] < n_calls[2]
    assert n_calls[2] > 2000 * khiops_kernel.BLOCK // 256


def _same_result(a, b):
    assert_array_equal(a.cuts, b.cuts)
    assert a.statistics.keys() == b.statistics.keys()
    for key, value in a.statistics.items():
        if key == "trace":
            for name in ("kept", "absorbed", "delta_chi2", "forced", "accepted"):
                assert_array_equal(
                    getattr(value, name), getattr(b.statistics[key], name)
                )
        else:
            assert value == b.statistics[key], key


def test_nothing_changes_up_to_max_candidates():
    """Check that a table of at most ``exact_limit`` values, and any table
    under ``"auto"``'s exact size, cuts exactly as ``exact_limit=None``."""
    rng = np.random.default_rng(5)
    for _ in range(300):
        table = _random_table(rng)
        if len(table) < 2 or (table.sum(axis=0) == 0).any():
            continue
        min_bin_size = int(rng.choice([0, 3, 10]))
        exact = khiops_discretization(table, min_bin_size=min_bin_size, keep_trace=True)
        assert exact.statistics["exact"]
        assert exact.statistics["n_units"] <= len(table)
        for exact_limit in (len(table), len(table) + 1, "auto"):
            got = khiops_discretization(
                table,
                min_bin_size=min_bin_size,
                keep_trace=True,
                exact_limit=exact_limit,
            )
            _same_result(got, exact)


def test_auto_is_exact_up_to_its_size(monkeypatch):
    """Check that ``"auto"`` granulates only past ``AUTO_EXACT_VALUES`` values."""
    X, y, _ = make_interval_target(n_samples=3000, random_state=0)
    exact = KhiopsDiscretizer(exact_limit=None).fit(X, y)
    monkeypatch.setattr(khiops_discretizer, "AUTO_EXACT_VALUES", 3000)
    auto = KhiopsDiscretizer().fit(X, y)
    assert auto.statistics_[0]["exact"]
    assert_array_equal(auto.bin_edges_[0], exact.bin_edges_[0])
    monkeypatch.setattr(khiops_discretizer, "AUTO_EXACT_VALUES", 2999)
    monkeypatch.setattr(khiops_discretizer, "AUTO_CANDIDATES", 500)
    auto = KhiopsDiscretizer().fit(X, y)
    assert not auto.statistics_[0]["exact"]
    assert auto.statistics_[0]["n_units"] <= 500
    # never granules heavier than half the minimum frequency
    monkeypatch.setattr(khiops_discretizer, "AUTO_CANDIDATES", 2)
    auto = KhiopsDiscretizer().fit(X, y)
    statistics = auto.statistics_[0]
    n_granules = math.ceil(2 * 3000 / statistics["min_bin_size"])
    assert n_granules // 2 < statistics["n_units"] <= n_granules


def test_granules_are_cut_on_boundary_points():
    """Check that granules never separate two values of the same single class,
    that there are at most ``exact_limit`` of them and that they weigh about
    the same."""
    rng = np.random.default_rng(6)
    labels = np.repeat(rng.integers(0, 3, 4000), rng.integers(1, 6, 4000))
    table = np.eye(3)[labels] * rng.choice([0.5, 1.0, 2.0], (len(labels), 1))
    columns = np.arange(3)
    for n_granules in (10, 100, 1000):
        starts, counts = khiops_kernel.granules(
            table, None, columns, table.sum(), n_granules
        )
        assert starts[0] == 0 and len(starts) <= n_granules
        assert (labels[starts[1:]] != labels[starts[1:] - 1]).all()
        assert_allclose(counts.sum(axis=0), table.sum(axis=0))
        # a granule ends at the first boundary point past its share of weight
        run = np.diff(np.flatnonzero(np.diff(labels, prepend=-1, append=-1)))
        heaviest_run = 2.0 * run.max()
        assert counts.sum(axis=1)[:-1].max() <= table.sum() / n_granules + heaviest_run


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("signal", [0.5, 0.2])
def test_granulated_fit_cuts_as_well_as_the_exact_one(seed, signal):
    """Check, on 400,000 distinct values with 8 hidden intervals, that the
    default granules (100,000, four values each) and coarse ones (20,000) find
    as many intervals as the exact merges, the hidden cuts as closely (the
    exact cuts themselves wander by tens of values in the noise around a hidden
    cut) and a chi-square within 0.2% of theirs."""
    X, y, cuts = make_interval_target(
        n_samples=400_000, random_state=seed, signal=signal
    )
    exact = KhiopsDiscretizer(exact_limit=None).fit(X, y)
    assert exact.statistics_[0]["exact"]
    for exact_limit in ("auto", 20_000):
        granulated = KhiopsDiscretizer(exact_limit=exact_limit).fit(X, y)
        statistics = granulated.statistics_[0]
        assert not statistics["exact"]
        assert statistics["n_units"] <= (
            100_000 if exact_limit == "auto" else exact_limit
        )
        found = granulated.bin_edges_[0][1:-1]
        assert len(found) == len(exact.bin_edges_[0]) - 2 == len(cuts)
        assert np.abs(found - cuts).max() < 1e-3
        assert abs(statistics["chi2"] / exact.statistics_[0]["chi2"] - 1) < 2e-3


def test_granulated_independent_columns_stay_one_interval():
    """Check the robustness guarantee on granules: they keep the threshold of
    the distinct values, so independent columns still end in one interval with
    probability about ``p`` or more (the binomial 99.9% lower bound over 100
    columns is 0.88)."""
    rng = np.random.RandomState(0)
    X = rng.uniform(size=(4000, 100))
    y = rng.randint(0, 3, size=4000)
    disc = KhiopsDiscretizer(exact_limit=400).fit(X, y)
    assert not any(s["exact"] for s in disc.statistics_)
    assert np.mean(disc.n_bins_ == 1) >= 0.88


def test_granules_do_not_depend_on_the_work_per_call(monkeypatch):
    """Check that the granule pass returns to Python (where Ctrl-C is seen) after
    about ``work_per_call`` counts read, with the same granules."""
    calls = []
    scan = khiops_kernel._granule_scan

    def counted(*args):
        calls.append(args[-1])
        return scan(*args)

    monkeypatch.setattr(khiops_kernel, "_granule_scan", counted)
    rng = np.random.default_rng(7)
    table = np.eye(4)[rng.integers(0, 4, 5000)] * rng.choice([1.0, 2.0], (5000, 1))
    columns = np.arange(4)
    one = khiops_kernel.granules(table, None, columns, table.sum(), 300, 1 << 40)
    assert len(calls) == 1
    for work in (1, 37, 4000):
        calls.clear()
        many = khiops_kernel.granules(table, None, columns, table.sum(), 300, work)
        assert len(calls) == -(-5000 // max(work // 4, 1))
        for a, b in zip(one, many, strict=True):
            assert_array_equal(a, b)


def test_granules_through_row_and_class_indices():
    """Check that granulated cuts and traces do not change when the table holds
    an extra class too rare for the chi-square (less than 1% of the weight) and
    values that only it holds: those are read around through row and class
    indices, and the cuts map back to the larger table."""
    rng = np.random.default_rng(8)
    for _ in range(40):
        m = int(rng.integers(300, 3000))
        labels = np.repeat(rng.integers(0, 3, m), rng.integers(1, 4, m))[:m]
        table = np.eye(3)[labels] * rng.choice([1.0, 2.0], (m, 1))
        exact_limit = int(rng.choice([20, 100, 250]))
        plain = khiops_discretization(
            table, min_bin_size=10, keep_trace=True, exact_limit=exact_limit
        )
        assert not plain.statistics["exact"]
        # rows of a fourth, rare class inserted among the values
        inserted = np.sort(rng.choice(m, size=5, replace=False)) + np.arange(5)
        full = np.zeros((m + 5, 4))
        kept = np.setdiff1d(np.arange(m + 5), inserted)
        full[kept, :3] = table
        full[inserted, 3] = 0.5
        indexed = khiops_discretization(
            full, min_bin_size=10, keep_trace=True, exact_limit=exact_limit
        )
        assert_array_equal(indexed.cuts, kept[plain.cuts])
        trace, expected = indexed.statistics["trace"], plain.statistics["trace"]
        assert_array_equal(trace.kept, kept[expected.kept])
        assert_array_equal(trace.absorbed, kept[expected.absorbed])
        assert_array_equal(trace.delta_chi2, expected.delta_chi2)
        for key in ("chi2", "n_units", "n_initial_intervals", "max_delta_chi2"):
            assert indexed.statistics[key] == plain.statistics[key], key
