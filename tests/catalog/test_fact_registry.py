"""The card facts are one registry (catalog.facts.FACTS): the model, the loader, the filters, the
API's parameters and answers, the query language, the card page, the contribution form and the
incomplete report are derived from it, and each agrees with it here."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.test import Client

from catalog import facts, query, vocab
from catalog.api import CARD_FILTER_PARAMETERS
from catalog.filters import CardFilter, ChoicesFilter
from catalog.loading import DATA_FILE, RECORD_KEYS
from catalog.models import Card
from contributions.forms import ProposalForm
from tests.conftest import logged_in

pytestmark = pytest.mark.django_db

FILTERED = [fact for fact in facts.FACTS.values() if fact.filter]
NUMBERS = [fact for fact in facts.FACTS.values() if fact.kind == facts.INT]


def _having(fact: facts.Fact) -> Card:
    cards = Card.objects.filter(**{f"{fact.name}__isnull": False}).order_by("position")
    card = (cards.exclude(**{fact.name: ""}) if fact.kind in (facts.TEXT, facts.NAME) else cards).first()
    assert card is not None, fact.name
    return card


def _schema() -> dict:
    return Client().get("/api/schema/?format=json").json()


@pytest.mark.parametrize("fact", facts.FACTS.values(), ids=lambda f: f.name)
def test_the_model_column_has_the_facts_choices_and_bounds(fact: facts.Fact) -> None:
    column = Card._meta.get_field(fact.name)
    assert column.null is not fact.required
    if fact.choices is not None:
        assert list(column.choices) == list(fact.choices.choices)
    if fact.kind == facts.INT:
        card = Card.objects.filter(**{f"{fact.name}__isnull": False}).first()
        assert card is not None
        for bad in (fact.low - 1, fact.high + 1):
            if bad < 0:
                continue  # a positive column refuses it in the database already
            setattr(card, fact.name, bad)
            with pytest.raises(ValidationError) as refused:
                card.full_clean()
            assert fact.name in refused.value.message_dict


def test_every_fact_is_a_field_of_the_data_file() -> None:
    assert set(facts.FACTS) <= set(RECORD_KEYS)


@pytest.mark.parametrize("fact", NUMBERS, ids=lambda f: f.name)
def test_the_loader_refuses_a_number_beyond_the_facts_bounds(fact: facts.Fact, tmp_path: Path) -> None:
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    record = next(c for c in data["cards"] if c.get(fact.name) is not None)
    record[fact.name] = fact.high + 1
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(CommandError, match=rf"{fact.name}={fact.high + 1} must be a whole number from {fact.low}"):
        call_command("loadcatalog", str(path))


def test_the_filters_are_the_facts_that_filter() -> None:
    names = [name for name in CardFilter.base_filters if name not in ("q", "set", "sort")]
    expected = []
    for fact in FILTERED:
        expected.append(fact.name)
        if fact.filter == facts.RANGE:
            expected += [f"{fact.name}_min", f"{fact.name}_max"]
    assert names == expected
    for fact in FILTERED:
        found = CardFilter.base_filters[fact.name]
        if fact.choices is not None:
            assert isinstance(found, ChoicesFilter)
            assert [value for value, _ in found.extra["choices"]] == fact.choices.values
        elif fact.kind == facts.INT:
            assert (found.extra["min_value"], found.extra["max_value"]) == (fact.low, fact.high)


def test_the_documented_parameters_are_the_filters() -> None:
    documented = [p.name for p in CARD_FILTER_PARAMETERS]
    assert documented == [name for name in CardFilter.base_filters if name != "sort"] + ["page", "page_size"]
    parameters = {p["name"]: p["schema"] for p in _schema()["paths"]["/api/cards/"]["get"]["parameters"]}
    for fact in FILTERED:
        if fact.choices is not None:
            assert parameters[fact.name]["items"]["enum"] == fact.choices.values
        elif fact.kind == facts.INT:
            assert (parameters[fact.name]["minimum"], parameters[fact.name]["maximum"]) == (fact.low, fact.high)


@pytest.mark.parametrize("fact", FILTERED, ids=lambda f: f.name)
def test_each_filter_narrows_the_card_list_and_the_api(fact: facts.Fact) -> None:
    card = _having(fact)
    value = getattr(card, fact.name)
    wanted = Card.objects.filter(**{fact.name: value}).count()
    assert 0 < wanted < Card.objects.count()
    answer = Client().get("/api/cards/", {fact.name: value, "page_size": 500}).json()
    assert answer["count"] == wanted
    page = Client().get("/cards/", {fact.name: value}).content.decode()
    assert page.count('class="code"') >= min(wanted, 1)


def test_the_labels_are_the_choice_facts() -> None:
    labels = _schema()["components"]["schemas"]["Labels"]["properties"]
    assert list(labels) == [fact.name for fact in facts.CHOICE_FACTS]
    card = Client().get("/api/cards/YXJQ-003/").json()
    assert list(card["labels"]) == list(labels)
    for fact in facts.CHOICE_FACTS:
        slug = card[fact.name]
        if slug:
            assert fact.choices is not None
            assert card["labels"][fact.name] == {"zh": fact.choices(slug).label, "en": vocab.ENGLISH[slug]}


def test_every_choice_has_an_english_label() -> None:
    for fact in facts.CHOICE_FACTS:
        assert fact.choices is not None
        assert all(vocab.ENGLISH.get(value) for value in fact.choices.values), fact.name


def test_the_proposals_schema_lists_the_facts_a_proposal_may_change() -> None:
    bodies = [
        content["schema"]
        for path, item in _schema()["paths"].items()
        if "proposal" in path
        for method, operation in item.items()
        if method in ("post", "patch") and "requestBody" in operation
        for content in operation["requestBody"]["content"].values()
    ]
    with_facts = [body["properties"]["facts"] for body in bodies if "facts" in body.get("properties", {})]
    assert with_facts
    for schema in with_facts:
        assert list(schema["properties"]) == list(facts.PROPOSABLE)
        assert "kind" not in schema["properties"] and schema["additionalProperties"] is False


@pytest.mark.parametrize("fact", [f for f in facts.FACTS.values() if f.keyword], ids=lambda f: f.name)
def test_each_fact_with_a_keyword_is_searched_by_every_word_of_it(fact: facts.Fact) -> None:
    keyword = next(k for k in query.KEYWORDS if k.name == fact.keyword[0])
    assert keyword.field == fact.name and keyword.aliases == fact.keyword
    card = _having(fact)
    value = getattr(card, fact.name)
    if fact.kind == facts.TEXT:
        value = f'"{value[:2]}"'
    for word in fact.keyword:
        found = query.apply(Card.objects.all(), query.parse(f"{word}:{value}"))
        assert card in found, word


def test_missing_takes_every_word_of_each_expected_fact() -> None:
    for fact in facts.FACTS.values():
        for word in (fact.name, *fact.keyword, *fact.aliases) if fact.expected else ():
            query.parse(f"missing:{word}")
    with pytest.raises(query.QueryError):
        query.parse("missing:affiliation")  # no kind must print it


@pytest.mark.parametrize("kind", vocab.Kind.values)
def test_the_card_page_shows_a_row_for_each_fact_its_kind_shows(kind: str, english) -> None:
    card = Card.objects.filter(kind=kind).order_by("position").first()
    assert card is not None
    page = Client().get(card.get_absolute_url()).content.decode()
    table = page[page.index('<dl class="facts">') : page.index("</dl>")]
    shown = [fact for fact in facts.FACTS.values() if fact.row and kind in fact.shown_on]
    headings = [re.sub(r"\s+", " ", h).strip() for h in re.findall(r"<dt>(.*?)</dt>", table, re.DOTALL)]
    expected = [str(fact.row_label) for fact in shown] + (["Random insert"] if card.random_insert else [])
    assert headings == expected
    for fact in shown:
        cell = re.search(rf'<dd class="fact-{fact.name}">(.*?)</dd>', table, re.DOTALL)
        assert cell is not None
        if getattr(card, fact.name) is None and not (fact.fallback and getattr(card, fact.fallback)):
            assert 'class="unknown"' in cell.group(1), fact.name


def test_a_choice_row_links_to_the_cards_that_share_it(english) -> None:
    card = Card.objects.get(code="YXJQ-003")
    page = Client().get(card.get_absolute_url()).content.decode()
    for fact in facts.FACTS.values():
        value = getattr(card, fact.name)
        if fact.row and fact.filter and fact.kind == facts.CHOICE and value and not fact.display:
            assert f'href="/cards/?{fact.name}={value}"' in page, fact.name


@pytest.mark.parametrize("kind", vocab.Kind.values)
def test_the_proposal_form_offers_the_facts_the_page_shows(kind: str, alice) -> None:
    card = Card.objects.filter(kind=kind).first()
    assert card is not None
    form = ProposalForm(card)
    assert form.fact_names == [
        f.name for f in facts.FACTS.values() if f.proposable and (f.required or kind in f.shown_on)
    ]
    page = logged_in(alice).get(f"/cards/{card.code}/propose/").content.decode()
    for name in form.fact_names:
        assert f'name="{name}"' in page


def test_the_incomplete_report_has_a_column_for_each_expected_fact(english) -> None:
    page = Client().get("/cards/incomplete/").content.decode()
    head = page[page.index("<thead>") : page.index("</thead>")]
    columns = re.findall(r'<th scope="col">(.*?)</th>', head)[1:]
    assert columns == [str(fact.label) for fact in facts.FACTS.values() if fact.expected]


# A fact added to the registry's source, in a child process of its own: everything derived from
# FACTS must show it, with no other file changed. Its column is one the Card has already (a cost
# printed as words), since a new column needs its migration, which makemigrations writes.
FAKE_FACT = (
    '        Fact("cost_text", gettext_noop("Printed cost"), TEXT, _DECK, max_length=8,'
    ' keyword=("printed",), help=gettext_noop("a cost printed as words"), example="printed:X",'
    " filter=EXACT),\n"
)
WITH_A_FAKE_FACT = """
import json, os, pathlib, sys, types
source = pathlib.Path("catalog/facts.py").read_text(encoding="utf-8")
end = "    )\\n}\\nPROPOSABLE"
assert source.count(end) == 1, "the registry's end moved: update the test's marker"
module = types.ModuleType("catalog.facts")
module.__file__ = "catalog/facts.py"
sys.modules["catalog.facts"] = module
exec(compile(source.replace(end, sys.argv[1] + end), "catalog/facts.py", "exec"), module.__dict__)
import django
django.setup()
from catalog import facts, query
from catalog.api import CARD_FILTER_PARAMETERS
from catalog.filters import CardFilter
from catalog.loading import RECORD_KEYS
from catalog.models import Card
from catalog.templatetags.cards import card_facts
from contributions.forms import ProposalForm
card = Card(code="X-001", name="假", kind="tactic", cost_text="X")
try:
    searched = str(query.to_q(query.parse("printed:X")))
