"""The ``partikit report`` command: read a file, report every column, write files.

The command line's parser and its ``demo`` live in :mod:`partikit.__main__`;
this module holds what ``report`` does, so that the command sits with the
report it runs.
"""

from __future__ import annotations

import os
import re
import sys

GROUPERS = {
    "modl": "MODLGrouper",
    "khiops": "KhiopsGrouper",
    "chaid": "CHAIDGrouper",
    "maxcut": "MaxCutGrouper",
}
DISCRETIZERS = {
    "khiops": "KhiopsDiscretizer",
    "modl": "MODLDiscretizer",
    "mdlp": "MDLPDiscretizer",
    "blockopt": "BlockOptDiscretizer",
}
PARQUET_SUFFIXES = (".parquet", ".pq")


def terminal_text(text):
    """``text`` safe to print on a terminal: control characters escaped.

    A column name or a category read from a file may hold terminal escape
    codes (``"\\x1b[2J"`` clears the screen), carriage returns or Unicode
    direction overrides: each character that is not printable is written as
    its Python escape (``\\x1b``, ``\\n``, ``\\u202e``), so the line
    shows what the file holds and stays one line.

    Parameters
    ----------
    text : object
        Shown by its ``str``.

    Returns
    -------
    safe : str

    Examples
    --------
    >>> terminal_text("a\\x1b[31mred")
    'a\\\\x1b[31mred'
    """
    return "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in str(text)
    )


class CommandError(Exception):
    """A user error of the command line: printed on one line, exit status 1.

    The message is made :func:`terminal_text`: one line, with the data's
    control characters escaped.
    """

    def __init__(self, message):
        super().__init__(terminal_text(message))


def _csv_separator(sep):
    """``sep`` as pandas' ``read_csv`` takes it, and the engine to read with.

    pandas' C engine reads one-character separators; a longer one is read by
    its python engine, which takes it as a regular expression: it is escaped,
    so that ``--sep "||"`` is the two characters, as the help says. ``\\t``
    typed as two characters is the tab.
    """
    if sep == "\\t":
        sep = "\t"
    if not sep:
        raise CommandError("--sep is empty: give the CSV field separator")
    if len(sep) == 1:
        return {"sep": sep, "engine": "c", "low_memory": False}
    return {"sep": re.escape(sep), "engine": "python"}


def read_table(path, sep=",", na_values=None):
    """Read a CSV (or Parquet) file with pandas, with one-line errors.

    Parameters
    ----------
    path : str
        The file. A name ending in ``.parquet`` or ``.pq`` is read as Parquet
        (needs pyarrow), anything else as CSV.
    sep : str, default=","
        The CSV field separator: one character, or several taken literally
        (read by pandas' slower python engine); ``\\t`` is the tab.
    na_values : list of str or None, default=None
        Texts read as missing values, besides pandas' own (the empty field,
        ``NA``, ``NaN``, ...), such as ``"?"``; a field is missing when it
        is one of them as a whole. In a Parquet file, the string and
        categorical values equal to one of them.

    Returns
    -------
    frame : pandas.DataFrame
    """
    import pandas as pd

    na_values = list(na_values or [])
    if not os.path.exists(path):
        raise CommandError(f"no such file: {path}")
    if os.path.isdir(path):
        raise CommandError(f"{path} is a folder, not a data file")
    if path.lower().endswith(PARQUET_SUFFIXES):
        try:
            frame = pd.read_parquet(path)
        except ImportError as error:
            raise CommandError(
                f"reading Parquet needs pyarrow (pip install pyarrow): {error}"
            ) from None
        except Exception as error:  # pyarrow's errors have no common base
            raise CommandError(f"cannot read {path} as Parquet: {error}") from None
        return _missing_in_text_columns(frame, na_values)
    try:
        frame = pd.read_csv(path, na_values=na_values, **_csv_separator(sep))
    except pd.errors.EmptyDataError:
        raise CommandError(f"{path} is empty") from None
    except (pd.errors.ParserError, UnicodeDecodeError, ValueError) as error:
        first_line = str(error).strip().splitlines()[0] if str(error) else ""
        raise CommandError(
            f"cannot read {path} as CSV (separator {sep!r}): {first_line}"
        ) from None
    if frame.empty:
        raise CommandError(f"{path} has a header but no rows")
    return frame


