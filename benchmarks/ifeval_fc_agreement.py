"""Agreement of ifforge's IFEval-FC checkers with the paper repository's own, in both modes.

    python benchmarks/ifeval_fc_agreement.py ORIGINALS_DIR --paper-python /path/to/venv/bin/python

ORIGINALS_DIR is a fetched copy of the IFEval-FC repository (Skripkon/IFEval-FC); --paper-python a
Python with its dependencies (nltk; langchain-openai and colorama for the end-to-end part). Nothing
is fetched and nothing of the paper's is copied: its checkers, tests and evaluate.py are run from
ORIGINALS_DIR, in that Python, in a child process. Paper mode counts words as the nltk that Python
has (`--paper-nltk auto`: setting `paper_nltk` 3.10 for nltk 3.10.3 and later, else 3.9), or as
`--paper-nltk` says; the first line printed names both. Printed:

1. checkers: thousands of candidate argument strings built from the paper's 150 data files (its
   queries, their rewrites into each rule's format, and edge cases on purpose), each judged by the
   paper's checker and by ours, `ifforge` and `paper` rules, agreement per rule;
2. the paper's own test expectations (its tests/test_checkers.py, every assert counted on its own)
   against its code, against our paper rules and against our default rules;
3. end to end: a scripted server answers every query with the same tool call for both (calls of
   every shape: right, wrong format, no call, missing parameter, a number, JSON that does not parse,
   another function's name, a reply the paper's client cannot read); the paper's evaluate.py and
   ifforge's evaluate (both rule modes) score them; agreement per case and the three rates;
4. the same for ifforge's own bank benchmark, exported in the paper's layout (`export --format
   ifeval-fc`) for the paper's evaluate.py, beside ifforge's evaluate on the rows themselves.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import re
import subprocess
import sys
import tempfile
import types
from collections import Counter, defaultdict
from pathlib import Path

# ---- the paper's side (runs in --paper-python; imports nothing of ifforge) ----------------------


def expectations_of(test_file: Path) -> types.CodeType:
    """The test module with every `assert X` turned into `_expect(lambda: X, line)`, so each
    expectation counts on its own (and one that raises is one failed expectation)."""

    class Rewrite(ast.NodeTransformer):
        def visit_Assert(self, node):
            check = ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
                               body=node.test)
            call = ast.Call(func=ast.Name("_expect", ast.Load()), args=[check, ast.Constant(node.lineno)], keywords=[])
            return ast.copy_location(ast.Expr(call), node)

    tree = ast.fix_missing_locations(Rewrite().visit(ast.parse(test_file.read_text())))
    return compile(tree, str(test_file), "exec")


def run_expectations(test_file: Path) -> dict[str, bool]:
    """`function:line` -> met, for every expectation of the test file, with whatever
    `IFEval_FC.checkers` is importable now."""
    met: dict[str, bool] = {}
    current = [""]

    def expect(check, line):
        try:
            met[f"{current[0]}:{line}"] = bool(check())
        except Exception:  # noqa: BLE001 - a checker that raises does not meet the expectation
            met[f"{current[0]}:{line}"] = False

    namespace = {"_expect": expect, "__name__": "paper_tests"}
    exec(expectations_of(test_file), namespace)  # noqa: S102 - the paper's own test file, rewritten
    for name, function in list(namespace.items()):
        if name.startswith("test_") and callable(function):
            current[0] = name
            function()
    return met


def paper_side(originals: Path, job: Path) -> None:
    """Verdicts of the paper's checkers on the job's (checker, args, value) triples, and its own
    test expectations against its own code; JSON on stdout."""
    sys.path.insert(0, str(originals))
    from IFEval_FC.checkers import get_all_checkers

    classes = {cls.__name__: cls for cls in get_all_checkers()}
    verdicts = []
    for checker, args, value in json.loads(job.read_text()):
        instance = classes[checker]()
        instance.arguments = args
        try:
            verdicts.append([bool(instance.check_following(value)), None])
        except Exception as error:  # noqa: BLE001 - the paper's evaluate.py counts it as not following
            verdicts.append([False, type(error).__name__])
    import nltk

    print(json.dumps({"verdicts": verdicts, "tests": run_expectations(originals / "tests" / "test_checkers.py"),
                      "nltk": nltk.__version__}))


# ---- candidates -----------------------------------------------------------------------------------

GREEK = dict(zip("abcdefghijklmnopqrstuvwxyz", "αβψδεφγηιξκλμνοπ;ρστθωςχυζ"))
CYRILLIC = dict(zip("abcdefghijklmnopqrstuvwxyz", "абцдефгхийклмнопярстуввхыз"))
EDGE = ["", " ", "word", "snake_case", "day’s end", "STOP—NOW please", "COVID_19 and NATO", "Really?! Yes.",
        "Wait... Now!", "Dr. Smith came. He left.", "Pi is 3.14 today. Right…", "e.g. this one", "A. B. C.",
        "Hello.\nP.S. see you", "P. P. S. more", "''", '""', "' '", "'hi'", '"hi"', "“hi”", "'hi' there", "\"", "42",
        '"text"', "[1, 2]", "null", "NaN", '{"a": NaN}', "{'a': 1}", '{"a": 1', '{"a": 1}', '```json\n{"a": 1}\n```',
        "```\n[1]\n```", "['a', 'b']", "['a', 1]", "('a',)", '```python\n["x"]\n```', "[]", "[" * 1200,
        "*one* and **two**", "* item\n* item", "** ** *x*", "**a\nb**", "*a * b*", "[name] at [address]", "[] [ ]",
        "[a\nb] [c]", "<<My Trip>> and more", "<<>>", "<< >>", "<<a\nb>>", "<<>> x <<>>", "<title>", ",,,",
        "a，b，c，d", "one     two", "one     two ", "one\ttwo", "one     two\nthree", "İi", "Ééé e",
        "Привет, мир! 2024", "Привеt", "ёж_ёж", "Καλημέρα κόσμε.", "ᾅδης", "Мир ٣", "123 ...", "йод\u0301"]


def candidates(data: dict) -> list[str]:
    """Argument strings for one data file: its queries, rewrites of the first into the file's
    format (and near misses), and the edge cases."""
    queries = [q for q in data["user_queries"] if isinstance(q, str)]
    first = queries[0]
    words = first.split()
    args = data["format"].get("args") or {}
    n = args.get("N", 5) if isinstance(args.get("N"), int) else 5
    found = list(queries)
    found += [first.upper(), first.lower(), " ".join(words[:n]), (" " * n).join(words[:n]),
              (" " * n).join(words[:3]) + " ", (" " * n).join(w.strip(".,") for w in words[:4]),
              "".join(CYRILLIC.get(c, c) for c in first.lower()), "".join(GREEK.get(c, c) for c in first.lower()),
              json.dumps({"note": first}), f"```json\n{json.dumps({'note': first})}\n```", repr(words[:n]),
              f"'{first}'", f'"{first}"', f"**{words[0]}** {first} *{words[-1]}*", f"[{words[0]}] {first} [x]",
              f"<<{words[0]}>> {first}", first.replace(".", "?!"), first.replace(",", ""),
              ", ".join(words[:n + 1]), " ".join(w.upper() for w in words[:n]) + " " + " ".join(words[n:])]
    keywords = args.get("list_of_keywords") or ([args["keyword"]] if "keyword" in args else [])
    if keywords:
        found += [" ".join(keywords), " ".join(k.upper() + "!" for k in keywords) * n, "_".join(keywords),
                  " ".join(k + "s" for k in keywords), first + " " + " ".join(f"{k}’s" for k in keywords)]
    if "letter" in args:
        found += [args["letter"] * n, args["letter"].upper() * (n + 1), first[: 3 * n]]
    return found + EDGE


# ---- the tricky set, and candidate files from elsewhere ---------------------------------------------

ZW, ZWNJ, ZWJ, NBSP, VS16 = "\u200b", "\u200c", "\u200d", "\u00a0", "\ufe0f"
TRICKY = {
    "look-alikes": ["p\u0430per day", "ΑΒΓ ABC", "ＦＵＬＬ ｗｉｄｔｈ ＷＯＲＤＳ", "𝐁𝐎𝐋𝐃 𝐟𝐢𝐫𝐬𝐭 first", "ʀɪᴠᴇʀ ꜱᴍᴀʟʟ ᴄᴀᴘꜱ",
                    "ﬁrst ﬂow ﬀ", "ſeparate ſtreet", "Ⅻ Ⓐ ℍ ⅻ ⓐ ℌ", "ǅungla ǈ Ǌ", "İstanbul ıi", "STRAẞE straße",
                    "ΣΊΣΥΦΟΣ σίσυφος", "Ꭺ Ᏼ Ꮯ", "ⅰⅱⅲ", "К0Т kот", "DAY’S day's day‘s", "Ｐ.Ｓ. note", "𝒻𝒾𝓇𝓈𝓉 ℯ𝓃𝒹"],
    "invisible": [f"word{ZW}word", f"a{ZWNJ}b{ZWJ}c", "\u2060join\u2060", "\ufeffBOM first", "soft\u00adhyphen",
                  f"zero{ZW} {ZW}width", ZW, "two\u2009thin\u2009spaces", f"nbsp{NBSP}here", "ideo\u3000space",
                  "line\u2028sep", "para\u2029sep", "nel\u0085next", "tab\there", "cr\r\nlf", f"P{ZW}.S. zero"],
    "decomposed": ["cafe\u0301", "e\u0301te\u0301 d’e\u0301te\u0301", "Ame\u0301lie CAFE\u0301", "n\u0303o",
                   "a\u0308\u0304", "\u1100\u1161\u11a8 \u1112\u1161\u11ab", "\u0301alone", "Z\u0351\u0300a\u0363l\u036bgo",
                   "i\u0307 I\u0307", "Е\u0308ж мёд"],
    "scripts": ["नमस्ते दुनिया", "தமிழ் மொழி", "ภาษาไทย ง่าย", "ক্ষমা", "مرحبا بالعالم", "שָׁלוֹם", "日本語の文章です。次の文。",
                "中文，逗号。问号？感叹！", "한국어 문장입니다.", "Привет, мир! ВСЁ", "Καλημέρα κόσμε; ΝΑΙ", "Привеt", "ᲀᲁ ꙁ",
                "Ϗϗ Ϳ ϴ", "Ѐ ѝ"],
    "numbers": ["½ ① ² ٣ Ⅻ 〇 万", "3.14 and 2½", "x² + y² = z²", "①②③", "¼ cup", "٣٤٥", "१२३", "10,000,000", "1e999"],
    "emoji": [f"❤{VS16} ❤{VS16} ❤{VS16}", "❤ ❤ ❤", "👍🏽 thumbs", f"👨{ZWJ}👩{ZWJ}👧 family", "🇫🇷 🇩🇪",
              f"1{VS16}\u20e3 2{VS16}\u20e3 #{VS16}\u20e3", f"☀{VS16} sunny ☔", f"🏳{VS16}{ZWJ}🌈", f"I ❤{VS16} NY",
              f"✔{VS16} DONE ✅", "😀" * 5],
    "fences": ['```json\n{"a": 1}', '{"a": 1}\n```', '```py\n["a", "b"]\n```', '```py\n["a", "b"]', '["a"]\n```',
               '```python3\n["x"]\n```', '```\n{"a": 1}\n```', '``` json\n{"a": 1}\n```', '```json {"a": 1}```',
               '```json\n{"a": 1}\n```\nmore text', '~~~json\n{"a": 1}\n~~~', '````json\n{"a": 1}\n````',
               '```json```{"a": 1}', '```JSON\n{"a": 1}\n```', "```python\n['a']\n```", '```PYTHON\n["a"]\n```',
               '```Python\n["a"]```', '  ```json\n{"a": 1}\n```  ', f'{NBSP}{{"a": 1}}{NBSP}', '\ufeff{"a": 1}',
               "```\n```", "```"],
    "nesting": ["[" * 101, '{"a": ' * 101 + "1" + "}" * 101, "[" * 50 + "]" * 50, "[" * 120 + '"x"' + "]" * 120,
                '[[[["a"]]]]', '["[[[[", "]]]"]', '{"k": "' + "[" * 150 + '"}', "[" * 999 + "]" * 999,
                "[" * 1100 + "]" * 1100, "(" * 150 + ")" * 150, "[" + "[]," * 300 + "[]]",
                '{"a": {"b": {"c": [1, {"d": "e"}]}}}', "[" * 200 + "'a'" + "]" * 200],
    "json": ['{"a": 1,}', '{"a": 1} // c', '{"a": Infinity}', '{"a": -NaN}', '{"a": "\\ud800"}', '{"a": 1}{"b": 2}',
             '{"a":1, "a":2}', '{"n": ' + "9" * 5000 + "}", '{"n": 1e400}', "{'a': 1}", '{"a": "b\nc"}', '{"a": true}',
             " {} ", "{}", '{"é": "é"}', '"{}"', "[]"],
    "python": ["['a' 'b']", "['a', *['b']]", "[f'x']", "['a',]", '["a"] # c', "['\\N{BULLET}']", "[b'x']", "[u'x']",
               "[r'\\d']", "['a'] + ['b']", "list('ab')", "[" + "'" * 3 + "x" + "'" * 3 + "]", "[\n'a',\n'b'\n]",
               "['a'][0:1]", "[None]", "[('a')]", "[('a',)]", "['\\x00']", "['a']\x00", "\t['a']", '["é"]', "[1_000]",
               "['a' if 1 else 'b']", "[...]", "['" + "a" * 10000 + "']"],
    "sentences": ["Hello… World… Again", "One。Two。Three。", "Mr. Smith. Dr. Who! Ph.D. yes.", "U.S.A. He left. It rained.",
                  "a.b.c. They said so.", "Call 555.1234 now. ok", "Wait?! No!! Yes...", "He said “stop.” Then left.",
                  'She said "go!" He went.', "Visit example.com. Now.", "Inc. They grew. Co. Ltd.", "end.” next",
                  "e.g. i.e. etc. vs. fine.", "...", "!!!", "‼ ⁇ ‽ done.", "¿Qué? ¡Sí!", "Line one\nLine two.\nLine three",
                  "No. 5 is here. No. it is not.", "「好。」然后呢？"],
    "format": ["<<Cats > Dogs>>", "<<x<y>>", "<<<Title>>>", "<<a>>b>>", "\u00abTitle\u00bb", "《书名》", "≪Title≫",
               f"<<{ZW}>>", "<< Title >>", "<<Title>>\n<<>>", "＜＜全角＞＞", "<<>> x <<>>", "<<>>>", "**bold*", "***x***",
               f"*{ZW}*", "＊x＊", "** **", "*a*b*c*", "__under__", "[x] [[y]] [z\nw]", "［x］", f"[{ZW}]",
               "[a] [b] [c] [d] [e] [f]", "“smart” ‘single’", "'mixed\"", '"' * 3 + "triple" + '"' * 3, "'" * 3,
               f'"{ZW}"', "\u00abguillemets\u00bb", "a，b，c", "a、b", "a،b", "a﹐b", ",,,,,,,,", "one     two     three",
               f"one{NBSP * 5}two", f"one     two{ZW}", "P.P.S. p.p.s. P. P. S.", "P.S.\nP.S.", "ps. not", "THAT'S IT",
               "that’s it", f"all done{ZW}", "cafe\u0301", "all done.  \n"],
    "case and words": ["ALL CAPS 123", "all lower 123", "ǅ", "ß", "ẞ", "ΣΑΣ", "ﬁ", "ℍ", "ℎ", "Ⓐ", "ⓐ", "Ⅻ", "ⅻ", "ᴀʙᴄ",
                       "ＡＢＣ", "ａｂｃ", "123", "", " ", "ǈ", "snake_case and kebab-case", "don't won’t", "e-mail co-op",
                       "C++ C# .NET", "http://example.com/a_b?c=d", "user@mail.com", "a/b\\c", "x‿y ‿", "word_ _",
                       "— – -", "ab\u0300cd", "Ꮯherokee"],
}
COUNTED = {"exactly": range(0, 13), "at most": (0, 6, 12), "at least": (1, 7, 13)}  # sweeps that pin a count up to 12


def counted(**fixed) -> list[dict]:
    return [{**fixed, "N": n, "comparison_option": option} for option, ns in COUNTED.items() for n in ns]


TRICKY_ARGS = {
    "KeywordsPresenceChecker": [{"list_of_keywords": keywords, "must_include": include}
                                for keywords in (["first", "separate"], ["day"], ["word", "width"], ["done", "all"])
                                for include in (True, False)],
    "KeywordFrequencyChecker": [args for keyword in ("first", "day", "a") for args in counted(keyword=keyword)[:4]],
    "LetterFrequencyChecker": [args for letter in "esif" for args in counted(letter=letter)[:8]],
    "CyrillicGreekChecker": [{"script": "cyrillic"}, {"script": "greek"}],
    "WordCountChecker": counted(),
    "SentenceCountChecker": counted(),
    "PostscriptChecker": [{"postscript_marker": "P.S."}, {"postscript_marker": "P.P.S."}],
    "PlaceholderCountChecker": counted(),
    "SpacesInBetweenChecker": [{"N": 1}, {"N": 5}],
    "TitleFormatChecker": [{}],
    "HighlightedSectionsCountChecker": counted(),
    "JsonFormatChecker": [{}],
    "PythonListFormatChecker": [{}],
    "AllUppercaseChecker": [{}],
    "AllLowercaseChecker": [{}],
    "NAllCapitalWordsChecker": counted(),
    "EndPhraseChecker": [{"end_phrase": phrase} for phrase in ("that's it", "all done", "café", "it")],
    "QuotationChecker": [{"quotation_type": "single"}, {"quotation_type": "double"}],
    "NCommasChecker": counted(),
}


def tricky_values() -> list[str]:
    """Every tricky value, and each short one again decomposed (NFD), with a zero-width space after
    each space, and with no-break spaces for its spaces."""
    import unicodedata

    values = [value for group in TRICKY.values() for value in group]
    variants = [variant for value in values if 0 < len(value) < 60 for variant in
                (unicodedata.normalize("NFD", value), value.replace(" ", " " + ZW), value.replace(" ", NBSP))]
    return list(dict.fromkeys(values + variants))


def tricky_candidates() -> list[tuple[str, dict, str]]:
    """(checker, args, value): every tricky value under every checker and its swept arguments."""
    values = tricky_values()
    return [(checker, args, value) for checker, arg_list in TRICKY_ARGS.items() for args in arg_list
            for value in values]


def read_candidates(path: Path) -> list[tuple[str, dict, str]]:
    """(checker, args, value) triples of a candidate file: JSON lines, or one JSON list, of objects
    with `format` ({"name", "args"}) and `value`. An item that does not fit stops the run, named."""
    from ifforge.families.ifeval_fc import paper

    text = path.read_text(encoding="utf-8")
    if text.lstrip().startswith("["):
        try:
            items = [(f"{path}: item {n}", item) for n, item in enumerate(json.loads(text), 1)]
        except ValueError as error:
            sys.exit(f"{path}: not JSON ({error})")
    else:
        items = []
        for n, line in enumerate(text.split("\n"), 1):  # not splitlines: U+2028 may sit inside a string
            try:
                items += [(f"{path}:{n}", json.loads(line))] if line.strip() else []
            except ValueError as error:
                sys.exit(f"{path}:{n}: not JSON ({error})")
    found = []
    for where, item in items:
        form = item.get("format") if isinstance(item, dict) else None
        if not isinstance(form, dict) or form.get("name") not in paper.CHECKERS:
            sys.exit(f'{where}: needs "format": {{"name": <one of {", ".join(paper.CHECKERS)}>, "args": {{...}}}}')
        args = form.get("args") or {}
        if not isinstance(args, dict) or not isinstance(item.get("value"), str):
            sys.exit(f'{where}: needs "format"."args" as an object and "value" as a string')
        try:
            paper.our_args(form["name"], args)
        except KeyError as error:
            sys.exit(f'{where}: "format"."args" lacks {error} for {form["name"]}')
        found.append((form["name"], args, item["value"]))
    return found


def write_candidates(path: Path, triples: list[tuple[str, dict, str]]) -> None:
    path.write_text("".join(json.dumps({"format": {"name": checker, "args": args}, "value": value}, ensure_ascii=False)
                            + "\n" for checker, args, value in triples), encoding="utf-8")


# ---- ifforge's side -------------------------------------------------------------------------------


def load_files(originals: Path, data: Path | None = None) -> list[tuple[str, dict]]:
    return [(path.stem, json.loads(path.read_text())) for path in sorted((data or originals / "data").glob("*.json"))]


def paper_shim(mode: str, nltk: str) -> types.ModuleType:
    """An `IFEval_FC.checkers` whose checker classes judge with our rules in `mode`."""
    from ifforge.families.ifeval_fc import paper, paper_rules

    module = types.ModuleType("IFEval_FC.checkers")
    for name, (rule_id, _) in paper.CHECKERS.items():
        def check_following(self, value, rule_id=rule_id, name=name):
            return paper_rules.rule(mode, rule_id, paper.our_args(name, self.arguments), nltk).check(value)

        setattr(module, name, type(name, (), {"arguments": {}, "check_following": check_following}))
    return module


def our_tests(originals: Path, mode: str, nltk: str) -> dict[str, bool]:
    package = types.ModuleType("IFEval_FC")
    package.checkers = paper_shim(mode, nltk)
    saved = {key: sys.modules.get(key) for key in ("IFEval_FC", "IFEval_FC.checkers")}
    sys.modules.update({"IFEval_FC": package, "IFEval_FC.checkers": package.checkers})
    try:
        return run_expectations(originals / "tests" / "test_checkers.py")
    finally:
        for key, module in saved.items():
            if module is None:
                sys.modules.pop(key, None)
            else:
                sys.modules[key] = module


def paper_verdicts(originals: Path, python: str, work: Path, jobs: list[tuple[str, dict, str]]) -> dict:
    """The paper's side, run once on every (checker, args, value): its verdicts, its own test
    expectations and the nltk it ran with."""
    job = work / "job.json"
    job.write_text(json.dumps(jobs))
    done = subprocess.run([python, __file__, str(originals), "--paper-side", str(job)], capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"the paper's side failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout)


def agreement_table(title: str, jobs: list[tuple[str, dict, str]], verdicts: list, nltk: str) -> None:
    """Per paper checker: how often our rules, both modes, give the paper's verdict; a few of
    paper mode's disagreements, if any."""
    from ifforge.families.ifeval_fc import paper, paper_rules

    table: dict[str, Counter] = defaultdict(Counter)
    examples: dict[str, list] = defaultdict(list)
    for (checker, args, value), (verdict, _) in zip(jobs, verdicts):
        rule_id, ours_args = paper.CHECKERS[checker][0], paper.our_args(checker, args)
        for mode in ("ifforge", "paper"):
            ours = paper_rules.rule(mode, rule_id, ours_args, nltk).check(value)
            table[checker][mode] += ours == verdict
            if mode == "paper" and ours != verdict and len(examples[checker]) < 3:
                examples[checker].append((value[:60], args, verdict, ours))
        table[checker]["n"] += 1
    print(f"\n## {title}: {len(jobs):,} candidate argument strings (paper rules: paper_nltk {nltk})\n")
    print(f"| {'paper checker':<32} | cases | ifforge rules | paper rules |\n|---|---|---|---|")
    total = Counter()
    for checker in sorted(table):
        row = table[checker]
        total.update(row)
        print(f"| {checker:<32} | {row['n']:5} | {row['ifforge'] / row['n']:13.1%} | {row['paper'] / row['n']:11.2%} |")
    print(f"| {'all':<32} | {total['n']:5} | {total['ifforge'] / total['n']:13.1%} | {total['paper'] / total['n']:11.2%} |")
    for checker, cases in examples.items():
        print(f"  paper-mode disagreement, {checker}: {cases}")


