"""Registration pages (buttons, mostly): register, withdraw, check in, add a player;
add many from pasted names and check many in (organisers); search the players list;
drop and re-add while the tournament runs; late entrants."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from core.errors import DomainError, translate
from core.web import HtmxHttpRequest, parse_int, run_action, safe_next
from tournaments import selectors
from tournaments.models import (
    Registration,
)
from tournaments.services import claims, entrants, guests, teams
from tournaments.web.common import detail_context, tournament_for
from tournaments.web.forms import (
    AddPlayerForm,
    BulkAddForm,
)


def _after_action(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """htmx: re-render the registration panel in place; otherwise back to the page."""
    if request.htmx:
        response = render(
            request, "tournaments/_registration_panel.html", detail_context(request, pk)
        )
        response["HX-Trigger"] = "registrations-changed"
        return response
    return redirect("tournament-detail", pk=pk)


def _posted(request: HttpRequest, name: str, most: int = 150) -> str:
    """A posted text field, bounded (longer is cut here; the services refuse what is bad)."""
    return request.POST.get(name, "")[:most]


@login_required
@require_POST
def tournament_register(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    teammate = _posted(request, "teammate").strip()
    run_action(
        request,
        lambda: entrants.register(
            actor=request.user,
            tournament=tournament,
            team_name=_posted(request, "team_name", 200),
            teammate=teammate,
        ),
        (
            gettext("You are registered for %(tournament)s. %(teammate)s is invited to your team.")
            if teammate
            else gettext("You are registered for %(tournament)s.")
        )
        % {"tournament": tournament.name, "teammate": teammate},
    )
    return _after_action(request, pk)


def _registration(request: HttpRequest, pk: int, reg_pk: int) -> Registration:
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    return get_object_or_404(
        Registration.objects.select_related("player", "partner", "tournament__club"),
        tournament=tournament,
        pk=reg_pk,
    )


@login_required
@require_POST
def registration_withdraw(request: HtmxHttpRequest, pk: int, reg_pk: int) -> HttpResponse:
    registration = _registration(request, pk, reg_pk)
    if registration.player.user_id == request.user.pk:
        done = gettext("You are no longer registered.")
    elif registration.has_member(request.user.pk):
        done = gettext("You left %(team)s.") % {"team": registration.name}
    else:
        done = gettext("%(entrant)s removed.") % {"entrant": registration.name}
    run_action(
        request,
        lambda: entrants.withdraw_entry(actor=request.user, registration=registration),
        done,
    )
    return _after_action(request, pk)


@login_required
@require_POST
def registration_check_in(request: HtmxHttpRequest, pk: int, reg_pk: int) -> HttpResponse:
    registration = _registration(request, pk, reg_pk)
    yours = registration.has_member(request.user.pk)
    run_action(
        request,
        lambda: entrants.check_in_entry(actor=request.user, registration=registration),
        gettext("You are checked in. Good luck!")
        if yours
        else gettext("%(entrant)s checked in.") % {"entrant": registration.name},
    )
    return _after_action(request, pk)


@login_required
@require_POST
def tournament_add_player(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    form = AddPlayerForm(request.POST)
    if form.is_valid():
        run_action(
            request,
            lambda: entrants.add_player(
                actor=request.user,
                tournament=tournament,
                username=form.cleaned_data["username"],
                team_name=_posted(request, "team_name", 200),
                teammate=_posted(request, "teammate"),
            ),
            lambda reg: gettext("%(entrant)s registered.") % {"entrant": reg.name},
        )
    else:
        messages.error(request, gettext("Enter a username."))
    return _after_action(request, pk)


def _added(count: int, *, teams: bool, details: list[str]) -> str:
    """ "24 players added (16 new guests).", "3 teams added." """
    values = {"count": count, "details": ", ".join(details)}
    if teams and details:
        return (
            ngettext(
                "%(count)d team added (%(details)s).", "%(count)d teams added (%(details)s).", count
            )
            % values
        )
    if teams:
        return ngettext("%(count)d team added.", "%(count)d teams added.", count) % values
    if details:
        return (
            ngettext(
                "%(count)d player added (%(details)s).",
                "%(count)d players added (%(details)s).",
                count,
            )
            % values
        )
    return ngettext("%(count)d player added.", "%(count)d players added.", count) % values


@login_required
@require_POST
def tournament_bulk_add(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Add many entrants from pasted names (``guests.add_players_by_name``): all or none.
    A refused paste comes back in the box, to be corrected."""
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    form = BulkAddForm(request.POST)
    kept = ""
    if not form.is_valid():
        messages.error(request, gettext("Paste at least one name."))
    else:
        names = form.cleaned_data["names"]
        try:
            added = guests.add_players_by_name(
                actor=request.user, tournament=tournament, names=names
            )
        except DomainError as error:
            problem = translate(error)
            assert problem is not None
            messages.error(request, problem.detail)
            kept = names
        else:
            detail = []
            if added.new_guests:
                detail.append(
                    ngettext("%(count)d new guest", "%(count)d new guests", added.new_guests)
                    % {"count": added.new_guests}
                )
            if added.known_guests:
                detail.append(
                    ngettext("%(count)d known guest", "%(count)d known guests", added.known_guests)
                    % {"count": added.known_guests}
                )
            messages.success(
                request,
                _added(added.count, teams=teams.is_team_event(tournament), details=detail),
            )
    if request.htmx:
        context = detail_context(request, pk)
        context["bulk_names"] = kept
        response = render(request, "tournaments/_registration_panel.html", context)
        response["HX-Trigger"] = "registrations-changed"
        return response
    return redirect("tournament-detail", pk=pk)


