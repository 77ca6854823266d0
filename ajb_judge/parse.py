"""Turn raw judge / generator text into verdicts, robustly, and say how (status + notes).

Order of attempts for a judge reply: the answer text with ``<think>``/``<thinking>`` blocks
removed (closed or unclosed), fenced blocks, the outermost balanced JSON objects in the prose,
then the provider's reasoning field; a repair step (trailing commas, Python literals, single
quotes, unclosed braces) is used only when strict JSON fails and is flagged ``repaired``.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from ajb_utils.schema import METRICS, PROMPT_KEYS

OK, PARSE_ERROR, API_ERROR, TRUNCATED, REFUSED = "ok", "parse_error", "api_error", "truncated", "refused"
AMBIGUOUS = "ambiguous"  # two complete JSON verdicts that disagree: neither is taken
INCOMPLETE = "incomplete"  # JSON cut short although finish_reason was not "length"
CONTEXT_LENGTH, CONTENT_FILTER, TIMEOUT = "context_length", "content_filter", "timeout"
# failures that a retry cannot fix (the same prompt gets the same answer): not retried unless asked
PERMANENT: frozenset[str] = frozenset({CONTEXT_LENGTH, REFUSED, CONTENT_FILTER})
VERDICT_VALUES: tuple[float, ...] = (0.0, 0.5, 1.0)
# a "clear near-miss" of the {0, 0.5, 1} scale (0.98, 0.52, 1e-9) is snapped and noted; anything
# farther away (0.8, 2, 5, 90, "4/5") is off-scale: that metric is unreadable -> parse_error
NEAR_MISS: float = 0.05
# Prometheus-2 1-5 score -> {0, 0.5, 1}: 5 = matches the reference (1.0); 4 ("one minor issue")
# and 3 ("partial") = 0.5, as the with-GT rubric gives 0.5 to minor missing/extra; 2, 1 = 0.0.
PROMETHEUS_MAP: dict[int, float] = {1: 0.0, 2: 0.0, 3: 0.5, 4: 0.5, 5: 1.0}

_THINK_CLOSED = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.S | re.I)
_THINK_OPEN = re.compile(r"<(think|thinking|reasoning)>", re.I)
_THINK_STRAY_CLOSE = re.compile(r"^.*?</(think|thinking|reasoning)>", re.S | re.I)
_FENCE = re.compile(r"```(?:json|JSON|javascript)?\s*(.*?)```", re.S)
_REFUSAL = re.compile(
    r"\b(I can(?:no|')t (?:help|assist|comply)|I(?:'m| am) (?:sorry|unable)|I won't|cannot comply|"
    r"as an AI)\b",
    re.I,
)


@dataclass
class Verdict:
    """A parsed judge reply: status, per-metric scores/justifications, how it was obtained."""

    status: str
    scores: dict[str, float | None] = field(default_factory=dict)
    justifications: dict[str, str] = field(default_factory=dict)
    overall: str | None = None
    repaired: bool = False
    source: str = ""  # content | reasoning | fence | ...
    notes: list[str] = field(default_factory=list)
    off_scale: dict[str, float] = field(default_factory=dict)  # metric -> the number it stated off the scale
    explicit: list[str] = field(default_factory=list)  # metrics read from a bool, fraction, decimal comma or near-miss

    def to_json(self) -> dict[str, Any]:
        """Return the verdict as a JSON-able dict (stored in the `parsed` column): every field but the status."""
        return {k: v for k, v in asdict(self).items() if k != "status"}


# ------------------------------------------------------------------ text cleaning / extraction
def strip_think(text: str) -> tuple[str, str]:
    """Return (answer text, thinking text) with closed, unclosed and stray-closed think blocks split."""
    thoughts: list[str] = [m.group(0) for m in _THINK_CLOSED.finditer(text)]
    out = _THINK_CLOSED.sub("", text)
    m = _THINK_STRAY_CLOSE.match(out)  # '...reasoning</think>{json}' (opening tag in the template)
    if m:
        thoughts.append(m.group(0))
        out = out[m.end() :]
    m = _THINK_OPEN.search(out)  # unclosed: everything after the tag is thinking
    if m:
        thoughts.append(out[m.start() :])
        out = out[: m.start()]
    return out.strip(), "\n".join(thoughts)


_SPAN_CHARS = re.compile(r'[\\"{}\[\]]')  # what balanced_spans reads: backslash, quote, braces, brackets


def balanced_spans(text: str, open_ch: str = "{", close_ch: str = "}") -> list[str]:
    """Return every outermost balanced `{...}` (or `[...]`) span in `text`, string-aware.

    Only the characters that open, close or escape are visited (a regex finds them), not every one.
    """
    spans: list[str] = []
    depth, start, in_str, escaped = 0, -1, False, -1
    for m in _SPAN_CHARS.finditer(text):
        i, ch = m.start(), m.group()
        if in_str:
            if i == escaped:  # the character after a backslash
                continue
            if ch == "\\":
                escaped = i + 1
            elif ch == '"':
                in_str = False
            continue
        if ch == '"' and depth > 0:
            in_str = True
        elif ch == open_ch:
            if depth == 0:
                start = i
            depth += 1
        elif ch == close_ch and depth > 0:
            depth -= 1
            if depth == 0:
                spans.append(text[start : i + 1])
    if depth > 0 and start >= 0:  # unclosed tail (truncation): kept for the repair step
        spans.append(text[start:])
    return spans


def repair_json(text: str) -> tuple[str, bool]:
    """Return (repaired JSON text, cut): `cut` says strings or brackets had to be closed (cut-short text)."""
    t = text.strip()
    t = re.sub(r"//[^\n\"]*$", "", t, flags=re.M)
    t = re.sub(r"\bTrue\b", "true", t)
    t = re.sub(r"\bFalse\b", "false", t)
    t = re.sub(r"\bNone\b", "null", t)
    if '"' not in t and "'" in t:
        t = t.replace("'", '"')
    t = re.sub(r"([{,]\s*)([A-Za-z_][A-Za-z0-9_ ]*)(\s*:)", r'\1"\2"\3', t)  # unquoted keys
    # close an unterminated string and unbalanced brackets (truncated output)
    in_str, esc, stack = False, False, []
    for ch in t:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]" and stack:
            stack.pop()
    cut = in_str or bool(stack)
    if in_str:
        t += '"'
    t = re.sub(r",\s*,", ",", t)
    t = re.sub(r'([{,])\s*"[^"]*"\s*$', r"\1", t)  # a dangling key cut by truncation
    t = re.sub(r",\s*$", "", t)
    t = re.sub(r":\s*$", ": null", t)
    t += "".join(reversed(stack))
    t = re.sub(r",(\s*[}\]])", r"\1", t)
    return t, cut


def _loads(text: str) -> tuple[Any, bool, bool]:
    """Return (object, repaired, cut short) for a JSON candidate; (None, False, False) beyond repair."""
    try:
        return json.loads(text), False, False
    except (json.JSONDecodeError, ValueError):
        pass
    fixed, cut = repair_json(text)
    try:
        return json.loads(fixed), True, cut
    except (json.JSONDecodeError, ValueError):
        return None, False, False


def json_candidates(text: str, kind: str = "object") -> list[tuple[str, str]]:
    """Return (origin, candidate) JSON texts in preference order: whole, fences, balanced spans."""
    o, c = ("{", "}") if kind == "object" else ("[", "]")
    out: list[tuple[str, str]] = []
    t = text.strip()
    if t.startswith(o):
        out.append(("whole", t))
    for m in _FENCE.finditer(text):
        out.append(("fence", m.group(1).strip()))
    if "```" in text and not _FENCE.search(text):  # unclosed fence
        out.append(("fence", text.split("```", 1)[1].lstrip("json").strip()))
    spans = balanced_spans(text, o, c)
    for s in reversed(spans):  # the last object is usually the final answer
        out.append(("prose", s))
    seen: set[str] = set()  # a text found twice (a whole reply is also its one span) is read once, at its first origin
    return [(origin, cand) for origin, cand in out if not (cand in seen or seen.add(cand))]


# ---------------------------------------------------------------------- judge verdict parsing
def _norm_key(k: str) -> str:
    """Return a key lower-cased with spaces/hyphens/&/dots as underscores."""
    return re.sub(r"[\s\-&./]+", "_", str(k).strip().lower()).strip("_")


_KEY_ALIASES: dict[str, str] = {}
for _m in METRICS:
    for _k in (_m, PROMPT_KEYS[_m]):
        _KEY_ALIASES[_norm_key(_k)] = _m
_KEY_ALIASES.update(
    {
        "tool": "tool_selection",
        "tools": "tool_selection",
        "tool_accuracy": "tool_selection",
        "tool_selection_score": "tool_selection",
        "parameter": "parameter_structure",
        "parameters": "parameter_structure",
        "param": "parameter_structure",
        "parameter_accuracy": "parameter_structure",
        "param_structure": "parameter_structure",
        "parameter_structure_score": "parameter_structure",
        "sequence": "sequence_accuracy",
        "seq": "sequence_accuracy",
        "sequence_dependency_accuracy": "sequence_accuracy",
        "sequence_and_dependency_accuracy": "sequence_accuracy",
        "sequence_dependency": "sequence_accuracy",
        "ordering": "sequence_accuracy",
        "coverage": "query_coverage",
        "cov": "query_coverage",
        "coverage_accuracy": "query_coverage",
        "query_coverage_score": "query_coverage",
    }
)
_SCORE_KEYS = ("accuracy", "score", "value", "rating", "llm_score", "verdict")
_JUST_KEYS = ("justification", "reason", "reasoning", "explanation", "rationale", "comment", "feedback")


def metric_for_key(key: str) -> str | None:
    """Return the canonical metric for a judge's key spelling (None if not a metric key)."""
    return _KEY_ALIASES.get(_norm_key(key))


