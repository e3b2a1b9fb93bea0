"""codeops/inputs/accepted.py: values the functions a parameter reaches accept, on small functions of our own."""

from __future__ import annotations

import base64
import random
import re

from ifforge.families.logicif.codeops.inputs.accepted import Offers, with_accepted
from ifforge.families.logicif.codeops.inputs.candidates import Candidate
from ifforge.families.logicif.configs import InputsConfig, from_settings
from ifforge.families.logicif.records import SeedFunction
from ifforge.families.logicif.settings import LogicIFSettings
from ifforge.families.logicif.stages import inputs


def _values(source: str, entry: str, name: str, count: int = 30) -> list:
    offers, rng = Offers(source, entry), random.Random(7)
    return [offers.value(name, rng) for _ in range(count)]


def test_text_given_to_int_after_a_strip_or_a_split_is_digits():
    source = ("def f(s, t):\n    a = int(s.strip())\n    parts = t.split(':')\n"
              "    return a + int(parts[1], 8)\n")
    for value in _values(source, "f", "s"):
        int(value.strip())
    for value in _values(source, "f", "t"):
        int(value.split(":")[1], 8)


def test_encoding_names_base64_texts_iso_texts_and_formats_are_accepted():
    source = ("import base64\nfrom datetime import date\n\n"
              "def f(s, enc, b, day, fmt):\n    n = len(s.encode(enc)) + len(base64.b64decode(b))\n"
              "    return fmt % n, date.fromisoformat(day).year\n")
    assert {e: "x".encode(e) for e in _values(source, "f", "enc")}  # LookupError for an unknown name
    for value in _values(source, "f", "b"):
        base64.b64decode(value, validate=True)
    assert any(len(v) % 4 == 0 and v.endswith("=") for v in _values(source, "f", "b"))
    from datetime import date
    for value in _values(source, "f", "day"):
        date.fromisoformat(value)
    for value in _values(source, "f", "fmt"):
        assert value % 12
    assert _values(source, "f", "s") == [None] * 30  # `s.encode(enc)` says what enc is, not s
    numbers = "def f(n, m, k):\n    return n % 2, (m % k) + m\n"
    assert _values(numbers, "f", "n") == _values(numbers, "f", "m") == [None] * 30  # remainders, not formats


def test_a_match_used_without_a_none_test_gets_texts_the_pattern_matches():
    source = ("import re\nSTAMP = re.compile(r'(\\d\\d):(\\d\\d)(?::(\\d\\d))?Z')\n\n"
              "def f(s, loose):\n    h, m, sec = STAMP.match(s).groups()\n    found = re.search(r'x', loose)\n"
              "    return int(h) * 60 + int(m), found is None\n")
    values = [v for v in _values(source, "f", "s") if v is not None]
    assert len(values) >= 20 and all(re.match(r"(\d\d):(\d\d)(?::(\d\d))?Z", v) for v in values)
    assert _values(source, "f", "loose") == [None] * 30  # a match tested before it is used needs nothing


def test_characters_checked_at_places_and_compared_lengths():
    source = ("def f(code):\n    size = len(code)\n    dash = '-'\n    if size < 8:\n        return 0\n"
              "    if code[:3] != 'ABC':\n        return 1\n    if code[4] == dash:\n        return 2\n    return 3\n")
    values = _values(source, "f", "code", 60)
    assert {len(v) for v in values} <= {8, 9}
    assert any(v.startswith("ABC") and v[4] == "-" for v in values)
    assert any(not v.startswith("ABC") for v in values)  # the other side of the check too


def test_a_dict_gets_every_key_read_with_values_by_use():
    source = ("def f(spec, text):\n    width = spec['width']\n    fill = spec['fill']\n    side = spec['side']\n"
              "    pad = fill * (width - len(text))\n    if side == 'left':\n        return pad + text\n"
              "    if side == 'right':\n        return text + pad\n    raise ValueError(side)\n")
    for value in _values(source, "f", "spec"):
        assert set(value) == {"width", "fill", "side"}
        assert isinstance(value["width"], int) and isinstance(value["fill"], str)
        assert value["side"] in ("left", "right")


def test_with_accepted_adds_twins_and_leaves_other_parameters_alone():
    source = "def f(n, s):\n    return n + int(s)\n"
    made = [Candidate([i, "x"], "random") for i in range(10)]
    mixed = with_accepted(source, "f", made, 3)
    twins = [c for c in mixed if c.origin.endswith("accepted by a callee")]
    assert mixed[len(twins):] == made and len(twins) == 8
    assert [c.args[0] for c in twins] == list(range(8)) and all(c.args[1].lstrip("-").isdigit() for c in twins)
    assert with_accepted(source, "f", made, 3) == mixed  # seeded
    assert with_accepted("def g(n):\n    return n + 1\n", "g", made, 3) == made  # nothing the callees want


