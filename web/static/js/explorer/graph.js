/* The graph: the elements (repositories as compound boxes, collapsed repositories with
   aggregated connections, the comparison's ghosts, the ports view's ports), what the filters
   leave visible, dagre or the linear block layout, fitting, the selection on the canvas, the
   hover tooltip and edge labels. It follows the store's events (wireGraph) and, after applying
   the filters, says what is visible ("visible"). */
import { STATUSES, aggregateStatus, changeFieldLabel } from "./overlay.js";
import { ancestorsOf, displayName, isSubsystem, parentOf, refinedKeys, sameSet, shownAs, topOf, wantedOpen } from "./drill.js";
import { betterLayout, compactRanks } from "./compact.js";
import { LABEL_FONT, cyStyle, labelBox } from "./graphstyle.js";
import { kindDef, parsePortKey, partSize, placePorts, portLabel, portLabelWidth, portName, portSummary, ports, portsView, sizeParts } from "./ports.js";
import { homes, keptPositions, placeInPlace } from "./place.js";
import { computeVisible, passesFacets, visibleGhosts } from "./visible.js";
import { BIG, RELAYOUT_MAX, RM, big, bump, childrenOf, clear, connectionChange, cy, edgesById, el, emit, ghostEdges, ghostNodes, nodesById, on, openNow, overlay, repoInfo, setOpenNow, setVisibleNodes, state, str, timings, visibleNodes } from "./state.js";

/** The element standing for node `nodeId`: its collapsed repository, its closed component (a
    subsystem), or itself. */
export function repOf(nodeId) {
  var n = nodesById.get(nodeId);
  if (!n) return "n:" + nodeId; // a ghost: only in the comparison, never inside a repository box
  var top = nodesById.get(topOf(nodeId)) || n, repo = str(top.repository);
  return repo && state.collapsed.has(repo) ? "r:" + repo : "n:" + shownAs(nodeId);
}

