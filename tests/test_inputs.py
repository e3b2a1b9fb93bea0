"""Input generation for seeds without inputs: covering sets from the code (and a model), seeded."""

import asyncio
import json
import re

from ifforge.core.llm.client import LLM, LLMConfig
from ifforge.core.sandbox.execution import run_cases
from ifforge.families.logicif.configs import InputsConfig, from_settings
from ifforge.families.logicif.records import SeedFunction, TestInput
from ifforge.families.logicif.settings import LogicIFSettings
from ifforge.families.logicif.stages import inputs
from ifforge.testing.openai_stub import Answer, StubServer

ROUTE = '''
def route(parcels, limit, mode="fast"):
    total = 0
    for weight in parcels:
        if weight > 20:
            total += 3
        elif weight == 0:
            total -= 1
        else:
            total += 1
    if len(parcels) == 0:
        return -1
    if limit < 5:
        return total * 2
    if mode == "slow":
        return total + limit
    return total
'''
ORIGINS = {"defaults", "defaults kept", "literal boundary", "edge shape", "random", "text from the code", "llm", "given"}


def _origins(origins) -> set:
    """The origins, a search mutant counted as the candidate it was changed from."""
    return {o.removesuffix(", searched") for o in origins}


def _config(**settings):
    return from_settings(InputsConfig, LogicIFSettings(**settings))


def _seed(source=ROUTE, entry="route", given=()):
    return SeedFunction(task_id=entry, source=source, entry=entry, origin=f"{entry}.py",
                        inputs=[TestInput(args=args, line=i + 1) for i, args in enumerate(given)])


def _branches(args_list):
    """Which side of each branch of ROUTE the inputs take (computed here on the inputs, not by running them)."""
    sides = set()
    for parcels, limit, *mode in args_list:
        mode = mode[0] if mode else "fast"
        for weight in parcels:
            sides.add("heavy" if weight > 20 else "empty parcel" if weight == 0 else "light")
        if not parcels:
            sides.add("no parcels")
        elif limit < 5:
            sides.add("low limit")
        else:
            sides.add("slow" if mode == "slow" else "fast")
    return sides


def test_the_sandbox_records_both_sides_of_a_branch_and_the_busiest_line():
    code = "def g(x):\n    if x > 3:\n        return 1\n    for i in range(x):\n        x += 1\n    return x\n"
    high, low = run_cases(code, "g", [[5], [2]], coverage=True)
    assert {tuple(a) for a in high.arcs} == {(-1, 2), (2, 3), (3, -1)} and high.max_hits == 1
    assert (2, 4) in {tuple(a) for a in low.arcs} and (5, 4) in {tuple(a) for a in low.arcs}
    assert low.max_hits == 3 and low.output == 4


def test_a_function_without_inputs_gets_a_small_set_that_takes_every_branch_both_ways():
    outcome = inputs.run(_seed(), _config())
    chosen = outcome.kept.inputs
    assert 8 <= len(chosen) <= 12
    assert _origins(i.origin for i in chosen) <= ORIGINS and all(i.origin for i in chosen)
    assert _branches([i.args for i in chosen]) == {"heavy", "empty parcel", "light", "no parcels", "low limit",
                                                   "slow", "fast"}
    report = outcome.evidence[0]
    assert report["arcs_covered"] == report["arcs_seen"] and report["passed"] >= len(chosen)
    assert [c["args"] for c in report["chosen"]] == [i.args for i in chosen]
    assert all(len(json.dumps(i.args)) < 200 for i in chosen)


def test_the_same_seed_gives_the_same_inputs_and_another_seed_gives_others():
    first = inputs.run(_seed(), _config(input_seed=0)).kept.inputs
    again = inputs.run(_seed(), _config(input_seed=0)).kept.inputs
    other = inputs.run(_seed(), _config(input_seed=7)).kept.inputs
    assert first == again
    assert [i.args for i in first] != [i.args for i in other]
    assert _branches([i.args for i in other]) == _branches([i.args for i in first])  # the same surface, anew


