"""Provider batch files: export pending units as OpenAI Batch API JSONL, import the results.

``custom_id`` is the store key, so an import is idempotent and resumable: units already ``ok`` in
the store are neither exported again nor overwritten, and partial result files can be imported
as they arrive. Identical requests (same run, same messages) are exported once; after an import,
``share_identical`` gives the other units the answer (recorded with ``reused_from``). Request
bodies carry no credentials, and they carry every decoding field that
defines the run (temperature, top_p, seed, max tokens -- as ``max_completion_tokens`` for
reasoning models --, reasoning effort, thinking as ``chat_template_kwargs``, the extra body).

Exports are split at the provider's per-file limits (OpenAI Batch API: 50,000 requests and
200 MB per input file): ``batch_in.jsonl``, ``batch_in.part2.jsonl``, ... The same JSONL is the
input format of vLLM's offline batch runner (``python -m vllm.entrypoints.openai.run_batch``),
whose output file imports here unchanged.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from ajb_judge import parse as P
from ajb_judge.conditions import Context, Unit

MAX_REQUESTS_PER_FILE = 50_000
MAX_BYTES_PER_FILE = 200 * 1024 * 1024
_REASONING_MODEL = re.compile(r"^(o\d|gpt-5)", re.I)


def batch_body(backend: Any, messages: list[dict[str, str]], json_reply: bool) -> dict[str, Any]:
    """Return the full request body of one call (as a live call sends it), max_completion_tokens for reasoning models."""
    body = backend.request_body(messages, json_reply=json_reply)
    reasoning = bool(backend.decoding.reasoning_effort) or bool(_REASONING_MODEL.match(str(backend.model)))
    if reasoning and "max_tokens" in body:  # reasoning models reject max_tokens
        body["max_completion_tokens"] = body.pop("max_tokens")
    return body


def part_path(path: Path, i: int) -> Path:
    """Return the i-th (1-based) file of a split export: path itself, then <stem>.part<i><suffix>."""
    path = Path(path)
    return path if i == 1 else path.with_name(f"{path.stem}.part{i}{path.suffix}")


def pending_requests(
    units: list[Unit],
    ctx: Context,
    backend: Any,
    existing: dict[str, str],
    retry_errors: bool = False,
    retry_permanent: bool = False,
    retry_ambiguous: bool = False,
) -> list[tuple[Unit, dict[str, Any]]]:
    """Return (unit, request body) per distinct pending request: identical requests once (see share_identical)."""
    from ajb_judge.conditions import request_hash
    from ajb_judge.runner import _pending

    out: list[tuple[Unit, dict[str, Any]]] = []
    sent: set[tuple[str, str, str]] = set()
    for u in _pending(units, existing, retry_errors, retry_permanent, retry_ambiguous):
        ident = (u.run_hash, u.kind, request_hash(u))
        if ctx.ready(u) and ident not in sent:  # a deref judge call waits for its derived reference
            sent.add(ident)
            out.append((u, batch_body(backend, ctx.messages(u), u.kind == "judge")))
    return out


def write_requests(
    requests: list[tuple[Unit, dict[str, Any]]],
    path: Path,
    max_requests: int = MAX_REQUESTS_PER_FILE,
    max_bytes: int = MAX_BYTES_PER_FILE,
) -> list[tuple[Path, int]]:
    """Write one Batch API request line per request, split at the per-file limits; return [(file, lines)]."""
    from ajb_judge.export import atomic_write_text

    parts: list[tuple[Path, int]] = []
    buf: list[str] = []
    size = 0

    def flush() -> None:
        """Write the current part."""
        nonlocal buf, size
        p = part_path(path, len(parts) + 1)
        atomic_write_text(p, "".join(buf))
        parts.append((p, len(buf)))
        buf, size = [], 0

    for u, body in requests:
        req = {"custom_id": u.key, "method": "POST", "url": "/v1/chat/completions", "body": body}
        line = json.dumps(req, ensure_ascii=False) + "\n"
        n = len(line.encode("utf-8"))
        if n > max_bytes:
            raise ValueError(f"one request ({u.key}) is {n} bytes, over the {max_bytes}-byte file limit")
        if buf and (len(buf) >= max_requests or size + n > max_bytes):
            flush()
        buf.append(line)
        size += n
    if buf or not parts:
        flush()
    _remove_stale_parts(Path(path), len(parts))
    return parts


def _remove_stale_parts(path: Path, kept: int) -> None:
    """Remove part files beyond the `kept` ones (left by an earlier, larger export)."""
    for old in path.parent.glob(f"{path.stem}.part*{path.suffix}"):
        num = old.name[len(path.stem) + 5 : len(old.name) - len(path.suffix)]
        if num.isdigit() and int(num) > kept:
            old.unlink()


def reserve_requests(
    requests: list[tuple[Unit, dict[str, Any]]],
    store: Any,
    refuse: Any = None,
    prices: tuple[float | None, float | None] = (None, None),
    file: Path | None = None,
) -> tuple[list[int], str | None]:
    """Reserve each request's tokens in the store, in order, until `refuse` stops it; return (ids, why it stopped).

    A request reserves what a call of the same body would (runner.prompt_reservation and
    completion_reservation): its import replaces the reservation by the usage it reports. A request
    written again to the same `file` replaces that file's reservation of it (one file, run once).
    """
    from ajb_judge.runner import completion_reservation, prompt_reservation

    sizes = [(u.run_hash, u.key, prompt_reservation(b), completion_reservation(b)) for u, b in requests]
    owner = f"file:{Path(file).resolve()}" if file is not None else None  # written again: reserved once
    return store.reserve(sizes, refuse, "batch_reserved", prices, owner)


def share_identical(units: list[Unit], ctx: Context, store: Any, decoding: Any) -> int:
    """Answer units not yet ok from an ok stored reply to the identical request (reused_from); return the count.

    An export sends each distinct request once; after an import this gives the other units
    (e.g. the same plan from two generators) their answer, recorded as reused, not paid.
    """
    from ajb_judge.runner import _group_identical, _Stats

    existing = store.statuses({u.run_hash for u in units})
    ready = [u for u in units if existing.get(u.key) != P.OK and ctx.ready(u)]
    stats = _Stats()
    _group_identical(ready, ctx, store, decoding, stats)
    return stats.reused


def import_batch(
    path: Path,
    units: list[Unit],
    store: Any,
    problems: list[str] | None = None,
    ctx: Context | None = None,
    prices: tuple[float | None, float | None] = (None, None),
) -> Counter:
    """Parse a Batch API output JSONL into the store (idempotent); return counts by status.

    Besides statuses the counts hold ``noop_already_ok`` (a result for a unit already ok in the
    store: not overwritten), ``noop_already_imported`` (the very same line was imported before,
    from this file or another), ``noop_duplicate`` (the same custom_id again in the file: the
    first is kept), ``unknown_key`` (a custom_id that names no request of this run; of them
    ``unknown_key_paid`` lines were billed, for ``unknown_key_tokens`` tokens: nothing of them is
    stored or booked) and ``corrupt_line`` (unreadable lines are reported in `problems` and
    skipped; the rest is imported). Every other line's usage is booked, the no-ops included
    (a second output of the same requests was paid too); only a line imported before is not.
    """
    by_key = {u.key: u for u in units}
    existing = store.statuses({u.run_hash for u in units})
    c: Counter = Counter()
    rows: list[dict[str, Any]] = []
    paid: list[dict[str, Any]] = []
    line_hashes: list[str] = []
    seen: set[str] = set()
    problems = [] if problems is None else problems
    lines, hashes = _read_lines(path)
    done_before = store.imported(hashes)
    for (lineno, line), lh in zip(lines, hashes, strict=True):
        try:
            rec = json.loads(line)
            if not isinstance(rec, dict):
                raise ValueError("not a JSON object")
        except ValueError as exc:
            c["corrupt_line"] += 1
            problems.append(f"{path}:{lineno}: corrupt line skipped ({str(exc)[:80]})")
            continue
        key = rec.get("custom_id")
        u = by_key.get(key)
        resp = rec.get("response") or {}
        body = resp.get("body") if "body" in resp else resp  # OpenAI/vLLM: response.body; some tools: response
        body = body if isinstance(body, dict) else {}
        billed = _billed(rec, resp, body)
        usage = body.get("usage") or {}
        if u is None:
            c.update(unknown_key=1, unknown_key_paid=int(billed), unknown_key_tokens=_tokens(usage))
            continue
        if lh in done_before:
            c["noop_already_imported"] += 1
            continue
        done_before.add(lh)
        line_hashes.append(lh)
        paid.append({"run_hash": u.run_hash, "key": key, "billed": billed, **usage})
        if key in seen or existing.get(key) == P.OK:
            c["noop_duplicate" if key in seen else "noop_already_ok"] += 1
            continue
        seen.add(key)
        row = _imported_row(u, rec, body, billed, ctx)
        rows.append(row)
        c[row["status"]] += 1
    store.put_many(rows, imported=line_hashes, paid=paid, prices=prices)  # a line without a reservation: these prices
    return c


def _read_lines(path: Path) -> tuple[list[tuple[int, str]], list[str]]:
    """Return an output file's non-empty lines (line number, text) and their hashes (what an import remembers)."""
    import hashlib

    with open(path, encoding="utf-8", errors="replace") as fh:
        lines = [(i, x.strip()) for i, x in enumerate(fh, 1) if x.strip()]
    return lines, [hashlib.sha256(x.encode()).hexdigest() for _, x in lines]


