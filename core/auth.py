"""Who is acting: the types the services take for "the user of this request".

- :data:`AnyUser` is what ``request.user`` is (the django-stubs plugin types it so): an
  account (``User``, ``AUTH_USER_MODEL``) or ``AnonymousUser``. A service that decides
  through ``policies`` (club roles, "is this your registration") takes an ``AnyUser``: an
  anonymous caller simply has no role and is refused like any other outsider.
- :data:`Actor` is an ``AnyUser`` or ``None``, the system itself (a clock job, a timer):
  what the audit log records as "who".
- :func:`require_user` is for the services that need a real account (a player profile, a
  club of their own, a membership, an invitation): anonymous callers are refused
  with ``NotAllowed("Log in first.", code="not_logged_in")``, and the type is narrowed to
  ``User`` for the rest of the service.

``is_authenticated`` is ``Literal[True]`` on ``User`` and ``Literal[False]`` on
``AnonymousUser`` (django-stubs), so ``if not user.is_authenticated: return`` narrows an
``AnyUser`` to ``User`` for the type checker as well.

The pages and the API already ask for a login before they call such services; the check
here keeps a service correct whoever calls it (a shell, a task, a future edge).

:class:`TokenAuthentication` is how the API finds a token's account (settings,
``DEFAULT_AUTHENTICATION_CLASSES``): here, not in ``core.api``, as DRF loads its
authentication classes while ``rest_framework.views`` (which ``core.api`` imports) loads.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions

from core.compiled import rows
from core.errors import NotAllowed

AnyUser: TypeAlias = User | AnonymousUser
Actor: TypeAlias = User | AnonymousUser | None


def require_user(actor: AnyUser) -> User:
    """The actor's account; anonymous users are refused (403, ``not_logged_in``)."""
    if not actor.is_authenticated:
        raise NotAllowed(_("Log in first."), code="not_logged_in")
    return actor


def user_or_none(actor: Actor) -> User | None:
    """The account to store in a "by whom" column: None for the system and anonymous users."""
    return actor if actor is not None and actor.is_authenticated else None


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication, its token's lookup (with the user and what
    ``settings.AUTH_USER_SELECT_RELATED`` adds) compiled once a thread (``core.compiled``):
    every bot's and app's request makes it."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        related = ("user", *(f"user__{r}" for r in settings.AUTH_USER_SELECT_RELATED))
        found = rows(f"api.token with {related}", _token_with(self.get_model(), related), key)
        if not found:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token = found[0]
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token


def _token_with(model: Any, related: tuple[str, ...]) -> Any:
    return lambda key: model.objects.select_related(*related).filter(key=key)
