// rig.js — the rig editor: every numeric parameter grouped (geometry, masses and inertias,
// suspension, steering, tyres, engine, drivetrain, controls, …) with its unit, the formula it
// enters and the comment on its line in the rig's source; edits are --set overrides; plots are
// redrawn by the server; save as an override set; ride a script with the overrides.
"use strict";
MT.header("rig editor");
const q = new URLSearchParams(location.search);
const edits = new Map();   // key -> value string
let rigName = q.get("rig") || "sport1000", params = [];

// Slipstream's groups; the first rule that matches a key wins.
const GROUPS = [
  ["Drawing shapes", /\.shapes\./],
  ["Tyres", /^wheels\./],
  ["Engine", /^engine\./],
  ["Drivetrain", /^drivetrain\./],
  ["Steering", /^steering\.|^bodies\.steering\.joints\.(steer|twist)\.spring/],
  ["Suspension", /^rear_shock\.(k|k_stop|c_comp|c_reb|preload|travel\.[12])$|^bodies\.(fork|swingarm|fork_bend)\.joint\.spring/],
  ["Controls (rider)", /^bodies\.rider_[a-z]*\.joints?\.[a-z_.]*spring/],
  ["Masses and inertias", /mass$|\.inertia\.|^payload\./],
  ["Aerodynamics", /^aero\./],
  ["Crash contacts", /^contacts\.[a-z_]*\.(k|c|mu|radius)$/],
  ["Geometry", /\.com\.|\.anchor\.|\.axis\.|^rear_shock\.|\.point\.|^contacts\./],
  ["Simulation", /.*/],
];
const FORMULAS = [
  [/tyre\.p[A-Z]x/, "Fx0 = Dx·sin(Cx·atan(Bx·κx − Ex·(Bx·κx − atan(Bx·κx)))) + SVx; κx = κ + SHx, Dx = μx·Fz, Kx = Bx·Cx·Dx"],
  [/tyre\.p[A-Z]y/, "Fy0 = Dy·sin(Cy·atan(By·αy − Ey·(By·αy − atan(By·αy))) + Cγ·atan(Bγ·γ)); Dy = μy·Fz, Ky = By·Cy·Dy"],
  [/tyre\.q[A-Z]z/, "Mz = t·Fy − Mzr; t = Dt·cos(Ct·atan(Bt·αt − Et·(Bt·αt − atan(Bt·αt)))), Mzr = Dr·cos(atan(Br·αr))"],
  [/tyre\.r[A-Z]/, "combined slip: Fx = Gxα·Fx0, Fy = Gyκ·Fy0, G = cos(C·atan(B·slip))"],
  [/tyre\.(sigma|c1Rel|c2Rel|c3Rel)/, "relaxation: σ·dα'/dt + |Vx|·α' = |Vx|·α"],
  [/tyre\.(k_radial|c_radial|k_|c_)/, "Fz = k·penetration + c·penetration rate (≥ 0)"],
  [/tyre\.(R0|rho|crown|radius)/, "torus contact: r = R0 − ρ, p = c + r·d − ρ·n"],
  [/tyre\.(Fz0|lambda)/, "dfz = (Fz − Fz0)/Fz0; λ scale factors"],
  [/\.spring\.k$|^rear_shock\.k$/, "F = −k·x − c·ẋ + preload (x from the reference pose)"],
  [/\.spring\.c|^rear_shock\.c/, "F = −k·x − c·ẋ (c_comp / c_reb by direction)"],
  [/\.spring\.(k_stop|travel)|^rear_shock\.(travel|k_stop)/, "beyond travel: stop torque/force k_stop·(x − limit)"],
  [/\.spring\.preload/, "F = −k·x − c·ẋ + preload"],
  [/\.mass$/, "M(q)·q̈ = τ (body mass in MuJoCo's mass matrix)"],
  [/\.inertia\.[1-6]$/, "[Ixx Iyy Izz Ixy Ixz Iyz] about the body's com, design frame"],
  [/\.com\.[1-3]$|\.anchor\.|\.point\./, "(x, y, z) in the design frame: rear contact origin, x forward, z up"],
  [/\.axis\.[1-3]$/, "joint axis direction (normalised) in the design frame"],
  [/^aero\.cd_area/, "drag = ½·ρ·CdA·V²"], [/^aero\.cl_area/, "lift = ½·ρ·ClA·V²"], [/^aero\.rho/, "drag = ½·ρ·CdA·V²"],
  [/^drivetrain\.gears\./, "ω_engine = ω_rear · gear · (rear sprocket / output sprocket)"],
  [/^drivetrain\.chain/, "chain line between sprockets: anti-squat from its angle"],
  [/^drivetrain\.brakes/, "brake torque = max torque · lever input"],
  [/^engine\./, "mean-value engine: ṗm = (ṁ_th − ṁ_cyl)·R·T/V; τ = τ_ind − τ_pump − τ_fric"],
  [/^contacts\./, "F = k·depth + c·rate, friction ≤ μ·F"],
];
// the order they are shown in (Slipstream's: chassis geometry, masses, suspension, steering, tyres, powertrain, controls)
const ORDER = ["Geometry", "Masses and inertias", "Suspension", "Steering", "Tyres", "Engine", "Drivetrain", "Controls (rider)",
  "Aerodynamics", "Crash contacts", "Simulation", "Drawing shapes"];
