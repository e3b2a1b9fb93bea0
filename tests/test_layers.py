"""No generic module imports a family: families plug into the generic code, never the other way round.

Generic: core/, eval/, transforms/, exports/, review/, flows/ (in the package, or at the top level once
it moves there), generation/ and card.py. Their one door to a family is the lazy registry `ifforge.families`
(`get_family`, ...), `ifforge.families.base` (what a family is) and `ifforge.families.options`
(what a family's options are). Imports are read with `ast`, so lazy imports inside functions count
too. The command line (cli/) imports no family either: a family's own command comes through its
registry line.

Generic code also names no family: no family id and no field only one family's rows have appear in
core/, eval/, exports/, review/, transforms/ or cli/ (help texts and docstrings may say which family an
option serves), nor the options a family declares for evaluate, score and export. And the generic
layers stack: eval/ imports neither exports/ nor review/.

Inside LogicIF, `codeops/` keeps one subpackage per purpose (inputs, instrument, describe, metrics),
side by side above `common`: none imports another.
"""

import ast
from pathlib import Path

import ifforge

PACKAGE = Path(ifforge.__file__).parent
REPOSITORY = PACKAGE.parent.parent
CONTRACT = ("base.py", "options.py")  # what a family is, and what its options are: no family's code
FAMILY_MODULES = {path.stem for path in (PACKAGE / "families").iterdir()
                  if path.name not in CONTRACT and (path.suffix == ".py" or (path / "__init__.py").exists())}
FAMILY_MODULES.discard("__init__")


def family_imports(source: str) -> list[str]:
    """The family modules a source imports, as written (`ifforge.families.<x>...`)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[:2] == ["ifforge", "families"] and len(parts) > 2 and parts[2] in FAMILY_MODULES:
                found.append(".".join(parts[:3]))
    return sorted(set(found))


def generic_files() -> list[Path]:
    folders = [PACKAGE / name for name in ("core", "eval", "transforms", "exports", "review", "flows", "generation")]
    files = [path for folder in folders + [REPOSITORY / "flows"] if folder.is_dir() for path in sorted(folder.rglob("*.py"))]
    return files + [PACKAGE / "card.py"]


def test_the_check_sees_every_way_of_importing_a_family():
    assert family_imports("import ifforge.families.logicif.verdicts") == ["ifforge.families.logicif"]
    assert family_imports("def f():\n    from ifforge.families.pacific import scoring") == ["ifforge.families.pacific"]
    assert family_imports("from ifforge.families import lifbench") == ["ifforge.families.lifbench"]
    assert family_imports("from ifforge.families import get_family\nfrom ifforge.families.base import Family") == []


def test_no_generic_module_imports_a_family():
    assert {"logicif", "pacific", "ifeval_fc", "mcbench", "lifbench"} <= FAMILY_MODULES
    files = generic_files()
    assert len(files) > 30 and all(path.exists() for path in files)
    offenders = {str(path.relative_to(REPOSITORY)): imports for path in files
                 if (imports := family_imports(path.read_text()))}
    assert offenders == {}


def test_the_command_line_imports_no_family():
    """`ifforge complexity` is LogicIF's, added through its registry line: cli/ reaches no family's code."""
    offenders = {str(path.relative_to(PACKAGE)): imports for path in sorted((PACKAGE / "cli").rglob("*.py"))
                 if (imports := family_imports(path.read_text()))}
    assert offenders == {}


def test_a_generate_run_imports_no_orchestrator():
    """`ifforge.generation` runs a version with no orchestrator: Prefect is only the flow's (flows/generate.py)."""
    files = sorted((PACKAGE / "generation").rglob("*.py"))
    imported = {path.name: [name for name in imported_modules(path.read_text(), f"ifforge.generation.{path.stem}")
                            if name.split(".")[0] == "prefect"] for path in files}
    assert files and not any(imported.values()), imported


def test_eval_sits_under_exports_and_review():
    """Evaluate, floors and compare are what exports and the review page build on, never the reverse."""
    above = ("ifforge.exports", "ifforge.review", "ifforge.cli", "ifforge.flows")
    offenders = {str(path.relative_to(PACKAGE)): name for path in sorted((PACKAGE / "eval").rglob("*.py"))
                 for name in imported_modules(path.read_text(), "ifforge.eval." + path.stem)
                 if name.startswith(above)}
    assert offenders == {}


