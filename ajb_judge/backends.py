"""Model backends: any OpenAI-compatible chat-completions endpoint, called with our own retries.

Every base URL (local vLLM / SGLang / Ollama over http://, providers over https://, through the
proxy ``http_proxy`` / ``https_proxy`` names unless ``no_proxy`` lists the host) is called through
an aiohttp session of its own (keep-alive pool, C-accelerated HTTP parser), which never retries:
every 429/5xx is seen here, with jittered exponential backoff honouring ``Retry-After``, fail fast on auth / quota / model-not-found (the whole run stops)
and on context-length errors (that item only), round-robin over several base URLs, a
requests-per-minute limiter, and a JSON-schema -> JSON-object -> plain-prompting fallback for
servers that reject structured response formats. The API key is read from the environment
variable *named* by the user and lives only in the client object.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import re
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from ajb_utils.schema import METRICS, PROMPT_KEYS


class FatalBackendError(RuntimeError):
    """An error that makes every further call pointless (auth, quota, unknown model, endpoint down)."""


class MissingKeyError(FatalBackendError):
    """The API key variable a run names is not set (a config error: found before any file or call)."""


class MissingExtraError(ValueError):
    """A package of the ``[judge]`` extra is not installed (a plain ``pip install .``): found before any call."""


JUDGE_EXTRA = ("aiohttp", "orjson")  # what an endpoint call imports (pyproject's [judge] extra)


def require_judge_extra() -> None:
    """Raise MissingExtraError, naming the [judge] extra, unless the packages an endpoint call needs import."""
    import importlib

    for name in JUDGE_EXTRA:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            raise MissingExtraError(
                f'--backend openai needs the [judge] extra ({exc}): pip install ".[judge]" in the checkout '
                '(or pip install -e ".[dev]"); the static judge runs without it'
            ) from None


_SECRET_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\b(sk|pk|rk)-[A-Za-z0-9_\-]{12,}"), r"\1-***"),  # OpenAI-style keys
    (re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=\-]{8,}"), r"\1 ***"),
    (re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)[^/\s:@]+(?::[^/\s@]*)?@"), r"\1***@"),  # user:pass@ in URLs
    (re.compile(r"(?i)([?&](?:api[_\-]?key|key|token|access_token|auth|sig|signature)=)[^&\s\"']+"), r"\1***"),
]


SECRET_FRAGMENT = 10  # an echoed run of this many characters of a secret is masked (shorter secrets: whole)
_GRAM = SECRET_FRAGMENT // 2  # every fragment of 2 * _GRAM - 1 characters holds one of the secret's aligned grams


def secret_spans(text: str, secret: str) -> list[tuple[int, int]]:
    """Return the spans of `text` that echo a piece of `secret`: SECRET_FRAGMENT characters or more, or all of it.

    The secret's grams of _GRAM characters at multiples of _GRAM are looked up (str.find), and
    each hit is grown left and right while text and secret agree: every echoed run of at least
    2 * _GRAM - 1 characters holds one such gram, so none is missed, at a few finds per secret.
    """
    spans: list[tuple[int, int]] = []
    need = min(SECRET_FRAGMENT, len(secret))
    for i in range(0, len(secret) - _GRAM + 1, _GRAM):
        gram = secret[i : i + _GRAM]
        j = text.find(gram)
        while j >= 0:
            a, sa, b, sb = j, i, j + _GRAM, i + _GRAM
            while a > 0 and sa > 0 and text[a - 1] == secret[sa - 1]:
                a, sa = a - 1, sa - 1
            while b < len(text) and sb < len(secret) and text[b] == secret[sb]:
                b, sb = b + 1, sb + 1
            if b - a >= need:
                spans.append((a, b))
            j = text.find(gram, j + 1)
    return spans


def _base64_cores(raw: bytes) -> list[str]:
    """Return the base64 characters that encode only `raw`'s bits, at its three alignments in a longer body.

    In any base64 text of a body holding `raw` at a byte offset of 0, 1 or 2 modulo 3, the
    characters whose six bits all fall inside `raw` are these (standard and URL-safe alphabets;
    padding never falls inside them); the at most two characters at each end that mix in the body's
    other bits leave no more than a byte of `raw` on each side.
    """
    import base64

    out = []
    for r in range(3):
        enc = base64.b64encode(bytes(r) + raw + bytes(3)).decode()
        core = enc[-(-8 * r // 6) : 8 * (r + len(raw)) // 6]
        out += [core, core.translate(str.maketrans("+/", "-_"))]
    return out


def _percent_forms(text: str) -> list[str]:
    """Return `text` URL-encoded (reserved characters only, and every byte), with upper- and lower-case escapes."""
    from urllib.parse import quote

    raw = text.encode()
    quoted = quote(text, safe="")
    every = "%" + raw.hex("%")  # every byte escaped: %73%6b...
    forms = [every.upper(), every]
    if "%" in quoted:
        forms += [quoted, _lower_escapes(quoted)]
    return forms


def _lower_escapes(text: str) -> str:
    """Return URL-encoded text with its %XX escapes in lower case."""
    return _PERCENT_ESCAPE.sub(lambda m: m.group().lower(), text)


_PERCENT_ESCAPE = re.compile(r"%[0-9A-F]{2}")
_HEX_RUN = re.compile(rf"[0-9A-Fa-f]{{{SECRET_FRAGMENT}}}")
_HEX_ONLY = re.compile(r"[0-9A-Fa-f]+")


def secret_forms(secret: str) -> list[str]:
    """Return a secret in every reversible form a server may echo it: raw, URL-encoded, hex, base64 at each alignment.

    "Bearer <key>" (or any header around the key) encoded whole holds one of these forms of the key
    itself: base64 at the key's alignment, hex and URL encoding byte for byte; base64 forms also
    URL-encoded (a base64 value in a query string).
    """
    from urllib.parse import quote

    raw = secret.encode()
    cores = _base64_cores(raw)
    forms = [secret, *_percent_forms(secret), raw.hex(), raw.hex().upper(), *cores]
    quoted = [quote(c, safe="") for c in cores if "+" in c or "/" in c]  # a base64 value in a query string
    forms += quoted + [_lower_escapes(q) for q in quoted]
    return [f for f in dict.fromkeys(forms) if len(f) >= 6]


def all_forms(secrets: tuple[str, ...] | list[str]) -> list[str]:
    """Return every secret_forms of the secrets of 6 characters or more (shorter ones are not masked)."""
    return list(dict.fromkeys(f for sec in secrets if sec and len(sec) >= 6 for f in secret_forms(sec)))


def mask_fragments(text: str, secrets: tuple[str, ...] | list[str]) -> str:
    """Return `text` with every echoed piece of a secret, in any of its secret_forms, replaced by ***."""
    return mask_forms(text, all_forms(secrets))


def mask_forms(text: str, forms: list[str]) -> str:
    """Return `text` with every echoed piece of one of `forms` (see all_forms) replaced by ***.

    Forms that hold "%" are looked for only in a text that holds one, and forms of hex digits only
    in a text with a run of SECRET_FRAGMENT of them: a piece that long of such a form has one (the
    others are pieces of another form), so nothing is missed and most replies skip those finds.
    """
    pct, hexrun = "%" in text, _HEX_RUN.search(text) is not None
    hex_only = lambda f: len(f) >= SECRET_FRAGMENT and _HEX_ONLY.fullmatch(f) is not None  # noqa: E731
    forms = {f: None for f in forms if (pct or "%" not in f) and (hexrun or not hex_only(f))}
    spans = sorted(sp for f in forms for sp in secret_spans(text, f))
    if not spans:
        return text
    merged: list[tuple[int, int]] = []
    for a, b in spans:  # overlapping or touching echoes become one ***
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    out, at = [], 0
    for a, b in merged:
        out += [text[at:a], "***"]
        at = b
    out.append(text[at:])
    return "".join(out)


def redact(text: str | None, secrets: tuple[str, ...] | list[str] = ()) -> str | None:
    """Return `text` with the given secrets (and any piece of them), API-key-like tokens and URL credentials masked."""
    if not text:
        return text
    text = mask_fragments(text, secrets)
    for pat, rep in _SECRET_PATTERNS:
        text = pat.sub(rep, text)
    return text


def url_credentials(urls: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Return what base URLs carry as secrets: user names, passwords, query tokens and the Basic header value.

    A URL's ``user:password@`` is sent as ``Authorization: Basic <base64(user:password)>``, so the
    base64 value is a secret of its own (a server may echo the header).
    """
    import base64
    from urllib.parse import parse_qsl, unquote, urlsplit

    out: list[str] = []
    for u in urls:
        parts = urlsplit(u)
        for x in (parts.username, parts.password):
            out += [x, unquote(x)] if x else []
        if parts.username is not None:
            cred = f"{unquote(parts.username)}:{unquote(parts.password or '')}".encode()
            out.append(base64.b64encode(cred).decode())
        out += [v for k, v in parse_qsl(parts.query) if v and re.search(r"(?i)key|token|auth|sig", k)]
    return tuple(dict.fromkeys(x for x in out if len(x) >= 6))


