"""`--rules paper`: LIFBench's own verdicts, as its repository's `EvaluateFunc.py` gives them.

Each function below reads one reply the way the original's judge for that task does, quirks
included (they are listed, with ifforge's rule beside each, on the family's docs page): a word is
found inside a longer one, the extract order check never fails, any repeat reply earns half of
`ori`, a reply to a List task that quotes no entry keeps its format points out of its total. What
the original's `eval` makes of a find_dup reply's lists is found without running anything
(`paper_eval.py`); where that cannot be told, the verdict says so instead of guessing.

A row carries the original's fields under `paper` (`task`, `param`, `label`: what
`ifforge convert lifbench` keeps); `score(row, reply)` gives every point's fraction as the
original computes it, and `total_score` as its ARS.
"""

from __future__ import annotations

import copy
import json
import re
import warnings
from typing import Any

from ifforge.families.lifbench import paper_eval

# The original's points per task: (name, weight, capabilities in ifforge's names). Weights are its
# score map's; capabilities its capability map's (ori, num, spat, format, logit, recog), as its
# released capability table (`full_results_IFP.xlsx`) was computed: find_dup's `correct` counts
# for recognition only there, though the repository's ScoreCapaMap.py also names logic for it
# (with logic, none of the table's 20 logic cells comes out; without, all 120 cells do).
POINTS: dict[str, list[tuple[str, float, tuple[str, ...]]]] = {
    "single_id": [("format", 1, ("format",)), ("correct", 2, ("recognition",)), ("ori", 1, ("original",))],
    "multi_id": [("format", 2, ("format",)), ("num", 3, ("numerical",)), ("correct", 3, ("recognition",)),
                 ("order", 2, ("spatial",))],
    "offset_id": [("format", 1, ("format",)), ("correct", 2, ("recognition", "spatial")), ("ori", 1, ("original",))],
    "offset_element": [("format", 1, ("format",)), ("correct", 2, ("spatial",)), ("ori", 1, ("original",))],
    "blur_id": [("ori", 1, ("original",)), ("position", 3, ("spatial",)), ("format", 1, ("format",))],
    "blur_element": [("ori", 1, ("original",)), ("position", 3, ("spatial",)), ("format", 1, ("format",))],
    "batch_label": [("candi_ori", 3, ("original",)), ("logit_correct", 3, ("logic",)),
                    ("num_doc", 3, ("numerical", "recognition")), ("format", 5, ("format",))],
    "find_dup": [("correct", 4, ("recognition",)), ("num_text", 5, ("numerical", "logic")),
                 ("ori", 6, ("original",)), ("format", 5, ("format",))],
    "repeat": [("format", 3, ("format",)), ("ori", 2, ("original",)), ("hit", 2, ("recognition",)),
               ("num", 4, ("numerical",)), ("correct", 3, ("logic",))],
    "extract": [("format", 4, ("format",)), ("correct", 4, ("recognition",)), ("order", 4, ("spatial",)),
                ("ori", 2, ("original",))],
    "qa": [("correct", 3, ("logic",)), ("format", 2, ("format",))],
}
REPEAT_TAGS = ("#Topic#", "@argument@", "!Transition!", "|Summary|", "*Evidence*", "-Concession-")


def total(task: str) -> float:
    return float(sum(weight for _, weight, _ in POINTS[task]))


# ---- the original's helpers, as they behave ------------------------------------------------------
def _between(text: str, start: str, end: str) -> str:
    """The part after the last `start`, cut at the first `end` after it (the original's input reader)."""
    part = text.split(start)[-1]
    if end in part:
        part = part.split(end)[0]
    if not part:
        raise ValueError("nothing between the markers")
    return part.strip()


def _numbered(text: str) -> list[str]:
    """The entries of a `1. ...` list, found by searching `\\nN. ` for N = 1, 2, ... in turn."""
    text = "\n" + text.strip()
    starts: list[int] = []
    number = 1
    while True:
        found = text.find(f"\n{number}. ", starts[-1] if starts else 0)
        if found == -1:
            break
        starts.append(found)
        number += 1
    if not starts:
        raise ValueError("no numbered entry")
    bounds = list(zip(starts, starts[1:] + [len(text)]))
    return [text[a:b].split(". ", 1)[-1] for a, b in bounds]