def test_every_parse_in_the_run_takes_the_ast_lock():
    """CPython 3.11 trips over two threads building ASTs at once (see core/pyast.py): it dropped a
    seed at random in a threads run. Only the sandbox's child, a process of its own, parses alone."""
    unlocked = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name in ("pyast.py", "_child.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "ast"
                    and node.func.attr in ("parse", "literal_eval")):
                unlocked.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert not unlocked, f"parse through ifforge.core.pyast: {unlocked}"


# ---- LogicIF's code operations: one subpackage per purpose, each beside the others, `common` below them
CODEOPS = PACKAGE / "families" / "logicif" / "codeops"
CODEOPS_NAME = "ifforge.families.logicif.codeops"
PURPOSES = ("inputs", "instrument", "describe", "metrics")
SHARED = "common"


def imported_modules(source: str, module: str) -> list[str]:
    """The modules a source (module `module`) imports, as dotted names, relative imports resolved; a
    name taken from a package counts as its submodule too (`from p import m` names `p` and `p.m`)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = module.split(".")[:-node.level]
                base = ".".join(parent + ([base] if base else []))
            found += [base] + [f"{base}.{alias.name}" for alias in node.names]
    return found


def codeops_part(name: str) -> str | None:
    """The subpackage of codeops a dotted name is in ("" for the package itself), None outside codeops."""
    if name != CODEOPS_NAME and not name.startswith(CODEOPS_NAME + "."):
        return None
    rest = name[len(CODEOPS_NAME) + 1:]
    return rest.split(".")[0] if rest else ""


def test_the_codeops_check_resolves_every_way_of_importing():
    module = f"{CODEOPS_NAME}.describe.narrate"
    assert imported_modules("from . import english", module) == [f"{CODEOPS_NAME}.describe",
                                                                 f"{CODEOPS_NAME}.describe.english"]
    assert imported_modules("def f():\n    from ..instrument.trackers import build", module) == [
        f"{CODEOPS_NAME}.instrument.trackers", f"{CODEOPS_NAME}.instrument.trackers.build"]
    assert [codeops_part(name) for name in imported_modules(f"from {CODEOPS_NAME} import inputs", module)] == [
        "", "inputs"]
    assert codeops_part("ifforge.families.logicif.records") is None


def test_codeops_holds_only_its_purposes_and_common():
    loose = sorted(path.name for path in CODEOPS.glob("*.py") if path.name != "__init__.py")
    folders = sorted(path.name for path in CODEOPS.iterdir() if path.is_dir() and path.name != "__pycache__")
    assert loose == [] and folders == sorted((*PURPOSES, SHARED))
    assert all((CODEOPS / name / "__init__.py").exists() for name in folders)


def test_each_purpose_imports_only_itself_and_common():
    """inputs, instrument, describe and metrics sit side by side: none imports another (the describer
    reads code, it does not rewrite it; trackers never ask how code is told), so each can change alone.
    `common` (source facts, domain words, the read-only walk) imports none of them. From the rest of the
    family, codeops reads only `records` (the shapes it returns): never the stages, checks or writer."""
    offenders = []
    for path in sorted(CODEOPS.rglob("*.py")):
        relative = path.relative_to(PACKAGE.parent).with_suffix("")
        module = ".".join(relative.parts[:-1] if path.name == "__init__.py" else relative.parts)
        own = codeops_part(module)
        allowed = {own, SHARED, ""} if own in PURPOSES else {own, ""}
        for name in imported_modules(path.read_text(), module if path.name != "__init__.py" else module + ".__init__"):
            part = codeops_part(name)
            if part is None:
                outside = name.startswith("ifforge.families.") and not name.startswith("ifforge.families.logicif.records")
                bad = outside or name in ("ifforge.families", "ifforge.families.logicif")
            else:
                bad = part not in allowed
            if bad:
                offenders.append(f"{path.relative_to(CODEOPS)}: {name}")
    assert offenders == []


# ---- generic code names no family: no id, no field only one family's rows have --------------------------
NAMED_FREE = ("core", "eval", "exports", "review", "transforms", "cli", "generation")  # generic: every family goes through it
PLAIN_WORDS = {"source", "task"}  # one family's fields, and plain words of generic code too (a review view's
# source, a harness's task): there they mean what they say, not that family's field


def family_ids() -> set[str]:
    from ifforge.families import FAMILIES

    return set(FAMILIES) | {family_id.replace("-", "_") for family_id in FAMILIES}


def family_words() -> set[str]:
    """What names a family: its ids (and module names), and the fields only one family's rows have
    (its row schema, what its replies carry, its groups)."""
    from ifforge.families import FAMILIES, get_family

    fields: dict[str, set[str]] = {}
    for family_id in FAMILIES:
        family = get_family(family_id)
        declared = {*family.row_fields, *family.carried, *family.keys, *family.counted_by, *family.report.groups}
        for field in declared - {"family", "task_id"}:
            fields.setdefault(field, set()).add(family_id)
    return family_ids() | {field for field, owners in fields.items() if len(owners) == 1} - PLAIN_WORDS


def option_names() -> set[str]:
    from ifforge.families import option_names

    return option_names()


def option_words() -> set[str]:
    """The evaluate, score and export options families declare (`strict_types`, `paper_nltk`,
    `rules`, ...), as names and as flags: generic code reads them only through the family."""
    return {word for name in option_names() for word in (name, "--" + name.replace("_", "-"))}


def named(source: str, words: set[str], ids: set[str], identifiers: frozenset[str] = frozenset()) -> list[str]:
    """Where code (not its docstrings or comments) names a word: a string that is one, an
    identifier that holds a family id (`LOGICIF_FIELDS`), or one of `identifiers` (`args.strict_types`)."""
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if node.value in words:
                found.append(f"{node.lineno}: {node.value!r}")
        name = (node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute)
                else node.name if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                else node.arg if isinstance(node, ast.arg) else None)
        if name and (name in identifiers or any(family_id in name.lower().split("_") or family_id == name.lower()
                                          for family_id in ids)):
            found.append(f"{node.lineno}: {name}")
    return found


def test_the_names_check_sees_strings_and_names_not_prose():
    words, ids = {"logicif", "test_case_id"}, {"logicif"}
    assert named('row.get("family", "logicif")', words, ids) == ["1: 'logicif'"]
    assert named("LOGICIF_FIELDS = ('task_id', 'test_case_id')", words, ids) == ["1: LOGICIF_FIELDS", "1: 'test_case_id'"]
    assert named('def f():\n    """LogicIF\'s rows: logicif."""\n    return "LogicIF: a help text"', words, ids) == []
    assert named("if settings.strict_types:\n    pass", words, ids, frozenset({"strict_types"})) == ["1: strict_types"]


