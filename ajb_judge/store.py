"""Durable, append-only verdict store: SQLite in WAL mode, one committed row per unit key.

A unit is one model call (item x condition x judge-config, and x metric for Prometheus). Every
reply is committed as soon as it is parsed, with its raw text, so a crash (even ``kill -9``) loses
at most the calls in flight, and a restart never re-pays for a stored verdict. An ``ok`` row is
never overwritten except by ``reparse``; failed rows are replaced on retry with the attempt count
accumulated. Secrets are never written here (the config is stored with its key *name* only).

One writer at a time: opening a store takes an exclusive lock on ``<store>.lock`` (``filelock``;
released by the OS if the process dies, so ``kill -9`` leaves no stale lock). A second runner on
the same store fails at once with :class:`StoreLockedError` instead of paying for every answer
twice. The lock is taken on the store's resolved path, so a store opened through a symlink is
the same store, and on the database file itself (``flock`` on its inode). A file with more than one
name (hard links) is refused (:class:`StoreDamagedError`): SQLite keeps one write-ahead log per
name, so two names over one database corrupt it. Every open runs ``PRAGMA quick_check`` and
refuses a store that fails it.

Money: before a call is sent, its reservation (the prompt's estimated tokens plus the request's
own max tokens) is committed to the ``spend`` table (``what='reserved'``). A reply replaces the
reservation by its reported usage in the same transaction that commits the answer; a timed-out
attempt keeps its reservation as spent (``what='timeout'``), and so does one whose connection
failed after it may have been sent (``what='dropped'``); only an attempt answered with an HTTP
error, or whose connection was refused, releases it. The budget check and the reservation are
one transaction (:meth:`Store.reserve`) over ``spend_total``, which triggers on ``spend`` keep. Every
spend row keeps the prices it was booked at (``price_in``, ``price_out``: a USD budget sums each row at
its own) and the open that reserved it (``owner``). A reservation left by a killed process stays
counted as spent, so a budget holds across kills and resumes; the next writer settles it
(:meth:`Store.settle_dead`). A run's budget and prices are recorded with it (``budgets``, by name). A batch export reserves each request it writes
(``what='batch_reserved'``); an import replaces the reservation by the usage its line reports and
books every other paid line too. Lines imported from batch output files are remembered by their
hash (``imported``), so importing a file twice adds nothing.

Identity: ``info.store_id`` names the store in its exports, and ``info.inode`` the file it was
made as: a store opened at another inode is a copy and gets an id of its own.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

_RESULTS = """
  key TEXT PRIMARY KEY, run_hash TEXT NOT NULL, kind TEXT NOT NULL, condition TEXT,
  item_id TEXT, generator TEXT, difficulty TEXT, unit TEXT, status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 1, raw TEXT, reasoning TEXT, finish_reason TEXT, parsed TEXT,
  model TEXT, fingerprint TEXT, prompt_hash TEXT, request_hash TEXT, decoding TEXT, seed INTEGER,
  prompt_tokens INTEGER, completion_tokens INTEGER, latency_s REAL, error TEXT, updated_at REAL,
  reused_from TEXT
