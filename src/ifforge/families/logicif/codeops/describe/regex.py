"""Regular expressions in words: a pattern is told by what it matches, never quoted as code.

`gloss` reads a literal pattern with Python's own parser (`re._parser`, so it means exactly what the
`re` module will do) and says each piece: literal text, character classes, repeats (greedy or not),
groups, alternatives, anchors and look-arounds, and the flags that change them (for the whole pattern
or, `(?i:...)`, for a part of it). A piece with no
clear wording (conditional groups, possessive repeats, unusual flags) raises `Undescribable`.
`pattern_method` and `match_method` say what the calls on patterns and on matches give back.
A pattern may also be a call of a helper that gives back a compiled one (`facts.pattern_makers`: "the
pattern that _rx gives back with no inputs") or a choice by a condition (each side said). Under
IGNORECASE, where the pattern holds a letter whose other cases are not plain to see (`re._casefix`'s
extra partners, a case that crosses out of ASCII or is several characters), each list of characters
says the partners Python adds (`_partners`) and a lone such letter is refused; so is a cased letter
beyond ASCII under IGNORECASE with ASCII: "letters match regardless of case" would not be exact there.
"""

from __future__ import annotations

import functools
import json
import re
import sys
from contextvars import ContextVar
from re import _constants as c  # noqa: the parser's opcodes
from re import _casefix, _parser  # noqa: the parser, and the extra case partners the re module knows

import libcst as cst

from ifforge.families.logicif.codeops.describe import built_patterns, wildcards
from ifforge.families.logicif.codeops.describe.errors import Undescribable
from ifforge.families.logicif.codeops.describe.formats import joined, quoted

FLAGS = {"ASCII": re.ASCII, "A": re.ASCII, "IGNORECASE": re.IGNORECASE, "I": re.IGNORECASE,
         "MULTILINE": re.MULTILINE, "M": re.MULTILINE, "DOTALL": re.DOTALL, "S": re.DOTALL,
         "VERBOSE": re.VERBOSE, "X": re.VERBOSE, "UNICODE": re.UNICODE, "U": re.UNICODE}
_FLAG_WORDS = [(re.IGNORECASE, "letters match regardless of case"),
               (re.MULTILINE, "start and end of text also match at the start and end of every line"),
               (re.DOTALL, "'any character' includes the line break"),
               (re.ASCII, "digits, word characters and whitespace mean the ASCII ones only")]
_FLAG_OFF_WORDS = {re.IGNORECASE: "letters match only in the case written",
                   re.MULTILINE: "start and end of text mean only those of the whole text",
                   re.DOTALL: "'any character' excludes the line break"}  # `(?-i:...)`; `a` cannot be turned off
_CATEGORIES = {
    c.CATEGORY_DIGIT: "a digit", c.CATEGORY_NOT_DIGIT: "a character that is not a digit",
    c.CATEGORY_WORD: "a word character (a letter, a digit or an underscore)",
    c.CATEGORY_NOT_WORD: "a character that is not a word character (a letter, a digit or an underscore)",
    c.CATEGORY_SPACE: "a whitespace character", c.CATEGORY_NOT_SPACE: "a character that is not whitespace",
}
_ANCHORS = {
    c.AT_BEGINNING: ("the start of the text", "the start of a line"),
    c.AT_BEGINNING_STRING: ("the very start of the text", "the very start of the text"),
    c.AT_END: ("the end of the text (or just before a line break that ends it)", "the end of a line"),
    c.AT_END_STRING: ("the very end of the text", "the very end of the text"),
    c.AT_BOUNDARY: ("a word boundary (between a word character and a non-word character, or the text's "
                    "edge)",) * 2,
    c.AT_NON_BOUNDARY: ("a place that is not a word boundary",) * 2,
}


_HOLES: ContextVar[dict[str, str]] = ContextVar("holes", default={})  # of the pattern being glossed
_NAMES: ContextVar[dict[int, str]] = ContextVar("names", default={})  # group number -> name, likewise
_BLIND: ContextVar[int] = ContextVar("blind", default=0)  # the flags, when case partners must be checked


def flag_value(node: cst.BaseExpression, constants=None) -> int:
    """The value of `re.X | re.Y` written with the re module's flag names, module constants traced
    when `constants` are given (`FLAGS = re.I | re.M`)."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
        return flag_value(node.left, constants) | flag_value(node.right, constants)
    if isinstance(node, cst.Name) and constants and node.value in constants:
        return flag_value(constants[node.value], {k: v for k, v in constants.items() if k != node.value})
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "re" \
            and node.attr.value in FLAGS:
        return int(FLAGS[node.attr.value])
    if isinstance(node, cst.Integer) and node.value == "0":
        return 0
    raise Undescribable("regular-expression flags that are not written as re's flag names")


def gloss(pattern: str, flags: int = 0, holes: dict[str, str] | None = None) -> str:
    """`the pattern that matches ...`, in words; `holes`: a character standing for a text known only
    at run time, each of whose characters is matched as itself -> that text's words."""
    token = _HOLES.set(holes or {})
    try:
        return _gloss(pattern, flags)
    finally:
        _HOLES.reset(token)


