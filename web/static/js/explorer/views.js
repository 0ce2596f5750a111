/* The other views around the graph: the tabs (Graph, Components, SysML), the components table
   (the keyboard and screen-reader path to every component), the SysML text with the selection
   highlighted, the drawers below 900 px and the warnings dialog. */
import { tally } from "./drill.js";
import { parsePortKey } from "./ports.js";
import { arr, clear, cy, edgesById, el, model, nodesById, on, refit, repoInfo, root, select, showTab, state, str, sysmlText, timings, visibleNodes } from "./state.js";
import { kindBadge } from "./ui.js";

export let sysml = null, sysmlRendered = false; // the parsed SysML text, once the SysML tab was opened

// ---- warnings and unresolved
export function setupIssues() {
  var warnings = arr(model.warnings), unresolved = arr(model.unresolved);
  var btn = document.getElementById("btn-issues");
  if (!warnings.length && !unresolved.length) return;
  btn.textContent = "Warnings (" + warnings.length + ") \u00b7 Unresolved (" + unresolved.length + ")";
  btn.classList.remove("hidden");
  btn.classList.toggle("warn", warnings.length > 0);
  btn.addEventListener("click", openIssues);
  document.getElementById("issues-close").addEventListener("click", function () { document.getElementById("issues").close(); });
}

export function evLocation(ev) {
  return ev ? str(ev.repository) + ": " + str(ev.path) + (ev.line ? ":" + ev.line : "") : "";
}

export function openIssues() {
  var dlg = document.getElementById("issues"), body = document.getElementById("issues-body");
  var warnings = arr(model.warnings), unresolved = arr(model.unresolved);
  clear(body);
  body.appendChild(el("h3", { text: "Warnings · " + warnings.length }));
  var wl = el("ul", { class: "list issues-list", id: "warnings-list" });
  warnings.forEach(function (w) {
    if (!w) return;
    wl.appendChild(el("li", null, el("span", { class: "issue-msg", text: str(w.message) }), el("code", { class: "issue-loc", text: evLocation(w) })));
  });
  if (!warnings.length) wl.appendChild(el("li", { class: "hint", text: "None." }));
  body.appendChild(wl);
  body.appendChild(el("h3", { text: "Unresolved references · " + unresolved.length }));
  body.appendChild(el("p", { class: "hint", text: "Values analysis saw but could not turn into a connection (dynamic URLs, ambiguous clients). Nothing was guessed." }));
  var ul = el("ul", { class: "list issues-list", id: "unresolved-list" });
  unresolved.forEach(function (u) {
    if (!u) return;
    var id = str(u.component);
    ul.appendChild(el("li", null,
      el("a", { class: "issue-comp", text: nodesById.has(id) ? str(nodesById.get(id).name || id) : id,
        onclick: function () { dlg.close(); select("n:" + id, { center: true }); } }),
      el("code", { class: "issue-value", text: str(u.value) }),
      el("code", { class: "issue-loc", text: evLocation(u.evidence) })));
  });
  if (!unresolved.length) ul.appendChild(el("li", { class: "hint", text: "None." }));
  body.appendChild(ul);
  dlg.showModal();
}

// ---- SysML view
export function ensureSysml() {
  if (sysmlRendered) return;
  var container = document.getElementById("sysml-code");
  var ts = performance.now();
  sysml = SysML.analyse(sysmlText);
  if (!sysmlText) { container.appendChild(el("p", { class: "hint", text: "This model folder has no model.sysml." })); }
  else SysML.render(container, sysml);
  timings.sysml_ms = Math.round(performance.now() - ts);
  sysmlRendered = true;
  container.addEventListener("click", function (ev) {
    var row = ev.target.closest && ev.target.closest(".line.decl");
    if (!row) return;
    var decl = sysml.lineDecl[parseInt(row.dataset.line, 10)];
    var target = decl && elementForDecl(decl);
    if (target) select(target, { scrollSysml: false });
  });
}

// The id first: emitted SysML declares it (as the short name when it is not a plain name), and a
// subsystem's name ("api") may be the name of another component too.
export function nameCandidates(node) { return [str(node.id), str(node.name)]; }

