"""One name once per event (issue 12, item 3): names compared after normalising (NFKC, case-folded,
invisible characters and bidi controls removed), look-alike letters of mixed scripts refused, and the
database's unique (event, normalised name) deciding a race — whose loser is told the name is taken,
never shown an error page. The director's form and the CSV import share the one name rule."""

from __future__ import annotations

import doctest
import importlib
import unicodedata

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import names, services
from scoring.models import Entry, Player
from tests.races import ON_POSTGRES, run_threads

COMPOSED = unicodedata.normalize("NFC", "José")
DECOMPOSED = unicodedata.normalize("NFD", "José")

# Each the same name as "Ann" once normalised.
SAME_AS_ANN = [
    pytest.param("ann", id="lower case"),
    pytest.param("ANN ", id="upper case, trailing space"),
    pytest.param("Ａｎｎ", id="full-width"),
    pytest.param("A\u200bnn", id="zero-width space"),
    pytest.param("An\u200dn", id="zero-width joiner"),
    pytest.param("\u202eAnn\u202c", id="bidi override"),
    pytest.param("\u2066Ann\u2069", id="bidi isolate"),
    pytest.param("A\u00adnn", id="soft hyphen"),
    pytest.param("\ufeffAnn", id="byte-order mark"),
    pytest.param("Ann\ufe0f", id="variation selector"),
]

CONFUSABLE = [
    pytest.param("\u0410nn", "Cyrillic and Latin", id="Cyrillic A"),
    pytest.param("B\u043eb", "Cyrillic and Latin", id="Cyrillic o"),
    pytest.param("\u039fscar", "Greek and Latin", id="Greek Omicron"),
    pytest.param("Mary \u0410nn", "Cyrillic and Latin", id="second word"),
]


def test_the_name_rule_examples_hold():
    module = importlib.import_module("scoring.names")
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(module):
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.attempted >= 5 and results.failed == 0


@pytest.mark.parametrize("name", SAME_AS_ANN)
def test_names_that_normalise_alike_have_one_key(name):
    assert names.name_key(name) == names.name_key("Ann")


def test_composed_and_decomposed_spellings_have_one_key():
    assert COMPOSED != DECOMPOSED
    assert names.name_key(COMPOSED) == names.name_key(DECOMPOSED)


@pytest.mark.parametrize("name", ["Ann Marie", "Anne", "An", "Jose", "Ann 2"])
def test_different_names_keep_different_keys(name):
    assert names.name_key(name) != names.name_key("Ann")


@pytest.mark.parametrize("name", ["Анна", "Zoë", "Anna Иванова", "Ὀδυσσεύς", "O'Brien-Smith", "李小龙"])
def test_names_in_one_script_a_word_are_accepted(name):
    assert names.confusable_problem(name) is None


@pytest.mark.parametrize(("name", "scripts"), CONFUSABLE)
def test_words_mixing_confusable_scripts_are_refused(name, scripts):
    problem = names.confusable_problem(name)
    assert problem is not None and scripts in problem and "look alike" in problem


# --- the director's entry -----------------------------------------------------------------------


@pytest.mark.parametrize("name", SAME_AS_ANN)
def test_entering_a_name_already_entered_is_refused(event, director, name):
    services.entry_add(event=event, user=director, name="Ann")
    with pytest.raises(ValidationError) as refused:
        services.entry_add(event=event, user=director, name=name)
    assert "is already entered in this event" in refused.value.message_dict["name"][0]
    assert Entry.objects.filter(event=event).count() == 1


def test_two_spellings_of_jose_are_one_name(event, director):
    services.entry_add(event=event, user=director, name=COMPOSED)
    with pytest.raises(ValidationError, match="already entered"):
        services.entry_add(event=event, user=director, name=DECOMPOSED)


@pytest.mark.parametrize(("name", "scripts"), CONFUSABLE)
def test_confusable_names_are_refused_even_when_free(event, director, name, scripts):
    with pytest.raises(ValidationError) as refused:
        services.entry_add(event=event, user=director, name=name)
    assert scripts in refused.value.message_dict["name"][0]
    assert not Player.objects.filter(name=name).exists()


def test_a_name_of_invisible_characters_only_is_refused(event, director):
    with pytest.raises(ValidationError, match="Give the player's name"):
        services.entry_add(event=event, user=director, name="\u200b\u200d\u202e")


def test_the_same_name_may_be_entered_in_another_event(make_event, director):
    first, second = make_event(), make_event()
    services.entry_add(event=first, user=director, name="Ann")
    entry = services.entry_add(event=second, user=director, name="ＡＮＮ")
    assert entry.normalized_name == "ann"


def test_the_entry_form_shows_the_refusal_beside_the_name(as_director, event, director):
    services.entry_add(event=event, user=director, name="Ann")
    url = reverse("scoring:direct_entry_add", kwargs={"slug": event.slug})
    taken = as_director.post(url, {"name": "Ａｎｎ"})
    confusable = as_director.post(url, {"name": "\u0410nn"})
    assert taken.status_code == 400 and "already entered in this event" in taken.content.decode()
    assert confusable.status_code == 400 and "Cyrillic and Latin" in confusable.content.decode()
    assert Entry.objects.filter(event=event).count() == 1


