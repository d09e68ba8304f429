"""Input serializers (parse and type-check a request) and output serializers (render).

No rule lives here: services decide; these only say what shape a request has.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from core import text
from core.api import KeptFields, StrictInput, games_input
from core.errors import InvalidInput
from core.models import Event
from tournaments import selectors
from tournaments.models import (
    Club,
    EntrantType,
    Game,
    Match,
    MatchStatus,
    Membership,
    OverduePolicy,
    Registration,
    ResultReport,
    Role,
    Round,
    SwissSettings,
    Tournament,
)
from tournaments.pairing.standings import Tiebreaker
from tournaments.pairing.swiss import as_notes
from tournaments.presenters.notes import describe_all

# --- output -------------------------------------------------------------------------------


class ClubSerializer(KeptFields, serializers.ModelSerializer[Club]):
    member_count = serializers.IntegerField(read_only=True, required=False)
    tournament_count = serializers.IntegerField(read_only=True, required=False)

    class Meta:
        model = Club
        fields = [
            "slug",
            "name",
            "description",
            "time_zone",
            "created_at",
            "member_count",
            "tournament_count",
        ]
        # Set by an owner on the club page (``clubs.set_time_zone``); times in the API are
        # ISO 8601 with their offset, and this says which zone the club's pages show.
        read_only_fields = ["time_zone"]


class MembershipSerializer(KeptFields, serializers.ModelSerializer[Membership]):
    username = serializers.CharField(source="user.username")
    display_name = serializers.SerializerMethodField()

    class Meta:
        model = Membership
        fields = ["id", "username", "display_name", "role", "joined_at"]

    def get_display_name(self, obj: Membership) -> str:
        player = getattr(obj.user, "player", None)
        return player.display_name if player else obj.user.get_username()


class TournamentSerializer(KeptFields, serializers.ModelSerializer[Tournament]):
    club: serializers.SlugRelatedField[Club] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    registered_count = serializers.IntegerField(read_only=True, required=False)
    checked_in_count = serializers.IntegerField(read_only=True, required=False)
    registration_open = serializers.SerializerMethodField()
    check_in_open = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id",
            "club",
            "name",
            "description",
            "game",
            "entrant_type",
            "best_of",
            "capacity",
            "status",
            "scheduled_start",
            "registration_opens_at",
            "registration_closes_at",
            "check_in_opens_at",
            "check_in_closes_at",
            "language",
            "registered_count",
            "checked_in_count",
            "registration_open",
            "check_in_open",
            "created_at",
            "updated_at",
        ]

    def get_registration_open(self, obj: Tournament) -> bool:
        return obj.registration_is_open()

    def get_check_in_open(self, obj: Tournament) -> bool:
        return obj.check_in_is_open()


class RegistrationSerializer(KeptFields, serializers.ModelSerializer[Registration]):
    """An entrant. ``player`` and ``username``: who registered it (a team's captain;
    ``username`` is null for a guest, a player added by name without an account);
    ``name``: the entrant's name (the team's, or the player's); ``members``: who plays for
    it (a team's accepted teammate included), by display name."""

    player = serializers.CharField(source="player.display_name")
    username = serializers.CharField(source="player.user.username", allow_null=True)
    name = serializers.CharField(read_only=True)
    members = serializers.SerializerMethodField()
    checked_in = serializers.BooleanField(read_only=True)

    class Meta:
        model = Registration
        fields = [
            "id",
            "player",
            "username",
            "team_name",
            "name",
            "members",
            "status",
            "registered_at",
            "checked_in",
            "checked_in_at",
            "fixed_table",
        ]
        read_only_fields = ["fixed_table"]  # organisers set it on the tournament page

    def get_members(self, obj: Registration) -> list[str]:
        return [p.display_name for p in obj.members]


# --- input ---------------------------------------------------------------------------------
#
# An input serializer parses data and is never given an instance, and a serializer that only
# documents a response the view builds (``MeSerializer``, ``StandingsSerializer``) renders a
# plain dict: both are ``Serializer[Any]``.


class NameField(serializers.CharField):
    """A one-line name others read (a club's or a tournament's name), cleaned by
    ``core.text.clean_name``: invisible and control characters (right-to-left overrides,
    zero-width spaces, NUL) are refused by name, as on the pages."""

    def __init__(self, *, what: str | Promise, **kwargs: Any) -> None:
        self.what = what
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        try:
            return text.clean_name(super().to_internal_value(data), what=self.what)
        except InvalidInput as error:
            raise serializers.ValidationError(error.detail, code=error.code) from None


class FreeTextField(serializers.CharField):
    """Free text (a description): ``core.text.clean_text`` (line breaks kept; NUL, other
    control characters and bidirectional overrides refused)."""

    def __init__(self, *, what: str | Promise, **kwargs: Any) -> None:
        self.what = what
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        try:
            return text.clean_text(super().to_internal_value(data), what=self.what)
        except InvalidInput as error:
            raise serializers.ValidationError(error.detail, code=error.code) from None


class ClubInput(StrictInput):
    name = NameField(what=gettext_lazy("the club's name"), max_length=120)
    description = FreeTextField(
        what=gettext_lazy("the description"), required=False, allow_blank=True, default=""
    )


class MemberInput(StrictInput):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=Role.choices, default=Role.MEMBER)


