"""A club's ratings per game and its seasons (issue 26): ratings and standings are
recomputed from the confirmed results, never edited (``services.ratings``,
``services.leagues``). The admin shows them read-only."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from seasons.points import Rules
from tournaments.models import Club, Game, Match, Player, StageKind, Tournament


class RatingBook(models.Model):
    """A club's ratings of one game, as a whole: what they were computed from (``mark``:
    the confirmed matches' count and latest confirmation), so a recompute that finds the
    same results does nothing, and the row the recompute locks (two never interleave)."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="+"
    )
    game = models.CharField(
        pgettext_lazy("which card game", "game"), max_length=20, choices=Game.choices
    )
    mark = models.CharField(_("computed from"), max_length=80, blank=True, default="")
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)
    matches = models.PositiveIntegerField(_("matches rated"), default=0)

    class Meta:
        verbose_name = _("rating book")
        verbose_name_plural = _("rating books")
        constraints = [
            models.UniqueConstraint(fields=["club", "game"], name="one_rating_book_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.club_id}:{self.game}"


class Rating(models.Model):
    """A player's rating in a club's game: openskill's ``mu`` and ``sigma``, the
    ``ordinal`` leaderboards sort by (``mu - 3 sigma``), the matches rated."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="+"
    )
    game = models.CharField(
        pgettext_lazy("which card game", "game"), max_length=20, choices=Game.choices
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="ratings"
    )
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    ordinal = models.FloatField(_("rating"))
    matches = models.PositiveIntegerField(_("matches rated"))
    last_match = models.ForeignKey(
        Match,
        verbose_name=_("last match"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "game", "player"], name="one_rating_per_player_and_game"
            )
        ]
        indexes = [models.Index(fields=["club", "game", "-ordinal"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.player_id}:{self.game}:{self.ordinal:.2f}"


class RatingChange(models.Model):
    """What one confirmed match did to one player's rating (``position``: its place in
    the club's play order of that game, from 0): a player's history, in order.

    Its club, match and player have no foreign-key constraint in the database (Django's
    ``CASCADE`` still deletes a deleted match's, player's or club's changes): the rows are
    derived, written only by the recompute from the matches it has just read, under the
    club's book lock, and PostgreSQL's check of each row (a lock on each referenced match,
    player and club) cost a club's recompute of 200,000 changes about five seconds, more
    than all the rest (``bench.ratings``). A change whose match is gone (deleted while a
    recompute ran) is a difference the next recompute removes (``rating.resume``)."""

    club = models.ForeignKey(
        Club,
        verbose_name=_("club"),
        on_delete=models.CASCADE,
        related_name="+",
        db_constraint=False,
        db_index=False,
    )
    game = models.CharField(
        pgettext_lazy("which card game", "game"), max_length=20, choices=Game.choices
    )
    match = models.ForeignKey(
        Match,
        verbose_name=_("match"),
        on_delete=models.CASCADE,
        related_name="+",
        db_constraint=False,
        db_index=False,
    )
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="+",
        db_constraint=False,
        db_index=False,
    )
    position = models.PositiveIntegerField(_("position in play order"))
    mu_before = models.FloatField(_("mu before"))
    sigma_before = models.FloatField(_("sigma before"))
    mu_after = models.FloatField(_("mu after"))
    sigma_after = models.FloatField(_("sigma after"))
    #: The player's side in the match (from 0) and that side's place (1 best): what the
    #: change was computed from, so a recompute finds the first match whose sides or
    #: places differ and rates again from there only (empty: computed before they were
    #: kept, which rates again from the start).
    side = models.PositiveSmallIntegerField(_("side"), null=True, blank=True)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="one_change_per_match")
        ]
        # No index of its own on each foreign key: the match's is the constraint's, the
        # player's the history's, the club's the play order's (the recompute reads and
        # deletes a club's changes by position); each index a row writes costs the
        # recompute (``bench.ratings``).
        indexes = [
            models.Index(fields=["player", "club", "game", "position"], name="rating_history"),
            models.Index(fields=["club", "game", "position"], name="rating_play_order"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}:{self.player_id}"


class Season(models.Model):
    """A club's season (issue 26): its dates, which of the club's events count and its
    points rules (``seasons.points``). The standings (:class:`SeasonStanding`) are
    recomputed from the events' results, never edited (``services.leagues``).

    The events that count: the club's tournaments that have started, whose scheduled
    start falls on ``starts_on`` to ``ends_on`` (both included, in the club's time zone),
    of ``game`` (empty: any), whose first stage is of ``stage_kind`` (empty: any), team
    events only when ``team_events``, minus the tournaments the organiser ``excluded``."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="seasons"
    )
    name = models.CharField(_("name"), max_length=80)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    game = models.CharField(
        pgettext_lazy("which card game", "game"),
        max_length=20,
        choices=Game.choices,
        blank=True,
        default="",
    )
    stage_kind = models.CharField(
        _("format"), max_length=20, choices=StageKind.choices, blank=True, default=""
    )
    #: Points for 1st, 2nd, ... (a list of whole numbers; a place beyond it earns none).
    placement_points = models.JSONField(_("points per place"), default=list, blank=True)
    win_points = models.PositiveSmallIntegerField(_("points per match won"), default=0)
    draw_points = models.PositiveSmallIntegerField(_("points per match drawn"), default=0)
    attendance_points = models.PositiveSmallIntegerField(_("points for playing"), default=0)
    best_of = models.PositiveSmallIntegerField(_("best events counted"), null=True, blank=True)
    team_events = models.BooleanField(_("team events count for each member"), default=True)
    qualifiers = models.PositiveSmallIntegerField(_("players to the finals"), null=True, blank=True)
    excluded = models.ManyToManyField(
        Tournament, verbose_name=_("events left out"), blank=True, related_name="+"
    )
    #: What the standings were computed from (a digest of the rules and the facts): a
    #: recompute that finds the same does nothing.
    mark = models.CharField(_("computed from"), max_length=80, blank=True, default="")
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-starts_on", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")),
                name="season_ends_after_it_starts",
            ),
            models.CheckConstraint(
                condition=models.Q(best_of__isnull=True) | models.Q(best_of__gte=1),
                name="season_best_of_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(qualifiers__isnull=True) | models.Q(qualifiers__gte=1),
                name="season_qualifiers_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def qualifies(self, place: int) -> bool:
        """Whether a place is in the top N that go to the finals (none without a mark)."""
        return bool(self.qualifiers) and place <= (self.qualifiers or 0)

    def rules(self) -> Rules:
        return Rules(
            placement=tuple(self.placement_points),
            win=self.win_points,
            draw=self.draw_points,
            attendance=self.attendance_points,
            best_of=self.best_of,
            team_events=self.team_events,
        )


class SeasonStanding(models.Model):
    """A player's row in a season's standings (``seasons.points.Standing``), derived."""

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.CASCADE, related_name="standings"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="+"
    )
    place = models.PositiveIntegerField(_("place"))
    points = models.PositiveIntegerField(_("points"))
    counted = models.PositiveSmallIntegerField(_("events counted"))
    played = models.PositiveSmallIntegerField(_("events played"))
    events_won = models.PositiveSmallIntegerField(_("events won"))
    best_place = models.PositiveSmallIntegerField(_("best place"), null=True, blank=True)
    wins = models.PositiveIntegerField(_("matches won"))
    draws = models.PositiveIntegerField(_("matches drawn"))
    losses = models.PositiveIntegerField(_("matches lost"))

    class Meta:
        verbose_name = _("season standing")
        verbose_name_plural = _("season standings")
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="one_standing_per_season"),
            models.UniqueConstraint(fields=["season", "place"], name="one_player_per_place"),
        ]

    def __str__(self) -> str:
        return f"{self.season_id}:{self.place}:{self.player_id}"
