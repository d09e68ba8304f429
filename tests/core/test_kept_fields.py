"""A model serializer's fields built once per class (``core.api.KeptFields``): the same
answer as DRF building them each time, and each instance with fields of its own: a plain
field copied (the kept one never bound), a field holding others deep-copied."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework import serializers

from core.api import KeptFields
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
    kept = api.MatchDetailSerializer._kept_fields
    assert all(field.parent is None and field.field_name is None for field in kept.values())
    for name, field in first.fields.items():
        assert field is not kept[name] and field.field_name == name
        if isinstance(field, serializers.BaseSerializer):  # its own inner fields
            assert all(inner.parent is field for inner in field.fields.values())


def test_a_list_fields_child_and_a_nested_serializer_are_not_shared() -> None:
    class Inner(serializers.Serializer[Any]):
        n = serializers.IntegerField()

    class Outer(KeptFields, serializers.Serializer[Any]):
        numbers = serializers.ListField(child=serializers.IntegerField())
        inner = Inner()
        label = serializers.CharField(source="name")

    first, second = (
        Outer({"numbers": [1], "inner": {"n": 2}, "name": "a"}),
        Outer({"numbers": [3], "inner": {"n": 4}, "name": "b"}),
    )
    assert first.data == {"numbers": [1], "inner": {"n": 2}, "label": "a"}
    assert second.data == {"numbers": [3], "inner": {"n": 4}, "label": "b"}
    assert first.fields["numbers"].child is not second.fields["numbers"].child
    assert first.fields["numbers"].child.parent is first.fields["numbers"]
    assert first.fields["inner"].fields["n"].parent is first.fields["inner"]
    assert first.fields["label"].source == "name" and first.fields["label"].parent is first
