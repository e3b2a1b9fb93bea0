"""PACIFIC's instruction pool: one small class per instruction, a registry from id to class.

Each instruction maps a whole number or a string to a whole number or a string. It says what it
does in English (`describe`), and shows it as one function of one argument in Python (`python`),
Java and C++ (`source`). The Python source is the reference: gold comes from running it in the
sandbox, and chain planning runs the same source in process (`run_python`). In Python every
instruction is total on its input type (negative, zero and huge numbers, empty and non-ASCII
strings). The Java and C++ versions use 64-bit integers and byte/UTF-16 strings, so they agree
with Python on the portable domain: whole numbers below 2**31 in size and printable ASCII text
(`portable`). Chains keep every value inside it, and `languages.py` runs all three to check.
`conflicts` names instructions that must not directly follow this one (they would undo it or
make the step trivial).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any, ClassVar, Literal

from ifforge.core.registry import Registry

ValueType = Literal["int", "str"]
Language = Literal["python", "java", "cpp"]
LANGUAGES: tuple[str, ...] = ("python", "java", "cpp")
PORTABLE_LIMIT = 2 ** 31  # whole numbers strictly inside (-2**31, 2**31) fit every language's arithmetic
JAVA_TYPES = {"int": "long", "str": "String"}
CPP_TYPES = {"int": "long long", "str": "std::string"}
CPP_HEADERS = (("std::sort", "algorithm"), ("std::reverse", "algorithm"), ("std::toupper", "cctype"),
               ("std::tolower", "cctype"), ("std::sqrt", "cmath"), ("std::size_t", "cstddef"), ("std::set", "set"),
               ("std::string", "string"), ("std::to_string", "string"), ("std::stoll", "string"))


def portable(value: Any) -> bool:
    """Whether Python, Java and C++ all compute the same on this value (see the module docstring)."""
    if isinstance(value, str):
        return all(" " <= c <= "~" for c in value)
    return not isinstance(value, bool) and isinstance(value, int) and -PORTABLE_LIMIT < value < PORTABLE_LIMIT


def _braced(words: tuple[str, ...]) -> str:
    """A Java/C++ array initialiser of string literals."""
    return "{" + ", ".join(json.dumps(word) for word in words) + "}"


class Instruction:
    id: ClassVar[str]
    input_type: ClassVar[ValueType]
    output_type: ClassVar[ValueType]
    conflicts: ClassVar[frozenset[str]] = frozenset()
    text: ClassVar[str]  # the English description, with {arg} slots
    body: ClassVar[str]  # the Python function body (indented 4), with {arg} slots; the argument is x
    java: ClassVar[str]  # the same as a Java method body (indented 4), argument x
    cpp: ClassVar[str]  # the same as a C++ function body (indented 4), argument x

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

    def _fill(self, template: str) -> str:
        """Put the arguments into their `{name}` slots, leaving every other brace alone (Java, C++)."""
        return re.sub(r"\{(\w+)\}", lambda m: str(self._args[m.group(1)]) if m.group(1) in self._args else m.group(0),
                      template).rstrip()

    def python(self, name: str = "transform") -> str:
        return f"def {name}(x):\n{self._fill(self.body)}\n"

    def source(self, language: str, name: str = "transform", headers: bool = True) -> str:
        """The function in `language`; C++ with the headers it needs unless `headers` is false."""
        if language == "python":
            return self.python(name)
        if language == "java":
            signature = f"static {JAVA_TYPES[self.output_type]} {name}({JAVA_TYPES[self.input_type]} x)"
            return f"{signature} {{\n{self._fill(self.java)}\n}}\n"
        if language == "cpp":
            argument = "const std::string&" if self.input_type == "str" else CPP_TYPES["int"]
            body = self._fill(self.cpp)
            function = f"{CPP_TYPES[self.output_type]} {name}({argument} x) {{\n{body}\n}}\n"
            if not headers:
                return function
            needed = sorted({header for marker, header in CPP_HEADERS if marker in function})
            return "".join(f"#include <{header}>\n" for header in needed) + ("\n" if needed else "") + function
        raise ValueError(f"unknown language {language!r} (one of {', '.join(LANGUAGES)})")

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
    java = """    long n = Math.floorMod(x, 1000000L) + 1;
    while (true) {
        boolean prime = n >= 2;
        for (long d = 2; prime && d * d <= n; d++) {
            if (n % d == 0) {
                prime = false;
            }
        }
        if (prime) {
            return n;
        }
        n++;
    }"""
    cpp = """    long long n = (x % 1000000 + 1000000) % 1000000 + 1;
    while (true) {
        bool prime = n >= 2;
        for (long long d = 2; prime && d * d <= n; d++) {
            if (n % d == 0) {
                prime = false;
            }
        }
        if (prime) {
            return n;
        }
        n++;
    }"""


class NextSquare(Instruction):
    id, input_type, output_type = "next_square", "int", "int"
    text = ("Replace the number with the smallest perfect square (0, 1, 4, 9, 16, ...) that is strictly greater "
            "than it. Any negative number becomes 0.")
    body = """    if x < 0:
        return 0
    import math
    root = math.isqrt(x) + 1
    return root * root"""
    java = """    if (x < 0) {
        return 0;
    }
    long root = (long) Math.sqrt((double) x);
    while (root * root > x) {
        root--;
    }
    while ((root + 1) * (root + 1) <= x) {
        root++;
    }
    return (root + 1) * (root + 1);"""
    cpp = """    if (x < 0) {
        return 0;
    }
    long long root = static_cast<long long>(std::sqrt(static_cast<double>(x)));
    while (root * root > x) {
        root--;
    }
    while ((root + 1) * (root + 1) <= x) {
        root++;
    }
    return (root + 1) * (root + 1);"""


class DigitsAtTwo(Instruction):
    id, input_type, output_type = "digits_at_two", "int", "int"
    text = ("Read the decimal digits of the number, ignoring any minus sign, as the coefficients of a polynomial "
            "from the highest power down to the constant term, and evaluate it at 2: start from 0 and for each "
            "digit from left to right double the running total and add the digit. The result is never negative.")
    body = """    total = 0
    for digit in str(abs(x)):
        total = total * 2 + int(digit)
    return total"""
    java = """    long total = 0;
    for (char digit : Long.toString(Math.abs(x)).toCharArray()) {
        total = total * 2 + (digit - '0');
    }
    return total;"""
    cpp = """    long long total = 0;
    for (char digit : std::to_string(x < 0 ? -x : x)) {
        total = total * 2 + (digit - '0');
    }
    return total;"""


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
    java = """    long n = Math.abs(x);
    int digits = Math.max(1, 64 - Long.numberOfLeadingZeros(n));
    int width = 1;
    while (width < digits) {
        width *= 2;
    }
    return n ^ ((1L << width) - 1);"""
    cpp = """    long long n = x < 0 ? -x : x;
    int digits = 1;
    while ((n >> digits) != 0) {
        digits++;
    }
    int width = 1;
    while (width < digits) {
        width *= 2;
    }
    return n ^ ((1LL << width) - 1);"""


class DigitSum(Instruction):
    id, input_type, output_type = "digit_sum", "int", "int"
    text = "Replace the number with the sum of its decimal digits, ignoring any minus sign (zero gives 0)."
    body = """    return sum(int(digit) for digit in str(abs(x)))"""
    java = """    long total = 0;
    for (char digit : Long.toString(Math.abs(x)).toCharArray()) {
        total += digit - '0';
    }
    return total;"""
    cpp = """    long long total = 0;
    for (char digit : std::to_string(x < 0 ? -x : x)) {
        total += digit - '0';
    }
    return total;"""


class ReverseDigits(Instruction):
    id, input_type, output_type = "reverse_digits", "int", "int"
    conflicts = frozenset({"reverse_digits"})
    text = ("Reverse the order of the decimal digits of the number, dropping leading zeros of the result, and "
            "keep its sign: a negative number stays negative.")
    body = """    digits = int(str(abs(x))[::-1])
    return -digits if x < 0 else digits"""
    java = """    String reversed = new StringBuilder(Long.toString(Math.abs(x))).reverse().toString();
    long digits = Long.parseLong(reversed);
    return x < 0 ? -digits : digits;"""
    cpp = """    std::string reversed = std::to_string(x < 0 ? -x : x);
    std::reverse(reversed.begin(), reversed.end());
    long long digits = std::stoll(reversed);
    return x < 0 ? -digits : digits;"""


class CollatzStep(Instruction):
    id, input_type, output_type = "collatz_step", "int", "int"
    text = ("If the number is even (zero and negative even numbers included), halve it; otherwise multiply it "
            "by 3 and add 1.")
    body = """    return x // 2 if x % 2 == 0 else 3 * x + 1"""
    java = """    return x % 2 == 0 ? x / 2 : 3 * x + 1;"""
    cpp = """    return x % 2 == 0 ? x / 2 : 3 * x + 1;"""


