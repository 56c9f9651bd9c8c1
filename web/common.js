// common.js — shared helpers of the mototake pages: the API (token kept from the URL), CSV
// parsing and a canvas line plot with zoom (drag), reset (double click), a cursor reading values
// and event marks. Plain JS, no libraries.
"use strict";
const MT = {};
MT.token = new URLSearchParams(location.search).get("token") || "";
MT.url = (path, params) => {
  const u = new URLSearchParams(params || {});
  u.set("token", MT.token);
  return path + "?" + u.toString();
};
MT.page = (name, params) => MT.url(name, params);
MT.get = async (path, params) => {
  const r = await fetch(MT.url(path, params));
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || r.status);
  return j;
};
MT.post = async (path, body, params) => {
  const r = await fetch(MT.url(path, params), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || r.status);
  return j;
};
MT.csv = async (path, params) => {   // mototake's CSV: a header row of names, a units row, numbers
  const r = await fetch(MT.url(path, params));
  const text = await r.text();
  if (!r.ok) throw new Error(text);
  const lines = text.trim().split("\n");
  const names = lines[0].split(","), units = lines[1].split(",");
  const cols = names.map(() => []);
  for (let i = 2; i < lines.length; i++) {
    const v = lines[i].split(",");
    for (let k = 0; k < names.length; k++) cols[k].push(parseFloat(v[k]));
  }
  const out = { names, units, cols: {} };
  names.forEach((n, k) => { out.cols[n] = cols[k]; out.units = out.units || {}; });
  out.unit = {}; names.forEach((n, k) => { out.unit[n] = units[k]; });
  return out;
};
MT.el = (tag, attrs, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return e;
};
MT.header = (title) => {
  const h = document.querySelector("header");
  h.append(MT.el("b", {}, "mototake"), MT.el("a", { href: MT.page("index.html") }, "Take library"),
    MT.el("a", { href: MT.page("rig.html") }, "Rig editor"), MT.el("a", { href: MT.page("compare.html") }, "Compare takes"));
  document.title = "mototake — " + title;
};
MT.COLORS = ["#1f5fbf", "#d0452b", "#2c9a3c", "#8e44ad", "#c58b00", "#138d90", "#555"];

// Rows for labels along an axis: items [{x, w}] (left edge and width, px, in any order); each goes
// into the first of at most maxRows rows where it starts at least `gap` px right of that row's
// last label, in order of x; -1 when no row has room (its mark is drawn, its label left out).
// Returns the row of each item in the given order. Labels in one row never overlap.
MT.labelRows = (items, gap, maxRows) => {
  const order = items.map((_, i) => i).sort((a, b) => items[a].x - items[b].x || a - b);
  const right = [], row = new Array(items.length).fill(-1);
  for (const i of order) {
    let r = right.findIndex((e) => items[i].x >= e + gap);
    if (r < 0 && right.length < maxRows) { r = right.length; right.push(-Infinity); }
    if (r >= 0) { row[i] = r; right[r] = items[i].x + items[i].w; }
  }
  return row;
};

// Axis ticks over [lo, hi]: a round step (1, 2 or 5 × 10^k) giving about `target` intervals, the
// step's multiples inside the range, and their labels with just the decimals the step needs
// (0.25 → "0.25", 20 → "20", never "46.51" or "-0").
MT.niceStep = (range, target) => {
  if (!(range > 0) || !isFinite(range)) return 1;
  const raw = range / Math.max(1, target), p = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / p;
  return (m < 1.5 ? 1 : m < 3 ? 2 : m < 7 ? 5 : 10) * p;
};
MT.ticks = (lo, hi, target) => {
  const step = MT.niceStep(hi - lo, target), dec = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const values = [], labels = [];
  for (let k = Math.ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9 && values.length < 100; k++) {
    const v = k * step;
    values.push(v);
    labels.push((Math.abs(v) < step * 1e-6 ? 0 : v).toFixed(dec));
  }
  return { step, values, labels };
};

