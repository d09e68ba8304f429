"""The seats say a pod's winner: ``pod_winner`` and ``Winner.POD`` go (``0021`` moved
them into ``Match.winner`` and the seats), and every seat has a position."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0022_seat_outcomes_data"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="matchseat",
            name="one_entrant_per_pod_seat",
        ),
        migrations.RemoveField(
            model_name="match",
            name="pod_winner",
        ),
        migrations.AlterField(
            model_name="matchseat",
            name="position",
            field=models.PositiveSmallIntegerField(),
        ),
        migrations.AlterField(
            model_name="match",
            name="winner",
            field=models.CharField(
                blank=True,
                choices=[
                    ("a", "First player"),
                    ("b", "Second player"),
                    ("c", "Third player"),
                    ("d", "Fourth player"),
                    ("draw", "Draw"),
                ],
                max_length=4,
            ),
        ),
        migrations.AddConstraint(
            model_name="matchseat",
            constraint=models.UniqueConstraint(
                fields=("match", "position"), name="one_entrant_per_seat"
            ),
        ),
    ]
