"""House rule: one place knows which game is played.

Outside the engine (`adjudication/engine/`), only `scoring/games.py` — and the modules named in
`EXCEPTIONS` (at most one URL/view mapping module; none today) — may branch on a game family:

- compare with a family's or a preset's name (`== "british"`, `!= "jamaican"`, `in ("british-501", …)`,
  `"north-american"`, `.startswith("british")`, `case "british":`) or compare a `family` at all
  (`family == …`, `event.family != …`);
- test an engine ruleset class (`isinstance(rules, BritishRuleSet)`, `issubclass(…, RuleSet)`);
- import a family's engine modules (`adjudication.engine.british_*`, `jamaican_*`, `north_american_*`),
  except where `FAMILY_IMPORTS` says why a module needs each family's own engine function (the input
  readers, the demo's simulators): importing a reader is not a branch, and those modules branch nowhere.

Everyone else asks the event's game (`scoring.games`) what to do, and never which game it is.

Outside the rule: tests, migrations, `scoring/bench/`, and data — a preset's name passed as a value
(`load_demo` creating an event with `ruleset_preset="british"`, a model field's default, a management
command's option choices) is not a branch; comparing with it or testing a class is. Templates are read
too: `{% if event.family == "british" %}` is a branch like any other.

Read as text and as Python's syntax tree: no database, nothing imported.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = "adjudication/engine/"
SEAM = "scoring/games.py"
# The one URL/view mapping module that may dispatch on a game, when there is one (its path).
EXCEPTIONS: frozenset[str] = frozenset()
# Modules that import a family's engine modules, and why; everything else in them is held to the rule.
FAMILY_IMPORTS: dict[str, str] = {
    "scoring/deal_input.py": "the one way in for a deal: each family's hands are read by its own reader",
    "scoring/management/commands/load_demo.py": "the demo's games are made by each family's simulator",
}
OUTSIDE = ("tests/", "scoring/bench/", ".venv/", "node_modules/")

FAMILY_WORD = r"(?:jamaican|british|north[-_ ]?american)"
FAMILY_NAME = re.compile(rf"^{FAMILY_WORD}(?:[-_].*)?$", re.IGNORECASE)
FAMILY_MODULE = re.compile(rf"^adjudication\.engine\.{FAMILY_WORD}", re.IGNORECASE)
FAMILY_MODULE_NAME = re.compile(rf"^{FAMILY_WORD}", re.IGNORECASE)
RULESET_CLASS = re.compile(r"^(?:British|Jamaican|NorthAmerican)\w*$|^\w*RuleSet$")
TEMPLATE_BRANCH = re.compile(
    rf"""\bfamily\s*(?:==|!=|\bin\b|\bnot\s+in\b)|(?:==|!=|\bin\b)\s*["']{FAMILY_WORD}[^"']*["']"""
    rf"""|["']{FAMILY_WORD}[^"']*["']\s*(?:==|!=)""",
    re.IGNORECASE,
)


def project_files(suffixes: tuple[str, ...]) -> Iterator[Path]:
    """The project's own packages (a folder at the top with an __init__.py) and its templates."""
    packages = [path.parent for path in ROOT.glob("*/__init__.py")]
    folders = [*packages, ROOT / "templates"]
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.suffix not in suffixes or not path.is_file():
                continue
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(OUTSIDE) or "/migrations/" in relative or "__pycache__" in relative:
                continue
            if relative.startswith(ENGINE) or relative == SEAM or relative in EXCEPTIONS:
                continue
            yield path


