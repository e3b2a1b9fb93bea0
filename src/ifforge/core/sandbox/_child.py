"""The child side of the sandbox: a warm process that forks a runner per function.

Started by `execution.py` as `python -P -s -S` (behind bubblewrap where the machine has it) and kept
for many functions. It reads one JSON request per line on stdin (the cases of one function),
compiles the seed and forks a runner, which has no way to the protocol pipe (closed in it; this
process is not dumpable, so /proc cannot hand it back). The runner runs each case as if it were
alone: the seed module is executed again into a fresh namespace (fresh globals and default
arguments), with fresh builtins, random and decimal state, recursion limit, environment, working
directory and CPU allowance, and sends one JSON line per case; a request for cases `alone` gets a
runner per case, so nothing one case did reaches another. Under the policy (`MODULES` and the
lists beside it; `codepolicy.py` reads the source against them first) a case gets builtins without
files, `eval` or the namespaces, attribute functions that refuse hidden names, and `import` of
allowed modules only, each seen through a module of its public names. Its value is read through
the base types into plain JSON data (`plain`), so no method it overrides changes the gold. A case
that leaves a thread, a process or a file behind ends its runner: this process kills what the case
started, empties the case's folders, only then reports the case (so a result read means nothing of
its case still runs), and forks a new runner for the cases left; so does a case that dies or hangs,
which is reported as that case's failure. This process checks every line and writes one per case on the
protocol pipe (the original stdout), in case order. It never runs seed code. Standard library only:
the child runs without site-packages.
"""

import ast
import ctypes
import importlib
import io
import json
import os
import resource
import select
import shutil
import signal
import sys
import tempfile
import time
import traceback

# standard modules seed code often imports: when the seed names one, it is loaded once here, so
# each case's fork finds it warm (only these: importing runs a module's code in this process)
WARM = {"bisect", "collections", "copy", "datetime", "decimal", "fractions", "functools", "heapq", "itertools",
        "math", "operator", "random", "re", "statistics", "string", "typing", "dataclasses", "enum",
        "unicodedata", "posixpath"}

STATUSES = {"ok", "timeout", "memory", "exception", "bad_shape", "not_json", "too_large", "crash"}
TAINTED = []  # what a case left that we could not remove: this child ends after its request
GRACE = 0.5  # seconds past the case's alarm before the case process is killed from outside
SWEEP_SECONDS = 5.0  # at most this long to see every process a case left die

# The policy for benchmark code (checked before it runs by `codepolicy.py`, enforced here while it
# runs): gold must be what the function returns on its input anywhere, any day, so the code may use
# only standard modules that compute, never ones that reach the host (files, clock, processes, the
# interpreter and its version). Per allowed module, the names it may not use: each reads entropy,
# evaluates text as code, looks up attributes by a name made at run time, or tells which Python
# (or which build of it) runs the code.
MODULES = {
    "__future__": set(), "abc": set(), "bisect": set(), "cmath": set(), "collections": set(),
    "collections.abc": set(), "copy": set(), "dataclasses": set(), "datetime": set(),
    "decimal": {"HAVE_THREADS", "HAVE_CONTEXTVAR"},
    "enum": set(), "fractions": set(), "functools": {"singledispatch", "singledispatchmethod"},
    "heapq": set(), "itertools": set(), "json": set(), "math": set(), "numbers": set(),
    "operator": {"attrgetter", "methodcaller"}, "random": {"SystemRandom"}, "re": set(),
    "statistics": set(), "string": {"Formatter"}, "textwrap": set(),
    "typing": {"get_type_hints", "ForwardRef"}, "sys": set(),
    # pure text and byte functions real library code leans on
    "binascii": set(), "unicodedata": {"unidata_version"}, "ipaddress": set(), "urllib": set(),
    "urllib.parse": {"clear_cache"}, "os": set(), "os.path": set(), "posixpath": set(), "types": set(),
}
# the path functions that compute on the string alone: none reads the file system, cwd or environment
PURE_PATH = {"join", "split", "splitext", "splitdrive", "basename", "dirname", "normpath", "normcase",
             "commonprefix", "commonpath", "isabs", "sep", "altsep", "curdir", "pardir", "extsep", "pathsep"}
