// web.js - the page (web/) in headless Chromium against the native
// occcalc: what the page shows for a configuration, typed into its form
// or given in a link, is what `occcalc -f json` prints for the same
// options. Run by t/web.sh, which checks that everything is there; TAP.
//
// Environment: OCCCALC, OCCCALC_TABLES, T (t/), WEB_PAGE, PUPPETEER (the
// puppeteer-core module's directory), CHROMIUM, WEB_SEED (optional).
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const puppeteer = require(process.env.PUPPETEER);

const url = "file://" + path.resolve(process.env.WEB_PAGE);
let n = 0, failed = 0;
function ok(pass, what, detail) {
  n++;
  console.log(`${pass ? "ok" : "not ok"} ${n} - ${what}`);
  if (!pass) {
    failed++;
    if (detail) console.log("# " + String(detail).split("\n").join("\n# "));
  }
}

// A small seeded generator, so that a failure can be replayed (WEB_SEED).
let seed = Number(process.env.WEB_SEED || Date.now() % 100000);
console.log(`# WEB_SEED=${seed}`);
function rand(k) {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return Math.floor((seed / 2147483648) * k);
}
const pick = (a) => a[rand(a.length)];

function native(args, cwd) {
  try {
    return { status: 0, out: execFileSync(process.env.OCCCALC, args, { cwd, stdio: ["ignore", "pipe", "pipe"] }).toString(), err: "" };
  } catch (e) {
    return { status: e.status, out: e.stdout.toString(), err: e.stderr.toString() };
  }
}
const nativeRows = (args, cwd) => {
  const r = native([...args, "-f", "json"], cwd);
  return Object.assign(r, { rows: r.out.trim() ? JSON.parse(r.out) : [] });
};

const gpus = JSON.parse(native(["--list-gpus", "-f", "json"]).out);
const archs = JSON.parse(native(["--list-archs", "-f", "json"]).out);

// A configuration: option name -> value (true for a flag). Mostly ones
// that launch, some that the CLI refuses (its message must show).
function config() {
  const c = {};
  const g = rand(4) ? pick(gpus) : null;
  if (g) c.gpu = g.name;
  else c.arch = pick(archs).arch;
  if (g && !rand(6)) c.arch = pick(archs).arch;
  const cc = Number((g ? g.computeCapability : archs.find((a) => a.arch === c.arch).computeCapability));
  if (rand(8)) c.block = rand(5) ? String(32 * (1 + rand(32))) : pick(["16x16", "8x8x4", "32x4", "100"]);
  if (rand(5)) c.regs = String(rand(256));
  if (rand(2)) c.smem = pick([String(rand(49152)), `${rand(100)}K`, "0"]);
  if (!rand(4)) c["static-smem"] = String(rand(16384));
  if (!rand(4)) c.carveout = pick(["default", "0", "50", "100", String(rand(101))]);
  if (!rand(6)) c.barriers = String(1 + rand(16));
  if (!rand(6)) c["no-optin"] = true;
  if (!rand(4)) c.grid = pick([String(1 + rand(100000)), "64x64"]);
  if (cc >= 9 && g && !rand(3)) c.cluster = pick(["2", "4", "2x2", "8", "best"]);
  if (g && cc >= 9 && !rand(6)) c.partition = pick(["8", "16", "24"]);
  if (!g && !rand(4)) c.sms = String(1 + rand(200));
  return c;
}
const ORDER = ["gpu", "arch", "sms", "block", "regs", "smem", "static-smem", "carveout",
  "barriers", "no-optin", "cluster", "grid", "partition", "partition-part"];
const argsOf = (c) => ORDER.filter((k) => k in c).flatMap((k) => (c[k] === true ? ["--" + k] : ["--" + k, c[k]]));
const hashOf = (c) => "#" + ORDER.filter((k) => k in c).map((k) => (c[k] === true ? k : `${k}=${encodeURIComponent(c[k])}`)).join("&");

