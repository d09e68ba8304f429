from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from core.web import healthz
from tournaments.web.accounts import sign_in, sign_out

urlpatterns = [
    path("admin/", admin.site.urls),
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
    # Our login (throttled) and logout pages (``next`` through core.web.safe_next) take
    # the place of Django's, names and all.
    path("accounts/login/", sign_in, name="login"),
    path("accounts/logout/", sign_out, name="logout"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("gameplay.web.urls")),
    path("", include("notifications.web.urls")),
    path("", include("tournaments.web.urls")),
]

# Errors raised outside a DRF view: JSON ``{"code", "detail"}`` under /api/, Django's pages
# elsewhere (core.api).
handler400 = "core.api.bad_request"
handler403 = "core.api.permission_denied"
handler404 = "core.api.page_not_found"
handler500 = "core.api.server_error"
