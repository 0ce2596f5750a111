/* Serialise the visible Cytoscape graph to standalone SVG using node positions and edge
   endpoints. Written here (not vendored) to keep the dependency list short; all text is
   XML-escaped. */
"use strict";
(function (global) {
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function num(v) { return (Math.round(v * 10) / 10).toString(); }
  function polygon(cx, cy, w, h, sides, rot) {
    var pts = [];
    for (var i = 0; i < sides; i++) {
      var a = rot + (2 * Math.PI * i) / sides;
      pts.push(num(cx + (w / 2) * Math.cos(a)) + "," + num(cy + (h / 2) * Math.sin(a)));
    }
    return pts.join(" ");
  }
  function shapeSvg(kind, x, y, w, h, fill, stroke, extra) {
    var attrs = ' fill="' + esc(fill) + '" stroke="' + esc(stroke) + '" stroke-width="1.5"' + (extra || "");
    var left = x - w / 2, top = y - h / 2;
    switch (kind) {
      case "ellipse": return '<ellipse cx="' + num(x) + '" cy="' + num(y) + '" rx="' + num(w / 2) + '" ry="' + num(h / 2) + '"' + attrs + "/>";
      case "diamond": return '<polygon points="' + polygon(x, y, w, h, 4, -Math.PI / 2) + '"' + attrs + "/>";
      case "hexagon": return '<polygon points="' + polygon(x, y, w, h, 6, 0) + '"' + attrs + "/>";
      case "pentagon": return '<polygon points="' + polygon(x, y, w, h, 5, -Math.PI / 2) + '"' + attrs + "/>";
      case "octagon": return '<polygon points="' + polygon(x, y, w, h, 8, Math.PI / 8) + '"' + attrs + "/>";
      case "barrel": return '<rect x="' + num(left) + '" y="' + num(top) + '" width="' + num(w) + '" height="' + num(h) + '" rx="' + num(w / 6) + '" ry="' + num(h / 3) + '"' + attrs + "/>";
      default: return '<rect x="' + num(left) + '" y="' + num(top) + '" width="' + num(w) + '" height="' + num(h) + '" rx="6"' + attrs + "/>";
    }
  }

  /** "added" / "removed" / "changed" when a comparison overlay marks the element, else "". */
  function ovStatus(ele) {
    var s = ["added", "removed", "changed"];
    for (var i = 0; i < s.length; i++) if (ele.hasClass("ov-" + s[i])) return s[i];
    return "";
  }
  var OV = { added: "#16a34a", removed: "#dc2626", changed: "#d97706" };

  /** Line colour and dash of an edge: the comparison status wins over the protocol's style. */
  function edgeLook(RM, e) {
    var status = ovStatus(e);
    if (status) return { color: OV[status], dash: status === "added" ? ' stroke-dasharray="7 4"' : "", width: "2.6" };
    var st = RM.protocolStyle(e.data("protocol"));
    return { color: st.color, dash: st.dash ? ' stroke-dasharray="' + st.dash.join(" ") + '"' : "", width: "2" };
  }

  /** The legend's rows: `meta.kinds` and `meta.protocols` ({name, color, border, dash}) laid out in
      lines at most `width` wide; each item {kind|protocol, x, y}. Shared by the SVG and the PNG. */
  function legendLayout(meta, width) {
    var items = [], x = 0, y = 0, lineH = 20;
    function add(type, it, label) {
      var w = 34 + label.length * 7.2;
      if (x > 0 && x + w > width) { x = 0; y += lineH; }
      items.push({ type: type, it: it, label: label, x: x, y: y });
      x += w;
    }
    (meta.kinds || []).forEach(function (k) { add("kind", k, k.name); });
    if (x > 0) { x = 0; y += lineH; }
    (meta.protocols || []).forEach(function (p) { add("protocol", p, p.name); });
    return { items: items, height: items.length ? y + lineH : 0 };
  }

  /** Title, commits and legend around a picture `w` wide: {head, legend} heights and the legend rows. */
  function frameLayout(meta, w) {
    var width = Math.max(w, 420);
    return { width: width, head: meta ? 30 + 16 * Math.max(1, (meta.commits || []).length) + 8 : 0, legend: meta ? legendLayout(meta, width - 20) : { items: [], height: 0 } };
  }

  /** Build the SVG text for the currently visible elements of `cy` (with any comparison colours);
      `meta` ({title, commits, kinds, protocols}) adds the title and commits above the graph and
      the legend of what is drawn below it. */
  function toSvg(cy, meta) {
    var RM = global.RM;
    var visible = cy.elements(":visible");
    var bb = visible.boundingBox({});
    if (!isFinite(bb.x1)) bb = { x1: 0, y1: 0, w: 100, h: 100 };
    var pad = 20, frame = frameLayout(meta, bb.w + 2 * pad);
    var left = bb.x1 - pad, top = bb.y1 - pad - frame.head, W = Math.max(bb.w + 2 * pad, frame.width);
    var H = bb.h + 2 * pad + frame.head + (frame.legend.height ? frame.legend.height + 16 : 0);
    var out = [];
    out.push('<svg xmlns="http://www.w3.org/2000/svg" viewBox="' + [num(left), num(top), num(W), num(H)].join(" ") +
      '" width="' + num(W) + '" height="' + num(H) + '" font-family="sans-serif">');
    var colors = {};
    visible.edges().forEach(function (e) { colors[edgeLook(RM, e).color] = true; });
    out.push("<defs>");
    Object.keys(colors).forEach(function (c, i) {
      out.push('<marker id="arrow' + i + '" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="' + esc(c) + '"/></marker>');
      colors[c] = "arrow" + i;
    });
    out.push("</defs>");
    out.push('<rect x="' + num(left) + '" y="' + num(top) + '" width="' + num(W) + '" height="' + num(H) + '" fill="#ffffff"/>');
    if (meta) {
      out.push('<g class="frame-head"><text x="' + num(left + 10) + '" y="' + num(top + 24) + '" font-size="18" font-weight="bold" fill="#0f172a">' + esc(meta.title) + "</text>");
      (meta.commits || []).forEach(function (c, i) {
        out.push('<text x="' + num(left + 10) + '" y="' + num(top + 44 + i * 16) + '" font-size="12" fill="#334155">' + esc(c) + "</text>");
      });
      out.push("</g>");
    }
    // compound (repository) boxes first so they sit behind their members
    visible.nodes().filter(function (n) { return n.isParent(); }).forEach(function (n) {
      var b = n.boundingBox({ includeLabels: false });
      out.push('<rect x="' + num(b.x1) + '" y="' + num(b.y1) + '" width="' + num(b.w) + '" height="' + num(b.h) + '" rx="10" fill="#f1f4f9" stroke="#c7cfdb" stroke-width="1.5"/>');
      out.push('<text x="' + num(b.x1 + 8) + '" y="' + num(b.y1 - 6) + '" font-size="13" font-weight="bold" fill="#334155">' + esc(n.data("label")) + "</text>");
    });
    visible.edges().forEach(function (e) {
      var s = e.sourceEndpoint(), t = e.targetEndpoint();
      var look = edgeLook(RM, e);
      var bends = e.style("curve-style") === "taxi" ? (e.segmentPoints() || []) : [];
      if (bends.length) { // a connection that turns (the ports view): the same path as on screen
        var pts = [s].concat(bends, [t]).map(function (q) { return num(q.x) + "," + num(q.y); }).join(" ");
        out.push('<polyline points="' + pts + '" fill="none" stroke="' + esc(look.color) + '" stroke-width="' + look.width + '"' + look.dash + ' marker-end="url(#' + colors[look.color] + ')"/>');
      } else {
        out.push('<line x1="' + num(s.x) + '" y1="' + num(s.y) + '" x2="' + num(t.x) + '" y2="' + num(t.y) + '" stroke="' + esc(look.color) + '" stroke-width="' + look.width + '"' + look.dash + ' marker-end="url(#' + colors[look.color] + ')"/>');
      }
      if (e.data("label")) {
        out.push('<text x="' + num((s.x + t.x) / 2) + '" y="' + num((s.y + t.y) / 2 - 3) + '" font-size="10" text-anchor="middle" fill="#475569">' + esc(e.data("label")) + "</text>");
      }
    });
    visible.nodes().filter(function (n) { return !n.isParent(); }).forEach(function (n) {
      var p = n.position(), w = n.width(), h = n.height();
      if (n.data("type") === "port") { // ports view: a small square on the part's border, its name beside it
        var implied = n.hasClass("implied"), colour = RM.protocolStyle(n.data("protocol")).color;
        out.push('<rect x="' + num(p.x - w / 2) + '" y="' + num(p.y - h / 2) + '" width="' + num(w) + '" height="' + num(h) + '" fill="' +
          esc(implied ? "#ffffff" : colour) + '" stroke="' + esc(implied ? colour : "#0f172a") + '" stroke-width="2"' + (implied ? ' stroke-dasharray="3 2"' : "") + "/>");
        var top = n.data("side") === "top"; // the name inside the part: under the square, or right of it
        out.push('<text x="' + num(top ? p.x : p.x + w / 2 + 4) + '" y="' + num(top ? p.y + h / 2 + 13 : p.y + 4) + '" font-size="11" text-anchor="' + (top ? "middle" : "start") +
          '" fill="#0f172a">' + esc(n.data("label")) + "</text>");
        return;
      }
      var collapsed = n.data("type") === "repo";
      var ks = collapsed ? { color: "#e2e8f0", border: "#475569", svg: "rect" } : RM.kindStyle(n.data("kind"));
      var status = ovStatus(n), fill = ks.color, stroke = ks.border, extra = "", text = "#0f172a";
      if (status === "added") { fill = "#f0fdf4"; stroke = OV.added; extra = ' stroke-dasharray="6 3" stroke-width="2.5"'; text = "#166534"; }
      else if (status === "removed") { stroke = OV.removed; extra = ' fill-opacity="0.35" stroke-width="3"'; text = "#7f1d1d"; }
      else if (status === "changed") { stroke = OV.changed; extra = ' stroke-width="3"'; }
      out.push(shapeSvg(ks.svg, p.x, p.y, w, h, fill, stroke, extra).replace(/ stroke-width="1.5"(?=[^>]* stroke-width=)/, ""));
      var lines = String(n.data("label")).split("\n"), lh = 16, y0 = p.y + 5 - (lines.length - 1) * lh / 2 + (n.data("tmy") || 0), tx = p.x + (n.data("tmx") || 0);
      lines.forEach(function (line, i) {
        out.push('<text x="' + num(tx) + '" y="' + num(y0 + i * lh) + '" font-size="13" text-anchor="middle" fill="' + text + '">' + esc(line) + "</text>");
      });
    });
    if (meta && frame.legend.items.length) {
      var ly = bb.y2 + pad + 14;
      out.push('<g class="legend">');
      frame.legend.items.forEach(function (item) {
        var x = left + 10 + item.x, y = ly + item.y;
        if (item.type === "kind") out.push('<rect x="' + num(x) + '" y="' + num(y) + '" width="22" height="12" rx="3" fill="' + esc(item.it.color) + '" stroke="' + esc(item.it.border) + '" stroke-width="1.5"/>');
        else out.push('<line x1="' + num(x) + '" y1="' + num(y + 6) + '" x2="' + num(x + 22) + '" y2="' + num(y + 6) + '" stroke="' + esc(item.it.color) + '" stroke-width="2.5"' + (item.it.dash ? ' stroke-dasharray="' + esc(item.it.dash.join(" ")) + '"' : "") + "/>");
        out.push('<text x="' + num(x + 28) + '" y="' + num(y + 11) + '" font-size="12" fill="#0f172a">' + esc(item.label) + "</text>");
      });
      out.push("</g>");
    }
    out.push("</svg>");
    return out.join("\n");
  }

  /** The PNG of the graph (`graphDataUri`, cy.png at `scale`) framed like the SVG: title and
      commits above, the legend below, on `bg`. Resolves to a Blob. */
  function framePng(graphDataUri, meta, scale, bg, ink) {
    return new Promise(function (resolve, reject) {
      var img = new Image();
      img.onload = function () {
        var frame = frameLayout(meta, img.width / scale), legendH = frame.legend.height ? frame.legend.height + 16 : 0;
        var W = Math.max(img.width, frame.width * scale), H = img.height + (frame.head + legendH) * scale;
        var canvas = document.createElement("canvas");
        canvas.width = Math.ceil(W); canvas.height = Math.ceil(H);
        var ctx = canvas.getContext("2d");
        ctx.fillStyle = bg; ctx.fillRect(0, 0, W, H);
        ctx.scale(scale, scale);
        ctx.fillStyle = ink.text; ctx.font = "bold 18px sans-serif"; ctx.fillText(meta.title, 10, 24);
        ctx.fillStyle = ink.muted; ctx.font = "12px sans-serif";
        (meta.commits || []).forEach(function (c, i) { ctx.fillText(c, 10, 44 + i * 16); });
        ctx.drawImage(img, 0, frame.head, img.width / scale, img.height / scale);
        var ly = frame.head + img.height / scale + 14;
        frame.legend.items.forEach(function (item) {
          var x = 10 + item.x, y = ly + item.y;
          ctx.lineWidth = item.type === "kind" ? 1.5 : 2.5;
          if (item.type === "kind") { ctx.fillStyle = item.it.color; ctx.strokeStyle = item.it.border; ctx.fillRect(x, y, 22, 12); ctx.strokeRect(x, y, 22, 12); }
          else { ctx.strokeStyle = item.it.color; ctx.setLineDash(item.it.dash || []); ctx.beginPath(); ctx.moveTo(x, y + 6); ctx.lineTo(x + 22, y + 6); ctx.stroke(); ctx.setLineDash([]); }
          ctx.fillStyle = ink.text; ctx.font = "12px sans-serif"; ctx.fillText(item.label, x + 28, y + 11);
        });
        canvas.toBlob(function (blob) { if (blob) resolve(blob); else reject(new Error("PNG could not be made")); }, "image/png");
      };
      img.onerror = function () { reject(new Error("PNG could not be made")); };
      img.src = graphDataUri;
    });
  }

  global.SvgExport = { toSvg: toSvg, framePng: framePng, escape: esc };
})(window);
