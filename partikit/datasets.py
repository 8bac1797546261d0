# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Synthetic classification problems whose right partition is known.

Used by the documentation, the tests and the benchmarks; nothing is downloaded.
"""

from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.utils import check_random_state

from partikit._compat import Interval, StrOptions, validate_params

__all__ = [
    "make_credit",
    "make_grouped_categorical",
    "make_interval_target",
    "make_k_of_n",
    "make_random_table",
]


@validate_params(
    {
        "n_samples": [Interval(Integral, 1, None, closed="left")],
        "n_categories": [Interval(Integral, 1, None, closed="left")],
        "n_classes": [Interval(Integral, 2, None, closed="left")],
        "n_groups": [Interval(Integral, 1, None, closed="left")],
        "frequencies": [StrOptions({"uniform", "zipf"})],
        "zipf_exponent": [Interval(Real, 0, None, closed="neither")],
        "signal": [Interval(Real, 0, 1, closed="both")],
        "n_noise_features": [Interval(Integral, 0, None, closed="left")],
        "dtype": [StrOptions({"category", "object"})],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def make_grouped_categorical(
    n_samples=10_000,
    n_categories=100,
    n_classes=3,
    n_groups=4,
    *,
    frequencies="uniform",
    zipf_exponent=1.1,
    signal=0.4,
    n_noise_features=0,
    dtype="category",
    random_state=None,
):
    """Make a categorical column whose categories fall into hidden groups.

    Every category belongs to one of ``n_groups`` hidden groups (assigned at random,
    as evenly as possible). The class of a row depends on its category only through
    the category's group: group ``g`` moves a probability ``signal / (1 + g //
    n_classes)`` onto class ``g mod n_classes``, the rest being uniform over the
    classes. Every hidden group thus has its own class profile (with more groups
    than classes, the later groups favour their class less). A good supervised
    grouper recovers the hidden groups; optional noise columns are independent of
    the class and should end in a single group.

    Parameters
    ----------
    n_samples : int, default=10_000
        Number of rows.
    n_categories : int, default=100
        Number of categories of the informative column ``"category"``.
    n_classes : int, default=3
        Number of classes.
    n_groups : int, default=4
        Number of hidden groups.
    frequencies : {"uniform", "zipf"}, default="uniform"
        Category frequencies: equal, or proportional to ``rank ** -zipf_exponent``
        (ranks in random order).
    zipf_exponent : float, default=1.1
        Exponent of the Zipf law.
    signal : float, default=0.4
        Probability moved onto the class of each of the first ``n_classes`` groups,
        in [0, 1] (later groups get a fraction of it); 0 makes the column
        independent of the class.
    n_noise_features : int, default=0
        Extra columns ``"noise_0"``, ... with ``n_categories`` uniform categories,
        independent of the class.
    dtype : {"category", "object"}, default="category"
        dtype of the returned columns (category names are strings ``"c0001"``...).
    random_state : int, RandomState instance or None, default=None
        Seed of the draws.

    Returns
    -------
    X : pandas DataFrame of shape (n_samples, 1 + n_noise_features)
        Column ``"category"`` then the noise columns.
    y : ndarray of int of shape (n_samples,)
        Classes ``0 .. n_classes - 1``.
    hidden_groups : pandas Series of int
        The hidden group of every category, indexed by category name (sorted).

    Examples
    --------
    >>> from partikit.datasets import make_grouped_categorical
    >>> X, y, hidden = make_grouped_categorical(n_samples=1000, random_state=0)
    >>> X.shape, y.shape, hidden.nunique()
    ((1000, 1), (1000,), 4)
    """
    rng = check_random_state(random_state)
    width = len(str(n_categories - 1))
    names = np.array([f"c{k:0{width}d}" for k in range(n_categories)], dtype=object)
    hidden = rng.permutation(np.arange(n_categories) % n_groups)

    if frequencies == "uniform":
        weights = np.full(n_categories, 1.0 / n_categories)
    else:
        weights = rng.permutation(np.arange(1, n_categories + 1) ** -zipf_exponent)
        weights /= weights.sum()
    codes = rng.choice(n_categories, size=n_samples, p=weights)

    group_signal = signal / (1.0 + np.arange(n_groups) // n_classes)
    class_probabilities = np.repeat(
        ((1.0 - group_signal) / n_classes)[:, None], n_classes, axis=1
    )
    class_probabilities[np.arange(n_groups), np.arange(n_groups) % n_classes] += (
        group_signal
    )
    cumulative = np.cumsum(class_probabilities, axis=1)
    cumulative[:, -1] = 1.0  # guard against rounding at the last class
    draws = rng.random_sample(n_samples)
    y = (draws[:, None] >= cumulative[hidden[codes]]).sum(axis=1)

    columns = {"category": _as_column(names, codes, dtype)}
    for k in range(n_noise_features):
        noise = rng.randint(n_categories, size=n_samples)
        columns[f"noise_{k}"] = _as_column(names, noise, dtype)
    X = pd.DataFrame(columns)
    hidden_groups = pd.Series(
        hidden, index=pd.Index(names, name="category"), name="hidden_group"
    )
    return X, y, hidden_groups


def _as_column(names, codes, dtype):
    if dtype == "category":
        return pd.Categorical.from_codes(codes, categories=names)
    return pd.Series(names[codes], dtype=object)


@validate_params(
    {
        "n_values": [Interval(Integral, 1, None, closed="left")],
        "n_classes": [Interval(Integral, 1, None, closed="left")],
        "max_count": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def make_random_table(n_values, n_classes, *, max_count=7, random_state=None):
    """Random contingency table of the binary-partition experiments.

    Each entry is drawn uniformly from ``{0, ..., max_count}``; the whole table is
    drawn again while a row or a column sums to zero, so that the table has exactly
    ``n_values`` values and ``n_classes`` classes (the protocol of Coppersmith, Hong
    & Hosking 1999 as amended in the thesis of Mello Pereira 2018, chapter 5).

    Parameters
    ----------
    n_values : int
        Rows (values of the categorical attribute).
    n_classes : int
        Columns (classes).
    max_count : int, default=7
        Largest entry.
    random_state : int, RandomState instance or None, default=None
        Seeds the draws.

    Returns
    -------
    table : ndarray of float64 of shape (n_values, n_classes)
        No empty row and no empty column.

    References
    ----------
    .. [1] D. Coppersmith, S. J. Hong and J. R. M. Hosking, "Partitioning nominal
       attributes in decision trees", Data Mining and Knowledge Discovery
       3(2):197-217, 1999, doi:10.1023/A:1009869804967.
    .. [2] F. de A. Mello Pereira, "Binary splitting criteria for large categorical
       attributes in decision trees", M.Sc. dissertation, PUC-Rio, 2018, chapter 5.

    Examples
    --------
    >>> from partikit.datasets import make_random_table
    >>> table = make_random_table(6, 3, random_state=0)
    >>> table.shape, int(table.sum(axis=0).min() > 0), int(table.sum(axis=1).min() > 0)
    ((6, 3), 1, 1)
    """
    rng = check_random_state(random_state)
    while True:
        table = rng.randint(0, max_count + 1, size=(n_values, n_classes))
        if (table.sum(axis=0) > 0).all() and (table.sum(axis=1) > 0).all():
            return table.astype(np.float64)


@validate_params(
    {
        "n_samples": [Interval(Integral, 1, None, closed="left")],
        "n_classes": [Interval(Integral, 2, None, closed="left")],
        "n_intervals": [Interval(Integral, 1, None, closed="left")],
        "signal": [Interval(Real, 0, 1, closed="both")],
        "n_noise_features": [Interval(Integral, 0, None, closed="left")],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def make_interval_target(
    n_samples=1_000_000,
    n_classes=10,
    n_intervals=8,
    *,
    signal=0.5,
    n_noise_features=0,
    random_state=None,
):
    """Make a numeric feature whose class depends on hidden intervals.

    ``x`` is uniform on [0, 1). The unit interval is cut into ``n_intervals``
    hidden intervals (random widths, none narrower than half the mean width).
    Each hidden interval favours one class, drawn at random but never the class
    of the previous interval (so a class may come back further right: the
    pattern is not monotone); the class of a row is that class with probability
    ``signal + (1 - signal) / n_classes``, any other class with probability
    ``(1 - signal) / n_classes``. A supervised discretizer should find exactly
    the hidden cuts; optional noise features (uniform, independent of the class)
    should stay one interval.

    Parameters
    ----------
    n_samples : int, default=1_000_000
        Number of rows.
    n_classes : int, default=10
        Number of classes.
    n_intervals : int, default=8
        Number of hidden intervals.
    signal : float, default=0.5
        Extra probability of each interval's favoured class.
    n_noise_features : int, default=0
        Additional columns independent of the class.
    random_state : int, RandomState instance or None, default=None
        Seed of the generator.

    Returns
    -------
    X : ndarray of shape (n_samples, 1 + n_noise_features)
        The informative feature first.
    y : ndarray of int of shape (n_samples,)
        Class labels ``0 .. n_classes - 1``.
    cuts : ndarray of shape (n_intervals - 1,)
        The hidden cut points, increasing.

    Examples
    --------
    >>> from partikit.datasets import make_interval_target
    >>> X, y, cuts = make_interval_target(n_samples=1000, random_state=0)
    >>> X.shape, len(cuts)
    ((1000, 1), 7)
    """
    rng = check_random_state(random_state)
    widths = 0.5 + rng.dirichlet(np.ones(n_intervals)) * 0.5 * n_intervals
    edges = np.cumsum(widths) / widths.sum()
    cuts = edges[:-1]
    favoured = np.empty(n_intervals, dtype=np.intp)
    for k in range(n_intervals):
        choices = [c for c in range(n_classes) if k == 0 or c != favoured[k - 1]]
        favoured[k] = rng.choice(choices)
    x = rng.uniform(size=n_samples)
    interval = np.searchsorted(cuts, x, side="right")
    noise = rng.randint(n_classes, size=n_samples)
    y = np.where(rng.uniform(size=n_samples) < signal, favoured[interval], noise)
    X = np.column_stack([x, rng.uniform(size=(n_samples, n_noise_features))])
    return X, y, cuts


@validate_params(
    {
        "n_samples": [Interval(Integral, 1, None, closed="left")],
        "n_tests": [Interval(Integral, 1, None, closed="left")],
        "k": [Interval(Integral, 1, None, closed="left")],
        "noise": [Interval(Real, 0, 1, closed="both")],
        "positive_rate": [Interval(Real, 0, 1, closed="both")],
        "n_noise_features": [Interval(Integral, 0, None, closed="left")],
        "dtype": [StrOptions({"category", "object"})],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def make_k_of_n(
    n_samples=10_000,
    n_tests=5,
    k=3,
    *,
    noise=0.1,
    positive_rate=0.5,
    n_noise_features=0,
    dtype="category",
    random_state=None,
):
    """Make binary tests whose class is "at least k of the n tests are positive".

    The example of the introduction of Pereira's thesis: ``n_tests`` binary
    attributes (say medical tests), each ``"pos"`` with probability
    ``positive_rate``, independently; the class is 1 when at least ``k`` of them
    are positive, flipped with probability ``noise``. No single test decides the
    class, and a linear model on the tests separately cannot express the
    threshold on their count, while their aggregate (the ``2 ** n_tests``
    combinations) can. Optional noise features are binary columns like the tests,
    independent of the class.

    Parameters
    ----------
    n_samples : int, default=10_000
        Number of rows.
    n_tests : int, default=5
        Number of informative binary columns.
    k : int, default=3
        Positive tests needed for class 1; at most ``n_tests``.
    noise : float, default=0.1
        Probability that a row's class is flipped.
    positive_rate : float, default=0.5
        Probability that a test is positive.
    n_noise_features : int, default=0
        Binary columns independent of the class, after the tests.
    dtype : {"category", "object"}, default="category"
        Columns as pandas ``category`` or as object (str) columns.
    random_state : int, RandomState instance or None, default=None
        Seed of the generator.

    Returns
    -------
    X : pandas.DataFrame of shape (n_samples, n_tests + n_noise_features)
        Columns ``test_0 ..`` then ``noise_0 ..``, values ``"neg"`` and ``"pos"``.
    y : ndarray of int of shape (n_samples,)
        Class labels 0 and 1.

    References
    ----------
    .. [1] F. de A. Mello Pereira, "Binary splitting criteria for large categorical
       attributes in decision trees", M.Sc. dissertation, PUC-Rio, 2018, chapter 1.

    Examples
    --------
    >>> from partikit.datasets import make_k_of_n
    >>> X, y = make_k_of_n(n_samples=1000, n_noise_features=1, random_state=0)
    >>> list(X.columns)
    ['test_0', 'test_1', 'test_2', 'test_3', 'test_4', 'noise_0']
    """
    if k > n_tests:
        raise ValueError(f"k={k} positive tests cannot be met with n_tests={n_tests}.")
    rng = check_random_state(random_state)
    positive = rng.uniform(size=(n_samples, n_tests + n_noise_features))
    positive = positive < positive_rate
    y = positive[:, :n_tests].sum(axis=1) >= k
    y = (y ^ (rng.uniform(size=n_samples) < noise)).astype(np.intp)
    names = [f"test_{j}" for j in range(n_tests)]
    names += [f"noise_{j}" for j in range(n_noise_features)]
    values = np.array(["neg", "pos"], dtype=object)
    X = pd.DataFrame(
        {
            name: _as_column(values, positive[:, j].astype(np.intp), dtype)
            for j, name in enumerate(names)
        }
    )
    return X, y


#: The categories of make_credit's categorical columns, their shares and their
#: effect on the log-odds of default.
_CREDIT_HOME = {"own": (0.25, -0.4), "mortgage": (0.40, -0.2), "rent": (0.30, 0.3),
                "other": (0.05, 0.6)}  # fmt: skip
_CREDIT_PURPOSE = {
    "car": (0.25, -0.2),
    "debt consolidation": (0.30, 0.3),
    "home improvement": (0.15, -0.3),
    "education": (0.10, 0.1),
    "business": (0.08, 0.6),
    "medical": (0.07, 0.4),
    "other": (0.05, 0.0),
}


@validate_params(
    {
        "n_samples": [Interval(Integral, 1, None, closed="left")],
        "missing_rate": [Interval(Real, 0, 1, closed="left")],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def make_credit(n_samples=10_000, *, missing_rate=0.08, random_state=None):
    """Make a credit-style table: applicants and whether they defaulted.

    Six columns, four numeric and two categorical, each with a monotone or
    grouped effect on the log-odds of default, the target of a scorecard:
    ``age`` (integer, 18 to 75; risk falls with age), ``income`` (log-normal,
    median 40,000; risk falls with the log of income; a share
    ``missing_rate`` of it missing, and those rows riskier), ``debt_ratio``
    (risk rises with it), ``late_payments`` (Poisson counts; risk rises up
    to 4), ``home`` (``own``, ``mortgage``, ``rent``, ``other``) and
    ``purpose`` (7 categories). The log-odds of default is their sum plus a
    constant that makes about 11% of the rows default. Nothing is downloaded.

    Parameters
    ----------
    n_samples : int, default=10_000
        Number of rows (applicants).
    missing_rate : float, default=0.08
        Share of ``income`` missing.
    random_state : int, RandomState instance or None, default=None
        Seed of the generator.

    Returns
    -------
    X : pandas.DataFrame of shape (n_samples, 6)
        Columns ``age``, ``income``, ``debt_ratio``, ``late_payments``,
        ``home`` and ``purpose`` (strings).
    y : ndarray of int of shape (n_samples,)
        1 for a default (the event), 0 otherwise.
    probability : ndarray of shape (n_samples,)
        The probability of default each row was drawn with (the known answer).

    Examples
    --------
    >>> from partikit.datasets import make_credit
    >>> X, y, probability = make_credit(n_samples=1000, random_state=0)
    >>> list(X.columns)
    ['age', 'income', 'debt_ratio', 'late_payments', 'home', 'purpose']
    >>> X.shape, sorted(set(y.tolist()))
    ((1000, 6), [0, 1])
    """
    rng = check_random_state(random_state)
    age = rng.randint(18, 76, size=n_samples)
    income = np.exp(rng.normal(np.log(40_000.0), 0.5, size=n_samples)).round(-2)
    income_missing = rng.uniform(size=n_samples) < missing_rate
    debt_ratio = (rng.beta(2.0, 5.0, size=n_samples) * 1.5).round(3)
    late_payments = rng.poisson(0.4, size=n_samples)
    home_names = list(_CREDIT_HOME)
    home = rng.choice(
        len(home_names), size=n_samples, p=[v[0] for v in _CREDIT_HOME.values()]
    )
    purpose_names = list(_CREDIT_PURPOSE)
    purpose = rng.choice(
        len(purpose_names), size=n_samples, p=[v[0] for v in _CREDIT_PURPOSE.values()]
    )
    log_odds = (
        -2.6
        - 0.035 * (age - 40)
        + np.where(income_missing, 0.5, -0.8 * np.log(income / 40_000.0))
        + 2.0 * (debt_ratio - 0.43)
        + 0.7 * np.minimum(late_payments, 4)
        + np.array([v[1] for v in _CREDIT_HOME.values()])[home]
        + np.array([v[1] for v in _CREDIT_PURPOSE.values()])[purpose]
    )
    probability = 1.0 / (1.0 + np.exp(-log_odds))
    y = (rng.uniform(size=n_samples) < probability).astype(np.int64)
    X = pd.DataFrame(
        {
            "age": age,
            "income": np.where(income_missing, np.nan, income),
            "debt_ratio": debt_ratio,
            "late_payments": late_payments,
            "home": np.array(home_names, dtype=object)[home],
            "purpose": np.array(purpose_names, dtype=object)[purpose],
        }
    )
    return X, y, probability
