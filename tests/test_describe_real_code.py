"""Constructs real code uses, said in English: methods, formatting, regular expressions, functions as
values, bytes, identity, error classes; and a small sample of the real-code survival benchmark."""

from __future__ import annotations

import functools
import importlib.util
import re
import sys
from pathlib import Path

import pytest

from ifforge.families.logicif.codeops.describe.narrate import Undescribable, describe, holds_code
from ifforge.families.logicif.codeops.describe.regex import gloss
from ifforge.families.logicif.records import Tracker

COUNTER = [Tracker(name="loop_iterations", kind="loop_iterations", explanation="iterations of the loop")]


def _text(body: str, params: str = "a", module: str = "") -> str:
    source = (f"{module}\n\ndef f({params}):\n    stats = {{'loop_iterations': 0}}\n"
              + "".join(f"    {line}\n" for line in body.strip().splitlines()))
    text = describe(source, COUNTER, {}, "int")
    assert not holds_code(text), holds_code(text)
    return text


@pytest.mark.parametrize("expression, phrases", [
    ("a.partition(':')", ["before the first occurrence of \":\"", "two empty texts"]),
    ("a.find(':', 3)", ["starts at position 3 or later", "-1"]),
    ("a.expandtabs(4)", ["multiple of 4"]),
    ("a.rsplit('.', 1)", ["last 1 occurrences of \".\""]),
    ("a.encode('ascii')", ["bytes of a in the encoding \"ascii\""]),
    ("a.bit_length()", ["binary digits of the absolute value of a"]),
    ("a.removeprefix('x')", ["unchanged if it does not start with it"]),
])
def test_common_methods_say_their_result_and_edge_cases(expression, phrases):
    text = _text(f"r = {expression}\nreturn (r, stats)")
    for phrase in phrases:
        assert phrase in text


def test_printf_and_format_say_each_field_exactly():
    text = _text("r = '%s=%05.2f%%' % (a, b)\nreturn (r, stats)", "a, b")
    assert "a written as text" in text and "\"=\"" in text and "\"%\"" in text
    assert "exactly 2 digits after the point" in text and "padded after the sign with zeros to at least 5" in text
    text = _text("r = '{:>6}|{}'.format(a, b)\nreturn (r, stats)", "a, b")
    assert "padded on the left with spaces to at least 6 characters" in text and "\"|\"" in text
    text = _text("r = f'{a:x}-{b:,d}'\nreturn (r, stats)", "a, b")
    assert "hexadecimal with small letters" in text and "commas between groups of three digits" in text
    text = _text("r = '%r|%.3e|%.3d' % (a, b, b)\nreturn (r, stats)", "a, b")
    assert "a as Python displays it" in text and "in scientific notation: one digit, a point and 3 more digits" in text
    assert "with zeros put before its digits to make at least 3 of them" in text
    assert "%r|%.3e|%.3d" % ("x", 1234.5, -7) == "'x'|1.234e+03|-007"
    text = _text("r = '{0[1]}|{1!r:>6}|{1:.2g}'.format(a, b)\nreturn (r, stats)", "a, b")
    assert "item 1 of a written as text" in text and "b as Python displays it, padded on the left" in text
    assert "b rounded to 2 significant digits" in text and "the zeros at the end of the part after the point" in text
    assert "{0[1]}|{1!r:>6}|{1:.2g}".format("xy", 0.5) == "y|   0.5|0.5"
    text = describe("def f(a, b):\n    return format(a, '08b') + f'{b:,.{a}f}'\n", [], {"a": "int", "b": "float"}, "str")
    assert "a written in binary, padded after the sign with zeros to at least 8 characters" in text
    assert "with exactly a digits after the point" in text and "stop with an error if a is negative" in text
    assert format(5, "08b") + f"{1234.5:,.{1}f}" == "000001011,234.5"
    for unclear in ("r = '%.3x' % a", "r = '{0.real}'.format(a)", "r = '{:5}'.format(a)", "r = '%s %s' % a",
                    "r = f'{a:>{b}}'", "r = format(a, b)"):
        with pytest.raises(Undescribable):
            _text(unclear + "\nreturn (r, stats)")


def test_a_printf_template_given_at_run_time_is_said_with_the_rule_on_every_code():
    said = describe("def f(t, a, b):\n    return t % (a, b)\n", [], {"t": "str", "a": "int", "b": "str"}, "str")
    assert "the text that Python's printf-style formatting makes from the template t and the values a and b, in " \
           "this order" in said and "Printf-style formatting copies its template" in said and not holds_code(said)
    # a helper's `*rest` is a tuple, joined to a tuple by plus: its items are the values, in order
    said = describe("def g(t, v, *rest):\n    return t % ((v,) + rest)\n\ndef f(t, v):\n    return g(t, v)\n",
                    [], {"t": "str", "v": "Union[int, float]"}, "str")
    assert "from the template t and the items of ((a tuple holding just v) plus rest), in order, as its values" in said
    with pytest.raises(Undescribable, match="tuple or a dictionary"):  # a value of no known kind: ("%s" % (1,)) == "1"
        describe("def f(t, a):\n    return t % a\n", [], {"t": "str"}, "str")
    # what the rule says of the codes, as Python does it
    assert ("%g|%.2g|%#g|%G" % (1e6, 0.000012345, 1.0, 1e-10)) == "1e+06|1.2e-05|1.00000|1E-10"
    assert ("%.0e|%e|%.3d|%.3x|%5.1s|%-05d|%05s|%+ d|%*d" % (17.5, 0.0, 7, 255, "abc", 3, "ab", 3, -5, 3)) == \
        "2e+01|0.000000e+00|007|0ff|    a|3    |   ab|+3|3    "
    assert ("%d|%d|%c|%#o|%.1f|%ld" % (-2.7, True, 65, 8, 0.25, 5)) == "-2|1|A|0o10|0.2|5"
    assert ("%*d|%.*f|%.*s|%#06x|%#.3g" % (-3, 7, -1, 3.7, -2, "abc", 255, 1.0)) == "7  |4||0x00ff|1.00"


def test_regular_expressions_are_glossed_from_python_s_own_parser():
    words = gloss(r"^(\d+)-[a-f]*?$", re.MULTILINE)
    assert words.startswith("the pattern matching (the start of a line, then (group 1")
    assert "a digit repeated 1 or more times (as many as possible" in words
    assert "from \"a\" to \"f\"" in words and "as few as possible" in words and "the end of a line" in words
    assert "start and end of text also match" in words
    with pytest.raises(Undescribable):
        gloss(r"(a)(?(1)b|c)")
    module = "import re\n_num = re.compile(r'\\d+', re.ASCII)\n_find = re.compile('[^a-z]').search"
    text = _text("m = _num.match(a)\nif m is None:\n    return (0, stats)\nr = _find(m.group(0))\n"
                 "return (len(m.group()), stats)", module=module)
    assert "_num is the pattern matching a digit repeated" in text and "ASCII ones only" in text
    assert "the match of the pattern _num at the very start of a" in text
    assert "the whole text the match m covers" in text
    assert "the first match of the pattern matching one character that is none of" in text
    text = _text("return (re.sub('a+', '-', a), stats)", module="import re")
    assert "with every match of the pattern matching the text \"a\" repeated 1 or more times" in text


