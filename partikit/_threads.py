# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The threads that share out one fit's GIL-free work (pyarrow's hash kernels, numba
kernels compiled with ``nogil``).

One pool for the process, made anew in a forked child (which lacks its parent's
threads): new threads per call would cost more than they save on work of a few
milliseconds. It has a worker per CPU at least, so that callers asking for
different numbers of threads share it (each submits as many tasks as it wants
threads; the executor starts a worker only when a task finds none idle).
"""

import os
from concurrent.futures import ThreadPoolExecutor

#: (process id, number of threads, executor), made at first use.
_pool = (None, 0, None)


def shared_threads(n_threads):
    """A thread pool of at least ``n_threads`` threads, kept for the process.

    Parameters
    ----------
    n_threads : int

    Returns
    -------
    pool : concurrent.futures.ThreadPoolExecutor
    """
    global _pool
    pid, size, pool = _pool
    if pid != os.getpid() or size < n_threads:
        # more threads than CPUs only when asked (pyarrow.set_cpu_count)
        size = max(n_threads, n_cpus())
        pool = ThreadPoolExecutor(size, thread_name_prefix="partikit")
        _pool = (os.getpid(), size, pool)
    return pool


def n_cpus():
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS and Windows
        return os.cpu_count() or 1