def _gloss(pattern: str, flags: int) -> str:
    if flags & ~(re.IGNORECASE | re.MULTILINE | re.DOTALL | re.ASCII | re.VERBOSE | re.UNICODE):
        raise Undescribable("an unusual regular-expression flag")
    try:
        parsed = _parser.parse(pattern, flags)
    except re.error:
        raise Undescribable("a regular expression that does not compile") from None
    flags = parsed.state.flags
    blind = _BLIND.set(_blind(parsed, flags))
    try:
        return _glossed(pattern, parsed, flags)
    finally:
        _BLIND.reset(blind)


def _blind(parsed, flags: int) -> int:
    """The flags under which each list of characters must say the partners re adds (0: none to check);
    a cased letter beyond ASCII under IGNORECASE with ASCII is refused."""
    if flags & re.IGNORECASE and flags & re.ASCII and any(map(_cased, _characters(parsed))):
        raise Undescribable("a case-blind pattern holding a letter whose other cases are not plain to see")
    odd = flags & re.IGNORECASE and not flags & re.ASCII and any(map(_odd_case, _characters(parsed)))
    return flags if odd else 0


def _glossed(pattern: str, parsed, flags: int) -> str:
    if _HOLES.get() and _splits_hole(pattern, flags, parsed):
        raise Undescribable("a regular expression that repeats or lists part of a text known only at run time")
    token = _NAMES.set({number: name for name, number in parsed.state.groupdict.items()})
    try:
        words = _sequence(list(parsed), flags)
    finally:
        _NAMES.reset(token)
    notes = [text for flag, text in _FLAG_WORDS if flags & flag]
    tail = f" ({'; '.join(notes)})" if notes else ""
    return f"the pattern matching {words}{tail}"


def _odd_case(code: int, ascii_too: bool = False) -> bool:
    """A character beyond ASCII whose case partners a reader would not find by changing its case: its
    other case is an ASCII letter or several characters ("ſ" matches "s" and "S"; the Kelvin sign
    matches "k"), or the re module gives it an extra partner (`re._casefix`)."""
    if code < 128 and not ascii_too:
        return False
    char = chr(code)
    return code in _casefix._EXTRA_CASES or any(
        other != char and (len(other) != 1 or other.isascii() != char.isascii()) for other in (char.lower(), char.upper()))


def _partners(items: list) -> list[str]:
    """The characters beyond a list of characters' own that it matches case-blind only by the re module's
    own case rules (`[\u0100-\u017f]` also takes "s" and "S", through "\u017f"), checked on every
    character with an unusual case (`_unusual`): a reader who tries each character's other cases, with
    these added to the list, finds exactly what Python finds; where no such list exists, refused."""
    source = "[" + "".join(_source(op, av) for op, av in items) + "]"
    flags = _BLIND.get()
    blind, plain = re.compile(source, flags), re.compile(source, flags & ~re.IGNORECASE)
    found = [ch for ch in _unusual() if blind.fullmatch(ch) and not any(map(plain.fullmatch, _cases(ch)))]
    if any(bool(blind.fullmatch(ch)) != any(plain.fullmatch(other) or other in found for other in _cases(ch))
           for ch in _unusual()):
        raise Undescribable("a case-blind pattern holding a letter whose other cases are not plain to see")
    return found


def _source(op, av) -> str:
    if op is c.LITERAL:
        return f"\\U{av:08x}"
    if op is c.RANGE:
        return f"\\U{av[0]:08x}-\\U{av[1]:08x}"
    if op is c.CATEGORY and av in _CATEGORY_SOURCE:
        return _CATEGORY_SOURCE[av]
    raise Undescribable("an unusual regular-expression character class")


_CATEGORY_SOURCE = {c.CATEGORY_DIGIT: "\\d", c.CATEGORY_NOT_DIGIT: "\\D", c.CATEGORY_WORD: "\\w",
                    c.CATEGORY_NOT_WORD: "\\W", c.CATEGORY_SPACE: "\\s", c.CATEGORY_NOT_SPACE: "\\S"}


def _cases(char: str) -> set[str]:
    """A character and every one-character text reached by making it small or capital, again and again."""
    found, todo = {char}, [char]
    while todo:
        for other in (todo[-1].lower(), todo.pop().upper()):
            if len(other) == 1 and other not in found:
                found.add(other)
                todo.append(other)
    return found


