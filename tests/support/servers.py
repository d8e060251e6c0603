"""Real servers for tests that need more than one process: gunicorn with several workers on a
database of its own, and a redis-server of the test's own on a spare port."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
GUNICORN = str(Path(PYTHON).parent / "gunicorn")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(database_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "DATABASE_URL", "REDIS_URL")}
    env.update(
        {
            "DEBUG": "0",
            "SECRET_KEY": "test-only-" + "s" * 50,
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "DATABASE_URL": database_url,
            "LOG_LEVEL": "CRITICAL",
            "API_THROTTLE_ANON": "100000000/minute",
            "API_THROTTLE_USER": "100000000/minute",
            **extra,
        }
    )
    return env


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [PYTHON, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


@contextmanager
def gunicorn(env: dict[str, str], workers: int = 3, *, config: bool = False) -> Iterator[int]:
    """`config`: with the production settings file (zongheng/gunicorn_conf.py), as make serve-prod."""
    port = free_port()
    settings_file = ["-c", str(ROOT / "zongheng" / "gunicorn_conf.py")] if config else []
    # The servers' log goes to a file, never to a pipe nobody reads: once a pipe's buffer is
    # full, every worker that logs a line blocks, and requests stall as if the site had hung.
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [
                GUNICORN,
                "zongheng.wsgi",
                *settings_file,
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(workers),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        try:
            wait_until_up(port)
            yield port
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:  # a worker stuck in a request: stop it the hard way
                process.kill()
                process.wait(timeout=15)


def wait_until_up(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if request(port, "GET", "/ping/")[0] == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("the server did not start")


def request(port: int, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        payload = json.dumps(body) if body is not None else None
        headers = {"Content-Type": "application/json"} if body is not None else {}
        connection.request(method, path, body=payload, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def redis_server_binary() -> str | None:
    return shutil.which("redis-server")


@contextmanager
def redis_server() -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    port = free_port()
    process = subprocess.Popen(
        [
            redis_server_binary() or "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.1)
    try:
        yield port, process
    finally:
        process.kill()
        process.wait(timeout=10)


def postgres_binaries() -> Path | None:
    """The folder of initdb and pg_ctl (Debian keeps them out of PATH), or None."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(os.path.realpath(found)).parent
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
    return candidates[-1].parent if candidates else None


class OwnPostgres:
    """A PostgreSQL server of the test's own, in a temporary folder on a spare port, that the
    test may stop and start again (trust authentication, on loopback only)."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.data = folder / "data"
        self.bin = postgres_binaries() or Path("/usr/lib/postgresql/15/bin")
        # initdb refuses to run as root: the server runs as the postgres user when we are root.
        self.prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.folder = folder

    def _run(self, *args: str) -> None:
        subprocess.run([*self.prefix, *args], check=True, capture_output=True, timeout=120)

    def init(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.prefix:
            shutil.chown(self.folder, "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder} -c fsync=off"
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-w", "-l", str(self.folder / "log"), "start"
        )

    def stop(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"


@contextmanager
def postgres_server() -> Iterator[OwnPostgres]:
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)  # the postgres user reaches its own folder inside
        server = OwnPostgres(Path(folder) / "pg")
        server.init()
        server.start()
        try:
            yield server
        finally:
            with contextlib.suppress(subprocess.CalledProcessError):  # already stopped by the test
                server.stop()
