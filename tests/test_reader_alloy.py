"""Grafana Alloy (and Grafana Agent flow mode River) configuration: the backends its writers and
exporters send to, the targets its scrapers read, the ports its receivers listen on."""

import time

from repomodeler.extract.readers.alloy import parse, read_alloy
from repomodeler.extract.readers.registry import is_descriptor, read_file, reader_for

PIPELINE = '''// Metrics
prometheus.scrape "apps" {
  targets = [
    {"__address__" = "orders:8080", service = "orders"},
    {"__address__" = "localhost:12345"},
  ]
  forward_to = [prometheus.remote_write.mimir.receiver]
  job_name   = "applications"
}

prometheus.scrape "discovered" {
  targets    = discovery.kubernetes.pods.targets
  forward_to = []
}

prometheus.remote_write "mimir" {
  endpoint {
    url = env("MIMIR_URL")
    basic_auth { username = "u" }
  }
}

otelcol.receiver.otlp "default" {
  grpc { endpoint = "0.0.0.0:4317" }
  http {}
  output { traces = [otelcol.exporter.otlp.tempo.input] }
}

otelcol.exporter.otlp "tempo" {
  client {
    endpoint = "tempo:4317"
    tls { ca_file = "https://ca.example.org/ca.pem" }
  }
}

otelcol.exporter.otlphttp "collector" {
  client { endpoint = sys.env("COLLECTOR_HOST") + ":4318" }
  traces_endpoint = string.format("http://%s:%d/v1/traces", "jaeger", 4318)
}

loki.write "default" {
  endpoint {
    url = `http://loki:3100/loki/api/v1/push`
  }
}

pyroscope.write "default" {
  endpoint { url = coalesce(env("PYROSCOPE_URL"), "http://pyroscope:4040") }
}

local.file "endpoints" { filename = "/etc/alloy/endpoints.json" }

otelcol.exporter.otlp "cloud" {
  client { endpoint = json_path(local.file.endpoints.content, ".traces.url")[0] }
}

otelcol.exporter.otlp "sidecar" {
  client { endpoint = "http://localhost:4317" }
}

/* loki.write "old" {
  endpoint { url = "http://elasticsearch:9200" }
} */

loki.source.api "push" {
  http {
    listen_address = "0.0.0.0"
    listen_port    = "3100"
  }
  forward_to = [loki.write.default.receiver]
}

faro.receiver "web" {
  server { listen_port = 12350 }
  output {}
}

mimir.rules.kubernetes "default" {
  address = "http://mimir-ruler:8080"
}
'''


def _facts(text: str, kind: str) -> set[tuple[int, str, str]]:
    return {(f.line, f.get("value") or f.get("port") or "", f.get("via") or "")
            for f in read_alloy("shop", "alloy/config.alloy", text) if f.kind == kind}


def test_writers_and_exporters_name_the_backends_they_send_to() -> None:
    assert _facts(PIPELINE, "monitoring.target") - {f for f in _facts(PIPELINE, "monitoring.target") if "scrape" in f[2]} == {
        (18, "${MIMIR_URL}", 'Alloy prometheus.remote_write "mimir"'),           # filled from the deployment's settings
        (31, "tcp://tempo:4317", 'Alloy otelcol.exporter.otlp "tempo"'),          # the TLS block's address is none
        (37, "${COLLECTOR_HOST}:4318", 'Alloy otelcol.exporter.otlphttp "collector"'),
        (38, "http://jaeger:4318/v1/traces", 'Alloy otelcol.exporter.otlphttp "collector"'),
        (43, "http://loki:3100/loki/api/v1/push", 'Alloy loki.write "default"'),  # a raw string
        (48, "${PYROSCOPE_URL:-http://pyroscope:4040}", 'Alloy pyroscope.write "default"'),
        (79, "http://mimir-ruler:8080", 'Alloy mimir.rules.kubernetes "default"'),
    }  # not: a value read from another file, the loopback, a commented-out block


def test_scrape_targets_are_the_literal_addresses_of_a_scraper() -> None:
    facts = [f for f in read_alloy("shop", "config.alloy", PIPELINE)
             if f.kind == "monitoring.target" and "scrape" in (f.get("via") or "")]
    assert {(f.line, f.get("value"), f.get("job")) for f in facts} == {
        (4, "orders:8080", "applications"), (5, "localhost:12345", "applications")}
    assert {f.get("program") for f in read_alloy("shop", "config.alloy", PIPELINE)} == {"alloy"}


