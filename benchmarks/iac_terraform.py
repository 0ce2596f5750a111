"""How long reading and resolving a large Terraform deployment takes.

Why: every leaf of a module is evaluated per module instance, through variables, locals and the
outputs of other modules; a module called once per service multiplies that work, and an evaluation
that is not memoised would grow with the depth of the call chains.  This generates N services, each
a call of one shared `service` module (a Cloud Run service whose environment names a database, a
bucket and the previous services' URLs through module outputs), then times the reader over every
file and the resolver over the facts (in memory, no git, no cache).

    python benchmarks/iac_terraform.py                 # 300 services
    python benchmarks/iac_terraform.py --services 1000
"""

from __future__ import annotations

import argparse
import time

SERVICE_MODULE = """\
variable "name" {}
variable "image" {}
variable "env" { default = [] }
locals {
  common = [
    { name = "DB_HOST", value = var.db_host },
    { name = "BUCKET", value = var.bucket },
  ]
}
variable "db_host" {}
variable "bucket" {}
resource "google_cloud_run_v2_service" "this" {
  name = "${var.name}-${random_id.suffix.hex}"
  template {
    containers {
      image = var.image
      dynamic "env" {
        for_each = concat(local.common, var.env)
        content {
          name  = env.value.name
          value = env.value.value
        }
      }
    }
  }
}
resource "random_id" "suffix" { byte_length = 2 }
output "url" { value = google_cloud_run_v2_service.this.uri }
"""

CALL = """\
module "svc{i}" {{
  source  = "./modules/service"
  name    = "svc{i}"
  image   = "gcr.io/acme/svc{i}:1"
  db_host = google_sql_database_instance.main.private_ip_address
  bucket  = google_storage_bucket.data.name
  env = [
{env}
  ]
}}
"""


def system(services: int, peers: int = 3) -> dict[str, str]:
    calls = []
    for i in range(services):
        env = "\n".join(f'    {{ name = "SVC{k}_URL", value = module.svc{k}.url }},' for k in range(max(0, i - peers), i))
        calls.append(CALL.format(i=i, env=env))
    return {
        "infra/modules/service/main.tf": SERVICE_MODULE,
        "infra/main.tf": ('resource "google_sql_database_instance" "main" {\n  name = "main-db"\n'
                          '  database_version = "POSTGRES_15"\n}\n'
                          'resource "google_storage_bucket" "data" {\n  name = "acme-data"\n}\n' + "".join(calls)),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--services", type=int, default=300)
    args = ap.parse_args()
    from repomodeler.graph.build import resolve_system
    from repomodeler.rules.cases import extract_in_memory

    files = system(args.services)
    t0 = time.perf_counter()
    results = extract_in_memory({"org": files})
    t1 = time.perf_counter()
    model = resolve_system("org", results)
    t2 = time.perf_counter()
    links = sum(1 for c in model.connections.values() if c.attributes.get("via", "").startswith("iac"))
    print(f"{args.services} services, {len(files)} files: extract {t1 - t0:.2f} s, resolve {t2 - t1:.2f} s; "
          f"{len(model.components)} components, {links} links from Terraform")


if __name__ == "__main__":
    main()
