"""`ast.parse` behind one process-wide lock.

CPython 3.11 keeps the recursion counter of its AST-to-Python conversion in shared state (CPython
gh-106905, fixed after 3.11.7); two
threads building ASTs at once can trip "SystemError: AST constructor recursion depth mismatch".
It dropped items at random under our thread pools (seen on a Dask worker), so every parse in the
project, radon's and `ast.literal_eval`'s included, goes through this lock
(`tests/test_layers.py` finds any that does not). Parsing is fast; the lock costs nothing visible.
"""

from __future__ import annotations

import ast
import threading

AST_LOCK = threading.RLock()


def parse(source: str, filename: str = "<unknown>", mode: str = "exec") -> ast.AST:
    with AST_LOCK:
        return ast.parse(source, filename, mode)


def literal_eval(source: str | ast.AST):
    """`ast.literal_eval`: given a text it parses, so that parse takes the lock too."""
    return ast.literal_eval(parse(source, mode="eval") if isinstance(source, str) else source)
