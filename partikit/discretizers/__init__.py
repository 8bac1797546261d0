# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Supervised discretization: cut numeric attributes into intervals.

The estimators, and the pure cores they call on a value table (class counts of
each distinct value, in value order), which the decision tree calls on the value
table of each node.
"""

from partikit.discretizers._block_opt import (
    BlockOptDiscretizer,
    choose_arity,
    mdl_code_length,
    optimal_multisplit,
)
from partikit.discretizers._blocks import boundary_points
from partikit.discretizers._khiops import KhiopsDiscretizer, khiops_discretization
from partikit.discretizers._max_cut import max_cut_threshold
from partikit.discretizers._mdlp import MDLPDiscretizer, mdlp_discretization
from partikit.discretizers._modl import MODLDiscretizer, modl_discretization

__all__ = [
    # estimators
    "BlockOptDiscretizer",
    "KhiopsDiscretizer",
    "MDLPDiscretizer",
    "MODLDiscretizer",
    # table-level cores
    "boundary_points",
    "choose_arity",
    "khiops_discretization",
    "max_cut_threshold",
    "mdl_code_length",
    "mdlp_discretization",
    "modl_discretization",
    "optimal_multisplit",
]
