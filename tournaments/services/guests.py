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
    raise Conflict(f"Could not add the guest {name!r}: try again.", code="guest_not_created")


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
    return InvalidInput(f"{detail} Nothing was added.", code=code, field=FIELD)


def _count_names(lines: list[str], *, team_event: bool) -> int:
    """How many names the lines hold, without cleaning them (a cheap first bound)."""
    count = 0
    for line in lines:
        if team_event and ":" in line:
            line = line.split(":", 1)[1]
        count += sum(1 for part in line.split(",") if part.strip())
    return count


def _parse_name(raw: str, number: int) -> Name:
    where = f"Line {number}"
    try:
        name = clean_name(raw, what=f"the name {raw.strip()[:40]!r}", field=FIELD)
    except InvalidInput as error:
        raise _refuse(f"{where}: {error.detail}", error.code) from None
    if name.startswith("@"):
        username = unicodedata.normalize("NFKC", name[1:]).strip()
        if not username:
            raise _refuse(f'{where}: write the user name after @ ("@ada").', "invalid_name")
        return Name(shown=name, username=username)
    if len(name) > NAME_MAX:
        raise _refuse(
            f"{where}: {name[:30]!r}… is longer than {NAME_MAX} characters.", "name_too_long"
        )
    return Name(shown=name, guest=name)


def parse_paste(names: str | Sequence[str], *, team_event: bool) -> list[Line]:
    """The entrants of a paste (see the module docstring), refused naming the line at
    fault: too many names, a name with control characters or too long, a team of three."""
    lines = _split_lines(names)
    count = _count_names(lines, team_event=team_event)
    if count > MAX_NAMES:
        raise _refuse(
            f"You pasted {count:,} names: at most {MAX_NAMES} can be added at a time. "
            "Split the list.",
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
                    raise _refuse(f"Line {number}: {error.detail}", error.code) from None
        members = tuple(_parse_name(p, number) for p in members_text.split(",") if p.strip())
        if not members:
            raise _refuse(
                f"Line {number}: name the team's players after the colon "
                '("Team name: Ada, Bruno").',
                "team_incomplete",
            )
        if len(members) > 2:
            raise _refuse(
                f"Line {number}: a team is two players, not {len(members)}.", "team_too_big"
            )
        entries.append(Line(members=members, team_name=team_name, number=number))
    if not entries:
        raise InvalidInput("Paste at least one name.", code="no_names", field=FIELD)
    _refuse_duplicates(entries)
    return entries


def _names(items: Iterable[str]) -> str:
    shown = sorted(set(items), key=str.casefold)
    text = ", ".join(shown[:10])
    return text + (f" and {len(shown) - 10} more" if len(shown) > 10 else "")


def _refuse_duplicates(entries: list[Line]) -> None:
    seen: dict[str, str] = {}
    twice: list[str] = []
    for entry in entries:
        for name in entry.members:
            if name.key in seen:
                twice.append(name.shown)
            seen.setdefault(name.key, name.shown)
    if twice:
        raise _refuse(f"These names are in the list twice: {_names(twice)}.", "duplicate_names")
    team_names = [e.team_name.casefold() for e in entries if e.team_name]
    clashes = {
        e.team_name for e in entries if e.team_name and team_names.count(e.team_name.casefold()) > 1
    }
    if clashes:
        raise _refuse(
            f"These team names are in the list twice: {_names(clashes)}.", "duplicate_names"
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
            f"No account is called {_names(unknown)}: check the spelling, or leave out the @ "
            "to add a guest. Nothing was added.",
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
            f"Already in {tournament.name}: {_names(names)}. Take them out of the list. "
            "Nothing was added.",
            code="already_registered",
            field=FIELD,
        )
    invited = Registration.objects.select_related("partner").filter(
        tournament=tournament, partner_id__in=ids, partner_accepted_at__isnull=True
    )
    names = {r.partner.display_name for r in invited if r.partner is not None}
    if names:
        raise Conflict(
            f"Invited to another team of {tournament.name}: {_names(names)}. They must "
            "decline first. Nothing was added.",
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
                f"These team names are taken in {tournament.name}: {_names(clash)}. "
                "Nothing was added.",
                code="team_name_taken",
                field=FIELD,
            )


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
            f"{tournament.name} has started: add late entrants one by one.",
            code="tournament_started",
        )
    room = (
        tournament.capacity
        - tournament.registrations.filter(status=RegistrationStatus.REGISTERED).count()
    )
    if len(entries) > room:
        what = "teams" if team_event else "players"
        raise Conflict(
            f"{tournament.name} has room for {max(room, 0)} more {what} (of "
            f"{tournament.capacity}); the list has {len(entries)}. Nothing was added.",
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
            raise _refuse(f"Two teams would be called {_names(twice)}.", "duplicate_names")
        others = (
            Registration.objects.annotate(lower_name=Lower("team_name"))
            .filter(tournament=tournament, status__in=_TAKEN)
            .exclude(pk__in=[r.pk for r in result.registrations])
            .filter(lower_name__in={n.lower() for n in made})
            .values_list("team_name", flat=True)
        )
        if others:
            raise Conflict(
                f"These team names are taken in {tournament.name}: {_names(others)}. "
                "Nothing was added.",
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
