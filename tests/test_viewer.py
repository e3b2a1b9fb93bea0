"""The sample viewer (`samples.html`): every row of a run as it was sent, answered and judged, in one
file that needs no network, with every value shown as text; `ifforge view` writes it again; failed
requests are counted by their reason in the report, and in the viewer."""

from __future__ import annotations

import json
import re
import shutil
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from test_review import browser  # noqa: F401 - the fixture: Debian's chromium, driven by selenium

from ifforge.cli import main
from ifforge.core.llm.client import failure_kind
from ifforge.eval import template
from ifforge.eval.evaluation import EvalSettings
from ifforge.eval.viewer import FILE, Texts, _plain, serving
from ifforge.families import FAMILIES, Entry, get_family
from ifforge.testing.openai_stub import Answer, StubServer

SCRIPT = "<script>document.title='pwned'</script><b>bold</b>"
WORDS = {"w0": "cat", "w1": "window", "w2": "tree", "w3": "sky", "w4": "river", "w5": "ok"}


def _reply(word: str) -> Answer:
    """Right on cat and ok; a script on window; a 500 on tree; too late on sky; lower case on river."""
    if word == "tree":
        return Answer(status=500, error="the server is down")
    if word == "sky":
        return Answer(content="SKY", delay=3)
    return Answer(content={"window": SCRIPT, "river": "river"}.get(word, word.upper()))


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """An evaluation of the tests' echo family (six words), its replies made by `_reply`."""
    base = tmp_path_factory.mktemp("viewer")
    rows = [{"family": "echo", "task_id": task, "word": word, "gold": word.upper(),
             "length": "short" if len(word) <= 3 else "long",
             "prompt": f"Say this word back in capital letters, and nothing else: {word}"} for task, word in WORDS.items()]
    benchmark = base / "benchmark.jsonl"
    benchmark.write_text("".join(json.dumps(row) + "\n" for row in rows))
    folder = base / "evals" / "stub" / "r001"
    with FAMILIES.registered(Entry("echo", "a word said back in capitals", "tiny_family.family")):
        with StubServer(lambda request: _reply(request["messages"][-1]["content"].rsplit(" ", 1)[-1])) as server:
            settings = EvalSettings(model="stub", base_url=server.url, api_key="x", no_cache=True, llm_max_retries=0,
                                    llm_timeout=0.5)
            summary = template.evaluate(get_family("echo"), rows, settings, None, folder, "stub on echo",
                                        run={"family": "echo", "benchmark": str(benchmark), "model": "stub"})
        yield {"folder": folder, "rows": rows, "summary": summary, "html": (folder / FILE).read_text()}


def page_data(page: str) -> dict:
    """The rows the page holds, as its script reads them."""
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    return json.loads(found[1])


def resolved(texts: list, index: int | None) -> str | None:
    """A text of the page's table, as its script rebuilds it."""
    if index is None:
        return None
    entry = texts[index]
    return entry if isinstance(entry, str) else resolved(texts, entry[0])[:entry[1]] + entry[2]


def test_every_row_is_in_the_page_with_what_was_sent_replied_and_judged(run):
    data = page_data(run["html"])
    samples = {sample["id"]: sample for sample in data["samples"]}
    assert list(samples) == list(WORDS)  # every row, in row order
    assert {task: (s["verdict"], s["reason"]) for task, s in samples.items()} == {
        "w0": ("right", "right"), "w1": ("wrong", "wrong"), "w2": ("failed", "http 500"),
        "w3": ("failed", "timeout"), "w4": ("wrong", "wrong"), "w5": ("right", "right")}
    for row in run["rows"]:
        sample = samples[row["task_id"]]
        assert [resolved(data["texts"], turn) for turn in sample["turns"]] == [row["prompt"]]
        assert sample["gold"] == row["gold"] and sample["tier"] is None and sample["task"] == row["task_id"]
        assert sample["lines"][0]["correct"] == (sample["verdict"] == "right")
    assert [resolved(data["texts"], reply) for reply in samples["w1"]["replies"]] == [SCRIPT]
    assert samples["w2"]["replies"] == [] and "500" in samples["w2"]["error"]
    assert "6 rows; 2 right, 2 wrong, 2 failed requests" in data["overview"]


def test_the_page_is_self_contained_and_holds_no_reply_as_html(run):
    page = run["html"]
    assert "<script>document.title" not in page and "<b>bold" not in page  # the reply is data, not markup
    assert "\\u003cscript\\u003edocument.title='pwned'\\u003c/script\\u003e" in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)  # nothing fetched: no CDN, no network
    assert page.count("<script") == 2 and ".innerHTML" not in page  # the data and the script; text only
    assert "__DATA__" not in page and "<title>stub on echo</title>" in page


def test_failed_requests_are_counted_by_their_reason(run):
    summary = run["summary"]
    assert summary["replies"]["failure_reasons"] == {"http 500": 1, "timeout": 1}
    assert summary["replies"]["failures"] == "2 of 6 requests failed: 1 http 500, 1 timeout"
    report = json.loads((run["folder"] / "report.json").read_text())
    assert report["replies"]["failure_reasons"] == {"http 500": 1, "timeout": 1}
    assert "2 failed requests: 1 http 500, 1 timeout; not scored" in (run["folder"] / "report.md").read_text()


@pytest.mark.parametrize(("message", "kind"), [
    ("TimeoutError: no complete reply within 600 s", "timeout"),
    ("InternalServerError: Error code: 500 - {'error': 'down'}", "http 500"),
    ("RateLimitError: Error code: 429 - slow down", "http 429"),
    ("APIConnectionError: Connection error.", "connection failed"),
    ("NoAnswer: the server answered 200 with no choices", "no answer in a 200"),
    (None, "no error given"), ("something odd happened: here", "other")])
