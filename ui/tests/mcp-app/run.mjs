// The MCP Apps chart view in a real host: headless Chromium (Debian's `chromium`, driven by
// puppeteer-core; no browser download), a host page built on the official
// @modelcontextprotocol/ext-apps AppBridge (host-page.ts), and the real `garmin-mcp --demo` over
// stdio through the official MCP TypeScript client. It proves, against real answers:
//  - tools/list names the view on render_chart, get_fitness_trend and get_activity and every
//    tool's _meta.ui, the resource's _meta.ui and the tool-result notification validate against
//    the ext-apps schemas; the view is served as text/html;profile=mcp-app with an empty CSP;
//  - a client without MCP Apps gets the same content (text and PNG) and structuredContent as an
//    apps host, and no view data;
//  - the activity view draws (non-blank screenshot; each series draws exactly the points the data
//    has after thinning), hover reads the right pace, the heart-rate toggle removes its panel, a drag
//    zooms in, the host's dark theme and Chinese locale apply;
//  - get_activity's view (no series in the answer) fetches it with the read-only get_activity;
//  - the period view lists a bar's activities through the bridge (read-only list_activities only);
//  - the fitness view names its convention and hover reads CTL; the mean-max view draws every
//    point of each curve; the page made no network request at all.
// It prints the measurements for the note: the view's size, the extra bytes of an apps host's
// render_chart answer, and the time from result to first paint.
//
// Run: `cargo xtask mcp-app` (or `node ui/tests/mcp-app/run.mjs --garmin-mcp target/debug/garmin-mcp`
// with Node >= 22; CHROMIUM overrides the browser's path). `cargo xtask test` runs it as a stage.
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import {
  McpUiResourceMetaSchema,
  McpUiToolMetaSchema,
  McpUiToolResultNotificationSchema,
  RESOURCE_MIME_TYPE,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer from "puppeteer-core";
import { build } from "vite";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../../..");
const VIEW_URI = "ui://garmin-mcp/charts.html";
const VIEW_META = "dev.garminmcp/view";
const TODAY = "2026-11-15";

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const garminMcp = resolve(flag("--garmin-mcp", join(root, "target/debug/garmin-mcp")));
const chromium = process.env.CHROMIUM || ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find(existsSync);

let failures = 0;
function check(ok, what, detail = "") {
  if (ok) console.log(`  ok   ${what}`);
  else {
    failures++;
    console.log(`  FAIL ${what}${detail ? `: ${String(detail).slice(0, 300)}` : ""}`);
  }
}

/** What each server wrote on stderr, printed when a check fails (so a failure says its cause). */
const serverLogs = { apps: [], plain: [] };

/** A garmin-mcp --demo child over stdio; `apps` says whether the client renders MCP Apps. Both
 * save their charts in `exportDir` (the run's scratch folder, never the machine's Downloads). */
async function connect(apps, dataDir, exportDir) {
  const capabilities = apps ? { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [RESOURCE_MIME_TYPE] } } } : {};
  const client = new Client({ name: apps ? "apps-test-host" : "plain-test-host", version: "1.0.0" }, { capabilities });
  const transport = new StdioClientTransport({
    command: garminMcp,
    args: ["--demo", "--today", TODAY, "--data-dir", dataDir],
    env: { GARMIN_MCP_EXPORT_DIR: exportDir },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk) => serverLogs[apps ? "apps" : "plain"].push(String(chunk)));
  await client.connect(transport);
  return client;
}

/** Where two tool results first differ (the part, and each side from just before the first
 * differing character), for a failed "same answer" check. */
function firstDifference(a, b) {
  const around = (x, y) => {
    let i = 0;
    while (i < x.length && x[i] === y[i]) i++;
    const from = Math.max(0, i - 40);
    return `…${x.slice(from, i + 80)} ≠ …${y.slice(from, i + 80)}`;
  };
  const text = (x) => JSON.stringify(x) ?? "undefined";
  const parts = Math.max(a.content?.length ?? 0, b.content?.length ?? 0);
  for (let i = 0; i < parts; i++) {
    const [x, y] = [text(a.content?.[i]), text(b.content?.[i])];
    if (x !== y) return `content[${i}] (${a.content?.[i]?.type}): ${around(x, y)}`;
  }
  const keys = new Set([...Object.keys(a.structuredContent ?? {}), ...Object.keys(b.structuredContent ?? {})]);
  for (const key of keys) {
    const [x, y] = [text(a.structuredContent?.[key]), text(b.structuredContent?.[key])];
    if (x !== y) return `structuredContent.${key}: ${around(x, y)}`;
  }
  return "";
}

