/* Placing what is new on a graph that keeps its layout: the parts of a component opened in place
   (a grid where the component stood, shaped and shifted to cover as few other elements as
   possible) and the ghosts a comparison adds (a free spot beside what they connect to). The rest
   of the picture does not move, so opening a component or turning a comparison on never
   re-lays out the graph (graph.js rebuild("keep")). keptPositions / placeInPlace read and write
   the Cytoscape graph; the geometry below them works on plain numbers. */
import { placePorts, portsView, sizeParts } from "./ports.js";
import { cy } from "./state.js";

/** Where each component stood before it was opened ("n:<id>" -> {x, y}): closing it puts it back. */
export const homes = new Map();

/** The positions before a rebuild: every leaf's, every compound's box, the view's side of ports. */
export function keptPositions() {
  var leaves = new Map(), boxes = new Map(), side = "left";
  cy.nodes().forEach(function (n) {
    if (n.isParent()) { boxes.set(n.id(), n.boundingBox({ includeLabels: false })); return; }
    leaves.set(n.id(), { x: n.position("x"), y: n.position("y") });
    if (n.data("type") === "port") side = n.data("side") || side;
  });
  return { leaves: leaves, boxes: boxes, side: side };
}

/** After a rebuild, put everything that was there back where it was and place only what is new:
    the parts of a component just opened (gridInPlace), a component closed again (at its home),
    comparison ghosts (freeSpot). Returns the new elements, or null when something appeared that
    has no place to go (a repository expanded: the caller lays the graph out instead). */
export function placeInPlace(kept) {
  var fresh = [], ghosts = [], groups = new Map(), placedNow = cy.collection();
  if (portsView()) sizeParts(cy, kept.side); // new parts take the size of the side their ports are on
  cy.nodes().forEach(function (n) {
    if (n.isParent()) return;
    var id = n.id(), p = kept.leaves.get(id), b = kept.boxes.get(id);
    if (p) n.position(p);
    else if (b) { n.position(homes.get(id) || { x: (b.x1 + b.x2) / 2, y: (b.y1 + b.y2) / 2 }); placedNow = placedNow.union(n); }
    else if (n.data("ghost")) ghosts.push(n);
    else if (n.data("type") === "port") return; // placed on its part below
    else fresh.push(n);
  });
  var stay = function () {
    return cy.nodes().filter(function (x) { return !x.isParent() && !x.hasClass("hidden") && x.data("type") !== "port" && kept.leaves.has(x.id()); });
  };
  // parts of a component opened in place, holder by holder (an opened part inside one waits for it)
  for (var round = 0; fresh.length && round < 6; round++) {
    groups.clear();
    fresh.forEach(function (n) {
      var holder = n.parent();
      if (!holder.length || holder.data("type") !== "node") return;
      var at = kept.leaves.get(holder.id()) || holder.data("placedAt");
      if (!at) return;
      if (!groups.has(holder.id())) groups.set(holder.id(), { at: at, holder: holder, items: [] });
      groups.get(holder.id()).items.push(n);
    });
    if (!groups.size) break;
    groups.forEach(function (g, hid) {
      if (kept.leaves.has(hid)) homes.set(hid, g.at);
      var mine = g.holder.union(g.holder.ancestors());
      var obstacles = stay().union(cy.nodes(":parent").filter(function (x) { return !mine.contains(x) && !x.hasClass("hidden"); }))
        .filter(function (x) { return !g.holder.descendants().contains(x) && x !== g.holder; })
        .map(function (x) { return x.boundingBox({ includeLabels: false }); });
      g.items.sort(function (a, b) { return String(a.data("label")) < String(b.data("label")) ? -1 : 1; });
      var items = g.items.map(function (n) { return { id: n.id(), w: n.isParent() ? 120 : n.outerWidth(), h: n.isParent() ? 60 : n.outerHeight() }; });
      var home = { w: g.holder.data("w") || 120, h: g.holder.data("h") || 40 };
      var pos = gridInPlace(items, g.at, home, obstacles, 14, 22, { w: (cy.width() - 40) / cy.zoom(), h: (cy.height() - 40) / cy.zoom() });
      g.items.forEach(function (n) {
        if (n.isParent()) n.data("placedAt", pos.get(n.id())); else n.position(pos.get(n.id()));
        placedNow = placedNow.union(n);
      });
    });
    fresh = fresh.filter(function (n) { return !placedNow.contains(n); });
  }
  if (fresh.some(function (n) { return !n.isParent(); })) return null;
  ghosts.forEach(function (gn) {
    var ends = gn.connectedEdges().connectedNodes().filter(function (x) { return x !== gn && !x.data("ghost") && x.visible(); });
    var near = ends.length ? { x: 0, y: 0 } : null;
    ends.forEach(function (x) { near.x += x.position("x") / ends.length; near.y += x.position("y") / ends.length; });
    if (!near) { var bb = stay().boundingBox(); near = { x: (bb.x1 + bb.x2) / 2, y: bb.y2 + 60 }; }
    var obstacles = stay().union(placedNow).union(cy.nodes(":parent").filter(function (x) { return x.data("type") === "node"; }))
      .map(function (x) { return x.boundingBox({ includeLabels: false }); });
    gn.position(freeSpot(gn.outerWidth(), gn.outerHeight(), near, obstacles));
    placedNow = placedNow.union(gn);
  });
  if (portsView()) placePorts(cy, kept.side);
  return placedNow;
}

