/* What every part of the explorer shares: the page's settings, the model's indexes, the view state
   kept in the URL, and the Cytoscape instance. A module changes a shared binding through the
   setters here (an imported binding is read-only elsewhere). Model strings only ever reach the
   DOM through textContent (RM.el) or Cytoscape's canvas labels. */

export const RM = window.RM, el = RM.el, clear = RM.clear;
export const root = document.getElementById("explorer");
export const MODE = root.dataset.mode, API = root.dataset.api, FILES = root.dataset.files;
export const BIG = 300;            // above this many components, skip dagre and use the linear block layout
export const RELAYOUT_MAX = 150;   // filter changes re-run the layout up to this many visible components
export const COLLAPSE_ABOVE = 5000; // above this many components, start with repositories collapsed
export const SNIPPETS_AUTO = 5;    // evidence snippets loaded without a click
export const t0 = performance.now();
export const timings = (window.__timings = { ready: false });
const statusEl = document.getElementById("status");

// the model as loaded, and its indexes (filled once by data.js index())
export let model = {}, sysmlText = "", run = {};
export const nodesById = new Map(), edgesById = new Map(), repoInfo = new Map();
export const nodeText = new Map(), edgeText = new Map();
export const facets = { kind: new Map(), protocol: new Map(), repository: new Map(), language: new Map() };
// the view, mirrored in the URL (data.js readHash / writeHash)
export const state = { q: "", xk: new Set(), xp: new Set(), xr: new Set(), xl: new Set(), focus: null, hops: 2, dir: "both", sel: null, tab: "graph", collapsed: new Set(), cmp: null, labels: false, view: "components", open: new Set() };
export let cy = null, big = false;
// comparison: the candidates offered, and what the overlay adds to the graph (compare.js)
export let candidates = [];
export const ghostNodes = new Map(), ghostEdges = new Map(), connectionChange = new Map();

export function setLoaded(m, text, r, cands) { model = m; sysmlText = text; run = r; candidates = cands; }
export function setCy(instance, isBig) { cy = instance; big = isBig; }

export function arr(v) { return Array.isArray(v) ? v : []; }
export function str(v) { return v === null || v === undefined ? "" : String(v); }
export function setStatus(text) { statusEl.textContent = text; }
