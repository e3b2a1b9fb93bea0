"""collections.abc (and its aliases in typing): the abstract kinds of value `isinstance` checks against,
each said by which plain values belong to it."""

from __future__ import annotations

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = ("collections.abc", "typing")


def _plain_only(words: str, kind: str):
    """Words exact for every plain value (numbers, text, lists, dictionaries, ...); an object of a class
    of the code belongs or not by the methods its class defines, which these words do not say, unless its
    class defines none that matters (`facts.plainly_kinded`: a kind of error of its own, say)."""
    def said(say) -> str:
        if say.classes - say.plainly_kinded:
            raise Undescribable(f"isinstance against {kind} where the code defines classes of its own")
        return words
    return said


# what `isinstance(x, K)` asks, as "x is ..."; the built-in kinds in each were read off Python's own
# registrations (a kind is Iterable when it can be gone through, Hashable unless it is changeable)
TYPES = {
    "Iterable": _plain_only("something that can be gone through item by item (text, bytes, a list, tuple, "
                            "dictionary or set, a range, or values worked out one at a time; not a number, "
                            "true, false or None)", "Iterable"),
    "Hashable": _plain_only("a value that can be a dictionary key (anything but a list, a dictionary, a set or a "
                            "changeable bytes value; a tuple counts whatever it holds)", "Hashable"),
    "Sequence": _plain_only("a sequence with positions (text, bytes, a list, a tuple or a range; not a "
                            "dictionary or a set)", "Sequence"),
    "Mapping": _plain_only("a dictionary", "Mapping"),
    "Sized": _plain_only("something with a length (text, bytes, a list, tuple, dictionary or set, or a range; "
                         "not a number, true, false or None)", "Sized"),
}
WORDS: dict = {}
