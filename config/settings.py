"""Settings, all read from environment variables (DESIGN.md, "How it runs").

- **Embedded default** (nothing set): SQLite file ``db.sqlite3``, Celery tasks run eagerly
  in the web process, local-memory cache, in-memory channel layer. One command runs a site.
- **Full stack**: ``DATABASE_URL`` (``postgres://...``, psycopg 3) and ``REDIS_URL``
  (Celery broker and result backend, cache, Channels layer), a worker and one beat.

Every setting a deployment may change is an environment variable named like the setting.
"""

from __future__ import annotations

import math
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

# Django's generic classes written with their type arguments (``admin.ModelAdmin[Club]``,
# ``forms.ModelForm[Tournament]``) need ``__class_getitem__`` at run time (django-stubs).
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


#: What ``env_bool`` accepts (any case); anything else is a mistake, not "off".
TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")


def env_bool(name: str, default: bool = False) -> bool:
    """A yes/no variable: 1/0, true/false, yes/no, on/off (any case); unset or empty is the
    default. A typo (``DEBUG=ture``) stops the start-up instead of quietly meaning "off"."""
    value = os.environ.get(name, "").strip().lower()
    if value == "":
        return default
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={os.environ[name]!r} is not a yes/no value: use one of "
        f"{'/'.join(TRUE_WORDS)} or {'/'.join(FALSE_WORDS)} (any case), or leave it empty."
    )


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    """A whole-number variable; unset or empty is the default, anything else must parse
    (and be at least ``minimum``)."""
    value = os.environ.get(name, "").strip()
    if value == "":
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={value!r}: it must be at least {minimum}.")
    return number


def env_float(name: str, default: float, *, minimum: float | None = None) -> float:
    """A number variable (``2`` or ``0.5``); unset or empty is the default, anything else
    must be a finite number (at least ``minimum``)."""
    value = os.environ.get(name, "").strip()
    if value == "":
        return default
    try:
        number = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a number.") from None
    if not math.isfinite(number):
        raise ImproperlyConfigured(f"{name}={value!r} is not a finite number.")
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={value!r}: it must be at least {minimum}.")
    return number


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", default=not env("DATABASE_URL"))
SECRET_KEY = env("SECRET_KEY") or (
    "insecure-development-key-only-for-the-embedded-default" if DEBUG else ""
)
#: Keys a deployment must never run with (placeholders that were once in examples).
PLACEHOLDER_KEYS = ("change-me", "changeme", "secret", "insecure", "example", "django-insecure")


def weak_secret_key(key: str) -> str:
    """Why ``key`` is not a real key for a deployment ("" when it is one): Django's own
    deploy check wants at least 50 characters with at least 5 different ones."""
    if not key:
        return "it is not set"
    if len(key) < 50 or len(set(key)) < 5:
        return "it is shorter than 50 characters (or has fewer than 5 different ones)"
    if any(word in key.lower() for word in PLACEHOLDER_KEYS):
        return "it looks like a placeholder"
    return ""


