"""Seating: fixed tables (accessibility).

An organiser gives an entrant a *fixed table*, one they always play at (a table a
wheelchair reaches, one near the door). Swiss pairing honours it where it can
(``pairing.tables.assign_tables``, applied by ``services.swiss`` as it numbers a round's
tables); rounds already paired keep their tables (swap entrants to move one now).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from core.audit import record_audit
from core.auth import AnyUser
from core.errors import InvalidInput
from tournaments.models import Registration
from tournaments.selectors import policies
from tournaments.services.locks import lock_registration, lock_tournament
from tournaments.services.page_versions import pages_changed

#: The highest fixed table (a bound on the input; no club has more tables).
MAX_FIXED_TABLE = 999


@transaction.atomic(durable=True)
def set_fixed_table(
    *, actor: AnyUser, registration: Registration | int, table: int | None
) -> Registration:
    """Give the entrant a fixed table (1 to ``MAX_FIXED_TABLE``), or take it away
    (``table`` None). Organisers of the tournament's club only; audited."""
    pk = registration if isinstance(registration, int) else registration.pk
    found = Registration.objects.filter(pk=pk).values_list("tournament_id", flat=True).first()
    if found is None:
        raise InvalidInput(
            gettext("No such entrant."), code="no_registration", field="registration"
        )
    tournament = lock_tournament(found)  # the lock order: tournament, then registration
    reg = lock_registration(pk)
    policies.require_manager(actor, tournament.club, doing="give players fixed tables")
    if table is not None and not 1 <= table <= MAX_FIXED_TABLE:
        raise InvalidInput(
            gettext("A table number is from 1 to %(most)d.") % {"most": MAX_FIXED_TABLE},
            code="bad_table",
            field="table",
        )
    if reg.fixed_table == table:
        return reg
    before = reg.fixed_table
    reg.fixed_table = table
    reg.save(update_fields=["fixed_table", "updated_at"])
    record_audit(
        actor=actor,
        action="registration.fixed_table_set",
        params={"tournament": tournament.name, "entrant": reg.name, "table": table},
        obj=reg,
        club=tournament.club,
        tournament=tournament,
        before={"fixed_table": before},
        after={"fixed_table": table},
    )
    pages_changed(tournament.pk)
    return reg
