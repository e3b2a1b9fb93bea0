"""Read-only walks over a libcst tree, without the copy libcst's own visit makes.

`node.visit(visitor)` goes through the code that builds transformed trees, so even a visitor that
only reads rebuilds (and re-validates) every node it passes: most of a read-only visit's cost.
`walk` calls the same `on_visit`/`on_leave` (so `visit_X`/`leave_X`) in the same order, reading
each node's children straight from its fields, in the order libcst visits them, learned once per
node class from libcst itself (so the first node of a class seen must not decide which fields the
later ones have: a field libcst skips when empty is still read). Attribute hooks (`visit_X_attr`) are not called.
A module walked many times can be noted down first (`index`): its walks then call only the hooks a
visitor has, without passing through the rest of the tree.
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_left, bisect_right
from collections import deque

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
        hooks = table[node_class] = (_hook(visitor_class, f"visit_{node_class.__name__}"),
                                     _hook(visitor_class, f"leave_{node_class.__name__}"))
    return hooks


def _hook(visitor_class: type, name: str):
    """The visitor's method `name`, or None for none or libcst's empty stub (a `CSTVisitor` has
    one for every hook), which does what no call does: walk on."""
    method = getattr(visitor_class, name, None)
    return None if getattr(method, "_is_no_op", False) else method


def walk(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """`node.visit(visitor)` for a visitor that only reads: the same calls, no tree rebuilt."""
    kind = type(visitor)
    plain = (kind.on_visit, kind.on_leave) in _PLAIN_HOOKS
    found = _indexed(node)
    if found is not None:
        record, start = found
        if plain:
            record.walk_hooks(start, visitor, _hooks_of(kind))
        else:
            record.walk(start, visitor)
    elif plain:
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


class _Index:
    """A module's walk written down once: every node's entering and leaving, in order (`events`,
    the node at each; `partner`, from an entering to its leaving and back), where each class of
    node is entered, and where each node is (`where`, by id: the index keeps its nodes alive, so an
    id in it is always the node it was noted for). A module is walked some thirty times an item; a
    walk over the record calls only the hooks the visitor has, and a walk below it reads a slice."""

    def __init__(self, root: cst.CSTNode):
        self.events: list[cst.CSTNode] = []
        self.partner: list[int] = []
        self.entered: dict[type, list[int]] = {}
        self.where: dict[int, int] = {}
        self._add(root)

    def _add(self, node: cst.CSTNode) -> None:
        events, partner = self.events, self.partner
        start = len(events)
        events.append(node)
        partner.append(0)
        self.where[id(node)] = start
        node_class = type(node)
        self.entered.setdefault(node_class, []).append(start)
        for name in _FIELD_ORDER.get(node_class) or _fields(node):
            value = getattr(node, name)
            kind = _KINDS.get(type(value)) or _learn(type(value))
            if kind == _NODE:
                self._add(value)
            elif kind == _SEQUENCE:
                for child in value:
                    self._add(child)
        partner[start] = len(events)
        events.append(node)
        partner.append(start)

    def walk(self, start: int, visitor: cst.CSTVisitor) -> None:
        """Every event from `start`'s entering to its leaving, as `_walk` makes them."""
        events, partner = self.events, self.partner
        position, end = start, partner[start]
        while position <= end:
            node = events[position]
            if partner[position] < position:
                visitor.on_leave(node)
            elif not visitor.on_visit(node):
                position = partner[position]
                continue
            position += 1

    def walk_hooks(self, start: int, visitor: cst.CSTVisitor, table: dict[type, tuple]) -> None:
        """`_walk_hooks` over the events of the node classes the visitor has hooks for."""
        end = self.partner[start]
        visitor_class = type(visitor)
        events, partner = self.events, self.partner
        if end - start < 8 * len(self.entered):  # a line or so: reading it beats choosing from it
            position = start
            while position <= end:
                node = events[position]
                visit, leave = table.get(type(node)) or _hooks(visitor_class, type(node))
                if partner[position] < position:
                    if leave is not None:
                        leave(visitor, node)
                elif visit is not None and visit(visitor, node) is False:
                    position = partner[position]
                    continue
                position += 1
            return
        chosen: list[int] = []
        for node_class, positions in self.entered.items():
            visit, leave = table.get(node_class) or _hooks(visitor_class, node_class)
            if visit is None and leave is None:
                continue
            low, high = bisect_left(positions, start), bisect_right(positions, end)
            if visit is not None:
                chosen.extend(positions[low:high])
            if leave is not None:
                chosen.extend([partner[p] for p in positions[low:high]])
        chosen.sort()
        at, count = 0, len(chosen)
        while at < count:
            position = chosen[at]
            node = events[position]
            if partner[position] < position:
                table[type(node)][1](visitor, node)
            elif table[type(node)][0](visitor, node) is False:
                at = bisect_left(chosen, partner[position], at + 1)
                continue
            at += 1


_INDEXES: deque[_Index] = deque(maxlen=4)  # the modules walked last: an item's, and its rewrites'


def index(module: cst.Module) -> cst.Module:
    """Note `module` down for the many walks about to read it (and any part of it); returned as is.
    Worth it for a tree walked about ten times or more: the note costs about one walk."""
    if _indexed(module) is None:
        _INDEXES.append(_Index(module))  # deque appends are atomic: threads walking at once need no lock
    return module


def _indexed(node: cst.CSTNode) -> tuple[_Index, int] | None:
    """The index `node` is in, and where. Read from a copy: another thread (a Dask worker's, or the
    threads that stand in for worker processes) may be adding one, and a deque mutated while it is
    iterated raises."""
    for found in reversed(tuple(_INDEXES)):
        position = found.where.get(id(node))
        if position is not None:
            return found, position
    return None


class _Seek(Reader):
    """Stops at the first node of one of `kinds`."""

    def __init__(self, kinds):
        self.kinds, self.hit = kinds, False

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.hit = self.hit or isinstance(node, self.kinds)
        return not self.hit


def holds(node: cst.CSTNode, kinds) -> bool:
    """Whether `node`, or anything inside it, is of one of `kinds` (a class or a tuple of them)."""
    seek = _Seek(kinds)
    walk(node, seek)
    return seek.hit


class _Names(Reader):
    def __init__(self):
        self.found: list[str] = []

    def visit_Name(self, node: cst.Name) -> None:
        self.found.append(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        walk(node.value, self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        walk(node.value, self)
        return False


def value_names(node: cst.CSTNode) -> list[str]:
    """Every name below `node`, in order, once per use, but never an attribute's name (`x.name`) or a
    keyword's (`g(name=...)`): the names that stand for values."""
    names = _Names()
    walk(node, names)
    return names.found
