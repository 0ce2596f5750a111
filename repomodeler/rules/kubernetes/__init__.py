"""Rules of the kubernetes group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="kubernetes.remote-releases",
        message=("A chart installed from a chart repository (a documented `helm install RELEASE repo/chart`, a Flux "
                 "HelmRelease, an Argo CD Application of a Helm chart) whose chart is not among the inputs is a "
                 "component named by its release, of the technology the chart's name says; charts of the cluster's "
                 "own machinery (Dapr, meshes, autoscalers) and stand-in release names are not"),
        unit="remote_releases",
        reads=("helm.install", "helm.release", "helm.remote_release"),
        writes=("components", "aliases", "attributes"),
        after=("compose.services",),
    ),
    Rule(
        id="kubernetes.ingress",
        message=("A Kubernetes Ingress or route resource (the Gateway API's HTTPRoute, Contour's HTTPProxy, Traefik's "
                 "IngressRoute) publishes the Services it routes to, with the routes as evidence"),
        unit="ingress",
        reads=("k8s.ingress", "k8s.ingress_resource", "k8s.variant"),
        writes=("attributes",),
        after=("compose.services",),
        state=("ingress_routes",),
    ),
    Rule(
        id="kubernetes.mesh-gateways",
        message=("An Istio Gateway is the mesh's ingress gateway its selector picks (istio-ingressgateway), a front "
                 "door routing to the Services its VirtualServices name, with their routes as evidence, unless a route reaches a "
                 "workload a LoadBalancer Service or a compose file already publishes (then the mesh is an optional way in)"),
        unit="mesh_gateways",
        reads=("k8s.mesh_gateway", "k8s.mesh_route", "k8s.service", "k8s.variant"),
        writes=("components", "connections", "attributes"),
        after=("compose.services", "kubernetes.ingress"),
        state=("ingress_routes",),
    ),
    Rule(
        id="kubernetes.network-policies",
        message=("A NetworkPolicy admitting the pods a peer's podSelector picks to the pods its own podSelector picks "
                 "(ingress from, egress to) declares a connection between those workloads, with the policy as evidence"),
        unit="network_policies",
        reads=("k8s.network_allow", "k8s.workload"),
        writes=("connections",),
        after=("compose.services",),
    ),
    Rule(
        id="kubernetes.secret-store-settings",
        message=("A workload handed a store's address from a Secret (DATABASE_URL from the RDS module's output, an "
                 "OpenSearch URL, REDIS_URL), its value unseen, uses the system's one store the setting's or the "
                 "Secret's name names (a database by role: the one SQL database); two such stores draw nothing"),
        unit="secret_store_settings",
        reads=("k8s.env_secret_ref",),
        writes=("connections",),
        after=("compose.services", "config.address-values"),
    ),
    Rule(
        id="kubernetes.pod-stores",
        message=("A store container beside the application in one pod (a Deployment running the server and "
                 "postgres:14) is the application's own database, cache or broker: a component named after the "
                 "container, which the application uses on the pod's loopback"),
        unit="pod_stores",
        reads=("k8s.container",),
        writes=("components", "connections"),
        after=("compose.services",),
    ),
    Rule(
        id="kubernetes.pod-programs",
        message=("A container beside the application in one pod running another image the project publishes is "
                 "another program of the system: its own component; a user interface (ui, web, frontend, "
                 "dashboard) is opened by people and calls the application beside it"),
        unit="pod_programs",
        reads=("k8s.container",),
        writes=("components", "connections"),
        after=("compose.services", "kubernetes.pod-stores"),
    ),
    Rule(
        id="kubernetes.custom-resources",
        message=("A system whose code is a client of the Kubernetes API server and which adds resource types to it "
                 "(CustomResourceDefinitions) is driven by people applying those resources: the user reaches the API "
                 "server; its controllers, API clients reached by no Ingress or LoadBalancer, are no front doors of their own"),
        unit="custom_resource_users",
        reads=("k8s.crd", "k8s.service"),
        writes=("components", "connections"),
        state=("ingress_routes",),
        after=("frontdoor.entry-points", "code.sdk-services"),
    ),
    Rule(
        id="kubernetes.admission-webhooks",
        message=("The Kubernetes API server calls the Services a Validating- or MutatingWebhookConfiguration "
                 "registers, on each admission: it connects to the workloads behind them"),
        unit="admission_webhooks",
        reads=("k8s.webhook",),
        writes=("connections",),
        after=("code.sdk-services", "compose.services"),
    ),
    Rule(
        id="kubernetes.aggregated-apis",
        message=("The Kubernetes API server proxies the API group an APIService registers to the Service behind it "
                 "(a metrics adapter the autoscaler reads, an extension API server): it connects to that workload"),
        unit="aggregated_apis",
        reads=("k8s.apiservice",),
        writes=("connections",),
        after=("code.sdk-services", "compose.services"),
    ),
    Rule(
        id="kubernetes.api-clients",
        message=("A workload whose service account a RoleBinding or ClusterRoleBinding grants rights in the "
                 "Kubernetes API, and whose code imports a Kubernetes client library (itself or through a library of "
                 "the system it depends on), calls the API server, and so does a program of the system no deployment runs "
                 "(its command-line tool) that loads the user's kubeconfig; a workload of the system's own published image "
                 "whose code the inputs do not hold (a chart repository's operator and agents, the image published under a name "
                 "the project goes by) calls it on its rights alone (not under another workload's account, nor bound only "
                 "to use a pod security policy); where people reached it for want of a "
                 "published door (the system's one program, a port nothing publishes), they drive it through the API "
                 "server instead"),
        unit="rbac_api_clients",
        reads=("k8s.workload", "k8s.cluster_binding", "k8s.role_binding", "import", "manifest"),
        writes=("components", "connections"),
        after=("code.sdk-services", "process.programs", "process.shared-code", "build.library-dependencies"),
        state=("file_owner", "package_owner", "package_holders", "packages", "process_parent"),
    ),
    Rule(
        id="kubernetes.knative-eventing",
        message=("Knative Eventing's resources wire the services: a Broker is a broker component (`default-broker`), a "
                 "service a Trigger subscribes to it consumes it, an event source (KafkaSource, PingSource) is a component "
                 "reading its system (the Kafka cluster its bootstrap servers name, Strimzi's `<cluster>-kafka-bootstrap`) "
                 "and sending to its sink, and the KafkaSinks are the `kafka-sink-ingress` that serves them all, writing to "
                 "the Kafka cluster"),
        unit="knative_eventing",
        reads=("knative.eventing",),
        writes=("components", "connections"),
        after=("build.units", "compose.services", "api.endpoints"),
    ),
    Rule(
        id="kubernetes.managed-instances",
        message=("An operator adding a resource type named for a technology (Kafka, Grafana, Postgresql, "
                 "RedisCluster; a Cluster of postgresql.cnpg.io) runs that technology for its users: a component of "
                 "it, which the operator manages and the users use"),
        unit="managed_instances",
        reads=("k8s.crd",),
        writes=("components", "connections"),
        after=("kubernetes.api-clients", "kubernetes.custom-resources"),
    ),
    Rule(
        id="kubernetes.launched-images",
        message=("A Kubernetes workload handed the image of another program of the system in a setting "
                 "(FUNCTION_RUNNER_IMAGE: ghcr.io/acme/deno-runtime:v3) starts containers of it: a task runner's jobs, "
                 "an operator's pods"),
        unit="launched_images",
        reads=("config.env",),
        writes=("connections",),
        after=("kubernetes.managed-instances",),
    ),
)
