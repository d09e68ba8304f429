# The one image for web (uvicorn, scripts/web), worker and beat. Build: docker compose build
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

COPY pyproject.toml README.md ./
COPY config ./config
COPY core ./core
COPY tournaments ./tournaments
COPY gameplay ./gameplay
COPY notifications ./notifications
COPY rules ./rules
RUN pip install --no-cache-dir .
COPY . .
RUN DEBUG=1 DATABASE_URL=sqlite:////tmp/build.sqlite3 STATIC_MANIFEST=1 \
    python manage.py collectstatic --noinput

RUN useradd --create-home app
USER app
EXPOSE 8000
CMD ["scripts/web", "8000"]
