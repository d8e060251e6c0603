"""reverse(), remembered (webutil.urls.reverse_memo): the same answers as reverse(), for each URL
configuration, script prefix and language."""

from __future__ import annotations

from django.test import override_settings
from django.urls import reverse, set_script_prefix
from django.utils import translation

from webutil.urls import reverse_memo


def test_remembered_answers_are_reverses_answers() -> None:
    for name, args in (
        ("catalog:card-detail", ("YXJQ-003",)),
        ("catalog:card-face", ("五道·001",)),
        ("decks:detail", (7,)),
    ):
        for language in ("en", "zh-hant"):
            with translation.override(language):
                assert reverse_memo(name, *args) == reverse(name, args=args)


def test_a_script_prefix_is_part_of_the_answer() -> None:
    plain = reverse_memo("catalog:card-detail", "YXJQ-003")
    set_script_prefix("/deckbox/")
    try:
        assert reverse_memo("catalog:card-detail", "YXJQ-003") == "/deckbox" + plain
    finally:
        set_script_prefix("/")
    assert reverse_memo("catalog:card-detail", "YXJQ-003") == plain


@override_settings(ROOT_URLCONF="tests.support.urls_elsewhere")
def test_another_url_configuration_is_answered_anew() -> None:
    assert reverse_memo("catalog:card-detail", "YXJQ-003") == "/elsewhere/cards/YXJQ-003/"