// What the page shows: each data-field's JSON value, by the row it is in.
async function shown(page) {
  return page.evaluate(() => {
    const get = (sel) => {
      const o = {};
      for (const e of document.querySelectorAll(sel + " [data-field]")) {
        const v = JSON.parse(e.dataset.value);
        if (e.dataset.field in o && JSON.stringify(o[e.dataset.field]) !== e.dataset.value) o[e.dataset.field] = "<disagrees with itself>";
        else o[e.dataset.field] = v;
      }
      return o;
    };
    const files = [...document.querySelectorAll("[data-row=file] tr")].slice(1).map((tr) => {
      const o = {};
      for (const e of tr.querySelectorAll("[data-field]")) o[e.dataset.field] = JSON.parse(e.dataset.value);
      return o;
    });
    return { main: get("[data-row=main]"), rec: get("[data-row=recommended]"), files,
      error: document.getElementById("error").hidden ? "" : document.getElementById("error").textContent,
      report: document.getElementById("report").textContent, cmd: document.getElementById("cmdline").value,
      charts: document.querySelectorAll("#charts svg .panel").length, hash: location.hash,
      runs: Number(document.body.dataset.runs || 0) };
  });
}

function differs(page, want) {
  const bad = [];
  for (const [k, v] of Object.entries(page)) {
    if (JSON.stringify(v) !== JSON.stringify(want[k])) bad.push(`${k}: page ${JSON.stringify(v)}, occcalc ${JSON.stringify(want[k])}`);
  }
  return bad;
}

// The page against the CLI for configuration c: every field shown, the
// recommended block, the text report, the error, the charts.
function judge(s, c, how) {
  const args = argsOf(c);
  const main = nativeRows([...args, "--headroom"]);
  const text = native(args);
  const what = `${how} ${args.join(" ")}`;
  const bad = [];
  if (main.rows.length === 1) {
    const fields = Object.keys(s.main).length;
    if (fields < main.rows.length && fields < 30) bad.push(`only ${fields} fields shown`);
    bad.push(...differs(s.main, main.rows[0]));
    const i = args.indexOf("--block");
    const rec = nativeRows(i < 0 ? args : args.slice(0, i).concat(args.slice(i + 2)));
    if (rec.rows.length === 1) bad.push(...differs(s.rec, rec.rows[0]).map((d) => "recommended " + d));
    const svg = path.join(os.tmpdir(), `occcalc-web-${process.pid}.svg`);
    native([...args, "--plot", svg, "-f", "json"]);
    const want = fs.existsSync(svg) ? (fs.readFileSync(svg, "utf8").match(/class="panel"/g) || []).length : 0;
    if (fs.existsSync(svg)) fs.unlinkSync(svg);
    if (s.charts !== want || want !== 3) bad.push(`${s.charts} charts, occcalc ${want}`);
  } else if (Object.keys(s.main).length) {
    bad.push("a result shown where occcalc printed none");
  }
  if (s.error !== main.err.trim()) bad.push(`error: page ${JSON.stringify(s.error)}, occcalc ${JSON.stringify(main.err.trim())}`);
  if (s.report !== text.out) bad.push("the text report differs");
  const quote = (a) => (/^[A-Za-z0-9_.,:%+=\/@-]+$/.test(a) ? a : `'${a}'`);
  if (s.cmd !== ["occcalc", ...args].map(quote).join(" ")) bad.push(`command shown: ${s.cmd}`);
  ok(bad.length === 0, what + (main.status ? ` (occcalc exits ${main.status})` : ""), bad.slice(0, 6).join("\n"));
}

async function settle(page, before) {
  await page.waitForFunction((b) => Number(document.body.dataset.runs || 0) > b, { timeout: 10000 }, before);
}

async function typeInto(page, c) {
  for (const k of ORDER) {
    const sel = "#" + k;
    const tag = await page.$eval(sel, (e) => e.tagName + ":" + e.type);
    if (tag.startsWith("SELECT")) {
      await page.select(sel, c[k] || "");
    } else if (tag === "INPUT:checkbox") {
      const on = await page.$eval(sel, (e) => e.checked);
      if (on !== !!c[k]) await page.click(sel);
    } else {
      const cur = await page.$eval(sel, (e) => e.value);
      if (cur === (c[k] || "")) continue;
      await page.click(sel, { clickCount: 3 });
      await page.keyboard.press("Backspace");
      if (c[k]) await page.type(sel, c[k]);
    }
  }
}

