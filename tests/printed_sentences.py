"""What an executed notebook printed, checked: no "nan"/"None"/empty heading in its printed lines,
and what it says the sample planted is what the loaded card holds (issue 49)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ajb_utils import takeaways as tk

NOT_A_NUMBER = re.compile(r"(?<![\w-])[-+]?(?i:nan)(?![\w-])|\bNone\b(?! of\b)|\bNaT\b|<NA>|Empty DataFrame")
CARD_HEAD = re.compile(r"^The loaded sample's card \(variant (?P<variant>[^,]+), knobs in `[^`]*`\):$")


def stream_text(cell: Mapping[str, Any]) -> str:
    """Return everything a code cell printed (its stream outputs, in order)."""
    return "".join("".join(o.get("text", "")) for o in cell.get("outputs", []) if o.get("output_type") == "stream")


def output_lines(cell: Mapping[str, Any]) -> list[str | None]:
    """Return a code cell's outputs as printed lines, None standing for a displayed table or figure."""
    out: list[str | None] = []
    for o in cell.get("outputs", []):
        out += "".join(o.get("text", "")).splitlines() if o.get("output_type") == "stream" else [None]
    return out


def empty_headings(lines: list[str | None]) -> list[str]:
    """Return the printed lines that end in ':' (a heading) with nothing under them (a blank line or the
    end of the cell's outputs)."""
    return [
        ln
        for k, ln in enumerate(lines)
        if ln is not None and ln.rstrip().endswith(":") and (k + 1 == len(lines) or lines[k + 1] == "")
    ]


def empty_tables(cell: Mapping[str, Any]) -> list[str]:
    """Return the first line of each table a code cell displayed with no rows (pandas' 'Empty DataFrame')."""
    shown = ["".join(o.get("data", {}).get("text/plain", "")) for o in cell.get("outputs", []) if "data" in o]
    return [t.splitlines()[1] for t in shown if t.startswith("Empty DataFrame") and "\n" in t]


def bad_lines(nb: Mapping[str, Any]) -> list[tuple[int, str, str]]:
    """Return (cell index, why, line) for each printed line that shows "nan", "None", an empty frame or an
    empty heading, and each displayed table without rows."""
    out = []
    for k, cell in enumerate(nb["cells"]):
        out += [(k, "empty table", cols) for cols in empty_tables(cell)] if cell["cell_type"] == "code" else []
        text = stream_text(cell) if cell["cell_type"] == "code" else ""
        out += [(k, "not a number", ln) for ln in text.splitlines() if NOT_A_NUMBER.search(ln)]
        out += [(k, "empty heading", ln) for ln in empty_headings(output_lines(cell))] if text else []
    return out


def planted_mismatches(nb: Mapping[str, Any], planted: Mapping[str, Any]) -> list[tuple[int, str]]:
    """Return (cell index, line) for each printed planted description that the card `planted` does not
    give: its heading names another variant, or a bullet under it is none of `takeaways.planted_text`'s."""
    expected = set(tk.planted_text(planted, tk.PLANTED_TOPICS).splitlines()[1:])
    out = []
    for k, cell in enumerate(nb["cells"]):
        lines = stream_text(cell).splitlines() if cell["cell_type"] == "code" else []
        for i, ln in enumerate(lines):
            head = CARD_HEAD.match(ln)
            if not head:
                continue
            if head["variant"] != planted.get("variant"):
                out.append((k, ln))
            under = []
            for b in lines[i + 1 :]:
                if not b.startswith("- "):
                    break
                under.append(b)
            out += [(k, b) for b in under if b not in expected] + ([(k, ln)] if not under else [])
    return out