@functools.cache
def _unusual() -> tuple[str, ...]:
    """Every character with an unusual case (`_odd_case`, in ASCII too), and the characters its cases reach."""
    found = set()
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if (code in _casefix._EXTRA_CASES or char.lower() != char or char.upper() != char) and _odd_case(code, True):
            found |= _cases(char) | {chr(other) for other in _casefix._EXTRA_CASES.get(code, ())}
    return tuple(sorted(found))


def _cased(code: int) -> bool:
    """A letter beyond ASCII with another case, which an ASCII-only case-blind pattern does not give it."""
    char = chr(code)
    return code >= 128 and (char.lower() != char or char.upper() != char)


def _characters(value):
    """Every character a pattern's literals and character classes name (each range's in full)."""
    if isinstance(value, _parser.SubPattern):
        value = value.data
    for op, av in value if isinstance(value, list) else ():
        if op in (c.LITERAL, c.NOT_LITERAL):
            yield av
        elif op is c.RANGE:
            yield from range(av[0], av[1] + 1)
        elif op is c.IN:
            yield from _characters(av)
        elif op is c.SUBPATTERN:
            yield from _characters(av[3])
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT):
            yield from _characters(av[2])
        elif op is c.BRANCH:
            for option in av[1]:
                yield from _characters(option)
        elif op in (c.ASSERT, c.ASSERT_NOT):
            yield from _characters(av[1])


def _splits_hole(pattern: str, flags: int, parsed) -> bool:
    """Would a repeat, a list of characters or a choice of characters take only part of a hole's text?
    Told by Python's parser: with a second character after each hole's, the pattern must read as the
    same pieces with that character simply following (a `[%s]` or `%s+` reads otherwise)."""
    holes = _HOLES.get()
    second = {mark: chr(ord(mark) + 0x1000) for mark in holes}
    try:
        doubled = _parser.parse("".join(ch + second.get(ch, "") for ch in pattern), flags)
    except re.error:
        return True

    def shape(value, grow: bool):
        if isinstance(value, _parser.SubPattern):
            pieces = []
            for op, av in value.data:
                pieces.append((op, shape(av, grow)))
                if grow and op is c.LITERAL and chr(av) in second:
                    pieces.append((c.LITERAL, ord(second[chr(av)])))
            return pieces
        if isinstance(value, (list, tuple)):
            return [shape(v, grow) for v in value]
        return value

    return shape(parsed, True) != shape(doubled, False)


def _sequence(items: list, flags: int) -> str:
    if not items:
        return "the empty text"
    parts, run, enclosed = [], [], []
    holes = _HOLES.get()
    for op, av in items:
        if op in (c.LITERAL, c.NOT_LITERAL) and _BLIND.get() and _partners([(c.LITERAL, av)]):
            raise Undescribable("a case-blind pattern holding a letter whose other cases are not plain to see")
        if op is c.LITERAL and chr(av) not in holes:
            run.append(chr(av))
            continue
        if run:
            parts.append(_literal("".join(run)))
            run = []
        parts.append(_item(op, av, flags))
        if op is c.BRANCH or op is c.SUBPATTERN and (av[0] or _turned(av, flags) or _single(av[3], (c.BRANCH,))):
            enclosed.append(len(parts) - 1)  # a group or a choice: where it ends must show among other parts
    if run:
        parts.append(_literal("".join(run)))
    if len(parts) == 1:
        return parts[0]
    return "(" + ", then ".join(f"({p})" if i in enclosed else p for i, p in enumerate(parts)) + ")"


def _literal(text: str) -> str:
    return f"the text {quoted(text)}"


def _item(op, av, flags: int) -> str:
    if op is c.LITERAL:
        return _HOLES.get().get(chr(av)) or _literal(chr(av))
    if op is c.NOT_LITERAL:
        return f"any one character other than {_literal(chr(av))[9:]}"
    if op is c.ANY:
        return "any one character" + ("" if flags & re.DOTALL else " except a line break")
    if op is c.IN:
        return _class(av)
    if op in (c.MAX_REPEAT, c.MIN_REPEAT):
        return _repeat(op, av, flags)
    if op is c.SUBPATTERN:
        group, add, remove, inner = av
        if add or remove:
            return _scoped(inner, flags, (flags | add) & ~remove)
        what = _sequence(list(inner), flags)
        if group and _single(inner, (c.MAX_REPEAT, c.MIN_REPEAT)):  # `(\d+)`, not `(\d)+`: the group holds it all
            return f"group {_group(group)}, which is {_repeat(*inner[0], flags, inside=group)}"
        return f"group {_group(group)}, which is {what}" if group else what
    if op is c.BRANCH:
        options = [_sequence(list(p), flags) for p in av[1]]
        options = [f"({o})" if _single(p, (c.SUBPATTERN,)) and list(p)[0][1][0] else o for o, p in zip(options, av[1])]
        return "either " + " or ".join(options) + " (the first that fits, left to right)"
    if op is c.AT:
        words = _ANCHORS.get(av)
        if words is None:
            raise Undescribable("an unusual regular-expression anchor")
        return words[1 if flags & re.MULTILINE else 0]
    if op in (c.ASSERT, c.ASSERT_NOT):
        direction, inner = av
        what = _sequence(list(inner), flags)
        where = "followed" if direction == 1 else "preceded"
        return f"a place {'not ' if op is c.ASSERT_NOT else ''}{where} by {what} (nothing is used up)"
    if op is c.GROUPREF:
        return f"the same text group {av} matched"
    raise Undescribable(f"the regular-expression construct {str(op).lower()}")


