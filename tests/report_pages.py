"""The HTML report's links as the tests read them: every href/src of a page, and those pointing at no file."""

from __future__ import annotations

import html.parser
from pathlib import Path
from urllib.parse import unquote

from script_modules import load_script


class _LinkCollector(html.parser.HTMLParser):
    """Collect the href/src values of an HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.links += [v for k, v in attrs if k in ("href", "src") and v]


def page_links(page: Path) -> list[str]:
    """Return every href/src of an HTML page, parsed (not regex-matched)."""
    collector = _LinkCollector()
    collector.feed(page.read_text(encoding="utf-8"))
    return collector.links


def broken_links(page: Path) -> list[str]:
    """Return the relative links of an HTML page whose target file does not exist."""
    relative = load_script("run_notebooks").is_relative_link
    return [u for u in page_links(page) if relative(u) and not (page.parent / unquote(u.partition("#")[0])).exists()]