# modules of which code gets only these names (LogicIF's functions call `sys.setrecursionlimit`; the
# three numbers are the same on every 64-bit CPython 3, unlike `int_info`, `version` and the like)
ONLY = {"sys": {"setrecursionlimit", "getrecursionlimit", "maxsize", "maxunicode", "float_info"},
        "os": {"fspath", "path", "sep", "altsep", "curdir", "pardir", "extsep", "pathsep"},
        "os.path": PURE_PATH, "posixpath": PURE_PATH, "urllib": {"parse"},
        # the types that classify or wrap values; none builds code, a function, a class or a module
        "types": {"NoneType", "EllipsisType", "NotImplementedType", "GeneratorType", "MappingProxyType",
                  "SimpleNamespace", "GenericAlias", "UnionType", "BuiltinFunctionType", "FunctionType",
                  "LambdaType", "MethodType"}}
# dunder names code may use: protocol methods it defines or calls; none leads to globals, frames,
# classes' insides or the interpreter (`__globals__`, `__subclasses__`, `__dict__`, ...)
SAFE_DUNDERS = {
    "__name__", "__qualname__", "__doc__", "__class__", "__module__", "__init__", "__new__", "__post_init__",
    "__slots__", "__repr__", "__str__", "__format__", "__bool__", "__len__", "__iter__", "__next__",
    "__reversed__", "__contains__", "__getitem__", "__setitem__", "__delitem__", "__missing__", "__call__",
    "__enter__", "__exit__", "__hash__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__",
    "__index__", "__int__", "__float__", "__round__", "__neg__", "__pos__", "__abs__", "__invert__",
    "__copy__", "__deepcopy__", "__add__", "__sub__", "__mul__", "__matmul__", "__truediv__",
    "__floordiv__", "__mod__", "__divmod__", "__pow__", "__lshift__", "__rshift__", "__and__", "__or__",
    "__xor__", "__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__rfloordiv__", "__rmod__",
    "__rpow__", "__rand__", "__ror__", "__rxor__", "__iadd__", "__isub__", "__imul__", "__itruediv__",
    "__ifloordiv__", "__imod__", "__ipow__", "__iand__", "__ior__", "__ixor__",
}
# plain attribute names that open the same doors (frames, code, the class chain) or read the clock
HIDDEN_ATTRIBUTES = {
    "gi_frame", "gi_code", "gi_yieldfrom", "cr_frame", "cr_code", "cr_await", "cr_origin", "ag_frame",
    "ag_code", "ag_await", "tb_frame", "tb_next", "f_back", "f_globals", "f_locals", "f_builtins", "f_code",
    "mro", "now", "today", "utcnow", "format", "format_map",
}
# builtins benchmark code does not get: files, code from text, the namespaces, memory addresses
REMOVED_BUILTINS = {"open", "exec", "eval", "compile", "input", "breakpoint", "help", "globals", "locals",
                    "vars", "id", "__loader__", "__spec__"}


def hidden(name):
    """True for an attribute name benchmark code may not use."""
    if name.startswith("__") and name.endswith("__"):
        return name not in SAFE_DUNDERS
    return name in HIDDEN_ATTRIBUTES


