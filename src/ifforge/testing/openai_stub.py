"""A small OpenAI-compatible HTTP server on 127.0.0.1 that a test or benchmark scripts.

It speaks just enough of the chat-completions API for the real `openai` client: a test decides,
request by request, what comes back (a reply, an HTTP error with headers, a delay, a dropped
connection), and every request body is recorded for assertions.
"""

from __future__ import annotations

import json
import socket
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


Handler = Callable[[dict[str, Any]], Answer]


class StubServer:
    """`StubServer(handler)`; or queue answers with `.script(...)`, which go first, in order."""

    def __init__(self, handler: Handler | None = None):
        self.handler = handler or (lambda request: Answer(content="ok"))
        self.queue: deque[Answer] = deque()
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._make_handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def script(self, *answers: Answer) -> None:
        self.queue.extend(answers)

    def __enter__(self) -> StubServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _answer(self, request: dict[str, Any]) -> Answer:
        with self._lock:
            self.requests.append(request)
            scripted = self.queue.popleft() if self.queue else None
        return scripted or self.handler(request)

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
                    self.wfile.write(data)
                    return
                try:
                    for index in range(len(data)):
                        self.wfile.write(data[index:index + 1])
                        self.wfile.flush()
                        time.sleep(trickle)
                except OSError:  # the client gave up
                    pass

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, {"object": "list", "data": [{"id": "stub", "object": "model"}]})
                else:
                    self._send(404, {"error": {"message": "not found"}})

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                request = json.loads(self.rfile.read(length) or b"{}")
                answer = stub._answer(request)
                if answer.delay:
                    time.sleep(answer.delay)
                if answer.drop:
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                if answer.status != 200:
                    self._send(answer.status, {"error": {"message": answer.error or f"status {answer.status}",
                                                         "type": "stub_error"}}, answer.headers)
                    return
                prompt = sum(len(str(m.get("content", ""))) for m in request.get("messages", [])) // 4
                completion = len(answer.content or "") // 4
                message: dict[str, Any] = {"role": "assistant", "content": answer.content}
                if answer.tool_calls:
                    message["tool_calls"] = [{"id": f"call_{i}", "type": "function",
                                              "function": {"name": c["name"], "arguments": c["arguments"]}}
                                             for i, c in enumerate(answer.tool_calls)]
                self._send(200, {
                    "id": "chatcmpl-stub", "object": "chat.completion", "created": 0,
                    "model": request.get("model", "stub"),
                    "choices": [{"index": 0, "finish_reason": "tool_calls" if answer.tool_calls else "stop",
                                 "message": message}],
                    "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                              "total_tokens": prompt + completion},
                }, answer.headers, answer.trickle)

        return Handle
