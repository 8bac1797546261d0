"""Reporting and export (private top floor).

:func:`~partikit.report`, its HTML, the learned mapping as JSON and SQL, and
the ``partikit report`` command. It sits above the estimators and uses them
through their public API only.
"""
