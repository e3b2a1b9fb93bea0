"""Tables of written patterns that a loop tries in turn (`for rule, repl in RULES: ... re.sub(rule, repl, s)`).

A module-level list or tuple of rows written out in full, each row a tuple of texts (or of compiled
patterns), or a dictionary of texts, read only by `for` loops and comprehensions that unpack its rows
into names: a name used only as the pattern of a call of the re module
makes its column a column of patterns, a name used only as the replacement of `re.sub` a column of
replacements. Each pattern is then said the way a written one is (`regex.gloss`), each replacement
in words (`regex.template_words`), row by row where the fixed values are told, and the loop's names
are "the pattern rule" and "the replacement repl" in the steps. The table is never changed (it is
read only by those loops) and its names are bound by nothing else, so what the rows say holds at
every turn of the loop.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import libcst as cst

from ifforge.families.logicif.codeops.common.walk import Reader, walk
from ifforge.families.logicif.codeops.describe import regex
from ifforge.families.logicif.codeops.describe.plain import names_in

PATTERN, REPLACEMENT, TEXT = "pattern", "replacement", "text"
# the calls of the re module whose first argument is a pattern
_TAKES_PATTERN = ("search", "match", "fullmatch", "findall", "finditer", "split", "sub", "subn", "compile")


@dataclass(frozen=True)
class Table:
    """A table of patterns: its rows' cells, each (text, flags, compiled), and what each column is."""

    name: str
    rows: tuple[tuple[tuple[str, int, bool], ...], ...]
    columns: tuple[str, ...]  # PATTERN, REPLACEMENT or TEXT, one per column
    mapping: bool = False  # a dictionary whose keys and values a loop reads in pairs (`.items()`)
    keyed: bool = False  # a dictionary of patterns read only by a key (`TABLE[quote].match(text)`)


