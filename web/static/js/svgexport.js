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

  /** Build the SVG text for the currently visible elements of `cy` (with any comparison colours). */
  function toSvg(cy) {
    var RM = global.RM;
    var visible = cy.elements(":visible");
    var bb = visible.boundingBox({});
    if (!isFinite(bb.x1)) bb = { x1: 0, y1: 0, w: 100, h: 100 };
    var pad = 20;
    var out = [];
    out.push('<svg xmlns="http://www.w3.org/2000/svg" viewBox="' + [num(bb.x1 - pad), num(bb.y1 - pad), num(bb.w + 2 * pad), num(bb.h + 2 * pad)].join(" ") +
      '" width="' + num(bb.w + 2 * pad) + '" height="' + num(bb.h + 2 * pad) + '" font-family="sans-serif">');
    var colors = {};
    visible.edges().forEach(function (e) { colors[edgeLook(RM, e).color] = true; });
    out.push("<defs>");
    Object.keys(colors).forEach(function (c, i) {
      out.push('<marker id="arrow' + i + '" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="' + esc(c) + '"/></marker>');
      colors[c] = "arrow" + i;
    });
    out.push("</defs>");
    out.push('<rect x="' + num(bb.x1 - pad) + '" y="' + num(bb.y1 - pad) + '" width="' + num(bb.w + 2 * pad) + '" height="' + num(bb.h + 2 * pad) + '" fill="#ffffff"/>');
    // compound (repository) boxes first so they sit behind their members
    visible.nodes().filter(function (n) { return n.isParent(); }).forEach(function (n) {
      var b = n.boundingBox({ includeLabels: false });
      out.push('<rect x="' + num(b.x1) + '" y="' + num(b.y1) + '" width="' + num(b.w) + '" height="' + num(b.h) + '" rx="10" fill="#f1f4f9" stroke="#c7cfdb" stroke-width="1.5"/>');
      out.push('<text x="' + num(b.x1 + 8) + '" y="' + num(b.y1 - 6) + '" font-size="13" font-weight="bold" fill="#334155">' + esc(n.data("label")) + "</text>");
    });
    visible.edges().forEach(function (e) {
      var s = e.sourceEndpoint(), t = e.targetEndpoint();
      var look = edgeLook(RM, e);
      out.push('<line x1="' + num(s.x) + '" y1="' + num(s.y) + '" x2="' + num(t.x) + '" y2="' + num(t.y) + '" stroke="' + esc(look.color) + '" stroke-width="' + look.width + '"' + look.dash + ' marker-end="url(#' + colors[look.color] + ')"/>');
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
        var top = n.data("side") === "top";
        out.push('<text x="' + num(top ? p.x + w / 2 + 3 : p.x - w / 2 - 3) + '" y="' + num(p.y - h / 2 - 3) + '" font-size="11" text-anchor="' + (top ? "start" : "end") +
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
      var lines = String(n.data("label")).split("\n"), lh = 16, y0 = p.y + 5 - (lines.length - 1) * lh / 2;
      lines.forEach(function (line, i) {
        out.push('<text x="' + num(p.x) + '" y="' + num(y0 + i * lh) + '" font-size="13" text-anchor="middle" fill="' + text + '">' + esc(line) + "</text>");
      });
    });
    out.push("</svg>");
    return out.join("\n");
  }

  global.SvgExport = { toSvg: toSvg, escape: esc };
})(window);