def test_inputs_stage_finds_inputs_only_a_callee_accepts():
    """Random texts never decode and random dicts never hold both keys: every candidate raised before."""
    source = ("import binascii\n\n\ndef f(blob, spec):\n    data = binascii.a2b_base64(blob, strict_mode=True)\n"
              "    total = 0\n    for byte in data:\n        if byte > spec['cut']:\n            total += spec['step']\n"
              "    return total\n")
    seed = SeedFunction(task_id="decode_sum", source=source, entry="f", inputs=[], origin="test")
    outcome = inputs.run(seed, from_settings(InputsConfig, LogicIFSettings()))
    assert outcome.kept is not None, outcome.dropped
    assert all("accepted by a callee" in i.origin for i in outcome.kept.inputs)
    for case in outcome.kept.inputs:
        base64.b64decode(case.args[0], validate=True)
        assert {"cut", "step"} <= set(case.args[1])


def test_errors_of_callees_teach_keys_encodings_and_base64():
    from ifforge.families.logicif.codeops.inputs.candidates import INT, STR, Parameter
    from ifforge.families.logicif.codeops.inputs.lessons import learn, taught
    table, text, enc = Parameter("table", ("dict", STR, INT)), Parameter("text", STR), Parameter("enc", STR)
    failures = [([{"a": 1}, "x", "zz"], "KeyError: 'size'", "    n = table[name]"),
                ([{}, "x", "zz"], "LookupError: unknown encoding: zz", "    raw = text.encode(enc)"),
                ([{}, "abc", "ascii"], "Error: Invalid base64-encoded string: number of data characters (3) "
                                       "cannot be 1 more than a multiple of 4", "    raw = decode(text)")]
    lessons = learn([table, text, enc], failures)
    assert lessons.accepts == {"table": {("key", "size")}, "enc": {("encoding",)},
                               "text": {("decoded", "b64decode")}} and taught(None, lessons)
    source = "def f(table, text, enc):\n    name = 'size'\n    return table[name], decode(text), text.encode(enc)\n"
    offers, rng = Offers(source, "f", lessons), random.Random(2)
    assert all("size" in offers.value("table", rng) for _ in range(10))
    for _ in range(10):
        "x".encode(offers.value("enc", rng))
        base64.b64decode(offers.value("text", rng), validate=True)


def test_text_where_bytes_were_wanted_becomes_a_list_of_small_ints():
    from ifforge.families.logicif.codeops.inputs.candidates import INT, STR, Parameter
    from ifforge.families.logicif.codeops.inputs.lessons import learn
    raw, width = Parameter("raw", STR), Parameter("width", INT)
    failures = [(["ab", 3], "TypeError: must be str, not bytes", "    end = raw.find(b'\\0')")] * 2
    assert learn([raw, width], failures).shapes == {"raw": ("list", INT)}
    assert learn([raw, width], [(["ab", 3], "TypeError: must be str, not int", "    end = raw.find(width)")]
                 ).shapes.get("raw") != ("list", INT)


def test_items_turned_into_characters_get_the_code_points_they_are_compared_with():
    source = ("def f(data):\n    n = 0\n    for c in data:\n        ch = bytes((c,))\n"
              "        if b'0' <= ch <= b'9':\n            n = n * 10 + c - 48\n    return n\n")
    values = _values(source, "f", "data", 40)
    assert all(isinstance(v, list) and all(47 <= i <= 58 for i in v) for v in values)
    assert any(any(48 <= i <= 57 for i in v) for v in values)


def test_a_length_computed_from_a_text_and_compared_with_a_constant_gets_longer_texts():
    source = ("LIMIT = 9\n\n\ndef f(s, a, b, v):\n    gap = len(s) - a - b\n    shown = repr(v)\n"
              "    if len(shown) < LIMIT:\n        return shown\n    return gap > 5\n")
    for value in _values(source, "f", "s"):
        assert 5 < len(value) <= 11  # past the constant, by up to as much again
    for value in _values(source, "f", "v"):
        assert 9 < len(value) <= 19
    assert _values(source, "f", "a") == [None] * 30  # a and b are only subtracted: nothing to offer


def test_items_ordered_inside_a_try_get_mixed_kinds_that_cannot_be_ordered():
    source = ("def f(xs, ys):\n    try:\n        return sorted(xs)\n    except TypeError:\n"
              "        return list(xs)\n\n\n"
              "def g(xs):\n    return sorted(xs)\n")
    for value in _values(source, "f", "xs"):
        assert {type(item) for item in value} == {int, str}
    assert _values(source, "g", "xs") == [None] * 30  # no handler: an ordering error is not a path


