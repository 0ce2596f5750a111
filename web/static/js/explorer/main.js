/* The explorer's entry module: load the model, build the sidebar and the graph, wire the toolbar
   and the graph's events, and publish window.cy / window.explorer for the browser tests.
   Loaded with <script type="module"> from the server; a published site gets every module joined
   into one classic script (repomodeler/serve/bundle.py), since file:// pages cannot load modules. */
import { applyComparison, fillCompareSelect, wireCompare } from "./compare.js";
import { index, load } from "./data.js";
import { renderDetails, wireDetails } from "./details.js";
import { buildFacet, buildLegend, syncChecks, wireFilters } from "./filters.js";
import { applyVisibility, fitGraph, layout, rebuild, updateLabelNote, wireGraph } from "./graph.js";
import { cyStyle, darkScheme } from "./graphstyle.js";
import { neighbourIn, wireKeyboard } from "./keyboard.js";
import { followPorts } from "./ports.js";
import { BIG, COLLAPSE_ABOVE, RM, arr, emit, model, lastHash, noteHash, candidates, childrenOf, collapseAll, cy, edgesById, facets, nodesById, on, overlay, overlayFor, readHash, repoInfo, root, select, setCy, setLabels, setLoaded, setStatus, setView, showTab, state, t0, timings, toggleOpen, toggleRepo, visibleNodes, writeHash } from "./state.js";
import { narrow, openDrawer, setupIssues, showPane, wireDrawers, wireTabs } from "./views.js";

// ---- wiring
/** Subscribe the views to the store and wire the toolbar and the graph's events. The order of
    subscription is the order views react to one event: the Changes panel and the legend (they
    take room from the canvas) before the graph lays out, the graph before the details (which
    read what it built: open components, the elements on the canvas), the lists last. */
