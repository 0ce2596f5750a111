/* Compacting a layered (dagre) layout across its ranks, so dense graphs fit the canvas with
   readable labels.

   Why: dagre reserves room in every rank for the long connections that cross it (one dummy node
   per crossed rank). Cytoscape draws a connection straight from node to node and never through
   those dummies, so the room stays empty: piggymetrics' 17 components come out 1,573 px wide
   with at most four components in a rank, and the fit shrinks their names to 6 px on screen.

   Here, starting from dagre's picture, each variant
   - scales the positions across the flow by a factor, then packs every rank so that no two
     neighbours overlap (order kept, least total movement: packLine);
   - optionally folds a rank much wider than the others into staggered rows (a row of six
     services becomes two rows of three, so a wide graph stops being a thin strip);
   - optionally keeps a thin lane in each row where a connection's straight line crosses it, so
     components step aside instead of sitting on the line;
   - moves a lone component outside the repositories that only receives (an external API, a mail
     server) past a repository box it would overlap, along the flow, and pushes sibling boxes
     apart (separate).
   The variant the canvas shows largest wins until names are readable; among readable ones, the
   one whose connections run across the fewest components (betterLayout); untangle then nudges
   single components off connections. All of it works on plain maps of positions and sizes (a
   variant costs no Cytoscape call), and the winner is written to the graph once. */

/** Place `items` ({want, size, gap}) in their order along a line as close as possible to their
    wanted centres (least squared movement) with neighbours `gap` apart: blocks of touching items
    sit at the mean of what their members want (the classic pool-adjacent-violators sweep). */
export function packLine(items) {
  var blocks = [];
  items.forEach(function (it, i) {
    // offsets: where each item sits relative to its block's first item
    var b = { first: i, count: 1, sum: it.want, offsets: [0], end: it.size / 2, start: -it.size / 2, pos: it.want };
    blocks.push(b);
    while (blocks.length > 1) {
      var prev = blocks[blocks.length - 2], cur = blocks[blocks.length - 1];
      if (prev.pos + prev.end + items[cur.first].gap - (cur.pos + cur.start) <= 0) break;
      var shift = prev.end + items[cur.first].gap - cur.start;
      cur.offsets.forEach(function (o) { prev.offsets.push(o + shift); });
      prev.sum += cur.sum - cur.count * shift;
      prev.count += cur.count;
      prev.end = cur.end + shift;
      prev.pos = prev.sum / prev.count;
      blocks.pop();
    }
  });
  var out = [];
  blocks.forEach(function (b) { b.offsets.forEach(function (o) { out.push(b.pos + o); }); });
  return out;
}

/** Whether the segment p-q passes through box b (Liang-Barsky clipping; no allocation, since
    it runs millions of times on a mid-size graph). */
export function segmentMeetsBox(p, q, b) {
  if (Math.max(p.x, q.x) < b.x1 || Math.min(p.x, q.x) > b.x2 || Math.max(p.y, q.y) < b.y1 || Math.min(p.y, q.y) > b.y2) return false;
  var t0 = 0, t1 = 1, dx = q.x - p.x, dy = q.y - p.y;
  function clip(pp, qq) {
    if (pp === 0) return qq >= 0;
    var r = qq / pp;
    if (pp < 0) { if (r > t1) return false; if (r > t0) t0 = r; }
    else { if (r < t0) return false; if (r < t1) t1 = r; }
    return true;
  }
  return clip(-dx, p.x - b.x1) && clip(dx, b.x2 - p.x) && clip(-dy, p.y - b.y1) && clip(dy, b.y2 - p.y) && t1 - t0 > 1e-6;
}

/** Whether layout variant `a` ({zoom, cross}) beats `b`: until the names are readable
    (`readableZoom`) the larger picture wins; among readable ones, fewer connections across
    components, then the larger picture. `slack` keeps the earlier (milder) variant when the
    zoom is only that much better. */
export function betterLayout(a, b, readableZoom, slack) {
  if (!b) return true;
  var ra = a.zoom >= readableZoom, rb = b.zoom >= readableZoom;
  if (ra !== rb) return ra;
  if (ra && a.cross !== b.cross) return a.cross < b.cross;
  return a.zoom > b.zoom * (1 + slack);
}

