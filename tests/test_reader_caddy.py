"""Caddyfile reading: which upstream each route reaches, from which line, under which path."""

from repomodeler.extract.readers.caddy import read_caddyfile
from repomodeler.extract.readers.registry import is_descriptor, reader_for

SITE = """(common) {
\trequest_body {
\t\tmax_size {$FILE_SIZE_LIMIT}
\t}
\treverse_proxy /spaces/* space:3000   # the public pages
\thandle_path /api/* {
\t\treverse_proxy {$API_HOST:api}:8000
\t}
}

{
\temail {$CERT_EMAIL}
\tacme_ca {$CERT_ACME_CA:https://acme.example.org/directory}
}

shop.example.com, www.shop.example.com:443 {
\timport common
\t@socket path /ws/*
\treverse_proxy @socket {
\t\tto live:3000 live2:3000
\t}
\treverse_proxy :5173
\treverse_proxy "web:3000"
}
"""


def routes(text: str) -> set[tuple[int, str, str]]:
    return {(f.line, f.get("upstream") or "", f.get("location") or "") for f in read_caddyfile("shop", "proxy/Caddyfile", text)}


def test_routes_through_snippets_blocks_and_matchers() -> None:
    assert routes(SITE) == {
        (5, "space:3000", "/spaces/*"),          # a path matcher before the upstream
        (7, "${API_HOST:-api}:8000", "/api/*"),  # nested in handle_path; Caddy's default kept for the resolver
        (20, "live:3000", "/ws/*"),              # a named matcher and the proxy's own `to` list
        (20, "live2:3000", "/ws/*"),
        (22, "localhost:5173", ""),              # a port alone is this machine's
        (23, "web:3000", ""),
    }


def test_site_addresses_are_virtual_hosts_and_options_route_nothing() -> None:
    facts = read_caddyfile("shop", "Caddyfile", SITE)
    assert {f.get("server_names") for f in facts} == {"shop.example.com www.shop.example.com"}
    assert all("acme" not in (f.get("upstream") or "") for f in facts)  # the global acme_ca is no route


def test_a_single_site_without_braces() -> None:
    text = "localhost:8080\n\nencode gzip\nreverse_proxy /api/* backend:9000\nfile_server\n"
    assert routes(text) == {(4, "backend:9000", "/api/*")}


def test_unbalanced_braces_never_raise() -> None:
    assert routes("}\nexample.org {\n  reverse_proxy a:1\n") == {(3, "a:1", "")}


def test_caddyfile_variants_are_listed_and_read_by_the_caddy_reader() -> None:
    for path in ("Caddyfile", "apps/proxy/Caddyfile.ce", "deploy/Caddyfile.prod", "dev.Caddyfile", "site.caddyfile"):
        assert is_descriptor(path), path
        reader = reader_for(path, "", "proxy")
        assert reader is not None and reader.id == "caddy", path
    assert not is_descriptor("docs/caddy.txt")
    assert reader_for("docs/caddy.md", "", "proxy") is None  # (listed for its install commands, not as a Caddyfile)


def test_snippet_arguments_are_filled_per_import() -> None:
    text = ("(backend) {\n\treverse_proxy {args[0]}/* {args[1]}\n}\n\n"
            "shop.example.com {\n\timport backend /api api:8000\n\timport backend /live live:3000\n}\n")
    assert routes(text) == {(2, "api:8000", "/api/*"), (2, "live:3000", "/live/*")}


def test_hostile_nesting_and_import_fan_out_end_quickly() -> None:
    deep = "example.org {\n" + "route {\n" * 5000 + "reverse_proxy a:1\n" + "}\n" * 5001
    assert {u for _l, u, _p in routes(deep)} == {"a:1"}
    chain = "".join(f"(s{i}) {{\n\timport s{i + 1}\n\timport s{i + 1}\n}}\n" for i in range(40))
    chain += "(s40) {\n\treverse_proxy b:2\n}\nexample.org {\n\timport s0\n}\n"
    assert routes(chain) == set()  # imported too deep to follow: nothing, and no hang
    fan = "".join(f"(s{i}) {{\n\timport s{i + 1}\n\timport s{i + 1}\n}}\n" for i in range(6))
    fan += "(s6) {\n\treverse_proxy c:3\n}\nexample.org {\n\timport s0\n}\n"
    assert routes(fan) == {(fan.splitlines().index("\treverse_proxy c:3") + 1, "c:3", "")}
