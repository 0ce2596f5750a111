/* The details panel: the selected component, port, connection, repository or aggregated
   connection with its attributes, connections, resolution steps and evidence (code first,
   descriptor copies folded), with source snippets from the API or the published data file. */
import { staticSnippets } from "./data.js";
import { isSubsystem, parentOf } from "./drill.js";
import { changesAbout, comparisonSection, renderGhost } from "./overlay.js";
import { parsePortKey, ports } from "./ports.js";
import { API, MODE, RM, SNIPPETS_AUTO, arr, childrenOf, clear, cy, edgesById, el, focusOn, ghostEdges, ghostNodes, model, nodesById, on, openNow, repoInfo, select, showTab, state, str, toggleOpen, toggleRepo } from "./state.js";
import { attrRows, copyLinkButton, edgeLabel, kindBadge, kv, nodeLink, protoBadge } from "./ui.js";

/** The details panel follows the selection, opening and collapsing, and the comparison shown. */
export function wireDetails() {
  ["select", "open", "collapse", "overlay"].forEach(function (event) { on(event, renderDetails); });
}

export const CODE_EXT = /\.(py|pyi|js|mjs|cjs|jsx|ts|tsx|go|java|kt|kts|cs|rs|rb|php|scala|swift|c|cc|cpp|h|hpp)$/i;

export function evLoc(ev) { return str(ev.repository) + ": " + str(ev.path) + (ev.line ? ":" + ev.line : ""); }

export function baseName(path) { var s = str(path); return s.slice(s.lastIndexOf("/") + 1); }

/** Evidence in reading order: code (call sites, reads) first, then configuration and
    descriptors, where copies of one file (same name, same line; e.g. a manifest repeated per
    environment) fold into one entry that names the others. */
export function groupEvidence(list) {
  var code = [], desc = [], byKey = new Map();
  arr(list).forEach(function (ev) {
    if (!ev || typeof ev !== "object") return;
    if (CODE_EXT.test(str(ev.path))) { code.push({ ev: ev, copies: [] }); return; }
    var key = baseName(ev.path) + "\u0000" + str(ev.line);
    if (byKey.has(key)) { byKey.get(key).copies.push(ev); return; }
    var entry = { ev: ev, copies: [] };
    byKey.set(key, entry); desc.push(entry);
  });
  return { code: code, desc: desc };
}

export function evidenceCard(entry, counter) {
  var ev = entry.ev;
  var repo = repoInfo.get(str(ev.repository)) || {};
  var forge = RM.forgeUrl(repo.url, repo.commit, ev.path, ev.line);
  var body = el("div", { class: "snippet-box" });
  var head = el("div", { class: "ev-head" },
    el("span", { class: "loc", text: evLoc(ev) }),
    forge ? el("a", { href: forge.url, target: "_blank", rel: "noopener noreferrer", text: forge.label + " ↗", "aria-label": "Open " + str(ev.path) + " on " + forge.label }) : null);
  var card = el("div", { class: "evidence" }, head);
  if (entry.copies.length) {
    var n = entry.copies.length;
    var more = el("details", { class: "copies" }, el("summary", { text: "and " + n + " cop" + (n === 1 ? "y" : "ies") + " (same file name and line)" }));
    var ul = el("ul", { class: "list" });
    entry.copies.forEach(function (c) { ul.appendChild(el("li", null, el("code", { text: evLoc(c) }))); });
    more.appendChild(ul);
    card.appendChild(more);
  }
  card.appendChild(body);
  if (counter.n++ < SNIPPETS_AUTO) loadSnippet(ev, body);
  else body.appendChild(el("div", { class: "snippet-msg" }, el("a", { text: "Show source", "aria-label": "Show source of " + evLoc(ev), onclick: function () { clear(body); loadSnippet(ev, body); } })));
  return card;
}

