"""Human review of items: marks saved per reviewer over real HTTP, agreement stats, verified export,
and the page itself in a real headless Chromium."""

import http.client
import json
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from ifforge.cli import main
from ifforge.review import (
    ReviewError,
    ReviewServer,
    cohen_kappa,
    export_verified,
    format_stats,
    review_stats,
    save_review,
    verified_task_ids,
)

TASKS = ["t1_sum", "t2_max", "t3_count", "t4_join"]
TIERS = {"t1_sum": "easy", "t2_max": "medium", "t3_count": "hard", "t4_join": "hard"}


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
        "description": f"INPUTS: `a`, a list of whole numbers; `b`, a whole number.\n\nLOGICS: task {task_id}.\n"
                       "1. Start a total `v1` at 0.\n2. Go through each value `v2` of `a`, adding 1 to "
                       "loop_iterations each time.\n3. When `v2` is below `b`, add 1 to branch_hits.\n\n"
                       "OUTPUTS: return the total `v1` and `stats`.",
        "instruction": "solve it",
        "stats_keys": ["loop_iterations", "branch_hits"],
        "output_format": "JSON",
        "complexity_metrics": {"cyclomatic": 2},
        "difficulty": TIERS.get(task_id, "easy"),
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


@pytest.fixture(scope="module")
def refusing(tmp_path_factory):
    """One server for the tests of requests it refuses (they write nothing): (server, version)."""
    folder = tmp_path_factory.mktemp("refusing") / "bench" / "v001"
    folder.mkdir(parents=True)
    (folder / "benchmark.jsonl").write_text("".join(json.dumps(_row(task, 0)) + "\n" for task in TASKS))
    with ReviewServer(folder) as running:
        yield running, folder


def _get(url: str):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.read().decode()


def _request(url: str, method: str = "GET", headers: dict | None = None, body: bytes = b"") -> tuple[int, dict, str]:
    """One request exactly as written (any Host, any Content-Length): (status, response headers, body)."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.putrequest(method, parts.path + (f"?{parts.query}" if parts.query else ""),
                              skip_host=True, skip_accept_encoding=True)
        for name, value in ({"Host": parts.netloc} | (headers or {})).items():
            if value is not None:  # None: the header is left out
                connection.putheader(name, value)
        connection.endheaders(body or None)
        response = connection.getresponse()
        return response.status, dict(response.headers), response.read().decode()
    finally:
        connection.close()


def _page_token(url: str) -> str:
    """The token the page carries, read from the page as its own script reads it."""
    return re.search(r'<meta name="review-token" content="([^"]+)">', _request(url)[2]).group(1)


def _post(server, body, url: str | None = None, headers: dict | None = None) -> tuple[int, dict]:
    """A mark posted as the page posts it (JSON, its token); `headers` change or (None) drop a header."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    url = url or server.url
    sent = {"Content-Type": "application/json", "X-Review-Token": _page_token(url), "Content-Length": str(len(data))}
    status, _, text = _request(url + "api/review", "POST", sent | (headers or {}), data)
    return status, json.loads(text)


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
    assert [case["test_case_id"] for case in items[0]["cases"]] == [0, 1]  # and all its cases
    assert items[0]["cases"][1]["code_output"]["output"] == 7
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
    (b"[" * 60000, "body"),  # nested past Python's recursion limit
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


MARK = {"reviewer": "mallory", "task_id": "t1_sum", "verdict": "faithful"}


