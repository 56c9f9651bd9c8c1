// pages.js BASE TOKEN OUTDIR — the web pages' behaviour in one headless Chromium session over
// the DevTools protocol (Node 20 with --experimental-websocket; no npm). The server's replies a
// check needs to control are held or answered by the test (the Fetch domain), so nothing here
// waits on a clock:
//  - take.html: replies to the channel requests arriving out of order (the plot shows the last
//    pick, not the late reply); the MP4 preview's spinner and frame count while it renders;
//  - rig.html: "Ride this": the bar's fill and its "t / T s" text follow /api/job; full when done;
//    the root-locus plot is shown at a readable scale;
//  - every page: no console error and no uncaught exception.
// Prints one "ok NAME" / "FAIL NAME: why" line per check; screenshots to OUTDIR/page_*.png.
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const [base, token, outdir] = process.argv.slice(2);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mt-cdp-"));
const chrome = spawn("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
  "--remote-debugging-port=0", "--user-data-dir=" + dir, "--window-size=1500,1100", "about:blank"], { stdio: "ignore" });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let failed = 0, finished = false;
const check = (name, cond, why) => { if (cond) console.log("ok " + name); else { failed++; console.log("FAIL " + name + ": " + why); } };
const done = (code) => {
  if (finished) return;
  finished = true;
  chrome.on("exit", () => { try { fs.rmSync(dir, { recursive: true, force: true }); } catch { /* left in /tmp */ } process.exit(code); });
  chrome.kill("SIGKILL");
};
setTimeout(() => { console.log("FAIL web_pages_script: timed out (a page never reached the state a check waits for)"); done(1); }, 90000);

