"""Query-string filters. Dates are normalised to UTC here: PostgreSQL refuses offsets
beyond ±15:59 and Python refuses dates that overflow, both of which a client may send."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import django_filters
from django import forms
from django.utils.translation import gettext

from tournaments.models import Tournament


class UTCDateTimeField(forms.DateTimeField):
    def to_python(self, value: Any) -> datetime | None:
        result = super().to_python(value)
        if isinstance(result, datetime) and result.tzinfo is not None:
            try:
                result = result.astimezone(UTC)
            except OverflowError:
                raise forms.ValidationError(gettext("This date is out of range.")) from None
        return result


class UTCDateTimeFilter(django_filters.DateTimeFilter):
    """A date-time filter on ``UTCDateTimeField`` (ISO 8601 and Django's input formats)."""

    field_class = UTCDateTimeField


class TournamentFilter(django_filters.FilterSet):
    club = django_filters.CharFilter(field_name="club__slug", help_text="The club's slug.")
    starts_after = UTCDateTimeFilter(field_name="scheduled_start", lookup_expr="gte")
    starts_before = UTCDateTimeFilter(field_name="scheduled_start", lookup_expr="lte")

    class Meta:
        model = Tournament
        fields = ["club", "game", "status", "starts_after", "starts_before"]
