"""The pages' forms. They parse and type-check input; services decide and raise domain
errors, which ``core.web.add_form_error`` puts next to the field at fault.

The result grid of the "my match" page is a row per game round and a pair of score boxes
per row, so a player can fill it in on a phone as the match goes on. Its field names:
``g<game>_r<round>_a`` and ``_b`` (scores of the match's first and second entrant),
``g<game>_align_a`` and ``_b`` (Vanilla Gwent alignments).
"""

from __future__ import annotations

import zoneinfo
from typing import Any

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm
from django.http import QueryDict
from django.utils.functional import Promise
from django.utils.text import capfirst
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from core import languages, text, throttle
from core.errors import InvalidInput
from rules import games as game_rules
from rules.outcome import Alignment, GameRecord
from tournaments import formats
from tournaments.models import (
    SWISS_SETTING_WORDS,
    EntrantType,
    Game,
    GrandFinal,
    Role,
    SwissSettings,
    Tournament,
)
from tournaments.selectors import game_options
from tournaments.selectors.standings_words import tiebreaker_labels

DATETIME_WIDGET = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class NameField(forms.CharField):
    """A one-line name others read (a display name, a club's or a tournament's name):
    cleaned by ``core.text.clean_name``, which refuses invisible and control characters
    (right-to-left overrides, zero-width spaces, NUL) by name."""

    def __init__(self, *, what: str | Promise, **kwargs: Any) -> None:
        self.what = what
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> str:
        value = super().to_python(value)
        try:
            return text.clean_name(value, what=self.what)
        except InvalidInput as error:
            raise forms.ValidationError(error.detail, code=error.code) from None


class FreeTextField(forms.CharField):
    """Free text (a description): line breaks kept; NUL, other control characters and
    bidirectional overrides refused (``core.text.clean_text``)."""

    def __init__(self, *, what: str | Promise, **kwargs: Any) -> None:
        self.what = what
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 3}))
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> str:
        value = super().to_python(value)
        try:
            return text.clean_text(value, what=self.what)
        except InvalidInput as error:
            raise forms.ValidationError(error.detail, code=error.code) from None


class SignInForm(AuthenticationForm):
    """The login page's form: while failed sign-ins for this name or from this address
    are throttled (``core.throttle``), it says so and for how long, instead of checking
    the password (which the backend would refuse anyway)."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        if username is not None and self.request is not None:
            wait = throttle.retry_after(self.request, username)
            if wait:
                raise forms.ValidationError(throttle.message(wait), code="throttled")
        return super().clean()


class SignUpForm(forms.Form):
    """A new account. The people service decides the user name (NFKC, allowed
    characters, taken case-insensitively) and the password (``AUTH_PASSWORD_VALIDATORS``)
    and its refusals land next to those fields."""

    username = forms.CharField(
        max_length=150,
        label=_("Username"),
        help_text=_("Letters, digits and . _ - @ + only."),
    )
    display_name = NameField(
        what=_("the display name"),
        max_length=80,
        required=False,
        label=_("Display name"),
        help_text=_("How your name appears in pairings."),
    )
    email = forms.EmailField(required=False, label=_("Email"), help_text=_("For password resets."))
    password = forms.CharField(
        widget=forms.PasswordInput,
        label=_("Password"),
        help_text=password_validation.password_validators_help_text_html(),  # lazy
    )
    claim_code = forms.CharField(
        max_length=40,
        required=False,
        label=_("Claim code"),
        help_text=_(
            "Played as a guest? The code your organiser gave you makes your results yours."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )


class ClaimForm(forms.Form):
    """A guest's claim code, typed on the profile page (``guests.claim_guest``)."""

    claim_code = forms.CharField(
        max_length=40,
        label=_("Claim code"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )


class BulkAddForm(forms.Form):
    """Names pasted on the players list, one a line or comma-separated (``guests``). The
    length is bounded by the request's size limit; the service counts the names and
    refuses more than it takes, with how many were pasted."""

    names = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 5}),
        strip=False,
        label=_("Names"),
        help_text=_(
            "One a line, or separated by commas: @username for an account, or a guest's name."
        ),
    )


def _language_choices() -> list[tuple[str, str]]:
    return [("", gettext("Your browser's language")), *languages.choices()]


def _event_language_choices() -> list[tuple[str, str]]:
    return [("", gettext("The club's language")), *languages.choices()]


