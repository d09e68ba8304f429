"""Guests: players an organiser adds by name, without an account; adding many players at
once from a pasted list; and a guest's history claimed by an account.

- A *guest* is a ``Player`` with no ``user``, added by a club (``Player.club``), with a
  random ``claim_code`` (10 characters of ``CLAIM_CODE_ALPHABET``, about 50 bits: not
  guessable) the organiser reads on the players list and hands over. A guest never acts
  themselves: organisers register and check them in, judges enter their results.
- **The same name is the same guest.** A guest's name pasted again in any tournament of the
  club is that guest again (case aside), as long as nobody claimed it: a club night's
  regulars collect one history, under one code. Two different people of one name are told
  apart by the organiser ("Alex B."). The database holds one unclaimed guest per name per
  club (``one_guest_name_per_club``), so two organisers pasting a new name at once make one.
- **A paste** (:func:`add_players_by_name`) is a list of lines: in a single-player event a
  line is names separated by commas; in a team event a line is one team,
  ``"Team name: Ada, Bruno"`` (or ``"Ada, Bruno"``, named "Ada & Bruno"; one member: a
  team looking for its teammate). A name is an account's user name after ``@``
  (``"@ada"``) or a guest's name. At most :data:`MAX_NAMES` names a paste; duplicate names,
  unknown accounts, players already in the tournament, team names taken, and a paste
  larger than the room left are refused naming them, and nothing is added: the whole paste
  is one transaction under the tournament's row lock (two organisers pasting at once take
  turns, the second sees the first's entrants).
- **Claiming** (:func:`claim_guest`, and sign-up with a code, ``people.sign_up``): the
  account becomes the guest's player, so its registrations, results and standings are the
  account's. A code works once (``claimed_at``); an account that already has a history
  (any registration, team or draft seat) cannot claim, since one person would then have
  two histories to merge: an organiser sorts that out.
- **Undoing a claim** (``claims.undo_claim``): an organiser of the guest's club gives a claimed
  guest's history back to the club (the code reached the wrong person): the player is a
  guest again under a new code, and the account starts afresh with an empty profile.
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext

from core.auth import AnyUser
from core.errors import Conflict, InvalidInput, NotFound
from core.text import clean_name
from tournaments.models import (
    Club,
    Player,
    Registration,
    RegistrationStatus,
    Tournament,
)
from tournaments.models.clubs import CLAIM_CODE_ALPHABET, CLAIM_CODE_LENGTH
from tournaments.selectors import policies
from tournaments.services import people, teams
from tournaments.services._entries import audit_entry, entrants_changed
from tournaments.services.locks import lock_tournament
from tournaments.services.page_versions import pages_changed

User = get_user_model()

#: The most names one paste adds (a big club night; the page and the API say so).
MAX_NAMES = 256
#: A player's display name, at most (``Player.display_name``).
NAME_MAX = 80
#: Entries whose members are taken: playing, or registered to play.
_TAKEN = (RegistrationStatus.REGISTERED, RegistrationStatus.DROPPED)
#: The form field and the API key the pasted names arrive in.
FIELD = "names"


# --- claim codes -----------------------------------------------------------------------------


def new_claim_code() -> str:
    return "".join(secrets.choice(CLAIM_CODE_ALPHABET) for _ in range(CLAIM_CODE_LENGTH))


# --- guests ----------------------------------------------------------------------------------


def _create_guest(club: Club, name: str) -> Player:
    """A new guest of the club, or the one another transaction just made with this name
    (the unique constraint waits for it; a savepoint keeps ours usable)."""
    for _ in range(3):  # a clash of random codes is all but impossible; try again anyway
        try:
            with transaction.atomic():
                return Player.objects.create(
                    display_name=name, club=club, user=None, claim_code=new_claim_code()
                )
        except IntegrityError:
            existing = Player.objects.filter(
                club=club, user__isnull=True, display_name__iexact=name
            ).first()
            if existing is not None:
                return existing
    raise Conflict(
        gettext("Could not add the guest %(name)s: try again.") % {"name": repr(name)},
        code="guest_not_created",
    )


# --- parsing a paste -------------------------------------------------------------------------


@dataclass(frozen=True)
class Name:
    """One name of a paste: an account (``username``) or a guest (``guest``)."""

    shown: str
    username: str = ""
    guest: str = ""

    @property
    def key(self) -> str:
        """Two names are the same person when their keys match."""
        return "@" + self.username.casefold() if self.username else self.guest.casefold()


@dataclass(frozen=True)
class Line:
    """One entrant of a paste: a player, or a team (``team_name``; one or two members)."""

    members: tuple[Name, ...]
    team_name: str = ""
    number: int = 0


def _split_lines(names: str | Sequence[str]) -> list[str]:
    if isinstance(names, str):
        return names.splitlines()
    return [line for item in names for line in str(item).splitlines() or [""]]


def _refuse(detail: str, code: str) -> InvalidInput:
    """A paste refused (``detail`` a whole sentence, saying that nothing was added)."""
    return InvalidInput(detail, code=code, field=FIELD)


def _refuse_line(number: int, problem: str, code: str) -> InvalidInput:
    """A paste refused for a line, with another check's words (``problem``)."""
    return _refuse(
        gettext("Line %(line)d: %(problem)s Nothing was added.")
        % {"line": number, "problem": problem},
        code,
    )


