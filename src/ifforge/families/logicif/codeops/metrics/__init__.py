"""Complexity metrics of seed source, computed as LogicIF's public code does (`complexity_metrics`).
A measurement only: it reads the source and depends on no other purpose of `codeops`."""