class CountOnes(Instruction):
    id, input_type, output_type = "count_ones", "int", "int"
    text = "Replace the number with how many 1 bits its absolute value has in binary (zero gives 0)."
    body = """    return bin(abs(x)).count("1")"""
    java = """    return Long.bitCount(Math.abs(x));"""
    cpp = """    long long n = x < 0 ? -x : x;
    long long count = 0;
    while (n != 0) {
        count += n & 1;
        n >>= 1;
    }
    return count;"""


class ModAdd(Instruction):
    id, input_type, output_type = "mod_add", "int", "int"
    text = ("Add {add} to the number, then take the remainder of dividing by {mod}; the remainder is always "
            "between 0 and {mod_less}, also for negative numbers (for example -1 gives {example}).")
    body = """    return (x + {add}) % {mod}"""
    java = """    return Math.floorMod(x + {add}, {mod}L);"""
    cpp = """    return ((x + {add}) % {mod} + {mod}) % {mod};"""

    @classmethod
    def sample_args(cls, rng: random.Random) -> dict[str, Any]:
        return {"add": rng.randint(1, 9), "mod": rng.choice([7, 11, 13, 17, 31, 64, 100])}

    def describe(self) -> str:
        add, mod = self._args["add"], self._args["mod"]
        return self.text.format(add=add, mod=mod, mod_less=mod - 1, example=(-1 + add) % mod)