def test_inputs_that_break_the_filters_are_not_kept():
    loops = "def spin(n):\n    total = 0\n    if n > 60:\n        total = 1\n    for i in range(n):\n" \
            "        total += i % 3\n    return total\n"
    outcome = inputs.run(_seed(loops, "spin"), _config())
    assert all(i.args[0] < 49 for i in outcome.kept.inputs)  # no line runs 50 times: a tracker's limit
    assert outcome.evidence[0]["rejected"]["loops_too_long"] >= 2  # 60 and 61 at least
    sevenths = inputs.run(_seed("def part(n):\n    return n / 7\n", "part"), _config())
    assert sevenths.kept.inputs and all(i.args[0] % 7 == 0 for i in sevenths.kept.inputs)  # <= 6 decimals
    assert sevenths.evidence[0]["rejected"]["too_many_decimals"] > 0


def test_a_function_no_candidate_runs_on_is_dropped_with_the_reason():
    outcome = inputs.run(_seed("def boom(x, y):\n    raise ValueError('never')\n", "boom"), _config())
    assert outcome.kept is None
    [drop] = outcome.dropped
    assert drop.reason == "no_working_inputs" and drop.stage == "inputs"
    assert "exception" in drop.detail and "ValueError: never" in drop.detail and "seed line 2" in drop.detail


def test_seeds_with_inputs_pass_unchanged_and_few_inputs_are_topped_up():
    given = [[[1, 2], 3], [[], 9]]
    seed = _seed(given=given)
    assert inputs.run(seed, _config()).kept is seed
    topped = inputs.run(seed, _config(generate_inputs_below=5)).kept.inputs
    assert [i.args for i in topped[:2]] == given and topped[0].line == 1
    assert 8 <= len(topped) <= 12 and all(i.origin not in (None, "given") for i in topped[2:])


GATE = """
def gate(codes, key):
    if sum(codes) == 777 and len(codes) == 3:
        return key * 2
    if key in codes:
        return 1
    return 0
"""


def test_a_model_proposes_inputs_that_compete_for_coverage():
    proposed = {"inputs": [[[700, 70, 7], 3], [[1, 2], 2], [[5]], [[4], 5, 6], [[0, 0, 777], 9]]}
    with StubServer(lambda request: Answer(content=json.dumps(proposed))) as server:
        async def ask():
            llm = LLM(LLMConfig(model="stub", base_url=server.url))
            try:
                return await inputs.run_llm(_seed(GATE, "gate"), llm, _config())
            finally:
                await llm.close()

        outcome = asyncio.run(ask())
    [request] = server.requests
    prompt = request["messages"][0]["content"]
    assert "if sum(codes) == 777" in prompt and "gate(codes: list[int], key: int)" in prompt
    report = outcome.evidence[0]
    assert report["from"]["llm"] == 3  # two calls do not fit the signature: noted, not run
    assert sum("arguments" in note for note in report["notes"]) == 2
    chosen = {json.dumps(i.args): i.origin for i in outcome.kept.inputs}
    assert chosen[json.dumps([[700, 70, 7], 3])] == "llm"  # the one branch only the model's input takes
    assert 8 <= len(outcome.kept.inputs) <= 12 and report["arcs_covered"] == report["arcs_seen"]
    fates = {json.dumps(p["args"]): p["fate"] for p in report["proposals"]}
    assert len(fates) == 3 and all(fate == "kept" for fate in fates.values())  # never displaced by random ones