def nltk_variant(version: str) -> str:
    """The `paper_nltk` that reproduces an nltk version: 3.10 from 3.10.3 (the `regex` engine), else 3.9."""
    numbers = tuple(int(part) for part in re.findall(r"\d+", version)[:3])
    return "3.10" if numbers >= (3, 10, 3) else "3.9"


def checker_agreement(originals: Path, python: str, work: Path, outside: list[Path],
                      nltk: str) -> tuple[dict[str, bool], str]:
    """Prints the checker tables; returns the paper's own test expectations and the `paper_nltk`
    used (`auto`: the one matching the nltk the paper's side ran with)."""
    from ifforge.families.ifeval_fc.paper_rules import NLTK

    files = load_files(originals)
    sets = [(f"1. Checkers, candidates from the {len(files)} data files",
             [(data["format"]["name"], data["format"].get("args") or {}, value)
              for _, data in files for value in candidates(data)]),
            ("1b. Checkers, the tricky set built here", tricky_candidates())]
    sets += [(f"1{chr(ord('c') + n)}. Checkers, {path}", read_candidates(path)) for n, path in enumerate(outside)]
    theirs = paper_verdicts(originals, python, work, [job for _, jobs in sets for job in jobs])
    chosen = nltk_variant(theirs["nltk"]) if nltk == "auto" else nltk
    print(f"The paper's side ran with nltk {theirs['nltk']}; paper mode counts words as {NLTK[chosen]} does "
          f"(paper_nltk {chosen}, {'matching it' if nltk == 'auto' else 'as --paper-nltk says'}).")
    start = 0
    for title, jobs in sets:
        agreement_table(title, jobs, theirs["verdicts"][start:start + len(jobs)], chosen)
        start += len(jobs)
    return theirs["tests"], chosen


