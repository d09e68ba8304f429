"""A draft pod's ``state_token``: a random value written with every state, part of the
state cache's key (a restored database never serves states parsed before the restore).
Existing pods get one each."""

import uuid

from django.db import migrations, models


def tokens(apps, schema_editor):
    DraftPod = apps.get_model("gameplay", "DraftPod")
    for pod in DraftPod.objects.only("pk").iterator():
        DraftPod.objects.filter(pk=pod.pk).update(state_token=uuid.uuid4())


class Migration(migrations.Migration):
    dependencies = [
        ("gameplay", "0003_pod_stage"),
    ]

    operations = [
        migrations.AddField(
            model_name="draftpod",
            name="state_token",
            field=models.UUIDField(null=True, editable=False),
        ),
        migrations.RunPython(tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="draftpod",
            name="state_token",
            field=models.UUIDField(default=uuid.uuid4, editable=False),
        ),
    ]
