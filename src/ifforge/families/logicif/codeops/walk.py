"""Read-only walks over a libcst tree, without the copy libcst's own visit makes.

`node.visit(visitor)` goes through the code that builds transformed trees, so even a visitor that
only reads rebuilds (and re-validates) every node it passes: most of a read-only visit's cost.
`walk` calls the same `on_visit`/`on_leave` (so `visit_X`/`leave_X`) in the same order, reading
each node's children straight from its fields, in the order libcst visits them, learned once per
node class from libcst itself (so the first node of a class seen must not decide which fields the
later ones have: a field libcst skips when empty is still read). Attribute hooks (`visit_X_attr`) are not called.
"""

from __future__ import annotations

import dataclasses

import libcst as cst

_FIELD_ORDER: dict[type, tuple[str, ...]] = {}


class _FieldRecorder(cst.CSTVisitor):
    """Notes the fields libcst's own visit passes through, in order, without going below them."""

    def __init__(self):
        self.fields: list[str] = []

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        self.fields.append(attribute)

    def on_visit(self, node: cst.CSTNode) -> bool:
        return False


def _fields(node: cst.CSTNode) -> tuple[str, ...]:
    kind = type(node)
    order = _FIELD_ORDER.get(kind)
    if order is None:
        recorder = _FieldRecorder()
        node._visit_and_replace_children(recorder)
        # libcst passes over a field it would skip when empty (an f-string's format_spec that is
        # None): such fields follow the recorded ones, in the order the node declares them
        rest = [f.name for f in dataclasses.fields(node) if f.name not in recorder.fields]
        order = _FIELD_ORDER[kind] = (*recorder.fields, *rest)
    return order


_NODE, _SEQUENCE, _OTHER = 1, 2, 3
_KINDS: dict[type, int] = {}  # per class of field value, what it is: isinstance on CSTNode (an ABC) is slow


def _learn(value_class: type) -> int:
    kind = _KINDS[value_class] = (_NODE if issubclass(value_class, cst.CSTNode) else
                                  _SEQUENCE if issubclass(value_class, (tuple, list)) else _OTHER)
    return kind


def walk(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """`node.visit(visitor)` for a visitor that only reads: the same calls, no tree rebuilt."""
    if visitor.on_visit(node):
        for name in _fields(node):
            value = getattr(node, name)
            kind = _KINDS.get(type(value)) or _learn(type(value))
            if kind == _NODE:
                walk(value, visitor)
            elif kind == _SEQUENCE:
                for child in value:
                    walk(child, visitor)
    visitor.on_leave(node)
