"""string: its one text function, and `Template`, a text whose "$" placeholders its methods fill in from a
dictionary; its constants (`string.digits`, also imported by name) as their texts."""

from __future__ import annotations

import string

import libcst as cst

from ifforge.families.logicif.codeops.describe.errors import Undescribable
from ifforge.families.logicif.codeops.describe.formats import quoted

LIBRARY = "string"


def capwords(say, args, keywords) -> str:
    if keywords or len(args) not in (1, 2):
        raise Undescribable("this use of string.capwords")
    text = say.grouped(args[0])
    word = "with its first character a capital and the rest lowercase"
    if len(args) == 1:
        return (f"the words of {text} (the pieces between runs of whitespace; whitespace at the start and end "
                f"ignored), each {word}, joined with single spaces")
    sep = say.grouped(args[1])
    return f"the pieces of {text} split at every occurrence of {sep} (empty pieces kept), each {word}, joined " \
           f"again with {sep} between each two"


def template(say, args, keywords) -> str:
    if keywords or len(args) != 1:
        raise Undescribable("this use of string.Template")
    return f"a template of the text {say.grouped(args[0])}"


def _filled(safe: bool):
    """`Template(t).substitute(d)` / `.safe_substitute(d)`: the placeholders of t filled in from the dictionary d,
    read once from left to right; what is not a placeholder of a key of d stays (safe) or stops the steps."""
    def said(say, made, args, keywords) -> str:
        if keywords or len(args) != 1 or say.sort_of(args[0]) != "dict":
            raise Undescribable("this use of a string.Template's method (a dictionary given as its one input)")
        text = say.grouped(made.args[0].value) if isinstance(made, cst.Call) else f"the text of the template {say.grouped(made)}"
        mapping = say.grouped(args[0])
        for rule in ("template", "shown", "repr"):
            say.cite(rule)
        if safe:
            missing = "a placeholder whose name is not a key of it stays as it is, and so does any other \"$\""
        else:
            missing = ("a placeholder whose name is not a key of it, or any other \"$\", stops the steps with an error "
                       "(of the kind KeyError or ValueError)")
        return (f"{text} with its placeholders filled in from {mapping} (the steps stop with an error if {text} is "
                f"not text): each placeholder whose name is a key of {mapping} is replaced by the value {mapping} "
                f"holds under it written as text; {missing}")
    return said


WORDS = {"capwords": capwords, "Template": template}
CONSTANTS = {name: quoted(getattr(string, name)) for name in (  # each as its text, quoted
    "ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits", "octdigits", "punctuation",
    "whitespace", "printable")}
OBJECTS = {"Template": {"methods": {"substitute": _filled(False), "safe_substitute": _filled(True)}}}
RULES = {"template": "A template's placeholders are read once from left to right: \"$$\" is one \"$\" (no "
                     "placeholder); \"$\" followed by a name (an ASCII letter or \"_\", then every ASCII letter, digit "
                     "and \"_\" that follows, either case, compared with the keys as written) is a placeholder, and so "
                     "is \"${\", a name and \"}\"; any other \"$\" is none. A value written as text is a text as it is, "
                     "a number, true, false or None as Python writes it (2.0 gives \"2.0\", true \"True\") and a list "
                     "or dictionary as Python shows it (its texts in quotes)."}
