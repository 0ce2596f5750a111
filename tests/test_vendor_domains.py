"""Hosts of one vendor's domain are one external system (rule code.vendor-domains)."""

from repomodeler.graph.build import resolve_system
from repomodeler.graph.vendors import registered_domain
from repomodeler.rules.cases import extract_in_memory


def test_registered_domain() -> None:
    assert registered_domain("api.github.com") == "github.com"
    assert registered_domain("github.com") == "github.com"
    assert registered_domain("api.example.co.uk") == "example.co.uk"
    assert registered_domain("localhost") is None
    assert registered_domain("10.0.0.1") is None


def _model(calls: list[str]):
    body = "\n".join(f'\thttp.Get("{u}")' for u in calls)
    files = {"go.mod": "module example.com/ci\ngo 1.22\n",
             "main.go": f'package main\n\nimport "net/http"\n\nfunc main() {{\n{body}\n\thttp.ListenAndServe(":8000", nil)\n}}\n'}
    return resolve_system("ci", extract_in_memory({"ci": files}))


def test_api_host_folds_into_the_bare_domain_with_both_lines() -> None:
    model = _model(["https://api.github.com/repos/acme/ci/hooks", "https://github.com/login/oauth/access_token"])
    assert "api.github.com" not in model.components
    assert "api.github.com" in model.components["github.com"].aliases
    conn = next(c for c in model.connections.values() if (c.source, c.target) == ("ci", "github.com"))
    assert {(e.path, e.line) for e in conn.evidence} >= {("main.go", 6), ("main.go", 7)}


def test_cloud_services_and_lone_subdomains_stay_apart() -> None:
    model = _model(["https://s3.amazonaws.com/bucket/key", "https://sqs.amazonaws.com/123/queue",
                    "https://api.stripe.com/v1/charges", "https://files.stripe.com/v1/files"])
    assert {"s3.amazonaws.com", "sqs.amazonaws.com", "api.stripe.com", "files.stripe.com"} <= set(model.components)


def test_an_external_is_known_by_its_vendor_name() -> None:
    model = _model(["https://api.pushover.net/1/messages.json"])
    assert "pushover" in model.components["api.pushover.net"].aliases


def test_a_hosted_service_reached_by_url_is_known_by_its_service_name() -> None:
    model = _model(["https://s3.amazonaws.com/bucket/key"])
    assert {"s3", "amazon s3"} <= model.components["s3.amazonaws.com"].aliases


def test_two_vendor_clients_are_no_catalog() -> None:
    """A shop's own payment and mail clients (two vendor-named modules) stay external systems."""
    files = {"requirements.txt": "flask==3.0\nrequests==2.31\n",
             "app.py": 'from flask import Flask\napp = Flask(__name__)\n@app.route("/")\ndef home():\n    return "ok"\n',
             "lib/stripe_client.py": 'import requests\ndef pay(x):\n    return requests.post("https://api.stripe.com/v1/charges", json=x)\n',
             "lib/sendgrid_client.py": 'import requests\ndef mail(x):\n    return requests.post("https://api.sendgrid.com/v3/mail/send", json=x)\n'}
    model = resolve_system("shop", extract_in_memory({"shop": files}))
    assert {"api.stripe.com", "api.sendgrid.com"} <= set(model.components)


def test_the_cloud_instance_metadata_endpoint_is_no_dependency() -> None:
    model = _model(["http://metadata.google.internal/computeMetadata/v1/project/project-id",
                    "http://169.254.169.254/latest/meta-data/iam/security-credentials/"])
    assert "metadata.google.internal" not in model.components
    assert not any(c.target == "metadata.google.internal" for c in model.connections.values())

