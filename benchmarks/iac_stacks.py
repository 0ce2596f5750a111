"""How long reading and resolving many CloudFormation/SAM stacks takes.

Why: an organisation's serverless estate can be hundreds of templates wired together through SSM
parameters; every reference is resolved across all stacks, so a quadratic lookup would show here
first.  This generates N stacks (each a table, a queue, a few functions using them, an SSM
parameter it publishes and parameters it reads from the previous stacks), then times the reader
over every template and the resolver over the facts (in memory, no git, no cache).

    python benchmarks/iac_stacks.py                 # 300 stacks
    python benchmarks/iac_stacks.py --stacks 1000
"""

from __future__ import annotations

import argparse
import time

TEMPLATE = """\
AWSTemplateFormatVersion: "2010-09-09"
Transform: AWS::Serverless-2016-10-31
Parameters:
  Environment:
    Type: String
    Default: dev
{params}
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
  Api:
    Type: AWS::Serverless::Api
    Properties: {{StageName: prod}}
{functions}
  ApiUrlParameter:
    Type: AWS::SSM::Parameter
    Properties:
      Name: !Sub /org/${{Environment}}/svc{i}/api/url
      Type: String
      Value: !Sub "https://${{Api}}.execute-api.${{AWS::Region}}.amazonaws.com/prod"
"""
FUNCTION = """\
  Fn{j}Function:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: src/fn{j}/
      Environment:
        Variables:
{env}
      Policies:
        - DynamoDBCrudPolicy: {{TableName: !Ref Table}}
        - SQSSendMessagePolicy: {{QueueName: !GetAtt Queue.QueueName}}
      Events:
        Get: {{Type: Api, Properties: {{Path: /fn{j}, Method: GET, RestApiId: !Ref Api}}}}
"""


def system(stacks: int, functions: int = 4, peers: int = 3) -> dict[str, str]:
    files: dict[str, str] = {}
    for i in range(stacks):
        used = [k for k in range(max(0, i - peers), i)]
        params = "\n".join(f"  Svc{k}ApiUrl:\n    Type: AWS::SSM::Parameter::Value<String>\n"
                           f"    Default: /org/dev/svc{k}/api/url" for k in used)
        env = "\n".join(f"          SVC{k}_URL: !Ref Svc{k}ApiUrl" for k in used) or "          MODE: prod"
        fns = "".join(FUNCTION.format(j=j, env=env) for j in range(functions))
        files[f"svc{i}/template.yaml"] = TEMPLATE.format(params=params, functions=fns, i=i)
        for j in range(functions):
            files[f"svc{i}/src/fn{j}/main.py"] = "def handler(event, context):\n    return {}\n"
    return files


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stacks", type=int, default=300)
    args = ap.parse_args()
    from repomodeler.graph.build import resolve_system
    from repomodeler.rules.cases import extract_in_memory

    files = system(args.stacks)
    t0 = time.perf_counter()
    results = extract_in_memory({"org": files})
    t1 = time.perf_counter()
    model = resolve_system("org", results)
    t2 = time.perf_counter()
    links = sum(1 for c in model.connections.values() if c.attributes.get("via", "").startswith("cloudformation"))
    print(f"{args.stacks} stacks, {len(files)} files: extract {t1 - t0:.2f} s, resolve {t2 - t1:.2f} s; "
          f"{len(model.components)} components, {links} links from templates")


if __name__ == "__main__":
    main()
