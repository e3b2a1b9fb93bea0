"""The wider reading of a function's parameters: uses that say a kind, read only for a seed that is dropped.

`codeops.inputs.candidates` reads kinds from the plain uses of a parameter. Some uses say a kind
only through another value, and these rules read them:
- text on one side of `+` makes the other side text (`guards[i] + encoded` with `ord(encoded[0])`
  elsewhere: the items of guards are text), read once every other use is known;
- a value added to what `ord`, `len`, `int`, `abs` or `round` return is a number
  (`values_hash + ord(c)`), whatever its name suggests;
- a value whose items are joined (`"".join(v)`, also of a copy `v = list(p)`) is text or a list
  of texts (read for every seed, it drew texts alone for a value whose kind the code tests before
  the join, so the test never failed);
- a value that looks up a module-level literal table (`TABLE[w]`, `TABLE.get(w)`, `w in TABLE`,
  also an item of a parameter: `for w in words: TABLE[w]`) is one of the table's keys at times;
- a parameter whose default no JSON value can be (`minimum=(2, 0, 0)`, `key=len`) is left out of
  some calls, so the function runs with its own default;
- a number scaled by constants (`x / 12.92`, `(l + 16) / 116`, `y / REF * KAPPA`) gets the values that
  bring the chain out at a round result (0, 1, 2, a half...): for a random one, formula code returns
  a number of more decimal places than a test's output may have (`exact`, drawn at times);
- a value with two readings (a text iterated item by item, or a list of texts) is drawn with both
  from the first round (`codeops.inputs.candidates`), not only after errors of values.
They are used only where the inputs stage, with the plain reading, ends with no working call or
with one output (`stages.inputs.generate`): every seed that works today keeps its inputs.
"""

from __future__ import annotations

import ast

NUMBER_CALLS = {"ord", "len", "int", "abs", "round"}  # built-ins that return a number whatever they are given
MOST_KEYS = 100  # a larger table is data, not a set of values the code expects
ROUND_RESULTS = (0, 1, -1, 2, 0.5, -2, 10)  # what a scaled value is brought out at (`_exact`)


def tables(tree: ast.Module) -> dict[str, tuple[list, bool]]:
    """Module-level names bound once to a literal dict whose keys are constants (its keys, and True:
    a mapping), or to a literal list, tuple or set of constants (its items, and False)."""
    found: dict[str, tuple[list, bool]] = {}
    bound: dict[str, int] = {}
    for statement in tree.body:
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and statement.value:
            target, value = statement.target, statement.value
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            target, value = statement.targets[0], statement.value
        else:
            continue
        bound[target.id] = bound.get(target.id, 0) + 1
        elements = value.keys if isinstance(value, ast.Dict) else value.elts \
            if isinstance(value, (ast.List, ast.Tuple, ast.Set)) else None
        if elements and len(elements) <= MOST_KEYS and all(
                isinstance(e, ast.Constant) and type(e.value) in (int, str) for e in elements):
            found[target.id] = ([e.value for e in elements], isinstance(value, ast.Dict))
    return {name: keys for name, keys in found.items() if bound[name] == 1}


def _looked_up_with(reader, node: ast.AST, keys: list) -> None:
    """`node` is used as a key of a table with `keys`: a parameter or a part of one gets them as constants."""
    name = node.id if isinstance(node, ast.Name) else reader._part(node)
    if name:
        reader.facts[name].constants |= set(keys)


def call(reader, node: ast.Call) -> None:
    """Table lookups by `.get`: `TABLE.get(w)`; the items of a joined value: `"".join(v)` (not `os.path.join`)."""
    if not isinstance(node.func, ast.Attribute) or len(node.args) < 1:
        return
    owner = node.func.value
    if node.func.attr == "join" and len(node.args) == 1 and isinstance(node.args[0], ast.Name) \
            and not (isinstance(owner, ast.Attribute) and owner.attr == "path"):
        joined = node.args[0].id
        reader.facts[joined].kinds.add("iterable")
        reader.facts[joined].element.add(f"{joined}[*]")
        reader.facts[f"{joined}[*]"].kinds.add("str")
    if node.func.attr == "get" and isinstance(owner, ast.Name) and reader.tables.get(owner.id, ((), False))[1]:
        _looked_up_with(reader, node.args[0], reader.tables[owner.id][0])