def _tokens(usage: dict[str, Any]) -> int:
    """Return a usage block's prompt + completion tokens."""
    return (usage.get("prompt_tokens") or 0) + (usage.get("completion_tokens") or 0)


def _billed(rec: dict[str, Any], resp: dict[str, Any], body: dict[str, Any]) -> bool:
    """Return whether a batch output line was a generated (billed) answer, not an error."""
    return not rec.get("error") and (resp.get("status_code") or 200) < 400 and bool(body.get("choices"))


def _imported_row(
    u: Unit, rec: dict[str, Any], body: dict[str, Any], billed: bool, ctx: Context | None
) -> dict[str, Any]:
    """Return the store row of one imported batch output line, its reply read as a call's (its usage is booked apart, in put_many)."""
    from ajb_judge.backends import _to_result
    from ajb_judge.conditions import request_hash
    from ajb_judge.runner import _reply_row

    row = {**u.identity(), "attempts": 1}
    if ctx is not None and ctx.ready(u):  # the request's hash lets identical requests share this answer
        row["request_hash"] = request_hash(u)
    if not billed:
        err = rec.get("error") or body.get("error")
        low = json.dumps(err).lower()
        status = P.CONTEXT_LENGTH if "context_length" in low or "maximum context" in low else P.API_ERROR
        row.update(status=status, error=json.dumps(err)[:500])
        return row
    return _reply_row(row, u.kind, _to_result(body, 0.0, ""), 1)
