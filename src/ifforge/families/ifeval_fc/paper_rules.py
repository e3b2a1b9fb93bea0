r"""The IFEval-FC paper repository's checkers, as its code reads a value (`--rules paper`).

Each class is our rule with `check` replaced by the paper's reading, behaviour for behaviour (its
own tests' expectations included): same arguments, same descriptions, other verdicts. A checker
that raises in the paper's code counts as failed there (its evaluate.py catches it), and here.
Where our default reading differs, `docs/families/ifeval-fc.md` lists the case and the reason.

One checker depends on the paper's environment: its word count is nltk's `RegexpTokenizer(r"\w+")`,
which nltk 3.10.3 moved from Python's `re` to the `regex` engine, whose `\w` differs (see
`WordCount`). Paper mode reproduces either nltk (`NLTK`, chosen by the evaluate setting
`paper_nltk`) whatever nltk is installed: it never imports nltk.
"""

from __future__ import annotations

import json
import re
import string
from typing import Any

import regex

from ifforge.core.registry import Registry
from ifforge.families.ifeval_fc import rules
from ifforge.families.ifeval_fc.rules import compare

from ifforge.core import pyast

# The nltk whose word count paper mode reproduces, by the evaluate setting `paper_nltk`: "3.9" (the
# default) is 3.9.1, current when the paper's code and results were published (September 2025), and
# every release before 3.10.3 counts the same; "3.10" is 3.10.3 and later, what a fresh install gets.
NLTK = {"3.9": "nltk 3.9.1 (Python's re)", "3.10": "nltk 3.10.3 or later (the regex engine)"}
DEFAULT_NLTK = "3.9"

_PUNCTUATION_TO_SPACE = str.maketrans(string.punctuation, " " * len(string.punctuation))


def split_words(value: str, lower: bool = True) -> list[str]:
    """The paper's words for keywords and capital words: ASCII punctuation (the underscore too)
    becomes a space, then whitespace splits."""
    cleaned = value.translate(_PUNCTUATION_TO_SPACE)
    return (cleaned.lower() if lower else cleaned).split()


# The paper's sentence splitter: a chain of substitutions that protect dots which do not end a
# sentence (titles, acronyms, decimals, web addresses, ellipses...) and mark the ends; the text is
# then split at the marks. The markers are the paper's, so text that contains them splits the same.
_LETTER, _DIGIT = "([A-Za-z])", "([0-9])"
_TITLES = "(Mr|St|Mrs|Ms|Dr)[.]"
_COMPANY = "(Inc|Ltd|Jr|Sr|Co)"
_OPENERS = (r"(Mr|Mrs|Ms|Dr|Prof|Capt|Cpt|Lt|He\s|She\s|It\s|They\s|Their\s|Our\s|We\s|But\s|However\s|That\s"
            r"|This\s|Wherever)")
_INITIALS = "([A-Z][.][A-Z][.](?:[A-Z][.])?)"
_DOMAINS = "[.](com|net|org|io|gov|edu|me)"


def paper_sentences(text: str) -> list[str]:
    text = (" " + text + "  ").replace("\n", " ")
    text = re.sub(_TITLES, "\\1<prd>", text)
    text = re.sub(_DOMAINS, "<prd>\\1", text)
    text = re.sub(_DIGIT + "[.]" + _DIGIT, "\\1<prd>\\2", text)
    text = re.sub(r"\.{2,}", lambda dots: "<prd>" * len(dots.group(0)) + "<stop>", text)
    if "Ph.D" in text:
        text = text.replace("Ph.D.", "Ph<prd>D<prd>")
    text = re.sub(r"\s" + _LETTER + "[.] ", " \\1<prd> ", text)
    text = re.sub(_INITIALS + " " + _OPENERS, "\\1<stop> \\2", text)
    text = re.sub(_LETTER + "[.]" + _LETTER + "[.]" + _LETTER + "[.]", "\\1<prd>\\2<prd>\\3<prd>", text)
    text = re.sub(_LETTER + "[.]" + _LETTER + "[.]", "\\1<prd>\\2<prd>", text)
    text = re.sub(" " + _COMPANY + "[.] " + _OPENERS, " \\1<stop> \\2", text)
    text = re.sub(" " + _COMPANY + "[.]", " \\1<prd>", text)
    text = re.sub(" " + _LETTER + "[.]", " \\1<prd>", text)
    for before, after in ((".”", "”."), ('."', '".'), ('!"', '"!'), ('?"', '"?')):
        text = text.replace(before, after)
    for end in ".?!":
        text = text.replace(end, end + "<stop>")
    parts = [part.strip() for part in text.replace("<prd>", ".").split("<stop>")]
    return parts[:-1] if parts and not parts[-1] else parts


