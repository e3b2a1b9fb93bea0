"""Export an IFEval-FC benchmark in the paper's own file layout, for its evaluate.py:

    cd <IFEval-FC repository> && python evaluate.py --data-dir <folder> --provider openai --model M

One JSON file per function and rule, `<function>__param_<parameter>__fmt_<Checker>.json`, holding
what the paper's files hold: `fn_schema` (the function, the rule already in its parameter's
description), `chosen_param`, `format` (checker name, description, group, arguments in the
paper's names) and `user_queries` in order. The paper's evaluate.py offers one tool and sends its
own system message: rows with distractor tools cannot be written, and our system message is not.

The folder is the user's: file names are built only from plain names (a function or parameter
named `../../x` is refused, never a path), and a re-export replaces only the files an earlier
export listed in `WRITTEN`. Any other `.json` there (or a README.md not ours) stops the export, as
the paper's evaluate.py would read it as data.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from ifforge.core.store.versions import atomic_write
from ifforge.core.untrusted import BadValue, plain_name, read_file
from ifforge.exports.benchmark import Benchmark
from ifforge.families.ifeval_fc import paper, rules
from ifforge.families.ifeval_fc.scoring import batch_key

GROUPS = {"keywords": "KEYWORDS", "language": "LANGUAGE", "length": "LENGTH CONSTRAINTS",
          "content": "DETECTABLE CONTENT", "format": "DETECTABLE FORMAT", "case": "CASE", "start_end": "START_END",
          "punctuation": "PUNCTUATION"}  # the paper's group names (labels only: its evaluate.py reads name and args)
WRITTEN = ".ifforge-export.txt"  # the files the last export wrote, one name a line (not .json: evaluate.py reads those)


def plain(row: dict[str, Any], field: str, source: Path) -> str:
    """A row's field that becomes part of a file name: a plain name, or a ValueError naming the row."""
    try:
        return plain_name(row[field], field.replace("_", " "))
    except BadValue as error:
        raise ValueError(f"{source}: row {row['task_id']}: {error}") from None


def earlier_export(out: Path) -> set[str]:
    """The file names an earlier export listed in `out` (plain names only: the list is a file anyone
    could edit). Another .json or a README.md there is the user's: a ValueError says so."""
    listed: set[str] = set()
    if (out / WRITTEN).exists() or (out / WRITTEN).is_symlink():
        try:
            text = read_file(out / WRITTEN, out, max_bytes=1_000_000).decode("utf-8")
        except (BadValue, UnicodeError) as error:
            raise ValueError(f"{out / WRITTEN}: {error}") from None
        listed = {name for name in text.split("\n") if name and name == Path(name).name and name not in (".", "..")}
    foreign = sorted(path.name for path in [*out.glob("*.json"), out / "README.md"]
                     if (path.exists() or path.is_symlink()) and path.name not in listed)
    if foreign:
        raise ValueError(f"--out {out}: holds {', '.join(foreign[:3])}{' ...' if len(foreign) > 3 else ''}, not "
                         "written by an ifeval-fc export (the paper's evaluate.py reads every .json there): give an "
                         "empty folder, or move them")
    return listed


def paper_file(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The paper's data file for the rows of one function and rule (in query order)."""
    first = rows[0]
    tool = next(t for t in first["tools"] if t["function"]["name"] == first["function_name"])
    rule = rules.get(first["rule_id"], **first["rule_args"])
    return {"chosen_param": first["parameter"],
            "format": {"name": paper.CHECKER_OF[first["rule_id"]], "description": rule.describe(),
                       "group": GROUPS[rule.group], "args": paper.paper_args(first["rule_id"], first["rule_args"])},
            "fn_schema": tool["function"],
            "user_queries": [next(m["content"] for m in row["messages"] if m["role"] == "user")
                             for row in sorted(rows, key=lambda r: r.get("query_index", 0))]}


def write(benchmark: Benchmark, out: Path) -> dict[str, Any]:
    crowded = next((row for row in benchmark.rows if len(row["tools"]) != 1), None)
    if crowded:
        raise ValueError(f"row {crowded['task_id']} offers {len(crowded['tools'])} tools; the paper's evaluate.py "
                         "offers one per file (generate with distractors=0)")
    files: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in benchmark.rows:
        files[batch_key(row)].append(row)
    named: dict[str, list[dict[str, Any]]] = {}
    for rows in files.values():
        stem = (f"{plain(rows[0], 'function_name', benchmark.source)}__param_"
                f"{plain(rows[0], 'parameter', benchmark.source)}__fmt_"
                f"{paper.CHECKER_OF[rows[0]['rule_id']]}")
        name, k = f"{stem}.json", 1
        while name in named:
            k += 1
            name = f"{stem}__{k}.json"
        named[name] = rows
    out.mkdir(parents=True, exist_ok=True)
    for old in earlier_export(out):
        (out / old).unlink(missing_ok=True)
    atomic_write(out / WRITTEN, "".join(f"{name}\n" for name in sorted([*named, "README.md"])))  # before the files
    for name, rows in named.items():
        atomic_write(out / name, json.dumps(paper_file(rows), indent=2, ensure_ascii=False) + "\n")
    run = f"cd <IFEval-FC repository> && python evaluate.py --data-dir {out} --provider openai --model <model>"
    atomic_write(out / "README.md", f"# {benchmark.name}\n\n{len(files)} files, {len(benchmark.rows)} queries, in the "
                 f"IFEval-FC paper's data layout (from {benchmark.source}, SHA-256 `{benchmark.sha256}`).\n\n"
                 f"    {run}\n\nThe paper's evaluate.py sends its own system message, not the rows'.\n")
    return {"rows": len(benchmark.rows), "files": len(files), "folder": str(out), "run": run}