def _family_literal(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and FAMILY_NAME.match(node.value):
        return node.value
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        for element in node.elts:
            found = _family_literal(element)
            if found:
                return found
    return None


def _names_family(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id == "family" or node.id.endswith("_family")
    if isinstance(node, ast.Attribute):
        return node.attr == "family" or node.attr.endswith("_family")
    if isinstance(node, ast.Call):
        return _names_family(node.func)
    return False


def _is_none_test(node: ast.Compare) -> bool:
    """`family is None`: whether there is a family at all, not which one."""
    return all(isinstance(op, ast.Is | ast.IsNot) for op in node.ops) and any(
        isinstance(operand, ast.Constant) and operand.value is None for operand in node.comparators
    )


def _class_names(node: ast.AST) -> Iterator[str]:
    if isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, ast.Attribute):
        yield node.attr
    elif isinstance(node, ast.Tuple):
        for element in node.elts:
            yield from _class_names(element)
    elif isinstance(node, ast.BinOp):  # A | B
        yield from _class_names(node.left)
        yield from _class_names(node.right)


def python_breaches(source: str, filename: str = "<source>") -> Iterator[tuple[int, str]]:
    tree = ast.parse(source, filename=filename)
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            literal = next((found for found in map(_family_literal, operands) if found), None)
            if literal:
                yield node.lineno, f"compares with {literal!r}"
            elif any(_names_family(operand) for operand in operands) and not _is_none_test(node):
                yield node.lineno, "compares a game family"
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in ("isinstance", "issubclass") and len(node.args) == 2:
                tested = [name for name in _class_names(node.args[1]) if RULESET_CLASS.match(name)]
                if tested:
                    yield node.lineno, f"{func.id}(…, {' | '.join(tested)})"
            elif isinstance(func, ast.Attribute) and func.attr in ("startswith", "endswith"):
                literal = next((found for found in map(_family_literal, node.args) if found), None)
                if literal:
                    yield node.lineno, f".{func.attr}({literal!r})"
        elif isinstance(node, ast.Match):
            if _names_family(node.subject):
                yield node.lineno, "matches on a game family"
            for case in node.cases:
                for pattern in ast.walk(case.pattern):
                    if isinstance(pattern, ast.MatchValue) and _family_literal(pattern.value):
                        yield pattern.lineno, f"case {_family_literal(pattern.value)!r}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if FAMILY_MODULE.match(alias.name):
                    yield node.lineno, f"imports {alias.name}"
        elif isinstance(node, ast.ImportFrom) and node.module:
            if FAMILY_MODULE.match(node.module):
                yield node.lineno, f"imports {node.module}"
            elif node.module == "adjudication.engine":
                for alias in node.names:
                    if FAMILY_MODULE_NAME.match(alias.name):
                        yield node.lineno, f"imports adjudication.engine.{alias.name}"


def template_breaches(text: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(text.splitlines(), start=1):
        for tag in re.findall(r"{%.*?%}", line):
            if TEMPLATE_BRANCH.search(tag):
                yield number, f"template branches on a game family: {tag.strip()}"


def breaches() -> list[str]:
    found = []
    for path in project_files((".py",)):
        source = path.read_text(encoding="utf-8")
        relative = path.relative_to(ROOT).as_posix()
        found += [
            f"{relative}:{line}: {what}"
            for line, what in python_breaches(source, str(path))
            if not (relative in FAMILY_IMPORTS and what.startswith("imports "))
        ]
    for path in project_files((".html", ".txt", ".svg", ".xml")):
        text = path.read_text(encoding="utf-8")
        found += [f"{path.relative_to(ROOT)}:{line}: {what}" for line, what in template_breaches(text)]
    return sorted(set(found), key=lambda text: (text.split(":")[0], int(text.split(":")[1])))


def test_the_reader_finds_what_it_looks_for():
    """The rule's reader on examples, so a rule that finds nothing means a clean tree, not a blind one."""
    source = """
from adjudication.engine.british_rules import BritishRuleSet
from adjudication.engine import british_game, rules
import adjudication.engine.north_american_rules
if event.family == "british": pass
if preset in ("british-501", "jamaican"): pass
if "north-american" != family: pass
if game.family != other.family: pass
if isinstance(rules, BritishRuleSet | NorthAmericanRuleSet): pass
if preset.startswith("british"): pass
match event.family:
    case "british": pass
Event.objects.create(ruleset_preset="british")  # data, not a branch
if kind == "overcall": pass
if family is not None: pass
"""
    tree_lines = sorted(line for line, _ in python_breaches(source))
    assert tree_lines == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    assert list(template_breaches('{% if event.family == "british" %}x{% endif %}'))
    assert list(template_breaches("{% if preset != 'jamaican' %}x{% endif %}"))
    assert not list(template_breaches('{% if page.order %}<p class="british-hand">{% endif %}'))


def test_each_allowed_import_is_still_needed():
    """An allowance nobody uses any more goes, so it cannot hide a new import later."""
    for relative in FAMILY_IMPORTS:
        source = (ROOT / relative).read_text(encoding="utf-8")
        assert any(what.startswith("imports ") for _line, what in python_breaches(source)), relative


def test_only_the_games_seam_branches_on_a_game_family():
    found = breaches()
    for line in found:
        print(line)
    assert not found, "branches on a game family outside scoring/games.py:\n" + "\n".join(found)
