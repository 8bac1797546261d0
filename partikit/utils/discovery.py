# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Find every public estimator of partikit, so that common tests cover new ones."""

import importlib
import inspect
import pkgutil

from sklearn.base import BaseEstimator

import partikit


def all_estimators():
    """List the public estimators of partikit.

    An estimator is public when its class is a concrete ``BaseEstimator`` subclass
    exported by a public partikit module (no leading underscore in any part of the
    module path nor in the class name).

    Returns
    -------
    estimators : list of (str, type)
        ``(name, class)`` pairs sorted by name.

    Examples
    --------
    >>> from partikit.utils import all_estimators
    >>> [name for name, _ in all_estimators()]
    [...'KhiopsGrouper'...]
    """
    found = {}
    # the package itself exports the estimators of its private modules
    # (PartitionEncoder); then every public subpackage and module
    names = ["partikit"] + [
        m.name for m in pkgutil.walk_packages(partikit.__path__, "partikit.")
    ]
    for module_name in names:
        parts = module_name.split(".")
        if any(part.startswith("_") for part in parts) or "tests" in parts:
            continue
        module = importlib.import_module(module_name)
        for name, obj in inspect.getmembers(module, inspect.isclass):
            if (
                issubclass(obj, BaseEstimator)
                and not name.startswith("_")
                and not inspect.isabstract(obj)
                and obj.__module__.startswith("partikit.")
            ):
                found[name] = obj
    return sorted(found.items())
