"""Script bundles committed beside the sources (webpack output, minified code) are not the app's source:
read as source, every library they bundle would be the app's calls."""

from repomodeler.extract.engine import extract_source, is_built_bundle, is_generated_line

SOURCE = b'const api = "http://orders:8080/api/orders";\nfetch(api).then(r => r.json());\n'
CHUNK = (b'/*! For license information please see landing.js.LICENSE.txt */\n'
         b'(self.webpackChunkshop=self.webpackChunkshop||[]).push([[3891],{75948:(e,t,o)=>{'
         b'fetch("http://www.w3.org/2000/svg")}}]);\n')
MINIFIED = b"!function(e){" + b"var a=1;" * 1000 + b'fetch("https://cdn.example.org/x")}();\n'


def test_webpack_chunks_and_minified_scripts_are_bundles_and_give_no_facts() -> None:
    assert not is_built_bundle(SOURCE)
    assert is_built_bundle(CHUNK) and is_built_bundle(MINIFIED)
    for content in (CHUNK, MINIFIED):
        facts, warnings = extract_source("web", "public/js/landing.js", "javascript", content)
        assert facts == []
        assert [w.message for w in warnings] == ["a built script bundle (webpack output or minified code), not source: skipped"]


def test_minified_code_after_the_bundled_libraries_banners_is_a_bundle() -> None:
    """A committed pack whose first lines are its libraries' license banners and whose code starts, minified, on the
    line closing the last banner (` */(function(){...`)."""
    banners = b"".join(b"/*!\n * Library %d\n * License: MIT\n */\n" % i for i in range(30))
    pack = banners + b" */(function(){" + b"var a=1;" * 1000 + b'fetch("https://cdn.example.org/x")})();\n'
    assert is_built_bundle(pack)
    assert is_built_bundle(banners + b" */var a0=ZR,cr=1;" + b"var a=1;" * 1000 + b"\n")
    facts, _warnings = extract_source("web", "app/javascript/packs/timeliner.js", "javascript", pack)
    assert facts == []
    # (a long comment line is no bundle)
    assert not is_built_bundle(b"/* notes */\n" + b" * " + b"x" * 6000 + b"\n */\nfetch('/api');\n")


def test_one_long_data_literal_is_no_bundle() -> None:
    assert not is_built_bundle(b"var data = [" + b"1, " * 3000 + b"1];\n")


def test_a_compiled_message_catalog_is_skipped_quickly() -> None:
    """lingui's compiled catalogs (one line, `module.exports={messages:JSON.parse("...")}`, 50 kB) cost the
    queries ten seconds a file; one string literal of more than 10,000 characters is a compiler's output, not source."""
    import time

    catalog = (b'/*eslint-disable*/module.exports={messages:JSON.parse("{' +
               b",".join(b'\\"k%d\\":[[\\"0\\"],\\" available\\"]' % i for i in range(1500)) + b'}")};')
    assert len(catalog) > 20_000
    started = time.perf_counter()
    facts, warnings = extract_source("web", "frontend/src/locales/en.js", "javascript", catalog)
    assert facts == [] and time.perf_counter() - started < 1.0
    assert [w.message for w in warnings] == ["a generated file (one string of more than 10 thousand characters on a "
                                             "line: a compiled message catalog or data dump), not source: skipped"]
    # (a long line of ordinary data, no string in it that long, is still read)
    assert not is_generated_line(b"var data = [" + b"1, " * 30000 + b"1];\n")


def test_a_hand_written_script_is_read() -> None:
    facts, warnings = extract_source("web", "src/api.js", "javascript", SOURCE)
    assert any("orders:8080" in (f.get("value") or f.get("url") or "") for f in facts)
    assert warnings == []


def test_store_images_by_name() -> None:
    """Images of stores and brokers that are not applications (a published port of one is no front door)."""
    from repomodeler.graph.catalog import tech_for_image

    assert tech_for_image("confluentinc/confluent-local:7.4.11") == ("kafka", "broker")
    # a vendor's console image beside its broker's (redpandadata/redpanda) is the console, no broker
    assert tech_for_image("docker.redpanda.com/redpandadata/console:v2.3.8") is None
    assert tech_for_image("docker.redpanda.com/redpandadata/redpanda:v23.2.17") == ("kafka", "broker")
    assert tech_for_image("eventstore/eventstore:release-5.0.8") == ("database", "database")
    # an application talking to a technology, or an operator managing it, is not that technology
    assert tech_for_image("ghcr.io/kedacore/rabbitmq-client:v1.0") is None
    assert tech_for_image("acme/kafka-producer:1") is None and tech_for_image("bitnami/kafka:3.6") is not None
    assert tech_for_image("getmeili/meilisearch:v1.6") == ("database", "database")
    assert tech_for_image("provectuslabs/kafka-ui:latest") is None  # a tool for Kafka, not Kafka
    # a program's build for a store (the monitoring server built for MySQL) is that program, a vendor's
    # build of the store (eventuate-mysql8) is the store
    assert tech_for_image("zabbix/zabbix-server-mysql:alpine-7.0-latest") is None
    assert tech_for_image("zabbix/zabbix-proxy-sqlite3:alpine-7.0-latest") is None
    assert tech_for_image("eventuateio/eventuate-mysql8:0.1") == ("mysql", "database")
    # a store named only by the vendor's namespace: the store unless the image names a program of theirs
    assert tech_for_image("docker.clickhouse.com/clickhouse/clickstack-otel-collector:2") is None
    assert tech_for_image("mcr.microsoft.com/mssql/server:2022-latest") == ("sqlserver", "database")
    assert tech_for_image("clickhouse/clickhouse-server:24") is not None
    # nginx-proxy's certificate companion is a helper beside the proxy, not a proxy people enter through
    assert tech_for_image("nginxproxy/acme-companion") is None
    assert tech_for_image("nginxproxy/nginx-proxy:alpine") == ("proxy", "gateway")
    # Percona's builds of MongoDB and PostgreSQL are those stores, not MySQL (its own server is MySQL)
    assert tech_for_image("percona/percona-server-mongodb:6.0") == ("mongodb", "database")
    assert tech_for_image("percona/percona-server-postgresql:16") == ("postgres", "database")
    assert tech_for_image("percona/percona-server:8.0") == ("mysql", "database")
    # PostgreSQL built with the vector extension (pgvector/pgvector:pg16, ankane/pgvector) is PostgreSQL
    assert tech_for_image("pgvector/pgvector:pg16") == ("postgres", "database")
    assert tech_for_image("ankane/pgvector:v0.5.1") == ("postgres", "database")