if not DEBUG and (why := weak_secret_key(SECRET_KEY)):
    raise ImproperlyConfigured(
        f"SECRET_KEY must be a real key when DEBUG is off, and {why}. Make one with: "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
SITE_URL = env("SITE_URL", "http://localhost:8000")

INSTALLED_APPS = [
    # daphne first: its runserver serves HTTP and websockets (ASGI) in development.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "channels",
    "core",
    "tournaments",
    "gameplay",
    "notifications",
    "seasons",
]

MIDDLEWARE = [
    # Only our own scripts and styles run; nobody frames the site (core/csp.py).
    "core.csp.ContentSecurityPolicyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A body over DATA_UPLOAD_MAX_MEMORY_SIZE, of any type, is a 413 before it is read.
    "core.middleware.BodyLimitMiddleware",
    # Refuses NUL in the address and forms (a 400, not PostgreSQL's 500); errors under /api/
    # are always JSON.
    "core.middleware.BadInputMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The reader's language (core/languages.py), before anything that speaks.
    "core.languages.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "core.clock.EmbeddedClockMiddleware",
]

ROOT_URLCONF = "config.urls"
#: Requests one web process serves at once (threads; the rest wait in line, config/asgi.py).
#: Keep it at most DB_POOL_MAX_SIZE: each holds a database connection while it runs.
WEB_THREADS = env_int("WEB_THREADS", 4, minimum=1)
#: Seconds after SIGTERM when a web process exits, even with requests still stuck in a
#: thread (``core/shutdown.py``); 0: no deadline. scripts/web sets it (the grace plus 10).
WEB_SHUTDOWN_DEADLINE = env_int("WEB_SHUTDOWN_DEADLINE", 0, minimum=0)
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # No CSRF token on a page served to every anonymous reader (core.page_cache).
                "core.page_cache.shared_page_csrf",
            ],
            # ``{% url %}`` answered from memory after its first reverse (core/templatetags).
            "builtins": ["core.templatetags.kept_urls"],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DB_CONN_MAX_AGE", 0, minimum=0),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A web process and the eager tasks share the file; wait for a lock, don't fail.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    DATABASES["default"]["CONN_MAX_AGE"] = 0
elif env_bool("DB_POOL", default=True):
    # PostgreSQL through Django's connection pool (psycopg_pool), one pool per process: a
    # request or task borrows a connection and gives it back when it ends. Never persistent
    # connections instead (CONN_MAX_AGE): under ASGI every worker thread would keep its own.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # With health checks on, the pool checks a connection as it lends it: one the server
    # closed (a restart, a restore) is replaced, never lent.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DATABASES["default"]["OPTIONS"] = {
        "pool": {
            "min_size": env_int("DB_POOL_MIN_SIZE", 2, minimum=0),
            "max_size": env_int("DB_POOL_MAX_SIZE", 10, minimum=1),
            # A request waits this long for a free connection, then fails (503-worthy).
            "timeout": env_float("DB_POOL_TIMEOUT", 10, minimum=0.1),
        }
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DB_PREPARED", default=True
):
    # Parameters bound by the server and statements prepared after their second use on a
    # connection (psycopg's automatic preparation; Django turns it off by default for the
    # sake of transaction-mode PgBouncer, which this stack does not use): PostgreSQL then
    # plans a result post's joins once per connection, not on every request (a report's
    # planning was most of its PostgreSQL time, bench/http.py). DB_PREPARED=0 turns it off
    # (behind a transaction-mode pooler).
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"]["server_side_binding"] = True
    DATABASES["default"]["OPTIONS"]["prepare_threshold"] = env_int(
        "DB_PREPARE_THRESHOLD", 2, minimum=0
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env("REDIS_URL")
if REDIS_URL:
    from redis.exceptions import ConnectionError as RedisConnectionError

    from core.redis_async import Connection as CancellableConnection

    #: Redis restarted: a pooled connection is dead though the server is back. redis-py
    #: retries nothing by default, so the first command on each such connection failed
    #: (a websocket's handshake answered 500); one retry on a fresh connection heals it.
    #: Timeouts are not retried (the command may have run).
    REDIS_RECONNECT = {"retry_on_error": [RedisConnectionError]}
    CACHES = {
        "default": {
            # Django's Redis backend, keeping its client (core/cache.py).
            "BACKEND": "core.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env("CACHE_KEY_PREFIX", "cardclub"),
            # An unreachable host (not a refused port) would otherwise hang a sign-in (the
            # throttle asks the cache first and fails open: core/throttle.py).
            "OPTIONS": {"socket_connect_timeout": 2, **REDIS_RECONNECT},
        }
    }
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # redis-py 8 times out a socket read after 5 s by default, exactly as long
                # as channels-redis blocks waiting for a message: idle sockets would crash.
                # core.redis_async.Connection: a consumer's cancelled receive stays
                # cancelled (Python 3.11's wait_for, under redis-py, could lose it).
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": 30,
                        "connection_class": CancellableConnection,
                        **REDIS_RECONNECT,
                    }
                ],
                "prefix": env("CHANNELS_PREFIX", "cardclub"),
                # Every socket of one web process shares one Redis inbox, and channels-redis
                # drops messages past its capacity (default 100) silently: a draft of 32
                # pods sends 256 snapshots in a burst.
                "capacity": env_int("CHANNELS_CAPACITY", 5000, minimum=1),
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Sessions: written to the database, read from the cache (core/sessions.py): a signed-in
# request reads no session row while its copy is cached.
SESSION_ENGINE = "core.sessions"
# Loaded with the signed-in user in one query (core.throttle.ThrottledModelBackend): the
# menu of every page shows the player's name.
AUTH_USER_SELECT_RELATED = ("player",)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
AUTHENTICATION_BACKENDS = [
    # Every password check: throttled, and user names found case-insensitively (core.throttle).
    "core.throttle.ThrottledModelBackend",
    # Never reached for a password; listed so sessions it signed in (before the one above)
    # stay valid.
    "django.contrib.auth.backends.ModelBackend",
]
# After this many failed sign-ins for one user name, or from one client address, within
# the window, sign-ins for it are refused (even the right password) until the window ends.
LOGIN_FAILURE_LIMIT_PER_USERNAME = env_int("LOGIN_FAILURE_LIMIT_PER_USERNAME", 10, minimum=1)
# Higher: a club's players often share one router's address.
LOGIN_FAILURE_LIMIT_PER_ADDRESS = env_int("LOGIN_FAILURE_LIMIT_PER_ADDRESS", 50, minimum=1)
LOGIN_FAILURE_WINDOW_SECONDS = env_int("LOGIN_FAILURE_WINDOW_SECONDS", 15 * 60, minimum=1)

