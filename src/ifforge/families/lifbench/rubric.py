"""LIFEval: every task's rubric, one small class per point, checked by code.

A point has a weight (the LIFBench repository's, per task) and the capabilities it measures
(original content, numerical, spatial, format, logic, recognition). `score` gives each point a
fraction in [0, 1] of its weight; a sample's ARS is the points earned over the task's total
weight. The checks are ours: they read the reply as a person grading it would, and they need
nothing but the reply and the benchmark row (its prompt, gold and facts).
"""

from __future__ import annotations

import difflib
import functools
import json
import re
from typing import Any

from ifforge.core import pyast
from ifforge.core import jsontext
from ifforge.families.lifbench.scenarios import TAGS

CAPABILITIES = ("original", "numerical", "spatial", "format", "logic", "recognition")


# ---- reading replies ----------------------------------------------------------------------------
def clean(reply: str | None) -> str:
    """The reply without surrounding space, one code fence around everything, or wrapping quotes."""
    text = (reply or "").strip()
    fenced = re.fullmatch(r"```[\w-]*\n(.*?)\n?```", text, re.DOTALL)
    if fenced:
        text = fenced[1].strip()
    if len(text) > 1 and text[0] == text[-1] and text[0] in "\"'`":
        text = text[1:-1].strip()
    return text


def json_in(text: str, opener: str) -> tuple[Any, str | None]:
    """(value, how): the whole text as JSON (`whole`), else the outermost `[...]` / `{...}` in it (`inside`)."""
    try:
        return jsontext.loads(text), "whole"
    except ValueError:
        pass
    closer = {"[": "]", "{": "}"}[opener]
    start, end = text.find(opener), text.rfind(closer)
    if 0 <= start < end:
        try:
            return jsontext.loads(text[start:end + 1]), "inside"
        except ValueError:
            pass
    return None, None


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    return [s for v in value for s in _strings(v)] if isinstance(value, list) else []


def readable(reply: str | None, opener: str = "[") -> str:
    """The reply as a reader sees it: the strings of its JSON value (escapes such as `\\"`
    decoded), in order, then the reply itself; without JSON, the reply."""
    text = clean(reply)
    value, how = json_in(text, opener)
    return "\n".join(_strings(value)) + "\n" + text if how else text


def near(expected: str, got: str) -> bool:
    """A near miss: a line of the reply that differs from `expected` by a few characters."""
    return any(difflib.SequenceMatcher(None, expected, line.strip()).ratio() >= 0.9 for line in got.splitlines())


@functools.lru_cache(maxsize=16)
def list_entries(prompt: str) -> tuple[str, ...]:
    """The numbered entries of a List prompt (the longest run 1., 2., 3., ... in it)."""
    entries: list[str] = []
    for number, entry in re.findall(r"^(\d+)\. (.+)$", prompt, re.MULTILINE):
        if int(number) == len(entries) + 1:
            entries.append(entry)
    return tuple(entries)


def entries_in(prompt: str, reply: str) -> list[int]:
    """Positions (1-based) of the list entries quoted in the reply."""
    return [i for i, entry in enumerate(list_entries(prompt), 1) if entry in reply]


def share(hits: float, total: int) -> float:
    return hits / total if total else 0.0


def closeness(got: int, wanted: int, slack: int = 0) -> float:
    return max(0.0, 1.0 - abs(got - wanted) / (wanted + slack)) if wanted + slack else float(got == wanted)


# ---- points -------------------------------------------------------------------------------------
class Point:
    """One rubric point: `score(reply, row)` is the fraction of `weight` earned."""

    id = ""
    description = ""

    def __init__(self, weight: float, *capabilities: str):
        assert capabilities and set(capabilities) <= set(CAPABILITIES), capabilities
        self.weight, self.capabilities = weight, capabilities

    def score(self, reply: str, row: dict[str, Any]) -> float:
        raise NotImplementedError

    def entry(self) -> dict[str, Any]:
        return {"id": self.id, "weight": self.weight, "capabilities": list(self.capabilities),
                "description": self.description}


class OneEntryOnly(Point):
    id, description = "format", "the reply is one list entry and nothing else (half: one entry among other words)"

    def score(self, reply, row):
        text = clean(reply)
        if text in list_entries(row["prompt"]):
            return 1.0
        return 0.5 if len(entries_in(row["prompt"], text)) == 1 else 0.0


