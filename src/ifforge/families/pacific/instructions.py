"""PACIFIC's instruction pool: one small class per instruction, a registry from id to class.

Each instruction maps a whole number or a string to a whole number or a string. It says what it
does in English (`describe`), and shows it as one Python function of one argument (`python`),
which is the reference: gold comes from running that source in the sandbox, and chain planning
runs the same source in process (`run_python`). Every instruction is total on its input type:
negative numbers, zero, huge numbers, empty and non-ASCII strings all have a defined result.
`conflicts` names instructions that must not directly follow this one (they would undo it or
make the step trivial).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Literal

ValueType = Literal["int", "str"]


class Instruction:
    id: ClassVar[str]
    input_type: ClassVar[ValueType]
    output_type: ClassVar[ValueType]
    conflicts: ClassVar[frozenset[str]] = frozenset()
    text: ClassVar[str]  # the English description, with {arg} slots
    body: ClassVar[str]  # the Python function body (indented 4), with {arg} slots; the argument is x

    def __init__(self, **args: Any):
        expected = set(self.sample_args(random.Random(0)))
        if set(args) != expected:
            raise ValueError(f"instruction {self.id!r} takes arguments {sorted(expected) or 'none'}, got {sorted(args)}")
        self._args = dict(args)

    @classmethod
    def sample_args(cls, rng: random.Random) -> dict[str, Any]:
        return {}

    def args(self) -> dict[str, Any]:
        return dict(self._args)

    def describe(self) -> str:
        return self.text.format(**self._args)

    def python(self, name: str = "transform") -> str:
        return f"def {name}(x):\n{self.body.format(**self._args).rstrip()}\n"

    def accepts(self, value: Any) -> bool:
        if isinstance(value, bool):
            return False
        return isinstance(value, int) if self.input_type == "int" else isinstance(value, str)


# ---- number -> number ---------------------------------------------------------------------------
class NextPrime(Instruction):
    id, input_type, output_type = "next_prime", "int", "int"
    text = ("Take the remainder of the number divided by 1000000 (between 0 and 999999, also for negative "
            "numbers), then give the smallest prime number strictly greater than that remainder (0 and 1 give 2).")
    body = """    n = x % 1000000 + 1
    while n < 2 or any(n % d == 0 for d in range(2, int(n ** 0.5) + 1)):
        n += 1
    return n"""


class NextSquare(Instruction):
    id, input_type, output_type = "next_square", "int", "int"
    text = ("Replace the number with the smallest perfect square (0, 1, 4, 9, 16, ...) that is strictly greater "
            "than it. Any negative number becomes 0.")
    body = """    if x < 0:
        return 0
    import math
    root = math.isqrt(x) + 1
    return root * root"""


class DigitsAtTwo(Instruction):
    id, input_type, output_type = "digits_at_two", "int", "int"
    text = ("Read the decimal digits of the number, ignoring any minus sign, as the coefficients of a polynomial "
            "from the highest power down to the constant term, and evaluate it at 2: start from 0 and for each "
            "digit from left to right double the running total and add the digit. The result is never negative.")
    body = """    total = 0
    for digit in str(abs(x)):
        total = total * 2 + int(digit)
    return total"""


class InvertBits(Instruction):
    id, input_type, output_type = "invert_bits", "int", "int"
    text = ("Take the absolute value of the number and write it in binary using a width of bits equal to the "
            "smallest power of two (1, 2, 4, 8, 16, ...) that is at least its number of binary digits (zero has "
            "one digit). Flip every bit within that width and give the resulting non-negative number.")
    body = """    n = abs(x)
    width = 1
    while width < max(1, n.bit_length()):
        width *= 2
    return n ^ ((1 << width) - 1)"""


class DigitSum(Instruction):
    id, input_type, output_type = "digit_sum", "int", "int"
    text = "Replace the number with the sum of its decimal digits, ignoring any minus sign (zero gives 0)."
    body = """    return sum(int(digit) for digit in str(abs(x)))"""


class ReverseDigits(Instruction):
    id, input_type, output_type = "reverse_digits", "int", "int"
    conflicts = frozenset({"reverse_digits"})
    text = ("Reverse the order of the decimal digits of the number, dropping leading zeros of the result, and "
            "keep its sign: a negative number stays negative.")
    body = """    digits = int(str(abs(x))[::-1])
    return -digits if x < 0 else digits"""


class CollatzStep(Instruction):
    id, input_type, output_type = "collatz_step", "int", "int"
    text = ("If the number is even (zero and negative even numbers included), halve it; otherwise multiply it "
            "by 3 and add 1.")
    body = """    return x // 2 if x % 2 == 0 else 3 * x + 1"""


