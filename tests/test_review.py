"""Human review of items: marks saved per reviewer over real HTTP, agreement stats, verified export,
and the page itself in a real headless Chromium."""

import json
import shutil
import tempfile
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ifforge.review import (
    ReviewServer,
    cohen_kappa,
    export_verified,
    format_stats,
    review_stats,
    verified_task_ids,
)

TASKS = ["t1_sum", "t2_max", "t3_count", "t4_join"]


def _row(task_id: str, case: int) -> dict:
    return {
        "task_id": task_id,
        "test_case_id": case,
        "input": [[case, 2, 3], 1],
        "code_output": {"output": 6 + case, "stats": {"loop_iterations": 3, "branch_hits": case}},
        "function": (
            "def f(a, b):\n    stats = {'loop_iterations': 0, 'branch_hits': 0}\n    v1 = 0\n"
            "    for v2 in a:\n        stats['loop_iterations'] += 1\n        if v2 < b:\n"
            "            stats['branch_hits'] += 1\n        v1 += v2\n    return (v1, stats)\n"),
        "description": f"INPUTS: `a`, a list of whole numbers; `b`, a whole number.\n\nLOGICS: task {task_id}: "
                       "add up `a`, counting items below `b` as branch hits.",
        "instruction": "solve it",
        "stats_keys": ["loop_iterations", "branch_hits"],
        "output_format": "JSON",
        "complexity_metrics": {"cyclomatic": 2},
        "difficulty": "easy",
    }


@pytest.fixture
def version(tmp_path):
    folder = tmp_path / "bench" / "v001"
    folder.mkdir(parents=True)
    rows = [_row(task, case) for task in TASKS for case in (0, 1)]
    (folder / "benchmark.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    return folder


@pytest.fixture
def server(version):
    with ReviewServer(version) as running:
        yield running


def _get(url: str):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.read().decode()


def _post(server: ReviewServer, body) -> tuple[int, dict]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(server.url + "api/review", data=data, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _mark(server, reviewer, task_id, verdict, comment=""):
    status, record = _post(server, {"reviewer": reviewer, "task_id": task_id, "verdict": verdict,
                                    "comment": comment})
    assert status == 200, record
    return record


def test_items_and_page(server, version):
    status, text = _get(server.url + "api/items")
    items = json.loads(text)
    assert status == 200 and [item["task_id"] for item in items] == TASKS
    assert all(item["test_case_id"] == 0 for item in items)  # one entry per task: its first test case
    assert items[0]["stats_keys"] == ["loop_iterations", "branch_hits"]
    status, page = _get(server.url)
    assert status == 200 and page.startswith("<!doctype html>")
    for task in TASKS:
        assert f'data-task-id="{task}"' in page
    assert "if v2 &lt; b:" in page  # the code is escaped, not interpreted
    assert "<code>a</code>" in page  # backticked names in the description shown as code
    assert "<link" not in page and " src=" not in page  # self-contained: nothing fetched from elsewhere
    with pytest.raises(urllib.error.HTTPError) as missing:
        _get(server.url + "nothing-here")
    assert missing.value.code == 404


def test_marks_are_saved_per_reviewer(server, version):
    before = (version / "benchmark.jsonl").read_bytes()
    record = _mark(server, "alice", "t1_sum", "faithful", "  looks right ")
    assert record["reviewer"] == "alice" and record["verdict"] == "faithful" and record["comment"] == "looks right"
    saved_at = datetime.fromisoformat(record["at"])
    assert saved_at.utcoffset() == timedelta(0) and abs(datetime.now(UTC) - saved_at).total_seconds() < 60
    _mark(server, "alice", "t2_max", "not_faithful", "step 2 is wrong")
    _mark(server, "alice", "t1_sum", "not_faithful")  # a new mark replaces the old one
    _mark(server, "bob.k-2", "t1_sum", "faithful")

    on_disk = json.loads((version / "reviews" / "alice.json").read_text())
    assert set(on_disk) == {"t1_sum", "t2_max"}
    assert on_disk["t1_sum"]["verdict"] == "not_faithful" and on_disk["t1_sum"]["comment"] == ""
    assert on_disk["t2_max"] == {"verdict": "not_faithful", "comment": "step 2 is wrong", "at": on_disk["t2_max"]["at"]}
    assert set(json.loads((version / "reviews" / "bob.k-2.json").read_text())) == {"t1_sum"}

    status, text = _get(server.url + "api/reviews?reviewer=alice")
    assert status == 200 and json.loads(text) == on_disk
    assert json.loads(_get(server.url + "api/reviews?reviewer=nobody")[1]) == {}
    # Nothing else in the version folder changes; no temporary files are left behind.
    assert (version / "benchmark.jsonl").read_bytes() == before
    assert sorted(p.name for p in version.iterdir()) == ["benchmark.jsonl", "reviews"]
    assert sorted(p.name for p in (version / "reviews").iterdir()) == ["alice.json", "bob.k-2.json"]


@pytest.mark.parametrize("body, field", [
    ({"reviewer": "alice", "task_id": "nope", "verdict": "faithful"}, "task_id"),
    ({"reviewer": "alice", "task_id": "t1_sum", "verdict": "maybe"}, "verdict"),
    ({"reviewer": "alice", "task_id": "t1_sum"}, "verdict"),
    ({"reviewer": "", "task_id": "t1_sum", "verdict": "faithful"}, "reviewer"),
    ({"task_id": "t1_sum", "verdict": "faithful"}, "reviewer"),
    ({"reviewer": "../../etc/x", "task_id": "t1_sum", "verdict": "faithful"}, "reviewer"),
    ({"reviewer": "bad name", "task_id": "t1_sum", "verdict": "faithful"}, "reviewer"),
    ({"reviewer": "a" * 65, "task_id": "t1_sum", "verdict": "faithful"}, "reviewer"),
    ({"reviewer": "alice", "task_id": "t1_sum", "verdict": "faithful", "comment": 5}, "comment"),
    (b"{not json", "body"),
    ([1, 2], "body"),
])
def test_bad_input_is_a_400_naming_the_field(server, version, body, field):
    status, answer = _post(server, body)
    assert status == 400
    assert answer["field"] == field and field in answer["error"]
    assert not (version / "reviews").exists()


def test_bad_reviewer_in_query_is_a_400(server):
    with pytest.raises(urllib.error.HTTPError) as error:
        _get(server.url + "api/reviews?reviewer=..%2Fx")
    assert error.value.code == 400 and json.loads(error.value.read())["field"] == "reviewer"


def test_concurrent_saves_lose_nothing(server, version):
    marks = [(task, verdict) for task in TASKS for verdict in ("faithful", "not_faithful")] * 3
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda mark: _mark(server, "alice", *mark), marks))
    assert set(json.loads((version / "reviews" / "alice.json").read_text())) == set(TASKS)


