"""Rules of the build group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="build.units",
        message=("A folder with its own build manifest and an entry point (or a Dockerfile) is a service where no "
                 "deployment covers it (a Java class named like an entry point, WebApplication.java, is one only "
                 "with a main method); a repository with code but neither is one service. A developer's tool in tools/, "
                 "hack/ or scripts/ that serves nothing and nothing deploys is not one; an app folder with its own Dockerfile "
                 "and code inside the root package of a monorepo is one of its own; an Azure Functions project or "
                 "a folder with a Functions host.json is a function app, whatever its code is called, and a .NET "
                 "project named Company.Product.Part is the part to a deployment naming only an image (or to a Kubernetes workload "
                 "whose chart leaves its image to be set at install, known by its name alone); a module built "
                 "without a Dockerfile is the deployment running the image its build tool names (the .NET SDK's "
                 "ContainerRepository, Jib's to.image, Spring Boot's build-image name, Quarkus' container-image name); "
                 "the modules of a folder collecting demos (zlt-demo/ with several demo modules, or a folder most of "
                 "whose modules are named as demos or samples, none with an image recipe of its own) that nothing deploys "
                 "are samples, not parts of the system; a package in a plug-ins folder (plugins/opencv/) that nothing "
                 "deploys is a plug-in its host loads, a library; the one application workload of a manifest kept beside a "
                 "folder's recipe (points/deployment.yaml next to points/Dockerfile), or in the module's own manifests "
                 "folder (a kubebuilder project's config/manager/manager.yaml), runs that folder's code; a Maven module "
                 "whose build or a parent's applies the Quarkus plugin is an application, with no main method (so is one applying Vert.x's "
                 "plugin, or fabric8's or JKube's Kubernetes/OpenShift plugin that deploys it); a package "
                 "building the project's documentation site with a static site generator (Docusaurus, VitePress, "
                 "Middleman, Jekyll, MkDocs) is none; a Go main function in a file not called main.go is an entry point "
                 "when its package starts a server (go-zero's service/order/rpc/order.go); "
                 "a module named for packing an image (manager-docker) answers to the program it packs; a crate building "
                 "a program (a Cargo [[bin]], at src/server.rs too) with an image recipe in its folder (docker/Dockerfile) "
                 "that no compose file builds ships as a service, whatever all-in-one program also links it"),
        unit="build_units",
        # "*": code of any kind outside every module decides whether a repository is one service
        reads=("compose.mount", "*", "manifest", "http.client", "env.read", "string.url", "docker.from", "docker.artifact",
               "docker.command", "docker.expose", "http.route", "manifest.dependency", "manifest.dev_dependency",
               "manifest.bundle", "config.property", "annotation", "compose.service", "k8s.workload", "functions.host",
               "manifest.image", "program.java_main", "program.main", "docker.workspace_target", "docker.stage", "docker.copy", "program.build",
               "iac.block", "iac.value", "server.start"),
        writes=("components", "aliases", "roots", "kinds", "attributes"),
        after=("compose.services", "dotnet.aspire-resources"),
        state=("artifacts",),
    ),
    Rule(
        id="build.deployed-programs",
        message=("A deployment of the repository's one image started with the name of a program it builds (by "
                 "its command, or its Dockerfile's ENTRYPOINT naming a crate's program, or building or running a Go "
                 "program from source: go run ./cmd/api) runs that program's folder; a service building nothing that runs "
                 "a published image named as one crate's program (ghcr.io/acme/billing-api, [[bin]] billing-api) runs "
                 "that crate"),
        unit="deployed_programs",
        reads=("compose.mount", "docker.from", "docker.copy", "program.binary", "program.command", "manifest", "docker.command", "compose.service", "program.main",
               "docker.workspace_target", "docker.stage"),
        writes=("roots", "components", "aliases"),
        after=("build.units",),
    ),
    Rule(
        id="build.versioned-recipes",
        message=("Recipe folders of one image kept per release (image/seafile_12.0/, image/seafile_13.0/, "
                 "image/seafile_13.0_arm/) that no deployment runs are one program, named without the release and "
                 "built from the newest release's recipe; the other folders are its history"),
        unit="versioned_recipes",
        reads=(),
        writes=("components", "aliases", "attributes", "connections", "roots", "ports"),
        after=("build.units",),
    ),
    Rule(
        id="build.languages",
        message="A component's language is the language of most of the source files it owns",
        unit="assign_languages",
        reads=(),
        writes=("attributes",),
        after=("build.units",),
    ),
    Rule(
        id="build.library-dependencies",
        message=("A build manifest depending on a library another component of the system builds is a library "
                 "dependency"),
        unit="library_dependencies",
        reads=("manifest.dependency", "manifest.dev_dependency"),
        writes=("connections",),
        after=("build.units",),
    ),
    Rule(
        id="build.library-calls",
        message=("A call made in a library of the system (a workspace module holding a client) is made by each "
                 "program linking it, when three programs at most link it"),
        unit="library_calls",
        reads=(),
        writes=("connections",),
        after=("build.library-dependencies", "code.address-echo"),
    ),
    Rule(
        id="build.exposed-ports",
        message=("A Dockerfile's EXPOSE gives its component's listening ports (a recipe at a workspace's root, the "
                 "ports of the one program its CMD or ENTRYPOINT starts)"),
        unit="exposed_ports",
        reads=("docker.expose", "docker.command"),
        writes=("attributes",),
        after=("build.units",),
    ),
    Rule(
        id="build.launched-programs",
        message=("A build module holding the Java main class a launcher script in bin/ starts is a running program, "
                 "known by the script's name"),
        unit="launched_programs",
        reads=("program.launch", "program.java_main", "manifest"),
        writes=("components", "kinds", "aliases", "roots", "attributes"),
        after=("build.units",),
    ),
)
