# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Tests of the chi-square tail kernel and of partikit._statistics._measures."""

import math

import numpy as np
import pytest
import scipy.stats
from numpy.testing import assert_allclose, assert_array_equal

from partikit._kernels._special import (
    log_chi2_sf,
    log_chi2_sf_array,
    log_chi2_sf_into,
)
from partikit._statistics._measures import (
    LN10,
    bonferroni_adjust,
    chi2_statistic,
    chi2_test,
    log10_binom,
    log10_bonferroni_floating,
    log10_bonferroni_nominal,
    log10_bonferroni_ordinal,
    log10_chi2_sf,
    log10_stirling2,
    significance_order,
)
from tests.naive import naive_chi2_statistic, naive_log_chi2_sf, naive_stirling2

GRID_DOFS = [1, 2, 3, 9, 10, 99, 1000, 1e4, 1e5]


def _grid(dof):
    """Statistics on a log grid plus points around the bulk and the branch switch."""
    xs = list(np.logspace(-3, 9, 37))
    spread = math.sqrt(2.0 * dof)
    xs += [dof + k * spread for k in (-3, -2, -1, -0.5, 0, 0.5, 1, 2, 3, 5)]
    # The kernel switches from the series to the continued fraction at x = dof + 2.
    xs += [dof + 2.0 - 1e-9, dof + 2.0, dof + 2.0 + 1e-9, dof - 2.0]
    return np.array(sorted(x for x in xs if x > 0))


@pytest.mark.parametrize("dof", GRID_DOFS)
def test_log_chi2_sf_matches_mpmath(dof):
    """Check that log_chi2_sf agrees with mpmath to 1e-10 relative error."""
    xs = _grid(dof)
    got = np.array([log_chi2_sf(x, float(dof)) for x in xs])
    expected = np.array([naive_log_chi2_sf(x, dof) for x in xs])
    assert_allclose(got, expected, rtol=1e-10, atol=1e-14)


def test_log_chi2_sf_non_integer_dof():
    """Check that log_chi2_sf is accurate for non-integer degrees of freedom."""
    for dof in (0.5, 2.5, 17.3, 250.75):
        xs = [0.01, 0.5 * dof, dof, dof + 3.0 * math.sqrt(2 * dof), 10 * dof + 50]
        got = [log_chi2_sf(x, dof) for x in xs]
        expected = [naive_log_chi2_sf(x, dof) for x in xs]
        assert_allclose(got, expected, rtol=1e-10, atol=1e-14)


def test_log_chi2_sf_matches_scipy():
    """Check that log_chi2_sf agrees with scipy where scipy is finite."""
    xs = np.logspace(-3, 4, 60)
    for dof in (1, 2, 5, 10, 30, 100, 1000, 5000):
        expected = scipy.stats.chi2.logsf(xs, dof)
        keep = np.isfinite(expected) & (expected > -600)
        got = np.array([log_chi2_sf(x, float(dof)) for x in xs[keep]])
        assert_allclose(got, expected[keep], rtol=1e-9, atol=1e-14)


def test_log_chi2_sf_finite_for_huge_statistics():
    """Check that log_chi2_sf stays finite and exact where scipy returns -inf."""
    for x in (1e4, 1e6, 1e9):
        assert scipy.stats.chi2.logsf(x, 1) == -np.inf
        got = log_chi2_sf(x, 1.0)
        assert np.isfinite(got)
        assert_allclose(got, naive_log_chi2_sf(x, 1), rtol=1e-12)


@pytest.mark.parametrize("dof", [1, 2, 5, 10, 100, 1000, 1e5])
def test_log_chi2_sf_monotone_in_statistic(dof):
    """Check that log_chi2_sf is non-increasing in the statistic."""
    around = dof + 2.0 + np.linspace(-5.0, 5.0, 1001) * math.sqrt(2.0 * dof)
    xs = np.unique(np.concatenate([np.logspace(-3, 9, 4001), around[around > 0]]))
    values = log_chi2_sf_array(xs, np.full(xs.shape, float(dof)))
    assert np.all(np.isfinite(values))
    assert np.all(values <= 0.0)
    assert np.all(np.diff(values) <= 0.0)


def test_log_chi2_sf_degenerate_inputs():
    """Check that log_chi2_sf handles non-positive, infinite and nan inputs."""
    for x in (0.0, -0.0, -1.0, -np.inf):
        assert log_chi2_sf(x, 3.0) == 0.0
    for dof in (0.0, -1.0):
        assert log_chi2_sf(5.0, dof) == 0.0
    assert log_chi2_sf(np.inf, 3.0) == -np.inf
    assert log_chi2_sf(1e300, np.inf) == 0.0
    assert math.isnan(log_chi2_sf(np.inf, np.inf))
    assert math.isnan(log_chi2_sf(np.nan, 3.0))
    assert math.isnan(log_chi2_sf(3.0, np.nan))