/** Crossings are counted up to this many components; untangle spends at most this many
    segment-box tests. Beyond, the count costs more than it tells. */
export const CROSSINGS_MAX = 150, UNTANGLE_BUDGET = 4e6;
/** The scale factors tried, from none (dagre's own picture) to a tight pack. */
export const SQUEEZES = [1, 0.75, 0.55, 0.4, 0.28, 0.18, 0.1];
/** How wide a rank may stay before it is folded into rows, as shares of the widest rank
    (Infinity: never fold). */
export const FOLDS = [Infinity, 0.55, 0.36];

/** The geometry the variants are computed on: leaves with their sizes, compounds (repository
    boxes, open components) with their padding, name height and members, and the connections
    between leaves. Read from Cytoscape once. */
export function readGeometry(nodes, edges) {
  var g = { leaves: [], compounds: [], byId: new Map(), links: [] };
  nodes.forEach(function (n) {
    var item = { id: n.id(), holder: n.parent().length ? n.parent().id() : "", kids: [] };
    if (n.isParent()) {
      item.pad = n.numericStyle("padding") || 0;
      item.nameH = n.data("label") ? (n.numericStyle("font-size") || 14) * 1.25 * String(n.data("label")).split("\n").length + 6 : 0;
      item.depth = n.ancestors().length;
      g.compounds.push(item);
    } else {
      item.w = n.outerWidth(); item.h = n.outerHeight();
      var p = n.position();
      item.x0 = p.x; item.y0 = p.y;
      item.outs = 0; item.ins = 0;
      g.leaves.push(item);
    }
    g.byId.set(item.id, item);
  });
  g.byId.forEach(function (item) { var p = g.byId.get(item.holder); if (p) p.kids.push(item); else item.holder = ""; });
  g.top = Array.from(g.byId.values()).filter(function (i) { return !i.holder; });
  edges.forEach(function (e) {
    var s = g.byId.get(e.source().id()), t = g.byId.get(e.target().id());
    if (!s || !t || s === t || s.kids.length || t.kids.length || s.pad !== undefined || t.pad !== undefined) return;
    g.links.push([s, t]);
    s.outs++; t.ins++;
  });
  g.compounds.forEach(function (c) { c.leaves = leavesOf(c); });
  return g;
}

function leavesOf(item) {
  if (item.pad === undefined) return [item];
  var out = [];
  item.kids.forEach(function (k) { out = out.concat(leavesOf(k)); });
  return out;
}

/** The box of `item` with leaf positions `pos`: a leaf's own, a compound's around its members
    plus its padding, with its name above. */
export function boxOf(item, pos) {
  if (item.pad === undefined) {
    var p = pos.get(item.id);
    return { x1: p.x - item.w / 2, x2: p.x + item.w / 2, y1: p.y - item.h / 2, y2: p.y + item.h / 2 };
  }
  var b = null;
  item.kids.forEach(function (k) {
    var kb = boxOf(k, pos);
    b = b ? { x1: Math.min(b.x1, kb.x1), x2: Math.max(b.x2, kb.x2), y1: Math.min(b.y1, kb.y1), y2: Math.max(b.y2, kb.y2) } : kb;
  });
  if (!b) b = { x1: 0, x2: 0, y1: 0, y2: 0 };
  return { x1: b.x1 - item.pad, x2: b.x2 + item.pad, y1: b.y1 - item.pad - item.nameH, y2: b.y2 + item.pad };
}

function meet(a, b, margin) {
  return a.x1 - margin < b.x2 && b.x1 - margin < a.x2 && a.y1 - margin < b.y2 && b.y1 - margin < a.y2;
}

/** The picture's box: all top-level boxes together. */
export function pictureBox(g, pos) {
  var b = null;
  g.top.forEach(function (t) {
    var kb = boxOf(t, pos);
    b = b ? { x1: Math.min(b.x1, kb.x1), x2: Math.max(b.x2, kb.x2), y1: Math.min(b.y1, kb.y1), y2: Math.max(b.y2, kb.y2) } : kb;
  });
  return b;
}

