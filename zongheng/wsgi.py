import gc
import os
from typing import Any

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zongheng.settings")

from django.conf import settings

from webutil.query_time import for_web

# Web requests' SQL is bounded in time (PostgreSQL statement_timeout), given to each connection as
# it opens: set before the first one is made. The worker and commands keep their own bounds.
for_web(settings.DATABASES)
django_application = get_wsgi_application()

from django.core.handlers.wsgi import get_path_info, get_script_name  # noqa: E402
from django_prometheus.middleware import Metrics  # noqa: E402

from catalog.stored_answers import Environ, StoredAnswers  # noqa: E402
from zongheng.middleware import log_request, request_id  # noqa: E402

_metrics = Metrics.get_instance()


def served(environ: Environ, status: int, seconds: float) -> str:
    """What the request log and the request metrics (PrometheusBeforeMiddleware's counters) say
    of an answer sent before Django: the same line and counts as for any request."""
    given = request_id(str(environ.get("HTTP_X_REQUEST_ID", "")))
    path = (get_script_name(environ) + get_path_info(environ)) or "/"
    log_request(given, str(environ["REQUEST_METHOD"]), path, status, seconds, None)
    _metrics.requests_total.inc()
    _metrics.responses_total.inc()
    _metrics.requests_latency_before.observe(seconds)
    return given


# Stored catalogue answers are sent from the front door (catalog.stored_answers).
application: Any = StoredAnswers(django_application, served)

# The URL configuration imports every view, form and template tag library. Loaded now, with the
# rest moved out of the garbage collector's sight (gc.freeze), a full collection no longer walks
# the hundreds of thousands of objects that live as long as the process: those passes were the
# slowest requests' extra tens of milliseconds.
from django.urls import get_resolver  # noqa: E402

get_resolver().url_patterns  # noqa: B018 (imported for its side effect: every app's views)
gc.freeze()
