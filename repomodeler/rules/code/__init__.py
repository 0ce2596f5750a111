"""Rules of the code group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="code.address-literals",
        message=("A URL, host:port or DSN literal in code naming another component connects the code's owner to "
                 "it; an HTTP URL to a foreign host used by a client (or given as its base address in a config's defaults: BaseURL) "
                 "introduces an external system; a default naming "
                 "a store nobody deploys, in a service its deployment hands a store of that technology, is the "
                 "developer's default (listed, not drawn); a constant several modules declare is, at each use, "
                 "the nearest declaration"),
        unit="code_connections",
        reads=("http.client", "env.read", "string.url", "string.hostport", "string.dsn", "string.browser_url",
               "config.env", "manifest.dependency", "import", "const.string", "value.invoke", "value.assign", "server.start",
               "value.field"),
        writes=("connections", "components", "unresolved"),
        after=("config.address-values",),
        state=("browser_facts", "databases_named", "env_values", "ports_served", "ports_published", "protocol_unknown",
               "withheld_settings"),
    ),
    Rule(
        id="code.client-calls",
        message=("An HTTP client call whose URL names a component (through a literal, an env var or a setting) "
                 "connects the caller to it, with the request line; a Kubernetes cluster DNS name reaches the Service "
                 "of its name, or is listed unresolved, never an external system; "
                 "a serverless platform's generated address of an app (Cloud Run's <service>-<hash>-<region>.a.run.app) reaches the component of that name"),
        unit="client_calls",
        reads=("http.client", "config.env"),
        writes=("connections", "components", "attributes", "unresolved"),
        after=("config.address-values",),
        state=("browser_facts", "env_values"),
    ),
    Rule(
        id="code.config-reads",
        message=("Code reading a setting (and Feign clients naming a service, by a literal or a constant) connects "
                 "to the component the setting's value names (a Laravel config('services.x.endpoint') the value its "
                 "config/services.php sets, or the environment variable named there); a Feign client kept in a shared API library is "
                 "called by the components importing it, directly or through a library of theirs"),
        unit="config_reads",
        reads=("config.read", "config.default", "feign.client", "config.env", "manifest.dependency", "import"),
        writes=("connections", "components", "unresolved"),
        after=("config.address-values", "build.library-dependencies"),
        state=("env_values", "ports_served", "ports_published", "protocol_unknown", "databases_named"),
    ),
    Rule(
        id="code.store-drivers",
        message=("A data-store or broker driver imported by a component (a Ruby application's gem) that holds no address of it, or a connection "
                 "URL it builds from settings (f\"postgresql://{user}@{HOST}/db\"), connects the component to the one "
                 "store of that technology"),
        unit="driver_connections",
        reads=("import", "value.assign", "manifest.dependency"),
        writes=("connections",),
        after=("config.address-values", "code.address-literals", "code.client-calls", "code.config-reads"),
    ),
    Rule(
        id="code.sdk-services",
        message=("A service importing the client library of a hosted service (Stripe, SendGrid, OpenAI, Firestore, "
                 "S3, Key Vault, GOV.UK Notify, Temporal: the system's own Temporal service where it runs one; a Rails application's Gemfile gem plugging the service in as ActionMailer's delivery method counts, Bundler loads it; an automatic-HTTPS library such as certmagic: Let's Encrypt) calls that external system, as does a Rails "
                 "application whose production environment keeps uploads in a provider's Active Storage service "
                 "(`config.active_storage.service = :amazon`, config/storage.yml's `service: S3`); one importing a provider-neutral object-storage "
                 "library (objstore, gocloud.dev/blob) uses the system's object storage; a deployment answering to the "
                 "service's name with no code of its own (an emulator) is where the client reaches it, and a LocalStack "
                 "the system runs is where its AWS clients (S3, SQS, SNS) reach (a queue or topic client is drawn only "
                 "there: elsewhere it is often one messaging provider of several)"),
        unit="sdk_services",
        reads=("import", "module.var", "storage.service", "storage.choice", "manifest.dependency"),
        writes=("components", "connections", "attributes", "aliases"),
        after=("code.address-literals", "code.client-calls", "config.address-values"),
    ),
    Rule(
        id="code.optional-plugins",
        message=("An external system only plug-ins reach (code under plugins/<name>/, *-plugins/), or one of four or "
                 "more vendors each reached only from a module named after it (an integration catalog), or one reached "
                 "only from a module named after it among eight or more sibling modules (a folder of destinations, "
                 "parsers or connectors), or an external system or undeployed store reached only from modules named for "
                 "its technology among eight or more siblings (acquisition/modules/docker, .../kafka, .../s3: data sources "
                 "an operator configures), or one whose every link is a setting of a configuration section naming four or "
                 "more vendors' endpoints (alerter.telegram-webhook-url, alerter.discord-webhook-url...), is an optional "
                 "integration an operator enables: listed as unresolved with the plug-in's line, not drawn"),
        unit="optional_plugins",
        reads=("string.url", "config.property"),
        writes=("components", "aliases", "connections", "unresolved"),
        after=("process.shared-code",),
    ),
    Rule(
        id="code.vendor-domains",
        message=("Hosts of one vendor's registered domain (api.github.com beside github.com) are one external "
                 "system, named by the domain, the other hosts its aliases; cloud platforms' service subdomains stay apart. "
                 "An external is known by its vendor's name too (api.pushover.net: pushover)"),
        unit="vendor_domains",
        reads=(),
        writes=("components", "aliases", "connections"),
        after=("code.optional-plugins",),
    ),
    Rule(
        id="code.project-site",
        message=("Hosts of the project's own domain (named like its root package or module, or its repository: "
                 "updates.getoutline.com in outline, app.lago.dev in lago) are the vendor's update checks and telemetry, "
                 "not parts of the deployed system: listed, not drawn"),
        unit="project_sites",
        reads=("manifest", "compose.service"),
        writes=("components", "aliases", "connections", "unresolved"),
        after=("code.vendor-domains",),
    ),
    Rule(
        id="code.unset-credentials",
        message=("An external system its deployed callers reach only with a key naming the vendor (EXA_API_KEY, "
                 "RESEND_API_KEY) that no deployment hands them is an integration the operator has not turned on: "
                 "listed as unresolved with the line reading the key, not drawn; one whose key the deployment passes "
                 "stays"),
        unit="unset_credentials",
        reads=("config.env", "compose.env_file", "k8s.env_key_ref", "k8s.env_secret_ref", "env.read", "env.read_ref",
               "config.read",
               "const.string", "value.invoke", "value.assign"),
        writes=("components", "aliases", "connections", "unresolved"),
        after=("code.project-site",),
    ),
    Rule(
        id="code.integration-hub",
        message=("A component reaching twelve or more external vendors offers them as choices (model providers, "
                 "web-search tools, document connectors): those only it reaches and its deployment hands no setting "
                 "naming are optional integrations, listed as unresolved, not drawn"),
        unit="integration_hubs",
        reads=("config.env", "compose.env_file", "k8s.env_key_ref", "k8s.env_secret_ref"),
        writes=("components", "aliases", "connections", "unresolved"),
        after=("code.unset-credentials",),
    ),
    Rule(
        id="code.own-repository",
        message=("A code host reached only at the project's own repositories, under any host name it goes by "
                 "(api.github.com/repos/<owner>/<project>/releases/latest, raw.githubusercontent.com/<owner>/homebrew-tap): "
                 "the program checking for a newer release of itself, listed, not drawn"),
        unit="own_repository_checks",
        reads=("manifest", "compose.service", "string.url", "const.string"),
        writes=("components", "aliases", "connections", "unresolved"),
        after=("code.integration-hub",),
    ),
    Rule(
        id="code.raw-file-hosts",
        message=("A code host's raw file host (raw.githubusercontent.com, gist.githubusercontent.com) serves files kept "
                 "in repositories: a program reaching it downloads a file (a data list, a script), it calls no service; "
                 "listed at the caller's line, not drawn; one a gateway's reverse proxy forwards users to stays"),
        unit="raw_file_downloads",
        reads=(),
        writes=("components", "aliases", "connections", "unresolved"),
        after=("code.own-repository",),
    ),
    Rule(
        id="code.vendor-choices",
        message=("Code offering one capability through several vendors, each vendor's client in a part of its own side by "
                 "side in one folder (integrations/notion, integrations/raindrop...; storage/s3, storage/azure, "
                 "storage/gcs), leaves the choice to the operator: a vendor reached only from such a part, named by no "
                 "setting its deployment hands, is an optional integration, listed as unresolved, not drawn"),
        unit="vendor_choices",
        reads=("config.env", "compose.env_file", "k8s.env_key_ref", "k8s.env_secret_ref"),
        writes=("components", "aliases", "connections", "unresolved"),
        after=("code.integration-hub",),
    ),
    Rule(
        id="code.unconfigured-sdk",
        message=("A hosted service reached only through its client library, from services deployed by compose or "
                 "Kubernetes, that no setting of their repositories names (OPENAI_API_KEY, STORAGE_TYPE=s3, "
                 "stripe.secret-key) is an integration the operator has not configured: listed as unresolved at the "
                 "import, not drawn"),
        unit="unconfigured_sdks",
        reads=("config.env", "config.property", "config.setting", "config.secret", "compose.env_file",
               "k8s.env_key_ref", "k8s.env_secret_ref"),
        writes=("components", "aliases", "connections", "unresolved"),
        after=("code.vendor-choices",),
    ),
    Rule(
        id="code.address-echo",
        message=("A service that only tells its caller the caller's own public address (api.ipify.org, "
                 "checkip.amazonaws.com, icanhazip.com, ipinfo.io) is a probe of the host's network, not a system the "
                 "architecture uses: listed as unresolved, not drawn"),
        unit="address_echo",
        reads=(),
        writes=("components", "aliases", "connections", "unresolved"),
        after=("code.vendor-choices",),
    ),
    Rule(
        id="code.literal-hosts",
        message=("An outside host that only literal URLs of HTTP client calls in source code name (no setting, "
                 "deployment file, SDK or other rule names it, no deployment hands its callers a setting naming its vendor "
                 "(LYRICS_DB_TOKEN), and it calls nothing back) is a lookup, a release "
                 "check or an integration the code offers, seldom a part of the architecture the system's documents "
                 "draw: listed as unresolved at each call, not drawn"),
        unit="literal_hosts",
        reads=("http.client", "config.env", "compose.env_file", "k8s.env_key_ref", "k8s.env_secret_ref"),
        writes=("components", "aliases", "connections", "unresolved"),
        after=("code.address-echo",),
    ),
    Rule(
        id="code.ice-servers",
        message=("A WebRTC program whose code names public STUN or TURN servers in its ICE configuration "
                 "(stun:stun.l.google.com:19302) reaches them when its peers connect: one external stun-server (or "
                 "turn-server) node for those the system does not run itself; a sample's placeholder host is none"),
        unit="ice_servers",
        reads=("string.ice_server",),
        writes=("components", "connections"),
        after=("process.links", "process.supervised", "process.shared-code", "code.address-literals",
               "compose.services"),
        state=("file_owner", "package_owner", "package_holders", "packages", "process_parent"),
    ),
    Rule(
        id="code.error-reporting",
        message=("A program whose code holds a Sentry DSN (https://<hex key>@<host>/<project id>, a literal or a setting's "
                 "default) reports its errors there by default: one external sentry node it calls; a DSN setting left "
                 "empty reports nowhere, and a Sentry the system runs itself is connected by its address"),
        unit="error_reporting",
        reads=("string.url", "config.tag"),
        writes=("components", "connections"),
        after=("process.links", "process.supervised", "process.shared-code", "code.address-literals",
               "compose.services"),
        state=("file_owner", "package_owner", "package_holders", "packages", "process_parent"),
    ),
    Rule(
        id="code.mail-peers",
        message=("A component listening on SMTP's port 25 (its deployment's ports, its image's EXPOSE) is a mail "
                 "server the internet's mail servers deliver to: one external remote-mail-servers node reaches it; one "
                 "listening on a catcher's SMTP port (1025, 2500, 2525) and not on 25 receives the mail of the "
                 "applications under test: one external mail-senders node"),
        unit="mail_peers",
        reads=("compose.service", "docker.expose", "docker.command"),
        writes=("components", "connections"),
        after=("compose.services", "build.exposed-ports", "process.supervised", "process.one-container"),
        state=(),
    ),
    Rule(
        id="code.mail-senders",
        message=("A process whose code imports a library that sends mail by SMTP (smtplib, nodemailer, net/smtp, "
                 "lettre, JavaMail, Spring Mail, MailKit, PHPMailer, Laravel's Mail and mail notifications) or reads "
                 "the setting naming its SMTP server (EMAIL_HOST, MAIL_HOST, SMTP_HOST, MAILER_DSN: a framework's "
                 "mailer, configured rather than imported), and a deployment running its "
                 "code with another command (its worker), sends through a mail server: the "
                 "one a setting of it names, else the single mail server the system runs (a mail catcher), else one "
                 "external smtp node standing for the relay the operator configures"),
        unit="mail_senders",
        reads=("import", "env.read", "module.var", "manifest"),
        writes=("components", "connections"),
        after=("process.links", "process.supervised", "process.shared-code", "process.image-commands",
               "config.address-values", "code.address-literals", "code.config-reads", "compose.depends-on"),
        state=("file_owner", "package_owner", "package_holders", "packages", "process_parent", "ports_served"),
    ),
    Rule(
        id="code.container-engine",
        message=("A process whose code uses a container engine's SDK (Docker: docker/moby client, dockerode, docker-java, "
                 "docker-py; containerd; Podman), or a container the engine's socket is mounted into (/var/run/docker.sock: "
                 "a CI server or dashboard driving it with the docker CLI), drives that engine on its host: an external "
                 "docker-engine, containerd, podman"),
        unit="container_engine_clients",
        reads=("import", "module.var", "compose.mount", "manifest"),
        writes=("components", "connections"),
        after=("process.links", "process.supervised", "process.shared-code"),
        state=("file_owner", "package_owner", "package_holders", "packages", "process_parent"),
    ),
)
