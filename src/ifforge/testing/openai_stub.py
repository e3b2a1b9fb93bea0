"""A small OpenAI-compatible HTTP server on 127.0.0.1 that a test or benchmark scripts.

It speaks just enough of the chat-completions API for the real `openai` client: a test decides,
request by request, what comes back (a reply, an HTTP error with headers, a delay, a dropped
connection, a 200 that is no answer: any body at all (bytes too, with any headers: a gzip bomb),
a body that never ends, or a completion without choices), and every request body is recorded. It also speaks the files and
batches endpoints of the Batch API: a batch's lines are answered by the same handler when the batch
is next retrieved (unless `hold` is set: then it stays in progress), and it can be cancelled.
Every call is recorded as (method, path) in `calls`; `wait_for_requests` lets a test wait for the
requests themselves instead of sleeping a guess.
"""

from __future__ import annotations

import contextlib
import email.parser
import email.policy
import json
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Answer:
    content: str | None = None  # the assistant's text (status 200)
    status: int = 200
    error: str = ""  # message of an error reply
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds to wait before answering
    drop: bool = False  # close the connection without answering
    tool_calls: list[dict[str, str]] | None = None  # [{"name": ..., "arguments": "<json text>"}]
    trickle: float = 0.0  # seconds between bytes of the body: a server that never quite finishes
    body: str | bytes | None = None  # status 200 with exactly this body (an HTML page, nothing), in place of a completion
    content_type: str = "application/json"  # of `body`
    no_choices: bool = False  # a completion with `choices: []`
    endless: bool = False  # status 200, a chunked JSON body that never ends (until the client hangs up)
    finish_reason: str | None = None  # of the completion (default: "tool_calls" with calls, else "stop")
    usage: dict[str, int] | None = None  # of the completion (default: 4 characters a token)


Handler = Callable[[dict[str, Any]], Answer]