def mask_secrets(res: ChatResult, secrets: tuple[str, ...]) -> ChatResult:
    """Return `res` with every secret, and every echoed piece of one, replaced by *** in every string field (in place)."""
    forms = all_forms(secrets)  # once per reply, for all its fields
    for f in ("content", "reasoning", "finish_reason", "model", "fingerprint", "refusal"):
        v = getattr(res, f)
        if isinstance(v, str):
            setattr(res, f, mask_forms(v, forms))
    return res


def redact_url(url: str) -> str:
    """Return a base URL with any credentials (user:pass@, ?key=) masked."""
    return redact(url) or url


@dataclass
class CallError(Exception):
    """One failed attempt: kind, whether to retry, and the server's Retry-After (seconds)."""

    # rate_limit | server | timeout | connection (not connected: nothing sent) | disconnected (the
    # connection failed after the request may have been sent: maybe billed) | bad_response |
    # context_length | bad_request | auth | quota | not_found
    kind: str
    message: str
    retryable: bool
    retry_after: float | None = None
    status_code: int | None = None

    def __str__(self) -> str:
        """Return 'kind: message'."""
        return f"{self.kind}: {self.message}"


@dataclass
class ChatResult:
    """One successful completion and its provenance."""

    content: str | None
    reasoning: str | None
    finish_reason: str | None
    model: str | None
    fingerprint: str | None
    prompt_tokens: int | None
    completion_tokens: int | None
    refusal: str | None = None
    latency_s: float = 0.0
    response_format: str = "none"


