"""LIFBench: ifforge's rubric (both modes) against the original's EvaluateFunc, and the released
tables recomputed from the released per-sample scores.

Usage: python benchmarks/lifbench_agreement.py ORIGINALS_DIR [CANDIDATES] [--python PY] [--lengths 3 6]
                                               [--tables-only | --no-tables]

ORIGINALS_DIR is a fetched copy of github.com/SheldonWu0327/LIFBench-2024 with a venv of its own
(`ORIGINALS_DIR/.venv`, Python 3.10, or `--python`): its EvaluateFunc.py scores every pair there,
in a process apart (`lifbench_original.py`). The benchmark's own set: prompt items rendered from
its `data/meta/` (the repository has no prompt files; its List input is missing too, so the List
items stand on a list made here of UUIDs and sentences of its documents), each with a set of
replies, many of them tricky on purpose. CANDIDATES, a set from outside, is scored the same way:
a .jsonl of the original's items (`task`, `prompt`, `param`, `label`, `output`) or the original's
own `<task>.json` output files. For each set it prints, per task, how often each criterion's
value and the sample's ARS agree with the original's: ifforge's paper mode (must be 100%; pairs
it declines, naming why, are counted apart) and its default rubric (differs on purpose: the
docs list why).

Then the released tables, recomputed by ifforge's own code from `data/scores/*.csv`: IFS per
perspective (`ifs1120.xlsx`, `ifs_exp_len.xlsx`, `ifs_param_len.xlsx`), the capability map
(`full_results_IFP.xlsx`) and ARS per task and length (`full_results.xlsx`).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
import time
import uuid
import warnings
import zipfile
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pandas as pd

from ifforge.families.lifbench import convert, paper, paper_eval, rubric, scoring

CAPS = {"ori": "original", "num": "numerical", "spat": "spatial", "format": "format", "logit": "logic",
        "recog": "recognition"}


# ---- candidate replies --------------------------------------------------------------------------------
def typo(text: str, rng: random.Random) -> str:
    if len(text) < 4:
        return text + "x"
    i = rng.randrange(1, len(text) - 1)
    return text[:i] + ("z" if text[i] != "z" else "y") + text[i + 1:]


def list_replies(name: str, item: dict, entries: list[str], rng: random.Random) -> list[str]:
    param = item["param"]
    if name.endswith("multi_query_id"):
        gold = param["elements"]
        other = rng.sample(entries, 3)
        return [json.dumps(gold), json.dumps(gold[::-1]), json.dumps(gold[:-1]), json.dumps(gold + other[:1]),
                "Here you go:\n" + json.dumps(gold, indent=1) + "\nDone.", "\n".join(gold),
                str(gold), json.dumps([param["id_arr"][0]] + gold[1:]), json.dumps(gold, ensure_ascii=True),
                json.dumps([typo(g, rng) for g in gold]), "[]", "I am not sure.", "```json\n" + json.dumps(gold) + "\n```",
                json.dumps({"elements": gold}), json.dumps(gold[:1]), json.dumps(gold) + "\\"]
    n = param["id"] - 1
    if "blur" in name:
        after = param["bias"] == 1
        side = entries[n + 1:n + 6] if after else entries[max(0, n - 5):n]
        wrong = entries[max(0, n - 5):n] if after else entries[n + 1:n + 6]
        return [side[0], side[-1], wrong[0], entries[n], f"{side[0]}\n{side[1]}", f"{side[0]}\n{wrong[0]}",
                f"The element is: {side[0]}", f'"{side[0]}"', typo(side[0], rng), "I am not sure.", "",
                f"{entries[n]}\n{side[0]}"]
    bias = param.get("bias", 0)
    gold = param[{0: "element", 1: "post_element", -1: "pre_element"}[bias]]
    near = param["element"] if bias else param["post_element"]
    return [gold, f"{gold}.", f"The answer is {gold}", f'"{gold}"', near, typo(gold, rng), gold[:-3],
            f"{gold}\n{near}", json.dumps([gold]), "I am not sure.", "", gold + " " + gold,
            entries[rng.randrange(len(entries))], gold.upper()]


def doc_replies(name: str, item: dict, rng: random.Random) -> list[str]:
    param = item["param"]
    if name.endswith("batch_label"):
        order = {c: i for i, c in enumerate(param["rule_key"])}
        ranked = sorted(param["candidates"], key=lambda w: order[w[0]])
        truth = [ranked[("title" not in k) * 2 + ("source" not in k)] for k in param["doc_keys"]]
        gold = {f"doc{i}": t for i, t in enumerate(truth, 1)}
        wrong = {k: rng.choice(param["candidates"]) for k in gold}
        shifted = {f"doc{i}": t for i, t in enumerate(truth[1:], 1)}
        return [json.dumps(gold), json.dumps(gold, indent=2), "Labels:\n" + json.dumps(gold) + "\nThanks",
                json.dumps(wrong), json.dumps(shifted), json.dumps(list(gold.values())), str(gold),
                json.dumps({k: v.upper() for k, v in gold.items()}), ", ".join(f"doc{i}: {t}" for i, t in
                                                                               enumerate(truth, 1)),
                json.dumps({f"doc-{i}": t for i, t in enumerate(truth, 1)}), "{}", "I am not sure.",
                json.dumps({k: "incomplete" for k in gold})]
    fields = param["info_keys"].split(" ")
    groups = [[[d.get(f) for f in fields] for d in g] for g in param["dup_infos"]]
    lines = [json.dumps(g) for g in groups]
    python = [str(g) for g in groups]
    swapped = [json.dumps(groups[i][:1] + (groups[(i + 1) % len(groups)][1:] if groups else [])) for i in
               range(len(groups))]
    return ["\n".join(lines), json.dumps(groups), " ".join(lines), "\n".join(python),
            "\n".join(lines[:-1]), "\n".join(lines + lines[:1]), "Here are the groups:\n" + "\n".join(lines),
            "\n".join(swapped), "\n".join(json.dumps(g, ensure_ascii=True).replace('"', '\\"') for g in groups),
            "```\n" + "\n".join(lines) + "\n```", "[]", "I am not sure.",
            "\n".join(json.dumps([[None if v is None else str(v)[:-1] for v in d] for d in g]) for g in groups),
            '\\"', "Groups: " + " ".join(lines)]


def onedoc_replies(name: str, item: dict, rng: random.Random) -> list[str]:
    param, label = item["param"], item["label"]
    keys = [(tag, text, true) for tag, infos in label.items() for text, _, _, true in infos]
    if name.endswith("qa"):
        yes, no = param["options"]
        return [yes, no, f"{yes}.", f"The answer is {no}", f"{yes} or {no}", "I am not sure.", yes.lower(),
                no.upper(), f'"{yes}"', "", f"{no}\n\nBecause the marks differ."]
    if name.endswith("extract"):
        tag = param["type"][1:-1]
        real = [t for g, t, true in keys if g == tag and true]
        fake = [t for g, t, true in keys if g == tag and not true]
        other = [t for g, t, true in keys if g != tag][:2]
        return [json.dumps(real), json.dumps(real[::-1]), json.dumps(real + fake), json.dumps(real[:1]), "[]",
                "Here:\n" + json.dumps(real), json.dumps(real, ensure_ascii=True), json.dumps(other),
                "\n".join(real), str(real), json.dumps([{"s": s} for s in real]), "I am not sure.",
                json.dumps([f"<{tag}-{i}>{s}<{tag}>" for i, s in enumerate(real)]), json.dumps(real) + "\\x"]
    sep, num = param["sep"], param["num"]
    real = [(g, t) for g, t, true in keys if true]
    fake = [(g, t) for g, t, true in keys if not true]
    picked = rng.sample(real, min(num, len(real)))
    good = "\n".join(f"{t} {sep} {g}" for g, t in picked)
    return [good, good.replace(sep, ":"), " ".join(f"{t} {sep} {g}" for g, t in picked),
            "\n".join(f"{t} {sep} {rng.choice(paper.REPEAT_TAGS)}" for g, t in picked),
            "\n".join(f"{t} {sep} {g}" for g, t in fake[:num]), "\n".join(f"{typo(t, rng)} {sep} {g}" for g, t in picked),
            good + "\n" + good, "I am not sure.", f"1. {picked[0][1]} {sep} {picked[0][0].strip('#@!|*-')}",
            "\n".join(f"{g} {sep} {t}" for g, t in picked), ""]


def synthetic_list(meta: Path, count: int = 400, seed: int = 0) -> dict:
    """A stand-in for the missing list_input.json: UUIDs mixed with short sentences of the documents."""
    rng = random.Random(seed)
    docs = json.loads((meta / "multidoc_input.json").read_text())["info"]["doc_list"]
    sentences = sorted({s for d in docs[:200] for s in re.split(r"(?<=[.?!])\s+", d["text"]) if 5 <= len(s.split()) <= 40
                        and "\n" not in s})
    entries = [uuid.UUID(int=rng.getrandbits(128)).hex if rng.random() < 0.5 else rng.choice(sentences)
               for _ in range(count)]
    entries = list(dict.fromkeys(entries))
    text = "".join(f"{i}. {e}\n" for i, e in enumerate(entries, 1))
    return {"info": entries, "inputs": [{"input_text": text, "length": 3, "label": len(entries) - 5}]}


def original_verdicts(originals: Path, python: Path, pairs: list[tuple[str, dict, list[str]]]) -> list[list[dict]]:
    """The original's verdict on every reply, from its own code run by its own Python
    (`lifbench_original.py`, a process apart)."""
    with tempfile.TemporaryDirectory() as folder:
        given, taken = Path(folder) / "pairs.jsonl", Path(folder) / "verdicts.jsonl"
        keep = ("prompt", "param", "label")
        given.write_text("".join(json.dumps({"task": name, "item": {k: item[k] for k in keep}, "outputs": replies}) + "\n"
                                 for name, item, replies in pairs))
        subprocess.run([str(python), str(Path(__file__).with_name("lifbench_original.py")), str(originals), str(given),
                        str(taken)], check=True)
        return [json.loads(line) for line in taken.read_text().splitlines()]


def ours(task: str, item: dict, reply: str):
    """Paper mode's verdict: its scores, the exception it raises as the original does, or
    `Undetermined` where it does not follow what the original would run."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return paper.judge(task, item["prompt"], item["param"], item["label"], reply)
    except paper_eval.Undetermined as error:
        return error
    except Exception as error:  # the original raises on some replies: ours must too
        return type(error)


