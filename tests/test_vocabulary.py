# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""One concept, one name, one set of allowed values (docs/vocabulary.rst).

A parameter name shared by two public estimators is validated the same way in
both (their defaults may differ), and every parameter of every public
estimator is in the vocabulary table of the docs, with the estimators that
take it. The 0.1 names kept for a deprecation period (default
``"deprecated"``) are left out of both checks: they mean what they meant.
The names whose values are criteria or methods of the target
(:data:`TARGET_NAMED`) are compared only between estimators of the same kind
of target, as scikit-learn's tree classifier and regressor differ in
``criterion``.
"""

import inspect
import itertools
import re
from pathlib import Path

import pytest
from sklearn.base import RegressorMixin

from partikit._compat import HasMethods, Hidden, Interval, StrOptions
from partikit._estimator._renames import DEPRECATED
from partikit.utils import all_estimators

VOCABULARY = Path(__file__).parents[1] / "docs" / "vocabulary.rst"


def _canonical(constraint):
    """A comparable form of one scikit-learn parameter constraint."""
    if isinstance(constraint, Hidden):
        return ("hidden", _canonical(constraint.constraint))
    if isinstance(constraint, StrOptions):
        return ("str", frozenset(constraint.options), frozenset(constraint.deprecated))
    if isinstance(constraint, Interval):
        return (
            "interval",
            constraint.type.__name__,
            constraint.left,
            constraint.right,
            constraint.closed,
        )
    if isinstance(constraint, HasMethods):
        return ("methods", tuple(constraint.methods))
    if isinstance(constraint, type):
        return ("type", constraint.__qualname__)
    if constraint is None:
        return ("none",)
    return ("value", str(constraint))


def _current_parameters(cls):
    """{name: canonical constraints} of the parameters that are not 0.1 names."""
    defaults = {
        name: parameter.default
        for name, parameter in inspect.signature(cls).parameters.items()
    }
    return {
        name: frozenset(map(_canonical, constraints))
        for name, constraints in cls._parameter_constraints.items()
        if not (isinstance(defaults[name], str) and defaults[name] == DEPRECATED)
    }


ESTIMATORS = dict(all_estimators())
PARAMETERS = {name: _current_parameters(cls) for name, cls in ESTIMATORS.items()}
#: Parameters whose allowed values name criteria or methods of the target:
#: a class target's and a continuous target's differ (docs/vocabulary.rst).
TARGET_NAMED = {"criterion", "categorical_split", "numeric_split", "split_score"}


def _continuous(name):
    """Whether the estimator predicts a continuous target (a regressor)."""
    return issubclass(ESTIMATORS[name], RegressorMixin)


SHARED = sorted(
    (parameter, a, b)
    for a, b in itertools.combinations(sorted(PARAMETERS), 2)
    for parameter in set(PARAMETERS[a]) & set(PARAMETERS[b])
    if parameter not in TARGET_NAMED or _continuous(a) == _continuous(b)
)


#: Parameters a whole-table estimator sets on the estimators of its columns,
#: allowing also "auto" (chosen by the kind of target): {parameter: estimators}.
AUTO_EXTENDED = {"encode": {"PartitionEncoder"}}


def _without_auto(parameter, estimator):
    """The constraints of ``parameter``, "auto" left out where it only extends."""
    constraints = PARAMETERS[estimator][parameter]
    if estimator not in AUTO_EXTENDED.get(parameter, ()):
        return constraints
    return frozenset(
        ("str", options - {"auto"}, deprecated)
        if kind == "str" else (kind, options, deprecated)
        for kind, options, deprecated in constraints
    )  # fmt: skip


@pytest.mark.parametrize(
    "parameter, first, second", SHARED, ids=lambda value: str(value)
)
def test_shared_parameter_names_are_validated_alike(parameter, first, second):
    """Check that two estimators sharing a parameter name allow the same values."""
    assert _without_auto(parameter, first) == _without_auto(parameter, second), (
        f"{parameter!r} allows different values in {first} and {second}: "
        "one name must mean one thing (docs/vocabulary.rst)"
    )


def _documented_parameters():
    """{parameter: set of estimators} read from the vocabulary table."""
    rows = {}
    text = VOCABULARY.read_text()
    for match in re.finditer(
        r"^   \* - ``(\w+)``\n((?:     - .*\n(?:       .*\n)*)+)", text, re.MULTILINE
    ):
        cells = re.findall(r"     - (.*(?:\n       .*)*)", match.group(2))
        rows[match.group(1)] = set(re.findall(r"\b[A-Z]\w+\b", cells[-1]))
    return rows


@pytest.mark.parametrize("estimator", sorted(ESTIMATORS))
def test_every_parameter_is_in_the_vocabulary(estimator):
    """Check that the vocabulary table lists each parameter with this estimator."""
    documented = _documented_parameters()
    for parameter in PARAMETERS[estimator]:
        assert parameter in documented, f"{parameter} is not in {VOCABULARY.name}"
        assert estimator in documented[parameter], (
            f"{VOCABULARY.name} does not list {estimator} under {parameter}"
        )


def test_the_vocabulary_names_only_real_parameters():
    """Check that every estimator the table names takes that parameter."""
    for parameter, estimators in _documented_parameters().items():
        for estimator in estimators & set(ESTIMATORS):
            assert parameter in PARAMETERS[estimator], (
                f"{VOCABULARY.name} lists {estimator} under {parameter}"
            )