(async () => {
  let port = null;
  for (let i = 0; i < 200 && !port; i++) {
    try { port = fs.readFileSync(path.join(dir, "DevToolsActivePort"), "utf8").split("\n")[0]; } catch { await sleep(100); }
  }
  let list = null;   // the port file can appear a moment before the port answers
  for (let i = 0; i < 100 && !list; i++) {
    try { list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json(); } catch { await sleep(100); }
  }
  const ws = new WebSocket(list.find((t) => t.type === "page").webSocketDebuggerUrl);
  await new Promise((r) => ws.addEventListener("open", r));
  let id = 0;
  const pending = new Map(), paused = [], consoleErrors = [];
  ws.addEventListener("message", (m) => {
    const d = JSON.parse(m.data);
    if (d.id && pending.has(d.id)) { pending.get(d.id)(d); pending.delete(d.id); }
    else if (d.method === "Fetch.requestPaused") paused.push(d.params);
    else if (d.method === "Runtime.exceptionThrown") consoleErrors.push(d.params.exceptionDetails.exception?.description || d.params.exceptionDetails.text);
    else if (d.method === "Runtime.consoleAPICalled" && d.params.type === "error") consoleErrors.push(d.params.args.map((a) => a.value).join(" "));
    else if (d.method === "Log.entryAdded" && d.params.entry.level === "error") consoleErrors.push(d.params.entry.text + " " + (d.params.entry.url || ""));
  });
  const send = (method, params) => new Promise((r) => { const k = ++id; pending.set(k, r); ws.send(JSON.stringify({ id: k, method, params })); });
  const evaluate = async (expr) => {
    const r = await send("Runtime.evaluate", { expression: expr, awaitPromise: true, returnByValue: true });
    if (r.result.exceptionDetails) throw new Error(expr.slice(0, 80) + ": " + r.result.exceptionDetails.exception?.description);
    return r.result.result.value;
  };
  const until = async (expr, what) => {   // poll a page expression until truthy (the overall timeout ends a hang)
    for (;;) { const v = await evaluate(expr); if (v) return v; if (finished) throw new Error(what); await sleep(50); }
  };
  const nextPaused = async (re) => {   // the next held request whose URL matches re
    for (;;) {
      const k = paused.findIndex((p) => re.test(p.request.url));
      if (k >= 0) return paused.splice(k, 1)[0];
      await sleep(20);
    }
  };
  const answer = (p, obj) => send("Fetch.fulfillRequest", { requestId: p.requestId, responseCode: 200,
    responseHeaders: [{ name: "Content-Type", value: "application/json" }], body: Buffer.from(JSON.stringify(obj)).toString("base64") });
  const pass = (p) => send("Fetch.continueRequest", { requestId: p.requestId });
  const open = async (page, ready) => {
    await send("Page.navigate", { url: `${base}/${page}${page.includes("?") ? "&" : "?"}token=${token}` });
    await until("document.readyState === 'complete'" + (ready === false ? "" : " && document.body.dataset.ready === '1'"), page + " never ready");
  };
  const countGets = () => evaluate(`(() => { const o = MT.get; window.getDone = 0; MT.get = async (...a) => { try { return await o(...a); } finally { window.getDone++; } }; return 1; })()`);
  const settled = async (n) => {   // the page's n-th MT.get reply (since countGets) has been handled: its code after the await ran
    await until(`window.getDone >= ${n}`, "reply " + n + " never handled");
    await evaluate("new Promise((r) => setTimeout(() => r(1), 0))");
  };
  const shot = async (name) => fs.writeFileSync(path.join(outdir, "page_" + name + ".png"),
    Buffer.from((await send("Page.captureScreenshot", { format: "png" })).result.data, "base64"));
  await send("Runtime.enable"); await send("Log.enable"); await send("Page.enable");

  // ---- take.html: out-of-order replies. Untick lean, tick it, untick it: the reply with lean is
  // held back and answered last; the plots must still show the last pick (no lean).
  await open("take.html?path=chatter.take");
  const canvases = "[...document.querySelectorAll('#plots canvas')].map((c) => c.dataset.channel).join(',')";
  await evaluate(`(() => { const o = MT.csv; window.csvDone = 0; MT.csv = async (...a) => { try { return await o(...a); } finally { window.csvDone++; } }; return 1; })()`);
  await send("Fetch.enable", { patterns: [{ urlPattern: "*/api/take/data*" }] });
  const lean = "document.querySelector('input[data-channel=lean]')";
  await evaluate(`${lean}.click(), 1`);
  await pass(await nextPaused(/channels=speed%2Csteer_angle&/));
  await until(`window.csvDone === 1 && ${canvases} === 'speed,steer_angle'`, "first untick never drawn");
  await evaluate(`${lean}.click(), 1`);                     // tick lean: its reply is held
  const late = await nextPaused(/lean/);
  await evaluate(`${lean}.click(), 1`);                     // untick it again: this reply goes first
  await pass(await nextPaused(/channels=speed%2Csteer_angle&/));
  await until(`window.csvDone === 2 && document.querySelectorAll('#plots canvas').length > 0`, "second untick never drawn");
  await pass(late);                                          // the stale reply arrives last
  await until("window.csvDone === 3", "the held reply never arrived");
  await evaluate("new Promise((r) => setTimeout(() => r(1), 0))");   // redraw's code after its await has run
  const got = await evaluate(canvases);
  check("web_page_take_stale_reply_dropped", got === "speed,steer_angle", `plots ${got} after the stale reply with lean (want speed,steer_angle)`);
  await send("Fetch.disable");

  // ---- take.html: the MP4 preview. The preview request is held; the progress replies say frame
  // 5 of 11: the page shows a spinner and "frame 5 / 11" until the video has arrived.
  await send("Fetch.enable", { patterns: [{ urlPattern: "*/api/take/preview*" }, { urlPattern: "*/api/take/progress*" }] });
  await countGets();
  await evaluate("document.getElementById('showpreview').click(), 1");
  const held = await nextPaused(/\/api\/take\/preview\?/);
  await answer(await nextPaused(/\/api\/take\/progress\?/), { state: "making", done: 5, total: 11 });
  const st = "document.getElementById('previewstate')";
  await settled(1);
  const making = await evaluate(`${st}.textContent`);
  const spin = await evaluate(`(() => { const s = ${st}.querySelector('.spin'); return !!s && getComputedStyle(s).animationName === 'spin' && s.getBoundingClientRect().width > 0; })()`);
  check("web_page_preview_spinner", spin && /frame 5 \/ 11$/.test(making) && (await evaluate("document.getElementById('preview').hidden")) && (await evaluate("document.getElementById('showpreview').disabled")),
    `while rendering: spinner ${spin}, text '${making}'`);
  await shot("take_preview_making");
  await pass(held);
  while (!(await evaluate("!document.getElementById('preview').hidden"))) {   // progress polls made meanwhile
    const k = paused.findIndex((x) => /progress/.test(x.request.url));
    if (k >= 0) await answer(paused.splice(k, 1)[0], { state: "ready" }); else await sleep(50);
  }
  await send("Fetch.disable");
  for (const p of paused.splice(0)) await answer(p, { state: "ready" });
  // the video element has the server's MP4 (this Chromium has no H.264 decoder to play it: its bytes are checked)
  const after = await evaluate(`(async () => { const v = document.getElementById('preview');
    const b = new Uint8Array(await (await fetch(v.src)).arrayBuffer());
    return [${st}.textContent, !!${st}.querySelector('.spin'), String.fromCharCode(...b.slice(4, 8)), b.length]; })()`);
  check("web_page_preview_shown", after[0] === "" && !after[1] && after[2] === "ftyp", `after: text '${after[0]}', spinner ${after[1]}, video bytes '${after[2]}' (${after[3]})`);

  // ---- rig.html: "Ride this". The first three /api/job replies are the test's: not started yet
  // (0 / 0), practising (0 / 0 with a stage), then half way (0.7 / 1.4 s); then the server's own
  // until the run is done.
  await open("rig.html?rig=sport1000");
  await send("Fetch.enable", { patterns: [{ urlPattern: "*/api/job*" }] });
  await countGets();
  await evaluate("document.getElementById('script').value = 'chatter', document.getElementById('ride').click(), 1");
  const frac = "(() => { const b = document.getElementById('bar'), box = document.getElementById('barbox'); return b.parentElement === box && box.closest('p') ? b.getBoundingClientRect().width / box.getBoundingClientRect().width : -1; })()";
  const res = "document.getElementById('rideres').textContent";
  await answer(await nextPaused(/\/api\/job\?/), { state: "running", t: 0, total: 0, take: "runs/x.take", error: "" });
  await settled(1);
  const f0 = await evaluate(frac), t0 = await evaluate(res);
  check("web_page_ride_starting", f0 === 0 && /starting/.test(t0) && !/0\.0 \/ 0\.0/.test(t0), `before the run steps: fill ${f0}, text '${t0}'`);
  // work before the ride (a racing script's practice laps): its name and percentage, the bar filled to it
  await answer(await nextPaused(/\/api\/job\?/), { state: "running", t: 0, total: 0, take: "runs/x.take", error: "", stage: "practice laps", pct: 37.5 });
  await settled(2);
  const fp = await evaluate(frac), tp = await evaluate(res);
  check("web_page_ride_practice", Math.abs(fp - 0.375) < 0.01 && /riding → runs\/chatter-[0-9]+\.take practice laps 38 %$/.test(tp), `practising: fill ${fp}, text '${tp}'`);
  await evaluate("document.getElementById('barbox').scrollIntoView({ block: 'center' }), 1");
  await shot("rig_ride_practice");
  await answer(await nextPaused(/\/api\/job\?/), { state: "running", t: 0.7, total: 1.4, take: "runs/x.take", error: "" });
  await settled(3);
  const f1 = await evaluate(frac), t1 = await evaluate(res);
  check("web_page_ride_bar_half", Math.abs(f1 - 0.5) < 0.01 && /riding → runs\/chatter-[0-9]+\.take 0\.7 \/ 1\.4 s$/.test(t1),
    `at 0.7 / 1.4 s: text '${t1}', the bar filled ${f1} of its box (want 0.5; -1: the fill is not inside the bar in the paragraph)`);
  await evaluate("document.getElementById('barbox').scrollIntoView({ block: 'center' }), 1");
  await shot("rig_ride_half");
  await send("Fetch.disable");
  for (const p of paused.splice(0)) await pass(p);
  await until(`/^done: /.test(${res})`, "the ride never done");
  const f2 = await evaluate(frac);
  check("web_page_ride_bar_full", Math.abs(f2 - 1) < 0.01, `done: the bar is filled ${f2} of its box`);

  // ---- rig.html: the root locus is shown at a scale where its labels are readable
  const img = "document.querySelector('img[data-kind=modes]')";
  await until(`${img}.complete && ${img}.naturalWidth > 0`, "no root-locus image");
  const sc = await evaluate(`${img}.getBoundingClientRect().width / ${img}.naturalWidth`);
  check("web_page_locus_scale", 11 * sc >= 9, `the root locus is shown at ${sc.toFixed(3)} of its pixels (its 11 px labels at ${(11 * sc).toFixed(1)} px)`);
  await evaluate(`${img}.scrollIntoView(), 1`);
  await shot("rig_locus");

  await open("index.html", false);
  await until("document.querySelectorAll('.card img').length > 0 && [...document.querySelectorAll('.card img')].every((i) => i.complete)", "library thumbnails");
  await shot("library");
  const errs = consoleErrors.filter((m) => !/favicon\.ico/.test(m));   // the browser's own request for an icon
  check("web_pages_console_clean", errs.length === 0, errs.slice(0, 3).join(" | "));
  done(failed ? 1 : 0);
})().catch((e) => { console.log("FAIL web_pages_script: " + String(e)); done(1); });
