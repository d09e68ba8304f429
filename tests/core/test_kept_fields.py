"""A model serializer's fields built once per class (``core.api.KeptFields``): the same
answer as DRF building them each time, and each instance with fields of its own."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework import serializers

from tests.factories import running_tournament
from tournaments import selectors
from tournaments.api import serializers as api
from tournaments.models import Match
from tournaments.services import swiss

pytestmark = pytest.mark.django_db


class Rebuilt(api.MatchDetailSerializer):
    """The same serializer with DRF's own ``get_fields``: built for every instance."""

    def get_fields(self) -> dict[str, Any]:
        return serializers.ModelSerializer.get_fields(self)


def test_the_same_answer_as_fields_built_each_time_and_each_instance_its_own() -> None:
    tournament, organiser, _ = running_tournament(4)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    matches = [selectors.match_for_page(m.pk) for m in Match.objects.filter(b__isnull=False)]
    for match in matches * 2:
        assert api.MatchDetailSerializer(match).data == Rebuilt(match).data
    first, second = api.MatchDetailSerializer(matches[0]), api.MatchDetailSerializer(matches[1])
    assert first.fields["a"] is not second.fields["a"]
    assert first.fields["a"].parent is first and second.fields["a"].parent is second
    assert "_kept_fields" in api.MatchDetailSerializer.__dict__
    assert api.MatchDetailSerializer._kept_fields is not api.MatchSerializer.__dict__.get(
        "_kept_fields"
    )
    assert set(api.MatchDetailSerializer._kept_fields) == set(api.MatchSerializer.Meta.fields) | {
        "reports"
    }
