"""Prometheus metrics at /metrics: only for a scraper with METRICS_TOKEN, and with several
gunicorn workers one scrape counts the requests of all of them."""

from __future__ import annotations

import http.client
import re
from pathlib import Path

import pytest
from django.test import Client

from tests.support.servers import gunicorn, manage, request, server_env

TOKEN = "scrape-" + "t" * 30


@pytest.mark.django_db
def test_metrics_do_not_exist_without_a_token(client: Client, settings) -> None:
    settings.METRICS_TOKEN = None
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 404


@pytest.mark.django_db
def test_metrics_answer_only_the_scraper(client: Client, settings) -> None:
    settings.METRICS_TOKEN = TOKEN
    client.get("/ping/")
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION=f"Token {TOKEN}").status_code == 404
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    assert response["Cache-Control"] == "no-store"
    assert 'django_http_requests_total_by_view_transport_method_total{method="GET",transport="http",view="ping"}' in (
        response.content.decode()
    )


def _scrape(port: int) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", "/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
        response = connection.getresponse()
        assert response.status == 200
        return response.read().decode()
    finally:
        connection.close()


def test_one_scrape_counts_every_worker(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    env = server_env(url, METRICS_TOKEN=TOKEN)
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)  # the settings file makes one, as in production
    manage(env, "collectstatic", "--noinput", "-v0")
    manage(env, "migrate", "--noinput", "-v0")
    with gunicorn(env, workers=2, config=True) as port:
        for _ in range(40):
            assert request(port, "GET", "/ping/")[0] == 200
        counted = set()
        for _ in range(6):  # each scrape lands on either worker: all must give the whole count
            text = _scrape(port)
            found = re.search(
                r'django_http_requests_total_by_view_transport_method_total\{[^}]*view="ping"[^}]*\} (\S+)', text
            )
            assert found is not None
            counted.add(float(found.group(1)))
        assert min(counted) >= 40
