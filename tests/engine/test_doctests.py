"""The examples in the engine's docstrings run and hold (docs/ARCHITECTURE.md rule 1)."""

from __future__ import annotations

import doctest
import importlib
import inspect
import io
import pkgutil
from types import ModuleType

import pytest

import adjudication.engine

ENGINE_MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(adjudication.engine.__path__, adjudication.engine.__name__ + ".")
)
# Modules whose every public function and class must show an example.
EXAMPLE_REQUIRED = ("adjudication.engine.melds", "adjudication.engine.laydown")


def run_doctests(module: ModuleType) -> tuple[doctest.TestResults, str]:
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS, verbose=False)
    for test in doctest.DocTestFinder().find(module):
        runner.run(test, out=report.write)
    return runner.summarize(verbose=False), report.getvalue()


def test_the_engine_modules_are_found() -> None:
    assert {"adjudication.engine.cards", "adjudication.engine.rules", "adjudication.engine.melds"} <= set(
        ENGINE_MODULES
    )


@pytest.mark.parametrize("name", ENGINE_MODULES)
def test_the_docstring_examples_hold(name: str) -> None:
    results, report = run_doctests(importlib.import_module(name))
    assert results.failed == 0, report


@pytest.mark.parametrize(
    "name", ["adjudication.engine.cards", "adjudication.engine.rules", *EXAMPLE_REQUIRED]
)
def test_the_module_has_examples(name: str) -> None:
    assert run_doctests(importlib.import_module(name))[0].attempted > 0


def _public_without_examples(module: ModuleType) -> list[str]:
    finder = doctest.DocTestFinder(recurse=False)
    missing = []
    for name in getattr(module, "__all__", []):
        thing = getattr(module, name)
        if not (inspect.isfunction(thing) or inspect.isclass(thing)) or thing.__module__ != module.__name__:
            continue
        if inspect.isclass(thing) and issubclass(thing, Exception):
            continue
        tests = finder.find(thing, name, module=module, globs={})
        if not any(test.examples for test in tests):
            missing.append(name)
    return missing


@pytest.mark.parametrize("name", EXAMPLE_REQUIRED)
def test_every_public_function_shows_an_example(name: str) -> None:
    assert _public_without_examples(importlib.import_module(name)) == []


def test_a_failing_example_is_caught() -> None:
    module = ModuleType("example")
    module.__doc__ = ">>> 1 + 1\n3\n"
    results, report = run_doctests(module)
    assert results.failed == 1 and "Expected" in report
