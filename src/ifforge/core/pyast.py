"""`ast.parse` behind one process-wide lock.

CPython 3.11 keeps the recursion counter of its AST-to-Python conversion in shared state (CPython
gh-106905, fixed after 3.11.7); two
threads building ASTs at once can trip "SystemError: AST constructor recursion depth mismatch".
It dropped items at random under our thread pools (seen on a Dask worker), so every parse in the
project, radon's included, goes through this lock. Parsing is fast; the lock costs nothing visible.
"""

from __future__ import annotations

import ast
import threading

AST_LOCK = threading.RLock()


def parse(source: str, filename: str = "<unknown>") -> ast.Module:
    with AST_LOCK:
        return ast.parse(source, filename)