export function declLineFor(sel) {
  if (!sysml || !sel) return 0;
  var kind = sel.slice(0, 2), id = sel.slice(2);
  if (kind === "p:") { id = parsePortKey(id).node; kind = "n:"; }
  if (kind === "n:" && nodesById.has(id)) {
    var c = nameCandidates(nodesById.get(id));
    for (var i = 0; i < c.length; i++) if (sysml.decls.part[c[i]]) return sysml.decls.part[c[i]];
  }
  if (kind === "e:" && edgesById.has(id)) {
    var e = edgesById.get(id), s = nodesById.get(str(e.source)), t = nodesById.get(str(e.target));
    var names = [];
    nameCandidates(s).forEach(function (a) { nameCandidates(t).forEach(function (b) { names.push(a + "-" + b + "-" + str(e.protocol)); }); });
    names.push(id);
    for (var j = 0; j < names.length; j++) {
      if (sysml.decls.connection[names[j]]) return sysml.decls.connection[names[j]];
      if (sysml.decls.interface[names[j]]) return sysml.decls.interface[names[j]];
    }
  }
  if (kind === "r:" && sysml.decls.part[id]) return sysml.decls.part[id];
  return 0;
}

export function elementForDecl(decl) {
  var found = null;
  if (decl.kind === "part") {
    if (nodesById.has(decl.name)) found = "n:" + decl.name;
    nodesById.forEach(function (n, id) { if (!found && str(n.name) === decl.name) found = "n:" + id; });
    if (!found && repoInfo.has(decl.name)) found = "r:" + decl.name;
  } else if (decl.kind === "connection" || decl.kind === "interface") {
    edgesById.forEach(function (e, id) {
      if (found) return;
      var s = nodesById.get(str(e.source)), t = nodesById.get(str(e.target));
      nameCandidates(s).forEach(function (a) { nameCandidates(t).forEach(function (b) { if (a + "-" + b + "-" + str(e.protocol) === decl.name) found = "e:" + id; }); });
      if (id === decl.name) found = "e:" + id;
    });
  }
  return found;
}

export function highlightSysml(scroll) {
  var container = document.getElementById("sysml-code");
  container.querySelectorAll(".line.sel, .line.sel-block").forEach(function (r) { r.classList.remove("sel", "sel-block"); });
  var line = declLineFor(state.sel);
  if (!line) return;
  var end = Math.min(SysML.blockEnd(sysml, line), line + 400);
  for (var i = line; i <= end; i++) {
    var row = container.children[i - 1];
    if (row) row.classList.add(i === line ? "sel" : "sel-block");
  }
  var first = container.children[line - 1];
  if (scroll && first && state.tab === "sysml") first.scrollIntoView({ block: "center" });
}

/** Show the pane of the tab in state.tab. */
export function showPane() {
  var tab = state.tab;
  document.querySelectorAll(".tab").forEach(function (b) {
    var on = b.dataset.tab === tab;
    b.classList.toggle("active", on);
    b.setAttribute("aria-selected", on ? "true" : "false");
    b.tabIndex = on ? 0 : -1;
  });
  ["graph", "list", "sysml"].forEach(function (t) { document.getElementById("pane-" + t).classList.toggle("hidden", tab !== t); });
  document.querySelector(".toolbar").classList.toggle("hidden", tab !== "graph");
  document.getElementById("legend").classList.toggle("hidden", tab !== "graph");
  if (tab === "sysml") { ensureSysml(); highlightSysml(true); }
  else if (tab === "list") renderList();
  else if (cy) cy.resize();
}

// ---- components list (keyboard and screen-reader path)
export function degree() {
  var d = new Map();
  edgesById.forEach(function (e) {
    var s = str(e.source), t = str(e.target);
    d.set(s, (d.get(s) || { in: 0, out: 0 })); d.get(s).out++;
    d.set(t, (d.get(t) || { in: 0, out: 0 })); d.get(t).in++;
  });
  return d;
}

export let degrees = null;

export function markListSelection() {
  document.querySelectorAll("#complist .comp-link").forEach(function (b) {
    var on = state.sel === "n:" + b.dataset.id;
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.closest("tr").classList.toggle("sel", on);
  });
}

