"""HJSON service configuration (lemmy.hjson): settings by path, and the link they make once mounted."""

from repomodeler.extract.readers.hjson import read_hjson
from repomodeler.graph.build import resolve_system
from repomodeler.rules.cases import extract_in_memory

CONFIG = """{
  # the database
  database: {
    connection: "postgres://forum:pw@postgres:5432/forum"  # a comment
  }
  hostname: "localhost"
  pictrs: {
    url: "http://pictrs:8080/"
    api_key: "k#1"
  }
}
"""


def test_settings_by_path_and_line() -> None:
    got = {(f.get("name"), f.get("value"), f.line) for f in read_hjson("forum", "docker/forum.hjson", CONFIG)}
    assert ("database.connection", "postgres://forum:pw@postgres:5432/forum", 4) in got
    assert ("pictrs.url", "http://pictrs:8080/", 8) in got
    assert ("pictrs.api_key", "k#1", 9) in got  # a # inside quotes is no comment
    assert ("hostname", "localhost", 6) in got


def test_mounted_hjson_connects_the_service_to_its_stores() -> None:
    compose = """services:
  forum:
    image: example/forum:1.0
    volumes:
      - ./forum.hjson:/config/config.hjson
  postgres:
    image: postgres:16
  pictrs:
    image: asonix/pictrs:0.5
"""
    model = resolve_system("forum", extract_in_memory({"forum": {"docker/docker-compose.yml": compose,
                                                                 "docker/forum.hjson": CONFIG}}))
    links = {(c.source, c.target): c for c in model.connections.values()}
    assert ("docker/forum.hjson", 4) in {(e.path, e.line) for e in links[("forum", "postgres")].evidence}
    assert ("forum", "pictrs") in links
