"""Card pictures uploaded in the admin: checked by content, cleaned, re-encoded to WebP with
thumbnails made once, served with long cache headers, shown instead of the drawn face."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client, TestCase
from PIL import Image

from catalog.models import Card, CardImage
from tests.support.image_helpers import RED, jpeg_with_exif, picture_bytes, png_claiming, stored_files

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media_root", "english")]
ADD = "/admin/catalog/cardimage/add/"


@pytest.fixture
def maintainer(charlie, charlie_client: Client) -> Client:
    """charlie is staff; a maintainer is given the card-picture permissions, nothing more."""
    charlie.user_permissions.add(*Permission.objects.filter(codename__endswith="cardimage"))
    return charlie_client


def upload(client: Client, code: str, content: bytes, name: str, side: str = "front", capture=None):
    card = Card.objects.get(code=code)
    data = {"card": card.pk, "side": side, "upload": SimpleUploadedFile(name, content)}
    # Run what waits for the commit: the files written, old files removed, caches refreshed.
    with (capture or TestCase.captureOnCommitCallbacks)(execute=True):
        return client.post(ADD, data)


@pytest.mark.parametrize(("fmt", "name"), [("JPEG", "scan.jpg"), ("PNG", "scan.png"), ("WEBP", "scan.webp")])
def test_jpeg_png_and_webp_are_accepted_and_stored_as_webp(
    maintainer: Client, media_root: Path, fmt: str, name: str
) -> None:
    response = upload(maintainer, "WJ-001", picture_bytes(fmt), name)
    assert response.status_code == 302, response.content.decode()[:2000]
    stored = CardImage.objects.get(card__code="WJ-001", side="front")
    assert (stored.width, stored.height) == (500, 700)
    assert name.split(".")[0] not in stored.image.name and stored.image.name.endswith(".webp")
    with Image.open(media_root / stored.image.name) as image:
        assert image.format == "WEBP" and image.size == (500, 700)
    assert sorted(stored.thumbnails) == ["200", "400"]  # 800 would be wider than the picture
    for width, thumb in stored.thumbnails.items():
        with Image.open(media_root / thumb) as image:
            assert image.format == "WEBP" and image.width == int(width)
    assert len(stored_files(media_root)) == 3


@pytest.mark.parametrize(
    ("content", "name", "message"),
    [
        (b"Player: alice\n3 YXJQ-003\n", "list.jpg", "Only JPEG, PNG, WebP and HEIC"),  # a renamed text file
        (b"%PDF-1.4\n" + b"x" * 400, "scan.png", "Only JPEG, PNG, WebP and HEIC"),
        (picture_bytes("GIF"), "scan.gif", "Only JPEG, PNG, WebP and HEIC"),  # an image, but not one we take
        (b"\xff\xd8\xff\xe0" + b"\0" * (25 * 1024 * 1024), "huge.jpg", "larger than 25 MB"),
        (png_claiming(9000, 5000), "bomb.png", "45.0 megapixels"),  # 45 MP in a few bytes
        (png_claiming(60000, 60000), "bomb2.png", "megapixels"),  # past Pillow's own limit
        (picture_bytes("JPEG")[:1500], "cut.jpg", "truncated or corrupt"),
        (picture_bytes("PNG")[:-40], "cut.png", "truncated or corrupt"),
        (b"", "empty.jpg", "empty"),
    ],
)
def test_bad_files_are_refused_with_a_reason_and_nothing_is_stored(
    maintainer: Client, media_root: Path, content: bytes, name: str, message: str
) -> None:
    response = upload(maintainer, "WJ-001", content, name)
    assert response.status_code == 200  # the admin form again, with the error
    assert message in response.content.decode()
    assert not CardImage.objects.exists()
    assert stored_files(media_root) == []


@pytest.fixture
def front(maintainer: Client, django_capture_on_commit_callbacks) -> CardImage:
    upload(maintainer, "WJ-001", picture_bytes("PNG"), "a.png", capture=django_capture_on_commit_callbacks)
    return CardImage.objects.get()


def test_a_refused_replacement_keeps_the_picture_already_there(
    maintainer: Client, media_root: Path, front: CardImage
) -> None:
    stored = front
    before = stored_files(media_root)
    change = f"/admin/catalog/cardimage/{stored.pk}/change/"
    bad = SimpleUploadedFile("b.jpg", picture_bytes("JPEG")[:900])
    response = maintainer.post(change, {"card": stored.card_id, "side": "front", "upload": bad})
    assert response.status_code == 200 and "truncated or corrupt" in response.content.decode()
    assert stored_files(media_root) == before
    assert CardImage.objects.get().image.name == stored.image.name


def test_a_new_picture_replaces_the_old_one_and_its_files(
    maintainer: Client, media_root: Path, front: CardImage, django_capture_on_commit_callbacks
) -> None:
    stored = front
    old = stored_files(media_root)
    change = f"/admin/catalog/cardimage/{stored.pk}/change/"
    new = SimpleUploadedFile("b.jpg", picture_bytes("JPEG", (900, 1260)))
    with django_capture_on_commit_callbacks(execute=True):
        assert maintainer.post(change, {"card": stored.card_id, "side": "front", "upload": new}).status_code == 302
    now = stored_files(media_root)
    assert not set(old) & set(now) and len(now) == 4  # picture + 200, 400, 800
    with django_capture_on_commit_callbacks(execute=True):
        maintainer.post(f"/admin/catalog/cardimage/{stored.pk}/delete/", {"post": "yes"})
    assert stored_files(media_root) == [] and not CardImage.objects.exists()


def test_exif_orientation_is_applied_and_metadata_is_gone(maintainer: Client, media_root: Path) -> None:
    source = jpeg_with_exif(orientation=6)  # stored 60×40 on its side: "turn 90° clockwise to view"
    with Image.open(io.BytesIO(source)) as original:
        assert original.getexif()[0x010F] == "SpyCam"
    assert upload(maintainer, "WJ-001", source, "phone.jpg").status_code == 302
    stored = CardImage.objects.get()
    assert (stored.width, stored.height) == (40, 60)
    for name in stored.files():
        raw = (media_root / name).read_bytes()
        assert b"SpyCam" not in raw and b"secret-editor" not in raw and b"Exif" not in raw
        with Image.open(media_root / name) as image:
            assert not image.getexif() and not {"exif", "xmp", "icc_profile"} & set(image.info)
    with Image.open(media_root / stored.image.name) as image:
        top, bottom = image.convert("RGB").getpixel((20, 8)), image.convert("RGB").getpixel((20, 52))
    assert top[0] > 150 and top[2] < 100, top  # the left (red) half is now on top
    assert bottom[2] > 150 and bottom[0] < 100, bottom
    assert RED[0] > 150


def test_pictures_are_shown_with_the_face_beneath_and_served_for_a_year(
    maintainer: Client,
    client: Client,
    alice,
    alice_client: Client,
    media_root: Path,
    django_capture_on_commit_callbacks,
) -> None:
    from tests.support.deck_helpers import make_deck

    upload(
        maintainer, "WJ-001", picture_bytes("WEBP", (900, 1260)), "x.webp", capture=django_capture_on_commit_callbacks
    )
    upload(
        maintainer, "WJ-001", picture_bytes("PNG"), "back.png", side="back", capture=django_capture_on_commit_callbacks
    )
    front = CardImage.objects.get(side="front")
    page = client.get("/cards/WJ-001/").content.decode()
    assert '<svg class="face kind-general"' in page and '<img class="face-image"' in page  # the face stays as fallback
    for width in ("200", "400", "800"):
        assert f"/media/{front.thumbnails[width]} {width}w" in page
    assert "Back side" in page and CardImage.objects.get(side="back").thumbnails["400"] in page
    other = client.get("/cards/WJ-002/").content.decode()
    assert '<svg class="face' in other and "face-image" not in other  # no picture: the drawn face alone
    grid = client.get("/cards/?view=grid&kind=general").content.decode()
    assert grid.count('<img class="face-image"') == 1
    deck = make_deck(alice)
    # A deck's grid shows each face as one image: the general's is its uploaded picture.
    deck_page = alice_client.get(f"/decks/{deck.pk}/").content.decode()
    general = re.search(r'<img class="face-image-only" src="([^"]+)" srcset="([^"]+)"', deck_page)
    assert general and general.group(1).startswith("/media/")
    assert f"/media/{front.thumbnails['200']} 200w" in general.group(2)

    response = client.get(f"/media/{front.thumbnails['200']}")
    assert response.status_code == 200 and response["Content-Type"] == "image/webp"
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    assert client.get("/media/cards/../../settings.py").status_code == 404
    assert client.get("/media/cards/nope.webp").status_code == 404


def test_thumbnails_are_made_once_not_per_request(
    maintainer: Client, client: Client, media_root: Path, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    from catalog import images

    upload(maintainer, "WJ-001", picture_bytes("PNG", (900, 1260)), "a.png", capture=django_capture_on_commit_callbacks)
    stamps = {p: p.stat().st_mtime_ns for p in media_root.rglob("*.webp")}

    def no_more(*args: object, **kwargs: object) -> None:
        raise AssertionError("a thumbnail was made while showing a page")

    monkeypatch.setattr(images, "make_thumbnails", no_more)
    monkeypatch.setattr(images, "_encode", no_more)
    for url in ["/cards/WJ-001/", "/cards/?view=grid&kind=general", "/cards/?view=grid&kind=general"]:
        assert client.get(url).status_code == 200
    for thumb in CardImage.objects.get().thumbnails.values():
        assert client.get(f"/media/{thumb}").status_code == 200
    assert {p: p.stat().st_mtime_ns for p in media_root.rglob("*.webp")} == stamps


def test_the_thumbnails_command_regenerates_with_a_progress_bar(maintainer: Client, media_root: Path) -> None:
    upload(maintainer, "WJ-001", picture_bytes("PNG", (900, 1260)), "a.png")
    upload(maintainer, "WJ-002", picture_bytes("JPEG"), "b.jpg")
    lost = CardImage.objects.get(card__code="WJ-001").thumbnails["400"]
    (media_root / lost).unlink()
    out, err = io.StringIO(), io.StringIO()
    call_command("thumbnails", stdout=out, stderr=err)
    assert (media_root / lost).exists()
    assert "2 picture(s) given fresh thumbnails, 0 failed." in out.getvalue()
    assert "100%" in err.getvalue() and "2/2" in err.getvalue()  # tqdm's bar

    (media_root / lost).unlink()
    out = io.StringIO()
    call_command("thumbnails", "--missing", stdout=out, stderr=io.StringIO())
    assert "1 picture(s)" in out.getvalue() and (media_root / lost).exists()


def test_only_maintainers_can_upload(alice_client: Client, charlie_client: Client, media_root: Path) -> None:
    for client in (alice_client, charlie_client):  # not staff; staff without the permission
        response = upload(client, "WJ-001", picture_bytes("PNG"), "a.png")
        assert response.status_code in (302, 403)
        assert response.status_code == 403 or "/login/" in response["Location"]
    assert not CardImage.objects.exists() and stored_files(media_root) == []


def test_pictures_upload_through_the_card_page_of_the_admin(charlie, charlie_client: Client, media_root: Path) -> None:
    charlie.user_permissions.add(
        *Permission.objects.filter(
            codename__in=["change_card", "view_card", "add_cardimage", "change_cardimage", "view_cardimage"]
        )
    )
    card = Card.objects.get(code="YXJQ-003")
    page = charlie_client.get(f"/admin/catalog/card/{card.pk}/change/")
    form = page.context["adminform"].form
    data = {name: ("" if value is None else value) for name, value in form.initial.items() if name in form.fields}
    data.update(
        {
            "images-TOTAL_FORMS": "1",
            "images-INITIAL_FORMS": "0",
            "images-MIN_NUM_FORMS": "0",
            "images-MAX_NUM_FORMS": "2",
            "images-0-side": "front",
            "images-0-upload": SimpleUploadedFile("s.jpg", picture_bytes("JPEG")),
        }
    )
    data["set"] = card.set_id
    with TestCase.captureOnCommitCallbacks(execute=True):  # the files are written once committed
        response = charlie_client.post(f"/admin/catalog/card/{card.pk}/change/", data)
    assert response.status_code == 302, response.context["errors"] if response.context else response
    stored = CardImage.objects.get(card=card)
    assert stored.image.name.startswith(f"cards/{card.pk}/front-") and len(stored_files(media_root)) == 3


def test_the_api_gives_each_card_its_face_and_pictures(
    maintainer: Client, client: Client, django_capture_on_commit_callbacks
) -> None:
    upload(maintainer, "WJ-001", picture_bytes("PNG", (900, 1260)), "a.png", capture=django_capture_on_commit_callbacks)
    stored = CardImage.objects.get()
    card = client.get("/api/cards/WJ-001/").json()
    assert card["face"].startswith("/cards/WJ-001/face.svg?v=") and card["pictures"]["back"] is None
    front = card["pictures"]["front"]
    assert front == {
        "url": f"/media/{stored.image.name}",
        "width": 900,
        "height": 1260,
        "thumbnails": {w: f"/media/{n}" for w, n in stored.thumbnails.items()},
        "credit": None,  # a maintainer's upload; a contributed photo names its author
    }
    assert client.get("/api/cards/WJ-002/").json()["pictures"] == {"front": None, "back": None}
    assert client.get(front["thumbnails"]["200"]).status_code == 200
