/* The store: what every part of the explorer shares (the page's settings, the model and its
   indexes, the view state kept in the URL, the comparison shown, the Cytoscape instance), the
   events that say what changed, and the named actions that change it.

   The modules form layers and import only downwards, never in a circle (tests/test_viewer_modules.py):
   this store at the bottom; helpers above it (compact, drill, data, ports, ui, overlay, visible,
   graphstyle) that compute, draw DOM fragments or Cytoscape styles, and call no view; the views
   (graph, details, filters, compare, views) that import only the store and helpers, change the
   state through the actions below and learn about a change by subscribing to its event; main.js
   subscribes them and wires the page. Listeners run in the order they subscribed (main.js puts
   the panels that take room from the canvas first, then the graph, then the details, which read
   what the graph built).

   A module changes a shared binding through the setters here (an imported binding is read-only
   elsewhere). Model strings only ever reach the DOM through textContent (RM.el) or Cytoscape's
   canvas labels. */

export const RM = window.RM, el = RM.el, clear = RM.clear;
export const root = document.getElementById("explorer");
export const MODE = root.dataset.mode, API = root.dataset.api, FILES = root.dataset.files;
export const BIG = 300;            // above this many components, skip dagre and use the linear block layout
export const RELAYOUT_MAX = 150;   // filter changes re-run the layout up to this many visible components
export const COLLAPSE_ABOVE = 5000; // above this many components, start with repositories collapsed
export const SNIPPETS_AUTO = 5;    // evidence snippets loaded without a click
export const t0 = performance.now();
export const timings = (window.__timings = { ready: false });
const statusEl = document.getElementById("status");

// the model as loaded, and its indexes (filled once by data.js index())
export let model = {}, sysmlText = "", run = {}, nesting = {};
export const nodesById = new Map(), edgesById = new Map(), repoInfo = new Map();
export const nodeText = new Map(), edgeText = new Map();
export const facets = { kind: new Map(), protocol: new Map(), repository: new Map(), language: new Map() };
/** Node id -> {top, depth, ancestors (outermost first)}: where repomodeler.model.nesting places it
    (the server's /nesting, or the published data file); filled by data.js index(). */
export const placeOf = new Map();
/** Holder id -> ids of the nodes directly inside it (from placeOf; filled by data.js index()). */
export const childrenOf = new Map();
// the view, mirrored in the URL (readHash / writeHash)
export const state = { q: "", xk: new Set(), xp: new Set(), xr: new Set(), xl: new Set(), focus: null, hops: 2, dir: "both", sel: null, tab: "graph", collapsed: new Set(), cmp: null, labels: false, view: "components", open: new Set() };
export let cy = null, big = false;
/** The components open in the graph as built now (state.open, plus those a search opens; drill.js). */
export let openNow = new Set();
/** The components the filters leave (graph.js applyVisibility). */
export let visibleNodes = new Set();
// comparison: the candidates offered, the overlay shown and its candidate, and what it adds to the graph
export let candidates = [];
export let overlay = null, overlayFor = null;
export const ghostNodes = new Map(), ghostEdges = new Map(), connectionChange = new Map();

export function setLoaded(m, text, r, cands, places) { model = m; sysmlText = text; run = r; candidates = cands; nesting = places || {}; }
export function setCy(instance, isBig) { cy = instance; big = isBig; }
export function setOpenNow(set) { openNow = set; }
export function setVisibleNodes(set) { visibleNodes = set; }

export function arr(v) { return Array.isArray(v) ? v : []; }
export function str(v) { return v === null || v === undefined ? "" : String(v); }
export function bump(map, key) { map.set(key, (map.get(key) || 0) + 1); }
export function setStatus(text) { statusEl.textContent = text; }

// ---- events
const listeners = new Map();

/** Call `fn(payload)` after every `emit(event, payload)`. */
export function on(event, fn) {
  if (!listeners.has(event)) listeners.set(event, []);
  listeners.get(event).push(fn);
}

export function emit(event, payload) {
  (listeners.get(event) || []).slice().forEach(function (fn) { fn(payload || {}); });
}

/* The events:
   select {sel, opts}  the selection changed (state.sel)
   filters {relayout}  search, facets or focus changed: the graph applies them (false | true | "auto")
   visible {nodes, edges}  the graph applied the filters: what is visible now
   open, collapse      a component opened or closed, repositories collapsed or expanded: rebuild
   view {quiet}        Components or Ports view (quiet: only the switch's buttons follow)
   labels              connection labels on or off
   tab                 the Graph, Components or SysML tab shown (state.tab)
   compare             the comparison asked for changed (state.cmp): fetch its overlay
   overlay {id}        a comparison shown or removed (overlay, ghosts)
   fit                 the canvas changed size: resize and fit the graph */

