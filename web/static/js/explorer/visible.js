/* What the search, the facets (kind, protocol, repository, language) and the N-hop focus leave
   visible: computed from the store's state and indexes, applied to the graph by graph.js. */
import { ancestorsOf } from "./drill.js";
import { childrenOf, edgeText, edgesById, ghostEdges, ghostNodes, nodeText, nodesById, openNow, state, str } from "./state.js";

/** Whether node `id` passes the kind, repository and language checkboxes. */
export function passesFacets(id) {
  var n = nodesById.get(id);
  return !!n && !(state.xk.has(str(n.kind) || "(none)") || state.xr.has(str(n.repository) || "(none)") || state.xl.has(str(n.language) || "(none)"));
}

export function computeVisible() {
  var base = new Set();
  nodesById.forEach(function (n, id) { if (passesFacets(id)) base.add(id); });
  var edgeOk = function (e) { return !state.xp.has(str(e.protocol) || "(none)") && base.has(str(e.source)) && base.has(str(e.target)); };
  var vis = base;
  var q = state.q.trim().toLowerCase();
  if (q) {
    vis = new Set();
    base.forEach(function (id) { if (nodeText.get(id).indexOf(q) >= 0) vis.add(id); });
    edgesById.forEach(function (e, id) {
      if (edgeOk(e) && edgeText.get(id).indexOf(q) >= 0) { vis.add(str(e.source)); vis.add(str(e.target)); }
    });
  }
  if (state.focus && nodesById.has(state.focus)) {
    var reach = new Set([state.focus]), frontier = [state.focus];
    for (var h = 0; h < state.hops; h++) {
      var next = [];
      edgesById.forEach(function (e) {
        if (!edgeOk(e)) return;
        var s = str(e.source), t = str(e.target);
        frontier.forEach(function (f) {
          if (state.dir !== "up" && s === f && !reach.has(t)) { reach.add(t); next.push(t); }
          if (state.dir !== "down" && t === f && !reach.has(s)) { reach.add(s); next.push(s); }
        });
      });
      frontier = next;
      if (!frontier.length) break;
    }
    var within = new Set();
    reach.forEach(function (id) { if (vis.has(id) || id === state.focus) within.add(id); });
    vis = within;
  }
  if (childrenOf.size) { // an open component found shows what is inside; a subsystem found shows its component
    var found = Array.from(vis);
    found.forEach(function (id) {
      if (openNow.has(id)) (childrenOf.get(id) || []).forEach(function (k) { if (base.has(k)) vis.add(k); });
    });
    Array.from(vis).forEach(function (id) { ancestorsOf(id).forEach(function (a) { vis.add(a); }); });
  }
  var edges = new Set();
  edgesById.forEach(function (e, id) { if (edgeOk(e) && vis.has(str(e.source)) && vis.has(str(e.target))) edges.add(id); });
  return { nodes: vis, edges: edges };
}

/** Ghost components to show: all of them unless a search or focus narrows the graph, then
    those joined (by a ghost connection) to something visible; kind filters apply too. */
export function visibleGhosts(visible) {
  var shown = new Set(), narrowed = !!(state.q.trim() || (state.focus && nodesById.has(state.focus)));
  ghostNodes.forEach(function (g, id) {
    if (state.xk.has(str(g.kind) || "(none)")) return;
    if (!narrowed) { shown.add(id); return; }
    ghostEdges.forEach(function (e) {
      if ((e.source === id && visible.has(e.target)) || (e.target === id && visible.has(e.source))) shown.add(id);
    });
  });
  return shown;
}