def _scoped(inner, outer: int, flags: int) -> str:
    """`(?i:...)`, `(?-i:...)`: that part said under its own flags, with the words the whole pattern's flag
    uses for each one it turns on (or off); the case guards of `_gloss` are checked again on that part."""
    blind = _BLIND.set(_blind(inner, flags))
    try:
        what = _sequence(list(inner), flags)
    finally:
        _BLIND.reset(blind)
    notes = [text if flags & flag else _FLAG_OFF_WORDS[flag] for flag, text in _FLAG_WORDS if (flags ^ outer) & flag]
    if not notes:
        return what
    if _compound(inner, flags):  # "(one character that is one of: "a"; "b") (in this part, ...)": for all of it
        what = f"({what})"
    return f"{what} (in this part, {'; '.join(notes)})"


def _group(number: int) -> str:
    """A group's number, and its name when it has one (`(?P<year>...)`: "1 (named "year")")."""
    name = _NAMES.get().get(number)
    return f"{number} (named {json.dumps(name)})" if name else str(number)


def _repeat(op, av, flags: int, inside: int | None = None) -> str:
    """A repeat, its repeated part bracketed when it is more than one thing (a group, a choice, a list
    of characters), so "repeated" never reads as applying to the last word only. Which text a group
    keeps is said both ways: a group inside the repeat keeps only the last repetition (`([0-9])+`); a
    group around it (`inside`, its number) holds every repetition (`([0-9]+)`)."""
    low, high, inner = av
    what = _sequence(list(inner), flags)
    if _compound(inner, flags):
        what = f"({what})"
    groups = sorted(_groups(inner))
    said = _numbers(groups) if groups else ""
    plural = len(groups) > 1
    if (low, high) == (0, 1):
        how = "taken when it can be" if op is c.MAX_REPEAT else "left out when it can be"
        if groups:
            how += f"; when it is left out, group{'s' if plural else ''} {said} take{'' if plural else 's'} no part"
        if inside:
            how += f"; group {inside} is the empty text when it is left out"
        return f"optionally {what} ({how})"
    count = (f"{low} or more times" if high is c.MAXREPEAT else
             f"exactly {low} times" if low == high else f"{low} to {high} times")
    how = ("as many as possible" if op is c.MAX_REPEAT else "as few as possible") + \
        ", giving back as the rest of the pattern needs"
    if groups:
        how += f"; group{'s' if plural else ''} {said} keep{'' if plural else 's'} only the text of the last repetition"
    if inside:
        how += f"; group {inside} holds every repetition"
    return f"{what} repeated {count} ({how})"


def _single(items, ops) -> bool:
    items = list(items)
    return len(items) == 1 and items[0][0] in ops


def _turned(av, flags: int) -> int:
    """The flags with words that a flag group `(?i:...)` turns on or off (none: it is said as a plain group)."""
    inner = (flags | av[1]) & ~av[2]
    return (inner ^ flags) & (re.IGNORECASE | re.MULTILINE | re.DOTALL | re.ASCII)


def _compound(items, flags: int) -> bool:
    """Is this one piece said in several parts (a group, a choice, a list of characters, a repeat)?
    Several pieces are bracketed by `_sequence` already."""
    items = list(items)
    if len(items) != 1:
        return False
    op, av = items[0]
    if op is c.SUBPATTERN:
        return bool(av[0] or _turned(av, flags)) or _compound(av[3], (flags | av[1]) & ~av[2])
    if op is c.IN:
        return _class(av).startswith("one character that is")
    return op in (c.BRANCH, c.MAX_REPEAT, c.MIN_REPEAT)


def _groups(items) -> set[int]:
    """The numbers of the capturing groups anywhere inside these pieces."""
    found = set()
    for op, av in items:
        if op is c.SUBPATTERN:
            found |= ({av[0]} if av[0] else set()) | _groups(av[3])
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT):
            found |= _groups(av[2])
        elif op is c.BRANCH:
            for option in av[1]:
                found |= _groups(option)
        elif op in (c.ASSERT, c.ASSERT_NOT):
            found |= _groups(av[1])
    return found


