"""Pages are valid HTML: htmx is driven by `data-hx-*` attributes (htmx reads both spellings), because a bare
`hx-post` is not an HTML attribute and the W3C checker reports every one of them."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
# An attribute inside a tag whose name starts with hx- (not data-hx-, not part of a longer name).
BARE_HTMX = re.compile(r"(?<![\w-])hx-[\w:.-]+(?=\s*=|\s|/?>|\{%)")
TAG = re.compile(r"<[A-Za-z][^<>]*>", re.S)


def project_templates() -> list[Path]:
    folders = [Path(folder) for engine in settings.TEMPLATES for folder in engine.get("DIRS", ())]
    folders += [path for path in ROOT.glob("*/templates") if ".venv" not in path.parts]
    return sorted({path for folder in folders for path in folder.rglob("*") if path.is_file()})


def bare_htmx_attributes(text: str) -> list[str]:
    return [found for tag in TAG.findall(text) for found in BARE_HTMX.findall(tag)]


def test_the_scan_finds_bare_attributes_and_passes_data_ones():
    assert bare_htmx_attributes('<form hx-post="/x" data-hx-target="main">') == ["hx-post"]
    assert bare_htmx_attributes('<div id="a"{% if oob %} hx-swap-oob="true"{% endif %}>') == ["hx-swap-oob"]
    assert bare_htmx_attributes("<div\n  hx-trigger='load'\n  hx-boost>") == ["hx-trigger", "hx-boost"]
    assert bare_htmx_attributes('<div data-hx-post="/x" class="htmx-request">') == []


def test_no_template_emits_an_hx_attribute_outside_data():
    templates = project_templates()
    assert len(templates) > 50, "the scan must see the project's templates"
    offending = {
        str(path.relative_to(ROOT)): found
        for path in templates
        if (found := bare_htmx_attributes(path.read_text(encoding="utf-8")))
    }
    assert offending == {}, "write data-hx-* (htmx reads it; a bare hx-* is invalid HTML)"


def test_no_python_code_builds_an_hx_attribute_outside_data():
    sources = [
        path
        for folder in ("scoring", "adjudication", "kalooki_tournament")
        for path in (ROOT / folder).rglob("*.py")
    ]
    offending = {
        str(path.relative_to(ROOT)): found
        for path in sources
        if (found := bare_htmx_attributes(path.read_text(encoding="utf-8")))
    }
    assert offending == {}