def test_a_lost_race_is_refused_as_taken_by_the_database(event, director, monkeypatch):
    """Two entries at once both pass the check before either is written: the unique constraint
    refuses the second, which gets the ordinary message and leaves no player behind."""
    services.entry_add(event=event, user=director, name="Ann")
    players = Player.objects.count()
    monkeypatch.setattr("scoring.services.entries.entered_name", lambda *args, **kwargs: None)
    with CaptureQueriesContext(connection) as queries, pytest.raises(ValidationError) as refused:
        services.entry_add(event=event, user=director, name="ａｎｎ")
    assert "'ａｎｎ' is already entered in this event." in refused.value.message_dict["name"]
    assert any("INSERT" in query["sql"] and "scoring_entry" in query["sql"] for query in queries)
    assert Player.objects.count() == players
    assert Entry.objects.filter(event=event).count() == 1


# --- the CSV import -----------------------------------------------------------------------------


def test_the_csv_import_refuses_a_file_naming_one_player_twice(event, director):
    report = services.players_import_csv(event=event, user=director, data="name\nAnn\nＡ\u200bＮＮ\n")
    assert not report.ok
    # The invisible character is shown escaped, so the director sees why the names clash.
    assert report.lines() == [r"line 3: 'Ａ\u200bＮＮ' appears twice in the file (also line 2)"]
    assert not Entry.objects.filter(event=event).exists()


def test_the_csv_import_refuses_confusable_names(event, director):
    report = services.players_import_csv(event=event, user=director, data="name\nBob\n\u0410nn\n")
    assert not report.ok
    (line,) = report.lines()
    assert line.startswith("line 3: ") and "Cyrillic and Latin" in line
    assert not Entry.objects.filter(event=event).exists()


def test_the_csv_import_knows_a_player_entered_under_another_spelling(event, director):
    services.entry_add(event=event, user=director, name=COMPOSED)
    report = services.players_import_csv(event=event, user=director, data=f"name\n{DECOMPOSED}\nBob\n")
    assert report.ok and report.already_entered == [DECOMPOSED] and report.added == ["Bob"]
    assert Entry.objects.filter(event=event).count() == 2


def test_a_csv_row_entered_meanwhile_rejects_the_import_and_writes_nothing(event, director, monkeypatch):
    """Someone enters Cy between the import's checks and its writes: the import is refused with the
    ordinary message for its row, and none of its rows is written."""

    def entered_meanwhile(done: int, total: int, step: str) -> None:
        # The rows are checked; before they are written someone else enters Cy.
        if step.startswith("entering"):
            services.entry_add(event=event, user=director, name="cy")

    report = services.players_import_csv(
        event=event, user=director, data="name\nBob\nCy\nDee\n", progress=entered_meanwhile
    )
    assert not report.ok and report.added == []
    assert report.lines() == ["line 3: 'Cy' is already entered in this event."]
    assert not Entry.objects.filter(event=event, player__name__in=["Bob", "Dee"]).exists()
    assert Entry.objects.filter(event=event, player__name="cy").exists()


# --- races: threads, each on its own connection --------------------------------------------------

SPELLINGS = ["Ann", "ann", "ANN", "Ａｎｎ", "A\u200bnn", "\u202eAnn", "Ann ", "aNN"]


def _race_entries(event, director) -> tuple[list[str], list[str]]:
    won: list[str] = []
    refused: list[str] = []

    def enter(index: int) -> None:
        try:
            services.entry_add(event=event, user=director, name=SPELLINGS[index])
            won.append(SPELLINGS[index])
        except ValidationError as exc:
            refused.append(exc.message_dict["name"][0])

    assert run_threads(len(SPELLINGS), enter) == []
    return won, refused


@pytest.mark.django_db(transaction=True)
def test_simultaneous_entries_of_one_name_make_one_entry(event, director):
    won, refused = _race_entries(event, director)
    assert len(won) == 1 and len(refused) == len(SPELLINGS) - 1
    assert all("is already entered in this event" in message for message in refused)
    assert Entry.objects.filter(event=event).count() == 1


@pytest.mark.postgres
@pytest.mark.skipif(not ON_POSTGRES, reason="needs PostgreSQL's concurrent transactions")
@pytest.mark.django_db(transaction=True)
def test_simultaneous_entries_and_imports_on_postgresql_make_each_name_once(event, director):
    for _ in range(3):
        _race_entries(event, director)
    rows = "name,club\n" + "".join(f"Player {number},Club\n" for number in range(40))
    reports = []

    def load(_index: int) -> None:
        reports.append(services.players_import_csv(event=event, user=director, data=rows))

    assert run_threads(4, load) == []
    assert sum(len(report.added) for report in reports) == 40
    assert all(report.ok or "already entered" in " ".join(report.lines()) for report in reports)
    keys = list(Entry.objects.filter(event=event).values_list("normalized_name", flat=True))
    assert len(keys) == len(set(keys)) == 41