# ---- number -> string ---------------------------------------------------------------------------
_CPP_IN_BASE = """    long long n = x < 0 ? -x : x;
    std::string digits;
    do {
        digits.insert(digits.begin(), DIGIT);
        n /= BASE;
    } while (n > 0);
    return (x < 0 ? "-" : "") + digits;"""


def _cpp_in_base(base: int, digit: str, before: str = "") -> str:
    """The C++ body that writes x in `base` with no leading zeros (zero is 0), a minus sign in front
    when negative: `digit` is the character of `n % base`, after the lines `before`."""
    return before + _CPP_IN_BASE.replace("DIGIT", digit).replace("BASE", str(base))


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
    java = """    String[] pairs = """ + _braced(DIGIT_PAIRS) + """;
    StringBuilder out = new StringBuilder();
    for (char digit : Long.toString(Math.abs(x)).toCharArray()) {
        out.append(pairs[digit - '0']);
    }
    return out.toString();"""
    cpp = """    const std::string pairs[] = """ + _braced(DIGIT_PAIRS) + """;
    std::string out;
    for (char digit : std::to_string(x < 0 ? -x : x)) {
        out += pairs[digit - '0'];
    }
    return out;"""


class WordAt(Instruction):
    id, input_type, output_type = "word_at", "int", "str"
    text = (f"Take the word at position (the number modulo {len(WORDS)}) in this list, counting from 0: "
            f"{', '.join(WORDS)}. The remainder of a negative number is taken so that it is between 0 and "
            f"{len(WORDS) - 1} (for example -1 picks the last word).")
    body = f"""    words = {WORDS!r}
    return words[x % len(words)]"""
    java = """    String[] words = """ + _braced(WORDS) + """;
    return words[(int) Math.floorMod(x, (long) words.length)];"""
    cpp = """    const std::string words[] = """ + _braced(WORDS) + """;
    const long long count = """ + str(len(WORDS)) + """;
    return words[(x % count + count) % count];"""


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
    java = """    long n = Math.floorMod(x, 10000L);
    if (n == 0) {
        return "N";
    }
    long[] values = {1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1};
    String[] letters = {"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"};
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < values.length; i++) {
        while (n >= values[i]) {
            out.append(letters[i]);
            n -= values[i];
        }
    }
    return out.toString();"""
    cpp = """    long long n = (x % 10000 + 10000) % 10000;
    if (n == 0) {
        return "N";
    }
    const long long values[] = {1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1};
    const std::string letters[] = {"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"};
    std::string out;
    for (int i = 0; i < 13; i++) {
        while (n >= values[i]) {
            out += letters[i];
            n -= values[i];
        }
    }
    return out;"""


