# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Fit on a Parquet dataset larger than the workers' memory, through Dask.

Issue 20, part 3. A dataset of ``--rows`` rows (default 200,000,000) is written
once, in files of ``--rows-per-file`` rows, under ``--data-dir`` (default
``$TMPDIR/partikit_bench_dask``, never in the repository; kept between runs and
reused when its parameters match):

* ``c1``: int32 ids, 100,000 categories, informative (hidden group ``c1 % 5``);
* ``c2``: string ids ``"s<k>"``, 10,000 categories, informative (``k % 3``);
* ``c3``: int32 ids, 1,000 categories, noise;
* ``c4``: int8 ids, 20 categories, noise;
* ``x1``: a normal variable rounded to 0.001 and clipped to [-5, 5] (at most
  10,001 distinct values), informative (its sign);
* ``x2``: a uniform variable on [0, 100] rounded to 0.001 (at most 100,001
  distinct values), noise;
* ``y``: 10 classes (int8): ``c1 % 5`` in 30% of the rows, ``5 + k % 3`` (c2's
  ``k``) in 20%, ``8 + (x1 > 0)`` in 20%, uniform in the others.

The rows are generated in chunks of one file (never the whole dataset in
memory). Each estimator (``KhiopsGrouper`` on c1, c2, c3; ``MDLPDiscretizer``
on x1, x2; ``AttributeAggregator`` of c3 and c4 grouped by ``KhiopsGrouper``,
from their joint table of 20,000 combinations) is fitted with
``dask.dataframe.read_parquet`` on a ``distributed.LocalCluster`` of
``--workers`` worker processes of one thread each and ``--memory-limit`` each
(well below the data size): the time of the tables (counted by the workers and
added) and of ``fit_tables`` on their sum (here), the time per 100M rows, and
the peak resident memory of each worker process (psutil, polled every 0.2 s;
and the peak that distributed's monitor recorded since the worker started)
are reported. The same estimator is then fitted once in this process, in
memory, on the same rows (pyarrow reads the needed columns only) and the two
fits are compared (categories, groups, tables, cut points, combinations). When
the in-memory fit of all rows would not fit, ``--compare-rows`` takes the first
files only: the dask fit is then repeated on those files for the comparison,
and the report says so.

    python benchmarks/perf/bench_dask.py [--rows N] [--rows-per-file N]
        [--workers N] [--memory-limit 1.5GB] [--compare-rows N]
        [--data-dir DIR] [--quick] [--output FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# the shared helpers (_common.py) live one folder up
sys.path.insert(0, os.path.dirname(HERE))

from _common import (  # noqa: E402
    RESULTS,
    Report,
    RunContext,
    cpu_seconds,
    digest_line,
    finish,
    fmt_s,
    other_processes_line,
    progress,
    script_path,
    source_digest,
    table,
)

NAME = "bench_dask"
ROWS, QUICK_ROWS = 200_000_000, 4_000_000
ROWS_PER_FILE, QUICK_ROWS_PER_FILE = 2_000_000, 500_000
N_CLASSES = 10
#: Bumped whenever the generator changes (a cached dataset is then rewritten).
DATA_VERSION = 3

#: label -> (estimator expression, columns)
ESTIMATORS = {
    "KhiopsGrouper": ("KhiopsGrouper()", ["c1", "c2", "c3"]),
    "MDLPDiscretizer": ("MDLPDiscretizer()", ["x1", "x2"]),
    "AttributeAggregator": (
        "AttributeAggregator([['c3', 'c4']], grouper=KhiopsGrouper(), "
        "max_categories=20_000)",
        ["c3", "c4"],
    ),
}


# ----------------------------------------------------------------------------------
# the dataset
# ----------------------------------------------------------------------------------


def make_chunk(n, seed):
    """One file's rows, as a pyarrow Table."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    rng = np.random.default_rng(seed)
    c1 = rng.integers(0, 100_000, n, dtype=np.int32)
    k2 = rng.integers(0, 10_000, n, dtype=np.int32)
    names = pa.array([f"s{k}" for k in range(10_000)])
    c2 = pc.take(names, pa.array(k2))
    c3 = rng.integers(0, 1_000, n, dtype=np.int32)
    c4 = rng.integers(0, 20, n, dtype=np.int8)
    x1 = np.clip(np.round(rng.normal(size=n), 3), -5.0, 5.0)
    x2 = np.round(rng.uniform(0.0, 100.0, n), 3)
    # each informative column decides its own classes in a share of the rows,
    # so that each one's table against y shows it
    source = rng.random(n)
    y = np.select(
        [source < 0.3, source < 0.5, source < 0.7],
        [c1 % 5, 5 + k2 % 3, 8 + (x1 > 0)],
        rng.integers(0, N_CLASSES, n),
    ).astype(np.int8)
    return pa.table(
        {"c1": c1, "c2": c2, "c3": c3, "c4": c4, "x1": x1, "x2": x2, "y": y}
    )


def ensure_dataset(folder, rows, rows_per_file, seed=0):
    """Write the dataset (or keep the one already there); its file paths."""
    import pyarrow.parquet as pq

    spec = {"rows": rows, "rows_per_file": rows_per_file, "seed": seed,
            "version": DATA_VERSION}  # fmt: skip
    meta_path = os.path.join(folder, "_spec.json")
    n_files = -(-rows // rows_per_file)
    paths = [os.path.join(folder, f"part-{i:05d}.parquet") for i in range(n_files)]
    if os.path.exists(meta_path):
        with open(meta_path) as f:
            if json.load(f) == spec and all(os.path.exists(p) for p in paths):
                progress(f"reusing the dataset in {folder}")
                return paths
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):
        if name.endswith(".parquet") or name == "_spec.json":
            os.remove(os.path.join(folder, name))
    t0 = time.perf_counter()
    for i, path in enumerate(paths):
        n = min(rows_per_file, rows - i * rows_per_file)
        pq.write_table(make_chunk(n, [seed, i]), path, row_group_size=n)
        if i % 10 == 0:
            progress(f"wrote file {i + 1}/{n_files}")
    with open(meta_path, "w") as f:
        json.dump(spec, f)
    progress(f"dataset written in {time.perf_counter() - t0:.0f} s")
    return paths


def folder_bytes(paths):
    return sum(os.path.getsize(p) for p in paths)


# ----------------------------------------------------------------------------------
# measuring
# ----------------------------------------------------------------------------------


class WorkerMemory:
    """Peak resident memory of each worker process, polled in a thread."""

    def __init__(self, pids, interval=0.2):
        import psutil

        self.processes = {addr: psutil.Process(pid) for addr, pid in pids.items()}
        self.peaks = dict.fromkeys(pids, 0)
        self.interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self):
        while not self._stop.is_set():
            for addr, process in self.processes.items():
                try:
                    rss = process.memory_info().rss
                except Exception:  # noqa: BLE001 - a restarted worker is reported
                    continue
                self.peaks[addr] = max(self.peaks[addr], rss)
            self._stop.wait(self.interval)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def _worker_pid():
    return os.getpid()


def _managed_peak(dask_worker):
    """The worker's own record of its memory (the highest process memory)."""
    try:
        return int(max(dask_worker.monitor.quantities["memory"]))
    except Exception:  # noqa: BLE001 - an older distributed without the record
        return None


def dask_fit(label, client, paths, *, count_only=False):
    """Fit ``label`` on the files through dask.

    What ``fit`` of a dask DataFrame does, in its two steps timed apart: the
    tables counted by the workers and added (``dask_tables``), then the
    estimator fitted from them here (``fit_tables``). Returns a dict: the
    estimator, the seconds of each step, the workers' memory peaks.
    """
    import dask.dataframe as dd

    from partikit._counting._dask import dask_tables, estimator_counter
    from partikit.discretizers import MDLPDiscretizer  # noqa: F401
    from partikit.groupers import AttributeAggregator, KhiopsGrouper  # noqa: F401

    expression, columns = ESTIMATORS[label]
    estimator = eval(expression)
    # the aggregator's _count takes no min_classes
    min_classes = None if isinstance(estimator, AttributeAggregator) else 1
    frame = dd.read_parquet(paths, columns=[*columns, "y"])
    pids = client.run(_worker_pid)
    with WorkerMemory(pids) as memory:
        t0 = time.perf_counter()
        tables = dask_tables(
            frame[columns],
            frame["y"],
            None,
            estimator_counter(estimator, min_classes=min_classes),
        )
        count = time.perf_counter() - t0
    if count_only:
        return None
    t0 = time.perf_counter()
    estimator.fit_tables(tables)
    stage2 = time.perf_counter() - t0
    return {
        "fitted": estimator, "count": count, "stage2": stage2,
        "peaks": memory.peaks, "managed": client.run(_managed_peak),
        "partitions": frame.npartitions,
    }  # fmt: skip


def memory_fit(label, paths):
    """Fit ``label`` in this process on the files read by pyarrow."""
    import pyarrow.parquet as pq

    from partikit.discretizers import MDLPDiscretizer  # noqa: F401
    from partikit.groupers import AttributeAggregator, KhiopsGrouper  # noqa: F401

    expression, columns = ESTIMATORS[label]
    estimator = eval(expression)
    t0 = time.perf_counter()
    arrow = pq.read_table(paths, columns=[*columns, "y"])
    n_bytes = arrow.nbytes
    data = arrow.to_pandas()
    del arrow
    read = time.perf_counter() - t0
    t0 = time.perf_counter()
    estimator.fit(data[columns], data["y"].to_numpy())
    seconds = time.perf_counter() - t0
    return estimator, read, seconds, n_bytes


def differences(a, b):
    """What differs between two fits of one estimator (empty: equal)."""
    import numpy as np

    out = []
    if hasattr(a, "combinations_"):
        if [list(map(str, c)) for c in a.combinations_] != [
            list(map(str, c)) for c in b.combinations_
        ]:
            out.append("combinations_")
        return out + [f"grouper_ {d}" for d in differences(a.grouper_, b.grouper_)]
    if hasattr(a, "group_ids_"):
        for j in range(a.n_features_in_):
            if [str(v) for v in a.categories_[j]] != [str(v) for v in b.categories_[j]]:
                out.append(f"categories_[{j}]")
            if not np.array_equal(a.group_ids_[j], b.group_ids_[j]):
                out.append(f"group_ids_[{j}]")
            if not np.array_equal(a.table_[j], b.table_[j]):
                out.append(f"table_[{j}]")
    else:
        for j in range(a.n_features_in_):
            if not np.array_equal(a.bin_edges_[j], b.bin_edges_[j]):
                out.append(f"bin_edges_[{j}]")
            if not np.array_equal(a.table_[j], b.table_[j]):
                out.append(f"table_[{j}]")
    if not np.array_equal(a.classes_, b.classes_):
        out.append("classes_")
    return out


def summary(estimator):
    estimator = getattr(estimator, "grouper_", None) or estimator
    if hasattr(estimator, "n_groups_"):
        return "groups " + ", ".join(str(int(n)) for n in estimator.n_groups_)
    return "bins " + ", ".join(str(int(n)) for n in estimator.n_bins_)


def gb(n_bytes):
    return f"{n_bytes / 1e9:.2f} GB"


# ----------------------------------------------------------------------------------
# main
# ----------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=None,
                        help=f"rows of the dataset (default {ROWS:,})")  # fmt: skip
    parser.add_argument("--rows-per-file", type=int, default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", default="1.5GB",
                        help="memory limit of each worker")  # fmt: skip
    parser.add_argument("--compare-rows", type=int, default=None,
                        help="rows of the in-memory comparison (default: all; "
                        "0: no comparison)")  # fmt: skip
    parser.add_argument("--data-dir", default=os.path.join(
        tempfile.gettempdir(), "partikit_bench_dask"))  # fmt: skip
    parser.add_argument("--estimators", default=",".join(ESTIMATORS))
    parser.add_argument("--quick", action="store_true",
                        help=f"{QUICK_ROWS:,} rows")  # fmt: skip
    parser.add_argument("--output", default=None)
    args = parser.parse_args()
    if args.output is None and not args.quick and args.rows is None:
        args.output = RESULTS
    rows = args.rows or (QUICK_ROWS if args.quick else ROWS)
    per_file = args.rows_per_file or (
        QUICK_ROWS_PER_FILE if args.quick else ROWS_PER_FILE
    )
    compare_rows = rows if args.compare_rows is None else args.compare_rows
    labels = args.estimators.split(",")
    unknown = [label for label in labels if label not in ESTIMATORS]
    if unknown:
        parser.error(f"unknown estimators {unknown}; known: {list(ESTIMATORS)}")

    import dask
    import distributed

    paths = ensure_dataset(args.data_dir, rows, per_file)
    n_compare_files = -(-compare_rows // per_file) if compare_rows else 0
    compare_paths = paths[:n_compare_files]
    compared_rows = min(rows, n_compare_files * per_file)

    context = RunContext(
        "perf/" + os.path.basename(__file__)
        + (f" --rows {rows}" if rows != ROWS else "")
        + (f" --compare-rows {compare_rows}" if compare_rows != rows else ""),
        args.quick,
    )  # fmt: skip
    context.versions["dask"] = dask.__version__
    context.versions["distributed"] = distributed.__version__
    digest_start = source_digest()
    cpu_start, wall_start = cpu_seconds(), time.perf_counter()

    results = []
    with (
        distributed.LocalCluster(
            n_workers=args.workers, processes=True, threads_per_worker=1,
            memory_limit=args.memory_limit, dashboard_address=":0",
        ) as cluster,
        distributed.Client(cluster) as client,
    ):  # fmt: skip
        for label in labels:
            # every worker loads the numba kernels (from the on-disk cache) once
            dask_fit(label, client, paths[: 2 * args.workers], count_only=True)
            progress(f"{label}: dask fit on {rows:,} rows")
            result = dask_fit(label, client, paths)
            progress(f"  -> count {result['count']:.1f} s, fit_tables "
                     f"{result['stage2']:.1f} s, worker peaks "
                     f"{list(result['peaks'].values())}")  # fmt: skip
            result["label"] = label
            result["summary"] = summary(result["fitted"])
            if compare_paths and compared_rows != rows:
                progress(f"  dask fit on the first {compared_rows:,} rows")
                compared = dask_fit(label, client, compare_paths)
                result["compared_dask"] = compared["fitted"]
            results.append(result)
        cpu_workers = sum(
            client.run(lambda: sum(os.times()[:2])).values()  # noqa: B023
        )
    for result in results:
        if not compare_paths:
            continue
        label = result["label"]
        progress(f"{label}: in-memory fit on {compared_rows:,} rows")
        expected, read, seconds, n_bytes = memory_fit(label, compare_paths)
        result["data_bytes"] = n_bytes
        reference = result.get("compared_dask", result["fitted"])
        result["memory"] = (read, seconds)
        result["differences"] = differences(reference, expected)
        progress(f"  -> read {read:.1f} s, fit {seconds:.1f} s, "
                 f"differences {result['differences']}")  # fmt: skip
        del expected
    cpu_end = cpu_seconds()
    wall = time.perf_counter() - wall_start

    report = Report(NAME)
    report.add(f"## Dask: fit on a Parquet dataset larger than the workers' memory "
               f"({script_path(NAME)})")  # fmt: skip
    report.add()
    report.add(
        f"{rows:,} rows in {len(paths)} Parquet files of {per_file:,} rows "
        f"({gb(folder_bytes(paths))} on disk; 4 categorical columns of 100,000, "
        "10,000, 1,000 and 20 categories, 2 numeric columns rounded to 0.001, a "
        f"10-class target), read by `dask.dataframe.read_parquet` on a "
        f"`LocalCluster` of {args.workers} worker processes (1 thread each, memory "
        f"limit {args.memory_limit} each). Each partition is counted by the "
        "workers, the tables added in a tree of tasks, and the estimator fitted "
        "from their sum (`fit` of a dask DataFrame). The tables of the first "
        "files are counted once before the timed fit (every worker loads the "
        "numba kernels)."
    )
    report.add()
    rows_out = []
    for r in results:
        peaks = ", ".join(gb(p) for p in r["peaks"].values())
        managed = ", ".join(
            "n/a" if m is None else gb(m) for m in r["managed"].values()
        )
        if "differences" not in r:
            same = "not compared"
        elif r["differences"]:
            same = "**differs: " + ", ".join(r["differences"]) + "**"
        else:
            same = "identical"
        if "memory" in r:
            read, seconds = r["memory"]
            memory = (
                f"{fmt_s(seconds)} s (+ {fmt_s(read)} s read; the columns and y "
                f"hold {gb(r['data_bytes'])} in Arrow)"
            )
        else:
            memory = "—"
        total = r["count"] + r["stage2"]
        rows_out.append([
            r["label"], ", ".join(ESTIMATORS[r["label"]][1]), r["partitions"],
            f"{fmt_s(total)} s", f"{fmt_s(r['count'])} s",
            f"{fmt_s(r['count'] * 1e8 / rows)} s", f"{fmt_s(r['stage2'])} s",
            peaks, managed, r["summary"],
            f"{compared_rows:,}" if compare_paths else "—", same, memory,
        ])  # fmt: skip
    report.add(table(
        ["estimator", "columns", "partitions", "dask fit", "tables (workers)",
         "tables per 100M rows", "fit_tables (here)", "peak RSS per worker "
         "(psutil)", "peak per worker since its start (distributed's monitor)",
         "result", "rows compared", "equal to the in-memory fit",
         "in-memory fit (this process)"],
        rows_out,
    ))  # fmt: skip
    report.add()
    report.add(
        "* dask fit = tables + fit_tables, the two steps of `fit` of a dask "
        "DataFrame timed apart: the tables scale with the rows (and with the "
        "workers), fit_tables (stage 2, on the merged tables) with the number of "
        "categories and distinct values only."
    )
    report.add()
    if compare_paths and compared_rows != rows:
        report.add(
            f"* The in-memory comparison uses the first {compared_rows:,} rows "
            f"(`--compare-rows`), not all {rows:,}: the dask fit was repeated on "
            "those files and compared with the in-memory fit of the same rows."
        )
    report.add(context)
    report.add(digest_line(digest_start, source_digest()))
    report.add(other_processes_line(
        cpu_end[0] - cpu_start[0], cpu_end[1] - cpu_start[1] + cpu_workers, wall,
        own_what="this process's and the workers'",
    ))  # fmt: skip
    finish(report, args.output)


if __name__ == "__main__":
    main()
