"""The house rules for imports (docs/ARCHITECTURE.md, "The import rule"), read from the code itself.

- no cycle between any two project modules, imports inside functions included (a package's
  ``__init__`` re-exporting its own modules is not a cycle: inside ``pkg``, importing ``pkg.sub`` is
  an arrow to ``pkg.sub`` alone; from outside it is an arrow to ``pkg`` too, since Python runs
  ``pkg/__init__.py`` first);
- no module imports another module's underscore names (``from x import _y``, ``x._y``);
- selectors never import services;
- services, selectors and the printing (``scoring.printing``) never import the web (``scoring.web``);
- no room of the web (a package in ``scoring/web/``: public, direct, organise, league, phone, pdf) imports
  another, and the support modules directly in ``scoring/web/`` never import a room;
- ``scoring/`` keeps at most 25 modules of its own beside ``__init__.py`` (packages hold the rest);
- no project module is over 800 lines (tests, migrations and the benchmark package aside).

The engine's own rule (standard library only) is tests/engine/test_engine_is_pure.py.
Run ``python -m pytest tests/test_house_rules.py`` to see every breach with its file and line.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("kalooki_tournament", "scoring", "adjudication")
LONGEST_MODULE = 800
MOST_TOP_LEVEL_MODULES = 25
WEB = "scoring.web"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_files(*, skip: tuple[str, ...] = ("migrations",)) -> dict[str, Path]:
    files = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if not any(part in skip for part in path.relative_to(ROOT).parts):
                files[module_name(path)] = path
    return files


MODULES = project_files()


@dataclass(frozen=True)
class Arrow:
    """`source` imports `target` (a project module) at `line`, taking `names` from it."""

    source: str
    target: str
    line: int
    names: tuple[str, ...]


def _absolute(source: str, node: ast.ImportFrom, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = source.split(".")
    # A package's own `from . import x` stays inside it; a module's goes to its package.
    keep = len(base) - node.level + (1 if is_package else 0)
    return ".".join(base[:keep] + ([node.module] if node.module else []))


def _project_module(name: str, modules: Mapping[str, Path]) -> str | None:
    """The project module `name` lives in: itself, or its nearest enclosing package."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def enclosing_packages(source: str, target: str, modules: Mapping[str, Path]) -> Iterator[str]:
    """The packages whose ``__init__`` Python runs before `target` when `source`, outside them, imports it."""
    parts = target.split(".")
    for end in range(1, len(parts)):
        package = ".".join(parts[:end])
        inside = source == package or source.startswith(f"{package}.")
        if package in modules and modules[package].name == "__init__.py" and not inside:
            yield package


def arrows(source: str, path: Path, modules: Mapping[str, Path]) -> Iterator[Arrow]:
    for arrow in direct_arrows(source, path, modules):
        yield arrow
        for package in enclosing_packages(source, arrow.target, modules):
            yield Arrow(source, package, arrow.line, ())


def direct_arrows(source: str, path: Path, modules: Mapping[str, Path]) -> Iterator[Arrow]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _project_module(alias.name, modules)
                if target and target != source:
                    yield Arrow(source, target, node.lineno, ())
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(source, node, is_package)
            for alias in node.names:
                # `from pkg import module` is an arrow to the module; `from pkg import name` to pkg.
                as_module = f"{base}.{alias.name}" if base else alias.name
                if as_module in modules:
                    if as_module != source:
                        yield Arrow(source, as_module, node.lineno, ())
                    continue
                target = _project_module(base, modules)
                if target and target != source:
                    yield Arrow(source, target, node.lineno, (alias.name,))


def all_arrows(modules: Mapping[str, Path] = MODULES) -> list[Arrow]:
    return [arrow for name, path in modules.items() for arrow in arrows(name, path, modules)]


