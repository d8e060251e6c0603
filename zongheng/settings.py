"""Settings for Zongheng Deckbox, read from the environment (see README "Configuration")."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from zongheng.env import env_bool, env_float, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

# A fresh checkout is a developer's machine: DEBUG on by default. Production sets DEBUG=0 and then
# must give a real SECRET_KEY.
DEBUG = env_bool("DEBUG", True)
_DEV_SECRET_KEY = "dev-only-insecure-key-never-use-in-production-zongheng-deckbox"  # noqa: S105 (refused when DEBUG is off)
SECRET_KEY = env_str("SECRET_KEY") or ""
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = _DEV_SECRET_KEY
elif not DEBUG and (len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5):
    # Session and reset-link signatures are only as strong as this key.
    raise ImproperlyConfigured("SECRET_KEY must be at least 50 characters (with 5 different ones) when DEBUG is off")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "django_prometheus",
    "django_tasks",
    "django_tasks_db",
    "catalog",
    "moderation",
    "people",
    "groups",
    "contributions",
    "collection",
    "decks",
    "events",
    "league",
    "accounts",
]

MIDDLEWARE = [
    # First and last: request counts and latencies per view for /metrics (Prometheus).
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "zongheng.middleware.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages compress to a tenth (a collection page of 60 cards: ~108 KB, ~10 KB sent). Below
    # WhiteNoise, which sends static files compressed ahead of time. Django adds random bytes to
    # each compressed answer against BREACH, and masks the CSRF token anew on every page.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "zongheng.middleware.RequestGuardMiddleware",
    # No query outlives its request (SQLite; PostgreSQL's statement_timeout: zongheng.wsgi).
    "webutil.query_time.RequestDeadlineMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A write sent again with the same Idempotency-Key is answered again, not done again.
    "zongheng.middleware.IdempotencyMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "zongheng.middleware.ContentSecurityPolicyMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]
# /metrics answers only a scraper that sends `Authorization: Bearer <METRICS_TOKEN>`; without a
# token set, it does not exist (404), so no deployment exposes it by accident.
METRICS_TOKEN = env_str("METRICS_TOKEN")

ROOT_URLCONF = "zongheng.urls"
TEST_RUNNER = "zongheng.test_runner.Runner"
WSGI_APPLICATION = "zongheng.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            # Every form's {% idempotency_field %}, beside its {% csrf_token %}, without a load.
            "builtins": ["accounts.templatetags.idempotency"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "contributions.context.contributions",
                "people.context.notifications",
                "catalog.context.catalog_version",
                "webutil.bounds.context",
            ],
        },
    },
    # The rows a page repeats sixty times (a card's counter, a deck line, a builder's search
    # result, a card's face): Jinja2 draws them in a tenth of the template language's time
    # (bench/rows.py). Their words are `_("…")` (webutil.rows), which `makemessages` reads in
    # these files too.
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "rows",
        "DIRS": [BASE_DIR / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {
            "environment": "zongheng.jinja.environment",
            "trim_blocks": True,
            "lstrip_blocks": True,
        },
    },
]

# Database: SQLite in the project unless DATABASE_URL says otherwise.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Production keeps connections for a minute: a new PostgreSQL connection per request
        # costs more than most of our pages.
        conn_max_age=env_int("CONN_MAX_AGE", 0 if DEBUG else 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers go on while one request writes; IMMEDIATE takes the write lock at BEGIN so
    # that two concurrent writers queue up instead of failing with "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
    )
    # Tests use a file too (not the in-memory default): concurrent writers from threads then
    # queue on the file lock as in production, instead of failing on shared-cache table locks.
    # One file per test process, so that two test runs in one checkout never share it.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f"test-db-{os.getpid()}.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Background work (reading photos): Django's tasks through the django-tasks backport, stored in the
# database (no new service) and run by `manage.py worker`, which `make run` starts beside the
# server. TASKS_BACKEND=immediate runs each task inside the request that asks for it: for tests and
# a single process only.
TASK_BACKENDS = {
    "database": "django_tasks_db.DatabaseBackend",
    "immediate": "django_tasks.backends.immediate.ImmediateBackend",
}
TASKS_BACKEND = env_str("TASKS_BACKEND") or "database"
if TASKS_BACKEND not in TASK_BACKENDS:
    raise ImproperlyConfigured(f"TASKS_BACKEND is one of {', '.join(TASK_BACKENDS)}, not {TASKS_BACKEND!r}")
TASKS = {"default": {"BACKEND": TASK_BACKENDS[TASKS_BACKEND], "QUEUES": ["default"]}}

# Cache: Redis when REDIS_URL is set (shared by all workers), local memory otherwise.
# Throttle counters have an alias of their own, which nothing else fills: a flood of cached
# answers can never evict them. With Redis, run it without eviction of keys that have no room
# (maxmemory-policy noeviction or volatile-*), or point THROTTLE_REDIS_URL at another instance.
REDIS_URL = env_str("REDIS_URL")
CACHES: dict[str, dict[str, Any]]
THROTTLE_REDIS_URL = env_str("THROTTLE_REDIS_URL") or REDIS_URL
# A Redis that hangs instead of refusing (overloaded, paused, a network that drops packets) must
# cost a request a fraction of a second, not the socket's default wait forever.
REDIS_OPTIONS = {
    "socket_connect_timeout": env_float("REDIS_CONNECT_TIMEOUT", 0.5),
    "socket_timeout": env_float("REDIS_TIMEOUT", 0.5),
}
if REDIS_URL:
    # A cache that is down makes the site slower, never broken (webutil.cache).
    CACHES = {
        "default": {"BACKEND": "webutil.cache.ResilientRedisCache", "LOCATION": REDIS_URL, "OPTIONS": REDIS_OPTIONS}
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "OPTIONS": {"MAX_ENTRIES": 2000}}}
if THROTTLE_REDIS_URL:
    CACHES["throttle"] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": THROTTLE_REDIS_URL,
        "KEY_PREFIX": "throttle",
        "OPTIONS": REDIS_OPTIONS,
    }
else:
    CACHES["throttle"] = {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "throttle",
        "OPTIONS": {"MAX_ENTRIES": 1_000_000},
    }
# How many proxies in front of the site add to X-Forwarded-For. 0 (the default): the header is
# ignored and REMOTE_ADDR is the client, so a client cannot claim another address.
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", 0)
if TRUSTED_PROXIES < 0:
    raise ImproperlyConfigured("TRUSTED_PROXIES must be 0 or more")

# E-mail (password resets): printed to the console unless an SMTP server is configured.
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "縱橫牌匣 <noreply@localhost>")
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT", 3 * 60 * 60)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Traditional Chinese is the printed form of the game and the default language.
LANGUAGE_CODE = "zh-hant"
LANGUAGES = [("zh-hant", "繁體中文"), ("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Asia/Taipei"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(env_str("MEDIA_ROOT") or BASE_DIR / "media")
# Photos of proposals not yet reviewed: never under MEDIA_ROOT, which is served to anyone.
# Unset, they go beside it, in private-media/.
PRIVATE_MEDIA_ROOT = env_str("PRIVATE_MEDIA_ROOT") or None
# Media on S3-compatible object storage when a bucket is named (several app servers share it);
# the endpoint is for S3-compatible services other than AWS (MinIO, Ceph, a test's own server).
MEDIA_S3_BUCKET = env_str("MEDIA_S3_BUCKET")
if MEDIA_S3_BUCKET:
    from botocore.config import Config as BotoConfig
MEDIA_S3_PUBLIC_URL = env_str("MEDIA_S3_PUBLIC_URL")
MEDIA_S3: dict[str, object] | None = (
    {
        "bucket_name": MEDIA_S3_BUCKET,
        "endpoint_url": env_str("MEDIA_S3_ENDPOINT_URL"),
        "region_name": env_str("MEDIA_S3_REGION") or "us-east-1",
        "access_key": env_str("MEDIA_S3_ACCESS_KEY_ID"),
        "secret_key": env_str("MEDIA_S3_SECRET_ACCESS_KEY"),
        "file_overwrite": False,
        "querystring_auth": False,
        # A bucket out of reach must fail fast (readiness checks, uploads), not hang a worker.
        "client_config": BotoConfig(connect_timeout=2, read_timeout=10, retries={"max_attempts": 2}),
    }
    if MEDIA_S3_BUCKET
    else None
)
STORAGES = {
    "default": (
        {"BACKEND": "zongheng.storage.MediaS3Storage", "OPTIONS": MEDIA_S3}
        if MEDIA_S3
        else {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    ),
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Hard limits on what one request may send. Form fields and JSON bodies are small (a 64 KiB deck
# list is the largest); uploads are capped per page by zongheng.middleware.RequestGuardMiddleware
# before they are read. A urlencoded body costs about 80 times its size in memory once parsed.
DATA_UPLOAD_MAX_MEMORY_SIZE = 512 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 2000
DATA_UPLOAD_MAX_NUMBER_FILES = 500  # /check/many/ promises 500 lists

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "webutil.schema.ThrottledAutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: an anonymous request is then answered 401 (with WWW-Authenticate), not 403.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": ["webutil.parsers.SafeJSONParser"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "webutil.pagination.StrictPageNumberPagination",
    "PAGE_SIZE": 50,
    # `?format=` is a deck's format (standard, classic) wherever the API filters by it, never a
    # renderer: DRF's own reading answered 404 to `/api/decks/?format=standard`. Only the schema
    # reads it as a renderer (zongheng.urls.SchemaView).
    "URL_FORMAT_OVERRIDE": None,
    "DEFAULT_THROTTLE_CLASSES": ["webutil.throttling.AnonThrottle", "webutil.throttling.UserThrottle"],
    "NUM_PROXIES": TRUSTED_PROXIES,
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("API_THROTTLE_ANON", "600/minute"),
        "user": env_str("API_THROTTLE_USER", "2400/minute"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Zongheng Deckbox API",
    "DESCRIPTION": "三國殺·縱橫 card catalogue, deck legality, collections and decks.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Two answers have a `state` of their own choices: each enum named, not numbered by a hash.
    "ENUM_NAME_OVERRIDES": {
        "CommentStateEnum": ["shown", "pending", "deleted", "hidden"],
        "ReviewStateEnum": ["shown", "pending"],
        "EventVisibilityEnum": "events.models.Visibility",
        "DeckVisibilityEnum": ["private", "unlisted", "public"],
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "webutil.schema.document_body_limit",
        "webutil.schema.document_idempotency",
    ],
}

# Production hardening: only when DEBUG is off (see `make serve-prod`).
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"bare": {"format": "%(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        # The request log's lines are JSON already (zongheng.middleware.RequestLogMiddleware).
        "requests": {"class": "logging.StreamHandler", "formatter": "bare"},
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
    "loggers": {
        "zongheng.requests": {
            "handlers": ["requests"],
            "level": env_str("REQUEST_LOG_LEVEL", "INFO"),
            "propagate": False,
        },
    },
}
