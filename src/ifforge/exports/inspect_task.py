"""Export to an inspect-ai task: a folder with `samples.jsonl` and a `task.py` that `inspect eval` runs.

The task asks each row's user turns in order (a chat-mode row gets the model's own replies back
between turns, as `ifforge evaluate` does), with the row's system message and tools when it has
them (IFEval-FC: the tools go through the model's tools API, with the row's `tool_choice`, and are
never run: the calls themselves are what is scored), and scores with ifforge's checker for the
row's family.
Its metrics are the ones `ifforge evaluate` reports: case accuracy, task accuracy (a task passes
only when all its cases do) and the family's finer numbers. The folder needs ifforge's scoring core
where it runs (the light install, `ifforge.light`); nothing else of the benchmark is read.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from ifforge.core.store.versions import atomic_write
from ifforge.exports.benchmark import Benchmark, check, metric_names, metrics, request, row_ids, task_key, task_name
from ifforge.families import family_id
from ifforge.families.base import Verdict

DEFAULT_MAX_TOKENS = 16_000  # what `ifforge evaluate` asks for by default
TASK_FILE = '''"""inspect-ai task: {name} ({family}, {rows} rows from the file named in SOURCE).

    inspect eval task.py --model openai-api/local/<model>    # with LOCAL_BASE_URL, LOCAL_API_KEY set