def cycles(edges: list[Arrow]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (Tarjan), each sorted."""
    graph: dict[str, set[str]] = {}
    for arrow in edges:
        graph.setdefault(arrow.source, set()).add(arrow.target)
        graph.setdefault(arrow.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def underscore_imports(edges: list[Arrow], modules: Mapping[str, Path] = MODULES) -> list[str]:
    """`from x import _y` and `x._y` where x is another project module."""
    found = [
        f"{arrow.source}:{arrow.line} takes {name} from {arrow.target}"
        for arrow in edges
        for name in arrow.names
        if name.startswith("_") and not name.startswith("__")
    ]
    for source, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname and alias.name in modules:
                        aliases[alias.asname] = alias.name
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(source, node, path.name == "__init__.py")
                for alias in node.names:
                    as_module = f"{base}.{alias.name}" if base else alias.name
                    if as_module in modules:
                        aliases[alias.asname or alias.name] = as_module
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                found.append(f"{source}:{node.lineno} uses {aliases[node.value.id]}.{node.attr}")
    return sorted(set(found))


def is_selectors(name: str) -> bool:
    return any(part == "selectors" for part in name.split("."))


def is_services(name: str) -> bool:
    return any(part == "services" for part in name.split("."))


def is_printing(name: str) -> bool:
    return name == "scoring.printing" or name.startswith("scoring.printing.")


def is_web(name: str, web: str = WEB) -> bool:
    return name == web or name.startswith(f"{web}.")


def web_room(name: str, modules: Mapping[str, Path] = MODULES, web: str = WEB) -> str | None:
    """The room `name` is in (``scoring.web.public`` for ``scoring.web.public.views``): a package directly
    under the web package. None for the web package itself and for its support modules."""
    if not name.startswith(f"{web}."):
        return None
    room = ".".join(name.split(".")[: web.count(".") + 2])
    path = modules.get(room)
    return room if path is not None and path.name == "__init__.py" else None


def room_breaches(edges: list[Arrow], modules: Mapping[str, Path] = MODULES, web: str = WEB) -> list[str]:
    """A room importing another room, and a support module of the web importing any room."""
    found = []
    for arrow in edges:
        target = web_room(arrow.target, modules, web)
        if target is None or not is_web(arrow.source, web):
            continue
        source = web_room(arrow.source, modules, web)
        if source != target:
            found.append(f"{arrow.source}:{arrow.line} imports {arrow.target} (room {target})")
    return sorted(set(found))


def test_the_modules_are_found() -> None:
    assert {"scoring.models", "adjudication.engine.rules", "kalooki_tournament.settings"} <= set(MODULES)


def test_no_import_cycle_between_project_modules() -> None:
    assert cycles(all_arrows()) == []


def test_no_module_imports_another_modules_underscore_names() -> None:
    assert underscore_imports(all_arrows()) == []


def test_selectors_never_import_services() -> None:
    wrong = [
        f"{arrow.source}:{arrow.line} imports {arrow.target}"
        for arrow in all_arrows()
        if is_selectors(arrow.source) and is_services(arrow.target)
    ]
    assert wrong == []


def test_no_project_module_is_over_800_lines() -> None:
    long = {
        name: lines
        for name, path in project_files(skip=("migrations", "bench")).items()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LONGEST_MODULE
    }
    assert long == {}


def test_services_selectors_and_printing_never_import_the_web() -> None:
    wrong = [
        f"{arrow.source}:{arrow.line} imports {arrow.target}"
        for arrow in all_arrows()
        if (is_services(arrow.source) or is_selectors(arrow.source) or is_printing(arrow.source))
        and is_web(arrow.target)
    ]
    assert wrong == []


def test_the_web_has_its_rooms() -> None:
    rooms = {web_room(name) for name in MODULES} - {None}
    assert rooms >= {f"{WEB}.{room}" for room in ("public", "direct", "organise", "league", "phone", "pdf")}


def test_no_web_room_imports_another_and_the_shared_modules_import_none() -> None:
    assert room_breaches(all_arrows()) == []


def test_scoring_keeps_at_most_25_top_level_modules() -> None:
    top_level = sorted(path.name for path in (ROOT / "scoring").glob("*.py") if path.name != "__init__.py")
    assert len(top_level) <= MOST_TOP_LEVEL_MODULES, top_level


# --- the checks themselves ----------------------------------------------------------------------


def _modules_of(tmp_path: Path, files: dict[str, str]) -> dict[str, Path]:
    """A small project of its own: {"p/one.py": source, ...} written under tmp_path."""
    modules = {}
    for relative, text in files.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        parts = list(Path(relative).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


@pytest.mark.parametrize(
    ("files", "has_cycle"),
    [
        ({"a.py": "import b", "b.py": "def f():\n    import a"}, True),
        ({"a.py": "from b import x", "b.py": "from a import y"}, True),
        ({"p/__init__.py": "from .one import x", "p/one.py": "from .two import y", "p/two.py": ""}, False),
        ({"p/__init__.py": "from .one import x", "p/one.py": "from p import z"}, True),
        ({"p/__init__.py": "from .one import x", "p/one.py": "from p import two", "p/two.py": ""}, False),
        ({"a.py": "import b", "b.py": "import c", "c.py": "from a import q"}, True),
        # q imports p.two from outside p: p/__init__ runs first, and it imports q through p.one.
        (
            {
                "p/__init__.py": "from .one import x",
                "p/one.py": "import q",
                "p/two.py": "",
                "q.py": "from p.two import y",
            },
            True,
        ),
        (
            {
                "p/__init__.py": "from .one import x",
                "p/one.py": "",
                "p/two.py": "",
                "q.py": "from p.two import y",
            },
            False,
        ),
    ],
)
def test_the_cycle_check_sees_cycles_and_only_cycles(tmp_path: Path, files, has_cycle: bool) -> None:
    assert bool(cycles(all_arrows(_modules_of(tmp_path, files)))) is has_cycle


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("from b import _hidden", True),
        ("from b import visible", False),
        ("import b as m\nm._hidden()", True),
        ("from . import b\nb._hidden", True),
        ("from b import __doc__", False),
    ],
)
def test_the_underscore_check_catches_what_it_should(tmp_path: Path, source: str, caught: bool) -> None:
    modules = _modules_of(tmp_path, {"a.py": source, "b.py": ""})
    assert bool(underscore_imports(all_arrows(modules), modules)) is caught


@pytest.mark.parametrize(
    ("source", "text", "caught"),
    [
        # a room importing another room, by either spelling
        ("s/web/one/views.py", "from ..two import views", True),
        ("s/web/one/views.py", "from s.web.two.views import page", True),
        ("s/web/one/views.py", "import s.web.two", True),
        # a room importing itself, the shared modules or the web package
        ("s/web/one/views.py", "from . import forms", False),
        ("s/web/one/views.py", "from ..shared import lookup", False),
        ("s/web/one/views.py", "from s.web import shared", False),
        # a shared module importing a room, even inside a function
        ("s/web/shared.py", "def f():\n    from .one import views", True),
        ("s/web/shared.py", "from . import other", False),
        # outside the web nothing is a breach here (the services' rule is its own test)
        ("s/services.py", "from s.web.one import views", False),
    ],
)
def test_the_room_check_catches_what_it_should(tmp_path: Path, source: str, text: str, caught: bool) -> None:
    files = {
        "s/__init__.py": "",
        "s/services.py": "",
        "s/web/__init__.py": "",
        "s/web/shared.py": "",
        "s/web/other.py": "",
        "s/web/one/__init__.py": "",
        "s/web/one/views.py": "",
        "s/web/one/forms.py": "",
        "s/web/two/__init__.py": "",
        "s/web/two/views.py": "",
    }
    files[source] = text
    modules = _modules_of(tmp_path, files)
    assert bool(room_breaches(all_arrows(modules), modules, web="s.web")) is caught