def _count_names(lines: list[str], *, team_event: bool) -> int:
    """How many names the lines hold, without cleaning them (a cheap first bound)."""
    count = 0
    for line in lines:
        if team_event and ":" in line:
            line = line.split(":", 1)[1]
        count += sum(1 for part in line.split(",") if part.strip())
    return count


def _parse_name(raw: str, number: int) -> Name:
    what = gettext("the name %(name)s") % {"name": repr(raw.strip()[:40])}
    try:
        name = clean_name(raw, what=what, field=FIELD)
    except InvalidInput as error:
        raise _refuse_line(number, error.detail, error.code) from None
    if name.startswith("@"):
        username = unicodedata.normalize("NFKC", name[1:]).strip()
        if not username:
            raise _refuse(
                gettext('Line %(line)d: write the user name after @ ("@ada"). Nothing was added.')
                % {"line": number},
                "invalid_name",
            )
        return Name(shown=name, username=username)
    if len(name) > NAME_MAX:
        raise _refuse(
            ngettext(
                "Line %(line)d: %(name)s… is longer than %(most)d character. Nothing was added.",
                "Line %(line)d: %(name)s… is longer than %(most)d characters. Nothing was added.",
                NAME_MAX,
            )
            % {"line": number, "name": repr(name[:30]), "most": NAME_MAX},
            "name_too_long",
        )
    return Name(shown=name, guest=name)


def parse_paste(names: str | Sequence[str], *, team_event: bool) -> list[Line]:
    """The entrants of a paste (see the module docstring), refused naming the line at
    fault: too many names, a name with control characters or too long, a team of three."""
    lines = _split_lines(names)
    count = _count_names(lines, team_event=team_event)
    if count > MAX_NAMES:
        raise _refuse(
            ngettext(
                "You pasted %(count)s name: at most %(most)d can be added at a time. Split "
                "the list. Nothing was added.",
                "You pasted %(count)s names: at most %(most)d can be added at a time. Split "
                "the list. Nothing was added.",
                count,
            )
            % {"count": number_format(count, force_grouping=True), "most": MAX_NAMES},
            "too_many_names",
        )
    entries: list[Line] = []
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        if not team_event:
            entries.extend(
                Line(members=(_parse_name(part, number),), number=number)
                for part in raw.split(",")
                if part.strip()
            )
            continue
        team_name = ""
        members_text = raw
        if ":" in raw:
            head, members_text = raw.split(":", 1)
            if head.strip():
                try:
                    team_name = teams.clean_team_name(head, field=FIELD)
                except InvalidInput as error:
                    raise _refuse_line(number, error.detail, error.code) from None
        members = tuple(_parse_name(p, number) for p in members_text.split(",") if p.strip())
        if not members:
            raise _refuse(
                gettext(
                    "Line %(line)d: name the team's players after the colon "
                    '("Team name: Ada, Bruno"). Nothing was added.'
                )
                % {"line": number},
                "team_incomplete",
            )
        if len(members) > 2:
            raise _refuse(
                gettext("Line %(line)d: a team is two players, not %(count)d. Nothing was added.")
                % {"line": number, "count": len(members)},
                "team_too_big",
            )
        entries.append(Line(members=members, team_name=team_name, number=number))
    if not entries:
        raise InvalidInput(gettext("Paste at least one name."), code="no_names", field=FIELD)
    _refuse_duplicates(entries)
    return entries


def _names(items: Iterable[str]) -> str:
    """The names as a sentence lists them: ten at most, then how many more."""
    shown = sorted(set(items), key=str.casefold)
    text = ", ".join(shown[:10])
    if len(shown) <= 10:
        return text
    more = len(shown) - 10
    return ngettext("%(names)s and %(count)d more", "%(names)s and %(count)d more", more) % {
        "names": text,
        "count": more,
    }


