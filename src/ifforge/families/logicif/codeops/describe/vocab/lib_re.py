"""re: the module's functions, each glossing its pattern from Python's own parser (regex.py)."""

from __future__ import annotations

import libcst as cst

from ifforge.families.logicif.codeops.describe import regex

LIBRARY = "re"


def _said(name: str):
    def said(say, args, keywords) -> str:
        call = cst.Call(func=cst.Attribute(cst.Name(LIBRARY), cst.Name(name)),
                        args=[*(cst.Arg(a) for a in args), *(cst.Arg(v, keyword=cst.Name(k)) for k, v in keywords.items())])
        return regex.module_call(say, name, call)
    return said


WORDS = {name: _said(name) for name in ("compile", "escape", "search", "match", "fullmatch", "findall", "finditer", "split", "sub")}
