"""`ifforge convert lifbench`: LIFBench's own files as ifforge rows, scored by either rubric.

LIFBench's prompt files (`data/prompts/<scenario>-<task>.json`, or a model's `data/outputs/...`
files of the same rows) hold items `{prompt, label, param, length, ins_id, param_id}`. Each becomes
a row with ifforge's gold and facts (task names, the `doc1...` keys of batch_label, the tags with
their marks, extract's gold in id order) and the original's fields under `paper`, so
`--rules paper` can score it as the original does.

The public repository ships its inputs (`data/meta/`) but not its prompt files; without them,
`prompts_from_meta` renders prompt items from `meta/tasks.json` and the `*_input.json` files, as
the original's generator lays them out, with parameters drawn here (from a seed).
"""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path
from typing import Any

from ifforge.core.untrusted import InputError
from ifforge.families.lifbench import paper, rubric

TASKS = {"list-single_query_id": "single_id", "list-multi_query_id": "multi_id",
         "list-offset_query_id": "offset_id", "list-offset_query_element": "offset_element",
         "list-blur_offset_query_id": "blur_id", "list-blur_offset_query_element": "blur_element",
         "multidoc-batch_label": "batch_label", "multidoc-find_dup_text": "find_dup",
         "onedoc-repeat": "repeat", "onedoc-extract": "extract", "onedoc-qa": "qa"}
INSTRUCTION = re.compile(r"\n\s*Instructions?:\s*")
ITEM_FIELDS = ("prompt", "label", "param", "length", "ins_id", "param_id")


def _keys(label: dict[str, list]) -> list[dict[str, Any]]:
    """Every key sentence in the original's id order: its text, its tag (with its marks), real or fake."""
    return [{"text": text, "tag": tag, "true": bool(true), "id": order}
            for tag, infos in label.items() for text, order, _, true in infos]


