"""Helm charts rendered far enough to read: the Go-template renderer, the chart step of extraction,
and a chart-only repository analysed end to end (no helm binary, no network)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import make_repo
from model_views import top_level
from repomodeler import inventory
from repomodeler.extract.helm_charts import chart_inputs, chart_roots, helm_chart_facts
from repomodeler.extract.helm_render import MAX_INCLUDE_DEPTH, ChartRender, RenderedTemplate, render_chart
from repomodeler.extract.readers import registry
from repomodeler.pipeline import AnalyzeOptions, analyze

CHART = "apiVersion: v2\nname: web\nversion: 0.4.0\nappVersion: \"2.3.1\"\n"
VALUES = """\
nameOverride: ""
replicaCount: 2
image:
  repository: acme/web
  tag: ""
service:
  port: 80
env:
  REDIS_URL: redis://cache:6379
  LOG_LEVEL: info
resources:
  limits:
    memory: 256Mi
ingress:
  enabled: false
"""
HELPERS = """\
{{/* The chart's name, cut to what Kubernetes accepts. */}}
{{- define "web.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "web.fullname" -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "web.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "web.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}
"""
DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "web.fullname" . }}
  labels:
    {{- include "web.labels" . | nindent 4 }}
spec:
  replicas: {{ .Values.replicaCount }}
  template:
    metadata:
      labels:
        app: {{ include "web.name" . }}
    spec:
      containers:
        - name: {{ .Chart.Name }}
          image: "{{ .Values.image.repository }}:{{ default .Chart.AppVersion .Values.image.tag }}"
          env:
            {{- range $key, $value := .Values.env }}
            - name: {{ $key }}
              value: {{ $value | quote }}
            {{- end }}
          {{- if .Values.resources }}
          resources:
            {{- toYaml .Values.resources | nindent 12 }}
          {{- end }}
"""
SERVICE = """\
apiVersion: v1
kind: Service
metadata:
  name: {{ include "web.fullname" . }}
  labels: {{- include "web.labels" . | nindent 4 }}
spec:
  selector:
    app: {{ include "web.name" . }}
  ports:
    - port: {{ .Values.service.port }}
"""
INGRESS = """\
{{- if .Values.ingress.enabled -}}
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: {{ include "web.fullname" . }}
{{- end }}
"""


def chart(**extra: str) -> dict[str, str]:
    files = {"Chart.yaml": CHART, "values.yaml": VALUES, "templates/_helpers.tpl": HELPERS,
             "templates/deployment.yaml": DEPLOYMENT, "templates/service.yaml": SERVICE,
             "templates/ingress.yaml": INGRESS}
    files.update(extra)
    return files


def rendered(result: ChartRender, path: str) -> RenderedTemplate:
    return next(t for t in result.templates if t.path == path)


def line_of(source: str, needle: str) -> int:
    """The 1-based line of `source` holding `needle`."""
    return next(i for i, text in enumerate(source.splitlines(), 1) if needle in text)


def output_line(template: RenderedTemplate, needle: str) -> tuple[int, str]:
    return next((line, text) for line, text in template.lines if needle in text)


# --------------------------------------------------------------------------- the renderer on a realistic chart
def test_a_realistic_chart_renders_names_image_env_and_services():
    result = render_chart(chart())
    assert not result.warnings, result.warnings
    assert [t.path for t in result.templates] == ["templates/deployment.yaml", "templates/ingress.yaml",
                                                  "templates/service.yaml"]
    deployment = rendered(result, "templates/deployment.yaml").text
    assert deployment.splitlines()[:9] == [
        "apiVersion: apps/v1", "kind: Deployment", "metadata:", "  name: web", "  labels:",
        "    helm.sh/chart: web-0.4.0", "    app.kubernetes.io/name: web", "    app.kubernetes.io/instance: web",
        "spec:"]
    assert '          image: "acme/web:2.3.1"' in deployment  # default .Chart.AppVersion .Values.image.tag
    assert "  replicas: 2" in deployment
    env = [ln.strip() for ln in deployment.splitlines() if ln.strip().startswith(("- name: ", "value: "))]
    assert env == ["- name: web", "- name: LOG_LEVEL", 'value: "info"', "- name: REDIS_URL",
                   'value: "redis://cache:6379"']  # a map ranges in key order
    assert "          resources:\n            limits:\n              memory: 256Mi" in deployment
    service = rendered(result, "templates/service.yaml").text
    assert "  name: web" in service and "    - port: 80" in service and "    app: web" in service
    assert not rendered(result, "templates/ingress.yaml").text.strip()  # switched off by its values


def test_every_output_line_points_at_the_template_line_that_made_it():
    deployment = rendered(render_chart(chart()), "templates/deployment.yaml")
    assert output_line(deployment, "name: web")[0] == line_of(DEPLOYMENT, "name: {{ include")
    # what an include or toYaml printed points at the action that printed it
    assert output_line(deployment, "helm.sh/chart")[0] == line_of(DEPLOYMENT, 'include "web.labels"')
    assert output_line(deployment, "memory: 256Mi")[0] == line_of(DEPLOYMENT, "toYaml .Values.resources")
    assert output_line(deployment, "image:")[0] == line_of(DEPLOYMENT, "image:")
    # each turn of a range points at the body's lines
    assert output_line(deployment, "- name: REDIS_URL")[0] == line_of(DEPLOYMENT, "- name: {{ $key }}")
    assert output_line(deployment, "redis://cache")[0] == line_of(DEPLOYMENT, "value: {{ $value")
    assert output_line(deployment, "resources:")[0] == line_of(DEPLOYMENT, "resources:")
    assert deployment.template_line(1) == 1 and deployment.template_line(10_000) == 0


def test_trunc_and_trim_suffix_make_a_kubernetes_name():
    long = "a" * 61 + "-xyz"
    result = render_chart(chart(**{"values.yaml": VALUES.replace('nameOverride: ""', f"nameOverride: {long}")}))
    name = output_line(rendered(result, "templates/service.yaml"), "  name: ")[1].split(": ", 1)[1]
    assert name == ("web-" + long)[:63].rstrip("-") and len(name) <= 63
    assert "app.kubernetes.io/name: " + "a" * 61 in rendered(result, "templates/service.yaml").text


def test_rendering_is_deterministic():
    assert render_chart(chart()) == render_chart(chart())


# --------------------------------------------------------------------------- the language, action by action
def render_text(template: str, values: str = "", **files: str) -> str:
    """The output of one template in a chart named `web` with `values`."""
    result = render_chart({"Chart.yaml": CHART, "values.yaml": values, "templates/t.yaml": template, **files})
    assert not result.warnings, result.warnings
    return rendered(result, "templates/t.yaml").text


@pytest.mark.parametrize("template, values, expected", [
    ('{{ .Values.a.b }}|{{ .Values.missing.deeper }}|', "a:\n  b: 7\n", "7||"),
    ("{{ .Chart.Name }} {{ .Chart.Version }} {{ .Chart.AppVersion }}", "", "web 0.4.0 2.3.1"),
    ("{{ .Release.Name }} {{ .Release.Namespace }} {{ .Release.Service }}", "", "web default Helm"),
    ('{{ if .Capabilities.APIVersions.Has "networking.k8s.io/v1" }}v1{{ end }}', "", "v1"),
    ('{{ if semverCompare ">=1.19-0" .Capabilities.KubeVersion.GitVersion }}new{{ else }}old{{ end }}', "", "new"),
    ("{{ $x := .Values.a }}{{ $x }}-{{ $.Values.a }}", "a: 3\n", "3-3"),
    ("{{ $x := 1 }}{{ if true }}{{ $x = 2 }}{{ end }}{{ $x }}", "", "2"),
    ('{{ "x" | quote }} {{ "it" | squote }} {{ quote nil }}.', "", "\"x\" 'it' ."),
    ('{{ printf "%s:%d %q %v" "a" 5 "b" true }} {{ printf "%.0f|%05.1f|%x|%-3s|" 2.6 3.14159 255 "a" }}', "",
     'a:5 "b" true 3|003.1|ff|a  |'),
    ('{{ print "a" 1 2 "b" }}', "", "a1 2b"),
    ('{{ tpl .Values.t . }}', "t: '{{ .Chart.Name }}-x'\n", "web-x"),
    ('{{ required "set it" .Values.url }}|{{ required "set it" .Values.none }}|', "url: http://x\n", "http://x||"),
    ('{{ .Values.p | b64enc }} {{ toString 5 }} {{ int "42" }} {{ add 1 2 }}', "p: secret\n", "secret 5 42 3"),
    ('{{ lower "AB" }}{{ upper "cd" }} {{ replace "." "-" "a.b.c" }} {{ trimPrefix "v" "v1.2" }}', "", "abCD a-b-c 1.2"),
    ('{{ trunc 3 "abcdef" }} {{ trunc -2 "abcdef" }} {{ trimSuffix "-" "ab-" }}', "", "abc ef ab"),
    ('a:{{ "x\\ny" | indent 2 }}|{{ "x" | nindent 4 }}', "", "a:  x\n  y|\n    x"),
    ("{{ toYaml .Values.m }}", "m:\n  b: [1, 2]\n  a: {c: d}\n", "a:\n  c: d\nb:\n- 1\n- 2"),
    ('{{ if eq .Values.k "a" "b" }}eq{{ end }}{{ if ne 1 2 }} ne{{ end }}', "k: b\n", "eq ne"),
    ('{{ if and .Values.a (or .Values.b .Values.c) (not .Values.d) }}yes{{ end }}', "a: 1\nc: 1\n", "yes"),
    ('{{ if empty .Values.e }}empty{{ end }}{{ if hasKey .Values "e" }} has{{ end }}', "e: []\n", "empty has"),
    ('{{ if contains "ab" "xaby" }}in{{ end }}', "", "in"),
    ("{{ if .Values.a }}a{{ else if .Values.b }}b{{ else }}c{{ end }}", "b: true\n", "b"),
    ("{{ with .Values.w }}{{ .x }}{{ else }}none{{ end }}|{{ with .Values.z }}z{{ else }}none{{ end }}",
     "w:\n  x: 1\n", "1|none"),
    ("{{ range .Values.l }}[{{ . }}]{{ else }}empty{{ end }}", "l: [a, b]\n", "[a][b]"),
    ("{{ range $i, $v := .Values.l }}{{ $i }}={{ $v }} {{ end }}", "l: [a, b]\n", "0=a 1=b "),
    ("{{ range $k, $v := .Values.m }}{{ $k }}={{ $v }};{{ end }}", "m: {z: 1, a: 2}\n", "a=2;z=1;"),
    ("{{ range .Values.l }}{{ if eq . 2 }}{{ continue }}{{ end }}{{ if eq . 4 }}{{ break }}{{ end }}{{ . }}{{ end }}",
     "l: [1, 2, 3, 4, 5]\n", "13"),
    ("{{ range until 3 }}{{ . }}{{ end }}", "", "012"),
    ("a  {{- /* a comment */ -}}  b{{/* another */}}", "", "ab"),
    ("x\n  {{- if true }}\ny\n{{- end }}\n", "", "x\ny\n"),
    ('{{ define "local" }}L{{ . }}{{ end }}{{ template "local" "1" }}{{ include "local" 2 }}', "", "L1L2"),
    ('{{ block "b" . }}default{{ end }}', "", "default"),
    ('{{ index .Values.m "my-key" }} {{ (index .Values "m").other }}', "m: {my-key: v, other: o}\n", "v o"),
    ('{{ noSuchFunction 1 2 }}|{{ .Values.a | noSuchFilter }}|{{ include "undefined" . }}|', "a: 1\n", "|||"),
    ('{{ coalesce .Values.a .Values.b "c" }} {{ ternary "y" "n" true }} {{ join "," (list 1 2) }}', "b: B\n", "B y 1,2"),
    ('{{ $d := dict "k" "v" }}{{ $_ := set $d "n" 1 }}{{ toJson $d }}', "", '{"k":"v","n":1}'),
    # mergo's rule: merge fills what the target has empty, mergeOverwrite keeps it from an empty source
    ('{{ toJson (merge .Values.own .Values.base) }} {{ toJson (mergeOverwrite .Values.base .Values.own) }}',
     "own: {repository: '', tag: '1'}\nbase: {repository: r, tag: '2'}\n",
     '{"repository":"r","tag":"1"} {"repository":"r","tag":"1"}'),
    ('{{ if not .Values.url }}{{ fail "url must be set" }}{{ end }}name: x', "", "name: x"),
    ("{{ .Values.big }} {{ .Values.f }} {{ .Values.yes }}", "big: 1000000\nf: 1.5\n\"yes\": true\n", "1000000 1.5 true"),
])
def test_the_template_language(template: str, values: str, expected: str):
    assert render_text(template, values) == expected


def test_defines_from_any_template_file_are_shared():
    text = render_text('{{ include "from.yaml" . }} {{ include "from.tpl" . }}',
                       **{"templates/other.yaml": '{{- define "from.yaml" }}Y{{ end -}}',
                          "templates/_more.tpl": '{{ define "from.tpl" }}T{{ end }}'})
    assert text == "Y T"


def test_a_subchart_gets_its_parents_section_and_globals_and_a_disabled_one_is_not_rendered():
    files = {
        "Chart.yaml": CHART + "dependencies:\n  - name: cache\n    condition: cache.enabled\n"
                              "  - name: search\n    condition: search.enabled\n",
        "values.yaml": "global:\n  domain: example.org\ncache:\n  image: redis:7.2\nsearch:\n  enabled: false\n",
        "charts/cache/Chart.yaml": "apiVersion: v2\nname: cache\nversion: 1.0.0\n",
        "charts/cache/values.yaml": "image: redis:6\nport: 6379\nglobal:\n  domain: local\n  own: kept\n",
        "charts/cache/templates/deployment.yaml": (
            "name: {{ .Release.Name }}-{{ .Chart.Name }}\nimage: {{ .Values.image }}\nport: {{ .Values.port }}\n"
            "domain: {{ .Values.global.domain }} {{ .Values.global.own }}\n"),
        "charts/search/Chart.yaml": "apiVersion: v2\nname: search\nversion: 1.0.0\n",
        "charts/search/templates/deployment.yaml": "name: search\n",
        "charts/old-1.0.0.tgz": "not read",
    }
    result = render_chart(files)
    assert not result.warnings
    assert [t.path for t in result.templates] == ["charts/cache/templates/deployment.yaml"]
    assert result.templates[0].text == "name: web-cache\nimage: redis:7.2\nport: 6379\ndomain: example.org kept\n"


# --------------------------------------------------------------------------- hostile or broken templates
def test_an_unclosed_action_is_a_warning_naming_the_template_and_the_rest_renders():
    result = render_chart(chart(**{"templates/broken.yaml": "a: 1\nb: {{ .Values.x\n"}))
    assert [(w.path, w.line) for w in result.warnings] == [("templates/broken.yaml", 2)]
    assert "unclosed action" in result.warnings[0].message
    assert "templates/deployment.yaml" in [t.path for t in result.templates]


@pytest.mark.parametrize("template, why", [
    ('{{ define "loop" }}{{ include "loop" . }}{{ end }}x: {{ include "loop" . }}', f"more than {MAX_INCLUDE_DEPTH}"),
    ('{{ define "a" }}{{ template "b" . }}{{ end }}{{ define "b" }}{{ include "a" . }}{{ end }}{{ template "a" . }}',
     "include nested"),
    ("{{ range until 100000000 }}x{{ end }}", "until 100000000: more than 10000 items (at line 1)"),
    ('{{ $s := "xxxxxxxxxx" }}{{ range until 40 }}{{ $s = printf "%s%s" $s $s }}{{ end }}', "string of more"),
    ("{{ range until 9000 }}{{ range until 9000 }}{{ end }}{{ end }}", "steps"),
    ("{{ indent 1000000000 \"x\" }}", "width"),
    ("{{ if true }}never closed", "never closed"),
    ("{{ end }}", "unexpected"),
    ("{{ " + "(" * 500 + "1" + ")" * 500 + " }}", "nested too deeply"),
    ("{{ if true }}" * 300 + "{{ end }}" * 300, "nested too deeply"),
    ("{{ /* never closed", "unclosed comment"),
    ('{{ "unterminated }}', "unterminated string"),
    ("{{ break }}", "break or continue"),
])
def test_hostile_templates_are_warnings_not_exceptions(template: str, why: str):
    result = render_chart({"Chart.yaml": CHART, "values.yaml": "", "templates/bad.yaml": template,
                           "templates/good.yaml": "ok: {{ .Chart.Name }}\n"})
    assert [w.path for w in result.warnings] == ["templates/bad.yaml"], result.warnings
    assert why in result.warnings[0].message, result.warnings[0].message
    assert [t.path for t in result.templates] == ["templates/good.yaml"]


def test_broken_values_or_chart_files_are_warnings_and_the_chart_still_renders():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi"))
    for values in ("a: [unclosed\n", bomb):
        result = render_chart({"Chart.yaml": CHART, "values.yaml": values, "templates/t.yaml": "n: {{ .Chart.Name }}\n"})
        assert [w.path for w in result.warnings] == ["values.yaml"]
        assert rendered(result, "templates/t.yaml").text == "n: web\n"
    assert render_chart({"values.yaml": ""}).templates == ()


# --------------------------------------------------------------------------- the chart step of extraction
def test_chart_roots_and_the_files_the_step_reads():
    paths = ["deploy/web/Chart.yaml", "deploy/web/values.yaml", "deploy/web/values-prod.yaml",
             "deploy/web/README.md", "deploy/web/templates/_helpers.tpl", "deploy/web/templates/a.yaml",
             "deploy/web/templates/NOTES.txt", "deploy/web/charts/db/Chart.yaml", "deploy/web/charts/db/values.yaml",
             "deploy/web/charts/db/templates/s.yaml", "deploy/web/charts/old.tgz",
             "lib/Chart.yaml", "lib/values.yaml", "src/app.py"]
    assert chart_roots(paths) == ["deploy/web/"]  # the subchart renders inside its parent; lib has no templates
    assert chart_inputs(paths) == [
        "deploy/web/Chart.yaml", "deploy/web/charts/db/Chart.yaml", "deploy/web/charts/db/templates/s.yaml",
        "deploy/web/charts/db/values.yaml", "deploy/web/templates/_helpers.tpl",
        "deploy/web/templates/a.yaml", "deploy/web/values.yaml"]


def test_helpers_are_listed_by_the_inventory_and_claimed_by_the_helm_reader():
    helpers = 'chart/templates/_helpers.tpl'
    assert inventory._wanted(helpers)
    assert [r.id for r in registry.claimants(helpers, '{{- define "x" -}}\n')] == ["helm.template"]
    # a compose file's template in a templates/ folder is still compose's
    compose = "templates/docker-compose.tpl"
    assert registry.reader_for(compose, "services:\n  web:\n    image: {{ image }}\n").id == "compose.template"


def test_facts_of_rendered_templates_point_at_template_lines():
    files = {f"ops/web/{p}": t for p, t in chart().items()}
    facts, warnings = helm_chart_facts("repo", {**files, "src/app.py": "print(1)\n"})
    assert not warnings
    workload = next(f for f in facts if f.kind == "k8s.workload")
    assert (workload.path, workload.line, workload.get("name"), workload.get("image")) == (
        "ops/web/templates/deployment.yaml", line_of(DEPLOYMENT, "name: {{ include"), "web", "acme/web:2.3.1")
    assert workload.rule == "read_helm_chart"
    env = {(f.get("name"), f.get("value"), f.line) for f in facts if f.kind == "config.env"}
    assert env == {(k, v, line_of(DEPLOYMENT, "- name: {{ $key }}"))
                   for k, v in (("LOG_LEVEL", "info"), ("REDIS_URL", "redis://cache:6379"))}
    service = next(f for f in facts if f.kind == "k8s.service")
    assert (service.path, service.get("name"), service.get("ports"), service.get("app")) == (
        "ops/web/templates/service.yaml", "web", "80", "web")


def test_a_rendered_template_that_is_not_yaml_is_a_warning_at_its_template_line():
    files = {"c/Chart.yaml": CHART, "c/values.yaml": "x: '[a, b'\n",
             "c/templates/t.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n"
                                   "  k: {{ .Values.x }}\n  j: 1\n"}
    facts, warnings = helm_chart_facts("repo", files)
    assert facts == []
    # (the unclosed list is noticed on the line after it: a list is no plain value a line can be mended to)
    assert [(w.path, w.line) for w in warnings] == [("c/templates/t.yaml", 7)]
    assert "not valid YAML" in warnings[0].message


def test_a_value_left_for_install_time_is_mended_not_the_workload_lost():
    """`image: {{ .Values.registry }}/{{ .Values.name }}:{{ .Values.tag }}` with the chart's empty
    defaults renders `image: /:`, which is not YAML; the line is read as an empty value and the
    Deployment is still there, and a value with a colon in it (`a: b`) is read as the text it is."""
    files = {"c/Chart.yaml": CHART, "c/values.yaml": "registry:\nname:\ntag:\nnote: 'a: b'\n",
             "c/templates/d.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n"
                                   "  template:\n    spec:\n      containers:\n      - name: api\n"
                                   "        image: {{ .Values.registry }}/{{ .Values.name }}:{{ .Values.tag }}\n"
                                   "        env:\n        - name: NOTE\n          value: {{ .Values.note }}\n"}
    facts, warnings = helm_chart_facts("repo", files)
    assert warnings == []
    assert [f.get("name") for f in facts if f.kind == "k8s.workload"] == ["api"]
    assert [(f.get("name"), f.get("value")) for f in facts if f.kind == "config.env"] == [("NOTE", "a: b")]


def test_helm_install_commands_are_parsed_as_helm_reads_them():
    from repomodeler.extract.readers.helm_install import parse_helm_install

    assert parse_helm_install("helm upgrade --install --wait frontend --namespace test "
                              "--set replicaCount=2 --set backend=http://backend-app:9898/echo app/app") == {
        "release": "frontend", "chart": "app/app", "namespace": "test",
        "sets": [["--set", "replicaCount=2"], ["--set", "backend=http://backend-app:9898/echo"]], "values": []}
    assert parse_helm_install("helm package charts/api/ -u && helm install api-dev api-v0.1.0.tgz -f dev.yaml "
                              "--set-string tag=010 -n backend")["chart"] == "api-v0.1.0.tgz"
    assert parse_helm_install("helm install --generate-name ./chart")["release"] == ""
    assert parse_helm_install("helm upgrade --help") is None
    assert parse_helm_install("helm repo add app https://example.org/charts") is None


def test_documented_installs_render_the_chart_once_per_release_with_their_values():
    from repomodeler.extract.helm_charts import install_values
    from repomodeler.extract.readers.helm_install import read_helm_installs

    readme = ("# App\n\n```bash\nhelm upgrade --install frontend \\\n  --set backend=http://backend-app:9898 \\\n"
              "  charts/app\nhelm upgrade --install backend --set cache.enabled=true \\\n"
              "  --set 'ingress.hosts[0].name=app.example.org' charts/app\n```\n\n"
              "Or from the registry:\n\n```\nhelm install app oci://ghcr.io/acme/charts/app\n```\n")
    installs = read_helm_installs("repo", "README.md", readme)
    assert [(f.get("release"), f.get("block"), f.line) for f in installs] == [
        ("frontend", "1", 4), ("backend", "1", 7), ("app", "2", 14)]
    values, _ = install_values(installs[1], "charts/app/", {})
    assert values == {"cache": {"enabled": True}, "ingress": {"hosts": [{"name": "app.example.org"}]}}
    chart = {"charts/app/Chart.yaml": "apiVersion: v2\nname: app\nversion: 1.0.0\n",
             "charts/app/values.yaml": "backend: ''\ncache:\n  enabled: false\n",
             "charts/app/templates/d.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n"
                                            "  name: {{ .Release.Name }}-app\nspec:\n  template:\n    spec:\n"
                                            "      containers:\n      - name: app\n        image: acme/app:1\n"
                                            "        env:\n        - name: BACKEND\n"
                                            "          value: {{ .Values.backend | quote }}\n",
             "charts/app/templates/cache.yaml": "{{- if .Values.cache.enabled }}\napiVersion: apps/v1\n"
                                                "kind: Deployment\nmetadata:\n  name: {{ .Release.Name }}-cache\n"
                                                "spec:\n  template:\n    spec:\n      containers:\n"
                                                "      - name: redis\n        image: redis:7\n{{- end }}\n"}
    facts, warnings = helm_chart_facts("repo", chart, installs)
    assert warnings == []
    assert sorted(f.get("name") for f in facts if f.kind == "k8s.workload") == [
        "backend-app", "backend-cache", "frontend-app"]
    assert [(f.get("owner"), f.get("value")) for f in facts if f.kind == "config.env" and f.get("value")] == [
        ("frontend-app", "http://backend-app:9898")]
    assert sorted((f.path, f.line, f.get("release")) for f in facts if f.kind == "helm.release") == [
        ("README.md", 4, "frontend"), ("README.md", 7, "backend")]


# --------------------------------------------------------------------------- a chart-only repository, end to end
API = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  template:
    metadata:
      labels:
        app: api
    spec:
      containers:
        - name: api
          image: "{{ .Values.image.repository }}:{{ default .Chart.AppVersion .Values.image.tag }}"
          env:
            - name: DATABASE_HOST
              value: {{ .Values.db.host }}
"""
POSTGRES = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: postgres
spec:
  template:
    metadata:
      labels:
        app: postgres
    spec:
      containers:
        - name: postgres
          image: postgres:16
          ports:
            - containerPort: 5432
---
apiVersion: v1
kind: Service
metadata:
  name: postgres
spec:
  selector:
    app: postgres
  ports:
    - port: 5432
"""


def test_a_repository_holding_only_a_chart_is_analysed_into_its_workloads(tmp_path: Path):
    make_repo(tmp_path / "shop", {
        "chart/Chart.yaml": "apiVersion: v2\nname: shop\nversion: 0.1.0\nappVersion: \"1.4.2\"\n",
        "chart/values.yaml": "image:\n  repository: acme/api\ndb:\n  host: postgres\n",
        "chart/templates/api.yaml": API,
        "chart/templates/postgres.yaml": POSTGRES,
    })
    out = tmp_path / "out"
    analyze([f"file://{tmp_path / 'shop'}"], AnalyzeOptions(out=out, name="sys"))
    model = top_level(json.loads((out / "model.json").read_text()))
    nodes = {n["id"]: n for n in model["nodes"]}
    assert {"api", "postgres"} <= set(nodes)
    assert {"repository": "shop", "path": "chart/templates/api.yaml", "line": 4} in nodes["api"]["evidence"]
    assert nodes["postgres"]["kind"] == "database"
    edge = next(e for e in model["edges"] if (e["source"], e["target"]) == ("api", "postgres"))
    assert {"repository": "shop", "path": "chart/templates/api.yaml",
            "line": line_of(API, "- name: DATABASE_HOST")} in edge["evidence"]  # where the env entry starts
    assert not [w for w in model["warnings"] if "templates" in w["path"]]


def test_a_stand_in_release_name_leaves_the_chart_as_it_is():
    """A chart's own README installs `my-release`: the user's name goes there, the deployment is not told."""
    from repomodeler.extract.readers.helm_install import read_helm_installs

    readme = "```console\n$ helm install my-release squidex\n```\n"
    installs = read_helm_installs("repo", "helm/squidex/README.md", readme)
    assert [f.get("release") for f in installs] == ["my-release"]
    chart = {"helm/squidex/Chart.yaml": "apiVersion: v2\nname: squidex\nversion: 1.0.0\n",
             "helm/squidex/templates/d.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n"
                                              "  name: {{ .Release.Name }}\nspec:\n  template:\n    spec:\n"
                                              "      containers:\n      - name: app\n        image: squidex/squidex:7\n"}
    facts, _ = helm_chart_facts("repo", chart, installs)
    assert [f.get("name") for f in facts if f.kind == "k8s.workload"] == ["squidex"]
    assert not [f for f in facts if f.kind == "helm.release"]
