"""itertools: the combining iterators, said as the sequence of tuples they give."""

from __future__ import annotations

from ifforge.families.logicif.codeops.describe.errors import Undescribable

LIBRARY = "itertools"


def product(say, args, keywords) -> str:
    """Every combination, the last source changing fastest; read once, like any iterator."""
    if set(keywords) - {"repeat"} or not args:
        raise Undescribable("this use of itertools.product")
    say.rule("lazy")
    sources = say.join([say.grouped(a) for a in args])
    if "repeat" in keywords:
        times = say.grouped(keywords["repeat"])
        what = f"one item from {sources}" if len(args) == 1 else f"one item from each of {sources}"
        return (f"the results of taking {what}, {times} times over, as a tuple of the items taken, for every "
                f"combination in order (the last item taken changes fastest)")
    if len(args) == 1:
        return f"the results of putting each item of {sources}, in order, alone in a tuple"
    return (f"the results of taking one item from each of {sources}, as a tuple of those items in that order, for "
            f"every combination in order (the item from the last one changes fastest)")


WORDS = {"product": product}