"""
COLUMNS: list[str] = [c.split()[0] for c in _RESULTS.split(",")]  # the results table's columns, in order
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS results ({_RESULTS});
CREATE INDEX IF NOT EXISTS results_run ON results(run_hash, kind, status);
CREATE TABLE IF NOT EXISTS runs (
  run_hash TEXT PRIMARY KEY, name TEXT, config TEXT, created_at REAL
);
CREATE TABLE IF NOT EXISTS spend (
  at REAL, run_hash TEXT, key TEXT, what TEXT, prompt_tokens INTEGER, completion_tokens INTEGER,
  estimated INTEGER NOT NULL DEFAULT 0, price_in REAL, price_out REAL, owner TEXT
);
CREATE TABLE IF NOT EXISTS info (name TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS budgets (
  name TEXT PRIMARY KEY, tokens INTEGER, usd REAL, price_in REAL, price_out REAL, set_at REAL
);
CREATE TABLE IF NOT EXISTS imported (line_hash TEXT PRIMARY KEY, at REAL);
"""
# The spend total, kept by triggers: tokens, the USD of rows booked with their prices, the tokens of rows without.
_USD = "(COALESCE({r}.prompt_tokens, 0) * {r}.price_in + COALESCE({r}.completion_tokens, 0) * {r}.price_out) / 1e6"
_TOTAL_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS spend_total (
  id INTEGER PRIMARY KEY CHECK (id = 0), prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL,
  usd REAL NOT NULL DEFAULT 0, unpriced_in INTEGER NOT NULL DEFAULT 0, unpriced_out INTEGER NOT NULL DEFAULT 0
);
CREATE TRIGGER IF NOT EXISTS spend_total_insert AFTER INSERT ON spend BEGIN
  UPDATE spend_total SET prompt_tokens = prompt_tokens + COALESCE(NEW.prompt_tokens, 0),
    completion_tokens = completion_tokens + COALESCE(NEW.completion_tokens, 0),
    usd = usd + COALESCE({_USD.format(r="NEW")}, 0),
    unpriced_in = unpriced_in + IIF(NEW.price_in IS NULL, COALESCE(NEW.prompt_tokens, 0), 0),
    unpriced_out = unpriced_out + IIF(NEW.price_out IS NULL, COALESCE(NEW.completion_tokens, 0), 0) WHERE id = 0;
END;
CREATE TRIGGER IF NOT EXISTS spend_total_delete AFTER DELETE ON spend BEGIN
  UPDATE spend_total SET prompt_tokens = prompt_tokens - COALESCE(OLD.prompt_tokens, 0),
    completion_tokens = completion_tokens - COALESCE(OLD.completion_tokens, 0),
    usd = usd - COALESCE({_USD.format(r="OLD")}, 0),
    unpriced_in = unpriced_in - IIF(OLD.price_in IS NULL, COALESCE(OLD.prompt_tokens, 0), 0),
    unpriced_out = unpriced_out - IIF(OLD.price_out IS NULL, COALESCE(OLD.completion_tokens, 0), 0) WHERE id = 0;
END;
CREATE TRIGGER IF NOT EXISTS spend_total_update AFTER UPDATE OF prompt_tokens, completion_tokens, price_in, price_out
ON spend BEGIN
  UPDATE spend_total SET prompt_tokens = prompt_tokens + COALESCE(NEW.prompt_tokens, 0) - COALESCE(OLD.prompt_tokens, 0),
    completion_tokens = completion_tokens + COALESCE(NEW.completion_tokens, 0) - COALESCE(OLD.completion_tokens, 0),
    usd = usd + COALESCE({_USD.format(r="NEW")}, 0) - COALESCE({_USD.format(r="OLD")}, 0),
    unpriced_in = unpriced_in + IIF(NEW.price_in IS NULL, COALESCE(NEW.prompt_tokens, 0), 0)
      - IIF(OLD.price_in IS NULL, COALESCE(OLD.prompt_tokens, 0), 0),
    unpriced_out = unpriced_out + IIF(NEW.price_out IS NULL, COALESCE(NEW.completion_tokens, 0), 0)
      - IIF(OLD.price_out IS NULL, COALESCE(OLD.completion_tokens, 0), 0) WHERE id = 0;
END;
INSERT OR IGNORE INTO spend_total SELECT 0, COALESCE(SUM(prompt_tokens), 0), COALESCE(SUM(completion_tokens), 0),
  COALESCE(SUM({_USD.format(r="spend")}), 0), COALESCE(SUM(IIF(price_in IS NULL, prompt_tokens, 0)), 0),
  COALESCE(SUM(IIF(price_out IS NULL, completion_tokens, 0)), 0) FROM spend;
