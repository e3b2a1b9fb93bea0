"""The rewrites of a seed's code, made with libcst: anonymised names (`anonymise`), state trackers
proposed, chosen and written into `f` (`trackers`), and one self-contained `f` for LogicIF's
executor (`self_contained`). They change the code the gold is computed from, so they never depend
on how that code is then told in English (`describe`) or where its inputs come from (`inputs`)."""
