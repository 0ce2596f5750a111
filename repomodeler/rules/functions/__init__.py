"""Rules of the functions group (Azure Functions apps); each one's fixture cases are in cases/<rule id>*.yml
beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="functions.bindings",
        message=("An Azure Functions app's triggers and bindings (C# attributes such as [QueueTrigger], [CosmosDB], "
                 "[EventGridTrigger], [SignalR]; the bindings of a function.json) connect it to the one store or "
                 "broker of that technology: the one already known, else the one the Bicep or Terraform code "
                 "deploys, else one named after the technology"),
        unit="function_bindings",
        reads=("functions.binding", "functions.host", "manifest", "iac.block", "iac.value"),
        writes=("components", "aliases", "connections", "attributes"),
        after=("iac.links",),
    ),
    Rule(
        id="functions.service-settings",
        message=("A setting left empty for deployment to fill, handed to a service (Kubernetes or compose "
                 "environment, a function app's local.settings.json) and named after an Azure service's client "
                 "setting (DocDbEndpointUri, SqlConnectionString, AzureSignalRConnectionString, ...EventGridTopicUrl, "
                 "ServiceBusConnection) connects the service to the one store of that Azure service the system has "
                 "or its Bicep or Terraform code deploys"),
        unit="function_app_settings",
        reads=("config.env", "iac.block", "iac.value"),
        writes=("components", "aliases", "connections", "attributes"),
        after=("functions.bindings",),
    ),
)
