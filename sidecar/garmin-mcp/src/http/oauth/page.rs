//! The consent page and the authorization server's error pages: self-contained HTML (no external
//! asset), every client-supplied text escaped, a strict Content-Security-Policy with a per-page
//! nonce for its one style and one script, `frame-ancestors 'none'` and `X-Frame-Options: DENY`
//! (no clickjacking), no caching and no referrer.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use html_escape::{encode_double_quoted_attribute as attr, encode_text as text};

use super::random_secret;

/// What the consent page shows.
#[derive(Debug)]
pub(super) struct Consent<'a> {
    pub(super) client_name: &'a str,
    pub(super) client_id: &'a str,
    pub(super) pinned: bool,
    pub(super) redirect_target: &'a str,
    pub(super) asks_write: bool,
    pub(super) request: &'a str,
    pub(super) csrf: &'a str,
    pub(super) tag: &'a str,
    /// A problem with the last submission (a wrong code…).
    pub(super) problem: Option<&'a str>,
    /// Where the form's redirect may go (CSP `form-action`).
    pub(super) redirect_origin: &'a str,
}

const STYLE: &str = "body{font:16px/1.45 system-ui,sans-serif;max-width:34em;margin:2em auto;padding:0 1em;color:#1b1f24}\
h1{font-size:1.35em}.box{border:1px solid #c9d1d9;border-radius:8px;padding:1em;margin:1em 0}\
.muted{color:#57606a;font-size:.9em}.problem{color:#a40e26;font-weight:600}\
input[name=code]{font-size:1.6em;letter-spacing:.3em;width:7em;text-align:center}\
button{font-size:1em;padding:.5em 1.2em;margin:.4em .4em 0 0}.tag{font-family:monospace;font-weight:700}";

const SCRIPT: &str = "(function(){var f=document.getElementById('consent');var r=f.elements.request.value;\
function poll(){fetch('/authorize/status?request='+encodeURIComponent(r),{credentials:'same-origin'})\
.then(function(x){return x.ok?x.json():null}).then(function(j){if(j&&j.decided){f.submit()}else{setTimeout(poll,2000)}})\
.catch(function(){setTimeout(poll,4000)})}setTimeout(poll,2000)})();";

/// The consent page.
pub(super) fn consent(view: &Consent<'_>, cookie: Option<String>) -> Response {
    let nonce = random_secret("", 16);
    let who = if view.pinned {
        format!("{} <span class=\"muted\">({})</span>", text(view.client_name), text(view.client_id))
    } else {
        format!(
            "{} <span class=\"muted\">(calls itself so; client id {})</span>",
            text(view.client_name),
            text(view.client_id)
        )
    };
    let problem = view
        .problem
        .map(|p| format!("<p class=\"problem\" role=\"alert\">{}</p>", text(p)))
        .unwrap_or_default();
    let write_note = if view.asks_write { " It asked for this." } else { "" };
    let body = format!(
        "<h1>Allow {name} to read your Garmin data?</h1>\
<div class=\"box\"><p><b>Who:</b> {who}</p><p><b>Sends the answer to:</b> {target}</p>\
<p><b>Request:</b> <span class=\"tag\">{tag}</span> <span class=\"muted\">(the Garmin MCP app shows the same letters)</span></p></div>\
{problem}\
<form id=\"consent\" method=\"post\" action=\"/authorize\">\
<input type=\"hidden\" name=\"request\" value=\"{request}\"><input type=\"hidden\" name=\"csrf\" value=\"{csrf}\">\
<p><label><input type=\"checkbox\" checked disabled> Read your activities, sleep, health and training data</label></p>\
<p><label><input type=\"checkbox\" name=\"write\" value=\"on\"> Also let it create, change and delete workouts and \
calendar entries (each change still asks you first).{write_note}</label></p>\
<div class=\"box\"><p><b>Prove it is you:</b> type the 6-digit pairing code shown in the Garmin MCP app on your computer \
(or printed by <code>garmin-mcp remote pair</code>), or click <b>Allow</b> in the app: this page then continues by itself.</p>\
<p><input name=\"code\" inputmode=\"numeric\" autocomplete=\"one-time-code\" maxlength=\"7\" aria-label=\"Pairing code\"></p>\
<button type=\"submit\">Allow</button><button type=\"submit\" name=\"deny\" value=\"1\">Deny</button></div>\
</form><p class=\"muted\">Only approve a request you started yourself, in your assistant, just now. You can revoke access any \
time in the app or with <code>garmin-mcp remote revoke</code>.</p>",
        name = text(view.client_name),
        target = text(view.redirect_target),
        tag = text(view.tag),
        request = attr(view.request),
        csrf = attr(view.csrf),
    );
    let csp = format!(
        "default-src 'none'; style-src 'nonce-{nonce}'; script-src 'nonce-{nonce}'; connect-src 'self'; \
         img-src 'none'; base-uri 'none'; form-action 'self' {}; frame-ancestors 'none'",
        view.redirect_origin
    );
    let mut response =
        document(StatusCode::OK, "Allow access to your Garmin data?", &body, &nonce, true, &csp);
    if let Some(cookie) = cookie.and_then(|c| HeaderValue::from_str(&c).ok()) {
        response.headers_mut().insert(header::SET_COOKIE, cookie);
    }
    response
}

/// An error page: what went wrong and what to do, with no link anywhere.
pub(super) fn error(status: StatusCode, title: &str, detail: &str) -> Response {
    let nonce = random_secret("", 16);
    let body = format!("<h1>{}</h1><p>{}</p>", text(title), text(detail));
    let csp = format!(
        "default-src 'none'; style-src 'nonce-{nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    );
    document(status, title, &body, &nonce, false, &csp)
}

fn document(status: StatusCode, title: &str, body: &str, nonce: &str, script: bool, csp: &str) -> Response {
    let script = if script { format!("<script nonce=\"{nonce}\">{SCRIPT}</script>") } else { String::new() };
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"referrer\" content=\"no-referrer\">\
<title>{title}</title><style nonce=\"{nonce}\">{STYLE}</style></head><body>{body}{script}</body></html>",
        title = text(title),
    );
    let mut response = (status, html).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if let Ok(value) = HeaderValue::from_str(csp) {
        headers.insert(header::CONTENT_SECURITY_POLICY, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn client_text_is_escaped_and_the_page_cannot_be_framed() {
        let view = Consent {
            client_name: "<script>alert(1)</script>",
            client_id: "x\"><img src=x>",
            pinned: false,
            redirect_target: "evil.example",
            asks_write: true,
            request: "r\"1",
            csrf: "c",
            tag: "K7F2",
            problem: Some("<b>wrong</b>"),
            redirect_origin: "https://evil.example",
        };
        let response = consent(&view, None);
        let headers = response.headers().clone();
        assert_eq!(headers[header::X_FRAME_OPTIONS], "DENY");
        let csp = headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'") && csp.contains("default-src 'none'"), "{csp}");
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap();
        let html = String::from_utf8(bytes.to_vec()).unwrap();
        assert!(!html.contains("<script>alert") && html.contains("&lt;script&gt;alert(1)"));
        assert!(!html.contains("<img src=x>") && !html.contains("<b>wrong</b>"));
        assert!(html.contains("value=\"r&quot;1\""));
        assert!(!html.contains("http://") && !html.contains("src=\"http"), "no external asset");
    }
}
