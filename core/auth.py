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
"""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser, User

from core.errors import NotAllowed

AnyUser: TypeAlias = User | AnonymousUser
Actor: TypeAlias = User | AnonymousUser | None


def require_user(actor: AnyUser) -> User:
    """The actor's account; anonymous users are refused (403, ``not_logged_in``)."""
    if not actor.is_authenticated:
        raise NotAllowed("Log in first.", code="not_logged_in")
    return actor


def user_or_none(actor: Actor) -> User | None:
    """The account to store in a "by whom" column: None for the system and anonymous users."""
    return actor if actor is not None and actor.is_authenticated else None
