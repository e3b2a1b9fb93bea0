"""itertools: the ways of going through values it makes, said as "the results of ..." (worked out one at
a time, once: the `lazy` rule), each with the order it gives them in."""

from __future__ import annotations

import libcst as cst

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "itertools"


def _count(node, what: str) -> int | None:
    """A whole number written in the code (`repeat=2`), or None."""
    if isinstance(node, cst.Integer):
        return int(node.value.replace("_", ""), 0)
    raise Undescribable(f"itertools.{what} with a computed count")


def product(say, args, keywords) -> str:
    if set(keywords) - {"repeat"} or not args:
        raise Undescribable("this use of itertools.product")
    repeat = _count(keywords["repeat"], "product") if "repeat" in keywords else 1
    sources = [say.grouped(a) for a in args] * repeat
    if len(sources) == 1:
        return f"the results of putting each item of {sources[0]} in a tuple of its own, in order{say.cite('lazy')}"
    picks = say.join([f"one item of {s}" for s in sources])
    return (f"the results of taking {picks}, as a tuple in that order, for every such choice: the last one changes "
            f"fastest, each going through its items in order (none at all if any of them is empty){say.cite('lazy')}")


def combinations(say, args, keywords) -> str:
    if len(args) != 2 or keywords:
        raise Undescribable("this use of itertools.combinations")
    source, r = say.grouped(args[0]), say.grouped(args[1])
    return (f"the results of taking {r} items of {source} at different positions, kept in their order there, as a "
            f"tuple, for every such choice of positions, the choices in order of their positions as in a dictionary "
            f"(for 3 items and 2 at a time: positions 0 and 1, 0 and 2, then 1 and 2; none if {r} is more than the "
            f"number of items){say.cite('lazy')}")


def permutations(say, args, keywords) -> str:
    if keywords or len(args) not in (1, 2):
        raise Undescribable("this use of itertools.permutations")
    source = say.grouped(args[0])
    r = say.grouped(args[1]) if len(args) == 2 else "all the"
    return (f"the results of taking {r} items of {source} at different positions, in the order they are picked, as a "
            f"tuple, for every such ordered choice of positions, the choices in order of their positions as in a "
            f"dictionary (for 3 items and 2 at a time: positions 0 then 1, 0 then 2, 1 then 0, 1 then 2, 2 then 0, 2 "
            f"then 1){say.cite('lazy')}")


def chain(say, args, keywords) -> str:
    if keywords or not args:
        raise Undescribable("this use of itertools.chain")
    return f"the results of going through {say.join([f'the items of {say.grouped(a)}' for a in args])}, one after the other, in order{say.cite('lazy')}"


def chain_from_iterable(say, args, keywords) -> str:
    if keywords or len(args) != 1:
        raise Undescribable("this use of itertools.chain.from_iterable")
    return (f"the results of going through the items of each item of {say.grouped(args[0])}, one item after the "
            f"other, in order{say.cite('lazy')}")


def _chain_spread(say, items) -> str:
    """`chain(*xs)`: the items of xs are handed over one by one, so it goes through them as `from_iterable` does."""
    return chain_from_iterable(say, [items], {})


def islice(say, args, keywords) -> str:
    if keywords or len(args) not in (2, 3):
        raise Undescribable("this use of itertools.islice")
    source = say.grouped(args[0])
    if len(args) == 2:
        return f"the results of taking the first {say.grouped(args[1])} items of {source} (all of them if it has fewer){say.cite('lazy')}"
    start, stop = (say.grouped(a) for a in args[1:])  # None for a bound means no bound: from 0, to the end
    stop_said = "to the end" if _none(args[2]) else f"up to but not including {stop}" + (
        "" if isinstance(args[2], cst.Integer) else " (to the end if it is None)")
    start_said = "0" if _none(args[1]) else start + ("" if isinstance(args[1], cst.Integer) else " (0 if it is None)")
    return (f"the results of taking the items of {source} at positions from {start_said} {stop_said}, counting "
            f"from 0 (only those it has){say.cite('lazy')}")


def _none(node) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def zip_longest(say, args, keywords) -> str:
    """Side by side to the end of the longest: the ones that ran out give the fill value (None unless given)."""
    if set(keywords) - {"fillvalue"} or not args:
        raise Undescribable("this use of itertools.zip_longest")
    fill = say.grouped(keywords["fillvalue"]) if "fillvalue" in keywords else "None"
    return (f"the results of taking the items at the same position in {say.join([say.grouped(a) for a in args])}, "
            f"as a tuple in that order, for each position from 0 up to the end of the longest of them, {fill} "
            f"standing in for the item of each one that has no item at that position{say.cite('lazy')}")