export function evidenceList(list, counter, grouped) {
  var box = el("div", { class: "evidence-list" });
  var g = groupEvidence(list);
  if (grouped && g.code.length && g.desc.length) {
    box.appendChild(el("h4", { text: "In code · " + g.code.length }));
    g.code.forEach(function (e) { box.appendChild(evidenceCard(e, counter)); });
    box.appendChild(el("h4", { text: "In configuration and descriptors · " + g.desc.length }));
    g.desc.forEach(function (e) { box.appendChild(evidenceCard(e, counter)); });
  } else {
    g.code.concat(g.desc).forEach(function (e) { box.appendChild(evidenceCard(e, counter)); });
  }
  if (!box.childNodes.length) box.appendChild(el("p", { class: "hint", text: "No evidence recorded." }));
  return box;
}

/** The steps the resolver took, where the model names them: `attributes.chain` (a list) or
    `via` ("env X", "a -> b -> c"), between the code that calls and the component reached. */
export function resolutionSteps(e) {
  var attrs = e.attributes || {}, steps = [];
  var via = Array.isArray(attrs.chain) ? attrs.chain.map(str) : str(attrs.via).split(/\s*(?:->|→|;)\s*/).filter(Boolean);
  if (!via.length) return null;
  var g = groupEvidence(e.evidence);
  var src = nodesById.get(str(e.source)) || {}, dst = nodesById.get(str(e.target)) || {};
  var verb = { calls: "makes a call", uses: "opens a connection", publishes: "publishes messages", subscribes: "subscribes to messages" }[str(e.kind)] || "connects";
  steps.push({ what: "The code of " + str(src.name || e.source) + " " + verb, where: g.code.map(function (x) { return evLoc(x.ev); }) });
  var env = false;
  via.forEach(function (v) {
    var m = /^env\s+(.+)$/.exec(v);
    if (m) env = true;
    steps.push({ what: m ? "to the address in the setting " + m[1] : "via " + v });
  });
  if (g.desc.length) steps.push({ what: env ? "whose value the configuration sets" : "as the configuration declares", where: g.desc.map(function (x) { return evLoc(x.ev); }) });
  steps.push({ what: "reaching " + str(dst.name || e.target) + (attrs.endpoints ? " (" + str(attrs.endpoints) + ")" : "") });
  return steps;
}

export function stepsList(steps) {
  var ol = el("ol", { class: "steps" });
  steps.forEach(function (st) {
    var li = el("li", null, el("span", { text: st.what }));
    if (st.where && st.where.length) li.appendChild(el("div", { class: "step-where" }, st.where.map(function (w) { return el("code", { text: w }); })));
    ol.appendChild(li);
  });
  return ol;
}

// ---- the rules that made an element
let ruleMessages = null; // rule id -> message, from the model's catalogue (read once)

/** The rules that made `item` (its model.json `rules`, a list of rule ids), each with its message
    from the model's top-level catalogue (`rules`: [{id, message}]); null when it names none. */
export function rulesOf(item) {
  var ids = arr(item && item.rules).map(str).filter(Boolean);
  if (!ids.length) return null;
  if (!ruleMessages) {
    ruleMessages = new Map();
    arr(model.rules).forEach(function (r) { if (r && typeof r === "object" && r.id !== undefined) ruleMessages.set(str(r.id), str(r.message)); });
  }
  return ids.filter(function (id, i) { return ids.indexOf(id) === i; }).map(function (id) { return { id: id, message: ruleMessages.get(id) || "" }; });
}

export function rulesList(rules) {
  var ul = el("ul", { class: "list rules", id: "rules" });
  rules.forEach(function (r) {
    ul.appendChild(el("li", { dataset: { rule: r.id } }, el("code", { class: "rule-id", text: r.id }),
      r.message ? el("span", { class: "rule-msg", text: r.message }) : null));
  });
  return ul;
}