const groupOf = (k) => GROUPS.find(([, re]) => re.test(k))[0];
const formulaOf = (k) => (FORMULAS.find(([re]) => re.test(k)) || [null, ""])[1];
const setsList = () => [...edits].map(([k, v]) => k + "=" + v);

function plotParams() {
  const u = new URLSearchParams({ rig: rigName });
  for (const s of setsList()) u.append("set", s);
  return u;
}
let plotTimer = null;
function redrawPlots() {
  clearTimeout(plotTimer);
  plotTimer = setTimeout(() => {
    document.getElementById("sets").textContent = setsList().join("\n") || "(none)";
    for (const img of document.querySelectorAll("#plots img, #locus img")) {
      const u = plotParams(); u.set("kind", img.dataset.kind); u.set("token", MT.token);
      img.style.opacity = 0.4;
      img.onload = () => { img.style.opacity = 1; img.dataset.src = img.src; };
      img.onerror = () => { img.style.opacity = 1; img.alt = "plot failed"; };
      img.src = "/api/rig/plot?" + u.toString();
    }
  }, 300);
}

function buildTable() {
  const f = document.getElementById("filter").value;
  const box = document.getElementById("groups");
  box.textContent = "";
  const by = new Map(ORDER.map((g) => [g, []]));
  for (const p of params) if (!f || p.key.includes(f)) by.get(groupOf(p.key)).push(p);
  for (const [g, list] of by) {
    if (!list.length) continue;
    const t = MT.el("table", { class: "params" }, MT.el("tr", {}, MT.el("th", {}, "parameter"), MT.el("th", {}, "value"), MT.el("th", {}, "unit"), MT.el("th", {}, "formula it enters / source comment")));
    for (const p of list) {
      const inp = MT.el("input", { value: edits.has(p.key) ? edits.get(p.key) : String(p.value), "data-key": p.key });
      const tr = MT.el("tr", { class: edits.has(p.key) ? "edited" : "" }, MT.el("td", { class: "k" }, p.key), MT.el("td", {}, inp), MT.el("td", {}, p.unit),
        MT.el("td", {}, MT.el("div", { class: "formula" }, formulaOf(p.key)), MT.el("div", { class: "muted" }, (p.comment ? "“" + p.comment + "” " : "") + (p.where || ""))));
      inp.addEventListener("change", () => {
        const v = inp.value.trim();
        if (v === "" || Number(v) === p.value) { edits.delete(p.key); tr.className = ""; }
        else if (!isFinite(Number(v))) { inp.style.background = "#fbb"; return; }
        else { edits.set(p.key, v); tr.className = "edited"; }
        inp.style.background = "";
        redrawPlots();
      });
      t.append(tr);
    }
    const det = MT.el("details", { class: "group", "data-group": g }, MT.el("summary", {}, g + " (" + list.length + ")"), t);
    if (f || ["Tyres", "Suspension", "Steering"].includes(g) && list.length < 200) det.open = g !== "Tyres" || !!f;
    box.append(det);
  }
}

