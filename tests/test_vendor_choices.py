"""Vendors offered as choices (one package or one `<vendor>-<role>` file each, side by side) are optional; integrations
each doing something else in a flat folder (push via Firebase, calls via Twilio, payments via Stripe) stay drawn."""

from rules_harness import resolve_files

COMPOSE = "services:\n  app:\n    build: .\n    ports: [\"8080:8080\"]\n"
DOCKERFILE = 'FROM python:3.12-slim\nCOPY . /app\nCMD ["python", "/app/app/main.py"]\n'


def call(url: str) -> str:
    return f'import httpx\n\n\ndef send(body: dict) -> None:\n    httpx.post("{url}", json=body)\n'


def externals(files: dict[str, str]) -> set[str]:
    model = resolve_files({"app": {"docker-compose.yml": COMPOSE, "Dockerfile": DOCKERFILE,
                                   "requirements.txt": "httpx\n", "app/main.py": "print('up')\n", **files}})
    return {c.name for c in model.components.values() if c.kind == "external"}


def test_storage_back_ends_named_for_one_role_are_choices() -> None:
    found = externals({"app/storage/s3-storage.py": call("https://s3.amazonaws.com/bucket"),
                       "app/storage/azure-storage.py": call("https://acct.blob.core.windows.net/c"),
                       "app/storage/google-storage.py": call("https://storage.googleapis.com/b")})
    assert not found & {"s3.amazonaws.com", "acct.blob.core.windows.net", "storage.googleapis.com"}


def test_integrations_of_a_flat_folder_each_doing_something_else_stay() -> None:
    found = externals({"app/server_firebase.py": call("https://fcm.googleapis.com/fcm/send"),
                       "app/server_twilio.py": call("https://api.twilio.com/2010-04-01/Calls.json"),
                       "app/server_payments.py": call("https://api.stripe.com/v1/charges")})
    assert {"fcm.googleapis.com", "api.twilio.com", "api.stripe.com"} <= found


def test_the_host_container_engine_of_a_back_end_choice_stays() -> None:
    """Pipeline back ends side by side (backend/docker, backend/cloud-a, backend/cloud-b): the Docker engine the
    docker back end drives is the host's, not a vendor picked from a list."""
    found = externals({"app/backend/docker/engine.py": "import docker\n\nclient = docker.from_env()\n"
                                                        "client.containers.run('alpine')\n",
                       "app/backend/cloud-a/run.py": call("https://api.cloud-a.example.com/v1/run"),
                       "app/backend/cloud-b/run.py": call("https://api.cloudb.io/v1/run"),
                       "app/backend/cloud-c/run.py": call("https://api.cloudc.dev/v1/jobs"),
                       "requirements.txt": "httpx\ndocker\n"})
    assert "docker-engine" in found
    assert not found & {"api.cloudb.io", "api.cloudc.dev"}
