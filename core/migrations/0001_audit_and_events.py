"""Takes over the audit log and event feed tables created by ``tournaments`` (state only:
no table is created, renamed or copied; every row stays)."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("tournaments", "0006_move_audit_and_events_to_core"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="AuditEntry",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("action", models.CharField(max_length=60)),
                        ("summary", models.CharField(max_length=255)),
                        ("object_type", models.CharField(max_length=60)),
                        ("object_id", models.CharField(max_length=40)),
                        ("before", models.JSONField(blank=True, null=True)),
                        ("after", models.JSONField(blank=True, null=True)),
                        ("created_at", models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                        ("actor", models.ForeignKey(blank=True, help_text="Empty when the system acted (a clock job).", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
                        ("club", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="+", to="tournaments.club")),
                        ("tournament", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="+", to="tournaments.tournament")),
                    ],
                    options={
                        "verbose_name_plural": "audit entries",
                        "db_table": "tournaments_auditentry",
                        "ordering": ["-created_at", "-id"],
                        "indexes": [models.Index(fields=["object_type", "object_id"], name="tournaments_object__b92f2d_idx")],
                    },
                ),
                migrations.CreateModel(
                    name="Event",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("kind", models.CharField(max_length=40)),
                        ("message", models.CharField(max_length=255)),
                        ("payload", models.JSONField(blank=True, default=dict)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("tournament", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="events", to="tournaments.tournament")),
                    ],
                    options={
                        "db_table": "tournaments_event",
                        "ordering": ["-id"],
                        "indexes": [models.Index(fields=["tournament", "id"], name="tournaments_tournam_38694b_idx")],
                    },
                ),
            ],
        )
    ]
