"""The token stripper against libcst's, on code nobody here wrote: agreement and speed.

`core.pysource` strips most sources from their tokens and leaves the rest to libcst; both must give
the same text. This reads every standard-library module (under `--max-bytes`), each top-level def
and class in it (from its first decorator), and the `function` field of any JSONL files given (the
original LogicIFEval release, say), and prints how many agree, differ (each shown as a diff) or are
left to libcst, and the seconds each way.

Usage: python benchmarks/strip_agreement.py [--every N] [--max-bytes B] [FILE.jsonl ...]
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import sysconfig
import time
from pathlib import Path

from ifforge.core.pysource import _strip_by_tokens, _strip_with_libcst


def corpus(max_bytes: int, files: list[Path]) -> list[tuple[str, str]]:
    texts = []
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).rglob("*.py")):
        try:
            text = path.read_text()
            tree = ast.parse(text)
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
            continue
        lines = text.splitlines(keepends=True)
        if len(text) <= max_bytes:
            texts.append((str(path), text))
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                first = min([d.lineno for d in node.decorator_list] + [node.lineno])
                texts.append((f"{path}:{node.lineno}", "".join(lines[first - 1:node.end_lineno])))
    for file in files:
        for number, line in enumerate(file.read_text().splitlines(), 1):
            row = json.loads(line) if line.strip() else {}
            if isinstance(row, dict) and isinstance(row.get("function"), str):
                texts.append((f"{file}:{number}", row["function"]))
    return texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--every", type=int, default=1, help="take every Nth source (libcst is slow)")
    parser.add_argument("--max-bytes", type=int, default=20000, help="whole modules up to this size")
    parser.add_argument("--show", type=int, default=5, help="diffs to print")
    args = parser.parse_args()
    texts = corpus(args.max_bytes, args.files)[::args.every]
    same = differ = unsure = refused = 0
    by_tokens = by_libcst = 0.0
    for name, text in texts:
        began = time.perf_counter()
        try:
            want = _strip_with_libcst(text)
        except Exception:  # noqa: BLE001 - libcst refuses it: so does the stripper, by falling back to it
            refused += 1
            continue
        middle = time.perf_counter()
        got = _strip_by_tokens(text)
        by_libcst += middle - began
        by_tokens += time.perf_counter() - middle
        if got is None:
            unsure += 1
        elif got == want:
            same += 1
        else:
            differ += 1
            if differ <= args.show:
                print(f"DIFFERS: {name}")
                print("".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "libcst", "tokens")))
    print(f"{len(texts)} sources: {same} the same, {differ} differ, {unsure} left to libcst, {refused} libcst "
          f"cannot parse; libcst {by_libcst:.1f} s, tokens {by_tokens:.1f} s "
          f"({by_libcst / max(by_tokens, 1e-9):.1f}x)")


if __name__ == "__main__":
    main()
