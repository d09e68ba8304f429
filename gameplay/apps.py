from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class GameplayConfig(AppConfig):
    name = "gameplay"
    verbose_name = gettext_lazy("Games at the table")

    def ready(self) -> None:
        # Wiring (not a layer): the live pages listen for the services' changes.
        from gameplay.realtime import broadcast
        from gameplay.selectors.gates import unfinished_drafts
        from gameplay.selectors.home import card_links
        from gameplay.services.drafts import pod_changed
        from gameplay.services.tables import table_changed
        from tournaments.selectors.home import card_links as asked_for_links
        from tournaments.selectors.policies import round_may_begin

        pod_changed.connect(broadcast.on_pod_changed, dispatch_uid="gameplay.broadcast")
        table_changed.connect(broadcast.on_table_changed, dispatch_uid="gameplay.table_broadcast")
        # A tournament round waits for the drafts seated before it.
        round_may_begin.connect(unfinished_drafts, dispatch_uid="gameplay.round_gate")
        # The player's card links to their open live table and draft.
        asked_for_links.connect(card_links, dispatch_uid="gameplay.card_links")
        # The organiser's control page: the round's live tables that want a look.
        from gameplay.selectors.alerts import table_alerts
        from tournaments.selectors.control import table_alerts as asked_for_alerts

        asked_for_alerts.connect(table_alerts, dispatch_uid="gameplay.table_alerts")
