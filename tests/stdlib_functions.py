"""Real code for the describer: 25 functions of the running interpreter's standard library.

Their source is never stored here: `write_seeds` reads it with `inspect` at test time and writes
seed files (the function, the helpers and constants it needs, and `# input:` lines chosen here)
into a folder of the caller's choosing.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
from pathlib import Path

# (module, function, what it needs: imports, or helpers and constants of the same module, inputs)
FUNCTIONS = [
    ("bisect", "bisect_right", [], [[[1, 2, 2, 3, 5], 2], [[1, 3], 0], [[], 4], [[1, 1, 1], 1], [[2, 4, 6, 8], 7]]),
    ("bisect", "bisect_left", [], [[[1, 2, 2, 3, 5], 2], [[1, 3], 4], [[], 4], [[1, 1, 1], 1], [[2, 4, 6, 8], 5]]),
    ("heapq", "heappop", ["_siftdown", "_siftup"],
     [[[1, 3, 2, 7, 4]], [[5]], [[2, 2, 3, 9, 4, 8]], [[0, 1, 2, 3, 4, 5, 6]], [[1, 5, 3, 6, 9, 4]]]),
    ("heapq", "heappushpop", ["_siftdown", "_siftup"],
     [[[1, 3, 2], 2], [[], 4], [[5, 6, 9], 1], [[2, 8, 3, 9], 7], [[0, 4, 1], 0]]),
    ("heapq", "heapreplace", ["_siftdown", "_siftup"],
     [[[1, 3, 2], 5], [[4], 1], [[2, 8, 3, 9], 7], [[0, 4, 1, 5, 6], 3], [[1, 1, 1], 0]]),
    ("heapq", "_siftdown", [], [[[1, 3, 2, 0], 0, 3], [[2, 5, 4, 1, 3], 0, 3], [[1, 2], 0, 1], [[9, 7, 8, 1], 0, 3]]),
    ("heapq", "merge", [], [[[1, 3], [2, 4]], [[], [1]], [[5], [1, 9]]]),
    ("textwrap", "indent", [], [["a\nb", "> "], ["x\n\ny", "- "], ["", "# "]]),
    ("textwrap", "dedent", ["import re", "_whitespace_only_re", "_leading_whitespace_re"], [["  a\n  b"], ["x"], ["    p\n  q"]]),
    ("colorsys", "rgb_to_hsv", [], [[1.0, 0.0, 0.0], [0.5, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 0.0],
                                    [0.2, 0.4, 0.4]]),
    ("colorsys", "hsv_to_rgb", [], [[0.0, 1.0, 1.0], [0.5, 0.5, 0.5], [0.25, 1.0, 0.5], [0.75, 0.5, 1.0], [0.0, 0.0, 0.3],
                                    [0.125, 1.0, 1.0]]),
    ("colorsys", "hls_to_rgb", ["ONE_THIRD", "ONE_SIXTH", "TWO_THIRD", "_v"],
     [[0.0, 0.5, 1.0], [0.5, 0.25, 0.0], [0.5, 0.25, 1.0], [0.25, 0.75, 0.5], [0.0, 1.0, 0.5]]),
    ("calendar", "isleap", [], [[2000], [1900], [2024], [2023]]),
    ("posixpath", "normpath", ["import os"], [["/a//b/../c"], ["./x/"], [""], ["a/./b"]]),
    ("genericpath", "_splitext", [], [["a/b.txt", "/", None, "."], ["..rc", "/", None, "."], ["x.tar.gz", "/", None, "."],
                                      ["dir.d/file", "/", None, "."], ["a\\b.c", "/", "\\", "."]]),
    ("genericpath", "commonprefix", ["import os"], [[["interview", "internet", "interval"]], [[]], [["a", "b"]], [["same", "same"]]]),
    ("json.decoder", "py_scanstring",
     ["import re", "from json import JSONDecodeError", "FLAGS", "STRINGCHUNK", "BACKSLASH"], [["\"abc\"", 1], ["\"a\\nb\"", 1], ["\"x\" rest", 1]]),
    ("html", "escape", [], [["a<b"], ["\"q\" & 'r'", False], ["x > y & z"], ["'s'", True]]),
    ("statistics", "median", [], [[[3, 1, 2]], [[4, 1, 3, 2]], [[7]], [[5, 5, 1, 9, 2, 8]], [[2, 4]]]),
    ("statistics", "median_low", [], [[[3, 1, 2]], [[4, 1, 3, 2]], [[7]], [[5, 5, 1, 9, 2, 8]], [[2, 4]]]),
    ("encodings.punycode", "adapt", [], [[10, True, 1], [5000, False, 3], [999999, True, 7], [0, False, 1], [30000, False, 2]]),
    ("encodings.punycode", "selective_len", [], [["abc\u00e9", 128], ["", 10], ["\u00e9\u00e8", 200], ["hello", 104]]),
    ("encodings.punycode", "selective_find", [], [["abcab", "b", 0, -1], ["bbb", "b", 2, 0], ["xyz", "a", 0, -1],
                                                  ["cab", "b", 0, -1]]),
    ("zipfile", "_gen_crc", [], [[0], [1], [255], [7], [128], [0xEDB8]]),
    ("encodings.punycode", "T", [], [[0, 72], [1, 10], [3, 0], [0, 40], [2, 100]]),
]


def _top_level_source(module, name: str) -> str:
    """The source of one top-level function or constant of `module` (the first pure-Python
    definition, also when it sits in a top-level try/except or if, as posixpath.normpath does)."""
    text = inspect.getsource(module)
    tree = ast.parse(text)
    nodes = []
    for statement in tree.body:
        nodes.append(statement)
        for field in ("body", "handlers", "orelse"):
            for inner in getattr(statement, field, []) if isinstance(statement, (ast.Try, ast.If)) else []:
                nodes.extend(inner.body if isinstance(inner, ast.ExceptHandler) else [inner])
    for node in nodes:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return ast.get_source_segment(text, node)
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.get_source_segment(text, node)
    raise LookupError(f"{module.__name__} has no top-level {name}")


def seed_name(module: str, function: str) -> str:
    return f"{module.replace('.', '_')}_{function.strip('_')}"


def write_seeds(folder: Path) -> list[Path]:
    """One seed file per function of FUNCTIONS, written into `folder`; returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for module_name, function, needs, inputs in FUNCTIONS:
        module = importlib.import_module(module_name)
        parts = [name if name.startswith(("import ", "from ")) else _top_level_source(module, name)
                 for name in [*needs, function]]  # the entry comes last
        lines = "\n".join(f"# input: {json.dumps(args)}" for args in inputs)
        path = folder / f"{seed_name(module_name, function)}.py"
        path.write_text("\n\n\n".join(parts) + "\n\n\n" + lines + "\n")
        paths.append(path)
    return paths
