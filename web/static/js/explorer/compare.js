/* "Compare with…": the select of candidates, fetching an overlay (from
   /api/models/<name>/overlay or, on a published site, from the data file) and the Changes panel
   above the graph. The store holds the overlay shown (state.js setOverlay); overlay.js draws it. */
import { fetchOverlay } from "./data.js";
import { changeSelection, markChangeSelected, renderChangesPanel } from "./overlay.js";
import { candidates, clear, compareWith, el, on, overlay, refit, root, select, setOverlay, setStatus, state, str } from "./state.js";

let overlayRequest = 0; // the latest request: an answer to an earlier one is dropped

export function fillCompareSelect() {
  var sel = document.getElementById("compare");
  clear(sel);
  sel.appendChild(el("option", { value: "", text: candidates.length ? "Compare with\u2026" : "Nothing to compare with" }));
  sel.disabled = !candidates.length;
  sel.title = candidates.length ? "Overlay the differences to a target, a stored run or another model"
    : "Put target .sysml files in this model's targets/ folder (or MODELS_DIR/targets/) to compare with them";
  var groups = { target: "Targets", shared: "Shared targets", run: "Earlier runs", model: "Other models" };
  var groupOf = function (c) { return c.id.indexOf("shared-target:") === 0 ? "shared" : str(c.kind); };
  Object.keys(groups).forEach(function (kind) {
    var items = candidates.filter(function (c) { return c && groupOf(c) === kind; });
    if (!items.length) return;
    var group = el("optgroup", { label: groups[kind] });
    items.forEach(function (c) { group.appendChild(el("option", { value: str(c.id), text: str(c.label), title: str(c.detail) })); });
    sel.appendChild(group);
  });
  sel.value = state.cmp || "";
}

/** Fetch and show the overlay named by state.cmp (or remove it); the latest request wins. */
export function applyComparison() {
  var id = state.cmp, token = ++overlayRequest, sel = document.getElementById("compare");
  if (!id) { setOverlay(null, null); return; }
  if (!candidates.some(function (c) { return c.id === id; })) {
    state.cmp = null; setOverlay(null, null);
    setStatus("The comparison in the link is not available here.");
    return;
  }
  sel.value = id;
  root.dataset.compared = "loading";
  fetchOverlay(id).then(function (ov) {
    if (token === overlayRequest) setOverlay(ov, id);
  }).catch(function (err) {
    if (token !== overlayRequest) return;
    state.cmp = null; setOverlay(null, null);
    setStatus("Could not compare: " + (err && err.message ? err.message : err));
    root.dataset.compared = "error";
  });
}

/** The "Compare with…" select and its Clear button; the Changes panel follows the overlay shown
    (subscribed before the graph, which lays out in the room the panel leaves). */
export function wireCompare() {
  document.getElementById("compare").addEventListener("change", function (ev) { compareWith(ev.target.value || null); });
  document.getElementById("compare-clear").addEventListener("click", function () { compareWith(null); });
  on("compare", applyComparison);
  on("overlay", showChanges);
  on("select", function (ev) { markChangeSelected(document.getElementById("changes"), ev.sel); });
}

function showChanges(ev) {
  var panel = document.getElementById("changes"), id = ev.id;
  document.getElementById("pane-graph").classList.toggle("comparing", !!overlay);
  document.getElementById("compare-clear").classList.toggle("hidden", !overlay);
  if (!overlay) document.getElementById("compare").value = "";
  panel.classList.toggle("hidden", !overlay);
  if (overlay) {
    var cand = candidates.filter(function (c) { return c.id === id; })[0];
    renderChangesPanel(panel, overlay, cand, function (change) { select(changeSelection(change), { center: true }); }, refit);
    markChangeSelected(panel, state.sel);
  } else { clear(panel); panel.classList.remove("folded"); document.getElementById("pane-graph").classList.remove("changes-folded"); }
}
