from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from core.web import healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/v1/", include("gameplay.api.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("gameplay.web.urls")),
    path("", include("tournaments.web.urls")),
]