def _highlights(value: str) -> int:
    """`**...**` spans (across lines), then `*...*` spans in what is left; each counts if it holds
    something besides whitespace."""
    double = re.findall(r"\*\*.*?\*\*", value, re.DOTALL)
    rest = value
    for span in double:
        rest = rest.replace(span, "")
    single = re.findall(r"\*.*?\*", rest, re.DOTALL)
    return sum(bool(span[2:-2].strip()) for span in double) + sum(bool(span[1:-1].strip()) for span in single)


_SCRIPT_RANGES = {"cyrillic": "\u0400-\u04FF\u0500-\u052F\u2DE0-\u2DFF\uA640-\uA69F",
                  "greek": "\u0370-\u03FF\u1F00-\u1FFF"}


class KeywordsPresent(rules.KeywordsPresent):
    def check(self, value):
        found = split_words(value)
        hits = [keyword.lower() in found for keyword in self.args["keywords"]]
        return all(hits) if self.args["present"] else not any(hits)


class KeywordFrequency(rules.KeywordFrequency):
    def check(self, value):
        return compare(split_words(value).count(self.args["keyword"].lower()), self.relation, self.args["n"])


class LetterFrequency(rules.LetterFrequency):
    def check(self, value):
        return compare(value.lower().count(self.args["letter"].lower()), self.relation, self.args["n"])


class ScriptOnly(rules.ScriptOnly):
    def check(self, value):
        allowed = re.compile(rf"[{_SCRIPT_RANGES[self.args['script']]}0-9\s\W]*")
        return allowed.fullmatch(value) is not None


# nltk's RegexpTokenizer(r"\w+") with its default flags: compiled by `re` up to 3.10.2, by `regex`
# (its default VERSION0) from 3.10.3; only the engine changed, so the pattern and flags are the same
_NLTK_FLAGS = re.UNICODE | re.MULTILINE | re.DOTALL
_WORDS = {"3.9": re.compile(r"\w+", _NLTK_FLAGS), "3.10": regex.compile(r"\w+", _NLTK_FLAGS)}


class WordCount(rules.WordCount):
    r"""nltk's `RegexpTokenizer(r"\w+")` up to 3.10.2: runs of Python `re` word characters. From
    3.10.3 (`WordCountRegex`) the `regex` engine also takes combining marks, ZWJ/ZWNJ and circled
    letters into words and leaves `½ ① ²` out, so `❤️ ❤️ ❤️` is 0 words here and 3 there (its
    variation selectors)."""

    nltk = "3.9"

    def check(self, value):
        return compare(len(_WORDS[self.nltk].findall(value)), self.relation, self.args["n"])


class WordCountRegex(WordCount):
    """nltk 3.10.3 and later: the same pattern run by the `regex` engine (`paper_nltk = "3.10"`)."""

    nltk = "3.10"


class SentenceCount(rules.SentenceCount):
    def check(self, value):
        return compare(len(paper_sentences(value)), self.relation, self.args["n"])


class Postscript(rules.Postscript):
    def check(self, value):
        marker = r"p\.\s?p\.\s?s" if self.args["marker"] == "P.P.S." else r"p\.\s?s\."
        return re.search(marker, value.lower()) is not None


