"""Fixtures the runner tests share: the toy bench, a fake OpenAI-compatible server and the test key."""

from __future__ import annotations

import pytest

from ajb_judge.toybench import make_toy_bench
from fake_openai_server import FakeServer
from runner_support import SECRET


@pytest.fixture(scope="module")
def bench():
    """Return a four-record toy bench with one generator."""
    return make_toy_bench(4, generators=("qwen3_32b",))


@pytest.fixture
def server():
    """Yield a fresh counting fake server (a module that shares one overrides this)."""
    with FakeServer() as s:
        yield s


@pytest.fixture(autouse=True)
def key_env(monkeypatch):
    """Put the test key in the environment the runner reads it from."""
    monkeypatch.setenv("AJB_TEST_KEY", SECRET)