class Weekday(Instruction):
    id, input_type, output_type = "weekday", "int", "str"
    text = ("Take the remainder of the number divided by 7 (between 0 and 6, also for negative numbers) and "
            "give the English name of that weekday, with Sunday as 0, Monday as 1, and so on to Saturday as 6.")
    body = f"""    days = {WEEKDAYS!r}
    return days[x % 7]"""
    java = """    String[] days = """ + _braced(WEEKDAYS) + """;
    return days[(int) Math.floorMod(x, 7L)];"""
    cpp = """    const std::string days[] = """ + _braced(WEEKDAYS) + """;
    return days[(x % 7 + 7) % 7];"""


class Binary(Instruction):
    id, input_type, output_type = "binary", "int", "str"
    text = ("Write the number in binary digits with no prefix and no leading zeros (zero is 0), with a minus "
            "sign in front when the number is negative.")
    body = """    return ("-" if x < 0 else "") + format(abs(x), "b")"""
    java = """    return (x < 0 ? "-" : "") + Long.toBinaryString(Math.abs(x));"""
    cpp = _cpp_in_base(2, "static_cast<char>('0' + n % 2)")


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
    java = """    return (x < 0 ? "-" : "") + Long.toString(Math.abs(x), 3);"""
    cpp = _cpp_in_base(3, "static_cast<char>('0' + n % 3)")


class Hex(Instruction):
    id, input_type, output_type = "hex", "int", "str"
    text = ("Write the number in hexadecimal with lowercase letters a to f, no prefix and no leading zeros "
            "(zero is 0), with a minus sign in front when the number is negative.")
    body = """    return ("-" if x < 0 else "") + format(abs(x), "x")"""
    java = """    return (x < 0 ? "-" : "") + Long.toHexString(Math.abs(x));"""
    cpp = _cpp_in_base(16, "hex_digits[n % 16]", '    const std::string hex_digits = "0123456789abcdef";\n')


# ---- string -> string ---------------------------------------------------------------------------
_BY_CASE = {  # each English lowercase letter to LOWER, each uppercase one to UPPER, any other kept
    "python": """    out = []
    for c in x:
        if "a" <= c <= "z":
            out.append(chr(LOWER))
        elif "A" <= c <= "Z":
            out.append(chr(UPPER))
        else:
            out.append(c)
    return "".join(out)""",
    "java": """    StringBuilder out = new StringBuilder();
    for (char c : x.toCharArray()) {
        if (c >= 'a' && c <= 'z') {
            out.append((char) (LOWER));
        } else if (c >= 'A' && c <= 'Z') {
            out.append((char) (UPPER));
        } else {
            out.append(c);
        }
    }
    return out.toString();""",
    "cpp": """    std::string out;
    for (char c : x) {
        if (c >= 'a' && c <= 'z') {
            out += static_cast<char>(LOWER);
        } else if (c >= 'A' && c <= 'Z') {
            out += static_cast<char>(UPPER);
        } else {
            out += c;
        }
    }
    return out;""",
}


