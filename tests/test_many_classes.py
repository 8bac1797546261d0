"""Targets of many classes: one memory budget for a fit (issue 35, item 5).

An integer y of 12,000 distinct values on 50,000 rows made every grouper and
discretizer allocate gigabytes (tables of values x classes, each under the
former per-column limit, and the working arrays of stage 2), and the command
line ran until the system killed it. Every table of a fit, and stage 2's
working arrays, are now checked against one budget (``MAX_FIT_CELLS``) before
they are allocated, and refused with a ``TableSizeError`` naming the sizes
and the ways out; ``max_values`` pools a numeric column before its table is
counted, so it is one of them.
"""

import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

import partikit._counting._validation as validation
from partikit import column_tables
from partikit._counting._column_tables import count_numeric, pool_values
from partikit._counting._validation import TableBudget, TableSizeError
from partikit.discretizers import (
    BlockOptDiscretizer,
    KhiopsDiscretizer,
    MDLPDiscretizer,
    MODLDiscretizer,
)
from partikit.groupers import CHAIDGrouper, KhiopsGrouper, MaxCutGrouper, MODLGrouper

GROUPERS = [KhiopsGrouper, CHAIDGrouper, MaxCutGrouper, MODLGrouper]
DISCRETIZERS = [
    MDLPDiscretizer,
    KhiopsDiscretizer,
    BlockOptDiscretizer,
    MODLDiscretizer,
]


def _many_classes(n=2000, n_values=300, n_classes=400, seed=0):
    """Three columns of ``n_values`` values each and y of ``n_classes`` classes."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    categorical = pd.DataFrame(
        {f"c{j}": rng.integers(0, n_values, n).astype(str) for j in range(3)}
    )
    numeric = pd.DataFrame(
        {f"x{j}": rng.integers(0, n_values, n) / 7 for j in range(3)}
    )
    return categorical, numeric, y


@pytest.fixture
def small_budget(monkeypatch):
    """Set a budget that a column of ``_many_classes`` fits alone, its three
    columns not: a table takes at most 301 x 400 = 120,400 cells; a grouper
    adds a working copy of it and MaxCut its graph of 2 x 300 x 300 cells."""

    def set_budget(Estimator):
        cells = 450_000 if Estimator in GROUPERS else 300_000
        monkeypatch.setattr(validation, "MAX_FIT_CELLS", cells)

    return set_budget


@pytest.mark.parametrize("Estimator", GROUPERS + DISCRETIZERS, ids=lambda c: c.__name__)
def test_the_tables_of_a_fit_share_one_budget(small_budget, Estimator):
    """Check that columns each under the budget but past it together are
    refused, naming every table's size and the ways out."""
    small_budget(Estimator)
    categorical, numeric, y = _many_classes()
    X = categorical if Estimator in GROUPERS else numeric
    with pytest.raises(TableSizeError) as error:
        Estimator().fit(X, y)
    message = str(error.value)
    assert f"{len(np.unique(y))} classes" in message
    assert "target_type='continuous'" in message
    assert "group the classes of y" in message
    for name in X.columns:
        assert f"{name!r}: " in message
    assert ("max_values" in message) == (Estimator in DISCRETIZERS)
    # each column alone fits
    Estimator().fit(X.iloc[:, :1], y)
    # a quantity: 3 columns per table, for the estimators that take one
    if "continuous" in Estimator._target_types:
        assert Estimator.__name__ in message
        Estimator(target_type="continuous").fit(X, y.astype(float))


@pytest.mark.parametrize("Discretizer", DISCRETIZERS, ids=lambda c: c.__name__)
def test_max_values_is_a_way_out(small_budget, Discretizer):
    """Check that max_values pools before counting, so the fit refused
    without it fits with it, and equals the fit of the pooled tables."""
    small_budget(Discretizer)
    _, numeric, y = _many_classes()
    with pytest.raises(TableSizeError, match="max_values"):
        Discretizer().fit(numeric, y)
    # (random classes: KhiopsDiscretizer warns that a column is one part)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        fitted = Discretizer(max_values=100).fit(numeric, y)
        expected = Discretizer(max_values=100).fit_tables(
            column_tables(numeric, y, max_values=100)
        )
    tables = column_tables(numeric, y, max_values=100)
    assert all(len(t) <= 101 for t in tables.tables)
    for a, b in zip(fitted.bin_edges_, expected.bin_edges_, strict=True):
        assert_array_equal(a, b)