/** Boxes {x1, x2, y1, y2}: how much of `a` lies on `b` (0 when apart). */
export function overlapArea(a, b) {
  var w = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1), h = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1);
  return w > 0 && h > 0 ? w * h : 0;
}

function covered(box, obstacles, margin) {
  var grown = { x1: box.x1 - margin, x2: box.x2 + margin, y1: box.y1 - margin, y2: box.y2 + margin }, sum = 0;
  obstacles.forEach(function (o) { sum += overlapArea(grown, o); });
  return sum;
}

/** Positions for `items` ({id, w, h}, in their order) in a grid inside a box drawn around them
    with `pad` and a name strip `nameH` on top, placed near `center` (where the closed component
    stood, `home` its {w, h}). Tries a few grid shapes and shifts (the box growing right, left, up
    or down from the component's place) and keeps the one covering the least of `obstacles`
    (boxes of what stays where it is), then the most compact; a shape larger than `room` ({w, h},
    the canvas at the current zoom) only when none fits. Returns a Map id -> {x, y}. */
export function gridInPlace(items, center, home, obstacles, pad, nameH, room) {
  var n = items.length, cellW = 0, cellH = 0, gapX = 18, gapY = 14;
  items.forEach(function (it) { cellW = Math.max(cellW, it.w); cellH = Math.max(cellH, it.h); });
  cellW += gapX; cellH += gapY;
  var shapes = [1, n, Math.ceil(Math.sqrt(n)), Math.ceil(Math.sqrt(n * 2)), Math.ceil(n / 2), Math.ceil(n / 3)]
    .filter(function (c, i, all) { return c >= 1 && c <= n && all.indexOf(c) === i; });
  var best = null;
  shapes.forEach(function (cols) {
    var rows = Math.ceil(n / cols), gw = cols * cellW - gapX, gh = rows * cellH - gapY;
    var bw = gw + 2 * pad, bh = gh + 2 * pad + nameH, sx = Math.max(0, (bw - home.w) / 2), sy = Math.max(0, (bh - home.h) / 2);
    var steps = [0, 1, -1, 0.5, -0.5, 1.5, -1.5];
    steps.forEach(function (fx) {
      steps.forEach(function (fy) {
        var cx = center.x + fx * Math.max(sx, cellW / 2), cy = center.y + fy * Math.max(sy, cellH / 2);
        // the component's own place stays inside the box
        if (Math.abs(cx - center.x) > bw / 2 - 10 || Math.abs(cy - center.y) > bh / 2 - 10) return;
        var box = { x1: cx - bw / 2, x2: cx + bw / 2, y1: cy - bh / 2, y2: cy + bh / 2 };
        var over = room && (bw > room.w || bh > room.h) ? 1e12 * (Math.max(bw / room.w, bh / room.h)) : 0;
        var cand = { cover: over + covered(box, obstacles, 6), size: Math.max(bw, bh * 1.6), shift: Math.abs(fx) + Math.abs(fy), cols: cols, box: box };
        if (!best || cand.cover < best.cover - 1 || (Math.abs(cand.cover - best.cover) <= 1 && (cand.shift < best.shift || (cand.shift === best.shift && cand.size < best.size)))) best = cand;
      });
    });
  });
  var out = new Map(), b = best.box;
  var gx = b.x1 + pad + (cellW - gapX) / 2, gy = b.y1 + pad + nameH + (cellH - gapY) / 2;
  items.forEach(function (it, i) {
    out.set(it.id, { x: gx + (i % best.cols) * cellW, y: gy + Math.floor(i / best.cols) * cellH });
  });
  return out;
}

/** A spot for a box `w` x `h` near `near` (the centre of what it connects to), on rings around it,
    that covers none of `obstacles` (else the least covered one tried). */
export function freeSpot(w, h, near, obstacles) {
  var best = null, step = Math.max(w, h) * 0.75 + 30;
  for (var ring = 1; ring <= 8; ring++) {
    for (var k = 0; k < 8 * ring; k++) {
      var a = (2 * Math.PI * k) / (8 * ring), x = near.x + Math.cos(a) * ring * step, y = near.y + Math.sin(a) * ring * step * 0.7;
      var cover = covered({ x1: x - w / 2, x2: x + w / 2, y1: y - h / 2, y2: y + h / 2 }, obstacles, 12);
      if (!best || cover < best.cover) best = { x: x, y: y, cover: cover };
      if (cover === 0) return { x: x, y: y };
    }
  }
  return { x: best.x, y: best.y };
}