@dataclass
class Decoding:
    """Decoding parameters (part of a run's identity)."""

    temperature: float | None = 0.0
    max_tokens: int | None = 2048
    thinking: bool | None = None  # sent as chat_template_kwargs.enable_thinking (vLLM / SGLang)
    seed: int | None = 0
    top_p: float | None = None
    reasoning_effort: str | None = None  # OpenAI reasoning models

    def to_dict(self) -> dict[str, Any]:
        """Return the decoding parameters as a plain dict."""
        return asdict(self)


def judge_json_schema() -> dict[str, Any]:
    """Return the JSON schema of the four-metric judge reply (for response_format=json_schema)."""
    metric = {
        "type": "object",
        "properties": {"accuracy": {"type": "number", "enum": [0.0, 0.5, 1.0]}, "justification": {"type": "string"}},
        "required": ["accuracy", "justification"],
        "additionalProperties": False,
    }
    props = {PROMPT_KEYS[m]: metric for m in METRICS}
    props["overall_assessment"] = {"type": "string"}
    return {
        "name": "judge_verdict",
        "strict": True,
        "schema": {"type": "object", "properties": props, "required": list(props), "additionalProperties": False},
    }


class RateLimiter:
    """An async requests-per-minute limiter (evenly spaced starts; None = unlimited)."""

    def __init__(self, rpm: float | None) -> None:
        """Create a limiter allowing `rpm` request starts per minute."""
        self.interval = 60.0 / rpm if rpm else 0.0
        self._next = 0.0
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        """Sleep until the next request may start."""
        if not self.interval:
            return
        async with self._lock:
            now = time.monotonic()
            t = max(now, self._next)
            self._next = t + self.interval
        if t > now:
            await asyncio.sleep(t - now)


def backoff_delay(attempt: int, retry_after: float | None, base: float = 1.0, cap: float = 60.0) -> float:
    """Return the wait before retry `attempt` (1-based): Retry-After if given, else full-jitter exp."""
    if retry_after is not None and retry_after >= 0:
        return min(cap, retry_after) + random.uniform(0, 0.1 * base)
    return random.uniform(0.5, 1.0) * min(cap, base * 2 ** (attempt - 1))