def test_no_generic_module_names_a_family_or_a_field_of_one_familys_rows():
    words, ids = family_words() | option_words(), family_ids()
    assert {"strict_types", "--paper-nltk", "extractor", "rules", "--rules"} <= words
    identifiers = frozenset(option_names() - {"rules"})  # a plain word as a name (a hash's rules); its text counts
    assert {"logicif", "ifeval-fc", "ifeval_fc", "code_output", "test_case_id", "chain_length"} <= words
    assert not words & {"task_id", "family", "prompt", "expression_id"}  # every family's, or more than one's
    offenders = {}
    for folder in NAMED_FREE:
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            found = named(path.read_text(), words, ids, identifiers)
            if found:
                offenders[str(path.relative_to(PACKAGE))] = found
    assert offenders == {}


def test_convert_names_no_family_even_in_its_help():
    """`ifforge convert`'s families, the files each reads and their options all come from the registry
    line (`Entry.converts`) and the family's options: its code names no family, not even in a help text."""
    source = (PACKAGE / "cli" / "convert.py").read_text()
    texts = [node.value.lower() for node in ast.walk(ast.parse(source))
             if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    words = family_ids() | {"system_message", "--system-message", "ifeval", "lifbench"}
    assert [(word, text) for text in texts for word in words if word in text] == []
