"""`manage.py checkdeck`: exit codes, text and JSON output, stdin, several files and directories."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.support.decklists import ILLEGAL, LEGAL_40

pytestmark = pytest.mark.django_db


def run(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        call_command("checkdeck", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def legal_file(tmp_path: Path) -> Path:
    path = tmp_path / "legal.txt"
    path.write_text(LEGAL_40, encoding="utf-8")
    return path


@pytest.fixture
def illegal_file(tmp_path: Path) -> Path:
    path = tmp_path / "illegal.txt"
    path.write_text(ILLEGAL, encoding="utf-8")
    return path


def test_legal_deck_exits_0(legal_file: Path) -> None:
    code, out, _ = run(str(legal_file))
    assert code == 0
    assert "LEGAL" in out and "40 cards" in out and "WJ-001" in out


def test_illegal_deck_exits_1_and_lists_every_problem(illegal_file: Path) -> None:
    code, out, _ = run(str(illegal_file))
    assert code == 1
    for problem in (
        "too_many_generals",
        "too_many_copies",
        "reinforcement_in_deck",
        "general_in_deck",
        "unknown_card",
        "invalid_count",
        "not_a_reinforcement",
        "too_few_cards",
    ):
        assert problem in out, problem


def test_json_output_has_the_documented_shape(illegal_file: Path) -> None:
    code, out, _ = run(str(illegal_file), "--json")
    assert code == 1
    data = json.loads(out)
    assert set(data) == {"legal", "format", "main_deck_count", "general", "problems", "problems_omitted"}
    assert data["legal"] is False and data["format"] == "standard" and data["general"] == "WJ-001"
    assert data["main_deck_count"] == 8  # 3 + 1 新兵, 1 援軍, 1 孫權, 2 火攻: what the player put in the deck
    unknown = next(p for p in data["problems"] if p["code"] == "unknown_card")
    assert unknown["lines"] == [7] and unknown["severity"] == "error"
    copies = next(p for p in data["problems"] if p["code"] == "too_many_copies")
    assert copies["cards"] == ["YXJQ-003"] and copies["lines"] == [3, 4]


def test_format_option(legal_file: Path) -> None:
    code, out, _ = run(str(legal_file), "--format", "classic", "--json")
    assert code == 0 and json.loads(out)["format"] == "classic"


def test_stdin(legal_file: Path) -> None:
    code, out, _ = run("-", "--json", stdin=LEGAL_40.encode())
    assert code == 0 and json.loads(out)["legal"] is True


@pytest.mark.parametrize("content", [b"\xff\xfe\xfa garbage", b"3 x\n" * 20000, b"\x00\x01\x02"])
def test_unreadable_input_exits_2(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    with pytest.raises(Exception) as excinfo:
        call_command("checkdeck", str(path))
    assert getattr(excinfo.value, "returncode", None) == 2


def test_missing_file_exits_2(tmp_path: Path) -> None:
    with pytest.raises(Exception) as excinfo:
        call_command("checkdeck", str(tmp_path / "nope.txt"))
    assert getattr(excinfo.value, "returncode", None) == 2
    assert "cannot read" in str(excinfo.value)


def test_several_paths_and_a_directory_print_a_line_each_and_a_summary(tmp_path: Path) -> None:
    folder = tmp_path / "event"
    folder.mkdir()
    (folder / "a.txt").write_text("Player: 阿明\n" + LEGAL_40, encoding="utf-8")
    (folder / "b.txt").write_text(ILLEGAL, encoding="utf-8")
    (folder / "c.txt").write_bytes(b"\xff\xfe")
    code, out, _ = run(str(folder))
    assert code == 2
    assert "3 decks: 1 legal, 1 not legal, 1 unreadable" in out
    code, out, _ = run(str(folder / "a.txt"), str(folder / "b.txt"), "--json")
    assert code == 1
    results = json.loads(out)
    assert [(Path(r["path"]).name, r["legal"], r["player"]) for r in results] == [
        ("a.txt", True, "阿明"),
        ("b.txt", False, None),
    ]


def test_bad_arguments_exit_2(legal_file: Path) -> None:
    import subprocess

    result = subprocess.run(
        [sys.executable, "manage.py", "checkdeck", str(legal_file), "--format", "vintage"],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and "unknown format" in result.stderr and "standard" in result.stderr
