"""Statistics on contingency tables (private floor 1).

Pure functions of tables: table operations, chi-square statistics and p-values
that never underflow, impurities, weight of evidence, the robust chi-square
pieces the Khiops methods share, and the result records of the cores. They read
tables, never rows, and import only ``partikit._kernels`` and the root helpers.
"""
