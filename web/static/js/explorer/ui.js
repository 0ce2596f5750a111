/* Small DOM pieces the details panel, the comparison and the lists share: a key/value table,
   a link that selects a component, the badges of a kind and a protocol. Text reaches the DOM
   only through textContent (RM.el). */
import { RM, el, nodesById, select, setStatus, str } from "./state.js";

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

/** "Copy link": the page's URL, which names the selection (and the view), to the clipboard; where
    the clipboard is refused (a file:// page), the link appears selected in a box to copy by hand. */
export function copyLinkButton() {
  var btn = el("button", { class: "btn ghost small", type: "button", id: "btn-copy-link", text: "Copy link", title: "Copy a link to this selection" });
  btn.addEventListener("click", function () {
    var url = location.href;
    function manual() {
      var box = el("input", { class: "copy-box", type: "text", readonly: "readonly", value: url, "aria-label": "Link to this selection" });
      btn.replaceWith(box);
      box.focus(); box.select();
      setStatus("Press Ctrl+C (Cmd+C) to copy the link.");
    }
    if (!navigator.clipboard || !navigator.clipboard.writeText) { manual(); return; }
    navigator.clipboard.writeText(url).then(function () {
      btn.textContent = "Link copied"; btn.dataset.copied = url;
      setStatus("Link to this selection copied.");
    }, manual);
  });
  return btn;
}
