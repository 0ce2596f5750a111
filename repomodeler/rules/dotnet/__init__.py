"""Rules of the dotnet group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="dotnet.aspire-resources",
        message=(".NET Aspire AppHost resources (AddProject, AddRedis, AddPostgres, AddOllama, apps of a folder such as "
                 "AddPythonUvicornApp...) are components and WithReference links are connections; a resource added to "
                 "another (storage.AddBlobs) stands for that one; an app started from a folder inside a project the "
                 "AppHost adds (AddViteApp of Shop.Web/ClientApp) is that project's UI, not a component; an OpenTelemetry collector "
                 "added with app forwarding receives every project's telemetry; Azure Service Bus "
                 "and Event Hubs are brokers, and the managed Azure services an AppHost provisions (Application Insights, "
                 "Key Vault, OpenAI, AI Search, SignalR) are external services; a resource named by a constant "
                 "(AddProject<BookWorm_Catalog>(Services.Catalog), AddKafka(Components.Broker)) takes the constant's value, "
                 "an AppHost is the Program.cs or AppHost.cs of a folder named for it however spelled (AppHost, app-host), "
                 "and the Azure-hosted servers run as local containers (AddAzurePostgresFlexibleServer, "
                 "AddAzureManagedRedis) are the stores of their technology"),
        unit="aspire_components",
        reads=("aspire.statement", "manifest", "const.string"),
        writes=("components", "aliases", "roots", "connections", "attributes"),
        after=("compose.services",),
        state=("databases_named",),
    ),
)