def _cell(node) -> tuple[str, int, bool] | None:
    """(text, flags, compiled) of a written text or of `re.compile(text[, flags])`, else None."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)) and isinstance(node.evaluated_value, str):
        return node.evaluated_value, 0, False
    if isinstance(node, cst.Call) and regex._is_compile(node) and 1 <= len(node.args) <= 2 and \
            all(a.keyword is None and not a.star for a in node.args):
        text = _cell(node.args[0].value)
        try:
            flags = regex.flag_value(node.args[1].value) if len(node.args) == 2 else 0
        except regex.Undescribable:
            return None
        return (text[0], flags, True) if text and not text[2] else None
    return None


def _rows(value: cst.BaseExpression) -> tuple[tuple, bool] | None:
    """The cells of a list or tuple of rows written out (or of a dictionary's keys and values), and
    whether each row is a bare cell (not a tuple of cells), or None."""
    if isinstance(value, cst.Dict) and value.elements and all(isinstance(e, cst.DictElement) for e in value.elements):
        rows = tuple((_cell(e.key), _cell(e.value)) for e in value.elements)
        keys = [r[0] for r in rows]
        if any(c is None for r in rows for c in r) or len(set(keys)) != len(keys):
            return None
        return rows, False
    if not isinstance(value, (cst.List, cst.Tuple)) or not value.elements:
        return None
    rows, bare = [], set()
    for element in value.elements:
        if not isinstance(element, cst.Element):
            return None
        item = element.value
        bare.add(not isinstance(item, (cst.Tuple, cst.List)))
        cells = [_cell(item)] if not isinstance(item, (cst.Tuple, cst.List)) else [
            _cell(e.value) if isinstance(e, cst.Element) else None for e in item.elements]
        if None in cells:
            return None
        rows.append(tuple(cells))
    if len(bare) != 1 or len({len(r) for r in rows}) != 1:
        return None
    return tuple(rows), bare.pop()


def _table_read(loop: cst.For | cst.CompFor) -> tuple[str, bool] | None:
    """(the table's name, whether as a dictionary's pairs) a loop reads: `for r in T`, `for k, v in T.items()`."""
    source = loop.iter
    if isinstance(source, cst.Name):
        return source.value, False
    if isinstance(source, cst.Call) and not source.args and isinstance(source.func, cst.Attribute) and \
            source.func.attr.value == "items" and isinstance(source.func.value, cst.Name):
        return source.func.value.value, True
    return None


class _Reads(Reader):
    """One walk: how often each name is used, used as a pattern of a call of the re module, used as
    the replacement of `re.sub`, read as the container of `x in NAME`, and bound; the `for` loops."""

    def __init__(self):
        self.uses, self.as_pattern, self.as_replacement, self.as_owner = Counter(), Counter(), Counter(), Counter()
        self.looked_in, self.bindings = Counter(), Counter()
        self.keyed = Counter()  # `NAME[key].match(...)`: the owner of a method a compiled pattern has
        self.keyed_text = Counter()  # `re.match(NAME[key], ...)`: the pattern given to the re module
        self.loops: list[cst.For | cst.CompFor] = []

    def visit_Name(self, node: cst.Name) -> None:
        self.uses[node.value] += 1

    def visit_For(self, node: cst.For) -> None:
        self.loops.append(node)
        self.bindings.update(names_in(node.target))

    def visit_CompFor(self, node: cst.CompFor) -> None:  # `any(re.search(p, s) for p in PATTERNS)`
        self.loops.append(node)
        self.bindings.update(names_in(node.target))

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self.bindings.update(names_in(node.target))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.bindings.update(names_in(node.target))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self.bindings.update(names_in(node.target))

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self.bindings.update(names_in(node.target))

    def visit_Param(self, node: cst.Param) -> None:
        self.bindings[node.name.value] += 1

    def visit_AsName(self, node: cst.AsName) -> None:
        self.bindings.update(names_in(node.name))

    def visit_Del(self, node: cst.Del) -> None:
        self.bindings.update(names_in(node.target))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.bindings[node.name.value] += 1

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.bindings[node.name.value] += 1

    def visit_Global(self, node: cst.Global) -> None:
        self.bindings.update(n.name.value for n in node.names)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self.bindings.update(n.name.value for n in node.names)

    def visit_ComparisonTarget(self, node: cst.ComparisonTarget) -> None:
        if isinstance(node.operator, (cst.In, cst.NotIn)) and isinstance(node.comparator, cst.Name):
            self.looked_in[node.comparator.value] += 1

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        positional = [a.value for a in node.args if a.keyword is None and not a.star]
        if isinstance(func, cst.Attribute) and func.attr.value in _TAKES_PATTERN and func.attr.value != "compile":
            table = keyed_table(func.value)  # `TABLE[key].match(text)`
            if table is not None:
                self.keyed[table] += 1
            elif isinstance(func.value, cst.Name) and func.value.value == "re" and positional and \
                    keyed_table(positional[0]) is not None:  # `re.match(TABLE[key], text)`
                self.keyed_text[keyed_table(positional[0])] += 1
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
            return
        if func.value.value != "re":  # `rx.search(s)`, `rx.sub(repl, s)`: rx may be a compiled pattern
            if func.attr.value in _TAKES_PATTERN:
                self.as_owner[func.value.value] += 1
            if func.attr.value in ("sub", "subn") and positional and isinstance(positional[0], cst.Name):
                self.as_replacement[positional[0].value] += 1
            return
        if func.attr.value in _TAKES_PATTERN and positional and isinstance(positional[0], cst.Name):
            self.as_pattern[positional[0].value] += 1
        if func.attr.value in ("sub", "subn") and len(positional) > 1 and isinstance(positional[1], cst.Name):
            self.as_replacement[positional[1].value] += 1


def survey(module: cst.Module) -> _Reads:
    """One walk of the module: each name's uses, bindings (set, a parameter, a loop's, deleted, ...), reads
    as the container of `x in NAME`, and the `for` loops."""
    reads = _Reads()
    walk(module, reads)
    return reads


def bindings(module: cst.Module) -> Counter:
    """How many times each name is bound anywhere in the module."""
    return survey(module).bindings


def keyed_table(node: cst.BaseExpression) -> str | None:
    """NAME of `NAME[key]` (one plain key, no slice), else None."""
    if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and len(node.slice) == 1 and \
            isinstance(node.slice[0].slice, cst.Index) and node.slice[0].slice.star is None:
        return node.value.value
    return None


def find(module: cst.Module, constants: dict[str, cst.BaseExpression]) \
        -> tuple[dict[str, Table], dict[str, tuple[str, str]], frozenset[str]]:
    """(tables by name, loop name -> (its table, PATTERN or REPLACEMENT), the plain loop names): the
    tables of patterns, and the names a loop over written texts sets to texts a pattern may hold as
    they are (`for word in WORDS: re.search(r"\\b%s$" % word, s)`, every word without a character
    that means something in a pattern)."""
    reads = _Reads()
    walk(module, reads)
    tables, names = _tables(constants, reads)
    return {**tables, **_keyed_tables(constants, reads)}, names, _plain_names(constants, reads)


def _keyed_tables(constants: dict[str, cst.BaseExpression], reads: _Reads) -> dict[str, Table]:
    """Module-level dictionaries written out in full, texts to patterns (all compiled, or all texts), read
    only as `NAME[key]` used as a pattern (`_STRING_CONTENT[quote].match(text, pos)`) or by `key in NAME`:
    never changed, so the pattern under each key is the one written."""
    found = {}
    for name in set(reads.keyed) | set(reads.keyed_text):
        value = constants.get(name)
        rows = _rows(value) if isinstance(value, cst.Dict) else None
        if rows is None or reads.uses[name] != 1 + reads.keyed[name] + reads.keyed_text[name] + reads.looked_in[name] or \
                reads.bindings[name] != 1 or reads.keyed[name] and reads.keyed_text[name]:
            continue
        cells = rows[0]
        if any(key[2] for key, _ in cells) or {compiled for _, (_, _, compiled) in cells} != {bool(reads.keyed[name])}:
            continue  # texts as keys; compiled patterns for their methods, texts for the re module's calls
        found[name] = Table(name, cells, (TEXT, PATTERN), mapping=True, keyed=True)
    return found


def _plain_names(constants: dict[str, cst.BaseExpression], reads: _Reads) -> frozenset[str]:
    """Loop names bound by nothing else, over a module-level collection of written texts that only
    loops and `in` tests read, each text matched as itself in a pattern (re.escape leaves it alone)."""
    plain = set()
    for loop in reads.loops:
        table, target = loop.iter, loop.target
        if not isinstance(table, cst.Name) or not isinstance(target, cst.Name) or reads.bindings[target.value] != 1:
            continue
        value = constants.get(table.value)
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("set", "frozenset") \
                and len(value.args) == 1 and not value.args[0].keyword and not value.args[0].star:
            value = value.args[0].value
        if not isinstance(value, (cst.List, cst.Tuple, cst.Set)) or not value.elements:
            continue
        loops = sum(1 for other in reads.loops if isinstance(other.iter, cst.Name) and other.iter.value == table.value)
        if reads.uses[table.value] != 1 + loops + reads.looked_in[table.value]:
            continue  # read otherwise (changed, passed on): its texts may not stay as written
        texts = [e.value.evaluated_value if isinstance(e, cst.Element) and isinstance(
            e.value, (cst.SimpleString, cst.ConcatenatedString)) else None for e in value.elements]
        if all(isinstance(t, str) and re.escape(t) == t for t in texts):
            plain.add(target.value)
    return frozenset(plain)


def _tables(constants: dict[str, cst.BaseExpression], reads: _Reads):
    uses, as_pattern, as_replacement = reads.uses, reads.as_pattern, reads.as_replacement
    tables: dict[str, Table] = {}
    names: dict[str, tuple[str, str]] = {}
    by_table: dict[tuple[str, bool], list[cst.For]] = {}
    for loop in reads.loops:
        read = _table_read(loop)
        if read is not None:
            by_table.setdefault(read, []).append(loop)
    for (table, mapping), over in by_table.items():
        found = _rows(constants[table]) if table in constants else None
        if found is None or isinstance(constants[table], cst.Dict) != mapping or uses[table] != 1 + len(over):
            continue  # read by these loops only (1: where it is set)
        rows, bare = found
        width = len(rows[0])
        columns: list[set[str]] = [set() for _ in range(width)]
        loop_names: list[tuple[str, int]] = []
        for loop in over:
            target = loop.target
            targets = [target] if bare else [e.value for e in target.elements] if isinstance(target, (cst.Tuple, cst.List)) \
                and all(isinstance(e, cst.Element) for e in target.elements) else []
            if len(targets) != width or not all(isinstance(t, cst.Name) for t in targets):
                break
            for index, name in enumerate(t.value for t in targets):
                compiled = {row[index][2] for row in rows}
                once = reads.bindings[name] == 1
                if once and compiled == {False} and as_pattern[name] and uses[name] == 1 + as_pattern[name] or \
                        once and compiled == {True} and uses[name] == 1 + as_pattern[name] + reads.as_owner[name]:
                    columns[index].add(PATTERN)
                elif once and compiled == {False} and as_replacement[name] and uses[name] == 1 + as_replacement[name]:
                    columns[index].add(REPLACEMENT)
                elif compiled == {False}:
                    columns[index].add(TEXT)
                else:
                    columns[index].add("")  # a compiled pattern used otherwise: no table
                loop_names.append((name, index))
        else:
            if any(len(kinds) != 1 or "" in kinds for kinds in columns) or not any(PATTERN in k for k in columns):
                continue
            said = tuple(next(iter(kinds)) for kinds in columns)
            tables[table] = Table(table, rows, said, mapping)
            names.update({name: (table, said[index]) for name, index in loop_names if said[index] != TEXT})
    return tables, names


_HEADS = {PATTERN: "pattern", REPLACEMENT: "replacement", TEXT: "text"}


def told(table: Table) -> str:
    """The table as lines: what it holds, then one line per row, each column said in words."""
    kinds = [f"a {_HEADS[c]}" for c in table.columns]
    each = kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " and " + kinds[-1]
    if table.mapping:
        head = (f"The dictionary {table.name} holds these {len(table.rows)} keys with their values, in the order they "
                f"were added, each key {kinds[0]} and its value {kinds[1]}:")
    else:
        what = "items" if len(kinds) == 1 else "rows"
        head = f"The table {table.name} holds these {len(table.rows)} {what}, in this order, each {each}:"
    lines = [head]
    for number, row in enumerate(table.rows, 1):
        cells = []
        for position, (kind, (text, flags, _)) in enumerate(zip(table.columns, row)):
            said = regex.gloss(text, flags) if kind == PATTERN else regex.template_words(text) if kind == REPLACEMENT \
                else regex.quoted(text)
            label = ("key" if position == 0 else "value") if table.mapping else _HEADS[kind]
            cells.append(f"{label}: {said}" if len(kinds) > 1 else said)
        lines.append(f"{number}. " + "; ".join(cells))
    return "\n".join(lines)
