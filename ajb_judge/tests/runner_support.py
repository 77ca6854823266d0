"""What the runner tests share: the test key, a fake-server RunConfig, the judge CLI's command line and environment."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ajb_judge import RunConfig

SECRET = "sk-test-DO-NOT-LEAK-4f9a2c"  # the API key the tests pass through AJB_TEST_KEY; must never be stored
REPO = Path(__file__).resolve().parents[2]
CLI_ENV = {**os.environ, "PYTHONPATH": str(REPO), "AJB_TEST_KEY": SECRET}  # the judge CLI's subprocess environment


def cfg(server: Any, bench: Any, tmp_path: Path, model: str = "good", **kw: Any) -> RunConfig:
    """Return a RunConfig against the fake server: fast backoff, 4 workers, a store under tmp_path."""
    base = dict(
        name="t",
        backend="openai",
        model=model,
        base_urls=[server.url],
        api_key_env="AJB_TEST_KEY",
        bench=bench,
        out_dir=tmp_path / "runs",
        store_path=tmp_path / "store.sqlite",
        progress=False,
        backoff_base_s=0.01,
        concurrency=4,
        timeout_s=30,
        conditions=["with_gt", "without_gt"],
    )
    base.update(kw)
    return RunConfig(**base)


def cli_args(url: str, tmp_path: Path, model: str = "good", *extra: str, cmd: str = "run") -> list[str]:
    """Return the judge CLI's command line (`cmd` on the toy bench against `url`, store and runs under tmp_path)."""
    return [
        sys.executable,
        "-m",
        "ajb_judge",
        cmd,
        "--backend",
        "openai",
        "--base-url",
        url,
        "--model",
        model,
        "--api-key-env",
        "AJB_TEST_KEY",
        "--source",
        "toy:2",
        "--name",
        "cli",
        "--out",
        str(tmp_path / "runs"),
        "--store",
        str(tmp_path / "cli.sqlite"),
        "--no-progress",
        "--timeout",
        "5",
        *extra,
    ]


def wait_until_idle(stats: Callable[[], dict[str, int]], timeout_s: float = 60.0) -> dict[str, int]:
    """Return the fake server's counters once no request is in flight (each one answered, failed or
    dropped, and billed where it bills): what a server billed is read after its last request, not after a guess."""
    deadline = time.monotonic() + timeout_s
    while (now := stats())["in_flight"] and time.monotonic() < deadline:
        time.sleep(0.02)
    assert now["in_flight"] == 0, f"requests still in flight after {timeout_s} s: {now}"
    return now
