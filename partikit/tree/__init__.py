# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""A light decision tree whose splits are partikit's partitions."""

from partikit.tree._classes import PartitionTreeClassifier, PartitionTreeRegressor
from partikit.tree._export import export_text
from partikit.tree._splitters import SPLITTERS

__all__ = [
    "SPLITTERS",
    "PartitionTreeClassifier",
    "PartitionTreeRegressor",
    "export_text",
]
