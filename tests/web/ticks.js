// ticks.js — unit test of the pages' axis tick chooser (MT.ticks in web/common.js), run by node
// without a browser: common.js is loaded into a context with a bare `location`. Prints one
// "ok NAME" or "FAIL NAME: why" line per check (tests/cli/web.sh runs it); exits 1 on a failure.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const ctx = { location: { search: "" }, URLSearchParams, Math, Number, isFinite, console };
vm.createContext(ctx);
vm.runInContext(fs.readFileSync(path.join(__dirname, "../../web/common.js"), "utf8") + "\nthis.MT = MT;", ctx);
const MT = ctx.MT;
let failed = 0;
const check = (name, cond, why) => { if (cond) console.log("ok " + name); else { failed++; console.log("FAIL " + name + ": " + why); } };

// the speed plot: data 27.39 … 46.51 (with the plot's 5 % pad) gets ticks every 5
const a = MT.ticks(26.4, 47.5, 5);
check("web_ticks_speed", a.step === 5 && a.labels.join(" ") === "30 35 40 45", JSON.stringify(a));
// a small range keeps the decimals its step needs, and no more
const b = MT.ticks(-0.0123, 0.0456, 5);
check("web_ticks_small", b.labels.join(" ") === "-0.01 0.00 0.01 0.02 0.03 0.04", JSON.stringify(b.labels));
// zero crossing: "0", never "-0" or "2.7e-17"
const c = MT.ticks(-0.35, 0.62, 5);
check("web_ticks_zero", c.labels.join(" ") === "-0.2 0.0 0.2 0.4 0.6", JSON.stringify(c.labels));

// every range (a fixed pseudo-random sweep over 12 decades): the step is 1, 2 or 5 × 10^k, every
// tick a multiple of it inside the range, 3 to 11 of them, and each label reads back as its value
let seed = 12345, worst = "";
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
for (let i = 0; i < 2000 && !worst; i++) {
  const span = Math.pow(10, -6 + 12 * rnd()), lo = (rnd() - 0.5) * 4 * span, hi = lo + span;
  const t = MT.ticks(lo, hi, 5), m = t.step / Math.pow(10, Math.floor(Math.log10(t.step) + 1e-9));
  const tol = t.step * 1e-6;
  if (![1, 2, 5].some((r) => Math.abs(m - r) < 1e-9)) worst = `step ${t.step} for [${lo}, ${hi}]`;
  else if (t.values.length < 3 || t.values.length > 11) worst = `${t.values.length} ticks for [${lo}, ${hi}]`;
  else if (t.values.some((v) => v < lo - tol || v > hi + tol || Math.abs(v / t.step - Math.round(v / t.step)) > 1e-6))
    worst = `a tick off the grid or range for [${lo}, ${hi}]: ${t.values}`;
  else if (t.labels.some((s, k) => Math.abs(Number(s) - t.values[k]) > tol || s === "-0" || /^-0\.0*$/.test(s) || /e/.test(s)))
    worst = `labels ${t.labels} for values ${t.values}`;
}
check("web_ticks_round_everywhere", !worst, worst);
// issue 34 leftover: event names on the take page's plots never overlap (MT.labelRows): three
// events in one step and two apart; every label in a row starts past the last one's end + gap
const L = [{ x: 100, w: 40 }, { x: 101, w: 60 }, { x: 102, w: 30 }, { x: 103, w: 30 }, { x: 300, w: 40 }, { x: 120, w: 10 }];
const rows = MT.labelRows(L, 4, 3);
let clash = "";
for (let i = 0; i < L.length; i++)
  for (let j = 0; j < L.length; j++)
    if (i !== j && rows[i] >= 0 && rows[i] === rows[j] && L[i].x <= L[j].x && L[j].x < L[i].x + L[i].w + 4) clash = `${i} and ${j} in row ${rows[i]}`;
check("web_event_labels_apart", !clash && rows[0] === 0 && rows[1] === 1 && rows[2] === 2 && rows[3] === -1 && rows[4] === 0,
  `rows ${JSON.stringify(rows)} ${clash}`);

process.exit(failed ? 1 : 0);
