/* The ports view: every component drawn as a SysML part (a rectangle named "name : Kind") with its
   API ports on its border, and every connection drawn from the caller to the provider's port, as
   model.sysml writes it (`interface ... connect client ::> caller.'to-x-grpc' to server ::> x.grpc`).

   Ports are the `ports` of each node in model.json (http, grpc... with their endpoints). As in
   model.sysml, a component that receives connections over a protocol it declares no port for
   gets one implied port for that protocol (drawn hollow and dashed: no endpoints were found);
   build-time library links and imports between subsystems have no ports and join the two parts. The caller's conjugated port
   (~GrpcApi in model.sysml) is the point where the line leaves the caller.
   The helpers here compute and place; graph.js draws the view, main.js wires its switch. */
import { arr, cy, edgesById, nodesById, state, str } from "./state.js";

export const PORT_SIZE = 14, PORT_GAP = 24;
/** Links without runtime traffic: build-time libraries and imports between subsystems join parts, not ports. */
export const BUILD_PROTOCOLS = ["library", "import"];

export const KIND_DEF = { service: "Service", database: "Database", cache: "Cache", broker: "Broker", gateway: "Gateway",
  external: "ExternalService", library: "Library", user: "User", webapp: "WebApp", subsystem: "Subsystem" };

/** The selection key of a port: "p:<node>#<index in model.json ports>" or, implied, "p:<node>#<protocol>". */
export function portKeyOf(nodeId, indexOrProtocol) { return "p:" + nodeId + "#" + indexOrProtocol; }

/** "p:" keys without the prefix -> node id and either the model.json index or the implied protocol. */
export function parsePortKey(k) {
  var at = k.lastIndexOf("#"), tail = at < 0 ? "0" : k.slice(at + 1);
  var node = at < 0 ? k : k.slice(0, at);
  if (/^\d+$/.test(tail)) return { node: node, index: parseInt(tail, 10), protocol: null };
  return { node: node, index: null, protocol: tail };
}

/** Ports per component and the port each connection reaches.
    Returns { ports: Map(nodeId -> [port]), edgePort: Map(edgeId -> port key or "") }. */
export function portsIndex(nodesById, edgesById) {
  var ports = new Map(), byProtocol = new Map(), edgePort = new Map();
  nodesById.forEach(function (n, id) {
    var list = [], protos = new Map();
    arr(n.ports).forEach(function (p, i) {
      if (!p || typeof p !== "object") return;
      var port = { key: portKeyOf(id, i), node: id, index: i, name: str(p.name) || str(p.protocol) || "port", protocol: str(p.protocol),
        direction: str(p.direction), endpoints: arr(p.endpoints).length, implied: false,
        sample: arr(p.endpoints).slice(0, 4).map(function (ep) { return (ep && ep.method ? str(ep.method) + " " : "") + str(ep && ep.path); }) };
      list.push(port);
      protos.set(port.protocol, port); // as model.sysml: the last port of a protocol serves it
    });
    ports.set(id, list);
    byProtocol.set(id, protos);
  });
  edgesById.forEach(function (e, id) {
    var proto = str(e.protocol), target = str(e.target);
    if (BUILD_PROTOCOLS.indexOf(proto) >= 0 || !ports.has(target)) { edgePort.set(id, ""); return; }
    var protos = byProtocol.get(target), port = protos.get(proto);
    if (!port) {
      port = { key: portKeyOf(target, proto || "other"), node: target, index: null, name: proto || "other", protocol: proto,
        direction: "provided", endpoints: 0, implied: true, sample: [] };
      protos.set(proto, port);
      ports.get(target).push(port);
    }
    edgePort.set(id, port.key);
  });
  ports.forEach(function (list) { list.sort(function (a, b) { return a.implied - b.implied || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0); }); });
  return { ports: ports, edgePort: edgePort };
}

/** The label of a part: its name lines, then ": Kind" as model.sysml types it. */
export function kindDef(kind) { return KIND_DEF[kind] || (kind ? kind.charAt(0).toUpperCase() + kind.slice(1) : "Component"); }

let portMeasure = null;

/** The width of a port's name as drawn (600 12px in the page's font). */
export function portLabelWidth(text) {
  if (!portMeasure) {
    portMeasure = document.createElement("canvas").getContext("2d");
    portMeasure.font = "600 12px " + (getComputedStyle(document.body).fontFamily || "sans-serif");
  }
  return Math.ceil(portMeasure.measureText(text).width) + 4;
}

/** Room a port takes along the top border: its name is written under it, inside the part. */
export function portSlot(labelW) { return Math.max(PORT_GAP, labelW + 14); }

/** Size a part so its ports and their names fit inside it whichever side the layout puts them on:
    along the left border, names in a column right of the ports and the part's own name beside
    them (`shiftX`); along the top border, names in a row under the ports and the part's name
    below them (`shiftY`). The names never leave the part, so they cannot cover another part, a
    line arriving at a port, or one another. */
export function partSize(box, labels) {
  var nameH = box.h + 17;
  if (!labels.length) return { w: box.w, h: nameH, left: { w: box.w, h: nameH }, top: { w: box.w, h: nameH }, shiftX: 0, shiftY: 0 };
  var widths = labels.map(portLabelWidth), col = Math.max.apply(null, widths) + PORT_SIZE / 2 + 8;
  var row = 0;
  widths.forEach(function (w) { row += portSlot(w); });
  var left = { w: Math.ceil(col + box.w), h: Math.ceil(Math.max(nameH, labels.length * PORT_GAP + 10)) };
  var top = { w: Math.ceil(Math.max(box.w, row + 12)), h: Math.ceil(nameH + 22) };
  return { w: left.w, h: left.h, left: left, top: top, shiftX: Math.round(col / 2), shiftY: 11 };
}

