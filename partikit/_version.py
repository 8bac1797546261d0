# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
__version__ = "0.1.0.dev0"