class _Walls:
    """What benchmark code sees instead of the interpreter: builtins without the removed ones,
    attribute functions that refuse hidden names, and `import` of allowed modules only, each as a
    new module holding the real one's public names (never a module: `enum.sys` is not there).
    One per runner; `builtins()` makes a new set for every case."""

    def __init__(self):
        # lazy on purpose: the child's own interpreter, read when the guard is built
        import builtins
        self.base = {name: value for name, value in builtins.__dict__.items() if name not in REMOVED_BUILTINS}
        self.base.update(getattr=self._getattr, setattr=self._setattr, delattr=self._delattr, hasattr=self._hasattr)
        self.public = {}  # module name -> its public names, found once

    @staticmethod
    def _checked(name):
        """The name as a plain str (a subclass could lie to `startswith`), unless it is hidden."""
        if isinstance(name, str):
            name = str.__str__(name)
            if hidden(name):
                raise AttributeError("benchmark code may not use the attribute " + repr(name))
        return name

    def _getattr(self, target, name, *default):
        return getattr(target, self._checked(name), *default)

    def _setattr(self, target, name, value):
        setattr(target, self._checked(name), value)

    def _delattr(self, target, name):
        delattr(target, self._checked(name))

    def _hasattr(self, target, name):
        return hasattr(target, self._checked(name))

    def _names(self, name):
        if name not in self.public:
            real = importlib.import_module(name)
            self.public[name] = {key: value for key, value in vars(real).items()
                                 if not key.startswith("_") and key not in MODULES[name]
                                 and type(value) is not type(real) and key in ONLY.get(name, (key,))}
        return self.public[name]

    def builtins(self):
        views = {}

        def view(name):
            if name not in views:
                module = type(sys)(name)
                module.__dict__.update(self._names(name))
                for sub in MODULES:
                    if sub.startswith(name + ".") and "." not in sub[len(name) + 1:]:
                        setattr(module, sub[len(name) + 1:], view(sub))
                views[name] = module
            return views[name]

        def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
            name = str.__str__(name) if isinstance(name, str) else ""  # a subclass could lie to `in`
            if level or name not in MODULES:
                raise ImportError("benchmark code may not import " + str(name))
            return view(name) if fromlist else view(name.split(".")[0])

        return {**self.base, "__import__": guarded_import}



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
    if isinstance(value, (int, float, str)):  # a subclass (a str-based token, an IntEnum) by the JSON kind it is
        return next(kind.__name__ for kind in (int, float, str) if isinstance(value, kind))
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


def _no_constants(name):
    raise ValueError(name + " is not a JSON value")


def _key_text(key):
    """The JSON text of a dict key, as `json.dumps` writes it; None for a key JSON cannot hold."""
    if type(key) is str:
        return key
    if key is None or type(key) is bool:
        return json.dumps(key)
    if type(key) in (int, float):
        return json.dumps(key, allow_nan=False)
    return None


def plain(value):
    """`value` as plain JSON data, read through the base types so no method a class overrides can
    change what is written; a tuple becomes a list. ValueError when it is not JSON data, or when
    two keys of a dict would become one JSON key (`1` and `"1"`): gold that silently lost an entry."""
    kind = type(value)
    if value is None or kind in (bool, str, int):
        return value
    if kind is float:
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(repr(value) + " is not a JSON number")
        return value
    for base, read in ((int, int.__index__), (float, float.__float__), (str, str.__str__)):
        if isinstance(value, base):
            return plain(read(value))
    if isinstance(value, (list, tuple)):
        items = list.__iter__(value) if isinstance(value, list) else tuple.__iter__(value)
        return [plain(item) for item in items]
    if isinstance(value, dict):
        result, origin = {}, {}
        for key, item in dict.items(value):
            key = plain(key) if isinstance(key, (int, float, str)) else key
            text = _key_text(key)
            if text is None:
                raise ValueError("a dict key of type " + type(key).__name__ + " is not a JSON key")
            if text in result:
                raise ValueError("the dict keys " + repr(origin[text]) + " and " + repr(key)
                                 + " would both become the JSON key " + json.dumps(text))
            result[text], origin[text] = plain(item), key
        return result
    raise ValueError("a " + kind.__name__ + " is not JSON data")


def _encode(message):
    """One JSON line; text must be valid Unicode (a lone surrogate is not) and numbers finite."""
    return (json.dumps(message, allow_nan=False, ensure_ascii=False) + "\n").encode("utf-8")


