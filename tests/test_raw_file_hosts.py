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