def _zip_longest_spread(say, items) -> str:
    """`zip_longest(*rows)`: the items of rows side by side, to the end of the longest; no rows, no tuples."""
    rows = say.grouped(items)  # said once: said twice, a call in it would read as made twice
    return (f"the results of taking item k of each item of {rows}, in their order, as a tuple, for each position k "
            f"from 0 up to the end of the longest of them, None standing in for the item of each one that has no "
            f"item at position k (none at all if there are no items){say.cite('lazy')}")


def groupby(say, args, keywords) -> str:
    """Runs of neighbouring items with equal keys; each run's reader shares the one pass over the items."""
    if set(keywords) - {"key"} or len(args) not in (1, 2) or len(args) == 2 and "key" in keywords:
        raise Undescribable("this use of itertools.groupby")
    source = args[0]
    key = args[1] if len(args) == 2 else keywords.get("key")
    if key is None or isinstance(key, cst.Name) and key.value == "None":
        of, where = "the item itself", ""
    else:
        of, where = say.key_words(key, source)
    return (f"the results of cutting the items of {say.grouped(source)}, in order, into runs of neighbouring items "
            f"whose keys are equal (an item's key being {of}{where}; a run goes on while the next item's key equals "
            f"the key of the run's first item), each run given as a pair of that first key and a reader of the "
            f"run's items in order; once the next pair is taken, the reader of an earlier run gives no more "
            f"items{say.cite('lazy')}")


def tee(say, args, keywords) -> str:
    """Copies of one reader, each going through the same items on its own."""
    if keywords or len(args) not in (1, 2) or len(args) == 2 and not isinstance(args[1], cst.Integer):
        raise Undescribable("this use of itertools.tee")
    source = args[0]
    if not (isinstance(source, cst.Name) and say.facts is not None and source.value in say.inputs
            or say.sort_of(source) in ("list", "tuple", "str", "dict", "set")):
        raise Undescribable("itertools.tee of a reader (what it gives depends on whether the reader is used after)")
    count = _count(args[1], "tee") if len(args) == 2 else 2
    return (f"a tuple of {count} readers, each giving all the items of {say.grouped(args[0])} in order, one at a "
            f"time, independently of the others{say.cite('lazy')}")


def starmap(say, args, keywords) -> str:
    """A function called with each item's items as its inputs."""
    if keywords or len(args) != 2:
        raise Undescribable("this use of itertools.starmap")
    func = args[0]
    if isinstance(func, cst.Name) and func.value in say.helpers:
        named = f"the helper {func.value}"
    elif isinstance(func, cst.Name):
        named = f"the function held in {func.value}"
    elif isinstance(func, cst.Lambda):
        named = say.grouped(func)
    else:
        raise Undescribable("itertools.starmap with a function that is not a helper, a name or a lambda")
    return (f"the results of what {named} gives back when called with the items of each item of "
            f"{say.grouped(args[1])} as its inputs, in order, for each item in order{say.cite('lazy')}")


def count(say, args, keywords) -> str:
    """Numbers without end, from a start (0) by a step (1)."""
    placed = _placed(args, keywords, ("start", "step"), "count")
    start = say.grouped(placed[0]) if placed else "0"
    step = f"{say.grouped(placed[1])} added to the one before" if len(placed) == 2 else "1 more than the one before"
    return f"the results of counting without end: first {start}, then each number {step}{say.cite('lazy')}"


def _placed(args, keywords, places: tuple[str, ...], name: str) -> list:
    """The arguments by position, those given by name put in their places (none may be left out before one given)."""
    if set(keywords) - set(places[len(args):]) or len(args) > len(places):
        raise Undescribable(f"this use of itertools.{name}")
    placed = [*args, *(keywords[p] for p in places[len(args):] if p in keywords)]
    if any(p not in keywords for p in places[len(args):len(placed)]):
        raise Undescribable(f"this use of itertools.{name}")
    return placed


def repeat(say, args, keywords) -> str:
    placed = _placed(args, keywords, ("object", "times"), "repeat")
    if not placed:
        raise Undescribable("this use of itertools.repeat")
    value = say.grouped(placed[0])
    if len(placed) == 1:
        return f"the results of giving {value} again and again without end{say.cite('lazy')}"
    times = say.grouped(placed[1])
    return f"the results of giving {value} {times} times (none if that is 0 or less){say.cite('lazy')}"


def cycle(say, args, keywords) -> str:
    if keywords or len(args) != 1:
        raise Undescribable("this use of itertools.cycle")
    return (f"the results of going through the items of {say.grouped(args[0])} in order, then through them again "
            f"from the first, and so on without end (nothing at all if there are none){say.cite('lazy')}")