export function renderList() {
  var box = document.getElementById("complist");
  if (state.tab !== "list") return;
  degrees = degrees || degree();
  clear(box);
  var ids = Array.from(visibleNodes).sort(function (a, b) {
    var x = str(nodesById.get(a).name || a).toLowerCase(), y = str(nodesById.get(b).name || b).toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  });
  var shown = Math.min(ids.length, 1000);
  var all = tally(Array.from(nodesById.keys()), []), seen = tally(ids, []); // the one counting rule (drill.js)
  var counted = seen.components + " of " + all.components + " components"
    + (all.subsystems ? ", " + seen.subsystems + " of " + all.subsystems + (all.subsystems === 1 ? " subsystem" : " subsystems") : "")
    + (all.databases ? ", " + seen.databases + " of " + all.databases + (all.databases === 1 ? " database" : " databases") + " inside servers" : "");
  box.appendChild(el("p", { class: "hint", id: "complist-count", text: counted + " (the filters apply)" + (shown < ids.length ? "; the first " + shown + " are listed, search to narrow" : "") }));
  var table = el("table", { class: "comp-table", "aria-describedby": "complist-count" },
    el("thead", null, el("tr", null, ["Component", "Kind", "Repository", "Language", "In", "Out"].map(function (h) { return el("th", { scope: "col", text: h }); }))));
  var tbody = el("tbody");
  ids.slice(0, shown).forEach(function (id) {
    var n = nodesById.get(id), d = degrees.get(id) || { in: 0, out: 0 };
    var sel = state.sel === "n:" + id;
    tbody.appendChild(el("tr", { class: sel ? "sel" : "" },
      el("td", null, el("button", { type: "button", class: "linkbtn comp-link", dataset: { id: id }, "aria-pressed": sel ? "true" : "false", text: str(n.name || id),
        onclick: function () { select("n:" + id); openDrawer("details"); } })),
      el("td", null, kindBadge(str(n.kind))),
      el("td", { text: str(n.repository) || "—" }),
      el("td", { text: str(n.language) || "—" }),
      el("td", { class: "num", text: d.in }),
      el("td", { class: "num", text: d.out })));
  });
  table.appendChild(tbody);
  box.appendChild(table);
}

// ---- drawers (narrow screens) and the hover tooltip
export let narrow = window.matchMedia("(max-width: 899px)");

export function openDrawer(which) {
  if (!narrow.matches) return;
  closeDrawer(which === "filters" ? "details" : "filters", true);
  root.classList.add("show-" + which);
  document.getElementById("btn-" + which).setAttribute("aria-expanded", "true");
  var close = document.querySelector("#" + which + " .drawer-close");
  if (close) close.focus({ preventScroll: true });
}

export function closeDrawer(which, quiet) {
  if (!root.classList.contains("show-" + which)) return;
  root.classList.remove("show-" + which);
  var btn = document.getElementById("btn-" + which);
  btn.setAttribute("aria-expanded", "false");
  if (!quiet) btn.focus({ preventScroll: true });
}

export function wireDrawers() {
  ["filters", "details"].forEach(function (which) {
    document.getElementById("btn-" + which).addEventListener("click", function () {
      if (root.classList.contains("show-" + which)) closeDrawer(which); else openDrawer(which);
    });
  });
  document.querySelectorAll(".drawer-close").forEach(function (b) { b.addEventListener("click", function () { closeDrawer(b.dataset.close); }); });
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "Escape") return;
    if (root.classList.contains("show-details")) closeDrawer("details");
    else if (root.classList.contains("show-filters")) closeDrawer("filters");
  });
  narrow.addEventListener("change", function () {
    closeDrawer("filters", true); closeDrawer("details", true);
    if (cy) refit();
  });
}

/** The tabs, and what follows the store: the shown pane, the list (the filters apply), the
    selection marked in the list and in the SysML text. */
export function wireTabs() {
  on("tab", showPane);
  on("visible", function () { if (state.tab === "list") renderList(); });
  on("select", function (ev) {
    if (state.tab === "list") markListSelection();
    if (sysmlRendered) highlightSysml(ev.opts.scrollSysml !== false);
  });
  var tabs = Array.prototype.slice.call(document.querySelectorAll(".tab"));
  tabs.forEach(function (b, i) {
    b.addEventListener("click", function () { showTab(b.dataset.tab); });
    b.addEventListener("keydown", function (ev) {
      var j = ev.key === "ArrowRight" ? i + 1 : ev.key === "ArrowLeft" ? i - 1 : ev.key === "Home" ? 0 : ev.key === "End" ? tabs.length - 1 : null;
      if (j === null) return;
      ev.preventDefault();
      var next = tabs[(j + tabs.length) % tabs.length];
      showTab(next.dataset.tab); next.focus();
    });
  });
}
