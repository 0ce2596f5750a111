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

  var KINDS = {
    service:  { color: "#3b82f6", border: "#1d4ed8", shape: "round-rectangle", svg: "rect" },
    database: { color: "#10b981", border: "#047857", shape: "barrel", svg: "barrel" },
    cache:    { color: "#f59e0b", border: "#b45309", shape: "round-diamond", svg: "diamond" },
    broker:   { color: "#8b5cf6", border: "#6d28d9", shape: "round-hexagon", svg: "hexagon" },
    gateway:  { color: "#06b6d4", border: "#0e7490", shape: "round-pentagon", svg: "pentagon" },
    external: { color: "#9ca3af", border: "#4b5563", shape: "round-octagon", svg: "octagon" },
    library:  { color: "#a16207", border: "#713f12", shape: "round-tag", svg: "rect" },
    user:     { color: "#ec4899", border: "#be185d", shape: "ellipse", svg: "ellipse" }
  };
  var OTHER_KIND = { color: "#64748b", border: "#334155", shape: "round-rectangle", svg: "rect" };
  var PROTOCOLS = {
    http:          { color: "#2563eb", style: "solid" },
    grpc:          { color: "#4f46e5", style: "solid" },
    sql:           { color: "#059669", style: "solid" },
    mongodb:       { color: "#16a34a", style: "dashed" },
    redis:         { color: "#d97706", style: "dashed" },
    amqp:          { color: "#7c3aed", style: "dashed" },
    kafka:         { color: "#9333ea", style: "dotted" },
    nats:          { color: "#c026d3", style: "dotted" },
    elasticsearch: { color: "#ca8a04", style: "solid" },
    tcp:           { color: "#64748b", style: "dotted" }
  };
  var OTHER_PROTOCOL = { color: "#94a3b8", style: "solid" };

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
    protocolStyle: protocolStyle, forgeUrl: forgeUrl, download: download
  };
})(window);
