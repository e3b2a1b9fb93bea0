"""`ifforge convert lifbench`: LIFBench's own files as ifforge rows, scored by either rubric.

LIFBench's prompt files (`data/prompts/<scenario>-<task>.json`, or a model's `data/outputs/...`
files of the same rows) hold items `{prompt, label, param, length, ins_id, param_id}`. Each becomes
a row with ifforge's gold and facts (task names, the `doc1...` keys of batch_label, the tags with
their marks, extract's gold in id order) and the original's fields under `paper`, so
`--rules paper` can score it as the original does.

The public repository ships its inputs (`data/meta/`) but not its prompt files; without them,
`prompts_from_meta` renders prompt items from `meta/tasks.json` and the `*_input.json` files, as
the original's generator lays them out, with parameters drawn here (from a seed).

Every file is read as untrusted input (`core.untrusted`): a FIFO, a folder or a link out of the
given folder is refused, not read; a value nested too deep or a missing field is one `InputError`
naming the file and the field. The original fills its templates with `str.format`; here they are
filled with plain `{name}` fields only (`core.fill`), which gives the same text for its templates.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path
from typing import Any

from ifforge.core.fill import fill
from ifforge.core.untrusted import BadValue, InputError, parse_json, read_file
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


def _read(path: Path, inside: Path | None = None) -> Any:
    """A JSON file, read as untrusted input; with `inside`, not through a link that leaves it."""
    try:
        return parse_json(read_file(path, inside).decode("utf-8"))
    except BadValue as error:
        raise InputError(f"{path}: {error}") from None
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: is not UTF-8 text (byte {error.start + 1})") from None


def _present(path: Path) -> bool:
    """There is something by that name (a dangling link too: reading it says what it is)."""
    return path.is_symlink() or path.exists()


def convert(source: Path) -> list[dict[str, Any]]:
    """Rows from a prompt (or outputs) file, a folder of them, or LIFBench's `data/` folder (its
    `prompts/`, else prompt items rendered from its `meta/`)."""
    source = Path(source)
    if _present(source) and not source.is_dir():
        if source.stem not in TASKS:
            raise InputError(f"{source}: not a LIFBench task file (names: {', '.join(f'{t}.json' for t in TASKS)})")
        return rows_of(source.stem, _read(source), str(source))
    if not source.is_dir():
        raise InputError(f"{source}: no such file or folder")
    for folder in (source, source / "prompts", source / "data" / "prompts"):
        files = [folder / f"{name}.json" for name in TASKS if _present(folder / f"{name}.json")]
        if files:
            return [row for path in files for row in rows_of(path.stem, _read(path, source), str(path))]
    for meta in (source / "meta", source / "data" / "meta"):
        if _present(meta / "tasks.json"):
            items = prompts_from_meta(meta, inside=source)
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


KINDS = {dict: "an object", list: "a list", str: "text"}


def _need(data: Any, key: str | int, kind: type | tuple[type, ...], path: Path, where: str) -> Any:
    """`data[key]`, which must be a `kind`; an InputError names the file and the field (`where`)."""
    present = key in data if isinstance(data, dict) else isinstance(data, list) and 0 <= key < len(data)
    if not present:
        raise InputError(f"{path}: missing field {where!r}")
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or isinstance(value, bool) and bool not in kinds:
        raise InputError(f"{path}: field {where!r} must be {' or '.join(KINDS.get(k, k.__name__) for k in kinds)}")
    return value


def _filled(template: str, values: dict[str, Any], path: Path, where: str) -> str:
    """`core.fill`, its refusal naming the file and the template's field."""
    try:
        return fill(template, values)
    except BadValue as error:
        raise InputError(f"{path}: field {where!r}: {error}") from None


def prompts_from_meta(meta: Path, list_input: dict[str, Any] | None = None, seed: int = 0,
                      lengths: set[int] | None = None, inside: Path | None = None) -> dict[str, list[dict]]:
    """Prompt items `{prompt, label, param, length, ins_id, param_id}` per task file name, from
    `meta/tasks.json` and the inputs there (`list_input`, when given, stands for the List
    scenario's `list_input.json`, which the public repository lacks); `lengths` keeps only
    inputs of those lengths (the original's units: 3, 6, 13, ...). Files are read as untrusted
    (links out of `inside` refused), and templates filled with plain fields only (`core.fill`)."""
    meta = Path(meta)
    tasks_path = meta / "tasks.json"
    tasks = _read(tasks_path, inside)
    if not isinstance(tasks, dict):
        raise InputError(f"{tasks_path}: must hold a JSON object of scenarios")
    items: dict[str, list[dict]] = {}
    for scenario, spec in tasks.items():
        given_list = scenario == "list" and list_input is not None
        inputs, path = (list_input, Path("list_input")) if given_list else (None, None)
        if inputs is None:
            path = meta / f"{scenario}_input.json"
            if not _present(path):
                continue
            inputs = _read(path, inside)
        if not isinstance(spec, dict):
            raise InputError(f"{tasks_path}: field {scenario!r} must be an object")
        frame = _need(spec, "sys_instruction", str, tasks_path, f"{scenario}.sys_instruction")
        subtasks = _need(spec, "subtasks", dict, tasks_path, f"{scenario}.subtasks")
        if not isinstance(inputs, dict):
            raise InputError(f"{path}: must hold a JSON object with 'inputs' and 'info'")
        givens = _need(inputs, "inputs", list, path, "inputs")
        for task, sub in subtasks.items():
            name = f"{scenario}-{task}"
            if name not in TASKS:
                continue
            where = f"{scenario}.subtasks.{task}"
            if not isinstance(sub, dict):
                raise InputError(f"{tasks_path}: field {where!r} must be an object")
            instructions = _need(sub, "instructions", list, tasks_path, f"{where}.instructions")
            rows = items.setdefault(name, [])
            for number, given in enumerate(givens):
                if not isinstance(given, dict):
                    raise InputError(f"{path}: field 'inputs[{number}]' must be an object")
                length = _need(given, "length", int, path, f"inputs[{number}].length")
                label = _need(given, "label", object, path, f"inputs[{number}].label")
                text = _need(given, "input_text", str, path, f"inputs[{number}].input_text")
                if lengths is not None and length not in lengths:
                    continue
                for ins_id, instruction in enumerate(instructions):
                    field = f"{where}.instructions[{ins_id}]"
                    template = _need(instruction, 0, str, tasks_path, f"{field}[0]") \
                        if isinstance(instruction, list) else _need(instructions, ins_id, str, tasks_path, field)
                    rng = random.Random(f"{seed}:{name}:{length}:{ins_id}")
                    try:
                        if scenario == "list":
                            params = _list_params(task, instruction, inputs["info"], int(label), rng)
                        elif scenario == "multidoc":
                            params = _doc_params(task, sub["params"], inputs["info"], int(label))
                        else:
                            params = _onedoc_params(task, sub.get("params", {}), given, rng)
                    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
                        raise InputError(f"{path}: inputs[{number}] with {tasks_path} {where}: not a {name} input "
                                         f"({type(error).__name__}: {error})") from None
                    for param_id, param in enumerate(params):
                        prompt = _filled(frame, {"instruction": _filled(template, param, tasks_path, field),
                                                 "input": text}, tasks_path, f"{scenario}.sys_instruction")
                        rows.append({"prompt": prompt, "label": label, "param": param,
                                     "length": length, "ins_id": ins_id, "param_id": param_id})
    return items
