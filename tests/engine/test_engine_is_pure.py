"""The engine is pure Python: standard library only, never Django or scoring (docs/ARCHITECTURE.md rule 1)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "adjudication" / "engine"
ENGINE_FILES = sorted(ENGINE.rglob("*.py"))
FORBIDDEN = ("django", "scoring")


def imported_names(path: Path) -> list[tuple[int, str]]:
    """(line, what) for each import in a file; relative imports keep their dots."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.lineno, "." * node.level + (node.module or "")))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.lineno, node.args[0].value))
    return found


def outside_the_standard_library(name: str) -> bool:
    if name.startswith("."):
        # One dot stays inside the engine; two would reach the Django app around it.
        return name.startswith("..")
    top = name.split(".")[0]
    if name == "adjudication.engine" or name.startswith("adjudication.engine."):
        return False
    return top not in sys.stdlib_module_names and top != "__future__"


def test_the_engine_has_modules_to_check() -> None:
    assert {"cards.py", "rules.py", "melds.py"} <= {path.name for path in ENGINE_FILES}


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda path: path.name)
def test_an_engine_module_imports_only_the_standard_library_and_the_engine(path: Path) -> None:
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for line, name in imported_names(path)
        if outside_the_standard_library(name)
    ]
    assert wrong == []


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("import django", True),
        ("from django.db import models", True),
        ("import scoring.models", True),
        ("from scoring import services", True),
        ("from .. import models", True),
        ("import importlib\nimportlib.import_module('django.conf')", True),
        ("import yaml", True),
        ("from . import cards\nfrom .rules import RuleSet", False),
        ("import json, itertools\nfrom collections.abc import Mapping", False),
        ("from adjudication.engine.cards import Card", False),
    ],
)
def test_the_import_check_catches_what_it_should(tmp_path: Path, source: str, caught: bool) -> None:
    module = tmp_path / "module.py"
    module.write_text(source, encoding="utf-8")
    assert any(outside_the_standard_library(name) for _, name in imported_names(module)) is caught


BLOCKER = textwrap.dedent(
    """
    import importlib, importlib.abc, pkgutil, sys

    FORBIDDEN = {forbidden!r}

    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in FORBIDDEN:
                raise ImportError(f"the engine imported {{name}}")
            return None

    sys.meta_path.insert(0, Block())
    import adjudication.engine as engine
    names = [engine.__name__] + [
        info.name for info in pkgutil.walk_packages(engine.__path__, engine.__name__ + ".")
    ]
    for name in names:
        importlib.import_module(name)
    loaded = sorted(name for name in sys.modules if name.split(".")[0] in FORBIDDEN)
    assert not loaded, loaded
    print(len(names))
    """
)


def test_every_engine_module_imports_with_django_and_scoring_blocked() -> None:
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, "-c", BLOCKER.format(forbidden=FORBIDDEN)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == len([path for path in ENGINE_FILES if path.name != "__init__.py"]) + 1