def test_a_value_a_float_conversion_formats_gets_floats_also_through_a_helper():
    source = ("def show(form, value):\n    return form % value\n\n\n"
              "def f(v, w, n):\n    return show('%.3g', v) + '%5.1f|%d' % (w, n) + show('%d', n)\n")
    for name in ("v", "w"):
        assert all(type(value) is float for value in _values(source, "f", name))
    assert _values(source, "f", "n") == [None] * 30  # only ever given to %d


def test_a_text_an_ipaddress_reader_takes_is_an_address_of_its_version():
    import ipaddress
    source = ("import ipaddress\n\n\ndef f(host, six):\n    a = ipaddress.ip_address(host.strip())\n"
              "    return a, ipaddress.IPv6Address(six)\n")
    hosts = [ipaddress.ip_address(v) for v in _values(source, "f", "host")]
    assert {a.version for a in hosts} == {4, 6}
    for value in _values(source, "f", "six"):
        ipaddress.IPv6Address(value)


def test_a_table_looked_up_with_a_group_of_a_match_holds_the_groups_of_the_text_of_the_same_twin():
    source = ("import re\n\nREF = r'<([a-z]+)>'\n\n\ndef f(s, table):\n    m = re.search(REF, s) or re.search('x', s)\n"
              "    if m:\n        return s.replace(m.group(0), table.get(m.group(1)))\n    return s\n")
    made = [Candidate(["", {}], "random") for _ in range(8)]
    twins = [c.args for c in with_accepted(source, "f", made, seed=3) if c.origin.endswith("callee")]
    assert twins
    for text, table in twins:
        assert table and set(table) == set(re.findall(r"<([a-z]+)>", text))


def test_a_text_read_field_by_field_gets_several_accepted_fields_joined_by_the_separator():
    source = ("import re\n\ndef f(spec, nums):\n"
              "    total = sum(int(re.match(r'^[AB](\\d+)$', x).group(1)) for x in spec.split('+'))\n"
              "    for n in nums.split(','):\n        total += int(n)\n    return total\n")
    specs, numbers = _values(source, "f", "spec"), _values(source, "f", "nums")
    for spec, nums in zip(specs, numbers):
        assert all(re.match(r"^[AB](\d+)$", x) for x in spec.split("+"))
        assert [int(n) for n in nums.split(",")]
    assert any("+" in s for s in specs) and any("," in n for n in numbers)  # more than one field at times


def test_a_character_whose_unicode_category_the_code_asks_is_drawn_from_the_categories_it_names():
    import unicodedata

    source = ("import unicodedata\n\nMARKS = frozenset(('Mn', 'Mc'))\n\ndef f(char, text):\n"
              "    n = 0\n    for ch in text:\n        n += unicodedata.category(ch) == 'Mn'\n"
              "    return unicodedata.category(char) in MARKS, n\n")
    chars, texts = _values(source, "f", "char", 40), _values(source, "f", "text", 40)
    categories = {unicodedata.category(c) for c in chars}
    assert {"Mn", "Mc"} <= categories <= {"Mn", "Mc", "Ll", "Lu"}  # the named ones, and letters for the other side
    assert any(unicodedata.category(c) == "Mn" for t in texts for c in t) and all(len(t) >= 1 for t in texts)


def test_a_character_asked_its_category_in_a_comprehension_or_by_its_place_is_drawn_from_those_categories():
    """`c for c in unicodedata.normalize("NFD", p) if category(c) != "Mn"` and `category(p[i]) == "Lm"`
    ask about p's characters too. Fails on code that knew only `for c in p:` statements."""
    import unicodedata

    source = ("import unicodedata\n\ndef f(text, word, at):\n"
              "    kept = ''.join(c for c in unicodedata.normalize('NFD', text) if unicodedata.category(c) != 'Mn')\n"
              "    while at < len(word) and unicodedata.category(word[at]) == 'Lm':\n        at += 1\n"
              "    return kept, at\n")
    for name, category in (("text", "Mn"), ("word", "Lm")):
        values = _values(source, "f", name, 40)
        assert any(unicodedata.category(c) == category for v in values if isinstance(v, str) for c in v), name


