"""Durable, append-only verdict store: SQLite in WAL mode, one committed row per unit key.

A unit is one model call (item x condition x judge-config, and x metric for Prometheus). Every
reply is committed as soon as it is parsed, with its raw text, so a crash (even ``kill -9``) loses
at most the calls in flight, and a restart never re-pays for a stored verdict. An ``ok`` row is
never overwritten except by ``reparse``; failed rows are replaced on retry with the attempt count
accumulated. Secrets are never written here (the config is stored with its key *name* only).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

COLUMNS: list[str] = [
    "key", "run_hash", "kind", "condition", "item_id", "generator", "difficulty", "unit",
    "status", "attempts", "raw", "reasoning", "finish_reason", "parsed", "model", "fingerprint",
    "prompt_hash", "request_hash", "decoding", "seed", "prompt_tokens", "completion_tokens",
    "latency_s", "error", "updated_at",
]
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS results (
  key TEXT PRIMARY KEY, run_hash TEXT NOT NULL, kind TEXT NOT NULL, condition TEXT,
  item_id TEXT, generator TEXT, difficulty TEXT, unit TEXT, status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 1, raw TEXT, reasoning TEXT, finish_reason TEXT, parsed TEXT,
  model TEXT, fingerprint TEXT, prompt_hash TEXT, request_hash TEXT, decoding TEXT, seed INTEGER,
  prompt_tokens INTEGER, completion_tokens INTEGER, latency_s REAL, error TEXT, updated_at REAL
);
CREATE INDEX IF NOT EXISTS results_run ON results(run_hash, kind, status);
CREATE TABLE IF NOT EXISTS runs (
  run_hash TEXT PRIMARY KEY, name TEXT, config TEXT, created_at REAL
);
"""
_UPSERT = f"""
INSERT INTO results ({", ".join(COLUMNS)}) VALUES ({", ".join("?" for _ in COLUMNS)})
ON CONFLICT(key) DO UPDATE SET
  {", ".join(f"{c}=excluded.{c}" for c in COLUMNS if c not in ("key", "attempts"))},
  attempts = results.attempts + excluded.attempts
WHERE results.status != 'ok'
"""


class Store:
    """The verdict store (one SQLite file; safe to reopen after any crash)."""

    def __init__(self, path: Path | str, durable: bool = False) -> None:
        """Open (and create) the store at `path`; `durable` also survives power loss."""
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(str(self.path), timeout=60, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a committed row survives a process kill; FULL also survives power loss.
        self.conn.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        self.conn.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the connection (checkpointing the WAL)."""
        self.conn.close()

    def __enter__(self) -> Store:
        """Return self (context manager)."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Close on exit."""
        self.close()

    # ----------------------------------------------------------------------------- writes
    def register_run(self, run_hash: str, name: str, config: dict[str, Any]) -> None:
        """Record a run's (secret-free) config under its hash; no-op if already there."""
        self.conn.execute(
            "INSERT OR IGNORE INTO runs VALUES (?, ?, ?, ?)",
            (run_hash, name, json.dumps(config, sort_keys=True, default=str), time.time()),
        )

    def put(self, row: dict[str, Any]) -> None:
        """Commit one result row (never replaces an ok row; accumulates attempts on retry)."""
        vals = []
        for c in COLUMNS:
            v = row.get(c)
            if c in ("parsed", "decoding") and v is not None and not isinstance(v, str):
                v = json.dumps(v, sort_keys=True, default=str)
            vals.append(v)
        vals[COLUMNS.index("updated_at")] = time.time()
        if vals[COLUMNS.index("attempts")] is None:
            vals[COLUMNS.index("attempts")] = 1
        self.conn.execute(_UPSERT, vals)  # autocommit: one durable transaction per row

    def put_many(self, rows: Iterable[dict[str, Any]]) -> int:
        """Commit many rows in one transaction (for imports and the static judge); return count."""
        n = 0
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            for r in rows:
                self.put(r)
                n += 1
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        return n

    def overwrite_parse(self, key: str, status: str, parsed: dict[str, Any]) -> None:
        """Replace a row's status and parsed verdict (used only by --reparse; no call made)."""
        self.conn.execute(
            "UPDATE results SET status=?, parsed=?, updated_at=? WHERE key=?",
            (status, json.dumps(parsed, sort_keys=True, default=str), time.time(), key),
        )

    # ------------------------------------------------------------------------------ reads
    def statuses(self, run_hashes: Iterable[str]) -> dict[str, str]:
        """Return {key: status} for every row of the given run hashes."""
        hs = list(set(run_hashes))
        if not hs:
            return {}
        q = f"SELECT key, status FROM results WHERE run_hash IN ({','.join('?' for _ in hs)})"
        return dict(self.conn.execute(q, hs).fetchall())

    def rows(self, run_hashes: Iterable[str], kind: str | None = None) -> Iterator[dict[str, Any]]:
        """Yield stored rows (dicts, `parsed` decoded) for the given run hashes."""
        hs = list(set(run_hashes))
        if not hs:
            return
        q = f"SELECT {', '.join(COLUMNS)} FROM results WHERE run_hash IN ({','.join('?' for _ in hs)})"
        args: list[Any] = hs
        if kind:
            q += " AND kind = ?"
            args = [*hs, kind]
        for tup in self.conn.execute(q, args):
            d = dict(zip(COLUMNS, tup, strict=True))
            if d["parsed"]:
                d["parsed"] = json.loads(d["parsed"])
            yield d

    def get(self, key: str) -> dict[str, Any] | None:
        """Return one row by key (None if absent)."""
        tup = self.conn.execute(f"SELECT {', '.join(COLUMNS)} FROM results WHERE key=?", (key,)).fetchone()
        if tup is None:
            return None
        d = dict(zip(COLUMNS, tup, strict=True))
        d["parsed"] = json.loads(d["parsed"]) if d["parsed"] else None
        return d

    def count(self) -> int:
        """Return the number of stored rows."""
        return int(self.conn.execute("SELECT COUNT(*) FROM results").fetchone()[0])
