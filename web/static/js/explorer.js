/* The model explorer: graph (Cytoscape), filters, focus, details with evidence snippets, SysML
   view, export, and URL state. Data comes from the JSON API (server) or from
   window.__MODEL__ (published static site). Model strings only ever reach the DOM through
   textContent (RM.el) or Cytoscape's canvas labels. */
"use strict";
(function () {
  var RM = window.RM, el = RM.el, clear = RM.clear;
  var root = document.getElementById("explorer");
  var MODE = root.dataset.mode, API = root.dataset.api, FILES = root.dataset.files;
  var BIG = 300;            // above this many components, skip dagre and use the linear block layout
  var RELAYOUT_MAX = 150;   // filter changes re-run the layout up to this many visible components
  var COLLAPSE_ABOVE = 5000; // above this many components, start with repositories collapsed
  var SNIPPETS_AUTO = 5;    // evidence snippets loaded without a click
  var t0 = performance.now();
  var timings = (window.__timings = { ready: false });
  var statusEl = document.getElementById("status");

  var model, sysmlText, run, staticSnippets = null, staticCompare = null;
  var nodesById = new Map(), edgesById = new Map(), repoInfo = new Map();
  var nodeText = new Map(), edgeText = new Map();
  var facets = { kind: new Map(), protocol: new Map(), repository: new Map(), language: new Map() };
  var state = { q: "", xk: new Set(), xp: new Set(), xr: new Set(), xl: new Set(), focus: null, hops: 2, dir: "both", sel: null, tab: "graph", collapsed: new Set(), cmp: null, labels: false, view: "components" };
  var cy = null, sysml = null, sysmlRendered = false, visibleNodes = new Set(), big = false;
  // comparison: the candidates offered, the overlay shown, and what it adds to the graph
  var candidates = [], overlay = null, overlayFor = null, overlayRequest = 0;
  var ghostNodes = new Map(), ghostEdges = new Map(), connectionChange = new Map();
  // the ports view: ports per component and the port each connection reaches (computed once)
  var portIndex = null;
  function ports() { return portIndex || (portIndex = PortsView.index(nodesById, edgesById)); }
  function portsView() { return state.view === "ports"; }

  function arr(v) { return Array.isArray(v) ? v : []; }
  function str(v) { return v === null || v === undefined ? "" : String(v); }
  function setStatus(text) { statusEl.textContent = text; }

  // ------------------------------------------------------------------ loading
  function load() {
    if (MODE === "static") {
      var data = window.__MODEL__ || {};
      staticSnippets = data.snippets || {};
      staticCompare = data.compare || { candidates: [], overlays: {} };
      return Promise.resolve([data.model || {}, data.sysml || "", data.run || {}, arr(staticCompare.candidates)]);
    }
    return Promise.all([
      fetch(API).then(function (r) { if (!r.ok) throw new Error("model " + r.status); return r.json(); }),
      fetch(API + "/sysml").then(function (r) { return r.ok ? r.text() : ""; }),
      // comparisons are optional: a failing listing only leaves the select empty
      fetch(API + "/compare-candidates").then(function (r) { return r.ok ? r.json() : []; }).catch(function () { return []; })
    ]).then(function (res) { return [res[0], res[1], {}, arr(res[2])]; });
  }

  /** The overlay for candidate `id`: from the API, or precomputed in the published data file. */
  function fetchOverlay(id) {
    if (MODE === "static") {
      var ov = staticCompare && staticCompare.overlays ? staticCompare.overlays[id] : null;
      return ov ? Promise.resolve(ov) : Promise.reject(new Error("not included in this published site"));
    }
    return fetch(API + "/overlay?" + new URLSearchParams({ against: id }).toString()).then(function (r) {
      if (!r.ok) return r.json().catch(function () { return {}; }).then(function (body) { throw new Error(str(body.detail) || ("HTTP " + r.status)); });
      return r.json();
    });
  }

  function bump(map, key) { map.set(key, (map.get(key) || 0) + 1); }

  function index() {
    arr(model.repositories).forEach(function (r) { if (r && r.name !== undefined) repoInfo.set(str(r.name), r); });
    arr(model.nodes).forEach(function (n) {
      if (!n || n.id === undefined) return;
      var id = str(n.id);
      nodesById.set(id, n);
      var repo = str(n.repository);
      if (repo && !repoInfo.has(repo)) repoInfo.set(repo, { name: repo });
      bump(facets.kind, str(n.kind) || "(none)");
      bump(facets.repository, repo || "(none)");
      bump(facets.language, str(n.language) || "(none)");
      var parts = [n.name, n.id, n.kind];
      Object.keys(n.attributes || {}).forEach(function (k) { parts.push(n.attributes[k]); });
      arr(n.evidence).forEach(function (e) { parts.push(e && e.path); });
      arr(n.ports).forEach(function (p) {
        parts.push(p && p.name);
        arr(p && p.endpoints).forEach(function (ep) {
          parts.push(ep && ep.path, ep && ep.method);
          arr(ep && ep.evidence).forEach(function (e) { parts.push(e && e.path); });
        });
      });
      nodeText.set(id, parts.map(str).join("\n").toLowerCase());
    });
    arr(model.edges).forEach(function (e) {
      if (!e || e.id === undefined) return;
      if (!nodesById.has(str(e.source)) || !nodesById.has(str(e.target))) return;
      edgesById.set(str(e.id), e);
      bump(facets.protocol, str(e.protocol) || "(none)");
      var parts = [e.id, e.protocol, e.kind];
      Object.keys(e.attributes || {}).forEach(function (k) { parts.push(e.attributes[k]); });
      arr(e.evidence).forEach(function (ev) { parts.push(ev && ev.path); });
      edgeText.set(str(e.id), parts.map(str).join("\n").toLowerCase());
    });
  }

  // ------------------------------------------------------------------ URL state
  function readHash() {
    var p = new URLSearchParams(location.hash.replace(/^#/, ""));
    function set(key) { return new Set((p.get(key) || "").split(",").filter(Boolean).map(decodeURIComponent)); }
    state.q = p.get("q") || "";
    state.xk = set("xk"); state.xp = set("xp"); state.xr = set("xr"); state.xl = set("xl");
    state.focus = p.get("focus") || null;
    state.hops = Math.max(1, Math.min(5, parseInt(p.get("hops") || "2", 10) || 2));
    state.dir = ["both", "up", "down"].indexOf(p.get("dir")) >= 0 ? p.get("dir") : "both";
    state.sel = p.get("sel") || null;
    state.tab = ["sysml", "list"].indexOf(p.get("tab")) >= 0 ? p.get("tab") : "graph";
    state.labels = p.get("labels") === "1";
    state.view = p.get("view") === "ports" ? "ports" : "components";
    state.collapsed = p.has("collapsed") ? set("collapsed") : null;
    state.cmp = p.get("cmp") || null;
  }
  function writeHash() {
    var p = new URLSearchParams();
    function put(key, s) { if (s.size) p.set(key, Array.from(s).map(encodeURIComponent).join(",")); }
    if (state.q) p.set("q", state.q);
    put("xk", state.xk); put("xp", state.xp); put("xr", state.xr); put("xl", state.xl);
    if (state.focus) { p.set("focus", state.focus); p.set("hops", String(state.hops)); p.set("dir", state.dir); }
    if (state.sel) p.set("sel", state.sel);
    if (state.tab !== "graph") p.set("tab", state.tab);
    if (state.labels) p.set("labels", "1");
    if (state.view === "ports") p.set("view", "ports");
    if (state.collapsed.size) p.set("collapsed", Array.from(state.collapsed).map(encodeURIComponent).join(","));
    if (state.cmp) p.set("cmp", state.cmp);
    var hash = p.toString();
    history.replaceState(null, "", hash ? "#" + hash : location.pathname + location.search);
  }

  // ------------------------------------------------------------------ graph
  var LABEL_FONT = 14, LABEL_MAX = 176, NODE_MIN_W = 84, NODE_PAD_X = 24, LINE_H = 17;
  function cyStyle(big) {
    var style = [
      { selector: "node", style: {
        "label": "data(label)", "font-family": labelFont(), "font-size": LABEL_FONT, "font-weight": 600, "color": "#0f172a", "text-valign": "center", "text-halign": "center",
        "text-wrap": "wrap", "text-max-width": 1000, "line-height": 1.2, "width": 132, "height": 38, "border-width": 2,
        "background-color": "#f1f5f9", "border-color": "#334155", "shape": "round-rectangle",
        "min-zoomed-font-size": big ? 7 : 0 } },
      { selector: "node[w]", style: { "width": "data(w)", "height": "data(h)" } },
      { selector: "node[type = 'repo']", style: {
        "shape": "round-rectangle", "background-color": "#eef2f8", "background-opacity": 0.9, "border-color": "#94a3b8",
        "border-width": 1.5, "label": "data(label)", "color": "#1e293b", "font-weight": "bold",
        "text-valign": "top", "text-halign": "center", "text-margin-y": -4, "padding": 18, "text-max-width": big ? 1200 : 600,
        "font-size": big ? 44 : LABEL_FONT } },
      { selector: "node.collapsed", style: {
        "width": 190, "height": 58, "text-valign": "center", "text-margin-y": 0, "border-width": 2.5,
        "border-color": "#475569", "background-color": "#e2e8f0", "text-wrap": "wrap" } },
      { selector: "edge", style: {
        "width": 2, "curve-style": big ? "haystack" : "bezier", "target-arrow-shape": big ? "none" : "triangle", "arrow-scale": 1.1,
        "line-color": "#94a3b8", "target-arrow-color": "#94a3b8", "opacity": 0.95 } },
      { selector: "edge[label]", style: { "label": "data(label)", "font-size": 12, "color": "#334155",
        "text-background-color": "#fff", "text-background-opacity": 0.9, "text-background-padding": 2 } },
      { selector: "edge[kind = 'depends_on']", style: { "line-style": "dashed", "line-dash-pattern": [4, 4] } },
      { selector: ".hidden", style: { "display": "none" } },
      { selector: "node.focus-root", style: { "border-width": 4, "border-color": "#111827" } }
    ];
    if (state.labels) {
      // the optional protocol label on every connection (aggregates keep their "×N")
      style.splice(style.length - 2, 0, { selector: "edge[plabel]", style: { "label": "data(plabel)", "font-size": 12, "color": "#334155",
        "text-background-color": "#fff", "text-background-opacity": 0.9, "text-background-padding": 2, "text-rotation": "autorotate" } });
    }
    Object.keys(RM.KINDS).forEach(function (k) {
      var s = RM.KINDS[k];
      style.splice(3, 0, { selector: "node[kind = '" + k + "']", style: { "background-color": s.color, "border-color": s.border, "shape": s.shape } });
    });
    Object.keys(RM.PROTOCOLS).forEach(function (p) {
      var s = RM.PROTOCOLS[p];
      var look = { "line-color": s.color, "target-arrow-color": s.color, "line-style": s.dash ? "dashed" : "solid" };
      if (s.dash) look["line-dash-pattern"] = s.dash;
      style.splice(style.length - 3, 0, { selector: "edge[protocol = '" + p + "']", style: look });
    });
    // comparison colours after kinds and protocols (they win), selection last
    if (portsView()) style = style.concat(PortsView.styles());
    return style.concat(Compare.styles(), Compare.selectionStyles(!!overlay));
  }

  /** A component's label as lines that fit LABEL_MAX px (breaking after - _ . / : or spaces,
      hard-breaking only a segment wider than a line), and the node size that holds them. */
  var measureCtx = null, labelCache = new Map(), fontFamily = null;
  /** The page's font: labels are measured and drawn with the same one. */
  function labelFont() { return fontFamily || (fontFamily = getComputedStyle(document.body).fontFamily || "sans-serif"); }
  function labelBox(text) {
    if (labelCache.has(text)) return labelCache.get(text);
    if (!measureCtx) {
      measureCtx = document.createElement("canvas").getContext("2d");
      measureCtx.font = "600 " + LABEL_FONT + "px " + labelFont();
    }
    var width = function (t) { return measureCtx.measureText(t).width; };
    var parts = text.match(/[^\s\-_.\/:]*[\s\-_.\/:]*/g).filter(Boolean), lines = [], cur = "";
    parts.forEach(function (part) {
      if (cur && width(cur + part) > LABEL_MAX) { lines.push(cur.trim()); cur = ""; }
      while (width(part) > LABEL_MAX) { // one segment wider than a line: cut it by characters
        var n = part.length;
        while (n > 1 && width(part.slice(0, n)) > LABEL_MAX) n--;
        lines.push(part.slice(0, n)); part = part.slice(n);
      }
      cur += part;
    });
    if (cur.trim() || !lines.length) lines.push(cur.trim());
    var w = 0;
    lines.forEach(function (l) { w = Math.max(w, width(l)); });
    var box = { label: lines.join("\n"), w: Math.max(NODE_MIN_W, Math.ceil(w) + NODE_PAD_X), h: 22 + lines.length * LINE_H };
    labelCache.set(text, box);
    return box;
  }

  function repOf(nodeId) {
    var n = nodesById.get(nodeId);
    if (!n) return "n:" + nodeId; // a ghost: only in the comparison, never inside a repository box
    var repo = str(n.repository);
    return repo && state.collapsed.has(repo) ? "r:" + repo : "n:" + nodeId;
  }

  function buildElements() {
    var els = [], counts = new Map();
    nodesById.forEach(function (n) { bump(counts, str(n.repository)); });
    repoInfo.forEach(function (r, name) {
      if (!name || !counts.get(name)) return;
      var collapsed = state.collapsed.has(name);
      els.push({ group: "nodes", data: { id: "r:" + name, type: "repo", repository: name,
        label: collapsed ? name + "\n(" + counts.get(name) + " components)" : name }, classes: collapsed ? "collapsed" : "" });
    });
    var withPorts = portsView(), pi = withPorts ? ports() : null;
    nodesById.forEach(function (n, id) {
      var repo = str(n.repository);
      if (repo && state.collapsed.has(repo)) return;
      var box = labelBox(str(n.name || id)), label = box.label, cls = ovClass(overlay && overlay.nodes, id);
      if (withPorts) { // a SysML part: "name : Kind", sized for its ports
        var list = pi.ports.get(id) || [];
        label += "\n: " + PortsView.kindDef(str(n.kind));
        box = PortsView.partSize(box, list.length);
        cls = (cls + " part").trim();
        list.forEach(function (port, order) {
          els.push({ group: "nodes", grabbable: false, classes: port.implied ? "implied" : "", data: { id: port.key, type: "port", part: "n:" + id, parent: repo ? "r:" + repo : undefined,
            label: PortsView.portLabel(port), name: port.name, protocol: port.protocol, color: RM.protocolStyle(port.protocol).color, order: order, side: "left", mid: id } });
        });
      }
      els.push({ group: "nodes", data: { id: "n:" + id, parent: repo ? "r:" + repo : undefined, type: "node", label: label, name: str(n.name || id), w: box.w, h: box.h, kind: str(n.kind), repository: repo, language: str(n.language), mid: id }, classes: cls });
    });
    ghostNodes.forEach(function (g, id) {
      var box = labelBox(id);
      els.push({ group: "nodes", data: { id: "n:" + id, type: "node", ghost: true, label: box.label, name: id, w: box.w, h: box.h, kind: str(g.kind), repository: "", language: "", mid: id }, classes: "ghost ov-added" });
    });
    var agg = new Map();
    edgesById.forEach(function (e, id) {
      var s = repOf(str(e.source)), t = repOf(str(e.target));
      if (s[0] === "n" && t[0] === "n") {
        var port = withPorts ? pi.edgePort.get(id) : "";
        var d = { id: "e:" + id, source: s, target: port || t, type: "edge", protocol: str(e.protocol), plabel: str(e.protocol) || undefined, kind: str(e.kind), mid: id };
        var ch = connectionChange.get(id);
        if (ch && ch.status === "changed") d.label = d.plabel = Compare.fieldLabel(ch);
        els.push({ group: "edges", data: d, classes: ovClass(overlay && overlay.edges, id) });
        // the layout places parts, so it gets the part-to-part link (never drawn)
        if (port) els.push({ group: "edges", data: { id: "l:" + id, source: s, target: t, type: "lay", mid: id } });
        return;
      }
      if (s === t) return; // traffic inside a collapsed repository
      var key = s + "\u0000" + t + "\u0000" + str(e.protocol);
      if (!agg.has(key)) agg.set(key, { group: "edges", data: { id: "a:" + key, source: s, target: t, type: "agg", protocol: str(e.protocol), plabel: str(e.protocol) || undefined, kind: str(e.kind), members: [] } });
      agg.get(key).data.members.push(id);
    });
    agg.forEach(function (a) {
      a.data.label = a.data.members.length > 1 ? "×" + a.data.members.length : undefined;
      if (a.data.label && a.data.plabel) a.data.plabel += " " + a.data.label;
      if (!a.data.label) delete a.data.label;
      if (overlay) {
        var status = Compare.aggregateStatus(a.data.members.map(function (m) { return overlay.edges[m]; }));
        if (status) a.classes = "ov-" + status;
      }
      els.push(a);
    });
    ghostEdges.forEach(function (g, id) {
      var s = repOf(g.source), t = repOf(g.target);
      if (s === t) return;
      els.push({ group: "edges", data: { id: "e:" + id, source: s, target: t, type: "edge", ghost: true, protocol: g.protocol, kind: "", label: g.protocol, mid: id }, classes: "ghost ov-added" });
    });
    return els;
  }

  function ovClass(statuses, id) {
    var s = statuses ? statuses[id] : null;
    return Compare.STATUSES.indexOf(s) >= 0 ? "ov-" + s : "";
  }

  function rebuild(runLayout) {
    var tb = performance.now();
    cy.batch(function () {
      cy.elements().remove();
      cy.add(buildElements());
    });
    timings.build_ms = Math.round(performance.now() - tb);
    applyFilters(false);
    if (runLayout !== false) layout();
    restoreSelection();
  }

  /** Linear-time layout for big graphs: each repository is a block; inside it, nodes are
      placed in columns by their depth along calls within the repository; blocks are packed in
      rows whose width is chosen so the whole picture roughly matches the viewport's shape. */
  function blockLayout(nodes) {
    var byRepo = new Map();
    nodes.forEach(function (n) {
      var repo = n.isParent() ? null : (n.data("type") === "repo" ? n.id() : (n.data("parent") || "(none)"));
      if (!repo) return;
      if (!byRepo.has(repo)) byRepo.set(repo, []);
      byRepo.get(repo).push(n);
    });
    var dx = 160, dy = 56, gapX = 120, gapY = 110, blocks = [], area = 0;
    // callee adjacency from the model itself (plain Maps: much cheaper than collection traversal)
    var out = new Map();
    edgesById.forEach(function (e) {
      var s = "n:" + str(e.source), t = "n:" + str(e.target);
      if (s === t) return;
      if (!out.has(s)) out.set(s, []);
      out.get(s).push(t);
    });
    byRepo.forEach(function (nodesOfRepo) {
      var members = nodesOfRepo.map(function (n) { return { id: n.id(), kind: str(n.data("kind")), label: str(n.data("label")) }; });
      var depth = new Map();
      members.forEach(function (m) { depth.set(m.id, 0); });
      // a few relaxation passes of "callee is one column right of caller" (bounded, so O(E))
      for (var pass = 0; pass < 3; pass++) {
        members.forEach(function (m) {
          (out.get(m.id) || []).forEach(function (t) {
            if (depth.has(t)) depth.set(t, Math.max(depth.get(t), Math.min(depth.get(m.id) + 1, 6)));
          });
        });
      }
      var cols = [];
      members.forEach(function (m) { var d = depth.get(m.id); (cols[d] = cols[d] || []).push(m); });
      var colsOut = [], perCol = Math.max(6, Math.ceil(Math.sqrt(members.length * 1.5)));
      cols.forEach(function (col) {
        if (!col) return;
        col.sort(function (a, b) { return a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : (a.label < b.label ? -1 : a.label > b.label ? 1 : 0); });
        for (var i = 0; i < col.length; i += perCol) colsOut.push(col.slice(i, i + perCol));
      });
      var w = colsOut.length * dx, h = 0;
      colsOut.forEach(function (c) { h = Math.max(h, c.length * dy); });
      blocks.push({ cols: colsOut, w: w, h: h });
      area += (w + gapX) * (h + gapY);
    });
    var box = document.getElementById("cy").getBoundingClientRect();
    var aspect = box.height > 0 ? box.width / box.height : 1.4;
    var maxW = Math.max(dx * 4, Math.sqrt(area * aspect));
    var positions = {}, x = 0, y = 0, rowH = 0;
    blocks.forEach(function (b) {
      if (x > 0 && x + b.w > maxW) { x = 0; y += rowH + gapY; rowH = 0; }
      b.cols.forEach(function (c, ci) { c.forEach(function (m, ri) { positions[m.id] = { x: x + ci * dx, y: y + ri * dy }; }); });
      x += b.w + gapX; rowH = Math.max(rowH, b.h);
    });
    return positions;
  }

  /** What the layout places: the visible parts and repositories and the links between them; in
      the ports view the ports follow their part (PortsView.place) and the layout gets the hidden
      part-to-part links instead of the links that end on ports. */
  function layoutTargets() {
    var vis = cy.elements(":visible");
    if (!portsView()) return vis;
    return vis.filter(function (x) { return x.data("type") !== "port" && !(x.isEdge() && x.target().data("type") === "port"); })
      .union(cy.edges("[type = 'lay']").filter(function (e) { return !e.hasClass("hidden") && e.source().visible() && e.target().visible(); }));
  }

  function layout() {
    var tl = performance.now();
    var targets = layoutTargets();
    var leafCount = targets.nodes().filter(function (n) { return !n.isParent(); }).length;
    var name;
    if (leafCount > BIG) {
      var positions = blockLayout(targets.nodes());
      timings.layout_compute_ms = Math.round(performance.now() - tl);
      cy.batch(function () {
        targets.nodes().forEach(function (n) { var p = positions[n.id()]; if (p) n.position(p); });
      });
      if (portsView()) PortsView.place(cy, "left");
      fitGraph();
      name = "blocks";
    } else {
      // left-to-right and top-to-bottom: keep the one the canvas shows at the larger zoom
      var best = null;
      ["LR", "TB"].forEach(function (dir) {
        targets.layout({ name: "dagre", rankDir: dir, nodeSep: dir === "LR" ? 24 : 30, rankSep: dir === "LR" ? 70 : 56, edgeSep: 10, fit: false, animate: false, nodeDimensionsIncludeLabels: false }).run();
        var z = fitZoom(targets), pos = {};
        if (!best || z > best.zoom * 1.05) {
          targets.nodes().forEach(function (n) { if (!n.isParent()) pos[n.id()] = { x: n.position("x"), y: n.position("y") }; });
          best = { zoom: z, dir: dir, pos: pos };
        }
      });
      if (best.dir !== "TB") cy.batch(function () { targets.nodes().forEach(function (n) { var q = best.pos[n.id()]; if (q) n.position(q); }); });
      if (portsView()) PortsView.place(cy, best.dir === "TB" ? "top" : "left");
      fitGraph();
      name = "dagre";
      timings.rank_dir = best.dir;
    }
    timings.layout = name;
    timings.layout_ms = Math.round(performance.now() - tl);
  }

  var FIT_PAD = 24, MAX_FIT_ZOOM = 1.3;
  /** The zoom at which `eles` would fill the canvas (what cy.fit would choose, capped). */
  function fitZoom(eles) {
    var bb = eles.boundingBox(), w = cy.width() - 2 * FIT_PAD, h = cy.height() - 2 * FIT_PAD;
    if (!(bb.w > 0 && bb.h > 0 && w > 0 && h > 0)) return 1;
    return Math.min(MAX_FIT_ZOOM, w / bb.w, h / bb.h);
  }
  /** Fit `eles` into the canvas; a handful of nodes is not blown up past MAX_FIT_ZOOM. */
  function fitGraph(eles) {
    eles = eles || cy.elements(":visible");
    if (!eles.length) return;
    cy.fit(eles, FIT_PAD);
    if (cy.zoom() > MAX_FIT_ZOOM) { cy.zoom(MAX_FIT_ZOOM); cy.center(eles); }
  }

  // ------------------------------------------------------------------ filters and focus
  function computeVisible() {
    var base = new Set();
    nodesById.forEach(function (n, id) {
      if (state.xk.has(str(n.kind) || "(none)") || state.xr.has(str(n.repository) || "(none)") || state.xl.has(str(n.language) || "(none)")) return;
      base.add(id);
    });
    var edgeOk = function (e) { return !state.xp.has(str(e.protocol) || "(none)") && base.has(str(e.source)) && base.has(str(e.target)); };
    var vis = base;
    var q = state.q.trim().toLowerCase();
    if (q) {
      vis = new Set();
      base.forEach(function (id) { if (nodeText.get(id).indexOf(q) >= 0) vis.add(id); });
      edgesById.forEach(function (e, id) {
        if (edgeOk(e) && edgeText.get(id).indexOf(q) >= 0) { vis.add(str(e.source)); vis.add(str(e.target)); }
      });
    }
    if (state.focus && nodesById.has(state.focus)) {
      var reach = new Set([state.focus]), frontier = [state.focus];
      for (var h = 0; h < state.hops; h++) {
        var next = [];
        edgesById.forEach(function (e) {
          if (!edgeOk(e)) return;
          var s = str(e.source), t = str(e.target);
          frontier.forEach(function (f) {
            if (state.dir !== "up" && s === f && !reach.has(t)) { reach.add(t); next.push(t); }
            if (state.dir !== "down" && t === f && !reach.has(s)) { reach.add(s); next.push(s); }
          });
        });
        frontier = next;
        if (!frontier.length) break;
      }
      var within = new Set();
      reach.forEach(function (id) { if (vis.has(id) || id === state.focus) within.add(id); });
      vis = within;
    }
    var edges = new Set();
    edgesById.forEach(function (e, id) { if (edgeOk(e) && vis.has(str(e.source)) && vis.has(str(e.target))) edges.add(id); });
    return { nodes: vis, edges: edges };
  }

  function applyFilters(relayoutIfNeeded) {
    var v = computeVisible();
    visibleNodes = v.nodes;
    var repoVisible = new Map();
    v.nodes.forEach(function (id) { repoVisible.set(str(nodesById.get(id).repository), (repoVisible.get(str(nodesById.get(id).repository)) || 0) + 1); });
    var ghostsShown = visibleGhosts(v.nodes);
    cy.batch(function () {
      cy.nodes().forEach(function (n) {
        var show = n.data("ghost") ? ghostsShown.has(n.data("mid")) : n.data("type") === "repo" ? repoVisible.has(n.data("repository")) : v.nodes.has(n.data("mid"));
        n.toggleClass("hidden", !show);
      });
      cy.edges().forEach(function (e) {
        if (e.data("ghost")) { e.toggleClass("hidden", e.source().hasClass("hidden") || e.target().hasClass("hidden")); return; }
        if (e.data("type") === "edge" || e.data("type") === "lay") { e.toggleClass("hidden", !v.edges.has(e.data("mid"))); return; }
        var members = e.data("members").filter(function (m) { return v.edges.has(m); });
        e.toggleClass("hidden", members.length === 0);
      });
      cy.nodes(".focus-root").removeClass("focus-root");
      if (state.focus) cy.getElementById("n:" + state.focus).addClass("focus-root");
    });
    document.getElementById("focus-label").textContent = state.focus && nodesById.has(state.focus)
      ? "Focused on " + str(nodesById.get(state.focus).name || state.focus) + " (" + state.hops + " hop" + (state.hops > 1 ? "s" : "") + ", " + ({ both: "both ways", up: "upstream", down: "downstream" })[state.dir] + ")"
      : "";
    updateStatus(v);
    if (state.tab === "list") renderList();
    if (relayoutIfNeeded === true) layout();
    else if (relayoutIfNeeded === "auto") reflow();
    writeHash();
  }

  /** Ghost components to show: all of them unless a search or focus narrows the graph, then
      those joined (by a ghost connection) to something visible; kind filters apply too. */
  function visibleGhosts(visible) {
    var shown = new Set(), narrowed = !!(state.q.trim() || (state.focus && nodesById.has(state.focus)));
    ghostNodes.forEach(function (g, id) {
      if (state.xk.has(str(g.kind) || "(none)")) return;
      if (!narrowed) { shown.add(id); return; }
      ghostEdges.forEach(function (e) {
        if ((e.source === id && visible.has(e.target)) || (e.target === id && visible.has(e.source))) shown.add(id);
      });
    });
    return shown;
  }

  /** After the user narrows or widens the graph: lay out again when that is cheap, else just fit. */
  function reflow() {
    if (visibleNodes.size <= RELAYOUT_MAX) layout();
    else fitGraph();
  }

  function updateStatus(v) {
    var total = nodesById.size;
    var parts = [v.nodes.size + " of " + total + " components", v.edges.size + " of " + edgesById.size + " connections"];
    if (overlay) {
      var c = Compare.counts(overlay.changes);
      parts.push("compared with " + comparisonLabel() + ": +" + c.added + " \u2212" + c.removed + " ~" + c.changed);
    }
    if (timings.total_ms !== undefined) parts.push("loaded in " + timings.total_ms + " ms (layout " + timings.layout + " " + timings.layout_ms + " ms)");
    setStatus(parts.join(" · "));
  }

  // ------------------------------------------------------------------ sidebar
  /** What a "(none)" facet value stands for, in words. */
  var NONE_TEXT = {
    kind: ["no kind", "Components the analysis could not classify"],
    protocol: ["no protocol", "Connections whose protocol is unknown"],
    repository: ["outside the repositories", "Components found in no analysed repository: the users, external services and infrastructure the code talks to"],
    language: ["no language", "Components without source code of their own: databases, brokers, caches, external services, users"]
  };
  function kindSwatch(kind) {
    var sw = el("span", { class: "swatch", "aria-hidden": "true" });
    sw.style.background = RM.kindStyle(kind).color; sw.style.borderColor = RM.kindStyle(kind).border;
    return sw;
  }
  function buildFacet(containerId, key, map, excluded) {
    var box = document.getElementById(containerId);
    clear(box);
    var entries = Array.from(map.entries()).sort(function (a, b) { return a[0] < b[0] ? -1 : 1; });
    var h2 = box.parentElement.querySelector("h2");
    var title = h2.textContent;
    if (!h2.querySelector(".facet-actions")) {
      h2.appendChild(el("span", { class: "facet-actions" },
        el("button", { type: "button", class: "linkbtn", "aria-label": "all " + title.toLowerCase() + ": show every one", onclick: function () { excluded.clear(); syncChecks(); applyFilters("auto"); }, text: "all" }),
        el("button", { type: "button", class: "linkbtn", "aria-label": "none of the " + title.toLowerCase() + ": hide every one", onclick: function () { entries.forEach(function (e) { excluded.add(e[0]); }); syncChecks(); applyFilters("auto"); }, text: "none" })));
    }
    entries.forEach(function (entry) {
      var value = entry[0], none = value === "(none)" ? NONE_TEXT[key] : null;
      var cb = el("input", { type: "checkbox", dataset: { facet: key, value: value } });
      cb.checked = !excluded.has(value);
      cb.addEventListener("change", function () { if (cb.checked) excluded.delete(value); else excluded.add(value); applyFilters("auto"); });
      var sw = null;
      if (key === "kind") sw = kindSwatch(value);
      if (key === "protocol") sw = RM.protocolSwatch(value);
      box.appendChild(el("label", { title: none ? none[1] : value }, cb, sw,
        el("span", { class: "txt" + (none ? " none" : ""), text: none ? none[0] : value }), el("span", { class: "n", text: entry[1], "aria-label": entry[1] + " " + (key === "protocol" ? "connections" : "components") })));
    });
  }
  function syncChecks() {
    var sets = { kind: state.xk, protocol: state.xp, repository: state.xr, language: state.xl };
    document.querySelectorAll(".facet input[type=checkbox]").forEach(function (cb) { cb.checked = !sets[cb.dataset.facet].has(cb.dataset.value); });
  }
  function buildLegend() {
    var box = document.getElementById("legend");
    clear(box);
    var toggle = el("button", { type: "button", class: "legend-toggle linkbtn", "aria-expanded": box.classList.contains("folded") ? "false" : "true", "aria-controls": "legend",
      text: "Legend", onclick: function () { box.classList.toggle("folded"); toggle.setAttribute("aria-expanded", box.classList.contains("folded") ? "false" : "true"); } });
    box.appendChild(toggle);
    var kinds = el("div", { class: "legend-group" }, el("h3", { text: "Components" }));
    facets.kind.forEach(function (_, kind) { kinds.appendChild(el("span", { class: "item" }, kindSwatch(kind), kind === "(none)" ? "no kind" : kind)); });
    box.appendChild(kinds);
    var protos = el("div", { class: "legend-group" }, el("h3", { text: "Connections (arrow = direction)" }));
    facets.protocol.forEach(function (_, p) {
      protos.appendChild(el("span", { class: "item", title: p + ": " + RM.protocolStyle(p).name + " line" }, RM.protocolSwatch(p), p === "(none)" ? "no protocol" : p));
    });
    box.appendChild(protos);
    if (portsView()) {
      var pg = el("div", { class: "legend-group" }, el("h3", { text: "Ports (on the part's border)" }));
      pg.appendChild(el("span", { class: "item", title: "An API the component provides, with the number of endpoints found" }, el("span", { class: "swatch port-swatch", "aria-hidden": "true" }), "provided port · endpoints"));
      pg.appendChild(el("span", { class: "item", title: "Connections arrive over this protocol but no endpoints were found; model.sysml declares the port" }, el("span", { class: "swatch port-swatch implied", "aria-hidden": "true" }), "implied port"));
      box.appendChild(pg);
    }
    if (overlay) {
      var cmp = el("div", { class: "legend-group" }, el("h3", { text: "Comparison" }));
      Compare.legendItems().forEach(function (item) { cmp.appendChild(item); });
      box.appendChild(cmp);
    }
  }

  // ------------------------------------------------------------------ selection and details
  function select(sel, opts) {
    state.sel = sel;
    opts = opts || {};
    cy.elements(":selected").unselect();
    var ele = cyElementFor(sel);
    if (ele && ele.nonempty()) {
      ele.select();
      if (opts.center) cy.animate({ center: { eles: ele }, duration: 200 });
    }
    renderDetails();
    if (state.tab === "list") markListSelection();
    Compare.markSelected(document.getElementById("changes"), sel);
    if (sysmlRendered) highlightSysml(opts.scrollSysml !== false);
    writeHash();
  }
  function cyElementFor(sel) {
    if (!sel || !cy) return null;
    var kind = sel.slice(0, 2), id = sel.slice(2);
    if (kind === "n:") {
      var n = cy.getElementById(sel);
      return n.nonempty() ? n : (nodesById.has(id) ? cy.getElementById("r:" + str(nodesById.get(id).repository)) : null);
    }
    if (kind === "e:") {
      var e = cy.getElementById(sel);
      if (e.nonempty()) return e;
      return cy.edges().filter(function (x) { return x.data("type") === "agg" && x.data("members").indexOf(id) >= 0; });
    }
    if (kind === "p:") {
      var port = cy.getElementById(sel);
      return port.nonempty() ? port : cyElementFor("n:" + portKey(id).node);
    }
    if (kind === "r:" || kind === "a:") return cy.getElementById(sel);
    return null;
  }
  /** "p:<node id>#<port index>": the index follows the last '#', node ids may contain any character. */
  function portKey(key) { return PortsView.parseKey(key); }
  function restoreSelection() { if (state.sel) { var e = cyElementFor(state.sel); if (e && e.nonempty()) e.select(); } }

  function kv(rows) {
    var table = el("table", { class: "kv" });
    rows.forEach(function (r) { if (r[1] !== undefined && r[1] !== null && r[1] !== "") table.appendChild(el("tr", null, el("td", { text: r[0] }), el("td", null, r[1]))); });
    return table;
  }
  function attrRows(attrs) { return Object.keys(attrs || {}).sort().map(function (k) { return [k, str(attrs[k])]; }); }
  function nodeLink(id) {
    var n = nodesById.get(id);
    return el("a", { text: n ? str(n.name || id) : id, onclick: function () { select("n:" + id, { center: true }); } });
  }
  function edgeLabel(e) { return str((nodesById.get(str(e.source)) || {}).name || e.source) + " → " + str((nodesById.get(str(e.target)) || {}).name || e.target); }

  var CODE_EXT = /\.(py|pyi|js|mjs|cjs|jsx|ts|tsx|go|java|kt|kts|cs|rs|rb|php|scala|swift|c|cc|cpp|h|hpp)$/i;
  function evLoc(ev) { return str(ev.repository) + ": " + str(ev.path) + (ev.line ? ":" + ev.line : ""); }
  function baseName(path) { var s = str(path); return s.slice(s.lastIndexOf("/") + 1); }
  /** Evidence in reading order: code (call sites, reads) first, then configuration and
      descriptors, where copies of one file (same name, same line; e.g. a manifest repeated per
      environment) fold into one entry that names the others. */
  function groupEvidence(list) {
    var code = [], desc = [], byKey = new Map();
    arr(list).forEach(function (ev) {
      if (!ev || typeof ev !== "object") return;
      if (CODE_EXT.test(str(ev.path))) { code.push({ ev: ev, copies: [] }); return; }
      var key = baseName(ev.path) + "\u0000" + str(ev.line);
      if (byKey.has(key)) { byKey.get(key).copies.push(ev); return; }
      var entry = { ev: ev, copies: [] };
      byKey.set(key, entry); desc.push(entry);
    });
    return { code: code, desc: desc };
  }
  function evidenceCard(entry, counter) {
    var ev = entry.ev;
    var repo = repoInfo.get(str(ev.repository)) || {};
    var forge = RM.forgeUrl(repo.url, repo.commit, ev.path, ev.line);
    var body = el("div", { class: "snippet-box" });
    var head = el("div", { class: "ev-head" },
      el("span", { class: "loc", text: evLoc(ev) }),
      forge ? el("a", { href: forge.url, target: "_blank", rel: "noopener noreferrer", text: forge.label + " ↗", "aria-label": "Open " + str(ev.path) + " on " + forge.label }) : null);
    var card = el("div", { class: "evidence" }, head);
    if (entry.copies.length) {
      var n = entry.copies.length;
      var more = el("details", { class: "copies" }, el("summary", { text: "and " + n + " cop" + (n === 1 ? "y" : "ies") + " (same file name and line)" }));
      var ul = el("ul", { class: "list" });
      entry.copies.forEach(function (c) { ul.appendChild(el("li", null, el("code", { text: evLoc(c) }))); });
      more.appendChild(ul);
      card.appendChild(more);
    }
    card.appendChild(body);
    if (counter.n++ < SNIPPETS_AUTO) loadSnippet(ev, body);
    else body.appendChild(el("div", { class: "snippet-msg" }, el("a", { text: "Show source", "aria-label": "Show source of " + evLoc(ev), onclick: function () { clear(body); loadSnippet(ev, body); } })));
    return card;
  }
  function evidenceList(list, counter, grouped) {
    var box = el("div", { class: "evidence-list" });
    var g = groupEvidence(list);
    if (grouped && g.code.length && g.desc.length) {
      box.appendChild(el("h4", { text: "In code · " + g.code.length }));
      g.code.forEach(function (e) { box.appendChild(evidenceCard(e, counter)); });
      box.appendChild(el("h4", { text: "In configuration and descriptors · " + g.desc.length }));
      g.desc.forEach(function (e) { box.appendChild(evidenceCard(e, counter)); });
    } else {
      g.code.concat(g.desc).forEach(function (e) { box.appendChild(evidenceCard(e, counter)); });
    }
    if (!box.childNodes.length) box.appendChild(el("p", { class: "hint", text: "No evidence recorded." }));
    return box;
  }
  /** The steps the resolver took, where the model names them: `attributes.chain` (a list) or
      `via` ("env X", "a -> b -> c"), between the code that calls and the component reached. */
  function resolutionSteps(e) {
    var attrs = e.attributes || {}, steps = [];
    var via = Array.isArray(attrs.chain) ? attrs.chain.map(str) : str(attrs.via).split(/\s*(?:->|→|;)\s*/).filter(Boolean);
    if (!via.length) return null;
    var g = groupEvidence(e.evidence);
    var src = nodesById.get(str(e.source)) || {}, dst = nodesById.get(str(e.target)) || {};
    var verb = { calls: "makes a call", uses: "opens a connection", publishes: "publishes messages", subscribes: "subscribes to messages" }[str(e.kind)] || "connects";
    steps.push({ what: "The code of " + str(src.name || e.source) + " " + verb, where: g.code.map(function (x) { return evLoc(x.ev); }) });
    var env = false;
    via.forEach(function (v) {
      var m = /^env\s+(.+)$/.exec(v);
      if (m) env = true;
      steps.push({ what: m ? "to the address in the setting " + m[1] : "via " + v });
    });
    if (g.desc.length) steps.push({ what: env ? "whose value the configuration sets" : "as the configuration declares", where: g.desc.map(function (x) { return evLoc(x.ev); }) });
    steps.push({ what: "reaching " + str(dst.name || e.target) + (attrs.endpoints ? " (" + str(attrs.endpoints) + ")" : "") });
    return steps;
  }
  function stepsList(steps) {
    var ol = el("ol", { class: "steps" });
    steps.forEach(function (st) {
      var li = el("li", null, el("span", { text: st.what }));
      if (st.where && st.where.length) li.appendChild(el("div", { class: "step-where" }, st.where.map(function (w) { return el("code", { text: w }); })));
      ol.appendChild(li);
    });
    return ol;
  }

  function loadSnippet(ev, body) {
    var line = parseInt(ev.line, 10) || 1;
    function show(data) {
      var pre = el("div", { class: "snippet", tabindex: "0", role: "region", "aria-label": "Source of " + evLoc(ev) });
      arr(data.lines).forEach(function (text, i) {
        var no = data.start + i;
        pre.appendChild(el("div", { class: "row" + (no === data.highlight ? " hl" : "") }, el("span", { class: "ln", text: no }), el("span", { class: "code", text: text })));
      });
      clear(body); body.appendChild(pre);
    }
    function fail(msg) { clear(body); body.appendChild(el("div", { class: "snippet-msg", text: msg })); }
    if (MODE === "static") {
      var key = str(ev.repository) + "\n" + str(ev.path) + "\n" + line;
      if (staticSnippets[key]) show(staticSnippets[key]); else fail("Source not included in this published site.");
      return;
    }
    body.appendChild(el("div", { class: "snippet-msg", text: "Loading source…" }));
    var url = API + "/source?" + new URLSearchParams({ repository: str(ev.repository), path: str(ev.path), line: String(line) }).toString();
    fetch(url).then(function (r) {
      if (!r.ok) { fail(r.status === 404 ? "Source not available (checkout missing or file not cited)." : "Source request refused (" + r.status + ")."); return; }
      return r.json().then(show);
    }).catch(function () { fail("Source could not be loaded."); });
  }

  function renderDetails() {
    var box = document.getElementById("details-body");
    clear(box);
    var sel = state.sel;
    var counter = { n: 0 };
    if (!sel) { box.appendChild(el("p", { class: "hint", text: "Select a component or connection to see its attributes and evidence." })); return; }
    var kind = sel.slice(0, 2), id = sel.slice(2);
    if (kind === "n:" && ghostNodes.has(id)) return renderGhost(box, "component", id);
    if (kind === "e:" && ghostEdges.has(id)) return renderGhost(box, "connection", id);
    if (kind === "n:" && nodesById.has(id)) return renderNode(box, id, counter);
    if (kind === "e:" && edgesById.has(id)) return renderEdge(box, id, counter);
    if (kind === "p:") return renderPort(box, id, counter);
    if (kind === "r:") return renderRepo(box, id);
    if (kind === "a:") return renderAgg(box, id);
    box.appendChild(el("p", { class: "hint", text: "The selected element is not in this model." }));
  }

  function kindBadge(kind) { var b = el("span", { class: "badge", text: kind || "component" }); b.style.background = RM.kindStyle(kind).badge; return b; }
  function protoBadge(p) { var b = el("span", { class: "badge", text: p || "?" }); b.style.background = RM.protocolStyle(p).color; return b; }

  function renderNode(box, id, counter) {
    var n = nodesById.get(id);
    box.appendChild(el("h2", { text: str(n.name || id), id: "details-title" }));
    box.appendChild(el("div", { class: "sub" }, kindBadge(str(n.kind)), el("span", { text: str(n.repository) }), n.language ? el("span", { class: "chip", text: str(n.language) }) : null));
    box.appendChild(el("div", { class: "focus-row" },
      el("button", { class: "btn small", type: "button", text: "Focus here", onclick: function () { state.focus = id; applyFilters(true); } }),
      el("button", { class: "btn ghost small", type: "button", text: "Show in SysML", onclick: function () { showTab("sysml"); } })));
    box.appendChild(kv([["id", str(n.id)]].concat(attrRows(n.attributes))));
    comparisonSection(box, changesAbout("n:", id));
    var ports = arr(n.ports);
    if (ports.length) {
      box.appendChild(el("h3", { text: "Ports & endpoints" }));
      ports.forEach(function (p, i) {
        var head = el("div", { class: "port-head" }, el("a", { text: str(p.name || "port"), onclick: function () { select("p:" + id + "#" + i); } }),
          protoBadge(str(p.protocol)), el("span", { class: "muted", text: str(p.direction) }));
        var list = el("ul", { class: "list" });
        arr(p.endpoints).forEach(function (ep) { list.appendChild(el("li", { class: "endpoint" }, el("span", { class: "method " + str(ep.method).replace(/[^A-Z]/g, ""), text: str(ep.method || "—") }), el("code", { text: str(ep.path) }))); });
        box.appendChild(el("div", { class: "port" }, head, list.childNodes.length ? list : null));
      });
    }
    var out = [], inc = [];
    edgesById.forEach(function (e, eid) { if (str(e.source) === id) out.push(eid); if (str(e.target) === id) inc.push(eid); });
    [["Calls / uses (outgoing)", out, "target"], ["Used by (incoming)", inc, "source"]].forEach(function (grp) {
      if (!grp[1].length) return;
      box.appendChild(el("h3", { text: grp[0] + " · " + grp[1].length }));
      var ul = el("ul", { class: "list" });
      grp[1].forEach(function (eid) {
        var e = edgesById.get(eid);
        ul.appendChild(el("li", null, protoBadge(str(e.protocol)), " ", nodeLink(str(e[grp[2]])), " ",
          el("a", { class: "muted", text: "(" + str(e.kind) + ")", onclick: function () { select("e:" + eid, { center: true }); } })));
      });
      box.appendChild(ul);
    });
    var unresolved = arr(model.unresolved).filter(function (u) { return u && str(u.component) === id; });
    if (unresolved.length) {
      box.appendChild(el("h3", { text: "Unresolved references · " + unresolved.length }));
      // their snippets load on request, so they never crowd out the component's own evidence
      var later = { n: SNIPPETS_AUTO };
      unresolved.forEach(function (u) {
        box.appendChild(el("div", { class: "unresolved" }, el("code", { text: str(u.value) })));
        box.appendChild(evidenceList(u.evidence ? [u.evidence] : [], later));
      });
    }
    box.appendChild(el("h3", { text: "Evidence" }));
    box.appendChild(evidenceList(n.evidence, counter, true));
  }

  function renderPort(box, key, counter) {
    var pk = portKey(key), id = pk.node, n = nodesById.get(id);
    if (n && pk.protocol !== null) return renderImpliedPort(box, id, pk.protocol);
    var p = n && arr(n.ports)[pk.index];
    if (!p) { box.appendChild(el("p", { class: "hint", text: "Port not found." })); return; }
    box.appendChild(el("h2", { text: str(p.name || "port") }));
    box.appendChild(el("div", { class: "sub" }, "port of ", nodeLink(id), protoBadge(str(p.protocol)), el("span", { text: str(p.direction) })));
    box.appendChild(kv(attrRows(p.attributes)));
    box.appendChild(el("h3", { text: "Endpoints · " + arr(p.endpoints).length }));
    arr(p.endpoints).forEach(function (ep) {
      box.appendChild(el("div", { class: "endpoint port-head" }, el("span", { class: "method " + str(ep.method).replace(/[^A-Z]/g, ""), text: str(ep.method || "—") }), el("code", { text: str(ep.path) })));
      box.appendChild(evidenceList(ep.evidence, counter));
    });
    if (arr(p.evidence).length) { box.appendChild(el("h3", { text: "Evidence" })); box.appendChild(evidenceList(p.evidence, counter)); }
    var callers = el("ul", { class: "list" }), pkey = "p:" + key, edgePort = ports().edgePort;
    edgesById.forEach(function (e, eid) {
      if (edgePort.get(eid) !== pkey) return;
      callers.appendChild(el("li", null, protoBadge(str(e.protocol)), " ", nodeLink(str(e.source)), " ",
        el("a", { class: "muted", text: "(" + str(e.kind) + ")", onclick: function () { select("e:" + eid, { center: true }); } })));
    });
    if (callers.childNodes.length) { box.appendChild(el("h3", { text: "Connected from · " + callers.childNodes.length })); box.appendChild(callers); }
  }

  /** A port model.sysml gives a component because connections arrive over a protocol for which
      the analysis found no endpoints (databases, caches, brokers, services without routes). */
  function renderImpliedPort(box, id, protocol) {
    box.appendChild(el("h2", { text: protocol + " (implied port)", id: "details-title" }));
    box.appendChild(el("div", { class: "sub" }, "port of ", nodeLink(id), protoBadge(protocol), el("span", { text: "provided" })));
    box.appendChild(el("p", { class: "hint", text: "Connections reach " + str(nodesById.get(id).name || id) + " over " + protocol +
      ", so model.sysml declares this port for them; the analysis found no endpoints on it." }));
    var ul = el("ul", { class: "list" }), n = 0;
    edgesById.forEach(function (e, eid) {
      if (str(e.target) !== id || str(e.protocol) !== protocol) return;
      n++;
      ul.appendChild(el("li", null, protoBadge(protocol), " ", nodeLink(str(e.source)), " ",
        el("a", { class: "muted", text: "(" + str(e.kind) + ")", onclick: function () { select("e:" + eid, { center: true }); } })));
    });
    box.appendChild(el("h3", { text: "Connected from · " + n }));
    box.appendChild(ul);
  }

  function renderEdge(box, id, counter) {
    var e = edgesById.get(id);
    box.appendChild(el("h2", { text: edgeLabel(e), id: "details-title" }));
    box.appendChild(el("div", { class: "sub" }, protoBadge(str(e.protocol)), el("span", { text: str(e.kind) })));
    box.appendChild(el("div", { class: "focus-row" },
      el("button", { class: "btn ghost small", type: "button", text: "Show in SysML", onclick: function () { showTab("sysml"); } })));
    box.appendChild(kv([["id", str(e.id)], ["from", nodeLink(str(e.source))], ["to", nodeLink(str(e.target))]].concat(attrRows(e.attributes))));
    comparisonSection(box, changesAbout("e:", id));
    var steps = resolutionSteps(e);
    if (steps) { box.appendChild(el("h3", { text: "How it was resolved" })); box.appendChild(stepsList(steps)); }
    box.appendChild(el("h3", { text: "Evidence" }));
    box.appendChild(evidenceList(e.evidence, counter, true));
  }

  function renderRepo(box, name) {
    var r = repoInfo.get(name) || { name: name };
    box.appendChild(el("h2", { text: name }));
    box.appendChild(el("div", { class: "sub", text: "repository" }));
    box.appendChild(kv([["url", r.url ? el("a", { href: /^https?:\/\//.test(str(r.url)) ? str(r.url) : "#", target: "_blank", rel: "noopener noreferrer", text: str(r.url) }) : null], ["commit", str(r.commit)], ["ref", str(r.ref)]]));
    var collapsed = state.collapsed.has(name);
    box.appendChild(el("div", { class: "focus-row" }, el("button", { class: "btn small", type: "button", text: collapsed ? "Expand" : "Collapse",
      onclick: function () { toggleRepo(name); } })));
    var ul = el("ul", { class: "list" });
    nodesById.forEach(function (n, id) { if (str(n.repository) === name) ul.appendChild(el("li", null, kindBadge(str(n.kind)), " ", nodeLink(id))); });
    box.appendChild(el("h3", { text: "Components · " + ul.childNodes.length }));
    box.appendChild(ul);
  }

  function renderAgg(box, key) {
    var e = cy.getElementById("a:" + key);
    var members = e.nonempty() ? e.data("members") : [];
    box.appendChild(el("h2", { text: members.length + " connection" + (members.length === 1 ? "" : "s") }));
    var ul = el("ul", { class: "list" });
    members.forEach(function (id) { var m = edgesById.get(id); ul.appendChild(el("li", null, protoBadge(str(m.protocol)), " ", el("a", { text: edgeLabel(m), onclick: function () { select("e:" + id); } }))); });
    box.appendChild(ul);
  }

  // ------------------------------------------------------------------ comparison
  function comparisonLabel() {
    var c = candidates.filter(function (x) { return x.id === overlayFor; })[0];
    return str(c ? c.label : overlay && overlay.compare);
  }
  /** "a->b:proto" -> its two ends (ids may contain ':' but the protocol never does). */
  function connectionEnds(id) {
    var at = id.indexOf("->"), rest = id.slice(at + 2), colon = rest.lastIndexOf(":");
    return { source: id.slice(0, at), target: colon < 0 ? rest : rest.slice(0, colon) };
  }
  /** The overlay's changes that concern node `id` (its own, its ports', its connections') or edge `id`. */
  function changesAbout(kind, id) {
    if (!overlay) return [];
    return arr(overlay.changes).filter(function (c) {
      if (!c) return false;
      if (kind === "e:") return c.element === "connection" && (str(c.id) === id || str(c.new_id) === id);
      if (c.element === "connection") { var ends = connectionEnds(str(c.id)); return ends.source === id || ends.target === id; }
      return str(c.component) === id || (c.element === "component" && str(c.id) === id);
    });
  }
  function comparisonSection(box, list) {
    if (!overlay) return;
    box.appendChild(el("h3", { text: "Compared with " + comparisonLabel() }));
    if (!list.length) { box.appendChild(el("p", { class: "hint", text: "No change here." })); return; }
    var ul = el("ul", { class: "list ov-list" });
    list.forEach(function (c) {
      var target = Compare.selectionFor(c);
      ul.appendChild(el("li", null, Compare.pill(str(c.status)), " ",
        el("a", { text: str(c.text), onclick: function () { select(target, { center: true }); } })));
    });
    box.appendChild(ul);
  }
  function renderGhost(box, element, id) {
    var ghost = element === "component" ? ghostNodes.get(id) : ghostEdges.get(id);
    var change = arr(overlay.changes).filter(function (c) { return c.element === element && str(c.id) === id; })[0] || {};
    box.appendChild(el("h2", { text: element === "component" ? id : edgeLabel(ghost), id: "details-title" }));
    box.appendChild(el("div", { class: "sub" }, Compare.pill("added"),
      element === "component" ? kindBadge(str(ghost.kind)) : protoBadge(str(ghost.protocol)),
      el("span", { text: "only in " + comparisonLabel() })));
    var rows = element === "component" ? [["id", id], ["kind", str(ghost.kind)]]
      : [["id", id], ["from", nodeLink(str(ghost.source))], ["to", nodeLink(str(ghost.target))], ["protocol", str(ghost.protocol)]];
    rows.push(["declared at", str(change.where)]);
    box.appendChild(kv(rows));
    box.appendChild(el("p", { class: "hint", text: "Not found by analysis: this " + element + " is what the comparison adds. It is drawn dashed until it exists." }));
    if (element === "component") comparisonSection(box, changesAbout("n:", id));
  }

  function fillCompareSelect() {
    var sel = document.getElementById("compare");
    clear(sel);
    sel.appendChild(el("option", { value: "", text: candidates.length ? "Compare with\u2026" : "Nothing to compare with" }));
    sel.disabled = !candidates.length;
    sel.title = candidates.length ? "Overlay the differences to a target, a stored run or another model"
      : "Put target .sysml files in this model's targets/ folder (or MODELS_DIR/targets/) to compare with them";
    var groups = { target: "Targets", shared: "Shared targets", run: "Earlier runs", model: "Other models" };
    var groupOf = function (c) { return c.id.indexOf("shared-target:") === 0 ? "shared" : str(c.kind); };
    Object.keys(groups).forEach(function (kind) {
      var items = candidates.filter(function (c) { return c && groupOf(c) === kind; });
      if (!items.length) return;
      var group = el("optgroup", { label: groups[kind] });
      items.forEach(function (c) { group.appendChild(el("option", { value: str(c.id), text: str(c.label), title: str(c.detail) })); });
      sel.appendChild(group);
    });
    sel.value = state.cmp || "";
  }

  /** Fetch and show the overlay named by state.cmp (or remove it); the latest request wins. */
  function applyComparison() {
    var id = state.cmp, token = ++overlayRequest, sel = document.getElementById("compare");
    if (!id) { setOverlay(null, null); return; }
    if (!candidates.some(function (c) { return c.id === id; })) {
      state.cmp = null; setOverlay(null, null);
      setStatus("The comparison in the link is not available here.");
      return;
    }
    sel.value = id;
    root.dataset.compared = "loading";
    fetchOverlay(id).then(function (ov) {
      if (token === overlayRequest) setOverlay(ov, id);
    }).catch(function (err) {
      if (token !== overlayRequest) return;
      state.cmp = null; setOverlay(null, null);
      setStatus("Could not compare: " + (err && err.message ? err.message : err));
      root.dataset.compared = "error";
    });
  }

  function setOverlay(ov, id) {
    var selId = state.sel ? state.sel.slice(2) : "";
    if (!ov && state.sel && (ghostNodes.has(selId) || ghostEdges.has(selId))) state.sel = null;
    overlay = ov && typeof ov === "object" ? ov : null;
    overlayFor = overlay ? id : null;
    ghostNodes.clear(); ghostEdges.clear(); connectionChange.clear();
    if (overlay) {
      arr(overlay.ghost_nodes).forEach(function (g) { if (g && g.id !== undefined && !nodesById.has(str(g.id))) ghostNodes.set(str(g.id), g); });
      var known = function (x) { return nodesById.has(x) || ghostNodes.has(x); };
      arr(overlay.ghost_edges).forEach(function (g) {
        if (!g || edgesById.has(str(g.id))) return;
        var s = str(g.source), t = str(g.target);
        if (known(s) && known(t)) ghostEdges.set(str(g.id), { source: s, target: t, protocol: str(g.protocol) });
      });
      arr(overlay.changes).forEach(function (c) { if (c && c.element === "connection") connectionChange.set(str(c.id), c); });
      overlay.nodes = overlay.nodes || {}; overlay.edges = overlay.edges || {};
    }
    var panel = document.getElementById("changes");
    document.getElementById("pane-graph").classList.toggle("comparing", !!overlay);
    document.getElementById("compare-clear").classList.toggle("hidden", !overlay);
    if (!overlay) document.getElementById("compare").value = "";
    panel.classList.toggle("hidden", !overlay);
    if (overlay) {
      var cand = candidates.filter(function (c) { return c.id === id; })[0];
      Compare.renderPanel(panel, overlay, cand, function (change) { select(Compare.selectionFor(change), { center: true }); },
        function () { cy.resize(); fitGraph(); });
    } else { clear(panel); panel.classList.remove("folded"); document.getElementById("pane-graph").classList.remove("changes-folded"); }
    cy.style(cyStyle(big));
    cy.resize();
    buildLegend();
    rebuild(true);
    Compare.markSelected(panel, state.sel);
    renderDetails();
    root.dataset.compared = overlay ? id : "";
    writeHash();
  }

  // ------------------------------------------------------------------ warnings and unresolved
  function setupIssues() {
    var warnings = arr(model.warnings), unresolved = arr(model.unresolved);
    var btn = document.getElementById("btn-issues");
    if (!warnings.length && !unresolved.length) return;
    btn.textContent = "Warnings (" + warnings.length + ") \u00b7 Unresolved (" + unresolved.length + ")";
    btn.classList.remove("hidden");
    btn.classList.toggle("warn", warnings.length > 0);
    btn.addEventListener("click", openIssues);
    document.getElementById("issues-close").addEventListener("click", function () { document.getElementById("issues").close(); });
  }
  function evLocation(ev) {
    return ev ? str(ev.repository) + ": " + str(ev.path) + (ev.line ? ":" + ev.line : "") : "";
  }
  function openIssues() {
    var dlg = document.getElementById("issues"), body = document.getElementById("issues-body");
    var warnings = arr(model.warnings), unresolved = arr(model.unresolved);
    clear(body);
    body.appendChild(el("h3", { text: "Warnings · " + warnings.length }));
    var wl = el("ul", { class: "list issues-list", id: "warnings-list" });
    warnings.forEach(function (w) {
      if (!w) return;
      wl.appendChild(el("li", null, el("span", { class: "issue-msg", text: str(w.message) }), el("code", { class: "issue-loc", text: evLocation(w) })));
    });
    if (!warnings.length) wl.appendChild(el("li", { class: "hint", text: "None." }));
    body.appendChild(wl);
    body.appendChild(el("h3", { text: "Unresolved references · " + unresolved.length }));
    body.appendChild(el("p", { class: "hint", text: "Values analysis saw but could not turn into a connection (dynamic URLs, ambiguous clients). Nothing was guessed." }));
    var ul = el("ul", { class: "list issues-list", id: "unresolved-list" });
    unresolved.forEach(function (u) {
      if (!u) return;
      var id = str(u.component);
      ul.appendChild(el("li", null,
        el("a", { class: "issue-comp", text: nodesById.has(id) ? str(nodesById.get(id).name || id) : id,
          onclick: function () { dlg.close(); select("n:" + id, { center: true }); } }),
        el("code", { class: "issue-value", text: str(u.value) }),
        el("code", { class: "issue-loc", text: evLocation(u.evidence) })));
    });
    if (!unresolved.length) ul.appendChild(el("li", { class: "hint", text: "None." }));
    body.appendChild(ul);
    dlg.showModal();
  }

  function toggleRepo(name) {
    if (state.collapsed.has(name)) state.collapsed.delete(name); else state.collapsed.add(name);
    rebuild(true);
    writeHash();
    renderDetails();
  }

  // ------------------------------------------------------------------ SysML view
  function ensureSysml() {
    if (sysmlRendered) return;
    var container = document.getElementById("sysml-code");
    var ts = performance.now();
    sysml = SysML.analyse(sysmlText);
    if (!sysmlText) { container.appendChild(el("p", { class: "hint", text: "This model folder has no model.sysml." })); }
    else SysML.render(container, sysml);
    timings.sysml_ms = Math.round(performance.now() - ts);
    sysmlRendered = true;
    container.addEventListener("click", function (ev) {
      var row = ev.target.closest && ev.target.closest(".line.decl");
      if (!row) return;
      var decl = sysml.lineDecl[parseInt(row.dataset.line, 10)];
      var target = decl && elementForDecl(decl);
      if (target) select(target, { scrollSysml: false });
    });
  }
  function nameCandidates(node) { return [str(node.name), str(node.id)]; }
  function declLineFor(sel) {
    if (!sysml || !sel) return 0;
    var kind = sel.slice(0, 2), id = sel.slice(2);
    if (kind === "p:") { id = portKey(id).node; kind = "n:"; }
    if (kind === "n:" && nodesById.has(id)) {
      var c = nameCandidates(nodesById.get(id));
      for (var i = 0; i < c.length; i++) if (sysml.decls.part[c[i]]) return sysml.decls.part[c[i]];
    }
    if (kind === "e:" && edgesById.has(id)) {
      var e = edgesById.get(id), s = nodesById.get(str(e.source)), t = nodesById.get(str(e.target));
      var names = [];
      nameCandidates(s).forEach(function (a) { nameCandidates(t).forEach(function (b) { names.push(a + "-" + b + "-" + str(e.protocol)); }); });
      names.push(id);
      for (var j = 0; j < names.length; j++) {
        if (sysml.decls.connection[names[j]]) return sysml.decls.connection[names[j]];
        if (sysml.decls.interface[names[j]]) return sysml.decls.interface[names[j]];
      }
    }
    if (kind === "r:" && sysml.decls.part[id]) return sysml.decls.part[id];
    return 0;
  }
  function elementForDecl(decl) {
    var found = null;
    if (decl.kind === "part") {
      nodesById.forEach(function (n, id) { if (!found && (str(n.name) === decl.name || id === decl.name)) found = "n:" + id; });
      if (!found && repoInfo.has(decl.name)) found = "r:" + decl.name;
    } else if (decl.kind === "connection" || decl.kind === "interface") {
      edgesById.forEach(function (e, id) {
        if (found) return;
        var s = nodesById.get(str(e.source)), t = nodesById.get(str(e.target));
        nameCandidates(s).forEach(function (a) { nameCandidates(t).forEach(function (b) { if (a + "-" + b + "-" + str(e.protocol) === decl.name) found = "e:" + id; }); });
        if (id === decl.name) found = "e:" + id;
      });
    }
    return found;
  }
  function highlightSysml(scroll) {
    var container = document.getElementById("sysml-code");
    container.querySelectorAll(".line.sel, .line.sel-block").forEach(function (r) { r.classList.remove("sel", "sel-block"); });
    var line = declLineFor(state.sel);
    if (!line) return;
    var end = Math.min(SysML.blockEnd(sysml, line), line + 400);
    for (var i = line; i <= end; i++) {
      var row = container.children[i - 1];
      if (row) row.classList.add(i === line ? "sel" : "sel-block");
    }
    var first = container.children[line - 1];
    if (scroll && first && state.tab === "sysml") first.scrollIntoView({ block: "center" });
  }

  function showTab(tab) {
    state.tab = tab;
    document.querySelectorAll(".tab").forEach(function (b) {
      var on = b.dataset.tab === tab;
      b.classList.toggle("active", on);
      b.setAttribute("aria-selected", on ? "true" : "false");
      b.tabIndex = on ? 0 : -1;
    });
    ["graph", "list", "sysml"].forEach(function (t) { document.getElementById("pane-" + t).classList.toggle("hidden", tab !== t); });
    document.querySelector(".toolbar").classList.toggle("hidden", tab !== "graph");
    document.getElementById("legend").classList.toggle("hidden", tab !== "graph");
    if (tab === "sysml") { ensureSysml(); highlightSysml(true); }
    else if (tab === "list") renderList();
    else if (cy) cy.resize();
    writeHash();
  }

  // ------------------------------------------------------------------ components list (keyboard and screen-reader path)
  function degree() {
    var d = new Map();
    edgesById.forEach(function (e) {
      var s = str(e.source), t = str(e.target);
      d.set(s, (d.get(s) || { in: 0, out: 0 })); d.get(s).out++;
      d.set(t, (d.get(t) || { in: 0, out: 0 })); d.get(t).in++;
    });
    return d;
  }
  var degrees = null;
  function markListSelection() {
    document.querySelectorAll("#complist .comp-link").forEach(function (b) {
      var on = state.sel === "n:" + b.dataset.id;
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.closest("tr").classList.toggle("sel", on);
    });
  }
  function renderList() {
    var box = document.getElementById("complist");
    if (state.tab !== "list") return;
    degrees = degrees || degree();
    clear(box);
    var ids = Array.from(visibleNodes).sort(function (a, b) {
      var x = str(nodesById.get(a).name || a).toLowerCase(), y = str(nodesById.get(b).name || b).toLowerCase();
      return x < y ? -1 : x > y ? 1 : 0;
    });
    var shown = Math.min(ids.length, 1000);
    box.appendChild(el("p", { class: "hint", id: "complist-count", text: ids.length + " of " + nodesById.size + " components (the filters apply)" + (shown < ids.length ? "; the first " + shown + " are listed, search to narrow" : "") }));
    var table = el("table", { class: "comp-table", "aria-describedby": "complist-count" },
      el("thead", null, el("tr", null, ["Component", "Kind", "Repository", "Language", "In", "Out"].map(function (h) { return el("th", { scope: "col", text: h }); }))));
    var tbody = el("tbody");
    ids.slice(0, shown).forEach(function (id) {
      var n = nodesById.get(id), d = degrees.get(id) || { in: 0, out: 0 };
      var sel = state.sel === "n:" + id;
      tbody.appendChild(el("tr", { class: sel ? "sel" : "" },
        el("td", null, el("button", { type: "button", class: "linkbtn comp-link", dataset: { id: id }, "aria-pressed": sel ? "true" : "false", text: str(n.name || id),
          onclick: function () { select("n:" + id); openDrawer("details"); } })),
        el("td", null, kindBadge(str(n.kind))),
        el("td", { text: str(n.repository) || "—" }),
        el("td", { text: str(n.language) || "—" }),
        el("td", { class: "num", text: d.in }),
        el("td", { class: "num", text: d.out })));
    });
    table.appendChild(tbody);
    box.appendChild(table);
  }

  // ------------------------------------------------------------------ drawers (narrow screens) and the hover tooltip
  var narrow = window.matchMedia("(max-width: 899px)");
  function openDrawer(which) {
    if (!narrow.matches) return;
    closeDrawer(which === "filters" ? "details" : "filters", true);
    root.classList.add("show-" + which);
    document.getElementById("btn-" + which).setAttribute("aria-expanded", "true");
    var close = document.querySelector("#" + which + " .drawer-close");
    if (close) close.focus({ preventScroll: true });
  }
  function closeDrawer(which, quiet) {
    if (!root.classList.contains("show-" + which)) return;
    root.classList.remove("show-" + which);
    var btn = document.getElementById("btn-" + which);
    btn.setAttribute("aria-expanded", "false");
    if (!quiet) btn.focus({ preventScroll: true });
  }
  function wireDrawers() {
    ["filters", "details"].forEach(function (which) {
      document.getElementById("btn-" + which).addEventListener("click", function () {
        if (root.classList.contains("show-" + which)) closeDrawer(which); else openDrawer(which);
      });
    });
    document.querySelectorAll(".drawer-close").forEach(function (b) { b.addEventListener("click", function () { closeDrawer(b.dataset.close); }); });
    document.addEventListener("keydown", function (ev) {
      if (ev.key !== "Escape") return;
      if (root.classList.contains("show-details")) closeDrawer("details");
      else if (root.classList.contains("show-filters")) closeDrawer("filters");
    });
    narrow.addEventListener("change", function () {
      closeDrawer("filters", true); closeDrawer("details", true);
      if (cy) { cy.resize(); fitGraph(); }
    });
  }
  function wireTooltip() {
    var tip = document.getElementById("tip");
    function show(ev) {
      var t = ev.target, text, sub;
      if (t.isNode()) {
        if (t.data("type") === "repo") { text = t.data("repository"); sub = "repository"; }
        else if (t.data("type") === "port") { text = portName(t); sub = portSummary(t.id().slice(2)); }
        else { text = t.data("name"); sub = [t.data("kind"), t.data("repository"), t.data("language")].filter(Boolean).join(" · "); }
      } else {
        var end = function (x) { return x.data("type") === "port" ? portName(x) : str(x.data("name") || x.data("repository")); };
        text = end(t.source()) + " → " + end(t.target());
        sub = [t.data("protocol"), t.data("kind"), t.data("type") === "agg" ? t.data("members").length + " connections" : ""].filter(Boolean).join(" · ");
      }
      clear(tip);
      tip.appendChild(el("strong", { text: text }));
      if (sub) tip.appendChild(el("span", { text: sub }));
      var p = t.isNode() ? t.renderedPosition() : t.renderedMidpoint();
      var pane = document.getElementById("pane-graph").getBoundingClientRect();
      tip.classList.remove("hidden");
      var w = tip.offsetWidth, h = tip.offsetHeight;
      var x = Math.max(4, Math.min(pane.width - w - 4, p.x - w / 2));
      var y = p.y - (t.isNode() ? t.renderedOuterHeight() / 2 : 0) - h - 8;
      if (y < 4) y = p.y + (t.isNode() ? t.renderedOuterHeight() / 2 : 0) + 8;
      tip.style.transform = "translate(" + Math.round(x) + "px," + Math.round(y) + "px)";
    }
    cy.on("mouseover", "node, edge", show);
    cy.on("mouseout", "node, edge", function () { tip.classList.add("hidden"); });
    cy.on("viewport tapstart", function () { tip.classList.add("hidden"); });
  }
  function portName(p) { var part = cy.getElementById(p.data("part")); return str(part.data("name")) + "." + str(p.data("name")); }
  function portSummary(key) {
    var pk = portKey(key), list = ports().ports.get(pk.node) || [], port = null;
    list.forEach(function (x) { if (x.key === "p:" + key) port = x; });
    if (!port) return "";
    if (port.implied) return port.protocol + " port, implied: connections arrive, no endpoints found";
    return port.protocol + " port · " + port.endpoints + " endpoint" + (port.endpoints === 1 ? "" : "s") +
      (port.sample.length ? ": " + port.sample.join(", ") + (port.endpoints > port.sample.length ? ", …" : "") : "");
  }
  /** Components view or ports view (parts with their API ports, links ending on the provider's port). */
  function setView(view, quiet) {
    state.view = view === "ports" ? "ports" : "components";
    ["components", "ports"].forEach(function (v) {
      var b = document.getElementById("view-" + v);
      b.setAttribute("aria-pressed", state.view === v ? "true" : "false");
    });
    if (quiet) return;
    cy.style(cyStyle(big));
    buildLegend();
    rebuild(true);
    writeHash();
  }
  function wireTabs() {
    var tabs = Array.prototype.slice.call(document.querySelectorAll(".tab"));
    tabs.forEach(function (b, i) {
      b.addEventListener("click", function () { showTab(b.dataset.tab); });
      b.addEventListener("keydown", function (ev) {
        var j = ev.key === "ArrowRight" ? i + 1 : ev.key === "ArrowLeft" ? i - 1 : ev.key === "Home" ? 0 : ev.key === "End" ? tabs.length - 1 : null;
        if (j === null) return;
        ev.preventDefault();
        var next = tabs[(j + tabs.length) % tabs.length];
        showTab(next.dataset.tab); next.focus();
      });
    });
  }
  function setLabels(on) {
    state.labels = on;
    var b = document.getElementById("btn-labels");
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.classList.toggle("on", on);
    cy.style(cyStyle(big));
    writeHash();
  }

  // ------------------------------------------------------------------ wiring
  function wire() {
    var search = document.getElementById("search"), timer = null;
    search.value = state.q;
    search.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { state.q = search.value; applyFilters("auto"); }, 120);
    });
    var dirSel = document.getElementById("focus-dir"), hopsSel = document.getElementById("focus-hops");
    dirSel.value = state.dir; hopsSel.value = String(state.hops);
    function focusChanged() { state.dir = dirSel.value; state.hops = parseInt(hopsSel.value, 10); if (state.focus) applyFilters(true); }
    dirSel.addEventListener("change", focusChanged); hopsSel.addEventListener("change", focusChanged);
    document.getElementById("focus-btn").addEventListener("click", function () {
      var sel = state.sel || "";
      var id = sel.slice(0, 2) === "n:" ? sel.slice(2) : sel.slice(0, 2) === "p:" ? portKey(sel.slice(2)).node : null;
      if (!id) { setStatus("Select a component first, then focus on it."); return; }
      state.focus = id; applyFilters(true);
    });
    document.getElementById("focus-clear").addEventListener("click", function () { state.focus = null; applyFilters(true); });
    wireTabs();
    wireDrawers();
    wireTooltip();
    document.getElementById("btn-labels").addEventListener("click", function () { setLabels(!state.labels); });
    document.getElementById("view-components").addEventListener("click", function () { if (state.view !== "components") setView("components"); });
    document.getElementById("view-ports").addEventListener("click", function () { if (state.view !== "ports") setView("ports"); });
    setView(state.view, true);
    PortsView.follow(cy);
    if (state.labels) setLabels(true);
    document.getElementById("btn-fit").addEventListener("click", function () { fitGraph(); });
    document.getElementById("btn-layout").addEventListener("click", function () { layout(); });
    document.getElementById("btn-collapse").addEventListener("click", function () { repoInfo.forEach(function (_, r) { state.collapsed.add(r); }); rebuild(true); writeHash(); });
    document.getElementById("btn-expand").addEventListener("click", function () { state.collapsed.clear(); rebuild(true); writeHash(); });
    var fname = (root.dataset.name || "model").replace(/[^A-Za-z0-9._-]/g, "_");
    document.getElementById("btn-png").addEventListener("click", function () {
      RM.download(fname + ".png", cy.png({ full: true, scale: 2, bg: "#ffffff", output: "blob" }));
    });
    document.getElementById("btn-svg").addEventListener("click", function () {
      RM.download(fname + ".svg", SvgExport.toSvg(cy), "image/svg+xml");
    });
    cy.on("tap", "node", function (ev) {
      var n = ev.target, type = n.data("type");
      select(type === "repo" ? "r:" + n.data("repository") : type === "port" ? n.id() : "n:" + n.data("mid"));
      openDrawer("details");
    });
    cy.on("tap", "edge", function (ev) {
      var e = ev.target;
      if (e.data("type") === "edge") select("e:" + e.data("mid"));
      else if (e.data("members").length === 1) select("e:" + e.data("members")[0]);
      else select(e.id());
      openDrawer("details");
    });
    cy.on("dbltap", "node[type = 'repo']", function (ev) { toggleRepo(ev.target.data("repository")); });
    document.getElementById("compare").addEventListener("change", function (ev) { state.cmp = ev.target.value || null; applyComparison(); });
    document.getElementById("compare-clear").addEventListener("click", function () { state.cmp = null; applyComparison(); });
    cy.on("tap", function (ev) { if (ev.target === cy) select(null); });
    window.addEventListener("hashchange", function () {
      readHash(); if (!state.collapsed) state.collapsed = new Set(); syncChecks(); search.value = state.q; setView(state.view, true); setLabels(state.labels); buildLegend();
      rebuild(true); renderDetails(); showTab(state.tab);
      if ((state.cmp || null) !== (overlayFor || null)) applyComparison();
    });
  }

  load().then(function (res) {
    model = res[0] || {}; sysmlText = res[1] || ""; run = res[2] || {};
    candidates = arr(res[3]).filter(function (c) { return c && typeof c.id === "string"; });
    timings.data_ms = Math.round(performance.now() - t0);
    index();
    readHash();
    big = nodesById.size > BIG;
    if (!state.collapsed) state.collapsed = new Set(big && repoInfo.size > 1 && nodesById.size > COLLAPSE_ABOVE ? Array.from(repoInfo.keys()) : []);
    buildFacet("f-kind", "kind", facets.kind, state.xk);
    buildFacet("f-protocol", "protocol", facets.protocol, state.xp);
    buildFacet("f-repository", "repository", facets.repository, state.xr);
    buildFacet("f-language", "language", facets.language, state.xl);
    if (narrow.matches) document.getElementById("legend").classList.add("folded");
    buildLegend();
    cy = window.cy = cytoscape({
      container: document.getElementById("cy"),
      style: cyStyle(big),
      minZoom: 0.05, maxZoom: 3,
      hideEdgesOnViewport: big, textureOnViewport: big, motionBlur: false, pixelRatio: big ? 1 : "auto",
      selectionType: "single", boxSelectionEnabled: false
    });
    wire();
    fillCompareSelect();
    setupIssues();
    rebuild(true);
    timings.total_ms = Math.round(performance.now() - t0);
    timings.nodes = nodesById.size; timings.edges = edgesById.size; timings.ready = true;
    renderDetails();
    if (state.tab !== "graph") showTab(state.tab);
    else if (state.sel) { /* nothing else: selection already restored */ }
    applyFilters(false);
    root.dataset.ready = "true";
    window.explorer = { state: state, visibleNodeIds: function () { return Array.from(visibleNodes); }, select: select, showTab: showTab, timings: timings,
      overlay: function () { return overlay; }, candidates: function () { return candidates.slice(); } };
    if (state.cmp) applyComparison();
  }).catch(function (err) {
    setStatus("Could not load the model: " + (err && err.message ? err.message : err));
    root.dataset.ready = "error";
  });
})();
