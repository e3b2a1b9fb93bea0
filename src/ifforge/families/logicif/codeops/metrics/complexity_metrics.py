"""Complexity metrics, computed exactly as LogicIF's public code does, plus radon's extras.

LogicIF walks Python's `ast` once over the whole source; the counting rules are spelled out in
DESIGN.md and pinned by the LogicIFEval fixture test. Radon's numbers are extra columns only.
"""

from __future__ import annotations

import ast

from radon.complexity import cc_visit
from radon.metrics import h_visit, mi_visit

from ifforge.core import pyast
from ifforge.families.logicif.codeops.common.source import top_level_functions
from ifforge.families.logicif.records import ComplexityMetrics

_BLOCKS = (ast.If, ast.For, ast.While, ast.Try, ast.With)


def _max_nesting(node: ast.AST, depth: int = 0) -> int:
    """Deepest block nesting; a function definition starts counting again from zero."""
    deepest = depth
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef):
            deepest = max(deepest, _max_nesting(child, 0))
        elif isinstance(child, _BLOCKS):
            deepest = max(deepest, _max_nesting(child, depth + 1))
        else:
            deepest = max(deepest, _max_nesting(child, depth))
    return deepest


def logicif_metrics(source: str) -> dict:
    """LogicIF's six metrics of `source`, with its key order and rounding."""
    tree = pyast.parse(source)
    cyclomatic = 1
    controls = calls = 0
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.For, ast.While)):
            cyclomatic += 1
            controls += 1
        elif isinstance(node, ast.Try):
            cyclomatic += len(node.handlers)
            controls += 1
        elif isinstance(node, ast.Call):
            calls += 1
        elif isinstance(node, ast.FunctionDef):
            lines.append(node.end_lineno - node.lineno + 1)
    nesting = _max_nesting(tree)
    average_length = sum(lines) / len(lines) if lines else 0
    score = round(cyclomatic * 1 + nesting * 3 + calls * 2 + average_length * 0.5, 2)
    return {
        "cyclomatic_complexity": cyclomatic,
        "max_nesting_depth": nesting,
        "code_complexity_score": score,
        "total_control_structures": controls,
        "function_calls": calls,
        "total_function_lines": sum(lines),
    }


def measure_functions(source: str) -> list[tuple[str, int, ComplexityMetrics]]:
    """(name, line, metrics) of each top-level function of a module, measured alone with its
    decorators, as LogicIF measures one function; raises `SeedSyntaxError` when it does not parse."""
    names = top_level_functions(source)
    measured = []
    for node in pyast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name in names:
            text = ast.get_source_segment(source, node, padded=False)
            decorators = "".join(f"@{ast.unparse(d)}\n" for d in node.decorator_list)
            measured.append((node.name, node.lineno, measure(decorators + text if not text.startswith("@") else text)))
    return measured


def measure(source: str) -> ComplexityMetrics:
    """LogicIF's metrics plus radon's cyclomatic complexity, maintainability index and volume."""
    with pyast.AST_LOCK:  # radon parses with `ast` too
        radon_cc = sum(block.complexity for block in cc_visit(source) if not hasattr(block, "methods"))
        halstead = h_visit(source).total
        maintainability = mi_visit(source, multi=True)
    return ComplexityMetrics(
        **logicif_metrics(source),
        radon_cyclomatic_complexity=radon_cc,
        radon_maintainability_index=round(maintainability, 2),
        radon_halstead_volume=round(halstead.volume, 2),
    )
