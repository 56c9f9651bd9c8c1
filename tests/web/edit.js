// edit.js URL OUT.png — drive the rig editor in headless Chromium over the DevTools protocol:
// load URL (rig.html with the token), type a new front-tyre peak friction (pDy1 = 0.8) into its
// input as a user would, and wait for the front tyre plot to be redrawn. Prints one JSON line:
// {before, after, changed, bytesDiffer} (the plot's URL before and after, and whether the two
// PNGs differ), and saves a screenshot to OUT.png. Node 20 with --experimental-websocket; no npm.
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const [url, out] = process.argv.slice(2);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mt-cdp-"));
const chrome = spawn("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
  "--remote-debugging-port=0", "--user-data-dir=" + dir, "--window-size=1500,1100", "about:blank"], { stdio: "ignore" });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let finished = false;
const done = (code) => {
  if (finished) return;
  finished = true;
  chrome.on("exit", () => { try { fs.rmSync(dir, { recursive: true, force: true }); } catch { /* left in /tmp */ } process.exit(code); });
  chrome.kill("SIGKILL");
};
setTimeout(() => { console.log(JSON.stringify({ error: "timeout" })); done(1); }, 120000);

(async () => {
  let port = null;
  for (let i = 0; i < 200 && !port; i++) {
    try { port = fs.readFileSync(path.join(dir, "DevToolsActivePort"), "utf8").split("\n")[0]; } catch { await sleep(100); }
  }
  let list = null;   // the port file can appear a moment before the port answers (as in pages.js)
  for (let i = 0; i < 100 && !list; i++) {
    try { list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json(); } catch { await sleep(100); }
  }
  const ws = new WebSocket(list.find((t) => t.type === "page").webSocketDebuggerUrl);
  await new Promise((r) => ws.addEventListener("open", r));
  let id = 0;
  const pending = new Map();
  ws.addEventListener("message", (m) => {
    const d = JSON.parse(m.data);
    if (d.id && pending.has(d.id)) { pending.get(d.id)(d); pending.delete(d.id); }
  });
  const send = (method, params) => new Promise((r) => { const k = ++id; pending.set(k, r); ws.send(JSON.stringify({ id: k, method, params })); });
  const evaluate = async (expr) => (await send("Runtime.evaluate", { expression: expr, awaitPromise: true, returnByValue: true })).result.result.value;
  await send("Page.navigate", { url });
  for (let i = 0; i < 600 && (await evaluate("document.body && document.body.dataset.ready")) !== "1"; i++) await sleep(100);
  const img = "document.querySelector('img[data-kind=tyre_front]')";
  for (let i = 0; i < 600 && !(await evaluate(`${img}.complete && ${img}.naturalWidth > 0`)); i++) await sleep(100);
  const before = await evaluate(`${img}.src`);
  // a user's edit: open the tyre group via the filter, type, leave the field
  await evaluate(`(() => { const f = document.getElementById('filter'); f.value = 'wheels.front.tyre.pDy1'; f.dispatchEvent(new Event('input'));
    const i = document.querySelector('input[data-key="wheels.front.tyre.pDy1"]'); i.focus(); i.value = '0.8';
    i.dispatchEvent(new Event('change')); return true; })()`);
  let after = before;
  for (let i = 0; i < 600; i++) {
    after = await evaluate(`${img}.src`);
    if (after !== before && (await evaluate(`${img}.complete && ${img}.naturalWidth > 0 && ${img}.style.opacity === '1'`))) break;
    await sleep(100);
  }
  const bytesDiffer = await evaluate(`(async () => {
    const a = new Uint8Array(await (await fetch(${JSON.stringify(before)})).arrayBuffer());
    const b = new Uint8Array(await (await fetch(${img}.src)).arrayBuffer());
    return a.length > 0 && b.length > 0 && (a.length !== b.length || a.some((v, k) => v !== b[k]));
  })()`);
  const shot = await send("Page.captureScreenshot", { format: "png" });
  fs.writeFileSync(out, Buffer.from(shot.result.data, "base64"));
  console.log(JSON.stringify({ before, after, changed: after !== before, bytesDiffer }));
  done(0);
})().catch((e) => { console.log(JSON.stringify({ error: String(e) })); done(1); });