def sent_unanswered(err: BaseException) -> bool:
    """Return whether a failed attempt may have been billed: anything but an HTTP error answer or a refused connection."""
    if isinstance(err, CallError):
        return err.status_code is None and err.kind != "connection"
    return True


# an unknown model answered with 400 (LiteLLM: "Invalid model name passed in model=..."; others: model_not_found)
_UNKNOWN_MODEL = re.compile(r"(?i)invalid model name|model_not_found|\bmodel\b[^.]{0,80}\b(does not exist|not found)")


def classify_status(code: int, msg: str, retry_after: float | None = None) -> CallError:
    """Return the CallError of an HTTP error status and its message (one table for every error answer)."""
    low = msg.lower()
    if code in (401, 403):
        return CallError("auth", msg, False, status_code=code)
    if code == 404:
        return CallError("not_found", msg, False, status_code=code)
    if code == 429:
        if "insufficient_quota" in low or "quota" in low and "exceeded your current quota" in low:
            return CallError("quota", msg, False, status_code=code)
        return CallError("rate_limit", msg, True, retry_after, code)
    if code in (408, 409) or code >= 500:
        return CallError("server", msg, True, retry_after, code)
    if _UNKNOWN_MODEL.search(msg):
        return CallError("not_found", msg, False, status_code=code)
    if any(
        s in low
        for s in (
            "context length",
            "context_length",
            "maximum context",
            "too many tokens",
            "prompt is too long",
            "reduce the length",
        )
    ):
        return CallError("context_length", msg, False, status_code=code)
    if "response_format" in low or "json_schema" in low or "structured output" in low:
        return CallError("response_format", msg, False, status_code=code)
    if "max_completion_tokens" in low and "max_tokens" in low:
        return CallError("max_tokens_param", msg, False, status_code=code)
    return CallError("bad_request", msg, False, status_code=code)


def _http_error(code: int, headers: Any, data: bytes) -> CallError:
    """Return the CallError of an HTTP error response read through aiohttp (headers: case-insensitive)."""
    import orjson

    try:
        body: Any = orjson.loads(data)
    except orjson.JSONDecodeError:
        body = data.decode("utf-8", "replace")
    err = body.get("error") if isinstance(body, dict) else None
    msg = f"Error code: {code} - {body}"
    if isinstance(err, dict) and err.get("message"):
        msg = f"Error code: {code} - {err['message']} ({err.get('type') or err.get('code') or ''})"
    ra = None
    try:
        if "retry-after-ms" in headers:
            ra = float(headers["retry-after-ms"]) / 1000.0
        elif "retry-after" in headers:
            ra = float(headers["retry-after"])
    except ValueError:
        ra = None
    return classify_status(code, msg[:500], ra)


