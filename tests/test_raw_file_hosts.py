"""code.raw-file-hosts: a file downloaded from a code host's raw file host is listed at its line, not drawn; the
case can only show what the rule takes out, so this shows on the same repository what stays drawn."""

from pathlib import Path

from repomodeler.graph.build import resolve_system
from repomodeler.rules.cases import extract_in_memory, load_case

CASE = Path(__file__).resolve().parents[1] / "repomodeler" / "rules" / "code" / "cases" / "code.raw-file-hosts.yml"


def test_file_download_is_listed_and_the_api_stays() -> None:
    case = load_case("code.raw-file-hosts", CASE)
    model = resolve_system("case", extract_in_memory(case.repositories))
    assert ("travel", "nominatim.openstreetmap.org", "http") in model.connections
    assert "raw.githubusercontent.com" not in model.components
    listed = [u for u in model.unresolved if u.value.startswith("raw.githubusercontent.com:")]
    assert [(u.component, u.evidence.path) for u in listed] == [
        ("travel", "worldtravel/management/commands/download_countries.py")]


def test_a_host_the_gateway_proxies_users_to_stays() -> None:
    """The front end's nginx forwards /github/ to raw.githubusercontent.com (templates and libraries the pages load
    through it): part of what the system serves, drawn from the gateway."""
    files = {
        "docker-compose.yml": "services:\n  frontend:\n    build: ./frontend\n    ports: ['9001:8080']\n"
                              "  backend:\n    image: acme/board-backend:2.0\n",
        "frontend/Dockerfile": "FROM nginx:1.27\nCOPY nginx.conf /etc/nginx/nginx.conf\n",
        "frontend/nginx.conf": "events {}\nhttp {\n  server {\n    listen 8080;\n"
                               "    location /api/ { proxy_pass http://backend:6060/; }\n"
                               "    location ~ ^/github/board-files/(.+)$ {\n"
                               "      proxy_pass https://raw.githubusercontent.com/acme/board-files/main/$1;\n    }\n"
                               "  }\n}\n",
    }
    model = resolve_system("case", extract_in_memory({"board": files}))
    assert ("frontend", "raw.githubusercontent.com", "http") in model.connections
