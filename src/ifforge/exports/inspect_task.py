"""Export to an inspect-ai task: a folder with `samples.jsonl` and a `task.py` that `inspect eval` runs.

The task asks each row's user turns in order (a chat-mode row gets the model's own replies back
between turns, as `ifforge evaluate` does) and scores with ifforge's checker for the row's family.
Its metrics are the ones `ifforge evaluate` reports: case accuracy, task accuracy (a task passes
only when all its cases do) and the family's finer numbers. The folder needs ifforge installed
where it runs; nothing else of the benchmark is read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ifforge.core.store import atomic_write
from ifforge.exports.benchmark import Benchmark, aggregate, check, row_ids, score_names, task_key, turns

DEFAULT_MAX_TOKENS = 16_000  # what `ifforge evaluate` asks for by default
TASK_FILE = '''"""inspect-ai task: {name} ({family}, {rows} rows from {source}).

    inspect eval task.py --model openai-api/local/<model>    # with LOCAL_BASE_URL, LOCAL_API_KEY set

Scored by ifforge's own checker (ifforge must be installed where this runs).
"""

from pathlib import Path

from inspect_ai import task

from ifforge.exports.inspect_task import benchmark_task


@task
def {name}():
    return benchmark_task(Path(__file__).with_name("samples.jsonl"))
'''


def write(benchmark: Benchmark, out: Path) -> dict[str, Any]:
    """Write the task folder; return what was written."""
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    for sample_id, row in zip(row_ids(benchmark.rows), benchmark.rows):
        lines.append(json.dumps({"id": sample_id, "turns": turns(row), "task_id": task_key(row),
                                 "row": json.dumps(row, ensure_ascii=False)}, ensure_ascii=False) + "\n")
    atomic_write(out / "samples.jsonl", "".join(lines))
    atomic_write(out / "task.py", TASK_FILE.format(name=benchmark.name, family=benchmark.family,
                                                   rows=len(benchmark.rows), source=benchmark.source))
    return {"format": "inspect", "folder": str(out), "rows": len(benchmark.rows),
            "run": f"cd {out} && inspect eval task.py --model openai-api/local/<model>  "
                   "(LOCAL_BASE_URL, LOCAL_API_KEY set)"}


# ---- what the exported task.py calls (imports inspect-ai only here) ------------------------------

def benchmark_task(samples_path: Path):
    from inspect_ai import Task
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.model import GenerateConfig

    samples = []
    for line in Path(samples_path).read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            samples.append(Sample(id=record["id"], input=record["turns"][0],
                                  metadata={"turns": record["turns"], "task_id": record["task_id"],
                                            "row": record["row"]}))
    first = json.loads(samples[0].metadata["row"])
    family = first.get("family", "logicif")
    return Task(dataset=MemoryDataset(samples, name=Path(samples_path).parent.name), solver=_ask_turns(),
                scorer=_ifforge_checker(family, score_names(family, first)),
                config=GenerateConfig(temperature=0.0, max_tokens=DEFAULT_MAX_TOKENS))


def _ask_turns():
    from inspect_ai.model import ChatMessageUser
    from inspect_ai.solver import solver

    @solver
    def ask_turns():
        """Every user turn in order, each answered before the next is sent."""

        async def solve(state, generate):
            state = await generate(state)
            for turn in state.metadata["turns"][1:]:
                state.messages.append(ChatMessageUser(content=turn))
                state = await generate(state)
            return state

        return solve

    return ask_turns()


def _ifforge_metric(family: str, key: str):
    from inspect_ai.scorer import SampleScore, metric

    @metric(name=key)
    def one():
        def compute(scores) -> float:
            pairs = [(s.score.metadata["task_id"], s.score.metadata["verdict"]) for s in scores]
            return aggregate(family, pairs).get(key, 0.0)  # (no scores yet: while a run is under way)

        compute.__annotations__ = {"scores": list[SampleScore], "return": float}  # read by inspect, evaluated
        return compute

    return one()


def _ifforge_checker(family: str, keys: list[str]):
    from inspect_ai.scorer import CORRECT, INCORRECT, Score, scorer, stderr

    @scorer(metrics=[_ifforge_metric(family, key) for key in keys] + [stderr()])
    def ifforge_checker():
        """The row's family checks the replies, exactly as `ifforge evaluate` does."""

        async def score(state, target):
            row = json.loads(state.metadata["row"])
            replies = [message.text for message in state.messages if message.role == "assistant"]
            verdict = check(row, replies)
            return Score(value=CORRECT if verdict["correct"] else INCORRECT,
                         answer=replies[-1] if replies else "",
                         metadata={"task_id": task_key(row), "verdict": verdict})

        return score

    return ifforge_checker()