class AiohttpPool:
    """One aiohttp session (keep-alive pool) to one base URL; `request` -> (status, headers, body)."""

    def __init__(self, base_url: str, key: str, timeout_s: float, limit: int) -> None:
        """Prepare the session's settings: credentials in the URL become Basic auth, the proxy the environment names."""
        import base64
        import urllib.request
        from urllib.parse import unquote, urlsplit, urlunsplit

        u = urlsplit(base_url)
        self.url = urlunsplit((u.scheme, u.netloc.rsplit("@", 1)[-1], u.path.rstrip("/"), u.query, ""))
        self.headers = {
            "Accept": "application/json",
            "Content-Type": "application/json",
            "User-Agent": "ajb-judge",
            "Authorization": f"Bearer {key}",
        }
        if u.username is not None:
            cred = f"{unquote(u.username)}:{unquote(u.password or '')}".encode()
            self.headers["Authorization"] = "Basic " + base64.b64encode(cred).decode()
        # http_proxy / https_proxy as the environment sets them, unless no_proxy names the host
        bypass = urllib.request.proxy_bypass(u.hostname or "")
        self.proxy = None if bypass else urllib.request.getproxies().get(u.scheme)
        self.timeout_s, self.limit = timeout_s, limit
        self._session: Any = None
        import aiohttp  # noqa: F401 - imported here, at setup (its import builds SSL contexts: ~0.2 s of CPU)

    def _open(self) -> Any:
        """Return the session, created on first use (inside the running event loop)."""
        if self._session is None:
            import aiohttp

            self._session = aiohttp.ClientSession(
                headers=self.headers,
                connector=aiohttp.TCPConnector(limit=self.limit, limit_per_host=self.limit),
                timeout=aiohttp.ClientTimeout(total=self.timeout_s),
                cookie_jar=aiohttp.DummyCookieJar(),
                trust_env=False,
            )  # an API client keeps no cookies; the proxy is chosen in __init__
        return self._session

    async def request(
        self, method: str, path: str, body: bytes | None, timeout_s: float | None = None
    ) -> tuple[int, Any, bytes]:
        """Return (status, headers, body) of one request; raise CallError on timeout / connection errors."""
        import aiohttp

        t = self.timeout_s if timeout_s is None else timeout_s
        kw: dict[str, Any] = {} if timeout_s is None else {"timeout": aiohttp.ClientTimeout(total=t)}
        try:
            async with self._open().request(method, self.url + path, data=body, proxy=self.proxy, **kw) as resp:
                return resp.status, resp.headers, await resp.read()
        except TimeoutError:
            raise CallError("timeout", f"no response within {t:g} s", True) from None
        except aiohttp.ClientConnectorError as exc:
            name = type(exc.os_error).__name__ if isinstance(exc.os_error, OSError) else type(exc).__name__
            raise CallError("connection", f"{name}: {exc}", True) from None
        except (aiohttp.ClientError, OSError, ValueError) as exc:  # after connecting: the request may have been sent
            raise CallError("disconnected", f"{type(exc).__name__}: {exc}", True) from None

    async def aclose(self) -> None:
        """Close the session and its connections."""
        if self._session is not None:
            await self._session.close()
            self._session = None


FATAL_KINDS = frozenset({"auth", "quota", "not_found"})
# structured-output ladder; the first rejection moves every later call down a rung
FORMAT_LADDER: dict[str, list[str]] = {
    "auto": ["json_schema", "json_object", "none"],
    "json_schema": ["json_schema", "json_object", "none"],
    "json_object": ["json_object", "none"],
    "none": ["none"],
}


