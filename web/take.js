// take.js — one take: metadata, verify, thumbnail and MP4 preview, downloads, events and
// channel plots (picked channels, zoom, cursor, events on the time axis).
"use strict";
MT.header("take");
const path = new URLSearchParams(location.search).get("path");
const picked = new Set(["speed", "lean", "steer_angle"]);
let detail = null, events = [], plots = [];
const RATE = 100;
let drawn = 0;   // the number of the latest redraw: a reply to an earlier one is stale

// Plot the picked channels. Replies may arrive out of order (tick, untick quickly: the reply with
// the unticked channel can come last); each redraw takes a number and draws only if no later
// redraw started meanwhile, so the plots always show the latest pick.
async function redraw() {
  const box = document.getElementById("plots");
  const names = [...picked], mine = ++drawn;
  box.textContent = names.length ? "loading…" : "no channel picked";
  if (!names.length) return;
  const d = await MT.csv("/api/take/data", { path, channels: names.join(","), rate: RATE });
  if (mine !== drawn) return;
  box.textContent = "";
  plots = [];
  names.forEach((n, k) => {
    const c = MT.el("canvas", { width: 900, height: 190, "data-channel": n });
    box.append(c);
    const p = new MT.Plot(c);
    p.set([{ x: d.cols.time, y: d.cols[n], label: n + " (" + d.unit[n] + ")", color: MT.COLORS[k % MT.COLORS.length] }], events);
    plots.push(p);
  });
  // zooming one plot zooms them all
  plots.forEach((p) => p.c.addEventListener("mouseup", () => setTimeout(() => plots.forEach((q) => { if (q !== p) { q.xr = p.xr; q.draw(); } }), 0)));
  plots.forEach((p) => p.c.addEventListener("dblclick", () => plots.forEach((q) => { q.xr = null; q.draw(); })));
}

// The MP4 preview: rendered by the server on first request (seconds to a minute). While the
// request runs, a spinner and the render's frames ("frame D / N", from /api/take/progress); the
// video is shown once it has arrived, or the server's error.
async function preview() {
  const btn = document.getElementById("showpreview"), st = document.getElementById("previewstate");
  const vid = document.getElementById("preview");
  btn.disabled = true;
  const text = MT.el("span", {}, "rendering the preview…");
  st.className = ""; st.textContent = ""; st.append(MT.el("span", { class: "spin" }), text);
  let waiting = true;
  const poll = async () => {
    while (waiting) {
      try {
        const p = await MT.get("/api/take/progress", { path, what: "preview" });
        if (waiting && p.state === "making" && p.total > 0) text.textContent = "rendering the preview… frame " + p.done + " / " + p.total;
      } catch (e) { /* the progress is a nicety: the preview's own reply says what failed */ }
      await new Promise((r) => setTimeout(r, 500));
    }
  };
  poll();
  try {
    const url = MT.url("/api/take/preview", { path });
    const r = await fetch(url);   // answers once the server has rendered it
    if (!r.ok) throw new Error((await r.json().catch(() => ({}))).error || "HTTP " + r.status);
    r.body.cancel();              // the video element fetches it (now cached by the server) itself
    vid.src = url;
    vid.hidden = false;
    st.textContent = "";
  } catch (e) { st.className = "bad"; st.textContent = "preview failed: " + e.message; btn.disabled = false; }
  waiting = false;
}

const plotError = (e) => { document.getElementById("plots").textContent = "error: " + e.message; };

(async () => {
  detail = await MT.get("/api/take/info", { path });
  const i = detail.info || {};
  document.getElementById("title").textContent = "Take " + path;
  const meta = document.getElementById("meta");
  const row = (k, v) => meta.append(MT.el("tr", {}, MT.el("th", {}, k), MT.el("td", {}, v)));
  row("status", (i.complete ? "complete" : "incomplete") + " — " + (i.end || ""));
  row("duration", Number(i.duration_s).toFixed(3) + " s, " + i.steps + " steps of " + i.timestep_s + " s");
  row("rig / track", i.rig + " / " + i.track);
  row("created", i.created + " by mototake " + i.program_version + " (" + i.git_revision + ")");
  row("file", (i.file_bytes / 1e6).toFixed(2) + " MB, " + i.channels + " channels, " + i.bodies + " bodies");
  row("sources", (i.sources || []).map((s) => s.kind + " " + s.name).join(", "));
  const v = MT.el("span", {});
  if (detail.verify) { v.className = detail.verify.ok ? "ok" : "bad"; v.textContent = detail.verify.ok ? "bit-exact" : "failed: " + detail.verify.message; }
  else v.append(MT.el("button", { onclick: async () => { v.textContent = "verifying…"; const r = await MT.post("/api/take/verify", {}, { path }); v.className = r.ok ? "ok" : "bad"; v.textContent = r.ok ? "bit-exact" : "failed: " + r.message; } }, "verify"));
  row("replay", v);
  document.getElementById("thumb").src = MT.url("/api/take/thumb", { path });
  document.getElementById("showpreview").onclick = preview;
  const dl = document.getElementById("downloads");
  for (const f of ["take", "csv", "mat", "glb", "fbx"]) dl.append(MT.el("a", { href: MT.url("/api/take/download", { path, format: f }) }, f.toUpperCase()), " ");
  events = detail.events.map((e) => ({ t: e.t, kind: e.kind }));
  const et = document.getElementById("events");
  for (const e of detail.events) et.append(MT.el("tr", {}, MT.el("td", {}, e.t.toFixed(3)), MT.el("td", {}, e.kind), MT.el("td", { class: "formula" }, JSON.stringify(e.data))));
  const list = document.getElementById("chans");
  const render = () => {
    const f = document.getElementById("filter").value;
    list.textContent = "";
    for (const c of detail.channels) {
      if (c.name === "time" || (f && !c.name.includes(f))) continue;
      const cb = MT.el("input", { type: "checkbox", "data-channel": c.name, onchange: (e) => { if (e.target.checked) picked.add(c.name); else picked.delete(c.name); redraw().catch(plotError); } });
      cb.checked = picked.has(c.name);
      list.append(MT.el("label", {}, cb, " " + c.name + " ", MT.el("span", { class: "muted" }, c.units)), MT.el("br"));
    }
  };
  document.getElementById("filter").oninput = render;
  render();
  await redraw();
  document.body.dataset.ready = "1";
})().catch((e) => { document.getElementById("title").textContent = "error: " + e; });
