"""Text formatting in words: `%` (printf style), `str.format` and f-string format specs.

A literal format is split into its plain text and its fields; each field says how its value is
written (as text, as a whole number, with n decimals, padded to a width with spaces or zeros, in
hexadecimal, with thousands separators). The result reads "the text made of A, followed by B, ...".
A field the words would not pin down exactly (`%r`, `%g`, nested or computed specs, attribute
fields) raises `Undescribable`.
"""

from __future__ import annotations

import json
import re
import string
import unicodedata

import libcst as cst

from ifforge.families.logicif.codeops.describe import built_patterns
from ifforge.families.logicif.codeops.describe.errors import Undescribable

_PRINTF = re.compile(r"%(?:\((?P<key>[^)]*)\))?(?P<flags>[-+ #0]*)(?P<width>\*|\d+)?(?:\.(?P<precision>\*|\d+))?"
                     r"[hlL]?(?P<kind>.)", re.S)
_SPEC = re.compile(r"(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?(?P<alt>#)?(?P<zero>0)?(?P<width>\d+)?"
                   r"(?P<group>[,_])?(?:\.(?P<precision>\d+))?(?P<kind>[bcdeEfFgGnosxX%])?\Z", re.S)


def field_words(value: str, kind: str, precision: str | None = None, width: str | None = None,
                align: str = ">", fill: str = " ", sign: str = "-", alt: bool = False, group: str | None = None) -> str:
    """How one value is written into a formatted text."""
    if kind in ("s", ""):
        words = f"{value} written as text"
        if precision is not None:
            words += f", cut to its first {precision} characters"
    elif kind in ("d", "i", "u"):
        words = f"{value} written as a whole number (a decimal number is cut toward zero first)"
    elif kind in ("f", "F"):
        words = (f"{value} written as a decimal number with exactly {precision or 6} digits after the point "
                 f"(rounded to the nearest; a value exactly halfway goes by how the computer stores it)")
    elif kind in ("x", "X", "o", "b"):
        base = {"x": "hexadecimal with small letters", "X": "hexadecimal with capital letters", "o": "octal",
                "b": "binary"}[kind]
        prefix = {"x": "0x", "X": "0X", "o": "0o", "b": "0b"}[kind]
        words = f"{value} written in {base}" + (f", with {prefix} in front" if alt else "")
        alt = False
    elif kind == "c":
        words = f"the character with code {value}"
    elif kind == "%":
        words = f"{value} times 100 written with exactly {precision or 6} digits after the point, then \"%\""
    else:
        raise Undescribable(f"a text format field of the kind {kind!r}")
    if alt:
        raise Undescribable("the # option in a text format field")
    if sign == "+":
        words += ", with a + sign before a value that is not negative"
    elif sign == " ":
        words += ", with a space before a value that is not negative"
    if group:
        words += f", with {'commas' if group == ',' else 'underscores'} between groups of three digits"
    if width is not None and int(width) > 0:
        padding = "zeros" if fill == "0" else "spaces" if fill == " " else f"copies of \"{fill}\""
        where = {"<": "on the right", ">": "on the left", "^": "on both sides (one more on the right when uneven)",
                 "=": "after the sign"}[align]
        words += f", padded {where} with {padding} to at least {width} characters"
    return words


def quoted(text: str) -> str:
    """A text as data, in double quotes, JSON's escapes and all; a character that shows nothing (a
    control, a format character, a space other than " ", a variation selector) or a combining mark
    with no letter before it to sit on is written as its escape ("\\u200b"), so every character can be seen."""
    shown = json.dumps(text, ensure_ascii=False)
    return "".join(_escape(ch) if not ch.isprintable() or unicodedata.name(ch, "").startswith("VARIATION SELECTOR")
                   or unicodedata.category(ch).startswith("M") and not (i and shown[i - 1].isalnum()) else ch
                   for i, ch in enumerate(shown))


def _escape(char: str) -> str:
    return f"\\u{ord(char):04x}" if ord(char) < 0x10000 else f"\\U{ord(char):08x}"


def joined(parts: list[str]) -> str:
    if not parts:
        return "\"\" (empty text)"
    return parts[0] if len(parts) == 1 else "the text made of " + ", followed by ".join(parts)


