"""CSV export and import: round trip, BOM, formula escaping, whole-file checks, preview, confirm."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from collection.csv_io import plan_import
from collection.models import CollectionChange, CollectionEntry
from tests.support.collection_helpers import own
from webutil.csv import escape_cell

# Messages are read in English here; tests/site_wide/test_i18n.py covers the other languages.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def snapshot(user) -> dict[str, tuple[int, int]]:
    return {
        e.card.code: (e.quantity, e.foil_quantity)
        for e in CollectionEntry.objects.owned_by(user).select_related("card")
    }


def upload(client: Client, content: bytes, mode: str = "add"):
    return client.post("/collection/import/", {"file": SimpleUploadedFile("c.csv", content, "text/csv"), "mode": mode})


def test_export_has_a_bom_a_header_and_my_rows(alice_client: Client, alice) -> None:
    own(alice, YXJQ_003=(3, 1), WD_001=2, YXJQ_004=0)
    response = alice_client.get("/collection/export.csv")
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    raw = response.content
    assert raw.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert rows == [
        ["code", "name", "set", "quantity", "foil_quantity"],
        ["YXJQ-003", "新兵", "YXJQ", "3", "1"],
        ["五道·001", "鄉勇", "WD", "2", "0"],
    ]


@pytest.mark.parametrize(
    ("value", "escaped"),
    [("=1+1", "'=1+1"), ("+SUM(A1)", "'+SUM(A1)"), ("-2", "'-2"), ("@cmd", "'@cmd"), ("新兵", "新兵"), (3, "3")],
)
def test_formula_cells_are_escaped(value: object, escaped: str) -> None:
    assert escape_cell(value) == escaped


def test_round_trip_through_a_file(alice_client: Client, alice, bob_client: Client, bob) -> None:
    own(alice, YXJQ_003=(3, 1), WD_001=2, WJ_008=(0, 1), LSHJ_024=9999)
    exported = alice_client.get("/collection/export.csv").content
    response = upload(bob_client, exported, mode="replace")
    assert response.status_code == 200 and 'name="confirm"' in response.content.decode()
    assert snapshot(bob) == {}  # a preview changes nothing
    assert bob_client.post("/collection/import/", {"confirm": "1"}).status_code == 302
    assert snapshot(bob) == snapshot(alice)
    assert CollectionChange.objects.filter(user=bob, source="import").count() == 4
    # The file is one history entry, undone as one.
    (batch,) = set(CollectionChange.objects.filter(user=bob).values_list("batch", flat=True))
    entry = CollectionChange.objects.filter(user=bob).first()
    assert batch is not None and entry.batch == batch
    assert bob_client.post(f"/collection/history/{entry.pk}/undo/", {"confirm": "yes"}).status_code == 302
    assert snapshot(bob) == {}


def test_import_reads_columns_by_header_name_and_accepts_names_in_either_script(alice) -> None:
    # extra columns anywhere, names in Simplified, an alias in the name column
    content = "備註,quantity,name,extra\n好卡,2,刘备,x\n,1,校场监军,\n,3,WD-001,\n".encode()
    plan = plan_import(alice, content, "add")
    assert plan.errors == []
    assert sorted((c.code, c.quantity_after) for c in plan.changes) == [("WJ-001", 2), ("YXJQ-009", 1), ("五道·001", 3)]


def test_code_column_and_add_mode_sum_with_what_i_have(alice_client: Client, alice) -> None:
    own(alice, YXJQ_003=(1, 1))
    upload(alice_client, b"code,quantity,foil_quantity\nyxjq3,2,\nYXJQ-003,1,1\n", mode="add")
    alice_client.post("/collection/import/", {"confirm": "1"})
    assert snapshot(alice) == {"YXJQ-003": (4, 2)}


def test_replace_mode_sets_counts_and_clears_cards_not_in_the_file(alice_client: Client, alice) -> None:
    own(alice, YXJQ_003=5, YXJQ_004=2)
    upload(alice_client, b"code,quantity\nYXJQ-003,1\n", mode="replace")
    alice_client.post("/collection/import/", {"confirm": "1"})
    assert snapshot(alice) == {"YXJQ-003": (1, 0)}


def test_one_bad_row_changes_nothing_and_every_bad_row_is_reported(alice_client: Client, alice) -> None:
    own(alice, YXJQ_003=1)
    content = (
        "code,quantity,foil_quantity\nYXJQ-004,2,0\nNOPE-1,1,0\nYXJQ-005,-1,0\nYXJQ-006,3,lots\nYXJQ-007,10000,0\n,1,\n"
    )
    response = upload(alice_client, content.encode())
    html = response.content.decode()
    assert response.status_code == 400
    for line in (3, 4, 5, 6, 7):
        assert f"{line}:" in html, line
    assert "NOPE-1" in html and "not a whole number" in html and "9,999" in html
    assert alice_client.post("/collection/import/", {"confirm": "1"}).status_code == 400  # nothing to confirm
    assert snapshot(alice) == {"YXJQ-003": (1, 0)}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xff\xff", "not text in UTF-8"),
        (b"\xff\xfe\x00\x01", "first row"),
        (b"foo,bar\n1,2\n", "first row"),
        (b"", "first row"),
        (b"code,quantity\nYXJQ-003,1\x00\n", "NUL"),
    ],
)
def test_garbage_files_are_refused_whole(alice_client: Client, alice, content: bytes, message: str) -> None:
    response = upload(alice_client, content)
    assert response.status_code == 400 and message in response.content.decode()
    assert snapshot(alice) == {}


def test_replace_mode_refuses_a_card_listed_twice(alice) -> None:
    plan = plan_import(alice, b"code,quantity\nYXJQ-003,1\n\xe6\x96\xb0\xe5\x85\xb5,2\n", "replace")
    assert [(e.line, "already on line 2" in e.message) for e in plan.errors] == [(3, True)]


def test_a_stale_preview_is_refused(alice_client: Client, alice) -> None:
    upload(alice_client, b"code,quantity\nYXJQ-003,2\n")
    own(alice, YXJQ_003=7)  # changed elsewhere meanwhile
    response = alice_client.post("/collection/import/", {"confirm": "1"})
    assert response.status_code == 400
    assert snapshot(alice) == {"YXJQ-003": (7, 0)}
