"""The Terraform and Bicep readers: what a user checks in a .tf or .bicep file (this resource, on
this line; this container's image and environment; this module call's inputs), the evaluation of
leaves across module instances, and a broken file as a warning or partial reading, never a crash."""

from __future__ import annotations

from repomodeler.extract.readers.registry import read_file
from repomodeler.graph.iac_eval import Deployment, clean_name

ECS = """\
# the API's task
resource "aws_ecs_task_definition" "api" {
  family = "shop-${var.env}-api"
  container_definitions = jsonencode([
    {
      name    = "api"
      image   = "${var.registry}/api:${var.tag}"
      command = ["serve", "--port", "8080"]
      environment = [
        { name = "DB_HOST", value = aws_db_instance.orders[0].address },
        { name = "MODE", value = "prod" },
      ]
    }
  ])
}

resource "aws_db_instance" "orders" {
  identifier = "orders"
  engine     = "postgres"
}

locals {
  banner = <<EOT
Hello ${var.env}
EOT
}

module "worker" {
  source = "./modules/worker"
  image  = format("%s/worker:%s", var.registry, var.tag)
}
"""


def _facts(path: str, text: str):  # type: ignore[no-untyped-def]
    facts, warnings = read_file("shop", path, text.encode())
    return facts, warnings


def _leaves(facts, owner):  # type: ignore[no-untyped-def]
    return {f.get("key") or "": (f.get("value") or "", f.line, f.get("refs") or "")
            for f in facts if f.kind == "iac.value" and f.get("owner") == owner}


def test_terraform_resources_containers_and_module_calls():
    facts, warnings = _facts("infra/main.tf", ECS)
    assert warnings == []
    blocks = {f.get("address"): f for f in facts if f.kind == "iac.block"}
    assert blocks["aws_ecs_task_definition.api"].line == 2
    assert blocks["aws_ecs_task_definition.api"].get("type") == "aws_ecs_task_definition"
    assert blocks["aws_ecs_task_definition.api"].get("module") == "infra"
    assert blocks["module.worker"].get("type") == "./modules/worker"
    api = _leaves(facts, "aws_ecs_task_definition.api")
    # jsonencode keeps its argument's structure: the container's image, command and environment
    assert api["container_definitions[0].image"] == ("${var.registry}/api:${var.tag}", 7, "var.registry var.tag")
    assert api["container_definitions[0].command[1]"][0] == "--port"
    assert api["container_definitions[0].environment[0].value"] == (
        "${aws_db_instance.orders.address}", 10, "aws_db_instance.orders.address")
    assert api["family"][0] == "shop-${var.env}-api"
    assert _leaves(facts, "local.banner")[""][0] == "Hello ${var.env}"
    assert _leaves(facts, "module.worker")["image"][0] == "${var.registry}/worker:${var.tag}"
    assert not any(f.line == 1 for f in facts)


def test_nested_blocks_are_indexed_and_dynamic_blocks_kept_for_evaluation():
    text = """\
resource "google_cloud_run_service" "web" {
  name = "web"
  template {
    spec {
      containers {
        image = "gcr.io/acme/web:1"
        env {
          name  = "API_URL"
          value = google_cloud_run_service.api.status[0].url
        }
        env {
          name  = "MODE"
          value = "prod"
        }
        dynamic "env" {
          for_each = var.extra
          content {
            name  = env.key
            value = env.value
          }
        }
      }
    }
  }
}
"""
    facts, _ = _facts("main.tf", text)
    web = _leaves(facts, "google_cloud_run_service.web")
    assert web["template[0].spec[0].containers[0].env[0].value"][0] == "${google_cloud_run_service.api.status.url}"
    assert web["template[0].spec[0].containers[0].env[1].name"][0] == "MODE"
    # the dynamic block: its collection and its content, the iterator written `iter`
    assert web["template[0].spec[0].containers[0].env[*]#"][0] == "${var.extra}"
    assert web["template[0].spec[0].containers[0].env[*].value"][0] == "${iter.value}"
    assert all(f.get("module") is None for f in facts)  # the repository's top folder


def test_bicep_resources_modules_params_and_outputs():
    text = """\
param appName string = 'orders-app'
var image = 'acme/${appName}:1'
resource app 'Microsoft.App/containerApps@2022-03-01' = {
  name: appName
  properties: {
    template: {
      containers: [
        {
          image: image
          env: [
            { name: 'STORE', value: store.outputs.endpoint }
          ]
        }
      ]
    }
  }
}
module store './store.bicep' = if (true) {
  name: 'store'
  params: { accountName: toLower(appName) }
}
output fqdn string = app.properties.configuration.ingress.fqdn
"""
    facts, warnings = _facts("deploy/main.bicep", text)
    assert warnings == []
    blocks = {f.get("address"): f for f in facts if f.kind == "iac.block"}
    assert blocks["res.app"].get("type") == "Microsoft.App/containerApps"
    assert blocks["res.app"].line == 3
    assert blocks["module.store"].get("type") == "deploy/store.bicep"  # relative to the file's folder
    app = _leaves(facts, "res.app")
    assert app["name"][0] == "${var.appName}"
    assert app["properties.template.containers[0].image"][0] == "${local.image}"
    assert app["properties.template.containers[0].env[0].value"] == ("${module.store.endpoint}", 11,
                                                                      "module.store.endpoint")
    assert _leaves(facts, "module.store")["accountName"][0] == "${var.appName}"
    assert _leaves(facts, "local.image")[""][0] == "acme/${var.appName}:1"