def test_functions_as_values_bytes_identity_and_error_classes():
    text = _text("r = list(map(str.upper, a))\nreturn (sorted(r, key=str.lower), stats)")
    assert "the results of each item with every letter made a capital" in text
    assert "by the item with every letter made lowercase" in text
    assert "worked out one at a time" in text  # the lazy rule
    text = _text("if a is b:\n    return (b'\\x00ab', stats)\nreturn (None, stats)", "a, b")
    assert "a is the very same object as b" in text and "the bytes \"\\u0000ab\"" in text
    module = "class Error(Exception):\n    pass\n\nclass BadCount(Error):\n    def __init__(self, n):\n        self.n = n"
    text = _text("if not isinstance(a, int):\n    raise BadCount(a)\nreturn (a, stats)", module=module)
    assert "BadCount is a kind of error of its own, a special case of Error" in text
    with pytest.raises(Undescribable, match="class other than a kind of error"):  # == on it is its own
        _text("return (Point(a) == Point(a), stats)", module="class Point:\n    def __init__(self, x):\n"
              "        self.x = x\n    def __eq__(self, other):\n        return True")


def test_a_dictionary_that_fills_in_what_it_lacks_is_told_with_its_method_and_fixed_values():
    module = ("from string import digits\n\nclass Codes(dict):\n    safe = b'-' + digits.encode('ascii')\n"
              "    def __missing__(self, key):\n        self[key] = chr(key) if key in self.safe else '?'\n"
              "        return self[key]\n\ncodes = Codes()\ncodes[32] = '_'\n")
    text = _text("return (codes[a], stats)", module=module)
    assert "First, once, build the fixed values:\n1. Set the value of codes under the key 32 to \"_\"." in text
    assert "An object of the class Codes is a dictionary, empty when made, that fills in what it lacks" in text
    assert 'starts with the field safe set to (the bytes "-") plus (the bytes of "0123456789" in the encoding' in text
    assert "The method __missing__ of an object self of the class Codes, called with key, does this:" in text
    assert "the value of self under the key key" in text and "the value of codes under the key a" in text
    with pytest.raises(Undescribable, match="class other than a kind of error"):  # made from items: not empty
        _text("return (Codes([(1, 'x')])[a], stats)", module=module.replace("codes = Codes()\ncodes[32] = '_'\n", ""))