def compare(title: str, pairs: list[tuple[str, dict, list[str]]], theirs_all: list[list[dict]]) -> None:
    """Per task, how often paper mode and the default rubric agree with the original's verdicts."""
    stats = defaultdict(lambda: defaultdict(int))
    mismatches, declined = [], defaultdict(int)
    for number, ((name, item, replies), verdicts) in enumerate(zip(pairs, theirs_all)):
        task = convert.TASKS[name]
        row = convert.to_row(name, item, number)
        for reply, theirs in zip(replies, verdicts):
            s = stats[task]
            s["pairs"] += 1
            mine = ours(task, item, reply)
            if isinstance(mine, paper_eval.Undetermined):
                s["declined"] += 1
                declined[str(mine)] += 1
                continue
            s["compared"] += 1
            if "timeout" in theirs:  # paper mode gave a verdict where the original never finished
                s["timeout"] += 1
                s["criteria"] += len(paper.POINTS[task])
                mismatches.append((name, reply, theirs, mine))
                continue
            if "raised" in theirs:
                s["raised"] += 1
                same = isinstance(mine, type)
                s["paper_criteria"] += same * len(paper.POINTS[task])
                s["paper_ars"] += same
                s["criteria"] += len(paper.POINTS[task])
                if not same:
                    mismatches.append((name, reply, theirs, mine))
                continue
            theirs = theirs["score"]
            default = rubric.score(row, reply)
            s["criteria"] += len(paper.POINTS[task])
            s["scored"] += 1
            s["scored_criteria"] += len(paper.POINTS[task])
            ok_all = not isinstance(mine, type)
            for (point, weight, _), default_point in zip(paper.POINTS[task], rubric.RUBRICS[task]):
                agree = ok_all and abs(mine[point] - theirs[point]) < 1e-9
                s["paper_criteria"] += agree
                s["default_criteria"] += abs(default["points"][default_point.id] / default_point.weight
                                             - theirs[point]) < 1e-6
                ok_all = ok_all and agree
            same_ars = not isinstance(mine, type) and abs(mine["total_score"] - theirs["total_score"]) < 1e-9
            s["paper_ars"] += same_ars
            s["default_ars"] += abs(default["ars"] - theirs["total_score"]) < 1e-6
            if not (ok_all and same_ars):
                mismatches.append((name, reply, theirs, mine))
    print(f"\n## {title}: {sum(s['pairs'] for s in stats.values())} (prompt, reply) pairs\n")
    print(f"{'task':<15} {'pairs':>6} {'declined':>8} {'raised':>6} {'paper criteria':>15} {'paper ARS':>10} "
          f"{'default criteria':>17} {'default ARS':>12}")
    total = defaultdict(int)
    for task, s in sorted(stats.items()):
        for k, v in s.items():
            total[k] += v
        line(task, s)
    line("all", total)
    for reason, count in sorted(declined.items()):
        print(f"  declined ({count}): {reason}")
    for name, reply, theirs, mine in mismatches[:10]:
        print(f"  paper mode differs: {name} reply {reply[:120]!r}\n    theirs {theirs}\n    ours   {mine}")