def test_log_chi2_sf_array_matches_scalar():
    """Check that log_chi2_sf_array equals the scalar kernel elementwise."""
    rng = np.random.default_rng(0)
    x = np.concatenate([10.0 ** rng.uniform(-3, 9, 200), [0.0, -1.0, np.inf]])
    dof = np.concatenate([np.round(10.0 ** rng.uniform(0, 5, 200)), [1.0, 0.0, 2.0]])
    got = log_chi2_sf_array(x, dof)
    assert got.dtype == np.float64
    assert_array_equal(got, [log_chi2_sf(a, b) for a, b in zip(x, dof, strict=True)])


def test_log_chi2_sf_python_matches_compiled():
    """Check that the uncompiled kernel gives the compiled kernel's results."""
    for x, dof in [(0.5, 1.0), (3.0, 2.0), (120.0, 99.0), (1e6, 10.0), (5e4, 1e5)]:
        assert_allclose(
            getattr(log_chi2_sf, "py_func", log_chi2_sf)(x, dof),
            log_chi2_sf(x, dof),
            rtol=1e-14,
            atol=0,
        )


def test_log10_chi2_sf_broadcasts():
    """Check that log10_chi2_sf broadcasts and returns floats for scalars."""
    value = log10_chi2_sf(3.841458820694124, 1)
    assert type(value) is float
    assert_allclose(value, math.log10(0.05), rtol=1e-12)
    got = log10_chi2_sf(np.array([[1.0], [5.0]]), np.array([1, 2, 3]))
    assert isinstance(got, np.ndarray)
    assert got.shape == (2, 3)
    expected = scipy.stats.chi2.logsf([[1.0], [5.0]], [1, 2, 3]) / LN10
    assert_allclose(got, expected, rtol=1e-10)


def _random_table(rng):
    """Return a random count table with some empty rows and columns inserted."""
    n_rows, n_cols = rng.integers(2, 7, size=2)
    table = rng.integers(1, 40, size=(n_rows, n_cols)).astype(np.float64)
    table *= rng.random((n_rows, n_cols)) < 0.8  # scattered zero cells
    table = np.insert(table, rng.integers(0, n_rows + 1), 0.0, axis=0)
    table = np.insert(table, rng.integers(0, n_cols + 1), 0.0, axis=1)
    return table


def test_chi2_statistic_matches_naive_and_scipy():
    """Check that chi2_statistic agrees with the naive twin and with scipy."""
    rng = np.random.default_rng(42)
    for _ in range(200):
        table = _random_table(rng)
        statistic, dof = chi2_statistic(table)
        expected, expected_dof = naive_chi2_statistic(table)
        assert type(statistic) is float
        assert type(dof) is int
        assert dof == expected_dof
        assert_allclose(statistic, expected, rtol=1e-12, atol=1e-12)
        kept = table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]
        if min(kept.shape) >= 2:
            result = scipy.stats.chi2_contingency(kept, correction=False)
            assert dof == result.dof
            assert_allclose(statistic, result.statistic, rtol=1e-10, atol=1e-12)


def test_chi2_statistic_zero_for_proportional_rows():
    """Check that chi2_statistic is zero when all rows share one profile."""
    table = np.outer([1.0, 3.0, 0.5, 7.0], [2.0, 5.0, 1.0])
    statistic, dof = chi2_statistic(table)
    assert_allclose(statistic, 0.0, atol=1e-12)
    assert dof == 6


def test_chi2_statistic_degenerate_tables():
    """Check that chi2_statistic returns (0.0, 0) without two rows and columns."""
    for table in (
        [[3.0, 4.0, 5.0]],
        [[3.0], [4.0], [5.0]],
        [[0.0, 0.0], [0.0, 0.0]],
        [[0.0, 0.0, 0.0], [2.0, 0.0, 9.0], [0.0, 0.0, 0.0]],
        [[0.0, 1.0, 0.0], [0.0, 7.0, 0.0]],
    ):
        assert chi2_statistic(np.array(table)) == (0.0, 0)
        assert chi2_test(np.array(table)) == (0.0, 0, 0.0)
    with pytest.raises(ValueError, match="2-D"):
        chi2_statistic(np.ones(3))