def printf(speaker, template: str, values: cst.BaseExpression) -> str:
    """`template % values`, in words."""
    fields = list(_PRINTF.finditer(template))
    real = [m for m in fields if m["kind"] != "%"]
    if any(m["key"] is not None for m in real):
        if not isinstance(values, cst.Dict):
            raise Undescribable("printf-style formatting with named fields and a computed dictionary")
        raise Undescribable("printf-style formatting with named fields")
    if isinstance(values, cst.Tuple):
        items = [e.value for e in values.elements]
    elif len(real) == 1 and speaker.sort_of(values) != "tuple":  # a tuple's items would fill the fields
        items = [values]
    else:
        raise Undescribable("printf-style formatting with a computed tuple of values")
    if len(items) != len(real):
        raise Undescribable("printf-style formatting whose values do not match its fields")
    speaker.rule("str")
    parts, position, values_left = [], 0, iter(items)
    for match in fields:
        if match.start() > position:
            parts.append(quoted(template[position:match.start()]))
        position = match.end()
        if match["kind"] == "%":
            parts.append('"%"')
            continue
        if "*" in (match["width"] or "") + (match["precision"] or ""):
            raise Undescribable("printf-style formatting with a computed width")
        flags, kind, value = match["flags"], match["kind"], next(values_left)
        if match["precision"] is not None and kind in "diuxXoc":  # `%.3d` pads with zeros: no words here
            raise Undescribable("printf-style formatting with a precision on a whole number")
        if kind == "c" and speaker.sort_of(value) not in ("int", "str"):  # a code, or a one-character text
            raise Undescribable("printf-style %c on a value that may be a code or a character")
        align = "<" if "-" in flags else "=" if "0" in flags and kind not in "sc" else ">"
        fill = "0" if align == "=" else " "
        sign = "-" if kind in "sc" else "+" if "+" in flags else " " if " " in flags else "-"  # no sign on text
        if kind == "c" and speaker.sort_of(value) == "str":
            kind = "s"  # the character itself
        container = speaker.container_text(value) if kind == "s" else None
        parts.append(field_words(speaker.grouped(value), kind, match["precision"], match["width"], align, fill,
                                 sign, "#" in flags) if container is None or match["precision"] or match["width"]
                     else container)
    if position < len(template):
        parts.append(quoted(template[position:]))
    return joined(parts)


def spec_words(value: str, spec: str, conversion: str | None, node: cst.BaseExpression, speaker) -> str:
    """One `{...:spec}` field: `value` (the words for `node`) written as the spec says. `!r` is said only
    where its words are exact (`Speaker.shown`)."""
    shown = speaker.shown(node) if conversion == "r" and not spec else None
    if shown:
        return shown
    if conversion not in (None, "s"):
        raise Undescribable(f"a text format field with the !{conversion} conversion")
    container = speaker.container_text(node) if not spec else None
    if container is not None:  # `{xs}`: a list is written as Python displays it
        return container
    found = _SPEC.match(spec)
    if found is None:
        raise Undescribable(f"the text format spec {spec!r}")
    align = found["align"] or (">" if found["kind"] not in (None, "s", "c") else "<")
    fill = found["fill"] or " "
    if found["zero"] and not found["align"]:
        align, fill = "=", "0"
    kind = found["kind"] or ""
    if found["precision"] and not found["kind"]:
        raise Undescribable("a text format spec with a precision and no type")
    if found["width"] and not found["align"] and not found["kind"] and not found["zero"]:
        raise Undescribable("a text format width with no alignment and no type (it aligns by the value's type)")
    return field_words(value, kind, found["precision"], found["width"], align, fill, found["sign"] or "-",
                       bool(found["alt"]), found["group"])


def fixed_template(speaker, node: cst.BaseExpression) -> str | None:
    """The text of a template written in the code or built from written texts (module constants
    traced), the same in every case; None for any other."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        return node.evaluated_value if isinstance(node.evaluated_value, str) else None
    if speaker.__dict__.get("facts") is None:
        return None
    return built_patterns.fixed_text(node, speaker.constants)


def format_call(speaker, owner: cst.BaseExpression, args: list, keywords: dict) -> str:
    """`"...".format(...)` on a literal template, or on one built from written texts when the module
    loads (`FMT = "{0}" + SEP + "{1}"`), in words."""
    template = fixed_template(speaker, owner)
    if template is None:
        raise Undescribable("str.format on a template that is not written in the code")
    speaker.rule("str")
    parts, automatic = [], 0
    try:
        pieces = list(string.Formatter().parse(template))
    except ValueError:
        raise Undescribable("a text format that does not parse") from None
    for text, field, spec, conversion in pieces:
        if text:
            parts.append(quoted(text))
        if field is None:
            continue
        if "{" in (spec or ""):
            raise Undescribable("a text format with a computed spec")
        if field == "":
            field = str(automatic)
            automatic += 1
        if field.isdigit() and int(field) < len(args):
            value = args[int(field)]
        elif field in keywords:
            value = keywords[field]
        else:
            raise Undescribable("a text format field that reads an attribute or an item")
        parts.append(spec_words(speaker.grouped(value), spec or "", conversion, value, speaker))
    return joined(parts)