def _refuse_duplicates(entries: list[Line]) -> None:
    seen: dict[str, str] = {}
    twice: list[str] = []
    for entry in entries:
        for name in entry.members:
            if name.key in seen:
                twice.append(name.shown)
            seen.setdefault(name.key, name.shown)
    if twice:
        raise _refuse(
            gettext("These names are in the list twice: %(names)s. Nothing was added.")
            % {"names": _names(twice)},
            "duplicate_names",
        )
    team_names = [e.team_name.casefold() for e in entries if e.team_name]
    clashes = {
        e.team_name for e in entries if e.team_name and team_names.count(e.team_name.casefold()) > 1
    }
    if clashes:
        raise _refuse(
            gettext("These team names are in the list twice: %(names)s. Nothing was added.")
            % {"names": _names(clashes)},
            "duplicate_names",
        )


# --- adding a paste --------------------------------------------------------------------------


@dataclass
class BulkAdded:
    """What a paste added: the registrations, and how many guests were new or known."""

    registrations: list[Registration] = field(default_factory=list)
    new_guests: int = 0
    known_guests: int = 0

    @property
    def count(self) -> int:
        return len(self.registrations)


def _account_players(usernames: set[str]) -> dict[str, Player]:
    """The players of the accounts named (by casefolded name), made on first use; refuses
    the unknown ones by name."""
    if not usernames:
        return {}
    lowered = {u.casefold() for u in usernames}
    users = {
        u.username.casefold(): u
        for u in User.objects.annotate(lower_name=Lower("username")).filter(
            lower_name__in={u.lower() for u in usernames}
        )
    }
    unknown = [f"@{u}" for u in usernames if u.casefold() not in users]
    if unknown:
        raise NotFound(
            gettext(
                "No account is called %(names)s: check the spelling, or leave out the @ to "
                "add a guest. Nothing was added."
            )
            % {"names": _names(unknown)},
            code="unknown_user",
            field=FIELD,
        )
    players = {p.user_id: p for p in Player.objects.filter(user__in=list(users.values()))}
    result: dict[str, Player] = {}
    for key in lowered:
        user = users[key]
        player = players.get(user.pk)
        if player is None:  # an account that never had a player profile (made elsewhere)
            player, _ = Player.objects.get_or_create(
                user=user, defaults={"display_name": user.get_username()[:NAME_MAX]}
            )
        result[key] = player
    return result


def _known_guests(club: Club, names: set[str]) -> dict[str, Player]:
    """The club's unclaimed guests of these names, by casefolded name."""
    if not names:
        return {}
    found: dict[str, Player] = {}
    for player in (
        Player.objects.annotate(lower_name=Lower("display_name"))
        .filter(club=club, user__isnull=True, lower_name__in={n.lower() for n in names})
        .order_by("pk")
    ):
        found.setdefault(player.display_name.casefold(), player)
    return found


def _refuse_taken(tournament: Tournament, players: list[Player], entries: list[Line]) -> None:
    """Players already in the tournament, teammates invited elsewhere, team names taken."""
    ids = [p.pk for p in players]
    if not ids:
        return
    taken = Registration.objects.select_related("player", "partner").filter(
        Q(player_id__in=ids) | Q(partner_id__in=ids, partner_accepted_at__isnull=False),
        tournament=tournament,
        status__in=_TAKEN,
    )
    names = set()
    for reg in taken:
        for member in reg.members:
            if member.pk in ids:
                names.add(member.display_name)
    if names:
        raise Conflict(
            gettext(
                "Already in %(tournament)s: %(names)s. Take them out of the list. Nothing was "
                "added."
            )
            % {"tournament": tournament.name, "names": _names(names)},
            code="already_registered",
            field=FIELD,
        )
    invited = Registration.objects.select_related("partner").filter(
        tournament=tournament, partner_id__in=ids, partner_accepted_at__isnull=True
    )
    names = {r.partner.display_name for r in invited if r.partner is not None}
    if names:
        raise Conflict(
            gettext(
                "Invited to another team of %(tournament)s: %(names)s. They must decline "
                "first. Nothing was added."
            )
            % {"tournament": tournament.name, "names": _names(names)},
            code="already_invited",
            field=FIELD,
        )
    team_names = {e.team_name.lower() for e in entries if e.team_name}
    if team_names:
        clash = (
            Registration.objects.annotate(lower_name=Lower("team_name"))
            .filter(tournament=tournament, status__in=_TAKEN, lower_name__in=team_names)
            .values_list("team_name", flat=True)
        )
        if clash:
            raise Conflict(
                _names_taken(tournament, clash),
                code="team_name_taken",
                field=FIELD,
            )


def _names_taken(tournament: Tournament, names: Iterable[str]) -> str:
    return gettext(
        "These team names are taken in %(tournament)s: %(names)s. Nothing was added."
    ) % {"tournament": tournament.name, "names": _names(names)}


