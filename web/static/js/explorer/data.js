/* Loading: the model from the JSON API (server) or from window.__MODEL__ (published
   site), the overlays of comparisons, and the indexes every other module reads (the view state kept
   in the location hash is the store's: state.js readHash / writeHash). */
import { isSubsystem, isTopLink } from "./drill.js";
import { API, MODE, arr, bump, childrenOf, edgeText, edgesById, facets, model, nesting, nodeText, nodesById, placeOf, repoInfo, str } from "./state.js";

export let staticSnippets = null, staticCompare = null; // the published site's snippets and overlays (window.__MODEL__)
/** Per facet value, the parts inside components (and links inside them) it holds: counted apart
    from `facets`, which counts the top level only (drill.js tally, the one counting rule). */
export const facetParts = { kind: new Map(), protocol: new Map(), repository: new Map(), language: new Map() };

// ---- loading
export function load() {
  if (MODE === "static") {
    var data = window.__MODEL__ || {};
    staticSnippets = data.snippets || {};
    staticCompare = data.compare || { candidates: [], overlays: {} };
    return Promise.resolve([data.model || {}, data.sysml || "", data.run || {}, arr(staticCompare.candidates), data.nesting || {}]);
  }
  return Promise.all([
    fetch(API).then(function (r) { if (!r.ok) throw new Error("model " + r.status); return r.json(); }),
    fetch(API + "/sysml").then(function (r) { return r.ok ? r.text() : ""; }),
    // comparisons are optional: a failing listing only leaves the select empty
    fetch(API + "/compare-candidates").then(function (r) { return r.ok ? r.json() : []; }).catch(function () { return []; }),
    // where each node sits, as repomodeler.model.nesting decides it (never worked out here)
    fetch(API + "/nesting").then(function (r) { return r.ok ? r.json() : {}; }).catch(function () { return {}; })
  ]).then(function (res) { return [res[0], res[1], {}, arr(res[2]), res[3] || {}]; });
}

/** The overlay for candidate `id`: from the API, or precomputed in the published data file. */
export function fetchOverlay(id) {
  if (MODE === "static") {
    var ov = staticCompare && staticCompare.overlays ? staticCompare.overlays[id] : null;
    return ov ? Promise.resolve(ov) : Promise.reject(new Error("not included in this published site"));
  }
  return fetch(API + "/overlay?" + new URLSearchParams({ against: id }).toString()).then(function (r) {
    if (!r.ok) return r.json().catch(function () { return {}; }).then(function (body) { throw new Error(str(body.detail) || ("HTTP " + r.status)); });
    return r.json();
  });
}

export function index() {
  arr(model.repositories).forEach(function (r) { if (r && r.name !== undefined) repoInfo.set(str(r.name), r); });
  arr(model.nodes).forEach(function (n) {
    if (!n || n.id === undefined) return;
    var id = str(n.id);
    nodesById.set(id, n);
    var repo = str(n.repository);
    if (repo && !repoInfo.has(repo)) repoInfo.set(repo, { name: repo });
    var parts = [n.name, n.id, n.kind];
    Object.keys(n.attributes || {}).forEach(function (k) { parts.push(n.attributes[k]); });
    arr(n.evidence).forEach(function (e) { parts.push(e && e.path); });
    arr(n.ports).forEach(function (p) {
      parts.push(p && p.name);
      arr(p && p.endpoints).forEach(function (ep) {
        parts.push(ep && ep.path, ep && ep.method);
        arr(ep && ep.evidence).forEach(function (e) { parts.push(e && e.path); });
      });
    });
    nodeText.set(id, parts.map(str).join("\n").toLowerCase());
  });
  arr(model.edges).forEach(function (e) {
    if (!e || e.id === undefined) return;
    if (!nodesById.has(str(e.source)) || !nodesById.has(str(e.target))) return;
    edgesById.set(str(e.id), e);
    var parts = [e.id, e.protocol, e.kind];
    Object.keys(e.attributes || {}).forEach(function (k) { parts.push(e.attributes[k]); });
    arr(e.evidence).forEach(function (ev) { parts.push(ev && ev.path); });
    edgeText.set(str(e.id), parts.map(str).join("\n").toLowerCase());
  });
  // what is inside what (subsystems in their component), for the drill-down: the server's
  // placement of each node (top-level component, depth, ancestors outermost first)
  nodesById.forEach(function (n, id) {
    var p = nesting && typeof nesting === "object" ? nesting[id] : null;
    var chain = p && Array.isArray(p.ancestors) ? p.ancestors.map(str).filter(function (a) { return a !== id && nodesById.has(a); }) : [];
    if (chain.length !== arr(p && p.ancestors).length) chain = []; // an ancestor the model lacks: drawn at the top level
    placeOf.set(id, { top: chain.length ? chain[0] : id, depth: chain.length, ancestors: chain });
    if (!chain.length) return;
    var holder = chain[chain.length - 1];
    if (!childrenOf.has(holder)) childrenOf.set(holder, []);
    childrenOf.get(holder).push(id);
  });
  // the filters' counts: top-level components and the connections between them in `facets`, the
  // parts inside components and the links touching them in `facetParts` (a value only parts have
  // still gets its checkbox)
  function count(key, value, top) {
    var k = value || "(none)";
    if (!facets[key].has(k)) facets[key].set(k, 0);
    bump(top ? facets[key] : facetParts[key], k);
  }
  nodesById.forEach(function (n, id) {
    var top = !isSubsystem(id);
    count("kind", str(n.kind), top); count("repository", str(n.repository), top); count("language", str(n.language), top);
  });
  edgesById.forEach(function (e) { count("protocol", str(e.protocol), isTopLink(e)); });
}
