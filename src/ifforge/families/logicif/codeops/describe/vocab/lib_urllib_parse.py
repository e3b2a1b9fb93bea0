"""urllib.parse: percent-encoding and decoding, said byte by byte (paths.py), and a query text read into its
names and values (`parse_qs`, `parse_qsl`)."""

from __future__ import annotations

import libcst as cst

from ifforge.families.logicif.codeops.describe import paths
from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "urllib.parse"


def _said(name: str):
    def said(say, args, keywords) -> str:
        return paths.words(f"{LIBRARY}.{name}", [say.grouped(a) for a in args], keywords)
    return said


_QUERY_OPTIONS = ("keep_blank_values", "strict_parsing")


def _query(pairs: bool):
    """`parse_qs(q)` / `parse_qsl(q)`, with `keep_blank_values` left false, `strict_parsing` any
    value and `separator` a written text; q surely text, or an input of `f` never set again (a JSON value: one
    that is not text gives nothing when it counts as false, and otherwise fails, as it has no `decode`)."""
    def said(say, args, keywords) -> str:
        given = dict(zip(_QUERY_OPTIONS, args[1:]))
        if not args or len(args) > 3 or set(keywords) - {*_QUERY_OPTIONS, "separator"} or set(given) & set(keywords):
            raise Undescribable(f"this use of {LIBRARY}.{'parse_qsl' if pairs else 'parse_qs'}")
        given.update(keywords)
        separator = given.get("separator", cst.SimpleString('"&"'))
        keep = given.get("keep_blank_values", cst.Name("False"))
        text = say.sort_of(args[0]) == "str"
        json = isinstance(args[0], cst.Name) and say.facts is not None and args[0].value in say.inputs
        if not (text or json) or not (isinstance(separator, cst.SimpleString) and separator.evaluated_value
                                                 and isinstance(separator.evaluated_value, str)) or \
                not (isinstance(keep, cst.Name) and keep.value == "False"):
            raise Undescribable(f"this use of {LIBRARY}.{'parse_qsl' if pairs else 'parse_qs'} (the query text or "
                                "an input, the separator a written text, keep_blank_values false)")
        query, cut = say.grouped(args[0]), say.value(separator)
        strict = given.get("strict_parsing", cst.Name("False"))
        if isinstance(strict, cst.Name) and strict.value == "False":
            bad = "is skipped"
        elif isinstance(strict, cst.Name) and strict.value == "True":
            bad = "stops the steps with an error (of the kind ValueError)"
        else:
            bad = f"stops the steps with an error (of the kind ValueError) if {say.grouped(strict)} counts as true, " \
                  f"and is otherwise skipped"
        decoded = paths.words(f"{LIBRARY}.unquote", ["the part"], {})
        result = ("a new list of the (name, value) pairs, each a tuple, in the order met" if pairs else
                  "a new dictionary mapping each name, in the order first met, to the list of its values in the "
                  "order met")
        other = "" if text else (f" (when {query} is not text: {'an empty list' if pairs else 'an empty dictionary'} "
                                 f"if {query} counts as false, and otherwise the steps stop with an error of the kind "
                                 f"AttributeError)")
        return (f"{result}, read from the query {query}{other}: cut {query} at every occurrence of {cut} (no pieces at all "
                f"when {query} is empty) and take each piece in order: an empty piece, or a piece with no \"=\", "
                f"{bad}; any other piece is split at its first \"=\" into a name and a value, and skipped when the "
                f"value is empty; in both parts each \"+\" becomes a space, and then each part is replaced by "
                f"{decoded}")
    return said


WORDS = {name: _said(name) for name in paths.MODULES[LIBRARY]} | {"parse_qs": _query(False), "parse_qsl": _query(True)}
PLAIN = set(WORDS)  # results plain when the inputs are (plain.py)