"""
_SPEND_COLUMNS = "at, run_hash, key, what, prompt_tokens, completion_tokens, estimated, price_in, price_out, owner"
_OLD_TOTAL = (  # what a store made before spend kept its prices has, and is replaced on open
    "DROP TRIGGER IF EXISTS spend_total_insert; DROP TRIGGER IF EXISTS spend_total_delete; "
    "DROP TRIGGER IF EXISTS spend_total_update; DROP TABLE IF EXISTS spend_total; "
)


SPENT_KEYS = ("prompt_tokens", "completion_tokens", "attempts", "estimated", "reserved", "batch_reserved", "killed")
TOTAL_KEYS = ("prompt_tokens", "completion_tokens", "usd", "unpriced_in", "unpriced_out")
Prices = tuple[float | None, float | None]  # USD per 1M prompt / completion tokens (None: not given)


def with_spend(total: dict[str, float], prompt: int, completion: int, prices: Prices) -> dict[str, float]:
    """Return a spend total (Store.spend_total) with one more row of these tokens booked at `prices`."""
    pin, pout = prices
    return {
        "prompt_tokens": total["prompt_tokens"] + prompt,
        "completion_tokens": total["completion_tokens"] + completion,
        "usd": total["usd"]
        + (prompt * pin / 1e6 if pin is not None else 0)
        + (completion * pout / 1e6 if pout is not None else 0),
        "unpriced_in": total["unpriced_in"] + (prompt if pin is None else 0),
        "unpriced_out": total["unpriced_out"] + (completion if pout is None else 0),
    }


class StoreLockedError(RuntimeError):
    """Another process holds the store: a second writer would pay for every answer twice."""


class StoreDamagedError(ValueError):
    """The store cannot be used safely: it fails SQLite's integrity check, or it has more than one name."""


_UPSERT = f"""
INSERT INTO results ({", ".join(COLUMNS)}) VALUES ({", ".join("?" for _ in COLUMNS)})
ON CONFLICT(key) DO UPDATE SET
  {", ".join(f"{c}=excluded.{c}" for c in COLUMNS if c not in ("key", "attempts"))},
  attempts = results.attempts + excluded.attempts
WHERE results.status != 'ok'
"""


def lock_path(path: Path | str) -> Path:
    """Return the lock file beside a store."""
    p = Path(path)
    return p.with_name(p.name + ".lock")


def _lock_file(path: Path, lock: bool) -> int | None:
    """Return a writer's open, exclusively flock-ed descriptor of the database file itself (None for a reader).

    The lock belongs to the file (its inode), not to one of its names; a file with two names
    (hard links) is refused: SQLite keeps one write-ahead log per name, so a second name would
    read the database without the first one's log and write its own over it.
    """
    import fcntl

    if not lock:  # a reader opens no descriptor of its own: closing one would drop this process's SQLite locks
        if path.exists():
            _refuse_links(path, os.stat(path).st_nlink)
        return None
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        _refuse_links(path, os.fstat(fd).st_nlink)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StoreLockedError(
                f"store {path} is in use by another runner (the database file is locked, through "
                "another name); wait for it to finish or use another --store / --name"
            ) from None
    except BaseException:
        os.close(fd)
        raise
    return fd


def _refuse_links(path: Path, links: int) -> None:
    """Raise StoreDamagedError when a store file has more than one name."""
    if links > 1:
        raise StoreDamagedError(
            f"store {path} has {links} names (hard links): SQLite keeps one write-ahead log per name, so "
            "writing through two names corrupts it; keep one name and rm the others (find them with "
            f"find / -xdev -samefile {path}); a copy (cp) is another store: it gets its own store id, and its own "
            "budget ledger from then on, and never writes the original's exports"
        )


def _damaged(path: Path, why: object) -> StoreDamagedError:
    """Return the error of a store that fails SQLite's integrity check (what failed: `why`)."""
    return StoreDamagedError(
        f"store {path} fails SQLite's integrity check ({str(why)[:300]}): move it aside (its paid replies "
        "may be recoverable with the sqlite3 .recover command) and run again, or pass another --store"
    )


def _check_integrity(conn: sqlite3.Connection, path: Path) -> None:
    """Raise StoreDamagedError unless SQLite's quick_check passes (pages, indexes, constraints)."""
    problems = [r[0] for r in conn.execute("PRAGMA quick_check(5)")]
    if problems != ["ok"]:
        raise _damaged(path, "; ".join(problems))


