"""Scores (prompt, reply) pairs with LIFBench's own EvaluateFunc.py, in the original's environment.

Usage (with the Python of a venv made for the original, 3.10 as its repository's bytecode):
    python benchmarks/lifbench_original.py ORIGINALS_DIR PAIRS.jsonl OUT.jsonl

Standard library only, so that it runs where the original does. Each input line is
`{"task": "multidoc-find_dup_text", "item": {prompt, param, label}, "outputs": [reply, ...]}`;
each output line holds, per reply, `{"score": {...}}`, `{"raised": "TypeError: ..."}` (the
original's evaluation stops there) or `{"timeout": true}`, and `"blocked"` when the reply made
the original try something this guard forbids.

Faithful where it matters:
- the judge is called as deep in the stack as the original's `Evaluator.py` run through Fire
  calls it, so Python's recursion limit stops `json.loads` at the same nesting (calibrated at
  start against batch_label: 991 levels, measured with the original's own scripts);
- each pair gets a fresh copy of the module, so a reply that changes its globals through
  `eval` cannot change the next pair's verdict.
The original `eval`s find_dup replies: an audit hook refuses processes, sockets, writes and file
changes, and each pair has a time limit. Give it only candidate files you would run anyway.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import resource
import signal
import sys
import warnings
from pathlib import Path

JUDGES = {"list-single_query_id": "judge_label_equal_output", "list-multi_query_id": "judge_labels_equal_outputs",
          "list-offset_query_id": "judge_label_equal_output", "list-offset_query_element": "judge_label_equal_output",
          "list-blur_offset_query_id": "judge_list_input_blur_offset_query",
          "list-blur_offset_query_element": "judge_list_input_blur_offset_query",
          "multidoc-batch_label": "judge_multidoc_batch_label", "multidoc-find_dup_text": "judge_multidoc_find_dup_text",
          "onedoc-repeat": "judge_onedoc_repeat", "onedoc-qa": "judge_onedoc_qa", "onedoc-extract": "judge_onedoc_extract"}
ORIGINAL_JSON_DEPTH = 991  # measured: Evaluator.py through Fire, Python 3.10
FORBIDDEN = ("os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "subprocess.Popen",
             "socket.", "os.remove", "os.rmdir", "os.rename", "os.mkdir", "os.chmod", "os.chown", "os.kill",
             "os.truncate", "os.link", "os.symlink", "os.utime", "os.putenv", "os.unsetenv", "shutil.", "ctypes.",
             "os.chdir", "sys.setrecursionlimit", "resource.setrlimit", "signal.")


class Timeout(BaseException):
    """Not an Exception, so the original's `except Exception` cannot swallow it."""


class Module:
    """EvaluateFunc.py, loaded afresh for every pair from one compiled copy."""

    def __init__(self, originals: Path):
        path = originals / "evaluation" / "EvaluateFunc.py"
        self.spec = importlib.util.spec_from_file_location("EvaluateFunc", path)
        self.code = compile(path.read_text(encoding="utf-8"), str(path), "exec")

    def fresh(self):
        module = importlib.util.module_from_spec(self.spec)
        exec(self.code, module.__dict__)
        return module


def at_depth(frames: int, function, argument):
    """function(argument) called `frames` Python frames deeper than here."""
    if frames <= 0:
        return function(argument)
    return at_depth(frames - 1, function, argument)


def probe(depth: int) -> dict:
    """A batch_label item whose reply nests `depth` deep: json.loads reads it (format points) or
    gives up with a RecursionError, which the judge's bare `except:` swallows (no format points)."""
    return {"prompt": "p", "label": 1, "output": "[" * depth + "]" * depth,
            "param": {"candidates": ["a", "b", "c", "d"], "rule_key": "abcd", "doc_keys": [["title", "source"]]}}


def guard(state: dict) -> None:
    def hook(event: str, args) -> None:
        if not state["on"]:
            return
        flags = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
        writing = event == "open" and ((isinstance(args[1], str) and any(c in args[1] for c in "wax+"))
                                       or (isinstance(args[2], int) and args[2] & flags))
        if writing or event.startswith(FORBIDDEN):
            state["blocked"].append(event)
            raise PermissionError(f"refused while scoring: {event}")
    sys.addaudithook(hook)


def main() -> None:
    originals, pairs, out = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    seconds = float(os.environ.get("LIFBENCH_ORIGINAL_TIMEOUT", "20"))
    module = Module(originals)
    judge = module.fresh().judge_multidoc_batch_label
    # calibration, called from this very frame as the pairs are below: the first depth that fails
    low, high = 10, 5000
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if at_depth(0, judge, probe(middle))["format"] == 0 else (middle, high)
    pad = high - ORIGINAL_JSON_DEPTH
    below = at_depth(pad, judge, probe(ORIGINAL_JSON_DEPTH - 1))["format"] == 0  # no comprehension: a frame
    at = at_depth(pad, judge, probe(ORIGINAL_JSON_DEPTH))["format"] == 0
    if pad < 0 or below or not at:
        sys.exit(f"cannot call the judges as deep as the original's Evaluator does (pad {pad})")
    lines = pairs.read_text(encoding="utf-8").splitlines()
    sink = out.open("w", encoding="utf-8")
    sys.stdout = open(os.devnull, "w")  # what replies print through the original's eval
    warnings.simplefilter("ignore")  # its eval's SyntaxWarnings ("is" with a literal): noise, not verdicts
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (min(4 << 30, hard) if hard > 0 else 4 << 30, hard))
    state = {"on": False, "blocked": []}
    guard(state)

    def alarm(signum, frame):
        state["timed_out"] = True  # kept even where a bare `except:` swallows the Timeout
        raise Timeout()
    signal.signal(signal.SIGALRM, alarm)
    for line in lines:
        pair = json.loads(line)
        judge_name = JUDGES[pair["task"]]
        verdicts = []
        for output in pair["outputs"]:
            judge = getattr(module.fresh(), judge_name)
            item = copy.deepcopy({**pair["item"], "output": output})
            state["blocked"], state["timed_out"], timed_out = [], False, False
            state["on"] = True
            signal.setitimer(signal.ITIMER_REAL, seconds)
            try:
                verdict = {"score": at_depth(pad, judge, item)}
            except Timeout:
                timed_out = True
            except BaseException as error:  # the original's run stops here: reported, not hidden
                verdict = {"raised": f"{type(error).__name__}: {str(error)[:200]}"}
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                state["on"] = False
            if timed_out or state["timed_out"]:
                verdict = {"timeout": True}
            if state["blocked"]:
                verdict["blocked"] = sorted(set(state["blocked"]))
            verdicts.append(verdict)
        sink.write(json.dumps(verdicts) + "\n")
        sink.flush()
    sink.close()


if __name__ == "__main__":
    main()