def _by_case(lower: str, upper: str, lower_c: str, upper_c: str) -> tuple[str, str, str]:
    """The Python, Java and C++ bodies of an instruction that maps English letters by their case:
    `lower` and `upper` are Python expressions of `ord(c)`, `lower_c` and `upper_c` the same in the
    character arithmetic Java and C++ share."""
    def filled(language: str, low: str, up: str) -> str:
        return _BY_CASE[language].replace("LOWER", low).replace("UPPER", up)

    return filled("python", lower, upper), filled("java", lower_c, upper_c), filled("cpp", lower_c, upper_c)


class AlternateCapsReverse(Instruction):
    id, input_type, output_type = "alternate_caps_reverse", "str", "str"
    text = ("Make the characters at even positions (counting from 0) uppercase and those at odd positions "
            "lowercase, counting every character including spaces and punctuation, then reverse the whole "
            "string. Characters without case stay as they are.")
    body = """    mixed = "".join(c.upper() if i % 2 == 0 else c.lower() for i, c in enumerate(x))
    return mixed[::-1]"""
    java = """    StringBuilder mixed = new StringBuilder();
    for (int i = 0; i < x.length(); i++) {
        char c = x.charAt(i);
        mixed.append(i % 2 == 0 ? Character.toUpperCase(c) : Character.toLowerCase(c));
    }
    return mixed.reverse().toString();"""
    cpp = """    std::string mixed;
    for (std::size_t i = 0; i < x.size(); i++) {
        unsigned char c = static_cast<unsigned char>(x[i]);
        mixed += static_cast<char>(i % 2 == 0 ? std::toupper(c) : std::tolower(c));
    }
    std::reverse(mixed.begin(), mixed.end());
    return mixed;"""


class SortCharacters(Instruction):
    id, input_type, output_type = "sort_characters", "str", "str"
    conflicts = frozenset({"sort_characters"})
    # Every printable ASCII character (the portable domain) in its place: the marks sit in four runs
    # around the digits and letters, so "punctuation before digits" would be wrong for @ [ _ { | } ~.
    # Braces are doubled for str.format.
    text = ("Sort all the characters of the string by their Unicode code point, smallest first, keeping "
            "repeats; for printable ASCII characters that order is: the space then the marks "
            "! \" # $ % & ' ( ) * + , - . / then the digits 0 to 9 then the marks : ; < = > ? @ then the "
            "uppercase letters A to Z then the marks [ \\ ] ^ _ ` then the lowercase letters a to z then the "
            "marks {{ | }} ~ at the end.")
    body = """    return "".join(sorted(x))"""
    java = """    char[] chars = x.toCharArray();
    java.util.Arrays.sort(chars);
    return new String(chars);"""
    cpp = """    std::string out = x;
    std::sort(out.begin(), out.end());
    return out;"""


class ShiftBackOne(Instruction):
    id, input_type, output_type = "shift_back_one", "str", "str"
    text = ("Replace every English letter by the letter before it in the alphabet, wrapping around so that a "
            "becomes z and A becomes Z; keep the case, and leave every other character unchanged.")
    body, java, cpp = _by_case("(ord(c) - 97 - 1) % 26 + 97", "(ord(c) - 65 - 1) % 26 + 65",
                               "(c - 'a' + 25) % 26 + 'a'", "(c - 'A' + 25) % 26 + 'A'")


class Caesar(Instruction):
    id, input_type, output_type = "caesar", "str", "str"
    text = ("Shift every English letter {key} places forward in the alphabet, wrapping around from z to a and "
            "from Z to A; keep the case, and leave every other character unchanged.")
    body, java, cpp = _by_case("(ord(c) - 97 + {key}) % 26 + 97", "(ord(c) - 65 + {key}) % 26 + 65",
                               "(c - 'a' + {key}) % 26 + 'a'", "(c - 'A' + {key}) % 26 + 'A'")

    @classmethod
    def sample_args(cls, rng: random.Random) -> dict[str, Any]:
        return {"key": rng.randint(2, 25)}


