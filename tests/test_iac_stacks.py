"""CloudFormation/SAM stacks resolved into a system: the evidence a user checks on a connection
(the template line of the reference), and what another stack should hand over but none defines."""

from __future__ import annotations

from repomodeler.graph.build import resolve_system
from repomodeler.records import Evidence
from repomodeler.rules.cases import extract_in_memory

ORDERS = """\
Transform: AWS::Serverless-2016-10-31
Parameters:
  PaymentsApiUrl:
    Type: AWS::SSM::Parameter::Value<String>
    Default: /shop/dev/payments/api/url
Resources:
  Table:
    Type: AWS::DynamoDB::Table
  CreateOrderFunction:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: src/create_order/
      Handler: main.handler
      Runtime: python3.12
      Environment:
        Variables:
          TABLE_NAME: !Ref Table
          PAYMENTS_API_URL: !Ref PaymentsApiUrl
"""


def _model(files: dict[str, str]):
    return resolve_system("shop", extract_in_memory({"shop": files}))


def test_connection_evidence_is_the_reference_line_and_code_is_the_stacks():
    model = _model({"orders/template.yaml": ORDERS,
                    "orders/src/create_order/main.py": "def handler(event, context):\n    return {}\n"})
    conn = model.connections[("orders", "orders-table", "http")]
    assert Evidence("shop", "orders/template.yaml", 17) in conn.evidence
    assert conn.attributes["via"] == "cloudformation env TABLE_NAME"
    assert ("shop", "orders/src/create_order") in model.components["orders"].source_roots


def test_a_parameter_no_stack_defines_is_unresolved_not_dropped():
    model = _model({"orders/template.yaml": ORDERS})
    assert [(u.component, u.value, u.evidence.line) for u in model.unresolved] == [
        ("orders", "ssm:/shop/dev/payments/api/url", 18)]
    assert not [k for k in model.connections if k[0] == "orders" and k[1] != "orders-table"]


def test_the_same_parameter_defined_by_another_stack_links_the_stacks():
    payments = """\
Transform: AWS::Serverless-2016-10-31
Parameters:
  Environment: {Type: String, Default: dev}
Resources:
  Api:
    Type: AWS::Serverless::Api
    Properties: {StageName: prod, Auth: {DefaultAuthorizer: AWS_IAM}}
  PayFunction:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: src/pay/
      Handler: main.handler
      Runtime: python3.12
      Events:
        Pay: {Type: Api, Properties: {Path: /pay, Method: POST, RestApiId: !Ref Api}}
  ApiUrlParameter:
    Type: AWS::SSM::Parameter
    Properties:
      Name: !Sub /shop/${Environment}/payments/api/url
      Type: String
      Value: !Sub "https://${Api}.execute-api.${AWS::Region}.amazonaws.com/prod"
"""
    model = _model({"orders/template.yaml": ORDERS, "payments/template.yaml": payments})
    assert ("orders", "payments", "http") in model.connections
    assert model.unresolved == []
    assert model.components["payments"].attributes.get("published") is None  # IAM-signed, called by orders
