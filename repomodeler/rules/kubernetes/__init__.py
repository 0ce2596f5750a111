"""Rules of the kubernetes group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="kubernetes.ingress",
        message=("A Kubernetes Ingress or route resource publishes the Services it routes to, with the routes as "
                 "evidence"),
        unit="ingress",
        reads=("k8s.ingress", "k8s.ingress_resource", "k8s.variant"),
        writes=("attributes",),
        after=("compose.services",),
        state=("ingress_routes",),
    ),
)
