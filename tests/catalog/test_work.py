"""Background work that outlives its worker: a scan whose reader was killed (kill -9) is read again
once its lease runs out, up to a number of tries, then failed with a message its owner sees; the
supervised worker starts again after kill -9; /readyz and /metrics say how old the oldest waiting
work is and when a worker last beat."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from catalog.management.commands.worker import beat
from catalog.models import Scan, WorkerBeat
from webutil import leases

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_work_whose_worker_died_is_run_again_then_failed(alice, english, settings) -> None:
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    gone = timezone.now() - timedelta(seconds=int(leases.LEASE) + 1)
    again = Scan.objects.create(user=alice, status=Scan.Status.RUNNING, attempts=1, lease_until=gone)
    spent = Scan.objects.create(user=alice, status=Scan.Status.RUNNING, attempts=int(leases.TRIES), lease_until=gone)
    alive = Scan.objects.create(
        user=alice, status=Scan.Status.RUNNING, attempts=1, lease_until=timezone.now() + timedelta(seconds=60)
    )
    beat("test-worker")
    statuses = dict(Scan.objects.values_list("pk", "status"))
    assert statuses == {again.pk: "queued", spent.pk: "failed", alive.pk: "running"}
    spent.refresh_from_db()
    assert "cut short 3 times" in spent.error_message
    from django_tasks_db.models import DBTaskResult

    assert DBTaskResult.objects.filter(args_kwargs__args=[again.pk]).exists()  # a run of its own


@pytest.mark.django_db(transaction=True)  # the heartbeat writes from a thread of its own
def test_a_claim_takes_a_lease_and_the_heartbeat_pushes_it(alice) -> None:
    scan = Scan.objects.create(user=alice)
    claimed = leases.claim(Scan.objects.filter(pk=scan.pk), Scan.STATES)
    assert claimed is not None and claimed.status == "running" and claimed.attempts == 1
    assert leases.claim(Scan.objects.filter(pk=scan.pk), Scan.STATES) is None  # taken once
    first = claimed.lease_until
    with leases.held(claimed, interval=0.05):
        time.sleep(0.3)
    claimed.refresh_from_db()
    assert claimed.lease_until > first


@pytest.mark.django_db
def test_readyz_and_metrics_tell_how_background_work_stands(alice, settings) -> None:
    settings.METRICS_TOKEN = "t" * 20
    Scan.objects.create(user=alice)
    Scan.objects.filter(user=alice).update(created=timezone.now() - timedelta(seconds=90))
    WorkerBeat.objects.create(worker="w1", beat_at=timezone.now() - timedelta(seconds=4))
    ready = Client().get("/readyz")
    assert ready.status_code == 200
    work = ready.json()["work"]
    assert 89 <= work["oldest_waiting_seconds"] < 120 and 3 <= work["worker_beat_seconds"] < 30
    metrics = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {'t' * 20}").content.decode()
    assert "zongheng_work_oldest_waiting_seconds 9" in metrics and "zongheng_work_worker_beat_seconds " in metrics


@pytest.mark.django_db(transaction=True)
def test_the_supervised_worker_starts_again_after_kill_9(tmp_path) -> None:
    settings = connection.settings_dict
    if connection.vendor == "postgresql":
        url = f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"
    else:
        url = f"sqlite:///{settings['NAME']}"
    env = {**os.environ, "DATABASE_URL": url, "TASKS_BACKEND": "database"}
    supervisor = subprocess.Popen(
        [sys.executable, "manage.py", "worker", "--interval", "0.2"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        first = _beating_worker(60)
        os.kill(int(first.split(":")[-1]), signal.SIGKILL)  # the worker itself, not its supervisor
        second = _beating_worker(60, other_than=first)
        assert second != first and supervisor.poll() is None
    finally:
        os.killpg(supervisor.pid, signal.SIGTERM)
        supervisor.wait(timeout=30)


def _beating_worker(seconds: float, other_than: str = "") -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = WorkerBeat.objects.exclude(worker=other_than).values_list("worker", flat=True).first()
        if found:
            return str(found)
        time.sleep(0.2)
    raise AssertionError("no worker beat")