def test_agreement(originals: Path, theirs: dict[str, bool], nltk: str) -> None:
    print("\n## 2. The paper's own test expectations (tests/test_checkers.py, one per assert)\n")
    print(f"- met by the paper's code: {sum(theirs.values())} of {len(theirs)}")
    for mode in ("paper", "ifforge"):
        ours = our_tests(originals, mode, nltk)
        missed = sorted(key for key, met in ours.items() if not met)
        same = sum(ours.get(key) == met for key, met in theirs.items())
        print(f"- met by ifforge's {mode} rules: {sum(ours.values())} of {len(ours)} (same verdict as the paper's code "
              f"on {same}){'; missed: ' + ', '.join(missed[:12]) + (' ...' if len(missed) > 12 else '') if missed else ''}")


# ---- end to end -----------------------------------------------------------------------------------

SHAPES = ("right", "right", "right", "right", "no_call", "missing", "number", "bad_json", "other_name", "two_calls",
          "empty_args", "newline")  # and, one reply in 40, JSON that is not an object (the paper's client fails the batch)


def scripted_reply(query: str, files: dict[str, list[tuple[dict, list[str]]]]):
    """The one answer both evaluators get for `query`: a call shape and a candidate value chosen by
    a hash of the query (the same query, the same answer, whoever asks)."""
    from ifforge.testing.openai_stub import Answer

    digest = int(hashlib.sha256(query.encode()).hexdigest(), 16)
    data, pool = files[query][0]
    name, parameter = data["fn_schema"]["name"], data["chosen_param"]
    value = pool[digest // 7 % len(pool)]
    shape = "unreadable" if digest % 40 == 0 else SHAPES[digest % len(SHAPES)]

    def call(arguments, function=name):
        return {"name": function, "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments)}

    calls = {"right": [call({parameter: value})], "no_call": [], "missing": [call({"other": value})],
             "number": [call({parameter: 42})], "bad_json": [call('{"%s": "%s' % (parameter, value[:20]))],
             "other_name": [call({parameter: value}, "some_other_tool")],
             "two_calls": [call({parameter: value}), call({parameter: pool[0]})], "empty_args": [call("")],
             "newline": [call('{"%s": "%s\nsecond line"}' % (parameter, value[:20].replace('"', "").replace("\\", "")))],
             "unreadable": [call('"%s"' % value[:20].replace('"', "").replace("\\", ""))]}[shape]
    return Answer(content=None if calls else "Which details would you like?", tool_calls=calls or None)


def our_bank_in_paper_layout(work: Path) -> tuple[Path, list[dict]]:
    """ifforge's default offline benchmark (the bank, seed 0), exported in the paper's layout."""
    from ifforge.exports import export
    from ifforge.exports.benchmark import read_benchmark
    from ifforge.families.ifeval_fc import functions
    from ifforge.families.ifeval_fc.family import assign, enabled_rules, row_of
    from ifforge.families.ifeval_fc.settings import IfevalFcSettings

    settings = IfevalFcSettings(family="ifeval-fc", llm="none")
    config = functions.CheckConfig(queries=settings.queries_per_function, rules=enabled_rules(settings))
    cases, _, _ = assign([functions.check(f, config).kept for f in functions.from_bank()], settings)
    rows = [row_of(case, settings) for case in cases]
    source = work / "bank.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows))
    export(read_benchmark(source), "ifeval-fc", work / "bank_layout")
    return work / "bank_layout", rows


def end_to_end(originals: Path, python: str, work: Path, nltk: str, data_dir: Path | None = None,
               our_rows: list[dict] | None = None) -> None:
    from ifforge.eval import template
    from ifforge.eval.evaluation import EvalSettings
    from ifforge.families.ifeval_fc import paper
    from ifforge.families.ifeval_fc.family import FAMILY
    from ifforge.testing.openai_stub import StubServer

    files: dict[str, list] = defaultdict(list)
    for _, data in load_files(originals, data_dir):
        for query in data["user_queries"]:
            files[query].append((data, candidates(data)))

    def handler(request):
        query = next(m["content"] for m in request["messages"] if m["role"] == "user")
        return scripted_reply(query, files)

    rows = our_rows or paper.convert(originals / "data")
    label = "ifforge's bank exported in the paper's layout" if our_rows else "the paper's 150 data files"
    with StubServer(handler) as server:
        env = {"OPENAI_API_KEY": "stub", "OPENAI_BASE_URL": server.url, "OPENAI_MAX_RETRIES": "0",
               "PATH": "/usr/bin:/bin", "HOME": str(work)}
        out = work / "paper_results.json"
        done = subprocess.run([python, "evaluate.py", "--data-dir", str(data_dir or "data"), "--provider", "openai", "--model", "stub",
                               "--output", str(out)], cwd=originals, env=env, capture_output=True, text=True)
        if done.returncode or not out.exists():
            sys.exit(f"the paper's evaluate.py failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        summaries, frames = {}, {}
        for mode in ("ifforge", "paper"):
            settings = EvalSettings(model="stub", base_url=server.url, api_key="stub", llm_concurrency=8,
                                    llm_max_retries=0,
                                    options={"rules": mode, "paper_nltk": nltk if mode == "paper" else "3.9"})
            folder = work / f"ours_{mode}_{len(rows)}_{bool(our_rows)}"
            summaries[mode] = template.evaluate(FAMILY, rows, settings, work / f"cache_{bool(our_rows)}.sqlite",
                                                folder, mode)["overall"]
            import pandas as pd

            frames[mode] = pd.read_parquet(folder / "scores.parquet").set_index("task_id")
    theirs = json.loads(out.read_text())
    by_key = {(r["expected_function"], r["chosen_param"], r["format_name"], r["query_id"]): r
              for r in theirs["detailed_results"]}
    agree = Counter()
    disagreements = []
    for row in rows:
        checker = paper.CHECKER_OF[row["rule_id"]]
        result = by_key[(row["function_name"], row["parameter"], checker, row["query_index"])]
        paper_says = (result["function_called"], result["parameter_provided"], result["format_correct"])
        for mode in ("ifforge", "paper"):
            line = frames[mode].loc[row["task_id"]]
            ours = (bool(line["called"]), bool(line["provided"]), bool(line["correct"]))
            agree[mode] += ours == paper_says
            agree[f"{mode}_score"] += ours[2] == paper_says[2]
            if mode == "paper" and ours != paper_says and len(disagreements) < 5:
                disagreements.append((row["task_id"], line["reason"], paper_says, ours))
    n = len(rows)
    print(f"\n## {4 if our_rows else 3}. End to end, {label}: {n} cases, the same scripted tool calls for both\n")
    print("| scorer | called | provided | format right (score) | same verdicts as the paper's evaluate.py |")
    print("|---|---|---|---|---|")
    print(f"| the paper's evaluate.py | {theirs['function_called_rate']:.1%} | {theirs['parameter_provided_rate']:.1%} "
          f"| {theirs['format_correct_rate']:.1%} | - |")
    for mode in ("ifforge", "paper"):
        s = summaries[mode]
        print(f"| ifforge evaluate, {mode} rules | {s['called_rate']:.1%} | {s['provided_rate']:.1%} "
              f"| {s['format_right_rate']:.1%} | {agree[mode] / n:.1%} all three, {agree[mode + '_score'] / n:.1%} the "
              "score |")
    print(f"\nreasons, paper rules: {summaries['paper'].get('reasons')}")
    print(f"reasons, ifforge rules: {summaries['ifforge'].get('reasons')}")
    for case in disagreements:
        print(f"  paper-mode disagreement: {case}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("originals", type=Path, nargs="?", help="a fetched copy of the IFEval-FC repository")
    parser.add_argument("candidates", type=Path, nargs="*",
                        help='candidate files: JSON lines of {"format": {"name": ..., "args": ...}, "value": ...}')
    parser.add_argument("--write-tricky", type=Path, metavar="FILE", help="write the tricky set as a candidate file")
    parser.add_argument("--paper-python", default=sys.executable, help="a Python with the paper's dependencies")
    parser.add_argument("--paper-side", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--no-end-to-end", action="store_true", help="skip part 3 (the paper's evaluate.py)")
    parser.add_argument("--paper-nltk", choices=["auto", "3.9", "3.10"], default="auto",
                        help="the nltk paper mode counts words as (setting paper_nltk); auto: the one matching the "
                             "nltk of --paper-python (3.10 for 3.10.3 and later, else 3.9)")
    args = parser.parse_args()
    if args.write_tricky:
        return write_candidates(args.write_tricky, tricky_candidates())
    if args.originals is None:
        parser.error("give the IFEval-FC repository (or --write-tricky FILE)")
    if args.paper_side:
        return paper_side(args.originals, args.paper_side)
    for path in args.candidates:
        if not path.is_file():
            parser.error(f"{path}: no such candidate file")
    with tempfile.TemporaryDirectory() as folder:
        theirs, nltk = checker_agreement(args.originals.resolve(), args.paper_python, Path(folder), args.candidates,
                                         args.paper_nltk)
        test_agreement(args.originals.resolve(), theirs, nltk)
        if not args.no_end_to_end:
            end_to_end(args.originals.resolve(), args.paper_python, Path(folder), nltk)
            layout, rows = our_bank_in_paper_layout(Path(folder))
            end_to_end(args.originals.resolve(), args.paper_python, Path(folder), nltk, layout, rows)


if __name__ == "__main__":
    main()
