"""gunicorn settings for `make serve-prod`: health checks are not written to the access log
(a balancer asks every few seconds; the log is for people)."""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

QUIET_PATHS = frozenset({"/healthz", "/readyz"})


class QuietHealthLogger(Logger):
    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> None:
        if environ.get("PATH_INFO") in QUIET_PATHS:
            return
        super().access(resp, req, environ, request_time)


logger_class = QuietHealthLogger