class GoldEntry(Point):
    id, description = "correct", "the asked entry is in the reply (half: a near miss by a few characters)"

    def score(self, reply, row):
        text = clean(reply)
        return 1.0 if row["gold"] in text else 0.5 if text and near(row["gold"], text) else 0.0


class QuotesTheList(Point):
    id, description = "original", "the reply quotes at least one entry of the list as it is"

    def score(self, reply, row):
        return 1.0 if entries_in(row["prompt"], clean(reply)) else 0.0


class JsonStringList(Point):
    id, description = "format", "a JSON list of strings and nothing else (less: found inside other text, or not all strings)"

    def score(self, reply, row):
        value, how = json_in(clean(reply), "[")
        if not isinstance(value, list):
            return 0.25 if how else 0.0
        strings = all(isinstance(v, str) for v in value)
        return (1.0 if strings else 0.75) if how == "whole" else (0.75 if strings else 0.5)


def _listed(reply: str, row: dict[str, Any]) -> int:
    """How many items the reply gives: its JSON list's length, else the list entries it quotes."""
    value, _ = json_in(clean(reply), "[")
    return len(value) if isinstance(value, list) else len(entries_in(row["prompt"], clean(reply)))


class ItemCount(Point):
    id, description = "count", "as many items as asked (a third for exactly so many, the rest for how close)"

    def score(self, reply, row):
        got, wanted = _listed(reply, row), len(row["gold"])
        return (got == wanted) / 3 + 2 / 3 * closeness(got, wanted)


class GoldShare(Point):
    id, description = "correct", "the share of the asked items found in the reply"

    def score(self, reply, row):
        text = readable(reply)
        return share(sum(item in text for item in row["gold"]), len(row["gold"]))


class GoldOrder(Point):
    id, description = "order", "the asked items that are there (at least one) come in the asked order"

    def score(self, reply, row):
        text = readable(reply)
        places = [text.find(item) for item in row["gold"] if item in text]
        return 1.0 if places and places == sorted(places) else 0.0


class OneEntrySide(Point):
    id, description = "position", "every quoted entry is on the asked side of the named one (a third: the named one too)"

    def score(self, reply, row):
        found = entries_in(row["prompt"], clean(reply))
        anchor, after = row["gold"]["position"], row["gold"]["side"] == "after"
        if not found:
            return 0.0
        if all(p > anchor if after else p < anchor for p in found):
            return 1.0
        return 1 / 3 if all(p >= anchor if after else p <= anchor for p in found) else 0.0


# MultiDoc ---------------------------------------------------------------------------------------
def _labels(reply: str) -> tuple[dict[str, Any] | None, str | None]:
    value, how = json_in(clean(reply), "{")
    return (value, how) if isinstance(value, dict) else (None, how)


class LabelObject(Point):
    id, description = ("format", "one JSON object (2 of 5; 1 if inside other text), string labels (1), every "
                                 "document's id a key (2, by share)")

    def score(self, reply, row):
        labels, how = _labels(reply)
        if labels is None:
            return 0.0
        earned = 2.0 if how == "whole" else 1.0
        earned += 1.0 if labels and all(isinstance(v, str) for v in labels.values()) else 0.0
        earned += 2.0 * share(sum(key in labels for key in row["gold"]), len(row["gold"]))
        return earned / 5


class LabelCount(Point):
    id, description = "count", "as many labelled documents as there are (a sixth for exactly so many)"

    def score(self, reply, row):
        labels, _ = _labels(reply)
        got, wanted = len(labels or {}), len(row["gold"])
        return (got == wanted) / 6 + 5 / 6 * closeness(got, wanted)


class LabelsFromCandidates(Point):
    id, description = "original", "the share of given labels that are one of the four offered"

    def score(self, reply, row):
        labels, _ = _labels(reply)
        return share(sum(v in row["facts"]["labels"] for v in labels.values()), len(labels)) if labels else 0.0


def _labelled_right(reply: str, row: dict[str, Any]) -> float:
    labels, _ = _labels(reply)
    return share(sum((labels or {}).get(k) == v for k, v in row["gold"].items()), len(row["gold"]))


class LabelsByRule(Point):
    id, description = "correct", "the share of documents labelled as the rule says"

    def score(self, reply, row):
        return _labelled_right(reply, row)