/** How many times a connection, drawn straight from centre to centre, runs across a component
    it does not end at (what makes a dense picture hard to follow). */
export function crossings(g, pos) {
  if (g.leaves.length > CROSSINGS_MAX) return 0;
  var boxes = g.leaves.map(function (l) { return boxOf(l, pos); }), count = 0;
  g.links.forEach(function (link) {
    var p = pos.get(link[0].id), q = pos.get(link[1].id);
    g.leaves.forEach(function (l, i) { if (l !== link[0] && l !== link[1] && segmentMeetsBox(p, q, boxes[i])) count++; });
  });
  return count;
}

/** True when two children of one parent (or two top-level elements) overlap and one of them is
    a box: a compound's box is what its members make it, so packing could push two
    repositories into each other. */
export function siblingsOverlap(g, pos) {
  var groups = [g.top].concat(g.compounds.map(function (c) { return c.kids; }));
  return groups.some(function (kids) {
    if (kids.length < 2 || !kids.some(function (k) { return k.pad !== undefined; })) return false;
    var boxes = kids.map(function (k) { return boxOf(k, pos); });
    for (var i = 0; i < kids.length; i++) {
      if (kids[i].pad === undefined) continue;
      for (var j = 0; j < kids.length; j++) if (j !== i && meet(boxes[i], boxes[j], 4)) return true;
    }
    return false;
  });
}

function shiftItem(item, pos, axis, by) {
  leavesOf(item).forEach(function (l) { var p = pos.get(l.id), q = { x: p.x, y: p.y }; q[axis] += by; pos.set(l.id, q); });
}

/** Push apart, across the flow, sibling boxes that packing made overlap (a repository's box
    spans every rank its members are in, so an outside component packed next to a member in one
    rank can land inside the box that other ranks widen). Deepest containers first. A lone
    component that only receives connections first moves past the boxes it meets along the flow
    (after their far end; one that only sends, before their near end): arrows keep pointing with
    the flow and the picture grows no column for one component. Then, in each container, siblings
    are swept in their order across the flow and each moves just past the earlier ones it meets. */
export function separate(g, pos, across, margin) {
  var along = across === "x" ? "y" : "x";
  var lo = across + "1", hi = across + "2", alo = along + "1", ahi = along + "2";
  var containers = g.compounds.slice().sort(function (a, b) { return b.depth - a.depth || (a.id < b.id ? -1 : 1); })
    .map(function (c) { return c.kids; }).concat([g.top]);
  containers.forEach(function (kids) {
    if (kids.length < 2 || !kids.some(function (k) { return k.pad !== undefined; })) return;
    var boxes = kids.filter(function (k) { return k.pad !== undefined; });
    kids.forEach(function (k) {
      if (k.pad !== undefined || (k.ins && k.outs) || (!k.ins && !k.outs)) return;
      var kb = boxOf(k, pos), hit = boxes.map(function (b) { return boxOf(b, pos); }).filter(function (b) { return meet(b, kb, margin); });
      if (!hit.length) return;
      var size = kb[ahi] - kb[alo], to = k.ins
        ? Math.max.apply(null, hit.map(function (b) { return b[ahi]; })) + margin + size / 2
        : Math.min.apply(null, hit.map(function (b) { return b[alo]; })) - margin - size / 2;
      shiftItem(k, pos, along, to - (kb[alo] + kb[ahi]) / 2);
    });
    var entries = kids.map(function (k) { return { item: k, box: boxOf(k, pos) }; });
    entries.sort(function (a, b) { return (a.box[lo] + a.box[hi]) - (b.box[lo] + b.box[hi]) || (a.item.id < b.item.id ? -1 : 1); });
    entries.forEach(function (e, i) {
      var by = 0;
      for (var j = 0; j < i; j++) {
        var o = entries[j].box;
        if (o[alo] - margin < e.box[ahi] && e.box[alo] - margin < o[ahi]) by = Math.max(by, o[hi] + margin - e.box[lo]);
      }
      if (by > 0) { shiftItem(e.item, pos, across, by); e.box = boxOf(e.item, pos); }
    });
  });
}

