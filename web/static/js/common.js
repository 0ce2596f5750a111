/* Shared helpers for the viewer. Everything that shows model data builds DOM nodes and sets
   textContent: repository-derived strings are never parsed as HTML. */
"use strict";
(function (global) {
  /** Create an element; `attrs` values are set as properties/attributes, children as text nodes. */
  function el(tag, attrs) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (key) {
        var value = attrs[key];
        if (value === undefined || value === null || value === false) return;
        if (key === "class") node.className = value;
        else if (key === "text") node.textContent = String(value);
        else if (key === "href") node.setAttribute("href", safeHref(value));
        else if (key.slice(0, 2) === "on") node.addEventListener(key.slice(2), value);
        else if (key === "dataset") Object.keys(value).forEach(function (d) { node.dataset[d] = String(value[d]); });
        else node.setAttribute(key, String(value));
      });
      // a link that only runs script is a button for the keyboard and for assistive technology
      if (tag === "a" && attrs.onclick && !attrs.href) {
        node.setAttribute("role", "button");
        node.tabIndex = 0;
        node.addEventListener("keydown", function (ev) {
          if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); node.click(); }
        });
      }
    }
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }
  function append(parent, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(parent, c); }); return; }
    parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  /** Only http(s), relative and blob links; anything else (javascript:, data:) becomes "#". */
  function safeHref(value) {
    var s = String(value);
    if (/^(https?:|blob:)/i.test(s)) return s;
    if (/^[a-z][a-z0-9+.-]*:/i.test(s)) return "#";
    return s;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  /* Components: a light fill with a strong border and dark text (readable at any zoom); `badge`
     is a dark shade that carries white text at >= 4.5:1. */
  var KINDS = {
    service:  { color: "#dbeafe", border: "#1d4ed8", badge: "#1d4ed8", shape: "round-rectangle", svg: "rect" },
    database: { color: "#d1fae5", border: "#047857", badge: "#047857", shape: "barrel", svg: "barrel" },
    cache:    { color: "#fef3c7", border: "#b45309", badge: "#b45309", shape: "round-diamond", svg: "diamond" },
    broker:   { color: "#ede9fe", border: "#6d28d9", badge: "#6d28d9", shape: "round-hexagon", svg: "hexagon" },
    gateway:  { color: "#cffafe", border: "#0e7490", badge: "#0e7490", shape: "round-pentagon", svg: "pentagon" },
    external: { color: "#f3f4f6", border: "#4b5563", badge: "#4b5563", shape: "round-octagon", svg: "octagon" },
    library:  { color: "#fef9c3", border: "#713f12", badge: "#713f12", shape: "round-tag", svg: "rect" },
    user:     { color: "#fce7f3", border: "#be185d", badge: "#be185d", shape: "ellipse", svg: "ellipse" },
    webapp:   { color: "#e0e7ff", border: "#4338ca", badge: "#4338ca", shape: "round-rectangle", svg: "rect" },
    subsystem: { color: "#f8fafc", border: "#475569", badge: "#475569", shape: "round-rectangle", svg: "rect" }
  };
  var OTHER_KIND = { color: "#f1f5f9", border: "#334155", badge: "#334155", shape: "round-rectangle", svg: "rect" };
  /* Connections: a colour AND a line pattern per protocol (`dash` in px, null = solid), so the
     protocol is told apart without colour vision too. */
  var PROTOCOLS = {
    http:          { color: "#1d4ed8", dash: null, name: "solid" },
    grpc:          { color: "#4338ca", dash: [10, 3, 2, 3], name: "dash-dot" },
    sql:           { color: "#047857", dash: [12, 4], name: "long dashes" },
    mongodb:       { color: "#15803d", dash: [5, 3], name: "short dashes" },
    redis:         { color: "#b45309", dash: [2, 3], name: "dots" },
    amqp:          { color: "#6d28d9", dash: [9, 3, 2, 3, 2, 3], name: "dash-dot-dot" },
    kafka:         { color: "#7e22ce", dash: [14, 3, 4, 3], name: "long-short" },
    nats:          { color: "#a21caf", dash: [3, 6], name: "sparse dots" },
    elasticsearch: { color: "#a16207", dash: [16, 5], name: "very long dashes" },
    tcp:           { color: "#475569", dash: [1, 5], name: "fine dots" },
    library:       { color: "#713f12", dash: [4, 4], name: "even dashes" },
    "import":      { color: "#0f766e", dash: [6, 2], name: "dense dashes" }
  };
  var OTHER_PROTOCOL = { color: "#64748b", dash: null, name: "solid" };

  /** A short SVG line drawn in a protocol's colour and pattern (legends, facets). */
  function protocolSwatch(protocol) {
    var st = protocolStyle(protocol), ns = "http://www.w3.org/2000/svg";
    var svg = document.createElementNS(ns, "svg");
    svg.setAttribute("class", "swatch-line"); svg.setAttribute("width", "30"); svg.setAttribute("height", "8");
    svg.setAttribute("viewBox", "0 0 30 8"); svg.setAttribute("aria-hidden", "true"); svg.setAttribute("focusable", "false");
    var line = document.createElementNS(ns, "line");
    line.setAttribute("x1", "0"); line.setAttribute("y1", "4"); line.setAttribute("x2", "30"); line.setAttribute("y2", "4");
    line.setAttribute("stroke", st.color); line.setAttribute("stroke-width", "2.5");
    if (st.dash) line.setAttribute("stroke-dasharray", st.dash.join(" "));
    svg.appendChild(line);
    return svg;
  }

  function kindStyle(kind) { return KINDS[kind] || OTHER_KIND; }
  function protocolStyle(protocol) { return PROTOCOLS[protocol] || OTHER_PROTOCOL; }

  /** Link to the file at a commit on a known forge, or null (self-hosted or unknown hosts). */
  function forgeUrl(repoUrl, commit, path, line) {
    if (!repoUrl || !commit || !path) return null;
    var m = /^https:\/\/(github\.com|gitlab\.com|bitbucket\.org)\/([^?#]+?)(?:\.git)?\/?$/i.exec(String(repoUrl));
    if (!m || !/^[0-9a-f]{7,64}$/i.test(commit)) return null;
    var host = m[1].toLowerCase();
    var base = "https://" + host + "/" + m[2].split("/").map(encodeURIComponent).join("/");
    var p = String(path).split("/").map(encodeURIComponent).join("/");
    var n = parseInt(line, 10) || 1;
    if (host === "github.com") return { url: base + "/blob/" + commit + "/" + p + "#L" + n, label: "GitHub" };
    if (host === "gitlab.com") return { url: base + "/-/blob/" + commit + "/" + p + "#L" + n, label: "GitLab" };
    return { url: base + "/src/" + commit + "/" + p + "#lines-" + n, label: "Bitbucket" };
  }

  /** Trigger a download of a Blob or string without inline handlers. */
  function download(filename, blobOrText, type) {
    var blob = blobOrText instanceof Blob ? blobOrText : new Blob([blobOrText], { type: type || "text/plain" });
    var url = URL.createObjectURL(blob);
    var a = el("a", { href: url, download: filename });
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(url); a.remove(); }, 1000);
  }

  global.RM = {
    el: el, clear: clear, KINDS: KINDS, PROTOCOLS: PROTOCOLS, kindStyle: kindStyle,
    protocolStyle: protocolStyle, protocolSwatch: protocolSwatch, forgeUrl: forgeUrl, download: download
  };
})(window);