def test_receivers_say_where_alloy_listens() -> None:
    assert {(line, port) for line, port, _via in _facts(PIPELINE, "server.listen_port")} == {
        (24, "4317"), (25, "4318"),  # an OTLP http {} without an endpoint listens on OTLP's port
        (68, "3100"), (74, "12350")}


def test_comments_strings_and_nesting() -> None:
    items = parse('a.b "x" {\n  s = "q\\"//not a comment" // a comment\n  r = `multi\nline`\n  n { k = 1 }\n}\n'
                  'top = [1, 2, {"k" = "v"}]\n')
    block = items[0]
    assert (block.name, block.label, block.line) == ("a.b", "x", 1)
    assert [(a.name, getattr(a.value, "value", None)) for a in block.attributes()] == [("s", 'q"//not a comment'),
                                                                                       ("r", "multi\nline")]
    assert block.blocks()[0].name == "n" and block.blocks()[0].line == 5  # after a raw string over two lines
    assert items[1].name == "top" and items[1].line == 7


def test_a_malformed_or_hostile_file_never_raises_and_ends_quickly() -> None:
    for text in ('loki.write "a" {\n endpoint { url = "http://loki:3100"\n', "}}}\n{{{\n", '"unclosed\n', "/* open",
                 "a = [1, 2,\n", 'x "y" { = = = }', "prometheus.scrape \"a\" { targets = [{\"__address__\" = }] }"):
        read_alloy("shop", "config.alloy", text)
    assert _facts('}\nloki.write "a" {\n endpoint { url = "http://loki:3100" }\n', "monitoring.target") == {
        (3, "http://loki:3100", 'Alloy loki.write "a"')}  # an unbalanced brace does not hide what follows
    start = time.monotonic()
    read_alloy("shop", "config.alloy", "a {\n" * 20000 + "}\n" * 20000)
    read_alloy("shop", "config.alloy", "v = " + "[" * 20000 + "]" * 20000 + "\n")
    read_alloy("shop", "config.alloy", "v = " + "(" * 20000 + "\n")
    read_alloy("shop", "config.alloy", "v = " + "-!" * 20000 + "1\n")
    assert time.monotonic() - start < 10


def test_alloy_and_river_files_are_listed_and_read_by_the_alloy_reader() -> None:
    for path in ("config.alloy", "deploy/alloy/pipeline.alloy", "agent/config.river"):
        assert is_descriptor(path), path
        reader = reader_for(path, "")
        assert reader is not None and reader.id == "alloy", path
    facts, warnings = read_file("shop", "alloy/config.alloy", PIPELINE.encode())
    assert not warnings and all(f.rule == "read_alloy" for f in facts)


def test_embedded_exporters_name_the_servers_they_collect_from_without_credentials() -> None:
    text = ('prometheus.exporter.redis "cache" { redis_addr = "cache:6379" }\n'
            'prometheus.exporter.postgres "db" {\n'
            '  data_source_names = ["postgresql://alloy:secret@db:5432/orders?sslmode=disable"]\n}\n'
            'prometheus.exporter.mysql "m" { data_source_name = "root:pw@(mysql:3306)/" }\n'
            'prometheus.exporter.unix "node" {}\n')
    assert _facts(text, "monitoring.target") == {
        (1, "tcp://cache:6379", 'Alloy prometheus.exporter.redis "cache"'),
        (3, "postgresql://db:5432/orders?sslmode=disable", 'Alloy prometheus.exporter.postgres "db"'),
    }  # a driver's own DSN form is left alone; no password is kept
    assert not any("secret" in str(f.attrs) or "pw@" in str(f.attrs) for f in read_alloy("shop", "c.alloy", text))


def test_components_inside_a_custom_component_definition_count() -> None:
    text = ('declare "logs" {\n  argument "level" {}\n  loki.write "out" {\n'
            '    endpoint { url = "http://loki:3100/loki/api/v1/push" }\n  }\n}\n')
    assert _facts(text, "monitoring.target") == {(4, "http://loki:3100/loki/api/v1/push", 'Alloy loki.write "out"')}