export function wire() {
  wireCompare();
  wireFilters();
  wireGraph();
  wireDetails();
  wireTabs();
  wireDrawers();
  wireViewSwitch();
  wireKeyboard(function () {
    openDrawer("details");
    var title = document.getElementById("details-title");
    if (title) { title.tabIndex = -1; title.focus({ preventScroll: false }); }
  }, function () { openDrawer("filters"); });
  document.getElementById("btn-labels").addEventListener("click", function () { setLabels(!state.labels); });
  if (state.labels) setLabels(true);
  document.getElementById("btn-fit").addEventListener("click", function () { fitGraph(); });
  document.getElementById("btn-layout").addEventListener("click", function () { layout(); });
  document.getElementById("btn-collapse").addEventListener("click", function () { collapseAll(true); });
  document.getElementById("btn-expand").addEventListener("click", function () { collapseAll(false); });
  var fname = (root.dataset.name || "model").replace(/[^A-Za-z0-9._-]/g, "_");
  document.getElementById("btn-png").addEventListener("click", function () {
    var dark = darkScheme(), bg = dark ? "#0f172a" : "#ffffff";
    SvgExport.framePng(cy.png({ full: true, scale: 2, bg: bg, output: "base64uri" }), exportMeta(), 2, bg,
      dark ? { text: "#f1f5f9", muted: "#cbd5e1" } : { text: "#0f172a", muted: "#334155" })
      .then(function (blob) { RM.download(fname + ".png", blob); }, function (err) { setStatus(String(err && err.message || err)); });
  });
  document.getElementById("btn-svg").addEventListener("click", function () {
    RM.download(fname + ".svg", SvgExport.toSvg(cy, exportMeta()), "image/svg+xml");
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
  cy.on("zoom", updateLabelNote);
  document.getElementById("btn-as-list").addEventListener("click", function () { showTab("list"); document.getElementById("tab-list").focus(); });
  cy.on("dbltap", "node[type = 'repo']", function (ev) { toggleRepo(ev.target.data("repository")); });
  cy.on("dbltap", "node[type = 'node']", function (ev) { if (childrenOf.has(ev.target.data("mid"))) toggleOpen(ev.target.data("mid")); });
  cy.on("tap", function (ev) { if (ev.target === cy) select(null); });
  window.addEventListener("hashchange", followUrl);
  window.addEventListener("popstate", followUrl);
}

/** The URL changed under the page (Back, Forward, an edited or pasted link): show what it says.
    A step that only changes the selection moves nothing else. */
function followUrl() {
  if (location.hash === lastHash) return;
  var before = JSON.stringify(urlState());
  readHash(); if (!state.collapsed) state.collapsed = new Set();
  noteHash();
  if (JSON.stringify(urlState()) === before) { emit("select", { sel: state.sel, opts: {} }); return; }
  syncChecks(); document.getElementById("search").value = state.q; setView(state.view, true); setLabels(state.labels); buildLegend();
  rebuild("keep"); renderDetails(); showPane();
  if ((state.cmp || null) !== (overlayFor || null)) applyComparison();
  writeHash();
}

/** The state the URL holds, without the selection. */
function urlState() {
  var out = {};
  Object.keys(state).forEach(function (k) { if (k !== "sel") out[k] = state[k] instanceof Set ? Array.from(state[k]).sort() : state[k]; });
  return out;
}

/** What an exported picture says besides the graph: the system's name, each repository at its
    commit, and the legend of the kinds and protocols drawn. */
function exportMeta() {
  var kinds = new Set(), protocols = new Set();
  cy.nodes(":visible").forEach(function (n) { if (n.data("type") === "node") kinds.add(String(n.data("kind") || "")); });
  cy.edges(":visible").forEach(function (e) { if (e.data("protocol")) protocols.add(String(e.data("protocol"))); });
  var title = document.getElementById("model-title").textContent.trim() || root.dataset.name || "model";
  return {
    title: title + (state.view === "ports" ? " (ports)" : ""),
    commits: arr(model.repositories).map(function (r) { return r && r.name !== undefined ? String(r.name) + " @ " + (r.commit ? String(r.commit) : "(no commit)") : ""; }).filter(Boolean),
    kinds: Array.from(kinds).sort().map(function (k) { var st = RM.kindStyle(k); return { name: k || "component", color: st.color, border: st.border }; }),
    protocols: Array.from(protocols).sort().map(function (p) { var st = RM.protocolStyle(p); return { name: p, color: st.color, dash: st.dash }; })
  };
}

/** The Components | Ports switch, and ports that follow their part when it is dragged. */
function wireViewSwitch() {
  on("view", function () {
    ["components", "ports"].forEach(function (v) {
      document.getElementById("view-" + v).setAttribute("aria-pressed", state.view === v ? "true" : "false");
    });
  });
  document.getElementById("view-components").addEventListener("click", function () { if (state.view !== "components") setView("components"); });
  document.getElementById("view-ports").addEventListener("click", function () { if (state.view !== "ports") setView("ports"); });
  setView(state.view, true);
  followPorts(cy);
}

load().then(function (res) {
  setLoaded(res[0] || {}, res[1] || "", res[2] || {}, arr(res[3]).filter(function (c) { return c && typeof c.id === "string"; }), res[4] || {});
  timings.data_ms = Math.round(performance.now() - t0);
  index();
  readHash();
  var isBig = nodesById.size > BIG;
  if (!state.collapsed) state.collapsed = new Set(isBig && repoInfo.size > 1 && nodesById.size > COLLAPSE_ABOVE ? Array.from(repoInfo.keys()) : []);
  buildFacet("f-kind", "kind", facets.kind);
  buildFacet("f-protocol", "protocol", facets.protocol);
  buildFacet("f-repository", "repository", facets.repository);
  buildFacet("f-language", "language", facets.language);
  if (narrow.matches) document.getElementById("legend").classList.add("folded");
  buildLegend();
  setCy(cytoscape({
    container: document.getElementById("cy"),
    style: cyStyle(isBig),
    minZoom: 0.05, maxZoom: 3,
    hideEdgesOnViewport: isBig, textureOnViewport: isBig, motionBlur: false, pixelRatio: isBig ? 1 : "auto",
    selectionType: "single", boxSelectionEnabled: false
  }), isBig);
  window.cy = cy;
  wire();
  fillCompareSelect();
  setupIssues();
  rebuild(true);
  timings.total_ms = Math.round(performance.now() - t0);
  timings.nodes = nodesById.size; timings.edges = edgesById.size; timings.ready = true;
  renderDetails();
  if (state.tab !== "graph") showPane();
  applyVisibility(false);
  writeHash();
  root.dataset.ready = "true";
  window.explorer = { state: state, visibleNodeIds: function () { return Array.from(visibleNodes); }, select: select, showTab: showTab, timings: timings,
    overlay: function () { return overlay; }, candidates: function () { return candidates.slice(); }, toggleOpen: toggleOpen,
    // where an arrow key leads from the component `id` (the browser tests plan key paths with it)
    arrowFrom: function (id, key) { var n = neighbourIn(cy.getElementById("n:" + id), key); return n ? n.data("mid") : null; } };
  if (state.cmp) applyComparison();
}).catch(function (err) {
  setStatus("Could not load the model: " + (err && err.message ? err.message : err));
  root.dataset.ready = "error";
});