def _missing_in_text_columns(frame, na_values):
    """``frame`` with the values of its text columns in ``na_values`` missing."""
    import pandas as pd

    if not na_values:
        return frame
    for name in frame.columns:
        column = frame[name]
        is_text = (
            pd.api.types.is_object_dtype(column.dtype)
            or pd.api.types.is_string_dtype(column.dtype)
            or isinstance(column.dtype, pd.CategoricalDtype)
        )
        if is_text:
            frame[name] = column.mask(column.isin(na_values))
    return frame


def check_outputs(data, outputs):
    """Refuse outputs that would overwrite the data or each other.

    Parameters
    ----------
    data : str
        The input file.
    outputs : dict of str to str or None
        The option (``"--out"``) of each output file, None when not asked.
    """
    seen = {_same_file_key(data): "the input"}
    for option, path in outputs.items():
        if path is None:
            continue
        key = _same_file_key(path)
        if key in seen:
            what = seen[key]
            raise CommandError(
                f"{option} {path} is {what}"
                + (f" ({data})" if what == "the input" else "")
                + ": it would be overwritten; give another file name"
            )
        seen[key] = f"also the file of {option}"


def _same_file_key(path):
    # a link, a relative path or another spelling of the same file is the
    # same file: compared by device and inode when it exists
    try:
        stat = os.stat(path)
        return ("inode", stat.st_dev, stat.st_ino)
    except OSError:
        return ("path", os.path.normcase(os.path.realpath(path)))


def write_atomically(path, text):
    """Write ``text`` to ``path`` whole or not at all.

    The text goes to a new file in the same folder, which replaces ``path``
    (``os.replace``) only once written and flushed to disk: a failure (a full
    disk, a kill) leaves any existing file as it was. A link is followed: the
    file it points to is replaced. An existing file keeps its permissions; a
    new one gets the usual ones (the umask's).

    Parameters
    ----------
    path : str
        The file.
    text : str
        Its content, written as UTF-8.

    Raises
    ------
    CommandError
        When the file cannot be written, naming it and why.
    """
    import secrets

    target = os.path.realpath(path)
    folder, name = os.path.split(target)
    temporary = os.path.join(folder, f".{name}.{secrets.token_hex(6)}.tmp")
    try:
        try:
            # mode "x": a new file, made with the umask's permissions
            with open(temporary, "x", encoding="utf-8") as file:
                file.write(text)
                file.flush()
                os.fsync(file.fileno())
            if os.path.exists(target):
                os.chmod(temporary, os.stat(target).st_mode & 0o7777)
            os.replace(temporary, target)
        except BaseException:
            if os.path.exists(temporary):
                os.remove(temporary)
            raise
    except OSError as error:
        reason = error.strerror or str(error)
        raise CommandError(f"cannot write {path}: {reason}") from None


class ProgressBar:
    """A one-line progress bar over the columns, drawn on a terminal only."""

    def __init__(self, stream, width=30):
        self.stream = stream
        self.width = width
        self.active = hasattr(stream, "isatty") and stream.isatty()

    def __call__(self, done, total, column):
        if not self.active:
            return
        filled = round(self.width * done / max(total, 1))
        name = terminal_text(column)[:30]
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} {name:<30}"
        )
        if done == total:
            self.stream.write("\r" + " " * (self.width + 44) + "\r")
        self.stream.flush()


def format_overview(result) -> str:
    """The ranked overview as the console shows it."""
    overview = result.to_frame()
    # the names come from the file: shown, never obeyed, by the terminal
    overview.index = overview.index.map(terminal_text)
    if result.continuous:
        shown = overview[["rank", "kind", "n_values", "n_parts", "F",
                          "log10_pvalue", "r2"]].copy()  # fmt: skip
        shown["F"] = shown["F"].round(1)
        shown["log10_pvalue"] = shown["log10_pvalue"].round(1)
        shown["r2"] = shown["r2"].round(3)
        return shown.to_string()
    shown = overview[["rank", "kind", "n_values", "n_parts", "log10_pvalue",
                      "cramers_v", "iv"]].copy()  # fmt: skip
    shown["log10_pvalue"] = shown["log10_pvalue"].round(1)
    shown["cramers_v"] = shown["cramers_v"].round(3)
    shown["iv"] = shown["iv"].round(3)
    if shown["iv"].isna().all():
        shown = shown.drop(columns="iv")
    return shown.to_string()