export function buildElements() {
  var els = [], counts = new Map();
  nodesById.forEach(function (n, id) { if (!isSubsystem(id)) bump(counts, str(n.repository)); });
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
    if (shownAs(id) !== id) return; // inside a closed component
    var inside = parentOf(id), parent = inside ? "n:" + inside : repo ? "r:" + repo : undefined;
    var box = labelBox(displayName(id)), label = box.label, cls = ovClass(overlay && overlay.nodes, id);
    if (openNow.has(id)) cls = (cls + " open").trim();
    else if (childrenOf.has(id)) cls = (cls + " has-inside").trim();
    if (withPorts) { // a SysML part: "name : Kind", sized for its ports
      var list = pi.ports.get(id) || [];
      label += "\n: " + kindDef(str(n.kind));
      box = partSize({ w: Math.max(box.w, labelBox(": " + kindDef(str(n.kind))).w), h: box.h }, list.map(portLabel));
      cls = (cls + " part").trim();
      list.forEach(function (port, order) {
        els.push({ group: "nodes", grabbable: false, classes: port.implied ? "implied" : "", data: { id: port.key, type: "port", part: "n:" + id, parent: parent,
          label: portLabel(port), lw: portLabelWidth(portLabel(port)), name: port.name, protocol: port.protocol, color: RM.protocolStyle(port.protocol).color, order: order, side: "left", mid: id } });
      });
    }
    els.push({ group: "nodes", data: { id: "n:" + id, parent: parent, type: "node", label: label, name: str(n.name || id), w: box.w, h: box.h, shiftX: box.shiftX, shiftY: box.shiftY, sizeLeft: box.left, sizeTop: box.top, kind: str(n.kind), repository: repo, language: str(n.language), mid: id }, classes: cls });
  });
  ghostNodes.forEach(function (g, id) {
    var box = labelBox(id);
    els.push({ group: "nodes", data: { id: "n:" + id, type: "node", ghost: true, label: box.label, name: id, w: box.w, h: box.h, kind: str(g.kind), repository: "", language: "", mid: id }, classes: "ghost ov-added" });
  });
  var agg = new Map(), direct = new Set(), rerouted = [];
  var refined = openNow.size ? refinedKeys(edgesById, shownAs) : null;
  edgesById.forEach(function (e, id) {
    var from = str(e.source), to = str(e.target), asIs = shownAs(from) === from && shownAs(to) === to;
    // an open component's connection that its subsystems' connections show in detail
    if (refined && asIs && (openNow.has(from) || openNow.has(to)) && refined.has(from + ">" + to + ":" + str(e.protocol))) return;
    var s = repOf(from), t = repOf(to);
    if (asIs && s[0] === "n" && t[0] === "n") {
      direct.add(s + ">" + t + ":" + str(e.protocol));
      var port = withPorts ? pi.edgePort.get(id) : "";
      var d = { id: "e:" + id, source: s, target: port || t, type: "edge", protocol: str(e.protocol), plabel: str(e.protocol) || undefined, kind: str(e.kind), mid: id };
      var ch = connectionChange.get(id);
      if (ch && ch.status === "changed") d.label = d.plabel = changeFieldLabel(ch);
      els.push({ group: "edges", data: d, classes: ovClass(overlay && overlay.edges, id) });
      // the layout places parts, so it gets the part-to-part link (never drawn)
      if (port) els.push({ group: "edges", data: { id: "l:" + id, source: s, target: t, type: "lay", mid: id } });
      return;
    }
    rerouted.push([e, id, s, t]);
  });
  rerouted.forEach(function (r) {
    var e = r[0], id = r[1], s = r[2], t = r[3];
    if (s === t) return; // traffic inside a collapsed repository or a closed component
    if (direct.has(s + ">" + t + ":" + str(e.protocol))) return; // a subsystem's copy of its component's connection
    var key = s + "\u0000" + t + "\u0000" + str(e.protocol);
    if (!agg.has(key)) agg.set(key, { group: "edges", data: { id: "a:" + key, source: s, target: t, type: "agg", protocol: str(e.protocol), plabel: str(e.protocol) || undefined, kind: str(e.kind), members: [] } });
    agg.get(key).data.members.push(id);
  });
  agg.forEach(function (a) {
    a.data.label = a.data.members.length > 1 ? "×" + a.data.members.length : undefined;
    if (a.data.label && a.data.plabel) a.data.plabel += " " + a.data.label;
    if (!a.data.label) delete a.data.label;
    if (overlay) {
      var status = aggregateStatus(a.data.members.map(function (m) { return overlay.edges[m]; }));
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

export function ovClass(statuses, id) {
  var s = statuses ? statuses[id] : null;
  return STATUSES.indexOf(s) >= 0 ? "ov-" + s : "";
}

/** Build the graph's elements again (after opening, collapsing, a view or a comparison), apply
    the filters, lay out unless `runLayout` is false, keep the selection. `runLayout` "keep"
    leaves everything that was drawn where it was and places only what is new (place.js: the
    parts of a component opened in place, the comparison's ghosts); the zoom stays, the view
    pans just enough to show what was added. */
export function rebuild(runLayout) {
  var tb = performance.now(), kept = runLayout === "keep" && cy.nodes().length ? keptPositions() : null;
  setOpenNow(wantedOpen(passesFacets));
  cy.batch(function () {
    cy.elements().remove();
    cy.add(buildElements());
  });
  timings.build_ms = Math.round(performance.now() - tb);
  applyVisibility(false, !!kept);
  var added = kept ? placeInPlace(kept) : null;
  if (added) { timings.layout = "kept"; showAdded(added); }
  else if (runLayout !== false) layout();
  restoreSelection();
}

/** Pan (never zoom in, and zoom out only when it must) so that `eles` are on screen. */
function showAdded(eles) {
  eles = eles.union(eles.ancestors().filter(function (x) { return x.data("type") === "node"; })).filter(function (x) { return !x.hasClass("hidden"); });
  if (!eles.length) return;
  var bb = eles.boundingBox(), z = cy.zoom(), pan = cy.pan(), w = cy.width(), h = cy.height();
  var r = { x1: bb.x1 * z + pan.x, x2: bb.x2 * z + pan.x, y1: bb.y1 * z + pan.y, y2: bb.y2 * z + pan.y };
  if (r.x2 - r.x1 > w - 2 * FIT_PAD || r.y2 - r.y1 > h - 2 * FIT_PAD) { // too large at this zoom: zoom out just enough
    cy.fit(eles, FIT_PAD);
    if (cy.zoom() > z) { cy.zoom(z); cy.center(eles); }
    updateLabelNote();
    return;
  }
  var dx = r.x1 < FIT_PAD ? FIT_PAD - r.x1 : r.x2 > w - FIT_PAD ? w - FIT_PAD - r.x2 : 0;
  var dy = r.y1 < FIT_PAD ? FIT_PAD - r.y1 : r.y2 > h - FIT_PAD ? h - FIT_PAD - r.y2 : 0;
  if (dx || dy) cy.panBy({ x: dx, y: dy });
}

/** Hide what the filters leave out (the class `hidden`), then say what is visible; `relayout`
    true lays the graph out again, "auto" when that is cheap (else fits it). */
export function applyVisibility(relayout, inRebuild) {
  // a search that finds a subsystem opens its component (and closes it when the search changes)
  if (!inRebuild && childrenOf.size && !sameSet(wantedOpen(passesFacets), openNow)) { rebuild(relayout === false ? "keep" : true); return; }
  var v = computeVisible();
  setVisibleNodes(v.nodes);
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
  emit("visible", v);
  if (relayout === true) layout();
  else if (relayout === "auto") reflow();
}

/** After the user narrows or widens the graph: lay out again when that is cheap, else just fit. */
export function reflow() {
  if (visibleNodes.size <= RELAYOUT_MAX) layout();
  else fitGraph();
}

/** Linear-time layout for big graphs: each repository is a block; inside it, nodes are
    placed in columns by their depth along calls within the repository; blocks are packed in
    rows whose width is chosen so the whole picture roughly matches the viewport's shape. */
export function blockLayout(nodes) {
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

/** The elements the filters leave on screen. The filters hide with the class `hidden` (on the
    element itself, never only on its parent), so this is cy.elements(":visible") without making
    Cytoscape compute every element's style to decide it (a second on 2,000 components). */
export function shownElements() {
  return cy.elements().filter(function (x) { return !x.hasClass("hidden") && x.data("type") !== "lay"; });
}

/** What the layout places: the visible parts and repositories and the links between them; in
    the ports view the ports follow their part (placePorts) and the layout gets the hidden
    part-to-part links instead of the links that end on ports. */
export function layoutTargets() {
  var vis = shownElements();
  if (!portsView()) return vis;
  return vis.filter(function (x) { return x.data("type") !== "port" && !(x.isEdge() && x.target().data("type") === "port"); })
    .union(cy.edges("[type = 'lay']").filter(function (e) { return !e.hasClass("hidden") && !e.source().hasClass("hidden") && !e.target().hasClass("hidden"); }));
}

export function layout() {
  var tl = performance.now();
  homes.clear(); // a component closed after this goes back to where this layout puts it
  var targets = layoutTargets();
  var leafCount = targets.nodes().filter(function (n) { return !n.isParent(); }).length;
  var name;
  if (leafCount > BIG) {
    var positions = blockLayout(targets.nodes());
    timings.layout_compute_ms = Math.round(performance.now() - tl);
    cy.batch(function () {
      targets.nodes().forEach(function (n) { var p = positions[n.id()]; if (p) n.position(p); });
    });
    if (portsView()) placePorts(cy, "left");
    fitGraph();
    name = "blocks";
  } else {
    // left-to-right and top-to-bottom: keep the one the canvas shows at the larger zoom
    timings.compact_ms = 0;
    var best = null, targetNodes = targets.nodes(); // connections run between nodes: their box is the graph's, far cheaper
    // the ports view is read for its lines: the fewest lines across parts wins there, then the larger picture
    var readable = portsView() ? 0 : READABLE_PX / LABEL_FONT;
    ["LR", "TB"].forEach(function (dir) {
      var gap = 20, rankGap = dir === "LR" ? 56 : 36;
      if (portsView()) sizeParts(cy, dir === "TB" ? "top" : "left");
      targets.layout({ name: "dagre", rankDir: dir, nodeSep: gap, rankSep: rankGap, edgeSep: 10, fit: false, animate: false, nodeDimensionsIncludeLabels: false }).run();
      // squeeze out the room dagre keeps for long connections (compact.js)
      var tc = performance.now();
      var squeeze = compactRanks(targetNodes, targets.edges(), dir, gap, rankGap, zoomForSize, readable);
      timings.compact_ms = (timings.compact_ms || 0) + Math.round(performance.now() - tc);
      var z = squeeze.zoom, pos = {};
      if (betterLayout(squeeze, best, readable, 0.05)) {
        targets.nodes().forEach(function (n) { if (!n.isParent()) pos[n.id()] = { x: n.position("x"), y: n.position("y") }; });
        best = { zoom: z, cross: squeeze.cross, dir: dir, pos: pos, squeeze: squeeze.factor, fold: squeeze.fold };
      }
    });
    if (portsView() && best.dir !== "TB") sizeParts(cy, "left");
    if (best.dir !== "TB") cy.batch(function () { targets.nodes().forEach(function (n) { var q = best.pos[n.id()]; if (q) n.position(q); }); });
    if (portsView()) placePorts(cy, best.dir === "TB" ? "top" : "left");
    fitGraph();
    name = "dagre";
    timings.rank_dir = best.dir;
    timings.squeeze = best.squeeze;
    timings.fold = best.fold === Infinity ? 0 : best.fold;
    timings.crossings = best.cross;
  }
  timings.layout = name;
  timings.layout_ms = Math.round(performance.now() - tl);
}

export const FIT_PAD = 16, MAX_FIT_ZOOM = 1.3;

/** The zoom at which `eles` would fill the canvas (what cy.fit would choose, capped). */
export function fitZoom(eles) {
  var bb = eles.boundingBox();
  return zoomForSize(bb.w, bb.h);
}

/** The zoom at which a picture `bw` x `bh` would fill the canvas, capped at MAX_FIT_ZOOM. */
export function zoomForSize(bw, bh) {
  var w = cy.width() - 2 * FIT_PAD, h = cy.height() - 2 * FIT_PAD;
  if (!(bw > 0 && bh > 0 && w > 0 && h > 0)) return 1;
  return Math.min(MAX_FIT_ZOOM, w / bw, h / bh);
}

/** Fit `eles` into the canvas; a handful of nodes is not blown up past MAX_FIT_ZOOM. */
export function fitGraph(eles) {
  eles = eles || shownElements();
  if (!eles.length) return;
  // connections run between nodes, so the nodes' box is the graph's (and much cheaper to measure)
  if (eles.nodes().length) eles = eles.nodes();
  var height = cy.height();
  for (var i = 0; i < 2; i++) {
    cy.fit(eles, FIT_PAD);
    if (cy.zoom() > MAX_FIT_ZOOM) { cy.zoom(MAX_FIT_ZOOM); cy.center(eles); }
    updateLabelNote();
    if (cy.height() === height) break;
    height = cy.height(); // the note took (or gave back) a strip of the canvas: fit again
  }
}

/** The smallest size on screen, in px, at which a component's name counts as readable. */
export const READABLE_PX = 12;

/** Show the "labels are small" note (with its way to the Components list) while the graph's
    labels are drawn under READABLE_PX on screen, e.g. a dense graph fitted into a phone. */
export function updateLabelNote() {
  var note = document.getElementById("small-labels");
  if (!note || !cy) return false;
  var small = state.tab === "graph" && LABEL_FONT * cy.zoom() < READABLE_PX - 0.01 && shownElements().nodes().length > 0;
  if (small === !note.classList.contains("hidden")) return false;
  note.classList.toggle("hidden", !small);
  // the note takes a strip above the graph rather than covering part of it
  document.getElementById("cy").style.top = small ? note.offsetHeight + "px" : "";
  cy.resize();
  return true;
}

// ---- the selection on the canvas
/** The Cytoscape element that stands for selection `sel` (its repository while collapsed, its
    component while closed, the aggregate that carries a connection). */
export function cyElementFor(sel) {
  if (!sel || !cy) return null;
  var kind = sel.slice(0, 2), id = sel.slice(2);
  if (kind === "n:") {
    var n = cy.getElementById(sel);
    return n.nonempty() ? n : (nodesById.has(id) ? cy.getElementById(repOf(id)) : null);
  }
  if (kind === "e:") {
    var e = cy.getElementById(sel);
    if (e.nonempty()) return e;
    return cy.edges().filter(function (x) { return x.data("type") === "agg" && x.data("members").indexOf(id) >= 0; });
  }
  if (kind === "p:") {
    var port = cy.getElementById(sel);
    return port.nonempty() ? port : cyElementFor("n:" + parsePortKey(id).node);
  }
  if (kind === "r:" || kind === "a:") return cy.getElementById(sel);
  return null;
}

export function restoreSelection() { if (state.sel) { var e = cyElementFor(state.sel); if (e && e.nonempty()) e.select(); } }

/** Select on the canvas; a subsystem inside a closed component opens its component(s) first. */
function showSelection(ev) {
  var sel = ev.sel, opts = ev.opts;
  var inside = sel && sel.slice(0, 2) === "n:" && nodesById.has(sel.slice(2)) ? ancestorsOf(sel.slice(2)).filter(function (a) { return !openNow.has(a); }) : [];
  if (inside.length) { inside.forEach(function (a) { state.open.add(a); }); rebuild("keep"); }
  cy.elements(":selected").unselect();
  var ele = cyElementFor(sel);
  if (ele && ele.nonempty()) {
    ele.select();
    if (opts.center) cy.animate({ center: { eles: ele }, duration: 200 });
  }
}

function showLabels() {
  var b = document.getElementById("btn-labels");
  b.setAttribute("aria-pressed", state.labels ? "true" : "false");
  b.classList.toggle("on", state.labels);
  cy.style(cyStyle(big));
}

/** The graph follows the store: subscribed after the panels that take room from the canvas, before the details. */
export function wireGraph() {
  on("select", showSelection);
  on("filters", function (ev) { applyVisibility(ev.relayout); });
  on("open", function () { rebuild("keep"); });
  on("collapse", function () { rebuild(true); });
  on("view", function (ev) { if (!ev.quiet) { cy.style(cyStyle(big)); rebuild(true); } });
  on("labels", showLabels);
  // a comparison draws on the layout as it is; the Changes panel takes room, so the picture is fitted again
  on("overlay", function () { var h = cy.height(); cy.style(cyStyle(big)); cy.resize(); rebuild("keep"); if (cy.height() !== h) fitGraph(); });
  if (window.matchMedia) window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", function () { cy.style(cyStyle(big)); });
  on("fit", function () { cy.resize(); fitGraph(); });
  wireTooltip();
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