class _Fresh:
    """What each case gets new in the runner, as if it ran alone: module globals and default
    arguments (the seed module is executed again), builtins, random and decimal state, the
    recursion limit, environment, working directory, signal handlers and CPU-time allowance."""

    def __init__(self, request, workdir):
        # lazy on purpose: the child's own interpreter, read when the guard is built
        import builtins
        self.builtins = dict(builtins.__dict__)
        self.walls = _Walls() if request.get("policy") else None
        self.environ = dict(os.environ)
        self.recursion = sys.getrecursionlimit()
        self.workdir = workdir
        self.request = request
        self.tasks = "/proc/self/task"
        self.children = "/proc/self/task/" + str(os.getpid()) + "/children"  # our live child processes

    def reset(self):
        request = self.request
        sys.settrace(None)
        sys.setprofile(None)
        sys.setrecursionlimit(self.recursion)
        if os.environ != self.environ:
            os.environ.clear()
            os.environ.update(self.environ)
        os.chdir(self.workdir)
        if "random" in sys.modules:
            sys.modules["random"].seed(request["random_seed"])
        if "decimal" in sys.modules:
            decimal = sys.modules["decimal"]
            decimal.setcontext(decimal.Context())
        if "gc" in sys.modules:
            sys.modules["gc"].enable()
        sys.stdout = sys.stderr = _CappedSink(request["print_limit"])
        signal.signal(signal.SIGALRM, _alarm)
        used = resource.getrusage(resource.RUSAGE_SELF)
        allowance = int(used.ru_utime + used.ru_stime + request["case_seconds"]) + 2
        resource.setrlimit(resource.RLIMIT_CPU, (allowance, resource.RLIM_INFINITY))
        module = type(sys)("__sandbox__")  # registered: dataclasses and enum look their class's module up
        module.__builtins__ = self.walls.builtins() if self.walls else dict(self.builtins)
        sys.modules["__sandbox__"] = module
        return module.__dict__

    def left_behind(self, base, own_pid_namespace):
        """True when the case left a thread, a process or a file: the next case must not meet it."""
        while True:  # reap what the case started and what has ended
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
        if len(os.listdir(self.tasks)) > 1 or os.listdir(self.workdir):
            return True
        try:
            with open(self.children, "rb") as handle:
                if handle.read().split():
                    return True
        except OSError:
            pass
        if own_pid_namespace:
            known = {1, os.getpid(), os.getppid()}
            if any(int(name) not in known for name in os.listdir("/proc") if name.isdigit()):
                if any(pid not in known for pid in _others()):  # zombies aside
                    return True
            return any(os.path.join("/tmp", name) != base for name in os.listdir("/tmp"))
        return False


def _count_steps(function, args):
    """Call `function`, counting the lines of seed code it executes (its own and its helpers')."""
    steps = [0]

    def local(frame, event, arg):
        if event == "line":
            steps[0] += 1
        return local

    def on_call(frame, event, arg):
        return local if frame.f_code.co_filename == "<seed>" else None

    sys.settrace(on_call)
    try:
        return function(*args), steps[0]
    finally:
        sys.settrace(None)


def _trace_arcs(function, args):
    """Call `function`, recording the arcs of seed code it takes (line -> next line, entry and exit
    as minus the function's first line, so both sides of every branch show), how often the busiest
    line ran (a bound on any loop or branch counter a tracker could hold) and the lines executed."""
    arcs, hits = set(), {}

    def on_call(frame, event, arg):
        if frame.f_code.co_filename != "<seed>":
            return None
        last = [-frame.f_code.co_firstlineno]

        def local(frame, event, arg):
            if event == "line":
                line = frame.f_lineno
                arcs.add((last[0], line))
                hits[line] = hits.get(line, 0) + 1
                last[0] = line
            elif event == "return":
                arcs.add((last[0], -frame.f_code.co_firstlineno))
            return local
        return local

    sys.settrace(on_call)
    try:
        result = function(*args)
    finally:
        sys.settrace(None)
    return result, sorted(arcs), max(hits.values(), default=0), sum(hits.values())


