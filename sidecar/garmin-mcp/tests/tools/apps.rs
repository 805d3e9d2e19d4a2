//! MCP Apps (`io.modelcontextprotocol/ui`) through rmcp's real client: the three tools name the
//! view, the view is listed and read with its MIME type and empty CSP, a host that renders MCP Apps
//! gets the view's data (thinned) in the result's `_meta`, never in `structuredContent`, and a host
//! without MCP Apps gets exactly what it got before (same text, structured summary and PNG).
//!
//! Run: `cargo test -p garmin-mcp --test tools apps::`

use base64::Engine as _;
use fake_garmin::data::activity::Sport;
use garmin_mcp::apps::{MIME, VIEW_META, VIEW_URI};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, Implementation, ReadResourceRequestParams,
    ResourceContents,
};
use rmcp::service::RunningService;
use rmcp::{ClientHandler, RoleClient};
use serde_json::{Value, json};

use crate::support::{Harness, text_of};

/// A chat host that renders MCP Apps: it names the extension and its MIME type at `initialize`.
#[derive(Clone, Default)]
struct AppsHost;

impl ClientHandler for AppsHost {
    fn get_info(&self) -> rmcp::model::ClientConfig {
        let capabilities: ClientCapabilities = serde_json::from_value(json!({
            "extensions": { "io.modelcontextprotocol/ui": { "mimeTypes": [MIME] } }
        }))
        .unwrap();
        rmcp::model::ClientConfig::new(capabilities, Implementation::new("apps-test-host", "1.0"))
    }
}

async fn apps_host(h: &Harness) -> RunningService<RoleClient, AppsHost> {
    h.client_with(AppsHost, |o| o).await
}

async fn call<C: ClientHandler>(
    client: &RunningService<RoleClient, C>,
    tool: &str,
    args: Value,
) -> CallToolResult {
    let Value::Object(map) = args else { panic!("arguments are an object") };
    let result = client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(map))
        .await
        .unwrap_or_else(|e| panic!("{tool}: {e}"));
    assert_ne!(result.is_error, Some(true), "{tool} failed: {}", text_of(&result));
    result
}

fn view_of(result: &CallToolResult) -> Option<&Value> {
    result.meta.as_ref().and_then(|m| m.get(VIEW_META))
}

/// The newest live activity of `sport` in the fake.
fn newest(h: &Harness, sport: Sport) -> fake_garmin::data::activity::Activity {
    let data = h.fake.state().inner.data.read().unwrap();
    data.live().rev().find(|a| a.sport() == sport).cloned().expect("the fake has one")
}

#[tokio::test]
async fn the_three_chart_tools_name_the_view_and_no_other_tool_does() {
    let h = Harness::start().await;
    for tool in h.client.list_all_tools().await.unwrap() {
        let uri = tool.meta.as_ref().and_then(|m| m.get("ui")).and_then(|ui| ui.get("resourceUri"));
        if ["render_chart", "get_fitness_trend", "get_activity"].contains(&tool.name.as_ref()) {
            assert_eq!(uri, Some(&json!(VIEW_URI)), "{} must name the view", tool.name);
        } else {
            assert!(uri.is_none(), "{} names a view it does not have", tool.name);
        }
    }
    let info = h.client.peer_info().unwrap();
    let extensions = serde_json::to_value(&info.capabilities).unwrap();
    assert!(extensions["extensions"].get("io.modelcontextprotocol/ui").is_some(), "{extensions}");
}

#[tokio::test]
async fn the_view_is_listed_and_read_as_one_self_contained_mcp_app_page_with_an_empty_csp() {
    let h = Harness::start().await;
    let resources = h.client.list_all_resources().await.unwrap();
    let listed = resources.iter().find(|r| r.uri == VIEW_URI).expect("the view is listed");
    assert_eq!(listed.mime_type.as_deref(), Some(MIME));
    let read = h.client.read_resource(ReadResourceRequestParams::new(VIEW_URI)).await.unwrap();
    let [ResourceContents::TextResourceContents { uri, mime_type, text, meta }] = read.contents.as_slice()
    else {
        panic!("one text content: {:?}", read.contents)
    };
    assert_eq!((uri.as_str(), mime_type.as_deref()), (VIEW_URI, Some(MIME)));
    assert!(text.to_lowercase().starts_with("<!doctype html>"));
    assert!(text.contains("ui/notifications/tool-result") && text.contains(VIEW_META));
    assert_eq!(listed.size, Some(text.len() as u64), "the listed size is the page's");
    let csp = &meta.as_ref().expect("the resource's _meta")["ui"]["csp"];
    for key in ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] {
        assert_eq!(csp[key], json!([]), "{key}");
    }
    // Hiding the chart tools hides the view too.
    let other = h.client_with((), |mut o| {
        o.toolsets = Some(vec!["profile".to_owned()]);
        o
    });
    let other = other.await;
    assert!(!other.list_all_resources().await.unwrap().iter().any(|r| r.uri == VIEW_URI));
    assert!(other.read_resource(ReadResourceRequestParams::new(VIEW_URI)).await.is_err(), "nor read");
}

