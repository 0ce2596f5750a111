"""Object-storage URIs (s3://bucket/prefix) in settings are links to the cloud's storage service."""

from repomodeler.graph.build import resolve_system
from repomodeler.rules.cases import extract_in_memory


def test_s3_uri_setting_links_to_s3_with_the_bucket() -> None:
    compose = ("services:\n  indexer:\n    image: example/search:1.0\n    environment:\n"
               "      DEFAULT_INDEX_ROOT_URI: s3://search-indexes/indexes\n"
               "      BACKUP_URI: gs://search-backups\n")
    model = resolve_system("search", extract_in_memory({"search": {"docker-compose.yml": compose}}))
    s3 = next(c for c in model.connections.values() if (c.source, c.target) == ("indexer", "s3.amazonaws.com"))
    assert s3.attributes["bucket"] == "search-indexes"
    assert ("docker-compose.yml", 5) in {(e.path, e.line) for e in s3.evidence}
    assert "object storage" in model.components["s3.amazonaws.com"].aliases
    assert ("indexer", "storage.googleapis.com") in {(c.source, c.target) for c in model.connections.values()}
    assert "search-indexes" not in model.components