class AsFarAsRight(Point):
    """Another point of a labelling task, earned only as far as the documents are labelled right:
    a JSON object of the right size with offered labels is what any well-formed reply has, so one
    label on every document earned those points in full (ARS 0.85 on our rows, 0.93 on LIFBench's)."""

    def __init__(self, point: Point):
        super().__init__(point.weight, *point.capabilities)
        self.point, self.id = point, point.id
        self.description = f"{point.description}; times the share of documents labelled right"

    def score(self, reply, row):
        return self.point.score(reply, row) * _labelled_right(reply, row)


def _line_value(line: str) -> Any:
    """A line as JSON, else as a Python literal (the instruction asks for `None` where a field is
    missing, which JSON does not read); None when it is neither."""
    try:
        return jsontext.loads(line)
    except ValueError:
        pass
    try:
        return pyast.literal_eval(line) if len(line) < 100_000 else None
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def _is_group(value: Any) -> bool:
    """One group: a non-empty list of documents, each a list of plain values (a line holding
    several groups is not one)."""
    return (isinstance(value, list) and bool(value) and all(isinstance(doc, (list, tuple)) for doc in value)
            and not any(isinstance(v, (list, tuple, dict)) for doc in value for v in doc))


def _group_lines(reply: str) -> tuple[list[list[list[Any]]], int]:
    """The reply's groups (lines that are one group each) and its count of non-empty lines."""
    lines = [line.strip() for line in clean(reply).splitlines() if line.strip()]
    groups = [[list(doc) for doc in value] for value in map(_line_value, lines) if _is_group(value)]
    return groups, len(lines)


def _missing(value: Any) -> bool:
    return value is None or value == "None"


def _key(values: list[Any]) -> str:
    return json.dumps([None if _missing(v) else str(v) for v in values])


class GroupLines(Point):
    id, description = "format", "one JSON list of lists per line (by share of lines), at least one, nothing else"

    def score(self, reply, row):
        groups, lines = _group_lines(reply)
        text = clean(reply)
        return (0.6 * share(len(groups), lines) + 0.2 * bool(groups)
                + 0.2 * (text.startswith("[") and text.endswith("]")))


class GroupCount(Point):
    id, description = "count", "as many groups as there are, at least one given (a fifth for exactly so many)"

    def score(self, reply, row):
        got, wanted = len(_group_lines(reply)[0]), len(row["gold"])
        return (got == wanted) / 5 + 4 / 5 * closeness(got, wanted, 2) if got else 0.0


class GroupValuesFromInput(Point):
    id, description = "original", "the share of values given that are in the documents as they are"

    def score(self, reply, row):
        values = [v for group in _group_lines(reply)[0] for doc in group for v in doc if not _missing(v)]
        prompt, known = row["prompt"], set(row["facts"].get("values", ()))  # converted rows list theirs
        return share(sum(isinstance(v, str) and (v in known or json.dumps(v, ensure_ascii=False) in prompt)
                         for v in values), len(values))


class GroupsRight(Point):
    id, description = ("correct", "half: the share of duplicated documents named; half: the share of their pairs "
                                  "put together or apart as they should be")

    def score(self, reply, row):
        gold = {_key(doc): g for g, group in enumerate(row["gold"]) for doc in group}
        given: dict[str, int] = {}
        for g, group in enumerate(_group_lines(reply)[0]):
            for doc in group:
                given.setdefault(_key(doc), g)
        named = share(sum(k in given for k in gold), len(gold))
        keys = list(gold)
        pairs = [(a, b) for i, a in enumerate(keys) for b in keys[i + 1:]]
        agree = sum(a in given and b in given and (gold[a] == gold[b]) == (given[a] == given[b]) for a, b in pairs)
        return 0.5 * named + 0.5 * share(agree, len(pairs))


# OneDoc -----------------------------------------------------------------------------------------
def _keys(row: dict[str, Any]) -> list[dict[str, Any]]:
    return row["facts"]["keys"]


def _copied(reply: str, row: dict[str, Any]) -> int:
    """Key sentences (real or fake) in the reply: without one, the reply did not try the task."""
    text = clean(reply)
    return sum(k["text"] in text for k in _keys(row))


