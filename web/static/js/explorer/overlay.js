/* Comparison helpers: Cytoscape styles for added / removed / changed elements, what a change
   points at, the counts, the Changes panel and the comparison's sections of the details panel
   (repomodeler/overlay@1; the overlay shown is the store's). Its strings reach the DOM only
   through textContent (RM.el). compare.js is the view that fetches and shows an overlay. */
import { arr, candidates, clear, el, ghostEdges, ghostNodes, overlay, overlayFor, select, str } from "./state.js";
import { edgeLabel, kindBadge, kv, nodeLink, protoBadge } from "./ui.js";

export const COLORS = { added: "#16a34a", removed: "#dc2626", changed: "#d97706" };

export const SOFT = { added: "#f0fdf4", removed: "#fef2f2", changed: "#fffbeb" };

export const MARK = { added: "+", removed: "\u2212", changed: "~" };

export const STATUSES = ["added", "removed", "changed"];

export const SELECT_DARK = "#0f172a";

export function isStatus(s) { return STATUSES.indexOf(s) >= 0; }

/** Styles appended after the kind/protocol rules so they win over them. */
export function overlayStyles() {
  return [
    { selector: "node.ov-added", style: {
      "background-color": SOFT.added, "background-opacity": 1, "border-style": "dashed", "border-width": 2.5,
      "border-color": COLORS.added, "color": "#166534", "font-weight": "bold" } },
    { selector: "node.ov-removed", style: {
      "border-color": COLORS.removed, "border-width": 3.5, "background-opacity": 0.35, "color": "#7f1d1d",
      "underlay-color": COLORS.removed, "underlay-opacity": 0.14, "underlay-padding": 5 } },
    { selector: "node.ov-changed", style: {
      "border-color": COLORS.changed, "border-width": 3.5,
      "underlay-color": COLORS.changed, "underlay-opacity": 0.2, "underlay-padding": 5 } },
    { selector: "edge.ov-added", style: {
      "line-color": COLORS.added, "target-arrow-color": COLORS.added, "line-style": "dashed",
      "line-dash-pattern": [7, 4], "width": 2.6, "opacity": 1 } },
    { selector: "edge.ov-removed", style: {
      "line-color": COLORS.removed, "target-arrow-color": COLORS.removed, "line-style": "solid", "width": 2.6, "opacity": 1 } },
    { selector: "edge.ov-changed", style: {
      "line-color": COLORS.changed, "target-arrow-color": COLORS.changed, "line-style": "solid", "width": 3, "opacity": 1 } },
    { selector: "edge.ov-added[label], edge.ov-changed[label], edge.ov-removed[label]", style: {
      "font-size": 10.5, "font-weight": "bold", "text-background-opacity": 0.95 } },
    { selector: "edge.ov-added[label]", style: { "color": "#166534" } },
    { selector: "edge.ov-changed[label]", style: { "color": "#92400e" } },
    { selector: "edge.ov-removed[label]", style: { "color": "#991b1b" } }
  ];
}

/** While comparing, amber means "changed", so selection turns into a dark halo that keeps the
    element's own status colour visible. */
export function selectionStyles(comparing) {
  if (!comparing) {
    return [
      { selector: "node:selected", style: { "border-width": 4, "border-color": "#f59e0b", "underlay-color": "#f59e0b", "underlay-opacity": 0.25, "underlay-padding": 6 } },
      { selector: "edge:selected", style: { "width": 4, "line-color": "#f59e0b", "target-arrow-color": "#f59e0b", "z-index": 99 } }
    ];
  }
  var out = [
    { selector: "node:selected", style: { "border-width": 4, "border-color": SELECT_DARK, "underlay-color": SELECT_DARK, "underlay-opacity": 0.16, "underlay-padding": 7 } },
    { selector: "edge:selected", style: { "width": 4.5, "line-color": SELECT_DARK, "target-arrow-color": SELECT_DARK, "z-index": 99, "underlay-color": SELECT_DARK, "underlay-opacity": 0.12, "underlay-padding": 4 } }
  ];
  STATUSES.forEach(function (s) {
    out.push({ selector: "node.ov-" + s + ":selected", style: { "border-color": COLORS[s], "border-width": 4.5 } });
    out.push({ selector: "edge.ov-" + s + ":selected", style: { "line-color": COLORS[s], "target-arrow-color": COLORS[s], "width": 5 } });
  });
  return out;
}

/** The selection key ("n:<id>" / "e:<id>") a change points at in the graph. */
export function changeSelection(change) {
  var element = str(change.element), id = str(change.id);
  if (element === "component") return "n:" + id;
  if (element === "connection") return "e:" + id;
  return "n:" + str(change.component || id.split(".")[0]);
}

/** Class of an aggregated edge from its members' statuses: one status if they agree, else changed. */
export function aggregateStatus(statuses) {
  var seen = statuses.filter(isStatus);
  if (!seen.length) return "";
  return seen.every(function (s) { return s === seen[0]; }) ? seen[0] : "changed";
}

export function changeCounts(changes) {
  var c = { added: 0, removed: 0, changed: 0 };
  arr(changes).forEach(function (ch) { if (isStatus(ch.status)) c[ch.status]++; });
  return c;
}

/** Text for a changed connection's edge label: "http → grpc". */
export function changeFieldLabel(change) {
  return arr(change.changes).map(function (f) { return str(f.old || "(none)") + " \u2192 " + str(f.new || "(none)"); }).join(", ");
}

export function changePill(status) {
  var p = el("span", { class: "ov-pill ov-" + status, text: MARK[status] + " " + status });
  return p;
}

/** Fill the Changes panel. `pick(change)` selects the change's element in the graph; `onFold`
    runs after the list is folded or unfolded (the graph above it changes size). */
