"""numbers: the abstract kinds of number `isinstance` checks against, each said by which plain values
belong to it (true and false are whole numbers to Python)."""

from __future__ import annotations

LIBRARY = "numbers"

TYPES = {
    "Number": lambda say: "a number (a whole or decimal number, true or false counting as 1 and 0, or a complex one)",
    "Complex": lambda say: "a number (a whole or decimal number, true or false counting as 1 and 0, or a complex one)",
    "Real": lambda say: "a whole or decimal number, not a complex one (true and false count as whole numbers here)",
    "Rational": lambda say: "a whole number or a fraction, not a decimal one (true and false count as whole numbers "
                            "here)",
    "Integral": lambda say: "a whole number (true and false count as whole numbers here)",
}
WORDS: dict = {}
