# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""partikit: supervised partitioning for scikit-learn.

Learn from a classification target how to group the categories of categorical
attributes, and encode the attributes by those groups.
"""

from partikit._version import __version__
from partikit.groupers import CHAIDGrouper, KhiopsGrouper, MaxCutGrouper

__all__ = ["CHAIDGrouper", "KhiopsGrouper", "MaxCutGrouper", "__version__"]
