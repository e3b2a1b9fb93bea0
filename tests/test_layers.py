"""No generic module imports a family: families plug into the factory, never the other way round.

Generic: core/, eval/, transforms/, exports/, flows/ (in the package, or at the top level once it
moves there) and factory.py. Their one door to a family is the lazy registry `ifforge.families`
(`get_family`, ...) and `ifforge.families.base` (what a family is). Imports are read with `ast`,
so lazy imports inside functions count too.
"""

import ast
from pathlib import Path

import ifforge

PACKAGE = Path(ifforge.__file__).parent
REPOSITORY = PACKAGE.parent.parent
FAMILY_MODULES = {path.stem for path in (PACKAGE / "families").iterdir()
                  if path.name != "base.py" and (path.suffix == ".py" or (path / "__init__.py").exists())}
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
    folders = [PACKAGE / name for name in ("core", "eval", "transforms", "exports", "flows")] + [REPOSITORY / "flows"]
    files = [path for folder in folders if folder.is_dir() for path in sorted(folder.rglob("*.py"))]
    return files + [PACKAGE / "factory.py"]


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


def test_every_parse_in_the_run_takes_the_ast_lock():
    """CPython 3.11 trips over two threads building ASTs at once (see core/pyast.py): it dropped a
    seed at random in a threads run. Only the sandbox's child, a process of its own, parses alone."""
    unlocked = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name in ("pyast.py", "_sandbox_child.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "ast"
                    and node.func.attr in ("parse", "literal_eval")):
                unlocked.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert not unlocked, f"parse through ifforge.core.pyast: {unlocked}"
