"""Huge and tiny sample weights: a clear error past the bounds, a valid fit within.

Issue 35, item 1: weights of 1e200 made KhiopsGrouper segfault (a NaN merge cost
left the best merge at -1), KhiopsDiscretizer read garbage indices, MaxCutGrouper
returned an empty group and the tree one leaf. The cases that crashed the
process run in a subprocess.
"""

import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest

from partikit._counting._validation import MAX_TOTAL_WEIGHT, MIN_TOTAL_WEIGHT
from partikit.utils import all_estimators

N_ROWS = 200
GROUPERS = {
    "AttributeAggregator",
    "CHAIDGrouper",
    "KhiopsGrouper",
    "MODLGrouper",
    "MaxCutGrouper",
}
MIXED = {
    "PartitionEncoder",
    "PartitionTreeClassifier",
    "PartitionTreeRegressor",
    "Scorecard",
}
#: Estimators whose partition does not change when every weight is multiplied by
#: a power of two (the exact scaling): max-cut maximises a sum of products of
#: masses, all scaled alike.
SCALE_INVARIANT = {"MaxCutGrouper"}


def _data(name):
    rng = np.random.default_rng(0)
    category = rng.integers(0, 8, N_ROWS)
    y = (rng.random(N_ROWS) < 0.2 + 0.08 * category).astype(int)
    number = category + rng.normal(size=N_ROWS)
    if name in GROUPERS:
        X = np.c_[category.astype(str), (category % 3).astype(str)].astype(object)
    elif name in MIXED:
        X = pd.DataFrame({"c": category.astype(str), "x": number})
    else:
        X = number.reshape(-1, 1)
    if name == "PartitionTreeRegressor":
        y = 2.0 * number + rng.normal(size=N_ROWS)
    return X, y


def _partition(estimator, X):
    if hasattr(estimator, "apply"):  # the trees: their leaves
        return np.asarray(estimator.apply(X), dtype=np.float64)
    if not hasattr(estimator, "transform"):  # the scorecard: its points
        return np.asarray(estimator.predict(X), dtype=np.float64)
    output = estimator.transform(X)
    output = output.toarray() if hasattr(output, "toarray") else np.asarray(output)
    return np.asarray(output, dtype=np.float64)


ESTIMATORS = sorted(all_estimators())


@pytest.mark.parametrize("name, cls", ESTIMATORS, ids=[n for n, _ in ESTIMATORS])
def test_weights_at_the_bounds_fit(name, cls):
    X, y = _data(name)
    for total in (MAX_TOTAL_WEIGHT, MIN_TOTAL_WEIGHT):
        weights = np.full(N_ROWS, total / N_ROWS)
        # (rounding may put the sum a hair past the bound)
        weights *= total / weights.sum() * (1 - 1e-12 if total > 1 else 1 + 1e-12)
        estimator = cls().fit(X, y, sample_weight=weights)
        output = _partition(estimator, X)
        assert np.isfinite(output).all()
        if name in SCALE_INVARIANT and total > 1:
            scaled = cls().fit(X, y, sample_weight=weights / 2.0**40)
            np.testing.assert_array_equal(_partition(scaled, X), output)


@pytest.mark.parametrize("name, cls", ESTIMATORS, ids=[n for n, _ in ESTIMATORS])
@pytest.mark.parametrize("total", [2 * MAX_TOTAL_WEIGHT, 1e300, MIN_TOTAL_WEIGHT / 2])
def test_weights_past_the_bounds_raise(name, cls, total):
    X, y = _data(name)
    weights = np.full(N_ROWS, total / N_ROWS)
    with pytest.raises(ValueError, match=r"sample_weight sums to .* a constant"):
        cls().fit(X, y, sample_weight=weights)


@pytest.mark.parametrize("weight", [1e300, 1e308, 1e-310])
def test_extreme_single_weights(weight):
    """Every weight finite but the sum overflows, or a subnormal weight."""
    from partikit import KhiopsGrouper

    X, y = _data("KhiopsGrouper")
    weights = np.full(N_ROWS, weight)
    with pytest.raises(ValueError, match="sample_weight sums to"):
        KhiopsGrouper().fit(X, y, sample_weight=weights)


