"""The CloudFormation/SAM reader: what a user checks in a template (this function uses this table,
on this line; this stack publishes this SSM parameter), JSON as YAML, and a bad template as a warning."""

from __future__ import annotations

from repomodeler.extract.readers.registry import read_file

SAM = """\
AWSTemplateFormatVersion: "2010-09-09"
Transform: AWS::Serverless-2016-10-31
Parameters:
  Environment:
    Type: String
    Default: dev
  EventBusName:
    Type: AWS::SSM::Parameter::Value<String>
    Default: /shop/dev/platform/bus-name
Globals:
  Function:
    Runtime: python3.12
    Handler: main.handler
    Environment:
      Variables:
        TABLE_NAME: !Ref Table
Resources:
  Table:
    Type: AWS::DynamoDB::Table
  Queue:
    Type: AWS::SQS::Queue
  CreateFunction:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: src/create/
      Environment:
        Variables:
          BUS: !Ref EventBusName
          SECRET: "{{resolve:ssm:/shop/${Environment}/payments/url}}"
      Policies:
        - DynamoDBCrudPolicy:
            TableName: !Ref Table
        - EventBridgePutEventsPolicy:
            EventBusName: !Ref EventBusName
        - Statement:
            - Effect: Allow
              Action: sqs:SendMessage
              Resource: !GetAtt Queue.Arn
      Events:
        FromQueue:
          Type: SQS
          Properties:
            Queue: !GetAtt Queue.Arn
        Api:
          Type: Api
          Properties: {Path: /orders, Method: POST}
  TableName:
    Type: AWS::SSM::Parameter
    Properties:
      Name: !Sub /shop/${Environment}/orders/table
      Type: String
      Value: !Ref Table
Outputs:
  QueueUrl:
    Value: !Ref Queue
    Export:
      Name: !Sub "${AWS::StackName}-queue"
"""


def _facts(path: str, text: str):
    facts, warnings = read_file("shop", path, text.encode())
    return facts, warnings


def _attrs(facts, kind):
    return [(f.line, dict(f.attrs)) for f in facts if f.kind == kind]


def test_function_and_what_it_uses():
    facts, warnings = _facts("orders/template.yaml", SAM)
    assert not warnings
    fn = [a for _l, a in _attrs(facts, "cfn.resource") if a["id"] == "CreateFunction"][0]
    assert (fn["stack"], fn["code_uri"], fn["handler"], fn["runtime"], fn["implicit_api"]) == (
        "orders", "src/create/", "main.handler", "python3.12", "true")
    refs = {(a["source"], a["target"], a["via"], line) for line, a in _attrs(facts, "cfn.reference")}
    assert ("CreateFunction", "Table", "env TABLE_NAME", 16) in refs  # Globals apply to every function
    assert ("CreateFunction", "EventBusName", "env BUS", 28) in refs
    assert ("CreateFunction", "ssm:/shop/{}/payments/url", "env SECRET", 29) in refs
    assert ("CreateFunction", "Table", "policy DynamoDBCrudPolicy", 32) in refs
    assert ("CreateFunction", "EventBusName", "policy EventBridgePutEventsPolicy", 34) in refs
    assert ("CreateFunction", "Queue", "iam", 38) in refs
    assert ("CreateFunction", "Queue", "event SQS", 43) in refs
    assert not any(t == "Environment" and v.startswith("policy") for _s, t, v, _l in refs)


def test_cross_stack_facts():
    facts, _ = _facts("orders/template.yaml", SAM)
    params = {a["name"]: a for _l, a in _attrs(facts, "cfn.parameter")}
    assert params["EventBusName"]["default"] == "/shop/dev/platform/bus-name"
    assert _attrs(facts, "cfn.ssm") == [(47, {"name": "/shop/{}/orders/table", "stack": "orders", "target": "Table"})]
    assert _attrs(facts, "cfn.export") == [(54, {"name": "{}-queue", "stack": "orders", "target": "Queue"})]


