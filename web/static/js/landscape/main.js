// The landscape page: every system of an organisation as a box, the connections between systems
// on a canvas behind them, a system's components and links on click, search across all systems.
// It reads /api/landscape (a repomodeler/model@1 document whose top-level nodes are systems and
// whose other nodes are their components, `parent` naming the system). Separate from the
// explorer's modules on purpose: it shares no state with them. Repository-derived text is only
// ever set as textContent, never as markup.

const root = document.getElementById("landscape");
const grid = document.getElementById("ls-grid");
const canvas = document.getElementById("ls-links");
const search = document.getElementById("ls-search");
const results = document.getElementById("ls-results");
const count = document.getElementById("ls-count");
const detail = document.getElementById("ls-detail");

const state = { systems: [], bySystem: new Map(), components: [], pairs: new Map(), links: [], boxes: new Map(), selected: "", query: "" };

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/* Where each node sits (its system, its depth) is the server's answer (/api/landscape/nesting, from
   repomodeler.model.nesting): nothing here works nesting out of a node's fields. */
let placement = {};
function systemOf(id) { const p = placement[id]; return p ? p.top : id; }
function depthOf(id) { const p = placement[id]; return p ? p.depth : 0; }

function index(model) {
  for (const n of model.nodes) {
    if (depthOf(n.id) === 0) {
      state.systems.push(n);
      state.bySystem.set(n.id, { node: n, components: [], out: [], in: [] });
    }
  }
  for (const n of model.nodes) {
    const system = systemOf(n.id);
    if (depthOf(n.id) > 0 && state.bySystem.has(system)) {
      state.bySystem.get(system).components.push(n);
      state.components.push({ node: n, system, text: `${n.name} ${n.repository || ""} ${n.kind}`.toLowerCase() });
    }
  }
  for (const e of model.edges) {
    const a = systemOf(e.source), b = systemOf(e.target);
    if (a === b || !state.bySystem.has(a) || !state.bySystem.has(b)) continue;
    state.links.push(e);
    state.bySystem.get(a).out.push(e);
    state.bySystem.get(b).in.push(e);
    const key = a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
    state.pairs.set(key, (state.pairs.get(key) || 0) + 1);
  }
}

function renderBoxes() {
  const frag = document.createDocumentFragment();
  for (const s of state.systems) {
    const info = state.bySystem.get(s.id);
    const box = el("button", "ls-system");
    box.type = "button";
    box.setAttribute("role", "listitem");
    box.dataset.id = s.id;
    box.append(el("b", "", s.name));
    box.append(el("small", "", `${info.components.length} components · ${info.out.length + info.in.length} links`));
    box.title = `${s.name}: ${s.attributes && s.attributes.repositories ? s.attributes.repositories : ""}`;
    state.boxes.set(s.id, box);
    frag.append(box);
  }
  grid.append(frag);
}

// Box centres, read once per layout (one forced layout for every box, not one per link).
let centres = new Map();
function measure() {
  centres = new Map();
  for (const [id, box] of state.boxes) centres.set(id, [box.offsetLeft + box.offsetWidth / 2, box.offsetTop + box.offsetHeight / 2]);
  canvas.width = grid.scrollWidth;
  canvas.height = grid.scrollHeight;
  canvas.style.width = `${grid.scrollWidth}px`;
  canvas.style.height = `${grid.scrollHeight}px`;
}

function drawLinks() {
  const ctx = canvas.getContext("2d");
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const sel = state.selected;
  ctx.lineWidth = 1;
  ctx.strokeStyle = sel ? "rgba(100,110,130,0.06)" : "rgba(100,110,130,0.18)";
  ctx.beginPath();
  for (const key of state.pairs.keys()) {
    const [a, b] = key.split("\u0000");
    if (sel && (a === sel || b === sel)) continue;
    const p = centres.get(a), q = centres.get(b);
    if (!p || !q) continue;
    ctx.moveTo(p[0], p[1]);
    ctx.lineTo(q[0], q[1]);
  }
  ctx.stroke();
  if (!sel) return;
  const info = state.bySystem.get(sel);
  ctx.lineWidth = 2;
  for (const [list, colour] of [[info.out, "#2563eb"], [info.in, "#7c3aed"]]) {
    ctx.strokeStyle = colour;
    ctx.beginPath();
    for (const e of list) {
      const p = centres.get(systemOf(e.source)), q = centres.get(systemOf(e.target));
      if (!p || !q) continue;
      ctx.moveTo(p[0], p[1]);
      ctx.lineTo(q[0], q[1]);
    }
    ctx.stroke();
  }
}

function evidenceText(e) {
  const ev = (e.evidence || [])[0];
  return ev ? `${ev.repository}:${ev.path}:${ev.line}` : "";
}

function linkItem(e, outgoing, highlight) {
  const li = el("li");
  const other = outgoing ? e.target : e.source;
  const btn = el("button", "", `${outgoing ? "→" : "←"} ${other}`);
  btn.type = "button";
  btn.addEventListener("click", () => select(systemOf(other)));
  li.append(btn, document.createTextNode(` ${e.kind.replace("_", " ")} (${e.protocol})`));
  const attrs = e.attributes || {};
  const what = attrs.topics || attrs.packages || attrs.via || "";
  if (what) li.append(document.createTextNode(`: ${what}`));
  li.append(el("span", "ev", evidenceText(e)));
  if (highlight && (e.source === highlight || e.target === highlight)) li.classList.add("hit");
  return li;
}

