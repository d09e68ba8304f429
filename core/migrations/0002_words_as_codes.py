"""The audit log and the event feed store a code and parameters, not sentences: the old
words move to ``text`` (kept for the rows ``0003`` cannot read), ``params`` is new."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("core", "0001_audit_and_events")]

    operations = [
        migrations.RenameField("auditentry", "summary", "text"),
        migrations.AlterField(
            "auditentry",
            "text",
            models.CharField(
                blank=True,
                max_length=255,
                help_text="Words from before the codes that no code could read: shown as they were.",
            ),
        ),
        migrations.AddField(
            "auditentry",
            "params",
            models.JSONField(
                blank=True, default=dict, help_text="The words' parameters: names and numbers."
            ),
        ),
        migrations.AlterField(
            "auditentry",
            "action",
            models.CharField(max_length=60, help_text="What was done: a code with words."),
        ),
        migrations.RenameField("event", "message", "text"),
        migrations.AlterField(
            "event",
            "text",
            models.CharField(
                blank=True,
                max_length=255,
                help_text="Words from before the codes that no code could read: shown as they were.",
            ),
        ),
        migrations.AddField(
            "event",
            "params",
            models.JSONField(
                blank=True, default=dict, help_text="The words' parameters: names and numbers."
            ),
        ),
        migrations.AlterField(
            "event",
            "kind",
            models.CharField(max_length=40, help_text="A core.events.EventKind."),
        ),
        migrations.AlterField(
            "event",
            "payload",
            models.JSONField(blank=True, default=dict, help_text="Its kind's typed payload."),
        ),
    ]