def _run_case(code, request, args, namespace):
    """Load the seed into a fresh namespace, call the function, return the message to send."""
    try:
        exec(code, namespace)
        function = namespace[request["entry"]]
    except BaseException as error:  # noqa: BLE001 - everything is reported, nothing escapes
        status, message = _classify(error)
        if isinstance(error, KeyError):
            status, message = "exception", "no function named " + request["entry"]
        return {"status": status, "error": "while loading: " + message}
    steps = coverage = None
    try:
        if request.get("coverage"):
            result, arcs, busiest, steps = _trace_arcs(function, args)
            coverage = {"arcs": arcs, "max_hits": busiest}
        elif request.get("count_steps"):
            result, steps = _count_steps(function, args)
        else:
            result = function(*args)
    except BaseException as error:  # noqa: BLE001
        status, message = _classify(error)
        frames = traceback.extract_tb(error.__traceback__)
        seed_lines = [frame.lineno for frame in frames if frame.filename == "<seed>"]
        return {"status": status, "error": message, "line": seed_lines[-1] if seed_lines else None}
    output, stats, problem = _check_shape(result, request["tracked"])
    if problem:
        return {"status": "bad_shape", "error": problem}
    try:
        output_type = _type_name(output)
        output, stats = plain(output), plain(stats)
        _encode({"output": output, "stats": stats})
    except (TypeError, ValueError, UnicodeError, RecursionError) as error:
        return {"status": "not_json", "error": type(error).__name__ + ": " + str(error)[:300]}
    message = {"status": "ok", "output": output, "stats": stats, "output_type": output_type, "steps": steps}
    return {**message, **coverage} if coverage else message


def _runner(code, request, start, write_end, workdir, base, own_pid_namespace, write=os.write):
    """Body of the forked runner: the request's cases from `start` on, one line each; never returns.
    It ends after a case that left a thread, a process or a file, so this process can clear it, and
    after its first case when each case must run `alone`. `write` is bound before any seed code
    runs: what a case does to the `os` module cannot reach the result lines."""
    try:
        os.setpgid(0, 0)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)  # the child's stderr is not for cases to fill
        os.environ["TMPDIR"] = workdir
        tempfile.tempdir = None
        resource.setrlimit(resource.RLIMIT_AS, (request["memory_bytes"], request["memory_bytes"]))
        fresh = _Fresh(request, workdir)
        for args in request["cases"][start:start + 1] if request.get("alone") else request["cases"][start:]:
            try:
                namespace = fresh.reset()
                signal.setitimer(signal.ITIMER_REAL, request["case_seconds"])
                message = _run_case(code, request, args, namespace)
                signal.setitimer(signal.ITIMER_REAL, 0)
            except CaseTimeout:
                message = {"status": "timeout", "error": "the case ran past its time limit"}
            signal.setitimer(signal.ITIMER_REAL, 0)
            sys.stdout = sys.stderr = None
            del namespace
            try:
                line = _encode(message)
            except (TypeError, ValueError, UnicodeError, RecursionError):
                line = _encode({"status": "not_json", "error": "the result cannot be written as JSON"})
            if len(line) > request["output_limit"]:
                line = _encode({"status": "too_large", "error": "result is " + str(len(line)) + " bytes, over the cap"})
            dirty = fresh.left_behind(base, own_pid_namespace)
            if dirty:
                line = line[:-2] + b', "dirty": true}\n'
            view = memoryview(line)
            while view:
                view = view[write(write_end, view):]
            if dirty:
                break
    except BaseException:  # noqa: BLE001 - a failure to report is reported by our silence
        pass
    finally:
        os._exit(0)


class _Lines:
    """The runner's result lines, read with a deadline for each; notices when it dies silently."""

    def __init__(self, pid, read_end, limit):
        self.pid, self.read_end, self.limit = pid, read_end, limit
        self.data = b""
        self.status = None  # the runner's wait status once it has ended

    def next(self, deadline):
        """(the next line or None, why reading stopped)."""
        while True:
            if b"\n" in self.data:
                line, self.data = self.data.split(b"\n", 1)
                return line, "sent"
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None, "timeout"
            ready, _, _ = select.select([self.read_end], [], [], min(remaining, 0.05))
            if ready:
                chunk = os.read(self.read_end, 1 << 16)
                if not chunk:
                    return None, "silent"  # every writer closed the pipe without a line
                self.data += chunk
                if len(self.data) > self.limit and b"\n" not in self.data:
                    return None, "too_large"
            elif self.status is not None:
                return None, "silent"  # gone; a descendant holds the pipe open without writing
            else:
                done, wait_status = os.waitpid(self.pid, os.WNOHANG)
                self.status = wait_status if done == self.pid else None


def _own_pid_namespace():
    """True behind bubblewrap: our parent is the namespace's init, bubblewrap itself."""
    try:
        with open("/proc/1/cmdline", "rb") as handle:
            return os.getppid() == 1 and b"bwrap" in handle.read()
    except OSError:
        return False


