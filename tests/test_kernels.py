# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Every numba kernel against its naive twin in tests/naive.py."""

import numba
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from partikit._kernels import _khiops as khiops_kernels
from partikit._kernels import _tables as table_kernels
from partikit._kernels._khiops import chi2_merge_sequence
from partikit._kernels._tables import (
    apply_lookup,
    count_rows,
    lookup_rows,
)
from partikit._statistics._contingency import build_table, heaviest, merge_rows
from partikit._statistics._measures import chi2_statistic
from partikit.groupers._khiops import labels_after_merges
from tests.naive import (
    naive_apply_lookup,
    naive_chi2_statistic,
    naive_delta_chi2,
    naive_greedy_merges,
    naive_labels_after_merges,
    naive_table,
)


def _plain(kernel):
    """The kernel's Python function (the kernel itself when the JIT is off)."""
    return getattr(kernel, "py_func", kernel)


def _random_codes(rng, n, n_categories, n_classes):
    codes = rng.integers(-1, n_categories, n)
    y = rng.integers(0, n_classes, n)
    return codes, y


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("code_dtype", [np.int8, np.int16, np.int32, np.int64])
def test_build_table_matches_naive(global_random_seed, weighted, code_dtype):
    """Check that build_table equals a Python loop, for every code width."""
    rng = np.random.default_rng(global_random_seed)
    codes, y = _random_codes(rng, 500, 20, 4)
    weights = rng.random(500) if weighted else None
    table = build_table(codes.astype(code_dtype), y, weights, 21, 4)
    assert_allclose(table, naive_table(codes, y, weights, 21, 4))


def test_build_table_lookup_translates_codes(global_random_seed):
    """Check that a lookup sends raw codes to the rows it names."""
    rng = np.random.default_rng(global_random_seed)
    codes, y = _random_codes(rng, 300, 6, 3)
    lookup = np.array([-1, 5, 4, 3, 2, 1, 0])  # reverse the 6 codes
    table = build_table(codes, y, None, 7, 3, lookup=lookup)
    expected = naive_table(np.where(codes < 0, -1, 5 - codes), y, None, 7, 3)
    assert_allclose(table, expected)


def test_build_table_rejects_out_of_range_codes():
    """Check that a code or class outside the table raises instead of writing."""
    with pytest.raises(ValueError, match="out of range"):
        build_table(np.array([0, 7]), np.array([0, 1]), None, 3, 2)
    with pytest.raises(ValueError, match="out of range"):
        build_table(np.array([0, 1]), np.array([0, 2]), None, 3, 2)
    with pytest.raises(TypeError, match="integers"):
        build_table(np.array([0.0, 1.0]), np.array([0, 1]), None, 3, 2)


def test_table_kernels_are_valid_python(global_random_seed):
    """Check that the kernels run uncompiled (NUMBA_DISABLE_JIT coverage runs)."""
    rng = np.random.default_rng(global_random_seed)
    codes, y = _random_codes(rng, 100, 5, 3)
    lookup = np.arange(-1, 6)
    for w in (None, rng.random(100)):
        compiled, plain = np.zeros((6, 3)), np.zeros((6, 3))
        count_rows(codes, lookup, y, w, compiled)
        _plain(count_rows)(codes, lookup, y, w, plain)
        assert_allclose(plain, compiled)
        assert_allclose(compiled, naive_table(codes, y, w, 6, 3))
    compiled, plain = np.zeros((100, 2)), np.zeros((100, 2))
    assert lookup_rows(codes, lookup, compiled, 1, 9) == _plain(lookup_rows)(
        codes, lookup, plain, 1, 9
    )
    assert_array_equal(compiled, plain)


