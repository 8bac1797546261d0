# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The only module of partikit that imports private scikit-learn helpers.

A scikit-learn upgrade that moves one of them means editing this file and no other.
"""

from sklearn.base import _fit_context
from sklearn.utils._param_validation import (
    HasMethods,
    Hidden,
    Interval,
    InvalidParameterError,
    Options,
    RealNotInt,
    StrOptions,
    validate_params,
)
from sklearn.utils._set_output import _get_output_config
from sklearn.utils.validation import (
    _check_feature_names_in,
    _check_sample_weight,
    _num_samples,
    validate_data,
)

__all__ = [
    "HasMethods",
    "Hidden",
    "Interval",
    "InvalidParameterError",
    "Options",
    "RealNotInt",
    "StrOptions",
    "_check_feature_names_in",
    "_check_sample_weight",
    "_fit_context",
    "_get_output_config",
    "_num_samples",
    "validate_data",
    "validate_params",
]
