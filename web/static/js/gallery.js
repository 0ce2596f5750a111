/* Gallery: client-side filter for the cards (reads only data attributes rendered, escaped, by
   Jinja) and a tiny diagram preview per card drawn from the sketch embedded in the card (the
   same on the live server and in a published site opened from file://), with DOM calls only
   (no markup is ever parsed from model strings). */
"use strict";
(function () {
  var input = document.getElementById("gallery-search");
  var cards = Array.prototype.slice.call(document.querySelectorAll(".card"));
  var none = document.getElementById("gallery-none");
  var count = document.getElementById("gallery-count");
  function apply() {
    var terms = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    cards.forEach(function (card) {
      var text = card.getAttribute("data-search") || "";
      var ok = terms.every(function (t) { return text.indexOf(t) >= 0; });
      card.classList.toggle("hidden", !ok);
      if (ok) shown++;
    });
    count.textContent = String(shown);
    none.classList.toggle("hidden", shown > 0 || cards.length === 0);
  }
  if (input) { input.addEventListener("input", apply); apply(); }

  // ---------------------------------------------------------------- previews
  var NS = "http://www.w3.org/2000/svg";
  function svgEl(tag, attrs) {
    var node = document.createElementNS(NS, tag);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    return node;
  }
  /** Layered left-to-right sketch: rank = longest call path from a component nobody calls.
      `sketch` is {kinds: [kind per component], edges: [[from, to, protocol]]} (by index),
      rendered into the card by the server or the publisher (repomodeler/serve/preview.py). */
  function draw(box, sketch) {
    var kinds = Array.isArray(sketch.kinds) ? sketch.kinds.map(String) : [];
    var n = kinds.length;
    var edges = (Array.isArray(sketch.edges) ? sketch.edges : []).filter(function (e) {
      return Array.isArray(e) && e[0] >= 0 && e[0] < n && e[1] >= 0 && e[1] < n && e[0] !== e[1];
    });
    if (!n) { box.classList.add("empty-preview"); return; }
    var rank = [];
    for (var i = 0; i < n; i++) rank.push(0);
    for (var pass = 0; pass < 8; pass++) {
      var moved = false;
      edges.forEach(function (e) {
        var r = Math.min(rank[e[0]] + 1, 8);
        if (rank[e[1]] < r) { rank[e[1]] = r; moved = true; }
      });
      if (!moved) break;
    }
    var cols = [];
    rank.forEach(function (r, id) { (cols[r] = cols[r] || []).push(id); });
    cols = cols.filter(Boolean);
    var W = 280, H = 84, pos = [], nw = 22, nh = 9;
    var dx = cols.length > 1 ? (W - 2 * nw) / (cols.length - 1) : 0;
    cols.forEach(function (col, ci) {
      var dy = H / (col.length + 1);
      col.forEach(function (id, ri) { pos[id] = { x: nw + ci * dx + (cols.length > 1 ? 0 : W / 2 - nw), y: dy * (ri + 1) }; });
    });
    var svg = svgEl("svg", { viewBox: "0 0 " + W + " " + H, width: "100%", height: H, focusable: "false" });
    edges.forEach(function (e) {
      var a = pos[e[0]], b = pos[e[1]], st = window.RM.protocolStyle(String(e[2] || ""));
      var line = svgEl("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: st.color, "stroke-width": 1.2, "stroke-opacity": 0.8 });
      if (st.dash) line.setAttribute("stroke-dasharray", st.dash.map(function (d) { return d / 2; }).join(" "));
      svg.appendChild(line);
    });
    kinds.forEach(function (kind, id) {
      var p = pos[id], k = window.RM.kindStyle(kind);
      svg.appendChild(svgEl("rect", { x: p.x - nw / 2, y: p.y - nh / 2, width: nw, height: nh, rx: 2.5, fill: k.color, stroke: k.border, "stroke-width": 1.2 }));
    });
    box.appendChild(svg);
    box.classList.add("drawn");
  }
  if (!window.RM) return;
  cards.forEach(function (card) {
    var box = card.querySelector(".preview");
    if (!box) return;
    var sketch = null;
    try { sketch = JSON.parse(box.getAttribute("data-sketch") || "null"); } catch (e) { sketch = null; }
    if (!sketch || typeof sketch !== "object") { box.remove(); return; }
    draw(box, sketch);
    box.dataset.state = "done";
  });
})();
