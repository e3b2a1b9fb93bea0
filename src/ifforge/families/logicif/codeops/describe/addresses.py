"""English for IP addresses read from text (`ipaddress.ip_address`): which texts are valid IPv4 and IPv6
addresses, said as the checks Python's own parser makes, so a reader can decide any text by hand.

An address object is said only by its kind (IPv4 or IPv6): `check_uses` drops code that does more with
one (writes it as text, compares it, reads its parts), since its words would not pin that down.
"""

from __future__ import annotations

import libcst as cst

from ifforge.families.logicif.codeops.common.walk import Reader, walk
from ifforge.families.logicif.codeops.describe.errors import Undescribable

IPV4 = ('A text is a valid IPv4 address when it is four parts joined by ".", each part one to three of the '
        'digits 0 to 9, at most 255, and starting with 0 only if it is "0".')
IPV6 = ('A text is a valid IPv6 address when it has no "/", the part of it before its first "%" (all of it when '
        'it has none) is written in IPv6 form, and the part after that "%", if there is one, is not empty and holds '
        'no other "%". A text is written in IPv6 form when, split at every ":", a last piece holding a "." is a '
        'valid IPv4 address (counting as two groups), every other piece that is not empty is one group of one to '
        'four hexadecimal digits (0 to 9, a to f, A to F), and either there are exactly eight groups and no empty '
        'piece, or "::" occurs in the text exactly once (":::" counts as twice), there are at most seven groups, '
        'and the text starts with ":" only if it starts with "::" and ends with ":" only if it ends with "::".')
RULE = f"{IPV4} {IPV6}"

MAKERS = {"ipaddress.ip_address": "the IP address the text {0} spells: an IPv4 address if it is a valid IPv4 "
                                   "address, otherwise an IPv6 address if it is a valid IPv6 address (the steps "
                                   "stop with an error if it is neither)",
           "ipaddress.IPv4Address": "the IPv4 address the text {0} spells (the steps stop with an error if it is "
                                    "not a valid IPv4 address)",
           "ipaddress.IPv6Address": "the IPv6 address the text {0} spells (the steps stop with an error if it is "
                                    "not a valid IPv6 address)"}
KINDS = {"ipaddress.IPv4Address": "an IPv4 address", "ipaddress.IPv6Address": "an IPv6 address"}


def covers(dotted: str | None) -> bool:
    return dotted in MAKERS


def words(dotted: str, args: list[str], keywords: dict, text: bool) -> str:
    """The English for `dotted(*args)`; args are already in words, `text` says the argument is surely text
    (a whole number makes an address too, by other rules)."""
    if keywords or len(args) != 1 or not text:
        raise Undescribable(f"{dotted} with these arguments")
    return MAKERS[dotted].format(args[0])


def check_uses(module: cst.Module, resolve) -> None:
    """Raise unless every address made is kept in a name (or thrown away), and every such name is only
    asked its kind (`isinstance(name, ...)`)."""
    made, fine, kept, names = [], set(), set(), []  # fine: ids of the places an address may stand

    class Uses(Reader):
        def visit_Call(self, node: cst.Call) -> None:
            if covers(resolve(node.func)):
                made.append(node)
            if isinstance(node.func, cst.Name) and node.func.value == "isinstance" and node.args:
                fine.add(id(node.args[0].value))

        def visit_Assign(self, node: cst.Assign) -> None:
            fine.update(id(t.target) for t in node.targets)
            if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
                fine.add(id(node.value))
                if isinstance(node.value, cst.Call) and covers(resolve(node.value.func)):
                    kept.add(node.targets[0].target.value)

        def visit_Expr(self, node: cst.Expr) -> None:
            fine.add(id(node.value))

        def visit_Name(self, node: cst.Name) -> None:
            names.append(node)

    walk(module, Uses())
    if any(id(call) not in fine for call in made) or any(n.value in kept and id(n) not in fine for n in names):
        raise Undescribable("an IP address object used for more than its kind")
