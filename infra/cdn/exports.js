// Names a UMD build puts on its global, for the ES module the mirror builds around it
// (`import { scaleLinear } from "https://esm.sh/d3@7"`). Run by fetch.py with node:
//   node exports.js GLOBAL < build.js   ->   ["name", ...]   (best effort; [] when it will not run)
const vm = require("vm");
const src = require("fs").readFileSync(0, "utf8");
const name = process.argv[2];
// a browser-ish global where every unknown thing is a harmless callable
const any = new Proxy(function () {}, {
  get: (t, k) => (k === Symbol.toPrimitive ? () => "" : k === "length" ? 0 : any),
  apply: () => any, construct: () => any,
});
const g = { console: { log() {}, warn() {}, error() {}, info() {}, debug() {} }, navigator: { userAgent: "" },
  setTimeout() {}, clearTimeout() {}, setInterval() {}, requestAnimationFrame() {}, addEventListener() {},
  removeEventListener() {}, document: any, location: { href: "", protocol: "https:" }, performance: { now: () => 0 } };
g.window = g.self = g.globalThis = g;
let names = [];
try {
  vm.runInNewContext(src, g, { timeout: 5000 });
  const m = g[name];
  if (m && (typeof m === "object" || typeof m === "function")) names = Object.keys(m);
} catch (e) { names = []; }
process.stdout.write(JSON.stringify(names.filter((n) => /^[A-Za-z_$][\w$]*$/.test(n))));
