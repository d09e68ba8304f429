"""The seats' outcome columns (``place``, ``score``, ``round_wins``) and the winner's
seat letters ``c`` and ``d``; ``0021`` fills them from the old shape."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0020_round_name_codes"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="seat_count",
            field=models.PositiveSmallIntegerField(default=2),
        ),
        migrations.AddField(
            model_name="matchseat",
            name="place",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="matchseat",
            name="score",
            field=models.IntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="matchseat",
            name="round_wins",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
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
                    ("pod", "Decided in the pod"),
                ],
                max_length=4,
            ),
        ),
    ]
