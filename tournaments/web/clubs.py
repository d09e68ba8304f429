"""Club pages: the list, a club with its members and tournaments, roles, invitations."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core import languages
from core.errors import DomainError
from core.web import add_form_error
from tournaments import selectors
from tournaments.models import (
    Club,
    Membership,
    Role,
    role_word,
)
from tournaments.selectors import policies
from tournaments.services import clubs
from tournaments.web.forms import (
    AddMemberForm,
    ClubForm,
    ClubLanguageForm,
    ClubTimeZoneForm,
    InviteForm,
    RoleForm,
)


def club_list(request: HttpRequest) -> HttpResponse:
    return render(
        request, "tournaments/club_list.html", {"clubs": selectors.club_list().order_by("name")}
    )


@login_required
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = clubs.create_club(actor=request.user, **form.cleaned_data)
        except DomainError as error:
            add_form_error(form, error)
        else:
            messages.success(
                request, gettext("%(club)s created. You are its owner.") % {"club": club.name}
            )
            return redirect("club-detail", slug=club.slug)
    return render(request, "tournaments/club_form.html", {"form": form})


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    languages.fall_back_to(request, club.language)
    is_owner = policies.is_club_owner(request.user, club)
    tournaments = selectors.visible_tournaments(request.user).filter(club=club)
    context: dict[str, Any] = {
        "club": club,
        "members": selectors.club_members(club),
        "tournaments": tournaments.order_by("-scheduled_start"),
        "is_owner": is_owner,
        "can_manage": policies.can_manage_club(request.user, club),
        "my_role": policies.role_in_club(request.user, club),
        "add_form": AddMemberForm(prefix="add"),
        "invite_form": InviteForm(prefix="invite"),
        "time_zone_form": ClubTimeZoneForm(prefix="tz", initial={"time_zone": club.time_zone}),
        "language_form": ClubLanguageForm(prefix="lang", initial={"language": club.language}),
        "role_choices": Role.choices,  # what RoleForm offers
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
                    clubs.add_member(actor=request.user, club=club, **add_form.cleaned_data)
                    messages.success(
                        request,
                        gettext("%(username)s added.")
                        % {"username": add_form.cleaned_data["username"]},
                    )
                    return redirect("club-detail", slug=club.slug)
            elif form_name == "invite":
                invite_form = InviteForm(request.POST, prefix="invite")
                context["invite_form"] = invite_form
                if invite_form.is_valid():
                    clubs.invite_member(actor=request.user, club=club, **invite_form.cleaned_data)
                    messages.success(
                        request,
                        gettext("Invitation sent to %(email)s.")
                        % {"email": invite_form.cleaned_data["email"]},
                    )
                    return redirect("club-detail", slug=club.slug)
            elif form_name == "time_zone":
                tz_form = ClubTimeZoneForm(request.POST, prefix="tz")
                context["time_zone_form"] = tz_form
                if tz_form.is_valid():
                    clubs.set_time_zone(
                        actor=request.user, club=club, time_zone=tz_form.cleaned_data["time_zone"]
                    )
                    messages.success(
                        request,
                        gettext("Times are shown in %(time_zone)s.")
                        % {"time_zone": tz_form.cleaned_data["time_zone"]},
                    )
                    return redirect("club-detail", slug=club.slug)
            elif form_name == "language":
                language_form = ClubLanguageForm(request.POST, prefix="lang")
                context["language_form"] = language_form
                if language_form.is_valid():
                    code = language_form.cleaned_data["language"]
                    clubs.set_language(actor=request.user, club=club, language=code)
                    messages.success(
                        request,
                        gettext("The club's pages are in %(language)s for visitors.")
                        % {"language": languages.own_name(code)},
                    )
                    return redirect("club-detail", slug=club.slug)
        except DomainError as error:
            forms_by_name = {
                "add": "add_form",
                "time_zone": "time_zone_form",
                "language": "language_form",
            }
            add_form_error(context[forms_by_name.get(form_name or "", "invite_form")], error)
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
            messages.error(request, gettext("Choose a role."))
        else:
            clubs.set_role(
                actor=request.user, membership=membership, role=form.cleaned_data["role"]
            )
            messages.success(
                request,
                gettext("%(username)s is now %(role)s.")
                % {
                    "username": membership.user.get_username(),
                    "role": role_word(form.cleaned_data["role"]),
                },
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
        clubs.remove_member(actor=request.user, membership=membership)
        messages.success(
            request, gettext("%(username)s removed.") % {"username": membership.user.get_username()}
        )
    except DomainError as error:
        messages.error(request, error.detail)
    return redirect("club-detail", slug=slug)


@login_required
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    if request.method == "POST":
        try:
            membership = clubs.accept_invitation(user=request.user, token=token)
        except DomainError as error:
            messages.error(request, error.detail)
            return redirect("home")
        messages.success(
            request,
            gettext("You joined %(club)s as %(role)s.")
            % {"club": membership.club.name, "role": role_word(membership.role)},
        )
        return redirect("club-detail", slug=membership.club.slug)
    invitation = selectors.invitation_by_token(token)
    return render(request, "tournaments/invitation.html", {"invitation": invitation})
