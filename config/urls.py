from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/v1/", include("gameplay.api.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("gameplay.urls")),
    path("", include("tournaments.urls")),
]