class PlaceholderCount(rules.PlaceholderCount):
    def check(self, value):
        return compare(len(re.findall(r"\[.*?\]", value)), self.relation, self.args["n"])


class SpacesBetween(rules.SpacesBetween):
    def check(self, value):
        if value != value.strip():
            return False
        if " " not in value:  # one word (or none): nothing to separate
            return True
        parts = value.split(" " * self.args["n"])
        return len(parts) >= 2 and all(part and " " not in part for part in parts)


class TitleFormat(rules.TitleFormat):
    def check(self, value):
        return any(title.lstrip("<").rstrip(">").strip() for title in re.findall(r"<<[^\n]+>>", value))


class HighlightedSections(rules.HighlightedSections):
    def check(self, value):
        return compare(_highlights(value), self.relation, self.args["n"])


class JsonFormat(rules.JsonFormat):
    def check(self, value):
        text = value.strip()
        for fence in ("```json", "```Json", "```JSON", "```"):
            text = text.removeprefix(fence)
        try:
            json.loads(text.removesuffix("```").strip())
        except (ValueError, RecursionError):
            return False
        return True


class PythonList(rules.PythonList):
    def check(self, value):
        text = value.strip()
        fence = next((f for f in ("```python", "```Python", "```PYTHON", "```") if text.startswith(f)), "")
        text = text[len(fence):].strip()
        if text.endswith("```"):
            text = text[:-3].strip()
        try:
            parsed = pyast.literal_eval(text)
        except Exception:  # noqa: BLE001 - the paper's evaluate counts any failure as not following
            return False
        return isinstance(parsed, list) and all(isinstance(item, str) for item in parsed)


class AllUpper(rules.AllUpper):
    def check(self, value):
        return value.isupper()


class AllLower(rules.AllLower):
    def check(self, value):
        return value.islower()


class CapitalWords(rules.CapitalWords):
    def check(self, value):
        return compare(sum(word.isupper() for word in split_words(value, lower=False)), self.relation, self.args["n"])


class EndPhrase(rules.EndPhrase):
    def check(self, value):
        return value.strip().lower().endswith(self.args["phrase"].strip().lower())


class Quotation(rules.Quotation):
    def check(self, value):
        mark = '"' if self.args["quotes"] == "double" else "'"
        return len(value) >= 2 and value.startswith(mark) and value.endswith(mark)


class CommaCount(rules.CommaCount):
    def check(self, value):
        return compare(value.count(","), self.relation, self.args["n"])


REGISTRY: Registry[type[rules.Rule]] = Registry("rule", (
    KeywordsPresent, KeywordFrequency, LetterFrequency, ScriptOnly, WordCount, SentenceCount, Postscript,
    PlaceholderCount, SpacesBetween, TitleFormat, HighlightedSections, JsonFormat, PythonList, AllUpper, AllLower,
    CapitalWords, EndPhrase, Quotation, CommaCount))
assert set(REGISTRY) == set(rules.REGISTRY), "every rule has its paper reading"
REGISTRIES = {"3.9": REGISTRY, "3.10": {**REGISTRY, "word_count": WordCountRegex}}  # by `paper_nltk`


def get(rule_id: str, *, nltk: str = DEFAULT_NLTK, **args: Any) -> rules.Rule:
    """The paper's checker for `rule_id`, its word count as the nltk `nltk` (a key of `NLTK`) counts."""
    REGISTRY[rule_id]  # an unknown id is named with the known ones
    return REGISTRIES[nltk][rule_id](**args)


def rule(mode: str, rule_id: str, args: dict[str, Any], nltk: str = DEFAULT_NLTK) -> rules.Rule:
    """The rule with our reading (`ifforge`) or the paper's (`paper`, under the nltk `nltk`)."""
    return get(rule_id, nltk=nltk, **args) if mode == "paper" else rules.get(rule_id, **args)
