/* Filters and focus: what the search, the facets (kind, protocol, repository, language) and the
   N-hop focus leave visible, the sidebar's checkboxes, the legend and the status line. */
import { changeCounts, compareLegendItems, comparisonLabel, overlay } from "./compare.js";
import { writeHash } from "./data.js";
import { portKey } from "./details.js";
import { ancestorsOf, childrenOf, isSubsystem, openNow, sameSet, wantedOpen } from "./drill.js";
import { fitGraph, layout, rebuild } from "./graph.js";
import { portsView } from "./ports.js";
import { RELAYOUT_MAX, RM, clear, cy, edgeText, edgesById, el, facets, ghostEdges, ghostNodes, nodeText, nodesById, setStatus, state, str, timings } from "./state.js";
import { renderList } from "./views.js";

export let visibleNodes = new Set(); // components the filters leave

// ---- filters and focus
/** Whether node `id` passes the kind, repository and language checkboxes. */
export function passesFacets(id) {
  var n = nodesById.get(id);
  return !!n && !(state.xk.has(str(n.kind) || "(none)") || state.xr.has(str(n.repository) || "(none)") || state.xl.has(str(n.language) || "(none)"));
}

export function computeVisible() {
  var base = new Set();
  nodesById.forEach(function (n, id) { if (passesFacets(id)) base.add(id); });
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
  if (childrenOf.size) { // an open component found shows what is inside; a subsystem found shows its component
    var found = Array.from(vis);
    found.forEach(function (id) {
      if (openNow.has(id)) (childrenOf.get(id) || []).forEach(function (k) { if (base.has(k)) vis.add(k); });
    });
    Array.from(vis).forEach(function (id) { ancestorsOf(id).forEach(function (a) { vis.add(a); }); });
  }
  var edges = new Set();
  edgesById.forEach(function (e, id) { if (edgeOk(e) && vis.has(str(e.source)) && vis.has(str(e.target))) edges.add(id); });
  return { nodes: vis, edges: edges };
}

export function applyFilters(relayoutIfNeeded) {
  // a search that finds a subsystem opens its component (and closes it when the search changes)
  if (childrenOf.size && !sameSet(wantedOpen(passesFacets), openNow)) { rebuild(true); return; }
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
export function visibleGhosts(visible) {
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
export function reflow() {
  if (visibleNodes.size <= RELAYOUT_MAX) layout();
  else fitGraph();
}

export function updateStatus(v) {
  var total = 0, shown = 0, subs = 0;
  nodesById.forEach(function (n, id) { if (isSubsystem(id)) subs++; else { total++; if (v.nodes.has(id)) shown++; } });
  var parts = [shown + " of " + total + " components", v.edges.size + " of " + edgesById.size + " connections"];
  if (subs) parts.splice(1, 0, subs + " subsystems (" + (openNow.size ? openNow.size + " open" : "double-click a component to open it") + ")");
  if (overlay) {
    var c = changeCounts(overlay.changes);
    parts.push("compared with " + comparisonLabel() + ": +" + c.added + " \u2212" + c.removed + " ~" + c.changed);
  }
  if (timings.total_ms !== undefined) parts.push("loaded in " + timings.total_ms + " ms (layout " + timings.layout + " " + timings.layout_ms + " ms)");
  setStatus(parts.join(" · "));
}

// ---- sidebar
/** What a "(none)" facet value stands for, in words. */
export const NONE_TEXT = {
  kind: ["no kind", "Components the analysis could not classify"],
  protocol: ["no protocol", "Connections whose protocol is unknown"],
  repository: ["outside the repositories", "Components found in no analysed repository: the users, external services and infrastructure the code talks to"],
  language: ["no language", "Components without source code of their own: databases, brokers, caches, external services, users"]
};

export function kindSwatch(kind) {
  var sw = el("span", { class: "swatch", "aria-hidden": "true" });
  sw.style.background = RM.kindStyle(kind).color; sw.style.borderColor = RM.kindStyle(kind).border;
  return sw;
}

export function buildFacet(containerId, key, map, excluded) {
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

export function syncChecks() {
  var sets = { kind: state.xk, protocol: state.xp, repository: state.xr, language: state.xl };
  document.querySelectorAll(".facet input[type=checkbox]").forEach(function (cb) { cb.checked = !sets[cb.dataset.facet].has(cb.dataset.value); });
}

export function buildLegend() {
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
  if (childrenOf.size) {
    var dg = el("div", { class: "legend-group" }, el("h3", { text: "Inside components" }));
    dg.appendChild(el("span", { class: "item", title: "Double-click the component (or use Show subsystems in its details) to draw its subsystems inside it" },
      el("span", { class: "swatch inside-swatch", "aria-hidden": "true" }), "double border: has subsystems, double-click to open"));
    box.appendChild(dg);
  }
  if (portsView()) {
    var pg = el("div", { class: "legend-group" }, el("h3", { text: "Ports (on the part's border)" }));
    pg.appendChild(el("span", { class: "item", title: "An API the component provides, with the number of endpoints found" }, el("span", { class: "swatch port-swatch", "aria-hidden": "true" }), "provided port · endpoints"));
    pg.appendChild(el("span", { class: "item", title: "Connections arrive over this protocol but no endpoints were found; model.sysml declares the port" }, el("span", { class: "swatch port-swatch implied", "aria-hidden": "true" }), "implied port"));
    box.appendChild(pg);
  }
  if (overlay) {
    var cmp = el("div", { class: "legend-group" }, el("h3", { text: "Comparison" }));
    compareLegendItems().forEach(function (item) { cmp.appendChild(item); });
    box.appendChild(cmp);
  }
}

/** The search box (debounced) and the focus controls. */
export function wireFilters() {
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
}