def _others():
    """Processes of our PID namespace that are neither us nor init, nor already dead (zombies)."""
    me, found = os.getpid(), []
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) not in (1, me):
            try:
                with open("/proc/" + name + "/stat", "rb") as handle:
                    state = handle.read().rsplit(b")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            if state != b"Z":
                found.append(int(name))
    return found


def _sweep(own_pid_namespace):
    """Kill whatever a case left running: in our own PID namespace, every process but us and init,
    again until none is left alive (one may fork between our listing and its kill; a killed one
    needs the CPU to die, which a busy machine may be slow to give). Bounded by `SWEEP_SECONDS`."""
    if not own_pid_namespace:
        return
    give_up = time.monotonic() + SWEEP_SECONDS
    while time.monotonic() < give_up:
        others = _others()
        if not others:
            break
        for pid in others:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.001)
    while True:  # reap the ones that were ours
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            break


def _remove(path):
    """Remove a file or a tree a case made, even one it made unreadable (we are its owner).
    Iterative: a case may nest directories deeper than our recursion limit. True when gone."""
    stack = [(path, False)]
    while stack:
        current, listed = stack.pop()
        try:
            is_dir = os.path.isdir(current) and not os.path.islink(current)
            if not is_dir:
                os.unlink(current)
            elif listed:
                os.rmdir(current)
            else:
                os.chmod(current, 0o700)
                stack.append((current, True))
                stack.extend((os.path.join(current, name), False) for name in os.listdir(current))
        except OSError:
            pass
    return not os.path.lexists(path)


def _empty(workdir, base, own_pid_namespace):
    """Leave nothing of a case for the next: its directory goes, everything else in ours too, and
    behind the walls all it wrote in the private /tmp (the only place it can write there).
    False when something could not be removed: this child must then not serve again."""
    try:
        os.rmdir(workdir)  # most cases write nothing
    except OSError:
        pass
    try:
        clean = all([_remove(os.path.join(base, name)) for name in os.listdir(base)])
        if own_pid_namespace:
            clean = all([_remove(os.path.join("/tmp", name)) for name in os.listdir("/tmp")
                         if os.path.join("/tmp", name) != base]) and clean
        return clean
    except (OSError, RecursionError, MemoryError):
        return False


def _unique_keys(pairs):
    """A JSON object whose keys are all different: a repeated key would lose an entry unseen."""
    result = dict(pairs)
    if len(result) != len(pairs):
        raise ValueError("a JSON object repeats a key")
    return result


def _verdict(raw):
    """The runner's line, checked: it may hold anything seed code chose to write.
    Returns (the case's result, whether the runner says the case left something behind)."""
    broken = {"status": "crash", "error": "the case wrote something that is not a result"}
    try:
        message = json.loads(raw.decode("utf-8"), parse_constant=_no_constants, object_pairs_hook=_unique_keys)
    except (ValueError, UnicodeError, RecursionError):
        return broken, True
    if not isinstance(message, dict) or message.get("status") not in STATUSES:
        return broken, True
    dirty = message.get("dirty") is not False and "dirty" in message
    allowed = {"status", "output", "stats", "output_type", "error", "line", "steps", "arcs", "max_hits"}
    message = {key: value for key, value in message.items() if key in allowed}
    if not isinstance(message.get("error", ""), str) or not isinstance(message.get("output_type", ""), str):
        return broken, True
    for key in ("line", "steps", "max_hits"):
        if not isinstance(message.get(key), (int, type(None))) or isinstance(message.get(key), bool):
            message[key] = None
    arcs = message.get("arcs")
    if arcs is not None and not (isinstance(arcs, list) and all(
            isinstance(arc, list) and len(arc) == 2 and all(type(end) is int for end in arc) for arc in arcs)):
        message["arcs"] = None
    return message, dirty


def _death(status):
    if status is None:
        return {"status": "crash", "error": "the interpreter died"}
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number == signal.SIGXCPU:
            return {"status": "timeout", "error": "the case used up its CPU time"}
        return {"status": "crash", "error": "the interpreter died (killed by signal " + str(number) + ")",
                "signal": number}
    return {"status": "crash", "error": "the interpreter died (exit status " + str(os.WEXITSTATUS(status)) + ")"}


