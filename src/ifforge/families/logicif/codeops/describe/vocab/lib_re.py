"""re: the module's functions, each glossing its pattern from Python's own parser (regex.py)."""

from __future__ import annotations

import libcst as cst

from ifforge.families.logicif.codeops.describe import regex

LIBRARY = "re"


def _said(name: str):
    def said(say, args, keywords) -> str:
        call = cst.Call(func=cst.Attribute(cst.Name(LIBRARY), cst.Name(name)),
                        args=[*(cst.Arg(a) for a in args), *(cst.Arg(v, keyword=cst.Name(k)) for k, v in keywords.items())])
        return regex.module_call(say, name, call)
    return said


WORDS = {name: _said(name) for name in ("compile", "escape", "search", "match", "fullmatch", "findall", "finditer", "split", "sub", "subn")}

PLAIN = {"sub", "subn", "split", "findall", "escape"}  # results plain when the inputs are (plain.py)
RULES = {
    "regex_text": "A text that writes a regular expression is read as Python's re module reads it (a backslash starts "
                  "an escape, brackets make groups and lists of characters, and so on); a text that is not a valid "
                  "pattern stops the steps with an error.",
    "regex_template": "A replacement template is read as Python's re module reads one: a backslash followed by a "
                      "group's number of one or two digits (or by g and the group's number or name in angle brackets) "
                      "stands for the text that group of the match covers (empty if it took no part); a backslash "
                      "followed by 0 and up to two more digits from 0 to 7, or by three digits from 0 to 7, stands for "
                      "the character with that octal code; a backslash followed by n, t, r, f, v, a or b stands for that "
                      "control character, and two backslashes for one; a backslash followed by another letter, by the "
                      "number of a group the pattern does not have, or by nothing stops the steps with an error; a "
                      "backslash followed by any other character stays, with that character; every other character "
                      "stands for itself.",
}
