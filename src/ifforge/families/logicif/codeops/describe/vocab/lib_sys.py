"""sys: the one fixed value of the interpreter that is the same on every host this runs on."""

from __future__ import annotations

LIBRARY = "sys"
WORDS: dict = {}
CONSTANTS = {"maxsize": "the largest whole number a list position can be (9223372036854775807)"}