def test_generate_takes_a_functions_file_alone_and_a_seed_without_input_lines(tmp_path, prefect_server):
    from conftest import needs_fixture

    from ifforge.cli import main

    tasks = [json.loads(line) for line in needs_fixture("tasks.jsonl").read_text().splitlines()][:2]
    functions = tmp_path / "functions.jsonl"
    functions.write_text("".join(json.dumps({"task_id": t["task_id"], "function": t["function"]}) + "\n"
                                 for t in tasks) + json.dumps({"task_id": "route", "function": ROUTE}) + "\n")
    out = tmp_path / "out"
    assert main(["generate", "--functions", str(functions), "--out", str(out), "--llm", "none", "--no-progress",
                 "--set", "dedup=false", "--set", "expressions=0"]) == 0
    [version] = (out / "logicif").glob("v001")
    rows = [json.loads(line) for line in (version / "benchmark.jsonl").read_text().splitlines()]
    by_task = {}
    for row in rows:
        by_task.setdefault(row["task_id"], []).append(row["input"])
    assert set(by_task) == {t["task_id"] for t in tasks} | {"route"}
    assert all(3 <= len(cases) <= 12 for cases in by_task.values())
    record = json.loads((version / "items" / "route" / "inputs.json").read_text())
    assert record["kept"] and record["arcs_covered"] == record["arcs_seen"] and record["input_seed"] == 0
    assert _origins(row["input_origin"] for row in rows if row["task_id"] == "route") <= ORIGINS - {"given"}
    executed = json.loads((version / "items" / "route" / "execute.json").read_text())
    assert _origins(case["origin"] for case in executed["cases"]) <= ORIGINS - {"given"}
    manifest = json.loads((version / "manifest.json").read_text())
    assert manifest["stages"]["inputs"]["computed"] == 3 and "test_cases" not in manifest["inputs"]


LEDGER = '''
def ledger(ops, limits: dict[str, int], rate=1.5, label="a"):
    total = 0
    for op in sorted(ops):
        kind = op[0]
        if kind == "pay":
            _, who, amount = op
            if amount > 100 and who.upper() in limits:
                total += amount * rate
    return total
'''


def test_shapes_come_from_annotations_defaults_and_how_the_code_uses_a_value():
    from ifforge.families.logicif.codeops.inputs.candidates import candidates, describe_signature

    assert describe_signature(LEDGER, "ledger") == \
        "ledger(ops: list[[str, str, int]], limits: dict[str, int], rate: float, label: str)"
    made = candidates(LEDGER, "ledger", seed=3, count=60)
    records = [op for c in made for op in c.args[0]]
    assert any(op[0] == "pay" for op in records)  # the string the code compares with
    assert {99, 100, 101} & {op[2] for op in records}  # boundaries of the constant it is compared with
    assert {c.origin for c in made} >= {"edge shape", "literal boundary", "random"}
    assert any(c.args[0] == [] for c in made)
    assert candidates(LEDGER, "ledger", seed=3, count=60) == made


def test_a_kind_shows_in_any_method_only_it_has_in_isinstance_in_text_calls_and_in_helpers():
    from ifforge.families.logicif.codeops.inputs.candidates import describe_signature

    code = '''
import re
def _drive(q):
    return q[:2] if re.match("[a-z]:", q) else ""
def tidy(a, b, c, d, e):
    if isinstance(b, dict):
        return None
    return _drive(a), c.isascii(), d.popitem(), e.count(1)
'''
    # e's count is a str's and a list's: it says nothing, and e gets the default shape
    assert describe_signature(code, "tidy") == "tidy(a: str, b: dict[str, int], c: str, d: dict[str, int], e: int)"
    swaps = '''
def _swap(s, d):
    for key, value in d.items():
        s = s.replace(key, value)
    return s
def escape(data, entities={}):
    return _swap(data.replace("&", "&amp;"), entities) if entities else data
'''
    assert describe_signature(swaps, "escape") == "escape(data: str, entities: dict[str, str])"


# ---- learning from failed runs (codeops/inputs/lessons.py) and what the code's uses say


def test_an_error_message_says_which_type_a_value_had_and_which_it_wanted():
    from ifforge.families.logicif.codeops.inputs.lessons import named_types
    assert named_types("AttributeError: 'list' object has no attribute 'lower'") == ({"list"}, "str")
    assert named_types('TypeError: can only concatenate str (not "int") to str') == ({"int"}, "str")
    assert named_types("TypeError: unsupported operand type(s) for +: 'int' and 'str'") == ({"int", "str"}, None)
    assert named_types("TypeError: category() argument must be a unicode character, not str") == (
        {"str"}, "unicode character")
    assert named_types("ValueError: month must be in 1..12") == (set(), None)