def line(task: str, s: dict) -> None:
    """One row: paper mode over the pairs it scores (declined ones apart), the default rubric over
    those the original scored."""
    print(f"{task:<15} {s['pairs']:>6} {s['declined']:>8} {s['raised']:>6} "
          f"{s['paper_criteria'] / max(s['criteria'], 1):>15.1%} {s['paper_ars'] / max(s['compared'], 1):>10.1%} "
          f"{s['default_criteria'] / max(s['scored_criteria'], 1):>17.1%} {s['default_ars'] / max(s['scored'], 1):>12.1%}")


def own_pairs(originals: Path, lengths: set[int]) -> list[tuple[str, dict, list[str]]]:
    """The benchmark's own set: prompt items rendered from the original's data, replies made here."""
    meta = originals / "data" / "meta"
    listing = synthetic_list(meta)
    items = convert.prompts_from_meta(meta, list_input=listing, lengths=lengths | {3})
    pairs = []
    for name, its in items.items():
        rng = random.Random(name)
        for item in its:
            if item["length"] not in lengths and not name.startswith("list"):
                continue
            if name.startswith("list"):
                replies = list_replies(name, item, listing["info"], rng)
            elif name.startswith("multidoc"):
                replies = doc_replies(name, item, rng)
            else:
                replies = onedoc_replies(name, item, rng)
            pairs.append((name, item, replies))
    return pairs


