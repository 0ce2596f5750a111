"""Readers added for how deployments are started: installer templates read without their directives,
and the compose files a project's own start command runs together."""

from repomodeler.extract.readers._templates import strip_template
from repomodeler.extract.readers.compose import read_compose_template
from repomodeler.extract.readers.compose_launch import read_start_script
from repomodeler.extract.readers.makefile import read_makefile


def test_jinja_directives_blank_their_lines_and_values_become_placeholders():
    text = ("services:\n"
            "  core:\n"
            "    image: acme/core:{{version}}\n"
            "{% if external_db == False %}\n"
            "  db:\n"
            "    image: postgres:{{ pg }}\n"
            "{% else %}\n"
            "  pgbouncer:\n"
            "    image: bitnami/pgbouncer:1\n"
            "{% endif %}\n")
    out = strip_template(text).split("\n")
    assert len(out) == len(text.split("\n"))  # every line keeps its number
    assert out[2] == "    image: acme/core:x"
    assert out[3] == "" and out[6] == "" and out[9] == ""
    assert out[5] == "    image: postgres:x"
    assert out[7] == "" and out[8] == ""  # the else branch is blanked


def test_handlebars_blocks_and_triple_braces():
    text = ("services:\n"
            "  nginx:\n"
            "    image: ghcr.io/acme/nginx:{{{CoreVersion}}}\n"
            "{{#if HasPort}}\n"
            "    ports:\n"
            "      - '{{{HttpPort}}}:8080'\n"
            "{{/if}}\n")
    out = strip_template(text).split("\n")
    assert out[2] == "    image: ghcr.io/acme/nginx:x"
    assert out[3] == "" and out[6] == ""
    assert out[5] == "      - 'x:8080'"


def test_compose_template_facts_point_at_the_template_lines():
    text = ("version: '2.3'\n"
            "services:\n"
            "{% if with_core %}\n"
            "  core:\n"
            "    image: acme/core:{{version}}\n"
            "    logging:\n"
            "      driver: syslog\n"
            "      options:\n"
            "        syslog-address: \"tcp://localhost:1514\"\n"
            "{% endif %}\n")
    facts = read_compose_template("hub", "make/templates/docker-compose.yml.jinja", text)
    services = [f for f in facts if f.kind == "compose.service"]
    assert [(f.get("name"), f.line, f.get("image")) for f in services] == [("core", 4, "acme/core:x")]
    logs = [f for f in facts if f.kind == "compose.log_target"]
    assert [(f.get("owner"), f.get("driver"), f.get("address"), f.line) for f in logs] == [
        ("core", "syslog", "tcp://localhost:1514", 9)]


def test_makefile_start_target_names_its_compose_files_through_variables():
    text = ("CMD ?= docker compose\n"
            "CORE=-f compose.yaml\n"
            "FULL=$(CORE) -f compose.full.yaml\n"
            "\n"
            "start:\n"
            "\t$(CMD) $(FULL) --profile extras up -d\n"
            "\n"
            "test:\n"
            "\t$(CMD) -f compose.tests.yaml up\n")
    launches = [f for f in read_makefile("demo", "deploy/Makefile", text) if f.kind == "compose.launch"]
    assert [(f.get("files"), f.get("profiles"), f.get("target"), f.line) for f in launches] == [
        ("deploy/compose.yaml,deploy/compose.full.yaml", "extras", "start", 6)]


def test_start_script_launch_and_other_scripts_ignored():
    script = "#!/bin/sh\nFILES=\"-f docker-compose.yml -f docker-compose.worker.yml\"\ndocker compose $FILES up -d\n"
    launches = read_start_script("stack", "start.sh", script)
    assert [(f.get("files"), f.line) for f in launches] == [("docker-compose.yml,docker-compose.worker.yml", 3)]
    assert read_start_script("stack", "release.sh", script) == []


def test_dotenv_compose_file_lists_what_compose_up_loads():
    from repomodeler.extract.readers.dotenv import read_dotenv
    facts = read_dotenv("r", "deploy/.env", "A=1\nCOMPOSE_FILE=docker-compose.yml:docker-compose.o11y.yml\n")
    launch = [f for f in facts if f.kind == "compose.launch"]
    assert [(f.get("files"), f.evidence.line) for f in launch] == [
        ("deploy/docker-compose.yml,deploy/docker-compose.o11y.yml", 2)]
    custom = read_dotenv("r", ".env", "COMPOSE_PATH_SEPARATOR=,\nCOMPOSE_FILE=a.yml,b.yml\n")
    assert [f.get("files") for f in custom if f.kind == "compose.launch"] == ["a.yml,b.yml"]
    # only the project's own .env: an env_file named otherwise is a service's settings
    assert not [f for f in read_dotenv("r", "app.env", "COMPOSE_FILE=a.yml\n") if f.kind == "compose.launch"]
