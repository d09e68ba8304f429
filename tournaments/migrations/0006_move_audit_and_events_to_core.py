"""The audit log and the event feed move to ``core`` (DESIGN.md: one audit module every app
shares). State only: the tables, their rows and their indexes stay exactly as they are;
``core.0001`` takes the same tables over under their old names."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0005_swiss_setting_limits")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="AuditEntry"),
                migrations.DeleteModel(name="Event"),
            ],
            database_operations=[],
        )
    ]
