"""The task worker, supervised: `manage.py worker` runs django-tasks-db's worker in a child process
and starts it again whenever it exits (a crash, kill -9, memory ran out), waiting a little longer
after each quick failure. `make run` and `make serve-prod` start it.

The child (`--child`) writes its heartbeat (catalog.models.WorkerBeat) every few seconds, which
/readyz and /metrics report; on each beat it also queues again the work whose worker died (leases
that ran out: webutil.leases.recover_all). Its SQL runs under background work's time bound.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from types import FrameType
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import DatabaseError, connections
from django.utils import timezone
from django_tasks_db.management.commands.db_worker import Worker

from catalog.models import WorkerBeat
from scanning import reader
from webutil import leases
from webutil.query_time import for_work

BEAT_SECONDS = 5.0
# A child that lived less than this before exiting failed quickly: wait longer before the next.
QUICK_FAILURE = 30.0
MAX_BACKOFF = 30.0


def beat(worker: str) -> None:
    """This worker's heartbeat, and the lost work it finds, queued again (each app's kind of
    work, registered with webutil.leases.recovers)."""
    WorkerBeat.objects.update_or_create(worker=worker, defaults={"beat_at": timezone.now()})
    leases.recover_all()


class Command(BaseCommand):
    help = "Run the task worker, restarted whenever it exits."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--interval", type=float, default=1.0, help="seconds between looks for work")
        parser.add_argument("--child", action="store_true", help="be the worker itself (the supervisor starts it)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["child"]:
            self.run_child(options["interval"])
        else:
            self.supervise(options["interval"])

    def supervise(self, interval: float) -> None:
        command = [sys.executable, os.path.abspath(sys.argv[0]), "worker", "--child", "--interval", str(interval)]
        stopping = threading.Event()
        child: subprocess.Popen[bytes] | None = None

        def stop(signum: int, frame: FrameType | None) -> None:
            stopping.set()
            if child is not None and child.poll() is None:
                child.send_signal(signal.SIGTERM)

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        backoff = 1.0
        while not stopping.is_set():
            started = time.monotonic()
            child = subprocess.Popen(command)  # noqa: S603  # this very command, as the child
            code = child.wait()
            if stopping.is_set():
                break
            lived = time.monotonic() - started
            backoff = 1.0 if lived > QUICK_FAILURE else min(MAX_BACKOFF, backoff * 2)
            self.stderr.write(f"worker exited ({code}) after {lived:.0f} s: starting it again in {backoff:.0f} s")
            stopping.wait(backoff)

    def run_child(self, interval: float) -> None:
        for_work()
        name = f"{socket.gethostname()}:{os.getpid()}"[:64]
        stopped = threading.Event()

        def beating() -> None:
            try:
                while not stopped.wait(BEAT_SECONDS):
                    try:
                        beat(name)
                    except DatabaseError:  # the database away for a moment: beat again later
                        connections.close_all()
            finally:
                connections.close_all()

        reader.warm()  # before the first beat: a worker that beats is ready to read
        beat(name)
        threading.Thread(target=beating, name="heartbeat", daemon=True).start()
        worker = Worker(
            queue_names=["default"],
            interval=interval,
            batch=False,
            backend_name="default",
            startup_delay=False,
            max_tasks=None,
            worker_id=name,
            excluded_queue_names=[],
        )
        worker.configure_signals()  # SIGTERM: finish the task in hand, then stop
        try:
            worker.run()
        finally:
            stopped.set()
            WorkerBeat.objects.filter(worker=name).delete()