def file_pairs(path: Path) -> list[tuple[str, dict, list[str]]]:
    """Candidates from outside: a JSONL of the original's output items (`prompt, param, label,
    output`), each with its `task` (the original's file name, e.g. `multidoc-find_dup_text`); or
    the original's own `<task>.json` files (a list of such items), one or a folder of them."""
    pairs = []
    if path.suffix == ".jsonl":
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if text.strip():
                item = json.loads(text)
                if item.get("task") not in convert.TASKS:
                    sys.exit(f"{path}:{number}: 'task' must be one of {sorted(convert.TASKS)}")
                pairs.append((item["task"], item, [item["output"]]))
        return pairs
    for file in sorted(path.rglob("*.json")) if path.is_dir() else [path]:
        if file.stem in convert.TASKS:
            pairs += [(file.stem, item, [item["output"]]) for item in json.loads(file.read_text(encoding="utf-8"))
                      if "output" in item]
    if not pairs:
        sys.exit(f"{path}: no candidates (a .jsonl with 'task' on each line, or the original's <task>.json files)")
    return pairs


# ---- the released tables -----------------------------------------------------------------------------
def read_xlsx(path: Path) -> list[list]:
    """The first sheet of an .xlsx as rows of values (numbers as floats), with the standard library."""
    ns = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
    with zipfile.ZipFile(path) as book:
        shared = []
        if "xl/sharedStrings.xml" in book.namelist():
            shared = ["".join(t.text or "" for t in si.iter(f"{{{ns['m']}}}t"))
                      for si in ET.fromstring(book.read("xl/sharedStrings.xml")).findall("m:si", ns)]
        sheet = ET.fromstring(book.read("xl/worksheets/sheet1.xml"))
    rows = []
    for row in sheet.iter(f"{{{ns['m']}}}row"):
        values = {}
        for cell in row.findall("m:c", ns):
            column = re.match(r"[A-Z]+", cell.get("r"))[0]
            index = sum((ord(c) - 64) * 26 ** i for i, c in enumerate(reversed(column))) - 1
            v = cell.find("m:v", ns)
            inline = cell.find("m:is", ns)
            if cell.get("t") == "s":
                values[index] = shared[int(v.text)]
            elif inline is not None:
                values[index] = "".join(t.text or "" for t in inline.iter(f"{{{ns['m']}}}t"))
            elif v is not None:
                values[index] = v.text if cell.get("t") == "str" else float(v.text)
        rows.append([values.get(i) for i in range(max(values) + 1)] if values else [])
    return rows


