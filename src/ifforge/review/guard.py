"""Which requests the review server answers: those for its own host, and marks from its own page.

Any site the reviewer's browser visits can make it send requests to 127.0.0.1. The checks:

- `Host` must name this server. A DNS-rebinding site (its name re-pointed at 127.0.0.1) reaches the
  server under its own name, and would otherwise read the page, its token and every mark.
- A mark must be `application/json` (the media type parsed, not searched for: `text/plain;
  x=application/json` is a "simple" request a browser sends cross-site without asking first),
  must come from this server's origin when the browser says where it comes from (`Origin`,
  `Sec-Fetch-Site`), and must carry the token written into this server's page. The token is the
  defence that does not depend on the browser: another origin can neither read it nor, without a
  CORS preflight this server never grants, send its header.
- A body has a declared length, in plain digits, at most `MAX_BODY` bytes.
"""

from __future__ import annotations

import hmac
import ipaddress
import re
import socket
from email.message import Message
from http import HTTPStatus
from urllib.parse import urlsplit

MAX_BODY = 64 * 1024
TOKEN_HEADER = "X-Review-Token"
_HOST = re.compile(r"(?P<name>\[[0-9A-Fa-f:.]+\]|[^:\[\]]+)(?::(?P<port>[0-9]{1,5}))?")
_DIGITS = re.compile(r"[0-9]{1,12}")  # longer is over the bound anyway (and int() refuses 4300+ digits)


class Refused(Exception):
    """A request this server does not answer: the HTTP status, the header at fault and one line why."""

    def __init__(self, status: HTTPStatus, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.status = status
        self.field = field


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


class Guard:
    """The checks for one server: its names and port, and the token its page carries."""

    def __init__(self, given_host: str, bound_host: str, port: int, token: str):
        self.port = port
        self.token = token
        self.names = {"localhost", "127.0.0.1", given_host.lower(), bound_host.lower()}
        # bound to every address: reached by any address of this machine, or by its name
        self.any_ip = _is_ip(bound_host) and ipaddress.ip_address(bound_host).is_unspecified
        if self.any_ip:
            self.names.add(socket.gethostname().lower())

    def host(self, value: str | None) -> tuple[str, int]:
        """The (name, port) of a `Host` header naming this server; refused otherwise."""
        found = _HOST.fullmatch((value or "").strip().lower())
        if found:
            name, port = found["name"], int(found["port"] or 80)
            if port == self.port and (name.rstrip(".") in self.names or (self.any_ip and _is_ip(name))):
                return name, port
        raise Refused(HTTPStatus.FORBIDDEN, "Host", f"{value!r} is not this server (open "
                      f"http://127.0.0.1:{self.port}/ or http://localhost:{self.port}/)")

    def mark(self, headers: Message, host: tuple[str, int]) -> None:
        """A mark comes from this server's own page: its origin, its token, JSON."""
        origin = headers.get("Origin")
        if origin is not None:
            try:
                parts = urlsplit(origin.lower())
                same = parts.scheme == "http" and (parts.hostname, parts.port or 80) == (host[0].strip("[]"), host[1])
            except ValueError:  # a port that is not a number, a broken IPv6 address
                same = False
            if not same:
                raise Refused(HTTPStatus.FORBIDDEN, "Origin", f"{origin!r} is another site; marks are taken "
                              "only from this server's page")
        site = headers.get("Sec-Fetch-Site")
        if site is not None and site.lower() != "same-origin":
            raise Refused(HTTPStatus.FORBIDDEN, "Sec-Fetch-Site", f"{site!r}: marks are taken only from this "
                          "server's page")
        if not hmac.compare_digest((headers.get(TOKEN_HEADER) or "").encode(), self.token.encode()):
            raise Refused(HTTPStatus.FORBIDDEN, TOKEN_HEADER, "missing or not this server's; reload the page "
                          "(a restarted server has a new token)")
        if headers.get_content_type() != "application/json":  # parsed: a missing or malformed type is text/plain
            raise Refused(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "Content-Type",
                          f"{headers.get('Content-Type')!r}: send the mark as application/json")


def body_length(headers: Message) -> int:
    """The declared body length: plain digits, 1 to MAX_BODY; refused with 400, 411 or 413 otherwise."""
    if headers.get("Transfer-Encoding") is not None:
        raise Refused(HTTPStatus.LENGTH_REQUIRED, "Content-Length", "send the body with a Content-Length, "
                      "not Transfer-Encoding")
    values = headers.get_all("Content-Length") or []
    if not values:
        raise Refused(HTTPStatus.LENGTH_REQUIRED, "Content-Length", "required")
    if len(values) > 1:
        raise Refused(HTTPStatus.BAD_REQUEST, "Content-Length", "given more than once")
    text = values[0].strip()
    if not text.isascii() or not text.isdigit():
        raise Refused(HTTPStatus.BAD_REQUEST, "Content-Length", f"{values[0]!r} is not a number of bytes")
    if not _DIGITS.fullmatch(text) or int(text) > MAX_BODY:
        raise Refused(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "Content-Length",
                      f"{text[:20]}{'...' if len(text) > 20 else ''} bytes; a mark is at most {MAX_BODY} bytes")
    if int(text) == 0:
        raise Refused(HTTPStatus.BAD_REQUEST, "Content-Length", "0: the mark is missing")
    return int(text)
