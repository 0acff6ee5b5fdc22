/* page.js - the page's side: it builds an occcalc command line from the
 * form, runs it in the WebAssembly module (web/occweb.c: the CLI itself)
 * and shows what the CLI printed. It computes nothing: every figure on the
 * page is a field of the CLI's JSON, in an element data-field="FIELD"
 * (data-value holds the JSON value, for scripts and tests). */
"use strict";

// The form's inputs, named as the CLI's long options, in the order the
// command line gives them; the fragment (#gpu=H100-SXM&block=128) too.
const OPTIONS = ["gpu", "arch", "sms", "block", "regs", "smem", "static-smem",
  "carveout", "barriers", "no-optin", "cluster", "grid", "partition",
  "partition-part"];
const FLAGS = new Set(["no-optin"]);

const $ = (id) => document.getElementById(id);
let M = null;           // the module
let runs = 0;
const timing = { start: performance.now(), load_ms: null, change_ms: [] };
window.occcalcTiming = timing;

// ---- The module ----

// Runs `occcalc ARGS`: {status, out, err}, as the program would print.
function occcalc(args) {
  const enc = new TextEncoder();
  const parts = args.map((a) => enc.encode(a));
  const len = parts.reduce((n, p) => n + p.length + 1, 0);
  const ptr = M._malloc(len);
  let off = 0;
  for (const p of parts) {
    M.HEAPU8.set(p, ptr + off);
    off += p.length;
    M.HEAPU8[ptr + off++] = 0;
  }
  const status = M._occweb_run(ptr, len);
  M._free(ptr);
  return { status, out: M.UTF8ToString(M._occweb_out()),
    err: M.UTF8ToString(M._occweb_err()) };
}
window.occcalcRun = occcalc;   // for scripts: occcalcRun(["--help"])

function json(args) {
  const r = occcalc(args);
  let rows = null;
  if (r.out.trim()) {
    try { rows = JSON.parse(r.out); } catch (e) { rows = null; }
  }
  return Object.assign(r, { rows });
}

// ---- The form and the command line ----

function formArgs() {
  const args = [];
  for (const name of OPTIONS) {
    const el = $(name);
    if (FLAGS.has(name)) {
      if (el.checked) args.push("--" + name);
    } else if (el.value.trim() !== "") {
      args.push("--" + name, el.value.trim());
    }
  }
  return args;
}

function shellQuote(a) {
  return /^[A-Za-z0-9_.,:%+=\/@-]+$/.test(a) ? a : "'" + a.replace(/'/g, "'\\''") + "'";
}

function fragment() {
  const p = [];
  for (const name of OPTIONS) {
    const el = $(name);
    if (FLAGS.has(name)) {
      if (el.checked) p.push(name);
    } else if (el.value.trim() !== "") {
      p.push(name + "=" + encodeURIComponent(el.value.trim()));
    }
  }
  return "#" + p.join("&");
}

// The fragment into the form: unknown names are left out, not guessed.
function restore(hash) {
  const given = new Map();
  for (const part of hash.replace(/^#/, "").split("&")) {
    if (!part) continue;
    const i = part.indexOf("=");
    const k = decodeURIComponent(i < 0 ? part : part.slice(0, i));
    given.set(k, i < 0 ? "" : decodeURIComponent(part.slice(i + 1).replace(/\+/g, " ")));
  }
  for (const name of OPTIONS) {
    const el = $(name);
    if (FLAGS.has(name)) {
      el.checked = given.has(name) && given.get(name) !== "0";
    } else {
      const v = given.has(name) ? given.get(name) : "";
      if (el.tagName === "SELECT" && v && ![...el.options].some((o) => o.value === v)) {
        el.add(new Option(v, v));    // the CLI says whether it knows it
      }
      el.value = v;
    }
  }
}

// ---- Rendering ----

function text(v) {
  if (v === null || v === undefined) return "–";
  if (Array.isArray(v)) return v.join(", ");
  if (typeof v === "boolean") return v ? "yes" : "no";
  return String(v);
}

function field(row, name, fmt) {
  const s = document.createElement("span");
  s.dataset.field = name;
  s.dataset.value = JSON.stringify(row[name] === undefined ? null : row[name]);
  s.textContent = fmt ? fmt(row[name]) : text(row[name]);
  return s;
}

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const k of kids) e.append(k);
  return e;
}

const pct = (v) => (v === null || v === undefined ? "–" : v.toFixed(2) + " %");

function bigFigures(row) {
  const box = el("div", { class: "big" });
  const fig = (label, ...kids) => box.append(el("div", {}, el("span", {}, label), el("span", {}, ...kids)));
  fig("Occupancy", field(row, "occupancy_pct", pct));
  fig("Active blocks per SM", field(row, "blocks_per_sm"));
  fig("Active warps per SM", field(row, "warps_per_sm"), " of ", field(row, "max_warps_per_sm"));
  fig("Limited by", field(row, "limiter"));
  fig("Block", field(row, "block"));
  return box;
}

