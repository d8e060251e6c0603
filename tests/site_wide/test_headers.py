"""Security headers and HTTP caching of catalogue answers."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/", "/cards/", "/cards/WJ-001/", "/check/", "/api/cards/", "/decks/"])
def test_pages_allow_only_our_own_scripts_and_styles(client: Client, path: str) -> None:
    policy = client.get(path)["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "style-src 'self';" in policy and "unsafe" not in policy
    assert "frame-ancestors 'none'" in policy


def test_no_page_of_ours_has_inline_scripts_or_handlers(client: Client) -> None:
    for path in ("/", "/cards/", "/cards/WJ-001/", "/check/", "/decks/", "/sets/YXJQ/", "/cards/syntax/"):
        html = client.get(path).content.decode()
        assert "<script>" not in html and " onclick=" not in html and " onchange=" not in html, path
        assert 'style="' not in html, path


def test_the_admin_and_api_docs_get_the_relaxed_policy(client: Client) -> None:
    assert "'unsafe-inline'" in client.get("/api/docs/")["Content-Security-Policy"]


def test_catalogue_answers_carry_an_etag_and_answer_304(client: Client) -> None:
    first = client.get("/api/cards/?page_size=5")
    etag = first["ETag"]
    assert first.status_code == 200 and etag and "max-age" in first["Cache-Control"]
    again = client.get("/api/cards/?page_size=5", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    other = client.get("/api/cards/?page_size=6")
    assert other["ETag"] != etag
    detail = client.get("/api/cards/YXJQ-003/")
    assert client.get("/api/cards/YXJQ-003/", HTTP_IF_NONE_MATCH=detail["ETag"]).status_code == 304


def test_pages_and_answers_are_sent_compressed_and_still_answer_304(alice_client: Client, alice) -> None:
    import gzip

    from catalog.models import Card
    from collection.services import set_counts

    for card in Card.objects.all()[:60]:
        set_counts(alice, card, quantity=2, foil_quantity=1)
    plain = alice_client.get("/collection/")
    packed = alice_client.get("/collection/", headers={"Accept-Encoding": "gzip"})
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    body = gzip.decompress(packed.content)
    assert b"YXJQ-003" in body and len(packed.content) < len(plain.content) / 5
    # a compressed answer's tag is weak (W/"…"); sent back, it still means "not modified"
    first = alice_client.get("/api/cards/?page_size=50", headers={"Accept-Encoding": "gzip"})
    assert first["ETag"].startswith('W/"')
    again = alice_client.get(
        "/api/cards/?page_size=50", headers={"Accept-Encoding": "gzip", "If-None-Match": first["ETag"]}
    )
    assert again.status_code == 304


def test_a_catalogue_change_invalidates_cached_answers(
    client: Client, tmp_path, django_capture_on_commit_callbacks
) -> None:
    import json

    from catalog.loading import DATA_FILE

    before = client.get("/api/cards/YXJQ-003/")
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    next(c for c in data["cards"] if c["code"] == "YXJQ-003")["name"] = "新兵乙"
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with django_capture_on_commit_callbacks(execute=True):  # the version moves when the load commits
        call_command("loadcatalog", str(path), verbosity=0)
    after = client.get("/api/cards/YXJQ-003/", HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after.json()["name"] == "新兵乙"
    assert client.get("/api/cards/?q=新兵乙").json()["count"] == 1


def test_errors_are_not_cached(client: Client) -> None:
    response = client.get("/api/cards/?kind=bogus")
    assert response.status_code == 400 and "ETag" not in response


def test_the_api_throttles_anonymous_and_logged_in_clients(client: Client, alice_client: Client, monkeypatch) -> None:
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "anon", "3/minute")
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "user", "4/minute")
    body = {"list": "3 新兵"}
    statuses = [client.post("/api/legality/", body, content_type="application/json").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    limited = client.post("/api/legality/", body, content_type="application/json")
    assert "Retry-After" in limited and "detail" in limited.json()
    statuses = [alice_client.get("/api/collection/").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429]
