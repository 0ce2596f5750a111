"""A container kept alive doing nothing, to be exec'd into (a toolbox pod with `sleep 10000`, a compose
service with `command: sleep infinity`), runs no part of the system: no component."""

from repomodeler.graph.build import resolve_system
from repomodeler.rules.cases import extract_in_memory

FILES = {
    "k8s/server.yaml": ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: mesh-server\nspec:\n  template:\n"
                        "    spec:\n      containers:\n      - name: server\n        image: acme/mesh:1.0\n"),
    "k8s/misc/ubuntu.yaml": ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: ubuntu\nspec:\n  containers:\n"
                             "  - image: ubuntu\n    command:\n      - \"sleep\"\n      - \"604800\"\n    name: ubuntu\n"),
    "k8s/misc/pingtest.yaml": ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: pingtest\nspec:\n  template:\n"
                               "    spec:\n      containers:\n      - name: busybox\n        image: busybox\n"
                               "        command: [\"/bin/sh\", \"-ec\", \"sleep 10000\"]\n"),
    "docker-compose.yml": ("services:\n  web:\n    image: acme/web:1\n    command: [\"sleep\", \"3600\", \"&&\", \"web\"]\n"
                           "  toolbox:\n    image: alpine:3.20\n    command: sleep infinity\n"
                           "  tail:\n    image: alpine:3.20\n    command: [\"tail\", \"-f\", \"/dev/null\"]\n"),
}


def test_idle_containers_are_no_components() -> None:
    model = resolve_system("mesh", extract_in_memory({"mesh": FILES}))
    assert {"mesh-server", "web"} <= set(model.components)
    assert not {"ubuntu", "pingtest", "toolbox", "tail"} & set(model.components)
