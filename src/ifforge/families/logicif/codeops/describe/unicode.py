"""English for the `unicodedata` functions benchmark code may call: each names the Unicode property it
reads, in the Unicode version the gold was computed with, so a reader with the Unicode tables gets the
same answer. Only the plain forms: a call with keywords or other arguments is not said."""

from __future__ import annotations

import unicodedata

from ifforge.families.logicif.codeops.describe.errors import Undescribable

# function -> {number of arguments: words with {0}, {1} for the arguments and {v} for the version}
_WORDS = {
    "category": {1: 'the two-letter Unicode {v} general category of the character {0} (such as "Lu" for a capital '
                    'letter, "Nd" for a decimal digit, "Cn" for a code point with nothing assigned)'},
    "east_asian_width": {1: 'the Unicode {v} East Asian Width of the character {0} ("F", "H", "W", "Na", "A" or "N")'},
    "bidirectional": {1: 'the Unicode {v} bidirectional class of the character {0} (such as "L", "R" or "AN"; empty '
                         'text when it has none)'},
    "combining": {1: "the Unicode {v} canonical combining class of the character {0} (0 when it has none)"},
    "mirrored": {1: "1 if the character {0} is mirrored in Unicode {v}, otherwise 0"},
    "decomposition": {1: 'the Unicode {v} decomposition of the character {0} as text (its code points in capital '
                         'hexadecimal, separated by spaces, after a tag such as "<compat>" if it has one; empty text '
                         'when it has none)'},
    "normalize": {2: "{1} in the Unicode {v} normalization form {0}"},
    "is_normalized": {2: "whether {1} is already in the Unicode {v} normalization form {0}"},
    "name": {1: "the Unicode {v} name of the character {0} (the steps stop with an error if it has none)",
             2: "the Unicode {v} name of the character {0}, or {1} if it has none"},
    "lookup": {1: "the character whose Unicode {v} name or name alias is {0}, letter case ignored (the steps stop "
                  "with an error if there is none)"},
    "decimal": {1: "the decimal digit value Unicode {v} gives the character {0} (the steps stop with an error if it "
                   "has none)", 2: "the decimal digit value Unicode {v} gives the character {0}, or {1} if it has none"},
    "digit": {1: "the digit value Unicode {v} gives the character {0} (the steps stop with an error if it has none)",
              2: "the digit value Unicode {v} gives the character {0}, or {1} if it has none"},
    "numeric": {1: "the numeric value Unicode {v} gives the character {0}, as a decimal number (the steps stop with "
                   "an error if it has none)",
                2: "the numeric value Unicode {v} gives the character {0}, as a decimal number, or {1} if it has none"},
}
OLD = "ucd_3_2_0"  # the frozen Unicode 3.2.0 tables the module also offers
FUNCTIONS = tuple(_WORDS)


def covers(dotted: str | None) -> bool:
    module, _, name = (dotted or "").rpartition(".")
    return module in ("unicodedata", f"unicodedata.{OLD}") and name in _WORDS


def words(dotted: str, args: list[str], keywords: dict) -> str:
    """The English for `dotted(*args)`; args are already in words."""
    module, _, name = dotted.rpartition(".")
    forms = _WORDS[name]
    if keywords or len(args) not in forms:
        raise Undescribable(f"{dotted} with these arguments")
    version = "3.2.0" if module.endswith(OLD) else unicodedata.unidata_version
    return forms[len(args)].format(*args, v=version)
