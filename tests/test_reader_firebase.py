"""firebase.json: the Hosting rewrites that send paths of the hosted app to backends, at their lines."""

from repomodeler.extract.readers.firebase import read_firebase

MULTI_SITE = """{
  // sites of one project
  "hosting": [
    {
      "target": "shop",
      "public": "shop/dist",
      "rewrites": [
        {"source": "/api/**", "function": "api"},
        {"source": "/orders/**", "run": {"serviceId": "orders", "region": "us-central1"}},
        {"source": "**", "destination": "/index.html"},
      ]
    },
    {"target": "docs", "public": "docs/out"}
  ],
  "emulators": {"firestore": {"port": 8080}}
}
"""


def test_each_backend_rewrite_with_its_site_and_line() -> None:
    got = {(f.line, f.get("service"), f.get("backend"), f.get("source"), f.get("site"), f.get("public"))
           for f in read_firebase("shop", "firebase.json", MULTI_SITE)}
    assert got == {(8, "api", "cloud function", "/api/**", "shop", "shop/dist"),
                   (9, "orders", "cloud run", "/orders/**", "shop", "shop/dist")}


def test_a_project_file_without_hosting_or_not_json_gives_nothing() -> None:
    assert read_firebase("shop", "firebase.json", '{"emulators": {"firestore": {"port": 8080}}}') == []
    assert read_firebase("shop", "firebase.json", '{"hosting": {"rewrites": "nonsense"}}') == []