class RoleInput(StrictInput):
    role = serializers.ChoiceField(choices=Role.choices)


class InvitationInput(StrictInput):
    email = serializers.EmailField()
    role = serializers.ChoiceField(choices=Role.choices, default=Role.MEMBER)


#: A tournament's language: one of the site's, or "" for its club's (``Tournament.language``).
EVENT_LANGUAGES = [("", "The club's language"), *settings.LANGUAGES]
EVENT_LANGUAGE_HELP = (
    "The language of the projector, printed pairings and slips and the final results; "
    '"" for the club\'s.'
)


class TournamentInput(StrictInput):
    club = serializers.SlugField(help_text="The organising club's slug.")
    name = NameField(what=gettext_lazy("the tournament's name"), max_length=120)
    description = FreeTextField(
        what=gettext_lazy("the description"), required=False, allow_blank=True, default=""
    )
    game = serializers.ChoiceField(choices=Game.choices)
    entrant_type = serializers.ChoiceField(choices=EntrantType.choices, default=EntrantType.PLAYER)
    best_of = serializers.ChoiceField(choices=[1, 3, 5], default=1)
    capacity = serializers.IntegerField(min_value=2, max_value=100_000)
    scheduled_start = serializers.DateTimeField()
    registration_opens_at = serializers.DateTimeField(required=False, allow_null=True)
    registration_closes_at = serializers.DateTimeField(required=False, allow_null=True)
    check_in_opens_at = serializers.DateTimeField(required=False, allow_null=True)
    check_in_closes_at = serializers.DateTimeField(required=False, allow_null=True)
    language = serializers.ChoiceField(
        choices=EVENT_LANGUAGES, default="", help_text=EVENT_LANGUAGE_HELP
    )
    publish = serializers.BooleanField(
        default=False, help_text="Open registration now instead of saving a draft."
    )


class TournamentUpdateInput(StrictInput):
    name = NameField(what=gettext_lazy("the tournament's name"), max_length=120, required=False)
    description = FreeTextField(
        what=gettext_lazy("the description"), required=False, allow_blank=True
    )
    game = serializers.ChoiceField(choices=Game.choices, required=False)
    best_of = serializers.ChoiceField(choices=[1, 3, 5], required=False)
    capacity = serializers.IntegerField(min_value=2, max_value=100_000, required=False)
    scheduled_start = serializers.DateTimeField(required=False)
    registration_opens_at = serializers.DateTimeField(required=False, allow_null=True)
    registration_closes_at = serializers.DateTimeField(required=False, allow_null=True)
    check_in_opens_at = serializers.DateTimeField(required=False, allow_null=True)
    check_in_closes_at = serializers.DateTimeField(required=False, allow_null=True)
    language = serializers.ChoiceField(
        choices=EVENT_LANGUAGES, required=False, help_text=EVENT_LANGUAGE_HELP
    )


class RegistrationInput(StrictInput):
    username = serializers.CharField(
        max_length=150,
        required=False,
        help_text="Organisers only: register this user instead of yourself.",
    )


class TokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")


class MeSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    display_name = serializers.CharField()
    memberships = serializers.ListField(child=serializers.DictField())
    player = serializers.IntegerField(help_text="Your player id (your player page's).")
    profile_hidden = serializers.BooleanField(
        help_text="Your player page, history and ratings are private (PATCH to change)."
    )


class MeInput(StrictInput):
    profile_hidden = serializers.BooleanField(
        help_text="Hide your player page, history and ratings from others (true) or show "
        "them (false)."
    )


# --- rounds, matches, standings --------------------------------------------------------


class EntrantRef(serializers.Serializer[Registration]):
    """A match's entrant: ``name`` (the team's, or the player's) and ``members`` (who
    plays for it); ``display_name`` is ``name``, as clients have always read it."""

    registration = serializers.IntegerField(source="pk")
    display_name = serializers.CharField(source="name")
    name = serializers.CharField()
    members = serializers.SerializerMethodField()

    def get_members(self, obj: Registration) -> list[str]:
        return [p.display_name for p in obj.members]


