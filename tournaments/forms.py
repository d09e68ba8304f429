"""HTML forms: they parse and type-check input; services decide and raise domain errors,
which ``add_domain_error`` puts next to the field at fault."""

from __future__ import annotations

from django import forms

from tournaments.errors import DomainError
from tournaments.models import Game, Role, Tournament

DATETIME_WIDGET = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


def add_domain_error(form: forms.Form, error: DomainError) -> None:
    field = error.field if error.field in form.fields else None
    form.add_error(field, error.detail)


class SignUpForm(forms.Form):
    username = forms.CharField(max_length=150)
    display_name = forms.CharField(
        max_length=80, required=False, help_text="How your name appears in pairings."
    )
    email = forms.EmailField(required=False, help_text="For password resets.")
    password = forms.CharField(widget=forms.PasswordInput, min_length=8)


class ProfileForm(forms.Form):
    display_name = forms.CharField(max_length=80)


class ClubForm(forms.Form):
    name = forms.CharField(max_length=120)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)


class AddMemberForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=Role.choices, initial=Role.MEMBER)


class InviteForm(forms.Form):
    email = forms.EmailField()
    role = forms.ChoiceField(choices=Role.choices, initial=Role.MEMBER)


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Role.choices)


class AddPlayerForm(forms.Form):
    username = forms.CharField(max_length=150, label="Username")


class TournamentForm(forms.ModelForm):
    publish = forms.BooleanField(
        required=False, initial=True, help_text="Open registration now (otherwise a draft)."
    )

    class Meta:
        model = Tournament
        fields = [
            "name",
            "game",
            "best_of",
            "capacity",
            "scheduled_start",
            "registration_opens_at",
            "registration_closes_at",
            "check_in_opens_at",
            "check_in_closes_at",
            "description",
        ]
        widgets = {
            "scheduled_start": DATETIME_WIDGET,
            "registration_opens_at": DATETIME_WIDGET,
            "registration_closes_at": DATETIME_WIDGET,
            "check_in_opens_at": DATETIME_WIDGET,
            "check_in_closes_at": DATETIME_WIDGET,
            "description": forms.Textarea(attrs={"rows": 3}),
            "best_of": forms.Select(choices=[(1, "Best of 1"), (3, "Best of 3"), (5, "Best of 5")]),
        }
        help_texts = {
            "check_in_opens_at": "Empty: from an hour before the start.",
            "check_in_closes_at": "Empty: at the start.",
        }

    game = forms.ChoiceField(choices=Game.choices)
    capacity = forms.IntegerField(min_value=2, max_value=100_000)

    def __init__(self, *args: object, editing: bool = False, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        if editing:
            del self.fields["publish"]
