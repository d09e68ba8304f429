"""The organiser's forms for a season (issue 26): its rules, the finals. Each number's
bounds are ``seasons.points``' (a wrong one is shown by its field); the service checks
them again, with every rule that spans fields."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from seasons import points
from seasons.models import Season
from tournaments import formats
from tournaments.models import Game

DATE_WIDGET = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
DATETIME_WIDGET = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


def _points(label: Any, help_text: Any = "") -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=points.MAX_MATCH_POINTS,
        initial=0,
        help_text=help_text,
    )


def _formats() -> list[tuple[str, Any]]:
    """Every format the registry knows, after "Every format"."""
    return [("", _("Every format")), *formats.choices(formats.kinds(lambda _: True))]


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=points.MAX_NAME)
    starts_on = forms.DateField(label=_("First day"), widget=DATE_WIDGET)
    ends_on = forms.DateField(label=_("Last day"), widget=DATE_WIDGET)
    game = forms.ChoiceField(
        label=pgettext_lazy("which card game", "Game"),
        choices=[("", _("Every game")), *Game.choices],
        required=False,
    )
    stage_kind = forms.ChoiceField(
        label=_("Format"),
        choices=_formats,
        required=False,
        help_text=_("The format of an event's first stage (a Swiss with a cut is a Swiss)."),
    )
    placement_points = forms.CharField(
        label=_("Points per place"),
        required=False,
        help_text=_("1st place's points first, separated by commas: 25, 18, 15, 12."),
    )
    win_points = _points(_("Points per match won"))
    draw_points = _points(_("Points per match drawn"))
    attendance_points = _points(_("Points for playing an event"))
    best_of = forms.IntegerField(
        label=_("Best events counted"),
        required=False,
        min_value=1,
        max_value=points.MAX_EVENTS,
        help_text=_("Only each player's best N events count. Empty: every event."),
    )
    team_events = forms.BooleanField(
        label=_("Team events count for each member"),
        required=False,
        initial=True,
        help_text=_("Unticked, team events do not count in this season."),
    )
    qualifiers = forms.IntegerField(
        label=_("Players to the finals"),
        required=False,
        min_value=1,
        max_value=points.MAX_QUALIFIERS,
        help_text=_("The top N are marked on the leaderboard. Empty: no finals."),
    )

    def clean_placement_points(self) -> list[int]:
        table = points.parse_table(self.cleaned_data.get("placement_points") or "")
        if table is None:
            raise forms.ValidationError(
                _("Write whole numbers separated by commas, 1st place's first: 25, 18, 15."),
                code="invalid_table",
            )
        if len(table) > points.MAX_PLACES:
            raise forms.ValidationError(
                _("At most %(limit)d places have points."),
                code="too_long",
                params={"limit": points.MAX_PLACES},
            )
        for value in table:
            if value < 0 or value > points.MAX_PLACE_POINTS:
                raise forms.ValidationError(
                    _("A place's points are 0 to %(limit)d."),
                    code="out_of_bounds",
                    params={"limit": points.MAX_PLACE_POINTS},
                )
        return list(table)

    @classmethod
    def initial_of(cls, season: Season) -> dict[str, Any]:
        return {
            "name": season.name,
            "starts_on": season.starts_on,
            "ends_on": season.ends_on,
            "game": season.game,
            "stage_kind": season.stage_kind,
            "placement_points": ", ".join(str(v) for v in season.placement_points),
            "win_points": season.win_points,
            "draw_points": season.draw_points,
            "attendance_points": season.attendance_points,
            "best_of": season.best_of,
            "team_events": season.team_events,
            "qualifiers": season.qualifiers,
        }


class FinalsForm(forms.Form):
    name = forms.CharField(label=_("Name of the finals"), max_length=120)
    scheduled_start = forms.DateTimeField(label=_("Scheduled start"), widget=DATETIME_WIDGET)
    game = forms.ChoiceField(
        label=pgettext_lazy("which card game", "Game"),
        choices=[("", _("The season's game")), *Game.choices],
        required=False,
    )