/** Give every part the size its ports need on `side` ("left" or "top"), before a layout runs in
    that direction and once the direction is chosen. */
export function sizeParts(cy, side) {
  cy.batch(function () {
    cy.nodes("[type = 'node'].part").forEach(function (n) {
      var s = n.data(side === "top" ? "sizeTop" : "sizeLeft");
      if (s) n.data({ w: s.w, h: s.h });
    });
  });
}

/** Cytoscape styles of the ports view (added after the kind styles, before the selection). */
export function portStyles() {
  return [
    { selector: "node[type = 'node'].part", style: { "shape": "rectangle", "border-width": 2, "text-valign": "center" } },
    { selector: "node[type = 'port']", style: {
      "shape": "rectangle", "width": PORT_SIZE, "height": PORT_SIZE, "border-width": 2, "border-color": "#0f172a",
      "background-color": "data(color)", "label": "data(label)", "font-size": 12, "font-weight": 600, "color": "#0f172a",
      "text-background-color": "#ffffff", "text-background-opacity": 0.92, "text-background-padding": 2,
      "text-wrap": "none", "min-zoomed-font-size": 0, "events": "yes", "z-index": 20 } },
    // the name sits inside the part, beside the square (left border) or under it (top border), off
    // every line: connections arrive at the square from outside
    { selector: "node[type = 'port'][side = 'left']", style: { "text-halign": "right", "text-valign": "center", "text-margin-x": 4 } },
    { selector: "node[type = 'port'][side = 'top']", style: { "text-halign": "center", "text-valign": "bottom", "text-margin-y": 3 } },
    { selector: "node.part[tmx]", style: { "text-margin-x": "data(tmx)", "text-margin-y": "data(tmy)" } },
    // straight lines, as the layout counts the lines that run across parts (compact.js crossings)
    { selector: "edge[type = 'edge'], edge[type = 'agg']", style: { "curve-style": "straight" } },
    { selector: "node[type = 'port'].implied", style: { "background-color": "#ffffff", "border-style": "dashed", "border-color": "data(color)" } },
    { selector: "edge[type = 'lay']", style: { "display": "none" } },
    { selector: "node[type = 'port']:selected", style: { "border-width": 3, "border-color": "#f59e0b", "underlay-color": "#f59e0b", "underlay-opacity": 0.3, "underlay-padding": 4 } }
  ];
}

/** Put each part's ports on its border: spread along the left side (left-to-right layouts:
    connections arrive from the left) or along the top (top-to-bottom), each port's name inside
    the part next to it, the part's own name moved clear of them. */
export function placePorts(cy, side) {
  cy.batch(function () {
    var byPart = new Map();
    cy.nodes("[type = 'port']").forEach(function (p) {
      var part = p.data("part");
      if (!byPart.has(part)) byPart.set(part, []);
      byPart.get(part).push(p);
      p.data("side", side);
    });
    byPart.forEach(function (list, partId) {
      var part = cy.getElementById(partId);
      if (part.empty()) return;
      list.sort(function (a, b) { return a.data("order") - b.data("order"); });
      part.data({ tmx: side === "top" ? 0 : part.data("shiftX") || 0, tmy: side === "top" ? part.data("shiftY") || 0 : 0 });
      portsOnBorder(part, list);
    });
  });
}

/** Positions of `list` (a part's ports, in order) on the part's border, by their `side`. */
function portsOnBorder(part, list) {
  var pos = part.position(), w = part.width(), h = part.height(), side = list.length ? list[0].data("side") : "left";
  if (side === "top") {
    var slots = list.map(function (p) { return portSlot(p.data("lw") || 0); }), total = 0, at = 0;
    slots.forEach(function (s) { total += s; });
    list.forEach(function (p, i) { p.position({ x: pos.x - total / 2 + at + slots[i] / 2, y: pos.y - h / 2 }); at += slots[i]; });
    return;
  }
  var span = (list.length - 1) * PORT_GAP;
  list.forEach(function (p, i) { p.position({ x: pos.x - w / 2, y: pos.y - span / 2 + i * PORT_GAP }); });
}

/** Keep a part's ports on it while it is dragged. */
export function followPorts(cy) {
  cy.on("drag", "node[type = 'node'].part", function (ev) {
    var part = ev.target;
    var list = cy.nodes("[type = 'port']").filter(function (p) { return p.data("part") === part.id(); });
    if (!list.length) return;
    portsOnBorder(part, list.sort(function (a, b) { return a.data("order") - b.data("order"); }));
  });
}

/** Text of the port label drawn beside the square. */
export function portLabel(port) {
  return port.name + (port.endpoints ? " \u00b7" + port.endpoints : "") + (port.implied ? " (implied)" : "");
}

export function ports() { return portIndex || (portIndex = portsIndex(nodesById, edgesById)); }

export function portsView() { return state.view === "ports"; }

// the ports view: ports per component and the port each connection reaches (computed once)
export let portIndex = null;

export function portName(p) { var part = cy.getElementById(p.data("part")); return str(part.data("name")) + "." + str(p.data("name")); }

export function portSummary(key) {
  var pk = parsePortKey(key), list = ports().ports.get(pk.node) || [], port = null;
  list.forEach(function (x) { if (x.key === "p:" + key) port = x; });
  if (!port) return "";
  if (port.implied) return port.protocol + " port, implied: connections arrive, no endpoints found";
  return port.protocol + " port · " + port.endpoints + " endpoint" + (port.endpoints === 1 ? "" : "s") +
    (port.sample.length ? ": " + port.sample.join(", ") + (port.endpoints > port.sample.length ? ", …" : "") : "");
}