@transaction.atomic(durable=True)
def add_players_by_name(
    *, actor: AnyUser, tournament: Tournament, names: str | Sequence[str]
) -> BulkAdded:
    """An organiser adds many entrants at once from pasted names (the module docstring):
    all of them, or none with the reason naming who is at fault."""
    policies.require_manager(actor, tournament.club)
    team_event = teams.is_team_event(tournament)
    entries = parse_paste(names, team_event=team_event)
    tournament = lock_tournament(tournament.pk)
    if not policies.tournament_in_setup(tournament):
        raise Conflict(
            gettext("%(tournament)s has started: add late entrants one by one.")
            % {"tournament": tournament.name},
            code="tournament_started",
        )
    room = (
        tournament.capacity
        - tournament.registrations.filter(status=RegistrationStatus.REGISTERED).count()
    )
    if len(entries) > room:
        left = max(room, 0)
        words = (
            ngettext(
                "%(tournament)s has room for %(count)d more team (of %(capacity)d); the list "
                "has %(listed)d. Nothing was added.",
                "%(tournament)s has room for %(count)d more teams (of %(capacity)d); the list "
                "has %(listed)d. Nothing was added.",
                left,
            )
            if team_event
            else ngettext(
                "%(tournament)s has room for %(count)d more player (of %(capacity)d); the "
                "list has %(listed)d. Nothing was added.",
                "%(tournament)s has room for %(count)d more players (of %(capacity)d); the "
                "list has %(listed)d. Nothing was added.",
                left,
            )
        )
        raise Conflict(
            words
            % {
                "tournament": tournament.name,
                "count": left,
                "capacity": tournament.capacity,
                "listed": len(entries),
            },
            code="tournament_full",
            field=FIELD,
        )
    members = [name for entry in entries for name in entry.members]
    accounts = _account_players({n.username for n in members if n.username})
    guests = _known_guests(tournament.club, {n.guest for n in members if n.guest})
    known = list(accounts.values()) + list(guests.values())
    _refuse_taken(tournament, known, entries)

    result = BulkAdded()
    players: dict[str, Player] = {}
    for name in members:
        if name.username:
            players[name.key] = accounts[name.username.casefold()]
        elif name.guest.casefold() in guests:
            players[name.key] = guests[name.guest.casefold()]
            result.known_guests += 1
        else:
            players[name.key] = _create_guest(tournament.club, name.guest)
            result.new_guests += 1

    now = timezone.now()
    captains = [players[e.members[0].key] for e in entries]
    withdrawn = {
        r.player_id: r
        for r in Registration.objects.filter(tournament=tournament, player__in=captains)
    }
    for entry, captain in zip(entries, captains, strict=True):
        partner = players[entry.members[1].key] if len(entry.members) > 1 else None
        team_name = ""
        if team_event:
            team_name = entry.team_name or teams.default_team_name(captain, partner)
        reg = withdrawn.get(captain.pk) or Registration(tournament=tournament, player=captain)
        before = None if reg.pk is None else {"status": reg.status}
        reg.status = RegistrationStatus.REGISTERED
        reg.registered_at = now
        reg.team_name = team_name
        reg.partner = partner
        reg.partner_accepted_at = now if partner is not None else None
        reg.checked_in_at = reg.player_checked_in_at = reg.partner_checked_in_at = None
        reg.dropped_after_round = None
        reg.save()
        audit_entry(
            actor,
            reg,
            tournament,
            action="registration.added_by_organiser",
            params={"entrant": reg.name, "tournament": tournament.name, "from_list": True},
            before=before,
        )
        result.registrations.append(reg)
    if team_event:  # default names ("Ada & Bruno") are checked once made
        made = [r.team_name for r in result.registrations]
        twice = {n for n in made if [m.casefold() for m in made].count(n.casefold()) > 1}
        if twice:
            raise _refuse(
                gettext("Two teams would be called %(names)s. Nothing was added.")
                % {"names": _names(twice)},
                "duplicate_names",
            )
        others = (
            Registration.objects.annotate(lower_name=Lower("team_name"))
            .filter(tournament=tournament, status__in=_TAKEN)
            .exclude(pk__in=[r.pk for r in result.registrations])
            .filter(lower_name__in={n.lower() for n in made})
            .values_list("team_name", flat=True)
        )
        if others:
            raise Conflict(
                _names_taken(tournament, others),
                code="team_name_taken",
                field=FIELD,
            )
    entrants_changed(result.registrations)  # an organiser may have entered themselves
    pages_changed(tournament.pk)
    return result


# --- claiming --------------------------------------------------------------------------------


@transaction.atomic(durable=True)
def claim_guest(*, user: AnyUser, code: str) -> Player:
    """A logged-in user with no history takes a guest's (the profile page;
    ``people.attach_guest``)."""
    return people.attach_guest(user=user, code=code)