def test_the_parameter_an_error_names_gets_another_shape_and_the_other_keeps_its_own():
    from ifforge.families.logicif.codeops.inputs.candidates import INT, STR, Parameter
    from ifforge.families.logicif.codeops.inputs.lessons import learn, taught
    words, count = Parameter("words", ("list", INT)), Parameter("count", INT)
    failures = [([[3, 4], 2], "TypeError: descriptor 'upper' for 'str' objects doesn't apply to a 'list' object"),
                ([[1], 0], "AttributeError: 'list' object has no attribute 'upper'")]
    lessons = learn([words, count], failures)
    assert lessons.shapes == {"words": STR} and lessons.former == {"words": ("list", INT)}
    assert not lessons.boundary and taught(None, lessons)
    again = learn([words, count], failures, lessons)  # str was tried: the next guess, never a repeat
    assert again.shapes["words"] not in (STR, ("list", INT))
    by_items = learn([words, count], [([[1, 2], 5], "TypeError: 'in <string>' requires string as left operand, not int")])
    # every int is suspect (the message does not say which): the items of words and count both change,
    # and each keeps its former shape to draw from at times
    assert by_items.shapes == {"words": ("list", STR), "count": STR} and by_items.former["count"] == INT
    on_line = learn([words, count], [([[1, 2], 5], "TypeError: 'in <string>' requires string as left operand, not int",
                                      "    return sum(1 for w in words if 'x' in w) + count")])
    assert on_line.shapes == {"words": ("list", STR), "count": STR}  # both named on the line that raised
    only_words = learn([words, count], [([[1, 2], 5], "TypeError: 'in <string>' requires string as left operand, not int",
                                         "    hits = [w for w in words if 'x' in w]")])
    assert only_words.shapes == {"words": ("list", STR)}  # count is not on it: left alone
    values = learn([words, count], [([[], 99], "IndexError: list index out of range")] * 3)
    assert values.boundary and values.shapes == {} and not learn([words, count], []).boundary


def test_an_error_on_the_items_of_a_value_drawn_by_a_former_shape_or_as_another_kind_never_breaks_the_lessons():
    from ifforge.families.logicif.codeops.inputs.candidates import INT, STR, Parameter
    from ifforge.families.logicif.codeops.inputs.lessons import Lessons, learn
    # read as a list, taught a number: a list still drawn (a former shape, another kind) whose items fail
    words = Parameter("words", ("list", INT))
    before = Lessons(shapes={"words": INT}, former={"words": ("list", INT)}, tried={"words": {INT, ("list", INT)}})
    lessons = learn([words], [([[1, "a"]], "TypeError: '<' not supported between instances of 'str' and 'int'")],
                    before)
    assert lessons.shapes["words"] == INT  # the items of a value its shape has none of: nothing to blame
    assert learn([Parameter("n", INT)], [([[1, "a"]], "TypeError: 'list' object is not callable")]).shapes == \
        {"n": STR}  # the whole value is still blamed


def test_an_operator_error_blames_only_the_operator_s_operands():
    from ifforge.families.logicif.codeops.inputs.candidates import INT, STR, Parameter
    from ifforge.families.logicif.codeops.inputs.lessons import learn
    sign, spec = Parameter("sign", ("list", INT)), Parameter("spec", ("dict", STR, STR))
    error = "TypeError: unsupported operand type(s) for -: 'str' and 'int'"
    inside_len = learn([sign, spec], [([[1], {"w": "x"}], error, "    pad = fill * (width - len(sign))")] * 3)
    assert inside_len.shapes == {}  # sign is only len()'s argument: what `-` got came from elsewhere
    concatenated = learn([sign, spec], [([[1], {}], 'TypeError: can only concatenate str (not "list") to str',
                                         "    out = pad + sign + spec['w']")] * 3)
    assert concatenated.shapes == {"sign": STR}
    alias = learn([sign], [([[1]], 'TypeError: can only concatenate str (not "int") to str', "    part += item")] * 3)
    assert alias.shapes == {"sign": ("list", STR)}  # no parameter on the line: a name holding one raised


TALLY = '''
def tally(items):
    seen = 0
    for item in items:
        if str.isupper(item):
            seen += 1
        elif seen > 2:
            seen -= 1
    return seen
'''


