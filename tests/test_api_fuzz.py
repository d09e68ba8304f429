"""Schemathesis fuzzes every API operation from the OpenAPI schema: no input may cause a
500, and every response is one the schema documents (its status code, content type and
body: a created club once lacked two fields its schema requires).

Each operation gets Schemathesis' coverage phase (every boundary, wrong type, missing
field and unexpected method the schema implies) plus ``FUZZ_EXAMPLES`` random cases
(default 10), which keeps the whole file under two minutes. Requests are sent as a
logged-in club owner, so write operations get past auth, and reads anonymously as well
(an anonymous write is refused before its body is read).

Two ways to run it:

- ``make test`` runs a fixed set of cases, the same on every run (Hypothesis derandomized,
  no database of examples): a red run means a new defect, never an unlucky draw.
- ``make fuzz`` (``FUZZ_EXPLORE=1``) explores: new random cases on every run
  (``FUZZ_EXAMPLES``, default 25 per operation), and a failure it finds is kept in
  Hypothesis' database of examples (``.hypothesis/``) and tried first next time. CI runs
  it without letting it decide the build; what it finds becomes a fix and a pinned case."""

from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
EXPLORE = os.environ.get("FUZZ_EXPLORE", "") not in ("", "0")
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "25" if EXPLORE else "10"))
FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
    ],
    # Exploring keeps Hypothesis' defaults (random, with the database of examples);
    # otherwise the same cases every run.
    **({} if EXPLORE else {"derandomize": True, "database": None}),
)
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """Like Django's test client: a request must not close the test's transaction."""
    from django.core import signals
    from django.db import close_old_connections

    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (signals.request_started, signals.request_finished):
        signal.connect(close_old_connections)


@pytest.fixture
def auth_headers(db) -> dict[str, str]:
    from rest_framework.authtoken.models import Token

    from tests.factories import RegistrationFactory, UserFactory, member
    from tournaments.models import Role

    registration = RegistrationFactory()
    owner = member(registration.tournament.club, Role.OWNER)
    UserFactory(username="string")  # a name the generator likes to produce
    token, _ = Token.objects.get_or_create(user=owner)
    return {"Authorization": f"Token {token.key}"}


@pytest.mark.fuzz
@pytest.mark.django_db
@schema.parametrize()
@FUZZ_SETTINGS
def test_no_input_causes_a_server_error(case, auth_headers) -> None:
    if case.method.upper() == "GET":
        case.call_and_validate(checks=CHECKS)
    case.call_and_validate(headers=auth_headers, checks=CHECKS)


@pytest.mark.skipif(EXPLORE, reason="exploring: new cases on purpose")
def test_the_cases_are_the_same_on_every_run() -> None:
    """The settings above draw the same cases twice (a fresh clone's run once failed on a
    case no earlier run had drawn)."""
    from hypothesis import given

    operation = schema["/api/v1/auth/token/"]["POST"]

    def draw() -> list[tuple[object, ...]]:
        drawn: list[tuple[object, ...]] = []

        @FUZZ_SETTINGS
        @given(case=operation.as_strategy())
        def collect(case) -> None:
            drawn.append(
                (case.method, case.path, case.media_type, repr(case.query), repr(case.body))
            )

        collect()
        return drawn

    first = draw()
    assert len(first) >= EXAMPLES // 2
    assert draw() == first
