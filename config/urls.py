from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponseBase
from django.urls import include, path
from django.utils import translation
from django.views.decorators.cache import cache_page
from django.views.decorators.http import last_modified
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from core import languages
from core.web import healthz
from tournaments.web.accounts import sign_in, sign_out

#: When the scripts' catalogues (``locale/*/LC_MESSAGES/djangojs.mo``) last changed: a
#: browser asking again is told "not modified" until a deploy brings new ones.
_JS_CATALOGUES = [*Path(settings.LOCALE_PATHS[0]).glob("*/LC_MESSAGES/djangojs.mo")]
JS_CATALOGUES_CHANGED = datetime.fromtimestamp(
    max((p.stat().st_mtime for p in _JS_CATALOGUES), default=0), UTC
).replace(microsecond=0)

_catalogue = JavaScriptCatalog.as_view(packages=["core"])  # core: no app's but ours (locale/)


@last_modified(lambda request: JS_CATALOGUES_CHANGED)
@cache_page(3600, key_prefix=f"jsi18n-{int(JS_CATALOGUES_CHANGED.timestamp())}")
def javascript_catalogue(request: HttpRequest) -> HttpResponseBase:
    """The scripts' words (``gettext`` in static/js) in the page's language: the page names
    it (``?language=fr``: a club's page may speak its club's language, which this request
    alone could not know), else the reader's. Same-origin, so the Content-Security-Policy's
    ``script-src 'self'`` runs it; kept an hour by the browser and the server's cache."""
    language = languages.supported(request.GET.get("language")) or translation.get_language()
    with translation.override(language):
        response = _catalogue(request)
    response["Content-Language"] = language
    return response


urlpatterns = [
    path("admin/", admin.site.urls),
    path("jsi18n/", javascript_catalogue, name="javascript-catalog"),
    path("healthz", healthz, name="healthz"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file (?script), and our template
    # drops the inline styles: the page runs under the site's Content-Security-Policy.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", template_name="api/swagger_ui.html"
        ),
        name="api-docs",
    ),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/v1/", include("gameplay.api.urls")),
    path("api/v1/", include("notifications.api.urls")),
    path("api/v1/", include("seasons.api.urls")),
    # Our login (throttled) and logout pages (``next`` through core.web.safe_next) take
    # the place of Django's, names and all.
    path("accounts/login/", sign_in, name="login"),
    path("accounts/logout/", sign_out, name="logout"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("gameplay.web.urls")),
    path("", include("notifications.web.urls")),
    path("", include("seasons.web.urls")),
    path("", include("tournaments.web.urls")),
]

# Errors raised outside a DRF view: JSON ``{"code", "detail"}`` under /api/, Django's pages
# elsewhere (core.api).
handler400 = "core.api.bad_request"
handler403 = "core.api.permission_denied"
handler404 = "core.api.page_not_found"
handler500 = "core.api.server_error"