#[tokio::test]
async fn an_activity_chart_gives_an_apps_host_the_thinned_series_in_meta_and_every_host_the_same_content() {
    let h = Harness::start().await;
    let ride = newest(&h, Sport::Cycling);
    // Each host saves in its own folder, so that both answers say "Saved as …".
    let args = |folder: &str| {
        let folder = h.dir.path().join(folder).display().to_string();
        json!({"kind": "activity", "activity_id": ride.id, "folder": folder})
    };
    let plain = call(&h.client, "render_chart", args("plain")).await;
    let host = apps_host(&h).await;
    let rich = call(&host, "render_chart", args("apps")).await;

    assert!(view_of(&plain).is_none(), "a host without MCP Apps gets no view data");
    assert!(rich.structured_content.is_none() && plain.structured_content.is_none());
    assert_eq!(text_of(&rich).replace("/apps/", "/plain/"), text_of(&plain), "the same summary");
    let image =
        |r: &CallToolResult| r.content.iter().find_map(|c| c.as_image()).map(|i| i.data.clone()).unwrap();
    assert_eq!(image(&rich), image(&plain), "the same PNG");
    assert_eq!(rich.content.len(), plain.content.len());

    let view = view_of(&rich).expect("the view's data in _meta");
    assert_eq!(view["view"], "activity");
    assert_eq!(view["activityId"], ride.id);
    assert_eq!(view["speedUnit"], "kmh", "a ride is drawn in km/h");
    let t = view["series"]["t"].as_array().unwrap();
    let recorded = view["recordedPoints"].as_u64().unwrap() as usize;
    assert!(!t.is_empty() && t.len() <= 1200 && t.len() <= recorded, "{} of {recorded}", t.len());
    for column in ["distanceM", "speedMps", "hrBpm"] {
        assert_eq!(view["series"][column].as_array().map(Vec::len), Some(t.len()), "{column} is aligned");
    }
    // What the view costs on top of today's answer (printed for the issue's measurements).
    let bytes = |r: &CallToolResult| serde_json::to_string(r).unwrap().len();
    let extra = bytes(&rich) - bytes(&plain);
    println!(
        "render_chart activity: answer {} bytes, view data +{extra} bytes ({} points)",
        bytes(&plain),
        t.len()
    );
    assert!(extra < 80_000, "the view's data is {extra} bytes");
    let png = base64::engine::general_purpose::STANDARD.decode(image(&rich)).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
}

#[tokio::test]
async fn get_activity_keeps_its_structured_answer_and_puts_the_view_in_meta_for_an_apps_host() {
    let h = Harness::start().await;
    let run = newest(&h, Sport::Running);
    let args = json!({"activity_id": run.id, "include_series": true, "max_points": 300});
    let plain = call(&h.client, "get_activity", args.clone()).await;
    let host = apps_host(&h).await;
    let rich = call(&host, "get_activity", args).await;
    assert_eq!(rich.structured_content, plain.structured_content, "structuredContent is unchanged");
    assert_eq!(text_of(&rich), text_of(&plain));
    assert!(view_of(&plain).is_none());
    let view = view_of(&rich).expect("the view's data");
    let structured = rich.structured_content.as_ref().unwrap();
    assert_eq!(view["view"], "activity");
    assert_eq!(view["activityId"], run.id);
    assert_eq!(view["name"], structured["name"]);
    let points = structured["series"]["t_s"].as_array().unwrap().len();
    assert_eq!(view["series"]["t"].as_array().unwrap().len(), points, "the view draws the answer's points");
    assert!(structured.get(VIEW_META).is_none() && structured.get("view").is_none());
    // Without the series the view still gets the activity (and asks for the series itself).
    let bare = call(&host, "get_activity", json!({"activity_id": run.id})).await;
    let view = view_of(&bare).expect("the view's data");
    assert!(view.get("series").is_none(), "{view}");
    assert_eq!(view["activityId"], run.id);
}

