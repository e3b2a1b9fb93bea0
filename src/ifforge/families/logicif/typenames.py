"""The types a task declares (`input_types`, `output_format`), named as LogicIFEval names them and
true of every case: unions where cases differ."""

from __future__ import annotations

from ifforge.core.sandbox.execution import type_name
from ifforge.families.logicif.codeops.common.source import parameter_names
from ifforge.families.logicif.records import MeasuredFunction


def output_format(item: MeasuredFunction) -> str:
    return merge_output_types([case.output_type for case in item.executed.cases])


def input_types(item: MeasuredFunction) -> dict[str, str]:
    """The type of each parameter, as seen across the test inputs."""
    names = parameter_names(item.executed.function.instrumented_source, "f")
    seen: dict[str, list[str]] = {}
    for case in item.executed.cases:
        for name, value in zip(names, case.input):
            seen.setdefault(name, []).append(type_name(value))
    return {name: merge_output_types(kinds) for name, kinds in seen.items()}


def merge_output_types(names: list[str]) -> str:
    """One type that holds for every case: `int` and `str` give `Union[int, str]`, never the commoner one.

    An empty list (`list`) says nothing about its items, so it joins `list[int]`; lists of different
    items merge their item types (`list[Union[int, str]]`). Types come in order of first appearance."""
    members: list[str] = []
    for name in names:
        for member in _union_members(name):
            if member not in members:
                members.append(member)
    lists = [m for m in members if m == "list" or m.startswith("list[")]
    if len(lists) > 1:
        items = merge_output_types([m[5:-1] for m in lists if m != "list"])
        at = members.index(lists[0])
        members = [m for m in members if m not in lists]
        members.insert(at, f"list[{items}]")
    if len(members) == 1:
        return members[0]
    return "Union[" + ", ".join(members) + "]"


def _union_members(name: str) -> list[str]:
    """`Union[a, b[c, d]]` -> [a, b[c, d]]; any other name is its own single member."""
    if not (name.startswith("Union[") and name.endswith("]")):
        return [name]
    parts, depth, current = [], 0, ""
    for char in name[6:-1]:
        depth += char in "[("
        depth -= char in "])"
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    return parts + [current.strip()]
