"""collections: a dictionary that fills in what it lacks, a counter, and a queue with a largest size."""

from __future__ import annotations

import libcst as cst

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "collections"

# a type called with nothing, as a default: what it makes
_MADE = {"int": "0", "float": "0.0", "list": "a new empty list", "set": "a new empty set",
         "dict": "a new empty dictionary", "str": "empty text", "tuple": "an empty tuple", "bool": "false"}


def _default(say, factory: cst.BaseExpression) -> str:
    """What one call of the default factory gives, made anew at each missing key."""
    if isinstance(factory, cst.Name) and factory.value in _MADE:
        return _MADE[factory.value]
    if isinstance(factory, cst.Lambda) and not factory.params.params and not factory.params.kwonly_params \
            and not isinstance(factory.params.star_arg, cst.Param) and factory.params.star_kwarg is None:
        return f"{say.grouped(factory.body)} (worked out anew each time)"
    if isinstance(factory, cst.Name) and factory.value in say.helpers:
        return f"what the helper {factory.value} gives back with no inputs"
    raise Undescribable("a defaultdict whose default is made by a function of another kind")


def defaultdict(say, args, keywords) -> str:
    if keywords or len(args) > 2:
        raise Undescribable("this use of collections.defaultdict")
    start = f"a new dictionary holding the keys and values of {say.grouped(args[1])}" if len(args) == 2 else \
        "a new empty dictionary"
    if not args or isinstance(args[0], cst.Name) and args[0].value == "None":
        return f"{start} (an ordinary one: reading a key it lacks is an error)"
    return (f"{start} that, whenever a key it lacks is read with square brackets (not with get or in), first stores "
            f"{_default(say, args[0])} under that key and gives that")


def _builtin(name: str):
    """deque and Counter are said with the built-in containers (`list`, `set`), as the speaker's own."""
    def said(say, args, keywords) -> str:
        call = cst.Call(func=cst.Name(name), args=[*(cst.Arg(a) for a in args),
                                                   *(cst.Arg(v, keyword=cst.Name(k)) for k, v in keywords.items())])
        return say.builtin_call(name, call)
    return said


def deque(say, args, keywords) -> str:
    """A queue with a largest size (`deque(items, n)`, `deque(maxlen=n)`) keeps only the last n items put in;
    without one it is said with the built-in containers."""
    if len(args) == 2 and not keywords or len(args) <= 1 and set(keywords) == {"maxlen"}:
        size = args[1] if len(args) == 2 else keywords["maxlen"]
        if not (isinstance(size, cst.Name) and size.value == "None"):
            n = say.grouped(size)
            written = isinstance(size, cst.Integer)  # a count written in the code: its edge cases need no words
            start = f"a new queue of the last {n} items of {say.grouped(args[0])}, in order (all of them if there are " \
                    f"fewer{'' if written else f', none if {n} is 0'})" if args else "a new empty queue"
            edges = "" if written else f" (the steps stop with an error if {n} is negative; if {n} is None, there " \
                f"is no largest size and it holds all the items given, in order)"
            return (f"{start}, that holds at most {n} items from then on: putting an item at one end of it when it is "
                    f"full drops one from the other end{edges}")
        args, keywords = args[:1], {}
    return _builtin("deque")(say, args, keywords)


def ordered(say, args, keywords) -> str:
    """An OrderedDict made empty or from one collection is a dictionary (every dictionary keeps its order),
    save that two of them compare equal only in the same order."""
    if keywords or len(args) > 1:
        raise Undescribable("this use of collections.OrderedDict")
    return (f"{_builtin('dict')(say, args, keywords)} (an ordered one: two ordered dictionaries are equal only if "
            f"their keys also come in the same order)")


WORDS = {"defaultdict": defaultdict, "deque": deque, "Counter": _builtin("Counter"), "OrderedDict": ordered}
KINDS = {"defaultdict": "dict", "Counter": "counter", "OrderedDict": "dict"}