def test_a_type_the_code_hides_is_found_from_the_errors_of_the_first_round():
    outcome = inputs.run(_seed(TALLY, "tally"), _config())
    report = outcome.evidence[0]
    assert report["rounds"][0]["passed"] < 8 <= report["rounds"][-1]["passed"]  # round 1: only the empty list ran
    assert report["rounds"][1]["lessons"]["shapes"] == {"items": "list[str]"}
    kept = [i.args[0] for i in outcome.kept.inputs]
    assert any(kept) and all(isinstance(x, str) for items in kept for x in items)
    assert any(i.origin.endswith("learned") for i in outcome.kept.inputs)
    assert inputs.run(_seed(TALLY, "tally"), _config()).kept.inputs == outcome.kept.inputs  # seeded


URI = '''
def uri(env, *parts):
    url = env["scheme"] + "://" + env["host"]
    if env.get("port") and env["port"] != "80":
        url += ":" + env["port"]
    for part in parts:
        url += "/" + part
    return url
'''


def test_a_mapping_gets_the_keys_the_code_reads_and_star_args_get_items():
    from ifforge.families.logicif.codeops.inputs.candidates import candidates, describe_signature
    # `env["port"] != "80"`: a value read by a constant key is compared with text, so the values are text
    assert describe_signature(URI, "uri") == "uri(env: dict[str, str], *parts: str)"
    made = candidates(URI, "uri", 7, 40)
    assert any({"scheme", "host"} <= set(c.args[0]) for c in made)
    assert {len(c.args) for c in made} >= {1, 2, 3}  # *parts: none, one, several
    outcome = inputs.run(_seed(URI, "uri"), _config())
    report = outcome.evidence[0]
    assert len(report["rounds"]) == 1  # right from the first round: nothing to learn
    assert any(len(i.args) > 1 for i in outcome.kept.inputs)
    assert all({"scheme", "host"} <= set(i.args[0]) for i in outcome.kept.inputs)


CLOCK = '''
def clock(stamp):
    hours, minutes = stamp.split(":")
    h, m = int(hours), int(minutes)
    if h > 23 or m > 59:
        raise ValueError("out of range")
    return h * 60 + m
'''


def test_invalid_literals_teach_text_made_of_digits():
    outcome = inputs.run(_seed(CLOCK, "clock"), _config())
    report = outcome.evidence[0]
    assert report["rounds"][0]["passed"] < 8 and report["rounds"][-1]["lessons"]["digits"]
    stamps = [i.args[0] for i in outcome.kept.inputs]
    assert len(stamps) >= 3 and all(s.count(":") == 1 for s in stamps)


# ---- texts that reach the code's paths (codeops/inputs/texts.py)

STAMP = r'''
import re
STAMP = re.compile(r"(\d{4})-(\d\d)-(\d\d)")
def stamp(text):
    found = STAMP.match(text)
    if not found:
        return -1
    total = 0
    for part in found.groups():
        total += int(part) % 7
    return total
'''
ESCAPES = '''
def unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "%" and s[i + 1:i + 3].isdigit():
            out.append(chr(int(s[i + 1:i + 3]) + 32))
            i += 3
        elif s.startswith("0x", i):
            out.append("#")
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)
'''


def test_a_text_is_generated_from_a_patterns_parsed_form_and_a_near_miss_differs():
    import random
    import re

    from ifforge.families.logicif.codeops.inputs.texts import MAX_TEXT, matching, near_miss, read_hints

    code = 'import re\nP = re.compile(r"(?P<q>[\\\'\\"])(ab|c+)\\w{2,}(?P=q)[^a-z]\\d{1,3}$", re.ASCII)\n' \
           'def f(s):\n    return re.search("x[0-9]*y", s) is not None\n'
    hints = read_hints(__import__("ast").parse(code))
    assert [compiled.pattern for compiled, _ in hints.patterns] == [
        "(?P<q>[\\'\\\"])(ab|c+)\\w{2,}(?P=q)[^a-z]\\d{1,3}$", "x[0-9]*y"]
    for compiled, parsed in hints.patterns:
        texts = [matching(compiled, parsed, random.Random(seed)) for seed in range(30)]
        assert all(t is not None and compiled.fullmatch(t) and len(t) <= MAX_TEXT for t in texts)
        assert len(set(texts)) > 10  # repeats and alternatives vary with the seed
        assert texts == [matching(compiled, parsed, random.Random(seed)) for seed in range(30)]
        misses = [near_miss(t, random.Random(1)) for t in texts]
        assert all(m != t for m, t in zip(misses, texts)) and any(not compiled.fullmatch(m) for m in misses)
    assert matching(re.compile("a{0}b"), __import__("re")._parser.parse("a{0}b"), random.Random(0)) == "b"


