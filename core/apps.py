from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class CoreConfig(AppConfig):
    """Plumbing every app shares (DESIGN.md, "The house"): errors, audit, locks, queue,
    the embedded clock, health, and the web and API helpers. Imports no app of ours."""

    name = "core"
    verbose_name = gettext_lazy("Audit log and plumbing")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Open sockets follow a session ended or a password changed (core.access): Django's
        # own pages (logout, password change and reset, the admin) tell us only so.
        from django.contrib.auth import get_user_model, user_logged_out
        from django.db.models.signals import post_save

        from core import access, kept_accounts

        # The signed-in account's copy forgotten when it changes (core.kept_accounts): first,
        # so that its commit hook runs before the sockets are told to read the account again.
        kept_accounts.connect()
        user_logged_out.connect(access.on_logged_out, dispatch_uid="core.access.logged_out")
        post_save.connect(
            access.on_user_saved, sender=get_user_model(), dispatch_uid="core.access.user_saved"
        )
        _longer_statements_kept()


#: The longest statement whose placeholders psycopg converts once and keeps (its own
#: limit is 4 KB). A signed-in reader's first read and the home's lists are compiled once
#: (``core.compiled``) into statements of 5 to 7 KB, the same text at every request:
#: psycopg would scan each for its placeholders anew (0.11 ms for the home's 6.4 KB
#: statement, against 0.4 µs kept).
#: Statements with more than 50 parameters (long ``IN`` lists) are still never kept.
KEPT_STATEMENT_LENGTH = 16 * 1024


def _longer_statements_kept() -> None:
    try:
        from psycopg import _queries
    except ImportError:  # SQLite only: no psycopg
        return
    if getattr(_queries, "MAX_CACHED_STATEMENT_LENGTH", None) is not None:
        _queries.MAX_CACHED_STATEMENT_LENGTH = max(
            _queries.MAX_CACHED_STATEMENT_LENGTH, KEPT_STATEMENT_LENGTH
        )
