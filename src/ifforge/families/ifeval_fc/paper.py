"""The IFEval-FC paper's own data files as ifforge rows, so its benchmark is scored by our checkers.

Each of the paper's files holds one function schema (`fn_schema`), the parameter that carries the
rule (`chosen_param`, whose description already states it), the rule as a checker name with its
arguments (`format`) and the user queries. Every query becomes one row in our format (the schema
and queries as the paper wrote them, and by default the paper's system message, read from its
evaluate.py), ready for `ifforge evaluate` (`--rules paper` scores them as the paper's code does).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

from ifforge.core import pyast
from ifforge.core.untrusted import BadValue, InputError, parse_json, read_file
from ifforge.families.ifeval_fc import rules
from ifforge.families.ifeval_fc.settings import SYSTEM_MESSAGE


_COUNTED = {"comparison_option": "relation", "N": "n"}

# the paper's checker name -> (our rule id, {the paper's argument name: ours})
CHECKERS: dict[str, tuple[str, dict[str, str]]] = {
    "CyrillicGreekChecker": ("cyrillic_greek", {"script": "script"}),
    "HighlightedSectionsCountChecker": ("highlighted_sections", _COUNTED),
    "JsonFormatChecker": ("json_format", {}),
    "KeywordFrequencyChecker": ("keyword_frequency", {"keyword": "keyword", **_COUNTED}),
    "KeywordsPresenceChecker": ("keywords_present", {"list_of_keywords": "keywords", "must_include": "present"}),
    "LetterFrequencyChecker": ("letter_frequency", {"letter": "letter", **_COUNTED}),
    "NAllCapitalWordsChecker": ("capital_words", _COUNTED),
    "NCommasChecker": ("comma_count", _COUNTED),
    "PlaceholderCountChecker": ("placeholder_count", _COUNTED),
    "PythonListFormatChecker": ("python_list", {}),
    "QuotationChecker": ("quotation", {"quotation_type": "quotes"}),
    "SentenceCountChecker": ("sentence_count", _COUNTED),
    "SpacesInBetweenChecker": ("spaces_between", {"N": "n"}),
    "TitleFormatChecker": ("title_format", {}),
    "WordCountChecker": ("word_count", _COUNTED),
    # the four the paper's benchmark leaves out
    "PostscriptChecker": ("postscript", {"postscript_marker": "marker"}),
    "AllUppercaseChecker": ("all_upper", {}),
    "AllLowercaseChecker": ("all_lower", {}),
    "EndPhraseChecker": ("end_phrase", {"end_phrase": "phrase"}),
}
CHECKER_OF = {rule_id: name for name, (rule_id, _) in CHECKERS.items()}


def our_args(checker: str, args: dict[str, Any]) -> dict[str, Any]:
    """A paper checker's arguments in our names (a missing one is a KeyError naming it)."""
    return {ours: args[theirs] for theirs, ours in CHECKERS[checker][1].items()}


def paper_args(rule_id: str, args: dict[str, Any]) -> dict[str, Any]:
    """Our rule's arguments in the paper checker's names."""
    return {theirs: args[ours] for theirs, ours in CHECKERS[CHECKER_OF[rule_id]][1].items()}


KIND_NAMES = {str: "text", dict: "an object", list: "a list"}


def _field(data: Any, dotted: str, kind: type) -> Any:
    """The value at a dotted name (`fn_schema.name`), which must be a `kind`; a `ValueError` names the field."""
    value, seen = data, []
    for key in dotted.split("."):
        if not isinstance(value, dict):
            raise ValueError(f"field {'.'.join(seen)!r} must be an object" if seen else "must hold a JSON object")
        seen.append(key)
        if key not in value:
            raise ValueError(f"missing field {'.'.join(seen)!r}")
        value = value[key]
    if not isinstance(value, kind):
        raise ValueError(f"field {dotted!r} must be {KIND_NAMES[kind]}")
    return value


