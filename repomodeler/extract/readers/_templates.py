"""Text templates (Jinja, Handlebars, Go templates, ERB and Elixir's EEx) read as the file they render, without rendering them.

An installer that writes ``docker-compose.yml`` from ``docker-compose.yml.jinja`` (Harbor's prepare
step, an Ansible role's ``templates/``, Bitwarden's ``DockerCompose.hbs``, a gomplate or dockerize
``docker-compose.tmpl.yml``, Shopify krane's ERB Kubernetes manifests ``web.yaml.erb``) keeps the system's real
deployment in a template.  No template engine runs here (that would be running repository code and
needs the installer's values), so the template is read as its text with the directives taken out:

- a line holding only block directives (``{% if x %}``, ``{{#if x}}``, ``{{/if}}``, ``{% endfor %}``, ERB's
  ``<% if x %>``, ``<% items.each do |i| %>``, ``<% end %>``)
  becomes an empty line, so every other line keeps its number;
- of ``if ... else ... endif`` the first branch is read (what the template writes when its switch is
  on), the ``else``/``elif`` branches are blanked; a loop's body is read once; the body of a named
  template or macro (``{{- define "service" -}}``, ``{% macro %}``) is blanked, as it renders only where called;
- ``{{ value }}`` (and ``{{{ value }}}``, ERB's ``<%= value %>``) becomes ``x``: a value only the installer knows; a line that
  is nothing but one expression (an include, a plugin's patch point) becomes an empty line.

What stays is meant for readers that tolerate placeholders (an image ``goharbor/harbor-core:x``).
"""

from __future__ import annotations

import re

# The file suffixes of the template languages above (``.jinja``, ``.j2``, ``.hbs``...), as a pattern.
TEMPLATE_SUFFIX = r"(?:jinja2?|j2|tmpl|tpl|hbs|mustache|erb|eex)"

# (Go templates, as gomplate and dockerize render them: ``{{ if .Env.X }}``, ``{{ else }}``, ``{{ end }}``,
# ``{{- range ... -}}``; a line holding only a variable assignment ``{{ $tls := ... }}`` is a directive too)
_GO_WORDS = r"if|range|with|block|define|else|end"
_BLOCK = re.compile(r"^\s*(?:\{%-?\s*(\w+)[^%]*-?%\}|\{\{~?\s*([#/^]|else\b)\s*(\w*)[^}]*~?\}\}"
                    r"|\{\{-?\s*(" + _GO_WORDS + r")\b[^}]*\}\}|\{\{-?\s*\$\w+\s*:?=[^}]*\}\})\s*$")
_INLINE_BLOCK = re.compile(r"\{%-?.*?-?%\}|\{\{~?\s*[#/^].*?\}\}|\{\{~?\s*else\s*~?\}\}"
                           r"|\{\{-?\s*(?:" + _GO_WORDS + r")\b.*?\}\}")
_VALUE = re.compile(r"\{\{\{.*?\}\}\}|\{\{.*?\}\}|<%=.*?-?%>")
_COMMENT = re.compile(r"\{#.*?#\}|\{\{!.*?\}\}|\{\{-?\s*/\*.*?\*/\s*-?\}\}|<%#.*?%>")
# ERB: a line holding only Ruby code (`<% if environment == 'staging' %>`, `<% end %>`), and such code inline
_ERB_LINE = re.compile(r"^\s*<%-?(?![=#])\s*(.*?)\s*-?%>\s*$")
_ERB_INLINE = re.compile(r"<%-?(?![=#]).*?-?%>")
_ERB_OPENER = re.compile(r"^(if|unless|case|while|until|for|begin)\b|\bdo(\s*\|[^|]*\|)?$")
OPENERS = frozenset({"if", "for", "with", "unless", "each", "block", "macro", "raw", "range", "define"})
ALTERNATIVES = frozenset({"else", "elif", "elseif"})


def strip_template(text: str) -> str:
    """`text` with template directives taken out as described above, line for line."""
    out: list[str] = []
    skipping: list[bool] = []  # per open block: is this branch blanked?
    for line in text.split("\n"):
        line = _COMMENT.sub("", line)
        m = _BLOCK.match(line)
        erb = None if m else _ERB_LINE.match(line)
        if m or erb:
            if erb:  # (ERB's blocks: `if`/`unless`/`... do |x|` open, `else`/`elsif`/`when` switch, `end` closes)
                code = erb.group(1)
                first = (code.split() or [""])[0].lower()
                word = "if" if _ERB_OPENER.search(code) else \
                    {"end": "end", "else": "else", "elsif": "else", "when": "else"}.get(first, "")
                sigil = None
            else:
                word = (m.group(1) or m.group(4) or "").lower()
                sigil = m.group(2)
            if sigil == "#" or sigil == "^" or word in OPENERS:
                # (a named template's or macro's body renders only where it is called: nothing here)
                skipping.append(bool(skipping and skipping[-1]) or word in ("define", "macro"))
            elif sigil == "/" or word.startswith("end"):
                if skipping:
                    skipping.pop()
            elif sigil == "else" or word in ALTERNATIVES:
                if skipping:
                    skipping[-1] = True
            out.append("")
            continue
        if skipping and skipping[-1]:
            out.append("")
            continue
        line = _ERB_INLINE.sub("", _INLINE_BLOCK.sub("", line))
        if _VALUE.fullmatch(line.strip()):
            out.append("")  # a line that is one expression (`{{ patch("compose-services")|indent(2) }}`) pastes in
            continue        # text the installer keeps elsewhere: nothing of this file
        out.append(_VALUE.sub("x", line))
    return "\n".join(out)


def holds_directives(text: str) -> bool:
    """Does `text` hold a template's block directives (a line of `{% if %}`, `{{ end }}`, `{{#if}}`, or one
    inline)?  A file failing to parse as YAML that does is read as the template it is."""
    return any(_BLOCK.match(line) or _INLINE_BLOCK.search(line) or _ERB_INLINE.search(line) for line in text.split("\n"))
