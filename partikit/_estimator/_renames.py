# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Parameters renamed in 0.2, whose 0.1 names keep working for two releases.

An estimator keeps the 0.1 name as a hidden constructor parameter whose default
is the string ``"deprecated"``; setting it warns (``FutureWarning``) when the
parameters are validated, at the start of ``fit``, ``partial_fit`` or
``fit_tables``, and its value, converted when the meaning turned round
(``p`` became ``alpha = 1 - p``), is used in place of the new parameter's. A
core function takes the 0.1 keyword through :func:`renamed_keywords`.
``docs/whats_new.rst`` lists every rename.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import NamedTuple

from partikit._compat import Hidden, StrOptions

#: Default of a constructor parameter kept only under its 0.1 name.
DEPRECATED = "deprecated"

#: The release whose name replaces the old one, and the one that drops it.
RENAMED_IN, REMOVED_IN = "0.2", "0.4"


class Renamed(NamedTuple):
    """One renamed parameter.

    Attributes
    ----------
    old, new : str
        The 0.1 name and the 0.2 name.
    convert : callable or None
        Old value -> new value, when the meaning changed with the name (None:
        the value carries over as it is).
    note : str
        How an old value reads in the new parameter, for the warning.
    """

    old: str
    new: str
    convert: Callable | None = None
    note: str = ""

    def message(self, owner):
        how = f" ({self.note})" if self.note else ""
        return (
            f"{owner}: '{self.old}' was renamed '{self.new}' in {RENAMED_IN} and "
            f"will be removed in {REMOVED_IN}; use '{self.new}' instead{how}."
        )

    def new_value(self, value):
        return value if self.convert is None else self.convert(value)


def complement(p):
    """``alpha = 1 - p``: a probability of one part turned into a level."""
    return 1.0 - p


#: ``p`` of the Khiops methods became the level ``alpha``.
P_TO_ALPHA = Renamed("p", "alpha", complement, "alpha = 1 - p")


def deprecated_constraints(constraints):
    """The constraints of a 0.1 name: those of the old parameter, plus its default."""
    return [Hidden(StrOptions({DEPRECATED})), *constraints]


class RenamedParametersMixin:
    """Warn for 0.1 parameter names and read the parameters through them.

    A subclass lists its renames in ``_renamed_parameters`` and reads a renamed
    parameter with ``self._parameter(new)``.
    """

    _renamed_parameters: tuple = ()

    def _validate_params(self):
        super()._validate_params()
        for renamed in self._renamed_parameters:
            if getattr(self, renamed.old) != DEPRECATED:
                warnings.warn(
                    renamed.message(type(self).__name__), FutureWarning, stacklevel=4
                )

    def _parameter(self, name):
        """The value of parameter ``name``, or of its 0.1 name when that is set."""
        for renamed in self._renamed_parameters:
            if renamed.new == name:
                old = getattr(self, renamed.old)
                if old != DEPRECATED:
                    return renamed.new_value(old)
        return getattr(self, name)


def renamed_keywords(*renames):
    """Let a function take the 0.1 names of its keywords, with a FutureWarning.

    Parameters
    ----------
    *renames : Renamed

    Returns
    -------
    decorator : callable
    """

    def decorate(function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            for renamed in renames:
                if renamed.old in kwargs:
                    if renamed.new in kwargs:
                        raise TypeError(
                            f"{function.__name__}() got both '{renamed.old}' and "
                            f"'{renamed.new}'; '{renamed.old}' is its 0.1 name"
                        )
                    warnings.warn(
                        renamed.message(f"{function.__name__}()"),
                        FutureWarning,
                        stacklevel=2,
                    )
                    kwargs[renamed.new] = renamed.new_value(kwargs.pop(renamed.old))
            return function(*args, **kwargs)

        return wrapper

    return decorate
