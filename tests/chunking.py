# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Cutting rows into chunks, for the tests of tables that add up over chunks."""


def row_chunks(n_samples, cuts):
    """The ``(start, stop)`` of the chunks that cutting rows at ``cuts`` makes.

    >>> row_chunks(10, [7, 3])
    [(0, 3), (3, 7), (7, 10)]
    """
    bounds = [0, *sorted(cuts), n_samples]
    return list(zip(bounds[:-1], bounds[1:], strict=True))