class VowelsToGh(Instruction):
    id, input_type, output_type = "vowels_to_gh", "str", "str"
    text = ("Replace every vowel (a, e, i, o, u, in lowercase or uppercase; y is not a vowel) by the two "
            "lowercase letters gh, and keep every other character.")
    body = """    return "".join("gh" if c in "aeiouAEIOU" else c for c in x)"""
    java = """    StringBuilder out = new StringBuilder();
    for (char c : x.toCharArray()) {
        if ("aeiouAEIOU".indexOf(c) >= 0) {
            out.append("gh");
        } else {
            out.append(c);
        }
    }
    return out.toString();"""
    cpp = """    const std::string vowels = "aeiouAEIOU";
    std::string out;
    for (char c : x) {
        if (vowels.find(c) != std::string::npos) {
            out += "gh";
        } else {
            out += c;
        }
    }
    return out;"""


class MovePrefix(Instruction):
    id, input_type, output_type = "move_prefix", "str", "str"
    text = ("Find the longest beginning of the string whose characters never decrease in Unicode code point "
            "from one to the next (it has at least one character when the string is not empty), and move that "
            "beginning to the end of the string. An empty string stays empty.")
    body = """    end = 1
    while end < len(x) and x[end - 1] <= x[end]:
        end += 1
    return x[end:] + x[:end]"""
    java = """    if (x.isEmpty()) {
        return x;
    }
    int end = 1;
    while (end < x.length() && x.charAt(end - 1) <= x.charAt(end)) {
        end++;
    }
    return x.substring(end) + x.substring(0, end);"""
    cpp = """    if (x.empty()) {
        return x;
    }
    std::size_t end = 1;
    while (end < x.size() && x[end - 1] <= x[end]) {
        end++;
    }
    return x.substr(end) + x.substr(0, end);"""


class SwapCase(Instruction):
    id, input_type, output_type = "swap_case", "str", "str"
    conflicts = frozenset({"swap_case"})
    text = ("Make every English uppercase letter (A to Z) lowercase and every English lowercase letter (a to z) "
            "uppercase; leave every other character unchanged.")
    body, java, cpp = _by_case("ord(c) - 32", "ord(c) + 32", "c - 32", "c + 32")


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
    java = """    java.util.Set<Character> seen = new java.util.HashSet<>();
    StringBuilder out = new StringBuilder();
    for (char c : x.toCharArray()) {
        if (seen.add(c)) {
            out.append(c);
        }
    }
    return out.toString();"""
    cpp = """    std::set<char> seen;
    std::string out;
    for (char c : x) {
        if (seen.insert(c).second) {
            out += c;
        }
    }
    return out;"""


class RotateLeft(Instruction):
    id, input_type, output_type = "rotate_left", "str", "str"
    text = ("Move the first {k} characters of the string to its end, one at a time, keeping their order (for a "
            "string shorter than {k} the moves wrap around, so only the remainder of {k} divided by the length "
            "counts). An empty string stays empty.")
    body = """    if not x:
        return x
    k = {k} % len(x)
    return x[k:] + x[:k]"""
    java = """    if (x.isEmpty()) {
        return x;
    }
    int k = {k} % x.length();
    return x.substring(k) + x.substring(0, k);"""
    cpp = """    if (x.empty()) {
        return x;
    }
    std::size_t k = {k} % x.size();
    return x.substr(k) + x.substr(0, k);"""

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
    java = """    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < x.length()) {
        int j = i;
        while (j < x.length() && x.charAt(j) == x.charAt(i)) {
            j++;
        }
        out.append(j - i).append(x.charAt(i));
        i = j;
    }
    return out.toString();"""
    cpp = """    std::string out;
    std::size_t i = 0;
    while (i < x.size()) {
        std::size_t j = i;
        while (j < x.size() && x[j] == x[i]) {
            j++;
        }
        out += std::to_string(j - i);
        out += x[i];
        i = j;
    }
    return out;"""


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
    java = """    long total = 0;
    for (char c : x.toCharArray()) {
        if (c >= 'a' && c <= 'z') {
            total += c - 'a' + 1;
        } else if (c >= 'A' && c <= 'Z') {
            total += c - 'A' + 1;
        }
    }
    return total;"""
    cpp = """    long long total = 0;
    for (char c : x) {
        if (c >= 'a' && c <= 'z') {
            total += c - 'a' + 1;
        } else if (c >= 'A' && c <= 'Z') {
            total += c - 'A' + 1;
        }
    }
    return total;"""