def _benchmark():
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "real_code_survival.py"
    spec = importlib.util.spec_from_file_location("real_code_survival", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


def _why(bench, source: str) -> str | None:
    """Why the last function of `source` is not LogicIF-able, or None."""
    entry = [line for line in source.splitlines() if line.startswith("def ")][-1][4:].split("(")[0]
    return bench.logicif_able(bench.Picked("m", entry, source))


def test_real_code_survival_sample(tmp_path):
    """Three functions the benchmark's fixed rule picks, read from this interpreter at test time."""
    bench = _benchmark()
    picked = {p.task_id: p for p in bench.pick(["urllib.parse"], per_module=8)}
    assert "def _splitnetloc(" in picked["urllib_parse___splitnetloc"].source
    sample = [picked[name] for name in ("urllib_parse___splitnetloc", "urllib_parse___splitparams", "urllib_parse___noop")]
    results = {item.task_id: (stage, reason) for item, stage, reason, _ in bench.survive(sample, tmp_path)}
    assert results["urllib_parse___splitnetloc"] == ("exported", "ok")
    assert results["urllib_parse___splitparams"] == ("exported", "ok")
    assert results["urllib_parse___noop"] == ("instrument", "nothing_to_track")


def test_a_seed_holds_the_bindings_its_function_sees_when_called():
    """A def or class of the module body replaces a placeholder assigned before it (`enum.py`'s
    `Enum = None`), a fallback in an except handler does not replace the import it stands for, and
    an entry stored into a table after it is made is part of the table."""
    import ast

    bench = _benchmark()
    tree = ast.parse("X = Y = None\ntry:\n    from m import Z\nexcept ImportError:\n    def Z():\n        pass\n"
                     "class X:\n    pass\nT = {}\nT[1] = 'a'\n")
    index = bench._top_level(tree)
    assert isinstance(index["X"], ast.ClassDef) and isinstance(index["Y"], ast.Assign)
    assert isinstance(index["Z"], ast.ImportFrom)
    assert [ast.unparse(s) for s in bench._builders(tree)["T"]] == ["T[1] = 'a'"]


def test_a_placeholder_the_module_fills_in_a_later_if_is_taken_from_there():
    """`T: Any = None` then `if NEW: T = tuple`: the imported module holds a value, not None, so the
    seed takes the later assignment (a constant annotated `T[int]` failed to load with None); a
    placeholder the module leaves at None stays."""
    import ast

    bench = _benchmark()
    tree = ast.parse("T: Any = None\nU = None\nif NEW:\n    T = tuple\n    U = list\nelse:\n    T = list\n"
                     "K: T[int] = (1,)\n")
    index = bench._top_level(tree, {"T": tuple, "U": None})
    assert ast.unparse(index["T"]) == "T = tuple"
    assert ast.unparse(index["U"]) == "U = None"
    assert ast.unparse(bench._top_level(tree)["T"]) == "T: Any = None"


def test_a_seed_brings_postponed_annotations_where_read_ahead_and_what_its_defaults_read(tmp_path, monkeypatch):
    """A class naming itself in its methods' annotations loads only with its module's
    `from __future__ import annotations`; a seed that loads without it is left as it was."""
    (tmp_path / "ahead_module.py").write_text(
        "from __future__ import annotations\n\n\nclass Node:\n    def __init__(self, val: int, nxt: Node | None = None):\n"
        "        self.val, self.nxt = val, nxt\n\n\ndef build(values: list[int]) -> int:\n    head = None\n"
        "    for v in values:\n        head = Node(v, head)\n    return head.val if head else 0\n\n\n"
        "def plain(values: list[int]) -> int:\n    total = 0\n    for v in values:\n        total += v\n"
        "    return total\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    bench = _benchmark()
    ahead = bench.seed_source("ahead_module", "build")
    assert ahead.startswith("from __future__ import annotations\n") and "class Node:" in ahead
    namespace: dict = {}
    exec(compile(ahead, "seed", "exec"), namespace)  # loads: the annotation is never read
    assert namespace["build"]([1, 2]) == 2
    assert not bench.seed_source("ahead_module", "plain").startswith("from __future__")
    import ast
    # a default reading a module name as its own parameter is called (`cmp=cmp`) brings that name along
    assert bench._free_names(ast.parse("def f(a, cmp=cmp, n=len):\n    return cmp(a)\n").body[0]) == {"cmp"}
    inside = ast.parse("class Node:\n    def last(self):\n        found: Node = self\n        return found\n").body
    assert not bench._reads_ahead(inside)  # an annotation inside a body is read only if ever, when it runs
    assert bench._reads_ahead(ast.parse("class Node:\n    nxt: Node\n").body)


def test_a_helper_that_yields_is_told_as_steps_that_produce_values_lazily():
    module = ("def _runs(xs, limit):\n    for x in xs:\n        if x > limit:\n            return\n"
              "        yield x * 2\n        yield from [x]\n")
    text = _text("got = []\nfor v in _runs(a, 9):\n    stats['loop_iterations'] += 1\n    got.append(v)\n"
                 "    if len(got) > 3:\n        break\nreturn (got, stats)", module=module)
    assert "takes xs and limit and produces values one at a time" in text
    assert "runs only when its next value is asked for" in text  # the rule, said once
    assert text.count("runs only when its next value") == 1
    assert "If x is greater than limit, stop: there are no more values." in text
    assert "Produce (x times 2) as the next value." in text
    assert "Produce each of the items of a new list holding just x, in order, as the next values." in text
    # a helper's values come in the order it produces them: no note on dictionary order at this loop
    assert "For each v of (the values _runs produces with a and 9), in order:\n" in text
    taken = _text("r = _pairs(a)\nfirst = r.__next__()\nfor v in r:\n    stats['loop_iterations'] += 1\n"
                  "return (first, stats)", module="def _pairs(s):\n    yield s\n    yield s + s\n")
    assert "Set first to the next item the reader r gives" in taken
    assert "If it reaches the end of these steps, it stops: there are no more values." in taken
    with pytest.raises(Undescribable, match="truth of a helper's values"):  # true even when it has none
        _text("if _pairs(a):\n    return (1, stats)\nreturn (0, stats)", module="def _pairs(s):\n    yield s\n")
    with pytest.raises(Undescribable, match="main function that produces values"):
        describe("def f(a):\n    stats = {'loop_iterations': 0}\n    yield a\n", COUNTER, {}, "int")


def test_unicode_properties_name_the_unicode_version_and_dates_say_weekday_and_day_number():
    import unicodedata
    text = _text("for v in a:\n    stats['loop_iterations'] += 1\n"
                 "return ((unicodedata.category(a), east_asian_width(a), unicodedata.normalize('NFC', a)), stats)",
                 module="import unicodedata\nfrom unicodedata import east_asian_width")
    version = unicodedata.unidata_version
    assert f"the two-letter Unicode {version} general category of the character a" in text
    assert f'the Unicode {version} East Asian Width of the character a ("F", "H", "W", "Na", "A" or "N")' in text
    assert f'a in the Unicode {version} normalization form "NFC"' in text
    old = _text("for v in a:\n    stats['loop_iterations'] += 1\nreturn (ucd.category(a), stats)",
                module="from unicodedata import ucd_3_2_0 as ucd")
    assert "Unicode 3.2.0 general category" in old
    days = _text("for v in range(a):\n    stats['loop_iterations'] += 1\n"
                 "return ((day(a, 1, 4).isoweekday(), day(a, 1, 1).weekday(), datetime.date(a, 2, 1).toordinal(), "
                 "day(a, 5, 6).day), stats)", module="import datetime\nfrom datetime import date as day")
    assert "the weekday of the date day 4 of month 1 of year a (which must exist, in a year from 1 to 9999), as 1 " \
           "for Monday up to 7 for Sunday" in days
    assert "as 0 for Monday up to 6 for Sunday" in days and "the day of the month of the date day 6 of month 5" in days
    assert "the day number of the date day 1 of month 2 of year a" in days and "counting 1 January of year 1" in days
    with pytest.raises(Undescribable, match="method strftime of datetime.date"):
        _text("return (day(a, 1, 1).strftime('%A'), stats)", module="from datetime import date as day")


@pytest.mark.parametrize("path", ["", "/", "//", "///a//b/", "a/./b/../../..", "/../x/..", "../../a", "a/b/.."])
def test_normpath_words_follow_python_on_tricky_paths(path):
    """The words are steps; these are those steps done in Python, against posixpath itself."""
    import posixpath
    text = _text("for v in a:\n    stats['loop_iterations'] += 1\nreturn (posixpath.normpath(a), stats)",
                 module="import posixpath")
    assert "a tidied as a path" in text
    kept: list[str] = []
    for piece in path.split("/"):
        if piece in ("", "."):
            continue
        if piece != "..":
            kept.append(piece)
        elif kept and kept[-1] != "..":
            kept.pop()
        elif not (not kept and path.startswith("/")):
            kept.append(piece)
    front = "//" if path.startswith("//") and not path.startswith("///") else "/" if path.startswith("/") else ""
    assert (front + "/".join(kept) or ".") == posixpath.normpath(path)


def test_a_small_class_is_told_as_its_making_and_its_methods_with_the_object_named():
    module = ("class Tally(object):\n    'Counts.'\n    def __init__(self, start):\n        self.total = start\n"
              "    def add(self, n):\n        self.total += n\n        return self.twice()\n"
              "    def twice(self):\n        return self.total * 2\n\n_add = Tally(5).add\n")
    text = _text("r = 0\nfor v in a:\n    stats['loop_iterations'] += 1\n    r = _add(v)\nreturn (r, stats)",
                 module=module)
    assert "_add is the method add of one new object of the class Tally, made with 5 before any step (the same " \
           "object at every use)" in text
    assert "A new object of the class Tally, made with start, keeps its own fields" in text
    assert "Set the field total of self to start." in text
    assert "The method add of an object self of the class Tally, called with n, does this:" in text
    assert "Add n to the field total of self." in text
    assert "Return what its method twice gives back when called on self with no inputs." in text
    assert "Set r to what _add gives back with v." in text
    with pytest.raises(Undescribable, match="method of a class of the code used as a value"):
        _text("return (_add(1), stats)", module=module.replace("return self.twice()", "return self.twice"))
    with pytest.raises(Undescribable, match="called on an object made elsewhere"):  # never a list's add
        _text("t = a\nfor v in a:\n    stats['loop_iterations'] += 1\n    t.add(v)\nreturn (0, stats)",
              module=module)
    # a name set once to a new object of the class: its methods are the class's own, told above
    text = _text("t = Tally(1)\nfor v in a:\n    stats['loop_iterations'] += 1\n    t.add(v)\nreturn (t.total, stats)",
                 module=module)
    assert "Work out what the method add of the object t (of the class Tally) gives back when called with v (the " \
           "result is not kept)." in text and "Stop: the result is the field total of t." in text


def test_logicif_able_sees_outputs_and_inputs_no_json_value_can_be():
    """What the rule already excluded, in the forms its detection missed before (small functions of ours)."""
    bench = _benchmark()

    why = functools.partial(_why, bench)

    loop = "    for c in s:\n        if c:\n            pass\n"
    assert why(f"def f(s):\n{loop}    out = b''\n    out = out[:1] + out\n    return out\n") == "no JSON output: bytes"
    assert why(f"def f(s):\n{loop}    return ValueError(s)\n") == "no JSON output: an exception object"
    assert why(f"import re\n\ndef f(s):\n{loop}    return re.compile(s).match\n") == "no JSON output: a bound method"
    nested = f"def f(s):\n{loop}    def g(x):\n        return 1\n    return g\n"
    assert why(nested) == "no JSON output: a function"  # g's own return is not f's
    assert why(f"def h(x):\n    return x\n\ndef f(s):\n{loop}    return (s, h)\n") == "no JSON output: a function"
    assert why(f"import datetime\n\ndef f(s):\n{loop}    return datetime.date(2000, 1, s)\n") \
        == "no JSON output: a date object"
    assert why(f"def f(s) -> complex:\n{loop}    return s\n") == "no JSON output: annotated complex"
    lazy = f"def f(s, strict):\n{loop}    if strict:\n        def inner():\n            yield s\n        return inner()\n" \
           "    return iter(s)\n"
    assert why(lazy) == "no JSON output: a generator or an iterator"  # an inner generator made and returned
    assert why(f"from itertools import chain\n\ndef f(s):\n{loop}    return chain.from_iterable(s)\n") \
        == "no JSON output: a chain object"  # an alternate constructor makes its class's object
    assert why(f"def f(s):\n{loop}    return dict.fromkeys(s)\n") is None  # a dict is JSON
    ends = "def f(code):\n    try:\n        code = int(code)\n    except ValueError:\n        pass\n    raise SystemExit(code)\n"
    assert why(ends) == "no JSON output: none: every call ends in raise (no return)"
    assert why(ends.replace("        pass\n", "        return code\n")) is None  # one way out returns
    assert why("def f(rows):\n    return [r.name for r in rows if r.keep]\n") \
        == "no JSON inputs: the items of a parameter have .name"
    wants_bytes = "import binascii\n\ndef g(b):\n    return binascii.b2a_hex(b)\n\n"
    assert why(wants_bytes + f"def f(s):\n    t = g(s)\n{loop}    return len(t)\n") == \
        "no JSON inputs: passed to g, where a parameter (or a piece of it) is passed to a converter that takes bytes only"
    pieces = f"import binascii\n\ndef f(data, n):\n{loop}    piece = data[0:n]\n    return binascii.b2a_base64(piece)\n"
    assert why(pieces) == "no JSON inputs: a parameter (or a piece of it) is passed to a converter that takes bytes only"
    # still LogicIF-able: the helper only on one path, a JSON value on another, a class of the builtins
    assert why(wants_bytes + f"def f(s):\n{loop}    if isinstance(s, str):\n        return s\n    return len(g(s))\n") is None
    assert why(f"def f(s):\n{loop}    if s:\n        return b''\n    return s\n") is None
    assert why(f"def f(s):\n{loop}    return str(s)\n") is None
    either = "def f(s):\n    if isinstance(s, bytes):\n        sep = b'/'\n    else:\n        sep = '/'\n    return sep + s\n"
    assert why(either) is None  # bytes on one path only
    guarded = "def g(b):\n    if isinstance(b, bytes):\n        return b == b'**'\n    return b == '**'\n\n"
    assert why(guarded + f"def f(s):\n    t = g(s)\n{loop}    return t\n") is None


def test_logicif_able_leaves_out_outputs_no_json_input_can_vary_or_make_json():
    """Kinds of function that can never be a task: output no JSON value, or one output on every call."""
    bench = _benchmark()

    why = functools.partial(_why, bench)

    loop = "    for c in s:\n        if c:\n            pass\n"
    assert why("def f(*s):\n    return set(x + y for x in s for y in s)\n") == "no JSON output: a set"
    assert why("def f(s):\n    return {c for c in s if c}\n") == "no JSON output: a set"
    assert why("def f(s):\n    return ((c, 1) for c in s if c)\n") == "no JSON output: a generator"
    assert why(f"def f(s):\n{loop}    return map(str, s) if s else iter([])\n") is None  # a conditional: not surely
    assert why(f"def f(s):\n{loop}    if s:\n        return zip(s, s)\n    return iter(s)\n") \
        == "no JSON output: an iterator"
    # the name is the seed's own, or a class of the seed decides what iter() gives: kept
    assert why(f"def set(x):\n    return list(x)\n\ndef f(s):\n{loop}    return set(s)\n") is None
    own_iter = "class Box:\n    def __iter__(self):\n        return self\n\n"
    assert why(own_iter + f"def f(s):\n{loop}    return iter(s)\n") is None
    # one output: checks that raise, a module table filled, a default read with a number key
    check = f"def f(s, n):\n{loop}    if n < 0:\n        raise ValueError(n)\n"
    assert why(check) == "one output: every call returns null"
    assert why(check + "    return True\n") == "one output: every call returns true"
    assert why("TABLE = {}\n\ndef f(s, v):\n" + loop + "    TABLE[s] = v\n") == "one output: every call returns null"
    assert why(f"def f(s):\n{loop}    p = 'x'\n    if isinstance(s, bytes):\n        p = b'x'\n    return p\n") \
        == 'one output: every call returns "x"'
    keyed = "def f(s, i):\n{}    if s.get(i + 1) == 'H':\n        return ('F', 2)\n    return ('P', (s.get(0, 1) == 'P') + 1)\n"
    assert why(keyed.format(loop)) == \
        'no JSON inputs: s read only by .get() with a number for key, which a JSON object never has: every call ' \
        'returns ["P", 1]'
    # exactly right: each of these can give two outputs, so each stays
    assert why(check + "    if n:\n        return None\n    return n\n") is None
    assert why(check + "    if n:\n        return 1\n") is None  # the end of the body gives None
    assert why(f"def f(s, n):\n{loop}    s.append(n)\n") is None  # the pipeline returns the changed s
    assert why(keyed.format(loop).replace("s.get(i + 1)", "s.get(i)")) is None  # i may be a text key
    assert why(keyed.format(loop).replace("    if s.get", "    s[1] = 'H'\n    if s.get")) is None
    assert why(f"def f(s, n):\n{loop}    k = 0\n    while n > k:\n        k = k + 1\n    return k\n") is None
    branch = f"def f(s, n):\n{loop}    a = 1\n    if n or a:\n        a = 2\n    return a\n"
    assert why(branch.replace(" or ", " and ")) is None
    assert why(branch) == "one output: every call returns 2"  # `n or 1` is always true
    assert why(f"def f(s, n):\n{loop}    return 1 if n and s else 1\n") == "one output: every call returns 1"
    assert why(f"def f(s):\n{loop}    return None\n\n@f\ndef g(s):\n{loop}    return None\n") is None  # decorated
    # a name holding a parameter (or an item of it) called in every value returned: no JSON value can be called
    apply = "def f(*given):\n    if not given:\n        raise TypeError('none')\n    fn, rest = given[0], given[1:]\n"
    assert why(apply + "    return fn(*rest)\n") == \
        "no JSON inputs: fn holds a parameter or a piece of one, and every value returned calls it"
    assert why(apply + "    if len(rest) > 1:\n        return rest\n    return fn(*rest)\n") is None
    assert why(apply + "    fn = len\n    return fn(rest)\n") is None
    # a sort key called on every item asks it for an attribute no JSON value has
    meetings = "def f(spans):\n    spans = sorted(spans, key=lambda x: x.start)\n    for i in range(1, len(spans)):\n" \
               "        if spans[i][0] < spans[i - 1][1]:\n            return False\n    return True\n"
    assert why(meetings) == "no JSON inputs: the items of a parameter's value reach x.start in a sort key"
    assert why(meetings.replace("x.start", "x.count(0)")) is None  # lists have .count
    assert why(meetings.replace("x.start", "x.start if hasattr(x, 'start') else x")) is None  # not on every call


def test_logicif_able_decides_tests_no_json_value_can_pass():
    """Comparisons with bytes or tuples, `isinstance(p, type)`, math's tests of a number, a called piece
    of a parameter: each decided for every JSON input, so what is left is one output (or none)."""
    bench = _benchmark()

    why = functools.partial(_why, bench)

    header = "def f(h, f):\n    if h[:6] in (b'GIF87a', b'GIF89a'):\n        return 'gif'\n"
    assert why(header) == "one output: every call returns null"
    assert why("def f(h):\n    if h[4:8] != b'FSSD' or h[0:2] != b'HC':\n        return None\n    return 'hcom', h[9]\n") \
        == "one output: every call returns null"
    pair = "def f(pair):\n    if pair == ('a', 1):\n        return 'one'\n    return 'other'\n"
    assert why(pair) == 'one output: every call returns "other"'
    assert why("def f(cls, obj):\n    if not isinstance(obj, type):\n        return False\n    return getattr(obj, '__qualname__', '') == cls\n") \
        == "one output: every call returns false"
    finite = "import math\n\ndef f(v):\n    if math.isnan(v):\n        return 'NaN'\n    if math.isinf(v) and v < 0:\n" \
             "        return '-Inf'\n    return ''\n"
    assert why(finite) == 'one output: every call returns ""'
    check = "def f(sig, args):\n    n, func = sig\n    if len(args) < n:\n        return False\n    try:\n" \
            "        func(*args)\n        return True\n    except TypeError:\n        return False\n"
    assert why(check) == "one output: every call returns false"
    either = "def f(*ways):\n    for way in ways:\n        func, err = (way, 1) if callable(way) else way\n        return func()\n"
    assert why(either) == "no JSON inputs: func holds a parameter or a piece of one, and every value returned calls it"
    # exactly right: each of these can give two outputs, so each stays
    assert why("def f(h):\n    if len(h) >= 3 and h[0] == ord(b'P') and h[1] in b'14':\n        return 'pbm'\n") is None
    assert why(pair.replace("def f(pair)", "def f(pair=('a', 1))")) is None  # the default is a tuple
    assert why(pair.replace("('a', 1)", "['a', 1]")) is None  # a list display: a JSON array can equal it
    assert why(pair.replace("pair == ('a', 1)", "tuple(pair) == ('a', 1)")) is None
    assert why(finite.replace("import math", "import cmath as math")) is None
    assert why(finite.replace("import math\n", "import math\nmath = None\n")) is None
    assert why(check.replace("    try:\n", "    func = len\n    try:\n")) is None  # func is no longer only a piece
    assert why(check.replace("    except TypeError:\n        return False\n", "    except TypeError:\n        pass\n")) \
        is None  # the end of the body gives None
    # a return the sandbox refuses (not JSON) gives no output: what is left is one output
    node = "class Node:\n    def __init__(self, x):\n        self.x = x\n\n"
    build = "def f(nums):\n    if not nums:\n        return None\n    node = Node(nums[0])\n    return node\n"
    assert why(node + build) == "one output: every call returns null"
    walk = "def f(g, s):\n    if s not in g:\n        return None\n    seen, todo = set(), [s]\n    while todo:\n" \
           "        seen.add(todo.pop())\n    return seen\n"
    assert why(walk) == "one output: every call returns null"
    # a class the sandbox writes as JSON data (a dict, a tuple underneath), or a name bound another way too: kept
    assert why(node.replace("class Node:", "class Node(dict):") + build) is None
    assert why("import collections\n\n" + build.replace("Node(nums[0])", "collections.Counter(nums)")) is None
    assert why(walk.replace("    while todo:", "    if len(g) > 2 and (seen := list(g)):\n        return seen\n    while todo:")) \
        is None
    assert why(node.replace("    def __init__", "    def __new__(cls, x):\n        return x\n\n    def __init__") + build) \
        is None  # its __new__ gives back what it is given
    # a module table nothing in the seed fills is empty on every call (each runs on a fresh module)
    registry = "SIGS = {}\n\ndef f(func, args):\n    if func not in SIGS:\n        return None\n" \
               "    return any(len(args) > n for n in SIGS[func])\n"
    assert why(registry) == "one output: every call returns null"
    assert why(registry + "\nSIGS['len'] = [1]\n") is None
    assert why(registry.replace("SIGS = {}", "SIGS = {'len': [1]}")) is None
    filler = "def g(k):\n    SIGS.setdefault(k, [0])\n\n"
    assert why(registry.replace("def f", filler + "def f")) is None  # another function fills it


def test_logicif_able_leaves_out_parameters_only_an_object_or_a_type_can_be():
    """An object looked into by name (`dir`, `vars`, `setattr`, `getattr` of a name known at run time)
    or a type (`isinstance`'s second argument, `issubclass`, what `__new__` makes): a JSON value has
    only its Python type's methods and is never a type. Where a check of the value's kind comes
    first (dictionaries one way, other objects another) JSON values take the other way: kept."""
    bench = _benchmark()

    why = functools.partial(_why, bench)

    listing = "def f(obj):\n    return [m for m in dir(obj) if not m.startswith('_')]\n"
    assert why(listing) == "no JSON inputs: a parameter's value is given to dir(), which looks into an object"
    dotted = "def f(obj, path):\n    for part in path.split('.'):\n        obj = getattr(obj, part)\n    return obj\n"
    assert why(dotted) == "no JSON inputs: a parameter's value is asked by getattr() for an attribute named at run time"
    made = "def f(cls, base, state):\n    if base is object:\n        return object.__new__(cls)\n" \
           "    return base.__new__(cls, state)\n"
    assert why(made) == "no JSON inputs: a parameter's value is the class __new__ makes an object of"
    renamed = "_sub = issubclass\n\ndef f(a, b):\n    try:\n        return _sub(a, b)\n    except TypeError:\n" \
              "        return False\n"
    assert why(renamed) == "no JSON inputs: a parameter's value is the type issubclass() checks against"
    # kept: a fallback getattr, a kind check first, the seed's own function of that name
    assert why(dotted.replace("getattr(obj, part)", "getattr(obj, part, None)")) is None
    assert why("def f(obj, key, value):\n    if isinstance(obj, dict):\n        obj[key] = value\n    else:\n"
               "        setattr(obj, key, value)\n    return obj\n") is None
    assert why("def f(e):\n    return e if isinstance(e, type) and issubclass(e, Exception) else tuple(e)\n") is None
    assert why("def dir(x):\n    return [x]\n\n" + listing) is None


_GRID = [0, 1, -3, 2.5, 1.0, True, False, "a", "", "b", [1], [], [0, 2], None, {}, {"k": 1}]
_OPS = {"__lt__": "<", "__le__": "<=", "__gt__": ">", "__ge__": ">=", "__eq__": "==", "__ne__": "!="}


def _kind(value) -> str:
    return {bool: "whole", int: "whole", float: "decimal", str: "text", list: "list", dict: "dict",
            type(None): "None"}[type(value)]


# what the rule sentence says each kind compares with, for order and for equality
_SAID = {"whole": ({"whole"}, {"whole"}), "decimal": ({"whole", "decimal"}, {"whole", "decimal"}),
         "text": ({"text"}, {"text"}), "list": ({"list"}, {"list"}), "dict": (set(), {"dict"}), "None": (set(), {"None"})}


def test_a_comparison_by_a_value_s_own_kind_says_what_python_gives_on_json_values():
    from ifforge.families.logicif.codeops.describe.english import RULES
    rule = RULES["own_compare"]
    for phrase in ["a whole number (true and false count as the whole numbers 1 and 0) compares only with whole "
                   "numbers, not decimal ones", "a decimal number with decimal and whole numbers",
                   "a text only with texts", "a list only with lists", "a dictionary and None never for order",
                   "for equality a dictionary only with dictionaries and None only with None",
                   "Any other pair gives the special marker NotImplemented"]:
        assert phrase in rule
    checked = 0
    for a in _GRID:
        for b in _GRID:
            for special, operator in _OPS.items():
                order, equality = _SAID[_kind(a)]
                said = _kind(b) in (equality if special in ("__eq__", "__ne__") else order)
                got = getattr(type(a), special)(a, b)
                if not said:
                    assert got is NotImplemented, (a, special, b)
                else:
                    assert got is not NotImplemented and got == eval(f"a {operator} b"), (a, special, b)
                checked += 1
    assert checked == len(_GRID) ** 2 * 6


def test_a_comparison_by_a_value_s_own_kind_and_its_marker_test_read_in_words():
    text = _text("""
op_result = type(a).__gt__(a, b)
if op_result is NotImplemented:
    return op_result
return not op_result and a != b
""", params="a, b")
    assert "Set op_result to the special marker NotImplemented if b is not of a kind that a's own kind compares " \
           "with" in text
    assert "otherwise whether a is greater than b" in text
    assert "If op_result is the special marker NotImplemented, return op_result." in text
    with pytest.raises(Undescribable, match="special method __lt__"):
        _text("return type(a).__lt__(b, a)", params="a, b")


def test_a_method_stored_in_a_name_is_read_as_the_method_on_its_object():
    text = _text("""
get = a.get
push = out.append
for x in b:
    push(get(x, 0))
return out
""", params="a, b, out")
    assert "the value stored under the key x in a, or 0 if there is none" in text
    assert "get" not in text.replace("gets", "")
    with pytest.raises(Undescribable, match="the attribute a.get"):  # a rebound in between: no longer the same object
        _text("""
get = a.get
a = {}
return get(b, 0)
""", params="a, b")


HELD_OUT_IDIOMS = '''import copy
from collections import defaultdict
from typing import List, TypeVar
T = TypeVar("T")


def f(a: List[str], step: int) -> T:
    stats = {'loop_iterations': 0}
    groups = defaultdict(int)
    for i in range(0, len(a), step):
        stats['loop_iterations'] += 1
        groups[a[i][0]] += 1
    pairs = [x + y for x in a for y in 'xy']
    longest = max(a[0], a[-1], key=len)
    grid = [[1], [2]]
    copied = copy.deepcopy(grid)
    copied[0].append(9)
    return ((sorted(groups.items()), pairs[:3], longest, grid, copied), stats)
'''


def test_idioms_of_unseen_code_are_said_exactly_as_traced_from_the_words():
    """defaultdict, max of several values by a key, copy.deepcopy, a range with a computed step and a
    TypeVar read only by annotations (issue 38), traced from the text alone (itertools.product left with
    its vocabulary file, which saved nothing on held-out code)."""
    text = describe(HELD_OUT_IDIOMS, COUNTER, {}, "list")
    assert not holds_code(text) and "TypeVar" not in text
    assert ("a new empty dictionary that, whenever a key it lacks is read with square brackets (not with get or in), "
            "first stores 0 under that key and gives that") in text
    assert ("For each i from 0, adding step each time, as long as the number is below the length of a if step is "
            "positive or above the length of a if step is negative (the steps stop with an error if step is 0)") in text
    assert ("the first of item 0 of a and item -1 (the last) of a for which the length of the item is largest"
            in text and "On a tie for smallest or largest, the first" in text)
    assert "a deep copy of grid (equal to it, but every list, dictionary and set inside it, at any depth" in text
    # traced by hand from the text: i is 0 then 2; "a" and "d" each counted once from a stored 0; the pairs
    # start "ab"+"x", "ab"+"y", "c"+"x"; "ab" and "de" tie on length, so the first; only the copy gets 9
    namespace = {}
    exec(HELD_OUT_IDIOMS, namespace)
    traced = (([("a", 1), ("d", 1)], ["abx", "aby", "cx"], "ab", [[1], [2]], [[1, 9], [2]]), {"loop_iterations": 2})
    assert namespace["f"](["ab", "c", "de"], 2) == traced
    # a negative step: nothing is above the length 3 starting from 0, so the loop never runs
    assert namespace["f"](["ab", "c", "de"], -1)[1] == {"loop_iterations": 0}


def test_a_remembering_helper_an_annotated_constant_and_a_function_kept_in_a_name_are_traced_from_the_words():
    """functools.lru_cache(maxsize=None) on an inner function, `LIMIT: int = 3` at module level and a
    name holding a function passed to map (issue 38), each checked by tracing the text on one input."""
    calls = [Tracker(name="calls", kind="helper_calls", explanation="calls of ways")]
    source = ("from functools import lru_cache\n\n\ndef f(n):\n    stats = {'calls': 0}\n\n"
              "    @lru_cache(maxsize=None)\n    def ways(k):\n        stats['calls'] += 1\n        if k <= 1:\n"
              "            return 1\n        return ways(k - 1) + ways(k - 2)\n    return (ways(n), stats)\n")
    text = describe(source, calls, {"n": "int"}, "int")
    assert not holds_code(text)
    assert ("it remembers what it gives back for each set of inputs (called again with inputs equal to earlier ones, "
            "it gives back the remembered value at once, without doing its steps again") in text
    # traced: ways(4) runs ways(3), ways(2), ways(1), ways(0) once each (5 calls); ways(1) and ways(2) are then
    # remembered, so 1 + 1 = 2, 2 + 1 = 3, 3 + 2 = 5
    namespace = {}
    exec(source, namespace)
    assert namespace["f"](4) == (5, {"calls": 5})
    with pytest.raises(Undescribable, match="limited size"):  # a bounded cache forgets in an order of its own
        describe(source.replace("maxsize=None", "maxsize=2"), calls, {"n": "int"}, "int")

    text = _text("out = []\nfor x in a:\n    if len(out) < LIMIT:\n        out.append(x)\nreturn (out, stats)",
                 module="LIMIT: int = 2")
    assert "You can also use these fixed values: LIMIT is 2." in text

    source = ("def g(x):\n    return -x\n\n\ndef f(a, flip):\n    stats = {'loop_iterations': 0}\n"
              "    pick = g if flip else abs\n    return (list(map(pick, a)), stats)\n")
    text = describe(source, COUNTER, {"a": "list[int]", "flip": "bool"}, "list")
    assert "Set pick to g if flip, otherwise the built-in function abs" in text
    assert "the results of what the function held in pick gives back for each item, for each item of a" in text
    namespace = {}
    exec(source, namespace)
    assert namespace["f"]([1, -2], True)[0] == [-1, 2]  # traced: pick is g, which negates each item


def test_a_nested_loop_target_is_unpacked_with_balanced_brackets():
    """`for x, (p, q) in ...` once read "unpacking each item into x, (p and q" (seen tracing a held-out task)."""
    text = _text("for x, (p, q) in a:\n    stats['loop_iterations'] += p\nreturn (0, stats)")
    assert "For each (x, (p, q)) of a (unpacking each item into x and (p, q)), in order:" in text


def test_a_library_constant_is_said_by_its_value_from_vocab():
    """`datetime.MINYEAR` (issue 38) beside `math.pi` and `sys.maxsize`: each a fixed value in words."""
    text = _text("if a < datetime.MINYEAR or a > datetime.MAXYEAR:\n    return (math.pi, stats)\nreturn (a, stats)",
                 module="import datetime\nimport math")
    assert "If (a is less than 1 (the smallest year a date may have)) or (a is greater than 9999 (the largest" in text
    assert "the number pi (3.141592653589793)" in text
    import datetime
    assert (datetime.MINYEAR, datetime.MAXYEAR) == (1, 9999)  # the words agree with the library


def test_a_pattern_a_helper_gives_back_is_a_pattern_where_the_helper_is_called():
    """`def _port(): return re.compile(...)` (a counter step and a docstring aside, as the instrumented
    seed has them), `return _RX`, and `_find = _RX.findall`: each call is said as the pattern's own
    method, the helper's steps saying which pattern."""
    source = ('import re\n_RX = re.compile(r"\\d+")\n_find = _RX.findall\n\ndef _digits():\n    return _RX\n\n'
              'def f(a):\n    stats = {"helper_calls": 0}\n\n    def _port():\n        """Port."""\n'
              '        stats["helper_calls"] += 1\n        return re.compile(r"^:(\\d{1,4})$")\n'
              '    if _port().match(a) and _digits().search(a):\n        return (len(_find(a)), stats)\n'
              '    return (0, stats)\n')
    said = describe(source, [], {"a": "str"}, "int")
    assert not holds_code(said)
    assert "If the pattern that _port gives back with no inputs matches at the very start of a" in said
    assert "the pattern that _digits gives back with no inputs matches somewhere in a" in said
    assert "_find is a function which, called with a text, gives the list of every match of the pattern _RX" in said
    assert "Return the pattern matching (the start of the text, then the text \":\"" in said


def test_a_case_blind_list_of_characters_names_the_partners_python_adds_and_a_lone_one_is_refused():
    """Under re.IGNORECASE "\u017f" also matches "s" and "S" (and "\u0131" "i" and "I"): a list holding
    them says those partners as members, so trying each character's other cases finds what Python finds;
    a lone such letter (the Kelvin sign, "\u017f"), and a letter beyond ASCII under re.ASCII, are refused."""
    assert "regardless of case" in gloss("[a-z]+", re.IGNORECASE)
    assert "regardless of case" in gloss("caf\u00e9", re.IGNORECASE)
    assert gloss("[\u0100-\u017f]", re.IGNORECASE) == (
        'the pattern matching one character that is one of: from "\u0100" to "\u017f"; "I"; "S"; "i"; "s" '
        '(letters match regardless of case)')
    assert gloss("[^\u00a0-\ud7ff]", re.IGNORECASE).startswith(
        'the pattern matching one character that is none of: from "\\u00a0" to "\\ud7ff"; "I"; "K"; "S"; "i"; "k"; "s"')
    for pattern, flags in (("\u212a", re.IGNORECASE), ("a\u017f", re.IGNORECASE), ("\u0100", re.IGNORECASE | re.ASCII)):
        with pytest.raises(Undescribable, match="case-blind"):
            gloss(pattern, flags)
    assert 'from "\u0100" to "\u017f"' in gloss("[\u0100-\u017f]")


def test_a_character_that_shows_nothing_is_written_as_its_escape_in_a_pattern():
    assert gloss("[\x7f\u00a0\u200b]") == ('the pattern matching one character that is one of: "\\u007f"; '
                                         '"\\u00a0"; "\\u200b"')
    assert gloss("a\tb") == 'the pattern matching the text "a\\tb"'


def test_pieces_of_a_pattern_and_of_a_replacement_are_folded_from_module_texts():
    """`"|".join(map(re.escape, sorted(WORDS, key=len, reverse=True)))` is built in that order (the
    escaped "." matches itself); a
    replacement read from a module-level text is that text; `LOW, HIGH = 0, 9` sets two constants."""
    source = ('import re\nSEP = "-"\nLOW, HIGH = 0, 9\nWORDS = ("cat", "category", "a.b")\n'
              'RX = re.compile("|".join(map(re.escape, sorted(WORDS, key=len, reverse=True))))\n'
              'def f(text):\n    if LOW < len(text) < HIGH:\n        return RX.sub(SEP, text)\n    return text\n')
    said = describe(source, [], {"text": "str"}, "str")
    assert not holds_code(said)
    assert ('RX is the pattern matching either the text "category" or the text "cat" or the text "a.b" (the first '
            'that fits, left to right)') in said  # a stable sort: "cat" stays before "a.b"
    assert "LOW is 0; HIGH is 9" in said
    assert 'replaced by "-"' in said


def test_templates_flags_and_choices_built_from_module_texts_are_said_as_built():
    """A `str.format` or `%` template built from module texts (`"{0}" + SEP + "{1}"`), flags kept in a
    module name and read only as flags, a generator of escaped words and a `%` over a dictionary in a
    pattern, and a pattern chosen by a condition: each said as Python builds it."""
    source = ('import re\nSEP = ", "\nFMT = "{0}" + SEP + "{1:d}"\nOLD = "%s" + SEP + "%s"\nFLAGS = re.I | re.M\n'
              'WORDS = ["a+b", "c"]\nRX = re.compile("|".join(re.escape(w) for w in WORDS))\n'
              'NUM = re.compile("%(n)s-%(n)s" % {"n": r"\\d"})\n'
              'def f(a, b, strict):\n    if re.search(r"^ab", a, FLAGS) or RX.match(a) or NUM.match(a):\n'
              '        return FMT.format(a, b) + OLD % (a, b)\n'
              '    if re.match(r"\\w+" if strict else r"\\S+", a):\n        return a\n    return ""\n')
    said = describe(source, [], {"a": "str", "b": "int", "strict": "bool"}, "str")
    assert not holds_code(said)
    assert 'the text made of a written as text, followed by ", ", followed by b written as a whole number' in said
    assert 'the text made of a written as text, followed by ", ", followed by b written as text' in said
    assert ("the pattern matching (the start of a line, then the text \"ab\") (letters match regardless of case; start "
            "and end of text also match at the start and end of every line)") in said
    assert "FLAGS is" not in said  # said where it is used
    assert 'RX is the pattern matching either the text "a+b" or the text "c"' in said
    assert 'NUM is the pattern matching (a digit, then the text "-", then a digit)' in said
    assert ("(the pattern matching a word character (a letter, a digit or an underscore) repeated 1 or more times "
            "(as many as possible, giving back as the rest of the pattern needs) if strict, otherwise the pattern "
            "matching a character that is not whitespace repeated") in said


def test_a_quoted_text_shows_every_character():
    """A joiner, a variation selector or a lone combining mark shows nothing between quotes: each is
    written as its escape, as the controls JSON escapes are; letters with their accents stay as they are."""
    from ifforge.families.logicif.codeops.describe.formats import quoted
    assert quoted("a\u200db") == '"a\\u200db"' and quoted("\ufe0f") == '"\\ufe0f"'
    assert quoted("\u0301x") == '"\\u0301x"' and quoted("e\u0301") == '"e\u0301"' and quoted("caf\u00e9") == '"caf\u00e9"'
    said = describe("J = frozenset('\u200c\u200d')\n\ndef f(a):\n    return a in J\n", [], {"a": "str"}, "bool")
    assert '"\\u200c\\u200d"' in said


def test_a_helper_from_another_module_of_the_package_is_moved_into_the_seed(tmp_path, monkeypatch):
    """Real packages keep helpers apart: `from .text import clean as tidy` brings `clean` (and what
    it reads) into the seed under both names; two different definitions of one name would clash,
    so that seed keeps its import, as the picker did before (`across=False`)."""
    package = tmp_path / "pkgacross"
    package.mkdir()
    (package / "__init__.py").write_text("from pkgacross.text import clean\n")
    (package / "text.py").write_text("import re\nSPACE = re.compile(r'\\s+')\n\n\ndef clean(s):\n"
                                     "    return SPACE.sub(' ', s).strip()\n")
    (package / "words.py").write_text("from .text import clean as tidy\nfrom pkgacross import clean as again\n\n\n"
                                      "def count(s):\n    n = 0\n    for w in tidy(s).split(' '):\n        if w:\n"
                                      "            n += 1\n    return n\n\n\ndef twice(s):\n    return again(again(s))\n\n\n"
                                      "SPACE = 'other'\n\n\ndef clash(s):\n    return tidy(s) + SPACE\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    bench = _benchmark()
    seed = bench.seed_source("pkgacross.words", "count")
    namespace = {}
    exec(compile(seed, "seed", "exec"), namespace)
    assert "import" not in seed.replace("import re", "") and "tidy = clean" in seed
    assert namespace["count"]("  a  b c ") == 3
    assert "def clean" in bench.seed_source("pkgacross.words", "twice")  # re-exported by the package
    # `clash` needs two SPACEs (the module's and the helper's): no seed, and without moving nothing
    # resolves either (a relative import), as before
    assert bench.seed_source("pkgacross.words", "clash") is None
    assert bench.seed_source("pkgacross.words", "count", across=False) is None


def test_a_helper_that_cannot_be_moved_in_leaves_the_import_as_written(tmp_path, monkeypatch):
    """Whatever stops a sibling's helper from being moved in (here a name it reads that its module
    only makes at run time), the seed falls back to the import as written, as the picker before the
    sixth round made it, instead of the function being dropped."""
    package = tmp_path / "pkgfallback"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "odd.py").write_text("globals()['STEP'] = 2\n\n\ndef odd(n):\n    return n * STEP + 1\n")
    (package / "uses.py").write_text("from pkgfallback.odd import odd\n\n\ndef f(n):\n    return odd(n) if n else 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    seed = _benchmark().seed_source("pkgfallback.uses", "f")
    assert seed is not None and seed.startswith("from pkgfallback.odd import odd") and "def odd" not in seed


def test_an_input_that_may_be_a_collection_written_as_text_says_its_display():
    """`str(a)` of an input declared as a union with a list or dictionary: JSON's double quotes would be
    wrong there (`str([1, 'a'])` is "[1, 'a']"), so the display rule comes along; a set's order is not plain."""
    source = ("def f(a):\n    stats = {'loop_iterations': 0}\n    for v in range(3):\n"
              "        stats['loop_iterations'] += 1\n    return (str(a), stats)\n")
    mixed = describe(source, COUNTER, {"a": "Union[dict, int, list[str], str]"}, "str")
    assert "a written as text (on a case where it is a list or a dictionary: as Python displays it)" in mixed
    assert "in square brackets for a list" in mixed and "between single quotes" in mixed
    plain = describe(source, COUNTER, {"a": "Union[int, str]"}, "str")
    assert "the result is a written as text." in plain and "square brackets" not in plain


def test_a_compat_fallback_the_interpreter_ran_is_the_binding_a_seed_takes(tmp_path, monkeypatch):
    """`try: unicode = unicode` / `except NameError: unicode = str`: on Python 3 the handler ran, so the
    seed holds `unicode = str`; a try whose body ran keeps the body's binding, as before."""
    (tmp_path / "compat_module.py").write_text(
        "try:\n    unicode = unicode\n    from HTMLParser import HTMLParser\nexcept (ImportError, NameError):\n"
        "    unicode = str\n    from html.parser import HTMLParser\n\n"
        "try:\n    text_kind = str\nexcept NameError:\n    text_kind = bytes\n\n\n"
        "def coerce(value):\n    return value if isinstance(value, text_kind) else unicode(value)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    bench = _benchmark()
    seed = bench.seed_source("compat_module", "coerce")
    assert "unicode = str" in seed and "unicode = unicode" not in seed
    assert "text_kind = str" in seed and "bytes" not in seed
    namespace: dict = {}
    exec(compile(seed, "seed", "exec"), namespace)
    assert namespace["coerce"](3) == "3"


def test_logicif_able_leaves_out_a_function_that_draws_random_values():
    """The sandbox seeds `random`, so the gold is the same on any host, but no reader can draw Python's
    numbers from a description: such a function is no LogicIF task."""
    bench = _benchmark()
    body = "\n\ndef pick(xs):\n    for x in xs:\n        if x > 2:\n            return {draw}\n    return 0\n"
    drawn = bench.logicif_able(bench.Picked("m", "pick", "import random" + body.format(draw="random.random()")))
    assert drawn == "gold no reader can work out: it draws random values (random)"
    chosen = bench.logicif_able(bench.Picked("m", "pick", "from random import choice" + body.format(draw="choice(xs)")))
    assert chosen and "random values" in chosen
    assert bench.logicif_able(bench.Picked("m", "pick", "import math" + body.format(draw="math.floor(x)"))) is None


def test_a_seed_brings_a_module_function_named_like_a_built_in(tmp_path, monkeypatch):
    """A module's own `format` shadows the built-in where its functions call it: a seed without it would
    run the built-in, another function than the one picked; `range = xrange` under `if PY2` never ran."""
    (tmp_path / "shadow_module.py").write_text(
        "import sys\nif sys.version_info[0] == 2:\n    range = xrange\n\n\n"
        "def format(text, n):\n    return text * n\n\n\ndef twice(text):\n"
        "    return format(text, len(range(2))) if text else ''\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    bench = _benchmark()
    seed = bench.seed_source("shadow_module", "twice")
    assert seed.startswith("def format(text, n):") and "xrange" not in seed  # a skipped binding leaves range
    namespace: dict = {}
    exec(compile(seed, "seed", "exec"), namespace)
    assert namespace["twice"]("ab") == "abab"


def test_logicif_able_sees_one_json_output_through_a_helper_and_a_module_object():
    """A helper whose only JSON return is None, the rest objects (a module-level instance, a class of the
    seed): the entry handing its value on gives null or nothing the sandbox takes, so one output."""
    bench = _benchmark()
    why = functools.partial(_why, bench)
    zone = "class Zone:\n    def __init__(self, h):\n        self.h = h\n\nUTC = Zone(0)\n\n" \
           "def build(name, h):\n    if not name:\n        return None\n    if name == 'Z':\n        return UTC\n" \
           "    return Zone(h)\n\n"
    assert why(zone) == "one output: every call returns null"
    assert why(zone + "def parse(s):\n    for c in s:\n        if c == '+':\n            return build(s, 1)\n"
               "    raise ValueError(s)\n") == "one output: every call returns null"
    # stays: the helper's value is tested, not handed on; the module name is bound again; a JSON return
    assert why(zone + "def parse(s):\n    z = build(s, 1)\n    if z is None:\n        return 0\n    return 1\n") is None
    assert why(zone.replace("UTC = Zone(0)\n", "UTC = Zone(0)\nUTC = 'utc'\n")) is None
    assert why(zone + "def parse(s):\n    for c in s:\n        if c == '+':\n            return build(s, 1)\n"
               "    return 'none'\n") is None


def test_logicif_able_leaves_out_a_parameter_formatted_into_several_values_on_every_path():
    """`"%s:%d(%s)" % p` takes a tuple; a JSON list is one value, so every call raises (pstats)."""
    bench = _benchmark()
    why = functools.partial(_why, bench)
    std = "def f(p):\n    if p[:2] == ('~', 0):\n        return p[2]\n    return '%s:%d(%s)' % p\n"
    assert why(std) == "no JSON inputs: every call formats a parameter with `%` into two or more values, " \
                       "which only a tuple holds"
    # stays: one conversion (any value fills it), named ones (a dict fills them), a path that returns, `%%`
    assert why(std.replace("'%s:%d(%s)'", "'%s!'")) is None
    assert why(std.replace("'%s:%d(%s)'", "'%(a)s:%(b)d'")) is None
    assert why(std.replace("('~', 0)", "['~', 0]")) is None
    assert why(std.replace("'%s:%d(%s)'", "'100%% of %s'")) is None


@pytest.mark.parametrize("path", ["", ".", "..", ".bashrc", "a.b.c", "a/.b", "a.b/c", "/x/..a.b", "a/b.", "...b",
                                  "a//", "/", "//a", "a/b/", "//"])
def test_splitext_and_split_words_follow_python_on_tricky_paths(path):
    """The words are steps; these are those steps done in Python, against posixpath itself."""
    import posixpath
    text = _text("for v in a:\n    stats['loop_iterations'] += 1\n"
                 "return (posixpath.splitext(a)[0] + os.path.split(a)[1], stats)", module="import os, posixpath")
    assert "the part of a before its last \".\"" in text and "only dots before it" in text
    dot, slash = path.rfind("."), path.rfind("/")
    ext = (path[:dot], path[dot:]) if dot > slash and path[slash + 1:dot].strip(".") else (path, "")
    assert ext == posixpath.splitext(path)
    head = path[:slash + 1]
    head = head if head.strip("/") == "" else head.rstrip("/")
    assert (head, path[slash + 1:]) == posixpath.split(path)
