"""A set of LIFBench candidates tricky on purpose, written apart from the agreement benchmark's own.

Usage: python benchmarks/lifbench_tricky.py ORIGINALS_DIR OUT.jsonl [--per-task 12] [--seed 40]
then:  python benchmarks/lifbench_agreement.py ORIGINALS_DIR OUT.jsonl --no-tables

Prompt items come from the original's `data/meta/` (another seed than the benchmark's own set,
and a List of entries that look alike: homoglyphs, zero-width characters, decomposed accents,
emoji sequences, entries inside entries). Each item gets replies made to find where a
re-implementation could part from the original: unicode look-alikes and invisible characters,
code fences, escapes and lone backslashes, JSON nested around the depth where the original's
json.loads gives up (989 to 992 levels, and far past it), numbers too long for Python 3.11,
and, for find_dup, Python expressions the original hands to `eval` (comparisons, powers,
`and`/`or`, conditional expressions, calls, lambdas, comprehensions, names of its scope). The
output is a .jsonl of the original's items with `task` and `output`, the format the agreement
benchmark takes from outside.
"""

from __future__ import annotations

import argparse
import json
import random
import unicodedata
from pathlib import Path

from ifforge.families.lifbench import convert

ZW = ["\u200b", "\u200c", "\u200d", "\ufeff", "\u2060"]
HOMOGLYPHS = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "i": "\u0456"}
EMOJI = ["\U0001F468\u200d\U0001F469\u200d\U0001F467", "\u2764\ufe0f", "\U0001F1EB\U0001F1F7", "\U0001F44D\U0001F3FD"]


def look_alike(text: str) -> str:
    return "".join(HOMOGLYPHS.get(c, c) for c in text)


def invisible(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text) + 1)
    return text[:i] + rng.choice(ZW) + text[i:]


