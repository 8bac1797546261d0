# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The result records of the cores: one family, the same field names.

Every table-level core of ``partikit.groupers`` and ``partikit.discretizers``
that returns a partition returns a :class:`Grouping`, an :class:`Intervals` or a
:class:`Multisplit` (whose ``intervals(k)`` are :class:`Intervals`), with a
finite float ``criterion``; so do the estimators' ``group_table`` and
``cut_table`` and the tree's splitters.
"""

import inspect
import math
import warnings

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from partikit import discretizers, groupers
from partikit._statistics._results import Grouping, Intervals, Multisplit
from partikit.tree._splitters import SPLITTERS

#: The functions of the two namespaces that return no partition.
NOT_PARTITIONS = {
    "boundary_points",  # candidate cut positions
    "chaid_feature_ranking",  # a DataFrame of columns
    "choose_arity",  # a number of intervals and scores
    "edge_weights",  # a graph's weights
    "mdl_code_length",  # a code length
    "split_cut_weights",  # the weight of every threshold
}


def _values(table):
    return np.arange(len(table), dtype=float) * 0.5 - 1.0


def _two_class_moments(table):
    """A two-class table as the moment table of the target ``y`` = class 1."""
    table = np.asarray(table, dtype=float)
    return np.column_stack([table.sum(axis=1), table[:, 1], table[:, 1]])


#: How to call each partition core on a table, and the record it returns.
CORES = {
    "khiops_grouping": (groupers.khiops_grouping, Grouping),
    "chaid_grouping": (groupers.chaid_grouping, Grouping),
    "modl_grouping": (groupers.modl_grouping, Grouping),
    "max_cut_bipartition": (groupers.max_cut_bipartition, Grouping),
    "sort_by_mean": (
        lambda table: groupers.sort_by_mean(_two_class_moments(table)),
        Grouping,
    ),
    **{
        f"BIPARTITIONS[{name!r}]": (method, Grouping)
        for name, method in groupers.BIPARTITIONS.items()
    },
    "mdlp_discretization": (discretizers.mdlp_discretization, Intervals),
    "modl_discretization": (discretizers.modl_discretization, Intervals),
    "khiops_discretization": (discretizers.khiops_discretization, Intervals),
    "max_cut_threshold": (
        lambda table: discretizers.max_cut_threshold(_values(table), table),
        Intervals,
    ),
    "optimal_multisplit": (
        lambda table: discretizers.optimal_multisplit(table, max_bins=4),
        Multisplit,
    ),
}

TABLES = [
    np.array([[6.0, 0.0], [5.0, 1.0], [0.0, 7.0], [1.0, 5.0], [4.0, 0.0]]),
    np.array([[6.0, 0.0], [0.0, 0.0], [0.0, 7.0], [2.0, 2.0]]),  # an empty row
    np.array([[2.0, 1.0], [4.0, 2.0], [2.0, 1.0]]),  # one class profile
    np.array([[3.0, 1.0]]),
    np.zeros((0, 2)),
]


def _core_names(namespace):
    for name in namespace.__all__:
        obj = getattr(namespace, name)
        if name == "BIPARTITIONS":
            yield from (f"BIPARTITIONS[{method!r}]" for method in obj)
        elif inspect.isfunction(obj) and name not in NOT_PARTITIONS:
            yield name


def test_every_partition_core_is_checked():
    """Check that the cores called here are those the namespaces export: a new
    core must be added to CORES (or to NOT_PARTITIONS)."""
    exported = {*_core_names(groupers), *_core_names(discretizers)}
    assert exported == set(CORES)


def _check_grouping(result, table):
    assert isinstance(result, Grouping)
    ids = result.group_ids
    assert ids.dtype == np.intp and ids.shape == (len(table),)
    assert_array_equal(ids < 0, table.sum(axis=1) == 0)
    present = ids[ids >= 0]
    assert result.n_groups == len(np.unique(present))
    if len(present):  # numbered by first row
        _, first = np.unique(present, return_index=True)
        assert_array_equal(present[np.sort(first)], np.arange(result.n_groups))
    assert isinstance(result.rare_group, int) and result.rare_group < result.n_groups
    assert isinstance(result.pooled, bool)
    assert isinstance(result.statistics, dict)
    _check_criterion(result)


def _check_intervals(result, table):
    assert isinstance(result, Intervals)
    cuts = result.cuts
    assert cuts.dtype == np.intp and cuts.ndim == 1
    assert np.all(np.diff(cuts) > 0)
    assert np.all((cuts > 0) & (cuts < len(table)))
    assert result.n_bins == (len(cuts) + 1 if len(table) else 0)
    if result.thresholds is not None:
        assert result.thresholds.dtype == np.float64
        assert result.thresholds.shape == cuts.shape
    assert isinstance(result.statistics, dict)
    _check_criterion(result)


def _check_criterion(result):
    assert isinstance(result.criterion, float)
    assert math.isfinite(result.criterion)


@pytest.mark.parametrize("name", sorted(CORES))
def test_every_core_returns_a_record_with_a_finite_criterion(name):
    core, record = CORES[name]
    for table in TABLES:
        if name.startswith("khiops") and len(table) == 0:
            continue  # the Khiops cores need a row
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            result = core(table)
        assert isinstance(result, record)
        if record is Grouping:
            _check_grouping(result, table)
        elif record is Intervals:
            _check_intervals(result, table)
        else:
            assert isinstance(result.impurity, str)
            for k in range(1, len(result.cuts) + 1):
                intervals = result.intervals(k)
                _check_intervals(intervals, table)
                assert_array_equal(intervals.cuts, result.cuts[k - 1])


def test_bipartitions_have_two_groups_or_one():
    table = TABLES[0]
    for method in groupers.BIPARTITIONS.values():
        result = method(table)
        assert result.n_groups == 2
        assert set(result.group_ids.tolist()) == {0, 1}
        assert result.group_ids[0] == 0
        assert isinstance(result.statistics["impurity"], float)


def test_multisplit_intervals_criterion_is_the_impurity_decrease():
    table = TABLES[0]
    result = discretizers.optimal_multisplit(table, max_bins=3)
    assert result.impurity == "entropy"
    total = table.sum()
    for k in range(1, len(result.cuts) + 1):
        decrease = (result.values[0] - result.values[k - 1]) / total
        assert result.intervals(k).criterion == pytest.approx(decrease)
    assert result.intervals(1).criterion == 0.0
    with pytest.raises(ValueError, match="k must be"):
        result.intervals(len(result.cuts) + 1)


def _estimators(namespace, method):
    for name in namespace.__all__:
        obj = getattr(namespace, name)
        if inspect.isclass(obj) and hasattr(obj, method):
            yield obj


@pytest.mark.filterwarnings("ignore:its 3 values were merged:UserWarning")
@pytest.mark.parametrize(
    "estimator",
    [*_estimators(groupers, "group_table"), *_estimators(discretizers, "cut_table")],
    ids=lambda cls: cls.__name__,
)
def test_estimators_core_calls_return_records(estimator):
    """Check ``group_table`` and ``cut_table`` on tables of several rows (and
    ``cut_table`` on one row, which it answers without its core)."""
    instance = estimator()
    for table in TABLES[:4]:
        if hasattr(instance, "group_table"):
            _check_grouping(instance.group_table(table), table)
        else:
            table = table[table.sum(axis=1) > 0]
            _check_intervals(instance.cut_table(table), table)


@pytest.mark.parametrize("name", sorted(SPLITTERS["categorical"]))
def test_categorical_splitters_return_groupings(name):
    table = TABLES[0]
    split = SPLITTERS["categorical"][name](table, "gini")
    _check_grouping(split, table)
    # the binary methods split this table; Khiops's minimum frequency merges it
    assert split.n_groups == (1 if name == "khiops" else 2)


@pytest.mark.parametrize("name", sorted(SPLITTERS["numeric"]))
def test_numeric_splitters_return_intervals_with_thresholds(name):
    table = TABLES[0]
    values = _values(table)
    split = SPLITTERS["numeric"][name](values, table, "gini", 1.0, 3)
    _check_intervals(split, table)
    assert len(split.cuts) >= 1
    # the thresholds are halfway between the values on each side of each cut
    assert_array_equal(
        split.thresholds, (values[split.cuts - 1] + values[split.cuts]) / 2
    )
    no_split = SPLITTERS["numeric"][name](values[:1], table[:1], "gini", 1.0, 3)
    _check_intervals(no_split, table[:1])
    assert len(no_split.thresholds) == 0 and no_split.n_bins == 1


def test_the_names_of_0_1_warn_and_still_answer():
    """Check the deprecated attributes of the bipartitions' and max-cut
    threshold's results of 0.1: a FutureWarning, and the value they had."""
    table = TABLES[0]
    split = groupers.BIPARTITIONS["pc_ext"](table)
    with pytest.warns(FutureWarning, match="group_ids == 0"):
        left = split.left
    assert_array_equal(left, [True, True, False, False, True])
    with pytest.warns(FutureWarning, match="impurity"):
        assert split.impurity == split.statistics["impurity"]
    with pytest.raises(AttributeError, match="impurity"):
        groupers.khiops_grouping(table).impurity  # noqa: B018

    values = np.array([1.0, 2.0, 4.0, 7.0, 8.0])
    result = discretizers.max_cut_threshold(
        values, [[1, 0], [1, 1], [1, 0], [0, 1], [0, 1]]
    )
    with pytest.warns(FutureWarning, match="thresholds"):
        assert result.threshold == 5.5
    with pytest.warns(FutureWarning, match="criterion"):
        assert result.value == 31.0
    with pytest.warns(FutureWarning, match="cuts"):
        assert result.n_left == 3
    with pytest.warns(FutureWarning, match="candidate_metrics"):
        assert_array_equal(result.values, [14.0, 26.0, 31.0, 17.0])
    none = discretizers.max_cut_threshold(values[:1], [[1, 1]])
    with pytest.warns(FutureWarning):
        assert math.isnan(none.threshold)
    with pytest.warns(FutureWarning):
        assert none.n_left == 0
    with pytest.raises(AttributeError, match="values"):
        discretizers.mdlp_discretization(table).values  # noqa: B018