def test_a_seed_pattern_that_could_backtrack_for_hours_is_never_matched_here():
    import random
    import re

    from ifforge.families.logicif.codeops.inputs.texts import _few_ways, matching

    parse = re._parser.parse
    assert _few_ways(parse(r"^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$")) and _few_ways(parse(r"(a|b)*c"))
    assert not _few_ways(parse(r"(a+)+b")) and not _few_ways(parse("a?" * 30 + "a" * 30))
    # the look-ahead is not drawn, so the text fails it: checking it would try 2**40 ways; taken unchecked
    hostile = r"(?=(a+)+c)a{40}b"
    assert matching(re.compile(hostile), parse(hostile), random.Random(0)) == "a" * 40 + "b"
    short = r"(?=(a+)+c)a{3}b"  # the same shape, short: checking it once refused the text
    assert matching(re.compile(short), parse(short), random.Random(0)) == "aaab"


def test_hints_are_the_characters_prefixes_classes_and_separators_the_code_tests():
    import ast

    from ifforge.families.logicif.codeops.inputs.texts import read_hints

    code = '''
def f(s, c):
    if c in "%+" or s[:3] == "227" or s.endswith(")"):
        return "-".join(s.split(";"))
    point = ord(c)
    return c.isdigit() or ord(c) > 127 or 0xFDD0 <= point < 0xFDF0
'''
    hints = read_hints(ast.parse(code))
    assert {"%", "+", "227", ")", "-", ";"} <= hints.pieces
    assert hints.prefixes == {"227"} and hints.suffixes == {")"}
    assert set("0123456789") | {"\x7f", "\x80", "\ufdcf", "\ufdd0", "\ufdef", "\ufdf0"} <= hints.classes
    assert not hints.patterns
    # a text given to a path function may be absolute: "/" leads it at times (a method of `self.path` is no path function)
    paths = read_hints(ast.parse("import os\ndef f(p, q):\n    return os.path.isabs(p) or posixpath.join(q, 'x')"))
    assert paths.prefixes == {"/"} and "/" in paths.pieces
    assert not read_hints(ast.parse("def f(p):\n    return p.path.isabs(p)")).prefixes


def test_numbers_written_as_bytes_or_as_the_code_of_a_character_are_drawn():
    from ifforge.families.logicif.codeops.inputs.candidates import Signature, candidates

    code = 'SAFE = b"-!"\n\ndef f(codes):\n    return [c in SAFE or c == ord(" ") for c in codes]\n'
    assert {32, 33, 45} <= set(Signature(code, "f").ints)  # items meet these: one of them, one off, one past
    drawn = {n for c in candidates(code, "f", seed=1, count=40) for n in c.args[0]}
    assert {32, 33, 45} <= drawn


def test_text_checked_by_a_pattern_or_by_characters_gets_inputs_that_reach_its_paths():
    from ifforge.families.logicif.codeops.inputs.candidates import candidates

    made = candidates(STAMP, "stamp", seed=4, count=80)
    assert candidates(STAMP, "stamp", seed=4, count=80) == made
    reached = [c.args[0] for c in made if c.origin == "text from the code"]
    assert len(reached) >= 20 and sum(1 for t in reached if re.match(r"\d{4}-\d\d-\d\d", t)) >= 5
    chosen = inputs.run(_seed(STAMP, "stamp"), _config()).kept.inputs
    outputs = {row.output for row in run_cases(STAMP, "stamp", [i.args for i in chosen])}
    assert -1 in outputs and len(outputs - {-1}) >= 1  # both sides of the match, and the loop over its groups
    reached = [c.args[0] for c in candidates(ESCAPES, "unescape", seed=4, count=80) if c.origin == "text from the code"]
    assert sum(1 for t in reached if re.search(r"%\d", t)) >= 5 and sum(1 for t in reached if t.startswith("0x")) >= 5
    texts = [i.args[0] for i in inputs.run(_seed(ESCAPES, "unescape"), _config()).kept.inputs]
    assert any(re.search(r"%\d", t) for t in texts) and any("0x" in t for t in texts)  # every branch taken


