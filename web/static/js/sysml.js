/* A small SysML v2 tokenizer and renderer. Tokens become <span> elements with textContent, so
   names or strings in the model text can never inject markup. It also indexes declarations so
   the graph and the text can point at each other. */
"use strict";
(function (global) {
  var KEYWORDS = ("about abstract accept action actor after alias all allocate allocation analysis and as assert assign " +
    "assume attribute bind binding by calc case comment concern connect connection constraint decide def default " +
    "defined dependency derived do doc else end entry enum event exhibit exit expose filter first flow for fork " +
    "frame from hastype if implies import in include individual inout interface istype item join language library " +
    "locale loop merge message meta metadata nonunique not objective occurrence of or ordered out package parallel " +
    "part perform port private protected public redefines ref references render rendering rep require requirement " +
    "return satisfy send snapshot specializes stakeholder standard state subject subsets succession then timeslice " +
    "to transition until use variant variation verification verify via view viewpoint when while xor true false null").split(" ");
  var KW = Object.create(null);
  KEYWORDS.forEach(function (k) { KW[k] = true; });

  /** Tokenize one line; `state.inComment` carries block comments across lines. */
  function tokenizeLine(line, state) {
    var out = [], i = 0, n = line.length;
    function push(type, text) { if (text) out.push({ type: type, text: text }); }
    while (i < n) {
      if (state.inComment) {
        var end = line.indexOf("*/", i);
        if (end < 0) { push("com", line.slice(i)); return out; }
        push("com", line.slice(i, end + 2)); i = end + 2; state.inComment = false; continue;
      }
      var ch = line[i], rest = line.slice(i);
      var m;
      if (rest.slice(0, 2) === "//") { push("com", rest); break; }
      if (rest.slice(0, 2) === "/*") { state.inComment = true; continue; }
      if (ch === '"' || ch === "'") {
        var j = i + 1;
        while (j < n && line[j] !== ch) j += line[j] === "\\" ? 2 : 1;
        push(ch === '"' ? "str" : "name", line.slice(i, Math.min(j + 1, n))); i = Math.min(j + 1, n); continue;
      }
      if ((m = /^@[A-Za-z_][\w:]*/.exec(rest)) || (m = /^#[A-Za-z_][\w]*/.exec(rest))) { push("meta", m[0]); i += m[0].length; continue; }
      if ((m = /^[A-Za-z_][\w]*/.exec(rest))) { push(KW[m[0]] ? "kw" : "id", m[0]); i += m[0].length; continue; }
      if ((m = /^\d+(\.\d+)?/.exec(rest))) { push("num", m[0]); i += m[0].length; continue; }
      if ((m = /^\s+/.exec(rest))) { push("ws", m[0]); i += m[0].length; continue; }
      push("punct", ch); i++;
    }
    return out;
  }

  // `part <'api.stripe.com'> api_stripe_com`: the short name (emitted models keep ids there) names the declaration
  var DECL = /^\s*(?:(?:abstract|individual|variation|ref|public|private|protected)\s+)*(part|connection|interface|item|port|attribute|action|flow|message|allocation|occurrence)\s+(?!def\b)(?:<('(?:[^'\\]|\\.)*'|[A-Za-z_][\w]*)>\s*)?('(?:[^'\\]|\\.)*'|[A-Za-z_][\w]*)/;

  function unquote(name) {
    if (name.length >= 2 && name[0] === "'" && name[name.length - 1] === "'") {
      return name.slice(1, -1).replace(/\\(.)/g, "$1");
    }
    return name;
  }

  /** Parse the whole text: per-line tokens, declarations by kind/name, and block extents. */
  function analyse(text) {
    var lines = String(text || "").split(/\r?\n/);
    var state = { inComment: false };
    var tokens = [], decls = { part: Object.create(null), connection: Object.create(null), interface: Object.create(null), other: Object.create(null) };
    var lineDecl = [];
    for (var i = 0; i < lines.length; i++) {
      var wasComment = state.inComment;
      tokens.push(tokenizeLine(lines[i], state));
      var m = !wasComment && DECL.exec(lines[i]);
      if (m) {
        var kind = decls[m[1]] ? m[1] : "other";
        var name = unquote(m[2] || m[3]);
        if (!(name in decls[kind])) decls[kind][name] = i + 1;
        lineDecl[i + 1] = { kind: m[1], name: name };
      }
    }
    return { lines: lines, tokens: tokens, decls: decls, lineDecl: lineDecl };
  }

  /** Last line of the `{ ... }` block opened on (or right after) `start`, by brace counting. */
  function blockEnd(parsed, start) {
    var depth = 0, opened = false;
    for (var i = start - 1; i < parsed.tokens.length && i < start + 20000; i++) {
      var toks = parsed.tokens[i];
      for (var k = 0; k < toks.length; k++) {
        if (toks[k].type !== "punct") continue;
        if (toks[k].text === "{") { depth++; opened = true; }
        else if (toks[k].text === "}") { depth--; if (opened && depth <= 0) return i + 1; }
        else if (toks[k].text === ";" && !opened) return i + 1;
      }
    }
    return start;
  }

  /** Render into `container`: one div per line, spans per token (textContent only). */
  function render(container, parsed) {
    while (container.firstChild) container.removeChild(container.firstChild);
    var frag = document.createDocumentFragment();
    for (var i = 0; i < parsed.lines.length; i++) {
      var row = document.createElement("div");
      row.className = parsed.lineDecl[i + 1] ? "line decl" : "line";
      row.dataset.line = String(i + 1);
      var ln = document.createElement("span");
      ln.className = "ln"; ln.textContent = String(i + 1);
      row.appendChild(ln);
      var code = document.createElement("span");
      code.className = "code";
      var toks = parsed.tokens[i];
      for (var k = 0; k < toks.length; k++) {
        var t = toks[k];
        if (t.type === "ws" || t.type === "id") { code.appendChild(document.createTextNode(t.text)); continue; }
        var span = document.createElement("span");
        span.className = "tok-" + t.type;
        span.textContent = t.text;
        code.appendChild(span);
      }
      if (!toks.length) code.textContent = " ";
      row.appendChild(code);
      frag.appendChild(row);
    }
    container.appendChild(frag);
  }

  global.SysML = { tokenizeLine: tokenizeLine, analyse: analyse, render: render, blockEnd: blockEnd, unquote: unquote };
})(window);