def run_from(code, request, start, emit, private_fds, base, own_pid_namespace):
    """Fork a runner for the cases from `start` on and pass its results to `emit`, one per case.
    Returns where the next runner must start: after the last case this one finished, or after the
    case it died, hung or left something behind in (reported as that case's failure)."""
    workdir = os.path.join(base, "case")  # one runner at a time: the same name, made empty each time
    if TAINTED:  # an earlier case left something we could not remove
        workdir = tempfile.mkdtemp(prefix="case-", dir=base)
    else:
        os.mkdir(workdir, 0o700)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        for fd in private_fds:  # the protocol and request pipes: out of the cases' reach
            os.close(fd)
        _runner(code, request, start, write_end, workdir, base, own_pid_namespace)
    os.close(write_end)
    try:
        os.setpgid(pid, pid)
    except OSError:
        pass
    lines = _Lines(pid, read_end, request["output_limit"] + 1024)
    total = start + 1 if request.get("alone") else len(request["cases"])
    position, why, last = start, "sent", None
    while position < total:
        raw, why = lines.next(time.monotonic() + request["case_seconds"] + GRACE)
        if raw is None:
            break
        message, dirty = _verdict(raw)
        if dirty:  # told once what it left is gone: a result read means nothing of its case runs
            last = message
            break
        emit(position, message)
        position += 1
    os.close(read_end)
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    status = lines.status if lines.status is not None else os.waitpid(pid, 0)[1]
    if last is None and position < total:  # the runner stopped inside this case
        if why == "timeout":
            last = {"status": "timeout", "error": "the case ran past its time limit and was killed"}
        elif why == "too_large":
            last = {"status": "too_large", "error": "the case wrote more than the output cap"}
        else:
            last = _death(status)
    _sweep(own_pid_namespace)
    if not _empty(workdir, base, own_pid_namespace):
        TAINTED.append(workdir)
    if last is not None:
        emit(position, last)
        position += 1
    return position


def _warm_up(source):
    """Load the standard modules of `WARM` that the seed imports; a seed that will not parse loads none."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    for name in sorted(names & WARM):
        importlib.import_module(name)


def serve(request, protocol, protocol_fd, requests_fd, base, own_pid_namespace):
    """One request: the cases of one function, a line each on the protocol pipe, in order."""
    indices = request["indices"]

    def emit(position, message):
        message["index"] = indices[position]
        try:
            line = _encode(message)
        except (TypeError, ValueError, UnicodeError, RecursionError):
            line = _encode({"index": indices[position], "status": "not_json", "error": "the result cannot be sent"})
        protocol.write(line)

    try:
        code = compile(request["code"], "<seed>", "exec")
        _warm_up(request["code"])
    except BaseException as error:  # noqa: BLE001 - a seed that does not compile fails every case
        status, message = _classify(error)
        for position in range(len(indices)):
            emit(position, {"status": status, "error": "while loading: " + message})
        return
    position = 0
    while position < len(indices):
        position = run_from(code, request, position, emit, (protocol_fd, requests_fd), base, own_pid_namespace)


def main():
    """Serve requests (one JSON line each on stdin) until stdin closes: the parent is done or gone."""
    protocol_fd, requests_fd = os.dup(1), os.dup(0)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(devnull, fd)
    try:  # not dumpable: a case running as the same user cannot open our pipes through /proc
        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE
    except (OSError, AttributeError):
        pass
    base = tempfile.mkdtemp(prefix="ifforge-cases-")
    own_pid_namespace = os.environ.get("IFFORGE_WALLED") == "1" and _own_pid_namespace()
    protocol = os.fdopen(protocol_fd, "wb", buffering=0)
    try:
        with os.fdopen(requests_fd, "rb") as requests:
            for line in requests:
                serve(json.loads(line.decode("utf-8")), protocol, protocol_fd, requests_fd, base, own_pid_namespace)
                if TAINTED:  # the parent starts a fresh child for the next request
                    break
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
