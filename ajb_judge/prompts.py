"""Prompt templates as data files: loading, literal placeholder substitution, hashing.

Templates live in ``ajb_utils/resources/prompts`` (see ATTRIBUTION.md there). Placeholders are
replaced literally, never with ``str.format``: the authors' templates contain raw JSON braces.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from ajb_utils.paths import RESOURCES_DIR
from ajb_utils.schema import METRICS

PROMPTS_DIR: Path = RESOURCES_DIR / "prompts"

# condition -> template file (user message; these judges get no system message, as in W.2/W.3)
CONDITION_TEMPLATES: dict[str, str] = {
    "with_gt": "judge_with_gt.txt",
    "without_gt": "judge_no_gt.txt",
    "without_gt_05": "judge_no_gt_0.5default.txt",
    "corrupted_gt": "judge_with_gt.txt",
    "freeform": "judge_freeform.txt",
    "deref": "judge_with_gt.txt",
    "prometheus": "prometheus_user.txt",
}
# conditions whose prompt carries a reference in the {expected_responses} slot
REFERENCE_CONDITIONS: frozenset[str] = frozenset({"with_gt", "corrupted_gt", "freeform", "deref", "prometheus"})
PROMETHEUS_SYSTEM = "prometheus_system.txt"
DERIVER_TEMPLATE = "deref_deriver.txt"
REWRITE_TEMPLATE = "rewrite_meta_judge.txt"
GENERATOR_SYSTEM = "generator_system.txt"
GENERATOR_USER = "generator_user.txt"


def _strip_header_comments(text: str) -> str:
    """Return `text` without the leading '# ...' note lines of the ablation templates."""
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines) and lines[i].startswith("# "):
        i += 1
    if i == 0:
        return text
    while i < len(lines) and not lines[i].strip():
        i += 1
    return "".join(lines[i:])


# every template file's text (header notes stripped), read once as this module loads: they are package data
TEMPLATES: dict[str, str] = {
    p.name: _strip_header_comments(p.read_text(encoding="utf-8")) for p in sorted(PROMPTS_DIR.glob("*.txt"))
}


def load_template(name: str) -> str:
    """Return the text of one template file (header notes stripped); FileNotFoundError naming an unknown one."""
    if name not in TEMPLATES:
        raise FileNotFoundError(f"no prompt template {name!r} in {PROMPTS_DIR}")
    return TEMPLATES[name]


def template_hash(*names: str) -> str:
    """Return a short sha256 of the named templates' texts (part of every verdict's provenance)."""
    h = hashlib.sha256()
    for n in names:
        h.update(n.encode())
        h.update(b"\0")
        h.update(load_template(n).encode())
    return h.hexdigest()[:16]


def condition_template_names(condition: str, metric: str | None = None) -> tuple[str, ...]:
    """Return the template files one condition's prompt is built from."""
    if condition == "prometheus":
        m = metric or METRICS[0]
        return (PROMETHEUS_SYSTEM, CONDITION_TEMPLATES["prometheus"], f"prometheus_rubric_{m}.txt")
    if condition == "deref":
        return (CONDITION_TEMPLATES["deref"], DERIVER_TEMPLATE)
    return (CONDITION_TEMPLATES[condition],)


def render(template: str, **values: str) -> str:
    """Return `template` with each of its `{key}` slots replaced by that value, in one pass (a value is never searched)."""
    if not values:
        return template
    slots = re.compile("|".join(re.escape("{" + k + "}") for k in values))
    return slots.sub(lambda m: values[m.group(0)[1:-1]], template)


def tools_json(tools: list[dict[str, Any]]) -> str:
    """Return the bench's tool list rendered as the OpenAI/BFCL-style JSON the judges saw."""
    spec = [
        {
            "type": "function",
            "function": {
                "name": t.get("name"),
                "description": t.get("description", ""),
                "parameters": {
                    "type": "dict",
                    "properties": t.get("properties") or {},
                    "required": list(t.get("required") or []),
                },
            },
        }
        for t in tools
    ]
    return dumps_indent2(spec)


def calls_json(calls: list[dict[str, Any]] | None) -> str:
    """Return a call list rendered as OpenAI-style tool calls JSON."""
    spec = [
        {"type": "function", "function": {"name": c.get("name"), "arguments": c.get("arguments", {})}}
        for c in (calls or [])
    ]
    return dumps_indent2(spec)


def dumps_indent2(obj: Any) -> str:
    """Return ``json.dumps(obj, ensure_ascii=False, indent=2, default=str)``: how a prompt shows JSON."""
    return json.dumps(obj, ensure_ascii=False, indent=2, default=str)


Messages = list[dict[str, str]]


def judge_messages(
    condition: str,
    query: str,
    tools_text: str,
    calls_text: str,
    reference_text: str | None,
    metric: str | None = None,
) -> Messages:
    """Return the chat messages of one judge call (reference_text unused without a reference)."""
    values = {
        "user_message": query,
        "available_tools": tools_text,
        "generated_tool_calls": calls_text,
    }
    if condition in REFERENCE_CONDITIONS:
        values["expected_responses"] = reference_text or "[]"
    if condition == "prometheus":
        values["rubric"] = load_template(f"prometheus_rubric_{metric}.txt").strip()
        return [
            {"role": "system", "content": load_template(PROMETHEUS_SYSTEM).strip()},
            {"role": "user", "content": render(load_template(CONDITION_TEMPLATES["prometheus"]), **values)},
        ]
    return [{"role": "user", "content": render(load_template(CONDITION_TEMPLATES[condition]), **values)}]


def deriver_messages(query: str, tools_text: str) -> Messages:
    """Return the DeRef deriver's messages (query and schemas only, never the candidate)."""
    text = render(load_template(DERIVER_TEMPLATE), user_message=query, available_tools=tools_text)
    return [{"role": "user", "content": text}]


def generator_messages(system_prompt: str, query: str, tools_text: str) -> Messages:
    """Return the W.1 generator messages (system + user)."""
    system = render(load_template(GENERATOR_SYSTEM), system_prompt=system_prompt or "", available_tools=tools_text)
    user = render(load_template(GENERATOR_USER), user_message=query)
    return [{"role": "system", "content": system}, {"role": "user", "content": user.strip()}]


def rewrite_messages(q_easy: str, q_medium: str, q_hard: str, tools_text: str, gt_text: str) -> Messages:
    """Return the Appendix N meta-judge messages for one record's three query variants."""
    text = render(
        load_template(REWRITE_TEMPLATE),
        query_easy=q_easy,
        query_medium=q_medium,
        query_hard=q_hard,
        available_tools=tools_text,
        expected_responses=gt_text,
    )
    return [{"role": "user", "content": text}]
