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

/** Size a part so `count` ports fit along either border (left in left-to-right layouts, top otherwise). */
export function partSize(box, count) {
  var need = count ? count * PORT_GAP + 10 : 0;
  return { w: Math.max(box.w, need + 16), h: Math.max(box.h + 17, need) };
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
    // the name sits beside the square, off the line that arrives at its centre
    { selector: "node[type = 'port'][side = 'left']", style: { "text-halign": "left", "text-valign": "top", "text-margin-x": -2, "text-margin-y": -1 } },
    { selector: "node[type = 'port'][side = 'top']", style: { "text-halign": "right", "text-valign": "top", "text-margin-x": 2, "text-margin-y": -1 } },
    { selector: "node[type = 'port'].implied", style: { "background-color": "#ffffff", "border-style": "dashed", "border-color": "data(color)" } },
    { selector: "edge[type = 'lay']", style: { "display": "none" } },
    { selector: "node[type = 'port']:selected", style: { "border-width": 3, "border-color": "#f59e0b", "underlay-color": "#f59e0b", "underlay-opacity": 0.3, "underlay-padding": 4 } }
  ];
}

/** Put each part's ports on its border: spread along the left side (left-to-right layouts:
    connections arrive from the left) or along the top (top-to-bottom). */
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
      var pos = part.position(), w = part.width(), h = part.height();
      list.sort(function (a, b) { return a.data("order") - b.data("order"); });
      var span = (list.length - 1) * PORT_GAP;
      list.forEach(function (p, i) {
        var off = -span / 2 + i * PORT_GAP;
        p.position(side === "top" ? { x: pos.x + off, y: pos.y - h / 2 } : { x: pos.x - w / 2, y: pos.y + off });
      });
    });
  });
}

/** Keep a part's ports on it while it is dragged. */
export function followPorts(cy) {
  cy.on("drag", "node[type = 'node'].part", function (ev) {
    var part = ev.target, side = null;
    var ports = cy.nodes("[type = 'port']").filter(function (p) { if (p.data("part") === part.id()) { side = p.data("side"); return true; } return false; });
    if (!ports.length) return;
    var pos = part.position(), w = part.width(), h = part.height(), span = (ports.length - 1) * PORT_GAP;
    ports.sort(function (a, b) { return a.data("order") - b.data("order"); }).forEach(function (p, i) {
      var off = -span / 2 + i * PORT_GAP;
      p.position(side === "top" ? { x: pos.x + off, y: pos.y - h / 2 } : { x: pos.x - w / 2, y: pos.y + off });
    });
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