_NUMBER = re.compile(r"^\s*(-?\d+(?:[.,]\d+)?)\s*(?:/\s*(\d+(?:[.,]\d+)?))?(?P<rest>\D*)$")


def read_score(value: Any) -> tuple[float | None, list[str], bool]:
    """Return (the number a raw score states, notes on how it was read, read explicitly); None: not a number.

    Explicit = a bool, a decimal comma or a fraction: a form whose 0 or 1 cannot be another scale's.
    """
    if isinstance(value, bool):
        return (1.0 if value else 0.0), ["bool"], True
    notes: list[str] = []
    explicit = False
    if isinstance(value, str):
        m = _NUMBER.match(value)
        if not m:
            return None, [], False
        num = m.group(1)
        if "," in num:
            notes.append(f"decimal comma {num!r}")
            num, explicit = num.replace(",", "."), True
        v = float(num)
        if m.group(2) is not None:
            den = float(m.group(2).replace(",", "."))
            if den == 0:
                return None, [], False
            v /= den
            notes.append(f"fraction {value.strip()!r}={v:g}")
            explicit = True
        if m.group("rest").strip():
            notes.append("text after the number")
        return v, notes, explicit
    if not isinstance(value, int | float) or math.isnan(float(value)):
        return None, [], False
    return float(value), notes, False


