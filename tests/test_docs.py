"""Every document the code cites is in docs/, and says what the citation points at.

- every rule number the code cites (``R14``, ``V3``, ``B7``, ``BV2``, ``NA4``, ``NV1``; a range such as
  ``R4–R8`` cites each number in it) is a rule's own heading in docs/RULES.md (``### R14 — …``), and
  RULES.md has one heading for each number of its families, no more;
- every quoted section (``SCORESHEET.md "Finding codes"``, ``RULES.md, "Worked examples"``,
  ``docs/ARCHITECTURE.md, "The import rule"``) is a heading of that document, and every
  ``docs/ARCHITECTURE.md rule N`` is one of its numbered rules;
- no Python file names a document that is not in the repository;
- every docs/ path and every relative link in the Markdown files exists.

No database: this reads files only.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
THIS = Path(__file__).resolve()

# Where the code cites rules: the apps, the settings, the templates and the tests.
CODE_DIRS = ("scoring", "adjudication", "kalooki_tournament", "templates", "tests")
CODE_SUFFIXES = (".py", ".html")
SKIP_PARTS = {".venv", "node_modules", "__pycache__", "build", "static"}

# The rule families of RULES.md and how many numbers each has.
FAMILIES = {"R": 21, "V": 15, "B": 9, "BV": 8, "NA": 6, "NV": 4}
# Longer prefixes first, so that "BV2" is never read as "B".
PREFIX = "BV|NA|NV|R|V|B"
RULE = re.compile(rf"\b({PREFIX})([1-9][0-9]?)\b")
RULE_RANGE = re.compile(rf"\b({PREFIX})([1-9][0-9]?)\s*[–-]\s*(?:\1)?([1-9][0-9]?)\b")
RULE_HEADING = re.compile(rf"^({PREFIX})([1-9][0-9]?) — ")

# `SCORESHEET.md "Section"`, `SCORESHEET.md, "Section"`, `SCORESHEET.md ("Section"` …
SECTION = re.compile(r"\b(?:docs/)?(RULES|SCORESHEET|ARCHITECTURE)\.md,?\s*\(?\"([^\"\n]+)\"")
ARCHITECTURE_RULE = re.compile(r"\bdocs/ARCHITECTURE\.md,?\s+rule\s+(\d+)")
DOCS_PATH = re.compile(r"(?<![\w/.])docs/([\w./-]*)")
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")

# Documents that are not in the repository: the code cites docs/ instead. Spelt out in parts so that
# this file does not name them either.
ABSENT_DOCUMENTS = tuple("-".join(words) for words in (("HOUSE", "STYLE"), ("TOOLING", "NOTES")))


def code_files() -> Iterator[Path]:
    for folder in CODE_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT).parts
            mine = path.suffix in CODE_SUFFIXES and path.is_file() and path.resolve() != THIS
            if mine and not SKIP_PARTS & set(relative):
                yield path


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def as_one_line(text: str) -> str:
    """A citation may wrap: join lines, dropping the next line's indent and comment mark."""
    return re.sub(r"\s*\n\s*(?:#\s*)?", " ", text)


def cited_rules(text: str) -> set[str]:
    """The rule numbers `text` cites; a range cites every number in it."""
    found = {prefix + number for prefix, number in RULE.findall(text)}
    for prefix, first, last in RULE_RANGE.findall(text):
        found |= {f"{prefix}{n}" for n in range(int(first), int(last) + 1)}
    return found


def headings(path: Path) -> list[str]:
    """The heading texts of a Markdown file, backticks removed, code blocks skipped."""
    found, fenced = [], False
    for line in read(path).splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"^#{1,6}\s+(.+?)\s*$", line)):
            found.append(match.group(1).replace("`", ""))
    return found


def rule_headings() -> Counter[str]:
    return Counter(
        prefix + number
        for heading in headings(DOCS / "RULES.md")
        if (match := RULE_HEADING.match(heading))
        for prefix, number in [match.groups()]
    )


def names_a_heading(section: str, document: str) -> bool:
    """`section` is a heading of `document`, or begins one: "Finding codes" names "Finding codes (stable)"."""
    section = section.replace("`", "")  # markup, as in the headings: ``north-american`` is north-american
    titles = headings(DOCS / f"{document}.md")
    return any(title == section or title.startswith(f"{section} ") for title in titles)


def where(path: Path) -> str:
    return str(path.relative_to(ROOT))


# --- the documents and the code's citations -----------------------------------------------------


