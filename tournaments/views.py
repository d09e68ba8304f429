"""Pages: thin views that parse a form, call one service or selector, and render.

Domain errors from services are shown on the form (or as a message for buttons);
htmx requests get the fragment they asked for instead of a redirect.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from tournaments import selectors, services
from tournaments.errors import DomainError
from tournaments.forms import (
    AddMemberForm,
    AddPlayerForm,
    ClubForm,
    InviteForm,
    ProfileForm,
    RoleForm,
    SignUpForm,
    TournamentForm,
    add_domain_error,
)
from tournaments.models import Club, Membership, Registration, TournamentStatus


def home(request: HttpRequest) -> HttpResponse:
    tournaments = selectors.visible_tournaments(request.user)
    upcoming = tournaments.filter(
        status__in=[TournamentStatus.REGISTRATION, TournamentStatus.RUNNING]
    ).order_by("scheduled_start")[:10]
    mine = []
    clubs = []
    if request.user.is_authenticated:
        mine = list(
            tournaments.filter(registrations__player__user=request.user)
            .exclude(status=TournamentStatus.FINISHED)
            .order_by("scheduled_start")
        )
        clubs = list(
            Membership.objects.filter(user=request.user)
            .select_related("club")
            .order_by("club__name")
        )
    return render(
        request, "tournaments/home.html", {"upcoming": upcoming, "mine": mine, "my_clubs": clubs}
    )


def sign_up(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = services.sign_up(**form.cleaned_data)
        except DomainError as error:
            add_domain_error(form, error)
        else:
            login(request, player.user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {player.display_name}!")
            return redirect(request.GET.get("next") or "home")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    player = services.ensure_player(request.user)
    form = ProfileForm(request.POST or None, initial={"display_name": player.display_name})
    if request.method == "POST" and form.is_valid():
        try:
            services.update_profile(user=request.user, **form.cleaned_data)
        except DomainError as error:
            add_domain_error(form, error)
        else:
            messages.success(request, "Profile saved.")
            return redirect("profile")
    registrations = (
        Registration.objects.filter(player=player)
        .select_related("tournament", "tournament__club")
        .order_by("-tournament__scheduled_start")
    )
    return render(
        request,
        "tournaments/profile.html",
        {"form": form, "player": player, "registrations": registrations},
    )


# --- clubs -------------------------------------------------------------------------------------


def club_list(request: HttpRequest) -> HttpResponse:
    return render(
        request, "tournaments/club_list.html", {"clubs": selectors.club_list().order_by("name")}
    )


@login_required
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.create_club(actor=request.user, **form.cleaned_data)
        except DomainError as error:
            add_domain_error(form, error)
        else:
            messages.success(request, f"{club.name} created. You are its owner.")
            return redirect("club-detail", slug=club.slug)
    return render(request, "tournaments/club_form.html", {"form": form})


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    is_owner = selectors.is_club_owner(request.user, club)
    tournaments = selectors.visible_tournaments(request.user).filter(club=club)
    context: dict[str, Any] = {
        "club": club,
        "members": selectors.club_members(club),
        "tournaments": tournaments.order_by("-scheduled_start"),
        "is_owner": is_owner,
        "can_manage": selectors.can_manage_club(request.user, club),
        "my_role": selectors.role_in_club(request.user, club),
        "add_form": AddMemberForm(prefix="add"),
        "invite_form": InviteForm(prefix="invite"),
        "role_choices": RoleForm.base_fields["role"].choices,  # type: ignore[attr-defined]
    }
    if request.method == "POST":
        if not request.user.is_authenticated or not is_owner:
            raise PermissionDenied
        form_name = request.POST.get("form")
        try:
            if form_name == "add":
                add_form = AddMemberForm(request.POST, prefix="add")
                context["add_form"] = add_form
                if add_form.is_valid():
                    services.add_member(actor=request.user, club=club, **add_form.cleaned_data)
                    messages.success(request, f"{add_form.cleaned_data['username']} added.")
                    return redirect("club-detail", slug=club.slug)
            elif form_name == "invite":
                invite_form = InviteForm(request.POST, prefix="invite")
                context["invite_form"] = invite_form
                if invite_form.is_valid():
                    services.invite_member(
                        actor=request.user, club=club, **invite_form.cleaned_data
                    )
                    messages.success(
                        request, f"Invitation sent to {invite_form.cleaned_data['email']}."
                    )
                    return redirect("club-detail", slug=club.slug)
        except DomainError as error:
            add_domain_error(context["add_form" if form_name == "add" else "invite_form"], error)
    return render(request, "tournaments/club_detail.html", context)


@login_required
@require_POST
def member_role(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    membership = get_object_or_404(
        Membership.objects.select_related("club", "user"), club__slug=slug, pk=pk
    )
    form = RoleForm(request.POST)
    try:
        if not form.is_valid():
            messages.error(request, "Choose a role.")
        else:
            services.set_role(
                actor=request.user, membership=membership, role=form.cleaned_data["role"]
            )
            messages.success(
                request, f"{membership.user.get_username()} is now {form.cleaned_data['role']}."
            )
    except DomainError as error:
        messages.error(request, error.detail)
    return redirect("club-detail", slug=slug)


@login_required
@require_POST
def member_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    membership = get_object_or_404(
        Membership.objects.select_related("club", "user"), club__slug=slug, pk=pk
    )
    try:
        services.remove_member(actor=request.user, membership=membership)
        messages.success(request, f"{membership.user.get_username()} removed.")
    except DomainError as error:
        messages.error(request, error.detail)
    return redirect("club-detail", slug=slug)


@login_required
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    if request.method == "POST":
        try:
            membership = services.accept_invitation(user=request.user, token=token)
        except DomainError as error:
            messages.error(request, error.detail)
            return redirect("home")
        messages.success(request, f"You joined {membership.club.name} as {membership.role}.")
        return redirect("club-detail", slug=membership.club.slug)
    invitation = selectors.invitation_by_token(token)
    return render(request, "tournaments/invitation.html", {"invitation": invitation})


# --- tournaments ----------------------------------------------------------------------------------


def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = selectors.visible_tournaments(request.user)
    status = request.GET.get("status")
    game = request.GET.get("game")
    query = request.GET.get("q", "").strip()
    if status in TournamentStatus.values:
        tournaments = tournaments.filter(status=status)
    if game:
        tournaments = tournaments.filter(game=game)
    if query:
        tournaments = tournaments.filter(Q(name__icontains=query) | Q(club__name__icontains=query))
    return render(
        request,
        "tournaments/tournament_list.html",
        {
            "tournaments": tournaments.order_by("-scheduled_start")[:200],
            "statuses": TournamentStatus.choices,
            "status": status,
            "game": game,
            "q": query,
        },
    )


def _tournament_context(request: HttpRequest, pk: int) -> dict[str, Any]:
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    registrations = list(selectors.tournament_registrations(tournament))
    active = [r for r in registrations if r.is_active]
    return {
        "tournament": tournament,
        "registrations": active,
        "inactive_registrations": [r for r in registrations if not r.is_active],
        "my_registration": next(
            (r for r in registrations if r.player.user_id == request.user.pk), None
        ),
        "can_manage": selectors.can_manage_club(request.user, tournament.club),
        "can_judge": selectors.can_judge(request.user, tournament.club),
        "current_round": selectors.current_round(tournament),
        "my_match": selectors.current_match_of(request.user, tournament),
        "add_player_form": AddPlayerForm(),
        "now": timezone.now(),
    }


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    context = _tournament_context(request, pk)
    template = "tournaments/tournament_detail.html"
    if request.htmx and request.GET.get("fragment") == "players":
        template = "tournaments/_players.html"
    return render(request, template, context)


def _after_action(request: HttpRequest, pk: int) -> HttpResponse:
    """htmx: re-render the registration panel in place; otherwise back to the page."""
    if request.htmx:
        response = render(
            request, "tournaments/_registration_panel.html", _tournament_context(request, pk)
        )
        response["HX-Trigger"] = "registrations-changed"
        return response
    return redirect("tournament-detail", pk=pk)


def _run(request: HttpRequest, action: Any, success: str) -> None:
    try:
        action()
    except DomainError as error:
        messages.error(request, error.detail)
    else:
        messages.success(request, success)


@login_required
@require_POST
def tournament_register(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    _run(
        request,
        lambda: services.register(actor=request.user, tournament=tournament),
        f"You are registered for {tournament.name}.",
    )
    return _after_action(request, pk)


def _registration(request: HttpRequest, pk: int, reg_pk: int) -> Registration:
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    return get_object_or_404(
        Registration.objects.select_related("player", "tournament__club"),
        tournament=tournament,
        pk=reg_pk,
    )


@login_required
@require_POST
def registration_withdraw(request: HttpRequest, pk: int, reg_pk: int) -> HttpResponse:
    registration = _registration(request, pk, reg_pk)
    if registration.player.user_id == request.user.pk:
        _run(
            request,
            lambda: services.unregister(actor=request.user, registration=registration),
            "You are no longer registered.",
        )
    else:
        _run(
            request,
            lambda: services.remove_player(actor=request.user, registration=registration),
            f"{registration.player.display_name} removed.",
        )
    return _after_action(request, pk)


@login_required
@require_POST
def registration_check_in(request: HttpRequest, pk: int, reg_pk: int) -> HttpResponse:
    registration = _registration(request, pk, reg_pk)
    if registration.player.user_id == request.user.pk:
        _run(
            request,
            lambda: services.check_in(actor=request.user, registration=registration),
            "You are checked in. Good luck!",
        )
    else:
        _run(
            request,
            lambda: services.check_in_player(actor=request.user, registration=registration),
            f"{registration.player.display_name} checked in.",
        )
    return _after_action(request, pk)


@login_required
@require_POST
def tournament_add_player(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    form = AddPlayerForm(request.POST)
    if form.is_valid():
        _run(
            request,
            lambda: services.add_player(
                actor=request.user, tournament=tournament, username=form.cleaned_data["username"]
            ),
            f"{form.cleaned_data['username']} registered.",
        )
    else:
        messages.error(request, "Enter a username.")
    return _after_action(request, pk)


@login_required
def tournament_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    if not selectors.can_manage_club(request.user, club):
        raise PermissionDenied
    form = TournamentForm(request.POST or None, initial={"capacity": 32, "best_of": 1})
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        try:
            tournament = services.create_tournament(actor=request.user, club=club, **data)
        except DomainError as error:
            add_domain_error(form, error)
        else:
            messages.success(request, f"{tournament.name} created.")
            return redirect("tournament-detail", pk=tournament.pk)
    return render(request, "tournaments/tournament_form.html", {"form": form, "club": club})


@login_required
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    if not selectors.can_manage_club(request.user, tournament.club):
        raise PermissionDenied
    form = TournamentForm(request.POST or None, instance=tournament, editing=True)
    if request.method == "POST" and form.is_valid():
        changes = {k: v for k, v in form.cleaned_data.items() if k in services.TOURNAMENT_FIELDS}
        try:
            services.update_tournament(
                actor=request.user, tournament=selectors.tournament_by_pk(pk), changes=changes
            )
        except DomainError as error:
            add_domain_error(form, error)
        else:
            messages.success(request, "Tournament saved.")
            return redirect("tournament-detail", pk=pk)
    return render(
        request,
        "tournaments/tournament_form.html",
        {"form": form, "club": tournament.club, "tournament": tournament},
    )


@login_required
@require_POST
def tournament_publish(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    _run(
        request,
        lambda: services.publish_tournament(actor=request.user, tournament=tournament),
        "Registration is open.",
    )
    return redirect("tournament-detail", pk=pk)


@login_required
def tournament_audit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    if not selectors.can_manage_club(request.user, tournament.club):
        raise PermissionDenied
    entries = selectors.audit_log(tournament=tournament)[:500]
    return render(request, "tournaments/audit.html", {"tournament": tournament, "entries": entries})


def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness for load balancers and compose: the database answers (and Redis, if used)."""
    from django.conf import settings
    from django.core.cache import cache
    from django.db import connection
    from django.http import JsonResponse

    checks: dict[str, str] = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        checks["database"] = "ok"
    except Exception as error:  # report, don't raise: this page exists to say what is down
        checks["database"] = f"down: {type(error).__name__}"
    if settings.REDIS_URL:
        try:
            cache.set("healthz", "1", timeout=5)
            checks["redis"] = "ok"
        except Exception as error:
            checks["redis"] = f"down: {type(error).__name__}"
    healthy = all(v == "ok" for v in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "degraded", **checks}, status=200 if healthy else 503
    )