/** "How it was resolved": the rules that made the element, when the model names them, then the
    resolver's steps for a connection (attributes.chain / via); nothing when neither is known
    (the attributes table still shows resolved_by and patterns). */
export function resolvedSection(box, item, steps) {
  var rules = rulesOf(item);
  if (!rules && !steps) return;
  box.appendChild(el("h3", { text: "How it was resolved", id: "resolved-title" }));
  if (rules) box.appendChild(rulesList(rules));
  if (steps) box.appendChild(stepsList(steps));
}

export function loadSnippet(ev, body) {
  var line = parseInt(ev.line, 10) || 1;
  function show(data) {
    var pre = el("div", { class: "snippet", tabindex: "0", role: "region", "aria-label": "Source of " + evLoc(ev) });
    arr(data.lines).forEach(function (text, i) {
      var no = data.start + i;
      pre.appendChild(el("div", { class: "row" + (no === data.highlight ? " hl" : "") }, el("span", { class: "ln", text: no }), el("span", { class: "code", text: text })));
    });
    clear(body); body.appendChild(pre);
  }
  function fail(msg) { clear(body); body.appendChild(el("div", { class: "snippet-msg", text: msg })); }
  if (MODE === "static") {
    var key = str(ev.repository) + "\n" + str(ev.path) + "\n" + line;
    if (staticSnippets[key]) show(staticSnippets[key]); else fail("Source not included in this published site.");
    return;
  }
  body.appendChild(el("div", { class: "snippet-msg", text: "Loading source…" }));
  var url = API + "/source?" + new URLSearchParams({ repository: str(ev.repository), path: str(ev.path), line: String(line) }).toString();
  fetch(url).then(function (r) {
    if (!r.ok) { // a 404 of a missing checkout says how to make it available (serve --source-root)
      return r.json().catch(function () { return {}; }).then(function (body) {
        var why = r.status === 404 && typeof body.detail === "string" && body.detail !== "not found" ? body.detail : "";
        fail(why || (r.status === 404 ? "Source not available (checkout missing or file not cited)." : "Source request refused (" + r.status + ")."));
      });
    }
    return r.json().then(show);
  }).catch(function () { fail("Source could not be loaded."); });
}

/** Show the selection (state.sel) in the details panel. */
export function renderDetails() {
  var box = document.getElementById("details-body");
  clear(box);
  var sel = state.sel;
  var counter = { n: 0 };
  if (!sel) { box.appendChild(el("p", { class: "hint", text: "Select a component or connection to see its attributes and evidence." })); return; }
  var kind = sel.slice(0, 2), id = sel.slice(2);
  if (kind === "n:" && ghostNodes.has(id)) return renderGhost(box, "component", id);
  if (kind === "e:" && ghostEdges.has(id)) return renderGhost(box, "connection", id);
  if (kind === "n:" && nodesById.has(id)) return renderNode(box, id, counter);
  if (kind === "e:" && edgesById.has(id)) return renderEdge(box, id, counter);
  if (kind === "p:") return renderPort(box, id, counter);
  if (kind === "r:") return renderRepo(box, id);
  if (kind === "a:") return renderAgg(box, id);
  box.appendChild(el("p", { class: "hint", text: "The selected element is not in this model." }));
}

/** What a component's parts are called: the logical databases of a database server, else subsystems. */
function partsWord(kids) {
  return kids.every(function (k) { return str(nodesById.get(k).kind) === "database"; }) ? "databases" : "subsystems";
}

