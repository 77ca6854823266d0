"""A loopback-only fake OpenAI-compatible chat-completions server (stdlib only).

Behaviour is chosen by the request's model name (a ``+``-separated list of modes):
  good        a well-formed judge / generator / prometheus / deriver / meta-judge reply
  think       the JSON wrapped in <think>...</think> prose and a ```json fence
  reasoning   empty content, the answer in ``reasoning_content`` (vLLM reasoning parser style)
  malformed   prose with broken JSON (trailing commas, single quotes)
  garbage     no JSON at all
  truncated   cut-off JSON with finish_reason=length
  refuse      a refusal
  slow        sleep ``--latency`` (or 2 s) before answering
  r429        429 with Retry-After: 0 for the first 2 requests of each prompt, then good
  r500        500 for the first 2 requests of each prompt, then good
  always429   429 forever; quota: 429 insufficient_quota; auth: 401; ctx: 400 context length
  noschema    400 when response_format json_schema is requested (servers that reject it)
  hang        sleep ``hang_s`` (default 1 s) before answering: longer than a test's client timeout
  twoobj      two complete judge objects that disagree ("first pass ... on reflection ...")
  cut         JSON cut short but finish_reason=stop (a proxy that drops the tail)
  scale15     every metric answered on a 1-5 scale (5, 4, 3, 5); pct: as percentages (100, 50, ...)
  fractions   scores as strings "0/2", "1/2", "2/2" (read as 0, 0.5, 1, each with a note)
  filter      empty content with finish_reason=content_filter
  echo400     400 whose error message echoes the Authorization header (a leaky proxy)
  echo401     401 "Incorrect API key provided: <the key>" (fatal, and echoes the key)
  echoreply   a good reply whose reasoning_content quotes the Authorization header
  scale15ones a 1-5 judge that also answers 1: a third of the prompts get 1 for all four metrics
              (read alone, a perfect 1.0), the others 5 / 3 / 1 for 1.0 / 0.5 / 0
  nonjson     a 200 response whose body is plain text (not JSON) echoing the Authorization header
  fpecho      a good reply whose ``system_fingerprint`` and ``model`` echo the key
  offscale08  a {0, 0.5, 1} judge that answers 0.8 on its first metric for a third of the prompts
  allones     every metric of every reply 1 (a 1-5 judge that only ever answers 1 reads as perfect)
  drop        bill the call, then close the connection without an answer (a proxy that dies mid-reply)
  long        a good verdict with a long overall_assessment: ``long_tokens`` (default 2,000) completion
              tokens, capped at the request's max_tokens (then cut, finish_reason=length)
  badmodel400 400 "Invalid model name passed in model=..." (LiteLLM's wording for an unknown model)
  echocut     400 whose message echoes the Authorization header's value minus its first 7 characters
              (a proxy that strips "Bearer "; from "Basic <base64>" it leaves the base64 less one character)
  echocutreply a good reply whose reasoning_content quotes that cut Authorization value
  echo500b64  500 whose message carries a base64 trace of the request's headers: base64 of
              "<0-2 filler bytes>Authorization: Bearer <key>; ..." (the key at each of base64's three
              alignments across prompts; standard alphabet, or URL-safe for a third of the prompts)
A request's ``n`` (choices) is honoured: n copies of the answer, billed n times (as providers bill),
and a numeric-string cap ("8000") is read as the number, as vLLM-style servers coerce it.
Billing: every 200 answer is billed when the server decides it (before any latency or hang, so a
call the client stops waiting for is billed too): ``/stats`` returns requests, billed calls and
billed prompt / completion tokens (prompt = len(json.dumps(messages)) // 4, completion =
len(content) // 4, at most max_tokens), so tests compare what the runner counted with what was
billed, also across a second process. ``bill="words13"`` (``--bill words13``) bills by another
rule than any character count: prompt = round(1.3 x the words of the messages' contents),
completion = round(1.3 x the words of the reply), as the usage it reports too.
Mode ``dup`` is not needed: identical prompts come from identical plans in the bench.
A fixed ``latency`` (seconds) applies to every request. Each request is logged (message hash
and model) to ``log_path`` when given, so tests can count re-paid calls. Run in-process with
``FakeServer`` or as a subprocess: ``python ajb_judge/tests/fake_openai_server.py --port 0 --latency 0.1``.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import re
import sys
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

KEYS = ["tool_selection_accuracy", "parameter_structure_accuracy", "sequence_accuracy", "query_coverage_accuracy"]


def judge_answer(prompt: str) -> str:
    """Return a deterministic four-metric JSON verdict (scores from the prompt's hash)."""
    h = int(hashlib.sha256(prompt.encode()).hexdigest(), 16)
    vals = [(1.0, 0.5, 1.0, 0.0)[(h >> (2 * i)) % 4] for i in range(4)]
    obj = {k: {"accuracy": v, "justification": f"{k} looks {v}."} for k, v in zip(KEYS, vals, strict=True)}
    obj["overall_assessment"] = "Fine."
    return json.dumps(obj)


def billed(messages: list[dict[str, Any]], content: str | None, rule: str) -> tuple[int, int]:
    """Return the (prompt, completion) tokens billed for a reply under a billing rule ("chars4" or "words13")."""
    if rule == "words13":
        words = sum(len(str(m.get("content", "")).split()) for m in messages)
        return round(1.3 * words), round(1.3 * len((content or "").split()))
    return len(json.dumps(messages)) // 4, len(content or "") // 4


def answer_for(messages: list[dict[str, Any]]) -> str:
    """Return a well-formed reply for whatever prompt kind this is."""
    text = "\n".join(str(m.get("content", "")) for m in messages)
    if "###Score Rubrics" in text:
        return "Feedback: The plan mostly matches the reference. [RESULT] 4"
    if "REFERENCE DERIVER" in text:
        names = re.findall(r'"name": "([a-z_0-9]+)"', text)[:2]
        return json.dumps(
            {"expected_calls": [{"step": f"step{i + 1}", "name": n, "arguments": {}} for i, n in enumerate(names)]}
        )
    if "META-JUDGE" in text:
        return json.dumps(
            {
                "medium_preserves_gt": True,
                "hard_preserves_gt": True,
                "medium_harder_than_easy": False,
                "hard_harder_than_medium": True,
                "justification": "ok",
            }
        )
    if "tool-call generation model" in text:
        names = re.findall(r'"name": "([a-z_0-9]+)"', text)[:1]
        return json.dumps([{"name": n, "arguments": {}} for n in names])
    return judge_answer(text)


class _State:
    """Shared counters of one server."""

    def __init__(self, latency: float, log_path: str | None) -> None:
        """Create the state."""
        self.latency = latency
        self.log_path = log_path
        self.lock = threading.Lock()
        self.seen: Counter = Counter()
        self.requests = 0
        self.auth_headers: list[str] = []
        self.bodies: list[dict[str, Any]] = []
        self.keep_bodies = False
        self.hang_s = 1.0
        self.gate: threading.Event | None = None  # when set to an unset Event, requests wait for it
        self.in_flight = 0  # requests received and not yet ended (answered, failed or dropped)
        self.billed_calls = 0
        self.billed_prompt = 0
        self.billed_completion = 0
        self.long_tokens = 2000
        self.bill = "chars4"  # the billing rule (see `billed`)

    def stats(self) -> dict[str, int]:
        """Return the request and billing counters."""
        return {
            "requests": self.requests,
            "in_flight": self.in_flight,
            "billed_calls": self.billed_calls,
            "billed_prompt": self.billed_prompt,
            "billed_completion": self.billed_completion,
            "billed_tokens": self.billed_prompt + self.billed_completion,
        }


def make_handler(state: _State) -> type[BaseHTTPRequestHandler]:
    """Return a request handler class bound to `state`."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # no Nagle / delayed-ACK stalls on keep-alive connections

        def log_message(self, *args: Any) -> None:
            """Silence the default stderr log."""

        def _send(self, code: int, obj: dict[str, Any], headers: dict[str, str] | None = None) -> None:
            """Send a JSON response."""
            data = json.dumps(obj).encode()
            head = [
                f"HTTP/1.1 {code} {self.responses.get(code, ('',))[0]}",
                "Content-Type: application/json",
                f"Content-Length: {len(data)}",
                *(f"{k}: {v}" for k, v in (headers or {}).items()),
            ]
            self.wfile.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)  # one write per response

        def do_GET(self) -> None:  # noqa: N802
            """Serve /v1/models and /stats."""
            if self.path.endswith("/stats"):
                self._send(200, state.stats())
            else:
                self._send(200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})

        def do_POST(self) -> None:  # noqa: N802
            """Serve /v1/chat/completions, counted in flight until it has ended."""
            with state.lock:
                state.in_flight += 1
            try:
                self._chat_completion()
            finally:
                with state.lock:
                    state.in_flight -= 1

        def _chat_completion(self) -> None:
            """Answer one chat completion request (billed as `billed` says)."""
            n = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(n) or b"{}")
            model = str(body.get("model", "good"))
            modes = set(model.split("+"))
            messages = body.get("messages", [])
            mhash = hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()[:24]
            with state.lock:
                state.requests += 1
                state.seen[(model, mhash)] += 1
                count = state.seen[(model, mhash)]
                state.auth_headers.append(self.headers.get("Authorization", ""))
                if state.keep_bodies:
                    state.bodies.append(body)
                if state.log_path:
                    with open(state.log_path, "a", encoding="utf-8") as fh:
                        fh.write(json.dumps({"hash": mhash, "model": model, "t": time.time()}) + "\n")
            if state.gate is not None:
                state.gate.wait(30)
            delay = state.latency + (2.0 if "slow" in modes and state.latency == 0 else 0.0)
            delay += state.hang_s if "hang" in modes else 0.0
            if delay and not modes & {"echo401", "echo400", "auth", "quota", "ctx", "always429"}:
                time.sleep(delay)
            err = lambda code, msg, typ="invalid_request_error", codev=None, hdr=None: self._send(  # noqa: E731
                code, {"error": {"message": msg, "type": typ, "code": codev}}, hdr
            )
            token = self.headers.get("Authorization", "").removeprefix("Bearer ")
            if "echo401" in modes:
                return err(
                    401,
                    f"Incorrect API key provided: {token}. Find your key at the dashboard.",
                    codev="invalid_api_key",
                )
            if "badmodel400" in modes:
                return err(
                    400,
                    f"/chat/completions: Invalid model name passed in model={model}. "
                    "Call `/v1/models` to view available models for your key.",
                    codev="400",
                )
            cut = self.headers.get("Authorization", "")[7:]
            if "echocut" in modes:
                return err(400, f"Bad request from client {cut}")
            if "echo500b64" in modes:
                pad, urlsafe = "x" * (int(mhash, 16) % 3), int(mhash, 16) % 9 >= 6
                trace = f"{pad}Authorization: {self.headers.get('Authorization', '')}; trace-id={mhash}".encode()
                enc = (base64.urlsafe_b64encode if urlsafe else base64.b64encode)(trace).decode()
                return err(500, f"upstream failed; request trace {enc}", "server_error")
            if "echo400" in modes:
                return err(400, f"Invalid request (auth={token}, url=https://admin:hunter2secret@proxy.local/v1)")
            if "auth" in modes:
                return err(401, "Incorrect API key provided", "invalid_request_error", "invalid_api_key")
            if "quota" in modes:
                return err(429, "You exceeded your current quota", "insufficient_quota", "insufficient_quota")
            if "ctx" in modes:
                return err(400, "This model's maximum context length is 8192 tokens", codev="context_length_exceeded")
            if "always429" in modes:
                return err(429, "Rate limit reached", "rate_limit", hdr={"Retry-After": "0"})
            if "r429" in modes and count <= 2:
                return err(429, "Rate limit reached", "rate_limit", hdr={"Retry-After": "0"})
            if "r500" in modes and count <= 2:
                return err(500, "Internal error", "server_error")
            rf = body.get("response_format") or {}
            if "noschema" in modes and rf.get("type") == "json_schema":
                return err(400, "response_format json_schema is not supported by this server")
            content: str | None = answer_for(messages)
            reasoning = None
            finish = "stop"
            if "think" in modes:
                content = (
                    f"<think>Let me check each metric... {{not json}}</think>\nHere you go:\n```json\n{content}\n```"
                )
            if "reasoning" in modes:
                reasoning, content = f"I reason first. Final: {content}", ""
            if "malformed" in modes:
                content = "Sure! " + content.replace('", "', '", "', 1).replace("}", ",}", 1).replace('"', "'")
            if "garbage" in modes:
                content = "The plan seems reasonable overall."
            if "truncated" in modes:
                content, finish = content[: len(content) // 2], "length"
            if "refuse" in modes:
                content = "I'm sorry, I can't help with that."
            if "twoobj" in modes and content.startswith("{"):
                other = json.loads(content)
                first = other[KEYS[0]]["accuracy"]
                other[KEYS[0]]["accuracy"] = 0.0 if first else 1.0
                content = f"First pass: {json.dumps(other)}\nOn reflection, my final answer: {content}"
            if "cut" in modes:
                content = (
                    content[: content.index('"overall_assessment"') + 24]
                    if "overall_assessment" in content
                    else content[:-3]
                )
            if ("scale15" in modes or "pct" in modes or "fractions" in modes) and content.startswith("{"):
                obj = json.loads(content)
                table = (
                    {0.0: 1, 0.5: 3, 1.0: 5}
                    if "scale15" in modes
                    else {0.0: 0, 0.5: 50, 1.0: 100}
                    if "pct" in modes
                    else {0.0: "0/2", 0.5: "1/2", 1.0: "2/2"}
                )
                for k in KEYS:
                    obj[k]["accuracy"] = table[obj[k]["accuracy"]]
                content = json.dumps(obj)
            if "filter" in modes:
                content, finish = "", "content_filter"
            if "echoreply" in modes:
                reasoning = f"The request carried the header Bearer {token}; ignoring it."
            if "echocutreply" in modes:
                reasoning = f"Seen credential {cut} in the request."
            if "scale15ones" in modes and content.startswith("{"):
                obj = json.loads(content)
                ones = int(mhash, 16) % 3 == 0
                for k in KEYS:
                    obj[k]["accuracy"] = 1 if ones else {0.0: 1, 0.5: 3, 1.0: 5}[obj[k]["accuracy"]]
                content = json.dumps(obj)
            if ("offscale08" in modes or "allones" in modes) and content.startswith("{"):
                obj = json.loads(content)
                if "allones" in modes:
                    for k in KEYS:
                        obj[k]["accuracy"] = 1
                elif int(mhash, 16) % 3 == 0:
                    obj[KEYS[0]]["accuracy"] = 0.8
                content = json.dumps(obj)
            cap = body.get("max_tokens") or body.get("max_completion_tokens")
            cap = int(cap) if isinstance(cap, str) and cap.strip().isdigit() else cap  # vLLM-style coercion
            n_choices = int(body.get("n") or 1)
            if "long" in modes and content.startswith("{"):
                obj = json.loads(content)
                obj["overall_assessment"] = "Detailed review. " * (state.long_tokens // 4)
                content = json.dumps(obj)
            if cap and len(content or "") // 4 > cap:
                content, finish = content[: 4 * cap], "length"
            bill_in, bill_out = billed(messages, content, state.bill)
            with state.lock:
                state.billed_calls += 1
                state.billed_prompt += bill_in
                state.billed_completion += n_choices * bill_out
            if "drop" in modes:  # billed above; the connection dies before any answer byte
                self.close_connection = True
                self.connection.shutdown(2)
                return None
            if "nonjson" in modes:
                data = f"<html>upstream proxy error for Bearer {token}</html>".encode()
                self.wfile.write(
                    f"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {len(data)}\r\n\r\n".encode() + data
                )
                return None
            msg: dict[str, Any] = {"role": "assistant", "content": content}
            if reasoning is not None:
                msg["reasoning_content"] = reasoning
            fp = f"fp_{token}" if "fpecho" in modes else "fp_fake"
            served = f"{model.replace('+', '-')}-served" + (f"-{token}" if "fpecho" in modes else "")
            self._send(
                200,
                {
                    "id": f"chatcmpl-{state.requests}",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": served,
                    "system_fingerprint": fp,
                    "choices": [{"index": i, "message": msg, "finish_reason": finish} for i in range(n_choices)],
                    "usage": {
                        "prompt_tokens": bill_in,
                        "completion_tokens": n_choices * bill_out,
                        "total_tokens": 0,
                    },
                },
            )

    return Handler


def run_batch(url: str, in_path: Any, out_path: Any) -> int:
    """Send every request of a Batch API input file to `url` and write the Batch API output file; return lines.

    A stand-in for a provider's batch runner (or vLLM's run_batch): each line's body is POSTed
    to ``<url>/chat/completions`` (billed by the server like any call); an HTTP error becomes a
    line with ``response.status_code`` >= 400. Each output line carries its server-side id, so
    running one input file twice gives two different outputs, as a provider's would.
    """
    import urllib.error
    import urllib.request
    from pathlib import Path

    out = []
    for line in Path(in_path).read_text(encoding="utf-8").splitlines():
        req = json.loads(line)
        http = urllib.request.Request(
            url + "/chat/completions", json.dumps(req["body"]).encode(), {"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(http, timeout=60) as resp:
                code, body = resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            code, body = exc.code, json.loads(exc.read() or b"{}")
        rid = body.get("id") or f"err-{len(out)}"
        out.append(
            json.dumps(
                {
                    "id": f"batch_req_{rid}",
                    "custom_id": req["custom_id"],
                    "response": {"status_code": code, "body": body},
                    "error": None,
                }
            )
        )
    Path(out_path).write_text("".join(x + "\n" for x in out), encoding="utf-8")
    return len(out)


class _Server(ThreadingHTTPServer):
    """ThreadingHTTPServer that stays quiet when a client dies mid-request (kill -9 tests)."""

    daemon_threads = True
    request_queue_size = 256

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Ignore broken connections."""


class FakeServer:
    """An in-process fake server on 127.0.0.1 (context manager); `.url` is the /v1 base URL."""

    def __init__(self, latency: float = 0.0, log_path: str | None = None) -> None:
        """Bind to a free loopback port."""
        self.state = _State(latency, log_path)
        self.httpd = _Server(("127.0.0.1", 0), make_handler(self.state))
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> FakeServer:
        """Start serving."""
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        """Stop serving."""
        self.httpd.shutdown()
        self.httpd.server_close()


def main() -> None:
    """Serve until killed; print the base URL on the first stdout line."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--latency", type=float, default=0.0)
    ap.add_argument("--log", default=None)
    ap.add_argument("--bill", choices=["chars4", "words13"], default="chars4", help="billing rule (see billed)")
    a = ap.parse_args()
    state = _State(a.latency, a.log)
    state.bill = a.bill
    httpd = _Server(("127.0.0.1", a.port), make_handler(state))
    print(f"http://127.0.0.1:{httpd.server_address[1]}/v1", flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
