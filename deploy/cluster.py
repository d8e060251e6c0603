"""A cluster on one machine: two gunicorn servers sharing PostgreSQL, Redis and an S3-compatible
object store, behind haproxy (Debian's package) on loopback. `make cluster` runs it until Ctrl-C;
tests/test_cluster.py drives it.

    DATABASE_URL   postgres://postgres@127.0.0.1:5432/zongheng_cluster (created if missing)
    REDIS_URL      redis://127.0.0.1:6379/1
    MEDIA_S3_*     a bucket of your own; unset, moto's S3 server is started on loopback
    PORT           the balancer's port (8000); the servers take two free ports

Both servers migrate and load the catalogue as they start, at the same moment: the start-up lock
makes that safe (one catalogue, both exit 0).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
BIN = Path(PYTHON).parent
DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/zongheng_cluster"
DEFAULT_REDIS = "redis://127.0.0.1:6379/1"
BUCKET = "zongheng-cluster"

HAPROXY_CONFIG = """
global
    maxconn 512
defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    option redispatch
    retries 3
    retry-on conn-failure empty-response
frontend site
    bind 127.0.0.1:{port}
    default_backend servers
backend servers
    balance roundrobin
    option httpchk GET /healthz
    http-check expect status 200
    default-server inter 250ms fall 2 rise 2
{servers}
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def haproxy_binary() -> str | None:
    return shutil.which("haproxy") or (shutil.which("haproxy", path="/usr/sbin:/sbin"))


def wait_for(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {seconds:.0f} s")


def ensure_database(url: str) -> None:
    """Create the PostgreSQL database named in the URL if it does not exist."""
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            connection.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class Cluster:
    balancer: int
    servers: dict[str, int]
    env: dict[str, str]
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def url(self, server: str | None = None) -> str:
        return f"http://127.0.0.1:{self.servers[server] if server else self.balancer}"

    def kill(self, server: str) -> None:
        """kill -9 a server: its master and workers, no goodbyes."""
        os.killpg(self.processes[server].pid, signal.SIGKILL)


@contextmanager
def _s3(env: dict[str, str]) -> Iterator[None]:
    if env.get("MEDIA_S3_BUCKET"):
        yield
        return
    port = free_port()
    server = subprocess.Popen(
        [PYTHON, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        endpoint = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        import boto3

        keys = {"aws_access_key_id": "cluster", "aws_secret_access_key": "cluster", "region_name": "us-east-1"}
        boto3.client("s3", endpoint_url=endpoint, **keys).create_bucket(Bucket=BUCKET)
        env.update(
            {
                "MEDIA_S3_BUCKET": BUCKET,
                "MEDIA_S3_ENDPOINT_URL": endpoint,
                "MEDIA_S3_ACCESS_KEY_ID": "cluster",
                "MEDIA_S3_SECRET_ACCESS_KEY": "cluster",
            }
        )
        yield
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=15)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=15)


@contextmanager
def cluster(
    database_url: str = DEFAULT_DATABASE,
    redis_url: str = DEFAULT_REDIS,
    port: int | None = None,
    workers: int = 2,
    extra_env: dict[str, str] | None = None,
) -> Iterator[Cluster]:
    haproxy = haproxy_binary()
    if haproxy is None:
        raise RuntimeError("haproxy is not installed (Debian: apt-get install haproxy)")
    ensure_database(database_url)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "REDIS_URL"))}
    env.update(
        {
            "DEBUG": "0",
            "SECRET_KEY": env.get("SECRET_KEY") or "cluster-only-" + "k" * 50,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "0",
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "TRUSTED_PROXIES": "1",
            "LOG_LEVEL": env.get("LOG_LEVEL", "WARNING"),
            "REQUEST_LOG_LEVEL": env.get("REQUEST_LOG_LEVEL", "WARNING"),
            **(extra_env or {}),
        }
    )
    with ExitStack() as stack, tempfile.TemporaryDirectory(prefix="zongheng-cluster-") as scratch:
        stack.enter_context(_s3(env))
        subprocess.run(
            [PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True, timeout=300
        )
        servers = {"a": free_port(), "b": free_port()}
        found = Cluster(balancer=port or free_port(), servers=servers, env=env)
        for name, server_port in servers.items():
            # Each server starts as `make serve-prod` does: migrate, load, serve; both at once.
            command = (
                f"{PYTHON} manage.py migrate --noinput -v0 && {PYTHON} manage.py loadcatalog -v0 && "
                f"exec {BIN / 'gunicorn'} zongheng.wsgi -c zongheng/gunicorn_conf.py "
                f"--bind 127.0.0.1:{server_port} --workers {workers} --log-level warning"
            )
            server_env = {**env, "PROMETHEUS_MULTIPROC_DIR": tempfile.mkdtemp(dir=scratch)}
            found.processes[name] = subprocess.Popen(
                ["sh", "-c", command], cwd=ROOT, env=server_env, start_new_session=True
            )
            stack.callback(_stop, found.processes[name])
        for server_port in servers.values():
            wait_for(f"http://127.0.0.1:{server_port}/readyz", seconds=180)
        for name in servers:  # each machine also runs a worker for the background work (photos)
            worker = subprocess.Popen(
                [PYTHON, "manage.py", "worker", "--interval", "1"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                start_new_session=True,
            )
            found.processes[f"worker-{name}"] = worker
            stack.callback(_stop, worker)
        config = Path(scratch) / "haproxy.cfg"
        lines = "\n".join(f"    server {name} 127.0.0.1:{p} check" for name, p in servers.items())
        config.write_text(HAPROXY_CONFIG.format(port=found.balancer, servers=lines), encoding="utf-8")
        balancer = subprocess.Popen(
            [haproxy, "-f", str(config), "-db"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        stack.callback(_stop, balancer)
        wait_for(f"{found.url()}/healthz")
        yield found


def main() -> None:
    port = int(os.environ.get("PORT", "8000"))
    with cluster(
        os.environ.get("DATABASE_URL") or DEFAULT_DATABASE, os.environ.get("REDIS_URL") or DEFAULT_REDIS, port=port
    ) as running:
        print(f"Zongheng Deckbox: {running.url()} (servers {running.url('a')} and {running.url('b')}); Ctrl-C stops")
        try:
            while all(p.poll() is None for p in running.processes.values()):
                time.sleep(1)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
