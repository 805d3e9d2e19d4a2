//! MCP Apps (the `io.modelcontextprotocol/ui` extension, stable 2026-01-26): interactive charts a
//! host draws inside the chat. `render_chart`, `get_fitness_trend` and `get_activity` name one view,
//! [`VIEW_URI`], in their `_meta.ui.resourceUri`; `resources/read` serves it as one self-contained
//! HTML page (`assets/chart-view.html`: script and styles inline, no external URL) with a CSP that
//! allows no network at all.
//!
//! The view's data travels in the result's `_meta` under [`VIEW_META`] ([`view`] builds it), never
//! in `structuredContent`, which some clients put in front of the model. It is sent only to clients
//! that say they render MCP Apps (the extension in their capabilities, per request for 2026-07-28
//! peers); every other client gets exactly the answer it got before this module existed: text,
//! structured summary and PNG. `tools/list` is the same for everyone (2026-07-28 forbids it to vary
//! per connection); hosts without MCP Apps ignore the key.
//!
//! The page is built from `ui/src/mcp-app/` (Svelte, like the app's window) by
//! `npm run build:mcp-app` in `ui/` into `assets/chart-view.html`, scripts and styles inline. The
//! built file is committed so that `cargo build`, `cargo install garmin-mcp` (the registry's `cargo`
//! package) and the cross builds need no Node.js; `cargo xtask test` rebuilds it and fails when
//! the committed copy differs from its sources. The tests below check that it stays
//! self-contained.

pub(crate) mod view;

use rmcp::model::{
    CallToolResponse, CallToolResult, ClientCapabilities, MetaObject, ReadResourceResult, Resource,
    ResourceContents, Tool,
};
use serde_json::{Value, json};

/// The extension's identifier in client and server capabilities.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The MIME type of an MCP App's HTML.
pub const MIME: &str = "text/html;profile=mcp-app";
/// The one view of this server: every chart kind, picked by the data it is given.
pub const VIEW_URI: &str = "ui://garmin-mcp/charts.html";
/// The result `_meta` key holding the view's data.
pub const VIEW_META: &str = "dev.garminmcp/view";
/// The tools whose results the view draws.
pub const TOOLS_WITH_VIEW: [&str; 3] = ["render_chart", "get_fitness_trend", "get_activity"];
/// The built view (see the module documentation for how it is built and why it is committed).
pub const VIEW_HTML: &str = include_str!("../assets/chart-view.html");

/// This server's extensions: MCP Apps (no settings).
pub fn server_extensions() -> rmcp::model::ExtensionCapabilities {
    let mut extensions = rmcp::model::ExtensionCapabilities::new();
    extensions.insert(EXTENSION.to_owned(), rmcp::model::JsonObject::new());
    extensions
}

/// Names the view in `tool`'s `_meta.ui` when it is one of [`TOOLS_WITH_VIEW`].
pub fn declare(tool: &mut Tool) {
    if !TOOLS_WITH_VIEW.contains(&tool.name.as_ref()) {
        return;
    }
    tool.meta.get_or_insert_with(MetaObject::new).insert("ui".to_owned(), json!({ "resourceUri": VIEW_URI }));
}

/// The resource's `_meta.ui`: no external origin of any kind (empty lists are the spec's "none"),
/// and a border from the host around the chart.
fn resource_ui_meta() -> MetaObject {
    let mut meta = MetaObject::new();
    meta.insert(
        "ui".to_owned(),
        json!({
            "csp": { "connectDomains": [], "resourceDomains": [], "frameDomains": [], "baseUriDomains": [] },
            "prefersBorder": true,
        }),
    );
    meta
}

/// The view as `resources/list` shows it.
pub fn resource() -> Resource {
    Resource::new(VIEW_URI, "chart_view")
        .with_title("Interactive charts")
        .with_description(
            "The interactive chart view of render_chart, get_fitness_trend and get_activity (MCP Apps): \
             hover readouts, zoom, series toggles; no network.",
        )
        .with_mime_type(MIME)
        .with_size(VIEW_HTML.len() as u64)
        .with_meta(resource_ui_meta())
}

/// `resources/read` of the view, or `None` for any other URI.
pub fn read(uri: &str) -> Option<ReadResourceResult> {
    (uri == VIEW_URI).then(|| {
        ReadResourceResult::new(vec![ResourceContents::TextResourceContents {
            uri: VIEW_URI.to_owned(),
            mime_type: Some(MIME.to_owned()),
            text: VIEW_HTML.to_owned(),
            meta: Some(resource_ui_meta()),
        }])
    })
}

/// Whether a client with these capabilities renders MCP Apps: it names the extension with our MIME
/// type (or with no MIME list, which the spec's earlier drafts allowed).
pub fn client_renders(capabilities: Option<&ClientCapabilities>) -> bool {
    let Some(settings) = capabilities.and_then(|c| c.extensions.as_ref()).and_then(|e| e.get(EXTENSION))
    else {
        return false;
    };
    match settings.get("mimeTypes").and_then(Value::as_array) {
        Some(types) => types.iter().any(|t| t.as_str() == Some(MIME)),
        None => true,
    }
}

