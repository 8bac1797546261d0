# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Supervised grouping of the categories of categorical attributes."""

from partikit.groupers._chaid import CHAIDGrouper, chaid_feature_ranking
from partikit.groupers._khiops import KhiopsGrouper

__all__ = ["CHAIDGrouper", "KhiopsGrouper", "chaid_feature_ranking"]
