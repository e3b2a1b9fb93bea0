"""The review page over HTTP (standard library only): serves one version, writes only its `reviews/`."""

from __future__ import annotations

import json
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Self
from urllib.parse import parse_qs, urlsplit

from ifforge.review.items import load_items
from ifforge.review.marks import ReviewError, ReviewFileError, all_reviews, load_reviews, save_review
from ifforge.review.page import render_page

MAX_BODY = 64 * 1024


class ReviewServer:
    """Serves the review page of one version folder; writes only `<version>/reviews/`."""

    def __init__(self, version: Path, host: str = "127.0.0.1", port: int = 0):
        self.version = Path(version)
        self.items = load_items(self.version)
        self.task_ids = {item["task_id"] for item in self.items}
        all_reviews(self.version)  # a corrupt reviewer file is said now, not at the first page load
        self.page = render_page(self.items, self.version).encode()
        try:
            self.httpd = ThreadingHTTPServer((host, port), _Handler)
        except OSError as error:
            raise ReviewError("port", f"cannot serve on {host}:{port}: {error.strerror or error}; choose another "
                              "--port (or leave it out for a free one)") from None
        self.httpd.daemon_threads = True
        self.httpd.review = self  # type: ignore[attr-defined]
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

    def log_message(self, format: str, *args: Any) -> None:  # quiet: marks are already on disk
        pass

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")  # a reload must show the marks on disk
        self.end_headers()
        self.wfile.write(body)

    def _json(self, value: Any, status: int = HTTPStatus.OK) -> None:
        self._send(status, json.dumps(value, ensure_ascii=False).encode(), "application/json; charset=utf-8")

    def _error(self, error: ReviewError, status: int = HTTPStatus.BAD_REQUEST) -> None:
        self._json({"error": str(error), "field": error.field}, status)

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        try:
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
        except ReviewFileError as error:
            self._error(error, HTTPStatus.INTERNAL_SERVER_ERROR)
        except ReviewError as error:
            self._error(error)

    def do_POST(self) -> None:
        if urlsplit(self.path).path != "/api/review":
            self._json({"error": f"no such endpoint {self.path}"}, HTTPStatus.NOT_FOUND)
            return
        try:
            # JSON only: a cross-site form cannot send it without a CORS preflight, which we never allow.
            if "application/json" not in self.headers.get("Content-Type", ""):
                raise ReviewError("Content-Type", "Content-Type: send the review as application/json")
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 < length <= MAX_BODY:
                raise ReviewError("body", f"body: expected 1 to {MAX_BODY} bytes of JSON")
            try:
                body = json.loads(self.rfile.read(length))
            except (json.JSONDecodeError, UnicodeDecodeError):
                raise ReviewError("body", "body: not valid JSON") from None
            self._json(save_review(self.review.version, self.review.task_ids, body))
        except ReviewFileError as error:
            self._error(error, HTTPStatus.INTERNAL_SERVER_ERROR)
        except ReviewError as error:
            self._error(error)