def _numbers(numbers: list[int]) -> str:
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _class(items) -> str:
    negate = bool(items) and items[0][0] is c.NEGATE
    words = []
    extra = _partners(items[1:] if negate else items) if _BLIND.get() else []
    for op, av in (items[1:] if negate else items) + [(c.LITERAL, ord(ch)) for ch in extra]:
        if op is c.LITERAL:
            words.append(_literal(chr(av))[9:])
        elif op is c.RANGE:
            words.append(f"from {_literal(chr(av[0]))[9:]} to {_literal(chr(av[1]))[9:]}")
        elif op is c.CATEGORY and av in _CATEGORIES:
            words.append(_CATEGORIES[av])
        else:
            raise Undescribable("an unusual regular-expression character class")
    if len(words) == 1 and not negate and not words[0].startswith("from"):
        return words[0] if words[0].startswith("a") else f"the character {words[0]}"
    listed = "; ".join(words)
    return (f"one character that is none of: {listed}" if negate else f"one character that is one of: {listed}")


# ---- calls --------------------------------------------------------------------------------------
_MATCHES = {
    "search": "the first match of {p} anywhere in {0} (tried from each position, left to right), or None if "
              "there is none",
    "match": "the match of {p} at the very start of {0}, or None if it does not match there",
    "fullmatch": "the match of {p} against the whole of {0}, or None if it does not match all of it",
    "findall": "the list of every match of {p} in {0}, left to right and not overlapping; each is the matched "
               "text, or, when the pattern has groups (its words name each one: \"group 1, which is ...\"), the text "
               "of its one group (a tuple of the groups' texts when it has several; empty text for a group that "
               "took no part)",
    "finditer": "the matches of {p} in {0}, one after another, left to right and not overlapping (each a match, "
                "not yet its text)",
    "split": "the list of pieces of {0} split at every match of {p} (the text of any groups goes between the "
             "pieces)",
}


# the methods of a compiled pattern a table read by a key is counted for (`pattern_tables._Reads`)
KEYED_METHODS = ("search", "match", "fullmatch", "findall", "finditer", "split", "sub", "subn")


def keyed(speaker, node: cst.BaseExpression) -> str | None:
    """`TABLE[key]` of a dictionary of patterns read only by a key (`pattern_tables`), as the pattern it holds
    under that key (the table is told row by row with the fixed values), else None."""
    from ifforge.families.logicif.codeops.describe.pattern_tables import keyed_table  # it reads this module
    name = keyed_table(node)
    table = speaker.tables.get(name) if name is not None and speaker.facts is not None else None
    if table is None or not table.keyed:
        return None
    return (f"the pattern the dictionary {name} holds under the key {speaker.grouped(node.slice[0].slice.value)} "
            f"(it must hold that key)")


def literal_pattern(speaker, node: cst.BaseExpression, flags: int = 0) -> str:
    """A pattern given as a literal, a compiled constant, or a variable, as a phrase."""
    held = keyed(speaker, node)
    if held is not None:
        if flags:  # the table says each pattern without them
            raise Undescribable("a pattern from a table of patterns used with flags")
        return held
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)) and isinstance(node.evaluated_value, str):
        return gloss(node.evaluated_value, flags)
    if isinstance(node, cst.Name) and node.value in speaker.patterns and not flags:
        return f"the pattern {node.value}"
    if isinstance(node, cst.Name) and speaker.table_names.get(node.value, ("", ""))[1] == "pattern":
        if flags:  # the table says each row's pattern without them
            raise Undescribable("a pattern from a table of patterns used with flags")
        return f"the pattern {node.value}"  # a row's pattern: the table says each one in words
    if isinstance(node, cst.Name) and node.value in speaker.wildcards and not flags:
        return f"the pattern {node.value} holds (made from a wildcard{speaker.cite('wildcard')})"
    if wildcards.translation(node, speaker.translators) and not flags:
        return f"the pattern made from the wildcard {speaker.grouped(node.args[0].value)}{speaker.cite('wildcard')}"
    written = speaker.constants.get(node.value) if isinstance(node, cst.Name) else None
    if isinstance(written, (cst.SimpleString, cst.ConcatenatedString)):  # a module-level text: the pattern it spells
        return literal_pattern(speaker, written, flags)
    if isinstance(node, cst.Call) and _is_compile(node, speaker):
        return compile_call(speaker, node)
    if isinstance(node, cst.IfExp):  # `r"\w+" if strict else r"\S+"`: each pattern, and when it is used
        return (f"({literal_pattern(speaker, node.body, flags)} if {speaker.condition(node.test)}, otherwise "
                f"{literal_pattern(speaker, node.orelse, flags)})")
    if made_by_helper(speaker, node):  # the helper's own steps say which pattern
        if flags:
            raise Undescribable("a pattern a helper gives back used with flags")
        return f"the pattern that {node.func.value} gives back {speaker.call_with(node)}"
    built = built_patterns.pattern_text(node, speaker.constants, flags)
    if built is not None:  # built from written texts when the module loads
        return gloss(built, flags)
    holed = built_patterns.with_holes(node, speaker.constants, lambda value: _plain_text(speaker, value))
    if holed is not None:  # built at run time around texts matched as they are
        try:
            return gloss(holed[0], flags, holed[1])
        except Undescribable:  # a repeat or a list takes part of such a text: the reader reads the text
            if not _run_time_text(speaker, node):
                raise
    return _written_at_run_time(speaker, node, flags)


