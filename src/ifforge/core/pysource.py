"""Python source as code, without the prose in it: comments and docstrings stripped.

Comments and docstrings are where domain hints hide, and prose would dominate what a sentence
model sees of code; the code keeps its meaning without them. Any family's code, and any whole-batch
transform (dedup), reads source through this.

The rules are libcst's: what its tree calls a comment, a docstring, a block's footer, a statement's
leading lines. Most sources are stripped from their tokens by those rules, about ten times faster
than building the tree (`_strip_by_tokens`); a source with anything the token reading does not
handle (a comment or trailing space inside brackets, a tab, a backslash continuation, a form feed,
a carriage return, a line ending in `;`, a space before a block's colon, text that is not Python) is
stripped through libcst itself. Both give the same text: `benchmarks/strip_agreement.py` compares
them on the standard library, and the tests on hard cases.
"""

from __future__ import annotations

import io
import tokenize
from tokenize import COMMENT, DEDENT, ENDMARKER, INDENT, NEWLINE, NL, OP, STRING

import libcst as cst

from ifforge.core import pyast


class _StripCommentsAndDocstrings(cst.CSTTransformer):
    """The libcst pass behind `strip_comments_and_docstrings`."""

    def leave_EmptyLine(self, original, updated):
        if updated.comment is not None:
            return cst.RemoveFromParent()
        return updated

    def leave_TrailingWhitespace(self, original, updated):
        return updated.with_changes(comment=None, whitespace=cst.SimpleWhitespace(""))

    def leave_Comment(self, original, updated):
        return updated

    def _drop_docstring(self, body):
        statements = list(body)
        if statements and _is_docstring(statements[0]):
            statements = statements[1:] or [cst.SimpleStatementLine([cst.Pass()])]
        return statements

    def leave_Module(self, original, updated):
        return updated.with_changes(body=self._drop_docstring(updated.body), header=[], footer=[])

    def leave_FunctionDef(self, original, updated):
        if isinstance(updated.body, cst.IndentedBlock):
            block = updated.body.with_changes(body=self._drop_docstring(updated.body.body), header=cst.TrailingWhitespace())
            return updated.with_changes(body=block, leading_lines=[])
        return updated

    def leave_IndentedBlock(self, original, updated):
        return updated.with_changes(footer=[])


def _is_docstring(statement) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def strip_comments_and_docstrings(source: str) -> str:
    """Source without comments, docstrings and blank-line clutter; top-level blocks one blank apart."""
    stripped = _strip_by_tokens(source)
    return stripped if stripped is not None else _strip_with_libcst(source)


def _strip_with_libcst(source: str) -> str:
    module = cst.parse_module(source).visit(_StripCommentsAndDocstrings())
    return _joined([module.code_for_node(statement.with_changes(leading_lines=[])).rstrip("\n")
                    for statement in module.body])


def _joined(blocks: list[str]) -> str:
    """The top-level blocks, with one blank line around each def and class."""
    lines: list[str] = []
    previous_was_def = False
    for block in blocks:
        is_def = block.lstrip().startswith(("def ", "async def ", "class ", "@"))
        if lines and (is_def or previous_was_def):
            lines.append("")
        lines.append(block)
        previous_was_def = is_def
    return "\n".join(lines) + "\n"


_CLAUSES = {"else", "elif", "except", "finally"}  # go on the statement above them: not a new block
_BRACKETS = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}


def _opens_block(tokens: list, newline: int) -> bool:
    """Whether the logical line ending at token `newline` is followed by an indented block."""
    after = newline + 1
    while tokens[after].type in (NL, COMMENT):
        after += 1
    return tokens[after].type == INDENT


def _is_docstring_line(statement: list) -> bool:
    """libcst's docstring (`_is_docstring`), from tokens: a line that is only a string (not an
    f-string alone) or adjacent strings, in parentheses or not."""
    code = [t for t in statement if t.type != COMMENT]
    strings = [t for t in code if t.type == STRING]
    if not strings or any(t.type != STRING and t.string not in "()" for t in code):
        return False
    text = strings[0].string
    return len(strings) > 1 or "f" not in text[:text.index(text[-1])].lower()


def _decorates_block_def(tokens: list, start: int) -> bool:
    """From the decorator line at token `start`: whether what it decorates is a def with an indented body."""
    depth, line_start, in_def = 0, True, False
    for position in range(start, len(tokens)):
        token = tokens[position]
        if token.type == NEWLINE:
            if in_def:
                return _opens_block(tokens, position)
            line_start = True
            continue
        if token.type in (NL, COMMENT, INDENT, DEDENT):
            continue
        if line_start and depth == 0 and token.string != "@":
            if token.string not in ("def", "async"):
                return False
            in_def = True
        depth += _BRACKETS.get(token.string, 0) if token.type == OP else 0
        line_start = False
    return False


class _Unsure(Exception):
    """The token reading meets something it does not handle: libcst strips this source."""