def test_a_text_whose_characters_are_found_in_an_alphabet_is_drawn_from_it():
    """`ALPHABET.index(c)` for each character of p (also through `enumerate`) raises on any other
    character: p is drawn from the alphabet, its first character (found at 0) among them at times.
    Fails on code that drew such texts from the code's words."""
    source = ("DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz'\n\n"
              "def f(text, word):\n    local = 'xyz'\n"
              "    n = sum(36 ** i * DIGITS.index(c) for i, c in enumerate(text[::-1]))\n"
              "    for ch in word:\n        n += local.find(ch)\n    return n\n")
    texts, words = _values(source, "f", "text", 40), _values(source, "f", "word", 40)
    assert all(set(t) <= set("0123456789abcdefghijklmnopqrstuvwxyz") for t in texts if isinstance(t, str))
    assert sum(isinstance(t, str) for t in texts) >= 30 and any("0" in t for t in texts if isinstance(t, str))
    assert all(set(w) <= set("xyz") for w in words if isinstance(w, str)) and any(isinstance(w, str) for w in words)


def test_what_a_helper_asks_of_its_parameter_is_offered_to_the_argument_the_caller_passes_it():
    """`helper(p)` and `[helper(t.lower()) for t in p]`, where the helper's own code asks its parameter
    for something (`int(s)`, `category(c) for c in word`): p gets that, or a list of such items.
    Fails on code that read only the entry's own body."""
    import unicodedata

    source = ("import unicodedata\n\ndef strip(word):\n"
              "    return ''.join(c for c in unicodedata.normalize('NFD', word) if unicodedata.category(c) != 'Mn')\n\n"
              "def number(s):\n    return int(s)\n\n"
              "def f(tokens, count):\n    return [strip(t.lower()) for t in tokens], number(count.strip())\n")
    lists = _values(source, "f", "tokens", 20)
    assert all(isinstance(v, list) and v and all(isinstance(t, str) for t in v) for v in lists)
    assert any(unicodedata.category(c) == "Mn" for v in lists for t in v for c in t)
    for value in _values(source, "f", "count", 20):
        int(value.strip())


def test_members_tested_for_a_prefix_or_suffix_are_drawn_with_and_without_it():
    """`for k in list(p): if k.startswith(PREFIX): del p[k]` and `n.endswith((".py", ".txt")) for n in q`:
    p is a dict (the code reads it by key), q a list, some members carrying the affix and some not.
    Fails on code that drew members from random words."""
    source = ("PRE = '_INIT_'\n\ndef f(cv, names):\n    for k in list(cv):\n        if k.startswith(PRE):\n"
              "            del cv[k]\n    return [n for n in names if n.endswith(('.py', '.txt'))]\n")
    dicts, lists = _values(source, "f", "cv", 20), _values(source, "f", "names", 20)
    assert all(isinstance(v, dict) for v in dicts) and all(isinstance(v, list) for v in lists)
    assert any(k.startswith("_INIT_") for v in dicts for k in v) and any(not k.startswith("_INIT_") for v in dicts for k in v)
    assert any(n.endswith((".py", ".txt")) for v in lists for n in v) and any(not n.endswith(".py") for v in lists for n in v)


def test_a_dict_whose_listed_items_are_looked_up_in_it_again_is_drawn_as_a_graph_with_a_start_node():
    """`for e in g[k]: ... walk(g, e)` (or `g[e]`): g maps each node to a list of nodes and k is one of
    them, the same graph for both parameters of one twin. Fails on code that drew g and k apart."""
    source = ("def walk(g, k, seen=None):\n    seen = seen or []\n    if k not in g:\n        return seen\n"
              "    seen = seen + [k]\n    for e in g[k]:\n        if e not in seen:\n            seen = walk(g, e, seen)\n"
              "    return seen\n")
    offers, rng = Offers(source, "walk"), random.Random(3)
    pairs = []
    for _ in range(20):
        offers.new_twin()
        pairs.append((offers.value("g", rng), offers.value("k", rng)))
    assert all(isinstance(g, dict) and all(set(v) <= set(g) for v in g.values()) for g, _ in pairs)
    assert sum(k in g for g, k in pairs) >= 14 and any(len(v) > 1 for g, _ in pairs for v in g.values())
    assert offers.value("seen", rng) is None


def test_items_of_a_list_split_into_parts_get_the_parts_the_code_reads():
    """`for line in p: n, *rest = line.split("\\t"); int(n)` and `parts = row.split(","); int(parts[1])`
    read each item as a text: p is a list of texts whose parts there are digits. Fails on code that
    read a split only of a parameter's own text, and no unpacked parts."""
    source = ("def f(lines, rows):\n    out = []\n    for line in lines:\n        n, *rest = line.split('\\t')\n"
              "        out.append(int(n))\n    for row in rows:\n        parts = row.split(',')\n"
              "        out.append(int(parts[1]))\n    return out\n")
    lines, rows = _values(source, "f", "lines", 20), _values(source, "f", "rows", 20)
    assert all(isinstance(v, list) and v for v in lines + rows)
    for value in lines:
        [int(line.split("\t")[0]) for line in value]
    for value in rows:
        [int(row.split(",")[1]) for row in value]
