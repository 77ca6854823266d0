"""The cost of masking every reversible form of a secret (issue 50): CPU per reply field of
``backends.mask_fragments`` (the key and each of its ``secret_forms``: URL-encoded, hex, base64 at
three alignments in two alphabets) beside the raw-only masking it replaced (``secret_spans`` of the
key alone), on the same replies, in one process; and of ``mask_secrets`` over a whole reply (its
forms built once); with the load average.

    python benchmarks/bench_masking.py [--replies 2000] [--chars 2000]
"""

from __future__ import annotations

import argparse
import os
import random
import string
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ajb_judge.backends import ChatResult, mask_fragments, mask_secrets, secret_forms, secret_spans  # noqa: E402


def replies(n: int, chars: int, seed: int = 0) -> list[str]:
    """Return n reply-like texts of about `chars` characters (JSON-ish prose, no secret in them)."""
    rng = random.Random(seed)
    words = ["tool", "selection", "parameter", "structure", "sequence", "query", "coverage", "accuracy", "plan"]
    alphabet = string.ascii_letters + string.digits
    out = []
    for _ in range(n):
        parts = []
        while sum(map(len, parts)) < chars:
            parts.append(rng.choice(words) if rng.random() < 0.8 else "".join(rng.choices(alphabet, k=12)))
        out.append('{"justification": "' + " ".join(parts) + '"}')
    return out


def raw_only(text: str, secrets: tuple[str, ...]) -> int:
    """Return the spans the raw-only masking found (what mask_fragments did before secret_forms)."""
    return sum(len(secret_spans(text, s)) for s in secrets if len(s) >= 6)


def per_reply_us(fn, texts: list[str], secrets: tuple[str, ...]) -> float:
    """Return CPU microseconds per reply of fn over texts."""
    t0 = time.process_time()
    for t in texts:
        fn(t, secrets)
    return 1e6 * (time.process_time() - t0) / len(texts)


def main() -> None:
    """Print CPU per reply, raw-only and every form, and their ratio."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--replies", type=int, default=2000)
    ap.add_argument("--chars", type=int, default=2000)
    a = ap.parse_args()
    secrets = ("sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",)
    texts = replies(a.replies, a.chars)
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"forms per secret: {len(secret_forms(secrets[0]))}")
    old = per_reply_us(raw_only, texts, secrets)
    new = per_reply_us(mask_fragments, texts, secrets)
    print(f"one field: raw key only {old:.1f} us; every form {new:.1f} us; ratio {new / old:.1f}")
    results = [ChatResult(t, t[: len(t) // 2], "stop", "served-model", "fp_abc", 10, 10) for t in texts]
    t0 = time.process_time()
    for r in results:
        mask_secrets(r, secrets)
    whole = 1e6 * (time.process_time() - t0) / len(results)
    print(f"a whole reply (content, reasoning and 3 short fields), every form: {whole:.1f} us")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
