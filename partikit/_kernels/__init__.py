# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""numba kernels of partikit (private).

Every kernel imports numpy and numba only, takes canonical dtypes (``intp`` codes,
C-contiguous ``float64`` weights and tables) and has a slow, obviously correct twin in
``tests/naive.py``.
"""