class CodeSum(Instruction):
    id, input_type, output_type = "code_sum", "str", "int"
    text = "Add up the Unicode code points of all the characters of the string (an empty string gives 0)."
    body = """    return sum(ord(c) for c in x)"""
    java = """    long total = 0;
    for (char c : x.toCharArray()) {
        total += c;
    }
    return total;"""
    cpp = """    long long total = 0;
    for (char c : x) {
        total += static_cast<unsigned char>(c);
    }
    return total;"""


class Length(Instruction):
    id, input_type, output_type = "length", "str", "int"
    text = "Replace the string by the number of characters it has, spaces and punctuation included."
    body = """    return len(x)"""
    java = """    return x.length();"""
    cpp = """    return static_cast<long long>(x.size());"""


class CountVowels(Instruction):
    id, input_type, output_type = "count_vowels", "str", "int"
    text = "Count the vowels a, e, i, o and u of the string, lowercase or uppercase (y is not a vowel)."
    body = """    return sum(1 for c in x if c in "aeiouAEIOU")"""
    java = """    long count = 0;
    for (char c : x.toCharArray()) {
        if ("aeiouAEIOU".indexOf(c) >= 0) {
            count++;
        }
    }
    return count;"""
    cpp = """    const std::string vowels = "aeiouAEIOU";
    long long count = 0;
    for (char c : x) {
        if (vowels.find(c) != std::string::npos) {
            count++;
        }
    }
    return count;"""


class FirstCode(Instruction):
    id, input_type, output_type = "first_code", "str", "int"
    text = "Give the Unicode code point of the first character of the string; an empty string gives 0."
    body = """    return ord(x[0]) if x else 0"""
    java = """    return x.isEmpty() ? 0 : x.charAt(0);"""
    cpp = """    return x.empty() ? 0 : static_cast<unsigned char>(x[0]);"""


class DistinctCount(Instruction):
    id, input_type, output_type = "distinct_count", "str", "int"
    text = ("Count how many different characters the string has; uppercase and lowercase letters are "
            "different characters.")
    body = """    return len(set(x))"""
    java = """    java.util.Set<Character> seen = new java.util.HashSet<>();
    for (char c : x.toCharArray()) {
        seen.add(c);
    }
    return seen.size();"""
    cpp = """    std::set<char> seen(x.begin(), x.end());
    return static_cast<long long>(seen.size());"""


REGISTRY: Registry[type[Instruction]] = Registry("instruction", sorted((
    NextPrime, NextSquare, DigitsAtTwo, InvertBits, DigitSum, ReverseDigits, CollatzStep, CountOnes, ModAdd,
    DigitsToPairs, WordAt, Roman, Weekday, Binary, Base3, Hex, AlternateCapsReverse, SortCharacters, ShiftBackOne,
    Caesar, VowelsToGh, MovePrefix, SwapCase, DedupeCharacters, RotateLeft, RunLength, AlphabetSum, CodeSum,
    Length, CountVowels, FirstCode, DistinctCount), key=lambda cls: cls.id))


def get(instruction_id: str, **args: Any) -> Instruction:
    """An instruction by id with its arguments (an unknown id is named with the pool's ids)."""
    return REGISTRY[instruction_id](**args)


def run_python(instruction: Instruction, value: Any) -> Any:
    """Run the instruction's own Python source in a fresh namespace: the trusted in-process reference
    that chain planning uses (gold comes from the same source run in the sandbox)."""
    namespace: dict[str, Any] = {}
    exec(compile(instruction.python("transform"), f"<instruction {instruction.id}>", "exec"), namespace)  # noqa: S102
    return namespace["transform"](value)