def snap(value: Any) -> tuple[float | None, str | None]:
    """Return (value on {0, 0.5, 1}, note) for a raw score; off-scale values give (None, reason).

    Accepted: 0, 0.5, 1 (numbers or numeric strings), booleans, a decimal comma ("0,5"), a fraction
    ("1/2", "2/2") and values within NEAR_MISS of the scale, each with a note. Never rescaled: a 1-5
    or percentage answer to the 0/0.5/1 rubric is off-scale, not a silent 0.
    """
    v, notes, _ = read_score(value)
    if v is None:
        return None, f"non-numeric {value!r}"
    if isinstance(value, bool):
        return v, "bool"
    nearest = min(VERDICT_VALUES, key=lambda x: (abs(x - v), -x))
    if abs(nearest - v) > NEAR_MISS:
        return None, f"off-scale {v if isinstance(value, str) else value!r} (the rubric allows 0, 0.5, 1)"
    if nearest != v:
        notes.append(f"snapped {v:g}->{nearest:g}")
    return nearest, "; ".join(notes) or None


@dataclass
class _Read:
    """What one decoded judge object says: scores, justifications, overall, notes, off-scale numbers, explicit reads."""

    scores: dict[str, float | None] = field(default_factory=dict)
    justs: dict[str, str] = field(default_factory=dict)
    overall: str | None = None
    notes: list[str] = field(default_factory=list)
    off_scale: dict[str, float] = field(default_factory=dict)
    explicit: list[str] = field(default_factory=list)