def released_frames(data: Path) -> dict[str, pd.DataFrame]:
    """Per model, the released per-sample scores as ifforge's evaluate frame (paper rules)."""
    records = []
    for path in sorted((data / "scores").glob("*.csv")):
        task = convert.TASKS[path.stem]
        table = pd.read_csv(path)
        for line in table.itertuples(index=False):
            line = line._asdict()
            points = {p: w * line[p] for p, w, _ in paper.POINTS[task]}
            records.append({"model": line["model"], "task": task, "ars": line["total_score"],
                            "expression_id": f"e{line['ins_id']}", "variables_id": f"v{line['param_id']}",
                            "length_tokens": line["length"], "request_failed": False, "rules": "paper",
                            "points": json.dumps(points)})
    frame = pd.DataFrame(records)
    return {model: part for model, part in frame.groupby("model")}


LEN_NAMES = {"GPT-4o": "gpt-4o-2024-08-06", "GPT-4": "gpt-4-0125-preview", "Llama-3.1-70B-Inst.": "Meta-Llama-3.1-70B-Instruct",
             "C4AI-cmd-r-08-2024 (32B)": "c4ai-command-r-08-2024", "C4AI-cmd-r-v01 (35B)": "c4ai-command-r-v01",
             "Llama-3.1-70B": "Meta-Llama-3.1-70B", "InternLM2.5-7b-chat-1m": "internlm2_5-7b-chat-1m",
             "Llama-3.1-8B-Inst.": "Meta-Llama-3.1-8B-Instruct", "GLM-4-9b-chat-1m": "glm-4-9b-chat-1m",
             "LWM-Text-Chat-1M": "LWM-Text-Chat-1M", "Llama-3.1-8B": "Meta-Llama-3.1-8B", "LWM-Text-1M": "LWM-Text-1M"}


def model_of(display: str) -> str:
    name = display.split("\\textsuperscript")[0].strip()
    return LEN_NAMES.get(name) or name.replace("-Inst.", "-Instruct")


