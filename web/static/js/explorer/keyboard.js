/* The keyboard in the graph and around it: a skip link to the graph, a cursor that the arrow keys
   move to the connected component lying that way (any component that way when none is
   connected), Enter to show its details, Space to open or close its parts, + and - to zoom,
   Escape to clear the selection, and `/` anywhere to search. The cursor is announced in a live
   region; it is a class on the Cytoscape node (never the selection, so moving leaves the URL and
   the history alone). main.js wires it with the views' drawer actions. */
import { childrenOf, cy, select, showTab, state, str, toggleOpen } from "./state.js";
import { displayName } from "./drill.js";

let cursor = null; // the Cytoscape id under the keyboard cursor

/** Elements the cursor can stand on: drawn components and collapsed repositories. */
function stops() {
  return cy.nodes().filter(function (n) {
    var t = n.data("type");
    return (t === "node" || (t === "repo" && n.hasClass("collapsed"))) && !n.hasClass("hidden") && n.visible();
  });
}

/** The first stop in reading order (top to bottom, then left to right). */
function firstStop() {
  var list = stops().toArray();
  list.sort(function (a, b) { var pa = a.position(), pb = b.position(); return (pa.y - pb.y) || (pa.x - pb.x); });
  return list[0] || null;
}

const DIRS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

/** The stop the arrow `key` leads to from `from` (a Cytoscape node): among the components
    connected to it, the one best in line with the direction; else any component that way. */
export function neighbourIn(from, key) {
  var d = DIRS[key];
  if (!from || !d) return null;
  var p = from.position(), all = stops();
  var linked = from.connectedEdges().connectedNodes().union(from.descendants()).union(from.parent())
    .filter(function (x) { return all.contains(x) && x !== from; });
  function best(cands) {
    var found = null, score = Infinity;
    cands.forEach(function (c) {
      if (c === from || c.descendants().contains(from)) return;
      var q = c.position(), vx = q.x - p.x, vy = q.y - p.y, along = vx * d[0] + vy * d[1], across = Math.abs(vx * d[1] - vy * d[0]);
      if (along <= 1 || across > along * 2.2) return;
      var s = along + 2 * across;
      if (s < score) { score = s; found = c; }
    });
    return found;
  }
  return best(linked) || best(all);
}

function describe(n) {
  if (n.data("type") === "repo") return "repository " + str(n.data("repository")) + ", collapsed";
  var id = str(n.data("mid")), kids = childrenOf.get(id) || [];
  var links = n.connectedEdges().filter(function (e) { return e.visible(); }).length;
  return displayName(id) + ", " + str(n.data("kind") || "component") + ", " + links + " connection" + (links === 1 ? "" : "s") +
    (kids.length ? ", " + kids.length + " parts (Space " + (n.isParent() ? "closes" : "opens") + ")" : "") + ". Enter shows the details.";
}

/** Put the cursor on `n` (a Cytoscape node), announce it and keep it on screen. */
export function moveCursor(n) {
  cy.nodes(".kbd").removeClass("kbd");
  cursor = n ? n.id() : null;
  var live = document.getElementById("graph-cursor");
  if (!n) { live.textContent = ""; return; }
  n.addClass("kbd");
  live.textContent = describe(n);
  var r = n.renderedBoundingBox(), w = cy.width(), h = cy.height();
  if (r.x1 < 0 || r.y1 < 0 || r.x2 > w || r.y2 > h) cy.animate({ center: { eles: n }, duration: 150 });
}

function current() {
  var n = cursor ? cy.getElementById(cursor) : null;
  if (n && n.nonempty() && n.visible()) return n;
  var sel = cy.$("node:selected");
  return sel.nonempty() && sel.first().visible() ? sel.first() : firstStop();
}

/** Wire the keys. `showDetails()` opens the details (a drawer on narrow screens) and moves the
    focus to their title; `showFilters()` opens the filters drawer on narrow screens. */
export function wireKeyboard(showDetails, showFilters) {
  var box = document.getElementById("cy");
  box.addEventListener("focus", function () { if (!cursor || cy.getElementById(cursor).empty()) moveCursor(current()); });
  box.addEventListener("blur", function () { cy.nodes(".kbd").removeClass("kbd"); });
  box.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var n = current();
    if (DIRS[ev.key]) {
      ev.preventDefault();
      var next = neighbourIn(n, ev.key);
      if (next) moveCursor(next); else if (n) moveCursor(n);
    } else if (ev.key === "Home") { ev.preventDefault(); moveCursor(firstStop()); }
    else if (ev.key === "Enter" && n) {
      ev.preventDefault();
      select(n.data("type") === "repo" ? "r:" + n.data("repository") : "n:" + n.data("mid"));
      showDetails();
    } else if (ev.key === " " && n) {
      ev.preventDefault();
      var id = str(n.data("mid"));
      if (childrenOf.has(id)) { toggleOpen(id); moveCursor(cy.getElementById("n:" + id)); }
    } else if (ev.key === "+" || ev.key === "=" || ev.key === "-") {
      ev.preventDefault();
      var z = cy.zoom() * (ev.key === "-" ? 1 / 1.25 : 1.25);
      cy.zoom({ level: z, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
    } else if (ev.key === "Escape" && state.sel) { ev.preventDefault(); ev.stopPropagation(); select(null); }
  });
  cy.on("tap", "node", function (ev) { if (ev.target.data("type") !== "port") cursor = ev.target.id(); });
  document.getElementById("skip-graph").addEventListener("click", function (ev) {
    ev.preventDefault();
    if (state.tab !== "graph") showTab("graph");
    box.focus();
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "/" || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var t = ev.target, tag = t && t.tagName ? t.tagName.toLowerCase() : "";
    if (tag === "input" || tag === "textarea" || tag === "select" || (t && t.isContentEditable)) return;
    ev.preventDefault();
    showFilters();
    var search = document.getElementById("search");
    search.focus();
    search.select();
  });
}
