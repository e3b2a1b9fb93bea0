"""core.pysource: comments and docstrings stripped from tokens, the same text as through libcst.

The token reading must follow libcst's tree exactly (the stripped text is in every LogicIF row):
each case below is one of its rules, and each is compared with the libcst stripper itself.
"""

import pytest

from ifforge.core.pysource import _strip_by_tokens, _strip_with_libcst, strip_comments_and_docstrings

CASES = {
    "comments and trailing space": "x = 1   # one\n# alone\ny = 2    \n",
    "module docstring and header": '#!/usr/bin/env python\n"""Module."""\n\nimport os\n',
    "docstring alone becomes pass": 'def f():\n    """Only this."""\n\ndef g():\n    return 1\n',
    "blank after a docstring stays": 'def f():\n    """Doc."""\n\n    x = 1\n    return x\n',
    "blank lines inside a body stay, spaces and all": "def f(a):\n    b = a\n\n    \n    return b\n",
    "a closed block's footer goes with its comment": (
        "def f(a):\n    if a:\n        b = 1\n\n        # about b\n    return a\n"),
    "a shallower comment leaves the blank to the next statement": (
        "def f(a):\n    if a:\n        b = 1\n\n    # next\n    return a\n"),
    "a whitespace line at the block's depth is footer": (
        "def f(a):\n    for x in a:\n        y = x\n        \n\n    return a\n"),
    "nested closes": "def f(a):\n    for x in a:\n        if x:\n            y = x\n\n\n  \n    return a\n",
    "nested def loses its leading lines": "def f():\n    x = 1\n\n    # helper\n    def g():\n        return x\n    return g()\n",
    "one-line def keeps them": "class A:\n    x = 1\n\n    def m(self): pass\n\n    def n(self): return 2\n",
    "decorated defs": (
        "def f():\n    x = 1\n\n    @staticmethod\n\n    def g():\n        return 1\n\n    @dec\n    def h(): pass\n"
        "    return g\n"),
    "decorated class keeps them": "def f():\n    x = 1\n\n    @dec\n    class C:\n        pass\n    return C\n",
    "class docstrings stay": 'class A:\n    """ItemsOnDisk."""\n\n    def m(self):\n        """Gone."""\n        return 1\n',
    "clauses": (
        "if a:\n    b = 1\n\n# c\nelif c:\n    b = 2\n\nelse:\n    b = 3\ntry:\n    x = 1\n\nexcept E:\n    x = 2\n"
        "finally:\n    pass\n"),
    "docstring kinds": (
        'def a():\n    ("paren")\n    return 1\ndef b():\n    "x" "y"\n    return 1\ndef c():\n    f"{1}"\n'
        '    return 1\ndef d():\n    b"bytes"\n    return 1\ndef e():\n    r"""raw\n    two lines"""  # c\n'
        '    return 1\ndef g():\n    "only"; x = 1\n    return x\n'),
    "async and comprehension": (
        "async def f(xs):\n    '''Doc.'''\n    # c\n    return [x  # not inside: refused\n            for x in xs]\n"),
    "no final newline": "def f():\n    return 1  # c",
    "top level blocks": "import os\nX = 1\n\n\n# c\nclass A:\n    pass\nY = 2\n@dec\ndef g():\n    pass\n",
    "string with hashes and trailing space inside": 'def f():\n    s = """a # b   \n   c"""  # d\n    return s\n',
    "match": "def f(p):\n    match p:\n\n        # c\n        case 1:\n            return 1\n\n        case _:\n            return 2\n",
    "comment inside brackets": "x = [1,  # one\n     2]\n",
    "tab": "def f():\n\treturn 1\n",
    "continuation": "x = 1 + \\\n    2\n",
    "semicolon at the end": "x = 1;   # c\n",
    "blank line inside brackets": "x = [\n\n    1]\n",
    "space before a colon": "try:\n    pass\nexcept (ValueError, KeyError) :\n    pass\n",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_token_stripper_gives_libcsts_text_or_leaves_it_to_libcst(name):
    source = CASES[name]
    want = _strip_with_libcst(source)
    got = _strip_by_tokens(source)
    assert got is None or got == want, name
    assert strip_comments_and_docstrings(source) == want


def test_the_token_stripper_takes_the_usual_sources_itself():
    """Refusing everything would also pass the test above: the common shapes are read from tokens."""
    unsure = {"comment inside brackets", "tab", "continuation", "semicolon at the end", "blank line inside brackets",
              "async and comprehension", "space before a colon"}
    taken = {name for name, source in CASES.items() if _strip_by_tokens(source) is not None}
    assert taken == set(CASES) - unsure


def test_a_source_neither_can_parse_raises_libcsts_error():
    import libcst as cst

    with pytest.raises(cst.ParserSyntaxError):
        strip_comments_and_docstrings("def f(:\n    pass\n")


def test_prose_is_left_to_libcst_which_refuses_it():
    """Any text has tokens: only what parses as Python is stripped from them (dedup keeps prose as written)."""
    import libcst as cst

    prose = "Rotate each row left, then sum the columns, twice over."
    assert _strip_by_tokens(prose) is None
    with pytest.raises(cst.ParserSyntaxError):
        strip_comments_and_docstrings(prose)
