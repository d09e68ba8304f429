"""Stages: a tournament is an ordered list of stages, a round belongs to one, and the Swiss
settings belong to the Swiss stage.

Every existing tournament gets one Swiss stage (number 1) holding all its rounds and its
Swiss settings, with nothing lost: the settings rows are copied field by field into the new
table keyed by stage (the old table was keyed by tournament), then the old table goes.
"""

import django.core.validators
import django.db.models.deletion
from django.db import migrations, models

SETTINGS_FIELDS = (
    "rounds",
    "round_minutes",
    "auto_pair",
    "overdue_policy",
    "first_round",
    "late_entry",
    "tiebreakers",
    "bye_counts_in_own_mw",
    "rounds_to_win",
    "kontsina_rounds",
    "seed",
)

STAGE_STATUS = {
    "draft": "pending",
    "registration": "pending",
    "running": "running",
    "finished": "complete",
}


def one_swiss_stage_each(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Stage = apps.get_model("tournaments", "Stage")
    Round = apps.get_model("tournaments", "Round")
    Legacy = apps.get_model("tournaments", "LegacySwissSettings")
    SwissSettings = apps.get_model("tournaments", "SwissSettings")
    legacy = {row.tournament_id: row for row in Legacy.objects.all()}
    for tournament in Tournament.objects.order_by("pk").iterator():
        rounds = Round.objects.filter(tournament=tournament)
        first = rounds.order_by("number").first()
        last = rounds.order_by("-number").first()
        status = STAGE_STATUS.get(tournament.status, "pending")
        stage = Stage.objects.create(
            tournament=tournament,
            number=1,
            kind="swiss",
            status=status,
            started_at=(first.paired_at if first else tournament.start_handled_at)
            if status != "pending"
            else None,
            completed_at=(last.completed_at if last else None) if status == "complete" else None,
        )
        rounds.update(stage=stage)
        old = legacy.get(tournament.pk)
        values = {name: getattr(old, name) for name in SETTINGS_FIELDS} if old else {}
        SwissSettings.objects.create(stage=stage, **values)


def back_to_tournament_settings(apps, schema_editor):
    Legacy = apps.get_model("tournaments", "LegacySwissSettings")
    SwissSettings = apps.get_model("tournaments", "SwissSettings")
    for row in SwissSettings.objects.select_related("stage").filter(stage__number=1):
        Legacy.objects.create(
            tournament_id=row.stage.tournament_id,
            **{name: getattr(row, name) for name in SETTINGS_FIELDS},
        )
    # The stages go with their table (the operations undone next drop ``round.stage`` and
    # then the table). Deleting them here would cascade to every round, match, seat and
    # report (and, on PostgreSQL, leave trigger events pending that make the next
    # ALTER TABLE fail): the rounds must stay.


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0006_move_audit_and_events_to_core")]

    operations = [
        migrations.CreateModel(
            name="Stage",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.PositiveSmallIntegerField(default=1)),
                ("kind", models.CharField(choices=[("swiss", "Swiss")], default="swiss", max_length=16)),
                ("name", models.CharField(blank=True, max_length=80)),
                ("status", models.CharField(choices=[("pending", "Not started"), ("running", "Running"), ("complete", "Complete")], default="pending", max_length=10)),
                ("started_at", models.DateTimeField(blank=True, null=True)),
                ("completed_at", models.DateTimeField(blank=True, null=True)),
                ("tournament", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="stages", to="tournaments.tournament")),
            ],
            options={
                "ordering": ["tournament", "number"],
                "constraints": [
                    models.UniqueConstraint(fields=("tournament", "number"), name="one_stage_per_number"),
                    models.CheckConstraint(condition=models.Q(("number__gte", 1)), name="stage_number_positive"),
                    models.CheckConstraint(condition=models.Q(("kind__in", ["swiss"])), name="stage_kind_known"),
                    models.CheckConstraint(condition=models.Q(("status__in", ["pending", "running", "complete"])), name="stage_status_known"),
                ],
            },
        ),
        migrations.AddField(
            model_name="round",
            name="stage",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name="rounds", to="tournaments.stage"),
        ),
        migrations.RenameModel(old_name="SwissSettings", new_name="LegacySwissSettings"),
        migrations.AlterField(
            model_name="legacyswisssettings",
            name="tournament",
            field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name="+", serialize=False, to="tournaments.tournament"),
        ),
        migrations.CreateModel(
            name="SwissSettings",
            fields=[
                ("stage", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name="swiss", serialize=False, to="tournaments.stage")),
                ("rounds", models.PositiveSmallIntegerField(blank=True, help_text="Empty: from attendance (MTR table).", null=True, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(30)])),
                ("round_minutes", models.PositiveSmallIntegerField(default=50, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(600)])),
                ("auto_pair", models.BooleanField(default=True, help_text="Pair the next round as soon as the last result is confirmed.")),
                ("overdue_policy", models.CharField(choices=[("none", "Flag overdue matches for a judge"), ("draw", "Record unfinished matches as draws"), ("ahead", "The player ahead in game rounds wins; level is a draw")], default="none", max_length=8)),
                ("first_round", models.CharField(choices=[("random", "Random (seeded)"), ("rating", "By seed / rating")], default="random", max_length=8)),
                ("late_entry", models.CharField(choices=[("losses", "Missed rounds count as losses"), ("zero", "Missed rounds are not counted")], default="losses", max_length=8)),
                ("tiebreakers", models.JSONField(blank=True, default=list)),
                ("bye_counts_in_own_mw", models.BooleanField(default=True, help_text="MTR: a bye counts as a match win in your own MW%.")),
                ("rounds_to_win", models.PositiveSmallIntegerField(default=2, help_text="Generic games: game-round wins that win a game.", validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(5)])),
                ("kontsina_rounds", models.PositiveSmallIntegerField(default=3, help_text="Kontsina: game rounds in a game.", validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(12)])),
                ("seed", models.BigIntegerField(default=0, help_text="Seeds random pairings (reproducible).")),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(condition=models.Q(("round_minutes__gte", 1)), name="swiss_round_minutes_positive"),
                    models.CheckConstraint(condition=models.Q(("rounds_to_win__gte", 1)), name="swiss_rounds_to_win_positive"),
                    models.CheckConstraint(condition=models.Q(("kontsina_rounds__gte", 1)), name="swiss_kontsina_rounds_positive"),
                ],
            },
        ),
        migrations.RunPython(one_swiss_stage_each, back_to_tournament_settings),
        migrations.DeleteModel(name="LegacySwissSettings"),
        migrations.AlterField(
            model_name="round",
            name="stage",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="rounds", to="tournaments.stage"),
        ),
    ]
