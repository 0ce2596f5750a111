/* Compacting a layered (dagre) layout across its ranks, so dense graphs fit the canvas with
   readable labels.

   Why: dagre reserves room in every rank for the long connections that cross it (one dummy node
   per crossed rank). Cytoscape draws a connection straight from node to node and never through
   those dummies, so the room stays empty: piggymetrics' 17 components come out 1,573 px wide
   with at most four components in a rank, and the fit shrinks its labels to 6 px. Here each
   rank's positions across the flow are scaled down by a factor and then pushed apart again just
   enough that no two neighbours overlap (order kept, least total movement); the factor that lets
   the canvas show the graph at the largest zoom wins, and a factor that would make two sibling
   boxes (repositories, open components, outside nodes) overlap is refused. */

/** Place `items` ({want, size, gap}) in their order along a line as close as possible to their
    wanted centres (least squared movement) with neighbours `gap` apart: blocks of touching items
    sit at the mean of what their members want (the classic pool-adjacent-violators sweep). */
export function packLine(items) {
  var blocks = [];
  items.forEach(function (it, i) {
    // offset: where the item sits relative to its block's first item
    var b = { first: i, count: 1, sum: it.want, offsets: [0], end: it.size / 2, start: -it.size / 2 };
    b.pos = it.want;
    blocks.push(b);
    while (blocks.length > 1) {
      var prev = blocks[blocks.length - 2], cur = blocks[blocks.length - 1];
      var need = prev.pos + prev.end + items[cur.first].gap - (cur.pos + cur.start);
      if (need <= 0) break;
      // merge cur into prev: cur's items keep their offsets, shifted behind prev's last item
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

/** Whether two boxes ({x1, x2, y1, y2}) overlap once each is grown by `margin`. */
function boxesMeet(a, b, margin) {
  return a.x1 - margin < b.x2 && b.x1 - margin < a.x2 && a.y1 - margin < b.y2 && b.y1 - margin < a.y2;
}

/** True when two children of the same parent (or two top-level elements) overlap: a compound's
    box is what its members' positions make it, so squeezing ranks could push two repositories
    into each other. */
export function siblingsOverlap(nodes) {
  var byParent = new Map();
  nodes.forEach(function (n) {
    var p = n.parent().length ? n.parent().id() : "";
    if (!byParent.has(p)) byParent.set(p, []);
    byParent.get(p).push(n);
  });
  var clash = false;
  byParent.forEach(function (kids) {
    if (clash || kids.length < 2) return;
    var compounds = kids.filter(function (k) { return k.isParent(); });
    if (!compounds.length) return; // plain nodes in one rank never overlap (packLine); across ranks neither
    var boxes = kids.map(function (k) { return k.boundingBox({ includeLabels: k.isParent() }); });
    kids.forEach(function (k, i) {
      if (clash || !k.isParent()) return;
      for (var j = 0; j < kids.length && !clash; j++) if (j !== i && boxesMeet(boxes[i], boxes[j], 4)) clash = true;
    });
  });
  return clash;
}

/** Push apart, across the flow, sibling boxes that the per-rank packing made overlap: a
    repository's box spans all the ranks its members are in, so an outside node packed next to
    a member in one rank can land inside the box that another rank's members widen. Deepest
    containers first; in each, siblings are swept in their order across the flow and each one
    (with everything inside it) moves just past the earlier ones it meets in the flow's
    direction. */
export function separateSiblings(nodes, across, margin) {
  var along = across === "x" ? "y" : "x";
  var lo = across + "1", hi = across + "2", alo = along + "1", ahi = along + "2";
  var byParent = new Map(), depth = new Map();
  nodes.forEach(function (n) {
    var p = n.parent().length ? n.parent().id() : "";
    if (!byParent.has(p)) byParent.set(p, []);
    byParent.get(p).push(n);
    depth.set(n.id(), n.ancestors().length);
  });
  var containers = Array.from(byParent.keys()).sort(function (a, b) { return (b ? depth.get(b) + 1 : 0) - (a ? depth.get(a) + 1 : 0) || (a < b ? -1 : a > b ? 1 : 0); });
  containers.forEach(function (c) {
    var kids = byParent.get(c);
    if (kids.length < 2 || !kids.some(function (k) { return k.isParent(); })) return;
    var entries = kids.map(function (k) {
      var b = k.boundingBox({ includeLabels: k.isParent() });
      return { node: k, box: b, leaves: k.isParent() ? k.descendants().filter(function (d) { return !d.isParent(); }) : k };
    });
    entries.sort(function (a, b) { return (a.box[lo] + a.box[hi]) - (b.box[lo] + b.box[hi]) || (a.node.id() < b.node.id() ? -1 : 1); });
    var boxes = entries.filter(function (e) { return e.node.isParent(); });
    entries.forEach(function (e) { if (!e.node.isParent()) moveEndAlong(e, boxes, along, margin); });
    entries.sort(function (a, b) { return (a.box[lo] + a.box[hi]) - (b.box[lo] + b.box[hi]) || (a.node.id() < b.node.id() ? -1 : 1); });
    entries.forEach(function (e, i) {
      var shift = 0;
      for (var j = 0; j < i; j++) {
        var o = entries[j].box;
        if (o[alo] - margin < e.box[ahi] && e.box[alo] - margin < o[ahi]) shift = Math.max(shift, o[hi] + margin - e.box[lo]);
      }
      if (shift > 0) {
        e.leaves.shift(across, shift);
        e.box = e.node.boundingBox({ includeLabels: e.node.isParent() });
      }
    });
  });
}

/** A lone node that only receives connections (an external API, a mail server) and meets an
    earlier sibling box moves past that box's far end along the flow instead of being pushed
    beside it (one that only sends moves before its near end): arrows still point with the flow,
    and the picture does not grow a column for one node. */
function moveEndAlong(e, earlier, along, margin) {
  var alo = along + "1", ahi = along + "2", across = along === "x" ? "y" : "x";
  var lo = across + "1", hi = across + "2";
  var hit = earlier.filter(function (o) {
    return o.node.isParent() && o.box[alo] - margin < e.box[ahi] && e.box[alo] - margin < o.box[ahi] &&
      o.box[lo] - margin < e.box[hi] && e.box[lo] - margin < o.box[hi];
  });
  if (!hit.length) return;
  var shown = function (x) { return !x.hasClass("hidden"); };
  var outs = e.node.outgoers("edge").filter(shown).length, ins = e.node.incomers("edge").filter(shown).length;
  var size = e.box[ahi] - e.box[alo], to = null;
  if (ins && !outs) to = Math.max.apply(null, hit.map(function (o) { return o.box[ahi]; })) + margin + size / 2;
  else if (outs && !ins) to = Math.min.apply(null, hit.map(function (o) { return o.box[alo]; })) - margin - size / 2;
  if (to === null) return;
  e.node.shift(along, to - (e.box[alo] + e.box[ahi]) / 2);
  e.box = e.node.boundingBox();
}

/** The scale factors tried, from none (dagre's own picture) to a tight pack. */
export const SQUEEZES = [1, 0.75, 0.55, 0.4, 0.28, 0.18, 0.1];
/** How wide a rank may stay before it is folded into sub-ranks, as shares of the widest rank
    (Infinity: never fold). */
export const FOLDS = [Infinity, 0.55, 0.36];

/** Squeeze the leaves of `nodes` across the ranks of a dagre layout run in direction `dir`
    ("LR" or "TB"), and fold ranks wider than the canvas allows into staggered sub-ranks (every
    second member one sub-rank further along the flow: a row of six services becomes two rows of
    three, so a wide graph stops being a thin strip). `gap` is the layout's space between nodes
    in a rank, `rankGap` between ranks; `zoomOf()` is the fit zoom of the positions as they are
    now. Keeps the variant with the best zoom (a milder one when within 3 %, since it keeps more
    of dagre's alignment) and returns {factor, fold, zoom}. */
export function compactRanks(nodes, dir, gap, rankGap, zoomOf) {
  var leaves = nodes.filter(function (n) { return !n.isParent(); });
  if (leaves.length < 3) return { factor: 1, fold: Infinity, zoom: zoomOf() };
  var along = dir === "LR" ? "x" : "y", across = dir === "LR" ? "y" : "x";
  var byRank = new Map(), original = new Map();
  function sizeAcross(n) { return across === "x" ? n.outerWidth() : n.outerHeight(); }
  function sizeAlong(n) { return along === "x" ? n.outerWidth() : n.outerHeight(); }
  leaves.forEach(function (n) {
    var p = n.position(), r = Math.round(p[along]);
    original.set(n.id(), { x: p.x, y: p.y });
    if (!byRank.has(r)) byRank.set(r, []);
    byRank.get(r).push(n);
  });
  var ranks = Array.from(byRank.keys()).sort(function (a, b) { return a - b; }).map(function (r) {
    var list = byRank.get(r), extent = 0, thick = 0;
    list.sort(function (a, b) { return a.position(across) - b.position(across) || (a.id() < b.id() ? -1 : 1); });
    list.forEach(function (n) { extent += sizeAcross(n) + gap; thick = Math.max(thick, sizeAlong(n)); });
    return { at: r, list: list, extent: extent - gap, thick: thick };
  });
  var widest = Math.max.apply(null, ranks.map(function (r) { return r.extent; }));
  var hasCompounds = nodes.some(function (n) { return n.isParent(); });

  function place(factor, foldShare) {
    var limit = foldShare * widest, moved = {}, push = 0;
    ranks.forEach(function (rank) {
      var k = rank.extent > limit ? Math.min(rank.list.length, Math.ceil(rank.extent / limit)) : 1;
      var rows = [];
      for (var j = 0; j < k; j++) rows.push([]);
      rank.list.forEach(function (n, i) { rows[i % k].push(n); });
      rows.forEach(function (row, j) {
        var at = rank.at + push + j * (rank.thick + rankGap * 0.6);
        var items = row.map(function (n, i) {
          // leaving one box for another: room for both boxes' padding and their names
          var apart = i > 0 && n.data("parent") !== row[i - 1].data("parent");
          return { want: original.get(n.id())[across] * factor, size: sizeAcross(n), gap: apart ? gap + 36 : gap };
        });
        packLine(items).forEach(function (c, i) { var p = {}; p[across] = c; p[along] = at; moved[row[i].id()] = p; });
      });
      push += (k - 1) * (rank.thick + rankGap * 0.6);
    });
    leaves.positions(function (n) { return moved[n.id()]; });
    if (hasCompounds && factor < 1) separateSiblings(nodes, across, gap);
  }
  var best = null;
  FOLDS.forEach(function (fold) {
    if (fold !== Infinity && !ranks.some(function (r) { return r.list.length > 1 && r.extent > fold * widest; })) return;
    SQUEEZES.forEach(function (factor) {
      if (factor === 1 && fold !== Infinity) return; // folding always packs
      place(factor, fold);
      if ((factor < 1 || fold !== Infinity) && hasCompounds && siblingsOverlap(nodes)) return;
      var z = zoomOf();
      if (!best || z > best.zoom * 1.03) best = { factor: factor, fold: fold, zoom: z };
    });
  });
  place(best.factor, best.fold);
  return best;
}
