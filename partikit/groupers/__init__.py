# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Supervised grouping of the categories of categorical attributes.

The estimators, and the pure cores they call on a contingency table (categories x
classes), which the decision tree calls on the table of each node.

Examples
--------
The binary-partition methods are reached by name:

>>> from partikit.groupers import BIPARTITIONS
>>> table = [[4, 0, 1], [0, 3, 1], [2, 2, 0], [1, 0, 3]]
>>> BIPARTITIONS["pc_ext"](table).group_ids
array([0, 1, 1, 0])
>>> round(BIPARTITIONS["maxcut_chi2"](table).criterion, 4)
6.9694
"""

from partikit.groupers._aggregation import AttributeAggregator
from partikit.groupers._bipartition import BIPARTITIONS, sort_by_mean
from partikit.groupers._chaid import (
    CHAIDGrouper,
    chaid_feature_ranking,
    chaid_grouping,
)
from partikit.groupers._khiops import KhiopsGrouper, khiops_grouping
from partikit.groupers._max_cut import (
    MaxCutGrouper,
    edge_weights,
    max_cut_bipartition,
    split_cut_weights,
)
from partikit.groupers._modl import MODLGrouper, modl_grouping

__all__ = [
    # estimators
    "AttributeAggregator",
    "CHAIDGrouper",
    "KhiopsGrouper",
    "MODLGrouper",
    "MaxCutGrouper",
    "chaid_feature_ranking",
    # table-level cores
    "BIPARTITIONS",
    "chaid_grouping",
    "edge_weights",
    "khiops_grouping",
    "max_cut_bipartition",
    "modl_grouping",
    "sort_by_mean",
    "split_cut_weights",
]