@pytest.mark.parametrize("headers, status, field", [
    ({"Content-Type": "text/plain; x=application/json"}, 415, "Content-Type"),  # no CORS preflight for it
    ({"Content-Type": "application/x-www-form-urlencoded"}, 415, "Content-Type"),
    ({"Content-Type": "text/plain"}, 415, "Content-Type"),
    ({"Content-Type": None}, 415, "Content-Type"),
    ({"Content-Type": "application/jsonx"}, 415, "Content-Type"),
    ({"Origin": "http://evil.example"}, 403, "Origin"),
    ({"Origin": "null"}, 403, "Origin"),
    ({"Sec-Fetch-Site": "cross-site"}, 403, "Sec-Fetch-Site"),
    ({"Sec-Fetch-Site": "same-site"}, 403, "Sec-Fetch-Site"),
    ({"X-Review-Token": None}, 403, "X-Review-Token"),
    ({"X-Review-Token": "guessed"}, 403, "X-Review-Token"),
])
def test_a_mark_from_another_origin_is_refused(refusing, headers, status, field):
    server, version = refusing
    answer_status, answer = _post(server, MARK, headers=headers)
    assert (answer_status, answer["field"]) == (status, field) and field in answer["error"]
    assert not (version / "reviews").exists()


def test_a_mark_from_the_page_own_origin_is_saved(server, version):
    origin = server.url.rstrip("/")
    status, record = _post(server, MARK, headers={"Origin": origin, "Sec-Fetch-Site": "same-origin",
                                                  "Content-Type": "Application/JSON; charset=utf-8"})
    assert status == 200 and record["verdict"] == "faithful"
    assert json.loads((version / "reviews" / "mallory.json").read_text())["t1_sum"]["verdict"] == "faithful"
    with ReviewServer(version) as other:  # every server has its own token: one page's is no good at another
        assert _page_token(other.url) != _page_token(server.url)
        status, answer = _post(other, MARK, headers={"X-Review-Token": _page_token(server.url)})
        assert status == 403 and answer["field"] == "X-Review-Token"
    _, headers, _ = _request(server.url)
    assert headers["X-Frame-Options"] == "DENY"  # no other site can frame the page and click its buttons
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]


@pytest.mark.parametrize("host", ["evil.example:{port}", "evil.example", "127.0.0.1:{other}", "localhost.evil.example:{port}",
                                  "127.0.0.2:{port}", "", None])
def test_a_request_for_another_host_is_refused(refusing, host):
    """DNS rebinding: a site whose name now points at 127.0.0.1 reaches the server with its own name as Host."""
    server, version = refusing
    port = urlsplit(server.url).port
    host = host and host.format(port=port, other=port + 1)
    for path in ("", "api/items", "api/reviews?reviewer=alice", "api/verdicts"):
        status, _, text = _request(server.url + path, headers={"Host": host})
        assert status == 403 and json.loads(text)["field"] == "Host", path
    data = json.dumps(MARK).encode()
    status, _, text = _request(server.url + "api/review", "POST", {
        "Host": host, "Content-Type": "application/json", "X-Review-Token": _page_token(server.url),
        "Content-Length": str(len(data))}, data)
    assert status == 403 and json.loads(text)["field"] == "Host"
    assert not (version / "reviews").exists()


def test_the_server_own_names_are_answered(server):
    port = urlsplit(server.url).port
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
        assert _request(server.url, headers={"Host": host})[0] == 200, host
        assert _post(server, MARK, headers={"Host": host})[0] == 200, host


def test_a_server_on_every_address_answers_its_addresses_not_other_names(version):
    with ReviewServer(version, host="0.0.0.0") as server:
        port = urlsplit(server.url).port
        url = f"http://127.0.0.1:{port}/"
        for host in (f"192.0.2.7:{port}", f"[::1]:{port}", f"localhost:{port}"):  # any address of this machine
            assert _request(url, headers={"Host": host})[0] == 200, host
        assert _request(url, headers={"Host": f"evil.example:{port}"})[0] == 403


@pytest.mark.parametrize("length, status", [
    ("abc", 400), ("-5", 400), ("+5", 400), ("1_0", 400), ("5 5", 400), ("", 400),
    (str(10**12), 413), ("9" * 5000, 413), (str(64 * 1024 + 1), 413),
    (None, 411), ("0", 400),
])
def test_a_bad_content_length_is_a_clear_answer_not_a_traceback(refusing, capfd, length, status):
    server, version = refusing
    headers = {"Content-Type": "application/json", "X-Review-Token": _page_token(server.url), "Content-Length": length}
    answer_status, _, text = _request(server.url + "api/review", "POST", headers)
    assert answer_status == status and json.loads(text)["field"] == "Content-Length"
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")  # nothing on the terminal, least of all a traceback
    assert not (version / "reviews").exists()


