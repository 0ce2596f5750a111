"""Processes of one repository that find each other through interfaces, registries and address
settings: end to end, from a git repository built here to the edges and evidence lines in model.json."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import make_repo, run_cli

from repomodeler.rules.cases import cases_of


def analyze(tmp_path: Path, files: dict[str, str], name: str) -> dict:
    repo = tmp_path / name
    make_repo(repo, files)
    out = tmp_path / "out"
    proc = run_cli(["analyze", f"file://{repo}", "--name", name, "--out", str(out), "--no-validate", "--quiet"])
    assert proc.returncode == 0, proc.stderr
    return json.loads((out / "model.json").read_text())


def edge(model: dict, source: str, target: str) -> dict | None:
    return next((e for e in model["edges"] if e["source"] == source and e["target"] == target), None)


def lines(e: dict) -> set[tuple[str, int]]:
    return {(ev["path"], ev["line"]) for ev in e["evidence"]}


def test_a_server_calling_through_a_proxy_of_an_interface_another_server_implements(tmp_path: Path) -> None:
    files = next(c for c in cases_of("rpc.interface-proxies") if "sched" in c.repositories).repositories["sched"]
    model = analyze(tmp_path, files, "sched")
    call = edge(model, "api", "alert")
    assert call is not None and call["protocol"] == "rpc"
    # the line naming the interface in the proxy call, and the class implementing it
    assert lines(call) == {("api/src/main/java/org/acme/api/ApiServer.java", 13),
                           ("alert/src/main/java/org/acme/alert/AlertOperatorImpl.java", 5)}
    assert call["attributes"]["via"] == "rpc proxy of IAlertOperator"
    # ILogService has two servers (master and alert): the call says nothing of which one
    assert edge(model, "api", "master") is None


def test_a_server_selecting_its_registry_by_type_uses_the_registry_the_system_deploys(tmp_path: Path) -> None:
    files = next(c for c in cases_of("rpc.selected-registry") if "sched" in c.repositories).repositories["sched"]
    model = analyze(tmp_path, files, "sched")
    registry = edge(model, "api", "coordinator")  # localhost:2181 in development: the one ZooKeeper deployed
    assert registry is not None
    assert lines(registry) >= {("api/src/main/resources/application.yaml", 4),
                               ("api/src/main/resources/application.yaml", 7)}
    # the master selects etcd, which the system does not deploy: introduced for it, with its address line
    etcd = edge(model, "master", "etcd")
    assert etcd is not None and ("master/src/main/resources/application.yaml", 6) in lines(etcd)
    assert edge(model, "master", "coordinator") is None
    assert not any(n["id"] == "hikari" for n in model["nodes"])


def test_programs_holding_each_others_addresses_by_name_and_the_client_librarys_users(tmp_path: Path) -> None:
    files = next(c for c in cases_of("rpc.named-addresses") if "mq" in c.repositories).repositories["mq"]
    model = analyze(tmp_path, files, "mq")
    registers = edge(model, "broker", "namesrv")  # String namesrvAddr = System.getProperty(...)
    assert registers is not None
    assert lines(registers) == {("broker/src/main/java/org/acme/broker/BrokerStartup.java", 7)}
    # people's applications embed the client library: they reach the name server and the broker through it
    to_namesrv, to_broker = edge(model, "user", "namesrv"), edge(model, "user", "broker")
    assert to_namesrv is not None and to_broker is not None
    assert lines(to_namesrv) == {("client/src/main/java/org/acme/client/ClientConfig.java", 4)}
    assert lines(to_broker) == {("client/src/main/java/org/acme/client/Producer.java", 5)}
    # a shared library's settings class is nobody's connection; a name of no program is nothing
    assert edge(model, "common", "namesrv") is None and edge(model, "namesrv", "broker") is None


def test_a_program_hosting_another_is_that_program_and_an_all_in_one_host_is_left_out(tmp_path: Path) -> None:
    all_in_one, one = cases_of("process.host-programs")  # by file name: --all-in-one first
    model = analyze(tmp_path / "one", one.repositories["mq"], "mq")
    ids = {n["id"] for n in model["nodes"]}
    assert "container" not in ids and {"broker", "proxy"} <= ids  # the proxy builds on a library too
    broker = next(n for n in model["nodes"] if n["id"] == "broker")
    assert {"path": "bin/mqbrokercontainer", "line": 2, "repository": "mq"} in broker["evidence"]
    model = analyze(tmp_path / "all", all_in_one.repositories["sched"], "sched")
    ids = {n["id"] for n in model["nodes"]}
    assert "standalone" not in ids and "login.example.com" not in ids and "master" in ids
    left_out = [u for u in model["unresolved"] if u["component"] == "standalone"]
    assert [(u["evidence"]["path"], u["evidence"]["line"]) for u in left_out] == [("standalone/bin/start.sh", 2)]
    assert "in one process" in left_out[0]["value"]


def test_a_loopback_address_in_a_settings_file_reaches_the_program_listening_on_its_port(tmp_path: Path) -> None:
    files = next(c for c in cases_of("rpc.listen-port-addresses") if "mq" in c.repositories).repositories["mq"]
    model = analyze(tmp_path, files, "mq")
    registers = edge(model, "broker", "namesrv")
    assert registers is not None
    # the address line in the broker's settings file and the line where the name server listens
    assert lines(registers) == {("distribution/conf/broker-a.conf", 4),
                                ("namesrv/src/main/java/org/acme/namesrv/NamesrvStartup.java", 6)}
    assert edge(model, "tools", "namesrv") is None and edge(model, "namesrv", "broker") is None


def test_settings_files_give_their_address_and_port_keys_and_leave_other_formats_alone() -> None:
    from repomodeler.extract.readers import registry

    def settings(path: str, text: str) -> list[tuple[int, str, str]]:
        claimed = [r.id for r in registry.claimants(path, text)]
        facts, _warnings = registry.read_file("repo", path, text.encode())
        return [(f.line, f.get("name") or "", f.get("value") or "") for f in facts
                if f.kind == "config.setting" and "settings_files" in claimed]

    conf = "# quick start\nbrokerName = broker-a\nlistenPort=10911\nnamesrvAddr = 127.0.0.1:9876\n! comment\n"
    assert settings("distribution/conf/broker.conf", conf) == [(3, "listenPort", "10911"),
                                                               (4, "namesrvAddr", "127.0.0.1:9876")]
    assert settings("config/server.properties", "listeners=PLAINTEXT://:9092\nlog.dirs=/tmp\n") == [
        (1, "listeners", "PLAINTEXT://:9092")]
    # an nginx site and a Spring file in a conf folder are not key = value settings of this reader
    assert settings("conf/site.conf", "server {\n  listen 80;\n  proxy_pass http://api:8080;\n}\n") == []
    assert settings("config/application.properties", "server.port=8080\n") == []
    # bundled with a Java program, and longer than the head a reader sniffs (which ends inside a line)
    long = "canal.port = 11111\n" + "".join(f"canal.instance.option{i} = some value {i}\n" for i in range(300))
    assert settings("deployer/src/main/resources/canal.properties", long) == [(1, "canal.port", "11111")]


def test_postal_addresses_and_a_services_own_client_library_are_no_links_between_programs() -> None:
    from rules_harness import edge_set, resolve_files

    pom = ('<project><modelVersion>4.0.0</modelVersion><groupId>org.acme</groupId><artifactId>{a}</artifactId>'
           '<dependencies>{deps}</dependencies></project>')
    dep = '<dependency><groupId>org.acme</groupId><artifactId>{a}</artifactId></dependency>'
    main = "package org.acme.{m};\n\npublic class {c} {{\n    {body}\n    public static void main(String[] a) {{}}\n}}\n"
    files = {
        "pom.xml": ('<project><modelVersion>4.0.0</modelVersion><groupId>org.acme</groupId><artifactId>shop</artifactId>'
                    '<packaging>pom</packaging><modules><module>mail</module><module>orders</module>'
                    '<module>orders-client</module><module>billing</module></modules></project>'),
        "mail/pom.xml": pom.format(a="shop-mail", deps=""),
        "mail/src/main/java/org/acme/mail/MailServer.java": main.format(m="mail", c="MailServer", body=""),
        "orders/pom.xml": pom.format(a="shop-orders", deps=dep.format(a="orders-client")),
        "orders/src/main/java/org/acme/orders/OrdersServer.java": main.format(
            m="orders", c="OrdersServer", body="private String mailAddress;  // the customer's, not the mail server's"),
        "orders-client/pom.xml": pom.format(a="orders-client", deps=""),
        "orders-client/src/main/java/org/acme/ordersclient/OrdersClient.java": (
            "package org.acme.ordersclient;\n\npublic class OrdersClient {\n    private String ordersAddr;\n}\n"),
        "billing/pom.xml": pom.format(a="shop-billing", deps=dep.format(a="orders-client")),
        "billing/src/main/java/org/acme/billing/BillingServer.java": main.format(m="billing", c="BillingServer", body=""),
        "bin/mail": "#!/bin/sh\njava -cp lib/* org.acme.mail.MailServer\n",
        "bin/orders": "#!/bin/sh\njava -cp lib/* org.acme.orders.OrdersServer\n",
        "bin/billing": "#!/bin/sh\njava -cp lib/* org.acme.billing.BillingServer\n",
    }
    model = resolve_files({"shop": files})
    assert {"mail", "orders", "billing"} <= set(model.components)
    edges = edge_set(model)
    assert ("orders", "mail") not in edges  # a customer's mail address
    # a service's own client library (orders-client) is how other services call it, not people
    assert not any(model.components[s].kind == "user" for s, _t in edges)


def test_a_json_schema_of_a_programs_settings_sets_none_of_them() -> None:
    """A `settings.yaml` that is the JSON Schema of the settings (its `$schema` the JSON Schema meta-schema)
    describes them, with documentation links: no property of it is a setting (no docs site becomes an
    external system); a program's own settings.yaml beside it still is."""
    from repomodeler.extract.readers import registry

    def properties(path: str, text: str) -> list[tuple[str, str]]:
        facts, _warnings = registry.read_file("repo", path, text.encode())
        return [(f.get("name") or "", f.get("value") or "") for f in facts if f.kind == "config.property"]

    schema = ('---\n"$schema": "https://json-schema.org/draft/2020-12/schema"\ntitle: "Settings"\ntype: "object"\n'
              'properties:\n  ADMINS:\n    default: []\n    see_also:\n'
              '      "Django documentation": "https://docs.djangoproject.com/en/stable/ref/settings/#admins"\n')
    assert properties("app/core/settings.yaml", schema) == []
    assert ("cache.url", "redis://redis:6379/0") in properties("app/settings.yaml", "cache:\n  url: redis://redis:6379/0\n")
