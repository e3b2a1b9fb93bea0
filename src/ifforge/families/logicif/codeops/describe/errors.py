"""The one error of the describer: a construct English cannot say clearly, named for the drop reason."""

from __future__ import annotations


class Undescribable(ValueError):
    """A construct with no clear English rendering; `construct` names it for the drop reason."""

    def __init__(self, construct: str):
        super().__init__(f"no plain-English rendering for {construct}")
        self.construct = construct