def _list_input(prompt: str) -> list[str]:
    return _numbered(_between(prompt, "List to be retrieved:\n", "\nInstruction:"))


# How deep the original's json.loads nests before Python's recursion limit stops it with a
# RecursionError: measured running its Evaluator.py as its scripts do (Fire, Python 3.10), 991
# levels where a judge calls json.loads itself, 990 through its `is_valid_json` (a frame deeper).
JSON_DEPTH = 991
_JSON_WS = " \t\n\r"
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _JSON_WS:
        i += 1
    return i


def _json_scalar(text: str, i: int) -> int:
    """Where a JSON string, number or constant starting at i ends; -1 where none does."""
    if text.startswith('"', i):
        try:
            return json.decoder.scanstring(text, i + 1, True)[1]
        except ValueError:
            return -1
    for word in ("null", "true", "false", "NaN", "Infinity", "-Infinity"):
        if text.startswith(word, i):
            return i + len(word)
    number = _JSON_NUMBER.match(text, i)
    return number.end() if number else -1


def _json_key(text: str, i: int) -> int:
    """Past an object's `"key" :` at i, where its value starts; -1 at a fault."""
    i = _json_scalar(text, i) if text.startswith('"', i) else -1
    if i < 0:
        return -1
    i = _skip(text, i)
    return _skip(text, i + 1) if text.startswith(":", i) else -1


def json_depth(text: str) -> int:
    """How deep json.loads nests before it stops, at the end of its value or at its first fault:
    Python's scanner spends one level of the recursion limit per array or object it enters.
    Followed here in a loop, as Python's C scanner reads, so any nesting can be measured."""
    if text.startswith("\ufeff"):
        return 0  # refused before scanning
    i, stack, deepest = _skip(text, 0), [], 0
    while True:
        opening = text[i:i + 1]  # a value starts at i
        if opening in ("[", "{"):
            stack.append(opening)
            deepest = max(deepest, len(stack))
            i = _skip(text, i + 1)
            if text[i:i + 1] == ("]" if opening == "[" else "}"):
                stack.pop()
                i += 1
            elif opening == "{":
                i = _json_key(text, i)
                if i < 0:
                    return deepest
                continue
            else:
                continue
        else:
            i = _json_scalar(text, i)
            if i < 0:
                return deepest
        while True:  # after a value: close what ends here, or take a comma
            if not stack:
                return deepest
            i = _skip(text, i)
            closing = "]" if stack[-1] == "[" else "}"
            if text[i:i + 1] == closing:
                stack.pop()
                i += 1
                continue
            if text[i:i + 1] != ",":
                return deepest
            i = _skip(text, i + 1)
            if stack[-1] == "{":
                i = _json_key(text, i)
                if i < 0:
                    return deepest
            break


def loads(text: str, limit: int = JSON_DEPTH) -> Any:
    """The original's json.loads: RecursionError where its nesting reaches `limit`, else the
    value, read on a stack of its own when deep (whatever depth our own caller is at)."""
    depth = json_depth(text)
    if depth >= limit:
        raise RecursionError("maximum recursion depth exceeded while decoding a JSON array from a unicode string")
    if depth > 100:
        return paper_eval.fresh_stack(json.loads, text)
    return json.loads(text)


def _json(text: str, limit: int = JSON_DEPTH, bare: bool = False) -> tuple[bool, Any]:
    """(read, value). The original's `except ValueError` lets a RecursionError through (its
    judge stops); where it has a bare `except:` (batch_label, find_dup) the text is unread."""
    try:
        return True, loads(text, limit)
    except ValueError:
        return False, None
    except RecursionError:
        if bare:
            return False, None
        raise


def _unescape(text: str) -> str:
    """Python's `unicode_escape` decoding of the UTF-8 bytes (it turns `\\"` into `"`, and
    non-ASCII text into mojibake, as the original's does)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return text.encode("utf-8").decode("unicode_escape")


def edit_distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def _finish(points: dict[str, float], weights: dict[str, float]) -> dict[str, float]:
    """total_score = raw points over the task's total, then each point over its weight."""
    return {**{key: points[key] / weight for key, weight in weights.items()},
            "total_score": sum(points.values()) / sum(weights.values())}