def test_stage_two_working_arrays_count(monkeypatch):
    """Check that a grouper's pairwise matrix counts in the budget: tables
    that fit are refused when their working arrays would not."""
    categorical, _, y = _many_classes(n_classes=2)
    # tables: 3 x 301 x 2 cells; MaxCut's graph: 2 x 300 x 300 cells more
    monkeypatch.setattr(validation, "MAX_FIT_CELLS", 100_000)
    KhiopsGrouper().fit(categorical, y)
    with pytest.raises(TableSizeError, match="stage 2's working arrays"):
        MaxCutGrouper().fit(categorical, y)
    monkeypatch.setattr(validation, "MAX_FIT_CELLS", 200_000)
    MaxCutGrouper().fit(categorical, y)


def test_budget_is_thread_safe_and_named():
    budget = TableBudget(10, cells=100)
    budget.reserve(5, "a")
    budget.reserve(5, "b", numeric=True)
    with pytest.raises(TableSizeError, match=r"'c': 0 values x 10") as error:
        budget.reserve(1, "c")
    assert "max_values" in str(error.value) and "'b'" in str(error.value)


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(
        st.one_of(
            st.integers(-50, 50).map(float),
            st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False),
            st.just(np.nan),
        ),
        min_size=1,
        max_size=120,
    ),
    data=st.data(),
    max_values=st.integers(2, 40),
    weighted=st.booleans(),
)
def test_pooling_while_counting_equals_pooling_the_table(
    values, data, max_values, weighted
):
    """Check that count_numeric with max_values gives the table of pooling
    the full table (pool_values), bit for bit (integer weights)."""
    x = np.asarray(values, dtype=np.float64)
    n_classes = 3
    y = np.asarray(
        data.draw(st.lists(st.integers(0, 2), min_size=len(x), max_size=len(x)))
    )
    weight = None
    if weighted:
        weight = np.asarray(
            data.draw(st.lists(st.integers(0, 4), min_size=len(x), max_size=len(x))),
            dtype=np.float64,
        )
    values_full, table_full, upper_full = count_numeric(x, y, weight, n_classes)
    assert upper_full is None
    lower, upper, counts = pool_values(
        values_full, values_full, table_full[:-1], max_values
    )
    got_lower, got_table, got_upper = count_numeric(
        x, y, weight, n_classes, max_values=max_values
    )
    assert_array_equal(got_lower, lower)
    assert_array_equal(got_table[:-1], counts)
    assert_array_equal(got_table[-1], table_full[-1])
    if got_upper is None:  # not pooled: no more values than the cap
        assert len(values_full) <= max_values
        assert_array_equal(got_lower, values_full)
    else:
        assert_array_equal(got_upper, upper)


def test_column_tables_pool_while_counting():
    """Check that column_tables(max_values=m) equals column_tables().pool(m)."""
    rng = np.random.default_rng(3)
    X = pd.DataFrame(
        {"x": rng.normal(size=5000).round(3), "c": rng.choice(list("abc"), 5000)}
    )
    X.loc[::17, "x"] = np.nan
    y = rng.integers(0, 5, 5000)
    pooled = column_tables(X, y, max_values=50, categorical_features=["c"])
    expected = column_tables(X, y, categorical_features=["c"]).pool(50)
    for name in ("values", "tables", "upper_values"):
        for a, b in zip(getattr(pooled, name), getattr(expected, name), strict=True):
            if a is None or b is None:
                assert a is None and b is None
            else:
                assert_array_equal(a, b)
    assert pooled.max_values == expected.max_values == 50


