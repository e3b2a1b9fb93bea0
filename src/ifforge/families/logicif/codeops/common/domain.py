"""The seed's domain words: what the original code was about, read from the names its author chose
and from its docstrings, so that a model's description or tracker names cannot bring back what
anonymisation removed (players, squares, a buy book).

A word counts when it is in a name the author chose (split at `_` and capitals) or appears at least
twice in the docstrings (a topic recurs; a passing word does not); and it has three letters or more,
is no generic word of programming, arithmetic or plain English (`GENERIC`), and is not kept by
anonymisation (string values and method names stay, so a description may say them).
Words match by a crude stem (`bidders` is `bidder`, `captured` is `capture`).
"""

from __future__ import annotations

import ast
import re

from ifforge.core import pyast

GENERIC = frozenset("""
a about above according across after again against all along also always among amount an and another any
anything are argument arguments array as at available away back based be because become becomes been before
begin beginning being below best between both bottom but by calculate call called can case cases cell change
changed changes character characters check checked child children choose chosen column columns come compare
compute computed condition contain contains copy cost could count counted counter counts current data decide
default did different digit digits distance do does done down during each earlier earliest either element
elements else empty end ends enough entry equal equals even every exactly example except exist exists false
field fields find first flag following for found from front full function get gets give given gives go goes
grid group groups had half has have head height high higher highest hold holds how if ignore in index indices
initial input inputs instead integer into is it item items its itself just keep keeps key keys kind large
larger largest last later latest least left length less let level like limit line lines list lists long
longest look low lower lowest made make many map mark match matches max maximum may mean middle min minimum
mode more most move moved moves much must name names need negative neighbor neighbors neighbour neighbours
new next no node nodes none not nothing now null number numbers of off old on once one only or order ordered
other others otherwise out output outputs over pair pairs parameter parent part pass passes past per place
point points pop pos position positions positive possible prev previous process processed push put queue
range rather reach reached reaches read record records remain remaining remove removed repeat repeated rest
result results return returned returns right root row rows rule rules run runs same second see seen sequence
set sets should side since single size skip small smaller smallest so some sort sorted stack start started
starting starts state states step steps still stop stops store stored string strings such sum table take
taken takes target text than that the their them then there these they thing third this those three through
time times to top total true try turn turns twice two type under unless until up update updated upon use used
uses using valid value values variable very visit visited was way were what when where whether which while
who whole width will with within without word words would yet zero
accept accepted action actions add added ahead arg around assign assigned better bigger biggest binary block
buffer candidate char class clear clock col collect collected command commands cross crosses cycle day days
delay delta depth differ direction drop drops due duration erase event events extra excess finish finished
flip flipped float floor flush forward free gain gained gave history hour hours ids inside insert inserted
interval iter join late lead leave minute minutes multiply never open operand operands operation operations
opposite ops own pending pick piece pieces portion program rate ready reject rejected remember request
requests rotate rotated round rounds score sign shape share slot source speed split strict tick timer track
wait waited waiting wanted weight weights increment shift load letter letters priority origin capacity room frontier
""".split())

_SUFFIXES = ("ing", "ies", "es", "ed", "s", "e")


def stem(word: str) -> str:
    """A crude stem, enough to match a word's plural and past forms: `captures`, `captured` -> `captur`."""
    word = word.lower()
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


_GENERIC_STEMS = frozenset(stem(word) for word in GENERIC)


def split_name(name: str) -> list[str]:
    """`rested_orders` -> [rested, orders]; `buyBook` -> [buy, Book]."""
    return [part for chunk in name.split("_") for part in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", chunk)]


def _author_names(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def _docstrings(tree: ast.AST) -> list[str]:
    return [text for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and (text := ast.get_docstring(node))]


def _kept_words(tree: ast.AST) -> set[str]:
    """Stems of the words anonymisation keeps: string values (not docstrings) and method names."""
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                  and ast.get_docstring(node) is not None}
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            found.update(re.findall(r"[A-Za-z]+", node.value))
        elif isinstance(node, ast.Attribute):
            found.update(split_name(node.attr))
    return {stem(word) for word in found}


def domain_words(original: str, task_id: str = "", keep: list[str] = ()) -> list[str]:
    """The words of the original's domain that anonymisation removed, sorted. `keep`: names the
    text must use (f's parameters and tracker keys), so never forbidden."""
    tree = pyast.parse(original)
    named = [word for name in [*_author_names(tree), task_id] for word in split_name(name)]
    prose = [word for text in _docstrings(tree) for word in re.findall(r"[A-Za-z]+", text)]
    recurring = {word.lower() for word in prose if sum(stem(w) == stem(word) for w in prose) >= 2}
    kept = _kept_words(tree) | {stem(word) for name in keep for word in split_name(name)}
    by_stem: dict[str, str] = {}
    for word in sorted({w.lower() for w in named} | recurring):
        if len(word) >= 3 and stem(word) not in _GENERIC_STEMS and stem(word) not in kept:
            by_stem.setdefault(stem(word), word)
    return sorted(by_stem.values())


def domain_used(text: str, words: list[str]) -> list[str]:
    """The domain words `text` uses (a description, or tracker names: split at `_` and capitals)."""
    stems = {stem(word): word for word in words}
    pieces = [piece for token in re.findall(r"[A-Za-z]+", text.replace("_", " ")) for piece in split_name(token)]
    return sorted({stems[stem(piece)] for piece in pieces if stem(piece) in stems})


def listed(words: list[str]) -> str:
    """The words as a prompt states them."""
    return ", ".join(words) if words else "(none for this function)"