// Per resource: what a block takes and the blocks it allows (the CLI's
// table; the per-SM figures are in the text report below).
function resources(row) {
  const lim = new Set(row.limiter || []);
  const t = el("table", { class: "resources" },
    el("caption", {}, "Blocks per SM by resource"),
    el("tr", {}, el("th", {}, "Resource"), el("th", {}, "per block"),
      el("th", {}, "per SM"), el("th", {}, "blocks/SM")));
  const line = (name, key, block, sm, limit) => {
    const tr = el("tr", lim.has(key) ? { class: "limiter" } : {},
      el("td", {}, name + (lim.has(key) ? " (limiter)" : "")),
      el("td", {}, block ? field(row, block) : "–"),
      el("td", {}, sm ? field(row, sm) : "–"), el("td", {}, field(row, limit)));
    t.append(tr);
  };
  line("Warps", "warps", "warps_per_block", "max_warps_per_sm", "limit_warps");
  line("Registers", "registers", "regs_per_block", null, "limit_registers");
  line("Shared memory (B)", "shared_memory", "smem_per_block", "smem_per_sm", "limit_shared_memory");
  line("Block slots", "blocks", null, null, "limit_blocks");
  line("Barriers", "barriers", "barriers", null, "limit_barriers");
  return t;
}

// "; a block more at X (N blocks)" and "; fewer from A to B (M blocks)"
// where the row has them: a limit nothing gains or loses a block at says
// so rather than show a dash.
function steps(row, what, unit) {
  const f = (n) => field(row, what + n);
  const gain = row[what + "gain_at"] == null ? ["; no " + (what === "regs_" ?
    "fewer registers" : "less shared memory") + " gains a block"] :
    ["; a block more at ", f("gain_at"), unit + " (", f("gain_blocks"), " blocks)"];
  const drop = row[what + "drop_from"] == null ? [] :
    ["; fewer from ", f("drop_from"), " to ", f("drop_to"), unit + " (",
     f("drop_blocks"), " blocks)"];
  return [...gain, ...drop, "."];
}

function headroom(row) {
  const d = el("div", { class: "headroom" }, el("h3", {}, "Headroom (the other inputs unchanged)"));
  const p = (...kids) => d.append(el("p", {}, ...kids));
  p("Registers: the same blocks up to ", field(row, "regs_keep_max"), "/thread",
    ...steps(row, "regs_", ""));
  p("Dynamic shared memory: the same blocks up to ", field(row, "smem_keep_max"), " B",
    ...steps(row, "smem_", " B"));
  p("Largest dynamic shared memory per block: ", field(row, "max_dynamic_smem_per_block"), " B.");
  return d;
}

// Every field of the row, as the CLI's JSON names it.
function allFields(row, title) {
  const t = el("table", { class: "fields" });
  for (const k of Object.keys(row)) {
    t.append(el("tr", {}, el("th", { scope: "row" }, k), el("td", {}, field(row, k))));
  }
  return el("details", {}, el("summary", {}, title), el("div", { class: "scroll" }, t));
}

function rowsTable(rows) {
  const keys = Object.keys(rows[0]);
  const t = el("table", {}, el("tr", {}, ...keys.map((k) => el("th", {}, k))));
  for (const r of rows) t.append(el("tr", {}, ...keys.map((k) => el("td", {}, field(r, k)))));
  return el("div", { class: "scroll" }, t);
}

function showError(r) {
  const e = $("error");
  e.hidden = !r.err.trim();
  e.textContent = r.err.trim();
}

// ---- A calculation ----

function calculate() {
  const t0 = performance.now();
  const args = formArgs();
  const cmd = ["occcalc", ...args].map(shellQuote).join(" ");
  $("cmdline").value = cmd;
  const frag = fragment();
  $("link").href = frag;
  if (location.hash !== frag && !(frag === "#" && !location.hash)) {
    history.replaceState(null, "", frag === "#" ? location.pathname + location.search : frag);
  }
  const res = $("result");
  const main = json([...args, "-f", "json", "--headroom"]);
  showError(main);
  res.replaceChildren();
  $("charts").replaceChildren();
  const rows = main.rows || [];
  if (rows.length === 1) {
    const row = rows[0];
    const box = el("div", { "data-row": "main" }, bigFigures(row), resources(row));
    if (row.grid !== null && row.grid !== undefined) {
      box.append(el("p", {}, "Grid of ", field(row, "grid"), " blocks: ", field(row, "waves"),
        " full waves, ", field(row, "tail_blocks"), " blocks in the last; occupancy over the launch ",
        field(row, "launch_occupancy_pct", pct), "."));
    }
    if (row.min_grid_size !== null && row.min_grid_size !== undefined) {
      box.append(el("p", {}, "Blocks that fill the GPU: ", field(row, "min_grid_size"), "."));
    }
    if (row.cluster !== null && row.cluster !== undefined) {
      box.append(el("p", {}, "Clusters of ", field(row, "cluster"), ": ",
        field(row, "max_active_clusters"), " at once (", field(row, "cluster_active_blocks"),
        " CTAs), occupancy of the GPU ", field(row, "cluster_occupancy_pct", pct),
        ", limited by ", field(row, "cluster_limiter"), "."));
    }
    box.append(headroom(row), allFields(row, "All fields of the CLI's JSON row"));
    res.append(box);
    recommend(args, res);
    charts(args);
  } else if (rows.length > 1) {
    res.append(el("div", { "data-row": "rows" }, rowsTable(rows)));
  }
  $("report").textContent = occcalc(args).out;
  runs++;
  document.body.dataset.runs = String(runs);
  const ms = performance.now() - t0;
  if (timing.load_ms === null) timing.load_ms = performance.now() - timing.start;
  else timing.change_ms.push(ms);
}

