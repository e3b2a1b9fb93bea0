"""Run the pool's Java and C++ versions, to check that they agree with the Python reference.

The pool is this project's own code (never seed or model code), so it runs as a plain subprocess
in a temporary directory: one program per call, every distinct instruction in it as one function,
compiled once. Values cross the pipe one per line: a number in decimal, a string as the hex of its
bytes (the portable domain is printable ASCII), so no quoting rule can differ between languages.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from ifforge.families.pacific.instructions import Instruction

TOOLS = {"java": ("javac", "java"), "cpp": ("g++",)}


class PortError(RuntimeError):
    """A toolchain is missing, or the program did not compile or run."""


def missing_tools(language: str) -> list[str]:
    return [tool for tool in TOOLS[language] if shutil.which(tool) is None]


def run(language: str, calls: list[tuple[Instruction, Any]], timeout: float = 300.0) -> list[Any]:
    """Each instruction's `language` version applied to its value. A call that raised gives a
    `PortError` instance in its place (so one bad value does not hide the others)."""
    missing = missing_tools(language)
    if missing:
        raise PortError(f"{language}: {', '.join(missing)} not found on PATH (install a JDK for java, g++ for cpp)")
    functions: dict[str, tuple[int, Instruction]] = {}
    lines = []
    for instruction, value in calls:
        key = json.dumps([instruction.id, instruction.args()], sort_keys=True)
        index = functions.setdefault(key, (len(functions), instruction))[0]
        payload = value.encode("ascii").hex() if isinstance(value, str) else str(value)
        lines.append(f"{index} {payload}")
    program = [instruction for _, instruction in sorted(functions.values(), key=lambda pair: pair[0])]
    with tempfile.TemporaryDirectory(prefix=f"ifforge-{language}-") as folder:
        command = _build(language, program, Path(folder), timeout)
        try:
            done = subprocess.run(command, input="\n".join(lines) + "\n", capture_output=True, text=True,
                                  timeout=timeout, cwd=folder)
        except subprocess.TimeoutExpired as exc:
            raise PortError(f"{language}: the check program ran past {timeout:.0f} s") from exc
    if done.returncode != 0:
        raise PortError(f"{language}: the check program exited {done.returncode}: {done.stderr.strip()[-2000:]}")
    answers = done.stdout.split("\n")[:len(calls)]
    if len(answers) != len(calls):
        raise PortError(f"{language}: {len(calls)} values sent, {len(answers)} answers read")
    return [_decode(answer) for answer in answers]


def _decode(answer: str) -> Any:
    kind, _, payload = answer.partition(" ")
    if kind == "i":
        return int(payload)
    if kind == "s":
        return bytes.fromhex(payload).decode("ascii")
    return PortError(payload or answer)


def _build(language: str, program: list[Instruction], folder: Path, timeout: float) -> list[str]:
    if language == "java":
        (folder / "PoolCheck.java").write_text(_java(program))
        _compile(["javac", "PoolCheck.java"], folder, timeout, language)
        return ["java", "-Xss64m", "-cp", str(folder), "PoolCheck"]
    (folder / "pool_check.cpp").write_text(_cpp(program))
    _compile(["g++", "-std=c++17", "-O1", "-o", "pool_check", "pool_check.cpp"], folder, timeout, language)
    return [str(folder / "pool_check")]


def _compile(command: list[str], folder: Path, timeout: float, language: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=folder)
    if done.returncode != 0:
        raise PortError(f"{language}: the pool does not compile: {done.stderr.strip()[-3000:]}")


def _java(program: list[Instruction]) -> str:
    functions = "\n".join(_indent(instruction.source("java", f"f{i}")) for i, instruction in enumerate(program))
    cases = "\n".join(
        f"                    case {i}: result = \"{_tag(ins)} \" + {_java_out(ins, f'f{i}({_java_in(ins)})')}; break;"
        for i, ins in enumerate(program))
    return f"""public class PoolCheck {{
{functions}
    static String hex(String s) {{
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {{
            b.append(String.format("%02x", (int) c));
        }}
        return b.toString();
    }}

    static String unhex(String h) {{
        StringBuilder b = new StringBuilder();
        for (int i = 0; i + 1 < h.length(); i += 2) {{
            b.append((char) Integer.parseInt(h.substring(i, i + 2), 16));
        }}
        return b.toString();
    }}

    public static void main(String[] args) throws Exception {{
        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null && !line.isEmpty()) {{
            String[] parts = line.split(" ", -1);
            String value = parts[1];
            String result = "e unknown function";
            try {{
                switch (Integer.parseInt(parts[0])) {{
{cases}
                }}
            }} catch (RuntimeException e) {{
                result = "e " + e.toString().replace('\\n', ' ');
            }}
            out.append(result).append('\\n');
        }}
        System.out.print(out);
    }}
}}
"""


def _cpp(program: list[Instruction]) -> str:
    functions = "\n".join(instruction.source("cpp", f"f{i}", headers=False) for i, instruction in enumerate(program))
    cases = "\n".join(
        f"                case {i}: result = \"{_tag(ins)} \" + {_cpp_out(ins, f'f{i}({_cpp_in(ins)})')}; break;"
        for i, ins in enumerate(program))
    return f"""#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <iostream>
#include <set>
#include <stdexcept>
#include <string>

{functions}
static std::string hex(const std::string& s) {{
    const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : s) {{
        out += digits[c >> 4];
        out += digits[c & 15];
    }}
    return out;
}}

static std::string unhex(const std::string& h) {{
    std::string out;
    for (std::size_t i = 0; i + 1 < h.size(); i += 2) {{
        out += static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16));
    }}
    return out;
}}

int main() {{
    std::string line;
    while (std::getline(std::cin, line) && !line.empty()) {{
        std::size_t space = line.find(' ');
        int index = std::stoi(line.substr(0, space));
        std::string value = line.substr(space + 1);
        std::string result = "e unknown function";
        try {{
            switch (index) {{
{cases}
            }}
        }} catch (const std::exception& e) {{
            result = std::string("e ") + e.what();
        }}
        std::cout << result << '\\n';
    }}
    return 0;
}}
"""


def _tag(instruction: Instruction) -> str:
    return "s" if instruction.output_type == "str" else "i"


def _java_in(instruction: Instruction) -> str:
    return "unhex(value)" if instruction.input_type == "str" else "Long.parseLong(value)"


def _java_out(instruction: Instruction, call: str) -> str:
    return f"hex({call})" if instruction.output_type == "str" else call


def _cpp_in(instruction: Instruction) -> str:
    return "unhex(value)" if instruction.input_type == "str" else "std::stoll(value)"


def _cpp_out(instruction: Instruction, call: str) -> str:
    return f"hex({call})" if instruction.output_type == "str" else f"std::to_string({call})"


def _indent(text: str) -> str:
    return "".join(f"    {line}" if line.strip() else line for line in text.splitlines(keepends=True))
