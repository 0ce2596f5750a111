"""Rules of the config group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="config.unread-settings",
        message=("A setting one deployment hands alike to several components built from code here (one environment "
                 "list, a YAML anchor, one env_file) links only those whose code or framework reads its name; for "
                 "the others it is listed as unread, not drawn; of a shared module filling a configuration object "
                 "from the environment (`SERVER_CONFIG = { ORDERS_SERVICE: { SERVER_ORIGIN: process.env.X } }`), a "
                 "program importing it reads the settings kept in the members its code uses"),
        unit="unread_settings",
        reads=("config.env", "compose.env_file", "env.read", "env.read_ref", "config.read", "config.tag",
               "config.field", "config.property", "const.string", "value.invoke", "value.assign", "import",
               "manifest.dependency", "env.read_member", "config.member_ref"),
        writes=("unresolved",),
        after=("compose.services", "build.units", "proxy.virtual-hosts"),
        state=("withheld_settings",),
    ),
    Rule(
        id="config.caller-settings",
        message=("A setting or literal naming the component's callers or where browsers are sent (allowed CORS "
                 "origins, OAuth redirect and post-logout URIs, an ACME certificate authority) is no call; a browser "
                 "app of the system at an allowed origin calls the component"),
        unit="caller_settings",
        reads=("docker.from", "config.env", "config.property", "value.assign", "value.invoke", "string.url", "string.hostport",
               "compose.env_file", "compose.service", "env.read", "config.read", "server.start"),
        writes=("connections",),
        after=("compose.services", "build.units", "frontend.webapps"),
        state=("withheld_settings", "ports_served", "ports_published", "env_values"),
    ),
    Rule(
        id="config.address-values",
        message=("A setting (env var, config property, ConfigMap) whose value is an address of another component "
                 "connects its owner to it; an unknown data-store address introduces that store, and so does an address "
                 "on the Docker host (host.docker.internal) at a store's or Ollama's standard port no service publishes; "
                 "an OpenShift route's generated host (`<route>-<namespace>.apps.<cluster domain>`) is the service the route is "
                 "named for; an application's own public address (APP_URL, SITE_URL, ORO_APP_URL) is no system it calls, nor are the links "
                 "its pages show people (terms, help, the footer's FOOTER_CHAT_LINK); "
                 "a database or "
                 "cache handed a whole ConfigMap (envFrom) does not call the services its keys name, nor does a published image "
                 "of another product handed the env file the system's own programs share (fcrepo given a Rails app's .env); a shared "
                 "configuration module's application.properties configures the services depending on it, a profile "
                 "file the default file activates is the running configuration, and a store at a private address "
                 "nobody of the inputs serves is the store its scheme or standard port names on that machine; an INI "
                 "file a compose service mounts (st2.docker.conf) configures that service; a published application "
                 "image bind-mounting only folders the repository does not hold (./uploads, made at run time) still "
                 "takes its stores from the env file the project's services share; a setting naming an SQLite file "
                 "(DSN=sqlite:///var/lib/db.sqlite) is the service's embedded database, drawn as sqlite unless it is "
                 "handed a database server; a cluster DNS name of a Service the system does not install, in a setting its "
                 "code reads, is an external system named after that Service; a settings template's example value (.env.example) yields to "
                 "the value the deployment's own files give the same variable (a chart's production values, "
                 "`generic-service.env.API_HOST`), and Helm values for test clusters (values-dev.yaml, values-preprod.yaml) "
                 "are no settings of the deployed system; "
                 "an address under LocalStack's domain (`s3.localhost.localstack.cloud`) is the LocalStack the system runs, and a HOCON file (`config.hocon`) a service mounts where its command points configures it; "
                 "a stock web server's image (nginx) handed the application's environment whole reaches no store by it; "
                 "an env file compose hands the system's services is theirs, not the settings of the component whose folder holds it (a static file server built from the root context); "
                 "a host named for a store's technology at its own port in a program's settings (redis:6379) is that store; a folder of settings several services mount configures each by its shared file; "
                 "a setting named for the tests (TEST_URL) is what the test suite reaches; an env file named for the "
                 "key (env_file: env_file_app) is read from its committed template (env_file_app_template), and so is a variable compose passes on with an empty default (`AWS_ENDPOINT_URL=${AWS_ENDPOINT_URL:-}`) from the .env template beside it; .NET's "
                 "`Redis:Configuration` and `ConnectionStrings:Redis` name a Redis (a StackExchange.Redis string's first "
                 "endpoint), and a store's scheme at localhost without a port is the store serving its standard port"),
        unit="config_connections",
        reads=("compose.mount", "program.command", "docker.from", "config.property", "config.env", "compose.env_file", "compose.service", "k8s.configmap", "k8s.env_from",
               "k8s.env_key_ref", "env.read", "config.read", "manifest.dependency", "annotation", "import", "const.string", "server.start"),
        writes=("connections", "components", "unresolved"),
        after=("platform.roles", "spring.application-name", "proxy.virtual-hosts", "config.unread-settings",
               "config.caller-settings"),
        state=("component_signs", "databases_named", "env_values", "ports_published", "ports_served",
               "protocol_unknown", "withheld_settings"),
    ),
    Rule(
        id="config.document-keys",
        message=("An address read by key from a configuration document connects the code reading the key to the "
                 "component at that address; a document a recipe copies into its image (a config.json template "
                 "filled when the container starts) connects the deployments built with that recipe, and one a compose "
                 "service mounts (conf/metanode.json, its peers at the fixed IPs the network gives them) connects "
                 "that service"),
        unit="config_documents",
        reads=("config.document", "config.key", "docker.copy", "compose.service", "compose.mount"),
        writes=("connections", "unresolved"),
        after=("config.address-values",),
        state=("protocol_unknown",),
    ),
    Rule(
        id="config.secret-files",
        message=("A connection string in a secrets file a local-file secret store serves (Dapr, .NET user secrets) "
                 "connects the components whose code reads its key to the component it names"),
        unit="secret_files",
        reads=("config.secret", "env.read", "env.read_ref", "config.read", "const.string", "value.invoke",
               "value.assign"),
        writes=("connections", "unresolved"),
        after=("config.address-values",),
        state=("databases_named", "env_values", "ports_published", "ports_served", "protocol_unknown"),
    ),
    Rule(
        id="config.underscore-service-hosts",
        message=("A bare host:port whose host is a compose service's name with an underscore (reader_service:5003), "
                 "given to a service in its settings, connects it to that service"),
        unit="underscore_service_hosts",
        reads=("compose.service", "config.env"),
        writes=("connections",),
        after=("config.address-values",),
        state=("protocol_unknown",),
    ),
    Rule(
        id="config.command-line-addresses",
        message=("An address a deployment passes to a service on its command line (hbbs -r relay:21117, "
                 "--upstream http://api:8000) connects it to that component of the system; a store's "
                 "connection URL there (amqp://user@rabbitmq:5672) declares that store, as a setting does; "
                 "a flag named for a peer's host (--master-host master) names it without a port"),
        unit="command_line_addresses",
        reads=("program.command", "k8s.workload", "config.env", "server.start"),
        writes=("components", "connections"),
        after=("config.address-values", "process.shared-code"),
        state=("ports_served", "ports_published"),
    ),
)