def test_a_failure_is_named_by_a_few_words(message, kind):
    assert failure_kind(message) == kind


def test_ifforge_view_writes_the_page_again_and_prints_its_path(run, capsys):
    folder = run["folder"]
    (folder / FILE).unlink()
    assert main(["view", str(folder.parent / "r001")]) == 0  # the run's family is registered by `run`
    assert capsys.readouterr().out == f"{folder / FILE}\n"
    assert page_data((folder / FILE).read_text()) == page_data(run["html"])  # the verdicts judged again, the same

    assert main(["view", str(folder.parent.parent / "nobody")]) == 2
    assert "no report.json" in capsys.readouterr().err


def test_a_benchmark_named_relative_to_another_folder_is_found_in_the_runs_version(run, tmp_path, capsys):
    """`evaluate` keeps the rows file as it was given (relative to where it ran): `ifforge view`
    started elsewhere finds it in the version its run folder sits in."""
    version = tmp_path / "v001"
    shutil.copytree(run["folder"].parents[2], version)
    folder = version / "evals" / "stub" / "r001"
    report = json.loads((folder / "report.json").read_text())
    report["run"]["benchmark"] = "outputs/echo/v001/benchmark.jsonl"
    (folder / "report.json").write_text(json.dumps(report))
    assert main(["view", str(folder)]) == 0
    capsys.readouterr()
    data = page_data((folder / FILE).read_text())
    assert all(s["turns"] for s in data["samples"]) and data["samples"] == page_data(run["html"])["samples"]


def test_served_on_this_machine_only_the_page(run):
    server = serving(run["folder"] / FILE)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        with urllib.request.urlopen(url + "/") as response:
            assert response.read() == (run["folder"] / FILE).read_bytes()
        with pytest.raises(urllib.error.HTTPError, match="404"):
            urllib.request.urlopen(url + "/../report.json")
    finally:
        server.shutdown()
        server.server_close()


def test_a_verdict_line_json_cannot_carry_reaches_the_page_as_text():
    assert _plain({"score": float("nan"), "top": float("inf"), "n": 3}) == {"score": "NaN", "top": "Infinity", "n": 3}


def test_long_texts_that_begin_alike_are_kept_once():
    texts = Texts()
    head = "a long shared input " * 500  # 10,000 characters
    one, two, three = head + "first question", head + "second question", "short"
    indices = [texts.add(text) for text in (one, two, three, one)]
    assert indices == [0, 1, 2, 0]  # a text met again is the same entry
    assert texts.entries[1] == [0, len(head), "second question"]  # the rest only
    assert [resolved(texts.entries, index) for index in indices] == [one, two, three, one]


def test_the_viewer_filters_in_a_real_browser(run, browser):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    browser.get((run["folder"] / FILE).as_uri())
    count = browser.find_element(By.ID, "count")
    shown = lambda: browser.find_elements(By.CSS_SELECTOR, "details.sample")  # noqa: E731
    assert count.text == "6 of 6 rows shown" and len(shown()) == 6

    Select(browser.find_element(By.ID, "verdict")).select_by_value("wrong")
    assert count.text == "2 of 6 rows shown"
    assert [row.get_attribute("data-verdict") for row in shown()] == ["wrong", "wrong"]
    Select(browser.find_element(By.ID, "verdict")).select_by_value("failed")
    Select(browser.find_element(By.ID, "reason")).select_by_value("timeout")
    assert count.text == "1 of 6 rows shown" and "w3" in shown()[0].text

    Select(browser.find_element(By.ID, "reason")).select_by_value("")
    Select(browser.find_element(By.ID, "verdict")).select_by_value("wrong")
    window = next(row for row in shown() if "w1" in row.find_element(By.TAG_NAME, "summary").text)
    window.find_element(By.TAG_NAME, "summary").click()  # its body is drawn when it opens
    WebDriverWait(browser, 5).until(lambda _: window.find_elements(By.TAG_NAME, "pre"))
    texts = [pre.text for pre in window.find_elements(By.TAG_NAME, "pre")]
    assert SCRIPT in texts  # the reply shown as the text it is
    assert browser.title == "stub on echo" and window.find_elements(By.TAG_NAME, "b") == []  # never run or drawn
    assert browser.execute_script("return document.scripts.length") == 2

    Select(browser.find_element(By.ID, "verdict")).select_by_value("")
    Select(browser.find_element(By.ID, "tier")).select_by_value("(none)")  # the echo family has no tiers
    assert count.text == "6 of 6 rows shown"
    browser.find_element(By.ID, "search").send_keys("river")
    assert count.text == "1 of 6 rows shown"


def test_a_samples_id_is_the_row_id_of_scores_parquet_and_every_export():
    """A two-key family's sample is found by the id its scores and exports give it (`task/case`)."""
    from ifforge.eval.viewer import sample

    family = get_family("logicif")
    row = {"task_id": "auction_rounds", "test_case_id": 3, "input": [1], "instruction": "Do it.",
           "code_output": {"output": 1, "stats": {"n": 1}}, "stats_keys": ["n"]}
    result = {**row, "response": '{"output": 1, "stats": {"n": 1}}'}
    verdict = family.check(row, template.Reply(result), family.options())
    shown = sample(family, 1, row, result, verdict, Texts())
    assert shown["id"] == family.row_id(row) == "auction_rounds/3" and shown["verdict"] == "right"