def _gold(task: str, item: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """ifforge's gold and facts for one original item."""
    param, label = item["param"], item["label"]
    if task in ("single_id", "offset_id", "offset_element"):
        side = {0: "element", 1: "post_element", -1: "pre_element"}[param.get("bias", 0)]
        position = param["id"] + param.get("bias", 0)
        return param[side], {"position": position}
    if task == "multi_id":
        return list(param["elements"]), {"positions": list(param["id_arr"])}
    if task in ("blur_id", "blur_element"):
        return {"position": param["id"], "side": "after" if param["bias"] == 1 else "before"}, {}
    if task == "batch_label":
        order = {char: i for i, char in enumerate(param["rule_key"])}
        ranked = sorted(param["candidates"], key=lambda word: order[word[0]])
        gold = {f"doc{n}": ranked[("title" not in keys) * 2 + ("source" not in keys)]
                for n, keys in enumerate(param["doc_keys"], 1)}
        return gold, {"labels": list(param["candidates"])}
    if task == "find_dup":
        fields = param["info_keys"].split()
        gold = [[[doc.get(f) for f in fields] for doc in group] for group in param["dup_infos"]]
        values = sorted({str(v) for v in re.findall(r"^(?:id|iD2|title|date|source): (.+)$", item["prompt"],
                                                   re.MULTILINE)})
        return gold, {"fields": fields, "values": values}
    keys = _keys(label)
    if task == "repeat":
        return {"num": param["num"], "sep": param["sep"]}, {"keys": keys}
    if task == "extract":
        tag = param["type"][1:-1]
        return [k["text"] for k in keys if k["tag"] == tag and k["true"]], {"keys": keys, "tag": tag}
    if task == "qa":
        evidence = param["evidence"].strip()
        real = any(k["true"] and k["text"].strip() == evidence for k in keys)
        options = list(param["options"])
        return options[0] if real else options[1], {"keys": keys, "options": options}
    raise KeyError(task)


def to_row(name: str, item: dict[str, Any], number: int) -> dict[str, Any]:
    """One original item (of the file `name`, e.g. `onedoc-qa`) as an ifforge row."""
    task = TASKS[name]
    scenario = name.split("-", 1)[0]
    gold, facts = _gold(task, item)
    parts = INSTRUCTION.split(item["prompt"])
    input_id = f"lifbench-{scenario}-L{item['length']}"
    sample_id = f"{input_id}-{task}-v{item['param_id']}"
    return {"family": "lifbench", "task_id": f"{sample_id}-e{item['ins_id']}-n{number}", "sample_id": sample_id,
            "scenario": scenario, "task": task, "length_tokens": int(item["length"]) * 1024, "prompt_tokens": None,
            "input_id": input_id, "expression_id": f"e{item['ins_id']}", "variables_id": f"v{item['param_id']}",
            "variables": {k: v for k, v in item["param"].items() if k not in ("doc_keys", "dup_idxs", "dup_infos")},
            "instruction": parts[-1].strip() if len(parts) > 1 else "", "prompt": item["prompt"], "gold": gold,
            "facts": facts, "rubric": rubric.rubric_entries(task), "rubric_total": rubric.total(task),
            "paper": {"task": name, "param": item["param"], "label": item["label"]}}


def rows_of(name: str, items: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(items, list):
        raise InputError(f"{where}: a LIFBench prompt file is a JSON list of items")
    rows = []
    for number, item in enumerate(items):
        missing = [key for key in ITEM_FIELDS if not isinstance(item, dict) or key not in item]
        if missing:
            raise InputError(f"{where}: item {number}: missing field {missing[0]!r}")
        try:
            rows.append(to_row(name, item, number))
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
            raise InputError(f"{where}: item {number}: not a {name} item ({type(error).__name__}: {error})") from None
    return rows


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise InputError(f"{path}: {error}") from None


def convert(source: Path) -> list[dict[str, Any]]:
    """Rows from a prompt (or outputs) file, a folder of them, or LIFBench's `data/` folder (its
    `prompts/`, else prompt items rendered from its `meta/`)."""
    source = Path(source)
    if source.is_file():
        if source.stem not in TASKS:
            raise InputError(f"{source}: not a LIFBench task file (names: {', '.join(f'{t}.json' for t in TASKS)})")
        return rows_of(source.stem, _read(source), str(source))
    if not source.is_dir():
        raise InputError(f"{source}: no such file or folder")
    for folder in (source, source / "prompts", source / "data" / "prompts"):
        files = [folder / f"{name}.json" for name in TASKS if (folder / f"{name}.json").exists()]
        if files:
            return [row for path in files for row in rows_of(path.stem, _read(path), str(path))]
    for meta in (source / "meta", source / "data" / "meta"):
        if (meta / "tasks.json").exists():
            items = prompts_from_meta(meta)
            return [row for name, its in items.items() for row in rows_of(name, its, f"{meta} ({name})")]
    raise InputError(f"{source}: no LIFBench prompt files (<scenario>-<task>.json) and no meta/tasks.json here")


# ---- prompt items from meta/ (the public repository has no prompt files) ---------------------------
def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", text) if len(s.strip()) > 20]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _list_params(task: str, instruction: Any, entries: list[str], count: int, rng: random.Random) -> list[dict]:
    if task == "multi_query_id":
        out = []
        for n in sorted(rng.sample(range(2, 11), 5)):
            picked = rng.sample(range(count), n)
            out.append({"id_arr": [i + 1 for i in picked], "elements": [entries[i] for i in picked]})
        return out
    places = rng.sample(range(1, 11), 2) + rng.sample(range(11, count - 10), 2) + rng.sample(range(count - 10, count - 1), 2)
    out = []
    for n in places:
        line = {"id": n + 1, "ordid": _ordinal(n + 1), "element": entries[n], "pre_element": entries[n - 1],
                "post_element": entries[n + 1]}
        if isinstance(instruction, list):
            line["bias"] = instruction[1]
        out.append(line)
    return out


def _doc_params(task: str, meta_params: list[dict], info: dict[str, Any], count: int) -> list[dict]:
    docs = info["doc_list"][:count]
    out = []
    for given in meta_params:
        param = dict(given)
        if task == "batch_label":
            param["doc_keys"] = [list(doc) for doc in docs]
        else:
            groups = [[i for i in group if i < count] for group in info["dupli_idxs"]]
            groups = [group for group in groups if len(group) > 1]
            fields = param["info_keys"].split(" ")
            param["dup_idxs"] = groups
            param["dup_infos"] = [[{f: docs[i].get(f) for f in fields} for i in group] for group in groups]
        out.append(param)
    return out


def _onedoc_params(task: str, params: dict[str, list], given: dict[str, Any], rng: random.Random) -> list[dict]:
    if task == "qa":
        real = [t for infos in given["label"].values() for t, _, _, true in infos if true]
        fake = [t for infos in given["label"].values() for t, _, _, true in infos if not true]
        marked = set(real + fake)
        plain = [s for s in _sentences(given["input_text"]) if "<" not in s and s not in marked]
        evidences = rng.sample(real, 2) + rng.sample(fake, 2) + rng.sample(plain, 2)
        start = rng.randrange(len(params["options"]))
        return [{"evidence": e, "options": params["options"][(start + i) % len(params["options"])]}
                for i, e in enumerate(evidences)]
    combos = [dict(zip(params, values)) for values in itertools.product(*params.values())]
    return combos if len(combos) <= 6 else rng.sample(combos, 5)


def prompts_from_meta(meta: Path, list_input: dict[str, Any] | None = None, seed: int = 0,
                      lengths: set[int] | None = None) -> dict[str, list[dict]]:
    """Prompt items `{prompt, label, param, length, ins_id, param_id}` per task file name, from
    `meta/tasks.json` and the inputs there (`list_input`, when given, stands for the List
    scenario's `list_input.json`, which the public repository lacks); `lengths` keeps only
    inputs of those lengths (the original's units: 3, 6, 13, ...)."""
    meta = Path(meta)
    tasks = _read(meta / "tasks.json")
    items: dict[str, list[dict]] = {}
    for scenario, spec in tasks.items():
        inputs = list_input if scenario == "list" and list_input is not None else None
        if inputs is None:
            path = meta / f"{scenario}_input.json"
            if not path.exists():
                continue
            inputs = _read(path)
        for task, sub in spec["subtasks"].items():
            name = f"{scenario}-{task}"
            if name not in TASKS:
                continue
            rows = items.setdefault(name, [])
            for given in inputs["inputs"]:
                if lengths is not None and given["length"] not in lengths:
                    continue
                for ins_id, instruction in enumerate(sub["instructions"]):
                    rng = random.Random(f"{seed}:{name}:{given['length']}:{ins_id}")
                    if scenario == "list":
                        params = _list_params(task, instruction, inputs["info"], int(given["label"]), rng)
                    elif scenario == "multidoc":
                        params = _doc_params(task, sub["params"], inputs["info"], int(given["label"]))
                    else:
                        params = _onedoc_params(task, sub.get("params", {}), given, rng)
                    text = instruction[0] if isinstance(instruction, list) else instruction
                    for param_id, param in enumerate(params):
                        prompt = spec["sys_instruction"].format(instruction=text.format(**param),
                                                                input=given["input_text"])
                        rows.append({"prompt": prompt, "label": given["label"], "param": param,
                                     "length": given["length"], "ins_id": ins_id, "param_id": param_id})
    return items