def _test(say, func) -> str:
    """What a predicate passed as a value asks of the item (None: the item itself)."""
    if isinstance(func, cst.Name) and func.value == "None":
        return "the item"
    return say.applied(func, "the item")


def takewhile(say, args, keywords) -> str:
    if keywords or len(args) != 2:
        raise Undescribable("this use of itertools.takewhile")
    say.rule("truth")
    return (f"the results of going through the items of {say.grouped(args[1])} in order, giving each for which "
            f"{_test(say, args[0])} counts as true, and stopping for good at the first for which it does not (that "
            f"item is used up but not given){say.cite('lazy')}")


def dropwhile(say, args, keywords) -> str:
    if keywords or len(args) != 2:
        raise Undescribable("this use of itertools.dropwhile")
    say.rule("truth")
    return (f"the results of going through the items of {say.grouped(args[1])} in order, skipping them while "
            f"{_test(say, args[0])} counts as true, then giving the first item for which it does not and every item "
            f"after it, without testing again{say.cite('lazy')}")


def filterfalse(say, args, keywords) -> str:
    if keywords or len(args) != 2:
        raise Undescribable("this use of itertools.filterfalse")
    say.rule("truth")
    return (f"the results of going through the items of {say.grouped(args[1])} in order, giving only those for "
            f"which {_test(say, args[0])} counts as false{say.cite('lazy')}")


def compress(say, args, keywords) -> str:
    placed = _placed(args, keywords, ("data", "selectors"), "compress")
    if len(placed) != 2:
        raise Undescribable("this use of itertools.compress")
    say.rule("truth")
    data, selectors = (say.grouped(a) for a in placed)
    return (f"the results of going through the items of {data} in order, giving each whose item at the same "
            f"position in {selectors} counts as true (stopping at the end of the shorter of the two){say.cite('lazy')}")


def pairwise(say, args, keywords) -> str:
    if keywords or len(args) != 1:
        raise Undescribable("this use of itertools.pairwise")
    return (f"the results of taking each two neighbouring items of {say.grouped(args[0])} as a pair, in order: the "
            f"first and second, then the second and third, and so on (none if there are fewer than 2 "
            f"items){say.cite('lazy')}")


def combinations_with_replacement(say, args, keywords) -> str:
    if len(args) != 2 or keywords:
        raise Undescribable("this use of itertools.combinations_with_replacement")
    source, r = say.grouped(args[0]), say.grouped(args[1])
    return (f"the results of taking {r} items of {source} at positions that never go down from one pick to the next "
            f"(the same position may be picked again), as a tuple in the order picked, for every such choice of "
            f"positions, the choices in order of their positions as in a dictionary (for 3 items and 2 at a time: "
            f"positions 0 and 0, 0 and 1, 0 and 2, 1 and 1, 1 and 2, then 2 and 2; none if there are no items and "
            f"{r} is above 0){say.cite('lazy')}")


def accumulate(say, args, keywords) -> str:
    """Running results from the left: sums unless a function of two inputs is given; `initial` goes first."""
    if set(keywords) - {"func", "initial"} or len(args) not in (1, 2) or len(args) == 2 and "func" in keywords:
        raise Undescribable("this use of itertools.accumulate")
    func = args[1] if len(args) == 2 else keywords.get("func")
    items = say.grouped(args[0])
    if func is None or isinstance(func, cst.Name) and func.value == "None":
        step = "the result so far plus the item"
        say.rule("plus")
    else:
        from ifforge.families.logicif.codeops.describe.vocab import lib_functools
        step = lib_functools.two_place(say, func)
    initial = keywords.get("initial")
    if initial is not None and not (isinstance(initial, cst.Name) and initial.value == "None"):
        start = f"giving first {say.grouped(initial)}, then for each item of {items} in order"
    else:
        start = (f"giving first the first item of {items} (nothing at all if there are no items), then for each "
                 f"following item in order")
    return (f"the results of a running combination, the last value given being the result so far: {start}, "
            f"{step}{say.cite('lazy')}")


WORDS = {"product": product, "combinations": combinations, "permutations": permutations, "chain": chain,
         "islice": islice, "zip_longest": zip_longest, "groupby": groupby, "tee": tee, "starmap": starmap,
         "chain.from_iterable": chain_from_iterable, "count": count, "repeat": repeat, "cycle": cycle,
         "takewhile": takewhile, "dropwhile": dropwhile, "filterfalse": filterfalse, "compress": compress,
         "pairwise": pairwise, "combinations_with_replacement": combinations_with_replacement,
         "accumulate": accumulate}
SPREAD = {"chain": _chain_spread, "zip_longest": _zip_longest_spread}