/** Squeeze, fold and lane the ranks of a dagre layout run in direction `dir` ("LR" or "TB") on
    `nodes` and `edges` (see the module comment), write the best variant's positions to the graph
    and return it ({factor, fold, lanes, zoom, cross}). `gap` is the layout's space between
    nodes in a rank, `rankGap` between ranks, `zoomFor(w, h)` the fit zoom of a picture that
    size, `readableZoom` the zoom at which names are readable. */
export function compactRanks(nodes, edges, dir, gap, rankGap, zoomFor, readableZoom) {
  var g = readGeometry(nodes, edges);
  var along = dir === "LR" ? "x" : "y", across = dir === "LR" ? "y" : "x";
  var original = new Map();
  g.leaves.forEach(function (l) { original.set(l.id, { x: l.x0, y: l.y0 }); });
  function measure(pos) {
    var b = pictureBox(g, pos);
    return { zoom: b ? zoomFor(b.x2 - b.x1, b.y2 - b.y1) : 1, cross: crossings(g, pos) };
  }
  if (g.leaves.length < 3) { var m0 = measure(original); return { factor: 1, fold: Infinity, lanes: false, zoom: m0.zoom, cross: m0.cross }; }
  function sizeAcross(l) { return across === "x" ? l.w : l.h; }
  function sizeAlong(l) { return along === "x" ? l.w : l.h; }
  var byRank = new Map();
  g.leaves.forEach(function (l) {
    var r = Math.round(original.get(l.id)[along]);
    if (!byRank.has(r)) byRank.set(r, []);
    byRank.get(r).push(l);
  });
  var ranks = Array.from(byRank.keys()).sort(function (a, b) { return a - b; }).map(function (r) {
    var list = byRank.get(r), extent = 0, thick = 0;
    list.sort(function (a, b) { return original.get(a.id)[across] - original.get(b.id)[across] || (a.id < b.id ? -1 : 1); });
    list.forEach(function (l) { extent += sizeAcross(l) + gap; thick = Math.max(thick, sizeAlong(l)); });
    return { at: r, list: list, extent: extent - gap, thick: thick };
  });
  var widest = Math.max.apply(null, ranks.map(function (r) { return r.extent; }));
  var hasCompounds = g.compounds.length > 0;

  /** Positions for one variant (a Map of leaf id to {x, y}). */
  function place(factor, foldShare, lanes) {
    var limit = foldShare * widest, pos = new Map(), push = 0, rows = [];
    ranks.forEach(function (rank) {
      var k = rank.extent > limit ? Math.min(rank.list.length, Math.ceil(rank.extent / limit)) : 1;
      var split = [];
      for (var j = 0; j < k; j++) split.push([]);
      rank.list.forEach(function (l, i) { split[i % k].push(l); });
      split.forEach(function (row, j) { rows.push({ at: rank.at + push + j * (rank.thick + rankGap * 0.6), leaves: row }); });
      push += (k - 1) * (rank.thick + rankGap * 0.6);
    });
    function pack(row, crossing) {
      var items = row.leaves.map(function (l) {
        return { leaf: l, want: original.get(l.id)[across] * factor, size: sizeAcross(l), key: pos.has(l.id) ? pos.get(l.id)[across] : 0 };
      });
      if (crossing.length) {
        items = items.concat(crossing.map(function (c) { return { want: c, size: 4, key: c }; }));
        items.sort(function (a, b) { return a.key - b.key; });
      }
      var prev = null;
      items.forEach(function (it) {
        if (!prev) it.gap = 0;
        else if (it.leaf && prev.leaf) it.gap = it.leaf.holder !== prev.leaf.holder ? gap + 36 : gap; // room for box padding and names
        else it.gap = it.leaf || prev.leaf ? gap / 2 : 4;
        prev = it;
      });
      packLine(items).forEach(function (c, i) {
        if (!items[i].leaf) return;
        var p = {}; p[across] = c; p[along] = row.at; pos.set(items[i].leaf.id, p);
      });
    }
    rows.forEach(function (row) { pack(row, []); });
    for (var pass = 0; lanes && pass < 2; pass++) {
      rows.forEach(function (row) {
        var crossing = [];
        g.links.forEach(function (link) {
          var a = pos.get(link[0].id), b = pos.get(link[1].id);
          var lo = Math.min(a[along], b[along]), hi = Math.max(a[along], b[along]);
          if (!(lo < row.at - 1 && row.at + 1 < hi)) return;
          crossing.push(a[across] + (row.at - a[along]) / (b[along] - a[along]) * (b[across] - a[across]));
        });
        if (crossing.length) pack(row, crossing);
      });
    }
    if (hasCompounds && factor < 1) separate(g, pos, across, gap);
    return pos;
  }

  var best = null;
  [false, true].forEach(function (lanes) {
    if (lanes && (!g.links.length || g.leaves.length > CROSSINGS_MAX)) return;
    FOLDS.forEach(function (fold) {
      if (fold !== Infinity && !ranks.some(function (r) { return r.list.length > 1 && r.extent > fold * widest; })) return;
      SQUEEZES.forEach(function (factor) {
        if (factor === 1 && (fold !== Infinity || lanes)) return; // folding and lanes always pack
        var pos = factor === 1 ? original : place(factor, fold, lanes);
        if (pos !== original && hasCompounds && siblingsOverlap(g, pos)) return;
        var m = measure(pos), v = { factor: factor, fold: fold, lanes: lanes, zoom: m.zoom, cross: m.cross, pos: pos };
        if (betterLayout(v, best, readableZoom, 0.03)) best = v;
      });
    });
  });
  untangle(g, best, across, gap, measure, readableZoom, hasCompounds);
  var chosen = best.pos;
  nodes.filter(function (n) { return !n.isParent(); }).positions(function (n) { return chosen.get(n.id()); });
  delete best.pos;
  return best;
}

