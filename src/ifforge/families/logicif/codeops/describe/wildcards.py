"""Shell wildcards in words: a pattern made from a wildcard is said by the wildcard's own rules.

Python's `fnmatch.translate` turns a shell wildcard (`*.py`, `[!a-c]?`) into a regular expression
whose text no reader should have to read; what that expression matches is said instead, as the
wildcard's rules (`RULE`, checked against `fnmatch` itself by the tests). A function is that
translation when it is `fnmatch.translate` or a copy of its code (real code copies it, and a seed
brings it along with the function that uses it): the same statements as the standard library's
own, whatever the names, with the trackers' counting set aside. A name holds a wildcard's pattern
when everything it is set to is such a translation, or the bytes of one.
"""

from __future__ import annotations

import ast
import fnmatch
import inspect
import textwrap
from functools import lru_cache

import libcst as cst

from ifforge.core import pyast
from ifforge.families.logicif.codeops.common.walk import Reader, walk

RULE = ("A pattern made from a wildcard (as bytes, each byte standing for the character with its code) "
        "matches from a place in a text only by taking all the rest of the text, and does so exactly when the "
        "wildcard matches all of that rest, where: \"*\" matches any run of characters (none, one or more, line "
        "breaks included); \"?\" matches any one character; \"[\" starts a set that ends at the first \"]\" after "
        "it (a \"]\" just after the \"[\", or just after \"[!\", belongs to the set) and matches one character in "
        "the set, or, when the set starts with \"!\", one character not in the rest of it; the set (after that "
        "\"!\") is read from left to right, a character followed by \"-\" and one more character standing for "
        "every character from the first to that one by code point (none if the first comes later), any other "
        "character (\"-\" too) for itself; a \"[\" with no \"]\" to end its set, and any other character, a "
        "backslash too, matches only itself, "
        "capital and small letters apart.")
_LATIN = ("ISO-8859-1", "latin-1", "latin1", "iso-8859-1")


def _shape(source: str, stats: str) -> str:
    """The code of one function as a shape: no docstring, no tracker steps, and the names it binds
    itself numbered in order of first appearance (names from outside it stay as they are)."""
    function = pyast.parse(textwrap.dedent(source)).body[0]
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    own = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}
    own |= {n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    numbers: dict[str, str] = {}

    class Shape(ast.NodeTransformer):
        def visit_Name(self, node):
            if node.id in own:
                node.id = numbers.setdefault(node.id, f"n{len(numbers)}")
            return node

        def visit_arg(self, node):
            node.arg = numbers.setdefault(node.arg, f"n{len(numbers)}")
            return node

        def generic_visit(self, node):
            super().generic_visit(node)
            for name in ("body", "orelse"):
                steps = getattr(node, name, None)
                if isinstance(steps, list):
                    setattr(node, name, [s for s in steps if not _counts(s, stats)] or [ast.Pass()])
            return node

    function.body = body
    shaped = Shape().visit(function)
    return ast.dump(ast.Module(body=[*shaped.args.args, *shaped.body], type_ignores=[]))


def _counts(statement: ast.stmt, stats: str) -> bool:
    """A tracker's step: `stats[...] += 1` (or `=`)."""
    target = statement.target if isinstance(statement, ast.AugAssign) else (
        statement.targets[0] if isinstance(statement, ast.Assign) and len(statement.targets) == 1 else None)
    return isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id == stats


@lru_cache(maxsize=1)
def _library_shape() -> str | None:
    try:
        return _shape(inspect.getsource(fnmatch.translate), "")
    except (OSError, TypeError, SyntaxError):
        return None


def translators(module: cst.Module, stats: str) -> set[str]:
    """The functions of the module (nested ones too) whose code is the standard library's
    translation of a wildcard into a pattern."""
    found: set[str] = set()
    library = _library_shape()

    class Functions(Reader):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            if library is not None and len(cst.ensure_type(node.params, cst.Parameters).params) == 1 and \
                    _shape(cst.Module([]).code_for_node(node.with_changes(decorators=[])), stats) == library:
                found.add(node.name.value)

    walk(module, Functions())
    return found


def pattern_names(values: dict[str, list[cst.BaseExpression]], bound: dict[str, list[cst.CSTNode]],
                  made_by: set[str]) -> set[str]:
    """Names that hold a wildcard's pattern: every place that binds one (`bound`) is a plain `=`
    (`values`) of what a translation gives back, or of the bytes of such a name in ISO-8859-1."""
    held = {name for name, found in values.items() if len(found) == len(bound.get(name, []))}
    while True:  # a name made from another such name holds one only if that name does
        kept = {name for name in held if all(_is_pattern(v, made_by, held) for v in values[name])}
        if kept == held:
            return held
        held = kept


def translation(value: cst.BaseExpression, made_by: set[str]) -> bool:
    """Is this a call that turns one wildcard into a pattern (`fnmatch.translate(w)`, or a copy's)?"""
    if not isinstance(value, cst.Call) or len(value.args) != 1 or value.args[0].keyword or value.args[0].star:
        return False
    func = value.func
    return isinstance(func, cst.Name) and func.value in made_by or isinstance(func, cst.Attribute) and \
        isinstance(func.value, cst.Name) and func.value.value == "fnmatch" and func.attr.value == "translate"


def _is_pattern(value: cst.BaseExpression, made_by: set[str], held: set[str]) -> bool:
    if translation(value, made_by):
        return True
    if not isinstance(value, cst.Call) or any(a.keyword or a.star for a in value.args):
        return False
    func = value.func
    if isinstance(func, cst.Name) and func.value == "bytes" and len(value.args) == 2:
        text, encoding = (a.value for a in value.args)
        return isinstance(text, cst.Name) and text.value in held and isinstance(encoding, cst.SimpleString) \
            and encoding.evaluated_value in _LATIN
    return False