# ---- List -----------------------------------------------------------------------------------------
def _entry_sized(reply: str, entries: list[str]) -> float:
    """The original's format point of a one-entry answer: 0.2 when the reply is no shorter than the
    shortest entry and no longer than the longest."""
    lengths = [len(entry) for entry in entries]
    return 0.2 if min(lengths) <= len(reply) <= max(lengths) else 0.0


def one_entry(item: dict[str, Any]) -> dict[str, float]:
    """single_id, offset_id, offset_element."""
    points = {"format": 0.0, "correct": 0.0, "ori": 0.0, "total_score": 0.0}
    reply, param = item["output"].strip(), item["param"]
    bias = param.get("bias", 0)
    expected = {0: "element", 1: "post_element", -1: "pre_element"}
    expected = param[expected[bias]]
    entries = _list_input(item["prompt"])
    if reply == "":
        return points
    points["format"] = _entry_sized(reply, entries)
    found = sum(reply.count(entry) for entry in entries)
    if found == 0:
        return points  # the format points stay out of total_score
    points["ori"] = 1.0
    if found == 1:
        points["format"] += 0.8 if reply in entries else 0.3
    if expected in reply:
        points["correct"] = 2.0
    elif edit_distance(expected, reply) <= len(expected) / 6 + 3:
        points["correct"] = 1.0
    points.pop("total_score")
    return _finish(points, {"format": 1, "correct": 2, "ori": 1})


def _json_list_format(reply: str, whole: tuple[float, float], inside: tuple[float, float],
                      other: float) -> tuple[float, int]:
    """(format points, items) of a reply meant as a JSON list of strings: the whole reply, else
    from its first `[` to its last `]`; all strings or not; `other` for JSON that is not a list;
    -1 items when no list was read."""
    inner = reply[reply.find("["):reply.rfind("]") + 1]
    for text, (strings, mixed) in ((reply, whole), (inner, inside)):
        ok, value = _json(text, JSON_DEPTH - 1)  # through the original's is_valid_json
        if ok:
            if isinstance(value, list):
                return (strings if all(isinstance(v, str) for v in value) else mixed), len(value)
            return other, -1
    return 0.0, -1


def many_entries(item: dict[str, Any]) -> dict[str, float]:
    """multi_id."""
    points = {"format": 0.0, "num": 0.0, "correct": 0.0, "order": 0.0}
    expected = item["param"]["elements"]
    reply = item["output"].strip()
    entries = _list_input(item["prompt"])
    if reply == "":
        return {**points, "total_score": 0.0}
    points["format"], given = _json_list_format(reply, (2.0, 1.5), (1.5, 1.0), 0.5)
    if given == -1:
        given = sum(reply.count(entry) for entry in entries)
    points["num"] = float(given == len(expected))
    points["num"] += max(0, 1.0 - abs(given - len(expected)) / len(expected)) * 2
    text = _unescape(reply)
    matched = [e for e in expected if e in text]
    points["correct"] = len(matched) / len(expected) * 3.0
    if len(matched) <= 1:
        points["order"] = 1.0
    else:
        places = [text.find(e) for e in matched]
        points["order"] = 2.0 if places == sorted(places) else 0.0
    return _finish(points, {"format": 2, "num": 3, "correct": 3, "order": 2})


def one_side(item: dict[str, Any]) -> dict[str, float]:
    """blur_id, blur_element."""
    points = {"ori": 0.0, "position": 0.0, "format": 0.0, "total_score": 0.0}
    anchor, after = item["param"]["id"] - 1, item["param"]["bias"] == 1
    reply = item["output"].strip()
    entries = _list_input(item["prompt"])
    if reply == "":
        return points
    points["format"] = _entry_sized(reply, entries)
    found = [i for i, entry in enumerate(entries) if entry in reply]
    if not found:
        return points
    points["ori"] = 1.0
    if len(found) == 1:
        points["format"] += 0.8 if reply == entries[found[0]] else 0.3
    if all(i > anchor if after else i < anchor for i in found):
        points["position"] = 3.0
    elif all(i >= anchor if after else i <= anchor for i in found):
        points["position"] = 1.0
    points.pop("total_score")
    return _finish(points, {"ori": 1, "position": 3, "format": 1})


