"""Rules of the compose group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="compose.services",
        message=("Compose services and Kubernetes workloads are the components that run: named by service or "
                 "workload, with their images, build folders and aliases (host names, Service names); a store "
                 "compose and Kubernetes deploy under two names is one, when a service deployed by both names it "
                 "under the same setting, or as its one store of that technology, on each side; a Kubernetes workload "
                 "or a service of another compose file running the image a module's build tool names (Jib, the .NET "
                 "SDK) is the compose service building that module from its Dockerfile; a Dockerfile building a monorepo's "
                 "context whose stages (the compose target's, else the last, and those it builds on) name one package "
                 "by its build tool's selector, working folder or copied folder builds that package's code; a "
                 "HashiCorp Nomad job's container task is a workload named after its job (an Ansible task starting a container, "
                 "docker_container, one named by its task), and a workload running the "
                 "image a compose service builds from code is that service (a local tag, `image: chat-auth:test`, "
                 "is the image of that name under any owner, `acme/chat-auth:v3`, and so is the image pushed under another owner with the first one folded into its name, `duber/invoice.api` as `vany0114/duber.invoice.api`, or under the service's own name, `acme/orders` for the service orders building code; a store by its image's name under "
                 "any owner, compose's `image: ${MONGO_IMAGE}` as its .env sets it); a build argument naming a folder of "
                 "code (`CMD_PATH: cmd/chat-api`) chooses the program a shared recipe builds; a service built from "
                 "recipes alone whose runtime is the project's language and which mounts the project's folder "
                 "(`.:/var/www/html`) runs the project's code, and so does a runner image of no build here started with the "
                 "project's package runner (`npm run dev`) where it mounts a Node project; a recipe named for the image an image-only "
                 "service runs (Dockerfile.frontend) builds it, and the files its last stage copies in are that service's; "
                 "an azure.yaml service (Azure Developer CLI) is the code of its project folder; a chart the project's documents "
                 "install (`helm install RELEASE CHART --set ...`) is rendered once per release of the first code block "
                 "installing it, with its values, and those releases stand in for the repository's plain manifests of what "
                 "they deploy (the same images); where the "
                 "root README starts the system with Compose (`docker compose up`) and never mentions an orchestrator "
                 "(kubectl, Kubernetes, Helm, Nomad), the manifests kept beside the compose file are another way to "
                 "deploy it, and so are the manifests kompose translated a compose file into (io.kompose.service) "
                 "where compose files run the programs; of alternative compose files with no default beside them, the fullest the root README starts "
                 "(`docker compose -f full-stack.yml up`) is the system, and the profiles its first start command names "
                 "are active, with those of its later start commands whose services wait for services already started "
                 "(`--profile infrastructure`, then `--profile services`; `up -d kafka` starts one service early and "
                 "is no start of the stack); the files a README start command names in the folder the README changes into (`cd "
                 "shop/examples/docker-compose`, `docker compose -f compose.yml -f compose-postgres.yml up`) are the system; an installer script (bootstrap.sh, install.sh) ending in `docker compose -f "
                 "... up` names the files that run; a Kubernetes Service belongs to the workload its selector picks among workloads sharing an "
                 "app label; workloads alike but for their `version` label are versions of one component, whatever "
                 "Services route to each version; manifests kept for a stage before production (a file or a folder "
                 "named staging, demo, sandbox beside production's) deploy the system again, not more of it; an image "
                 "reference with no name (`:` rendered from values the install sets) is no image workloads share; a workload written with `replicas: 0` that no autoscaler (HorizontalPodAutoscaler, KEDA "
                 "ScaledObject) sizes runs nothing; a compose file the root README prints is the deployment of a repository "
                 "keeping no compose file, manifest or chart of its own; a chart installed only by a contributor's guide "
                 "(CONTRIBUTING.md) is rendered with its defaults; a bare Pod restarted never or only on failure runs once, "
                 "like a Job; a file a compose file includes (`include:`) loads with it, and the .env's COMPOSE_PROFILES is "
                 "read with the .env's other settings filled in; a service named for a store (minio, redis) running an "
                 "image of no known technology is that store; numbered services of one application image a proxy "
                 "balances across in one backend (tb-core1, tb-core2, or the fixed addresses compose gives them) are instances of one service; a Knative Service is "
                 "a workload; a Kubernetes workload named as a compose service with dashes for its underscores "
                 "(celery-beat, celery_beat) is that service; the profiles the README's quick start writes into the "
                 ".env (COMPOSE_PROFILES), or names in its prose as the setting to give (`COMPOSE_PROFILES=backend,frontend`), "
                 "are active in every file of the project, the files it includes too (one named by a variable's default, "
                 "`opensearch.${CLUSTER_TYPE:-single-node}.yml`, is that file); an image named like a stage of the project's main recipe (acme/app, "
                 "`AS app`) runs the package that stage builds; a recipe in a folder named for an image-only service's image (acme/acme-manager, "
                 "docker/manager/dockerfile) that adds a built artifact packs what that service runs, also when the service's "
                 "command starts the start script that recipe adds (`/bin/sh /ks-start.sh`); a workload named for its kind of "
                 "object (orders-deployment, `{{ .Chart.Name }}-deploy`) whose app label is its name without that word is "
                 "named by the label; a workload whose image the install fills in, kept among the code of the one deployed "
                 "component building that folder (app/copilot/.../manifests/ under compose's `build: ./copilot`), runs "
                 "that component's code; "
                 "an image build script's docker build line says which code the image holds (a Windows batch file's too; building one stage, `--target orders`, the code that stage copies in), and so does a Skaffold artifact (image shop-frontend from the context src/frontend-nextjs), and a publishing workflow's build of an image it names in its `env:` (`ORDERS_IMAGE_NAME: ${{ github.repository_owner }}/orders-api`); an image a Maven module's "
                 "Docker plugin builds from its own Dockerfile (Spotify's or fabric8's docker-maven-plugin, JKube) runs "
                 "that module, and the applications (a war, a main class) a packaging module of no code depends on; services that run test suites (test_unit) make a test stack, one that only builds the image other services build on as a cache (cache_from, no command, no ports) runs nothing, and one running only a developer's check (golangci-lint, gofumpt, a Makefile's coverage target, run_format.sh) is none; where only stores start by default, the profile most program services share starts them; a README start command naming the default file with the files it adds is the stack; a file of published images the README starts before its plain start of the default file (`docker compose -f docker-compose-env.yaml up -d`, then `docker compose up -d`), under names the default file does not use, holds the stores the default file's programs stand on: part of the stack; EEx templates read as ERB's; a file compose hands a service through `configs:` is in its container like a bind mount; of a folder's default files Compose loads the one it prefers (compose.yaml before a deprecated docker-compose.yml, and not what that one includes); a folder of charts several of which are versions of one (`deployment-chart_4-18-0`) is a catalog a platform offers its users, not a deployment; an image named after a technology whose name goes on to a program's part (`kafka-ml-backend`, `kafka-ml-tfexecutor`) is a project's program, not that store; a variable written bare in a flow list (`test: ['CMD-SHELL', ${CMD}]`) is read as the quoted string it stands for; of a system of several repositories, a deployment repository (compose, no code) running the published image of another input's code is how it runs, the code repositories' own compose files their developers' stacks; of services building one folder with recipes of their own, code of a language its final stage's stock runtime does not run (PHP in `FROM node`) is the others'; a variant file building a folder with a package manifest (the repository's root, `context: ./`) beside a default file of stores only is how the system runs; a service listing the empty profile (`profiles: [core, '']`) starts with a plain `up`; the folder a service's build arguments name in a shared recipe (`COPY $BUILD_BASE_PATH/`) is its code before the common library the recipe copies for all; a store's image the repository builds only to start it another way (`FROM mongo:4` and an entrypoint) is that store; a store a chart installs as a dependency is known by the Service names that chart gives it, renamed by the chart's values (`kafka.nameOverride: shop-kafka`: `<release>-shop-kafka`; `fullnameOverride`)"),
        unit="deployment_components",
        reads=("docker.command", "compose.service", "compose.mount", "docker.from", "k8s.workload", "k8s.service", "k8s.variant",
               "k8s.autoscaled",
               "k8s.cluster_binding", "manifest", "config.env", "program.command", "docker.copy", "import",
               "manifest.image", "config.property", "docker.workspace_target", "docker.stage", "program.main", "helm.dependency",
               "manifest.dependency", "manifest.dev_dependency", "readme.copy", "compose.variable_mount", "proxy.route",
               "program.build", "docker.artifact", "program.java_main", "manifest.bundle", "compose.network_alias"),
        writes=("components", "kinds", "aliases", "roots", "attributes"),
    ),
    Rule(
        id="compose.init-jobs",
        message=("A one-shot job others wait for (condition service_completed_successfully) running their image "
                 "prepares what they run with: the stores it is handed are theirs too"),
        unit="init_job_connections",
        reads=("compose.depends", "compose.service"),
        writes=("connections",),
        after=("protocol.fold-unknown",),
    ),
    Rule(
        id="compose.shared-build",
        message=("Deployments building one context and running different commands of it load the same code and "
                 "configuration: a connection made there is made by each of them (a context that is the whole "
                 "repository counts when they build it alike: one recipe, target and arguments, and so does a service "
                 "of that image holding only files mounted into it; so do services of one file running one application "
                 "image with the whole repository mounted where they work); a settings file one deployment's environment "
                 "points it at stays that deployment's own"),
        unit="shared_build_connections",
        reads=("compose.mount", "program.command", "compose.service", "k8s.workload", "config.env", "config.property"),
        writes=("connections", "attributes"),
        after=("protocol.fold-unknown",),
    ),
    Rule(
        id="compose.logging-drivers",
        message=("A compose service whose logging driver (syslog, GELF, Fluentd, Loki) sends its output to an "
                 "address of the system (a service's name, or localhost on the port a service publishes) is "
                 "connected to that log collector"),
        unit="log_driver_connections",
        reads=("compose.log_target", "server.start"),
        writes=("connections",),
        after=("compose.services", "config.address-values"),
        state=("ports_served", "ports_published"),
    ),
    Rule(
        id="compose.depends-on",
        message=("A compose service's links entry to a service nothing else connects it to is a connection, and so "
                 "is the depends_on of a service running the system's published image (no code or settings of it "
                 "here) on a store or known server it waits for, and the depends_on of a service on a store when it "
                 "is also handed a setting named for that store (REDISPASS, DBNAME, MYSQL_DATABASE), in its compose "
                 "file or an env file it is given, or whose value names the store as a host (a wait list "
                 "`postgresql:5432 redis:6379`, a settings dict's 'HOST':'postgresql'), or waits for the store to pass "
                 "its health check (condition: service_healthy)"),
        unit="depends_connections",
        reads=("compose.depends", "config.env", "docker.from", "compose.service", "compose.env_file",
               "manifest.dependency", "manifest.dev_dependency"),
        writes=("connections",),
        after=("stores.implied",),
    ),
    Rule(
        id="compose.network-aliases",
        message=("A compose service's network aliases, the names other services' links give it "
                 "(`links: [db:database]`) and its fixed address on a network (`ipv4_address: 10.7.7.5`) are "
                 "names it answers to: a URL naming one reaches that service, not an external host"),
        unit="network_aliases",
        reads=("compose.network_alias",),
        writes=("aliases",),
        after=("compose.services", "build.units"),
    ),
    Rule(
        id="compose.stack-variant-stores",
        message=("Two compose files running the same application, each beside its one store of a technology under "
                 "a name of its own (db in one, postgres in the other), are two ways of deploying one system: one "
                 "store, known by both names"),
        unit="stack_variant_stores",
        reads=("compose.service",),
        writes=("components", "aliases", "attributes", "roots", "connections", "ports"),
        after=("compose.services",),
    ),
    Rule(
        id="compose.database-alternatives",
        message=("Three or more databases of different engines in one compose file, two of them SQL engines (Cassandra "
                 "counted beside them), used by the same applications "
                 "(a development stack's matrix: db_mysql, db_postgres, db_maria, db_ms), are alternatives the "
                 "application is pointed at one of: one database, known by every name"),
        unit="database_alternatives",
        reads=(),
        writes=("components", "aliases", "attributes", "roots", "connections", "ports"),
        after=("compose.depends-on", "config.address-values"),
    ),
)
