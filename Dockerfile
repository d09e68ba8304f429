# The one image for web (ASGI), worker and beat. Build: docker compose build
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

COPY pyproject.toml README.md ./
COPY config ./config
COPY core ./core
COPY tournaments ./tournaments
COPY gameplay ./gameplay
RUN pip install --no-cache-dir .
COPY . .
RUN SECRET_KEY=build-only DATABASE_URL=sqlite:////tmp/build.sqlite3 \
    python manage.py collectstatic --noinput

RUN useradd --create-home app
USER app
EXPOSE 8000
CMD ["daphne", "--bind", "0.0.0.0", "--port", "8000", "config.asgi:application"]
