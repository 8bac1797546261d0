"""Stage 1: from rows to tables (private floor 2).

Input validation and factorizing, the per-column contingency tables
(:class:`~partikit.ColumnTables`), their accumulation by ``partial_fit`` and
their counting on a Dask cluster. Everything that reads rows lives here.
"""
