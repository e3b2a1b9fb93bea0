"""The child side of the sandbox: runs one function on many inputs and streams one line per case.

Started by `sandbox.py` as `python -P -s -S this_file` in a fresh temporary directory with rlimits
already set. It reads one JSON request on stdin and writes one JSON line per case on the protocol
pipe (the original stdout); the function's own prints go to a capped sink, never to the protocol.
Standard library only: the child runs without site-packages.
"""

import io
import json
import os
import signal
import sys
import traceback


class CaseTimeout(BaseException):
    """Raised by SIGALRM; a BaseException so an `except Exception` in seed code cannot eat it."""


class _CappedSink(io.TextIOBase):
    """Swallows what the function prints, keeping at most `limit` characters."""

    def __init__(self, limit):
        self.limit, self.size = limit, 0

    def writable(self):
        return True

    def write(self, text):
        self.size += len(text)
        if self.size > self.limit:
            raise OSError("printed output exceeds the sandbox cap")
        return len(text)


def _type_name(value):
    """Name a value's type the way LogicIFEval's `output_format` does: `list[int]`, `tuple(int, str)`."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float, str)):
        return type(value).__name__
    if isinstance(value, tuple):
        return "tuple(" + ", ".join(_type_name(item) for item in value) + ")"
    if isinstance(value, list):
        names = []
        for item in value:
            name = _type_name(item)
            if name not in names:
                names.append(name)
        if not names:
            return "list"
        return "list[" + (names[0] if len(names) == 1 else "Union[" + ", ".join(names) + "]") + "]"
    if isinstance(value, dict):
        return "dict"
    return type(value).__name__


def _alarm(signum, frame):
    raise CaseTimeout()


def _classify(error):
    if isinstance(error, CaseTimeout):
        return "timeout", "the case ran past its time limit"
    if isinstance(error, MemoryError):
        return "memory", "MemoryError: the case ran out of its memory limit"
    if isinstance(error, RecursionError):
        return "exception", "RecursionError: " + str(error)
    if isinstance(error, SystemExit):
        return "exception", "SystemExit: the function called exit(" + repr(error.code) + ")"
    return "exception", type(error).__name__ + ": " + str(error)[:500]


def _check_shape(result, tracked):
    """For tracked functions, split `(output, {tracker: value})`; else return the result as is."""
    if not tracked:
        return result, None, None
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        return None, None, "expected (output, {tracker: value}), got " + type(result).__name__
    output, stats = result
    if not isinstance(stats, dict):
        return None, None, "the second part is a " + type(stats).__name__ + ", not a dict"
    if not stats or len(stats) > 3:
        return None, None, "expected 1 to 3 trackers, got " + str(len(stats))
    if not all(isinstance(key, str) for key in stats):
        return None, None, "tracker names must be strings"
    return output, stats, None


def main():
    request = json.loads(sys.stdin.read())
    protocol = os.fdopen(os.dup(1), "w", buffering=1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    sys.stdout = _CappedSink(request["print_limit"])
    sys.stdin = io.StringIO("")
    signal.signal(signal.SIGALRM, _alarm)

    def send(message):
        line = json.dumps(message, allow_nan=False)
        if len(line) > request["output_limit"]:
            line = json.dumps({"index": message["index"], "status": "too_large",
                               "error": "result is " + str(len(line)) + " bytes, over the cap"})
        protocol.write(line + "\n")
        protocol.flush()

    namespace = {"__name__": "__sandbox__", "__builtins__": __builtins__}
    try:
        signal.setitimer(signal.ITIMER_REAL, request["case_seconds"])
        exec(compile(request["code"], "<seed>", "exec"), namespace)
        signal.setitimer(signal.ITIMER_REAL, 0)
        function = namespace[request["entry"]]
    except BaseException as error:  # noqa: BLE001 - everything is reported, nothing escapes
        signal.setitimer(signal.ITIMER_REAL, 0)
        status, message = _classify(error)
        if isinstance(error, KeyError):
            status, message = "exception", "no function named " + request["entry"]
        for index in request["indices"]:
            send({"index": index, "status": status, "error": "while loading: " + message})
        return

    for index, args in zip(request["indices"], request["cases"]):
        try:
            signal.setitimer(signal.ITIMER_REAL, request["case_seconds"])
            result = function(*args)
            signal.setitimer(signal.ITIMER_REAL, 0)
        except BaseException as error:  # noqa: BLE001
            signal.setitimer(signal.ITIMER_REAL, 0)
            status, message = _classify(error)
            frames = traceback.extract_tb(error.__traceback__)
            seed_lines = [frame.lineno for frame in frames if frame.filename == "<seed>"]
            send({"index": index, "status": status, "error": message,
                  "line": seed_lines[-1] if seed_lines else None})
            continue
        output, stats, problem = _check_shape(result, request["tracked"])
        if problem:
            send({"index": index, "status": "bad_shape", "error": problem})
            continue
        try:
            encoded = json.loads(json.dumps({"output": output, "stats": stats}, allow_nan=False))
        except (TypeError, ValueError) as error:
            send({"index": index, "status": "not_json", "error": type(error).__name__ + ": " + str(error)[:300]})
            continue
        send({"index": index, "status": "ok", "output": encoded["output"], "stats": encoded["stats"],
              "output_type": _type_name(output)})


if __name__ == "__main__":
    main()