/** The host page's script: host-page.ts and the ext-apps SDK bundled by Vite into one IIFE. */
async function hostScript() {
  const output = await build({
    configFile: false,
    logLevel: "warn",
    root: here,
    build: {
      write: false,
      minify: false,
      lib: { entry: join(here, "host-page.ts"), formats: ["iife"], name: "testHost", fileName: "host" },
    },
  });
  const chunk = [output].flat()[0].output.find((o) => o.type === "chunk");
  return chunk.code;
}

/** Share of the screenshot's pixels that differ from its top-left pixel (the background), counted
 * in a page of its own so that the host page's request log stays the view's alone. */
async function inkShare(browser, png) {
  const page = await browser.newPage();
  const share = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext("2d");
    ctx.drawImage(img, 0, 0);
    const { data } = ctx.getImageData(0, 0, img.width, img.height);
    let ink = 0;
    for (let i = 0; i < data.length; i += 4)
      if (Math.abs(data[i] - data[0]) + Math.abs(data[i + 1] - data[1]) + Math.abs(data[i + 2] - data[2]) > 30) ink++;
    return ink / (data.length / 4);
  }, Buffer.from(png).toString("base64"));
  await page.close();
  return share;
}

function paceText(mps) {
  const s = Math.round(1000 / mps);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")} /km`;
}

async function main() {
  if (!existsSync(garminMcp)) throw new Error(`${garminMcp} is missing: cargo build -p garmin-mcp (or pass --garmin-mcp)`);
  if (!chromium) throw new Error("headless Chromium is needed: install Debian's `chromium` (.ci/setup) or set CHROMIUM");
  const scratch = mkdtempSync(join(tmpdir(), "garmin-mcp-app-"));
  const [apps, plain, script] = await Promise.all([
    connect(true, join(scratch, "apps"), join(scratch, "exports")),
    connect(false, join(scratch, "plain"), join(scratch, "exports")),
    hostScript(),
  ]);
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    userDataDir: join(scratch, "chromium"),
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
  });
  try {
    await protocolChecks(apps, plain);
    const page = await browser.newPage();
    await page.setViewport({ width: 760, height: 1000 });
    const requests = [];
    page.on("request", (request) => requests.push(request.url()));
    await page.exposeFunction("hostCallTool", (params) => apps.callTool(params));
    const measured = await activityView(browser, page, apps, plain, script, scratch);
    await activityWithoutSeries(page, apps, script);
    await periodView(page, apps, script);
    await fitnessView(page, apps, script);
    await meanMaxView(page, apps, script);
    check(requests.length === 0, "the host page and the view made no network request", requests.join(", "));
    console.log(`mcp-app measurements: ${JSON.stringify(measured)}`);
  } finally {
    await browser.close();
    await Promise.allSettled([apps.close(), plain.close()]);
    rmSync(scratch, { recursive: true, force: true });
  }
  if (failures) {
    for (const [name, lines] of Object.entries(serverLogs)) {
      console.log(`--- the ${name} server's stderr (last 40 lines)\n${lines.join("").split("\n").slice(-40).join("\n")}`);
    }
    throw new Error(`${failures} MCP Apps check(s) failed`);
  }
  console.log("mcp-app: all checks passed");
}

async function protocolChecks(apps, plain) {
  console.log("tools/list and the view resource");
  const { tools } = await apps.listTools();
  const withView = tools.filter((t) => t._meta?.ui?.resourceUri).map((t) => t.name).sort();
  check(
    JSON.stringify(withView) === JSON.stringify(["get_activity", "get_fitness_trend", "render_chart"]),
    "exactly render_chart, get_fitness_trend and get_activity name a view",
    withView.join(","),
  );
  for (const tool of tools.filter((t) => t._meta?.ui)) {
    const parsed = McpUiToolMetaSchema.safeParse(tool._meta.ui);
    check(parsed.success && tool._meta.ui.resourceUri === VIEW_URI, `${tool.name}'s _meta.ui is a valid McpUiToolMeta`, parsed.error?.message);
  }
  const { resources } = await apps.listResources();
  const listed = resources.find((r) => r.uri === VIEW_URI);
  check(listed?.mimeType === RESOURCE_MIME_TYPE, `resources/list has the view as ${RESOURCE_MIME_TYPE}`);
  const read = (await apps.readResource({ uri: VIEW_URI })).contents[0];
  const meta = McpUiResourceMetaSchema.safeParse(read._meta?.ui);
  check(meta.success, "the resource's _meta.ui is a valid McpUiResourceMeta", meta.error?.message);
  const csp = read._meta?.ui?.csp ?? {};
  check(
    ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"].every((k) => Array.isArray(csp[k]) && !csp[k].length),
    "its CSP allows no external origin",
  );
  const external = read.text.replace(/http:\/\/www\.w3\.org\/[0-9]{4}\/[a-z]+/g, "").match(/https?:\/\/\S+|\bsrc=|\bhref=|<link/i);
  check(read.mimeType === RESOURCE_MIME_TYPE && !external, "the view's HTML names no external URL", external?.[0]);
}

