# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The 0.1 names of renamed parameters: each warns and means what it meant.

Every estimator lists its renames in ``_renamed_parameters``; for each, a fit
with the 0.1 name (and a 0.1 value) raises a ``FutureWarning`` naming the new
parameter and learns what the new name with the converted value learns. The
cores and the inspection methods take their 0.1 keywords the same way.
"""

import warnings

import numpy as np
import pytest

from partikit import (
    AttributeAggregator,
    BlockOptDiscretizer,
    CHAIDGrouper,
    KhiopsDiscretizer,
    KhiopsGrouper,
    PartitionTreeClassifier,
)
from partikit.datasets import (
    make_grouped_categorical,
    make_interval_target,
    make_k_of_n,
)
from partikit.discretizers import khiops_discretization, optimal_multisplit
from partikit.groupers import chaid_grouping, khiops_grouping
from partikit.tree import export_text

#: (estimator, 0.1 parameter, a 0.1 value, the 0.2 value it means)
OLD_VALUES = [
    (KhiopsGrouper, "p", 0.9, 0.1),
    (KhiopsGrouper, "max_categories", 12, 12),
    (CHAIDGrouper, "max_categories", 12, 12),
    (KhiopsDiscretizer, "p", 0.99, 0.01),
    (KhiopsDiscretizer, "min_frequency", 40, 40),
    (KhiopsDiscretizer, "max_candidates", 50, 50),
    (BlockOptDiscretizer, "max_candidates", 50, 50),
    (PartitionTreeClassifier, "chi2_alpha", 0.01, 0.01),
    (PartitionTreeClassifier, "chi2_alpha", None, 1.0),
    (AttributeAggregator, "alpha", 1.0, 1.0),
]


def _data(estimator_class):
    if estimator_class in (KhiopsDiscretizer, BlockOptDiscretizer):
        X, y, _ = make_interval_target(n_samples=3000, random_state=0)
        return X, y
    if estimator_class is AttributeAggregator:
        X, y = make_k_of_n(n_samples=2000, random_state=0)[:2]
        return X, y
    X, y, _ = make_grouped_categorical(
        n_samples=3000, n_categories=40, n_classes=3, n_groups=4, random_state=0
    )
    return X, y


def _learned(estimator):
    """What a fitted estimator learned, comparable with ==."""
    if isinstance(estimator, PartitionTreeClassifier):
        return repr(export_text(estimator))
    if isinstance(estimator, AttributeAggregator):
        return repr(estimator.aggregates_)
    if hasattr(estimator, "bin_edges_"):
        return repr([edges.tolist() for edges in estimator.bin_edges_])
    return repr([ids.tolist() for ids in estimator.group_ids_])


def _new_name(estimator_class, old):
    (renamed,) = [r for r in estimator_class._renamed_parameters if r.old == old]
    return renamed.new


def test_every_rename_is_tested():
    """Check that the table above covers every estimator's renames."""
    covered = {(cls, old) for cls, old, _, _ in OLD_VALUES}
    for cls in {cls for cls, _, _, _ in OLD_VALUES}:
        for renamed in cls._renamed_parameters:
            assert (cls, renamed.old) in covered


@pytest.mark.parametrize(
    "estimator_class, old, old_value, new_value",
    OLD_VALUES,
    ids=lambda value: getattr(value, "__name__", str(value)),
)
def test_a_0_1_name_warns_and_means_the_same(
    estimator_class, old, old_value, new_value
):
    """Check the FutureWarning and that the fit equals the new name's."""
    X, y = _data(estimator_class)
    extra = {"search": "pairs"} if estimator_class is AttributeAggregator else {}
    new = _new_name(estimator_class, old)
    with pytest.warns(FutureWarning, match=f"'{old}' was renamed '{new}'"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            with_old = estimator_class(**{old: old_value}, **extra).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with_new = estimator_class(**{new: new_value}, **extra).fit(X, y)
    assert _learned(with_old) == _learned(with_new)
    # the 0.1 value stays what the user set: get_params and clone are unchanged
    assert with_old.get_params()[old] == old_value


def test_the_new_names_do_not_warn():
    """Check that an estimator set with 0.2 names only fits without a warning."""
    X, y = _data(KhiopsGrouper)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        KhiopsGrouper(alpha=0.1, exact_limit=12).fit(X, y)


def test_the_cores_take_their_0_1_keywords():
    """Check the cores' renamed keywords: a warning and the same result."""
    rng = np.random.default_rng(0)
    table = rng.integers(0, 30, size=(40, 3)).astype(float)
    values = np.cumsum(rng.integers(0, 20, size=(200, 2)), axis=0) % 17.0
    pairs = [
        (khiops_grouping, table, {"p": 0.9}, {"alpha": 0.1}),
        (khiops_grouping, table, {"max_categories": 10}, {"exact_limit": 10}),
        (chaid_grouping, table, {"max_categories": 10}, {"exact_limit": 10}),
        (khiops_discretization, values, {"p": 0.9}, {"alpha": 0.1}),
        (khiops_discretization, values, {"min_frequency": 9}, {"min_bin_size": 9}),
        (khiops_discretization, values, {"max_candidates": 20}, {"exact_limit": 20}),
        (optimal_multisplit, values, {"max_candidates": 20}, {"exact_limit": 20}),
    ]
    for core, data, old, new in pairs:
        with pytest.warns(FutureWarning, match="was renamed"):
            with_old = core(data, **old)
        with_new = core(data, **new)
        if hasattr(with_new, "group_ids"):
            np.testing.assert_array_equal(with_old.group_ids, with_new.group_ids)
        elif hasattr(with_new, "intervals"):
            np.testing.assert_array_equal(with_old.cuts[-1], with_new.cuts[-1])
        else:
            np.testing.assert_array_equal(with_old.cuts, with_new.cuts)
    with pytest.raises(TypeError, match="got both 'p' and 'alpha'"):
        khiops_grouping(table, p=0.9, alpha=0.1)


def test_max_members_takes_its_0_1_name():
    """Check partition_table's and export_text's max_categories keyword."""
    X, y = _data(KhiopsGrouper)
    grouper = KhiopsGrouper().fit(X, y)
    with pytest.warns(FutureWarning, match="'max_categories' was renamed"):
        old = grouper.partition_table(0, max_categories=2)
    assert old.equals(grouper.partition_table(0, max_members=2))
    tree = PartitionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    with pytest.warns(FutureWarning, match="'max_categories' was renamed"):
        text = export_text(tree, max_categories=3)
    assert text == export_text(tree, max_members=3)
