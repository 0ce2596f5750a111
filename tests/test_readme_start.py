"""How the root README starts the system (Compose or an orchestrator) decides whether manifests kept
beside a compose file are the deployment or another way to run it."""

from repomodeler.extract.readers._readme import readme_identity
from repomodeler.graph.build import resolve_system
from repomodeler.rules.cases import extract_in_memory


def _starts(text: str, path: str = "README.md") -> list[tuple[str, int]]:
    return [(f.get("tool") or "", f.line) for f in readme_identity("r", path, text) if f.kind == "project.start"]


def test_start_commands_of_the_root_readme() -> None:
    assert _starts("# x\n\nRun `docker compose up -d`.\n") == [("compose", 3)]
    assert _starts("# x\n```\ndocker-compose -f prod.yml up\n```\nor\n```\nkubectl apply -k deploy/\n```\n") == [
        ("compose", 3), ("orchestrator", 7)]
    assert _starts("# x\n    nomad job run kitchen.nomad.hcl\nthen `docker-compose up` again\n") == [
        ("compose", 3), ("orchestrator", 2)]
    # any mention of a cluster deployment: a link to the chart's guide, `kubectl get svc web`
    assert _starts("# x\n$ docker-compose up\nInstall it to your Kubernetes cluster using the [Helm](K8s/helm) chart.\n") \
        == [("compose", 2), ("orchestrator", 3)]
    assert _starts("# x\n`docker compose up`\nBASE_URL=https://misp.apps.openshift.domain.local\n") == [("compose", 2)]
    assert _starts("# x\nRun `docker compose up`.\n", path="docs/README.md") == []  # only the root README
    assert _starts("# x\n`docker compose pull` fetches images\n") == []


MANIFESTS = {
    "docker-compose.yml": "services:\n  web:\n    image: acme/web:1\n    ports:\n      - \"80:80\"\n",
    "k8s/web.yaml": ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n"
                     "      containers:\n      - name: web\n        image: acme/web:1\n"),
    "k8s/proxy.yaml": ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: edge-proxy\nspec:\n  template:\n"
                       "    spec:\n      containers:\n      - name: envoy\n        image: envoyproxy/envoy:v1.30\n"),
}


def test_manifests_stay_when_the_readme_also_deploys_them() -> None:
    both = {**MANIFESTS, "README.md": "# web\n\n`docker compose up`, or on a cluster `kubectl apply -f k8s/`\n"}
    assert "edge-proxy" in resolve_system("web", extract_in_memory({"web": both})).components
    compose_only = {**MANIFESTS, "README.md": "# web\n\n`docker compose up`\n"}
    assert "edge-proxy" not in resolve_system("web", extract_in_memory({"web": compose_only})).components


def test_readme_launch_beside_a_default_file_changes_nothing() -> None:
    """Where Compose's default file is, the README's `-f` files are options of it: the first start command
    it gives decides which file runs only among alternatives with no default (compose.services case
    readme-launch)."""
    from repomodeler.graph.build import resolve_system
    from repomodeler.rules.cases import extract_in_memory

    files = {
        "README.md": "# shop\n\n```\ndocker compose -f docker-compose.debug.yml up\n```\n",
        "docker-compose.yml": "services:\n  web:\n    image: acme/web:1\n  cache:\n    image: redis:7\n",
        "docker-compose.debug.yml": "services:\n  debugger:\n    image: acme/debugger:1\n",
    }
    model = resolve_system("shop", extract_in_memory({"shop": files}))
    assert {"web", "cache"} <= set(model.components)


def test_readme_first_start_command_activates_its_profile() -> None:
    """`docker compose --profile cpu up`, the README's first start command: the services of that profile
    run; those of other profiles stay opt-in."""
    from repomodeler.graph.build import resolve_system
    from repomodeler.rules.cases import extract_in_memory

    files = {
        "README.md": "# kit\n\n```bash\ndocker compose --profile cpu up\n```\n\nOn Nvidia:\n\n"
                     "```bash\ndocker compose --profile gpu up\n```\n",
        "docker-compose.yml": ("services:\n  flow:\n    image: acme/flow:1\n    environment:\n"
                               "      LLM_HOST: llm:11434\n"
                               "  llm-cpu:\n    image: acme/llm:1\n    profiles: [cpu]\n    hostname: llm\n"
                               "  tuner:\n    image: acme/tuner:1\n    profiles: [gpu]\n"),
    }
    model = resolve_system("kit", extract_in_memory({"kit": files}))
    assert "llm-cpu" in model.components
    assert "tuner" not in model.components