# ---- inputs that reach the code's other paths: what parts, constants and None say


def test_a_part_read_by_subscript_tells_the_kind_of_the_items():
    from ifforge.families.logicif.codeops.inputs.candidates import describe_signature

    swap = '''
def swap(text, *pairs):
    while pairs:
        text = pairs[1].join(text.split(pairs[0]))
        pairs = pairs[2:]
    return text
'''
    pad = '''
def pad(s, n):
    i = 0
    while n and s[i] == " ":
        i += 1
        n -= 1
    return s[i:]
'''
    pair = '''
def pair(a, b):
    return "".join(x if y == " " and x.isspace() else y for x, y in zip(a, b))
'''
    rows = '''
def put(rows, s):
    if not rows or len(rows[-1]) > 3:
        rows.append(s)
    return len(rows)
'''
    # `pairs[1].join(...)`: the items are text (were ints, so the loop never ran without an error)
    assert describe_signature(swap, "swap") == "swap(text: str, *pairs: str)"
    assert describe_signature(pad, "pad") == "pad(s: str, n: int)"  # `s[i] == " "`: s is text
    assert describe_signature(pair, "pair") == "pair(a: str, b: str)"  # zip binds x to a, y to b
    assert describe_signature(rows, "put") == "put(rows: list[list[int]], s: str)"  # len(rows[-1])


def test_arithmetic_with_a_float_and_a_slice_joined_to_text_tell_the_kind():
    from ifforge.families.logicif.codeops.inputs.candidates import describe_signature

    ratio = "def ratio(matches, length):\n    if length:\n        return 2.0 * matches / length\n    return 1.0\n"
    cut = "def cut(text, width):\n    if len(text) > width:\n        return text[:width] + '...'\n    return text\n"
    assert describe_signature(ratio, "ratio") == "ratio(matches: int, length: int)"  # not a list by its name
    assert describe_signature(cut, "cut") == "cut(text: str, width: int)"


SIZES = '''
BIG = 1 << 16
def size(n):
    if n < 1 << 8:
        return 1
    elif n < BIG:
        return 2
    return 4
'''


def test_constants_written_as_expressions_or_module_names_give_boundaries_that_reach_each_branch():
    from ifforge.families.logicif.codeops.inputs.candidates import candidates

    drawn = {c.args[0] for c in candidates(SIZES, "size", 1, 40)}
    assert {255, 256, 65535, 65536} <= drawn
    outcome = inputs.run(_seed(SIZES, "size"), _config())
    outputs = {1 if n < 256 else 2 if n < 65536 else 4 for n in (i.args[0] for i in outcome.kept.inputs)}
    assert outputs == {1, 2, 4}


FIRST = '''
def first(items, default=0):
    if items is None:
        return default
    return items[0] if items else default
'''
DECODE = '''
def decode(text, encoding="utf-8"):
    if "%" not in text:
        return text
    return text.replace("%", "").encode(encoding).hex()
'''


def test_none_is_tried_where_the_code_tests_for_it_and_some_candidates_keep_every_default():
    from ifforge.families.logicif.codeops.inputs.candidates import candidates

    made = candidates(FIRST, "first", 1, 40)
    assert any(c.args[0] is None for c in made) and any(isinstance(c.args[0], list) for c in made)
    assert not any(c.args[0] is None for c in candidates(DECODE, "decode", 1, 40))  # never tested for None
    kept = [c.args for c in candidates(DECODE, "decode", 1, 40) if c.origin == "defaults kept"]
    assert kept and all(args[1] == "utf-8" for args in kept) and len({args[0] for args in kept}) > 1
    outcome = inputs.run(_seed(FIRST, "first"), _config())
    assert None in [i.args[0] for i in outcome.kept.inputs]  # the `is None` side is covered