export function renderChangesPanel(box, overlay, candidate, pick, onFold) {
  clear(box);
  var changes = arr(overlay.changes), c = changeCounts(changes);
  var head = el("div", { class: "changes-head" },
    el("h3", { text: "Changes" }),
    el("span", { class: "muted", text: changes.length ? String(changes.length) : "" }),
    el("span", { class: "changes-against" }, "against ",
      el("strong", { text: str(candidate && candidate.label || overlay.compare) }),
      candidate && candidate.detail ? el("span", { class: "muted", text: " · " + str(candidate.detail) }) : null),
    el("span", { class: "changes-counts" },
      STATUSES.map(function (s) { return c[s] ? el("span", { class: "ov-count ov-" + s, text: MARK[s] + c[s] + " " + s }) : null; })),
    el("button", { class: "btn ghost small", type: "button", id: "changes-fold", title: "Fold or unfold the list", text: "\u25be",
      onclick: function () {
        box.classList.toggle("folded");
        if (box.parentElement) box.parentElement.classList.toggle("changes-folded", box.classList.contains("folded"));
        if (onFold) onFold();
      } }));
  box.appendChild(head);
  var list = el("ul", { class: "changes-list", id: "changes-list" });
  if (!changes.length) list.appendChild(el("li", { class: "hint", text: "No differences: this model matches " + str(candidate && candidate.label || overlay.compare) + "." }));
  changes.forEach(function (change) {
    var sel = changeSelection(change);
    var li = el("li", { class: "change ov-" + str(change.status), dataset: { sel: sel, status: str(change.status), element: str(change.element) }, tabindex: "0", title: str(change.where) },
      changePill(str(change.status)), el("span", { class: "change-text", text: str(change.text) }),
      change.where ? el("span", { class: "change-where", text: str(change.where) }) : null);
    li.addEventListener("click", function () { pick(change); });
    li.addEventListener("keydown", function (ev) { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(change); } });
    list.appendChild(li);
  });
  box.appendChild(list);
  var notes = arr(overlay.notes);
  if (notes.length) {
    var ul = el("ul", { class: "changes-notes" });
    notes.forEach(function (n) { ul.appendChild(el("li", { text: "note: " + str(n) })); });
    box.appendChild(ul);
  }
}

/** Mark the panel rows that point at the current selection. */
export function markChangeSelected(box, sel) {
  box.querySelectorAll(".change").forEach(function (li) { li.classList.toggle("sel", !!sel && li.dataset.sel === sel); });
}

export function compareLegendItems() {
  return STATUSES.map(function (s) {
    var sw = el("span", { class: "swatch ov-swatch ov-" + s });
    var title = { added: "only in the comparison: drawn as a ghost", removed: "only in this model", changed: "in both, but different" }[s];
    return el("span", { class: "item", title: title }, sw, s);
  });
}

// ---- comparison
export function comparisonLabel() {
  var c = candidates.filter(function (x) { return x.id === overlayFor; })[0];
  return str(c ? c.label : overlay && overlay.compare);
}

/** "a->b:proto" -> its two ends (ids may contain ':' but the protocol never does). */
export function connectionEnds(id) {
  var at = id.indexOf("->"), rest = id.slice(at + 2), colon = rest.lastIndexOf(":");
  return { source: id.slice(0, at), target: colon < 0 ? rest : rest.slice(0, colon) };
}

/** The overlay's changes that concern node `id` (its own, its ports', its connections') or edge `id`. */
export function changesAbout(kind, id) {
  if (!overlay) return [];
  return arr(overlay.changes).filter(function (c) {
    if (!c) return false;
    if (kind === "e:") return c.element === "connection" && (str(c.id) === id || str(c.new_id) === id);
    if (c.element === "connection") { var ends = connectionEnds(str(c.id)); return ends.source === id || ends.target === id; }
    return str(c.component) === id || (c.element === "component" && str(c.id) === id);
  });
}

export function comparisonSection(box, list) {
  if (!overlay) return;
  box.appendChild(el("h3", { text: "Compared with " + comparisonLabel() }));
  if (!list.length) { box.appendChild(el("p", { class: "hint", text: "No change here." })); return; }
  var ul = el("ul", { class: "list ov-list" });
  list.forEach(function (c) {
    var target = changeSelection(c);
    ul.appendChild(el("li", null, changePill(str(c.status)), " ",
      el("a", { text: str(c.text), onclick: function () { select(target, { center: true }); } })));
  });
  box.appendChild(ul);
}

export function renderGhost(box, element, id) {
  var ghost = element === "component" ? ghostNodes.get(id) : ghostEdges.get(id);
  var change = arr(overlay.changes).filter(function (c) { return c.element === element && str(c.id) === id; })[0] || {};
  box.appendChild(el("h2", { text: element === "component" ? id : edgeLabel(ghost), id: "details-title" }));
  box.appendChild(el("div", { class: "sub" }, changePill("added"),
    element === "component" ? kindBadge(str(ghost.kind)) : protoBadge(str(ghost.protocol)),
    el("span", { text: "only in " + comparisonLabel() })));
  var rows = element === "component" ? [["id", id], ["kind", str(ghost.kind)]]
    : [["id", id], ["from", nodeLink(str(ghost.source))], ["to", nodeLink(str(ghost.target))], ["protocol", str(ghost.protocol)]];
  rows.push(["declared at", str(change.where)]);
  box.appendChild(kv(rows));
  box.appendChild(el("p", { class: "hint", text: "Not found by analysis: this " + element + " is what the comparison adds. It is drawn dashed until it exists." }));
  if (element === "component") comparisonSection(box, changesAbout("n:", id));
}