def test_subnormal_weights_among_normal_ones():
    """A few subnormal weights next to ordinary ones: a valid fit."""
    for name, cls in ESTIMATORS:
        X, y = _data(name)
        weights = np.ones(N_ROWS)
        weights[:20] = 1e-310
        assert np.isfinite(_partition(cls().fit(X, y, sample_weight=weights), X)).all()


def _run(code):
    """Run code in a fresh interpreter: a segfault must not end the test run."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=600,
    )


ISSUE_CASES = {
    "KhiopsGrouper": ("KhiopsGrouper", "categories", 1e200),
    "KhiopsDiscretizer": ("KhiopsDiscretizer", "numbers", 1e200),
    "MaxCutGrouper": ("MaxCutGrouper", "categories", 1e100),
    "tree": ("PartitionTreeClassifier", "numbers", 1e306),
}


@pytest.mark.parametrize("case", sorted(ISSUE_CASES))
def test_issue_cases_raise_a_clear_error(case):
    name, kind, weight = ISSUE_CASES[case]
    result = _run(
        f"""
        import numpy as np
        import partikit
        rng = np.random.default_rng(0)
        category = rng.integers(0, 12, 600)
        y = (rng.random(600) < 0.2 + 0.05 * category).astype(int)
        if {kind!r} == "categories":
            X = category.astype(str).reshape(-1, 1).astype(object)
        else:
            X = (category + rng.normal(size=600)).reshape(-1, 1)
        try:
            partikit.{name}().fit(X, y, sample_weight=np.full(600, {weight!r}))
        except ValueError as error:
            print("ValueError:", error)
        """
    )
    assert result.returncode == 0, result.stderr
    assert "ValueError: sample_weight sums to" in result.stdout
    assert "divide the weights by a constant" in result.stdout


@pytest.mark.parametrize("kind", ["grouping", "discretization"])
def test_khiops_kernels_never_index_by_a_missing_merge(kind):
    """The cores called on a table whose counts overflow (no estimator check)."""
    result = _run(
        f"""
        import numpy as np
        from partikit.groupers._khiops import khiops_grouping
        from partikit.discretizers._khiops import khiops_discretization
        rng = np.random.default_rng(0)
        table = rng.integers(1, 60, size=(300, 2)).astype(float) * 1e200
        try:
            khiops_{kind}(table)
        except ValueError as error:
            print("ValueError:", error)
        """
    )
    assert result.returncode == 0, result.stderr
    assert "ValueError: the merge costs are not finite" in result.stdout


def test_modl_post_optimisation_stops_near_the_bound():
    """At 1.67e47 per row a rounding cycle of moves kept MODL looping for ever."""
    from partikit import MODLDiscretizer

    rng = np.random.default_rng(0)
    category = rng.integers(0, 12, 600)
    y = (rng.random(600) < 0.2 + 0.05 * category).astype(int)
    X = (category + rng.normal(size=600)).reshape(-1, 1)
    weights = np.full(600, MAX_TOTAL_WEIGHT / 600)
    discretizer = MODLDiscretizer().fit(X, y, sample_weight=weights)
    assert discretizer.n_bins_[0] >= 1


@pytest.mark.parametrize("name", ["KhiopsGrouper", "MODLDiscretizer"])
def test_partial_fit_chunks_summing_past_the_bound_raise(name):
    """Each chunk's weight is within the bound, their sum is not."""
    cls = dict(ESTIMATORS)[name]
    X, y = _data(name)
    weights = np.full(N_ROWS, 0.6 * MAX_TOTAL_WEIGHT / N_ROWS)
    estimator = cls().partial_fit(X, y, sample_weight=weights)
    with pytest.raises(ValueError, match="weight of the tables fitted"):
        estimator.partial_fit(X, y, sample_weight=weights)
