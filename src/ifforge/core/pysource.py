"""Python source as code, without the prose in it: comments and docstrings stripped.

Comments and docstrings are where domain hints hide, and prose would dominate what a sentence
model sees of code; the code keeps its meaning without them. Any family's code, and any whole-batch
transform (dedup), reads source through this.
"""

from __future__ import annotations

import libcst as cst


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
    module = cst.parse_module(source).visit(_StripCommentsAndDocstrings())
    blocks = []
    for statement in module.body:
        blocks.append(module.code_for_node(statement.with_changes(leading_lines=[])).rstrip("\n"))
    lines: list[str] = []
    previous_was_def = False
    for block in blocks:
        is_def = block.lstrip().startswith(("def ", "async def ", "class ", "@"))
        if lines and (is_def or previous_was_def):
            lines.append("")
        lines.append(block)
        previous_was_def = is_def
    return "\n".join(lines) + "\n"
