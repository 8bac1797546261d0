# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Compilation settings shared by every numba kernel.

``fastmath`` is deliberately absent: it implies no NaN and no infinity, and our kernels
test for both (empty rows, log of zero). Kernels are compiled lazily (no signature
strings) so that ``import partikit`` stays fast, and cached on disk so that only the
first process pays the compilation.
"""

NJIT = {"cache": True, "nogil": True}