#: Seconds a shared cache (the proxy) may answer a public page alone before asking again
#: (``s-maxage``; core/page_cache.py): how late a full page load may be. Browsers and live
#: refreshes always ask (a 304 costs one query); 0 makes the proxy ask every time.
PAGE_CACHE_SHARED_SECONDS = env_int("PAGE_CACHE_SHARED_SECONDS", 2, minimum=0)

#: The source language (English) and the languages the site is read in: adding one is a
#: line here and its catalogue in locale/<code>/ (docs/translating.md). The reader's
#: language: their account's choice, else the one they picked (a cookie), else their
#: browser's, else the club's (core/languages.py).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "French"), ("el", "Greek")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600  # a visitor's pick is kept for a year
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True
TIME_ZONE = env("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_MANIFEST = env_bool("STATIC_MANIFEST", default=not DEBUG)
# Without collected files (development, tests), WhiteNoise serves from the app folders.
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed, compressed files need `collectstatic` first: on for deployments.
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if STATIC_MANIFEST
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

EMAIL_BACKEND = env("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
# Notifications (the notifications app): how often beat delivers retries that came due;
# loopback webhook and push addresses (tests, local development: never in production);
# the web push key pair (base64url; made once and kept in the database when not given)
# and the contact the push services see.
NOTIFY_SWEEP_SECONDS = env_int("NOTIFY_SWEEP_SECONDS", 10, minimum=1)
# The total time one webhook or push request may take (resolving, connecting, sending, the
# answer's headers): a receiver that drips its answer a byte at a time is cut off then.
NOTIFY_REQUEST_SECONDS = env_float("NOTIFY_REQUEST_SECONDS", 10, minimum=1)
NOTIFICATIONS_ALLOW_LOOPBACK = env_bool("NOTIFICATIONS_ALLOW_LOOPBACK", DEBUG)
# Without a worker (Celery eager), deliver in a thread of this process (tests turn it off
# and deliver by hand).
NOTIFICATIONS_IN_THREAD = True
VAPID_PRIVATE_KEY = env("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = env("VAPID_PUBLIC_KEY", "")
EMAIL_HOST = env("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1)
# Seconds a mail server may take over each step (connecting, each command's answer): a
# mail server that stops answering must not hold the delivery worker past its claim.
EMAIL_TIMEOUT = env_float("EMAIL_TIMEOUT", 10, minimum=1)
# For Django's file backend (``EMAIL_BACKEND=django.core.mail.backends.filebased...``).
EMAIL_FILE_PATH = env("EMAIL_FILE_PATH", "")
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "tournaments@localhost")
VAPID_SUBJECT = env("VAPID_SUBJECT", f"mailto:{DEFAULT_FROM_EMAIL}")

if not DEBUG:
    # A deployment sits behind a proxy that ends TLS and says so in this header; cookies go
    # over HTTPS only, plain HTTP is redirected (but /healthz, which the proxy and compose
    # ask over plain HTTP), and browsers are told to use HTTPS from then on. Each can be
    # turned off for a deployment without TLS (``manage.py check --deploy`` then says so).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)

# The largest request body read into memory (a form, or a JSON body: core.parsers). The
# largest input we take, a Gesoseka board of 8 decks, is a few KiB: 1 MiB is generous, and
# a larger body is a 413 (JSON under /api/) before anything parses it.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 1024 * 1024, minimum=1024)

# --- API -----------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        # DRF's, its lookup compiled once a thread (core.compiled).
        "core.auth.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "core.api.Pagination",
    # JSON bounded in size, depth and numbers, without NUL (core.parsers); forms as usual.
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # The API answers JSON only, errors included (the interactive docs are /api/docs/).
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.SearchFilter",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "core.api.exception_handler",
    "DEFAULT_VERSIONING_CLASS": None,
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Card club tournaments API",
    "DESCRIPTION": (
        "Clubs, tournaments, registrations and check-in; results per game round. "
        'Errors are `{"code": ..., "detail": ...}` with a 4xx status.'
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # Every operation with a body documents 413 and 415 (core.api.document_body_refusals).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.api.document_body_refusals",
    ],
    # Swagger UI served from this site, not a CDN: the docs work offline and behind firewalls.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Several models have a "status": name each choice set after its model.
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournaments.models.TournamentStatus",
        "RegistrationStatusEnum": "tournaments.models.RegistrationStatus",
        "RoundStatusEnum": "tournaments.models.RoundStatus",
        "MatchStatusEnum": "tournaments.models.MatchStatus",
        "StageKindEnum": "tournaments.models.StageKind",
        # A player's topics, by e-mail and by push: one set of choices.
        "PlayerTopicEnum": "notifications.models.PLAYER_TOPIC_CHOICES",
    },
}

# --- Celery ----------------------------------------------------------------------------
CELERY_BROKER_URL = env("CELERY_BROKER_URL", REDIS_URL or "memory://")
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", REDIS_URL or "cache+memory://")
# Without Redis there is no worker: tasks run in the web process (the embedded default).
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_TASK_DEFAULT_QUEUE", "cardclub")
# Delivery of notifications (e-mail, push, webhooks: requests to servers outside ours) has
# a queue of its own, consumed by workers of its own (compose's ``notify``): whatever a
# receiver does, the default queue's workers keep every deadline, pairing and pick timer
# on time. A worker started without -Q consumes both (tests, a single small server).
NOTIFY_QUEUE = env("NOTIFY_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-notify")
CELERY_TASK_QUEUES = (Queue(CELERY_TASK_DEFAULT_QUEUE), Queue(NOTIFY_QUEUE))
CELERY_TASK_ROUTES = {
    "notifications.tasks.deliver_due": {"queue": NOTIFY_QUEUE},
    "notifications.tasks.sweep_notifications": {"queue": NOTIFY_QUEUE},
}
CELERY_TIMEZONE = TIME_ZONE
# Redis going away (a restart, a failover, a dropped connection) never ends a worker: it
# reconnects, at start-up too, for as long as it takes (the default gives up after 100
# tries, and the worker exits). Every deadline is a database field the sweepers catch up
# on, so tasks lost with Redis cost nothing but a few seconds. tests/faults/ restarts
# Redis under a worker that holds timers: Celery 5.7.0's own consumer exited there.
CELERY_WORKER_CONSUMER = "config.worker:Consumer"
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # A peer that vanished (no RST: a failover, a network cut) is noticed, not waited on
    # forever; a connection idle for the health-check interval is checked before use.
    "socket_keepalive": True,
    "socket_connect_timeout": 5,
    "health_check_interval": 10,
    "retry_on_timeout": True,
}
# Tasks running when the connection drops finish (their acknowledgement is lost, so Redis
# hands them out again later: every task here is idempotent). Cancelling them instead
# (Celery 6's default) crashed workers on reconnection in Celery 5 (celery#9250).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
# Results (none of our tasks keeps one, but a caller may ask) retry across a reconnect.
CELERY_RESULT_BACKEND_ALWAYS_RETRY = True
CELERY_RESULT_BACKEND_MAX_RETRIES = 10
CELERY_REDIS_SOCKET_KEEPALIVE = True
CELERY_REDIS_BACKEND_HEALTH_CHECK_INTERVAL = 10
# A sweep interval of 0 would spin beat (and the embedded clock): at least 0.1 s.
CLOCK_SWEEP_SECONDS = env_float("CLOCK_SWEEP_SECONDS", 5, minimum=0.1)
DRAFT_SWEEP_SECONDS = env_float("DRAFT_SWEEP_SECONDS", 2, minimum=0.1)
# What commits left for the worker (core.queue: one message a commit) is done by the run
# the committing process queued; beat runs it too, in case that message was lost.
AFTER_COMMIT_SWEEP_SECONDS = env_float("AFTER_COMMIT_SWEEP_SECONDS", 5, minimum=0.1)
# Ratings behind their results (a recompute lost with a worker, a tournament deleted by
# staff) are recomputed by beat this often (seasons.services.ratings.sweep).
RATINGS_SWEEP_SECONDS = env_float("RATINGS_SWEEP_SECONDS", 600, minimum=1)
# The embedded default (no worker, no beat) runs these sweepers in the web process
# (``core.clock``); EMBEDDED_CLOCK=0 turns that off.
EMBEDDED_CLOCK = env_bool("EMBEDDED_CLOCK", default=True)
EMBEDDED_SWEEPERS = [
    "tournaments.tasks.sweep_deadlines",
    "gameplay.tasks.sweep_draft_deadlines",
    "notifications.tasks.sweep_notifications",
]
CELERY_BEAT_SCHEDULE = {
    # Notifications whose retry came due, and claims of workers that died (the outbox).
    "sweep-notifications": {
        "task": "notifications.tasks.sweep_notifications",
        "schedule": timedelta(seconds=NOTIFY_SWEEP_SECONDS),
    },
    # The safety net for every deadline (DESIGN.md, "Clocks and background work").
    "sweep-deadlines": {
        "task": "tournaments.tasks.sweep_deadlines",
        "schedule": timedelta(seconds=CLOCK_SWEEP_SECONDS),
    },
    # What a commit left for the worker, should its message be lost (core.queue).
    "after-commit": {
        "task": "core.tasks.after_commit",
        "schedule": timedelta(seconds=AFTER_COMMIT_SWEEP_SECONDS),
    },
    # Pick timers are short: their safety net runs more often.
    "sweep-draft-deadlines": {
        "task": "gameplay.tasks.sweep_draft_deadlines",
        "schedule": timedelta(seconds=DRAFT_SWEEP_SECONDS),
    },
    "sweep-ratings": {
        "task": "seasons.tasks.sweep_ratings",
        "schedule": timedelta(seconds=RATINGS_SWEEP_SECONDS),
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
