"""One door to the model (issue 22, part 2): evaluate asks through generate's LLM hub, with the
same setting names, limits, response cache and ledger; the flags evaluate always had still work.
Every reply comes from the stub OpenAI-compatible server, over HTTP."""

import json
import threading
import time

import pytest

from ifforge.cli import build_parser
from ifforge.cli.evaluate import options_of
from ifforge.core.llm.cache import ResponseCache, request_key
from ifforge.core.llm.client import LLMConfig
from ifforge.core.settings import LLMSettings, Settings, SettingsError
from ifforge.eval import template
from ifforge.eval.evaluation import EvalSettings, load_eval_settings
from ifforge.families import get_family
from ifforge.testing.openai_stub import Answer, StubServer

ROWS = [{"task_id": f"t{k}", "test_case_id": 0, "input": [k], "code_output": {"output": k, "stats": {"n": k}},
         "instruction": f"[t{k}#0] Do it."} for k in range(6)]


def _right(request):
    k = int(request["messages"][-1]["content"][2])
    return Answer(content=f'{{"output": {k}, "stats": {{"n": {k}}}}}')


def test_generate_and_evaluate_build_their_requests_from_one_set_of_settings():
    shared = set(LLMSettings.model_fields)
    assert shared <= set(Settings.model_fields) and shared <= set(EvalSettings.model_fields)
    limits = {"llm_concurrency": 3, "llm_rpm": 60, "llm_tpm": 9000, "llm_timeout": 30.0, "llm_max_retries": 1,
              "price_input_per_mtok": 1.0, "price_output_per_mtok": 4.0, "temperature": 0.5, "max_tokens": 100,
              "reasoning_effort": "low"}
    generate = Settings(**limits).llm_config("m", "k", "http://s/v1")
    evaluate = EvalSettings(model="m", base_url="http://s/v1", api_key="k", **limits).config_for()
    assert generate == evaluate
    assert (evaluate.concurrency, evaluate.requests_per_minute, evaluate.timeout) == (3, 60, 30.0)


def test_a_runs_folder_is_named_by_what_it_always_was_named_by():
    """Renamed settings are limits, retries and prices: none decides a score, so an evaluation
    run made before the renaming is found again by its fingerprint (and its folder reused)."""
    from ifforge.families import get_family

    settings = EvalSettings(model="m", llm_concurrency=3, price_input_per_mtok=1.0)
    fields = settings.for_family(get_family("logicif")).fingerprint_fields()  # its options, once settings of all
    assert set(fields) == {"model", "base_url", "split", "expressions", "temperature", "max_tokens", "reasoning_effort",
                           "system_prompt", "strict_types", "analyze_errors", "analyzer_model", "extractor",
                           "extractor_model", "limit", "rules"}
    assert fields["strict_types"] is False and fields["rules"] == "ifforge" and fields["extractor"] == "rules"


def test_the_flags_evaluate_always_had_set_the_common_settings():
    args = build_parser().parse_args(["evaluate", "bench", "--model", "m", "--concurrency", "3", "--max-retries", "0",
                                      "--timeout", "9", "--price-input", "0.4", "--price-output", "1.6",
                                      "--set", "llm_rpm=50", "--set", "llm_tpm=7000"])
    settings = load_eval_settings({"model": args.model, **options_of(args)})
    assert (settings.llm_concurrency, settings.llm_max_retries, settings.llm_timeout) == (3, 0, 9.0)
    assert (settings.price_input_per_mtok, settings.price_output_per_mtok) == (0.4, 1.6)
    assert (settings.llm_rpm, settings.llm_tpm) == (50, 7000)
    with pytest.raises(SettingsError, match="command line: unknown setting 'concurrency'"):
        load_eval_settings({"model": "m", "concurrency": 3})  # one name per setting: the common one


