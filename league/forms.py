from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from decks.models import Deck
from groups.models import Group
from league.models import not_in_the_future
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