def ok_replies_in(path: Path | str, run_hash: str, request_hashes: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Return {request hash: ok row} of a run's ok replies in another store, read-only (no lock, nothing written).

    The file is opened with SQLite's ``mode=ro``: the store's own runner may be writing it (WAL
    readers never block it), and a reply read here is a committed one. Raises sqlite3.Error when
    the file is not a readable store.
    """
    hs = list(dict.fromkeys(request_hashes))
    conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, timeout=10)
    try:
        out: dict[str, dict[str, Any]] = {}
        for i in range(0, len(hs), 500):
            chunk = hs[i : i + 500]
            q = (
                f"SELECT {', '.join(COLUMNS)} FROM results WHERE run_hash=? AND status='ok' "
                f"AND request_hash IN ({','.join('?' for _ in chunk)})"
            )
            for tup in conn.execute(q, [run_hash, *chunk]):
                d = dict(zip(COLUMNS, tup, strict=True))
                d["parsed"] = json.loads(d["parsed"]) if d["parsed"] else None
                out.setdefault(d["request_hash"], d)
        return out
    finally:
        conn.close()


class Store:
    """The verdict store (one SQLite file; safe to reopen after any crash)."""

    def __init__(self, path: Path | str, durable: bool = False, lock: bool = True) -> None:
        """Open (and create) the store at `path`, exclusively unless `lock` is False (read-only use).

        Raises StoreLockedError when another runner holds it, StoreDamagedError when the file has
        more than one name (hard links) or fails SQLite's quick_check.
        """
        from filelock import FileLock, Timeout

        self.path = Path(path).expanduser().resolve()  # a symlink to a store is that store (one lock)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = None
        self._fd: int | None = None
        self.conn: sqlite3.Connection = None  # type: ignore[assignment]
        if lock:
            self._lock = FileLock(str(lock_path(self.path)), timeout=0)
            try:
                self._lock.acquire()
            except Timeout:
                raise StoreLockedError(
                    f"store {self.path} is in use by another runner (lock {lock_path(self.path)} is held); "
                    "wait for it to finish or use another --store / --name"
                ) from None
        try:
            self._fd = _lock_file(self.path, lock)
            self.conn = sqlite3.connect(str(self.path), timeout=60, isolation_level=None)
            self.conn.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a committed row survives a process kill; FULL also survives power loss.
            self.conn.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            _check_integrity(self.conn, self.path)
            # the schema, what an older store lacks and the spend total's first value: one transaction
            self.conn.executescript(f"BEGIN IMMEDIATE; {_SCHEMA}; {self._migration()} {_TOTAL_SCHEMA} COMMIT;")
            self.store_id: str | None = self._identity(lock)
            self.session = uuid.uuid4().hex[:16]  # the owner of this open's reservations (see settle_dead)
        except sqlite3.DatabaseError as exc:
            self.close()
            raise _damaged(self.path, exc) from None
        except BaseException:
            self.close()
            raise

    def _migration(self) -> str:
        """Return the SQL that gives a store made before spend kept its prices the columns and total it lacks."""
        cols = [r[1] for r in self.conn.execute("PRAGMA table_info(spend)")]
        total = [r[1] for r in self.conn.execute("PRAGMA table_info(spend_total)")]
        add = "".join(f"ALTER TABLE spend ADD COLUMN {c}; " for c in ("price_in REAL", "price_out REAL", "owner TEXT"))
        return (add if cols and "price_in" not in cols else "") + (_OLD_TOTAL if total and "usd" not in total else "")

    def _identity(self, writer: bool) -> str | None:
        """Return the store's id: a store opened at another inode than the one it records is a copy, with an id of its own.

        ``cp`` copies every row, ``info.store_id`` included; a moved store (``mv`` in one file
        system, or its folder moved) keeps its inode and its id. A writer records the inode of a
        new store (and of a store made before inodes were recorded) and gives a copy a new id,
        said on stderr; a reader (dry run) sees a copy as a store without an id yet.
        """
        got = dict(self.conn.execute("SELECT name, value FROM info WHERE name IN ('store_id', 'inode')").fetchall())
        inode = str(os.stat(self.path).st_ino)
        copied = "store_id" in got and got.get("inode") not in (None, inode)
        if not writer:
            return None if copied else got.get("store_id")
        if copied:
            import sys

            print(
                f"note: store {self.path} is a copy of store {got['store_id']} (made at inode {got['inode']}, opened "
                f"at {inode}): it gets a store id of its own, so it never writes the original's exports",
                file=sys.stderr,
            )
        sid = got["store_id"] if "store_id" in got and not copied else uuid.uuid4().hex[:16]
        self.conn.execute("INSERT OR REPLACE INTO info VALUES ('store_id', ?)", (sid,))
        self.conn.execute("INSERT OR REPLACE INTO info VALUES ('inode', ?)", (inode,))
        return sid

    def close(self) -> None:
        """Close the connection (if open: checkpointing the WAL), then the database file's descriptor and the writer lock."""
        try:
            if self.conn is not None:
                self.conn.close()
                self.conn = None  # type: ignore[assignment]
        finally:
            if self._fd is not None:  # closed after SQLite: closing a descriptor drops the process's POSIX locks
                os.close(self._fd)
                self._fd = None
            if self._lock is not None:
                self._lock.release()
                self._lock = None

    def __enter__(self) -> Store:
        """Return self (context manager)."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Close on exit."""
        self.close()

    # ----------------------------------------------------------------------------- writes
    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Hold one write transaction (``BEGIN IMMEDIATE``): committed at the end, rolled back on any error."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def register_run(self, run_hash: str, name: str, config: dict[str, Any]) -> None:
        """Record a run's (secret-free) config under its hash; no-op if already there."""
        self.conn.execute(
            "INSERT OR IGNORE INTO runs VALUES (?, ?, ?, ?)",
            (run_hash, name, json.dumps(config, sort_keys=True, default=str), time.time()),
        )

    def add_spend(
        self,
        run_hash: str,
        key: str,
        what: str,
        prompt_tokens: int | None,
        completion_tokens: int | None,
        estimated: bool = False,
        prices: Prices = (None, None),
    ) -> None:
        """Record one paid attempt (a reply, or a timed-out request with estimated tokens) at the prices it was paid at."""
        self.conn.execute(
            f"INSERT INTO spend ({_SPEND_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                time.time(),
                run_hash,
                key,
                what,
                prompt_tokens or 0,
                completion_tokens or 0,
                int(estimated),
                *prices,
                None,
            ),
        )

    def reserve(
        self,
        requests: list[tuple[str, str, int, int]],
        refuse: Callable[[dict[str, float], int], str | None] | None = None,
        what: str = "reserved",
        prices: Prices = (None, None),
        owner: str | None = None,
    ) -> tuple[list[int], str | None]:
        """Commit a reservation for each request (run hash, key, prompt, completion) about to be sent or exported.

        The store's total spend is read and the reservations written in one transaction (``BEGIN
        IMMEDIATE``): requests are reserved in order, each at `prices` (USD per 1M prompt /
        completion tokens, kept with its row), until ``refuse(total, this_request_tokens)`` gives a
        reason (the total with this request, see spend_total); return (the reservation ids, that
        reason or None). The store's spend is the budget's only source: every run, resume, batch
        import and call in flight is in it. A reservation counts as spent until settled: a reply
        (or an imported line, ``what='batch_reserved'``, :meth:`put_many`) replaces it by its usage.
        An `owner` (a batch export's file) replaces its own open reservation of the same key: a
        file written again holds the request once (the old bytes are gone from the disk).
        """
        ids: list[int] = []
        why = None
        with self.transaction():
            total = self.spend_total()
            for run_hash, key, p, c in requests:
                old = self.conn.execute(
                    "SELECT rowid, prompt_tokens, completion_tokens, price_in, price_out FROM spend "
                    "WHERE what=? AND owner=? AND key=? LIMIT 1",
                    (what, owner, key),
                ).fetchone()
                base = with_spend(total, -old[1], -old[2], old[3:]) if old else total
                after = with_spend(base, p, c, prices)
                why = refuse(after, p + c) if refuse is not None else None
                if why:
                    break
                if old:
                    self.conn.execute("DELETE FROM spend WHERE rowid=?", (old[0],))
                cur = self.conn.execute(
                    f"INSERT INTO spend ({_SPEND_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?)",
                    (time.time(), run_hash, key, what, p, c, *prices, owner or self.session),
                )
                ids.append(int(cur.lastrowid))
                total = after
        return ids, why

    def release_many(self, reservations: list[int]) -> None:
        """Drop reservations (batch requests that were not written after all)."""
        self.conn.executemany("DELETE FROM spend WHERE rowid=? AND what LIKE '%reserved'", [(r,) for r in reservations])

    def spend_total(self) -> dict[str, float]:
        """Return the spend of every row (paid, estimated, reserved; kept by triggers): tokens, the USD of the rows
        booked with prices (each at its own), and the tokens of rows booked without prices."""
        row = self.conn.execute(f"SELECT {', '.join(TOTAL_KEYS)} FROM spend_total WHERE id = 0").fetchone()
        return dict(zip(TOTAL_KEYS, row, strict=True)) if row else dict.fromkeys(TOTAL_KEYS, 0)

    def price_unpriced(self, prices: Prices) -> int:
        """Book every spend row without prices at `prices` (a USD budget's first prices); return the rows priced."""
        cur = self.conn.execute("UPDATE spend SET price_in=?, price_out=? WHERE price_in IS NULL", prices)
        return cur.rowcount

    def settle_dead(self) -> tuple[int, int]:
        """Settle the live-call reservations of processes that died (kill -9, power loss); return (rows, tokens released).

        Only a writer calls this, under the store's exclusive lock, so a reservation of another
        owner belongs to a process that no longer runs. Its call may have been billed, so it stays
        spent (``what='killed'``, estimated), with one safe release: when the same request (same
        key) was answered since with a reported usage, its prompt is billed at that usage (the
        same messages are the same prompt tokens), not at the reservation's estimate; the
        completion stays at the cap the request carried (the provider may have generated it all).
        """
        dead = self.conn.execute(
            "SELECT s.rowid, s.prompt_tokens, r.prompt_tokens FROM spend s LEFT JOIN results r ON r.key = s.key "
            "AND r.raw IS NOT NULL AND r.prompt_tokens > 0 WHERE s.what='reserved' AND (s.owner IS NULL OR s.owner != ?)",
            (self.session,),
        ).fetchall()
        released = 0
        with self.transaction():
            for rowid, reserved, answered in dead:
                prompt = min(reserved, answered) if answered else reserved
                released += reserved - prompt
                self.conn.execute("UPDATE spend SET what='killed', prompt_tokens=? WHERE rowid=?", (prompt, rowid))
        return len(dead), released

    def release(self, reservation: int) -> None:
        """Drop the reservation of an attempt the server answered with an error (not billed)."""
        self.conn.execute("DELETE FROM spend WHERE rowid=? AND what='reserved'", (reservation,))

    def keep_as_spent(self, reservation: int, what: str = "timeout") -> None:
        """Turn a reservation into estimated spend (a timed-out or dropped attempt may have been billed in full)."""
        self.conn.execute("UPDATE spend SET what=? WHERE rowid=? AND what='reserved'", (what, reservation))

    def record_budget(self, name: str, tokens: int | None, usd: float | None, prices: Prices) -> None:
        """Record a run's budget (tokens, USD) and the prices its calls are booked at; the run's resumes keep them."""
        self.conn.execute(
            "INSERT OR REPLACE INTO budgets VALUES (?, ?, ?, ?, ?, ?)", (name, tokens, usd, *prices, time.time())
        )

    def budget(self, name: str) -> dict[str, Any] | None:
        """Return a run's recorded budget {tokens, usd, price_in, price_out} (None: none recorded)."""
        row = self.conn.execute("SELECT tokens, usd, price_in, price_out FROM budgets WHERE name=?", (name,)).fetchone()
        return None if row is None else dict(zip(("tokens", "usd", "price_in", "price_out"), row, strict=True))

    def put_paid(self, row: dict[str, Any], reservation: int | None = None, prices: Prices = (None, None)) -> None:
        """Commit one result row and its spend (replacing its reservation) in one transaction."""
        with self.transaction():
            self.put(row)
            paid = row.get("raw") is not None or row.get("prompt_tokens") or row.get("completion_tokens")
            if reservation is not None and paid:  # the reservation becomes the reply's reported usage
                self.conn.execute(
                    "UPDATE spend SET at=?, what='reply', prompt_tokens=?, completion_tokens=?, estimated=0 "
                    "WHERE rowid=?",
                    (time.time(), row.get("prompt_tokens") or 0, row.get("completion_tokens") or 0, reservation),
                )
            elif reservation is not None:
                self.conn.execute("DELETE FROM spend WHERE rowid=?", (reservation,))
            elif paid:
                self.add_spend(
                    row["run_hash"],
                    row["key"],
                    "reply",
                    row.get("prompt_tokens"),
                    row.get("completion_tokens"),
                    prices=prices,
                )

    def spent(self) -> dict[str, int]:
        """Return the tokens spent over the store's whole life (every run, every resume, open reservations)."""
        r = self.conn.execute(
            "SELECT COALESCE(SUM(prompt_tokens), 0), COALESCE(SUM(completion_tokens), 0), "
            "COUNT(*), COALESCE(SUM(estimated), 0), COALESCE(SUM(what='reserved'), 0), "
            "COALESCE(SUM(what='batch_reserved'), 0), COALESCE(SUM(what='killed'), 0) FROM spend"
        ).fetchone()
        return dict(zip(SPENT_KEYS, map(int, r), strict=True))

    def imported(self, line_hashes: Iterable[str]) -> set[str]:
        """Return which of the given batch-output line hashes were imported before."""
        hs = list(line_hashes)
        seen: set[str] = set()
        for i in range(0, len(hs), 500):
            chunk = hs[i : i + 500]
            q = f"SELECT line_hash FROM imported WHERE line_hash IN ({','.join('?' for _ in chunk)})"
            seen.update(x for (x,) in self.conn.execute(q, chunk))
        return seen

    def ok_by_request(self, run_hash: str) -> dict[str, str]:
        """Return {request hash: key} of the ok rows of a run that were answered by a call of their own."""
        q = "SELECT request_hash, key FROM results WHERE run_hash=? AND status='ok' AND request_hash IS NOT NULL"
        return dict(self.conn.execute(q, (run_hash,)).fetchall())

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

    def put_many(
        self,
        rows: Iterable[dict[str, Any]],
        imported: Iterable[str] = (),
        paid: Iterable[dict[str, Any]] = (),
        prices: Prices = (None, None),
    ) -> int:
        """Commit imported batch rows, the spend of every paid line and the lines' hashes in one transaction; return rows.

        `paid` holds one entry per output line (run_hash, key, prompt_tokens, completion_tokens,
        billed): each replaces an open reservation of its key left by batch-export (the oldest), or
        is added to the spend; a line answered with an error (billed False) releases one.
        """
        n = 0
        with self.transaction():
            self.conn.executemany("INSERT OR IGNORE INTO imported VALUES (?, ?)", [(h, time.time()) for h in imported])
            for r in rows:
                self.put(r)
                n += 1
            self._book_batch(list(paid), prices)
        return n

    def _book_batch(self, lines: list[dict[str, Any]], prices: Prices) -> None:
        """Book imported batch lines against the reservations batch-export left (inside a transaction); a paid line
        without one is booked at `prices` (a reservation keeps the prices of the export that made it)."""
        open_: dict[str, list[int]] = {}
        for rowid, key in self.conn.execute("SELECT rowid, key FROM spend WHERE what='batch_reserved' ORDER BY rowid"):
            open_.setdefault(key, []).append(rowid)
        for x in lines:
            waiting = open_.get(x["key"])
            rid = waiting.pop(0) if waiting else None
            usage = (x.get("prompt_tokens") or 0, x.get("completion_tokens") or 0)
            if not x["billed"]:
                if rid is not None:
                    self.conn.execute("DELETE FROM spend WHERE rowid=?", (rid,))
            elif rid is not None and any(usage):
                self.conn.execute(
                    "UPDATE spend SET at=?, what='batch', prompt_tokens=?, completion_tokens=?, estimated=0 WHERE rowid=?",
                    (time.time(), *usage, rid),
                )
            elif rid is not None:  # billed, usage not reported: the reservation stays, as spent
                self.conn.execute("UPDATE spend SET what='batch' WHERE rowid=?", (rid,))
            elif any(usage):
                self.add_spend(x["run_hash"], x["key"], "batch", *usage, prices=prices)

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
