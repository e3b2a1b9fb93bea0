"""What the common methods of text, lists, dictionaries, sets and bytes give back, in English.

One table, keyed by (method name, number of positional arguments): `{o}` is the owner's phrase and
`{0}`, `{1}`, ... the arguments' phrases, all already in words. Each entry says the exact result,
edge cases included (a missing item, an empty owner, a negative width). Methods whose meaning
depends on the owner's type (`pop`, `index`, `count`) say it for each type they apply to. The
rules a template relies on are named beside it, so the Speaker can cite them.
"""

from __future__ import annotations

# (name, count) -> (template, rule keys it relies on)
METHODS: dict[tuple[str, int], tuple[str, tuple[str, ...]]] = {
    # ---- text: tests ----
    ("isdigit", 0): ("{o} consists only of digits (and is not empty)", ()),
    ("isdecimal", 0): ("{o} consists only of decimal digits (and is not empty)", ()),
    ("isnumeric", 0): ("{o} consists only of numeric characters (and is not empty)", ()),
    ("isalpha", 0): ("{o} consists only of letters (and is not empty)", ()),
    ("isalnum", 0): ("{o} consists only of letters and digits (and is not empty)", ()),
    ("isspace", 0): ("{o} consists only of whitespace (and is not empty)", ()),
    ("isascii", 0): ("{o} consists only of ASCII characters (true for empty text)", ()),
    ("isupper", 0): ("{o} has at least one cased letter and no lowercase letters", ()),
    ("islower", 0): ("{o} has at least one cased letter and no capital letters", ()),
    ("istitle", 0): ("{o} has at least one cased letter, each word starting with a capital followed only by "
                     "lowercase letters", ()),
    ("isidentifier", 0): ("{o} is a valid name: a letter or underscore first, then only letters, digits and "
                          "underscores (and is not empty)", ()),
    ("isprintable", 0): ("{o} has no control or other non-printable characters (true for empty text)", ()),
    ("startswith", 1): ("{o} starts with {0} (with a tuple: with any one of its texts)", ()),
    ("endswith", 1): ("{o} ends with {0} (with a tuple: with any one of its texts)", ()),
    ("startswith", 2): ("the part of {o} from position {1} to the end starts with {0}", ("slice",)),
    ("endswith", 2): ("the part of {o} from position {1} to the end ends with {0}", ("slice",)),
    # ---- text: new text ----
    ("upper", 0): ("{o} with every letter made a capital", ()),
    ("lower", 0): ("{o} with every letter made lowercase", ()),
    ("casefold", 0): ("{o} with every letter made lowercase (and a few letters such as the German sharp s "
                      "spelled out, ß as \"ss\")", ()),
    ("swapcase", 0): ("{o} with every capital made lowercase and every lowercase letter a capital", ()),
    ("capitalize", 0): ("{o} with its first character a capital and the rest lowercase", ()),
    ("title", 0): ("{o} with each word's first letter a capital and the rest lowercase (a word is a run of "
                   "letters)", ()),
    ("strip", 0): ("{o} without the whitespace at its start and end", ()),
    ("lstrip", 0): ("{o} without the whitespace at its start", ()),
    ("rstrip", 0): ("{o} without the whitespace at its end", ()),
    ("strip", 1): ("{o} without any of the characters of {0} at its start and end", ()),
    ("lstrip", 1): ("{o} without any of the characters of {0} at its start", ()),
    ("rstrip", 1): ("{o} without any of the characters of {0} at its end", ()),
    ("removeprefix", 1): ("{o} without {0} at its start (unchanged if it does not start with it)", ()),
    ("removesuffix", 1): ("{o} without {0} at its end (unchanged if it does not end with it)", ()),
    ("replace", 2): ("{o} with every occurrence of {0} replaced by {1} (left to right, not overlapping)", ()),
    ("replace", 3): ("{o} with the first {2} occurrences of {0} replaced by {1} (left to right, not "
                     "overlapping; all of them if {2} is negative)", ()),
    ("zfill", 1): ("{o} padded on the left with zeros to a length of {0} (after a leading + or - sign; "
                   "unchanged if it is already that long)", ()),
    ("center", 1): ("{o} with spaces added on both sides to a length of {0} (when one side needs one more, "
                    "that is the left side if {0} is odd, else the right; unchanged if it is already that long)", ()),
    ("center", 2): ("{o} with copies of the character {1} added on both sides to a length of {0} (when one side "
                    "needs one more, that is the left side if {0} is odd, else the right; unchanged if it is already "
                    "that long)", ()),
    ("ljust", 1): ("{o} with spaces added at its end to a length of {0} (unchanged if it is already that long)", ()),
    ("rjust", 1): ("{o} with spaces added at its start to a length of {0} (unchanged if it is already that "
                   "long)", ()),
    ("ljust", 2): ("{o} with copies of the character {1} added at its end to a length of {0} (unchanged if it "
                   "is already that long)", ()),
    ("rjust", 2): ("{o} with copies of the character {1} added at its start to a length of {0} (unchanged if "
                   "it is already that long)", ()),
    ("expandtabs", 0): ("{o} with each tab character replaced by spaces up to the next column that is a "
                        "multiple of 8 (columns counted from 0, restarting after each line break)", ()),
    ("expandtabs", 1): ("{o} with each tab character replaced by spaces up to the next column that is a "
                        "multiple of {0} (columns counted from 0, restarting after each line break; tabs are "
                        "simply removed when {0} is 0 or less)", ()),
    # ---- text: pieces and positions ----
    ("split", 0): ("the list of pieces of {o} split at each run of whitespace (leading and trailing whitespace "
                   "ignored, no empty pieces)", ()),
    ("split", 1): ("the list of pieces of {o} split at every occurrence of {0} (empty pieces kept; None "
                   "splits at runs of whitespace instead)", ()),
    ("split", 2): ("the list of pieces of {o} split at the first {1} occurrences of {0} from the left (the "
                   "rest stays in the last piece; all occurrences if {1} is negative)", ()),
    ("rsplit", 0): ("the list of pieces of {o} split at each run of whitespace (leading and trailing "
                    "whitespace ignored, no empty pieces)", ()),
    ("rsplit", 1): ("the list of pieces of {o} split at every occurrence of {0} (empty pieces kept)", ()),
    ("rsplit", 2): ("the list of pieces of {o} split at the last {1} occurrences of {0}, counting from the "
                    "right (the rest stays in the first piece; all occurrences if {1} is negative)", ()),
    ("partition", 1): ("the three texts: the part of {o} before the first occurrence of {0}, {0} itself, and "
                       "the part after it (or {o} itself and two empty texts if {0} does not occur)", ()),
    ("rpartition", 1): ("the three texts: the part of {o} before the last occurrence of {0}, {0} itself, and "
                        "the part after it (or two empty texts and {o} itself if {0} does not occur)", ()),
    ("splitlines", 0): ("the list of lines of {o} (line breaks removed; no piece after a final line break, none at "
                         "all for empty text)", ("lines",)),
    ("find", 1): ("the position of the first occurrence of {0} in {o}, or -1 if it does not occur", ()),
    ("find", 2): ("the position of the first occurrence of {0} in {o} that starts at position {1} or later, "
                  "or -1 if there is none", ("slice",)),
    ("find", 3): ("the position of the first occurrence of {0} in {o} that lies entirely in the part from "
                  "position {1} up to position {2}, or -1 if there is none", ("slice",)),
    ("rfind", 1): ("the position of the last occurrence of {0} in {o}, or -1 if it does not occur", ()),
    ("rfind", 2): ("the position of the last occurrence of {0} in {o} that starts at position {1} or later, "
                   "or -1 if there is none", ("slice",)),
    ("rfind", 3): ("the position of the last occurrence of {0} in {o} that lies entirely in the part from "
                   "position {1} up to position {2}, or -1 if there is none", ("slice",)),
    ("index", 1): ("the position of the first occurrence of {0} in {o} (an item equal to it, for a list; it "
                   "must be there, or the steps stop with an error)", ("in",)),
    ("index", 2): ("the position of the first occurrence of {0} in {o} at position {1} or later (it must be "
                   "there, or the steps stop with an error)", ("in", "slice")),
    ("rindex", 1): ("the position of the last occurrence of {0} in {o} (it must be there, or the steps stop "
                    "with an error)", ()),
    ("count", 1): ("how many times {0} occurs in {o} (for text: non-overlapping occurrences, and the length "
                   "plus 1 for empty text; for a list: items equal to it)", ("in",)),
    ("count", 2): ("how many times {0} occurs, without overlapping, in the part of {o} from position {1} to "
                   "the end", ("slice",)),
    ("count", 3): ("how many times {0} occurs, without overlapping, in the part of {o} from position {1} up "
                   "to position {2}", ("slice",)),
    ("encode", 0): ("the bytes of {o} in the UTF-8 encoding", ("bytes",)),
    ("encode", 1): ("the bytes of {o} in the encoding {0} (the steps stop with an error if a character has "
                    "none)", ("bytes",)),
    ("encode", 2): ("the bytes of {o} in the encoding {0}, characters that have none handled the {1} way",
                    ("bytes",)),
    ("decode", 0): ("the text the bytes {o} spell in the UTF-8 encoding (the steps stop with an error if they "
                    "are not valid UTF-8)", ("bytes",)),
    ("decode", 1): ("the text the bytes {o} spell in the encoding {0} (the steps stop with an error if they "
                    "are not valid in it)", ("bytes",)),
    ("decode", 2): ("the text the bytes {o} spell in the encoding {0}, invalid bytes handled the {1} way",
                    ("bytes",)),
    # ---- lists, dictionaries, sets, queues ----
    ("copy", 0): ("a copy of {o} (a new container holding the same items)", ()),
    ("pop", 0): ("the last item of {o}, removed from it (for a set: some item of it, removed)", ()),
    ("popleft", 0): ("the first item of {o}, removed from it", ()),
    ("popitem", 0): ("the (key, value) pair last added to {o}, removed from it", ()),
    ("keys", 0): ("the keys of {o}, in the order they were added", ()),
    ("values", 0): ("the values of {o}, in the order their keys were added", ()),
    ("items", 0): ("the (key, value) pairs of {o}, in the order they were added", ()),
    ("get", 1): ("the value stored under the key {0} in {o}, or None if there is none", ()),
    ("get", 2): ("the value stored under the key {0} in {o}, or {1} if there is none", ()),
    ("setdefault", 1): ("the value under the key {0} in {o}, first storing None there if absent", ()),
    ("setdefault", 2): ("the value under the key {0} in {o}, first storing {1} there if absent", ()),
    ("union", 1): ("a new set of the items that are in {o} or in {0} (or both)", ()),
    ("intersection", 1): ("a new set of the items that are in both {o} and {0}", ()),
    ("difference", 1): ("a new set of the items of {o} that are not in {0}", ()),
    ("symmetric_difference", 1): ("a new set of the items in exactly one of {o} and {0}", ()),
    ("issubset", 1): ("every item of {o} is also in {0}", ()),
    ("issuperset", 1): ("every item of {0} is also in {o}", ()),
    ("isdisjoint", 1): ("{o} and {0} have no item in common", ()),
    # ---- numbers ----
    ("bit_length", 0): ("the number of binary digits of the absolute value of {o} (0 for 0)", ()),
    ("is_integer", 0): ("{o} has no fractional part", ()),
    ("conjugate", 0): ("{o} itself", ()),
}

# methods that only ever answer yes or no
TESTS = {name for (name, _), (template, _) in METHODS.items() if name.startswith(("is", "startswith", "endswith"))}

def method_words(name: str, owner: str, args: list[str]) -> tuple[str, tuple[str, ...]] | None:
    """(the phrase, the rules it relies on) for `owner.name(args)`, or None when the table has no entry."""
    entry = METHODS.get((name, len(args)))
    if entry is None:
        return None
    template, rules = entry
    return template.format(*args, o=owner), rules
