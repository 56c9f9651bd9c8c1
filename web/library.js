// library.js — every take under the server's root: metadata, verify status, plan thumbnail.
"use strict";
MT.header("take library");
async function verify(path, cell) {
  cell.textContent = "verifying…";
  try {
    const r = await MT.post("/api/take/verify", {}, { path });
    cell.className = r.ok ? "ok" : "bad"; cell.textContent = r.ok ? "bit-exact" : "failed: " + r.message;
  } catch (e) { cell.className = "bad"; cell.textContent = String(e); }
}
(async () => {
  const d = await MT.get("/api/takes");
  document.getElementById("root").textContent = d.takes.length + " takes under " + d.root;
  const box = document.getElementById("takes");
  d.takes.sort((a, b) => a.path.localeCompare(b.path));
  for (const t of d.takes) {
    const i = t.info || {};
    const v = MT.el("span", {});
    if (t.verify) { v.className = t.verify.ok ? "ok" : "bad"; v.textContent = t.verify.ok ? "bit-exact" : "failed: " + t.verify.message; }
    else v.append(MT.el("button", { onclick: () => verify(t.path, v) }, "verify"));
    box.append(MT.el("div", { class: "card" },
      MT.el("a", { href: MT.page("take.html", { path: t.path }) }, MT.el("img", { src: MT.url("/api/take/thumb", { path: t.path }), alt: "plan of " + t.path })),
      MT.el("div", {}, MT.el("a", { href: MT.page("take.html", { path: t.path }) }, MT.el("b", {}, t.path))),
      MT.el("div", { class: "muted" }, (i.rig || "?") + " on " + (i.track || "?") + " · " + (i.duration_s !== undefined ? Number(i.duration_s).toFixed(1) : "?") + " s · " +
        (i.complete ? "complete" : "incomplete") + " · " + (i.created || "")),
      MT.el("div", {}, "replay: ", v)));
  }
})().catch((e) => document.getElementById("root").textContent = "error: " + e);