def test_chi2_test_worked_example():
    """Check that chi2_test reproduces the ALGORITHMS worked example."""
    parts = np.array([[30.0, 10.0], [28.0, 12.0], [10.0, 30.0], [12.0, 28.0]])
    grouped = np.array([parts[:2].sum(axis=0), parts[2:].sum(axis=0)])
    assert_array_equal(grouped, [[58.0, 22.0], [22.0, 58.0]])
    statistic, dof, log10_p = chi2_test(grouped)
    assert_allclose(statistic, 32.40, rtol=1e-12)
    assert dof == 1
    assert_allclose(log10_p, math.log10(1.2549e-8), rtol=1e-4)
    multiplier = log10_bonferroni_nominal(4, 2)
    assert_allclose(10.0**multiplier, 7.0, rtol=1e-12)
    adjusted = bonferroni_adjust(log10_p, multiplier)
    assert_allclose(adjusted, math.log10(8.784e-8), rtol=1e-4)
    assert_allclose(10.0 ** log10_bonferroni_ordinal(4, 2), 3.0, rtol=1e-12)


def test_log10_stirling2_small_values():
    """Check that log10_stirling2 gives the textbook small values."""
    for n, k, expected in [(3, 2, 3), (4, 2, 7), (4, 3, 6), (5, 2, 15), (5, 3, 25)]:
        assert_allclose(10.0 ** log10_stirling2(n, k), expected, rtol=1e-12)


def test_log10_stirling2_matches_exact():
    """Check that log10_stirling2 matches exact integers for n <= 30."""
    for n in range(31):
        for k in range(n + 1):
            exact = naive_stirling2(n, k)
            got = log10_stirling2(n, k)
            if exact == 0:
                assert got == -np.inf
            else:
                assert_allclose(got, math.log10(exact), rtol=1e-13, atol=1e-13)


def test_log10_stirling2_large_arguments():
    """Check that log10_stirling2 stays finite and exact for large n."""
    for n, k in [(1000, 8), (5000, 3), (200, 100), (300, 290), (100000, 8)]:
        got = log10_stirling2(n, k)
        assert np.isfinite(got)
        assert_allclose(got, math.log10(naive_stirling2(n, k)), rtol=1e-12)