def _repeat_lines(reply: str) -> list[str]:
    return [line.strip() for line in clean(reply).splitlines() if line.strip()]


class RepeatLayout(Point):
    id, description = ("format", "with a key sentence copied: one line each (a sixth), the separator used (a "
                                 "sixth), lines of sentence, separator, tag (two thirds, by share)")

    def score(self, reply, row):
        lines, sep, wanted = _repeat_lines(reply), row["gold"]["sep"], row["gold"]["num"]
        if not _copied(reply, row):
            return 0.0
        earned = (wanted == 1 or len(lines) > 1) / 6 + (sep in clean(reply)) / 6
        good = sum(len(line.split(sep)) == 2 for line in lines)
        return earned + 2 / 3 * min(1.0, share(good, max(len(lines), wanted)))


class RepeatOriginal(Point):
    id, description = "original", "a key sentence copied as it is (half), a tag type named (half)"

    def score(self, reply, row):
        text = clean(reply)
        return (0.5 * any(k["text"] in text for k in _keys(row))
                + 0.5 * any(re.search(rf"\b{tag}\b", text, re.IGNORECASE) for tag in TAGS))


class RepeatHits(Point):
    id, description = "hit", "key sentences copied, up to the number asked; a fake one costs half a real one"

    def score(self, reply, row):
        text = clean(reply)
        real = sum(k["text"] in text for k in _keys(row) if k["true"])
        fake = sum(k["text"] in text for k in _keys(row) if not k["true"])
        return max(0.0, min(1.0, (real - 0.5 * fake) / row["gold"]["num"]))


class RepeatCount(Point):
    id, description = ("num", "with a key sentence copied, the number asked counted three ways: lines, "
                              "separators, key sentences; a quarter each, and a quarter for the three agreeing")

    def score(self, reply, row):
        text, wanted = clean(reply), row["gold"]["num"]
        counts = (len(_repeat_lines(reply)), text.count(row["gold"]["sep"]), _copied(reply, row))
        if not counts[2]:
            return 0.0
        return (sum(c == wanted for c in counts) + (len(set(counts)) == 1)) / 4


def _tag(name: str) -> str:
    """A tag type's name without its marks, case or a closing full stop (`#Topic#` is `topic`)."""
    return name.strip().strip(".").strip("#@!|*~-<> ").lower()


class RepeatTypes(Point):
    id, description = "correct", "the share of lines whose sentence is a real key sentence of the tag type named"

    def score(self, reply, row):
        lines, sep = _repeat_lines(reply), row["gold"]["sep"]
        right = 0
        for line in lines:
            sentence, _, named = line.partition(sep)
            right += any(k["true"] and _tag(k["tag"]) == _tag(named) and k["text"] in sentence for k in _keys(row))
        return share(right, len(lines))


def _extracted(reply: str) -> list[Any] | None:
    value, _ = json_in(clean(reply), "[")
    return value if isinstance(value, list) else None


class _ExtractPoint(Point):
    """An extract point: for a tag with no key sentence, full marks for an empty list and none
    otherwise; for a tag with some, what `asked` gives."""

    def score(self, reply, row):
        return self.asked(reply, row) if row["gold"] else float(_extracted(reply) == [])

    def asked(self, reply: str, row: dict[str, Any]) -> float:
        raise NotImplementedError


class ExtractCorrect(_ExtractPoint):
    id, description = ("correct", "the real sentences of the tag found, over the most of found, given and asked "
                                  "(seven eighths), and, with one found, the fake of the tag left out (an eighth); "
                                  "for a tag with none, an empty list")

    def asked(self, reply, row):
        text, gold = readable(reply), row["gold"]
        found_keys = sum(k["text"] in text for k in _keys(row))
        given = len(_extracted(reply) or [])
        hits = sum(sentence in text for sentence in gold)
        fakes = [k["text"] for k in _keys(row) if not k["true"] and k["tag"] == row["facts"]["tag"]]
        if not hits:
            return 0.0
        return 7 / 8 * share(hits, max(found_keys, given, len(gold))) + 1 / 8 * all(f not in text for f in fakes)


class ExtractOrder(_ExtractPoint):
    id, description = "order", "the key sentences given come in the asked order (for a tag with none: an empty list)"

    def asked(self, reply, row):
        text = readable(reply)
        places = [text.find(k["text"]) for k in _keys(row) if k["text"] in text]
        return 1.0 if places and places == sorted(places) else 0.0


