"""What uploads cost the processes that take them: every route of the running site that takes
users' photos (gunicorn with one worker, the task worker beside it: a scan through the API and
the page, a paper list, a proposal's photo; the admin's, for staff, aside) is sent a phone's
photo (12 MP, 48 MP, HEIC, a screenshot), a scanner's PDF, and the hostile files a probe found
(tiny files declaring huge canvases, a PNG that really decodes to 40 MP, a PNG without pixels, a
PDF whose page tree loops, a content-stream bomb); the task worker then reads everything queued.

    .venv/bin/python bench/uploads.py

Prints JSON: each request's status and milliseconds, the web worker's peak memory above idle (its
own high-water mark), and the task worker's above idle, with the children that decode for it
(the largest sum of their proportional share of memory, shared pages counted once, sampled every
20 ms), and the worker's and its children's parts alone.
Goals: web worker at most 150 MB above idle (it decodes nothing), task worker at most 400 MB,
no upload request over 1 s.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the project, not bench/ (whose http.py would shadow the standard library)

import http.client  # noqa: E402  # the standard library's, now that bench/ is off the path

from tests.support.card_photos import card_face, sheet, spread  # noqa: E402
from tests.support.servers import PYTHON, gunicorn, manage, server_env  # noqa: E402

GOALS = {"web_mb": 150, "task_mb": 400, "request_ms": 1000}


def _rss(pid: int, field: str = "VmRSS") -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def _tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        current = todo.pop()
        pids.append(current)
        todo += _children(current)
    return pids


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _pss(pid: int) -> int:
    """A process's proportional share of memory: pages it shares (a child just forked, libraries)
    count once across the processes that share them, as resident memory does not."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class Sampler(threading.Thread):
    """The largest memory (proportional share) of a process and its descendants together, and of
    each alone."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self.stopped = pid, 0, threading.Event()
        self.own_peak = self.children_peak = 0

    def run(self) -> None:
        mine = _cmdline(self.pid)
        while not self.stopped.wait(0.02):
            own = _pss(self.pid)
            # A child that has not yet run its own program is the worker itself, its memory
            # shared (fork) or the very same (vfork, where even the proportional share counts it
            # twice): only the programs it started count.
            children = sum(_pss(p) for p in _tree(self.pid)[1:] if _cmdline(p) != mine)
            self.peak = max(self.peak, own + children)
            self.own_peak, self.children_peak = max(self.own_peak, own), max(self.children_peak, children)


def _multipart(fields: dict[str, str], files: list[tuple[str, str, bytes]]) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode() for k, v in fields.items()
    ]
    for field, name, data in files:
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="{name}"\r\n'
        parts.append(head.encode() + b"Content-Type: application/octet-stream\r\n\r\n" + data + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


class Session:
    """A logged-in browser, as far as cookies and the CSRF token go."""

    def __init__(self, port: int) -> None:
        self.port, self.cookies = port, {}

    def send(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        sent = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), **(headers or {})}
        if method != "GET":
            sent.update({"X-CSRFToken": self.cookies.get("csrftoken", ""), "Referer": f"http://127.0.0.1:{self.port}/"})
        started = time.perf_counter()
        conn.request(method, path, body=body, headers=sent)
        response = conn.getresponse()
        data = response.read()
        elapsed = (time.perf_counter() - started) * 1000
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        conn.close()
        return response.status, data, elapsed

    def log_in(self, username: str, password: str) -> None:
        self.send("GET", "/accounts/login/")
        body = f"username={username}&password={password}&csrfmiddlewaretoken={self.cookies['csrftoken']}"
        status, _data, _ms = self.send(
            "POST", "/accounts/login/", body.encode(), {"Content-Type": "application/x-www-form-urlencoded"}
        )
        assert status == 302, status


def files() -> dict[str, tuple[str, bytes]]:
    import django

    django.setup()
    from catalog.models import Card
    from tests.support.real_files import (
        HEIC,
        jpeg_declaring,
        pdf_content_bomb,
        pdf_page_tree_loop,
        phone_photo,
        png_plausible_bomb,
        png_without_pixels,
        scanned_pdf,
        screenshot_png,
    )

    cards = [Card.objects.get(code=c) for c in ("YXJQ-004", "WJ-001")]
    picture = spread([card_face(c.code, c.name, c.text or "", c.cost) for c in cards], columns=2, seed=7)
    return {
        "phone 12 MP jpeg": ("a.jpg", phone_photo(picture)),
        "phone 48 MP jpeg": ("b.jpg", phone_photo(picture, (8000, 6000), orientation=1)),
        "iphone heic": ("c.heic", HEIC.read_bytes()),
        "screenshot png": ("d.png", screenshot_png(picture)),
        "40 MP png of 50 KB": ("e.png", png_plausible_bomb()),
        "2 KB jpeg declaring 40 MP": ("f.jpg", jpeg_declaring(6600, 6000)),
        "png without pixels": ("g.png", png_without_pixels()),
        "scanner's 40-page pdf": (
            "h.pdf",
            scanned_pdf([sheet(f"選手{n}", [(3, "新兵", "YXJQ-003")]) for n in range(40)]),
        ),
        "pdf page-tree loop": ("i.pdf", pdf_page_tree_loop()),
        "pdf content-stream bomb": ("j.pdf", pdf_content_bomb()),
    }


def _proposal() -> int:
    """A new proposal of the benchmark's user, for one photo of its own (a photo of the same side
    would replace the one before it before the worker reads it)."""
    from django.contrib.auth import get_user_model

    from catalog.models import Card
    from contributions.services import propose

    user = get_user_model().objects.get(username="bench")
    card = Card.objects.filter(text__isnull=True).order_by("code").first()
    return propose(user, card, {}, "bench", photos=True).pk


def main() -> None:
    scratch = tempfile.mkdtemp(prefix="bench-uploads-")
    env = server_env(
        f"sqlite:///{scratch}/db.sqlite3", MEDIA_ROOT=f"{scratch}/media", PRIVATE_MEDIA_ROOT=f"{scratch}/private"
    )
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "loadcatalog", "-v0")
    code = (
        "from django.contrib.auth import get_user_model; from events.models import Event; "
        "from django.utils import timezone; import datetime; "
        "u = get_user_model().objects.create_user('bench', password='bench-password-long-1'); "
        "get_user_model().objects.create_user('bench2', password='bench-password-long-1'); "
        "e = Event.objects.create(organiser=u, name='bench', deadline=timezone.now() + datetime.timedelta(days=1)); "
        "print(e.pk)"
    )
    event = manage(env, "shell", "-c", code).strip().splitlines()[-1]
    import os

    os.environ.update({k: v for k, v in env.items() if k.startswith(("DATABASE_URL", "MEDIA", "PRIVATE"))})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zongheng.settings")
    sent_files = files()
    results: dict[str, object] = {"requests": []}
    with gunicorn(env, workers=1, config=True) as port:
        master = int(
            subprocess.run(["pgrep", "-f", f"127.0.0.1:{port}"], capture_output=True, text=True).stdout.split()[0]
        )
        web = _children(master)[0]
        # The organiser sends to the API and the paper route; another user to the scan page: each
        # stays within the 10 photos a user may have waiting.
        session, other = Session(port), Session(port)
        session.log_in("bench", "bench-password-long-1")
        other.log_in("bench2", "bench-password-long-1")
        session.send("GET", "/collection/scan/")
        idle = _rss(web)
        slowest = 0.0
        for label, (name, data) in sent_files.items():
            if name.endswith(".pdf"):
                routes = [(f"/events/{event}/paper/", "sheets")]
            else:
                routes = [
                    ("/api/scans/", "image"),
                    ("/collection/scan/", "photos"),
                    (f"/events/{event}/paper/", "sheets"),
                    (f"/api/proposals/{_proposal()}/photos/", "image"),
                ]
            for path, field in routes:
                who = other if path == "/collection/scan/" else session
                fields = {"csrfmiddlewaretoken": who.cookies["csrftoken"], "side": "front"}
                body, kind = _multipart(fields, [(field, name, data)])
                status, _data, ms = who.send("POST", path, body, {"Content-Type": kind})
                slowest = max(slowest, ms)
                results["requests"].append({"file": label, "route": path, "status": status, "ms": round(ms)})
        results["web_mb_above_idle"] = round((_rss(web, "VmHWM") - idle) / 2**20, 1)
        results["slowest_request_ms"] = round(slowest)
    worker = subprocess.Popen(
        [PYTHON, "manage.py", "worker", "--child", "--interval", "0.2"], cwd=ROOT, env=env, stderr=subprocess.DEVNULL
    )
    from catalog.models import Scan, WorkerBeat

    deadline = time.monotonic() + 120
    while not WorkerBeat.objects.exists() and time.monotonic() < deadline:
        time.sleep(0.2)  # it beats once its recognisers are loaded: ready and idle
    time.sleep(1)
    idle_task = sum(_pss(p) for p in _tree(worker.pid))
    sampler = Sampler(worker.pid)
    sampler.start()
    from contributions.models import ProposalPhoto

    deadline = time.monotonic() + 900
    waiting = [ProposalPhoto.Status.QUEUED, ProposalPhoto.Status.RUNNING]
    photos_waiting = ProposalPhoto.objects.filter(status__in=waiting)
    while (Scan.objects.filter(status__in=Scan.WAITING).exists() or photos_waiting.exists()) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.5)
    sampler.stopped.set()
    worker.send_signal(signal.SIGTERM)
    worker.wait(timeout=60)
    results["task_mb_above_idle"] = round((sampler.peak - idle_task) / 2**20, 1)
    results["task_worker_alone_mb_above_idle"] = round((sampler.own_peak - idle_task) / 2**20, 1)
    results["decoding_children_peak_mb"] = round(sampler.children_peak / 2**20, 1)
    results["scans"] = dict(
        (status, Scan.objects.filter(status=status).count()) for status in ("done", "failed", "queued", "running")
    )
    results["proposal_photos"] = dict(
        (status, ProposalPhoto.objects.filter(status=status).count()) for status in ("ready", "failed", "queued")
    )
    results["goals"] = GOALS
    results["met"] = (
        results["web_mb_above_idle"] <= GOALS["web_mb"]
        and results["task_mb_above_idle"] <= GOALS["task_mb"]
        and results["slowest_request_ms"] <= GOALS["request_ms"]
    )
    print(json.dumps(results, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
