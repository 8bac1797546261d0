# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Supervised grouping of the categories of categorical attributes."""

from partikit.groupers._aggregation import AttributeAggregator
from partikit.groupers._bipartition import BIPARTITIONS, Bipartition
from partikit.groupers._chaid import CHAIDGrouper, chaid_feature_ranking
from partikit.groupers._khiops import KhiopsGrouper
from partikit.groupers._max_cut import MaxCutGrouper, edge_weights, max_cut_bipartition

__all__ = [
    "AttributeAggregator",
    "BIPARTITIONS",
    "Bipartition",
    "CHAIDGrouper",
    "KhiopsGrouper",
    "MaxCutGrouper",
    "chaid_feature_ranking",
    "edge_weights",
    "max_cut_bipartition",
]