// A line plot on a canvas: series [{x:[], y:[], label, color}], events [{t, kind}].
// Drag to zoom into an x range, double click to reset; the cursor shows every series' value.
MT.Plot = class {
  constructor(canvas) {
    this.c = canvas; this.series = []; this.events = []; this.xr = null; this.cursor = null; this.drag = null;
    canvas.addEventListener("mousemove", (e) => { this.cursor = this.toX(e.offsetX); if (this.drag) this.drag[1] = e.offsetX; this.draw(); });
    canvas.addEventListener("mouseleave", () => { this.cursor = null; this.draw(); });
    canvas.addEventListener("mousedown", (e) => { this.drag = [e.offsetX, e.offsetX]; });
    canvas.addEventListener("mouseup", () => {
      if (this.drag && Math.abs(this.drag[1] - this.drag[0]) > 5) {
        const a = this.toX(Math.min(...this.drag)), b = this.toX(Math.max(...this.drag));
        this.xr = [a, b];
      }
      this.drag = null; this.draw();
    });
    canvas.addEventListener("dblclick", () => { this.xr = null; this.draw(); });
  }
  set(series, events, xlabel) { this.series = series; this.events = events || []; this.xlabel = xlabel || "t (s)"; this.draw(); }
  zoom(a, b) { this.xr = [a, b]; this.draw(); }
  get box() { return { l: 70, r: this.c.width - 170, t: 12, b: this.c.height - 36 }; }
  xrange() {
    if (this.xr) return this.xr;
    let lo = Infinity, hi = -Infinity;
    for (const s of this.series) for (const v of s.x) { if (v < lo) lo = v; if (v > hi) hi = v; }
    return isFinite(lo) && hi > lo ? [lo, hi] : [0, 1];
  }
  toX(px) { const b = this.box, [a, z] = this.xrange(); return a + (px - b.l) / (b.r - b.l) * (z - a); }
  draw() {
    const g = this.c.getContext("2d"), W = this.c.width, H = this.c.height, b = this.box;
    g.clearRect(0, 0, W, H); g.font = "12px sans-serif";
    const [x0, x1] = this.xrange();
    let y0 = Infinity, y1 = -Infinity;
    for (const s of this.series) s.x.forEach((x, i) => { if (x >= x0 && x <= x1 && isFinite(s.y[i])) { y0 = Math.min(y0, s.y[i]); y1 = Math.max(y1, s.y[i]); } });
    if (!isFinite(y0)) { y0 = 0; y1 = 1; }
    if (y1 - y0 < 1e-12) { y0 -= 1; y1 += 1; }
    const pad = (y1 - y0) * 0.05; y0 -= pad; y1 += pad;
    const X = (x) => b.l + (x - x0) / (x1 - x0) * (b.r - b.l), Y = (y) => b.b - (y - y0) / (y1 - y0) * (b.b - b.t);
    g.strokeStyle = "#ccc"; g.fillStyle = "#333"; g.lineWidth = 1;
    const yt = MT.ticks(y0, y1, 5), xt = MT.ticks(x0, x1, 6);
    yt.values.forEach((yv, i) => {
      g.beginPath(); g.moveTo(b.l, Y(yv)); g.lineTo(b.r, Y(yv)); g.stroke();
      g.textAlign = "right"; g.fillText(yt.labels[i], b.l - 4, Y(yv) + 4);
    });
    xt.values.forEach((xv, i) => {
      g.beginPath(); g.moveTo(X(xv), b.t); g.lineTo(X(xv), b.b); g.stroke();
      g.textAlign = "center"; g.fillText(xt.labels[i], X(xv), b.b + 14);
    });
    g.fillText(this.xlabel, (b.l + b.r) / 2, H - 4);
    g.save(); g.beginPath(); g.rect(b.l, b.t, b.r - b.l, b.b - b.t); g.clip();
    // events on the time axis: every one a dashed line, their names in up to three rows so that
    // none overlaps another (events close in time: a mark and a linearise in the same step)
    const shown = this.events.filter((ev) => ev.t >= x0 && ev.t <= x1);
    const rows = MT.labelRows(shown.map((ev) => ({ x: X(ev.t) + 3, w: g.measureText(ev.kind).width })), 4, 3);
    shown.forEach((ev, i) => {
      g.strokeStyle = "#e08a00"; g.setLineDash([4, 3]); g.beginPath(); g.moveTo(X(ev.t), b.t); g.lineTo(X(ev.t), b.b); g.stroke(); g.setLineDash([]);
      if (rows[i] < 0) return;
      g.fillStyle = "#a05a00"; g.textAlign = "left"; g.fillText(ev.kind, X(ev.t) + 3, b.t + 12 + 13 * rows[i]);
    });
    this.series.forEach((s, k) => {
      g.strokeStyle = s.color || MT.COLORS[k % MT.COLORS.length]; g.lineWidth = 1.5; g.beginPath();
      let first = true;
      s.x.forEach((x, i) => { if (!isFinite(s.y[i])) return; if (first) { g.moveTo(X(x), Y(s.y[i])); first = false; } else g.lineTo(X(x), Y(s.y[i])); });
      g.stroke();
    });
    if (this.drag) { g.fillStyle = "rgba(60,120,220,0.15)"; g.fillRect(Math.min(...this.drag), b.t, Math.abs(this.drag[1] - this.drag[0]), b.b - b.t); }
    g.restore();
    g.strokeStyle = "#333"; g.strokeRect(b.l, b.t, b.r - b.l, b.b - b.t);
    // legend with cursor values
    g.textAlign = "left";
    this.series.forEach((s, k) => {
      g.fillStyle = s.color || MT.COLORS[k % MT.COLORS.length];
      g.fillRect(b.r + 10, b.t + 4 + k * 34, 14, 3);
      let txt = "";
      if (this.cursor !== null) {
        let best = -1, bd = Infinity;
        s.x.forEach((x, i) => { const d = Math.abs(x - this.cursor); if (d < bd) { bd = d; best = i; } });
        if (best >= 0) txt = " = " + s.y[best].toPrecision(5);
      }
      g.fillText(s.label, b.r + 28, b.t + 9 + k * 34);
      g.fillStyle = "#333"; g.fillText(txt, b.r + 28, b.t + 23 + k * 34);
    });
    if (this.cursor !== null && this.cursor >= x0 && this.cursor <= x1) {
      g.strokeStyle = "#000"; g.beginPath(); g.moveTo(X(this.cursor), b.t); g.lineTo(X(this.cursor), b.b); g.stroke();
      g.fillStyle = "#000"; g.textAlign = "center"; g.fillText(this.cursor.toPrecision(5), X(this.cursor), b.t + 24);
    }
  }
};
