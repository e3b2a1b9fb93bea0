"""Where LIFBench's long inputs come from: text that ships with Python, and text made from a seed.

Prose paragraphs are read from the interpreter's own documentation (`pydoc_data.topics`, the
help topics) and the docstrings of a fixed list of standard-library modules; nothing is
downloaded. The corpus depends on the Python version, so its hash goes into the run's inputs.
Short instruction texts (List entries), UUIDs, dates, titles and key sentences are made from the
seeded random generator, so they are new for every seed and never collide.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
import random
import re
import warnings

MODULES = ("argparse", "bisect", "calendar", "collections", "configparser", "csv", "decimal", "difflib",
           "email.message", "fractions", "ftplib", "functools", "heapq", "http.client", "imaplib", "inspect",
           "itertools", "json", "logging", "pathlib", "pdb", "pydoc", "random", "shutil", "smtplib",
           "socketserver", "sqlite3", "statistics", "string", "subprocess", "tarfile", "textwrap", "threading",
           "typing", "unittest", "urllib.parse", "xml.dom.minidom", "zipfile")
MARKS = "#@!|*"  # the tag marks of OneDoc never occur in the prose around them


def _prose(text: str, shortest: int) -> list[str]:
    found = []
    for block in re.split(r"\n\s*\n", text):
        paragraph = " ".join(block.split())
        if (len(paragraph) > shortest and paragraph[0].isupper() and paragraph.endswith(".")
                and not re.search(r"[{}=<>\[\]]|::|>>>", paragraph)):
            found.append(paragraph.translate({ord(c): None for c in MARKS}))
    return found


@functools.lru_cache(maxsize=1)
def paragraphs() -> tuple[tuple[str, str], ...]:
    """(source name, paragraph) pairs, distinct, in a fixed order."""
    # lazy on purpose: a 700 kB module, only when prose is drawn
    from pydoc_data.topics import topics

    seen: dict[str, str] = {}
    for name in sorted(topics):
        for paragraph in _prose(topics[name], 200):
            seen.setdefault(paragraph, f"help topic {name}")
    for module_name in MODULES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        members = [module] + [value for key, value in sorted(vars(module).items())
                              if not key.startswith("_") and (inspect.isclass(value) or inspect.isfunction(value))
                              and getattr(value, "__module__", "") == module.__name__]
        members += [value for member in members if inspect.isclass(member)
                    for key, value in sorted(vars(member).items()) if inspect.isfunction(value) and not key.startswith("_")]
        for member in members:
            with warnings.catch_warnings():  # typing's deprecated submodules warn when read
                warnings.simplefilter("ignore", DeprecationWarning)
                doc = inspect.getdoc(member) or ""
            for paragraph in _prose(doc, 120):
                seen.setdefault(paragraph, f"{module_name} docs")
    return tuple((source, text) for text, source in seen.items())


def corpus_hash() -> str:
    return hashlib.sha256("\n".join(text for _, text in paragraphs()).encode()).hexdigest()[:16]


def uuid(rng: random.Random) -> str:
    digits = f"{rng.getrandbits(128):032x}"
    return f"{digits[:8]}-{digits[8:12]}-4{digits[13:16]}-{digits[16:20]}-{digits[20:]}"


VERBS = ("Summarize", "Translate", "Proofread", "Outline", "Rewrite", "Shorten", "Expand", "Classify", "Review",
         "Annotate", "Paraphrase", "Critique", "Index", "Tabulate", "Sort", "Compare", "Explain", "Quote",
         "Simplify", "Format", "Check", "Title", "Archive", "Tag")
OBJECTS = ("the meeting notes", "the second chapter", "the product review", "the weather report", "the recipe",
           "the cover letter", "the lab results", "the travel plan", "the press release", "the user manual",
           "the budget table", "the poem", "the interview", "the contract draft", "the bug report",
           "the lecture slides", "the shopping list", "the news article", "the survey answers", "the error log",
           "the museum guide", "the tax form", "the song lyrics", "the job posting", "the course syllabus")
MANNERS = ("in two sentences", "for a child", "in plain English", "as a bullet list", "within fifty words",
           "in formal tone", "without adjectives", "in the past tense", "for a newspaper", "as a table",
           "in one line", "with numbered steps")


def instruction_texts(rng: random.Random, count: int) -> list[str]:
    """`count` distinct short instructions; none is a substring of another (each ends in its manner and a period)."""
    combos = [(v, o, m) for v in VERBS for o in OBJECTS for m in MANNERS]
    if count > len(combos):
        raise ValueError(f"at most {len(combos)} short instructions, {count} asked")
    return [f"{v} {o} {m}." for v, o, m in rng.sample(combos, count)]


SUBJECTS = ("The harbour office", "Our survey team", "The city archive", "A night-shift nurse", "The orchard owner",
            "The chess club", "A freight pilot", "The school choir", "The museum curator", "A beekeeper",
            "The river ferry", "The village bakery", "A lighthouse keeper", "The relay team", "The weather station",
            "A glass blower", "The film society", "The tram depot", "A mountain guide", "The print shop")
ACTIONS = ("recorded", "counted", "repaired", "delivered", "photographed", "catalogued", "measured", "painted",
           "returned", "planted", "rescued", "tested", "sold", "restored", "mapped", "weighed")
THINGS = ("lanterns", "bicycles", "letters", "violins", "maps", "barrels", "kites", "clocks", "anchors", "quilts",
          "telescopes", "beehives", "umbrellas", "tiles", "drums", "ledgers")
WHENS = ("in March", "before dawn", "during the storm", "last winter", "on Sunday", "after the flood",
         "in a single week", "over the summer", "at the fair", "before the census")


def key_sentences(rng: random.Random, count: int) -> list[str]:
    """`count` distinct made-up statements with a number in each (so none repeats the prose around it)."""
    made: set[str] = set()
    out = []
    while len(out) < count:
        sentence = (f"{rng.choice(SUBJECTS)} {rng.choice(ACTIONS)} {rng.randint(3, 997)} {rng.choice(THINGS)} "
                    f"{rng.choice(WHENS)}.")
        if sentence not in made:
            made.add(sentence)
            out.append(sentence)
    return out


TITLE_WORDS = ("Notes", "Report", "Memo", "Digest", "Brief", "Summary", "Bulletin", "Review", "Record", "Letter")
TITLE_TOPICS = ("Harbour", "Budget", "Orchard", "Railway", "Library", "Festival", "Clinic", "Council", "Market",
                "Observatory", "Garden", "Ferry", "Archive", "Bakery", "Theatre")
SOURCES = ("Daily Ledger", "North Gazette", "City Wire", "Valley Times", "Coastal Post", "Morning Courier",
           "Union Herald", "Evening Star", "River Journal", "Hill Chronicle")


def title(rng: random.Random) -> str:
    return f"{rng.choice(TITLE_TOPICS)} {rng.choice(TITLE_WORDS)} {rng.randint(1, 99)}"


def date(rng: random.Random) -> str:
    return f"{rng.randint(1995, 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