# ---- MultiDoc -------------------------------------------------------------------------------------
def batch_label(item: dict[str, Any]) -> dict[str, float]:
    points = {"candi_ori": 0.0, "logit_correct": 0.0, "num_doc": 0.0, "format": 0.0}
    param, docs = item["param"], item["label"]
    candidates = param["candidates"]
    order = {char: i for i, char in enumerate(param["rule_key"])}
    ranked = sorted(candidates, key=lambda word: order[word[0]])
    truth = [ranked[("title" not in keys) * 2 + ("source" not in keys)] for keys in param["doc_keys"]]
    reply = item["output"].strip()
    objects = re.compile(r"\{[^\]]+\}")
    matches = objects.findall(reply)
    parsed: Any = ""
    ok, value = _json(reply, bare=True)
    if ok:
        parsed = value
        points["format"] += 2.0
    else:
        matches = sorted(objects.findall(reply), key=len, reverse=True)
        if matches:
            ok, value = _json(matches[0], bare=True)
            if ok:
                parsed = value
                points["format"] += 1.0
    if parsed and isinstance(parsed, dict):
        points["format"] += 1.0
    given = len(parsed) if parsed and isinstance(parsed, (dict, list)) else reply.count("doc")
    points["num_doc"] = max(0, 1.0 - abs(given - docs) / docs) * 2.5 + (0.5 if given == docs else 0.0)
    points["format"] += sum(f"doc{k}" in reply for k in range(1, docs + 1)) / docs * 2.0
    for match in matches:
        parts = match.split(",")
        if len(parts) == docs:
            points["candi_ori"] = sum(any(c in part for c in candidates) for part in parts) / docs * 3.0
            points["logit_correct"] = sum(truth[i] in part for i, part in enumerate(parts)) / docs * 3.0
            break
    return _finish(points, {"candi_ori": 3, "logit_correct": 3, "num_doc": 3, "format": 5})


def _answer_keys(groups: list[list[dict[str, Any]]], fields: list[str]) -> dict[tuple, int]:
    """Each gold document as the tuple of its fields' texts (quotes removed) -> its group."""
    return {tuple(str(doc[f]).replace('"', "") for f in fields): g for g, group in enumerate(groups) for doc in group}


def _reply_keys(docs: list, number: int, prompt: str) -> tuple[dict[tuple, int], int]:
    """One reply line's documents as tuples of their values' texts -> `number`, and how many of
    those values are in the prompt. A document that is not a list raises, as in the original."""
    keys, quoted = {}, 0
    for doc in docs:
        for i in range(len(doc)):
            doc[i] = str(doc[i])
            quoted += doc[i] in prompt
        keys[tuple(doc)] = number
    return keys, quoted


def find_dup(item: dict[str, Any]) -> dict[str, float]:
    points = {"correct": 0.0, "num_text": 0.0, "ori": 0.0, "format": 0.0}
    reply, prompt = item["output"].strip(), item["prompt"].strip()
    documents = _between(item["prompt"].strip(), "\n\n Documents:\n", "\n\n Instructions:")
    fields = item["param"]["info_keys"].strip().split(" ")
    answer = item["param"]["dup_infos"]
    if not reply:
        return {**points, "total_score": 0.0}
    if "[" in reply and "]" in reply:
        points["format"] += 0.5
    if reply.find("[") == 0 and reply.rfind("]") == len(reply) - 1:
        points["format"] += 0.5
    groups = re.findall(r"\[\[.*?\]\]", reply)
    points["num_text"] = (1.0 if len(groups) == len(answer) else 0.0)
    points["num_text"] += max(0, 1.0 - abs(len(groups) - len(answer)) / (len(answer) + 2)) * 4.0
    if len(groups) == len(reply.split("\n")):
        points["format"] += 1.0
    parsed, any_read, all_read, all_lists = [], False, True, True
    start, end = reply.find("["), reply.rfind("]")
    for group in groups:
        ok, value = _json(group[start:end + 1], bare=True)  # the whole reply's bracket positions, on one group
        if not ok:
            all_read = False
            continue
        any_read = True
        if isinstance(value, list) and all(isinstance(v, list) for v in value):
            parsed.append(value)
        else:
            all_lists = False
    points["format"] += any_read + all_read + all_lists
    values = [v for group in parsed for doc in group for v in doc]
    if values:
        quoting = lambda: sum(str(v) in documents or v is None for v in values)  # noqa: E731
        deep = sum(g.count("[") + g.count("{") for g in groups) > 100  # str() of deep lists recurses
        points["ori"] = (paper_eval.fresh_stack(quoting) if deep else quoting()) / len(values) * 3.0
    prompt = prompt.replace('"', "")
    reply = reply.replace("null", "None")
    contents = [value for group in answer for doc in group for value in doc.values()]
    decoded = _unescape(reply)
    points["correct"] += sum(str(c) in decoded for c in contents) * 3.0 / len(contents)
    reply = reply.replace("\n", ",").replace('\\"', "").replace("\\", ",")
    reply = _between(reply, "\n\n Documents:\n", "\n\n Instructions:")
    truth = _answer_keys(answer, fields)
    given: dict[tuple, int] = {}
    number = cells = quoted = 0
    for group in re.findall(r"\[\[.*?\]\]", reply):
        group = group.replace(',"', "")
        try:  # the original's is_valid_eval: any exception there skips the group
            paper_eval.evaluate(group, expression=group)
        except paper_eval.Undetermined:
            raise
        except Exception:
            continue
        value = paper_eval.evaluate(group)  # the judge's own eval: an exception here stops it
        cells += len(value) * len(value[0])
        keys, found = _reply_keys(value, number, prompt)
        given.update(keys)
        quoted += found
        number += 1
    if cells:
        points["ori"] += quoted * 3.0 / cells
    pairs = sum(1 for a, ga in truth.items() for b, gb in truth.items()
                if a in given and b in given and (ga == gb) == (given[a] == given[b]))
    points["correct"] += pairs / (len(truth) * len(truth))
    return _finish(points, {"correct": 4, "num_text": 5, "ori": 6, "format": 5})