class CountOnes(Instruction):
    id, input_type, output_type = "count_ones", "int", "int"
    text = "Replace the number with how many 1 bits its absolute value has in binary (zero gives 0)."
    body = """    return bin(abs(x)).count("1")"""


class ModAdd(Instruction):
    id, input_type, output_type = "mod_add", "int", "int"
    text = ("Add {add} to the number, then take the remainder of dividing by {mod}; the remainder is always "
            "between 0 and {mod_less}, also for negative numbers (for example -1 gives {example}).")
    body = """    return (x + {add}) % {mod}"""

    @classmethod
    def sample_args(cls, rng: random.Random) -> dict[str, Any]:
        return {"add": rng.randint(1, 9), "mod": rng.choice([7, 11, 13, 17, 31, 64, 100])}

    def describe(self) -> str:
        add, mod = self._args["add"], self._args["mod"]
        return self.text.format(add=add, mod=mod, mod_less=mod - 1, example=(-1 + add) % mod)


# ---- number -> string ---------------------------------------------------------------------------
DIGIT_PAIRS = ("ab", "cd", "ef", "gh", "ij", "kl", "mn", "op", "qr", "st")
WORDS = ("apple", "river", "stone", "cloud", "ember", "maple", "orbit", "tulip", "quartz", "lemon", "pixel")
WEEKDAYS = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")


class DigitsToPairs(Instruction):
    id, input_type, output_type = "digits_to_pairs", "int", "str"
    text = ("Write the decimal digits of the number, ignoring any minus sign, and replace each digit by two "
            "letters: 0 by ab, 1 by cd, 2 by ef, 3 by gh, 4 by ij, 5 by kl, 6 by mn, 7 by op, 8 by qr, 9 by st. "
            "The result is all those letter pairs joined in order.")
    body = f"""    pairs = {DIGIT_PAIRS!r}
    return "".join(pairs[int(digit)] for digit in str(abs(x)))"""


class WordAt(Instruction):
    id, input_type, output_type = "word_at", "int", "str"
    text = (f"Take the word at position (the number modulo {len(WORDS)}) in this list, counting from 0: "
            f"{', '.join(WORDS)}. The remainder of a negative number is taken so that it is between 0 and "
            f"{len(WORDS) - 1} (for example -1 picks the last word).")
    body = f"""    words = {WORDS!r}
    return words[x % len(words)]"""


class Roman(Instruction):
    id, input_type, output_type = "roman", "int", "str"
    text = ("Take the remainder of the number divided by 10000 (between 0 and 9999, also for negative numbers) "
            "and write it as a Roman numeral with the subtractive forms (IV, IX, XL, XC, CD, CM); thousands are "
            "written as that many M letters, and 0 is written as the single letter N.")
    body = """    n = x % 10000
    if n == 0:
        return "N"
    numerals = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
    out = ""
    for value, letters in numerals:
        while n >= value:
            out += letters
            n -= value
    return out"""


class Weekday(Instruction):
    id, input_type, output_type = "weekday", "int", "str"
    text = ("Take the remainder of the number divided by 7 (between 0 and 6, also for negative numbers) and "
            "give the English name of that weekday, with Sunday as 0, Monday as 1, and so on to Saturday as 6.")
    body = f"""    days = {WEEKDAYS!r}
    return days[x % 7]"""


class Binary(Instruction):
    id, input_type, output_type = "binary", "int", "str"
    text = ("Write the number in binary digits with no prefix and no leading zeros (zero is 0), with a minus "
            "sign in front when the number is negative.")
    body = """    return ("-" if x < 0 else "") + format(abs(x), "b")"""