class MatchSerializer(KeptFields, serializers.ModelSerializer[Match]):
    round = serializers.IntegerField(source="round.number")
    a = EntrantRef()
    b = EntrantRef(allow_null=True)
    score = serializers.SerializerMethodField()
    #: Why this pairing, in words (what clients have always read).
    notes = serializers.SerializerMethodField()
    #: The same as stored: ``{"code": ..., parameters}`` (``tournaments.pairing.swiss.Flag``).
    note_codes = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id",
            "round",
            "table",
            "a",
            "b",
            "status",
            "overdue",
            "notes",
            "note_codes",
            "result",
            "winner",
            "games_a",
            "games_b",
            "games_drawn",
            "game_rounds_a",
            "game_rounds_b",
            "score_a",
            "score_b",
            "score",
            "confirmed_at",
        ]

    def get_score(self, match: Match) -> str:
        return selectors.score_line(match) if match.status == MatchStatus.CONFIRMED else ""

    def get_notes(self, match: Match) -> list[str]:
        return describe_all(match.notes)

    def get_note_codes(self, match: Match) -> list[dict[str, Any]]:
        return [dict(n) for n in as_notes(match.notes)]


class ReportSerializer(serializers.Serializer[ResultReport]):
    side = serializers.CharField()
    games = serializers.JSONField()
    complete = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class MatchDetailSerializer(MatchSerializer):
    reports = serializers.SerializerMethodField()

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "reports"]

    def get_reports(self, match: Match) -> list[dict[str, Any]]:
        if hasattr(match, "current_reports"):  # read by the results service just now
            current = sorted(match.current_reports.values(), key=lambda r: (r.created_at, r.pk))
        else:
            current = [r for r in match.reports.all() if r.current]
        return serializers.ListSerializer(current, child=ReportSerializer()).data


class RoundSerializer(KeptFields, serializers.ModelSerializer[Round]):
    stage = serializers.IntegerField(
        source="stage.number", read_only=True, help_text="The number of the round's stage."
    )

    class Meta:
        model = Round
        fields = [
            "number",
            "stage",
            "status",
            "paired_at",
            "started_at",
            "ends_at",
            "completed_at",
            "pairing_stats",
        ]


class RoundDetailSerializer(RoundSerializer):
    matches = serializers.SerializerMethodField()

    class Meta(RoundSerializer.Meta):
        fields = [*RoundSerializer.Meta.fields, "matches"]

    def get_matches(self, rnd: Round) -> list[dict[str, Any]]:
        matches = selectors.round_matches(rnd)
        return serializers.ListSerializer(matches, child=MatchSerializer()).data


GAMES_EXAMPLE = [{"rounds": [[31, 25], [18, 40], [27, 22]]}]


class ReportInput(StrictInput):
    games = games_input(
        "The match's games, each {'rounds': [[score_a, score_b], ...]} with 'a' the "
        "match's first entrant; Vanilla Gwent games add 'alignments': ['might', null]."
    )
    final = serializers.BooleanField(
        default=True, help_text="False: the game rounds played so far (progress)."
    )


class JudgeInput(StrictInput):
    games = games_input("The match's games, as in a report.")


class StartRoundInput(StrictInput):
    minutes = serializers.IntegerField(required=False, min_value=1, max_value=600)


class ExtendInput(StrictInput):
    minutes = serializers.IntegerField(min_value=1, max_value=120)


class SwapInput(StrictInput):
    first = serializers.IntegerField(help_text="A registration id paired in this round.")
    second = serializers.IntegerField()


class UsernameInput(StrictInput):
    username = serializers.CharField(max_length=150)


class SwissSettingsSerializer(StrictInput, serializers.ModelSerializer[SwissSettings]):
    tiebreakers = serializers.ListField(
        child=serializers.ChoiceField(choices=[t.value for t in Tiebreaker]), required=False
    )
    overdue_policy = serializers.ChoiceField(choices=OverduePolicy.choices, required=False)

    class Meta:
        model = SwissSettings
        fields = SwissSettings.EDITABLE


class StandingRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    registration = serializers.IntegerField()
    #: The entrant's name (``name``), as clients have always read it.
    display_name = serializers.CharField()
    name = serializers.CharField(help_text="The entrant's name: the team's, or the player's.")
    members = serializers.ListField(
        child=serializers.CharField(), help_text="Who plays for the entrant, by display name."
    )
    points = serializers.IntegerField()
    record = serializers.CharField()
    dropped_after_round = serializers.IntegerField(allow_null=True)
    tiebreakers = serializers.DictField(child=serializers.CharField())


class StandingsSerializer(serializers.Serializer[Any]):
    tiebreakers = serializers.ListField(child=serializers.CharField())
    definitions = serializers.DictField(child=serializers.CharField())
    rows = StandingRowSerializer(many=True)


class EventSerializer(serializers.Serializer[Event]):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    message = serializers.CharField()
    payload = serializers.JSONField()
    created_at = serializers.DateTimeField()
