"""`loadcatalog`: idempotent, all or nothing, and it says what it did."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from catalog.loading import DATA_FILE
from catalog.models import Card, CardSet
from tests.support.catalogue import CARD_COUNT


def _data() -> dict:
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


def _write(tmp_path: Path, data: dict) -> Path:
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _run(*args: str) -> str:
    out = StringIO()
    call_command("loadcatalog", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_the_catalogue_holds_every_card_of_the_file_in_four_sets() -> None:
    assert Card.objects.count() == CARD_COUNT
    assert list(CardSet.objects.values_list("code", flat=True)) == ["YXJQ", "LSHJ", "GMGD", "WD"]


@pytest.mark.django_db
def test_running_again_changes_nothing() -> None:
    before = list(Card.objects.order_by("code").values())
    output = _run()
    assert f"0 added, 0 changed, {CARD_COUNT} unchanged" in output
    assert list(Card.objects.order_by("code").values()) == before


@pytest.mark.django_db
def test_a_corrected_card_is_reported_changed_and_its_keys_recomputed(tmp_path: Path) -> None:
    data = _data()
    record = next(c for c in data["cards"] if c["code"] == "YXJQ-003")
    record["name"] = "新兵甲"
    output = _run(str(_write(tmp_path, data)))
    assert "0 added, 1 changed, 214 unchanged" in output
    card = Card.objects.get(code="YXJQ-003")
    assert card.name == "新兵甲"
    assert card.name_key == "新兵甲"
    assert "|xinbingjia|" in card.pinyin_key


@pytest.mark.django_db
def test_a_new_card_is_added(tmp_path: Path) -> None:
    data = _data()
    data["cards"].append(
        {**next(c for c in data["cards"] if c["code"] == "五道·098"), "code": "五道·099", "name": "新卡"}
    )
    output = _run(str(_write(tmp_path, data)))
    assert f"1 added, 0 changed, {CARD_COUNT} unchanged" in output
    assert Card.objects.get(code="五道·099").set.code == "WD"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"kind": "spell"}, "kind='spell' is not one of"),
        ({"cost": -1}, "cost=-1 must be a whole number"),
        ({"cost": "3"}, "cost='3' must be a whole number"),
        ({"stars": 6, "tier": "gold"}, "stars=6 must be a whole number from 1 to 5"),
        ({"tier": None}, "tier and stars go together"),
        ({"code": "YXJQ-3"}, "is not a card code as printed"),
        ({"name": "步兵 十夫長"}, "without spaces or commas"),
        ({"set": "XXXX"}, "unknown set 'XXXX'"),
        ({"colour": "red"}, "unknown field(s) colour"),
    ],
)
def test_a_bad_record_changes_nothing_and_is_named(tmp_path: Path, change: dict, message: str) -> None:
    data = _data()
    # The first card is fine and comes before the bad one: it must not be written either.
    data["cards"][0]["name"] = "改過的名字"
    index = next(i for i, c in enumerate(data["cards"]) if c["code"] == "YXJQ-003")
    data["cards"][index].update(change)
    before = list(Card.objects.order_by("code").values())
    with pytest.raises(CommandError) as excinfo:
        _run(str(_write(tmp_path, data)))
    assert "Nothing was changed" in str(excinfo.value)
    assert f"card #{index + 1}" in str(excinfo.value)
    assert message in str(excinfo.value)
    assert list(Card.objects.order_by("code").values()) == before


@pytest.mark.django_db
def test_duplicate_codes_are_refused(tmp_path: Path) -> None:
    data = _data()
    data["cards"].append(dict(data["cards"][0]))
    with pytest.raises(CommandError, match="duplicate code"):
        _run(str(_write(tmp_path, data)))


@pytest.mark.django_db
@pytest.mark.parametrize("content", [b"", b"not json", b"\xff\xfe garbage", b"[]", b'{"sets": []}'])
def test_garbage_files_are_refused_with_a_message(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "cards.json"
    path.write_bytes(content)
    with pytest.raises(CommandError, match="Nothing was changed"):
        _run(str(path))
    assert Card.objects.count() == CARD_COUNT


@pytest.mark.django_db
def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no such file"):
        _run(str(tmp_path / "missing.json"))
