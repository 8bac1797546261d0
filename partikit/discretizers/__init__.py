# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Supervised discretization: cut numeric attributes into intervals."""

from partikit.discretizers._block_opt import (
    BlockOptDiscretizer,
    Multisplit,
    choose_arity,
    mdl_code_length,
    optimal_multisplit,
)
from partikit.discretizers._blocks import (
    Units,
    bin_units,
    block_units,
    boundary_points,
    quantile_units,
)
from partikit.discretizers._khiops import KhiopsDiscretizer, khiops_discretization
from partikit.discretizers._max_cut import MaxCutThreshold, max_cut_threshold
from partikit.discretizers._mdlp import MDLPDiscretizer, mdlp_discretization

__all__ = [
    "BlockOptDiscretizer",
    "KhiopsDiscretizer",
    "MDLPDiscretizer",
    "MaxCutThreshold",
    "Multisplit",
    "Units",
    "bin_units",
    "block_units",
    "boundary_points",
    "choose_arity",
    "khiops_discretization",
    "max_cut_threshold",
    "mdl_code_length",
    "mdlp_discretization",
    "optimal_multisplit",
    "quantile_units",
]