export function renderNode(box, id, counter) {
  var n = nodesById.get(id);
  box.appendChild(el("h2", { text: str(n.name || id), id: "details-title" }));
  var outer = parentOf(id), kids = childrenOf.get(id) || [];
  box.appendChild(el("div", { class: "sub" }, kindBadge(str(n.kind)), outer ? el("span", null, "in ", nodeLink(outer)) : null,
    el("span", { text: str(n.repository) }), n.language ? el("span", { class: "chip", text: str(n.language) }) : null));
  box.appendChild(el("div", { class: "focus-row" },
    el("button", { class: "btn small", type: "button", text: "Focus here", onclick: function () { focusOn(id); } }),
    kids.length ? el("button", { class: "btn ghost small", type: "button", id: "btn-open", "aria-pressed": openNow.has(id) ? "true" : "false",
      text: (openNow.has(id) ? "Hide " : "Show ") + partsWord(kids), onclick: function () { toggleOpen(id); } }) : null,
    el("button", { class: "btn ghost small", type: "button", text: "Show in SysML", onclick: function () { showTab("sysml"); } }), copyLinkButton()));
  box.appendChild(kv([["id", str(n.id)]].concat(attrRows(n.attributes))));
  comparisonSection(box, changesAbout("n:", id));
  resolvedSection(box, n, null);
  if (kids.length) {
    var word = partsWord(kids);
    box.appendChild(el("h3", { text: word.charAt(0).toUpperCase() + word.slice(1) + " · " + kids.length }));
    var subs = el("ul", { class: "list", id: "subsystems" });
    kids.slice().sort(function (a, b) { return str(nodesById.get(a).name || a) < str(nodesById.get(b).name || b) ? -1 : 1; })
      .forEach(function (k) { subs.appendChild(el("li", null, kindBadge(str(nodesById.get(k).kind)), " ", nodeLink(k))); });
    box.appendChild(subs);
  }
  var portList = arr(n.ports);
  if (portList.length) {
    box.appendChild(el("h3", { text: "Ports & endpoints" }));
    portList.forEach(function (p, i) {
      var head = el("div", { class: "port-head" }, el("a", { text: str(p.name || "port"), onclick: function () { select("p:" + id + "#" + i); } }),
        protoBadge(str(p.protocol)), el("span", { class: "muted", text: str(p.direction) }));
      box.appendChild(el("div", { class: "port" }, head, endpointGroups(arr(p.endpoints))));
    });
  }
  var out = [], inc = [];
  edgesById.forEach(function (e, eid) { if (str(e.source) === id) out.push(eid); if (str(e.target) === id) inc.push(eid); });
  [["Calls / uses (outgoing)", out, "target"], ["Used by (incoming)", inc, "source"]].forEach(function (grp) {
    if (!grp[1].length) return;
    box.appendChild(el("h3", { text: grp[0] + " · " + grp[1].length }));
    var ul = el("ul", { class: "list" });
    grp[1].forEach(function (eid) {
      var e = edgesById.get(eid);
      ul.appendChild(el("li", null, protoBadge(str(e.protocol)), " ", nodeLink(str(e[grp[2]])), " ",
        el("a", { class: "muted", text: "(" + str(e.kind) + ")", onclick: function () { select("e:" + eid, { center: true }); } })));
    });
    box.appendChild(ul);
  });
  var unresolved = arr(model.unresolved).filter(function (u) { return u && str(u.component) === id; });
  if (unresolved.length) {
    box.appendChild(el("h3", { text: "Unresolved references · " + unresolved.length }));
    // their snippets load on request, so they never crowd out the component's own evidence
    var later = { n: SNIPPETS_AUTO };
    unresolved.forEach(function (u) {
      box.appendChild(el("div", { class: "unresolved" }, el("code", { text: str(u.value) })));
      box.appendChild(evidenceList(u.evidence ? [u.evidence] : [], later));
    });
  }
  box.appendChild(el("h3", { text: "Evidence" }));
  box.appendChild(evidenceList(n.evidence, counter, true));
}

/** Endpoints as lists under their path prefix ("/api/orders · 3"): the deepest prefix (up to three
    segments) that splits them into at least two groups and at most half as many groups as
    endpoints (ten at most); one plain list when none does. */