Scored by ifforge's own checker: ifforge's scoring core must be installed where this runs
(pip install --no-deps <ifforge wheel or checkout>; pip install $(python -m ifforge.light)).
"""

from pathlib import Path

from inspect_ai import task

from ifforge.exports.inspect_task import benchmark_task

SOURCE = {source}  # the rows file this task was exported from: data, never run


@task
def {name}():
    return benchmark_task(Path(__file__).with_name("samples.jsonl"))
'''


def shown_source(benchmark: Benchmark) -> str:
    """The rows file an export names, as a card names a path: never the machine's own layout
    (imported here: a task run from the light install never reaches the card's imports)."""
    from ifforge.card import shown_path

    return shown_path(str(benchmark.source))


def write(benchmark: Benchmark, out: Path) -> dict[str, Any]:
    """Write the task folder; return what was written."""
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    for sample_id, row in zip(row_ids(benchmark.rows, benchmark.source), benchmark.rows):
        asked = request(row)
        lines.append(json.dumps({"id": sample_id, "turns": list(asked.turns), "task_id": task_key(row),
                                 "system": asked.system, "tools": asked.tools, "tool_choice": asked.tool_choice,
                                 "row": json.dumps(row, ensure_ascii=False)}, ensure_ascii=False) + "\n")
    atomic_write(out / "samples.jsonl", "".join(lines))
    # only a checked identifier and a Python literal (repr) of the file's name go into the code
    atomic_write(out / "task.py", TASK_FILE.format(name=task_name(benchmark.name), family=benchmark.family,
                                                   rows=len(benchmark.rows), source=repr(shown_source(benchmark))))
    return {"format": "inspect", "folder": str(out), "rows": len(benchmark.rows),
            "run": f"cd {shlex.quote(str(out))} && inspect eval task.py --model openai-api/local/<model>  "
                   "(LOCAL_BASE_URL, LOCAL_API_KEY set)"}


# ---- what the exported task.py calls (imports inspect-ai only here) ------------------------------

def benchmark_task(samples_path: Path):
    # lazy on purpose: inspect-ai (an optional extra), only where the task runs
    from inspect_ai import Task
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.model import GenerateConfig

    samples = []
    for line in Path(samples_path).read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            samples.append(Sample(id=record["id"], input=record["turns"][0],
                                  metadata={key: record.get(key) for key in ("turns", "task_id", "row", "system",
                                                                             "tools", "tool_choice")}))
    first = json.loads(samples[0].metadata["row"])
    family = family_id(first)
    return Task(dataset=MemoryDataset(samples, name=Path(samples_path).parent.name), solver=_ask_turns(),
                scorer=_ifforge_checker(family, metric_names(family, first)),
                config=GenerateConfig(temperature=0.0, max_tokens=DEFAULT_MAX_TOKENS))


def _tool_defs(tools: list[dict[str, Any]]):
    """The row's OpenAI `tools` entries as inspect-ai tools, schema as it is (never run)."""
    # lazy on purpose: inspect-ai (an optional extra), only where the task runs
    from inspect_ai.tool import ToolDef, ToolParams

    def never_run():  # a callable of its own per tool: inspect-ai registers each under its name
        async def run(**kwargs):  # tool_calls="none": calls are scored, not executed
            raise RuntimeError("ifforge exports do not run tools")

        return run

    defs = []
    for entry in tools:
        function = entry["function"]
        schema = dict(function.get("parameters") or {"type": "object", "properties": {}})
        schema.setdefault("additionalProperties", None)  # send what the row says, nothing added
        defs.append(ToolDef(never_run(), name=function["name"], description=function.get("description", ""),
                            parameters=ToolParams.model_validate(schema)))
    return defs


def _ask_turns():
    # lazy on purpose: inspect-ai (an optional extra), only where the task runs
    from inspect_ai.model import ChatMessageSystem, ChatMessageUser
    from inspect_ai.solver import solver

    @solver
    def ask_turns():
        """Every user turn in order, each answered before the next is sent; the row's system
        message first and its tools offered, as `ifforge evaluate` sends them."""

        async def solve(state, generate):
            metadata = state.metadata
            if metadata.get("system"):
                state.messages.insert(0, ChatMessageSystem(content=metadata["system"]))
            if metadata.get("tools"):
                state.tools = _tool_defs(metadata["tools"])
                state.tool_choice = metadata.get("tool_choice") or "auto"
            state = await generate(state, tool_calls="none")
            for turn in metadata["turns"][1:]:
                state.messages.append(ChatMessageUser(content=turn))
                state = await generate(state, tool_calls="none")
            return state

        return solve

    return ask_turns()


ATTACHMENT = "attachment://"  # inspect-ai's reference to a text over 100 characters kept apart


def _resolved(text: Any, attachments: dict[str, str]) -> Any:
    """The text itself where inspect-ai's transcript holds a reference to it (`attachment://<hash>`:
    it keeps any text over 100 characters apart, in the log and in the events a scorer reads);
    None for a reference it no longer holds (the text is then not known)."""
    if not (isinstance(text, str) and text.startswith(ATTACHMENT)):
        return text
    return attachments.get(text[len(ATTACHMENT):])


def _sent_arguments(call_id: str) -> str | None:
    """The arguments text of the call `call_id` in this sample's model events, as the server sent
    it (attachments resolved); None when it is not there."""
    # lazy on purpose: inspect-ai (an optional extra), only where the task runs
    from inspect_ai.event import ModelEvent
    from inspect_ai.log import transcript

    for event in reversed(list(transcript().events)):
        if isinstance(event, ModelEvent) and event.call is not None:
            for choice in (event.call.response or {}).get("choices", []):
                for raw in (choice.get("message") or {}).get("tool_calls") or []:
                    if raw.get("id") == call_id:
                        return _resolved((raw.get("function") or {}).get("arguments"), transcript().attachments)
    return None


def _raw_arguments(call) -> str | None:
    """A tool call's arguments as the model sent them: inspect-ai parses them (and maps text that
    is not an object to the first parameter), so the raw text is read from the model event of this
    sample when it is there; otherwise the parsed arguments, or None when they did not parse."""
    sent = _sent_arguments(call.id)
    if sent is not None:
        return sent
    return None if call.parse_error else json.dumps(call.arguments, ensure_ascii=False)


def _reply(message, with_tools: bool):
    """An assistant message as ifforge's checkers read a reply: text, or text and tool calls."""
    if not with_tools:
        return message.text
    return {"text": message.text, "tool_calls": [
        {"type": "function", "function": {"name": call.function, "arguments": _raw_arguments(call)}}
        for call in message.tool_calls or []]}


def score_sample(metadata: dict[str, Any], replies: list) -> tuple[bool, str, dict[str, Any]]:
    """What the task's scorer gives a sample (a line of `samples.jsonl`, or its inspect metadata)
    on the model's replies: right or not, the last reply as text, and the verdict (plain Python:
    it needs no inspect-ai, so it runs wherever the checker is installed)."""
    row = json.loads(metadata["row"])
    verdict = check(row, replies)
    last = replies[-1] if replies else ""
    return (verdict.correct, last if isinstance(last, str) else json.dumps(last, ensure_ascii=False),
            {"task_id": task_key(row), "verdict": verdict.as_dict()})


def _ifforge_metric(family: str, key: str):
    # lazy on purpose: inspect-ai (an optional extra), only where the task runs
    from inspect_ai.scorer import SampleScore, metric

    @metric(name=key)
    def one():
        def compute(scores) -> float:
            verdicts = [Verdict.from_dict(s.score.metadata["verdict"]) for s in scores]
            return metrics(family, verdicts).get(key, 0.0)  # (no scores yet: while a run is under way)

        compute.__annotations__ = {"scores": list[SampleScore], "return": float}  # read by inspect, evaluated
        return compute

    return one()


def _ifforge_checker(family: str, keys: list[str]):
    # lazy on purpose: inspect-ai (an optional extra), only where the task runs
    from inspect_ai.scorer import CORRECT, INCORRECT, Score, scorer, stderr

    @scorer(metrics=[_ifforge_metric(family, key) for key in keys] + [stderr()])
    def ifforge_checker():
        """The row's family checks the replies, exactly as `ifforge evaluate` does."""

        async def score(state, target):
            with_tools = bool(state.metadata.get("tools"))
            replies = [_reply(message, with_tools) for message in state.messages if message.role == "assistant"]
            correct, answer, metadata = score_sample(state.metadata, replies)
            return Score(value=CORRECT if correct else INCORRECT, answer=answer, metadata=metadata)

        return score

    return ifforge_checker()