def test_a_chunked_or_short_body_is_refused(version, capfd):
    with ReviewServer(version, read_timeout=0.3) as server:
        headers = {"Content-Type": "application/json", "X-Review-Token": _page_token(server.url)}
        status, _, text = _request(server.url + "api/review", "POST",
                                   headers | {"Transfer-Encoding": "chunked"}, b"2\r\n{}\r\n0\r\n\r\n")
        assert status == 411 and json.loads(text)["field"] == "Content-Length"
        # a body shorter than it says does not hold a thread forever
        status, _, text = _request(server.url + "api/review", "POST", headers | {"Content-Length": "100"}, b"{}")
        assert status == 408 and json.loads(text)["field"] == "body"
    assert capfd.readouterr() == ("", "")


def test_a_failure_inside_the_server_is_one_line_and_a_500(version, capfd):
    (version / "reviews").write_text("a file where the reviews folder belongs")
    with ReviewServer(version) as server:
        status, answer = _post(server, MARK)
    assert status == 500 and "the server failed" in answer["error"]
    out, err = capfd.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "POST /api/review failed" in err and "Traceback" not in err


@contextmanager
def _review_process(version: Path):
    """`ifforge review VERSION` in a process of its own, as a reviewer starts it: yields its URL and process."""
    process = subprocess.Popen([sys.executable, "-m", "ifforge.cli", "review", str(version)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        found = re.search(r"http://\S+/", line)
        assert found, (line, process.stderr.read() if process.poll() is not None else "")
        yield found.group(0), process
    finally:
        process.terminate()
        process.wait(10)


def test_two_review_servers_on_one_version_keep_every_acknowledged_mark(tmp_path):
    """Two servers (two processes) on one version, one reviewer's 42 marks posted to both at once."""
    version = tmp_path / "bench" / "v001"
    version.mkdir(parents=True)
    tasks = [f"t{n:02d}" for n in range(42)]
    (version / "benchmark.jsonl").write_text("".join(json.dumps(_row(task, 0)) + "\n" for task in tasks))
    with _review_process(version) as (first, one), _review_process(version) as (second, two):
        def post(n: int):
            url = (first, second)[n % 2]
            return _post(None, {"reviewer": "alice", "task_id": tasks[n], "verdict": "faithful",
                                "comment": f"mark {n}"}, url=url)

        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(post, range(len(tasks))))
    acknowledged = {record["task_id"]: record for status, record in answers if status == 200}
    assert len(acknowledged) == len(tasks), answers
    on_disk = json.loads((version / "reviews" / "alice.json").read_text())
    assert {task: {"reviewer": "alice", "task_id": task, **record} for task, record in on_disk.items()} == acknowledged
    assert one.stderr.read() == two.stderr.read() == ""  # two servers, no complaint, no traceback


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
    assert verified_task_ids(version, min_reviewers=2) == {"t1_sum"}  # t4: carol alone
    assert main(["export", str(version), "--verified-only", "--min-reviewers", "3",
                 "--out", str(tmp_path / "three.jsonl")]) == 0
    assert {json.loads(line)["task_id"] for line in (tmp_path / "three.jsonl").read_text().splitlines()} == {"t1_sum"}
    path, count = export_verified(version, tmp_path / "out" / "verified.jsonl")
    assert count == 2 and path == tmp_path / "out" / "verified.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    source = [json.loads(line) for line in (version / "benchmark.jsonl").read_text().splitlines()]
    assert rows == [row for row in source if row["task_id"] in {"t1_sum", "t4_join"}]  # every test case
    assert len(rows) == 4


@pytest.mark.parametrize("content, problem", [
    ("{not json", "not JSON"), ("[1, 2]", "not a review file"), ('{"t1_sum": {"verdict": "maybe"}}', "no verdict")])
def test_a_corrupt_review_file_is_one_clear_line(version, tmp_path, capsys, content, problem):
    (version / "reviews").mkdir()
    (version / "reviews" / "alice.json").write_text(content)
    with pytest.raises(ReviewError, match=f"alice.json: .*{problem}"):
        ReviewServer(version)
    for command in (["review", str(version)], ["review", str(version), "--stats"],
                    ["export", str(version), "--verified-only", "--out", str(tmp_path / "v.jsonl")]):
        assert main(command) == 2
        error = capsys.readouterr().err.strip().splitlines()
        assert len(error) == 1 and problem in error[0] and "fix the file or move it away" in error[0]


def test_a_busy_port_is_one_clear_line(server, version, capsys):
    port = int(server.url.rsplit(":", 1)[1].strip("/"))
    with pytest.raises(ReviewError, match=f"cannot serve on 127.0.0.1:{port}"):
        ReviewServer(version, port=port)
    assert main(["review", str(version), "--port", str(port)]) == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and "choose another --port" in error[0]


def test_review_stats_as_json_on_the_command_line(version, capsys):
    for reviewer, verdict in (("alice", "faithful"), ("bob", "not_faithful")):
        save_review(version, set(TASKS), {"reviewer": reviewer, "task_id": "t1_sum", "verdict": verdict})
    assert main(["review", str(version), "--stats", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == review_stats(version)
    assert printed["coverage"]["reviewed_twice"] == 1 and printed["pairs"][0]["agreement"] == 0.0


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

    # every test case; a description with no record of where its steps stand is shown whole beside
    # the code, never placed by guessing from its words
    assert len(item("t1_sum").find_elements(By.CSS_SELECTOR, "table.cases tr.case-row")) == 2
    row = item("t1_sum").find_element(By.CSS_SELECTOR, 'tr.code-line[data-line="3"]')
    assert row.find_element(By.CSS_SELECTOR, "td.src").text.strip() == "v1 = 0"
    assert item("t1_sum").find_elements(By.CSS_SELECTOR, ".step") == []
    whole = item("t1_sum").find_element(By.CSS_SELECTOR, "tr.unplaced .description").text
    assert "1. Start a total v1 at 0.\n2. Go through each value v2 of a" in whole

    def shown():
        return [i.get_attribute("data-task-id") for i in browser.find_elements(By.CSS_SELECTOR, ".item")
                if i.is_displayed()]

    def choose(select, value):
        from selenium.webdriver.support.ui import Select

        Select(browser.find_element(By.ID, select)).select_by_value(value)

    # filters: tier, my status, another reviewer's marks
    choose("filter-tier", "hard")
    assert shown() == ["t3_count", "t4_join"] and browser.find_element(By.ID, "shown").text == "showing 2 of 4"
    choose("filter-tier", "")
    choose("filter-status", "todo")
    assert shown() == ["t2_max"]
    choose("filter-status", "")
    _mark(server, "erin", "t4_join", "not_faithful")
    browser.refresh()
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#filter-reviewer option")) == 3)  # anyone, dana, erin
    choose("filter-reviewer", "erin")
    assert shown() == ["t4_join"]
    assert "erin: not faithful" in item("t4_join").find_element(By.CSS_SELECTOR, ".others").text
    choose("filter-reviewer", "")
    choose("filter-status", "disputed")  # dana said faithful, erin not
    assert shown() == ["t4_join"]
    choose("filter-status", "")

    # keys: n jumps to the next unreviewed item, f marks it, n finds none left
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys("n")
    wait.until(lambda _: "current" in item("t2_max").get_attribute("class"))
    body.send_keys("f")
    status_is("t2_max", "faithful")
    assert json.loads((version / "reviews" / "dana.json").read_text())["t2_max"]["verdict"] == "faithful"
    body.send_keys("n")
    wait.until(lambda d: "Every item shown is reviewed by dana" in d.find_element(By.ID, "message").text)
    body.send_keys("k")  # the previous item, then x marks it not faithful
    wait.until(lambda _: "current" in item("t1_sum").get_attribute("class"))
    body.send_keys("x")
    status_is("t1_sum", "not faithful")
    browser.find_element(By.ID, "next-unreviewed")  # the same jump, as a button


# ---- where each step stands: the describer's own record, on every shipped seed ------------------------
NUMBERED = re.compile(r"^\s*((?:[0-9a-z]+\.)*[0-9a-z]+)\.\s")


@pytest.fixture(scope="module")
def seeds_version(tmp_path_factory):
    """The 42 shipped seeds, generated once for this file (in this process: no Prefect server, no
    embedding model, whose dedup drops none of them): (version folder, first row of each task)."""
    from conftest import PROJECT

    from ifforge.families import load_family_settings
    from ifforge.generation import generate

    settings = load_family_settings({"seeds": str(PROJECT / "seeds" / "logicif"), "progress": False, "dedup": False,
                                     "expressions": 0, "out": str(tmp_path_factory.mktemp("seeds"))})
    version = generate(settings)
    rows: dict[str, dict] = {}
    for line in (version / "benchmark.jsonl").read_text().splitlines():
        row = json.loads(line)
        rows.setdefault(row["task_id"], row)
    assert len(rows) == 42
    return version, rows


def _own_statements(source: str) -> dict[str, list]:
    """Each function of `source` -> the statements its own body holds, at any depth (a function
    defined in it is one of them; that function's body is its own), as `ast` reads them."""
    import ast

    found: dict[str, list] = {}

    def visit(node, owner):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt) and owner:
                found.setdefault(owner, []).append(child)
            visit(child, child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else owner)

    visit(ast.parse(source), None)
    return found


def _function_node(source: str, name: str):
    import ast

    return next(node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.FunctionDef) and node.name == name)


def _steps_of(version, task: str) -> list[dict]:
    return json.loads((version / "items" / task / "steps.json").read_text())["steps"]


def test_the_describer_places_every_step_of_every_seed_inside_a_statement_of_its_function(seeds_version):
    version, rows = seeds_version
    total = 0
    for task, row in rows.items():
        places = _steps_of(version, task)
        lines = row["description"].splitlines()
        numbered = [match[1] for line in lines if (match := NUMBERED.match(line))]
        assert [p["step"] for p in places if p["step"]] == numbered, task  # every step, once, in order
        own = _own_statements(row["function"])
        covered = [n for p in places for n in range(p["lines"][0], p["lines"][1] + 1)]
        assert covered == list(range(1, len(lines) + 1)), task  # every line of the description in one row
        for place in places:
            if place["step"]:  # a step: where a statement of its function starts, within that function's own lines
                mine = own.get(place["function"], [])
                assert any(s.lineno == place["first"] for s in mine), (task, place)
                assert any(s.lineno <= place["last"] <= s.end_lineno for s in mine), (task, place)
            else:  # a header ("A helper you will use", "Otherwise:"): inside its function
                function = _function_node(row["function"], place["function"])
                assert function.lineno <= place["first"] <= place["last"] <= function.end_lineno, (task, place)
        total += len(numbered)
    assert total > 1000

    def beside(task: str, label: str, function: str) -> str:
        place = next(p for p in _steps_of(version, task) if p["step"] == label and p["function"] == function)
        return rows[task]["function"].splitlines()[place["first"] - 1].strip()

    # the issue's cases: a helper's last step, the main steps' second, a one-line `if ...: continue`
    assert beside("auction_rounds", "3", "g1") == "return v1"  # "3. Return p." (was beside line 5)
    assert beside("auction_rounds", "2", "f") == "v6 = None"  # "2. Set u to None and n to 0." (was in the helper)
    assert beside("battery_scheduler", "2.1", "g2") == "if v5 <= 0:"


def test_a_dropped_line_a_moved_helper_and_an_elif_are_placed_by_the_code_not_the_words():
    """The describer reads a stored method in place (its line is gone from what it reads) and keeps
    the module's helper and constant beside f; the exported f holds them in its body."""
    from ifforge.families.logicif.codeops.describe import narrate, places
    from ifforge.families.logicif.codeops.instrument.self_contained import self_contained
    from ifforge.families.logicif.records import Tracker

    source = ("LIMIT = 3\n\ndef f(a, b):\n    stats = {'loop_iterations': 0}\n    push = a.append\n    total = 0\n"
              "    for x in b:\n        stats['loop_iterations'] += 1\n        if x > LIMIT:\n            push(x)\n"
              "        elif x < 0:\n            total -= x\n        else:\n            total += helper(x)\n"
              "    return (total, stats)\n\ndef helper(y):\n    return y * 2\n")
    counter = [Tracker(name="loop_iterations", kind="loop_iterations", explanation="iterations of `for x in b`")]
    told = narrate.narration(source, counter, {"a": "list[int]", "b": "list[int]"}, "int")
    assert told.text == narrate.describe(source, counter, {"a": "list[int]", "b": "list[int]"}, "int")
    exported = self_contained(source)
    code, text = exported.splitlines(), told.text.splitlines()
    said = {"\n".join(line.strip() for line in text[p["lines"][0] - 1:p["lines"][1]]).strip():
            (p["step"], p["function"], code[p["first"] - 1].strip()) for p in places.places(told, exported)}
    assert said["A helper you will use, helper, takes y and does this:"] == (None, "f", "def helper(y):")
    assert said["1. Return y times 2."] == ("1", "helper", "return y * 2")
    assert said["2. Set total to 0."] == ("2", "f", "total = 0")  # not the stored method's line before it
    assert said["3.2.1. Put x at the end of a."] == ("3.2.1", "f", "push(x)")
    assert said["Otherwise, if x is less than 0:"] == (None, "f", "elif x < 0:")
    assert said["3.2.b1. Subtract x from total."] == ("3.2.b1", "f", "total -= x")
    assert said["Otherwise:"] == (None, "f", "else:")
    assert said["The main steps, starting from your inputs:\n1. Start the counter loop_iterations (kept in the "
                "dictionary stats) at 0."] == ("1", "f", "stats = {'loop_iterations': 0}")


def test_a_record_made_for_another_text_is_not_used(seeds_version, tmp_path):
    from ifforge.families.logicif.review import read_steps

    version, rows = seeds_version
    row = rows["auction_rounds"]
    assert read_steps(version, row) == _steps_of(version, "auction_rounds")
    assert read_steps(version, {**row, "description": row["description"] + " "}) is None  # a model's rewording
    assert read_steps(version, {**row, "function": row["function"].replace("v1", "w1")}) is None
    assert read_steps(tmp_path, row) is None  # a version written before the record existed


def test_every_step_of_every_seed_stands_beside_a_line_of_its_statement_in_a_real_browser(seeds_version, browser):
    """In the page as a reviewer sees it: each step sits in the row of a line of the statement the
    describer's record names (and on screen, level with that line), the line's text is the
    exported code's, and `ast` puts that line inside the named function's own body."""
    version, rows = seeds_version
    with ReviewServer(version) as server:
        browser.get(server.url)
        seen = browser.execute_script("""
          return Array.from(document.querySelectorAll('.item')).map(item => ({
            task: item.dataset.taskId, unplaced: item.querySelectorAll('tr.unplaced').length,
            steps: Array.from(item.querySelectorAll('.step[data-row]')).map(step => {
              const row = step.closest('tr.code-line'), code = row.querySelector('td.src code');
              const a = step.getBoundingClientRect(), b = code.getBoundingClientRect();
              return {row: Number(step.dataset.row), label: step.dataset.step || null, text: step.innerText,
                      line: Number(row.dataset.line), code: code.textContent, level: a.top >= b.top - 1 && a.top < b.bottom};
            })}));""")
    assert sorted(item["task"] for item in seen) == sorted(rows)
    checked = 0
    for item in seen:
        task, row = item["task"], rows[item["task"]]
        places, code, lines = _steps_of(version, task), row["function"].splitlines(), row["description"].splitlines()
        own = _own_statements(row["function"])
        assert item["unplaced"] == 0 and len(item["steps"]) == len(places), task
        labels = [step["label"] for step in item["steps"] if step["label"]]
        assert sorted(labels) == sorted(match[1] for line in lines if (match := NUMBERED.match(line))), task
        for step in item["steps"]:
            place = places[step["row"]]
            assert place["first"] <= step["line"] <= place["last"], (task, step, place)
            assert step["code"] == code[step["line"] - 1], (task, step)
            assert step["level"], (task, step)  # on screen too, not just in the markup
            if step["label"]:
                # the line is inside the named function's own body, by `ast` on the exported code
                assert any(s.lineno <= step["line"] <= s.end_lineno for s in own[place["function"]]), (task, step)
                # and the whole step's line, notes and all, is in this one cell
                [said] = [line.strip() for number, line in enumerate(lines, start=1)
                          if place["lines"][0] <= number <= place["lines"][1] and NUMBERED.match(line)]
                assert NUMBERED.match(said)[1] == step["label"] and said in step["text"], (task, step)
                checked += 1
    assert checked > 1000


LONG_RULE = ("The value must hold exactly 4 placeholders in square brackets, such as [address], and no other "
             "bracket anywhere: " + "x" * 300)
IFEVAL_FC_ROW = {  # a row as `ifforge generate --family ifeval-fc` writes it, its rule made long
    "family": "ifeval-fc", "task_id": "bank.ask_vet_question.placeholder_count.q1", "domain": "pets",
    "function_name": "ask_vet_question", "parameter": "question", "rule_id": "placeholder_count",
    "rule_args": {"relation": "exactly", "n": 4}, "rule_text": LONG_RULE,
    "tools": [{"type": "function", "function": {
        "name": "ask_vet_question", "description": "Send a question to an online vet.",
        "parameters": {"type": "object", "required": ["question"], "properties": {
            "question": {"type": "string", "description": "The question for the vet. " + LONG_RULE}}}}}],
    "tool_choice": "auto",
    "messages": [{"role": "system", "content": "Answer every request by calling one of the functions you are given."},
                 {"role": "user", "content": "My cat is 12 and drinking much more water than before; should I worry?"}]}


def test_each_family_has_its_own_labels_and_guidance_and_long_text_wraps(tmp_path, browser):
    from selenium.webdriver.common.by import By

    folder = tmp_path / "bench" / "v001"
    folder.mkdir(parents=True)
    (folder / "benchmark.jsonl").write_text(json.dumps(_row("t1_sum", 0)) + "\n" + json.dumps(IFEVAL_FC_ROW) + "\n")
    with ReviewServer(folder) as server:
        browser.get(server.url)
        guidance = {p.get_attribute("data-family"): p.text for p in browser.find_elements(By.CSS_SELECTOR, "p.help")}
        fc = browser.find_element(By.CSS_SELECTOR, f'.item[data-task-id="{IFEVAL_FC_ROW["task_id"]}"]')
        labels = [h.text for h in fc.find_elements(By.CSS_SELECTOR, ".pair h3")]
        cut = browser.execute_script("""return Array.from(arguments[0].querySelectorAll('pre'))
            .filter(box => box.scrollWidth > box.clientWidth + 1).map(box => box.textContent.slice(0, 60));""", fc)
        logicif = browser.find_element(By.CSS_SELECTOR, '.item[data-task-id="t1_sum"] table.aligned thead').text
    assert set(guidance) == {"logicif", "ifeval-fc"}  # once per family on the page, in its own words
    assert "checker" in guidance["ifeval-fc"] and "trackers" not in guidance["ifeval-fc"]
    assert "trackers included" in guidance["logicif"]
    assert labels == ["TOOL SCHEMA (THE RULE SITS IN ONE PARAMETER'S DESCRIPTION)", "USER QUERY"]  # shown in capitals
    assert "REFERENCE CODE" not in fc.text.upper()
    assert cut == []  # the rule wraps inside its box: nothing runs past the edge
    assert "FUNCTION" in logicif and "INSTRUCTION, STEP BY STEP" in logicif
