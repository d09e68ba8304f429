"""The admin in the reader's language (issue 25): staff reading the admin in French or
Greek see our models' and fields' names in that language (Django's own admin words come
from Django's catalogues), and every label of our models is marked for translation, so a
new field cannot slip in English."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils.functional import Promise

from tests.factories import RegistrationFactory, TournamentFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

#: The apps whose models the admin lists (Django's own are translated by Django).
APPS = ("tournaments", "gameplay", "notifications", "core", "seasons")

#: What a tournament's pages say in each language: the model's names, some fields' labels
#: and a help text, as the changelist and the change form show them (capitalised).
WORDS = {
    "en": {
        "model": "Tournaments",
        "columns": ["Scheduled start", "Capacity", "Status"],
        "form": ["Check in closes at", "Entrant type", "Games per match: best of 1, 3 or 5."],
        "inlines": ["Stages", "Registrations"],
    },
    "fr": {
        "model": "Tournois",
        "columns": ["Début prévu", "Capacité", "Statut"],
        "form": ["Clôture du pointage", "Type de participants", "Parties par match"],
        "inlines": ["Phases", "Inscriptions"],
    },
    "el": {
        "model": "Τουρνουά",
        "columns": ["Προγραμματισμένη έναρξη", "Μέγιστες συμμετοχές", "Κατάσταση"],
        "form": ["Κλείσιμο δηλώσεων παρουσίας", "Είδος συμμετεχόντων", "Παρτίδες ανά αγώνα"],
        "inlines": ["Φάσεις", "Εγγραφές"],
    },
}


def _page(client: Client, path: str, language: str, by: str) -> str:
    if by == "cookie":
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        response = client.get(path)
    else:
        response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert response["Content-Language"] == language
    return response.content.decode()


@pytest.fixture
def tournament() -> Tournament:
    tournament = TournamentFactory(name="Spring open")
    RegistrationFactory(tournament=tournament)
    return tournament


@pytest.mark.parametrize(
    ("language", "by"), [("en", "header"), ("fr", "header"), ("el", "header"), ("el", "cookie")]
)
def test_staff_read_a_tournaments_labels_in_their_language(
    admin_client: Client, tournament: Tournament, language: str, by: str
) -> None:
    words = WORDS[language]
    changelist = _page(
        admin_client, reverse("admin:tournaments_tournament_changelist"), language, by
    )
    assert words["model"] in changelist
    for column in words["columns"]:
        assert column in changelist, column
    assert "Spring open" in changelist  # the data stays as it is

    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    form = _page(admin_client, url, language, by)
    for label in [*words["form"], *words["inlines"]]:
        assert label in form, label
    if language != "en":
        # No English label is left for the fields shown (the help text's English neither).
        for english in [*WORDS["en"]["columns"], *WORDS["en"]["form"]]:
            assert english not in form, english


def test_the_admins_index_names_the_models_in_french(admin_client: Client) -> None:
    index = _page(admin_client, reverse("admin:index"), "fr", "header")
    for plural in ["Rondes", "Matchs", "Réglages du système suisse", "Pods de draft"]:
        assert plural in index, plural
    assert "Entrées du journal d\u2019audit" in index
    # The apps' sections too.
    for section in ["Clubs et tournois", "Parties à la table", "Saisons et cotes"]:
        assert section in index, section


def test_the_column_of_a_method_is_translated_too(admin_client: Client) -> None:
    """``@admin.display(description=...)``: the players' "guest" column."""
    page = _page(admin_client, reverse("admin:tournaments_player_changelist"), "el", "header")
    assert "Επισκέπτης" in page and "Εμφανιζόμενο όνομα" in page


@pytest.mark.parametrize("label", APPS)
def test_every_model_and_field_label_is_marked_for_translation(label: str) -> None:
    """A label that is a plain string would stay English in the admin (and in the forms
    made from the model): each model's names and each field's label and help text are lazy
    translations."""
    plain = []
    for model in apps.get_app_config(label).get_models():
        meta = model._meta
        for name in ("verbose_name", "verbose_name_plural"):
            if not isinstance(getattr(meta, "original_attrs", {}).get(name), Promise):
                plain.append(f"{meta.label}.Meta.{name}")
        for field in meta.get_fields():
            if field.auto_created or not field.concrete:
                continue
            if not isinstance(field.verbose_name, Promise):
                plain.append(f"{meta.label}.{field.name}")
            if field.help_text and not isinstance(field.help_text, Promise):
                plain.append(f"{meta.label}.{field.name} (help text)")
    assert not plain, plain
