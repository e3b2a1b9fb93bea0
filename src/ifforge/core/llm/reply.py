"""Reading what a server answered: one bounded reader for every field of a chat completion.

A 200 is untrusted input twice over: its body (bytes that are not UTF-8, JSON past a bound of
`jsontext`) and its fields (`content` an integer or a list, a tool call without `function` or of
type "custom", `usage.prompt_tokens: "lots"`). Each of these once ended a run with a traceback.
Here every field is read with the type OpenAI's API gives it into a `Completion`, and one that
does not fit is named in `problem`: the server did wrong, the client takes it for that request's
failure, never the run's. Tokens are read apart, so what the server billed is counted even then.
The response cache's rows are read back through the same reader (`read_cached`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ifforge.core import jsontext
from ifforge.core.untrusted import clean_text


@dataclass(frozen=True)
class Completion:
    """A reply as read: text and tool calls (OpenAI-shaped, function calls only), or the `problem`
    that makes it no answer (to follow "the server answered 200 with")."""

    text: str = ""
    tool_calls: tuple[dict[str, Any], ...] = ()
    finish_reason: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    problem: str | None = None


class _Bad(ValueError):
    """A field that does not fit; the message names it."""


def _kind(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return "null" if value is None else "true or false"
    names = {int: "a number", float: "a number", str: "text", list: "a list", dict: "an object"}
    return next((name for kind, name in names.items() if isinstance(value, kind)), type(value).__name__)


def _field(parent: dict[str, Any], key: str, where: str, kinds: tuple[type, ...], what: str) -> Any:
    """`parent[key]` when it is one of `kinds` or null/absent (None); else `_Bad` naming the field."""
    value = parent.get(key)
    if value is None or (isinstance(value, kinds) and not isinstance(value, bool)):
        return value
    raise _Bad(f"{where}.{key} that is {_kind(value)}, not {what}")


def parse_body(data: bytes) -> Any:
    """The JSON value of a body, read by `jsontext`'s bounds; `_Bad` says why it cannot be."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _Bad(f"a body that is not UTF-8 text (byte {data[error.start]:#04x} at offset {error.start})") from None
    start = len(text) - len(text.lstrip())
    if start == len(text):
        raise _Bad("an empty body")
    try:
        value, end = jsontext.decode_at(text, start)
    except ValueError as error:
        raise _Bad(f"a body that is not JSON ({str(error).splitlines()[0][:120]})") from None
    if text[end:].strip():
        raise _Bad("a body with more after its JSON value")
    return value


def _tokens(body: Any) -> tuple[int, int, str | None]:
    """(prompt tokens, completion tokens, problem): each count read alone, 0 where unreadable."""
    usage = body.get("usage") if isinstance(body, dict) else None
    if usage is None:
        return 0, 0, None
    if not isinstance(usage, dict):
        return 0, 0, f"usage that is {_kind(usage)}, not an object"
    counts, problem = [], None
    for key in ("prompt_tokens", "completion_tokens"):
        try:
            count = _field(usage, key, "usage", (int,), "a whole number") or 0
            if count < 0:
                raise _Bad(f"usage.{key} that is below 0")
        except _Bad as error:
            count, problem = 0, problem or str(error)
        counts.append(count)
    return counts[0], counts[1], problem


def read_calls(calls: Any, where: str) -> tuple[dict[str, Any], ...]:
    """Function calls as OpenAI shapes them, `{"id", "type": "function", "function": {"name",
    "arguments"}}` with text in both; any other call (a "custom" one, one without `function`,
    arguments that are not text) is `_Bad`."""
    if calls is None:
        return ()
    if not isinstance(calls, list):
        raise _Bad(f"{where} that is {_kind(calls)}, not a list")
    read = []
    for index, call in enumerate(calls):
        at = f"{where}[{index}]"
        if not isinstance(call, dict):
            raise _Bad(f"{at} that is {_kind(call)}, not an object")
        kind = call.get("type", "function")
        if kind != "function":
            raise _Bad(f"{at} of type {str(kind)[:40]!r}, not a function call")
        function = call.get("function")
        if not isinstance(function, dict):
            raise _Bad(f"{at} without a function" if function is None else
                       f"{at}.function that is {_kind(function)}, not an object")
        name = _field(function, "name", f"{at}.function", (str,), "text")
        if not name:
            raise _Bad(f"{at}.function without a name")
        arguments = _field(function, "arguments", f"{at}.function", (str,), "text (JSON)") or ""
        call_id = _field(call, "id", at, (str,), "text") or f"call_{index}"
        read.append({"id": clean_text(call_id), "type": "function",
                     "function": {"name": clean_text(name), "arguments": clean_text(arguments)}})
    return tuple(read)


def read_completion(body: Any) -> Completion:
    """The first choice of a chat completion (bytes, or JSON already read), with its tokens; a
    body or field that does not fit gives a `Completion` with its `problem`. Never raises."""
    try:
        body = parse_body(body) if isinstance(body, bytes) else body
    except _Bad as error:
        return Completion(problem=str(error))
    prompt_tokens, completion_tokens, usage_problem = _tokens(body)
    try:
        if not isinstance(body, dict):
            raise _Bad(f"a body that is no chat completion ({_kind(body)})")
        choices = body.get("choices")
        if not isinstance(choices, list) or not choices:
            raise _Bad("no choices")
        choice = choices[0]
        if not isinstance(choice, dict):
            raise _Bad(f"choices[0] that is {_kind(choice)}, not an object")
        message = choice.get("message")
        if not isinstance(message, dict):
            raise _Bad("a choice without a message" if message is None else
                       f"choices[0].message that is {_kind(message)}, not an object")
        text = _field(message, "content", "choices[0].message", (str,), "text") or ""
        calls = read_calls(message.get("tool_calls"), "choices[0].message.tool_calls")
        finish_reason = _field(choice, "finish_reason", "choices[0]", (str,), "text")
        if usage_problem:
            raise _Bad(usage_problem)
    except _Bad as error:
        return Completion(prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, problem=str(error))
    return Completion(clean_text(text), calls, finish_reason and clean_text(finish_reason)[:80],
                      prompt_tokens, completion_tokens)


def read_cached(text: Any, prompt_tokens: Any, completion_tokens: Any, extra: Any) -> Completion:
    """A response-cache row, read as the completion it was saved from (a row another version
    wrote, or one edited by hand, gets its `problem` like a server's reply: it is asked again)."""
    extra = extra if isinstance(extra, dict) else {"tool_calls": extra}
    return read_completion({"choices": [{"message": {"content": text, "tool_calls": extra.get("tool_calls") or None},
                                         "finish_reason": extra.get("finish_reason")}],
                            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens}})
