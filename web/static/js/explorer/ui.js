/* Small DOM pieces the details panel, the comparison and the lists share: a key/value table,
   a link that selects a component, the badges of a kind and a protocol. Text reaches the DOM
   only through textContent (RM.el). */
import { RM, el, nodesById, select, str } from "./state.js";

export function kv(rows) {
  var table = el("table", { class: "kv" });
  rows.forEach(function (r) { if (r[1] !== undefined && r[1] !== null && r[1] !== "") table.appendChild(el("tr", null, el("td", { text: r[0] }), el("td", null, r[1]))); });
  return table;
}

export function attrRows(attrs) { return Object.keys(attrs || {}).sort().map(function (k) { return [k, str(attrs[k])]; }); }

export function nodeLink(id) {
  var n = nodesById.get(id);
  return el("a", { text: n ? str(n.name || id) : id, onclick: function () { select("n:" + id, { center: true }); } });
}

export function edgeLabel(e) { return str((nodesById.get(str(e.source)) || {}).name || e.source) + " → " + str((nodesById.get(str(e.target)) || {}).name || e.target); }

export function kindBadge(kind) { var b = el("span", { class: "badge", text: kind || "component" }); b.style.background = RM.kindStyle(kind).badge; return b; }

export function protoBadge(p) { var b = el("span", { class: "badge", text: p || "?" }); b.style.background = RM.protocolStyle(p).color; return b; }