class _Server(ThreadingHTTPServer):
    """A thread per request, and a listen queue long enough for a client's whole burst: with the
    default of 5, the sixth connection at once waits a second for the kernel to retry it."""

    daemon_threads = True
    request_queue_size = 128

    def handle_error(self, request, client_address) -> None:
        """A client that hung up (on a body over its bound) is no error of the stub's: no traceback."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


class StubServer:
    """`StubServer(handler)`; or queue answers with `.script(...)`, which go first, in order."""

    def __init__(self, handler: Handler | None = None):
        self.handler = handler or (lambda request: Answer(content="ok"))
        self.queue: deque[Answer] = deque()
        self.requests: list[dict[str, Any]] = []  # chat-completions bodies, online ones only
        self.calls: list[tuple[str, str]] = []  # (method, path) of every call
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.batch_requests: list[dict[str, Any]] = []  # bodies of the lines of every batch run
        self.hold = False  # True: batches stay in progress until it is False again
        self._lock = threading.RLock()  # re-entered: a batch run uploads its output file
        self._arrived = threading.Condition(self._lock)
        self._server = _Server(("127.0.0.1", 0), self._make_handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def script(self, *answers: Answer) -> None:
        self.queue.extend(answers)

    def wait_for_requests(self, count: int, timeout: float = 60.0) -> bool:
        """Block until `count` chat requests have come (True) or `timeout` seconds have passed (False)."""
        with self._arrived:
            return self._arrived.wait_for(lambda: len(self.requests) >= count, timeout)

    def __enter__(self) -> StubServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _answer(self, request: dict[str, Any]) -> Answer:
        with self._lock:
            self.requests.append(request)
            self._arrived.notify_all()
            scripted = self.queue.popleft() if self.queue else None
        return scripted or self.handler(request)

    def _upload(self, data: bytes, filename: str, purpose: str) -> dict[str, Any]:
        with self._lock:
            file_id = f"file-{len(self.files) + 1}"
            self.files[file_id] = data
        return {"id": file_id, "object": "file", "bytes": len(data), "created_at": 0, "filename": filename,
                "purpose": purpose, "status": "processed"}

    def _create_batch(self, request: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            batch_id = f"batch_{len(self.batches) + 1}"
            self.batches[batch_id] = {
                "id": batch_id, "object": "batch", "endpoint": request["endpoint"], "errors": None,
                "input_file_id": request["input_file_id"], "completion_window": request["completion_window"],
                "status": "in_progress", "created_at": 0, "metadata": request.get("metadata"),
                "output_file_id": None, "error_file_id": None}
            return dict(self.batches[batch_id])

    def _retrieve_batch(self, batch_id: str) -> dict[str, Any] | None:
        """The batch; one in progress is run now (its lines answered by the handler) unless held."""
        with self._lock:
            batch = self.batches.get(batch_id)
            if batch is None or batch["status"] != "in_progress" or self.hold:
                return dict(batch) if batch else None
            lines = self.files[batch["input_file_id"]].decode().splitlines()
        out = []
        for line in filter(None, lines):
            row = json.loads(line)
            with self._lock:
                self.batch_requests.append(row["body"])
            answer = self.handler(row["body"])
            status, body = (200, _completion(row["body"], answer)) if answer.status == 200 else (
                answer.status, {"error": {"message": answer.error or f"status {answer.status}"}})
            out.append(json.dumps({"id": f"req_{len(out)}", "custom_id": row["custom_id"],
                                   "response": {"status_code": status, "body": body}, "error": None}))
        with self._lock:
            if batch["status"] == "in_progress":  # not cancelled meanwhile
                output = self._upload(("\n".join(out) + "\n").encode(), "output.jsonl", "batch_output")
                batch.update(status="completed", output_file_id=output["id"],
                             request_counts={"total": len(out), "completed": len(out), "failed": 0})
            return dict(batch)

    def _cancel_batch(self, batch_id: str) -> dict[str, Any] | None:
        with self._lock:
            batch = self.batches.get(batch_id)
            if batch is not None and batch["status"] not in ("completed", "failed", "expired"):
                batch["status"] = "cancelled"
            return dict(batch) if batch else None

    def _make_handler(self):
        stub = self

        class Handle(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def setup(self):
                super().setup()  # headers and body go out in separate writes: no Nagle delay on them
                self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def _send(self, status: int, body: dict, headers: dict[str, str] | None = None,
                      trickle: float = 0.0) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                if not trickle:
                    with contextlib.suppress(OSError):  # the client gave up (a timeout, a stopped run)
                        self.wfile.write(data)
                    return
                try:
                    for index in range(len(data)):
                        self.wfile.write(data[index:index + 1])
                        self.wfile.flush()
                        time.sleep(trickle)
                except OSError:  # the client gave up
                    pass

            def _raw(self, data: bytes, content_type: str = "application/octet-stream",
                     headers: dict[str, str] | None = None) -> None:
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                with contextlib.suppress(OSError):  # the client gave up (a body over its bound)
                    self.wfile.write(data)

            def _endless(self) -> None:
                """A chunked body that starts like a completion and never ends."""
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                chunk = b'{"choices": [{"message": {"content": "' + b"a" * 65536
                try:
                    while True:
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                        chunk = b"a" * 65536
                except OSError:  # the client hung up
                    self.close_connection = True

            def do_GET(self):
                path = self.path.split("?")[0].rstrip("/")
                with stub._lock:
                    stub.calls.append(("GET", path))
                parts = ["", "", *path.split("/")]
                batch = stub._retrieve_batch(parts[-1]) if parts[-2] == "batches" else None
                if path.endswith("/models"):
                    self._send(200, {"object": "list", "data": [{"id": "stub", "object": "model"}]})
                elif batch is not None:
                    self._send(200, batch)
                elif path.endswith("/content") and parts[-2] in stub.files:
                    self._raw(stub.files[parts[-2]])
                else:
                    self._send(404, {"error": {"message": "not found"}})

            def _batch_post(self, path: str, data: bytes) -> bool:
                """The files and batches endpoints; False for any other path."""
                parts = path.split("/")
                if path.endswith("/files"):
                    message = email.parser.BytesParser(policy=email.policy.default).parsebytes(
                        b"Content-Type: " + self.headers["Content-Type"].encode() + b"\r\n\r\n" + data)
                    fields = {part.get_param("name", header="content-disposition"): part
                              for part in message.iter_parts()}
                    upload = fields["file"]
                    self._send(200, stub._upload(upload.get_payload(decode=True), upload.get_filename() or "file",
                                                 fields["purpose"].get_content().strip()))
                elif path.endswith("/batches"):
                    self._send(200, stub._create_batch(json.loads(data)))
                elif path.endswith("/cancel") and parts[-3] == "batches":
                    batch = stub._cancel_batch(parts[-2])
                    self._send(200 if batch else 404, batch or {"error": {"message": "no such batch"}})
                else:
                    return False
                return True

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                path = self.path.split("?")[0].rstrip("/")
                data = self.rfile.read(length)
                with stub._lock:
                    stub.calls.append(("POST", path))
                if self._batch_post(path, data):
                    return
                request = json.loads(data or b"{}")
                answer = stub._answer(request)
                if answer.delay:
                    time.sleep(answer.delay)
                if answer.drop:
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                if answer.endless:
                    self._endless()
                    return
                if answer.body is not None:
                    data = answer.body.encode() if isinstance(answer.body, str) else answer.body
                    self._raw(data, answer.content_type, answer.headers)
                    return
                if answer.status != 200:
                    self._send(answer.status, {"error": {"message": answer.error or f"status {answer.status}",
                                                         "type": "stub_error"}}, answer.headers)
                    return
                self._send(200, _completion(request, answer), answer.headers, answer.trickle)

        return Handle


def _completion(request: dict[str, Any], answer: Answer) -> dict[str, Any]:
    """A chat completion answering `request` with `answer` (token counts: 4 characters a token)."""
    prompt = sum(len(str(m.get("content", ""))) for m in request.get("messages", [])) // 4
    completion = len(answer.content or "") // 4
    message: dict[str, Any] = {"role": "assistant", "content": answer.content}
    if answer.tool_calls:
        message["tool_calls"] = [{"id": f"call_{i}", "type": "function",
                                  "function": {"name": c["name"], "arguments": c["arguments"]}}
                                 for i, c in enumerate(answer.tool_calls)]
    return {
        "id": "chatcmpl-stub", "object": "chat.completion", "created": 0, "model": request.get("model", "stub"),
        "choices": [] if answer.no_choices else [
            {"index": 0, "finish_reason": answer.finish_reason or ("tool_calls" if answer.tool_calls else "stop"),
             "message": message}],
        "usage": answer.usage or {"prompt_tokens": prompt, "completion_tokens": completion,
                                  "total_tokens": prompt + completion},
    }
