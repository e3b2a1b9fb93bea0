"""LLM stages through a provider's Batch API (OpenAI's `/v1/batches`: about half the price).

Design: the batch only fills the response cache; the stage then runs exactly as online, answered
from the cache. For the items of a stage (one shard) not cached yet:
1. collect: run the stage's own async function with a recording client (`LLM.collect`) that, on
   a cache miss, keeps the request under its cache key and raises `Deferred` instead of sending;
2. submit the requests as one JSONL file (`files.create`, purpose "batch") and one batch
   (`batches.create`); the batch id is written to a state file in `<out>/.llm_batches/` (named by
   the stage and the requests' keys) before any waiting;
3. poll (`batches.retrieve`) until the batch ends; download its output (`files.content`) and put
   every answer into the response cache under the same key an online request has; remove the
   state file;
4. collect again: a stage that asks again after an answer (a re-ask, a refine round) now gets
   past its first request and defers the next; repeat until nothing new is asked. So a stage
   takes as many batches as its longest conversation has turns.
A run killed while waiting finds the state file on its next start (the same items ask the same
requests, so the same file) and polls that batch instead of submitting another. `ifforge batch
cancel` cancels the batches of the state files; a run waiting on one keeps the answers that came
back and stops with a message, and the next run submits what is still unanswered. Requests the
batch failed are left to the online pass that follows.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openai

from ifforge.core.llm.cache import ResponseCache
from ifforge.core.llm.client import Deferred, LLM, LLMConfig, LLMFatal
from ifforge.core.llm.reply import read_completion
from ifforge.core.llm.usage import CALL_TAG, Ledger
from ifforge.core.store.versions import content_hash, write_json
from ifforge.core.untrusted import InputError

log = logging.getLogger("ifforge.core.llm.batch")
ENDED = {"completed", "failed", "expired", "cancelled"}
ENDPOINT = "/v1/chat/completions"


class BatchEnded(LLMFatal):
    """A batch ended without completing (cancelled, failed, expired): the run stops, what came back is kept."""


@dataclass(frozen=True)
class BatchOptions:
    folder: Path  # where the state files of submitted batches live
    poll_seconds: float = 30.0


def batch_folder(cache_path: Path) -> Path:
    """Batch state lives beside the response cache it fills (default `<out>/.llm_batches/`)."""
    return Path(cache_path).parent / ".llm_batches"


def _client(base_url: str | None, api_key: str | None, config: LLMConfig | None = None) -> openai.OpenAI:
    return openai.OpenAI(base_url=base_url, api_key=api_key or "not-needed",
                         max_retries=config.max_retries if config else 5, timeout=config.timeout if config else 120.0)


def collect(stage: Any, items: list, hub: Any, cache_path: Path, tag: str) -> dict[str, dict[str, Any]]:
    """The requests the stage would send now for `items` and the cache cannot answer: key -> body."""
    base = hub.llm(stage.llm, cache_path)

    async def record() -> dict[str, dict[str, Any]]:
        recorder = LLM(stage.llm, base.cache, ledger=Ledger())
        recorder.collect = {}

        async def one(item: Any) -> None:
            try:
                await stage.llm_function(item, recorder, stage.config)
            except Deferred:
                pass
            except Exception:  # noqa: BLE001 - the online pass meets it again and records it
                pass

        try:
            await asyncio.gather(*(one(item) for item in items))
        finally:
            await recorder.close()
        return recorder.collect

    return hub.run(record, tag)


def fill_cache(stage: Any, items: list, hub: Any, cache_path: Path, options: BatchOptions, tag: str) -> int:
    """Batches until the stage asks nothing new for `items`; returns the number of batches run."""
    asked: set[str] = set()
    batches = 0
    while True:
        requests = {key: body for key, body in collect(stage, items, hub, cache_path, tag).items() if key not in asked}
        if not requests:
            return batches
        asked |= set(requests)
        run_batch(stage.name, stage.llm, hub.llm(stage.llm, cache_path).cache, requests, options, hub.ledger, tag)
        batches += 1


def state_path(folder: Path, stage: str, keys: Any) -> Path:
    return Path(folder) / f"{stage}-{content_hash(sorted(keys))[:16]}.json"


def read_state(path: Path) -> dict[str, Any]:
    """A saved batch's state, or one clear error naming the file (a truncated or edited one)."""
    try:
        state = json.loads(Path(path).read_text())
    except (OSError, UnicodeError, ValueError) as error:
        raise InputError(f"{path}: not a batch state file ({error}); remove it to submit the batch again") from None
    if not isinstance(state, dict) or not isinstance(state.get("batch_id"), str):
        raise InputError(f"{path}: not a batch state file (no batch_id); remove it to submit the batch again")
    return state