export function groupByPrefix(endpoints) {
  var paths = endpoints.map(function (ep) { return str(ep && ep.path).split("?")[0].split("/").filter(Boolean); });
  var chosen = null, most = Math.min(10, Math.ceil(endpoints.length / 2));
  for (var depth = 1; depth <= 3; depth++) {
    var byKey = new Map();
    endpoints.forEach(function (ep, i) {
      var key = "/" + paths[i].slice(0, depth).join("/");
      if (!byKey.has(key)) byKey.set(key, []);
      byKey.get(key).push(ep);
    });
    if (byKey.size > 1 && byKey.size <= most) chosen = byKey; // the deepest split that still groups
    if (byKey.size > most) break;
  }
  chosen = chosen || new Map([["/", endpoints]]);
  return Array.from(chosen.entries()).sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0; });
}

function endpointItem(ep) {
  return el("li", { class: "endpoint" }, el("span", { class: "method " + str(ep.method).replace(/[^A-Z]/g, ""), text: str(ep.method || "—") }), el("code", { text: str(ep.path) }));
}

export function endpointGroups(endpoints) {
  endpoints = endpoints.filter(function (ep) { return ep && typeof ep === "object"; });
  if (!endpoints.length) return null;
  var groups = groupByPrefix(endpoints);
  if (groups.length < 2 || endpoints.length < 4) { var ul = el("ul", { class: "list" }); endpoints.forEach(function (ep) { ul.appendChild(endpointItem(ep)); }); return ul; }
  var box = el("div", { class: "ep-groups" });
  groups.forEach(function (g) {
    var list = el("ul", { class: "list" });
    g[1].forEach(function (ep) { list.appendChild(endpointItem(ep)); });
    var d = el("details", { class: "ep-group", dataset: { prefix: g[0] } }, el("summary", null, el("code", { text: g[0] }), el("span", { class: "muted", text: " · " + g[1].length })), list);
    d.open = endpoints.length <= 24;
    box.appendChild(d);
  });
  return box;
}

export function renderPort(box, key, counter) {
  var pk = parsePortKey(key), id = pk.node, n = nodesById.get(id);
  if (n && pk.protocol !== null) return renderImpliedPort(box, id, pk.protocol);
  var p = n && arr(n.ports)[pk.index];
  if (!p) { box.appendChild(el("p", { class: "hint", text: "Port not found." })); return; }
  box.appendChild(el("h2", { text: str(p.name || "port") }));
  box.appendChild(el("div", { class: "sub" }, "port of ", nodeLink(id), protoBadge(str(p.protocol)), el("span", { text: str(p.direction) })));
  box.appendChild(kv(attrRows(p.attributes)));
  box.appendChild(el("h3", { text: "Endpoints · " + arr(p.endpoints).length }));
  arr(p.endpoints).forEach(function (ep) {
    box.appendChild(el("div", { class: "endpoint port-head" }, el("span", { class: "method " + str(ep.method).replace(/[^A-Z]/g, ""), text: str(ep.method || "—") }), el("code", { text: str(ep.path) })));
    box.appendChild(evidenceList(ep.evidence, counter));
  });
  if (arr(p.evidence).length) { box.appendChild(el("h3", { text: "Evidence" })); box.appendChild(evidenceList(p.evidence, counter)); }
  var callers = el("ul", { class: "list" }), pkey = "p:" + key, edgePort = ports().edgePort;
  edgesById.forEach(function (e, eid) {
    if (edgePort.get(eid) !== pkey || isSubsystem(str(e.source))) return; // a subsystem's copy of its component's link
    callers.appendChild(el("li", null, protoBadge(str(e.protocol)), " ", nodeLink(str(e.source)), " ",
      el("a", { class: "muted", text: "(" + str(e.kind) + ")", onclick: function () { select("e:" + eid, { center: true }); } })));
  });
  if (callers.childNodes.length) { box.appendChild(el("h3", { text: "Connected from · " + callers.childNodes.length })); box.appendChild(callers); }
}

