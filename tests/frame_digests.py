"""A digest of every column of a built bench's frames, to compare two versions of the build.

    PYTHONPATH=<checkout> python tests/frame_digests.py data/sample > tests/fixtures/build_digests.json

writes the digests of the build of `data/sample` by the checkout's code (justifications
included); tests/test_build_digests.py compares the current build with the committed file,
which was made by the code before the columnar reader (issue 38). A column's digest is the
SHA-256 of its values as JSON text (names as text, numbers by `repr`, calls and tools as
JSON with sorted keys), so a dtype change that keeps every value (a rationale column that is
now categorical) keeps the digest; the dtypes are recorded beside it.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sys
import tempfile
from typing import Any

import pandas as pd

FRAMES = ("records", "generations", "verdicts", "exclusions", "judges")


def _plain(value: Any) -> Any:
    """Return one cell as a JSON-able value (NaN and None as None, numpy values as Python ones)."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, float):
        return None if math.isnan(value) else repr(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def column_digest(values: pd.Series) -> str:
    """Return the SHA-256 of a column's values as JSON text."""
    cells = values.astype(object).where(values.notna(), None) if values.dtype.kind != "O" else values
    text = json.dumps([_plain(v) for v in cells.tolist()], sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def frame_digests(bench: Any) -> dict[str, dict[str, list[str]]]:
    """Return {frame: {column: [dtype, digest]}} of a Bench's five frames."""
    out = {}
    for name in FRAMES:
        frame = getattr(bench, name)
        out[name] = {c: [str(frame[c].dtype), column_digest(frame[c])] for c in frame.columns}
        out[name]["__rows__"] = ["int", str(len(frame))]
    return out


def build_digests(source: str) -> dict[str, dict[str, list[str]]]:
    """Return the digests of `source`'s build, made in an empty cache folder."""
    with tempfile.TemporaryDirectory() as cache:
        os.environ["AJB_CACHE_DIR"] = cache
        from ajb_utils.data import load_bench

        return frame_digests(load_bench(source, justifications=True))


if __name__ == "__main__":
    print(json.dumps(build_digests(sys.argv[1]), indent=1))