def run_batch(stage: str, config: LLMConfig, cache: ResponseCache, requests: dict[str, dict[str, Any]],
              options: BatchOptions, ledger: Ledger | None = None, tag: str | None = None) -> dict[str, int]:
    """Submit (or resume) one batch of `requests`, wait for it, cache its answers; counts."""
    path = state_path(options.folder, stage, requests)
    state = read_state(path) if path.exists() else None
    with _client(config.base_url, config.api_key, config) as client:
        return _submit_and_wait(client, stage, config, cache, requests, options, ledger, tag, path, state)


def _submit_and_wait(client: openai.OpenAI, stage: str, config: LLMConfig, cache: ResponseCache,
                     requests: dict[str, dict[str, Any]], options: BatchOptions, ledger: Ledger | None,
                     tag: str | None, path: Path, state: dict[str, Any] | None) -> dict[str, int]:
    if state is None:
        lines = "".join(json.dumps({"custom_id": key, "method": "POST", "url": ENDPOINT, "body": body},
                                   ensure_ascii=False) + "\n" for key, body in sorted(requests.items()))
        try:
            upload = client.files.create(file=(f"ifforge-{stage}.jsonl", lines.encode()), purpose="batch")
            batch = client.batches.create(input_file_id=upload.id, endpoint=ENDPOINT, completion_window="24h",
                                          metadata={"ifforge_stage": stage})
        except openai.APIStatusError as error:
            if error.status_code >= 500 or error.status_code == 429:
                raise
            raise LLMFatal(f"{config.base_url or 'the OpenAI API'} refused the batch of stage {stage} "
                           f"({error.status_code}: {str(error)[:200]}); does it take batches? "
                           "Run without llm_batch to ask online") from error
        state = {"batch_id": batch.id, "input_file_id": upload.id, "stage": stage, "model": config.model,
                 "base_url": config.base_url, "requests": len(requests), "submitted_at": time.time()}
        write_json(path, state)  # before any waiting: a killed run resumes this batch
        log.info("%s: batch %s submitted with %d requests (state: %s)", stage, batch.id, len(requests), path)
    else:
        log.info("%s: resuming batch %s (state: %s)", stage, state["batch_id"], path)
    batch = client.batches.retrieve(state["batch_id"])
    while batch.status not in ENDED:
        time.sleep(options.poll_seconds)
        batch = client.batches.retrieve(state["batch_id"])
    counts = save_answers(client, batch, cache, config, requests, ledger, stage, tag)
    path.unlink(missing_ok=True)
    if batch.status != "completed":
        raise BatchEnded(f"{stage}: batch {batch.id} was {batch.status}; {counts['answered']} of {len(requests)} "
                         "answers kept in the response cache; run again to ask for the rest")
    if counts["failed"]:
        log.warning("%s: batch %s failed %d of %d requests; they are asked online", stage, batch.id,
                    counts["failed"], len(requests))
    return counts


def save_answers(client: openai.OpenAI, batch: Any, cache: ResponseCache, config: LLMConfig,
                 requests: dict[str, dict[str, Any]], ledger: Ledger | None, stage: str,
                 tag: str | None) -> dict[str, int]:
    """Every answer of the batch's output file into the response cache, under its request's key."""
    answered = 0
    text = client.files.content(batch.output_file_id).text if batch.output_file_id else ""
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except (ValueError, RecursionError):  # a line that is no JSON: its request is asked online
            continue
        key = row.get("custom_id") if isinstance(row, dict) else None
        response = row.get("response") if isinstance(key, str) else None
        if key not in requests or not isinstance(response, dict) or response.get("status_code") != 200:
            continue
        read = read_completion(response.get("body"))  # the online reader: a line that does not fit is asked online
        if read.problem is not None:
            continue
        cache.put(key, config.model, read.text, read.prompt_tokens, read.completion_tokens,
                  {"tool_calls": list(read.tool_calls), "finish_reason": read.finish_reason})
        prompt_tokens, completion_tokens = read.prompt_tokens, read.completion_tokens
        answered += 1
        if ledger is not None:
            token = CALL_TAG.set(tag)
            try:
                ledger.add(stage, calls=1, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)
            finally:
                CALL_TAG.reset(token)
    return {"answered": answered, "failed": len(requests) - answered}


def pending(folder: Path) -> list[tuple[Path, dict[str, Any]]]:
    """The state files of batches submitted and not yet saved (a run waits on them, or was killed)."""
    return [(path, read_state(path)) for path in sorted(Path(folder).glob("*.json"))]


def cancel(folder: Path, api_key: str | None) -> list[tuple[str, str]]:
    """Ask the server to cancel every pending batch; (batch id, its status now) each."""
    done = []
    for _, state in pending(folder):
        with _client(state.get("base_url"), api_key) as client:
            batch = client.batches.cancel(state["batch_id"])
        done.append((batch.id, batch.status))
    return done