def tables(originals: Path) -> None:
    data, results = originals / "data", originals / "data" / "results"
    frames = released_frames(data)
    print("\n## The released tables, recomputed from data/scores/*.csv by ifforge's code\n")
    # IFS per perspective over all lengths (ifs1120.xlsx: three decimals)
    head, *lines = read_xlsx(results / "ifs1120.xlsx")
    # the table's own `wavg` column (weighted ARS) tells whether it was made from the released scores
    same_data = {line[0] for line in lines if line[0] != "standard" and
                 round(scoring.weighted_ars(list(zip(frames[line[0]]["task"], frames[line[0]]["ars"]))), 3)
                 == float(re.search(r"[\d.]+", line[head.index("wavg")])[0])}
    for column, perspective in (("ins-ifs", "expression_id"), ("param-ifs", "variables_id"), ("length-ifs", "length_tokens")):
        at = head.index(column)
        exact, near, models, exact_same = 0, 0, 0, 0
        for line in lines:
            if line[0] == "standard":
                continue
            released = float(re.search(r"[\d.]+", line[at])[0])
            ours = scoring.stability(frames[line[0]], perspective)["ifs"]
            models += 1
            exact += round(ours, 3) == released
            exact_same += round(ours, 3) == released and line[0] in same_data
            near += abs(ours - released) <= 0.0015
        print(f"IFS {column:<10} (ifs1120.xlsx): {exact}/{models} models equal at 3 decimals, "
              f"{near}/{models} within 0.0015; {exact_same}/{len(same_data)} of the models whose wavg there "
              "equals the released scores' weighted ARS")
    print(f"  ifs1120.xlsx's wavg equals the released scores' weighted ARS (3 decimals) for {len(same_data)} of "
          f"{models} models: the table was made from other per-sample scores for the rest")
    for file, perspective in (("ifs_exp_len.xlsx", "expression_id"), ("ifs_param_len.xlsx", "variables_id")):
        head, *lines = read_xlsx(results / file)
        lengths = sorted({int(v) for v in frames["standard"]["length_tokens"]})
        cells = same = 0
        for line in lines:
            frame = frames[model_of(line[0])]
            for length, released in zip(lengths, line[1:]):
                ours = scoring.stability(frame[frame["length_tokens"] == length], perspective)["ifs"]
                cells += 1
                same += abs(ours - released) < 5e-5
        print(f"IFS by length ({file}): {same}/{cells} cells equal (to 4 decimals)")
    head, *lines = read_xlsx(results / "full_results_IFP.xlsx")
    cells = same = 0
    missed = defaultdict(int)
    for line in lines:
        if line[0] == "standard":
            continue
        ours = scoring.capability_map(frames[line[0]])
        for column, released in zip(head[1:], line[1:]):
            cells += 1
            agree = abs(ours[CAPS[column]] - released) < 1e-6  # ours is rounded to 6 decimals
            same += agree
            missed[column] += not agree
    print(f"capability map, Eq. 4 (full_results_IFP.xlsx): {same}/{cells} cells equal"
          + (f" (differing: {dict((k, v) for k, v in missed.items() if v)})" if same < cells else ""))
    head, *lines = read_xlsx(results / "full_results.xlsx")
    cells = same = 0
    model = None
    for line in lines:
        model = line[0] or model
        frame = frames[model]
        part = frame[frame["length_tokens"] == int(line[1])]
        for column, released in zip(head[2:], line[2:]):
            if column == "avg" or released is None:
                continue
            if column == "wavg":
                ours = scoring.weighted_ars(list(zip(part["task"], part["ars"])))
            else:
                task = convert.TASKS[column]
                ours = part[part["task"] == task]["ars"].mean()
            cells += 1
            same += abs(ours - released) < 1e-9
    print(f"ARS per task and length, and weighted overall (full_results.xlsx): {same}/{cells} cells equal")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("originals", type=Path, help="a fetched copy of LIFBench-2024")
    parser.add_argument("candidates", type=Path, nargs="?",
                        help="candidates from outside: a .jsonl of the original's items with 'task' and 'output', "
                             "or the original's <task>.json output files")
    parser.add_argument("--python", type=Path, help="the Python of the original's environment "
                                                    "(default: ORIGINALS_DIR/.venv/bin/python)")
    parser.add_argument("--lengths", type=int, nargs="+", default=[3, 6],
                        help="MultiDoc and OneDoc input lengths to render (the original's units: 3 6 13 28 60 120)")
    parser.add_argument("--tables-only", action="store_true")
    parser.add_argument("--no-tables", action="store_true")
    args = parser.parse_args()
    if not (args.originals / "evaluation" / "EvaluateFunc.py").exists():
        sys.exit(f"{args.originals}: no evaluation/EvaluateFunc.py (give the LIFBench-2024 folder)")
    python = args.python or args.originals / ".venv" / "bin" / "python"
    if not args.tables_only:
        if not python.exists():
            sys.exit(f"{python}: no Python for the original (make a venv with Python 3.10 there, or give --python)")
        sets = [("Agreement with LIFBench's EvaluateFunc, the benchmark's own set "
                 f"(lengths {sorted(args.lengths)})", own_pairs(args.originals, set(args.lengths)))]
        if args.candidates:
            sets.append((f"Agreement with LIFBench's EvaluateFunc, candidates from {args.candidates}",
                         file_pairs(args.candidates)))
        for title, pairs in sets:
            started = time.perf_counter()
            verdicts = original_verdicts(args.originals, python, pairs)
            compare(title, pairs, verdicts)
            print(f"({time.perf_counter() - started:.0f} s)")
    if not args.no_tables:
        tables(args.originals)


if __name__ == "__main__":
    main()