@login_required
@require_POST
def tournament_check_in_many(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """ "Check in the selected" (the ticked ``registrations``) or "check in everyone"
    (``all``): one transaction (``entrants.check_in_many``)."""
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    everyone = request.POST.get("all") == "1"

    def check_in() -> entrants.CheckedIn:
        raw = request.POST.getlist("registrations")[: entrants.CHECK_IN_MAX + 1]
        ids = [i for i in (parse_int(v, field="registrations") for v in raw) if i is not None]
        return entrants.check_in_many(
            actor=request.user, tournament=tournament, registration_ids=ids, everyone=everyone
        )

    result = run_action(request, check_in)
    if result is not None:
        messages.success(request, checked_in_words(result))
    return _after_action(request, pk)


def checked_in_words(result: entrants.CheckedIn) -> str:
    """ "2 entrants checked in. 1 already were. Skipped, a team needs its second player
    first: Lonely." (each sentence only when it has something to say)."""
    done = len(result.checked_in)
    words = [
        ngettext("%(count)d entrant checked in.", "%(count)d entrants checked in.", done)
        % {"count": done}
    ]
    if result.already:
        already = len(result.already)
        words.append(
            ngettext("%(count)d already were.", "%(count)d already were.", already)
            % {"count": already}
        )
    if result.skipped:
        words.append(
            gettext("Skipped, a team needs its second player first: %(names)s.")
            % {"names": ", ".join(r.name for r in result.skipped)}
        )
    return " ".join(words)


def tournament_players(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The players list filtered by name (``?q=``, at most 80 characters:
    ``selectors.registrations_panel``): the list alone for htmx (the search box asks as
    you type), else the whole page."""
    context = detail_context(request, pk)
    if request.htmx:
        return render(request, "tournaments/_players.html", context)
    return render(request, "tournaments/tournament_detail.html", context)


@login_required
@require_POST
def registration_action(request: HttpRequest, pk: int, reg_pk: int, action: str) -> HttpResponse:
    tournament = tournament_for(request, pk)
    reg = get_object_or_404(Registration, tournament=tournament, pk=reg_pk)
    if action == "drop":
        run_action(
            request,
            lambda: entrants.drop_player(actor=request.user, registration=reg),
            gettext("%(entrant)s dropped: not paired from the next round.") % {"entrant": reg.name},
        )
    elif action == "readd":
        run_action(
            request,
            lambda: entrants.readd_player(actor=request.user, registration=reg),
            gettext("%(entrant)s is back in.") % {"entrant": reg.name},
        )
    else:
        raise Http404
    return redirect(safe_next(request, reverse("standings", args=[pk])))


@login_required
@require_POST
def late_entrant(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_for(request, pk)
    username = _posted(request, "username")
    run_action(
        request,
        lambda: entrants.add_late_entrant(
            actor=request.user,
            tournament=tournament,
            username=username,
            team_name=_posted(request, "team_name", 200),
            teammate=_posted(request, "teammate"),
        ),
        lambda reg: gettext("%(entrant)s joins from the next round.") % {"entrant": reg.name},
    )
    return redirect("standings", pk=pk)


# --- teams ---------------------------------------------------------------------------------


def _teammate(registration: Registration) -> str:
    """The teammate by the name pages show (their display name, not their user name)."""
    partner = registration.partner
    return partner.display_name if partner is not None else gettext("The teammate")


@login_required
@require_POST
def team_invite(request: HtmxHttpRequest, pk: int, reg_pk: int) -> HttpResponse:
    registration = _registration(request, pk, reg_pk)
    username = _posted(request, "username").strip()
    run_action(
        request,
        lambda: teams.invite_teammate(
            actor=request.user, registration=registration, username=username
        ),
        lambda reg: (
            gettext("%(teammate)s is invited: they accept on this page.")
            % {"teammate": _teammate(reg)}
        ),
    )
    return _after_action(request, pk)


@login_required
@require_POST
def team_answer(request: HtmxHttpRequest, pk: int, reg_pk: int) -> HttpResponse:
    registration = _registration(request, pk, reg_pk)
    answer = request.POST.get("answer", "")
    if answer not in ("accept", "decline"):
        messages.error(request, gettext("Join the team or decline the invitation."))
        return _after_action(request, pk)
    accept = answer == "accept"
    run_action(
        request,
        lambda: teams.answer_invitation(
            actor=request.user, registration=registration, accept=accept
        ),
        gettext("You play for %(team)s.") % {"team": registration.name}
        if accept
        else gettext("Invitation declined."),
    )
    return _after_action(request, pk)


@login_required
@require_POST
def team_remove_teammate(request: HtmxHttpRequest, pk: int, reg_pk: int) -> HttpResponse:
    registration = _registration(request, pk, reg_pk)
    leaving = registration.partner is not None and registration.partner.user_id == request.user.pk
    run_action(
        request,
        lambda: teams.remove_teammate(actor=request.user, registration=registration),
        gettext("You left %(team)s.") % {"team": registration.name}
        if leaving
        else gettext("The team has no teammate now."),
    )
    return _after_action(request, pk)


@login_required
@require_POST
def team_assign(request: HtmxHttpRequest, pk: int, reg_pk: int) -> HttpResponse:
    registration = _registration(request, pk, reg_pk)
    username = _posted(request, "username").strip()
    run_action(
        request,
        lambda: teams.assign_teammate(
            actor=request.user, registration=registration, username=username
        ),
        lambda reg: (
            gettext("%(teammate)s now plays for %(team)s.")
            % {"teammate": _teammate(reg), "team": reg.name}
        ),
    )
    return _after_action(request, pk)


@login_required
@require_POST
def team_rename(request: HtmxHttpRequest, pk: int, reg_pk: int) -> HttpResponse:
    registration = _registration(request, pk, reg_pk)
    run_action(
        request,
        lambda: teams.rename_team(
            actor=request.user,
            registration=registration,
            team_name=_posted(request, "team_name", 200),
        ),
        gettext("The team's name is changed."),
    )
    return _after_action(request, pk)


@login_required
@require_POST
def player_undo_claim(request: HtmxHttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """An organiser undoes an account's claim of a guest (``claims.undo_claim``), from the
    players list of one of the club's tournaments."""
    get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    run_action(
        request,
        lambda: claims.undo_claim(actor=request.user, player_id=player_pk),
        lambda player: (
            gettext("%(player)s is a guest again, with a new claim code.")
            % {"player": player.display_name}
        ),
    )
    return _after_action(request, pk)
