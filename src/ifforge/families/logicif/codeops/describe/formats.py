"""Text formatting in words: `%` (printf style), `str.format` and f-string format specs.

A literal format is split into its plain text and its fields; each field says how its value is
written (as text, as a whole number, with n decimals, padded to a width with spaces or zeros, in
hexadecimal, with thousands separators). The result reads "the text made of A, followed by B, ...".
A field the words would not pin down exactly (nested or computed specs, attribute fields) raises
`Undescribable`. A printf template known only at run time (an input, a helper's parameter, a text the
steps build) is said as "the text that printf-style formatting makes from the template t and the value
v", with one rule (`PRINTF_RULE`) on how Python reads any template: every code, flag, width and precision.
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


_FIELD = re.compile(r"(\w*)((?:\[[^\]]+\])+)\Z")  # a field that reads items: `0[1]`, `[k]`, `x[0][1]`


def field_words(value: str, kind: str, precision: str | None = None, width: str | None = None,
                align: str = ">", fill: str = " ", sign: str = "-", alt: bool = False, group: str | None = None,
                shown: bool = False) -> str:
    """How one value is written into a formatted text (`shown`: `value` already says the text it is
    written as, a `!r` field's display)."""
    if kind in ("s", ""):
        words = value if shown else f"{value} written as text"
        if precision is not None:
            words += f", cut to its first {precision} characters"
    elif kind in ("d", "i", "u"):
        words = f"{value} written as a whole number (a decimal number is cut toward zero first)"
        if precision is not None:  # printf only: `%.3d` gives at least that many digits
            words += f", with zeros put before its digits to make at least {precision} of them"
    elif kind in ("f", "F"):
        words = (f"{value} written as a decimal number with exactly {precision or 6} digits after the point "
                 f"(rounded to the nearest; a value exactly halfway goes by how the computer stores it)")
    elif kind in ("x", "X", "o", "b"):
        base = {"x": "hexadecimal with small letters", "X": "hexadecimal with capital letters", "o": "octal",
                "b": "binary"}[kind]
        prefix = {"x": "0x", "X": "0X", "o": "0o", "b": "0b"}[kind]
        words = f"{value} written in {base}" + (f", with {prefix} in front" if alt else "")
        alt = False
    elif kind in ("e", "E"):
        digits = 6 if precision is None else int(precision)
        point = f", a point and {digits} more digits" if digits or alt else ""
        words = (f"{value} written in scientific notation: one digit{point} (rounded to the nearest as the computer "
                 f"stores the value, an exact tie to the even digit), then \"{kind}\", the exponent's sign and at least "
                 f"two digits of the exponent")
        alt = False
    elif kind in ("g", "G"):
        count = max(1, 6 if precision is None else int(precision))
        words = (f"{value} rounded to {count} significant digits (to the nearest as the computer stores the value, an "
                 f"exact tie to the even digit) and written, when the power of ten of its first digit is below -4 or "
                 f"at least {count}, in scientific notation (one digit, a point and the other digits, then "
                 f"\"{'e' if kind == 'g' else 'E'}\", the exponent's sign and at least two digits of the exponent), "
                 f"else as a plain decimal number" + ("" if alt else "; then the zeros at the end of the part after "
                                                      "the point, and a point left last, are dropped"))
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
        words += ", with a plus sign before a value that is not negative"
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


def _spread(speaker, values: cst.BaseExpression) -> cst.BaseExpression | None:
    """The list or tuple whose items fill a printf format in order: a tuple held in a name, or `tuple(xs)` of a
    list or tuple; else None."""
    if isinstance(values, cst.Call) and isinstance(values.func, cst.Name) and values.func.value == "tuple" \
            and len(values.args) == 1 and not values.args[0].keyword and not values.args[0].star \
            and speaker.sort_of(values.args[0].value) in ("list", "tuple"):
        return values.args[0].value
    return values if isinstance(values, cst.Name) and speaker.sort_of(values) == "tuple" else None


def printf(speaker, template: str, values: cst.BaseExpression) -> str:
    """`template % values`, in words."""
    fields = list(_PRINTF.finditer(template))
    real = [m for m in fields if m["kind"] != "%"]
    if any(m["key"] is not None for m in real):
        if not isinstance(values, cst.Dict):
            raise Undescribable("printf-style formatting with named fields and a computed dictionary")
        raise Undescribable("printf-style formatting with named fields")
    if isinstance(values, cst.Tuple):
        if not all(isinstance(e, cst.Element) for e in values.elements):
            raise Undescribable("printf-style formatting with a computed tuple of values")
        items = [e.value for e in values.elements]
    elif len(real) == 1 and speaker.sort_of(values) != "tuple":  # a tuple's items would fill the fields
        items = [values]
    elif _spread(speaker, values) is not None:  # `t % tuple(xs)`: field n takes item n, and the count must match
        spread = _spread(speaker, values)
        items = [cst.Subscript(spread, [cst.SubscriptElement(cst.Index(cst.Integer(str(i))))]) for i in range(len(real))]
        exact = (f" (the steps stop with an error unless {speaker.grouped(spread)} has exactly {len(real)} "
                 f"item{'s' if len(real) != 1 else ''})")
        return printf(speaker, template, cst.Tuple([cst.Element(item) for item in items])) + exact
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
        if match["precision"] is not None and kind in "xXoc":  # `%.3x` pads with zeros: no words here
            raise Undescribable("printf-style formatting with a precision on a hexadecimal or octal number")
        if kind == "r" and not (match["width"] or match["precision"]) and speaker.shown(value):
            parts.append(speaker.shown(value))  # as Python displays it, where those words are exact
            continue
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


def holed_spec(speaker, pieces: list) -> tuple[str, str | None]:
    """A format spec built from written text and values (`f"{x:,.{n}f}"`, `format(x, f".{n}f")`): said
    only where one whole number fills the precision and the type is one whose words take any count; the
    spec with a stand-in precision, and the words for that precision."""
    texts = [piece for piece in pieces if isinstance(piece, str)]
    holes = [piece for piece in pieces if not isinstance(piece, str)]
    if not holes:
        return "".join(texts), None
    if len(holes) > 1 or len(pieces) > 3 or not isinstance(pieces[0], str) or not pieces[0].endswith(".") \
            or speaker.sort_of(holes[0]) != "int":
        raise Undescribable("a text format with a computed spec")
    rest = pieces[2] if len(pieces) == 3 else ""
    if rest not in ("f", "F", "%"):
        raise Undescribable("a text format with a computed spec")
    return pieces[0] + "1" + rest, speaker.grouped(holes[0])


def spec_words(value: str, spec: str, conversion: str | None, node: cst.BaseExpression, speaker,
               precision: str | None = None) -> str:
    """One `{...:spec}` field: `value` (the words for `node`) written as the spec says (`precision`: the
    words for a computed precision, `holed_spec`). `!r` is said only where its words are exact
    (`Speaker.shown`)."""
    shown = speaker.shown(node) if conversion == "r" else None
    if shown and not spec:
        return shown
    if conversion not in (None, "s") and not shown:
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
    if shown:  # `{x!r:>8}`: the display is a text, padded as texts are
        if kind not in ("", "s") or found["sign"] or found["alt"] or found["group"] or found["zero"] and not found["align"]:
            raise Undescribable("a text format spec that a displayed value's text does not take")
        return field_words(shown, "s", found["precision"], found["width"], found["align"] or "<", fill,
                           shown=True)
    if found["precision"] and not found["kind"]:
        raise Undescribable("a text format spec with a precision and no type")
    if found["precision"] and kind in "bcdoxXn":  # Python refuses a precision on a whole number
        raise Undescribable("a text format spec with a precision on a whole number")
    if found["width"] and not found["align"] and not found["kind"] and not found["zero"]:
        raise Undescribable("a text format width with no alignment and no type (it aligns by the value's type)")
    words = field_words(value, kind, precision or found["precision"], found["width"], align, fill,
                        found["sign"] or "-", bool(found["alt"]), found["group"])
    if kind == "d" and speaker.sort_of(node) not in ("int", "bool"):  # unlike printf, no cutting here
        words = words.replace("(a decimal number is cut toward zero first)", "(a decimal number stops the steps "
                                                                             "with an error)")
    return words + (f" (the steps stop with an error if {precision} is negative)" if precision else "")


def builtin_format(speaker, args: list, keywords: dict) -> str | None:
    """`format(value)` and `format(value, spec)` with a written spec (or one with a computed precision)."""
    if keywords or not 1 <= len(args) <= 2:
        return None
    spec = args[1] if len(args) == 2 else cst.SimpleString('""')
    if isinstance(spec, (cst.SimpleString, cst.ConcatenatedString)) and isinstance(spec.evaluated_value, str):
        text, precision = spec.evaluated_value, None
    elif isinstance(spec, cst.FormattedString) and all(isinstance(part, cst.FormattedStringText) or (
            part.conversion is None and not part.format_spec and part.equal is None) for part in spec.parts):
        text, precision = holed_spec(speaker, [part.value if isinstance(part, cst.FormattedStringText)
                                               else part.expression for part in spec.parts])
    else:
        raise Undescribable("the built-in format with a format spec that is not written in the code")
    speaker.rule("str")
    return spec_words(speaker.grouped(args[0]), text, None, args[0], speaker, precision)


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
        precision = None
        if "{" in (spec or ""):
            nested = list(string.Formatter().parse(spec))
            if any(inner in ("", None) or inner.isdigit() or inner not in keywords for _, inner, _, _ in nested[:1]) \
                    or len(nested) > 2 or nested[0][2] or nested[0][3] or len(nested) == 2 and nested[1][1] is not None:
                raise Undescribable("a text format with a computed spec")
            spec, precision = holed_spec(speaker, [nested[0][0], keywords[nested[0][1]]]
                                         + ([nested[1][0]] if len(nested) == 2 else []))
        field, items = _FIELD.match(field).group(1, 2) if _FIELD.match(field) else (field, "")
        if field == "":
            field = str(automatic)
            automatic += 1
        if field.isdigit() and int(field) < len(args):
            value = args[int(field)]
        elif field in keywords:
            value = keywords[field]
        else:
            raise Undescribable("a text format field that reads an attribute or an item")
        for key in re.findall(r"\[([^\]]+)\]", items):  # `{0[1]}` reads item 1, `{0[k]}` the key "k"
            index = cst.Integer(key) if key.isdigit() else cst.SimpleString(json.dumps(key))
            value = cst.Subscript(value, [cst.SubscriptElement(cst.Index(index))])
        parts.append(spec_words(speaker.grouped(value), spec or "", conversion, value, speaker, precision))
    return joined(parts)


PRINTF_RULE = (
    "Printf-style formatting copies its template, putting a value in place of each field, a \"%\" followed by "
    "(in this order, each one optional) flags among \"-\", \"0\", \"+\", \" \" and \"#\", a width, and a point with a "
    "precision, then one letter (\"%%\" gives a single \"%\"; an \"h\", \"l\" or \"L\" before the letter changes "
    "nothing; a \"*\" as the width or the precision takes it, a whole number, from the next value, a negative one "
    "counting as the flag \"-\" for a width and as 0 for a precision); the fields "
    "take the values in order, and a template whose fields do not use up exactly the values, a field naming a key "
    "in brackets, an unknown letter, or a value the letter does not take stops the steps with an error. By "
    "letter: \"s\" writes the value as text, \"r\" as Python displays it, \"a\" as \"r\" does with each character "
    "beyond code 127 escaped, each cut to the precision's count of characters when one is given; \"d\", \"i\" and "
    "\"u\" write a number as a whole number (a decimal number cut toward zero); \"x\", \"X\" and \"o\" write a whole "
    "number in hexadecimal (small or capital letters) or octal (decimal numbers are refused); for these six "
    "letters a precision pads the digits on the left with zeros to that many; \"f\" and \"F\" write a number with "
    "exactly the precision's count of digits after the point (6 when none is given, and no point when it is 0), "
    "rounded to the nearest as the computer stores the value (an exact tie to the even digit); \"e\" and \"E\" "
    "write it as one digit, the point and the precision's count of digits (rounded the same way; 6 when none is "
    "given, no point when 0), then \"e\" (or \"E\"), the exponent's sign and at least two digits of it; \"g\" and "
    "\"G\" round it to the precision's count of significant digits (6 when none is given, 1 when 0) and write it as "
    "\"e\" (for \"G\": \"E\") does when the power of ten of its first digit is below -4 or not below that count, else as \"f\" does, in "
    "both cases with exactly that many significant digits, then drop the zeros at the end of the part after the "
    "point and a point left last; \"c\" writes the character with a whole number's code, or a text of one "
    "character as it is. Every letter but \"s\", \"r\", \"a\" and \"c\" refuses text (true and false count as "
    "the numbers 1 and 0). The flag \"#\" puts \"0x\", \"0X\" or \"0o\" before a hexadecimal or octal number, keeps the point "
    "for \"f\" and \"e\" and the zeros at the end for \"g\". The flag \"+\" puts a \"+\" before a number that is not "
    "negative (else the flag \" \" a space). The width pads the field to at least that many characters with spaces "
    "on the left, on the right with the flag \"-\", or with zeros after the sign (and any \"0x\", \"0X\" or \"0o\") "
    "for a number with the flag \"0\" (and no \"-\").")


def printf_at_run_time(speaker, template: cst.BaseExpression, values: cst.BaseExpression) -> str:
    """`t % values` where the template t is a text known only at run time: said as what printf-style
    formatting makes of it, with `PRINTF_RULE`. The values must be a tuple (written out or surely one)
    or one value that is surely neither a tuple nor a dictionary (those would be read otherwise)."""
    g = speaker.grouped
    if isinstance(values, cst.Tuple):
        items = [element.value for element in values.elements]
        if any(isinstance(element, cst.StarredElement) for element in values.elements):
            raise Undescribable("printf-style formatting with a template given at run time and starred values")
        said = "no values" if not items else f"the value {g(items[0])}" if len(items) == 1 else \
            f"the values {speaker.join([g(item) for item in items])}, in this order"
    elif _surely_tuple(speaker, values):
        said = f"the items of {g(values)}, in order, as its values"
    elif speaker.sort_of(values) in ("int", "float", "number", "bool", "str"):
        said = f"the value {g(values)}"
    else:
        import sys; print("DEBUG", cst.Module([]).code_for_node(values), speaker.sort_of(values), file=sys.stderr)
        raise Undescribable("printf-style formatting with a template given at run time and values that may be a "
                            "tuple or a dictionary")
    speaker.rule("str")
    speaker.rule("printf")
    return f"the text that Python's printf-style formatting makes from the template {g(template)} and {said}"


def _surely_tuple(speaker, node: cst.BaseExpression) -> bool:
    """A tuple whatever the case: one by its kind, or tuples joined by plus (`(value,) + rest`)."""
    if isinstance(node, cst.Tuple) or speaker.sort_of(node) == "tuple":
        return True
    return isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add) and \
        _surely_tuple(speaker, node.left) and _surely_tuple(speaker, node.right)