def _run_time_text(speaker, node: cst.BaseExpression) -> bool:
    """Is this a text the steps make or are given (an input, a name they set, a text they build),
    never a function?"""
    if isinstance(node, cst.FormattedString):
        return True
    if isinstance(node, cst.Name):
        return speaker.kinds.get(node.value) == "str" and node.value not in speaker.constants
    return isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Modulo)) or \
        isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in ("format", "join")


def _written_at_run_time(speaker, node: cst.BaseExpression, flags: int) -> str:
    """A pattern whose text is known only at run time (an input, a text the steps build): the reader
    reads that text as a regular expression, as the code does. A written text is never said this way."""
    if not _run_time_text(speaker, node):
        raise Undescribable("a regular expression that is not written in the code")
    if flags & ~(re.IGNORECASE | re.MULTILINE | re.DOTALL | re.ASCII):
        raise Undescribable("an unusual regular-expression flag")
    notes = [text for flag, text in _FLAG_WORDS if flags & flag]
    speaker.rule("regex_text")
    tail = f" ({'; '.join(notes)})" if notes else ""
    return f"the pattern that the text {speaker.grouped(node)} writes as a regular expression{tail}"


def _plain_text(speaker, node: cst.BaseExpression) -> str | None:
    """A text known only at run time that a pattern holds character for character, in words: one
    escaped by `re.escape`, or a loop's name set to written texts with no character that means
    something in a pattern; else None."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name) \
            and node.func.value.value == "re" and node.func.attr.value == "escape" and len(node.args) == 1 \
            and not node.args[0].keyword and not node.args[0].star:
        return f"the characters of {speaker.grouped(node.args[0].value)}, each matched as itself"
    if isinstance(node, cst.Name) and node.value in speaker.plain_texts:
        return f"the characters of {node.value}, each matched as itself"
    return None


def _is_compile(node: cst.Call, speaker=None) -> bool:
    """`re.compile(...)`; with a speaker, also by a name the module is imported as (`import re as _re`)."""
    return isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name) and node.func.attr.value == \
        "compile" and (node.func.value.value == "re" or speaker is not None and speaker.facts is not None
                       and speaker.imported.get(node.func.value.value) == "re")


def made_by_helper(speaker, node: cst.BaseExpression) -> bool:
    """A call of a helper whose one step gives back a compiled pattern (`facts.pattern_makers`)."""
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in speaker.pattern_makers


def compiled(speaker, node: cst.BaseExpression) -> bool:
    """Surely a compiled pattern where it is made: `re.compile(...)` or a call of a helper that gives one back."""
    return isinstance(node, cst.Call) and _is_compile(node, speaker) or made_by_helper(speaker, node)


def method_as_value(speaker, made: cst.Call, name: str) -> str:
    """`re.compile(p).match` kept to be called later: the function it is, in words."""
    pattern = literal_pattern(speaker, made)
    if name in _MATCHES:
        speaker.rule("regex")
        return "a function which, called with a text, gives " + _MATCHES[name].format("that text", p=pattern)
    return f"the {name} of {pattern} (used below as a function)"


def compile_call(speaker, call: cst.Call) -> str:
    args, keywords = speaker.arguments(call)
    flags = keywords.get("flags", args[1] if len(args) > 1 else None)
    return literal_pattern(speaker, args[0], flag_value(flags, speaker.constants) if flags is not None else 0)


_COUNTED = {"split": "maxsplit", "sub": "count", "subn": "count"}  # the argument that limits how many

# a match used as a condition: whether there is one, not "the match, or None"
_TESTS = {"search": ("{p} matches somewhere in {0}", "{p} matches nowhere in {0}"),
          "match": ("{p} matches at the very start of {0}", "{p} does not match at the very start of {0}"),
          "fullmatch": ("{p} matches the whole of {0}", "{p} does not match the whole of {0}")}


def module_call(speaker, name: str, call: cst.Call, test: bool | None = None) -> str:
    """`re.name(pattern, ...)`, in words; with `test`, a match call as the check that there is (or
    is not) a match."""
    args, keywords = speaker.arguments(call)
    if name == "compile" and args:
        return compile_call(speaker, call)
    if name == "escape" and len(args) == 1 and not keywords:
        special = quoted("".join(sorted(map(chr, re._special_chars_map))))
        return (f"{speaker.grouped(args[0])} with a backslash put before each of its characters that means something "
                f"in a pattern (each character of {special}), so that it matches itself as a pattern")
    if not args:
        raise Undescribable(f"re.{name} without a pattern")
    flags = keywords.pop("flags", None)
    extra = {"search": 2, "match": 2, "fullmatch": 2, "findall": 2, "finditer": 2, "split": 2, "sub": 3, "subn": 3}.get(name)
    counted = _COUNTED.get(name)  # re.sub(p, r, s, count, flags): a count comes before the flags
    if counted in keywords and len(args) == extra:
        args = [*args, keywords.pop(counted)]
    if extra is None or keywords:
        raise Undescribable(f"the regular-expression function re.{name} used this way")
    if counted and len(args) > extra:
        extra += 1
    if flags is None and len(args) > extra:
        flags, args = args[extra], args[:extra]
    pattern = literal_pattern(speaker, args[0], flag_value(flags, speaker.constants) if flags is not None else 0)
    return _use(speaker, pattern, name, args[1:], test)


def pattern_method(speaker, owner: cst.BaseExpression, name: str, args: list, keywords: dict,
                   test: bool | None = None) -> str:
    """`pattern.name(...)` for a compiled pattern."""
    counted = _COUNTED.get(name)
    if counted in keywords and len(args) == (2 if name in ("sub", "subn") else 1):
        args, keywords = [*args, keywords[counted]], {k: v for k, v in keywords.items() if k != counted}
    if keywords:
        raise Undescribable(f"the pattern method {name} with keyword arguments")
    if name in _FROM_POSITION and len(args) == 2:  # pattern.search(text, pos): read in the whole text
        speaker.rule("regex")
        return _FROM_POSITION[name].format(*[speaker.grouped(a) for a in args], p=literal_pattern(speaker, owner))
    return _use(speaker, literal_pattern(speaker, owner), name, args, test)


_FROM_POSITION = {
    "search": "the first match of {p} in {0} beginning at position {1} or later (the start of the text stays at "
              "position 0), or None if there is none",
    "match": "the match of {p} beginning exactly at position {1} of {0} (the start of the text stays at "
             "position 0), or None if it does not match there"}


def _use(speaker, pattern: str, name: str, args: list, test: bool | None = None) -> str:
    g = speaker.grouped
    speaker.rule("regex")
    if test is not None and name in _TESTS and len(args) == 1:
        return _TESTS[name][0 if test else 1].format(g(args[0]), p=pattern)
    if name in _MATCHES and len(args) == 1:
        return _MATCHES[name].format(g(args[0]), p=pattern)
    if name == "split" and len(args) == 2 and isinstance(args[1], cst.Integer):  # at most that many splits
        count = int(args[1].value, 0)
        if count == 0:
            return _MATCHES[name].format(g(args[0]), p=pattern)
        first = "first match" if count == 1 else f"first {count} matches"
        return (f"the list of pieces of {g(args[0])} split at only the {first} of {pattern} (the text after the last "
                f"of those is the last piece, matches and all; the text of any groups goes between the pieces)")
    if name == "subn" and len(args) in (2, 3):
        return f"the pair of ({_use(speaker, pattern, 'sub', args)}) and the number of matches replaced"
    if name == "sub" and len(args) in (2, 3):
        limit = ""
        if len(args) == 3:  # with a count: only the first ones (0: all of them)
            if not isinstance(args[2], cst.Integer):
                raise Undescribable("a regular-expression replacement with a computed count")
            number = int(args[2].value, 0)
            if number < 0:
                raise Undescribable("a regular-expression replacement with a negative count")
            first = "the first match" if number == 1 else f"the first {number} matches"
            limit = f"; only {first}, the rest left as they are" if number else ""
        return f"{g(args[1])} with every match of {pattern} (left to right, not overlapping{limit}) replaced by " \
               f"{_replacement(speaker, args[0])}"
    raise Undescribable(f"the regular-expression call {name} with {len(args)} arguments")


def _replacement(speaker, replacement: cst.BaseExpression) -> str:
    """What each match is replaced by in `re.sub`, in words."""
    if isinstance(replacement, cst.Name) and replacement.value in speaker.helpers:
        return f"what the helper {replacement.value} gives back for that match"
    if isinstance(replacement, (cst.SimpleString, cst.ConcatenatedString)):
        return template_words(replacement.evaluated_value)
    fixed = built_patterns.fixed_text(replacement, speaker.constants)
    if fixed is not None:  # a module-level text, or one built from written texts when the module loads
        return template_words(fixed)
    if isinstance(replacement, cst.Name) and speaker.table_names.get(replacement.value, ("", ""))[1] == "replacement":
        table = speaker.table_names[replacement.value][0]
        row = "entry" if speaker.tables[table].mapping else "row"
        return (f"the replacement {replacement.value} (the texts its {row} of {table} lists, each group's text taken "
                f"from that match)")
    if isinstance(replacement, cst.Lambda):  # called with each match
        return speaker.applied(replacement, "that match")
    fixed_inputs = _helper_partial(speaker, replacement)
    if fixed_inputs is not None:
        return fixed_inputs
    if _run_time_text(speaker, replacement):
        speaker.rule("regex_template")
        return f"the text {speaker.grouped(replacement)} read as a replacement template"
    raise Undescribable("a regular-expression replacement that is neither text nor a helper")


def _helper_partial(speaker, node: cst.BaseExpression) -> str | None:
    """`functools.partial(h, a, k=v)` as the replacement: each match replaced by what the helper h gives back
    with a, then the match, and k set to v (the fixed inputs worked out once, before any match); else None."""
    if not (isinstance(node, cst.Call) and speaker.resolved(node.func) == "functools.partial" and node.args
            and not node.args[0].keyword and not node.args[0].star and isinstance(node.args[0].value, cst.Name)
            and node.args[0].value.value in speaker.helpers and not any(a.star for a in node.args[1:])):
        return None
    if any(a.keyword is not None and a.keyword.value not in speaker.parameters.get(node.args[0].value.value, ())
           for a in node.args[1:]):  # a name the helper's inputs do not have (as the steps call them)
        raise Undescribable("functools.partial naming an input its function does not have")
    placed = [a for a in node.args[1:] if a.keyword is None]
    named = [a for a in node.args[1:] if a.keyword is not None]
    call = cst.Call(node.args[0].value, [*placed, cst.Arg(cst.Name("STANDINMATCHMARK")), *named])
    return (f"what the helper {node.args[0].value.value} gives back "
            f"{speaker.call_with(call).replace('STANDINMATCHMARK', 'that match')}")


_TEMPLATE = re.compile(r"\\(?:g<(?P<named>\w+)>|(?P<number>[1-9]\d?)(?![0-7])|(?P<char>[^\w])|(?P<escape>[ntr]))")


def template_words(template: str) -> str:
    """A replacement text of `re.sub` in words: its plain parts quoted, each group reference said
    as the text that group of the match covers. (Octal escapes, named groups and other letter
    escapes are not said.)"""
    parts, plain, position = [], "", 0
    for found in _TEMPLATE.finditer(template):
        if "\\" in template[position:found.start()]:
            break
        plain += template[position:found.start()]
        position = found.end()
        if found["char"] is not None:  # "\\" is one backslash; "\&" stays as it is
            plain += "\\" if found["char"] == "\\" else found[0]
        elif found["escape"] is not None:
            plain += {"n": "\n", "t": "\t", "r": "\r"}[found["escape"]]
        elif found["named"] is not None and not found["named"].isdigit():
            raise Undescribable("a regular-expression replacement naming a group")
        else:
            if plain:
                parts.append(quoted(plain))
                plain = ""
            group = int(found["named"] or found["number"])
            parts.append(f"the text group {group} of that match covers (empty if it took no part)")
    if "\\" in template[position:]:
        raise Undescribable("a regular-expression replacement with an octal or letter escape")
    plain += template[position:]
    if plain:
        parts.append(quoted(plain))
    return joined(parts)


def match_method(speaker, owner: cst.BaseExpression, name: str, args: list) -> str:
    """`match.group(n)` and the other questions put to a match."""
    m = speaker.grouped(owner)
    speaker.rule("regex")
    number = speaker.grouped(args[0]) if args else None
    whole = not args or (isinstance(args[0], cst.Integer) and args[0].value == "0")
    if name == "group" and len(args) <= 1:
        return (f"the whole text the match {m} covers" if whole else
                f"the text group {number} of the match {m} covers (None if that group took no part)")
    if name == "group":  # several groups asked at once: a tuple of their texts, in the order asked
        parts = ["the whole match" if isinstance(a, cst.Integer) and a.value == "0" else f"group {speaker.grouped(a)}"
                 for a in args]
        return (f"the tuple of the texts that {speaker.join(parts)} of the match {m} cover, in that order (None for a "
                f"group that took no part)")
    if name == "groupdict" and not args:
        return (f"a new dictionary from the name of each named group of the match {m}, in the order the groups "
                f"appear, to the text that group covers (None for a group that took no part)")
    if name == "groups" and not args:
        return f"the tuple of the texts every group of the match {m} covers, in order (None for a group that took no part)"
    if name in ("start", "end") and len(args) <= 1:
        edge = "starts" if name == "start" else "ends (the position just after it)"
        what = f"the match {m}" if whole else f"group {number} of the match {m}"
        return f"the position in the text where {what} {edge}"
    if name == "span" and len(args) <= 1:
        what = f"the match {m}" if whole else f"group {number} of the match {m}"
        return f"the pair of the positions where {what} starts and ends (the end just after it)"
    raise Undescribable(f"the match method {name} with {len(args)} arguments")
