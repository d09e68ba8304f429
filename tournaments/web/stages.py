"""Stage pages: the stages of a tournament (adding a top cut or a bracket), a bracket, and
the settings of the tournament's Swiss stage."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext

from core.errors import DomainError, NotFound
from core.web import add_form_error
from tournaments import selectors
from tournaments.models import StageStatus
from tournaments.selectors import brackets as bracket_reads
from tournaments.selectors import policies
from tournaments.selectors import round_robins as round_robin_reads
from tournaments.selectors.rounds import entrant_of
from tournaments.selectors.timer import round_clock
from tournaments.selectors.tournaments import stages_with_rounds
from tournaments.services import brackets, swiss
from tournaments.web.bracket_svg import bracket_svg
from tournaments.web.common import tournament_context, tournament_for
from tournaments.web.forms import (
    EliminationStageForm,
    SwissSettingsForm,
)


@login_required
def swiss_settings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_for(request, pk)
    if not policies.can_manage_club(request.user, tournament.club):
        raise Http404
    try:
        settings = selectors.swiss_settings_of(tournament)
    except NotFound:
        # The tabs offer "Settings" to every organiser; a bracket or a pods event has no
        # Swiss stage, and its stages are set up on the stages page.
        messages.info(
            request, gettext("This tournament has no Swiss rounds: its stages are set here.")
        )
        return redirect("stages", pk=pk)
    form = SwissSettingsForm(request.POST or None, instance=settings, game=tournament.game)
    if request.method == "POST" and form.is_valid():
        try:
            swiss.update_swiss_settings(
                actor=request.user,
                tournament=tournament,
                changes={name: form.cleaned_data[name] for name in form.changed_data},
            )
        except DomainError as error:
            form.add_error(error.field if error.field in form.fields else None, error.detail)
        else:
            messages.success(request, gettext("Swiss settings saved."))
            return redirect("tournament-detail", pk=pk)
    return render(
        request,
        "tournaments/swiss_settings.html",
        {**tournament_context(request, tournament), "form": form},
    )


def stage_list(request: HttpRequest, pk: int) -> HttpResponse:
    """The tournament's stages in order, each bracket linked; organisers add a top cut (or,
    before the start, make the event a bracket)."""
    tournament = tournament_for(request, pk)
    context = tournament_context(request, tournament)
    may_add = policies.may_add_stage(request.user, tournament)
    form = None
    if may_add:
        form = EliminationStageForm(request.POST or None, started=context["started"])
        if request.method == "POST":
            if not request.user.is_authenticated:
                raise Http404
            if form.is_valid():
                data = dict(form.cleaned_data)
                data.setdefault("position", brackets.AFTER)
                data["cycles"] = data.get("cycles") or 1
                data["groups"] = data.get("groups") or 1
                try:
                    stage = brackets.add_stage(actor=request.user, tournament=tournament, **data)
                except DomainError as error:
                    add_form_error(form, error)
                else:
                    messages.success(request, gettext("%(stage)s added.") % {"stage": stage.label})
                    return redirect("stages", pk=pk)
    elif request.method == "POST":
        raise Http404
    return render(
        request,
        "tournaments/stages.html",
        {
            **context,
            "stages": [
                (
                    stage,
                    bracket_reads.describe_cut(stage),
                    [r.number for r in stage.rounds.all()],
                    bracket_reads.stage_page(stage),
                )
                for stage in stages_with_rounds(tournament)
            ],
            "form": form,
        },
    )


def bracket(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A bracket drawn as it stands, the player's next match, the places decided; htmx asks
    for the drawing again after a change and every minute (``?part=drawing``), with the
    rest of the page a result changes."""
    tournament = tournament_for(request, pk)
    try:
        stage = bracket_reads.stage_of(tournament, number)
    except DomainError:
        raise Http404 from None
    view = bracket_reads.bracket_view(stage)
    # The viewer's entrant: theirs, or their team's (either member's).
    mine = entrant_of(request.user.pk, view.entrants.values())
    drawing = None
    if view.bracket is not None and view.state is not None:
        drawing = bracket_svg(
            view.bracket,
            view.state,
            view.names(),
            seeds=view.seeds,
            scores={
                key: (str(m.games_a), str(m.games_b))
                for key, m in view.matches.items()
                if m.status == "confirmed"
            },
            links={
                key: reverse("match", args=[tournament.pk, m.pk]) for key, m in view.matches.items()
            },
            highlight=mine,
            title=gettext("%(tournament)s: %(stage)s")
            % {"tournament": tournament.name, "stage": stage.label},
        )
    context = {
        "stage": stage,
        "stage_live": stage.status == StageStatus.RUNNING,
        "stage_decided": stage.status == StageStatus.COMPLETE,
        "view": view,
        "drawing": drawing,
        "my_next": view.next_match_of(mine) if mine is not None else None,
        "ready": [
            (
                view.matches[key],
                view.name(view.matches[key].a_id),
                view.name(view.matches[key].b_id),
            )
            for key in (view.state.ready if view.state else ())
            if key in view.matches
        ],
        "placements": [
            (place, view.name(entrant))
            for entrant, place in sorted(
                (view.state.placements.items() if view.state else ()), key=lambda item: item[1]
            )
        ],
    }
    if request.GET.get("part") == "drawing":
        # The live page's redraw: the drawing, and out of band the rest of what a result
        # changes (the next match, "Ready to play", the places, the round clock).
        live = stage.status == StageStatus.RUNNING
        current = selectors.current_round(tournament) if live else None
        return render(
            request,
            "tournaments/_bracket_redraw.html",
            {
                **context,
                "tournament": tournament,
                "clock": round_clock(current),
                "latest_event": selectors.tournament_events(tournament).first() if live else None,
            },
        )
    return render(
        request, "tournaments/bracket.html", {**tournament_context(request, tournament), **context}
    )


def round_robin_grid(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A round robin's grid: who beat whom, what is still to play, in standings order."""
    tournament = tournament_for(request, pk)
    try:
        stage = round_robin_reads.stage_of(tournament, number)
    except DomainError:
        raise Http404 from None
    groups = round_robin_reads.grid(stage, tournament)
    if request.GET.get("part") == "groups":  # the live page asks again after a change
        return render(
            request,
            "tournaments/_round_robin_groups.html",
            {"tournament": tournament, "stage": stage, "groups": groups},
        )
    return render(
        request,
        "tournaments/round_robin.html",
        {
            **tournament_context(request, tournament),
            "stage": stage,
            "stage_live": stage.status == StageStatus.RUNNING,
            "groups": groups,
        },
    )
