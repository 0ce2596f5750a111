"""Reverse-proxy configuration read line by line: nginx (upstreams, ``proxy_pass``) and Apache httpd
(``ProxyPass``, balancer members).  Caddy's Caddyfile has a reader of its own (:mod:`.caddy`).

A proxy forwards requests to upstream services; each upstream address becomes a ``proxy.route``
fact (upstream value, optional location path) that the resolver turns into a connection from the
proxy component to the component that host names.  Traefik routes live in compose labels (see
:mod:`.compose`)."""

from __future__ import annotations

import re
from dataclasses import replace

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._templates import TEMPLATE_SUFFIX, strip_template
from repomodeler.records import Fact


_NGINX_PASS = re.compile(r"^\s*(proxy_pass|grpc_pass|fastcgi_pass|uwsgi_pass)\s+([^;\s]+)\s*;")
_NGINX_LOCATION = re.compile(r"^\s*location\s+(?:[=~^*]+\s*)?([^\s{]+)\s*\{")
_NGINX_UPSTREAM = re.compile(r"^\s*upstream\s+([A-Za-z0-9_.-]+)\s*\{")
_NGINX_SOCKET = re.compile(r"^\s*server\s+(unix:[^\s;]+)")  # an app server's socket: `server unix:/app/tmp/puma.sock;`
_NGINX_SERVER = re.compile(r"^\s*server\s+[\"']?([A-Za-z0-9_.-]+(?::\d+)?)[\"']?[^;]*;")
_NGINX_SERVER_BLOCK = re.compile(r"^\s*server\s*\{")
_NGINX_SERVER_NAME = re.compile(r"^\s*server_name\s+([^;]+);")
_NGINX_SET = re.compile(r"^\s*set\s+\$([A-Za-z0-9_]+)\s+[\"']?([^\"';\s]+)[\"']?\s*;")
_APACHE_PASS = re.compile(r"^\s*ProxyPass(?:Match)?\s+(\S+)\s+(\S+)", re.I)
_APACHE_MEMBER = re.compile(r"^\s*BalancerMember\s+(\S+)", re.I)
_HAPROXY_SECTION = re.compile(r"^(backend|listen|frontend|global|defaults)\b\s*(\S*)")
_HAPROXY_SERVER = re.compile(r"^\s+server\s+\S+\s+([A-Za-z0-9_.-]+:\d+)")


def _expand(value: str, variables: dict[str, list[str]]) -> list[str]:
    """A proxy_pass target with its variables replaced by each value they are set to (unknown ones kept)."""
    m = re.search(r"\$([A-Za-z0-9_]+)", value)
    if m is None or m.group(1) not in variables:
        return [value]
    return [x for v in variables[m.group(1)]
            for x in _expand(value[:m.start()] + v.strip("\"'") + value[m.end():], variables)]


def read_proxy(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    upstreams: dict[str, list[tuple[str, int]]] = {}
    current_upstream: str | None = None
    location = ""
    server_names = ""  # the virtual hosts (`server_name api.shop.local;`) of the server block
    # `set $search_host "search";` then `proxy_pass http://$search_host;`; a variable set to several
    # values (`set $proxpass "http://ui";` and, under a condition, `set $proxpass "http://api";`) routes to each
    variables: dict[str, list[str]] = {}
    lines = text.splitlines()
    for i, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0]
        if _NGINX_SERVER_BLOCK.match(line):
            server_names, location = "", ""
        m = _NGINX_SERVER_NAME.match(line)
        if m:
            server_names = " ".join(sorted(n for n in m.group(1).split() if n not in ("_", "\"\"")))
            continue
        m = _NGINX_SET.match(line)
        if m:
            variables.setdefault(m.group(1), [])
            if m.group(2) not in variables[m.group(1)]:
                variables[m.group(1)].append(m.group(2))
            continue
        m = _NGINX_UPSTREAM.match(line)
        if m:
            current_upstream = m.group(1)
            upstreams[current_upstream] = []
            continue
        if current_upstream is not None:
            m = _NGINX_SOCKET.match(line) or _NGINX_SERVER.match(line)
            if m:
                upstreams[current_upstream].append((m.group(1), i))
            if "}" in line:
                current_upstream = None
            continue
        m = _NGINX_LOCATION.match(line)
        if m:
            location = m.group(1)
        m = _NGINX_PASS.match(line)
        if m:
            for target in _expand(m.group(2).strip("\"'"), variables):
                host = re.sub(r"^[a-z]+://", "", target).split("/")[0].split(":")[0]
                if host in upstreams:
                    for server, sline in upstreams[host]:
                        facts.append(fact("proxy.route", repo, path, sline, upstream=server, location=location,
                                          via=f"upstream {host}", server_names=server_names, software="nginx"))
                    facts.append(fact("proxy.route", repo, path, i, upstream=target, location=location, via=f"upstream {host}",
                                      named_upstream=host, server_names=server_names, software="nginx"))
                else:
                    facts.append(fact("proxy.route", repo, path, i, upstream=target, location=location,
                                      server_names=server_names, software="nginx"))
            continue
        m = _APACHE_MEMBER.match(line)
        if m:  # <Proxy balancer://c> ... BalancerMember http://stock:8080: an upstream of the balancer
            facts.append(fact("proxy.route", repo, path, i, upstream=m.group(1), via="balancer member", software="httpd"))
            continue
        m = _APACHE_PASS.match(line)
        if m:
            if not m.group(2).lower().startswith("balancer://"):  # its members are the upstreams
                facts.append(fact("proxy.route", repo, path, i, upstream=m.group(2), location=m.group(1), software="httpd"))
            continue
    return facts


