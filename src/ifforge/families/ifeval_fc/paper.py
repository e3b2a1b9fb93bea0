"""The IFEval-FC paper's own data files as ifforge rows, so its benchmark is scored by our checkers.

Each of the paper's files holds one function schema (`fn_schema`), the parameter that carries the
rule (`chosen_param`, whose description already states it), the rule as a checker name with its
arguments (`format`) and the user queries. Every query becomes one row in our format (the schema
and queries as the paper wrote them; our system message), ready for `ifforge evaluate`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ifforge.core.untrusted import BadValue, InputError, parse_json, read_file
from ifforge.families.ifeval_fc import rules
from ifforge.families.ifeval_fc.settings import SYSTEM_MESSAGE


def _counted(args: dict[str, Any]) -> dict[str, Any]:
    return {"relation": args["comparison_option"], "n": args["N"]}


# the paper's checker name -> (our rule id, its arguments in ours)
CHECKERS = {
    "CyrillicGreekChecker": ("cyrillic_greek", lambda a: {"script": a["script"]}),
    "HighlightedSectionsCountChecker": ("highlighted_sections", _counted),
    "JsonFormatChecker": ("json_format", lambda a: {}),
    "KeywordFrequencyChecker": ("keyword_frequency", lambda a: {"keyword": a["keyword"], **_counted(a)}),
    "KeywordsPresenceChecker": ("keywords_present", lambda a: {"keywords": a["list_of_keywords"],
                                                               "present": a["must_include"]}),
    "LetterFrequencyChecker": ("letter_frequency", lambda a: {"letter": a["letter"], **_counted(a)}),
    "NAllCapitalWordsChecker": ("capital_words", _counted),
    "NCommasChecker": ("comma_count", _counted),
    "PlaceholderCountChecker": ("placeholder_count", _counted),
    "PythonListFormatChecker": ("python_list", lambda a: {}),
    "QuotationChecker": ("quotation", lambda a: {"quotes": a["quotation_type"]}),
    "SentenceCountChecker": ("sentence_count", _counted),
    "SpacesInBetweenChecker": ("spaces_between", lambda a: {"n": a["N"]}),
    "TitleFormatChecker": ("title_format", lambda a: {}),
    "WordCountChecker": ("word_count", _counted),
}


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
    rule_id, convert = CHECKERS[checker["name"]]
    try:
        rule_args = convert(checker.get("args") or {})
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


def convert(folder: Path) -> list[dict[str, Any]]:
    """Every `*.json` file of the paper's data folder, in name order."""
    if not Path(folder).is_dir():
        raise InputError(f"{folder}: {'not a folder' if Path(folder).exists() else 'folder not found'} "
                         "(give the IFEval-FC repository's data/ folder)")
    files = sorted(Path(folder).glob("*.json"))
    if not files:
        raise InputError(f"{folder}: no .json files (give the IFEval-FC repository's data/ folder)")
    return [row for path in files for row in rows_of_file(path, inside=folder)]
