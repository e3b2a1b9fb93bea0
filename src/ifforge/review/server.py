"""The review page over HTTP (standard library only): serves one version, writes only its `reviews/`.

What it answers is decided by `guard` (its own host; marks from its own page, bounded); whatever
else goes wrong in a request is one line on the terminal and a 500, never a traceback.
"""

from __future__ import annotations

import json
import secrets
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Self
from urllib.parse import parse_qs, urlsplit

from ifforge.review.guard import Guard, Refused, body_length
from ifforge.review.items import load_items
from ifforge.review.marks import ReviewError, ReviewFileError, all_reviews, load_reviews, save_review
from ifforge.review.page import render_page


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64  # socketserver's 5: with 8 clients at once, connections were retried after 1 s

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away is no news; anything else is one line, not socketserver's traceback."""
        error = sys.exc_info()[1]
        if not isinstance(error, (ConnectionError, TimeoutError)):
            print(f"ifforge review: a request from {client_address[0]} failed: {type(error).__name__}: {error}",
                  file=sys.stderr, flush=True)


class ReviewServer:
    """Serves the review page of one version folder; writes only `<version>/reviews/`.

    `read_timeout` bounds how long a request may take to arrive, so a client that stops sending
    does not hold a thread forever."""

    def __init__(self, version: Path, host: str = "127.0.0.1", port: int = 0, read_timeout: float = 10.0):
        self.version = Path(version)
        self.items = load_items(self.version)
        self.task_ids = {item["task_id"] for item in self.items}
        all_reviews(self.version)  # a corrupt reviewer file is said now, not at the first page load
        self.token = secrets.token_urlsafe(32)  # a new one each start: only this server's page knows it
        self.page = render_page(self.items, self.version, self.token).encode()
        self.read_timeout = read_timeout
        try:
            self.httpd = _HTTPServer((host, port), _Handler)
        except OSError as error:
            raise ReviewError("port", f"cannot serve on {host}:{port}: {error.strerror or error}; choose another "
                              "--port (or leave it out for a free one)") from None
        self.httpd.review = self  # type: ignore[attr-defined]
        bound, bound_port = self.httpd.server_address[:2]
        self.guard = Guard(host, str(bound), bound_port, self.token)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/"

    def start(self) -> Self:
        # A short poll interval only makes stop() quick; requests are served at once regardless.
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="review-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join()
            self._thread = None
        self.httpd.server_close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _Handler(BaseHTTPRequestHandler):
    server_version = "ifforge-review"

    @property
    def review(self) -> ReviewServer:
        return self.server.review  # type: ignore[attr-defined]

    def setup(self) -> None:
        self.timeout = self.review.read_timeout  # applied to the socket by StreamRequestHandler.setup
        super().setup()

    def log_message(self, format: str, *args: Any) -> None:  # quiet: marks are already on disk
        pass

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")  # a reload must show the marks on disk
        # no other site may frame the page and have the reviewer click its buttons
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Content-Security-Policy", "frame-ancestors 'none'")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, value: Any, status: int = HTTPStatus.OK) -> None:
        self._send(status, json.dumps(value, ensure_ascii=False).encode(), "application/json; charset=utf-8")

    def _answer(self, route) -> None:
        """Every request: the host checked first, then `route`; every failure a JSON answer naming the field."""
        try:
            route(urlsplit(self.path), self.review.guard.host(self.headers.get("Host")))
        except Refused as refused:
            self.close_connection = True  # a body left unread must not be taken for the next request
            self._json({"error": str(refused), "field": refused.field}, refused.status)
        except ReviewFileError as error:
            self._json({"error": str(error), "field": error.field}, HTTPStatus.INTERNAL_SERVER_ERROR)
        except ReviewError as error:
            self._json({"error": str(error), "field": error.field}, HTTPStatus.BAD_REQUEST)
        except (ConnectionError, TimeoutError):
            self.close_connection = True  # the client went away or stopped sending: no one to answer
        except Exception as error:  # a bug: one line here and there, never a traceback
            print(f"ifforge review: {self.command} {self.path} failed: {type(error).__name__}: {error}",
                  file=sys.stderr, flush=True)
            self.close_connection = True
            self._json({"error": f"the server failed: {type(error).__name__}: {error}", "field": "server"},
                       HTTPStatus.INTERNAL_SERVER_ERROR)

    def do_GET(self) -> None:
        self._answer(self._get)

    def do_POST(self) -> None:
        self._answer(self._post)

    def _get(self, url, host: tuple[str, int]) -> None:
        if url.path in ("/", "/index.html"):
            self._send(HTTPStatus.OK, self.review.page, "text/html; charset=utf-8")
        elif url.path == "/api/items":
            self._json(self.review.items)
        elif url.path == "/api/reviews":
            reviewer = parse_qs(url.query).get("reviewer", [""])[0]
            self._json(load_reviews(self.review.version, reviewer))
        elif url.path == "/api/verdicts":  # every reviewer's verdicts, for the status and reviewer filters
            self._json({name: {task: record["verdict"] for task, record in marks.items()}
                        for name, marks in all_reviews(self.review.version).items()})
        else:
            self._json({"error": f"no such page {url.path}"}, HTTPStatus.NOT_FOUND)

    def _post(self, url, host: tuple[str, int]) -> None:
        if url.path != "/api/review":
            self._json({"error": f"no such endpoint {url.path}"}, HTTPStatus.NOT_FOUND)
            return
        self.review.guard.mark(self.headers, host)
        length = body_length(self.headers)
        try:
            data = self.rfile.read(length)
        except TimeoutError:
            raise Refused(HTTPStatus.REQUEST_TIMEOUT, "body", f"not received within {self.review.read_timeout:g} s "
                          f"({length} bytes were announced)") from None
        if len(data) < length:
            raise Refused(HTTPStatus.BAD_REQUEST, "body", f"{len(data)} bytes, not the {length} announced")
        try:
            body = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):  # deep nesting: not a mark either
            raise ReviewError("body", "body: not valid JSON") from None
        self._json(save_review(self.review.version, self.review.task_ids, body))