/** A last polish of the chosen variant: nudge single components across the flow (a step or two
    of `gap`, never past a neighbour in their row) where that takes connections off other
    components, never making a readable picture unreadable. */
function untangle(g, best, across, gap, measure, readableZoom, hasCompounds) {
  if (!best.cross || g.links.length * g.leaves.length * g.leaves.length * 8 > UNTANGLE_BUDGET) return;
  var along = across === "x" ? "y" : "x", pos = new Map(best.pos);
  var floor = best.zoom >= readableZoom ? readableZoom : best.zoom * 0.995;
  var rows = new Map();
  g.leaves.forEach(function (l) {
    var r = Math.round(pos.get(l.id)[along]);
    if (!rows.has(r)) rows.set(r, []);
    rows.get(r).push(l);
  });
  var neighbours = new Map();
  rows.forEach(function (row) {
    row.sort(function (a, b) { return pos.get(a.id)[across] - pos.get(b.id)[across]; });
    row.forEach(function (l, i) { neighbours.set(l.id, [row[i - 1], row[i + 1]]); });
  });
  function half(l) { return (across === "x" ? l.w : l.h) / 2; }
  function fits(l, c) {
    var nb = neighbours.get(l.id), lo = nb[0], hi = nb[1];
    if (lo && pos.get(lo.id)[across] + half(lo) + gap > c - half(l)) return false;
    if (hi && pos.get(hi.id)[across] - half(hi) - gap < c + half(l)) return false;
    return true;
  }
  var cross = best.cross, zoom = best.zoom;
  for (var pass = 0; pass < 2 && cross; pass++) {
    var improved = false;
    g.leaves.forEach(function (l) {
      var home = pos.get(l.id), keep = { at: home, cross: cross, zoom: zoom };
      [-2, -1, 1, 2].forEach(function (k) {
        var c = home[across] + k * gap * 1.5;
        if (!fits(l, c)) return;
        var p = { x: home.x, y: home.y }; p[across] = c;
        pos.set(l.id, p);
        var m = measure(pos);
        if (m.cross < keep.cross && m.zoom >= floor && !(hasCompounds && siblingsOverlap(g, pos))) keep = { at: p, cross: m.cross, zoom: m.zoom };
      });
      pos.set(l.id, keep.at);
      if (keep.cross < cross) { cross = keep.cross; zoom = keep.zoom; improved = true; }
    });
    if (!improved) break;
  }
  best.pos = pos; best.cross = cross; best.zoom = zoom;
}