/** A port model.sysml gives a component because connections arrive over a protocol for which
    the analysis found no endpoints (databases, caches, brokers, services without routes). */
export function renderImpliedPort(box, id, protocol) {
  box.appendChild(el("h2", { text: protocol + " (implied port)", id: "details-title" }));
  box.appendChild(el("div", { class: "sub" }, "port of ", nodeLink(id), protoBadge(protocol), el("span", { text: "provided" })));
  box.appendChild(el("p", { class: "hint", text: "Connections reach " + str(nodesById.get(id).name || id) + " over " + protocol +
    ", so model.sysml declares this port for them; the analysis found no endpoints on it." }));
  var ul = el("ul", { class: "list" }), n = 0;
  edgesById.forEach(function (e, eid) {
    if (str(e.target) !== id || str(e.protocol) !== protocol || isSubsystem(str(e.source))) return;
    n++;
    ul.appendChild(el("li", null, protoBadge(protocol), " ", nodeLink(str(e.source)), " ",
      el("a", { class: "muted", text: "(" + str(e.kind) + ")", onclick: function () { select("e:" + eid, { center: true }); } })));
  });
  box.appendChild(el("h3", { text: "Connected from · " + n }));
  box.appendChild(ul);
}

export function renderEdge(box, id, counter) {
  var e = edgesById.get(id);
  box.appendChild(el("h2", { text: edgeLabel(e), id: "details-title" }));
  box.appendChild(el("div", { class: "sub" }, protoBadge(str(e.protocol)), el("span", { text: str(e.kind) })));
  box.appendChild(el("div", { class: "focus-row" },
    el("button", { class: "btn ghost small", type: "button", text: "Show in SysML", onclick: function () { showTab("sysml"); } }), copyLinkButton()));
  box.appendChild(kv([["id", str(e.id)], ["from", nodeLink(str(e.source))], ["to", nodeLink(str(e.target))]].concat(attrRows(e.attributes))));
  comparisonSection(box, changesAbout("e:", id));
  resolvedSection(box, e, resolutionSteps(e));
  box.appendChild(el("h3", { text: "Evidence" }));
  box.appendChild(evidenceList(e.evidence, counter, true));
}

export function renderRepo(box, name) {
  var r = repoInfo.get(name) || { name: name };
  box.appendChild(el("h2", { text: name }));
  box.appendChild(el("div", { class: "sub", text: "repository" }));
  box.appendChild(kv([["url", r.url ? el("a", { href: /^https?:\/\//.test(str(r.url)) ? str(r.url) : "#", target: "_blank", rel: "noopener noreferrer", text: str(r.url) }) : null], ["commit", str(r.commit)], ["ref", str(r.ref)]]));
  var collapsed = state.collapsed.has(name);
  box.appendChild(el("div", { class: "focus-row" }, el("button", { class: "btn small", type: "button", text: collapsed ? "Expand" : "Collapse",
    onclick: function () { toggleRepo(name); } })));
  var ul = el("ul", { class: "list" });
  nodesById.forEach(function (n, id) { if (str(n.repository) === name) ul.appendChild(el("li", null, kindBadge(str(n.kind)), " ", nodeLink(id))); });
  box.appendChild(el("h3", { text: "Components · " + ul.childNodes.length }));
  box.appendChild(ul);
}

export function renderAgg(box, key) {
  var e = cy.getElementById("a:" + key);
  var members = e.nonempty() ? e.data("members") : [];
  box.appendChild(el("h2", { text: members.length + " connection" + (members.length === 1 ? "" : "s") }));
  var ul = el("ul", { class: "list" });
  members.forEach(function (id) { var m = edgesById.get(id); ul.appendChild(el("li", null, protoBadge(str(m.protocol)), " ", el("a", { text: edgeLabel(m), onclick: function () { select("e:" + id); } }))); });
  box.appendChild(ul);
}
