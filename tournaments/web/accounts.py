"""Pages about people: the home page, signing in and up, the profile."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView, LogoutView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from core import languages
from core.errors import DomainError
from core.web import add_form_error, safe_next
from tournaments import selectors
from tournaments.services import guests, people
from tournaments.web.forms import (
    ClaimForm,
    ProfileForm,
    SignInForm,
    SignUpForm,
)


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/home.html", selectors.home_page(request.user))


def choose_language(request: HttpRequest) -> HttpResponse:
    """The switcher at the foot of every page (``?language=fr&next=/the/page/``): the
    reader's pick, kept in a cookie for a year, and for a signed-in reader in their
    session too, so it wins over the profile's language until they sign in again (the
    profile's is the one that follows them to every device). A link, not a form: the
    pages served alike to every visitor carry no CSRF token, and a language is no secret
    to guard. An unknown language: a 400 saying which there are."""
    back = safe_next(request, reverse("home"))
    try:
        code = languages.require_language(request.GET.get("language", ""))
    except DomainError as error:
        context = {"detail": error.detail, "back": back}
        return render(request, "problem.html", context, status=400)
    response = redirect(back)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # type: ignore[arg-type]  # "Lax"
    )
    if request.user.is_authenticated:
        request.session[languages.SESSION_KEY] = code
    return response


def remember_language(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """At sign-in (``user_logged_in``), the profile's language into the session
    (``core.languages``: the account's choice, without a query a request)."""
    if request is None or not hasattr(request, "session"):
        return
    chosen = people.ensure_player(user).language
    if chosen:
        request.session[languages.SESSION_KEY] = chosen
    else:
        request.session.pop(languages.SESSION_KEY, None)


class SafeNextMixin:
    """Django's login and logout pages follow ``next`` through ``core.web.safe_next``,
    like every other page, so one rule decides where any ``next`` may go."""

    request: HttpRequest

    def get_redirect_url(self, request: HttpRequest | None = None) -> str:
        return safe_next(request or self.request, "")


class SignInView(SafeNextMixin, LoginView):
    """The login page with the throttled form: after too many failed sign-ins, "Too many
    failed sign-ins: try again in N minutes" (``core.throttle``), even for the right
    password."""

    authentication_form = SignInForm


class SignOutView(SafeNextMixin, LogoutView):
    pass


#: Routed before ``django.contrib.auth.urls`` (``config/urls.py``), under the same names.
sign_in = SignInView.as_view()
sign_out = SignOutView.as_view()


def sign_up(request: HttpRequest) -> HttpResponse:
    # ``?code=``: a guest's claim code from a printed slip's link, filled in.
    form = SignUpForm(
        request.POST or None, initial={"claim_code": request.GET.get("code", "")[:40]}
    )
    if request.method == "POST" and form.is_valid():
        try:
            player = people.sign_up(**form.cleaned_data)
        except DomainError as error:
            add_form_error(form, error)
        else:
            login(request, player.user, backend="core.throttle.ThrottledModelBackend")
            messages.success(request, gettext("Welcome, %(name)s!") % {"name": player.display_name})
            return redirect(safe_next(request, reverse("home")))
    return render(request, "registration/signup.html", {"form": form})


@login_required
def profile(request: HttpRequest, claim_form: ClaimForm | None = None) -> HttpResponse:
    player = people.ensure_player(request.user)
    posted = request.POST if claim_form is None else None
    form = ProfileForm(
        posted or None,
        initial={
            "display_name": player.display_name,
            "language": player.language,
            "profile_hidden": player.profile_hidden,
        },
    )
    if request.method == "POST" and claim_form is None and form.is_valid():
        try:
            # The name and the language together: both saved or neither.
            chosen = people.update_profile(user=request.user, **form.cleaned_data).language
        except DomainError as error:
            add_form_error(form, error)
        else:
            # The new choice from this request on (the session holds the account's).
            if chosen:
                request.session[languages.SESSION_KEY] = chosen
                translation.activate(chosen)
            else:
                request.session.pop(languages.SESSION_KEY, None)
            messages.success(request, gettext("Profile saved."))
            return redirect("profile")
    registrations = list(selectors.registrations_of(player))
    return render(
        request,
        "tournaments/profile.html",
        {
            "form": form,
            "player": player,
            "registrations": registrations,
            # A guest's history can be claimed by an account without one of its own.
            "claim_form": claim_form or (None if registrations else ClaimForm()),
        },
    )


@login_required
def claim(request: HttpRequest) -> HttpResponse:
    """Claim a guest's history with its code (``guests.claim_guest``); a refusal is shown
    by the code's field on the profile page."""
    if request.method != "POST":
        return redirect("profile")
    form = ClaimForm(request.POST)
    if form.is_valid():
        try:
            player = guests.claim_guest(user=request.user, code=form.cleaned_data["claim_code"])
        except DomainError as error:
            add_form_error(form, error)
        else:
            messages.success(
                request,
                gettext("Welcome, %(name)s: the guest's results are yours now.")
                % {"name": player.display_name},
            )
            return redirect("profile")
    return profile(request, claim_form=form)
