// compare.js — two takes overlaid against distance or time, the time gap (B − A at equal
// distance), and both lines on the plan.
"use strict";
MT.header("compare");
const q = new URLSearchParams(location.search);

function interp(xs, ys, x) {   // xs increasing
  let lo = 0, hi = xs.length - 1;
  if (!(x >= xs[0] && x <= xs[hi])) return NaN;
  while (hi - lo > 1) { const m = (lo + hi) >> 1; if (xs[m] <= x) lo = m; else hi = m; }
  const f = xs[hi] > xs[lo] ? (x - xs[lo]) / (xs[hi] - xs[lo]) : 0;
  return ys[lo] + f * (ys[hi] - ys[lo]);
}
function monotone(d) {   // distance can stand still: keep it non-decreasing
  const out = d.slice(); for (let i = 1; i < out.length; i++) if (out[i] < out[i - 1]) out[i] = out[i - 1]; return out;
}

function drawPlan(A, B) {
  const c = document.getElementById("plan"), g = c.getContext("2d");
  g.clearRect(0, 0, c.width, c.height);
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (const d of [A, B]) d.cols.x.forEach((x, i) => { const y = d.cols.y[i]; x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y); });
  const s = Math.min((c.width - 40) / Math.max(x1 - x0, 1e-6), (c.height - 40) / Math.max(y1 - y0, 1e-6));
  const X = (x) => 20 + (x - x0) * s, Y = (y) => c.height - 20 - (y - y0) * s;
  [[A, MT.COLORS[0], "A"], [B, MT.COLORS[1], "B"]].forEach(([d, col, lab], k) => {
    g.strokeStyle = col; g.lineWidth = k ? 1.5 : 5; g.beginPath();   // A wide under B: both show where they coincide
    d.cols.x.forEach((x, i) => { if (i) g.lineTo(X(x), Y(d.cols.y[i])); else g.moveTo(X(x), Y(d.cols.y[i])); });
    g.stroke(); g.fillStyle = col; g.font = "13px sans-serif"; g.fillText(lab, 24, 18 + 16 * k);
  });
  g.fillStyle = "#333"; g.fillText((x1 - x0).toFixed(0) + " m × " + (y1 - y0).toFixed(0) + " m", c.width - 130, c.height - 6);
}

async function compare() {
  const a = document.getElementById("a").value, b = document.getElementById("b").value, axis = document.getElementById("axis").value;
  const names = document.getElementById("chans").value.split(",").map((s) => s.trim()).filter((s) => s);
  const want = [...new Set(["distance", "x", "y", ...names])].join(",");
  document.getElementById("msg").textContent = "loading…";
  const [A, B] = await Promise.all([MT.csv("/api/take/data", { path: a, channels: want, rate: 50 }), MT.csv("/api/take/data", { path: b, channels: want, rate: 50 })]);
  const box = document.getElementById("plots"); box.textContent = "";
  const xa = axis === "time" ? A.cols.time : monotone(A.cols.distance), xb = axis === "time" ? B.cols.time : monotone(B.cols.distance);
  for (const n of names) {
    const c = MT.el("canvas", { width: 820, height: 180, "data-channel": n }); box.append(c);
    new MT.Plot(c).set([{ x: xa, y: A.cols[n], label: "A " + n + " (" + A.unit[n] + ")", color: MT.COLORS[0] },
      { x: xb, y: B.cols[n], label: "B " + n, color: MT.COLORS[1] }], [], axis === "time" ? "t (s)" : "distance (m)");
  }
  // the gap: how much later B reaches each distance than A
  const da = monotone(A.cols.distance), db = monotone(B.cols.distance);
  const gx = [], gy = [];
  for (let i = 0; i < da.length; i++) { const tb = interp(db, B.cols.time, da[i]); if (isFinite(tb)) { gx.push(da[i]); gy.push(tb - A.cols.time[i]); } }
  const c = MT.el("canvas", { width: 820, height: 180, "data-channel": "gap" }); box.append(c);
  new MT.Plot(c).set([{ x: gx, y: gy, label: "gap B − A (s)", color: "#333" }], [], "distance (m)");
  document.getElementById("msg").textContent = gy.length ? "final gap " + gy[gy.length - 1].toFixed(3) + " s at " + gx[gx.length - 1].toFixed(0) + " m" : "no common distance";
  drawPlan(A, B);
  document.getElementById("planimg").src = MT.url("/api/compare/plan", { a, b });
  document.body.dataset.ready = "1";
}

(async () => {
  const d = await MT.get("/api/takes");
  const paths = d.takes.map((t) => t.path).sort();
  for (const id of ["a", "b"]) { const s = document.getElementById(id); for (const p of paths) s.append(MT.el("option", { value: p }, p)); }
  document.getElementById("a").value = q.get("a") || paths[0];
  document.getElementById("b").value = q.get("b") || paths[Math.min(1, paths.length - 1)];
  if (q.get("axis")) document.getElementById("axis").value = q.get("axis");
  if (q.get("channels")) document.getElementById("chans").value = q.get("channels");
  document.getElementById("go").onclick = () => compare().catch((e) => document.getElementById("msg").textContent = "error: " + e);
  if (paths.length) await compare();
})().catch((e) => document.getElementById("msg").textContent = "error: " + e);
