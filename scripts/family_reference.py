"""Write docs/family-contract.md, the reference of the family contract, from its code's docstrings.

    python scripts/family_reference.py          # write the page
    python scripts/family_reference.py --check  # exit 1 when the page is not what the code says

Each class of the contract (`families/base.py`, `families/options.py`, `core/runner.Stage`) is listed
with its docstring, then its declarations (name, type, default and the comment beside it) and its
methods (signature and docstring), in the order of the source. tests/test_docs.py checks the page
is current, so a change of the contract that forgets the page fails.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "family-contract.md"
SOURCES = {  # module file -> classes and functions shown, in this order
    "src/ifforge/families/base.py": ("Family", "Request", "Reply", "Verdict", "Loaded", "BatchStage", "check_plan",
                                     "checked_plan", "PlanError", "field_problem"),
    "src/ifforge/families/options.py": ("Options", "option", "validated"),
    "src/ifforge/core/runner.py": ("Stage",),
}
HEAD = """# The family contract (reference)

What a family declares and implements, read from the code's docstrings by
`python scripts/family_reference.py` (do not edit this page by hand: `tests/test_docs.py` fails when
it is not what the code says). [Write a family](write-a-family.md) follows one item through it;
[One evaluate for every family](evaluate-architecture.md#the-family-contract) says how the generic code uses it.
"""


def _doc(node: ast.AST) -> str:
    return inspect.cleandoc(ast.get_docstring(node) or "")


def _signature(source: str, node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    arguments = ast.unparse(node.args)
    returns = f" -> {ast.unparse(node.returns)}" if node.returns is not None else ""
    return f"{node.name}({' '.join(arguments.split())}){returns}"


def _comment(line: str) -> str:
    """The comment beside a declaration (a `#` outside quotes), without the `#`."""
    quote = None
    for place, char in enumerate(line):
        if char in "\"'" and quote in (None, char):
            quote = None if quote else char
        elif char == "#" and quote is None:
            return line[place + 1:].strip()
    return ""


def _class(source: str, lines: list[str], node: ast.ClassDef) -> list[str]:
    bases = ", ".join(ast.unparse(base) for base in node.bases)
    out = [f"## `{node.name}`" + (f" ({bases})" if bases else ""), "", _doc(node), ""]
    declared, methods = [], []
    for item in node.body:
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            names, kind, value = [item.target.id], ast.unparse(item.annotation), item.value
        elif isinstance(item, ast.Assign) and all(isinstance(t, ast.Name) for t in item.targets):
            names, kind, value = [t.id for t in item.targets], "", item.value
        elif isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and not item.name.startswith("_"):
            decorators = [ast.unparse(d) for d in item.decorator_list]
            prefix = "property " if "property" in decorators or "cached_property" in decorators else ""
            methods.append(f"- `{prefix}{_signature(source, item)}`" + (f": {' '.join(_doc(item).split())}"
                                                                        if _doc(item) else ""))
            continue
        else:
            continue
        for name in names:
            if name.startswith("_") or name == "model_config":
                continue
            default = f" = {' '.join(ast.get_source_segment(source, value).split())}" if value is not None else ""
            comment = _comment(lines[item.end_lineno - 1])
            after = item.end_lineno
            while comment and after < len(lines) and lines[after].strip().startswith("#"):  # it goes on below
                comment += " " + lines[after].strip().lstrip("#").strip()
                after += 1
            declared.append(f"- `{name}{': ' + kind if kind else ''}{default}`" + (f": {comment}" if comment else ""))
    if declared:
        out += ["Declarations:", "", *declared, ""]
    if methods:
        out += ["Methods:", "", *methods, ""]
    return out


def page() -> str:
    out = [HEAD]
    for relative, names in SOURCES.items():
        source = (ROOT / relative).read_text()
        tree, lines = ast.parse(source), source.splitlines()
        found = {node.name: node for node in tree.body
                 if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))}
        module = relative.removeprefix("src/").removesuffix(".py").replace("/", ".")
        out += [f"# `{module}`", "", _doc(tree), ""]
        for name in names:
            node = found[name]  # a name the contract no longer has is an error here, not a silent gap
            if isinstance(node, ast.ClassDef):
                out += _class(source, lines, node)
            else:
                out += [f"## `{_signature(source, node)}`", "", _doc(node), ""]
    return "\n".join(out).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether the page is current")
    args = parser.parse_args(argv)
    text = page()
    if args.check:
        current = PAGE.exists() and PAGE.read_text() == text
        print(f"{PAGE.relative_to(ROOT)} is {'current' if current else 'stale: run scripts/family_reference.py'}")
        return 0 if current else 1
    PAGE.write_text(text)
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