def test_evaluate_takes_the_runs_limits_from_the_settings_file_but_nothing_that_decides_a_score(tmp_path,
                                                                                                monkeypatch):
    toml = tmp_path / "ifforge.toml"
    toml.write_text('[ifforge]\nllm_concurrency = 3\nprice_input_per_mtok = 2.0\ntemperature = 0.7\n'
                    'max_tokens = 512\nout = "elsewhere"\nmin_cases = 4\n\n[ifforge.logicif]\nmin_cases = 5\n')
    monkeypatch.setenv("IFFORGE_LLM_RPM", "40")
    monkeypatch.setenv("IFFORGE_TEMPERATURE", "0.9")
    settings = load_eval_settings({"model": "m", "llm_max_retries": 2}, toml)
    assert (settings.llm_concurrency, settings.price_input_per_mtok, settings.llm_rpm) == (3, 2.0, 40)
    assert (settings.temperature, settings.max_tokens, settings.llm_max_retries) == (0.0, 16_000, 2)
    assert load_eval_settings({"model": "m", "llm_concurrency": 5}, toml).llm_concurrency == 5  # the command wins
    toml.write_text("[ifforge]\nllm_concurrency = 0\n")
    with pytest.raises(SettingsError, match=f"{toml}: setting 'llm_concurrency'"):
        load_eval_settings({"model": "m"}, toml)


def test_evaluate_keeps_to_llm_concurrency_writes_its_ledger_and_the_next_run_is_answered_from_the_cache(tmp_path):
    in_flight, peak, lock = [0], [0], threading.Lock()

    def slow(request):
        with lock:
            in_flight[0] += 1
            peak[0] = max(peak[0], in_flight[0])
        time.sleep(0.15)
        with lock:
            in_flight[0] -= 1
        return _right(request)

    family = get_family("logicif")
    with StubServer(slow) as server:
        settings = EvalSettings(model="m", base_url=server.url, api_key="k", llm_concurrency=2, llm_max_retries=0,
                                price_input_per_mtok=1.0, price_output_per_mtok=2.0)
        first = template.evaluate(family, ROWS, settings, tmp_path / "cache.sqlite", tmp_path / "r1", "t")
        assert len(server.requests) == 6 and peak[0] == 2  # the ceiling held, and was reached
        second = template.evaluate(family, ROWS, settings, tmp_path / "cache.sqlite", tmp_path / "r2", "t")
        assert len(server.requests) == 6  # nothing asked again
    assert first["overall"] == second["overall"] and first["overall"]["case_both_right"] == 6
    one, two = (json.loads((tmp_path / run / "report.json").read_text())["run"] for run in ("r1", "r2"))
    assert one["llm"]["evaluate"]["calls"] == 6 and one["llm"]["evaluate"]["cache_hits"] == 0
    assert two["llm"]["evaluate"]["calls"] == 0 and two["llm"]["evaluate"]["cache_hits"] == 6
    assert one["llm"]["evaluate"]["cost"] > 0 and two["tokens"]["cached_requests"] == 6
    assert [one["tokens"][k] for k in ("prompt", "completion")] == [two["tokens"][k] for k in ("prompt", "completion")]
    calls = [json.loads(line) for line in (tmp_path / "r1" / "llm_calls.jsonl").read_text().splitlines()]
    assert len(calls) == 6 and {call["stage"] for call in calls} == {"evaluate"}
    assert (tmp_path / "r2" / "llm_calls.jsonl").read_text() == ""


def test_a_reply_cached_by_evaluate_before_the_hub_is_still_a_cache_hit(tmp_path):
    """The key is the one evaluate always used (its client had json_mode "none", which a request
    without a schema leaves out), so caches written before this change answer after it."""
    cache = ResponseCache(tmp_path / "cache.sqlite")
    url = "http://127.0.0.1:9/v1"  # nothing listens: any request would fail
    old = LLMConfig(model="m", base_url=url, api_key="k", max_tokens=16_000, timeout=600.0, json_mode="none")
    for row in ROWS:
        k = row["code_output"]["output"]
        key = request_key(old, [{"role": "user", "content": row["instruction"]}], None, {})
        cache.put(key, "m", f'{{"output": {k}, "stats": {{"n": {k}}}}}', 10, 5)
    cache.close()
    settings = EvalSettings(model="m", base_url=url, api_key="k", llm_max_retries=0)
    summary = template.evaluate(get_family("logicif"), ROWS, settings, tmp_path / "cache.sqlite", tmp_path / "run", "t")
    assert summary["request_failures"] == 0 and summary["overall"]["case_both_right"] == 6
