"""A loopback stand-in for the Hugging Face hub: serves local folders as one dataset repo.

The real clients (`huggingface_hub`, `datasets`) are pointed at it with HF_ENDPOINT and talk to
it exactly as they would to huggingface.co. It implements the few routes they use for a public
dataset repo (checked against huggingface_hub 2.x and datasets 5.x; anything else answers 404
and is recorded in `unhandled`):

    GET  /api/datasets/<repo>[/revision/<rev>]          repo info: commit `sha`, `siblings`
    GET  /api/datasets/<repo>/tree/<rev>[/<path>]        tree listing (?recursive=true|false)
    POST /api/datasets/<repo>/paths-info/<rev>           info for the form field `paths`
    HEAD /datasets/<repo>/resolve/<rev>/<path>           ETag, X-Repo-Commit, Content-Length
    GET  /datasets/<repo>/resolve/<rev>/<path>           the file (Range requests honoured)
    GET  /api/agent-harnesses                            an empty registry (huggingface_hub's
                                                         user-agent detection asks for it)

Each commit is a folder served as the repo at that commit; `main` (and any tag) points at one
commit. Errors carry the hub's X-Error-Code header (RepoNotFound, RevisionNotFound,
EntryNotFound), so the clients raise their usual exceptions.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import orjson


def commit_sha(name: str) -> str:
    """Return a fixed 40-hex commit id derived from `name` (stable across runs)."""
    return hashlib.sha1(f"hub-standin:{name}".encode()).hexdigest()


def git_blob_oid(path: Path) -> str:
    """Return the git blob id of a file (what the hub reports as a small file's oid and ETag)."""
    data = path.read_bytes()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class HubStandIn:
    """A threaded HTTP server on 127.0.0.1 serving `commits` (sha -> folder) as `repo_id`."""

    def __init__(self, repo_id: str, commits: dict[str, Path], refs: dict[str, str]) -> None:
        self.repo_id = repo_id
        self.commits = {sha: Path(folder) for sha, folder in commits.items()}
        self.refs = dict(refs)  # branch or tag -> commit sha; must include "main"
        self.requests: list[tuple[str, str, str]] = []  # method, path, user agent
        self.unhandled: list[tuple[str, str]] = []
        self.bytes_served = 0  # file bytes sent by GET .../resolve/...
        self._oids: dict[Path, str] = {}
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------
    @property
    def endpoint(self) -> str:
        """Return the base URL to put in HF_ENDPOINT."""
        assert self._server is not None, "stand-in not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> HubStandIn:
        """Start serving in a daemon thread; return self."""
        handler = type("Handler", (_Handler,), {"hub": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket (later connections are refused)."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._thread.join(timeout=5)
            self._server = None

    def __enter__(self) -> HubStandIn:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # -- repo model --------------------------------------------------------------------------
    def commit_of(self, rev: str) -> str | None:
        """Return the commit sha a branch, tag or (full or short) sha names; None if unknown."""
        rev = unquote(rev)
        if rev in self.refs:
            return self.refs[rev]
        hits = [sha for sha in self.commits if len(rev) >= 7 and sha.startswith(rev)]
        return hits[0] if len(hits) == 1 else None

    def files(self, sha: str) -> list[str]:
        """Return every file path of the repo at a commit, sorted, '/'-separated."""
        root = self.commits[sha]
        return sorted(
            p.relative_to(root).as_posix()
            for p in root.rglob("*")
            if p.is_file() and ".git" not in p.relative_to(root).parts
        )

    def oid(self, path: Path) -> str:
        """Return (cached) the git blob id of a served file."""
        if path not in self._oids:
            self._oids[path] = git_blob_oid(path)
        return self._oids[path]

    def entry(self, sha: str, rel: str) -> dict[str, Any] | None:
        """Return the tree entry (file or directory) for a path at a commit; None if absent."""
        path = self.commits[sha] / rel
        if path.is_file():
            return {"type": "file", "path": rel, "size": path.stat().st_size, "oid": self.oid(path)}
        if path.is_dir() and rel:
            return {"type": "directory", "path": rel, "oid": hashlib.sha1(f"{sha}:{rel}".encode()).hexdigest()}
        return None

    def tree(self, sha: str, rel: str, recursive: bool) -> list[dict[str, Any]] | None:
        """Return the listing of a folder at a commit (None when it is not a folder)."""
        root = self.commits[sha]
        base = root / rel if rel else root
        if not base.is_dir():
            return None
        children = base.rglob("*") if recursive else base.iterdir()
        rels = sorted(p.relative_to(root).as_posix() for p in children)
        return [e for r in rels if ".git" not in r.split("/") for e in [self.entry(sha, r)] if e is not None]

    def info(self, sha: str) -> dict[str, Any]:
        """Return the repo-info JSON at a commit."""
        return {
            "_id": hashlib.sha1(self.repo_id.encode()).hexdigest()[:24],
            "id": self.repo_id,
            "author": self.repo_id.split("/")[0],
            "sha": sha,
            "private": False,
            "gated": False,
            "disabled": False,
            "downloads": 0,
            "likes": 0,
            "tags": [],
            "lastModified": "2026-11-30T00:00:00.000Z",
            "createdAt": "2026-11-01T00:00:00.000Z",
            "siblings": [{"rfilename": f} for f in self.files(sha)],
        }


def _json(obj: Any) -> bytes:
    """Return compact JSON bytes."""
    return orjson.dumps(obj)


class _Handler(BaseHTTPRequestHandler):
    """Routes of the stand-in; `hub` is set on the subclass made by HubStandIn.start."""

    hub: HubStandIn
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - base signature
        """Silence the default stderr access log (requests are recorded in hub.requests)."""

    # -- helpers -----------------------------------------------------------------------------
    def _send(
        self,
        status: int,
        body: bytes = b"",
        headers: dict[str, str] | None = None,
        content_type: str = "application/json",
    ) -> None:
        """Send a complete response (body omitted for HEAD)."""
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        if "Content-Length" not in (headers or {}):
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and body:
            self.wfile.write(body)

    def _error(self, status: int, code: str, message: str) -> None:
        """Send a hub-style error (X-Error-Code header + JSON message)."""
        self._send(status, _json({"error": message}), {"X-Error-Code": code, "X-Error-Message": message})

    def _repo_rest(self, prefix: str, path: str) -> str | None:
        """Return the part of `path` after `prefix` + repo id, or None if the repo differs."""
        head = f"{prefix}{self.hub.repo_id}"
        if path == head:
            return ""
        if path.startswith(head + "/"):
            return path[len(head) + 1 :]
        return None

    def _commit(self, rev: str) -> str | None:
        """Return the commit for `rev`, having sent RevisionNotFound when there is none."""
        sha = self.hub.commit_of(rev)
        if sha is None:
            self._error(404, "RevisionNotFound", f"Invalid rev id: {unquote(rev)}")
        return sha

    # -- routes ------------------------------------------------------------------------------
    def _route(self) -> None:
        """Dispatch one request."""
        url = urlsplit(self.path)
        path, query = unquote(url.path), parse_qs(url.query)
        self.hub.requests.append((self.command, self.path, self.headers.get("User-Agent", "")))
        api = self._repo_rest("/api/datasets/", path)
        res = self._repo_rest("/datasets/", path)
        if api is not None:
            self._api(api, query)
        elif res is not None and res.startswith("resolve/") and self.command in ("GET", "HEAD"):
            self._resolve(res[len("resolve/") :])
        elif path == "/api/agent-harnesses" and self.command == "GET":
            self._send(200, _json({"standardEnvVars": [], "harnesses": {}}))
        elif path.startswith(("/api/datasets/", "/datasets/")):  # another repo
            self._error(404, "RepoNotFound", "Repository not found")
        else:
            self.hub.unhandled.append((self.command, self.path))
            self._error(404, "NotFound", f"no route for {self.command} {url.path}")

    def _api(self, rest: str, query: dict[str, list[str]]) -> None:
        """Repo info, tree listing and paths-info."""
        kind, _, tail = rest.partition("/")
        if self.command == "GET" and rest == "":
            sha = self._commit("main")
            if sha:
                self._send(200, _json(self.hub.info(sha)))
        elif self.command == "GET" and kind == "revision":
            sha = self._commit(tail)
            if sha:
                self._send(200, _json(self.hub.info(sha)))
        elif self.command == "GET" and kind == "tree":
            rev, _, rel = tail.partition("/")
            sha = self._commit(rev)
            if not sha:
                return
            recursive = (query.get("recursive") or ["false"])[0].lower() == "true"
            listing = self.hub.tree(sha, rel.strip("/"), recursive)
            if listing is None:
                self._error(404, "EntryNotFound", f"{rel} does not exist on {rev}")
            else:
                self._send(200, _json(listing))
        elif self.command == "POST" and kind == "paths-info":
            sha = self._commit(tail)
            if not sha:
                return
            length = int(self.headers.get("Content-Length") or 0)
            form = parse_qs(self.rfile.read(length).decode())
            entries = [self.hub.entry(sha, p.strip("/")) for p in form.get("paths", [])]
            self._send(200, _json([e for e in entries if e is not None]))
        else:
            self.hub.unhandled.append((self.command, self.path))
            self._error(404, "NotFound", f"no route for {self.command} {self.path}")

    def _resolve(self, tail: str) -> None:
        """A file at a revision: headers as the hub sends them, Range honoured for GET."""
        rev, _, rel = tail.partition("/")
        sha = self._commit(rev)
        if not sha:
            return
        path = self.hub.commits[sha] / rel
        if not rel or not path.is_file():
            self._error(404, "EntryNotFound", f"{rel} does not exist on {unquote(rev)}")
            return
        size = path.stat().st_size
        oid = self.hub.oid(path)
        headers = {"ETag": f'"{oid}"', "X-Repo-Commit": sha, "Accept-Ranges": "bytes"}
        start, end, status = 0, size - 1, 200
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes=") and self.command == "GET":
            first, _, last = rng[len("bytes=") :].partition("-")
            if first:
                start, end = int(first), min(int(last) if last else size - 1, size - 1)
            else:  # suffix range: the last N bytes
                start = max(size - int(last), 0)
            if start >= size:
                self._send(416, b"", {"Content-Range": f"bytes */{size}"})
                return
            status = 206
            headers["Content-Range"] = f"bytes {start}-{end}/{size}"
        headers["Content-Length"] = str(end - start + 1 if size else 0)
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        for k, v in headers.items():
            self.send_header(k, v)
        self.end_headers()
        if self.command == "GET" and size:
            with open(path, "rb") as fh:
                fh.seek(start)
                remaining = end - start + 1
                while remaining > 0:
                    chunk = fh.read(min(1 << 20, remaining))
                    if not chunk:
                        break
                    self.wfile.write(chunk)
                    remaining -= len(chunk)
                    self.hub.bytes_served += len(chunk)

    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        self._route()

    def do_HEAD(self) -> None:  # noqa: N802
        self._route()

    def do_POST(self) -> None:  # noqa: N802
        self._route()


# --------------------------------------------------------------------------------------------
# Repo folders for the tests
# --------------------------------------------------------------------------------------------


def reduced_copy(src: Path, dest: Path, n_records: int) -> Path:
    """Write a copy of a hub-layout folder keeping the first `n_records` records of `main`
    and only the rows of other JSON-lines files whose `id` is among them; return `dest`."""
    main = (src / "data" / "main.jsonl").read_bytes().splitlines()
    keep = {json.loads(line)["id"] for line in main[:n_records] if line.strip()}
    kept: dict[str, int] = {}
    for path in sorted(p for p in src.rglob("*") if p.is_file()):
        out = dest / path.relative_to(src)
        out.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix != ".jsonl":
            shutil.copyfile(path, out)
            continue
        with open(path, "rb") as fin, open(out, "wb") as fout:
            rows = [line for line in fin if line.strip() and orjson.loads(line).get("id") in keep]
            fout.writelines(rows)
        kept[path.relative_to(src).as_posix()] = len(rows)
    _declare_rows(dest / "README.md", kept)
    return dest


def release_layout(src: Path, dest: Path) -> Path:
    """Write a copy of a hub-layout folder holding only what the release holds: no runs/ and no
    annotations/, the card's configs of data/ only (its other fields, `synthetic:` included, kept);
    return `dest`."""
    import yaml

    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("runs", "annotations"))
    _, head, body = (dest / "README.md").read_text(encoding="utf-8").split("---\n", 2)
    card = yaml.safe_load(head)
    card["configs"] = [c for c in card["configs"] if all(f["path"].startswith("data/") for f in c["data_files"])]
    kept = {c["config_name"] for c in card["configs"]}
    if isinstance(card.get("dataset_info"), list):
        card["dataset_info"] = [d for d in card["dataset_info"] if d.get("config_name") in kept]
    (dest / "README.md").write_text("---\n" + yaml.safe_dump(card, sort_keys=False) + "---\n" + body, encoding="utf-8")
    return dest


def _declare_rows(readme: Path, kept: dict[str, int]) -> None:
    """Rewrite the row counts a card's `dataset_info:` declares to the rows kept per file."""
    import yaml

    head, sep, rest = readme.read_text(encoding="utf-8")[3:].partition("\n---\n")
    header = yaml.safe_load(head)
    if not header.get("dataset_info"):
        return
    path_of = {c["config_name"]: c["data_files"][0]["path"] for c in header["configs"]}
    for entry in header["dataset_info"]:
        entry["splits"][0]["num_examples"] = kept.get(path_of.get(entry["config_name"]), 0)
    readme.write_text("---\n" + yaml.safe_dump(header, sort_keys=False) + "---\n" + rest, encoding="utf-8")


def hub_env(endpoint: str, home: Path) -> dict[str, str]:
    """Return the environment variables that point the clients at the stand-in, with every
    hub and datasets cache under `home` (a per-test temporary folder)."""
    return {
        "HF_ENDPOINT": endpoint,
        "HF_HOME": str(home / "hf_home"),
        "HF_HUB_CACHE": str(home / "hf_home" / "hub"),
        "HF_DATASETS_CACHE": str(home / "hf_home" / "datasets"),
        "AJB_CACHE_DIR": str(home / "ajb_cache"),
        "HF_HUB_OFFLINE": "0",
        "HF_DATASETS_OFFLINE": "0",
        "HF_HUB_DISABLE_TELEMETRY": "1",
        "HF_HUB_DISABLE_PROGRESS_BARS": "1",
        "HF_TOKEN": "",
    }