def test_json_template_and_long_form_functions():
    text = ('{"AWSTemplateFormatVersion": "2010-09-09", "Resources": {\n'
            ' "Bucket": {"Type": "AWS::S3::Bucket"},\n'
            ' "Fn": {"Type": "AWS::Lambda::Function", "Properties": {"Handler": "app.handler",\n'
            '   "Environment": {"Variables": {"BUCKET": {"Ref": "Bucket"},\n'
            '     "PEER": {"Fn::ImportValue": {"Fn::Sub": "${Env}-api-url"}}}}}}}}\n')
    facts, warnings = _facts("infra/stack.template.json", text)
    assert not warnings
    refs = {(a["target"], a["via"], line) for line, a in _attrs(facts, "cfn.reference")}
    assert refs == {("Bucket", "env BUCKET", 4), ("import:{}-api-url", "env PEER", 5)}


def test_parameters_file_beside_a_template():
    facts, _ = _facts("orders/metadata.yaml", "name: orders\nparameters:\n  EventBusName: /shop/{Env}/platform/bus\n")
    assert _attrs(facts, "cfn.parameter.value") == [
        (3, {"name": "EventBusName", "stack": "orders", "value": "/shop/{Env}/platform/bus"})]


def test_unknown_tags_and_a_broken_template():
    facts, warnings = _facts("t/template.yaml", "Resources:\n  X:\n    Type: AWS::SQS::Queue\n"
                                                "    Properties: {Tags: !Custom {a: 1}}\n")
    assert [a["id"] for _l, a in _attrs(facts, "cfn.resource")] == ["X"] and not warnings
    facts, warnings = _facts("t/template.yaml", "Resources:\n  X: [\n")
    assert facts == [] and len(warnings) == 1 and "template.yaml" in warnings[0].message


def test_an_openshift_template_stays_kubernetes():
    text = ("apiVersion: template.openshift.io/v1\nkind: Template\nobjects:\n  - apiVersion: apps/v1\n"
            "    kind: Deployment\n    metadata: {name: orders}\nparameters:\n  - name: IMAGE\n")
    facts, _ = _facts("openshift/template.yaml", text)
    assert not [f for f in facts if f.kind.startswith("cfn.")]


def test_connectors_workflows_and_topic_subscriptions():
    text = """\
Transform: AWS::Serverless-2016-10-31
Resources:
  Table:
    Type: AWS::DynamoDB::Table
  Topic:
    Type: AWS::SNS::Topic
  Fn:
    Type: AWS::Serverless::Function
    Properties: {CodeUri: src/fn/, Handler: main.handler, Runtime: python3.12}
    Connectors:
      TableConn:
        Properties:
          Destination:
            Id: Table
          Permissions: [Read]
  Sub:
    Type: AWS::SNS::Subscription
    Properties:
      Protocol: lambda
      TopicArn: !Ref Topic
      Endpoint: !GetAtt Fn.Arn
  Flow:
    Type: AWS::Serverless::StateMachine
    Properties:
      DefinitionUri: statemachine/flow.asl.json
      DefinitionSubstitutions:
        FnArn: !GetAtt Fn.Arn
        TableName: !Ref Table
  Conn:
    Type: AWS::Serverless::Connector
    Properties:
      Source: {Id: Flow}
      Destination: {Id: Topic}
      Permissions: [Write]
"""
    facts, warnings = _facts("orders/template.yaml", text)
    assert not warnings
    refs = {(a["source"], a["target"], a["via"], line) for line, a in _attrs(facts, "cfn.reference")}
    assert refs == {("Fn", "Table", "connector", 14), ("Fn", "Topic", "event SNS", 20),
                    ("Flow", "Fn", "definition FnArn", 27), ("Flow", "Table", "definition TableName", 28),
                    ("Flow", "Topic", "connector", 33)}


def test_joined_names_fold_their_references():
    text = ("AWSTemplateFormatVersion: '2010-09-09'\nResources:\n  Bus:\n    Type: AWS::Events::EventBus\n"
            "  BusName:\n    Type: AWS::SSM::Parameter\n    Properties:\n"
            "      Name: !Join ['/', ['', shop, !Ref Environment, bus]]\n      Value: !Ref Bus\n")
    facts, _ = _facts("platform/template.yaml", text)
    assert [a["name"] for _l, a in _attrs(facts, "cfn.ssm")] == ["/shop/{}/bus"]