def rows_of_file(path: Path, system_message: str = SYSTEM_MESSAGE, inside: Path | None = None) -> list[dict[str, Any]]:
    """One row per query of one paper file; a file that does not fit is an error naming it and the field.
    With `inside`, a file that is a link leading out of that folder (or no regular file) is refused."""
    try:
        data = parse_json(read_file(path, inside).decode("utf-8"))
    except UnicodeError as error:
        raise InputError(f"{path}: not a readable JSON file ({error})") from None
    except BadValue as error:
        raise InputError(f"{path}: {error}") from None
    try:
        schema, parameter, checker = (_field(data, "fn_schema", dict), _field(data, "chosen_param", str),
                                      _field(data, "format", dict))
        name, queries = _field(data, "fn_schema.name", str), _field(data, "user_queries", list)
        properties = _field(data, "fn_schema.parameters.properties", dict)
        if not isinstance(checker.get("args") or {}, dict):
            raise ValueError("field 'format.args' must be an object")
    except ValueError as error:
        raise InputError(f"{path}: {error}") from None
    bad_query = next((n for n, query in enumerate(queries, 1) if not isinstance(query, str) or not query.strip()), None)
    if bad_query:
        raise InputError(f"{path}: field 'user_queries': query {bad_query} is not a non-empty text")
    if not isinstance(checker.get("name"), str) or checker["name"] not in CHECKERS:
        raise InputError(f"{path}: field 'format.name': unknown checker {checker.get('name')!r} "
                         f"(known: {', '.join(CHECKERS)})")
    rule_id = CHECKERS[checker["name"]][0]
    try:
        rule_args = our_args(checker["name"], checker.get("args") or {})
        rule = rules.get(rule_id, **rule_args)
    except (KeyError, ValueError, TypeError) as error:
        raise InputError(f"{path}: field 'format.args': {error}") from None
    if parameter not in properties:
        raise InputError(f"{path}: field 'chosen_param': {parameter!r} is not a parameter of {name}")
    tool = {"type": "function", "function": schema}
    return [{"family": "ifeval-fc", "task_id": f"paper.{Path(path).stem}.q{index}", "function_id": f"paper.{name}",
             "domain": "paper", "source": "paper", "function_name": name, "parameter": parameter,
             "rule_id": rule_id, "rule_args": rule_args, "relation": rule.relation, "rule_text": rule.describe(),
             "query_index": index - 1, "seed": None, "tools": [tool], "tool_choice": "auto",
             "messages": [{"role": "system", "content": system_message}, {"role": "user", "content": query}]}
            for index, query in enumerate(queries, 1)]


def data_folder(given: Path) -> Path:
    """The paper's data folder: `given`, or its `data/` when given the repository."""
    given = Path(given)
    if not given.is_dir():
        raise InputError(f"{given}: {'not a folder' if given.exists() else 'folder not found'} "
                         "(give the IFEval-FC repository or its data/ folder)")
    if not any(given.glob("*.json")) and (given / "data").is_dir():
        return given / "data"
    return given


def paper_system_message(folder: Path) -> str:
    """The system message the paper's evaluate.py sends (its `SYSTEM_MESSAGE`), read from the
    repository that holds the data folder: the text is the paper's, so it is read there, not copied
    here. An InputError says where it looked."""
    for script in (Path(folder) / "evaluate.py", Path(folder).parent / "evaluate.py"):
        if not script.is_file():
            continue
        try:
            tree = pyast.parse(read_file(script).decode("utf-8"))
        except (BadValue, UnicodeError, SyntaxError, ValueError) as error:
            raise InputError(f"{script}: not a readable Python file ({error})") from None
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "SYSTEM_MESSAGE" for t in node.targets):
                value, strip = node.value, False
                if (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "strip"
                        and not value.args):
                    value, strip = value.func.value, True
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    return value.value.strip() if strip else value.value
        raise InputError(f"{script}: no SYSTEM_MESSAGE text in it")
    raise InputError(f"{folder}: no evaluate.py here or one folder up, to read the paper's system message from "
                     "(give the IFEval-FC repository or its data/ folder, or --system-message ifforge)")


def convert(given: Path, system_message: str = "paper") -> list[dict[str, Any]]:
    """Every `*.json` file of the paper's data folder, in name order. `system_message`: `paper`
    (the paper's own, which moved models' call rates), `ifforge` (ours), or the text itself."""
    folder = data_folder(given)
    files = sorted(folder.glob("*.json"))
    if not files:
        raise InputError(f"{folder}: no .json files (give the IFEval-FC repository or its data/ folder)")
    message = {"paper": lambda: paper_system_message(folder), "ifforge": lambda: SYSTEM_MESSAGE}.get(
        system_message, lambda: system_message)()
    return [row for path in files for row in rows_of_file(path, message, inside=folder)]
