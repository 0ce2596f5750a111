"""Nomad job files: each job's container task as a workload, its services, routing tags and upstreams."""

from repomodeler.extract.readers.nomad import read_nomad
from repomodeler.extract.readers.registry import reader_for

JOB = '''variable "tag" {
  default = "1.4"
}

job "orders" {
  group "api" {
    network {
      port "http" {
        to = 8080
      }
    }
    service {
      name = "orders-http"
      port = "8080"
      tags = ["traefik.enable=true", "http"]
      connect {
        sidecar_service {
          proxy {
            upstreams {
              destination_name = "orders-db"
              local_bind_port  = 5432
            }
          }
        }
      }
    }
    task "log-shipper" {
      driver = "docker"
      lifecycle {
        hook    = "prestart"
        sidecar = true
      }
      config {
        image = "fluent/fluent-bit:2"
      }
    }
    task "orders" {
      driver = "docker"
      config {
        image = "ghcr.io/acme/orders:${var.tag}"
      }
      env {
        KAFKA_BROKERS = "kafka:9092"
      }
    }
    task "cron" {
      driver = "exec"
      config {
        command = "/bin/cleanup"
      }
    }
  }
}
'''


def test_nomad_job_task_service_tags_and_upstreams() -> None:
    facts = read_nomad("shop", "deploy/orders.nomad.hcl", JOB)
    workloads = [f for f in facts if f.kind == "k8s.workload"]
    # one container task that is not a lifecycle helper: named after its job, the variable's default filled in
    assert [(f.get("name"), f.get("image"), f.get("ports"), f.line) for f in workloads] == [
        ("orders", "ghcr.io/acme/orders:1.4", "8080", 37)]
    services = [(f.get("name"), f.get("app"), f.get("selector")) for f in facts if f.kind == "k8s.service"]
    assert services == [("orders-http", "orders", workloads[0].get("labels"))]
    env = {(f.get("name"), f.get("value")) for f in facts if f.kind == "config.env"}
    assert ("KAFKA_BROKERS", "kafka:9092") in env
    assert ("NOMAD_UPSTREAM_ADDR_orders_db", "orders-db:5432") in env  # what Connect hands the task
    labels = [(f.get("owner"), f.get("name"), f.get("value")) for f in facts if f.kind == "compose.label"]
    assert labels == [("orders", "traefik.enable", "true")]  # a bare tag (http) is no routing setting


def test_nomad_files_are_claimed() -> None:
    assert (r := reader_for("nomad/jobs/orders.nomad.hcl", "", "descriptor")) is not None and r.id == "nomad"
    assert (r := reader_for("jobs/orders.nomad", "", "descriptor")) is not None and r.id == "nomad"
