"""Pages about people: the home page, signing up, the profile."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from core.errors import DomainError
from core.web import add_form_error, safe_next
from tournaments import selectors
from tournaments.services import people
from tournaments.web.forms import (
    ProfileForm,
    SignUpForm,
)


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/home.html", selectors.home_page(request.user))


def sign_up(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = people.sign_up(**form.cleaned_data)
        except DomainError as error:
            add_form_error(form, error)
        else:
            login(request, player.user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {player.display_name}!")
            return redirect(safe_next(request, reverse("home")))
    return render(request, "registration/signup.html", {"form": form})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    player = people.ensure_player(request.user)
    form = ProfileForm(request.POST or None, initial={"display_name": player.display_name})
    if request.method == "POST" and form.is_valid():
        try:
            people.update_profile(user=request.user, **form.cleaned_data)
        except DomainError as error:
            add_form_error(form, error)
        else:
            messages.success(request, "Profile saved.")
            return redirect("profile")
    registrations = selectors.registrations_of(player)
    return render(
        request,
        "tournaments/profile.html",
        {"form": form, "player": player, "registrations": registrations},
    )