#[tokio::test]
async fn the_fitness_trend_and_its_chart_give_an_apps_host_the_same_columns() {
    let h = crate::support::synced_since("2026-08-01").await;
    let host = apps_host(&h).await;
    let range = json!({"start_date": "2026-10-04", "end_date": "2026-11-14"});
    let plain = call(&h.client, "get_fitness_trend", range.clone()).await;
    let rich = call(&host, "get_fitness_trend", range).await;
    assert_eq!(rich.structured_content, plain.structured_content);
    assert!(view_of(&plain).is_none());
    let view = view_of(&rich).expect("the view's data");
    let days = plain.structured_content.as_ref().unwrap()["days"].as_array().unwrap().clone();
    assert_eq!(view["view"], "fitness");
    assert_eq!(view["dates"].as_array().unwrap().len(), days.len());
    assert_eq!(view["ctl"][days.len() - 1], days[days.len() - 1]["ctl"]);

    let folder = h.dir.path().join("charts").display().to_string();
    let chart = call(
        &host,
        "render_chart",
        json!({"kind": "fitness", "weeks": 6, "date": "2026-11-14", "folder": folder}),
    )
    .await;
    let drawn = view_of(&chart).expect("the chart's view data");
    assert_eq!(drawn["dates"], view["dates"], "the chart and the trend show the same days");
    assert_eq!(drawn["tsb"], view["tsb"]);
}

#[tokio::test]
async fn a_volume_chart_gives_each_bar_the_days_it_covers_for_the_view_to_list() {
    let h = Harness::start().await;
    let host = apps_host(&h).await;
    let folder = h.dir.path().join("charts").display().to_string();
    let chart = call(&host, "render_chart", json!({"kind": "volume", "folder": folder})).await;
    let view = view_of(&chart).expect("the view's data");
    assert_eq!(view["view"], "period");
    let buckets = view["buckets"].as_array().unwrap();
    assert!(!buckets.is_empty());
    for pair in buckets.windows(2) {
        let end: chrono::NaiveDate = pair[0]["end"].as_str().unwrap().parse().unwrap();
        let next: chrono::NaiveDate = pair[1]["start"].as_str().unwrap().parse().unwrap();
        assert_eq!(end + chrono::Duration::days(1), next, "bars cover the days without a gap");
    }
    let sports = view["sports"].as_array().unwrap().len();
    assert!(buckets.iter().all(|b| b["values"].as_array().unwrap().len() == sports));
    // The kinds the view does not draw carry no view data.
    let zones = call(
        &host,
        "render_chart",
        json!({"kind": "hr_zones", "folder": h.dir.path().join("charts").display().to_string()}),
    )
    .await;
    assert!(view_of(&zones).is_none());
}

/// Chromium, for the view tests (`CHROMIUM` or `chromium` on the path; `.ci/setup` installs it).
fn chromium() -> std::path::PathBuf {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return path.into();
    }
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
        .find(|path| path.is_file())
        .expect("headless Chromium is needed for the view test: install Debian's `chromium` (.ci/setup) or set CHROMIUM")
}

/// A test host page: it embeds the view as a host does (an iframe), answers `ui/initialize` with
/// a dark, Chinese host context, posts `result` as `ui/notifications/tool-result` once the view
/// says it is initialized, and, when the view reports its size after drawing, checks the page:
/// points drawn per series, a hover readout at the middle of the first panel, a toggle, the theme
/// and language, the requests the page made. The report lands in `<pre id="out">`.
fn host_page(view_html: &str, result: &Value) -> String {
    let script = r#"
const frame = document.getElementById("view"), out = document.getElementById("out");
const post = (m) => frame.contentWindow.postMessage(Object.assign({ jsonrpc: "2.0" }, m), "*");
let sentAt = 0, checked = false;
window.addEventListener("message", (e) => {
  const m = e.data || {};
  if (m.method === "ui/initialize") post({ id: m.id, result: { protocolVersion: "2026-01-26", hostInfo: { name: "test-host", version: "1" }, hostCapabilities: {}, hostContext: { theme: "dark", locale: "zh-CN" } } });
  if (m.method === "ui/notifications/initialized") { sentAt = performance.now(); post({ method: "ui/notifications/tool-result", params: RESULT }); }
  if (m.method === "ui/notifications/size-changed" && sentAt && !checked) { checked = true; check(performance.now() - sentAt); }
});
function check(paintMs) {
  const doc = frame.contentDocument, win = frame.contentWindow;
  const points = {};
  doc.querySelectorAll("path[data-series]").forEach((p) => { points[p.dataset.series] = (points[p.dataset.series] || 0) + Number(p.dataset.points); });
  const panel = doc.querySelector("svg[data-panel]"), box = panel.getBoundingClientRect();
  panel.dispatchEvent(new win.MouseEvent("mousemove", { clientX: box.left + box.width / 2, clientY: box.top + 10, bubbles: true }));
  const tip = panel.parentElement.querySelector(".tip");
  const hover = { panel: panel.dataset.panel, index: Number(tip.dataset.index), text: tip.textContent, shown: tip.style.display };
  const panelsBefore = doc.querySelectorAll("svg[data-panel]").length;
  const toggle = doc.querySelector('input[data-toggle="hr"]');
  toggle.checked = false; toggle.dispatchEvent(new win.Event("change", { bubbles: true }));
  const afterToggle = { panels: doc.querySelectorAll("svg[data-panel]").length, hr: doc.querySelectorAll('path[data-series="hr"]').length };
  const requests = win.performance.getEntriesByType("resource").length;
  out.textContent = JSON.stringify({ points, hover, panelsBefore, afterToggle, requests, paintMs,
    theme: doc.documentElement.dataset.theme, lang: doc.documentElement.lang, legend: doc.querySelector(".legend").textContent });
}
frame.srcdoc = VIEW;
"#;
    let embed = |value: String| value.replace("</", "<\\/");
    format!(
        "<!doctype html><html><body><iframe id=\"view\" style=\"width:720px;height:900px\"></iframe><pre id=\"out\">pending</pre>\
         <script>const RESULT = {}; const VIEW = {};{script}</script></body></html>",
        embed(result.to_string()),
        embed(serde_json::to_string(view_html).unwrap()),
    )
}