def report_command(args, out=None, err=None) -> int:
    """Run ``partikit report`` with parsed arguments; returns the exit status."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    import warnings

    from partikit import discretizers, groupers
    from partikit._counting._validation import TableSizeError
    from partikit._reporting._report import (
        default_estimators,
        describe_target,
        report,
    )

    check_outputs(
        args.data, {"--out": args.out, "--json": args.json, "--sql": args.sql}
    )
    if args.columns is not None and not args.columns:
        raise CommandError(
            "--columns names no column: name the columns to report (A,B,...), "
            "or leave the option out to report every column"
        )
    frame = read_table(args.data, sep=args.sep, na_values=args.na_values)
    if args.target not in frame.columns:
        shown = ", ".join(map(str, list(frame.columns)[:20]))
        raise CommandError(
            f"target column {args.target!r} is not in {args.data} (columns: {shown}"
            f"{', ...' if frame.shape[1] > 20 else ''})"
        )
    y = frame.pop(args.target)
    missing_target = y.isna()
    if missing_target.any():
        print(
            f"partikit report: {int(missing_target.sum())} rows with a missing "
            "target are left out.",
            file=err,
        )
        frame, y = frame[~missing_target.to_numpy()], y[~missing_target]
    target_type = guessed_target_type(y, args.target_type)
    if y.nunique() < 2:
        what = "distinct value(s)" if target_type == "continuous" else "class(es)"
        raise CommandError(
            f"target column {args.target!r} has {y.nunique()} {what}; a "
            "report needs two or more"
        )
    values = args.values
    if values == "mean" and target_type != "continuous":
        raise CommandError(
            f"--values mean needs a continuous target; {args.target!r} is read as "
            f"{y.nunique()} classes (say --target-type continuous if it is a "
            "quantity)"
        )
    if values in ("woe", "rate") and (target_type == "continuous" or y.nunique() != 2):
        what = "continuous" if target_type == "continuous" else f"{y.nunique()} classes"
        raise CommandError(
            f"--values {values} needs a binary target; {args.target!r} is {what}"
            + (" (use --values mean)" if target_type == "continuous" else "")
        )
    default_grouper, default_discretizer = default_estimators(target_type)
    grouper = (
        default_grouper
        if args.grouper is None
        else getattr(groupers, GROUPERS[args.grouper])()
    )
    discretizer = (
        default_discretizer
        if args.discretizer is None
        else getattr(discretizers, DISCRETIZERS[args.discretizer])()
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = report(
                frame, y, grouper=grouper, discretizer=discretizer,
                columns=args.columns, categorical=args.categorical,
                numeric=args.numeric, pairs=args.pairs, progress=ProgressBar(err),
                target_type=target_type,
            )  # fmt: skip
        except TableSizeError as error:
            raise CommandError(
                f"{error} On the command line: --target-type continuous."
            ) from None
        except (ValueError, TypeError) as error:
            raise CommandError(str(error)) from None
    for warning in caught:
        print(f"partikit report: {terminal_text(warning.message)}", file=err)
    print(
        f"{result.n_samples:,} rows, {len(result.estimators)} columns against "
        f"{terminal_text(repr(args.target))} ({describe_target(result)}), "
        f"{result.fit_time:.2f} s:",
        file=out,
    )
    print(format_overview(result), file=out)
    if result.pairs is not None and len(result.pairs):
        print("\nPairs worth combining:", file=out)
        for _, row in result.pairs.iterrows():
            print(f"  {' x '.join(map(terminal_text, row['members']))}: gain "
                  f"{row['gain']:.1f} decades", file=out)  # fmt: skip
    # every text is made before any file is written: a failure (the SQL of a
    # mapping it cannot express) leaves every existing file as it was
    texts = []
    try:
        if args.out:
            texts.append((args.out, result.to_html()))
        if args.json:
            texts.append((args.json, result.to_json(values=values)))
        if args.sql:
            texts.append(
                (args.sql, result.to_sql(args.sql_table, values=values) + ";\n")
            )
    except (ValueError, TypeError) as error:
        raise CommandError(f"nothing written: {error}") from None
    for path, text in texts:
        write_atomically(path, text)
        print(f"wrote {terminal_text(path)}", file=out)
    return 0


def guessed_target_type(y, target_type="auto"):
    """The kind of the target column, by the estimators' rule unless told.

    ``"auto"``: floats that are not all integers are continuous, anything else
    (integers, strings, booleans) class labels, as ``target_type="auto"`` of
    the estimators (scikit-learn's ``type_of_target``).
    """
    import numpy as np

    from partikit._counting._validation import guess_target_type

    if target_type != "auto":
        return target_type
    try:
        return guess_target_type(np.asarray(y))
    except ValueError as error:
        raise CommandError(str(error)) from None


def _column_list(text):
    return [name for name in text.split(",") if name]


def add_report_arguments(report_parser):
    """Declare the arguments of ``partikit report`` on its subparser."""
    report_parser.add_argument(
        "data", metavar="DATA",
        help="the data: a CSV file, or Parquet when the name ends in .parquet or "
        ".pq (needs pyarrow)",
    )  # fmt: skip
    report_parser.add_argument(
        "--target", required=True, metavar="COL",
        help="the column holding the target: class labels or a quantity (rows "
        "where it is missing are left out)",
    )  # fmt: skip
    report_parser.add_argument(
        "--target-type", choices=["auto", "binary", "multiclass", "continuous"],
        default="auto",
        help="the kind of target: auto guesses as the estimators do (floats that "
        "are not all integers are continuous, anything else class labels); say "
        "continuous for a quantity of integers (prices, counts) (default: auto)",
    )  # fmt: skip
    report_parser.add_argument(
        "--out", metavar="FILE",
        help="write the report as one self-contained HTML file (opens offline)",
    )  # fmt: skip
    report_parser.add_argument(
        "--json", metavar="FILE",
        help="write the learned mapping (categories to groups, cut points, "
        "missing and unknown rules) as JSON, schema partikit.mapping",
    )  # fmt: skip
    report_parser.add_argument(
        "--sql", metavar="FILE",
        help="write the learned mapping as one SQL SELECT giving each column's "
        "group or interval id",
    )  # fmt: skip
    report_parser.add_argument(
        "--values", choices=["woe", "rate", "mean"], default=None,
        help="with --json and --sql, also give every group and interval its "
        "weight of evidence or event rate (binary targets) or its mean of the "
        "target (continuous targets), and make the SQL output these values "
        "instead of the ids",
    )  # fmt: skip
    report_parser.add_argument(
        "--sql-table", default="data", metavar="NAME",
        help="the table the SQL statement reads from (default: data)",
    )  # fmt: skip
    report_parser.add_argument(
        "--columns", type=_column_list, metavar="A,B,...",
        help="report only these columns, in this order (default: all but the "
        "target)",
    )  # fmt: skip
    report_parser.add_argument(
        "--categorical", type=_column_list, metavar="A,B,...",
        help="columns to group as categorical whatever their dtype",
    )  # fmt: skip
    report_parser.add_argument(
        "--numeric", type=_column_list, metavar="A,B,...",
        help="columns to cut into intervals whatever their dtype",
    )  # fmt: skip
    report_parser.add_argument(
        "--grouper", choices=sorted(GROUPERS), default=None,
        help="how categorical columns are grouped: modl (MODLGrouper, Bayes "
        "optimal: noise stays one group), khiops (KhiopsGrouper, robust "
        "chi-square), chaid (CHAIDGrouper) or maxcut (MaxCutGrouper, two "
        "groups) (default: modl; chaid for a continuous target, which modl "
        "and khiops refuse)",
    )  # fmt: skip
    report_parser.add_argument(
        "--discretizer", choices=sorted(DISCRETIZERS), default=None,
        help="how numeric columns are cut: khiops (KhiopsDiscretizer, robust), "
        "modl (MODLDiscretizer, Bayes optimal), mdlp (MDLPDiscretizer) or "
        "blockopt (BlockOptDiscretizer) (default: modl; blockopt for a "
        "continuous target, which khiops, modl and mdlp refuse)",
    )  # fmt: skip
    report_parser.add_argument(
        "--pairs", action="store_true",
        help="also list the pairs of columns worth combining "
        "(AttributeAggregator's pair search)",
    )  # fmt: skip
    report_parser.add_argument(
        "--sep", default=",", metavar="SEP",
        help="the CSV field separator: one character, or several read "
        "literally (with pandas' slower python engine, which does not read a "
        "separator inside quotes); \\t is the tab "
        "(default: ,)",
    )  # fmt: skip
    report_parser.add_argument(
        "--na-values", type=_column_list, metavar="A,B,...",
        help="texts read as missing values besides pandas' own (empty, NA, "
        "NaN, ...), each a whole field: --na-values '?' for adult's '?' "
        "(default: none)",
    )  # fmt: skip
