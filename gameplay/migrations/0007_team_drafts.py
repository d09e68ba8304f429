"""Drafts in team events (issue 13): every player drafts at a seat of their own.

``DraftSeat.player`` is who sits at the seat (until now always the registration's player,
which fills it for the seats that exist); one seat per player per pod instead of one per
registration, so both members of a team sit in the pod. ``DraftSettings.team_seating``:
teammates next to each other (the default) or across the pod.
"""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def fill_seat_players(apps, schema_editor):  # type: ignore[no-untyped-def]
    """Every existing seat is its registration's player's (one UPDATE)."""
    DraftSeat = apps.get_model("gameplay", "DraftSeat")
    Registration = apps.get_model("tournaments", "Registration")
    DraftSeat.objects.filter(player__isnull=True).update(
        player_id=Subquery(
            Registration.objects.filter(pk=OuterRef("registration_id")).values("player_id")[:1]
        )
    )
    if schema_editor.connection.vendor == "postgresql":
        # The update queued the new foreign key's deferred checks: run them now, or
        # PostgreSQL refuses the ALTER TABLE below ("pending trigger events").
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        schema_editor.execute("SET CONSTRAINTS ALL DEFERRED")


class Migration(migrations.Migration):
    dependencies = [
        ("gameplay", "0006_turn_row"),
        ("tournaments", "0012_teams"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="draftseat", name="one_seat_per_player"),
        migrations.AddField(
            model_name="draftseat",
            name="player",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.RESTRICT,
                related_name="draft_seats",
                to="tournaments.player",
            ),
        ),
        migrations.RunPython(fill_seat_players, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(
            model_name="draftseat",
            name="player",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.RESTRICT,
                related_name="draft_seats",
                to="tournaments.player",
            ),
        ),
        migrations.AddConstraint(
            model_name="draftseat",
            constraint=models.UniqueConstraint(
                fields=("pod", "player"), name="one_seat_per_player"
            ),
        ),
        migrations.AddField(
            model_name="draftsettings",
            name="team_seating",
            field=models.CharField(
                choices=[
                    ("adjacent", "Next to each other"),
                    ("opposite", "Opposite each other (across the pod)"),
                ],
                default="adjacent",
                help_text="Team events: where teammates sit in their pod.",
                max_length=8,
            ),
        ),
        migrations.AddConstraint(
            model_name="draftsettings",
            constraint=models.CheckConstraint(
                condition=models.Q(("team_seating__in", ["adjacent", "opposite"])),
                name="draft_team_seating_known",
            ),
        ),
    ]
