// bench.js PAGE - how long the page takes: from navigation to its first
// result (the module's instantiation included), and from a change typed
// into the form to its result. Printed, never asserted (timings depend on
// the machine). Needs puppeteer-core (PUPPETEER, or _web/npm) and
// chromium (CHROMIUM, default /usr/bin/chromium).
"use strict";
const path = require("path");
const page_ = path.resolve(process.argv[2] || "_web/occcalc.html");
const puppeteer = require(process.env.PUPPETEER ||
  path.resolve(path.dirname(page_), "npm/node_modules/puppeteer-core"));

(async () => {
  const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox"] });
  const loads = [];
  for (let i = 0; i < 5; i++) {
    const p = await browser.newPage();
    const t0 = Date.now();
    await p.goto("file://" + page_ + "#gpu=H100-SXM&block=128&regs=40&smem=20K&cluster=2");
    await p.waitForFunction(() => document.body.dataset.runs === "1");
    loads.push(Date.now() - t0);
    if (i < 4) await p.close();
  }
  const pages = await browser.pages();
  const p = pages[pages.length - 1];
  const changes = [];
  for (let i = 0; i < 40; i++) {
    const runs = await p.evaluate(() => Number(document.body.dataset.runs));
    const t0 = Date.now();
    await p.evaluate((v) => { const e = document.getElementById("regs"); e.value = String(v);
      e.dispatchEvent(new Event("input", { bubbles: true })); }, 16 + 4 * i);
    await p.waitForFunction((r) => Number(document.body.dataset.runs) > r, {}, runs);
    changes.push(Date.now() - t0);
  }
  const inPage = await p.evaluate(() => window.occcalcTiming);
  const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
  const kb = Math.round(require("fs").statSync(page_).size / 1024);
  console.log(`page: ${kb} KB`);
  console.log(`load to first result: median ${med(loads)} ms of ${loads.length} (${loads.join(" ")})`);
  console.log(`change to result: median ${med(changes)} ms, max ${Math.max(...changes)} ms of ${changes.length}` +
    ` (in the page's own clock: median ${med(inPage.change_ms).toFixed(1)} ms)`);
  await browser.close();
})();