def test_log10_stirling2_series_and_recurrence_agree_with_exact():
    """Check both routes (series when k (1 - 1/k)^n <= 0.1, else recurrence)."""
    routes = set()
    for n in [*range(2, 60), 100, 200, 500, 1000, 2000]:
        for k in range(2, n, max(1, n // 40)):
            routes.add(k * (1.0 - 1.0 / k) ** n <= 0.1)
            exact = math.log10(naive_stirling2(n, k))
            assert_allclose(log10_stirling2(n, k), exact, rtol=2e-15)
    assert routes == {True, False}


def test_log10_stirling2_edge_cases():
    """Check that log10_stirling2 handles zero blocks and too many blocks."""
    assert log10_stirling2(0, 0) == 0.0
    assert log10_stirling2(7, 7) == 0.0
    assert log10_stirling2(7, 1) == 0.0
    assert log10_stirling2(7, 0) == -np.inf
    assert log10_stirling2(3, 4) == -np.inf
    with pytest.raises(ValueError, match="non-negative"):
        log10_stirling2(-1, 0)
    with pytest.raises(TypeError):
        log10_stirling2(4.0, 2)


def test_log10_binom_matches_math_comb():
    """Check that log10_binom matches exact binomial coefficients."""
    for n in (0, 1, 5, 30, 200, 5000):
        for k in sorted({0, 1, 2, n // 3, n // 2, n - 1, n, 64, 65, 66}):
            if 0 <= k <= n:
                expected = math.log10(math.comb(n, k))
                assert_allclose(log10_binom(n, k), expected, rtol=1e-13, atol=1e-13)
    assert log10_binom(5, 0) == 0.0
    assert log10_binom(5, 5) == 0.0
    assert log10_binom(5, -1) == -np.inf
    assert log10_binom(5, 6) == -np.inf


def test_log10_bonferroni_identity_groupings():
    """Check that merging nothing or everything has multiplier one."""
    for c in (1, 2, 5, 100):
        for func in (
            log10_bonferroni_nominal,
            log10_bonferroni_ordinal,
            log10_bonferroni_floating,
        ):
            assert func(c, c) == 0.0
            assert func(c, 1) == 0.0


def test_log10_bonferroni_floating_matches_kass():
    """Check that the floating multiplier equals Kass's closed form."""
    for c in range(2, 15):
        for r in range(1, c + 1):
            kass = ((r - 1) + r * (c - r)) / (c - 1) * math.comb(c - 1, r - 1)
            got = log10_bonferroni_floating(c, r)
            assert_allclose(got, math.log10(kass), rtol=1e-13, atol=1e-13)


def test_log10_bonferroni_huge_categories():
    """Check that the multipliers are finite and exact for 1e5 categories."""
    c, r = 100_000, 8
    assert_allclose(
        log10_bonferroni_nominal(c, r), math.log10(naive_stirling2(c, r)), rtol=1e-12
    )
    assert_allclose(
        log10_bonferroni_ordinal(c, r),
        math.log10(math.comb(c - 1, r - 1)),
        rtol=1e-13,
    )
    exact = math.comb(c - 2, r - 2) + r * math.comb(c - 2, r - 1)
    assert_allclose(log10_bonferroni_floating(c, r), math.log10(exact), rtol=1e-13)
    assert np.isfinite(log10_bonferroni_ordinal(c, c // 2))


@pytest.mark.parametrize(
    "func",
    [log10_bonferroni_nominal, log10_bonferroni_ordinal, log10_bonferroni_floating],
)
def test_log10_bonferroni_rejects_invalid_groups(func):
    """Check that the multipliers reject group counts outside [1, c]."""
    for c, r in [(3, 0), (3, 4), (0, 0)]:
        with pytest.raises(ValueError, match="1 <= r <= c"):
            func(c, r)


def test_bonferroni_adjust_caps_at_zero():
    """Check that bonferroni_adjust adds the logs and caps the p-value at one."""
    assert bonferroni_adjust(-5.0, 2.0) == -3.0
    assert bonferroni_adjust(-1.0, 3.0) == 0.0
    assert type(bonferroni_adjust(-1.0, 0.5)) is float
    got = bonferroni_adjust(np.array([-5.0, -1.0]), 2.0)
    assert_array_equal(got, [-3.0, 0.0])


def test_chi2_statistic_permutation_invariant():
    """Check that chi2_statistic is invariant to row and column permutations."""
    hypothesis = pytest.importorskip("hypothesis")
    st = hypothesis.strategies

    @hypothesis.settings(max_examples=60, deadline=None)
    @hypothesis.given(
        shape=st.tuples(st.integers(1, 5), st.integers(1, 5)),
        data=st.data(),
    )
    def check(shape, data):
        n_rows, n_cols = shape
        cells = data.draw(
            st.lists(
                st.integers(0, 50), min_size=n_rows * n_cols, max_size=n_rows * n_cols
            )
        )
        table = np.array(cells, dtype=np.float64).reshape(n_rows, n_cols)
        rows = data.draw(st.permutations(range(n_rows)))
        cols = data.draw(st.permutations(range(n_cols)))
        statistic, dof = chi2_statistic(table)
        permuted, permuted_dof = chi2_statistic(table[rows][:, cols])
        assert permuted_dof == dof
        assert_allclose(permuted, statistic, rtol=1e-12, atol=1e-12)

    check()


@pytest.mark.skipif(
    not hasattr(log_chi2_sf_into, "signatures"), reason="compiled kernels only"
)
def test_log10_chi2_sf_compiles_one_array_kernel():
    """Check that read-only, broadcast, strided and integer inputs reach the
    array kernel as one type (a cold process compiles it once)."""
    values = np.array([1.0, 2.0, 3.0])
    readonly = values.copy()
    readonly.flags.writeable = False
    before = set(log_chi2_sf_into.signatures)
    for statistic, dof in [
        (values, 2),
        (values, values),
        (readonly, readonly),
        (np.arange(3), 2),
        (values[::2], values[::2]),
    ]:
        pairs = np.broadcast(statistic, dof)
        expected = [log10_chi2_sf(float(s), float(d)) for s, d in pairs]
        assert_allclose(log10_chi2_sf(statistic, dof), expected, rtol=1e-12)
    added = set(log_chi2_sf_into.signatures) - before
    assert all(not arg.readonly for sig in added for arg in sig)
    assert len(set(log_chi2_sf_into.signatures) | before) - len(before) <= 1


def test_significance_order_is_the_one_ranking_of_chaid_and_the_summary():
    """Check the order (smallest adjusted p-value, then larger key, then index)
    and that CHAID's rank_attributes and the summary's ranks follow it."""
    import pandas as pd

    from partikit._estimator._inspection import rank_columns
    from partikit.groupers._chaid import rank_attributes

    adjusted = [-2.0, -2.0, -2.0, -5.0, 0.0]
    key = [1.0, 3.0, 3.0, 0.0, 9.0]
    order = significance_order(adjusted, key)
    assert_array_equal(order, [3, 1, 2, 0, 4])
    statistics = [
        {"log10_adjusted_pvalue": a, "chi2": k}
        for a, k in zip(adjusted, key, strict=True)
    ]
    assert_array_equal(rank_attributes(statistics), order)
    summary = pd.DataFrame({"log10_adjusted_pvalue": adjusted, "cramers_v": key})
    assert_array_equal(np.argsort(rank_columns(summary)), order)
    assert len(significance_order([], [])) == 0