def subscript(reader, node: ast.Subscript) -> None:
    """`TABLE[w]`: w is one of the table's keys."""
    if isinstance(node.value, ast.Name) and reader.tables.get(node.value.id, ((), False))[1] \
            and not isinstance(node.slice, ast.Slice):
        _looked_up_with(reader, node.slice, reader.tables[node.value.id][0])


def compare(reader, node: ast.Compare) -> None:
    """`w in TABLE`: w is at times one of the table's keys or items."""
    operands = [node.left, *node.comparators]
    for left, op, right in zip(operands, node.ops, operands[1:]):
        if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, ast.Name) and right.id in reader.tables:
            _looked_up_with(reader, left, reader.tables[right.id][0])


def _number(node: ast.AST, named: dict) -> float | None:
    """The number a literal (`12.92`, `-1`) or a module constant's name (`KAPPA`) stands for, else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand, named)
        return None if inner is None else -inner
    value = node.value if isinstance(node, ast.Constant) else named.get(node.id) if isinstance(node, ast.Name) else None
    return value if type(value) in (int, float) else None


def _solved(node: ast.AST, named: dict, result: float) -> tuple[str, float] | None:
    """(the name, its value) that makes a chain of `+ - * /` by constants around one name
    (`(l + 16) / 116`, `y / REF * KAPPA`) come out as `result`: each step undone, outermost first."""
    for _ in range(8):
        if isinstance(node, ast.Name) and node.id not in named:
            return node.id, result
        if not isinstance(node, ast.BinOp) or type(node.op) not in (ast.Add, ast.Sub, ast.Mult, ast.Div):
            return None
        left, right = _number(node.left, named), _number(node.right, named)
        if (left is None) == (right is None):
            return None
        op, constant = type(node.op), left if right is None else right
        if right is not None:  # name-side on the left: x + c, x - c, x * c, x / c
            result = result - constant if op is ast.Add else result + constant if op is ast.Sub else \
                result / constant if op is ast.Mult and constant else result * constant if op is ast.Div else None
            node = node.left
        else:  # c + x, c - x, c * x, c / x
            result = result - constant if op is ast.Add else constant - result if op is ast.Sub else \
                result / constant if op is ast.Mult and constant else constant / result if op is ast.Div and result \
                else None
            node = node.right
        if result is None:
            return None
    return None


def _round(value: float) -> int | float | None:
    """A found value without the float noise of the undoing (`100.00000000000001` is 100), or None when
    it is huge or has more places than an input is given with."""
    value = round(value, 9)
    if abs(value) > 1e6:
        return None
    return int(value) if value == int(value) else value if len(repr(value)) <= 12 else None


def _exact(reader, node: ast.BinOp) -> None:
    """A scaled value (`x / 12.92`, `(l + 16) / 116`, `REF * y / KAPPA`) seldom comes out round for a
    random x, and a result of many decimal places cannot be a test's output: the values of x that make
    the chain come out at ROUND_RESULTS are its `exact` ones."""
    if type(node.op) not in (ast.Mult, ast.Div):
        return
    for target in ROUND_RESULTS:
        found = _solved(node, reader.named, target)
        value = found and _round(found[1])
        if found and value is not None:
            reader.facts[found[0]].exact.add(value)


def binop(reader, node: ast.BinOp) -> None:
    """Numbers added to a value (`h + ord(c)`), the two sides of a `+`, for `finish`, and the values that
    bring a scaled value out round (`_exact`)."""
    _exact(reader, node)
    if not isinstance(node.op, ast.Add):
        return
    for side, other in ((node.left, node.right), (node.right, node.left)):
        if isinstance(side, ast.Name) and isinstance(other, ast.Call) and isinstance(other.func, ast.Name) \
                and other.func.id in NUMBER_CALLS:
            reader.facts[side.id].kinds.add("number")
    reader.joined.append((node.left, node.right))


def finish(reader) -> None:
    """Once every use is read: text on one side of a `+` makes the other side text (twice: chains)."""
    def known(node: ast.AST) -> str | None:  # the name already read for a side, without adding a part
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and not isinstance(node.slice, ast.Slice):
            index = node.slice
            place = index.value if isinstance(index, ast.Constant) and type(index.value) is int else "*"
            return f"{node.value.id}[{place}]"
        return None

    for _ in range(2):
        for left, right in reader.joined:
            if not any(name in reader.facts and "str" in reader.facts[name].kinds for name in map(known, (left, right))):
                continue
            for side in (left, right):
                name = side.id if isinstance(side, ast.Name) else reader._part(side)
                if name:
                    reader.facts[name].kinds.add("str")
