"""Media on S3-compatible object storage, against a real S3-protocol server (moto's standalone
server, started here on loopback): pictures and thumbnails go to the bucket and nothing to local
disk, any server serves them from the bucket, proposals' photos stay in its private part, and
/readyz names the storage when the bucket cannot be reached."""

from __future__ import annotations

import io
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from django.test import Client, TestCase

from catalog import cache_version, images
from catalog.models import Card, CardImage
from contributions import services
from tests.support.contribution_helpers import propose
from tests.support.image_helpers import picture_bytes, stored_files

pytestmark = [pytest.mark.django_db, pytest.mark.once]  # its own S3 server: one of CI's passes
BUCKET = "zongheng-media"
KEYS = {"aws_access_key_id": "test", "aws_secret_access_key": "test", "region_name": "us-east-1"}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def s3_endpoint() -> Iterator[str]:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            time.sleep(0.1)
    else:
        server.kill()
        raise RuntimeError("the S3 server did not start")
    yield f"http://127.0.0.1:{port}"
    server.terminate()
    server.wait(timeout=10)


def _options(endpoint: str) -> dict[str, Any]:
    from botocore.config import Config

    return {
        "bucket_name": BUCKET,
        "endpoint_url": endpoint,
        "region_name": "us-east-1",
        "access_key": "test",
        "secret_key": "test",
        "file_overwrite": False,
        "querystring_auth": False,
        "client_config": Config(connect_timeout=1, read_timeout=5, retries={"max_attempts": 1}),
    }


@pytest.fixture
def bucket(settings, s3_endpoint: str, media_root) -> Any:
    client = boto3.client("s3", endpoint_url=s3_endpoint, **KEYS)
    client.create_bucket(Bucket=BUCKET)
    options = _options(s3_endpoint)
    settings.MEDIA_S3 = options
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "zongheng.storage.MediaS3Storage", "OPTIONS": options},
    }
    yield client
    for item in client.list_objects_v2(Bucket=BUCKET).get("Contents", []):
        client.delete_object(Bucket=BUCKET, Key=item["Key"])
    client.delete_bucket(Bucket=BUCKET)


def _keys(client: Any) -> list[str]:
    return sorted(item["Key"] for item in client.list_objects_v2(Bucket=BUCKET).get("Contents", []))


def test_pictures_and_thumbnails_live_in_the_bucket_and_any_server_serves_them(bucket, media_root) -> None:
    card = Card.objects.get(code="WJ-001")
    with TestCase.captureOnCommitCallbacks(execute=True):  # the files are written once committed
        images.store(CardImage(card=card), images.clean_upload(io.BytesIO(picture_bytes("PNG", (500, 700)))))
    cache_version.bump()
    keys = _keys(bucket)
    assert len(keys) == 3 and all(k.startswith(f"cards/{card.pk}/front-") for k in keys)  # full, 200 and 400 wide
    assert stored_files(media_root) == []  # nothing on local disk
    picture = Client().get("/api/cards/WJ-001/").json()["pictures"]["front"]
    assert picture["url"].startswith("/media/cards/")
    served = Client().get(picture["url"])
    assert served.status_code == 200 and served["Content-Type"] == "image/webp"
    assert b"".join(served.streaming_content) == bucket.get_object(Bucket=BUCKET, Key=picture["url"][7:])["Body"].read()
    assert "immutable" in served["Cache-Control"]
    for bad in ("/media/cards/nothing.webp", "/media/../etc/passwd", "/media/private/x.webp"):
        assert Client().get(bad).status_code == 404


def test_proposal_photos_stay_private_in_the_bucket_until_approved(
    bucket, alice, charlie, alice_client: Client, media_root, django_capture_on_commit_callbacks
) -> None:
    proposal = propose(alice, cost="3")
    with django_capture_on_commit_callbacks(execute=True):  # the file as sent goes once it is read
        photo = services.add_photo(proposal.pk, alice, "front", io.BytesIO(picture_bytes("JPEG", (300, 420))))
    photo.refresh_from_db()
    key = f"private/{photo.image.name}"
    assert _keys(bucket) == [key] and stored_files(media_root) == []
    assert alice_client.get(f"/contributions/{proposal.pk}/photos/front/").status_code == 200
    assert Client().get(f"/media/{key}").status_code == 404  # the public media URL never reaches it
    with django_capture_on_commit_callbacks(execute=True):
        services.approve(proposal.pk, charlie)
    keys = _keys(bucket)
    assert key not in keys and any(k.startswith("cards/") for k in keys)
    assert CardImage.objects.get(card__code="五道·001").contributor == alice


def test_readyz_names_the_storage_when_the_bucket_is_out_of_reach(bucket, settings) -> None:
    assert Client().get("/readyz").status_code == 200
    unreachable = {**settings.MEDIA_S3, "endpoint_url": f"http://127.0.0.1:{_free_port()}"}
    settings.MEDIA_S3 = unreachable
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "zongheng.storage.MediaS3Storage", "OPTIONS": unreachable},
    }
    response = Client().get("/readyz")
    assert response.status_code == 503 and "storage" in response.json()["down"]
