"""A reply's body read within a bound, compressed and decompressed, before anything parses it.

Without one, a server that never ends its chunked body filled 3.9 GB in 25 s, and a 1.5 MB gzip
bomb 6 GB. `BoundedClient` is the HTTP client handed to `openai`: it asks for gzip or deflate only,
reads every body (of an answer, an error or a redirect) as it arrives, inflates it with a bound on
the output, and stops at `max_bytes` either way with `BodyTooLarge`. Redirects are not followed
(their bodies would be read unbounded); a chat-completions endpoint has no reason to send one.
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator
from typing import Any

import openai

DROPPED = {"content-encoding", "content-length", "transfer-encoding"}  # they described the body as it came


class BadBody(RuntimeError):
    """A body that cannot be read; the message says why, to follow "the server's reply"."""


class BodyTooLarge(BadBody):
    """A body over the bound (`llm_max_reply_bytes`), compressed or decompressed."""


def _inflater(header: str) -> Any:
    """A bounded decompressor for the body's Content-Encoding, or None for a plain body."""
    codings = [c.strip().lower() for c in header.split(",") if c.strip() and c.strip().lower() != "identity"]
    if not codings:
        return None
    if codings in (["gzip"], ["x-gzip"], ["deflate"]):
        return zlib.decompressobj(zlib.MAX_WBITS | 32)  # a gzip or zlib header, told apart by zlib
    raise BadBody(f"is sent with Content-Encoding {header[:40]!r} (ifforge asks for gzip or deflate)")


async def read_bounded(chunks: AsyncIterator[bytes], encoding: str, max_bytes: int) -> bytes:
    """The whole body, decompressed; `BodyTooLarge` as soon as either side passes `max_bytes`."""
    inflater = _inflater(encoding)
    body, received = bytearray(), 0
    too_large = BodyTooLarge(f"is over {max_bytes:,} bytes (setting llm_max_reply_bytes)")
    async for chunk in chunks:
        received += len(chunk)
        if received > max_bytes:
            raise too_large
        if inflater is None:
            body += chunk
            continue
        room = max_bytes - len(body)
        try:
            piece = inflater.decompress(chunk, room + 1)
        except zlib.error as error:
            raise BadBody(f"is not valid {encoding} ({error})") from None
        if len(piece) > room or inflater.unconsumed_tail:
            raise too_large
        body += piece
    return bytes(body)


class BoundedClient(openai.DefaultAsyncHttpxClient):
    """`openai`'s own HTTP client (its timeouts and connection limits), with every body bounded."""

    def __init__(self, max_bytes: int, **kwargs: Any):
        super().__init__(follow_redirects=False, **kwargs)
        self.max_bytes = max_bytes

    async def send(self, request: Any, *, stream: bool = False, **kwargs: Any) -> Any:
        kwargs["follow_redirects"] = False
        request.headers["Accept-Encoding"] = "gzip, deflate"
        response = await super().send(request, stream=True, **kwargs)
        try:
            body = await read_bounded(response.aiter_raw(), response.headers.get("content-encoding", ""),
                                      self.max_bytes)
        finally:
            await response.aclose()
        headers = [(key, value) for key, value in response.headers.multi_items() if key.lower() not in DROPPED]
        return type(response)(response.status_code, headers=headers, content=body, request=request,
                              extensions=response.extensions)
