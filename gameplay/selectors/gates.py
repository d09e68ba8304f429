"""What the gameplay app says before a tournament round begins: a round waits for the
drafts seated before it (``DraftPod.before_round``) to finish.

The tournaments app asks through its ``round_may_begin`` hook
(``tournaments.selectors.policies``) and never imports this module: ``GameplayConfig.ready``
connects ``unfinished_drafts`` to the hook, so the arrow stays ``gameplay -> tournaments``.
A pod is finished when its last pick is made, or when the organiser ends it ("End now":
the server makes the remaining picks).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from gameplay.models import DraftPod, PodStatus
from tournaments.models import Tournament
from tournaments.selectors.policies import RoundBlocker


def unfinished_pods(tournament: Tournament, number: int) -> list[int]:
    """The numbers of the pods seated before round ``number`` that have not finished."""
    return list(
        DraftPod.objects.filter(tournament=tournament, before_round=number)
        .exclude(status=PodStatus.FINISHED)
        .order_by("number")
        .values_list("number", flat=True)
    )


def unfinished_drafts(
    sender: object, *, tournament: Tournament, number: int, **kwargs: Any
) -> RoundBlocker | None:
    """The hook's receiver: a blocker naming the pods still drafting, or None."""
    pods = unfinished_pods(tournament, number)
    if not pods:
        return None
    if len(pods) == 1:
        detail = gettext(
            "The draft for pod %(pod)d has not finished: finish it or end it first."
        ) % {"pod": pods[0]}
    else:
        detail = gettext(
            "The drafts for pods %(pods)s and %(last)d have not finished: finish them or end "
            "them first."
        ) % {"pods": ", ".join(str(p) for p in pods[:-1]), "last": pods[-1]}
    return RoundBlocker(code="draft_unfinished", detail=detail)