def test_a_broken_file_is_read_as_far_as_it_goes():
    facts, warnings = _facts("main.tf", 'resource "aws_s3_bucket" "logs" {\n  bucket = "logs"\n}\nresource "x" {{{\n')
    assert any(f.get("address") == "aws_s3_bucket.logs" for f in facts)
    facts, warnings = _facts("main.bicep", "resource x 'A/b@1' = {\n  name: 'ok'\n}\nparam = = =\n")
    assert any(f.get("address") == "res.x" for f in facts) or warnings


def test_a_module_called_twice_is_evaluated_per_call():
    files = {
        "deploy/svc/main.tf": 'variable "role" {}\nlocals {\n  env = [{ name = "ROLE", value = var.role }]\n}\n'
                              'resource "aws_ecs_task_definition" "t" {\n  family = "app-${var.role}-${random_id.x.hex}"\n'
                              '  container_definitions = jsonencode([{ image = "acme/app:1", environment = local.env }])\n}\n',
        "deploy/main.tf": 'module "a" {\n  source = "./svc"\n  role = "indexer"\n}\n'
                          'module "b" {\n  source = "./svc"\n  role = "searcher"\n}\n',
    }
    facts = [f for path, text in files.items() for f in read_file("r", path, text.encode())[0]]
    dep = Deployment([f for f in facts if f.kind == "iac.block"], [f for f in facts if f.kind == "iac.value"])
    roles = {}
    for inst in dep.instances:
        for f in dep.resources(inst):
            values = {v.key: v for v in dep.owner_values(inst, f.get("address") or "")}
            if "family" in values:
                roles[clean_name(values["family"].text)] = values["container_definitions[0].environment[0].value"]
    assert sorted(roles) == ["app-indexer", "app-searcher"]
    value = roles["app-searcher"]
    assert value.text == "searcher"
    # evidence: the local's line, then the module call's input line
    assert [(e.path, e.line) for e in value.evidence] == [("deploy/svc/main.tf", 7), ("deploy/svc/main.tf", 3),
                                                         ("deploy/main.tf", 7)]


def test_links_carry_the_lines_the_value_came_through():
    """The edge web -> api of the iac.links case: evidence is the env line of web and the resource
    line of its container; the database's link names the env line that references it."""
    import yaml

    from repomodeler.graph.build import resolve_system
    from repomodeler.rules.cases import extract_in_memory

    from pathlib import Path
    case = yaml.safe_load((Path(__file__).parent.parent / "repomodeler/rules/iac/cases/iac.links.yml").read_text())
    model = resolve_system("case", extract_in_memory(case["repositories"]))
    web_api = model.connections[("web", "api", "http")]
    assert ("shop", "infra/main.tf", 23) in {(e.repository, e.path, e.line) for e in web_api.evidence}
    db = next(c for (s, t, _p), c in model.connections.items() if (s, t) == ("api", "mysql"))
    assert {(e.path, e.line) for e in db.evidence} == {("infra/main.tf", 9)}
    assert model.components["api"].attributes["deployment"] == "terraform"
    assert ("shop", "infra/main.tf", 1) in {(e.repository, e.path, e.line) for e in model.components["api"].evidence}


def test_dynamic_blocks_make_one_block_per_item():
    files = {
        "svc/main.tf": 'variable "env" { default = [] }\n'
                       'resource "google_cloud_run_v2_service" "s" {\n  name = "api"\n  template {\n    containers {\n'
                       '      image = "gcr.io/acme/api:1"\n      dynamic "env" {\n        for_each = var.env\n'
                       '        content {\n          name  = env.value.name\n          value = env.value.value\n'
                       '        }\n      }\n    }\n  }\n}\n',
        "main.tf": 'module "api" {\n  source = "./svc"\n  env = [\n'
                   '    { name = "DB_HOST", value = google_sql_database_instance.db.private_ip_address },\n'
                   '    { name = "MODE", value = "prod" },\n  ]\n}\n'
                   'resource "google_sql_database_instance" "db" {\n  name = "orders"\n}\n',
    }
    facts = [f for path, text in files.items() for f in read_file("r", path, text.encode())[0]]
    dep = Deployment([f for f in facts if f.kind == "iac.block"], [f for f in facts if f.kind == "iac.value"])
    inst = next(i for i in dep.instances if i.module == "svc")
    values = {v.key: v for v in dep.owner_values(inst, "google_cloud_run_v2_service.s")}
    envs = {values[k].text: values[k.replace(".name", ".value")] for k in values
            if k.startswith("template[0].containers[0].env[") and k.endswith(".name")}
    assert sorted(envs) == ["DB_HOST", "MODE"]
    assert envs["MODE"].text == "prod"
    assert {a for _i, a in envs["DB_HOST"].resources} == {"google_sql_database_instance.db"}
    assert ("main.tf", 4) in {(e.path, e.line) for e in envs["DB_HOST"].evidence}  # the item's line


def test_a_file_nothing_can_be_read_from_is_a_warning_naming_it():
    facts, warnings = _facts("infra/broken.tf", "}}} this is not HCL {{{\n")
    assert facts == []
    assert len(warnings) == 1 and warnings[0].path == "infra/broken.tf" and "syntax error at line 1" in warnings[0].message
    facts, warnings = _facts("deploy/broken.bicep", "resource = = 'x\n")
    assert facts == [] and "broken.bicep" in warnings[0].message


def test_bicep_union_keeps_the_leaves_of_its_object_literals():
    text = """\
param tags object = {}
param serviceName string = 'web'
resource app 'Microsoft.App/containerApps@2023-05-01' = {
  name: 'x'
  tags: union(tags, { 'azd-service-name': serviceName })
}
"""
    facts, _ = _facts("infra/app.bicep", text)
    app = _leaves(facts, "res.app")
    assert app["tags.azd-service-name"][0] == "${var.serviceName}"
    assert app["tags"][0] == "${?}"  # the merged whole stays unknown
