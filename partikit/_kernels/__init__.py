# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""numba kernels of partikit (private).

Every kernel imports numpy and numba only, takes canonical dtypes (``intp`` codes,
C-contiguous ``float64`` weights and tables) and has a slow, obviously correct twin in
``tests/naive.py``.

numba compiles a kernel once per tuple of argument types, in every new environment,
so each argument has one type, decided before the call: the kernels over rows are
called through plain Python functions of the same module (``contingency_table``,
``apply_lookup``, ``positive_rows``, ``accumulate_keys``) that hand them the rows in
chunks of that type, whatever the width, layout or writability of the caller's
arrays. See "Cold start" in the design notes.
"""