async function loadRig() {
  const d = await MT.get("/api/rig/params", { rig: rigName });
  params = d.params;
  document.getElementById("count").textContent = params.length + " numeric parameters";
  buildTable();
  const pl = document.getElementById("plots");
  pl.textContent = "";
  const kinds = rigName === "sport1000" ? ["draw", "tyre_front", "engine"] : ["draw"];
  for (const k of kinds) pl.append(MT.el("div", {}, MT.el("div", { class: "muted" }, { draw: "geometry (rig draw)", tyre_front: "front tyre Fy (plot tyre)", engine: "engine (plot engine)" }[k]), MT.el("img", { "data-kind": k, alt: k })));
  const lo = document.getElementById("locus");
  lo.textContent = "";
  lo.append(MT.el("h2", {}, "Root locus over speed (modes)"), MT.el("img", { "data-kind": "modes", alt: "modes" }));
  redrawPlots();
}

// "Ride this": start a run job, then poll /api/job until it ends. The bar and the text show the
// job's simulated time t of the script's duration T ("t / T s"); T is 0 until the run has loaded
// its rig and script and starts stepping, shown as "starting…", or, when the run does work first
// (the racer's practice laps), that work's name and percentage ("practice laps 40 %"), the bar
// filled to it.
function rideShow(s, take) {
  const bar = document.getElementById("bar"), out = document.getElementById("rideres");
  const f = Math.min(1, Math.max(0, s.total > 0 ? s.t / s.total : s.stage ? s.pct / 100 : 0));
  bar.style.width = (s.state === "done" ? 100 : 100 * f) + "%";
  out.className = s.state === "done" ? "ok" : s.state === "failed" ? "bad" : "";
  out.textContent = "";
  if (s.state === "running") out.textContent = "riding → " + take + " " + (s.total > 0 ? s.t.toFixed(1) + " / " + s.total.toFixed(1) + " s" : s.stage ? s.stage + " " + Math.round(s.pct) + " %" : "starting…");
  else if (s.state === "done") out.append("done: ", MT.el("a", { href: MT.page("take.html", { path: s.take }) }, s.take));
  else out.textContent = "failed: " + s.error;
}
async function ride() {
  const btn = document.getElementById("ride"), out = document.getElementById("rideres");
  btn.disabled = true;
  try {
    const j = await MT.post("/api/run", { script: document.getElementById("script").value, sets: setsList() });
    rideShow({ state: "running", t: 0, total: 0 }, j.take);
    for (;;) {
      const s = await MT.get("/api/job", { id: j.job });
      rideShow(s, j.take);
      if (s.state !== "running") break;
      await new Promise((r) => setTimeout(r, 300));
    }
  } catch (e) { out.className = "bad"; out.textContent = String(e); }
  btn.disabled = false;
}

(async () => {
  const r = await MT.get("/api/rigs");
  const rs = document.getElementById("rig");
  for (const n of r.rigs) rs.append(MT.el("option", { value: n }, n));
  rs.value = rigName;
  rs.onchange = () => { rigName = rs.value; edits.clear(); loadRig(); };
  const ss = document.getElementById("script");
  for (const n of r.scripts.sort()) ss.append(MT.el("option", { value: n }, n));
  const sv = document.getElementById("saved");
  r.saved.forEach((o, i) => sv.append(MT.el("option", { value: i }, o.name + " (" + o.rig + ", " + o.sets.length + " sets)")));
  sv.onchange = () => {
    if (sv.value === "") return;
    const o = r.saved[Number(sv.value)];
    rigName = o.rig; rs.value = o.rig; edits.clear();
    for (const s of o.sets) { const i = s.indexOf("="); edits.set(s.slice(0, i), s.slice(i + 1)); }
    loadRig();
  };
  for (const s of q.getAll("set")) { const i = s.indexOf("="); edits.set(s.slice(0, i), s.slice(i + 1)); }
  document.getElementById("filter").oninput = buildTable;
  document.getElementById("save").onclick = async () => {
    const out = document.getElementById("saveres");
    try { const x = await MT.post("/api/rig/save", { name: document.getElementById("savename").value, rig: rigName, sets: setsList() }); out.className = "ok"; out.textContent = "saved " + x.file; }
    catch (e) { out.className = "bad"; out.textContent = String(e); }
  };
  document.getElementById("ride").onclick = ride;
  await loadRig();
  document.body.dataset.ready = "1";
})().catch((e) => { document.getElementById("count").textContent = "error: " + e; });