/** Loads `result` into a fresh host page; resolves when the view has reported its size. */
async function load(page, script, result, input, context = { theme: "dark", locale: "zh-CN" }) {
  const html = (await appsView).text;
  const csp = (await appsView)._meta.ui.csp;
  await page.setContent(
    `<!doctype html><html><body style="margin:0"><iframe id="view" sandbox="allow-scripts allow-same-origin" style="width:720px;height:980px;border:0"></iframe><script>${script}</script></body></html>`,
  );
  await page.evaluate((h, c, ctx, i, r) => window.host.load(h, c, ctx, i, r), html, csp, context, input, result);
  await page.waitForFunction(() => window.host.sizes.length > 0 && window.host.paintedAt > 0, { timeout: 15000 });
  const frame = await (await page.$("#view")).contentFrame();
  return frame;
}

let appsView;

/** render_chart's record: the JSON text after the image (the tool has no structured content). */
function chartRecord(result) {
  const text = result.content.filter((c) => c.type === "text").at(-1)?.text;
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/** A chart answer without what says whether its PNG was saved now or found already saved. */
function withoutSaveNote(result) {
  const content = result.content.map((c) => {
    if (c.type !== "text") return c;
    const text = c.text.replace(/ Already saved as /, " Saved as ").replace(/"already_saved":true/, '"already_saved":false');
    return { ...c, text };
  });
  return { content, structuredContent: result.structuredContent };
}

async function activityView(browser, page, apps, plain, script, scratch) {
  console.log("activity view (render_chart kind=activity)");
  appsView = apps.readResource({ uri: VIEW_URI }).then((r) => r.contents[0]);
  // The longest recent run: it has more samples than the view gets, so the series is thinned.
  const { structuredContent } = await apps.callTool({
    name: "list_activities",
    arguments: { activity_type: "running", limit: 40 },
  });
  const seconds = (d) => String(d ?? "0").split(":").reduce((sum, part) => sum * 60 + Number(part), 0);
  const run = structuredContent.activities.reduce((a, b) => (seconds(b.duration) > seconds(a.duration) ? b : a));
  const input = { kind: "activity", activity_id: run.activity_id };
  const result = await apps.callTool({ name: "render_chart", arguments: input });
  const before = await plain.callTool({ name: "render_chart", arguments: input });
  const view = result._meta?.[VIEW_META];
  check(view?.view === "activity" && !result.structuredContent?.series, "the apps host gets the series in _meta, not in structuredContent");
  check(!before._meta?.[VIEW_META], "a client without MCP Apps gets no view data");
  check(view.series.t.length < view.recordedPoints, "the series is thinned", `${view.series.t.length} of ${view.recordedPoints}`);
  // Both servers save in the run's scratch folder: the first to draw saves the PNG, the second finds
  // the same image there. Apart from saying which, the two answers must be the same.
  const savedIn = join(scratch, "exports");
  const [saved, found] = [chartRecord(result), chartRecord(before)];
  check(
    saved.path?.startsWith(savedIn) && saved.already_saved === false && found.path === saved.path && found.already_saved === true,
    "the chart is saved once, in the folder GARMIN_MCP_EXPORT_DIR names",
    `${saved.path} (already saved: ${saved.already_saved}), then ${found.path} (${found.already_saved})`,
  );
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const [first, second] = [result, before].map(withoutSaveNote);
  check(
    same(first.content, second.content) && same(first.structuredContent, second.structuredContent),
    "both clients get the same text, PNG and structured summary",
    firstDifference(first, second),
  );
  check(result.content.some((c) => c.type === "image" && c.mimeType === "image/png"), "the PNG is still in the content");
  const notification = McpUiToolResultNotificationSchema.safeParse({ method: "ui/notifications/tool-result", params: result });
  check(notification.success, "the result validates as an MCP Apps tool-result notification", notification.error?.message);

  const frame = await load(page, script, result, input);
  const measured = {
    viewHtmlBytes: Buffer.byteLength((await appsView).text),
    renderChartBytesPlain: Buffer.byteLength(JSON.stringify(before)),
    renderChartBytesApps: Buffer.byteLength(JSON.stringify(result)),
    viewMetaBytes: Buffer.byteLength(JSON.stringify(view)),
    thinnedPoints: view.series.t.length,
    recordedPoints: view.recordedPoints,
    resultToFirstPaintMs: Math.round(await page.evaluate(() => window.host.paintedAt - window.host.sentAt)),
  };
  measured.extraBytesRatio = +(measured.renderChartBytesApps / measured.renderChartBytesPlain).toFixed(3);

  const shot = await (await page.$("#view")).screenshot();
  const ink = await inkShare(browser, shot);
  check(ink > 0.02, "the chart draws (the screenshot is not blank)", `${(ink * 100).toFixed(1)}% ink`);
  const points = await frame.$$eval("path[data-series]", (paths) =>
    Object.fromEntries(paths.map((p) => [p.dataset.series, Number(p.dataset.points)])),
  );
  const present = (column) => (view.series[column] ?? []).filter((v) => v != null).length;
  check(points.hr === present("hrBpm"), "every heart-rate point after thinning is drawn", `${points.hr} vs ${present("hrBpm")}`);
  const moving = view.series.speedMps.filter((v) => v != null && v > 0.3).length;
  check(points.speed === moving, "pace is drawn wherever the runner moved", `${points.speed} vs ${moving}`);

  // Hover the middle of the pace panel with the real mouse.
  const panel = await frame.$('svg[data-panel="speed"]');
  const box = await panel.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const tip = await frame.$eval('svg[data-panel="speed"] + .tip', (t) => ({ index: Number(t.dataset.index), text: t.textContent, display: t.style.display }));
  const expected = paceText(view.series.speedMps[tip.index]);
  check(tip.display === "block" && tip.text.includes(expected), `hover reads the pace at that sample (${expected})`, tip.text);

  // Drag across the middle fifth: fewer points, all inside the range.
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  const zoomed = await frame.$eval('path[data-series="speed"]', (p) => Number(p.dataset.points));
  check(zoomed > 0 && zoomed < points.speed / 2, "dragging zooms in", `${zoomed} of ${points.speed} points`);

  const panelsBefore = (await frame.$$("svg[data-panel]")).length;
  await (await frame.$('input[data-toggle="hr"]')).click();
  const panelsAfter = (await frame.$$("svg[data-panel]")).length;
  const hrLeft = (await frame.$$('path[data-series="hr"]')).length;
  check(panelsAfter === panelsBefore - 1 && hrLeft === 0, "the heart-rate toggle removes its panel");
  const look = await frame.evaluate(() => ({
    theme: document.documentElement.dataset.theme,
    lang: document.documentElement.lang,
    legend: document.querySelector(".legend").textContent,
    bg: getComputedStyle(document.body).backgroundColor,
  }));
  check(look.theme === "dark" && look.bg === "rgb(23, 25, 28)", "the host's dark theme applies", JSON.stringify(look));
  check(look.lang === "zh-CN" && look.legend.includes("心率"), "the host's Chinese locale applies", look.legend);
  return measured;
}

async function activityWithoutSeries(page, apps, script) {
  console.log("activity view from get_activity (the view asks for the series)");
  const { structuredContent } = await apps.callTool({ name: "list_activities", arguments: { activity_type: "running", limit: 1 } });
  const input = { activity_id: structuredContent.activities[0].activity_id };
  const result = await apps.callTool({ name: "get_activity", arguments: input });
  const view = result._meta?.[VIEW_META];
  check(view?.view === "activity" && !view.series, "get_activity without include_series gives the view its laps, not the series");
  const frame = await load(page, script, result, input, { theme: "light", locale: "en-US" });
  await frame.waitForSelector('path[data-series="speed"]', { timeout: 15000 });
  const calls = await page.evaluate(() => window.host.calls);
  check(JSON.stringify(calls) === JSON.stringify(["get_activity"]), "the view fetched the series with the read-only get_activity", calls.join(","));
}

async function periodView(page, apps, script) {
  console.log("period view (render_chart kind=volume)");
  const input = { kind: "volume" };
  const result = await apps.callTool({ name: "render_chart", arguments: input });
  const view = result._meta?.[VIEW_META];
  check(view?.view === "period" && view.buckets.length > 0, "the volume chart gives the view its bars", result.content?.[0]?.text?.slice(0, 200));
  if (view?.view !== "period") return;
  const frame = await load(page, script, result, input, { theme: "light", locale: "en-GB" });
  const busiest = view.buckets.reduce((best, b, i, all) => (b.values.reduce((x, y) => x + y, 0) > all[best].values.reduce((x, y) => x + y, 0) ? i : best), 0);
  await (await frame.$(`g.bar[data-bucket="${busiest}"]`)).click();
  await frame.waitForFunction(() => document.querySelector("#list tbody tr") || document.querySelector("#list .note"), { timeout: 15000 });
  const rows = await frame.$$eval("#list tbody tr", (trs) => trs.length);
  const { start, end } = view.buckets[busiest];
  const direct = await apps.callTool({ name: "list_activities", arguments: { start_date: start, end_date: end, ...(view.activityType ? { activity_type: view.activityType } : {}) } });
  check(rows > 0 && rows === direct.structuredContent.activities.length, `clicking the ${start} bar lists its ${rows} activities`);
  const calls = await page.evaluate(() => window.host.calls);
  check(JSON.stringify(calls) === JSON.stringify(["list_activities"]), "the view called only the read-only list_activities", calls.join(","));
}

async function fitnessView(page, apps, script) {
  console.log("fitness view (get_fitness_trend)");
  const input = { start_date: "2026-08-01", end_date: "2026-11-15" };
  const result = await apps.callTool({ name: "get_fitness_trend", arguments: input });
  const view = result._meta?.[VIEW_META];
  check(view?.view === "fitness" && view.dates.length > 0, "get_fitness_trend gives the view its days", result.content?.[0]?.text?.slice(0, 200));
  if (view?.view !== "fitness") return;
  const frame = await load(page, script, result, input, { theme: "light", locale: "en-US" });
  const note = await frame.$eval("[data-convention]", (n) => n.textContent);
  check(note.includes(view.convention), "the fitness chart names its convention", note);
  const panel = await frame.$('svg[data-panel="fitness"]');
  const box = await panel.boundingBox();
  await page.mouse.move(box.x + box.width - 12, box.y + box.height / 2);
  const tip = await frame.$eval('svg[data-panel="fitness"] + .tip', (t) => ({ index: Number(t.dataset.index), text: t.textContent }));
  const ctl = view.ctl[tip.index];
  check(ctl != null && tip.text.includes(view.dates[tip.index]) && tip.text.includes(ctl.toFixed(1)), "hover reads that day's CTL", tip.text);
}

main().catch((e) => {
  console.error(`mcp-app: ${e.stack || e}`);
  process.exit(1);
});

async function meanMaxView(page, apps, script) {
  console.log("mean-max view (render_chart kind=mean_max)");
  // The curve is computed from the local history of the season before `date`: sync it, and ask
  // again until the background sync says it is complete (each call reports, none starts another).
  let synced = await apps.callTool({ name: "sync_history", arguments: { since: "2025-11-15" } });
  for (let i = 0; i < 600 && synced.structuredContent?.status === "running"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    synced = await apps.callTool({ name: "sync_history", arguments: { since: "2025-11-15" } });
  }
  check(synced.structuredContent?.status === "complete", "the demo history syncs the season", synced.content?.[0]?.text?.slice(0, 200));
  const input = { kind: "mean_max", metric: "pace", sport: "running" };
  const result = await apps.callTool({ name: "render_chart", arguments: input });
  const view = result._meta?.[VIEW_META];
  check(view?.view === "mean_max" && view.series.length > 0, "the mean-max chart gives the view its curves", result.content?.[0]?.text?.slice(0, 200));
  if (view?.view !== "mean_max") return;
  const frame = await load(page, script, result, input, { theme: "dark", locale: "en-US" });
  const points = await frame.$$eval("path[data-series]", (paths) => paths.map((p) => Number(p.dataset.points)));
  const expected = view.series.map((s) => s.values.filter((v) => v != null).length);
  check(JSON.stringify(points) === JSON.stringify(expected), "each curve draws every point it has", `${points} vs ${expected}`);
}
