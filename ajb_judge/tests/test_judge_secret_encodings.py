"""Issue 50: the key masked in every reversible encoding a server may echo (raw, base64 at every
alignment in both alphabets with or without padding, URL-encoded, hex), checked by decoding every
substring of what is left; and end to end against the counting fake server (a 500 whose body
carries base64("Authorization: Bearer <key>")): nothing the runner writes decodes to the key."""

from __future__ import annotations

import base64
import binascii
import logging
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote, quote_plus, unquote_to_bytes

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
from ajb_judge import run_judge  # noqa: E402
from ajb_judge.backends import redact  # noqa: E402
from ajb_judge.store import Store  # noqa: E402
from runner_support import CLI_ENV, SECRET, cfg, cli_args  # noqa: E402

_B64_STD = re.compile(r"[A-Za-z0-9+/]+")
_B64_URL = re.compile(r"[A-Za-z0-9\-_]+")
_HEX = re.compile(r"[0-9A-Fa-f]+")


def _b64_decodings(text: str) -> list[bytes]:
    """Every base64 decoding of a substring of `text` lies in one of these (each maximal run at its 4 phases, padded)."""
    out = []
    for pat, alt in ((_B64_STD, b"+/"), (_B64_URL, b"-_")):
        for m in pat.finditer(text):
            run = m.group()
            for k in range(4):
                part = run[k:][: len(run) - k - ((len(run) - k) % 4 == 1)]  # a last group of 2 or 3 holds 1 or 2 bytes
                if part:
                    out.append(base64.b64decode(part + "=" * (-len(part) % 4), altchars=alt))
    return out


def _hex_decodings(text: str) -> list[bytes]:
    """Every hex decoding of a substring of `text` lies inside one of these (each maximal run, at its 2 phases)."""
    out = []
    for m in _HEX.finditer(text):
        run = m.group()
        for k in range(2):
            part = run[k:][: (len(run) - k) // 2 * 2]
            if part:
                out.append(binascii.unhexlify(part))
    return out


def decodings(text: str) -> list[bytes]:
    """Return what `text` reads as in raw, URL, base64 and hex forms, and base64 / hex after URL decoding."""
    url = unquote_to_bytes(text)
    plus = unquote_to_bytes(text.replace("+", " "))
    url_text = url.decode("latin-1")
    return [
        text.encode(),
        url,
        plus,
        *_b64_decodings(text),
        *_hex_decodings(text),
        *_b64_decodings(url_text),
        *_hex_decodings(url_text),
    ]


def leaks(text: str, key: str) -> bool:
    """Return whether any decoding of any substring of `text` holds `key`."""
    return any(key.encode() in d for d in decodings(text))


def encode(payload: bytes, how: str) -> str:
    """Return `payload` in one of the reversible encodings a server may echo."""
    if how == "raw":
        return payload.decode()
    if how.startswith("b64"):
        enc = (base64.urlsafe_b64encode if "url" in how else base64.b64encode)(payload).decode()
        return enc.rstrip("=") if "nopad" in how else enc
    if how == "quote":
        return quote(payload, safe="")
    if how == "quote_plus":
        return quote_plus(payload)
    if how == "quote_lower":
        return re.sub(r"%[0-9A-F]{2}", lambda m: m.group().lower(), quote(payload, safe=""))
    if how == "percent_all":
        return "".join(f"%{b:02X}" for b in payload)
    if how == "b64_quoted":
        return quote(base64.b64encode(payload).decode(), safe="")
    return payload.hex().upper() if how == "hex_upper" else payload.hex()


ENCODINGS = ["raw", "b64", "b64_nopad", "b64url", "b64url_nopad", "quote", "quote_plus", "quote_lower",
             "percent_all", "b64_quoted", "hex", "hex_upper"]  # fmt: skip
keys = st.builds(
    lambda pre, body: pre + body,
    st.sampled_from(["", "sk-", "sk-proj-", "Bearer-"]),
    st.text(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.+/=~"), min_size=8, max_size=64),
)  # fmt: skip
surround = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40)


@settings(max_examples=400, deadline=None)
@given(
    key=keys,
    how=st.sampled_from(ENCODINGS),
    header=st.sampled_from(["{k}", "Bearer {k}", "Authorization: Bearer {k}", '{{"api_key": "{k}"}}']),
    filler=st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=7),
    tail=surround,
    before=surround,
    after=surround,
)
@example(key=SECRET, how="b64", header="Bearer {k}", filler="", tail="", before="upstream error: ", after="")
@example(key=SECRET, how="b64", header="Bearer {k}", filler="x", tail="; id=7", before="trace ", after=".")
@example(key=SECRET, how="b64url_nopad", header="Bearer {k}", filler="xy", tail="z", before="", after="")
def test_no_decoding_of_any_substring_yields_the_key(key, how, header, filler, tail, before, after) -> None:
    payload = (filler + header.format(k=key) + tail).encode()
    text = f"{before}{encode(payload, how)}{after}"
    assert leaks(text, key)  # the checker sees the key in what the server echoed ...
    masked = redact(text, (key,))
    assert not leaks(masked, key), (how, masked)  # ... and in no substring of what is kept, in any form
    assert "***" in masked


@pytest.mark.parametrize("offset", [0, 1, 2])
@pytest.mark.parametrize("how", ["b64", "b64_nopad", "b64url", "b64url_nopad"])
def test_base64_of_bearer_key_at_each_alignment(offset, how) -> None:
    body = encode(("#" * offset + f"Bearer {SECRET} and more of the body").encode(), how)
    masked = redact(f"500 Internal Server Error: {body}", (SECRET,))
    assert not leaks(masked, SECRET) and masked.startswith("500 Internal Server Error: ")


def test_masking_keeps_text_that_is_not_the_key() -> None:
    text = "request id " + base64.b64encode(b"nothing secret in here at all").decode() + " deadbeef00 %41%42"
    assert redact(text, (SECRET,)) == text


def test_a_500_with_base64_of_the_key_leaves_no_decodable_key(server, bench, tmp_path, caplog) -> None:
    caplog.set_level(logging.DEBUG)  # the runner's own log lines are a stream it writes too
    s = run_judge(cfg(server, bench, tmp_path, "echo500b64", max_attempts=1, abort_after=10**6,
                      conditions=["with_gt"]))  # fmt: skip
    assert s.statuses == {"api_error": 12}
    r = subprocess.run(cli_args(server.url, tmp_path, "echo500b64", "--max-attempts", "1", "--abort-after", "2"),
                       capture_output=True, text=True, env=CLI_ENV, timeout=300)  # fmt: skip
    assert server.state.auth_headers[-1] == f"Bearer {SECRET}"
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    texts = [p.read_bytes().decode("latin-1") for p in files] + [r.stdout, r.stderr, str(s)]
    with Store(tmp_path / "store.sqlite", lock=False) as store:
        errors = [row["error"] for row in store.rows([s.run_hash])]
    assert len(errors) == 12 and all("upstream failed; request trace" in e for e in errors)  # what was wrong is said
    texts += [*errors, caplog.text]
    bad = [t[:200] for t in texts if leaks(t, SECRET)]
    assert not bad, bad
