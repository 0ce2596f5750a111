"""Rules of the process group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="process.programs",
        message=("Inside one repository, each program (main package, console script, Procfile line, launcher) is a "
                 "process owning the code its entry point reaches, named after the binary a build names it (a "
                 "GoReleaser build's binary, a Makefile's go build -o) and run by the deployment starting that "
                 "binary, or running an image named for the project and the words of the program's folder path "
                 "(acme-agent-ngt runs cmd/agent/core/ngt, one to one); a Go main package built or loaded as a plugin is none, nor is a "
                 "launcher whose one package of the repository is one the component's own program links "
                 "(atc/cmd/atc beside cmd/concourse), nor a program in a migration tool's folder; "
                 "a role's folder in its module's folder (service/order/rpc) is named with it (order-rpc), one program each; "
                 "a deployment whose command starts the binary named for a program (`/opt/guac/guaccsub` of cmd/guaccsub) "
                 "runs that program"),
        unit="processes",
        reads=("import", "module.var", "manifest", "program.main", "cli.command", "code.function", "code.call",
               "server.start", "grpc.server", "http.route", "program.entry", "program.command",
               "docker.command", "program.script_main", "process.spawn", "messaging.subscribe", "http.client",
               "string.url", "cli.subcommand", "program.main_call", "value.assign", "plugin.lookup",
               "code.exported_var", "program.plugin_build", "program.build", "k8s.workload", "compose.service",
               "image.recipe", "docker.copy"),
        writes=("components", "ports", "connections", "attributes"),
        after=("frontdoor.entry-points",),
        state=("file_holders", "file_owner", "package_holders", "package_owner", "packages", "process_kind",
               "process_parent", "process_primaries", "process_reused", "spawn_names", "split_commands",
               "process_dispatchers"),
    ),
    Rule(
        id="process.undeployed-programs",
        message=("Of a module some of whose programs deployments run, a program under cmd/ that no deployment runs, "
                 "no recipe builds or copies, no command line names, no program spawns and no deployed component "
                 "calls is a tool of its developers (a generator, a stub, a debugging helper): listed, not drawn; "
                 "command-line programs stay"),
        unit="undeployed_programs",
        reads=("program.command", "docker.command", "program.build", "docker.copy", "process.spawn", "k8s.workload",
               "compose.service"),
        writes=("components", "aliases", "connections", "unresolved"),
        after=("process.programs",),
        state=("file_holders", "file_owner", "package_holders", "package_owner", "process_kind", "process_parent",
               "process_reused", "spawn_names", "split_commands"),
    ),
    Rule(
        id="process.job-workers",
        message=("In a system that deploys nothing, a service depending on a job-queue library whose jobs run in a "
                 "process of their own (Celery, RQ, Sidekiq or a gem wrapping or extending it, govuk_sidekiq, delayed_job, Laravel Horizon) runs a worker beside it "
                 "(<name>-worker), which reaches the stores and brokers the application reaches"),
        unit="job_workers",
        reads=("manifest.dependency",),
        writes=("components", "connections", "attributes"),
        after=("process.idle-programs", "stores.sql-drivers", "stores.implied", "stores.configured-sections",
               "code.address-literals", "code.sdk-services", "stores.embedded-engines"),
    ),
    Rule(
        id="process.idle-programs",
        message=("A program of a split component that, once every other rule has run, calls nothing, is started or "
                 "called by nothing of the system, publishes no port and runs in no deployment (a key generator, a "
                 "container's init helper, a kubectl plugin) is code, not a running component: people could start "
                 "it, and that is all the model knows of it; one waiting for the stop signal (SIGTERM) is a daemon "
                 "and stays"),
        unit="idle_programs",
        reads=("process.awaits_stop",),
        writes=("kinds", "connections", "attributes"),
        after=("process.programs", "frontdoor.command-line", "kubernetes.launched-images", "code.address-echo",
               "build.library-calls", "stores.logical-databases"),
        state=("process_kind", "process_parent", "process_reused"),
    ),
    Rule(
        id="process.links",
        message=("A process spawning another, or calling its routes or gRPC services on the loopback, is connected "
                 "to it"),
        unit="process_links",
        reads=("process.spawn", "http.call_path", "code.client_new", "http.client", "string.url", "grpc.client", "grpc.client_ref",
               "grpc.server"),
        writes=("connections", "attributes"),
        after=("process.programs",),
        state=("file_holders", "file_owner", "package_holders", "package_owner", "packages", "process_kind",
               "process_parent", "process_reused", "spawn_names", "split_commands"),
    ),
    Rule(
        id="process.shared-code",
        message=("Code imported by several processes of one repository is a shared library with an edge from each "
                 "user; so is a module whose programs the deployments run, each from its own folder; a deployment "
                 "whose processes supervisord keeps running in its container is that container, not shared code"),
        unit="shared_code",
        reads=("program.main",),
        writes=("kinds", "connections", "attributes"),
        after=("process.programs", "process.links"),
        state=("file_owner", "package_owner", "packages", "process_primaries", "process_dispatchers"),
    ),
    Rule(
        id="process.shared-connections",
        message=("A call made in code several processes of one component share is made by each process whose "
                 "imports reach that code, not by the component they were split from"),
        unit="shared_connections",
        reads=(),
        writes=("connections", "attributes"),
        after=("process.programs", "process.links", "process.shared-code"),
        state=("file_holders", "file_owner", "package_holders", "package_owner", "packages", "process_parent",
               "process_primaries"),
    ),
    Rule(
        id="process.supervised",
        message=("Each program a process manager (s6, supervisord, a Procfile, systemd units; a developer's Procfile.dev "
                 "where no Procfile is kept and the deployments only start published stores beside the application "
                 "run on the machine, less its asset dev servers and watchers) keeps running beside "
                 "a component's own is a process of it, using the stores that component is configured with; a web "
                 "server started so (nginx beside php-fpm under s6) is the container's front door, a gateway in front "
                 "of the component, and the one application server (php-fpm, gunicorn, puma) the component's own "
                 "program; a unit "
                 "starting a binary a deployment of the system runs under that name is that deployment; a developer's "
                 "file watcher (modd) starts processes only where a deployment runs it; a container's start script "
                 "running a web server or a store in the background (`nginx -g 'daemon off;' &`, `redis-server ... &`) "
                 "puts that web server in front of the application and that store beside it; a crontab an image installs "
                 "whose jobs run the application's code is its scheduler, `<component>-cron`; "
                 "runit's service folders (runit/<name>/run) are read as s6's, and supervisord's included program files "
                 "(supervisord.d/*.ini) as its own; a process file starting a front end's development server or a mail catcher "
                 "(webpack-dev-server, mailcatcher) is a developer's, starting no process of the system; a systemd unit of a "
                 "host install starting nothing a deployment runs is no process of a component compose or Kubernetes runs "
                 "in a container; a store's own server it starts (redis-server, etcd, mosquitto, "
                 "clickhouse-server) is that store beside the component"),
        unit="supervised_processes",
        reads=("program.command", "program.lifecycle", "import", "module.var", "compose.service", "docker.from",
               "docker.command", "docker.copy", "k8s.workload"),
        writes=("components", "aliases", "attributes", "connections"),
        after=("process.programs", "process.links", "api.endpoints"),
        state=("process_parent", "process_primaries", "packages"),
    ),
    Rule(
        id="process.mail-delivery-workers",
        message=("A Ruby application's mail goes out from its job worker (ActionMailer's deliver_later): a worker "
                 "running the application's code (a Procfile's Sidekiq, a deployment of its image started as "
                 "bin/jobs) calls the mail service the application's client reaches (GOV.UK Notify, SendGrid, "
                 "Postmark)"),
        unit="mail_delivery_workers",
        reads=(),
        writes=("connections",),
        after=("process.supervised", "process.image-commands", "code.sdk-services", "code.unconfigured-sdk",
               "process.job-workers", "process.shared-connections"),
    ),
    Rule(
        id="process.supervised-stores",
        message=("A process a process manager keeps running beside a component's own (a Procfile's worker) runs that "
                 "component's code with its settings: it uses the stores, caches and brokers the component turned out to "
                 "use once every store rule has run (a scheduler only the caches and brokers)"),
        unit="supervised_stores",
        reads=(),
        writes=("connections", "attributes"),
        after=("process.supervised", "process.job-workers", "stores.sql-drivers", "stores.embedded-engines",
               "stores.platform-addons"),
    ),
    Rule(
        id="process.one-container",
        message=("The programs supervisord keeps running inside one container are processes of the deployment that "
                 "starts supervisord (else of the component they were found in), not components beside it: they "
                 "fold into it, which lists them as its processes; so are a Procfile's processes where the image "
                 "recipe beside the Procfile starts a Procfile manager (CMD [\"honcho\", \"start\"], foreman start)"),
        unit="one_container_processes",
        reads=("program.command", "docker.command"),
        writes=("components", "aliases", "attributes", "connections", "roots", "ports", "kinds"),
        after=("process.supervised", "process.shared-connections"),
    ),
    Rule(
        id="process.image-commands",
        message=("A deployment running, with another command, the image whose recipe builds a component's code "
                 "(a worker beside the web server) runs that code: it uses the stores the code is configured with"),
        unit="image_command_processes",
        reads=("program.command",),
        writes=("attributes", "connections"),
        after=("process.supervised", "compose.services"),
    ),
    Rule(
        id="process.spawned-binaries",
        message=("A process starting a program it looks up by name (exec.Command of what FindX returns) that the "
                 "repository's build ships (CMake install COMPONENT, add_executable) spawns that program"),
        unit="spawned_binaries",
        reads=("process.spawn_via", "program.finder", "program.shipped", "program.binary"),
        writes=("components", "connections", "attributes"),
        after=("process.programs", "process.links"),
        state=("packages", "file_owner", "file_holders", "package_owner", "package_holders", "process_parent"),
    ),
    Rule(
        id="process.named-addresses",
        message=("A setting or literal naming a host no component answered to when addresses were resolved connects "
                 "to the process of that name the process rules found (a systemd unit's program named in a compose "
                 "file's URL), and leaves the unresolved list"),
        unit="named_processes",
        reads=(),
        writes=("connections", "unresolved"),
        after=("process.supervised", "process.spawned-binaries", "process.image-commands"),
    ),
    Rule(
        id="process.host-programs",
        message=("A launched program whose build depends only on other programs' modules hosts them: hosting one, "
                 "it is that program started another way (folded into it); hosting several, it is their all-in-one "
                 "mode (left out, listed as unresolved)"),
        unit="host_programs",
        reads=("manifest", "manifest.dependency"),
        writes=("components", "aliases", "roots", "connections", "unresolved"),
        after=("build.launched-programs",),
    ),
    Rule(
        id="process.addressed-processes",
        message=("A proxy route or scrape target on a container that runs several processes reaches the process "
                 "listening on its port (the one whose settings say Port: 1001 for looklook:1001), or, for a scrape, "
                 "the one its job is named after (job_name: order-api); the container keeps only the addresses that "
                 "name none of them"),
        unit="addressed_processes",
        reads=("proxy.route", "monitoring.target", "config.property"),
        writes=("connections",),
        after=("observability.scrape-targets", "proxy.routes", "process.programs", "process.supervised",
               "process.shared-code", "process.one-container"),
        state=("file_owner", "package_owner", "packages", "process_parent"),
    ),
)
