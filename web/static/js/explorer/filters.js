/* The sidebar and the strips around the graph: the search, the facet checkboxes (kind, protocol,
   repository, language), the focus controls, the focus label, the legend and the status line.
   The controls change the state through the store's actions; the graph applies them and says
   what is visible (the "visible" event), which the focus label and the status line show. */
import { changeCounts, compareLegendItems, comparisonLabel } from "./overlay.js";
import { facetParts } from "./data.js";
import { tally } from "./drill.js";
import { parsePortKey, portsView } from "./ports.js";
import { RM, childrenOf, clear, edgesById, el, excludedOf, facets, focusOn, nodesById, on, openNow, overlay, setFacetAll, setFacetValue, setFocusScope, setSearch, setStatus, state, str, timings } from "./state.js";

/** The focus label and the status line, for what the filters leave visible (`v`: nodes, edges). */
export function updateStatus(v) {
  document.getElementById("focus-label").textContent = state.focus && nodesById.has(state.focus)
    ? "Focused on " + str(nodesById.get(state.focus).name || state.focus) + " (" + state.hops + " hop" + (state.hops > 1 ? "s" : "") + ", " + ({ both: "both ways", up: "upstream", down: "downstream" })[state.dir] + ")"
    : "";
  var all = tally(Array.from(nodesById.keys()), Array.from(edgesById.keys())), seen = tally(v.nodes, v.edges); // the one counting rule (drill.js)
  var parts = [seen.components + " of " + all.components + " components", seen.connections + " of " + all.connections + " connections"];
  if (all.subsystems) parts.splice(1, 0, all.subsystems + (all.subsystems === 1 ? " subsystem" : " subsystems") + " (" + (openNow.size ? openNow.size + " open" : "double-click a component to open it") + ")");
  if (all.databases) parts.splice(parts.length - 1, 0, all.databases + (all.databases === 1 ? " database" : " databases") + " inside servers");
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

export function buildFacet(containerId, key, map) {
  var box = document.getElementById(containerId);
  clear(box);
  var entries = Array.from(map.entries()).sort(function (a, b) { return a[0] < b[0] ? -1 : 1; });
  var h2 = box.parentElement.querySelector("h2");
  var title = h2.textContent;
  if (!h2.querySelector(".facet-actions")) {
    h2.appendChild(el("span", { class: "facet-actions" },
      el("button", { type: "button", class: "linkbtn", "aria-label": "all " + title.toLowerCase() + ": show every one", onclick: function () { setFacetAll(key, []); syncChecks(); }, text: "all" }),
      el("button", { type: "button", class: "linkbtn", "aria-label": "none of the " + title.toLowerCase() + ": hide every one", onclick: function () { setFacetAll(key, entries.map(function (e) { return e[0]; })); syncChecks(); }, text: "none" })));
  }
  entries.forEach(function (entry) {
    var value = entry[0], none = value === "(none)" ? NONE_TEXT[key] : null, inside = facetParts[key].get(value) || 0;
    var cb = el("input", { type: "checkbox", dataset: { facet: key, value: value } });
    cb.checked = !excludedOf(key).has(value);
    cb.addEventListener("change", function () { setFacetValue(key, value, cb.checked); });
    var sw = null;
    if (key === "kind") sw = kindSwatch(value);
    if (key === "protocol") sw = RM.protocolSwatch(value);
    box.appendChild(el("label", { title: none ? none[1] : value }, cb, sw,
      el("span", { class: "txt" + (none ? " none" : ""), text: none ? none[0] : value }), entry[1] || !inside ? el("span", { class: "n", text: entry[1], "aria-label": entry[1] + " " + (key === "protocol" ? "connections" : "components") }) : null,
      inside ? el("span", { class: "n parts", text: "+" + inside, title: inside + (key === "protocol" ? " links inside components" : " inside components (subsystems, databases)"),
        "aria-label": inside + (key === "protocol" ? " links inside components" : " inside components") }) : null));
  });
}

export function syncChecks() {
  document.querySelectorAll(".facet input[type=checkbox]").forEach(function (cb) { cb.checked = !excludedOf(cb.dataset.facet).has(cb.dataset.value); });
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
    timer = setTimeout(function () { setSearch(search.value); }, 120);
  });
  var dirSel = document.getElementById("focus-dir"), hopsSel = document.getElementById("focus-hops");
  dirSel.value = state.dir; hopsSel.value = String(state.hops);
  function focusChanged() { setFocusScope(dirSel.value, parseInt(hopsSel.value, 10)); }
  dirSel.addEventListener("change", focusChanged); hopsSel.addEventListener("change", focusChanged);
  document.getElementById("focus-btn").addEventListener("click", function () {
    var sel = state.sel || "";
    var id = sel.slice(0, 2) === "n:" ? sel.slice(2) : sel.slice(0, 2) === "p:" ? parsePortKey(sel.slice(2)).node : null;
    if (!id) { setStatus("Select a component first, then focus on it."); return; }
    focusOn(id);
  });
  document.getElementById("focus-clear").addEventListener("click", function () { focusOn(null); });
  on("visible", updateStatus);
  // the legend takes a strip of the graph's pane: rebuilt before the graph lays out
  on("view", function (ev) { if (!ev.quiet) buildLegend(); });
  on("overlay", function () { buildLegend(); });
}
