"""`make test-fast` picks the tests of what changed, and always the fast ones."""

from __future__ import annotations

from tests.fast import FAST, selected


def test_a_change_selects_its_app_s_tests_and_the_fast_ones() -> None:
    paths = selected({"decks/views/decks.py", "tests/events/test_paper_lists.py", "README.md", "webutil/bounds.py"})
    assert "tests/decks" in paths and "tests/events/test_paper_lists.py" in paths
    assert set(FAST) <= set(paths)
    assert not any(p.startswith(("tests/site_wide", "tests/support", "tests/webutil")) for p in paths)


def test_a_folder_covers_the_files_inside_it() -> None:
    paths = selected({"scanning/reader.py", "tests/scanning/test_reader.py"})
    assert "tests/scanning" in paths and "tests/scanning/test_reader.py" not in paths
    assert "tests/scanning/test_matching.py" not in paths


def test_nothing_changed_runs_the_fast_tests() -> None:
    assert selected(set()) == sorted(FAST)
