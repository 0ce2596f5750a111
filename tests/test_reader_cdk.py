"""The CDK reader: constructs of a TypeScript stack as the CloudFormation facts a template gives
(functions with their code folder, what each names and on which line, grants, SSM parameters)."""

from __future__ import annotations

from repomodeler.extract.readers.registry import read_file

STACK = """\
import * as cdk from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import * as ssm from 'aws-cdk-lib/aws-ssm';

const RUNTIME = "nodejs20.x";

export class PaymentsStack extends cdk.Stack {
  constructor(scope: cdk.App, id: string) {
    super(scope, id);
    const table = new dynamodb.Table(this, "Table", {
      partitionKey: { name: "id", type: dynamodb.AttributeType.STRING },
    });
    const queue = new sqs.Queue(this, "RefundQueue");
    const busName = ssm.StringParameter.valueForStringParameter(this, "/shop/" + env + "/platform/bus-name");
    const envVars = {
      TABLE_NAME: table.tableName,
      BUS: busName,
    };
    const pay = new lambda.Function(this, "PayFunction", {
      code: lambda.Code.fromAsset("src/pay"),
      handler: "index.handler",
      runtime: lambda.Runtime.NODEJS_20_X,
      environment: envVars,
    });
    queue.grantSendMessages(pay);
    new ssm.StringParameter(this, "TableNameParameter", {
      parameterName: `/shop/${env}/payments/table-name`,
      stringValue: table.tableName,
    });
    // "new dynamodb.Table(this, 'Commented')" in a string is no construct
  }
}
"""


def _attrs(facts, kind):
    return [(f.line, dict(f.attrs)) for f in facts if f.kind == kind]


def test_constructs_references_and_parameters():
    facts, warnings = read_file("shop", "payments/lib/payments-stack.ts", STACK.encode())
    assert not warnings
    resources = {a["id"]: (line, a) for line, a in _attrs(facts, "cfn.resource")}
    assert sorted(resources) == ["PayFunction", "RefundQueue", "Table", "TableNameParameter"]
    line, fn = resources["PayFunction"]
    assert (line, fn["stack"], fn["code_uri"], fn["handler"], fn["type"]) == (
        21, "payments", "src/pay", "index.handler", "AWS::Lambda::Function")
    refs = {(a["source"], a["target"], a["via"], line) for line, a in _attrs(facts, "cfn.reference")}
    assert refs == {("PayFunction", "Table", "cdk", 25), ("PayFunction", "ssm:/shop/{}/platform/bus-name", "cdk", 25),
                    ("PayFunction", "RefundQueue", "cdk grant", 27)}
    assert _attrs(facts, "cfn.ssm") == [(28, {"name": "/shop/{}/payments/table-name", "stack": "payments",
                                              "target": "Table"})]


def test_a_file_without_the_cdk_is_not_read():
    facts, _ = read_file("shop", "web/src/app.ts", b'const t = new Table(this, "Table", {});\n')
    assert not [f for f in facts if f.kind.startswith("cfn.")]


PY_STACK = """\
from aws_cdk import Stack, aws_dynamodb as dynamodb, aws_lambda as _lambda, aws_ssm as ssm
from constructs import Construct


class OrdersStack(Stack):
    def __init__(self, scope: Construct, construct_id: str, **kwargs) -> None:
        super().__init__(scope, construct_id, **kwargs)
        # dynamodb.Table(self, "Commented") is no construct
        table = dynamodb.Table(self, "Table",
                               partition_key=dynamodb.Attribute(name="id", type=dynamodb.AttributeType.STRING))
        bus_name = ssm.StringParameter.value_for_string_parameter(self, f"/shop/{env}/platform/bus-name")
        fn = _lambda.Function(
            self, "CreateOrderFunction",
            code=_lambda.Code.from_asset("src/create_order"),
            handler="main.handler",
            runtime=_lambda.Runtime.PYTHON_3_12,
            environment={"BUS": bus_name},
        )
        table.grant_read_write_data(fn)
"""


def test_a_python_stack():
    facts, warnings = read_file("shop", "orders/orders/orders_stack.py", PY_STACK.encode())
    assert not warnings
    resources = {a["id"]: (line, a) for line, a in _attrs(facts, "cfn.resource")}
    assert sorted(resources) == ["CreateOrderFunction", "Table"]
    line, fn = resources["CreateOrderFunction"]
    assert (line, fn["stack"], fn["code_uri"], fn["handler"]) == (12, "orders", "src/create_order", "main.handler")
    refs = {(a["source"], a["target"], a["via"], line) for line, a in _attrs(facts, "cfn.reference")}
    assert refs == {("CreateOrderFunction", "ssm:/shop/{}/platform/bus-name", "cdk", 17),
                    ("CreateOrderFunction", "Table", "cdk grant", 19)}