def _extract_scores(obj: Any) -> _Read:
    """Return what a decoded judge object says (see _Read)."""
    read = _Read()
    scores, justs, notes = read.scores, read.justs, read.notes
    overall = None
    if not isinstance(obj, dict):
        read.notes.append("not an object")
        return read
    stack = [obj]
    while stack:
        d = stack.pop()
        for k, v in d.items():
            nk = _norm_key(k)
            m = metric_for_key(k)
            if m is None:
                if nk in ("overall_assessment", "overall", "summary", "assessment") and isinstance(v, str):
                    overall = v
                elif isinstance(v, dict):
                    stack.append(v)  # {"scores": {...}} / {"evaluation": {...}}
                continue
            if m in scores and scores[m] is not None:
                continue
            raw, just = v, ""
            if isinstance(v, dict):
                raw = next((v[s] for s in v if _norm_key(s) in _SCORE_KEYS), None)
                just = next((str(v[s]) for s in v if _norm_key(s) in _JUST_KEYS), "")
            elif isinstance(v, list) and v:
                raw = v[0]
            s, note = snap(raw)
            num, _, explicit = read_score(raw)
            scores[m] = s
            justs[m] = just
            if s is None and num is not None:
                read.off_scale[m] = num
            elif s is not None and (explicit or s != num):  # a bool, fraction, decimal comma or snapped near-miss
                read.explicit.append(m)
            if note:
                notes.append(f"{m}: {note}")
            if s is not None and not just:
                notes.append(f"{m}: no justification")
    # justifications given as a separate map: {"justifications": {"tool_selection": "..."}}
    for k, v in obj.items():
        if _norm_key(k) in ("justifications", "reasons") and isinstance(v, dict):
            for jk, jv in v.items():
                m = metric_for_key(jk)
                if m and not justs.get(m):
                    justs[m] = str(jv)
    read.overall = overall
    return read


def _verdict(obj: Any, src: str, origin: str, repaired: bool) -> Verdict | None:
    """Return the Verdict of one decoded candidate (None when it holds no metric key)."""
    r = _extract_scores(obj)
    if not r.scores:
        return None
    missing = [m for m in METRICS if r.scores.get(m) is None]
    return Verdict(
        status=PARSE_ERROR if missing else OK,
        scores={m: r.scores.get(m) for m in METRICS},
        justifications={m: r.justs.get(m, "") for m in METRICS},
        overall=r.overall,
        repaired=repaired,
        source=f"{src}:{origin}",
        notes=r.notes + ([f"unreadable {missing}"] if missing else []),
        off_scale=r.off_scale,
        explicit=r.explicit,
    )


def _n_read(v: Verdict) -> int:
    """Return how many metrics a verdict read."""
    return sum(x is not None for x in v.scores.values())


def _best_of_source(src: str, text: str) -> Verdict | None:
    """Return the verdict one text gives: complete strict objects first, flagging disagreeing objects."""
    complete: dict[tuple, Verdict] = {}  # distinct complete, strictly valid objects (fence == prose span)
    texts: set[str] = set()
    cut_ok: Verdict | None = None
    best: Verdict | None = None
    for origin, cand in json_candidates(text):
        obj, repaired, cut = _loads(cand)
        if obj is None:
            continue
        v = _verdict(obj, src, origin, repaired)
        if v is None:
            continue
        if v.status == OK and cut:
            v.notes.append("JSON cut short (closed by the repair step)")
            cut_ok = cut_ok or v
            continue
        if v.status == OK:
            complete.setdefault(tuple(v.scores.values()), v)
            texts.add(re.sub(r"\s+", "", cand))
        elif best is None or (_n_read(v), len(v.notes) == 0) > (_n_read(best), len(best.notes) == 0):
            best = v
    if len(complete) > 1:
        first = next(iter(complete.values()))
        return Verdict(
            status=AMBIGUOUS,
            scores={m: None for m in METRICS},
            source=first.source,
            notes=[
                f"{len(complete)} complete JSON verdicts with different scores "
                f"{[list(k) for k in complete]}; none taken"
            ],
        )
    if complete:
        v = next(iter(complete.values()))
        if len(texts) > 1:
            v.notes.append(f"{len(texts)} JSON verdicts with the same scores; took the one from {v.source}")
        return v
    if cut_ok is not None:
        cut_ok.status = INCOMPLETE
        return cut_ok
    return best