class ProfileForm(forms.Form):
    display_name = NameField(what=_("the display name"), max_length=80, label=_("Display name"))
    #: On every device the player signs in on (``services.people.set_language``).
    language = forms.ChoiceField(
        choices=_language_choices,
        required=False,
        label=_("Language"),
        help_text=_("The site's language on every device you sign in on."),
    )
    #: Issue 26: ``services.people.set_profile_hidden``.
    profile_hidden = forms.BooleanField(
        required=False,
        label=_("Hide my player page"),
        help_text=_(
            "Others then see neither your events, ratings nor head-to-head; club rating "
            "lists and results feeds show you as a private player. A tournament's own "
            "pages still show your name."
        ),
    )


class ClubLanguageForm(forms.Form):
    """An owner sets the club's language (``services.clubs.set_language``)."""

    language = forms.ChoiceField(
        choices=languages.choices,
        label=_("Language"),
        help_text=_(
            "The club's pages are in this language for visitors whose browser asks for "
            "none of the site's languages."
        ),
    )


class ClubForm(forms.Form):
    name = NameField(what=_("the club's name"), max_length=120, label=_("Name"))
    description = FreeTextField(what=_("the description"), required=False, label=_("Description"))


def _time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


class ClubTimeZoneForm(forms.Form):
    """An owner sets the club's time zone (``services.clubs.set_time_zone``)."""

    time_zone = forms.ChoiceField(
        choices=_time_zone_choices,
        label=_("Time zone"),
        help_text=_("The club's tournament pages show times in this zone."),
    )


class AddMemberForm(forms.Form):
    username = forms.CharField(max_length=150, label=_("Username"))
    role = forms.ChoiceField(choices=Role.choices, initial=Role.MEMBER, label=_("Role"))


class InviteForm(forms.Form):
    email = forms.EmailField(label=_("Email"))
    role = forms.ChoiceField(choices=Role.choices, initial=Role.MEMBER, label=_("Role"))


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Role.choices, label=_("Role"))


class AddPlayerForm(forms.Form):
    username = forms.CharField(max_length=150, label=_("Username"))


#: The match lengths a tournament offers, by games per match.
_BEST_OF = {
    1: pgettext_lazy("match length", "Best of 1"),
    3: pgettext_lazy("match length", "Best of 3"),
    5: pgettext_lazy("match length", "Best of 5"),
}


