/* How the graph looks: the Cytoscape styles (kinds, protocols, the ports view, the comparison,
   the selection) and component labels measured in the page's font, wrapped to fit a box. */
import { overlayStyles, selectionStyles } from "./overlay.js";
import { portStyles, portsView } from "./ports.js";
import { RM, overlay, state } from "./state.js";

export const LABEL_FONT = 14, LABEL_MAX = 176, LABEL_WORD_MAX = 230, NODE_MIN_W = 84, NODE_PAD_X = 24, LINE_H = 17;

export function cyStyle(big) {
  var style = [
    { selector: "node", style: {
      "label": "data(label)", "font-family": labelFont(), "font-size": LABEL_FONT, "font-weight": 600, "color": "#0f172a", "text-valign": "center", "text-halign": "center",
      "text-wrap": "wrap", "text-max-width": 1000, "line-height": 1.2, "width": 132, "height": 38, "border-width": 2,
      "background-color": "#f1f5f9", "border-color": "#334155", "shape": "round-rectangle",
      "min-zoomed-font-size": big ? 7 : 0 } },
    { selector: "node[w]", style: { "width": "data(w)", "height": "data(h)" } },
    { selector: "node[type = 'repo']", style: {
      "shape": "round-rectangle", "background-color": "#eef2f8", "background-opacity": 0.9, "border-color": "#94a3b8",
      "border-width": 1.5, "label": "data(label)", "color": "#1e293b", "font-weight": "bold",
      "text-valign": "top", "text-halign": "center", "text-margin-y": -4, "padding": 18, "text-max-width": big ? 1200 : 600,
      "font-size": big ? 44 : LABEL_FONT } },
    { selector: "node.collapsed", style: {
      "width": 190, "height": 58, "text-valign": "center", "text-margin-y": 0, "border-width": 2.5,
      "border-color": "#475569", "background-color": "#e2e8f0", "text-wrap": "wrap" } },
    // an open component: a box around its subsystems, named at the top
    { selector: "node.open", style: { "text-valign": "top", "text-halign": "center", "text-margin-y": -4, "background-opacity": 0.45, "padding": 14, "border-width": 2 } },
    { selector: "node.has-inside", style: { "border-style": "double", "border-width": 5 } },
    { selector: "edge", style: {
      "width": 2, "curve-style": big ? "haystack" : "bezier", "target-arrow-shape": big ? "none" : "triangle", "arrow-scale": 1.1,
      "line-color": "#94a3b8", "target-arrow-color": "#94a3b8", "opacity": 0.95 } },
    { selector: "edge[label]", style: { "label": "data(label)", "font-size": 12, "color": "#334155",
      "text-background-color": "#fff", "text-background-opacity": 0.9, "text-background-padding": 2 } },
    { selector: "edge[kind = 'depends_on']", style: { "line-style": "dashed", "line-dash-pattern": [4, 4] } },
    { selector: ".hidden", style: { "display": "none" } },
    { selector: "node.focus-root", style: { "border-width": 4, "border-color": "#111827" } }
  ];
  if (state.labels) {
    // the optional protocol label on every connection (aggregates keep their "×N")
    style.splice(style.length - 2, 0, { selector: "edge[plabel]", style: { "label": "data(plabel)", "font-size": 12, "color": "#334155",
      "text-background-color": "#fff", "text-background-opacity": 0.9, "text-background-padding": 2, "text-rotation": "autorotate" } });
  }
  Object.keys(RM.KINDS).forEach(function (k) {
    var s = RM.KINDS[k];
    style.splice(3, 0, { selector: "node[kind = '" + k + "']", style: { "background-color": s.color, "border-color": s.border, "shape": s.shape } });
  });
  Object.keys(RM.PROTOCOLS).forEach(function (p) {
    var s = RM.PROTOCOLS[p];
    var look = { "line-color": s.color, "target-arrow-color": s.color, "line-style": s.dash ? "dashed" : "solid" };
    if (s.dash) look["line-dash-pattern"] = s.dash;
    style.splice(style.length - 3, 0, { selector: "edge[protocol = '" + p + "']", style: look });
  });
  // comparison colours after kinds and protocols (they win), selection last
  if (portsView()) style = style.concat(portStyles());
  if (darkScheme()) style = style.concat(DARK);
  // the keyboard cursor (keyboard.js): a wide blue halo, apart from the selection's amber
  return style.concat(overlayStyles(), selectionStyles(!!overlay),
    [{ selector: "node.kbd", style: { "underlay-color": "#2563eb", "underlay-opacity": 0.45, "underlay-padding": 9, "underlay-shape": "round-rectangle" } }]);
}

/** Whether the page is in dark mode (the system's colour scheme): the canvas is dark, so what is
    drawn on it directly (repository boxes, names above open components, connection labels) turns light. */
export function darkScheme() { return !!(window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches); }

export const DARK = [
  { selector: "node[type = 'repo']", style: { "background-color": "#1b2435", "border-color": "#526078", "color": "#e5e7eb" } },
  { selector: "node.collapsed", style: { "background-color": "#2a3447", "border-color": "#7b8aa3", "color": "#f1f5f9" } },
  { selector: "node.open", style: { "color": "#f1f5f9" } },
  { selector: "edge[label], edge[plabel]", style: { "color": "#e5e7eb", "text-background-color": "#0f172a" } },
  { selector: "node.focus-root", style: { "border-color": "#f8fafc" } }
];

/** A component's label as lines that fit LABEL_MAX px (breaking after - _ . / : or spaces,
    hard-breaking only a segment wider than LABEL_WORD_MAX), and the node size that holds them. */
export let measureCtx = null, labelCache = new Map(), fontFamily = null;

/** The page's font: labels are measured and drawn with the same one. */
export function labelFont() { return fontFamily || (fontFamily = getComputedStyle(document.body).fontFamily || "sans-serif"); }

export function labelBox(text) {
  if (labelCache.has(text)) return labelCache.get(text);
  if (!measureCtx) {
    measureCtx = document.createElement("canvas").getContext("2d");
    measureCtx.font = "600 " + LABEL_FONT + "px " + labelFont();
  }
  var width = function (t) { return measureCtx.measureText(t).width; };
  var parts = text.match(/[^\s\-_.\/:]*[\s\-_.\/:]*/g).filter(Boolean), lines = [], cur = "";
  parts.forEach(function (part) {
    if (cur && width(cur + part) > LABEL_MAX) { lines.push(cur.trim()); cur = ""; }
    // a name without separators stays whole up to LABEL_WORD_MAX ("productcatalogservice" cut
    // into "productcatalogservic" + "e" reads worse than a wider box); longer ones are cut
    while (width(part.trim()) > LABEL_WORD_MAX) {
      var n = part.length;
      while (n > 1 && width(part.slice(0, n)) > LABEL_MAX) n--;
      lines.push(part.slice(0, n)); part = part.slice(n);
    }
    cur += part;
  });
  if (cur.trim() || !lines.length) lines.push(cur.trim());
  var w = 0;
  lines.forEach(function (l) { w = Math.max(w, width(l)); });
  var box = { label: lines.join("\n"), w: Math.max(NODE_MIN_W, Math.ceil(w) + NODE_PAD_X), h: 16 + lines.length * LINE_H };
  labelCache.set(text, box);
  return box;
}