def parse_judge(
    content: str | None,
    reasoning: str | None = None,
    finish_reason: str | None = None,
    refusal: str | None = None,
) -> Verdict:
    """Return the Verdict for one four-metric judge reply (status ok only if all four parsed).

    Flagged, never silently ok: two complete objects that disagree (``ambiguous``), JSON closed
    by the repair step without finish_reason=length (``incomplete``), off-scale values
    (``parse_error``), finish_reason=length (``truncated``), content_filter (``content_filter``).
    """
    content = content or ""
    answer, thoughts = strip_think(content)
    sources: list[tuple[str, str]] = [("content", answer)]
    if reasoning:
        sources.append(("reasoning", reasoning))
    if thoughts:
        sources.append(("think", thoughts))
    best: Verdict | None = None
    for src, text in sources:
        v = _best_of_source(src, text)
        if v is None:
            continue
        if v.status in (OK, AMBIGUOUS, INCOMPLETE):
            best = v
            break
        if best is None or _n_read(v) > _n_read(best):
            best = v
    if finish_reason == "content_filter":
        v = best or Verdict(status=CONTENT_FILTER)
        v.status = CONTENT_FILTER
        v.notes.append("finish_reason=content_filter")
        return v
    if finish_reason == "length":
        v = best or Verdict(status=TRUNCATED)
        v.status = TRUNCATED
        v.notes.append("finish_reason=length")
        return v
    if best is not None:
        return best
    if refusal or (_REFUSAL.search(answer) and "{" not in answer):
        return Verdict(status=REFUSED, notes=[f"refusal: {(refusal or answer)[:200]}"])
    return Verdict(status=PARSE_ERROR, notes=["no JSON object with metric keys found"])


def _texts(content: str | None, reasoning: str | None) -> list[str]:
    """Return the texts to search, in order: answer (think removed), reasoning field, think blocks."""
    answer, thoughts = strip_think(content or "")
    return [t for t in (answer, reasoning or "", thoughts) if t]


# --------------------------------------------------------------------------- Prometheus 1-5
_RESULT = re.compile(r"\[RESULT\]\s*[:\-]?\s*\(?\s*(\d+(?:\.\d+)?)(?![\d.])", re.I)
_SCORE_FALLBACK = re.compile(r"(?:score|result)\s*(?:is|:|=)?\s*\(?\s*(\d+(?:\.\d+)?)(?![\d.])(?:\s*/\s*5)?", re.I)


def parse_prometheus(
    content: str | None, reasoning: str | None = None, finish_reason: str | None = None
) -> dict[str, Any]:
    """Return {status, score_1_5, score, feedback, notes} for one Prometheus-style reply.

    The prompt asks for an integer 1-5; it is mapped by PROMETHEUS_MAP and the mapping is noted.
    Anything else after [RESULT] (0, 7, 4.5) is a parse_error, never a guess.
    """
    empty = {"score_1_5": None, "score": None, "feedback": ""}
    if finish_reason == "content_filter":
        return {"status": CONTENT_FILTER, **empty, "notes": ["finish_reason=content_filter"]}
    for src in _texts(content, reasoning):
        m = _RESULT.search(src) or None
        if m is None:
            hits = list(_SCORE_FALLBACK.finditer(src))
            m = hits[-1] if hits else None
        if m:
            raw = float(m.group(1))
            if raw not in PROMETHEUS_MAP:
                return {"status": PARSE_ERROR, **empty, "notes": [f"off-scale Prometheus score {m.group(1)!r} (1-5)"]}
            s = int(raw)
            fb = src[: m.start()].replace("Feedback:", "").strip()
            notes = [f"prometheus 1-5 mapped {s}->{PROMETHEUS_MAP[s]:g}"]
            if finish_reason == "length":
                notes.append("finish_reason=length after the [RESULT] score")
            return {"status": OK, "score_1_5": s, "score": PROMETHEUS_MAP[s], "feedback": fb[:2000], "notes": notes}
    if finish_reason == "length":
        return {"status": TRUNCATED, **empty, "notes": ["finish_reason=length"]}
    return {"status": PARSE_ERROR, **empty, "notes": ["no [RESULT] 1-5 score found"]}


