"""Settings handed alike to several processes link only the processes reading them (config.unread-settings),
settings naming callers are no calls (config.caller-settings), and unscoped Dapr components link the apps
whose code uses them (dapr.components)."""

from repomodeler.graph.setting_reads import CALLER_KEY, canonical
from repomodeler.records import Evidence
from tests.rules_harness import edge_set, resolve_files

COMPOSE = """\
x-env: &env
  ORDERS_URL: http://orders:8080
  DATABASE_URL: postgresql://db:5432/shop
services:
  db:
    image: postgres:15
  orders:
    image: acme/orders:1.0
  api:
    build: ./api
    environment:
      <<: *env
  worker:
    build: ./worker
    environment:
      <<: *env
  proxy:
    image: acme/proxy:2.0
    environment:
      <<: *env
"""


def _shop(worker_code: str) -> dict[str, dict[str, str]]:
    return {"shop": {
        "docker-compose.yml": COMPOSE,
        "api/requirements.txt": "flask==3.0\nrequests==2.31\npsycopg2==2.9\n",
        "api/app.py": ('import os\nimport requests\n'
                       'DB = os.environ["DATABASE_URL"]\n'
                       'def order(i):\n    return requests.get(os.getenv("ORDERS_URL") + f"/orders/{i}")\n'),
        "worker/requirements.txt": "celery==5.3\n",
        "worker/tasks.py": worker_code,
    }}


def test_a_process_not_reading_a_handed_address_is_not_linked_and_the_setting_is_listed() -> None:
    model = resolve_files(_shop('import os\nBROKER = os.getenv("CELERY_BROKER", "redis://localhost")\n'))
    edges = edge_set(model)
    assert {("api", "orders"), ("api", "db")} <= edges
    assert ("worker", "orders") not in edges and ("worker", "db") not in edges
    listed = {(u.component, u.value, u.evidence) for u in model.unresolved}
    assert ("worker", "setting ORDERS_URL handed to it, not read by its code",
            Evidence("shop", "docker-compose.yml", 2)) in listed
    # a third-party image handed the same settings keeps today's behaviour (its code is not here)
    assert ("proxy", "orders") in edges


def test_nothing_changes_when_the_process_reads_nothing_we_can_see() -> None:
    model = resolve_files(_shop("def run():\n    return 1\n"))
    assert ("worker", "orders") in edge_set(model)
    assert not [u for u in model.unresolved if u.value.startswith("setting ")]


def test_a_read_through_a_constant_or_a_config_placeholder_counts() -> None:
    model = resolve_files(_shop('import os\nORDERS = "ORDERS_URL"\nURL = os.getenv(ORDERS)\n'))
    assert ("worker", "orders") in edge_set(model)


def test_names_are_compared_in_one_spelling() -> None:
    assert canonical("ConnectionStrings__Orders") == canonical("ConnectionStrings:Orders") == "CONNECTIONSTRINGS_ORDERS"
    assert canonical("spring.datasource.url") == canonical("SPRING_DATASOURCE_URL")


def test_caller_naming_keys() -> None:
    for name in ("CORS_ALLOWED_ORIGINS", "AllowedOrigins", "OAUTH_REDIRECT_URI", "CERT_ACME_CA",
                 "SOCIAL_AUTH_CALLBACK_URL", "PostLogoutRedirectUris", "CSRF_TRUSTED_ORIGINS",
                 "Cors:Origins", "CORS_WHITELIST", "cors"):
        assert CALLER_KEY.search(name), name
    for name in ("ORDERS_URL", "DATABASE_URL", "AUTHORITY", "REDIS_HOST", "ACCOUNT_SERVICE", "CORS_PROXY_URL"):
        assert not CALLER_KEY.search(name), name


def test_a_pydantic_settings_field_is_a_read() -> None:
    model = resolve_files(_shop('from pydantic_settings import BaseSettings\n\n\n'
                                'class Settings(BaseSettings):\n    orders_url: str\n    celery_broker: str = "redis://x"\n'))
    edges = edge_set(model)
    assert ("worker", "orders") in edges and ("worker", "db") not in edges


def test_a_helper_handed_the_variables_name_is_a_read() -> None:
    model = resolve_files(_shop('import os\n\ndef env(name, default=None):\n    return os.environ.get(name, default)\n\n'
                                'ORDERS = env("ORDERS_URL", "http://localhost:8080")\n'))
    assert ("worker", "orders") in edge_set(model)


def _dotnet(reader_code: str) -> dict[str, dict[str, str]]:
    proj = '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n'
    prog = 'var builder = WebApplication.CreateBuilder(args);\nvar app = builder.Build();\n{body}\napp.Run();\n'
    return {"shop": {
        "docker-compose.yml": ("x-env: &env\n  ConnectionStrings__Orders: Host=ordersdb;Database=orders\n"
                               "  Redis__Host: cache:6379\n"
                               "services:\n  ordersdb:\n    image: postgres:15\n  cache:\n    image: redis:7\n"
                               "  api:\n    build: ./api\n    environment:\n      <<: *env\n"
                               "  admin:\n    build: ./admin\n    environment:\n      <<: *env\n"),
        "api/Api.csproj": proj,
        "api/Program.cs": prog.format(body=reader_code),
        "admin/Admin.csproj": proj,
        "admin/Program.cs": prog.format(body='var title = builder.Configuration["Admin:Title"];'),
    }}


def test_dotnet_configuration_keys_match_the_environments_spelling() -> None:
    model = resolve_files(_dotnet('var cs = builder.Configuration.GetConnectionString("Orders");\n'
                                  'var redis = builder.Configuration.GetSection("Redis");'))
    edges = edge_set(model)
    assert {("api", "cache"), ("api", "ordersdb")} <= edges
    assert ("admin", "cache") not in edges and ("admin", "ordersdb") not in edges
    listed = {(u.component, u.value) for u in model.unresolved}
    assert ("admin", "setting Redis__Host handed to it, not read by its code") in listed
    assert ("api", "setting Redis__Host handed to it, not read by its code") not in listed