#[tokio::test]
async fn in_headless_chromium_the_view_draws_every_thinned_point_reads_values_on_hover_and_toggles_series() {
    let h = Harness::start().await;
    let run = newest(&h, Sport::Running);
    let host = apps_host(&h).await;
    let folder = h.dir.path().join("charts").display().to_string();
    let result =
        call(&host, "render_chart", json!({"kind": "activity", "activity_id": run.id, "folder": folder}))
            .await;
    let view = view_of(&result).unwrap().clone();
    let read = h.client.read_resource(ReadResourceRequestParams::new(VIEW_URI)).await.unwrap();
    let ResourceContents::TextResourceContents { text: html, .. } = &read.contents[0] else { panic!("text") };

    let page = h.dir.path().join("host.html");
    std::fs::write(&page, host_page(html, &serde_json::to_value(&result).unwrap())).unwrap();
    let output = std::process::Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--allow-file-access-from-files",
            "--virtual-time-budget=15000",
        ])
        .arg(format!("--user-data-dir={}", h.dir.path().join("chromium").display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&output.stdout);
    let report = dom
        .split_once("<pre id=\"out\">")
        .and_then(|(_, rest)| rest.split_once("</pre>"))
        .map(|(text, _)| text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
        .unwrap_or_else(|| {
            panic!("no report in the page: {dom}\n{}", String::from_utf8_lossy(&output.stderr))
        });
    let report: Value =
        serde_json::from_str(&report).unwrap_or_else(|_| panic!("the view did not draw: {report}"));
    println!("view test report: {report}");

    // Every point the data has after thinning is drawn, series by series.
    let present =
        |column: &str| view["series"][column].as_array().unwrap().iter().filter(|v| !v.is_null()).count();
    assert_eq!(report["points"]["hr"], json!(present("hrBpm")), "{report}");
    let speeds = view["series"]["speedMps"].as_array().unwrap();
    let moving = speeds.iter().filter(|v| v.as_f64().is_some_and(|s| s > 0.3)).count();
    assert_eq!(report["points"]["speed"], json!(moving), "pace is drawn wherever the runner moved: {report}");
    // Hovering the middle of the first panel (pace) reads the pace at that sample.
    assert_eq!(report["hover"]["panel"], "speed");
    assert_eq!(report["hover"]["shown"], "block");
    let i = report["hover"]["index"].as_u64().unwrap() as usize;
    let speed = speeds[i].as_f64().unwrap();
    let pace = (1000.0 / speed).round() as u64;
    let expected = format!("{}:{:02} /km", pace / 60, pace % 60);
    assert!(report["hover"]["text"].as_str().unwrap().contains(&expected), "{expected} in {report}");
    // Turning heart rate off removes its panel.
    assert_eq!(report["afterToggle"]["hr"], 0);
    assert_eq!(
        report["afterToggle"]["panels"].as_u64().unwrap() + 1,
        report["panelsBefore"].as_u64().unwrap()
    );
    // The host's dark theme and Chinese locale, and not a single request.
    assert_eq!((report["theme"].as_str(), report["lang"].as_str()), (Some("dark"), Some("zh-CN")));
    assert!(report["legend"].as_str().unwrap().contains("心率"), "{report}");
    assert_eq!(report["requests"], 0, "the view loaded nothing");
    println!("view: {} bytes; result to first paint {} ms", html.len(), report["paintMs"]);
}
