"""What every transformer shares (private floor 3).

The per-column fit, the output encodings, the partition tables and their plots.
The groupers and the discretizers build on it; it knows none of them.
"""
