#!/usr/bin/env python
"""Write a copy of a sample folder k times as large, for scaling measurements (SYNTHETIC data).

    python benchmarks/make_scaled_sample.py --times 4        # data/sample_full -> data/sample_full_x4

Every record is repeated k times under new ids (`<id>` and `<id>~1` ... `<id>~k-1`), and every
generator, judge and run row with it, so the copy is the released layout with k times the records,
generations and verdicts (12 M verdict rows for k = 4 on the full-scale sample; 20 M with its
runs). The README's declared row counts are multiplied by k. Lines are rewritten as bytes (only
the `"id"` value of each line changes), so the copy takes about as long as reading and writing
it. The output folder is git-ignored (data/sample_full*/).
"""

from __future__ import annotations

import argparse
import re
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
_ID = re.compile(rb'^\{"id":"([^"\\]*)"')  # every line of the sample starts with its id


def scaled_lines(data: bytes, times: int) -> bytes:
    """Return the JSON lines of `data`, each repeated `times` times with the copies' ids suffixed."""
    out = bytearray()
    for line in data.splitlines(keepends=True):
        m = _ID.match(line)
        if m is None:
            if line.strip():
                raise SystemExit(f"a line does not start with its id: {line[:80]!r}")
            continue
        out += line
        for k in range(1, times):
            out += line[: m.start(1)] + m.group(1) + b"~%d" % k + line[m.end(1) :]
    return bytes(out)


def scale_readme(text: str, times: int) -> str:
    """Return the card with every declared row count multiplied by `times`."""
    return re.sub(r"(num_examples: )(\d+)", lambda m: f"{m.group(1)}{int(m.group(2)) * times}", text)


def main() -> None:
    """Write the scaled copy."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, default=REPO / "data" / "sample_full")
    ap.add_argument("--times", type=int, default=4)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    out = args.out or args.source.with_name(f"{args.source.name}_x{args.times}")
    if out.exists():
        shutil.rmtree(out)
    for path in sorted(args.source.rglob("*")):
        dest = out / path.relative_to(args.source)
        if path.is_dir():
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".jsonl" and path.parent.name in ("data", "runs"):  # annotations: as they are
            dest.write_bytes(scaled_lines(path.read_bytes(), args.times))
        elif path.name == "README.md":
            dest.write_text(scale_readme(path.read_text(encoding="utf-8"), args.times), encoding="utf-8")
        else:
            shutil.copyfile(path, dest)
    print(f"wrote {out} ({args.times}x {args.source}; SYNTHETIC)")


if __name__ == "__main__":
    main()
