"""People: accounts and their player profiles (a display name), and an account taking a
guest's history with the guest's claim code (``attach_guest``; what a guest is:
``services.guests``).

Each public entry point is one durable transaction; ``ensure_player`` is a helper that
other services call inside theirs.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from core import access, text
from core.audit import record_audit
from core.auth import AnyUser, require_user
from core.errors import Conflict, InvalidInput
from core.languages import require_language
from core.locks import lock_one
from tournaments.models import AccountName, Player
from tournaments.models.clubs import CLAIM_CODE_ALPHABET, CLAIM_CODE_LENGTH
from tournaments.services.page_versions import player_pages_changed

User = get_user_model()


def ensure_player(user: AnyUser) -> Player:
    """The user's player profile, created with their username as display name if missing
    (anonymous users have none: refused, ``not_logged_in``)."""
    user = require_user(user)
    player = Player.objects.filter(user=user).first()
    if player is None:
        player, _ = Player.objects.get_or_create(
            user=user, defaults={"display_name": user.get_username()}
        )
    return player


@transaction.atomic(durable=True)
def sign_up(
    *, username: str, email: str, password: str, display_name: str = "", claim_code: str = ""
) -> Player:
    """Create an account and its player profile; with a guest's ``claim_code``, the guest's
    player becomes the account's (``attach_guest``: its history is theirs), or
    nothing is created when the code is wrong or used.

    The user name is NFKC-normalised and may hold only letters, digits and ``. _ - @ +``
    (``core.text.normalise_username``); it is taken when another account has the same
    name in any case (so neither ``Admin`` nor full-width ``ADMIN`` is a second ``admin``);
    a name mixing alphabets is refused (``mixed_scripts``), and so is one that looks like
    another account's (``username_looks_alike``: ``ORGANİSER`` beside ``organiser``,
    compared on ``core.text.username_skeleton``; the skeleton is stored unique,
    ``AccountName``, so two such sign-ups at once cannot both pass).
    The password must pass ``AUTH_PASSWORD_VALIDATORS`` (not ``password``, ``12345678``,
    nor the user name). The display name is cleaned like every name (``clean_name``).
    """
    username = text.normalise_username(username, field="username")
    display_name = text.clean_name(
        display_name, what=gettext("the display name"), field="display_name"
    )
    if User.objects.filter(username__iexact=username).exists():
        raise Conflict(gettext("That user name is taken."), code="username_taken", field="username")
    skeleton = _refuse_look_alike(username)
    try:
        password_validation.validate_password(password, user=User(username=username, email=email))
    except ValidationError as error:
        raise InvalidInput(
            " ".join(error.messages), code="weak_password", field="password"
        ) from None
    if claim_code.strip():  # refused before anything is made (checked again under lock)
        normalise_claim_code(claim_code)
    user = User.objects.create_user(username=username, email=email, password=password)
    try:
        with transaction.atomic():
            AccountName.objects.create(user=user, skeleton=skeleton)
    except IntegrityError:  # a look-alike name signed up a moment ago
        raise _looks_alike() from None
    if claim_code.strip():
        return attach_guest(user=user, code=claim_code, display_name=display_name)
    player = Player.objects.create(user=user, display_name=display_name[:80] or username[:80])
    return player


def _looks_alike() -> Conflict:
    return Conflict(
        gettext("That name looks like another player's: choose another."),
        code="username_looks_alike",
        field="username",
    )


def _refuse_look_alike(username: str) -> str:
    """``username``'s skeleton, refused when an account's looks the same: the stored
    skeletons, and the names of the few accounts made without one (by the admin,
    ``createsuperuser``)."""
    skeleton = text.username_skeleton(username)
    unnamed = User.objects.filter(account_name__isnull=True).values_list("username", flat=True)
    if AccountName.objects.filter(skeleton=skeleton).exists() or any(
        text.username_skeleton(name) == skeleton for name in unnamed.iterator()
    ):
        raise _looks_alike()
    return skeleton


@transaction.atomic(durable=True)
def update_profile(
    *,
    user: AnyUser,
    display_name: str,
    language: str | None = None,
    profile_hidden: bool | None = None,
) -> Player:
    """The profile page's save: the display name and, when given, the language ("" for
    the browser's) and whether the player page is hidden, in one transaction (all or
    none)."""
    display_name = text.clean_name(
        display_name, what=gettext("the display name"), field="display_name"
    )
    user = require_user(user)
    if not display_name:
        raise InvalidInput(gettext("A display name cannot be empty."), field="display_name")
    if language is not None:
        language = require_language(language, blank=True)
    player = ensure_player(user)
    before = {"display_name": player.display_name}
    player.display_name = display_name[:80]
    player.save(update_fields=["display_name"])
    record_audit(
        actor=user,
        action="player.renamed",
        params={"old": before["display_name"], "new": player.display_name},
        obj=player,
        before=before,
        after={"display_name": player.display_name},
    )
    player_pages_changed(player.pk)
    if language is not None:
        _set_language(user, player, language)
    if profile_hidden is not None:
        _set_profile_hidden(user, player, profile_hidden)
    return player


@transaction.atomic(durable=True)
def set_language(*, user: AnyUser, language: str) -> Player:
    """The language the user reads the site in on every device (one of the site's, or
    "" for their browser's); audited."""
    language = require_language(language, blank=True)
    user = require_user(user)
    player = ensure_player(user)
    _set_language(user, player, language)
    return player


@transaction.atomic(durable=True)
def set_profile_hidden(*, user: AnyUser, hidden: bool) -> Player:
    """The player hides their life across events, or shows it again (issue 26:
    ``Player.profile_hidden``: their player page, history and ratings are private, and
    club-wide lists withhold their name); audited. The same choice again changes nothing
    and records nothing."""
    user = require_user(user)
    player = ensure_player(user)
    _set_profile_hidden(user, player, bool(hidden))
    return player


def _set_profile_hidden(user: AnyUser, player: Player, hidden: bool) -> None:
    if player.profile_hidden == hidden:
        return
    player.profile_hidden = hidden
    player.save(update_fields=["profile_hidden"])
    record_audit(
        actor=user,
        action="player.profile_hidden" if hidden else "player.profile_shown",
        params={},
        obj=player,
        before={"profile_hidden": not hidden},
        after={"profile_hidden": hidden},
    )


def _set_language(user: AnyUser, player: Player, language: str) -> None:
    before = player.language
    if before == language:
        return
    player.language = language
    player.save(update_fields=["language"])
    record_audit(
        actor=user,
        action="player.language_set",
        params={"language": language},
        obj=player,
        before={"language": before},
        after={"language": language},
    )


# --- a guest's history claimed (``services.guests`` says what a guest is) ---------------


def normalise_claim_code(raw: str, *, field: str = "claim_code") -> str:
    """A typed code as stored: capitals, without the spaces and dashes people type in
    (``"abcde-fghjk"``); refused (``invalid_claim_code``) when it cannot be a code."""
    code = "".join(ch for ch in (raw or "").upper() if ch not in " -\t")
    if len(code) != CLAIM_CODE_LENGTH or any(ch not in CLAIM_CODE_ALPHABET for ch in code):
        raise InvalidInput(
            gettext(
                "A claim code is %(length)d letters and digits, as your organiser gave it (no "
                "0, 1, I, L or O): check it and try again."
            )
            % {"length": CLAIM_CODE_LENGTH},
            code="invalid_claim_code",
            field=field,
        )
    return code


def attach_guest(*, user: AnyUser, code: str, display_name: str = "") -> Player:
    """The account becomes the guest's player (inside the caller's transaction: sign-up
    makes the account and claims in one). Locks the guest's row, then the account's own
    player (if any), so two claims of one code take turns and the second finds it used."""
    user = require_user(user)
    code = normalise_claim_code(code)
    guest = lock_one(Player, claim_code=code)
    if guest is None:
        raise InvalidInput(
            gettext("No guest has this claim code: check it with your organiser."),
            code="unknown_claim_code",
            field="claim_code",
        )
    if guest.user_id is not None:
        raise Conflict(
            gettext("This claim code was used already: each code works once."),
            code="claim_code_used",
            field="claim_code",
        )
    own = lock_one(Player, user=user)
    if own is not None:
        if own.registrations.exists() or own.partnerships.exists() or own.draft_seats.exists():
            raise Conflict(
                gettext(
                    "Your account already has a tournament history (as %(name)s), so it "
                    "cannot take a guest's too: ask an organiser of the club."
                )
                % {"name": own.display_name},
                code="has_history",
                field="claim_code",
            )
        own.delete()  # an empty profile: the guest's becomes the account's
    guest.user = user
    guest.claimed_at = timezone.now()
    if display_name:
        guest.display_name = display_name[:80]
    try:
        with transaction.atomic():
            guest.save(update_fields=["user", "claimed_at", "display_name"])
    except IntegrityError:  # the account claimed another guest a moment ago
        raise Conflict(
            gettext("Your account has just claimed another guest's history."),
            code="has_history",
            field="claim_code",
        ) from None
    record_audit(
        actor=user,
        action="player.claimed",
        params={"user": user.get_username(), "guest": guest.display_name},
        obj=guest,
        club=guest.club,
        after={"user": user.get_username(), "display_name": guest.display_name},
    )
    access.changed([user.pk])  # the guest's entries are theirs now (core.access)
    player_pages_changed(guest.pk)
    return guest
