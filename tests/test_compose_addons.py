"""Compose files of optional add-ons (docker/addons/<name>/docker-compose.yml) are opt-in, not the system."""

from repomodeler.graph.build import resolve_system
from repomodeler.rules.cases import extract_in_memory


def test_add_on_compose_files_are_opt_in() -> None:
    files = {
        "docker/docker-compose.yml": "services:\n  things:\n    image: example/things:1.0\n  nats:\n    image: nats:2\n",
        "docker/addons/influxdb-writer/docker-compose.yml": (
            "services:\n  influxdb:\n    image: influxdb:1.8\n  influxdb-writer:\n    image: example/influxdb-writer:1.0\n"),
    }
    model = resolve_system("iot", extract_in_memory({"iot": files}))
    assert {"things", "nats"} <= set(model.components)
    assert "influxdb" not in model.components and "influxdb-writer" not in model.components


def test_a_stack_env_file_is_no_component_s_settings() -> None:
    """docker/.env beside the compose file is the stack's settings: handed whole to a proxy image, or
    lying in the repository's folder, its addresses are not calls; what the compose file interpolates
    from it still reaches the service that names it."""
    files = {
        "go.mod": "module example.com/iot\n\ngo 1.22\n",
        "cmd/things/main.go": 'package main\n\nimport "net/http"\n\nfunc main() { http.ListenAndServe(":9000", nil) }\n',
        "docker/.env": "MF_THINGS_DB_HOST=things-db\nMF_NATS_URL=nats://broker:4222\n",
        "docker/docker-compose.yml": (
            "services:\n"
            "  things:\n    image: example/things:1.0\n    environment:\n      MF_NATS_URL: ${MF_NATS_URL}\n"
            "  things-db:\n    image: postgres:16\n"
            "  broker:\n    image: nats:2\n"
            "  nginx:\n    image: nginx:1.25\n    env_file: .env\n    ports:\n      - 80:80\n"),
    }
    model = resolve_system("iot", extract_in_memory({"iot": files}))
    links = {(c.source, c.target) for c in model.connections.values()}
    assert ("things", "broker") in links
    assert not any(s == "nginx" and t in ("things-db", "broker") for s, t in links)
    assert not any(s == "iot" for s, t in links)


def test_a_build_without_a_context_builds_the_project_folder() -> None:
    """Compose reads `build:` with only a target or arguments as context `.` (compose-spec #376): the
    service is built from the project's code, like `build: .`; a service without `build` builds nothing."""
    from repomodeler.extract.readers.compose import read_compose
    text = ("services:\n"
            "  web:\n"
            "    build:\n"
            "      target: apache-runtime\n"
            "  api:\n"
            "    build: ./api\n"
            "  dev:\n"
            "    build:\n"
            "      dockerfile: Dockerfile.dev\n"
            "  redis:\n"
            "    image: redis:7\n")
    facts = {f.get("name"): f for f in read_compose("r", "docker-compose.yml", text) if f.kind == "compose.service"}
    assert (facts["web"].get("build_context"), facts["web"].get("build_target")) == (".", "apache-runtime")
    assert facts["api"].get("build_context") == "./api"
    # (one naming only its recipe keeps no context: ComponentRules.build_root reads it as the compose folder)
    assert (facts["dev"].get("build_context"), facts["dev"].get("dockerfile")) == (None, "Dockerfile.dev")
    assert not facts["redis"].get("build_context")


def test_a_mount_from_the_working_folder_is_the_compose_folders_file() -> None:
    """`${PWD}/prometheus.yml` (or `$PWD/...`) mounts a file of the folder compose is started from: the
    compose file's own folder, as its guide runs it; another variable stays a variable mount."""
    from repomodeler.extract.readers.compose import read_compose
    text = ("services:\n"
            "  prometheus:\n"
            "    image: prom/prometheus\n"
            "    volumes:\n"
            "      - ${PWD}/prometheus.yml:/etc/prometheus/prometheus.yml\n"
            "      - $PWD/rules:/etc/prometheus/rules\n"
            "      - ${DATA_DIR}/tsdb:/prometheus\n")
    mounts = sorted((f.get("source"), f.get("target")) for f in read_compose("r", "deploy/docker-compose.yml", text)
                    if f.kind == "compose.mount")
    assert mounts == [("./prometheus.yml", "/etc/prometheus/prometheus.yml"), ("./rules", "/etc/prometheus/rules")]
