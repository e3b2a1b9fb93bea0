"""Names a person can read in the Prefect UI: flow runs named after what they do
(`generate-logicif-v004`, `evaluate-gpt-5-logicif-v004`) and artifact keys per benchmark, so two
benchmarks never overwrite each other's summary. Prefect allows only lowercase letters, digits and
dashes in artifact keys; run names follow the same rule to stay alike."""

from __future__ import annotations

import re
from collections.abc import Callable


def slug(*parts: object) -> str:
    """`slug("Qwen/Qwen3-8B", "logicif", "v004")` -> "qwen-qwen3-8b-logicif-v004"."""
    text = "-".join(str(part) for part in parts if part not in (None, ""))
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "run"


def rename_flow_run(name: str) -> None:
    """Rename the current flow run once its name is known (the version is, only after loading)."""
    # lazy on purpose: Prefect (heavy), so that `slug` is read without it
    from prefect.client.orchestration import get_client
    from prefect.context import FlowRunContext

    context = FlowRunContext.get()
    if context is None or context.flow_run is None:
        return
    try:
        with get_client(sync_client=True) as client:
            client.update_flow_run(context.flow_run.id, name=name)
    except Exception as error:  # noqa: BLE001 - a name is cosmetic: the run goes on under its first one
        from prefect.logging import get_run_logger  # lazy on purpose: Prefect (heavy), as above

        get_run_logger().warning(f"could not rename the flow run to {name!r}: {error}")


def provisional_name(kind: str, *parameters: str) -> Callable[[], str]:
    """A flow's `flow_run_name` until the run knows its version: `kind` and the first parameter
    given of `parameters` (a deployment run may leave any of them out)."""

    def name() -> str:
        from prefect.context import FlowRunContext  # lazy on purpose: Prefect (heavy), as above

        context = FlowRunContext.get()
        given = (context.parameters if context else None) or {}
        return slug(kind, next((given[p] for p in parameters if given.get(p)), ""))

    return name