class TournamentForm(forms.ModelForm[Tournament]):
    publish = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Publish"),
        help_text=_("Open registration now (otherwise a draft)."),
    )

    class Meta:
        model = Tournament
        fields = [
            "name",
            "game",
            "entrant_type",
            "best_of",
            "capacity",
            "scheduled_start",
            "registration_opens_at",
            "registration_closes_at",
            "check_in_opens_at",
            "check_in_closes_at",
            "description",
            "language",
        ]
        widgets = {
            "scheduled_start": DATETIME_WIDGET,
            "registration_opens_at": DATETIME_WIDGET,
            "registration_closes_at": DATETIME_WIDGET,
            "check_in_opens_at": DATETIME_WIDGET,
            "check_in_closes_at": DATETIME_WIDGET,
            "best_of": forms.Select(
                choices=[(n, _BEST_OF[n]) for n in (1, 3, 5)],
            ),
        }
        labels = {
            "best_of": _("Best of"),
            "scheduled_start": _("Scheduled start"),
            "registration_opens_at": _("Registration opens at"),
            "registration_closes_at": _("Registration closes at"),
            "check_in_opens_at": _("Check in opens at"),
            "check_in_closes_at": _("Check in closes at"),
        }
        help_texts = {
            "check_in_opens_at": _("Empty: from an hour before the start."),
            "check_in_closes_at": _("Empty: at the start."),
        }

    name = NameField(what=_("the tournament's name"), max_length=120, label=_("Name"))
    description = FreeTextField(what=_("the description"), required=False, label=_("Description"))
    game = forms.ChoiceField(choices=Game.choices, label=_("Game"))
    entrant_type = forms.ChoiceField(
        choices=EntrantType.choices,
        required=False,
        initial=EntrantType.PLAYER,
        label=_("Entrants"),
        help_text=_("Teams of two play 2 vs 2; capacity then counts teams."),
    )
    capacity = forms.IntegerField(min_value=2, max_value=100_000, label=_("Capacity"))
    #: What the room reads (``Tournament.language``): the projector, printed sheets, the
    #: final results.
    language = forms.ChoiceField(
        choices=_event_language_choices,
        required=False,
        label=_("Event language"),
        help_text=_(
            "The projector, the printed pairings and slips and the final results are in "
            "this language, whatever each reader's own."
        ),
    )

    def clean_entrant_type(self) -> str:
        # Left out: unchanged (a new tournament's default is single players).
        return str(self.cleaned_data.get("entrant_type") or self.instance.entrant_type)

    def __init__(self, *args: Any, editing: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if editing:
            del self.fields["publish"]


class OrderedMultipleChoiceField(forms.MultipleChoiceField):
    """A multiple choice whose order matters: the values in the order posted (the order of
    the checkboxes on the page), and a change of order alone is a change."""

    def has_changed(self, initial: Any, data: Any) -> bool:
        return [str(v) for v in initial or []] != [str(v) for v in data or []]


#: The up and down buttons of the tiebreaker list post ``move`` as "up:<code>" or
#: "down:<code>": the checked tiebreakers are saved with that one moved a place.
MOVES = {"up": -1, "down": 1}


class SwissSettingsForm(forms.ModelForm[SwissSettings]):
    """The Swiss settings; the tiebreakers are checked and put in order.

    The tiebreakers are listed in their order (the chosen ones first, as saved, then the
    others), each with up and down buttons: without JavaScript a button posts the form with
    ``move`` and the order is saved with that tiebreaker moved one place; with it
    (``static/js/reorder.js``) the buttons and drag and drop move the rows on the page, and
    Save posts the checkboxes in their new order."""

    tiebreakers = OrderedMultipleChoiceField(
        choices=lambda: list(tiebreaker_labels().items()),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label=_("Tiebreakers"),
        help_text=_("Applied in the order listed here: move them up or down, or drag them."),
    )

    class Meta:
        model = SwissSettings
        fields = SwissSettings.EDITABLE
        #: The settings' names as the page shows them (the audit log says them in lower
        #: case: ``SWISS_SETTING_WORDS``).
        labels = {name: capfirst(words) for name, words in SWISS_SETTING_WORDS.items()}

    #: Settings that only some games read (``GameRules.options``).
    GAME_OPTIONS = ("rounds_to_win", "kontsina_rounds")

    def __init__(self, *args: Any, game: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if game is not None:
            # Only what applies to the event's game: no Kontsina field on a Gesoseka event.
            reads = game_rules.rules_for(game).options
            for name in self.GAME_OPTIONS:
                if name not in reads:
                    del self.fields[name]
        # List the choices in the order they are applied (what was posted, else saved).
        field = self.fields["tiebreakers"]
        assert isinstance(field, OrderedMultipleChoiceField)
        if self.is_bound and hasattr(self.data, "getlist"):
            chosen = [str(v) for v in self.data.getlist(self.add_prefix("tiebreakers"))]
        else:
            chosen = [str(v) for v in (self.initial.get("tiebreakers") or [])]
        labels = tiebreaker_labels()
        ordered = [c for c in chosen if c in labels]
        field.choices = [(c, labels[c]) for c in ordered] + [
            (c, label) for c, label in labels.items() if c not in ordered
        ]

    @property
    def changed_data(self) -> list[str]:
        """Django's, plus the tiebreakers when an up or down button moved one (the posted
        checkboxes are then in the saved order: only the cleaned order differs)."""
        changed = list(super().changed_data)
        cleaned = getattr(self, "cleaned_data", {})
        if "tiebreakers" not in changed and "tiebreakers" in cleaned:
            before = [str(v) for v in self.initial.get("tiebreakers") or []]
            if list(cleaned["tiebreakers"]) != before:
                changed.append("tiebreakers")
        return changed

    def clean_tiebreakers(self) -> list[str]:
        chosen = [str(v) for v in self.cleaned_data.get("tiebreakers") or []]
        move = str(self.data.get("move", ""))
        direction, _, code = move.partition(":")
        if direction in MOVES and code in chosen:
            at = chosen.index(code)
            to = at + MOVES[direction]
            if 0 <= to < len(chosen):
                chosen[at], chosen[to] = chosen[to], chosen[at]
        return chosen


class EliminationStageForm(forms.Form):
    """Add a single or double elimination or a round-robin stage: a top cut after the
    Swiss, or (before the start) the whole event. The service checks the cut against the
    players in play."""

    kind = forms.ChoiceField(
        choices=formats.choices(formats.kinds(lambda f: f.options is not None)),
        label=_("Format"),
    )
    position = forms.ChoiceField(
        choices=[
            ("after", _("A top cut after the Swiss")),
            ("only", _("The whole event (instead of the Swiss)")),
        ],
        initial="after",
        label=pgettext_lazy("where a stage goes", "Where"),
    )
    cut_top = forms.IntegerField(
        min_value=2,
        max_value=4096,
        required=False,
        label=pgettext_lazy("the best of the standings", "Top"),
        help_text=_("How many of the Swiss standings go through (e.g. 8). Empty: everyone."),
    )
    cut_min_points = forms.IntegerField(
        min_value=0,
        max_value=1000,
        required=False,
        label=_("At least this many match points"),
        help_text=_("Optional: only players on these points or more go through."),
    )
    third_place = forms.BooleanField(required=False, label=_("Play for third place"))
    grand_final = forms.ChoiceField(
        choices=GrandFinal.choices, initial=GrandFinal.RESET, label=_("Grand final (double)")
    )
    round_minutes = forms.IntegerField(
        min_value=1, max_value=600, initial=50, label=_("Minutes per round")
    )
    cycles = forms.TypedChoiceField(
        choices=[
            (1, _("Once: every two players meet once")),
            (2, _("Twice (double round robin)")),
        ],
        coerce=int,
        initial=1,
        required=False,
        empty_value=None,
        label=pgettext_lazy("stage kind", "Round robin"),
    )

    groups = forms.IntegerField(
        min_value=1,
        max_value=64,
        required=False,
        label=_("Groups (a round robin that starts the event)"),
        help_text=_("Empty or 1: one round robin of everyone."),
    )
    cut_per_group = forms.IntegerField(
        min_value=1,
        max_value=64,
        required=False,
        label=_("Best of each group"),
        help_text=_("After a group stage: this many of each group go through."),
    )

    def __init__(self, *args: Any, started: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if started:  # the whole event can no longer change
            del self.fields["position"]


def _max_rounds(tournament: Tournament) -> int:
    """The most game rounds a game can have (reads the Swiss stage's game options: one
    query, so callers ask once per grid, not once per game)."""
    rules = game_rules.rules_for(tournament.game)
    return rules.outcome(GameRecord(()), game_options(tournament)).max_rounds


def report_grid(tournament: Tournament, *, prefill: list[Any] | None = None) -> dict[str, Any]:
    """The boxes to show: ``best_of`` games by the game's most game rounds, prefilled."""
    prefill = prefill or []
    has_alignments = game_rules.rules_for(tournament.game).has_alignments
    max_rounds = _max_rounds(tournament)
    games = []
    for g in range(tournament.best_of):
        known = prefill[g] if g < len(prefill) and isinstance(prefill[g], dict) else {}
        known_rounds = known.get("rounds") or []
        rows = []
        for r in range(max_rounds):
            pair = known_rounds[r] if r < len(known_rounds) else ["", ""]
            rows.append({"number": r + 1, "a": pair[0], "b": pair[1], "name": f"g{g + 1}_r{r + 1}"})
        alignments = known.get("alignments") or [None, None]
        games.append(
            {
                "number": g + 1,
                "rows": rows,
                "name": f"g{g + 1}",
                "alignments": alignments,
            }
        )
    return {
        "games": games,
        "has_alignments": has_alignments,
        "alignment_choices": [a.value for a in Alignment],
    }


def games_from_post(data: QueryDict, tournament: Tournament) -> list[dict[str, Any]]:
    """Read the grid back into the result shape; empty rows and games are left out."""
    has_alignments = game_rules.rules_for(tournament.game).has_alignments
    max_rounds = _max_rounds(tournament)
    games: list[dict[str, Any]] = []
    for g in range(1, tournament.best_of + 1):
        rounds: list[list[int]] = []
        for r in range(1, max_rounds + 1):
            a = data.get(f"g{g}_r{r}_a", "").strip()
            b = data.get(f"g{g}_r{r}_b", "").strip()
            if not a and not b:
                continue
            if not a or not b:
                raise InvalidInput(
                    gettext("Game %(game)d, game round %(game_round)d: enter both players' scores.")
                    % {"game": g, "game_round": r},
                    code="missing_score",
                )
            try:
                rounds.append([int(a), int(b)])
            except ValueError:
                raise InvalidInput(
                    gettext("Game %(game)d, game round %(game_round)d: scores are whole numbers.")
                    % {"game": g, "game_round": r},
                    code="invalid_score",
                ) from None
        if not rounds:
            continue
        game: dict[str, Any] = {"rounds": rounds}
        if has_alignments:
            game["alignments"] = [
                data.get(f"g{g}_align_a") or None,
                data.get(f"g{g}_align_b") or None,
            ]
        games.append(game)
    if not games:
        raise InvalidInput(
            gettext("Enter the scores of at least one game round."), code="empty_result"
        )
    return games
