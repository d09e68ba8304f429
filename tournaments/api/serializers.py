"""Input serializers (parse and type-check a request) and output serializers (render).

No rule lives here: services decide; these only say what shape a request has.
"""

from __future__ import annotations

from rest_framework import serializers

from tournaments.models import (
    Club,
    EntrantType,
    Game,
    Membership,
    Registration,
    Role,
    Tournament,
)

# --- output -------------------------------------------------------------------------------


class ClubSerializer(serializers.ModelSerializer):
    member_count = serializers.IntegerField(read_only=True, required=False)
    tournament_count = serializers.IntegerField(read_only=True, required=False)

    class Meta:
        model = Club
        fields = ["slug", "name", "description", "created_at", "member_count", "tournament_count"]


class MembershipSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")
    display_name = serializers.SerializerMethodField()

    class Meta:
        model = Membership
        fields = ["id", "username", "display_name", "role", "joined_at"]

    def get_display_name(self, obj: Membership) -> str:
        player = getattr(obj.user, "player", None)
        return player.display_name if player else obj.user.get_username()


class TournamentSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
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


class RegistrationSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="player.display_name")
    username = serializers.CharField(source="player.user.username")
    checked_in = serializers.BooleanField(read_only=True)

    class Meta:
        model = Registration
        fields = [
            "id",
            "player",
            "username",
            "status",
            "registered_at",
            "checked_in",
            "checked_in_at",
        ]


# --- input ---------------------------------------------------------------------------------


class ClubInput(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    description = serializers.CharField(required=False, allow_blank=True, default="")


class MemberInput(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=Role.choices, default=Role.MEMBER)


class RoleInput(serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices)


class InvitationInput(serializers.Serializer):
    email = serializers.EmailField()
    role = serializers.ChoiceField(choices=Role.choices, default=Role.MEMBER)


class TournamentInput(serializers.Serializer):
    club = serializers.SlugField(help_text="The organising club's slug.")
    name = serializers.CharField(max_length=120)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    game = serializers.ChoiceField(choices=Game.choices)
    entrant_type = serializers.ChoiceField(choices=EntrantType.choices, default=EntrantType.PLAYER)
    best_of = serializers.ChoiceField(choices=[1, 3, 5], default=1)
    capacity = serializers.IntegerField(min_value=2, max_value=100_000)
    scheduled_start = serializers.DateTimeField()
    registration_opens_at = serializers.DateTimeField(required=False, allow_null=True)
    registration_closes_at = serializers.DateTimeField(required=False, allow_null=True)
    check_in_opens_at = serializers.DateTimeField(required=False, allow_null=True)
    check_in_closes_at = serializers.DateTimeField(required=False, allow_null=True)
    publish = serializers.BooleanField(
        default=False, help_text="Open registration now instead of saving a draft."
    )


class TournamentUpdateInput(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    description = serializers.CharField(required=False, allow_blank=True)
    game = serializers.ChoiceField(choices=Game.choices, required=False)
    best_of = serializers.ChoiceField(choices=[1, 3, 5], required=False)
    capacity = serializers.IntegerField(min_value=2, max_value=100_000, required=False)
    scheduled_start = serializers.DateTimeField(required=False)
    registration_opens_at = serializers.DateTimeField(required=False, allow_null=True)
    registration_closes_at = serializers.DateTimeField(required=False, allow_null=True)
    check_in_opens_at = serializers.DateTimeField(required=False, allow_null=True)
    check_in_closes_at = serializers.DateTimeField(required=False, allow_null=True)


class RegistrationInput(serializers.Serializer):
    username = serializers.CharField(
        max_length=150,
        required=False,
        help_text="Organisers only: register this user instead of yourself.",
    )


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    memberships = serializers.ListField(child=serializers.DictField())
