"""json: a value written as JSON text (`json.dumps`), with the writing rules said once as a note."""

from __future__ import annotations

import libcst as cst

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "json"


def _flag(node: cst.BaseExpression | None) -> bool:
    if node is None or isinstance(node, cst.Name) and node.value in ("True", "False"):
        return node is not None and node.value == "True"
    raise Undescribable("json.dumps with sort_keys that is not written true or false")


def _indent(say, node: cst.BaseExpression | None) -> str | None:
    """How far in each level goes: a whole number written in the code, or a name surely holding a whole
    number (which may be 0 or less: then no spaces, only the line breaks)."""
    if node is None or isinstance(node, cst.Name) and node.value == "None":
        return None
    if isinstance(node, cst.Integer):  # a negative indent is not written as a minus sign: not an Integer
        return f"{int(node.value, 0)} spaces"
    if isinstance(node, cst.Name) and say.certain_kind(node) == "int":
        return f"{node.value} spaces (no spaces at all, only the line breaks, if {node.value} is 0 or less)"
    raise Undescribable("json.dumps with an indent that is not surely a whole number")


def dumps(say, args, keywords) -> str:
    if len(args) != 1 or set(keywords) - {"sort_keys", "indent"}:
        raise Undescribable("json.dumps with arguments other than the value, sort_keys and indent")
    ordered, indent = _flag(keywords.get("sort_keys")), _indent(say, keywords.get("indent"))
    said = f"the JSON text of {say.grouped(args[0])}{say.cite('json')}"
    if ordered:
        said += (" with the keys of every dictionary in it written in sorted order (sorted as the keys are, before "
                 "they are written as text)")
    if indent is not None:
        said += f", laid out on lines with an indent of {indent}{say.cite('json_lines')}"
    return said


WORDS = {"dumps": dumps}
RULES = {
    "json": ('The JSON text of a value is written thus: None as null; true and false as true and false; a whole '
             'number in its digits; a decimal number as Python shows it (NaN, infinity and minus infinity as NaN, '
             'Infinity and -Infinity); a text between double quotes, with each " and \\ preceded by a backslash, '
             'a line break, tab, carriage return, backspace and form feed as \\n, \\t, \\r, \\b and \\f, and every '
             'other character outside the printable ASCII ones (space to "~") as \\u and its four-digit code in '
             'lowercase hexadecimal (two such codes, its UTF-16 pair, for a character beyond U+FFFF); a list or '
             'tuple as an opening square bracket, its items\' JSON texts separated by ", ", then a closing square bracket; a dictionary as an opening curly brace, for each key '
             'in order the key as a JSON text in double quotes (a text key as above, a number, true, false or '
             'None key as its own JSON text put in quotes) then ": " then its value\'s JSON text, the pairs '
             'separated by ", ", then a closing curly brace. Any other kind of value stops the steps with an error.'),
    "json_lines": ('Laid out on lines with an indent of n spaces: a list or dictionary that is not empty opens with '
                   'its bracket at the end of the line, then puts each item (or key, ": " and value) on a line of '
                   'its own, n spaces further in than the line that opened it, with "," (and no space) ending '
                   'every such line but the last, then closes with its bracket on a line of its own as far in as '
                   'the line that opened it; an empty one stays just its two brackets, side by side.'),
}