function select(id, component) {
  if (!state.bySystem.has(id)) return;
  const previous = state.selected;
  if (previous && state.boxes.has(previous)) {
    const old = state.boxes.get(previous);
    old.classList.remove("sel");
    const chips = old.querySelector(".ls-chips");
    if (chips) chips.remove();
  }
  for (const box of grid.querySelectorAll(".ls-system.peer")) box.classList.remove("peer");
  state.selected = id;
  const info = state.bySystem.get(id);
  const box = state.boxes.get(id);
  box.classList.add("sel");
  // drill in place: the system's components inside its box (the first 60; the list beside has them all)
  const chips = el("div", "ls-chips");
  for (const c of info.components.slice(0, 60)) chips.append(el("span", "ls-chip", c.name));
  if (info.components.length > 60) chips.append(el("span", "ls-chip", `+${info.components.length - 60}`));
  box.append(chips);
  for (const e of info.out) state.boxes.get(systemOf(e.target)).classList.add("peer");
  for (const e of info.in) state.boxes.get(systemOf(e.source)).classList.add("peer");
  document.getElementById("ls-detail-title").textContent = info.node.name;
  const attrs = info.node.attributes || {};
  document.getElementById("ls-detail-meta").textContent =
    `${info.components.length} components · repositories: ${attrs.repositories || "none"}`;
  const open = document.getElementById("ls-detail-open");
  open.href = `${root.dataset.modelHref}${encodeURIComponent(attrs.model || id)}${root.dataset.modelSuffix || ""}`;
  const comps = document.getElementById("ls-detail-components");
  comps.replaceChildren(...info.components.map((c) => {
    const li = el("li", c.id === component ? "hit" : "", `${c.name} (${c.kind}${c.repository ? `, ${c.repository}` : ""})`);
    li.dataset.id = c.id;
    return li;
  }));
  const links = document.getElementById("ls-detail-links");
  links.replaceChildren(...info.out.map((e) => linkItem(e, true, component)), ...info.in.map((e) => linkItem(e, false, component)));
  detail.classList.remove("hidden");
  measure();
  drawLinks();
  const url = new URL(window.location.href);
  url.searchParams.set("system", id);
  window.history.replaceState(null, "", url);
}

function runSearch() {
  const q = search.value.trim().toLowerCase();
  state.query = q;
  results.replaceChildren();
  for (const box of state.boxes.values()) box.classList.remove("match", "dim");
  if (!q) { count.textContent = ""; return; }
  const systems = new Set();
  const hits = [];
  for (const s of state.systems) if (s.name.toLowerCase().includes(q)) { systems.add(s.id); hits.push({ system: s.id, label: `system ${s.name}` }); }
  for (const c of state.components) {
    if (c.text.includes(q)) {
      systems.add(c.system);
      hits.push({ system: c.system, component: c.node.id, label: `${c.node.name} (${c.node.kind}) in ${c.system}` });
    }
  }
  for (const [id, box] of state.boxes) box.classList.add(systems.has(id) ? "match" : "dim");
  count.textContent = `${hits.length} match${hits.length === 1 ? "" : "es"} in ${systems.size} system${systems.size === 1 ? "" : "s"}`;
  const frag = document.createDocumentFragment();
  for (const h of hits.slice(0, 200)) {
    const li = el("li");
    const btn = el("button", "", h.label);
    btn.type = "button";
    btn.addEventListener("click", () => select(h.system, h.component));
    li.append(btn);
    frag.append(li);
  }
  results.append(frag);
}

/* The landscape and each node's place: from the server's API, or, in a published site opened from
   file:// (where fetch() of a local file is refused), from data/landscape.js, which set
   window.__LANDSCAPE__ before this script ran. */
async function load() {
  const embedded = window.__LANDSCAPE__;
  if (embedded) return { model: embedded.model, placement: embedded.placement || {} };
  const response = await fetch(root.dataset.api, { credentials: "same-origin" });
  if (!response.ok) return { status: response.status };
  const [model, nested] = await Promise.all([
    response.json(),
    fetch(`${root.dataset.api}/nesting`, { credentials: "same-origin" }).then((r) => (r.ok ? r.json() : { placement: {} })),
  ]);
  return { model, placement: nested.placement || {} };
}

async function main() {
  const loaded = await load();
  if (!loaded.model) {
    grid.append(el("p", "hint", loaded.status === 404 ? "No landscape here: run 'repomodeler analyze --inputs FILE' (or --discover DIR) into this folder."
      : `The landscape could not be read (${loaded.status}).`));
    root.dataset.readyMs = String(Math.round(performance.now()));
    return;
  }
  const model = loaded.model;
  placement = loaded.placement;
  document.getElementById("landscape-title").textContent = `Landscape ${model.name}`;
  index(model);
  renderBoxes();
  grid.addEventListener("click", (ev) => {
    const box = ev.target.closest(".ls-system");
    if (box) select(box.dataset.id);
  });
  let timer = 0;
  search.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(runSearch, 120); });
  window.addEventListener("resize", () => { measure(); drawLinks(); });
  measure();
  drawLinks();
  const wanted = new URL(window.location.href).searchParams.get("system");
  if (wanted) select(wanted);
  requestAnimationFrame(() => {
    root.dataset.systems = String(state.systems.length);
    root.dataset.components = String(state.components.length);
    root.dataset.readyMs = String(Math.round(performance.now()));
  });
}

main();
