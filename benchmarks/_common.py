# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Shared helpers of the benchmark scripts: machine info, timing, memory, RESULTS.md.

Not part of the package; imported by ``benchmarks/*.py`` only (run them from the
repository root or from ``benchmarks/``).
"""

from __future__ import annotations

import argparse
import datetime
import gc
import hashlib
import importlib.metadata
import json
import os
import platform
import re
import resource
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "RESULTS.md")
#: Where a rerun moves the run it replaces (``<date>-<section>.md``).
HISTORY_DIR = "results"
#: The folders of the scripts, below ``benchmarks/``.
SCRIPT_FOLDERS = ("perf", "reproductions")
#: The shared real datasets: beside the repository, or ``$PARTIKIT_DATASETS``.
DATASETS_DIR = os.environ.get(
    "PARTIKIT_DATASETS",
    os.path.normpath(os.path.join(HERE, "..", "..", "shared", "datasets")),
)

RESULTS_HEADER = """# partikit benchmark results

Written by the scripts of `benchmarks/` (see `benchmarks/README.md`). Each script
replaces its own section, between `<!-- begin NAME -->` and `<!-- end NAME -->`
markers; the other sections are kept. Every number below was measured by the script
named in its section, in one process holding partikit and the peers. This file
holds the latest run of each script; earlier runs are in `benchmarks/results/`.
"""

#: Distributions whose versions are reported (missing ones are reported as such).
PACKAGES = (
    "partikit", "numpy", "pandas", "pyarrow", "scikit-learn", "scipy", "numba",
    "khiops", "optbinning", "feature_engine", "category_encoders", "CHAID",
)  # fmt: skip


# ----------------------------------------------------------------------------------
# command line
# ----------------------------------------------------------------------------------


def script_path(name):
    """``benchmarks/<folder>/<name>.py``, the path of a script from the repository
    root, from its base name (``bench_x``, ``bench_x.py`` or ``perf/bench_x.py``)."""
    base = os.path.basename(name)
    if not base.endswith(".py"):
        base += ".py"
    for folder in SCRIPT_FOLDERS:
        if os.path.exists(os.path.join(HERE, folder, base)):
            return f"benchmarks/{folder}/{base}"
    return f"benchmarks/{base}"


def parse_args(description, add_arguments=None):
    """``--quick`` (small sizes, smoke run) and ``--output`` (where to write).

    ``add_arguments(parser)`` adds the script's own options. ``--output``
    defaults to ``RESULTS.md`` for a full run and to nothing (print only) for a
    quick one.
    """
    parser = argparse.ArgumentParser(description=description)
    if add_arguments is not None:
        add_arguments(parser)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="small sizes, for a smoke run; the result is only printed unless "
        "--output is given",
    )
    parser.add_argument(
        "--output",
        default=None,
        help="markdown file that receives this script's section (default: "
        "benchmarks/RESULTS.md for a full run, none for --quick)",
    )
    args = parser.parse_args()
    if args.output is None and not args.quick:
        args.output = RESULTS
    return args


def quiet_peer_warnings():
    """Silence the import-time noise of the peers (CVXPY/HiGHS, khiops samples)."""
    warnings.filterwarnings("ignore", message=".*Sample datasets location.*")
    warnings.filterwarnings("ignore", message=".*Could not infer format.*")
    import logging

    logging.getLogger("CVXPY").setLevel(logging.CRITICAL)
    logging.getLogger("cvxpy").setLevel(logging.CRITICAL)


def ensure_khiops_path():
    """Khiops' Python library finds its binaries through ``khiops_env`` on PATH."""
    bin_dir = os.path.dirname(sys.executable)
    path = os.environ.get("PATH", "")
    if os.path.exists(
        os.path.join(bin_dir, "khiops_env")
    ) and bin_dir not in path.split(os.pathsep):
        os.environ["PATH"] = bin_dir + os.pathsep + path


def first_line(exc):
    """``TypeName: first line of the message`` of an exception."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".strip()


def attempt(fn):
    """(result, None, warnings) or (None, first line of the error, warnings).

    A peer's failure is reported, never faked. ``warnings``: the distinct warnings
    raised during the call, as ``Category: first line``.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result, error = fn(), None
        except Exception as exc:  # noqa: BLE001 - a failure is reported, never faked
            result, error = None, first_line(exc)
    messages = sorted(
        {
            f"{w.category.__name__}: {(str(w.message).splitlines() or [''])[0][:160]}"
            for w in caught
        }
    )
    return result, error, messages


# ----------------------------------------------------------------------------------
# machine and environment
# ----------------------------------------------------------------------------------


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def nproc():
    # nproc honours OMP_NUM_THREADS, which dask's LocalCluster sets to 1 in
    # this process: the machine's processors are asked without it
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in ("OMP_NUM_THREADS", "OMP_THREAD_LIMIT")
    }
    try:
        return subprocess.run(
            ["nproc"], capture_output=True, text=True, check=True, env=environment
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return str(os.cpu_count())


def memory_total():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal"):
                    kb = int(line.split()[1])
                    return f"{kb / 2**20:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def load_average():
    try:
        return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    except OSError:
        return "unknown"


def other_jobs():
    """Command lines of a running ``calibrate_khiops`` job (the known CPU hog)."""
    try:
        out = subprocess.run(
            ["pgrep", "-af", "calibrate_khiops"], capture_output=True, text=True
        ).stdout
    except OSError:
        return []
    own = str(os.getpid())
    return [line for line in out.splitlines() if line and line.split()[0] != own]


def package_versions():
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def git_commit():
    """``<short sha> (<branch>)`` of the checkout partikit is imported from, with a
    flag when its tracked files have uncommitted changes."""
    try:
        import partikit

        where = os.path.dirname(os.path.abspath(partikit.__file__))

        def git(*command):
            return subprocess.run(
                ["git", "-C", where, *command],
                capture_output=True, text=True, check=True,
            ).stdout.strip()  # fmt: skip

        line = f"{git('rev-parse', '--short', 'HEAD')} ({git('branch', '--show-current') or 'detached'})"
        if git("status", "--porcelain", "--untracked-files=no"):
            line += ", with uncommitted changes"
        return line
    except Exception as exc:  # noqa: BLE001 - reported, never fatal
        return f"unknown ({first_line(exc)})"


def khiops_binary_version():
    try:
        import khiops.core as kh

        return str(kh.get_khiops_version())
    except Exception as exc:  # noqa: BLE001 - reported, never fatal
        return f"unavailable ({first_line(exc)})"


class RunContext:
    """What a result section must state: when, where, with what, under which load.

    ``script``: the script's base name or ``__file__``, optionally followed by the
    options of the run (``"bench_x.py --label after"``). Made at the start of a
    run, it also records the CPU time used so far and the digest of partikit's
    sources; :meth:`usage_lines` compares them with the end of the run.
    """

    def __init__(self, script, quick, with_khiops=False):
        name, _, options = script.partition(" ")
        self.script = script_path(name) + (f" {options}" if options else "")
        self.quick = quick
        self.start = datetime.datetime.now().astimezone()
        self.load_start = load_average()
        self.jobs_start = other_jobs()
        self.versions = package_versions()
        self.commit = git_commit()
        self.khiops_binary = khiops_binary_version() if with_khiops else None
        self.digest_start = source_digest()
        self.cpu_start = cpu_seconds()
        self.wall_start = time.perf_counter()
        self.end = None

    def stop(self):
        """Freeze the end of the measurements (CPU, wall time, sources' digest);
        by default the end is taken when :meth:`usage_lines` is called."""
        self.end = (cpu_seconds(), time.perf_counter(), source_digest())
        return self

    @property
    def wall(self):
        """Wall seconds from the start to :meth:`stop` (or now)."""
        end = self.end[1] if self.end else time.perf_counter()
        return end - self.wall_start

    def _ended(self):
        if self.end is None:
            self.stop()
        return self.end

    def sources_line(self):
        """The digest of partikit's sources at the start and at :meth:`stop`."""
        return digest_line(self.digest_start, self._ended()[2])

    def others_line(self, own_what="this process's"):
        """The CPU other processes used from the start to :meth:`stop`."""
        (busy, own), _, _ = self._ended()
        return other_processes_line(
            busy - self.cpu_start[0], own - self.cpu_start[1], self.wall, own_what
        )

    def usage_lines(self, own_what="this process's"):
        """:meth:`sources_line` and :meth:`others_line`."""
        return self.sources_line() + "\n" + self.others_line(own_what)

    def header(self):
        end_jobs = other_jobs()
        lines = [
            f"Run: `python {self.script}{' --quick' if self.quick else ''}`"
            + (
                " (**QUICK smoke-run sizes, not the issue sizes**)"
                if self.quick
                else ""
            ),
            "",
            f"* date: {self.start:%Y-%m-%d %H:%M %Z} (took "
            f"{(datetime.datetime.now().astimezone() - self.start).total_seconds():.0f} s)",
            f"* commit: {self.commit}",
            f"* machine: `nproc` = {nproc()}, CPU: {cpu_model()}, RAM {memory_total()}, "
            f"{platform.system()} {platform.release()}",
            f"* Python {platform.python_version()}; "
            + ", ".join(f"{k} {v}" for k, v in self.versions.items()),
        ]
        if self.khiops_binary is not None:
            lines.append(f"* Khiops binary (khiops_env): {self.khiops_binary}")
        lines.append(
            f"* load average (1/5/15 min) at start: {self.load_start}; "
            f"at end: {load_average()}"
        )
        if self.jobs_start or end_jobs:
            lines.append(
                "* **WARNING: another job (`tools/calibrate_khiops.py`) was loading the "
                f"machine** (running at start: {bool(self.jobs_start)}, at end: "
                f"{bool(end_jobs)}); times are inflated."
            )
        else:
            lines.append("* no `calibrate_khiops` job was running at start nor at end.")
        return "\n".join(lines)


# ----------------------------------------------------------------------------------
# measuring
# ----------------------------------------------------------------------------------


class Timing:
    """First call time plus the repeats after it (seconds)."""

    def __init__(self, first, times, result=None):
        self.first = first
        self.times = list(times)
        self.result = result

    @property
    def median(self):
        return statistics.median(self.times) if self.times else self.first

    @property
    def min(self):
        return min(self.times) if self.times else self.first

    @property
    def max(self):
        return max(self.times) if self.times else self.first

    @property
    def n(self):
        return len(self.times) if self.times else 1

    def cell(self, digits=3):
        """``median (min-max, n=k)``."""
        if not self.times:
            return f"{fmt_s(self.first, digits)} (1 run)"
        return (
            f"{fmt_s(self.median, digits)} ({fmt_s(self.min, digits)}–"
            f"{fmt_s(self.max, digits)}, n={self.n})"
        )


def fmt_s(seconds, digits=3):
    if seconds >= 100:
        return f"{seconds:.0f}"
    if seconds >= 10:
        return f"{seconds:.1f}"
    return f"{seconds:.{digits}g}" if seconds < 1 else f"{seconds:.2f}"


def time_call(fn, repeats=5, warmup=True, single_if_slower_than=None):
    """Time ``fn()``: one warm-up call (timed, reported separately), then repeats.

    With ``single_if_slower_than`` (seconds), a warm-up call slower than that is the
    only measurement (``Timing.times`` empty: the cell says "1 run").
    Returns a :class:`Timing` whose ``result`` is the last return value of ``fn``.
    """
    first = None
    result = None
    if warmup:
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        first = time.perf_counter() - t0
        if single_if_slower_than is not None and first > single_if_slower_than:
            return Timing(first, [], result)
    times = []
    for _ in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    if first is None:
        first = times[0]
    return Timing(first, times, result)


def peak_memory(fn):
    """Peak traced memory (bytes) allocated while ``fn()`` runs, above the baseline.

    tracemalloc sees Python objects and numpy buffers (numpy reports its data
    allocations to it) and pandas' hash tables; it does not see memory that numba
    kernels allocate themselves (NRT), nor other processes.
    """
    gc.collect()
    was_tracing = tracemalloc.is_tracing()
    if not was_tracing:
        tracemalloc.start()
    tracemalloc.reset_peak()
    base, _ = tracemalloc.get_traced_memory()
    result = fn()
    _, peak = tracemalloc.get_traced_memory()
    if not was_tracing:
        tracemalloc.stop()
    del result
    return peak - base


def arrow_pool_peak(fn):
    """Peak bytes that pyarrow allocates while ``fn()`` runs (None without pyarrow).

    pyarrow allocates through its own pool (mimalloc/jemalloc), which tracemalloc
    does not see; a proxy pool set as the default for the call counts exactly the
    allocations made during it.
    """
    pa = sys.modules.get("pyarrow")
    if pa is None:
        return None
    base = pa.default_memory_pool()
    proxy = pa.proxy_memory_pool(base)
    gc.collect()
    pa.set_memory_pool(proxy)
    try:
        result = fn()
    finally:
        pa.set_memory_pool(base)
    del result
    return proxy.max_memory()


def mb(n_bytes):
    return n_bytes / 2**20


# ----------------------------------------------------------------------------------
# output
# ----------------------------------------------------------------------------------


def table(header, rows):
    """A markdown table."""
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        out.append("| " + " | ".join(str(c) for c in row) + " |")
    return "\n".join(out)


class Report:
    """Collects markdown; ``header(context)`` is filled in when the text is made, so
    that it can state the run's duration and the load at its end."""

    def __init__(self, name):
        self.name = name
        self.parts = []

    def add(self, text=""):
        self.parts.append(text)

    def header(self, context):
        self.parts.append(context)

    def text(self):
        out = [p.header() if isinstance(p, RunContext) else p for p in self.parts]
        return "\n".join(out).rstrip() + "\n"


def progress(message):
    """A progress line on stderr (not part of the result)."""
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def finish(report, output, keep_history=False):
    """Print the section and write it to ``output`` (when not None).

    ``keep_history``: the run the section held is moved to a dated file of
    ``results/`` beside ``output`` (see :func:`write_section`).
    """
    text = report.text()
    print(text)
    if output:
        write_section(report.name, text, output, keep_history=keep_history)


def dump_raw(name, results):
    """Write ``results`` as JSON to ``<tmp>/<name>.json`` (not part of the
    results; for a closer look) and say where."""
    path = os.path.join(tempfile.gettempdir(), f"{name}.json")
    with open(path, "w") as f:
        json.dump(results, f, indent=1, default=str)
    progress(f"raw results: {path}")


def section_pattern(name):
    """The regular expression of the ``name`` section, markers included."""
    begin, end = f"<!-- begin {name} -->", f"<!-- end {name} -->"
    return re.compile(re.escape(begin) + r"\n?(.*?)" + re.escape(end) + r"\n?", re.S)


def archive_run(name, old, path):
    """Append ``old``, the run that section ``name`` of ``path`` held, to
    ``results/<date of that run>-<name>.md`` beside ``path``; returns that file.

    ``path`` keeps the latest run of each script only; the earlier ones are
    kept verbatim in these files, under a line saying where they came from.
    """
    date = re.search(r"^\* date: (\d{4}-\d{2}-\d{2})", old, re.M)
    day = date.group(1) if date else f"{datetime.date.today():%Y-%m-%d}"
    folder = os.path.join(os.path.dirname(os.path.abspath(path)), HISTORY_DIR)
    os.makedirs(folder, exist_ok=True)
    target = os.path.join(folder, f"{day}-{name}.md")
    shown = os.path.relpath(os.path.abspath(path), os.path.dirname(HERE))
    if shown.startswith(".."):
        shown = os.path.abspath(path)
    note = (
        f"Moved from `{shown}` (section `{name}`) when "
        f"`{script_path(name)}` wrote a new run, "
        f"{datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}."
    )
    with open(target, "a") as f:
        if f.tell():
            f.write("\n")
        f.write(f"{note}\n\n{old.strip()}\n")
    return target


def write_section(name, body, path=RESULTS, keep_history=False):
    """Replace (or append) the ``name`` section of the markdown file ``path``.

    With ``keep_history``, the run that the section held is first appended to a
    dated file of ``results/`` beside ``path`` (:func:`archive_run`): ``path``
    keeps the latest run only, and no measurement is lost.
    """
    begin, end = f"<!-- begin {name} -->", f"<!-- end {name} -->"
    section = f"{begin}\n{body.rstrip()}\n{end}\n"
    if os.path.exists(path):
        with open(path) as f:
            content = f.read()
    else:
        content = RESULTS_HEADER
    pattern = section_pattern(name)
    match = pattern.search(content)
    if match:
        if keep_history and match.group(1).strip():
            moved = archive_run(name, match.group(1), path)
            print(f"[the run section '{name}' held: appended to {moved}]")
        content = pattern.sub(lambda _: section, content, count=1)
    else:
        content = content.rstrip() + "\n\n" + section
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(content)
    os.replace(tmp, path)
    print(f"\n[section '{name}' written to {path}]")


def source_digest():
    """(sha256 prefix of partikit's .py sources, newest mtime): which code ran."""
    import partikit

    root = os.path.dirname(os.path.abspath(partikit.__file__))
    digest = hashlib.sha256()
    newest = 0.0
    for folder, dirs, files in sorted(os.walk(root)):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, "rb") as f:
                    digest.update(path[len(root) :].encode() + f.read())
                newest = max(newest, os.path.getmtime(path))
    when = datetime.datetime.fromtimestamp(newest).astimezone()
    return digest.hexdigest()[:12], f"{when:%Y-%m-%d %H:%M:%S %Z}"


def digest_line(start, end):
    line = f"* partikit sources: sha256 {start[0]} (newest .py modified {start[1]})"
    if end != start:
        line += (
            f" — **changed during the run** (at end: {end[0]}, newest {end[1]}); "
            "the numbers mix two versions of the code."
        )
    else:
        line += ", unchanged during the run."
    return line


def cpu_seconds():
    """(busy CPU seconds of the whole machine, CPU seconds of this process and of
    its waited-for children).

    Their difference over a run is what other processes used: on a 2-core machine
    one busy neighbour slows the numba kernels measurably.
    """
    try:
        with open("/proc/stat") as f:
            values = [int(v) for v in f.readline().split()[1:9]]
        busy = (sum(values) - values[3] - values[4]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError):
        busy = float("nan")
    own = os.times()
    return busy, own.user + own.system + own.children_user + own.children_system


# ----------------------------------------------------------------------------------
# the shared datasets
# ----------------------------------------------------------------------------------


def read_dataset(folder, n_rows=None):
    """One shared dataset as read by every script: all columns as str.

    ``DATASETS_DIR/folder/data.csv`` is read with the separator of its
    ``config.json``, every value kept as its text (no NA detection, no quoting:
    the files hold none), column names stripped. Returns ``(frame, config)``, or
    None when the file is absent; the scripts then choose the rows and columns
    they need (missing-value string, nominal or numeric columns, target).
    """
    import json

    import pandas as pd

    path = os.path.join(DATASETS_DIR, folder, "data.csv")
    if not os.path.exists(path):
        return None
    with open(os.path.join(DATASETS_DIR, folder, "config.json")) as f:
        config = json.load(f)
    frame = pd.read_csv(
        path,
        sep=config["split char"],
        dtype=str,
        keep_default_na=False,
        na_filter=False,
        quoting=3,  # csv.QUOTE_NONE
        nrows=n_rows,
    )
    frame.columns = [c.strip() for c in frame.columns]
    return frame, config


# ----------------------------------------------------------------------------------
# the run-conditions lines every report ends with
# ----------------------------------------------------------------------------------


def other_processes_line(busy, own, wall, own_what="this process's"):
    """The report line on the CPU other processes used during the run.

    ``busy``: the machine's busy CPU seconds over the run (``cpu_seconds()``
    differences), ``own``: this process's (and its workers'), ``wall``: the
    run's wall seconds.
    """
    others = max(busy - own, 0.0)
    return (
        f"* CPU used by other processes during the run (/proc/stat busy time minus "
        f"{own_what} CPU time): {others:.0f} CPU-s over {wall:.0f} s of wall "
        f"time ({others / wall:.0%} of one core)"
        + (
            " — **the machine was shared: times may be inflated**."
            if others / wall > 0.1
            else "."
        )
    )


def first_calls_line(first_calls):
    """The report line on the first calls (numba cache loads) left out of the
    timings."""
    return (
        "* first calls in this process (numba kernels loaded from the on-disk cache, "
        "or compiled if it was cold; tiny inputs), excluded from every timing below: "
        + "; ".join(f"{k} {v}" for k, v in first_calls.items())
        + "."
    )


# ----------------------------------------------------------------------------------
# a measurement in a fresh subprocess, reporting by JSON lines
# ----------------------------------------------------------------------------------


def emit(**event):
    """Write one event (a JSON line) for the parent of a measuring subprocess."""
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


def run_subprocess(cmd, on_event, result, *, mem_limit_gb=None, complete=None):
    """Run a measuring subprocess and hand its events to ``on_event``.

    Parameters
    ----------
    cmd : list of str
        The command; the subprocess writes events with :func:`emit`, each a dict
        with an ``"event"`` key.
    on_event : callable
        ``on_event(kind, event)`` for each event; it returns None to leave the
        deadline as it is, or ``(phase, seconds)``: the next event must come
        within ``seconds``, else the subprocess is killed and ``result["timeout"]``
        is ``phase``. Set-up (imports, warm-up, data) may take 600 s.
    result : dict
        Receives ``"timeout"``, ``"returncode"`` and, when the subprocess ended
        without completing and without reporting an error, ``"error"`` and
        ``"error_kind"`` (``"MemoryError"`` or ``"crash"``) from its stderr.
    mem_limit_gb : float or None, default=None
        Address-space cap of the subprocess (protects a shared machine).
    complete : callable or None, default=None
        ``complete(result)``: whether the subprocess did all it had to; by
        default, whether it exited with code 0.
    """

    def limit():
        if mem_limit_gb:
            cap = int(mem_limit_gb * 2**30)
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            stderr=err,
            preexec_fn=limit,
            start_new_session=True,  # a peer's own subprocesses go with it
        )
        fd = proc.stdout.fileno()
        buffer, phase = b"", "setup"
        deadline = time.monotonic() + 600
        try:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    result["timeout"] = phase
                    break
                if not select.select([fd], [], [], remaining)[0]:
                    continue
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    break
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    event = json.loads(line)
                    step = on_event(event.pop("event"), event)
                    if step is not None:
                        phase, seconds = step
                        deadline = time.monotonic() + seconds
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            proc.stdout.close()
        result["returncode"] = proc.returncode
        if complete is None:
            done = proc.returncode == 0
        else:
            done = complete(result)
        if not done and "timeout" not in result and "error" not in result:
            err.seek(0)
            lines = err.read().decode(errors="replace").strip().splitlines()
            result["error"] = f"subprocess exited with code {proc.returncode}" + (
                f": {lines[-1][:200]}" if lines else ""
            )
            result["error_kind"] = (
                "MemoryError" if "MemoryError" in "".join(lines[-3:]) else "crash"
            )
