"""The Celery app: configured from Django settings prefixed ``CELERY_``."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("cardclub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
