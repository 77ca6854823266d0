"""Provider batch files: export pending units as OpenAI Batch API JSONL, import the results.

``custom_id`` is the store key, so an import is idempotent and resumable: units already ``ok`` in
the store are neither exported again nor overwritten, and partial result files can be imported
as they arrive. Request bodies carry no credentials.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from ajb_utils.judge import parse as P
from ajb_utils.judge.conditions import Context, Unit


def export_batch(units: list[Unit], ctx: Context, backend: Any, existing: dict[str, str], path: Path,
                 retry_errors: bool = False) -> int:
    """Write one Batch API request line per pending unit to `path`; return the line count."""
    from ajb_utils.judge.export import atomic_write_text

    lines = []
    for u in units:
        st = existing.get(u.key)
        if st == P.OK or (st is not None and not retry_errors):
            continue
        try:
            msgs = ctx.messages(u)
        except KeyError:  # deref judge call whose reference is not derived yet
            continue
        body = backend.request_preview(msgs, json_reply=u.kind == "judge")
        body.pop("extra_body", None)
        lines.append(json.dumps({"custom_id": u.key, "method": "POST", "url": "/v1/chat/completions", "body": body}))
    atomic_write_text(Path(path), "\n".join(lines) + ("\n" if lines else ""))
    return len(lines)


def import_batch(path: Path, units: list[Unit], store: Any) -> Counter:
    """Parse a Batch API output JSONL into the store (idempotent); return statuses imported."""
    from ajb_utils.judge.prompts import messages_hash  # noqa: F401  (kept for symmetry)
    from ajb_utils.judge.runner import _parse_unit

    by_key = {u.key: u for u in units}
    c: Counter = Counter()
    rows: list[dict[str, Any]] = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        u = by_key.get(rec.get("custom_id"))
        if u is None:
            c["unknown_key"] += 1
            continue
        resp = (rec.get("response") or {})
        body = resp.get("body") or {}
        row = {"key": u.key, "run_hash": u.run_hash, "kind": u.kind, "condition": u.condition, "item_id": u.item_id,
               "generator": u.generator, "difficulty": u.difficulty, "unit": u.unit, "prompt_hash": u.prompt_hash,
               "attempts": 1}
        if rec.get("error") or resp.get("status_code", 200) >= 400 or not body.get("choices"):
            row.update(status=P.API_ERROR, error=json.dumps(rec.get("error") or body.get("error"))[:500])
        else:
            ch = body["choices"][0]
            msg = ch.get("message") or {}
            reasoning = msg.get("reasoning_content") or msg.get("reasoning")
            status, parsed = _parse_unit(u.kind, msg.get("content"), reasoning, ch.get("finish_reason"), msg.get("refusal"))
            usage = body.get("usage") or {}
            row.update(status=status, raw=msg.get("content"), reasoning=reasoning, finish_reason=ch.get("finish_reason"),
                       parsed=parsed, model=body.get("model"), fingerprint=body.get("system_fingerprint"),
                       prompt_tokens=usage.get("prompt_tokens"), completion_tokens=usage.get("completion_tokens"))
        rows.append(row)
        c[row["status"]] += 1
    store.put_many(rows)
    return c