/// Finishes a tool's answer for its client: for a host that renders MCP Apps, the view's data is
/// put in `_meta` (from the structured answer for `get_fitness_trend` and `get_activity`; drawn
/// charts bring their own); for any other client it is taken out, so its answer is unchanged.
pub fn finish(tool: &str, answer: &mut CallToolResponse, renders: bool) {
    let CallToolResponse::Complete(result) = answer else { return };
    if !renders {
        drop_view(result);
        return;
    }
    if result.is_error == Some(true) || has_view(result) {
        return;
    }
    let derived = match (tool, result.structured_content.as_ref()) {
        ("get_fitness_trend", Some(data)) => view::fitness_from_answer(data),
        ("get_activity", Some(data)) => view::activity_from_answer(data),
        _ => None,
    };
    if let Some(data) = derived {
        attach(result, data);
    }
}

/// Puts the view's data in the result's `_meta`.
pub fn attach(result: &mut CallToolResult, data: Value) {
    result.meta.get_or_insert_with(MetaObject::new).insert(VIEW_META.to_owned(), data);
}

fn has_view(result: &CallToolResult) -> bool {
    result.meta.as_ref().is_some_and(|m| m.contains_key(VIEW_META))
}

fn drop_view(result: &mut CallToolResult) {
    if let Some(meta) = result.meta.as_mut() {
        meta.remove(VIEW_META);
        if meta.is_empty() {
            result.meta = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capabilities(extensions: Value) -> ClientCapabilities {
        serde_json::from_value(json!({ "extensions": extensions })).unwrap()
    }

    #[test]
    fn only_clients_naming_the_extension_with_our_mime_type_render_the_view() {
        assert!(!client_renders(None));
        assert!(!client_renders(Some(&ClientCapabilities::default())));
        assert!(client_renders(Some(&capabilities(json!({ EXTENSION: { "mimeTypes": [MIME] } })))));
        assert!(client_renders(Some(&capabilities(json!({ EXTENSION: {} })))));
        assert!(!client_renders(Some(&capabilities(json!({ EXTENSION: { "mimeTypes": ["text/html"] } })))));
        assert!(!client_renders(Some(&capabilities(json!({ "io.example/other": {} })))));
    }

    #[test]
    fn the_view_is_taken_out_for_other_clients_and_the_rest_of_meta_stays() {
        let mut result = CallToolResult::success(vec![]);
        attach(&mut result, json!({"view": "fitness"}));
        result.meta.as_mut().unwrap().insert("dev.garminmcp/source".to_owned(), json!("demo"));
        let mut answer = CallToolResponse::Complete(result);
        finish("render_chart", &mut answer, false);
        let CallToolResponse::Complete(result) = &answer else { panic!() };
        let meta = result.meta.as_ref().unwrap();
        assert!(!meta.contains_key(VIEW_META) && meta.contains_key("dev.garminmcp/source"));

        let mut bare = CallToolResult::success(vec![]);
        attach(&mut bare, json!({"view": "fitness"}));
        let mut answer = CallToolResponse::Complete(bare);
        finish("render_chart", &mut answer, false);
        let CallToolResponse::Complete(result) = &answer else { panic!() };
        assert!(result.meta.is_none(), "no empty _meta is left behind");
    }

    #[test]
    fn the_view_page_is_self_contained() {
        assert!(VIEW_HTML.starts_with("<!doctype html>") || VIEW_HTML.starts_with("<!DOCTYPE html>"));
        // XML namespace names (Svelte creates elements in them) are identifiers, never fetched.
        let lower = VIEW_HTML
            .to_lowercase()
            .replace("http://www.w3.org/1999/xhtml", "")
            .replace("http://www.w3.org/2000/svg", "");
        for external in [
            "http://",
            "https://",
            "//cdn",
            "src=",
            "href=",
            "<link",
            "@import",
            "url(",
            "fetch(",
            "xmlhttprequest",
            "websocket",
            "eventsource",
            "sendbeacon",
            "import(",
        ] {
            assert!(!lower.contains(external), "the view names or opens an external place: {external}");
        }
        assert_eq!(lower.matches("<script").count(), 1, "one inline script, nothing loaded");
        assert!(VIEW_HTML.len() < 96 * 1024, "the view is {} bytes", VIEW_HTML.len());
        let read = read(VIEW_URI).unwrap();
        let ResourceContents::TextResourceContents { mime_type, meta, .. } = &read.contents[0] else {
            panic!("the view is text")
        };
        assert_eq!(mime_type.as_deref(), Some(MIME));
        let csp = &meta.as_ref().unwrap()["ui"]["csp"];
        for key in ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] {
            assert_eq!(csp[key], json!([]), "{key} must allow nothing");
        }
        assert!(super::read("ui://garmin-mcp/other.html").is_none());
    }
}
