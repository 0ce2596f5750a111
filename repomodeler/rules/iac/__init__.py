"""Rules of the iac group (CloudFormation and SAM templates, Terraform and Bicep); each one's fixture cases are in
cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="iac.stacks",
        message=("A CloudFormation/SAM stack with functions is a service named after its template's folder (the "
                 "functions' CodeUri folders are its code); a stack with only an API is a gateway"),
        unit="cfn_stacks",
        reads=("cfn.resource", "cfn.parameter", "cfn.parameter.value", "cfn.reference"),
        writes=("components", "aliases", "roots", "attributes"),
        after=("compose.services",),
    ),
    Rule(
        id="iac.functions",
        message=("In a system deployed by one CloudFormation/SAM stack holding several functions, each function "
                 "(not a custom resource's deployment helper) is a service named after its logical id and each API a "
                 "gateway routing to the functions its methods integrate"),
        unit="cfn_functions",
        reads=("cfn.resource", "cfn.parameter", "cfn.parameter.value", "cfn.reference"),
        writes=("components", "aliases", "roots", "attributes"),
        after=("iac.stacks",),
    ),
    Rule(
        id="iac.resources",
        message=("The tables, buckets, queues, topics, event buses and user pools a stack's functions use are "
                 "stores and brokers, named after the stack when the logical id only repeats the type; a user pool "
                 "an app client signs users into, and a CloudFront distribution serving a bucket, users reach"),
        unit="cfn_resources",
        reads=("cfn.resource", "cfn.parameter", "cfn.parameter.value", "cfn.reference", "cfn.ssm", "cfn.export"),
        writes=("components", "aliases", "attributes"),
        after=("iac.functions",),
    ),
    Rule(
        id="iac.references",
        message=("A function's environment variables, policies, IAM statements and event sources connect its stack "
                 "to the resources they name, in its stack or in another one through SSM parameters and exports"),
        unit="cfn_references",
        reads=("cfn.resource", "cfn.parameter", "cfn.parameter.value", "cfn.reference", "cfn.ssm", "cfn.export"),
        writes=("connections", "attributes", "unresolved"),
        after=("iac.resources",),
    ),
    Rule(
        id="iac.api-front-doors",
        message=("A stack's API Gateway or AppSync API is a front door the user reaches, unless callers sign "
                 "requests (AWS_IAM) or another stack calls it"),
        unit="cfn_front_doors",
        reads=("cfn.resource", "cfn.parameter", "cfn.parameter.value", "cfn.reference", "cfn.ssm", "cfn.export"),
        writes=("attributes",),
        after=("iac.references",),
    ),
    Rule(
        id="iac.workloads",
        message=("A Terraform or Bicep container workload (Cloud Run, ECS task, Container App, Kubernetes deployment, "
                 "function) is a component named after the workload, or the component whose image or name it runs "
                 "(or whose module's build tool names its image: Jib, the .NET SDK's container publishing); "
                 "one image run as several workloads gives one component per workload; a workload named with the "
                 "project's name before a deployed service's name (shop-api beside compose's api) running that "
                 "service's image is that service; a job the platform runs to completion (a Cloud Run or Container "
                 "Apps job) that no scheduler runs is a task, not a component; a database the platform attaches outside "
                 "the containers (Cloud Run's Cloud SQL volume) is one the workload uses; a Bicep template's parameters "
                 "take the values of the parameters file it is deployed with (main.parameters.json beside main.bicep, "
                 "a .bicepparam file `using` it) in place of their defaults"),
        unit="iac_workloads",
        reads=("iac.block", "iac.value", "manifest", "manifest.image", "config.property"),
        writes=("components", "aliases", "attributes"),
        after=("build.launched-programs",),
        state=("env_values",),
    ),
    Rule(
        id="iac.stores",
        message=("The databases, buckets, topics and queues Terraform/Bicep workloads use, the stores of Dapr components "
                 "and the API gateways deployed are components (the one store of that technology the code uses, when "
                 "there is one); the external a setting names by the account's host of a managed Azure service "
                 "(tasks-state.documents.azure.com) is the only store of that technology the templates declare"),
        unit="iac_stores",
        reads=("iac.block", "iac.value"),
        writes=("components", "aliases", "attributes", "connections"),
        after=("iac.workloads", "code.sdk-services"),
    ),
    Rule(
        id="iac.links",
        message=("A workload's environment, secrets or arguments naming another workload or a store (by reference, "
                 "name or host) connect them; a Dapr component links the apps in its scopes to its store; a Pub/Sub "
                 "push subscription is a flow from its topic to the workload its endpoint names"),
        unit="iac_links",
        reads=("iac.block", "iac.value"),
        writes=("connections",),
        after=("iac.stores",),
    ),
    Rule(
        id="iac.gateways",
        message=("An API gateway (API Management, API Gateway) whose APIs point at a workload is a front door to it; "
                 "a workload with external ingress, public invoker or internet-facing load balancer is reached by "
                 "the user, unless another deployment puts it behind a reverse proxy"),
        unit="iac_front_doors",
        reads=("iac.block", "iac.value"),
        writes=("connections", "attributes"),
        after=("iac.stores", "proxy.routes", "kubernetes.ingress"),
    ),
)
