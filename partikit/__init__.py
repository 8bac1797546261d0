# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""partikit: supervised partitioning for scikit-learn.

Learn from a classification target how to group the categories of categorical
attributes and how to cut numeric attributes into intervals, and encode the
attributes by those groups and intervals.
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

__all__ = [
    "AttributeAggregator",
    "BlockOptDiscretizer",
    "CHAIDGrouper",
    "KhiopsDiscretizer",
    "KhiopsGrouper",
    "MDLPDiscretizer",
    "MaxCutGrouper",
    "__version__",
]