# ------------------------------------------------------------------------- generator outputs
def _norm_call(c: Any) -> dict[str, Any] | None:
    """Return a call as {"name", "arguments": dict} (None when it has no name)."""
    if not isinstance(c, dict):
        return None
    if isinstance(c.get("function"), dict):
        c = c["function"]
    name = c.get("name") or c.get("tool") or c.get("tool_name")
    if not name:
        return None
    args = c.get("arguments", c.get("parameters", c.get("args", {})))
    if isinstance(args, str):
        obj = _loads(args)[0] if args.strip() else {}
        args = obj if isinstance(obj, dict) else {}
    if not isinstance(args, dict):
        args = {}
    return {"name": str(name), "arguments": args}


def parse_generator(
    content: str | None, reasoning: str | None = None, finish_reason: str | None = None
) -> dict[str, Any]:
    """Return {status, calls (list or None), repaired} for a W.1 generator reply."""
    texts = _texts(content, reasoning)
    text = texts[0] if texts else ""
    for kind, text_i in [(k, t) for t in texts for k in ("array", "object")]:
        for origin, cand in json_candidates(text_i, kind):
            obj, repaired, _ = _loads(cand)
            if isinstance(obj, dict):
                obj = obj.get("tool_calls", obj.get("calls", [obj]))
            if not isinstance(obj, list):
                continue
            calls = [_norm_call(c) for c in obj]
            if any(c is None for c in calls):
                continue
            status = TRUNCATED if finish_reason == "length" else OK
            return {"status": status, "calls": calls, "repaired": repaired, "source": origin}
    if text.strip() == "[]":
        return {"status": OK, "calls": [], "repaired": False, "source": "whole"}
    status = TRUNCATED if finish_reason == "length" else PARSE_ERROR
    return {"status": status, "calls": None, "repaired": False, "source": ""}


# ------------------------------------------------------------------ DeRef deriver / meta-judge
def parse_deriver(
    content: str | None, reasoning: str | None = None, finish_reason: str | None = None
) -> dict[str, Any]:
    """Return {status, reference} for a DeRef deriver reply (reference = list of derived calls)."""
    for kind, text in [(k, t) for t in _texts(content, reasoning) for k in ("object", "array")]:
        for _, cand in json_candidates(text, kind):
            obj, repaired, _ = _loads(cand)
            if isinstance(obj, dict):
                obj = obj.get("expected_calls", obj.get("calls"))
            if isinstance(obj, list) and all(isinstance(c, dict) and c.get("name") for c in obj):
                st = TRUNCATED if finish_reason == "length" else OK
                return {"status": st, "reference": obj, "repaired": repaired}
    return {"status": TRUNCATED if finish_reason == "length" else PARSE_ERROR, "reference": None}


REWRITE_CRITERIA: dict[str, tuple[str, str]] = {
    # answer key -> (pair, criterion) as in DATA_FORMAT.md section 3
    # (the sample's synthetic_rewrite_validation.jsonl uses the same criterion names)
    "medium_preserves_gt": ("easy_medium", "medium_preserves"),
    "hard_preserves_gt": ("medium_hard", "hard_preserves"),
    "medium_harder_than_easy": ("easy_medium", "medium_harder"),
    "hard_harder_than_medium": ("medium_hard", "hard_harder"),
}


def _as_bool(v: Any) -> bool | None:
    """Return a yes/no-ish value as a bool (None if unreadable)."""
    if isinstance(v, bool):
        return v
    if isinstance(v, int | float):
        return bool(v)
    if isinstance(v, str):
        s = v.strip().lower()
        if s in ("true", "yes", "y", "1"):
            return True
        if s in ("false", "no", "n", "0"):
            return False
    return None


def parse_rewrite(
    content: str | None, reasoning: str | None = None, finish_reason: str | None = None
) -> dict[str, Any]:
    """Return {status, verdicts: {answer key: bool}, justification} for a meta-judge reply."""
    for _, cand in [c for t in _texts(content, reasoning) for c in json_candidates(t)]:
        obj, repaired, _ = _loads(cand)
        if not isinstance(obj, dict):
            continue
        got = {k: _as_bool(obj.get(k)) for k in REWRITE_CRITERIA}
        if all(v is not None for v in got.values()):
            st = TRUNCATED if finish_reason == "length" else OK
            return {
                "status": st,
                "verdicts": got,
                "justification": str(obj.get("justification", "")),
                "repaired": repaired,
            }
    return {"status": TRUNCATED if finish_reason == "length" else PARSE_ERROR, "verdicts": None}
