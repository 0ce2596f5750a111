"""Rules of the iac group (CloudFormation and SAM templates); each one's fixture cases are in
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
        id="iac.resources",
        message=("The tables, buckets, queues, topics, event buses and user pools a stack's functions use are "
                 "stores and brokers, named after the stack when the logical id only repeats the type"),
        unit="cfn_resources",
        reads=("cfn.resource", "cfn.parameter", "cfn.parameter.value", "cfn.reference", "cfn.ssm", "cfn.export"),
        writes=("components", "aliases", "attributes"),
        after=("iac.stacks",),
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
)
