"""What library functions mean, one file per library: the only place a library is named.

Each module here sets `LIBRARY` (its dotted module name, or a tuple of names that hold the same
functions) and `WORDS`, a table from a function's
name in that library to a handler `(say, args, keywords) -> str` that says a call of it in English
(or raises `Undescribable` for a use it has no exact words for). The speaker looks a call's resolved
dotted name up in `TABLE` once, so adding a library is adding a file here. A module may also set
`KINDS`, name -> the kind a call of it surely makes (`defaultdict` -> `dict`), for the roles pass, and
`STEPS`, name -> a handler that says a call of it standing alone as a step (`heapq.heappush`), and
`DECORATORS`, name -> a handler that says what decorating a function with it does (`functools.cache`),
and `SPREAD`, name -> a handler `(say, items)` saying a call whose only input is `*items` (`chain(*xs)`),
and `CONSTANTS`, name -> the words for a fixed value of the library read as an attribute (`math.pi`),
and `OBJECTS`, name of a maker -> {"methods": {name: handler (say, made, args, keywords)}, "fields":
{name: handler (say, made)}} for the objects it makes (`datetime.date(...).weekday()`), so a library used
through its objects' methods is one file too; and `TYPES`, name of a kind of value -> a handler `(say) -> str`
saying what `isinstance(x, kind)` asks ("x is ...", `collections.abc.Iterable`); and `SHAPES`, name of a base
class or class decorator -> the shape of the classes it makes that the describer knows ("record": a tuple whose
items are also named, `typing.NamedTuple`; "dataclass": fields made from the class's annotated lines,
`dataclasses.dataclass`, with `DATACLASS`, the words for such a class); and `CLASSES`, name of a
base class -> handlers saying a module-level class built on it, `C.NAME` and `C.NAME.attr` (`enum.Enum`); and `RULES`, key -> the one sentence a handler's `say.cite(key)` adds once as a note (how a binary search
ends, say), so a library's fine points live in its file too; and `AIDS`, names that only serve type checkers (a
base `Generic[T]`); and `PLAIN`, the names of its functions whose results are plain (text, numbers, true, false,
None, lists of these) when their inputs are, so values made by them may be shown (`plain.py`): a class built on one is told as without it, and a name read only by annotations and such bases
(`T = TypeVar("T")`) needs no words.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Callable

import libcst as cst

Handler = Callable[..., str]


CONSTANTS: dict[str, str] = {}  # dotted name of a library's fixed value -> its words
RULES: dict[str, str] = {}  # a rule's key -> its sentence, for the rules a library file brings
OBJECTS: dict[str, dict] = {}  # dotted name of a maker -> the words for its objects' methods and fields
CLASSES: dict[str, dict] = {}  # dotted name of a library's base class -> {"told", "attribute", "member_attribute"}
TYPES: dict[str, Handler] = {}  # dotted name of a library's kind of value -> (say) -> what `isinstance` against it asks
SHAPES: dict[str, str] = {}  # dotted name of a base class or class decorator -> the shape of class it makes
DATACLASS: dict[str, Handler] = {}  # "told": (say, name, fields, frozen) -> the line for a class of fields
PLAIN: set[str] = set()  # dotted names of library functions whose results are plain when their inputs are
AIDS: set[str] = set()  # dotted names of bases that only serve type checkers (`typing.Generic`)
SPREAD: dict[str, Handler] = {}  # dotted name -> (say, items_node) saying a call whose one input is `*items`
FILES: dict[str, set[str]] = {}  # vocabulary file -> the dotted names it gives words (for measuring what each saves)


def _collect() -> tuple[dict[str, Handler], dict[str, str], dict[str, Handler], dict[str, Handler]]:
    table: dict[str, Handler] = {}
    kinds: dict[str, str] = {}
    steps: dict[str, Handler] = {}
    decorators: dict[str, Handler] = {}
    for found in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{found.name}")
        for library in (module.LIBRARY,) if isinstance(module.LIBRARY, str) else module.LIBRARY:
            _register(module, library, table, kinds, steps, decorators)
    return table, kinds, steps, decorators


def _register(module, library: str, table: dict, kinds: dict, steps: dict, decorators: dict) -> None:
    FILES.setdefault(module.__name__.rpartition(".")[2], set()).update(
        f"{library}.{name}" for part in ("WORDS", "KINDS", "STEPS", "DECORATORS", "CONSTANTS")
        for name in getattr(module, part, {}))
    FILES[module.__name__.rpartition(".")[2]].update(f"{library}.{name}" for part in ("TYPES", "CLASSES", "SHAPES")
                                                     for name in getattr(module, part, {}))
    FILES[module.__name__.rpartition(".")[2]].update(f"{library}.{name}" for name in getattr(module, "AIDS", ()))
    CLASSES.update((f"{library}.{name}", said) for name, said in getattr(module, "CLASSES", {}).items())
    TYPES.update((f"{library}.{name}", said) for name, said in getattr(module, "TYPES", {}).items())
    SHAPES.update((f"{library}.{name}", shape) for name, shape in getattr(module, "SHAPES", {}).items())
    DATACLASS.update(getattr(module, "DATACLASS", {}))
    AIDS.update(f"{library}.{name}" for name in getattr(module, "AIDS", ()))
    PLAIN.update(f"{library}.{name}" for name in getattr(module, "PLAIN", ()))
    FILES[module.__name__.rpartition(".")[2]].update(f"{library}.{maker}" for maker in getattr(module, "OBJECTS", {}))
    table.update((f"{library}.{name}", handler) for name, handler in module.WORDS.items())
    kinds.update((f"{library}.{name}", kind) for name, kind in getattr(module, "KINDS", {}).items())
    steps.update((f"{library}.{name}", step) for name, step in getattr(module, "STEPS", {}).items())
    decorators.update((f"{library}.{name}", said) for name, said in getattr(module, "DECORATORS", {}).items())
    CONSTANTS.update((f"{library}.{name}", words) for name, words in getattr(module, "CONSTANTS", {}).items())
    RULES.update(getattr(module, "RULES", {}))
    SPREAD.update((f"{library}.{name}", said) for name, said in getattr(module, "SPREAD", {}).items())
    OBJECTS.update((f"{library}.{maker}", said) for maker, said in getattr(module, "OBJECTS", {}).items())


TABLE, KINDS, STEPS, DECORATORS = _collect()
LIBRARIES = {dotted.rpartition(".")[0] for dotted in TABLE}  # a call into one of these not in TABLE has no words


def kind_of(dotted: str | None) -> str | None:
    """The kind a call of `dotted` surely makes: `collections.defaultdict` as written, or `defaultdict`
    alone (as `from collections import defaultdict` binds it)."""
    if dotted is None:
        return None
    return KINDS.get(dotted) or next((kind for name, kind in KINDS.items() if "." not in dotted
                                      and name.rpartition(".")[2] == dotted), None)


def applied(say, dotted: str, items: list[str]) -> str:
    """What the library function `dotted`, passed as a value (`map(math.sqrt, xs)`, `reduce(operator.mul, xs)`),
    gives for inputs already in words: its handler says a call on stand-in names, each then replaced by its
    input's words."""
    marks = [cst.Name(f"STANDIN{i}MARK") for i in range(len(items))]
    text = TABLE[dotted](say, marks, {})
    for mark, item in zip(marks, items):
        text = text.replace(mark.value, item)
    return text
