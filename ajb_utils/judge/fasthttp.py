"""A small keep-alive HTTP/1.1 client for plain-http endpoints (local vLLM / SGLang / Ollama servers).

The runner's CPU per call bounds its throughput against fast local servers: through the OpenAI
SDK and httpx a call costs several milliseconds of Python, which caps one process near
150-200 requests/s. For ``http://`` base URLs (no proxy variables set) the backend sends its
chat-completion POSTs through this client instead: asyncio streams, one request per connection
at a time, connections kept alive and reused, ``Content-Length`` or chunked bodies. HTTPS
endpoints, proxies and the endpoint check keep going through the SDK. Errors are raised as the
backend's ``CallError`` kinds, so retries, timeouts and statuses behave the same on both paths.
"""

from __future__ import annotations

import asyncio
import base64
import socket
from typing import Any
from urllib.parse import unquote, urlsplit

PROXY_VARIABLES: tuple[str, ...] = ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY")


class _Stale(Exception):
    """A kept-alive connection the server had closed (no byte of a response was read)."""


def usable(base_url: str, environ: Any) -> bool:
    """Return whether a base URL can use the plain client: http://, a host, and no proxy variable set."""
    u = urlsplit(base_url)
    return u.scheme == "http" and bool(u.hostname) and not any(environ.get(v) for v in PROXY_VARIABLES)


class PlainHTTPPool:
    """Keep-alive connections to one http:// base URL; `post(path, body)` -> (status, headers, body)."""

    def __init__(self, base_url: str, headers: dict[str, str], timeout_s: float) -> None:
        """Prepare the request head for `base_url` (credentials in the URL become Basic auth, as httpx does)."""
        u = urlsplit(base_url)
        self.host, self.port = u.hostname or "localhost", u.port or 80
        self.prefix = u.path.rstrip("/")
        self.timeout_s = timeout_s
        hdrs = {"Host": u.netloc.rsplit("@", 1)[-1], "Accept": "application/json",
                "Content-Type": "application/json", "User-Agent": "ajb-utils-judge", **headers}
        if u.username is not None:
            cred = f"{unquote(u.username)}:{unquote(u.password or '')}".encode()
            hdrs["Authorization"] = "Basic " + base64.b64encode(cred).decode()
        self._head = "".join(f"{k}: {v}\r\n" for k, v in hdrs.items()).encode("latin-1")
        self._idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """Return a new connection (TCP_NODELAY: a request is one write, never held back)."""
        reader, writer = await asyncio.open_connection(self.host, self.port, limit=2**20)
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return reader, writer

    async def post(self, path: str, body: bytes) -> tuple[int, dict[str, str], bytes]:
        """Return (status, lower-cased headers, body) of one POST; raise CallError on timeout / connection errors."""
        return await self.request("POST", path, body)

    async def request(self, method: str, path: str, body: bytes | None,
                      timeout_s: float | None = None) -> tuple[int, dict[str, str], bytes]:
        """Return (status, lower-cased headers, body) of one request; raise CallError on timeout / connection errors."""
        from ajb_utils.judge.backends import CallError

        t = self.timeout_s if timeout_s is None else timeout_s
        try:
            return await asyncio.wait_for(self._send(method, path, body), t)
        except asyncio.TimeoutError:
            raise CallError("timeout", f"no response within {t:g} s", True) from None
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, _Stale) as exc:
            raise CallError("connection", f"{type(exc).__name__}: {exc}", True) from None

    async def _send(self, method: str, path: str, body: bytes | None) -> tuple[int, dict[str, str], bytes]:
        """Send on an idle connection (a stale one is replaced once) or a new one."""
        body = body or b""
        req = method.encode() + b" " + (self.prefix + path).encode() + b" HTTP/1.1\r\n" + self._head \
            + b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
        for _ in range(2):
            reused = bool(self._idle)
            conn = self._idle.pop() if reused else await self._open()
            try:
                return await self._exchange(conn, req)
            except _Stale:
                conn[1].close()
                if not reused:
                    raise
            except BaseException:  # timeout (cancelled), reset, bad framing: the connection is unusable
                conn[1].close()
                raise
        raise _Stale("the server closed two connections in a row")

    async def _exchange(self, conn: tuple[asyncio.StreamReader, asyncio.StreamWriter], req: bytes
                        ) -> tuple[int, dict[str, str], bytes]:
        """Write one request and read its response; keep the connection when the server allows."""
        reader, writer = conn
        writer.write(req)
        await writer.drain()
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as exc:
            if not exc.partial:
                raise _Stale("connection closed before a response") from None
            raise
        lines = head[:-4].decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers: dict[str, str] = {}
        for line in lines[1:]:
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()
        keep = headers.get("connection", "").lower() != "close"
        if "content-length" in headers:
            data = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";", 1)[0], 16)
                if size == 0:
                    while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailers
                        pass
                    break
                parts.append(await reader.readexactly(size))
                await reader.readexactly(2)
            data = b"".join(parts)
        else:  # delimited by the end of the connection
            data, keep = await reader.read(), False
        if keep:
            self._idle.append(conn)
        else:
            writer.close()
        return status, headers, data

    async def aclose(self) -> None:
        """Close the idle connections."""
        while self._idle:
            self._idle.pop()[1].close()
