"""A draft pod points at the stage it is for (every existing pod: its tournament's first
stage, the only one there is)."""

import django.db.models.deletion
from django.db import migrations, models


def first_stage(apps, schema_editor):
    DraftPod = apps.get_model("gameplay", "DraftPod")
    Stage = apps.get_model("tournaments", "Stage")
    stages = dict(Stage.objects.filter(number=1).values_list("tournament_id", "pk"))
    for pod in DraftPod.objects.filter(stage__isnull=True).iterator():
        pod.stage_id = stages[pod.tournament_id]
        pod.save(update_fields=["stage"])


class Migration(migrations.Migration):
    dependencies = [
        ("gameplay", "0002_restrict_seat_registration"),
        ("tournaments", "0007_stages"),
    ]

    operations = [
        migrations.AddField(
            model_name="draftpod",
            name="stage",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name="draft_pods", to="tournaments.stage"),
        ),
        migrations.RunPython(first_stage, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="draftpod",
            name="stage",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="draft_pods", to="tournaments.stage"),
        ),
    ]
