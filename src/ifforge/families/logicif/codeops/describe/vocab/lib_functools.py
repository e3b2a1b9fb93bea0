"""functools: the caching decorators, said as the memory they give a function."""

from __future__ import annotations

import libcst as cst

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "functools"

_REMEMBERS = ("it remembers what it gives back for each set of inputs (called again with inputs equal to earlier "
              "ones, it gives back the remembered value at once, without doing its steps again; an input that is a "
              "list, dictionary or set stops the steps with an error)")


def cache(say, args, keywords) -> str:
    return _REMEMBERS


def lru_cache(say, args, keywords) -> str:
    """Only an unbounded cache: a bounded one forgets, and which calls run again would need its order."""
    size = args[0] if args else keywords.get("maxsize")
    if set(keywords) - {"maxsize"} or not (isinstance(size, cst.Name) and size.value == "None"):
        raise Undescribable("a cache of limited size (lru_cache)")
    return _REMEMBERS


def two_place(say, func) -> str:
    """What a function of two inputs gives for the result so far and the next item."""
    if isinstance(func, cst.Name) and func.value in say.helpers:
        return f"what the helper {func.value} gives back for the result so far and the item"
    if say.library_function(func):  # `operator.mul`: a library function, said on the two
        from ifforge.families.logicif.codeops.describe import vocab  # this file is loaded while vocab is
        return vocab.applied(say, say.resolved(func), ["the result so far", "the item"])
    if isinstance(func, cst.Lambda):
        params = func.params
        if len(params.params) == 2 and not (params.kwonly_params or params.posonly_params or params.star_kwarg
                                            or isinstance(params.star_arg, cst.Param)):
            first, second = (p.name.value for p in params.params)
            return f"{say.grouped(func.body)} (with {first} standing for the result so far and {second} for the item)"
    raise Undescribable("functools.reduce with a function that is not a helper or a lambda of two inputs")


def reduce(say, args, keywords) -> str:
    """Folding from the left: the first item (or the start value) is the result so far."""
    if keywords or len(args) not in (2, 3):
        raise Undescribable("this use of functools.reduce")
    combined = two_place(say, args[0])
    items = say.grouped(args[1])
    if len(args) == 3:
        start = f"start with {say.grouped(args[2])} as the result so far, then for each item of {items} in order"
    else:
        start = (f"start with the first item of {items} as the result so far (with no items at all, the steps stop "
                 f"with an error), then for each following item in order")
    return f"the result of combining the items of {items} from first to last: {start}, replace the result so far " \
           f"by {combined}"


def partial(say, args, keywords) -> str:
    """A function with its first inputs fixed now (their values as they are at this step), the rest given later."""
    if keywords or len(args) < 2:
        raise Undescribable("this use of functools.partial")
    func = args[0]
    named = f"the function {func.value}" if isinstance(func, cst.Name) else say.grouped(func)
    fixed = say.join([say.grouped(a) for a in args[1:]])
    return (f"{named} with {fixed} fixed as its first input{'s' if len(args) > 2 else ''} (as {'they are' if len(args) > 2 else 'it is'} "
            f"at this step; called with more inputs, it is called with {'these' if len(args) > 2 else 'this'} first, then those)")


WORDS: dict = {"reduce": reduce, "partial": partial}
DECORATORS = {"cache": cache, "lru_cache": lru_cache}
