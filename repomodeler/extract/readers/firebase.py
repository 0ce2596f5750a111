"""Firebase's project file (``firebase.json``): the Hosting rewrites that send a path of the hosted
web app to a Cloud Run service or a Cloud Function, as ``hosting.rewrite`` facts.

Why: a web app deployed on Firebase Hosting calls its backends on its own origin (``/api/trainer``)
and Hosting forwards the request (``"run": {"serviceId": "trainer-http"}``, ``"function":
"api"``).  The browser code shows only a relative path; this file is where the link is written.
Static rewrites (``"destination": "/index.html"``) and other sections (emulators, Firestore rules)
route nothing to a backend and give no fact.
"""

from __future__ import annotations

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import get, load_yaml_documents, node_line, scalar, seq, yaml
from repomodeler.extract.readers.appsettings import _json_as_yaml
from repomodeler.records import Fact


def read_firebase(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    for doc in load_yaml_documents(_json_as_yaml(text)):
        hosting = get(doc, "hosting")
        sites = seq(hosting) if isinstance(hosting, yaml.SequenceNode) else [hosting] if hosting is not None else []
        for site in sites:  # one site, or a list of them (multi-site hosting: "target"/"site" name each)
            public = scalar(get(site, "public")) or ""
            name = scalar(get(site, "site")) or scalar(get(site, "target")) or ""
            for rewrite in seq(get(site, "rewrites")):
                source = scalar(get(rewrite, "source")) or scalar(get(rewrite, "regex")) or ""
                run = get(rewrite, "run")
                function = get(rewrite, "function")
                if run is not None and scalar(get(run, "serviceId")):
                    facts.append(fact("hosting.rewrite", repo, path, node_line(get(run, "serviceId")), source=source,
                                      service=scalar(get(run, "serviceId")), region=scalar(get(run, "region")),
                                      backend="cloud run", public=public, site=name))
                elif function is not None:
                    # "function": "api", or "function": {"functionId": "api", "region": ...}
                    function_id = scalar(function) if isinstance(function, yaml.ScalarNode) else scalar(get(function, "functionId"))
                    if function_id:
                        facts.append(fact("hosting.rewrite", repo, path, node_line(function), source=source,
                                          service=function_id, backend="cloud function", public=public, site=name,
                                          region=None if isinstance(function, yaml.ScalarNode) else scalar(get(function, "region"))))
    return facts


READERS = (
    Reader("firebase", "descriptor", 320, read_firebase, names=frozenset({"firebase.json"})),
)
