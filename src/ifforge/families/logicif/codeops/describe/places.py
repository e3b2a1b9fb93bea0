"""Where each step of a description stands in the code a reviewer reads beside it.

The describer knows which statement each step renders: it marks the step's line (`Placed`) with
that statement, and a line that leads into the next step ("Otherwise:") with none. `places` turns
the marks into the review page's rows: runs of the description's lines (a step with the lines
leading into it and the plain lines after it, notes inside its own line), each with its step's
label and the function and lines of its statement in the exported code (the rows' `function`).

The describer reads its own module (helpers beside `f`, names given roles, a stored method read in
place), the page shows the exported `f` (the module's helpers and constants moved into its body,
the anonymised names). So a statement is found by its position in the describer's module, then by
the alignment of that module's blocks with the exported code's, block by block: statements that
are the same but for their names pair first, then the rest by kind, in order. No text is guessed at.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from ifforge.core import pyast

ENTRY = "f"
_NAMES = re.compile(r"\b(id|arg|name|asname)='[^']*'|\bnames=\[[^\]]*\]")
_BLOCKS = ("body", "orelse", "finalbody")


class Placed(str):
    """A line of a description and what it renders: `node`, a statement (or a run of them told as one
    step), None for a line that leads into the next step; `header`, only the statement's header (its
    body is told in steps of its own); `step`, its label ("3.1") when it is a numbered step."""

    node: Any
    header: bool
    step: str | None

    def __new__(cls, text: str, node: Any = None, header: bool = False, step: str | None = None) -> Placed:
        line = super().__new__(cls, text)
        line.node, line.header, line.step = node, header, step
        return line


@dataclass(frozen=True)
class Narration:
    """A description, the module the describer read, and its placed lines by line number (1-based)."""

    text: str
    module: cst.Module
    placed: list[tuple[int, Placed]]

    @classmethod
    def of(cls, inputs: str, logic: list[str], outputs: str, module: cst.Module) -> Narration:
        """The description the describer writes (INPUTS, a blank line, the LOGICS lines, a blank line,
        OUTPUTS), with the line number of each placed line."""
        text = "\n\n".join([inputs, "\n".join(logic), outputs]) + "\n"
        placed = [(1, inputs)] if isinstance(inputs, Placed) else []
        number = inputs.count("\n") + 3  # the first LOGICS line
        for line in logic:
            if isinstance(line, Placed):
                placed.append((number + len(line) - len(line.lstrip("\n")), line))
            number += line.count("\n") + 1
        return cls(text, module, placed)


def places(narration: Narration, exported: str) -> list[dict[str, Any]]:
    """The description as rows: `lines` (first and last line of the description, 1-based), `step`
    (a numbered step's label, else None), and where its statement stands in `exported`: `function`
    (the innermost function whose body holds it; `f` for f's own header), `first` and `last` line."""
    positions = MetadataWrapper(narration.module, unsafe_skip_copy=True).resolve(PositionProvider)
    own = pyast.parse(narration.module.code)
    starts = {(node.lineno, node.col_offset): node for node in ast.walk(own) if isinstance(node, ast.stmt)}
    there = pyast.parse(exported)
    pairs = _pairs(own, there)
    owners = _owners(there)
    clauses = _clauses(there)

    def spot(line: Placed) -> dict[str, Any] | None:
        first, last = _ends(line.node)
        found = []
        for node in (first, last):
            start = positions[node].start if node in positions else None
            mine = starts.get((start.line, start.column)) if start else None
            found.append(pairs.get(id(mine)))
        if None in found:
            return None
        begin, end = found
        return {"function": owners[id(begin)], "first": _first_line(begin) if line.header else begin.lineno,
                "last": _header_end(end) if line.header else end.end_lineno, "statement": begin}

    rows: list[dict[str, Any]] = []
    leading: int | None = None  # the first of the lines leading into the next placed step
    marks = dict(narration.placed)
    for number in range(1, narration.text.count("\n") + 1):
        line = marks.get(number)
        place = spot(line) if line is not None and line.node is not None else None
        if place is not None:
            statement = place.pop("statement")
            clause = clauses.get(id(statement)) if leading else None
            if clause:  # "Otherwise, if ...:" beside its `elif`, `else:` or `except ...:`
                rows.append({"lines": [leading, number - 1], "step": None, "function": owners[id(statement)],
                             "first": clause[0], "last": clause[1]})
            rows.append({"lines": [number if clause else leading or number, number], "step": line.step, **place})
            leading = None
        elif line is not None and line.node is None and leading is None:
            leading = number
        elif rows and leading is None:
            rows[-1]["lines"][1] = number
    if leading is not None and rows:
        rows[-1]["lines"][1] = narration.text.count("\n")
    return rows


def _ends(node: Any) -> tuple[cst.CSTNode, cst.CSTNode]:
    """The first and last statement a step renders, each as ast sees statements (a line of several
    small statements is several)."""
    run = getattr(node, "run", None)  # several `x = ...` lines told as one step
    if run:
        return _ends(run[0][2])[0], _ends(run[-1][2])[1]
    if isinstance(node, cst.SimpleStatementLine):
        return node.body[0], node.body[-1]
    return node, node


def _pairs(own: ast.Module, there: ast.Module) -> dict[int, ast.stmt]:
    """Each statement of the describer's module (by id) -> the exported statement it became. The
    module's other statements moved to the top of f's body, before f's own."""
    entry = next(s for s in own.body if isinstance(s, ast.FunctionDef) and s.name == ENTRY)
    exported = next(s for s in there.body if isinstance(s, ast.FunctionDef))
    moved = [s for s in own.body if s is not entry and not (isinstance(s, ast.ImportFrom) and s.module == "__future__")]
    pairs = {id(entry): exported}
    _align(moved + entry.body, exported.body, pairs)
    return pairs


def _align(mine: list[ast.stmt], theirs: list[ast.stmt], pairs: dict[int, ast.stmt]) -> None:
    """Pair the statements of two blocks, then the blocks inside each pair."""
    keys = SequenceMatcher(None, [_key(s) for s in mine], [_key(s) for s in theirs], autojunk=False)
    for tag, i1, i2, j1, j2 in keys.get_opcodes():
        if tag == "equal":
            matched = list(zip(mine[i1:i2], theirs[j1:j2]))
        elif tag == "replace":  # changed by more than names: pair by kind, in order
            kinds = SequenceMatcher(None, [type(s).__name__ for s in mine[i1:i2]],
                                    [type(s).__name__ for s in theirs[j1:j2]], autojunk=False)
            matched = [(mine[i1 + a + k], theirs[j1 + b + k]) for a, b, size in kinds.get_matching_blocks()
                       for k in range(size)]
        else:
            continue
        for one, other in matched:
            pairs[id(one)] = other
            for field in _BLOCKS:
                _align(getattr(one, field, None) or [], getattr(other, field, None) or [], pairs)
            for inner, outer in zip(getattr(one, "handlers", None) or getattr(one, "cases", None) or [],
                                    getattr(other, "handlers", None) or getattr(other, "cases", None) or []):
                _align(inner.body, outer.body, pairs)


def _key(statement: ast.stmt) -> str:
    """A statement as its syntax tree, its names left out (the describer gives them roles)."""
    return _NAMES.sub("", ast.dump(statement))


def _owners(module: ast.Module) -> dict[int, str]:
    """Each statement (by id) -> the innermost function whose body holds it; f's own def -> f."""
    owners: dict[int, str] = {}

    def visit(statements: list[ast.stmt], owner: str) -> None:
        for statement in statements:
            owners[id(statement)] = owner
            inside = statement.name if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) else owner
            for field in _BLOCKS:
                visit(getattr(statement, field, None) or [], inside)
            for part in getattr(statement, "handlers", None) or getattr(statement, "cases", None) or []:
                visit(part.body, inside)

    for statement in module.body:
        owners[id(statement)] = getattr(statement, "name", ENTRY)
        visit(getattr(statement, "body", []), getattr(statement, "name", ENTRY))
    return owners


def _clauses(module: ast.Module) -> dict[int, tuple[int, int]]:
    """The first statement of each block that a clause opens (`elif`, `else`, `except`, `finally`),
    by id -> the lines of that clause's header."""
    found: dict[int, tuple[int, int]] = {}

    def before(first: ast.stmt) -> tuple[int, int]:  # `else:` and `finally:`: the line before the block
        return (max(first.lineno - 1, 1),) * 2

    for node in ast.walk(module):
        orelse = getattr(node, "orelse", None)
        if isinstance(node, ast.If) and orelse and isinstance(orelse[0], ast.If) and len(orelse) == 1 \
                and orelse[0].col_offset == node.col_offset:  # an `elif`: its own header
            found[id(orelse[0].body[0])] = (orelse[0].lineno, _header_end(orelse[0]))
        elif isinstance(node, (ast.If, ast.For, ast.While, ast.Try)) and orelse:
            found[id(orelse[0])] = before(orelse[0])
        for handler in getattr(node, "handlers", None) or []:
            found[id(handler.body[0])] = (handler.lineno, max(handler.lineno, handler.body[0].lineno - 1))
        if getattr(node, "finalbody", None):
            found[id(node.finalbody[0])] = before(node.finalbody[0])
    return found


def _first_line(statement: ast.stmt) -> int:
    """The first line of a statement, its decorators included."""
    return min([statement.lineno] + [d.lineno for d in getattr(statement, "decorator_list", [])])


def _header_end(statement: ast.stmt) -> int:
    """The last line of a compound statement's header: the line before its body, or its own line
    when the body follows on it (`if x: y`)."""
    body = getattr(statement, "body", None)
    if not body or not isinstance(body, list):
        return statement.end_lineno or statement.lineno
    return max(statement.lineno, body[0].lineno - 1)
