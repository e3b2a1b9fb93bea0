"""A stage's code version moves only when its behaviour can: comments and docstrings never move it,
and a change to one stage's code re-versions that stage alone (no stage imports another)."""

import ast
import shutil

import pytest

from ifforge.core.store.versions import PACKAGE_ROOT, CodeTree, behaviour_dump

STAGES = sorted(path.stem for path in (PACKAGE_ROOT / "families/logicif/stages").glob("*.py")
                if path.stem != "__init__")


def _module(stem: str) -> str:
    return f"ifforge.families.logicif.stages.{stem}"


def _versions(root, summaries=None) -> dict[str, str]:
    tree = CodeTree(root, summaries)
    return {stem: tree.version(_module(stem)) for stem in STAGES}


@pytest.fixture(scope="module")
def package_copy(tmp_path_factory):
    """The package's sources in a folder the tests may edit."""
    root = tmp_path_factory.mktemp("src") / "ifforge"
    shutil.copytree(PACKAGE_ROOT, root, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return root


@pytest.fixture(scope="module")
def baseline(package_copy) -> dict[str, str]:
    """Every module parsed (a tree that keeps nothing)."""
    return _versions(package_copy)


@pytest.fixture(scope="module")
def summaries(tmp_path_factory, package_copy, baseline):
    """A summaries file for this file's edited trees, as every generate keeps one: a module whose
    text a test edits is parsed again (its text's hash is the key), the others are read back (1.7 s
    of parsing per tree otherwise). That the summaries give the versions a full parse gives:
    test_a_later_tree_reads_the_summaries_instead_of_parsing_and_a_changed_module_is_parsed_again."""
    path = tmp_path_factory.mktemp("summaries") / "summaries.json"
    assert _versions(package_copy, path) == baseline
    return path


def _reworded(source: str) -> str:
    """The same code with its module docstring reworded, a function's docstring reworded (or added)
    and comments added, on a line of their own and after code."""
    tree = ast.parse(source)
    lines = source.splitlines()
    function = next(node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))
    first = function.body[0]
    line = lines[first.lineno - 1]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        lines[first.lineno - 1] = line.replace('"""', '"""Reworded: ', 1)
    else:
        lines.insert(first.lineno - 1, " " * first.col_offset + '"""A docstring added to the function."""')
    lines.insert(first.lineno - 1, " " * first.col_offset + "# a comment inside the function")
    assert lines[0].startswith('"""'), "every stage opens with its docstring"
    lines[0] = lines[0].replace('"""', '"""Reworded. ', 1)
    code = next(i for i, text in enumerate(lines) if text.startswith(("import ", "from ")))
    lines[code] += "  # a comment after code"
    return "\n".join(lines) + "\n# a comment at the end\n"


def test_comments_and_docstrings_never_change_a_stage_version(package_copy, baseline, summaries):
    stage_files = [package_copy / "families/logicif/stages" / f"{stem}.py" for stem in STAGES]
    originals = {path: path.read_text() for path in stage_files}
    try:
        for path, source in originals.items():
            edited = _reworded(source)
            assert edited != source and ast.dump(ast.parse(edited)) != ast.dump(ast.parse(source))
            path.write_text(edited)
        assert _versions(package_copy, summaries) == baseline
    finally:
        for path, source in originals.items():
            path.write_text(source)


@pytest.mark.parametrize("stem", STAGES)
def test_a_behaviour_change_re_versions_only_its_own_stage(package_copy, baseline, summaries, stem):
    path = package_copy / "families/logicif/stages" / f"{stem}.py"
    source = path.read_text()
    path.write_text(source + "\nBEHAVIOUR_PROBE = 1\n")
    try:
        after = _versions(package_copy, summaries)
    finally:
        path.write_text(source)
    assert {name for name in STAGES if after[name] != baseline[name]} == {stem}


def test_a_class_docstring_counts_as_behaviour():
    """pydantic sends a reply model's docstring to the model as its schema's description."""
    plain = behaviour_dump(ast.parse("class Reply:\n    x: int\n"))
    documented = behaviour_dump(ast.parse('class Reply:\n    """The answer."""\n    x: int\n'))
    assert plain != documented
    bare = behaviour_dump(ast.parse("def f():\n    return 1\n"))
    assert behaviour_dump(ast.parse('"""Module."""\ndef f():\n    """Why."""\n    return 1  # note\n')) == bare
    assert behaviour_dump(ast.parse('def f():\n    """Only a docstring."""\n')) == behaviour_dump(
        ast.parse("def f():\n    pass\n"))


def test_a_later_tree_reads_the_summaries_instead_of_parsing_and_a_changed_module_is_parsed_again(
        package_copy, baseline, tmp_path, monkeypatch):
    from ifforge.core import pyast

    summaries = tmp_path / "summaries.json"
    first = {stem: CodeTree(package_copy, summaries).version(_module(stem)) for stem in STAGES}
    assert first == baseline and summaries.exists()  # the same versions as a tree that keeps nothing

    parsed = []
    monkeypatch.setattr(pyast, "parse", lambda source, filename="", *rest: parsed.append(filename) or ast.parse(source))
    again = CodeTree(package_copy, summaries)
    assert {stem: again.version(_module(stem)) for stem in STAGES} == baseline and parsed == []

    path = package_copy / "families/logicif/stages" / f"{STAGES[0]}.py"
    original = path.read_text()
    try:
        path.write_text(original + "\nCHANGED = 1\n")
        changed = CodeTree(package_copy, summaries)
        assert changed.version(_module(STAGES[0])) != baseline[STAGES[0]]
        assert parsed == [str(path)]  # only the changed text is parsed again
    finally:
        path.write_text(original)


def test_summaries_that_cannot_be_read_or_written_only_cost_a_parse(package_copy, baseline, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert CodeTree(package_copy, broken).version(_module(STAGES[0])) == baseline[STAGES[0]]
    blocked = tmp_path / "a-file" / "summaries.json"
    (tmp_path / "a-file").write_text("a file where the folder would be")
    assert CodeTree(package_copy, blocked).version(_module(STAGES[0])) == baseline[STAGES[0]]
    import hashlib

    key = hashlib.sha256((package_copy / "families/logicif/stages" / f"{STAGES[0]}.py").read_bytes()).hexdigest()
    forged = tmp_path / "forged.json"
    forged.write_text('{"%s": [3, 4], "x": 3}' % key)  # not a summary: parsed again
    assert CodeTree(package_copy, forged).version(_module(STAGES[0])) == baseline[STAGES[0]]