def test_apply_lookup_fills_unknown_and_counts_them():
    """Check that apply_lookup writes lookup values and the fill for unknowns."""
    codes = np.array([0, 1, -1, 2, 1], dtype=np.int16)
    lookup = np.array([7, 3, -1, 5])  # missing -> 7, code 1 unknown
    for out in (
        np.zeros((5, 2)),
        np.zeros((5, 2), dtype=np.intp),
        np.zeros((5, 2), dtype=np.int32),
        np.zeros((5, 2), order="F"),
    ):
        n_unknown = apply_lookup(codes, lookup, out, 1, 9)
        assert n_unknown == 2
        assert_array_equal(out[:, 1], [3, 9, 7, 5, 9])
        assert_array_equal(out[:, 0], 0)
    out = np.zeros((5, 1), dtype=np.intp)  # written in place, without a buffer
    assert apply_lookup(codes, lookup, out, 0, -1) == 2
    assert_array_equal(out[:, 0], [3, -1, 7, 5, -1])


@pytest.mark.parametrize("weighted", [False, True])
def test_table_kernels_chunked_match_naive(global_random_seed, weighted, monkeypatch):
    """Check that rows cut into many chunks (the last one short) give the same
    table and lookups as one pass, for read-only, strided and narrow codes."""
    monkeypatch.setattr(table_kernels, "CHUNK", 7)
    rng = np.random.default_rng(global_random_seed)
    codes, y = _random_codes(rng, 2 * 103, 10, 3)
    weights = rng.random(2 * 103) if weighted else None
    readonly = codes[::2].astype(np.int8)
    readonly.flags.writeable = False
    for variant in (codes[::2], readonly, codes[::2].copy()):
        w = None if weights is None else weights[::2]
        table = build_table(variant, y[::2], w, 11, 3)
        assert_allclose(table, naive_table(codes[::2], y[::2], w, 11, 3))
    lookup = rng.integers(-1, 4, 12)
    out = np.zeros((103, 3))
    n_unknown = apply_lookup(readonly, lookup, out, 2, 5)
    expected, expected_unknown = naive_apply_lookup(codes[::2], lookup, 5)
    assert n_unknown == expected_unknown
    assert_array_equal(out[:, 2], expected)


@pytest.mark.skipif(
    not hasattr(count_rows, "signatures"), reason="compiled kernels only"
)
def test_table_kernels_compile_once_for_every_code_width():
    """Check that codes of any width, layout or writability reach the row kernels
    as one type: a cold process compiles each of them once (weights and the
    output's dtype aside)."""
    rng = np.random.default_rng(0)
    codes, y = _random_codes(rng, 60, 5, 3)
    variants = [codes.astype(dtype) for dtype in (np.int8, np.int16, np.int32)]
    readonly = codes.copy()
    readonly.flags.writeable = False
    variants += [codes, readonly, np.repeat(codes, 2)[::2], codes.astype(np.uint64)]
    for variant in variants:
        build_table(variant, y.astype(np.int32), None, 6, 3)
        apply_lookup(variant, np.arange(-1, 5), np.zeros((60, 2)), 0, -1)
        apply_lookup(variant, np.arange(-1, 5), np.zeros((60, 2), np.intp), 1, -1)
    unweighted = [sig for sig in count_rows.signatures if "none" in str(sig[3])]
    assert len(unweighted) == 1
    assert len(lookup_rows.signatures) <= 2  # float64 and intp outputs
    for kernel in (count_rows, lookup_rows):
        for sig in kernel.signatures:
            assert str(sig[0]) == "array(int64, 1d, C)"  # intp codes, writable


def test_merge_rows_sums_rows_by_group():
    """Check that merge_rows sums the rows of each group."""
    table = np.arange(12.0).reshape(4, 3)
    assert_allclose(
        merge_rows(table, [1, 0, 1, 0], 2), [table[1] + table[3], table[0] + table[2]]
    )


def _partition(labels):
    return frozenset(
        frozenset(np.flatnonzero(labels == g).tolist()) for g in np.unique(labels)
    )


@pytest.mark.parametrize("trial", range(40))
def test_chi2_merge_sequence_matches_greedy_loop(trial):
    """Check that the nearest-neighbour chain gives the greedy merges, step by
    step: same DeltaChi2 and same partition after every merge."""
    rng = np.random.default_rng(trial)
    n_rows, n_classes = rng.integers(2, 11), rng.integers(2, 5)
    table = rng.integers(1, 40, (n_rows, n_classes)) * rng.integers(1, 4, (n_rows, 1))
    table = table.astype(float)
    kept, absorbed, delta, height = chi2_merge_sequence(table)
    order = np.argsort(height, kind="stable")
    for k, (expected_delta, expected_partition) in enumerate(
        naive_greedy_merges(table)
    ):
        assert delta[order[k]] == pytest.approx(expected_delta, rel=1e-9, abs=1e-9)
        labels = labels_after_merges(n_rows, kept, absorbed, order, k + 1)
        assert _partition(labels) == expected_partition


