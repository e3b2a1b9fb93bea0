"""Small facts about seed source: its top-level functions, its entry point, its parameters, and the
source as libcst reads it."""

from __future__ import annotations

import ast
import io
import keyword
import tokenize
from functools import lru_cache
from typing import Mapping

import libcst as cst

from ifforge.core import pyast


class SeedSyntaxError(ValueError):
    """The code does not parse or lacks a function; carries the line to point the user at."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


def top_level_functions(source: str) -> list[str]:
    """Names of the module's top-level functions, in source order; raises `SeedSyntaxError`."""
    try:
        tree = pyast.parse(source)
    except SyntaxError as error:
        raise SeedSyntaxError(f"does not parse: {error.msg}", error.lineno) from None
    except (RecursionError, MemoryError):
        raise SeedSyntaxError("is nested too deeply to parse", None) from None
    return [node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def choose_entry(source: str, preferred: str) -> str:
    """The function named `preferred` if there is one, else the last top-level function."""
    names = top_level_functions(source)
    if not names:
        raise SeedSyntaxError("defines no top-level function", 1)
    return preferred if preferred in names else names[-1]


def parameter_names(source: str, function: str) -> list[str]:
    """The parameters of a top-level function, in order (positional first, then the rest)."""
    for node in pyast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            arguments = node.args
            names = [a.arg for a in arguments.posonlyargs + arguments.args]
            if arguments.vararg:
                names.append(arguments.vararg.arg)
            names += [a.arg for a in arguments.kwonlyargs]
            if arguments.kwarg:
                names.append(arguments.kwarg.arg)
            return names
    raise SeedSyntaxError(f"no top-level function named {function}")


def libcst_readable(source: str) -> str:
    """`source` as libcst can read it: libcst refuses some valid Python, a keyword written against a
    parenthesised choice or lambda (`return(a if b else c)`, `if(x if y else z):`, `return(lambda: 1)`),
    so a space goes between each keyword and a `(` written against it; the code means the same.
    As it is when libcst reads it, or when the spaced source does not read either (the stages say why)."""
    try:
        cst_module(source)  # (remembered: a later reader of the same source parses it no more)
        return source
    except cst.ParserSyntaxError:
        return source
    except Exception:  # a CSTValidationError, or a TypeError from inside libcst (`return(lambda: 1)`)
        pass
    lines = source.splitlines(keepends=True)
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return source
    places = [token.end for token, after in zip(tokens, tokens[1:])
              if token.type == tokenize.NAME and keyword.iskeyword(token.string)
              and after.type == tokenize.OP and after.string == "(" and after.start == token.end]
    for row, column in reversed(places):
        lines[row - 1] = lines[row - 1][:column] + " " + lines[row - 1][column:]
    spaced = "".join(lines)
    try:
        cst_module(spaced)
    except Exception:
        return source
    return spaced


@lru_cache(maxsize=256)
def cst_module(source: str) -> cst.Module:
    """`cst.parse_module(source)`, remembered: execute, describe and verify each parse an item's
    instrumented function (4 ms a time), and the run sends an item's stages to one worker process
    when it can (`core.workers`). libcst's trees never change, so one serves every reader; 256
    covers the items a worker meets between two stages of one (its shards in flight)."""
    return cst.parse_module(source)


def cst_parameters(function: cst.FunctionDef) -> list[cst.Param]:
    """Every parameter of a libcst function, in signature order (`*args` and `**kwargs` included)."""
    params = function.params
    ordered = list(params.posonly_params) + list(params.params)
    if isinstance(params.star_arg, cst.Param):
        ordered.append(params.star_arg)
    ordered += list(params.kwonly_params)
    if params.star_kwarg is not None:
        ordered.append(params.star_kwarg)
    return ordered


def dotted_name(node: cst.BaseExpression) -> str | None:
    """`a.b.c` of a name or a chain of attributes over a name; None for anything else (a call, a
    subscript), which no table of library names can match."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        owner = dotted_name(node.value)
        return f"{owner}.{node.attr.value}" if owner else None
    return None


def resolved_name(node: cst.BaseExpression, imported: Mapping[str, str]) -> str | None:
    """A dotted name with its first part traced through `from m import g [as h]` (`h.x` is `m.g.x`);
    `imported`: {h: "m.g"}."""
    dotted = dotted_name(node)
    if dotted is None:
        return None
    head, dot, rest = dotted.partition(".")
    return imported[head] + dot + rest if head in imported else dotted


class ValueNames(cst.CSTTransformer):
    """Rewrites each name read as a value through `replace`, never an attribute's name (`x.name`) or a
    keyword's (`f(name=...)`): the one way to read a name as something else everywhere it is a value."""

    def replace(self, name: cst.Name) -> cst.BaseExpression:
        return name

    def leave_Name(self, original, updated):
        return self.replace(updated)

    def visit_Attribute(self, node):
        return False

    def leave_Attribute(self, original, updated):
        return updated.with_changes(value=updated.value.visit(self))

    def visit_Arg(self, node):
        return False

    def leave_Arg(self, original, updated):
        return updated.with_changes(value=updated.value.visit(self))
