# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""partikit: supervised partitioning for scikit-learn.

Learn from a classification target how to group the categories of categorical
attributes, how to cut numeric attributes into intervals and which attributes to
combine, encode the attributes by those groups and intervals, and grow decision
trees whose splits are exactly those partitions.
"""

import warnings

from partikit._counting._column_tables import ColumnTables, JointTable, column_tables
from partikit._kernels._config import NJIT
from partikit._reporting._encoder import PartitionEncoder
from partikit._reporting._report import Report, report
from partikit._reporting._scorecard import Scorecard
from partikit._version import __version__
from partikit.discretizers import (
    BlockOptDiscretizer,
    KhiopsDiscretizer,
    MDLPDiscretizer,
    MODLDiscretizer,
)
from partikit.groupers import (
    AttributeAggregator,
    CHAIDGrouper,
    KhiopsGrouper,
    MaxCutGrouper,
    MODLGrouper,
)
from partikit.tree import PartitionTreeClassifier, PartitionTreeRegressor

if not NJIT["cache"]:
    warnings.warn(
        "numba has no writable folder to cache partikit's compiled kernels in, so "
        "every new process compiles them again (seconds at its first fit). Set the "
        "environment variable NUMBA_CACHE_DIR to a writable folder to keep them.",
        RuntimeWarning,
        stacklevel=2,
    )

__all__ = [
    "AttributeAggregator",
    "BlockOptDiscretizer",
    "CHAIDGrouper",
    "ColumnTables",
    "JointTable",
    "KhiopsDiscretizer",
    "KhiopsGrouper",
    "MDLPDiscretizer",
    "MODLDiscretizer",
    "MODLGrouper",
    "MaxCutGrouper",
    "PartitionEncoder",
    "PartitionTreeClassifier",
    "PartitionTreeRegressor",
    "Report",
    "Scorecard",
    "__version__",
    "column_tables",
    "report",
]