class Base3(Instruction):
    id, input_type, output_type = "base3", "int", "str"
    text = ("Write the number in base 3 with the digits 0, 1 and 2, no leading zeros (zero is 0), with a minus "
            "sign in front when the number is negative.")
    body = """    n = abs(x)
    digits = ""
    while n:
        digits = str(n % 3) + digits
        n //= 3
    return ("-" if x < 0 else "") + (digits or "0")"""


class Hex(Instruction):
    id, input_type, output_type = "hex", "int", "str"
    text = ("Write the number in hexadecimal with lowercase letters a to f, no prefix and no leading zeros "
            "(zero is 0), with a minus sign in front when the number is negative.")
    body = """    return ("-" if x < 0 else "") + format(abs(x), "x")"""


# ---- string -> string ---------------------------------------------------------------------------
class AlternateCapsReverse(Instruction):
    id, input_type, output_type = "alternate_caps_reverse", "str", "str"
    text = ("Make the characters at even positions (counting from 0) uppercase and those at odd positions "
            "lowercase, counting every character including spaces and punctuation, then reverse the whole "
            "string. Characters without case stay as they are.")
    body = """    mixed = "".join(c.upper() if i % 2 == 0 else c.lower() for i, c in enumerate(x))
    return mixed[::-1]"""


class SortCharacters(Instruction):
    id, input_type, output_type = "sort_characters", "str", "str"
    conflicts = frozenset({"sort_characters"})
    text = ("Sort all the characters of the string by their Unicode code point, smallest first, keeping "
            "repeats; spaces and punctuation come before digits, digits before uppercase letters, and "
            "uppercase before lowercase letters.")
    body = """    return "".join(sorted(x))"""


class ShiftBackOne(Instruction):
    id, input_type, output_type = "shift_back_one", "str", "str"
    text = ("Replace every English letter by the letter before it in the alphabet, wrapping around so that a "
            "becomes z and A becomes Z; keep the case, and leave every other character unchanged.")
    body = """    out = []
    for c in x:
        if "a" <= c <= "z":
            out.append(chr((ord(c) - 97 - 1) % 26 + 97))
        elif "A" <= c <= "Z":
            out.append(chr((ord(c) - 65 - 1) % 26 + 65))
        else:
            out.append(c)
    return "".join(out)"""


class Caesar(Instruction):
    id, input_type, output_type = "caesar", "str", "str"
    text = ("Shift every English letter {key} places forward in the alphabet, wrapping around from z to a and "
            "from Z to A; keep the case, and leave every other character unchanged.")
    body = """    out = []
    for c in x:
        if "a" <= c <= "z":
            out.append(chr((ord(c) - 97 + {key}) % 26 + 97))
        elif "A" <= c <= "Z":
            out.append(chr((ord(c) - 65 + {key}) % 26 + 65))
        else:
            out.append(c)
    return "".join(out)"""

    @classmethod
    def sample_args(cls, rng: random.Random) -> dict[str, Any]:
        return {"key": rng.randint(2, 25)}


class VowelsToGh(Instruction):
    id, input_type, output_type = "vowels_to_gh", "str", "str"
    text = ("Replace every vowel (a, e, i, o, u, in lowercase or uppercase; y is not a vowel) by the two "
            "lowercase letters gh, and keep every other character.")
    body = """    return "".join("gh" if c in "aeiouAEIOU" else c for c in x)"""


class MovePrefix(Instruction):
    id, input_type, output_type = "move_prefix", "str", "str"
    text = ("Find the longest beginning of the string whose characters never decrease in Unicode code point "
            "from one to the next (it has at least one character when the string is not empty), and move that "
            "beginning to the end of the string. An empty string stays empty.")
    body = """    end = 1
    while end < len(x) and x[end - 1] <= x[end]:
        end += 1
    return x[end:] + x[:end]"""


class SwapCase(Instruction):
    id, input_type, output_type = "swap_case", "str", "str"
    conflicts = frozenset({"swap_case"})
    text = ("Make every English uppercase letter (A to Z) lowercase and every English lowercase letter (a to z) "
            "uppercase; leave every other character unchanged.")
    body = """    out = []
    for c in x:
        if "a" <= c <= "z":
            out.append(chr(ord(c) - 32))
        elif "A" <= c <= "Z":
            out.append(chr(ord(c) + 32))
        else:
            out.append(c)
    return "".join(out)"""