(async () => {
  const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM,
    args: ["--no-sandbox", "--allow-file-access-from-files"] });
  const page = await browser.newPage();
  page.on("pageerror", (e) => ok(false, "no error in the page's script", e.message));
  await page.goto(url);
  await settle(page, 0);
  const typed = Number(process.env.WEB_TYPED || 12), linked = Number(process.env.WEB_LINKED || 12);
  console.log(`1..${typed + linked + 7}`);

  // Typed into the form, keys and selects as a user would.
  for (let i = 0; i < typed; i++) {
    const c = config();
    await typeInto(page, c);
    const runs = (await shown(page)).runs;
    await page.evaluate(() => document.getElementById("regs").dispatchEvent(new Event("input", { bubbles: true })));
    await settle(page, runs);
    judge(await shown(page), c, "typed:");
  }
  // Given in links, each in a page of its own.
  for (let i = 0; i < linked; i++) {
    const c = config();
    const p = await browser.newPage();
    await p.goto(url + hashOf(c));
    await settle(p, 0);
    judge(await shown(p), c, "link:");
    await p.close();
  }
  // A link round-trips: the page's own link gives the same page.
  {
    const c = { gpu: "H100-SXM", block: "128", regs: "40", smem: "20K", cluster: "2" };
    const p = await browser.newPage();
    await p.goto(url + hashOf(c));
    await settle(p, 0);
    const first = await shown(p);
    const link = await p.$eval("#link", (a) => a.href);
    const q = await browser.newPage();
    await q.goto(link);
    await settle(q, 0);
    const again = await shown(q);
    ok(first.hash === hashOf(c) && link.endsWith(hashOf(c)) &&
      JSON.stringify(first.main) === JSON.stringify(again.main) && first.report === again.report,
    "a link round-trips: " + hashOf(c), `hash ${first.hash}, link ${link}`);
    const m = first.main;
    ok(m.occupancy_pct === 62.5 && m.blocks_per_sm === 10 && m.max_active_clusters === 528,
      "the issue's example link: 10 blocks, 62.50 %, 528 clusters", JSON.stringify(m).slice(0, 300));
    await p.close();
    await q.close();
  }
  // Files given to the page: read as the CLI reads them.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "occcalc-web."));
  for (const [file, gpu, mode] of [["fixtures/ptxas-sm90.txt", "H100-SXM", "--kernels"],
    ["fixtures/bin/default.fatbin", "H100-SXM", "--kernels"],
    ["fixtures/bin/sm_86.cubin", "RTX-3090", "--kernels"],
    ["fixtures/launches/small.jsonl", null, "--launches"],
    ["fixtures/launches/kineto.json", null, "--launches"]]) {
    const name = path.basename(file);
    fs.copyFileSync(path.join(process.env.T, file), path.join(dir, name));
    await typeInto(page, gpu ? { gpu } : { arch: "sm_90" });
    await settle(page, 0);
    const runs = (await shown(page)).runs;
    const input = await page.$("#file");
    await input.uploadFile(path.join(dir, name));
    await settle(page, runs);
    const s = await shown(page);
    const want = nativeRows([...(gpu ? ["--gpu", gpu] : []), mode, name], dir);
    const bad = [];
    if (s.files.length !== want.rows.length) bad.push(`${s.files.length} rows, occcalc ${want.rows.length}`);
    s.files.forEach((r, i) => bad.push(...differs(r, want.rows[i] || {})));
    ok(want.rows.length > 0 && bad.length === 0, `a file given: ${mode} ${name}: the CLI's rows`, bad.slice(0, 6).join("\n"));
  }
  fs.rmSync(dir, { recursive: true });
  await browser.close();
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.log(`not ok ${n + 1} - the browser ran: ${e.message}`);
  process.exit(1);
});
