# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Utilities for partikit's users and its test-suite."""

from partikit.utils.discovery import all_estimators

__all__ = ["all_estimators"]
