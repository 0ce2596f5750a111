/* Drill-down into components: model.json nodes with a `parent` (kind `subsystem`: the packages
   inside a component) are drawn inside their component once it is opened (double-click it, or
   "Show subsystems" in its details), and folded into it otherwise. Every connection is drawn
   between the elements shown: a subsystem's connection is re-routed to its component while that
   is closed (dropped when the component already has the same connection, or when it stays inside
   the component), and while the component is open, a component-level connection that its
   subsystems' connections refine is left out for them. A search that matches a subsystem opens
   its component for as long as the search is there. Opened components are in the URL (open=).
   What is inside what is the server's answer (repomodeler.model.nesting, through data.js into
   the store's placeOf): nothing here reads a node's `parent`. Opening draws in place (place.js). */
import { childrenOf, edgesById, nodeText, nodesById, openNow, placeOf, state, str } from "./state.js";

/** The node directly holding `id` ("" at the top level): the last of its ancestors. */
export function parentOf(id) {
  var chain = ancestorsOf(id);
  return chain.length ? chain[chain.length - 1] : "";
}

/** Ancestors of `id`, the outermost first, as the server placed it (repomodeler.model.nesting). */
export function ancestorsOf(id) {
  var p = placeOf.get(id);
  return p ? p.ancestors.slice() : [];
}

/** The top-level component holding `id` (itself at the top level). */
export function topOf(id) { var p = placeOf.get(id); return p ? p.top : id; }

/** The element that stands for node `id` in the graph: itself when every ancestor is open, else
    the outermost closed ancestor. */
export function shownAs(id) {
  var chain = ancestorsOf(id);
  for (var i = 0; i < chain.length; i++) if (!openNow.has(chain[i])) return chain[i];
  return id;
}

export function isSubsystem(id) { var p = placeOf.get(id); return !!(p && p.depth); }

// ---- names on the canvas
const SEP = /[.\/:\\]/;
let shortNames = null;

/** What node `id` is called on the canvas: a part relative to the box it is drawn in (without its
    holder's name and the prefix all its siblings share: `controller`, not
    `com.example.account.controller` inside `account-service`); the actor (kind user) with
    " (actor)" when a component has the same name. The full name stays in the tooltip and the
    details. */
export function displayName(id) {
  if (!shortNames) shortNames = computeNames();
  return shortNames.get(id) || str((nodesById.get(id) || {}).name || id);
}

function fullName(id) { return str((nodesById.get(id) || {}).name || id); }

/** `text` without a leading `prefix` and the separator after it ("" when nothing would be left). */
function after(text, prefix) {
  if (!prefix || text.length <= prefix.length + 1 || text.slice(0, prefix.length) !== prefix || !SEP.test(text.charAt(prefix.length))) return "";
  return text.slice(prefix.length + 1);
}

/** The longest prefix ending at a separator that every name has with something left after it. */
function sharedPrefix(names) {
  if (names.length < 2) return "";
  var first = names[0], cut = 0;
  for (var i = 0; i < first.length; i++) {
    var ch = first.charAt(i);
    if (!names.every(function (n) { return n.charAt(i) === ch; })) break;
    if (SEP.test(ch)) cut = i + 1;
  }
  return names.every(function (n) { return n.length > cut; }) ? first.slice(0, cut) : "";
}

function computeNames() {
  var out = new Map(), used = new Map();
  childrenOf.forEach(function (kids, holder) {
    var hn = fullName(holder), hid = holder;
    var rel = kids.map(function (k) { var n = fullName(k); return after(n, hn) || after(n, hid) || n; });
    var cut = sharedPrefix(rel).length;
    kids.forEach(function (k, i) {
      var name = rel[i].slice(cut);
      if (kids.length === 1 && SEP.test(name)) name = name.split(SEP).filter(Boolean).pop() || name;
      out.set(k, name || fullName(k));
    });
  });
  nodesById.forEach(function (n, id) {
    if (!placeOf.get(id) || placeOf.get(id).depth) return;
    var name = fullName(id);
    if (str(n.kind) !== "user") used.set(name, true);
  });
  nodesById.forEach(function (n, id) {
    var p = placeOf.get(id);
    if (str(n.kind) === "user" && p && !p.depth && used.has(fullName(id))) out.set(id, fullName(id) + " (actor)");
  });
  return out;
}

/** The one counting rule, as repomodeler/model/counts.py says it for the CLI and the cards: a
    connection counts when both its ends are top-level components; one touching a part inside a
    component is a link inside it. */
export function isTopLink(e) { return !!e && !isSubsystem(str(e.source)) && !isSubsystem(str(e.target)); }

/** Counts of node ids and edge ids by that rule: components (top level), connections (between
    two of them), and apart the subsystems, the logical databases inside their server, and the
    links touching either. */
export function tally(nodeIds, edgeIds) {
  var t = { components: 0, connections: 0, subsystems: 0, databases: 0, links: 0 };
  nodeIds.forEach(function (id) {
    var n = nodesById.get(id);
    if (!n) return;
    if (!isSubsystem(id)) t.components++;
    else if (str(n.kind) === "database") t.databases++;
    else t.subsystems++;
  });
  edgeIds.forEach(function (id) {
    var e = edgesById.get(id);
    if (!e) return;
    if (isTopLink(e)) t.connections++; else t.links++;
  });
  return t;
}

/** The open set the graph should have: what the user opened, plus the ancestors of subsystems the
    search matches; only components with at least one child the facets leave (`allowed`). */
export function wantedOpen(allowed) {
  var want = new Set();
  state.open.forEach(function (id) { if (childrenOf.has(id)) want.add(id); });
  var q = state.q.trim().toLowerCase();
  if (q) {
    childrenOf.forEach(function (kids) {
      kids.forEach(function (k) { if (allowed(k) && nodeText.get(k).indexOf(q) >= 0) ancestorsOf(k).forEach(function (a) { want.add(a); }); });
    });
  }
  var out = new Set();
  want.forEach(function (id) { if ((childrenOf.get(id) || []).some(allowed)) out.add(id); });
  return out;
}

export function sameSet(a, b) {
  if (a.size !== b.size) return false;
  var same = true;
  a.forEach(function (x) { if (!b.has(x)) same = false; });
  return same;
}

/** Keys "source>target:protocol" of connections that subsystem connections refine: for each
    connection from (to) a subsystem, every ancestor of its source (target) with the other end as
    shown. A component-level connection whose key is here is left out while its component is open. */
export function refinedKeys(edges, shown) {
  var keys = new Set();
  edges.forEach(function (e) {
    var s = str(e.source), t = str(e.target), p = str(e.protocol);
    ancestorsOf(s).forEach(function (a) { keys.add(a + ">" + shown(t) + ":" + p); });
    ancestorsOf(t).forEach(function (a) { keys.add(shown(s) + ">" + a + ":" + p); });
  });
  return keys;
}