# ---- OneDoc ---------------------------------------------------------------------------------------
def extract(item: dict[str, Any]) -> dict[str, float]:
    points = {"format": 0.0, "correct": 0.0, "order": 0.0, "ori": 0.0}
    reply, label = item["output"].strip(), item["label"]
    tag = item["param"]["type"][1:-1]
    if reply == "":
        return {**points, "total_score": 0.0}
    summary = tag == "|Summary|"
    points["format"], given = _json_list_format(reply, (4.0, 3.0), (3.0, 2.0), 1.0)
    given = max(given, 0)
    if summary and reply == "[]":
        return {"format": 1.0, "correct": 1.0, "order": 1.0, "ori": 1.0, "total_score": 1.0}
    try:
        text = _unescape(reply)
    except UnicodeDecodeError:
        text = _unescape(reply[:-1])
    keys = [info[0] for infos in label.values() for info in infos]
    found = [p for p in (text.find(k) for k in keys) if p != -1]
    # the original keeps the last place at min(place, 0) = 0, so every key found is "in order"
    points["order"] = 4.0 if found else 0.0
    points["ori"] = 2.0 if found else 0.0
    real = [info[0] for info in label.get(tag, []) if info[3]]
    fakes = [info[0] for info in label.get(tag, []) if not info[3]]
    hits = sum(sentence in text for sentence in real)
    most = max(len(found), given, len(real))
    points["correct"] = hits / most * 3.5 if most else 0.0
    if len(fakes) not in (0, 1):
        raise ValueError("more than one fake key sentence of a tag")
    if not fakes or fakes[0] not in text:
        points["correct"] += 0.5
    return _finish(points, {"format": 4, "correct": 4, "order": 4, "ori": 2})