// The block size that maximises occupancy: the same command without --block.
function recommend(args, res) {
  const i = args.indexOf("--block");
  const without = i < 0 ? args : args.slice(0, i).concat(args.slice(i + 2));
  const r = json([...without, "-f", "json"]);
  if (!r.rows || r.rows.length !== 1) return;
  const row = r.rows[0];
  res.append(el("p", { "data-row": "recommended" }, "Recommended block size: ",
    field(row, "block"), " threads (", field(row, "blocks_per_sm"), " blocks, ",
    field(row, "occupancy_pct", pct), "; as good: ", field(row, "ties"), ")."));
}

// The CLI's own SVG (--plot): the three charts, this configuration marked.
function charts(args) {
  const path = "/tmp/charts.svg";
  // A configuration that cannot launch is drawn too (exit status 1).
  occcalc([...args, "--plot", path, "-f", "json"]);
  try {
    $("charts").innerHTML = M.FS.readFile(path, { encoding: "utf8" });
    M.FS.unlink(path);
  } catch (e) { /* no chart for this command */ }
}

// ---- Files dropped ----

function readFile(file) {
  file.arrayBuffer().then((buf) => {
    const name = file.name.replace(/[^A-Za-z0-9._-]/g, "_") || "input";
    // Read from the directory it is in, as a user runs the command shown
    // (the rows name the file as it was given).
    try { M.FS.mkdir("/in"); } catch (e) { /* there already */ }
    M.FS.chdir("/in");
    const path = name;
    M.FS.writeFile(path, new Uint8Array(buf));
    const trace = /\.(jsonl?|gz)$/i.test(name);
    // A trace names its GPUs; a report or binary is read for the form's.
    const base = trace ? [] : formArgs().filter((a, i, all) =>
      ["--gpu", "--arch", "--sms"].includes(a) || ["--gpu", "--arch", "--sms"].includes(all[i - 1]));
    const args = [...base, trace ? "--launches" : "--kernels", path];
    $("cmdline").value = ["occcalc", ...args].map(shellQuote).join(" ");
    const r = json([...args, "-f", "json"]);
    M.FS.unlink(path);
    showError(r);
    const k = $("kernels");
    k.replaceChildren(el("h3", {}, (trace ? "Launches in " : "Kernels in ") + name));
    if (r.rows && r.rows.length) k.append(el("div", { "data-row": "file" }, rowsTable(r.rows)));
    // The CLI's text: a trace's per-kernel summary, a list's notes.
    k.append(el("pre", { id: "file-report" }, occcalc(args).out));
    runs++;
    document.body.dataset.runs = String(runs);
  });
}

// ---- Start ----

function fill() {
  const v = occcalc(["--version"]);
  $("version").textContent = v.out.trim().replace(/^occcalc /, "");
  const gpus = json(["--list-gpus", "-f", "json"]).rows || [];
  for (const g of gpus) $("gpu").add(new Option(`${g.name} (${g.computeCapability}, ${g.multiProcessorCount} SMs)`, g.name));
  $("gpus").textContent = gpus.map((g) => g.name).join(", ");
  const archs = json(["--list-archs", "-f", "json"]).rows || [];
  for (const a of archs) $("arch").add(new Option(`${a.arch} (${a.name})`, a.arch));
}

function start(module) {
  M = module;
  fill();
  restore(location.hash || "#gpu=H100-SXM&block=128&regs=40&smem=20K");
  calculate();
  $("form").addEventListener("input", (e) => { if (e.target.id !== "file") calculate(); });
  $("form").addEventListener("submit", (e) => e.preventDefault());
  window.addEventListener("hashchange", () => { restore(location.hash); calculate(); });
  $("copy").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText($("cmdline").value));
  $("file").addEventListener("change", (e) => e.target.files[0] && readFile(e.target.files[0]));
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    if (e.dataTransfer.files[0]) readFile(e.dataTransfer.files[0]);
  });
}

occcalcModule({ print: () => {}, printErr: () => {} }).then(start);