def _strip_by_tokens(source: str) -> str | None:
    """`_strip_with_libcst`'s text from the tokens, or None when unsure. Each line is kept, cut
    after its last token (the comment and trailing space go), or dropped. The blank and comment
    lines between two statements go as libcst's tree places them: to a closed block's footer (up to
    the last one indented as far as the outermost block closed there), dropped; the rest to the next
    statement's leading lines, where a comment is dropped and a blank line kept, unless the
    statement starts a top-level block, is a def with an indented body (or its first decorator),
    or is a docstring."""
    if "\r" in source or "\f" in source or "\t" in source or "\\\n" in source:
        return None
    if not source.endswith("\n"):
        source += "\n"
    try:
        pyast.parse(source)  # tokens come out of prose too: only Python is read here
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
        lines = source.splitlines(keepends=True)
        return _joined(_Stripper(tokens, lines).blocks())
    except (tokenize.TokenError, SyntaxError, ValueError, RecursionError, MemoryError, _Unsure):
        return None


class _Stripper:
    """One pass over a source's tokens: which lines stay, and how much of each."""

    def __init__(self, tokens: list, lines: list[str]):
        self.tokens, self.lines = tokens, lines
        self.keep: list[str | None] = list(lines)
        self.starts: list[int] = []  # the first line of each top-level block
        self.indents: list[str] = []
        self.first_in_def = True  # the next statement is the first of the module or of a def's indented body
        self.after_decorator = False

    def blocks(self) -> list[str]:
        waiting: list[int] = []  # blank and comment lines since the last statement
        closed: str | None = None  # the indent of the outermost block closed since then
        start = None  # the token the current logical line began with
        depth = 0
        for position, token in enumerate(self.tokens):
            kind = token.type
            if start is None:
                if kind == NL:
                    waiting.append(token.start[0] - 1)
                    continue
                if kind == INDENT:
                    self.indents.append(token.string)
                    continue
                if kind == DEDENT:
                    closed = self.indents.pop()
                    continue
                if kind == ENDMARKER:
                    for line in waiting:
                        self.keep[line] = None
                    break
                if kind == COMMENT:
                    continue
                start, before, closed_before, top = position, waiting, closed, not self.indents
                waiting, closed = [], None
            if kind == OP:
                depth += _BRACKETS.get(token.string, 0)
            elif kind == NL or (kind == COMMENT and depth > 0):
                if kind == COMMENT or self.tokens[position - 1].end != token.start:
                    raise _Unsure("a comment, a blank line or trailing space inside brackets")
            elif kind == NEWLINE:
                self._statement(start, position, before, closed_before, top)
                start = None
        bounds = [*self.starts, len(self.lines)]
        return ["".join(line for line in self.keep[bounds[n]:bounds[n + 1]] if line is not None).rstrip("\n")
                for n in range(len(self.starts))]

    def _statement(self, start: int, newline: int, before: list[int], closed: str | None, top: bool) -> None:
        tokens, lines, keep = self.tokens, self.lines, self.keep
        first = tokens[start]
        code = [t for t in tokens[start:newline] if t.type != COMMENT]
        if code[-1].string == ";":
            raise _Unsure("a line ending in `;`: libcst keeps the space after it")
        if code[-1].string == ":" and code[-2].end != code[-1].start:
            raise _Unsure("a space before a block's colon: libcst drops it after some statements")
        is_def = first.string == "def" or (first.string == "async" and code[1].string == "def")
        opens = _opens_block(tokens, newline)
        docstring = self.first_in_def and _is_docstring_line(tokens[start:newline])
        new_block = top and first.string not in _CLAUSES and not self.after_decorator
        if closed is not None:  # the closed blocks' footers
            last = max((n for n, line in enumerate(before) if lines[line].startswith(closed)), default=-1)
            for line in before[:last + 1]:
                keep[line] = None
            before = before[last + 1:]
        drop_all = new_block or docstring or (not self.after_decorator and (
            (is_def and opens) or (first.string == "@" and _decorates_block_def(tokens, start))))
        for line in before:
            if drop_all or lines[line].strip():
                keep[line] = None
        first_line, last_line = first.start[0] - 1, tokens[newline].start[0] - 1
        alone = False
        if docstring:
            for line in range(first_line, last_line + 1):
                keep[line] = None
            following = newline + 1
            while tokens[following].type in (NL, COMMENT):
                following += 1
            if tokens[following].type in (DEDENT, ENDMARKER):  # the body's only statement: `pass` instead
                keep[first_line] = lines[first_line][:first.start[1]] + "pass\n"
                alone = True
        elif code[-1].end[0] - 1 == last_line:
            keep[last_line] = lines[last_line][:code[-1].end[1]] + "\n"
        if new_block and (alone or not docstring):
            self.starts.append(first_line)
        self.first_in_def = is_def and opens
        self.after_decorator = first.string == "@"