def test_kappa_hand_computed():
    f, n = "faithful", "not_faithful"
    # 3 of 4 agree; chance: A says f 3/4, B 2/4 -> 3/4*2/4 + 1/4*2/4 = 1/2; kappa = (3/4-1/2)/(1/2)
    assert cohen_kappa([f, f, n, f], [f, n, n, f]) == (0.75, 0.5, False)
    assert cohen_kappa([f, f], [f, f]) == (1.0, 1.0, True)  # chance agreement 1: kappa by convention


def test_stats_verified_and_export(server, version, tmp_path):
    with pytest.raises(ValueError, match="no reviews"):
        export_verified(version, tmp_path / "verified.jsonl")
    empty = review_stats(version)
    assert empty["tasks"] == 4 and empty["coverage"]["at_least_one"] == 0 and empty["pairs"] == []
    assert "no reviews yet" in format_stats(empty)

    for task, verdict in [("t1_sum", "faithful"), ("t2_max", "faithful"), ("t3_count", "not_faithful")]:
        _mark(server, "alice", task, verdict)
    for task, verdict in [("t1_sum", "faithful"), ("t2_max", "not_faithful"), ("t3_count", "not_faithful")]:
        _mark(server, "bob", task, verdict)
    for task in ("t1_sum", "t4_join"):
        _mark(server, "carol", task, "faithful")

    stats = review_stats(version)
    assert stats["tasks"] == 4
    assert stats["reviewers"]["alice"] == {"reviewed": 3, "faithful": 2, "not_faithful": 1}
    assert stats["reviewers"]["carol"] == {"reviewed": 2, "faithful": 2, "not_faithful": 0}
    # reviews per task: t1 3, t2 2, t3 2, t4 1
    assert stats["coverage"]["at_least_one"] == 1.0 and stats["coverage"]["at_least_two"] == 0.75
    pairs = {tuple(pair["reviewers"]): pair for pair in stats["pairs"]}
    assert set(pairs) == {("alice", "bob"), ("alice", "carol"), ("bob", "carol")}
    # alice f f n, bob f n n: observed 2/3; chance 2/3*1/3 + 1/3*2/3 = 4/9; kappa (2/9)/(5/9) = 0.4
    ab = pairs["alice", "bob"]
    assert ab["shared"] == 3 and ab["agreement"] == pytest.approx(2 / 3) and ab["kappa"] == pytest.approx(0.4)
    assert ab["kappa_degenerate"] is False
    ac = pairs["alice", "carol"]  # only t1 in common, both "faithful": chance agreement is 1
    assert ac["shared"] == 1 and ac["agreement"] == 1.0 and ac["kappa"] == 1.0 and ac["kappa_degenerate"]
    assert "expected agreement is 1" in ac["kappa_note"]
    table = format_stats(stats)
    assert "alice / bob" in table and "67%" in table and "0.40" in table and "*" in table

    assert verified_task_ids(version) == {"t1_sum", "t4_join"}  # t2, t3: someone said not faithful
    path, count = export_verified(version, tmp_path / "out" / "verified.jsonl")
    assert count == 2 and path == tmp_path / "out" / "verified.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    source = [json.loads(line) for line in (version / "benchmark.jsonl").read_text().splitlines()]
    assert rows == [row for row in source if row["task_id"] in {"t1_sum", "t4_join"}]  # every test case
    assert len(rows) == 4


CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")


@pytest.fixture
def browser(monkeypatch):
    for path in (CHROMIUM, CHROMEDRIVER):
        if not path.exists():
            pytest.skip(f"{path} is missing: apt-get install chromium chromium-driver for the browser test")
    webdriver = pytest.importorskip("selenium.webdriver", reason="pip install selenium for the browser test")
    from selenium.webdriver.chrome.service import Service

    monkeypatch.setenv("SE_OFFLINE", "true")  # Selenium Manager must never download a browser or driver
    profile = tempfile.mkdtemp(prefix="ifforge-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run", "--disable-quic", f"--user-data-dir={profile}", "--window-size=1400,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(15)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def test_page_in_a_real_browser(server, version, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(browser, 10)

    def item(task):
        return browser.find_element(By.CSS_SELECTOR, f'.item[data-task-id="{task}"]')

    def status_is(task, text):
        wait.until(lambda _: item(task).find_element(By.CSS_SELECTOR, ".status").text == text,
                   f"{task} status never became {text!r}")

    browser.get(server.url)
    browser.find_element(By.ID, "reviewer").send_keys("dana")
    wait.until(lambda d: "Reviewing as dana" in d.find_element(By.ID, "message").text)

    item("t1_sum").find_element(By.CSS_SELECTOR, ".mark-faithful").click()
    item("t3_count").find_element(By.CSS_SELECTOR, "textarea.comment").send_keys("step 3 skips the last item")
    item("t3_count").find_element(By.CSS_SELECTOR, ".mark-unfaithful").click()
    status_is("t1_sum", "faithful")
    status_is("t3_count", "not faithful")
    assert browser.find_element(By.ID, "progress").text == "2 / 4 reviewed"

    _mark(server, "dana", "t4_join", "faithful")  # made elsewhere: the reload must fetch marks from the server
    browser.refresh()
    assert browser.find_element(By.ID, "reviewer").get_attribute("value") == "dana"  # remembered locally
    status_is("t1_sum", "faithful")
    status_is("t3_count", "not faithful")
    status_is("t4_join", "faithful")
    assert item("t2_max").find_element(By.CSS_SELECTOR, ".status").text == ""
    comment = item("t3_count").find_element(By.CSS_SELECTOR, "textarea.comment").get_attribute("value")
    assert comment == "step 3 skips the last item"
    assert browser.find_element(By.ID, "progress").text == "3 / 4 reviewed"

    on_disk = json.loads((version / "reviews" / "dana.json").read_text())
    assert on_disk["t1_sum"]["verdict"] == "faithful"
    assert on_disk["t3_count"]["verdict"] == "not_faithful"
    assert on_disk["t3_count"]["comment"] == "step 3 skips the last item"