#: The peak resident memory of this process, in MiB: VmHWM, the peak of its
#: own memory (ru_maxrss keeps, after exec, the peak of the pytest process it
#: was forked from); ru_maxrss where there is no /proc.
_PEAK_FUNCTION = textwrap.dedent(
    """
    import resource, sys

    def peak():
        try:
            with open("/proc/self/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    """
)

#: Measures the peak memory of fits in a fresh process: the data's and the
#: imports', then after the fits.
_PEAK = _PEAK_FUNCTION + textwrap.dedent(
    """
    import numpy as np, pandas as pd
    import partikit.groupers as g, partikit.discretizers as d
    from partikit._counting._validation import TableSizeError

    rng = np.random.default_rng(0)
    case = sys.argv[1]
    if case == "classes":
        n = 50_000
        y = rng.integers(0, 12_000, n)
        cat = pd.DataFrame(
            {f"c{j}": rng.integers(0, 5000, n).astype(str) for j in range(3)}
        )
        num = pd.DataFrame({f"x{j}": rng.integers(0, 5000, n) / 7 for j in range(3)})
        base = peak()
        for name in sys.argv[2:]:
            est = getattr(g, name, None) or getattr(d, name)
            X = cat if hasattr(g, name) else num
            try:
                est().fit(X, y)
                print(name, "fitted")
            except TableSizeError:
                print(name, "refused")
    else:
        x = rng.normal(size=(1_000_000, 1))
        y = rng.integers(0, 500, 1_000_000)
        base = peak()
        d.MDLPDiscretizer(max_values=1000).fit(x, y)
        print("fitted")
    print("growth", peak() - base)
    """
)


def _run_peak(*args):
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, *args], capture_output=True, text=True,
        check=True, timeout=300,
    )  # fmt: skip
    lines = done.stdout.split("\n")
    growth = float(next(line for line in lines if line.startswith("growth")).split()[1])
    return lines, growth


def test_many_classes_are_refused_before_allocating():
    """Check the issue's case (12,000 classes, 50,000 rows, three columns):
    every estimator refuses it, and the process grows by less than the
    tables of one column would take (0.45 GiB): nothing is allocated."""
    names = [c.__name__ for c in GROUPERS + DISCRETIZERS]
    lines, growth = _run_peak("classes", *names)
    for name in names:
        assert f"{name} refused" in lines
    assert growth < 200  # MiB


def test_max_values_counts_a_million_floats_of_500_classes():
    """Check that 1,000,000 distinct floats x 500 classes (a table of 3.7 GiB)
    fit with max_values=1000 within far less memory than the table."""
    lines, growth = _run_peak("floats")
    assert "fitted" in lines
    assert growth < 1024  # MiB; the full table alone would take 3,815 MiB


def test_cli_stops_with_the_message(tmp_path):
    """Check that the command line refuses the issue's CSV quickly, with the
    sizes and the ways out, without a traceback and without growing."""
    rng = np.random.default_rng(0)
    n = 50_000
    frame = pd.DataFrame(
        {
            "c": rng.integers(0, 5000, n).astype(str),
            "k": [f"k{v}" for v in rng.integers(0, 5000, n)],
            "x": rng.normal(size=n).round(3),
            "y": rng.integers(0, 12_000, n),
        }
    )
    frame.to_csv(tmp_path / "classes.csv", index=False)
    code = _PEAK_FUNCTION + (
        "from partikit.__main__ import main\n"
        "status = main(sys.argv[1:])\n"
        "print(int(peak()))\n"
        "sys.exit(status)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "report", str(tmp_path / "classes.csv"),
         "--target", "y", "--out", str(tmp_path / "r.html")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "classes" in done.stderr and "--target-type continuous" in done.stderr
    assert "MAX_FIT_CELLS" in done.stderr
    assert not (tmp_path / "r.html").exists()
    # the process (interpreter, imports, the CSV) stays under 1 GiB
    assert int(done.stdout.split()[-1]) < 1024