class ExtractOriginal(_ExtractPoint):
    id, description = "original", "at least one key sentence copied as it is (for a tag with none: an empty list)"

    def asked(self, reply, row):
        return 1.0 if any(k["text"] in readable(reply) for k in _keys(row)) else 0.0


def _case_matters(row: dict[str, Any]) -> bool:
    """Options such as apple / APPLE differ only in case: then case tells them apart."""
    options = row["facts"]["options"]
    return len({o.lower() for o in options}) < len(options)


def _options(reply: str, row: dict[str, Any]) -> list[str]:
    text = clean(reply).strip(" .!")
    flags = 0 if _case_matters(row) else re.IGNORECASE
    return [o for o in row["facts"]["options"] if re.search(rf"\b{re.escape(o)}\b", text, flags)]


class AnswerOnly(Point):
    id, description = "format", "exactly one of the two options and nothing else (half: one option among other words)"

    def score(self, reply, row):
        text = clean(reply).strip(" .!")
        same = (lambda o: o) if _case_matters(row) else str.lower
        if same(text) in (same(o) for o in row["facts"]["options"]):
            return 1.0
        return 0.5 if len(_options(reply, row)) == 1 else 0.0


class AnswerRight(Point):
    id, description = "correct", "the right option, and only it (a sixth when both are given)"

    def score(self, reply, row):
        given = _options(reply, row)
        if len(given) == 2:
            return 1 / 6
        return 1.0 if given == [row["gold"]] else 0.0


# ---- the rubric of every task -------------------------------------------------------------------
RUBRICS: dict[str, list[Point]] = {
    "single_id": [OneEntryOnly(1, "format"), GoldEntry(2, "recognition"), QuotesTheList(1, "original")],
    "multi_id": [JsonStringList(2, "format"), ItemCount(3, "numerical"), GoldShare(3, "recognition"),
                 GoldOrder(2, "spatial")],
    "offset_id": [OneEntryOnly(1, "format"), GoldEntry(2, "recognition", "spatial"), QuotesTheList(1, "original")],
    "offset_element": [OneEntryOnly(1, "format"), GoldEntry(2, "spatial"), QuotesTheList(1, "original")],
    "blur_id": [QuotesTheList(1, "original"), OneEntrySide(3, "spatial"), OneEntryOnly(1, "format")],
    "blur_element": [QuotesTheList(1, "original"), OneEntrySide(3, "spatial"), OneEntryOnly(1, "format")],
    "batch_label": [AsFarAsRight(LabelsFromCandidates(3, "original")), LabelsByRule(3, "logic"),
                    AsFarAsRight(LabelCount(3, "numerical", "recognition")), AsFarAsRight(LabelObject(5, "format"))],
    "find_dup": [GroupsRight(4, "logic", "recognition"), GroupCount(5, "numerical", "logic"),
                 GroupValuesFromInput(6, "original"), GroupLines(5, "format")],
    "repeat": [RepeatLayout(3, "format"), RepeatOriginal(2, "original"), RepeatHits(2, "recognition"),
               RepeatCount(4, "numerical"), RepeatTypes(3, "logic")],
    "extract": [JsonStringList(4, "format"), ExtractCorrect(4, "recognition"), ExtractOrder(4, "spatial"),
                ExtractOriginal(2, "original")],
    "qa": [AnswerRight(3, "logic"), AnswerOnly(2, "format")],
}


def rubric_entries(task: str) -> list[dict[str, Any]]:
    return [point.entry() for point in RUBRICS[task]]


def total(task: str) -> float:
    return float(sum(point.weight for point in RUBRICS[task]))


def score(row: dict[str, Any], reply: str | None) -> dict[str, Any]:
    """Every point's earned weight, the sum, the total and the ARS (earned / total) of one reply."""
    answered = bool(clean(reply))  # an empty reply follows nothing
    points = {point.id: round(point.weight * min(1.0, max(0.0, point.score(reply or "", row))), 6) if answered else 0.0
              for point in RUBRICS[row["task"]]}
    earned, weight = sum(points.values()), total(row["task"])
    return {"points": points, "earned": round(earned, 6), "total": weight, "ars": round(earned / weight, 6),
            "correct": abs(earned - weight) < 1e-9}