def test_chi2_merge_sequence_delta_is_drop_in_chi2(global_random_seed):
    """Check that each merge's DeltaChi2 is the drop of the table's chi-square
    and that the heights are monotone (Ward's criterion is reducible)."""
    rng = np.random.default_rng(global_random_seed)
    table = rng.integers(1, 50, (30, 4)).astype(float)
    kept, absorbed, delta, height = chi2_merge_sequence(table)
    order = np.argsort(height, kind="stable")
    assert (np.diff(height[order]) >= 0).all()
    assert_allclose(delta.sum(), chi2_statistic(table)[0], rtol=1e-10)
    a, b = kept[order[0]], absorbed[order[0]]
    assert delta[order[0]] == pytest.approx(naive_delta_chi2(table, a, b), rel=1e-9)


def test_chi2_merge_sequence_identical_rows_merge_at_zero():
    """Check that rows with the same class profile merge first, at DeltaChi2 0."""
    table = np.array([[10, 0], [1, 9], [20, 0], [5, 45.0]])
    kept, absorbed, delta, height = chi2_merge_sequence(table)
    order = np.argsort(height, kind="stable")
    assert_allclose(delta[order[:2]], 0.0, atol=1e-12)
    labels = labels_after_merges(4, kept, absorbed, order, 2)
    assert _partition(labels) == {frozenset({0, 2}), frozenset({1, 3})}


def test_khiops_kernels_are_valid_python(global_random_seed):
    """Check that the merge kernel runs uncompiled with the same result."""
    rng = np.random.default_rng(global_random_seed)
    table = rng.integers(1, 30, (8, 3)).astype(float)
    compiled = chi2_merge_sequence(table)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            khiops_kernels, "_chain_merges", _plain(khiops_kernels._chain_merges)
        )
        plain = chi2_merge_sequence(table)
    for a, b in zip(compiled, plain, strict=True):
        assert_allclose(a, b)


@pytest.mark.parametrize("work_per_call", [1, 7, 50])
def test_chi2_merge_sequence_resumes_where_it_stopped(
    global_random_seed, work_per_call
):
    """Check that a merge sequence made in many short calls of the compiled loop
    (so that Ctrl-C is seen) is the sequence made in one."""
    rng = np.random.default_rng(global_random_seed)
    table = rng.integers(1, 30, (25, 3)).astype(float)
    whole = chi2_merge_sequence(table)
    pieces = chi2_merge_sequence(table, work_per_call=work_per_call)
    for a, b in zip(whole, pieces, strict=True):
        assert_array_equal(a, b)


@pytest.mark.parametrize("n_merges", [0, 1, 3, 6])
def test_labels_after_merges_matches_naive(global_random_seed, n_merges):
    """Check the labelling by connected components against relabelling sets,
    numbered by first row."""
    rng = np.random.default_rng(global_random_seed)
    table = rng.integers(1, 30, (7, 3)).astype(float)
    kept, absorbed, _, height = chi2_merge_sequence(table)
    order = np.argsort(height, kind="stable")
    assert_array_equal(
        labels_after_merges(7, kept, absorbed, order, n_merges),
        naive_labels_after_merges(7, kept, absorbed, order, n_merges),
    )


def test_chi2_statistic_of_grouped_tables_matches_naive(global_random_seed):
    """Check the chi-square of merged tables against the naive twin."""
    rng = np.random.default_rng(global_random_seed)
    table = rng.integers(0, 30, (12, 4)).astype(float)
    ids = rng.integers(0, 4, 12)
    grouped = merge_rows(table, ids, 4)
    assert chi2_statistic(grouped)[0] == pytest.approx(
        naive_chi2_statistic(grouped)[0], rel=1e-10
    )


hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra.numpy import arrays  # noqa: E402

_tables = st.integers(2, 8).flatmap(
    lambda n: st.integers(2, 4).flatmap(
        lambda j: arrays(np.float64, (n, j), elements=st.integers(1, 60))
    )
)


@settings(max_examples=60, deadline=None)
@given(table=_tables, data=st.data())
def test_merging_rows_preserves_totals_and_commutes(table, data):
    """Check that merging rows keeps totals, in any order of the groups."""
    n = table.shape[0]
    ids = np.array(data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)))
    grouped = merge_rows(table, ids, 3)
    assert_allclose(grouped.sum(axis=0), table.sum(axis=0))
    perm = np.array(data.draw(st.permutations(range(n))))
    assert_allclose(merge_rows(table[perm], ids[perm], 3), grouped)


@settings(max_examples=200, deadline=None)
@given(
    weights=arrays(np.float64, st.integers(0, 30), elements=st.integers(0, 6)),
    n_kept=st.integers(0, 32),
)
def test_heaviest_is_the_sorted_prefix(weights, n_kept):
    """Check the cap's rule against a sort: the n_kept heaviest entries, ties to
    the lower index."""
    expected = np.zeros(len(weights), dtype=bool)
    expected[np.lexsort((np.arange(len(weights)), -weights))[:n_kept]] = True
    assert_array_equal(heaviest(weights, n_kept), expected)


@settings(max_examples=60, deadline=None)
@given(table=_tables)
def test_merging_never_raises_chi2_and_identical_profiles_cost_nothing(table):
    """Check that any merge lowers chi2 by DeltaChi2 >= 0, and by 0 for two rows
    with proportional class counts."""
    before = chi2_statistic(table)[0]
    merged = merge_rows(
        table, np.r_[0, np.arange(table.shape[0] - 1)], table.shape[0] - 1
    )
    assert chi2_statistic(merged)[0] <= before + 1e-9 * max(1.0, before)
    proportional = np.vstack([table, 3 * table[:1]])
    grouped = merge_rows(
        proportional, np.r_[np.arange(table.shape[0]), 0], table.shape[0]
    )
    assert chi2_statistic(grouped)[0] == pytest.approx(
        chi2_statistic(proportional)[0], rel=1e-9, abs=1e-9
    )


@pytest.mark.skipif(
    not hasattr(numba.config, "CACHE_LOCATOR_CLASSES"),
    reason="simulated through NUMBA_CACHE_LOCATOR_CLASSES, which this numba lacks",
)
def test_import_without_writable_cache_folder_warns_and_works():
    """Check that without any writable numba cache folder (simulated by allowing
    only numba's zip-file locator) partikit still imports and fits, compiling
    without the disk cache, and says how to get one."""
    import os
    import subprocess
    import sys

    code = (
        "import numpy as np\n"
        "from partikit._kernels._config import NJIT\n"
        "from partikit._statistics._contingency import build_table\n"
        "assert NJIT['cache'] is False\n"
        "table = build_table(np.array([0, 1, -1]), np.array([0, 1, 1]), None, 3, 2)\n"
        "assert table.sum() == 3\n"
    )
    env = dict(os.environ, NUMBA_CACHE_LOCATOR_CLASSES="ZipCacheLocator")
    env.pop("NUMBA_CACHE_DIR", None)
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert "NUMBA_CACHE_DIR" in result.stderr


@pytest.mark.parametrize("n_rows", [5, 255, 256, 3000])
def test_merge_rows_sums_in_row_order_on_both_sides_of_the_sparse_size(n_rows):
    """Check that small tables (np.add.at) and large ones (sparse product) get the
    sums of the naive row-order loop, bit for bit, with float weights."""
    rng = np.random.default_rng(n_rows)
    table = rng.random((n_rows, 3)) * rng.integers(1, 50, (n_rows, 1))
    ids = rng.integers(0, 4, n_rows)
    expected = np.zeros((4, 3))
    for row, group in zip(table, ids, strict=True):
        expected[group] += row
    assert_array_equal(merge_rows(table, ids, 4), expected)