// ---- URL state
export function readHash() {
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
  state.open = set("open");
  state.cmp = p.get("cmp") || null;
}

/** The hash last written or read: a history step back to it needs no work (popstate and
    hashchange may both report one step). */
export let lastHash = null;
export function noteHash() { lastHash = location.hash; }

/** Keep the URL in step with the state: replace the current history entry, or (`push`) add one,
    so that Back undoes the change (a selection). */
export function writeHash(push) {
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
  put("open", state.open);
  if (state.cmp) p.set("cmp", state.cmp);
  var hash = p.toString(), url = hash ? "#" + hash : location.pathname + location.search;
  if (push && ("#" + hash) !== location.hash && !(hash === "" && !location.hash)) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
  lastHash = location.hash;
}

// ---- actions: change the state, say so, keep the URL in step
/** Select "n:<node>", "e:<edge>", "p:<port>", "r:<repository>", "a:<aggregate>" or nothing (null).
    opts.center pans the graph to it; opts.scrollSysml === false keeps the SysML text where it is. */
export function select(sel, opts) {
  var changed = (state.sel || null) !== (sel || null);
  state.sel = sel;
  emit("select", { sel: sel, opts: opts || {} });
  writeHash(changed && !(opts && opts.replace));
}

/** After the search, a facet or the focus changed: `relayout` false, true or "auto" (when cheap). */
export function filtersChanged(relayout) {
  emit("filters", { relayout: relayout });
  writeHash();
}

export function setSearch(q) { state.q = q; filtersChanged("auto"); }

/** The values of facet `key` (kind, protocol, repository, language) the checkboxes hide. */
export function excludedOf(key) {
  return { kind: state.xk, protocol: state.xp, repository: state.xr, language: state.xl }[key];
}

/** Show (`shown`) or hide one value of facet `key`. */
export function setFacetValue(key, value, shown) {
  if (shown) excludedOf(key).delete(value); else excludedOf(key).add(value);
  filtersChanged("auto");
}

/** Show every value of facet `key` (`values` empty) or hide all of `values`. */
export function setFacetAll(key, values) {
  if (!values.length) excludedOf(key).clear();
  values.forEach(function (v) { excludedOf(key).add(v); });
  filtersChanged("auto");
}

export function focusOn(id) { state.focus = id; filtersChanged(true); }

export function setFocusScope(dir, hops) {
  state.dir = dir; state.hops = hops;
  if (state.focus) filtersChanged(true);
}

/** Open or close component `id` (its subsystems drawn inside it). */
export function toggleOpen(id) {
  if (state.open.has(id)) state.open.delete(id); else state.open.add(id);
  emit("open", { id: id });
  writeHash();
}

/** Collapse or expand repository `name`. */
export function toggleRepo(name) {
  if (state.collapsed.has(name)) state.collapsed.delete(name); else state.collapsed.add(name);
  emit("collapse", { name: name });
  writeHash();
}

/** Collapse every repository (`all` true) or expand every one. */
export function collapseAll(all) {
  if (all) repoInfo.forEach(function (_, r) { state.collapsed.add(r); }); else state.collapsed.clear();
  emit("collapse", { all: all });
  writeHash();
}

/** Components view or ports view (parts with their API ports, links ending on the provider's port). */
export function setView(view, quiet) {
  state.view = view === "ports" ? "ports" : "components";
  emit("view", { quiet: !!quiet });
  if (!quiet) writeHash();
}

export function setLabels(on) {
  state.labels = on;
  emit("labels", { on: on });
  writeHash();
}

export function showTab(tab) {
  state.tab = tab;
  emit("tab", { tab: tab });
  writeHash();
}

/** The canvas changed size (a drawer, the Changes panel folded): resize and fit the graph. */
export function refit() { emit("fit"); }

/** Compare with candidate `id` (null: stop comparing); compare.js fetches its overlay. */
export function compareWith(id) {
  state.cmp = id || null;
  emit("compare");
}

/** Show overlay `ov` of candidate `id` (null: stop comparing): its ghosts join the graph. */
export function setOverlay(ov, id) {
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
  emit("overlay", { id: overlayFor });
  root.dataset.compared = overlay ? id : "";
  writeHash();
}
