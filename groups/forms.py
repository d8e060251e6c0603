from __future__ import annotations

import re
import unicodedata
from typing import Any

from django import forms
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from catalog.lookup import catalog_index
from catalog.models import CardSet
from catalog.templatetags.cards import zh
from decks.models import Deck
from groups.models import Group, HouseFormat
from league.models import MAX_SEASON_NAME, not_in_the_future
from webutil.form_fields import ChineseAwareSelect, RowChoiceField


class GroupForm(forms.ModelForm):
    """A new group's name, with the model field's bounds (groups.models)."""

    class Meta:
        model = Group
        fields = ["name"]
        labels = {"name": _("Group name")}


class AddMemberForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)


RESULTS = [("me", _("I won")), ("them", _("They won")), ("draw", _("Draw"))]


class SeasonForm(forms.Form):
    """A season of the league: its name and dates (bounds and overlaps: league.services)."""

    name = forms.CharField(label=_("Season's name"), max_length=MAX_SEASON_NAME)
    starts_on = forms.DateField(label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}))


class GameForm(forms.Form):
    """A game I played against another member of the group."""

    opponent = forms.ChoiceField(label=_("Opponent"))
    result = forms.ChoiceField(label=_("Result"), choices=RESULTS, widget=forms.RadioSelect)
    my_deck = RowChoiceField(
        label=_("My deck"), queryset=Deck.objects.none(), required=False, widget=ChineseAwareSelect
    )
    their_deck = RowChoiceField(
        label=_("Their deck"), queryset=Deck.objects.none(), required=False, widget=ChineseAwareSelect
    )
    played_on = forms.DateField(
        label=_("Played on"),
        required=False,
        validators=[not_in_the_future],
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def __init__(self, *args: Any, members: list[tuple[str, str]], mine: Any, shared: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        opponent = self.fields["opponent"]
        assert isinstance(opponent, forms.ChoiceField)
        opponent.choices = members
        my_deck = self.fields["my_deck"]
        their_deck = self.fields["their_deck"]
        assert isinstance(my_deck, forms.ModelChoiceField) and isinstance(their_deck, forms.ModelChoiceField)
        my_deck.queryset, their_deck.queryset = mine, shared
        my_deck.empty_label = their_deck.empty_label = _("(not saved here)")
        their_deck.label_from_instance = _deck_and_owner  # type: ignore[method-assign,assignment]  # a label per instance, as Django documents


def _deck_and_owner(deck: Any) -> str:
    return f"{deck.name} · {deck.owner.username}"


_SEPARATORS = re.compile(r"[,，、;；\n]+")
# "新兵 1", "新兵: 1", "新兵 ×1", "YXJQ-003=2": a card, then its limit.
_LIMIT_LINE = re.compile(r"^(?P<card>.+?)\s*[:：=×xX*]?\s*(?P<n>[0-9]{1,3})$")
MAX_RULES_TEXT = 6000


class HouseFormatForm(forms.ModelForm):
    """A house format's rules as a page takes them: the model's fields with their bounds, cards
    named as players type them (either script, code or pinyin), sets ticked."""

    banned = forms.CharField(
        label=_("Banned cards"),
        required=False,
        max_length=MAX_RULES_TEXT,
        widget=forms.Textarea(attrs={"rows": 2, "lang": "zh"}),
        help_text=_("Card names or codes, separated by commas."),
    )
    copy_limits = forms.CharField(
        label=_("Cards with a limit of their own"),
        required=False,
        max_length=MAX_RULES_TEXT,
        widget=forms.Textarea(attrs={"rows": 3, "lang": "zh"}),
        help_text=_("One a line: the card, then how many copies a deck may hold (0 bans it), as in YXJQ-003 1."),
    )
    sets = forms.MultipleChoiceField(
        label=_("Sets allowed"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("None ticked: every set."),
    )

    class Meta:
        model = HouseFormat
        fields = ["name", "min_cards", "max_cards", "copy_limit"]
        labels = {
            "name": _("Format name"),
            "min_cards": _("Fewest cards in a deck"),
            "max_cards": _("Most cards in a deck"),
            "copy_limit": _("Copies of one name"),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        sets = self.fields["sets"]
        assert isinstance(sets, forms.MultipleChoiceField)
        # A set's printed name is Chinese on every page: marked so, its code beside it.
        sets.choices = [(s.code, format_html("{} ({})", zh(s.name), s.code)) for s in CardSet.objects.order_by("order")]
        house = self.instance
        if house.pk and not self.is_bound:
            self.initial.update(
                {
                    "banned": "、".join(_card_label(ref) for ref in house.banned),
                    "copy_limits": "\n".join(f"{_card_label(ref)} {n}" for ref, n in house.copy_limits.items()),
                    "sets": house.sets,
                }
            )

    def clean_banned(self) -> list[str]:
        return [part.strip() for part in _SEPARATORS.split(self.cleaned_data["banned"]) if part.strip()]

    def clean_copy_limits(self) -> dict[str, int]:
        limits: dict[str, int] = {}
        for number, line in enumerate(self.cleaned_data["copy_limits"].splitlines(), start=1):
            line = line.strip()
            if not line:
                continue
            match = _LIMIT_LINE.match(unicodedata.normalize("NFKC", line))
            if match is None:
                raise forms.ValidationError(
                    _("Line %(n)d: give the card, then a number, as in YXJQ-003 1.") % {"n": number}
                )
            limits[match["card"].strip()] = int(match["n"])
        return limits

    def rules(self) -> dict[str, Any]:
        """What the form says, as groups.services takes a format's rules."""
        return {key: self.cleaned_data[key] for key in (*self.Meta.fields, "banned", "copy_limits", "sets")}


def shown_rules(house: HouseFormat) -> dict[str, Any]:
    """What a format's page lists of its cards and sets: printed names, not stored references."""
    return {
        "banned": [_card_label(ref) for ref in house.banned],
        "limits": [(_card_label(ref), n) for ref, n in house.copy_limits.items()],
        "sets": list(CardSet.objects.filter(code__in=house.sets).order_by("order")),
    }


def _card_label(ref: str) -> str:
    """A stored card reference (a code or a same-name key) as its card's printed name."""
    card = catalog_index().lookup(ref)
    return card.name if card else ref
