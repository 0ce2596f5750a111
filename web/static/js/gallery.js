/* Gallery: client-side filter for the cards (reads only data attributes rendered, escaped, by
   Jinja) and, on the live server, a tiny diagram preview per card drawn from the model's JSON
   with DOM calls only (no markup is ever parsed from model strings). */
"use strict";
(function () {
  var input = document.getElementById("gallery-search");
  var cards = Array.prototype.slice.call(document.querySelectorAll(".card"));
  var none = document.getElementById("gallery-none");
  var count = document.getElementById("gallery-count");
  var gallery = document.getElementById("gallery");
  var PREVIEW_MAX = 400; // bigger models are not worth fetching for a thumbnail
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
  /** Layered left-to-right sketch: rank = longest call path from a component nobody calls. */
  function draw(box, model) {
    var nodes = (Array.isArray(model.nodes) ? model.nodes : []).filter(function (n) { return n && n.id !== undefined; });
    var ids = new Map();
    nodes.forEach(function (n) { ids.set(String(n.id), n); });
    var edges = (Array.isArray(model.edges) ? model.edges : []).filter(function (e) {
      return e && ids.has(String(e.source)) && ids.has(String(e.target)) && String(e.source) !== String(e.target);
    });
    if (!nodes.length) { box.classList.add("empty-preview"); return; }
    var rank = new Map();
    nodes.forEach(function (n) { rank.set(String(n.id), 0); });
    for (var pass = 0; pass < 8; pass++) {
      var moved = false;
      edges.forEach(function (e) {
        var s = String(e.source), t = String(e.target), r = Math.min(rank.get(s) + 1, 8);
        if (rank.get(t) < r) { rank.set(t, r); moved = true; }
      });
      if (!moved) break;
    }
    var cols = [];
    nodes.forEach(function (n) { var r = rank.get(String(n.id)); (cols[r] = cols[r] || []).push(String(n.id)); });
    cols = cols.filter(Boolean);
    var W = 280, H = 84, pos = new Map(), nw = 22, nh = 9;
    var dx = cols.length > 1 ? (W - 2 * nw) / (cols.length - 1) : 0;
    cols.forEach(function (col, ci) {
      var dy = H / (col.length + 1);
      col.forEach(function (id, ri) { pos.set(id, { x: nw + ci * dx + (cols.length > 1 ? 0 : W / 2 - nw), y: dy * (ri + 1) }); });
    });
    var svg = svgEl("svg", { viewBox: "0 0 " + W + " " + H, width: "100%", height: H, focusable: "false" });
    edges.forEach(function (e) {
      var a = pos.get(String(e.source)), b = pos.get(String(e.target)), st = window.RM.protocolStyle(String(e.protocol || ""));
      var line = svgEl("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: st.color, "stroke-width": 1.2, "stroke-opacity": 0.8 });
      if (st.dash) line.setAttribute("stroke-dasharray", st.dash.map(function (d) { return d / 2; }).join(" "));
      svg.appendChild(line);
    });
    nodes.forEach(function (n) {
      var p = pos.get(String(n.id)), k = window.RM.kindStyle(String(n.kind || ""));
      svg.appendChild(svgEl("rect", { x: p.x - nw / 2, y: p.y - nh / 2, width: nw, height: nh, rx: 2.5, fill: k.color, stroke: k.border, "stroke-width": 1.2 }));
    });
    box.appendChild(svg);
    box.classList.add("drawn");
  }
  function load(card) {
    var box = card.querySelector(".preview");
    if (!box || box.dataset.state) return;
    box.dataset.state = "loading";
    fetch("/api/models/" + encodeURIComponent(card.dataset.name)).then(function (r) {
      if (!r.ok) throw new Error(String(r.status));
      return r.json();
    }).then(function (model) { draw(box, model || {}); box.dataset.state = "done"; })
      .catch(function () { box.dataset.state = "failed"; box.classList.add("empty-preview"); });
  }
  var live = gallery && gallery.dataset.mode === "server" && window.RM && window.fetch;
  cards.forEach(function (card) {
    var box = card.querySelector(".preview");
    if (!box) return;
    if (!live || parseInt(card.dataset.components || "0", 10) > PREVIEW_MAX) { box.remove(); }
  });
  if (!live) return;
  var pending = cards.filter(function (c) { return c.querySelector(".preview"); });
  if ("IntersectionObserver" in window) {
    var io = new IntersectionObserver(function (entries) {
      entries.forEach(function (en) { if (en.isIntersecting) { io.unobserve(en.target); load(en.target); } });
    }, { rootMargin: "200px" });
    pending.forEach(function (c) { io.observe(c); });
  } else pending.forEach(load);
})();
