"""Bounded load on loopback: `wrk` when installed, otherwise a small asyncio HTTP/1.1 client.

Both keep `connections` requests in flight for `seconds` and report requests per second, latency
percentiles and errors (connection failures, timeouts and any answer other than 2xx/3xx). gunicorn's sync
workers close the connection after each answer, so every request opens its own connection, as a phone on
the venue's wifi would.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from .timing import percentile

TIMEOUT_SECONDS = 5.0


@dataclass
class LoadResult:
    tool: str
    seconds: float
    connections: int
    requests: int
    errors: int
    requests_per_second: float
    p50_ms: float | None
    p90_ms: float | None
    p99_ms: float | None
    details: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(data.pop("details"))
        return data


def wrk_available() -> bool:
    return shutil.which("wrk") is not None


# --- wrk ------------------------------------------------------------------------------------------

_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3, "h": 3600e3}
_PERCENTILE = re.compile(r"^\s*(\d+(?:\.\d+)?)%\s+([\d.]+)(us|ms|s|m|h)\s*$", re.MULTILINE)
_TOTAL = re.compile(r"(\d+) requests in ([\d.]+)(us|ms|s|m|h)")
_SOCKET = re.compile(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)")
_NON_SUCCESS = re.compile(r"Non-2xx or 3xx responses: (\d+)")
_RATE = re.compile(r"Requests/sec:\s+([\d.]+)")


def parse_wrk(text: str, *, connections: int) -> LoadResult:
    """Read `wrk --latency` output; raise ValueError when it has no totals (wrk failed)."""
    total = _TOTAL.search(text)
    rate = _RATE.search(text)
    if total is None or rate is None:
        raise ValueError(f"wrk printed no totals: {text.strip()[-500:]!r}")
    percentiles = {
        float(match[1]): round(float(match[2]) * _UNITS[match[3]], 3) for match in _PERCENTILE.finditer(text)
    }
    socket = _SOCKET.search(text)
    socket_errors = (
        dict(zip(("connect", "read", "write", "timeout"), map(int, socket.groups()), strict=True))
        if socket
        else {}
    )
    non_success = int(_NON_SUCCESS.search(text)[1]) if _NON_SUCCESS.search(text) else 0
    return LoadResult(
        tool="wrk",
        seconds=round(float(total[2]) * _UNITS[total[3]] / 1000, 2),
        connections=connections,
        requests=int(total[1]),
        errors=non_success + sum(socket_errors.values()),
        requests_per_second=round(float(rate[1]), 1),
        p50_ms=percentiles.get(50.0),
        p90_ms=percentiles.get(90.0),
        p99_ms=percentiles.get(99.0),
        details={"non_2xx_3xx": non_success, "socket_errors": socket_errors},
    )


def run_wrk(
    url: str,
    *,
    seconds: float,
    connections: int,
    headers: dict[str, str] | None = None,
    script: str | None = None,
    script_args: tuple[str, ...] = (),
) -> LoadResult:
    """wrk against `url`; `script`: a Lua file choosing each request (`script_args` after `--`)."""
    # One wrk thread is plenty on loopback and leaves the second core to the server.
    command = ["wrk", "-t1", f"-c{connections}", f"-d{max(1, round(seconds))}s", "--latency"]
    command += [f"--timeout={int(TIMEOUT_SECONDS)}s"]
    for name, value in (headers or {}).items():
        command += ["-H", f"{name}: {value}"]
    if script:
        command += ["-s", script]
    command.append(url)
    if script_args:
        command += ["--", *script_args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"wrk exited {done.returncode}: {(done.stderr or done.stdout).strip()[-500:]}")
    result = parse_wrk(done.stdout, connections=connections)
    result.details["version"] = _wrk_version()
    return result


def _wrk_version() -> str:
    done = subprocess.run(["wrk", "--version"], capture_output=True, text=True, check=False)
    first = (done.stdout or done.stderr).strip().splitlines()
    return first[0] if first else "wrk"


# --- the Python client ------------------------------------------------------------------------------


@dataclass
class _Tally:
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)
    received: int = 0


def _request_bytes(host: str, port: int, path: str, headers: dict[str, str] | None) -> bytes:
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "User-Agent: kalooki-bench", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def _one(host: str, port: int, request: bytes) -> bytes:
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(request)
        await writer.drain()
        return await reader.read()
    finally:
        writer.close()


async def _client(host: str, port: int, request: bytes, deadline: float, tally: _Tally) -> None:
    while time.perf_counter() < deadline:
        start = time.perf_counter()
        try:
            answer = await asyncio.wait_for(_one(host, port, request), TIMEOUT_SECONDS)
        except (TimeoutError, OSError) as exc:
            name = type(exc).__name__
            tally.failures[name] = tally.failures.get(name, 0) + 1
            continue
        tally.latencies.append(time.perf_counter() - start)
        tally.received += len(answer)
        status = int(answer[9:12]) if answer[:5] == b"HTTP/" and answer[9:12].isdigit() else 0
        tally.statuses[status] = tally.statuses.get(status, 0) + 1


def run_python(
    host: str,
    port: int,
    path: str,
    *,
    seconds: float,
    connections: int,
    headers: dict[str, str] | None = None,
) -> LoadResult:
    request = _request_bytes(host, port, path, headers)
    tally = _Tally()

    async def main() -> float:
        start = time.perf_counter()
        deadline = start + seconds
        await asyncio.gather(*(_client(host, port, request, deadline, tally) for _ in range(connections)))
        return time.perf_counter() - start

    cpu = time.process_time()
    elapsed = asyncio.run(main())
    cpu = time.process_time() - cpu
    non_success = sum(count for status, count in tally.statuses.items() if not 200 <= status < 400)
    failures = sum(tally.failures.values())
    done = len(tally.latencies)

    def pct(share: float) -> float | None:
        return round(percentile(tally.latencies, share) * 1000, 3) if tally.latencies else None

    return LoadResult(
        tool="python-asyncio",
        seconds=round(elapsed, 2),
        connections=connections,
        requests=done,
        errors=non_success + failures,
        requests_per_second=round(done / elapsed, 1) if elapsed else 0.0,
        p50_ms=pct(0.50),
        p90_ms=pct(0.90),
        p99_ms=pct(0.99),
        details={
            "non_2xx_3xx": non_success,
            "socket_errors": tally.failures,
            "statuses": {str(status): count for status, count in sorted(tally.statuses.items())},
            # The client shares the machine with the server: its own CPU use is part of the picture.
            "client_cpu_share": round(cpu / elapsed, 2) if elapsed else None,
        },
    )