def decomposed(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def fenced(text: str) -> str:
    return f"```json\n{text}\n```"


def nested(depth: int, inner: str = "") -> str:
    return "[" * depth + inner + "]" * depth


def spaced(depth: int) -> str:
    """Lists nested `depth` deep whose closing brackets never meet (`] ]`), so find_dup reads one group."""
    return "[[" + "[" * (depth - 2) + " ]" * (depth - 2) + " ]]"


DEPTHS = (988, 989, 990, 991, 992, 1200)


def wrappers(good: str, rng: random.Random) -> list[str]:
    """The tricks every task gets, around a good reply."""
    return [good, look_alike(good), invisible(good, rng), decomposed(good + " caf\u00e9"), fenced(good),
            good + " " + rng.choice(EMOJI), good.replace("\n", "\r\n"), "\u00a0" + good + "\u00a0", good + "\\",
            good + "\\x", good.replace('"', '\\"'), "\ufeff" + good, good + "\x00", good.upper(), "\t" + good]


def list_entries(rng: random.Random, count: int = 240) -> list[str]:
    base = ["Write a poem about the sea.", "Name three rivers in Europe.", "Explain how a lever works.",
            "caf\u00e9 au lait", "cafe\u0301 au lait", "\u0441\u0430t and mouse", "cat and mouse", "cat and mouse!",
            "see 3. below", "2. is not a number", "\u2764\ufe0f love", "\U0001F468\u200d\U0001F469\u200d\U0001F467 family",
            "zero\u200bwidth", "zerowidth", "\u05e9\u05dc\u05d5\u05dd shalom", "\uff21\uff22\uff23 fullwidth",
            "[\"json\", \"inside\"]", "{\"doc1\": \"complete\"}", "ends with backslash \\", "tab\there"]
    out = []
    while len(out) < count:
        pick = rng.random()
        if pick < 0.4:
            out.append("%032x" % rng.getrandbits(128))
        elif pick < 0.7:
            out.append(rng.choice(base) + f" #{len(out)}")
        else:
            word = "".join(rng.choice("abcdefghij") for _ in range(rng.randrange(3, 9)))
            out.append(word)
    return list(dict.fromkeys(out))


def list_replies(name: str, item: dict, entries: list[str], rng: random.Random) -> list[str]:
    param = item["param"]
    if name.endswith("multi_query_id"):
        gold = param["elements"]
        good = json.dumps(gold, ensure_ascii=False)
        return wrappers(good, rng) + [json.dumps(gold), nested(5, json.dumps(gold)), nested(989), nested(990),
                                      nested(991), nested(2000), "[" + "1" * 5000 + "]", json.dumps(gold)[:-1],
                                      "\n".join(f"{i}. {g}" for i, g in enumerate(gold, 1)), str(gold)]
    if "blur" in name:
        n = param["id"] - 1
        side = entries[n + 1] if param["bias"] == 1 else entries[max(0, n - 1)]
        return wrappers(side, rng) + [entries[n], side + side, ""]
    gold = param[{0: "element", 1: "post_element", -1: "pre_element"}[param.get("bias", 0)]]
    return wrappers(gold, rng) + [gold[:-1], gold + gold, " ".join(entries[:3]), ""]


def batch_label_replies(item: dict, rng: random.Random) -> list[str]:
    param = item["param"]
    order = {c: i for i, c in enumerate(param["rule_key"])}
    ranked = sorted(param["candidates"], key=lambda w: order[w[0]])
    truth = [ranked[("title" not in k) * 2 + ("source" not in k)] for k in param["doc_keys"]]
    gold = {f"doc{i}": t for i, t in enumerate(truth, 1)}
    good = json.dumps(gold)
    return wrappers(good, rng) + [
        nested(995) + " " + good,                                        # the whole reply too deep, its object read
        json.dumps({**gold, "doc1": "x"})[:-1] + ", \"deep\": " + nested(1000) + "}",
        "{\"doc1\": " + nested(989) + "}", "{\"doc1\": " + nested(990) + "}",
        "{\"doc1\": " + nested(991) + "}", nested(990), nested(991), nested(5000),
        "{" * 1000 + "}" * 1000, good + " " + nested(1000), "{\"n\": " + "7" * 5000 + "}",
        good.replace("doc", "d\u043ec"), json.dumps({k: look_alike(v) for k, v in gold.items()}),
        ", ".join(f"doc{i}: {t}" for i, t in enumerate(truth, 1)), "{" + ",".join(truth) + "}"]


def find_dup_replies(item: dict, rng: random.Random) -> list[str]:
    param = item["param"]
    fields = param["info_keys"].split(" ")
    groups = [[[d.get(f) for f in fields] for d in g] for g in param["dup_infos"]]
    lines = [json.dumps(g, ensure_ascii=False) for g in groups]
    good = "\n".join(lines)
    first = groups[0][0][0] if groups and groups[0] and groups[0][0] else "x"

    def each(make) -> str:
        """Every group written with `make(value)` for each value (None stays None)."""
        return "\n".join("[" + ", ".join("[" + ", ".join("None" if v is None else make(v) for v in doc) + "]"
                                         for doc in g) + "]" for g in groups)

    expressions = [
        "[[1 == 1]]", "[[2**40]]", "[[2**100000]]", "[[9**9**9]]", "[[1 and 2, 0 or 3]]", "[[1 if 0 else 2]]",
        "[[print('hi')]]", "[[len('abc')]]", "[[lambda: 0]]", "[[lambda x: x]]", "[[foo()]]", "[[id]]", "[[json]]",
        "[[expression]]", "[[0 and expression]]", "[[(lambda: expression)()]]", "[[str(1)]]", "[[(lambda: 1)()]]",
        "[[x for x in 'ab']]", "[[x] for x in 'ab']]", "[[f'{1}']]", "[[None, True]]", "[[...]]", "[[1j]]",
        "[[b'x']]", "[[{1: 2}]]", "[[{1, 2}]]", "[[(1, 2)]]", "[[-1, +1, ~1, not 1]]", "[[1 < 2 < 3]]",
        "[['a' * 3]]", "[['%s' % 1]]", "[[1/0]]", "[[int('x')]]", "[[1,2][0]]", "[[(a := 3), a]]",
        "[[(a := 3), [a for _ in 'x']]]", "[[__name__, __doc__]]", "[[__file__]]", "[[open('x')]]",
        "[[__import__('os').getcwd()]]", "[['a'.upper()]]", "[[sorted('cba')]]", "[[list(range(3))]]",
        "[[sum(range(10**7))]]", "[[(lambda f: f(f))(lambda f: f(f))]]", "[[ValueError('e')]]",
        "[[type(1)]]", "[[isinstance(1, int)]]", "[[max([3, 1], key=lambda v: -v)]]", "[[1 is 1]]",
        "[[None is None]]", "[[" + "+".join(["1"] * 500) + "]]", "[[" + "-" * 300 + "1]]",
        "[[" + "(" * 150 + "1" + ")" * 150 + "]]", "[[" + "(" * 250 + "1" + ")" * 250 + "]]",
        "[[" + "not " * 3500 + "1]]", "[[1" + "0" * 5000 + "]]", "[[{**{1: 2}}]]", "[[*'ab']]",
        "[[dict(a=1)]]", "[[True + True]]", "[[1e400]]", "[['\\N{BULLET}']]", "[['\\x']]", "[[yield]]",
        "[[await x]]", "[[lambda: (yield)]]", "[[chr(10**7)]]", "[[bytes(10**9)]]", "[[iter(int, 1)]]",
        "[[print(10**5000)]]", "[[print(1, sep=3)]]", "[[{(1, 2): 3}[*[1, 2]]]]", "[[sorted([3, 1])[0]]]",
    ]
    return wrappers(good, rng) + expressions + [
        each(lambda v: f"{v!r} if 1 else None"), each(lambda v: f"str({v!r})"), each(lambda v: f"(lambda: {v!r})()"),
        each(lambda v: f"[{v!r}][0]"), each(lambda v: f"{v!r} + ''"), each(lambda v: f"{v!r} or 0"),
        each(lambda v: f"''.join([{v!r}])"), each(lambda v: f"{v!r}[:]"), each(lambda v: f"f'{{{v!r}}}'"),
        each(lambda v: "expression" if rng.random() < 0.3 else repr(v)),
        "\n".join("[" + json.dumps(g) + "]" for g in groups), "\n".join(str(g) for g in groups),
        spaced(989), spaced(990), spaced(991), spaced(992), nested(991), nested(3000),
        "[[\"" + first + "\", " + nested(989) + "]]", "[[\"" + first + "\", " + nested(991) + "]]",
        "[[" + "1" * 5000 + "]]", "[[\"" + first + "\"], [" + "7" * 5000 + "]]", "[[null], [NaN], [Infinity]]",
        good.replace("\n", " "), good + "\n" + good, "\\\"", "[[\"\\u00e9\"]]", "[[\"caf\u00e9\"]]"]


def onedoc_replies(name: str, item: dict, rng: random.Random) -> list[str]:
    param, label = item["param"], item["label"]
    keys = [(tag, text, true) for tag, infos in label.items() for text, _, _, true in infos]
    if name.endswith("qa"):
        yes, no = param["options"]
        return wrappers(yes, rng) + [no, f"{yes} {no}", look_alike(no), f"**{yes}**", yes + "\u200b", ""]
    if name.endswith("extract"):
        tag = param["type"][1:-1]
        real = [t for g, t, true in keys if g == tag and true]
        good = json.dumps(real, ensure_ascii=False)
        return wrappers(good, rng) + [nested(989), nested(990), nested(991), nested(3000),
                                      "[" + "9" * 5000 + "]", json.dumps(real), "[]", str(real),
                                      json.dumps(real[::-1], ensure_ascii=False)]
    sep, num = param["sep"], param["num"]
    real = [(g, t) for g, t, true in keys if true][:num]
    good = "\n".join(f"{t} {sep} {g}" for g, t in real)
    return wrappers(good or "none", rng) + [good.replace(sep, look_alike(sep) or sep), good + "\n" + good]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("originals", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--per-task", type=int, default=12, help="prompt items per task")
    parser.add_argument("--seed", type=int, default=40)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    entries = list_entries(rng)
    listing = {"info": entries, "inputs": [{"input_text": "".join(f"{i}. {e}\n" for i, e in enumerate(entries, 1)),
                                            "length": 3, "label": len(entries) - 5}]}
    items = convert.prompts_from_meta(args.originals / "data" / "meta", list_input=listing, seed=args.seed, lengths={3})
    count = 0
    with args.out.open("w", encoding="utf-8") as out:
        for name, its in sorted(items.items()):
            for item in random.Random(f"{args.seed}:{name}").sample(its, min(args.per_task, len(its))):
                if name.startswith("list"):
                    replies = list_replies(name, item, entries, rng)
                elif name == "multidoc-batch_label":
                    replies = batch_label_replies(item, rng)
                elif name == "multidoc-find_dup_text":
                    replies = find_dup_replies(item, rng)
                else:
                    replies = onedoc_replies(name, item, rng)
                for reply in replies:
                    keep = {k: item[k] for k in ("prompt", "param", "label", "length", "ins_id", "param_id")}
                    out.write(json.dumps({"task": name, **keep, "output": reply}, ensure_ascii=False) + "\n")
                    count += 1
    print(f"{count} candidates in {args.out}")


if __name__ == "__main__":
    main()
