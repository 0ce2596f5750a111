"""Issue #24, quantities and values: published ports, replicas, CPU and memory are typed values in the
SysML (PortMapping with Natural ports, Natural replicas, Real cores, MemorySize in SI::byte), never a
string holding a typed value; what does not parse is named in the doc; the SysML reader reads the ports
back as model.json writes them."""

from __future__ import annotations

import re

import pytest

from repomodeler.emit.sysml import render_library, render_system
from repomodeler.emit.values import PortMapping, cpu_cores, memory_bytes, natural, port_mappings
from repomodeler.extract.readers.kubernetes import read_kubernetes
from repomodeler.diff.load import read_sysml_text
from tests.sysml_check import assert_valid_sysml, make_graph, sysml_diagnostics, tree_sitter_errors

MANIFEST = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: cart
spec:
  replicas: 3
  template:
    metadata:
      labels:
        app: cart
    spec:
      containers:
        - name: server
          image: cart:1.2
          ports:
            - containerPort: 7070
          resources:
            requests:
              cpu: 100m
              memory: 64Mi
            limits:
              cpu: "1"
              memory: 1G
"""


def test_descriptor_values_parse_to_numbers_and_units() -> None:
    assert port_mappings("3000:3000") == ([PortMapping(3000, 3000)], [])
    assert port_mappings("127.0.0.1:8080:80/tcp, 9090") == ([PortMapping(80, 8080, "tcp"), PortMapping(9090)], [])
    assert port_mappings("8000-8010:8000-8010,${PORT}") == ([], ["8000-8010:8000-8010", "${PORT}"])
    assert cpu_cores("100m") == "0.1" and cpu_cores("2") == "2" and cpu_cores("0.5") == "0.5" and cpu_cores("x") is None
    assert memory_bytes("64Mi") == str(64 * 1024 * 1024) and memory_bytes("1G") == "1000000000"
    assert memory_bytes("129e6") == "129000000" and memory_bytes("{{ .Values.mem }}") is None
    assert natural("3") == "3" and natural("{{ .Values.replicas }}") is None


def test_kubernetes_reader_keeps_replicas_and_resources_as_written() -> None:
    workload = next(f for f in read_kubernetes("shop", "k8s/cart.yaml", MANIFEST) if f.kind == "k8s.workload")
    assert {k: workload.get(k) for k in ("replicas", "cpu_request", "memory_request", "cpu_limit", "memory_limit")} == \
        {"replicas": "3", "cpu_request": "100m", "memory_request": "64Mi", "cpu_limit": "1", "memory_limit": "1G"}


def _graph():
    return make_graph("shop", [
        {"id": "web", "kind": "service", "repository": "shop",
         "attributes": {"deployment": "compose", "image": "web:1", "ports": "8080:80/tcp,9090,8000-8010"}},
        {"id": "cart", "kind": "service", "repository": "shop",
         "attributes": {"deployment": "kubernetes", "image": "cart:1.2", "ports": "7070", "replicas": "3",
                        "cpu_request": "100m", "cpu_limit": "1", "memory_request": "64Mi", "memory_limit": "{{ x }}"}},
    ], [{"source": "web", "target": "cart", "protocol": "grpc"}])


def _block(text: str, header: str) -> str:
    start = text.index(header)
    return text[start:text.index("\n        }", start)]


def test_ports_replicas_cpu_and_memory_are_typed_attributes() -> None:
    text = render_system(_graph())
    assert "exposedPorts" not in text and not re.search(r'= "[0-9:/,]+";', text)  # no typed value as a string
    web = _block(text, "part web : Service {")
    assert "attribute port_8080_80 :> publishedPorts { :>> containerPort = 80; :>> hostPort = 8080; " \
           ':>> transport = "tcp"; }' in web
    assert "attribute port_9090 :> publishedPorts { :>> containerPort = 9090; }" in web
    assert "published ports not typed: 8000-8010" in web  # a range: said in the doc, not typed
    workload = _block(text, "part cart : Workload {")
    for line in ("attribute :>> replicas = 3;", "attribute :>> cpuRequest = 0.1;", "attribute :>> cpuLimit = 1;",
                 "attribute :>> memoryRequest = 67108864 [SI::byte];",
                 "attribute port_7070 :> publishedPorts { :>> containerPort = 7070; }"):
        assert line in workload, line
    assert "memoryLimit" not in workload and "not read as quantities: memory limit {{ x }}" in workload
    library = render_library()
    assert "attribute def PortMapping {" in library and "attribute memoryRequest : MemorySize;" in library
    assert "attribute def MemorySize :> Quantities::ScalarQuantityValue {" in library


def test_the_reader_reads_the_typed_ports_back_as_written() -> None:
    model = read_sysml_text(render_system(_graph()), "model.sysml")
    assert model.components["web"].attributes["ports"] == "8080:80/tcp,9090"
    assert model.components["cart"].attributes["ports"] == "7070"


def test_every_reader_accepts_the_typed_values(tmp_path) -> None:  # type: ignore[no-untyped-def]
    text, library = render_system(_graph()), render_library()
    assert_valid_sysml([library, text])
    assert [d.format() for d in sysml_diagnostics([library, text]) if d.severity == "warning"] == []
    assert tree_sitter_errors(text) == []
    (tmp_path / "RepoModeler.sysml").write_text(library, encoding="utf-8")
    (tmp_path / "model.sysml").write_text(text, encoding="utf-8")
    longeron = pytest.importorskip("longeron", reason="longeron is not installed")
    from longeron.validation import validate

    assert [str(d) for d in validate(longeron.load(str(tmp_path), cache=False), strict=True)] == []
    core = pytest.importorskip("mercurio._core", reason="mercurio-sysml is not installed")
    core.ModelBuilder.from_sysml_files({"RepoModeler.sysml": library, "model.sysml": text}, True).compile_model()
