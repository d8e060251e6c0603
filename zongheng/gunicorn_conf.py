"""gunicorn settings for `make serve-prod`: health checks are not written to the access log
(a balancer asks every few seconds; the log is for people)."""

from __future__ import annotations

import os
import tempfile
from typing import Any

from gunicorn.glogging import Logger

QUIET_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})

# Workers are separate processes: their metrics meet in one directory, which /metrics reads
# whole (prometheus_client's multiprocess mode). Set before any worker imports the client.
os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="zongheng-metrics-"))


class QuietHealthLogger(Logger):
    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> None:
        if environ.get("PATH_INFO") in QUIET_PATHS:
            return
        super().access(resp, req, environ, request_time)


logger_class = QuietHealthLogger

# A worker is replaced after this many requests (give or take a fifth, so that no two are
# replaced at once): memory a request grew and never gave back (a large deck picture, a burst of
# work) goes with it. Whatever the request, the worker is killed past `timeout` seconds.
max_requests = 10000
max_requests_jitter = 2000
timeout = 30


def child_exit(server: Any, worker: Any) -> None:
    from prometheus_client import multiprocess  # in the hook: the settings file loads no app

    multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]  # a dead worker's gauges no longer count