def repeat(item: dict[str, Any]) -> dict[str, float]:
    points = {"format": 0.0, "ori": 0.0, "hit": 0.0, "num": 0.0, "correct": 0.0}
    reply, label = item["output"].strip(), item["label"]
    sep, wanted = item["param"]["sep"], item["param"]["num"]
    if not reply:
        return {**points, "total_score": 0.0}
    hits = fakes = 0
    for infos in label.values():
        for info in infos:
            if info[0] not in reply:
                continue
            hits += 1
            fakes += not info[-1]
            if "\n" in info[0]:
                reply = reply.replace(info[0], info[0].replace("\n", ""))
                info[0] = info[0].replace("\n", "")
    points["ori"] = 1.0  # the original's test `hit_count >= 0` always passes
    if any(tag in reply for tag in REPEAT_TAGS):
        points["ori"] += 1.0
    points["hit"] = min(1.0, (hits - 0.5 * fakes) / wanted) * 2.0
    if wanted == 1 or "\n" in reply:
        points["format"] += 0.5
    if sep in reply:
        points["format"] += 0.5
    lines = [line for line in reply.split("\n") if line]
    seps = reply.count(sep)
    points["num"] = float(seps == wanted) + (len(lines) == wanted) + (hits == wanted)
    points["num"] += sum((seps == len(lines), seps == hits, hits == len(lines))) / 3
    laid_out = sum(len(line.split(sep)) == 2 for line in lines) if sep in reply else 0
    points["format"] += min(1.0, laid_out / max(len(lines) if sep in reply else 0, wanted)) * 2.0
    right = 0
    for line in lines:
        sentence, named = line.split(sep, 1) if sep in line else (line.strip(), line.strip())
        candidates = [info[0] for tag in REPEAT_TAGS if tag in named for info in label.get(tag, [])]
        right += any(edit_distance(sentence, c) <= len(c) // 6 + 3 for c in candidates)
    points["correct"] = right / len(lines) * 3.0 if lines else 0.0
    return _finish(points, {"format": 3, "ori": 2, "hit": 2, "num": 4, "correct": 3})


def qa(item: dict[str, Any]) -> dict[str, float]:
    points = {"correct": 0.0, "format": 0.0}
    reply = item["output"].strip()
    yes, no = item["param"]["options"]
    evidence = item["param"]["evidence"].strip()
    is_key = is_true = False
    for infos in item["label"].values():
        for text, _, _, true in infos:
            if text.strip() == evidence:
                is_key, is_true = True, true
                break
        if is_key:
            break
    if len(reply) in (len(yes), len(no)):
        points["format"] += 1.0
    elif len(reply) > max(len(yes), len(no)) + 3:
        points["format"] += 0.5
    has_yes, has_no = yes in reply, no in reply
    if has_yes and has_no:
        points["format"] += 0.5
        points["correct"] = 0.5
    elif has_yes or has_no:
        points["format"] += 1.0
        if is_true:
            points["correct"] = 0.1 if has_yes != is_key else 3.0
        else:
            points["correct"] = 2.0 if has_yes else 3.0
    return _finish(points, {"correct": 3, "format": 2})


JUDGES = {"single_id": one_entry, "offset_id": one_entry, "offset_element": one_entry, "multi_id": many_entries,
          "blur_id": one_side, "blur_element": one_side, "batch_label": batch_label, "find_dup": find_dup,
          "extract": extract, "repeat": repeat, "qa": qa}


def judge(task: str, prompt: str, param: dict[str, Any], label: Any, output: str) -> dict[str, float]:
    """The original's score dict for one reply: every point's fraction and `total_score`."""
    item = {"prompt": prompt, "param": copy.deepcopy(param), "label": copy.deepcopy(label), "output": output}
    return JUDGES[task](item)


def score(row: dict[str, Any], reply: str | None) -> dict[str, Any]:
    """A row's verdict in `rubric.score`'s shape, by the original's rules: points earned (weight x
    fraction), the total, ARS = the original's total_score, correct when it is 1."""
    task = row["task"]
    original = row.get("paper")
    if not isinstance(original, dict):
        raise ValueError(f"row {row.get('task_id')}: --rules paper needs the original's fields ('paper': "
                         "rows made by ifforge convert lifbench)")
    try:
        verdict = judge(task, row["prompt"], original["param"], original["label"], reply or "")
    except paper_eval.Undetermined as error:  # what the original computes depends on running the reply
        return {"points": {name: 0.0 for name, _, _ in POINTS[task]}, "earned": 0.0, "total": total(task),
                "ars": 0.0, "correct": False,
                "error": f"the original runs this reply as code, with an outcome not followed here: {error}"}
    except Exception as error:  # the original's judge stops the whole run here; ours scores the reply 0
        return {"points": {name: 0.0 for name, _, _ in POINTS[task]}, "earned": 0.0, "total": total(task),
                "ars": 0.0, "correct": False, "error": f"the original's judge raises {type(error).__name__}"}
    points = {name: round(weight * verdict[name], 6) for name, weight, _ in POINTS[task]}
    ars = verdict["total_score"]
    return {"points": points, "earned": round(ars * total(task), 6), "total": total(task), "ars": round(ars, 6),
            "correct": abs(ars - 1.0) < 1e-9}