@dataclass
class OpenAIBackend:
    """An OpenAI-compatible chat-completions backend (vLLM, OpenAI, Ollama, providers)."""

    model: str
    base_urls: list[str]
    api_key_env: str | None = None
    decoding: Decoding = field(default_factory=Decoding)
    response_format: str = "auto"  # auto | json_schema | json_object | none
    timeout_s: float = 300.0
    extra_body: dict[str, Any] | None = None
    max_tokens_param: str = "max_tokens"
    pool_size: int = 64

    def __post_init__(self) -> None:
        """Read the key from the variable named, and prepare one connection pool per base URL."""
        require_judge_extra()
        key = os.environ.get(self.api_key_env, "") if self.api_key_env else ""
        if self.api_key_env and not key:
            raise MissingKeyError(f"the API key variable {self.api_key_env} is not set (export {self.api_key_env}=...)")
        self._secrets = ((key,) if key else ()) + url_credentials(self.base_urls)
        self._pools = [AiohttpPool(u, key or "EMPTY", self.timeout_s, self.pool_size) for u in self.base_urls]
        self._rr = itertools.cycle(range(len(self._pools)))
        self._inflight = [0] * len(self._pools)
        self._formats = list(FORMAT_LADDER.get(self.response_format, ["none"]))

    def request_body(
        self, messages: list[dict[str, str]], json_reply: bool = True, fmt: str | None = None
    ) -> dict[str, Any]:
        """Return the JSON body a call sends (for calls, batch files and reservations): the extra body merged in last."""
        d = self.decoding
        kw: dict[str, Any] = {"model": self.model, "messages": messages}
        if d.temperature is not None:
            kw["temperature"] = d.temperature
        if d.top_p is not None:
            kw["top_p"] = d.top_p
        if d.max_tokens is not None:
            kw[self.max_tokens_param] = d.max_tokens
        if d.seed is not None:
            kw["seed"] = d.seed
        if d.reasoning_effort:
            kw["reasoning_effort"] = d.reasoning_effort
        fmt = fmt or self._formats[0]
        if json_reply and fmt == "json_schema":
            kw["response_format"] = {"type": "json_schema", "json_schema": judge_json_schema()}
        elif json_reply and fmt == "json_object":
            kw["response_format"] = {"type": "json_object"}
        extra = dict(self.extra_body or {})
        if d.thinking is not None:
            extra["chat_template_kwargs"] = {
                **extra.get("chat_template_kwargs", {}),
                "enable_thinking": bool(d.thinking),
            }
        return {**kw, **extra}

    def _fall_back(self, err: CallError, fmt: str, json_reply: bool) -> bool:
        """Return whether a rejected request is sent again one rung lower (response format, or max_completion_tokens)."""
        if err.kind == "response_format" and len(self._formats) > 1 and json_reply:
            if self._formats[0] == fmt:
                self._formats.pop(0)
            return True
        if err.kind == "max_tokens_param" and self.max_tokens_param == "max_tokens":
            self.max_tokens_param = "max_completion_tokens"
            return True
        return False

    async def chat(self, messages: list[dict[str, str]], json_reply: bool = True) -> ChatResult:
        """Return one completion from the least busy base URL, ties round-robin (one attempt; CallError on failure)."""
        import orjson

        start, n = next(self._rr), len(self._pools)
        idx = min(range(n), key=lambda j: (self._inflight[j], (j - start) % n))
        self._inflight[idx] += 1
        try:
            while True:
                fmt = self._formats[0]
                t0 = time.monotonic()
                try:
                    body = orjson.dumps(self.request_body(messages, json_reply, fmt))
                    code, headers, data = await self._pools[idx].request("POST", "/chat/completions", body)
                    if code >= 400:
                        raise _http_error(code, headers, data)
                    try:
                        resp: Any = orjson.loads(data)
                    except orjson.JSONDecodeError:
                        resp = data.decode("utf-8", "replace")
                    res = _to_result(resp, time.monotonic() - t0, fmt if json_reply else "none")
                except CallError as err:  # an error body may echo anything the request carried
                    err.message = redact(err.message, self._secrets) or ""
                    if err.status_code is not None and self._fall_back(err, fmt, json_reply):
                        continue
                    raise
                if self._secrets:  # a server that echoes the key (or a URL credential) must not get it stored
                    mask_secrets(res, self._secrets)
                return res
        finally:
            self._inflight[idx] -= 1

    async def check(self, timeout_s: float = 5.0) -> None:
        """Raise FatalBackendError unless every base URL answers (GET /models; any HTTP answer but 401/403 passes)."""
        t = min(timeout_s, self.timeout_s)
        for pool, url in zip(self._pools, self.base_urls, strict=True):
            shown = redact_url(url)
            try:
                code, _, data = await pool.request("GET", "/models", None, timeout_s=t)
            except CallError as err:
                if err.kind == "timeout":
                    raise FatalBackendError(f"no answer from {shown} within {t:g} s") from None
                if "ConnectionRefused" in err.message:
                    raise FatalBackendError(f"connection refused at {shown}") from None
                raise FatalBackendError(f"cannot connect to {shown}: {redact(err.message, self._secrets)}") from None
            if code in (401, 403):
                msg = _http_error(code, {}, data).message
                raise FatalBackendError(f"authentication failed at {shown}: {redact(msg, self._secrets)}")

    async def aclose(self) -> None:
        """Close the connection pools."""
        for p in self._pools:
            await p.aclose()


def _to_result(resp: Any, latency: float, fmt: str) -> ChatResult:
    """Return a ChatResult from a chat.completion JSON body (reasoning from vLLM/Ollama/OpenRouter fields)."""
    if not isinstance(resp, dict):
        raise CallError("bad_response", f"non-JSON response: {str(resp)[:200]}", True)
    choices = resp.get("choices") or []
    choice = choices[0] if choices else {}
    msg = choice.get("message") or {}
    reasoning = msg.get("reasoning_content") or msg.get("reasoning")
    if isinstance(reasoning, dict | list):
        reasoning = str(reasoning)
    usage = resp.get("usage") or {}
    content = msg.get("content")
    if isinstance(content, list):  # content parts
        content = "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ChatResult(
        content=content,
        reasoning=reasoning,
        finish_reason=choice.get("finish_reason"),
        model=resp.get("model"),
        fingerprint=resp.get("system_fingerprint"),
        prompt_tokens=usage.get("prompt_tokens"),
        completion_tokens=usage.get("completion_tokens"),
        refusal=msg.get("refusal"),
        latency_s=latency,
        response_format=fmt,
    )
