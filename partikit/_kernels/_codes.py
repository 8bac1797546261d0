# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Integer codes that select a criterion inside the kernels, defined once.

numba compiles a comparison with a module-level integer into a constant, so a
criterion is passed to a kernel as one of these codes, never as a string.
"""

#: Impurities (and CART's twoing value) of the split and multisplit kernels.
GINI = 0
ENTROPY = 1
TWOING = 2
#: The squared error of a moment row (weight, sum, sum of squares): the
#: regression tree's impurity (per unit of weight) and the multisplit kernels'
#: interval cost (the sum of squared errors).
SQUARED_ERROR = 3

#: The impurity codes by name, as the estimators' parameters spell them.
IMPURITY_CODES = {"gini": GINI, "entropy": ENTROPY}

#: Statistics of CHAID's pairwise tests.
PEARSON = 0
LIKELIHOOD_RATIO = 1

#: The test codes by name, as the estimators' parameters spell them.
TEST_CODES = {"pearson": PEARSON, "likelihood_ratio": LIKELIHOOD_RATIO}
#: CHAID's pairwise test of a continuous target: the F test of the one-way
#: analysis of variance of two parts of a moment table (chosen by the target
#: type, not by the ``test`` parameter).
F_TEST = 2
