"""English for the pure path and URL functions benchmark code may call (`os.path`, `posixpath`,
`urllib.parse`): each said as the string operation it is, so a reader can compute it by hand.
Only the plain forms: a call with keywords or extra arguments is not said (the caller drops it)."""

from __future__ import annotations

import os
import posixpath

from ifforge.families.logicif.codeops.describe.errors import Undescribable

SLASH = '"/"'
# function -> (number of arguments, words with {0}, {1}... for them); "*" takes one or more
_WORDS = {
    "basename": (1, f"the part of {{0}} after its last {SLASH} (all of {{0}} when it has no {SLASH})"),
    "dirname": (1, f"the part of {{0}} before and including its last {SLASH} (empty text when it has none), "
                   f"then with the {SLASH} characters at its end removed unless it is made of {SLASH} alone"),
    "isabs": (1, f"whether {{0}} starts with {SLASH}"),
    "normcase": (1, "{0} itself"),
    "commonprefix": (1, "the longest beginning that every item of {0} shares (empty text when {0} has no items)"),
    "join": ("*", f"{{0}}, then each of {{rest}} in turn added to it: a part that starts with {SLASH} replaces "
                  f"everything so far, any other part is appended, with a {SLASH} between unless what there is so "
                  f"far is empty or ends with {SLASH}"),
    "normpath": (1, f"{{0}} tidied as a path: split it at every {SLASH} and drop the empty and \".\" pieces; each "
                    f"\"..\" removes the piece kept just before it if that is not \"..\", and is otherwise kept, except "
                    f"that it is dropped when nothing is kept yet and the path starts with {SLASH}; then join the kept "
                    f"pieces with {SLASH} between them, put {SLASH} in front if the path starts with {SLASH} (two if "
                    f"it starts with exactly two), and give \".\" if that is empty"),
    "splitext": (1, f"the pair of (the part of {{0}} before its last \".\") and (the part of {{0}} from its last \".\" to "
                    f"the end) when that \".\" comes after the last {SLASH} of {{0}} and something other than \".\" "
                    f"stands between the two (between the start of {{0}} and that \".\" when {{0}} has no {SLASH}); "
                    f"otherwise (no \".\" there, or only dots before it) the pair of {{0}} and \"\" (empty text)"),
    "split": (1, f"the pair of (the part of {{0}} before and including its last {SLASH} (empty text when it has "
                 f"none), then with the {SLASH} characters at its end removed unless it is made of {SLASH} alone) and "
                 f"(the part of {{0}} after its last {SLASH} (all of {{0}} when it has no {SLASH}))"),
    "unquote": (1, '{0} with every escape "%" followed by two hexadecimal digits (either case) read as a byte, and '
                   "each run of such bytes turned into the characters whose UTF-8 encoding it is (each byte that "
                   'cannot start a character, and each character cut short, becomes "\\ufffd"); a "%" not followed '
                   "by two hexadecimal digits stays"),
    "quote": (1, "{0} with every character that is not an ASCII letter, a digit or one of \"_.-~/\" replaced by the "
                 "bytes of its UTF-8 encoding, each written as \"%\" and two hexadecimal digits in capitals"),
}
_PATH = {"basename", "dirname", "isabs", "normcase", "join", "normpath", "commonprefix", "splitext", "split"}
MODULES = {"os.path": _PATH, "posixpath": _PATH,
           "urllib.parse": {"quote", "unquote"}}


def covers(dotted: str | None) -> bool:
    module, _, name = (dotted or "").rpartition(".")
    return name in MODULES.get(module, ())


def words(dotted: str, args: list[str], keywords: dict) -> str:
    """The English for `dotted(*args)`; args are already in words."""
    name = dotted.rpartition(".")[2]
    count, text = _WORDS[name]
    if keywords or (count == "*" and len(args) < 1) or (count != "*" and len(args) != count):
        raise Undescribable(f"{dotted} with these arguments")
    if count == "*":
        if len(args) == 1:
            return args[0]
        rest = args[1] if len(args) == 2 else ", ".join(args[1:-1]) + " and " + args[-1]
        return text.format(args[0], rest=rest)
    return text.format(*args)


def rules_check(left: str | None, right: str | None, holds: bool) -> str | None:
    """`os.path is posixpath` (either way round), asking which system's path rules apply: the words
    say them as above, POSIX's, so the check holds (or, with `holds` false, fails) here; else None."""
    if {left, right} != {"os.path", "posixpath"}:
        return None
    if os.path is not posixpath:
        raise Undescribable("a check of which system's path rules apply, on a system without POSIX paths")
    return "paths follow POSIX rules here (they do, so this is true)" if holds else \
        "paths do not follow POSIX rules here (they do, so this is false)"