def test_the_documents_are_there() -> None:
    for name in ("README.md", "RULES.md", "SCORESHEET.md", "ARCHITECTURE.md"):
        assert (DOCS / name).is_file(), name


def test_rules_md_has_one_heading_for_each_rule_number() -> None:
    expected = {f"{prefix}{n}" for prefix, count in FAMILIES.items() for n in range(1, count + 1)}
    found = rule_headings()
    assert set(found) == expected
    assert [rule for rule, times in found.items() if times > 1] == []


def test_every_rule_the_code_cites_is_a_heading_in_rules_md() -> None:
    known = set(rule_headings())
    missing = sorted(
        f"{where(path)}: {rule}" for path in code_files() for rule in cited_rules(read(path)) - known
    )
    assert missing == []


def test_every_quoted_section_is_a_heading_of_its_document() -> None:
    sources = [*code_files(), *sorted(DOCS.glob("*.md")), ROOT / "README.md"]
    missing = sorted(
        f'{where(path)}: {document}.md "{section}"'
        for path in sources
        for document, section in SECTION.findall(as_one_line(read(path)))
        if not names_a_heading(section, document)
    )
    assert missing == []


def test_every_architecture_rule_cited_is_numbered_there() -> None:
    titles = headings(DOCS / "ARCHITECTURE.md")
    numbered = {int(match.group(1)) for title in titles if (match := re.match(r"Rule (\d+):", title))}
    assert numbered == set(range(1, max(numbered) + 1))
    missing = sorted(
        f"{where(path)}: rule {number}"
        for path in code_files()
        for number in ARCHITECTURE_RULE.findall(as_one_line(read(path)))
        if int(number) not in numbered
    )
    assert missing == []


def test_no_python_file_names_a_document_that_is_not_in_the_repository() -> None:
    named = sorted(
        f"{where(path)}: {document}"
        for path in ROOT.rglob("*.py")
        if not SKIP_PARTS & set(path.relative_to(ROOT).parts)
        for document in ABSENT_DOCUMENTS
        if document in read(path)
    )
    assert named == []


def test_every_docs_path_cited_exists() -> None:
    sources = [*code_files(), ROOT / "README.md", ROOT / "Makefile", ROOT / "pyproject.toml"]
    missing = sorted(
        f"{where(path)}: docs/{cited}"
        for path in sources
        if path.is_file()
        for cited in DOCS_PATH.findall(read(path))
        if not (DOCS / cited.rstrip(".,:;")).exists()
    )
    assert missing == []


def test_every_relative_link_in_the_markdown_exists() -> None:
    missing = sorted(
        f"{where(path)}: {target}"
        for path in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
        for target in MARKDOWN_LINK.findall(read(path))
        if not re.match(r"[a-z]+:|#", target) and not (path.parent / target.split("#")[0]).exists()
    )
    assert missing == []


# --- the readers themselves ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rules"),
    [
        ("# R14: opened players too", {"R14"}),
        ("the contract (R4–R8, R10)", {"R4", "R5", "R6", "R7", "R8", "R10"}),
        ("RULES.md B1–B9, BV1–BV8", {f"B{n}" for n in range(1, 10)} | {f"BV{n}" for n in range(1, 9)}),
        ('rule="V7"', {"V7"}),
        ("NA2, NA3 and NV1", {"NA2", "NA3", "NV1"}),
        ("PR2, R2D2, B2B, v3, kalooki-sheet/1, A4", set()),
    ],
)
def test_the_rule_reader_sees_citations_and_only_citations(text: str, rules: set[str]) -> None:
    assert cited_rules(text) == rules


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('(SCORESHEET.md, "Finding codes")', [("SCORESHEET", "Finding codes")]),
        ('SCORESHEET.md "rules"', [("SCORESHEET", "rules")]),
        ('(SCORESHEET.md ("The validator\'s answer", exit 2)', [("SCORESHEET", "The validator's answer")]),
        ('(SCORESHEET.md, "Standings as\n    # data")', [("SCORESHEET", "Standings as data")]),
        ('docs/ARCHITECTURE.md, "The import rule"', [("ARCHITECTURE", "The import rule")]),
        ("SCORESHEET.md's example", []),
        ('SCORESHEET.md: the shared codes "where they apply"', []),
    ],
)
def test_the_section_reader_sees_quoted_sections(text: str, found: list[tuple[str, str]]) -> None:
    assert SECTION.findall(as_one_line(text)) == found
