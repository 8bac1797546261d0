# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""partikit: supervised partitioning for scikit-learn.

Learn from a classification target how to group the categories of categorical
attributes, how to cut numeric attributes into intervals and which attributes to
combine, encode the attributes by those groups and intervals, and grow decision
trees whose splits are exactly those partitions.
"""

from partikit._version import __version__
from partikit.discretizers import (
    BlockOptDiscretizer,
    KhiopsDiscretizer,
    MDLPDiscretizer,
)
from partikit.groupers import (
    AttributeAggregator,
    CHAIDGrouper,
    KhiopsGrouper,
    MaxCutGrouper,
)
from partikit.tree import PartitionTreeClassifier

__all__ = [
    "AttributeAggregator",
    "BlockOptDiscretizer",
    "CHAIDGrouper",
    "KhiopsDiscretizer",
    "KhiopsGrouper",
    "MDLPDiscretizer",
    "MaxCutGrouper",
    "PartitionTreeClassifier",
    "__version__",
]
