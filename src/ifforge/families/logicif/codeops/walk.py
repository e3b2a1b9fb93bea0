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


class Reader(cst.CSTVisitor):
    """A `CSTVisitor` that finds its `visit_X`/`leave_X` once per class of node, not by name at every
    node (libcst's `on_visit` builds the name and looks it up each time): the base for read-only
    visitors, whose own `on_visit`/`on_leave` may still call `super()`. Hooks live on the class."""

    def on_visit(self, node: cst.CSTNode) -> bool:
        visit = _hooks(type(self), type(node))[0]
        return visit is None or visit(self, node) is not False

    def on_leave(self, original_node: cst.CSTNode) -> None:
        leave = _hooks(type(self), type(original_node))[1]
        if leave is not None:
            leave(self, original_node)


_PLAIN_HOOKS = (cst.CSTVisitor.on_visit, cst.CSTVisitor.on_leave), (Reader.on_visit, Reader.on_leave)


def _hooks_of(visitor_class: type) -> dict[type, tuple]:
    """Node class -> (visit_X, leave_X), None where absent: kept on the visitor class itself, so a
    class made inside a function (a new one each call) takes its table with it when it goes."""
    table = visitor_class.__dict__.get("_walk_hooks")
    if table is None:
        table = {}
        type.__setattr__(visitor_class, "_walk_hooks", table)
    return table


def _hooks(visitor_class: type, node_class: type) -> tuple:
    table = _hooks_of(visitor_class)
    hooks = table.get(node_class)
    if hooks is None:
        hooks = table[node_class] = (getattr(visitor_class, f"visit_{node_class.__name__}", None),
                                     getattr(visitor_class, f"leave_{node_class.__name__}", None))
    return hooks


def walk(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """`node.visit(visitor)` for a visitor that only reads: the same calls, no tree rebuilt."""
    kind = type(visitor)
    if (kind.on_visit, kind.on_leave) in _PLAIN_HOOKS:
        _walk_hooks(node, visitor, _hooks_of(kind))
    else:
        _walk(node, visitor)


def _walk(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    if visitor.on_visit(node):
        for name in _FIELD_ORDER.get(type(node)) or _fields(node):
            value = getattr(node, name)
            kind = _KINDS.get(type(value)) or _learn(type(value))
            if kind == _NODE:
                _walk(value, visitor)
            elif kind == _SEQUENCE:
                for child in value:
                    _walk(child, visitor)
    visitor.on_leave(node)


def _walk_hooks(node: cst.CSTNode, visitor: cst.CSTVisitor, table: dict[type, tuple]) -> None:
    """`_walk` for a visitor whose `on_visit`/`on_leave` are libcst's (or `Reader`'s): its hooks
    called straight from the class's table, as those two would call them."""
    node_class = type(node)
    visit, leave = table.get(node_class) or _hooks(type(visitor), node_class)
    if visit is None or visit(visitor, node) is not False:
        for name in _FIELD_ORDER.get(node_class) or _fields(node):
            value = getattr(node, name)
            kind = _KINDS.get(type(value)) or _learn(type(value))
            if kind == _NODE:
                _walk_hooks(value, visitor, table)
            elif kind == _SEQUENCE:
                for child in value:
                    _walk_hooks(child, visitor, table)
    if leave is not None:
        leave(visitor, node)
