"""IFEval-FC's format rules: one small class per rule, a registry from id to class.

A rule lives in the description of one free-form string parameter of a tool schema; `check`
decides whether the value a model put in that parameter follows it. The rule classes and argument
ranges are the IFEval-FC paper's (19 classes; its benchmark uses 15, `default_on`). Where the
paper's checkers misread text, ours follow the rule as it is written, and say so:
- text is NFC-normalised first, so a decomposed "é" is one letter, not a letter and a mark;
  where a rule asks which letters are written (keywords, letter counts, capital words) it is read
  in compatibility form (NFKC): "ﬁrst" is "first", "ſeparate" "separate", "Ⅻ" "XII", "Ⓐ" "A";
- a word is a run of Unicode letters, digits or underscores (apostrophes, hyphens and dashes
  separate words), so "day’s" holds "day" as "day's" does, "STOP—NOW" is two words and
  "snake_case" one (as the paper's word count reads it);
- "only Cyrillic (Greek) letters" needs at least one letter, and every letter in that script
  (so "", "123" and "..." do not pass; Cyrillic digits-free text with a Latin "a" does not);
- "a valid JSON object" must be an object (`42`, `"text"` and `[1]` are JSON, not objects), and
  NaN / Infinity are not JSON;
- a sentence ends at a run of terminators (`?!` or `...` is one end, not two or three); `…` ends
  one as `...` does, and `。！？` end one with no space after them (CJK text has none);
- a highlight, placeholder or title must hold something and stay on one line (a bullet list
  "* a\\n* b" is not a highlight; "[]" is not a placeholder); a title ends at the first `>>` and
  may hold a single `<` or `>` ("<<Cats > Dogs>>");
- a code fence around a JSON object or Python list is a markdown fence: an opening one may run to
  the end, a closing one alone is stray text; "```py" is Python;
- "N spaces between words" allows no other whitespace ("a\tb" passes the paper's checker).
The paper's side is kept where it is right: a single word (or nothing) has no two words to space
out, and `''` is wrapped in quotes. `paper_rules.py` holds the paper's readings, case for case.
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
from collections.abc import Callable
from typing import Any, ClassVar, Literal

from ifforge.core import pyast
from ifforge.core.registry import Registry

Relation = Literal["exactly", "at most", "at least"]
RELATIONS: tuple[str, ...] = ("exactly", "at most", "at least")

# Keywords and end phrases are drawn from these (written for ifforge).
KEYWORDS = ("river", "lantern", "copper", "meadow", "harbor", "signal", "ladder", "orbit", "velvet", "anchor",
            "timber", "puzzle", "canyon", "marble", "violet", "summit", "pebble", "compass", "garden", "thunder",
            "silver", "window", "quiet", "rapid", "golden", "hollow", "frozen", "gentle", "narrow", "steady",
            "bright", "distant", "humble", "modern", "secret", "simple", "urgent", "weekly", "yellow", "zero")
END_PHRASES = ("Over and out.", "That is all for now.", "Nothing further.", "End of request.",
               "Thanks in advance.", "Let me know if anything is unclear.")


def normal(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def plain(text: str) -> str:
    """The text in compatibility form (NFKC), for rules about which letters are written: a
    ligature, a long s, a full-width, circled or styled letter, a Roman numeral is read as the
    plain letters it stands for, as a reader reads it."""
    return unicodedata.normalize("NFKC", text)


_WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    """Runs of letters, digits or underscores (any script), after NFC normalisation."""
    return _WORD.findall(normal(text))


_ABBREVIATIONS = {"mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "vs", "etc", "inc", "ltd", "e.g",
                  "i.e", "approx", "dept", "fig", "mt", "ave", "a.m", "p.m"}
_SENTENCE_END = re.compile(r"([.!?…。！？]+)([\"'”’)\]」』）]*)")
_WIDE_END = "。！？"  # CJK terminators: the next sentence follows with no space


def sentences(text: str) -> list[str]:
    """Sentences: spans ending at a run of terminators before whitespace or the end (or at a CJK
    terminator, which needs no space after it), except after a known abbreviation, an initial
    ("J. Smith") or inside a number ("3.5" never ends one); a trailing span without a terminator
    counts too. Spans with no letter or digit are not sentences."""
    text = normal(text)
    found, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        if not (match.group(1)[-1] in _WIDE_END or text[match.end():match.end() + 1].isspace()
                or match.end() == len(text)):
            continue
        before = text[start:match.start()]
        last = before.split()[-1].lower() if before.split() else ""
        numbered = last in ("no", "nos") and re.match(r"\.\s*\d", text[match.start():])  # "No. 5"
        if match.group(1) == "." and (last.rstrip(".") in _ABBREVIATIONS or numbered
                                      or (len(last) == 1 and last.isalpha())):
            continue
        found.append(text[start:match.end()].strip())
        start = match.end()
    found.append(text[start:].strip())
    return [s for s in found if words(s)]


def compare(count: int, relation: str, n: int) -> bool:
    return {"exactly": count == n, "at most": count <= n, "at least": count >= n}[relation]


def _times(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


class Rule:
    """One format rule with its arguments. Subclasses set `id`, `group`, and the ranges of a count
    or the `choices` of an argument drawn from a few values (both drawn and checked here)."""

    id: ClassVar[str]
    group: ClassVar[str]
    default_on: ClassVar[bool] = True  # in the paper's benchmark (the 15); the other 4 are off by default
    relations: ClassVar[tuple[str, ...]] = ()  # relations it takes; () for rules without a count
    drawn: ClassVar[tuple[str, ...] | None] = None  # relations a benchmark draws (default: all it takes)
    ranges: ClassVar[dict[str, tuple[int, int]]] = {}  # relation -> (low, high) of N, as the paper draws
    choices: ClassVar[dict[str, tuple[str, ...]]] = {}  # an argument that is one of a few values -> the values
    mentions: ClassVar[str] = r"$^"  # words a query would use to name this rule (it must not)

    def __init__(self, **args: Any):
        self.args = dict(args)
        self.validate()

    def validate(self) -> None:
        """Raise ValueError naming the argument that does not fit."""
        for name, values in self.choices.items():
            if self.args.get(name) not in values:
                allowed = " or ".join(f"'{value}'" for value in values)
                raise ValueError(f"rule {self.id!r}: {name} must be {allowed}, got {self.args.get(name)!r}")
        if self.relations:
            relation, n = self.args.get("relation"), self.args.get("n")
            if relation not in self.relations:
                raise ValueError(f"rule {self.id!r}: relation must be one of {list(self.relations)}, got {relation!r}")
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ValueError(f"rule {self.id!r}: n must be a whole number >= 0, got {n!r}")

    @classmethod
    def sample_args(cls, rng: random.Random, relation: str | None = None) -> dict[str, Any]:
        args = {name: rng.choice(values) for name, values in cls.choices.items()}
        if not cls.relations:
            return args
        relation = relation or rng.choice(cls.drawn or cls.relations)
        low, high = cls.ranges[relation]
        return {**args, "relation": relation, "n": rng.randint(low, high)}

    def describe(self) -> str:
        raise NotImplementedError

    def check(self, value: str) -> bool:
        raise NotImplementedError

    @classmethod
    def named_in(cls, text: str) -> bool:
        """Whether `text` (a user query) names this rule, so the query would give it away."""
        return re.search(cls.mentions, text, re.IGNORECASE) is not None

    @property
    def relation(self) -> str | None:
        return self.args.get("relation")


# ---- keywords -----------------------------------------------------------------------------------
class KeywordsPresent(Rule):
    id, group = "keywords_present", "keywords"
    mentions = r"\bkeywords?\b"

    @classmethod
    def sample_args(cls, rng, relation=None):
        return {"keywords": rng.sample(KEYWORDS, rng.randint(2, 5)), "present": rng.random() < 0.5}

    def validate(self):
        keywords = self.args.get("keywords")
        if not isinstance(keywords, list) or not keywords or not all(isinstance(k, str) and words(k) == [k]
                                                                     for k in keywords):
            raise ValueError(f"rule {self.id!r}: keywords must be a non-empty list of single words, got {keywords!r}")
        if not isinstance(self.args.get("present"), bool):
            raise ValueError(f"rule {self.id!r}: present must be true or false")

    def describe(self):
        listed = ", ".join(f"'{k}'" for k in self.args["keywords"])
        if self.args["present"]:
            return f"The value must contain each of the words {listed} at least once, in any order; case does not matter."
        return f"The value must not contain any of the words {listed}; case does not matter."

    def check(self, value):
        """Words are compared caseless in compatibility form: "ﬁrst" and "ſeparate" are the words."""
        seen = {w.casefold() for w in words(plain(value))}
        hits = [plain(k).casefold() in seen for k in self.args["keywords"]]
        return all(hits) if self.args["present"] else not any(hits)


class KeywordFrequency(Rule):
    id, group = "keyword_frequency", "keywords"
    relations = RELATIONS
    ranges = {"exactly": (1, 2), "at most": (1, 2), "at least": (1, 2)}
    mentions = r"\bkeywords?\b|\bthe word\b"

    @classmethod
    def sample_args(cls, rng, relation=None):
        return {"keyword": rng.choice(KEYWORDS), **super().sample_args(rng, relation)}

    def validate(self):
        super().validate()
        keyword = self.args.get("keyword")
        if not isinstance(keyword, str) or words(keyword) != [keyword]:
            raise ValueError(f"rule {self.id!r}: keyword must be one word, got {keyword!r}")

    def describe(self):
        return (f"The word '{self.args['keyword']}' must appear in the value {self.relation} "
                f"{_times(self.args['n'], 'time')}, as a whole word; case does not matter.")

    def check(self, value):
        target = plain(self.args["keyword"]).casefold()
        return compare(sum(w.casefold() == target for w in words(plain(value))), self.relation, self.args["n"])


class LetterFrequency(Rule):
    id, group = "letter_frequency", "keywords"
    relations = RELATIONS
    ranges = {"exactly": (1, 10), "at most": (1, 10), "at least": (1, 10)}
    mentions = r"\bletter\b"

    @classmethod
    def sample_args(cls, rng, relation=None):
        return {"letter": rng.choice("abcdefghijklmnopqrstuvwxyz"), **super().sample_args(rng, relation)}

    def validate(self):
        super().validate()
        letter = self.args.get("letter")
        if not isinstance(letter, str) or len(letter) != 1 or not letter.isalpha():
            raise ValueError(f"rule {self.id!r}: letter must be one letter, got {letter!r}")

    def describe(self):
        return (f"The letter '{self.args['letter']}' must appear in the value {self.relation} "
                f"{_times(self.args['n'], 'time')}, counting upper and lower case.")

    def check(self, value):
        """One letter at a time in compatibility form: "ﬁ" holds an f and an i, "é" no e."""
        letter = self.args["letter"].lower()
        return compare(sum(c.lower() == letter for c in plain(value)), self.relation, self.args["n"])


# ---- language -----------------------------------------------------------------------------------
class ScriptOnly(Rule):
    id, group = "cyrillic_greek", "language"
    mentions = r"\b(cyrillic|greek|russian|alphabet|script)\b"
    choices = {"script": ("cyrillic", "greek")}

    def describe(self):
        return (f"The value must be written in {self.args['script'].capitalize()} letters only: no letter of "
                "any other script may appear (digits, spaces and punctuation are allowed).")

    def check(self, value):
        letters = [c for c in normal(value) if unicodedata.category(c).startswith("L")]
        prefix = self.args["script"].upper()
        return bool(letters) and all(unicodedata.name(c, "").startswith(prefix) for c in letters)


# ---- length -------------------------------------------------------------------------------------
class WordCount(Rule):
    id, group = "word_count", "length"
    relations = RELATIONS
    ranges = {"at least": (20, 40), "at most": (2, 10), "exactly": (1, 5)}
    mentions = r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+words?\b|\bword count\b"

    def describe(self):
        return f"The value must have {self.relation} {_times(self.args['n'], 'word')}."

    def check(self, value):
        return compare(len(words(value)), self.relation, self.args["n"])


class SentenceCount(Rule):
    id, group = "sentence_count", "length"
    relations = RELATIONS
    drawn = ("at most", "at least")  # the paper leaves "exactly" out: sentence splitting is never exact
    ranges = {"at least": (1, 8), "at most": (1, 4), "exactly": (1, 5)}
    mentions = r"\bsentences?\b"

    def describe(self):
        return (f"The value must have {self.relation} {_times(self.args['n'], 'sentence')}, each ending with "
                "'.', '!' or '?'.")

    def check(self, value):
        return compare(len(sentences(value)), self.relation, self.args["n"])


# ---- detectable content -------------------------------------------------------------------------
class Postscript(Rule):
    id, group, default_on = "postscript", "content", False
    mentions = r"\bP\.\s?(P\.\s?)?S\b|\bpostscript\b"
    choices = {"marker": ("P.S.", "P.P.S.")}

    def describe(self):
        return f"The value must end with a postscript that starts with '{self.args['marker']}'."

    def check(self, value):
        text = normal(value)
        letters = r"\.\s?".join(re.escape(c) for c in self.args["marker"].rstrip(".").split(".")) + r"\."
        match = None
        for match in re.finditer(rf"(?:^|\s){letters}", text, re.IGNORECASE):
            pass
        return match is not None and bool(words(text[match.end():]))


class PlaceholderCount(Rule):
    id, group = "placeholder_count", "content"
    relations = RELATIONS
    ranges = {"at least": (1, 5), "at most": (1, 2), "exactly": (3, 7)}
    mentions = r"\bplaceholders?\b|\bsquare brackets?\b"

    def describe(self):
        return (f"The value must hold {self.relation} {_times(self.args['n'], 'placeholder')} in square brackets, "
                "such as [address].")

    def check(self, value):
        found = re.findall(r"\[([^\[\]\n]*)\]", normal(value))
        return compare(sum(bool(p.strip()) for p in found), self.relation, self.args["n"])


# ---- detectable format --------------------------------------------------------------------------
class SpacesBetween(Rule):
    id, group = "spaces_between", "format"
    mentions = r"\bspaces\b|\bspacing\b|\bwhitespace\b"

    @classmethod
    def sample_args(cls, rng, relation=None):
        return {"n": rng.randint(5, 10)}

    def validate(self):
        n = self.args.get("n")
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"rule {self.id!r}: n must be a whole number >= 1, got {n!r}")

    def describe(self):
        return (f"Between every two words of the value there must be exactly {self.args['n']} spaces, and no "
                "other whitespace anywhere (no leading or trailing spaces).")

    def check(self, value):
        """A single word (or nothing) passes: there are no two words to space out (as the paper)."""
        text = normal(value)
        if not text:
            return True
        parts = text.split(" " * self.args["n"])
        return all(part and not any(c.isspace() for c in part) for part in parts)


class TitleFormat(Rule):
    id, group = "title_format", "format"
    mentions = r"<<|>>|\btitle\b"

    def describe(self):
        return "The value must contain a title wrapped in double angular brackets, such as <<a quiet morning>>."

    def check(self, value):
        """A title runs from `<<` to the first `>>` on one line and holds a word; a single `<` or `>`
        inside is part of it ("<<Cats > Dogs>>"), a `<<` inside starts another."""
        return any(words(title) for title in re.findall(r"<<((?:(?!<<|>>).)+)>>", normal(value)))


class HighlightedSections(Rule):
    id, group = "highlighted_sections", "format"
    relations = RELATIONS
    ranges = {"at least": (1, 5), "at most": (1, 2), "exactly": (3, 7)}
    mentions = r"\bhighlight|\bmarkdown\b|\bbold\b|\basterisks?\b"

    def describe(self):
        return (f"The value must have {self.relation} {_times(self.args['n'], 'section')} highlighted with markdown, "
                "such as *highlighted section* or **highlighted section**.")

    def check(self, value):
        text = normal(value)
        double = re.findall(r"\*\*(?!\s)([^*\n]+?)(?<!\s)\*\*", text)
        single = re.findall(r"\*(?!\s)([^*\n]+?)(?<!\s)\*", re.sub(r"\*\*(?!\s)([^*\n]+?)(?<!\s)\*\*", " ", text))
        return compare(len(double) + len(single), self.relation, self.args["n"])


_FENCED = re.compile(r"```(\w*)\n?(.*?)\n?```", re.DOTALL)
_OPENED = re.compile(r"```(\w*)[ \t]*\n(.*)", re.DOTALL)  # in markdown an unclosed fence runs to the end


def _unfenced(value: str, languages: tuple[str, ...]) -> str:
    """The value without a surrounding markdown code fence (the paper accepts fenced values): a
    closed fence, or an opening one that runs to the end as markdown reads it; a closing fence
    alone opens nothing and stays, as does a fence for another language."""
    text = value.strip()
    match = _FENCED.fullmatch(text) or _OPENED.fullmatch(text)
    if match and match.group(1).lower() in ("",) + languages:
        return match.group(2).strip()
    return text


class JsonFormat(Rule):
    id, group = "json_format", "format"
    mentions = r"\bjson\b"

    def describe(self):
        return "The value must be a valid JSON object: syntactically correct and parseable."

    def check(self, value):
        def refuse(constant: str):
            raise ValueError(f"{constant} is not JSON")

        try:
            parsed = json.loads(_unfenced(value, ("json",)), parse_constant=refuse)
        except (ValueError, RecursionError):
            return False
        return isinstance(parsed, dict)


class PythonList(Rule):
    id, group = "python_list", "format"
    mentions = r"\bpython\b|\blist of strings\b"

    def describe(self):
        return "The value must be a valid Python list of strings, readable by Python's ast.literal_eval."

    def check(self, value):
        try:
            parsed = pyast.literal_eval(_unfenced(value, ("python", "py", "python3")))
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return False
        return isinstance(parsed, list) and all(isinstance(item, str) for item in parsed)


# ---- case ---------------------------------------------------------------------------------------
def _all_in_case(value: str, case) -> bool:
    """At least one letter that has a case, and every such letter already in `case` (str.upper or
    str.lower), read in compatibility form."""
    cased = [c for c in plain(value) if c.lower() != c.upper()]
    return bool(cased) and all(c == case(c) for c in cased)


class _InOneCase(Rule):
    """Every cased letter in one case: a rule of this shape says which (`case`) and how (`told`)."""

    group, default_on = "case", False
    case: Callable[[str], str]
    told = ""

    def describe(self):
        return self.told

    def check(self, value):
        return _all_in_case(value, type(self).case)


class AllUpper(_InOneCase):
    id, case, mentions = "all_upper", str.upper, r"\b(upper ?case|capital|caps)\b"
    told = "The value must be in uppercase: every letter a capital, with at least one letter."


class AllLower(_InOneCase):
    id, case, mentions = "all_lower", str.lower, r"\b(lower ?case|small letters)\b"
    told = "The value must be in lowercase: no capital letters, with at least one letter."


class CapitalWords(Rule):
    id, group = "capital_words", "case"
    relations = RELATIONS
    ranges = {"at least": (1, 5), "at most": (1, 2), "exactly": (3, 7)}
    mentions = r"\b(upper ?case|capital|caps)\b"

    def describe(self):
        return (f"The value must have {self.relation} {_times(self.args['n'], 'word')} written entirely in capital "
                "letters.")

    def check(self, value):
        """In compatibility form: "Ⅻ" is XII, "Ⓐ" A and "ℍ" H, each a word in capitals."""
        count = sum(any(c.isalpha() for c in w) and w == w.upper() and w != w.lower() for w in words(plain(value)))
        return compare(count, self.relation, self.args["n"])


# ---- start and end ------------------------------------------------------------------------------
class EndPhrase(Rule):
    id, group, default_on = "end_phrase", "start_end", False
    mentions = r"\bend (it )?with\b|\bfinish with\b"

    @classmethod
    def sample_args(cls, rng, relation=None):
        return {"phrase": rng.choice(END_PHRASES)}

    def validate(self):
        if not isinstance(self.args.get("phrase"), str) or not self.args["phrase"].strip():
            raise ValueError(f"rule {self.id!r}: phrase must be a non-empty string")

    def describe(self):
        return f"The value must end with the exact phrase \"{self.args['phrase']}\"; nothing but whitespace may follow it."

    def check(self, value):
        text, phrase = normal(value).rstrip().casefold(), normal(self.args["phrase"]).strip().casefold()
        before = text[:-len(phrase)]
        return text.endswith(phrase) and not (before[-1:].isalnum() and phrase[:1].isalnum())  # a whole phrase


class Quotation(Rule):
    id, group = "quotation", "start_end"
    mentions = r"\bquot(e|es|ation|ed)\b"
    PAIRS: ClassVar[dict[str, tuple[tuple[str, str], ...]]] = {"double": (('"', '"'), ("“", "”")),
                                                                "single": (("'", "'"), ("‘", "’"))}
    choices = {"quotes": ("single", "double")}  # in the order drawn from (not PAIRS'): the same draws

    def describe(self):
        return (f"The whole value must be wrapped in {self.args['quotes']} quotation marks, with nothing outside "
                "them.")

    def check(self, value):
        """`''` is wrapped in quotes too (as the paper's tests say); curly quotes count."""
        return any(len(value) >= 2 and value.startswith(a) and value.endswith(b)
                   for a, b in self.PAIRS[self.args["quotes"]])


# ---- punctuation --------------------------------------------------------------------------------
class CommaCount(Rule):
    id, group = "comma_count", "punctuation"
    relations = RELATIONS
    ranges = {"at least": (3, 7), "at most": (1, 3), "exactly": (1, 7)}
    mentions = r"\bcommas?\b"

    def describe(self):
        return f"The value must contain {self.relation} {_times(self.args['n'], 'comma')}."

    def check(self, value):
        return compare(value.count(","), self.relation, self.args["n"])


REGISTRY: Registry[type[Rule]] = Registry("rule", (
    ScriptOnly, HighlightedSections, JsonFormat, KeywordFrequency, KeywordsPresent, LetterFrequency, CapitalWords,
    CommaCount, PlaceholderCount, PythonList, Quotation, SentenceCount, SpacesBetween, TitleFormat, WordCount,
    AllUpper, AllLower, EndPhrase, Postscript))
DEFAULT_RULES: tuple[str, ...] = tuple(rule_id for rule_id, cls in REGISTRY.items() if cls.default_on)


def get(rule_id: str, **args: Any) -> Rule:
    return REGISTRY[rule_id](**args)