except query.QueryError:
    searched = None
print(json.dumps({
    "fact_keys": list(RECORD_KEYS[2 : 2 + len(facts.FACTS)]),
    "filters": list(CardFilter.base_filters),
    "parameters": [p.name for p in CARD_FILTER_PARAMETERS],
    "keywords": [k.name for k in query.KEYWORDS],
    "query": searched,
    "missing_words": facts.MISSING_WORDS.get("printed"),
    "proposal_fields": list(ProposalForm(card).fields),
    "rows": [row["fact"].name for row in card_facts(card)["rows"]],
}))
"""


def test_a_fact_added_to_the_registry_appears_everywhere_it_must(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path}/fake.sqlite3",
        "DJANGO_SETTINGS_MODULE": "zongheng.settings",
    }
    child = subprocess.run(
        [sys.executable, "-c", WITH_A_FAKE_FACT, FAKE_FACT],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert child.returncode == 0, child.stderr[-3000:]
    seen = json.loads(child.stdout.strip().splitlines()[-1])
    assert "cost_text" in seen["fact_keys"]  # the loader reads it as a fact
    assert "cost_text" in seen["filters"] and "cost_text" in seen["parameters"]  # filtered, documented
    assert "printed" in seen["keywords"] and "cost_text" in (seen["query"] or "")  # the query language
    assert seen["missing_words"] == "cost_text"  # `missing:printed`
    assert "cost_text" in seen["proposal_fields"]  # a contribution may change it
    assert "cost_text" in seen["rows"]  # the card page shows it