TABLE = '''
SPECIAL = {0x3a3: "sigma", 0x3c0: "pi", 0x2126: "ohm"}
MARKS = set([0x2010, 0x2013] + list(range(0x2018, 0x201c)))
def look(ch):
    point = ord(ch)
    if point < 128:
        return "ascii"
    if point in MARKS:
        return "mark"
    return SPECIAL.get(point, "other")
'''


def test_a_character_given_to_ord_meets_the_tables_and_bounds_the_code_looks_it_up_in():
    from ifforge.families.logicif.codeops.inputs.candidates import describe_signature

    assert describe_signature(TABLE, "look") == "look(ch: str (one character))"
    outcome = inputs.run(_seed(TABLE, "look"), _config())
    points = {ord(i.args[0]) for i in outcome.kept.inputs}
    sides = {"ascii" if p < 128 else "mark" if p in {0x2010, 0x2013, 0x2018, 0x2019, 0x201a, 0x201b}
             else "table" if p in (0x3a3, 0x3c0, 0x2126) else "other" for p in points}
    assert sides == {"ascii", "mark", "table", "other"}


KINDED = '''
def f(a, b, c, d, e):
    try:
        n = len(a)
    except TypeError:
        n = -1
    if type(b) is list or callable(c) or _probe(d):
        return n
    return e
def _probe(x):
    return hasattr(x, "keys")
'''


def test_a_value_whose_kind_the_code_tests_is_drawn_over_every_json_kind_unless_it_is_converted():
    from collections import Counter

    from ifforge.families.logicif.codeops.inputs.candidates import Signature, candidates
    from ifforge.families.logicif.codeops.inputs.kinds import kind_of

    # a caught TypeError, type(), callable() and hasattr() in a helper ask the kind; `return e` does not
    parameters = Signature(KINDED, "f").parameters
    assert [p.tested for p in parameters] == [True, True, True, True, False]
    assert [p.open_kind for p in parameters] == [True, True, True, True, False]
    made = candidates(KINDED, "f", 2, 80)
    for position in range(4):
        kinds = Counter(kind_of(c.args[position]) for c in made)
        assert len(kinds) >= 5 and kinds.most_common(1)[0][1] >= len(made) / 2  # its own kind stays common
    assert Counter(kind_of(c.args[0]) for c in made).most_common(1)[0][0] == "list"  # len(a): a container
    assert {kind_of(c.args[4]) for c in made} == {"int"}  # unknown but never tested: whole numbers, as before
    # a normaliser (`isinstance(n, str)`, then `n = int(n)`): tested, but drawn as its kind alone
    normal = "def g(n):\n    if isinstance(n, str):\n        n = int(n)\n    return n % 2\n"
    (n,) = Signature(normal, "g").parameters
    assert n.tested and not n.open_kind and {kind_of(c.args[0]) for c in candidates(normal, "g", 2, 40)} == {"str"}


DEPTHS = '''
def pick(table, n):
    entry = table[n]
    first = entry[0]
    if isinstance(first, str):
        return first
    inner = first[0]
    if isinstance(inner, str):
        return ["inner", inner]
    return ["deeper"]
'''


def test_a_kind_tested_at_some_depth_is_varied_there_by_the_search():
    import random

    from ifforge.families.logicif.codeops.inputs.mutate import _nest, nesting

    # the code asks the kind of what it read by subscript: the search may wrap values at one depth
    assert nesting(DEPTHS) and not nesting("def f(v):\n    if isinstance(v, str):\n        return v\n    return 0\n")
    rng = random.Random(3)
    wrapped = [_nest([["ab", "cd"], 0], rng, [], ["x"]) for _ in range(30)]
    kinds = {tuple(type(item).__name__ for item in args[0]) for args in wrapped}
    assert ("list", "list") in kinds  # every item at the chosen depth at once, never one alone
    assert all(len(set(row)) == 1 for row in kinds)
    # with it the working calls reach the branch two levels down, not only the first text
    outcome = inputs.run(_seed(DEPTHS, "pick"), _config())
    results = run_cases(DEPTHS, "pick", [i.args for i in outcome.kept.inputs])
    assert any(isinstance(r.output, list) and r.output[0] == "inner" for r in results)
