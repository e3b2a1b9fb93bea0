"""Deployments of `generate` and `evaluate`, served by this process.

Start a server first (`ifforge server`), then `ifforge deploy` (or `python -m ifforge.flows.serve`): the
two deployments appear in the UI, where a run can be started with typed parameters, as can
`prefect deployment run generate/generate --param family=pacific`. Each run executes in
a subprocess of this one; Ctrl-C stops serving.
"""

from __future__ import annotations



from ifforge.core.prefect.env import configure

configure()

from prefect import serve  # noqa: E402

from ifforge.flows.evaluate import evaluate  # noqa: E402
from ifforge.flows.generate import generate  # noqa: E402

GENERATE = "generate/generate"
EVALUATE = "evaluate/evaluate"


def deployments(limit: int = 2):
    return [
        generate.to_deployment(name="generate", description="Regenerate a benchmark from a seed folder or "
                               "LogicIF's input files; unchanged items are reused from the caches.",
                               tags=["ifforge"], concurrency_limit=limit),
        evaluate.to_deployment(name="evaluate", description="Score a model on a benchmark version.",
                               tags=["ifforge"], concurrency_limit=limit),
    ]


def main() -> None:
    serve(*deployments())


if __name__ == "__main__":
    main()
