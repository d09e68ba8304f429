"""A guest's history joins the account that claims it, ratings included; an organiser of
the guest's club can undo a claim (``claims.undo_claim``, audited): the player is a guest
again under a new code and the account starts afresh. Two undos at once undo once."""

from __future__ import annotations

import pytest
from django.db import connection

from core.errors import Conflict, InvalidInput, NotAllowed
from core.models import AuditEntry
from seasons.models import Rating, RatingChange
from seasons.services import ratings
from tests.factories import A_WINS, PlayerFactory, UserFactory, member, running_tournament
from tests.tournaments.test_concurrency import run_together
from tournaments.models import Match, Player, Role
from tournaments.services import claims, guests, people, results, swiss


def _rated_guest():
    """A guest of the club who played and won a rated Swiss round; the organiser."""
    tournament, organiser, regs = running_tournament(4, auto_pair=False)
    guest = regs[0].player
    Player.objects.filter(pk=guest.pk).update(
        user=None, club=tournament.club, claim_code=guests.new_claim_code()
    )
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    for match in Match.objects.filter(round=rnd, b__isnull=False):
        results.judge_result(actor=organiser, match=match, games=A_WINS)
    ratings.recompute(club_id=tournament.club_id, game="generic")
    guest.refresh_from_db()
    return tournament, organiser, guest


def _claimed():
    tournament, organiser, guest = _rated_guest()
    user = UserFactory()
    guests.claim_guest(user=user, code=guest.claim_code)
    guest.refresh_from_db()
    return tournament, organiser, guest, user


@pytest.mark.django_db
def test_a_claim_takes_the_guests_ratings_and_rating_history_to_the_account() -> None:
    tournament, _, guest = _rated_guest()
    rating = Rating.objects.get(player=guest)
    history = list(RatingChange.objects.filter(player=guest).values_list("pk", flat=True))
    assert history
    user = UserFactory()
    people.ensure_player(user)  # an empty profile the claim replaces
    guests.claim_guest(user=user, code=guest.claim_code)
    mine = Rating.objects.get(player__user=user, club=tournament.club, game="generic")
    assert mine.pk == rating.pk and mine.ordinal == rating.ordinal
    assert (
        list(RatingChange.objects.filter(player__user=user).values_list("pk", flat=True)) == history
    )


@pytest.mark.django_db
def test_an_organiser_undoes_a_claim_the_guest_is_back_with_a_new_code() -> None:
    tournament, organiser, guest, user = _claimed()
    old_code = guest.claim_code
    ordinal = Rating.objects.get(player=guest).ordinal
    undone = claims.undo_claim(actor=organiser, player_id=guest.pk)
    assert undone.pk == guest.pk and undone.user is None and undone.claimed_at is None
    assert undone.claim_code and undone.claim_code != old_code
    # The account has a fresh, empty profile under its own name.
    own = Player.objects.get(user=user)
    assert own.pk != guest.pk and own.display_name == user.username
    assert not own.registrations.exists() and not Rating.objects.filter(player=own).exists()
    # The history and the ratings stay with the guest (same player id: no recompute).
    assert guest.registrations.filter(tournament=tournament).exists()
    assert Rating.objects.get(player=guest).ordinal == ordinal
    entry = AuditEntry.objects.get(action="player.claim_undone", object_id=str(guest.pk))
    assert entry.actor == organiser and entry.params["user"] == user.username
    assert entry.club_id == tournament.club_id
    # The old code reached the wrong person: it works no more; the new one does.
    with pytest.raises(InvalidInput) as refused:
        guests.claim_guest(user=UserFactory(), code=old_code)
    assert refused.value.code == "unknown_claim_code"
    other = UserFactory()
    assert guests.claim_guest(user=other, code=undone.claim_code).pk == guest.pk


@pytest.mark.django_db
def test_only_the_guests_club_organisers_may_undo_and_only_a_claim() -> None:
    tournament, organiser, guest, user = _claimed()
    for outsider in (user, member(tournament.club, Role.MEMBER), UserFactory()):
        with pytest.raises(NotAllowed):
            claims.undo_claim(actor=outsider, player_id=guest.pk)
    other_club = running_tournament(2)[1]
    with pytest.raises(NotAllowed):
        claims.undo_claim(actor=other_club, player_id=guest.pk)
    # An account's own profile, or a guest never claimed: nothing to undo.
    with pytest.raises(Conflict) as refused:
        claims.undo_claim(actor=organiser, player_id=PlayerFactory().pk)
    assert refused.value.code == "not_claimed"
    claims.undo_claim(actor=organiser, player_id=guest.pk)
    with pytest.raises(Conflict) as again:
        claims.undo_claim(actor=organiser, player_id=guest.pk)
    assert again.value.code == "not_claimed"
    assert AuditEntry.objects.filter(action="player.claim_undone").count() == 1


@pytest.mark.django_db
def test_the_players_list_offers_undo_claim_to_organisers_only(client) -> None:
    tournament, organiser, guest, user = _claimed()
    url = f"/tournaments/{tournament.pk}/"
    client.force_login(user)
    assert "Undo claim" not in client.get(url).content.decode()
    client.force_login(organiser)
    page = client.get(url).content.decode()
    assert "Undo claim" in page and f"/players/{guest.pk}/undo-claim/" in page
    response = client.post(f"/tournaments/{tournament.pk}/players/{guest.pk}/undo-claim/")
    assert response.status_code == 302
    guest.refresh_from_db()
    assert guest.user is None
    # Pressed again (a stale page): a message, not an error page.
    response = client.post(
        f"/tournaments/{tournament.pk}/players/{guest.pk}/undo-claim/", follow=True
    )
    assert response.status_code == 200 and "not a claimed guest" in response.content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks")
def test_two_undos_at_once_undo_once() -> None:
    _, organiser, guest, user = _claimed()
    outcome = run_together(*[lambda: claims.undo_claim(actor=organiser, player_id=guest.pk)] * 3)
    assert sum(isinstance(r, Player) for r in outcome) == 1
    assert all(isinstance(r, Player) or getattr(r, "code", "") == "not_claimed" for r in outcome)
    assert Player.objects.filter(user=user).count() == 1
    assert AuditEntry.objects.filter(action="player.claim_undone").count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks")
def test_a_claim_racing_its_undo_ends_consistent() -> None:
    """Undo and a second account's claim of the old code at once: the code is used (the
    claim is refused either way), and the guest ends a guest with a new code."""
    _, organiser, guest, user = _claimed()
    old_code = guest.claim_code
    late = UserFactory()
    outcome = run_together(
        lambda: claims.undo_claim(actor=organiser, player_id=guest.pk),
        lambda: guests.claim_guest(user=late, code=old_code),
    )
    assert isinstance(outcome[0], Player)
    assert getattr(outcome[1], "code", "") in {"claim_code_used", "unknown_claim_code"}
    guest.refresh_from_db()
    assert guest.user is None and guest.claim_code != old_code
    assert Player.objects.filter(user=user).count() == 1
    assert not Player.objects.filter(user=late).exclude(registrations=None).exists()