class DedupeCharacters(Instruction):
    id, input_type, output_type = "dedupe_characters", "str", "str"
    conflicts = frozenset({"dedupe_characters"})
    text = ("Keep only the first occurrence of each character, in the order they first appear; uppercase and "
            "lowercase letters are different characters.")
    body = """    seen = set()
    out = []
    for c in x:
        if c not in seen:
            seen.add(c)
            out.append(c)
    return "".join(out)"""


class RotateLeft(Instruction):
    id, input_type, output_type = "rotate_left", "str", "str"
    text = ("Move the first {k} characters of the string to its end, one at a time, keeping their order (for a "
            "string shorter than {k} the moves wrap around, so only the remainder of {k} divided by the length "
            "counts). An empty string stays empty.")
    body = """    if not x:
        return x
    k = {k} % len(x)
    return x[k:] + x[:k]"""

    @classmethod
    def sample_args(cls, rng: random.Random) -> dict[str, Any]:
        return {"k": rng.randint(1, 4)}


class RunLength(Instruction):
    id, input_type, output_type = "run_length", "str", "str"
    text = ("Replace each run of the same character repeated one or more times in a row by the length of the "
            "run in decimal followed by the character, for example aaab becomes 3a1b. An empty string stays empty.")
    body = """    out = []
    i = 0
    while i < len(x):
        j = i
        while j < len(x) and x[j] == x[i]:
            j += 1
        out.append(str(j - i) + x[i])
        i = j
    return "".join(out)"""


# ---- string -> number ---------------------------------------------------------------------------
class AlphabetSum(Instruction):
    id, input_type, output_type = "alphabet_sum", "str", "int"
    text = ("Add up the alphabet positions of the English letters in the string, a or A counting 1, b or B "
            "counting 2, up to z or Z counting 26; every other character counts 0, so an empty string gives 0.")
    body = """    total = 0
    for c in x:
        if "a" <= c <= "z":
            total += ord(c) - 96
        elif "A" <= c <= "Z":
            total += ord(c) - 64
    return total"""


class CodeSum(Instruction):
    id, input_type, output_type = "code_sum", "str", "int"
    text = "Add up the Unicode code points of all the characters of the string (an empty string gives 0)."
    body = """    return sum(ord(c) for c in x)"""


class Length(Instruction):
    id, input_type, output_type = "length", "str", "int"
    text = "Replace the string by the number of characters it has, spaces and punctuation included."
    body = """    return len(x)"""


class CountVowels(Instruction):
    id, input_type, output_type = "count_vowels", "str", "int"
    text = "Count the vowels a, e, i, o and u of the string, lowercase or uppercase (y is not a vowel)."
    body = """    return sum(1 for c in x if c in "aeiouAEIOU")"""


class FirstCode(Instruction):
    id, input_type, output_type = "first_code", "str", "int"
    text = "Give the Unicode code point of the first character of the string; an empty string gives 0."
    body = """    return ord(x[0]) if x else 0"""


class DistinctCount(Instruction):
    id, input_type, output_type = "distinct_count", "str", "int"
    text = ("Count how many different characters the string has; uppercase and lowercase letters are "
            "different characters.")
    body = """    return len(set(x))"""


REGISTRY: dict[str, type[Instruction]] = {cls.id: cls for cls in Instruction.__subclasses__()}


def get(instruction_id: str, **args: Any) -> Instruction:
    """An instruction by id with its arguments; an unknown id is named with the pool's ids."""
    if instruction_id not in REGISTRY:
        raise ValueError(f"unknown instruction {instruction_id!r} (the pool: {', '.join(sorted(REGISTRY))})")
    return REGISTRY[instruction_id](**args)


def run_python(instruction: Instruction, value: Any) -> Any:
    """Run the instruction's own Python source in a fresh namespace: the trusted in-process reference
    that chain planning uses (gold comes from the same source run in the sandbox)."""
    namespace: dict[str, Any] = {}
    exec(compile(instruction.python("transform"), f"<instruction {instruction.id}>", "exec"), namespace)  # noqa: S102
    return namespace["transform"](value)