# A site's configuration: by its name, or any .conf in the folders nginx and httpd read, or a file with no
# extension in a folder of nginx sites (Debian's sites-available/shop, a project's deployment/nginx/shop).
_SITE = (r"(?:nginx[^/]*\.conf|httpd[^/]*\.conf|default\.conf"
         r"|(?:nginx|conf\.d|sites-available|sites-enabled|apache2?|httpd)/[^/]*\.conf"
         r"|(?:nginx|sites-available|sites-enabled)/[a-z0-9][a-z0-9_-]*)")


# Any other .conf file whose start reads like an nginx site (a server block with a location or a
# proxy_pass, or an upstream block): a gateway's configuration kept under the project's own name
# (gateway/shop.conf) and mounted into an nginx container.
# (or a snippet of location blocks the site includes, `nginx/additional/flink.conf`: `location /flink/ { proxy_pass
# http://flink-jobmanager:8081/; }`)
_NGINX_HINT = re.compile(r"(?m)^\s*(?:server\s*\{[\s\S]*?\b(?:location\s+\S+\s*\{|proxy_pass\s)|upstream\s+[\w.-]+\s*\{"
                         r"|location\s+(?:[=~^*]+\s*)?\S+\s*\{[^{}]*?\b(?:proxy|grpc|fastcgi|uwsgi)_pass\s)")


def _looks_like_nginx(path: str, head: str) -> bool:
    return bool(_NGINX_HINT.search(head))


def is_nginx_entry(key: str, value: str) -> bool:
    """Is a Kubernetes ConfigMap entry (its key, its text) an nginx configuration file that forwards requests, a site
    or a file it includes (`endpoints.conf: |` with `location /api { proxy_pass http://api-service:8080; }`)?"""
    return bool(re.search(r"\.conf(?:\.template)?$", key)) and any(_NGINX_PASS.match(x) for x in value.splitlines())


def nginx_entry_routes(repo: str, path: str, configmap: str, text: str, first_line: int) -> list[Fact]:
    """The routes of an nginx file kept in a ConfigMap: `first_line` is the manifest line of the text's first
    line; each route names the ConfigMap, so the workload mounting it (not the manifest's folder) owns them."""
    return [replace(f, line=f.line + first_line - 1, attrs=tuple(sorted((*f.attrs, ("configmap", configmap)))))
            for f in read_proxy(repo, path, text)]


READERS = (
    Reader("nginx", "proxy", 100, read_proxy, patterns=(_SITE, _SITE + r"\.template", r"[^/]*\.nginx"),
           ignore_case=False, shadows=("nginx.template", "nginx.sniffed")),
    Reader("nginx.sniffed", "proxy", 105, read_proxy, patterns=(r"[^/]*\.conf",), sniff=_looks_like_nginx,
           ignore_case=False),
    # An installer's template of the site (nginx.http.conf.jinja, NginxConfig.hbs), read without its directives.
    Reader("nginx.jinja", "proxy", 108, lambda repo, path, text: read_proxy(repo, path, strip_template(text)),
           patterns=(r"[^/]*(?:nginx|Nginx|NGINX)[^/]*\." + TEMPLATE_SUFFIX,), ignore_case=False),
    # Other templates of configuration files (shop.conf.template): listed, not read.
    Reader("nginx.template", "proxy", 110, None, patterns=(r"[^/]*\.conf\.template",), ignore_case=False),
)
